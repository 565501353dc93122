/* phrase.c - phrase lists: grammar, folding, search (phrase.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules/phrase.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/regex_jit.h"
#include "rules/regex_need.h"

enum { PAD = PHRASE_PAD }; /* bytes after a folded text: see phrase_fold */

struct phrase_set {
    pcre2_code *code;
    pcre2_match_context *mctx;
    int min_words; /* the fewest words a hit spans (a text with one word has no 2-word hit) */
    /* compiled by the JIT on the first search (regex_jit.h): an ASCII text is then
     * matched without the UTF check */
    regex_jit_state jit;
    struct regex_need need; /* what a folded text must hold for a hit */
    /* Per phrase, the ASCII bytes (letters in lower case) every hit of it holds: the
     * bytes of its words outside optional groups, and of a group those all its
     * alternatives hold. An ASCII text that lacks some byte of every phrase has no hit
     * (most texts), without a search. NULL: no phrase can be ruled out so. */
    uint64_t (*bytes)[2];
    size_t nbytes;
    /* Whole words only: per phrase, the words of letters, digits and _ its hits hold, each
     * a bit of a 256-bit filter (RUN_BIT); a hit stands between non-word bytes and spaces,
     * so each such run of a phrase's word is a whole run of an ASCII text's (phrase_runs).
     * Phrase I needs, for each of its items [item_at[I], item_at[I + 1]), one bit of the
     * item's mask. A second filter of other bits of the same runs (words 4-7 of a mask:
     * RUN_BIT2) rules out what a bit shared by chance let through: a one-word phrase
     * passes the first for one text in 256 of ten words, both for few in 10,000. NULL:
     * not whole words, or a phrase that needs no run. */
    uint64_t (*items)[8];
    size_t *item_at;
    size_t nphrases;
    /* The phrases by the bits of one item of each (its key: the one of fewest bits): a
     * text can hold phrase I only if it holds a bit of I's key, so a text's bits that are
     * some key's (KEYS) lead to the only phrases to test: bucket B's are
     * by_key[key_at[B] .. key_at[B + 1]). */
    uint64_t keys[4];
    uint32_t *key_at;
    uint32_t *by_key;
    /* A match data kept for the next search (one pair: only where the whole hit is), so
     * that millions of searches do not allocate one each; taken and given back
     * atomically, as threads judging other files share the set. */
    _Atomic(pcre2_match_data *) md;
};

/* Default_Ignorable_Code_Point and White_Space, Unicode 15.0.0 (DerivedCoreProperties.txt,
 * PropList.txt): fixed here rather than taken from PCRE2, whose tables follow the
 * library's version, so a released list folds the same way everywhere. */
static const uint32_t ignorable[][2] = {
    {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x061C, 0x061C}, {0x115F, 0x1160}, {0x17B4, 0x17B5},
    {0x180B, 0x180F},   {0x200B, 0x200F},   {0x202A, 0x202E}, {0x2060, 0x206F}, {0x3164, 0x3164},
    {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
};
static const uint32_t white[][2] = {
    {0x0009, 0x000D}, {0x0020, 0x0020}, {0x0085, 0x0085}, {0x00A0, 0x00A0}, {0x1680, 0x1680},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
};

static int in_table(const uint32_t (*t)[2], size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < t[mid][0]) hi = mid;
        else if (cp > t[mid][1]) lo = mid + 1;
        else return 1;
    }
    return 0;
}

/* ---- grammar ---------------------------------------------------------------------- */

struct parser {
    const char *s, *p;
    struct buf *out;
    char *why;
    size_t at;
    int words; /* the fewest words the last parse_seq or parse_item matches */
};

static void fail(struct parser *ps, const char *why)
{
    if (ps->why) return;
    ps->why = xstrdup(why);
    ps->at = (size_t)(ps->p - ps->s);
}

static int word_char(char c)
{
    return c && c != ' ' && c != '\t' && c != '\n' && c != '(' && c != ')' && c != '|' && c != '?';
}

static void skip_space(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n') ps->p++;
}

static int parse_seq(struct parser *ps, struct buf *out);

