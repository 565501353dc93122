/* check_schema_eval_jansson.c - jansson's values read in place by the evaluator
 * (schemaInt.h's views, schema_eval_jansson.c's probe) and the slot table of a string
 * enum's short strings (schema_fast.c): the probe takes this jansson when it is a
 * version the views copy, the views read what the API reads on parsed and edited
 * values, validation gives the same verdicts read in place and through the API, an
 * enum's table finds exactly its strings, and a member or item that only needs its
 * member loop goes straight to it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static unsigned long rng = 20261207;
static unsigned next_rand(unsigned n)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)(rng >> 33) % n;
}

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* Every value below V read both ways (V and its members of the types the views read). */
static void agree(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        ck_assert_uint_eq(schema_jobject_size(v, 1), json_object_size(v));
        void *api = json_object_iter(v), *own = schema_jiter(v, 1);
        while (api || own) {
            ck_assert_ptr_eq(own, api);
            ck_assert_ptr_eq(schema_jiter_key(own, 1), json_object_iter_key(api));
            ck_assert_uint_eq(schema_jiter_key_len(own, 1), json_object_iter_key_len(api));
            ck_assert_ptr_eq(schema_jiter_value(own, 1), json_object_iter_value(api));
            agree(json_object_iter_value(api));
            api = json_object_iter_next(v, api);
            own = schema_jiter_next(v, own, 1);
        }
        break;
    }
    case JSON_ARRAY:
        ck_assert_uint_eq(schema_jarray_size(v, 1), json_array_size(v));
        for (size_t i = 0; i < json_array_size(v); i++) {
            ck_assert_ptr_eq(schema_jarray_get(v, i, 1), json_array_get(v, i));
            agree(json_array_get(v, i));
        }
        break;
    case JSON_STRING:
        ck_assert_ptr_eq(schema_jstring_value(v, 1), json_string_value(v));
        ck_assert_uint_eq(schema_jstring_length(v, 1), json_string_length(v));
        break;
    case JSON_INTEGER: ck_assert(schema_jinteger_value(v, 1) == json_integer_value(v)); break;
    default: break;
    }
}

START_TEST(read_in_place_under_this_jansson)
{
    const char *v = jansson_version_str();
    int known =
        !strcmp(v, "2.14") || !strcmp(v, "2.14.1") || !strcmp(v, "2.15.0") || !strcmp(v, "2.15.1");
    ck_assert_msg(schema_jansson_direct() == known, "jansson %s: in place %d", v,
                  schema_jansson_direct());
    if (!known) return;
    json_t *doc = J("{\"a\":1,\"b\":[\"x\\u0000y\",-9223372036854775807,{},[]],\"\":{\"k\":"
                    "\"\",\"kk\":1.5,\"k2\":true}}");
    json_object_setn_new(json_object_get(doc, ""), "k\0", 2, json_null()); /* not parsed */
    agree(doc);
    /* edited: members removed, replaced and added past a rehash; an array grown */
    json_object_del(doc, "a");
    json_object_set_new(doc, "b", json_integer(3));
    for (int i = 0; i < 50; i++) {
        char key[16];
        snprintf(key, sizeof key, "m%d", i);
        json_object_set_new(doc, key, i % 2 ? json_stringn("ab\0c", 4) : json_array());
        if (i % 7 == 0) json_object_del(doc, key);
    }
    json_t *arr = json_object_get(doc, "m2");
    for (int i = 0; i < 40; i++) json_array_append_new(arr, json_integer(i));
    json_array_remove(arr, 3);
    agree(doc);
    json_decref(doc);
    /* the API is kept when asked to */
    schema_jansson_force_api(1);
    ck_assert_int_eq(schema_jansson_direct(), 0);
    schema_jansson_force_api(0);
    ck_assert_int_eq(schema_jansson_direct(), known);
}
END_TEST

/* INST against SCH in boolean mode, read in place and through the API: both WANT. */
static void both_ways(const char *sch, json_t *inst, int want)
{
    json_t *sj = J(sch);
    schema_ctx *ctx = schema_ctx_new(NULL);
    schema *c = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, NULL);
    ck_assert_msg(c != NULL, "%s: does not compile", sch);
    char *text = json_dumps(inst, JSON_ENCODE_ANY | JSON_COMPACT);
    for (int api = 0; api < 2; api++) {
        schema_jansson_force_api(api);
        int got = schema_validate(c, inst, NULL);
        ck_assert_msg(got == want, "%s against %s (%s): %d, expected %d", text, sch,
                      api ? "through the API" : "in place", got, want);
    }
    schema_jansson_force_api(0);
    free(text);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sj);
}

static void both_ways_text(const char *sch, const char *inst, int want)
{
    json_t *ij = J(inst);
    both_ways(sch, ij, want);
    json_decref(ij);
}

