/* check_rules.c - the rule loader: every kind of mistake a rule author makes is refused
 * with file:line:column, a message that says what is wrong and a hint that says what to
 * do. One case per loop index. What the manifest says is the rule set's to answer. */
#include <check.h>
#include <string.h>

#include "testutil.h"
#include "base/util.h"

#define HEAD                                                                                       \
    "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n"                 \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"

static const struct {
    const char *text;
    unsigned line, col;
    const char *message; /* a substring of the first error */
} cases[] = {
    /* unknown predicate, with a suggestion */
    {HEAD "    check: {select: /tools/*, require: {json-typ: object}, message: m}\n", 13, 41,
     "unknown predicate \"json-typ\": did you mean \"json-type\"?"},
    /* ... a schema predicate too (fn_schema.c's are in the one table) */
    {HEAD "    check: {select: /tools/*, require: {valid-schem: 2020-12}, message: m}\n", 13, 41,
     "unknown predicate \"valid-schem\": did you mean \"valid-schema\"?"},
    /* wrong argument type */
    {HEAD "    check: {select: /tools/*, require: {json-type: 5}, message: m}\n", 13, 52,
     "json-type takes object, array, string, number, integer, boolean or null"},
    {HEAD "    check: {select: /tools/*, require: {has: {a: 1}}, message: m}\n", 13, 46,
     "has takes a member name or a non-empty list of names"},
    {HEAD "    check: {select: /tools/*, require: {all: {json-type: object}}, message: m}\n", 13,
     46, "all takes a non-empty list of predicates"},
    /* unknown version, in applies and in a branch */
    {"rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n    level: must\n"
     "    status: stable\n    enforcement: internal\n    applies: {from: 2025-12-01}\n    summary: "
     "s\n"
     "    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: {require: {has: a}, "
     "message: m}\n",
     9, 21, "unknown protocol version \"2025-12-01\" (the manifest knows: 2024-11-05"},
    {HEAD "    check:\n      select: /tools/*\n      first:\n        - versions: [2024-11-05, "
          "2025-11-26]\n"
          "          require: {json-type: object}\n          message: m\n",
     16, 34, "unknown protocol version \"2025-11-26\""},
    {HEAD "    check: {versions: {from: 2026-07-28, before: 2025-06-18}, require: {json-type: "
          "object}, message: m}\n",
     13, 23, "this version range is empty"},
    /* missing fields */
    {"rules:\n  - id: t.x\n    owner: t\n", 2, 5, "a rule has no \"surface\" (it is required)"},
    {HEAD "    check: {select: /tools/*, require: {json-type: object}}\n", 13, 12,
     "check has no \"message\" (it is required)"},
    {HEAD, 2, 5, "a rule has no \"check\""},
    /* unknown member, with a suggestion */
    {HEAD "    exmaples: []\n    check: {require: {json-type: object}, message: m}\n", 13, 5,
     "unknown member \"exmaples\" in a rule: did you mean \"examples\"?"},
    /* wrong level word */
    {"rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n    level: MUST\n"
     "    status: stable\n    enforcement: internal\n    applies: all\n    summary: s\n    "
     "requirement: r\n"
     "    based-on: [{tier: 1, text: src}]\n    check: {require: {has: a}, message: m}\n",
     6, 12, "level must be must (error), should (warning) or may (info), not \"MUST\""},
    /* bad selector and bad pointer */
    {HEAD "    check: {select: /tools/~9, require: {json-type: object}, message: m}\n", 13, 21,
     "bad selector \"/tools/~9\": '~' in a JSON Pointer must be followed by 0 or 1"},
    {HEAD "    examples: [{expect: valid, fixture: f.json, pointer: tools}]\n"
          "    check: {require: {json-type: object}, message: m}\n",
     13, 58, "bad JSON Pointer"},
    /* ... one that starts well but has a '~' it must refuse; an expect not a string */
    {HEAD "    examples: [{expect: valid, fixture: f.json, pointer: /tools/~2}]\n"
          "    check: {require: {json-type: object}, message: m}\n",
     13, 58, "bad JSON Pointer: '~' in a JSON Pointer must be followed by 0 or 1"},
    {HEAD "    examples: [{expect: [valid], fixture: f.json, pointer: /tools}]\n"
          "    check: {require: {json-type: object}, message: m}\n",
     13, 25, "\"expect\" of an example must be a string, not a list"},
    /* several forms in one check */
    {HEAD "    check: {require: {json-type: object}, message: m, all: [{require: {has: a}, "
          "message: n}]}\n",
     13, 12, "needs exactly one of \"require\""},
    /* report-at: a word it does not know; beside all/first */
    {HEAD "    check: {require: {has: a}, message: m, report-at: here}\n", 13, 55,
     "report-at is \"node\" (the judged node, the default), \"failure\""},
    {HEAD "    check: {all: [{require: {has: a}, message: m}], report-at: failure}\n", 13, 53,
     "\"report-at\" belongs beside \"require\""},
    /* a predicate with two members */
    {HEAD "    check: {require: {has: a, lacks: b}, message: m}\n", 13, 22,
     "a predicate is a mapping with exactly one member"},
    /* duplicate YAML key */
    {HEAD "    check: {require: {has: a}, message: m, message: n}\n", 13, 44,
     "duplicate key \"message\""},
    /* YAML syntax */
    {HEAD "    check: {require: {has: a}\n", 14, 1, "invalid YAML"},
    /* named predicates: undefined and recursive */
    {"predicates:\n  p: {use: q}\n  q: {not: {use: p}}\n" HEAD
     "    check: {require: {use: p}, message: m}\n",
     3, 18, "predicate \"p\" refers to itself"},
    {HEAD "    check: {require: {use: nothing}, message: m}\n", 13, 28,
     "no predicate named \"nothing\" under \"predicates:\""},
    /* ... a predicate of the table written with use (a schema predicate too) */
    {HEAD "    check: {require: {use: matches-schem}, message: m}\n", 13, 28,
     "no predicate named \"matches-schem\" under \"predicates:\" in the set's rule files: did you "
     "mean \"matches-schema\"?"},
    /* JSONPath where a selector belongs: our form in the hint */
    {HEAD "    check: {select: '$.tools[*].name', require: {has: a}, message: m}\n", 13, 21,
     "selector \"$.tools[*].name\" is JSONPath, not a selector"},
    {HEAD "    check: {select: '/tools[*]/name', require: {has: a}, message: m}\n", 13, 21,
     "selector \"/tools[*]/name\" is JSONPath"},
    {HEAD "    check: {select: /tools/*, require: {every: {select: '..x', require: {has: a}}}, "
          "message: m}\n",
     13, 57, "selector \"..x\" is JSONPath"},
    /* duplicate rule id */
    {HEAD "    check: {require: {has: a}, message: m}\n"
          "  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n"
          "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"
          "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
          "    check: {require: {has: a}, message: m}\n",
     14, 9, "duplicate rule id \"t.x\""},
    /* bad rule id; bad tier */
    {"rules:\n  - id: Tool.Name\n", 2, 9,
     "rule id \"Tool.Name\" must be dot-separated lowercase words"},
    {"rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n    level: must\n"
     "    status: stable\n    enforcement: internal\n    applies: all\n    summary: s\n"
     "    requirement: r\n    based-on: [{tier: 7, text: src}]\n",
     12, 23, "based-on needs \"tier\": 1 to 4"},
    /* presets: an unknown name (with a suggestion), "recommended" (the default, never
     * written), a preset without its reason, a reason without a preset, an empty reason */
    {HEAD
     "    preset: strikt\n    preset-reason: why\n    check: {require: {has: a}, message: m}\n",
     13, 13, "preset must be strict or all, not \"strikt\": did you mean \"strict\"?"},
    {HEAD "    preset: recommended\n    preset-reason: why\n    check: {require: {has: a}, "
          "message: m}\n",
     13, 13, "preset must be strict or all, not \"recommended\""},
    {HEAD
     "    preset: [strict]\n    preset-reason: why\n    check: {require: {has: a}, message: m}\n",
     13, 13, "preset must be strict or all, not a list"},
    {HEAD "    preset: strict\n    check: {require: {has: a}, message: m}\n", 13, 5,
     "a rule with \"preset\" needs a \"preset-reason\""},
    {HEAD "    preset-reason: why\n    check: {require: {has: a}, message: m}\n", 13, 5,
     "\"preset-reason\" without \"preset\""},
    {HEAD "    preset: all\n    preset-reason: \"\"\n    check: {require: {has: a}, message: m}\n",
     14, 20, "preset-reason must be a non-empty string"},
    {HEAD "    presets: all\n    check: {require: {has: a}, message: m}\n", 13, 5,
     "unknown member \"presets\" in a rule: did you mean \"preset\"?"},
    /* fixes: beside require only; members; exactly one edit; "at" below the value;
     * fix examples name their "after", and only they do */
    {HEAD "    check: {all: [{require: {has: a}, message: m}], fix: {title: t, replace: 1}}\n", 13,
     53, "\"fix\" belongs beside \"require\" and \"message\""},
    {HEAD "    check: {require: {has: a}, message: m, fix: {title: t, with: 1}}\n", 13, 60,
     "unknown member \"with\" in a fix"},
    {HEAD "    check: {require: {has: a}, message: m, fix: 5}\n", 13, 49,
     "a fix must be a mapping, not a integer"},
    {HEAD "    check: {require: {has: a}, message: m, fix: {title: t, replace: 1, remove: a}}\n",
     13, 49,
     "a fix needs exactly one of \"replace\", \"set\", \"add\" or \"remove\"; found several"},
    {HEAD "    check: {require: {has: a}, message: m, fix: {title: t, add: {member: a}}}\n", 13, 65,
     "\"add\" of a fix has no \"value\""},
    {HEAD "    check: {require: {has: a}, message: m, fix: {replace: 1}}\n", 13, 49,
     "a fix has no \"title\" (it is required)"},
    {HEAD "    check: {require: {has: a}, message: m, fix: {title: t, at: /type, remove: a}}\n", 13,
     64, "a fix's \"at\" is a non-empty JSON Pointer below the finding's value"},
    {HEAD "    check: {require: {has: a}, message: m, fix: [{title: t, remove: [a]}]}\n", 13, 69,
     "\"remove\" of a fix names a member (a string), not a list"},
    {HEAD "    examples: [{expect: fix, fixture: f.json, pointer: /tools}]\n"
          "    check: {require: {json-type: object}, message: m}\n",
     13, 16, "a fix example has no \"after\" (it is required)"},
    {HEAD "    examples: [{expect: valid, fixture: f.json, after: g.json, pointer: /tools}]\n"
          "    check: {require: {json-type: object}, message: m}\n",
     13, 49, "\"after\" belongs to an example with expect: fix"},
    /* top level */
    {"- just a list\n", 1, 1, "a rule file is a mapping with \"rules:\""},
    /* recursive YAML alias */
    {"rules: &r [*r]\n", 1, 12, "refers to no complete anchor"},
};

