/* check_doc_onepass.c - the one-pass JSON loader against its references: jansson's
 * json_loadb for values and errors (tricky inputs, then thousands of random ones), and
 * the YAML loader (libyaml marks) for the positions of JSON that is also YAML. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "doc/doc.h"

#define FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)

/* Load TEXT (LEN bytes) both ways; the doc must hold jansson's value, or fail with
 * jansson's message at jansson's position. Returns 1 if it was valid. */
static int same_as_jansson(const char *text, size_t len)
{
    struct doc_error err;
    json_error_t jerr;
    doc *d = doc_load_buffer("t", text, len, 0, NULL, &err);
    json_t *j = json_loadb(text, len, FLAGS, &jerr);
    if (j) {
        ck_assert_msg(d != NULL, "rejected what jansson accepts: %.*s (%s)", (int)len, text,
                      err.message);
        ck_assert_msg(json_equal(doc_root(d), j), "other value for: %.*s", (int)len, text);
        json_decref(j);
        doc_free(d);
        return 1;
    }
    ck_assert_msg(d == NULL, "accepted what jansson rejects (%s): %.*s", jerr.text, (int)len, text);
    char want[300];
    snprintf(want, sizeof want, "invalid JSON: %s", jerr.text);
    if (strspn(text, " \t\r\n") >= len) { /* ours: nothing but whitespace */
        snprintf(want, sizeof want, "empty document (a description is a JSON object)");
        jerr.line = jerr.column = 1;
    }
    ck_assert_str_eq(err.message, want);
    ck_assert_uint_eq(err.line, (uint32_t)(jerr.line > 0 ? jerr.line : 1));
    ck_assert_uint_eq(err.col, (uint32_t)(jerr.column > 0 ? jerr.column : 1));
    doc_error_release(&err);
    return 0;
}

static const char *const valid[] = {
    "{}", "[]", " [ ] ", "0", "-0", "-0.0", "1.5e3", "1E-2", "1e+2", "-12.25e-3", "1e-400",
    "9223372036854775807", "-9223372036854775808", "true", "false", "null", "\"\"",
    "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\\u20AC\\ud83d\\ude00\"", "\"\\u0000x\"",
    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \x7f\"", "{\"a\\u0041\": 1, \"ab\": 2}",
    "{\"a\":[1,{\"b\":[true,false,null]},\"c\"],\"d\":{}}", "\r\n\t[1,\r\n2]\r\n",
    "[[[[[[[[[[]]]]]]]]]]", "{\"\":\"\"}", "[1.0, 1, 100000000000000000000.5]",
};

static const char *const invalid[] = {
    "", " ", "{", "[1,]", "[1 2]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "[01]", "[-]", "[1.]",
    "[.5]", "[1e]", "[1e+]", "[+1]", "9223372036854775808", "-9223372036854775809", "1e400",
    "-1e400", "[tru]", "[truex]", "[True]", "[nul]", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
    "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "\"a\nb\"", "\"a\tb\"", "\"\xc3\"",
    "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xff\"", "\"\x80\"",
    "{\"a\":1,\"a\":2}", "{\"a\\u0000\":1}", "[1] [2]", "[1]x", "{\"a\":1}}",
    "[\"a\",]", "[,1]", "{,}", "'a'", "[1,,2]", "{\"a\\u0041\": 1, \"aA\": 2}",
};

START_TEST(values_and_errors_are_janssons)
{
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++)
        ck_assert_msg(same_as_jansson(valid[i], strlen(valid[i])), "not valid: %s", valid[i]);
    for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++)
        ck_assert_msg(!same_as_jansson(invalid[i], strlen(invalid[i])), "valid: %s", invalid[i]);
    /* NUL bytes in the input: jansson refuses them in a string or after the value, but
     * drops one that follows a number (its lexer's lookahead); no loader may hang */
    ck_assert(!same_as_jansson("[\"a\0b\"]", 7));
    ck_assert(same_as_jansson("[1\0,2]", 6));
    ck_assert(same_as_jansson("{\"a\":1\0}", 8));
    ck_assert(!same_as_jansson("[1]\0", 4));
    ck_assert(!same_as_jansson("\0[1]", 4));
}
END_TEST

