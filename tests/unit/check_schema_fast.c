/* check_schema_fast.c - the boolean fast path of the schema engine (schema_fast.c and
 * eval_fast in schema_eval.c) must agree with the reporting path: every case is
 * validated without an error list (fused properties/required/additionalProperties,
 * string enums, name tables) and with one (keyword by keyword), and both must give the
 * expected answer. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* Validate INST against SCH_J in both modes; both must return WANT, and the error list
 * must be empty exactly when the instance is valid. */
static void both_j(const struct schema_limits *lim, json_t *sch, json_t *inst, int want,
                   const char *what)
{
    schema_ctx *ctx = schema_ctx_new(lim);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_msg(c != NULL, "%s: schema does not compile: %s", what,
                  errs.len ? errs.items[0].message : "?");
    int fast = schema_validate(c, inst, NULL);
    int full = schema_validate(c, inst, &errs);
    ck_assert_msg(fast == want, "%s: boolean mode gave %d, expected %d", what, fast, want);
    ck_assert_msg(full == want, "%s: reporting mode gave %d, expected %d", what, full, want);
    ck_assert_msg((errs.len == 0) == (want == 0), "%s: %zu errors for result %d", what,
                  errs.len, want);
    schema_errors_release(&errs);
    schema_free(c);
    schema_ctx_free(ctx);
}

static void both(const char *sch, const char *inst, int want)
{
    json_t *s = J(sch), *i = J(inst);
    char what[512];
    snprintf(what, sizeof what, "%.200s against %.200s", inst, sch);
    both_j(NULL, s, i, want, what);
    json_decref(s);
    json_decref(i);
}

#define OBJ "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"minimum\":1}}," \
            "\"required\":[\"a\",\"c\"],\"additionalProperties\":false}"

START_TEST(fused_object)
{
    both(OBJ, "{\"a\":\"x\",\"c\":1}", 1);          /* c is required but not declared */
    both(OBJ, "{\"a\":\"x\"}", 1);                  /* c missing */
    both(OBJ, "{\"a\":\"x\",\"b\":2}", 1);          /* c missing */
    both(OBJ, "[1]", 1);                            /* type */
    const char *open = "{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"minimum\":1}},"
                       "\"required\":[\"a\",\"a\"],\"additionalProperties\":{\"type\":\"integer\"}}";
    both(open, "{\"a\":\"x\",\"b\":1,\"z\":3}", 0);
    both(open, "{\"a\":\"x\",\"b\":0}", 1);
    both(open, "{\"a\":\"x\",\"z\":\"no\"}", 1);
    both(open, "{\"b\":1}", 1);
    both(open, "{\"a\":7}", 1);
    both(open, "\"not an object\"", 0);
    /* always-valid subschemas are skipped but still declare their names */
    const char *triv = "{\"properties\":{\"t\":true,\"e\":{},\"d\":{\"description\":\"x\"}},"
                       "\"additionalProperties\":false}";
    both(triv, "{\"t\":1,\"e\":[],\"d\":null}", 0);
    both(triv, "{\"t\":1,\"x\":0}", 1);
    both("{\"properties\":{\"a\":false}}", "{\"a\":1}", 1);
    both("{\"properties\":{\"a\":false}}", "{\"b\":1}", 0);
    both("{\"additionalProperties\":{}}", "{\"b\":1}", 0);
    /* nothing to check: the fused form is dropped, the other keywords still apply */
    both("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":true}", "{\"b\":1}", 0);
    both("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":true}", "[]", 1);
    both("{\"properties\":{\"a\":true},\"required\":[],\"maxProperties\":1}", "{\"a\":1,\"b\":2}", 1);
    both("{\"additionalProperties\":false}", "{}", 0);
    both("{\"additionalProperties\":false}", "{\"\":0}", 1);
}
END_TEST

START_TEST(name_table_collisions)
{
    /* names that share length, first/last/middle bytes, the empty name, long names */
    const char *sch = "{\"properties\":{\"minLength\":{\"type\":\"integer\"},"
                      "\"maxLength\":{\"type\":\"string\"},\"ab\":{\"type\":\"null\"},"
                      "\"ba\":{\"type\":\"boolean\"},\"\":{\"type\":\"array\"},"
                      "\"a_rather_long_property_name_1\":{\"const\":1},"
                      "\"a_rather_long_property_name_2\":{\"const\":2}},"
                      "\"additionalProperties\":false}";
    both(sch, "{\"minLength\":1,\"maxLength\":\"x\",\"ab\":null,\"ba\":true,\"\":[]}", 0);
    both(sch, "{\"maxLength\":1}", 1);
    both(sch, "{\"minLength\":\"x\"}", 1);
    both(sch, "{\"ab\":true}", 1);
    both(sch, "{\"ba\":null}", 1);
    both(sch, "{\"\":{}}", 1);
    both(sch, "{\"a_rather_long_property_name_1\":1,\"a_rather_long_property_name_2\":2}", 0);
    both(sch, "{\"a_rather_long_property_name_1\":2}", 1);
    both(sch, "{\"a_rather_long_property_name_3\":1}", 1);
    both(sch, "{\"minLengtH\":1}", 1);
}
END_TEST