START_TEST(refuses_with_position)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(cases[_i].text, &errs);
    ck_assert_ptr_null(rs);
    ck_assert_uint_ge(errs.len, 1);
    const struct diag *d = &errs.items[0];
    ck_assert_msg(strstr(d->message, cases[_i].message) != NULL,
                  "case %d: message \"%s\" lacks \"%s\"", _i, d->message, cases[_i].message);
    ck_assert_msg(d->line == cases[_i].line && d->col == cases[_i].col,
                  "case %d (%s): at %u:%u, expected %u:%u", _i, d->message, d->line, d->col,
                  cases[_i].line, cases[_i].col);
    ck_assert_ptr_nonnull(strstr(d->file, "test.yaml"));
    diag_list_release(&errs);
}
END_TEST

/* All mistakes of a file are reported, not only the first. */
START_TEST(reports_every_mistake)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs =
        tu_rules(HEAD "    check:\n      all:\n"
                      "        - {require: {json-typo: object}, message: a}\n"
                      "        - {versions: [1999-01-01], require: {has: a}, message: b}\n"
                      "        - {require: {has: a}}\n",
                 &errs);
    ck_assert_ptr_null(rs);
    ck_assert_uint_eq(errs.len, 3);
    ck_assert_uint_eq(errs.items[0].line, 15);
    ck_assert_uint_eq(errs.items[1].line, 16);
    ck_assert_uint_eq(errs.items[2].line, 17);
    diag_list_release(&errs);
}
END_TEST

