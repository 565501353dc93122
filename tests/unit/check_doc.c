/* check_doc.c - the document model: positions for JSON and YAML, errors, limits. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "doc/docInt.h"

static doc *load(const char *text, int yaml, struct doc_error *err)
{
    return doc_load_buffer("t", text, strlen(text), yaml, NULL, err);
}

static void assert_pos(doc *d, const char *ptr, uint32_t line, uint32_t col)
{
    struct doc_pos p;
    ck_assert_msg(doc_pointer_pos(d, ptr, &p, NULL) == 0, "no value at %s", ptr);
    ck_assert_msg(p.line == line && p.col == col, "%s at %u:%u, expected %u:%u", ptr, p.line, p.col,
                  line, col);
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
    ck_assert_ptr_null(load("[1, x", 0, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "invalid JSON"));
    doc_error_release(&err);
}
END_TEST

static void assert_error(const char *text, size_t len, int yaml, uint32_t line, uint32_t col,
                         const char *part)
{
    struct doc_error err;
    ck_assert_msg(doc_load_buffer("t", text, len, yaml, NULL, &err) == NULL, "loaded: %.*s",
                  (int)(len < 80 ? len : 80), text);
    ck_assert_msg(err.line == line && err.col == col && strstr(err.message, part),
                  "%u:%u %s, expected %u:%u %s (input %.*s)", err.line, err.col, err.message, line,
                  col, part, (int)(len < 80 ? len : 80), text);
    doc_error_release(&err);
}

/* A literal with its length (it may hold a NUL). */
#define ERR(lit, ...) assert_error(lit, sizeof(lit) - 1, __VA_ARGS__)

/* Nothing but whitespace (or a byte order mark) is an empty document, not a token error. */
START_TEST(empty_json_is_named)
{
    static const char *const empty[] = {"", " ", "\n\t\r\n", "\xEF\xBB\xBF", "\xEF\xBB\xBF \n"};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++)
        assert_error(empty[i], strlen(empty[i]), 0, 1, 1, "empty document");
    ERR("\n [", 0, 2, 2, "invalid JSON"); /* not empty: jansson's error */
}
END_TEST

/* RFC 8259 8.1: a leading UTF-8 BOM is ignored; columns count from the character after it. */
START_TEST(json_bom_is_skipped)
{
    struct doc_error err;
    doc *d = load("\xEF\xBB\xBF{\"a\": [1, 2],\n \"b\": \"\\u00e9\"}", 0, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "", 1, 1);
    assert_pos(d, "/a", 1, 7);
    assert_pos(d, "/a/1", 1, 11);
    assert_pos(d, "/b", 2, 7);
    size_t len;
    const char *line = doc_line(d, 1, &len);
    ck_assert_int_eq(line[0], '{'); /* excerpts line up with the columns */
    doc_free(d);
    /* errors after it, in the one-pass loader and in jansson's */
    ERR("\xEF\xBB\xBF{\"a\": x}", 0, 1, 7, "invalid token");
    ERR("\xEF\xBB\xBF{\"a\": 1, \"a\": 2}", 0, 1, 12, "duplicate object key");
    ERR("{\"a\": 1, \"a\": 2}", 0, 1, 12, "duplicate object key"); /* as without it */
    /* only at the start, and only whole */
    ERR("[\xEF\xBB\xBF]", 0, 1, 2, "invalid JSON");
    ERR("\xEF\xBB[]", 0, 1, 1, "invalid JSON");
}
END_TEST

static char *nested(const char *open, size_t n, const char *middle)
{
    size_t ol = strlen(open), ml = strlen(middle);
    char *t = malloc(n * ol + ml + 1);
    ck_assert_ptr_nonnull(t);
    for (size_t i = 0; i < n; i++) memcpy(t + i * ol, open, ol);
    memcpy(t + n * ol, middle, ml + 1);
    return t;
}

/* The nesting bound is reported where it is crossed, with our message, however deep the
 * input goes (jansson's own parser stops at 2048 levels with its own message). */
START_TEST(depth_is_reported_at_the_513th_level)
{
    static const size_t depths[] = {513, 2048, 2049, 100000};
    for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
        char *t = nested("[", depths[i], "");
        assert_error(t, strlen(t), 0, 1, 513, "nesting deeper than 512 levels");
        free(t);
        t = nested("{\"a\":", depths[i], "1");
        assert_error(t, strlen(t), 0, 1, 2561, "nesting deeper than 512 levels");
        free(t);
    }
    char *t = nested("[", 3000, "");
    t[1] = '\n'; /* line 2 from the second bracket on */
    assert_error(t, strlen(t), 0, 2, 512, "nesting deeper than 512 levels");
    free(t);
    t = nested("[\"]\\\"[\",", 600, ""); /* brackets inside strings do not nest */
    assert_error(t, strlen(t), 0, 1, 513 * 8 - 7, "nesting deeper than 512 levels");
    free(t);
    /* an error before the 513th level is reported as it is */
    t = nested("[", 3000, "");
    t[100] = 'x';
    assert_error(t, strlen(t), 0, 1, 101, "invalid JSON");
    free(t);
    /* 512 levels are allowed: an error after them is jansson's */
    t = nested("[", 512, "x");
    assert_error(t, strlen(t), 0, 1, 513, "invalid JSON");
    free(t);
    struct doc_limits lim = {0, 4};
    struct doc_error err;
    ck_assert_ptr_null(doc_load_buffer("t", "[[[[[1]]]]]", 11, 0, &lim, &err));
    ck_assert_uint_eq(err.col, 5);
    ck_assert_ptr_nonnull(strstr(err.message, "deeper than 4 levels"));
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

/* The size bound is inclusive: an input of exactly max_bytes loads, one byte more is
 * refused, from memory and from a file alike (doc_load.c). */
