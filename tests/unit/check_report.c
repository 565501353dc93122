/* check_report.c - the report formats byte for byte (text, json, github) and SARIF as a
 * JSON value (its rule list, results, locations, property bags, notifications), written
 * to memory with open_memstream; plus the embedding facade of mcpdesc.h. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/mcpdesc.h"
#include "schema/schema.h"
#include "rules/lock.h"
#include "findings/report.h"
#include "testutil.h"
#include "base/util.h"

#define RULE(id, level, summary, req)                                                              \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: structural\n"                      \
    "    level: " level "\n    status: stable\n    enforcement: internal\n    applies: all\n"      \
    "    summary: " summary "\n    requirement: " req "\n    based-on: [{tier: 1, text: src}]\n"   \
    "    check: {select: /tools/*, require: {has: name}, message: m}\n"

static const char *const rules_text =
    "rules:\n" RULE("t.err", "must", "Errors are errors.", "Every tool has a name.")
        RULE("t.warn", "should", "Warnings warn.", "Tools should be named.")
            RULE("t.info", "may", "Infos inform.", "Tools may be named.");

static const char *const manifest_text = "name: report-test\n"
                                         "tag: v1.2.3\n"
                                         "description-format: 0.9.0\n"
                                         "docs-url: https://example.test/rules\n"
                                         "versions: [2024-11-05, 2025-03-26, 2025-06-18]\n"
                                         "document:\n"
                                         "  versions-member: protocolVersions\n"
                                         "  collections: [tools]\n"
                                         "  component-ref:\n"
                                         "    member: $componentRef\n"
                                         "    prefix: /components/schemas/\n"
                                         "    scopes: [/tools/*/inputSchema]\n"
                                         "files: [t.yaml]\n";

struct fixture {
    char dir[64];
    struct rule_set *rs;
    doc *d;
    struct report_file files[3];
};

/* The test set in DIR, locked as its tag first: reports name a set that no lock backs
 * as modified (tests/rules-modified.sh), and these tests are about a released one. */
static struct rule_set *load_locked(const char *dir)
{
    struct rule_set *rs = tu_load_ok(dir);
    FILE *quiet = fopen("/dev/null", "w");
    ck_assert_int_eq(lock_write(rs, "v1.2.3", quiet), 0);
    fclose(quiet);
    rule_set_free(rs);
    rs = tu_load_ok(dir);
    ck_assert_str_eq(rule_set_released_tag(rs), "v1.2.3");
    return rs;
}

/* Three files: one with an error, a warning (with hint, component) and an info; one
 * that did not parse; and a file on standard input with nothing to say. */
