/* check_texts_pick.c - an item's one-member selectors (entries and schema roots) found in
 * one pass over its members (resolve/texts.c: run_item) yield what a run of each selector
 * would: in the order of the selectors, not of the members; a member two selectors name
 * for both; a selector of more segments, or any selector from an item that is no object,
 * still run (sel_member_name tells which selectors are one member). */
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

/* "POINTER=KIND" of every text of tool INDEX of JSON, space-separated (new string). */
static char *texts_of_tool(const struct texts_spec *spec, const char *json, size_t index)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, index, &item), 0);
    struct texts_list *l = texts_of_item(spec, &ctx, &item);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->nodes.len; i++) {
        const struct cursor *c = l->nodes.items[i];
        char *p = sel_pointer(c);
        buf_addf(&b, "%s%s=%s", i ? " " : "", p, c->text_kind);
        ck_assert(json_is_string(c->v));
        free(p);
    }
    texts_list_free(l);
    doc_free(d);
    return buf_detach(&b);
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

Suite *texts_pick_suite(void)
{
    Suite *s = suite_create("texts_pick");
    TCase *tc = tcase_create("pick");
    tcase_add_test(tc, one_member_selectors_keep_their_order);
    tcase_add_test(tc, absent_members_and_non_strings_yield_nothing);
    tcase_add_test(tc, an_item_that_is_an_array_runs_each_selector);
    tcase_add_test(tc, member_name_of_selectors);
    suite_add_tcase(s, tc);
    return s;
}
