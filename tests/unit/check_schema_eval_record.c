/* check_schema_eval_record.c - the record form of a node's boolean program (struct
 * schema_fnode: built by schema_fast.c, run by schema_eval.c): the common keywords
 * checked by the instance's type in one pass, leaf records evaluated in place by the
 * member and item loops, string enums compared a word at a time, members looked up in
 * the order "properties" declares them first. Every case is validated in both modes
 * (boolean, and with an error list, keyword by keyword) against an expected answer; the
 * work and nesting charged are counted (never timed). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* Validate INST against SCH under LIM (NULL: the defaults) in both modes: both must give
 * WANT, and the error list must be empty exactly when the instance is valid. */
static void both_lim(const struct schema_limits *lim, const char *sch, const char *inst, int want)
{
    json_t *sj = J(sch), *ij = J(inst);
    schema_ctx *ctx = schema_ctx_new(lim);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_msg(c != NULL, "%s: does not compile", sch);
    int fast = schema_validate(c, ij, NULL);
    int full = schema_validate(c, ij, &errs);
    ck_assert_msg(fast == want, "%s against %s: boolean mode gave %d, expected %d", inst, sch, fast,
                  want);
    ck_assert_msg(full == want, "%s against %s: reporting mode gave %d, expected %d", inst, sch,
                  full, want);
    ck_assert_msg((errs.len == 0) == (want == 0), "%s against %s: %zu errors for %d", inst, sch,
                  errs.len, want);
    schema_errors_release(&errs);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sj);
    json_decref(ij);
}

static void both(const char *sch, const char *inst, int want)
{
    both_lim(NULL, sch, inst, want);
}

/* Does the root of SCH get a record, and is it a leaf? */
static void root_record(const char *sch, int want_record, int want_leaf)
{
    json_t *sj = J(sch);
    schema_ctx *ctx = schema_ctx_new(NULL);
    schema *c = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, NULL);
    ck_assert_msg(c != NULL, "%s: does not compile", sch);
    const struct schema_fnode *f = c->nodes.items[c->root]->fn;
    ck_assert_msg((f != NULL) == want_record, "%s: record %s", sch, f ? "built" : "not built");
    if (f) ck_assert_msg(f->leaf == want_leaf, "%s: leaf %d", sch, f->leaf);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sj);
}

START_TEST(records_for_the_common_shapes)
{
    root_record("{\"type\":\"string\",\"minLength\":1,\"maxLength\":9,\"pattern\":\"^a\"}", 1, 1);
    root_record("{\"enum\":[\"a\",\"b\"]}", 1, 1);
    root_record("{\"const\":\"a\"}", 1, 1);
    root_record("{\"type\":\"integer\",\"minimum\":1,\"exclusiveMaximum\":9}", 1, 1);
    root_record("{\"type\":\"object\",\"properties\":{\"a\":true,\"b\":{\"type\":\"null\"}},"
                "\"required\":[\"a\"],\"additionalProperties\":false}",
                1, 0);
    root_record("{\"type\":\"array\",\"maxItems\":3,\"items\":{\"type\":\"string\"}}", 1, 0);
    root_record("{\"$ref\":\"#/$defs/a\",\"type\":\"object\",\"$defs\":{\"a\":{}}}", 1, 0);
    /* keywords the record does not hold keep the keyword-by-keyword program */
    root_record("{\"type\":\"string\",\"anyOf\":[{\"minLength\":1}]}", 0, 0);
    root_record("{\"enum\":[1,\"a\"]}", 0, 0);
    root_record("{\"type\":\"number\",\"multipleOf\":2}", 0, 0);
    root_record("{\"type\":\"array\",\"uniqueItems\":true}", 0, 0);
    root_record("{\"properties\":{\"a\":true},\"patternProperties\":{\"^b\":false}}", 0, 0);
    root_record("{\"properties\":{\"a\":true},\"unevaluatedProperties\":false}", 0, 0);
}
END_TEST

