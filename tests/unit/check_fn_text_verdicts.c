/* check_fn_text_verdicts.c - the answers a text rule keeps per distinct string
 * (resolve/texts.h: texts_cache_verdicts; rules/fn_text_skip.h: fn_text_holds): equal
 * strings share one record (its facts, and one name string for key nodes), other strings
 * never do; and judging with the kept answers reports exactly what judging every node
 * does, for a require over the string alone, one with a `when`, and a mentions whose names
 * depend on the item (never kept). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "resolve/res.h"
#include "resolve/texts.h"
#include "rules/rule.h"
#include "rules/ruleInt.h"
#include "testutil.h"
#include "base/util.h"

/* tools: name, description; schema roots inputSchema; values description; keys
 * properties. */
static struct texts_spec *spec_new(void)
{
    struct texts_spec *s = texts_spec_new();
    struct texts_coll tools = {xstrdup("tools"), VEC_INIT};
    tu_texts_entry(&tools.entries, "name", NULL, "name");
    tu_texts_entry(&tools.entries, "description", NULL, "description");
    VEC_PUSH(s->item, tools);
    const char *why;
    VEC_PUSH(s->roots, sel_compile("inputSchema", &why));
    tu_texts_entry(&s->values, NULL, "description", "description");
    tu_texts_entry(&s->keys, NULL, "properties", "property name");
    return s;
}

/* The record of the node of L whose pointer ends with TAIL (the test fails without one). */
static struct texts_verdict *record_at(const struct texts_list *l, struct texts_verdict *const *v,
                                       const char *tail, const struct cursor **node)
{
    for (size_t i = 0; i < l->nodes.len; i++) {
        char *p = sel_pointer(l->nodes.items[i]);
        size_t n = strlen(p), t = strlen(tail);
        int hit = n >= t && !strcmp(p + n - t, tail);
        free(p);
        if (!hit) continue;
        if (node) *node = l->nodes.items[i];
        return v[i];
    }
    ck_abort_msg("no text at ...%s", tail);
    return NULL;
}

/* A string met for the first time in a document has no record (most are met once: texts.c,
 * verdict_for); met again, it gets one, which every later node of the same string and
 * kind shares, and no other string does. Tool p meets the strings first. */
