/* check_schema_regex_lin.c - the linear matcher of simple patterns (schema_regex_lin.c):
 * which patterns get one, that it answers as PCRE2 does on generated subjects, and that
 * it decides only subjects short enough that PCRE2 could not have stopped on them (a
 * long one still ends the validation with "validation stopped" as before). Counts, never
 * times. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

/* Patterns the matcher takes: anchored, ASCII, deterministic enough and unambiguous. */
static const char *const simple[][2] = {
    {"^(/[A-Za-z0-9._-]+)+/?$", "/home/u1/src/"},
    {"^[a-z0-9_-]+$", "get_user-2"},
    {"^\\d{4}-\\d{2}$", "2026-12"},
    {"^https?://", "https://x"},
    {"^[a-z]+(-[a-z]+)*$", "ab-cd-e"},
    {"^\\d+(\\.\\d+){2}$", "1.22.3"},
    {"^(?:[a-z]{2,3})(?:-[A-Z]{2})?$", "en-GB"},
    {"^(ab|cd)*e?$", "abcdabe"},
    {"^(a|b)*a(a|b)(a|b)$", "babbaab"},
    {"^([a-z]+/)*[a-z]+$", "ab/c/def"},
    {"^(a*b)*a*$", "aabbaba"},
    {"^v\\w{0,3}$", "v1_a"},
    {"^[-+]?\\d+$", "-12"},
    {"^[\\]\\\\x-]$", "]"},
    {"^[.$^*]x", "$xy"},
    {"^a{0}b{2,}c?$", "bbbc"},
    {"^(a|)b$", "ab"},
    {"^\\(\\d\\)\\/\\.$", "(4)/."},
    {"^(?:a|b|a)$", "a"}, /* two parses of "a", but never two paths to one position */
    {"^(ab|a)*b$", "aabab"},
};

/* Patterns it leaves to PCRE2 (ambiguous, not anchored, or outside its syntax). */
static const char *const refused[] = {
    "^(a+)+$",
    "^(a?)*$",
    "^(a|b?)+$",
    "^(a|ab)(c|bcd)(d*)$",
    "^[a-z]*[0-9]*[a-z]*x$",
    "a+",
    "^a|b$",
    "^.$",
    "^[^a]$",
    "^\\s$",
    "^(?=a)",
    "^(a)\\1$",
    "^\\u0041$",
    "^\xc3\xa9$",
    "^a$b",
    "^[a-z-0]$",
    "^[]$",
    "^a{1,99}$",
    "^a{2,1}$",
    "^(a)*$x",
    "^\\bx",
    "^$",
    "^()$",
    "^a**$",
    "^[a-z]{1,64}$",
    "^(a|b)*a(a|b)(a|b)(a|b)(a|b)$", /* 32 sets of positions: more than 16 states */
};

static struct schema_re *compile(const char *pat)
{
    char *err = NULL;
    struct schema_re *re = schema_re_compile(pat, strlen(pat), 8192, 1, &err);
    ck_assert_msg(re != NULL, "%s: %s", pat, err ? err : "?");
    return re;
}

/* PCRE2's answer as re_match asks it (the interpreter, limits far away): 1, 0, or the
 * error code when it stopped. */
static int pcre2_answer(const struct schema_re *re, const char *s, size_t n, uint32_t match_limit,
                        uint32_t depth_limit, int jit)
{
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(mc, match_limit);
    pcre2_set_depth_limit(mc, depth_limit);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = jit && re->jit ? pcre2_jit_match(re->code, (PCRE2_SPTR)s, n, 0, 0, md, mc)
                            : PCRE2_ERROR_JIT_STACKLIMIT;
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
        rc = pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, md, mc);
    pcre2_match_data_free(md);
    pcre2_match_context_free(mc);
    return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : rc;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next_rand(unsigned n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng >> 33) % n;
}

/* A subject of up to MAX units drawn from the pattern's own bytes and a few others (a
 * newline, a NUL, a two-byte character), often a repeated chunk; or half of the time
 * EXAMPLE (a match) repeated, with a unit or two changed, added or removed. */
