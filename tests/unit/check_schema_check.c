/* check_schema_check.c - schema checking's fast path (schema_check_fast.c): it may say
 * "certainly valid" only of a schema the full check (meta-schema and check-only compile)
 * finds valid, and it must say so for everyday schemas (else it saves nothing). Each
 * case is judged by both: the full check runs in a context whose limits differ from the
 * defaults by one unit of work, where the fast path never answers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"
#include "testutil.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* A context where schema_check always takes the full path. */
static schema_ctx *full_ctx(void)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_work += 1;
    return schema_ctx_new(&lim);
}

static const enum schema_dialect D2020 = SCHEMA_DRAFT2020_12, D07 = SCHEMA_DRAFT07;

/* FAST: what the fast path must answer; INVALID: the full check's verdict (0: valid). */
static void agree(const char *text, enum schema_dialect d, int fast_want, int invalid)
{
    schema_ctx *fast_c = schema_ctx_new(NULL), *full_c = full_ctx();
    json_t *sch = J(text);
    int fast = schema_check_fast(fast_c, sch, NULL, d);
    int full = schema_check(full_c, sch, NULL, d, NULL) != 0;
    ck_assert_msg(full == invalid, "%s (%s): full check %d, expected %d", text,
                  schema_dialect_name(d), full, invalid);
    ck_assert_msg(fast == fast_want, "%s (%s): fast path %d, expected %d", text,
                  schema_dialect_name(d), fast, fast_want);
    ck_assert_msg(!fast || full == 0, "%s: the fast path calls an invalid schema valid", text);
    /* and through schema_check, with and without an error list */
    struct schema_errors errs = {.limit = 400};
    ck_assert_int_eq(schema_check(fast_c, sch, NULL, d, &errs) != 0, invalid);
    ck_assert_int_eq(errs.len == 0, !invalid);
    schema_errors_release(&errs);
    ck_assert_int_eq(schema_check_offline(fast_c, sch, NULL, d, NULL) != 0, invalid);
    json_decref(sch);
    schema_ctx_free(fast_c);
    schema_ctx_free(full_c);
}

START_TEST(everyday_schemas_are_certain)
{
    agree("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"minLength\":1,"
          "\"maxLength\":200,\"pattern\":\"^[a-z]+$\",\"format\":\"date\",\"description\":\"d\"},"
          "\"n\":{\"type\":[\"integer\",\"null\"],\"minimum\":1,\"maximum\":10,\"default\":1},"
          "\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"b\"]},\"maxItems\":5,"
          "\"uniqueItems\":true},\"x\":{\"type\":\"number\",\"exclusiveMinimum\":0,"
          "\"multipleOf\":0.5}},\"required\":[\"q\",\"n\"],\"additionalProperties\":false}",
          D2020, 1, 0);
    agree("{\"$defs\":{\"a.b-c_1\":{\"type\":\"string\"},\"t\":true},\"allOf\":[{\"$ref\":"
          "\"#/$defs/a.b-c_1\"},{\"$ref\":\"#/$defs/t\"}],\"$ref\":\"#\"}",
          D2020, 1, 0);
    agree(
        "{\"definitions\":{\"a\":{}},\"items\":[{\"$ref\":\"#/definitions/a\"}],"
        "\"additionalItems\":false,\"dependencies\":{\"a\":[\"b\"],\"c\":{\"required\":[\"d\"]}}}",
        D07, 1, 0);
    agree("{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"items\":[true]}", D2020, 1,
          0);
    agree("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"prefixItems\":[true]}",
          D07, 1, 0);
    /* members no part of the engine reads, whatever they hold */
    agree("{\"$componentRef\":\"#/components/schemas/A\",\"x-foo\":{\"type\":5},"
          "\"typ\":\"strng\"}",
          D2020, 1, 0);
    agree("{\"if\":{\"required\":[\"a\"]},\"then\":false,\"else\":{\"not\":{}},"
          "\"contains\":{},\"minContains\":0,\"maxContains\":2,\"propertyNames\":{\"maxLength\":3},"
          "\"patternProperties\":{\"^x-\":{}},\"dependentRequired\":{\"a\":[\"b\",\"c\"]},"
          "\"dependentSchemas\":{\"a\":{}},\"unevaluatedProperties\":false,\"title\":\"t\","
          "\"readOnly\":true,\"deprecated\":false,\"examples\":[1],\"$comment\":\"c\","
          "\"contentMediaType\":\"text/plain\",\"contentEncoding\":\"base64\","
          "\"contentSchema\":{},\"const\":{\"any\":[1]}}",
          D2020, 1, 0);
}
END_TEST

