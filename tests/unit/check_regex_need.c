/* check_regex_need.c - what a subject must hold for a pattern to match (rules/regex_need.h)
 * and a phrase set's hit (phrase_set_may_match_bytes): never "cannot" where PCRE2 finds a
 * match (every pattern against every subject, ASCII and not, a caseless k or s matched by
 * U+212A or U+017F among them), and "cannot" where it saves the call (too short, no byte a
 * match begins with, no byte every match holds). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <check.h>
#include <jansson.h>
#include <pcre2.h>
#include <string.h>

#include "resolve/sel.h"
#include "rules/phrase.h"
#include "rules/regex_need.h"
#include "testutil.h"
#include "base/buf.h"
#include "rules/ruleInt.h"

static const char *const patterns[] = {
    "<!--",
    "(?i)<\\s*/?\\s*(?:important|system)\\s*>|\\[/?INST\\]",
    "(?<![0-9A-Fa-f])[0-9A-Fa-f]{12,}",
    "(?i)(?<![0-9.])169\\.254\\.169\\.254(?![0-9])|metadata\\.google\\.internal",
    "(?:[ \\t\\x{A0}]{6,}|(?:\\r?\\n[ \\t]*){3,})(?=\\S)",
    "(?i)kelvin",
    "(?i)ask",
    "(?i)s",
    "x*",
    "^abc",
    "(?m)^abc",
    "\\x{212A}",
    "caf\\x{E9}",
    "[^a]",
    "a|\\d",
    "(?=.*z)q",
};

static const char *const subjects[] = {
    "",
    "plain words only",
    "a <!-- hidden --> comment",
    "< IMPORTANT >",
    "[INST] hi",
    "deadbeefcafe0123",
    "at 169.254.169.254 now",
    "METADATA.GOOGLE.INTERNAL",
    "gap       here",
    "lines\n\n\n\nx",
    "\xE2\x84\xAA"
    "elvin", /* U+212A KELVIN SIGN, caseless k */
    "a\xC5\xBF"
    "k", /* U+017F LONG S, caseless s */
    "\xC5\xBF",
    "caf\xC3\xA9",
    "abc",
    "x\nabc",
    "aaaa",
    "7",
    "zq",
    "q then z",
    "Ask",
    "\xC2\xA0\xC2\xA0\xC2\xA0\xC2\xA0\xC2\xA0\xC2\xA0y",
};

static int may(pcre2_code *code, const char *s)
{
    struct regex_need need;
    regex_need_of(code, &need);
    struct cursor c;
    json_t *v;
    tu_text_cursor(s, &c, &v);
    int r = regex_need_may_match(&need, strlen(s), c.text_ascii,
                                 (c.text_facts & SEL_TEXT_NON_ASCII) != 0);
    json_decref(v);
    return r;
}

START_TEST(never_cannot_where_pcre2_matches)
{
    pcre2_code *code = tu_pcre_compile(patterns[_i]);
    for (size_t k = 0; k < sizeof subjects / sizeof *subjects; k++)
        if (tu_pcre_matches(code, subjects[k]))
            ck_assert_msg(may(code, subjects[k]), "%s matches \"%s\", said cannot", patterns[_i],
                          subjects[k]);
    pcre2_code_free(code);
}
END_TEST

START_TEST(cannot_where_it_saves_the_call)
{
    static const struct {
        const char *pattern, *subject;
    } none[] = {
        {"<!--", "plain words only"},                /* no first byte */
        {"(?<![0-9A-Fa-f])[0-9A-Fa-f]{12,}", "abc"}, /* too short */
        {"(?i)kelvin", "plain words only"},          /* no k or K */
        {"(?=.*z)q", "zzz"},                         /* no q */
        {"\\x{E9}", "cafe"},                         /* a byte above ASCII, in none */
    };
    for (size_t k = 0; k < sizeof none / sizeof *none; k++) {
        pcre2_code *code = tu_pcre_compile(none[k].pattern);
        ck_assert_msg(!may(code, none[k].subject), "%s on \"%s\": said may", none[k].pattern,
                      none[k].subject);
        pcre2_code_free(code);
    }
    /* a caseless letter's other forms beyond ASCII: a text above ASCII is always searched */
    pcre2_code *code = tu_pcre_compile("(?i)kelvin");
    ck_assert(may(code,
                  "\xE2\x84\xAA"
                  "elvin"));
    ck_assert(may(code, "KELVIN"));
    pcre2_code_free(code);
}
END_TEST

