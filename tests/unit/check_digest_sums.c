/* check_digest_sums.c - the sha256s a load takes of files it reads only to hash them (a
 * set's fixtures, the files of the schema record), kept by each file's identity from one
 * stat (rules/rule_cache.c, rule_sums): a set's digest is the one a load that reads
 * every file computes, whatever the record says: a file edited in place (same size, its
 * mtime set back) is hashed again, a file changed within the settling time is never
 * recorded, and a record that does not read exactly as written is not used. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "doc/doc.h"
#include "rules/rule_cache.h"
#include "rules/ruleInt.h"
#include "testutil.h"

static struct tu_cache cache; /* the harness runs every suite in one process */
static long long saved_settle;

static void setup(void)
{
    tu_cache_begin(&cache, "digest-sums");
    saved_settle = rule_sums_settle_ns;
}

static void teardown(void)
{
    rule_sums_settle_ns = saved_settle;
    tu_cache_end(&cache);
}

static const char RULES[] =
    "rules:\n  - id: t.named\n    owner: t\n    surface: Tool\n    kind: structural\n"
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
    "    check:\n      select: /tools/*\n      require: {has: name}\n"
    "      message: 'no name'\n"
    "    examples:\n      - {expect: invalid, fixture: bad/a.json, pointer: /tools/0}\n";

static const char FIXTURE[] = "{\"tools\": [{\"title\": \"aaaa\"}]}\n";
static const char EDITED[] = "{\"tools\": [{\"title\": \"bbbb\"}]}\n"; /* the same size */

/* A set whose one example cites fx/bad/a.json (manifest `fixtures: fx`). */
static char *fixture_set(void)
{
    const char *files[] = {"t.yaml"};
    const char *texts[] = {RULES};
    char *dir = tu_rule_dir(files, texts, 1);
    tu_manifest_add(dir, "fixtures: fx\n");
    char *fx = xasprintf("%s/fx", dir), *bad = xasprintf("%s/fx/bad", dir);
    ck_assert_int_eq(mkdir(fx, 0700), 0);
    ck_assert_int_eq(mkdir(bad, 0700), 0);
    tu_write_file(bad, "a.json", FIXTURE);
    free(fx);
    free(bad);
    return dir;
}

/* The set's digest (new), loaded with the records (CACHED) or with nothing kept. */
static char *digest(const char *dir, int cached)
{
    if (!cached) setenv("MCPDESC_NO_CACHE", "1", 1);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    unsetenv("MCPDESC_NO_CACHE");
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    char *d = xstrdup(rule_set_digest(rs));
    rule_set_free(rs);
    return d;
}

/* The records of the cache directory, their bytes one after another (new). */
static char *all_records(void)
{
    char *d = xasprintf("%s/mcpdesc/docs", cache.dir);
    DIR *dp = opendir(d);
    struct buf all = BUF_INIT;
    for (struct dirent *e; dp && (e = readdir(dp));) {
        if (!strstr(e->d_name, ".rec")) continue;
        char *p = xasprintf("%s/%s", d, e->d_name), *data;
        size_t len;
        ck_assert_int_eq(rule_file_read(p, &data, &len), 0);
        for (size_t i = 0; i < len; i++) buf_addc(&all, data[i] ? data[i] : ' ');
        free(data);
        free(p);
    }
    if (dp) closedir(dp);
    free(d);
    buf_addc(&all, '\0');
    return buf_detach(&all);
}

/* The fixture recorded (no settling time), then edited in place: the digest is the one
 * of its new bytes, as a load without records computes it. */
START_TEST(fixture_edited_in_place_new_digest)
{
    rule_sums_settle_ns = 0;
    char *dir = fixture_set();
    char *truth = digest(dir, 0), *first = digest(dir, 1);
    ck_assert_str_eq(first, truth);
    char *recs = all_records();
    ck_assert_msg(strstr(recs, "fx/bad/a.json\n") != NULL, "the fixture was not recorded");
    free(recs);
    char *again = digest(dir, 1); /* from the record */
    ck_assert_str_eq(again, truth);

    char *fx = xasprintf("%s/fx/bad/a.json", dir);
    tu_edit_in_place(fx, EDITED);
    char *truth2 = digest(dir, 0), *after = digest(dir, 1);
    ck_assert_str_ne(truth2, truth);
    ck_assert_str_eq(after, truth2);
    char *later = digest(dir, 1); /* the record written anew */
    ck_assert_str_eq(later, truth2);
    free(fx);
    free(truth);
    free(first);
    free(again);
    free(truth2);
    free(after);
    free(later);
    tu_rmdir(dir);
}
END_TEST