/* One item (a word, *, or a group) into OUT; *OPTIONAL when a ? follows. 0, or -1. */
static int parse_item(struct parser *ps, struct buf *out, int *optional)
{
    *optional = 0;
    if (*ps->p == '(') {
        int fewest = -1;
        ps->p++;
        buf_adds(out, "(?:");
        for (;;) {
            if (parse_seq(ps, out) < 0) return -1;
            if (fewest < 0 || ps->words < fewest) fewest = ps->words;
            if (*ps->p == '|') {
                buf_addc(out, '|');
                ps->p++;
                continue;
            }
            if (*ps->p != ')') {
                fail(ps, "a group ( ... ) is not closed");
                return -1;
            }
            ps->p++;
            break;
        }
        buf_addc(out, ')');
        ps->words = fewest;
        if (*ps->p == '?') {
            *optional = 1;
            ps->p++;
        }
        return 0;
    }
    if (*ps->p == '?') {
        fail(ps, "? makes the group before it optional: write (word)?");
        return -1;
    }
    const char *w = ps->p;
    while (word_char(*ps->p)) ps->p++;
    if (ps->p == w) {
        fail(ps,
             *ps->p == ')' || *ps->p == '|' ? "an empty alternative: leave it out and put ? "
                                              "after the group"
                                            : "a word was expected");
        return -1;
    }
    ps->words = 1;
    if (ps->p - w == 1 && *w == '*') {
        buf_adds(out, "[^ \\t\\n\\r]+");
        return 0;
    }
    for (const char *c = w; c < ps->p; c++) { /* byte by byte: no printf per byte */
        unsigned char u = (unsigned char)*c;
        if (u < 0x80 &&
            !((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9')))
            buf_addc(out, '\\');
        buf_addc(out, *c);
    }
    return 0;
}

/* Items separated by spaces, up to | ) or the end, into OUT. */
static int parse_seq(struct parser *ps, struct buf *out)
{
    int started = 0, words = 0;
    skip_space(ps);
    while (*ps->p && *ps->p != '|' && *ps->p != ')') {
        struct buf item = BUF_INIT;
        int optional;
        if (parse_item(ps, &item, &optional) < 0) {
            buf_release(&item);
            return -1;
        }
        if (optional) {
            buf_adds(out, started ? "(?: " : "(?:");
            buf_adds(out, buf_str(&item));
            buf_adds(out, started ? ")?" : " )?");
        } else {
            if (started) buf_addc(out, ' ');
            buf_adds(out, buf_str(&item));
        }
        started |= !optional;
        if (!optional) words += ps->words;
        buf_release(&item);
        if (*ps->p == '?') {
            fail(ps, "? makes the group before it optional, not a word: write (word)?");
            return -1;
        }
        if (*ps->p && *ps->p != ' ' && *ps->p != '\t' && *ps->p != '\n' && *ps->p != '|' &&
            *ps->p != ')') {
            fail(ps, "put a space between a group and the word after it");
            return -1;
        }
        skip_space(ps);
    }
    if (!started) {
        fail(ps, "this can match nothing: every part of it is optional, or it is empty");
        return -1;
    }
    ps->words = words;
    return 0;
}

/* phrase_pattern, and the fewest words a hit of it spans in *WORDS. */
static char *pattern_words(const char *phrase, char **why, size_t *at, int *words)
{
    struct buf out = BUF_INIT;
    struct parser ps = {phrase, phrase, &out, NULL, 0, 0};
    if (parse_seq(&ps, &out) == 0 && *ps.p) fail(&ps, "a ) or | outside a group");
    if (ps.why) {
        *why = ps.why;
        *at = ps.at;
        buf_release(&out);
        return NULL;
    }
    *words = ps.words;
    return buf_detach(&out);
}

char *phrase_pattern(const char *phrase, char **why, size_t *at)
{
    int words;
    return pattern_words(phrase, why, at, &words);
}

/* ---- the bytes a hit must hold ------------------------------------------------- */

/* Every ASCII byte of a word, letters in lower case (a caseless letter of an ASCII text
 * matches only its two ASCII cases; a byte above ASCII in a phrase may match an ASCII
 * letter caselessly, U+212A a k: it requires nothing). */
static void word_bytes(const char *w, size_t n, uint64_t out[2])
{
    if (n == 1 && *w == '*') return; /* any word */
    for (size_t i = 0; i < n; i++) {
        unsigned char u = (unsigned char)w[i];
        if (u >= 0x80) continue;
        if (u >= 'A' && u <= 'Z') u = (unsigned char)(u - 'A' + 'a');
        out[u >> 6] |= (uint64_t)1 << (u & 63);
    }
}

/* The bytes every match of the items from *P up to | ) or the end holds (the phrase is
 * valid: phrase_pattern accepted it). */
static void seq_bytes(const char **p, uint64_t out[2])
{
    for (;;) {
        while (**p == ' ' || **p == '\t' || **p == '\n') (*p)++;
        if (!**p || **p == '|' || **p == ')') return;
        uint64_t item[2] = {0, 0};
        if (**p == '(') { /* what every alternative holds */
            uint64_t all[2] = {~(uint64_t)0, ~(uint64_t)0};
            (*p)++;
            for (;;) {
                uint64_t alt[2] = {0, 0};
                seq_bytes(p, alt);
                all[0] &= alt[0];
                all[1] &= alt[1];
                if (**p != '|') break;
                (*p)++;
            }
            if (**p == ')') (*p)++;
            item[0] = all[0];
            item[1] = all[1];
            if (**p == '?') { /* optional: requires nothing */
                (*p)++;
                item[0] = item[1] = 0;
            }
        } else {
            const char *w = *p;
            while (word_char(**p)) (*p)++;
            word_bytes(w, (size_t)(*p - w), item);
        }
        out[0] |= item[0];
        out[1] |= item[1];
    }
}

/* The bytes of PHRASE's hits into OUT. */
static void phrase_bytes(const char *phrase, uint64_t out[2])
{
    const char *p = phrase;
    out[0] = out[1] = 0;
    seq_bytes(&p, out);
}

/* ---- the whole words a hit must hold --------------------------------------------- */

static int run_byte(unsigned char u)
{
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_';
}

/* The filter bits of a run, from its bytes in lower case (FNV-1a), mixed: FNV-1a's top
 * bits hardly change with a run's last bytes ("key1" and "key2" would share a bit). The
 * first filter's bit in *A, the second's (another byte of the mix) in *B. */
static void run_bits(uint64_t h, unsigned *a, unsigned *b)
{
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    *a = (unsigned)(h >> 56);
    *b = (unsigned)(h >> 48 & 0xFF);
}

/* Mask or filter M (8 words) with the run of hash H. */
static void run_set(uint64_t *m, uint64_t h)
{
    unsigned a, b;
    run_bits(h, &a, &b);
    m[a >> 6] |= (uint64_t)1 << (a & 63);
    m[4 + (b >> 6)] |= (uint64_t)1 << (b & 63);
}

static uint64_t run_step(uint64_t h, unsigned char u)
{
    if (u >= 'A' && u <= 'Z') u = (unsigned char)(u - 'A' + 'a');
    return (h ^ u) * 1099511628211ull;
}

#define RUN_SEED 1469598103934665603ull

static unsigned char run_lower[256]; /* a run byte in lower case; 0: not a run byte */

static void runs_table(void)
{
    for (unsigned u = 0; u < 128; u++)
        if (run_byte((unsigned char)u))
            run_lower[u] = (unsigned char)(u >= 'A' && u <= 'Z' ? u - 'A' + 'a' : u);
}

typedef VEC(uint64_t *) mask_list; /* each 8 words (the two filters), owned */

static uint64_t *mask_new(void)
{
    return xcalloc(8, sizeof(uint64_t));
}

static int mask_bits(const uint64_t *m)
{
    return __builtin_popcountll(m[0]) + __builtin_popcountll(m[1]) + __builtin_popcountll(m[2]) +
        __builtin_popcountll(m[3]);
}

static void masks_free(mask_list *l)
{
    for (size_t i = 0; i < l->len; i++) free(l->items[i]);
    VEC_FREE(*l);
}

/* Each run of the word W (N bytes) as an item of one bit; a word above ASCII (a caseless
 * U+212A matches an ASCII k) or * needs none. */
static void word_runs(const char *w, size_t n, mask_list *out)
{
    if (n == 1 && *w == '*') return;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)w[i] >= 0x80) return;
    for (size_t i = 0; i < n;) {
        if (!run_byte((unsigned char)w[i])) {
            i++;
            continue;
        }
        uint64_t h = RUN_SEED;
        while (i < n && run_byte((unsigned char)w[i])) h = run_step(h, (unsigned char)w[i++]);
        uint64_t *m = mask_new();
        run_set(m, h);
        VEC_PUSH(*out, m);
    }
}

/* The items every match of the items from *P up to | ) or the end needs, into OUT. */
static void seq_runs(const char **p, mask_list *out)
{
    for (;;) {
        while (**p == ' ' || **p == '\t' || **p == '\n') (*p)++;
        if (!**p || **p == '|' || **p == ')') return;
        if (**p != '(') {
            const char *w = *p;
            while (word_char(**p)) (*p)++;
            word_runs(w, (size_t)(*p - w), out);
            continue;
        }
        /* a group: one of its alternatives' items each (the one of fewest bits) */
        uint64_t *any = mask_new();
        int bounded = 1;
        (*p)++;
        for (;;) {
            mask_list alt = VEC_INIT;
            seq_runs(p, &alt);
            const uint64_t *best = NULL;
            for (size_t i = 0; i < alt.len; i++)
                if (!best || mask_bits(alt.items[i]) < mask_bits(best)) best = alt.items[i];
            if (best)
                for (int k = 0; k < 8; k++) any[k] |= best[k];
            else bounded = 0; /* an alternative any text may hold */
            masks_free(&alt);
            if (**p != '|') break;
            (*p)++;
        }
        if (**p == ')') (*p)++;
        if (**p == '?') { /* optional: needs nothing */
            (*p)++;
            bounded = 0;
        }
        if (bounded) VEC_PUSH(*out, any);
        else free(any);
    }
}

/* S's keys (struct phrase_set) from its items. */
static void set_keys(struct phrase_set *s)
{
    size_t *key = xcalloc(s->nphrases ? s->nphrases : 1, sizeof *key);
    s->key_at = xcalloc(257, sizeof *s->key_at);
    for (size_t i = 0; i < s->nphrases; i++) {
        key[i] = s->item_at[i];
        for (size_t k = s->item_at[i]; k < s->item_at[i + 1]; k++)
            if (mask_bits(s->items[k]) < mask_bits(s->items[key[i]])) key[i] = k;
        for (unsigned b = 0; b < 256; b++)
            if (s->items[key[i]][b >> 6] >> (b & 63) & 1) s->key_at[b + 1]++;
    }
    for (unsigned b = 0; b < 256; b++) s->key_at[b + 1] += s->key_at[b];
    s->by_key = xcalloc(s->key_at[256] ? s->key_at[256] : 1, sizeof *s->by_key);
    uint32_t *fill = xcalloc(256, sizeof *fill);
    for (size_t i = 0; i < s->nphrases; i++) /* in phrase order within a bucket */
        for (unsigned b = 0; b < 256; b++)
            if (s->items[key[i]][b >> 6] >> (b & 63) & 1) {
                s->by_key[s->key_at[b] + fill[b]++] = (uint32_t)i;
                s->keys[b >> 6] |= (uint64_t)1 << (b & 63);
            }
    free(fill);
    free(key);
}

/* The run items of the N phrases into S (whole words only), or none. */
static void set_runs(struct phrase_set *s, const char *const *phrases, size_t n)
{
    mask_list all = VEC_INIT;
    size_t *at = xcalloc(n + 1, sizeof *at);
    for (size_t i = 0; i < n; i++) {
        const char *p = phrases[i];
        at[i] = all.len;
        seq_runs(&p, &all);
        if (all.len == at[i]) { /* a phrase no run rules out */
            masks_free(&all);
            free(at);
            return;
        }
    }
    at[n] = all.len;
    s->items = xcalloc(all.len ? all.len : 1, sizeof *s->items);
    for (size_t i = 0; i < all.len; i++) memcpy(s->items[i], all.items[i], sizeof *s->items);
    s->item_at = at;
    s->nphrases = n;
    masks_free(&all);
    set_keys(s);
}

/* The bytes of the N phrases into S, each set once and none that holds another (a text
 * with all the bytes of a set that holds another has those of the other too), or none
 * when a phrase needs no byte. */
static void set_bytes(struct phrase_set *s, const char *const *phrases, size_t n)
{
    s->bytes = xcalloc(n ? n : 1, sizeof *s->bytes);
    for (size_t i = 0; i < n; i++) {
        uint64_t b[2];
        phrase_bytes(phrases[i], b);
        if (!b[0] && !b[1]) { /* a phrase any text may hold */
            free(s->bytes);
            s->bytes = NULL;
            s->nbytes = 0;
            return;
        }
        size_t k = 0, kept = 0;
        for (; k < s->nbytes; k++)
            if (!(s->bytes[k][0] & ~b[0]) && !(s->bytes[k][1] & ~b[1])) break; /* k within b */
        if (k < s->nbytes) continue;
        for (k = 0; k < s->nbytes; k++) /* drop those b lies within */
            if ((b[0] & ~s->bytes[k][0]) || (b[1] & ~s->bytes[k][1])) {
                s->bytes[kept][0] = s->bytes[k][0];
                s->bytes[kept++][1] = s->bytes[k][1];
            }
        s->bytes[kept][0] = b[0];
        s->bytes[kept][1] = b[1];
        s->nbytes = kept + 1;
    }
}

struct phrase_set *phrase_set_compile(const char *const *phrases, size_t n, unsigned flags,
                                      char **why)
{
    struct buf re = BUF_INIT;
    int fewest = -1;
    /* whole words: no letter, digit or _ just outside the hit */
    buf_adds(&re, flags & PHRASE_WORDS ? "(?<![\\p{L}\\p{N}_])(?:" : "(?:");
    for (size_t i = 0; i < n; i++) {
        char *w = NULL;
        size_t at;
        int words;
        char *p = pattern_words(phrases[i], &w, &at, &words);
        if (!p) {
            *why = xasprintf("phrase %zu: %s", i + 1, w);
            free(w);
            buf_release(&re);
            return NULL;
        }
        if (fewest < 0 || words < fewest) fewest = words;
        buf_adds(&re, i ? "|(?:" : "(?:"); /* no printf per phrase */
        buf_adds(&re, p);
        buf_addc(&re, ')');
        free(p);
    }
    buf_adds(&re, flags & PHRASE_WORDS ? ")(?![\\p{L}\\p{N}_])" : ")");
    int err;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)buf_str(&re), re.len,
                                     PCRE2_UTF | (flags & PHRASE_FOLD_CASE ? PCRE2_CASELESS : 0),
                                     &err, &off, NULL);
    buf_release(&re);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        *why = xasprintf("the list does not compile: %s", (const char *)msg);
        return NULL;
    }
    struct phrase_set *s = xcalloc(1, sizeof *s);
    s->code = code;
    atomic_init(&s->jit, REGEX_JIT_INIT);
    regex_need_of(code, &s->need);
    s->min_words = fewest;
    if (flags & PHRASE_WORDS) set_runs(s, phrases, n);
    set_bytes(s, phrases, n);
    s->mctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(s->mctx, 100000);
    pcre2_set_depth_limit(s->mctx, 1000);
    return s;
}

