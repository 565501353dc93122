/* check_lint.c - `rules lint`: one planted mistake of each kind, found at its exact
 * line and column with a hint (lint's own kinds and the loader's, which lint reports
 * too), every finding of a file rather than the first; and `rules test` on examples. */
#include <check.h>
#include <string.h>

#include "author/lint.h"
#include "author/rules_test.h"
#include "testutil.h"
#include "base/util.h"

#define RULE(id, level, applies, requirement)                                                     \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: structural\n    level: " level     \
    "\n    status: stable\n    enforcement: internal\n    applies: " applies "\n    summary: s\n" \
    "    requirement: " requirement "\n    based-on: [{tier: 1, text: src}]\n"
/* RULE occupies lines 2-12 of a file that starts with "rules:\n"; line 13 follows. */
#define CHECK "    check: {select: /tools/*/inputSchema, require: {json-type: object}, message: m}\n"

static const struct {
    const char *what, *text;
    enum diag_level level;
    unsigned line, col;
    const char *message; /* a substring */
} cases[] = {
    {"branch outside applies",
     "rules:\n" RULE("t.a", "must", "{from: 2025-11-25}", "r")
     "    check:\n      select: /tools/*\n      first:\n"
     "        - versions: [2024-11-05]\n          require: {has: inputSchema}\n          message: m\n",
     DIAG_ERROR, 16, 21, "this branch never runs: its versions (2024-11-05) are all outside the rule's applies"},
    {"branch partly outside applies",
     "rules:\n" RULE("t.a", "must", "{from: 2025-11-25}", "r")
     "    check:\n      select: /tools/*\n      all:\n"
     "        - versions: {from: 2025-06-18}\n          require: {has: inputSchema}\n          message: m\n",
     DIAG_WARNING, 16, 21, "versions 2025-06-18 of this branch are outside the rule's applies"},
    {"nested branch outside its enclosing branch",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    check:\n      versions: [2025-11-25]\n      all:\n"
     "        - versions: [2026-07-28]\n          require: {has: inputSchema}\n          message: m\n",
     DIAG_ERROR, 16, 21, "outside the enclosing branch's versions (/rules/0/check/versions)"},
    {"applies wider than every check",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    check:\n      select: /tools/*\n      first:\n"
     "        - versions: {from: 2025-06-18}\n          require: {has: inputSchema}\n          message: m\n",
     DIAG_WARNING, 9, 14, "the rule applies to 2024-11-05, 2025-03-26, but none of its checks judges them"},
    {"missing fixture",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    examples:\n      - {expect: invalid, fixture: expected-invalid/none.json, pointer: /tools/0}\n" CHECK,
     DIAG_ERROR, 14, 36, "no fixture \"expected-invalid/none.json\""},
    {"fixture outside the fixtures directory",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    examples:\n      - {expect: invalid, fixture: ../planted/tool.yaml, pointer: /tools/0}\n" CHECK,
     DIAG_ERROR, 14, 36, "is not a relative path inside"},
    {"missing pointer",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    examples:\n      - {expect: invalid, fixture: expected-invalid/tools.json, pointer: /tools/0/outputSchema}\n" CHECK,
     DIAG_ERROR, 14, 74, "nothing at /tools/0/outputSchema in fixture expected-invalid/tools.json (the deepest part that exists is /tools/0)"},
    {"level below the requirement's MUST",
     "rules:\n" RULE("t.a", "should", "all", "names MUST be unique") CHECK,
     DIAG_ERROR, 6, 12, "level \"should\" does not match the requirement, which says MUST"},
    {"level above the requirement's MAY",
     "rules:\n" RULE("t.a", "must", "all", "a server MAY omit it") CHECK,
     DIAG_ERROR, 6, 12, "which says MAY (a may rule)"},
    {"level above the requirement's SHOULD",
     "rules:\n" RULE("t.a", "must", "all", "a tool SHOULD have a title") CHECK,
     DIAG_ERROR, 6, 12, "which says SHOULD (a should rule)"},
    {"expectation the level cannot produce",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    examples:\n      - {expect: warning, fixture: expected-invalid/tools.json, pointer: /tools/0/inputSchema}\n" CHECK,
     DIAG_ERROR, 14, 18, "this example expects a warning, but a must rule reports errors"},
    {"duplicate id the loader misses (its first rule is refused)",
     "rules:\n" RULE("t.a", "must", "{from: 2025-11-26}", "r") CHECK RULE("t.a", "must", "all", "r") CHECK,
     DIAG_ERROR, 14, 9, "duplicate rule id \"t.a\" (first defined at test.yaml:2:5)"},
    {"rule without examples",
     "rules:\n" RULE("t.a", "must", "all", "r") CHECK,
     DIAG_WARNING, 2, 9, "rule t.a has no examples: rules test cannot check it"},
    /* the loader's kinds, reported by lint with a hint */
    {"unknown predicate",
     "rules:\n" RULE("t.a", "must", "all", "r") "    check: {select: /tools/*, require: {json-typ: object}, message: m}\n",
     DIAG_ERROR, 13, 41, "unknown predicate \"json-typ\""},
    {"bad pointer syntax",
     "rules:\n" RULE("t.a", "must", "all", "r")
     "    examples:\n      - {expect: invalid, fixture: expected-invalid/tools.json, pointer: tools/0}\n" CHECK,
     DIAG_ERROR, 14, 74, "bad JSON Pointer"},
    {"unknown protocol version",
     "rules:\n" RULE("t.a", "must", "{from: 2025-12-01}", "r") CHECK,
     DIAG_ERROR, 9, 21, "unknown protocol version \"2025-12-01\""},
    {"misordered protocol versions",
     "rules:\n" RULE("t.a", "must", "{from: 2026-07-28, before: 2025-03-26}", "r") CHECK,
     DIAG_ERROR, 9, 14, "this version range is empty"},
    {"duplicate rule id",
     "rules:\n" RULE("t.a", "must", "all", "r") CHECK RULE("t.a", "must", "all", "r") CHECK,
     DIAG_ERROR, 14, 9, "duplicate rule id \"t.a\" (first defined at test.yaml:2:5)"},
};

/* Drop the infos from OUT: a test set in /tmp has no description schema, which lint says
 * once as an info (checked on its own in clean_file). Returns how many it dropped. */
static size_t drop_infos(struct diag_list *out)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < out->len; i++) {
        if (out->items[i].level == DIAG_INFO) {
            diag_clear(&out->items[i]);
            dropped++;
        } else {
            out->items[kept++] = out->items[i];
        }
    }
    out->len = kept;
    return dropped;
}

