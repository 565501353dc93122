/* check_suppress.c - suppressions (findings/suppress.h): dates (real ones only, SOURCE_DATE_EPOCH
 * read as UTC, until inclusive), inline x-mcpdesc-ignore (hides the item's findings of the
 * rule only; no reason, an unknown rule and an unused entry are findings), and the config's
 * entries (by item identity, by pointer prefix; unused only among judged files). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "findings/suppress.h"
#include "testutil.h"

#define RULES                                                                                      \
    "rules:\n  - id: t.desc\n    owner: t\n    surface: Tool\n    kind: structural\n"              \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/*', require: {has: description}, message: 'no description'}\n"

static struct rule_set *rules(void)
{
    return tu_rules_ok(RULES);
}

static void judged(const struct rule_set *rs, const char *text, struct judge_result *out)
{
    struct judge_source src = {JUDGE_BUFFER, "t.json", NULL, text, strlen(text)};
    judge_document(rs, &src, NULL, out);
    ck_assert_ptr_nonnull(out->d);
}

static const struct diag *find(const struct diag_list *l, const char *rule, size_t nth)
{
    for (size_t i = 0; i < l->len; i++)
        if (l->items[i].rule && !strcmp(l->items[i].rule, rule) && nth-- == 0) return &l->items[i];
    return NULL;
}

START_TEST(test_dates)
{
    ck_assert(suppress_date_ok("2027-06-30"));
    ck_assert(suppress_date_ok("2024-02-29"));
    ck_assert(!suppress_date_ok("2023-02-29"));
    ck_assert(!suppress_date_ok("2100-02-29"));
    ck_assert(suppress_date_ok("2000-02-29"));
    ck_assert(!suppress_date_ok("2027-6-30"));
    ck_assert(!suppress_date_ok("2027-06-31"));
    ck_assert(!suppress_date_ok("2027-13-01"));
    ck_assert(!suppress_date_ok("2027-06-30T00"));
    ck_assert(!suppress_date_ok("+027-06-30"));
    /* until is the last day on which the suppression holds */
    ck_assert(!suppress_expired("2026-01-01", "2026-01-01"));
    ck_assert(suppress_expired("2025-12-31", "2026-01-01"));
    ck_assert(!suppress_expired(NULL, "2026-01-01"));
    char today[11];
    setenv("SOURCE_DATE_EPOCH", "1767225599", 1); /* 2025-12-31T23:59:59Z */
    ck_assert_int_eq(suppress_today(today), 0);
    ck_assert_str_eq(today, "2025-12-31");
    setenv("SOURCE_DATE_EPOCH", "1767225600", 1);
    ck_assert_int_eq(suppress_today(today), 0);
    ck_assert_str_eq(today, "2026-01-01");
    setenv("SOURCE_DATE_EPOCH", "-5", 1);
    ck_assert_int_eq(suppress_today(today), -1);
    setenv("SOURCE_DATE_EPOCH", "12x", 1);
    ck_assert_int_eq(suppress_today(today), -1);
    unsetenv("SOURCE_DATE_EPOCH");
    ck_assert_int_eq(suppress_today(today), 0);
    ck_assert(suppress_date_ok(today));
}
END_TEST

