/* schema_num.c - decimal-exact multipleOf (0.3 is a multiple of 0.1). The value
 * semantics the interpreter shares (equality, number comparison, the integer test,
 * type names, code-point length) are base/val.c's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "schema/schemaInt.h"

/* The number as D * 10^E with D an integer without trailing zeros (shortest decimal
 * representation that reads back to the same double). Returns -1 for inf/nan. */
static int to_decimal(json_t *v, uint64_t *d, int *e)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        *d = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
        *e = 0;
    } else {
        double x = fabs(json_real_value(v));
        if (!isfinite(x)) return -1;
        if (x == 0) {
            *d = 0;
            *e = 0;
            return 0;
        }
        char tmp[64];
        int prec;
        for (prec = 1; prec <= 17; prec++) {
            snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
            if (strtod(tmp, NULL) == x) break;
        }
        uint64_t digits = 0;
        const char *p = tmp;
        for (; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9') digits = digits * 10 + (uint64_t)(*p - '0');
        int exp10 = *p == 'e' ? atoi(p + 1) : 0;
        *d = digits;
        *e = exp10 - (prec - 1);
    }
    while (*d && *d % 10 == 0) {
        *d /= 10;
        (*e)++;
    }
    return 0;
}

int schema_multiple_of(json_t *x, json_t *m)
{
    if (json_is_integer(x) && json_is_integer(m)) {
        json_int_t a = json_integer_value(x), b = json_integer_value(m);
        if (b == 0) return 0;
        if (b == -1) return 1;
        return a % b == 0;
    }
    uint64_t dx, dm;
    int ex, em;
    if (to_decimal(x, &dx, &ex) < 0 || to_decimal(m, &dm, &em) < 0) return 0;
    if (dm == 0) return 0;
    if (dx == 0) return 1;
    if (ex >= em) {
        unsigned __int128 r = dx % dm;
        for (int k = 0; k < ex - em && r; k++) r = (r * 10) % dm;
        return r == 0;
    }
    unsigned __int128 t = dm;
    for (int k = 0; k < em - ex; k++) {
        t *= 10;
        if (t > dx) return 0;
    }
    return dx % t == 0;
}
