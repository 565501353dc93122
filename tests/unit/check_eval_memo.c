/* check_eval_memo.c - the findings of unchanged items kept between judgements of a
 * document's successive texts (judge/eval_memo.h, the language server's edits): after
 * every edit of randomized sequences the judgement with the memo equals a full one, every
 * field of every diagnostic; and the memo does spare the unchanged items. */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "judge/eval.h"
#include "judge/eval_memo.h"
#include "testutil.h"

/* TEXT judged by RS (with MEMO when not NULL, on two threads), every field (new string);
 * NULL when it does not load as a JSON object. */
static char *judge_text(const struct rule_set *rs, const char *text, size_t len,
                        struct eval_memo *memo)
{
    struct doc_error err;
    doc *d = doc_load_buffer("t.json", text, len, 0, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return NULL;
    }
    char *shown = NULL;
    if (json_is_object(doc_root(d))) {
        struct diag_list out = DIAG_LIST_INIT;
        struct eval_options eo = {.workers = memo ? 2 : 1, .memo = memo};
        eval_document(rs, d, &eo, &out);
        shown = tu_show_all(&out);
        diag_list_release(&out);
    }
    doc_free(d);
    return shown;
}

/* xorshift: the same sequence of edits on every run */
static uint64_t rnd_state;
static size_t rnd(size_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return n ? (size_t)(rnd_state % n) : 0;
}

/* Replace [AT, AT+DEL) of B with INS. */
static void splice(struct buf *b, size_t at, size_t del, const char *ins, size_t n)
{
    struct buf o = BUF_INIT;
    buf_add(&o, b->s, at);
    buf_add(&o, ins, n);
    buf_add(&o, b->s + at + del, b->len - at - del);
    buf_release(b);
    *b = o;
}

/* A random node of D's subtree at N (N included). */
static doc_node some_node(const doc *d, doc_node n)
{
    return n + (doc_node)rnd(doc_node_size(d, n));
}

/* One random edit of the JSON text B: inside an item's string (the value or a member
 * name), a line break between an item's tokens, an item deleted, copied or moved, a
 * string outside the collections (a component, the server), or nothing at all. The edit
 * keeps the text JSON most of the time; when it does not, the step judges nothing. */
