/* check_report_diff.c - the reports of `mcpdesc diff` (report_diff.c): JSON's pairs and
 * changes (places in NEW and OLD, item, category, a description removed or added, an
 * input error, a skipped pair, the config's own findings, the summary by category), the
 * Markdown changelog byte for byte (sections in their order, escaping, -q, the bound),
 * and SARIF's category, item and "old place". Written to memory with open_memstream. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/report.h"
#include "testutil.h"
#include "base/util.h"

#define CHANGE(id, category, level)                                                                \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: change\n"                          \
    "    category: " category "\n    compare: tools\n    level: " level "\n"                       \
    "    status: stable\n    enforcement: internal\n    applies: all\n"                            \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {require: {paired: true}, message: m}\n"

static const char *const rules_text = "rules:\n" CHANGE("t.caller", "caller", "must")
    CHANGE("t.output", "output", "must") CHANGE("t.protocol", "protocol", "must")
        CHANGE("t.trust", "trust", "should") CHANGE("t.compatible", "compatible", "may");

enum { NFILES = 6 };

struct fixture {
    struct rule_set *rs;
    struct report_file files[NFILES];
};

/* A change of F: RULE at LINE:COL POINTER of F's file, about KIND NAME, in VERSIONS;
 * its place in OLD (the related place "old") at OLD_LINE (none when 0). */
static struct diag *change(struct report_file *f, enum diag_level level, const char *rule,
                           uint32_t line, const char *pointer, const char *kind, const char *name,
                           const char *message, uint32_t old_line)
{
    struct diag *d = diag_add(&f->diags, level, rule, f->name, line, 5, message);
    d->pointer = xstrdup(pointer);
    d->versions = 0x6; /* 2025-03-26, 2025-06-18 */
    d->item_kind = kind ? xstrdup(kind) : NULL;
    d->item_name = name ? xstrdup(name) : NULL;
    d->fingerprint = xasprintf("v1:%s-%u", rule, (unsigned)line);
    if (old_line) diag_add_related(d, f->old_name, old_line, 3, "/tools/0", "old");
    return d;
}

/* Six report files as cmd_diff makes them: a pair with a change of every category (in
 * NEW's order, not the changelog's), one a built-in of no category, one suppressed, one
 * with Markdown in its texts; a description removed (its changes in OLD), one added, a
 * pair whose OLD does not parse, a pair skipped, and the config's own finding. */
static void setup(struct fixture *fx)
{
    fx->rs = tu_rules_ok(rules_text);
    memset(fx->files, 0, sizeof fx->files);
    struct report_file *f = &fx->files[0];
    f->name = "new/s.json";
    f->old_name = "old/s.json";
    change(f, DIAG_INFO, "t.compatible", 3, "/tools/0/inputSchema", "tool", "search",
           "an optional property was added", 4);
    change(f, DIAG_ERROR, "t.caller", 7, "/tools", "tool", "delete_file",
           "tool delete_file was removed: calls to it fail", 9)
        ->hint = xstrdup("keep it");
    change(f, DIAG_WARNING, "t.trust", 12, "/tools/1/description", "tool", "*evil*`x`",
           "description of <b>*evil*</b> [changed] | a & b", 10);
    change(f, DIAG_WARNING, "mcpdesc.diff.unmatched", 14, "/prompts", "prompt", "p",
           "cannot match: two prompts named p", 0);
    change(f, DIAG_ERROR, "t.output", 20, "/tools/2/outputSchema", "tool", "fetch",
           "outputSchema removed", 18);
    change(f, DIAG_ERROR, "t.protocol", 1, "/protocolVersions", "document", NULL,
           "protocol version 2025-03-26 is gone", 1);
    struct diag *s = change(f, DIAG_ERROR, "t.caller", 30, "/tools", "tool", "old_one",
                            "tool old_one was removed: calls to it fail", 40);
    s->suppressed = xstrdup("announced in 2.0");
    s->suppress_kind = DIAG_SUPPRESS_CONFIG;

    f = &fx->files[1]; /* removed: named by OLD's file, no place in NEW */
    f->name = "old/gone.json";
    f->old_only = 1;
    change(f, DIAG_ERROR, "t.protocol", 2, "", "document", NULL, "the description was removed", 0);

    fx->files[2].name = "new/added.json"; /* added: nothing changed that NEW alone shows */

    f = &fx->files[3];
    f->name = "new/broken.json";
    f->old_name = "old/broken.json";
    f->error = xcalloc(1, sizeof *f->error);
    f->error->level = DIAG_ERROR;
    f->error->file = xstrdup("old/broken.json");
    f->error->line = 4;
    f->error->col = 2;
    f->error->message = xstrdup("invalid JSON: '}' expected");

    fx->files[4].name = "old/notes.json";
    fx->files[4].old_only = 1;
    fx->files[4].skipped = "no mcpDescription member";

    f = &fx->files[5];
    f->name = ".mcpdesc.yaml";
    f->config = 1;
    struct diag *u = diag_add(&f->diags, DIAG_WARNING, "mcpdesc.suppression.unused", f->name, 3, 5,
                              "this suppression hides nothing");
    u->pointer = xstrdup("/suppress/1");
}

