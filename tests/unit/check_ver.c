/* check_ver.c - version specs (base/ver.c), the one parser the loader and `rules lint`
 * share and the formatter of rule pages and lint's fixes: every form and every problem,
 * at the entry or member it is about, in order; a formatted spec parses back to its set. */
#include <check.h>
#include <string.h>

#include "base/util.h"
#include "base/ver.h"

static struct ver_list abcd = {{(char *)"a", (char *)"b", (char *)"c", (char *)"d"}, 4};

START_TEST(spec_format)
{
    static const struct {
        ver_mask m;
        const char *want;
    } cases[] = {{0xF, "all"}, {0xC, "{from: c}"}, {0x3, "{before: c}"}, {0x6, "{from: b, before: d}"},
                 {0x4, "[c]"}, {0x1, "[a]"}, {0x9, "[a, d]"}, {0xB, "[a, b, d]"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct buf b = BUF_INIT;
        ver_spec_format(&b, &abcd, cases[i].m);
        ck_assert_str_eq(buf_str(&b), cases[i].want);
        buf_release(&b);
    }
}
END_TEST

/* The problems reported, as "PROBLEM@INDEX:MEMBER" separated by spaces. */
static void record(void *arg, const struct ver_spec_error *e)
{
    static const char *const names[] = {
        [VER_SPEC_NOT_A_SPEC] = "spec",         [VER_SPEC_NOT_A_STRING] = "string",
        [VER_SPEC_UNKNOWN_VERSION] = "unknown", [VER_SPEC_EMPTY_LIST] = "empty-list",
        [VER_SPEC_UNKNOWN_MEMBER] = "member",   [VER_SPEC_NO_BOUND] = "no-bound",
        [VER_SPEC_EMPTY_RANGE] = "empty-range",
    };
    struct buf *b = arg;
    buf_addf(b, "%s%s@%d:%s", b->len ? " " : "", names[e->problem], e->index, e->member ? e->member : "-");
}

static int parse(const char *json, ver_mask *m, struct buf *problems)
{
    json_error_t jerr;
    json_t *v = json_loads(json, JSON_DECODE_ANY, &jerr);
    ck_assert_msg(v != NULL, "bad test JSON %s", json);
    int rc = ver_spec_parse(&abcd, v, m, record, problems);
    json_decref(v);
    return rc;
}

START_TEST(spec_parse_valid)
{
    static const struct {
        const char *json;
        ver_mask want;
    } cases[] = {{"\"all\"", 0xF}, {"[\"c\"]", 0x4}, {"[\"d\", \"a\", \"a\"]", 0x9},
                 {"{\"from\": \"c\"}", 0xC}, {"{\"before\": \"c\"}", 0x3},
                 {"{\"before\": \"d\", \"from\": \"b\"}", 0x6}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct buf problems = BUF_INIT;
        ver_mask m = 0;
        ck_assert_msg(parse(cases[i].json, &m, &problems) == 0, "%s refused", cases[i].json);
        ck_assert_msg(m == cases[i].want, "%s: mask %llx", cases[i].json, (unsigned long long)m);
        ck_assert_msg(problems.len == 0, "%s: %s", cases[i].json, buf_str(&problems));
        buf_release(&problems);
    }
    /* every set formats to a spec that parses back to it */
    for (ver_mask want = 1; want < 16; want++) {
        struct buf spec = BUF_INIT, json = BUF_INIT, problems = BUF_INIT;
        ver_spec_format(&spec, &abcd, want);
        /* the formatter writes YAML flow style: quote the names for JSON */
        for (const char *p = buf_str(&spec); *p; p++) {
            if ((*p >= 'a' && *p <= 'z')) {
                size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz");
                buf_addf(&json, "\"%.*s\"", (int)n, p);
                p += n - 1;
            } else {
                buf_addc(&json, *p);
            }
        }
        ver_mask m = 0;
        ck_assert_msg(parse(buf_str(&json), &m, &problems) == 0 && m == want && !problems.len,
                      "%s (%s) does not parse back to %llx", buf_str(&spec), buf_str(&json),
                      (unsigned long long)want);
        buf_release(&spec);
        buf_release(&json);
        buf_release(&problems);
    }
}
END_TEST

START_TEST(spec_parse_problems)
{
    static const struct {
        const char *json;
        int rc;
        const char *problems;
    } cases[] = {
        {"\"some\"", -1, "spec@-1:-"},
        {"3", -1, "spec@-1:-"},
        {"[]", -1, "empty-list@-1:-"},
        {"[\"a\", 7, \"x\", \"b\"]", -1, "string@1:- unknown@2:-"},
        {"{}", -1, "no-bound@-1:-"},
        {"{\"from\": \"x\", \"before\": true}", -1, "unknown@0:from string@1:before"},
        {"{\"fro\": \"a\", \"before\": \"c\", \"x\": 1}", 0, "member@0:fro member@2:x"},
        {"{\"fro\": \"a\"}", -1, "member@0:fro no-bound@-1:-"},
        {"{\"from\": \"c\", \"before\": \"c\"}", -1, "empty-range@-1:-"},
        {"{\"from\": \"d\", \"before\": \"a\"}", -1, "empty-range@-1:-"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct buf problems = BUF_INIT;
        ver_mask m = 0;
        int rc = parse(cases[i].json, &m, &problems);
        ck_assert_msg(rc == cases[i].rc, "%s: returned %d", cases[i].json, rc);
        ck_assert_msg(!strcmp(buf_str(&problems), cases[i].problems), "%s: problems \"%s\", want \"%s\"",
                      cases[i].json, buf_str(&problems), cases[i].problems);
        buf_release(&problems);
    }
    /* a range with stray members still names its set (they are reported, then ignored) */
    struct buf problems = BUF_INIT;
    ver_mask m = 0;
    ck_assert_int_eq(parse("{\"fro\": \"a\", \"before\": \"c\"}", &m, &problems), 0);
    ck_assert_uint_eq(m, 0x3);
    buf_release(&problems);
    /* absent, and no reporter */
    ck_assert_int_eq(ver_spec_parse(&abcd, NULL, &m, NULL, NULL), -1);
}
END_TEST

Suite *ver_suite(void)
{
    Suite *s = suite_create("ver");
    TCase *tc = tcase_create("ver");
    tcase_add_test(tc, spec_format);
    tcase_add_test(tc, spec_parse_valid);
    tcase_add_test(tc, spec_parse_problems);
    suite_add_tcase(s, tc);
    return s;
}