void phrase_set_free(struct phrase_set *s)
{
    if (!s) return;
    pcre2_code_free(s->code);
    pcre2_match_context_free(s->mctx);
    pcre2_match_data_free(atomic_load(&s->md));
    free(s->bytes);
    free(s->items);
    free(s->item_at);
    free(s->key_at);
    free(s->by_key);
    free(s);
}

int phrase_set_may_match_facts(const struct phrase_set *set, int may_have_space)
{
    return set->min_words < 2 || may_have_space;
}

int phrase_set_may_match_bytes(const struct phrase_set *set, size_t n, const uint64_t ascii[2],
                               int high)
{
    /* folding an ASCII text keeps its bytes but turns white space into spaces, and never
     * makes a text longer than its bytes in code points */
    uint64_t folded[2] = {ascii[0] | (uint64_t)1 << ' ', ascii[1]};
    if (!regex_need_may_match(&set->need, n, folded, high)) return 0;
    if (high || !set->bytes) return 1;
    /* the text's letters in lower case: A-Z (bits 1-26 of the second word) onto a-z
     * (bits 33-58) */
    uint64_t lower = folded[1] | (folded[1] >> 1 & 0x3FFFFFF) << 33;
    for (size_t i = 0; i < set->nbytes; i++)
        if (!(set->bytes[i][0] & ~folded[0]) && !(set->bytes[i][1] & ~lower)) return 1;
    return 0;
}

