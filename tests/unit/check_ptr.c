/* check_ptr.c - RFC 6901 pointers and the URI-fragment form of $componentRef. */
#include <check.h>
#include <stdlib.h>

#include "base/ptr.h"

START_TEST(parses_and_unescapes)
{
    struct ptr p;
    const char *why;
    ck_assert_int_eq(ptr_parse("", &p, &why), 0);
    ck_assert_uint_eq(p.n, 0);
    ck_assert_int_eq(ptr_parse("/a~1b/~0c/", &p, &why), 0);
    ck_assert_uint_eq(p.n, 3);
    ck_assert_str_eq(p.segs[0], "a/b");
    ck_assert_str_eq(p.segs[1], "~c");
    ck_assert_str_eq(p.segs[2], "");
    ptr_release(&p);
    ck_assert_int_eq(ptr_parse("a/b", &p, &why), -1);
    ck_assert_int_eq(ptr_parse("/a~2", &p, &why), -1);
    ck_assert_ptr_nonnull(why);
    ck_assert_int_eq(ptr_parse("/a~", &p, &why), -1);
}
END_TEST

START_TEST(escapes)
{
    struct buf b = BUF_INIT;
    ptr_append_segment(&b, "a/~b", 4);
    ptr_append_index(&b, 12);
    ck_assert_str_eq(buf_str(&b), "/a~1~0b/12");
    buf_release(&b);
}
END_TEST

START_TEST(fragments_are_percent_decoded)
{
    const char *why;
    char *p = ptr_from_fragment("#/components/schemas/A%20B~1C", &why);
    ck_assert_str_eq(p, "/components/schemas/A B~1C");
    free(p);
    ck_assert_ptr_null(ptr_from_fragment("/components/schemas/A", &why));
    ck_assert_ptr_null(ptr_from_fragment("#/a%2", &why));
    ck_assert_ptr_null(ptr_from_fragment("#/a%00", &why));
    ck_assert_ptr_null(ptr_from_fragment("#/a~9", &why));
}
END_TEST

START_TEST(resolves_values)
{
    json_t *doc = json_loads("{\"a\": [10, {\"b/c\": 2}], \"\": 3}", 0, NULL);
    struct ptr p;
    const char *why;
    ck_assert_int_eq(ptr_parse("/a/1/b~1c", &p, &why), 0);
    ck_assert_int_eq(json_integer_value(ptr_get(doc, &p)), 2);
    ptr_release(&p);
    ck_assert_int_eq(ptr_parse("/a/01", &p, &why), 0);
    ck_assert_ptr_null(ptr_get(doc, &p));
    ptr_release(&p);
    ck_assert_int_eq(ptr_parse("/", &p, &why), 0);
    ck_assert_int_eq(json_integer_value(ptr_get(doc, &p)), 3);
    ptr_release(&p);
    size_t idx;
    ck_assert(ptr_is_index("0", &idx) && idx == 0);
    ck_assert(!ptr_is_index("-", &idx));
    ck_assert(!ptr_is_index("99999999999999999999999", &idx));
    json_decref(doc);
}
END_TEST

Suite *ptr_suite(void)
{
    Suite *s = suite_create("ptr");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, parses_and_unescapes);
    tcase_add_test(tc, escapes);
    tcase_add_test(tc, fragments_are_percent_decoded);
    tcase_add_test(tc, resolves_values);
    suite_add_tcase(s, tc);
    return s;
}
