/* schema_regex_check.c - is a pattern an ECMA-262 regular expression? The grammar of
 * ECMAScript 2024, 22.2.1 (Patterns) with its early errors (22.2.1.1), in Unicode mode
 * (the `u` flag: [+UnicodeMode], [+NamedCaptureGroups]) and so without Annex B's
 * relaxations (B.1.2 applies only without `u`). JSON Schema 2020-12 Core, 6.4 names
 * this dialect and asks for the `u` flag; it is also what Ajv (`unicodeRegExp`, on by
 * default) compiles. The check is syntax only: what PCRE2 then runs is
 * schema_regex.c's. PCRE-only constructs get a message naming them (a JavaScript
 * client cannot compile them). One pass over the code points, iterative (a stack of
 * open groups), so nesting depth costs no C stack. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schema/schemaInt.h"

enum group_kind { G_CAPTURE, G_PLAIN, G_LOOKAHEAD, G_LOOKBEHIND };

struct rx {
    const unsigned *cp; /* the pattern's code points */
    size_t n, i;
    char *why;
    /* capturing groups, their names (code points joined by 0), references to check */
    size_t ngroups, max_backref, backref_at;
    size_t posix_at;        /* 1 + where a class held "[:name:]", PCRE's POSIX class */
    struct buf names, refs; /* refs: "name\0at\0" pairs, at as decimal */
};

static int fail(struct rx *r, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct rx *r, size_t at, const char *fmt, ...)
{
    if (r->why) return -1;
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    r->why = xasprintf("%s (character %zu)", m, at + 1);
    return -1;
}

static int at(const struct rx *r, size_t k)
{
    return r->i + k < r->n ? (int)r->cp[r->i + k] : -1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
        : c >= 'a' && c <= 'f'  ? c - 'a' + 10
        : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                : -1;
}

static int is_syntax_char(int c)
{
    return c >= 0 && strchr("^$\\.*+?()[]{}|", c) && c != 0;
}

/* Unicode ID_Start / ID_Continue for a non-ASCII code point, asked of PCRE2's tables. */
static pcre2_code *id_start_re, *id_part_re;
static pthread_once_t id_once = PTHREAD_ONCE_INIT;

static void id_init(void)
{
    int code;
    PCRE2_SIZE off;
    id_start_re = pcre2_compile((PCRE2_SPTR) "^\\p{ID_Start}$", PCRE2_ZERO_TERMINATED, PCRE2_UTF,
                                &code, &off, NULL);
    id_part_re = pcre2_compile((PCRE2_SPTR) "^[\\p{ID_Continue}\\x{200C}\\x{200D}]$",
                               PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &off, NULL);
}

static int id_char(unsigned c, int start)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_' ||
            (!start && c >= '0' && c <= '9');
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    pthread_once(&id_once, id_init);
    pcre2_code *re = start ? id_start_re : id_part_re;
    if (!re) return 0;
    char u[4];
    size_t n = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (n == 2) {
        u[0] = (char)(0xC0 | (c >> 6));
    } else if (n == 3) {
        u[0] = (char)(0xE0 | (c >> 12));
        u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    } else {
        u[0] = (char)(0xF0 | (c >> 18));
        u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    }
    u[n - 1] = (char)(0x80 | (c & 0x3F));
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)u, n, 0, 0, md, NULL);
    pcre2_match_data_free(md);
    return rc >= 0;
}

/* RegExpUnicodeEscapeSequence[+UnicodeMode] after "\u": u{CodePoint}, uXXXX, or a
 * surrogate pair uXXXX\uXXXX. r->i is at the 'u'. *out: the code point. */