static void edit_once(struct buf *b)
{
    struct doc_error err;
    doc *d = doc_load_buffer("t.json", b->s, b->len, 0, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return;
    }
    json_t *root = doc_root(d);
    json_t *tools = json_object_get(root, "tools");
    doc_node tn = json_is_array(tools) ? doc_node_member(d, 0, root, "tools") : DOC_NONE;
    size_t ntools = tn == DOC_NONE ? 0 : json_array_size(tools);
    size_t kind = rnd(13);
    struct doc_span v, k, w;
    json_t *comps = json_object_get(root, "components");
    doc_node cn = comps ? doc_node_member(d, 0, root, "components") : DOC_NONE;
    json_t *pv = json_object_get(root, "protocolVersions");
    doc_node pn =
        json_array_size(pv) > 1 ? doc_node_member(d, 0, root, "protocolVersions") : DOC_NONE;
    if (kind == 10 && cn != DOC_NONE) { /* a component's string or member name */
        doc_node n = some_node(d, cn);
        doc_node_span(d, n, &v, &k);
        if (b->s[v.start] == '"') splice(b, v.start + 1, 0, "Q", 1);
        else if (k.end > k.start) splice(b, k.start + 1, 0, "k", 1);
    } else if (kind == 11 && pn != DOC_NONE) { /* the document's last version dropped */
        struct doc_span a, z;
        size_t n = json_array_size(pv);
        doc_node_span(d, doc_node_array_item(d, pn, pv, n - 2), &a, NULL);
        doc_node_span(d, doc_node_array_item(d, pn, pv, n - 1), &z, NULL);
        splice(b, a.end, z.end - a.end, "", 0);
    } else if (kind == 12 && ntools > 1) { /* a tool takes another's name, or loses it */
        size_t i = rnd(ntools), j = rnd(ntools);
        doc_node in = doc_node_array_item(d, tn, tools, i);
        json_t *item = json_array_get(tools, i);
        const char *other = json_string_value(json_object_get(json_array_get(tools, j), "name"));
        doc_node nn = json_is_string(json_object_get(item, "name"))
            ? doc_node_member(d, in, item, "name")
            : DOC_NONE;
        if (nn != DOC_NONE && other) {
            doc_node_span(d, nn, &v, NULL);
            char *q = xasprintf("\"%s%s\"", other, i == j ? "-2" : "");
            splice(b, v.start, v.end - v.start, q, strlen(q));
            free(q);
        }
    } else if (!ntools || kind >= 9) { /* a string anywhere: the context changes too */
        doc_node n = some_node(d, 0);
        if (doc_node_span(d, n, &v, &k) >= 0 && b->s[v.start] == '"')
            splice(b, v.start + 1, 0, "Q", 1);
    } else if (kind == 8) { /* nothing */
    } else {
        size_t i = rnd(ntools);
        doc_node in = doc_node_array_item(d, tn, tools, i);
        doc_node_span(d, in, &w, NULL);
        if (kind <= 3) { /* a string of the item: its value, or a member's name */
            doc_node n = some_node(d, in);
            doc_node_span(d, n, &v, &k);
            if (b->s[v.start] == '"')
                splice(b, v.start + 1, 0, kind == 3 ? "x\\n" : "t", kind == 3 ? 3 : 1);
            else if (k.end > k.start) splice(b, k.start + 1, 0, "k", 1);
            else splice(b, w.start + 1, 0, "\n  ", 3);
        } else if (kind == 4) { /* a line break inside the item, after its first member */
            const char *comma = memchr(b->s + w.start, ',', w.end - w.start);
            if (comma) splice(b, (size_t)(comma - b->s) + 1, 0, "\n        ", 9);
        } else if (kind == 5 && ntools > 1) { /* delete the item and the comma before or after */
            if (i > 0) {
                struct doc_span p;
                doc_node_span(d, doc_node_array_item(d, tn, tools, i - 1), &p, NULL);
                splice(b, p.end, w.end - p.end, "", 0);
            } else {
                struct doc_span nx;
                doc_node_span(d, doc_node_array_item(d, tn, tools, 1), &nx, NULL);
                splice(b, w.start, nx.start - w.start, "", 0);
            }
        } else if (kind == 6) { /* a copy of the item before another one */
            size_t j = rnd(ntools);
            struct doc_span t;
            doc_node_span(d, doc_node_array_item(d, tn, tools, j), &t, NULL);
            char *copy = xasprintf("%.*s,\n    ", (int)(w.end - w.start), b->s + w.start);
            splice(b, t.start, 0, copy, strlen(copy));
            free(copy);
        } else { /* spaces before the item: the rest of the text moves */
            splice(b, w.start, 0, "  \n", 3);
        }
    }
    doc_free(d);
}

/* Edits of the text of PATH, each followed by both judgements. */
static void edit_and_compare(const struct rule_set *rs, const char *path, int steps,
                             size_t *reused_total, size_t *compared)
{
    struct buf b = BUF_INIT;
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s opens", path);
    char chunk[4096];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, f)) > 0;) buf_add(&b, chunk, n);
    fclose(f);
    struct eval_memo *memo = eval_memo_new();
    for (int s = 0; s <= steps; s++) {
        if (s) edit_once(&b);
        char *want = judge_text(rs, b.s, b.len, NULL);
        char *got = judge_text(rs, b.s, b.len, memo);
        if (!((!want && !got) || (want && got && !strcmp(got, want)))) {
            char *g = tu_first_line_apart(got, want), *w = tu_first_line_apart(want, got);
            ck_abort_msg("%s, edit %d: with the memo \"%s\", expected \"%s\"", path, s, g, w);
        }
        size_t reused, judged;
        eval_memo_stats(memo, &reused, &judged);
        if (want && s) *reused_total += reused;
        if (want) (*compared)++;
        free(want);
        free(got);
    }
    eval_memo_free(memo);
    buf_release(&b);
}