static void setup(struct fixture *fx)
{
    strcpy(fx->dir, "/tmp/mcpdesc-report-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(fx->dir));
    tu_write_file(fx->dir, "manifest.yaml", manifest_text);
    tu_write_file(fx->dir, "t.yaml", rules_text);
    fx->rs = load_locked(fx->dir);
    fx->d = tu_doc("{\"tools\": [\n  {\"name\": \"a\"}\n]}");

    memset(fx->files, 0, sizeof fx->files);
    struct report_file *f = &fx->files[0];
    f->name = "dir/a b%.json";
    f->d = fx->d;
    struct diag *d =
        diag_add(&f->diags, DIAG_ERROR, "t.err", f->name, 2, 3, "bad: name, really\nyes");
    d->pointer = xstrdup("/tools/0");
    d->versions = 3;
    d = diag_add(&f->diags, DIAG_WARNING, "t.warn", f->name, 2, 5, "100% odd");
    d->pointer = xstrdup("/tools/0/name");
    d->versions = 4;
    d->hint = xstrdup("rename it");
    d->component = xstrdup("/components/schemas/A");
    d = diag_add(&f->diags, DIAG_INFO, "mcpdesc.component-ref.cycle", f->name, 1, 1, "fyi");
    d->pointer = xstrdup("");
    d->versions = 7;

    f = &fx->files[1];
    f->name = "broken.json";
    f->error = xcalloc(1, sizeof *f->error);
    f->error->level = DIAG_ERROR;
    f->error->line = 4;
    f->error->col = 2;
    f->error->message = xstrdup("invalid JSON: '}' expected");

    fx->files[2].name = "<stdin>";
}

static void teardown(struct fixture *fx)
{
    for (size_t i = 0; i < 3; i++) {
        diag_list_release(&fx->files[i].diags);
        if (fx->files[i].error) {
            diag_clear(fx->files[i].error);
            free(fx->files[i].error);
        }
    }
    doc_free(fx->d);
    rule_set_free(fx->rs);
    tu_rmdir(xstrdup(fx->dir));
}

/* Run format NAME over the fixture; returns the output (new string). */
static char *render(struct fixture *fx, const char *name, int quiet, int color, int excerpts)
{
    const struct report_format *fmt = report_find(name);
    ck_assert_msg(fmt != NULL, "format %s", name);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    char *cwd = getcwd(NULL, 0); /* as validate asks for it: once per run */
    struct report_opts o = {.out = f,
                            .rs = fx->rs,
                            .quiet = quiet,
                            .color = color,
                            .excerpts = excerpts,
                            .cwd = cwd,
                            /* as validate: no --docs-url or config, the manifest's */
                            .docs_url = rule_set_docs_url(fx->rs)};
    fmt->write(&o, fx->files, 3);
    free(cwd);
    fclose(f);
    return out;
}

START_TEST(test_names)
{
    ck_assert_str_eq(report_names(), "text, json, sarif, github, junit, gitlab, markdown, html");
    ck_assert_ptr_nonnull(report_find("html"));
    ck_assert_ptr_nonnull(report_find("sarif"));
    ck_assert_ptr_nonnull(report_find("github"));
    ck_assert_ptr_null(report_find("xml"));
}
END_TEST

START_TEST(test_text)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "text", 0, 0, 0);
    ck_assert_str_eq(
        out,
        "dir/a b%.json:2:3: error: bad: name, really\nyes [t.err] (2024-11-05, 2025-03-26)\n"
        "dir/a b%.json:2:5: warning: 100% odd [t.warn] (2025-06-18)\n"
        "dir/a b%.json:1:1: info: fyi [mcpdesc.component-ref.cycle] (2024-11-05, 2025-03-26, "
        "2025-06-18)\n"
        "broken.json:4:2: error: invalid JSON: '}' expected\n"
        "rules: report-test v1.2.3 "
        "(sha256:feebe8e587ddb06866ef80cae52042beec758c58ccb257cab2d82d6290dca20f), engine "
        "mcpdesc " MCPDESC_VERSION "\n"
        "1 error, 1 warning, 1 info, 1 input error in 3 files\n");
    free(out);
    /* a terminal: colour, the source line with a caret, component and hint */
    out = render(&fx, "text", 1, 1, 1);
    ck_assert_str_eq(
        out,
        "\033[1mdir/a b%.json:2:3:\033[0m \033[1;31merror:\033[0m bad: name, really\nyes [t.err] "
        "(2024-11-05, 2025-03-26)\n"
        "     2 |   {\"name\": \"a\"}\n"
        "       |   \033[1;32m^\033[0m\n"
        "\033[1mbroken.json:4:2:\033[0m \033[1;31merror:\033[0m invalid JSON: '}' expected\n"
        "rules: report-test v1.2.3 "
        "(sha256:feebe8e587ddb06866ef80cae52042beec758c58ccb257cab2d82d6290dca20f), engine "
        "mcpdesc " MCPDESC_VERSION "\n"
        "1 error, 1 warning, 1 info, 1 input error in 3 files\n");
    free(out);
    out = render(&fx, "text", 0, 0, 1);
    ck_assert_ptr_nonnull(strstr(out,
                                 "       |     ^\n       = through /components/schemas/A\n"
                                 "       = hint: rename it\n"));
    free(out);
    /* no position (a file that cannot be opened): no :0:0 */
    fx.files[1].error->line = fx.files[1].error->col = 0;
    out = render(&fx, "text", 1, 0, 0);
    ck_assert_ptr_nonnull(strstr(out, "\nbroken.json: error: invalid JSON: '}' expected\n"));
    free(out);
    teardown(&fx);
}
END_TEST

START_TEST(test_json)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "json", 1, 0, 0);
    char *fx_rules_dir = realpath(rule_set_dir(fx.rs), NULL); /* the report's ruleSet.dir */
    json_error_t e;
    json_t *got = json_loads(out, 0, &e);
    ck_assert_msg(got != NULL, "json: %s", e.text);
    json_t *want = json_pack(
        "{s:s, s:{s:s, s:s, s:s, s:b, s:s, s:s, s:b}, s:[{s:s, s:[{s:s, s:s, s:s, s:[s, s], s:s, "
        "s:i, s:i}]},"
        " {s:s, s:{s:s, s:i, s:i}}, {s:s, s:[]}], s:{s:i, s:i, s:i, s:i, s:i}}",
        "mcpdesc", MCPDESC_VERSION, "rules", "name", "report-test", "tag", "v1.2.3", "derivedFrom",
        "v1.2.3", "modified", 0, "digest", rule_set_digest(fx.rs), "dir", fx_rules_dir, "shipped",
        0, "files", "file", "dir/a b%.json", "diagnostics", "rule", "t.err", "level", "error",
        "pointer", "/tools/0", "versions", "2024-11-05", "2025-03-26", "message",
        "bad: name, really\nyes", "line", 2, "column", 3, "file", "broken.json", "error", "message",
        "invalid JSON: '}' expected", "line", 4, "column", 2, "file", "<stdin>", "diagnostics",
        "summary", "files", 3, "errors", 1, "warnings", 1, "infos", 1, "inputErrors", 1);
    free(fx_rules_dir);
    ck_assert_ptr_nonnull(want);
    ck_assert_msg(json_equal(got, want), "got %s", out);
    json_decref(got);
    json_decref(want);
    free(out);
    teardown(&fx);
}
END_TEST