START_TEST(test_inline)
{
    struct rule_set *rs = rules();
    struct judge_result r = {0};
    judged(rs,
           "{\"tools\": [{\"name\": \"a\", \"x-mcpdesc-ignore\": {\"rule\": \"t.desc\", "
           "\"reason\": \"ok\", \"until\": \"2027-01-01\"}},\n"
           " {\"name\": \"b\"},\n"
           " {\"name\": \"c\", \"description\": \"d\", \"x-mcpdesc-ignore\": [{\"rule\": "
           "\"t.desc\", \"reason\": \"unused\"}, {\"rule\": \"t.dsc\", \"reason\": \"r\"}, "
           "{\"rule\": \"t.desc\"}]}]}",
           &r);
    ck_assert_uint_eq(r.diags.len, 2);
    suppress_inline(rs, r.d, "t.json", &r.diags, "2026-01-01", NULL);
    const struct diag *a = find(&r.diags, "t.desc", 0), *b = find(&r.diags, "t.desc", 1);
    ck_assert_str_eq(a->pointer, "/tools/0");
    ck_assert_str_eq(a->suppressed, "ok");
    ck_assert_str_eq(a->suppressed_until, "2027-01-01");
    ck_assert_int_eq(a->suppress_kind, DIAG_SUPPRESS_INLINE);
    ck_assert_str_eq(b->pointer, "/tools/1"); /* another item: not hidden */
    ck_assert_ptr_null(b->suppressed);
    const struct diag *u = find(&r.diags, "mcpdesc.suppression.unused", 0);
    ck_assert_ptr_nonnull(u);
    ck_assert_str_eq(u->pointer, "/tools/2/x-mcpdesc-ignore/0");
    ck_assert_int_eq(u->level, DIAG_WARNING);
    const struct diag *i1 = find(&r.diags, "mcpdesc.suppression.invalid", 0);
    const struct diag *i2 = find(&r.diags, "mcpdesc.suppression.invalid", 1);
    ck_assert_ptr_nonnull(i1);
    ck_assert_ptr_nonnull(i2);
    ck_assert_str_eq(i1->pointer, "/tools/2/x-mcpdesc-ignore/1/rule");
    ck_assert_ptr_nonnull(strstr(i1->message, "did you mean 't.desc'"));
    ck_assert_str_eq(i2->pointer, "/tools/2/x-mcpdesc-ignore/2");
    ck_assert_ptr_nonnull(strstr(i2->message, "needs reason"));
    ck_assert_uint_gt(i1->line, 0);
    /* expired: hides nothing, and says so */
    judge_result_release(&r);
    memset(&r, 0, sizeof r);
    judged(rs,
           "{\"tools\": [{\"name\": \"a\", \"x-mcpdesc-ignore\": {\"rule\": \"t.desc\", "
           "\"reason\": \"ok\", \"until\": \"2025-01-01\"}}]}",
           &r);
    suppress_inline(rs, r.d, "t.json", &r.diags, "2026-01-01", NULL);
    ck_assert_ptr_null(find(&r.diags, "t.desc", 0)->suppressed);
    ck_assert_ptr_nonnull(find(&r.diags, "mcpdesc.suppression.expired", 0));
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

START_TEST(test_config)
{
    struct rule_set *rs = rules();
    static const char cfg_text[] = "suppress:\n"
                                   "  - {file: t.json, rule: t.desc, item: b, reason: by item}\n"
                                   "  - {file: t.json, rule: 't.*', pointer: /tools/2, reason: p}\n"
                                   "  - {file: t.json, rule: t.desc, item: zz, reason: unused}\n"
                                   "  - {file: other.json, rule: t.desc, reason: not judged}\n"
                                   "  - {rule: t.desc, reason: expired, until: 2025-12-31}\n";
    struct diag_list errs = DIAG_LIST_INIT;
    struct config *c = config_load_buffer("cfg.yaml", cfg_text, strlen(cfg_text), &errs);
    ck_assert_msg(c != NULL, "%s", errs.len ? errs.items[0].message : "?");
    ck_assert_uint_eq(config_check(c, rs, &errs), 0);
    struct judge_result r = {0};
    judged(rs, "{\"tools\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}]}", &r);
    ck_assert_uint_eq(r.diags.len, 3);
    struct suppress_run *s = suppress_run_new(c, "2026-01-01");
    suppress_run_apply(s, rs, "t.json", r.d, &r.diags);
    ck_assert_ptr_null(r.diags.items[0].suppressed);
    ck_assert_str_eq(r.diags.items[1].suppressed, "by item");
    ck_assert_int_eq(r.diags.items[1].suppress_kind, DIAG_SUPPRESS_CONFIG);
    ck_assert_str_eq(r.diags.items[2].suppressed, "p");
    struct diag_list out = DIAG_LIST_INIT;
    suppress_run_finish(s, rs, NULL, &out);
    ck_assert_uint_eq(out.len, 2);
    ck_assert_str_eq(out.items[0].rule, "mcpdesc.suppression.unused");
    ck_assert_str_eq(out.items[0].file, "cfg.yaml");
    ck_assert_uint_eq(out.items[0].line, 4);
    ck_assert_str_eq(out.items[1].rule, "mcpdesc.suppression.expired");
    ck_assert_uint_eq(out.items[1].line, 6);
    diag_list_release(&out);
    suppress_run_free(s);
    judge_result_release(&r);
    config_free(c);
    diag_list_release(&errs);
    rule_set_free(rs);
}
END_TEST

Suite *suppress_suite(void)
{
    Suite *s = suite_create("suppress");
    TCase *tc = tcase_create("suppress");
    tcase_add_test(tc, test_dates);
    tcase_add_test(tc, test_inline);
    tcase_add_test(tc, test_config);
    suite_add_tcase(s, tc);
    return s;
}
