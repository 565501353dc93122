/* check_eval.c - the interpreter: each predicate on passing and failing values, version
 * applicability and merging, `first` and `when`, message placeholders, and a rule set
 * written only for this test (tests/data/rules-extra) that needs no C change. */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "judge/eval.h"
#include "testutil.h"
#include "base/util.h"

#define RULE(check)                                                                                \
    "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n"                 \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check  \
    "\n"

static const struct {
    const char *pred;  /* YAML flow mapping */
    const char *value; /* JSON */
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
    {"{every: {select: 'properties/*', require: {json-type: object}}}",
     "{\"properties\": {\"a\": {}, \"b\": {}}}", 1},
    {"{every: {select: 'properties/*', require: {json-type: object}}}",
     "{\"properties\": {\"a\": {}, \"b\": true}}", 0},
    {"{every: {select: 'properties/*', require: {json-type: object}}}", "{}", 1},
    {"{some: {select: 'required/*', require: {equals: id}}}", "{\"required\": [\"x\", \"id\"]}", 1},
    {"{some: {select: 'required/*', require: {equals: id}}}", "{\"required\": [\"x\"]}", 0},
    {"{some: {select: 'a/0'}}", "{\"a\": [0]}", 1},
    {"{some: {select: 'a/0'}}", "{\"a\": []}", 0},
    /* format boundaries found by tools/mutate-source (check_fn.c has the others) */
    {"{format: iso-8601}", "\"2020-W53-7\"", 1},
    {"{format: iso-8601}", "\"2020-W53\"", 1},
    {"{format: iso-8601}", "\"2025-01-12T15:00:58Zjunk\"", 0},
};

