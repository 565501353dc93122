/* regex_need.c - a pattern's needs, from pcre2_pattern_info (regex_need.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules/regex_need.h"

#include <pcre2.h>
#include <string.h>

static int ascii_has(const uint64_t set[2], unsigned c)
{
    return c < 128 && (set[c >> 6] >> (c & 63) & 1);
}

static void ascii_add(uint64_t set[2], unsigned c)
{
    set[c >> 6] |= (uint64_t)1 << (c & 63);
}

/* The other case of ASCII letter C, else C: PCRE2 does not say whether its first or last
 * code unit is caseless ((?i) may cover part of a pattern), so both count. */
static unsigned other_case(unsigned c)
{
    if (c >= 'a' && c <= 'z') return c - 32;
    if (c >= 'A' && c <= 'Z') return c + 32;
    return c;
}

void regex_need_of(const void *pattern, struct regex_need *out)
{
    const pcre2_code *code = pattern;
    memset(out, 0, sizeof *out);
    uint32_t min = 0, type = 0, unit = 0;
    if (pcre2_pattern_info(code, PCRE2_INFO_MINLENGTH, &min) == 0) out->min_len = min;
    if (!out->min_len) return; /* a match may be empty: it needs no code unit */
    if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODETYPE, &type) == 0 && type == 1 &&
        pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0) {
        out->first = 1; /* a non-ASCII unit: no ASCII subject holds a match */
        if (unit < 128) {
            ascii_add(out->first_ascii, unit);
            ascii_add(out->first_ascii, other_case(unit));
        }
    } else if (type == 0) {
        const uint8_t *bits = NULL;
        if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTBITMAP, &bits) == 0 && bits) {
            out->first = 1;
            for (unsigned c = 0; c < 128; c++)
                if (bits[c / 8] >> (c % 8) & 1) ascii_add(out->first_ascii, c);
        }
    }
    if (pcre2_pattern_info(code, PCRE2_INFO_LASTCODETYPE, &type) == 0 && type == 1 &&
        pcre2_pattern_info(code, PCRE2_INFO_LASTCODEUNIT, &unit) == 0 && unit < 128) {
        out->last = 1;
        out->last_a = (unsigned char)unit;
        out->last_b = (unsigned char)other_case(unit);
    }
}

int regex_need_may_match(const struct regex_need *need, size_t n, const uint64_t ascii[2], int high)
{
    if (n < need->min_len) return 0;
    /* a caseless k or s also matches U+212A or U+017F: only an ASCII subject's code units
     * are all the characters a match can hold */
    if (high) return 1;
    if (need->first && !(need->first_ascii[0] & ascii[0]) && !(need->first_ascii[1] & ascii[1]))
        return 0;
    if (need->last && !ascii_has(ascii, need->last_a) && !ascii_has(ascii, need->last_b)) return 0;
    return 1;
}