/* The filter bits of the runs of S (N bytes, ASCII): 0, or -1 when S is not ASCII. */
static int runs_of(const char *s, size_t n, uint64_t have[8])
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, runs_table);
    memset(have, 0, 8 * sizeof *have);
    for (size_t i = 0; i < n;) {
        unsigned char u = (unsigned char)s[i];
        if (u >= 0x80) return -1; /* ASCII only: caseless matching stays in ASCII */
        if (!run_lower[u]) {
            i++;
            continue;
        }
        uint64_t h = RUN_SEED;
        for (; i < n && run_lower[(unsigned char)s[i]]; i++)
            h = (h ^ run_lower[(unsigned char)s[i]]) * 1099511628211ull;
        run_set(have, h);
    }
    return 0;
}

/* The runs of the texts judged last on this thread: every phrase rule reads the same texts
 * of an item, one rule after another. Keyed by the string's address and length, and
 * checked against a copy of its bytes (an address may be a freed string's). */
enum { RUNS_SLOTS = 128, RUNS_MAX = 192 };
struct runs_slot {
    const char *s;
    size_t n;
    uint64_t have[8];
    char copy[RUNS_MAX];
};
static _Thread_local struct runs_slot runs_cache[RUNS_SLOTS];

static int runs_cached(const char *s, size_t n, uint64_t have[8])
{
    if (n > RUNS_MAX) return runs_of(s, n, have);
    struct runs_slot *k = &runs_cache[((uintptr_t)s >> 3 ^ n) & (RUNS_SLOTS - 1)];
    if (k->s == s && k->n == n && !memcmp(k->copy, s, n)) {
        memcpy(have, k->have, sizeof k->have);
        return 0;
    }
    if (runs_of(s, n, have) < 0) return -1;
    k->s = s;
    k->n = n;
    memcpy(k->have, have, sizeof k->have);
    memcpy(k->copy, s, n);
    return 0;
}

