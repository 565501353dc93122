/* rpc.c - JSON-RPC 2.0 framing (newline-delimited lines, SSE events), message
 * classification and the transport-independent part of a connection: ids, request
 * building, turning a response into a result or an error. See rpc.h. */
#include "capture/rpc.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "capture/rpcInt.h"
#include "base/util.h"

/* ---- newline-delimited reader ---- */

void rpc_reader_init(struct rpc_reader *r, size_t max)
{
    struct buf b = BUF_INIT;
    r->data = b;
    r->start = 0;
    r->max = max;
}

void rpc_reader_release(struct rpc_reader *r)
{
    buf_release(&r->data);
}

void rpc_reader_feed(struct rpc_reader *r, const char *p, size_t n)
{
    if (r->start > 0 && r->start == r->data.len) {
        buf_reset(&r->data);
        r->start = 0;
    } else if (r->start > 4096 && r->start > r->data.len / 2) {
        size_t rest = r->data.len - r->start;
        memmove(r->data.s, r->data.s + r->start, rest);
        buf_truncate(&r->data, rest);
        r->start = 0;
    }
    buf_add(&r->data, p, n);
}

size_t rpc_reader_pending(const struct rpc_reader *r)
{
    return r->data.len - r->start;
}

int rpc_reader_next(struct rpc_reader *r, const char **line, size_t *n)
{
    for (;;) {
        const char *s = r->data.s ? r->data.s + r->start : "";
        size_t avail = r->data.len - r->start;
        const char *nl = avail ? memchr(s, '\n', avail) : NULL;
        if (!nl) return avail > r->max ? -1 : 0;
        size_t len = (size_t)(nl - s);
        r->start += len + 1;
        if (len && s[len - 1] == '\r') len--;
        if (len > r->max) return -1;
        size_t i = 0;
        while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i == len) continue; /* blank line */
        *line = s;
        *n = len;
        return 1;
    }
}

/* ---- SSE ---- */

void rpc_sse_init(struct rpc_sse *s, size_t max)
{
    struct buf b = BUF_INIT;
    /* lines of an event are bounded by the event limit plus the field name */
    rpc_reader_init(&s->lines, max + 16);
    s->data = b;
    s->has_data = 0;
    s->max = max;
}

void rpc_sse_release(struct rpc_sse *s)
{
    rpc_reader_release(&s->lines);
    buf_release(&s->data);
}

void rpc_sse_feed(struct rpc_sse *s, const char *p, size_t n)
{
    rpc_reader_feed(&s->lines, p, n);
}

/* The SSE reader needs blank lines (they end events), so it splits lines itself. */
int rpc_sse_next(struct rpc_sse *s, char **data, size_t *n)
{
    struct rpc_reader *r = &s->lines;
    for (;;) {
        const char *p = r->data.s ? r->data.s + r->start : "";
        size_t avail = r->data.len - r->start;
        const char *nl = avail ? memchr(p, '\n', avail) : NULL;
        if (!nl) return avail > r->max ? -1 : 0;
        size_t len = (size_t)(nl - p);
        r->start += len + 1;
        if (len && p[len - 1] == '\r') len--;
        if (len == 0) { /* end of event */
            if (!s->has_data) continue;
            *n = s->data.len;
            *data = buf_detach(&s->data);
            s->has_data = 0;
            return 1;
        }
        if (p[0] == ':') continue; /* comment */
        if (len >= 5 && !memcmp(p, "data", 4) && (p[4] == ':' || len == 4)) {
            size_t off = 5;
            if (off < len && p[off] == ' ') off++;
            if (s->has_data) buf_addc(&s->data, '\n');
            buf_add(&s->data, p + off, len - off);
            if (!s->data.s) buf_adds(&s->data, "");
            s->has_data = 1;
            if (s->data.len > s->max) return -1;
        } else if (len == 4 && !memcmp(p, "data", 4)) {
            if (s->has_data) buf_addc(&s->data, '\n');
            else buf_adds(&s->data, "");
            s->has_data = 1;
            if (s->data.len > s->max) return -1; /* a stream of bare "data" lines too */
        }
        /* event:, id:, retry: and unknown fields are ignored */
    }
}

