/* check_phrase_two_filters.c - a phrase set's whole-word filter keeps two bits of each
 * word, in two filters (rules/phrase.c: phrase_set_may_match_runs): a text passes only
 * when both say its words may hold a phrase's, so a common word sharing one bit of a
 * one-word phrase by chance no longer sends the text to PCRE2; a text holding the phrase
 * still always passes. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules/phrase.h"

#define FLAGS (PHRASE_FOLD_CASE | PHRASE_FOLD_SPACE | PHRASE_FOLD_ZW | PHRASE_WORDS)
enum { TEXTS = 20000, WORDS = 10 };

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* Text K: WORDS words of six letters, the phrase's word among them when WITH. */
static void text_of(uint64_t *x, int with, char *out, size_t cap)
{
    size_t len = 0;
    for (int w = 0; w < WORDS; w++) {
        char word[8];
        for (int k = 0; k < 6; k++) word[k] = (char)('a' + next(x) % 26);
        word[6] = 0;
        len += (size_t)snprintf(out + len, cap - len, "%s%s", w ? " " : "",
                                with && w == WORDS / 2 ? "AWS_Secret_Access_Key" : word);
    }
}

START_TEST(a_shared_bit_alone_does_not_pass)
{
    static const char *const phrases[] = {"aws_secret_access_key", "id_rsa"};
    char *why = NULL;
    struct phrase_set *set = phrase_set_compile(phrases, 2, FLAGS, &why);
    ck_assert_msg(set != NULL, "%s", why ? why : "");
    uint64_t x = 0x2545F4914F6CDD1Dull;
    int passed = 0;
    char s[128];
    for (int k = 0; k < TEXTS; k++) {
        text_of(&x, 0, s, sizeof s);
        passed += phrase_set_may_match_runs(set, s, strlen(s));
    }
    /* one filter of 256 bits: about 2 x 10 / 256 of the texts (some 1,500 of 20,000);
     * both: about (2 x 10 / 256)^2 (some 120) */
    ck_assert_msg(passed < 400, "%d of %d texts without the phrases passed", passed, TEXTS);
    for (int k = 0; k < 2000; k++) {
        text_of(&x, 1, s, sizeof s);
        ck_assert_msg(phrase_set_may_match_runs(set, s, strlen(s)), "\"%s\" ruled out", s);
    }
    phrase_set_free(set);
}
END_TEST

Suite *phrase_two_filters_suite(void)
{
    Suite *s = suite_create("phrase_two_filters");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, a_shared_bit_alone_does_not_pass);
    suite_add_tcase(s, tc);
    return s;
}