/* Does the text of filters HAVE hold a bit of every item of phrase I, in the filter of
 * words AT .. AT + 3? */
static int items_held(const struct phrase_set *set, size_t i, const uint64_t have[8], int at)
{
    const uint64_t *h = have + at;
    for (size_t k = set->item_at[i]; k < set->item_at[i + 1]; k++) {
        const uint64_t *m = set->items[k] + at;
        if (!((h[0] & m[0]) | (h[1] & m[1]) | (h[2] & m[2]) | (h[3] & m[3]))) return 0;
    }
    return 1;
}

/* Can SET have a hit in a text whose words' filter is HAVE (SET has items)? */
static inline int may_match_have(const struct phrase_set *set, const uint64_t have[8])
{
    /* only the phrases whose key the text holds: a few, of lists of hundreds */
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t bits = have[w] & set->keys[w]; bits; bits &= bits - 1) {
            unsigned b = w * 64 + (unsigned)__builtin_ctzll(bits);
            for (uint32_t j = set->key_at[b]; j < set->key_at[b + 1]; j++) {
                size_t i = set->by_key[j];
                if (items_held(set, i, have, 0) && items_held(set, i, have, 4))
                    return 1; /* every item of phrase I is there, in both filters */
            }
        }
    return 0;
}

int phrase_set_may_match_runs(const struct phrase_set *set, const char *s, size_t n)
{
    if (!set->items) return 1;
    uint64_t have[8];
    if (runs_cached(s, n, have) < 0) return 1;
    return may_match_have(set, have);
}

