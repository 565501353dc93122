/* phrase.h - phrase lists (the predicate phrases, rules-yaml/README.md "Data files"): a tiny
 * grammar compiled into one PCRE2 alternation, text folding with a map back to the
 * original bytes, and the search for the first hit that no allowed phrase covers. No
 * knowledge of rule sets: rule_data.c compiles the lists, fn_phrases.c searches. */
#ifndef MCPDESC_PHRASE_H
#define MCPDESC_PHRASE_H

#include <stddef.h>
#include <stdint.h>

/* How text and phrases are compared. */
enum {
    PHRASE_FOLD_CASE = 1,  /* caseless: PCRE2_CASELESS with UTF (Unicode simple case folding) */
    PHRASE_FOLD_SPACE = 2, /* every run of White_Space is one space (U+0020) */
    PHRASE_FOLD_ZW = 4,    /* Default_Ignorable code points are removed */
    PHRASE_WORDS = 8       /* a phrase matches whole words only */
};

struct phrase_set;

/* PHRASE's PCRE2 pattern (new), or NULL with *WHY (new) saying what is wrong and *AT its
 * byte offset. Grammar: words separated by spaces; (a b|c) a group of alternatives; ? after
 * a group: optional; * alone: any one word. Everything else is literal. */
char *phrase_pattern(const char *phrase, char **why, size_t *at);
/* Can SET have a hit in the N bytes S (before folding)? 0 only when it cannot: every
 * phrase spans two words or more and S has no white space (an identifier, an enum value). */
int phrase_set_may_match(const struct phrase_set *set, const char *s, size_t n);
/* The same when it is known whether the text may hold white space (MAY_HAVE_SPACE). */
int phrase_set_may_match_facts(const struct phrase_set *set, int may_have_space);
/* Can SET have a hit in a text of N bytes whose ASCII bytes are the bits of ASCII, and
 * that has bytes of 0x80 or more when HIGH (its facts, sel.h)? 0 only when it cannot: too
 * short, or without a byte every hit begins with or holds (regex_need.h). */
int phrase_set_may_match_bytes(const struct phrase_set *set, size_t n, const uint64_t ascii[2],
                               int high);
/* Can SET (of whole words) have a hit in S (N bytes before folding)? 0 only when S is
 * ASCII and, for every phrase, lacks some word of letters, digits and _ that every hit of
 * the phrase holds as a whole word (most texts: one pass, no search). */
int phrase_set_may_match_runs(const struct phrase_set *set, const char *s, size_t n);
/* The filter of one text's words (phrase_set_may_match_runs), found once for every list
 * asked about the text: a caller judging one text for many rules keeps one per text,
 * STATE 0 until phrase_runs_find. */
struct phrase_runs {
    int state; /* 0: not found yet; 1: HAVE holds it; -1: the text is not ASCII (none) */
    uint64_t have[8];
};
/* R's filter, of S (N bytes). */
void phrase_runs_find(struct phrase_runs *r, const char *s, size_t n);
/* phrase_set_may_match_runs of the text whose filter R holds (found). */
int phrase_set_may_match_runs_of(const struct phrase_set *set, const struct phrase_runs *r);
/* The N phrases as one set under FLAGS; NULL with *WHY (new) when a phrase does not parse
 * (phrase_pattern says where) or PCRE2 refuses the whole (too large). */
struct phrase_set *phrase_set_compile(const char *const *phrases, size_t n, unsigned flags,
                                      char **why);
void phrase_set_free(struct phrase_set *s);

/* The code point at S (N > 0 bytes left) and its length in *LEN; an invalid or cut
 * sequence: U+FFFD, length 1. */
unsigned long phrase_utf8_next(const char *s, size_t n, size_t *len);

/* A text folded for searching: S (LEN bytes) from ORIG (ORIG_LEN bytes, borrowed). Once
 * phrase_text_maps has run, for each byte of S the range of original bytes it came from
 * ([from[k], to[k])) and the index of the word it belongs to (a space: the next word's);
 * NULL before (most texts have no hit: the maps are made for those that do). */
struct phrase_text {
    char *s;
    size_t len;
    size_t *from, *to, *word;
    const char *orig;
    size_t orig_len;
    unsigned flags;
    int folded_space; /* folding: the last byte of S is a run of white space */
    int borrowed;     /* S is the caller's buffer (phrase_fold_into): never freed or grown */
    int ascii;        /* S is ASCII, so valid UTF-8 without a check */
};
void phrase_fold(const char *s, size_t n, unsigned flags, struct phrase_text *out);
/* The same into BUF of CAP bytes when N + 1 + PHRASE_PAD fits (no allocation for the
 * short texts most are), else as phrase_fold. */
enum { PHRASE_PAD = 32 };
void phrase_fold_into(const char *s, size_t n, unsigned flags, char *buf, size_t cap,
                      struct phrase_text *out);
/* The same for a text known to be ASCII without white space that folding changes (TAB to
 * CR, two spaces in a row): the copy it folds to, without looking at its bytes. */
void phrase_fold_plain_into(const char *s, size_t n, unsigned flags, char *buf, size_t cap,
                            struct phrase_text *out);
void phrase_text_maps(struct phrase_text *t);
void phrase_text_release(struct phrase_text *t);

/* The first hit of SET in T starting at or after START that no match of ALLOW (may be
 * NULL) contains: 1 with [*B, *E) in T's bytes, else 0. */
int phrase_find(const struct phrase_set *set, const struct phrase_set *allow,
                const struct phrase_text *t, size_t start, size_t *b, size_t *e);
/* How many words of T lie between the spans [B1, E1) and [B2, E2) (0 when they touch or
 * overlap). */
size_t phrase_words_between(struct phrase_text *t, size_t b1, size_t e1, size_t b2, size_t e2);

#endif
