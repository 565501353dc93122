/* check_lsp_frame.c - the LSP base protocol framing (lsp/lsp_frame.h): whole messages
 * from bytes fed in any pieces, header fields other than Content-Length ignored, bad
 * frames reported and skipped with reading going on after them, bodies over the limit
 * skipped without being held, and the writer. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "lsp/lsp_frame.h"

static void feed(struct lsp_frame *f, const char *s)
{
    lsp_frame_feed(f, s, strlen(s));
}

/* The next body as a string ("" for none, "!why" for an error). */
static char out[256];
static const char *next(struct lsp_frame *f)
{
    const char *body, *why;
    size_t len;
    int k = lsp_frame_next(f, &body, &len, &why);
    if (k == 0) return "";
    if (k < 0) {
        snprintf(out, sizeof out, "!%s", why);
        return out;
    }
    snprintf(out, sizeof out, "%.*s", (int)len, body);
    return out;
}

START_TEST(frame_whole_and_split)
{
    struct lsp_frame f;
    lsp_frame_init(&f, 0);
    feed(&f, "Content-Length: 2\r\n\r\n{}Content-Length: 3\r\nContent-Type: x\r\n\r\n[1]");
    ck_assert_str_eq(next(&f), "{}");
    ck_assert_str_eq(next(&f), "[1]");
    ck_assert_str_eq(next(&f), "");
    /* byte by byte */
    const char *m = "content-length:  5 \r\n\r\nhello";
    for (size_t i = 0; m[i]; i++) {
        ck_assert_str_eq(next(&f), "");
        lsp_frame_feed(&f, m + i, 1);
    }
    ck_assert_str_eq(next(&f), "hello");
    ck_assert_str_eq(next(&f), "");
    lsp_frame_release(&f);
}
END_TEST

START_TEST(frame_bad_headers)
{
    struct lsp_frame f;
    lsp_frame_init(&f, 0);
    feed(&f, "Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\nok");
    ck_assert_str_eq(next(&f), "!header without a valid Content-Length");
    ck_assert_str_eq(next(&f), "ok");
    feed(&f, "Content-Length: -1\r\n\r\nContent-Length: 2\r\n\r\nok");
    ck_assert_str_eq(next(&f), "!header without a valid Content-Length");
    ck_assert_str_eq(next(&f), "ok");
    feed(&f, "Content-Length: 1\r\nContent-Length: 2\r\n\r\nContent-Length: 1\r\n\r\nx");
    ck_assert_str_eq(next(&f), "!header without a valid Content-Length");
    ck_assert_str_eq(next(&f), "x");
    /* a header that never ends is dropped once over the limit */
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    feed(&f, big);
    ck_assert_str_eq(next(&f), "!header too long (no blank line within 4096 bytes)");
    ck_assert_uint_le(f.in.len - f.off, 0);
    feed(&f, "Content-Length: 1\r\n\r\ny");
    ck_assert_str_eq(next(&f), "y");
    lsp_frame_release(&f);
}
END_TEST

START_TEST(frame_body_over_limit_is_skipped)
{
    struct lsp_frame f;
    lsp_frame_init(&f, 8);
    feed(&f, "Content-Length: 20\r\n\r\n0123456789");
    ck_assert_str_eq(next(&f), "!message body over the size limit (skipped)");
    ck_assert_uint_eq(f.in.len - f.off, 0); /* not held */
    feed(&f, "0123456789Content-Length: 8\r\n\r\n12345678");
    ck_assert_str_eq(next(&f), "12345678");
    /* a whole oversized message in one piece */
    feed(&f, "Content-Length: 9\r\n\r\n123456789Content-Length: 1\r\n\r\nz");
    ck_assert_str_eq(next(&f), "!message body over the size limit (skipped)");
    ck_assert_str_eq(next(&f), "z");
    lsp_frame_release(&f);
}
END_TEST

START_TEST(frame_write)
{
    struct buf b = BUF_INIT;
    lsp_frame_write(&b, "{\"a\":\"\xc3\xa9\"}", 10);
    ck_assert_str_eq(buf_str(&b), "Content-Length: 10\r\n\r\n{\"a\":\"\xc3\xa9\"}");
    buf_release(&b);
}
END_TEST

Suite *lsp_frame_suite(void)
{
    Suite *s = suite_create("lsp_frame");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, frame_whole_and_split);
    tcase_add_test(tc, frame_bad_headers);
    tcase_add_test(tc, frame_body_over_limit_is_skipped);
    tcase_add_test(tc, frame_write);
    suite_add_tcase(s, tc);
    return s;
}
