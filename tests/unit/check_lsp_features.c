/* check_lsp_features.c - the editor features of src/lsp/lsp_features.h: what a document
 * is, the diagnostics of an unsaved rule file or config buffer, hover on a finding and on
 * predicates, go to definition of a $componentRef and a `use:`, and completion in rule
 * files (columns in code points, with non-ASCII text before the position). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "findings/config.h"
#include "rules/fn.h"
#include "rules/rule_lang.h"
#include "lsp/lsp_features.h"
#include "testutil.h"

static struct lspf_text text_of(const char *path, const char *s)
{
    struct lspf_text t = {path, s, strlen(s)};
    return t;
}

static enum lspf_kind classify(const char *path, const char *s)
{
    struct lspf_text t = text_of(path, s);
    return lspf_classify(&t);
}

/* A rule of the scratch sets: lines 2-12 of a file that starts with "rules:\n". */
#define RULE(id)                                                                                   \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: structural\n    level: must\n"     \
    "    status: stable\n    enforcement: internal\n    applies: all\n    summary: s\n"            \
    "    requirement: r\n    based-on: [{tier: 1, text: src}]\n"

/* ---- classify ----------------------------------------------------------------------------- */

START_TEST(classify_kinds)
{
    const char *files[] = {"tool.yaml"};
    const char *texts[] = {"rules: []\n"};
    char *dir = tu_rule_dir(files, texts, 1);
    char *rules = xasprintf("%s/tool.yaml", dir), *other = xasprintf("%s/notes.yaml", dir);
    char *manifest = xasprintf("%s/manifest.yaml", dir);
    ck_assert_int_eq(classify(manifest, ""), LSPF_MANIFEST);
    ck_assert_int_eq(classify(rules, "rules: [\n"), LSPF_RULES); /* by the manifest, mid-edit */
    ck_assert_int_eq(classify(other, "a: 1\n"), LSPF_OTHER);     /* beside it, not listed */
    ck_assert_int_eq(classify("/work/repo/.mcpdesc.yaml", "levels: {}\n"), LSPF_CONFIG);
    ck_assert_int_eq(classify("/work/repo/.mcpdesc.yml", ""), LSPF_CONFIG);
    ck_assert_int_eq(
        classify("/work/repo/d.json", "{\"mcpDescription\": \"0.9.0\", \"tools\": []}"),
        LSPF_DESCRIPTION);
    ck_assert_int_eq(classify("/work/repo/package.json", "{\"name\": \"x\"}"), LSPF_OTHER);
    ck_assert_int_eq(classify("/work/repo/list.json", "[1, 2]"), LSPF_OTHER);
    /* YAML descriptions, by name and (untitled) by content */
    ck_assert_int_eq(classify("/work/repo/d.yaml", "mcpDescription: 0.9.0\ntools: []\n"),
                     LSPF_DESCRIPTION);
    ck_assert_int_eq(classify(NULL, "mcpDescription: 0.9.0\ntools: []\n"), LSPF_DESCRIPTION);
    ck_assert_int_eq(classify(NULL, "{\"mcpDescription\": \"0.9.0\"}"), LSPF_DESCRIPTION);
    ck_assert_int_eq(classify("/work/repo/ci.yaml", "on: push\njobs: {}\n"), LSPF_OTHER);
    /* mid-edit: a description that does not parse is still one (its parse error shows) */
    ck_assert_int_eq(classify("/work/repo/d.json", "{\"mcpDescription\": \"0.9.0\", \"tools\": ["),
                     LSPF_DESCRIPTION);
    ck_assert_int_eq(classify("/work/repo/x.json", "{\"name\": "), LSPF_OTHER);
    free(rules);
    free(other);
    free(manifest);
    tu_rmdir(dir);
}
END_TEST

START_TEST(classify_non_ascii_paths)
{
    char tmpl[] = "/tmp/mcpdesc-lspf-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char *dir = xasprintf("%s/règles-é", tmpl);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    tu_write_file(dir, "manifest.yaml", "name: t\nfiles: [outil-ü.yaml]\n");
    char *rules = xasprintf("%s/outil-ü.yaml", dir), *m = xasprintf("%s/manifest.yaml", dir);
    char *desc = xasprintf("%s/déscription.json", dir), *cfg = xasprintf("%s/.mcpdesc.yaml", dir);
    ck_assert_int_eq(classify(rules, "rules: []\n"), LSPF_RULES);
    ck_assert_int_eq(classify(m, "name: t\n"), LSPF_MANIFEST);
    ck_assert_int_eq(classify(desc, "{\"mcpDescription\": \"0.9.0\"}"), LSPF_DESCRIPTION);
    ck_assert_int_eq(classify(cfg, ""), LSPF_CONFIG);
    free(rules);
    free(m);
    free(desc);
    free(cfg);
    free(dir);
    tu_rmdir(xstrdup(tmpl));
}
END_TEST

/* ---- lint ----------------------------------------------------------------------------------- */

#define CHECK_OK "    check: {select: /tools/*, require: {json-type: object}, message: m}\n"
#define CHECK_TYPO "    check: {select: /tools/*, require: {json-typ: object}, message: m}\n"

