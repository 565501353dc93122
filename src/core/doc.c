/* doc.c - load JSON or YAML (libyaml events) into a jansson tree plus a pre-order
 * position index (see doc.h). Valid JSON is parsed in one pass that builds both; input
 * that pass does not accept goes to jansson's parser (its errors, its positions) and a
 * linear scan of the same bytes then records where every value starts. */
#include "core/doc.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"

struct doc_entry {
    uint32_t line, col;   /* value start */
    uint32_t kline, kcol; /* member key start (objects), else = value */
    uint32_t size;        /* entries in this subtree, itself included */
};

/* For a large object or array: its children's nodes, and for an object a hash of its
 * keys (borrowed from jansson), so lookups cost O(1) instead of a walk. Built lazily. */
struct doc_children {
    doc_node node;
    size_t n;
    doc_node *child;       /* i-th child's node */
    const char **keys;     /* objects: open-addressing table of keys ... */
    uint32_t *slot_child;  /* ... and the child index in each slot */
    size_t nslots;
};

struct doc {
    char *name;
    char *text;           /* the source bytes, NUL-terminated (for excerpts) */
    size_t len;
    json_t *root;
    VEC(struct doc_entry) idx;
    VEC(size_t) line_starts; /* built lazily by doc_line */
    int is_yaml;          /* its line breaks are libyaml's (see break_len) */
    VEC(struct doc_children) big;   /* lazily built child indexes, sorted by node */
};

#define DOC_BIG 32 /* children before a container gets an index */

void doc_error_release(struct doc_error *err)
{
    free(err->message);
    err->message = NULL;
}

static void set_error(struct doc_error *err, uint32_t line, uint32_t col, char *msg)
{
    err->message = msg;
    err->line = line;
    err->col = col;
}

/* Bytes of a leading UTF-8 byte order mark (RFC 8259 section 8.1 lets a parser ignore
 * it; positions count from the character after it). */