START_TEST(equal_strings_share_one_record)
{
    struct buf j = BUF_INIT;
    char longer[301];
    memset(longer, 'x', 300);
    longer[300] = 0;
    /* "secret" and "secret word" share a prefix, "secreT" all but one byte */
    buf_addf(&j,
             "{\"tools\": [{\"name\": \"p\", \"description\": \"secret\", \"inputSchema\": "
             "{\"properties\": {\"max_results\": {\"description\": \"secret word\"},"
             " \"secret\": {}}}},"
             " {\"name\": \"a\", \"description\": \"secret\", \"inputSchema\": "
             "{\"properties\": {\"max_results\": {\"description\": \"secret word\"},"
             " \"other\": {\"description\": \"%s\"}, \"secret\": {}}}},"
             " {\"name\": \"b\", \"description\": \"secret word\", \"inputSchema\": "
             "{\"properties\": {\"max_results\": {\"description\": \"secreT\"}}}}]}",
             longer);
    doc *d = tu_doc(buf_str(&j));
    ck_assert_ptr_nonnull(d);
    struct texts_spec *spec = spec_new();
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, p, a, b;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 0, &p), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 1, &a), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 2, &b), 0);
    struct texts_cache *cache = NULL;
    const struct texts_list *lp = texts_cache_item(&cache, spec, &ctx, &p);
    const struct texts_list *la = texts_cache_item(&cache, spec, &ctx, &a);
    const struct texts_list *lb = texts_cache_item(&cache, spec, &ctx, &b);
    struct texts_verdict *const *vp = texts_cache_verdicts(&cache, lp);
    struct texts_verdict *const *va = texts_cache_verdicts(&cache, la);
    struct texts_verdict *const *vb = texts_cache_verdicts(&cache, lb);
    ck_assert_ptr_eq(texts_cache_verdicts(&cache, la), va); /* made once */
    /* met first: no record, and no record made for it when met again */
    ck_assert_uint_eq(lp->nodes.len, 5);
    for (size_t i = 0; i < lp->nodes.len; i++) ck_assert_ptr_null(vp[i]);
    const struct cursor *ka, *kb, *n;
    /* the same string: one record, values and names alike */
    ck_assert_ptr_nonnull(record_at(la, va, "properties/max_results/description", NULL));
    ck_assert_ptr_eq(record_at(la, va, "properties/max_results/description", NULL),
                     record_at(lb, vb, "/tools/2/description", NULL));
    struct texts_verdict *name_a = record_at(la, va, "properties/max_results", &ka);
    ck_assert_ptr_nonnull(name_a);
    ck_assert_ptr_eq(name_a, record_at(lb, vb, "properties/max_results", &kb));
    ck_assert(ka->is_key && kb->is_key);
    ck_assert_ptr_eq(ka->v, kb->v); /* one name string */
    ck_assert_str_eq(json_string_value(ka->v), "max_results");
    /* other strings: other records; one met once, or a long one: none */
    struct texts_verdict *secret = record_at(la, va, "/tools/1/description", NULL);
    ck_assert_ptr_nonnull(secret);
    ck_assert_ptr_ne(secret, record_at(lb, vb, "/tools/2/description", NULL));
    ck_assert_ptr_null(record_at(lb, vb, "properties/max_results/description", NULL));
    ck_assert_ptr_null(record_at(lb, vb, "/tools/2/name", NULL));
    ck_assert_ptr_ne(secret, name_a);
    ck_assert_ptr_null(record_at(la, va, "properties/other/description", NULL));
    /* the same string as another kind: another record (an answer may read the kind) */
    ck_assert_ptr_nonnull(record_at(la, va, "properties/secret", NULL));
    ck_assert_ptr_ne(secret, record_at(la, va, "properties/secret", NULL));
    /* every node's facts are its own string's, with a record or without */
    const struct texts_list *lists[] = {lp, la, lb};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < lists[k]->nodes.len; i++) {
            n = lists[k]->nodes.items[i];
            struct cursor fresh = *n;
            sel_text_facts(&fresh);
            ck_assert_uint_eq(n->text_facts, fresh.text_facts);
            ck_assert(n->text_facts & SEL_TEXT_FACTS);
            ck_assert(n->text_ascii[0] == fresh.text_ascii[0]);
            ck_assert(n->text_ascii[1] == fresh.text_ascii[1]);
        }
    /* a record starts knowing nothing; what one node learns, the others read */
    ck_assert(secret->known == 0 && secret->yes == 0);
    /* questions: one number per asker, 64 at most */
    int askers[65];
    for (int i = 0; i < 64; i++) ck_assert_int_eq(texts_cache_question(&cache, &askers[i]), i);
    ck_assert_int_eq(texts_cache_question(&cache, &askers[3]), 3);
    ck_assert_int_eq(texts_cache_question(&cache, &askers[64]), -1);
    texts_cache_free(cache);
    texts_spec_free(spec);
    doc_free(d);
    buf_release(&j);
}
END_TEST

/* The open nodes of a list: those whose string has not said YES to every question
 * numbered when the list was first asked; every node for a question numbered later. */