START_TEST(size_limit_is_inclusive)
{
    struct doc_error err;
    struct doc_limits at = {7, 0}, under = {6, 0};
    doc *d = doc_load_buffer("t", "[1,2,3]", 7, 0, &at, &err);
    ck_assert_msg(d != NULL, "7 bytes under a 7-byte bound refused: %s", err.message);
    doc_free(d);
    ck_assert_ptr_null(doc_load_buffer("t", "[1,2,3]", 7, 0, &under, &err));
    ck_assert_str_eq(err.message, "input is 7 bytes, over the limit of 6");
    doc_error_release(&err);

    char path[] = "/tmp/check_doc.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "[1,2,3]", 7), 7);
    close(fd);
    d = doc_load_file(path, &at, &err);
    ck_assert_msg(d != NULL, "a 7-byte file under a 7-byte bound refused: %s", err.message);
    doc_free(d);
    ck_assert_ptr_null(doc_load_file(path, &under, &err));
    ck_assert_str_eq(err.message, "input is over the limit of 6 bytes");
    doc_error_release(&err);
    unlink(path);
}
END_TEST

START_TEST(yaml_positions_and_types)
{
    struct doc_error err;
    const char *text =
        "name: x\nversions: [2025-11-25, 3, 1.5, true, null, '7']\nnested:\n  - a: b\n";
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

/* libyaml's reader errors carry a byte offset, not a mark: the position is computed. */
START_TEST(yaml_reader_errors_are_positioned)
{
    ERR("a: b\nc: \"caf\xe9\"\n", 1, 2, 8, "invalid trailing UTF-8 octet");
    ERR("\xc3\xa9: b\nc: [\xe2\x82\xac, \xe2\x82x]\n", 1, 2, 8, "invalid trailing UTF-8 octet");
    ERR("a: b\nc: d\0e\n", 1, 2, 5, "control characters are not allowed");
    ERR("\xc3\xa9\xc3\xa9: \xff\n", 1, 1, 5, "invalid leading UTF-8 octet");
    ERR("\xEF\xBB\xBF"
        "a: \x01\n",
        1, 1, 4, "control characters");
    ERR("a: 1\rb: 2\r\nc: \x01\n", 1, 3, 4, "control characters"); /* libyaml's breaks */
}
END_TEST

/* What JSON refuses (an integer beyond 64 bits, a real beyond a double) YAML refuses too,
 * at the scalar, instead of rounding it. */
START_TEST(yaml_numbers_out_of_range_are_refused)
{
    ERR("n: 123456789012345678901234567890\n", 1, 1, 4, "does not fit in 64 bits");
    ERR("a:\n  - -9223372036854775809\n", 1, 2, 5, "integer -9223372036854775809 does");
    ERR("n: 1e999\n", 1, 1, 4, "does not fit in a double");
    struct doc_error err;
    doc *d = load("a: 9223372036854775807\nb: -9223372036854775808\nc: '123456789012345678901'\n"
                  "d: 1e-999\ne: 12345678901234567890123x\n",
                  1, &err);
    ck_assert_ptr_nonnull(d);
    json_t *r = doc_root(d);
    ck_assert(json_integer_value(json_object_get(r, "a")) == INT64_MAX);
    ck_assert(json_integer_value(json_object_get(r, "b")) == INT64_MIN);
    ck_assert_str_eq(json_string_value(json_object_get(r, "c")), "123456789012345678901");
    ck_assert(json_is_real(json_object_get(r, "d")));
    ck_assert(json_is_string(json_object_get(r, "e")));
    doc_free(d);
}
END_TEST

static void assert_line(doc *d, uint32_t line, const char *want)
{
    size_t len;
    const char *l = doc_line(d, line, &len);
    ck_assert_msg(l != NULL, "no line %u", line);
    ck_assert_msg(len == strlen(want) && !memcmp(l, want, len), "line %u is \"%.*s\", not \"%s\"",
                  line, (int)len, l, want);
}

/* YAML positions count libyaml's line breaks (CR, CRLF, NEL, LS, PS too), and so do the
 * source lines under diagnostics; a position is never past the text. */
START_TEST(yaml_lines_are_libyamls)
{
    struct doc_error err;
    doc *d = load("a: 1\rb: [x]\r\nc: \xE2\x80\xA8"
                  "d: 3\xC2\x85"
                  "e: 4",
                  1, &err);
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "/b/0", 2, 5);
    assert_pos(d, "/e", 5, 4);
    assert_line(d, 1, "a: 1");
    assert_line(d, 2, "b: [x]");
    assert_line(d, 3, "c: ");
    assert_line(d, 5, "e: 4");
    doc_free(d);
    d = load("---", 1, &err); /* the empty value after "---" */
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "", 1, 4);
    assert_line(d, 1, "---");
    doc_free(d);
    d = load("{\"a\":\r\n 1,\r\"b\": 2}", 0, &err); /* JSON: LF only */
    ck_assert_ptr_nonnull(d);
    assert_pos(d, "/b", 2, 10);
    assert_line(d, 1, "{\"a\":");
    doc_free(d);
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

static void assert_key_pos(doc *d, const char *ptr, uint32_t line, uint32_t col)
{
    struct doc_pos k;
    ck_assert_msg(doc_pointer_pos(d, ptr, NULL, &k) == 0, "no value at %s", ptr);
    ck_assert_msg(k.line == line && k.col == col, "key of %s at %u:%u, expected %u:%u", ptr, k.line,
                  k.col, line, col);
}

/* An alias copies its anchor's entries: its value (and every member below it) keeps the
 * anchor's source position, where the text is; only the alias's own key moves to where the
 * alias is used (in a sequence, to the alias itself). The anchor's entries stay as they were.
 * A node with an anchor starts at the anchor ("&x 5" at the "&"). */
