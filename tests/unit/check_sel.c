/* check_sel.c - selectors: "*", "[*]" (array items only) and the any-depth "**" segment (order, zero levels,
 * arrays, at most one "**", the bound), directly and through a rule with components;
 * cursors over a view written by hand (selectors read a view, not a resolution). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "resolve/sel.h"
#include "resolve/view.h"
#include "testutil.h"
#include "base/util.h"

static int collect(const struct cursor *c, void *arg)
{
    struct buf *b = arg;
    char *p = sel_pointer(c);
    if (b->len) buf_addc(b, ' ');
    buf_adds(b, *p ? p : "(root)");
    free(p);
    return 0;
}

/* The pointers TEXT selects from the root of JSON, space-separated (new string). */
static char *select_all(const char *json, const char *text)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    const char *why = NULL;
    struct sel *s = sel_compile(text, &why);
    ck_assert_msg(s != NULL, "%s: %s", text, why ? why : "?");
    struct sel_ctx ctx = {d, NULL};
    struct buf b = BUF_INIT;
    sel_run(s, &ctx, NULL, collect, &b);
    sel_free(s);
    doc_free(d);
    return buf_detach(&b);
}

static void expect_selects(const char *json, const char *text, const char *want)
{
    char *got = select_all(json, text);
    ck_assert_msg(!strcmp(got, want), "%s selects \"%s\", expected \"%s\"", text, got, want);
    free(got);
}

static const char *schema =
    "{\"properties\": {\"a\": {\"x-h\": \"A\", \"properties\": {\"b\": {\"x-h\": \"B\"}}},"
    "                  \"c\": {\"items\": [{\"x-h\": \"C\"}]}},"
    " \"x-h\": \"root\"}";

START_TEST(deep_matches_any_depth_in_document_order)
{
    expect_selects(
        schema, "/**/x-h",
        "/x-h /properties/a/x-h /properties/a/properties/b/x-h /properties/c/items/0/x-h");
    /* zero levels: the node itself */
    expect_selects("{\"x-h\": 1}", "/**/x-h", "/x-h");
    expect_selects(schema, "/properties/**/x-h",
                   "/properties/a/x-h /properties/a/properties/b/x-h /properties/c/items/0/x-h");
}
END_TEST

START_TEST(deep_combines_with_star_and_names)
{
    expect_selects(schema, "/**/properties/*",
                   "/properties/a /properties/c /properties/a/properties/b");
    /* "**" last: every node, pre-order, the start included */
    expect_selects("{\"a\": [1, {\"b\": 2}]}", "/**", "(root) /a /a/0 /a/1 /a/1/b");
    /* relative selectors start at the given node */
    expect_selects("{\"p\": {\"q\": {\"r\": 1}}, \"r\": 0}", "p/**/r", "/p/q/r");
    /* array indexes are segments too */
    expect_selects("[[{\"k\": 1}], {\"k\": 2}]", "/**/0/k", "/0/0/k");
}
END_TEST

/* The pointers the selectors TEXTS (N) select together from the root of JSON, through
 * sel_run_alt (new string). */
static char *select_alt(const char *json, const char *const *texts, size_t n)
{
    doc *d = tu_doc(json);
    ck_assert_ptr_nonnull(d);
    struct sel *s[4];
    const char *why = NULL;
    for (size_t i = 0; i < n; i++) ck_assert_ptr_nonnull(s[i] = sel_compile(texts[i], &why));
    struct sel_ctx ctx = {d, NULL};
    struct buf b = BUF_INIT;
    sel_run_alt((const struct sel *const *)s, n, &ctx, NULL, collect, &b);
    for (size_t i = 0; i < n; i++) sel_free(s[i]);
    doc_free(d);
    return buf_detach(&b);
}

/* Selectors that differ only in a last name after "**" are one walk, every node they
 * select once, in document order; any others run one after the other. */
START_TEST(alternatives_walk_once)
{
    static const char *json = "{\"anyOf\": [{\"oneOf\": [{}]}, {\"allOf\": []}],"
                              " \"p\": {\"oneOf\": [], \"anyOf\": [], \"q\": {\"allOf\": 1}}}";
    static const char *const deep[] = {"/**/anyOf", "/**/oneOf", "/**/allOf"};
    char *got = select_alt(json, deep, 3);
    ck_assert_str_eq(got, "/anyOf /anyOf/0/oneOf /anyOf/1/allOf /p/anyOf /p/oneOf /p/q/allOf");
    free(got);
    /* not alternatives: selector by selector, in the order given */
    static const char *const apart[] = {"/p/oneOf", "/**/anyOf"};
    got = select_alt(json, apart, 2);
    ck_assert_str_eq(got, "/p/oneOf /anyOf /p/anyOf");
    free(got);
    static const char *const star[] = {"/**/anyOf", "/**/*"};
    got = select_alt("{\"anyOf\": 1}", star, 2);
    ck_assert_str_eq(got, "/anyOf /anyOf");
    free(got);
}
END_TEST

