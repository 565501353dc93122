/* rpc.h - JSON-RPC 2.0 client transports for MCP: newline-delimited messages over a
 * child process's stdin/stdout (MCP stdio transport) and POST over Streamable HTTP
 * (libcurl). Every wait is bounded by a per-request timeout and an absolute session
 * deadline; a child process is always reaped, and killed (SIGTERM, then SIGKILL) when
 * it does not exit on its own. */
#ifndef MCPDESC_RPC_H
#define MCPDESC_RPC_H

#include <jansson.h>
#include <stddef.h>

#include "base/buf.h"

/* ---- framing (pure, unit-tested) ---- */

/* Newline-delimited messages: bytes in, complete lines out, each at most MAX bytes.
 * A trailing '\r' is removed; blank lines are skipped. */
struct rpc_reader {
    struct buf data;
    size_t start; /* first unconsumed byte of data */
    size_t max;
};
void rpc_reader_init(struct rpc_reader *r, size_t max);
void rpc_reader_release(struct rpc_reader *r);
void rpc_reader_feed(struct rpc_reader *r, const char *p, size_t n);
/* 1: a line is in *line, its length in *n (borrowed until the next feed or next call);
 * 0: need more bytes; -1: a line is longer than max (the reader is then unusable).
 * rpc_reader_pending() is the number of buffered bytes not yet returned. */
int rpc_reader_next(struct rpc_reader *r, const char **line, size_t *n);
size_t rpc_reader_pending(const struct rpc_reader *r);

/* text/event-stream (SSE) framing: each event's `data:` lines joined with '\n'.
 * Events without data are skipped; an event larger than max is an error. */
struct rpc_sse {
    struct rpc_reader lines;
    struct buf data;
    int has_data;
    size_t max;
};
void rpc_sse_init(struct rpc_sse *s, size_t max);
void rpc_sse_release(struct rpc_sse *s);
void rpc_sse_feed(struct rpc_sse *s, const char *p, size_t n);
/* 1: *data is new memory (caller frees) of *n bytes; 0: need more; -1: too big. */
int rpc_sse_next(struct rpc_sse *s, char **data, size_t *n);

enum rpc_kind { RPC_MSG_INVALID, RPC_MSG_REQUEST, RPC_MSG_NOTIFICATION, RPC_MSG_RESPONSE };
/* What a parsed message is, by JSON-RPC 2.0 section 4/5 shape (borrowed argument). */
enum rpc_kind rpc_classify(json_t *msg);

/* ---- errors ---- */

enum rpc_fail {
    RPC_OK = 0,
    RPC_EJSONRPC, /* the server answered with a JSON-RPC error: code, data */
    RPC_ETIMEOUT, /* no answer within the request timeout or session deadline */
    RPC_EEXIT,    /* the server exited or closed its output */
    RPC_EGARBAGE, /* the server wrote something that is not a JSON-RPC message */
    RPC_ETOOBIG,  /* a message exceeded the size limit */
    RPC_EIO,      /* could not start the server, or a system call failed */
    RPC_EHTTP,    /* an HTTP status or transfer failure without a JSON-RPC error */
    RPC_EINTR     /* SIGINT or SIGTERM arrived (see rpc_catch_interrupts) */
};
struct rpc_error {
    enum rpc_fail kind;
    json_int_t code;  /* RPC_EJSONRPC: error.code */
    json_t *data;     /* RPC_EJSONRPC: error.data (owned) or NULL */
    long http_status; /* HTTP transport: the response's status, 0 if none */
    struct buf msg;   /* one lowercase sentence for people */
};
#define RPC_ERROR_INIT                                                                             \
    {                                                                                              \
        RPC_OK, 0, NULL, 0, BUF_INIT                                                               \
    }
void rpc_error_reset(struct rpc_error *e);
void rpc_error_release(struct rpc_error *e);

/* ---- connections ---- */

struct rpc_opts {
    double request_timeout; /* seconds per request, > 0 */
    double deadline;        /* absolute time on the rpc_now() clock; 0 means none */
    size_t max_message;     /* bytes per message */
    int stderr_fd;          /* child's stderr: -1 inherits ours */
    int verbose;            /* log every message sent and received on stderr */
    const char *label;      /* verbose log lines start with "[LABEL] " (NULL: none) */
    /* The rest may be left zero (NULL): */
    char *const *envp;          /* stdio: the child's environment (NULL: ours) */
    const char *const *headers; /* HTTP: extra "Name: value" lines, NULL-terminated */
    const char *const *secrets; /* NULL-terminated values that the verbose log, the
                                   * relayed stderr and error messages show as *** */
};

/* Append P (N bytes) to OUT with every occurrence of each of SECRETS (NULL-terminated,
 * may be NULL; values shorter than RPC_MASK_MIN bytes are left alone: masking "1" would
 * garble every line) replaced by "***"; where several match, the longest. */
#define RPC_MASK_MIN 4
void rpc_mask(struct buf *out, const char *p, size_t n, const char *const *secrets);

/* Install SIGINT/SIGTERM/SIGHUP handlers (no SA_RESTART) that make every wait return
 * RPC_EINTR, so that the caller closes its connections (killing and reaping children)
 * before it exits. rpc_interrupted() says whether one arrived. Every wait wakes at least
 * every 250 ms to look, so sessions on other threads than the one the signal reached
 * end too. The only process-wide state of the module besides rpc_global_init. */
void rpc_catch_interrupts(void);
int rpc_interrupted(void);

/* Process-wide set-up of the transports (libcurl's global state): call once before
 * connections are opened on several threads. Later calls do nothing. */
void rpc_global_init(void);
/* Why the HTTP transport cannot be used (libcurl could not be loaded: it is loaded, with
 * dlopen, by rpc_global_init), or NULL when it can. */
const char *rpc_http_missing(void);

/* Seconds on a monotonic clock. */
double rpc_now(void);

typedef struct rpc_conn rpc_conn;

/* Start ARGV (argv[0] is looked up in PATH) with pipes on its stdin and stdout, in its
 * own process group. New connection, or NULL with *err filled (RPC_EIO).
 * The caller must ignore SIGPIPE (a server that exits must not kill us). */
rpc_conn *rpc_open_stdio(char *const argv[], const struct rpc_opts *o, struct rpc_error *err);
/* Streamable HTTP endpoint URL (http or https). New connection; never fails before
 * the first request except for an unusable URL (NULL, *err filled). */
rpc_conn *rpc_open_http(const char *url, const struct rpc_opts *o, struct rpc_error *err);

/* HTTP only (ignored on stdio): send `MCP-Protocol-Version: VERSION` on the following
 * requests (NULL: none), and with MODERN also `Mcp-Method` (2026-07-28). */
void rpc_set_http_version(rpc_conn *c, const char *version, int modern);

/* Send request METHOD with PARAMS (stolen; NULL for none) and wait for its response.
 * RPC_OK: *result is new. Otherwise *result is NULL and *err says what happened.
 * Requests from the server meanwhile are answered (`ping`) or refused (-32601);
 * notifications are ignored. */
enum rpc_fail rpc_call(rpc_conn *c, const char *method, json_t *params, json_t **result,
                       struct rpc_error *err);
/* Send notification METHOD with PARAMS (stolen; NULL for none). */
enum rpc_fail rpc_notify(rpc_conn *c, const char *method, json_t *params, struct rpc_error *err);

/* End the connection: close the child's stdin, wait briefly, then SIGTERM and SIGKILL
 * its process group, and reap it (HTTP: DELETE the session when there is one).
 * Free C. rpc_close(NULL) is a no-op. */
void rpc_close(rpc_conn *c);

#endif
