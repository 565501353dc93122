/* check_schema_eval_inplace.c - the member loop's in-place paths (schema_eval.c): a
 * member or item whose record is not a leaf evaluated one level down without
 * eval_fast, a $ref member or item going straight to its target's record, the nesting
 * and no_leaf checked once per object for leaf members, required names by a bit of
 * their own, the declared-order guess ending at a sentinel. Each must charge what
 * eval_fast charges: for every case, the verdict (boolean and reporting modes), the
 * smallest max_work and max_eval_depth that do not stop it, and the evaluations counted
 * on shared values are those the engine gave before these paths (the figures below were
 * taken from the library at e32ee0b). Counts, never times. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"
#include "testutil.h"

/* schema, instance ("SHARED": an object holding one object twice and one string twice,
 * built in shared_instance) */
static const char *const cases[][2] = {
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{"
     "\"type\":\"integer\"}}}}}",
     "{\"a\":{\"b\":1}}"},
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{"
     "\"type\":\"integer\"}}}}}",
     "{\"a\":{\"b\":\"x\"}}"},
    {"{\"$defs\":{\"f\":{\"type\":\"object\",\"required\":[\"x\"],\"properties\":{\"x\":{\"enum\":["
     "\"p\",\"q\"]}}}},\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/f\"}}",
     "[{\"x\":\"p\"},{\"x\":\"q\"}]"},
    {"{\"$defs\":{\"f\":{\"type\":\"object\",\"required\":[\"x\"],\"properties\":{\"x\":{\"enum\":["
     "\"p\",\"q\"]}}}},\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/f\"}}",
     "[{\"x\":\"p\"},{\"y\":1}]"},
    {"{\"properties\":{\"\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}},\"required\":[\"\","
     "\"c\"]}",
     "{\"\":\"s\",\"b\":1,\"c\":null}"},
    {"{\"properties\":{\"\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}},\"required\":[\"\","
     "\"c\"]}",
     "{\"b\":1,\"c\":2}"},
    {"{\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"},\"c\":{\"type\":"
     "\"boolean\"}},\"additionalProperties\":false}",
     "{\"c\":true,\"a\":1,\"b\":\"x\"}"},
    {"{\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"},\"c\":{\"type\":"
     "\"boolean\"}},\"additionalProperties\":false}",
     "{\"a\":1,\"b\":\"x\",\"d\":0}"},
    {"{\"required\":[\"a\"],\"additionalProperties\":{\"type\":\"object\",\"properties\":{\"z\":{"
     "\"type\":\"null\"}}}}",
     "{\"a\":{\"z\":null},\"b\":{}}"},
    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/"
     "b\"},\"b\":{\"type\":\"object\",\"properties\":{\"n\":{\"minimum\":3}}}},\"properties\":{"
     "\"p\":{\"$ref\":\"#/$defs/a\"}}}",
     "{\"p\":{\"n\":4}}"},
    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/"
     "b\"},\"b\":{\"type\":\"object\",\"properties\":{\"n\":{\"minimum\":3}}}},\"properties\":{"
     "\"p\":{\"$ref\":\"#/$defs/a\"}}}",
     "{\"p\":{\"n\":1}}"},
    {"{\"$defs\":{\"t\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/t\"}}},\"$ref\":\"#/"
     "$defs/t\"}",
     "[[[[[[]]]]],[[]]]"},
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}}}},"
     "\"properties\":{\"a\":{\"$ref\":\"#/$defs/o\"},\"b\":{\"$ref\":\"#/$defs/"
     "o\"},\"s\":{\"type\":\"string\"},\"t\":{\"maxLength\":2}}}",
     "SHARED"},
    {"{\"$defs\":{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"integer\"}}}},"
     "\"properties\":{\"a\":{\"$ref\":\"#/$defs/o\"},\"b\":{\"$ref\":\"#/$defs/"
     "o\"},\"s\":{\"type\":\"string\"},\"t\":{\"maxLength\":2}}}",
     "SHARED"},
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{"
     "\"type\":\"object\",\"properties\":{\"c\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
     "\"properties\":{\"d\":{\"pattern\":\"^[a-z]+$\"}}}}}}}}}}",
     "{\"a\":{\"b\":{\"c\":[{\"d\":\"x\"},{\"d\":\"yz\"}]}}}"},
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{"
     "\"type\":\"object\",\"properties\":{\"c\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
     "\"properties\":{\"d\":{\"pattern\":\"^[a-z]+$\"}}}}}}}}}}",
     "{\"a\":{\"b\":{\"c\":[{\"d\":\"x\"},{\"d\":\"Y\"}]}}}"},
};

