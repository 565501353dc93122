/* check_res.c - effective versions and $componentRef resolution, through the whole
 * pipeline with a rule set that reports every tool inputSchema that is not an object. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "judge/eval.h"
#include "resolve/res.h"
#include "resolve/view.h"
#include "testutil.h"
#include "base/util.h"

/* A rule that fails on every inputSchema, so diagnostics show what resolution did. */
static const char *probe =
    "rules:\n"
    "  - id: test.probe\n"
    "    owner: test\n    surface: Tool\n    kind: structural\n    level: should\n"
    "    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: s\n    requirement: r\n"
    "    based-on: [{tier: 1, text: test}]\n"
    "    check:\n"
    "      select: /tools/*/inputSchema\n"
    "      require: {equals: never}\n"
    "      message: '{value}'\n";

static struct rule_set *rs;

static void setup(void)
{
    struct diag_list errs = DIAG_LIST_INIT;
    rs = tu_rules(probe, &errs);
    ck_assert_msg(rs != NULL, "probe rules: %s", errs.len ? errs.items[0].message : "?");
}

static void teardown(void)
{
    rule_set_free(rs);
}

static const struct diag *find(const struct diag_list *l, const char *rule, const char *pointer)
{
    for (size_t i = 0; i < l->len; i++)
        if (!strcmp(l->items[i].rule, rule) && !strcmp(l->items[i].pointer, pointer))
            return &l->items[i];
    return NULL;
}

START_TEST(substitutes_chains_and_keeps_component_positions)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"t\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/A\"}}],\n"
            " \"components\": {\"schemas\": {\n"
            "  \"A\": {\"$componentRef\": \"#/components/schemas/B%20C\"},\n"
            "  \"B C\": {\"type\": \"object\", \"x\": {\"$componentRef\": "
            "\"#/components/schemas/D~1E\"}},\n"
            "  \"D/E\": {\"type\": \"string\"}}}}",
            &out);
    const struct diag *d = find(&out, "test.probe", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->message, "{\"type\":\"object\",\"x\":{\"type\":\"string\"}}");
    ck_assert_uint_eq(d->line, 4);
    ck_assert_uint_eq(d->col, 10);
    ck_assert_str_eq(d->component, "/components/schemas/B C");
    ck_assert_uint_eq(out.len, 1);
    diag_list_release(&out);
}
END_TEST

START_TEST(reports_bad_references_at_their_site)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-11-25\", \"2026-07-28\"],\n"
            " \"tools\": [\n"
            "  {\"name\": \"a\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/Nope\"}},\n"
            "  {\"name\": \"b\", \"inputSchema\": {\"$componentRef\": \"#/components/schemas/S\", "
            "\"type\": \"object\"}},\n"
            "  {\"name\": \"c\", \"inputSchema\": {\"$componentRef\": 3}},\n"
            "  {\"name\": \"d\", \"inputSchema\": {\"$componentRef\": \"#/tools/0\"}},\n"
            "  {\"name\": \"e\", \"protocolVersions\": [\"2026-07-28\"], \"inputSchema\": "
            "{\"$componentRef\": \"#/components/schemas/Loop\"}}],\n"
            " \"components\": {\"schemas\": {\"S\": {\"type\": \"object\"},\n"
            "   \"Loop\": {\"type\": \"object\", \"properties\": {\"next\": {\"$componentRef\": "
            "\"#/components/schemas/Loop\"}}}}}}",
            &out);
    const struct diag *d = find(&out, "mcpdesc.component-ref.dangling", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->line, 3);
    ck_assert_uint_eq(d->versions, 0x18); /* 2025-11-25, 2026-07-28 */
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.siblings", "/tools/1/inputSchema"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.invalid", "/tools/2/inputSchema"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.invalid", "/tools/3/inputSchema"));
    d = find(&out, "mcpdesc.component-ref.cycle", "/components/schemas/Loop/properties/next");
    ck_assert_ptr_nonnull(d);
    /* the tool that uses Loop is substituted; the cyclic inner site stays as written */
    d = find(&out, "test.probe", "/tools/4/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->versions, 0x10);
    ck_assert_ptr_nonnull(strstr(d->message, "\"next\":{\"$componentRef\""));
    diag_list_release(&out);
}
END_TEST