static int unicode_escape(struct rx *r, unsigned *out)
{
    size_t start = r->i - 1;
    r->i++; /* 'u' */
    if (at(r, 0) == '{') {
        unsigned v = 0;
        size_t k = 1;
        for (; hexval(at(r, (int)k)) >= 0; k++) {
            v = v * 16 + (unsigned)hexval(at(r, (int)k));
            if (v > 0x10FFFF) return fail(r, start, "\\u{...} names a code point above U+10FFFF");
        }
        if (k == 1 || at(r, (int)k) != '}')
            return fail(r, start, "\\u{ must be followed by hexadecimal digits and }");
        r->i += k + 1;
        *out = v;
        return 0;
    }
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(at(r, k));
        if (h < 0)
            return fail(r, start,
                        "\\u must be followed by four hexadecimal digits or {code point} "
                        "in Unicode mode");
        v = v * 16 + (unsigned)h;
    }
    r->i += 4;
    if (v >= 0xD800 && v <= 0xDBFF && at(r, 0) == '\\' && at(r, 1) == 'u') {
        unsigned lo = 0;
        int ok = 1;
        for (int k = 0; k < 4 && ok; k++) {
            int h = hexval(at(r, 2 + k));
            if (h < 0) ok = 0;
            else lo = lo * 16 + (unsigned)h;
        }
        if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
            r->i += 6;
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    *out = v;
    return 0;
}

/* The names of ECMA-262 Table 67 (non-binary), 68 (binary) and General_Category values
 * (PropertyValueAliases.txt), as \p{...} accepts them: case-sensitive, no loose matching. */
static const char *const BINARY_PROPS[] = {"ASCII",
                                           "ASCII_Hex_Digit",
                                           "AHex",
                                           "Alphabetic",
                                           "Alpha",
                                           "Any",
                                           "Assigned",
                                           "Bidi_Control",
                                           "Bidi_C",
                                           "Bidi_Mirrored",
                                           "Bidi_M",
                                           "Case_Ignorable",
                                           "CI",
                                           "Cased",
                                           "Changes_When_Casefolded",
                                           "CWCF",
                                           "Changes_When_Casemapped",
                                           "CWCM",
                                           "Changes_When_Lowercased",
                                           "CWL",
                                           "Changes_When_NFKC_Casefolded",
                                           "CWKCF",
                                           "Changes_When_Titlecased",
                                           "CWT",
                                           "Changes_When_Uppercased",
                                           "CWU",
                                           "Dash",
                                           "Default_Ignorable_Code_Point",
                                           "DI",
                                           "Deprecated",
                                           "Dep",
                                           "Diacritic",
                                           "Dia",
                                           "Emoji",
                                           "Emoji_Component",
                                           "EComp",
                                           "Emoji_Modifier",
                                           "EMod",
                                           "Emoji_Modifier_Base",
                                           "EBase",
                                           "Emoji_Presentation",
                                           "EPres",
                                           "Extended_Pictographic",
                                           "ExtPict",
                                           "Extender",
                                           "Ext",
                                           "Grapheme_Base",
                                           "Gr_Base",
                                           "Grapheme_Extend",
                                           "Gr_Ext",
                                           "Hex_Digit",
                                           "Hex",
                                           "IDS_Binary_Operator",
                                           "IDSB",
                                           "IDS_Trinary_Operator",
                                           "IDST",
                                           "ID_Continue",
                                           "IDC",
                                           "ID_Start",
                                           "IDS",
                                           "Ideographic",
                                           "Ideo",
                                           "Join_Control",
                                           "Join_C",
                                           "Logical_Order_Exception",
                                           "LOE",
                                           "Lowercase",
                                           "Lower",
                                           "Math",
                                           "Noncharacter_Code_Point",
                                           "NChar",
                                           "Pattern_Syntax",
                                           "Pat_Syn",
                                           "Pattern_White_Space",
                                           "Pat_WS",
                                           "Quotation_Mark",
                                           "QMark",
                                           "Radical",
                                           "Regional_Indicator",
                                           "RI",
                                           "Sentence_Terminal",
                                           "STerm",
                                           "Soft_Dotted",
                                           "SD",
                                           "Terminal_Punctuation",
                                           "Term",
                                           "Unified_Ideograph",
                                           "UIdeo",
                                           "Uppercase",
                                           "Upper",
                                           "Variation_Selector",
                                           "VS",
                                           "White_Space",
                                           "space",
                                           "XID_Continue",
                                           "XIDC",
                                           "XID_Start",
                                           "XIDS",
                                           NULL};

