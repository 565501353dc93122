/* check_schema_explain.c - schema checking as one finding per failing value
 * (schema_explain): each value once, at its own pointer, worded by its keyword's
 * expected form in the schema's dialect, with a "did you mean" for type names; and the
 * misspelt keywords (schema_misspelt_keywords): close to a keyword, never a legal
 * extension name. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* Check SCH (dialect D when it declares none) and explain: the findings in OUT. */
static void explain(const char *sch, enum schema_dialect d, struct schema_errors *out)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *s = J(sch);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    ck_assert_int_eq(schema_check_offline(ctx, s, NULL, d, &errs), 1);
    schema_explain(s, schema_declared_dialect(ctx, s, d), &errs, out);
    schema_errors_release(&errs);
    json_decref(s);
    schema_ctx_free(ctx);
}

/* The finding at LOC, or a failed test. */
static const char *at(const struct schema_errors *f, const char *loc)
{
    for (size_t i = 0; i < f->len; i++)
        if (!strcmp(f->items[i].instance_location, loc)) return f->items[i].message;
    ck_abort_msg("no finding at %s (%zu findings, first at %s)", loc, f->len,
                 f->len ? f->items[0].instance_location : "-");
    return NULL;
}

START_TEST(every_value_once_at_its_place)
{
    struct schema_errors f = SCHEMA_ERRORS_INIT;
    explain("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"strng\"},"
            "\"n\":{\"type\":\"integer\",\"minimum\":\"1\"},"
            "\"p\":{\"type\":\"string\",\"pattern\":\"(unclosed\"}},"
            "\"additionalProperties\":\"maybe\"}",
            SCHEMA_DRAFT2020_12, &f);
    /* four mistakes, each once, though the meta-schema and the compiler say each of the
     * first three (type, minimum, additionalProperties) several times */
    ck_assert_uint_eq(f.len, 4);
    ck_assert_str_eq(at(&f, "/properties/q/type"),
                     "type must be one of the JSON Schema type names: string, number, integer, "
                     "boolean, object, array, null (or an array of distinct ones), not \"strng\": "
                     "did you mean \"string\"?");
    ck_assert_str_eq(at(&f, "/properties/n/minimum"),
                     "minimum must be a number, not \"1\": write 1, without quotes");
    ck_assert_str_eq(at(&f, "/additionalProperties"),
                     "additionalProperties must be a schema (an object or a boolean), not "
                     "\"maybe\"");
    ck_assert_ptr_nonnull(strstr(at(&f, "/properties/p/pattern"), "(unclosed"));
    schema_errors_release(&f);
}
END_TEST

START_TEST(forms_follow_the_dialect)
{
    struct schema_errors f = SCHEMA_ERRORS_INIT;
    explain("{\"items\":[{\"type\":\"string\"}]}", SCHEMA_DRAFT2020_12, &f);
    ck_assert_uint_eq(f.len, 1);
    ck_assert_ptr_nonnull(strstr(at(&f, "/items"), "prefixItems"));
    schema_errors_release(&f);
    /* draft-07: items may be an array; the item that is not a schema is named, not the
     * anyOf around it */
    explain("{\"items\":[{\"type\":\"strin\"},5]}", SCHEMA_DRAFT07, &f);
    ck_assert_uint_eq(f.len, 2);
    ck_assert_ptr_nonnull(strstr(at(&f, "/items/0/type"), "did you mean \"string\"?"));
    ck_assert_str_eq(at(&f, "/items/1"),
                     "item 1 of items must be a schema (an object or a boolean), not 5");
    schema_errors_release(&f);
    /* draft-04: booleans are not schemas; exclusiveMinimum is a boolean */
    explain("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"not\":true,"
            "\"minimum\":1,\"exclusiveMinimum\":3}",
            SCHEMA_DRAFT2020_12, &f);
    ck_assert_str_eq(at(&f, "/not"), "not must be a schema (an object), not true");
    ck_assert_ptr_nonnull(strstr(at(&f, "/exclusiveMinimum"), "a boolean"));
    schema_errors_release(&f);
}
END_TEST