START_TEST(invalid_schemas_are_never_certain)
{
    static const char *const bad[] = {
        "{\"type\":\"strng\"}",
        "{\"type\":[\"string\",\"string\"]}",
        "{\"type\":[]}",
        "{\"required\":[\"a\",\"a\"]}",
        "{\"required\":[1]}",
        "{\"pattern\":\"(?i)x\"}",
        "{\"pattern\":\"[\"}",
        "{\"patternProperties\":{\"(\":{}}}",
        "{\"minLength\":-1}",
        "{\"maxItems\":\"3\"}",
        "{\"multipleOf\":0}",
        "{\"maximum\":\"1\"}",
        "{\"uniqueItems\":1}",
        "{\"enum\":{}}",
        "{\"allOf\":[]}",
        "{\"anyOf\":[1]}",
        "{\"items\":[{}]}", /* an array is draft-07's form */
        "{\"properties\":{\"a\":{\"type\":5}}}",
        "{\"properties\":{\"a\":1}}",
        "{\"not\":\"x\"}",
        "{\"$ref\":\"#/$defs/missing\"}",
        "{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":\"x\"}}",
        "{\"$ref\":5}",
        "{\"additionalItems\":{\"type\":5}}", /* not 2020-12's, but compiled all the same */
        "{\"contentSchema\":{\"minimum\":\"0\"}}",
        "{\"definitions\":{\"a\":{\"required\":\"a\"}}}",
        "{\"dependencies\":{\"a\":[\"b\",\"b\"]}}",
        "{\"dependentRequired\":{\"a\":\"b\"}}",
        "{\"$schema\":\"https://example.com/unknown\"}",
        "{\"$schema\":5}",
        "{\"then\":{\"type\":\"strin\"}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) agree(bad[i], D2020, 0, 1);
}
END_TEST

/* What the fast path leaves to the full check although it is valid: identifiers,
 * anchors, references it cannot settle without a URI parser, a nested $schema, reals
 * as counts, a schema past its bounds. */
START_TEST(unsure_of_valid_schemas)
{
    static const char *const unsure[] = {
        "{\"$id\":\"https://example.com/s\"}",
        "{\"$anchor\":\"a\"}",
        "{\"$defs\":{\"a b\":{}},\"$ref\":\"#/$defs/a%20b\"}",
        "{\"$defs\":{\"a\":{\"b\":{}}},\"$ref\":\"#/$defs/a/b\"}",
        "{\"properties\":{\"a\":{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\"}}}",
        "{\"minLength\":1.0}",
        "{\"$dynamicRef\":\"#\"}",
        "true",
    };
    for (size_t i = 0; i < sizeof unsure / sizeof *unsure; i++) agree(unsure[i], D2020, 0, 0);
    /* nested past the fast path's depth (far inside the engine's) */
    char deep[4096] = "";
    for (int i = 0; i < 40; i++) strcat(deep, "{\"not\":");
    strcat(deep, "{}");
    for (int i = 0; i < 40; i++) strcat(deep, "}");
    agree(deep, D2020, 0, 0);
}
END_TEST

/* Every keyword any part of the engine reads is looked up (the table is sorted and
 * complete): a value it cannot hold makes the fast path unsure. */
START_TEST(every_keyword_is_known)
{
    static const char *const kws[] = {
        "$anchor",
        "$comment",
        "$defs",
        "$dynamicAnchor",
        "$dynamicRef",
        "$id",
        "$recursiveAnchor",
        "$recursiveRef",
        "$ref",
        "$schema",
        "$vocabulary",
        "additionalItems",
        "additionalProperties",
        "allOf",
        "anyOf",
        "contains",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "definitions",
        "dependencies",
        "dependentRequired",
        "dependentSchemas",
        "deprecated",
        "description",
        "else",
        "enum",
        "examples",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "id",
        "if",
        "items",
        "maxContains",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minContains",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "multipleOf",
        "not",
        "oneOf",
        "pattern",
        "patternProperties",
        "prefixItems",
        "properties",
        "propertyNames",
        "readOnly",
        "required",
        "then",
        "title",
        "type",
        "unevaluatedItems",
        "unevaluatedProperties",
        "uniqueItems",
        "writeOnly",
    };
    schema_ctx *ctx = schema_ctx_new(NULL);
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++) {
        /* a number for the keywords that hold a string or an array, else a string; both
         * in a subschema, where the root's $schema is no exception */
        int number = !strcmp(kws[i], "enum") || !strcmp(kws[i], "examples") ||
            !strcmp(kws[i], "format") || !strcmp(kws[i], "title") ||
            !strcmp(kws[i], "description") || !strcmp(kws[i], "$comment") ||
            !strncmp(kws[i], "content", 7) || !strcmp(kws[i], "pattern") ||
            !strcmp(kws[i], "type") || !strcmp(kws[i], "$ref") || kws[i][0] == '$';
        json_t *sch = json_pack("{s:{s:{s:s}}}", "properties", "p", kws[i], number ? "" : "x");
        if (number)
            json_object_set_new(json_object_get(json_object_get(sch, "properties"), "p"), kws[i],
                                json_integer(5));
        ck_assert_msg(!schema_check_fast(ctx, sch, NULL, D2020), "%s: not looked up", kws[i]);
        json_decref(sch);
    }
    /* and the lookup finds none of them where there is only a prefix or a longer name */
    json_t *sch = J("{\"typ\":5,\"types\":5,\"$re\":5,\"$refs\":5}");
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 1);
    json_decref(sch);
    schema_ctx_free(ctx);
}
END_TEST