START_TEST(types_and_numbers)
{
    both("{\"type\":\"integer\"}", "1", 0);
    both("{\"type\":\"integer\"}", "1.0", 0); /* a real with an integer value */
    both("{\"type\":\"integer\"}", "1.5", 1);
    both("{\"type\":\"number\"}", "1.5", 0);
    both("{\"type\":\"number\"}", "\"1\"", 1);
    both("{\"type\":[\"string\",\"null\"]}", "null", 0);
    both("{\"type\":[\"string\",\"null\"]}", "false", 1);
    both("{\"type\":\"boolean\"}", "false", 0);
    both("{\"type\":\"boolean\"}", "0", 1);
    both("{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}", "10", 0);
    both("{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}", "11", 1);
    both("{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}", "0", 1);
    both("{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}", "10.0", 0);
    both("{\"exclusiveMinimum\":1,\"exclusiveMaximum\":2}", "1", 1);
    both("{\"exclusiveMinimum\":1,\"exclusiveMaximum\":2}", "1.5", 0);
    both("{\"exclusiveMinimum\":1,\"exclusiveMaximum\":2}", "2", 1);
    both("{\"maximum\":1.5}", "1", 0); /* a real limit */
    both("{\"maximum\":1.5}", "2", 1);
    both("{\"minimum\":-9223372036854775808}", "-9223372036854775808", 0);
    /* integer limits as one closed range, its ends included or not */
    both("{\"exclusiveMinimum\":1,\"maximum\":3}", "1", 1);
    both("{\"exclusiveMinimum\":1,\"maximum\":3}", "2", 0);
    both("{\"exclusiveMinimum\":1,\"maximum\":3}", "3", 0);
    both("{\"exclusiveMinimum\":1,\"maximum\":3}", "4", 1);
    both("{\"exclusiveMaximum\":-9223372036854775808}", "-9223372036854775808", 1);
    both("{\"exclusiveMinimum\":9223372036854775807}", "9223372036854775807", 1);
    both("{\"minimum\":1,\"maximum\":1.5}", "1", 0); /* one limit not an integer */
    both("{\"minimum\":1,\"maximum\":1.5}", "2", 1);
    both("{\"maximum\":0}", "\"a\"", 0); /* bounds hold for numbers only */
    both("{\"type\":\"integer\",\"minimum\":1}", "\"a\"", 1);
}
END_TEST

START_TEST(strings)
{
    /* equal lengths, one byte apart, at every position a word compares */
    const char *enum_sch = "{\"enum\":[\"\",\"a\",\"ab\",\"abc\",\"abcd\",\"abcde\",\"abcdefgh\","
                           "\"abcdefghi\",\"x\\u0000y\"]}";
    const char *in[] = {"\"\"",      "\"a\"",        "\"ab\"",        "\"abc\"",      "\"abcd\"",
                        "\"abcde\"", "\"abcdefgh\"", "\"abcdefghi\"", "\"x\\u0000y\""};
    const char *out[] = {
        "\"b\"",    "\"ac\"",    "\"abd\"",      "\"acc\"",      "\"bbc\"",       "\"abce\"",
        "\"abdd\"", "\"abcdf\"", "\"abcdefgi\"", "\"abcdefhh\"", "\"abcdefghj\"", "\"x\\u0000z\"",
        "\"x\"",    "1",         "null",         "[\"a\"]"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) both(enum_sch, in[i], 0);
    for (size_t i = 0; i < sizeof out / sizeof *out; i++) both(enum_sch, out[i], 1);
    both("{\"const\":\"ab\"}", "\"ab\"", 0);
    both("{\"const\":\"ab\"}", "\"ba\"", 1);
    both("{\"type\":\"integer\",\"enum\":[\"1\"]}", "\"1\"", 1);
    /* lengths count code points: "é" is 2 bytes, 1 character */
    both("{\"maxLength\":2}", "\"\\u00e9\\u00e9\"", 0);
    both("{\"maxLength\":2}", "\"\\u00e9\\u00e9\\u00e9\"", 1);
    both("{\"minLength\":2}", "\"\\u00e9\"", 1);
    both("{\"minLength\":2}", "\"\\u00e9a\"", 0);
    both("{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^/[a-z]+$\"}", "\"/abc\"", 0);
    both("{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^/[a-z]+$\"}", "\"/ab1\"", 1);
    both("{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^/[a-z]+$\"}", "\"\"", 1);
    both("{\"pattern\":\"^a\"}", "12", 0);
}
END_TEST

