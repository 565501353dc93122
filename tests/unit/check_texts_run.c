/* check_texts_run.c - a run of {texts: item} rules judged node by node in the walk of a
 * collection (judge/eval.c: judge_texts_run, every rule on each open text in turn, rather
 * than every text for each rule in turn): the same findings, in the same order, as rule by
 * rule with the kept answers (--timing's way) and as judging every node (rules test's
 * way), on one thread and on two; and validate does take that way. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "rules/rule.h"
#include "testutil.h"
#include "base/util.h"

static const char *manifest = "texts:\n"
                              "  item:\n"
                              "    tools: [name, description]\n"
                              "  schema:\n"
                              "    roots: [inputSchema]\n"
                              "    values: [description, enum]\n"
                              "    keys: [{member: properties, kind: property name}]\n";

#define HEAD(id)                                                                                   \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: style\n    level: should\n"        \
    "    status: stable\n    enforcement: registry\n    applies: all\n    summary: s\n"            \
    "    requirement: r\n    based-on: [{tier: 1, text: t}]\n"

/* Three text rules in a row (a run): over the string alone, with a `when` on the kind, and
 * a mentions whose names are the item's own (never kept per string); a rule of another
 * selector; then two text rules again (a second run) and one alone after another rule. */
static const char *rules = "rules:\n" HEAD(
    "t.secret") "    check:\n      select: {texts: item}\n"
                "      require: {not: {matches: secret}}\n"
                "      report-at: match\n      message: '{text-kind}: {match}'\n" HEAD(
                    "t.secret-name") "    check:\n      select: {texts: item}\n      when: "
                                     "{text-kind: [property name]}\n"
                                     "      require: {not: {matches: '^secret'}}\n      message: "
                                     "'{value}'\n" HEAD(
                                         "t.own-param") "    check:\n      select: {texts: item}\n"
                                                        "      require: {not: {mentions: {as: "
                                                        "parameter, among: [{keys: "
                                                        "inputSchema/properties}],"
                                                        " depth: 2}}}\n      message: "
                                                        "'{detail}'\n" HEAD(
                                                            "t.name-type") "    check:\n      "
                                                                           "select: "
                                                                           "/tools/*/name\n      "
                                                                           "require: {json-type: "
                                                                           "string}\n"
                                                                           "      message: 'a "
                                                                           "name'\n" HEAD(
                                                                               "t.upper") "    "
                                                                                          "check:"
                                                                                          "\n      "
                                                                                          "select: "
                                                                                          "{texts: "
                                                                                          "item}\n"
                                                                                          "      "
                                                                                          "require:"
                                                                                          " {not: "
                                                                                          "{matches"
                                                                                          ": "
                                                                                          "'[A-Z]{"
                                                                                          "3}'}}\n "
                                                                                          "     "
                                                                                          "message:"
                                                                                          " '{"
                                                                                          "value}'"
                                                                                          "\n" HEAD(
                                                                                              "t."
                                                                                              "toke"
                                                                                              "n") "    check:\n      select: {texts: item}\n      require: {not: {matches: 'tok[e3]n'}}\n"
                                                                                                   "      message: '{value}'\n" HEAD(
                                                                                                       "t.desc-type") "    check:\n      select: /tools/*/description\n      require: {json-type: string}\n"
                                                                                                                      "      message: 'a description'\n" HEAD(
                                                                                                                          "t.dots") "    check:\n      select: {texts: item}\n"
                                                                                                                                    "      require: {not: {matches: '\\.\\.\\.'}}\n      message: '{value}'\n";

static struct rule_set *load_rules(void)
{
    const char *files[] = {"test.yaml"};
    char *dir = tu_rule_dir(files, &rules, 1);
    tu_manifest_add(dir, manifest);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    tu_rmdir(dir);
    return rs;
}

/* N tools whose texts recur (property names, enum values, a shared component) and differ
 * (each description): a secret, a token, upper case and dots in some, "notes" named as a
 * parameter in all (a parameter of the even tools only). */
