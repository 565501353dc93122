/* check_fix.c - fixes declared in the rules (findings/fix.h): each kind of edit on JSON and
 * YAML, laid out as its surroundings (indentation, line breaks, inline or not), nothing
 * offered on shared YAML text or through a $componentRef, the offer an editor gets for
 * one diagnostic, and fix_text's fixpoint (a second run changes nothing). */
#include <check.h>
#include <string.h>

#include "testutil.h"
#include "base/buf.h"
#include "base/util.h"
#include "findings/fix.h"
#include "judge/judge.h"

#define RULE_N(id, check)                                                                          \
    "  - id: " id "\n    owner: t\n    surface: Tool\n    kind: structural\n"                      \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check  \
    "\n"

static const char rules[] =
    "rules:\n" RULE_N("t.fix.bool",
                      "{select: '/tools/[*]/inputSchema/properties/*', require: {json-type: "
                      "object}, message: 'not an object: {value}', fix: [{title: 'replace {value} "
                      "with {}', when: {equals: true}, replace: {}}, {title: 'replace false', "
                      "when: {equals: false}, replace: {not: {}}}]}")
        RULE_N("t.fix.type",
               "{select: '/tools/[*]/inputSchema', when: {json-type: object}, "
               "require: {has: type}, message: m, fix: {title: add type, when: "
               "{lacks: $ref}, add: {member: type, value: object}}}")
            RULE_N("t.fix.drop",
                   "{select: '/tools/[*]', require: {lacks: x-drop}, message: m, "
                   "fix: {title: drop, remove: x-drop}}")
                RULE_N("t.fix.set",
                       "{select: '/tools/[*]', when: {has: annotations}, require: {every: "
                       "{select: annotations/readOnlyHint, require: {json-type: boolean}}}, "
                       "message: m, fix: {title: set, at: annotations, set: {member: "
                       "readOnlyHint, value: false}}}");

/* fix_text on TEXT named NAME: the fixed text (new), or NULL when nothing changed;
 * *N: fixes applied. Fails the test on an error. */
static char *fix(const struct rule_set *rs, const char *name, const char *text, int *n)
{
    struct diag_list errs = DIAG_LIST_INIT;
    size_t len = 0;
    char *out = fix_text(rs, NULL, name, text, strlen(text), &len, n, &errs);
    ck_assert_msg(errs.len == 0, "%s: %s", name, errs.len ? errs.items[0].message : "");
    if (out) ck_assert_uint_eq(strlen(out), len);
    diag_list_release(&errs);
    return out;
}

/* TEXT fixed is WANT (NULL: unchanged), and fixing WANT changes nothing. */
static void check_fix(const struct rule_set *rs, const char *name, const char *text,
                      const char *want, int nwant)
{
    int n = -2;
    char *got = fix(rs, name, text, &n);
    if (!want) {
        ck_assert_msg(got == NULL, "%s: changed:\n%s", name, got);
        ck_assert_int_eq(n, 0);
        return;
    }
    ck_assert_msg(got != NULL, "%s: nothing changed in:\n%s", name, text);
    ck_assert_msg(!strcmp(got, want), "%s: got\n%s\nwant\n%s", name, got, want);
    ck_assert_int_eq(n, nwant);
    int again = -2;
    char *twice = fix(rs, name, got, &again);
    ck_assert_msg(twice == NULL, "%s: a second run changed it again:\n%s", name, twice);
    ck_assert_int_eq(again, 0);
    free(got);
}

#define PV "\"protocolVersions\": [\"2025-06-18\"]"

