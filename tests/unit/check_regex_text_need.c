/* check_regex_text_need.c - what a pattern's source says every match holds
 * (regex_need_text_ready, regex_need_text_may_match): never "cannot" where PCRE2 finds a
 * match (fixed and generated subjects, with a text's facts and without, ASCII and not, a
 * caseless k matched by U+212A among them), "cannot" where it saves the call (no run of
 * 80 base64 characters, no literal of any alternative), and nothing read from a pattern
 * the reader does not know; read on a need's first use (regex_need_text_ready), once,
 * by one of two threads asking at once. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <check.h>
#include <jansson.h>
#include <ctype.h>
#include <dirent.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "doc/doc.h"
#include "resolve/sel.h"
#include "rules/regex_need.h"
#include "testutil.h"

static const char *const patterns[] = {
    /* the security set's, as rules-yaml/security writes them */
    "(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{0,200}[a-z])(?=[A-Za-z0-9+/]{0,200}[A-Z])"
    "(?=[A-Za-z0-9+/]{0,200}[0-9])[A-Za-z0-9+/]{8,}={0,2}",
    "(?<![0-9A-Fa-f])[0-9A-Fa-f]{12,}",
    "<!--",
    "(?i)<\\s*/?\\s*(?:important|system|sys|instructions?|system[-_ ]prompt)\\s*>|\\[/?INST\\]|"
    "(?-i:\\[/?(?:SYSTEM|SYS)\\])(?!\\()|<\\|(?:im_start|user)\\|>",
    "(?:[ \\t\\x{A0}\\x{2000}-\\x{200A}\\x{3000}]{4,}|(?:\\r?\\n[ \\t]*){3,})(?=\\S)",
    "(?ix)(?<!\\bblocks\\x20)(?<!\\bnot\\x20)\n"
    "  (?:(?<![0-9.])169\\.254\\.169\\.254(?![0-9])|metadata\\.google\\.internal # a name\n"
    "  |fd00:ec2::254)\n"
    "  (?![^.;,!?\\n]{0,60}?\\b(?:is|are)\\x20(?:blocked|denied)\\b)",
    "(?<=[A-Za-z])[\\x{0430}\\x{0435}]|[\\x{0430}\\x{0435}](?=[A-Za-z])",
    /* what the reader must get right */
    "(?i)kelvin",
    "(?i)ask",
    "ab?c",
    "ab*c",
    "ab{0}c",
    "ab{2,}c",
    "a(?:bc)?d",
    "a(?:bc)+d",
    "(?:x|)y",
    "a|",
    "[^a]{3,}",
    "[a-c-]{2}",
    "[]a]{2}",
    "[\\]x]{2}",
    "[\\x{E9}-\\x{EA}]",
    "caf\\x{E9}",
    "\\x41\\x{42}C",
    "a\\bb",
    "a(?=b)b",
    "(ab)(?i)CD",
    "(?i:ab)cd",
    "x(?#comment)y",
    "(?<name>ab)c",
    "a.c",
    "\\d{3}x",
    "a\\sb",
    "^ab$",
    "(?m)^ab$",
    "(?s)a.b",
    "(?x) a b # c\n c",
    "(?x)[ ]x",
    "(?x: a )b c",
    "(?i)[\\x{212A}]{2}",
    "a\\.b",
    "\\t\\n",
    "(a|b)c+",
    "[[:alpha:]]{3}",
    "[\\d]{3}",
    "\\p{L}x",
    "\\Qa.b\\E",
    "(a)\\1",
    "x{,3}",
    "(?x)a +",
    "(?(?=a)ab|cd)",
    "(*UTF)ab",
    "a{3",
};