START_TEST(predicate_holds_or_not)
{
    char *rule = xasprintf(RULE("{select: /x, require: %s, message: m}"), preds[_i].pred);
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs != NULL, "case %d: %s", _i, errs.len ? errs.items[0].message : "");
    char *json = xasprintf("{\"x\": %s}", preds[_i].value);
    tu_eval(rs, json, &out);
    ck_assert_msg((out.len == 0) == preds[_i].holds, "case %d: %s on %s: expected %s", _i,
                  preds[_i].pred, preds[_i].value, preds[_i].holds ? "pass" : "fail");
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
    struct rule_set *rs =
        load(RULE("\n      select: /tools/*/inputSchema\n      first:\n"
                  "        - {require: {json-type: object}, message: not-object}\n"
                  "        - {versions: {before: 2025-11-25}, require: {declared-type-is: object}, "
                  "message: not-literal}\n"
                  "        - {versions: [2026-07-28], require: {has: type}, message: no-type}"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(
        rs,
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
    struct eval_options eo = {.versions = 0x01 | 0x10};
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
    struct rule_set *rs = load(RULE("\n      select: /tools/*/inputSchema/properties/*\n"
                                    "      when: {json-type: boolean}\n"
                                    "      require: {equals: true}\n"
                                    "      message: '{key} at {pointer} is {value} ({type}) for "
                                    "{versions}; keep {\"not\": {}}'\n"
                                    "      hint: 'fix {key}'"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(
        rs,
        "{\"protocolVersions\": [\"2026-07-28\"], \"tools\": [{\"inputSchema\": {\"properties\": "
        "{\"a/b\": false, \"c\": {}, \"d\": true}}}]}",
        &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].message,
                     "a/b at /tools/0/inputSchema/properties/a~1b is false (boolean) for "
                     "2026-07-28; keep {\"not\": {}}");
    ck_assert_str_eq(out.items[0].hint, "fix a/b");
    ck_assert_uint_eq(out.items[0].line, 1);
    ck_assert_uint_eq(out.items[0].col, 87);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* eval_options.judged: each node a rule judged after its `when`, with the versions judged
 * and failed (rules test's "not exercised" reads it). */
struct judged_seen {
    char seen[8][64];
    ver_mask judged[8], failed[8];
    size_t n;
};

static void record_judged(const struct rule *r, const char *pointer, int whole, ver_mask judged,
                          ver_mask failed, void *arg)
{
    struct judged_seen *js = arg;
    (void)r;
    (void)whole;
    if (js->n < 8) {
        snprintf(js->seen[js->n], sizeof js->seen[0], "%s", pointer);
        js->judged[js->n] = judged;
        js->failed[js->n++] = failed;
    }
}

START_TEST(judged_callback_names_the_judged_nodes)
{
    struct rule_set *rs = load(RULE("\n      select: /tools/*/inputSchema/properties/*\n"
                                    "      when: {json-type: boolean}\n"
                                    "      require: {equals: true}\n"
                                    "      message: m"));
    doc *d = tu_doc("{\"protocolVersions\": [\"2026-07-28\"], \"tools\": [{\"inputSchema\": "
                    "{\"properties\": {\"a\": false, \"c\": {}, \"d\": true}}}]}");
    struct judged_seen js = {.n = 0};
    struct eval_options eo = {.judged = record_judged, .judged_arg = &js};
    struct diag_list out = DIAG_LIST_INIT;
    eval_document(rs, d, &eo, &out);
    /* c is an object: its `when` fails, so it was never judged */
    ck_assert_uint_eq(js.n, 2);
    ck_assert_str_eq(js.seen[0], "/tools/0/inputSchema/properties/a");
    ck_assert_uint_eq(js.judged[0], 0x10);
    ck_assert_uint_eq(js.failed[0], 0x10);
    ck_assert_str_eq(js.seen[1], "/tools/0/inputSchema/properties/d");
    ck_assert_uint_eq(js.failed[1], 0);
    ck_assert_uint_eq(out.len, 1);
    diag_list_release(&out);
    doc_free(d);
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
            "  {\"name\": \"b\", \"description\": \"\", \"inputSchema\": "
            "{\"additionalProperties\": false}}]}",
            &out);
    ck_assert_uint_eq(out.len, 3);
    ck_assert_str_eq(out.items[0].rule, "acme.tool.description.present");
    ck_assert_str_eq(out.items[0].message, "tool 0 has no description");
    ck_assert_str_eq(out.items[1].rule, "acme.tool.input-schema.closed");
    ck_assert_str_eq(
        out.items[1].message,
        "inputSchema does not set \"additionalProperties\": false (2026-07-28, 2027-03-01)");
    ck_assert_uint_eq(out.items[1].level, DIAG_INFO);
    ck_assert_str_eq(out.items[2].message, "the description of this tool is empty");
    ck_assert_str_eq(out.items[2].pointer, "/tools/1/description");
    diag_list_release(&out);
    rule_set_free(rs);
    free(dir);
}
END_TEST

/* In `first`, a later branch judges only the versions no earlier branch failed, even
 * where its own versions overlap an earlier branch's. */
START_TEST(first_later_branch_gets_only_remaining_versions)
{
    struct rule_set *rs = load(RULE("\n      select: /tools/*/inputSchema\n      first:\n"
                                    "        - {versions: {before: 2026-07-28}, require: "
                                    "{declared-type-is: object}, message: not-literal}\n"
                                    "        - {require: {has: type}, message: no-type}"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\", \"2026-07-28\"], "
            "\"tools\": [{\"inputSchema\": {\"$ref\": \"#/x\"}}]}",
            &out);
    ck_assert_uint_eq(out.len, 2);
    ck_assert_str_eq(out.items[0].message, "no-type");
    ck_assert_uint_eq(out.items[0].versions, 0x10);
    ck_assert_str_eq(out.items[1].message, "not-literal");
    ck_assert_uint_eq(out.items[1].versions, 0x0C);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* `unique` fails only in the versions the two nodes share: when the clause judges none
 * of them there is no diagnostic at all (not one without versions). */
START_TEST(unique_outside_the_clause_versions_is_no_diagnostic)
{
    struct rule_set *rs =
        load(RULE("\n      select: /tools/*/name\n      versions: [2025-11-25]\n"
                  "      require: {unique: {select: /tools/*/name}}\n      message: dup"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\"], \"tools\": [\n"
            " {\"protocolVersions\": [\"2025-06-18\"], \"name\": \"a\"},\n"
            " {\"name\": \"a\"},\n"
            " {\"name\": \"b\"}]}",
            &out);
    ck_assert_uint_eq(out.len, 0);
    diag_list_release(&out);
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\"], \"tools\": [\n"
            " {\"name\": \"a\"},\n"
            " {\"name\": \"a\"}]}",
            &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].pointer, "/tools/1/name");
    ck_assert_uint_eq(out.items[0].versions, 0x08);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* {value} is the compact JSON text, cut to 57 characters and "..." only beyond 60. */
START_TEST(value_placeholder_cut_beyond_60_characters)
{
    struct rule_set *rs =
        load(RULE("{select: '/x/*', require: {json-type: object}, message: '{value}'}"));
    struct diag_list out = DIAG_LIST_INIT;
    char s58[59], s59[60];
    memset(s58, 'a', 58);
    s58[58] = '\0';
    memset(s59, 'b', 59);
    s59[59] = '\0';
    char *json = xasprintf("{\"x\": [\"%s\", \"%s\"]}", s58, s59);
    tu_eval(rs, json, &out);
    ck_assert_uint_eq(out.len, 2);
    char *want60 = xasprintf("\"%s\"", s58);     /* 60 characters: whole */
    char *want61 = xasprintf("\"%.56s...", s59); /* 61: 57 and "..." */
    ck_assert_str_eq(out.items[0].message, want60);
    ck_assert_str_eq(out.items[1].message, want61);
    free(want60);
    free(want61);
    free(json);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* {item} and {item-kind}: the enclosing item by its name, uri or uriTemplate (cut at 100
 * bytes), its pointer when it has none, and the node's pointer outside items; the same
 * in messages, hints and fix titles. */
START_TEST(item_placeholders_name_the_item)
{
    struct rule_set *rs = load(RULE("\n      select: ['/tools/*/inputSchema/properties/*', "
                                    "'/resources/*', /serverInfo]\n"
                                    "      require: {json-type: object}\n"
                                    "      message: '{item-kind} {item}: {key}'\n"
                                    "      hint: 'in {item}'\n"
                                    "      fix: {title: '{item-kind} {item}', replace: {}}"));
    struct diag_list out = DIAG_LIST_INIT;
    char long_name[131];
    memset(long_name, 'n', 130);
    long_name[130] = '\0';
    char *json = xasprintf("{\"serverInfo\": 1, \"tools\": [{\"name\": \"get\", "
                           "\"inputSchema\": {\"properties\": {\"a\": true}}}, "
                           "{\"inputSchema\": {\"properties\": {\"b\": 1}}}, {\"name\": \"%s\", "
                           "\"inputSchema\": {\"properties\": {\"c\": 2}}}], "
                           "\"resources\": [\"r\"]}",
                           long_name);
    tu_eval(rs, json, &out);
    ck_assert_uint_eq(out.len, 5);
    ck_assert_str_eq(out.items[0].message, "document /serverInfo: serverInfo");
    ck_assert_str_eq(out.items[1].message, "tool get: a");
    ck_assert_str_eq(out.items[1].hint, "in get");
    ck_assert_str_eq(out.items[1].fix_title, "tool get");
    ck_assert_str_eq(out.items[2].message, "tool /tools/1: b");
    char *want = xasprintf("tool %.97s...: c", long_name);
    ck_assert_str_eq(out.items[3].message, want);
    ck_assert_str_eq(out.items[4].message, "resource /resources/0: 0");
    free(want);
    free(json);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

static int all_but_dangling(const char *id, void *arg)
{
    (void)arg;
    return !id || strcmp(id, "mcpdesc.component-ref.dangling") != 0;
}

/* The enabled filter (--rule/--skip) applies to the built-in mcpdesc.* diagnostics too. */
START_TEST(enabled_filters_builtin_diagnostics)
{
    struct rule_set *rs = load(RULE("{select: /tools/*, require: {has: name}, message: unnamed}"));
    const char *json = "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"$componentRef\": "
                       "\"#/components/schemas/Gone\"}}]}";
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, json, &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].rule, "mcpdesc.component-ref.dangling");
    diag_list_release(&out);
    doc *d = tu_doc(json);
    struct eval_options eo = {.enabled = all_but_dangling};
    eval_document(rs, d, &eo, &out);
    ck_assert_uint_eq(out.len, 0);
    diag_list_release(&out);
    doc_free(d);
    rule_set_free(rs);
}
END_TEST

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
             "            - {require: {dialect-in: [2020-12, draft-07]}, message: 'unsupported "
             "dialect {detail}'}\n"
             "            - {require: {valid-schema: 2020-12}, message: 'invalid schema: "
             "{detail}'}\n"
             "        - select: /x\n"
             "          require: {matches-schema: point.json}\n"
             "          message: 'not a point: {detail}'"),
        "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": \"object\","
        " \"required\": [\"x\"], \"properties\": {\"x\": {\"type\": \"number\"}}}",
        &dir);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"x\": {\"x\": \"1\"}, \"tools\": [\n"
            " {\"inputSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"minLength\": "
            "-1}}}},\n"
            " {\"inputSchema\": {\"$schema\": \"http://json-schema.org/draft-03/schema#\"}},\n"
            " {\"inputSchema\": {\"$schema\": \"http://json-schema.org/draft-07/schema#\", "
            "\"type\": \"object\","
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
    ck_assert_str_eq(out.items[2].message,
                     "unsupported dialect http://json-schema.org/draft-03/schema#");
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
             "        - {select: '/at/*', require: {matches-schema: point.json}, report-at: "
             "failure,\n"
             "           message: '{key}={value}: {detail}'}\n"
             "        - {select: /node, require: {matches-schema: point.json}, message: 'n "
             "{detail}'}"),
        "{\"type\": \"object\", \"required\": [\"x\"], \"additionalProperties\": false,"
        " \"properties\": {\"x\": {\"type\": \"number\"}, \"pts\": {\"items\": {\"type\": "
        "\"number\"}}}}",
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

/* valid-schema names every failing value: under report-at: failure one diagnostic at
 * each (its own detail), otherwise one at the judged node whose detail is the one-line
 * summary (the first, where it is, how many more); a later predicate's failure is never
 * reported at valid-schema's places. */
START_TEST(report_at_every_failing_keyword)
{
    char *dir;
    struct rule_set *rs = load_with_point(
        RULE("\n      all:\n"
             "        - {select: /a, require: {valid-schema: 2020-12}, report-at: failure,\n"
             "           message: 'a {detail}'}\n"
             "        - {select: /b, require: {valid-schema: 2020-12}, message: 'b {detail}'}\n"
             "        - {select: /c, require: {any: [{valid-schema: 2020-12}, "
             "{matches-schema: point.json}]},\n"
             "           report-at: failure, message: 'c {detail}'}\n"
             "        - {select: /d, require: {keywords-spelt: 2020-12}, report-at: failure,\n"
             "           message: 'd {detail}'}"),
        "{\"type\": \"string\"}", &dir);
    struct diag_list out = DIAG_LIST_INIT;
    const char *bad =
        "{\"properties\": {\"q\": {\"type\": \"strng\"}, \"n\": {\"minimum\": \"1\"}}}";
    char *text =
        xasprintf("{\"a\": %s,\n \"b\": %s,\n \"c\": %s,\n"
                  " \"d\": {\"minimun\": 1, \"properties\": {\"minimun\": {\"maxLenght\": 2}}}}",
                  bad, bad, bad);
    tu_eval(rs, text, &out);
    free(text);
    ck_assert_uint_eq(out.len, 6);
    ck_assert_str_eq(out.items[0].pointer, "/a/properties/q/type");
    ck_assert_ptr_nonnull(strstr(out.items[0].message, "did you mean \"string\"?"));
    ck_assert_ptr_null(strstr(out.items[0].message, "more"));
    ck_assert_str_eq(out.items[1].pointer, "/a/properties/n/minimum");
    ck_assert_ptr_nonnull(strstr(out.items[1].message, "a minimum must be a number"));
    ck_assert_str_eq(out.items[2].pointer, "/b");
    ck_assert_ptr_nonnull(strstr(out.items[2].message, " at /properties/q/type; 1 more"));
    /* matches-schema failed last: its detail at its place, not valid-schema's places */
    ck_assert_str_eq(out.items[3].pointer, "/c");
    ck_assert_ptr_nonnull(strstr(out.items[3].message, "c expected string"));
    /* keywords-spelt: each near miss of a keyword, not the property named minimun */
    ck_assert_str_eq(out.items[4].pointer, "/d/minimun");
    ck_assert_str_eq(out.items[4].message,
                     "d unknown keyword \"minimun\": did you mean \"minimum\"?");
    ck_assert_str_eq(out.items[5].pointer, "/d/properties/minimun/maxLenght");
    diag_list_release(&out);
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

/* report-at: failure where the failing location is not below the judged node (an
 * `every` judged other nodes): the diagnostic stays at the deepest prefix of it that the
 * judged node has, never jumps to a later segment that happens to exist there. */
START_TEST(report_at_failure_keeps_the_existing_prefix)
{
    char *dir;
    struct rule_set *rs = load_with_point(
        RULE(
            "{select: /x, require: {every: {select: 'a/*', require: {matches-schema: point.json}}},"
            " report-at: failure, message: m}"),
        "{\"type\": \"object\", \"properties\": {\"pts\": {\"items\": {\"type\": \"number\"}}}}",
        &dir);
    struct diag_list out = DIAG_LIST_INIT;
    /* the failure is at /pts/1 of /x/a/0; /x has no "pts" but has a member "1" */
    tu_eval(rs, "{\"x\": {\"a\": [{\"pts\": [1, \"b\"]}], \"1\": true}}", &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].pointer, "/x");
    diag_list_release(&out);
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

/* ---- one walk of a large collection ------------------------------------------------
 * A collection is walked once for all the rules that select inside its items (eval.c);
 * the diagnostics must be those of rule by rule. */

#define RULE_N(id, check)                                                                          \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: structural\n"                      \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check  \
    "\n"

/* "rule@pointer:versions:message" for each diagnostic, space-separated (new string). */
static char *show_diags(const struct diag_list *l)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->len; i++)
        buf_addf(&b, "%s%s@%s:%x:%s", b.len ? " " : "", l->items[i].rule, l->items[i].pointer,
                 (unsigned)l->items[i].versions, l->items[i].message);
    return buf_detach(&b);
}

START_TEST(large_collections_walked_once_as_rule_by_rule)
{
    struct rule_set *rs = load(
        "rules:\n"
        /* a selector below the item ("rest"), and the item itself */
        RULE_N("t.a-schema",
               "{select: /tools/*/inputSchema, require: {json-type: object}, message: schema}")
            RULE_N("t.b-named", "{select: /tools/*, require: {has: name}, message: unnamed}")
        /* `first` without a selector is never split: a failing name hides every title */
        RULE_N("t.c-first",
               "{first: [{select: /tools/*/name, require: {json-type: string}, message: name},\n"
               "                   {select: /tools/*/title, require: {json-type: string}, message: "
               "title}]}")
        /* independent parts: one at the root, one inside the items of the other collection */
        RULE_N("t.d-parts",
               "{all: [{versions: [2026-07-28], require: {has: serverInfo}, message: root},\n"
               "                 {select: /resources/*/uri, require: {json-type: string}, message: "
               "uri}]}"));
    struct buf text = BUF_INIT;
    buf_adds(&text, "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\"],\n\"tools\": [\n");
    for (int i = 0; i < 70; i++) {
        if (i == 0 || i == 69) buf_addf(&text, "{\"name\": \"t%d\", \"inputSchema\": true}", i);
        else if (i == 5) buf_adds(&text, "{\"inputSchema\": {}}");
        else if (i == 7) buf_adds(&text, "{\"name\": 7, \"inputSchema\": {}}");
        else if (i == 8) buf_adds(&text, "{\"name\": \"t8\", \"title\": 8, \"inputSchema\": {}}");
        else buf_addf(&text, "{\"name\": \"t%d\", \"inputSchema\": {}}", i);
        buf_adds(&text, i < 69 ? ",\n" : "],\n\"resources\": [\n");
    }
    for (int i = 0; i < 70; i++) {
        if (i == 69) buf_adds(&text, "{\"uri\": 69}");
        else buf_addf(&text, "{\"uri\": \"u%d\"}", i);
        buf_adds(&text, i < 69 ? ",\n" : "]}\n");
    }
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, buf_str(&text), &out);
    char *got = show_diags(&out);
    const char *want = "t.a-schema@/tools/0/inputSchema:c:schema t.b-named@/tools/5:c:unnamed "
                       "t.c-first@/tools/7/name:c:name t.a-schema@/tools/69/inputSchema:c:schema "
                       "t.d-parts@/resources/69/uri:c:uri";
    ck_assert_msg(!strcmp(got, want), "got \"%s\", expected \"%s\"", got, want);
    free(got);
    diag_list_release(&out);
    buf_release(&text);
    rule_set_free(rs);
}
END_TEST

/* A "**" below the items of a large collection is bounded per item (SEL_DEEP_MAX_NODES
 * nodes): over the whole collection at once, the later items of a large document were
 * past the bound and silently left unjudged. 70 tools of 3,000 nodes each: the last
 * tool's finding is reported, on 1 and 2 threads. */
START_TEST(deep_selector_bound_is_per_item)
{
    struct rule_set *rs = load("rules:\n" RULE_N(
        "t.deep",
        "{select: '/tools/[*]/inputSchema/**/x-flag', require: {json-type: string}, "
        "message: flag}"));
    struct buf text = BUF_INIT;
    buf_adds(&text, "{\"protocolVersions\": [\"2025-06-18\"],\n\"tools\": [\n");
    for (int i = 0; i < 70; i++) {
        buf_addf(&text,
                 "{\"name\": \"t%d\", \"inputSchema\": {\"type\": \"object\", %s"
                 "\"properties\": {\"a\": {\"enum\": [",
                 i, i == 0 || i == 69 ? "\"x-flag\": 1, " : "");
        for (int k = 0; k < 3000; k++) buf_addf(&text, "%s%d", k ? "," : "", k);
        buf_adds(&text, i < 69 ? "]}}}},\n" : "]}}}}]}\n");
    }
    for (long workers = 1; workers <= 2; workers++) {
        doc *d = tu_doc(buf_str(&text));
        struct eval_options eo = {.workers = workers};
        struct diag_list out = DIAG_LIST_INIT;
        eval_document(rs, d, &eo, &out);
        char *got = show_diags(&out);
        const char *want = "t.deep@/tools/0/inputSchema/x-flag:4:flag "
                           "t.deep@/tools/69/inputSchema/x-flag:4:flag";
        ck_assert_msg(!strcmp(got, want), "%ld workers: got \"%s\", expected \"%s\"", workers, got,
                      want);
        free(got);
        diag_list_release(&out);
        doc_free(d);
    }
    buf_release(&text);
    rule_set_free(rs);
}
END_TEST

/* ---- the walk on several threads ---------------------------------------------------
 * Every fixture of conformance/ and examples/ judged by the shipped rule set rule by rule
 * (group_min SIZE_MAX: no collection walked) and with every collection walked (the
 * default) on 1, 2 and 3 threads: the same diagnostics, in the same order, to the byte. */

/* PATH judged by RS with OPTS, every field (new string); NULL if it is no description.
 * Loaded afresh each time: judging resolves a document in place. */
static char *judge_fixture(const char *path, const struct rule_set *rs,
                           const struct eval_options *opts)
{
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return NULL;
    }
    char *shown = NULL;
    if (json_is_object(doc_root(d))) {
        struct diag_list out = DIAG_LIST_INIT;
        eval_document(rs, d, opts, &out);
        shown = tu_show_all(&out);
        diag_list_release(&out);
    }
    doc_free(d);
    return shown;
}

