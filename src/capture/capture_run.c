/* capture_run.c - one MCP session per requested protocol version, then the merge.
 * Up to 2025-11-25: `initialize` then `notifications/initialized`
 * (docs/specification/2025-11-25/basic/lifecycle.mdx:47-155; the server answers the
 * version it will speak, :165-175; shapes in schema/2025-11-25/schema.ts:255-293). From 2026-07-28: no handshake; `server/discover`
 * and every request carries `_meta` with io.modelcontextprotocol/protocolVersion and
 * clientCapabilities (2026-07-28/changelog.mdx:14-16, server/discover.mdx:11-60,
 * schema/2026-07-28/schema.ts:63-110 and 179-181); an unsupported version is an
 * UnsupportedProtocolVersionError -32022 (basic/versioning.mdx:48-71), and on stdio any
 * other error or silence means a legacy server (basic/transports/stdio.mdx:121-141).
 * Lists follow `nextCursor` (schema.ts:1054-1074). Line numbers: MCP repository b0f60ba. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/rpc.h"
#include "base/util.h"

#define CLIENT_NAME "mcpdesc"

static const char *const list_method[CAPTURE_NLISTS] = {"tools/list", "resources/list",
                                                        "resources/templates/list", "prompts/list"};
static const char *const list_member[CAPTURE_NLISTS] = {"tools", "resources", "resourceTemplates",
                                                        "prompts"};
static const char *const list_capability[CAPTURE_NLISTS] = {"tools", "resources", "resources",
                                                            "prompts"};

static int is_modern(const char *version)
{
    return strcmp(version, "2026-07-28") >= 0;
}

static json_t *client_info(void)
{
    return json_pack("{s:s, s:s}", "name", CLIENT_NAME, "version", MCPDESC_VERSION);
}

/* params for a 2026-07-28 request: {"_meta": {...}} */
static json_t *modern_params(const char *version)
{
    return json_pack("{s:{s:s, s:o, s:{}}}", "_meta", "io.modelcontextprotocol/protocolVersion",
                     version, "io.modelcontextprotocol/clientInfo", client_info(),
                     "io.modelcontextprotocol/clientCapabilities");
}

enum outcome { SESSION_OK, SESSION_REFUSED, SESSION_FAILED };

/* A progress note on stderr, "mcpdesc: NAME: TEXT" for a server of a client
 * configuration (NAME: its key, so that the notes of several servers say whose they
 * are), else "mcpdesc: TEXT"; one write, as sessions note in parallel. */
static void note(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const char *name, const char *fmt, ...)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "mcpdesc: ");
    if (name) buf_addf(&b, "%s: ", name);
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = xcalloc((size_t)(len > 0 ? len : 0) + 1, 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    buf_adds(&b, text);
    buf_addc(&b, '\n');
    fputs(buf_str(&b), stderr);
    free(text);
    buf_release(&b);
}

/* An HTTP refusal that says the request lacks credentials (RFC 9110 15.5.2, 15.5.4),
 * not that the version or the path is wrong. */
static int http_auth_refusal(long status)
{
    return status == 401 || status == 403;
}

/* An HTTP 4xx that a server gives for a version or method it does not serve (400:
 * an unsupported MCP-Protocol-Version, 2025-06-18/basic/transports.mdx; a legacy server
 * refusing server/discover) or for a wrong path (404, 405). */
static int http_version_or_path_refusal(long status)
{
    return status == 400 || status == 404 || status == 405;
}