static void edit_each_fixture(const struct rule_set *rs, const char *dir, int steps, size_t *reused,
                              size_t *compared)
{
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "%s opens", dir);
    for (struct dirent *e; (e = readdir(dp));) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json")) continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        edit_and_compare(rs, path, steps, reused, compared);
        free(path);
    }
    closedir(dp);
}

START_TEST(memo_equals_full_judgement_after_random_edits)
{
    struct rule_set *rs = tu_shipped_rules();
    const char *top = getenv("MCPDESC_TOP");
    size_t reused = 0, compared = 0;
    static const struct {
        const char *dir;
        int steps;
    } sets[] = {{"examples/corpus", 80},
                {"conformance/expected-invalid", 4},
                {"conformance/expected-warning", 4}};
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        rnd_state = 0x9E3779B97F4A7C15u + k;
        char *dir = xasprintf("%s/%s", top ? top : ".", sets[k].dir);
        edit_each_fixture(rs, dir, sets[k].steps, &reused, &compared);
        free(dir);
    }
    ck_assert_msg(compared >= 250, "compared %zu judgements (at least 250 expected)", compared);
    ck_assert_msg(reused >= 1000, "the memo served %zu items in all (at least 1000 expected)",
                  reused);
    rule_set_free(rs);
}
END_TEST

/* The security set (mentions of other tools, phrases over every text) the same way: it
 * extends the MCP set's release, found under rules-yaml/releases. */
START_TEST(memo_equals_full_judgement_with_the_security_set)
{
    const char *top = getenv("MCPDESC_TOP");
    char *releases = xasprintf("%s/rules-yaml/releases", top ? top : ".");
    char *dir = xasprintf("%s/rules-yaml/security", top ? top : ".");
    char *corpus = xasprintf("%s/examples/corpus", top ? top : ".");
    const char *const dirs[] = {releases};
    struct rule_load_opts lo = {.release_dirs = dirs, .nrelease_dirs = 1};
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load_with(dir, &lo, &errs);
    ck_assert_msg(rs != NULL, "the security set loads: %s", errs.len ? errs.items[0].message : "");
    size_t reused = 0, compared = 0;
    rnd_state = 0x5EC0F17E5EC0F17Eu;
    edit_each_fixture(rs, corpus, 25, &reused, &compared);
    ck_assert_msg(compared >= 100, "compared %zu judgements (at least 100 expected)", compared);
    ck_assert_msg(reused >= 500, "the memo served %zu items in all (at least 500 expected)",
                  reused);
    rule_set_free(rs);
    diag_list_release(&errs);
    free(releases);
    free(dir);
    free(corpus);
}
END_TEST

/* The same text judged again: every item from the memo; one string of one tool changed:
 * that tool alone judged again. */
START_TEST(memo_judges_only_the_edited_item)
{
    struct rule_set *rs = tu_shipped_rules();
    const char *top = getenv("MCPDESC_TOP");
    char *path = xasprintf("%s/examples/corpus/github.json", top ? top : ".");
    struct buf b = BUF_INIT;
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    char chunk[4096];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, f)) > 0;) buf_add(&b, chunk, n);
    fclose(f);
    struct eval_memo *memo = eval_memo_new();
    size_t reused, judged, items;
    free(judge_text(rs, b.s, b.len, memo));
    eval_memo_stats(memo, &reused, &judged);
    ck_assert_uint_eq(reused, 0);
    items = judged;
    ck_assert_uint_ge(items, 40); /* 40 tools, 3 resource templates */
    free(judge_text(rs, b.s, b.len, memo));
    eval_memo_stats(memo, &reused, &judged);
    ck_assert_uint_eq(judged, 0);
    ck_assert_uint_eq(reused, items);
    /* the description of the 21st tool, "tool-21" wherever it is */
    const char *at = strstr(b.s, "\"description\": \"");
    for (int k = 0; at && k < 20; k++) at = strstr(at + 1, "\"description\": \"");
    ck_assert(at != NULL);
    splice(&b, (size_t)(at - b.s) + 16, 0, "Now ", 4);
    char *want = judge_text(rs, b.s, b.len, NULL);
    char *got = judge_text(rs, b.s, b.len, memo);
    ck_assert_str_eq(got, want);
    eval_memo_stats(memo, &reused, &judged);
    ck_assert_uint_eq(judged, 1);
    ck_assert_uint_eq(reused, items - 1);
    free(want);
    free(got);
    eval_memo_free(memo);
    buf_release(&b);
    free(path);
    rule_set_free(rs);
}
END_TEST

