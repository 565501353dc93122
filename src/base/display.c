/* display.c - text made safe to show; see display.h. */
#include "base/display.h"

#include <string.h>

size_t display_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = u[0] < 0x80    ? 1
        : (u[0] & 0xE0) == 0xC0 ? 2
        : (u[0] & 0xF0) == 0xE0 ? 3
        : (u[0] & 0xF8) == 0xF0 ? 4
                                : 0;
    if (len == 1) {
        *cp = u[0];
        return 1;
    }
    *cp = UINT32_MAX;
    if (!len || len > n) return 1;
    uint32_t c = u[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) return 1;
        c = (c << 6) | (u[i] & 0x3F);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 1;
    *cp = c;
    return len;
}

/* The ranges display_is_hidden escapes, in order. Controls (Cc); the format and
 * default-ignorable characters a terminal or a browser draws as nothing (Unicode's
 * DerivedCoreProperties Default_Ignorable_Code_Point, and the Cf characters among them);
 * the bidirectional controls (Unicode Standard Annex #9, the subject of CVE-2021-42574);
 * the line and paragraph separators, which break a report line. */
static const struct {
    uint32_t lo, hi;
} hidden[] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},   {0x034F, 0x034F},
    {0x061C, 0x061C},   {0x115F, 0x1160},   {0x17B4, 0x17B5},   {0x180B, 0x180F},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},   {0x3164, 0x3164},
    {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF9, 0xFFFB},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE007F}, {0xE0100, 0xE01EF},
};

int display_is_hidden(uint32_t cp)
{
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0] && cp >= hidden[i].lo; i++)
        if (cp <= hidden[i].hi) return 1;
    return 0;
}

void display_add_escape(struct buf *b, uint32_t cp)
{
    if (cp <= 0xFFFF) buf_addf(b, "\\u%04X", (unsigned)cp);
    else buf_addf(b, "\\u{%X}", (unsigned)cp);
}

size_t display_add(struct buf *b, const char *s, size_t n)
{
    size_t shown = 0, plain = 0; /* plain: bytes of S not yet copied */
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = display_utf8_next(s + i, n - i, &cp);
        if (cp != UINT32_MAX && !display_is_hidden(cp)) {
            i += len;
            shown++;
            continue;
        }
        buf_add(b, s + plain, i - plain);
        size_t at = b->len;
        if (cp == UINT32_MAX) buf_addf(b, "\\x%02X", (unsigned)(unsigned char)s[i]);
        else display_add_escape(b, cp);
        shown += b->len - at;
        i += len;
        plain = i;
    }
    buf_add(b, s + plain, n - plain);
    return shown;
}

void display_add_line(struct buf *b, const char *s, size_t n, struct buf *pad)
{
    for (size_t i = 0; i <= n;) {
        const char *tab = memchr(s + i, '\t', n - i);
        size_t seg = tab ? (size_t)(tab - s) - i : n - i;
        size_t shown = display_add(b, s + i, seg);
        for (size_t k = 0; pad && k < shown; k++) buf_addc(pad, ' ');
        if (!tab) break;
        buf_addc(b, '\t');
        if (pad) buf_addc(pad, '\t');
        i += seg + 1;
    }
}

/* ---- names ---------------------------------------------------------------------------
 * The names (Unicode's Name property, which never changes once assigned) of the hidden
 * characters a report is most likely to name; ranges whose names follow a pattern
 * (variation selectors, tag letters and digits) are made, not listed. */
static const struct {
    uint32_t cp;
    const char *name;
} names[] = {
    {0x0000, "NULL"},
    {0x0007, "BELL"},
    {0x0008, "BACKSPACE"},
    {0x0009, "CHARACTER TABULATION"},
    {0x000A, "LINE FEED"},
    {0x000D, "CARRIAGE RETURN"},
    {0x001B, "ESCAPE"},
    {0x007F, "DELETE"},
    {0x0085, "NEXT LINE"},
    {0x009B, "CONTROL SEQUENCE INTRODUCER"},
    {0x009D, "OPERATING SYSTEM COMMAND"},
    {0x00AD, "SOFT HYPHEN"},
    {0x034F, "COMBINING GRAPHEME JOINER"},
    {0x061C, "ARABIC LETTER MARK"},
    {0x115F, "HANGUL CHOSEONG FILLER"},
    {0x1160, "HANGUL JUNGSEONG FILLER"},
    {0x180E, "MONGOLIAN VOWEL SEPARATOR"},
    {0x200B, "ZERO WIDTH SPACE"},
    {0x200C, "ZERO WIDTH NON-JOINER"},
    {0x200D, "ZERO WIDTH JOINER"},
    {0x200E, "LEFT-TO-RIGHT MARK"},
    {0x200F, "RIGHT-TO-LEFT MARK"},
    {0x2028, "LINE SEPARATOR"},
    {0x2029, "PARAGRAPH SEPARATOR"},
    {0x202A, "LEFT-TO-RIGHT EMBEDDING"},
    {0x202B, "RIGHT-TO-LEFT EMBEDDING"},
    {0x202C, "POP DIRECTIONAL FORMATTING"},
    {0x202D, "LEFT-TO-RIGHT OVERRIDE"},
    {0x202E, "RIGHT-TO-LEFT OVERRIDE"},
    {0x2060, "WORD JOINER"},
    {0x2061, "FUNCTION APPLICATION"},
    {0x2062, "INVISIBLE TIMES"},
    {0x2063, "INVISIBLE SEPARATOR"},
    {0x2064, "INVISIBLE PLUS"},
    {0x2066, "LEFT-TO-RIGHT ISOLATE"},
    {0x2067, "RIGHT-TO-LEFT ISOLATE"},
    {0x2068, "FIRST STRONG ISOLATE"},
    {0x2069, "POP DIRECTIONAL ISOLATE"},
    {0x3164, "HANGUL FILLER"},
    {0xFEFF, "ZERO WIDTH NO-BREAK SPACE"},
    {0xFFA0, "HALFWIDTH HANGUL FILLER"},
    {0xE0001, "LANGUAGE TAG"},
    {0xE0020, "TAG SPACE"},
    {0xE007F, "CANCEL TAG"},
};

static const char *const digit_names[] = {"ZERO", "ONE", "TWO",   "THREE", "FOUR",
                                          "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"};

void display_add_codepoint(struct buf *b, uint32_t cp)
{
    buf_addf(b, "U+%04X", (unsigned)cp);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].cp == cp) {
            buf_addf(b, " %s", names[i].name);
            return;
        }
    if (cp >= 0xFE00 && cp <= 0xFE0F) buf_addf(b, " VARIATION SELECTOR-%u", cp - 0xFE00 + 1);
    else if (cp >= 0xE0100 && cp <= 0xE01EF)
        buf_addf(b, " VARIATION SELECTOR-%u", cp - 0xE0100 + 17);
    else if (cp >= 0xE0041 && cp <= 0xE005A)
        buf_addf(b, " TAG LATIN CAPITAL LETTER %c", (char)(cp - 0xE0000));
    else if (cp >= 0xE0061 && cp <= 0xE007A)
        buf_addf(b, " TAG LATIN SMALL LETTER %c", (char)(cp - 0xE0000 - 0x20));
    else if (cp >= 0xE0030 && cp <= 0xE0039)
        buf_addf(b, " TAG DIGIT %s", digit_names[cp - 0xE0030]);
}
