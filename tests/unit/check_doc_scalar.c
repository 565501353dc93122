/* check_doc_scalar.c - unit tests for positions inside a string (doc_scalar_range): a
 * byte offset of a decoded JSON string or YAML scalar, values and member names, mapped
 * back to the source line:col (report-at: match). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"

static doc *load(const char *text, int yaml)
{
    struct doc_error err = {0};
    doc *d = doc_load_buffer("t", text, strlen(text), yaml, NULL, &err);
    ck_assert_msg(d != NULL, "load: %s", err.message ? err.message : "?");
    return d;
}

/* The node at POINTER, its value's (or with KEY its member name's) source start. */
static uint32_t start_of(const doc *d, const char *pointer, int key)
{
    doc_node n = doc_pointer_node(d, pointer);
    ck_assert_uint_ne(n, DOC_NONE);
    struct doc_span v, k;
    ck_assert_int_ge(doc_node_span(d, n, &v, &k), 0);
    return key ? k.start : v.start;
}

/* Where NEEDLE (its first occurrence in VALUE) lies in the source, as "L:C-L:C". */
static char *where(const doc *d, uint32_t start, const char *value, const char *needle)
{
    const char *hit = strstr(value, needle);
    ck_assert_ptr_nonnull(hit);
    struct doc_pos at, end;
    if (doc_scalar_range(d, start, value, strlen(value), (size_t)(hit - value), strlen(needle), &at,
                         &end) < 0)
        return strdup("none");
    char *s;
    ck_assert_int_ge(asprintf(&s, "%u:%u-%u:%u", at.line, at.col, end.line, end.col), 0);
    return s;
}

/* The string at POINTER of the loaded tree (no escapes in the pointers used here). */
static json_t *value_at(const doc *d, const char *pointer)
{
    json_t *v = doc_root(d);
    char *p = strdup(pointer), *save = NULL;
    for (char *seg = strtok_r(p, "/", &save); seg && v; seg = strtok_r(NULL, "/", &save))
        v = json_is_array(v) ? json_array_get(v, strtoul(seg, NULL, 10)) : json_object_get(v, seg);
    free(p);
    ck_assert_msg(json_is_string(v), "no string at %s", pointer);
    return v;
}

/* NEEDLE's place in the string at POINTER (a value), as where() writes it. */
#define CHECK_AT(d, ptr, needle, expect)                                                           \
    do {                                                                                           \
        char *got_ = where(d, start_of(d, ptr, 0), json_string_value(value_at(d, ptr)), needle);   \
        ck_assert_str_eq(got_, expect);                                                            \
        free(got_);                                                                                \
    } while (0)

START_TEST(json_escapes_count_as_their_source)
{
    /* columns count code points: é is one, the escape \u202e six */
    const char *text = "{\"a\": \"é\\\"x\\n \\u00e9\\ud83d\\ude00\\u202eRLO\"}";
    doc *d = load(text, 0);
    CHECK_AT(d, "/a", "\xe2\x80\xae", "1:33-1:39");     /* the escape: 6 source characters */
    CHECK_AT(d, "/a", "RLO", "1:39-1:42");              /* after it */
    CHECK_AT(d, "/a", "\xf0\x9f\x98\x80", "1:21-1:33"); /* a surrogate pair: 12 */
    CHECK_AT(d, "/a", "x", "1:11-1:12");                /* after é and \" */
    doc_free(d);
}
END_TEST

START_TEST(json_raw_characters)
{
    const char *text = "{\n  \"k\": \"ファイル \xe2\x80\xae"
                       "exe\"\n}";
    doc *d = load(text, 0);
    CHECK_AT(d, "/k", "\xe2\x80\xae", "2:14-2:15");
    CHECK_AT(d, "/k", "exe", "2:15-2:18");
    doc_free(d);
}
END_TEST

START_TEST(json_member_names)
{
    const char *text = "{\"outer\": {\"pa\\u200bth\": 1, \"x\": \"y\"}}";
    doc *d = load(text, 0);
    /* the key's own text (decoded) is the value to map */
    uint32_t start = start_of(d, "/outer/pa\xe2\x80\x8bth", 1);
    char *got = where(d, start, "pa\xe2\x80\x8bth", "\xe2\x80\x8b");
    ck_assert_str_eq(got, "1:15-1:21");
    free(got);
    doc_free(d);
}
END_TEST

