/* check_val.c - base/val.c, the JSON value semantics that the schema engine and the
 * rule interpreter share: equality (1 == 1.0, key order ignored, exact beyond 2^53),
 * exact number comparison across integers and reals, the integer test, type names,
 * and the code-point length of valid and invalid UTF-8 (the current behaviour pinned). */
#include <check.h>
#include <math.h>
#include <stdint.h>

#include "base/val.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

static int eq(const char *a, const char *b)
{
    json_t *x = J(a), *y = J(b);
    int r = val_equal(x, y), r2 = val_equal(y, x);
    ck_assert_int_eq(r, r2); /* symmetric */
    json_decref(x);
    json_decref(y);
    return r;
}

/* sign of val_num_cmp(A, B) for two numbers written as JSON */
static int cmp(const char *a, const char *b)
{
    json_t *x = J(a), *y = J(b);
    int r = val_num_cmp(x, y), r2 = val_num_cmp(y, x);
    json_decref(x);
    json_decref(y);
    r = (r > 0) - (r < 0);
    ck_assert_int_eq(r, -((r2 > 0) - (r2 < 0))); /* antisymmetric */
    return r;
}

START_TEST(equality)
{
    ck_assert(eq("1", "1.0"));
    ck_assert(eq("-2.0", "-2"));
    ck_assert(eq("0", "-0.0"));
    ck_assert(eq("0.0", "-0.0"));
    ck_assert(eq("1e2", "100"));
    ck_assert(!eq("1", "1.5"));
    ck_assert(!eq("false", "0"));
    ck_assert(!eq("null", "false"));
    ck_assert(!eq("true", "false"));
    ck_assert(eq("null", "null"));
    ck_assert(!eq("\"1\"", "1"));
    ck_assert(!eq("[true]", "[1]"));
    ck_assert(eq("[1, 2.0]", "[1.0, 2]"));
    ck_assert(!eq("[1, 2]", "[2, 1]")); /* arrays keep their order */
    ck_assert(!eq("[1]", "[1, 1]"));
    ck_assert(eq("{\"a\":1,\"b\":[1.0]}", "{\"b\":[1],\"a\":1.0}"));
    ck_assert(!eq("{\"a\":1}", "{\"a\":1,\"b\":2}"));
    ck_assert(!eq("{\"a\":1}", "{\"b\":1}"));
    ck_assert(eq("{}", "{}"));
    ck_assert(!eq("{}", "[]"));
    /* nested objects, key order ignored at every level */
    ck_assert(eq("{\"x\":{\"p\":[{\"k\":1,\"l\":null}],\"q\":\"s\"},\"y\":true}",
                 "{\"y\":true,\"x\":{\"q\":\"s\",\"p\":[{\"l\":null,\"k\":1.0}]}}"));
    ck_assert(!eq("{\"x\":{\"p\":[{\"k\":1,\"l\":null}],\"q\":\"s\"},\"y\":true}",
                  "{\"y\":true,\"x\":{\"q\":\"s\",\"p\":[{\"l\":false,\"k\":1}]}}"));
    /* big integers against reals: exact, not through a double */
    ck_assert(eq("9007199254740992", "9007199254740992.0"));
    ck_assert(!eq("9007199254740993", "9007199254740992.0"));
    ck_assert(!eq("9223372036854775807", "9223372036854775808.0")); /* INT64_MAX, 2^63 */
    ck_assert(eq("-9223372036854775808", "-9223372036854775808.0")); /* INT64_MIN */
    ck_assert(!eq("9223372036854775807", "1e300"));
    /* strings byte for byte, a NUL inside included */
    ck_assert(!eq("\"a\\u0000b\"", "\"a\\u0000c\""));
    ck_assert(eq("\"a\\u0000b\"", "\"a\\u0000b\""));
    ck_assert(!eq("\"a\"", "\"a\\u0000\""));
    ck_assert(eq("\"\\u00e9\"", "\"\xC3\xA9\""));
    json_t *v = J("{\"a\":[1]}");
    ck_assert(val_equal(v, v));
    json_decref(v);
}
END_TEST

START_TEST(nan_not_applicable)
{
    /* jansson holds no NaN or infinity: nothing to compare */
    ck_assert_ptr_null(json_real(NAN));
    ck_assert_ptr_null(json_real(INFINITY));
    ck_assert_ptr_null(json_real(-INFINITY));
    json_error_t err;
    ck_assert_ptr_null(json_loads("NaN", JSON_DECODE_ANY, &err));
    ck_assert_ptr_null(json_loads("1e400", JSON_DECODE_ANY, &err)); /* overflow refused */
}
END_TEST

