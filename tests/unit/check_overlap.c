/* check_overlap.c - the yields-to post-pass (overlap.h) and the loader's checks of
 * `yields-to` (rules/rule_compile.c): a general rule's diagnostic is dropped, or loses versions, where
 * a kept diagnostic of a rule it yields to is about the same value (the same node or
 * below it); a diagnostic elsewhere in the item never is; nothing else changes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "judge/overlap.h"
#include "testutil.h"
#include "base/util.h"

#define RULE(ID, EXTRA)                                                                  \
    "  - id: " ID "\n"                                                                   \
    "    owner: test\n    surface: Tool\n    kind: structural\n    level: must\n"        \
    "    status: stable\n    enforcement: internal\n    applies: all\n"                  \
    "    summary: s\n    requirement: r\n"                                              \
    "    based-on: [{tier: 1, text: test}]\n" EXTRA                                      \
    "    check: {require: {json-type: object}, message: m}\n"

static const char *set_text =
    "rules:\n"
    RULE("test.general", "    yields-to: [test.specific.*, test.exact]\n")
    RULE("test.specific.a", "")
    RULE("test.specific.b", "")
    RULE("test.exact", "")
    RULE("test.other", "")
    RULE("test.general2", "    yields-to: [test.mid]\n")
    RULE("test.mid", "    yields-to: [test.leaf]\n")
    RULE("test.leaf", "")
    RULE("test.ping", "    yields-to: [test.pong]\n")
    RULE("test.pong", "    yields-to: [test.ping]\n");

static struct rule_set *rs;

static void setup(void)
{
    struct diag_list errs = DIAG_LIST_INIT;
    unsetenv("MCPDESC_NO_OVERLAP"); /* the post-pass is on unless a test says otherwise */
    rs = tu_rules(set_text, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
}

static void teardown(void) { rule_set_free(rs); }

static void add(struct diag_list *l, const char *file, const char *rule, const char *pointer, ver_mask v)
{
    struct diag *d = diag_add(l, DIAG_ERROR, rule, file, 1, 1, "m");
    d->pointer = pointer ? xstrdup(pointer) : NULL;
    d->versions = v;
}

/* "rule@pointer:versions" for each diagnostic from FROM, space-separated (new string). */
static char *show(const struct diag_list *l, size_t from)
{
    struct buf b = BUF_INIT;
    for (size_t i = from; i < l->len; i++)
        buf_addf(&b, "%s%s@%s:%x", b.len ? " " : "", l->items[i].rule ? l->items[i].rule : "-",
                 l->items[i].pointer ? l->items[i].pointer : "-", (unsigned)l->items[i].versions);
    return buf_detach(&b);
}

static void expect(const struct diag_list *l, size_t from, const char *want)
{
    char *got = show(l, from);
    ck_assert_msg(!strcmp(got, want), "got \"%s\", expected \"%s\"", got, want);
    free(got);
}

START_TEST(same_node_or_below_removes_versions)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/0", 0x7);
    add(&l, "a.json", "test.specific.a", "/tools/0/inputSchema", 0x1);
    add(&l, "a.json", "test.exact", "/tools/0", 0x2);
    add(&l, "a.json", "test.general", "/tools/1", 0x3);
    add(&l, "a.json", "test.specific.b", "/tools/1", 0x3);
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 1);
    expect(&l, 0, "test.general@/tools/0:4 test.specific.a@/tools/0/inputSchema:1 "
                  "test.exact@/tools/0:2 test.specific.b@/tools/1:3");
    diag_list_release(&l);
}
END_TEST

START_TEST(unrelated_rules_siblings_and_ancestors_do_not_cover)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/1", 0x1);
    add(&l, "a.json", "test.other", "/tools/1", 0x1);         /* not yielded to */
    add(&l, "a.json", "test.specific.a", "/tools/10", 0x1);   /* a sibling, not below */
    add(&l, "a.json", "test.specific.a", "/tools", 0x1);      /* an ancestor */
    add(&l, "b.json", "test.specific.a", "/tools/1", 0x1);    /* another file */
    add(&l, "a.json", NULL, NULL, 0);                         /* a loader error */
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 0);
    ck_assert_uint_eq(l.len, 6);
    ck_assert_uint_eq(l.items[0].versions, 1);
    diag_list_release(&l);
}
END_TEST

