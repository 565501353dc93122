/* check_phrase_keys.c - a phrase set's whole-word filter tests only the phrases whose key
 * (one item of each) the text holds (rules/phrase.c: phrase_set_may_match_runs): in a list
 * of hundreds, every phrase is still found by any alternative of any of its items, and a
 * text lacking an item of every phrase is still ruled out. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/phrase.h"

#define FOLD (PHRASE_FOLD_CASE | PHRASE_FOLD_SPACE | PHRASE_FOLD_ZW)
enum { NPHRASES = 300 };

/* Word ROLE of phrase I: five letters, all of them changing with I (a word differing from
 * another only in its last letter may share its filter bit). */
static const char *word(int role, int i)
{
    static char w[8][6];
    unsigned x = (unsigned)(i * 7919 + role * 104729) * 2654435761u;
    for (int k = 0; k < 5; k++, x /= 26) w[role][k] = (char)('a' + x % 26);
    w[role][5] = 0;
    return w[role];
}

/* Phrase I: "(P|Q) (R|S)" (every item of two alternatives), or with
 * ALT 0 "W (A|B) C". */
static char **phrases_new(int alt)
{
    char **p = xcalloc(NPHRASES, sizeof *p);
    for (int i = 0; i < NPHRASES; i++) {
        char a[6], b[6], c[6], d[6];
        strcpy(a, word(0, i));
        strcpy(b, word(1, i));
        strcpy(c, word(2, i));
        strcpy(d, word(3, i));
        p[i] =
            alt ? xasprintf("(%s|%s) (%s|%s)", a, b, c, d) : xasprintf("%s (%s|%s) %s", a, b, c, d);
    }
    return p;
}

static void phrases_free(char **p)
{
    for (int i = 0; i < NPHRASES; i++) free(p[i]);
    free(p);
}

/* Does SET find a hit in TEXT (the search itself)? */
static int hits(const struct phrase_set *set, const char *text)
{
    struct phrase_text t;
    phrase_fold(text, strlen(text), FOLD, &t);
    size_t b, e;
    int hit = phrase_find(set, NULL, &t, 0, &b, &e);
    phrase_text_release(&t);
    return hit;
}

START_TEST(every_phrase_found_by_any_alternative)
{
    int alt = _i;
    char **p = phrases_new(alt);
    char *why = NULL;
    struct phrase_set *set =
        phrase_set_compile((const char *const *)p, NPHRASES, FOLD | PHRASE_WORDS, &why);
    ck_assert_msg(set != NULL, "%s", why ? why : "");
    size_t ruled_out = 0, lacking = 0;
    char text[128];
    for (int i = 0; i < NPHRASES; i++) {
        /* each combination of alternatives: a hit, never ruled out */
        for (int k = 0; k < 4; k++) {
            char w0[6], w1[6];
            strcpy(w0, word(alt ? (k & 1) : 0, i));
            strcpy(w1, word(alt ? 2 + (k >> 1 & 1) : 1 + (k & 1), i));
            if (alt) snprintf(text, sizeof text, "so %s %s now", w0, w1);
            else snprintf(text, sizeof text, "so %s %s %s now", w0, w1, word(3, i));
            ck_assert_msg(hits(set, text), "no hit in \"%s\"", text);
            ck_assert_msg(phrase_set_may_match_runs(set, text, strlen(text)),
                          "\"%s\" ruled out, yet it hits", text);
        }
        /* an item of its own phrase missing: another phrase's word instead */
        int j = (i + 7) % NPHRASES;
        char w0[6], w1[6];
        strcpy(w0, word(alt ? 1 : 0, i));
        strcpy(w1, word(alt ? 3 : 1, j));
        if (alt) snprintf(text, sizeof text, "%s and %s", w0, w1);
        else snprintf(text, sizeof text, "%s %s %s", w0, w1, word(3, i));
        ck_assert(!hits(set, text));
        lacking++;
        ruled_out += !phrase_set_may_match_runs(set, text, strlen(text));
    }
    /* a 256-bit filter of 1,200 words lets some through by collision; most are ruled out */
    ck_assert_msg(ruled_out * 4 >= lacking * 3, "only %zu of %zu ruled out", ruled_out, lacking);
    phrase_set_free(set);
    phrases_free(p);
}
END_TEST

/* Words that differ only in their last characters ("token_1", "token_2") are told apart
 * by the filter: most texts holding a sibling of the phrase's word are ruled out. */
START_TEST(words_differing_at_the_end_told_apart)
{
    char *why = NULL;
    const char *phrase[] = {"send token_x7 now"};
    struct phrase_set *set = phrase_set_compile(phrase, 1, FOLD | PHRASE_WORDS, &why);
    ck_assert_msg(set != NULL, "%s", why ? why : "");
    size_t ruled_out = 0, n = 0;
    char text[64];
    for (char a = 'a'; a <= 'z'; a++)
        for (char d = '0'; d <= '9'; d++) {
            if (a == 'x' && d == '7') continue;
            snprintf(text, sizeof text, "send token_%c%c now", a, d);
            n++;
            ruled_out += !phrase_set_may_match_runs(set, text, strlen(text));
        }
    ck_assert(phrase_set_may_match_runs(set, "send token_x7 now", 17));
    ck_assert_msg(ruled_out * 10 >= n * 9, "only %zu of %zu ruled out", ruled_out, n);
    phrase_set_free(set);
}
END_TEST

Suite *phrase_keys_suite(void)
{
    Suite *s = suite_create("phrase_keys");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, every_phrase_found_by_any_alternative, 0, 2);
    tcase_add_test(tc, words_differing_at_the_end_told_apart);
    suite_add_tcase(s, tc);
    return s;
}
