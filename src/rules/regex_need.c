/* regex_need.c - a pattern's needs, from pcre2_pattern_info (regex_need.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules/regex_need.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/display.h"
#include "base/once.h"

static int ascii_has(const uint64_t set[2], unsigned c)
{
    return c < 128 && (set[c >> 6] >> (c & 63) & 1);
}

static void ascii_add(uint64_t set[2], unsigned c)
{
    set[c >> 6] |= (uint64_t)1 << (c & 63);
}

/* The other case of ASCII letter C, else C: PCRE2 does not say whether its first or last
 * code unit is caseless ((?i) may cover part of a pattern), so both count. */
static unsigned other_case(unsigned c)
{
    if (c >= 'a' && c <= 'z') return c - 32;
    if (c >= 'A' && c <= 'Z') return c + 32;
    return c;
}

void regex_need_of(const void *pattern, struct regex_need *out)
{
    const pcre2_code *code = pattern;
    memset(out, 0, sizeof *out);
    atomic_init(&out->text_read, 0);
    uint32_t min = 0, type = 0, unit = 0;
    if (pcre2_pattern_info(code, PCRE2_INFO_MINLENGTH, &min) == 0) out->min_len = min;
    if (!out->min_len) return; /* a match may be empty: it needs no code unit */
    if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODETYPE, &type) == 0 && type == 1 &&
        pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0) {
        out->first = 1; /* a non-ASCII unit: no ASCII subject holds a match */
        if (unit < 128) {
            ascii_add(out->first_ascii, unit);
            ascii_add(out->first_ascii, other_case(unit));
        }
    } else if (type == 0) {
        const uint8_t *bits = NULL;
        if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTBITMAP, &bits) == 0 && bits) {
            out->first = 1;
            for (unsigned c = 0; c < 128; c++)
                if (bits[c / 8] >> (c % 8) & 1) ascii_add(out->first_ascii, c);
        }
    }
    if (pcre2_pattern_info(code, PCRE2_INFO_LASTCODETYPE, &type) == 0 && type == 1 &&
        pcre2_pattern_info(code, PCRE2_INFO_LASTCODEUNIT, &unit) == 0 && unit < 128) {
        out->last = 1;
        out->last_a = (unsigned char)unit;
        out->last_b = (unsigned char)other_case(unit);
    }
}

int regex_need_may_match(const struct regex_need *need, size_t n, const uint64_t ascii[2], int high)
{
    if (n < need->min_len) return 0;
    /* a caseless k or s also matches U+212A or U+017F: only an ASCII subject's code units
     * are all the characters a match can hold */
    if (high) return 1;
    if (need->first && !(need->first_ascii[0] & ascii[0]) && !(need->first_ascii[1] & ascii[1]))
        return 0;
    if (need->last && !ascii_has(ascii, need->last_a) && !ascii_has(ascii, need->last_b)) return 0;
    return 1;
}

/* ---- what the pattern's text says a subject holds ----------------------------------- */

/* A need read from the pattern's source: a literal string, or a run of MIN bytes of a
 * set, or all or any of several needs. */
enum need_kind { NEED_LIT, NEED_RUN, NEED_ALL, NEED_ANY };

struct regex_text_need {
    enum need_kind kind;
    int caseless;             /* LIT, RUN: ASCII letters match both cases */
    unsigned char *lit;       /* LIT: its bytes (letters in lower case when caseless) */
    size_t len, min;          /* LIT: its length; RUN: the run's fewest bytes */
    uint64_t set[4];          /* RUN: the bytes of the run (0x80.. all when any is); LIT: its
                           * ASCII bytes, and bit 128 when it has others */
    unsigned char shift[256]; /* LIT: Horspool's shift for the window's last byte */
    struct regex_text_need **kids;
    size_t nkids;
};

static void need_free(struct regex_text_need *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->nkids; i++) need_free(n->kids[i]);
    free(n->kids);
    free(n->lit);
    free(n);
}