START_TEST(effective_versions_narrow_and_report)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\", \"2099-01-01\"],\n"
            " \"tools\": [{\"name\": \"a\", \"protocolVersions\": [\"2025-11-25\", "
            "\"2026-07-28\"], \"inputSchema\": {}},\n"
            "            {\"name\": \"b\", \"inputSchema\": {}}]}",
            &out);
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.protocol-versions.unknown", "/protocolVersions/2"));
    ck_assert_ptr_nonnull(
        find(&out, "mcpdesc.protocol-versions.not-in-document", "/tools/0/protocolVersions/1"));
    ck_assert_uint_eq(find(&out, "test.probe", "/tools/0/inputSchema")->versions, 0x08);
    ck_assert_uint_eq(find(&out, "test.probe", "/tools/1/inputSchema")->versions, 0x0C);
    diag_list_release(&out);
    tu_eval(rs, "{\"protocolVersions\": \"2025-06-18\", \"tools\": [{\"inputSchema\": {}}]}", &out);
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.protocol-versions.invalid", "/protocolVersions"));
    ck_assert_uint_eq(find(&out, "test.probe", "/tools/0/inputSchema")->versions, 0x1F);
    diag_list_release(&out);
}
END_TEST

/* A 100,000-long chain and a 100,000-long cycle: no stack overflow, linear work. */
START_TEST(long_chains_and_cycles_are_bounded)
{
    for (int cyclic = 0; cyclic < 2; cyclic++) {
        struct buf b = BUF_INIT;
        int n = 100000;
        buf_adds(
            &b,
            "{\"tools\": [{\"inputSchema\": {\"$componentRef\": \"#/components/schemas/c0\"}}], "
            "\"components\": {\"schemas\": {");
        for (int i = 0; i < n; i++)
            buf_addf(&b, "\"c%d\": {\"$componentRef\": \"#/components/schemas/c%d\"}, ", i,
                     i + 1 < n ? i + 1 : (cyclic ? 0 : n));
        buf_addf(&b, "\"c%d\": {\"type\": \"object\"}}}}", n);
        struct diag_list out = DIAG_LIST_INIT;
        tu_eval(rs, buf_str(&b), &out);
        if (cyclic) { /* every link, and the tool's reference into the cycle */
            ck_assert_uint_eq(diag_count(&out, DIAG_ERROR), (size_t)n + 1);
            const struct diag *d =
                find(&out, "mcpdesc.component-ref.cycle", "/tools/0/inputSchema");
            ck_assert_ptr_nonnull(d);
            ck_assert_ptr_nonnull(
                strstr(d->message, "points at a reference that cannot be resolved"));
        } else {
            ck_assert_uint_eq(out.len, 1);
            ck_assert_str_eq(out.items[0].message, "{\"type\":\"object\"}");
            ck_assert_str_eq(out.items[0].component, "/components/schemas/c100000");
        }
        diag_list_release(&out);
        buf_release(&b);
    }
}
END_TEST

/* A tool whose reference leads into a cycle (or to a dangling reference) is not
 * substituted with the unresolved reference object, and so not judged as if it were
 * its schema: it is reported once, with the rule of what it leads to. */