/* Random texts from JSON's own pieces, valid or not: both loaders must agree. */
START_TEST(random_texts_agree)
{
    static const char *const piece[] = {
        "{", "}", "[", "]", ",", ":", " ", "\n", "\"k\"", "\"k\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"",
        "\"\\ud83d\"", "\"\\n\"", "0", "-1", "1.5", "2e3", "01", "true", "null", "fals",
        "\"\xc3\xa9\"", "\"\xc3\"", "\"a", "1e999", "99999999999999999999", "\"\\u0000\"",
    };
    unsigned long long x = 88172645463325252ull; /* xorshift: the same texts every run */
    int valid_seen = 0;
    for (int n = 0; n < 20000; n++) {
        char text[256];
        size_t len = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int count = 1 + (int)(x % 12);
        for (int k = 0; k < count; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *p = piece[x % (sizeof piece / sizeof *piece)];
            size_t pl = strlen(p);
            if (len + pl >= sizeof text) break;
            memcpy(text + len, p, pl);
            len += pl;
        }
        valid_seen += same_as_jansson(text, len);
    }
    ck_assert_int_gt(valid_seen, 500); /* the comparison covered valid texts too */
}
END_TEST

/* Every node's value and key position equals the YAML loader's for the same text. */
static void positions_as_yaml(const char *text)
{
    struct doc_error err;
    doc *j = doc_load_buffer("t", text, strlen(text), 0, NULL, &err);
    doc *y = doc_load_buffer("t", text, strlen(text), 1, NULL, &err);
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_nonnull(y);
    ck_assert_uint_eq(doc_node_count(j), doc_node_count(y));
    for (doc_node n = 0; n < doc_node_count(j); n++) {
        struct doc_pos a = doc_node_pos(j, n), b = doc_node_pos(y, n);
        struct doc_pos ka = doc_node_key_pos(j, n), kb = doc_node_key_pos(y, n);
        ck_assert_msg(a.line == b.line && a.col == b.col && ka.line == kb.line && ka.col == kb.col,
                      "node %u: %u:%u (key %u:%u), YAML %u:%u (key %u:%u) in %s", n, a.line, a.col,
                      ka.line, ka.col, b.line, b.col, kb.line, kb.col, text);
        ck_assert_uint_eq(doc_node_size(j, n), doc_node_size(y, n));
        struct doc_span sa, sb, ksa, ksb; /* and the same bytes (JSON is flow YAML) */
        ck_assert_int_ge(doc_node_span(j, n, &sa, &ksa), 0);
        ck_assert_int_ge(doc_node_span(y, n, &sb, &ksb), 0);
        ck_assert_msg(sa.start == sb.start && sa.end == sb.end && ksa.start == ksb.start &&
                          ksa.end == ksb.end,
                      "node %u: [%u,%u) (key [%u,%u)), YAML [%u,%u) (key [%u,%u)) in %s", n,
                      sa.start, sa.end, ksa.start, ksa.end, sb.start, sb.end, ksb.start, ksb.end,
                      text);
    }
    doc_free(j);
    doc_free(y);
}

START_TEST(positions_are_the_yaml_loaders)
{
    positions_as_yaml("{\"a\": [1, {\"b\": true}], \"c\": \"x\", \"d\": null}");
    positions_as_yaml("{\n  \"tools\": [\n    {\"name\": \"caf\xc3\xa9\", \"n\": -1.5e3},\n"
                      "    {\"name\": \"\xe2\x82\xac\xe2\x82\xac\", \"x\": [[], {}, [\"\xf0\x9f\x98\x80\", 2]]}\n"
                      "  ],\n  \"e\": {}\n}\n");
    positions_as_yaml("[\n1,\n  \"\xc3\xa9\xc3\xa9\",   {\"k\":\n      [false]}]");
}
END_TEST

Suite *doc_onepass_suite(void)
{
    Suite *s = suite_create("doc_onepass");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, values_and_errors_are_janssons);
    tcase_add_test(tc, random_texts_agree);
    tcase_add_test(tc, positions_are_the_yaml_loaders);
    suite_add_tcase(s, tc);
    return s;
}