static size_t bom_len(const char *text, size_t len)
{
    return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

static void depth_error(struct doc_error *err, uint32_t line, uint32_t col, uint32_t max_depth)
{
    set_error(err, line, col,
              xasprintf("nesting deeper than %u levels (the limit protects against hostile "
                        "input)", max_depth));
}

/* Bytes of the line break at TEXT[I], 0 if none. JSON breaks lines at LF only (as
 * jansson and the scans count them); libyaml also at CR, CRLF and YAML 1.1's NEL, LS
 * and PS, and a YAML document's positions count those. */
static size_t break_len(const doc *d, size_t i)
{
    const unsigned char *t = (const unsigned char *)d->text + i;
    size_t left = d->len - i;
    if (t[0] == '\n') return 1;
    if (!d->is_yaml) return 0;
    if (t[0] == '\r') return left > 1 && t[1] == '\n' ? 2 : 1;
    if (left > 1 && t[0] == 0xC2 && t[1] == 0x85) return 2;
    if (left > 2 && t[0] == 0xE2 && t[1] == 0x80 && (t[2] == 0xA8 || t[2] == 0xA9)) return 3;
    return 0;
}

/* The line table (starts of lines), built on first use: a cache. */
static const doc *line_table(const doc *d)
{
    doc *m = (doc *)d;
    if (m->line_starts.len) return d;
    VEC_PUSH(m->line_starts, 0);
    for (size_t i = 0; i < m->len;) {
        size_t n = break_len(m, i);
        if (!n) {
            i++;
            continue;
        }
        i += n;
        VEC_PUSH(m->line_starts, i);
    }
    return d;
}

/* ---- JSON position scan -------------------------------------------------------- */

/* Walks valid JSON (jansson accepted it) once, tracking line and column in characters,
 * and appends one entry per value in document (= pre-order) order. */
struct scan {
    const unsigned char *p, *end;
    uint32_t line;
    const unsigned char *col_at; /* offset where col was last computed */
    uint32_t col;                /* 1-based column of col_at */
};

static void scan_sync_col(struct scan *s)
{
    for (; s->col_at < s->p; s->col_at++)
        if ((*s->col_at & 0xC0) != 0x80) s->col++;
}

static void scan_ws(struct scan *s)
{
    while (s->p < s->end) {
        unsigned char c = *s->p;
        if (c == '\n') {
            s->p++;
            s->line++;
            s->col = 1;
            s->col_at = s->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            s->p++;
        } else {
            break;
        }
    }
}

static void scan_string(struct scan *s)
{
    s->p++; /* opening quote */
    while (s->p < s->end && *s->p != '"') s->p += (*s->p == '\\') ? 2 : 1;
    s->p++;
}

static int scan_json(doc *d, size_t start, uint32_t max_depth, struct doc_error *err)
{
    const unsigned char *base = (const unsigned char *)d->text;
    struct scan s = {base + start, base + d->len, 1, base + start, 1};
    VEC(uint32_t) stack = VEC_INIT;   /* open containers: entry index */
    VEC(char) kinds = VEC_INIT;       /* '{' or '[' */
    uint32_t kline = 0, kcol = 0;     /* pending member key position */
    int rc = 0;

    for (;;) {
        scan_ws(&s);
        if (s.p >= s.end) break;
        unsigned char c = *s.p;
        int in_object = kinds.len && kinds.items[kinds.len - 1] == '{';
        if (c == ',' || c == ':' || c == '\0') { /* jansson drops a NUL after a number */
            s.p++;
            continue;
        }
        if (c == '}' || c == ']') {
            uint32_t open = stack.items[--stack.len];
            kinds.len--;
            d->idx.items[open].size = (uint32_t)d->idx.len - open;
            s.p++;
            continue;
        }
        scan_sync_col(&s);
        if (in_object && kline == 0 && c == '"') { /* a member key */
            kline = s.line;
            kcol = s.col;
            scan_string(&s);
            continue;
        }
        struct doc_entry e = {s.line, s.col, kline ? kline : s.line, kline ? kcol : s.col, 1};
        kline = 0;
        VEC_PUSH(d->idx, e);
        if (c == '{' || c == '[') {
            if (stack.len >= max_depth) {
                depth_error(err, s.line, s.col, max_depth);
                rc = -1;
                break;
            }
            VEC_PUSH(stack, (uint32_t)d->idx.len - 1);
            VEC_PUSH(kinds, (char)c);
            s.p++;
        } else if (c == '"') {
            scan_string(&s);
        } else {
            while (s.p < s.end && *s.p && !strchr(",]} \t\r\n", *s.p)) s.p++;
        }
    }
    VEC_FREE(stack);
    VEC_FREE(kinds);
    return rc;
}

/* ---- JSON in one pass ----------------------------------------------------------
 * The common case, valid JSON, is parsed here in a single pass that builds jansson's
 * values and the position index together (jansson's own parser reads byte by byte
 * through a callback, and the index then needs a second scan). Whatever this pass
 * does not accept, it gives up on, and jansson's parser plus the scan above run
 * instead: so every error, and its wording and position, is jansson's. It accepts
 * exactly what json_loadb(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)
 * accepts, with equal values: jansson's lexer (load.c) is the reference for strings
 * (UTF-8 checked, control characters refused, \u escapes with surrogate pairs) and
 * numbers (integers through strtoll, reals through strtod). */

struct onepass {
    struct scan s;
    doc *d;
    uint32_t depth, max_depth;
    struct buf str;        /* a string with escapes, decoded */
};

/* Length of the UTF-8 sequence at P (jansson's utf8_check_first/full), 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (n < 2) return n;
    if ((size_t)(end - p) < n) return 0;
    uint32_t v = c & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    if ((n == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) ||
        (n == 4 && (v < 0x10000 || v > 0x10FFFF)))
        return 0;
    return n;
}

static int hex4(const unsigned char *p, const unsigned char *end, uint32_t *out)
{
    if (end - p < 4) return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    *out = v;
    return 0;
}

static void put_utf8(struct buf *b, uint32_t v)
{
    char u[4];
    size_t n;
    if (v < 0x80) u[0] = (char)v, n = 1;
    else if (v < 0x800) u[0] = (char)(0xC0 | (v >> 6)), u[1] = (char)(0x80 | (v & 0x3F)), n = 2;
    else if (v < 0x10000)
        u[0] = (char)(0xE0 | (v >> 12)), u[1] = (char)(0x80 | ((v >> 6) & 0x3F)),
        u[2] = (char)(0x80 | (v & 0x3F)), n = 3;
    else
        u[0] = (char)(0xF0 | (v >> 18)), u[1] = (char)(0x80 | ((v >> 12) & 0x3F)),
        u[2] = (char)(0x80 | ((v >> 6) & 0x3F)), u[3] = (char)(0x80 | (v & 0x3F)), n = 4;
    buf_add(b, u, n);
}

/* The string at s->p (its opening quote). Sets *text, *len: the bytes in the source
 * when there is no escape, else decoded into o->str. -1: give up. */
static int op_string(struct onepass *o, const char **text, size_t *len)
{
    struct scan *s = &o->s;
    const unsigned char *start = ++s->p, *q = start;
    int escaped = 0;
    for (;;) {
        while (q < s->end && *q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\') q++;
        if (q >= s->end || *q < 0x20) return -1;
        if (*q == '"') break;
        if (*q == '\\') {
            escaped = 1;
            q += 2;
            continue;
        }
        size_t n = utf8_seq(q, s->end);
        if (!n) return -1;
        q += n;
    }
    s->p = q + 1;
    if (!escaped) {
        *text = (const char *)start;
        *len = (size_t)(q - start);
        return 0;
    }
    struct buf *b = &o->str;
    buf_reset(b);
    for (const unsigned char *r = start; r < q;) {
        if (*r != '\\') {
            const unsigned char *run = r;
            while (r < q && *r != '\\') r++;
            buf_add(b, (const char *)run, (size_t)(r - run));
            continue;
        }
        unsigned char e = r[1];
        r += 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = e ? strchr(from, e) : NULL;
        if (k) {
            buf_addc(b, to[k - from]);
            continue;
        }
        uint32_t v, v2;
        if (e != 'u' || hex4(r, q, &v) < 0) return -1;
        r += 4;
        if (v >= 0xDC00 && v <= 0xDFFF) return -1;
        if (v >= 0xD800 && v <= 0xDBFF) {
            if (q - r < 6 || r[0] != '\\' || r[1] != 'u' || hex4(r + 2, q, &v2) < 0 ||
                v2 < 0xDC00 || v2 > 0xDFFF)
                return -1;
            v = ((v - 0xD800) << 10) + (v2 - 0xDC00) + 0x10000;
            r += 6;
        }
        put_utf8(b, v);
    }
    *text = buf_str(b);
    *len = b->len;
    return 0;
}

static int is_digit(unsigned c) { return c >= '0' && c <= '9'; }

/* The number at s->p, by jansson's grammar and conversions. NULL: give up. */
static json_t *op_number(struct onepass *o)
{
    struct scan *s = &o->s;
    const unsigned char *start = s->p, *q = start;
    if (q < s->end && *q == '-') q++;
    if (q >= s->end || !is_digit(*q)) return NULL;
    if (*q == '0') {
        q++;
        if (q < s->end && is_digit(*q)) return NULL;
    } else {
        while (q < s->end && is_digit(*q)) q++;
    }
    int real = 0;
    if (q < s->end && *q == '.') {
        real = 1;
        q++;
        if (q >= s->end || !is_digit(*q)) return NULL;
        while (q < s->end && is_digit(*q)) q++;
    }
    if (q < s->end && (*q == 'e' || *q == 'E')) {
        real = 1;
        q++;
        if (q < s->end && (*q == '+' || *q == '-')) q++;
        if (q >= s->end || !is_digit(*q)) return NULL;
        while (q < s->end && is_digit(*q)) q++;
    }
    /* strtoll/strtod stop at the token's end: what follows is never part of a number
     * (checked by the caller), and the text is NUL-terminated */
    char *endp;
    errno = 0;
    json_t *v;
    if (!real) {
        long long i = strtoll((const char *)start, &endp, 10);
        if (errno == ERANGE) return NULL; /* jansson: "too big integer" */
        v = json_integer(i);
    } else {
        const struct lconv *lc = localeconv(); /* jansson swaps in the locale's point */
        if (strcmp(lc->decimal_point, ".") != 0) return NULL;
        double x = strtod((const char *)start, &endp);
        if ((x == HUGE_VAL || x == -HUGE_VAL) && errno == ERANGE) return NULL;
        v = json_real(x);
    }
    if ((const unsigned char *)endp != q) {
        json_decref(v);
        return NULL;
    }
    s->p = q;
    return v;
}

static json_t *op_value(struct onepass *o, uint32_t kline, uint32_t kcol);

/* After a value: whitespace, then the end of the input or one of STOP. */
static int op_after(struct onepass *o, const char *stop)
{
    scan_ws(&o->s);
    return o->s.p >= o->s.end || (*o->s.p && strchr(stop, *o->s.p)) ? 0 : -1;
}

static json_t *op_object(struct onepass *o)
{
    struct scan *s = &o->s;
    json_t *obj = json_object();
    s->p++;
    scan_ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return obj;
    }
    for (;;) {
        if (s->p >= s->end || *s->p != '"') break;
        scan_sync_col(s);
        uint32_t kline = s->line, kcol = s->col;
        const char *k;
        size_t klen;
        if (op_string(o, &k, &klen) < 0 || memchr(k, '\0', klen) || json_object_getn(obj, k, klen))
            break;
        char *own = k == buf_str(&o->str) ? xstrndup(k, klen) : NULL; /* o->str is reused */
        scan_ws(s);
        json_t *v = NULL;
        if (s->p < s->end && *s->p == ':') {
            s->p++;
            scan_ws(s);
            v = op_value(o, kline, kcol);
        }
        if (v) json_object_setn_new_nocheck(obj, own ? own : k, klen, v);
        free(own);
        if (!v || op_after(o, ",}") < 0 || s->p >= s->end) break;
        if (*s->p++ == '}') return obj;
        scan_ws(s);
    }
    json_decref(obj);
    return NULL;
}

static json_t *op_array(struct onepass *o)
{
    struct scan *s = &o->s;
    json_t *arr = json_array();
    s->p++;
    scan_ws(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return arr;
    }
    for (;;) {
        json_t *v = op_value(o, 0, 0);
        if (!v) break;
        json_array_append_new(arr, v);
        if (op_after(o, ",]") < 0 || s->p >= s->end) break;
        if (*s->p++ == ']') return arr;
        scan_ws(s);
    }
    json_decref(arr);
    return NULL;
}

/* The value at s->p; its index entry is pushed first (pre-order), its size set after. */
static json_t *op_value(struct onepass *o, uint32_t kline, uint32_t kcol)
{
    struct scan *s = &o->s;
    if (s->p >= s->end) return NULL;
    scan_sync_col(s);
    struct doc_entry e = {s->line, s->col, kline ? kline : s->line, kline ? kcol : s->col, 1};
    uint32_t at = (uint32_t)o->d->idx.len;
    VEC_PUSH(o->d->idx, e);
    unsigned char c = *s->p;
    json_t *v = NULL;
    const char *text;
    size_t len;
    if (c == '{' || c == '[') {
        if (o->depth >= o->max_depth) return NULL; /* the scan words the error */
        o->depth++;
        v = c == '{' ? op_object(o) : op_array(o);
        o->depth--;
    } else if (c == '"') {
        if (op_string(o, &text, &len) == 0) v = json_stringn_nocheck(text, len);
    } else if (c == '-' || is_digit(c)) {
        v = op_number(o);
    } else {
        static const char *const lit[] = {"true", "false", "null"};
        for (int i = 0; i < 3 && !v; i++) {
            size_t n = strlen(lit[i]);
            if ((size_t)(s->end - s->p) >= n && !memcmp(s->p, lit[i], n)) {
                s->p += n;
                v = i == 0 ? json_true() : i == 1 ? json_false() : json_null();
            }
        }
    }
    if (v) o->d->idx.items[at].size = (uint32_t)o->d->idx.len - at;
    return v;
}

/* 0 with d->root and d->idx filled, or -1 with both empty (nothing is reported). */
static int onepass_json(doc *d, size_t start, uint32_t max_depth)
{
    const unsigned char *base = (const unsigned char *)d->text;
    struct onepass o = {{base + start, base + d->len, 1, base + start, 1}, d, 0, max_depth, BUF_INIT};
    scan_ws(&o.s);
    json_t *root = op_value(&o, 0, 0);
    buf_release(&o.str);
    if (root && op_after(&o, "") == 0) {
        d->root = root;
        return 0;
    }
    json_decref(root);
    d->idx.len = 0;
    return -1;
}

/* jansson refused the input at byte LIMIT, after the bytes before it parsed as a valid
 * prefix: if that prefix opens more than MAX_DEPTH containers, the depth is the first
 * problem (jansson's own bound is 2048 levels, and its message is not ours). 1 with
 * *err filled then, else 0. */
static int prefix_too_deep(const doc *d, size_t start, size_t limit, uint32_t max_depth,
                           struct doc_error *err)
{
    const unsigned char *base = (const unsigned char *)d->text;
    struct scan s = {base + start, base + (limit < d->len ? limit : d->len), 1, base + start, 1};
    uint32_t depth = 0;
    while (s.p < s.end) {
        unsigned char c = *s.p;
        if (c == '\n') {
            scan_ws(&s);
        } else if (c == '"') {
            s.p++;
            while (s.p < s.end && *s.p != '"') s.p += *s.p == '\\' && s.p + 1 < s.end ? 2 : 1;
            if (s.p < s.end) s.p++;
        } else if (c == '[' || c == '{') {
            if (depth++ >= max_depth) {
                scan_sync_col(&s);
                depth_error(err, s.line, s.col, max_depth);
                return 1;
            }
            s.p++;
        } else {
            if ((c == ']' || c == '}') && depth) depth--;
            s.p++;
        }
    }
    return 0;
}

static doc *load_json(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    size_t start = bom_len(d->text, d->len);
    if (strspn(d->text + start, " \t\r\n") == d->len - start) {
        set_error(err, 1, 1, xstrdup("empty document (a description is a JSON object)"));
        doc_free(d);
        return NULL;
    }
    VEC_RESERVE(d->idx, d->len / 32 + 16); /* pretty JSON: about 35 bytes per value */
    if (onepass_json(d, start, lim->max_depth) == 0) return d;
    json_error_t jerr;
    d->root = json_loadb(d->text + start, d->len - start,
                         JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!d->root) {
        size_t at = jerr.position > 0 ? (size_t)jerr.position : d->len - start;
        if (!prefix_too_deep(d, start, start + at, lim->max_depth, err)) {
            int line = jerr.line > 0 ? jerr.line : 1, col = jerr.column > 0 ? jerr.column : 1;
            set_error(err, (uint32_t)line, (uint32_t)col, xasprintf("invalid JSON: %s", jerr.text));
        }
        doc_free(d);
        return NULL;
    }
    if (scan_json(d, start, lim->max_depth, err) < 0) {
        doc_free(d);
        return NULL;
    }
    return d;
}

/* ---- YAML ---------------------------------------------------------------------- */

struct yanchor {
    char *name;
    json_t *value;         /* a reference of its own */
    uint32_t first, count; /* its entries in the index, copied on each alias */
    uint32_t line, col;    /* a key's anchor (first = UINT32_MAX): the key's position */
    struct doc_entry *saved; /* its entries, once a merge took them out of the index */
};

struct yframe {
    json_t *container;
    uint32_t entry;
    char *pending_key;     /* mapping: key read, value not yet */
    uint32_t kline, kcol;
    char *anchor;          /* anchor of the container itself */
    /* Merge keys (see yaml_merge). */
    int merge_value;       /* mapping: the pending key is the merge key << */
    int had_merge;         /* mapping: a << was read (a second one is refused) */
    int merge_list;        /* sequence: it is the value of a <<, its items are merged */
    json_t *merged;        /* mapping: each merged member's key -> its node (an integer) */
    uint32_t first_gone;   /* mapping: first merged member a later key overrode, or UINT32_MAX */
    size_t anchors_at;     /* anchors registered before the frame began ... */
    size_t merge_anchors;  /* ... and before the value of its << began */
};

/* A number the JSON loader would refuse (an integer beyond 64 bits, a real beyond a
 * double): refused here too rather than rounded, or kept as text. New message. */
static char *yaml_number_error(const char *what, const char *v, size_t n, const char *fit)
{
    return xasprintf("%s %.40s%s does not fit in %s (quote it to keep it as text)", what, v,
                     n > 40 ? "..." : "", fit);
}

/* YAML 1.2 core schema for plain scalars: null, booleans, integers, floats; the rest
 * (quoted, or plain text such as 2025-11-25) are strings. NULL with *why (new) for a
 * number out of range. */
static json_t *yaml_scalar_value(const yaml_event_t *ev, char **why)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    if (tag && !strcmp(tag, YAML_STR_TAG)) return json_stringn(v, n);
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE && !tag) return json_stringn(v, n);
    if (n == 0 || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL"))
        return json_null();
    if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return json_true();
    if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return json_false();
    if (strlen(v) == n) {
        char *endp;
        errno = 0;
        long long i = strtoll(v, &endp, 10);
        if (*endp == '\0' && (v[0] == '-' || v[0] == '+' || (v[0] >= '0' && v[0] <= '9'))) {
            if (errno == 0) return json_integer(i);
            *why = yaml_number_error("integer", v, n, "64 bits");
            return NULL;
        }
        int numeric = (v[0] == '-' || v[0] == '+' || v[0] == '.' || (v[0] >= '0' && v[0] <= '9'));
        errno = 0;
        double x = strtod(v, &endp);
        if (numeric && *endp == '\0' && strspn(v, "+-.0123456789eE") == n) {
            if (errno == 0 || !isinf(x)) return json_real(x); /* underflow: rounded, as jansson does */
            *why = yaml_number_error("number", v, n, "a double");
            return NULL;
        }
    }
    return json_stringn(v, n);
}