static const char *const subjects[] = {
    "",
    "plain words only",
    "a <!-- hidden --> comment",
    "< IMPORTANT >",
    "<system_prompt>",
    "[INST] hi",
    "[SYSTEM]",
    "<|im_start|>",
    "deadbeefcafe0123",
    "aGVsbG8gd29ybGQ1",
    "at 169.254.169.254 now",
    "METADATA.GOOGLE.INTERNAL",
    "fd00:ec2::254 is blocked",
    "gap     here",
    "lines\n\n\n\nx",
    "\xC2\xA0\xC2\xA0\xC2\xA0\xC2\xA0y",
    "\xE3\x80\x80\xE3\x80\x80\xE3\x80\x80\xE3\x80\x80y",
    "\xE2\x84\xAA"
    "elvin", /* U+212A KELVIN SIGN, caseless k */
    "a\xC5\xBF"
    "k", /* U+017F LONG S, caseless s */
    "ASK",
    "r\xD0\xB5"
    "ad", /* a Cyrillic e in a Latin word */
    "ac",
    "abc",
    "abbbc",
    "ad",
    "abcbcd",
    "y",
    "bbb",
    "]a",
    "]x",
    "-c",
    "caf\xC3\xA9",
    "\xC3\xAA",
    "ABC",
    "abCD",
    "ABcd",
    "xy",
    "a\nb",
    "a\nb\nab",
    "a.b",
    "a-c",
    "123x",
    "a b",
    "abc",
    "\t\n",
    "xxxxxx",
    "ab c",
    "kK",
    "bc",
    "a{3",
    "x{,3}",
};

/* What the pattern's source says of S, with S's facts (WITH_FACTS) or without. */
static int may(const char *pattern, const char *s, int with_facts)
{
    struct regex_need need;
    memset(&need, 0, sizeof need);
    regex_need_text_ready(&need, pattern, strlen(pattern));
    struct cursor c;
    json_t *v;
    tu_text_cursor(s, &c, &v);
    ck_assert(c.text_facts & SEL_TEXT_FACTS);
    int r = regex_need_text_may_match(&need, s, strlen(s), with_facts ? c.text_ascii : NULL,
                                      (c.text_facts & SEL_TEXT_NON_ASCII) != 0);
    json_decref(v);
    regex_need_release(&need);
    return r;
}

/* 1 when PATTERN matches S (and the need said it may) */
static int check_never_cannot(const char *pattern, pcre2_code *code, const char *s)
{
    if (!tu_pcre_matches(code, s)) return 0;
    ck_assert_msg(may(pattern, s, 1), "%s matches \"%s\", said cannot (facts)", pattern, s);
    ck_assert_msg(may(pattern, s, 0), "%s matches \"%s\", said cannot (no facts)", pattern, s);
    return 1;
}

START_TEST(never_cannot_where_pcre2_matches)
{
    pcre2_code *code = tu_pcre_compile(patterns[_i]);
    for (size_t k = 0; k < sizeof subjects / sizeof *subjects; k++)
        check_never_cannot(patterns[_i], code, subjects[k]);
    /* generated subjects of the bytes the patterns name, some above ASCII */
    static const char *const pieces[] = {
        "a",
        "b",
        "c",
        "d",
        "A",
        "B",
        "C",
        "D",
        "e",
        "0",
        "9",
        "1",
        "6",
        ".",
        ":",
        " ",
        "\t",
        "\n",
        "\r",
        "<",
        ">",
        "!",
        "-",
        "[",
        "]",
        "/",
        "|",
        "_",
        "x",
        "y",
        "k",
        "s",
        "=",
        "\xE2\x84\xAA",
        "\xC5\xBF",
        "\xC2\xA0",
        "\xD0\xB5",
        "\xC3\xA9",
        "INST",
        "SYSTEM",
        "system",
        "169.254.169.254",
        "metadata.google.internal",
        "fd00:ec2::254",
        "cafe",
    };
    size_t npieces = sizeof pieces / sizeof *pieces;
    uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)_i;
    for (int round = 0; round < 3000; round++) {
        char s[160];
        size_t len = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int n = (int)(x % 24);
        for (int k = 0; k < n; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *p = pieces[x % npieces];
            size_t pl = strlen(p);
            if (len + pl >= sizeof s) break;
            memcpy(s + len, p, pl);
            len += pl;
        }
        s[len] = '\0';
        check_never_cannot(patterns[_i], code, s);
    }
    pcre2_code_free(code);
}
END_TEST

