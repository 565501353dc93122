/* doc_scalar.c - positions inside a string (doc.h, doc_scalar_range): the source text of
 * one JSON string or YAML scalar decoded again, each decoded byte paired with the source
 * bytes it came from, and checked against the value the loader made. Decoding stops once
 * the whole value came out, so a scalar's end (a plain scalar's next key, a block
 * scalar's chomping) never has to be found. */
#include "doc/docInt.h"

#include <string.h>

/* A decoding: the source, the value it must give, and the source bytes of the two
 * decoded bytes asked for. */
struct dec {
    const doc *d;
    const unsigned char *t;
    size_t n; /* source bytes */
    const unsigned char *want;
    size_t wlen;
    size_t got;         /* decoded bytes so far, each equal to want's */
    size_t first, last; /* decoded bytes asked for: OFF and OFF+N-1 */
    size_t first_at, last_end;
    int bad; /* a decoded byte differs from the value's, or the source is not a scalar */
};

static int more(const struct dec *x)
{
    return !x->bad && x->got < x->wlen;
}

/* Decoded bytes B[0..K) come from source bytes [FROM, TO). */
static void emit(struct dec *x, const void *b, size_t k, size_t from, size_t to)
{
    const unsigned char *u = b;
    for (size_t i = 0; i < k && more(x); i++) {
        if (u[i] != x->want[x->got]) {
            x->bad = 1;
            return;
        }
        if (x->got == x->first) x->first_at = from;
        if (x->got == x->last) x->last_end = to;
        x->got++;
    }
}

/* One source character at I, copied: its length (at least 1). */
static size_t copy_char(struct dec *x, size_t i)
{
    size_t k = 1;
    while (i + k < x->n && (x->t[i + k] & 0xC0) == 0x80) k++;
    emit(x, x->t + i, k, i, i + k);
    return k;
}

static void emit_cp(struct dec *x, uint32_t cp, size_t from, size_t to)
{
    unsigned char u[4];
    size_t k;
    if (cp < 0x80) u[0] = (unsigned char)cp, k = 1;
    else if (cp < 0x800) u[0] = (unsigned char)(0xC0 | cp >> 6), k = 2;
    else if (cp < 0x10000) u[0] = (unsigned char)(0xE0 | cp >> 12), k = 3;
    else u[0] = (unsigned char)(0xF0 | cp >> 18), k = 4;
    for (size_t i = 1; i < k; i++)
        u[i] = (unsigned char)(0x80 | ((cp >> (6 * (k - 1 - i))) & 0x3F));
    emit(x, u, k, from, to);
}

/* DIGITS hex digits at I, or -1. */
static long hex_at(const struct dec *x, size_t i, int digits)
{
    long v = 0;
    for (int k = 0; k < digits; k++) {
        if (i + (size_t)k >= x->n) return -1;
        int c = x->t[i + (size_t)k];
        int h = c >= '0' && c <= '9'                 ? c - '0'
            : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                     : -1;
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* ---- JSON (RFC 8259 section 7) ---- */

static void json_string_dec(struct dec *x, size_t i)
{
    if (i >= x->n || x->t[i] != '"') {
        x->bad = 1;
        return;
    }
    for (i++; more(x);) {
        if (i >= x->n || x->t[i] == '"') {
            x->bad = 1; /* the string ended before the value did */
            return;
        }
        if (x->t[i] != '\\') {
            i += copy_char(x, i);
            continue;
        }
        int e = i + 1 < x->n ? x->t[i + 1] : 0;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char out[] = "\"\\/\b\f\n\r\t";
            emit(x, &out[simple - "\"\\/bfnrt"], 1, i, i + 2);
            i += 2;
            continue;
        }
        long cp = e == 'u' ? hex_at(x, i + 2, 4) : -1;
        if (cp < 0) {
            x->bad = 1;
            return;
        }
        size_t len = 6;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 7 < x->n && x->t[i + 6] == '\\' &&
            x->t[i + 7] == 'u') { /* a surrogate pair: one character, twelve source bytes */
            long lo = hex_at(x, i + 8, 4);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                len = 12;
            }
        }
        emit_cp(x, (uint32_t)cp, i, i + len);
        i += len;
    }
}

/* ---- YAML (YAML 1.2.2 chapters 7 and 8; libyaml's reading of them) ---- */