START_TEST(many_members_and_required)
{
    /* an object with far more members than declared names takes the lookup branch */
    json_t *inst = json_object();
    for (int i = 0; i < 40; i++) {
        char k[16];
        snprintf(k, sizeof k, "m%d", i);
        json_object_set_new(inst, k, json_integer(i));
    }
    json_t *sch = J("{\"properties\":{\"m3\":{\"maximum\":3},\"zz\":{\"type\":\"string\"}},"
                    "\"required\":[\"m39\"]}");
    both_j(NULL, sch, inst, 0, "lookup branch, valid");
    json_object_set_new(inst, "m3", json_integer(4));
    both_j(NULL, sch, inst, 1, "lookup branch, bad property");
    json_object_set_new(inst, "m3", json_integer(3));
    json_object_set_new(inst, "zz", json_integer(3));
    both_j(NULL, sch, inst, 1, "lookup branch, bad second property");
    json_object_del(inst, "zz");
    json_object_del(inst, "m39");
    both_j(NULL, sch, inst, 1, "lookup branch, required missing");
    json_decref(sch);
    /* more than 64 required names: not folded into the bit mask */
    json_t *req = json_array(), *big = json_object(), *full = json_object();
    for (int i = 0; i < 70; i++) {
        char k[16];
        snprintf(k, sizeof k, "r%d", i);
        json_array_append_new(req, json_string(k));
        json_object_set_new(full, k, json_true());
    }
    json_object_set_new(big, "required", req);
    json_object_set_new(big, "properties", J("{\"r1\":{\"const\":true}}"));
    json_object_set_new(big, "additionalProperties", J("{\"type\":\"boolean\"}"));
    both_j(NULL, big, full, 0, "70 required, all present");
    json_object_del(full, "r69");
    both_j(NULL, big, full, 1, "70 required, the last missing");
    json_object_set_new(full, "r69", json_true());
    json_object_set_new(full, "r1", json_false());
    both_j(NULL, big, full, 1, "70 required, bad property");
    json_object_set_new(full, "r1", json_true());
    json_object_set_new(full, "x", json_null());
    both_j(NULL, big, full, 1, "70 required, bad additional property");
    json_decref(big);
    json_decref(full);
    json_decref(inst);
    both("{\"required\":[\"a\",\"b\"]}", "{\"b\":1,\"a\":2}", 0);
    both("{\"required\":[\"a\",\"b\"]}", "{\"b\":1}", 1);
    both("{\"required\":[]}", "{}", 0);
}
END_TEST

START_TEST(pattern_properties_fallback)
{
    const char *sch = "{\"properties\":{\"a\":{\"type\":\"integer\"}},"
                      "\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},"
                      "\"required\":[\"a\"],\"additionalProperties\":false}";
    both(sch, "{\"a\":1,\"x-y\":\"s\"}", 0);
    both(sch, "{\"a\":1,\"x-y\":2}", 1);
    both(sch, "{\"a\":1,\"y\":2}", 1);
    both(sch, "{\"x-y\":\"s\"}", 1);
}
END_TEST

