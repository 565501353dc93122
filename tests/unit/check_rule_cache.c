/* check_rule_cache.c - matches-schema's schemas compiled on first use (rules/fn_schema.c)
 * when a record of the files they read says those files all compiled before
 * (rules/rule_cache.c): the set's digest and verdicts are those of a load that compiles
 * every schema, and a schema file changed since is compiled at load and reported there,
 * exactly as without the record. Also the record of a data file's text that matched its
 * kind's schema (validated once), and the report of each bad phrase of a list. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "rules/rule_cache.h"
#include "rules/ruleInt.h"
#include "schema/schemaInt.h"
#include "testutil.h"

static struct tu_cache cache; /* the harness runs every suite in one process */

static void setup(void)
{
    tu_cache_begin(&cache, "rule-cache");
}

static void teardown(void)
{
    tu_cache_end(&cache);
}

static const char RULES[] = "rules:\n" TU_POINT_RULE;

static struct rule_set *load_ok(const char *dir, int cached)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_load_cached(dir, cached, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    return rs;
}

/* The one diagnostic of RS on /p = P (new), or NULL when there is none. */
static char *verdict(const struct rule_set *rs, const char *p)
{
    char *json = xasprintf("{\"p\": %s}", p);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, json, &out);
    free(json);
    ck_assert_uint_le(out.len, 1);
    char *msg = out.len ? xstrdup(out.items[0].message) : NULL;
    diag_list_release(&out);
    return msg;
}

static size_t records(void)
{
    char *d = xasprintf("%s/mcpdesc/docs", cache.dir);
    DIR *dp = opendir(d);
    free(d);
    size_t n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));) n += strstr(e->d_name, ".rec") != NULL;
    if (dp) closedir(dp);
    return n;
}

START_TEST(deferred_schemas_same_digest_and_verdicts)
{
    char *dir = tu_point_schema_set(RULES);
    struct rule_set *eager = load_ok(dir, 0); /* no record: every schema compiled at load */
    ck_assert_uint_eq(records(), 0);
    ck_assert_ptr_nonnull(strstr(rule_set_sums(eager), "schemas/num.json\n"));
    char *bad = verdict(eager, "{\"x\": \"1\"}");
    ck_assert_ptr_nonnull(bad);
    ck_assert_ptr_null(verdict(eager, "{\"x\": 1}"));

    struct rule_set *first = load_ok(dir, 1); /* compiles them all, then records their files */
    ck_assert_uint_eq(records(), 1);
    ck_assert_str_eq(rule_set_sums(first), rule_set_sums(eager));

    struct rule_set *later = load_ok(dir, 1); /* the record holds: nothing compiled yet */
    ck_assert_uint_eq(schema_ctx_file_count(rule_set_schemas(later)), 0);
    ck_assert_str_eq(rule_set_digest(later), rule_set_digest(eager));
    ck_assert_str_eq(rule_set_sums(later), rule_set_sums(eager));
    char *bad_later = verdict(later, "{\"x\": \"1\"}");
    ck_assert_ptr_nonnull(bad_later);
    ck_assert_str_eq(bad_later, bad);
    ck_assert_uint_gt(schema_ctx_file_count(rule_set_schemas(later)), 0); /* on first use */
    ck_assert_ptr_null(verdict(later, "{\"x\": 1}"));
    free(bad);
    free(bad_later);
    rule_set_free(eager);
    rule_set_free(first);
    rule_set_free(later);
    tu_rmdir(dir);
}
END_TEST

/* A file the record lists, changed since: a broken one is reported at load as without
 * the record (same errors, same places), a changed valid one judges by its new text. */
START_TEST(changed_schema_compiled_at_load)
{
    char *dir = tu_point_schema_set(RULES);
    rule_set_free(load_ok(dir, 1));
    ck_assert_uint_eq(records(), 1);
    char *sdir = xasprintf("%s/schemas", dir);
    tu_write_file(sdir, "num.json", "{\"type\": ]");
    tu_same_failure(dir, "cannot use schema");

    tu_write_file(sdir, "num.json", "{\"type\": \"string\"}");
    rule_set_free(load_ok(dir, 1)); /* compiled at load, recorded anew */
    struct rule_set *rs = load_ok(dir, 1);
    ck_assert_uint_eq(schema_ctx_file_count(rule_set_schemas(rs)), 0);
    char *v = verdict(rs, "{\"x\": \"1\"}");
    ck_assert_ptr_null(v);
    v = verdict(rs, "{\"x\": 1}");
    ck_assert_ptr_nonnull(v);
    free(v);
    rule_set_free(rs);
    free(sdir);
    tu_rmdir(dir);
}
END_TEST

