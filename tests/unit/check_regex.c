/* check_regex.c - ECMA-262 patterns (schema_regex_check.c, schema_regex.c): the corpus
 * tests/data/ecma-regex/corpus.txt, each case's verdict (valid, unrun, invalid), and
 * what the translations to PCRE2 match. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"
#include "testutil.h"

START_TEST(corpus)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/ecma-regex/corpus.txt", tu_data_dir());
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char line[4096];
    int cases = 0, wrong = 0, kinds[3] = {0};
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') line[--n] = 0;
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab) continue;
        *tab = 0;
        const char *want = line, *pat = tab + 1;
        char *why = NULL;
        int r = schema_regex_runnable(pat, strlen(pat), &why);
        const char *got = r < 0 ? "invalid" : r == 0 ? "unrun" : "valid";
        kinds[r + 1]++;
        cases++;
        if (strcmp(want, got)) {
            fprintf(stderr, "corpus: /%s/ is %s, expected %s (%s)\n", pat, got, want,
                    why ? why : "");
            wrong++;
        }
        /* every verdict but valid says why, with the character it is about */
        if ((r <= 0) != (why != NULL) || (r < 0 && !strstr(why, "(character "))) {
            fprintf(stderr, "corpus: /%s/: verdict %s with explanation \"%s\"\n", pat, got,
                    why ? why : "(none)");
            wrong++;
        }
        free(why);
    }
    fclose(f);
    ck_assert_int_gt(cases, 200);
    ck_assert_msg(kinds[0] && kinds[1] && kinds[2], "the corpus has every verdict");
    ck_assert_msg(wrong == 0, "%d of %d corpus cases are wrong", wrong, cases);
}
END_TEST

/* A must-level error names the PCRE construct it found. */
START_TEST(pcre_constructs_named)
{
    static const char *const cases[][2] = {
        {"(?i)abc", "inline flags (?i)"},
        {"^a++$", "possessive quantifier ++"},
        {"(?>a)b", "atomic group"},
        {"a(?R)?b", "recursion"},
        {"x++", "possessive quantifier ++"},
        {"[[:alpha:]]", "POSIX class"},
        {"\\A", "\\A"},
        {"(?P<n>a)", "(?P"},
        {"(?#c)", "comment"},
        {"a{,3}", "{,n}"},
        {"\\x{41}", "\\x{...}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *why = NULL;
        ck_assert_int_eq(schema_regex_check(cases[i][0], strlen(cases[i][0]), &why), -1);
        ck_assert_msg(strstr(why, cases[i][1]) != NULL, "%s: \"%s\" does not name %s", cases[i][0],
                      why, cases[i][1]);
        free(why);
    }
}
END_TEST

/* 1 match, 0 none, -1 not compiled, 2 compiled without code (taken to match). */
static int rmatch(const char *pat, const char *subject)
{
    char *err = NULL;
    struct schema_re *re = schema_re_compile(pat, strlen(pat), 1000, 0, &err);
    if (!re) {
        free(err);
        return -1;
    }
    if (!re->code) {
        schema_re_free(re);
        return 2;
    }
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    schema_re_free(re);
    return rc >= 0;
}

START_TEST(translations_match)
{
    /* a lookbehind's leading variable quantifier, at its minimum */
    ck_assert_int_eq(rmatch("(?<=a+)b", "aab"), 1);
    ck_assert_int_eq(rmatch("(?<=a+)b", "cb"), 0);
    ck_assert_int_eq(rmatch("(?<!a*)b", "ab"), 0); /* a* always holds: never matches */
    ck_assert_int_eq(rmatch("(?<=x{2,4}y)z", "xxyz"), 1);
    ck_assert_int_eq(rmatch("(?<=x{2,4}y)z", "xyz"), 0);
    ck_assert_int_eq(rmatch("(?<=c|a+)b", "cb"), 1);
    ck_assert_int_eq(rmatch("(?<=(?:ab)+)c", "xabc"), 1);
    ck_assert_int_eq(rmatch("(?<=(?:ab)+)c", "xbc"), 0);
    /* named groups become numbered ones; an unset backreference matches empty */
    ck_assert_int_eq(rmatch("^(?<$n>a)\\k<$n>$", "aa"), 1);
    ck_assert_int_eq(rmatch("^(?<$n>a)\\k<$n>$", "ab"), 0);
    ck_assert_int_eq(rmatch("^\\k<n>(?<n>a)$", "a"), 1);
    ck_assert_int_eq(rmatch("^(?:(a)|b)\\1$", "b"), 1);
    /* '[' in a class is a literal, never PCRE's POSIX syntax */
    ck_assert_int_eq(rmatch("^[[:a:]$", ":"), 1);
    ck_assert_int_eq(rmatch("^[[.a.]$", "["), 1);
    /* \v is VT only; \p{Assigned} is not Cn */
    ck_assert_int_eq(rmatch("^\\v$", "\v"), 1);
    ck_assert_int_eq(rmatch("^\\v$", "\n"), 0);
    ck_assert_int_eq(rmatch("^\\p{Assigned}$", "a"), 1);
    ck_assert_int_eq(rmatch("^\\P{Assigned}$", "a"), 0);
    /* valid ECMA-262 without a translation: compiled without code, never an error */
    ck_assert_int_eq(rmatch("(?<=ab+)c", "c"), 2);
    /* PCRE-only syntax is not compiled */
    ck_assert_int_eq(rmatch("(?i)abc", "ABC"), -1);
}
END_TEST

Suite *regex_suite(void)
{
    Suite *s = suite_create("regex");
    TCase *tc = tcase_create("ecma262");
    tcase_add_test(tc, corpus);
    tcase_add_test(tc, pcre_constructs_named);
    tcase_add_test(tc, translations_match);
    suite_add_tcase(s, tc);
    return s;
}