START_TEST(yaml_alias_positions)
{
    struct doc_error err;
    const char *text = "a: &x 5\n"     /* 1 */
                       "b: *x\n"       /* 2 */
                       "m: &m\n"       /* 3 */
                       "  k: v\n"      /* 4 */
                       "  n: [1, 2]\n" /* 5 */
                       "c:   *m\n"     /* 6 */
                       "s: [*x, *m]\n" /* 7 */
                       "t:\n"          /* 8 */
                       "  u: *m\n";    /* 9 */
    doc *d = load(text, 1, &err);
    ck_assert_ptr_nonnull(d);
    /* the anchors themselves */
    assert_pos(d, "/a", 1, 4);
    assert_key_pos(d, "/a", 1, 1);
    assert_pos(d, "/m", 3, 4);
    assert_key_pos(d, "/m", 3, 1);
    assert_pos(d, "/m/k", 4, 6);
    assert_key_pos(d, "/m/k", 4, 3);
    /* a value that is an alias: the anchor's value, its own key */
    assert_pos(d, "/b", 1, 4);
    assert_key_pos(d, "/b", 2, 1);
    assert_pos(d, "/c", 3, 4);
    assert_key_pos(d, "/c", 6, 1);
    /* members inside an aliased mapping: where the anchor's members are, keys included */
    assert_pos(d, "/c/k", 4, 6);
    assert_key_pos(d, "/c/k", 4, 3);
    assert_pos(d, "/c/n", 5, 6);
    assert_key_pos(d, "/c/n", 5, 3);
    assert_pos(d, "/c/n/1", 5, 10);
    assert_key_pos(d, "/c/n/1", 5, 10);
    assert_pos(d, "/t/u/n/0", 5, 7);
    assert_key_pos(d, "/t/u", 9, 3);
    assert_key_pos(d, "/t/u/k", 4, 3);
    /* aliases as sequence items: the "key" is the alias's place */
    assert_pos(d, "/s/0", 1, 4);
    assert_key_pos(d, "/s/0", 7, 5);
    assert_pos(d, "/s/1", 3, 4);
    assert_key_pos(d, "/s/1", 7, 9);
    assert_pos(d, "/s/1/k", 4, 6);
    assert_key_pos(d, "/s/1/k", 4, 3);
    /* the copies are nodes of their own, with the anchor's subtree size */
    ck_assert_uint_ne(doc_pointer_node(d, "/c/k"), doc_pointer_node(d, "/m/k"));
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/c")),
                      doc_node_size(d, doc_pointer_node(d, "/m")));
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/c")), 5);
    doc_free(d);

    /* an anchor on a mapping key: "*k" as a value is the key's text, at the key */
    d = load("x: 0\n&k a: 1\nb: *k\nc: [*k]\n", 1, &err);
    ck_assert_msg(d != NULL, "%s", d ? "" : err.message);
    ck_assert_str_eq(json_string_value(json_object_get(doc_root(d), "b")), "a");
    assert_pos(d, "/a", 2, 7);
    assert_key_pos(d, "/a", 2, 1);
    assert_pos(d, "/b", 2, 1);
    assert_key_pos(d, "/b", 3, 1);
    assert_pos(d, "/c/0", 2, 1);
    assert_key_pos(d, "/c/0", 4, 5);
    doc_free(d);
}
END_TEST

/* A mapping key that is an alias ("*k : 1", in block, flow and explicit form) is refused
 * at the alias: keys are plain strings. */
START_TEST(yaml_alias_keys_are_refused)
{
    ERR("a: &k x\n*k : 2\n", 1, 2, 1, "a mapping key must be a plain string, not an alias");
    ERR("a: &k x\nb:\n  c: 1\n  *k : 2\n", 1, 4, 3,
        "a mapping key must be a plain string, not an alias");
    ERR("{a: &k x, *k : 2}", 1, 1, 11, "a mapping key must be a plain string, not an alias");
    ERR("a: &k x\n? *k\n: 2\n", 1, 2, 3, "a mapping key must be a plain string, not an alias");
    ERR("a: &k {x: 1}\n*k : 2\n", 1, 2, 1, "not an alias");
    ERR("? [a]\n: 1\n", 1, 1, 3, "a mapping key must be a plain string, not a sequence");
    ERR("? {a: 1}\n: 1\n", 1, 1, 3, "a mapping key must be a plain string, not a mapping");
}
END_TEST

/* ---- YAML merge keys (https://yaml.org/type/merge.html) -------------------------- */

/* The index agrees with the tree: every container's children are its members in jansson's
 * order, and every size is 1 plus its children's. */
static void check_index_at(doc *d, doc_node n, json_t *v, const char *where)
{
    uint32_t sum = 1;
    doc_node c = doc_node_first_child(d, n);
    if (json_is_object(v)) {
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            ck_assert_msg(c != DOC_NONE, "%s: no node for member %s", where,
                          json_object_iter_key(it));
            check_index_at(d, c, json_object_iter_value(it), where);
            sum += doc_node_size(d, c);
            c = doc_node_next_sibling(d, n, c);
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            ck_assert_msg(c != DOC_NONE, "%s: no node for item %zu", where, i);
            check_index_at(d, c, json_array_get(v, i), where);
            sum += doc_node_size(d, c);
            c = doc_node_next_sibling(d, n, c);
        }
    }
    ck_assert_msg(c == DOC_NONE, "%s: node %u has more children than its value", where, n);
    ck_assert_msg(doc_node_size(d, n) == sum, "%s: node %u has size %u, its children add to %u",
                  where, n, doc_node_size(d, n), sum);
}

static void check_index(doc *d)
{
    check_index_at(d, 0, doc_root(d), doc_name(d));
    ck_assert_uint_eq(doc_node_size(d, 0), doc_node_count(d));
}

/* The member names of the object at POINTER, in order, comma-separated. */
static void assert_keys(doc *d, const char *pointer, const char *want)
{
    json_t *v = doc_root(d);
    if (*pointer) { /* one level is enough here: "/m" */
        v = json_object_get(v, pointer + 1);
    }
    ck_assert_msg(json_is_object(v), "%s is not an object", pointer);
    char got[256] = "";
    for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
        if (*got) strcat(got, ",");
        strcat(got, json_object_iter_key(it));
    }
    ck_assert_msg(!strcmp(got, want), "%s has members %s, expected %s", pointer, got, want);
}