static void teardown(struct fixture *fx)
{
    for (size_t i = 0; i < NFILES; i++) {
        diag_list_release(&fx->files[i].diags);
        if (fx->files[i].error) {
            diag_clear(fx->files[i].error);
            free(fx->files[i].error);
        }
    }
    rule_set_free(fx->rs);
}

/* Format NAME over the first N files of the fixture, as a diff run writes it. */
static char *render(struct fixture *fx, const char *name, int quiet, size_t n)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    struct report_opts o = {.out = f, .rs = fx->rs, .quiet = quiet, .diff = 1};
    report_find(name)->write(&o, fx->files, n);
    fclose(f);
    return out;
}

static json_t *render_json(struct fixture *fx, const char *name, int quiet)
{
    char *out = render(fx, name, quiet, NFILES);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    ck_assert_msg(j != NULL, "%s is not JSON: %s\n%s", name, e.text, out);
    free(out);
    return j;
}

static void assert_json(json_t *got, json_t *want)
{
    ck_assert_ptr_nonnull(want);
    char *g = json_dumps(got, JSON_SORT_KEYS), *w = json_dumps(want, JSON_SORT_KEYS);
    /* cut: Check refuses a message longer than its buffer */
    ck_assert_msg(json_equal(got, want), "got  %.500s\nwant %.500s", g, w);
    free(g);
    free(w);
    json_decref(want);
}

START_TEST(test_json_pairs)
{
    struct fixture fx;
    setup(&fx);
    json_t *j = render_json(&fx, "json", 0);
    ck_assert_ptr_null(json_object_get(j, "files")); /* validate's "files" is not here */
    ck_assert_ptr_nonnull(json_object_get(j, "rules"));
    ck_assert_ptr_null(json_object_get(j, "configFindings")); /* no config in the opts */
    json_t *pairs = json_object_get(j, "pairs");
    ck_assert_int_eq(json_array_size(pairs), 5); /* the config file is no pair */

    /* a change in NEW with its place in OLD, its item, category, hint and fingerprint */
    json_t *changes = json_object_get(json_array_get(pairs, 0), "changes");
    ck_assert_int_eq(json_array_size(changes), 7);
    assert_json(json_array_get(changes, 1),
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:[s, s], s:{s:s, s:s}, s:{s:s, s:i, s:i, "
                          "s:s}, s:{s:s, s:i, s:i, s:s}, s:s}",
                          "rule", "t.caller", "level", "error", "category", "caller", "message",
                          "tool delete_file was removed: calls to it fail", "hint", "keep it",
                          "versions", "2025-03-26", "2025-06-18", "item", "kind", "tool", "name",
                          "delete_file", "new", "file", "new/s.json", "line", 7, "column", 5,
                          "pointer", "/tools", "old", "file", "old/s.json", "line", 9, "column", 3,
                          "pointer", "/tools/0", "fingerprint", "v1:t.caller-7"));
    /* a built-in of no category, no place in OLD: null category and old */
    json_t *c = json_array_get(changes, 3);
    ck_assert(json_is_null(json_object_get(c, "category")));
    ck_assert(json_is_null(json_object_get(c, "old")));
    /* the document: name null */
    c = json_array_get(changes, 5);
    assert_json(json_object_get(c, "item"), json_pack("{s:s, s:n}", "kind", "document", "name"));
    /* suppressed: listed, marked as report_json marks it */
    c = json_array_get(changes, 6);
    assert_json(json_object_get(c, "suppressed"),
                json_pack("{s:s, s:s}", "kind", "config", "reason", "announced in 2.0"));

    /* the pairs' heads: removed (old only), added (new only), an input error, skipped */
    json_t *p = json_array_get(pairs, 0);
    ck_assert_str_eq(json_string_value(json_object_get(p, "old")), "old/s.json");
    ck_assert_str_eq(json_string_value(json_object_get(p, "new")), "new/s.json");
    ck_assert(json_is_null(json_object_get(p, "error")));
    ck_assert(json_is_null(json_object_get(p, "skipped")));
    p = json_array_get(pairs, 1);
    ck_assert_str_eq(json_string_value(json_object_get(p, "old")), "old/gone.json");
    ck_assert(json_is_null(json_object_get(p, "new")));
    c = json_array_get(json_object_get(p, "changes"), 0);
    ck_assert(json_is_null(json_object_get(c, "new")));
    assert_json(json_object_get(c, "old"),
                json_pack("{s:s, s:i, s:i, s:s}", "file", "old/gone.json", "line", 2, "column", 5,
                          "pointer", ""));
    p = json_array_get(pairs, 2);
    ck_assert(json_is_null(json_object_get(p, "old")));
    ck_assert_str_eq(json_string_value(json_object_get(p, "new")), "new/added.json");
    ck_assert_int_eq(json_array_size(json_object_get(p, "changes")), 0);
    assert_json(json_array_get(pairs, 3),
                json_pack("{s:s, s:s, s:{s:s, s:i, s:i}, s:n, s:[]}", "old", "old/broken.json",
                          "new", "new/broken.json", "error", "message",
                          "invalid JSON: '}' expected", "line", 4, "column", 2, "skipped",
                          "changes"));
    assert_json(json_array_get(pairs, 4),
                json_pack("{s:s, s:n, s:n, s:s, s:[]}", "old", "old/notes.json", "new", "error",
                          "skipped", "no mcpDescription member", "changes"));

    /* the totals count what --fail-on counts (the suppressed change and the skipped pair
     * not; the config's finding among the warnings, but in no category) */
    assert_json(json_object_get(j, "summary"),
                json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i, s:i, s:i, s:i}}",
                          "pairs", 5, "errors", 4, "warnings", 3, "infos", 1, "inputErrors", 1,
                          "suppressed", 1, "byCategory", "caller", 1, "output", 1, "protocol", 2,
                          "trust", 1, "compatible", 1, "other", 1));
    json_decref(j);

    /* -q: errors only, and the suppressed error still listed as such */
    j = render_json(&fx, "json", 1);
    changes = json_object_get(json_array_get(json_object_get(j, "pairs"), 0), "changes");
    ck_assert_int_eq(json_array_size(changes), 4);
    for (size_t i = 0; i < json_array_size(changes); i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(changes, i), "level")),
                         "error");
    json_decref(j);
    teardown(&fx);
}
END_TEST

