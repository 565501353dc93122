/* check_yaml_core.c - the YAML reader's scalars against the YAML 1.2.2 core schema's tag
 * resolution table (https://yaml.org/spec/1.2.2/#1032-tag-resolution): one test per row
 * (per regular expression) of the table, each with texts the row matches and near misses
 * that fall through to a later row; then quoted and tagged scalars, and the values JSON
 * cannot hold (an integer beyond 64 bits, a float beyond a double, .inf, .nan), which are
 * refused at the scalar as the JSON reader refuses a too big integer. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "doc/doc.h"

/* The value of "v: TEXT" (a new reference), or NULL when it does not load. */
static json_t *scalar(const char *text)
{
    char buf[256];
    snprintf(buf, sizeof buf, "v: %s\n", text);
    struct doc_error err;
    doc *d = doc_load_buffer("t.yaml", buf, strlen(buf), 1, NULL, &err);
    ck_assert_msg(d != NULL, "v: %s did not load: %s", text, d ? "" : err.message);
    json_t *v = json_incref(json_object_get(doc_root(d), "v"));
    doc_free(d);
    return v;
}

static void is_null(const char *text)
{
    json_t *v = scalar(text);
    ck_assert_msg(json_is_null(v), "%s is not null", text);
    json_decref(v);
}

static void is_bool(const char *text, int want)
{
    json_t *v = scalar(text);
    ck_assert_msg(json_is_boolean(v) && json_is_true(v) == want, "%s is not %s", text,
                  want ? "true" : "false");
    json_decref(v);
}

static void is_int(const char *text, json_int_t want)
{
    json_t *v = scalar(text);
    ck_assert_msg(json_is_integer(v) && json_integer_value(v) == want, "%s is not the integer %lld",
                  text, (long long)want);
    json_decref(v);
}

static void is_real(const char *text, double want)
{
    json_t *v = scalar(text);
    ck_assert_msg(json_is_real(v) && json_real_value(v) == want, "%s is not the real %g", text,
                  want);
    json_decref(v);
}

/* TEXT is the string WANT (TEXT itself when WANT is NULL). */
static void is_str(const char *text, const char *want)
{
    json_t *v = scalar(text);
    if (!want) want = text;
    ck_assert_msg(json_is_string(v) && !strcmp(json_string_value(v), want),
                  "%s is not the string \"%s\"", text, want);
    json_decref(v);
}

/* "v: TEXT" is refused at line 1, column 4 (the scalar) with PART in the message. */
static void is_refused(const char *text, const char *part)
{
    char buf[256];
    snprintf(buf, sizeof buf, "v: %s\n", text);
    struct doc_error err;
    doc *d = doc_load_buffer("t.yaml", buf, strlen(buf), 1, NULL, &err);
    ck_assert_msg(d == NULL, "v: %s loaded", text);
    ck_assert_msg(err.line == 1 && err.col == 4 && strstr(err.message, part),
                  "v: %s: %u:%u %s, expected 1:4 and \"%s\"", text, err.line, err.col, err.message,
                  part);
    doc_error_release(&err);
}

/* null | Null | NULL | ~  ->  tag:yaml.org,2002:null */
START_TEST(row_null_words)
{
    is_null("null");
    is_null("Null");
    is_null("NULL");
    is_null("~");
    is_str("nULL", NULL);
    is_str("nil", NULL);
    is_str("None", NULL);
}
END_TEST

/* (empty)  ->  tag:yaml.org,2002:null */
START_TEST(row_null_empty)
{
    is_null("");
    is_null("# a comment, no value");
}
END_TEST

/* true | True | TRUE | false | False | FALSE  ->  tag:yaml.org,2002:bool */
START_TEST(row_bool)
{
    is_bool("true", 1);
    is_bool("True", 1);
    is_bool("TRUE", 1);
    is_bool("false", 0);
    is_bool("False", 0);
    is_bool("FALSE", 0);
    is_str("tRUE", NULL);
    is_str("yes", NULL); /* YAML 1.1's booleans are strings in 1.2 */
    is_str("on", NULL);
    is_str("n", NULL);
}
END_TEST

