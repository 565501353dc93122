/* cmd_capture.c - `mcpdesc capture`: start (or reach) an MCP server, list what it
 * offers for each protocol version, write the merged MCP Description, and optionally
 * run `validate` on it. Exit 0 on success, 2 on bad usage or a failed capture
 * (with --validate: validate's status). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "capture/capture.h"
#include "cli/cmd.h"
#include "cli/cmd_capture_config.h"
#include "cli/cmd_common.h"
#include "capture/rpc.h"
#include "base/util.h"
#include "findings/suppress.h"
#include "rules/release.h"

/* Every option, for did-you-mean (tests/check-options.sh checks them against --help, the
 * man page and the bash completion). */
static const char *const options[] = {"--protocol-version",
                                      "--url",
                                      "--client-config",
                                      "-o",
                                      "--output",
                                      "--date",
                                      "-j",
                                      "--jobs",
                                      "--timeout",
                                      "--session-timeout",
                                      "--max-message",
                                      "--max-pages",
                                      "--server-stderr",
                                      "-v",
                                      "--verbose",
                                      "--validate",
                                      "-h",
                                      "--help",
                                      NULL};

static void usage(FILE *out)
{
    fputs("usage: mcpdesc capture [OPTIONS] [--validate [VALIDATE-OPTIONS]] -- COMMAND [ARGS...]\n"
          "       mcpdesc capture [OPTIONS] --url URL [--validate [VALIDATE-OPTIONS]]\n"
          "       mcpdesc capture [OPTIONS] --client-config FILE -o DIR\n"
          "\n"
          "Start the MCP server COMMAND (stdio transport) or reach it at URL (Streamable HTTP),\n"
          "list its tools, resources, resource templates and prompts for each protocol version,\n"
          "and write the merged MCP Description.\n"
          "\n"
          "options:\n"
          "  --protocol-version V  capture only this version (repeatable; default: 2024-11-05,\n"
          "                        2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)\n"
          "  --url URL             use the Streamable HTTP endpoint URL instead of a command\n"
          "  --client-config FILE  capture every server of a client configuration (Claude\n"
          "                        Desktop, VS Code .vscode/mcp.json, Cursor .cursor/mcp.json)\n"
          "                        into DIR/KEY.mcp-description.json; it runs every configured\n"
          "                        command: read the file first. env and headers values are\n"
          "                        passed on and shown nowhere (*** in the server's stderr).\n"
          "                        Exit 1 when a server failed (the others are captured)\n"
          "  -o, --output FILE     write the description to FILE (default: standard output);\n"
          "                        checked before any server starts. With --client-config:\n"
          "                        the directory DIR, made when missing\n"
          "  --date YYYY-MM-DD     date recorded in x-capturedBy; 'today' for today (UTC).\n"
          "                        Default: the date of SOURCE_DATE_EPOCH when it is set, else\n"
          "                        none, so that capturing the same server gives the same file\n"
          "  -j, --jobs N          sessions run at the same time (default: the number of\n"
          "                        versions or of CPUs, whichever is smaller); the output does\n"
          "                        not depend on it\n"
          "  --timeout SECONDS     time limit per request (default 30)\n"
          "  --session-timeout SECONDS  time limit per session, one per version (default 120)\n"
          "  --max-message BYTES   size limit per message (default 16777216)\n"
          "  --max-pages N         pages followed per list call (default 100)\n"
          "  --server-stderr FILE  write the server's stderr to FILE (default: pass it through);\n"
          "                        each line starts with its session's version: [2025-06-18]\n"
          "  -v, --verbose         log every JSON-RPC message on stderr ([VERSION] in front)\n"
          "  --validate            after writing, run `mcpdesc validate` on FILE (needs -o); the\n"
          "                        arguments after --validate up to `--` are validate's options\n"
          "  -h, --help            show this help\n"
          "\n"
          "One session per version, each with its own server process (or HTTP session), run\n"
          "in parallel; the server's answer to one version is not asked again. At the end, a\n"
          "summary line on stderr: the versions captured and the counts of items.\n"
          "\n"
          "examples:\n"
          "  mcpdesc capture -o everything.json -- npx -y @modelcontextprotocol/server-everything\n"
          "  mcpdesc capture -o d.json --validate --format json -- ./my-server --stdio\n"
          "  mcpdesc capture --url http://127.0.0.1:3001/mcp --protocol-version 2025-11-25\n"
          "  mcpdesc capture --client-config .vscode/mcp.json -o captured/\n",
          out);
}

