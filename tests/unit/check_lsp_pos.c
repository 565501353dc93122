/* check_lsp_pos.c - positions between LSP and mcpdesc (lsp/lsp_pos.h): UTF-16 code
 * units (an emoji is two), UTF-8 bytes and UTF-32 code points, CRLF line ends, clamping
 * past the end of a line or the text, a position inside a character, invalid UTF-8, and
 * mcpdesc's 1-based code-point columns. */
#include <check.h>
#include <string.h>

#include "lsp/lsp_pos.h"

/* "aé😀b\r\n" then "x😀" : é is 2 bytes, 😀 4 bytes (2 UTF-16 units) */
static const char text[] = "a\xc3\xa9\xf0\x9f\x98\x80"
                           "b\r\nx\xf0\x9f\x98\x80";

static struct lsp_position P(uint32_t l, uint32_t c) {
    struct lsp_position p = {l, c};
    return p;
}

START_TEST(pos_offsets_by_encoding)
{
    struct lsp_lines l;
    lsp_lines_init(&l, text, strlen(text));
    ck_assert_uint_eq(l.n, 2);
    /* 'b' is at byte 7: UTF-16 character 4, UTF-8 7, UTF-32 3 */
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 4), LSP_ENC_UTF16), 7);
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 7), LSP_ENC_UTF8), 7);
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 3), LSP_ENC_UTF32), 7);
    /* the emoji starts at byte 3: UTF-16 2 */
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 2), LSP_ENC_UTF16), 3);
    /* inside the emoji (its second unit) is its start */
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 3), LSP_ENC_UTF16), 3);
    /* past the line's end: before the \r\n */
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 99), LSP_ENC_UTF16), 8);
    /* line 1 */
    ck_assert_uint_eq(lsp_offset_of(&l, P(1, 0), LSP_ENC_UTF16), 10);
    ck_assert_uint_eq(lsp_offset_of(&l, P(1, 3), LSP_ENC_UTF16), 15);
    ck_assert_uint_eq(lsp_offset_of(&l, P(1, 2), LSP_ENC_UTF8), 11);
    /* past the last line: the end */
    ck_assert_uint_eq(lsp_offset_of(&l, P(7, 0), LSP_ENC_UTF16), 15);
    lsp_lines_release(&l);
}
END_TEST

START_TEST(pos_positions_by_encoding)
{
    struct lsp_lines l;
    lsp_lines_init(&l, text, strlen(text));
    struct lsp_position p = lsp_position_of(&l, 7, LSP_ENC_UTF16);
    ck_assert_uint_eq(p.line, 0);
    ck_assert_uint_eq(p.character, 4);
    ck_assert_uint_eq(lsp_position_of(&l, 7, LSP_ENC_UTF8).character, 7);
    ck_assert_uint_eq(lsp_position_of(&l, 7, LSP_ENC_UTF32).character, 3);
    /* the end of the text: after the emoji of line 1 */
    p = lsp_position_of(&l, 15, LSP_ENC_UTF16);
    ck_assert_uint_eq(p.line, 1);
    ck_assert_uint_eq(p.character, 3);
    /* the \r of CRLF is the line's end */
    p = lsp_position_of(&l, 9, LSP_ENC_UTF16);
    ck_assert_uint_eq(p.line, 0);
    ck_assert_uint_eq(p.character, 5);
    /* inside the emoji: its start */
    ck_assert_uint_eq(lsp_position_of(&l, 5, LSP_ENC_UTF16).character, 2);
    /* past the end: clamped */
    ck_assert_uint_eq(lsp_position_of(&l, 999, LSP_ENC_UTF16).line, 1);
    /* every offset round-trips through every encoding where it starts a character */
    for (int e = LSP_ENC_UTF16; e <= LSP_ENC_UTF32; e++) {
        static const size_t starts[] = {0, 1, 3, 7, 8, 10, 11, 15};
        for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
            size_t o = starts[i] == 8 ? 8 : starts[i];
            struct lsp_position q = lsp_position_of(&l, o, (enum lsp_enc)e);
            ck_assert_uint_eq(lsp_offset_of(&l, q, (enum lsp_enc)e), o);
        }
    }
    lsp_lines_release(&l);
}
END_TEST

START_TEST(pos_doc_positions)
{
    struct lsp_lines l;
    lsp_lines_init(&l, text, strlen(text));
    struct doc_pos b = {1, 4}; /* 'b': the 4th code point */
    ck_assert_uint_eq(lsp_offset_of_doc(&l, b), 7);
    struct lsp_position p = lsp_position_of_doc(&l, b, LSP_ENC_UTF16);
    ck_assert_uint_eq(p.line, 0);
    ck_assert_uint_eq(p.character, 4);
    struct doc_pos x = lsp_doc_pos_of(&l, 11);
    ck_assert_uint_eq(x.line, 2);
    ck_assert_uint_eq(x.col, 2);
    struct doc_pos unknown = {0, 0};
    ck_assert_uint_eq(lsp_offset_of_doc(&l, unknown), 0);
    lsp_lines_release(&l);
}
END_TEST

START_TEST(pos_invalid_utf8)
{
    /* a lone continuation byte, a truncated sequence, an overlong one: one unit each */
    static const char bad[] = "\x80\xe2\x82z\xc0\xafq";
    struct lsp_lines l;
    lsp_lines_init(&l, bad, strlen(bad));
    ck_assert_uint_eq(lsp_offset_of(&l, P(0, 3), LSP_ENC_UTF16), 3);
    ck_assert_uint_eq(lsp_position_of(&l, 6, LSP_ENC_UTF16).character, 6);
    ck_assert_uint_eq(lsp_position_of(&l, 7, LSP_ENC_UTF32).character, 7);
    lsp_lines_release(&l);
    /* the empty text */
    lsp_lines_init(&l, "", 0);
    ck_assert_uint_eq(lsp_offset_of(&l, P(3, 3), LSP_ENC_UTF16), 0);
    ck_assert_uint_eq(lsp_position_of(&l, 0, LSP_ENC_UTF16).line, 0);
    lsp_lines_release(&l);
}
END_TEST

Suite *lsp_pos_suite(void)
{
    Suite *s = suite_create("lsp_pos");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, pos_offsets_by_encoding);
    tcase_add_test(tc, pos_positions_by_encoding);
    tcase_add_test(tc, pos_doc_positions);
    tcase_add_test(tc, pos_invalid_utf8);
    suite_add_tcase(s, tc);
    return s;
}
