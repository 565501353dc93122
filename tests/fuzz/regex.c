/* regex.c - libFuzzer harness: the ECMA-262 pattern checker (schema_regex_check.c) and
 * the translation to PCRE2 (schema_regex.c). Each input is used twice:
 *
 * 1. Its bytes as a pattern. schema_regex_check and schema_regex_runnable must return
 *    (no crash, leak, undefined behaviour or hang), agree (runnable says invalid exactly
 *    when check does), and explain every refusal ("(character N)" for an invalid one);
 *    schema_re_compile must agree with them, and a pattern it compiles must match.
 *
 * 2. Its bytes as a sentence of TOKENS (each byte picks one, at most 64), a pattern in
 *    the COMMON SUBSET of ECMA-262 (Unicode mode) and PCRE2 (as mcpdesc compiles it), on
 *    which the two must give the same verdict: the checker says valid exactly when PCRE2
 *    compiles the translated pattern (and then it is runnable: never "cannot check").
 *    The subset is every token sentence except those with, outside a class:
 *      - a ']' token (ECMA-262 Unicode mode: a lone ']' is an error; PCRE2: a literal);
 *      - a quantifier token right after the ')' of a lookahead (?= or (?! (Unicode
 *        mode cannot quantify an assertion; PCRE2 can);
 *      - a '+' token right after a quantifier token (a PCRE2 possessive quantifier;
 *        ECMA-262 has none);
 *      - a '\-' token (Unicode mode escapes '-' only in a class; PCRE2 anywhere);
 *    and, anywhere, a digit token right after '\0' or '\1' (ECMA-262: \00 is an error
 *    and \10 a reference to group 10; PCRE2 reads both as octal escapes), and '\1' in a
 *    class (an error in Unicode mode; PCRE2's octal 1), and a quantifier token right after
 *    '(' (ECMA-262: nothing to repeat; PCRE2 reads "(?" and "(*" as group syntax), and
 *    '\s' right after '-' in a class (an error in ECMA-262; mcpdesc writes \s in a class
 *    as its characters, so PCRE2 sees a range ending at U+0009).
 *    Those eight are the differences the checker exists to report; every other sentence
 *    means the same in both dialects, so a disagreement is a bug in the checker or in
 *    the translation. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "schema/schemaInt.h"

enum kind {
    LIT,
    OPEN,
    OPEN_LOOK,
    CLOSE,
    CLASS_OPEN,
    CLASS_CLOSE,
    QUANT,
    PLUS,
    ASSERT,
    CLASS_ESCAPE, /* \- : an escape Unicode mode allows only in a class */
    DIGIT_ESCAPE, /* \0 \1 : a digit after them makes another escape */
    DIGIT,
};

static const struct token {
    const char *text;
    enum kind kind;
} TOKENS[] = {
    {"a", LIT},
    {"b", LIT},
    {"0", DIGIT},
    {".", LIT},
    {"-", LIT},
    {",", LIT},
    {"\\d", LIT},
    {"\\w", LIT},
    {"\\s", LIT},
    {"\\D", LIT},
    {"\\W", LIT},
    {"\\S", LIT},
    {"\\.", LIT},
    {"\\*", LIT},
    {"\\(", LIT},
    {"\\)", LIT},
    {"\\[", LIT},
    {"\\]", LIT},
    {"\\|", LIT},
    {"\\\\", LIT},
    {"\\n", LIT},
    {"\\t", LIT},
    {"\\/", LIT},
    {"\\-", CLASS_ESCAPE},
    {"\\x41", LIT},
    {"\\u0041", LIT},
    {"\\u{1F600}", LIT},
    {"\\cA", LIT},
    {"\\0", DIGIT_ESCAPE},
    {"\\1", DIGIT_ESCAPE},
    {"^", ASSERT},
    {"$", ASSERT},
    {"\\b", ASSERT},
    {"\\B", ASSERT},
    {"|", ASSERT},
    {"(", OPEN},
    {"(?:", OPEN},
    {"(?=", OPEN_LOOK},
    {"(?!", OPEN_LOOK},
    {")", CLOSE},
    {"[", CLASS_OPEN},
    {"[^", CLASS_OPEN},
    {"]", CLASS_CLOSE},
    {"*", QUANT},
    {"+", PLUS},
    {"?", QUANT},
    {"*?", QUANT},
    {"{2}", QUANT},
    {"{1,}", QUANT},
    {"{1,3}", QUANT},
    {"{3,1}", QUANT},
    {"\xC3\xA9", LIT},
};
#define NTOKENS (sizeof TOKENS / sizeof TOKENS[0])

static int pcre2_compiles(const char *pat, size_t len)
{
    size_t tlen;
    char *t = schema_regex_translate(pat, len, &tlen);
    int code;
    PCRE2_SIZE off;
    pcre2_code *re =
        pcre2_compile((PCRE2_SPTR)t, tlen, SCHEMA_REGEX_PCRE2_OPTIONS, &code, &off, NULL);
    free(t);
    pcre2_code_free(re);
    return re != NULL;
}