START_TEST(string_enums_and_lengths)
{
    /* lengths around the word-compare branches (<4, 4..8, >8, >16) */
    const char *sch = "{\"enum\":[\"\",\"ab\",\"abcd\",\"abcdefg\",\"abcdefgh\",\"abcdefghi\","
                      "\"abcdefghijklmnopq\",\"a\\u0000b\"]}";
    const char *yes[] = {"\"\"", "\"ab\"", "\"abcd\"", "\"abcdefg\"", "\"abcdefgh\"",
                         "\"abcdefghi\"", "\"abcdefghijklmnopq\"", "\"a\\u0000b\""};
    const char *no[] = {"\"a\"",        "\"abce\"",     "\"abcdefG\"",
                        "\"abcdefgi\"", "\"Abcdefghi\"", "\"abcdefghijklmnopQ\"",
                        "\"abcdefghijklmnop\"", "\"a\\u0000c\"", "1", "null", "[\"ab\"]"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) both(sch, yes[i], 0);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) both(sch, no[i], 1);
    /* mixed enums keep JSON Schema equality (1 == 1.0) */
    both("{\"enum\":[\"a\",1]}", "1.0", 0);
    both("{\"enum\":[\"a\",1]}", "\"b\"", 1);
    /* code points, not bytes: "ééé" is 6 bytes, 3 characters */
    both("{\"maxLength\":3}", "\"\\u00e9\\u00e9\\u00e9\"", 0);
    both("{\"maxLength\":2}", "\"\\u00e9\\u00e9\\u00e9\"", 1);
    both("{\"minLength\":3}", "\"\\u00e9\\u00e9\\u00e9\"", 0);
    both("{\"minLength\":4}", "\"\\u00e9\\u00e9\\u00e9\"", 1);
    both("{\"minLength\":7}", "\"\\u00e9\\u00e9\\u00e9\"", 1);
    both("{\"minLength\":2,\"maxLength\":2}", "\"ab\"", 0);
    /* a string const takes the string-enum form */
    both("{\"const\":\"object\"}", "\"object\"", 0);
    both("{\"const\":\"object\"}", "\"objecT\"", 1);
    both("{\"const\":\"object\"}", "[\"object\"]", 1);
    both("{\"const\":\"\"}", "\"\"", 0);
    both("{\"const\":1}", "1.0", 0);
}
END_TEST

START_TEST(numbers_items_and_refs)
{
    both("{\"minimum\":1,\"maximum\":100}", "100", 0);
    both("{\"minimum\":1,\"maximum\":100}", "100.5", 1);
    both("{\"exclusiveMinimum\":1}", "1", 1);
    both("{\"exclusiveMaximum\":1.5}", "1", 0);
    both("{\"maximum\":9223372036854775807}", "9223372036854775807", 0);
    both("{\"minimum\":9007199254740993}", "9007199254740992.0", 1);
    const char *arr = "{\"type\":\"array\",\"maxItems\":3,\"minItems\":1,"
                      "\"items\":{\"$ref\":\"#/$defs/f\"},"
                      "\"$defs\":{\"f\":{\"allOf\":[{\"type\":\"object\"},{\"required\":[\"k\"]}]}}}";
    both(arr, "[{\"k\":1},{\"k\":2}]", 0);
    both(arr, "[{\"k\":1},{\"j\":2}]", 1);
    both(arr, "[]", 1);
    both(arr, "[{\"k\":1},{\"k\":1},{\"k\":1},{\"k\":1}]", 1);
    both("{\"prefixItems\":[{\"type\":\"string\"}],\"items\":false}", "[\"a\"]", 0);
    both("{\"prefixItems\":[{\"type\":\"string\"}],\"items\":false}", "[\"a\",1]", 1);
}
END_TEST

START_TEST(annotations_and_dynamic_scope)
{
    /* unevaluatedProperties needs annotations: the fused form must not be used there */
    const char *ue = "{\"properties\":{\"a\":{\"type\":\"integer\"}},"
                     "\"allOf\":[{\"properties\":{\"b\":true}}],\"unevaluatedProperties\":false}";
    both(ue, "{\"a\":1,\"b\":2}", 0);
    both(ue, "{\"a\":1,\"c\":2}", 1);
    both(ue, "{\"a\":\"x\"}", 1);
    /* a schema with $dynamicRef keeps its dynamic scope on every path */
    const char *dyn =
        "{\"$id\":\"https://example.com/tree\",\"$dynamicAnchor\":\"node\","
        "\"type\":\"object\",\"properties\":{\"data\":true,"
        "\"children\":{\"type\":\"array\",\"items\":{\"$dynamicRef\":\"#node\"}}},"
        "\"additionalProperties\":false,"
        "\"$defs\":{\"strict\":{\"$id\":\"https://example.com/strict\","
        "\"$dynamicAnchor\":\"node\",\"$ref\":\"tree\",\"required\":[\"data\"]}}}";
    both(dyn, "{\"data\":1,\"children\":[{\"data\":2},{}]}", 0);
    both(dyn, "{\"data\":1,\"children\":[{\"x\":2}]}", 1);
    /* the outermost dynamic anchor wins: through "strict" every node needs "data" */
    const char *strict =
        "{\"$id\":\"https://example.com/strict\",\"$dynamicAnchor\":\"node\","
        "\"$ref\":\"tree\",\"required\":[\"data\"],\"$defs\":{\"tree\":"
        "{\"$id\":\"https://example.com/tree\",\"$dynamicAnchor\":\"node\","
        "\"type\":\"object\",\"properties\":{\"data\":true,"
        "\"children\":{\"type\":\"array\",\"items\":{\"$dynamicRef\":\"#node\"}}},"
        "\"additionalProperties\":false}}}";
    both(strict, "{\"data\":1,\"children\":[{\"data\":2}]}", 0);
    both(strict, "{\"data\":1,\"children\":[{}]}", 1);
    both(strict, "{\"data\":1,\"children\":[{\"data\":2,\"children\":[{\"y\":1}]}]}", 1);
}
END_TEST

