/* check_doc_parallel.c - a large JSON text parsed on two threads (doc_json.c: the
 * second parses the later half of an array from a guessed item, the first takes its
 * items over when it gets there) gives the document one thread gives: the same values
 * in the same order, the same index (spans, sizes, positions), the same error at the
 * same place; and a guess that is not an array's item, or items nested deeper than the
 * bound allows from where the first thread is, are left to the first thread. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/docInt.h"

/* Loads TEXT with one thread, then with two (every size split); fails the test unless
 * both give the same. Returns 1 when the second thread's items were taken over. */
static int same_split(const char *text, size_t len, const struct doc_limits *lim)
{
    struct doc_error e1 = {0}, e2 = {0};
    doc_json_set_threads(1, DOC_JSON_SPLIT_MIN);
    doc *one = doc_load_buffer("t.json", text, len, 0, lim, &e1);
    doc_json_set_threads(2, 0);
    doc *two = doc_load_buffer("t.json", text, len, 0, lim, &e2);
    doc_json_set_threads(1, DOC_JSON_SPLIT_MIN);
    if (!one) {
        ck_assert_msg(two == NULL, "two threads accepted what one refuses (%s)", e1.message);
        ck_assert_str_eq(e2.message, e1.message);
        ck_assert_uint_eq(e2.line, e1.line);
        ck_assert_uint_eq(e2.col, e1.col);
        doc_error_release(&e1);
        doc_error_release(&e2);
        return 0;
    }
    ck_assert_msg(two != NULL, "two threads refused what one accepts: %s", e2.message);
    char *a = json_dumps(doc_root(one), JSON_ENCODE_ANY),
         *b = json_dumps(doc_root(two), JSON_ENCODE_ANY);
    ck_assert_msg(!strcmp(a, b), "other values (in order)");
    free(a);
    free(b);
    ck_assert_uint_eq(doc_node_count(two), doc_node_count(one));
    for (doc_node n = 0; n < doc_node_count(one); n++) {
        struct doc_span v1, k1, v2, k2;
        ck_assert_int_eq(doc_node_span(two, n, &v2, &k2), doc_node_span(one, n, &v1, &k1));
        ck_assert_msg(v1.start == v2.start && v1.end == v2.end && k1.start == k2.start &&
                          k1.end == k2.end && doc_node_size(one, n) == doc_node_size(two, n),
                      "node %u: [%u,%u) key [%u,%u) size %u; two threads: [%u,%u) key [%u,%u) "
                      "size %u",
                      n, v1.start, v1.end, k1.start, k1.end, doc_node_size(one, n), v2.start,
                      v2.end, k2.start, k2.end, doc_node_size(two, n));
    }
    struct doc_pos p1 = doc_node_key_pos(one, doc_node_count(one) - 1),
                   p2 = doc_node_key_pos(two, doc_node_count(two) - 1);
    ck_assert(p1.line == p2.line && p1.col == p2.col);
    int taken = two->split_taken;
    ck_assert_int_eq(one->split_taken, 0);
    ck_assert_ptr_null(one->arena2); /* one thread never makes a second arena */
    doc_free(one);
    doc_free(two);
    return taken;
}

/* N tools, as a capture writes them (indent 2), or compact when INDENT is 0; each tool
 * with nested arrays of objects (items a guess may land in), escapes and non-ASCII. */
static char *tools_text(size_t n, int indent, size_t *len)
{
    json_t *tools = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "tool_%zu", i);
        json_t *t = json_pack(
            "{s:s, s:s, s:{s:s, s:{s:{s:[{s:s}, {s:s, s:i}]}, s:{s:s, s:[s, s]}}, s:[s]}, s:[f, "
            "i, b, n]}",
            "name", name, "description", "caf\xc3\xa9, {\"a\"} \\ \t \xe2\x82\xac", "inputSchema",
            "type", "object", "properties", "q", "anyOf", "type", "string", "type", "integer",
            "minimum", (int)i, "mode", "type", "string", "enum", "a,[b]", "c", "required", "q",
            "extra", 1.5, (int)i - 7, i % 2, NULL);
        json_array_append_new(tools, t);
    }
    json_t *root = json_pack("{s:s, s:o, s:{s:{}}}", "mcpDescription", "0.9.0", "tools", tools,
                             "components", "schemas");
    char *text = json_dumps(root, indent ? JSON_INDENT(indent) : JSON_COMPACT);
    json_decref(root);
    *len = strlen(text);
    return text;
}

