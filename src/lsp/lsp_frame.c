/* lsp_frame.c - see lsp_frame.h. */
#include "lsp/lsp_frame.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void lsp_frame_init(struct lsp_frame *f, size_t max_body)
{
    memset(f, 0, sizeof *f);
    f->max_body = max_body ? max_body : LSP_FRAME_DEFAULT_MAX_BODY;
}

void lsp_frame_release(struct lsp_frame *f)
{
    buf_release(&f->in);
    memset(f, 0, sizeof *f);
}

/* Drop the bytes before OFF when they are most of the buffer. */
static void compact(struct lsp_frame *f)
{
    if (f->off == 0) return;
    if (f->off == f->in.len) {
        buf_reset(&f->in);
        f->off = 0;
    } else if (f->off > f->in.len / 2) {
        memmove(f->in.s, f->in.s + f->off, f->in.len - f->off);
        buf_truncate(&f->in, f->in.len - f->off);
        f->off = 0;
    }
}

void lsp_frame_feed(struct lsp_frame *f, const char *p, size_t n)
{
    if (f->skip) {
        size_t k = n < f->skip ? n : f->skip;
        f->skip -= k;
        p += k;
        n -= k;
    }
    if (!n) return;
    compact(f);
    buf_add(&f->in, p, n);
}

/* Content-Length of the header H (LEN bytes, without the blank line), or -1. */
static long long content_length(const char *h, size_t len)
{
    long long found = -1;
    const char *end = h + len;
    while (h < end) {
        const char *eol = memchr(h, '\n', (size_t)(end - h));
        if (!eol) eol = end;
        size_t n = (size_t)(eol - h);
        if (n && h[n - 1] == '\r') n--;
        static const char name[] = "Content-Length:";
        if (n >= sizeof name - 1 && !strncasecmp(h, name, sizeof name - 1)) {
            const char *v = h + sizeof name - 1, *ve = h + n;
            while (v < ve && (*v == ' ' || *v == '\t')) v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
            if (v == ve || ve - v > 18) return -1;
            long long x = 0;
            for (; v < ve; v++) {
                if (*v < '0' || *v > '9') return -1;
                x = x * 10 + (*v - '0');
            }
            if (found >= 0 && found != x) return -1;
            found = x;
        }
        h = eol + 1;
    }
    return found;
}

int lsp_frame_next(struct lsp_frame *f, const char **body, size_t *len, const char **why)
{
    const char *p = f->in.s ? f->in.s + f->off : "";
    size_t avail = f->in.len - f->off;
    /* the header ends at the first blank line ("\r\n\r\n", or "\n\n" from a sloppy client) */
    const char *hend = NULL;
    size_t sep = 0;
    size_t scan = avail < LSP_FRAME_MAX_HEADER + 4 ? avail : LSP_FRAME_MAX_HEADER + 4;
    for (size_t i = 0; i + 1 < scan; i++) {
        if (p[i] != '\n') continue;
        if (p[i + 1] == '\n') {
            hend = p + i;
            sep = 2;
            break;
        }
        if (i + 2 < scan && p[i + 1] == '\r' && p[i + 2] == '\n') {
            hend = p + i;
            sep = 3;
            break;
        }
    }
    if (!hend) {
        if (avail > LSP_FRAME_MAX_HEADER + 3) {
            f->off = f->in.len; /* no header end within the limit: drop what there is */
            compact(f);
            *why = "header too long (no blank line within 4096 bytes)";
            return -1;
        }
        return 0;
    }
    size_t hlen = (size_t)(hend - p);
    if (hlen && p[hlen - 1] == '\r') hlen--;
    long long cl = content_length(p, hlen);
    size_t start = (size_t)(hend - p) + sep;
    if (cl < 0) {
        f->off += start;
        compact(f);
        *why = "header without a valid Content-Length";
        return -1;
    }
    if ((unsigned long long)cl > f->max_body) {
        size_t have = avail - start;
        if ((unsigned long long)have >= (unsigned long long)cl) {
            f->off += start + (size_t)cl;
        } else {
            f->off = f->in.len;
            f->skip = (size_t)cl - have;
        }
        compact(f);
        *why = "message body over the size limit (skipped)";
        return -1;
    }
    if (avail - start < (size_t)cl) return 0;
    *body = p + start;
    *len = (size_t)cl;
    f->off += start + (size_t)cl;
    return 1;
}

void lsp_frame_write(struct buf *out, const char *body, size_t len)
{
    buf_addf(out, "Content-Length: %zu\r\n\r\n", len);
    buf_add(out, body, len);
}