START_TEST(only_from_index_on_and_specific_rules_untouched)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/0", 0x1);       /* an earlier document: kept */
    add(&l, "a.json", "test.specific.a", "/tools/0", 0x1);    /* ... and covers nothing later */
    add(&l, "a.json", "test.general", "/tools/0", 0x1);
    add(&l, "a.json", "test.general", "", 0x2);               /* the root is above everything */
    add(&l, "a.json", "test.specific.a", "/x/y", 0x2);
    ck_assert_uint_eq(overlap_filter(rs, &l, 2), 1);
    expect(&l, 0, "test.general@/tools/0:1 test.specific.a@/tools/0:1 test.general@/tools/0:1 "
                  "test.specific.a@/x/y:2");
    ck_assert_uint_eq(overlap_filter(rs, &l, 7), 0);          /* past the end: nothing */
    diag_list_release(&l);
}
END_TEST

/* The audit's case: a warning about the schema does not hide a type error elsewhere in
 * the tool, nor does an error about the whole tool; only what is about the failing value
 * (that node or inside it) does. */
START_TEST(only_the_same_value_covers)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/0/description", 0x1f);
    add(&l, "a.json", "test.specific.a", "/tools/0/inputSchema", 0x18);   /* elsewhere */
    add(&l, "a.json", "test.specific.b", "/tools/0", 0x1f);               /* the item */
    add(&l, "a.json", "test.exact", "/tools/0/descriptionx", 0x1f);       /* a prefix only */
    add(&l, "a.json", "test.general", "/tools/0/icons/0/sizes", 0x18);
    add(&l, "a.json", "test.specific.a", "/tools/0/icons/0/sizes/1", 0x08); /* inside it */
    add(&l, "a.json", "test.specific.b", "/tools/0/icons/0", 0x10);       /* around it */
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 0);
    expect(&l, 0, "test.general@/tools/0/description:1f test.specific.a@/tools/0/inputSchema:18 "
                  "test.specific.b@/tools/0:1f test.exact@/tools/0/descriptionx:1f "
                  "test.general@/tools/0/icons/0/sizes:10 test.specific.a@/tools/0/icons/0/sizes/1:8 "
                  "test.specific.b@/tools/0/icons/0:10");
    diag_list_release(&l);
}
END_TEST

/* A diagnostic yields only to what is still reported: what it yields to is decided first
 * (deeper pointers first), and of two that yield to each other at one pointer the later
 * stays, so a value never loses every diagnostic. */
START_TEST(yields_only_to_kept_diagnostics)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general2", "/x", 0x3);
    add(&l, "a.json", "test.mid", "/x/y", 0x3);      /* dropped for 1, kept for 2 */
    add(&l, "a.json", "test.leaf", "/x/y/z", 0x1);
    add(&l, "a.json", "test.ping", "/p", 0x1);
    add(&l, "a.json", "test.pong", "/p", 0x1);
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 1);
    expect(&l, 0, "test.general2@/x:1 test.mid@/x/y:2 test.leaf@/x/y/z:1 test.pong@/p:1");
    diag_list_release(&l);
}
END_TEST

/* A diagnostic without versions (none to subtract) yields to any kept diagnostic about
 * its value, and to nothing else; a versioned one loses nothing to a versionless one. */
START_TEST(versionless_diagnostics)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/0", 0);
    add(&l, "a.json", "test.specific.a", "/tools/0/name", 0x1); /* covers the one above */
    add(&l, "a.json", "test.general", "/tools/1", 0);           /* nothing about it: kept */
    add(&l, "a.json", "test.specific.a", "/tools/2", 0x1);      /* a sibling's, not its */
    add(&l, "a.json", "test.general", "/tools/3", 0x3);
    add(&l, "a.json", "test.specific.b", "/tools/3/x", 0);      /* takes no version */
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 1);
    expect(&l, 0, "test.specific.a@/tools/0/name:1 test.general@/tools/1:0 "
                  "test.specific.a@/tools/2:1 test.general@/tools/3:3 test.specific.b@/tools/3/x:0");
    diag_list_release(&l);
}
END_TEST