START_TEST(test_github)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "github", 0, 1, 1);
    ck_assert_str_eq(
        out,
        "::error file=dir/a b%25.json,line=2,col=3,title=t.err::bad: name, really%0Ayes "
        "(2024-11-05, 2025-03-26)\n"
        "::error file=broken.json,line=4,col=2,title=mcpdesc::invalid JSON: '}' expected\n"
        "::warning file=dir/a b%25.json,line=2,col=5,title=t.warn::100%25 odd (2025-06-18)%0A"
        "hint: rename it\n"
        "::notice file=dir/a b%25.json,line=1,col=1,title=mcpdesc.component-ref.cycle::fyi "
        "(2024-11-05, 2025-03-26, 2025-06-18)\n"
        "rules: report-test v1.2.3 "
        "(sha256:feebe8e587ddb06866ef80cae52042beec758c58ccb257cab2d82d6290dca20f), engine "
        "mcpdesc " MCPDESC_VERSION "\n"
        "1 error, 1 warning, 1 info, 1 input error in 3 files\n");
    free(out);
    out = render(&fx, "github", 1, 0, 0);
    ck_assert_ptr_null(strstr(out, "::warning"));
    ck_assert_ptr_null(strstr(out, "::notice"));
    free(out);
    /* properties escape ':' and ',' too; no file for standard input; no position */
    fx.files[0].name = "a:b,c.json";
    fx.files[0].diags.items[0].line = 0;
    fx.files[1].name = "<stdin>";
    out = render(&fx, "github", 1, 0, 0);
    ck_assert_str_eq(out,
                     "::error file=a%3Ab%2Cc.json,title=t.err::bad: name, really%0Ayes "
                     "(2024-11-05, 2025-03-26)\n"
                     "::error line=4,col=2,title=mcpdesc::invalid JSON: '}' expected\n"
                     "rules: report-test v1.2.3 "
                     "(sha256:feebe8e587ddb06866ef80cae52042beec758c58ccb257cab2d82d6290dca20f), "
                     "engine mcpdesc " MCPDESC_VERSION "\n"
                     "1 error, 1 warning, 1 info, 1 input error in 3 files\n");
    free(out);
    teardown(&fx);
}
END_TEST

static json_t *sarif_of(struct fixture *fx, int quiet)
{
    char *out = render(fx, "sarif", quiet, 1, 1);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    ck_assert_msg(j != NULL, "sarif is not JSON: %s", e.text);
    free(out);
    return j;
}

