/* schema_regex_lin.c - a linear matcher for simple patterns, beside PCRE2. A pattern
 * anchored by '^', made of ASCII literals, \d, \w, non-negated classes of those, groups,
 * '|' inside groups and the quantifiers * + ? {n} {n,} {n,m} (n, m <= 16), with an
 * optional '$' at the end, becomes its Glushkov automaton (a position per literal or
 * class, repetitions unrolled), then a table automaton over sets of positions, run a
 * byte at a time. Only an expression that is unambiguous gets one: each edge between
 * positions made once, no nullable body under * or ?, no two nullable branches, and no
 * prefix reaching one position two ways. Then every path a backtracking matcher can
 * follow is a path of that automaton, at most WIDEST of them alive after any prefix (the
 * largest set), each through at most the nodes of the expression per byte: PCRE2's
 * frames (what regex_match_limit and regex_depth_limit count) stay below a few per node,
 * per path, per byte (measured: under 15% of the bound taken here, cost). So a subject
 * short enough that (length + 1) * cost fits both limits could not have stopped PCRE2,
 * and the table decides it; a longer one goes to PCRE2 (schema_relin_usable), and
 * "validation stopped" outcomes stay as they were. Anything else stays on PCRE2 alone. */
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

#define LIN_MAXPOS 64  /* positions: bits of a uint64_t */
#define LIN_MAXNODE 96 /* parsed nodes */
#define LIN_MAXREP 16  /* bound of a counted repetition */
/* states of the table automaton: its rows take 512 bytes each, so a pattern costs at
 * most 8.5 KiB, about what PCRE2 keeps for it (JIT code included) */
#define LIN_MAXSTATE 16
#define LIN_DEAD 0xFF

struct schema_relin {
    uint8_t col[256]; /* byte -> column of the table */
    unsigned ncol;
    unsigned nstate;                  /* 0: the start; others: a set of positions */
    uint8_t accept[LIN_MAXSTATE + 1]; /* by state: the subject may end here */
    /* the same by byte: [256 * state + byte] is 256 * the next state; the state after
     * the last, DEAD, takes no byte (a lookup a byte, no multiply) */
    uint16_t *row;
    unsigned dead;
    int prefix;    /* no '$': a match of a prefix is a match */
    uint64_t cost; /* PCRE2's frames per subject byte are below this (see usable) */
};

/* ---- the parse: nodes of a small syntax tree ----------------------------------------- */
enum lin_kind { LK_SET, LK_CAT, LK_ALT, LK_REP };
struct lin_node {
    enum lin_kind kind;
    uint64_t set[2];   /* LK_SET: ASCII bytes 0..127 */
    int kid, sib;      /* first child, next sibling (-1: none) */
    unsigned min, max; /* LK_REP; max UINT32_MAX: unbounded */
};
#define LIN_INF 0xFFFFFFFFu

struct lin_parse {
    const char *p, *end;
    struct lin_node n[LIN_MAXNODE];
    int len;
    int bad;
};

static int new_node(struct lin_parse *ps, enum lin_kind k)
{
    if (ps->len == LIN_MAXNODE) {
        ps->bad = 1;
        return 0;
    }
    struct lin_node *n = &ps->n[ps->len];
    memset(n, 0, sizeof *n);
    n->kind = k;
    n->kid = n->sib = -1;
    return ps->len++;
}

static void set_add(uint64_t set[2], unsigned lo, unsigned hi)
{
    for (unsigned c = lo; c <= hi; c++) set[c >> 6] |= 1ull << (c & 63);
}

static void set_digit(uint64_t set[2])
{
    set_add(set, '0', '9');
}

static void set_word(uint64_t set[2])
{
    set_add(set, '0', '9');
    set_add(set, 'A', 'Z');
    set_add(set, 'a', 'z');
    set_add(set, '_', '_');
}

/* A character that an escape may make literal: ECMA's syntax characters and '/', '-'. */
static int escapable(char c)
{
    return c && strchr("^$\\.*+?()[]{}|/-", c) != NULL;
}