/* Every .json file below DIR judged by RS with WANT, and with GOT on 1 to MAX_WORKERS
 * threads: the same report, to the byte (the first line apart in the failure: a whole
 * report is too long for Check's message). *JUDGED counts the files. */
static void compare_each_fixture(const char *dir, const struct rule_set *rs,
                                 const struct eval_options *want_opts,
                                 const struct eval_options *got_opts, long max_workers,
                                 size_t *judged)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    for (struct dirent *e; (e = readdir(dp));) {
        if (e->d_name[0] == '.') continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        size_t n = strlen(e->d_name);
        char *want = NULL;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            compare_each_fixture(path, rs, want_opts, got_opts, max_workers, judged);
        else if (n > 5 && !strcmp(e->d_name + n - 5, ".json"))
            want = judge_fixture(path, rs, want_opts);
        for (long workers = 1; want && workers <= max_workers; workers++) {
            struct eval_options eo = *got_opts;
            eo.workers = workers;
            char *got = judge_fixture(path, rs, &eo);
            if (!got || strcmp(got, want)) {
                char *g = tu_first_line_apart(got, want), *w = tu_first_line_apart(want, got);
                ck_abort_msg("%s, %ld workers: \"%s\", expected \"%s\"", path, workers, g, w);
            }
            free(got);
        }
        if (want) (*judged)++;
        free(want);
        free(path);
    }
    closedir(dp);
}