START_TEST(test_json_key_order)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "json", 0, 1);
    /* stable key order: a reader diffing two reports sees only what changed */
    const char *order[] = {"\"mcpdesc\"",
                           "\"rules\"",
                           "\"pairs\"",
                           "\"old\": \"old/s.json\"",
                           "\"new\": \"new/s.json\"",
                           "\"error\"",
                           "\"skipped\"",
                           "\"changes\"",
                           "\"rule\"",
                           "\"level\"",
                           "\"category\"",
                           "\"message\"",
                           "\"versions\"",
                           "\"item\"",
                           "\"new\": {",
                           "\"old\": {",
                           "\"fingerprint\"",
                           "\"summary\"",
                           "\"byCategory\""};
    const char *at = out;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *next = strstr(at, order[i]);
        ck_assert_msg(next != NULL, "%s not after the previous key in\n%.1000s", order[i], at);
        at = next;
    }
    free(out);
    teardown(&fx);
}
END_TEST

static const char *const changelog =
    "## mcpdesc diff: 4 errors, 3 warnings, 1 info, 1 input error in 4 files\n"
    "\n"
    "**Failed**: 8 findings (4 errors, 3 warnings, 1 info) at or above --fail-on info; 1 input "
    "error: an input could not be read or parsed\n"
    "\n"
    "# Changes: old/s.json → new/s.json\n"
    "\n"
    "## Breaking for callers\n"
    "\n"
    "- **tool `delete_file`**: tool delete\\_file was removed: calls to it fail "
    "(`t.caller`, error, 2025-03-26, 2025-06-18) `new/s.json:7:5`\n"
    "\n"
    "## Structured output\n"
    "\n"
    "- **tool `fetch`**: outputSchema removed (`t.output`, error, 2025-03-26, 2025-06-18) "
    "`new/s.json:20:5`\n"
    "\n"
    "## Protocol\n"
    "\n"
    "- **document**: protocol version 2025-03-26 is gone (`t.protocol`, error, 2025-03-26, "
    "2025-06-18) `new/s.json:1:5`\n"
    "\n"
    "## Review before approving\n"
    "\n"
    "- **tool `` *evil*`x` ``**: description of &lt;b&gt;\\*evil\\*&lt;/b&gt; \\[changed\\] \\| "
    "a &amp; b (`t.trust`, warning, 2025-03-26, 2025-06-18) `new/s.json:12:5`\n"
    "\n"
    "## Compatible changes\n"
    "\n"
    "- **tool `search`**: an optional property was added (`t.compatible`, info, 2025-03-26, "
    "2025-06-18) `new/s.json:3:5`\n"
    "\n"
    "## Other\n"
    "\n"
    "- **prompt `p`**: cannot match: two prompts named p (`mcpdesc.diff.unmatched`, warning, "
    "2025-03-26, 2025-06-18) `new/s.json:14:5`\n"
    "\n"
    "# Changes: old/gone.json → (none)\n"
    "\n"
    "## Protocol\n"
    "\n"
    "- **document**: the description was removed (`t.protocol`, error, 2025-03-26, "
    "2025-06-18) `old/gone.json:2:5`\n"
    "\n"
    "# Changes: (none) → new/added.json\n"
    "\n"
    "No changes.\n"
    "\n"
    "# Changes: old/broken.json → new/broken.json\n"
    "\n"
    "Not compared: invalid JSON: '}' expected `old/broken.json:4:2`\n"
    "\n"
    "# Config: .mcpdesc.yaml\n"
    "\n"
    "- this suppression hides nothing (`mcpdesc.suppression.unused`, warning) "
    "`.mcpdesc.yaml:3:5`\n"
    "\n";