void phrase_runs_find(struct phrase_runs *r, const char *s, size_t n)
{
    r->state = runs_of(s, n, r->have) < 0 ? -1 : 1;
}

int phrase_set_may_match_runs_of(const struct phrase_set *set, const struct phrase_runs *r)
{
    return !set->items || r->state < 0 || may_match_have(set, r->have);
}

int phrase_set_may_match(const struct phrase_set *set, const char *s, size_t n)
{
    if (set->min_words < 2) return 1;
    /* a hit of two words or more holds a space of the folded text: some white space (any
     * non-ASCII byte may start one, U+00A0, U+3000) */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || (c >= 0x09 && c <= 0x0D) || c >= 0x80) return 1;
    }
    return 0;
}

/* ---- folding ---------------------------------------------------------------------- */

unsigned long phrase_utf8_next(const char *str, size_t n, size_t *len)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned c = s[0];
    size_t k = c < 0x80      ? 1
        : (c & 0xE0) == 0xC0 ? 2
        : (c & 0xF0) == 0xE0 ? 3
        : (c & 0xF8) == 0xF0 ? 4
                             : 0;
    uint32_t cp = k == 1 ? c : k == 2 ? c & 0x1F : k == 3 ? c & 0x0F : c & 0x07;
    if (!k || k > n) {
        *len = 1;
        return 0xFFFD;
    }
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *len = 1;
            return 0xFFFD;
        }
        cp = cp << 6 | (s[i] & 0x3F);
    }
    *len = k;
    return cp;
}