static const char *yaml_event_name(yaml_event_type_t t)
{
    switch (t) {
    case YAML_SEQUENCE_START_EVENT: return "a sequence";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    case YAML_ALIAS_EVENT: return "an alias"; /* not "a alias" */
    default: return "a value";
    }
}

/* Where libyaml's problem is. A reader error (bad UTF-8, a control character) has no
 * mark, only a byte offset: for a bad trailing octet the offset of that octet, so the
 * position is that of the sequence's first byte. Columns count characters. */
static struct doc_pos yaml_problem_pos(const doc *d, const yaml_parser_t *parser)
{
    if (parser->error != YAML_READER_ERROR)
        return (struct doc_pos){(uint32_t)parser->problem_mark.line + 1,
                                (uint32_t)parser->problem_mark.column + 1};
    const unsigned char *t = (const unsigned char *)d->text;
    size_t at = parser->problem_offset < d->len ? parser->problem_offset : d->len;
    if (at > 0 && parser->problem && !strcmp(parser->problem, "invalid trailing UTF-8 octet")) {
        at--;
        while (at > 0 && (t[at] & 0xC0) == 0x80) at--;
    }
    struct doc_pos p = {1, 1};
    for (size_t i = bom_len(d->text, d->len); i < at;) {
        size_t n = break_len(d, i);
        if (n) {
            p.line++, p.col = 1;
            i += n;
            continue;
        }
        p.col += (t[i++] & 0xC0) != 0x80;
    }
    return p;
}

