/* check_texts_pick.c - an item's selectors that are or start with one member (entries and
 * schema roots) found in one pass over its members (resolve/texts.c: run_item) yield what
 * a run of each selector would: in the order of the selectors, not of the members; a
 * member two selectors name for both; a longer selector's rest run from its first member
 * (arguments/[*]/name, annotations/title); a selector starting with a wildcard, or any
 * selector from an item that is no object, still run (sel_member_name and
 * sel_first_member tell which). */
#include <check.h>
#include <stdlib.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "resolve/texts.h"
#include "testutil.h"
#include "base/util.h"

/* tools: description, name, annotations/title, name again (another kind), "0" (an item's
 * first item when the item is an array), title; roots outputSchema then inputSchema;
 * schema values: title. */
static struct texts_spec *spec_new(void)
{
    struct texts_spec *s = texts_spec_new();
    struct texts_coll tools = {xstrdup("tools"), VEC_INIT};
    tu_texts_entry(&tools.entries, "description", NULL, "description");
    tu_texts_entry(&tools.entries, "name", NULL, "name");
    tu_texts_entry(&tools.entries, "annotations/title", NULL, "annotation title");
    tu_texts_entry(&tools.entries, "name", NULL, "name again");
    tu_texts_entry(&tools.entries, "0", NULL, "first");
    tu_texts_entry(&tools.entries, "title", NULL, "title");
    VEC_PUSH(s->item, tools);
    const char *why;
    VEC_PUSH(s->roots, sel_compile("outputSchema", &why));
    VEC_PUSH(s->roots, sel_compile("inputSchema", &why));
    tu_texts_entry(&s->values, NULL, "title", "schema title");
    return s;
}

/* "POINTER=KIND" of every text of L, space-separated (new string). */
static char *list_text(const struct texts_list *l)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->nodes.len; i++) {
        const struct cursor *c = l->nodes.items[i];
        char *p = sel_pointer(c);
        buf_addf(&b, "%s%s=%s", i ? " " : "", p, c->text_kind);
        ck_assert(json_is_string(c->v));
        free(p);
    }
    buf_addc(&b, '\0'); /* an empty list: "" rather than NULL */
    return buf_detach(&b);
}

/* The texts of item INDEX of collection COLL of JSON (list_text); from the cache CACHE
 * when given (its records, and its selectors' names found once), else walked alone. */
static char *texts_of(const struct texts_spec *spec, const char *json, const char *coll_name,
                      size_t index, struct texts_cache **cache)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, coll_name, &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, index, &item), 0);
    char *out;
    if (cache) {
        out = list_text(texts_cache_item(cache, spec, &ctx, &item));
        texts_cache_drop(*cache, &item);
    } else {
        struct texts_list *l = texts_of_item(spec, &ctx, &item);
        out = list_text(l);
        texts_list_free(l);
    }
    doc_free(d);
    return out;
}

static char *texts_of_tool(const struct texts_spec *spec, const char *json, size_t index)
{
    return texts_of(spec, json, "tools", index, NULL);
}

START_TEST(one_member_selectors_keep_their_order)
{
    struct texts_spec *spec = spec_new();
    /* members in another order than the selectors, with members none names */
    char *got = texts_of_tool(
        spec,
        "{\"tools\": [{\"inputSchema\": {\"title\": \"in\"}, \"title\": \"T\","
        " \"annotations\": {\"title\": \"A\"}, \"x\": \"not a text\", \"name\": \"n\","
        " \"outputSchema\": {\"title\": \"out\"}, \"description\": \"d\"}]}",
        0);
    ck_assert_str_eq(got,
                     "/tools/0/description=description /tools/0/name=name"
                     " /tools/0/annotations/title=annotation title"
                     " /tools/0/name=name again /tools/0/title=title"
                     " /tools/0/outputSchema/title=schema title"
                     " /tools/0/inputSchema/title=schema title");
    free(got);
    texts_spec_free(spec);
}
END_TEST

START_TEST(absent_members_and_non_strings_yield_nothing)
{
    struct texts_spec *spec = spec_new();
    char *got = texts_of_tool(
        spec, "{\"tools\": [{\"name\": 7, \"inputSchema\": {\"title\": \"in\"}}]}", 0);
    ck_assert_str_eq(got, "/tools/0/inputSchema/title=schema title");
    free(got);
    texts_spec_free(spec);
}
END_TEST

START_TEST(an_item_that_is_an_array_runs_each_selector)
{
    struct texts_spec *spec = spec_new();
    char *got = texts_of_tool(spec, "{\"tools\": [[\"zero\", \"one\"]]}", 0);
    ck_assert_str_eq(got, "/tools/0/0=first");
    free(got);
    texts_spec_free(spec);
}
END_TEST

START_TEST(member_name_of_selectors)
{
    const char *why;
    const char *texts[] = {"name", "a/b", "*", "[*]", "**", "/name", "0", "a~1b"};
    const char *want[] = {"name", NULL, NULL, NULL, NULL, NULL, "0", "a/b"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        struct sel *s = sel_compile(texts[i], &why);
        ck_assert_ptr_nonnull(s);
        const char *got = sel_member_name(s);
        if (want[i]) ck_assert_str_eq(got, want[i]);
        else ck_assert_ptr_null(got);
        sel_free(s);
    }
}
END_TEST