START_TEST(references_to_unresolved_references_are_not_judged)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/CycA\"}},\n"
            "            {\"name\": \"b\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/ToNowhere\"}},\n"
            "            {\"name\": \"c\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/Chain\"}}],\n"
            " \"components\": {\"schemas\": {\"CycA\": {\"$componentRef\": "
            "\"#/components/schemas/CycB\"},\n"
            "   \"CycB\": {\"$componentRef\": \"#/components/schemas/CycA\"},\n"
            "   \"ToNowhere\": {\"$componentRef\": \"#/components/schemas/Nope\"},\n"
            "   \"Chain\": {\"$componentRef\": \"#/components/schemas/ToNowhere\"}}}}",
            &out);
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/0/inputSchema"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/1/inputSchema"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/2/inputSchema"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.cycle", "/components/schemas/CycA"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.cycle", "/components/schemas/CycB"));
    const struct diag *d = find(&out, "mcpdesc.component-ref.cycle", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->line, 1);
    ck_assert_ptr_nonnull(
        strstr(d->message, "\"#/components/schemas/CycA\" points at a reference"));
    ck_assert_ptr_nonnull(
        find(&out, "mcpdesc.component-ref.dangling", "/components/schemas/ToNowhere"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.dangling", "/tools/1/inputSchema"));
    ck_assert_ptr_nonnull(
        find(&out, "mcpdesc.component-ref.dangling", "/components/schemas/Chain"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.dangling", "/tools/2/inputSchema"));
    ck_assert_uint_eq(out.len, 7);
    diag_list_release(&out);
}
END_TEST

/* A \u0000 in a reference does not cut it short: "Obj\u0000evil" is not "Obj". */
START_TEST(nul_in_a_reference_is_invalid)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/Obj\\u0000evil\"}}],\n"
            " \"components\": {\"schemas\": {\"Obj\": {\"type\": \"string\"}}}}",
            &out);
    const struct diag *d = find(&out, "mcpdesc.component-ref.invalid", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(
        strstr(d->message, "\"#/components/schemas/Obj\\u0000evil\" is not a reference"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/0/inputSchema"));
    ck_assert_uint_eq(out.len, 1);
    diag_list_release(&out);
    /* other control characters are shown escaped too, and resolve as written */
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"$componentRef\": "
            "\"#/components/schemas/A\\nB\"}}]}",
            &out);
    d = find(&out, "mcpdesc.component-ref.dangling", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->message, "\"#/components/schemas/A\\nB\" points at nothing"));
    diag_list_release(&out);
}
END_TEST

/* A chain of K components, each nesting the next under properties.a, ending in an object:
 * substituted at /tools/0/inputSchema (3 levels down) it is 3 + 2K + 1 levels deep. */
static char *nest_chains(int k, int twice, int tools)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "{\"tools\": [");
    for (int i = 0; i < tools; i++)
        buf_addf(&b,
                 "%s{\"name\": \"t%d\", \"inputSchema\": {\"$componentRef\": "
                 "\"#/components/schemas/S0\"}}",
                 i ? ", " : "", i);
    buf_adds(&b, "],\n \"components\": {\"schemas\": {\n");
    for (int i = 0; i < k; i++) {
        buf_addf(
            &b,
            "  \"S%d\": {\"properties\": {\"a\": {\"$componentRef\": \"#/components/schemas/S%d\"}",
            i, i + 1);
        if (twice)
            buf_addf(&b, ", \"b\": {\"$componentRef\": \"#/components/schemas/S%d\"}", i + 1);
        buf_adds(&b, "}},\n");
    }
    buf_addf(&b, "  \"S%d\": {\"type\": \"object\"}}}}", k);
    return buf_detach(&b);
}

static char *nest_chain(int k, int twice)
{
    return nest_chains(k, twice, 1);
}

START_TEST(substitution_stays_within_the_nesting_bound)
{
    struct diag_list out = DIAG_LIST_INIT;
    char *text = nest_chain(254, 0); /* 512 levels: allowed, as the loader allows them */
    tu_eval(rs, text, &out);
    free(text);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].rule, "test.probe");
    diag_list_release(&out);
    text = nest_chain(255, 0); /* 514 at the tool, 514 at S0's site, 512 at S1's */
    tu_eval(rs, text, &out);
    free(text);
    const struct diag *d = find(&out, "mcpdesc.component-ref.too-large", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->message, "deeper than 512 levels (3 here + 511 substituted)"));
    ck_assert_ptr_nonnull(d->hint);
    ck_assert_ptr_nonnull(
        find(&out, "mcpdesc.component-ref.too-large", "/components/schemas/S0/properties/a"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/0/inputSchema"));
    ck_assert_uint_eq(out.len, 2);
    diag_list_release(&out);
    text = nest_chain(100000, 0); /* 200,000 levels: refused, no stack overflow */
    tu_eval(rs, text, &out);
    free(text);
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.component-ref.too-large", "/tools/0/inputSchema"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/0/inputSchema"));
    ck_assert_uint_eq(diag_count(&out, DIAG_ERROR),
                      100000 - 254 + 1); /* S0..S99745, and the tool */
    diag_list_release(&out);
}
END_TEST