/* libyaml places an empty value at the very end of a text without a final line break
 * (the value of "---") on a line after the last: put it at the end of the last line. */
static void yaml_clamp_positions(doc *d)
{
    line_table(d);
    uint32_t last = (uint32_t)d->line_starts.len, end_col = 1;
    const unsigned char *t = (const unsigned char *)d->text;
    for (size_t i = d->line_starts.items[last - 1]; i < d->len; i++)
        end_col += (t[i] & 0xC0) != 0x80;
    for (size_t i = 0; i < d->idx.len; i++) {
        struct doc_entry *e = &d->idx.items[i];
        if (e->line > last) e->line = last, e->col = end_col;
        if (e->kline > last) e->kline = last, e->kcol = end_col;
    }
}

/* The merge key (https://yaml.org/type/merge.html) is the plain scalar << (or one tagged
 * !!merge); a quoted "<<" or !!str << is a member named "<<". */
static int yaml_is_merge_key(const yaml_event_t *ev)
{
    const char *tag = (const char *)ev->data.scalar.tag;
    if (ev->data.scalar.length != 2 || memcmp(ev->data.scalar.value, "<<", 2)) return 0;
    if (tag) return !strcmp(tag, "tag:yaml.org,2002:merge");
    return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static struct yanchor *yaml_find_anchor(struct yanchor *a, size_t n, const char *name)
{
    while (n-- > 0)
        if (!strcmp(a[n].name, name)) return &a[n];
    return NULL;
}

static const char *yaml_kind(const json_t *v)
{
    if (json_is_object(v)) return "a mapping";
    if (json_is_array(v)) return "a sequence";
    return "a scalar";
}

/* A run of the index kept when a merge closes up: SIZE entries at SRC go to DST. */
struct yspan {
    uint32_t src, size, dst;
    const char *key;       /* a merged member's key (borrowed) */
};

/* Reduces index entries [FROM, end) to the spans KEEP (in order, not overlapping), moved
 * down to start at FROM. Anchors registered from A0 on whose entries were there follow
 * their span, or, dropped, keep a copy of their entries (an anchored merge source, a
 * merged member overridden). Adds the work done to *WORK. */
static void yaml_close_up(doc *d, uint32_t from, struct yspan *keep, size_t n,
                          struct yanchor *an, size_t a0, size_t na, size_t *work)
{
    uint32_t dst = from;
    for (size_t i = 0; i < n; i++) {
        keep[i].dst = dst;
        dst += keep[i].size;
    }
    *work += (d->idx.len - from) + (na - a0);
    for (size_t j = a0; j < na; j++) {
        struct yanchor *a = &an[j];
        if (a->first == UINT32_MAX || a->saved || a->first < from) continue;
        size_t lo = 0, hi = n; /* the last span starting at or before the anchor */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (keep[mid].src <= a->first) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && a->first < keep[lo - 1].src + keep[lo - 1].size) {
            a->first = a->first - keep[lo - 1].src + keep[lo - 1].dst;
        } else {
            a->saved = xmalloc(a->count * sizeof *a->saved);
            memcpy(a->saved, d->idx.items + a->first, a->count * sizeof *a->saved);
            *work += a->count;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (keep[i].dst != keep[i].src)
            memmove(d->idx.items + keep[i].dst, d->idx.items + keep[i].src,
                    keep[i].size * sizeof *d->idx.items);
    d->idx.len = dst;
}

/* "<<: VALUE" in mapping frame T: VALUE (a mapping, or a sequence of mappings; consumed)
 * has its entries at the end of the index from node V. Each source mapping's members that
 * T does not have yet (written before the <<, or merged from an earlier source: earlier
 * wins) become T's members where the << is, with their entries, so their positions are
 * the sources'; the rest of the value's entries go. A key written after the << overrides
 * its merged member later (see first_gone). */
static void yaml_merge(doc *d, struct yframe *t, json_t *value, uint32_t v, struct yanchor *an,
                       size_t na, size_t *work)
{
    VEC(struct yspan) keep = VEC_INIT;
    int list = json_is_array(value);
    size_t nsrc = list ? json_array_size(value) : 1;
    uint32_t s = list ? v + 1 : v; /* the node of the current source */
    for (size_t i = 0; i < nsrc; i++) {
        json_t *src = list ? json_array_get(value, i) : value;
        uint32_t c = s + 1;
        for (void *it = json_object_iter(src); it; it = json_object_iter_next(src, it)) {
            const char *k = json_object_iter_key(it);
            uint32_t size = d->idx.items[c].size;
            if (!json_object_get(t->container, k)) {
                json_object_set(t->container, k, json_object_iter_value(it));
                struct yspan sp = {c, size, 0, k};
                VEC_PUSH(keep, sp);
            }
            c += size;
        }
        s += d->idx.items[s].size;
    }
    yaml_close_up(d, v, keep.items, keep.len, an, t->merge_anchors, na, work);
    if (!t->merged) t->merged = json_object();
    for (size_t i = 0; i < keep.len; i++)
        json_object_set_new(t->merged, keep.items[i].key, json_integer(keep.items[i].dst));
    VEC_FREE(keep);
    json_decref(value);
}

/* At the end of mapping frame F: the merged members that keys written after the << have
 * overridden (marked kline = 0) leave the index. */
static void yaml_drop_overridden(doc *d, const struct yframe *f, struct yanchor *an, size_t na,
                                 size_t *work)
{
    VEC(struct yspan) keep = VEC_INIT;
    for (uint32_t c = f->first_gone; c < d->idx.len; c += d->idx.items[c].size)
        if (d->idx.items[c].kline) {
            struct yspan sp = {c, d->idx.items[c].size, 0, NULL};
            VEC_PUSH(keep, sp);
        }
    yaml_close_up(d, f->first_gone, keep.items, keep.len, an, f->anchors_at, na, work);
    VEC_FREE(keep);
}

/* Why the value event EV (at the start of the value of a <<, or an item of its sequence:
 * IN_LIST) cannot be merged, or NULL. */
static char *yaml_merge_refusal(const yaml_event_t *ev, int in_list, struct yanchor *an, size_t na)
{
    const char *what = NULL;
    if (ev->type == YAML_SCALAR_EVENT) {
        what = "a scalar";
    } else if (ev->type == YAML_SEQUENCE_START_EVENT && in_list) {
        what = "a sequence inside its sequence";
    } else if (ev->type == YAML_ALIAS_EVENT) {
        const char *name = (const char *)ev->data.alias.anchor;
        const struct yanchor *a = yaml_find_anchor(an, na, name);
        if (!a || json_is_object(a->value)) return NULL; /* no anchor: the alias's own error */
        int ok = !in_list && json_is_array(a->value);
        for (size_t i = 0; ok && i < json_array_size(a->value); i++)
            ok = json_is_object(json_array_get(a->value, i));
        if (ok) return NULL;
        return xasprintf("merge key << takes a mapping or a sequence of mappings, not *%s (%s%s)",
                         name, in_list && json_is_array(a->value) ? "a sequence inside its sequence"
                                                                  : yaml_kind(a->value),
                         !in_list && json_is_array(a->value) ? " holding other than mappings" : "");
    }
    if (!what) return NULL;
    return xasprintf("merge key << takes a mapping or a sequence of mappings, not %s (quote "
                     "\"<<\" for a member of that name)", what);
}

static doc *load_yaml(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    VEC(struct yframe) st = VEC_INIT;
    VEC(struct yanchor) anchors = VEC_INIT;
    size_t max_nodes = d->len > ((size_t)1 << 20) ? d->len : ((size_t)1 << 20);
    /* Merges copy entries in and close the index up: that work is bounded too (merges
     * of merges, nested inline merges, many copies merged away). */
    size_t work = 0, max_work = 8 * max_nodes;
    int done = 0, failed = 0, docs = 0;

    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)d->text, d->len);
    while (!done && !failed) {
        if (!yaml_parser_parse(&parser, &ev)) {
            struct doc_pos m = yaml_problem_pos(d, &parser);
            set_error(err, m.line, m.col,
                      xasprintf("invalid YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
                                parser.context ? " " : "", parser.context ? parser.context : ""));
            failed = 1;
            break;
        }
        uint32_t line = (uint32_t)ev.start_mark.line + 1, col = (uint32_t)ev.start_mark.column + 1;
        json_t *value = NULL;        /* a completed node to attach */
        uint32_t entry = UINT32_MAX; /* its first index entry */
        uint32_t vnode = UINT32_MAX; /* the node of VALUE */
        const char *anchor = NULL;
        struct yframe *top = st.len ? &st.items[st.len - 1] : NULL;

        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1) {
                set_error(err, line, col, xstrdup("a YAML input must hold exactly one document"));
                failed = 1;
            }
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_ALIAS_EVENT: {
            /* In a mapping awaiting a key, a scalar is the key. */
            if (top && json_is_object(top->container) && !top->pending_key) {
                if (ev.type != YAML_SCALAR_EVENT) {
                    set_error(err, line, col,
                              xasprintf("a mapping key must be a plain string, not %s",
                                        yaml_event_name(ev.type)));
                    failed = 1;
                    break;
                }
                const char *k = (const char *)ev.data.scalar.value;
                if (strlen(k) != ev.data.scalar.length) {
                    set_error(err, line, col, xstrdup("a mapping key must not contain NUL"));
                    failed = 1;
                    break;
                }
                json_t *merged = top->merged ? json_object_get(top->merged, k) : NULL;
                if (yaml_is_merge_key(&ev)) {
                    if (top->had_merge) {
                        set_error(err, line, col,
                                  xstrdup("duplicate merge key << (merge several mappings with "
                                          "<<: [*a, *b])"));
                        failed = 1;
                        break;
                    }
                    top->merge_value = top->had_merge = 1;
                } else if (merged) {
                    /* a key written after the << wins over the merged one, in its own place */
                    uint32_t gone = (uint32_t)json_integer_value(merged);
                    d->idx.items[gone].kline = 0;
                    if (gone < top->first_gone) top->first_gone = gone;
                    json_object_del(top->container, k);
                    json_object_del(top->merged, k);
                } else if (json_object_get(top->container, k)) {
                    set_error(err, line, col,
                              xasprintf("duplicate key \"%s\" (YAML mappings need unique keys)", k));
                    failed = 1;
                    break;
                }
                top->pending_key = xstrdup(k);
                top->kline = line;
                top->kcol = col;
                if (ev.data.scalar.anchor) { /* "&k a: 1" then "*k": was "refers to no complete anchor" */
                    struct yanchor a = {xstrdup((const char *)ev.data.scalar.anchor),
                                        json_stringn(k, ev.data.scalar.length), UINT32_MAX, 1, line, col,
                                        NULL};
                    VEC_PUSH(anchors, a);
                }
                top->merge_anchors = anchors.len;
                break;
            }
            /* The value of a <<, or an item of its sequence: mappings only. */
            int in_list = top && top->merge_list;
            if (top && (in_list || (json_is_object(top->container) && top->merge_value))) {
                char *why = yaml_merge_refusal(&ev, in_list, anchors.items, anchors.len);
                if (why) {
                    set_error(err, line, col, why);
                    failed = 1;
                    break;
                }
            }
            if (st.len >= lim->max_depth && ev.type != YAML_SCALAR_EVENT && ev.type != YAML_ALIAS_EVENT) {
                set_error(err, line, col,
                          xasprintf("nesting deeper than %u levels (the limit protects against "
                                    "hostile input)", lim->max_depth));
                failed = 1;
                break;
            }
            uint32_t kl = top && top->pending_key ? top->kline : line;
            uint32_t kc = top && top->pending_key ? top->kcol : col;
            if (ev.type == YAML_ALIAS_EVENT) {
                const char *name = (const char *)ev.data.alias.anchor;
                struct yanchor *a = yaml_find_anchor(anchors.items, anchors.len, name);
                if (!a) {
                    set_error(err, line, col,
                              xasprintf("alias *%s refers to no complete anchor (undefined, or "
                                        "recursive: an alias inside its own anchor)", name));
                    failed = 1;
                    break;
                }
                if (d->idx.len + a->count > max_nodes) {
                    set_error(err, line, col,
                              xasprintf("aliases expand to more than %zu nodes (the limit "
                                        "protects against alias bombs)", max_nodes));
                    failed = 1;
                    break;
                }
                entry = (uint32_t)d->idx.len;
                if (a->first == UINT32_MAX) { /* a key's anchor has no entry: the key's position */
                    struct doc_entry ke = {a->line, a->col, kl, kc, 1};
                    VEC_PUSH(d->idx, ke);
                } else {
                    VEC_RESERVE(d->idx, a->count);
                    memcpy(d->idx.items + d->idx.len, a->saved ? a->saved : d->idx.items + a->first,
                           a->count * sizeof(struct doc_entry));
                    d->idx.len += a->count;
                    d->idx.items[entry].kline = kl;
                    d->idx.items[entry].kcol = kc;
                }
                value = json_incref(a->value);
                vnode = entry;
                break;
            }
            if (d->idx.len + 1 > max_nodes) {
                set_error(err, line, col, xasprintf("more than %zu nodes", max_nodes));
                failed = 1;
                break;
            }
            struct doc_entry e = {line, col, kl, kc, 1};
            entry = (uint32_t)d->idx.len;
            VEC_PUSH(d->idx, e);
            if (ev.type == YAML_SCALAR_EVENT) {
                char *why = NULL;
                value = yaml_scalar_value(&ev, &why);
                if (!value) {
                    set_error(err, line, col, why);
                    failed = 1;
                    break;
                }
                anchor = (const char *)ev.data.scalar.anchor;
                vnode = entry;
            } else {
                struct yframe f = {ev.type == YAML_MAPPING_START_EVENT ? json_object() : json_array(),
                                   entry, NULL, 0, 0, NULL, 0, 0, 0, NULL, UINT32_MAX, anchors.len, 0};
                f.merge_list = top && top->merge_value && ev.type == YAML_SEQUENCE_START_EVENT;
                const char *an = ev.type == YAML_MAPPING_START_EVENT
                                     ? (const char *)ev.data.mapping_start.anchor
                                     : (const char *)ev.data.sequence_start.anchor;
                f.anchor = an ? xstrdup(an) : NULL;
                VEC_PUSH(st, f);
            }
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
            struct yframe f = st.items[--st.len];
            if (f.first_gone != UINT32_MAX)
                yaml_drop_overridden(d, &f, anchors.items, anchors.len, &work);
            json_decref(f.merged);
            d->idx.items[f.entry].size = (uint32_t)d->idx.len - f.entry;
            value = f.container;
            vnode = f.entry;
            if (f.anchor) {
                struct yanchor a = {f.anchor, json_incref(value), f.entry, d->idx.items[f.entry].size,
                                    0, 0, NULL};
                VEC_PUSH(anchors, a);
            }
            break;
        }
        default: break;
        }
        if (!failed && value) {
            if (anchor) {
                struct yanchor a = {xstrdup(anchor), json_incref(value), entry, 1, 0, 0, NULL};
                VEC_PUSH(anchors, a);
            }
            top = st.len ? &st.items[st.len - 1] : NULL;
            if (!top) {
                d->root = value;
            } else if (json_is_object(top->container) && top->merge_value) {
                yaml_merge(d, top, value, vnode, anchors.items, anchors.len, &work);
                free(top->pending_key);
                top->pending_key = NULL;
                top->merge_value = 0;
            } else if (json_is_object(top->container)) {
                json_object_set_new(top->container, top->pending_key, value);
                free(top->pending_key);
                top->pending_key = NULL;
            } else {
                json_array_append_new(top->container, value);
            }
        }
        if (!failed && work > max_work) {
            set_error(err, line, col,
                      xasprintf("merge keys copy more than %zu nodes (the limit protects against "
                                "merge bombs)", max_work));
            failed = 1;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < st.len; i++) {
        json_decref(st.items[i].container);
        json_decref(st.items[i].merged);
        free(st.items[i].pending_key);
        free(st.items[i].anchor);
    }
    for (size_t i = 0; i < anchors.len; i++) {
        free(anchors.items[i].name);
        json_decref(anchors.items[i].value);
        free(anchors.items[i].saved);
    }
    VEC_FREE(st);
    VEC_FREE(anchors);
    if (!failed && !d->root) {
        set_error(err, 1, 1, xstrdup("empty YAML document"));
        failed = 1;
    }
    if (!failed) yaml_clamp_positions(d);
    if (failed) {
        doc_free(d);
        return NULL;
    }
    return d;
}