/* Rules that read beyond their item: kept while what they read is the same, judged again
 * on every item when it may have changed. Rule 0: prompts read the tools' names with an absolute
 * selector; rule 1: unique over the tools' names; rule 2: tools read /server only; rule
 * 3: a tool's description calls a tool the server lacks (mentions, the tools' names). */
#define RULE_OF(id, check)                                                                         \
    "  - id: t." id "\n    owner: t\n    surface: Tool\n    kind: structural\n"                    \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check  \
    "\n"

static const char reader_rules[] =
    "rules:\n" RULE_OF("prompt-reads-tools",
                       "{select: '/prompts/[*]/name', require: {some: {select: '/tools/[*]/name', "
                       "require: {equals: shared}}}, message: m}")
        RULE_OF("unique",
                "{select: '/tools/[*]/name', require: {unique: {select: "
                "'/tools/[*]/name'}}, message: 'again {value}'}")
            RULE_OF("reads-server",
                    "{select: '/tools/[*]/name', require: {some: {select: "
                    "/server/name, require: {equals: s}}}, message: n}")
                RULE_OF("mentions",
                        "{select: '/tools/[*]/description', require: {not: "
                        "{mentions: {as: call-target, except: ['/tools/[*]/name']}}}, "
                        "message: 'calls {detail}'}");

static const char reader_doc[] =
    "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-06-18\"],\n"
    " \"server\": {\"name\": \"s\", \"version\": \"1\"},\n"
    " \"tools\": [\n"
    "  {\"name\": \"a\", \"description\": \"one\", \"inputSchema\": {\"type\": \"object\"}},\n"
    "  {\"name\": \"get_data\", \"description\": \"two\", \"inputSchema\": {\"type\": "
    "\"object\"}},\n"
    "  {\"name\": \"a\", \"description\": \"Then call `get_data`.\", \"inputSchema\": {\"type\": "
    "\"object\"}}\n"
    " ],\n"
    " \"prompts\": [{\"name\": \"p\"}, {\"name\": \"q\"}]\n"
    "}\n";

/* Replace the first FROM after AT in B with TO; judge with and without MEMO: the same
 * findings; *KEPT[r]: rule r's findings were kept. */
static void replace_and_judge(const struct rule_set *rs, struct buf *b, const char *at,
                              const char *from, const char *to, struct eval_memo *memo, int kept[3])
{
    const char *where = strstr(strstr(b->s, at), from);
    ck_assert(where != NULL);
    splice(b, (size_t)(where - b->s), strlen(from), to, strlen(to));
    char *want = judge_text(rs, b->s, b->len, NULL);
    char *got = judge_text(rs, b->s, b->len, memo);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    for (size_t r = 0; r < 4; r++) kept[r] = eval_memo_rule_was_kept(memo, r);
    free(want);
    free(got);
}

