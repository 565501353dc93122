/* check_rule_dump.c - `mcpdesc rules dump` (rule_dump.c): the exact listing of a small
 * program that holds every kind of compiled part (versions narrower than the parent's
 * only, `use` resolved, quantifiers, unique's options, a schema file path normalized
 * relative to the rule set, quoting), its JSON form, the rule order and the refusal of
 * an unknown id (nothing written), and the "did you mean" suggestion. The CLI goldens
 * (tests/cli/rules-dump-*) cover the shipped rules. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/util.h"

#define RULE(ID, APPLIES, CHECK)                                                                   \
    "  - id: " ID "\n"                                                                             \
    "    owner: test\n    surface: Tool\n    kind: structural\n    level: should\n"                \
    "    status: stable\n    enforcement: internal\n    applies: " APPLIES "\n"                    \
    "    summary: s\n    requirement: r\n"                                                         \
    "    based-on: [{tier: 1, text: test}]\n"                                                      \
    "    check: " CHECK "\n"

/* The schema file is named through the rule set's parent ("../BASE/../BASE//./tool.json", BASE
 * the set's own directory) to show the path as the dump normalizes it. */
static const char *rules_fmt =
    "predicates:\n"
    "  named: {all: [{json-type: [object, null]}, {matches: '^it''s$'}]}\n"
    "rules:\n" RULE(
        "test.b", "{from: 2025-06-18}",
        "{select: ['/tools/[*]', '/x/**/y'], first: ["
        "{require: {use: named}, message: 'a ''quoted'' {value}', hint: h},"
        "{versions: {from: 2025-06-18}, require: {has: name}, message: m2},"
        "{versions: [2025-11-25], when: {every: {select: 'p/*', require: {format: uri}}},"
        " require: {unique: {select: /tools/*/name, up: 2, ignore-case: true}}, message: m3},"
        "{require: {matches-schema: {file: '../%s/../%s//./tool.json', without: "
        "[protocolVersions]}},"
        " report-at: failure, message: m4}]}") "    yields-to: [test.a]\n" RULE("test.a", "all",
                                                                                "{require: {some: "
                                                                                "{select: tools}}, "
                                                                                "message: m}");

static const char *expected_b =
    "rule test.b\n"
    "  file       test.yaml:4:5\n"
    "  level      should (warning)\n"
    "  applies    2025-06-18, 2025-11-25, 2026-07-28 (mask 0x1c)\n"
    "  yields-to  test.a\n"
    "  check\n"
    "    select     /tools/[*] (absolute, [*])\n"
    "               /x/**/y (absolute, **)\n"
    "    first      4 checks: for each version, only the first that fails reports\n"
    "      check 1\n"
    "        require    use named =\n"
    "                     all\n"
    "                       json-type object, null\n"
    "                       matches '^it''s$'\n"
    "        message    'a ''quoted'' {value}'\n"
    "        hint       'h'\n"
    "      check 2\n" /* versions as wide as the rule's: not shown */
    "        require    has [\"name\"]\n"
    "        message    'm2'\n"
    "      check 3\n"
    "        versions   2025-11-25 (mask 0x8)\n"
    "        when       every select p/* (relative, *)\n"
    "                     require format \"uri\"\n"
    "        require    unique select /tools/*/name (absolute, *) up 2 ignore-case\n"
    "        message    'm3'\n"
    "      check 4\n"
    "        require    matches-schema ../%s/tool.json without [\"protocolVersions\"]\n"
    "        report-at  failure\n"
    "        message    'm4'\n";

static struct rule_set *load(char **base)
{
    const char *files[] = {"test.yaml", "tool.json"};
    const char *texts[] = {"rules: []\n", "{\"type\": \"object\"}"};
    char *dir = tu_rule_dir(files, texts, 2);
    *base = xstrdup(strrchr(dir, '/') + 1);
    char *path = xasprintf("%s/test.yaml", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, rules_fmt, *base, *base);
    fclose(f);
    free(path);
    struct rule_set *rs = tu_load_ok(dir);
    tu_rmdir(dir);
    return rs;
}

/* The dump of IDS as a new string (NULL when rule_dump_write refuses), *written: bytes. */
static char *dump(const struct rule_set *rs, const char *const *ids, size_t n,
                  enum rule_dump_format fmt, size_t *written)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    int rc = rule_dump_write(rs, ids, n, fmt, f);
    fclose(f);
    *written = len;
    if (rc < 0) {
        free(text);
        return NULL;
    }
    return text;
}

