/* check_loc.c - unit tests for FILE:LINE:COL (every message's place). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/loc.h"
#include "base/util.h"
#include "judge/mcpdesc.h"
#include "testutil.h"

START_TEST(loc_writes_file_line_col)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "at ");
    loc_add(&b, "rules/a.yaml", 12, 3);
    ck_assert_str_eq(buf_str(&b), "at rules/a.yaml:12:3");
    buf_release(&b);
    char *s = loc_format("x.json", 1, 1);
    ck_assert_str_eq(s, "x.json:1:1");
    free(s);
    /* a position with no column still says both */
    s = loc_format("x.json", 7, 0);
    ck_assert_str_eq(s, "x.json:7:0");
    free(s);
}
END_TEST

START_TEST(loc_line_zero_is_just_the_file)
{
    char *s = loc_format("missing.json", 0, 0);
    ck_assert_str_eq(s, "missing.json");
    free(s);
    s = loc_format("missing.json", 0, 5);
    ck_assert_str_eq(s, "missing.json");
    free(s);
    s = loc_format(NULL, 0, 0);
    ck_assert_str_eq(s, "");
    free(s);
}
END_TEST

/* The place without its file (a text no file holds, the later places of a list in one
 * file), and without its column (the Markdown summary): the same digits as loc_add. */
START_TEST(loc_pos_and_line_are_parts_of_the_same_form)
{
    struct buf b = BUF_INIT;
    loc_add(&b, "r/t.yaml", 20, 12);
    buf_adds(&b, ", ");
    loc_add_pos(&b, 31, 7);
    buf_adds(&b, " | ");
    loc_add_line(&b, "x.json", 9);
    buf_adds(&b, " | ");
    loc_add_line(&b, "x.json", 0);
    buf_adds(&b, " | name");
    loc_add_line(&b, NULL, 4);
    ck_assert_str_eq(buf_str(&b), "r/t.yaml:20:12, 31:7 | x.json:9 | x.json | name:4");
    buf_release(&b);
}
END_TEST

START_TEST(loc_prints_the_same_text)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    loc_print(f, "a b.yaml", 4294967295u, 2);
    fputc('|', f);
    loc_print(f, "c.yaml", 0, 9);
    fclose(f);
    ck_assert_str_eq(text, "a b.yaml:4294967295:2|c.yaml");
    free(text);
}
END_TEST

/* The embedding API's error text is loc's too: file:line:col: message, or file: message
 * for an error with no position (mcpdesc.h). */
START_TEST(loc_in_the_embedding_errors)
{
    const char *files[] = {"t.yaml"};
    const char *texts[] = {"rules:\n  - id: x\n    nonsense: [\n"};
    char *dir = tu_rule_dir(files, texts, 1);
    char *err = NULL;
    ck_assert_ptr_null(mcpdesc_rules_load(dir, &err));
    char *want = xasprintf("%s/t.yaml:4:1: ", dir);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
    free(want);
    free(err);
    char *none = xasprintf("%s/nowhere", dir);
    ck_assert_ptr_null(mcpdesc_rules_load(none, &err));
    want = xasprintf("%s/manifest.yaml: cannot open", none); /* no position */
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
    free(want);
    free(err);
    free(none);
    tu_rmdir(dir);
}
END_TEST

Suite *loc_suite(void)
{
    Suite *s = suite_create("loc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, loc_writes_file_line_col);
    tcase_add_test(tc, loc_line_zero_is_just_the_file);
    tcase_add_test(tc, loc_pos_and_line_are_parts_of_the_same_form);
    tcase_add_test(tc, loc_prints_the_same_text);
    tcase_add_test(tc, loc_in_the_embedding_errors);
    suite_add_tcase(s, tc);
    return s;
}