/* ---- loading ------------------------------------------------------------------- */

/* Load from TEXT, which the doc takes over: LEN bytes plus room for a NUL (a file is
 * read straight into the buffer the doc keeps, so a large input is not copied). */
static doc *load_owned(const char *name, char *text, size_t len, int is_yaml,
                       const struct doc_limits *lim, struct doc_error *err)
{
    struct doc_limits l = lim ? *lim : (struct doc_limits){0, 0};
    if (!l.max_bytes) l.max_bytes = DOC_DEFAULT_MAX_BYTES;
    if (!l.max_depth) l.max_depth = DOC_DEFAULT_MAX_DEPTH;
    err->message = NULL;
    err->line = err->col = 0;
    if (len > l.max_bytes) {
        set_error(err, 0, 0, xasprintf("input is %zu bytes, over the limit of %zu", len, l.max_bytes));
        free(text);
        return NULL;
    }
    if (len > UINT32_MAX) {
        set_error(err, 0, 0, xstrdup("input over 4 GiB"));
        free(text);
        return NULL;
    }
    doc *d = xcalloc(1, sizeof *d);
    d->name = xstrdup(name);
    d->text = text;
    d->text[len] = '\0';
    d->len = len;
    d->is_yaml = is_yaml;
    return is_yaml ? load_yaml(d, &l, err) : load_json(d, &l, err);
}

