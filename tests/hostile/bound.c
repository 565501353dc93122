/* bound.c - run a command within a wall-time and a resident-memory bound.
 *   bound SECONDS MEGABYTES REPORT -- COMMAND [ARGS...]
 * The command's standard streams are inherited. Every 5 ms its resident set is read from
 * /proc/PID/statm; over MEGABYTES, or past SECONDS of wall time, it is killed (SIGKILL).
 * REPORT receives one line:
 *   exit N | signal N | killed-time | killed-memory   then  rss_kb=N ms=N
 * where rss_kb is the peak resident set (getrusage, so spikes between samples count too).
 * A resident-set bound rather than ulimit -v: AddressSanitizer reserves terabytes of
 * address space, so a virtual-memory limit cannot bound a sanitized build.
 * Exit status: 0 when the report was written, 2 on bad usage or when COMMAND cannot run. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Resident set of PID in kB, or -1 once it is gone. */
static long long rss_kb(pid_t pid)
{
    char path[64];
    long long size, resident;
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = fscanf(f, "%lld %lld", &size, &resident);
    fclose(f);
    return n == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

int main(int argc, char **argv)
{
    if (argc < 6 || strcmp(argv[4], "--") != 0) {
        fputs("usage: bound SECONDS MEGABYTES REPORT -- COMMAND [ARGS...]\n", stderr);
        return 2;
    }
    long long limit_ms = (long long)(atof(argv[1]) * 1000);
    long long limit_kb = atoll(argv[2]) * 1024;
    FILE *report = fopen(argv[3], "w");
    if (!report) {
        perror(argv[3]);
        return 2;
    }
    long long start = now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        fclose(report);
        execvp(argv[5], argv + 5);
        fprintf(stderr, "bound: cannot run %s: %s\n", argv[5], strerror(errno));
        _exit(127);
    }
    const char *killed = NULL;
    int status = 0;
    struct rusage ru;
    for (;;) {
        pid_t r = wait4(pid, &status, WNOHANG, &ru);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            perror("wait4");
            return 2;
        }
        if (!killed && rss_kb(pid) > limit_kb)
            killed = "killed-memory";
        else if (!killed && now_ms() - start > limit_ms)
            killed = "killed-time";
        if (killed)
            kill(pid, SIGKILL);
        usleep(5000);
    }
    long long ms = now_ms() - start;
    if (!killed && ru.ru_maxrss > limit_kb)
        killed = "killed-memory"; /* a spike between two samples */
    if (killed)
        fprintf(report, "%s", killed);
    else if (WIFEXITED(status))
        fprintf(report, "exit %d", WEXITSTATUS(status));
    else
        fprintf(report, "signal %d", WTERMSIG(status));
    fprintf(report, " rss_kb=%ld ms=%lld\n", ru.ru_maxrss, ms);
    return fclose(report) == 0 ? 0 : 2;
}
