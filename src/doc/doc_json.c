/* doc_json.c - load JSON into a doc (docInt.h): valid JSON is parsed in one pass that
 * builds jansson's values and the position index together; input that pass does not
 * accept goes to jansson's parser (its errors, its positions) and a linear scan of the
 * same bytes then records where every value starts. */
#include "doc/docInt.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

static void depth_error(struct doc_error *err, uint32_t line, uint32_t col, uint32_t max_depth)
{
    doc_set_error(err, line, col,
                  xasprintf("nesting deeper than %u levels (the limit protects against hostile "
                            "input)",
                            max_depth));
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
    VEC(uint32_t) stack = VEC_INIT; /* open containers: entry index */
    VEC(char) kinds = VEC_INIT;     /* '{' or '[' */
    int key = 0;                    /* a member key is pending ... */
    uint32_t kstart = 0;            /* ... at this byte */
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
            d->jidx.items[open].size = (uint32_t)d->jidx.len - open;
            s.p++;
            d->jidx.items[open].end = (uint32_t)(s.p - base);
            continue;
        }
        scan_sync_col(&s);
        if (in_object && !key && c == '"') { /* a member key */
            key = 1;
            kstart = (uint32_t)(s.p - base);
            scan_string(&s);
            continue;
        }
        uint32_t at = (uint32_t)(s.p - base);
        struct doc_jentry e = {1, at, at, key ? kstart : at};
        key = 0;
        VEC_PUSH(d->jidx, e);
        size_t here = d->jidx.len - 1;
        if (c == '{' || c == '[') {
            if (stack.len >= max_depth) {
                depth_error(err, s.line, s.col, max_depth);
                rc = -1;
                break;
            }
            VEC_PUSH(stack, (uint32_t)d->jidx.len - 1);
            VEC_PUSH(kinds, (char)c);
            s.p++;
        } else if (c == '"') {
            scan_string(&s);
            d->jidx.items[here].end = (uint32_t)(s.p - base);
        } else {
            while (s.p < s.end && *s.p && !strchr(",]} \t\r\n", *s.p)) s.p++;
            d->jidx.items[here].end = (uint32_t)(s.p - base);
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

struct split;

struct onepass {
    struct scan s;
    doc *d; /* its text (read only: a second thread reads it too) */
    uint32_t depth, max_depth;
    struct buf str;      /* a string with escapes, decoded */
    size_t dropped;      /* a mapped text's pages before it have left memory (doc_text_drop) */
    doc_jvec *jidx;      /* where the entries go: d->jidx, or a second thread's own */
    struct split *split; /* the first thread's: where the second one started, till it is there */
    uint32_t levels;     /* the most containers open at once (the second thread's depth) */
    struct doc_dollar *dollar; /* where member names starting with '$' are recorded */
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

static int is_digit(unsigned c)
{
    return c >= '0' && c <= '9';
}

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

static json_t *op_value(struct onepass *o, const uint32_t *kstart);
static int split_here(const struct onepass *o);
static int split_adopt(struct onepass *o, json_t *arr);

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
        const unsigned char *base = (const unsigned char *)o->d->text;
        uint32_t kstart = (uint32_t)(s->p - base);
        const char *k;
        size_t klen;
        int krc = op_string(o, &k, &klen);
        if (krc < 0 || memchr(k, '\0', klen) || json_object_getn(obj, k, klen)) break;
        if (klen && k[0] == '$') doc_dollar_add(o->dollar, k, klen);
        char *own = k == buf_str(&o->str) ? xstrndup(k, klen) : NULL; /* o->str is reused */
        scan_ws(s);
        json_t *v = NULL;
        if (s->p < s->end && *s->p == ':') {
            s->p++;
            scan_ws(s);
            v = op_value(o, &kstart);
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
        if (o->split && split_here(o) && split_adopt(o, arr) == 0) {
            s->p++; /* the closing bracket the second thread stopped at */
            return arr;
        }
        json_t *v = op_value(o, NULL);
        if (!v) break;
        json_array_append_new(arr, v);
        if (op_after(o, ",]") < 0 || s->p >= s->end) break;
        if (*s->p++ == ']') return arr;
        scan_ws(s);
    }
    json_decref(arr);
    return NULL;
}

/* The value at s->p (a member's when KSTART, its key's first byte, is not NULL); its
 * index entry is pushed first (pre-order), its size set after. */
static json_t *op_value(struct onepass *o, const uint32_t *kstart)
{
    struct scan *s = &o->s;
    if (s->p >= s->end) return NULL;
    const unsigned char *base = (const unsigned char *)o->d->text;
    uint32_t start = (uint32_t)(s->p - base);
    struct doc_jentry e = {1, start, start, kstart ? *kstart : start};
    uint32_t at = (uint32_t)o->jidx->len;
    VEC_PUSH(*o->jidx, e);
    unsigned char c = *s->p;
    json_t *v = NULL;
    const char *text;
    size_t len;
    if (c == '{' || c == '[') {
        if (o->depth >= o->max_depth) return NULL; /* the scan words the error */
        if (++o->depth > o->levels) o->levels = o->depth;
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
    if (v) {
        o->jidx->items[at].size = (uint32_t)o->jidx->len - at;
        o->jidx->items[at].end = (uint32_t)(s->p - base);
        if ((size_t)(s->p - base) - o->dropped >= DOC_DROP_STEP) { /* behind the parse */
            doc_text_drop(o->d, o->dropped, (size_t)(s->p - base));
            o->dropped = (size_t)(s->p - base);
        }
    }
    return v;
}

/* ---- a large text on two threads -------------------------------------------------
 * The second thread parses, from a guessed item of an array near the text's middle, the
 * items up to that array's closing bracket, into values and index entries of its own;
 * the first parses from the start as always. Its parse is the reference: only when it
 * reaches the guessed byte as the start of an array's item does it take the second
 * thread's items over, and then they are what it would have parsed itself (a value's
 * parse depends on its bytes alone; entries hold byte offsets, sizes count entries).
 * The nesting bound is checked against the depth the first thread is at. Anything else
 * (a guess inside a string, an error after the guess, too deep) and the second
 * thread's work is dropped: the first parses on, errors and all. */

static _Atomic unsigned json_threads = 1;
static _Atomic size_t json_split_min = DOC_JSON_SPLIT_MIN;

void doc_json_set_threads(unsigned threads, size_t min_bytes)
{
    atomic_store_explicit(&json_threads, threads, memory_order_relaxed);
    atomic_store_explicit(&json_split_min, min_bytes, memory_order_relaxed);
}

/* How far past the middle the guess looks, at most. */
#define SPLIT_WINDOW ((size_t)256 << 10)

/* The guess: an array item's first byte in a window after the middle of TEXT's [START,
 * LEN), or 0. Outside strings, a '{' or '[' after a comma (and whitespace) starts an
 * array's item, as in an object a key follows a comma; and a comma followed by a line
 * break is never inside a string (a string holds no raw control character), so in
 * pretty JSON the guess is always an item. The least indented such item in the window
 * is taken: most likely one of the largest array. Without line breaks, the first one
 * (it may be in a string: the first thread finds out). */
static size_t split_guess(const char *text, size_t start, size_t len)
{
    size_t from = start + (len - start) / 2, window = (len - start) / 8;
    const char *p = text + from,
               *end = text + from + (window < SPLIT_WINDOW ? window : SPLIT_WINDOW);
    size_t best = 0, best_indent = SIZE_MAX;
    while (p < end && (p = memchr(p, ',', (size_t)(end - p)))) {
        const char *q = ++p;
        size_t indent = SIZE_MAX; /* no line break yet */
        for (; q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'); q++)
            indent = *q == '\n' ? 0 : indent == SIZE_MAX ? SIZE_MAX : indent + 1;
        if (q < end && (*q == '{' || *q == '[') && (!best || indent < best_indent)) {
            best = (size_t)(q - text);
            best_indent = indent;
        }
    }
    return best;
}

struct split {
    doc *d;
    size_t at; /* the guessed item's first byte */
    uint32_t max_depth;
    pthread_t thread;
    int joined, adopted;
    _Atomic int stop; /* the first thread no longer wants the items (it failed, or is done) */
    /* the second thread's, read once it is joined */
    json_t *items;   /* the items from AT to the array's end; NULL when it failed */
    doc_jvec jidx;   /* their entries */
    size_t end;      /* the array's closing bracket */
    uint32_t levels; /* the most containers open at once in them */
    struct doc_arena *arena;
    struct doc_dollar dollar; /* the '$' member names in them */
};

static void *split_run(void *arg)
{
    struct split *sp = arg;
    const unsigned char *base = (const unsigned char *)sp->d->text;
    size_t len = sp->d->len;
    sp->arena = doc_arena_new(len - sp->at);
    doc_arena_begin(sp->arena);
    VEC_RESERVE(sp->jidx, (len - sp->at) / 32 + 16);
    struct onepass o = {{base + sp->at, base + len, 1, base + sp->at, 1},
                        sp->d,
                        0,
                        sp->max_depth,
                        BUF_INIT,
                        sp->at,
                        &sp->jidx,
                        NULL,
                        0,
                        &sp->dollar};
    json_t *items = json_array();
    while (!atomic_load_explicit(&sp->stop, memory_order_relaxed)) {
        json_t *v = op_value(&o, NULL);
        if (!v) break;
        json_array_append_new(items, v);
        if (op_after(&o, ",]") < 0 || o.s.p >= o.s.end) break;
        if (*o.s.p == ']') {
            sp->items = items;
            items = NULL;
            sp->end = (size_t)(o.s.p - base);
            break;
        }
        o.s.p++;
        scan_ws(&o.s);
    }
    json_decref(items);
    buf_release(&o.str);
    sp->levels = o.levels;
    doc_arena_end(sp->arena);
    return NULL;
}

/* Is the first thread at the second one's start (an item of the array it parses)? */
static int split_here(const struct onepass *o)
{
    return (size_t)(o->s.p - (const unsigned char *)o->d->text) == o->split->at;
}

/* At the second thread's start, an item of ARR: its items appended to ARR and its
 * entries to the index, 0 with s.p at the array's closing bracket; -1 (nothing taken)
 * when it failed, or when its items nest deeper than the bound allows from here. */
static int split_adopt(struct onepass *o, json_t *arr)
{
    struct split *sp = o->split;
    o->split = NULL; /* one try */
    pthread_join(sp->thread, NULL);
    sp->joined = 1;
    if (!sp->items || o->depth + sp->levels > o->max_depth) return -1;
    size_t n = json_array_size(sp->items);
    for (size_t i = 0; i < n; i++) json_array_append(arr, json_array_get(sp->items, i));
    VEC_RESERVE(*o->jidx, sp->jidx.len);
    memcpy(o->jidx->items + o->jidx->len, sp->jidx.items, sp->jidx.len * sizeof *sp->jidx.items);
    o->jidx->len += sp->jidx.len;
    for (unsigned i = 0; i < sp->dollar.n; i++) doc_dollar_add_hash(o->dollar, sp->dollar.h[i]);
    o->dollar->over |= sp->dollar.over;
    o->s.p = (const unsigned char *)o->d->text + sp->end;
    o->dropped = sp->end; /* the second thread let the pages before it go */
    sp->adopted = 1;
    return 0;
}

/* Starts the second thread on D's text from START, when it is worth it; 0 if started. */
static int split_start(struct split *sp, doc *d, size_t start, uint32_t max_depth)
{
    if (atomic_load_explicit(&json_threads, memory_order_relaxed) < 2 ||
        d->len - start < atomic_load_explicit(&json_split_min, memory_order_relaxed))
        return -1;
    size_t at = split_guess(d->text, start, d->len);
    if (!at) return -1;
    memset(sp, 0, sizeof *sp);
    atomic_init(&sp->stop, 0);
    sp->d = d;
    sp->at = at;
    sp->max_depth = max_depth;
    return pthread_create(&sp->thread, NULL, split_run, sp) == 0 ? 0 : -1;
}

/* The second thread's work, taken over or not: what it made is released, and the
 * values D now holds keep their arena with D. */
static void split_end(struct split *sp, doc *d)
{
    if (!sp->joined) {
        atomic_store_explicit(&sp->stop, 1, memory_order_relaxed);
        pthread_join(sp->thread, NULL);
    }
    json_decref(sp->items);
    VEC_FREE(sp->jidx);
    d->split_taken = sp->adopted;
    if (sp->adopted) d->arena2 = sp->arena;
    else doc_arena_release(sp->arena);
}

/* 0 with d->root and d->jidx filled, or -1 with both empty (nothing is reported). */
static int onepass_json(doc *d, size_t start, uint32_t max_depth)
{
    const unsigned char *base = (const unsigned char *)d->text;
    struct onepass o = {{base + start, base + d->len, 1, base + start, 1},
                        d,
                        0,
                        max_depth,
                        BUF_INIT,
                        0,
                        &d->jidx,
                        NULL,
                        0,
                        &d->dollar};
    memset(&d->dollar, 0, sizeof d->dollar);
    struct split sp;
    if (split_start(&sp, d, start, max_depth) == 0) o.split = &sp;
    int split = o.split != NULL;
    scan_ws(&o.s);
    json_t *root = op_value(&o, NULL);
    buf_release(&o.str);
    if (split) split_end(&sp, d);
    if (root && op_after(&o, "") == 0) {
        d->root = root;
        d->dollar_known = !d->dollar.over; /* every member was read here */
        return 0;
    }
    json_decref(root);
    d->jidx.len = 0;
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

doc *doc_json_load(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    size_t start = doc_bom_len(d->text, d->len);
    if (strspn(d->text + start, " \t\r\n") == d->len - start) {
        doc_set_error(err, 1, 1, xstrdup("empty document (a description is a JSON object)"));
        doc_free(d);
        return NULL;
    }
    VEC_RESERVE(d->jidx, d->len / 32 + 16); /* pretty JSON: about 35 bytes per value */
    d->arena = doc_arena_new(d->len);
    doc_arena_begin(d->arena);
    int rc = onepass_json(d, start, lim->max_depth);
    doc_arena_end(d->arena);
    if (rc == 0) return d;
    doc_arena_release(d->arena); /* what it held went with the pass's partial tree */
    doc_arena_release(d->arena2);
    d->arena = d->arena2 = NULL;
    json_error_t jerr;
    d->root = json_loadb(d->text + start, d->len - start,
                         JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!d->root) {
        size_t at = jerr.position > 0 ? (size_t)jerr.position : d->len - start;
        if (!prefix_too_deep(d, start, start + at, lim->max_depth, err)) {
            int line = jerr.line > 0 ? jerr.line : 1, col = jerr.column > 0 ? jerr.column : 1;
            doc_set_error(err, (uint32_t)line, (uint32_t)col,
                          xasprintf("invalid JSON: %s", jerr.text));
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
