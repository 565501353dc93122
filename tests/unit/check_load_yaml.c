/* check_load_yaml.c - a rule set's YAML files found in the doc cache by the sha256 kept
 * with their identity (rules/rule_set_load.c, load_rule_yaml; rules/rule_cache.c,
 * rule_sums_known; doc/doc_load.c, doc_load_file_known): a load judges by the rule
 * file's bytes and gives the digest a load that hashes every file gives, after the file
 * was edited in place (same size, its mtime set back); a sha256 the record gives for
 * which the cache holds no document is not trusted for the parse (the bytes are hashed,
 * and nothing is kept under it); a fresh file is hashed on every load. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "doc/doc.h"
#include "rules/rule_cache.h"
#include "rules/ruleInt.h"
#include "testutil.h"

static struct tu_cache cache; /* the harness runs every suite in one process */
static long long saved_settle;

static void setup(void)
{
    tu_cache_begin(&cache, "load-yaml");
    saved_settle = rule_sums_settle_ns;
}

static void teardown(void)
{
    rule_sums_settle_ns = saved_settle;
    tu_cache_end(&cache);
}

#define RULES(MSG)                                                                                 \
    "rules:\n  - id: t.named\n    owner: t\n    surface: Tool\n    kind: structural\n"             \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check:\n      select: /tools/*\n      require: {has: name}\n"                             \
    "      message: '" MSG "'\n"

static const char DOC[] = "{\"tools\": [{\"title\": \"t\"}]}";

/* A set of one rule file, t.yaml, whose message is MSG. */
static char *rule_set_with(const char *text)
{
    const char *files[] = {"t.yaml"};
    const char *texts[] = {text};
    return tu_rule_dir(files, texts, 1);
}

/* DIR's set loaded with the records (CACHED) or with nothing kept: its digest (new) and
 * the message of its one diagnostic on DOC (new). */
static char *load_digest(const char *dir, int cached, char **message)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_load_cached(dir, cached, &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(rs, DOC, &out);
    ck_assert_uint_eq(out.len, 1);
    *message = xstrdup(out.items[0].message);
    diag_list_release(&out);
    char *d = xstrdup(rule_set_digest(rs));
    rule_set_free(rs);
    return d;
}

/* Recorded (no settling time), read back by identity, then edited in place: each load
 * judges by the file's bytes and has the digest of a load that keeps nothing. */
START_TEST(rule_file_edited_in_place)
{
    rule_sums_settle_ns = 0;
    char *dir = rule_set_with(RULES("no name"));
    char *m0, *m1, *m2;
    char *truth = load_digest(dir, 0, &m0), *first = load_digest(dir, 1, &m1);
    char *again = load_digest(dir, 1, &m2); /* t.yaml by its identity */
    ck_assert_str_eq(first, truth);
    ck_assert_str_eq(again, truth);
    ck_assert_str_eq(m1, "no name");
    ck_assert_str_eq(m2, "no name");
    char known[65];
    char *path = xasprintf("%s/t.yaml", dir);
    struct rule_sums *s = rule_sums_open(dir);
    ck_assert_int_eq(rule_sums_known(s, path, known), 1); /* recorded */
    rule_sums_close(s);

    tu_edit_in_place(path, RULES("no nome"));
    char *m3, *m4, *m5;
    char *truth2 = load_digest(dir, 0, &m3), *after = load_digest(dir, 1, &m4);
    char *later = load_digest(dir, 1, &m5); /* recorded anew */
    ck_assert_str_ne(truth2, truth);
    ck_assert_str_eq(after, truth2);
    ck_assert_str_eq(later, truth2);
    ck_assert_str_eq(m3, "no nome");
    ck_assert_str_eq(m4, "no nome");
    ck_assert_str_eq(m5, "no nome");
    free(path);
    free(truth);
    free(first);
    free(again);
    free(truth2);
    free(after);
    free(later);
    free(m0);
    free(m1);
    free(m2);
    free(m3);
    free(m4);
    free(m5);
    tu_rmdir(dir);
}
END_TEST

static const char FORGED[] = "0000000000000000000000000000000000000000000000000000000000000000";

/* The doc cache's documents (".doc") named by HEX, in the test's cache. */
static size_t entries_named(const char *hex)
{
    char *d = xasprintf("%s/mcpdesc/docs", cache.dir);
    DIR *dp = opendir(d);
    size_t n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += !strncmp(e->d_name, hex, 64) && strstr(e->d_name, ".doc") != NULL;
    if (dp) closedir(dp);
    free(d);
    return n;
}