/* The buffer is linted, not the file on disk: a typo only in the buffer is found at its
 * line and column, and a typo only on disk is not reported. */
START_TEST(lint_unsaved_rule_file)
{
    const char *files[] = {"test.yaml"};
    const char *disk = "rules:\n" RULE("t.a") CHECK_OK;
    char *dir = tu_rule_dir(files, &disk, 1);
    char *path = xasprintf("%s/test.yaml", dir);
    struct lspf_text t = text_of(path, "rules:\n" RULE("t.a") CHECK_TYPO);
    ck_assert_int_eq(lspf_classify(&t), LSPF_RULES);
    struct diag_list out = DIAG_LIST_INIT;
    lspf_lint(&t, LSPF_RULES, &out);
    const struct diag *e = NULL;
    for (size_t i = 0; i < out.len; i++) {
        ck_assert_str_eq(out.items[i].file, path);
        if (out.items[i].level == DIAG_ERROR) e = &out.items[i];
    }
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->line, 13);
    ck_assert_uint_eq(e->col, 41);
    ck_assert_str_eq(e->message,
                     "unknown predicate \"json-typ\": did you mean \"json-type\"? (see "
                     "rules-yaml/README.md for the list)");
    ck_assert_ptr_nonnull(e->hint);
    diag_list_release(&out);
    /* the other way round: the disk has the typo, the buffer is right */
    tu_write_file(dir, "test.yaml", "rules:\n" RULE("t.a") CHECK_TYPO);
    t = text_of(path, "rules:\n" RULE("t.a") CHECK_OK);
    lspf_lint(&t, LSPF_RULES, &out);
    ck_assert_uint_eq(diag_count(&out, DIAG_ERROR), 0);
    diag_list_release(&out);
    /* a manifest buffer with a mistake, and a rule file while its manifest is broken */
    char *mpath = xasprintf("%s/manifest.yaml", dir);
    t = text_of(mpath, "name: test\ntag: v1\nversions: [2025-06-18]\nfilez: [test.yaml]\n");
    lspf_lint(&t, LSPF_MANIFEST, &out);
    int unknown = 0;
    for (size_t i = 0; i < out.len; i++)
        if (out.items[i].line == 4 && out.items[i].col == 1 &&
            strstr(out.items[i].message, "unknown member \"filez\"") &&
            strstr(out.items[i].message, "did you mean \"files\"?"))
            unknown = 1;
    ck_assert_msg(unknown, "no unknown-member error at 4:1 in the manifest buffer");
    diag_list_release(&out);
    /* the manifest on disk does not load: the rule file says so at 1:1, naming the first */
    tu_write_file(dir, "manifest.yaml", "name: test\nfilez: [test.yaml]\nfiles: [test.yaml]\n");
    t = text_of(path, "rules:\n" RULE("t.a") CHECK_OK);
    lspf_lint(&t, LSPF_RULES, &out);
    const struct diag *note = NULL;
    for (size_t i = 0; i < out.len; i++)
        if (out.items[i].line == 1 && out.items[i].col == 1) note = &out.items[i];
    ck_assert_ptr_nonnull(note);
    ck_assert_int_eq(note->level, DIAG_WARNING);
    ck_assert_msg(strstr(note->message, "the rule set's manifest has ") &&
                      strstr(note->message, "so this file's rules were not compiled (first: ") &&
                      strstr(note->message,
                             "manifest.yaml:1:1: the manifest has no "
                             "\"description-format\" (it is required))"),
                  "%s", note->message);
    diag_list_release(&out);
    free(mpath);
    free(path);
    tu_rmdir(dir);
}
END_TEST

START_TEST(lint_config_buffer)
{
    const char *path = "/tmp/nowhere-é/.mcpdesc.yaml";
    struct lspf_text t = text_of(path, "fail-on: warning\nlevles:\n  mcp.x: info\n");
    ck_assert_int_eq(lspf_classify(&t), LSPF_CONFIG);
    struct diag_list out = DIAG_LIST_INIT;
    lspf_lint(&t, LSPF_CONFIG, &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].file, path);
    ck_assert_uint_eq(out.items[0].line, 2);
    ck_assert_uint_eq(out.items[0].col, 1);
    ck_assert_int_eq(out.items[0].level, DIAG_ERROR);
    ck_assert_msg(strstr(out.items[0].message,
                         "unknown key 'levles' in the config; did you mean "
                         "'levels'?"),
                  "%s", out.items[0].message);
    diag_list_release(&out);
}
END_TEST

/* ---- hover ---------------------------------------------------------------------------------- */

static const char *hover_rules =
    "rules:\n"
    "  - id: t.tool.name\n    owner: t\n    surface: Tool\n    kind: structural\n    level: must\n"
    "    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: A client calls a tool by its name.\n"
    "    requirement: Every tool MUST have a name.\n    based-on: [{tier: 1, text: src}]\n"
    "    check: {select: /tools/*, require: {has: name}, message: 'a tool needs a \"name\"'}\n";

