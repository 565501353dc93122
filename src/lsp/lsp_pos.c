/* lsp_pos.c - see lsp_pos.h. */
#include "lsp/lsp_pos.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *lsp_enc_name(enum lsp_enc e)
{
    switch (e) {
    case LSP_ENC_UTF8: return "utf-8";
    case LSP_ENC_UTF32: return "utf-32";
    case LSP_ENC_UTF16: break;
    }
    return "utf-16";
}

void lsp_lines_init(struct lsp_lines *l, const char *text, size_t len)
{
    size_t n = 1;
    const char *end = text + len;
    for (const char *p = text; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++) n++;
    l->start = xmalloc(n * sizeof *l->start);
    l->n = 0;
    l->start[l->n++] = 0;
    for (const char *p = text; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
        l->start[l->n++] = (size_t)(p - text) + 1;
    l->text = text;
    l->len = len;
}

void lsp_lines_release(struct lsp_lines *l)
{
    free(l->start);
    l->start = NULL;
    l->n = 0;
}

/* The length in bytes of the character at P (at most N bytes left): 1 to 4 for valid
 * UTF-8, 1 for any byte that does not start a valid sequence. */
static size_t char_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) k = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) k = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) k = 4, min = 0x10000;
    else return 1;
    if (k > n) return 1;
    unsigned cp = c & (0xFF >> (k + 1));
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80) return 1;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 1;
    return k;
}

/* Units of the character of K bytes in encoding E. */
static uint32_t units(size_t k, enum lsp_enc e)
{
    switch (e) {
    case LSP_ENC_UTF8: return (uint32_t)k;
    case LSP_ENC_UTF32: return 1;
    case LSP_ENC_UTF16: break;
    }
    return k == 4 ? 2 : 1;
}

/* The end of line LINE's content (before "\n" or "\r\n"). */
static size_t line_end(const struct lsp_lines *l, size_t line)
{
    size_t end = line + 1 < l->n ? l->start[line + 1] - 1 : l->len;
    if (end > l->start[line] && l->text[end - 1] == '\r' && end < l->len) end--;
    return end;
}

/* Offset in line LINE after COUNT units of encoding E (0-based), clamped. */
static size_t walk(const struct lsp_lines *l, size_t line, uint64_t count, enum lsp_enc e)
{
    size_t off = l->start[line], end = line_end(l, line);
    const unsigned char *t = (const unsigned char *)l->text;
    uint64_t at = 0;
    while (off < end) {
        size_t k = char_len(t + off, end - off);
        uint32_t u = units(k, e);
        if (at + u > count) break;
        at += u;
        off += k;
    }
    return off;
}

size_t lsp_offset_of(const struct lsp_lines *l, struct lsp_position p, enum lsp_enc e)
{
    if (p.line >= l->n) return l->len;
    return walk(l, p.line, p.character, e);
}

/* The 0-based line holding OFF (OFF <= len). */
static size_t line_of(const struct lsp_lines *l, size_t off)
{
    size_t lo = 0, hi = l->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->start[mid] <= off) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Units of encoding E from the start of LINE to OFF (clamped to the line's end). */
static uint32_t count_to(const struct lsp_lines *l, size_t line, size_t off, enum lsp_enc e)
{
    size_t p = l->start[line], end = line_end(l, line);
    const unsigned char *t = (const unsigned char *)l->text;
    uint64_t at = 0;
    if (off > end) off = end;
    while (p < off) {
        size_t k = char_len(t + p, end - p);
        if (p + k > off) break;
        at += units(k, e);
        p += k;
    }
    return at > UINT32_MAX ? UINT32_MAX : (uint32_t)at;
}

struct lsp_position lsp_position_of(const struct lsp_lines *l, size_t off, enum lsp_enc e)
{
    if (off > l->len) off = l->len;
    size_t line = line_of(l, off);
    struct lsp_position r = {(uint32_t)line, count_to(l, line, off, e)};
    return r;
}

size_t lsp_offset_of_doc(const struct lsp_lines *l, struct doc_pos p)
{
    size_t line = p.line ? p.line - 1 : 0;
    if (line >= l->n) return l->len;
    return walk(l, line, p.col ? p.col - 1 : 0, LSP_ENC_UTF32);
}

struct doc_pos lsp_doc_pos_of(const struct lsp_lines *l, size_t off)
{
    struct lsp_position q = lsp_position_of(l, off, LSP_ENC_UTF32);
    struct doc_pos r = {q.line + 1, q.character + 1};
    return r;
}

struct lsp_position lsp_position_of_doc(const struct lsp_lines *l, struct doc_pos p, enum lsp_enc e)
{
    return lsp_position_of(l, lsp_offset_of_doc(l, p), e);
}

size_t lsp_value_end(const char *t, size_t len, size_t off)
{
    if (off >= len) return len;
    size_t limit = len - off > 65536 ? off + 65536 : len;
    char c = t[off];
    if (c == '"' || c == '\'') {
        for (size_t i = off + 1; i < limit; i++) {
            if (c == '"' && t[i] == '\\') {
                i++;
                continue;
            }
            if (t[i] == c) {
                if (c == '\'' && i + 1 < limit && t[i + 1] == '\'') {
                    i++;
                    continue;
                }
                return i + 1;
            }
            if (t[i] == '\n' && c == '"' && off + 1 < len) break;
        }
        return off + 1;
    }
    if (c == '{' || c == '[') {
        size_t depth = 0, cap = len - off > 4096 ? off + 4096 : len;
        for (size_t i = off; i < cap; i++) {
            char x = t[i];
            if (x == '"') {
                for (i++; i < cap && t[i] != '"'; i++)
                    if (t[i] == '\\') i++;
            } else if (x == '{' || x == '[') {
                depth++;
            } else if (x == '}' || x == ']') {
                if (--depth == 0) return i + 1;
            }
        }
        return off + 1;
    }
    size_t i = off;
    while (i < limit && t[i] != '\n' && t[i] != '\r' && t[i] != ',' && t[i] != '}' && t[i] != ']' &&
           !(t[i] == ':' && (i + 1 == limit || t[i + 1] == ' ')) &&
           !(t[i] == '#' && i > off && t[i - 1] == ' '))
        i++;
    while (i > off && (t[i - 1] == ' ' || t[i - 1] == '\t')) i--;
    if (i == off) {
        /* one character (a whole UTF-8 sequence) */
        i++;
        while (i < len && ((unsigned char)t[i] & 0xC0) == 0x80) i++;
    }
    return i;
}
