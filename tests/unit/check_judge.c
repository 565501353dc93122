/* check_judge.c - judge one document (judge/judge.h), the path every front end takes:
 * a buffer judged (JSON, YAML by name), each reason a document is not judged (read,
 * parse, not an object, no selected version) with its position, a found document
 * skipped or kept (a near miss of mcpDescription), a found file that does not parse
 * skipped unless named as a description (or --strict-inputs), and the options passed to
 * the rules. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "judge/judge.h"
#include "testutil.h"
#include "base/util.h"

#define RULES                                                                              \
    "rules:\n  - id: t.name\n    owner: t\n    surface: Tool\n    kind: structural\n"     \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"  \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"           \
    "    check: {select: '/tools/*', require: {has: name}, message: 'no name'}\n"

static struct rule_set *rules(void)
{
    return tu_rules_ok(RULES);
}

static void judge_buffer(const struct rule_set *rs, const char *name, const char *text,
                         const struct judge_options *o, struct judge_result *out)
{
    struct judge_source src = {JUDGE_BUFFER, name, NULL, text, strlen(text)};
    judge_document(rs, &src, o, out);
}

START_TEST(test_judged)
{
    struct rule_set *rs = rules();
    struct judge_result r;
    judge_buffer(rs, "a.json", "{\"tools\": [{\"name\": \"x\"},\n {\"n\": 1}]}", NULL, &r);
    ck_assert_ptr_nonnull(r.d);
    ck_assert_ptr_null(r.error);
    ck_assert_ptr_null(r.skipped);
    ck_assert_uint_eq(r.diags.len, 1);
    ck_assert_str_eq(r.diags.items[0].rule, "t.name");
    ck_assert_str_eq(r.diags.items[0].file, "a.json");
    ck_assert_str_eq(r.diags.items[0].pointer, "/tools/1");
    ck_assert_uint_eq(r.diags.items[0].line, 2);
    ck_assert_uint_eq(r.diags.items[0].col, 2);
    judge_result_release(&r);
    ck_assert_ptr_null(r.d);
    ck_assert_uint_eq(r.diags.len, 0);

    /* YAML by the name; the same finding */
    judge_buffer(rs, "a.yml", "tools:\n  - n: 1\n", NULL, &r);
    ck_assert_ptr_nonnull(r.d);
    ck_assert_uint_eq(r.diags.len, 1);
    ck_assert_uint_eq(r.diags.items[0].line, 2);
    judge_result_release(&r);

    /* NULL data is an empty buffer: a parse error */
    struct judge_source empty = {JUDGE_BUFFER, "e.json", NULL, NULL, 5};
    judge_document(rs, &empty, NULL, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

START_TEST(test_not_judged)
{
    struct rule_set *rs = rules();
    struct judge_result r;
    /* cannot be parsed: the loader's message at its position */
    judge_buffer(rs, "bad.json", "{\"tools\": [\n  1,", NULL, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_nonnull(r.error);
    ck_assert_int_eq(r.error->level, DIAG_ERROR);
    ck_assert_ptr_null(r.error->rule);
    ck_assert_ptr_null(r.error->pointer);
    ck_assert_str_eq(r.error->file, "bad.json");
    ck_assert_uint_eq(r.error->line, 2);
    ck_assert_uint_eq(r.diags.len, 0);
    judge_result_release(&r);
    ck_assert_ptr_null(r.error);

    /* not an object */
    judge_buffer(rs, "arr.json", "[]", NULL, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_nonnull(r.error);
    ck_assert_uint_eq(r.error->line, 1);
    ck_assert_uint_eq(r.error->col, 1);
    ck_assert_str_eq(r.error->message, "an MCP Description must be a JSON object with \"mcpDescription\"");
    judge_result_release(&r);

    /* cannot be read: no position */
    struct judge_source missing = {JUDGE_FILE, "/nonexistent/x.json", "/nonexistent/x.json", NULL, 0};
    judge_document(rs, &missing, NULL, &r);
    ck_assert_ptr_nonnull(r.error);
    ck_assert_str_eq(r.error->file, "/nonexistent/x.json");
    ck_assert_uint_eq(r.error->line, 0);
    judge_result_release(&r);

    /* a version selection that meets none of the document's: at its protocolVersions */
    struct eval_options eo = {.versions = (ver_mask)1 << 0}; /* 2024-11-05 */
    struct judge_options o = {&eo, NULL, 0, 0, 0};
    judge_buffer(rs, "v.json", "{\"tools\": [],\n \"protocolVersions\": [\"2025-06-18\"]}", &o, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_nonnull(r.error);
    ck_assert_uint_eq(r.error->line, 2);
    ck_assert_uint_eq(r.error->col, 22);
    ck_assert_ptr_nonnull(strstr(r.error->message, "selects none of the protocol versions"));
    judge_result_release(&r);
    /* ... and one that meets them judges, with the options' versions */
    eo.versions = (ver_mask)1 << 2; /* 2025-06-18 */
    judge_buffer(rs, "v.json", "{\"tools\": [{}], \"protocolVersions\": [\"2025-06-18\"]}", &o, &r);
    ck_assert_ptr_nonnull(r.d);
    ck_assert_uint_eq(r.diags.len, 1);
    ck_assert_uint_eq(r.diags.items[0].versions, (ver_mask)1 << 2);
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

static int none_enabled(const char *id, void *arg) { return 0; }

START_TEST(test_found_and_options)
{
    struct rule_set *rs = rules();
    struct judge_result r;
    struct judge_options found = {NULL, NULL, 1, 0, 0};
    judge_buffer(rs, "package.json", "{\"name\": \"x\", \"tools\": [{}]}", &found, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_null(r.error);
    ck_assert_str_eq(r.skipped, "no mcpDescription member");
    judge_result_release(&r);
    judge_buffer(rs, "list.json", "[1]", &found, &r); /* not an object: skipped, no error */
    ck_assert_ptr_nonnull(r.skipped);
    ck_assert_ptr_null(r.error);
    judge_result_release(&r);
    judge_buffer(rs, "typo.json", "{\"MCP_Descripton\": \"0.9.0\", \"tools\": [{}]}", &found, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.d);
    ck_assert_uint_eq(r.diags.len, 1);
    judge_result_release(&r);
    /* the same document, named: judged whatever its members */
    judge_buffer(rs, "package.json", "{\"name\": \"x\", \"tools\": [{}]}", NULL, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_uint_eq(r.diags.len, 1);
    judge_result_release(&r);
    /* the eval options reach the rules */
    struct eval_options eo = {.enabled = none_enabled};
    struct judge_options o = {&eo, NULL, 0, 0, 0};
    judge_buffer(rs, "a.json", "{\"tools\": [{}]}", &o, &r);
    ck_assert_ptr_nonnull(r.d);
    ck_assert_uint_eq(r.diags.len, 0);
    judge_result_release(&r);
    /* and the limits reach the loader */
    struct doc_limits lim = {0, 2};
    struct judge_options deep = {NULL, &lim, 0, 0, 0};
    judge_buffer(rs, "deep.json", "{\"a\": {\"b\": {\"c\": 1}}}", &deep, &r);
    ck_assert_ptr_null(r.d);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

START_TEST(test_named_description)
{
    /* (^|/)([^/]+\.)?mcp-description\.(json|ya?ml)$ */
    ck_assert(judge_named_description("mcp-description.json", "", 0));
    ck_assert(judge_named_description("a/b/weather.mcp-description.yaml", "", 0));
    ck_assert(judge_named_description("x.mcp-description.yml", "", 0));
    ck_assert(!judge_named_description("xmcp-description.json", "", 0));
    ck_assert(!judge_named_description("a/.mcp-description.json", "", 0));
    ck_assert(!judge_named_description("mcp-description.jsonc", "", 0));
    ck_assert(!judge_named_description("mcp-description.json/tsconfig.json", "", 0));
    /* the text: mcpDescription, or a misspelling the directory search accepts */
    const char *t[] = {"mcpDescription: 0.9.0", "{\"mcp_description\": 1", "MCP-Descripton:",
                       "a\n  mcpdescription"};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        ck_assert_msg(judge_named_description("t.json", t[i], strlen(t[i])), "%s", t[i]);
    const char *f[] = {"", "{\"description\": 1", "mcpDescriptionsAndMore: 1",
                       "{\"name\": \"x\", // comment"};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        ck_assert_msg(!judge_named_description("t.json", f[i], strlen(f[i])), "%s", f[i]);
}
END_TEST

/* Judge the file NAME in DIR, written with TEXT (NULL: not written), with OPTS. */
static void judge_written(const struct rule_set *rs, const char *dir, const char *name,
                          const char *text, const struct judge_options *o,
                          struct judge_result *out)
{
    char *path = xasprintf("%s/%s", dir, name);
    if (text) {
        FILE *fp = fopen(path, "w");
        ck_assert_ptr_nonnull(fp);
        fputs(text, fp);
        fclose(fp);
    }
    struct judge_source src = {JUDGE_FILE, path, path, NULL, 0};
    judge_document(rs, &src, o, out);
    if (text) unlink(path);
    free(path);
}

START_TEST(test_found_unparsed)
{
    struct rule_set *rs = rules();
    struct judge_result r;
    char dir[] = "/tmp/check_judge.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *jsonc = "{\n  // a comment\n  \"compilerOptions\": {}\n}\n";
    struct judge_options found = {NULL, NULL, 1, 0, 0}, strict = {NULL, NULL, 1, 1, 0};
    /* found, named nothing: skipped, no error */
    judge_written(rs, dir, "tsconfig.json", jsonc, &found, &r);
    ck_assert_ptr_null(r.error);
    ck_assert_ptr_null(r.d);
    ck_assert_str_eq(r.skipped, "not a description: does not parse");
    judge_result_release(&r);
    judge_written(rs, dir, "k8s.yaml", "kind: A\n---\nkind: B\n", &found, &r);
    ck_assert_str_eq(r.skipped, "not a description: does not parse");
    judge_result_release(&r);
    /* --strict-inputs, or named on the command line: an input error */
    judge_written(rs, dir, "tsconfig.json", jsonc, &strict, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    judge_written(rs, dir, "tsconfig.json", jsonc, NULL, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    /* named as a description by its name, or by its text: an input error */
    judge_written(rs, dir, "w.mcp-description.json", jsonc, &found, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    judge_written(rs, dir, "notes.yaml", "mcpDescription: 0.9.0\n---\nx: 1\n", &found, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    /* a file that cannot be read is an input error, found or not */
    judge_written(rs, dir, "gone.json", NULL, &found, &r);
    ck_assert_ptr_null(r.skipped);
    ck_assert_ptr_nonnull(r.error);
    judge_result_release(&r);
    rmdir(dir);
    rule_set_free(rs);
}
END_TEST

Suite *judge_suite(void)
{
    Suite *s = suite_create("judge");
    TCase *tc = tcase_create("judge");
    tcase_add_test(tc, test_judged);
    tcase_add_test(tc, test_not_judged);
    tcase_add_test(tc, test_found_and_options);
    tcase_add_test(tc, test_named_description);
    tcase_add_test(tc, test_found_unparsed);
    suite_add_tcase(s, tc);
    return s;
}