START_TEST(open_nodes_are_those_not_yet_settled)
{
    /* tool 0 meets "a" and "seen" first: their records come with tool a */
    doc *d = tu_doc("{\"tools\": [{\"name\": \"a\", \"description\": \"seen\"},"
                    " {\"name\": \"a\", \"description\": \"seen\"},"
                    " {\"name\": \"b\", \"description\": \"seen\"},"
                    " {\"name\": \"c\", \"description\": \"seen\"}]}");
    ck_assert_ptr_nonnull(d);
    struct texts_spec *spec = spec_new();
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, first, item[3];
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 0, &first), 0);
    for (size_t i = 0; i < 3; i++) ck_assert_int_eq(sel_item(&ctx, &coll, i + 1, &item[i]), 0);
    struct texts_cache *cache = NULL;
    int asker[2];
    int q0 = texts_cache_question(&cache, &asker[0]);
    /* strings met first: no record, so every node open */
    const struct texts_list *l0 = texts_cache_item(&cache, spec, &ctx, &first);
    size_t n;
    ck_assert_ptr_nonnull(texts_cache_open(&cache, l0, q0, &n));
    ck_assert_uint_eq(n, 2);
    /* tool a: both its strings said YES to q0 */
    const struct texts_list *la = texts_cache_item(&cache, spec, &ctx, &item[0]);
    struct texts_verdict *const *va = texts_cache_verdicts(&cache, la);
    ck_assert_uint_eq(la->nodes.len, 2);
    for (size_t i = 0; i < la->nodes.len; i++) {
        ck_assert_ptr_nonnull(va[i]); /* met before: a record */
        va[i]->known |= (uint64_t)1 << q0;
        va[i]->yes |= (uint64_t)1 << q0;
    }
    /* tool b: "seen" settled, "b" not */
    const struct texts_list *lb = texts_cache_item(&cache, spec, &ctx, &item[1]);
    const uint32_t *open = texts_cache_open(&cache, lb, q0, &n);
    ck_assert_ptr_nonnull(open);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(json_string_value(lb->nodes.items[open[0]]->v), "b");
    /* a question numbered after b's list was first asked: every node of it */
    int q1 = texts_cache_question(&cache, &asker[1]);
    ck_assert_ptr_null(texts_cache_open(&cache, lb, q1, &n));
    ck_assert_uint_eq(n, lb->nodes.len);
    /* tool c, first asked now: "seen" said nothing to q1 yet, so it is open */
    const struct texts_list *lc = texts_cache_item(&cache, spec, &ctx, &item[2]);
    ck_assert_ptr_nonnull(texts_cache_open(&cache, lc, q0, &n));
    ck_assert_uint_eq(n, 2);
    texts_cache_free(cache);
    texts_spec_free(spec);
    doc_free(d);
}
END_TEST

/* ---- judged with the kept answers: the same findings as judging every node ---- */

static const char *manifest = "texts:\n"
                              "  item:\n"
                              "    tools: [name, description]\n"
                              "  schema:\n"
                              "    roots: [inputSchema]\n"
                              "    values: [description]\n"
                              "    keys: [{member: properties, kind: property name}]\n";

#define HEAD(id)                                                                                   \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: style\n    level: should\n"        \
    "    status: stable\n    enforcement: registry\n    applies: all\n    summary: s\n"            \
    "    requirement: r\n    based-on: [{tier: 1, text: t}]\n"

static const char *rules = "rules:\n" HEAD(
    "t.secret") "    check:\n      select: {texts: item}\n"
                "      require: {not: {any: [{matches: secret}, {matches: '^never$'}]}}\n"
                "      message: '{text-kind}: {value}'\n" HEAD(
                    "t.secret-name") "    check:\n"
                                     "      select: {texts: item}\n      when: {text-kind: "
                                     "[property name]}\n"
                                     "      require: {not: {matches: secret}}\n      message: "
                                     "'{value}'\n" HEAD(
                                         "t.own-param") "    check:\n      select: {texts: item}\n"
                                                        "      require: {not: {mentions: {as: "
                                                        "parameter, among: [{keys: "
                                                        "inputSchema/properties}],"
                                                        " depth: 2}}}\n      message: '{detail}'\n";

static struct rule_set *load_rules_text(const char *text)
{
    const char *files[] = {"test.yaml"};
    char *dir = tu_rule_dir(files, &text, 1);
    tu_manifest_add(dir, manifest);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    tu_rmdir(dir);
    return rs;
}

static struct rule_set *load_rules(void)
{
    return load_rules_text(rules);
}

static void count_judged(const struct rule *r, const char *pointer, int whole, ver_mask judged,
                         ver_mask failed, void *arg)
{
    (void)r, (void)pointer, (void)whole, (void)judged, (void)failed;
    ++*(size_t *)arg;
}

/* WANT and GOT show the same findings, every field (WHAT says what would differ). */
static void assert_same_findings(const struct diag_list *want, const struct diag_list *got,
                                 const char *what)
{
    char *w = tu_show_all(want), *g = tu_show_all(got);
    char *apart = tu_first_line_apart(w, g);
    ck_assert_msg(!strcmp(w, g), "%s changed the findings: %s", what, apart);
    free(apart);
    free(w);
    free(g);
}

/* JSON judged by RS with every node judged (rules test's callback turns the kept answers
 * and the leaving out off) into *WANT, and as validate judges it into *GOT; the texts
 * left out while every node was judged (none expected). */