/* Two references per link: 2^40 nodes once substituted. Refused, in linear time. */
START_TEST(substitution_stays_within_the_node_bound)
{
    struct diag_list out = DIAG_LIST_INIT;
    char *text = nest_chain(40, 1);
    tu_eval(rs, text, &out);
    free(text);
    const struct diag *d = find(&out, "mcpdesc.component-ref.too-large", "/tools/0/inputSchema");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->message, "more than 1048576 nodes"));
    ck_assert_ptr_null(find(&out, "test.probe", "/tools/0/inputSchema"));
    /* S(i) expands to 3 * 2^(40-i) + ... nodes: the links from S21 on stay within */
    ck_assert_ptr_nonnull(
        find(&out, "mcpdesc.component-ref.too-large", "/components/schemas/S0/properties/b"));
    ck_assert_ptr_null(
        find(&out, "mcpdesc.component-ref.too-large", "/components/schemas/S30/properties/a"));
    diag_list_release(&out);
    /* 20 tools sharing a component of 2^19 nodes: each within the bound, together not */
    text = nest_chains(17, 1, 20);
    tu_eval(rs, text, &out);
    free(text);
    /* 2^19 - 2 nodes each, after the components' own 2^20: the first 14 fit in 8 * 2^20 */
    for (int i = 0; i < 20; i++) {
        char ptr[40];
        snprintf(ptr, sizeof ptr, "/tools/%d/inputSchema", i);
        d = find(&out, "mcpdesc.component-ref.too-large", ptr);
        ck_assert_msg((d != NULL) == (i >= 14), "tool %d", i);
        ck_assert_msg((find(&out, "test.probe", ptr) != NULL) == (i < 14), "tool %d", i);
        if (d)
            ck_assert_ptr_nonnull(
                strstr(d->message, "would bring the document past 8388608 nodes"));
    }
    ck_assert_uint_eq(diag_count(&out, DIAG_ERROR), 6);
    diag_list_release(&out);
    text = nest_chain(10, 1); /* about 5,000 nodes: substituted */
    tu_eval(rs, text, &out);
    free(text);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].rule, "test.probe");
    diag_list_release(&out);
}
END_TEST

/* What resolution leaves for the selectors (view.h), read directly: the versions of the
 * document, of each item and collection; the resolved site and where it leads; the
 * unresolved one marked. The dangling site's diagnostic has its tool's versions: the
 * reference stage walks with the versions stage's view. */
START_TEST(the_view_holds_versions_and_sites)
{
    doc *d = tu_doc(
        "{\"protocolVersions\": [\"2025-06-18\", \"2025-11-25\"],\n"
        " \"tools\": [{\"name\": \"a\", \"protocolVersions\": [\"2025-11-25\"],\n"
        "             \"inputSchema\": {\"$componentRef\": \"#/components/schemas/A\"}},\n"
        "            {\"name\": \"b\", \"protocolVersions\": [\"2025-06-18\"],\n"
        "             \"inputSchema\": {\"$componentRef\": \"#/components/schemas/Nope\"}}],\n"
        " \"prompts\": [],\n"
        " \"components\": {\"schemas\": {\"A\": {\"type\": \"object\"}}}}");
    doc_node site = doc_pointer_node(d, "/tools/0/inputSchema");
    doc_node dangling = doc_pointer_node(d, "/tools/1/inputSchema");
    doc_node a = doc_pointer_node(d, "/components/schemas/A");
    struct diag_list out = DIAG_LIST_INIT;
    struct res *r = res_resolve(d, rule_set_res_config(rs), &out);
    const struct view *v = res_view(r);
    ck_assert_uint_eq(v->doc_mask, 0x0C);
    int tools = view_collection(v, "tools");
    ck_assert_int_eq(tools, 0);
    ck_assert_int_eq(view_collection(v, "components"), -1);
    ck_assert_uint_eq(v->collections[tools].nitems, 2);
    ck_assert_uint_eq(view_item_mask(v, tools, 0), 0x08);
    ck_assert_uint_eq(view_item_mask(v, tools, 1), 0x04);
    ck_assert_uint_eq(view_item_mask(v, tools, 2), 0x0C); /* out of range: the document's */
    ck_assert_uint_eq(view_collection_mask(v, tools), 0x0C);
    ck_assert_uint_eq(view_collection_mask(v, view_collection(v, "prompts")), 0);
    ck_assert_uint_eq(view_collection_mask(v, -1), 0x0C);
    ck_assert_uint_eq(v->nsites, 1);
    doc_node target = DOC_NONE;
    const char *component = NULL;
    ck_assert(view_follow(v, site, &target, &component));
    ck_assert_uint_eq(target, a);
    ck_assert_str_eq(component, "/components/schemas/A");
    ck_assert(!view_follow(v, dangling, &target, &component));
    ck_assert(view_unresolved(v, dangling));
    ck_assert(!view_unresolved(v, site));
    ck_assert(!view_unresolved(v, (doc_node)v->nmark));
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].rule, "mcpdesc.component-ref.dangling");
    ck_assert_str_eq(out.items[0].pointer, "/tools/1/inputSchema");
    ck_assert_uint_eq(out.items[0].versions, 0x04);
    diag_list_release(&out);
    res_free(r);
    doc_free(d);
}
END_TEST