START_TEST(test_sarif)
{
    struct fixture fx;
    setup(&fx);
    json_t *s = sarif_of(&fx, 0);
    ck_assert_str_eq(json_string_value(json_object_get(s, "version")), "2.1.0");
    ck_assert_int_eq(json_array_size(json_object_get(s, "runs")), 1);
    json_t *run = json_array_get(json_object_get(s, "runs"), 0);
    json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
    ck_assert_str_eq(json_string_value(json_object_get(driver, "name")), "mcpdesc");
    ck_assert_str_eq(json_string_value(json_object_get(driver, "version")), MCPDESC_VERSION);
    /* optional (SARIF 3.19.17), and mcpdesc has no web site to name */
    ck_assert_ptr_null(json_object_get(driver, "informationUri"));

    /* rules: the three of the set in order, then every built-in, then mcpdesc.parse (a
     * file of the fixture does not parse) */
    json_t *rules = json_object_get(driver, "rules");
    ck_assert_int_eq(json_array_size(rules), 3 + res_nbuiltins + 1);
    ck_assert_str_eq(
        json_string_value(json_object_get(json_array_get(rules, 3 + res_nbuiltins), "id")),
        REPORT_INPUT_RULE);
    json_t *want = json_pack(
        "{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:s, s:{s:s}, s:{s:[s, s], s:s, s:[s, s, s]}}",
        "id", "t.warn", "name", "TWarn", "shortDescription", "text", "Tools should be named.",
        "fullDescription", "text", "Warnings warn.", "help", "text",
        "Warnings warn.\n\nTools should be named.\n\nRule page: "
        "https://example.test/rules/t.warn.html",
        "markdown",
        "**Tools should be named.**\n\nWarnings warn.\n\n[Rule "
        "page](https://example.test/rules/t.warn.html)",
        "helpUri", "https://example.test/rules/t.warn.html", "defaultConfiguration", "level",
        "warning", "properties", "tags", "Tool", "structural", "requirementLevel", "should",
        "versions", "2024-11-05", "2025-03-26", "2025-06-18");
    ck_assert_msg(json_equal(json_array_get(rules, 1), want), "rule 1: %s",
                  json_dumps(json_array_get(rules, 1), JSON_COMPACT));
    json_decref(want);
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_object_get(json_array_get(rules, 2), "defaultConfiguration"), "level")),
        "note");
    json_t *b = json_array_get(rules, 3);
    ck_assert_str_eq(json_string_value(json_object_get(b, "id")), res_builtins[0].id);
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(b, "shortDescription"), "text")),
        res_builtins[0].summary);

    /* results */
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    json_t *results = json_object_get(run, "results");
    ck_assert_int_eq(json_array_size(results), 4);
    want = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:{s:s, s:s}, s:{s:i, s:i}}, s:[{s:s}]}],"
                     " s:{s:[s], s:s, s:s, s:s, s:s}}",
                     "ruleId", "t.warn", "ruleIndex", 1, "level", "warning", "message", "text",
                     "100% odd", "locations", "physicalLocation", "artifactLocation", "uri",
                     "dir/a%20b%25.json", "uriBaseId", "%SRCROOT%", "region", "startLine", 2,
                     "startColumn", 5, "logicalLocations", "fullyQualifiedName", "/tools/0/name",
                     "properties", "versions", "2025-06-18", "ruleSetTag", "v1.2.3",
                     "ruleSetDigest", rule_set_digest(fx.rs), "hint", "rename it", "component",
                     "/components/schemas/A");
    ck_assert_msg(json_equal(json_array_get(results, 1), want), "result 1: %s",
                  json_dumps(json_array_get(results, 1), JSON_COMPACT));
    json_decref(want);
    json_t *r2 = json_array_get(results, 2);
    ck_assert_int_eq(json_integer_value(json_object_get(r2, "ruleIndex")), 3 + 6);
    ck_assert_str_eq(json_string_value(json_object_get(r2, "level")), "note");

    /* the parse failure is a result of mcpdesc.parse at its position (code scanning shows
     * results only), and a notification */
    json_t *r3 = json_array_get(results, 3);
    ck_assert_str_eq(json_string_value(json_object_get(r3, "ruleId")), REPORT_INPUT_RULE);
    ck_assert_int_eq(json_integer_value(json_object_get(r3, "ruleIndex")), 3 + res_nbuiltins);
    ck_assert_str_eq(json_string_value(json_object_get(r3, "level")), "error");
    json_t *reg = json_object_get(
        json_object_get(json_array_get(json_object_get(r3, "locations"), 0), "physicalLocation"),
        "region");
    ck_assert_int_eq(json_integer_value(json_object_get(reg, "startLine")), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(reg, "startColumn")), 2);
    json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
    ck_assert(json_is_false(json_object_get(inv, "executionSuccessful")));
    json_t *notes = json_object_get(inv, "toolExecutionNotifications");
    ck_assert_int_eq(json_array_size(notes), 1);
    want = json_pack("{s:{s:s}, s:s, s:[{s:{s:{s:s, s:s}, s:{s:i, s:i}}}]}", "message", "text",
                     "invalid JSON: '}' expected", "level", "error", "locations",
                     "physicalLocation", "artifactLocation", "uri", "broken.json", "uriBaseId",
                     "%SRCROOT%", "region", "startLine", 4, "startColumn", 2);
    ck_assert(json_equal(json_array_get(notes, 0), want));
    json_decref(want);

    struct buf base = BUF_INIT;
    buf_addf(&base, "file://%s%s", cwd, strcmp(cwd, "/") ? "/" : "");
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_object_get(json_object_get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri")),
        buf_str(&base));
    buf_release(&base);
    ck_assert_str_eq(json_string_value(json_object_get(run, "columnKind")), "unicodeCodePoints");
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_object_get(run, "properties"), "ruleSet"), "tag")),
                     "v1.2.3");
    json_decref(s);

    /* -q keeps only errors: the finding's and the parse failure's */
    s = sarif_of(&fx, 1);
    run = json_array_get(json_object_get(s, "runs"), 0);
    ck_assert_int_eq(json_array_size(json_object_get(run, "results")), 2);
    json_decref(s);
    teardown(&fx);
}
END_TEST

