/* buf.h - a growable NUL-terminated byte string (after git's strbuf).
 * struct buf b = BUF_INIT; buf_addf(&b, "%d", 3); ... buf_release(&b); */
#ifndef MCPDESC_BUF_H
#define MCPDESC_BUF_H

#include <stddef.h>

struct buf {
    char *s; /* always NUL-terminated once anything was added; NULL when empty */
    size_t len;
    size_t cap;
};
#define BUF_INIT                                                                                   \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void buf_add(struct buf *b, const char *data, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s as the body of a JSON string literal (no surrounding quotes). */
void buf_add_json_escaped(struct buf *b, const char *s, size_t n);
void buf_reset(struct buf *b); /* len = 0, keeps memory */
void buf_truncate(struct buf *b, size_t len);
const char *buf_str(const struct buf *b); /* borrowed; "" when empty */
char *buf_detach(struct buf *b);          /* new string; b is reset */
/* Append the bytes of the file PATH; -1 (errno set) when it cannot be opened or read. */
int buf_read_file(struct buf *b, const char *path);
void buf_release(struct buf *b);

#endif
