/* regex_need.h - what a subject must hold for a compiled PCRE2 pattern to match in it,
 * read once from the pattern (its minimum length, the code units a match can begin with,
 * a code unit every match holds), so that a rule over every text skips, from the text's
 * facts (sel.h), the texts where the pattern cannot match without calling PCRE2. The
 * answers are PCRE2's own start-of-match optimisations: a skipped text is one PCRE2
 * would have searched and rejected. */
#ifndef MCPDESC_REGEX_NEED_H
#define MCPDESC_REGEX_NEED_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct regex_need {
    size_t min_len;          /* every match is at least this many characters (so bytes) long */
    int first;               /* first_ascii is known */
    uint64_t first_ascii[2]; /* the ASCII code units a match can begin with (of an ASCII
                              * subject) */
    int last;                /* every match holds last_a or last_b (two cases of one letter) */
    unsigned char last_a, last_b;
    /* What the pattern's source says every match holds: literal strings and runs of a
     * class ([0-9A-Fa-f]{129,} needs 129 hex digits in a row), all or one of several;
     * NULL when it says nothing or uses what the reader does not know (regex_need.c). */
    struct regex_text_need *text;
    /* text has been read (regex_need_text_ready): 0 (as regex_need_of leaves it) until
     * then */
    atomic_int text_read;
};

/* The needs of CODE (a pcre2_code of 8-bit code units; void here so that this header
 * needs no PCRE2 configuration). */
void regex_need_of(const void *code, struct regex_need *out);

/* Can a match lie in a subject of N bytes whose ASCII bytes are the bits of ASCII and
 * that holds a byte of 0x80 or more when HIGH? 0 only when it cannot. */
int regex_need_may_match(const struct regex_need *need, size_t n, const uint64_t ascii[2],
                         int high);

/* NEED (of regex_need_of) with its text read from the PATTERN's source (N bytes, valid
 * for PCRE2 with PCRE2_UTF) on the first call for NEED rather than at load: a rule set
 * holds hundreds of patterns and a run on a small description meets few of them in a text. Reads it once, under a lock (the items of a
 * document are judged on several threads at once); every later call is one atomic load.
 * The reading reports nothing: a source it cannot read leaves no text (every subject may
 * match). Call it before regex_need_text_may_match on a need shared by threads. */
const struct regex_need *regex_need_text_ready(struct regex_need *need, const char *pattern,
                                               size_t n);
/* Free NEED's text. */
void regex_need_release(struct regex_need *need);
/* Can a match lie in S (N bytes), by NEED's text? ASCII and HIGH are S's facts as for
 * regex_need_may_match, or ASCII NULL when not known. 0 only when it cannot: a literal
 * or a run every match holds is not in S. One pass over S per need, no PCRE2 call. */
int regex_need_text_may_match(const struct regex_need *need, const char *s, size_t n,
                              const uint64_t ascii[2], int high);

#endif
