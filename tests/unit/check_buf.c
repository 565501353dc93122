/* check_buf.c - unit tests for the growable string. */
#include <check.h>
#include <stdlib.h>

#include "base/buf.h"

START_TEST(buf_grows_and_formats)
{
    struct buf b = BUF_INIT;
    ck_assert_str_eq(buf_str(&b), "");
    for (int i = 0; i < 100; i++) buf_addf(&b, "%d,", i % 10);
    ck_assert_uint_eq(b.len, 200);
    buf_truncate(&b, 4);
    ck_assert_str_eq(buf_str(&b), "0,1,");
    char *s = buf_detach(&b);
    ck_assert_str_eq(s, "0,1,");
    ck_assert_ptr_null(b.s);
    free(s);
}
END_TEST

START_TEST(buf_escapes_json)
{
    struct buf b = BUF_INIT;
    buf_add_json_escaped(&b, "a\"b\\\n\x01", 6);
    ck_assert_str_eq(buf_str(&b), "a\\\"b\\\\\\n\\u0001");
    buf_release(&b);
}
END_TEST

Suite *buf_suite(void)
{
    Suite *s = suite_create("buf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, buf_grows_and_formats);
    tcase_add_test(tc, buf_escapes_json);
    suite_add_tcase(s, tc);
    return s;
}