static size_t brk(const struct dec *x, size_t i)
{
    return i < x->n ? doc_break_len(x->d, i) : 0;
}

static int blank(const struct dec *x, size_t i)
{
    return i < x->n && (x->t[i] == ' ' || x->t[i] == '\t');
}

/* A line break of a scalar as the value has it: LF for CR, CRLF, LF and NEL; a line or
 * paragraph separator stays itself (libyaml's reading). */
static void emit_break(struct dec *x, size_t i)
{
    size_t k = brk(x, i);
    if (k == 3) emit(x, x->t + i, 3, i, i + 3);
    else emit(x, "\n", 1, i, i + k);
}

/* Flow scalars' line folding (YAML 1.2.2 6.5) at I, a blank or a break: blanks before
 * a break are dropped, and the break with the empty lines after it becomes a space (no
 * empty line) or one LF per empty line; the next line's leading blanks are dropped.
 * ESCAPED: the break follows a backslash (double-quoted): no space then. Returns the
 * new index. */
static size_t fold(struct dec *x, size_t i, int escaped)
{
    size_t j = i;
    while (blank(x, j)) j++;
    if (!escaped && !brk(x, j)) { /* blanks inside a line: kept */
        emit(x, x->t + i, j - i, i, j);
        return j;
    }
    size_t at = j, empty = 0;
    j += brk(x, j);
    for (;;) {
        while (blank(x, j)) j++;
        size_t k = brk(x, j);
        if (!k) break;
        emit_break(x, j); /* an empty line */
        empty++;
        j += k;
    }
    if (!empty && !escaped) emit(x, " ", 1, at, at + brk(x, at));
    return j;
}

static void yaml_plain(struct dec *x, size_t i)
{
    while (more(x) && i < x->n) i = blank(x, i) || brk(x, i) ? fold(x, i, 0) : i + copy_char(x, i);
}

static void yaml_single(struct dec *x, size_t i)
{
    for (i++; more(x) && i < x->n;) {
        if (x->t[i] == '\'') {
            if (i + 1 >= x->n || x->t[i + 1] != '\'') break;
            emit(x, "'", 1, i, i + 2);
            i += 2;
        } else {
            i = blank(x, i) || brk(x, i) ? fold(x, i, 0) : i + copy_char(x, i);
        }
    }
    if (more(x)) x->bad = 1;
}

/* A double-quoted scalar's escape at I (a backslash): its new index. */
static size_t yaml_escape(struct dec *x, size_t i)
{
    static const char from[] = "0abtnvfre \"/\\'\t";
    static const char to[] = "\0\a\b\t\n\v\f\r\033 \"/\\'\t";
    int e = i + 1 < x->n ? x->t[i + 1] : 0;
    const char *s = e ? memchr(from, e, sizeof from - 1) : NULL;
    if (s) {
        emit(x, &to[s - from], 1, i, i + 2);
        return i + 2;
    }
    if (brk(x, i + 1)) return fold(x, i + 1, 1);
    uint32_t named = e == 'N' ? 0x85 : e == '_' ? 0xA0 : e == 'L' ? 0x2028 : e == 'P' ? 0x2029 : 0;
    if (named) {
        emit_cp(x, named, i, i + 2);
        return i + 2;
    }
    int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    long cp = digits ? hex_at(x, i + 2, digits) : -1;
    if (cp < 0 || cp > 0x10FFFF) {
        x->bad = 1;
        return i;
    }
    emit_cp(x, (uint32_t)cp, i, i + 2 + (size_t)digits);
    return i + 2 + (size_t)digits;
}

static void yaml_double(struct dec *x, size_t i)
{
    for (i++; more(x) && i < x->n && x->t[i] != '"';) {
        if (x->t[i] == '\\') i = yaml_escape(x, i);
        else if (blank(x, i) || brk(x, i)) i = fold(x, i, 0);
        else i += copy_char(x, i);
    }
    if (more(x)) x->bad = 1;
}

/* A literal (|) or folded (>) block scalar's lines from I (the first line after its
 * header), with INDENT spaces of indentation (YAML 1.2.2 8.1). */
