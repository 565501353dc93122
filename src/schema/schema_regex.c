/* schema_regex.c - ECMA-262 patterns on PCRE2 10.42. A pattern is first judged by
 * ECMA-262's grammar (schema_regex_check.c: an invalid one is the author's error); a
 * valid one is compiled with UTF|ALT_BSUX|ALLOW_EMPTY_CLASS|DOLLAR_ENDONLY|
 * MATCH_UNSET_BACKREF (no UCP: \d \w stay ASCII) after rewriting what PCRE2 reads
 * differently (\s \S \v, '.', '[' in a class, long \p{...} names, \p{Assigned},
 * \u{...}, surrogate-pair escapes, named groups, a lookbehind's leading variable
 * quantifier). One PCRE2 still cannot compile is "unrunnable": kept without code, taken
 * to match, and reported as a note (schema_regex_runnable), never as the author's
 * error. docs/schema.md lists all of it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

/* ECMA WhiteSpace + LineTerminator, as class contents in ALT_BSUX syntax. */
static const char WS[] = "\\t\\n\\x0B\\f\\r \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029"
                         "\\u202F\\u205F\\u3000\\uFEFF";

static const char *const GC_NAMES[][2] = {
    {"Letter", "L"},
    {"Cased_Letter", "L&"},
    {"LC", "L&"},
    {"Uppercase_Letter", "Lu"},
    {"Lowercase_Letter", "Ll"},
    {"Titlecase_Letter", "Lt"},
    {"Modifier_Letter", "Lm"},
    {"Other_Letter", "Lo"},
    {"Mark", "M"},
    {"Combining_Mark", "M"},
    {"Nonspacing_Mark", "Mn"},
    {"Spacing_Mark", "Mc"},
    {"Enclosing_Mark", "Me"},
    {"Number", "N"},
    {"Decimal_Number", "Nd"},
    {"digit", "Nd"},
    {"Letter_Number", "Nl"},
    {"Other_Number", "No"},
    {"Punctuation", "P"},
    {"punct", "P"},
    {"Connector_Punctuation", "Pc"},
    {"Dash_Punctuation", "Pd"},
    {"Open_Punctuation", "Ps"},
    {"Close_Punctuation", "Pe"},
    {"Initial_Punctuation", "Pi"},
    {"Final_Punctuation", "Pf"},
    {"Other_Punctuation", "Po"},
    {"Symbol", "S"},
    {"Math_Symbol", "Sm"},
    {"Currency_Symbol", "Sc"},
    {"Modifier_Symbol", "Sk"},
    {"Other_Symbol", "So"},
    {"Separator", "Z"},
    {"Space_Separator", "Zs"},
    {"Line_Separator", "Zl"},
    {"Paragraph_Separator", "Zp"},
    {"Other", "C"},
    {"Control", "Cc"},
    {"cntrl", "Cc"},
    {"Format", "Cf"},
    {"Surrogate", "Cs"},
    {"Private_Use", "Co"},
    {"Unassigned", "Cn"},
};