/* List every page of LIST into s->lists[LIST]. */
static enum outcome list_all(rpc_conn *c, const struct capture_opts *o, struct capture_session *s,
                             int list, struct buf *err)
{
    const char *method = list_method[list];
    json_t *items = json_array();
    char *cursor = NULL;
    struct rpc_error e = RPC_ERROR_INIT;
    enum outcome out = SESSION_OK;
    for (int page = 0;; page++) {
        if (page >= o->max_pages) {
            buf_addf(err,
                     "server kept paginating '%s' beyond %d pages (raise --max-pages if the server "
                     "really has that many)",
                     method, o->max_pages);
            out = SESSION_FAILED;
            break;
        }
        json_t *params = is_modern(s->version) ? modern_params(s->version) : NULL;
        if (cursor) {
            if (!params) params = json_object();
            json_object_set_new(params, "cursor", json_string(cursor));
        }
        json_t *result = NULL;
        enum rpc_fail f = rpc_call(c, method, params, &result, &e);
        if (f == RPC_EJSONRPC && list == CAPTURE_TEMPLATES && e.code == -32601) {
            note(o->name,
                 "%s: the server declares resources but not '%s' (%s); recording no resource "
                 "templates",
                 s->version, method, buf_str(&e.msg));
            break;
        }
        if (f != RPC_OK) {
            buf_addf(err, "%s", buf_str(&e.msg));
            if (f == RPC_EJSONRPC)
                buf_addf(
                    err,
                    " (the server declares '%s' but cannot list it: fix the server, or capture "
                    "only the versions that work with --protocol-version)",
                    list_capability[list]);
            out = SESSION_FAILED;
            break;
        }
        json_t *arr = json_object_get(result, list_member[list]);
        if (!json_is_array(arr)) {
            buf_addf(err, "server's answer to '%s' has no '%s' array", method, list_member[list]);
            json_decref(result);
            out = SESSION_FAILED;
            break;
        }
        json_array_extend(items, arr);
        if (!s->server_info && is_modern(s->version)) {
            json_t *si = json_object_get(json_object_get(result, "_meta"),
                                         "io.modelcontextprotocol/serverInfo");
            if (si) s->server_info = json_incref(si);
        }
        json_t *next = json_object_get(result, "nextCursor");
        if (!json_is_string(next)) {
            json_decref(result);
            break;
        }
        if (cursor && !strcmp(cursor, json_string_value(next))) {
            buf_addf(err, "server returned the same nextCursor '%s' twice for '%s'", cursor,
                     method);
            json_decref(result);
            out = SESSION_FAILED;
            break;
        }
        free(cursor);
        cursor = xstrdup(json_string_value(next));
        json_decref(result);
    }
    free(cursor);
    rpc_error_release(&e);
    if (out == SESSION_OK) s->lists[list] = items;
    else json_decref(items);
    return out;
}

static enum outcome handshake_legacy(rpc_conn *c, const char *name, struct capture_session *s,
                                     long *http_refusal, struct buf *err)
{
    struct rpc_error e = RPC_ERROR_INIT;
    json_t *params = json_pack("{s:s, s:{}, s:o}", "protocolVersion", s->requested, "capabilities",
                               "clientInfo", client_info());
    json_t *result = NULL;
    enum rpc_fail f = rpc_call(c, "initialize", params, &result, &e);
    if (f == RPC_EJSONRPC || (f == RPC_EHTTP && e.http_status >= 400 && e.http_status < 500)) {
        if (f == RPC_EHTTP) *http_refusal = e.http_status;
        note(name, "%s: the server refused to initialize (%s); version not recorded", s->requested,
             buf_str(&e.msg));
        rpc_error_release(&e);
        return SESSION_REFUSED;
    }
    if (f != RPC_OK) {
        buf_addf(err, "%s", buf_str(&e.msg));
        rpc_error_release(&e);
        return SESSION_FAILED;
    }
    json_t *pv = json_object_get(result, "protocolVersion");
    if (!json_is_string(pv)) {
        buf_adds(err, "server's answer to 'initialize' has no protocolVersion string");
        json_decref(result);
        rpc_error_release(&e);
        return SESSION_FAILED;
    }
    s->version = xstrdup(json_string_value(pv));
    s->server_info = json_incref(json_object_get(result, "serverInfo"));
    s->capabilities = json_incref(json_object_get(result, "capabilities"));
    s->instructions = json_incref(json_object_get(result, "instructions"));
    json_decref(result);
    /* the header exists from 2025-06-18 (2025-06-18/basic/transports.mdx:242-246; servers
     * assume 2025-03-26 without it, :251) */
    if (strcmp(s->version, "2025-06-18") >= 0) rpc_set_http_version(c, s->version, 0);
    f = rpc_notify(c, "notifications/initialized", NULL, &e);
    if (f != RPC_OK) {
        buf_addf(err, "%s", buf_str(&e.msg));
        rpc_error_release(&e);
        return SESSION_FAILED;
    }
    rpc_error_release(&e);
    return SESSION_OK;
}