static doc *load_ok(const char *text)
{
    struct doc_error err;
    doc *d = load(text, 1, &err);
    ck_assert_msg(d != NULL, "%u:%u %s", d ? 0 : err.line, d ? 0 : err.col, d ? "" : err.message);
    check_index(d);
    return d;
}

static json_t *at(doc *d, const char *a, const char *b)
{
    json_t *v = json_object_get(doc_root(d), a);
    return b ? json_object_get(v, b) : v;
}

/* "<<: *b" merges b's members where the "<<" is: a merged member's value and key keep the
 * anchor's source position (as an alias's members do); no member is named "<<". */
START_TEST(yaml_merge_key_merges_a_mapping)
{
    doc *d = load_ok("base: &b {x: 1, y: [2, 3], z: 4}\n" /* 1 */
                     "m:\n"                               /* 2 */
                     "  a: 0\n"                           /* 3 */
                     "  <<: *b\n"                         /* 4 */
                     "  c: 5\n"                           /* 5 */
                     "n: {<<: *b}\n"                      /* 6 */
                     "o: {<<: [*b]}\n");                  /* 7 */
    assert_keys(d, "/m", "a,x,y,z,c");
    ck_assert_ptr_null(at(d, "m", "<<"));
    ck_assert_int_eq(json_integer_value(at(d, "m", "x")), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(at(d, "m", "y"), 1)), 3);
    ck_assert_int_eq(json_integer_value(at(d, "m", "z")), 4);
    assert_pos(d, "/m/a", 3, 6);
    assert_key_pos(d, "/m/a", 3, 3);
    assert_pos(d, "/m/x", 1, 14);
    assert_key_pos(d, "/m/x", 1, 11);
    assert_pos(d, "/m/y", 1, 20);
    assert_key_pos(d, "/m/y", 1, 17);
    assert_pos(d, "/m/y/1", 1, 24);
    assert_pos(d, "/m/z", 1, 31);
    assert_key_pos(d, "/m/z", 1, 28);
    assert_pos(d, "/m/c", 5, 6);
    assert_key_pos(d, "/m/c", 5, 3);
    assert_pos(d, "/m", 3, 3);
    assert_key_pos(d, "/m", 2, 1);
    assert_pos(d, "/base/x", 1, 14); /* the anchor is as it was */
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/m")), 8);
    assert_keys(d, "/n", "x,y,z");
    assert_keys(d, "/o", "x,y,z");
    assert_pos(d, "/o/y/0", 1, 21);
    ck_assert(json_equal(at(d, "n", NULL), at(d, "base", NULL)));
    ck_assert(json_equal(at(d, "o", NULL), at(d, "base", NULL)));
    ck_assert_uint_eq(doc_node_count(d), 1 + 6 + 8 + 6 + 6);
    doc_free(d);
    /* an alias of a sequence of mappings is a sequence of mappings */
    d = load_ok("s: &s [{k: 1, l: 2}, {k: 3, m: 4}]\nt: {<<: *s}\n");
    assert_keys(d, "/t", "k,l,m");
    ck_assert_int_eq(json_integer_value(at(d, "t", "k")), 1);
    assert_pos(d, "/t/m", 1, 32);
    assert_key_pos(d, "/t/m", 1, 29);
    doc_free(d);
}
END_TEST

/* A key written in the mapping wins over a merged one, before or after the "<<", and keeps
 * its place; it is no duplicate. Two written keys still are. */
START_TEST(yaml_merge_explicit_keys_win)
{
    doc *d = load_ok("b: &b {x: 1, y: 2, z: 3}\n"        /* 1 */
                     "m:\n"                              /* 2 */
                     "  y: before\n"                     /* 3 */
                     "  <<: *b\n"                        /* 4 */
                     "  z: after\n"                      /* 5 */
                     "c: &c {k: [1, 2, 3], l: {p: q}}\n" /* 6 */
                     "n: {<<: *c, k: 1, s: &s [7, 8]}\n" /* 7 */
                     "u: [0, 0, 0, 0, 0, 0, 0, 0]\n"     /* 8: over where s was */
                     "t: *s\n");                         /* 9 */
    assert_keys(d, "/m", "y,x,z");
    ck_assert_str_eq(json_string_value(at(d, "m", "y")), "before");
    ck_assert_int_eq(json_integer_value(at(d, "m", "x")), 1);
    ck_assert_str_eq(json_string_value(at(d, "m", "z")), "after");
    assert_pos(d, "/m/y", 3, 6);
    assert_pos(d, "/m/x", 1, 11);
    assert_key_pos(d, "/m/x", 1, 8);
    assert_pos(d, "/m/z", 5, 6);
    assert_key_pos(d, "/m/z", 5, 3);
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/m")), 4);
    /* a merged container overridden after the "<<": gone from the tree and the index */
    assert_keys(d, "/n", "l,k,s");
    ck_assert_int_eq(json_integer_value(at(d, "n", "k")), 1);
    assert_pos(d, "/n/k", 7, 16);
    assert_key_pos(d, "/n/k", 7, 13);
    assert_pos(d, "/n/l/p", 6, 29);
    assert_pos(d, "/n/s/1", 7, 29);
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/n")), 1 + 2 + 1 + 3);
    /* an anchor after the override moved with its member: still at its own text */
    assert_pos(d, "/t", 7, 22);
    assert_pos(d, "/t/1", 7, 29);
    assert_key_pos(d, "/t", 9, 1);
    ck_assert_int_eq(json_integer_value(json_array_get(at(d, "t", NULL), 1)), 8);
    doc_free(d);
    ERR("a: &a {k: 1}\nm: {<<: *a, k: 2, k: 3}\n", 1, 2, 19, "duplicate key \"k\"");
    ERR("a: &a {k: 1}\nm: {k: 2, <<: *a, k: 3}\n", 1, 2, 19, "duplicate key \"k\"");
}
END_TEST

/* "<<: [*a, *b]": earlier mappings in the sequence win over later ones; members come in
 * the order of the sequence, then of each mapping. */