/* Every error of the loader carries its hint: the one for its kind of mistake, else where
 * the rule format is described. */
static const struct {
    const char *message, *hint; /* substrings */
} hints[] = {
    {"unknown protocol version",
     "use a version the manifest lists, or add it to \"versions\" in manifest.yaml"},
    {"bad JSON Pointer", "an example's pointer is an RFC 6901 pointer from the fixture's root"},
    {"bad selector", "a selector is a JSON Pointer whose segment * means every member"},
    {"unknown predicate", "use one of the predicates listed in rules-yaml/README.md (Predicates)"},
    {"this version range is empty",
     "\"from\" must be older than \"before\" (versions in manifest order)"},
    {"duplicate rule id", "rule ids are unique in the set: rename one of the rules"},
    {"unknown member", "remove the member or correct its spelling"},
    {"level must be", "write must, should or may in lower case"},
    {"a predicate is a mapping", "write the predicate as {NAME: ARGUMENT}"},
    {"did you mean \"matches-schema\"",
     "matches-schema is a predicate of the rule format: write {matches-schema: ARGUMENT} without "
     "use"},
    {"no predicate named",
     "define it under \"predicates:\" in one of the set's rule files, or correct the name"},
    {"$.tools[*].name\" is JSONPath", "write /tools/[*]/name: a selector is a JSON Pointer"},
    {"/tools[*]/name\" is JSONPath", "write /tools/[*]/name: a selector is a JSON Pointer"},
    {"..x\" is JSONPath", "write **/x: a selector is a JSON Pointer"},
    {"not \"recommended\"", "leave \"preset\" out: a rule without it is in recommended"},
    {"preset must be strict or all", "write strict (advice a careful author follows) or all"},
    {"needs a \"preset-reason\"", "add preset-reason: one sentence saying why a server author"},
    {"without \"preset\"", "add preset: strict or preset: all, or remove preset-reason"},
    {"preset-reason must be", "write one sentence: why a server author is better off"},
    {"invalid YAML", "check the YAML syntax near here: an unclosed { or ["},
    {"a fix must be a mapping", "write fix: {title: TEXT, replace: VALUE} (or set, add, remove)"},
    {"a fix's \"at\"", "write at: type (relative to the finding, no leading slash)"},
    {"or \"remove\"; found several", "keep one action; for another case write a list of fixes"},
    {"\"add\" or \"remove\"", "add replace: VALUE, set: {member, value}, add: {member, value}"},
    {"of a fix has no \"value\"", "write add: {member: NAME, value: VALUE}"},
    {"a fix has no \"title\"", "add title: TEXT, what an editor shows for the fix"},
    {"of a fix names a member", "write remove: NAME, the member to remove"},
    {"\"after\" belongs to an example",
     "write {expect: fix, fixture: BEFORE, after: AFTER, pointer: P}"},
    {"must be a mapping, not", "write {member: NAME, value: VALUE}"},
};