START_TEST(workers_give_one_threads_diagnostics)
{
    const char *top = getenv("MCPDESC_TOP");
    struct rule_set *rs = tu_shipped_rules();
    size_t judged = 0;
    for (int k = 0; k < 2; k++) {
        char *fixtures = xasprintf("%s/%s", top ? top : ".", k ? "examples" : "conformance");
        compare_each_fixture(fixtures, rs, &(struct eval_options){.group_min = SIZE_MAX},
                             &(struct eval_options){0}, 3, &judged);
        free(fixtures);
    }
    ck_assert_msg(judged >= 100, "judged %zu fixtures (at least 100 expected)", judged);
    rule_set_free(rs);
}
END_TEST

/* ---- rules judged only where a yield needs them ---------------------------------------
 * With the rules that others yield to not reported (--skip), each fixture gives the
 * same report whether those rules are judged everywhere (no walk: group_min SIZE_MAX)
 * or only in the items where a yielding rule found something (the walk, on 1 and 2
 * threads); and on a description where nothing yields, such a rule costs nothing. */

struct skipped {
    const struct rule_set *rs;
};

/* enabled: not a rule that another rule of the set yields to */
static int not_yielded_to(const char *id, void *arg)
{
    const struct rule_set *rs = ((struct skipped *)arg)->rs;
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (rule_yields_to(rule_set_rule(rs, i), id)) return 0;
    return 1;
}