START_TEST(json_edits_keep_the_layout)
{
    struct rule_set *rs = tu_rules_ok(rules);
    /* a member added first, at the indentation of the others; values replaced in place */
    check_fix(rs, "a.json",
              "{" PV ", \"tools\": [\n  {\"inputSchema\": {\n      \"properties\": {\"a\": true, "
              "\"b\": false, \"c\": 1}\n  }}\n]}\n",
              "{" PV ", \"tools\": [\n  {\"inputSchema\": {\n      \"type\": \"object\",\n      "
              "\"properties\": {\"a\": {}, \"b\": {\"not\": {}}, \"c\": 1}\n  }}\n]}\n",
              3);
    /* inline, empty, CRLF, a member removed (middle, last, only) */
    check_fix(rs, "b.json",
              "{" PV ",\r\n \"tools\": [{\"inputSchema\": {}},\r\n  {\"inputSchema\": { "
              "\"properties\": {} }},\r\n  {\"inputSchema\": {\r\n    \"$ref\": \"#/x\"\r\n  "
              "}},\r\n  {\"a\": 1, \"x-drop\": 2, \"b\": 3},\r\n  {\"a\": 1, \"x-drop\": 2},\r\n "
              " {\"x-drop\": 2}]}\r\n",
              "{" PV ",\r\n \"tools\": [{\"inputSchema\": {\"type\": \"object\"}},\r\n  "
              "{\"inputSchema\": { \"type\": \"object\", \"properties\": {} }},\r\n  "
              "{\"inputSchema\": {\r\n    \"$ref\": \"#/x\"\r\n  }},\r\n  {\"a\": 1, \"b\": "
              "3},\r\n  {\"a\": 1},\r\n  {}]}\r\n",
              5);
    /* set at a pointer below the finding: an existing member's value replaced */
    check_fix(rs, "c.json",
              "{" PV ", \"tools\": [{\"annotations\": {\"title\": \"t\", \"readOnlyHint\": "
              "\"yes\"}}]}",
              "{" PV ", \"tools\": [{\"annotations\": {\"title\": \"t\", \"readOnlyHint\": "
              "false}}]}",
              1);
    /* non-ASCII around the edits */
    check_fix(rs, "d.json",
              "{" PV ", \"tools\": [{\"n\": \"caf\xc3\xa9\", \"inputSchema\": {\"properties\": "
              "{\"\xe2\x82\xac\": true}}}]}",
              "{" PV ", \"tools\": [{\"n\": \"caf\xc3\xa9\", \"inputSchema\": {\"type\": "
              "\"object\", \"properties\": {\"\xe2\x82\xac\": {}}}}]}",
              2);
    check_fix(rs, "e.json", "{" PV ", \"tools\": [{\"inputSchema\": {\"type\": \"object\"}}]}",
              NULL, 0);
    rule_set_free(rs);
}
END_TEST

START_TEST(yaml_edits_keep_comments_and_layout)
{
    struct rule_set *rs = tu_rules_ok(rules);
    check_fix(rs, "a.yaml",
              "protocolVersions: [2025-06-18]\n"
              "tools:\n"
              "  - inputSchema:   # args\n"
              "      # first a comment\n"
              "      properties:\n"
              "        a: true    # any\n"
              "        b: false\n"
              "  - inputSchema: {properties: {c: true}}\n"
              "  - inputSchema: {}\n"
              "  - k: 1\n"
              "    x-drop: 2   # goes\n"
              "    z: 3\n"
              "  - {k: 1, x-drop: 2}\n"
              "  - annotations:\n"
              "      readOnlyHint:\n",
              "protocolVersions: [2025-06-18]\n"
              "tools:\n"
              "  - inputSchema:   # args\n"
              "      # first a comment\n"
              "      type: object\n"
              "      properties:\n"
              "        a: {}    # any\n"
              "        b: {not: {}}\n"
              "  - inputSchema: {type: object, properties: {c: {}}}\n"
              "  - inputSchema: {type: object}\n"
              "  - k: 1\n"
              "    z: 3\n"
              "  - {k: 1}\n"
              "  - annotations:\n"
              "      readOnlyHint: false\n",
              9);
    /* the first member on the line of a sequence's dash */
    check_fix(rs, "b.yaml",
              "protocolVersions: [2025-06-18]\ntools:\n- inputSchema:\n    properties: {}\n",
              "protocolVersions: [2025-06-18]\ntools:\n- inputSchema:\n    type: object\n    "
              "properties: {}\n",
              1);
    rule_set_free(rs);
}
END_TEST

/* Text that other nodes share (an anchor, its alias, a merged member) is never edited;
 * a key that shares its line with a dash is not removed (the dash would go too). */
START_TEST(shared_yaml_is_left_alone)
{
    struct rule_set *rs = tu_rules_ok(rules);
    check_fix(rs, "a.yaml",
              "protocolVersions: [2025-06-18]\n"
              "tools:\n"
              "  - inputSchema: &s {properties: {a: true}}\n"
              "  - inputSchema: *s\n"
              "  - inputSchema:\n"
              "      <<: {properties: {b: true}}\n"
              "      required: []\n"
              "  - x-drop: 1\n"
              "    k: 2\n",
              "protocolVersions: [2025-06-18]\n"
              "tools:\n"
              "  - inputSchema: &s {properties: {a: true}}\n"
              "  - inputSchema: *s\n"
              "  - inputSchema:\n"
              "      <<: {properties: {b: true}}\n"
              "      type: object\n"
              "      required: []\n"
              "  - x-drop: 1\n"
              "    k: 2\n",
              1);
    rule_set_free(rs);
}
END_TEST

/* A finding reached through a $componentRef offers no fix: the edit would change the
 * component every other reference shares. */