static struct regex_text_need *need_new(enum need_kind kind)
{
    struct regex_text_need *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    return n;
}

/* KID into the ALL or ANY node *TO (made when NULL). */
static void need_add(struct regex_text_need **to, enum need_kind kind, struct regex_text_need *kid)
{
    if (!*to) *to = need_new(kind);
    (*to)->kids = xrealloc((*to)->kids, ((*to)->nkids + 1) * sizeof *(*to)->kids);
    (*to)->kids[(*to)->nkids++] = kid;
}

/* N, or its one kid when it is all or any of one. */
static struct regex_text_need *need_alone(struct regex_text_need *n)
{
    if (!n || (n->kind != NEED_ALL && n->kind != NEED_ANY) || n->nkids != 1) return n;
    struct regex_text_need *kid = n->kids[0];
    n->nkids = 0;
    need_free(n);
    return kid;
}

static void set_add(uint64_t set[4], unsigned c)
{
    set[c >> 6 & 3] |= (uint64_t)1 << (c & 63);
}

static int set_has(const uint64_t set[4], unsigned c)
{
    return set[c >> 6 & 3] >> (c & 63) & 1;
}

static void set_high(uint64_t set[4])
{
    set[2] = set[3] = ~(uint64_t)0;
}

/* The reader of a pattern. Anything it does not know (a back reference, \Q, a verb, a
 * conditional, a { that is no quantifier, x turned on past the start) gives up the whole
 * pattern: no need, PCRE2 answers every subject. Within a group whose matches it cannot
 * read (\d, ., a class with \s) it only learns less. */
struct need_reader {
    const char *p, *end;
    int caseless; /* (?i) seen: a caseless literal is found by a case-blind search */
    int extended; /* (?x) at the start: white space and # comments are no part of it */
    int fail;
    const char *start; /* the pattern's first byte: (?x) only there */
};

enum item_kind { ITEM_CHAR, ITEM_CLASS, ITEM_ANY, ITEM_GROUP, ITEM_ZERO };

struct item {
    enum item_kind kind;
    unsigned char bytes[4]; /* CHAR: its UTF-8 */
    size_t nbytes;
    uint64_t set[4];               /* CLASS */
    struct regex_text_need *group; /* GROUP: what every match of it holds (may be NULL) */
};

static int at_end(const struct need_reader *r)
{
    return r->p >= r->end;
}

static void skip_extended(struct need_reader *r)
{
    while (r->extended && !at_end(r)) {
        char c = *r->p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            r->p++;
        } else if (c == '#') {
            while (!at_end(r) && *r->p != '\n') r->p++;
        } else {
            return;
        }
    }
}

