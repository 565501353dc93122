/* fn_fold.c - how unique and among compare and hash values (fn_fold.h). */
#include "rules/fn_fold.h"

#include <ctype.h>
#include <stdio.h>

#include "base/val.h"

/* How unique and among compare strings: FOLD_CASE without ASCII case (ignore-case),
 * FOLD_SEPARATORS without the separators of names, - _ and . (ignore-separators:
 * send_email, Send-Email and sendEmail are one name). */

static int separator(unsigned char c)
{
    return c == '-' || c == '_' || c == '.';
}

/* A and B equal once separators are left out (and case, with FOLD_CASE in FOLD). */
static int text_equal_unseparated(const char *a, size_t la, const char *b, size_t lb, int fold)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < la && separator((unsigned char)a[i])) i++;
        while (j < lb && separator((unsigned char)b[j])) j++;
        if (i == la || j == lb) return i == la && j == lb;
        unsigned char x = (unsigned char)a[i++], y = (unsigned char)b[j++];
        if (fold & FOLD_CASE && x < 0x80 && y < 0x80)
            x = (unsigned char)tolower(x), y = (unsigned char)tolower(y);
        if (x != y) return 0;
    }
}

int fn_fold_text_equal(const char *a, size_t la, const char *b, size_t lb, int ignore_case)
{
    if (ignore_case & FOLD_SEPARATORS) return text_equal_unseparated(a, la, b, lb, ignore_case);
    if (la != lb) return 0;
    for (size_t i = 0; i < la; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (ignore_case && x < 0x80 && y < 0x80)
            x = (unsigned char)tolower(x), y = (unsigned char)tolower(y);
        if (x != y) return 0;
    }
    return 1;
}

int fn_fold_values_equal(json_t *a, json_t *b, int ignore_case)
{
    if (ignore_case && json_is_string(a) && json_is_string(b))
        return fn_fold_text_equal(json_string_value(a), json_string_length(a), json_string_value(b),
                                  json_string_length(b), ignore_case);
    return val_equal(a, b);
}

uint64_t fn_fold_fnv(const char *s, size_t n, int fold)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (fold & FOLD_SEPARATORS && separator(c)) continue;
        if (fold & FOLD_CASE && c < 0x80) c = (unsigned char)tolower(c);
        h = (h ^ c) * 1099511628211ull;
    }
    return h;
}

/* Equal values hash equal: strings by (folded) text, numbers by value, other values
 * by type only (rare; the bucket is then compared in full). */
uint64_t fn_fold_value_hash(json_t *v, int fold)
{
    if (json_is_string(v)) return fn_fold_fnv(json_string_value(v), json_string_length(v), fold);
    if (json_is_number(v)) {
        double x = json_number_value(v);
        if (x == 0) x = 0; /* -0 */
        char buf[40];
        int n = snprintf(buf, sizeof buf, "%.17g", x);
        return fn_fold_fnv(buf, (size_t)n, 0) ^ 0x9e3779b97f4a7c15ull;
    }
    return (uint64_t)json_typeof(v) * 0x9e3779b97f4a7c15ull;
}