/* [-+]? [0-9]+  ->  tag:yaml.org,2002:int (base 10) */
START_TEST(row_int_decimal)
{
    is_int("0", 0);
    is_int("120", 120);
    is_int("-19", -19);
    is_int("+12", 12);
    is_int("0123", 123); /* base 10: no YAML 1.1 octal */
    is_int("-0", 0);
    is_int("9223372036854775807", INT64_MAX);
    is_int("-9223372036854775808", INT64_MIN);
    is_str("1_000", NULL); /* YAML 1.1 digit groups are text */
    is_str("+-1", NULL);
    is_str("12abc", NULL);
    is_str("0b101", NULL); /* no binary in the core schema */
}
END_TEST

/* 0o [0-7]+  ->  tag:yaml.org,2002:int (base 8) */
START_TEST(row_int_octal)
{
    is_int("0o170", 120);
    is_int("0o7", 7);
    is_int("0o0", 0);
    is_int("0o0000170", 120);
    is_int("0o777777777777777777777", INT64_MAX);
    is_str("0o", NULL);
    is_str("0o8", NULL);
    is_str("0o17x", NULL);
    is_str("0O17", NULL);  /* the o is lower case */
    is_str("-0o17", NULL); /* no sign */
    is_str("+0o17", NULL);
    is_str("00o17", NULL);
}
END_TEST

/* 0x [0-9a-fA-F]+  ->  tag:yaml.org,2002:int (base 16) */
START_TEST(row_int_hex)
{
    is_int("0x78", 120);
    is_int("0xC", 12);
    is_int("0xff", 255);
    is_int("0xFF", 255);
    is_int("0xaBcD", 0xabcd);
    is_int("0x0", 0);
    is_int("0x00000000000000000001", 1); /* leading zeros are no overflow */
    is_int("0x7FFFFFFFFFFFFFFF", INT64_MAX);
    is_str("0x", NULL);
    is_str("0X10", NULL); /* the x is lower case */
    is_str("0xg", NULL);
    is_str("-0x10", NULL); /* no sign */
    is_str("+0x10", NULL);
    is_str("0x1p3", NULL); /* no C hex floats */
}
END_TEST

/* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
 *  ->  tag:yaml.org,2002:float (number) */
START_TEST(row_float_number)
{
    is_real("1.5", 1.5);
    is_real("-1.5", -1.5);
    is_real("+1.5", 1.5);
    is_real(".5", 0.5);
    is_real("+.5", 0.5);
    is_real("-.5", -0.5);
    is_real("1.", 1.0);
    is_real("0.", 0.0);
    is_real("1e3", 1000.0); /* [0-9]+ with an exponent: a float, not an int */
    is_real("1E-3", 0.001);
    is_real("+12e+03", 12000.0);
    is_real("2.5e1", 25.0);
    is_real(".5e1", 5.0);
    is_real("1.e2", 100.0);
    is_str(".", NULL);
    is_str("-.", NULL);
    is_str("1e", NULL);
    is_str("1e+", NULL);
    is_str("e3", NULL);
    is_str("1.5.5", NULL);
    is_str("1,5", NULL);
    is_str("1.5e3.0", NULL);
    is_str("1d3", NULL);
    is_str("infinity", NULL);
    is_str("NaN", NULL);
    is_str("2025-11-25", NULL); /* a date is text: no timestamps in the core schema */
    is_str("1.0.0", NULL);
}
END_TEST

/* [-+]? ( \.inf | \.Inf | \.INF )  ->  tag:yaml.org,2002:float (infinity): JSON has no
 * infinity (RFC 8259, section 6), so the reader refuses it as it refuses 1e999. */
START_TEST(row_float_infinity)
{
    is_refused(".inf", "no JSON value");
    is_refused(".Inf", "quote it");
    is_refused(".INF", "RFC 8259");
    is_refused("+.inf", "no JSON value");
    is_refused("-.inf", "no JSON value");
    is_refused("-.INF", "no JSON value");
    is_str(".iNf", NULL);
    is_str("inf", NULL);
    is_str("..inf", NULL);
    is_str(".infinity", NULL);
}
END_TEST

/* \.nan | \.NaN | \.NAN  ->  tag:yaml.org,2002:float (not a number): refused too. */
START_TEST(row_float_nan)
{
    is_refused(".nan", "no JSON value");
    is_refused(".NaN", "no JSON value");
    is_refused(".NAN", "no JSON value");
    is_str(".Nan", NULL);
    is_str("-.nan", NULL); /* no sign */
    is_str("+.NaN", NULL);
    is_str("nan", NULL);
}
END_TEST