START_TEST(yielded_to_rules_judged_where_needed)
{
    const char *top = getenv("MCPDESC_TOP");
    struct rule_set *rs = tu_shipped_rules();
    struct skipped sk = {rs};
    size_t judged = 0;
    for (int k = 0; k < 2; k++) {
        char *fixtures = xasprintf("%s/%s", top ? top : ".", k ? "examples" : "conformance");
        compare_each_fixture(
            fixtures, rs,
            &(struct eval_options){
                .enabled = not_yielded_to, .enabled_arg = &sk, .group_min = SIZE_MAX},
            &(struct eval_options){.enabled = not_yielded_to, .enabled_arg = &sk}, 2, &judged);
        free(fixtures);
    }
    ck_assert_msg(judged >= 100, "judged %zu fixtures (at least 100 expected)", judged);
    /* a description where nothing yields: mcp.schema.dialect.valid, skipped, is not run */
    size_t valid = rule_set_count(rs);
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (!strcmp(rule_id(rule_set_rule(rs, i)), "mcp.schema.dialect.valid")) valid = i;
    ck_assert_uint_lt(valid, rule_set_count(rs));
    _Atomic uint64_t *ns = xcalloc(rule_set_count(rs) + 1, sizeof *ns);
    char *path = xasprintf("%s/examples/corpus/github.json", top ? top : ".");
    char *shown = judge_fixture(
        path, rs,
        &(struct eval_options){.enabled = not_yielded_to, .enabled_arg = &sk, .rule_ns = ns});
    ck_assert_str_eq(shown, "");
    ck_assert_uint_eq(atomic_load(&ns[valid]), 0);
    free(shown);
    free(path);
    free(ns);
    rule_set_free(rs);
}
END_TEST