/* The other places a finding concerns (validate --together: the tool of another server
 * a name collides with), on the fixture's error: one with a place, pointer and message,
 * one with none of them ("c.json", the document itself). Each format, exactly. */
static void add_related(struct fixture *fx)
{
    struct diag *d = &fx->files[0].diags.items[0];
    diag_add_related(d, "b.json", 4, 15, "/tools/0/name", "the tool \"search\" of b.json");
    diag_add_related(d, "c.json", 0, 0, "", NULL);
}

/* The line of OUT that starts with PREFIX, up to its newline (new string). */
static char *line_of(const char *out, const char *prefix)
{
    const char *at = strstr(out, prefix);
    ck_assert_msg(at != NULL, "no \"%s\" in %s", prefix, out);
    return xstrndup(at, strcspn(at, "\n"));
}

/* Is S valid against the OASIS SARIF 2.1.0 schema, where the shared material has it
 * ($MCPDESC_SHARED, else ../shared beside the checkout, as tests/validate-sarif.sh finds
 * it)? Without it, says so and checks nothing. */
static void assert_valid_sarif(json_t *s)
{
    const char *shared = getenv("MCPDESC_SHARED");
    const char *top = getenv("MCPDESC_TOP");
    char *path = shared
        ? xasprintf("%s/data/sarif/sarif-schema-2.1.0.json", shared)
        : xasprintf("%s/../shared/data/sarif/sarif-schema-2.1.0.json", top ? top : "..");
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "check_report: no SARIF schema at %s: not validated\n", path);
        free(path);
        return;
    }
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *sch = schema_compile_file(ctx, path, SCHEMA_DRAFT04, &errs);
    ck_assert_msg(sch != NULL, "%s: %s", path, errs.len ? errs.items[0].message : "?");
    int r = schema_validate(sch, s, &errs);
    ck_assert_msg(r == 0, "not valid SARIF: %s at %s", errs.len ? errs.items[0].message : "?",
                  errs.len ? errs.items[0].instance_location : "?");
    schema_errors_release(&errs);
    schema_free(sch);
    schema_ctx_free(ctx);
    free(path);
}

