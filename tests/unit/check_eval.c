/* check_eval.c - the interpreter: each predicate on passing and failing values, version
 * applicability and merging, `first` and `when`, message placeholders, and a rule set
 * written only for this test (tests/data/rules-extra) that needs no C change. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "testutil.h"
#include "util.h"

#define RULE(check) \
    "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n" \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n" \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check "\n"

static const struct {
    const char *pred;   /* YAML flow mapping */
    const char *value;  /* JSON */
    int holds;
} preds[] = {
    {"{json-type: object}", "{}", 1},
    {"{json-type: object}", "[]", 0},
    {"{json-type: [string, null]}", "null", 1},
    {"{json-type: integer}", "1.0", 1},
    {"{json-type: integer}", "1.5", 0},
    {"{json-type: number}", "3", 1},
    {"{json-type: boolean}", "false", 1},
    {"{json-type: boolean}", "0", 0},
    {"{declared-type-is: object}", "{\"type\": \"object\"}", 1},
    {"{declared-type-is: object}", "{\"type\": [\"object\"]}", 0},
    {"{declared-type-is: object}", "true", 0},
    {"{declared-type-includes: object}", "{\"type\": [\"null\", \"object\"]}", 1},
    {"{declared-type-includes: object}", "{\"type\": \"object\"}", 1},
    {"{declared-type-includes: object}", "{\"type\": [\"string\"]}", 0},
    {"{declared-type-includes: object}", "{}", 0},
    {"{has: [a, b]}", "{\"a\": 1, \"b\": null}", 1},
    {"{has: [a, b]}", "{\"a\": 1}", 0},
    {"{has: a}", "[\"a\"]", 0},
    {"{lacks: type}", "{\"a\": 1}", 1},
    {"{lacks: type}", "true", 1},
    {"{lacks: [x, type]}", "{\"type\": 1}", 0},
    {"{equals: 1}", "1.0", 1},
    {"{equals: {a: [1, b]}}", "{\"a\": [1.0, \"b\"]}", 1},
    {"{equals: false}", "0", 0},
    {"{one-of: [a, 2]}", "2", 1},
    {"{one-of: [a, 2]}", "\"b\"", 0},
    {"{all: [{json-type: object}, {has: a}]}", "{\"a\": 0}", 1},
    {"{all: [{json-type: object}, {has: a}]}", "{}", 0},
    {"{any: [{json-type: string}, {has: a}]}", "{}", 0},
    {"{any: [{json-type: string}, {has: a}]}", "\"s\"", 1},
    {"{not: {json-type: object}}", "[]", 1},
    {"{every: {select: 'properties/*', require: {json-type: object}}}", "{\"properties\": {\"a\": {}, \"b\": {}}}", 1},
    {"{every: {select: 'properties/*', require: {json-type: object}}}", "{\"properties\": {\"a\": {}, \"b\": true}}", 0},
    {"{every: {select: 'properties/*', require: {json-type: object}}}", "{}", 1},
    {"{some: {select: 'required/*', require: {equals: id}}}", "{\"required\": [\"x\", \"id\"]}", 1},
    {"{some: {select: 'required/*', require: {equals: id}}}", "{\"required\": [\"x\"]}", 0},
    {"{some: {select: 'a/0'}}", "{\"a\": [0]}", 1},
    {"{some: {select: 'a/0'}}", "{\"a\": []}", 0},
};

START_TEST(predicate_holds_or_not)
{
    char *rule = xasprintf(RULE("{select: /x, require: %s, message: m}"), preds[_i].pred);
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs != NULL, "case %d: %s", _i, errs.len ? errs.items[0].message : "");
    char *json = xasprintf("{\"x\": %s}", preds[_i].value);
    tu_eval(rs, json, &out);
    ck_assert_msg((out.len == 0) == preds[_i].holds, "case %d: %s on %s: expected %s", _i, preds[_i].pred,
                  preds[_i].value, preds[_i].holds ? "pass" : "fail");
    diag_list_release(&out);
    rule_set_free(rs);
    free(json);
    free(rule);
}
END_TEST

static struct rule_set *load(const char *text)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(text, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "");
    return rs;
}

/* One node failing for several versions is one diagnostic listing them, oldest first;
 * `first` gives each version the first failing branch only. */