START_TEST(cannot_where_it_saves_the_call)
{
    static const struct {
        const char *pattern, *subject;
    } none[] = {
        /* no 8 base64 characters in a row, though many in all */
        {patterns[0], "Format the order of a cursor"},
        {patterns[1], "deadbeef cafe 0123 4567"}, /* hex, in short runs */
        {patterns[2], "a <! -- b"},
        {patterns[3], "a b system user"},
        {patterns[4], "single spaces only, one line"},
        {patterns[5], "the metadata of google's internal 169.254 range"},
        {patterns[6], "plain ascii words"},
        {"(?i)kelvin", "KELVI N"},
        {"ab?c", "abb"},
        {"ab{2,}c", "abd b"},
        {"a(?:bc)+d", "abd"},
        {"[^a]{3,}", "aaxxaa"},
        {"caf\\x{E9}", "cafe"},
        {"\\x41\\x{42}C", "ABc"},
        {"(?x) a b # c\n c", "a b c"},
        {"(?i:ab)cd", "ABxx"},
    };
    for (size_t k = 0; k < sizeof none / sizeof *none; k++) {
        pcre2_code *code = tu_pcre_compile(none[k].pattern);
        ck_assert_msg(!tu_pcre_matches(code, none[k].subject), "%s matches \"%s\"", none[k].pattern,
                      none[k].subject);
        pcre2_code_free(code);
        ck_assert_msg(!may(none[k].pattern, none[k].subject, 1), "%s on \"%s\": said may",
                      none[k].pattern, none[k].subject);
        ck_assert_msg(!may(none[k].pattern, none[k].subject, 0), "%s on \"%s\": said may",
                      none[k].pattern, none[k].subject);
    }
    /* a caseless letter's other forms beyond ASCII: such a text is always searched */
    ck_assert(may("(?i)kelvin",
                  "\xE2\x84\xAA"
                  "elvin",
                  1));
}
END_TEST

/* A pattern with what the reader does not know, or whose every match may be empty or
 * any text, says nothing: every subject may match. */
START_TEST(nothing_from_what_it_does_not_know)
{
    static const char *const unknown[] = {
        "\\Qa.b\\E", "(a)\\1", "x{,3}", "(?x)a +", "(?(?=a)ab|cd)",
        "(*UTF)ab",  "a{3",    "a|",    "(?:x|)",  "x*",
        "^$",        "a(?x)b", ".*",    "\\d+",    "(?x:a)b c",
    };
    for (size_t k = 0; k < sizeof unknown / sizeof *unknown; k++) {
        struct regex_need need;
        memset(&need, 0, sizeof need);
        regex_need_text_ready(&need, unknown[k], strlen(unknown[k]));
        ck_assert_msg(need.text == NULL, "%s: a need read", unknown[k]);
        ck_assert(regex_need_text_may_match(&need, "zzz", 3, NULL, 0));
    }
}
END_TEST

/* Every pattern the shipped rule sets' `matches` hold (rules-yaml/, rules-yaml/security/):
 * never "cannot" where PCRE2 matches, on subjects made of the pattern's own bytes, words
 * and runs of one byte (a rule added later is covered without editing this test). */
static void collect_patterns(json_t *v, json_t *out)
{
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach(v, k, x)
        {
            if (!strcmp(k, "matches") && json_is_string(x)) json_array_append(out, x);
            else collect_patterns(x, out);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) collect_patterns(x, out);
    }
}

static void patterns_of_dir(const char *dir, json_t *out)
{
    char *path = xasprintf("%s/manifest.yaml", dir);
    struct doc_error err;
    doc *m = doc_load_file(path, NULL, &err);
    free(path);
    ck_assert_msg(m != NULL, "cannot load %s/manifest.yaml", dir);
    json_t *listed = json_object_get(doc_root(m), "files"), *f;
    size_t i;
    json_array_foreach(listed, i, f)
    {
        char *fp = xasprintf("%s/%s", dir, json_string_value(f));
        doc *d = doc_load_file(fp, NULL, &err);
        ck_assert_msg(d != NULL, "cannot load %s", fp);
        collect_patterns(doc_root(d), out);
        doc_free(d);
        free(fp);
    }
    doc_free(m);
}