static int fail_usage(const char *fmt, const char *arg)
{
    fputs("mcpdesc capture: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'mcpdesc capture --help')\n", stderr);
    return 2;
}

/* Parse "--name VALUE" or "--name=VALUE" at argv[*i]; 1 if it is NAME. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **value,
                     int *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n)) return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) {
        *missing = 1;
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 86400) return -1;
    *out = v;
    return 0;
}

static int parse_count(const char *s, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > max) return -1;
    *out = v;
    return 0;
}

/* YYYY-MM-DD naming a day of the calendar (2026-02-30 and 2026-13-01 are not). */
static int valid_date(const char *d)
{
    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9')) return 0;
    int y = atoi(d), m = atoi(d + 5), day = atoi(d + 8);
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || day < 1 || day > mdays[m - 1]) return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return !(m == 2 && day == 29 && !leap);
}

/* Write TEXT to PATH via a temporary file in the same directory and rename. */
static int write_file(const char *path, const char *text)
{
    char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': %s\n", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': %s\n", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* What the command line asks for (parse_options). */
struct capture_cli_opts {
    VEC(const char *) versions; /* --protocol-version, no duplicates; default: all known */
    VEC(char *) vargs;          /* validate's options, after --validate */
    const char *url, *out, *date, *stderr_file;
    const char *client_config; /* --client-config FILE: -o is a directory */
    double timeout, session_timeout;
    long long max_message, max_pages;
    int verbose, validate;
    long long jobs;   /* -j; 0: the default */
    char **command;   /* the server's argv, or NULL with --url */
    char datebuf[16]; /* --date today, or SOURCE_DATE_EPOCH's date */
};

static void opts_release(struct capture_cli_opts *o)
{
    VEC_FREE(o->versions);
    VEC_FREE(o->vargs);
}

static int check_client_config_usage(struct capture_cli_opts *o);
static char *together_command(const char *dir);
static int fill_defaults(struct capture_cli_opts *o);

/* Parse ARGV into *O and fill in the defaults (every known version, today's date).
 * Returns 0 to go on, 2 on bad usage (after a message), -1 when --help was printed. */
static int parse_options(int argc, char **argv, struct capture_cli_opts *o)
{
    *o = (struct capture_cli_opts){.versions = VEC_INIT,
                                   .vargs = VEC_INIT,
                                   .timeout = 30,
                                   .session_timeout = 120,
                                   .max_message = 16 * 1024 * 1024,
                                   .max_pages = 100};
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int missing = 0;
        if (o->validate) {
            if (!strcmp(a, "--")) {
                i++;
                break;
            }
            VEC_PUSH(o->vargs, argv[i]);
            continue;
        }
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = 1;
        } else if (!strcmp(a, "--validate")) {
            o->validate = 1;
        } else if (opt_value(argc, argv, &i, "--protocol-version", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            if (!capture_version_known(v))
                return fail_usage("unknown protocol version '%s' (known: 2024-11-05, 2025-03-26, "
                                  "2025-06-18, 2025-11-25, 2026-07-28)",
                                  v);
            int dup = 0;
            for (size_t k = 0; k < o->versions.len; k++) dup |= !strcmp(o->versions.items[k], v);
            if (!dup) VEC_PUSH(o->versions, v);
        } else if (opt_value(argc, argv, &i, "--url", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            o->url = v;
        } else if (opt_value(argc, argv, &i, "--client-config", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            o->client_config = v;
        } else if (opt_value(argc, argv, &i, "-o", &v, &missing) ||
                   opt_value(argc, argv, &i, "--output", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            o->out = v;
        } else if (opt_value(argc, argv, &i, "--date", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            if (!strcmp(v, "today")) {
                time_t now = time(NULL);
                struct tm tm;
                gmtime_r(&now, &tm);
                strftime(o->datebuf, sizeof o->datebuf, "%Y-%m-%d", &tm);
                v = o->datebuf;
            } else if (!valid_date(v)) {
                return fail_usage("--date wants YYYY-MM-DD or 'today', not '%s'", v);
            }
            o->date = v;
        } else if ((!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9' && (v = a + 2)) ||
                   opt_value(argc, argv, &i, "-j", &v, &missing) ||
                   opt_value(argc, argv, &i, "--jobs", &v, &missing)) {
            if (missing || parse_count(v, 64, &o->jobs))
                return fail_usage("-j wants a number of sessions from 1 to 64, not '%s'",
                                  missing ? "" : v);
        } else if (opt_value(argc, argv, &i, "--timeout", &v, &missing)) {
            if (missing || parse_seconds(v, &o->timeout))
                return fail_usage("--timeout wants a number of seconds, not '%s'",
                                  missing ? "" : v);
        } else if (opt_value(argc, argv, &i, "--session-timeout", &v, &missing)) {
            if (missing || parse_seconds(v, &o->session_timeout))
                return fail_usage("--session-timeout wants a number of seconds, not '%s'",
                                  missing ? "" : v);
        } else if (opt_value(argc, argv, &i, "--max-message", &v, &missing)) {
            if (missing || parse_count(v, (long long)1 << 32, &o->max_message))
                return fail_usage("--max-message wants a number of bytes, not '%s'",
                                  missing ? "" : v);
        } else if (opt_value(argc, argv, &i, "--max-pages", &v, &missing)) {
            if (missing || parse_count(v, 1000000, &o->max_pages))
                return fail_usage("--max-pages wants a positive number, not '%s'",
                                  missing ? "" : v);
        } else if (opt_value(argc, argv, &i, "--server-stderr", &v, &missing)) {
            if (missing) return fail_usage("option '%s' needs a value", a);
            o->stderr_file = v;
        } else if (a[0] == '-') {
            cmd_unknown_option("capture", a, options);
            return 2;
        } else {
            break; /* the command starts here */
        }
    }
    if (i < argc) o->command = argv + i;
    if (o->client_config) return check_client_config_usage(o);
    if (o->url && o->command)
        return fail_usage("give either --url or a server command, not both (%s)", o->command[0]);
    if (!o->url && !o->command)
        return fail_usage("no server given: add '-- COMMAND [ARGS...]' or '--url URL'%s", "");
    if (o->validate && (!o->out || !strcmp(o->out, "-")))
        return fail_usage("--validate needs -o FILE to have a file to validate%s", "");
    return fill_defaults(o);
}

/* --client-config: no other server, -o DIR, no --validate. 0, or 2 after a message. */
static int check_client_config_usage(struct capture_cli_opts *o)
{
    if (o->url || o->command)
        return fail_usage("--client-config captures the servers of the file: give no other "
                          "server (%s)",
                          o->url ? "--url" : o->command[0]);
    if (!o->out || !strcmp(o->out, "-"))
        return fail_usage("--client-config needs -o DIR, the directory that receives one "
                          "description per server%s",
                          "");
    if (o->validate) {
        char *next = together_command(o->out);
        fail_usage("--validate judges one description; after --client-config, judge them all "
                   "as the client sees them with '%s'",
                   next);
        free(next);
        return 2;
    }
    return fill_defaults(o);
}

/* The command that judges DIR's descriptions as one client session, new: the session
 * rules are in mcpdesc-security (the default rule set has none, and validate --together
 * refuses a set without them), so it names the newest tag this binary ships. */
static char *together_command(const char *dir)
{
    const char *newest = release_shipped_newest("mcpdesc-security");
    return newest
        ? xasprintf("mcpdesc validate --rules-tag mcpdesc-security@%s --together %s", newest, dir)
        : xasprintf("mcpdesc validate --together %s", dir);
}

/* The defaults: every known version, the date of SOURCE_DATE_EPOCH, -j. 0, or 2 after a
 * message. */
static int fill_defaults(struct capture_cli_opts *o)
{
    if (!o->versions.len)
        for (size_t k = 0; capture_known_versions[k]; k++)
            VEC_PUSH(o->versions, capture_known_versions[k]);
    /* No date unless asked (--date, SOURCE_DATE_EPOCH): a drift check that captures a
     * server and compares with the committed file must not change every day. */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (!o->date && sde && *sde) {
        if (suppress_today(o->datebuf))
            return fail_usage("SOURCE_DATE_EPOCH is a number of seconds since 1970-01-01 UTC, "
                              "not '%s'",
                              sde);
        o->date = o->datebuf;
    }
    if (!o->jobs) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = (long long)o->versions.len;
        if (cpus >= 1 && cpus < o->jobs) o->jobs = cpus;
    }
    return 0;
}

/* -o FILE can be written: not a directory, in a directory that exists and is
 * writable (the file is written there as a temporary, then renamed). 0, or 2 after a
 * message. Checked before any server starts, so a typo does not cost a capture. */
static int check_output(const char *path)
{
    struct stat st;
    if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': it is a directory (-o wants a file)\n",
                path);
        return 2;
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash ? (slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path)))
                      : xstrdup(".");
    int status = 0;
    if (stat(dir, &st)) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': directory '%s': %s\n", path, dir,
                strerror(errno));
        status = 2;
    } else if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': '%s' is not a directory\n", path, dir);
        status = 2;
    } else if (access(dir, W_OK | X_OK)) {
        fprintf(stderr, "mcpdesc capture: cannot write '%s': directory '%s' is not writable (%s)\n",
                path, dir, strerror(errno));
        status = 2;
    }
    free(dir);
    return status;
}

