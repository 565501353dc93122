/* nosocket.c - an LD_PRELOAD shim proving that nothing is fetched: every call that would
 * open a network connection or resolve a name is logged to $NOSOCKET_LOG (one line per
 * call: the function and its argument) and fails (EACCES / EAI_FAIL) without reaching
 * the C library. The hostile runner preloads it and requires an empty log.
 * Built as a shared object without sanitizers (tests/hostile/run.sh, mk/hostile.mk). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Appends one line to the log with plain write(2): no stdio state in a preloaded shim. */
static void nosocket_log(const char *fn, const char *what)
{
    const char *path = getenv("NOSOCKET_LOG");
    char line[512];
    if (!path)
        return;
    int n = snprintf(line, sizeof line, "%s(%s) pid %d\n", fn, what ? what : "", (int)getpid());
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (n > 0 && write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        n = -1; /* nothing more to do: the call fails anyway */
    close(fd);
}

static const char *family_name(int domain)
{
    switch (domain) {
    case AF_UNIX: return "AF_UNIX";
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    default: return "other";
    }
}

int socket(int domain, int type, int protocol)
{
    nosocket_log("socket", family_name(domain));
    errno = EACCES;
    return -1;
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    nosocket_log("connect", addr ? family_name(addr->sa_family) : "");
    errno = EACCES;
    return -1;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                struct addrinfo **res)
{
    nosocket_log("getaddrinfo", node);
    return EAI_FAIL;
}

struct hostent *gethostbyname(const char *name)
{
    nosocket_log("gethostbyname", name);
    h_errno = NO_RECOVERY;
    return NULL;
}