/* Every string (values and member names) of the JSON files under DIR, into OUT. */
static void strings_of(json_t *v, json_t *out)
{
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_string(v)) json_array_append(out, v);
    else if (json_is_object(v)) {
        json_object_foreach(v, k, x)
        {
            json_array_append_new(out, json_string(k));
            strings_of(x, out);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) strings_of(x, out);
    }
}

static void fixture_strings(const char *dir, json_t *out)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        size_t n = strlen(p);
        if (n > 5 && !strcmp(p + n - 5, ".json")) {
            json_t *j = json_load_file(p, 0, NULL);
            if (j) strings_of(j, out);
            json_decref(j);
        } else {
            fixture_strings(p, out); /* a directory, or nothing */
        }
        free(p);
    }
    closedir(d);
}

START_TEST(shipped_patterns_never_cannot)
{
    const char *top = getenv("MCPDESC_TOP") ? getenv("MCPDESC_TOP") : "..";
    json_t *pats = json_array();
    char *mcp = xasprintf("%s/rules-yaml", top), *sec = xasprintf("%s/rules-yaml/security", top);
    patterns_of_dir(mcp, pats);
    patterns_of_dir(sec, pats);
    ck_assert_uint_ge(json_array_size(pats), 10);
    size_t i;
    json_t *pv;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    size_t matched_patterns = 0; /* patterns some subject matched: the test can fail */
    /* the texts of the fixtures, where the rules find what they look for */
    json_t *texts = json_array();
    char *fx = xasprintf("%s/conformance", top); /* the security set's under it too */
    fixture_strings(fx, texts);
    ck_assert_uint_ge(json_array_size(texts), 1000);
    json_array_foreach(pats, i, pv)
    {
        const char *pattern = json_string_value(pv);
        pcre2_code *code = tu_pcre_compile(pattern);
        size_t plen = strlen(pattern);
        static const char *const extra[] = {" ", "\n", "a", "Z", "0", "f", "\xC2\xA0", "word "};
        size_t matched = 0, t;
        json_t *tv;
        json_array_foreach(texts, t, tv) matched +=
            check_never_cannot(pattern, code, json_string_value(tv));
        for (int round = 0; round < 1500; round++) {
            char s[640];
            size_t len = 0;
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* every fifth: one byte repeated; every fifth after it: a few of the pattern's
             * letters and digits alone (an anchored pattern of names) */
            int n = (int)(x % 60), run = round % 5 == 0, tiny = round % 5 == 1;
            char rb = pattern[x % plen];
            if (tiny) {
                n = 1 + (int)(x % 12);
                for (int k = 0; k < n; k++) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    char b = pattern[x % plen];
                    s[len++] = isalnum((unsigned char)b) || k % 4 == 3 ? b : 'a';
                }
                n = 0;
            }
            for (int k = 0; k < (run ? 150 + (int)(x % 100) : n) && len + 40 < sizeof s; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (run) {
                    s[len++] = x % 7 ? rb : pattern[x % plen];
                } else if (x % 3 == 1) {
                    s[len++] = pattern[x % plen]; /* the pattern's own bytes */
                } else if (x % 3 == 2) {          /* a word of the pattern, as its literals read */
                    size_t at = x / 3 % plen, e = at;
                    while (at < plen && !isalnum((unsigned char)pattern[at])) at++;
                    for (e = at; e < plen && isalnum((unsigned char)pattern[e]) && e - at < 30; e++)
                        ;
                    memcpy(s + len, pattern + at, e - at);
                    len += e - at;
                    s[len++] = ' ';
                } else {
                    const char *p = extra[x / 3 % (sizeof extra / sizeof *extra)];
                    memcpy(s + len, p, strlen(p));
                    len += strlen(p);
                }
            }
            s[len] = '\0';
            matched += check_never_cannot(pattern, code, s);
        }
        matched_patterns += matched > 0;
        pcre2_code_free(code);
    }
    ck_assert_uint_ge(matched_patterns * 4, json_array_size(pats) * 3); /* most of them */
    json_decref(pats);
    json_decref(texts);
    free(fx);
    free(mcp);
    free(sec);
}
END_TEST