static char *tools(size_t n)
{
    struct buf b = BUF_INIT;
    buf_adds(&b,
             "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-11-25\"],"
             " \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"},"
             " \"capabilities\": {\"tools\": {}}, \"tools\": [");
    for (size_t i = 0; i < n; i++)
        buf_addf(&b,
                 "%s{\"name\": \"t%zu\", \"description\": \"Tool %zu %s, pass notes.\","
                 " \"inputSchema\": {\"type\": \"object\", \"properties\": {\"%s\":"
                 " {\"description\": \"%s\", \"enum\": [\"a\", \"%s\"]},"
                 " \"c\": {\"$componentRef\": \"#/components/schemas/C\"},"
                 " \"%s\": {\"type\": \"string\"}}}}",
                 i ? "," : "", i, i,
                 i % 5 == 0       ? "keeps a secret"
                     : i % 5 == 1 ? "takes a tok3n"
                     : i % 5 == 2 ? "ABC loud"
                                  : "waits...",
                 i % 2 ? "path" : "notes", i % 4 == 3 ? "the secret file" : "a file",
                 i % 3 ? "b" : "TOKEN", i % 7 == 2 ? "secret_key" : "max_results");
    buf_adds(&b,
             "], \"components\": {\"schemas\": {\"C\": {\"type\": \"object\", \"properties\":"
             " {\"plain\": {\"description\": \"Select the set.\"}}}}}}");
    return buf_detach(&b);
}

static void count_judged(const struct rule *r, const char *pointer, int whole, ver_mask judged,
                         ver_mask failed, void *arg)
{
    (void)r, (void)pointer, (void)whole, (void)judged, (void)failed;
    ++*(size_t *)arg;
}

/* JSON judged by RS with OPTS (NULL: the defaults) into *OUT; how many runs judged texts
 * node by node (the run's eval_stats). */
static unsigned long judge_with(const struct rule_set *rs, const char *json,
                                const struct eval_options *opts, struct diag_list *out)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    struct eval_options counted = opts ? *opts : (struct eval_options){0};
    struct eval_stats stats = {0};
    counted.stats = &stats;
    eval_document(rs, d, &counted, out);
    doc_free(d);
    return stats.texts_runs;
}

static void assert_same(const struct diag_list *want, const struct diag_list *got, const char *what)
{
    char *w = tu_show_all(want), *g = tu_show_all(got);
    char *apart = tu_first_line_apart(w, g);
    ck_assert_msg(!strcmp(w, g), "%s changed the findings: %s", what, apart);
    free(apart);
    free(w);
    free(g);
}

START_TEST(runs_find_what_rule_by_rule_finds)
{
    struct rule_set *rs = load_rules();
    size_t n = 30;
    char *json = tools(n);
    struct diag_list every = DIAG_LIST_INIT, timed = DIAG_LIST_INIT, run = DIAG_LIST_INIT,
                     two = DIAG_LIST_INIT;
    size_t judged = 0;
    struct eval_options all = {0};
    all.judged = count_judged;
    all.judged_arg = &judged;
    ck_assert_uint_eq(judge_with(rs, json, &all, &every), 0);
    ck_assert_uint_gt(judged, 0);
    _Atomic uint64_t *ns = xcalloc(rule_set_count(rs) + 1, sizeof *ns);
    struct eval_options timing = {0};
    timing.rule_ns = ns;
    ck_assert_uint_eq(judge_with(rs, json, &timing, &timed), 0); /* rule by rule */
    /* validate: the two runs of text rules node by node, for each tool */
    ck_assert_uint_eq(judge_with(rs, json, NULL, &run), 2 * n);
    struct eval_options workers = {0};
    workers.workers = 2;
    ck_assert_uint_eq(judge_with(rs, json, &workers, &two), 2 * n);
    assert_same(&every, &timed, "kept answers");
    assert_same(&timed, &run, "texts node by node");
    assert_same(&timed, &two, "texts node by node on two threads");
    /* every text rule found something, so that each of them was compared */
    const char *ids[] = {"t.secret", "t.secret-name", "t.own-param",
                         "t.upper",  "t.token",       "t.dots"};
    for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
        size_t found = 0;
        for (size_t i = 0; i < run.len; i++)
            found += run.items[i].rule && !strcmp(run.items[i].rule, ids[k]);
        ck_assert_msg(found > 0, "%s found nothing", ids[k]);
    }
    diag_list_release(&every);
    diag_list_release(&timed);
    diag_list_release(&run);
    diag_list_release(&two);
    free(ns);
    free(json);
    rule_set_free(rs);
}
END_TEST

Suite *texts_run_suite(void)
{
    Suite *s = suite_create("texts_run");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, runs_find_what_rule_by_rule_finds);
    suite_add_tcase(s, tc);
    return s;
}