START_TEST(bounds_hold_in_boolean_mode)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_work = 20;
    json_t *sch = J("{\"type\":\"array\",\"items\":{\"properties\":{\"a\":{\"type\":\"integer\"}}}}");
    json_t *inst = json_array();
    for (int i = 0; i < 50; i++) json_array_append_new(inst, J("{\"a\":1}"));
    both_j(&lim, sch, inst, -1, "work budget");
    json_decref(sch);
    json_decref(inst);
    schema_limits_default(&lim);
    lim.max_eval_depth = 10;
    sch = J("{\"properties\":{\"n\":{\"$ref\":\"#\"}},\"additionalProperties\":false}");
    inst = J("{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{\"n\":{}}}}}}}}}}}");
    both_j(&lim, sch, inst, -1, "evaluation depth");
    json_decref(inst);
    inst = J("{\"n\":{\"n\":{}}}");
    both_j(&lim, sch, inst, 0, "evaluation depth, shallow");
    json_decref(inst);
    json_decref(sch);
}
END_TEST

START_TEST(bytes_eq_matches_memcmp)
{
    char a[40], b[40];
    for (size_t n = 0; n <= 33; n++) {
        for (size_t i = 0; i < n; i++) a[i] = b[i] = (char)('a' + i % 26);
        ck_assert(schema_bytes_eq(a, b, n));
        for (size_t pos = 0; pos < n; pos++) {
            b[pos] ^= 1;
            ck_assert_msg(!schema_bytes_eq(a, b, n), "n=%zu pos=%zu", n, pos);
            b[pos] ^= 1;
        }
    }
}
END_TEST

/* Names holding a NUL are compared by length in both modes: "a\u0000b" is not "a"
 * (hostile case schema-nul-required). Member names with a NUL come only through the
 * API (parsers refuse them), so those cases are built with json_object_setn. */
START_TEST(nul_in_names)
{
    both("{\"required\":[\"a\\u0000b\"]}", "{\"a\":1}", 1);
    both("{\"required\":[\"a\\u0000b\",\"a\"]}", "{\"a\":1}", 1);
    both("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
         "\"required\":[\"a\\u0000b\"],\"additionalProperties\":false}",
         "{\"a\":1}", 1);
    both("{\"dependentRequired\":{\"a\":[\"c\\u0000d\"]}}", "{\"a\":1,\"c\":2}", 1);
    both("{\"enum\":[\"a\\u0000b\",\"c\"]}", "\"a\"", 1);
    both("{\"enum\":[\"a\\u0000b\",\"c\"]}", "\"a\\u0000b\"", 0);

    const char *schemas[] = {
        /* fused name table (properties + required + additionalProperties) */
        "{\"properties\":{},\"required\":[\"a\\u0000b\"],"
        "\"additionalProperties\":{\"type\":\"string\"}}",
        /* keyword by keyword (patternProperties prevents the fusion) */
        "{\"properties\":{},\"required\":[\"a\\u0000b\"],\"patternProperties\":{\"^q\":true},"
        "\"additionalProperties\":{\"type\":\"string\"}}",
    };
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
        json_t *sch = J(schemas[i]);
        /* a declared name with a NUL: "k\0z" is false; "k" is not declared */
        json_object_setn_new(json_object_get(sch, "properties"), "k\0z", 3, json_false());
        json_t *inst = json_object();
        json_object_setn_new(inst, "a\0b", 3, json_string("s"));
        both_j(NULL, sch, inst, 0, schemas[i]); /* required "a\0b" present */
        json_object_set_new(inst, "k", json_string("s"));
        both_j(NULL, sch, inst, 0, schemas[i]); /* "k" is additional, not "k\0z" */
        json_object_set_new(inst, "k", json_integer(1));
        both_j(NULL, sch, inst, 1, schemas[i]); /* ... and must be a string */
        json_object_del(inst, "k");
        json_object_setn_new(inst, "k\0z", 3, json_string("s"));
        both_j(NULL, sch, inst, 1, schemas[i]); /* "k\0z" is false */
        json_object_clear(inst);
        json_object_set_new(inst, "a", json_string("s"));
        both_j(NULL, sch, inst, 1, schemas[i]); /* "a" is not "a\0b" */
        json_decref(inst);
        json_decref(sch);
    }
}
END_TEST