static char *fixtures(void)
{
    return xasprintf("%s/rules-lint/conformance", tu_data_dir());
}

START_TEST(finds_planted_mistake)
{
    const char *files[] = {"test.yaml"};
    char *dir = tu_rule_dir(files, &cases[_i].text, 1);
    char *fx = fixtures();
    struct diag_list out = DIAG_LIST_INIT;
    ck_assert_int_eq(lint_rule_dir(dir, fx, &out), 0);
    int found = 0;
    for (size_t i = 0; i < out.len; i++) {
        const struct diag *d = &out.items[i];
        ck_assert_msg(d->line > 0 && d->hint && *d->hint, "%s: finding without position or hint: %s",
                      cases[_i].what, d->message);
        if (d->level == cases[_i].level && d->line == cases[_i].line && d->col == cases[_i].col &&
            strstr(d->message, cases[_i].message))
            found = 1;
    }
    if (!found)
        for (size_t i = 0; i < out.len; i++)
            fprintf(stderr, "  %s: %u:%u: %s: %s\n", cases[_i].what, out.items[i].line, out.items[i].col,
                    diag_level_name(out.items[i].level), out.items[i].message);
    ck_assert_msg(found, "%s: no %s at %u:%u containing '%s'", cases[_i].what,
                  diag_level_name(cases[_i].level), cases[_i].line, cases[_i].col, cases[_i].message);
    diag_list_release(&out);
    free(fx);
    tu_rmdir(dir);
}
END_TEST