/* A dropped diagnostic covers nothing: a versionless one whose only yielded-to
 * diagnostic about its value was itself dropped stays (for a versioned one a dropped
 * diagnostic has no version left to take anyway). */
START_TEST(versionless_yields_not_to_a_dropped_one)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general2", "/x", 0);
    add(&l, "a.json", "test.mid", "/x/y", 0x1);     /* dropped: test.leaf covers it */
    add(&l, "a.json", "test.leaf", "/x/y/z", 0x1);  /* test.general2 does not yield to it */
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 1);
    expect(&l, 0, "test.general2@/x:0 test.leaf@/x/y/z:1");
    diag_list_release(&l);
}
END_TEST

/* A rule whose yields-to prefix matches its own id still never yields to itself: not to
 * the diagnostic itself, nor to its own diagnostics below it. */
START_TEST(a_diagnostic_never_covers_itself)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *self = tu_rules("rules:\n" RULE("self.all", "    yields-to: [self.*]\n") RULE("self.b", ""), &errs);
    ck_assert_msg(self != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "self.all", "/a", 0x1);
    add(&l, "a.json", "self.all", "/a/x", 0x1);
    add(&l, "a.json", "self.all", "/b", 0x1);
    add(&l, "a.json", "self.b", "/b/c", 0x1);
    ck_assert_uint_eq(overlap_filter(self, &l, 0), 1);
    expect(&l, 0, "self.all@/a:1 self.all@/a/x:1 self.b@/b/c:1");
    diag_list_release(&l);
    rule_set_free(self);
}
END_TEST

/* MCPDESC_NO_OVERLAP switches the post-pass off (tests/overlap-invariant.sh). */
START_TEST(no_overlap_environment)
{
    struct diag_list l = DIAG_LIST_INIT;
    add(&l, "a.json", "test.general", "/tools/0", 0x1);
    add(&l, "a.json", "test.exact", "/tools/0", 0x1);
    ck_assert_int_eq(setenv("MCPDESC_NO_OVERLAP", "1", 1), 0);
    ck_assert_int_eq(overlap_disabled(), 1);
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 0);
    ck_assert_uint_eq(l.len, 2);
    ck_assert_int_eq(setenv("MCPDESC_NO_OVERLAP", "0", 1), 0);
    ck_assert_int_eq(overlap_disabled(), 0);
    ck_assert_int_eq(setenv("MCPDESC_NO_OVERLAP", "", 1), 0);
    ck_assert_int_eq(overlap_disabled(), 0);
    ck_assert_int_eq(unsetenv("MCPDESC_NO_OVERLAP"), 0);
    ck_assert_uint_eq(overlap_filter(rs, &l, 0), 1);
    expect(&l, 0, "test.exact@/tools/0:1");
    diag_list_release(&l);
}
END_TEST

static int only(const char *id, void *arg) { return !strcmp(id, (const char *)arg); }
static int all_but(const char *id, void *arg) { return strcmp(id, (const char *)arg) != 0; }

/* --rule/--skip: the rules a selection yields to run too, transitively. */
static char *required(int (*enabled)(const char *, void *), const char *arg)
{
    unsigned char *need = overlap_required(rs, enabled, (void *)arg);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (need[i]) buf_addf(&b, "%s%s", b.len ? " " : "", rule_id(rule_set_rule(rs, i)));
    free(need);
    return buf_detach(&b);
}