START_TEST(same_verdicts_both_ways)
{
    const char *obj =
        "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\",\"minLength\":2,"
        "\"maxLength\":4,\"pattern\":\"^[a-z]+$\"},\"n\":{\"type\":\"integer\","
        "\"minimum\":1,\"maximum\":9},\"e\":{\"enum\":[\"ab\",\"cd\",\"abcdefghij\"]},"
        "\"a\":{\"type\":\"array\",\"maxItems\":2,\"items\":{\"$ref\":\"#/$defs/i\"}},"
        "\"o\":{\"type\":\"object\",\"minProperties\":1,\"required\":[\"k\"]}},"
        "\"required\":[\"s\"],\"additionalProperties\":false,"
        "\"$defs\":{\"i\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":"
        "\"boolean\"}},\"additionalProperties\":{\"type\":\"null\"}}}}";
    both_ways_text(obj, "{\"s\":\"abc\"}", 0);
    both_ways_text(obj, "{}", 1);
    both_ways_text(obj, "{\"s\":\"a\"}", 1);
    both_ways_text(obj, "{\"s\":\"abcde\"}", 1);
    both_ways_text(obj, "{\"s\":\"aBc\"}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"n\":9,\"e\":\"cd\"}", 0);
    both_ways_text(obj, "{\"s\":\"ab\",\"n\":10}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"n\":2.0}", 0);
    both_ways_text(obj, "{\"s\":\"ab\",\"e\":\"abcdefghij\"}", 0);
    both_ways_text(obj, "{\"s\":\"ab\",\"e\":\"abcdefghik\"}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"e\":\"ce\"}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"a\":[{\"x\":true,\"y\":null},{}]}", 0);
    both_ways_text(obj, "{\"s\":\"ab\",\"a\":[{\"x\":true,\"y\":0}]}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"a\":[{},{},{}]}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"o\":{\"k\":1}}", 0);
    both_ways_text(obj, "{\"s\":\"ab\",\"o\":{\"j\":1}}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"o\":{}}", 1);
    both_ways_text(obj, "{\"s\":\"ab\",\"z\":1}", 1);
    json_t *nul = J("{\"s\":\"ab\"}");
    json_object_setn_new(nul, "s\0", 2, json_string("ab")); /* "s" and a NUL: undeclared */
    both_ways(obj, nul, 1);
    json_decref(nul);
    /* many members, few names: looked up */
    both_ways_text("{\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"b\"]}",
                   "{\"b\":1,\"c\":2,\"d\":3,\"e\":4,\"f\":5,\"g\":6,\"h\":7,\"i\":8,\"j\":9,"
                   "\"k\":10,\"l\":11,\"m\":12,\"n\":13,\"a\":\"x\"}",
                   0);
    both_ways_text("{\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"b\"]}",
                   "{\"b\":1,\"c\":2,\"d\":3,\"e\":4,\"f\":5,\"g\":6,\"h\":7,\"i\":8,\"j\":9,"
                   "\"k\":10,\"l\":11,\"m\":12,\"n\":13,\"a\":7}",
                   1);
    /* one value under two members (shared: evaluated the long way, remembered) */
    json_t *shared = J("{\"x\":false}"), *inst = json_object();
    json_object_set_new(inst, "s", json_string("ab"));
    json_t *list = json_array();
    json_array_append(list, shared);
    json_array_append(list, shared);
    json_object_set_new(inst, "a", list);
    both_ways(obj, inst, 0);
    json_object_set_new(shared, "x", json_integer(1));
    both_ways(obj, inst, 1);
    json_decref(inst);
    json_decref(shared);
}
END_TEST

/* A member or item whose record leaves an object only its member loop goes straight to
 * it (eval_record_of): the type, the checks of objects and a $ref still decide when
 * present. */