static int hex4(const char *p, const char *end, unsigned *out)
{
    unsigned v = 0;
    if (end - p < 4) return 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

static void add_codepoint(struct buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        buf_addf(b, "\\x%02X", cp);
        return;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    buf_add(b, u, n);
}

char *schema_regex_translate(const char *pat, size_t len, size_t *out_len)
{
    struct buf b = BUF_INIT;
    const char *p = pat, *end = pat + len;
    int in_class = 0;
    while (p < end) {
        char c = *p;
        if (c == '\\' && p + 1 < end) {
            char e = p[1];
            unsigned cp, lo;
            if (e == 's') {
                if (in_class) buf_adds(&b, WS);
                else buf_addf(&b, "[%s]", WS);
                p += 2;
            } else if (e == 'S' && !in_class) {
                buf_addf(&b, "[^%s]", WS);
                p += 2;
            } else if (e == 'v') { /* PCRE2's \v is every vertical space, ECMA's only VT */
                buf_adds(&b, "\\x0B");
                p += 2;
            } else if ((e == 'p' || e == 'P') && p + 2 < end && p[2] == '{') {
                const char *name = p + 3, *close = memchr(name, '}', (size_t)(end - name));
                if (!close) {
                    buf_add(&b, p, (size_t)(end - p));
                    break;
                }
                size_t nlen = (size_t)(close - name);
                const char *eq = memchr(name, '=', nlen);
                if (eq &&
                    ((eq - name == 16 && !memcmp(name, "General_Category", 16)) ||
                     (eq - name == 2 && !memcmp(name, "gc", 2)))) {
                    nlen -= (size_t)(eq + 1 - name);
                    name = eq + 1;
                }
                const char *mapped = NULL;
                if (nlen == 8 && !memcmp(name, "Assigned", 8)) { /* PCRE2 lacks it */
                    e = e == 'p' ? 'P' : 'p';
                    mapped = "Cn";
                }
                for (size_t i = 0; i < sizeof GC_NAMES / sizeof GC_NAMES[0]; i++)
                    if (strlen(GC_NAMES[i][0]) == nlen && !memcmp(GC_NAMES[i][0], name, nlen))
                        mapped = GC_NAMES[i][1];
                buf_addc(&b, '\\');
                buf_addc(&b, e);
                buf_addc(&b, '{');
                if (mapped) buf_adds(&b, mapped);
                else buf_add(&b, name, nlen);
                buf_addc(&b, '}');
                p = close + 1;
            } else if (e == 'u' && p + 2 < end && p[2] == '{') {
                const char *q = p + 3;
                unsigned v = 0;
                int ok = 0;
                while (q < end && *q != '}') {
                    char h = *q++;
                    int d = h >= '0' && h <= '9' ? h - '0'
                        : h >= 'a' && h <= 'f'   ? h - 'a' + 10
                        : h >= 'A' && h <= 'F'   ? h - 'A' + 10
                                                 : -1;
                    if (d < 0 || v > 0x10FFFF) {
                        ok = -1;
                        break;
                    }
                    v = v * 16 + (unsigned)d;
                    ok = 1;
                }
                if (ok == 1 && q < end && v <= 0x10FFFF) {
                    add_codepoint(&b, v);
                    p = q + 1;
                } else {
                    buf_add(&b, p, 2);
                    p += 2;
                }
            } else if (e == 'u' && hex4(p + 2, end, &cp) && cp >= 0xD800 && cp <= 0xDBFF &&
                       p + 8 <= end && p[6] == '\\' && p[7] == 'u' && hex4(p + 8, end, &lo) &&
                       lo >= 0xDC00 && lo <= 0xDFFF) {
                add_codepoint(&b, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
                p += 12;
            } else {
                buf_add(&b, p, 2);
                p += 2;
            }
            continue;
        }
        if (in_class) {
            if (c == ']') in_class = 0;
            /* '[' in a class is a literal in ECMA-262; PCRE2 would read [: [. [= */
            if (c == '[') buf_addc(&b, '\\');
            buf_addc(&b, c);
            p++;
            continue;
        }
        if (c == '[') {
            in_class = 1;
            buf_addc(&b, c);
            p++;
            if (p < end && *p == '^') buf_addc(&b, *p++);
            /* PCRE2 reads "[:" "[." "[=" as POSIX syntax: a literal in ECMA-262 */
            if (p < end && (*p == ':' || *p == '.' || *p == '=')) buf_addc(&b, '\\');
            if (p < end && *p == ']') {
                in_class = 0;
                buf_addc(&b, *p++);
            }
            continue;
        }
        if (c == '.') {
            buf_adds(&b, "[^\\n\\r\\u2028\\u2029]");
            p++;
            continue;
        }
        buf_addc(&b, c);
        p++;
    }
    *out_len = b.len;
    if (!b.s) return xstrdup("");
    return buf_detach(&b);
}

/* The length of the atom at P (a valid ECMA-262 pattern): a character, an escape, a
 * class or a group. *capture: whether it holds a capturing group. */
static size_t atom_len(const char *p, const char *end, int *capture)
{
    const char *q = p;
    *capture = 0;
    if (*q == '\\') {
        q += 2;
        char e = q[-1];
        if ((e == 'u' || e == 'p' || e == 'P') && q < end && *q == '{') {
            while (q < end && *q != '}') q++;
            return (size_t)(q - p) + (q < end);
        }
        if (e == 'u') {
            unsigned hi, lo;
            if (hex4(q, end, &hi) && hi >= 0xD800 && hi <= 0xDBFF && end - q >= 10 &&
                q[4] == '\\' && q[5] == 'u' && hex4(q + 6, end, &lo) && lo >= 0xDC00 &&
                lo <= 0xDFFF)
                return 12; /* a surrogate pair is one atom */
            return 6;
        }
        if (e == 'x') return 4;
        if (e == 'c') return 3;
        if (e == 'k') {
            while (q < end && *q != '>') q++;
            return (size_t)(q + 1 - p);
        }
        if (e >= '1' && e <= '9') {
            while (q < end && *q >= '0' && *q <= '9') q++;
            return (size_t)(q - p);
        }
        while (q < end && (*q & 0xC0) == 0x80) q++; /* an escaped non-ASCII character */
        return (size_t)(q - p);
    }
    if (*q == '[') {
        for (q++; q < end && *q != ']'; q++)
            if (*q == '\\') q++;
        return (size_t)(q + 1 - p);
    }
    if (*q == '(') {
        int depth = 0, in_class = 0;
        for (; q < end; q++) {
            if (*q == '\\') {
                q++;
            } else if (in_class) {
                in_class = *q != ']';
            } else if (*q == '[') {
                in_class = 1;
            } else if (*q == '(') {
                depth++;
                if (q + 1 >= end || q[1] != '?' ||
                    (q + 2 < end && q[2] == '<' && q + 3 < end && q[3] != '=' && q[3] != '!'))
                    *capture = 1;
            } else if (*q == ')' && --depth == 0) {
                return (size_t)(q + 1 - p);
            }
        }
        return (size_t)(end - p);
    }
    for (q++; q < end && (*q & 0xC0) == 0x80; q++) {}
    return (size_t)(q - p);
}

/* A quantifier at P: its length (0 when none), minimum and whether its maximum differs. */
static size_t quantifier(const char *p, const char *end, unsigned long *min, int *variable)
{
    const char *q = p;
    if (q >= end) return 0;
    if (*q == '*' || *q == '+' || *q == '?') {
        *min = *q == '+';
        *variable = 1;
        q++;
    } else if (*q == '{' && q + 1 < end && q[1] >= '0' && q[1] <= '9') {
        unsigned long lo = 0, hi = 0;
        for (q++; q < end && *q >= '0' && *q <= '9'; q++)
            if (lo < 100000) lo = lo * 10 + (unsigned long)(*q - '0');
        int comma = q < end && *q == ',', bounded = 0;
        for (q += comma; q < end && *q >= '0' && *q <= '9'; q++, bounded = 1)
            if (hi < 100000) hi = hi * 10 + (unsigned long)(*q - '0');
        if (q >= end || *q != '}') return 0;
        q++;
        *min = lo;
        *variable = comma && (!bounded || hi != lo);
    } else {
        return 0;
    }
    if (q < end && *q == '?') q++;
    return (size_t)(q - p);
}

/* Each lookbehind alternative that starts with a variable quantifier, X{m,n} Y, asks
 * only whether some X^k Y (m <= k <= n) ends where it stands: it holds exactly when
 * X^m Y does (the start is free), so PCRE2, which needs fixed-length lookbehinds, gets
 * X{m} Y. Not when X captures (what it captures would change). NULL when nothing was
 * rewritten. */
static char *reduce_lookbehinds(const char *pat, size_t len, size_t *out_len)
{
    struct buf b = BUF_INIT;
    const char *p = pat, *end = pat + len;
    int changed = 0, in_class = 0;
    /* depth of each open group; depth of the lookbehinds we are in */
    int depth = 0, lb_depth[64], nlb = 0;
    int alt_start = 0;
    while (p < end) {
        if (alt_start) {
            alt_start = 0;
            int cap;
            size_t a = atom_len(p, end, &cap);
            if (a > (size_t)(end - p)) a = (size_t)(end - p); /* only for invalid input */
            unsigned long min;
            int variable;
            size_t q = p + a <= end ? quantifier(p + a, end, &min, &variable) : 0;
            if (q && variable && !cap) {
                if (min == 1) buf_add(&b, p, a);
                else if (min > 1) {
                    buf_add(&b, p, a);
                    buf_addf(&b, "{%lu}", min);
                }
                p += a + q;
                changed = 1;
                continue;
            }
        }
        char c = *p;
        if (c == '\\' && p + 1 < end) {
            buf_add(&b, p, 2);
            p += 2;
            continue;
        }
        if (in_class) {
            in_class = c != ']';
        } else if (c == '[') {
            in_class = 1;
        } else if (c == '(') {
            depth++;
            if (end - p >= 4 && p[1] == '?' && p[2] == '<' && (p[3] == '=' || p[3] == '!') &&
                nlb < 64) {
                lb_depth[nlb++] = depth;
                buf_add(&b, p, 4);
                p += 4;
                alt_start = 1;
                continue;
            }
        } else if (c == ')') {
            if (nlb && lb_depth[nlb - 1] == depth) nlb--;
            depth--;
        } else if (c == '|' && nlb && lb_depth[nlb - 1] == depth) {
            alt_start = 1;
        }
        buf_addc(&b, c);
        p++;
    }
    if (!changed) {
        buf_release(&b);
        return NULL;
    }
    *out_len = b.len;
    return b.s ? buf_detach(&b) : xstrdup("");
}

/* Named groups as numbered ones: (?<name>X) -> (X), \k<name> -> \g{N}. Matching does
 * not need the names, and PCRE2's differ from ECMA-262's (no $, no \u escapes, at most
 * 32 characters). NULL when the pattern names no group. */
static char *number_named_groups(const char *pat, size_t len, size_t *out_len)
{
    const char *end = pat + len;
    /* pass 0 collects every capturing group's name ("" when unnamed), NUL-separated, in
     * order; pass 1 rewrites */
    struct buf names = BUF_INIT, b = BUF_INIT;
    int named = 0;
    for (int pass = 0; pass < 2 && (!pass || named); pass++) {
        int in_class = 0;
        for (const char *p = pat; p < end;) {
            if (*p == '\\' && p + 1 < end) {
                const char *close =
                    p + 3 <= end ? memchr(p + 3, '>', (size_t)(end - (p + 3))) : NULL;
                if (pass && !in_class && p[1] == 'k' && close) {
                    const char *name = p + 3;
                    size_t nlen = (size_t)(close - name), num = 0, g = 1;
                    for (size_t k = 0; k < names.len; k += strlen(names.s + k) + 1, g++)
                        if (strlen(names.s + k) == nlen && !memcmp(names.s + k, name, nlen))
                            num = g;
                    buf_addf(&b, "\\g{%zu}", num);
                    p = close + 1;
                    continue;
                }
                if (pass) buf_add(&b, p, 2);
                p += 2;
                continue;
            }
            if (in_class) {
                in_class = *p != ']';
            } else if (*p == '[') {
                in_class = 1;
            } else if (*p == '(' && (end - p < 2 || p[1] != '?')) {
                if (!pass) buf_addc(&names, 0);
            } else if (*p == '(' && end - p >= 4 && p[1] == '?' && p[2] == '<' && p[3] != '=' &&
                       p[3] != '!' && memchr(p + 3, '>', (size_t)(end - (p + 3)))) {
                const char *name = p + 3, *close = memchr(name, '>', (size_t)(end - name));
                named = 1;
                if (!pass) {
                    buf_add(&names, name, (size_t)(close - name));
                    buf_addc(&names, 0);
                } else {
                    buf_addc(&b, '(');
                }
                p = close + 1;
                continue;
            }
            if (pass) buf_addc(&b, *p);
            p++;
        }
    }
    buf_release(&names);
    if (!named) return NULL;
    *out_len = b.len;
    return b.s ? buf_detach(&b) : xstrdup("");
}

/* PCRE2 code for a valid ECMA-262 PATTERN, or NULL and *why (new) when it has none. */
static pcre2_code *compile_translated(const char *pattern, size_t len, char **why)
{
    size_t nlen = len, rlen, tlen;
    char *numbered = number_named_groups(pattern, len, &nlen);
    const char *src = numbered ? numbered : pattern;
    char *reduced = reduce_lookbehinds(src, nlen, &rlen);
    char *t = reduced ? schema_regex_translate(reduced, rlen, &tlen)
                      : schema_regex_translate(src, nlen, &tlen);
    free(reduced);
    free(numbered);
    int code;
    PCRE2_SIZE off;
    pcre2_code *re =
        pcre2_compile((PCRE2_SPTR)t, tlen, SCHEMA_REGEX_PCRE2_OPTIONS, &code, &off, NULL);
    free(t);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        *why = xasprintf("cannot check this pattern: it is valid ECMA-262, but PCRE2 10.42, "
                         "which mcpdesc matches with, has no translation of it (%s)",
                         (const char *)msg);
    }
    return re;
}

/* ---- verdicts by pattern --------------------------------------------------------- */

/* What schema checking asks of a pattern (is it ECMA-262, can PCRE2 run it) depends on
 * its bytes alone, and the same few patterns recur in schema after schema: the verdicts
 * are kept by pattern, once per process, so a schema only checked costs no PCRE2
 * compilation for a pattern seen before. Shared by every thread (under VERDICTS_LOCK);
 * past VERDICTS_MAX patterns the table starts again, so memory stays bounded. */
struct re_verdict {
    int ecma;       /* schema_regex_check: 0 or -1 */
    int runnable;   /* PCRE2 compiles its translation */
    char *ecma_why; /* when ecma < 0 */
    char *run_why;  /* when !runnable */
};
#define VERDICTS_MAX 4096
static pthread_mutex_t verdicts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct schema_map verdict_index; /* pattern bytes -> verdicts[] */
static VEC(struct re_verdict) verdicts;

static void verdicts_clear(void)
{
    for (size_t i = 0; i < verdicts.len; i++) {
        free(verdicts.items[i].ecma_why);
        free(verdicts.items[i].run_why);
    }
    VEC_FREE(verdicts);
    schema_map_release(&verdict_index);
}

/* The verdicts on PATTERN into *V, its strings new (NULL when there is none). */
static void re_verdict(const char *pattern, size_t len, struct re_verdict *v)
{
    size_t i;
    pthread_mutex_lock(&verdicts_lock);
    int known = schema_map_get(&verdict_index, pattern, len, &i);
    if (known) {
        *v = verdicts.items[i];
        v->ecma_why = v->ecma_why ? xstrdup(v->ecma_why) : NULL;
        v->run_why = v->run_why ? xstrdup(v->run_why) : NULL;
    }
    pthread_mutex_unlock(&verdicts_lock);
    if (known) return;
    memset(v, 0, sizeof *v);
    v->ecma = schema_regex_check(pattern, len, &v->ecma_why);
    if (v->ecma == 0) {
        pcre2_code *re = compile_translated(pattern, len, &v->run_why);
        v->runnable = re != NULL;
        pcre2_code_free(re);
    }
    struct re_verdict keep = *v;
    keep.ecma_why = v->ecma_why ? xstrdup(v->ecma_why) : NULL;
    keep.run_why = v->run_why ? xstrdup(v->run_why) : NULL;
    pthread_mutex_lock(&verdicts_lock);
    if (verdicts.len >= VERDICTS_MAX) verdicts_clear();
    if (!schema_map_get(&verdict_index, pattern, len, &i)) {
        schema_map_put(&verdict_index, pattern, len, verdicts.len);
        VEC_PUSH(verdicts, keep);
    } else { /* another thread was first: the same verdicts */
        free(keep.ecma_why);
        free(keep.run_why);
    }
    pthread_mutex_unlock(&verdicts_lock);
}

int schema_regex_runnable(const char *pattern, size_t len, char **why)
{
    struct re_verdict v;
    re_verdict(pattern, len, &v);
    *why = v.ecma < 0 ? v.ecma_why : !v.runnable ? v.run_why : NULL;
    if (*why != v.ecma_why) free(v.ecma_why);
    if (*why != v.run_why) free(v.run_why);
    return v.ecma < 0 ? -1 : v.runnable;
}

/* Had schema_re_compile compiled PATTERN, would it have failed? 0, or -1 and *err (new:
 * its message). For a schema only checked, whose regexes are never run. */
int schema_re_valid(const char *pattern, size_t len, uint32_t max_len, char **err)
{
    if (len > max_len) {
        *err = xasprintf("pattern is %zu bytes long, more than the bound max_regex_len=%u", len,
                         (unsigned)max_len);
        return -1;
    }
    struct re_verdict v;
    re_verdict(pattern, len, &v);
    if (v.ecma < 0)
        *err = xasprintf("invalid regular expression \"%.*s\": %s", (int)len, pattern, v.ecma_why);
    free(v.ecma_why);
    free(v.run_why);
    return v.ecma < 0 ? -1 : 0;
}

struct schema_re *schema_re_compile(const char *pattern, size_t len, uint32_t max_len, int want_jit,
                                    char **err)
{
    if (len > max_len) {
        *err = xasprintf("pattern is %zu bytes long, more than the bound max_regex_len=%u", len,
                         (unsigned)max_len);
        return NULL;
    }
    char *why = NULL;
    if (schema_regex_check(pattern, len, &why) < 0) {
        *err = xasprintf("invalid regular expression \"%.*s\": %s", (int)len, pattern, why);
        free(why);
        return NULL;
    }
    pcre2_code *re = compile_translated(pattern, len, &why);
    free(why); /* unrunnable: reported by schema_regex_runnable's callers, not here */
    /* JIT when available (falls back to the interpreter when it is not, see re_match);
     * not for a schema only checked, whose regexes are never run */
    int jit = re && want_jit && pcre2_jit_compile(re, PCRE2_JIT_COMPLETE) == 0;
    struct schema_re *r = xmalloc(sizeof *r);
    r->code = re;
    r->jit = jit;
    r->src = xstrndup(pattern, len);
    r->lin = re ? schema_relin_compile(pattern, len) : NULL; /* an unrunnable one matches all */
    return r;
}

void schema_re_free(struct schema_re *re)
{
    if (!re) return;
    pcre2_code_free(re->code);
    schema_relin_free(re->lin);
    free(re->src);
    free(re);
}

/* Keywords whose value is a schema, an array of schemas, or an object of schemas (every
 * dialect's; a keyword a dialect lacks holds no schema there, but walking it can only
 * find a pattern where an author meant one). */
static const char *const ONE_SCHEMA[] = {"not",
                                         "if",
                                         "then",
                                         "else",
                                         "additionalProperties",
                                         "contains",
                                         "propertyNames",
                                         "unevaluatedItems",
                                         "unevaluatedProperties",
                                         "additionalItems",
                                         "contentSchema",
                                         "items",
                                         NULL};
static const char *const SCHEMA_ARRAYS[] = {"allOf",       "anyOf", "oneOf",
                                            "prefixItems", "items", NULL};
static const char *const SCHEMA_MAPS[] = {"properties",  "patternProperties", "$defs",
                                          "definitions", "dependentSchemas",  "dependencies",
                                          NULL};

static int unrunnable_in(json_t *sch, struct buf *at, int depth, char **why,
                         struct schema_seen *seen);

static int unrunnable_pattern(const char *pat, size_t len, struct buf *at, const char *kw,
                              const char *seg, char **why)
{
    if (schema_regex_runnable(pat, len, why) != 0) {
        free(*why);
        *why = NULL;
        return 0;
    }
    ptr_append_segment(at, kw, strlen(kw));
    if (seg) ptr_append_segment(at, seg, len);
    return 1;
}

static int unrunnable_child(json_t *v, struct buf *at, int depth, char **why, const char *kw,
                            const char *key, size_t idx, int is_idx, struct schema_seen *seen)
{
    if (!json_is_object(v)) return 0; /* nothing to walk: no pointer to build */
    size_t mark = at->len;
    ptr_append_segment(at, kw, strlen(kw));
    if (key) ptr_append_segment(at, key, strlen(key));
    if (is_idx) ptr_append_index(at, idx);
    if (unrunnable_in(v, at, depth + 1, why, seen)) return 1;
    buf_truncate(at, mark);
    return 0;
}

/* a value seen before had no unrunnable pattern (the walk stops at the first), so each
 * shared value is walked once */
static int unrunnable_in(json_t *sch, struct buf *at, int depth, char **why,
                         struct schema_seen *seen)
{
    if (!json_is_object(sch) || depth > 256 || !schema_seen_add(seen, sch)) return 0;
    uint64_t present = schema_kw_bits(sch); /* most of the keywords below are absent */
    json_t *pat = schema_kw_get(present, sch, "pattern");
    if (json_is_string(pat) &&
        unrunnable_pattern(json_string_value(pat), json_string_length(pat), at, "pattern", NULL,
                           why))
        return 1;
    json_t *pp = schema_kw_get(present, sch, "patternProperties"), *v;
    const char *key;
    if (json_is_object(pp)) json_object_foreach(pp, key, v)
        {
            if (unrunnable_pattern(key, strlen(key), at, "patternProperties", key, why)) return 1;
        }
    for (size_t k = 0; ONE_SCHEMA[k]; k++)
        if (unrunnable_child(schema_kw_get(present, sch, ONE_SCHEMA[k]), at, depth, why,
                             ONE_SCHEMA[k], NULL, 0, 0, seen))
            return 1;
    for (size_t k = 0; SCHEMA_ARRAYS[k]; k++) {
        json_t *a = schema_kw_get(present, sch, SCHEMA_ARRAYS[k]);
        for (size_t i = 0; json_is_array(a) && i < json_array_size(a); i++)
            if (unrunnable_child(json_array_get(a, i), at, depth, why, SCHEMA_ARRAYS[k], NULL, i, 1,
                                 seen))
                return 1;
    }
    for (size_t k = 0; SCHEMA_MAPS[k]; k++) {
        json_t *m = schema_kw_get(present, sch, SCHEMA_MAPS[k]);
        if (json_is_object(m)) json_object_foreach(m, key, v)
            {
                if (unrunnable_child(v, at, depth, why, SCHEMA_MAPS[k], key, 0, 0, seen)) return 1;
            }
    }
    return 0;
}

int schema_first_unrunnable_pattern(json_t *sch, char **where, char **why)
{
    struct buf at = BUF_INIT;
    struct schema_seen seen = SCHEMA_SEEN_INIT;
    *why = NULL;
    int found = unrunnable_in(sch, &at, 0, why, &seen);
    schema_seen_release(&seen);
    if (!found) {
        buf_release(&at);
        *where = NULL;
        return 0;
    }
    *where = at.s ? buf_detach(&at) : xstrdup("");
    return 1;
}
