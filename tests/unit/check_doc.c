/* check_doc.c - the document model: positions for JSON and YAML, errors, limits. */
#include <check.h>
#include <string.h>

#include "doc.h"

static doc *load(const char *text, int yaml, struct doc_error *err)
{
    return doc_load_buffer("t", text, strlen(text), yaml, NULL, err);
}

static void assert_pos(doc *d, const char *ptr, uint32_t line, uint32_t col)
{
    struct doc_pos p;
    ck_assert_msg(doc_pointer_pos(d, ptr, &p, NULL) == 0, "no value at %s", ptr);
    ck_assert_msg(p.line == line && p.col == col, "%s at %u:%u, expected %u:%u", ptr, p.line,
                  p.col, line, col);
}

START_TEST(json_positions)
{
    struct doc_error err;
    const char *text = "{\n  \"a\": [1, {\"b\": true}],\n  \"c~/\": \"x\",\n  \"d\": null\n}\n";
    doc *d = load(text, 0, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "", 1, 1);
    assert_pos(d, "/a", 2, 8);
    assert_pos(d, "/a/0", 2, 9);
    assert_pos(d, "/a/1", 2, 12);
    assert_pos(d, "/a/1/b", 2, 18);
    assert_pos(d, "/c~0~1", 3, 10);
    assert_pos(d, "/d", 4, 8);
    struct doc_pos k;
    ck_assert_int_eq(doc_pointer_pos(d, "/d", NULL, &k), 0);
    ck_assert_uint_eq(k.line, 4);
    ck_assert_uint_eq(k.col, 3);
    ck_assert_int_eq(doc_pointer_pos(d, "/a/2", NULL, NULL), -1);
    ck_assert_int_eq(doc_pointer_pos(d, "/a/01", NULL, NULL), -1);
    ck_assert_int_eq(doc_pointer_pos(d, "/nope", NULL, NULL), -1);
    size_t len;
    const char *line = doc_line(d, 3, &len);
    ck_assert_int_eq((int)len, 13);
    ck_assert_int_eq(strncmp(line, "  \"c~/\": \"x\",", len), 0);
    doc_free(d);
}
END_TEST

/* Columns count characters, not bytes; strings with escapes and CRLF do not shift them. */
START_TEST(json_columns_are_characters)
{
    struct doc_error err;
    doc *d = load("{\"\xc3\xa9t\xc3\xa9\": \"a\\\"\xe2\x82\xac\", \"x\": 1}\r\n", 0, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "/\xc3\xa9t\xc3\xa9", 1, 9);
    assert_pos(d, "/x", 1, 22);
    doc_free(d);
    d = load("{\r\n\"a\":\r\n  2}", 0, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "/a", 3, 3);
    doc_free(d);
}
END_TEST

START_TEST(json_errors_are_positioned)
{
    struct doc_error err;
    ck_assert_ptr_null(load("{\n  \"a\": 1,\n  \"a\": 2\n}", 0, &err));
    ck_assert_uint_eq(err.line, 3);
    ck_assert_ptr_nonnull(strstr(err.message, "duplicate"));
    doc_error_release(&err);
    ck_assert_ptr_null(load("{\"a\": [1, 2}", 0, &err));
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_eq(err.col, 12);
    doc_error_release(&err);
    ck_assert_ptr_null(load("", 0, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "invalid JSON"));
    doc_error_release(&err);
}
END_TEST

START_TEST(depth_and_size_limits)
{
    struct doc_error err;
    char deep[2100];
    memset(deep, '[', 1000);
    memset(deep + 1000, ']', 1000);
    deep[2000] = '\0';
    ck_assert_ptr_null(load(deep, 0, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "nesting deeper than 512"));
    doc_error_release(&err);
    struct doc_limits lim = {10, 0};
    ck_assert_ptr_null(doc_load_buffer("t", "[1,2,3,4,5,6]", 13, 0, &lim, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "over the limit"));
    doc_error_release(&err);
}
END_TEST

START_TEST(yaml_positions_and_types)
{
    struct doc_error err;
    const char *text = "name: x\nversions: [2025-11-25, 3, 1.5, true, null, '7']\nnested:\n  - a: b\n";
    doc *d = load(text, 1, &err);
    ck_assert_ptr_nonnull(d);
    json_t *r = doc_root(d);
    ck_assert(json_is_string(json_object_get(r, "name")));
    json_t *v = json_object_get(r, "versions");
    ck_assert_str_eq(json_string_value(json_array_get(v, 0)), "2025-11-25");
    ck_assert(json_is_integer(json_array_get(v, 1)));
    ck_assert(json_is_real(json_array_get(v, 2)));
    ck_assert(json_is_true(json_array_get(v, 3)));
    ck_assert(json_is_null(json_array_get(v, 4)));
    ck_assert(json_is_string(json_array_get(v, 5)));
    assert_pos(d, "/name", 1, 7);
    assert_pos(d, "/versions/1", 2, 24);
    assert_pos(d, "/nested/0/a", 4, 8);
    doc_free(d);
}
END_TEST

START_TEST(yaml_errors)
{
    struct doc_error err;
    ck_assert_ptr_null(load("a: 1\nb: 2\na: 3\n", 1, &err));
    ck_assert_uint_eq(err.line, 3);
    ck_assert_uint_eq(err.col, 1);
    ck_assert_ptr_nonnull(strstr(err.message, "duplicate key \"a\""));
    doc_error_release(&err);
    ck_assert_ptr_null(load("a: &x [1, *x]\n", 1, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "recursive"));
    doc_error_release(&err);
    ck_assert_ptr_null(load("a: [1\n", 1, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "invalid YAML"));
    doc_error_release(&err);
    ck_assert_ptr_null(load("? [a]\n: 1\n", 1, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "mapping key"));
    doc_error_release(&err);
}
END_TEST

START_TEST(yaml_alias_bomb_is_bounded)
{
    struct doc_error err;
    const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                       "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                       "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                       "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    ck_assert_ptr_null(load(bomb, 1, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "alias bombs"));
    doc_error_release(&err);
    /* A modest alias is expanded, and positions point at the anchor's source. */
    doc *d = load("a: &a {k: 1}\nb: *a\n", 1, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "/b/k", 1, 11);
    doc_free(d);
}
END_TEST

Suite *doc_suite(void)
{
    Suite *s = suite_create("doc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, json_positions);
    tcase_add_test(tc, json_columns_are_characters);
    tcase_add_test(tc, json_errors_are_positioned);
    tcase_add_test(tc, depth_and_size_limits);
    tcase_add_test(tc, yaml_positions_and_types);
    tcase_add_test(tc, yaml_errors);
    tcase_add_test(tc, yaml_alias_bomb_is_bounded);
    suite_add_tcase(s, tc);
    return s;
}