/* A clean file: no finding at all. */
START_TEST(clean_file)
{
    const char *files[] = {"test.yaml"};
    const char *text = "rules:\n" RULE("t.a", "must", "{from: 2025-06-18}", "names MUST be unique")
        "    examples:\n      - {expect: invalid, fixture: expected-invalid/tools.json, pointer: /tools/0/inputSchema}\n"
        "    check:\n      select: /tools/*/inputSchema\n      first:\n"
        "        - versions: [2025-06-18]\n          require: {json-type: object}\n          message: m\n"
        "        - require: {declared-type-includes: object}\n          message: m\n";
    char *dir = tu_rule_dir(files, &text, 1);
    char *fx = fixtures();
    struct diag_list out = DIAG_LIST_INIT;
    ck_assert_int_eq(lint_rule_dir(dir, fx, &out), 0);
    /* the one info: no description schema beside a set in /tmp, so selectors are unchecked */
    ck_assert_uint_ge(out.len, 1);
    ck_assert_ptr_nonnull(strstr(out.items[0].message, "selectors not checked"));
    ck_assert_uint_eq(drop_infos(&out), 1);
    for (size_t i = 0; i < out.len; i++) fprintf(stderr, "  unexpected: %s\n", out.items[i].message);
    ck_assert_uint_eq(out.len, 0);
    diag_list_release(&out);
    free(fx);
    tu_rmdir(dir);
}
END_TEST

/* Every finding of a file, in position order, not only the first. */
START_TEST(all_findings_of_a_file)
{
    char *dir = xasprintf("%s/rules-lint/planted", tu_data_dir());
    struct diag_list out = DIAG_LIST_INIT;
    ck_assert_int_eq(lint_rule_dir(dir, NULL, &out), 0);
    drop_infos(&out);
    static const unsigned lines[] = {3, 18, 22, 40, 42, 50, 59}; /* 3: no examples */
    ck_assert_uint_eq(out.len, sizeof lines / sizeof *lines);
    for (size_t i = 0; i < out.len; i++) ck_assert_uint_eq(out.items[i].line, lines[i]);
    diag_list_release(&out);
    free(dir);
    /* and the loader's refusals together with lint's own finding in the same file */
    dir = xasprintf("%s/rules-lint/loader", tu_data_dir());
    ck_assert_int_eq(lint_rule_dir(dir, NULL, &out), 0);
    drop_infos(&out);
    ck_assert_uint_eq(out.len, 7); /* 6 errors, and the second rule has no examples */
    ck_assert_ptr_nonnull(strstr(out.items[2].message, "no fixture"));
    diag_list_release(&out);
    free(dir);
}
END_TEST

/* A partial program (issue 27): a set with one refused rule. The loader that judges
 * refuses the set; the partial one keeps it, not ok, with the good rule compiled and the
 * refused one by id, file and position, and the documents it parsed; lint reads that
 * program and reports the refusal where it is AND its own finding on the good rule. */
#define GOOD_AND_BAD                                                                           \
    "rules:\n" RULE("t.good", "must", "all", "r") CHECK RULE("t.bad", "must", "all", "r")         \
    "    check: {select: /tools/*, require: {json-typ: object}, message: m}\n"
/* t.good: its mapping at 2:5, its id at 2:9; t.bad: 14:5 and 14:9; its predicate at 25:41 */

static int has_diag(const struct diag_list *out, enum diag_level level, const char *file,
                    unsigned line, unsigned col, const char *message)
{
    for (size_t i = 0; i < out->len; i++) {
        const struct diag *d = &out->items[i];
        const char *slash = d->file ? strrchr(d->file, '/') : NULL;
        if (d->level == level && d->line == line && d->col == col && slash &&
            !strcmp(slash + 1, file) && strstr(d->message, message))
            return 1;
    }
    for (size_t i = 0; i < out->len; i++)
        fprintf(stderr, "  have %s:%u:%u: %s: %s\n", out->items[i].file, out->items[i].line,
                out->items[i].col, diag_level_name(out->items[i].level), out->items[i].message);
    return 0;
}