/* A byte that stands for itself outside a class (printable ASCII, no syntax character). */
static int plain(char c)
{
    return c >= 0x20 && c < 0x7F && !strchr("^$\\.*+?()[]{}|", c);
}

/* The class after '[' up to its ']' into SET; 0 when outside the subset. */
static int parse_class(struct lin_parse *ps, uint64_t set[2])
{
    if (ps->p < ps->end && (*ps->p == '^' || *ps->p == ']')) return 0; /* negated, empty */
    int first = 1;
    while (ps->p < ps->end && *ps->p != ']') {
        char c = *ps->p++;
        int single = 1;
        if (c == '\\') {
            if (ps->p == ps->end) return 0;
            char e = *ps->p++;
            if (e == 'd') set_digit(set), single = 0;
            else if (e == 'w') set_word(set), single = 0;
            else if (escapable(e)) c = e;
            else return 0;
        } else if (c == '-') {
            if (!first && !(ps->p < ps->end && *ps->p == ']')) return 0; /* after a range */
        } else if (c == '[' || c < 0x20 || c >= 0x7F) {
            return 0;
        }
        first = 0;
        if (!single) continue;
        unsigned lo = (unsigned char)c, hi = lo;
        if (ps->end - ps->p >= 2 && ps->p[0] == '-' && ps->p[1] != ']') { /* a range */
            ps->p++;
            char d = *ps->p++;
            if (d == '\\') {
                if (ps->p == ps->end || !escapable(*ps->p)) return 0;
                d = *ps->p++;
            } else if (d == '[' || d < 0x20 || d >= 0x7F) {
                return 0;
            }
            hi = (unsigned char)d;
            if (hi < lo) return 0;
        }
        set_add(set, lo, hi);
    }
    if (ps->p == ps->end) return 0;
    ps->p++; /* ']' */
    return 1;
}

static int parse_alt(struct lin_parse *ps, int top);

/* A number of a counted quantifier (at most LIN_MAXREP), or -1. */
static int parse_count(struct lin_parse *ps)
{
    if (ps->p == ps->end || *ps->p < '0' || *ps->p > '9') return -1;
    unsigned v = 0;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        v = v * 10 + (unsigned)(*ps->p++ - '0');
        if (v > LIN_MAXREP) return -1;
    }
    return (int)v;
}

/* One atom and its quantifier; -1 at the end of a branch, 0 (ps->bad) outside the subset. */
static int parse_item(struct lin_parse *ps, int top)
{
    if (ps->p == ps->end) return -1;
    char c = *ps->p;
    if (c == '|' || c == ')') return -1;
    if (c == '$' && top && ps->p + 1 == ps->end) return -1;
    int atom;
    ps->p++;
    if (c == '(') {
        if (ps->p < ps->end && *ps->p == '?') {
            if (ps->end - ps->p < 2 || ps->p[1] != ':') return ps->bad = 1, 0;
            ps->p += 2;
        }
        atom = parse_alt(ps, 0);
        if (ps->bad || ps->p == ps->end || *ps->p != ')') return ps->bad = 1, 0;
        ps->p++;
    } else {
        atom = new_node(ps, LK_SET);
        if (ps->bad) return 0;
        uint64_t *set = ps->n[atom].set;
        if (c == '[') {
            if (!parse_class(ps, set)) return ps->bad = 1, 0;
        } else if (c == '\\') {
            char e = ps->p < ps->end ? *ps->p++ : 0;
            if (e == 'd') set_digit(set);
            else if (e == 'w') set_word(set);
            else if (escapable(e)) set_add(set, (unsigned char)e, (unsigned char)e);
            else return ps->bad = 1, 0;
        } else if (plain(c)) {
            set_add(set, (unsigned char)c, (unsigned char)c);
        } else {
            return ps->bad = 1, 0; /* '.', an anchor inside, a stray quantifier, '{', ... */
        }
    }
    if (ps->p == ps->end) return atom;
    unsigned min, max;
    char q = *ps->p;
    if (q == '*') min = 0, max = LIN_INF, ps->p++;
    else if (q == '+') min = 1, max = LIN_INF, ps->p++;
    else if (q == '?') min = 0, max = 1, ps->p++;
    else if (q == '{') {
        ps->p++;
        int lo = parse_count(ps), hi = lo;
        if (lo < 0) return ps->bad = 1, 0;
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            hi = ps->p < ps->end && *ps->p == '}' ? -2 : parse_count(ps);
            if (hi == -1 || (hi >= 0 && hi < lo)) return ps->bad = 1, 0;
        }
        if (ps->p == ps->end || *ps->p != '}') return ps->bad = 1, 0;
        ps->p++;
        min = (unsigned)lo;
        max = hi == -2 ? LIN_INF : (unsigned)hi;
    } else return atom;
    if (ps->p < ps->end && *ps->p == '?') ps->p++; /* lazy: the same strings match */
    if (ps->p < ps->end && strchr("*+?{", *ps->p)) return ps->bad = 1, 0;
    int r = new_node(ps, LK_REP);
    if (ps->bad) return 0;
    ps->n[r].kid = atom;
    ps->n[r].min = min;
    ps->n[r].max = max;
    return r;
}

