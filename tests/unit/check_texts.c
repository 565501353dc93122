/* check_texts.c - the {texts: ...} selector (resolve/texts.h): the walk of an item's texts
 * (declared selectors, schema values as string leaves, member names as key nodes at
 * their keys), in place (no $ref followed, $defs where they stand, skipped members and
 * non-prose strings never yielded), bounded; through a rule set: $componentRef targets
 * as resolved, the manifest's texts: inherited, and one walk per item for every rule. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "resolve/texts.h"
#include "rules/rule.h"
#include "testutil.h"
#include "base/util.h"

/* tools: name, description; schema roots inputSchema; values description, enum, default;
 * keys properties, $defs; skip _meta. */
static struct texts_spec *spec_new(void)
{
    struct texts_spec *s = texts_spec_new();
    struct texts_coll tools = {xstrdup("tools"), VEC_INIT};
    tu_texts_entry(&tools.entries, "name", NULL, "name");
    tu_texts_entry(&tools.entries, "description", NULL, "description");
    VEC_PUSH(s->item, tools);
    tu_texts_entry(&s->document, "instructions", NULL, "instructions");
    const char *why;
    VEC_PUSH(s->roots, sel_compile("inputSchema", &why));
    tu_texts_entry(&s->values, NULL, "description", "description");
    tu_texts_entry(&s->values, NULL, "enum", "enum value");
    tu_texts_entry(&s->values, NULL, "default", "default");
    tu_texts_entry(&s->keys, NULL, "properties", "property name");
    tu_texts_entry(&s->keys, NULL, "$defs", "definition name");
    VEC_PUSH(s->skip, xstrdup("_meta"));
    return s;
}

/* "POINTER=KIND" (with " key" for a key node) of every text of the first tool of JSON,
 * space-separated (new string); *CUTS receives the nodes a bound kept out. */
static char *texts_of_first_tool(const struct texts_spec *spec, const char *json, size_t *cuts)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 0, &item), 0);
    struct texts_list *l = texts_of_item(spec, &ctx, &item);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->nodes.len; i++) {
        const struct cursor *c = l->nodes.items[i];
        char *p = sel_pointer(c);
        buf_addf(&b, "%s%s=%s%s", i ? " " : "", p, c->text_kind, c->is_key ? " key" : "");
        ck_assert(json_is_string(c->v));
        if (c->is_key) ck_assert_str_eq(json_string_value(c->v), c->key);
        free(p);
    }
    if (cuts) *cuts = l->cuts;
    texts_list_free(l);
    doc_free(d);
    return buf_detach(&b);
}

START_TEST(walk_yields_declared_texts_in_place)
{
    struct texts_spec *spec = spec_new();
    char *got = texts_of_first_tool(
        spec,
        "{\"tools\": [{\"name\": \"t\", \"title\": \"not declared\", \"description\": \"d\","
        " \"icons\": [{\"src\": \"data:image/png;base64,AAAA\"}],"
        " \"inputSchema\": {\"type\": \"object\", \"description\": \"root\","
        "  \"properties\": {\"a\": {\"type\": \"string\", \"pattern\": \"^x{64}$\","
        "     \"format\": \"uri\", \"enum\": [\"x\", 1, \"y\"]},"
        "    \"description\": {\"$ref\": \"#/$defs/D\"},"
        "    \"o\": {\"default\": {\"k\": [\"s\", 2], \"description\": \"leaf\"}}},"
        "  \"$defs\": {\"D\": {\"description\": \"in defs\"}},"
        "  \"_meta\": {\"description\": \"skipped\"}}}]}",
        NULL);
    ck_assert_str_eq(got,
                     "/tools/0/name=name /tools/0/description=description "
                     "/tools/0/inputSchema/description=description "
                     "/tools/0/inputSchema/properties/a=property name key "
                     "/tools/0/inputSchema/properties/a/enum/0=enum value "
                     "/tools/0/inputSchema/properties/a/enum/2=enum value "
                     "/tools/0/inputSchema/properties/description=property name key "
                     "/tools/0/inputSchema/properties/o=property name key "
                     "/tools/0/inputSchema/properties/o/default/k/0=default "
                     "/tools/0/inputSchema/properties/o/default/description=default "
                     "/tools/0/inputSchema/$defs/D=definition name key "
                     "/tools/0/inputSchema/$defs/D/description=description");
    free(got);
    texts_spec_free(spec);
}
END_TEST