/* --client-config's -o DIR: made when missing (not its parents), a writable directory.
 * 0, or 2 after a message. */
static int check_output_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) && errno == ENOENT && mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "mcpdesc capture: cannot make the directory '%s': %s\n", dir,
                strerror(errno));
        return 2;
    }
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(stderr,
                "mcpdesc capture: '%s' is not a directory (with --client-config, -o names the "
                "directory that receives one description per server)\n",
                dir);
        return 2;
    }
    if (access(dir, W_OK | X_OK)) {
        fprintf(stderr, "mcpdesc capture: directory '%s' is not writable (%s)\n", dir,
                strerror(errno));
        return 2;
    }
    return 0;
}

/* Check -o, open --server-stderr (into *STDERR_FD, else -1) and set up the signals. 0,
 * or 2 after a message. */
static int prepare(const struct capture_cli_opts *o, int *stderr_fd)
{
    *stderr_fd = -1;
    if (o->client_config) {
        if (check_output_dir(o->out)) return 2;
    } else if (o->out && strcmp(o->out, "-") && check_output(o->out)) {
        return 2;
    }
    if (o->stderr_file) {
        *stderr_fd = open(o->stderr_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (*stderr_fd < 0) {
            fprintf(stderr, "mcpdesc capture: cannot open '%s': %s\n", o->stderr_file,
                    strerror(errno));
            return 2;
        }
    }
    /* A server that exits while we write to it must not kill us. */
    signal(SIGPIPE, SIG_IGN);
    /* Ctrl-C: end the sessions (killing and reaping the server) before exiting. */
    rpc_catch_interrupts();
    return 0;
}

/* The options every server's sessions share. */
static struct capture_opts session_opts(const struct capture_cli_opts *o, int stderr_fd)
{
    return (struct capture_opts){.versions = o->versions.items,
                                 .nversions = o->versions.len,
                                 .request_timeout = o->timeout,
                                 .session_timeout = o->session_timeout,
                                 .max_message = (size_t)o->max_message,
                                 .max_pages = (int)o->max_pages,
                                 .stderr_fd = stderr_fd,
                                 .verbose = o->verbose,
                                 .date = o->date,
                                 .jobs = (int)o->jobs};
}

/* Run the sessions and dump the merged description into *TEXT (new), the summary line
 * into SUMMARY. 0, or 2 after a message. */
static int capture(const struct capture_cli_opts *o, int stderr_fd, char **text,
                   struct buf *summary)
{
    struct capture_opts co = session_opts(o, stderr_fd);
    co.argv = o->command;
    co.url = o->url;
    struct buf err = BUF_INIT;
    json_t *captured = capture_run(&co, &err);
    if (!captured) {
        fprintf(stderr, "mcpdesc capture: %s\n", buf_str(&err));
        buf_release(&err);
        return 2;
    }
    buf_release(&err);
    struct buf b = BUF_INIT;
    capture_dump(captured, &b);
    *text = buf_detach(&b);
    capture_summary(captured, summary);
    json_decref(captured);
    return 0;
}

/* Write TEXT to -o FILE (through a temporary file) or standard output. 0, or 2 after
 * a message. */
static int emit(const struct capture_cli_opts *o, const char *text)
{
    if (o->out && strcmp(o->out, "-")) {
        if (write_file(o->out, text)) return 2;
    } else if (fputs(text, stdout) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "mcpdesc capture: cannot write to standard output: %s\n", strerror(errno));
        return 2;
    }
    return 0;
}

