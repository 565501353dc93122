/* check_schema_eval_shared.c - a value held at two places of an instance (one json_t
 * under two parents) is judged once in the boolean run and its verdict reused where
 * the bounds could not have stopped it (schema_eval.c's memo): the verdict, and the
 * smallest max_eval_depth and max_work that do not stop the validation, must be those
 * of the same instance with two copies. The nesting the member loop's leaves reach is
 * noted once per object: this holds it to what a walk reaches. Counts, never times. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"
#include "testutil.h"

/* schema; the shared value; where it goes ("%s" twice in the instance's text) */
static const char *const cases[][3] = {
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}}}},"
     "\"properties\":{\"a\":{\"$ref\":\"#/$defs/o\"},\"b\":{\"properties\":{\"c\":{\"$ref\":\"#/"
     "$defs/o\"}}}}}",
     "{\"k\":\"v\"}", "{\"a\":%s,\"b\":{\"c\":%s}}"},
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}}}},"
     "\"properties\":{\"a\":{\"$ref\":\"#/$defs/o\"},\"b\":{\"properties\":{\"c\":{\"$ref\":\"#/"
     "$defs/o\"}}}}}",
     "{\"k\":1}", "{\"b\":{\"c\":%s},\"a\":%s}"},
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"enum\":[\"v\",\"w\"]},"
     "\"m\":{\"properties\":{\"n\":{\"type\":\"integer\"}}}},\"additionalProperties\":false}},"
     "\"type\":\"array\",\"items\":{\"properties\":{\"x\":{\"$ref\":\"#/$defs/"
     "o\"},\"y\":{\"items\":"
     "{\"$ref\":\"#/$defs/o\"}}}}}",
     "{\"k\":\"w\",\"m\":{\"n\":2}}", "[{\"x\":%s},{\"y\":[{},%s]}]"},
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"enum\":[\"v\",\"w\"]},"
     "\"m\":{\"properties\":{\"n\":{\"type\":\"integer\"}}}},\"additionalProperties\":false}},"
     "\"type\":\"array\",\"items\":{\"properties\":{\"x\":{\"$ref\":\"#/$defs/"
     "o\"},\"y\":{\"items\":"
     "{\"$ref\":\"#/$defs/o\"}}}}}",
     "{\"k\":\"w\",\"m\":{\"n\":2}}", "[{\"y\":[%s]},{\"x\":%s}]"},
};

/* per case: evaluations on the shared value at max_eval_depth one below the least
 * that does not stop the validation, at it, and one above */
static const unsigned long want_evals[][3] = {
    {4, 4, 3}, /* taken from the library at c1a2dbb */
    {2, 2, 2},
    {4, 4, 3},
    {2, 3, 3},
};

/* The instance of case I, its value shared (one json_t at both places) or copied. */
static json_t *instance(size_t i, int shared)
{
    char text[512];
    snprintf(text, sizeof text, cases[i][2], "0", "1");
    json_t *j = json_loads(text, 0, NULL), *v = json_loads(cases[i][1], 0, NULL);
    ck_assert(j && v);
    /* put V where the placeholders 0 and 1 are */
    json_t *stack[16] = {j};
    size_t n = 1, put = 0;
    while (n) {
        json_t *x = stack[--n], *m;
        const char *key;
        size_t k;
        if (json_is_object(x)) {
            json_object_foreach(x, key, m)
            {
                if (json_is_integer(m)) {
                    json_object_set_new(x, key, shared ? json_incref(v) : json_deep_copy(v));
                    put++;
                } else if (n < 16) {
                    stack[n++] = m;
                }
            }
        } else if (json_is_array(x)) {
            json_array_foreach(x, k, m)
            {
                if (json_is_integer(m)) {
                    json_array_set_new(x, k, shared ? json_incref(v) : json_deep_copy(v));
                    put++;
                } else if (n < 16) {
                    stack[n++] = m;
                }
            }
        }
    }
    ck_assert_uint_eq(put, 2);
    ck_assert_uint_eq(v->refcount, shared ? 3 : 1);
    json_decref(v);
    return j;
}

static uint32_t least_depth(const char *sch, json_t *inst)
{
    uint32_t lo = 0, hi = 1000;
    while (lo < hi) {
        uint32_t m = (lo + hi) / 2;
        if (tu_schema_run(sch, inst, 50000000u, m, 0) < 0) lo = m + 1;
        else hi = m;
    }
    return lo;
}

static uint64_t least_work(const char *sch, json_t *inst)
{
    uint64_t lo = 0, hi = 1000;
    while (lo < hi) {
        uint64_t m = (lo + hi) / 2;
        if (tu_schema_run(sch, inst, m, 1000u, 0) < 0) lo = m + 1;
        else hi = m;
    }
    return lo;
}

START_TEST(shared_needs_what_copies_need)
{
    for (int api = 0; api < 2; api++) {
        schema_jansson_force_api(api);
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            json_t *sh = instance(i, 1), *cp = instance(i, 0);
            int r = tu_schema_run(cases[i][0], cp, 50000000u, 1000u, 0);
            ck_assert_int_ge(r, 0);
            ck_assert_msg(tu_schema_run(cases[i][0], sh, 50000000u, 1000u, 0) == r,
                          "case %zu: verdict", i);
            uint32_t d = least_depth(cases[i][0], cp);
            ck_assert_msg(least_depth(cases[i][0], sh) == d,
                          "case %zu: shared needs max_eval_depth %u, copies %u", i,
                          least_depth(cases[i][0], sh), d);
            /* every depth about it: the same outcome; the shared value evaluated as many
             * times as the library did before the leaves' nesting was noted once per
             * object (PRINT_FIGURES prints them) */
            for (uint32_t m = d - 1; m <= d + 1; m++) {
                unsigned long before = schema_eval_shared_evals;
                int got = tu_schema_run(cases[i][0], sh, 50000000u, m, 0);
                unsigned long evals = schema_eval_shared_evals - before;
                ck_assert_msg(got == tu_schema_run(cases[i][0], cp, 50000000u, m, 0),
                              "case %zu, max_eval_depth %u: shared and copies differ", i, m);
#ifdef PRINT_FIGURES
                fprintf(stderr, "case %zu depth %u (least %u): %lu shared evaluations\n", i, m, d,
                        evals);
#else
                ck_assert_msg(evals == want_evals[i][m - (d - 1)],
                              "case %zu, max_eval_depth %u: %lu shared evaluations, expected %lu",
                              i, m, evals, want_evals[i][m - (d - 1)]);
#endif
            }
            ck_assert_msg(least_work(cases[i][0], sh) == least_work(cases[i][0], cp),
                          "case %zu: max_work", i);
            json_decref(sh);
            json_decref(cp);
        }
    }
    schema_jansson_force_api(0);
}
END_TEST

Suite *schema_eval_shared_suite(void)
{
    Suite *s = suite_create("schema_eval_shared");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, shared_needs_what_copies_need);
    suite_add_tcase(s, tc);
    return s;
}
