/* check_display.c - unit tests for text made safe to show (display.h), and for the
 * message placeholders that use it: a report about hidden text does not carry it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/display.h"
#include "base/util.h"
#include "testutil.h"

static char *shown(const char *s)
{
    struct buf b = BUF_INIT;
    display_add(&b, s, strlen(s));
    return buf_detach(&b);
}

#define CHECK_SHOWN(in, out)                                                                       \
    do {                                                                                           \
        char *got_ = shown(in);                                                                    \
        ck_assert_str_eq(got_, out);                                                               \
        free(got_);                                                                                \
    } while (0)

START_TEST(hidden_characters_are_escaped)
{
    /* a right-to-left override, ESC, tag characters, a zero-width space, a BOM */
    CHECK_SHOWN("read\xe2\x80\xae"
                "fdp.exe",
                "read\\u202Efdp.exe");
    CHECK_SHOWN("\x1b[31mred", "\\u001B[31mred");
    CHECK_SHOWN("a\xf3\xa0\x81\x81\xf3\xa0\x81\xa2z", "a\\u{E0041}\\u{E0062}z");
    CHECK_SHOWN("zero\xe2\x80\x8bwidth\xef\xbb\xbf", "zero\\u200Bwidth\\uFEFF");
    CHECK_SHOWN("del\x7f c1\xc2\x9b", "del\\u007F c1\\u009B");
    CHECK_SHOWN("isolate\xe2\x81\xa6x\xe2\x81\xa9", "isolate\\u2066x\\u2069");
    CHECK_SHOWN("line\xe2\x80\xa8sep\nnl\ttab", "line\\u2028sep\\u000Anl\\u0009tab");
    /* a byte that is not UTF-8 */
    CHECK_SHOWN("bad\xff", "bad\\xFF");
    CHECK_SHOWN("cut\xe2\x80", "cut\\xE2\\x80");
}
END_TEST

START_TEST(printable_text_of_any_script_is_kept)
{
    CHECK_SHOWN("שלום עולם", "שלום עולם");                 /* Hebrew */
    CHECK_SHOWN("مرحبا", "مرحبا");                         /* Arabic */
    CHECK_SHOWN("ファイル一覧", "ファイル一覧");           /* Japanese */
    CHECK_SHOWN("caf\xc3\xa9 \xf0\x9f\x98\x80", "café 😀"); /* an emoji */
    CHECK_SHOWN("\\u202E as text", "\\u202E as text");     /* already ASCII: unchanged */
    /* a joiner inside an emoji sequence shows escaped too: reports are about hidden text */
    CHECK_SHOWN("\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb", "👩\\u200D💻");
}
END_TEST

START_TEST(codepoints_and_their_names)
{
    static const struct {
        uint32_t cp;
        const char *out;
    } cases[] = {
        {0x202E, "U+202E RIGHT-TO-LEFT OVERRIDE"},
        {0x1B, "U+001B ESCAPE"},
        {0xE0041, "U+E0041 TAG LATIN CAPITAL LETTER A"},
        {0xE0062, "U+E0062 TAG LATIN SMALL LETTER B"},
        {0xE0037, "U+E0037 TAG DIGIT SEVEN"},
        {0xFE0F, "U+FE0F VARIATION SELECTOR-16"},
        {0xE0100, "U+E0100 VARIATION SELECTOR-17"},
        {0x41, "U+0041"},
        {0x1F600, "U+1F600"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct buf b = BUF_INIT;
        display_add_codepoint(&b, cases[i].cp);
        ck_assert_str_eq(buf_str(&b), cases[i].out);
        buf_release(&b);
    }
}
END_TEST

START_TEST(excerpt_lines_keep_tabs_and_place_the_caret)
{
    struct buf line = BUF_INIT, pad = BUF_INIT;
    display_add_line(&line, "\t\"a\xe2\x80\xae", 6, &pad);
    ck_assert_str_eq(buf_str(&line), "\t\"a\\u202E");
    ck_assert_str_eq(buf_str(&pad), "\t        "); /* the tab, then 8 characters shown */
    buf_release(&line);
    buf_release(&pad);
}
END_TEST

#define RULE(check)                                                                                \
    "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n"                 \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check  \
    "\n"

/* A tool whose name holds a right-to-left override, ESC and tag text: every placeholder
 * that quotes it shows the escapes. */
START_TEST(placeholders_escape_what_they_quote)
{
    struct rule_set *rs = tu_rules_ok(
        RULE("{select: '/tools/*/name', require: {not: {matches: '\\x{202E}'}}, "
             "message: 'item={item} value={value} key={key} match={match} cp={codepoint} "
             "ptr={pointer}'}"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs,
            "{\"tools\": [{\"name\": \"a\\u202eb\\u001b[8m\\udb40\\udc41x\", "
            "\"inputSchema\": {\"type\": \"object\"}}]}",
            &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].message,
                     "item=a\\u202Eb\\u001B[8m\\u{E0041}x "
                     "value=\"a\\u202Eb\\u001B[8m\\u{E0041}x\" key=name match=\\u202E "
                     "cp=U+202E RIGHT-TO-LEFT OVERRIDE ptr=/tools/0/name");
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* Text a quantifier found in another node is not placed in the judged string. */
START_TEST(a_match_in_another_node_is_not_this_strings)
{
    struct rule_set *rs = tu_rules_ok(
        RULE("{select: '/tools/*/name', require: {not: {some: {select: '/tools/*/description', "
             "require: {matches: '\\x{202E}'}}}}, report-at: match, message: 'm=[{match}]'}"));
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, "{\"tools\": [{\"name\": \"abcdef\", \"description\": \"x\\u202e\"}]}", &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].message, "m=[]");
    ck_assert_int_eq(out.items[0].has_match, 0);
    ck_assert_uint_eq(out.items[0].col, 21); /* the name's opening quote */
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

Suite *display_suite(void)
{
    Suite *s = suite_create("display");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, hidden_characters_are_escaped);
    tcase_add_test(tc, printable_text_of_any_script_is_kept);
    tcase_add_test(tc, codepoints_and_their_names);
    tcase_add_test(tc, excerpt_lines_keep_tabs_and_place_the_caret);
    tcase_add_test(tc, placeholders_escape_what_they_quote);
    tcase_add_test(tc, a_match_in_another_node_is_not_this_strings);
    suite_add_tcase(s, tc);
    return s;
}