/* --validate: `mcpdesc validate [VALIDATE-OPTIONS] FILE`; its status. */
static int validate_output(const struct capture_cli_opts *o)
{
    VEC(char *) va = VEC_INIT;
    VEC_PUSH(va, (char *)"validate");
    for (size_t k = 0; k < o->vargs.len; k++) VEC_PUSH(va, o->vargs.items[k]);
    VEC_PUSH(va, (char *)o->out);
    VEC_PUSH(va, NULL);
    int status = cmd_validate((int)va.len - 1, va.items);
    VEC_FREE(va);
    return status;
}

/* DIR/FILE for --client-config's -o DIR, new. */
static char *dir_file(const char *dir, const char *file)
{
    size_t dl = strlen(dir);
    return xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", file);
}

/* S failed: its description of an earlier run in DIR would be judged as if it were
 * current (validate --together judges every file of DIR), so it goes, and is said to. */
static void remove_earlier(const char *dir, const struct client_server *s)
{
    char *path = dir_file(dir, s->file);
    struct stat st;
    if (!lstat(path, &st)) {
        if (!unlink(path))
            fprintf(stderr,
                    "mcpdesc: removed %s of an earlier run: %s was not captured this time\n", path,
                    s->key);
        else
            fprintf(stderr,
                    "mcpdesc: cannot remove %s of an earlier run (%s): %s was not captured this "
                    "time; remove the file before judging the directory\n",
                    path, strerror(errno), s->key);
    }
    free(path);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The descriptions in DIR that no server of CC names (another configuration's, a
 * server since removed): left in place, but said, as validate --together would judge
 * them with the others. */
static void note_strangers(const char *dir, const struct client_config *cc)
{
    static const char suffix[] = ".mcp-description.json";
    DIR *d = opendir(dir);
    if (!d) return;
    VEC(char *) names = VEC_INIT;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name), sl = sizeof suffix - 1;
        if (len <= sl || strcmp(e->d_name + len - sl, suffix)) continue;
        int named = 0;
        for (size_t i = 0; i < cc->servers.len && !named; i++)
            named = !strcmp(cc->servers.items[i].file, e->d_name);
        if (!named) VEC_PUSH(names, xstrdup(e->d_name));
    }
    closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, str_cmp);
    for (size_t i = 0; i < names.len; i++) {
        fprintf(stderr,
                "mcpdesc: %s also holds %s, which this configuration does not name: validate "
                "--together %s would judge it too\n",
                dir, names.items[i], dir);
        free(names.items[i]);
    }
    VEC_FREE(names);
}