START_TEST(yaml_merge_sequence_precedence)
{
    doc *d = load_ok("a: &a {k: from-a, p: 1}\n"       /* 1 */
                     "b: &b {k: from-b, q: 2, p: 9}\n" /* 2 */
                     "m: {<<: [*a, *b], r: 3}\n"       /* 3 */
                     "n: {<<: [*b, *a]}\n"             /* 4 */
                     "o: {<<: [*a, *b], q: 0}\n");     /* 5 */
    assert_keys(d, "/m", "k,p,q,r");
    ck_assert_str_eq(json_string_value(at(d, "m", "k")), "from-a");
    ck_assert_int_eq(json_integer_value(at(d, "m", "p")), 1);
    ck_assert_int_eq(json_integer_value(at(d, "m", "q")), 2);
    assert_pos(d, "/m/k", 1, 11);
    assert_key_pos(d, "/m/k", 1, 8);
    assert_pos(d, "/m/p", 1, 22);
    assert_pos(d, "/m/q", 2, 22);
    assert_key_pos(d, "/m/q", 2, 19);
    assert_pos(d, "/m/r", 3, 22);
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/m")), 5);
    assert_keys(d, "/n", "k,q,p");
    ck_assert_str_eq(json_string_value(at(d, "n", "k")), "from-b");
    ck_assert_int_eq(json_integer_value(at(d, "n", "p")), 9);
    assert_pos(d, "/n/p", 2, 28);
    assert_keys(d, "/o", "k,p,q");
    ck_assert_int_eq(json_integer_value(at(d, "o", "q")), 0);
    assert_pos(d, "/o/q", 5, 22);
    doc_free(d);
}
END_TEST

/* The merge key is the plain scalar << only: quoted (or tagged !!str) it is a member. */
START_TEST(yaml_merge_quoted_key_is_literal)
{
    doc *d = load_ok("a: &a {k: 1}\n"
                     "m: {\"<<\": *a}\n"
                     "n: {'<<': x, <<: *a}\n"
                     "o: {!!str <<: y}\n");
    assert_keys(d, "/m", "<<");
    ck_assert(json_equal(at(d, "m", "<<"), at(d, "a", NULL)));
    assert_pos(d, "/m/<<", 1, 4);
    assert_key_pos(d, "/m/<<", 2, 5);
    assert_keys(d, "/n", "<<,k");
    ck_assert_str_eq(json_string_value(at(d, "n", "<<")), "x");
    assert_keys(d, "/o", "<<");
    doc_free(d);
}
END_TEST

/* "<<" takes a mapping or a sequence of mappings; anything else is refused where it is
 * written, and so is a second "<<" in one mapping. */
START_TEST(yaml_merge_value_errors)
{
    ERR("m:\n  <<: 5\n", 1, 2, 7, "merge key << takes a mapping or a sequence of mappings");
    ERR("m: {<<: null}\n", 1, 1, 9, "merge key << takes");
    ERR("a: &s text\nm: {<<: *s}\n", 1, 2, 9, "merge key << takes");
    ERR("a: &a {k: 1}\nm: {<<: [*a, 5]}\n", 1, 2, 14, "merge key << takes");
    ERR("a: &a {k: 1}\nm: {<<: [*a, [*a]]}\n", 1, 2, 14, "merge key << takes");
    ERR("a: &a [1]\nm: {<<: [*a]}\n", 1, 2, 10, "merge key << takes");
    ERR("a: &a [{k: 1}, 2]\nm: {<<: *a}\n", 1, 2, 9, "merge key << takes");
    ERR("a: &a {k: 1}\nm:\n  <<: *a\n  <<: *a\n", 1, 4, 3, "duplicate merge key <<");
    ERR("m: {<<: *nope}\n", 1, 1, 9, "refers to no complete anchor");
}
END_TEST

/* Merges inside merged mappings, inline mappings as sources (anchored ones too), and
 * aliases of mappings built by merging. */
START_TEST(yaml_merge_nested)
{
    doc *d = load_ok("a: &a {k: 1, n: {p: 1}}\n"                /* 1 */
                     "b: &b {<<: *a, l: 2}\n"                   /* 2 */
                     "m: &m {<<: *b, k: 9}\n"                   /* 3 */
                     "i: {<<: {x: {<<: *a, q: 3}}}\n"           /* 4 */
                     "j: {<<: &s {u: 1, v: &v {w: 2}}, u: 0}\n" /* 5 */
                     "s2: *s\n"                                 /* 6 */
                     "v2: *v\n"                                 /* 7 */
                     "c: *m\n");                                /* 8 */
    assert_keys(d, "/b", "k,n,l");
    assert_pos(d, "/b/k", 1, 11);
    assert_pos(d, "/b/n/p", 1, 21);
    assert_pos(d, "/b/l", 2, 19);
    assert_keys(d, "/m", "n,l,k");
    ck_assert_int_eq(json_integer_value(at(d, "m", "k")), 9);
    ck_assert_int_eq(json_integer_value(at(d, "m", "l")), 2);
    assert_pos(d, "/m/n/p", 1, 21);
    assert_pos(d, "/m/l", 2, 19);
    assert_key_pos(d, "/m/l", 2, 16);
    assert_pos(d, "/m/k", 3, 19);
    assert_key_pos(d, "/m/k", 3, 16);
    assert_keys(d, "/i", "x");
    json_t *x = at(d, "i", "x");
    ck_assert_int_eq(json_integer_value(json_object_get(x, "k")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(x, "q")), 3);
    ck_assert_int_eq(json_object_size(x), 3);
    assert_pos(d, "/i/x", 4, 13);
    assert_pos(d, "/i/x/k", 1, 11);
    assert_pos(d, "/i/x/q", 4, 25);
    assert_keys(d, "/j", "v,u");
    ck_assert_int_eq(json_integer_value(at(d, "j", "u")), 0);
    assert_pos(d, "/j/v/w", 5, 29);
    assert_pos(d, "/j/u", 5, 37);
    /* the anchored merge source and the anchor inside it are still whole */
    assert_keys(d, "/s2", "u,v");
    assert_pos(d, "/s2", 5, 9);
    assert_key_pos(d, "/s2", 6, 1);
    assert_pos(d, "/s2/u", 5, 16);
    assert_pos(d, "/s2/v/w", 5, 29);
    assert_pos(d, "/v2", 5, 22);
    assert_pos(d, "/v2/w", 5, 29);
    /* an alias of a merged mapping copies it */
    ck_assert(json_equal(at(d, "c", NULL), at(d, "m", NULL)));
    assert_pos(d, "/c/l", 2, 19);
    assert_pos(d, "/c/k", 3, 19);
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/c")),
                      doc_node_size(d, doc_pointer_node(d, "/m")));
    doc_free(d);
}
END_TEST