static const char *const GC_VALUES[] = {"C",
                                        "Other",
                                        "Cc",
                                        "Control",
                                        "cntrl",
                                        "Cf",
                                        "Format",
                                        "Cn",
                                        "Unassigned",
                                        "Co",
                                        "Private_Use",
                                        "Cs",
                                        "Surrogate",
                                        "L",
                                        "Letter",
                                        "LC",
                                        "Cased_Letter",
                                        "Ll",
                                        "Lowercase_Letter",
                                        "Lm",
                                        "Modifier_Letter",
                                        "Lo",
                                        "Other_Letter",
                                        "Lt",
                                        "Titlecase_Letter",
                                        "Lu",
                                        "Uppercase_Letter",
                                        "M",
                                        "Mark",
                                        "Combining_Mark",
                                        "Mc",
                                        "Spacing_Mark",
                                        "Me",
                                        "Enclosing_Mark",
                                        "Mn",
                                        "Nonspacing_Mark",
                                        "N",
                                        "Number",
                                        "Nd",
                                        "Decimal_Number",
                                        "digit",
                                        "Nl",
                                        "Letter_Number",
                                        "No",
                                        "Other_Number",
                                        "P",
                                        "Punctuation",
                                        "punct",
                                        "Pc",
                                        "Connector_Punctuation",
                                        "Pd",
                                        "Dash_Punctuation",
                                        "Pe",
                                        "Close_Punctuation",
                                        "Pf",
                                        "Final_Punctuation",
                                        "Pi",
                                        "Initial_Punctuation",
                                        "Po",
                                        "Other_Punctuation",
                                        "Ps",
                                        "Open_Punctuation",
                                        "S",
                                        "Symbol",
                                        "Sc",
                                        "Currency_Symbol",
                                        "Sk",
                                        "Modifier_Symbol",
                                        "Sm",
                                        "Math_Symbol",
                                        "So",
                                        "Other_Symbol",
                                        "Z",
                                        "Separator",
                                        "Zl",
                                        "Line_Separator",
                                        "Zp",
                                        "Paragraph_Separator",
                                        "Zs",
                                        "Space_Separator",
                                        NULL};

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s)) return 1;
    return 0;
}

/* \p{...} / \P{...}; r->i is at the 'p'. Script values are checked for their form only
 * (PCRE2's Unicode tables then decide: schema_regex.c). */