START_TEST(errors_carry_their_hint)
{
    struct diag_list errs = DIAG_LIST_INIT;
    ck_assert_ptr_null(tu_rules(cases[_i].text, &errs));
    for (size_t i = 0; i < errs.len; i++) {
        const struct diag *d = &errs.items[i];
        const char *want = "see rules-yaml/README.md for the rule format";
        for (size_t k = 0; k < sizeof hints / sizeof *hints; k++)
            if (strstr(d->message, hints[k].message)) {
                want = hints[k].hint;
                break;
            }
        ck_assert_msg(d->hint && strstr(d->hint, want),
                      "case %d: \"%s\" has hint \"%s\", not \"%s\"", _i, d->message,
                      d->hint ? d->hint : "(none)", want);
    }
    diag_list_release(&errs);
}
END_TEST

/* The manifest's docs-url and tier names, as loaded; NULL when it says nothing. */
/* A rule's preset, its reason, and which presets run it (recommended within strict within
 * all); a rule without `preset` is in recommended. */
START_TEST(presets_of_rules)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(
        HEAD "    check: {require: {has: a}, message: m}\n"
             "  - id: t.y\n    owner: t\n    surface: Tool\n    kind: structural\n"
             "    level: should\n    status: stable\n    enforcement: internal\n"
             "    preset: strict\n    preset-reason: Authors cannot act on it.\n    applies: all\n"
             "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
             "    check: {require: {has: a}, message: m}\n",
        &errs);
    ck_assert_msg(rs != NULL, "%s", errs.len ? errs.items[0].message : "");
    const struct rule *x = rule_set_find(rs, "t.x"), *y = rule_set_find(rs, "t.y");
    ck_assert_int_eq(rule_preset(x), RULE_PRESET_RECOMMENDED);
    ck_assert_ptr_null(rule_preset_reason(x));
    ck_assert_int_eq(rule_preset(y), RULE_PRESET_STRICT);
    ck_assert_str_eq(rule_preset_reason(y), "Authors cannot act on it.");
    ck_assert(rule_in_preset(x, RULE_PRESET_RECOMMENDED) &&
              !rule_in_preset(y, RULE_PRESET_RECOMMENDED));
    ck_assert(rule_in_preset(y, RULE_PRESET_STRICT) && rule_in_preset(y, RULE_PRESET_ALL));
    ck_assert(rule_in_preset(y, RULE_PRESET_NONE));
    ck_assert(rule_set_has_presets(rs));
    ck_assert(rule_set_preset_narrows(rs, RULE_PRESET_RECOMMENDED));
    ck_assert(!rule_set_preset_narrows(rs, RULE_PRESET_STRICT));
    enum rule_preset p;
    ck_assert_int_eq(rule_preset_parse("all", &p), 0);
    ck_assert_int_eq(p, RULE_PRESET_ALL);
    ck_assert_int_eq(rule_preset_parse("Strict", &p), -1);
    ck_assert_int_eq(rule_preset_parse(NULL, &p), -1);
    ck_assert_str_eq(rule_preset_name(RULE_PRESET_RECOMMENDED), "recommended");
    ck_assert_ptr_null(rule_preset_name(RULE_PRESET_NONE));
    rule_set_free(rs);
}
END_TEST

