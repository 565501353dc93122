/* check_cores_res.c - the resolver looks each distinct $componentRef string up once
 * (res.c: ref_target_of), however many sites spell it: every site still gets its own
 * component, and every bad one its own diagnostic, as when each was looked up alone. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "judge/eval.h"
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

static size_t count(const struct diag_list *l, const char *rule, const char *pointer,
                    const char *message)
{
    size_t n = 0;
    for (size_t i = 0; i < l->len; i++)
        n += !strcmp(l->items[i].rule, rule) && !strcmp(l->items[i].pointer, pointer) &&
            (!message || !strcmp(l->items[i].message, message));
    return n;
}

/* 400 tools over 40 components whose names have the same length (one hash table must
 * tell them apart by their bytes), and bad references each spelled by several tools. */
START_TEST(each_site_gets_its_own_component)
{
    struct rule_set *rs = tu_rules_ok(probe);
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
    rule_set_free(rs);
}
END_TEST

Suite *cores_res_suite(void)
{
    Suite *s = suite_create("cores_res");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, each_site_gets_its_own_component);
    suite_add_tcase(s, tc);
    return s;
}
