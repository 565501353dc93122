/* val.c - JSON value semantics: equality, number comparison, the integer test, type
 * names, code-point length; see val.h. */
#include "base/val.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"

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

int val_num_cmp(json_t *a, json_t *b)
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

int val_is_integer(json_t *v)
{
    if (json_is_integer(v)) return 1;
    if (!json_is_real(v)) return 0;
    double x = json_real_value(v);
    return isfinite(x) && x == trunc(x);
}

int val_equal(json_t *a, json_t *b)
{
    if (a == b) return 1;
    if (json_is_number(a) && json_is_number(b)) return val_num_cmp(a, b) == 0;
    if (json_typeof(a) != json_typeof(b)) return 0;
    switch (json_typeof(a)) {
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
            memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_ARRAY: {
        size_t n = json_array_size(a);
        if (n != json_array_size(b)) return 0;
        for (size_t i = 0; i < n; i++)
            if (!val_equal(json_array_get(a, i), json_array_get(b, i))) return 0;
        return 1;
    }
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b)) return 0;
        const char *k;
        json_t *v;
        json_object_foreach(a, k, v)
        {
            json_t *w = json_object_get(b, k);
            if (!w || !val_equal(v, w)) return 0;
        }
        return 1;
    }
    default: return 1; /* true, false, null are singletons of their type */
    }
}

size_t val_utf8_length(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) count++;
    return count;
}

/* Each JSON type's name in both vocabularies, the one place they are written. */
static const struct type_name {
    const char *json, *yaml;
} type_names[] = {
    [JSON_OBJECT] = {"object", "mapping"}, [JSON_ARRAY] = {"array", "list"},
    [JSON_STRING] = {"string", "string"},  [JSON_INTEGER] = {"integer", "integer"},
    [JSON_REAL] = {"number", "number"},    [JSON_TRUE] = {"boolean", "boolean"},
    [JSON_FALSE] = {"boolean", "boolean"}, [JSON_NULL] = {"null", "null"},
};

static const struct type_name *type_name_of(json_t *v)
{
    size_t t = (size_t)json_typeof(v);
    return &type_names[t < sizeof type_names / sizeof *type_names ? t : JSON_NULL];
}

const char *val_type_name(json_t *v)
{
    return type_name_of(v)->json;
}

const char *val_type_name_yaml(json_t *v)
{
    return type_name_of(v)->yaml;
}

json_t *val_load_file(const char *path, size_t flags, json_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return json_load_file(path, flags, err); /* its error, as jansson says it */
    struct buf b = BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        buf_release(&b);
        return json_load_file(path, flags, err); /* jansson's own read error */
    }
    json_t *v = json_loadb(b.len ? buf_str(&b) : "", b.len, flags, err);
    buf_release(&b);
    return v;
}