START_TEST(manifest_accessors)
{
    const char *files[] = {"test.yaml"}, *texts[] = {"rules: []\n"};
    char *dir = tu_rule_dir(files, texts, 1);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_ptr_nonnull(rs);
    ck_assert_ptr_null(rule_set_docs_url(rs));
    ck_assert_ptr_null(rule_set_tier_name(rs, 1));
    rule_set_free(rs);
    char *path = xasprintf("%s/manifest.yaml", dir);
    FILE *f = fopen(path, "a");
    fputs("docs-url: https://example.test/rules\ntiers:\n  1: First tier\n  3: Third tier\n", f);
    fclose(f);
    rs = rule_set_load(dir, &errs);
    ck_assert_ptr_nonnull(rs);
    ck_assert_str_eq(rule_set_docs_url(rs), "https://example.test/rules");
    ck_assert_str_eq(rule_set_tier_name(rs, 1), "First tier");
    ck_assert_ptr_null(rule_set_tier_name(rs, 2));
    ck_assert_str_eq(rule_set_tier_name(rs, 3), "Third tier");
    rule_set_free(rs);
    ck_assert_uint_eq(errs.len, 0);
    free(path);
    tu_rmdir(dir);
}
END_TEST

START_TEST(manifest_mistakes)
{
    const char *files[] = {"test.yaml"}, *texts[] = {"rules: []\n"};
    char *dir = tu_rule_dir(files, texts, 1);
    char *path = xasprintf("%s/manifest.yaml", dir);
    FILE *f = fopen(path, "w");
    fputs("name: x\ntag: t\ndescription-format: 0.9.0\nversions: [2025-06-18, 2024-11-05]\n", f);
    fclose(f);
    struct diag_list errs = DIAG_LIST_INIT;
    ck_assert_ptr_null(rule_set_load(dir, &errs));
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "oldest first"));
    ck_assert_str_eq(errs.items[0].hint, "reorder the manifest's versions, oldest first");
    ck_assert_uint_eq(errs.items[0].line, 4);
    ck_assert_uint_eq(errs.items[0].col, 24);
    diag_list_release(&errs);
    /* a name and a tag that are not names (the tag names tags/TAG.lock) */
    f = fopen(path, "w");
    fputs("name: 'My Rules'\ntag: ../../evil\ndescription-format: 0.9.0\nversions: [2025-06-18]\n",
          f);
    fclose(f);
    ck_assert_ptr_null(rule_set_load(dir, &errs));
    ck_assert_uint_ge(errs.len, 2);
    ck_assert_str_eq(errs.items[0].message,
                     "the manifest's name \"My Rules\" is not a rule set name");
    ck_assert_uint_eq(errs.items[0].line, 1);
    ck_assert_uint_eq(errs.items[0].col, 7);
    ck_assert_ptr_nonnull(strstr(errs.items[0].hint, "lowercase letters, digits, - and ."));
    ck_assert_str_eq(errs.items[1].message, "the manifest's tag \"../../evil\" is not a tag name");
    ck_assert_uint_eq(errs.items[1].line, 2);
    ck_assert_uint_eq(errs.items[1].col, 6);
    ck_assert_ptr_nonnull(strstr(errs.items[1].hint, "not starting with . or -"));
    diag_list_release(&errs);
    free(path);
    tu_rmdir(dir);
}
END_TEST

Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("loader");
    tcase_add_loop_test(tc, refuses_with_position, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, reports_every_mistake);
    tcase_add_loop_test(tc, errors_carry_their_hint, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, manifest_mistakes);
    tcase_add_test(tc, manifest_accessors);
    tcase_add_test(tc, presets_of_rules);
    suite_add_tcase(s, tc);
    return s;
}