static char *repeat_lines(const char *head, const char *line, size_t n)
{
    size_t hl = strlen(head), ll = strlen(line);
    char *t = malloc(hl + n * (ll + 16) + 1);
    ck_assert_ptr_nonnull(t);
    memcpy(t, head, hl);
    char *p = t + hl;
    for (size_t i = 0; i < n; i++) p += sprintf(p, "m%zu: %s\n", i, line);
    *p = '\0';
    return t;
}

/* Merges do not get round the alias-bomb limit, and the work they do (copies merged
 * away, mappings closed up) is bounded too. */
#define E111K                                                                                      \
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n"                                                       \
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"                                             \
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"                                             \
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"                                             \
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"                                             \
    "big: &big {k: *e}\n"
START_TEST(yaml_merge_bombs_are_bounded)
{
    struct doc_error err;
    const char *bomb =
        "a: &a {a0: x, a1: x, a2: x, a3: x, a4: x, a5: x, a6: x, a7: x, a8: x}\n"
        "b: &b {<<: *a, b0: *a, b1: *a, b2: *a, b3: *a, b4: *a, b5: *a, b6: *a, b7: *a}\n"
        "c: &c {<<: *b, c0: *b, c1: *b, c2: *b, c3: *b, c4: *b, c5: *b, c6: *b, c7: *b}\n"
        "d: &d {<<: *c, d0: *c, d1: *c, d2: *c, d3: *c, d4: *c, d5: *c, d6: *c, d7: *c}\n"
        "e: &e {<<: *d, e0: *d, e1: *d, e2: *d, e3: *d, e4: *d, e5: *d, e6: *d, e7: *d}\n"
        "f: &f {<<: *e, f0: *e, f1: *e, f2: *e, f3: *e, f4: *e, f5: *e, f6: *e, f7: *e}\n"
        "g: &g {<<: *f, g0: *f, g1: *f, g2: *f, g3: *f, g4: *f, g5: *f, g6: *f, g7: *f}\n"
        "h: &h {<<: [*g, *g, *g, *g, *g, *g, *g, *g]}\n";
    ck_assert_ptr_null(load(bomb, 1, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "alias bombs"));
    doc_error_release(&err);
    /* a mapping merged many times, each merge kept small by a written key */
    char *t = repeat_lines(E111K, "{k: 0, <<: [*big, *big, *big, *big, *big, *big]}", 16);
    ck_assert_ptr_null(load(t, 1, &err));
    ck_assert_msg(strstr(err.message, "merge bombs") != NULL, "%s", err.message);
    ck_assert_uint_eq(err.line, 6 + 13); /* 13 merges of 6 copies of 111,112 nodes */
    doc_error_release(&err);
    free(t);
    /* inline merges nested inside each other, each closing up the whole */
    char *deep = nested("{<<: ", 200, "{k: *e}");
    t = malloc(strlen(E111K) + strlen(deep) + 400 + 8);
    ck_assert_ptr_nonnull(t);
    strcpy(t, E111K);
    strcat(t, "m: ");
    strcat(t, deep);
    for (int i = 0; i < 200; i++) strcat(t, "}");
    strcat(t, "\n");
    ck_assert_ptr_null(load(t, 1, &err));
    ck_assert_msg(strstr(err.message, "merge bombs") != NULL, "%s", err.message);
    doc_error_release(&err);
    free(t);
    free(deep);
    /* below the bounds all is well */
    t = repeat_lines(E111K, "{k: 0, <<: [*big, *big]}", 3);
    doc *d = load_ok(t);
    ck_assert_int_eq(json_integer_value(at(d, "m2", "k")), 0);
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/m2")), 2);
    doc_free(d);
    free(t);
    d = load_ok(E111K "m: {<<: *big}\n");
    ck_assert_uint_eq(doc_node_size(d, doc_pointer_node(d, "/m")),
                      doc_node_size(d, doc_pointer_node(d, "/big")));
    assert_pos(d, "/m/k/9/9/9/9/9", 1, 35);
    doc_free(d);
}
END_TEST

/* The text of the value (and key) span at PTR. */
static void assert_span(doc *d, const char *ptr, const char *value, const char *key)
{
    doc_node n = doc_pointer_node(d, ptr);
    ck_assert_msg(n != DOC_NONE, "no node at %s", ptr);
    struct doc_span v, k;
    ck_assert_int_ge(doc_node_span(d, n, &v, &k), 0);
    size_t len;
    const char *t = doc_text(d, &len);
    ck_assert_msg(v.start <= v.end && v.end <= len, "%s: bad span [%u,%u)", ptr, v.start, v.end);
    ck_assert_msg(strlen(value) == v.end - v.start && !memcmp(t + v.start, value, strlen(value)),
                  "%s: value span \"%.*s\", expected \"%s\"", ptr, (int)(v.end - v.start),
                  t + v.start, value);
    if (key)
        ck_assert_msg(strlen(key) == k.end - k.start && !memcmp(t + k.start, key, strlen(key)),
                      "%s: key span \"%.*s\", expected \"%s\"", ptr, (int)(k.end - k.start),
                      t + k.start, key);
}

static int span_flags(doc *d, const char *ptr)
{
    return doc_node_span(d, doc_pointer_node(d, ptr), NULL, NULL);
}

