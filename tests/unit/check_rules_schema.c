/* check_rules_schema.c - the schema predicates added for the dialect and projection
 * rules: matches-schema {file, without} (a native projection drops description-only
 * members) and ref-resolves {depth, dialect}, with their loader errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define RULE(ID, CHECK)                                                                  \
    "  - id: " ID "\n"                                                                   \
    "    owner: test\n    surface: Tool\n    kind: structural\n    level: must\n"        \
    "    status: stable\n    enforcement: internal\n    applies: all\n"                  \
    "    summary: s\n    requirement: r\n"                                              \
    "    based-on: [{tier: 1, text: test}]\n"                                            \
    "    check: " CHECK "\n"

static const char *tool_schema =
    "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": \"object\","
    " \"required\": [\"name\"], \"properties\": {\"name\": {\"type\": \"string\"}},"
    " \"propertyNames\": {\"not\": {\"const\": \"protocolVersions\"}}}";

static const char *rules_text =
    "rules:\n"
    RULE("test.projection", "{select: /tools/*, require: {matches-schema: {file: tool.json, without: [protocolVersions]}}, message: '{detail}'}")
    RULE("test.whole", "{select: /tools/*, require: {matches-schema: tool.json}, message: '{detail}'}")
    RULE("test.ref", "{select: '/tools/*/inputSchema/**/$ref', require: {ref-resolves: {depth: 3}}, message: '{detail}'}");

static struct rule_set *load(const char *text, struct diag_list *errs)
{
    const char *files[] = {"test.yaml", "tool.json"};
    const char *texts[] = {text, tool_schema};
    char *dir = tu_rule_dir(files, texts, 2);
    struct rule_set *rs = rule_set_load(dir, errs);
    tu_rmdir(dir);
    return rs;
}

static const struct diag *find(const struct diag_list *l, const char *rule, const char *pointer)
{
    for (size_t i = 0; i < l->len; i++)
        if (!strcmp(l->items[i].rule, rule) && !strcmp(l->items[i].pointer, pointer)) return &l->items[i];
    return NULL;
}

START_TEST(without_drops_members_before_validation)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = load(rules_text, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-11-25\"], \"tools\": ["
            " {\"name\": \"a\", \"protocolVersions\": [\"2025-11-25\"], \"inputSchema\": {\"type\": \"object\"}},"
            " {\"name\": 5, \"inputSchema\": {\"type\": \"object\"}}]}",
            &out);
    /* the projection of tool 0 has no protocolVersions: it matches; the whole item does not */
    ck_assert_ptr_null(find(&out, "test.projection", "/tools/0"));
    ck_assert_ptr_nonnull(find(&out, "test.whole", "/tools/0"));
    const struct diag *d = find(&out, "test.projection", "/tools/1");
    ck_assert_ptr_nonnull(d);
    ck_assert_msg(strstr(d->message, "/name") && strstr(d->message, "type"), "detail: %s", d->message);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

START_TEST(ref_resolves_inside_the_schema_root)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = load(rules_text, &errs);
    ck_assert_ptr_nonnull(rs);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\","
            " \"properties\": {\"p\": {\"$ref\": \"#/$defs/P\"}, \"q\": {\"$ref\": \"#/$defs/Q\"},"
            "  \"r\": {\"$ref\": \"#here\"}, \"s\": {\"$ref\": \"https://example.com/s.json\"}},"
            " \"$defs\": {\"P\": {\"type\": \"string\"}, \"H\": {\"$anchor\": \"here\"}}}}]}",
            &out);
    ck_assert_ptr_null(find(&out, "test.ref", "/tools/0/inputSchema/properties/p/$ref"));
    ck_assert_ptr_null(find(&out, "test.ref", "/tools/0/inputSchema/properties/r/$ref"));
    const struct diag *q = find(&out, "test.ref", "/tools/0/inputSchema/properties/q/$ref");
    ck_assert_ptr_nonnull(q);
    ck_assert_msg(strstr(q->message, "does not resolve"), "detail: %s", q->message);
    const struct diag *s = find(&out, "test.ref", "/tools/0/inputSchema/properties/s/$ref");
    ck_assert_ptr_nonnull(s); /* never fetched, so it does not resolve */
    ck_assert_msg(strstr(s->message, "not fetched"), "detail: %s", s->message);
    ck_assert_uint_eq(out.len, 2);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

static void expect_error(const char *check, const char *needle)
{
    struct diag_list errs = DIAG_LIST_INIT;
    char *text = NULL;
    ck_assert_int_ge(asprintf(&text, "rules:\n" RULE("test.bad", "%s"), check), 0);
    struct rule_set *rs = load(text, &errs);
    ck_assert_ptr_null(rs);
    ck_assert_uint_ge(errs.len, 1);
    ck_assert_msg(strstr(errs.items[0].message, needle), "message: %s", errs.items[0].message);
    ck_assert_uint_eq(errs.items[0].line, 13); /* the check line */
    free(text);
    diag_list_release(&errs);
}

START_TEST(loader_refuses_bad_arguments)
{
    expect_error("{require: {matches-schema: {file: tool.json, withou: [x]}}, message: m}", "unknown member \"withou\"");
    expect_error("{require: {matches-schema: {file: tool.json, without: []}}, message: m}", "non-empty list");
    expect_error("{require: {matches-schema: {without: [x]}}, message: m}", "needs \"file\"");
    expect_error("{require: {ref-resolves: 3}, message: m}", "ref-resolves takes");
    expect_error("{require: {ref-resolves: {depth: -1}}, message: m}", "needs \"depth\"");
    expect_error("{require: {ref-resolves: {depth: 3, dialect: draft-99}}, message: m}", "dialect names");
}
END_TEST

Suite *rules_schema_suite(void)
{
    Suite *s = suite_create("rules_schema");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, without_drops_members_before_validation);
    tcase_add_test(tc, ref_resolves_inside_the_schema_root);
    tcase_add_test(tc, loader_refuses_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}