/* ---- messages ---- */

enum rpc_kind rpc_classify(json_t *msg)
{
    if (!json_is_object(msg)) return RPC_MSG_INVALID;
    json_t *v = json_object_get(msg, "jsonrpc");
    if (!json_is_string(v) || strcmp(json_string_value(v), "2.0")) return RPC_MSG_INVALID;
    json_t *method = json_object_get(msg, "method");
    json_t *id = json_object_get(msg, "id");
    if (method) {
        if (!json_is_string(method)) return RPC_MSG_INVALID;
        if (!id) return RPC_MSG_NOTIFICATION;
        return json_is_string(id) || json_is_integer(id) ? RPC_MSG_REQUEST : RPC_MSG_INVALID;
    }
    json_t *result = json_object_get(msg, "result");
    json_t *error = json_object_get(msg, "error");
    if (!id || (!result) == (!error)) return RPC_MSG_INVALID;
    if (error && !json_is_object(error)) return RPC_MSG_INVALID;
    return RPC_MSG_RESPONSE;
}

int rpc_id_matches(json_t *msg, json_int_t id)
{
    json_t *v = json_object_get(msg, "id");
    return json_is_integer(v) && json_integer_value(v) == id;
}

json_t *rpc_answer_server_request(json_t *request)
{
    json_t *id = json_object_get(request, "id");
    const char *method = json_string_value(json_object_get(request, "method"));
    if (method && !strcmp(method, "ping"))
        return json_pack("{s:s, s:O, s:{}}", "jsonrpc", "2.0", "id", id, "result");
    return json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id, "error", "code",
                     -32601, "message", "mcpdesc capture answers no requests");
}

/* ---- errors ---- */

void rpc_error_reset(struct rpc_error *e)
{
    e->kind = RPC_OK;
    e->code = 0;
    json_decref(e->data);
    e->data = NULL;
    e->http_status = 0;
    buf_reset(&e->msg);
}

void rpc_error_release(struct rpc_error *e)
{
    json_decref(e->data);
    e->data = NULL;
    buf_release(&e->msg);
    e->kind = RPC_OK;
}

enum rpc_fail rpc_fail_with(struct rpc_error *err, enum rpc_fail kind, const char *fmt, ...)
{
    rpc_error_reset(err);
    err->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    buf_adds(&err->msg, tmp);
    return kind;
}

void rpc_add_snippet(struct buf *b, const char *p, size_t n)
{
    size_t k = n > 80 ? 80 : n;
    buf_addc(b, '\'');
    for (size_t i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)p[i];
        if (ch < 0x20 || ch == 0x7f) buf_addf(b, "\\x%02x", ch);
        else buf_addc(b, (char)ch);
    }
    buf_addc(b, '\'');
    if (k < n) buf_adds(b, "...");
}

/* ---- interrupts ---- */

/* set by the handler only; read by every session's thread (lock-free atomics are
 * async-signal-safe) */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    __atomic_store_n(&interrupted, 1, __ATOMIC_SEQ_CST);
}

void rpc_catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: poll() and nanosleep() return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int rpc_interrupted(void)
{
    return __atomic_load_n(&interrupted, __ATOMIC_SEQ_CST) != 0;
}

/* ---- connection ---- */

double rpc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double rpc_time_left(const rpc_conn *c, double start)
{
    double end = start + c->opts.request_timeout;
    if (c->opts.deadline > 0 && c->opts.deadline < end) end = c->opts.deadline;
    return end - rpc_now();
}