START_TEST(test_markdown)
{
    struct fixture fx;
    setup(&fx);
    char *out = render(&fx, "markdown", 0, NFILES);
    ck_assert_str_eq(out, changelog);
    free(out);
    /* -q: errors only; a pair left with none says so */
    size_t len = fx.files[0].diags.len;
    fx.files[0].diags.len = 1; /* the compatible info alone */
    out = render(&fx, "markdown", 1, 1);
    fx.files[0].diags.len = len;
    ck_assert_str_eq(out,
                     "## mcpdesc diff: 0 errors, 0 warnings, 1 info in 1 file\n\n"
                     "**Failed**: 1 info at or above --fail-on info\n\n"
                     "# Changes: old/s.json → new/s.json\n\nNo changes.\n\n");
    free(out);
    teardown(&fx);
}
END_TEST

START_TEST(test_markdown_bound)
{
    struct fixture fx;
    setup(&fx);
    /* far more changes than a changelog lists: the rest counted, texts cut */
    struct report_file *f = &fx.files[2];
    char *long_message = xcalloc(1, 1001);
    memset(long_message, 'x', 1000);
    for (uint32_t i = 0; i < 250; i++)
        change(f, DIAG_INFO, "t.compatible", i + 1, "/tools", "tool", "t", long_message, 0);
    free(long_message);
    char *out = render(&fx, "markdown", 0, 3);
    ck_assert_ptr_nonnull(strstr(out, "- … and 57 more\n")); /* 200 listed: 6 + 1 + 193 */
    ck_assert_ptr_null(strstr(out,
                              "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                              "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                              "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                              "xxxxxxxxxxxxxxxxxxxxx"));
    ck_assert_ptr_nonnull(strstr(out, "xxx… (`t.compatible`"));
    free(out);
    teardown(&fx);
}
END_TEST

START_TEST(test_sarif)
{
    struct fixture fx;
    setup(&fx);
    json_t *s = render_json(&fx, "sarif", 0);
    json_t *results = json_object_get(json_array_get(json_object_get(s, "runs"), 0), "results");
    /* the second change: its category and item, its place in OLD as "old place" */
    json_t *r = json_array_get(results, 1);
    ck_assert_str_eq(json_string_value(json_object_get(r, "ruleId")), "t.caller");
    json_t *props = json_object_get(r, "properties");
    ck_assert_str_eq(json_string_value(json_object_get(props, "category")), "caller");
    assert_json(json_object_get(props, "item"),
                json_pack("{s:s, s:s}", "kind", "tool", "name", "delete_file"));
    json_t *rel = json_array_get(json_object_get(r, "relatedLocations"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(rel, "message"), "text")),
                     "old place");
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(rel, "physicalLocation"), "region"), "startLine")),
        9);
    /* a built-in: no category; the document: no name */
    props = json_object_get(json_array_get(results, 3), "properties");
    ck_assert_ptr_null(json_object_get(props, "category"));
    props = json_object_get(json_array_get(results, 5), "properties");
    assert_json(json_object_get(props, "item"), json_pack("{s:s}", "kind", "document"));
    json_decref(s);
    teardown(&fx);
}
END_TEST

Suite *report_diff_suite(void)
{
    Suite *s = suite_create("report_diff");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_json_pairs);
    tcase_add_test(tc, test_json_key_order);
    tcase_add_test(tc, test_markdown);
    tcase_add_test(tc, test_markdown_bound);
    tcase_add_test(tc, test_sarif);
    suite_add_tcase(s, tc);
    return s;
}