/* Append N BYTES that came from original bytes [FROM, TO) (the maps when T has them). */
static void push(struct phrase_text *t, size_t *cap, const char *bytes, size_t n, size_t from,
                 size_t to)
{
    if (t->len + n > *cap) { /* only a text with invalid UTF-8 grows (U+FFFD is 3 bytes) */
        *cap = (t->len + n) * 2;
        if (t->borrowed) { /* leave the caller's buffer for one of our own */
            char *own = xmalloc(*cap + PAD);
            memcpy(own, t->s, t->len);
            t->s = own;
            t->borrowed = 0;
        } else {
            t->s = xrealloc(t->s, *cap + PAD);
        }
        memset(t->s + t->len, 0, *cap + PAD - t->len);
        if (t->from) {
            t->from = xrealloc(t->from, *cap * sizeof *t->from);
            t->to = xrealloc(t->to, *cap * sizeof *t->to);
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (t->from) {
            t->from[t->len] = from;
            t->to[t->len] = to;
        }
        t->s[t->len++] = bytes[i];
    }
}

/* T's original text, ASCII with single spaces, as its folded form. */
static void copy_plain(struct phrase_text *t)
{
    size_t n = t->orig_len;
    memcpy(t->s, t->orig, n);
    t->len = n;
    t->folded_space = n && t->orig[n - 1] == ' ' && (t->flags & PHRASE_FOLD_SPACE);
    t->s[n] = '\0';
    t->ascii = 1;
}

/* Fold T's original text into T->s (again), with the maps when T->from is set. */
static void fold(struct phrase_text *t)
{
    const char *s = t->orig;
    size_t n = t->orig_len, cap = n + 1;
    t->len = 0;
    t->folded_space = 0;
    if (!t->from) { /* ASCII with single spaces only folds to itself: copied (most texts) */
        size_t k = 0;
        while (k < n && (unsigned char)s[k] < 0x80 && !(s[k] >= 0x09 && s[k] <= 0x0D) &&
               !(s[k] == ' ' && k && s[k - 1] == ' '))
            k++;
        if (k == n) {
            copy_plain(t);
            return;
        }
    }
    t->ascii = 0;
    for (size_t i = 0; i < n;) {
        size_t len = 1;
        uint32_t cp = (unsigned char)s[i];
        int ignorable_cp = 0, space = 0;
        if (cp < 0x80) { /* ASCII: no Default_Ignorable; White_Space is TAB..CR and space */
            space = cp == ' ' || (cp >= 0x09 && cp <= 0x0D);
        } else {
            cp = (uint32_t)phrase_utf8_next(s + i, n - i, &len);
            ignorable_cp = in_table(ignorable, sizeof ignorable / sizeof *ignorable, cp);
            space = in_table(white, sizeof white / sizeof *white, cp);
        }
        if ((t->flags & PHRASE_FOLD_ZW) && ignorable_cp) {
            /* removed */
        } else if ((t->flags & PHRASE_FOLD_SPACE) && space) {
            if (t->len && t->s[t->len - 1] == ' ' && t->folded_space) {
                if (t->to) t->to[t->len - 1] = i + len; /* one space for the whole run */
            } else {
                push(t, &cap, " ", 1, i, i + len);
            }
        } else if (cp == 0xFFFD && len == 1) {
            push(t, &cap, "\xEF\xBF\xBD", 3, i, i + 1);
        } else {
            push(t, &cap, s + i, len, i, i + len);
        }
        t->folded_space = (t->flags & PHRASE_FOLD_SPACE) && space;
        i += len;
    }
    t->s[t->len] = '\0';
}

void phrase_fold(const char *s, size_t n, unsigned flags, struct phrase_text *out)
{
    memset(out, 0, sizeof *out);
    out->orig = s;
    out->orig_len = n;
    out->flags = flags;
    out->s = xcalloc(1, n + 1 + PAD); /* PCRE2 JIT reads ahead in 16-byte words */
    fold(out);
}

/* OUT set up to fold S into BUF (CAP bytes): 1, or 0 when S does not fit (then folded
 * into a buffer of its own by phrase_fold, done). */
static int fold_into_buf(const char *s, size_t n, unsigned flags, char *buf, size_t cap,
                         struct phrase_text *out)
{
    if (n + 1 + PAD > cap) {
        phrase_fold(s, n, flags, out);
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->orig = s;
    out->orig_len = n;
    out->flags = flags;
    out->s = buf;
    out->borrowed = 1;
    memset(buf + n, 0, 1 + PAD); /* PCRE2 JIT reads ahead in 16-byte words */
    return 1;
}

void phrase_fold_into(const char *s, size_t n, unsigned flags, char *buf, size_t cap,
                      struct phrase_text *out)
{
    if (fold_into_buf(s, n, flags, buf, cap, out)) fold(out);
}

void phrase_fold_plain_into(const char *s, size_t n, unsigned flags, char *buf, size_t cap,
                            struct phrase_text *out)
{
    if (fold_into_buf(s, n, flags, buf, cap, out)) copy_plain(out);
}

void phrase_text_maps(struct phrase_text *t)
{
    if (t->from) return;
    size_t cap = t->len > t->orig_len ? t->len : t->orig_len + 1;
    t->from = xmalloc(cap * sizeof *t->from);
    t->to = xmalloc(cap * sizeof *t->to);
    t->word = xmalloc(cap * sizeof *t->word);
    fold(t);          /* the same bytes again, now with where each came from */
    size_t words = 0; /* words begun so far; a space belongs to the next word */
    int in = 0;
    for (size_t k = 0; k < t->len; k++) {
        char c = t->s[k];
        int space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (!space && !in) words++;
        in = !space;
        t->word[k] = space ? words : words - 1;
    }
}

void phrase_text_release(struct phrase_text *t)
{
    if (!t->borrowed) free(t->s);
    free(t->from);
    free(t->to);
    free(t->word);
    memset(t, 0, sizeof *t);
}

/* ---- search ----------------------------------------------------------------------- */

/* The leftmost match of SET in T at or after START: 1 with [*B, *E). */
static int match_at(const struct phrase_set *set, const struct phrase_text *t, size_t start,
                    size_t *b, size_t *e)
{
    if (start > t->len) return 0;
    struct phrase_set *mut = (struct phrase_set *)set; /* only its md slot and JIT state change */
    int jit = regex_jit_ready(mut->code, &mut->jit);
    pcre2_match_data *md = atomic_exchange(&mut->md, NULL);
    if (!md) md = pcre2_match_data_create(1, NULL);
    /* 0: a hit whose groups did not fit the one pair, still a hit */
    /* pcre2_match checks the whole subject is valid UTF-8 on every call: not needed for
     * ASCII, which the JIT's own entry then matches alike */
    int rc = jit && t->ascii
        ? pcre2_jit_match(set->code, (PCRE2_SPTR)t->s, t->len, start, 0, md, set->mctx)
        : pcre2_match(set->code, (PCRE2_SPTR)t->s, t->len, start, 0, md, set->mctx);
    if (rc >= 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        *b = ov[0];
        *e = ov[1];
    }
    pcre2_match_data *none = NULL;
    if (!atomic_compare_exchange_strong(&mut->md, &none, md)) pcre2_match_data_free(md);
    return rc >= 0;
}

/* The byte after the character that starts at K. */
static size_t next_char(const struct phrase_text *t, size_t k)
{
    k++;
    while (k < t->len && ((unsigned char)t->s[k] & 0xC0) == 0x80) k++;
    return k;
}

int phrase_find(const struct phrase_set *set, const struct phrase_set *allow,
                const struct phrase_text *t, size_t start, size_t *b, size_t *e)
{
    size_t hb, he;
    while (match_at(set, t, start, &hb, &he)) {
        int excused = 0;
        size_t ab, ae, from = 0;
        /* an allowed phrase's match that overlaps the hit excuses it */
        while (allow && !excused && match_at(allow, t, from, &ab, &ae) && ab < he) {
            excused = ae > hb;
            from = ae > ab ? ae : next_char(t, ab);
        }
        if (!excused) {
            *b = hb;
            *e = he;
            return 1;
        }
        start = next_char(t, hb);
    }
    return 0;
}

size_t phrase_words_between(struct phrase_text *t, size_t b1, size_t e1, size_t b2, size_t e2)
{
    phrase_text_maps(t);
    if (b2 < e1 && b1 < e2) return 0; /* overlap */
    if (b2 < b1) {
        size_t x = b1, y = e1;
        b1 = b2, e1 = e2, b2 = x, e2 = y;
    }
    (void)e2;
    if (!e1 || b2 >= t->len) return 0;
    size_t wa = t->word[e1 - 1], wb = t->word[b2];
    return wb > wa + 1 ? wb - wa - 1 : 0;
}