/* A collection the manifest does not declare has no texts; the document's are its own. */
START_TEST(walk_of_undeclared_items_and_document)
{
    struct texts_spec *spec = spec_new();
    doc *d = tu_doc("{\"instructions\": \"i\", \"prompts\": [{\"name\": \"p\"}]}");
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "prompts", &coll), 0);
    ck_assert_int_eq(sel_item(&ctx, &coll, 0, &item), 0);
    struct texts_list *l = texts_of_item(spec, &ctx, &item);
    ck_assert_uint_eq(l->nodes.len, 0);
    texts_list_free(l);
    l = texts_of_document(spec, &ctx, &root);
    ck_assert_uint_eq(l->nodes.len, 1);
    ck_assert_str_eq(l->nodes.items[0]->text_kind, "instructions");
    texts_list_free(l);
    doc_free(d);
    texts_spec_free(spec);
}
END_TEST

/* As deep as a "**" walk goes and no further: a schema nested past SEL_DEEP_MAX_DEPTH is
 * cut (not followed into the stack), and so is one of more nodes than SEL_DEEP_MAX_NODES. */
START_TEST(walk_is_bounded)
{
    struct texts_spec *spec = spec_new();
    struct buf b = BUF_INIT;
    buf_adds(&b, "{\"tools\": [{\"inputSchema\": ");
    for (int i = 0; i < 300; i++) buf_adds(&b, "{\"items\": ");
    buf_adds(&b, "{\"description\": \"deep\"}");
    for (int i = 0; i < 300; i++) buf_addc(&b, '}');
    buf_adds(&b, "}]}");
    size_t cuts = 0;
    char *got = texts_of_first_tool(spec, buf_str(&b), &cuts);
    ck_assert_str_eq(got, ""); /* the description lies below the bound */
    ck_assert_uint_gt(cuts, 0);
    free(got);
    buf_reset(&b);
    buf_adds(&b, "{\"tools\": [{\"inputSchema\": {\"enum\": [");
    for (unsigned i = 0; i < SEL_DEEP_MAX_NODES + 10; i++) buf_adds(&b, i ? ",\"e\"" : "\"e\"");
    buf_adds(&b, "]}}]}");
    got = texts_of_first_tool(spec, buf_str(&b), &cuts);
    size_t n = 0;
    /* linear under AddressSanitizer too (its strstr reads the rest of the string each call) */
    for (const char *p = got; *p; p++) n += *p == '=' && !strncmp(p, "=enum value", 11);
    ck_assert_uint_lt(n, SEL_DEEP_MAX_NODES);
    ck_assert_uint_gt(n, SEL_DEEP_MAX_NODES - 10);
    ck_assert_uint_gt(cuts, 0);
    free(got);
    /* members that are no text (numbers, strings of other members, items of required) are
     * nodes the bound counts too, though the walk makes no cursor of them: a description
     * after more of them than the bound is cut, one before is not */
    static const struct {
        const char *member; /* %u: its number */
        unsigned nodes;     /* the nodes it counts */
    } fillers[] = {{"\"m%u\": 1", 1},
                   {"\"type%u\": \"string\"", 1},
                   {"\"x%u\": {\"required\": [\"a\", \"b\"]}", 4}};
    for (size_t f = 0; f < sizeof fillers / sizeof fillers[0]; f++) {
        buf_reset(&b);
        buf_adds(&b, "{\"tools\": [{\"inputSchema\": {\"description\": \"first\"");
        for (unsigned i = 0; i < SEL_DEEP_MAX_NODES / fillers[f].nodes + 1; i++) {
            buf_addc(&b, ',');
            buf_addf(&b, fillers[f].member, i);
        }
        buf_adds(&b, ", \"default\": \"last\"}}]}");
        got = texts_of_first_tool(spec, buf_str(&b), &cuts);
        ck_assert_msg(!strcmp(got, "/tools/0/inputSchema/description=description"),
                      "filler %zu: got %.200s", f, got);
        ck_assert_uint_gt(cuts, 0);
        free(got);
    }
    buf_release(&b);
    texts_spec_free(spec);
}
END_TEST