static const char *desc = "{\n"
                          "  \"mcpDescription\": \"0.9.0\",\n"
                          "  \"tools\": [\n"
                          "    {\"título\": 1, \"x\": {}}\n"
                          "  ]\n"
                          "}\n";

START_TEST(hover_on_finding)
{
    struct rule_set *rs = tu_rules_ok(hover_rules);
    struct lspf_text t = text_of("/tmp/d.json", desc);
    struct diag_list diags = DIAG_LIST_INIT;
    /* the finding as judging reports it: at the tool, line 4 column 5 */
    tu_eval(rs, desc, &diags);
    ck_assert_uint_eq(diags.len, 1);
    ck_assert_uint_eq(diags.items[0].line, 4);
    ck_assert_uint_eq(diags.items[0].col, 5);
    struct lspf_hover h;
    ck_assert_int_eq(lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &diags, (struct doc_pos){4, 5}, &h),
                     1);
    ck_assert_str_eq(h.markdown,
                     "**t.tool.name** · error (must)\n\n"
                     "a tool needs a \"name\"\n\n"
                     "Requirement: Every tool MUST have a name.\n\n"
                     "Protocol versions: 2024-11-05, 2025-03-26, 2025-06-18, "
                     "2025-11-25, 2026-07-28\n\n"
                     "A client calls a tool by its name.");
    ck_assert_uint_eq(h.range.start.line, 4);
    ck_assert_uint_eq(h.range.start.col, 5);
    ck_assert_uint_eq(h.range.end.line, 4);
    ck_assert_uint_eq(h.range.end.col, 27); /* the whole object, as the editor underlines it */
    lspf_hover_release(&h);
    /* inside the object (after "título": columns are code points), and end exclusive */
    ck_assert_int_eq(
        lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &diags, (struct doc_pos){4, 26}, &h), 1);
    lspf_hover_release(&h);
    ck_assert_int_eq(
        lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &diags, (struct doc_pos){4, 27}, &h), 0);
    ck_assert_int_eq(lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &diags, (struct doc_pos){4, 4}, &h),
                     0);
    /* two findings at one place: both, separated by a rule */
    struct diag *d2 = diag_add(&diags, DIAG_WARNING, "mcpdesc.component-ref.dangling",
                               "/tmp/d.json", 4, 5, "second");
    d2->versions = 1;
    ck_assert_int_eq(lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &diags, (struct doc_pos){4, 5}, &h),
                     1);
    ck_assert_msg(strstr(h.markdown,
                         "\n\n---\n\n**mcpdesc.component-ref.dangling** · warning\n\n"
                         "second\n\nProtocol versions: 2024-11-05\n\n"),
                  "%s", h.markdown);
    lspf_hover_release(&h);
    diag_list_release(&diags);
    rule_set_free(rs);
}
END_TEST

/* With the manifest's docs-url, the rule page is linked; columns count code points. */
START_TEST(hover_on_finding_with_page)
{
    char tmpl[] = "/tmp/mcpdesc-lspf-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    tu_write_file(
        tmpl, "manifest.yaml",
        "name: t\ntag: v1\ndescription-format: 0.9.0\ndocs-url: https://r.example/rules\n"
        "versions: [2025-06-18, 2025-11-25]\ndocument:\n  versions-member: protocolVersions\n"
        "  collections: [tools]\n  component-ref:\n    member: $componentRef\n"
        "    prefix: /components/schemas/\n    scopes: [/tools/*/inputSchema]\n"
        "files: [r.yaml]\n");
    tu_write_file(
        tmpl, "r.yaml",
        "rules:\n" RULE("t.x") "    check: {select: /tools/*/título, require: {json-type: "
                               "string}, message: 'not a string'}\n");
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(tmpl, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "?");
    struct diag_list diags = DIAG_LIST_INIT;
    tu_eval(rs, desc, &diags);
    ck_assert_uint_eq(diags.len, 1);
    ck_assert_uint_eq(diags.items[0].col, 16); /* after "título": code points */
    struct lspf_text t = text_of("/tmp/d.json", desc);
    struct lspf_hover h;
    ck_assert_int_eq(lspf_hover(rs, rule_set_docs_url(rs), &t, LSPF_DESCRIPTION, &diags,
                                (struct doc_pos){4, 16}, &h),
                     1);
    ck_assert_str_eq(h.markdown,
                     "**t.x** · error (must)\n\nnot a string\n\nRequirement: r\n\n"
                     "Protocol versions: 2025-06-18, 2025-11-25\n\ns\n\n"
                     "[Rule page](https://r.example/rules/t.x.html)");
    ck_assert_uint_eq(h.range.end.col, 17);
    lspf_hover_release(&h);
    diag_list_release(&diags);
    diag_list_release(&errs);
    rule_set_free(rs);
    tu_rmdir(xstrdup(tmpl));
}
END_TEST

static const char *preds_file =
    "predicates:\n"
    "  object-guard:\n"
    "    all:\n"
    "      - json-type: object\n"
    "      - lacks: $componentRef\n"
    "rules:\n" RULE("t.a") "    check:\n"
                           "      select: /tools/*\n"
                           "      when: {use: object-guard}\n"
                           "      require: {json-type: object}\n"
                           "      message: m\n"
                           "    yields-to: [t.b]\n" RULE("t.b") CHECK_OK;