doc *doc_load_buffer(const char *name, const char *data, size_t len, int is_yaml,
                     const struct doc_limits *lim, struct doc_error *err)
{
    size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    if (len > max || len > UINT32_MAX) return load_owned(name, xmalloc(1), len, is_yaml, lim, err);
    char *text = xmalloc(len + 1);
    memcpy(text, data, len);
    return load_owned(name, text, len, is_yaml, lim, err);
}

static int has_yaml_suffix(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
}

doc *doc_load_file(const char *path, const struct doc_limits *lim, struct doc_error *err)
{
    size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    err->message = NULL;
    err->line = err->col = 0;
    if (!f) {
        set_error(err, 0, 0, xasprintf("cannot open: %s", strerror(errno)));
        return NULL;
    }
    /* A regular file's size is known: read it in one buffer, with room for the NUL. */
    struct stat st;
    size_t cap = 65536;
    if (!is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size < (uint64_t)max)
        cap = (size_t)st.st_size + 2; /* + the NUL, + 1 so that EOF is seen without growing */
    char *data = xmalloc(cap);
    size_t len = 0;
    int too_big = 0, read_err = 0;
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            data = xrealloc(data, cap);
        }
        size_t n = fread(data + len, 1, cap - 1 - len, f);
        len += n;
        if (len > max) { too_big = 1; break; }
        if (n == 0) {
            read_err = ferror(f);
            break;
        }
    }
    int saved = errno;
    if (!is_stdin) fclose(f);
    if (read_err) set_error(err, 0, 0, xasprintf("cannot read: %s", strerror(saved)));
    else if (too_big) set_error(err, 0, 0, xasprintf("input is over the limit of %zu bytes", max));
    else return load_owned(is_stdin ? "<stdin>" : path, data, len, has_yaml_suffix(path), lim, err);
    free(data);
    return NULL;
}