/* One server of a client configuration: capture it into DIR/S->file. 0, or 1 after a
 * "failed" line that says why (with S's secrets masked: a server may echo them). */
static int capture_server(const struct capture_cli_opts *o, int stderr_fd,
                          const struct client_server *s)
{
    if (s->problem.len) {
        fprintf(stderr, "mcpdesc: %s: failed: %s\n", s->key, buf_str(&s->problem));
        remove_earlier(o->out, s);
        return 1;
    }
    char **envp = s->url ? NULL : cmd_capture_config_env(s);
    const char *const *secrets = (const char *const *)s->secrets.items;
    struct capture_opts co = session_opts(o, stderr_fd);
    co.argv = s->url ? NULL : s->argv.items;
    co.url = s->url;
    co.name = s->key;
    co.envp = envp;
    co.headers = (const char *const *)s->headers.items;
    co.secrets = secrets;
    struct buf err = BUF_INIT, line = BUF_INIT;
    json_t *captured = capture_run(&co, &err);
    free(envp);
    int status = 1;
    if (!captured) {
        buf_addf(&line, "mcpdesc: %s: failed: ", s->key);
        rpc_mask(&line, buf_str(&err), err.len, secrets);
    } else {
        struct buf text = BUF_INIT;
        capture_dump(captured, &text);
        char *path = dir_file(o->out, s->file);
        if (!write_file(path, buf_str(&text))) {
            buf_addf(&line, "mcpdesc: %s: ", s->key);
            capture_summary(captured, &line);
            buf_addf(&line, " -> %s", path);
            status = 0;
        }
        free(path);
        buf_release(&text);
        json_decref(captured);
    }
    if (line.len) fprintf(stderr, "%s\n", buf_str(&line));
    if (status) remove_earlier(o->out, s);
    buf_release(&line);
    buf_release(&err);
    return status;
}

