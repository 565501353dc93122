/* lsp_frame.h - the base protocol of the Language Server Protocol: messages framed by
 * a header ("Content-Length: N\r\n", other fields ignored, "\r\n" ends it) and N bytes
 * of JSON. The reader is fed whatever the pipe gave and hands out whole bodies; its
 * memory is bounded by the header limit plus the body limit: a larger body is skipped
 * as it arrives, never held. */
#ifndef MCPDESC_LSP_FRAME_H
#define MCPDESC_LSP_FRAME_H

#include <stddef.h>

#include "base/buf.h"

#define LSP_FRAME_MAX_HEADER 4096u                    /* bytes of one message's header */
#define LSP_FRAME_DEFAULT_MAX_BODY ((size_t)64 << 20) /* bytes of one message's body */

struct lsp_frame {
    struct buf in;   /* bytes not handed out yet, from OFF */
    size_t off;      /* start of the unread bytes in IN */
    size_t max_body; /* larger bodies are skipped */
    size_t skip;     /* bytes still to drop of a skipped body */
};

void lsp_frame_init(struct lsp_frame *f, size_t max_body); /* 0: the default */
void lsp_frame_release(struct lsp_frame *f);
/* Append N bytes read from the client. */
void lsp_frame_feed(struct lsp_frame *f, const char *p, size_t n);
/* The next message: 1 with *BODY (borrowed: valid until the next call) and *LEN; 0 when
 * no whole message is buffered; -1 when a frame is malformed (no or a bad
 * Content-Length, a header over LSP_FRAME_MAX_HEADER, a body over the limit), with
 * *WHY (static) saying so: the bad frame is dropped and reading goes on after it. */
int lsp_frame_next(struct lsp_frame *f, const char **body, size_t *len, const char **why);
/* Append the frame of BODY (LEN bytes) to OUT. */
void lsp_frame_write(struct buf *out, const char *body, size_t len);

#endif