static const char *texts_manifest = "texts:\n"
                                    "  item:\n"
                                    "    tools: [name, description]\n"
                                    "  schema:\n"
                                    "    roots: [inputSchema]\n"
                                    "    values: [description]\n"
                                    "    keys: [{member: properties, kind: property name}]\n";

static const char *secret_rules =
    "rules:\n"
    "  - id: t.secret\n    owner: t\n    surface: Tool\n    kind: style\n    level: should\n"
    "    status: stable\n    enforcement: registry\n    applies: all\n    summary: s\n"
    "    requirement: r\n    based-on: [{tier: 1, text: t}]\n"
    "    check:\n      select: {texts: item}\n      require: {not: {matches: secret}}\n"
    "      message: '{text-kind}: {value}'\n";

/* A rule set of the rule file TEXT and RULES copies of it renamed, with texts: declared. */
static struct rule_set *texts_rules(int copies)
{
    struct buf r = BUF_INIT;
    buf_adds(&r, "rules:\n");
    for (int i = 0; i < copies; i++) {
        const char *body =
            strstr(secret_rules, "  - id: t.secret\n") + strlen("  - id: t.secret\n");
        buf_addf(&r, "  - id: t.secret%d\n%s", i, body);
    }
    const char *files[] = {"test.yaml"};
    const char *text = buf_str(&r);
    char *dir = tu_rule_dir(files, &text, 1);
    tu_manifest_add(dir, texts_manifest);
    struct rule_set *rs = tu_load_ok(dir);
    tu_rmdir(dir);
    buf_release(&r);
    return rs;
}

/* A $componentRef is walked as resolved (the text reported in the component, named so);
 * a $ref is not followed: the definition's text is reported once, where it stands. */
START_TEST(components_resolved_refs_not_followed)
{
    struct rule_set *rs = texts_rules(1);
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(
        rs,
        "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-11-25\"],"
        " \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"}, \"capabilities\": {\"tools\": {}},"
        " \"tools\": [{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\","
        "   \"properties\": {\"p\": {\"$componentRef\": \"#/components/schemas/P\"},"
        "     \"q\": {\"$ref\": \"#/properties/r\"}, \"r\": {\"description\": \"secret r\"}}}}],"
        " \"components\": {\"schemas\": {\"P\": {\"type\": \"string\", \"description\": \"a "
        "secret\"}}}}",
        &out);
    size_t n = 0;
    for (size_t i = 0; i < out.len; i++) {
        if (!out.items[i].rule || strcmp(out.items[i].rule, "t.secret0")) continue;
        n++;
        if (out.items[i].component) {
            ck_assert_str_eq(out.items[i].component, "/components/schemas/P");
            ck_assert_str_eq(out.items[i].pointer, "/tools/0/inputSchema/properties/p/description");
        } else {
            ck_assert_str_eq(out.items[i].pointer, "/tools/0/inputSchema/properties/r/description");
        }
    }
    ck_assert_uint_eq(n, 2);
    diag_list_release(&out);
    rule_set_free(rs);
}
END_TEST

/* Every rule over texts reuses one walk of each item: in a small document (rules
 * outside, items inside) and in a large one (the collection walk, items outside). */