static void add_versions(struct buf *b, json_t *arr)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
        buf_addf(b, "%s%s", i ? ", " : "", json_is_string(v) ? json_string_value(v) : "?");
}

static enum outcome handshake_modern(rpc_conn *c, const char *name, struct capture_session *s,
                                     long *http_refusal, struct buf *err)
{
    struct rpc_error e = RPC_ERROR_INIT;
    rpc_set_http_version(c, s->requested, 1);
    json_t *result = NULL;
    enum rpc_fail f = rpc_call(c, "server/discover", modern_params(s->requested), &result, &e);
    enum outcome out = SESSION_OK;
    if (f == RPC_EJSONRPC && e.code == -32022) {
        struct buf b = BUF_INIT;
        add_versions(&b, json_object_get(e.data, "supported"));
        note(name, "%s: not supported by the server (it supports: %s); version not recorded",
             s->requested, b.s ? b.s : "not said");
        buf_release(&b);
        out = SESSION_REFUSED;
    } else if (f == RPC_EHTTP && http_auth_refusal(e.http_status)) {
        /* wanting credentials says nothing about the versions it serves */
        *http_refusal = e.http_status;
        note(name, "%s: the server refused 'server/discover' (%s); version not recorded",
             s->requested, buf_str(&e.msg));
        out = SESSION_REFUSED;
    } else if (f == RPC_EJSONRPC || f == RPC_ETIMEOUT ||
               (f == RPC_EHTTP && e.http_status >= 400 && e.http_status < 500)) {
        /* HTTP: a 4xx without a modern error body means a legacy server
         * (2026-07-28 basic/versioning.mdx:139-146) */
        if (f == RPC_EHTTP) *http_refusal = e.http_status;
        note(name,
             "%s: the server does not implement server/discover (%s); taking it for a server "
             "without 2026-07-28 support; version not recorded",
             s->requested, buf_str(&e.msg));
        out = SESSION_REFUSED;
    } else if (f != RPC_OK) {
        buf_addf(err, "%s", buf_str(&e.msg));
        out = SESSION_FAILED;
    } else {
        json_t *sv = json_object_get(result, "supportedVersions");
        int ok = 0;
        size_t i;
        json_t *v;
        json_array_foreach(sv, i, v) ok |=
            json_is_string(v) && !strcmp(json_string_value(v), s->requested);
        if (!ok) {
            struct buf b = BUF_INIT;
            add_versions(&b, sv);
            note(name,
                 "%s: server/discover does not list it (supportedVersions: %s); version not "
                 "recorded",
                 s->requested, b.s ? b.s : "none");
            buf_release(&b);
            out = SESSION_REFUSED;
        } else {
            s->version = xstrdup(s->requested);
            s->capabilities = json_incref(json_object_get(result, "capabilities"));
            s->instructions = json_incref(json_object_get(result, "instructions"));
            s->server_info = json_incref(json_object_get(json_object_get(result, "_meta"),
                                                         "io.modelcontextprotocol/serverInfo"));
        }
    }
    json_decref(result);
    rpc_error_release(&e);
    return out;
}

/* ---- the sessions, in parallel ---- */

/* One requested version: its session and how it ended. */
struct job {
    struct capture_session s;
    enum outcome out;
    struct buf err;
    long http_refusal;    /* HTTP status of a refused handshake, else 0 */
    const char *skip_for; /* not run: the session for this version answered it */
    int started;
};

struct pool {
    const struct capture_opts *o;
    struct job *jobs;
    size_t n;
    size_t next; /* the next job to start */
    int stop;    /* a session failed or an interrupt arrived: start no more */
    pthread_mutex_t mu;
};

/* Serialises the relayed server stderr lines (whole lines, one write each). */
static pthread_mutex_t relay_mu = PTHREAD_MUTEX_INITIALIZER;

struct relay {
    int fd;                     /* read end of the server's stderr pipe */
    int out;                    /* where the lines go */
    const char *label;          /* the session's requested version (NAME VERSION with a name) */
    const char *const *secrets; /* shown as *** */
    int done;                   /* the session ended (atomic): stop at the next quiet moment */
    pthread_t thread;
};