/* A document registered under a meta-schema's URI replaces the meta-schema the full
 * check validates against: the fast path, which knows only the standard one, steps
 * aside, before and after it answered once. */
START_TEST(replaced_meta_schema)
{
    const char *uri = "https://json-schema.org/draft/2020-12/schema";
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *sch = J("{\"type\":\"string\"}");
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 1);
    json_t *strict = J("{\"$id\":\"https://json-schema.org/draft/2020-12/schema\","
                       "\"type\":\"object\",\"required\":[\"title\"]}");
    schema_ctx_add_document(ctx, uri, strict);
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 0);
    ck_assert_int_eq(schema_check(ctx, sch, NULL, D2020, NULL), 1);
    /* draft-07's is still the standard one */
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D07), 1);
    schema_ctx_free(ctx);

    ctx = schema_ctx_new(NULL);
    schema_ctx_add_document(ctx, uri, strict);
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 0);
    ck_assert_int_eq(schema_check(ctx, sch, NULL, D2020, NULL), 1);
    schema_ctx_free(ctx);
    json_decref(strict);

    /* other limits, a base URI: only the full check answers */
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_depth = 3;
    ctx = schema_ctx_new(&lim);
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 0);
    schema_ctx_free(ctx);
    ctx = schema_ctx_new(NULL);
    ck_assert_int_eq(schema_check_fast(ctx, sch, "https://example.com/s", D2020), 0);
    ck_assert_int_eq(schema_check_fast(ctx, sch, "", D2020), 1);
    schema_ctx_free(ctx);
    json_decref(sch);
}
END_TEST

/* schema_check asks the fast path at once while the context's meta-schemas are the
 * embedded ones by construction: the first check compiles no meta-schema and keeps no
 * verdict. Once a document was registered under a json-schema.org URI, the fast path's
 * one-time comparison of the meta-schemas costs more than a meta-schema's compile: only a
 * context that has made a few full checks asks it; the first check compiles the
 * meta-schema and keeps its verdict in the memo; past a few, a valid schema is neither. */
START_TEST(fast_path_after_the_first_checks)
{
    const char *uri = "https://json-schema.org/draft/2020-12/schema";
    json_t *first = J("{\"type\":\"string\"}"), *later = J("{\"minLength\":77}");
    struct schema_memo_key k;
    int rc = -1;
    schema_ctx *ctx = schema_ctx_new(NULL);
    ck_assert_int_eq(schema_ctx_metas_embedded(ctx), 1);
    ck_assert_int_eq(schema_check(ctx, first, NULL, D2020, NULL), 0);
    ck_assert_ptr_null(schema_ctx_meta(ctx, uri));
    schema_memo_key(first, &k);
    k.dialect = (int)D2020;
    k.errs_null = 1;
    ck_assert_int_eq(schema_memo_get(schema_ctx_memo(ctx), &k, first, NULL, &rc), 0);
    schema_ctx_free(ctx);

    ctx = schema_ctx_new(NULL);
    json_t *other = J("{\"$id\":\"https://json-schema.org/extra\"}");
    schema_ctx_add_document(ctx, "https://json-schema.org/extra", other);
    json_decref(other);
    ck_assert_int_eq(schema_ctx_metas_embedded(ctx), 0);
    ck_assert_int_eq(schema_check(ctx, first, NULL, D2020, NULL), 0);
    ck_assert_ptr_nonnull(schema_ctx_meta(ctx, uri));
    ck_assert_int_eq(schema_memo_get(schema_ctx_memo(ctx), &k, first, NULL, &rc), 1);
    ck_assert_int_eq(rc, 0);
    for (int i = 0; i < 16; i++) {
        json_t *s = json_pack("{s:i}", "maxLength", i);
        ck_assert_int_eq(schema_check(ctx, s, NULL, D2020, NULL), 0);
        json_decref(s);
    }
    ck_assert_int_eq(schema_check(ctx, later, NULL, D2020, NULL), 0);
    schema_memo_key(later, &k);
    k.dialect = (int)D2020;
    k.errs_null = 1;
    ck_assert_int_eq(schema_memo_get(schema_ctx_memo(ctx), &k, later, NULL, &rc), 0);
    json_decref(first);
    json_decref(later);
    schema_ctx_free(ctx);
}
END_TEST