/* A phrase set answers for the folded text: white space turns into spaces, ignorables go. */
START_TEST(phrase_set_never_cannot_where_it_hits)
{
    static const char *const phrases[] = {"ignore (all)? previous instructions", "id_rsa",
                                          "do not tell the user"};
    static const char *const texts[] = {
        "Ignore\tall\n previous   instructions",
        "IGNORE\xC2\xA0previous instructions",
        "read ~/.ssh/ID_RSA now",
        "do\xE2\x80\x8Bnot tell the user",
        "do not\ntell the user",
        "fine text",
        "id",
        "\xC5\xBF",
    };
    char *why = NULL;
    struct phrase_set *set = phrase_set_compile(
        phrases, 3, PHRASE_FOLD_CASE | PHRASE_FOLD_SPACE | PHRASE_FOLD_ZW | PHRASE_WORDS, &why);
    ck_assert_msg(set != NULL, "%s", why ? why : "");
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        struct phrase_text t;
        phrase_fold(texts[k], strlen(texts[k]),
                    PHRASE_FOLD_CASE | PHRASE_FOLD_SPACE | PHRASE_FOLD_ZW | PHRASE_WORDS, &t);
        size_t b, e;
        int hit = phrase_find(set, NULL, &t, 0, &b, &e);
        phrase_text_release(&t);
        struct cursor c;
        json_t *v;
        tu_text_cursor(texts[k], &c, &v);
        int may_hit = phrase_set_may_match_bytes(set, strlen(texts[k]), c.text_ascii,
                                                 (c.text_facts & SEL_TEXT_NON_ASCII) != 0);
        json_decref(v);
        if (hit) ck_assert_msg(may_hit, "\"%s\" hits, said cannot", texts[k]);
        if (k == 6) ck_assert_msg(!may_hit, "\"id\" is shorter than any phrase");
    }
    phrase_set_free(set);
}
END_TEST

/* key: {matches: ...} on a text node judges the member name, not the value: the value's
 * text facts (no 'z' in "aaa") must not rule out a match in the name "zzz". */
START_TEST(key_is_judged_without_the_values_facts)
{
    struct rule_set *rs = tu_rules_ok(
        "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n"
        "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"
        "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"
        "    check: {select: /x, require: {key: {matches: z}}, message: m}\n");
    const struct pred *p = rs->rules.items[0].check->require;
    struct eval_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.detail = (struct buf)BUF_INIT;
    json_t *obj = json_pack("{s:s}", "zzz", "aaa");
    struct cursor parent, c;
    memset(&parent, 0, sizeof parent);
    parent.v = obj;
    memset(&c, 0, sizeof c);
    c.parent = &parent;
    c.key = "zzz";
    c.v = json_object_get(obj, "zzz");
    c.depth = 1;
    sel_text_facts(&c);
    ck_assert(c.text_facts & SEL_TEXT_FACTS);
    ck_assert_int_eq(fn_eval(p, &c, &ctx), 1);
    json_decref(obj);
    buf_release(&ctx.detail);
    fn_indexes_free(&ctx);
    rule_set_free(rs);
}
END_TEST

Suite *regex_need_suite(void)
{
    Suite *s = suite_create("regex_need");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, never_cannot_where_pcre2_matches, 0,
                        (int)(sizeof patterns / sizeof *patterns));
    tcase_add_test(tc, cannot_where_it_saves_the_call);
    tcase_add_test(tc, key_is_judged_without_the_values_facts);
    tcase_add_test(tc, phrase_set_never_cannot_where_it_hits);
    suite_add_tcase(s, tc);
    return s;
}
