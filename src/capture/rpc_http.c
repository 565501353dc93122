/* rpc_http.c - the MCP Streamable HTTP transport over libcurl: every message is a POST
 * accepting application/json or text/event-stream (2025-11-25 basic/transports.mdx:88-104,
 * 2026-07-28 basic/transports/streamable-http.mdx:72-91), the session id from the
 * initialize response is echoed in `Mcp-Session-Id` and DELETEd at the end
 * (2025-11-25 basic/transports.mdx:197-220), `MCP-Protocol-Version` is sent after
 * initialization (:265-267) and on every request from 2026-07-28 together with
 * `Mcp-Method` (streamable-http.mdx:252-293). Line numbers: MCP repository, b0f60ba. */
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture/rpc.h"
#include "capture/rpcInt.h"
#include "base/util.h"

/* libcurl is loaded when the first HTTP session opens, not linked: the dynamic loader
 * mapping it and its 29 libraries cost every command about 5 ms at start (a third of
 * validate on a small description), and only capture over HTTP uses it. */
#define CURL_SONAME "libcurl.so.4"

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    void (*easy_reset)(CURL *curl);
    void (*easy_cleanup)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
} curl_api;
static char *curl_missing; /* why libcurl could not be loaded, or NULL */

/* dlopen libcurl and find its functions (once; rpc_global_init): CURL_SONAME, or the file
 * MCPDESC_LIBCURL names (tests: a library that is not there). */
static void curl_load(void)
{
    const char *env = getenv("MCPDESC_LIBCURL");
    const char *name = env && *env ? env : CURL_SONAME;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        curl_missing = env && *env
            ? xasprintf("cannot load libcurl from MCPDESC_LIBCURL=%s: %s (unset it to load %s)",
                        env, why ? why : name, CURL_SONAME)
            : xasprintf("cannot load libcurl: %s (capture over HTTP needs it: on Debian, "
                        "install the libcurl4 package)",
                        why ? why : name);
        return;
    }
    static const struct {
        const char *sym;
        size_t off;
    } syms[] = {
#define CURL_SYM(f) {"curl_" #f, offsetof(__typeof__(curl_api), f)}
        CURL_SYM(global_init),    CURL_SYM(easy_init),     CURL_SYM(easy_setopt),
        CURL_SYM(easy_perform),   CURL_SYM(easy_getinfo),  CURL_SYM(easy_reset),
        CURL_SYM(easy_cleanup),   CURL_SYM(easy_strerror), CURL_SYM(slist_append),
        CURL_SYM(slist_free_all),
#undef CURL_SYM
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        void *f = dlsym(lib, syms[i].sym);
        if (!f) {
            curl_missing = xasprintf("cannot load libcurl: %s%s has no %s (capture over HTTP "
                                     "needs libcurl 7.85 or later)",
                                     env && *env ? "MCPDESC_LIBCURL=" : "", name, syms[i].sym);
            memset(&curl_api, 0, sizeof curl_api);
            return;
        }
        memcpy((char *)&curl_api + syms[i].off, &f, sizeof f);
    }
}

struct http_impl {
    CURL *curl;
    char *url;
    char *session_id;
    char *version;
    int modern;
    const char *const *headers; /* borrowed from the rpc_opts: extra lines */
};

