/* schema_num.c - JSON Schema value semantics that jansson does not give: number
 * equality across integer/real, exact int64/double comparison, the integer test,
 * decimal-exact multipleOf, code-point string length. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "schema/schemaInt.h"

static int cmp_int_real(json_int_t i, double r)
{
    if (r >= 9223372036854775808.0) return -1;
    if (r < -9223372036854775808.0) return 1;
    double f = floor(r);
    json_int_t fi = (json_int_t)f;
    if (i < fi) return -1;
    if (i > fi) return 1;
    return r > f ? -1 : 0;
}

int schema_num_cmp(json_t *a, json_t *b)
{
    if (json_is_integer(a) && json_is_integer(b)) {
        json_int_t x = json_integer_value(a), y = json_integer_value(b);
        return x < y ? -1 : x > y;
    }
    if (json_is_real(a) && json_is_real(b)) {
        double x = json_real_value(a), y = json_real_value(b);
        return x < y ? -1 : x > y;
    }
    if (json_is_integer(a)) return cmp_int_real(json_integer_value(a), json_real_value(b));
    return -cmp_int_real(json_integer_value(b), json_real_value(a));
}

int schema_is_integer(json_t *v)
{
    if (json_is_integer(v)) return 1;
    if (!json_is_real(v)) return 0;
    double x = json_real_value(v);
    return isfinite(x) && x == trunc(x);
}

int schema_json_equal(json_t *a, json_t *b)
{
    if (a == b) return 1;
    if (json_is_number(a) && json_is_number(b)) return schema_num_cmp(a, b) == 0;
    if (json_typeof(a) != json_typeof(b)) return 0;
    switch (json_typeof(a)) {
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_ARRAY: {
        size_t n = json_array_size(a);
        if (n != json_array_size(b)) return 0;
        for (size_t i = 0; i < n; i++)
            if (!schema_json_equal(json_array_get(a, i), json_array_get(b, i))) return 0;
        return 1;
    }
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b)) return 0;
        const char *k;
        json_t *v;
        json_object_foreach(a, k, v) {
            json_t *w = json_object_get(b, k);
            if (!w || !schema_json_equal(v, w)) return 0;
        }
        return 1;
    }
    default:
        return 1; /* true, false, null are singletons of their type */
    }
}

size_t schema_utf8_length(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) count++;
    return count;
}

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

const char *schema_type_name(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}