START_TEST(test_related)
{
    struct fixture fx;
    setup(&fx);
    add_related(&fx);
    /* text: one line each after the finding's, in the excerpt's style under one */
    char *out = render(&fx, "text", 1, 0, 0);
    ck_assert_ptr_nonnull(strstr(out,
                                 "yes [t.err] (2024-11-05, 2025-03-26)\n"
                                 "  related: b.json:4:15 /tools/0/name: the tool \"search\" "
                                 "of b.json\n"
                                 "  related: c.json (document)\n"
                                 "broken.json:4:2: error:"));
    free(out);
    out = render(&fx, "text", 1, 1, 1);
    ck_assert_ptr_nonnull(strstr(out,
                                 "       |   \033[1;32m^\033[0m\n"
                                 "       = related: b.json:4:15 /tools/0/name: the tool "
                                 "\"search\" of b.json\n"
                                 "       = related: c.json (document)\n\033[1mbroken.json"));
    free(out);

    /* JSON: "related", null members left out */
    out = render(&fx, "json", 1, 0, 0);
    json_error_t e;
    json_t *got = json_loads(out, 0, &e);
    ck_assert_msg(got != NULL, "json: %s", e.text);
    json_t *rel = json_object_get(
        json_array_get(
            json_object_get(json_array_get(json_object_get(got, "files"), 0), "diagnostics"), 0),
        "related");
    json_t *want = json_pack("[{s:s, s:i, s:i, s:s, s:s}, {s:s, s:i, s:i, s:s}]", "file", "b.json",
                             "line", 4, "column", 15, "pointer", "/tools/0/name", "message",
                             "the tool \"search\" of b.json", "file", "c.json", "line", 0, "column",
                             0, "pointer", "");
    ck_assert_msg(json_equal(rel, want), "got %s", out);
    json_decref(want);
    json_decref(got);
    free(out);

    /* SARIF: relatedLocations, located as the result's own location is */
    json_t *s = sarif_of(&fx, 1);
    json_t *res = json_array_get(
        json_object_get(json_array_get(json_object_get(s, "runs"), 0), "results"), 0);
    want = json_pack("[{s:i, s:{s:{s:s, s:s}, s:{s:i, s:i}}, s:[{s:s}], s:{s:s}},"
                     " {s:i, s:{s:{s:s, s:s}}, s:[{s:s}]}]",
                     "id", 1, "physicalLocation", "artifactLocation", "uri", "b.json", "uriBaseId",
                     "%SRCROOT%", "region", "startLine", 4, "startColumn", 15, "logicalLocations",
                     "fullyQualifiedName", "/tools/0/name", "message", "text",
                     "the tool \"search\" of b.json", "id", 2, "physicalLocation",
                     "artifactLocation", "uri", "c.json", "uriBaseId", "%SRCROOT%",
                     "logicalLocations", "fullyQualifiedName", "");
    char *dump = json_dumps(json_object_get(res, "relatedLocations"), JSON_COMPACT);
    ck_assert_msg(json_equal(json_object_get(res, "relatedLocations"), want), "got %s", dump);
    free(dump);
    json_decref(want);
    /* the other results have none */
    res = json_array_get(json_object_get(json_array_get(json_object_get(s, "runs"), 0), "results"),
                         1);
    ck_assert_ptr_null(json_object_get(res, "relatedLocations"));
    assert_valid_sarif(s);
    json_decref(s);

    /* github: one line, the places after the message */
    out = render(&fx, "github", 1, 0, 0);
    char *line = line_of(out, "::error file=dir");
    ck_assert_str_eq(line,
                     "::error file=dir/a b%25.json,line=2,col=3,title=t.err::bad: name, "
                     "really%0Ayes (2024-11-05, 2025-03-26) (related: b.json:4:15, c.json)");
    free(line);
    free(out);

    /* gitlab: in the description */
    out = render(&fx, "gitlab", 1, 0, 0);
    got = json_loads(out, 0, &e);
    ck_assert_msg(got != NULL, "gitlab: %s", e.text);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 0), "description")),
                     "bad: name, really\nyes (2024-11-05, 2025-03-26) at /tools/0 (related: "
                     "b.json:4:15, c.json)");
    json_decref(got);
    free(out);

    /* junit: in the failure's text */
    out = render(&fx, "junit", 1, 0, 0);
    ck_assert_msg(strstr(out,
                         "\nat /tools/0\nrelated: b.json:4:15 /tools/0/name: the tool "
                         "&quot;search&quot; of b.json\nrelated: c.json (document)"
                         "</failure>") != NULL,
                  "got %s", out);
    free(out);

    /* markdown: the places of the first findings */
    out = render(&fx, "markdown", 1, 0, 0);
    line = line_of(out, "- `dir/a b%.json:2`");
    ck_assert_str_eq(line,
                     "- `dir/a b%.json:2` bad: name, really yes (related: `b.json:4`, "
                     "`c.json`)");
    free(line);
    free(out);

    /* html: a note each, escaped */
    out = render(&fx, "html", 1, 0, 0);
    ck_assert_msg(strstr(out,
                         "<div class=\"note related\">related: b.json:4:15 /tools/0/name: "
                         "the tool &quot;search&quot; of b.json</div>\n"
                         "<div class=\"note related\">related: c.json (document)</div>\n"
                         "</li>") != NULL,
                  "got %.600s", strstr(out, "related") ? strstr(out, "related") : "no related");
    free(out);

    /* hidden characters of a document in a related place's pointer and message are
     * escaped (text) */
    diag_add_related(&fx.files[0].diags.items[0], "d.json", 1, 2,
                     "/tools/1/inputSchema/properties/a\xe2\x80\xae"
                     "b",
                     "the tool \"a\xe2\x80\xae"
                     "b\" of d.json");
    out = render(&fx, "text", 1, 0, 0);
    ck_assert_ptr_nonnull(strstr(out,
                                 "  related: d.json:1:2 /tools/1/inputSchema/properties/"
                                 "a\\u202Eb: the tool \"a\\u202Eb\" of d.json\n"));
    free(out);
    teardown(&fx);
}
END_TEST