START_TEST(split_is_the_one_threads_document)
{
    size_t len;
    char *text = tools_text(2000, 2, &len); /* about 900 KB */
    ck_assert_msg(same_split(text, len, NULL), "the second thread's items were not taken");
    free(text);
    text = tools_text(2000, 0, &len); /* compact: the first ",{" or ",[" after the middle */
    same_split(text, len, NULL);
    free(text);
    text = tools_text(3, 4, &len); /* small: a window of a few bytes */
    same_split(text, len, NULL);
    free(text);
}
END_TEST

/* A guess inside a string that the second thread parses to the end of "its" array: the
 * first thread never gets there as an item, so nothing is taken. */
/* The '$' member names the second thread met count as the first's: a $componentRef in
 * the last tool only (past the guess) is seen with two threads as with one. */
START_TEST(dollar_names_of_the_second_thread_kept)
{
    size_t len;
    char *text = tools_text(2000, 2, &len);
    char *last = strstr(text + len / 2, "\"extra\"");
    while (last && strstr(last + 1, "\"extra\"")) last = strstr(last + 1, "\"extra\"");
    ck_assert_ptr_nonnull(last);
    memcpy(last, "\"$xtra\"", 7); /* the same length: only the name changes */
    for (unsigned threads = 1; threads <= 2; threads++) {
        doc_json_set_threads(threads, threads == 2 ? 0 : DOC_JSON_SPLIT_MIN);
        struct doc_error e = {0};
        doc *d = doc_load_buffer("t.json", text, len, 0, NULL, &e);
        doc_json_set_threads(1, DOC_JSON_SPLIT_MIN);
        ck_assert_ptr_nonnull(d);
        ck_assert_int_eq(d->split_taken, threads == 2);
        ck_assert_int_eq(doc_may_have_member(d, "$xtra"), 1);
        ck_assert_int_eq(doc_may_have_member(d, "$componentRef"), 0);
        doc_free(d);
    }
    free(text);
}
END_TEST

START_TEST(guess_inside_a_string_is_not_taken)
{
    size_t reps = 60000, len = 0;
    char *text = malloc(reps * 6 + 64);
    len += (size_t)sprintf(text, "[{\"s\":\"");
    for (size_t i = 0; i < reps; i++) len += (size_t)sprintf(text + len, "x,[1]]");
    len += (size_t)sprintf(text + len, "\"},{\"t\":2}]");
    ck_assert_int_eq(same_split(text, len, NULL), 0);
    free(text);
}
END_TEST

/* Errors after the guessed item (in the second thread's part, or after it) and the
 * nesting bound counted from the first thread's depth: the one thread's error. */