START_TEST(objects_and_arrays)
{
    const char *sch = "{\"type\":\"object\",\"properties\":{\"ab\":{\"type\":\"string\"},"
                      "\"ba\":{\"type\":\"integer\"},\"cd\":{\"enum\":[\"x\"]}},"
                      "\"required\":[\"ab\"],\"additionalProperties\":false}";
    both(sch, "{\"ab\":\"s\",\"ba\":1,\"cd\":\"x\"}", 0); /* the declared order */
    both(sch, "{\"cd\":\"x\",\"ba\":1,\"ab\":\"s\"}", 0); /* another order */
    both(sch, "{\"ba\":\"s\",\"ab\":1}", 1);              /* same lengths, the values swapped */
    both(sch, "{\"ab\":\"s\",\"bb\":1}", 1); /* not declared, the length expected next */
    both(sch, "{\"ba\":1}", 1);              /* required */
    both(sch, "{\"ab\":\"s\",\"cd\":\"y\"}", 1);
    both("{\"properties\":{\"a\":{\"type\":\"string\"}},\"additionalProperties\":{\"type\":"
         "\"integer\"}}",
         "{\"a\":\"s\",\"b\":1}", 0);
    both("{\"properties\":{\"a\":{\"type\":\"string\"}},\"additionalProperties\":{\"type\":"
         "\"integer\"}}",
         "{\"b\":1,\"a\":\"s\",\"c\":\"t\"}", 1);
    /* a member whose record is not a leaf is evaluated in full */
    both("{\"properties\":{\"o\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":"
         "\"integer\"}}},\"l\":{\"items\":{\"type\":\"string\"}},\"r\":{\"$ref\":\"#/$defs/s\"}},"
         "\"$defs\":{\"s\":{\"type\":\"string\"}}}",
         "{\"o\":{\"x\":1},\"l\":[\"a\"],\"r\":\"b\"}", 0);
    both("{\"properties\":{\"o\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":"
         "\"integer\"}}}}}",
         "{\"o\":{\"x\":\"s\"}}", 1);
    both("{\"properties\":{\"l\":{\"items\":{\"type\":\"string\"}}}}", "{\"l\":[1]}", 1);
    both("{\"properties\":{\"r\":{\"$ref\":\"#/$defs/s\"}},\"$defs\":{\"s\":{\"type\":"
         "\"string\"}}}",
         "{\"r\":1}", 1);
    both("{\"minProperties\":1,\"maxProperties\":2}", "{}", 1);
    both("{\"minProperties\":1,\"maxProperties\":2}", "{\"a\":1,\"b\":2}", 0);
    both("{\"minProperties\":1,\"maxProperties\":2}", "{\"a\":1,\"b\":2,\"c\":3}", 1);
    both("{\"type\":\"array\",\"minItems\":1,\"maxItems\":2,\"items\":{\"enum\":[\"a\"]}}",
         "[\"a\",\"a\"]", 0);
    both("{\"type\":\"array\",\"minItems\":1,\"maxItems\":2,\"items\":{\"enum\":[\"a\"]}}",
         "[\"a\",\"b\"]", 1);
    both("{\"type\":\"array\",\"minItems\":1,\"maxItems\":2,\"items\":{\"enum\":[\"a\"]}}", "[]",
         1);
    both("{\"type\":\"array\",\"minItems\":1,\"maxItems\":2,\"items\":{\"enum\":[\"a\"]}}",
         "[\"a\",\"a\",\"a\"]", 1);
    both("{\"$ref\":\"#/$defs/o\",\"required\":[\"b\"],\"$defs\":{\"o\":{\"required\":[\"a\"]}}}",
         "{\"a\":1,\"b\":2}", 0);
    both("{\"$ref\":\"#/$defs/o\",\"required\":[\"b\"],\"$defs\":{\"o\":{\"required\":[\"a\"]}}}",
         "{\"b\":2}", 1);

    /* more required names than the fused op's mask holds: checked one by one */
    char big[4096] = "{\"required\":[", inst_ok[4096] = "{", *p;
    for (int i = 0; i < 70; i++) {
        p = big + strlen(big);
        snprintf(p, sizeof big - (size_t)(p - big), "%s\"k%d\"", i ? "," : "", i);
        p = inst_ok + strlen(inst_ok);
        snprintf(p, sizeof inst_ok - (size_t)(p - inst_ok), "%s\"k%d\":%d", i ? "," : "", i, i);
    }
    strcat(big, "],\"properties\":{\"k0\":{\"type\":\"integer\"}},\"maxProperties\":70}");
    strcat(inst_ok, "}");
    both(big, inst_ok, 0);
    both(big, "{\"k0\":0}", 1);
}
END_TEST