/* "[*]" walks the items of an array and nothing else: an MCP array written as a map
 * is reported once by the type rules, never judged member by member */
START_TEST(items_segment_walks_arrays_only)
{
    const char *arr = "{\"args\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}";
    const char *map = "{\"args\": {\"x\": {\"name\": \"a\"}, \"y\": {}}}";
    expect_selects(arr, "/args/[*]/name", "/args/0/name /args/1/name");
    expect_selects(arr, "/args/*/name", "/args/0/name /args/1/name");
    expect_selects(map, "/args/[*]", "");
    expect_selects(map, "/args/[*]/name", "");
    expect_selects(map, "/args/*/name", "/args/x/name");
    expect_selects("{\"args\": \"s\"}", "/args/[*]", "");
    expect_selects("[[1, 2], {\"a\": 3}]", "/[*]/[*]", "/0/0 /0/1");
    /* beside "**", and relative */
    expect_selects("{\"a\": {\"l\": [{\"v\": 1}], \"m\": {\"k\": {\"v\": 2}}}}", "/**/[*]/v",
                   "/a/l/0/v");
    expect_selects(arr, "args/[*]", "/args/0 /args/1");
}
END_TEST

START_TEST(compile_refuses_two_deep_segments)
{
    const char *why = NULL;
    struct sel *s = sel_compile("/**/properties/**/x", &why);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(why, "at most one"));
    s = sel_compile("/tools/*/inputSchema/**/x-mcp-header", &why);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(sel_has_wildcard(s), 1);
    sel_free(s);
    s = sel_compile("/tools/0/name", &why);
    ck_assert_int_eq(sel_has_wildcard(s), 0);
    sel_free(s);
}
END_TEST

static int count(const struct cursor *c, void *arg)
{
    (void)c;
    ++*(size_t *)arg;
    return 0;
}

START_TEST(deep_walk_is_bounded)
{
    /* a wide document: more nodes than one "**" walk enters */
    struct buf b = BUF_INIT;
    buf_adds(&b, "[");
    for (unsigned i = 0; i < SEL_DEEP_MAX_NODES + 10; i++) buf_adds(&b, i ? ",0" : "0");
    buf_adds(&b, "]");
    doc *d = tu_doc(buf_str(&b));
    const char *why;
    struct sel *s = sel_compile("/**", &why);
    struct sel_ctx ctx = {d, NULL};
    size_t n = 0;
    sel_run(s, &ctx, NULL, count, &n);
    ck_assert_uint_eq(n, SEL_DEEP_MAX_NODES);
    sel_free(s);
    doc_free(d);
    buf_release(&b);
}
END_TEST

/* Through the interpreter: "**" follows resolved $componentRef sites and keeps the
 * component's positions. */
static const char *deep_rule =
    "rules:\n"
    "  - id: test.deep\n"
    "    owner: test\n    surface: Tool\n    kind: structural\n    level: should\n"
    "    status: stable\n    enforcement: internal\n    applies: all\n"
    "    summary: s\n    requirement: r\n"
    "    based-on: [{tier: 1, text: test}]\n"
    "    check:\n"
    "      select: /tools/*/inputSchema/**/x-mcp-header\n"
    "      require: {equals: ok}\n"
    "      message: '{value}'\n";

START_TEST(deep_follows_components)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(deep_rule, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    struct diag_list out = DIAG_LIST_INIT;
    tu_eval(
        rs,
        "{\"tools\": [{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\n"
        "  \"a\": {\"$componentRef\": \"#/components/schemas/A\"}, \"b\": {\"x-mcp-header\": "
        "\"ok\"}}}}],\n"
        " \"components\": {\"schemas\": {\n"
        "  \"A\": {\"type\": \"object\", \"properties\": {\"n\": {\"x-mcp-header\": \"bad\"}}}}}}",
        &out);
    ck_assert_uint_eq(out.len, 1);
    ck_assert_str_eq(out.items[0].pointer,
                     "/tools/0/inputSchema/properties/a/properties/n/x-mcp-header");
    ck_assert_str_eq(out.items[0].message, "\"bad\"");
    ck_assert_uint_eq(out.items[0].line, 4);
    ck_assert_str_eq(out.items[0].component, "/components/schemas/A");
    diag_list_release(&out);
    diag_list_release(&errs);
    rule_set_free(rs);
}
END_TEST