START_TEST(first_member_of_selectors)
{
    const char *why;
    const char *texts[] = {"name", "a/b",    "*",   "[*]/name", "**/title", "*/x",
                           "/a/b", "a~1b/c", "0/1", "a/[*]/b",  "a/**"};
    const char *want[] = {NULL, "a", NULL, NULL, NULL, NULL, NULL, "a/b", "0", "a", "a"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        struct sel *s = sel_compile(texts[i], &why);
        ck_assert_ptr_nonnull(s);
        const char *got = sel_first_member(s);
        if (want[i]) ck_assert_str_eq(got, want[i]);
        else ck_assert_msg(got == NULL, "%s: first member %s", texts[i], got);
        sel_free(s);
    }
}
END_TEST

/* Selectors of several segments from their first member, found in the pass: every node
 * the rest selects, below that member (its pointer through it), none when the member is
 * absent or the rest finds nothing there (arguments as an object: no items). */
START_TEST(longer_selectors_run_from_their_first_member)
{
    struct texts_spec *spec = spec_new();
    struct texts_coll prompts = {xstrdup("prompts"), VEC_INIT};
    tu_texts_entry(&prompts.entries, "arguments/[*]/name", NULL, "argument name");
    tu_texts_entry(&prompts.entries, "name", NULL, "name");
    tu_texts_entry(&prompts.entries, "arguments/[*]/description", NULL, "argument description");
    tu_texts_entry(&prompts.entries, "meta/**", NULL, "deep");
    VEC_PUSH(spec->item, prompts);
    const char *json = "{\"prompts\": [{\"arguments\": [{\"name\": \"x\", \"description\": \"dx\"},"
                       " {\"description\": \"dy\"}, {\"name\": \"z\"}], \"name\": \"p\","
                       " \"meta\": {\"a\": [\"m\"]}},"
                       " {\"name\": \"q\", \"arguments\": {\"name\": \"not an item\"}},"
                       " {\"name\": \"r\"}]}";
    const char *want[] = {
        "/prompts/0/arguments/0/name=argument name /prompts/0/arguments/2/name=argument name"
        " /prompts/0/name=name /prompts/0/arguments/0/description=argument description"
        " /prompts/0/arguments/1/description=argument description /prompts/0/meta/a/0=deep",
        "/prompts/1/name=name", "/prompts/2/name=name"};
    struct texts_cache *cache = NULL;
    for (size_t i = 0; i < 3; i++) {
        char *alone = texts_of(spec, json, "prompts", i, NULL);
        char *cached = texts_of(spec, json, "prompts", i, &cache);
        ck_assert_str_eq(alone, want[i]);
        ck_assert_str_eq(cached, want[i]);
        free(alone);
        free(cached);
    }
    texts_cache_free(cache);
    texts_spec_free(spec);
}
END_TEST

/* The cache keeps the names of one collection's selectors: another collection's items
 * (other selectors) are not read with them, nor the first's again after. */
START_TEST(cached_names_follow_the_collection)
{
    struct texts_spec *spec = spec_new();
    struct texts_coll prompts = {xstrdup("prompts"), VEC_INIT};
    tu_texts_entry(&prompts.entries, "title", NULL, "prompt title");
    tu_texts_entry(&prompts.entries, "arguments/[*]/name", NULL, "argument name");
    VEC_PUSH(spec->item, prompts);
    const char *json =
        "{\"tools\": [{\"name\": \"a\", \"title\": \"A\", \"description\": \"d\"},"
        " {\"title\": \"B\", \"name\": \"b\"}],"
        " \"prompts\": [{\"name\": \"p\", \"title\": \"P\", \"arguments\": [{\"name\": \"x\"}]}]}";
    struct texts_cache *cache = NULL;
    const char *order[][2] = {{"tools", "0"}, {"prompts", "0"}, {"tools", "1"}, {"prompts", "0"}};
    const char *want[] = {
        "/tools/0/description=description /tools/0/name=name /tools/0/name=name again"
        " /tools/0/title=title",
        "/prompts/0/title=prompt title /prompts/0/arguments/0/name=argument name",
        "/tools/1/name=name /tools/1/name=name again /tools/1/title=title",
        "/prompts/0/title=prompt title /prompts/0/arguments/0/name=argument name"};
    for (size_t i = 0; i < 4; i++) {
        size_t index = (size_t)(order[i][1][0] - '0');
        char *alone = texts_of(spec, json, order[i][0], index, NULL);
        char *cached = texts_of(spec, json, order[i][0], index, &cache);
        ck_assert_str_eq(alone, want[i]);
        ck_assert_str_eq(cached, want[i]);
        free(alone);
        free(cached);
    }
    texts_cache_free(cache);
    texts_spec_free(spec);
}
END_TEST

Suite *texts_pick_suite(void)
{
    Suite *s = suite_create("texts_pick");
    TCase *tc = tcase_create("pick");
    tcase_add_test(tc, one_member_selectors_keep_their_order);
    tcase_add_test(tc, absent_members_and_non_strings_yield_nothing);
    tcase_add_test(tc, an_item_that_is_an_array_runs_each_selector);
    tcase_add_test(tc, member_name_of_selectors);
    tcase_add_test(tc, first_member_of_selectors);
    tcase_add_test(tc, longer_selectors_run_from_their_first_member);
    tcase_add_test(tc, cached_names_follow_the_collection);
    suite_add_tcase(s, tc);
    return s;
}