/* State of one POST. */
struct http_xfer {
    rpc_conn *c;
    json_int_t id;   /* response we wait for; 0 for a notification */
    int is_sse;      /* decided from Content-Type at the first body byte */
    int typed;       /* Content-Type seen */
    struct buf body; /* application/json (or anything else) body */
    struct rpc_sse sse;
    json_t *response; /* matching response from the SSE stream */
    int too_big;
    int garbage;
    struct buf garbage_text;
    char *session_id; /* from the response headers */
    char *content_type;
};

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    struct http_xfer *x = ud;
    size_t len = size * n;
    const char *colon = memchr(p, ':', len);
    if (!colon) return len;
    size_t klen = (size_t)(colon - p);
    const char *v = colon + 1;
    size_t vlen = len - klen - 1;
    while (vlen && (*v == ' ' || *v == '\t')) v++, vlen--;
    while (vlen && (v[vlen - 1] == '\r' || v[vlen - 1] == '\n' || v[vlen - 1] == ' ')) vlen--;
    if (klen == 14 && !strncasecmp(p, "mcp-session-id", 14)) {
        free(x->session_id);
        x->session_id = xstrndup(v, vlen);
    } else if (klen == 12 && !strncasecmp(p, "content-type", 12)) {
        free(x->content_type);
        x->content_type = xstrndup(v, vlen);
    }
    return len;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    struct http_xfer *x = ud;
    size_t len = size * n;
    if (!x->typed) {
        x->typed = 1;
        x->is_sse = x->content_type && !strncasecmp(x->content_type, "text/event-stream", 17);
    }
    if (!x->is_sse) {
        if (x->body.len + len > x->c->opts.max_message) {
            x->too_big = 1;
            return 0;
        }
        buf_add(&x->body, p, len);
        return len;
    }
    rpc_sse_feed(&x->sse, p, len);
    for (;;) {
        char *data;
        size_t dn;
        int r = rpc_sse_next(&x->sse, &data, &dn);
        if (r < 0) {
            x->too_big = 1;
            return 0;
        }
        if (r == 0) break;
        size_t sp = 0;
        while (sp < dn && (data[sp] == ' ' || data[sp] == '\t' || data[sp] == '\n')) sp++;
        if (sp ==
            dn) { /* a priming event: an id and empty data (2025-11-25 basic/transports.mdx:106-108) */
            free(data);
            continue;
        }
        rpc_trace(x->c, "<-", data, dn);
        json_t *m = json_loadb(data, dn, 0, NULL);
        enum rpc_kind k = rpc_classify(m);
        if (k == RPC_MSG_INVALID) {
            x->garbage = 1;
            rpc_add_snippet(&x->garbage_text, data, dn);
            free(data);
            json_decref(m);
            return 0;
        }
        free(data);
        if (k == RPC_MSG_RESPONSE && x->id && rpc_id_matches(m, x->id)) {
            x->response = m;
            return 0; /* done: stop reading even if the server keeps the stream open */
        }
        /* notifications, and requests we cannot answer inside this stream, are ignored */
        json_decref(m);
    }
    return len;
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)ud, (void)dt, (void)dn, (void)ut, (void)un;
    return rpc_interrupted(); /* non-zero aborts the transfer */
}

static struct curl_slist *headers_for(struct http_impl *h, const char *method)
{
    struct curl_slist *l = NULL;
    l = curl_api.slist_append(l, "Content-Type: application/json");
    l = curl_api.slist_append(l, "Accept: application/json, text/event-stream");
    char line[1024];
    if (h->version) {
        snprintf(line, sizeof line, "MCP-Protocol-Version: %s", h->version);
        l = curl_api.slist_append(l, line);
    }
    if (h->modern && method) {
        snprintf(line, sizeof line, "Mcp-Method: %s", method);
        l = curl_api.slist_append(l, line);
    }
    if (h->session_id) {
        snprintf(line, sizeof line, "Mcp-Session-Id: %s", h->session_id);
        l = curl_api.slist_append(l, line);
    }
    for (size_t i = 0; h->headers && h->headers[i]; i++)
        l = curl_api.slist_append(l, h->headers[i]);
    return l;
}

static void xfer_release(struct http_xfer *x)
{
    buf_release(&x->body);
    rpc_sse_release(&x->sse);
    json_decref(x->response);
    buf_release(&x->garbage_text);
    free(x->session_id);
    free(x->content_type);
}