/* A reference bomb under a tool's inputSchema: S0..S(LEVELS-1) each refer twice to the
 * next; property "z" after it holds a bad x-mcp-header (new string). */
static char *bomb_doc(int levels)
{
    struct buf b = BUF_INIT;
    buf_adds(&b,
             "{\"tools\": [{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\", "
             "\"properties\": {\"a\": {\"$componentRef\": \"#/components/schemas/S0\"}, "
             "\"z\": {\"x-mcp-header\": \"bad\"}}}}],\n \"components\": {\"schemas\": {\n");
    for (int k = 0; k < levels; k++) {
        char *line = xasprintf("  \"S%d\": {\"type\": \"object\", \"properties\": {"
                               "\"a\": {\"$componentRef\": \"#/components/schemas/S%d\"}, "
                               "\"b\": {\"$componentRef\": \"#/components/schemas/S%d\"}}},\n",
                               k, k + 1, k + 1);
        buf_adds(&b, line);
        free(line);
    }
    char *last = xasprintf("  \"S%d\": {\"type\": \"object\"}}}}", levels);
    buf_adds(&b, last);
    free(last);
    return buf_detach(&b);
}

/* A "**" walk goes through a shared value that selected nothing once, and only counts
 * its nodes at its other places (counted, never timed), so the bound still cuts where
 * the walk of every place would: "z" is reported after a bomb of 6,000 nodes, not after
 * one of 650,000 (past SEL_DEEP_MAX_NODES). */
START_TEST(deep_walks_shared_values_once)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(deep_rule, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    int levels[] = {10, 17};
    size_t want[] = {1, 0};
    for (size_t i = 0; i < 2; i++) {
        char *json = bomb_doc(levels[i]);
        struct diag_list out = DIAG_LIST_INIT;
        unsigned long before = sel_shared_walks;
        tu_eval(rs, json, &out);
        unsigned long walks = sel_shared_walks - before;
        ck_assert_msg(walks <= 2 * (unsigned long)levels[i] + 2,
                      "%d levels: %lu walks of shared values", levels[i], walks);
        ck_assert_uint_eq(out.len, want[i]);
        if (want[i])
            ck_assert_str_eq(out.items[0].pointer,
                             "/tools/0/inputSchema/properties/z/x-mcp-header");
        diag_list_release(&out);
        free(json);
    }
    diag_list_release(&errs);
    rule_set_free(rs);
}
END_TEST

struct seen {
    doc_node node[4];
    ver_mask vmask[4];
    const char *component[4];
    int unresolved[4];
    size_t n;
};

static int remember(const struct cursor *c, void *arg)
{
    struct seen *s = arg;
    ck_assert_uint_lt(s->n, 4);
    s->node[s->n] = c->node;
    s->vmask[s->n] = c->vmask;
    s->component[s->n] = c->component;
    s->unresolved[s->n] = c->unresolved;
    s->n++;
    return 0;
}

/* A view is passive data: written by hand here (no resolution ran), it gives cursors
 * their item's versions, leads a site to its target and marks an unresolved one. */