START_TEST(hover_on_predicates)
{
    const char *files[] = {"test.yaml"};
    char *dir = tu_rule_dir(files, &preds_file, 1);
    char *path = xasprintf("%s/test.yaml", dir);
    struct lspf_text t = text_of(path, preds_file);
    struct lspf_hover h;
    /* line 21 is "      require: {json-type: object}": json-type starts at column 17 */
    ck_assert_int_eq(lspf_hover(NULL, NULL, &t, LSPF_RULES, NULL, (struct doc_pos){21, 20}, &h), 1);
    size_t i = 0;
    while (strcmp(fn_predicate_name(i), "json-type")) i++;
    char *want = xasprintf("**json-type**: `TYPE or [TYPE, ...]`\n\n%s", fn_predicate_doc(i));
    ck_assert_str_eq(h.markdown, want);
    ck_assert_uint_eq(h.range.start.col, 17);
    ck_assert_uint_eq(h.range.end.col, 26);
    free(want);
    lspf_hover_release(&h);
    /* the named predicate after use: its definition */
    ck_assert_int_eq(lspf_hover(NULL, NULL, &t, LSPF_RULES, NULL, (struct doc_pos){20, 20}, &h), 1);
    ck_assert_str_eq(h.markdown,
                     "**object-guard**: named predicate (test.yaml:2)\n\n```yaml\n"
                     "  object-guard:\n    all:\n      - json-type: object\n"
                     "      - lacks: $componentRef\n```");
    lspf_hover_release(&h);
    /* a protocol version (of the manifest beside it), and a rule id (its summary) */
    ck_assert_int_eq(lspf_hover(NULL, NULL, &t, LSPF_RULES, NULL, (struct doc_pos){14, 15}, &h), 0);
    char *mpath = xasprintf("%s/manifest.yaml", dir);
    size_t mlen;
    char *mtext = NULL;
    {
        FILE *f = fopen(mpath, "r");
        ck_assert_ptr_nonnull(f);
        mtext = xcalloc(1, 4096);
        mlen = fread(mtext, 1, 4095, f);
        fclose(f);
    }
    struct lspf_text mt = {mpath, mtext, mlen};
    /* line 4: "versions: [2024-11-05, 2025-03-26, ...]"; 2025-03-26 from column 24 */
    ck_assert_int_eq(lspf_hover(NULL, NULL, &mt, LSPF_MANIFEST, NULL, (struct doc_pos){4, 25}, &h),
                     1);
    ck_assert_str_eq(h.markdown,
                     "MCP protocol version **2025-03-26** (2 of the 5 versions the "
                     "rule set knows, oldest first)");
    ck_assert_uint_eq(h.range.start.col, 24);
    ck_assert_uint_eq(h.range.end.col, 34);
    lspf_hover_release(&h);
    free(mtext);
    free(mpath);
    ck_assert_int_eq(lspf_hover(NULL, NULL, &t, LSPF_RULES, NULL, (struct doc_pos){23, 18}, &h), 1);
    ck_assert_str_eq(h.markdown, "**t.b**\n\ns");
    lspf_hover_release(&h);
    free(path);
    tu_rmdir(dir);
}
END_TEST

/* ---- definition ------------------------------------------------------------------------------- */

START_TEST(definition_component_ref)
{
    const char *d = "{\n"
                    "  \"mcpDescription\": \"0.9.0\",\n"
                    "  \"tools\": [{\"name\": \"é\", \"inputSchema\": {\"$componentRef\": "
                    "\"#/components/schemas/Place\"}}],\n"
                    "  \"components\": {\"schemas\": {\n"
                    "    \"Other\": {},\n"
                    "    \"Place\": {\"type\": \"object\"}\n"
                    "  }}\n"
                    "}\n";
    struct lspf_text t = text_of("/tmp/dé.json", d);
    struct lspf_location *locs;
    /* on the value "#/components/schemas/Place" (line 3 from column 60) */
    size_t n = lspf_definition(NULL, &t, LSPF_DESCRIPTION, (struct doc_pos){3, 70}, &locs);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(locs[0].path, "/tmp/dé.json");
    ck_assert_uint_eq(locs[0].range.start.line, 6);
    ck_assert_uint_eq(locs[0].range.start.col, 5);
    ck_assert_uint_eq(locs[0].range.end.line, 6);
    ck_assert_uint_eq(locs[0].range.end.col, 12); /* "Place" with its quotes */
    lspf_locations_free(locs, n);
    /* in a YAML description */
    const char *y = "mcpDescription: 0.9.0\n"
                    "tools:\n"
                    "  - name: ñ\n"
                    "    inputSchema: {$componentRef: '#/components/schemas/Place'}\n"
                    "components:\n"
                    "  schemas:\n"
                    "    Place: {type: object}\n";
    struct lspf_text yt = text_of("/tmp/d.yaml", y);
    n = lspf_definition(NULL, &yt, LSPF_DESCRIPTION, (struct doc_pos){4, 40}, &locs);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(locs[0].range.start.line, 7);
    ck_assert_uint_eq(locs[0].range.start.col, 5);
    ck_assert_uint_eq(locs[0].range.end.col, 10);
    lspf_locations_free(locs, n);
    /* elsewhere: nothing */
    ck_assert_uint_eq(lspf_definition(NULL, &t, LSPF_DESCRIPTION, (struct doc_pos){3, 15}, &locs),
                      0);
    ck_assert_ptr_null(locs);
}
END_TEST