static void yaml_block_lines(struct dec *x, size_t i, int folded, size_t indent)
{
    enum { NONE, NORMAL, SPACED } prev = NONE;
    size_t empty = 0, first_break = 0; /* empty lines since the last text line, its break */
    while (more(x) && i < x->n) {
        size_t s = 0;
        while (s < indent && i + s < x->n && x->t[i + s] == ' ') s++;
        size_t c = i + s; /* the line's content */
        if (c >= x->n || brk(x, c)) {
            empty++;
            if (!folded || prev == NONE) emit_break(x, c);
            if (c >= x->n) break;
            i = c + brk(x, c);
            continue;
        }
        if (s < indent) break; /* a less indented line ends the scalar */
        int kind = blank(x, c) ? SPACED : NORMAL;
        if (folded && prev != NONE) {
            if (prev == NORMAL && kind == NORMAL && !empty) {
                emit(x, " ", 1, first_break, first_break + brk(x, first_break));
            } else {
                if (!(prev == NORMAL && kind == NORMAL)) emit_break(x, first_break);
                /* the empty lines, each a line feed, at their own breaks: approximated by
                 * the first break, which a match seldom starts on */
                for (size_t k = 0; k < empty; k++) emit(x, "\n", 1, first_break, first_break + 1);
            }
        }
        size_t e = c;
        while (e < x->n && !brk(x, e)) e++;
        for (size_t k = c; k < e && more(x);) k += copy_char(x, k);
        if (!folded) emit_break(x, e);
        prev = kind;
        empty = 0;
        first_break = e;
        i = e + brk(x, e);
        if (e >= x->n) break;
    }
    if (folded && more(x) && prev != NONE) emit_break(x, first_break); /* the final break */
}

static void yaml_block(struct dec *x, size_t i)
{
    int folded = x->t[i] == '>';
    size_t explicit_indent = 0;
    for (i++; i < x->n && (x->t[i] == '+' || x->t[i] == '-' || (x->t[i] >= '1' && x->t[i] <= '9'));
         i++)
        if (x->t[i] != '+' && x->t[i] != '-') explicit_indent = (size_t)(x->t[i] - '0');
    while (i < x->n && !brk(x, i)) i++; /* blanks and a comment */
    i += brk(x, i);
    /* the indentation: the first non-empty line's (8.1.1.1), or, with an indentation
     * indicator, the parent's (unknown here) plus it: each one tried from the first
     * line's down, the one that gives the value wins */
    size_t first = 0;
    for (size_t j = i; j < x->n;) {
        size_t s = 0;
        while (j + s < x->n && x->t[j + s] == ' ') s++;
        if (j + s < x->n && !brk(x, j + s)) {
            first = s;
            break;
        }
        if (j + s >= x->n) break;
        if (s > first) first = s;
        j += s + brk(x, j + s);
    }
    size_t lo = explicit_indent ? 1 : first;
    for (size_t indent = first; indent >= lo && indent > 0; indent--) {
        struct dec y = *x;
        yaml_block_lines(&y, i, folded, indent);
        if (!y.bad && y.got == y.wlen) {
            *x = y;
            return;
        }
    }
    x->bad = 1;
}

static void yaml_scalar(struct dec *x, size_t i)
{
    /* an anchor or a tag before the scalar: the node starts there */
    while (i < x->n && (x->t[i] == '&' || x->t[i] == '!')) {
        while (i < x->n && !blank(x, i) && !brk(x, i)) i++;
        while (blank(x, i) || brk(x, i)) i += blank(x, i) ? 1 : brk(x, i);
    }
    if (i >= x->n) x->bad = 1;
    else if (x->t[i] == '"') yaml_double(x, i);
    else if (x->t[i] == '\'') yaml_single(x, i);
    else if (x->t[i] == '|' || x->t[i] == '>') yaml_block(x, i);
    else yaml_plain(x, i);
}

int doc_scalar_range(const doc *d, uint32_t start, const char *value, size_t len, size_t off,
                     size_t n, struct doc_pos *at, struct doc_pos *end)
{
    if (!n || off > len || n > len - off || start >= d->len) return -1;
    struct dec x = {d,      (const unsigned char *)d->text,
                    d->len, (const unsigned char *)value,
                    len,    0,
                    off,    off + n - 1,
                    0,      0,
                    0};
    if (d->is_yaml) yaml_scalar(&x, start);
    else json_string_dec(&x, start);
    if (x.bad || x.got < len) return -1;
    *at = doc_offset_pos(d, x.first_at);
    *end = doc_offset_pos(d, x.last_end);
    return at->line && end->line ? 0 : -1;
}