static int parse_cat(struct lin_parse *ps, int top)
{
    int cat = new_node(ps, LK_CAT), last = -1;
    while (!ps->bad) {
        int it = parse_item(ps, top);
        if (it < 0 || ps->bad) break;
        if (last < 0) ps->n[cat].kid = it;
        else ps->n[last].sib = it;
        last = it;
    }
    return cat;
}

static int parse_alt(struct lin_parse *ps, int top)
{
    int first = parse_cat(ps, top);
    if (ps->bad || ps->p == ps->end || *ps->p != '|') return first;
    if (top) return ps->bad = 1, 0; /* "^a|b$": each branch anchored alone */
    int alt = new_node(ps, LK_ALT), last = first;
    ps->n[alt].kid = first;
    while (!ps->bad && ps->p < ps->end && *ps->p == '|') {
        ps->p++;
        int b = parse_cat(ps, top);
        ps->n[last].sib = b;
        last = b;
    }
    return alt;
}

/* ---- the Glushkov automaton ---------------------------------------------------------- */
struct lin_glu {
    const struct lin_parse *ps;
    uint64_t pos[LIN_MAXPOS][2]; /* each position's bytes */
    uint64_t follow[LIN_MAXPOS];
    unsigned npos;
    unsigned size; /* nodes instantiated, repetitions unrolled */
    int bad;
};
struct lin_sub {
    uint64_t first, last;
    int nullable;
};

static void follow_add(struct lin_glu *g, uint64_t from, uint64_t to)
{
    for (unsigned p = 0; p < g->npos; p++) {
        if (!(from >> p & 1)) continue;
        if (g->follow[p] & to) g->bad = 1; /* the same edge made twice: ambiguous */
        g->follow[p] |= to;
    }
}

static struct lin_sub sub_cat(struct lin_glu *g, struct lin_sub a, struct lin_sub b)
{
    follow_add(g, a.last, b.first);
    return (struct lin_sub){a.first | (a.nullable ? b.first : 0),
                            b.last | (b.nullable ? a.last : 0), a.nullable && b.nullable};
}

static struct lin_sub glu(struct lin_glu *g, int id);