START_TEST(yaml_block_scalars)
{
    const char *text = "t:\n"
                       "  lit: |\n"
                       "    one\n"
                       "      two (more indented)\n"
                       "\n"
                       "    three HERE\n"
                       "  fold: >-\n"
                       "    alpha\n"
                       "    beta\n"
                       "\n"
                       "    gamma HERE\n"
                       "  ind: |2\n"
                       "      kept spaces HERE\n";
    doc *d = load(text, 1);
    CHECK_AT(d, "/t/lit", "HERE", "6:11-6:15");
    CHECK_AT(d, "/t/lit", "two", "4:7-4:10");
    CHECK_AT(d, "/t/fold", "beta", "9:5-9:9");
    CHECK_AT(d, "/t/fold", "HERE", "11:11-11:15");
    CHECK_AT(d, "/t/ind", "HERE", "13:19-13:23");
    doc_free(d);
}
END_TEST

START_TEST(yaml_flow_scalars)
{
    const char *text = "a: \"x\\t\\u00e9 \\U0001F600 \\\"q\\\" HERE\"\n"
                       "b: 'it''s HERE'\n"
                       "c: plain runs\n"
                       "  over   lines HERE\n"
                       "d: \"folded\n"
                       "\n"
                       "  then \\\n"
                       "  joined HERE\"\n"
                       "e: &anchor !!str tagged HERE\n";
    doc *d = load(text, 1);
    CHECK_AT(d, "/a", "HERE", "1:32-1:36");
    CHECK_AT(d, "/a", "\xf0\x9f\x98\x80", "1:15-1:25"); /* \U0001F600: ten characters */
    CHECK_AT(d, "/b", "HERE", "2:11-2:15");
    CHECK_AT(d, "/c", "HERE", "4:16-4:20");
    CHECK_AT(d, "/c", "over   lines", "4:3-4:15");
    CHECK_AT(d, "/d", "joined", "8:3-8:9");
    CHECK_AT(d, "/e", "HERE", "9:25-9:29");
    doc_free(d);
}
END_TEST

START_TEST(yaml_member_names)
{
    const char *text = "outer:\n  \"na\\u200Bme\": 1\n  plain\xe2\x80\x8bkey: 2\n";
    doc *d = load(text, 1);
    char *got =
        where(d, start_of(d, "/outer/na\xe2\x80\x8bme", 1), "na\xe2\x80\x8bme", "\xe2\x80\x8b");
    ck_assert_str_eq(got, "2:6-2:12");
    free(got);
    got = where(d, start_of(d, "/outer/plain\xe2\x80\x8bkey", 1), "plain\xe2\x80\x8bkey",
                "\xe2\x80\x8b");
    ck_assert_str_eq(got, "3:8-3:9");
    free(got);
    doc_free(d);
}
END_TEST

START_TEST(a_value_the_source_does_not_give_is_refused)
{
    doc *d = load("{\"a\": \"abc\", \"n\": 12}", 0);
    struct doc_pos at, end;
    uint32_t start = start_of(d, "/a", 0);
    /* the resolver's string, not the source's: no position */
    ck_assert_int_eq(doc_scalar_range(d, start, "abd", 3, 1, 1, &at, &end), -1);
    ck_assert_int_eq(doc_scalar_range(d, start, "abcd", 4, 1, 1, &at, &end), -1);
    /* a range outside the value; a number's source */
    ck_assert_int_eq(doc_scalar_range(d, start, "abc", 3, 2, 2, &at, &end), -1);
    ck_assert_int_eq(doc_scalar_range(d, start_of(d, "/n", 0), "12", 2, 0, 1, &at, &end), -1);
    ck_assert_int_eq(doc_scalar_range(d, start, "abc", 3, 1, 1, &at, &end), 0);
    ck_assert_uint_eq(at.col, 9);
    doc_free(d);
}
END_TEST

START_TEST(offsets_count_code_points_after_a_bom)
{
    doc *d = load("\xef\xbb\xbf{\"é\": \"x\"}", 0);
    struct doc_pos p = doc_offset_pos(d, 3);
    ck_assert_uint_eq(p.line, 1);
    ck_assert_uint_eq(p.col, 1);
    p = doc_offset_pos(d, 3 + 8); /* x, after {"é": " (seven characters, é two bytes) */
    ck_assert_uint_eq(p.col, 8);
    doc_free(d);
}
END_TEST

Suite *doc_scalar_suite(void)
{
    Suite *s = suite_create("doc_scalar");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, json_escapes_count_as_their_source);
    tcase_add_test(tc, json_raw_characters);
    tcase_add_test(tc, json_member_names);
    tcase_add_test(tc, yaml_block_scalars);
    tcase_add_test(tc, yaml_flow_scalars);
    tcase_add_test(tc, yaml_member_names);
    tcase_add_test(tc, a_value_the_source_does_not_give_is_refused);
    tcase_add_test(tc, offsets_count_code_points_after_a_bom);
    suite_add_tcase(s, tc);
    return s;
}