START_TEST(required_rules_for_a_selection)
{
    char *got = required(only, "test.general");
    ck_assert_str_eq(got, "test.general test.specific.a test.specific.b test.exact");
    free(got);
    got = required(only, "test.general2");
    ck_assert_str_eq(got, "test.general2 test.mid test.leaf");
    free(got);
    got = required(only, "test.other");
    ck_assert_str_eq(got, "test.other");
    free(got);
    got = required(all_but, "test.exact"); /* --skip test.exact: it still runs */
    ck_assert_str_eq(got, "test.general test.specific.a test.specific.b test.exact test.other "
                          "test.general2 test.mid test.leaf test.ping test.pong");
    free(got);
    got = required(NULL, NULL);
    ck_assert_uint_eq(strlen(got) > 0, 1);
    free(got);
}
END_TEST

START_TEST(rule_yields_to_matches_ids_and_prefixes)
{
    const struct rule *g = rule_set_find(rs, "test.general");
    ck_assert_int_eq(rule_yields_to(g, "test.specific.a"), 1);
    ck_assert_int_eq(rule_yields_to(g, "test.exact"), 1);
    ck_assert_int_eq(rule_yields_to(g, "test.exactly"), 0);
    ck_assert_int_eq(rule_yields_to(g, "test.specificity"), 0);
    ck_assert_int_eq(rule_yields_to(g, "test.general"), 0);
    ck_assert_int_eq(rule_yields_to(rule_set_find(rs, "test.exact"), "test.general"), 0);
    ck_assert_uint_eq(rule_yields_count(g), 2);
}
END_TEST

/* The loader refuses a malformed or dangling yields-to with its position. */
static void expect_load_error(const char *text, unsigned line, unsigned col, const char *needle)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *bad = tu_rules(text, &errs);
    ck_assert_ptr_null(bad);
    ck_assert_uint_ge(errs.len, 1);
    ck_assert_msg(strstr(errs.items[0].message, needle), "message: %s", errs.items[0].message);
    ck_assert_uint_eq(errs.items[0].line, line);
    ck_assert_uint_eq(errs.items[0].col, col);
    ck_assert_ptr_nonnull(strstr(errs.items[0].file, "test.yaml"));
    diag_list_release(&errs);
}

START_TEST(loader_checks_yields_to)
{
    /* line 13 is the yields-to line of the first rule */
    expect_load_error("rules:\n" RULE("test.general", "    yields-to: [test.missing]\n") RULE("test.b", ""),
                      13, 17, "names no other rule");
    expect_load_error("rules:\n" RULE("test.general", "    yields-to: [test.general]\n"),
                      13, 17, "names no other rule");
    /* an entry that names several rules does not answer for the next one */
    expect_load_error("rules:\n" RULE("test.general", "    yields-to: [test.*, test.missing]\n")
                          RULE("test.b", "") RULE("test.c", ""),
                      13, 25, "entry \"test.missing\" of rule test.general names no other rule");
    expect_load_error("rules:\n" RULE("test.general", "    yields-to: [Bad Id]\n") RULE("test.b", ""),
                      13, 17, "not a rule id");
    expect_load_error("rules:\n" RULE("test.general", "    yields-to: []\n") RULE("test.b", ""),
                      13, 16, "non-empty list");
    expect_load_error("rules:\n" RULE("test.general", "    yields-tu: [test.b]\n") RULE("test.b", ""),
                      13, 5, "yields-to");
}
END_TEST

Suite *overlap_suite(void)
{
    Suite *s = suite_create("overlap");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, same_node_or_below_removes_versions);
    tcase_add_test(tc, unrelated_rules_siblings_and_ancestors_do_not_cover);
    tcase_add_test(tc, only_from_index_on_and_specific_rules_untouched);
    tcase_add_test(tc, only_the_same_value_covers);
    tcase_add_test(tc, yields_only_to_kept_diagnostics);
    tcase_add_test(tc, versionless_diagnostics);
    tcase_add_test(tc, versionless_yields_not_to_a_dropped_one);
    tcase_add_test(tc, a_diagnostic_never_covers_itself);
    tcase_add_test(tc, no_overlap_environment);
    tcase_add_test(tc, required_rules_for_a_selection);
    tcase_add_test(tc, rule_yields_to_matches_ids_and_prefixes);
    tcase_add_test(tc, loader_checks_yields_to);
    suite_add_tcase(s, tc);
    return s;
}