START_TEST(text_listing_of_every_part)
{
    char *base;
    struct rule_set *rs = load(&base);
    const char *ids[] = {"test.b"};
    size_t len;
    char *text = dump(rs, ids, 1, RULE_DUMP_TEXT, &len);
    char *want = xasprintf(expected_b, base);
    /* the test set has no lock: it is named as modified */
    const char *head = "# rule set test v0.0.0-test+modified\n"
                       "# versions 2024-11-05=0x1, 2025-03-26=0x2, 2025-06-18=0x4, 2025-11-25=0x8, "
                       "2026-07-28=0x10\n\n";
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(!strncmp(text, head, strlen(head)), "head:\n%s", text);
    ck_assert_str_eq(text + strlen(head), want);
    free(want);
    free(text);
    free(base);
    rule_set_free(rs);
}
END_TEST

START_TEST(rule_order_and_unknown_ids)
{
    char *base;
    struct rule_set *rs = load(&base);
    size_t len;
    /* ids in any order, repeated: each rule once, in the set's order (test.b first) */
    const char *ids[] = {"test.a", "test.b", "test.a"};
    char *text = dump(rs, ids, 3, RULE_DUMP_TEXT, &len);
    ck_assert_ptr_nonnull(text);
    char *b = strstr(text, "\nrule test.b\n"), *a = strstr(text, "\nrule test.a\n");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert(b < a);
    ck_assert_ptr_null(strstr(a + 1, "\nrule test.a\n"));
    ck_assert_ptr_nonnull(
        strstr(a, "    require    some select tools (relative)\n    message    'm'\n"));
    free(text);
    /* no id: every rule */
    text = dump(rs, NULL, 0, RULE_DUMP_TEXT, &len);
    ck_assert_ptr_nonnull(strstr(text, "\nrule test.b\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nrule test.a\n"));
    free(text);
    /* an unknown id: refused, nothing written */
    const char *bad[] = {"test.a", "test.c"};
    ck_assert_ptr_null(dump(rs, bad, 2, RULE_DUMP_TEXT, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(rule_set_suggest(rs, "test.c"), "test.b");
    ck_assert_str_eq(rule_set_suggest(rs, "b"), "test.b"); /* contained in an id */
    ck_assert_ptr_null(rule_set_suggest(rs, "nothing.like.it"));
    free(base);
    rule_set_free(rs);
}
END_TEST

START_TEST(json_form)
{
    char *base;
    struct rule_set *rs = load(&base);
    size_t len;
    const char *ids[] = {"test.b"};
    char *text = dump(rs, ids, 1, RULE_DUMP_JSON, &len);
    json_error_t err;
    json_t *top = json_loads(text, 0, &err);
    ck_assert_msg(top != NULL, "not JSON: %s", err.text);
    json_t *r = json_array_get(json_object_get(top, "rules"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(r, "id")), "test.b");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "applies"), "mask")),
                     "0x1c");
    json_t *first = json_object_get(json_object_get(r, "check"), "first");
    ck_assert_uint_eq(json_array_size(first), 4);
    ck_assert_ptr_null(json_object_get(json_array_get(first, 1), "versions"));
    json_t *use = json_object_get(json_array_get(first, 0), "require");
    ck_assert_str_eq(json_string_value(json_object_get(use, "name")), "named");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(use, "body"), "predicate")),
                     "all");
    json_t *ms = json_object_get(json_array_get(first, 3), "require");
    char *want = xasprintf("../%s/tool.json", base);
    ck_assert_str_eq(json_string_value(json_object_get(ms, "file")), want);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(first, 3), "report-at")),
                     "failure");
    free(want);
    json_decref(top);
    free(text);
    free(base);
    rule_set_free(rs);
}
END_TEST

Suite *rule_dump_suite(void)
{
    Suite *s = suite_create("rule_dump");
    TCase *tc = tcase_create("dump");
    tcase_add_test(tc, text_listing_of_every_part);
    tcase_add_test(tc, rule_order_and_unknown_ids);
    tcase_add_test(tc, json_form);
    suite_add_tcase(s, tc);
    return s;
}