START_TEST(definition_use_and_yields)
{
    const char *files[] = {"a-preds.yaml", "test.yaml"};
    const char *other = "predicates:\n  far-guard: {json-type: object}\nrules: []\n";
    const char *user =
        "rules:\n" RULE("t.a") "    check:\n      select: /tools/*\n"
                               "      when: {use: far-guard}\n"
                               "      require: {json-type: object}\n      message: m\n";
    const char *texts[] = {other, user};
    char *dir = tu_rule_dir(files, texts, 2);
    char *path = xasprintf("%s/test.yaml", dir), *opath = xasprintf("%s/a-preds.yaml", dir);
    struct lspf_location *locs;
    /* in another rule file of the set */
    struct lspf_text t = text_of(path, user);
    size_t n = lspf_definition(NULL, &t, LSPF_RULES, (struct doc_pos){15, 20}, &locs);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(locs[0].path, opath);
    ck_assert_uint_eq(locs[0].range.start.line, 2);
    ck_assert_uint_eq(locs[0].range.start.col, 3);
    ck_assert_uint_eq(locs[0].range.end.col, 12);
    lspf_locations_free(locs, n);
    /* in the same file (the buffer, unsaved), and a yields-to id */
    char *tpath = xasprintf("%s/test.yaml", dir);
    t = text_of(tpath, preds_file);
    n = lspf_definition(NULL, &t, LSPF_RULES, (struct doc_pos){20, 23}, &locs);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(locs[0].path, tpath);
    ck_assert_uint_eq(locs[0].range.start.line, 2);
    ck_assert_uint_eq(locs[0].range.start.col, 3);
    ck_assert_uint_eq(locs[0].range.end.col, 15);
    lspf_locations_free(locs, n);
    n = lspf_definition(NULL, &t, LSPF_RULES, (struct doc_pos){23, 18}, &locs);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(locs[0].range.start.line, 24);
    ck_assert_uint_eq(locs[0].range.start.col, 9);
    ck_assert_uint_eq(locs[0].range.end.col, 12);
    lspf_locations_free(locs, n);
    free(tpath);
    free(path);
    free(opath);
    tu_rmdir(dir);
}
END_TEST

/* ---- completion ----------------------------------------------------------------------------- */

static int has_item(const struct lspf_items *it, const char *label)
{
    for (size_t i = 0; i < it->len; i++)
        if (!strcmp(it->items[i].label, label)) return 1;
    return 0;
}

/* Complete TEXT + "|" marking the position (removed), in the set of a fresh directory
 * whose other file defines the named predicate far-guard. */
static void complete_at(const char *marked, struct lspf_items *out)
{
    const char *files[] = {"a-preds.yaml", "test.yaml"};
    const char *texts[] = {"predicates:\n  far-guard: {json-type: object}\nrules: []\n",
                           "rules: []\n"};
    char *dir = tu_rule_dir(files, texts, 2);
    char *path = xasprintf("%s/test.yaml", dir);
    const char *bar = strchr(marked, '|');
    ck_assert_ptr_nonnull(bar);
    char *text = xasprintf("%.*s%s", (int)(bar - marked), marked, bar + 1);
    struct doc_pos pos = {1, 1};
    for (const char *p = marked; p < bar; p++) {
        if (*p == '\n') pos = (struct doc_pos){pos.line + 1, 1};
        else if (((unsigned char)*p & 0xC0) != 0x80) pos.col++;
    }
    struct lspf_text t = text_of(path, text);
    memset(out, 0, sizeof *out);
    lspf_complete(NULL, &t, LSPF_RULES, pos, out);
    free(text);
    free(path);
    tu_rmdir(dir);
}

START_TEST(complete_use)
{
    struct lspf_items it;
    complete_at("predicates:\n  near-guard: {json-type: string}\nrules:\n" RULE(
                    "t.a") "    check:\n      select: /tools/*\n      when: {use: |}\n",
                &it);
    ck_assert(has_item(&it, "near-guard"));
    ck_assert(has_item(&it, "far-guard"));
    ck_assert(!has_item(&it, "json-type"));
    lspf_items_release(&it);
    complete_at("rules:\n" RULE("t.a") "    check:\n      select: /tools/*\n      when:\n"
                                       "        use: fa|\n",
                &it);
    ck_assert(has_item(&it, "far-guard"));
    ck_assert_uint_eq(it.len, 1);
    ck_assert_str_eq(it.items[0].detail, "named predicate");
    ck_assert_str_eq(it.items[0].documentation, "```yaml\n  far-guard: {json-type: object}\n```");
    lspf_items_release(&it);
}
END_TEST

