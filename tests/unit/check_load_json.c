/* check_load_json.c - a rule set's schema files parsed once and kept (rules/rule_cache.c,
 * rule_cache_load_json; doc/doc_cache.c, doc_cache_value_*): what a start reads back is
 * what jansson's json_loadb gives for the same bytes and flags, value for value (an
 * integer apart from a real, members in their order, strings with their NULs), and an
 * error is jansson's own, word for word and at the same place. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "base/val.h"
#include "doc/doc.h"
#include "rules/rule_cache.h"
#include "schema/schema.h"
#include "testutil.h"

/* What schema_compile_file and the --ref-map read schema files with. */
#define FILE_FLAGS (JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY)
#define REF_FLAGS (JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* Texts a schema file may hold: NUL, a NUL in a key, escapes, integers at their limits,
 * reals that are whole, -0, tiny and huge reals, members out of order, nesting, scalars
 * (a whole file with JSON_DECODE_ANY only), and the errors: a duplicate key, an integer
 * too big, a real too big, an empty file, a raw NUL, a truncated text. */
static const char *const texts[] = {
    "{\"a\": 1, \"b\": 1.0, \"c\": -0, \"d\": -0.0, \"e\": 1e2, \"f\": 9223372036854775807,\n"
    " \"g\": -9223372036854775808, \"h\": \"x\\u0000y\", \"i\": [], \"j\": {}, \"k\": null,\n"
    " \"l\": true, \"m\": false, \"n\": \"\\u00e9\\ud83d\\ude00\", \"o\": [1, [2, [3.5]]],\n"
    " \"p\": 0.1, \"q\": 1.7976931348623157e308, \"r\": 5e-324, \"s\": \"\"}\n",
    "{\"z\": 1, \"a\": {\"y\": [true, {\"b\": null, \"a\": 2}], \"c\": "
    "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}, "
    "\"m\": 3}",
    "[{\"$ref\": \"#/$defs/x\"}, {\"$defs\": {\"x\": {\"type\": \"string\"}}}]",
    "\"just a string\"",
    "42",
    "-3.25e-3",
    "null",
    "{\"a\\u0000b\": 1}",
    "{\"a\": 1, \"a\": 2}",
    "{\"a\": 99999999999999999999}",
    "[1e400]",
    "",
    "{\"a\": \"b\0c\"}",
    "{\"a\": [1, 2",
};
static const size_t text_len[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 0};
#define NTEXTS (sizeof texts / sizeof *texts)

static size_t len_of(size_t i)
{
    return text_len[i] ? text_len[i] : strlen(texts[i]);
}

/* V as text: every type, member order and real digit shows (NULL: no value). */
static char *dump(json_t *v)
{
    return v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
}

/* Integers and reals kept apart everywhere in V and W (json_dumps writes 1.0 as 1.0, but
 * the test says it outright). */
static int same_types(json_t *v, json_t *w)
{
    if (json_typeof(v) != json_typeof(w)) return 0;
    if (json_is_array(v)) {
        if (json_array_size(v) != json_array_size(w)) return 0;
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!same_types(json_array_get(v, i), json_array_get(w, i))) return 0;
    }
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        if (json_object_size(v) != json_object_size(w)) return 0;
        json_object_foreach(v, k, m) if (!same_types(m, json_object_get(w, k))) return 0;
    }
    return 1;
}

static void assert_same(json_t *want, json_t *got, const char *what, size_t i)
{
    char *a = dump(want), *b = dump(got);
    ck_assert_msg((a == NULL) == (b == NULL), "%s, text %zu: value %s, expected %s", what, i,
                  b ? b : "none", a ? a : "none");
    if (a) {
        ck_assert_msg(!strcmp(a, b), "%s, text %zu: %s, expected %s", what, i, b, a);
        ck_assert_msg(json_equal(want, got) && same_types(want, got), "%s, text %zu: not equal",
                      what, i);
        if (json_is_object(want)) { /* a NUL inside a string: its length too */
            json_t *h = json_object_get(want, "h");
            if (h) ck_assert_uint_eq(json_string_length(json_object_get(got, "h")), 3);
        }
    }
    free(a);
    free(b);
}

static void assert_same_error(const json_error_t *want, const json_error_t *got, const char *what,
                              size_t i)
{
    ck_assert_msg(!strcmp(want->text, got->text), "%s, text %zu: \"%s\", expected \"%s\"", what, i,
                  got->text, want->text);
    ck_assert_int_eq(want->line, got->line);
    ck_assert_int_eq(want->column, got->column);
    ck_assert_int_eq(want->position, got->position);
}

/* The value records (.val) in the cache directory C (its docs/ under mcpdesc/). */
static size_t records(const struct tu_cache *c)
{
    char *d = xasprintf("%s/mcpdesc/docs", c->dir);
    DIR *dp = opendir(d);
    size_t n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".val");
    if (dp) closedir(dp);
    free(d);
    return n;
}