static pcre2_code *compile_utf(const char *pattern)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code =
        pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
    ck_assert_ptr_nonnull(code);
    return code;
}

/* regex_need_of leaves the text unread (every subject may match by it); the first
 * regex_need_text_ready reads it, and a later one reads nothing again. */
START_TEST(text_read_on_first_use_once)
{
    const char *pattern = "token=[0-9a-f]{40}";
    pcre2_code *code = compile_utf(pattern);
    struct regex_need need;
    regex_need_of(code, &need);
    ck_assert_ptr_null(need.text);
    ck_assert(regex_need_text_may_match(&need, "no secret", 9, NULL, 0));
    const struct regex_need *ready = regex_need_text_ready(&need, pattern, strlen(pattern));
    ck_assert_ptr_eq(ready, &need);
    ck_assert_ptr_nonnull(need.text);
    ck_assert(!regex_need_text_may_match(&need, "no secret", 9, NULL, 0));
    const char *hit = "token=0123456789abcdef0123456789abcdef01234567";
    ck_assert(regex_need_text_may_match(&need, hit, strlen(hit), NULL, 0));
    const struct regex_text_need *text = need.text;
    regex_need_text_ready(&need, ".*", 2); /* already read: not read again */
    ck_assert_ptr_eq(need.text, text);
    ck_assert(!regex_need_text_may_match(&need, "no secret", 9, NULL, 0));
    regex_need_release(&need);
    pcre2_code_free(code);
}
END_TEST

enum { LAZY_NEEDS = 64 };
static struct regex_need lazy_needs[LAZY_NEEDS];
static char lazy_patterns[LAZY_NEEDS][32];

/* every need made ready and asked of a subject it cannot match and one it may */
static void *ask_all(void *arg)
{
    int *bad = arg;
    for (int i = 0; i < LAZY_NEEDS; i++) {
        char hit[48];
        snprintf(hit, sizeof hit, "x item%dliteral y", i);
        const struct regex_need *need =
            regex_need_text_ready(&lazy_needs[i], lazy_patterns[i], strlen(lazy_patterns[i]));
        if (regex_need_text_may_match(need, "zzzz", 4, NULL, 0)) ++*bad;
        if (!regex_need_text_may_match(need, hit, strlen(hit), NULL, 0)) ++*bad;
    }
    return NULL;
}

START_TEST(two_threads_read_at_once)
{
    for (int round = 0; round < 20; round++) {
        pcre2_code *codes[LAZY_NEEDS];
        for (int i = 0; i < LAZY_NEEDS; i++) {
            snprintf(lazy_patterns[i], sizeof lazy_patterns[i], "item%dliteral", i);
            codes[i] = compile_utf(lazy_patterns[i]);
            regex_need_of(codes[i], &lazy_needs[i]);
        }
        int bad[2] = {0, 0};
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, ask_all, &bad[0]), 0);
        ask_all(&bad[1]);
        pthread_join(t, NULL);
        ck_assert_int_eq(bad[0] + bad[1], 0);
        for (int i = 0; i < LAZY_NEEDS; i++) {
            regex_need_release(&lazy_needs[i]);
            pcre2_code_free(codes[i]);
        }
    }
}
END_TEST

Suite *regex_text_need_suite(void)
{
    Suite *s = suite_create("regex_text_need");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, never_cannot_where_pcre2_matches, 0,
                        (int)(sizeof patterns / sizeof *patterns));
    tcase_add_test(tc, cannot_where_it_saves_the_call);
    tcase_add_test(tc, nothing_from_what_it_does_not_know);
    tcase_add_test(tc, shipped_patterns_never_cannot);
    tcase_add_test(tc, text_read_on_first_use_once);
    tcase_add_test(tc, two_threads_read_at_once);
    suite_add_tcase(s, tc);
    return s;
}