START_TEST(member_loop_straight)
{
    static const char *const cases[][3] = {
        {"{\"properties\":{\"o\":{\"type\":\"array\",\"properties\":{\"a\":{}}}}}", "{\"o\":{}}",
         "1"},
        {"{\"properties\":{\"o\":{\"type\":\"array\",\"properties\":{\"a\":{}}}}}", "{\"o\":[]}",
         "0"},
        {"{\"properties\":{\"o\":{\"type\":\"object\",\"minProperties\":1,"
         "\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
         "{\"o\":{}}", "1"},
        {"{\"properties\":{\"o\":{\"type\":\"object\",\"maxProperties\":1,"
         "\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
         "{\"o\":{\"a\":\"x\",\"b\":2}}", "1"},
        {"{\"properties\":{\"o\":{\"type\":\"object\",\"maxProperties\":1,"
         "\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
         "{\"o\":{\"a\":\"x\"}}", "0"},
        {"{\"properties\":{\"o\":{\"type\":\"object\",\"required\":[\"b\"],"
         "\"properties\":{\"a\":{}}}}}",
         "{\"o\":{\"a\":1}}", "1"},
        {"{\"$defs\":{\"d\":{\"required\":[\"z\"]}},\"properties\":{\"o\":{\"$ref\":"
         "\"#/$defs/d\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
         "{\"o\":{\"a\":\"x\"}}", "1"},
        {"{\"$defs\":{\"d\":{\"required\":[\"z\"]}},\"properties\":{\"o\":{\"$ref\":"
         "\"#/$defs/d\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
         "{\"o\":{\"a\":\"x\",\"z\":0}}", "0"},
        {"{\"properties\":{\"o\":{\"type\":[\"object\",\"null\"],\"properties\":{\"a\":{"
         "\"type\":\"string\"}}}}}",
         "{\"o\":{\"a\":1}}", "1"},
        {"{\"properties\":{\"o\":{\"type\":[\"object\",\"null\"],\"properties\":{\"a\":{"
         "\"type\":\"string\"}}}}}",
         "{\"o\":null}", "0"},
        {"{\"items\":{\"type\":\"string\",\"properties\":{\"a\":{\"type\":\"string\"}}}}",
         "[{\"a\":\"x\"}]", "1"},
        {"{\"items\":{\"$ref\":\"#/$defs/d\"},\"$defs\":{\"d\":{\"type\":\"integer\","
         "\"properties\":{\"a\":{}}}}}",
         "[{\"a\":\"x\"}]", "1"},
        {"{\"items\":{\"$ref\":\"#/$defs/d\"},\"$defs\":{\"d\":{\"type\":\"object\","
         "\"properties\":{\"a\":{\"maxLength\":1}}}}}",
         "[{\"a\":\"x\"},{\"a\":\"yy\"}]", "1"},
        {"{\"items\":{\"$ref\":\"#/$defs/d\"},\"$defs\":{\"d\":{\"type\":\"object\","
         "\"properties\":{\"a\":{\"maxLength\":1}}}}}",
         "[{\"a\":\"x\"},{\"b\":\"yy\"}]", "0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        both_ways_text(cases[i][0], cases[i][1], cases[i][2][0] - '0');
}
END_TEST

/* A string of up to 9 bytes over a small alphabet with a NUL: same-length strings often
 * share bytes, and "a", "aa" and "aaa" have one schema_short_key. */
static size_t random_string(char *out)
{
    size_t n = next_rand(10);
    for (size_t i = 0; i < n; i++) out[i] = "ab\0c"[next_rand(4)];
    return n;
}

START_TEST(string_enum_tables)
{
    size_t tables = 0;
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + next_rand(round % 3 ? 12 : 40);
        char strs[40][10];
        size_t lens[40];
        json_t *e = json_array();
        for (size_t i = 0; i < n; i++) {
            lens[i] = random_string(strs[i]);
            json_array_append_new(e, json_stringn(strs[i], lens[i]));
        }
        json_t *sj = json_object();
        json_object_set_new(sj, "enum", e);
        schema_ctx *ctx = schema_ctx_new(NULL);
        schema *c = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, NULL);
        ck_assert(c != NULL);
        const struct schema_fnode *f = c->nodes.items[c->root]->fn;
        ck_assert(f != NULL && (f->has & SF_STRS));
        tables += f->strtab != NULL;
        for (int t = 0; t < 200; t++) {
            char s[10];
            size_t len;
            if (t < (int)n) len = lens[t], memcpy(s, strs[t], len);
            else len = random_string(s);
            int member = 0;
            for (size_t i = 0; i < n && !member; i++)
                member = lens[i] == len && memcmp(strs[i], s, len) == 0;
            json_t *inst = json_stringn(s, len);
            ck_assert_msg(schema_validate(c, inst, NULL) == !member,
                          "round %d: a string of %zu bytes %s the enum of %zu", round, len,
                          member ? "in" : "not in", n);
            json_decref(inst);
        }
        schema_free(c);
        schema_ctx_free(ctx);
        json_decref(sj);
    }
    /* up to 32 short strings: a table nearly always (the rest compare in turn) */
    ck_assert_msg(tables > 250, "only %zu of 300 enums got a table", tables);
}
END_TEST

Suite *schema_eval_jansson_suite(void)
{
    Suite *s = suite_create("schema_eval_jansson");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, read_in_place_under_this_jansson);
    tcase_add_test(tc, same_verdicts_both_ways);
    tcase_add_test(tc, string_enum_tables);
    tcase_add_test(tc, member_loop_straight);
    suite_add_tcase(s, tc);
    return s;
}