START_TEST(test_sarif_locations)
{
    struct fixture fx;
    setup(&fx);
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *abs_inside = xasprintf("%s/x/y.json", cwd);
    const char *names[] = {"./././x.json", abs_inside, "/elsewhere/ü:1.json", "<stdin>",
                           "../up.json"};
    const char *uris[] = {"x.json", "x/y.json", "file:///elsewhere/%C3%BC%3A1.json", NULL,
                          "../up.json"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        fx.files[0].name = names[i];
        json_t *s = sarif_of(&fx, 1);
        json_t *res = json_array_get(
            json_object_get(json_array_get(json_object_get(s, "runs"), 0), "results"), 0);
        json_t *art =
            json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
                                            "physicalLocation"),
                            "artifactLocation");
        if (uris[i]) {
            ck_assert_str_eq(json_string_value(json_object_get(art, "uri")), uris[i]);
            ck_assert_int_eq(json_object_get(art, "uriBaseId") != NULL, uris[i][0] != 'f');
        } else {
            ck_assert_ptr_null(json_object_get(art, "uri"));
            ck_assert_ptr_nonnull(json_object_get(art, "description"));
        }
        json_decref(s);
    }
    free(abs_inside);
    teardown(&fx);
}
END_TEST

/* Edges of each format: the colour of every level, no excerpt without a column, tabs
 * kept under the caret, summary counts per level, no column 0 in SARIF or GitHub, and
 * paths relative to a working directory that is the root. */
START_TEST(test_format_edges)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "text", 0, 1, 0);
    ck_assert_ptr_nonnull(strstr(out, "\033[1;33mwarning:\033[0m 100% odd"));
    ck_assert_ptr_nonnull(strstr(out, "\033[1;36minfo:\033[0m fyi"));
    free(out);

    /* a column 0 (unknown): no source line, no caret; github and SARIF omit it */
    fx.files[0].diags.items[0].col = 0;
    out = render(&fx, "text", 1, 0, 1);
    ck_assert_msg(!strstr(out, "     2 |"), "excerpt without a column: %s", out);
    free(out);
    out = render(&fx, "github", 1, 0, 0);
    ck_assert_ptr_nonnull(strstr(out, "::error file=dir/a b%25.json,line=2,title=t.err::"));
    free(out);
    json_t *s = sarif_of(&fx, 1);
    json_t *res = json_array_get(
        json_object_get(json_array_get(json_object_get(s, "runs"), 0), "results"), 0);
    json_t *region = json_object_get(
        json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation"),
        "region");
    ck_assert_int_eq(json_integer_value(json_object_get(region, "startLine")), 2);
    ck_assert_ptr_null(json_object_get(region, "startColumn"));
    json_decref(s);
    fx.files[0].diags.items[0].col = 3;

    /* a tab before the column stays a tab under it, so the caret lines up */
    doc_free(fx.d);
    fx.d = tu_doc("{\"tools\": [\n\t{\"name\": \"a\"}\n]}");
    fx.files[0].d = fx.d;
    out = render(&fx, "text", 1, 0, 1);
    ck_assert_msg(strstr(out, "     2 | \t{\"name\": \"a\"}\n       | \t ^\n") != NULL, "got %s",
                  out);
    free(out);

    /* the JSON summary counts each level apart */
    struct diag *d =
        diag_add(&fx.files[0].diags, DIAG_INFO, "t.info", fx.files[0].name, 3, 1, "more");
    d->pointer = xstrdup("/tools");
    out = render(&fx, "json", 0, 0, 0);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    ck_assert_msg(j != NULL, "json: %s", e.text);
    json_t *sum = json_object_get(j, "summary");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "errors")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "inputErrors")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "warnings")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "infos")), 2);
    json_decref(j);
    free(out);
    teardown(&fx);
}
END_TEST

/* SARIF paths: ".//x" is "x"; with the root as working directory every absolute path is
 * inside it ("/srv/x.json" is "srv/x.json" against %SRCROOT% = file:///). */
START_TEST(test_sarif_paths_from_root)
{
    struct fixture fx;
    setup(&fx);
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    const char *names[] = {".//x.json", "/srv/x.json"};
    const char *uris[] = {"x.json", "srv/x.json"};
    for (size_t i = 0; i < 2; i++) {
        if (i == 1) ck_assert_int_eq(chdir("/"), 0);
        fx.files[0].name = names[i];
        json_t *s = sarif_of(&fx, 1);
        json_t *run = json_array_get(json_object_get(s, "runs"), 0);
        json_t *res = json_array_get(json_object_get(run, "results"), 0);
        json_t *art =
            json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
                                            "physicalLocation"),
                            "artifactLocation");
        ck_assert_str_eq(json_string_value(json_object_get(art, "uri")), uris[i]);
        ck_assert_str_eq(json_string_value(json_object_get(art, "uriBaseId")), "%SRCROOT%");
        if (i == 1)
            ck_assert_str_eq(
                json_string_value(json_object_get(
                    json_object_get(json_object_get(run, "originalUriBaseIds"), "%SRCROOT%"),
                    "uri")),
                "file:///");
        json_decref(s);
    }
    ck_assert_int_eq(chdir(cwd), 0);
    teardown(&fx);
}
END_TEST