static size_t subject(const char *pat, const char *example, char *out, size_t max)
{
    static const char *const extra[] = {"a", "0", "_", "/", "-", ".", "\n", "\xc3\xa9", "Z"};
    const char *units[64];
    char one[64][2];
    size_t nu = 0;
    for (const char *p = pat; *p && nu < 40; p++) {
        one[nu][0] = *p, one[nu][1] = 0;
        units[nu] = one[nu];
        nu++;
    }
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) units[nu++] = extra[i];
    if (next_rand(2)) {
        size_t el = strlen(example), n = 0, times = 1 + next_rand((unsigned)(max / el + 1));
        for (size_t i = 0; i < times && n + el <= 4 * max; i++, n += el)
            memcpy(out + n, example, el);
        for (unsigned e = next_rand(3); e > 0 && n > 0; e--) {
            size_t at = next_rand((unsigned)n);
            const char *u = units[next_rand((unsigned)nu)];
            if (*u != 0 && (unsigned char)*u < 0x80 && next_rand(2)) out[at] = *u; /* change */
            else if (next_rand(2) && (unsigned char)out[at] < 0x80)
                memmove(out + at, out + at + 1, --n - at); /* remove an ASCII byte */
            else if (*u != 0 && (unsigned char)*u < 0x80)
                memmove(out + at + 1, out + at, n++ - at), out[at] = *u; /* add */
        }
        return n;
    }
    size_t len = next_rand((unsigned)max + 1), n = 0, chunk = 1 + next_rand(4);
    const char *rep[4];
    for (size_t i = 0; i < chunk; i++) rep[i] = units[next_rand((unsigned)nu)];
    for (size_t i = 0; i < len; i++) {
        const char *u = next_rand(8) ? rep[i % chunk] : units[next_rand((unsigned)nu)];
        size_t ul = *u ? strlen(u) : 1;
        memcpy(out + n, u, ul);
        n += ul;
    }
    return n;
}

START_TEST(which_patterns)
{
    for (size_t i = 0; i < sizeof simple / sizeof *simple; i++) {
        struct schema_re *re = compile(simple[i][0]);
        ck_assert_msg(re->lin != NULL, "%s: no linear matcher", simple[i][0]);
        schema_re_free(re);
    }
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *err = NULL;
        struct schema_re *re = schema_re_compile(refused[i], strlen(refused[i]), 8192, 1, &err);
        if (!re) { /* not ECMA-262 at all: nothing to refuse */
            free(err);
            continue;
        }
        ck_assert_msg(re->lin == NULL, "%s: a linear matcher", refused[i]);
        schema_re_free(re);
    }
}
END_TEST

START_TEST(answers_as_pcre2)
{
    char s[256];
    size_t disagree = 0, matched = 0, cases = 0;
    for (size_t i = 0; i < sizeof simple / sizeof *simple; i++) {
        struct schema_re *re = compile(simple[i][0]);
        ck_assert_int_eq(schema_relin_match(re->lin, simple[i][1], strlen(simple[i][1])), 1);
        for (int t = 0; t < 4000; t++) {
            size_t n = subject(simple[i][0], simple[i][1], s, t < 2000 ? 12 : 60);
            int want = pcre2_answer(re, s, n, 100000000u, 100000000u, 1);
            ck_assert_int_ge(want, 0);
            int got = schema_relin_match(re->lin, s, n);
            if (got != want && disagree++ < 5)
                fprintf(stderr, "%s on \"%.*s\": linear %d, PCRE2 %d\n", simple[i][0], (int)n, s,
                        got, want);
            matched += want == 1;
            cases++;
        }
        schema_re_free(re);
    }
    ck_assert_msg(disagree == 0, "%zu disagreements", disagree);
    ck_assert_msg(matched > cases / 10 && matched < cases - cases / 10,
                  "subjects too one-sided: %zu of %zu match", matched, cases);
}
END_TEST

/* Random patterns over the subset's syntax (and a few bytes outside it): the parser
 * takes any bytes without harm, and every matcher it builds for a pattern PCRE2 runs
 * answers as PCRE2 does on random subjects. */
START_TEST(random_patterns)
{
    static const char *const atoms[] = {
        "a", "b", "-", "/", "\\d", "\\w",   "[a-c]", "[-b]",     "(", ")",
        "|", "*", "+", "?", "{2}", "{1,3}", "{2,}",  "(?:",      ".", "\\",
        "[", "]", "$", "^", "{",   "\\.",   "[^a]",  "\xc3\xa9", "}"};
    char pat[128], s[64];
    size_t built = 0;
    for (int t = 0; t < 30000; t++) {
        size_t n = 0;
        if (next_rand(8)) pat[n++] = '^';
        for (unsigned k = next_rand(10); k > 0; k--) {
            const char *a = atoms[next_rand(sizeof atoms / sizeof *atoms)];
            memcpy(pat + n, a, strlen(a));
            n += strlen(a);
        }
        if (next_rand(2)) pat[n++] = '$';
        struct schema_relin *l = schema_relin_compile(pat, n); /* any bytes */
        schema_relin_free(l);
        char *err = NULL;
        struct schema_re *re = schema_re_compile(pat, n, 8192, 1, &err);
        free(err);
        if (!re) continue;
        if (re->lin && re->code) {
            built++;
            for (int k = 0; k < 30; k++) {
                size_t sn = 0;
                for (unsigned m = next_rand(12); m > 0; m--) s[sn++] = "ab-/0_.x"[next_rand(8)];
                int want = pcre2_answer(re, s, sn, 100000000u, 100000000u, 1);
                ck_assert_int_ge(want, 0);
                ck_assert_msg(schema_relin_match(re->lin, s, sn) == want,
                              "%.*s on \"%.*s\": linear %d, PCRE2 %d", (int)n, pat, (int)sn, s,
                              !want, want);
            }
        }
        schema_re_free(re);
    }
    ck_assert_msg(built > 1000, "only %zu random patterns got a matcher", built);
}
END_TEST