static void write_all_fd(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

/* Write LINE (N bytes, no newline) as "[LABEL] LINE\n" in one write. */
static void relay_line(struct relay *r, const char *line, size_t n)
{
    struct buf b = BUF_INIT;
    buf_addf(&b, "[%s] ", r->label);
    rpc_mask(&b, line, n, r->secrets);
    buf_addc(&b, '\n');
    pthread_mutex_lock(&relay_mu);
    write_all_fd(r->out, b.s, b.len);
    pthread_mutex_unlock(&relay_mu);
    buf_release(&b);
}

/* Copy the server's stderr line by line with the version in front, until end of file,
 * or, once the session ended, until nothing came for a moment (a descendant of the
 * server may keep the pipe open). */
static void *relay_main(void *arg)
{
    struct relay *r = arg;
    struct buf pending = BUF_INIT;
    double quiet_since = 0;
    for (;;) {
        struct pollfd pfd = {r->fd, POLLIN, 0};
        int pr = poll(&pfd, 1, 100);
        if (pr < 0 && errno != EINTR) break;
        if (pr <= 0) {
            if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
                if (quiet_since == 0) quiet_since = rpc_now();
                else if (rpc_now() - quiet_since > 0.2) break;
            }
            continue;
        }
        char chunk[4096];
        ssize_t got = read(r->fd, chunk, sizeof chunk);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) break;
        quiet_since = 0;
        buf_add(&pending, chunk, (size_t)got);
        size_t start = 0;
        for (size_t i = 0; i < pending.len; i++) {
            if (pending.s[i] != '\n') continue;
            size_t end = i > start && pending.s[i - 1] == '\r' ? i - 1 : i;
            relay_line(r, pending.s + start, end - start);
            start = i + 1;
        }
        if (pending.len - start > 65536) { /* a very long line: pass it on in pieces */
            relay_line(r, pending.s + start, pending.len - start);
            start = pending.len;
        }
        memmove(pending.s, pending.s + start, pending.len - start);
        pending.len -= start;
    }
    if (pending.len) relay_line(r, pending.s, pending.len);
    buf_release(&pending);
    return NULL;
}

/* Mark the job of VERSION, when it has not started, as answered by the session for
 * ASKED (a server that answers 'initialize' for ASKED with VERSION: the session counts
 * for VERSION, so VERSION is not asked again). */
static void mark_answered(struct pool *p, const char *asked, const char *version)
{
    if (is_modern(version) || !capture_version_known(version)) return;
    pthread_mutex_lock(&p->mu);
    for (size_t i = 0; i < p->n; i++) {
        struct job *j = &p->jobs[i];
        if (!j->started && !j->skip_for && !strcmp(p->o->versions[i], version)) j->skip_for = asked;
    }
    pthread_mutex_unlock(&p->mu);
}

/* One session for J->s.requested. */
static enum outcome run_session(struct pool *p, struct job *j)
{
    const struct capture_opts *o = p->o;
    struct capture_session *s = &j->s;
    char *label = o->name ? xasprintf("%s %s", o->name, s->requested) : xstrdup(s->requested);
    struct rpc_opts ro = {o->request_timeout,
                          rpc_now() + o->session_timeout,
                          o->max_message,
                          o->stderr_fd,
                          o->verbose,
                          label,
                          o->envp,
                          o->headers,
                          o->secrets};
    struct relay r = {-1, o->stderr_fd >= 0 ? o->stderr_fd : 2, label, o->secrets, 0, 0};
    int relaying = 0;
    struct rpc_error e = RPC_ERROR_INIT;
    rpc_conn *c = NULL;
    if (!o->url) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) == 0) {
            r.fd = fds[0];
            ro.stderr_fd = fds[1];
            relaying = pthread_create(&r.thread, NULL, relay_main, &r) == 0;
            if (!relaying) {
                close(fds[0]);
                ro.stderr_fd = o->stderr_fd;
            }
        }
        c = rpc_open_stdio(o->argv, &ro, &e);
        if (relaying) close(ro.stderr_fd); /* the server holds its own copy */
    } else {
        c = rpc_open_http(o->url, &ro, &e);
    }
    enum outcome out = SESSION_FAILED;
    if (!c) {
        buf_addf(&j->err, "%s", buf_str(&e.msg));
    } else {
        out = is_modern(s->requested) ? handshake_modern(c, o->name, s, &j->http_refusal, &j->err)
                                      : handshake_legacy(c, o->name, s, &j->http_refusal, &j->err);
        if (out == SESSION_OK && strcmp(s->version, s->requested))
            mark_answered(p, s->requested, s->version);
        if (out == SESSION_OK && !s->capabilities) s->capabilities = json_object();
        for (int l = 0; out == SESSION_OK && l < CAPTURE_NLISTS; l++) {
            if (!json_object_get(s->capabilities, list_capability[l])) continue;
            out = list_all(c, o, s, l, &j->err);
        }
        rpc_close(c);
    }
    rpc_error_release(&e);
    if (relaying) {
        __atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
        pthread_join(r.thread, NULL);
        close(r.fd);
    }
    free(label);
    return out;
}