START_TEST(each_item_walked_once_for_every_rule)
{
    struct rule_set *rs = texts_rules(5);
    size_t sizes[] = {3, 100};
    for (size_t k = 0; k < 2; k++) {
        struct buf b = BUF_INIT;
        buf_adds(&b,
                 "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-11-25\"],"
                 " \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"},"
                 " \"capabilities\": {\"tools\": {}}, \"tools\": [");
        for (size_t i = 0; i < sizes[k]; i++)
            buf_addf(&b,
                     "%s{\"name\": \"t%zu\", \"description\": \"%s\", \"inputSchema\": "
                     "{\"type\": \"object\"}}",
                     i ? "," : "", i, i == 1 ? "a secret" : "fine");
        buf_adds(&b, "]}");
        struct diag_list out = DIAG_LIST_INIT;
        unsigned long before = texts_item_walks;
        tu_eval(rs, buf_str(&b), &out);
        ck_assert_uint_eq(texts_item_walks - before, sizes[k]);
        size_t n = 0;
        for (size_t i = 0; i < out.len; i++)
            n += out.items[i].rule && !strncmp(out.items[i].rule, "t.secret", 8);
        ck_assert_uint_eq(n, 5); /* each of the five rules found the one secret */
        diag_list_release(&out);
        buf_release(&b);
    }
    rule_set_free(rs);
}
END_TEST

/* "POINTER=KIND:VALUE" of every text of L, space-separated (new string); each parent chain
 * walked (sel_pointer), so a cursor left in a freed chunk shows under the sanitizers. */
static char *list_summary(const struct texts_list *l)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->nodes.len; i++) {
        const struct cursor *c = l->nodes.items[i];
        char *p = sel_pointer(c);
        buf_addf(&b, "%s%s=%s:%s", i ? " " : "", p, c->text_kind, json_string_value(c->v));
        free(p);
    }
    return buf_detach(&b);
}

/* A cached list dropped and filled again for the next item (the collection walk) keeps
 * its chunks for reuse: items larger than one chunk, then smaller, then larger again,
 * each yields exactly what a fresh walk of it does. */
START_TEST(dropped_lists_reused_across_items)
{
    struct texts_spec *spec = spec_new();
    size_t props[] = {300, 2, 0, 700, 1};
    size_t ntools = sizeof props / sizeof *props;
    struct buf j = BUF_INIT;
    buf_adds(&j, "{\"tools\": [");
    for (size_t t = 0; t < ntools; t++) {
        buf_addf(&j,
                 "%s{\"name\": \"t%zu\", \"description\": \"d%zu\", \"inputSchema\": "
                 "{\"properties\": {",
                 t ? "," : "", t, t);
        for (size_t k = 0; k < props[t]; k++)
            buf_addf(&j, "%s\"p%zu_%zu\": {\"description\": \"x%zu\", \"enum\": [\"e%zu\"]}",
                     k ? "," : "", t, k, k, k);
        buf_adds(&j, "}}}");
    }
    buf_adds(&j, "]}");
    doc *d = tu_doc(buf_str(&j));
    ck_assert_ptr_nonnull(d);
    struct sel_ctx ctx = {d, NULL};
    struct cursor root, coll, item;
    sel_root(&ctx, &root);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &coll), 0);
    struct texts_cache *cache = NULL;
    for (int round = 0; round < 2; round++)
        for (size_t t = 0; t < ntools; t++) {
            ck_assert_int_eq(sel_item(&ctx, &coll, t, &item), 0);
            struct texts_list *fresh = texts_of_item(spec, &ctx, &item);
            char *want = list_summary(fresh);
            const struct texts_list *l = texts_cache_item(&cache, spec, &ctx, &item);
            ck_assert_ptr_eq(texts_cache_item(&cache, spec, &ctx, &item), l); /* kept */
            char *got = list_summary(l);
            ck_assert_str_eq(got, want);
            ck_assert_uint_eq(l->nodes.len, 2 + 3 * props[t]);
            texts_cache_drop(cache, &item);
            free(got);
            free(want);
            texts_list_free(fresh);
        }
    texts_cache_free(cache);
    doc_free(d);
    buf_release(&j);
    texts_spec_free(spec);
}
END_TEST

Suite *texts_suite(void)
{
    Suite *s = suite_create("texts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, walk_yields_declared_texts_in_place);
    tcase_add_test(tc, walk_of_undeclared_items_and_document);
    tcase_add_test(tc, walk_is_bounded);
    tcase_add_test(tc, components_resolved_refs_not_followed);
    tcase_add_test(tc, each_item_walked_once_for_every_rule);
    tcase_add_test(tc, dropped_lists_reused_across_items);
    suite_add_tcase(s, tc);
    return s;
}