/* The child of a repetition, unrolled: X{m,n} = X..X (X (X ...)?)?, X{m,} = X..X X*. */
static struct lin_sub glu_rep(struct lin_glu *g, const struct lin_node *n)
{
    struct lin_sub r = {0, 0, 1};
    for (unsigned i = 0; i < n->min && !g->bad; i++) r = sub_cat(g, r, glu(g, n->kid));
    if (n->max == LIN_INF) {
        struct lin_sub x = glu(g, n->kid);
        if (x.nullable) g->bad = 1; /* (a?)*: many ways to match nothing */
        follow_add(g, x.last, x.first);
        x.nullable = 1;
        return sub_cat(g, r, x);
    }
    struct lin_sub tail = {0, 0, 1};
    for (unsigned i = n->min; i < n->max && !g->bad; i++) {
        struct lin_sub x = glu(g, n->kid);
        if (x.nullable) g->bad = 1;
        tail = sub_cat(g, x, tail);
        tail.nullable = 1;
    }
    return sub_cat(g, r, tail);
}

static struct lin_sub glu(struct lin_glu *g, int id)
{
    struct lin_sub r = {0, 0, 1};
    const struct lin_node *n = &g->ps->n[id];
    if (g->bad || ++g->size > 4 * LIN_MAXNODE) {
        g->bad = 1;
        return r;
    }
    switch (n->kind) {
    case LK_SET:
        if (g->npos == LIN_MAXPOS) {
            g->bad = 1;
            return r;
        }
        memcpy(g->pos[g->npos], n->set, sizeof n->set);
        g->follow[g->npos] = 0;
        r = (struct lin_sub){1ull << g->npos, 1ull << g->npos, 0};
        g->npos++;
        return r;
    case LK_CAT:
        for (int k = n->kid; k >= 0 && !g->bad; k = g->ps->n[k].sib) r = sub_cat(g, r, glu(g, k));
        return r;
    case LK_ALT:
        r.nullable = 0;
        for (int k = n->kid; k >= 0 && !g->bad; k = g->ps->n[k].sib) {
            struct lin_sub b = glu(g, k);
            if (b.nullable && r.nullable) g->bad = 1; /* two ways to match nothing */
            r.first |= b.first;
            r.last |= b.last;
            r.nullable |= b.nullable;
        }
        return r;
    case LK_REP: return glu_rep(g, n);
    }
    return r;
}

/* The table of G: its subset automaton, a state per set of positions the bytes so far
 * can end on (at most LIN_MAXSTATE). 0 when two positions of a set lead to the same one
 * on a byte (a prefix read two ways: backtracking could try both, again and again).
 * *WIDEST: the most positions in one set, the paths a backtracking matcher follows. */
static int build_table(struct schema_relin *l, const struct lin_glu *g, struct lin_sub top,
                       unsigned *widest)
{
    uint64_t sig[128];
    unsigned ncol = 1; /* column 0: bytes no position takes (every byte >= 0x80) */
    memset(l->col, 0, sizeof l->col);
    for (unsigned b = 0; b < 128; b++) {
        sig[b] = 0;
        for (unsigned p = 0; p < g->npos; p++)
            if (g->pos[p][b >> 6] >> (b & 63) & 1) sig[b] |= 1ull << p;
        if (!sig[b]) continue;
        unsigned c = 0;
        for (unsigned a = 0; a < b && !c; a++)
            if (sig[a] == sig[b]) c = l->col[a];
        l->col[b] = (uint8_t)(c ? c : ncol++);
    }
    uint64_t set[LIN_MAXSTATE]; /* state 0: the start, before any byte (set unused) */
    unsigned nstate = 1;
    *widest = 1;
    l->ncol = ncol;
    uint8_t *next = xmalloc((size_t)LIN_MAXSTATE * ncol); /* [state * ncol + column] */
    memset(next, LIN_DEAD, (size_t)LIN_MAXSTATE * ncol);
    l->accept[0] = (uint8_t)top.nullable;
    for (unsigned s = 0; s < nstate; s++) {
        for (unsigned b = 0; b < 128; b++) {
            if (!sig[b] || next[s * ncol + l->col[b]] != LIN_DEAD) continue;
            uint64_t to = 0, twice = 0;
            for (unsigned p = 0; p < g->npos + 1; p++) {
                uint64_t f = s == 0                    ? (p == 0 ? top.first : 0)
                    : p < g->npos && (set[s] >> p & 1) ? g->follow[p]
                                                       : 0;
                f &= sig[b];
                twice |= to & f;
                to |= f;
            }
            if (twice) { /* two paths to one position */
                free(next);
                return 0;
            }
            if (!to) continue;
            unsigned t = 1;
            while (t < nstate && set[t] != to) t++;
            if (t == nstate) {
                if (nstate == LIN_MAXSTATE) {
                    free(next);
                    return 0;
                }
                set[nstate++] = to;
                l->accept[t] = (to & top.last) != 0;
                unsigned w = (unsigned)__builtin_popcountll(to);
                if (w > *widest) *widest = w;
            }
            next[s * ncol + l->col[b]] = (uint8_t)t;
        }
    }
    l->nstate = nstate;
    l->dead = 256 * nstate;
    l->row = xmalloc((size_t)256 * (nstate + 1) * sizeof *l->row);
    for (unsigned st = 0; st <= nstate; st++)
        for (unsigned b = 0; b < 256; b++) {
            uint8_t t = st < nstate ? next[st * ncol + l->col[b]] : LIN_DEAD;
            l->row[256 * st + b] = (uint16_t)(t == LIN_DEAD ? l->dead : 256 * t);
        }
    l->accept[nstate] = 0;
    free(next);
    return 1;
}