/* ---- mcpdesc.h ------------------------------------------------------------------- */

START_TEST(test_embed)
{
    char dir[] = "/tmp/mcpdesc-embed-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tu_write_file(dir, "manifest.yaml", manifest_text);
    tu_write_file(dir, "t.yaml", rules_text);
    rule_set_free(load_locked(dir));
    char *err = (char *)"unset";
    mcpdesc_rules *rules = mcpdesc_rules_load(dir, &err);
    ck_assert_ptr_nonnull(rules);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(mcpdesc_rules_tag(rules), "v1.2.3");
    ck_assert_int_eq(strncmp(mcpdesc_rules_digest(rules), "sha256:", 7), 0);
    ck_assert_str_eq(mcpdesc_version(), MCPDESC_VERSION);

    const char text[] = "{\"protocolVersions\": [\"2025-03-26\"],\n \"tools\": [{\"x\": 1}]}";
    mcpdesc_result *res = mcpdesc_validate_buffer(rules, "mem.json", text, sizeof text - 1);
    ck_assert(mcpdesc_result_parsed(res));
    ck_assert_int_eq(mcpdesc_result_count(res), 3);
    const struct mcpdesc_diag *d = mcpdesc_result_diag(res, 0);
    ck_assert_int_eq(d->level, MCPDESC_ERROR);
    ck_assert_str_eq(d->rule, "t.err");
    ck_assert_str_eq(d->file, "mem.json");
    ck_assert_uint_eq(d->line, 2);
    ck_assert_uint_eq(d->col, 12);
    ck_assert_str_eq(d->pointer, "/tools/0");
    ck_assert_str_eq(d->versions, "2025-03-26");
    ck_assert_str_eq(d->message, "m");
    ck_assert_ptr_null(d->hint);
    ck_assert_ptr_null(mcpdesc_result_diag(res, 3));
    ck_assert_int_eq(mcpdesc_result_count_at_least(res, MCPDESC_ERROR), 1);
    ck_assert_int_eq(mcpdesc_result_count_at_least(res, MCPDESC_WARNING), 2);
    ck_assert_int_eq(mcpdesc_result_count_at_least(res, MCPDESC_INFO), 3);
    ck_assert_str_eq(mcpdesc_level_name(mcpdesc_result_diag(res, 1)->level), "info");
    mcpdesc_result_free(res);

    res = mcpdesc_validate_buffer(rules, "bad.json", "{\"tools\": [", 11);
    ck_assert(!mcpdesc_result_parsed(res));
    ck_assert_int_eq(mcpdesc_result_count(res), 1);
    d = mcpdesc_result_diag(res, 0);
    ck_assert_ptr_null(d->rule);
    ck_assert_uint_eq(d->line, 1);
    ck_assert_str_eq(d->pointer, "");
    mcpdesc_result_free(res);

    res = mcpdesc_validate_buffer(rules, "array.json", "[]", 2);
    ck_assert(!mcpdesc_result_parsed(res));
    mcpdesc_result_free(res);

    char *path = xasprintf("%s/doc.yaml", dir);
    tu_write_file(dir, "doc.yaml", "tools:\n  - name: ok\n");
    res = mcpdesc_validate_file(rules, path);
    ck_assert(mcpdesc_result_parsed(res));
    ck_assert_int_eq(mcpdesc_result_count(res), 0);
    mcpdesc_result_free(res);
    free(path);

    res = mcpdesc_validate_file(rules, "/nonexistent/x.json");
    ck_assert(!mcpdesc_result_parsed(res));
    ck_assert_int_eq(mcpdesc_result_count(res), 1);
    mcpdesc_result_free(res);
    mcpdesc_result_free(NULL);
    mcpdesc_rules_free(rules);
    mcpdesc_rules_free(NULL);

    rules = mcpdesc_rules_load("/nonexistent-rules", &err);
    ck_assert_ptr_null(rules);
    ck_assert_ptr_nonnull(err);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-rules"));
    free(err);
    tu_rmdir(xstrdup(dir));
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("formats");
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_text);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_github);
    tcase_add_test(tc, test_sarif);
    tcase_add_test(tc, test_related);
    tcase_add_test(tc, test_sarif_locations);
    tcase_add_test(tc, test_format_edges);
    tcase_add_test(tc, test_sarif_paths_from_root);
    tcase_add_test(tc, test_embed);
    suite_add_tcase(s, tc);
    return s;
}