/* The work and the nesting a validation charges are those of the program walked
 * keyword by keyword: a node evaluated in place still costs one unit and one level. */
START_TEST(leaves_in_place_charge_the_same)
{
    /* root 1 + "a" 1 + its pattern 1 + "b" 1 = 4 units; leaves one level below it */
    const char *sch = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
                      "\"pattern\":\"^x\"},\"b\":{\"enum\":[\"p\",\"q\"]}}}";
    const char *inst = "{\"a\":\"x\",\"b\":\"q\"}";
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_work = 4;
    both_lim(&lim, sch, inst, 0);
    lim.max_work = 3;
    both_lim(&lim, sch, inst, -1);
    schema_limits_default(&lim);
    lim.max_eval_depth = 2;
    both_lim(&lim, sch, inst, 0);
    lim.max_eval_depth = 1;
    both_lim(&lim, sch, inst, -1);
    /* items: the array 1 + three items = 4 */
    schema_limits_default(&lim);
    lim.max_work = 4;
    both_lim(&lim, "{\"items\":{\"type\":\"integer\"}}", "[1,2,3]", 0);
    lim.max_work = 3;
    both_lim(&lim, "{\"items\":{\"type\":\"integer\"}}", "[1,2,3]", -1);
    /* an item that is only a $ref: the array 1 + two items of (the $ref 1 + its target 1)
     * = 5 units; the targets three levels down */
    const char *refs = "{\"items\":{\"$ref\":\"#/$defs/i\"},\"$defs\":{\"i\":{\"type\":"
                       "\"integer\"}}}";
    schema_limits_default(&lim);
    lim.max_work = 5;
    both_lim(&lim, refs, "[1,2]", 0);
    lim.max_work = 4;
    both_lim(&lim, refs, "[1,2]", -1);
    schema_limits_default(&lim);
    lim.max_eval_depth = 3;
    both_lim(&lim, refs, "[1,2]", 0);
    lim.max_eval_depth = 2;
    both_lim(&lim, refs, "[1,2]", -1);
    both(refs, "[1,\"2\"]", 1);
}
END_TEST

START_TEST(short_key_matches_memcmp)
{
    char a[9], b[9];
    for (size_t n = 0; n <= 8; n++) {
        for (size_t i = 0; i < n; i++) a[i] = b[i] = (char)('a' + i);
        ck_assert(schema_short_key(a, n) == schema_short_key(b, n));
        for (size_t pos = 0; pos < n; pos++) {
            b[pos] ^= 1;
            ck_assert_msg(schema_short_key(a, n) != schema_short_key(b, n), "n=%zu pos=%zu", n,
                          pos);
            b[pos] ^= 1;
        }
    }
}
END_TEST

Suite *schema_eval_record_suite(void)
{
    Suite *s = suite_create("schema_eval_record");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, records_for_the_common_shapes);
    tcase_add_test(tc, types_and_numbers);
    tcase_add_test(tc, strings);
    tcase_add_test(tc, objects_and_arrays);
    tcase_add_test(tc, leaves_in_place_charge_the_same);
    tcase_add_test(tc, short_key_matches_memcmp);
    suite_add_tcase(s, tc);
    return s;
}
