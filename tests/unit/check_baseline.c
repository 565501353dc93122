/* check_baseline.c - a loaded baseline's index by fingerprint (findings/baseline.h): entries
 * are ordered by fingerprint, then by their place in the file, whatever order the file
 * lists them in (the sort is plain qsort over (fingerprint, index) pairs: qsort_r, which
 * WebAssembly's libc lacks, is not used), and baseline_apply matches findings through it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "findings/baseline.h"
#include "testutil.h"

/* A fingerprint: "v1:" and 64 hex digits, all C */
static char *fp_of(char c)
{
    char *s = xcalloc(68, 1);
    memcpy(s, "v1:", 3);
    memset(s + 3, c, 64);
    return s;
}

/* Write a baseline whose findings have the fingerprints FPS ('a' stands for v1:aaa...),
 * in that order, the I-th with the message "mI"; return its directory (tu_rmdir it). */
static char *write_baseline(const char *fps)
{
    char tmpl[] = "/tmp/mcpdesc-baseline-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    struct buf b = BUF_INIT;
    buf_adds(&b, "{\"mcpdescBaseline\": 1, \"findings\": [");
    for (size_t i = 0; fps[i]; i++) {
        char *fp = fp_of(fps[i]);
        buf_addf(&b,
                 "%s{\"fingerprint\": \"%s\", \"rule\": \"r\", \"file\": \"s.json\", "
                 "\"item\": \"\", \"pointer\": \"/x\", \"versions\": [], \"level\": \"error\", "
                 "\"message\": \"m%zu\"}",
                 i ? ", " : "", fp, i);
        free(fp);
    }
    buf_adds(&b, "]}\n");
    tu_write_file(tmpl, "baseline.json", buf_str(&b));
    buf_release(&b);
    return xstrdup(tmpl);
}

static struct baseline *load(const char *dir)
{
    char *path = xasprintf("%s/baseline.json", dir);
    struct doc_error err;
    struct baseline *b = baseline_load(path, dir, &err);
    ck_assert_msg(b != NULL, "baseline_load: %s", err.message ? err.message : "?");
    free(path);
    return b;
}

START_TEST(test_index_sorted_by_fingerprint_then_place)
{
    char *dir = write_baseline("cabcab");
    struct baseline *b = load(dir);
    ck_assert_uint_eq(b->n, 6);
    /* a at 1 and 4, b at 2 and 5, c at 0 and 3 */
    static const size_t want[] = {1, 4, 2, 5, 0, 3};
    for (size_t i = 0; i < 6; i++)
        ck_assert_msg(b->by_fp[i] == want[i], "by_fp[%zu] is %zu, not %zu", i, b->by_fp[i],
                      want[i]);
    baseline_free(b);
    tu_rmdir(dir);
}
END_TEST

START_TEST(test_apply_finds_entries_through_the_index)
{
    char *dir = write_baseline("dbca");
    struct baseline *b = load(dir);
    struct diag_list l = {0};
    const char fps[] = "abcde"; /* e is in no entry */
    for (size_t i = 0; fps[i]; i++) {
        struct diag *d = diag_add(&l, DIAG_ERROR, "r", "s.json", 1, 1, "m");
        d->fingerprint = fp_of(fps[i]);
    }
    baseline_apply(b, "s.json", &l);
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(l.items[i].baseline == DIAG_BASELINE_UNCHANGED, "finding %c not matched",
                      fps[i]);
    ck_assert(l.items[4].baseline == DIAG_BASELINE_NEW);
    ck_assert_uint_eq(b->nunchanged, 4);
    ck_assert_uint_eq(b->nnew, 1);
    diag_list_release(&l);
    baseline_free(b);
    tu_rmdir(dir);
}
END_TEST

Suite *baseline_suite(void)
{
    Suite *s = suite_create("baseline");
    TCase *tc = tcase_create("baseline");
    tcase_add_test(tc, test_index_sorted_by_fingerprint_then_place);
    tcase_add_test(tc, test_apply_finds_entries_through_the_index);
    suite_add_tcase(s, tc);
    return s;
}