static unsigned long judge_both_ways(const struct rule_set *rs, const char *json,
                                     struct diag_list *want, struct diag_list *got)
{
    size_t judged = 0;
    struct eval_options all = {0};
    all.judged = count_judged;
    all.judged_arg = &judged;
    doc *d = tu_doc(json);
    unsigned long before = texts_values_left_out;
    eval_document(rs, d, &all, want);
    unsigned long left_out = texts_values_left_out - before;
    doc_free(d);
    ck_assert(judged > 0);
    tu_eval(rs, json, got);
    return left_out;
}

/* Tool I of N: the same texts again and again (a secret in every third description and
 * property name, the name also a description before it: t.secret-name's `when` fails
 * there, holds at the name; a $componentRef'd text in each), and a sentence naming "notes", a
 * parameter of the even tools only (the first among them: its list is made before the
 * later rules ask their first question). */
static char *many_tools(size_t n)
{
    struct buf b = BUF_INIT;
    buf_adds(&b,
             "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-11-25\"],"
             " \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"},"
             " \"capabilities\": {\"tools\": {}}, \"tools\": [");
    /* every tool also has a component whose texts all hold: left out once settled */
    for (size_t i = 0; i < n; i++)
        buf_addf(&b,
                 "%s{\"name\": \"t%zu\", \"description\": \"%s\", \"inputSchema\": "
                 "{\"type\": \"object\", \"properties\": {\"%s\": {\"description\": \"Pass "
                 "the file as notes.\"}, \"c\": {\"$componentRef\": \"#/components/schemas/C\"},"
                 " \"p\": {\"$componentRef\": \"#/components/schemas/P\"},"
                 " \"%s\": {\"type\": \"string\"}}}}",
                 i ? "," : "", i,
                 i % 3 == 1  ? "secret_key"
                     : i % 3 ? "fine"
                             : "a secret",
                 i % 2 ? "path" : "notes", i % 3 == 1 ? "secret_key" : "max_results");
    buf_adds(&b,
             "], \"components\": {\"schemas\": {\"C\": {\"type\": \"string\","
             " \"description\": \"keep it secret\"}, \"P\": {\"type\": \"object\","
             " \"properties\": {\"plain\": {\"description\": \"Select the correct set.\"}}}}}}");
    return buf_detach(&b);
}

START_TEST(kept_answers_change_no_finding)
{
    struct rule_set *rs = load_rules();
    size_t n = (size_t)_i ? 40 : 7; /* 40: walked item by item with every rule */
    char *json = many_tools(n);
    struct diag_list want = DIAG_LIST_INIT, got = DIAG_LIST_INIT;
    ck_assert_uint_eq(judge_both_ways(rs, json, &want, &got), 0);
    assert_same_findings(&want, &got, "kept answers");
    /* and the findings are those expected: each occurrence, not each string */
    size_t secret = 0, secret_name = 0, own = 0;
    for (size_t i = 0; i < got.len; i++) {
        const char *r = got.items[i].rule ? got.items[i].rule : "";
        secret += !strcmp(r, "t.secret");
        secret_name += !strcmp(r, "t.secret-name");
        own += !strcmp(r, "t.own-param");
    }
    size_t thirds = (n + 2) / 3, ones = (n + 1) / 3, even = (n + 1) / 2;
    /* the component's text is reported once per site or once in its component: either
     * way, the same in both runs (above); here only the items' own */
    ck_assert_uint_ge(secret, thirds + ones);
    ck_assert_uint_eq(secret_name, ones);
    ck_assert_uint_eq(own, even);
    diag_list_release(&want);
    diag_list_release(&got);
    free(json);
    rule_set_free(rs);
}
END_TEST

/* A component's texts that said YES to every question are left out of the next items'
 * lists (texts.h: texts_cache_item_for): the findings stay those of judging every node,
 * the component with a secret in it is never left out, and P's texts are. Without
 * t.own-param, whose answers depend on the item, P's texts settle. */