/* Under tight limits: whenever the matcher may decide a subject, PCRE2 (JIT, or its
 * interpreter after the JIT's stack ran out) decides it too, without stopping. */
START_TEST(usable_only_where_pcre2_cannot_stop)
{
    static const uint32_t limits[] = {20, 100, 400, 3000};
    char s[8192];
    size_t used = 0, stopped = 0;
    for (size_t i = 0; i < sizeof simple / sizeof *simple; i++) {
        struct schema_re *re = compile(simple[i][0]);
        for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
            struct schema_limits lim;
            schema_limits_default(&lim);
            lim.regex_match_limit = lim.regex_depth_limit = limits[k];
            for (int t = 0; t < 300; t++) {
                size_t n = subject(simple[i][0], simple[i][1], s, t < 150 ? 40 : 2000);
                if (!schema_relin_usable(re->lin, n, &lim)) continue;
                used++;
                for (int jit = 0; jit < 2; jit++) {
                    int rc = pcre2_answer(re, s, n, limits[k], limits[k], jit);
                    if (rc < 0) stopped++;
                    ck_assert_msg(rc >= 0, "%s, limits %u, %zu bytes: PCRE2 stopped (%d)",
                                  simple[i][0], limits[k], n, rc);
                    ck_assert_int_eq(rc, schema_relin_match(re->lin, s, n));
                }
            }
        }
        schema_re_free(re);
    }
    ck_assert_msg(used > 1000 && stopped == 0, "%zu subjects decided", used);
}
END_TEST

/* schema_validate of the string STR against {"pattern": PAT}, both modes. */
static void validate_both(const struct schema_limits *lim, const char *pat, const char *str,
                          int want)
{
    json_t *sj = json_pack("{s:s}", "pattern", pat), *inst = json_string(str);
    schema_ctx *ctx = schema_ctx_new(lim);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, NULL);
    ck_assert(c != NULL);
    ck_assert_int_eq(schema_validate(c, inst, NULL), want);
    ck_assert_int_eq(schema_validate(c, inst, &errs), want);
    ck_assert_int_eq(errs.len, want != 0);
    if (want < 0)
        ck_assert_msg(strstr(errs.items[0].message, "validation stopped") != NULL, "%s",
                      errs.items[0].message);
    schema_errors_release(&errs);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sj);
    json_decref(inst);
}

START_TEST(validation_as_before)
{
    const char *pat = "^(/[a-z]+)+/?$";
    validate_both(NULL, pat, "/usr/local/bin", 0);
    validate_both(NULL, pat, "/usr//bin", 1);
    validate_both(NULL, pat, "usr/bin", 1);
    /* 5,000 segments: PCRE2's interpreter nests deeper than regex_depth_limit=10000 (the
     * JIT's stack runs out first), so the validation stops, as it did without the
     * linear matcher, which would have said "valid" */
    size_t segs = 5000;
    char *big = malloc(2 * segs + 1);
    for (size_t i = 0; i < segs; i++) big[2 * i] = '/', big[2 * i + 1] = 'a';
    big[2 * segs] = 0;
    validate_both(NULL, pat, big, -1);
    /* a higher depth limit lets PCRE2 finish: valid */
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.regex_depth_limit = 1000000;
    validate_both(&lim, pat, big, 0);
    free(big);
}
END_TEST

Suite *schema_regex_lin_suite(void)
{
    Suite *s = suite_create("schema_regex_lin");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, which_patterns);
    tcase_add_test(tc, answers_as_pcre2);
    tcase_add_test(tc, random_patterns);
    tcase_add_test(tc, usable_only_where_pcre2_cannot_stop);
    tcase_add_test(tc, validation_as_before);
    suite_add_tcase(s, tc);
    return s;
}
