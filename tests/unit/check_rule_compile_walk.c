/* check_rule_compile_walk.c - the compiler's walk of a mapping against its table finds
 * each member by one pass over the mapping (rule_compile.c, find_rows): every member at
 * its own node whatever the order, a YAML alias's value under each of its keys at that
 * key's node, unknown members reported, and the errors in the order the loader always
 * gave them (the order of the table's steps, not of the file). */
#include <check.h>
#include <string.h>

#include "testutil.h"
#include "base/buf.h"
#include "base/util.h"

/* a rule's members, as an unknown one's message lists them */
#define KNOWN_RULE                                                                                 \
    " (known: id, owner, surface, paths, kind, level, status, enforcement, applies, summary, "     \
    "requirement, required-by, based-on, gaps, examples, compare, category, yields-to, check, "    \
    "preset, preset-reason)\n"

/* The errors of loading the rule file TEXT, one "line:col: message" a line (a new
 * string); the load must fail. */
static char *errors_of(const char *text)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(text, &errs);
    ck_assert_msg(rs == NULL, "the rule file loaded: %s", text);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < errs.len; i++)
        buf_addf(&b, "%u:%u: %s\n", (unsigned)errs.items[i].line, (unsigned)errs.items[i].col,
                 errs.items[i].message);
    diag_list_release(&errs);
    char *s = xstrdup(buf_str(&b));
    buf_release(&b);
    return s;
}

static void expect_errors(const char *text, const char *want)
{
    char *got = errors_of(text);
    ck_assert_msg(!strcmp(got, want), "errors:\n%s\nwanted:\n%s", got, want);
    free(got);
}

/* A rule's members written in the reverse of the table's order: each error at its own
 * member, in the loader's order (the required strings, then level, applies, ...). */
START_TEST(members_in_any_order_at_their_nodes)
{
    expect_errors(
        "rules:\n"
        "  - check: {require: {has: a}, message: m}\n"
        "    based-on: [{tier: 1, text: src}]\n"
        "    requirment: r\n"
        "    summary: [s]\n"
        "    applies: all\n"
        "    enforcement: internal\n"
        "    level: must\n"
        "    kind: structural\n"
        "    surface: Tool\n"
        "    owner: 5\n"
        "    id: t.x\n",
        "4:5: unknown member \"requirment\" in a rule: did you mean \"requirement\"?" KNOWN_RULE
        "11:12: \"owner\" of a rule must be a string, not a integer\n"
        "2:5: a rule has no \"status\" (it is required)\n"
        "5:14: \"summary\" of a rule must be a string, not a list\n"
        "2:5: a rule has no \"requirement\" (it is required)\n");
}
END_TEST

/* One value under two keys (a YAML alias): each key's error at that key's node, and an
 * unknown key holding it reported where it is. */
START_TEST(alias_value_at_each_key)
{
    expect_errors(
        "rules:\n"
        "  - id: t.x\n"
        "    owner: &o [x]\n"
        "    surface: *o\n"
        "    kind: structural\n"
        "    level: must\n"
        "    status: stable\n"
        "    enforcment: *o\n"
        "    enforcement: internal\n"
        "    applies: all\n"
        "    summary: s\n"
        "    requirement: r\n"
        "    based-on: [{tier: 1, text: src}]\n"
        "    check: {require: {has: a}, message: m}\n",
        "8:5: unknown member \"enforcment\" in a rule: did you mean \"enforcement\"?" KNOWN_RULE
        "3:12: \"owner\" of a rule must be a string, not a list\n"
        "3:12: \"surface\" of a rule must be a string, not a list\n");
}
END_TEST

/* A list of mappings: each entry's members found in it, a non-mapping entry refused, an
 * entry's unknown member and its wrong-typed one each at their node. */
START_TEST(list_entries_at_their_nodes)
{
    expect_errors("rules:\n"
                  "  - id: t.x\n"
                  "    owner: t\n"
                  "    surface: Tool\n"
                  "    kind: structural\n"
                  "    level: must\n"
                  "    status: stable\n"
                  "    enforcement: internal\n"
                  "    applies: all\n"
                  "    summary: s\n"
                  "    requirement: r\n"
                  "    based-on:\n"
                  "      - {text: src, tier: 1, txet: x}\n"
                  "      - 7\n"
                  "      - {tier: 1, text: [a]}\n"
                  "    check: {require: {has: a}, message: m}\n",
                  "13:30: unknown member \"txet\" in a \"based-on\" entry: did you mean \"tier\"? "
                  "(known: tier, text, url)\n"
                  "14:9: \"based-on\" entries must be mappings, not a integer\n");
}
END_TEST

/* A check whose members' table order is not their steps' (all, report-at, fix in the
 * table; fix, report-at, all by step): the errors by step. */
START_TEST(clause_errors_by_step_not_table_order)
{
    expect_errors("rules:\n"
                  "  - id: t.x\n"
                  "    owner: t\n"
                  "    surface: Tool\n"
                  "    kind: structural\n"
                  "    level: must\n"
                  "    status: stable\n"
                  "    enforcement: internal\n"
                  "    applies: all\n"
                  "    summary: s\n"
                  "    requirement: r\n"
                  "    based-on: [{tier: 1, text: src}]\n"
                  "    check: {all: 5, report-at: here, fix: {remove: a}}\n",
                  "13:38: \"fix\" belongs beside \"require\" and \"message\" (the finding it "
                  "fixes)\n"
                  "13:32: report-at is \"node\" (the judged node, the default), \"failure\" (the "
                  "value where matches-schema failed) or \"match\" (where in the string a text "
                  "predicate found its text)\n"
                  "13:18: \"all\" takes a non-empty list of checks\n");
}
END_TEST

Suite *rule_compile_walk_suite(void)
{
    Suite *s = suite_create("rule_compile_walk");
    TCase *tc = tcase_create("walk");
    tcase_add_test(tc, members_in_any_order_at_their_nodes);
    tcase_add_test(tc, alias_value_at_each_key);
    tcase_add_test(tc, list_entries_at_their_nodes);
    tcase_add_test(tc, clause_errors_by_step_not_table_order);
    suite_add_tcase(s, tc);
    return s;
}