START_TEST(no_fix_through_a_component)
{
    struct rule_set *rs = tu_rules_ok(rules);
    const char *text = "{" PV ", \"components\": {\"schemas\": {\"S\": {\"properties\": "
                       "{\"a\": true}}}}, \"tools\": [{\"inputSchema\": {\"$componentRef\": "
                       "\"#/components/schemas/S\"}}]}";
    struct judge_source src = {JUDGE_BUFFER, "a.json", NULL, text, strlen(text)};
    struct judge_result r;
    judge_document(rs, &src, NULL, &r);
    ck_assert_ptr_nonnull(r.d);
    size_t found = 0;
    for (size_t i = 0; i < r.diags.len; i++) {
        const struct diag *dg = &r.diags.items[i];
        if (!dg->rule || strncmp(dg->rule, "t.fix.", 6)) continue;
        found++;
        ck_assert_ptr_nonnull(dg->component);
        ck_assert_ptr_null(dg->fix);
        struct fix_offer o;
        ck_assert_int_eq(fix_for_diag(rs, r.d, dg, &o), 0);
    }
    ck_assert_uint_ge(found, 1);
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

/* What an editor gets for one diagnostic: the rule, the title with its placeholders, and
 * edits at the exact bytes of the judged text. */
START_TEST(offer_for_one_diagnostic)
{
    struct rule_set *rs = tu_rules_ok(rules);
    const char *text = "{" PV ", \"tools\": [{\"inputSchema\": {\"type\": \"object\", "
                       "\"properties\": {\"a\": true}}}]}";
    struct judge_source src = {JUDGE_BUFFER, "a.json", NULL, text, strlen(text)};
    struct judge_result r;
    judge_document(rs, &src, NULL, &r);
    ck_assert_ptr_nonnull(r.d);
    int offers = 0;
    for (size_t i = 0; i < r.diags.len; i++) {
        struct fix_offer o;
        if (!fix_for_diag(rs, r.d, &r.diags.items[i], &o)) continue;
        offers++;
        ck_assert_str_eq(o.rule, "t.fix.bool");
        ck_assert_str_eq(o.title, "replace true with {}");
        ck_assert_uint_eq(o.nedits, 1);
        const char *at = strstr(text, "true");
        ck_assert_uint_eq(o.edits[0].start, (size_t)(at - text));
        ck_assert_uint_eq(o.edits[0].end, (size_t)(at - text) + 4);
        ck_assert_str_eq(o.edits[0].text, "{}");
        fix_offer_release(&o);
        ck_assert_ptr_null(o.edits);
    }
    ck_assert_int_eq(offers, 1);
    judge_result_release(&r);
    rule_set_free(rs);
}
END_TEST

/* TEXT (YAML when IS_YAML) with the edit of fix_insert_member (MEMBER set) or
 * fix_append_item (MEMBER NULL) at POINTER applied (new), or NULL when none is made. */
static char *edited(const char *text, int is_yaml, const char *pointer, const char *member,
                    const char *value)
{
    struct doc_error err;
    doc *d = doc_load_buffer("t", text, strlen(text), is_yaml, NULL, &err);
    ck_assert_ptr_nonnull(d);
    json_t *v = json_loads(value, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(v);
    struct fix_edit e;
    int ok =
        member ? fix_insert_member(d, pointer, member, v, &e) : fix_append_item(d, pointer, v, &e);
    json_decref(v);
    doc_free(d);
    if (!ok) return NULL;
    struct buf b = BUF_INIT;
    buf_add(&b, text, e.start);
    buf_adds(&b, e.text);
    buf_adds(&b, text + e.end);
    free(e.text);
    return buf_detach(&b);
}

static void check_edited(const char *text, int is_yaml, const char *pointer, const char *member,
                         const char *value, const char *want)
{
    char *got = edited(text, is_yaml, pointer, member, value);
    if (!want) ck_assert_msg(got == NULL, "edited: %s", got);
    else ck_assert_str_eq(got ? got : "(no edit)", want);
    free(got);
}

/* The edits an editor's "suppress this finding" makes with the fix engine: a member added
 * to an item, an entry appended to a list, in JSON and YAML, laid out as the text is. */
START_TEST(insert_member_and_append_item)
{
    static const char entry[] = "{\"rule\": \"r.x\", \"reason\": \"\"}";
    static const char list[] = "[{\"rule\": \"r.x\", \"reason\": \"\"}]";
    /* JSON: a member on a line of its own, a list item on a line of its own or inline */
    check_edited("{\"t\": [\n  {\n    \"name\": \"a\"\n  }\n]}\n", 0, "/t/0", "x-i", list,
                 "{\"t\": [\n  {\n    \"x-i\": [{\"rule\": \"r.x\", \"reason\": \"\"}],\n    "
                 "\"name\": \"a\"\n  }\n]}\n");
    check_edited(
        "{\"l\": [\n    {\"rule\": \"q\"}\n  ]}", 0, "/l", NULL, entry,
        "{\"l\": [\n    {\"rule\": \"q\"},\n    {\"rule\": \"r.x\", \"reason\": \"\"}\n  ]}");
    check_edited("{\"l\": [1, 2]}", 0, "/l", NULL, "3", "{\"l\": [1, 2, 3]}");
    check_edited("{\"l\": [ ]}", 0, "/l", NULL, "3", "{\"l\": [3]}");
    /* YAML: block and flow items; a block sequence gets a "- " line at its dash */
    check_edited("t:\n  - name: a  # c\n    d: x\n", 1, "/t/0", "x-i", list,
                 "t:\n  - x-i: [{rule: r.x, reason: \"\"}]\n    name: a  # c\n    d: x\n");
    check_edited("t:\n  - {name: a}\n", 1, "/t/0", "x-i", list,
                 "t:\n  - {x-i: [{rule: r.x, reason: \"\"}], name: a}\n");
    check_edited("i:\n  - rule: q\n    reason: w   # why\nn: 1\n", 1, "/i", NULL, entry,
                 "i:\n  - rule: q\n    reason: w   # why\n  - {rule: r.x, reason: \"\"}\nn: 1\n");
    check_edited("i: [{rule: q}]\n", 1, "/i", NULL, entry,
                 "i: [{rule: q}, {rule: r.x, reason: \"\"}]\n");
    /* CRLF kept */
    check_edited("i:\r\n  - q\r\n", 1, "/i", NULL, "\"z\"", "i:\r\n  - q\r\n  - z\r\n");
    /* refused: the member is there, not an object or array, nothing there, shared text */
    check_edited("{\"t\": [{\"x-i\": {}}]}", 0, "/t/0", "x-i", list, NULL);
    check_edited("{\"t\": [{\"x-i\": {}}]}", 0, "/t/0/x-i", NULL, entry, NULL);
    check_edited("{\"t\": []}", 0, "/t/0", "x-i", list, NULL);
    check_edited("a: &x [1]\nb: *x\n", 1, "/b", NULL, "2", NULL);
}
END_TEST

/* Text that cannot be judged is an error and nothing is returned. */
START_TEST(unparseable_text_is_an_error)
{
    struct rule_set *rs = tu_rules_ok(rules);
    struct diag_list errs = DIAG_LIST_INIT;
    size_t len = 7;
    int n = 0;
    ck_assert_ptr_null(fix_text(rs, NULL, "a.json", "{\"a\": ", 6, &len, &n, &errs));
    ck_assert_int_eq(n, -1);
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "invalid JSON"));
    diag_list_release(&errs);
    rule_set_free(rs);
}
END_TEST