/* per case: verdict (0 valid, 1 invalid), smallest max_work, smallest max_eval_depth,
 * evaluations on shared values */
static const unsigned long want[][4] = {
    {0, 3, 3, 0},   /* 0 */
    {1, 3, 3, 0},   /* 1 */
    {0, 7, 4, 0},   /* 2 */
    {1, 6, 4, 0},   /* 3 */
    {0, 3, 2, 0},   /* 4 */
    {1, 2, 2, 0},   /* 5 */
    {0, 4, 2, 1},   /* 6 */
    {1, 3, 2, 0},   /* 7 */
    {0, 4, 3, 1},   /* 8 */
    {0, 5, 5, 0},   /* 9 */
    {1, 5, 5, 0},   /* 10 */
    {0, 16, 12, 0}, /* 11 */
    {0, 9, 4, 5},   /* 12 */
    {1, 4, 4, 2},   /* 13 */
    {0, 10, 6, 0},  /* 14 */
    {1, 10, 6, 0},  /* 15 */
};

static json_t *shared_instance(void)
{
    json_t *o = json_object(), *sh = json_pack("{s:s}", "k", "v"), *str = json_string("ab");
    json_object_set(o, "a", sh);
    json_object_set(o, "b", sh);
    json_object_set(o, "s", str);
    json_object_set(o, "t", str);
    json_decref(sh);
    json_decref(str);
    return o;
}

static json_t *instance(const char *text)
{
    if (!strcmp(text, "SHARED")) return shared_instance();
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

START_TEST(charges_as_before)
{
    ck_assert_int_eq(sizeof cases / sizeof *cases, sizeof want / sizeof *want);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *inst = instance(cases[i][1]);
        unsigned long before = schema_eval_shared_evals;
        int r = tu_schema_run(cases[i][0], inst, 50000000u, 1000u, 0);
        unsigned long shared = schema_eval_shared_evals - before;
        ck_assert_msg(r == (int)want[i][0], "case %zu: verdict %d, expected %lu", i, r, want[i][0]);
        ck_assert_msg(tu_schema_run(cases[i][0], inst, 50000000u, 1000u, 1) == r,
                      "case %zu: modes differ", i);
        uint64_t lo = 0, hi = 1000; /* the smallest budget that does not stop it */
        while (lo < hi) {
            uint64_t m = (lo + hi) / 2;
            if (tu_schema_run(cases[i][0], inst, m, 1000u, 0) < 0) lo = m + 1;
            else hi = m;
        }
        uint32_t dlo = 0, dhi = 1000;
        while (dlo < dhi) {
            uint32_t m = (dlo + dhi) / 2;
            if (tu_schema_run(cases[i][0], inst, 50000000u, m, 0) < 0) dlo = m + 1;
            else dhi = m;
        }
        ck_assert_msg(lo == want[i][1], "case %zu: max_work %lu needed, expected %lu", i,
                      (unsigned long)lo, want[i][1]);
        ck_assert_msg(dlo == want[i][2], "case %zu: max_eval_depth %u needed, expected %lu", i, dlo,
                      want[i][2]);
        ck_assert_msg(shared == want[i][3], "case %zu: %lu shared evaluations, expected %lu", i,
                      shared, want[i][3]);
        /* one short of either bound stops it, in both modes */
        if (lo > 0) {
            ck_assert_int_eq(tu_schema_run(cases[i][0], inst, lo - 1, 1000u, 0), -1);
            ck_assert_int_eq(tu_schema_run(cases[i][0], inst, lo - 1, 1000u, 1), -1);
        }
        if (dlo > 0) ck_assert_int_eq(tu_schema_run(cases[i][0], inst, 50000000u, dlo - 1, 0), -1);
        json_decref(inst);
    }
}
END_TEST

Suite *schema_eval_inplace_suite(void)
{
    Suite *s = suite_create("schema_eval_inplace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, charges_as_before);
    suite_add_tcase(s, tc);
    return s;
}