START_TEST(complete_rule_members)
{
    struct lspf_items it;
    complete_at("rules:\n  - id: t.a\n    owner: t\n    |\n    level: must\n", &it);
    const char *const *members = rule_names(RULE_NAMES_RULE);
    size_t n = 0;
    for (; members[n]; n++) ck_assert_msg(has_item(&it, members[n]), "no %s", members[n]);
    ck_assert_uint_eq(it.len, n);
    ck_assert_int_eq(it.items[0].kind, LSPF_ITEM_PROPERTY);
    ck_assert_str_eq(it.items[0].insert_text, "id: ");
    /* each member's one-line doc, from the language's table (rules/rule_lang.h) */
    const struct rule_lang_member *id = rule_lang_member(rule_lang_map_of(RULE_NAMES_RULE), "id");
    ck_assert_ptr_nonnull(id);
    ck_assert_str_eq(it.items[0].documentation, id->doc);
    lspf_items_release(&it);
    /* a fix's set: takes {member, value} (the table's fix-edit mapping) */
    complete_at("rules:\n" RULE("t.a") "    check:\n      require: {has: a}\n      message: m\n"
                                       "      fix:\n        title: t\n        set:\n          |\n",
                &it);
    ck_assert_uint_eq(it.len, 2);
    ck_assert(has_item(&it, "member"));
    ck_assert(has_item(&it, "value"));
    lspf_items_release(&it);
    /* the first key of a new rule, and a clause's members in a check */
    complete_at("rules:\n  - id: t.a\n    owner: t\n  - |\n", &it);
    ck_assert(has_item(&it, "examples"));
    ck_assert(has_item(&it, "yields-to"));
    lspf_items_release(&it);
    complete_at("rules:\n" RULE("t.a") "    check:\n      select: /tools/*\n      |\n", &it);
    ck_assert(has_item(&it, "require"));
    ck_assert(has_item(&it, "report-at"));
    ck_assert(!has_item(&it, "examples"));
    lspf_items_release(&it);
    /* predicates where a predicate goes: block and flow */
    complete_at("rules:\n" RULE("t.a") "    check:\n      select: /tools/*\n      require:\n"
                                       "        all:\n          - json|\n",
                &it);
    ck_assert_uint_eq(it.len, fn_predicate_count());
    ck_assert(has_item(&it, "json-type"));
    ck_assert_str_eq(it.items[0].detail, fn_predicate_synopsis(0));
    ck_assert_int_eq(it.items[0].kind, LSPF_ITEM_FUNCTION);
    lspf_items_release(&it);
}
END_TEST

/* The manifest's texts: and its schema: complete from their tables (rules/rule_texts.c). */
START_TEST(complete_manifest_texts)
{
    const char *files[] = {"test.yaml"};
    const char *texts[] = {"rules: []\n"};
    char *dir = tu_rule_dir(files, texts, 1);
    char *path = xasprintf("%s/manifest.yaml", dir);
    const char *const marked[] = {"name: t\nfiles: []\ntexts:\n  |\n",
                                  "name: t\nfiles: []\ntexts:\n  schema:\n    |\n"};
    const char *const want[][4] = {{"item", "document", "schema", NULL},
                                   {"roots", "values", "keys", "skip"}};
    for (size_t k = 0; k < 2; k++) {
        const char *bar = strchr(marked[k], '|');
        char *text = xasprintf("%.*s%s", (int)(bar - marked[k]), marked[k], bar + 1);
        struct doc_pos pos = {1, 1};
        for (const char *p = marked[k]; p < bar; p++)
            pos = *p == '\n' ? (struct doc_pos){pos.line + 1, 1}
                             : (struct doc_pos){pos.line, pos.col + 1};
        struct lspf_text t = text_of(path, text);
        struct lspf_items it;
        memset(&it, 0, sizeof it);
        lspf_complete(NULL, &t, LSPF_MANIFEST, pos, &it);
        for (size_t i = 0; i < 4 && want[k][i]; i++)
            ck_assert_msg(has_item(&it, want[k][i]), "no %s", want[k][i]);
        ck_assert(!has_item(&it, "files"));
        lspf_items_release(&it);
        free(text);
    }
    free(path);
    tu_rmdir(dir);
}
END_TEST

START_TEST(complete_level_and_versions)
{
    struct lspf_items it;
    complete_at("rules:\n  - id: t.a\n    level: |\n", &it);
    ck_assert_uint_eq(it.len, 3);
    ck_assert_str_eq(it.items[0].label, "must");
    ck_assert_str_eq(it.items[0].detail, "error");
    ck_assert_str_eq(it.items[2].label, "may");
    lspf_items_release(&it);
    complete_at("rules:\n  - id: t.a\n    applies: {from: |\n", &it);
    ck_assert_uint_eq(it.len, 5); /* the manifest's versions, no "all" in a range */
    ck_assert_str_eq(it.items[0].label, "2024-11-05");
    ck_assert_str_eq(it.items[4].label, "2026-07-28");
    lspf_items_release(&it);
    complete_at("rules:\n  - id: t.a\n    applies: |\n", &it);
    ck_assert_uint_eq(it.len, 6);
    ck_assert_str_eq(it.items[0].label, "all");
    lspf_items_release(&it);
    complete_at("rules:\n  - id: t.a\n    applies:\n      - 2025-|\n", &it);
    ck_assert(has_item(&it, "2025-11-25"));
    lspf_items_release(&it);
}
END_TEST