START_TEST(settled_component_texts_left_out)
{
    char *text = xstrdup(rules);
    *strstr(text, "  - id: t.own-param") = 0;
    struct rule_set *rs = load_rules_text(text);
    char *json = many_tools(40);
    struct diag_list want = DIAG_LIST_INIT, got = DIAG_LIST_INIT;
    unsigned long left_out = texts_values_left_out;
    ck_assert_uint_eq(judge_both_ways(rs, json, &want, &got), 0); /* every node judged: none */
    /* P at every tool but the first few (C, with its secret, at none) */
    ck_assert_uint_ge(texts_values_left_out - left_out, 35);
    ck_assert_uint_le(texts_values_left_out - left_out, 39);
    assert_same_findings(&want, &got, "leaving texts out");
    ck_assert_uint_gt(got.len, 40); /* the secrets, C's at each site among them */
    diag_list_release(&want);
    diag_list_release(&got);
    free(json);
    free(text);
    rule_set_free(rs);
}
END_TEST

/* A list that leaves settled values out counts their nodes as entered (the bounds of a
 * walk are the same: texts.h), and a caller that reads every node, or asks a question the
 * left-out texts did not answer, gets the whole list again. */
START_TEST(left_out_values_keep_counts)
{
    struct rule_set *rs = load_rules();
    char *json = many_tools(6);
    doc *d = tu_doc(json);
    struct diag_list out = DIAG_LIST_INIT;
    struct res *r = res_resolve(d, rule_set_res_config(rs), &out);
    struct sel_ctx ctx = {d, res_view(r)};
    const struct texts_spec *spec = rule_set_texts(rs);
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    struct texts_cache *cache = NULL;
    int asker[2];
    int q0 = texts_cache_question(&cache, &asker[0]);
    size_t skipped = 0;
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(sel_item(&ctx, &coll, i, &item), 0);
        const struct texts_list *l = texts_cache_item_for(&cache, spec, &ctx, &item, q0);
        struct texts_list *whole = texts_of_item(spec, &ctx, &item);
        ck_assert_uint_eq(l->entered, whole->entered);
        ck_assert_uint_eq(l->cuts, whole->cuts);
        skipped += l->has_skips;
        if (l->has_skips) ck_assert_uint_lt(l->nodes.len, whole->nodes.len);
        else ck_assert_uint_eq(l->nodes.len, whole->nodes.len);
        /* every text says YES to q0: its values are left out of the next lists */
        struct texts_verdict *const *v = texts_cache_verdicts(&cache, l);
        for (size_t k = 0; k < l->nodes.len; k++)
            if (v[k]) v[k]->yes |= (uint64_t)1 << q0, v[k]->known |= (uint64_t)1 << q0;
        if (i == 4) { /* a later question: the whole list */
            int q1 = texts_cache_question(&cache, &asker[1]);
            l = texts_cache_item_for(&cache, spec, &ctx, &item, q1);
            ck_assert(!l->has_skips);
            ck_assert_uint_eq(l->nodes.len, whole->nodes.len);
            v = texts_cache_verdicts(&cache, l);
            for (size_t k = 0; k < l->nodes.len; k++)
                if (v[k]) v[k]->yes |= 3ull << q0, v[k]->known |= 3ull << q0;
        }
        if (i == 5) {
            ck_assert(l->has_skips);
            /* settled for q0 and q1 */ /* every node: the whole list, and the next ones whole too */
            l = texts_cache_item_for(&cache, spec, &ctx, &item, -1);
            ck_assert(!l->has_skips);
            ck_assert_uint_eq(l->nodes.len, whole->nodes.len);
        }
        texts_list_free(whole);
    }
    ck_assert_uint_ge(skipped, 3); /* tools 1 to 5, but the first one of q1 */
    texts_cache_free(cache);
    res_free(r);
    diag_list_release(&out);
    doc_free(d);
    free(json);
    rule_set_free(rs);
}
END_TEST

Suite *fn_text_verdicts_suite(void)
{
    Suite *s = suite_create("fn_text_verdicts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, equal_strings_share_one_record);
    tcase_add_test(tc, open_nodes_are_those_not_yet_settled);
    tcase_add_loop_test(tc, kept_answers_change_no_finding, 0, 2);
    tcase_add_test(tc, settled_component_texts_left_out);
    tcase_add_test(tc, left_out_values_keep_counts);
    suite_add_tcase(s, tc);
    return s;
}