static int property_escape(struct rx *r)
{
    size_t start = r->i - 1;
    if (at(r, 1) != '{')
        return fail(r, start,
                    "\\%c must be followed by {property} (\\pL, PCRE's one-letter form, is "
                    "not ECMA-262)",
                    at(r, 0));
    size_t k = 2;
    char name[64], value[64];
    size_t nl = 0, vl = 0;
    int eq = 0;
    for (;; k++) {
        int c = at(r, (int)k);
        if (c == '}') break;
        if (c == '=' && !eq) {
            eq = 1;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_'))
            return fail(r, start,
                        "\\%c{...} holds a Unicode property name: letters, digits "
                        "and _, at most one =, closed by }",
                        at(r, 0));
        if (eq ? vl >= sizeof value - 1 : nl >= sizeof name - 1)
            return fail(r, start, "unknown Unicode property in \\%c{...}", at(r, 0));
        if (eq) value[vl++] = (char)c;
        else name[nl++] = (char)c;
    }
    name[nl] = value[vl] = 0;
    r->i += k + 1;
    if (!eq) {
        if (!nl || (!in_list(GC_VALUES, name) && !in_list(BINARY_PROPS, name)))
            return fail(r, start,
                        "\\p{%s}: not a General_Category value or binary Unicode property "
                        "ECMA-262 knows (names are case-sensitive and never loosely matched)",
                        name);
        return 0;
    }
    if (!strcmp(name, "General_Category") || !strcmp(name, "gc")) {
        if (!in_list(GC_VALUES, value))
            return fail(r, start, "\\p{%s=%s}: not a General_Category value", name, value);
        return 0;
    }
    if (!strcmp(name, "Script") || !strcmp(name, "sc") || !strcmp(name, "Script_Extensions") ||
        !strcmp(name, "scx")) {
        if (!vl) return fail(r, start, "\\p{%s=}: a script name is missing", name);
        return 0;
    }
    return fail(r, start,
                "\\p{%s=...}: ECMA-262 knows General_Category (gc), Script (sc) and "
                "Script_Extensions (scx)",
                name);
}

/* Messages for PCRE escapes that ECMA-262 does not have. */
static const char *pcre_escape(int c)
{
    switch (c) {
    case 'A': return "\\A (PCRE's start of subject; ECMA-262 writes ^)";
    case 'Z':
    case 'z': return "\\Z and \\z (PCRE's end of subject; ECMA-262 writes $)";
    case 'G': return "\\G (PCRE's first matching position)";
    case 'Q':
    case 'E': return "\\Q...\\E (PCRE's quoting; escape each syntax character instead)";
    case 'h':
    case 'H': return "\\h and \\H (PCRE's horizontal space)";
    case 'V': return "\\V (PCRE's non-vertical space)";
    case 'R': return "\\R (PCRE's newline sequence)";
    case 'X': return "\\X (PCRE's extended grapheme cluster)";
    case 'K': return "\\K (PCRE's match start reset)";
    case 'N': return "\\N (PCRE's non-newline)";
    case 'C': return "\\C (PCRE's single code unit)";
    case 'g':
        return "\\g (PCRE's backreference or subroutine call; ECMA-262 writes \\1 or \\k<name>)";
    case 'a': return "\\a (PCRE's alarm character; ECMA-262 writes \\x07)";
    case 'e': return "\\e (PCRE's escape character; ECMA-262 writes \\x1B)";
    case 'o': return "\\o{...} (PCRE's octal escape)";
    }
    return NULL;
}

/* One escape after '\' (r->i is past the backslash). IN_CLASS: a ClassEscape. *cp: the
 * code point it stands for, or -1 for a class (\d, \p{...}); *assertion for \b \B. */
static int escape(struct rx *r, int in_class, long *cp, int *assertion)
{
    size_t start = r->i - 1;
    int c = at(r, 0);
    unsigned u;
    *cp = -1;
    *assertion = 0;
    if (c < 0) return fail(r, start, "\\ at the end of the pattern");
    switch (c) {
    case 'd':
    case 'D':
    case 's':
    case 'S':
    case 'w':
    case 'W': r->i++; return 0;
    case 'p':
    case 'P': return property_escape(r);
    case 'b':
        r->i++;
        if (in_class) *cp = 8;
        else *assertion = 1;
        return 0;
    case 'B':
        if (in_class) return fail(r, start, "\\B is not allowed in a character class");
        r->i++;
        *assertion = 1;
        return 0;
    case 'f':
        *cp = '\f';
        r->i++;
        return 0;
    case 'n':
        *cp = '\n';
        r->i++;
        return 0;
    case 'r':
        *cp = '\r';
        r->i++;
        return 0;
    case 't':
        *cp = '\t';
        r->i++;
        return 0;
    case 'v':
        *cp = '\v';
        r->i++;
        return 0;
    case 'c': {
        int l = at(r, 1);
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')))
            return fail(r, start, "\\c must be followed by an ASCII letter");
        *cp = l % 32;
        r->i += 2;
        return 0;
    }
    case 'x':
        if (at(r, 1) == '{')
            return fail(r, start, "\\x{...} is PCRE syntax; ECMA-262 writes \\u{...}");
        if (hexval(at(r, 1)) < 0 || hexval(at(r, 2)) < 0)
            return fail(r, start, "\\x must be followed by two hexadecimal digits");
        *cp = hexval(at(r, 1)) * 16 + hexval(at(r, 2));
        r->i += 3;
        return 0;
    case 'u':
        if (unicode_escape(r, &u) < 0) return -1;
        *cp = u;
        return 0;
    case '0':
        if (is_digit(at(r, 1)))
            return fail(r, start,
                        "\\0 followed by a digit (an octal escape) is not allowed in Unicode "
                        "mode");
        *cp = 0;
        r->i++;
        return 0;
    case '-':
        if (!in_class) break;
        *cp = '-';
        r->i++;
        return 0;
    case 'k':
        if (in_class) return fail(r, start, "\\k is not allowed in a character class");
        if (at(r, 1) != '<') return fail(r, start, "\\k must be followed by <group name>");
        {
            size_t k = 2;
            struct buf name = BUF_INIT;
            for (; at(r, (int)k) >= 0 && at(r, (int)k) != '>'; k++)
                buf_addf(&name, "%x.", (unsigned)at(r, (int)k));
            if (at(r, (int)k) != '>') {
                buf_release(&name);
                return fail(r, start, "\\k<name must be closed by >");
            }
            buf_addc(&r->refs, 0);
            buf_add(&r->refs, name.s ? name.s : "", name.len);
            buf_addf(&r->refs, "@%zu", start);
            buf_release(&name);
            r->i += k + 1;
        }
        return 0;
    default: break;
    }
    if (c >= '1' && c <= '9') {
        if (in_class)
            return fail(r, start,
                        "\\%c in a character class (an octal escape or backreference) is not "
                        "allowed in Unicode mode",
                        c);
        size_t v = 0;
        while (is_digit(at(r, 0))) {
            if (v < 1000000) v = v * 10 + (size_t)(at(r, 0) - '0');
            r->i++;
        }
        if (v > r->max_backref) {
            r->max_backref = v;
            r->backref_at = start;
        }
        return 0;
    }
    if (is_syntax_char(c) || c == '/') {
        *cp = c;
        r->i++;
        return 0;
    }
    const char *pcre = pcre_escape(c);
    if (pcre) return fail(r, start, "%s is PCRE syntax, not ECMA-262", pcre);
    if (c == '-')
        return fail(r, start,
                    "\\- is not an ECMA-262 escape outside a character class in Unicode mode: "
                    "write - without the backslash");
    if (c < 0x80 && c >= 0x20)
        return fail(r, start,
                    "\\%c is not an ECMA-262 escape: in Unicode mode only the syntax "
                    "characters ^$\\.*+?()[]{}| and / (and - in a class) may be escaped; "
                    "write %c without the backslash",
                    c, c);
    return fail(r, start,
                "\\ before U+%04X is not an ECMA-262 escape: in Unicode mode only the syntax "
                "characters ^$\\.*+?()[]{}| and / may be escaped",
                (unsigned)c);
}

/* A character class; r->i is at '['. */
static int char_class(struct rx *r)
{
    size_t open = r->i;
    r->i++;
    if (at(r, 0) == '^') r->i++;
    while (at(r, 0) != ']') {
        if (at(r, 0) < 0) return fail(r, open, "[ without a closing ]");
        long a = 0, b = 0;
        int assertion = 0;
        size_t astart = r->i;
        if (at(r, 0) == '[' && at(r, 1) == ':') {
            size_t k = 2;
            while (at(r, (int)k) >= 'a' && at(r, (int)k) <= 'z') k++;
            /* in ECMA-262 its ']' ends the class: a lone ']' follows (named below) */
            if (k > 2 && at(r, (int)k) == ':' && at(r, (int)k + 1) == ']' && !r->posix_at)
                r->posix_at = astart + 1;
        }
        if (at(r, 0) == '\\') {
            r->i++;
            if (escape(r, 1, &a, &assertion) < 0) return -1;
        } else {
            a = at(r, 0);
            r->i++;
        }
        if (at(r, 0) != '-' || at(r, 1) == ']' || at(r, 1) < 0) continue;
        r->i++; /* '-' */
        size_t bstart = r->i;
        if (at(r, 0) == '\\') {
            r->i++;
            if (escape(r, 1, &b, &assertion) < 0) return -1;
        } else {
            b = at(r, 0);
            r->i++;
        }
        if (a < 0 || b < 0)
            return fail(r, a < 0 ? astart : bstart,
                        "a class escape (\\d, \\w, \\s, \\p{...}) cannot be a range's end in "
                        "Unicode mode");
        if (a > b) return fail(r, astart, "range out of order in character class");
    }
    r->i++;
    return 0;
}

/* A group name (RegExpIdentifierName) after "(?<"; r->i is at its first character.
 * Appended to r->names as hex code points. */
static int group_name(struct rx *r, size_t open)
{
    struct buf name = BUF_INIT;
    int first = 1;
    for (;;) {
        int c = at(r, 0);
        unsigned v;
        if (c == '>') break;
        if (c < 0) {
            buf_release(&name);
            return fail(r, open, "group name not closed by >");
        }
        if (c == '\\') {
            if (at(r, 1) != 'u') {
                buf_release(&name);
                return fail(r, r->i, "only \\u escapes are allowed in a group name");
            }
            r->i++;
            if (unicode_escape(r, &v) < 0) {
                buf_release(&name);
                return -1;
            }
        } else {
            v = (unsigned)c;
            r->i++;
        }
        if (!id_char(v, first)) {
            buf_release(&name);
            return fail(r, open, "a group name is an identifier: it %s",
                        first ? "starts with a letter, $ or _" : "holds letters, digits, $ and _");
        }
        buf_addf(&name, "%x.", v);
        first = 0;
    }
    r->i++; /* '>' */
    if (first) {
        buf_release(&name);
        return fail(r, open, "empty group name");
    }
    /* ES2024: a name once per pattern (ES2025 allows one per alternative) */
    for (size_t k = 0; k < r->names.len; k += strlen(r->names.s + k) + 1)
        if (!strcmp(r->names.s + k, name.s)) {
            buf_release(&name);
            return fail(r, open, "duplicate group name");
        }
    buf_add(&r->names, name.s, name.len + 1);
    buf_release(&name);
    return 0;
}

/* A group after '('; r->i is at '('. *kind: what it opens. */
static int group_open(struct rx *r, enum group_kind *kind)
{
    size_t open = r->i;
    r->i++;
    if (at(r, 0) == '*')
        return fail(r, open, "(*...) is a PCRE backtracking verb or option, not ECMA-262");
    if (at(r, 0) != '?') {
        *kind = G_CAPTURE;
        r->ngroups++;
        return 0;
    }
    int c = at(r, 1);
    r->i += 2;
    switch (c) {
    case ':': *kind = G_PLAIN; return 0;
    case '=':
    case '!': *kind = G_LOOKAHEAD; return 0;
    case '<':
        if (at(r, 0) == '=' || at(r, 0) == '!') {
            r->i++;
            *kind = G_LOOKBEHIND;
            return 0;
        }
        *kind = G_CAPTURE;
        r->ngroups++;
        return group_name(r, open);
    case '>': return fail(r, open, "(?>...) is a PCRE atomic group, not ECMA-262");
    case '|': return fail(r, open, "(?|...) is a PCRE branch reset group, not ECMA-262");
    case '#': return fail(r, open, "(?#...) is a PCRE comment, not ECMA-262");
    case '(': return fail(r, open, "(?(...)...) is a PCRE conditional group, not ECMA-262");
    case 'P':
        return fail(r, open,
                    "(?P...) is PCRE/Python named-group syntax; ECMA-262 writes (?<name>...) "
                    "and \\k<name>");
    case '&':
    case 'R':
    case '+':
        return fail(r, open, "(?%c...) is a PCRE recursion or subroutine call, not ECMA-262", c);
    case '\'': return fail(r, open, "(?'name'...) is PCRE syntax; ECMA-262 writes (?<name>...)");
    default: break;
    }
    if (is_digit(c) || (c == '-' && is_digit(at(r, 0))))
        return fail(r, open, "(?%c...) is a PCRE recursion or subroutine call, not ECMA-262", c);
    if (c >= 0 && c < 0x80 && (strchr("imsxnUJ^", c) || c == '-')) {
        /* PCRE inline options, (?i) or (?i:...) */
        size_t k = 0;
        while (at(r, (int)k) >= 0 && at(r, (int)k) < 0x80 && strchr("imsxnUJ^-", at(r, (int)k)) &&
               at(r, (int)k))
            k++;
        char flags[16];
        size_t fl = 0;
        flags[fl++] = (char)c;
        for (size_t j = 0; j < k && fl < sizeof flags - 1; j++) flags[fl++] = (char)at(r, (int)j);
        flags[fl] = 0;
        if (at(r, (int)k) == ')')
            return fail(r, open,
                        "the inline flags (?%s) are PCRE syntax; ECMA-262 has no inline flags "
                        "(for case, write both: [Aa])",
                        flags);
        if (at(r, (int)k) == ':')
            return fail(r, open,
                        "the flag group (?%s:...) is not ECMAScript 2024 (ES2025 added it; "
                        "not every JavaScript client has it)",
                        flags);
    }
    return fail(r, open,
                "invalid group: ( followed by ? must continue with :, =, !, <=, <! or "
                "<name>");
}

/* A quantifier's braces {n}, {n,}, {n,m}; r->i is at '{'. 1 and past it when it is
 * one, 0 when not (nothing consumed), -1 when it is one whose numbers are out of order. */
static int braces(struct rx *r)
{
    size_t k = 1, start = r->i;
    double lo = 0, hi = -1;
    if (!is_digit(at(r, 1))) return 0;
    for (; is_digit(at(r, (int)k)); k++) lo = lo * 10 + at(r, (int)k) - '0';
    if (at(r, (int)k) == ',') {
        k++;
        if (is_digit(at(r, (int)k))) {
            hi = 0;
            for (; is_digit(at(r, (int)k)); k++) hi = hi * 10 + at(r, (int)k) - '0';
        }
    } else {
        hi = lo;
    }
    if (at(r, (int)k) != '}') return 0;
    if (hi >= 0 && hi < lo) return fail(r, start, "numbers out of order in {} quantifier");
    r->i += k + 1;
    return 1;
}

int schema_regex_check(const char *pattern, size_t len, char **why)
{
    struct rx r = {0};
    unsigned *cp = xmalloc((len ? len : 1) * sizeof *cp);
    size_t n = 0;
    for (size_t i = 0; i < len;) { /* UTF-8 to code points */
        unsigned char c = (unsigned char)pattern[i];
        int extra = c < 0x80     ? 0
            : (c & 0xE0) == 0xC0 ? 1
            : (c & 0xF0) == 0xE0 ? 2
            : (c & 0xF8) == 0xF0 ? 3
                                 : -1;
        unsigned v = extra == 0 ? c : extra == 1 ? c & 0x1F : extra == 2 ? c & 0x0F : c & 0x07;
        if (extra < 0 || i + (size_t)extra >= len) extra = -1;
        for (int k = 1; extra > 0 && k <= extra; k++) {
            unsigned char d = (unsigned char)pattern[i + (size_t)k];
            if ((d & 0xC0) != 0x80) extra = -1;
            else v = (v << 6) | (d & 0x3F);
        }
        if (extra < 0) {
            free(cp);
            *why = xasprintf("the pattern is not valid UTF-8 (byte %zu)", i + 1);
            return -1;
        }
        cp[n++] = v;
        i += (size_t)extra + 1;
    }
    r.cp = cp;
    r.n = n;
    /* open groups: their kinds, and where each opened */
    struct buf kinds = BUF_INIT;
    VEC(size_t) opens = {0};
    int quantifiable = 0; /* the last term is an atom (a quantifier may follow) */
    while (r.i < r.n && !r.why) {
        int c = at(&r, 0);
        size_t start = r.i;
        long ch = 0;
        int assertion = 0;
        switch (c) {
        case '|':
        case '^':
        case '$':
            r.i++;
            quantifiable = 0;
            break;
        case '(': {
            enum group_kind k = G_PLAIN;
            if (group_open(&r, &k) < 0) break;
            buf_addc(&kinds, (char)k);
            VEC_PUSH(opens, start);
            quantifiable = 0;
            break;
        }
        case ')':
            if (!kinds.len) {
                fail(&r, start, ") without an opening (");
                break;
            }
            opens.len--;
            /* no quantified assertion in Unicode mode (Annex B's QuantifiableAssertion
             * is for non-Unicode patterns only) */
            quantifiable = kinds.s[kinds.len - 1] == G_CAPTURE || kinds.s[kinds.len - 1] == G_PLAIN;
            buf_truncate(&kinds, kinds.len - 1);
            r.i++;
            break;
        case '[':
            if (char_class(&r) < 0) break;
            quantifiable = 1;
            break;
        case '\\':
            r.i++;
            if (escape(&r, 0, &ch, &assertion) < 0) break;
            quantifiable = !assertion;
            break;
        case '*':
        case '+':
        case '?':
        case '{': {
            int q = 1;
            if (c == '{') {
                q = braces(&r);
                if (q < 0) break;
                if (!q) {
                    if (at(&r, 1) == ',')
                        fail(&r, start, "{,n} is PCRE syntax (from 10.43); ECMA-262 writes {0,n}");
                    else
                        fail(&r, start,
                             "a lone { is not allowed in Unicode mode: escape it as \\{ (or "
                             "complete the quantifier {n}, {n,} or {n,m})");
                    break;
                }
            } else {
                r.i++;
            }
            if (!quantifiable) {
                fail(&r, start,
                     "nothing to repeat: a quantifier must follow a character, class, escape "
                     "or group (not an assertion, in Unicode mode)");
                break;
            }
            if (at(&r, 0) == '?') r.i++;
            if (at(&r, 0) == '+') {
                char qt[32];
                size_t ql = 0;
                for (size_t j = start; j <= r.i && ql < sizeof qt - 1; j++)
                    qt[ql++] = (char)r.cp[j];
                qt[ql] = 0;
                fail(&r, start,
                     "the possessive quantifier %s (a quantifier followed by +) is PCRE "
                     "syntax, not ECMA-262",
                     qt);
                break;
            }
            quantifiable = 0;
            break;
        }
        case ']':
            if (r.posix_at) {
                fail(&r, r.posix_at - 1,
                     "[:...:] is a POSIX class, PCRE syntax; ECMA-262 writes \\d, \\w, \\s or "
                     "\\p{...}");
                break;
            }
            /* fall through */
        case '}':
            fail(&r, start, "a lone %c is not allowed in Unicode mode: escape it as \\%c", c, c);
            break;
        default:
            r.i++;
            quantifiable = 1;
            break;
        }
    }
    if (!r.why && kinds.len) fail(&r, opens.items[opens.len - 1], "( without a closing )");
    if (!r.why && r.max_backref > r.ngroups)
        fail(&r, r.backref_at, "\\%zu refers to a group the pattern does not have (it has %zu)",
             r.max_backref, r.ngroups);
    for (size_t k = 0; !r.why && k < r.refs.len;) { /* \k<name> names a group */
        const char *name = r.refs.s + k + 1, *amp = strrchr(name, '@');
        size_t nlen = (size_t)(amp - name), found = 0;
        for (size_t g = 0; g < r.names.len; g += strlen(r.names.s + g) + 1)
            if (strlen(r.names.s + g) == nlen && !memcmp(r.names.s + g, name, nlen)) found = 1;
        if (!found) fail(&r, (size_t)strtoul(amp + 1, NULL, 10), "\\k<...> names no group");
        k += strlen(r.refs.s + k + 1) + 1;
    }
    free(cp);
    free(opens.items);
    buf_release(&kinds);
    buf_release(&r.names);
    buf_release(&r.refs);
    if (r.why) {
        *why = r.why;
        return -1;
    }
    return 0;
}
