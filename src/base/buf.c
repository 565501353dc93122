/* buf.c - growable string; see buf.h. */
#include "base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static void grow(struct buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void buf_add(struct buf *b, const char *data, size_t n)
{
    grow(b, n);
    if (n) memcpy(b->s + b->len, data, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}
void buf_addc(struct buf *b, char c)
{
    buf_add(b, &c, 1);
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) BUG("vsnprintf failed");
    grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void buf_add_json_escaped(struct buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': buf_adds(b, "\\\""); break;
        case '\\': buf_adds(b, "\\\\"); break;
        case '\n': buf_adds(b, "\\n"); break;
        case '\r': buf_adds(b, "\\r"); break;
        case '\t': buf_adds(b, "\\t"); break;
        case '\b': buf_adds(b, "\\b"); break;
        case '\f': buf_adds(b, "\\f"); break;
        default:
            if (c < 0x20) buf_addf(b, "\\u%04x", c);
            else buf_addc(b, (char)c);
        }
    }
}

void buf_reset(struct buf *b)
{
    buf_truncate(b, 0);
}

void buf_truncate(struct buf *b, size_t len)
{
    if (len >= b->len) return;
    b->len = len;
    b->s[len] = '\0';
}

const char *buf_str(const struct buf *b)
{
    return b->s ? b->s : "";
}

char *buf_detach(struct buf *b)
{
    char *s = b->s ? b->s : xstrdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void buf_release(struct buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

int buf_read_file(struct buf *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(b, chunk, n);
    int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}
