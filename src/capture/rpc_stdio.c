/* rpc_stdio.c - the MCP stdio transport: a child process in its own process group,
 * newline-delimited JSON-RPC on its stdin/stdout, poll() with deadlines, and a
 * shutdown that always reaps the child (close stdin, SIGTERM, SIGKILL).
 * Shutdown order follows docs/specification/2026-07-28/basic/transports/stdio.mdx:89-100
 * (MCP repository, b0f60ba). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/rpc.h"
#include "capture/rpcInt.h"
#include "base/util.h"

extern char **environ;

struct stdio_impl {
    pid_t pid;
    int in_fd;  /* our end of the child's stdin, -1 once closed */
    int out_fd; /* our end of the child's stdout */
    int reaped;
    int status;
    struct rpc_reader reader;
    char *name; /* argv[0], for messages */
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Wait up to SECONDS for the child to exit; 1 when reaped. */
static int wait_exit(struct stdio_impl *s, double seconds)
{
    double end = rpc_now() + seconds;
    for (;;) {
        if (s->reaped) return 1;
        pid_t r = waitpid(s->pid, &s->status, WNOHANG);
        if (r == s->pid || (r < 0 && errno == ECHILD)) {
            s->reaped = 1;
            return 1;
        }
        if (rpc_now() >= end) return 0;
        sleep_ms(10);
    }
}

static void describe_exit(struct stdio_impl *s, struct buf *b)
{
    if (!s->reaped) buf_adds(b, "closed its standard output");
    else if (WIFEXITED(s->status)) buf_addf(b, "exited with status %d", WEXITSTATUS(s->status));
    else if (WIFSIGNALED(s->status))
        buf_addf(b, "was killed by signal %d (%s)", WTERMSIG(s->status),
                 strsignal(WTERMSIG(s->status)));
    else buf_adds(b, "ended");
}

static enum rpc_fail fail_exit(rpc_conn *c, struct stdio_impl *s, const char *what,
                               struct rpc_error *err)
{
    wait_exit(s, 1.0);
    rpc_fail_with(err, RPC_EEXIT, "server '%s' ", s->name);
    describe_exit(s, &err->msg);
    buf_addf(&err->msg, " %s", what);
    (void)c;
    return RPC_EEXIT;
}

static enum rpc_fail write_all(rpc_conn *c, struct stdio_impl *s, const char *p, size_t n,
                               double start, struct rpc_error *err)
{
    while (n) {
        if (s->in_fd < 0) return fail_exit(c, s, "before mcpdesc could send its request", err);
        ssize_t w = write(s->in_fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EPIPE) return fail_exit(c, s, "before reading its input", err);
        if (w < 0 && errno != EAGAIN)
            return rpc_fail_with(err, RPC_EIO, "cannot write to server: %s", strerror(errno));
        double left = rpc_time_left(c, start);
        if (rpc_interrupted())
            return rpc_fail_with(err, RPC_EINTR, "interrupted while writing to the server");
        if (left <= 0)
            return rpc_fail_with(err, RPC_ETIMEOUT, "server '%s' did not read its input in time",
                                 s->name);
        struct pollfd pfd = {s->in_fd, POLLOUT, 0};
        int ms = left > 0.25 ? 250 : (int)(left * 1000) + 1; /* look at interrupts */
        if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
            return rpc_fail_with(err, RPC_EIO, "poll: %s", strerror(errno));
        if (pfd.revents & (POLLERR | POLLHUP) && !(pfd.revents & POLLOUT))
            return fail_exit(c, s, "before reading its input", err);
    }
    return RPC_OK;
}

static enum rpc_fail send_msg(rpc_conn *c, struct stdio_impl *s, json_t *msg, double start,
                              struct rpc_error *err)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (!text) BUG("json_dumps failed");
    rpc_trace(c, "->", text, strlen(text));
    struct buf b = BUF_INIT;
    buf_adds(&b, text);
    buf_addc(&b, '\n');
    free(text);
    enum rpc_fail f = write_all(c, s, b.s, b.len, start, err);
    buf_release(&b);
    return f;
}