/* Columns are code points: two-byte characters before the position on its line. */
START_TEST(complete_after_non_ascii)
{
    struct lspf_items it;
    complete_at("rules:\n  - id: t.a\n    check: {message: 'ééé', require: {|}}\n", &it);
    ck_assert(has_item(&it, "json-type"));
    ck_assert(!has_item(&it, "message"));
    lspf_items_release(&it);
    complete_at("rules:\n  - id: t.a\n    summary: ünïcödé\n    check: {hint: 'ü', versions: "
                "{before: |}}\n",
                &it);
    ck_assert(has_item(&it, "2025-06-18"));
    lspf_items_release(&it);
}
END_TEST

/* A key with ':' inside (a URL) and ": " in a value: the scan of the line ends (it once
 * looped for ever on the shipped manifest's schema-map). */
START_TEST(complete_url_key)
{
    struct lspf_items it;
    complete_at("schema-map:\n  https://x.example/s/: ../s|\n", &it);
    ck_assert_uint_eq(it.len, 0);
    lspf_items_release(&it);
    complete_at("rules:\n  - id: t.a\n    summary: a: b|\n", &it);
    ck_assert_uint_eq(it.len, 0);
    lspf_items_release(&it);
}
END_TEST

/* Completion in a config file: its keys and values, from the config reader's tables. */
static void complete_config_at(const char *marked, struct lspf_items *out)
{
    const char *bar = strchr(marked, '|');
    ck_assert_ptr_nonnull(bar);
    char *text = xasprintf("%.*s%s", (int)(bar - marked), marked, bar + 1);
    struct doc_pos pos = {1, 1};
    for (const char *p = marked; p < bar; p++) {
        if (*p == '\n') pos = (struct doc_pos){pos.line + 1, 1};
        else if (((unsigned char)*p & 0xC0) != 0x80) pos.col++;
    }
    struct lspf_text t = text_of("/tmp/repo/.mcpdesc.yaml", text);
    memset(out, 0, sizeof *out);
    lspf_complete(NULL, &t, LSPF_CONFIG, pos, out);
    free(text);
}

START_TEST(complete_config)
{
    struct lspf_items it;
    complete_config_at("fail-on: error\nlev|\n", &it);
    const char *const *top = config_names(CONFIG_NAMES_TOP);
    size_t n = 0;
    for (; top[n]; n++) ck_assert(has_item(&it, top[n]));
    ck_assert_uint_eq(it.len, n);
    lspf_items_release(&it);
    complete_config_at("fail-on: |\n", &it);
    ck_assert_uint_eq(it.len, 4);
    ck_assert(has_item(&it, "never"));
    lspf_items_release(&it);
    complete_config_at("levels:\n  mcp.tool.name.length: |\n", &it);
    ck_assert_uint_eq(it.len, 4);
    ck_assert(has_item(&it, "off"));
    lspf_items_release(&it);
    complete_config_at("overrides:\n  - files: [a.json]\n    |\n", &it);
    ck_assert_uint_eq(it.len, 2);
    ck_assert(has_item(&it, "levels"));
    lspf_items_release(&it);
    complete_config_at("suppress:\n  - |\n", &it);
    ck_assert(has_item(&it, "reason"));
    ck_assert(has_item(&it, "until"));
    lspf_items_release(&it);
}
END_TEST

/* ---- description members, from the format's schema ------------------------------------ */

/* TEXT + "|" marking the position (removed), as a description named PATH. */
static struct doc_pos marked_pos(const char *marked, char **text)
{
    const char *bar = strchr(marked, '|');
    ck_assert_ptr_nonnull(bar);
    *text = xasprintf("%.*s%s", (int)(bar - marked), marked, bar + 1);
    struct doc_pos pos = {1, 1};
    for (const char *p = marked; p < bar; p++) {
        if (*p == '\n') pos = (struct doc_pos){pos.line + 1, 1};
        else if (((unsigned char)*p & 0xC0) != 0x80) pos.col++;
    }
    return pos;
}

static void complete_desc_at(const struct rule_set *rs, const char *path, const char *marked,
                             struct lspf_items *out)
{
    char *text;
    struct doc_pos pos = marked_pos(marked, &text);
    struct lspf_text t = text_of(path, text);
    memset(out, 0, sizeof *out);
    lspf_complete(rs, &t, LSPF_DESCRIPTION, pos, out);
    free(text);
}

static const struct lspf_item *item_named(const struct lspf_items *it, const char *label)
{
    for (size_t i = 0; i < it->len; i++)
        if (!strcmp(it->items[i].label, label)) return &it->items[i];
    return NULL;
}