START_TEST(cursors_read_a_view_written_by_hand)
{
    doc *d = tu_doc("{\"tools\": [{\"s\": {\"ref\": 1}}, {\"s\": 2}, {\"s\": {\"ref\": 3}}],\n"
                    " \"defs\": {\"X\": {\"deep\": true}}}");
    doc_node site = doc_pointer_node(d, "/tools/0/s"), bad = doc_pointer_node(d, "/tools/2/s");
    doc_node x = doc_pointer_node(d, "/defs/X");
    const ver_mask items[] = {0x1, 0x2, 0x4};
    const struct view_collection colls[] = {{"tools", items, 3, 0x7}};
    const struct view_site sites[] = {{site, x, "/defs/X"}};
    unsigned char *mark = xcalloc(doc_node_count(d), 1);
    mark[site] = VIEW_SITE;
    mark[bad] = VIEW_UNRESOLVED;
    const struct view v = {0x10, colls, 1, sites, 1, mark, doc_node_count(d)};
    const char *why;
    struct sel *s = sel_compile("/tools/*/s", &why);
    struct sel_ctx ctx = {d, &v};
    struct seen seen = {0};
    sel_run(s, &ctx, NULL, remember, &seen);
    ck_assert_uint_eq(seen.n, 3);
    ck_assert_uint_eq(seen.node[0], x);
    ck_assert_str_eq(seen.component[0], "/defs/X");
    ck_assert_uint_eq(seen.node[1], doc_pointer_node(d, "/tools/1/s"));
    ck_assert_ptr_null(seen.component[1]);
    ck_assert_uint_eq(seen.vmask[0], 0x1);
    ck_assert_uint_eq(seen.vmask[1], 0x2);
    ck_assert_uint_eq(seen.vmask[2], 0x4);
    ck_assert(!seen.unresolved[0] && !seen.unresolved[1] && seen.unresolved[2]);
    /* the collection itself has its items' versions, the rest the document's */
    struct cursor root, c;
    sel_root(&ctx, &root);
    ck_assert_uint_eq(root.vmask, 0x10);
    ck_assert_int_eq(sel_member(&ctx, &root, "tools", &c), 0);
    ck_assert_uint_eq(c.vmask, 0x7);
    ck_assert_int_eq(sel_member(&ctx, &root, "defs", &c), 0);
    ck_assert_uint_eq(c.vmask, 0x10);
    /* no view: the source as it is, no versions, nothing followed */
    struct sel_ctx plain = {d, NULL};
    memset(&seen, 0, sizeof seen);
    sel_run(s, &plain, NULL, remember, &seen);
    ck_assert_uint_eq(seen.n, 3);
    ck_assert_uint_eq(seen.node[0], site);
    ck_assert_uint_eq(seen.vmask[0], 0);
    ck_assert(!seen.unresolved[2]);
    sel_free(s);
    free(mark);
    doc_free(d);
}
END_TEST

/* A text's facts (sel_text_facts) as the byte-by-byte definition says: which ASCII bytes
 * occur, whether a byte of 0x80 or more does, and TAB to CR or two spaces in a row; over
 * strings of every length around the eight-byte words of the long path, spaces at each
 * word boundary, NUL and high bytes. */
static void reference_facts(const unsigned char *s, size_t n, unsigned *f, uint64_t a[2])
{
    *f = SEL_TEXT_FACTS;
    a[0] = a[1] = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= 0x80) *f |= SEL_TEXT_NON_ASCII;
        else a[s[i] / 64] |= (uint64_t)1 << (s[i] % 64);
        if ((s[i] >= 0x09 && s[i] <= 0x0D) || (i && s[i] == ' ' && s[i - 1] == ' '))
            *f |= SEL_TEXT_UNFOLDED;
    }
}

START_TEST(text_facts_as_defined)
{
    unsigned char s[200];
    unsigned seed = 7;
    const unsigned char alphabet[] = {' ', ' ', ' ', 'a', 'Z', '0', 0, '\t', 0x7F, 0x80, 0xFF, '~'};
    for (int round = 0; round < 4000; round++) {
        size_t n = (size_t)(round % 97);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            /* mostly letters and single spaces, now and then a byte from the alphabet */
            s[i] = r % 5 ? (unsigned char)('a' + r % 26) : alphabet[r / 5 % sizeof alphabet];
        }
        if (round % 7 == 0 && n > 9) s[7] = s[8] = ' '; /* across the first word boundary */
        if (round % 11 == 0 && n > 1) s[n - 1] = s[n - 2] = ' ';
        if (round % 13 == 0) /* every byte value once */
            for (size_t i = 0; i < n; i++) s[i] = (unsigned char)(round / 13 + i * 37);
        json_t *v = json_stringn_nocheck((const char *)s, n);
        struct cursor c;
        memset(&c, 0, sizeof c);
        c.v = v;
        sel_text_facts(&c);
        unsigned f;
        uint64_t a[2];
        reference_facts(s, n, &f, a);
        ck_assert_msg(c.text_facts == f && c.text_ascii[0] == a[0] && c.text_ascii[1] == a[1],
                      "round %d, %zu bytes: facts %u / %u", round, n, c.text_facts, f);
        json_decref(v);
    }
}
END_TEST

Suite *sel_suite(void)
{
    Suite *s = suite_create("sel");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, deep_matches_any_depth_in_document_order);
    tcase_add_test(tc, deep_combines_with_star_and_names);
    tcase_add_test(tc, compile_refuses_two_deep_segments);
    tcase_add_test(tc, items_segment_walks_arrays_only);
    tcase_add_test(tc, deep_walk_is_bounded);
    tcase_add_test(tc, alternatives_walk_once);
    tcase_add_test(tc, deep_follows_components);
    tcase_add_test(tc, deep_walks_shared_values_once);
    tcase_add_test(tc, cursors_read_a_view_written_by_hand);
    tcase_add_test(tc, text_facts_as_defined);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