/* Two rules whose fixes undo each other never reach a fixpoint: after FIX_MAX_PASSES
 * passes that is an error, and nothing is returned. */
START_TEST(no_fixpoint_is_an_error)
{
    struct rule_set *rs =
        tu_rules_ok("rules:\n" RULE_N("t.one",
                                      "{select: /x, require: {equals: 1}, message: m, fix: {title: "
                                      "one, replace: 1}}")
                        RULE_N("t.two",
                               "{select: /x, require: {equals: 2}, message: m, fix: {title: two, "
                               "replace: 2}}"));
    struct diag_list errs = DIAG_LIST_INIT;
    int n = 0;
    ck_assert_ptr_null(fix_text(rs, NULL, "a.json", "{\"x\": 0}", 8, NULL, &n, &errs));
    ck_assert_int_eq(n, -1);
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "no fixpoint in 10 passes"));
    diag_list_release(&errs);
    rule_set_free(rs);
}
END_TEST

Suite *fix_suite(void)
{
    Suite *s = suite_create("fix");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, json_edits_keep_the_layout);
    tcase_add_test(tc, yaml_edits_keep_comments_and_layout);
    tcase_add_test(tc, shared_yaml_is_left_alone);
    tcase_add_test(tc, no_fix_through_a_component);
    tcase_add_test(tc, offer_for_one_diagnostic);
    tcase_add_test(tc, insert_member_and_append_item);
    tcase_add_test(tc, unparseable_text_is_an_error);
    tcase_add_test(tc, no_fixpoint_is_an_error);
    suite_add_tcase(s, tc);
    return s;
}