void doc_free(doc *d)
{
    if (!d) return;
    /* Large buffers first: freeing one after the tree's many small blocks would make
     * malloc consolidate all of them (a fifth of the run time on a 70 MB document). */
    free(d->text);
    VEC_FREE(d->idx);
    VEC_FREE(d->line_starts);
    for (size_t i = 0; i < d->big.len; i++) {
        free(d->big.items[i].child);
        free(d->big.items[i].keys);
        free(d->big.items[i].slot_child);
    }
    VEC_FREE(d->big);
    json_decref(d->root);
    free(d->name);
    free(d);
}

json_t *doc_root(const doc *d) { return d->root; }
const char *doc_name(const doc *d) { return d->name; }
size_t doc_node_count(const doc *d) { return d->idx.len; }

struct doc_pos doc_node_pos(const doc *d, doc_node n)
{
    if (n >= d->idx.len) return (struct doc_pos){0, 0};
    return (struct doc_pos){d->idx.items[n].line, d->idx.items[n].col};
}

struct doc_pos doc_node_key_pos(const doc *d, doc_node n)
{
    if (n >= d->idx.len) return (struct doc_pos){0, 0};
    return (struct doc_pos){d->idx.items[n].kline, d->idx.items[n].kcol};
}

doc_node doc_node_first_child(const doc *d, doc_node n)
{
    if (n >= d->idx.len || d->idx.items[n].size < 2) return DOC_NONE;
    return n + 1;
}