static void *worker_main(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        if (p->stop || rpc_interrupted()) p->next = p->n;
        size_t i = p->next;
        while (i < p->n && p->jobs[i].skip_for) i++; /* answered already */
        p->next = i < p->n ? i + 1 : p->n;
        if (i < p->n) p->jobs[i].started = 1;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n) return NULL;
        struct job *j = &p->jobs[i];
        j->out = run_session(p, j);
        if (j->out == SESSION_FAILED) {
            pthread_mutex_lock(&p->mu);
            p->stop = 1;
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* What to do about an HTTP refusal of STATUS that is not about the version or path. */
static const char *refusal_advice(const struct capture_opts *o, long status)
{
    if (!http_auth_refusal(status)) return "see the notes above";
    if (o->name) return "check the server's headers or credentials in the configuration";
    return "it wants credentials, which --url does not send: put the URL and its \"headers\" "
           "in a client configuration and capture that with --client-config";
}

/* Where the URL's path starts ("/" when it has none), up to '?' or '#', as new text. */
static char *url_path(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    p += strcspn(p, "/?#");
    if (*p != '/') return xstrdup("/");
    return xstrndup(p, strcspn(p, "?#"));
}

json_t *capture_run(const struct capture_opts *o, struct buf *err)
{
    /* said once, before any session: not one of them can start without libcurl */
    const char *missing = o->url ? rpc_http_missing() : NULL;
    if (missing) {
        buf_adds(err, missing);
        return NULL;
    }
    struct pool p = {o,
                     xcalloc(o->nversions ? o->nversions : 1, sizeof *p.jobs),
                     o->nversions,
                     0,
                     0,
                     PTHREAD_MUTEX_INITIALIZER};
    for (size_t i = 0; i < p.n; i++) {
        p.jobs[i].s.requested = xstrdup(o->versions[i]);
        p.jobs[i].out = SESSION_REFUSED;
        p.jobs[i].err = (struct buf)BUF_INIT;
    }
    json_decref(json_object()); /* jansson's hash seed, before there are threads */
    rpc_global_init();
    size_t nthreads = o->jobs < 1 ? 1 : (size_t)o->jobs;
    if (nthreads > p.n) nthreads = p.n ? p.n : 1;
    pthread_t *threads = xcalloc(nthreads, sizeof *threads);
    size_t started = 0;
    for (size_t t = 1; t < nthreads; t++)
        if (pthread_create(&threads[t], NULL, worker_main, &p) == 0) started = t;
        else break;
    worker_main(&p); /* the calling thread is worker 0 */
    for (size_t t = 1; t <= started; t++) pthread_join(threads[t], NULL);
    free(threads);

    struct capture_session *ss = xcalloc(p.n ? p.n : 1, sizeof *ss);
    size_t n = 0;
    json_t *doc = NULL;
    long http_refusal = 0, http_other_refusal = 0;
    int failed = 0;
    for (size_t i = 0; i < p.n && !failed; i++) {
        struct job *j = &p.jobs[i];
        if (j->skip_for) {
            note(o->name, "%s: not asked: the session for %s was answered with this version",
                 o->versions[i], j->skip_for);
            continue;
        }
        if (!j->started) { /* stopped after a failure or an interrupt */
            if (rpc_interrupted()) {
                buf_adds(err, "interrupted");
                failed = 1;
            }
            continue;
        }
        if (j->out == SESSION_FAILED) {
            buf_addf(err, "session for protocol version %s: %s", o->versions[i], buf_str(&j->err));
            if (strstr(buf_str(&j->err), "exited with") ||
                strstr(buf_str(&j->err), "was killed by"))
                buf_adds(err,
                         o->stderr_fd >= 0
                             ? " (its stderr, in the --server-stderr file, may say why)"
                             : " (its stderr, above, may say why)");
            failed = 1;
            continue;
        }
        if (j->out == SESSION_REFUSED) {
            long st = j->http_refusal;
            if (st == 404 || st == 405) http_refusal = st;
            else if (st && !http_version_or_path_refusal(st) &&
                     (!http_other_refusal || http_auth_refusal(st)))
                http_other_refusal = st; /* credentials first: they say why best */
            continue;
        }
        struct capture_session *s = &j->s;
        if (strcmp(s->version, s->requested)) {
            if (is_modern(s->version)) {
                note(o->name,
                     "%s: the server answered 'initialize' with protocol version %s, which has "
                     "no 'initialize'; session dropped",
                     s->requested, s->version);
                continue;
            }
            if (!capture_version_known(s->version)) {
                note(o->name,
                     "%s: the server answered with protocol version '%s', which mcpdesc does not "
                     "know; session dropped",
                     s->requested, s->version);
                continue;
            }
            note(o->name,
                 "%s: the server answered with protocol version %s; the session counts for %s",
                 s->requested, s->version, s->version);
        }
        ss[n++] = *s;
        memset(s, 0, sizeof *s);
    }
    for (size_t i = 0; i < p.n; i++) {
        capture_session_release(&p.jobs[i].s);
        buf_release(&p.jobs[i].err);
    }
    free(p.jobs);
    pthread_mutex_destroy(&p.mu);
    if (failed) goto done;
    /* One session per negotiated version: prefer the one that asked for it. */
    int *drop = xcalloc(n ? n : 1, sizeof *drop);
    for (size_t i = 0; i < n; i++) {
        int exact_i = !strcmp(ss[i].version, ss[i].requested);
        for (size_t j = 0; j < n; j++) {
            if (j == i || strcmp(ss[j].version, ss[i].version)) continue;
            int exact_j = !strcmp(ss[j].version, ss[j].requested);
            if ((!exact_i && exact_j) || (exact_i == exact_j && j < i)) drop[i] = 1;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (drop[i]) {
            note(o->name, "%s: session dropped, protocol version %s was already captured",
                 ss[i].requested, ss[i].version);
            capture_session_release(&ss[i]);
            continue;
        }
        if (kept != i) {
            ss[kept] = ss[i];
            memset(&ss[i], 0, sizeof ss[i]);
        }
        kept++;
    }
    free(drop);
    n = kept;
    if (n == 0) {
        if (http_other_refusal) {
            buf_addf(err, "the server refused the request: HTTP %ld (%s)", http_other_refusal,
                     refusal_advice(o, http_other_refusal));
        } else if (http_refusal) {
            char *path = url_path(o->url ? o->url : "");
            buf_addf(err,
                     "the server answered %ld for %s: is the path right? MCP servers commonly "
                     "serve /mcp",
                     http_refusal, path);
            free(path);
        } else {
            buf_adds(err,
                     "the server accepted none of the requested protocol versions (see the "
                     "notes above; try other --protocol-version values)");
        }
        goto done;
    }
    struct buf notes = BUF_INIT;
    doc = capture_merge(ss, n, "mcpdesc " MCPDESC_VERSION, o->date, &notes);
    for (const char *q = buf_str(&notes); *q;) {
        const char *nl = strchr(q, '\n');
        size_t len = nl ? (size_t)(nl - q) : strlen(q);
        note(o->name, "%.*s", (int)len, q);
        q += len + (nl ? 1 : 0);
    }
    buf_release(&notes);
done:
    for (size_t i = 0; i < n; i++) capture_session_release(&ss[i]);
    free(ss);
    return doc;
}