/* A record only serves whole: a damaged one is another miss, and the load compiles. */
START_TEST(damaged_record_ignored)
{
    char *dir = tu_point_schema_set(RULES);
    rule_set_free(load_ok(dir, 1));
    char *d = xasprintf("%s/mcpdesc/docs", cache.dir);
    DIR *dp = opendir(d);
    ck_assert_ptr_nonnull(dp);
    for (struct dirent *e; (e = readdir(dp));) {
        if (!strstr(e->d_name, ".rec")) continue;
        char *p = xasprintf("%s/%s", d, e->d_name);
        FILE *f = fopen(p, "r+b");
        ck_assert_ptr_nonnull(f);
        fseek(f, -3, SEEK_END); /* inside the last path */
        fputc('#', f);
        fclose(f);
        free(p);
    }
    closedir(dp);
    free(d);
    struct rule_set *rs = load_ok(dir, 1);
    ck_assert_uint_gt(schema_ctx_file_count(rule_set_schemas(rs)), 0); /* compiled at load */
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

static json_t *other_loader(void *arg, const char *path, size_t flags, json_error_t *err)
{
    return val_load_file(path, flags, err);
}

/* A file told to the loader with a sha256 is read by that sha256's kept value, not from
 * disk (here it does not exist); a context without the loader, or with another loader and
 * its own argument, is left as it is. */
START_TEST(known_file_read_by_its_sha256)
{
    static const char TEXT[] = "{\"type\": \"integer\"}";
    char *dir = xasprintf("%s/known", cache.dir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    tu_write_file(dir, "a.json", TEXT);
    char *a = xasprintf("%s/a.json", dir), *b = xasprintf("%s/b.json", dir);
    schema_ctx *ctx = schema_ctx_new(NULL);
    rule_cache_use_loader(ctx);
    json_error_t err;
    json_t *va = schema_ctx_load_file(ctx, a, 0, &err); /* parsed and kept by its sha256 */
    ck_assert_ptr_nonnull(va);
    ck_assert_ptr_null(schema_ctx_load_file(ctx, b, 0, &err)); /* not told: read, absent */

    struct rule_cache_files files = {VEC_INIT};
    struct rule_cache_file f = {xstrdup(b), ""};
    rule_sha256_hex(TEXT, strlen(TEXT), f.hex);
    VEC_PUSH(files.v, f);
    rule_cache_known_add(ctx, &files);
    json_t *vb = schema_ctx_load_file(ctx, b, 0, &err);
    ck_assert_ptr_nonnull(vb);
    ck_assert(json_equal(va, vb));
    json_decref(vb);

    schema_ctx *plain = schema_ctx_new(NULL); /* the cache off: no loader */
    rule_cache_known_add(plain, &files);
    ck_assert_ptr_null(schema_ctx_load_file(plain, b, 0, &err));
    schema_ctx_free(plain);
    static unsigned char other_arg[64]; /* another loader's argument: not a file list */
    schema_ctx *other = schema_ctx_new(NULL);
    schema_ctx_set_loader(other, other_loader, other_arg, NULL);
    rule_cache_known_add(other, &files);
    for (size_t i = 0; i < sizeof other_arg; i++) ck_assert_uint_eq(other_arg[i], 0);
    ck_assert_ptr_null(schema_ctx_load_file(other, b, 0, &err));
    schema_ctx_free(other);
    rule_cache_files_release(&files);
    json_decref(va);
    schema_ctx_free(ctx);
    free(a);
    free(b);
    tu_rmdir(dir);
}
END_TEST

/* ---- data files recorded as valid (rules/rule_data_load.c, rule_cache_data_valid) ---- */

static const char LISTS_OK[] = "kind: phrase-lists\nlists:\n  l:\n    phrases: [ignore "
                               "previous instructions]\n";
/* The same list with a number where a phrase goes: not the list schema's. */
static const char LISTS_BAD[] = "kind: phrase-lists\nlists:\n  l:\n    phrases: [ignore "
                                "previous instructions, 7]\n";

static const char PLAIN_RULES[] =
    "rules:\n  - id: t.named\n    owner: t\n    surface: Tool\n    kind: structural\n"
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
    "    check:\n      select: /tools/*\n      require: {has: name}\n"
    "      message: 'no name'\n";

/* A set of one rule file and the data file lists.yaml holding TEXT. */
static char *data_set(const char *text)
{
    const char *files[] = {"t.yaml"};
    const char *texts[] = {PLAIN_RULES};
    char *dir = tu_rule_dir(files, texts, 1);
    tu_manifest_add(dir, "data: {lists: lists.yaml}\n");
    tu_write_file(dir, "lists.yaml", text);
    return dir;
}

static void sha_of(const char *text, char hex[65])
{
    rule_sha256_hex(text, strlen(text), hex);
}

/* A data file that matched is recorded by its text and loads again from the record; one
 * that did not is reported on every load (never recorded), and the valid text after it
 * still loads. */
START_TEST(data_file_valid_by_record)
{
    char ok_hex[65], bad_hex[65];
    sha_of(LISTS_OK, ok_hex);
    sha_of(LISTS_BAD, bad_hex);
    char *dir = data_set(LISTS_OK);
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", ok_hex), 0);
    rule_set_free(load_ok(dir, 1));
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", ok_hex), 1);
    ck_assert_int_eq(rule_cache_data_valid("unicode-classes", ok_hex), 0); /* kind in key */
    rule_set_free(load_ok(dir, 1));                                        /* from the record */

    tu_write_file(dir, "lists.yaml", LISTS_BAD);
    for (int round = 0; round < 2; round++) {
        struct diag_list errs = DIAG_LIST_INIT;
        struct rule_set *rs = tu_load_cached(dir, 1, &errs);
        ck_assert_ptr_null(rs);
        ck_assert_uint_ge(errs.len, 1);
        ck_assert_msg(strstr(errs.items[0].message,
                             "the data file does not match schema/data-phrase-lists") != NULL,
                      "%s", errs.items[0].message);
        diag_list_release(&errs);
        ck_assert_int_eq(rule_cache_data_valid("phrase-lists", bad_hex), 0);
    }
    tu_write_file(dir, "lists.yaml", LISTS_OK);
    rule_set_free(load_ok(dir, 1));
    tu_rmdir(dir);
}
END_TEST

/* With the cache off nothing is recorded or found, nor for a text not read (no sha256). */
START_TEST(data_record_off_or_empty)
{
    char hex[65];
    sha_of(LISTS_OK, hex);
    setenv("MCPDESC_NO_CACHE", "1", 1);
    rule_cache_data_valid_put("phrase-lists", hex);
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", hex), 0);
    unsetenv("MCPDESC_NO_CACHE");
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", hex), 0);
    char unread[65] = ""; /* a file not read: nothing */
    rule_cache_data_valid_put("phrase-lists", unread);
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", unread), 0);
    ck_assert_uint_eq(records(), 0);
    rule_cache_data_valid_put("phrase-lists", hex);
    ck_assert_int_eq(rule_cache_data_valid("phrase-lists", hex), 1);
    ck_assert_uint_eq(records(), 1);
}
END_TEST

/* Every phrase of a list that does not parse is reported at its place (the set's
 * compile fails on the first; each is then parsed to say where). */
START_TEST(data_every_bad_phrase_reported)
{
    char *dir = data_set("kind: phrase-lists\nlists:\n  l:\n    phrases:\n      - a (b\n"
                         "      - fine words\n      - c?\n");
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_load_cached(dir, 0, &errs);
    ck_assert_ptr_null(rs);
    ck_assert_uint_eq(errs.len, 2);
    ck_assert_msg(strstr(errs.items[0].message, "\"a (b\": a group ( ... ) is not closed") != NULL,
                  "%s", errs.items[0].message);
    ck_assert_uint_eq(errs.items[0].line, 5);
    ck_assert_msg(strstr(errs.items[1].message, "\"c?\"") != NULL, "%s", errs.items[1].message);
    ck_assert_uint_eq(errs.items[1].line, 7);
    diag_list_release(&errs);
    tu_rmdir(dir);
}
END_TEST

Suite *rule_cache_suite(void)
{
    Suite *s = suite_create("rule_cache");
    TCase *tc = tcase_create("deferred");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, deferred_schemas_same_digest_and_verdicts);
    tcase_add_test(tc, changed_schema_compiled_at_load);
    tcase_add_test(tc, damaged_record_ignored);
    tcase_add_test(tc, known_file_read_by_its_sha256);
    tcase_add_test(tc, data_file_valid_by_record);
    tcase_add_test(tc, data_record_off_or_empty);
    tcase_add_test(tc, data_every_bad_phrase_reported);
    suite_add_tcase(s, tc);
    return s;
}