/* Each value record in C's directory overwritten by BYTES (N of them). */
static void garble_records(const struct tu_cache *c, const char *bytes, size_t n)
{
    char *d = xasprintf("%s/mcpdesc/docs", c->dir);
    DIR *dp = opendir(d);
    ck_assert_ptr_nonnull(dp);
    for (struct dirent *e; (e = readdir(dp));) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".val")) continue;
        char *p = xasprintf("%s/%s", d, e->d_name);
        FILE *f = fopen(p, "wb");
        ck_assert_ptr_nonnull(f);
        fwrite(bytes, 1, n, f);
        fclose(f);
        free(p);
    }
    closedir(dp);
    free(d);
}

static char *write_text(const char *dir, size_t i)
{
    char *path = xasprintf("%s/t%zu.json", dir, i);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(texts[i], 1, len_of(i), f), len_of(i));
    fclose(f);
    return path;
}

/* One text's file read through the loader with FLAGS, as val_load_file reads it. */
static void check_text(const char *path, size_t i, size_t flags, const char *what)
{
    json_error_t we, ge;
    json_t *want = val_load_file(path, flags, &we);
    json_t *got = rule_cache_load_json(NULL, path, flags, &ge);
    assert_same(want, got, what, i);
    if (!want) assert_same_error(&we, &ge, what, i);
    json_decref(want);
    json_decref(got);
}

/* Every text, both flag sets: parsed (and kept), then read back from what was kept, then
 * with every record garbled; each time what val_load_file gives. A text kept under one set
 * of flags is not what the other gets (a scalar file is no --ref-map document). */
START_TEST(kept_parse_is_jansson_parse)
{
    struct tu_cache c;
    tu_cache_begin(&c, "load-json");
    char tmpl[] = "/tmp/mcpdesc-load-json-files-XXXXXX";
    char *dir = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(dir);
    char *paths[NTEXTS];
    for (size_t i = 0; i < NTEXTS; i++) paths[i] = write_text(dir, i);
    static const char *const rounds[] = {"parsed", "kept", "garbled", "truncated"};
    for (size_t r = 0; r < sizeof rounds / sizeof *rounds; r++) {
        if (r == 2) garble_records(&c, "MCPDREC\nnot a record", 20);
        if (r == 3) garble_records(&c, "", 0);
        for (size_t i = 0; i < NTEXTS; i++) {
            check_text(paths[i], i, FILE_FLAGS, rounds[r]);
            check_text(paths[i], i, REF_FLAGS, rounds[r]);
        }
        if (r == 0) { /* one record per text and flags that parse, none for an error */
            size_t good = 0;
            for (size_t i = 0; i < NTEXTS; i++) {
                json_error_t e;
                for (int k = 0; k < 2; k++) {
                    json_t *v = json_loadb(texts[i], len_of(i), k ? FILE_FLAGS : REF_FLAGS, &e);
                    good += v != NULL;
                    json_decref(v);
                }
            }
            ck_assert_uint_eq(records(&c), good);
        }
    }
    /* a file that cannot be read: val_load_file's error, word for word */
    char *gone = xasprintf("%s/gone.json", dir);
    check_text(gone, NTEXTS, FILE_FLAGS, "missing");
    check_text(dir, NTEXTS, FILE_FLAGS, "a directory");
    free(gone);
    for (size_t i = 0; i < NTEXTS; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    rmdir(dir);
    tu_cache_end(&c);
}
END_TEST

/* A value kept and read back is the value, for every text that parses; with the cache
 * off nothing is kept. */
START_TEST(value_record_round_trip)
{
    struct tu_cache c;
    tu_cache_begin(&c, "load-json-value");
    char key[65];
    for (size_t i = 0; i < NTEXTS; i++) {
        json_error_t e;
        json_t *v = json_loadb(texts[i], len_of(i), FILE_FLAGS, &e);
        if (!v) continue;
        snprintf(key, sizeof key, "%064zx", i);
        ck_assert_ptr_null(doc_cache_value_get(key));
        doc_cache_value_put(key, v);
        json_t *back = doc_cache_value_get(key);
        ck_assert_ptr_nonnull(back);
        assert_same(v, back, "round trip", i);
        json_decref(back);
        json_decref(v);
    }
    setenv("MCPDESC_NO_CACHE", "1", 1);
    snprintf(key, sizeof key, "%064x", 0);
    ck_assert_ptr_null(doc_cache_value_get(key));
    unsetenv("MCPDESC_NO_CACHE");
    tu_cache_end(&c);
}
END_TEST

Suite *load_json_suite(void)
{
    Suite *s = suite_create("load_json");
    TCase *tc = tcase_create("kept");
    tcase_add_test(tc, kept_parse_is_jansson_parse);
    tcase_add_test(tc, value_record_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