START_TEST(memo_keeps_rules_reading_beyond_the_item_while_that_is_unchanged)
{
    struct rule_set *rs = tu_rules_ok(reader_rules);
    struct buf b = BUF_INIT;
    buf_add(&b, reader_doc, strlen(reader_doc));
    struct eval_memo *memo = eval_memo_new();
    char *first = judge_text(rs, b.s, b.len, memo);
    ck_assert_ptr_nonnull(strstr(first, "again \"a\"")); /* the third tool's name */
    ck_assert_ptr_null(strstr(first, "calls"));          /* `b` is this server's */
    free(first);
    int kept[4];
    /* a tool's description: the tools' names are the same (unique compares them; a plain
     * selector into the tools cannot tell) */
    replace_and_judge(rs, &b, "\"get_data\"", "two", "deux", memo, kept);
    ck_assert(!kept[0] && kept[1] && kept[2] && kept[3]);
    /* a tool's name: the tools' names changed; /server did not */
    replace_and_judge(rs, &b, "\"deux\"", "\"a\"", "\"shared\"", memo, kept);
    ck_assert(!kept[0] && !kept[1] && kept[2] && !kept[3]);
    /* a prompt's name: the tools' names are the same again */
    replace_and_judge(rs, &b, "\"prompts\"", "\"q\"", "\"r\"", memo, kept);
    ck_assert(kept[0] && kept[1] && kept[2] && kept[3]);
    /* get_data renamed: the third tool's call of it is now of a tool this server lacks */
    replace_and_judge(rs, &b, "\"tools\"", "\"get_data\"", "\"get_info\"", memo, kept);
    ck_assert(!kept[3]);
    char *last = judge_text(rs, b.s, b.len, NULL);
    ck_assert_ptr_nonnull(strstr(last, "calls"));
    free(last);
    eval_memo_free(memo);
    buf_release(&b);
    rule_set_free(rs);
}
END_TEST

/* The versions a name is compared in are part of what unique reads: two tools of one name
 * in different versions do not collide; when the first one's versions widen, the second
 * one (unchanged, names all the same) collides, and narrowing them again parts them. */
static const char versions_doc[] =
    "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-06-18\", \"2025-11-25\"],\n"
    " \"server\": {\"name\": \"s\", \"version\": \"1\"},\n"
    " \"tools\": [\n"
    "  {\"name\": \"a\", \"protocolVersions\": [\"2025-06-18\"], \"description\": \"one\", "
    "\"inputSchema\": {\"type\": \"object\"}},\n"
    "  {\"name\": \"b\", \"description\": \"two\", \"inputSchema\": {\"type\": \"object\"}},\n"
    "  {\"name\": \"a\", \"protocolVersions\": [\"2025-11-25\"], \"description\": \"three\", "
    "\"inputSchema\": {\"type\": \"object\"}}\n"
    " ]\n"
    "}\n";

START_TEST(memo_sees_versions_change_under_unchanged_names)
{
    struct rule_set *rs = tu_rules_ok(reader_rules);
    struct buf b = BUF_INIT;
    buf_add(&b, versions_doc, strlen(versions_doc));
    struct eval_memo *memo = eval_memo_new();
    char *first = judge_text(rs, b.s, b.len, memo);
    ck_assert_ptr_null(strstr(first, "again"));
    free(first);
    int kept[4];
    replace_and_judge(rs, &b, "\"one\"", "\"description\"", "\"description\"", memo, kept);
    ck_assert(kept[1]); /* nothing changed: unique's findings kept */
    replace_and_judge(rs, &b, "\"tools\"", "[\"2025-06-18\"]", "[\"2025-06-18\", \"2025-11-25\"]",
                      memo, kept);
    ck_assert(!kept[1]);
    char *widened = judge_text(rs, b.s, b.len, memo);
    ck_assert_ptr_nonnull(strstr(widened, "again \"a\""));
    free(widened);
    replace_and_judge(rs, &b, "\"tools\"", "[\"2025-06-18\", \"2025-11-25\"]", "[\"2025-06-18\"]",
                      memo, kept);
    ck_assert(!kept[1]);
    char *narrowed = judge_text(rs, b.s, b.len, memo);
    ck_assert_ptr_null(strstr(narrowed, "again"));
    free(narrowed);
    eval_memo_free(memo);
    buf_release(&b);
    rule_set_free(rs);
}
END_TEST

Suite *eval_memo_suite(void)
{
    Suite *s = suite_create("eval_memo");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, memo_equals_full_judgement_after_random_edits);
    tcase_add_test(tc, memo_equals_full_judgement_with_the_security_set);
    tcase_add_test(tc, memo_judges_only_the_edited_item);
    tcase_add_test(tc, memo_keeps_rules_reading_beyond_the_item_while_that_is_unchanged);
    tcase_add_test(tc, memo_sees_versions_change_under_unchanged_names);
    suite_add_tcase(s, tc);
    return s;
}
