/* rpcInt.h - what rpc.c shares with its transports rpc_stdio.c and rpc_http.c:
 * the connection vtable and helpers. Not for other modules. */
#ifndef MCPDESC_RPCINT_H
#define MCPDESC_RPCINT_H

#include "capture/rpc.h"

struct rpc_conn_ops {
    /* Send REQUEST (borrowed) and store the matching response message in *response
     * (new). Other messages are handled by the transport. */
    enum rpc_fail (*call)(rpc_conn *c, json_t *request, json_int_t id, json_t **response,
                          struct rpc_error *err);
    enum rpc_fail (*notify)(rpc_conn *c, json_t *msg, struct rpc_error *err);
    void (*set_http_version)(rpc_conn *c, const char *version, int modern);
    void (*close)(rpc_conn *c); /* frees the transport's part; rpc_close frees c */
};

struct rpc_conn {
    const struct rpc_conn_ops *ops;
    struct rpc_opts opts;
    json_int_t next_id;
    void *impl;
};

/* Seconds left before the request started at START times out (request timeout or
 * session deadline, whichever comes first); <= 0 when expired. */
double rpc_time_left(const rpc_conn *c, double start);
/* Fill *err (reset first) with KIND and a printf message; returns KIND. */
enum rpc_fail rpc_fail_with(struct rpc_error *err, enum rpc_fail kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Quote at most 80 bytes of P for a message ("'{...'..."). */
void rpc_add_snippet(struct buf *b, const char *p, size_t n);
/* The answer to a request the server sent us (new message): `ping` gets {},
 * anything else a -32601 error. */
json_t *rpc_answer_server_request(json_t *request);
/* Log one message in verbose mode: "mcpdesc: -> {...}". */
void rpc_trace(const rpc_conn *c, const char *dir, const char *p, size_t n);
/* Does MSG (a response) carry the integer id ID? */
int rpc_id_matches(json_t *msg, json_int_t id);

#endif
