/* schema.c - libFuzzer harness: the JSON Schema engine. The input is a JSON value: an
 * array [SCHEMA, INSTANCE...] (the seeds come from the JSON-Schema-Test-Suite) compiles
 * SCHEMA and validates each INSTANCE; a string is a regular expression, translated and
 * used as `pattern` and as a `patternProperties` key; anything else is compiled as a
 * schema. Those two validate a fixed set of instances. Either way the schema is also
 * checked against its dialect's meta-schema (schema_check). Invariants: compile failures and invalid
 * instances come with errors; validating with and without an error list agrees. */
#include <jansson.h>
#include <stdlib.h>

#include "fuzz.h"
#include "schema/schema.h"

static const char fixed_json[] =
    "[null, true, false, 0, -1, 1.5, 1e308, 9007199254740993, \"\", \"abc\", \"2026-01-01\","
    " \"\\u00e9\\ud83d\\ude00\", [], [1, \"a\", [null]], [1, 1.0], {}, {\"a\": 1, \"b\": [null, {}]},"
    " {\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": \"#\"}}},"
    " {\"a1\": 1, \"\\u00e9\\n\": 2.5, \"2026-01-01T00:00:00Z\": \"x\", \"aaaaaaaaaaaaaaaaaaaa!\": 0}]";
static json_t *fixed;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fixed = json_loads(fixed_json, 0, NULL);
    if (!fixed) fuzz_fail("fixed instances do not parse");
    return 0;
}

static void check_errors(const struct schema_errors *e)
{
    for (size_t i = 0; i < e->len; i++)
        if (!e->items[i].message || !e->items[i].keyword_location || !e->items[i].instance_location)
            fuzz_fail("error %zu lacks a member", i);
}

static void validate(const schema *s, json_t *instance)
{
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    int with = schema_validate(s, instance, &errs);
    int without = schema_validate(s, instance, NULL);
    if (with != 0 && errs.len == 0) fuzz_fail("invalid instance (%d) without errors", with);
    if (with == 0 && errs.len != 0) fuzz_fail("valid instance with %zu errors", errs.len);
    /* a bound (-1) may stop the full run and not the one that stops at the first failure */
    if (with >= 0 && without >= 0 && with != without)
        fuzz_fail("validation with errors says %d, without %d", with, without);
    check_errors(&errs);
    schema_errors_release(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *in = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!in) return 0;
    if (json_is_string(in)) { /* a regular expression: as pattern and as property pattern */
        size_t n;
        free(schema_regex_translate(json_string_value(in), json_string_length(in), &n));
        json_t *re = json_pack("{s:O, s:{s:{s:s}}}", "pattern", in, "patternProperties",
                               json_string_value(in), "type", "integer");
        json_decref(in);
        if (!(in = re)) return 0;
    }
    int pair = json_is_array(in) && json_array_size(in) > 0;
    json_t *sch = pair ? json_array_get(in, 0) : in;
    json_t *instances = pair ? in : fixed;
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *s = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &errs);
    if (!s && errs.len == 0) fuzz_fail("compile failed without an error");
    check_errors(&errs);
    schema_errors_release(&errs);
    if (s) {
        schema_root_dialect(s);
        for (size_t i = pair ? 1 : 0; i < json_array_size(instances); i++)
            validate(s, json_array_get(instances, i));
        schema_free(s);
    }
    int rc = schema_check(ctx, sch, NULL, SCHEMA_DRAFT07, &errs);
    if (rc != 0 && errs.len == 0) fuzz_fail("schema_check says %d without errors", rc);
    check_errors(&errs);
    schema_errors_release(&errs);
    schema_declared_dialect(ctx, sch, SCHEMA_DRAFT2019_09);
    schema_ctx_free(ctx);
    json_decref(in);
    return 0;
}