static unsigned ascii_lower(unsigned c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* The code point at R's position (a pattern PCRE2 compiled in UTF mode: valid UTF-8) and
 * its length in *LEN. */
static long utf8_at(const struct need_reader *r, size_t *len)
{
    uint32_t cp;
    *len = display_utf8_next(r->p, (size_t)(r->end - r->p), &cp);
    return cp == UINT32_MAX ? (long)(unsigned char)*r->p : (long)cp;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
        : c >= 'a' && c <= 'f'  ? c - 'a' + 10
        : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                : -1;
}

/* \x.. after the backslash and x: the code point, or -1. */
static long read_hex_escape(struct need_reader *r)
{
    long cp = 0;
    int digits = 0;
    if (!at_end(r) && *r->p == '{') {
        r->p++;
        while (!at_end(r) && hex_digit(*r->p) >= 0 && digits < 8)
            cp = cp * 16 + hex_digit(*r->p++), digits++;
        if (at_end(r) || *r->p != '}' || !digits) return -1;
        r->p++;
        return cp;
    }
    while (!at_end(r) && hex_digit(*r->p) >= 0 && digits < 2)
        cp = cp * 16 + hex_digit(*r->p++), digits++;
    return cp; /* \x alone is U+0000 */
}

/* The character an escape stands for (after the backslash), -1 for one the reader does
 * not know as a character; *KIND ITEM_ANY for a class escape (\d \s \w ...), ITEM_ZERO for
 * an assertion (\b \A ...). */
static long read_escape(struct need_reader *r, enum item_kind *kind, int in_class)
{
    *kind = ITEM_CHAR;
    if (at_end(r)) return -1;
    unsigned char c = (unsigned char)*r->p++;
    if (c >= 0x80) return -1;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
        return c; /* an escaped sign stands for itself */
    switch (c) {
    case 'x': return read_hex_escape(r);
    case 't': return '\t';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'e': return 0x1B;
    case 'a': return 0x07;
    case 'd':
    case 'D':
    case 's':
    case 'S':
    case 'w':
    case 'W':
    case 'h':
    case 'H':
    case 'v':
    case 'V':
    case 'N':
    case 'R':
    case 'X':
    case 'C':
        if (in_class) return -1;
        *kind = ITEM_ANY;
        return 0;
    case 'p':
    case 'P':
        if (in_class) return -1;
        if (!at_end(r) && *r->p == '{') {
            while (!at_end(r) && *r->p != '}') r->p++;
            if (at_end(r)) return -1;
            r->p++;
        } else if (!at_end(r)) {
            r->p++;
        }
        *kind = ITEM_ANY;
        return 0;
    case 'b':
    case 'B':
    case 'A':
    case 'z':
    case 'Z':
    case 'G':
        if (in_class) return -1;
        *kind = ITEM_ZERO;
        return 0;
    default: return -1; /* back references, \Q, \K, \c, octal, ... */
    }
}

/* The UTF-8 bytes of CP into OUT: their number. */
static size_t utf8_of(long cp, unsigned char out[4])
{
    if (cp < 0x80) return out[0] = (unsigned char)cp, 1;
    if (cp < 0x800)
        return out[0] = (unsigned char)(0xC0 | cp >> 6),
               out[1] = (unsigned char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Code point CP (or the range up to HI) into SET: its byte when ASCII, every byte from
 * 0x80 when above (a character above ASCII is bytes of 0x80 and more only), and every
 * ASCII letter when caseless (U+212A matches k caselessly). */
static void set_add_range(uint64_t set[4], long lo, long hi, int caseless)
{
    for (long c = lo; c <= hi && c < 0x80; c++) {
        set_add(set, (unsigned)c);
        if (caseless) set_add(set, other_case((unsigned)c));
    }
    if (hi < 0x80) return;
    set_high(set);
    for (unsigned c = 'A'; caseless && c <= 'Z'; c++) set_add(set, c), set_add(set, c + 32);
}

/* A class [...] after its [ into IT: ITEM_CLASS, or ITEM_ANY when it holds what the
 * reader does not know ([:alpha:], \d). */
static void read_class(struct need_reader *r, struct item *it)
{
    int negate = 0, known = 1, first = 1;
    memset(it->set, 0, sizeof it->set);
    if (!at_end(r) && *r->p == '^') negate = 1, r->p++;
    for (;;) {
        if (at_end(r)) {
            r->fail = 1;
            return;
        }
        if (*r->p == ']' && !first) {
            r->p++;
            break;
        }
        first = 0;
        long lo;
        if (*r->p == '[' && r->p + 1 < r->end &&
            (r->p[1] == ':' || r->p[1] == '.' || r->p[1] == '=')) {
            const char *close = r->p + 2;
            while (close + 1 < r->end && !(close[0] == r->p[1] && close[1] == ']')) close++;
            if (close + 1 >= r->end) {
                r->fail = 1;
                return;
            }
            r->p = close + 2;
            known = 0;
            continue;
        }
        if (*r->p == '\\') {
            enum item_kind k;
            r->p++;
            lo = read_escape(r, &k, 1);
            if (lo < 0) {
                known = 0;
                continue;
            }
        } else {
            size_t len = 1;
            lo = utf8_at(r, &len);
            r->p += len;
        }
        long hi = lo;
        if (r->p + 1 < r->end && *r->p == '-' && r->p[1] != ']') {
            r->p++;
            if (*r->p == '\\') {
                enum item_kind k;
                r->p++;
                hi = read_escape(r, &k, 1);
                if (hi < 0) {
                    known = 0;
                    continue;
                }
            } else if (*r->p == '[') {
                known = 0;
                continue;
            } else {
                size_t len = 1;
                hi = utf8_at(r, &len);
                r->p += len;
            }
        }
        set_add_range(it->set, lo, hi, r->caseless);
    }
    if (!known) {
        it->kind = ITEM_ANY;
        return;
    }
    if (negate) {
        for (int w = 0; w < 2; w++) it->set[w] = ~it->set[w];
        set_high(it->set);
    }
    it->kind = ITEM_CLASS;
}

static struct regex_text_need *read_alternatives(struct need_reader *r);

/* The option letters of (?...) up to ) or :, applied to R: 0, or -1 to give up. x only
 * as (?x) or (?ix) first in the pattern: then for all of it. */
static int read_options(struct need_reader *r, int at_start)
{
    int on = 1, extended = 0;
    while (!at_end(r) && *r->p != ')' && *r->p != ':') {
        char c = *r->p++;
        if (c == '-') on = 0;
        else if (c == 'i') r->caseless |= on; /* turned off: still read as caseless */
        else if (c == 'x') {
            if (!on || !at_start || r->extended || extended) return -1;
            extended = 1;
        } else if (c != 'm' && c != 's' && c != 'n' && c != 'U' && c != 'J') return -1;
    }
    if (at_end(r) || (extended && *r->p != ')')) return -1; /* (?x:...): x inside only */
    r->extended |= extended;
    return 0;
}

/* A group after its ( into IT. */
static void read_group(struct need_reader *r, struct item *it, int at_start)
{
    int zero = 0;
    it->kind = ITEM_GROUP;
    if (!at_end(r) && *r->p == '?') {
        r->p++;
        if (at_end(r)) {
            r->fail = 1;
            return;
        }
        char c = *r->p;
        if (c == ':' || c == '>' || c == '|') {
            r->p++;
        } else if (c == '=' || c == '!') {
            r->p++;
            zero = 1;
        } else if (c == '<' && r->p + 1 < r->end && (r->p[1] == '=' || r->p[1] == '!')) {
            r->p += 2;
            zero = 1;
        } else if (c == '#') {
            while (!at_end(r) && *r->p != ')') r->p++;
            if (at_end(r)) r->fail = 1;
            else r->p++;
            it->kind = ITEM_ZERO;
            return;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-') {
            if (c == 'P' || c == 'R' || c == 'C') {
                r->fail = 1; /* named references, recursion, callouts */
                return;
            }
            if (read_options(r, at_start) < 0) {
                r->fail = 1;
                return;
            }
            if (*r->p++ == ')') { /* (?i): for the rest of the pattern */
                it->kind = ITEM_ZERO;
                return;
            }
        } else if (c == '<' || c == '\'') { /* a named group */
            char close = c == '<' ? '>' : '\'';
            while (!at_end(r) && *r->p != close) r->p++;
            if (at_end(r)) {
                r->fail = 1;
                return;
            }
            r->p++;
        } else {
            r->fail = 1; /* conditionals, recursion, ... */
            return;
        }
    } else if (!at_end(r) && *r->p == '*') {
        r->fail = 1; /* a verb */
        return;
    }
    struct regex_text_need *inner = read_alternatives(r);
    if (r->fail || at_end(r) || *r->p != ')') {
        r->fail = 1;
        need_free(inner);
        return;
    }
    r->p++;
    if (zero) {
        need_free(inner);
        it->kind = ITEM_ZERO;
        return;
    }
    it->group = inner;
}

/* A quantifier after an item: 1 with its fewest repeats in *MIN, 0 when none follows, -1
 * to give up: a { that is no quantifier ({,n} and a literal { differ between PCRE2
 * versions), or white space between an item and its quantifier (x). */
static int read_quantifier(struct need_reader *r, size_t *min)
{
    const char *before = r->p;
    skip_extended(r);
    if (at_end(r)) return 0;
    char c = *r->p;
    if (c != '*' && c != '?' && c != '+' && c != '{') return 0;
    if (r->p != before) return -1;
    if (c == '{') {
        const char *q = r->p + 1;
        size_t n = 0;
        int digits = 0;
        while (q < r->end && *q >= '0' && *q <= '9' && digits < 6)
            n = n * 10 + (size_t)(*q++ - '0'), digits++;
        if (!digits) return -1;
        if (q < r->end && *q == ',') {
            q++;
            while (q < r->end && *q >= '0' && *q <= '9') q++;
        }
        if (q >= r->end || *q != '}') return -1;
        *min = n;
        r->p = q + 1;
    } else {
        *min = c == '+';
        r->p++;
    }
    if (!at_end(r) && (*r->p == '?' || *r->p == '+')) r->p++; /* lazy, possessive */
    return 1;
}

/* One item into IT (R's position is on it, not at | or ) or the end). */
static void read_item(struct need_reader *r, struct item *it)
{
    memset(it, 0, sizeof *it);
    const char *at = r->p;
    unsigned char c = (unsigned char)*r->p;
    if (c == '(') {
        r->p++;
        read_group(r, it, at == r->start);
        return;
    }
    if (c == '[') {
        r->p++;
        read_class(r, it);
        return;
    }
    if (c == '^' || c == '$') {
        r->p++;
        it->kind = ITEM_ZERO;
        return;
    }
    if (c == '.') {
        r->p++;
        it->kind = ITEM_ANY;
        return;
    }
    if (c == '*' || c == '+' || c == '?' || c == '{') {
        r->fail = 1; /* a quantifier with nothing before it */
        return;
    }
    long cp;
    if (c == '\\') {
        enum item_kind k;
        r->p++;
        cp = read_escape(r, &k, 0);
        if (cp < 0) {
            r->fail = 1;
            return;
        }
        if (k != ITEM_CHAR) {
            it->kind = k;
            return;
        }
    } else {
        size_t len = 1;
        cp = utf8_at(r, &len);
        r->p += len;
    }
    if (r->caseless && cp >= 0x80) { /* its other cases are other bytes */
        it->kind = ITEM_ANY;
        return;
    }
    it->kind = ITEM_CHAR;
    it->nbytes = utf8_of(cp, it->bytes);
    if (r->caseless && cp < 0x80) it->bytes[0] = (unsigned char)ascii_lower((unsigned)cp);
}

/* The literal gathered so far as a need of BRANCH. */
static void flush_literal(struct need_reader *r, struct buf *lit, struct regex_text_need **branch)
{
    if (!lit->len) return;
    struct regex_text_need *n = need_new(NEED_LIT);
    n->caseless = r->caseless;
    n->len = lit->len;
    n->lit = xmalloc(lit->len);
    memcpy(n->lit, lit->s, lit->len);
    for (size_t i = 0; i < lit->len; i++) set_add(n->set, n->lit[i] < 0x80 ? n->lit[i] : 0x80);
    size_t most = lit->len < 255 ? lit->len : 255; /* a shorter shift is still safe */
    memset(n->shift, (int)most, sizeof n->shift);
    for (size_t i = 0; i + 1 < lit->len; i++) {
        size_t d = lit->len - 1 - i;
        unsigned char b = n->lit[i];
        if (d < n->shift[b]) n->shift[b] = (unsigned char)d;
        if (n->caseless && d < n->shift[other_case(b)]) n->shift[other_case(b)] = (unsigned char)d;
    }
    need_add(branch, NEED_ALL, n);
    buf_reset(lit);
}

/* The items up to | or ) or the end: what each of their matches holds, or NULL. */
static struct regex_text_need *read_branch(struct need_reader *r)
{
    struct regex_text_need *branch = NULL;
    struct buf lit = BUF_INIT;
    int lit_caseless = r->caseless;
    for (;;) {
        skip_extended(r);
        if (r->fail || at_end(r) || *r->p == '|' || *r->p == ')') break;
        struct item it;
        read_item(r, &it);
        size_t min = 1;
        int q = r->fail ? 0 : read_quantifier(r, &min);
        if (q < 0) r->fail = 1;
        if (r->fail) {
            need_free(it.group);
            break;
        }
        if (r->caseless != lit_caseless) { /* (?i) met: the literal so far is case-bound */
            int now = r->caseless;
            r->caseless = lit_caseless;
            flush_literal(r, &lit, &branch);
            r->caseless = lit_caseless = now;
        }
        if (it.kind == ITEM_ZERO) continue; /* the bytes around it still follow each other */
        if (it.kind == ITEM_CHAR && min >= 1) {
            buf_add(&lit, (const char *)it.bytes, it.nbytes);
            if (q) flush_literal(r, &lit, &branch); /* a+: what follows may be another a */
            continue;
        }
        flush_literal(r, &lit, &branch);
        if (it.kind == ITEM_CLASS && min >= 1) {
            struct regex_text_need *n = need_new(NEED_RUN);
            memcpy(n->set, it.set, sizeof n->set);
            n->min = min;
            n->caseless = r->caseless;
            need_add(&branch, NEED_ALL, n);
        } else if (it.kind == ITEM_GROUP && min >= 1 && it.group) {
            need_add(&branch, NEED_ALL, it.group);
        } else {
            need_free(it.group);
        }
    }
    if (!r->fail) flush_literal(r, &lit, &branch);
    buf_release(&lit);
    return need_alone(branch);
}

/* Alternatives up to ) or the end: what each match holds (one of its branches' needs),
 * or NULL when some branch needs nothing. */
static struct regex_text_need *read_alternatives(struct need_reader *r)
{
    struct regex_text_need *any = NULL;
    int open = 0; /* a branch needs nothing */
    for (;;) {
        struct regex_text_need *b = read_branch(r);
        if (b) need_add(&any, NEED_ANY, b);
        else open = 1;
        if (r->fail || at_end(r) || *r->p != '|') break;
        r->p++;
    }
    if (open || r->fail) {
        need_free(any);
        return NULL;
    }
    return need_alone(any);
}

/* ---- a subject against the needs ------------------------------------------------------ */

/* The subject: its bytes, and which of them it holds when known (a text's facts). */
struct subject {
    const unsigned char *s;
    size_t n;
    const uint64_t *ascii;
    int high;
    uint64_t folded[2]; /* ASCII's letters in lower case too */
};

static int literal_in(const struct regex_text_need *n, const struct subject *t)
{
    /* every byte of it (a letter in either case when caseless) */
    const uint64_t *has = n->caseless ? t->folded : t->ascii;
    if ((n->set[0] & ~has[0]) || (n->set[1] & ~has[1]) || (n->set[2] && !t->high)) return 0;
    if (n->len > t->n) return 0;
    if (n->len == 1) return 1; /* its byte is there (a caseless one: the text is ASCII) */
    /* Horspool: the window's last byte says how far the literal can move */
    size_t last = n->len - 1;
    for (size_t i = 0; i + n->len <= t->n; i += n->shift[t->s[i + last]]) {
        size_t k = n->len;
        if (n->caseless)
            while (k && ascii_lower(t->s[i + k - 1]) == n->lit[k - 1]) k--;
        else
            while (k && t->s[i + k - 1] == n->lit[k - 1]) k--;
        if (!k) return 1;
    }
    return 0;
}

/* Is there a run of N->min bytes of N's set? Only every min-th byte is read where none
 * is of the set: a run of min bytes holds one of them. */
static int run_in(const struct regex_text_need *n, const struct subject *t)
{
    if (!(t->high && (n->set[2] | n->set[3])) && !(n->set[0] & t->ascii[0]) &&
        !(n->set[1] & t->ascii[1]))
        return 0;
    size_t m = n->min, i = m - 1;
    while (i < t->n) {
        if (!set_has(n->set, t->s[i])) {
            i += m;
            continue;
        }
        size_t from = i; /* the run holding byte i begins at FROM (at most m back) */
        while (from && i - from < m - 1 && set_has(n->set, t->s[from - 1])) from--;
        size_t to = i + 1;
        while (to < t->n && to - from < m && set_has(n->set, t->s[to])) to++;
        if (to - from >= m) return 1;
        i = to + m; /* byte TO is not of the set: a run lies wholly after it */
    }
    return 0;
}

static int need_met(const struct regex_text_need *n, const struct subject *t)
{
    switch (n->kind) {
    case NEED_LIT:
        /* a caseless k or s also matches U+212A or U+017F: only an ASCII subject's bytes
         * are its characters */
        return (n->caseless && t->high) || literal_in(n, t);
    case NEED_RUN: return (n->caseless && t->high) || run_in(n, t);
    case NEED_ALL:
        for (size_t i = 0; i < n->nkids; i++)
            if (!need_met(n->kids[i], t)) return 0;
        return 1;
    case NEED_ANY:
        for (size_t i = 0; i < n->nkids; i++)
            if (need_met(n->kids[i], t)) return 1;
        return 0;
    }
    return 1;
}

/* NEED's text from the PATTERN's source; text_read is its caller's to set */
static void read_text(const char *pattern, size_t n, struct regex_need *need)
{
    struct need_reader r = {pattern, pattern + n, 0, 0, 0, pattern};
    struct regex_text_need *text = read_alternatives(&r);
    if (r.fail || !at_end(&r)) {
        need_free(text);
        text = NULL;
    }
    need->text = text;
}

/* one reading at a time; a need's text is not looked at before its text_read says so */
static pthread_mutex_t text_lock = PTHREAD_MUTEX_INITIALIZER;

struct text_reading {
    const char *pattern;
    size_t n;
    struct regex_need *need;
};

static int read_text_once(void *arg)
{
    const struct text_reading *r = arg;
    read_text(r->pattern, r->n, r->need);
    return 1;
}

const struct regex_need *regex_need_text_ready(struct regex_need *need, const char *pattern,
                                               size_t n)
{
    struct text_reading r = {pattern, n, need};
    once_run(&need->text_read, &text_lock, read_text_once, &r);
    return need;
}

int regex_need_text_may_match(const struct regex_need *need, const char *s, size_t n,
                              const uint64_t ascii[2], int high)
{
    if (!need->text) return 1;
    uint64_t own[2] = {0, 0};
    if (!ascii) { /* not a text's facts: read them here */
        high = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c >= 0x80) high = 1;
            else own[c >> 6] |= (uint64_t)1 << (c & 63);
        }
        ascii = own;
    }
    /* A-Z (bits 1-26 of the second word) onto a-z (bits 33-58) */
    struct subject t = {(const unsigned char *)s,
                        n,
                        ascii,
                        high,
                        {ascii[0], ascii[1] | (ascii[1] >> 1 & 0x3FFFFFF) << 33}};
    return need_met(need->text, &t);
}

void regex_need_release(struct regex_need *need)
{
    need_free(need->text);
    need->text = NULL;
}