/* *  ->  tag:yaml.org,2002:str (default) */
START_TEST(row_default_string)
{
    is_str("hello", NULL);
    is_str("0x78 bytes", NULL);
    is_str("~x", NULL);
    is_str("true love", NULL);
}
END_TEST

/* Only plain scalars are resolved: quoted and block scalars are strings, and so are
 * scalars tagged !!str or ! (the non-specific tag). */
START_TEST(quoted_and_str_tagged_scalars_stay_strings)
{
    is_str("'0x78'", "0x78");
    is_str("\"0o170\"", "0o170");
    is_str("'120'", "120");
    is_str("\"1.5\"", "1.5");
    is_str("'.inf'", ".inf");
    is_str("\".nan\"", ".nan");
    is_str("'null'", "null");
    is_str("''", "");
    is_str("\"true\"", "true");
    is_str("|\n  0x78", "0x78\n");
    is_str(">-\n  0o170", "0o170");
    is_str("!!str 0x78", "0x78");
    is_str("!!str .inf", ".inf");
    is_str("! 0o170", "0o170");
    is_str("! ~", "~");
}
END_TEST

/* An explicit !!null, !!bool, !!int or !!float takes the core schema's forms of that tag
 * (on any style of scalar) and refuses other text; !!float makes an integer's text a real. */
START_TEST(core_tags_take_their_forms)
{
    is_int("!!int 0x78", 120);
    is_int("!!int \"0o170\"", 120);
    is_int("!!int '12'", 12);
    is_real("!!float 1", 1.0);
    is_real("!!float '2.5'", 2.5);
    is_null("!!null ''");
    is_null("!!null ~");
    is_bool("!!bool 'true'", 1);
    is_refused("!!int abc", "not a form of its tag !!int");
    is_refused("!!int 1.5", "!!int");
    is_refused("!!bool yes", "!!bool");
    is_refused("!!null nil", "!!null");
    is_refused("!!float 0x10", "!!float");
    is_refused("!!float .inf", "no JSON value");
}
END_TEST

/* Out of range: as JSON (jansson's "too big integer"), an integer beyond the 64-bit
 * signed range and a real beyond a double are refused at the scalar, never wrapped,
 * rounded or kept as text; the hex and octal forms are non-negative, so 2^63 and above
 * do not fit. */
START_TEST(out_of_range_is_refused)
{
    is_refused("0x8000000000000000", "integer 0x8000000000000000 does not fit in 64 bits");
    is_refused("0xFFFFFFFFFFFFFFFF", "does not fit in 64 bits");
    is_refused("0x10000000000000000", "does not fit in 64 bits");
    is_refused("0x123456789abcdef0123456789abcdef0123456789abcdef",
               "integer 0x123456789abcdef0123456789abcdef0123456...");
    is_refused("0o1000000000000000000000", "does not fit in 64 bits");
    is_refused("0o7777777777777777777777", "does not fit in 64 bits");
    is_refused("9223372036854775808", "does not fit in 64 bits");
    is_refused("-9223372036854775809", "does not fit in 64 bits");
    is_refused("1e999", "number 1e999 does not fit in a double");
    is_refused("-1.5e400", "does not fit in a double");
    is_refused("!!int 0x8000000000000000", "does not fit in 64 bits");
    is_real("1e-999", 0.0); /* underflow rounds, as jansson does */
    is_str("'0x8000000000000000'", "0x8000000000000000");
}
END_TEST

Suite *yaml_core_suite(void)
{
    Suite *s = suite_create("yaml_core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, row_null_words);
    tcase_add_test(tc, row_null_empty);
    tcase_add_test(tc, row_bool);
    tcase_add_test(tc, row_int_decimal);
    tcase_add_test(tc, row_int_octal);
    tcase_add_test(tc, row_int_hex);
    tcase_add_test(tc, row_float_number);
    tcase_add_test(tc, row_float_infinity);
    tcase_add_test(tc, row_float_nan);
    tcase_add_test(tc, row_default_string);
    tcase_add_test(tc, quoted_and_str_tagged_scalars_stay_strings);
    tcase_add_test(tc, core_tags_take_their_forms);
    tcase_add_test(tc, out_of_range_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