doc_node doc_node_next_sibling(const doc *d, doc_node parent, doc_node n)
{
    if (parent >= d->idx.len || n >= d->idx.len) return DOC_NONE;
    doc_node next = n + d->idx.items[n].size;
    return next < parent + d->idx.items[parent].size ? next : DOC_NONE;
}

static uint64_t key_hash(const char *k)
{
    uint64_t h = 1469598103934665603ull;
    for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

/* The child index of container N (json V), built on first use; NULL for small ones. */
static const struct doc_children *children_of(const doc *d, doc_node n, json_t *v)
{
    doc *m = (doc *)d; /* a cache, like the line table */
    size_t count = json_is_object(v) ? json_object_size(v) : json_is_array(v) ? json_array_size(v) : 0;
    if (count < DOC_BIG || n >= d->idx.len) return NULL;
    size_t a = 0, b = m->big.len;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (m->big.items[mid].node < n) a = mid + 1;
        else b = mid;
    }
    if (a < m->big.len && m->big.items[a].node == n) return &m->big.items[a];
    struct doc_children c = {n, 0, NULL, NULL, NULL, 0};
    c.child = xmalloc(count * sizeof *c.child);
    for (doc_node k = doc_node_first_child(d, n); k != DOC_NONE && c.n < count;
         k = doc_node_next_sibling(d, n, k))
        c.child[c.n++] = k;
    if (json_is_object(v)) {
        c.nslots = 1;
        while (c.nslots < 2 * c.n) c.nslots *= 2;
        c.keys = xcalloc(c.nslots, sizeof *c.keys);
        c.slot_child = xcalloc(c.nslots, sizeof *c.slot_child);
        uint32_t i = 0;
        for (void *it = json_object_iter(v); it && i < c.n; it = json_object_iter_next(v, it), i++) {
            const char *k = json_object_iter_key(it);
            size_t s = key_hash(k) & (c.nslots - 1);
            while (c.keys[s]) s = (s + 1) & (c.nslots - 1);
            c.keys[s] = k;
            c.slot_child[s] = i;
        }
    }
    VEC_RESERVE(m->big, 1);
    memmove(m->big.items + a + 1, m->big.items + a, (m->big.len - a) * sizeof *m->big.items);
    m->big.items[a] = c;
    m->big.len++;
    return &m->big.items[a];
}

static doc_node walk_item(const doc *d, doc_node n, size_t idx)
{
    doc_node c = doc_node_first_child(d, n);
    while (c != DOC_NONE && idx--) c = doc_node_next_sibling(d, n, c);
    return c;
}

doc_node doc_node_item(const doc *d, doc_node n, size_t idx)
{
    return walk_item(d, n, idx);
}

doc_node doc_node_array_item(const doc *d, doc_node n, json_t *arr, size_t idx)
{
    const struct doc_children *c = children_of(d, n, arr);
    if (c) return idx < c->n ? c->child[idx] : DOC_NONE;
    return walk_item(d, n, idx);
}

doc_node doc_node_member_key(const doc *d, doc_node n, json_t *obj, const char *key,
                             const char **stable_key)
{
    const struct doc_children *c = children_of(d, n, obj);
    if (c) {
        for (size_t s = key_hash(key) & (c->nslots - 1); c->keys[s]; s = (s + 1) & (c->nslots - 1))
            if (!strcmp(c->keys[s], key)) {
                if (stable_key) *stable_key = c->keys[s];
                return c->slot_child[s] < c->n ? c->child[c->slot_child[s]] : DOC_NONE;
            }
        return DOC_NONE;
    }
    /* One walk of the members and their nodes side by side; the member is found by its
     * value (a pointer compare) and confirmed by its key, as true/false/null are
     * shared values and a component may be substituted at two members. */
    json_t *want = json_object_get(obj, key);
    if (!want) return DOC_NONE;
    doc_node k = doc_node_first_child(d, n);
    for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it)) {
        if (json_object_iter_value(it) == want && !strcmp(json_object_iter_key(it), key)) {
            if (stable_key) *stable_key = json_object_iter_key(it);
            return k;
        }
        if (k != DOC_NONE) k = doc_node_next_sibling(d, n, k);
    }
    return DOC_NONE;
}

doc_node doc_node_member(const doc *d, doc_node n, json_t *obj, const char *key)
{
    return doc_node_member_key(d, n, obj, key, NULL);
}

doc_node doc_pointer_node(const doc *d, const char *pointer)
{
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) return DOC_NONE;
    json_t *v = d->root;
    doc_node n = 0;
    for (size_t i = 0; v && n != DOC_NONE && i < p.n; i++) {
        size_t idx;
        if (json_is_object(v)) {
            n = doc_node_member(d, n, v, p.segs[i]);
            v = json_object_get(v, p.segs[i]);
        } else if (json_is_array(v) && ptr_is_index(p.segs[i], &idx)) {
            n = doc_node_array_item(d, n, v, idx);
            v = json_array_get(v, idx);
        } else {
            v = NULL;
        }
    }
    ptr_release(&p);
    return v ? n : DOC_NONE;
}

int doc_pointer_pos(const doc *d, const char *pointer, struct doc_pos *value, struct doc_pos *key)
{
    doc_node n = doc_pointer_node(d, pointer);
    if (n == DOC_NONE) return -1;
    if (value) *value = doc_node_pos(d, n);
    if (key) *key = doc_node_key_pos(d, n);
    return 0;
}

uint32_t doc_node_size(const doc *d, doc_node n)
{
    return n < d->idx.len ? d->idx.items[n].size : 0;
}

const char *doc_line(const doc *d, uint32_t line, size_t *len)
{
    line_table(d);
    if (line == 0 || line > d->line_starts.len) return NULL;
    size_t start = d->line_starts.items[line - 1];
    if (line == 1) start = bom_len(d->text, d->len); /* columns count from after it */
    size_t end = line < d->line_starts.len ? d->line_starts.items[line] : d->len;
    for (size_t i = start; i < end; i++)
        if (break_len(d, i)) { /* the line ends at its break (a CR before LF in JSON too) */
            end = i;
            break;
        }
    if (end > start && d->text[end - 1] == '\r') end--;
    *len = end - start;
    return d->text + start;
}