START_TEST(json_spans)
{
    struct doc_error err;
    /* every kind of value, non-ASCII text, CRLF line breaks, a byte order mark */
    const char *text =
        "\xef\xbb\xbf{\r\n  \"caf\xc3\xa9\": [1, -2.5e3, {\"b\": true}],\r\n"
        "  \"s\": \"x\\\"\xe2\x82\xac\",\r\n  \"n\": null, \"f\": false, \"o\": {}\r\n}\r\n";
    doc *d = load(text, 0, &err);
    ck_assert_ptr_nonnull(d);
    struct doc_span v;
    doc_node_span(d, 0, &v, NULL);
    ck_assert_uint_eq(v.start, 3);
    ck_assert_uint_eq(v.end, strlen(text) - 2); /* the closing brace, not the CRLF */
    assert_span(d, "/caf\xc3\xa9", "[1, -2.5e3, {\"b\": true}]", "\"caf\xc3\xa9\"");
    assert_span(d, "/caf\xc3\xa9/0", "1", "");
    assert_span(d, "/caf\xc3\xa9/1", "-2.5e3", "");
    assert_span(d, "/caf\xc3\xa9/2", "{\"b\": true}", "");
    assert_span(d, "/caf\xc3\xa9/2/b", "true", "\"b\"");
    assert_span(d, "/s", "\"x\\\"\xe2\x82\xac\"", "\"s\"");
    assert_span(d, "/n", "null", "\"n\"");
    assert_span(d, "/f", "false", "\"f\"");
    assert_span(d, "/o", "{}", "\"o\"");
    ck_assert_int_eq(span_flags(d, "/o"), 0);
    ck_assert_int_eq(doc_node_span(d, 999, NULL, NULL), -1);
    ck_assert_int_eq(doc_is_yaml(d), 0);
    doc_free(d);
}
END_TEST

