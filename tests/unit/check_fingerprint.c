/* check_fingerprint.c - findings' stable identities (findings/fingerprint.h): the canonical
 * string pinned by a known value, the item named by its identity member (the index only
 * without one), the same item moved or with others inserted keeps its fingerprint, and a
 * different pointer, rule, file or version set gives another one; related places do not
 * count. */
#include <check.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "findings/fingerprint.h"
#include "judge/judge.h"
#include "testutil.h"
#include "base/util.h"

#define RULES                                                                                      \
    "rules:\n  - id: t.desc\n    owner: t\n    surface: Tool\n    kind: structural\n"              \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/*', require: {has: description}, message: 'no description'}\n"

static struct rule_set *rules(void)
{
    return tu_rules_ok(RULES);
}

/* Judge TEXT as NAME and fingerprint its findings (as validate does). */
static void judged(const struct rule_set *rs, const char *name, const char *text,
                   struct judge_result *out)
{
    struct judge_source src = {JUDGE_BUFFER, name, NULL, text, strlen(text)};
    judge_document(rs, &src, NULL, out);
    ck_assert_ptr_nonnull(out->d);
    fingerprint_diags(rs, out->d, NULL, name, &out->diags);
}

START_TEST(test_canonical_string)
{
    /* 2:v1,6:t.desc,8:a/b.json,15:tools[name="a"],12:/inputSchema,21:2025-06-18,2025-11-25,
     * a baseline written today must match tomorrow: this value may never change */
    char *fp = fingerprint_make("t.desc", "a/b.json", "tools[name=\"a\"]", "/inputSchema",
                                "2025-06-18,2025-11-25");
    ck_assert_str_eq(fp, "v1:7378e3e14e56451965b18a48ca4bf7524b9dbe3b409adafef74f0d819d8df16a");
    /* each part counts */
    const char *other[][5] = {
        {"t.other", "a/b.json", "tools[name=\"a\"]", "/inputSchema", "2025-06-18,2025-11-25"},
        {"t.desc", "a/c.json", "tools[name=\"a\"]", "/inputSchema", "2025-06-18,2025-11-25"},
        {"t.desc", "a/b.json", "tools[name=\"b\"]", "/inputSchema", "2025-06-18,2025-11-25"},
        {"t.desc", "a/b.json", "tools[name=\"a\"]", "/outputSchema", "2025-06-18,2025-11-25"},
        {"t.desc", "a/b.json", "tools[name=\"a\"]", "/inputSchema", "2025-06-18"},
        /* the length prefixes keep parts from running into each other */
        {"t.desc", "a/b.json", "tools[name=\"a\"]/inputSchema", "", "2025-06-18,2025-11-25"},
    };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        char *o = fingerprint_make(other[i][0], other[i][1], other[i][2], other[i][3], other[i][4]);
        ck_assert_str_ne(o, fp);
        free(o);
    }
    free(fp);
}
END_TEST