static void as_pattern(const char *pat, size_t len)
{
    char *why = NULL, *why2 = NULL, *err = NULL;
    int checked = schema_regex_check(pat, len, &why);
    if (checked < 0 && (!why || (!strstr(why, "(character ") && !strstr(why, "UTF-8"))))
        fuzz_fail("an invalid pattern without its character: %s", why ? why : "(none)");
    if (checked == 0 && why) fuzz_fail("a valid pattern with an explanation: %s", why);
    int run = schema_regex_runnable(pat, len, &why2);
    if ((run < 0) != (checked < 0)) fuzz_fail("check says %d, runnable %d", checked, run);
    if (run == 0 && !why2) fuzz_fail("an unrunnable pattern without an explanation");
    struct schema_re *re = schema_re_compile(pat, len, 1u << 20, 0, &err);
    if (!re != (checked < 0)) fuzz_fail("check says %d, compile %s", checked, re ? "ok" : err);
    if (re && !re->code != (run == 0))
        fuzz_fail("runnable says %d, compiled code %p", run, (void *)re->code);
    if (re && re->code) { /* it must run on a few subjects without a PCRE2 error */
        static const char *const subjects[] = {"", "a", "ab0-", "\n\xC3\xA9\xF0\x9F\x98\x80"};
        pcre2_match_data *md = pcre2_match_data_create(4, NULL);
        pcre2_match_context *mc = pcre2_match_context_create(NULL);
        pcre2_set_match_limit(mc, 100000);
        pcre2_set_depth_limit(mc, 1000);
        for (size_t i = 0; i < sizeof subjects / sizeof *subjects; i++) {
            int rc =
                pcre2_match(re->code, (PCRE2_SPTR)subjects[i], strlen(subjects[i]), 0, 0, md, mc);
            if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && rc != PCRE2_ERROR_MATCHLIMIT &&
                rc != PCRE2_ERROR_DEPTHLIMIT)
                fuzz_fail("a compiled pattern fails to match: PCRE2 error %d", rc);
        }
        pcre2_match_context_free(mc);
        pcre2_match_data_free(md);
    }
    schema_re_free(re);
    free(why);
    free(why2);
    free(err);
}

static void as_tokens(const uint8_t *data, size_t size)
{
    char pat[64 * 12];
    size_t len = 0;
    int in_class = 0, subset = 1;
    enum kind prev = ASSERT, prev_token = ASSERT;
    int after_paren = 0, after_dash = 0, after_s = 0; /* the last token was "(", "-", "\\s" */
    char stack[64];
    int depth = 0;
    for (size_t i = 0; i < size && i < 64; i++) {
        const struct token *t = &TOKENS[data[i] % NTOKENS];
        size_t n = strlen(t->text);
        memcpy(pat + len, t->text, n);
        len += n;
        enum kind k = t->kind;
        if (k == DIGIT && prev_token == DIGIT_ESCAPE) subset = 0;
        if ((k == QUANT || k == PLUS) && !in_class && after_paren && t->text[0] != '{') subset = 0;
        after_paren = !in_class && !strcmp(t->text, "(");
        prev_token = k;
        if (in_class) {
            /* \s is translated into a list of characters whose last (U+FEFF) or first
             * (\t) a dash then joins to the next one in a range PCRE2 may accept where
             * ECMA-262 refuses \s as a range's end: "[\s-\u{1F600}]", "[a-\s]" */
            if (!strcmp(t->text, "\\s") && after_dash) subset = 0;
            if (!strcmp(t->text, "-") && after_s) subset = 0;
            after_dash = !strcmp(t->text, "-");
            after_s = !strcmp(t->text, "\\s");
            if (k == CLASS_CLOSE) in_class = 0;
            if (k == DIGIT_ESCAPE && t->text[1] == '1') subset = 0;
            prev = LIT;
            continue;
        }
        if (k == CLASS_OPEN) in_class = 1;
        else if (k == CLASS_CLOSE || k == CLASS_ESCAPE) subset = 0;
        else if (k == OPEN || k == OPEN_LOOK) {
            if (depth < 64) stack[depth] = (char)k;
            depth++;
        } else if (k == CLOSE && depth > 0) {
            depth--;
            if (depth < 64 && stack[depth] == OPEN_LOOK) k = OPEN_LOOK; /* a lookahead's end */
        } else if ((k == QUANT || k == PLUS) && prev == OPEN_LOOK) {
            subset = 0;
        } else if (k == PLUS && (prev == QUANT || prev == PLUS)) {
            subset = 0;
        }
        prev = k == PLUS ? QUANT : k == CLOSE || k == DIGIT || k == DIGIT_ESCAPE ? LIT : k;
    }
    if (!subset) return;
    char *why = NULL;
    int run = schema_regex_runnable(pat, len, &why);
    int pcre = pcre2_compiles(pat, len);
    if (run == 0)
        fuzz_fail("/%.*s/: in the common subset, yet cannot be checked: %s", (int)len, pat, why);
    if ((run == 1) != pcre)
        fuzz_fail("/%.*s/: the checker says %s, PCRE2 %s", (int)len, pat, run == 1 ? "valid" : why,
                  pcre ? "compiles it" : "refuses it");
    free(why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_pattern((const char *)data, size);
    as_tokens(data, size);
    return 0;
}