/* A reference bomb: level K holds level K-1 twice, the same json_t (as $componentRef
 * substitution shares it), so the tree has 2^K leaves in K+1 values. */
static json_t *bomb(int levels)
{
    json_t *v = J("{\"type\":\"object\"}");
    for (int k = 0; k < levels; k++) {
        json_t *up = J("{\"type\":\"object\",\"properties\":{}}");
        json_t *props = json_object_get(up, "properties");
        json_object_set(props, "a", v);
        json_object_set(props, "b", v);
        json_decref(v);
        v = up;
    }
    return v;
}

/* The boolean run judges a shared value once per schema node and dynamic scope (the
 * memo in schema_eval.c): the 2020-12 meta-schema over a bomb of 2^16 leaves evaluates
 * a few dozen (node, value) pairs per level, not 2^16 (counted, never timed). */
START_TEST(shared_values_judged_once)
{
    /* the verdicts and the bounds are those of the walk of every place: a remembered
     * verdict charges its work again, so the budget stops both modes alike */
    struct schema_limits lim;
    schema_limits_default(&lim);
    json_t *sch = J("{\"additionalProperties\":{\"$ref\":\"#\"}}");
    json_t *inst = bomb(10);
    both_j(&lim, sch, inst, 0, "bomb, within the budget");
    lim.max_work = 300;
    both_j(&lim, sch, inst, -1, "bomb, past the work budget");
    schema_limits_default(&lim);
    lim.max_eval_depth = 20;
    both_j(&lim, sch, inst, -1, "bomb, past the evaluation depth");
    json_decref(inst);
    json_decref(sch);

    /* one value under two dynamic scopes: a list of strings, then a list of integers
     * (its $dynamicRef resolves differently), so the verdicts differ */
    sch = J("{\"$id\":\"https://x.test/root\",\"properties\":{"
            "\"a\":{\"$ref\":\"strlist\"},\"b\":{\"$ref\":\"intlist\"}},\"$defs\":{"
            "\"list\":{\"$id\":\"list\",\"type\":\"array\",\"items\":{\"$dynamicRef\":\"#item\"},"
            "\"$defs\":{\"item\":{\"$dynamicAnchor\":\"item\",\"not\":true}}},"
            "\"strlist\":{\"$id\":\"strlist\",\"$ref\":\"list\","
            "\"$defs\":{\"item\":{\"$dynamicAnchor\":\"item\",\"type\":\"string\"}}},"
            "\"intlist\":{\"$id\":\"intlist\",\"$ref\":\"list\","
            "\"$defs\":{\"item\":{\"$dynamicAnchor\":\"item\",\"type\":\"integer\"}}}}}");
    json_t *list = J("[\"s\"]");
    inst = json_object();
    json_object_set(inst, "a", list);
    both_j(NULL, sch, inst, 0, "a shared list of strings, as strings");
    json_object_set(inst, "b", list);
    both_j(NULL, sch, inst, 1, "a shared list of strings, as strings and as integers");
    json_decref(list);
    json_decref(inst);
    json_decref(sch);

    schema_ctx *ctx = schema_ctx_new(NULL);
    sch = bomb(16);
    unsigned long before = schema_eval_shared_evals;
    ck_assert_int_eq(schema_check(ctx, sch, NULL, SCHEMA_DRAFT2020_12, NULL), 0);
    unsigned long evals = schema_eval_shared_evals - before;
    ck_assert_msg(evals < 100 * 16, "%lu evaluations of shared values", evals);
    json_decref(sch);
    schema_ctx_free(ctx);
}
END_TEST


Suite *schema_fast_suite(void)
{
    Suite *s = suite_create("schema_fast");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fused_object);
    tcase_add_test(tc, name_table_collisions);
    tcase_add_test(tc, many_members_and_required);
    tcase_add_test(tc, pattern_properties_fallback);
    tcase_add_test(tc, string_enums_and_lengths);
    tcase_add_test(tc, numbers_items_and_refs);
    tcase_add_test(tc, annotations_and_dynamic_scope);
    tcase_add_test(tc, bounds_hold_in_boolean_mode);
    tcase_add_test(tc, bytes_eq_matches_memcmp);
    tcase_add_test(tc, shared_values_judged_once);
    tcase_add_test(tc, nul_in_names);
    suite_add_tcase(s, tc);
    return s;
}
