/* check_res.c - effective versions and $componentRef resolution, through the whole
 * pipeline with a rule set that reports every tool inputSchema that is not an object. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "eval.h"
#include "testutil.h"
#include "util.h"

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

static void teardown(void) { rule_set_free(rs); }

static const struct diag *find(const struct diag_list *l, const char *rule, const char *pointer)
{
    for (size_t i = 0; i < l->len; i++)
        if (!strcmp(l->items[i].rule, rule) && !strcmp(l->items[i].pointer, pointer)) return &l->items[i];
    return NULL;
}

START_TEST(substitutes_chains_and_keeps_component_positions)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"t\", \"inputSchema\": {\"$componentRef\": \"#/components/schemas/A\"}}],\n"
            " \"components\": {\"schemas\": {\n"
            "  \"A\": {\"$componentRef\": \"#/components/schemas/B%20C\"},\n"
            "  \"B C\": {\"type\": \"object\", \"x\": {\"$componentRef\": \"#/components/schemas/D~1E\"}},\n"
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
            "  {\"name\": \"a\", \"inputSchema\": {\"$componentRef\": \"#/components/schemas/Nope\"}},\n"
            "  {\"name\": \"b\", \"inputSchema\": {\"$componentRef\": \"#/components/schemas/S\", \"type\": \"object\"}},\n"
            "  {\"name\": \"c\", \"inputSchema\": {\"$componentRef\": 3}},\n"
            "  {\"name\": \"d\", \"inputSchema\": {\"$componentRef\": \"#/tools/0\"}},\n"
            "  {\"name\": \"e\", \"protocolVersions\": [\"2026-07-28\"], \"inputSchema\": {\"$componentRef\": \"#/components/schemas/Loop\"}}],\n"
            " \"components\": {\"schemas\": {\"S\": {\"type\": \"object\"},\n"
            "   \"Loop\": {\"type\": \"object\", \"properties\": {\"next\": {\"$componentRef\": \"#/components/schemas/Loop\"}}}}}}",
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
            " \"tools\": [{\"name\": \"a\", \"protocolVersions\": [\"2025-11-25\", \"2026-07-28\"], \"inputSchema\": {}},\n"
            "            {\"name\": \"b\", \"inputSchema\": {}}]}",
            &out);
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.protocol-versions.unknown", "/protocolVersions/2"));
    ck_assert_ptr_nonnull(find(&out, "mcpdesc.protocol-versions.not-in-document", "/tools/0/protocolVersions/1"));
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
        buf_adds(&b, "{\"tools\": [{\"inputSchema\": {\"$componentRef\": \"#/components/schemas/c0\"}}], "
                     "\"components\": {\"schemas\": {");
        for (int i = 0; i < n; i++)
            buf_addf(&b, "\"c%d\": {\"$componentRef\": \"#/components/schemas/c%d\"}, ", i,
                     i + 1 < n ? i + 1 : (cyclic ? 0 : n));
        buf_addf(&b, "\"c%d\": {\"type\": \"object\"}}}}", n);
        struct diag_list out = DIAG_LIST_INIT;
        tu_eval(rs, buf_str(&b), &out);
        if (cyclic) {
            ck_assert_uint_eq(diag_count(&out, DIAG_ERROR), (size_t)n);
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
    suite_add_tcase(s, tc);
    return s;
}