/* The decimal digits of V (unsigned, up to 2^128) into OUT. */
static void dec128(unsigned __int128 v, char out[48])
{
    char tmp[48];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

/* DIR's record of sums written by hand, settled at SETTLED (digits): one line, PATH's
 * identity from a stat now but for its device number DEV (digits), and FORGED as its
 * sha256. */
static void forge_record(const char *dir, const char *path, const char *dev, const char *settled)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    char *text = xasprintf("mcpdesc file sums 1\nsettled %s 0\n"
                           "%s %lld %lld %lld %lld %lld %lld %lld %s %s\n",
                           settled, dev, (long long)st.st_ino, (long long)st.st_mode,
                           (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                           (long long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
                           (long long)st.st_ctim.tv_nsec, FORGED, path);
    char key[65];
    rule_sums_key(dir, key);
    doc_cache_record_put(key, text, strlen(text));
    free(text);
}

/* A record whose sha256 for t.yaml has no document in the cache (its entry removed, or a
 * record that lies): the bytes are parsed and hashed, the digest is theirs, and nothing
 * is kept under the record's sha256. */
START_TEST(known_sha_without_document_not_trusted)
{
    rule_sums_settle_ns = 0;
    char *dir = rule_set_with(RULES("no name"));
    char *m0, *m1, *m2;
    char *truth = load_digest(dir, 0, &m0);
    char *path = xasprintf("%s/t.yaml", dir);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    char dev[48], settled[48];
    dec128((unsigned __int128)st.st_dev, dev);
    dec128((unsigned __int128)st.st_ctim.tv_sec + 10, settled);
    forge_record(dir, path, dev, settled);
    char known[65];
    struct rule_sums *s = rule_sums_open(dir);
    ck_assert_int_eq(rule_sums_known(s, path, known), 1); /* the record is taken as it is */
    ck_assert_str_eq(known, FORGED);
    rule_sums_close(s);
    char *got = load_digest(dir, 1, &m1);
    ck_assert_str_eq(got, truth);
    ck_assert_str_eq(m1, "no name");
    ck_assert_uint_eq(entries_named(FORGED), 0);
    char *again = load_digest(dir, 1, &m2);
    ck_assert_str_eq(again, truth);
    free(path);
    free(truth);
    free(got);
    free(again);
    free(m0);
    free(m1);
    free(m2);
    tu_rmdir(dir);
}
END_TEST

/* With the settling time, a rule file just written is hashed on every load and never
 * recorded: a change within its clock tick could keep its identity. */
START_TEST(fresh_rule_file_not_recorded)
{
    rule_sums_settle_ns = 3600LL * 1000000000LL; /* every file here is newer than that */
    char *dir = rule_set_with(RULES("no name"));
    char *m0, *m1;
    char *truth = load_digest(dir, 0, &m0), *got = load_digest(dir, 1, &m1);
    ck_assert_str_eq(got, truth);
    char *path = xasprintf("%s/t.yaml", dir);
    char known[65];
    struct rule_sums *s = rule_sums_open(dir);
    ck_assert_int_eq(rule_sums_known(s, path, known), 0);
    rule_sums_close(s);
    free(path);
    free(truth);
    free(got);
    free(m0);
    free(m1);
    tu_rmdir(dir);
}
END_TEST

/* t.yaml's record written by hand with its device number DEV (digits) and settled at S:
 * is it taken (rule_sums_known)? */
static int taken_with(const char *dir, const char *path, const char *dev, const char *s)
{
    forge_record(dir, path, dev, s);
    char known[65];
    struct rule_sums *sums = rule_sums_open(dir);
    int taken = rule_sums_known(sums, path, known);
    rule_sums_close(sums);
    return taken;
}

/* A record's numbers are read as written: up to LLONG_MAX, digits only; one past it
 * (or 2^64 past the true one), a sign, a space or another character refuses the record. */
START_TEST(record_numbers_read_exactly)
{
    char *dir = rule_set_with(RULES("no name"));
    char *path = xasprintf("%s/t.yaml", dir);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    char dev[48], wrapped[48], dev0[56];
    dec128((unsigned __int128)st.st_dev, dev);
    dec128((unsigned __int128)st.st_dev + ((unsigned __int128)1 << 64), wrapped);
    snprintf(dev0, sizeof dev0, "000%s", dev);
    ck_assert_int_eq(taken_with(dir, path, dev, "9223372036854775807"), 1);
    ck_assert_int_eq(taken_with(dir, path, dev0, "9223372036854775807"), 1); /* zeros first */
    ck_assert_int_eq(taken_with(dir, path, dev, "9223372036854775808"), 0);
    ck_assert_int_eq(taken_with(dir, path, dev, "99999999999999999999"), 0);
    ck_assert_int_eq(taken_with(dir, path, wrapped, "9223372036854775807"), 0);
    ck_assert_int_eq(taken_with(dir, path, dev, "+9223372036854775807"), 0);
    ck_assert_int_eq(taken_with(dir, path, dev, " 9223372036854775807"), 0);
    ck_assert_int_eq(taken_with(dir, path, dev, "9223372036854775807x"), 0);
    ck_assert_int_eq(taken_with(dir, path, dev, ""), 0);
    free(path);
    tu_rmdir(dir);
}
END_TEST

Suite *load_yaml_suite(void)
{
    Suite *s = suite_create("load_yaml");
    TCase *tc = tcase_create("identity");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rule_file_edited_in_place);
    tcase_add_test(tc, known_sha_without_document_not_trusted);
    tcase_add_test(tc, fresh_rule_file_not_recorded);
    tcase_add_test(tc, record_numbers_read_exactly);
    suite_add_tcase(s, tc);
    return s;
}