START_TEST(partial_program)
{
    const char *files[] = {"test.yaml"};
    const char *text = GOOD_AND_BAD;
    char *dir = tu_rule_dir(files, &text, 1);
    struct diag_list errs = DIAG_LIST_INIT;
    ck_assert_ptr_null(rule_set_load_with(dir, NULL, &errs)); /* validate & co. refuse it */
    size_t strict_errors = errs.len;
    ck_assert_uint_gt(strict_errors, 0);
    diag_list_release(&errs);

    struct rule_set *rs = rule_set_load_partial(dir, NULL, &errs);
    ck_assert_ptr_nonnull(rs);
    ck_assert_uint_eq(errs.len, strict_errors); /* the same errors */
    ck_assert(has_diag(&errs, DIAG_ERROR, "test.yaml", 25, 41, "unknown predicate \"json-typ\""));
    ck_assert_int_eq(rule_set_ok(rs), 0);
    ck_assert_uint_eq(rule_set_count(rs), 1);
    const struct rule *good = rule_set_rule(rs, 0);
    ck_assert_str_eq(rule_id(good), "t.good");
    ck_assert_uint_eq(rule_set_refused_count(rs), 1);
    const struct rule_refused *bad = rule_set_refused(rs, 0);
    ck_assert_str_eq(bad->id, "t.bad");
    ck_assert_str_eq(bad->file, "test.yaml");
    ck_assert_uint_eq(bad->line, 14);
    ck_assert_uint_eq(bad->col, 5);
    ck_assert_uint_eq(bad->id_line, 14);
    ck_assert_uint_eq(bad->id_col, 9);
    ck_assert_int_eq(bad->id_valid, 1);
    /* the documents it read, with their positions */
    ck_assert_ptr_nonnull(rule_set_manifest_doc(rs));
    ck_assert_uint_eq(rule_set_file_count(rs), 1);
    const doc *d = rule_set_file_doc(rs, 0);
    ck_assert_ptr_nonnull(d);
    struct doc_pos pos;
    ck_assert_int_eq(doc_pointer_pos(d, "/rules/1/id", &pos, NULL), 0);
    ck_assert_uint_eq(pos.line, 14);
    ck_assert_uint_eq(pos.col, 9);
    rule_set_free(rs);
    diag_list_release(&errs);

    /* lint on it: the refusal at the refused rule, and lint's own finding on the good one */
    char *fx = fixtures();
    struct diag_list out = DIAG_LIST_INIT;
    ck_assert_int_eq(lint_rule_dir(dir, fx, &out), 0);
    ck_assert(has_diag(&out, DIAG_ERROR, "test.yaml", 25, 41, "unknown predicate \"json-typ\""));
    ck_assert(has_diag(&out, DIAG_WARNING, "test.yaml", 2, 9, "rule t.good has no examples"));
    ck_assert(has_diag(&out, DIAG_WARNING, "test.yaml", 14, 9, "rule t.bad has no examples"));
    diag_list_release(&out);

    /* an error in the manifest: no rule compiled, the rule files still parsed and linted */
    tu_write_file(dir, "manifest.yaml",
                  "name: test\ntag: v0.0.0-test\ndescription-format: 0.9.0\nbogus: 1\n"
                  "versions: [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28]\n"
                  "document:\n  versions-member: protocolVersions\n  component-ref:\n"
                  "    member: $componentRef\n    prefix: /components/schemas/\n"
                  "    scopes: [/tools/*/inputSchema]\nfiles: [test.yaml]\n");
    rs = rule_set_load_partial(dir, NULL, &errs);
    ck_assert_ptr_nonnull(rs);
    ck_assert_uint_eq(errs.len, 1);
    ck_assert(has_diag(&errs, DIAG_ERROR, "manifest.yaml", 4, 1, "unknown member \"bogus\""));
    ck_assert_int_eq(rule_set_ok(rs), 0);
    ck_assert_uint_eq(rule_set_count(rs), 0);
    ck_assert_uint_eq(rule_set_file_count(rs), 1);
    ck_assert_ptr_nonnull(rule_set_file_doc(rs, 0));
    rule_set_free(rs);
    diag_list_release(&errs);
    ck_assert_int_eq(lint_rule_dir(dir, fx, &out), 0);
    ck_assert(has_diag(&out, DIAG_ERROR, "manifest.yaml", 4, 1, "unknown member \"bogus\""));
    ck_assert(has_diag(&out, DIAG_WARNING, "test.yaml", 2, 9, "rule t.good has no examples"));
    diag_list_release(&out);

    /* a manifest that does not parse: no program */
    tu_write_file(dir, "manifest.yaml", "name: [\n");
    ck_assert_ptr_null(rule_set_load_partial(dir, NULL, &errs));
    ck_assert_uint_eq(errs.len, 1);
    diag_list_release(&errs);
    free(fx);
    tu_rmdir(dir);
}
END_TEST