void rpc_mask(struct buf *out, const char *p, size_t n, const char *const *secrets)
{
    size_t i = 0;
    while (i < n) {
        size_t hit = 0;
        for (size_t k = 0; secrets && secrets[k]; k++) { /* the longest: no tail left */
            size_t len = strlen(secrets[k]);
            if (len > hit && len >= RPC_MASK_MIN && len <= n - i && !memcmp(p + i, secrets[k], len))
                hit = len;
        }
        if (hit) {
            buf_adds(out, "***");
            i += hit;
        } else {
            buf_addc(out, p[i++]);
        }
    }
}

void rpc_trace(const rpc_conn *c, const char *dir, const char *p, size_t n)
{
    if (!c->opts.verbose) return;
    struct buf b = BUF_INIT; /* masked whole, then cut: a cut secret would show its start */
    rpc_mask(&b, p, n, c->opts.secrets);
    int len = b.len > 2000 ? 2000 : (int)b.len;
    if (c->opts.label)
        fprintf(stderr, "mcpdesc: [%s] %s %.*s\n", c->opts.label, dir, len, buf_str(&b));
    else fprintf(stderr, "mcpdesc: %s %.*s\n", dir, len, buf_str(&b));
    buf_release(&b);
}

void rpc_set_http_version(rpc_conn *c, const char *version, int modern)
{
    if (c->ops->set_http_version) c->ops->set_http_version(c, version, modern);
}

/* ERR's message with the connection's secrets as *** (a server's error message or an
 * HTTP error body may quote the key it refused). Returns F. */
static enum rpc_fail mask_error(const rpc_conn *c, enum rpc_fail f, struct rpc_error *err)
{
    if (f == RPC_OK || !c->opts.secrets || !err->msg.len) return f;
    struct buf b = BUF_INIT;
    rpc_mask(&b, err->msg.s, err->msg.len, c->opts.secrets);
    buf_release(&err->msg);
    err->msg = b;
    return f;
}

static enum rpc_fail call_unmasked(rpc_conn *c, const char *method, json_t *params, json_t **result,
                                   struct rpc_error *err)
{
    *result = NULL;
    rpc_error_reset(err);
    json_int_t id = c->next_id++;
    json_t *req = json_pack("{s:s, s:I, s:s}", "jsonrpc", "2.0", "id", id, "method", method);
    if (params) json_object_set_new(req, "params", params);
    json_t *resp = NULL;
    enum rpc_fail f = c->ops->call(c, req, id, &resp, err);
    json_decref(req);
    if (f != RPC_OK) return f;
    json_t *error = json_object_get(resp, "error");
    if (error) {
        json_t *msg = json_object_get(error, "message");
        json_t *code = json_object_get(error, "code");
        rpc_fail_with(err, RPC_EJSONRPC, "'%s' failed with JSON-RPC error %lld: %s", method,
                      json_is_integer(code) ? (long long)json_integer_value(code) : 0LL,
                      json_is_string(msg) ? json_string_value(msg) : "(no message)");
        err->code = json_is_integer(code) ? json_integer_value(code) : 0;
        err->data = json_incref(json_object_get(error, "data"));
        json_decref(resp);
        return RPC_EJSONRPC;
    }
    *result = json_incref(json_object_get(resp, "result"));
    json_decref(resp);
    return RPC_OK;
}

enum rpc_fail rpc_call(rpc_conn *c, const char *method, json_t *params, json_t **result,
                       struct rpc_error *err)
{
    return mask_error(c, call_unmasked(c, method, params, result, err), err);
}

enum rpc_fail rpc_notify(rpc_conn *c, const char *method, json_t *params, struct rpc_error *err)
{
    rpc_error_reset(err);
    json_t *msg = json_pack("{s:s, s:s}", "jsonrpc", "2.0", "method", method);
    if (params) json_object_set_new(msg, "params", params);
    enum rpc_fail f = c->ops->notify(c, msg, err);
    json_decref(msg);
    return mask_error(c, f, err);
}

void rpc_close(rpc_conn *c)
{
    if (!c) return;
    c->ops->close(c);
    free(c);
}