struct schema_relin *schema_relin_compile(const char *pat, size_t len)
{
    if (len < 1 || pat[0] != '^') return NULL;
    struct lin_parse *ps = xcalloc(1, sizeof *ps);
    ps->p = pat + 1;
    ps->end = pat + len;
    int root = parse_alt(ps, 1);
    int prefix = 1;
    if (!ps->bad && ps->p < ps->end && *ps->p == '$' && ps->p + 1 == ps->end) {
        prefix = 0;
        ps->p++;
    }
    struct schema_relin *l = NULL;
    if (!ps->bad && ps->p == ps->end) {
        struct lin_glu *g = xcalloc(1, sizeof *g);
        g->ps = ps;
        struct lin_sub top = glu(g, root);
        if (!g->bad && g->npos) {
            l = xcalloc(1, sizeof *l);
            l->prefix = prefix;
            unsigned widest;
            if (build_table(l, g, top, &widest)) {
                /* PCRE2's frames per byte, generously: four per node of the unrolled
                 * expression on each path it follows (the file's comment says why) */
                l->cost = 4ull * (g->size + 2) * widest;
            } else {
                schema_relin_free(l);
                l = NULL;
            }
        }
        free(g);
    }
    free(ps);
    return l;
}

void schema_relin_free(struct schema_relin *l)
{
    if (!l) return;
    free(l->row);
    free(l);
}

int schema_relin_usable(const struct schema_relin *l, size_t len, const struct schema_limits *lim)
{
    uint64_t cap = lim->regex_match_limit < lim->regex_depth_limit ? lim->regex_match_limit
                                                                   : lim->regex_depth_limit;
    return len < UINT32_MAX && (len + 1) * l->cost <= cap; /* cost < 2^32: no overflow */
}

int schema_relin_match(const struct schema_relin *l, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    const uint16_t *row = l->row;
    unsigned st = 0, dead = l->dead;
    if (l->prefix) {
        for (size_t i = 0; i < len; i++) {
            if (l->accept[st >> 8]) return 1;
            st = row[st + p[i]];
            if (st == dead) return 0;
        }
    } else { /* DEAD takes every byte to DEAD: asked once every four bytes */
        size_t i = 0;
        for (; i + 4 <= len; i += 4) {
            st = row[st + p[i]];
            st = row[st + p[i + 1]];
            st = row[st + p[i + 2]];
            st = row[st + p[i + 3]];
            if (st == dead) return 0;
        }
        for (; i < len; i++) st = row[st + p[i]];
    }
    return l->accept[st >> 8]; /* DEAD's is 0 */
}