static size_t count(const struct diag_list *l, const char *rule, const char *pointer,
                    const char *message)
{
    size_t n = 0;
    for (size_t i = 0; i < l->len; i++)
        n += !strcmp(l->items[i].rule, rule) && !strcmp(l->items[i].pointer, pointer) &&
            (!message || !strcmp(l->items[i].message, message));
    return n;
}

/* Each distinct $componentRef string is looked up once (ref_target_of), however many
 * sites spell it: every site still gets its own component, and every bad one its own
 * diagnostic. 400 tools over 40 components whose names have the same length (one hash table must
 * tell them apart by their bytes), and bad references each spelled by several tools. */
START_TEST(each_site_gets_its_own_component)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "{\"tools\": [\n");
    static const char *const bad[] = {"#/components/schemas/Nope", "#/tools/0", "#/c%zz",
                                      "#/components/schemas/"};
    for (int i = 0; i < 400; i++) {
        char ref[64];
        if (i % 50 < 4) snprintf(ref, sizeof ref, "%s", bad[i % 50]);
        else snprintf(ref, sizeof ref, "#/components/schemas/C%03d", (i * 7) % 40);
        buf_addf(&b, "%s{\"name\": \"t%d\", \"inputSchema\": {\"$componentRef\": \"%s\"}}",
                 i ? ",\n" : "", i, ref);
    }
    buf_adds(&b, "],\n\"components\": {\"schemas\": {");
    for (int k = 0; k < 40; k++)
        buf_addf(&b, "%s\"C%03d\": {\"const\": \"C%03d\"}", k ? ", " : "", k, k);
    buf_adds(&b, "}}}");
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, buf_str(&b), &out);
    size_t dangling = 0, invalid = 0;
    for (int i = 0; i < 400; i++) {
        char pointer[64], want[64];
        snprintf(pointer, sizeof pointer, "/tools/%d/inputSchema", i);
        if (i % 50 < 4) {
            size_t d = count(&out, "mcpdesc.component-ref.dangling", pointer, NULL),
                   v = count(&out, "mcpdesc.component-ref.invalid", pointer, NULL);
            ck_assert_msg(d + v == 1, "tool %d: %zu diagnostics of its reference", i, d + v);
            ck_assert_uint_eq(d, i % 50 == 0);
            dangling += d;
            invalid += v;
            continue;
        }
        snprintf(want, sizeof want, "{\"const\":\"C%03d\"}", (i * 7) % 40);
        ck_assert_msg(count(&out, "test.probe", pointer, want) == 1, "tool %d is not C%03d", i,
                      (i * 7) % 40);
    }
    ck_assert_uint_eq(dangling, 8);
    ck_assert_uint_eq(invalid, 24);
    diag_list_release(&out);
    buf_release(&b);
}
END_TEST

Suite *res_suite(void)
{
    Suite *s = suite_create("res");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, substitutes_chains_and_keeps_component_positions);
    tcase_add_test(tc, reports_bad_references_at_their_site);
    tcase_add_test(tc, effective_versions_narrow_and_report);
    tcase_add_test(tc, long_chains_and_cycles_are_bounded);
    tcase_add_test(tc, references_to_unresolved_references_are_not_judged);
    tcase_add_test(tc, nul_in_a_reference_is_invalid);
    tcase_add_test(tc, substitution_stays_within_the_nesting_bound);
    tcase_add_test(tc, substitution_stays_within_the_node_bound);
    tcase_add_test(tc, the_view_holds_versions_and_sites);
    tcase_add_test(tc, each_site_gets_its_own_component);
    suite_add_tcase(s, tc);
    return s;
}
