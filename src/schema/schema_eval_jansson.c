/* schema_eval_jansson.c - whether the evaluator may read jansson's values in place
 * (the views of schemaInt.h): only under a jansson version whose layout they copy, and
 * only when they read the same as its API on a probe of each kind of value, members
 * and elements they are used on. Decided once per process; any doubt keeps the API. */
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static _Atomic int direct_state; /* 0 not probed yet, 1 in place, -1 the API */
static _Atomic int forced_api;

/* Versions whose src/hashtable.h and src/jansson_private.h the views copy (checked
 * against jansson's sources of 2.14, 2.14.1, 2.15.0 and 2.15.1). */
static int known_version(const char *v)
{
    static const char *const known[] = {"2.14", "2.14.1", "2.15.0", "2.15.1"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(v, known[i]) == 0) return 1;
    return 0;
}

/* Every member of object O read both ways; 0 at the first difference. */
static int object_agrees(json_t *o)
{
    if (json_object_size(o) != schema_jobject_size(o, 1)) return 0;
    void *api = json_object_iter(o), *own = schema_jiter(o, 1);
    while (api || own) {
        if (api != own) return 0;
        if (json_object_iter_key(api) != schema_jiter_key(own, 1) ||
            json_object_iter_key_len(api) != schema_jiter_key_len(own, 1) ||
            json_object_iter_value(api) != schema_jiter_value(own, 1))
            return 0;
        api = json_object_iter_next(o, api);
        own = schema_jiter_next(o, own, 1);
    }
    return 1;
}

static int scalar_agrees(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_STRING:
        return json_string_value(v) == schema_jstring_value(v, 1) &&
            json_string_length(v) == schema_jstring_length(v, 1);
    case JSON_INTEGER: return json_integer_value(v) == schema_jinteger_value(v, 1);
    case JSON_ARRAY:
        if (json_array_size(v) != schema_jarray_size(v, 1)) return 0;
        for (size_t i = 0; i < json_array_size(v); i++)
            if (json_array_get(v, i) != schema_jarray_get(v, i, 1)) return 0;
        return 1;
    case JSON_OBJECT: return object_agrees(v);
    default: return 1;
    }
}

/* Values built and changed through the API (members added, replaced and removed, an
 * array grown past its first allocation, keys with a NUL byte), then read both ways. */
__attribute__((noinline, cold)) static int probe(void) /* once: keep the caller short */
{
    const char *v = jansson_version_str();
    if (!v || !known_version(v)) return 0;
    json_t *o = json_object(), *empty = json_object(), *arr = json_array();
    int ok = o && empty && arr && object_agrees(empty);
    static const char key_nul[] = {'k', 0, 'z'};
    ok = ok && json_object_set_new(o, "a", json_integer(-7)) == 0 &&
        json_object_set_new(o, "long member name", json_stringn("x\0y", 3)) == 0 &&
        json_object_setn_new(o, key_nul, sizeof key_nul, json_string("")) == 0 &&
        json_object_set_new(o, "gone", json_null()) == 0 &&
        json_object_set_new(o, "a", json_integer(INT64_C(1) << 40)) == 0 &&
        json_object_del(o, "gone") == 0;
    /* past 8 elements and members: an array's first slots, an object's first buckets */
    for (int i = 0; ok && i < 12; i++)
        ok = json_array_append_new(arr, json_integer(i)) == 0 &&
            json_object_set_new(o, (char[]){(char)('A' + i), 0}, json_real(i + 0.5)) == 0;
    ok = ok && json_object_set(o, "arr", arr) == 0;
    if (ok) {
        const char *key;
        json_t *m;
        ok = object_agrees(o) && scalar_agrees(arr);
        json_object_foreach(o, key, m) ok = ok && scalar_agrees(m);
    }
    json_decref(o);
    json_decref(empty);
    json_decref(arr);
    return ok;
}

int schema_jansson_direct(void)
{
    if (forced_api) return 0;
    int s = direct_state;
    if (!s) { /* two threads may both probe: the same answer */
        s = probe() ? 1 : -1;
        direct_state = s;
    }
    return s > 0;
}

void schema_jansson_force_api(int on)
{
    forced_api = on != 0;
}