START_TEST(errors_and_depth_are_the_first_threads)
{
    size_t len;
    char *text = tools_text(1000, 2, &len);
    char *late = strstr(text + len * 3 / 4, "\"extra\""); /* a duplicate key there */
    ck_assert_ptr_nonnull(late);
    memcpy(late, "\"name\" ", 7);
    same_split(text, len, NULL);
    free(text);
    text = tools_text(1000, 2, &len);
    late = strstr(text, "\"extra\""); /* before the guess: the second thread is stopped */
    memcpy(late, "\"name\" ", 7);
    same_split(text, len, NULL);
    free(text);
    text = tools_text(1000, 2, &len);
    text[len - 1] = ','; /* the root's closing brace: after the second thread's part */
    same_split(text, len, NULL);
    text[len - 1] = '}';
    ck_assert(same_split(text, len, NULL));
    free(text);
    /* 20,000 items 1, then 5,000 items [[[1]]] in an array at depth 2 (5 levels): the
     * first ",[" after the middle is the first [[[1]]], the guess; within the bound,
     * and one past it, where the second thread alone counts 3 levels and must not be
     * taken: the first one's error */
    struct buf b = BUF_INIT;
    buf_adds(&b, "{\"a\": [");
    for (int i = 0; i < 25000; i++) buf_adds(&b, !i ? "1" : i < 20000 ? ", 1" : ", [[[1]]]");
    buf_adds(&b, "]}");
    struct doc_limits five = {0, 5}, four = {0, 4};
    ck_assert(same_split(buf_str(&b), b.len, &five));
    ck_assert_int_eq(same_split(buf_str(&b), b.len, &four), 0);
    buf_release(&b);
}
END_TEST

static unsigned long long rnd(unsigned long long *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A random value of at most DEPTH levels. */
static json_t *random_value(unsigned long long *x, int depth)
{
    static const char *const str[] = {"",     "a,[b]",           ",{", "\xc3\xa9", "\\\"",
                                      "x\ny", "\xf0\x9f\x98\x80"};
    switch (rnd(x) % (depth > 0 ? 7 : 4)) {
    case 0: return json_integer((json_int_t)(rnd(x) % 2000) - 1000);
    case 1: return json_real((double)(rnd(x) % 1000) / 8);
    case 2: return json_string(str[rnd(x) % (sizeof str / sizeof *str)]);
    case 3: return rnd(x) % 2 ? json_true() : json_null();
    case 4:
    case 5: {
        json_t *a = json_array();
        for (int n = (int)(rnd(x) % 5); n > 0; n--)
            json_array_append_new(a, random_value(x, depth - 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (int n = (int)(rnd(x) % 5); n > 0; n--) {
            char k[8];
            snprintf(k, sizeof k, "k%d", (int)(rnd(x) % 6));
            json_object_set_new(o, k, random_value(x, depth - 1));
        }
        return o;
    }
    }
}

/* Random documents (a large array of random items somewhere in them, pretty or
 * compact), valid or with one byte changed after the middle: one thread or two, the same. */
START_TEST(random_documents_agree)
{
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    int taken = 0;
    for (int round = 0; round < 40; round++) {
        json_t *items = json_array();
        size_t n = 200 + rnd(&x) % 2000;
        for (size_t i = 0; i < n; i++) json_array_append_new(items, random_value(&x, 4));
        json_t *root = rnd(&x) % 3
            ? json_pack("{s:s, s:o, s:o}", "head", "h", "items", items, "tail", random_value(&x, 3))
            : items;
        size_t flags = rnd(&x) % 2 ? JSON_INDENT((int)(rnd(&x) % 4)) : JSON_COMPACT;
        char *text = json_dumps(root, flags | JSON_ENCODE_ANY);
        json_decref(root);
        size_t len = strlen(text);
        if (round % 3 == 2) { /* a byte after the middle: often an error, sometimes not */
            static const char bad[] = ",]}\"[{x:";
            text[len / 2 + rnd(&x) % (len - len / 2)] = bad[rnd(&x) % (sizeof bad - 1)];
        }
        taken += same_split(text, len, NULL);
        free(text);
    }
    ck_assert_int_gt(taken, 5); /* the comparisons covered texts whose split was taken */
}
END_TEST

Suite *doc_parallel_suite(void)
{
    Suite *s = suite_create("doc_parallel");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, split_is_the_one_threads_document);
    tcase_add_test(tc, dollar_names_of_the_second_thread_kept);
    tcase_add_test(tc, guess_inside_a_string_is_not_taken);
    tcase_add_test(tc, errors_and_depth_are_the_first_threads);
    tcase_add_test(tc, random_documents_agree);
    suite_add_tcase(s, tc);
    return s;
}