START_TEST(no_rule_set)
{
    struct diag_list out = DIAG_LIST_INIT;
    ck_assert_int_eq(lint_rule_dir("/nonexistent/rules", NULL, &out), -1);
    ck_assert_uint_eq(out.len, 1);
    diag_list_release(&out);
}
END_TEST

START_TEST(default_fixtures)
{
    static const char *const in[] = {"rules-yaml", "/a/b/rules-yaml/", "x/rules", ".", "../..", "/rules"};
    static const char *const want[] = {"conformance", "/a/b/conformance", "x/conformance", "./../conformance",
                                       "../../../conformance", "/conformance"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
        char *got = lint_default_fixtures(in[i]);
        ck_assert_str_eq(got, want[i]);
        free(got);
    }
}
END_TEST

struct tally {
    size_t passed, failed;
    char lines[8][200];
};

static void collect(const struct rules_test_result *r, void *arg)
{
    struct tally *t = arg;
    size_t n = t->passed + t->failed;
    if (r->passed) t->passed++;
    else t->failed++;
    if (n < 8) snprintf(t->lines[n], sizeof t->lines[n], "%s %s %s", r->passed ? "ok" : "FAIL", r->rule, r->pointer);
}

/* `rules test`: exactly at the pointer, the right level, and only the example's rule. */
START_TEST(examples)
{
    char *dir = xasprintf("%s/rules-lint/planted", tu_data_dir());
    char *fx = fixtures();
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_ptr_nonnull(rs);
    struct tally t;
    memset(&t, 0, sizeof t);
    ck_assert_uint_eq(rules_test_run_examples(rs, fx, 1, NULL, NULL, collect, &t), 3);
    ck_assert_uint_eq(t.passed, 1);
    ck_assert_str_eq(t.lines[0], "ok planted.examples /tools/0/inputSchema");
    ck_assert_str_eq(t.lines[2], "FAIL planted.examples /tools/5/inputSchema"); /* valid, but nothing there */
    ck_assert_str_eq(t.lines[3], "FAIL planted.level /tools/0/inputSchema");    /* a warning, not an error */
    rule_set_free(rs);
    free(fx);
    free(dir);
}
END_TEST

/* The shipped rule set: every example passes (make test-rules runs the command too). */
START_TEST(shipped_examples)
{
    const char *top = getenv("MCPDESC_TOP");
    char *dir = xasprintf("%s/rules-yaml", top ? top : ".");
    char *fx = lint_default_fixtures(dir);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_msg(rs != NULL, "the shipped rule set does not load");
    struct tally t;
    memset(&t, 0, sizeof t);
    ck_assert_uint_eq(rules_test_run_examples(rs, fx, 1, NULL, NULL, collect, &t), 0);
    ck_assert_uint_gt(t.passed, 0);
    rule_set_free(rs);
    free(fx);
    free(dir);
}
END_TEST

Suite *lint_suite(void)
{
    Suite *s = suite_create("lint");
    TCase *tc = tcase_create("lint");
    tcase_add_loop_test(tc, finds_planted_mistake, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, clean_file);
    tcase_add_test(tc, all_findings_of_a_file);
    tcase_add_test(tc, partial_program);
    tcase_add_test(tc, no_rule_set);
    tcase_add_test(tc, default_fixtures);
    tcase_add_test(tc, examples);
    tcase_add_test(tc, shipped_examples);
    suite_add_tcase(s, tc);
    return s;
}
