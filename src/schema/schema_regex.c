/* schema_regex.c - ECMA-262 patterns on PCRE2 10.42: compile with
 * UTF|ALT_BSUX|ALLOW_EMPTY_CLASS|DOLLAR_ENDONLY (no UCP: \d \w stay ASCII) after
 * rewriting what PCRE2 reads differently (\s \S, '.', long \p{...} names, \u{...},
 * surrogate-pair escapes). Remaining differences are listed in the README. */
#include <stdio.h>
#include <string.h>

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
            buf_addc(&b, c);
            p++;
            continue;
        }
        if (c == '[') {
            in_class = 1;
            buf_addc(&b, c);
            p++;
            if (p < end && *p == '^') buf_addc(&b, *p++);
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

struct schema_re *schema_re_compile(const char *pattern, size_t len, uint32_t max_len, int want_jit,
                                    char **err)
{
    if (len > max_len) {
        *err = xasprintf("pattern is %zu bytes long, more than the bound max_regex_len=%u", len,
                         (unsigned)max_len);
        return NULL;
    }
    size_t tlen;
    char *t = schema_regex_translate(pattern, len, &tlen);
    int code;
    PCRE2_SIZE off;
    pcre2_code *re =
        pcre2_compile((PCRE2_SPTR)t, tlen,
                      PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_DOLLAR_ENDONLY,
                      &code, &off, NULL);
    free(t);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        *err = xasprintf("invalid regular expression \"%.*s\": %s", (int)len, pattern,
                         (const char *)msg);
        return NULL;
    }
    /* JIT when available (falls back to the interpreter when it is not, see re_match);
     * not for a schema only checked, whose regexes are never run */
    int jit = want_jit && pcre2_jit_compile(re, PCRE2_JIT_COMPLETE) == 0;
    struct schema_re *r = xmalloc(sizeof *r);
    r->code = re;
    r->jit = jit;
    r->src = xstrndup(pattern, len);
    return r;
}

void schema_re_free(struct schema_re *re)
{
    if (!re) return;
    pcre2_code_free(re->code);
    free(re->src);
    free(re);
}