START_TEST(versions_merge_and_first_branch_wins)
{
    struct rule_set *rs = load(RULE(
        "\n      select: /tools/*/inputSchema\n      first:\n"
        "        - {require: {json-type: object}, message: not-object}\n"
        "        - {versions: {before: 2025-11-25}, require: {declared-type-is: object}, message: not-literal}\n"
        "        - {versions: [2026-07-28], require: {has: type}, message: no-type}"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\", \"2026-07-28\"], \"tools\": [\n"
            " {\"inputSchema\": true},\n"
            " {\"inputSchema\": {\"$ref\": \"#/x\"}},\n"
            " {\"protocolVersions\": [\"2025-11-25\"], \"inputSchema\": {}}]}",
            &out);
    ck_assert_uint_eq(out.len, 3);
    ck_assert_str_eq(out.items[0].message, "not-object");
    ck_assert_uint_eq(out.items[0].versions, 0x1C);
    ck_assert_str_eq(out.items[0].pointer, "/tools/0/inputSchema");
    /* same node: ordered by message */
    ck_assert_str_eq(out.items[1].message, "no-type");
    ck_assert_uint_eq(out.items[1].versions, 0x10);
    ck_assert_str_eq(out.items[1].pointer, "/tools/1/inputSchema");
    ck_assert_str_eq(out.items[2].message, "not-literal");
    ck_assert_uint_eq(out.items[2].versions, 0x04);
    diag_list_release(&out);
    /* --protocol-version narrows what is judged */
    doc *d = tu_doc("{\"tools\": [{\"inputSchema\": true}]}");
    struct eval_options eo = {0x01 | 0x10, NULL, NULL, NULL};
    eval_document(rs, d, &eo, &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_uint_eq(out.items[0].versions, 0x11);
    diag_list_release(&out);
    doc_free(d);
    rule_set_free(rs);
}
END_TEST

START_TEST(when_guards_and_placeholders)
{
    struct rule_set *rs = load(RULE(
        "\n      select: /tools/*/inputSchema/properties/*\n"
        "      when: {json-type: boolean}\n"
        "      require: {equals: true}\n"
        "      message: '{key} at {pointer} is {value} ({type}) for {versions}; keep {\"not\": {}}'\n"
        "      hint: 'fix {key}'"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2026-07-28\"], \"tools\": [{\"inputSchema\": {\"properties\": "
            "{\"a/b\": false, \"c\": {}, \"d\": true}}}]}",
            &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].message,
                     "a/b at /tools/0/inputSchema/properties/a~1b is false (boolean) for 2026-07-28; keep {\"not\": {}}");
    ck_assert_str_eq(out.items[0].hint, "fix a/b");
    ck_assert_uint_eq(out.items[0].line, 1);
    ck_assert_uint_eq(out.items[0].col, 87);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* A rule set written for this test alone, with a protocol version the shipped set does
 * not know yet: loaded and run by the same binary code. */
START_TEST(new_rules_need_no_c_change)
{
    char *dir = xasprintf("%s/rules-extra", tu_data_dir());
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "");
    ck_assert_uint_eq(rule_set_count(rs), 2);
    ck_assert_uint_eq(rule_set_versions(rs)->n, 6);
    tu_eval(rs,
            "{\"protocolVersions\": [\"2026-07-28\", \"2027-03-01\"], \"tools\": [\n"
            "  {\"name\": \"a\", \"inputSchema\": {\"type\": \"object\"}},\n"
            "  {\"name\": \"b\", \"description\": \"\", \"inputSchema\": {\"additionalProperties\": false}}]}",
            &out);
    ck_assert_uint_eq(out.len, 3);
    ck_assert_str_eq(out.items[0].rule, "acme.tool.description.present");
    ck_assert_str_eq(out.items[0].message, "tool 0 has no description");
    ck_assert_str_eq(out.items[1].rule, "acme.tool.input-schema.closed");
    ck_assert_str_eq(out.items[1].message, "inputSchema does not set \"additionalProperties\": false (2026-07-28, 2027-03-01)");
    ck_assert_uint_eq(out.items[1].level, DIAG_INFO);
    ck_assert_str_eq(out.items[2].message, "the description of this tool is empty");
    ck_assert_str_eq(out.items[2].pointer, "/tools/1/description");
    diag_list_release(&out);
    rule_set_free(rs);
    free(dir);
}
END_TEST

Suite *eval_suite(void)
{
    Suite *s = suite_create("eval");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, predicate_holds_or_not, 0, (int)(sizeof preds / sizeof *preds));
    tcase_add_test(tc, versions_merge_and_first_branch_wins);
    tcase_add_test(tc, when_guards_and_placeholders);
    tcase_add_test(tc, new_rules_need_no_c_change);
    suite_add_tcase(s, tc);
    return s;
}

/* The schema-engine predicates: valid-schema, dialect-in, matches-schema, {detail}. */
/* The rule set of a rule file (RULE text) with the JSON Schema point.json beside it;
 * *DIR is its temporary directory (tu_rmdir it). */
static struct rule_set *load_with_point(const char *rule_text, const char *point_json, char **dir)
{
    const char *files[] = {"test.yaml", "point.json"};
    const char *texts[] = {rule_text, point_json};
    *dir = tu_rule_dir(files, texts, 2);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(*dir, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "");
    diag_list_release(&errs);
    return rs;
}

START_TEST(schema_predicates)
{
    char *dir;
    struct rule_set *rs = load_with_point(
        RULE("\n      all:\n"
             "        - select: /tools/*/inputSchema\n"
             "          first:\n"
             "            - {require: {dialect-in: [2020-12, draft-07]}, message: 'unsupported dialect {detail}'}\n"
             "            - {require: {valid-schema: 2020-12}, message: 'invalid schema: {detail}'}\n"
             "        - select: /x\n"
             "          require: {matches-schema: point.json}\n"
             "          message: 'not a point: {detail}'"),
        "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": \"object\","
        " \"required\": [\"x\"], \"properties\": {\"x\": {\"type\": \"number\"}}}",
        &dir);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"x\": {\"x\": \"1\"}, \"tools\": [\n"
            " {\"inputSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"minLength\": -1}}}},\n"
            " {\"inputSchema\": {\"$schema\": \"http://json-schema.org/draft-03/schema#\"}},\n"
            " {\"inputSchema\": {\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"type\": \"object\","
            " \"properties\": {\"p\": {\"pattern\": \"([a-z\"}}}},\n"
            " {\"inputSchema\": {\"type\": \"object\"}}]}",
            &out);
    ck_assert_uint_eq(out.len, 4);
    ck_assert_str_eq(out.items[0].pointer, "/x");
    ck_assert_ptr_nonnull(strstr(out.items[0].message, "not a point: "));
    ck_assert_ptr_nonnull(strstr(out.items[0].message, "/x"));
    ck_assert_str_eq(out.items[1].pointer, "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(strstr(out.items[1].message, "invalid schema: "));
    ck_assert_ptr_nonnull(strstr(out.items[1].message, "/properties/a/minLength"));
    ck_assert_str_eq(out.items[2].message, "unsupported dialect http://json-schema.org/draft-03/schema#");
    ck_assert_str_eq(out.items[3].pointer, "/tools/2/inputSchema");
    diag_list_release(&out);
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

/* report-at: failure moves the diagnostic to the value where matches-schema failed
 * (through escaped member names and array items); a "required" failure stays at the
 * judged object; the default reports at the judged node. */
START_TEST(report_at_failure)
{
    char *dir;
    struct rule_set *rs = load_with_point(
        RULE("\n      all:\n"
             "        - {select: '/at/*', require: {matches-schema: point.json}, report-at: failure,\n"
             "           message: '{key}={value}: {detail}'}\n"
             "        - {select: /node, require: {matches-schema: point.json}, message: 'n {detail}'}"),
        "{\"type\": \"object\", \"required\": [\"x\"], \"additionalProperties\": false,"
        " \"properties\": {\"x\": {\"type\": \"number\"}, \"pts\": {\"items\": {\"type\": \"number\"}}}}",
        &dir);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"at\": [\n"
            "  {\"x\": \"1\"},\n"
            "  {\"pts\": [1, 2]},\n"
            "  {\"x\": 1, \"pts\": [1,\n    \"b\"]},\n"
            "  {\"x\": 1, \"a/b\": 0},\n"
            "  {\"x\": 2}],\n"
            " \"node\": {\"x\": true}}",
            &out);
    ck_assert_uint_eq(out.len, 5);
    ck_assert_str_eq(out.items[0].pointer, "/at/0/x");
    ck_assert_uint_eq(out.items[0].line, 2);
    ck_assert_uint_eq(out.items[0].col, 9);
    ck_assert_ptr_nonnull(strstr(out.items[0].message, "x=\"1\": "));
    ck_assert_str_eq(out.items[1].pointer, "/at/1"); /* required "x": the object itself */
    ck_assert_str_eq(out.items[2].pointer, "/at/2/pts/1");
    ck_assert_uint_eq(out.items[2].line, 5);
    ck_assert_uint_eq(out.items[2].col, 5);
    ck_assert_ptr_nonnull(strstr(out.items[2].message, "1=\"b\": "));
    ck_assert_str_eq(out.items[3].pointer, "/at/3/a~1b");
    ck_assert_ptr_nonnull(strstr(out.items[3].message, "a/b=0: "));
    ck_assert_str_eq(out.items[4].pointer, "/node"); /* the default: the judged node */
    diag_list_release(&out);
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

Suite *eval_schema_suite(void)
{
    Suite *s = suite_create("eval_schema");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, schema_predicates);
    tcase_add_test(tc, report_at_failure);
    suite_add_tcase(s, tc);
    return s;
}