/* --client-config: read the file and check -o DIR before any server starts, then every
 * server in the file's order, each with its sessions in parallel. 0 when all were
 * captured, 1 when one failed, 2 when the file or DIR cannot be used. */
static int capture_client_config(const struct capture_cli_opts *o)
{
    struct client_config cc;
    int stderr_fd = -1;
    if (cmd_capture_config_read(o->client_config, &cc)) return 2;
    if (prepare(o, &stderr_fd)) {
        cmd_capture_config_release(&cc);
        return 2;
    }
    size_t failed = 0, n = cc.servers.len, i = 0;
    for (; i < n && !rpc_interrupted(); i++) {
        const struct client_server *s = &cc.servers.items[i];
        fprintf(stderr, "mcpdesc: %s: capturing (server %zu of %zu, %s)\n", s->key, i + 1, n,
                s->url ? "Streamable HTTP" : "stdio");
        failed += (size_t)capture_server(o, stderr_fd, s);
    }
    int status = failed ? 1 : 0;
    if (i < n) {
        fprintf(stderr, "mcpdesc capture: interrupted\n");
        status = 2;
    } else if (failed == n) { /* nothing to judge: no next step */
        note_strangers(o->out, &cc);
        fprintf(stderr, "mcpdesc: 0 of %zu servers captured into %s\n", n, o->out);
    } else {
        note_strangers(o->out, &cc);
        char *next = together_command(o->out);
        fprintf(stderr, "mcpdesc: %zu of %zu servers captured into %s; next: %s\n", n - failed, n,
                o->out, next);
        free(next);
    }
    cmd_capture_config_release(&cc);
    if (stderr_fd >= 0) close(stderr_fd);
    return status;
}

int cmd_capture(int argc, char **argv)
{
    struct capture_cli_opts o;
    int status = parse_options(argc, argv, &o);
    if (!status) {
        int stderr_fd = -1;
        char *text = NULL;
        struct buf summary = BUF_INIT;
        if (o.client_config) {
            status = capture_client_config(&o);
            opts_release(&o);
            return status;
        }
        status = prepare(&o, &stderr_fd);
        if (!status) status = capture(&o, stderr_fd, &text, &summary);
        if (!status) status = emit(&o, text);
        if (!status) fprintf(stderr, "mcpdesc: %s\n", buf_str(&summary));
        buf_release(&summary);
        if (!status && o.validate) status = validate_output(&o);
        if (stderr_fd >= 0) close(stderr_fd);
        free(text);
    }
    opts_release(&o);
    return status < 0 ? 0 : status;
}
