/* check_load_schema.c - a deferred matches-schema file is not looked at when the rules
 * compile (rules/fn_schema.c): one that is missing when a record of its set exists is
 * still reported as a load without records reports it (same messages, files and places),
 * whether the file or its whole directory is gone; and a schema file's value found by the
 * sha256 the load took (rules/rule_cache.c, rule_cache_load_json) judges as its bytes do. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "rules/ruleInt.h"
#include "testutil.h"

static struct tu_cache cache; /* the harness runs every suite in one process */

static void setup(void)
{
    tu_cache_begin(&cache, "load-schema");
}

static void teardown(void)
{
    tu_cache_end(&cache);
}

static const char RULES[] =
    "rules:\n" TU_POINT_RULE
    "  - id: t.name\n    owner: t\n    surface: Tool\n    kind: structural\n"
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
    "    check:\n      select: /n\n      require: {matches-schema: schemas/name.json}\n"
    "      message: 'not a name: {detail}'\n";

/* The point set of testutil with a second rule's schema, name.json. */
static char *schema_set(void)
{
    char *dir = tu_point_schema_set(RULES);
    char *sdir = xasprintf("%s/schemas", dir);
    tu_write_file(sdir, "name.json", "{\"type\": \"string\", \"maxLength\": 3}");
    free(sdir);
    return dir;
}

START_TEST(missing_schema_reported_as_before)
{
    char *dir = schema_set();
    struct diag_list errs = DIAG_LIST_INIT;
    rule_set_free(tu_load_cached(dir, 1, &errs)); /* recorded: the next load defers every schema */
    rule_set_free(tu_load_cached(dir, 1, &errs));
    ck_assert_uint_eq(errs.len, 0);
    char *name = xasprintf("%s/schemas/name.json", dir);
    ck_assert_int_eq(unlink(name), 0);
    tu_same_failure(dir, "there is no such file");
    char *point = xasprintf("%s/schemas/point.json", dir),
         *num = xasprintf("%s/schemas/num.json", dir), *sdir = xasprintf("%s/schemas", dir);
    ck_assert_int_eq(unlink(point), 0);
    ck_assert_int_eq(unlink(num), 0);
    ck_assert_int_eq(rmdir(sdir), 0);
    tu_same_failure(dir, "schema directory");
    free(name);
    free(point);
    free(num);
    free(sdir);
    tu_rmdir(dir);
}
END_TEST

/* The diagnostics of RS on JSON, their messages one per line (new; "" for none). */
static char *verdict(const struct rule_set *rs, const char *json)
{
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, json, &out);
    char *all = xstrdup("");
    for (size_t i = 0; i < out.len; i++) {
        char *more = xasprintf("%s%s\n", all, out.items[i].message);
        free(all);
        all = more;
    }
    diag_list_release(&out);
    return all;
}

/* Loaded without records, then with them (recorded), then by the record (every value by
 * the sha256 the load took): each file's schema judges as its own bytes do. */
START_TEST(kept_values_judge_as_the_files)
{
    static const char *const docs[] = {
        "{\"p\": {\"x\": 1}, \"n\": \"abc\"}", "{\"p\": {\"x\": \"1\"}, \"n\": \"abc\"}",
        "{\"p\": {\"x\": 1}, \"n\": \"abcd\"}", "{\"p\": {\"y\": 1}, \"n\": 7}"};
    char *dir = schema_set();
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *eager = tu_load_cached(dir, 0, &errs), *first = tu_load_cached(dir, 1, &errs),
                    *later = tu_load_cached(dir, 1, &errs), *again = tu_load_cached(dir, 1, &errs);
    ck_assert_uint_eq(errs.len, 0);
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        char *want = verdict(eager, docs[i]);
        ck_assert_msg(i == 0 ? !*want : *want != 0, "doc %zu: %s", i, want); /* fails but 0 */
        struct rule_set *sets[] = {first, later, again};
        for (size_t k = 0; k < 3; k++) {
            char *got = verdict(sets[k], docs[i]);
            ck_assert_msg(!strcmp(want, got), "doc %zu, load %zu: %s, expected %s", i, k, got,
                          want);
            free(got);
        }
        free(want);
    }
    rule_set_free(eager);
    rule_set_free(first);
    rule_set_free(later);
    rule_set_free(again);
    tu_rmdir(dir);
}
END_TEST

Suite *load_schema_suite(void)
{
    Suite *s = suite_create("load_schema");
    TCase *tc = tcase_create("deferred");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, missing_schema_reported_as_before);
    tcase_add_test(tc, kept_values_judge_as_the_files);
    suite_add_tcase(s, tc);
    return s;
}