START_TEST(number_comparison)
{
    ck_assert_int_eq(cmp("1", "2"), -1);
    ck_assert_int_eq(cmp("2", "2"), 0);
    ck_assert_int_eq(cmp("1.5", "2.5"), -1);
    ck_assert_int_eq(cmp("1", "1.5"), -1);
    ck_assert_int_eq(cmp("2", "1.5"), 1);
    ck_assert_int_eq(cmp("1", "1.0"), 0);
    ck_assert_int_eq(cmp("-2", "-1.5"), -1);
    ck_assert_int_eq(cmp("-1", "-1.5"), 1);
    ck_assert_int_eq(cmp("0", "-0.0"), 0);
    ck_assert_int_eq(cmp("0.0", "-0.0"), 0);
    ck_assert_int_eq(cmp("-1", "-0.5"), -1);
    /* beyond 2^53, where a double cannot hold every integer */
    ck_assert_int_eq(cmp("9007199254740993", "9007199254740992.0"), 1);
    ck_assert_int_eq(cmp("9007199254740991", "9007199254740992.0"), -1);
    ck_assert_int_eq(cmp("9007199254740993", "9007199254740994.0"), -1);
    /* at the ends of int64 */
    ck_assert_int_eq(cmp("9223372036854775807", "9223372036854775808.0"), -1);
    ck_assert_int_eq(cmp("9223372036854775807", "1e19"), -1);
    ck_assert_int_eq(cmp("-9223372036854775808", "-9223372036854775808.0"), 0);
    ck_assert_int_eq(cmp("-9223372036854775808", "-1e19"), 1);
    ck_assert_int_eq(cmp("-9223372036854775807", "-9223372036854775808.0"), 1);
    ck_assert_int_eq(cmp("9223372036854775807", "-9223372036854775808"), 1);
    ck_assert_int_eq(cmp("1e308", "-1e308"), 1);
}
END_TEST

START_TEST(integers)
{
    static const struct {
        const char *json;
        int integer;
    } cases[] = {
        {"7", 1},        {"-7", 1},       {"0", 1},        {"1.0", 1},     {"-0.0", 1},
        {"1e300", 1},    {"-1e300", 1},   {"1.5", 0},      {"-0.5", 0},    {"1e-300", 0},
        {"9007199254740993.0", 1}, /* read as the double 2^53 */
        {"\"1\"", 0},    {"null", 0},     {"true", 0},     {"[1]", 0},     {"{}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *v = J(cases[i].json);
        ck_assert_msg(val_is_integer(v) == cases[i].integer, "%s", cases[i].json);
        json_decref(v);
    }
}
END_TEST

START_TEST(type_names)
{
    /* JSON Schema's words, and YAML's, a rule file's messages (rule_json_type_name) */
    static const struct {
        const char *json, *name, *yaml;
    } cases[] = {
        {"{}", "object", "mapping"},    {"[]", "array", "list"},
        {"\"s\"", "string", "string"},  {"1", "integer", "integer"},
        {"1.0", "number", "number"},    {"1.5", "number", "number"},
        {"true", "boolean", "boolean"}, {"false", "boolean", "boolean"},
        {"null", "null", "null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *v = J(cases[i].json);
        ck_assert_str_eq(val_type_name(v), cases[i].name);
        ck_assert_str_eq(val_type_name_yaml(v), cases[i].yaml);
        json_decref(v);
    }
}
END_TEST

START_TEST(utf8_lengths)
{
    static const struct {
        const char *s;
        size_t n, len;
    } cases[] = {
        {"", 0, 0},
        {"abc", 3, 3},
        {"abc", 0, 0},
        {"a\0b", 3, 3},                  /* a NUL is one code point */
        {"\xC3\xA9", 2, 1},              /* U+00E9, 2 bytes */
        {"a\xC3\xA9", 3, 2},
        {"\xE2\x82\xAC", 3, 1},          /* U+20AC, 3 bytes */
        {"\xF0\x9F\x92\xA9", 4, 1},      /* U+1F4A9, 4 bytes */
        {"\xF0\x9F\x92\xA9\xF0\x9F\x92\xA9", 8, 2},
        {"\xF0\x9F\x92\xA9", 2, 1},      /* N cuts the sequence: its lead counts */
        /* invalid sequences, as the function counts them (lead bytes, not checked) */
        {"\x80", 1, 0},                  /* a stray continuation byte counts 0 */
        {"\x80\xBF\x80", 3, 0},
        {"a\x80" "b", 3, 2},
        {"\xC3", 1, 1},                  /* a truncated sequence counts 1 */
        {"\xE2\x82", 2, 1},
        {"\xC3" "A", 2, 2},              /* lead byte then ASCII: 2 */
        {"\xFF", 1, 1},                  /* never valid in UTF-8: counts 1 */
        {"\xFE\xFF", 2, 2},
        {"\xC0\xAF", 2, 1},              /* overlong '/' */
        {"\xED\xA0\x80", 3, 1},          /* an encoded surrogate (U+D800) */
        {"\xF8\x88\x80\x80\x80", 5, 1},  /* a 5-byte form */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(val_utf8_length(cases[i].s, cases[i].n) == cases[i].len,
                      "case %zu: %zu, expected %zu", i, val_utf8_length(cases[i].s, cases[i].n),
                      cases[i].len);
}
END_TEST

Suite *val_suite(void)
{
    Suite *s = suite_create("val");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, equality);
    tcase_add_test(tc, nan_not_applicable);
    tcase_add_test(tc, number_comparison);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, type_names);
    tcase_add_test(tc, utf8_lengths);
    suite_add_tcase(s, tc);
    return s;
}