/* Documents of other URIs (a rule set's schema files) leave the meta-schemas embedded;
 * the vocabularies are found all the same. */
START_TEST(other_documents_leave_metas_embedded)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *sdoc = J("{\"type\":\"object\"}");
    schema_ctx_add_document(ctx, "https://example.com/s.json", sdoc);
    json_decref(sdoc);
    char *why = NULL;
    ck_assert_ptr_nonnull(schema_ctx_fetch(ctx, "https://example.com/s.json", &why));
    ck_assert_ptr_null(schema_ctx_fetch(ctx, "https://example.com/none.json", &why));
    free(why);
    ck_assert_int_eq(schema_ctx_metas_embedded(ctx), 1);
    /* the vocabularies are found all the same, and are the embedded ones */
    why = NULL;
    ck_assert_ptr_nonnull(
        schema_ctx_fetch(ctx, "https://json-schema.org/draft/2020-12/meta/validation", &why));
    ck_assert_int_eq(schema_ctx_metas_embedded(ctx), 1);
    json_t *bad = J("{\"minLength\":-1}");
    ck_assert_int_eq(schema_check(ctx, bad, NULL, D2020, NULL), 1);
    json_decref(bad);
    schema_ctx_free(ctx);
}
END_TEST

/* One object shared at every level: 2^30 paths (inside the walk's depth bound), a few
 * hundred values. The walk stops at its bound of values and leaves the schema to the
 * full check (which visits each shared value once). */
START_TEST(shared_values_stay_bounded)
{
    json_t *sch = json_object();
    for (int i = 0; i < 30; i++) {
        json_t *up = json_object();
        json_object_set_new(up, "allOf", json_pack("[OO]", sch, sch));
        json_decref(sch);
        sch = up;
    }
    schema_ctx *ctx = schema_ctx_new(NULL);
    ck_assert_int_eq(schema_check_fast(ctx, sch, NULL, D2020), 0);
    json_decref(sch);
    schema_ctx_free(ctx);
}
END_TEST

/* The descriptions of examples/corpus: every object in them judged as a schema under
 * both dialects; the fast path is certain of many, and right each time. */
START_TEST(corpus_objects_agree)
{
    static const char *const files[] = {"database.json", "filesystem.json", "github.json",
                                        "notes.json", "weather.json"};
    schema_ctx *fast_c = schema_ctx_new(NULL), *full_c = full_ctx();
    size_t certain = 0, objects = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/../../examples/corpus/%s", tu_data_dir(), files[f]);
        json_error_t err;
        json_t *file = json_load_file(path, 0, &err);
        ck_assert_msg(file != NULL, "%s: %s", path, err.text);
        json_t *stack[4096];
        size_t n = 0;
        stack[n++] = file;
        while (n) {
            json_t *v = stack[--n];
            if (json_is_object(v)) {
                objects++;
                for (int d = 0; d < 2; d++) {
                    enum schema_dialect dl = d ? D07 : D2020;
                    if (!schema_check_fast(fast_c, v, NULL, dl)) continue;
                    certain++;
                    ck_assert_msg(schema_check(full_c, v, NULL, dl, NULL) == 0,
                                  "%s: an object the fast path calls valid is not", path);
                }
                const char *k;
                json_t *c;
                json_object_foreach(v, k, c) if (n < 4096) stack[n++] = c;
            } else if (json_is_array(v)) {
                size_t i;
                json_t *c;
                json_array_foreach(v, i, c) if (n < 4096) stack[n++] = c;
            }
        }
        json_decref(file);
    }
    ck_assert_msg(certain > objects / 2, "certain of %zu of %zu objects", certain, objects);
    schema_ctx_free(fast_c);
    schema_ctx_free(full_c);
}
END_TEST

Suite *schema_check_suite(void)
{
    Suite *s = suite_create("schema_check");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, everyday_schemas_are_certain);
    tcase_add_test(tc, invalid_schemas_are_never_certain);
    tcase_add_test(tc, unsure_of_valid_schemas);
    tcase_add_test(tc, every_keyword_is_known);
    tcase_add_test(tc, replaced_meta_schema);
    tcase_add_test(tc, fast_path_after_the_first_checks);
    tcase_add_test(tc, other_documents_leave_metas_embedded);
    tcase_add_test(tc, shared_values_stay_bounded);
    tcase_add_test(tc, corpus_objects_agree);
    suite_add_tcase(s, tc);
    return s;
}
