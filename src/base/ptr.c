/* ptr.c - RFC 6901 JSON Pointers; see ptr.h. */
#include "base/ptr.h"

#include <string.h>

#include "base/util.h"

int ptr_parse(const char *s, struct ptr *out, const char **why)
{
    out->segs = NULL;
    out->n = 0;
    if (!*s) return 0;
    if (*s != '/') {
        *why = "a JSON Pointer is empty or starts with '/'";
        return -1;
    }
    size_t cap = 0;
    while (*s == '/') {
        s++;
        size_t len = strcspn(s, "/");
        char *tok = xmalloc(len + 1), *t = tok;
        for (size_t i = 0; i < len; i++) {
            if (s[i] == '~') {
                if (i + 1 < len && (s[i + 1] == '0' || s[i + 1] == '1')) {
                    *t++ = s[i + 1] == '0' ? '~' : '/';
                    i++;
                } else {
                    free(tok);
                    ptr_release(out);
                    *why =
                        "'~' in a JSON Pointer must be followed by 0 or 1 (~0 is '~', ~1 is '/')";
                    return -1;
                }
            } else {
                *t++ = s[i];
            }
        }
        *t = '\0';
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            out->segs = xrealloc(out->segs, cap * sizeof *out->segs);
        }
        out->segs[out->n++] = tok;
        s += len;
    }
    return 0;
}

void ptr_release(struct ptr *p)
{
    for (size_t i = 0; i < p->n; i++) free(p->segs[i]);
    free(p->segs);
    p->segs = NULL;
    p->n = 0;
}

/* Runs of plain bytes are copied at once: pointers are built for every diagnostic and
 * every path-matches test, so this is on the hot path. */
void ptr_append_segment(struct buf *b, const char *seg, size_t len)
{
    buf_addc(b, '/');
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (seg[i] != '~' && seg[i] != '/') continue;
        buf_add(b, seg + start, i - start);
        buf_add(b, seg[i] == '~' ? "~0" : "~1", 2);
        start = i + 1;
    }
    buf_add(b, seg + start, len - start);
}

void ptr_append_index(struct buf *b, size_t idx)
{
    char digits[24];
    size_t n = sizeof digits;
    do digits[--n] = (char)('0' + idx % 10);
    while ((idx /= 10) != 0);
    digits[--n] = '/';
    buf_add(b, digits + n, sizeof digits - n);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *ptr_from_fragment(const char *uri_ref, const char **why)
{
    if (uri_ref[0] != '#') {
        *why = "a reference must be a URI fragment starting with '#'";
        return NULL;
    }
    struct buf b = BUF_INIT;
    for (const char *s = uri_ref + 1; *s; s++) {
        if (*s == '%') {
            int hi = hexval(s[1]), lo = hi < 0 ? -1 : hexval(s[2]);
            if (hi < 0 || lo < 0) {
                buf_release(&b);
                *why = "'%' in a URI fragment must be followed by two hex digits";
                return NULL;
            }
            char c = (char)(hi * 16 + lo);
            if (!c) {
                buf_release(&b);
                *why = "%00 is not allowed in a reference";
                return NULL;
            }
            buf_addc(&b, c);
            s += 2;
        } else {
            buf_addc(&b, *s);
        }
    }
    char *p = buf_detach(&b);
    struct ptr check;
    if (ptr_parse(p, &check, why) < 0) {
        free(p);
        return NULL;
    }
    ptr_release(&check);
    return p;
}

int ptr_is_index(const char *tok, size_t *idx)
{
    if (!*tok || (tok[0] == '0' && tok[1])) return 0;
    size_t v = 0;
    for (const char *t = tok; *t; t++) {
        if (*t < '0' || *t > '9' || v > ((size_t)-1 - 9) / 10) return 0;
        v = v * 10 + (size_t)(*t - '0');
    }
    *idx = v;
    return 1;
}

json_t *ptr_get(json_t *root, const struct ptr *p)
{
    json_t *v = root;
    for (size_t i = 0; v && i < p->n; i++) {
        size_t idx;
        if (json_is_object(v)) v = json_object_get(v, p->segs[i]);
        else if (json_is_array(v) && ptr_is_index(p->segs[i], &idx)) v = json_array_get(v, idx);
        else v = NULL;
    }
    return v;
}