/* Read until one complete message is available; *msg is new. */
static enum rpc_fail read_msg(rpc_conn *c, struct stdio_impl *s, const char *method, double start,
                              json_t **msg, struct rpc_error *err)
{
    for (;;) {
        const char *line;
        size_t n;
        int r = rpc_reader_next(&s->reader, &line, &n);
        if (r < 0)
            return rpc_fail_with(err, RPC_ETOOBIG,
                                 "server '%s' sent a message longer than %zu bytes while answering "
                                 "'%s' (raise --max-message if it is legitimate)",
                                 s->name, c->opts.max_message, method);
        if (r > 0) {
            rpc_trace(c, "<-", line, n);
            json_error_t jerr;
            json_t *m = json_loadb(line, n, 0, &jerr);
            if (!m || rpc_classify(m) == RPC_MSG_INVALID) {
                rpc_fail_with(err, RPC_EGARBAGE,
                              "server '%s' wrote %s to its standard output, "
                              "which is not a JSON-RPC message",
                              s->name, m ? "a JSON value" : "a line");
                buf_adds(&err->msg, ": ");
                rpc_add_snippet(&err->msg, line, n);
                buf_adds(&err->msg,
                         " (an MCP stdio server must write only JSON-RPC messages to stdout, "
                         "and log to stderr)");
                json_decref(m);
                return RPC_EGARBAGE;
            }
            *msg = m;
            return RPC_OK;
        }
        double left = rpc_time_left(c, start);
        if (left <= 0) {
            if (c->opts.deadline > 0 && rpc_now() >= c->opts.deadline)
                return rpc_fail_with(
                    err, RPC_ETIMEOUT,
                    "session time limit reached while waiting for the answer to '%s' "
                    "(raise --session-timeout if the server is just slow)",
                    method);
            return rpc_fail_with(
                err, RPC_ETIMEOUT,
                "server '%s' did not answer '%s' within %g s (raise --timeout if it "
                "is just slow)",
                s->name, method, c->opts.request_timeout);
        }
        struct pollfd pfd = {s->out_fd, POLLIN, 0};
        int ms = left > 0.25 ? 250 : (int)(left * 1000) + 1; /* look at interrupts */
        int pr = poll(&pfd, 1, ms);
        if (rpc_interrupted())
            return rpc_fail_with(err, RPC_EINTR, "interrupted while waiting for the answer to '%s'",
                                 method);
        if (pr < 0) {
            if (errno == EINTR) continue;
            return rpc_fail_with(err, RPC_EIO, "poll: %s", strerror(errno));
        }
        if (pr == 0) continue;
        char chunk[65536];
        ssize_t got = read(s->out_fd, chunk, sizeof chunk);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return rpc_fail_with(err, RPC_EIO, "cannot read from server: %s", strerror(errno));
        }
        if (got == 0) {
            struct buf what = BUF_INIT;
            buf_addf(&what, "before answering '%s'", method);
            if (rpc_reader_pending(&s->reader)) buf_adds(&what, " (its last line was incomplete)");
            fail_exit(c, s, what.s, err);
            buf_release(&what);
            return RPC_EEXIT;
        }
        rpc_reader_feed(&s->reader, chunk, (size_t)got);
    }
}

static enum rpc_fail stdio_call(rpc_conn *c, json_t *request, json_int_t id, json_t **response,
                                struct rpc_error *err)
{
    struct stdio_impl *s = c->impl;
    const char *method = json_string_value(json_object_get(request, "method"));
    double start = rpc_now();
    enum rpc_fail f = send_msg(c, s, request, start, err);
    if (f) return f;
    for (;;) {
        json_t *m = NULL;
        f = read_msg(c, s, method, start, &m, err);
        if (f) return f;
        enum rpc_kind k = rpc_classify(m);
        if (k == RPC_MSG_RESPONSE && rpc_id_matches(m, id)) {
            *response = m;
            return RPC_OK;
        }
        if (k == RPC_MSG_REQUEST) {
            json_t *answer = rpc_answer_server_request(m);
            f = send_msg(c, s, answer, start, err);
            json_decref(answer);
            if (f) {
                json_decref(m);
                return f;
            }
        }
        /* notifications and responses to other ids are ignored */
        json_decref(m);
    }
}

static enum rpc_fail stdio_notify(rpc_conn *c, json_t *msg, struct rpc_error *err)
{
    return send_msg(c, c->impl, msg, rpc_now(), err);
}

static void stdio_close(rpc_conn *c)
{
    struct stdio_impl *s = c->impl;
    if (s->in_fd >= 0) close(s->in_fd);
    s->in_fd = -1;
    if (!wait_exit(s, 1.0)) {
        kill(-s->pid, SIGTERM);
        kill(s->pid, SIGTERM);
        if (!wait_exit(s, 2.0)) {
            if (c->opts.verbose)
                fprintf(stderr, "mcpdesc: server ignored SIGTERM, sending SIGKILL\n");
            kill(-s->pid, SIGKILL);
            kill(s->pid, SIGKILL);
            while (waitpid(s->pid, &s->status, 0) < 0 && errno == EINTR) {}
            s->reaped = 1;
        }
    }
    close(s->out_fd);
    rpc_reader_release(&s->reader);
    free(s->name);
    free(s);
}

static const struct rpc_conn_ops stdio_ops = {stdio_call, stdio_notify, NULL, stdio_close};

rpc_conn *rpc_open_stdio(char *const argv[], const struct rpc_opts *o, struct rpc_error *err)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) < 0) {
        rpc_fail_with(err, RPC_EIO, "pipe: %s", strerror(errno));
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) < 0) {
        rpc_fail_with(err, RPC_EIO, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (o->stderr_fd >= 0) posix_spawn_file_actions_adddup2(&fa, o->stderr_fd, 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(
        &at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, o->envp ? o->envp : environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        rpc_fail_with(err, RPC_EIO, "cannot start server '%s': %s", argv[0], strerror(rc));
        close(in[1]);
        close(out[0]);
        return NULL;
    }
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    struct stdio_impl *s = xcalloc(1, sizeof *s);
    s->pid = pid;
    s->in_fd = in[1];
    s->out_fd = out[0];
    s->name = xstrdup(argv[0]);
    rpc_reader_init(&s->reader, o->max_message);
    rpc_conn *c = xcalloc(1, sizeof *c);
    c->ops = &stdio_ops;
    c->opts = *o;
    c->next_id = 1;
    c->impl = s;
    return c;
}
