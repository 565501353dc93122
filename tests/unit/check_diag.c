/* check_diag.c - diagnostic lists (diag.h): the order of diag_sort_merge (file, line,
 * column, rule, pointer, message; a missing rule or pointer, as a loader error has, first)
 * and its merge of diagnostics that differ only in their versions, never across levels,
 * keeping one copy of their related places (and two findings when those differ). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/util.h"

static struct diag *add(struct diag_list *l, enum diag_level level, const char *rule, uint32_t line,
                        uint32_t col, const char *pointer, const char *message, ver_mask v)
{
    struct diag *d = diag_add(l, level, rule, "a.json", line, col, message);
    d->pointer = pointer ? xstrdup(pointer) : NULL;
    d->versions = v;
    return d;
}

/* "level:rule@pointer:message:versions" for each diagnostic, space-separated (new string). */
static char *show(const struct diag_list *l)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        buf_addf(&b, "%s%s:%s@%s:%s:%x", b.len ? " " : "", diag_level_name(d->level),
                 d->rule ? d->rule : "-", d->pointer ? d->pointer : "-", d->message,
                 (unsigned)d->versions);
    }
    return buf_detach(&b);
}

static void expect(const struct diag_list *l, const char *want)
{
    char *got = show(l);
    ck_assert_msg(!strcmp(got, want), "got \"%s\", expected \"%s\"", got, want);
    free(got);
}

/* At one position, a diagnostic without a rule (a loader error) or without a pointer
 * comes before those that have one; then rule, pointer and message decide. */
START_TEST(missing_rule_or_pointer_sorts_first)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, DIAG_ERROR, "r.b", 1, 1, "/x", "m", 1);
    add(&l, DIAG_ERROR, "r.a", 1, 1, "/x", "m", 1);
    add(&l, DIAG_ERROR, NULL, 1, 1, NULL, "loader", 0);
    add(&l, DIAG_ERROR, "r.a", 1, 1, NULL, "m", 1);
    diag_sort_merge(&l);
    expect(&l, "error:-@-:loader:0 error:r.a@-:m:1 error:r.a@/x:m:1 error:r.b@/x:m:1");
    diag_list_release(&l);
}
END_TEST

/* Diagnostics that differ only in their versions merge into one with all of them; an
 * error and a warning about the same node with the same words stay two (whichever order
 * qsort leaves them in: the level is not part of the order). */
START_TEST(merge_joins_versions_within_one_level)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, DIAG_ERROR, "r.a", 2, 1, "/y", "m", 0x1);
    add(&l, DIAG_WARNING, "r.a", 2, 1, "/x", "m", 0x4);
    add(&l, DIAG_ERROR, "r.a", 2, 1, "/y", "m", 0x2);
    add(&l, DIAG_ERROR, "r.a", 2, 1, "/x", "m", 0x1);
    add(&l, DIAG_ERROR, "r.a", 2, 1, "/y", "other", 0x8);
    diag_sort_merge(&l);
    ck_assert_uint_eq(l.len, 4);
    ck_assert_uint_eq(diag_count(&l, DIAG_ERROR), 3);
    ck_assert_uint_eq(diag_count(&l, DIAG_WARNING), 1);
    char *got = show(&l);
    ck_assert_msg(
        !strcmp(got, "error:r.a@/x:m:1 warning:r.a@/x:m:4 error:r.a@/y:m:3 error:r.a@/y:other:8") ||
            !strcmp(got,
                    "warning:r.a@/x:m:4 error:r.a@/x:m:1 error:r.a@/y:m:3 error:r.a@/y:other:8"),
        "got \"%s\"", got);
    free(got);
    diag_list_release(&l);
}
END_TEST

/* "file:line:col pointer message" of each related place of D, "|"-separated (new string). */
static char *show_related(const struct diag *d)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < d->nrelated; i++) {
        const struct diag_related *r = &d->related[i];
        buf_addf(&b, "%s%s:%u:%u %s %s", i ? "|" : "", r->file, (unsigned)r->line, (unsigned)r->col,
                 r->pointer ? r->pointer : "-", r->message ? r->message : "-");
    }
    return buf_detach(&b);
}

/* Related places: copied when added (NULL pointer and message allowed); two diagnostics
 * that merge (they differ only in versions) keep the first's places, one copy, the
 * other's freed with it (the sanitizer run would see a leak or a double free); two that
 * name different places are two findings, in a fixed order whatever order they came in. */
START_TEST(merge_keeps_one_copy_of_related_places)
{
    struct diag_list l = DIAG_LIST_INIT;
    char file[] = "b.json", msg[] = "the tool \"s\" of b.json";
    struct diag *d = add(&l, DIAG_ERROR, "r.a", 3, 1, "/tools/0/name", "collides", 0x1);
    diag_add_related(d, file, 4, 15, "/tools/0/name", msg);
    file[0] = msg[0] = 'X'; /* copied, not borrowed */
    d = add(&l, DIAG_ERROR, "r.a", 3, 1, "/tools/0/name", "collides", 0x2);
    diag_add_related(d, "b.json", 4, 15, "/tools/0/name", "the tool \"s\" of b.json");
    d = add(&l, DIAG_ERROR, "r.a", 3, 1, "/tools/0/name", "collides", 0x4);
    diag_add_related(d, "c.json", 2, 3, NULL, NULL);
    diag_sort_merge(&l);
    expect(&l, "error:r.a@/tools/0/name:collides:3 error:r.a@/tools/0/name:collides:4");
    char *got = show_related(&l.items[0]);
    ck_assert_str_eq(got, "b.json:4:15 /tools/0/name the tool \"s\" of b.json");
    free(got);
    got = show_related(&l.items[1]);
    ck_assert_str_eq(got, "c.json:2:3 - -");
    free(got);
    diag_list_release(&l);

    /* the same two in the other order: the same list */
    d = add(&l, DIAG_ERROR, "r.a", 3, 1, "/tools/0/name", "collides", 0x4);
    diag_add_related(d, "c.json", 2, 3, NULL, NULL);
    d = add(&l, DIAG_ERROR, "r.a", 3, 1, "/tools/0/name", "collides", 0x1);
    diag_add_related(d, "b.json", 4, 15, "/tools/0/name", "the tool \"s\" of b.json");
    diag_sort_merge(&l);
    expect(&l, "error:r.a@/tools/0/name:collides:1 error:r.a@/tools/0/name:collides:4");
    ck_assert_uint_eq(l.items[0].nrelated, 1);
    ck_assert_str_eq(l.items[0].related[0].file, "b.json");
    diag_list_release(&l);
}
END_TEST

Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("sort-merge");
    tcase_add_test(tc, missing_rule_or_pointer_sorts_first);
    tcase_add_test(tc, merge_joins_versions_within_one_level);
    tcase_add_test(tc, merge_keeps_one_copy_of_related_places);
    suite_add_tcase(s, tc);
    return s;
}