START_TEST(inside_a_keyword_and_its_members)
{
    struct schema_errors f = SCHEMA_ERRORS_INIT;
    explain("{\"required\":[\"x\",1],\"properties\":{\"d\":5},\"allOf\":[1]}", SCHEMA_DRAFT2020_12,
            &f);
    /* the compiler's "required" must be an array of strings is the same mistake as the
     * meta-schema's item 1: named once, at the item */
    ck_assert_uint_eq(f.len, 3);
    ck_assert_str_eq(at(&f, "/required/1"),
                     "required must be an array of distinct strings (property names); its item "
                     "1 is 1");
    ck_assert_str_eq(at(&f, "/properties/d"),
                     "\"d\" in properties must be a schema (an object or a boolean), not 5");
    ck_assert_str_eq(at(&f, "/allOf/0"),
                     "item 0 of allOf must be a schema (an object or a boolean), not 1");
    schema_errors_release(&f);
    explain("{\"type\":[\"string\",\"string\"]}", SCHEMA_DRAFT2020_12, &f);
    ck_assert_ptr_nonnull(strstr(at(&f, "/type"), ": \"string\" is named twice"));
    schema_errors_release(&f);
}
END_TEST

START_TEST(one_shared_value_once)
{
    /* one object at two places (as $componentRef substitution leaves it): one finding */
    json_t *bad = J("{\"type\":\"strng\"}");
    json_t *s = json_pack("{s:{s:O,s:O}}", "properties", "a", bad, "b", bad);
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT, f = SCHEMA_ERRORS_INIT;
    ck_assert_int_eq(schema_check_offline(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs), 1);
    schema_explain(s, SCHEMA_DRAFT2020_12, &errs, &f);
    ck_assert_uint_eq(f.len, 1);
    schema_errors_release(&errs);
    schema_errors_release(&f);
    json_decref(s);
    json_decref(bad);
    schema_ctx_free(ctx);
}
END_TEST

START_TEST(type_names_suggested)
{
    ck_assert_str_eq(schema_type_suggest("strng"), "string");
    ck_assert_str_eq(schema_type_suggest("String"), "string");
    ck_assert_str_eq(schema_type_suggest("int"), "integer");
    ck_assert_str_eq(schema_type_suggest("bool"), "boolean");
    ck_assert_str_eq(schema_type_suggest("nul"), "null");
    ck_assert_ptr_null(schema_type_suggest("frobnicate"));
}
END_TEST

START_TEST(misspelt_keywords)
{
    json_t *s = J("{\"type\":\"object\",\"minimun\":1,\"properties\":{\"minimun\":{\"maxLenght\":3,"
                  "\"example\":\"x\",\"x-minimun\":1,\"readonly\":true,\"format\":\"date\"}},"
                  "\"additionalProperty\":false,\"enum\":[{\"requried\":1}],\"nullable\":true}");
    struct schema_errors f = SCHEMA_ERRORS_INIT;
    /* a property named minimun is a name, not a keyword; enum holds data; x- names,
     * OpenAPI's example and names far from every keyword (nullable) are left alone */
    ck_assert_uint_eq(schema_misspelt_keywords(s, SCHEMA_DRAFT2020_12, &f), 4);
    ck_assert_ptr_nonnull(strstr(at(&f, "/minimun"), "did you mean \"minimum\"?"));
    ck_assert_ptr_nonnull(strstr(at(&f, "/properties/minimun/maxLenght"), "\"maxLength\""));
    ck_assert_ptr_nonnull(strstr(at(&f, "/properties/minimun/readonly"), "\"readOnly\""));
    ck_assert_ptr_nonnull(strstr(at(&f, "/additionalProperty"), "\"additionalProperties\""));
    schema_errors_release(&f);
    /* a keyword of another dialect is not a misspelling ($defs in draft-07) */
    json_t *d7 = J("{\"$defs\":{},\"definitions\":{}}");
    ck_assert_uint_eq(schema_misspelt_keywords(d7, SCHEMA_DRAFT07, &f), 0);
    json_decref(d7);
    json_decref(s);
}
END_TEST

Suite *schema_explain_suite(void)
{
    Suite *s = suite_create("schema_explain");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_value_once_at_its_place);
    tcase_add_test(tc, forms_follow_the_dialect);
    tcase_add_test(tc, inside_a_keyword_and_its_members);
    tcase_add_test(tc, one_shared_value_once);
    tcase_add_test(tc, type_names_suggested);
    tcase_add_test(tc, misspelt_keywords);
    suite_add_tcase(s, tc);
    return s;
}