START_TEST(complete_description_members)
{
    struct rule_set *rs =
        tu_shipped_rules() /* this tree's: its ../schema/mcp-description.schema.json */;
    struct lspf_items it;
    /* JSON: an escaped quote and brackets inside a value do not open anything */
    complete_desc_at(rs, "/w/d.json",
                     "{\"instructions\": \"say \\\" {[\", \"resources\": "
                     "[{\"uri\": \"a\"}, {|",
                     &it);
    ck_assert_uint_eq(it.len, 1);
    ck_assert_str_eq(it.items[0].label, "protocolVersions");
    ck_assert_str_eq(it.items[0].insert_text, "\"protocolVersions\": ");
    ck_assert_str_eq(it.items[0].detail, "array");
    ck_assert_ptr_nonnull(strstr(it.items[0].documentation, "Narrows the versions"));
    lspf_items_release(&it);
    /* back at the top level after a closed object */
    complete_desc_at(rs, "/w/d.json", "{\"components\": {\"schemas\": {}}, |", &it);
    ck_assert(has_item(&it, "tools") && !has_item(&it, "schemas"));
    ck_assert_str_eq(item_named(&it, "mcpDescription")->detail, "string");
    lspf_items_release(&it);
    /* a map of names (components.schemas) has no members to offer, nor a value */
    complete_desc_at(rs, "/w/d.json", "{\"components\": {\"schemas\": {|", &it);
    ck_assert_uint_eq(it.len, 0);
    complete_desc_at(rs, "/w/d.json", "{\"mcpDescription\": |", &it);
    ck_assert_uint_eq(it.len, 0);
    /* YAML: a flow mapping in a block sequence, and a block mapping's key */
    complete_desc_at(rs, "/w/d.yaml", "mcpDescription: 0.9.0\nprompts: [{|", &it);
    ck_assert_uint_eq(it.len, 1);
    ck_assert_str_eq(it.items[0].insert_text, "protocolVersions: ");
    lspf_items_release(&it);
    complete_desc_at(rs, "/w/d.yaml", "mcpDescription: 0.9.0\ncomponents:\n  sch|\n", &it);
    ck_assert_uint_eq(it.len, 1);
    ck_assert_str_eq(it.items[0].label, "schemas");
    lspf_items_release(&it);
    complete_desc_at(rs, "/w/d.yaml", "mcpDescription: |", &it);
    ck_assert_uint_eq(it.len, 0);
    /* no rule set: nothing (no schema to take members from) */
    complete_desc_at(NULL, "/w/d.yaml", "mcpDescription: 0.9.0\n|", &it);
    ck_assert_uint_eq(it.len, 0);
    rule_set_free(rs);
}
END_TEST

START_TEST(hover_description_member)
{
    struct rule_set *rs = tu_shipped_rules();
    struct diag_list none = DIAG_LIST_INIT;
    struct lspf_hover h;
    char *text;
    struct doc_pos pos = marked_pos("mcpDescription: 0.9.0\ncomponents:\n  sc|hemas: {}\n", &text);
    struct lspf_text t = text_of("/w/d.yaml", text);
    ck_assert_int_eq(lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &none, pos, &h), 1);
    ck_assert_ptr_nonnull(
        strstr(h.markdown, "**`schemas`** · object\n\nMap of name to JSON Schema"));
    ck_assert_uint_eq(h.range.start.line, 3);
    ck_assert_uint_eq(h.range.start.col, 3);
    ck_assert_uint_eq(h.range.end.col, 10);
    lspf_hover_release(&h);
    free(text);
    /* a member of an MCP object (a tool's name) is not the format's: nothing */
    pos = marked_pos("{\"mcpDescription\": \"0.9.0\", \"tools\": [{\"na|me\": \"a\"}]}", &text);
    t = text_of("/w/d.json", text);
    ck_assert_int_eq(lspf_hover(rs, NULL, &t, LSPF_DESCRIPTION, &none, pos, &h), 0);
    free(text);
    rule_set_free(rs);
}
END_TEST

Suite *lsp_features_suite(void)
{
    Suite *s = suite_create("lsp_features");
    TCase *tc = tcase_create("lsp_features");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, classify_kinds);
    tcase_add_test(tc, classify_non_ascii_paths);
    tcase_add_test(tc, lint_unsaved_rule_file);
    tcase_add_test(tc, lint_config_buffer);
    tcase_add_test(tc, hover_on_finding);
    tcase_add_test(tc, hover_on_finding_with_page);
    tcase_add_test(tc, hover_on_predicates);
    tcase_add_test(tc, definition_component_ref);
    tcase_add_test(tc, definition_use_and_yields);
    tcase_add_test(tc, complete_use);
    tcase_add_test(tc, complete_rule_members);
    tcase_add_test(tc, complete_manifest_texts);
    tcase_add_test(tc, complete_level_and_versions);
    tcase_add_test(tc, complete_after_non_ascii);
    tcase_add_test(tc, complete_url_key);
    tcase_add_test(tc, complete_config);
    tcase_add_test(tc, complete_description_members);
    tcase_add_test(tc, hover_description_member);
    suite_add_tcase(s, tc);
    return s;
}
