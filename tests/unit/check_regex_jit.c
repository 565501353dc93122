/* check_regex_jit.c - PCRE2's JIT on a pattern's first match (rules/regex_jit.c): the
 * first call compiles, every later one answers the same without compiling again, and two
 * threads asking at once for the same patterns both get a pattern they can match with. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rules/regex_jit.h"

static pcre2_code *compile(const char *pattern)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code =
        pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
    ck_assert_ptr_nonnull(code);
    return code;
}

/* 1 when CODE matches S through the engine regex_jit_ready chose; -1 on an engine error. */
static int match(pcre2_code *code, regex_jit_state *st, const char *s)
{
    int jit = regex_jit_ready(code, st);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = jit ? pcre2_jit_match(code, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL)
                 : pcre2_match(code, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

START_TEST(compiled_on_first_use)
{
    pcre2_code *code = compile("^x-[a-z]+$");
    regex_jit_state st;
    atomic_init(&st, REGEX_JIT_INIT);
    size_t size = 0;
    /* nothing JIT-compiled before the first use */
    ck_assert_int_eq(pcre2_pattern_info(code, PCRE2_INFO_JITSIZE, &size), 0);
    ck_assert_uint_eq(size, 0);
    int first = regex_jit_ready(code, &st);
    ck_assert_int_ne(atomic_load(&st), REGEX_JIT_INIT);
    pcre2_pattern_info(code, PCRE2_INFO_JITSIZE, &size);
    ck_assert_int_eq(first, size > 0); /* JIT code when it says so */
    ck_assert_int_eq(regex_jit_ready(code, &st), first);
    ck_assert_int_eq(match(code, &st, "x-header"), 1);
    ck_assert_int_eq(match(code, &st, "x-Header"), 0);
    pcre2_code_free(code);
}
END_TEST

enum { PATTERNS = 64 };
static pcre2_code *codes[PATTERNS];
static regex_jit_state states[PATTERNS];

static void *match_all(void *arg)
{
    int *bad = arg;
    char s[32];
    for (int i = 0; i < PATTERNS; i++) {
        snprintf(s, sizeof s, "item-%d-end", i);
        if (match(codes[i], &states[i], s) != 1) ++*bad;
    }
    return NULL;
}

START_TEST(two_threads_at_once)
{
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < PATTERNS; i++) {
            char p[32];
            snprintf(p, sizeof p, "item-%d-(end|stop)$", i);
            codes[i] = compile(p);
            atomic_init(&states[i], REGEX_JIT_INIT);
        }
        int bad[2] = {0, 0};
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, match_all, &bad[0]), 0);
        match_all(&bad[1]);
        pthread_join(t, NULL);
        ck_assert_int_eq(bad[0] + bad[1], 0);
        for (int i = 0; i < PATTERNS; i++) pcre2_code_free(codes[i]);
    }
}
END_TEST

Suite *regex_jit_suite(void)
{
    Suite *s = suite_create("regex_jit");
    TCase *tc = tcase_create("lazy");
    tcase_add_test(tc, compiled_on_first_use);
    tcase_add_test(tc, two_threads_at_once);
    suite_add_tcase(s, tc);
    return s;
}
