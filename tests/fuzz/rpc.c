/* rpc.c - libFuzzer harness: the capture client's message reader. The first byte picks
 * the framing (even: newline-delimited stdio, odd: text/event-stream) and the size of
 * the chunks the bytes arrive in (as read() or libcurl would hand them over); the
 * second byte the message size limit. Every complete message is then handled as the
 * transports do: parsed, classified, matched against a request id, answered when it is
 * a request, quoted in an error message. Invariants: a returned line is within the
 * limit, never blank, has no newline; an SSE event, complete or not, is within the
 * limit. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "fuzz.h"
#include "capture/rpc.h"
#include "capture/rpcInt.h"

static void handle(const char *p, size_t n)
{
    json_t *m = json_loadb(p, n, 0, NULL);
    enum rpc_kind k = rpc_classify(m);
    struct buf b = BUF_INIT;
    if (k == RPC_MSG_INVALID) rpc_add_snippet(&b, p, n);
    if (k == RPC_MSG_RESPONSE) rpc_id_matches(m, 1);
    if (k == RPC_MSG_REQUEST) {
        json_t *answer = rpc_answer_server_request(m);
        if (!answer) fuzz_fail("no answer to a request");
        char *text = json_dumps(answer, JSON_COMPACT);
        if (!text || rpc_classify(answer) != RPC_MSG_RESPONSE)
            fuzz_fail("the answer is not a response");
        free(text);
        json_decref(answer);
    }
    buf_release(&b);
    json_decref(m);
}

static void lines(const char *p, size_t n, size_t chunk, size_t max)
{
    struct rpc_reader r;
    rpc_reader_init(&r, max);
    for (size_t off = 0; off < n; off += chunk) {
        rpc_reader_feed(&r, p + off, off + chunk <= n ? chunk : n - off);
        const char *line;
        size_t len;
        int rc;
        while ((rc = rpc_reader_next(&r, &line, &len)) > 0) {
            if (len > max || len == 0 || memchr(line, '\n', len))
                fuzz_fail("bad line of %zu bytes", len);
            handle(line, len);
        }
        if (rc < 0) break; /* the transport stops here: RPC_ETOOBIG */
    }
    rpc_reader_pending(&r);
    rpc_reader_release(&r);
}

static void events(const char *p, size_t n, size_t chunk, size_t max)
{
    struct rpc_sse s;
    rpc_sse_init(&s, max);
    for (size_t off = 0; off < n; off += chunk) {
        rpc_sse_feed(&s, p + off, off + chunk <= n ? chunk : n - off);
        char *data;
        size_t len;
        int rc;
        while ((rc = rpc_sse_next(&s, &data, &len)) > 0) {
            if (len > max || !data || strlen(data) > len) fuzz_fail("bad event of %zu bytes", len);
            handle(data, len);
            free(data);
        }
        if (rc < 0) break;
        /* a partial event must stay within the limit too (else it grows unbounded) */
        if (s.data.len > max)
            fuzz_fail("a partial event holds %zu bytes, over %zu", s.data.len, max);
    }
    rpc_sse_release(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    size_t chunk = (size_t)(data[0] >> 1) + 1; /* 1..128 bytes per read */
    size_t max = (size_t)data[1] * 16 + 1;     /* 1..4081 bytes per message */
    const char *p = (const char *)data + 2;
    if (data[0] & 1)
        events(p, size - 2, chunk, max);
    else
        lines(p, size - 2, chunk, max);
    return 0;
}