/* With the settling time, a file just written is hashed on every load and not recorded:
 * a change within its clock tick could keep its identity. */
START_TEST(fresh_file_not_recorded)
{
    rule_sums_settle_ns = 3600LL * 1000000000LL; /* every file here is newer than that */
    char *dir = fixture_set();
    char *truth = digest(dir, 0), *got = digest(dir, 1);
    ck_assert_str_eq(got, truth);
    char *recs = all_records();
    ck_assert_msg(strstr(recs, "fx/bad/a.json") == NULL, "a fresh file was recorded");
    free(recs);
    free(truth);
    free(got);
    tu_rmdir(dir);
}
END_TEST

/* The record of DIR made by hand: HEAD, then the line of PATH with its identity as stat
 * gives it and the sha256 HEX. */
static void put_record(const char *dir, const char *head, const char *path, const char *hex)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    char *text =
        xasprintf("%s%lld %lld %lld %lld %lld %lld %lld %lld %s %s\n", head, (long long)st.st_dev,
                  (long long)st.st_ino, (long long)st.st_mode, (long long)st.st_size,
                  (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec,
                  (long long)st.st_ctim.tv_sec, (long long)st.st_ctim.tv_nsec, hex, path);
    char key[65];
    rule_sums_key(dir, key);
    doc_cache_record_put(key, text, strlen(text));
    free(text);
}

/* The sha256 of PATH through DIR's record. */
static void sum_of(const char *dir, const char *path, char out[65])
{
    struct rule_sums *s = rule_sums_open(dir);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(rule_sums_file_hex(s, path, out), 0);
    rule_sums_close(s);
}

static const char FORGED[] = "0000000000000000000000000000000000000000000000000000000000000000";

/* A record is used only as written: one that says its entries are older than a moment
 * they are not, or does not parse, or lists another file under the path, is not. */
START_TEST(record_used_only_as_written)
{
    rule_sums_settle_ns = 0;
    char *dir = fixture_set();
    char *path = xasprintf("%s/fx/bad/a.json", dir), *data, real[65], got[65];
    size_t len;
    ck_assert_int_eq(rule_file_read(path, &data, &len), 0);
    rule_sha256_hex(data, len, real);
    free(data);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    long long late = (long long)st.st_ctim.tv_sec + 10;
    char *settled = xasprintf("mcpdesc file sums 1\nsettled %lld 0\n", late);

    /* as written: used (what the record says is what a load takes) */
    put_record(dir, settled, path, FORGED);
    sum_of(dir, path, got);
    ck_assert_str_eq(got, FORGED);

    /* an entry not older than the record's moment: the record is refused */
    char *racy = xasprintf("mcpdesc file sums 1\nsettled %lld %lld\n", (long long)st.st_ctim.tv_sec,
                           (long long)st.st_ctim.tv_nsec);
    put_record(dir, racy, path, FORGED);
    sum_of(dir, path, got);
    ck_assert_str_eq(got, real);

    /* garbled: another head, a number cut */
    put_record(dir, "mcpdesc file sums 2\nsettled 1 0\n", path, FORGED);
    sum_of(dir, path, got);
    ck_assert_str_eq(got, real);
    char key[65];
    rule_sums_key(dir, key);
    char *cut = xasprintf("mcpdesc file sums 1\nsettled %lld 0\n12 x %s %s\n", late, FORGED, path);
    doc_cache_record_put(key, cut, strlen(cut));
    sum_of(dir, path, got);
    ck_assert_str_eq(got, real);

    /* another file under the path (the one recorded was replaced by a rename) */
    put_record(dir, settled, path, FORGED);
    char *other = xasprintf("%s/fx/bad/b.json", dir);
    tu_write_file(dir, "fx/bad/b.json", FIXTURE);
    ck_assert_int_eq(rename(other, path), 0);
    sum_of(dir, path, got);
    ck_assert_str_eq(got, real);

    free(other);
    free(cut);
    free(racy);
    free(settled);
    free(path);
    tu_rmdir(dir);
}
END_TEST

Suite *digest_sums_suite(void)
{
    Suite *s = suite_create("digest_sums");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fixture_edited_in_place_new_digest);
    tcase_add_test(tc, fresh_file_not_recorded);
    tcase_add_test(tc, record_used_only_as_written);
    suite_add_tcase(s, tc);
    return s;
}