START_TEST(yaml_spans)
{
    struct doc_error err;
    const char *text = "# c\r\n"
                       "caf\xc3\xa9: \xe2\x82\xac plain # comment\r\n"
                       "q: \"quoted\"\r\n"
                       "flow: {a: 1, 'b': [x, y]}\r\n"
                       "block:\r\n"
                       "  - one\r\n"
                       "  - k: v\r\n"
                       "    e:\r\n"
                       "lit: |\r\n"
                       "  line\r\n"
                       "\r\n"
                       "after: 1\r\n";
    doc *d = load(text, 1, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(doc_is_yaml(d), 1);
    assert_span(d, "/caf\xc3\xa9", "\xe2\x82\xac plain", "caf\xc3\xa9");
    assert_span(d, "/q", "\"quoted\"", "q");
    assert_span(d, "/flow", "{a: 1, 'b': [x, y]}", "flow");
    ck_assert_int_eq(span_flags(d, "/flow"), DOC_SPAN_FLOW);
    assert_span(d, "/flow/b", "[x, y]", "'b'");
    assert_span(d, "/flow/b/1", "y", "");
    assert_span(d, "/block", "- one\r\n  - k: v\r\n    e:", "block");
    ck_assert_int_eq(span_flags(d, "/block"), 0);
    assert_span(d, "/block/1", "k: v\r\n    e:", "");
    assert_span(d, "/block/1/e", "", "e"); /* an empty value: right after its colon */
    assert_span(d, "/lit", "|\r\n  line", "lit");
    assert_span(d, "/after", "1", "after");
    doc_free(d);
}
END_TEST

/* JSON the one-pass loader gives up on (a NUL after a number, which jansson drops) is
 * indexed by the fallback scan: the same spans. YAML after a byte order mark: libyaml's
 * marks count from the character after it. */
START_TEST(fallback_and_bom_spans)
{
    struct doc_error err;
    doc *d = doc_load_buffer("t", "[1\0,2]", 6, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    struct doc_span v, k;
    doc_node_span(d, 0, &v, NULL);
    ck_assert_uint_eq(v.start, 0);
    ck_assert_uint_eq(v.end, 6);
    doc_node_span(d, doc_pointer_node(d, "/0"), &v, NULL);
    ck_assert_uint_eq(v.start, 1);
    ck_assert_uint_eq(v.end, 2);
    doc_node_span(d, doc_pointer_node(d, "/1"), &v, NULL);
    ck_assert_uint_eq(v.start, 4);
    ck_assert_uint_eq(v.end, 5);
    doc_free(d);
    d = doc_load_buffer("t", "{\"a\":1\0}", 8, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    doc_node_span(d, doc_pointer_node(d, "/a"), &v, &k);
    ck_assert_uint_eq(k.start, 1);
    ck_assert_uint_eq(k.end, 4);
    ck_assert_uint_eq(v.start, 5);
    ck_assert_uint_eq(v.end, 6);
    doc_free(d);
    d = load("\xef\xbb\xbf# c\nk: v\n\xc3\xa9: [1]\n", 1, &err);
    ck_assert_ptr_nonnull(d);
    assert_span(d, "/k", "v", "k");
    assert_span(d, "/\xc3\xa9", "[1]", "\xc3\xa9");
    doc_free(d);
}
END_TEST

START_TEST(yaml_shared_spans)
{
    struct doc_error err;
    const char *text = "base: &b {type: object}\n"
                       "copy: *b\n"
                       "merged:\n"
                       "  <<: *b\n"
                       "  own: 1\n"
                       "alone: {x: 1}\n";
    doc *d = load(text, 1, &err);
    ck_assert_ptr_nonnull(d);
    /* the anchor and its alias share text: no edit may go to either */
    ck_assert_int_eq(span_flags(d, "/base") & DOC_SPAN_SHARED, DOC_SPAN_SHARED);
    ck_assert_int_eq(span_flags(d, "/base/type") & DOC_SPAN_SHARED, DOC_SPAN_SHARED);
    ck_assert_int_eq(span_flags(d, "/copy") & DOC_SPAN_SHARED, DOC_SPAN_SHARED);
    assert_span(d, "/copy", "*b", "copy");          /* the alias's own text */
    assert_span(d, "/copy/type", "object", "type"); /* the anchor's */
    ck_assert_int_eq(span_flags(d, "/merged/type") & DOC_SPAN_SHARED, DOC_SPAN_SHARED);
    assert_span(d, "/merged/type", "object", "type");
    ck_assert_int_eq(span_flags(d, "/merged/own"), 0);
    ck_assert_int_eq(span_flags(d, "/merged"), 0);
    ck_assert_int_eq(span_flags(d, "/alone"), DOC_SPAN_FLOW);
    doc_free(d);
}
END_TEST

/* doc_shed: the kept lines and members only; no node, no other line. */
START_TEST(shed_keeps_lines_and_members)
{
    struct doc_error err;
    const char *text = "{\"protocolVersions\": [\"2025-06-18\"],\n"
                       "\"tools\": [{\"name\": \"a b\"}],\n"
                       "\"x\": 1}\n";
    doc *d = doc_load_buffer("t", text, strlen(text), 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    const uint32_t lines[] = {2, 9, 2};
    static const char *const keep[] = {"protocolVersions", "absent", NULL};
    doc_shed(d, lines, 3, keep);
    size_t len = 0;
    const char *l2 = doc_line(d, 2, &len);
    ck_assert_ptr_nonnull(l2);
    ck_assert_int_eq((int)len, (int)strlen("\"tools\": [{\"name\": \"a b\"}],"));
    ck_assert(!strncmp(l2, "\"tools\": [{\"name\": \"a b\"}],", len));
    ck_assert_ptr_null(doc_line(d, 1, &len));
    ck_assert_ptr_null(doc_line(d, 3, &len));
    ck_assert_int_eq((int)json_object_size(doc_root(d)), 1);
    ck_assert_int_eq((int)json_array_size(json_object_get(doc_root(d), "protocolVersions")), 1);
    ck_assert_int_eq((int)doc_node_count(d), 0);
    struct doc_pos pos;
    ck_assert_int_eq(doc_pointer_pos(d, "/tools/0", &pos, NULL), -1);
    ck_assert_int_eq(doc_pointer_pos(d, "/protocolVersions/0", &pos, NULL), -1);
    ck_assert_int_eq(doc_pointer_pos(d, "", &pos, NULL), -1);
    doc_shed(d, lines, 1, keep); /* a second time: nothing changes */
    ck_assert_ptr_nonnull(doc_line(d, 2, &len));
    doc_free(d);
}
END_TEST

/* doc_may_have_member: certain only of '$' names in JSON its one pass read whole. */
START_TEST(dollar_members_known)
{
    struct doc_error e = {0};
    static const char with[] = "{\"a\": [{\"\\u0024componentRef\": \"x\"}], \"$schema\": 1}";
    doc *d = doc_load_buffer("t.json", with, strlen(with), 0, NULL, &e);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(doc_may_have_member(d, "$componentRef"), 1); /* written escaped */
    ck_assert_int_eq(doc_may_have_member(d, "$schema"), 1);
    ck_assert_int_eq(doc_may_have_member(d, "$ref"), 0);
    ck_assert_int_eq(doc_may_have_member(d, "name"), 1); /* not recorded: may */
    doc_free(d);
    static const char yaml[] = "a: 1\n";
    d = doc_load_buffer("t.yaml", yaml, strlen(yaml), 1, NULL, &e);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(doc_may_have_member(d, "$ref"), 1); /* YAML: not recorded */
    doc_free(d);
    struct buf many = BUF_INIT; /* more names than the set holds */
    buf_adds(&many, "{");
    for (int i = 0; i <= DOC_DOLLAR_MAX; i++) buf_addf(&many, "%s\"$k%d\": %d", i ? "," : "", i, i);
    buf_adds(&many, "}");
    d = doc_load_buffer("t.json", many.s, many.len, 0, NULL, &e);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(doc_may_have_member(d, "$ref"), 1);
    doc_free(d);
    buf_release(&many);
}
END_TEST

Suite *doc_suite(void)
{
    Suite *s = suite_create("doc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, json_positions);
    tcase_add_test(tc, dollar_members_known);
    tcase_add_test(tc, shed_keeps_lines_and_members);
    tcase_add_test(tc, json_columns_are_characters);
    tcase_add_test(tc, json_errors_are_positioned);
    tcase_add_test(tc, depth_and_size_limits);
    tcase_add_test(tc, size_limit_is_inclusive);
    tcase_add_test(tc, yaml_positions_and_types);
    tcase_add_test(tc, yaml_errors);
    tcase_add_test(tc, yaml_alias_bomb_is_bounded);
    tcase_add_test(tc, yaml_alias_positions);
    tcase_add_test(tc, yaml_alias_keys_are_refused);
    tcase_add_test(tc, yaml_merge_key_merges_a_mapping);
    tcase_add_test(tc, yaml_merge_explicit_keys_win);
    tcase_add_test(tc, yaml_merge_sequence_precedence);
    tcase_add_test(tc, yaml_merge_quoted_key_is_literal);
    tcase_add_test(tc, yaml_merge_value_errors);
    tcase_add_test(tc, yaml_merge_nested);
    tcase_add_test(tc, yaml_merge_bombs_are_bounded);
    tcase_add_test(tc, empty_json_is_named);
    tcase_add_test(tc, json_bom_is_skipped);
    tcase_add_test(tc, depth_is_reported_at_the_513th_level);
    tcase_add_test(tc, yaml_reader_errors_are_positioned);
    tcase_add_test(tc, yaml_numbers_out_of_range_are_refused);
    tcase_add_test(tc, yaml_lines_are_libyamls);
    tcase_add_test(tc, json_spans);
    tcase_add_test(tc, yaml_spans);
    tcase_add_test(tc, yaml_shared_spans);
    tcase_add_test(tc, fallback_and_bom_spans);
    suite_add_tcase(s, tc);
    return s;
}