START_TEST(test_file_names)
{
    const char *cases[][2] = {
        {"a.json", "a.json"},         {"./a.json", "a.json"}, {"a//b/./c.json", "a/b/c.json"},
        {"/x/./y.json", "/x/y.json"}, {"<stdin>", "<stdin>"}, {".", "."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *n = fingerprint_file("/cwd", cases[i][0]);
        ck_assert_str_eq(n, cases[i][1]);
        free(n);
    }
    /* a file named by its absolute path inside the working directory: as if relative, so
     * a baseline holds in every checkout */
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *abs = xasprintf("%s/sub/./a.json", cwd), *n = fingerprint_file(cwd, abs);
    ck_assert_str_eq(n, "sub/a.json");
    free(n);
    /* the working directory is the one given, not asked again; none: kept absolute */
    n = fingerprint_file("/elsewhere", abs);
    ck_assert_ptr_eq(strstr(n, "/./"), NULL);
    ck_assert_int_eq(n[0], '/');
    free(n);
    n = fingerprint_file(NULL, "/cwd/a.json");
    ck_assert_str_eq(n, "/cwd/a.json");
    free(n);
    n = fingerprint_file_from("/w/d", "/w", "x/../a.json");
    ck_assert_str_eq(n, "d/a.json");
    free(n);
    free(abs);
}
END_TEST

START_TEST(test_items)
{
    struct rule_set *rs = rules();
    doc *d = tu_doc("{\"serverInfo\": {\"name\": \"s\"},"
                    " \"tools\": [{\"name\": \"a\"}, {\"title\": \"nameless\"}, {\"name\": 7}],"
                    " \"resources\": [{\"uri\": \"file:///r\", \"name\": \"r\"}],"
                    " \"resourceTemplates\": [{\"uriTemplate\": \"x://{id}\", \"name\": \"t\"}],"
                    " \"prompts\": [{\"name\": \"p\\\"q\"}]}");
    struct fingerprint_items *fi = fingerprint_items_new(rs, d);
    const struct {
        const char *pointer, *item, *inner;
    } cases[] = {
        {"/tools/0/inputSchema/properties/x", "tools[name=\"a\"]", "/inputSchema/properties/x"},
        {"/tools/0", "tools[name=\"a\"]", ""},
        {"/tools/1/title", "tools[1]", "/title"}, /* no name: the index */
        {"/tools/2/name", "tools[2]", "/name"},   /* a name that is no string */
        {"/tools/9/name", "/tools", "/9/name"},   /* no such item */
        {"/tools", "/tools", ""},
        {"/resources/0/mimeType", "resources[uri=\"file:///r\"]", "/mimeType"},
        {"/resourceTemplates/0", "resourceTemplates[uriTemplate=\"x://{id}\"]", ""},
        {"/prompts/0/arguments", "prompts[name=\"p\\\"q\"]", "/arguments"},
        {"/serverInfo/name", "/serverInfo", "/name"},
        {"/capabilities", "/capabilities", ""},
        {"", "", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *inner = NULL;
        const char *item = fingerprint_item(fi, cases[i].pointer, &inner);
        ck_assert_str_eq(item, cases[i].item);
        ck_assert_str_eq(inner, cases[i].inner);
    }
    /* asked again: the same string, worked out once */
    const char *inner, *again = fingerprint_item(fi, "/tools/0/description", &inner);
    ck_assert_ptr_eq(again, fingerprint_item(fi, "/tools/0", &inner));
    fingerprint_items_free(fi);
    doc_free(d);
    rule_set_free(rs);
}
END_TEST

START_TEST(test_moved_item_keeps_its_fingerprint)
{
    struct rule_set *rs = rules();
    struct judge_result a, b, c;
    judged(rs, "s.json",
           "{\"tools\": [{\"name\": \"x\"}, {\"name\": \"y\", \"description\": \"d\"}]}", &a);
    /* x moved last, another tool with its own finding inserted first */
    judged(rs, "./s.json",
           "{\"tools\": [{\"name\": \"new\"}, {\"name\": \"y\", \"description\": \"d\"},"
           " {\"name\": \"x\"}]}",
           &b);
    ck_assert_uint_eq(a.diags.len, 1);
    ck_assert_uint_eq(b.diags.len, 2);
    ck_assert_str_eq(a.diags.items[0].pointer, "/tools/0");
    ck_assert_str_eq(b.diags.items[1].pointer, "/tools/2");
    ck_assert_str_eq(a.diags.items[0].fingerprint, b.diags.items[1].fingerprint);
    ck_assert_str_ne(a.diags.items[0].fingerprint, b.diags.items[0].fingerprint);
    ck_assert_int_eq(strncmp(a.diags.items[0].fingerprint, "v1:", 3), 0);
    ck_assert_uint_eq(strlen(a.diags.items[0].fingerprint), 3 + 64);
    /* the same item in another file is another finding */
    judged(rs, "t.json", "{\"tools\": [{\"name\": \"x\"}]}", &c);
    ck_assert_str_ne(a.diags.items[0].fingerprint, c.diags.items[0].fingerprint);
    judge_result_release(&a);
    judge_result_release(&b);
    judge_result_release(&c);
    rule_set_free(rs);
}
END_TEST

/* A finding's identity is its own place: the other places it concerns (validate
 * --together's related places) are not part of it. */
START_TEST(test_related_places_are_not_identity)
{
    struct rule_set *rs = rules();
    struct judge_result a;
    judged(rs, "s.json", "{\"tools\": [{\"name\": \"x\"}]}", &a);
    ck_assert_uint_eq(a.diags.len, 1);
    char *before = xstrdup(a.diags.items[0].fingerprint);
    diag_add_related(&a.diags.items[0], "b.json", 4, 15, "/tools/0/name",
                     "the tool \"x\" of b.json");
    fingerprint_diags(rs, a.d, NULL, "s.json", &a.diags);
    ck_assert_str_eq(a.diags.items[0].fingerprint, before);
    free(before);
    judge_result_release(&a);
    rule_set_free(rs);
}
END_TEST

Suite *fingerprint_suite(void)
{
    Suite *s = suite_create("fingerprint");
    TCase *tc = tcase_create("fingerprint");
    tcase_add_test(tc, test_canonical_string);
    tcase_add_test(tc, test_file_names);
    tcase_add_test(tc, test_items);
    tcase_add_test(tc, test_moved_item_keeps_its_fingerprint);
    tcase_add_test(tc, test_related_places_are_not_identity);
    suite_add_tcase(s, tc);
    return s;
}