/* POST MSG; for a request (ID != 0) store the response in *response. */
static enum rpc_fail post(rpc_conn *c, json_t *msg, json_int_t id, json_t **response,
                          struct rpc_error *err)
{
    struct http_impl *h = c->impl;
    const char *method = json_string_value(json_object_get(msg, "method"));
    double start = rpc_now();
    double left = rpc_time_left(c, start);
    if (left <= 0)
        return rpc_fail_with(err, RPC_ETIMEOUT,
                             "session time limit reached before '%s' (raise --session-timeout)",
                             method);
    char *text = json_dumps(msg, JSON_COMPACT);
    rpc_trace(c, "->", text, strlen(text));
    struct http_xfer x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.id = id;
    rpc_sse_init(&x.sse, c->opts.max_message);
    struct curl_slist *hdrs = headers_for(h, method);
    CURL *cu = h->curl;
    curl_api.easy_reset(cu);
    curl_api.easy_setopt(cu, CURLOPT_URL, h->url);
    curl_api.easy_setopt(cu, CURLOPT_NOSIGNAL, 1L);
    curl_api.easy_setopt(cu, CURLOPT_POSTFIELDS, text);
    curl_api.easy_setopt(cu, CURLOPT_POSTFIELDSIZE, (long)strlen(text));
    curl_api.easy_setopt(cu, CURLOPT_HTTPHEADER, hdrs);
    curl_api.easy_setopt(cu, CURLOPT_HEADERFUNCTION, on_header);
    curl_api.easy_setopt(cu, CURLOPT_HEADERDATA, &x);
    curl_api.easy_setopt(cu, CURLOPT_WRITEFUNCTION, on_body);
    curl_api.easy_setopt(cu, CURLOPT_WRITEDATA, &x);
    curl_api.easy_setopt(cu, CURLOPT_TIMEOUT_MS, (long)(left * 1000) + 1);
    curl_api.easy_setopt(cu, CURLOPT_CONNECTTIMEOUT_MS, (long)(left * 1000) + 1);
    curl_api.easy_setopt(cu, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_api.easy_setopt(cu, CURLOPT_USERAGENT, "mcpdesc/" MCPDESC_VERSION);
    curl_api.easy_setopt(cu, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_api.easy_setopt(cu, CURLOPT_NOPROGRESS, 0L);
    CURLcode rc = curl_api.easy_perform(cu);
    long status = 0;
    curl_api.easy_getinfo(cu, CURLINFO_RESPONSE_CODE, &status);
    curl_api.slist_free_all(hdrs);
    free(text);
    enum rpc_fail f = RPC_OK;
    if (x.session_id && !h->session_id) h->session_id = xstrdup(x.session_id);
    if (rpc_interrupted()) {
        f = rpc_fail_with(err, RPC_EINTR, "interrupted while waiting for the answer to '%s'",
                          method);
    } else if (x.response) {
        *response = x.response;
        x.response = NULL;
    } else if (x.too_big) {
        f = rpc_fail_with(err, RPC_ETOOBIG,
                          "server sent a message longer than %zu bytes while answering "
                          "'%s' (raise --max-message if it is legitimate)",
                          c->opts.max_message, method);
    } else if (x.garbage) {
        f = rpc_fail_with(err, RPC_EGARBAGE,
                          "server sent an event that is not a JSON-RPC message in "
                          "answer to '%s': %s",
                          method, buf_str(&x.garbage_text));
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        f = rpc_fail_with(err, RPC_ETIMEOUT,
                          "server at %s did not answer '%s' within %g s (raise "
                          "--timeout if it is just slow)",
                          h->url, method, left);
    } else if (rc != CURLE_OK) {
        f = rpc_fail_with(err, RPC_EHTTP, "cannot reach %s: %s", h->url,
                          curl_api.easy_strerror(rc));
    } else if (!id) {
        if (status < 200 || status > 299)
            f = rpc_fail_with(err, RPC_EHTTP, "server at %s refused '%s' with HTTP status %ld",
                              h->url, method, status);
    } else if (x.is_sse) {
        f = rpc_fail_with(err, RPC_EEXIT,
                          "server at %s closed the event stream without answering '%s' "
                          "(HTTP status %ld)",
                          h->url, method, status);
    } else {
        rpc_trace(c, "<-", buf_str(&x.body), x.body.len);
        json_t *m = x.body.len ? json_loadb(x.body.s, x.body.len, 0, NULL) : NULL;
        enum rpc_kind k = rpc_classify(m);
        if (k == RPC_MSG_RESPONSE &&
            (rpc_id_matches(m, id) ||
             (json_is_null(json_object_get(m, "id")) && json_object_get(m, "error")))) {
            *response = m; /* error bodies of 4xx answers may carry "id": null */
            m = NULL;
        } else if (status < 200 || status > 299) {
            f = rpc_fail_with(err, RPC_EHTTP, "server at %s answered '%s' with HTTP status %ld",
                              h->url, method, status);
            if (x.body.len) {
                buf_adds(&err->msg, ": ");
                rpc_add_snippet(&err->msg, x.body.s, x.body.len);
            }
        } else {
            f = rpc_fail_with(err, RPC_EGARBAGE,
                              "server at %s answered '%s' with a body that is not its "
                              "JSON-RPC response: ",
                              h->url, method);
            rpc_add_snippet(&err->msg, buf_str(&x.body), x.body.len);
        }
        json_decref(m);
    }
    if (f != RPC_OK) err->http_status = status;
    xfer_release(&x);
    return f;
}

static enum rpc_fail http_call(rpc_conn *c, json_t *request, json_int_t id, json_t **response,
                               struct rpc_error *err)
{
    return post(c, request, id, response, err);
}

static enum rpc_fail http_notify(rpc_conn *c, json_t *msg, struct rpc_error *err)
{
    json_t *none = NULL;
    enum rpc_fail f = post(c, msg, 0, &none, err);
    json_decref(none);
    return f;
}

static void http_set_version(rpc_conn *c, const char *version, int modern)
{
    struct http_impl *h = c->impl;
    free(h->version);
    h->version = version ? xstrdup(version) : NULL;
    h->modern = modern;
}

static void http_global_init(void)
{
    curl_load();
    if (!curl_missing) curl_api.global_init(CURL_GLOBAL_DEFAULT);
}

static void http_close(rpc_conn *c)
{
    struct http_impl *h = c->impl;
    if (h->session_id) {
        /* end the session; the server may refuse (405), which is fine */
        struct curl_slist *hdrs = headers_for(h, NULL);
        curl_api.easy_reset(h->curl);
        curl_api.easy_setopt(h->curl, CURLOPT_URL, h->url);
        curl_api.easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
        curl_api.easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST, "DELETE");
        curl_api.easy_setopt(h->curl, CURLOPT_HTTPHEADER, hdrs);
        curl_api.easy_setopt(h->curl, CURLOPT_NOBODY, 1L);
        curl_api.easy_setopt(h->curl, CURLOPT_TIMEOUT_MS, 2000L);
        curl_api.easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_api.easy_perform(h->curl);
        curl_api.slist_free_all(hdrs);
    }
    curl_api.easy_cleanup(h->curl);
    free(h->url);
    free(h->session_id);
    free(h->version);
    free(h);
}

const char *rpc_http_missing(void)
{
    rpc_global_init();
    return curl_missing;
}

void rpc_global_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, http_global_init);
}

static const struct rpc_conn_ops http_ops = {http_call, http_notify, http_set_version, http_close};

rpc_conn *rpc_open_http(const char *url, const struct rpc_opts *o, struct rpc_error *err)
{
    if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8)) {
        rpc_fail_with(err, RPC_EIO, "'%s' is not an http:// or https:// URL", url);
        return NULL;
    }
    const char *missing = rpc_http_missing();
    if (missing) {
        rpc_fail_with(err, RPC_EIO, "%s", missing);
        return NULL;
    }
    CURL *cu = curl_api.easy_init();
    if (!cu) {
        rpc_fail_with(err, RPC_EIO, "cannot initialise libcurl");
        return NULL;
    }
    struct http_impl *h = xcalloc(1, sizeof *h);
    h->curl = cu;
    h->url = xstrdup(url);
    h->headers = o->headers;
    rpc_conn *c = xcalloc(1, sizeof *c);
    c->ops = &http_ops;
    c->opts = *o;
    c->next_id = 1;
    c->impl = h;
    return c;
}