/* One suite per file (the Makefile runs <module>_suite of each check_<module>.c): the
 * interpreter core, the schema-engine predicates, and the walk of large collections. */
Suite *eval_suite(void)
{
    Suite *s = suite_create("eval");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, predicate_holds_or_not, 0, (int)(sizeof preds / sizeof *preds));
    tcase_add_test(tc, versions_merge_and_first_branch_wins);
    tcase_add_test(tc, when_guards_and_placeholders);
    tcase_add_test(tc, judged_callback_names_the_judged_nodes);
    tcase_add_test(tc, new_rules_need_no_c_change);
    tcase_add_test(tc, first_later_branch_gets_only_remaining_versions);
    tcase_add_test(tc, unique_outside_the_clause_versions_is_no_diagnostic);
    tcase_add_test(tc, value_placeholder_cut_beyond_60_characters);
    tcase_add_test(tc, item_placeholders_name_the_item);
    tcase_add_test(tc, enabled_filters_builtin_diagnostics);
    tcase_add_test(tc, yielded_to_rules_judged_where_needed);
    suite_add_tcase(s, tc);
    tc = tcase_create("schema");
    tcase_add_test(tc, schema_predicates);
    tcase_add_test(tc, report_at_failure);
    tcase_add_test(tc, report_at_every_failing_keyword);
    tcase_add_test(tc, report_at_failure_keeps_the_existing_prefix);
    suite_add_tcase(s, tc);
    tc = tcase_create("walk");
    tcase_add_test(tc, large_collections_walked_once_as_rule_by_rule);
    tcase_add_test(tc, deep_selector_bound_is_per_item);
    tcase_add_test(tc, workers_give_one_threads_diagnostics);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
