/* check_schema.c - the JSON Schema engine's edge cases: the integer type and exact
 * number comparison, code-point lengths (the value semantics themselves are
 * check_val.c's), decimal multipleOf, ECMA regex rewrites, bounds on hostile schemas,
 * reference resolution, unknown dialects, schema checking (and its memo: one check per
 * distinct schema, on two threads). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema/schemaInt.h"

static json_t *J(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", text, err.text);
    return j;
}

/* Validate INSTANCE against SCHEMA (2020-12 default) with limits LIM (NULL: defaults).
 * Returns schema_validate's result, or -2 when the schema does not compile; the first
 * message goes to MSG (may be NULL). */
static int run(const struct schema_limits *lim, const char *sch, const char *inst, char *msg,
               size_t msglen)
{
    schema_ctx *ctx = schema_ctx_new(lim);
    json_t *s = J(sch), *i = J(inst);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs);
    int r = c ? schema_validate(c, i, &errs) : -2;
    if (msg) snprintf(msg, msglen, "%s", errs.len ? errs.items[0].message : "");
    schema_errors_release(&errs);
    schema_free(c);
    json_decref(s);
    json_decref(i);
    schema_ctx_free(ctx);
    return r;
}

START_TEST(integers)
{
    ck_assert_int_eq(run(NULL, "{\"type\":\"integer\"}", "1.0", NULL, 0), 0);
    ck_assert_int_eq(run(NULL, "{\"type\":\"integer\"}", "1.5", NULL, 0), 1);
    /* exact int64/double comparison beyond 2^53 */
    ck_assert_int_eq(run(NULL, "{\"maximum\":9007199254740992.0}", "9007199254740993", NULL, 0),
                     1);
    ck_assert_int_eq(run(NULL, "{\"minimum\":0.5}", "1", NULL, 0), 0);
}
END_TEST

START_TEST(code_point_lengths)
{
    ck_assert_int_eq(run(NULL, "{\"minLength\":2}", "\"\\ud83d\\udca9\"", NULL, 0), 1);
    ck_assert_int_eq(run(NULL, "{\"maxLength\":2}", "\"\\ud83d\\udca9\\ud83d\\udca9\"", NULL, 0), 0);
}
END_TEST

static int mult(const char *x, const char *m)
{
    json_t *a = J(x), *b = J(m);
    int r = schema_multiple_of(a, b);
    json_decref(a);
    json_decref(b);
    return r;
}

START_TEST(multiple_of)
{
    ck_assert(mult("0.0075", "0.0001"));
    ck_assert(mult("0.3", "0.1")); /* 0.3/0.1 = 2.9999999999999996 in binary */
    ck_assert(mult("12391239123", "1e-8"));
    ck_assert(!mult("1e308", "0.123456789"));
    ck_assert(mult("1e308", "0.5"));
    ck_assert(!mult("7", "2"));
    ck_assert(mult("-9223372036854775807", "1"));
    ck_assert(mult("10", "2.5"));
    ck_assert(!mult("0.00751", "0.0001"));
    ck_assert(mult("0", "0.3"));
}
END_TEST

static int rmatch(const char *pat, const char *subject)
{
    char *err = NULL;
    struct schema_re *re = schema_re_compile(pat, strlen(pat), 1000, 1, &err);
    if (!re) {
        free(err);
        return -1;
    }
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    schema_re_free(re);
    return rc >= 0;
}

START_TEST(regex_rewrites)
{
    size_t n;
    char *t = schema_regex_translate("^\\p{Letter}+$", 13, &n);
    ck_assert_str_eq(t, "^\\p{L}+$");
    free(t);
    ck_assert_int_eq(rmatch("^\\p{Letter}+$", "\xC3\xA9t\xC3\xA9"), 1);
    ck_assert_int_eq(rmatch("^\\p{digit}+$", "42"), 1);
    ck_assert_int_eq(rmatch("^\\s$", "\xC2\xA0"), 1);           /* NBSP */
    ck_assert_int_eq(rmatch("^\\s$", "\xEF\xBB\xBF"), 1);       /* U+FEFF */
    ck_assert_int_eq(rmatch("^\\S$", "\xE2\x80\xA9"), 0);       /* U+2029 */
    ck_assert_int_eq(rmatch("^[\\s]$", "\xE3\x80\x80"), 1);     /* in a class */
    ck_assert_int_eq(rmatch("^\\d$", "\xD9\xA0"), 0);           /* \d is ASCII only */
    ck_assert_int_eq(rmatch("^\\w$", "\xC3\xA9"), 0);           /* \w is ASCII only */
    ck_assert_int_eq(rmatch("^\\u0041$", "A"), 1);              /* \uXXXX */
    ck_assert_int_eq(rmatch("^\\u{1F600}$", "\xF0\x9F\x98\x80"), 1);
    ck_assert_int_eq(rmatch("^\\ud83d\\ude00$", "\xF0\x9F\x98\x80"), 1);
    ck_assert_int_eq(rmatch("^.$", "\n"), 0);
    ck_assert_int_eq(rmatch("^.$", "\xE2\x80\xA8"), 0);         /* . excludes U+2028 */
    ck_assert_int_eq(rmatch("abc$", "abc\n"), 0);               /* DOLLAR_ENDONLY */
    ck_assert_int_eq(rmatch("[]", "a"), 0);                     /* empty class */
    ck_assert_int_eq(rmatch("^[^]$", "a"), 1);
    ck_assert_int_eq(rmatch("(", "("), -1);
}
END_TEST

START_TEST(bound_schema_depth)
{
    struct buf b = BUF_INIT;
    for (int i = 0; i < 300; i++) buf_adds(&b, "{\"not\":");
    buf_adds(&b, "{}");
    for (int i = 0; i < 300; i++) buf_addc(&b, '}');
    char msg[256];
    ck_assert_int_eq(run(NULL, buf_str(&b), "1", msg, sizeof msg), -2);
    ck_assert_ptr_nonnull(strstr(msg, "max_depth=256"));
    buf_release(&b);
}
END_TEST

START_TEST(bound_subschemas_and_regex_len)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_subschemas = 10;
    lim.max_regex_len = 16;
    char msg[256];
    ck_assert_int_eq(run(&lim, "{\"allOf\":[{},{},{},{},{},{},{},{},{},{},{},{}]}", "1", msg,
                         sizeof msg),
                     -2);
    ck_assert_ptr_nonnull(strstr(msg, "max_subschemas=10"));
    ck_assert_int_eq(run(&lim, "{\"pattern\":\"aaaaaaaaaaaaaaaaaaaaaaaa\"}", "1", msg, sizeof msg),
                     -2);
    ck_assert_ptr_nonnull(strstr(msg, "max_regex_len=16"));
}
END_TEST

START_TEST(bound_regex_match_limit)
{
    char msg[256];
    struct buf b = BUF_INIT;
    buf_adds(&b, "\"");
    for (int i = 0; i < 40; i++) buf_addc(&b, 'a');
    buf_adds(&b, "!\"");
    ck_assert_int_eq(run(NULL, "{\"pattern\":\"^(a+)+$\"}", buf_str(&b), msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "regex_match_limit="));
    buf_release(&b);
}
END_TEST

START_TEST(bound_work_and_depth)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_work = 1000;
    char msg[256];
    /* exponential: each level applies the next twice */
    const char *bomb = "{\"$defs\":{"
                       "\"a\":{\"allOf\":[{\"$ref\":\"#/$defs/b\"},{\"$ref\":\"#/$defs/b\"}]},"
                       "\"b\":{\"allOf\":[{\"$ref\":\"#/$defs/c\"},{\"$ref\":\"#/$defs/c\"}]},"
                       "\"c\":{\"allOf\":[{\"$ref\":\"#/$defs/d\"},{\"$ref\":\"#/$defs/d\"}]},"
                       "\"d\":{\"allOf\":[{\"$ref\":\"#/$defs/e\"},{\"$ref\":\"#/$defs/e\"}]},"
                       "\"e\":{\"allOf\":[{\"$ref\":\"#/$defs/f\"},{\"$ref\":\"#/$defs/f\"}]},"
                       "\"f\":{\"allOf\":[{\"$ref\":\"#/$defs/g\"},{\"$ref\":\"#/$defs/g\"}]},"
                       "\"g\":{\"allOf\":[{\"$ref\":\"#/$defs/h\"},{\"$ref\":\"#/$defs/h\"}]},"
                       "\"h\":{\"allOf\":[{\"$ref\":\"#/$defs/i\"},{\"$ref\":\"#/$defs/i\"}]},"
                       "\"i\":{\"allOf\":[{\"type\":\"integer\"},{\"type\":\"integer\"}]}},"
                       "\"$ref\":\"#/$defs/a\"}";
    ck_assert_int_eq(run(&lim, bomb, "1", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "max_work=1000"));
    ck_assert_int_eq(run(NULL, bomb, "1", NULL, 0), 0);
    /* a reference cycle on the same instance terminates with the depth bound */
    ck_assert_int_eq(run(NULL, "{\"$ref\":\"#\"}", "1", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "max_eval_depth="));
    /* uniqueItems is hashed (linear work), and charged */
    struct buf big = BUF_INIT;
    buf_addc(&big, '[');
    for (int i = 0; i < 20000; i++) buf_addf(&big, "%s%d", i ? "," : "", i);
    buf_adds(&big, ",{\"a\":[1,2.0]},{\"a\":[1.0,2]}]");
    ck_assert_int_eq(run(NULL, "{\"uniqueItems\":true}", buf_str(&big), msg, sizeof msg), 1);
    ck_assert_str_eq(msg, "items 20000 and 20001 are equal");
    buf_release(&big);
    ck_assert_int_eq(run(NULL, "{\"uniqueItems\":true}", "[1,\"1\",[1],{\"1\":1},true]", NULL, 0),
                     0);
    lim.max_work = 50;
    ck_assert_int_eq(run(&lim, "{\"uniqueItems\":true}",
                         "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]", msg, sizeof msg),
                     -1);
}
END_TEST

/* An error list with a limit stops collecting there and the verdict stays "invalid"
 * (1, not -1); without a limit every error is collected. */
START_TEST(error_limit)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *sch = J("{\"items\": {\"type\": \"string\"}}");
    struct buf inst = BUF_INIT;
    buf_addc(&inst, '[');
    for (int i = 0; i < 1000; i++) buf_addf(&inst, "%s%d", i ? "," : "", i);
    buf_addc(&inst, ']');
    json_t *v = J(buf_str(&inst));
    struct schema_errors all = SCHEMA_ERRORS_INIT, few = {.limit = 3};
    schema *s = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &all);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(schema_validate(s, v, &all), 1);
    ck_assert_uint_eq(all.len, 1000);
    ck_assert(!schema_errors_full(&all));
    ck_assert_int_eq(schema_validate(s, v, &few), 1);
    ck_assert_uint_eq(few.len, 3);
    ck_assert(schema_errors_full(&few));
    ck_assert_str_eq(few.items[2].instance_location, "/2");
    schema_errors_release(&all);
    schema_errors_release(&few);
    schema_free(s);
    json_decref(v);
    json_decref(sch);
    buf_release(&inst);
    schema_ctx_free(ctx);
}
END_TEST

START_TEST(references)
{
    /* embedded resources, anchors, pointers relative to the enclosing resource */
    const char *s = "{\"$id\":\"https://example.com/root.json\","
                    "\"$defs\":{\"A\":{\"$id\":\"sub/a.json\",\"$defs\":{\"x\":{\"type\":\"string\"}},"
                    "\"$ref\":\"#/$defs/x\"},\"B\":{\"$anchor\":\"bee\",\"type\":\"integer\"}},"
                    "\"properties\":{\"a\":{\"$ref\":\"sub/a.json\"},\"b\":{\"$ref\":\"#bee\"},"
                    "\"c\":{\"$ref\":\"https://example.com/sub/a.json#/$defs/x\"}}}";
    ck_assert_int_eq(run(NULL, s, "{\"a\":\"x\",\"b\":1,\"c\":\"y\"}", NULL, 0), 0);
    ck_assert_int_eq(run(NULL, s, "{\"a\":1}", NULL, 0), 1);
    ck_assert_int_eq(run(NULL, s, "{\"b\":\"1\"}", NULL, 0), 1);
    /* a network reference is never fetched */
    char msg[256];
    ck_assert_int_eq(run(NULL, "{\"$ref\":\"https://example.org/x.json\"}", "1", msg, sizeof msg),
                     -2);
    ck_assert_ptr_nonnull(strstr(msg, "was not fetched"));
    ck_assert_int_eq(run(NULL, "{\"$ref\":\"#/$defs/missing\"}", "1", msg, sizeof msg), -2);
    ck_assert_ptr_nonnull(strstr(msg, "does not resolve"));
    /* references and identifiers are RFC 3986 URI references (base/uri.c); a fragment
     * is the JSON Pointer's or anchor's to judge, as before */
    ck_assert_int_eq(run(NULL, "{\"$ref\":\"other schema.json\"}", "1", msg, sizeof msg), -2);
    ck_assert_str_eq(msg, "reference \"other schema.json\" is not a URI reference: the parse "
                          "fails at character 6 (' ')");
    ck_assert_int_eq(run(NULL, "{\"$defs\":{\"a\":{\"$id\":\"http://x:abc/a.json\"}}}", "1", msg,
                         sizeof msg),
                     -2);
    ck_assert_str_eq(msg, "identifier \"http://x:abc/a.json\" is not a URI reference: the parse "
                          "fails at character 13 ('/')");
    ck_assert_int_eq(run(NULL,
                         "{\"$ref\":\"#/$defs/foo bar\",\"$defs\":{\"foo bar\":{\"type\":\"string\"}}}",
                         "\"x\"", NULL, 0),
                     0);
    ck_assert_int_eq(run(NULL,
                         "{\"$id\":\"http://[2001:DB8::7]/s/a.json\",\"$ref\":\"b.json\",\"$defs\":"
                         "{\"b\":{\"$id\":\"http://[2001:DB8::7]/s/b.json\",\"type\":\"string\"}}}",
                         "1", NULL, 0),
                     1);
}
END_TEST

START_TEST(registered_and_mapped_documents)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *remote = J("{\"type\":\"string\"}");
    schema_ctx_add_document(ctx, "http://localhost:1234/str.json", remote);
    json_decref(remote);
    char dir[] = "/tmp/check_schema_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *file = xasprintf("%s/int.json", dir);
    FILE *f = fopen(file, "w");
    fputs("{\"type\":\"integer\"}", f);
    fclose(f);
    schema_ctx_add_ref_map(ctx, "https://schemas.example/", dir);
    json_t *s = J("{\"properties\":{\"s\":{\"$ref\":\"http://localhost:1234/str.json\"},"
                  "\"i\":{\"$ref\":\"https://schemas.example/int.json\"}}}");
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_ptr_nonnull(c);
    json_t *ok = J("{\"s\":\"a\",\"i\":1}"), *bad = J("{\"s\":1,\"i\":\"a\"}");
    ck_assert_int_eq(schema_validate(c, ok, NULL), 0);
    ck_assert_int_eq(schema_validate(c, bad, &errs), 1);
    ck_assert_uint_eq(errs.len, 2);
    ck_assert_str_eq(errs.items[0].instance_location, "/s");
    ck_assert_str_eq(errs.items[0].keyword_location, "http://localhost:1234/str.json#/type");
    schema_errors_release(&errs);
    schema_free(c);
    json_decref(ok);
    json_decref(bad);
    json_decref(s);
    /* a schema file: compiled with a file:// base URI */
    schema *fs = schema_compile_file(ctx, file, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_ptr_nonnull(fs);
    json_t *one = json_integer(1);
    ck_assert_int_eq(schema_validate(fs, one, NULL), 0);
    json_decref(one);
    schema_free(fs);
    ck_assert_ptr_null(schema_compile_file(ctx, "/nonexistent/x.json", 0, &errs));
    ck_assert_uint_eq(errs.len, 1);
    schema_errors_release(&errs);
    unlink(file);
    rmdir(dir);
    free(file);
    schema_ctx_free(ctx);
}
END_TEST

START_TEST(dialects)
{
    ck_assert_int_eq(schema_dialect_parse("2020-12"), SCHEMA_DRAFT2020_12);
    ck_assert_int_eq(schema_dialect_parse("draft-07"), SCHEMA_DRAFT07);
    ck_assert_int_eq(schema_dialect_parse("http://json-schema.org/draft-07/schema"),
                     SCHEMA_DRAFT07);
    ck_assert_int_eq(schema_dialect_parse("https://json-schema.org/draft/2020-12/schema#"),
                     SCHEMA_DRAFT2020_12);
    ck_assert_int_eq(schema_dialect_parse("draft-03"), SCHEMA_DIALECT_NONE);
    char msg[256];
    ck_assert_int_eq(run(NULL, "{\"$schema\":\"http://json-schema.org/draft-03/schema#\"}", "1",
                         msg, sizeof msg),
                     -2);
    ck_assert_ptr_nonnull(strstr(msg, "unknown dialect \"http://json-schema.org/draft-03/schema#\""));
    /* draft-07: $ref ignores its siblings; 2020-12 does not */
    ck_assert_int_eq(run(NULL,
                         "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                         "\"definitions\":{\"a\":{}},\"$ref\":\"#/definitions/a\",\"type\":\"string\"}",
                         "1", NULL, 0),
                     0);
    ck_assert_int_eq(run(NULL, "{\"$defs\":{\"a\":{}},\"$ref\":\"#/$defs/a\",\"type\":\"string\"}",
                         "1", NULL, 0),
                     1);
}
END_TEST

START_TEST(custom_metaschema_vocabularies)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *meta = J("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                     "\"$vocabulary\":{\"https://json-schema.org/draft/2020-12/vocab/core\":true,"
                     "\"https://json-schema.org/draft/2020-12/vocab/applicator\":true,"
                     "\"https://example.com/vocab/unknown-optional\":false}}");
    json_t *strict = J("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                       "\"$vocabulary\":{\"https://example.com/vocab/unknown\":true}}");
    schema_ctx_add_document(ctx, "https://example.com/meta", meta);
    schema_ctx_add_document(ctx, "https://example.com/strict", strict);
    json_t *s = J("{\"$schema\":\"https://example.com/meta\",\"minimum\":5}");
    json_t *t = J("{\"$schema\":\"https://example.com/strict\"}");
    json_t *one = json_integer(1);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(schema_validate(c, one, NULL), 0); /* no validation vocabulary */
    ck_assert_int_eq(schema_declared_dialect(ctx, s, SCHEMA_DRAFT07), SCHEMA_DRAFT2020_12);
    ck_assert_ptr_null(schema_compile(ctx, t, NULL, SCHEMA_DRAFT2020_12, &errs));
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "unsupported vocabulary"));
    schema_errors_release(&errs);
    schema_free(c);
    json_decref(one);
    json_decref(s);
    json_decref(t);
    json_decref(meta);
    json_decref(strict);
    schema_ctx_free(ctx);
}
END_TEST

static int check(const char *text, char *msg, size_t len)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *s = J(text);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    int r = schema_check(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs);
    if (msg) snprintf(msg, len, "%s", errs.len ? errs.items[0].message : "");
    schema_errors_release(&errs);
    json_decref(s);
    schema_ctx_free(ctx);
    return r;
}

START_TEST(schema_checking)
{
    char msg[512];
    ck_assert_int_eq(check("{\"type\":\"object\",\"properties\":{\"a\":{\"minimum\":1}}}", NULL, 0), 0);
    ck_assert_int_eq(check("true", NULL, 0), 0);
    ck_assert_int_eq(check("{\"type\":\"objekt\"}", NULL, 0), 1);
    ck_assert_int_eq(check("{\"minLength\":-1}", NULL, 0), 1);
    ck_assert_int_eq(check("{\"$defs\":{\"x\":{\"pattern\":\"(\"}}}", msg, sizeof msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "invalid regular expression"));
    ck_assert_int_eq(check("{\"patternProperties\":{\"[\":{}}}", NULL, 0), 1);
    ck_assert_int_eq(check("{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                           "\"definitions\":{\"a\":{\"type\":\"integer\"}}}",
                           NULL, 0),
                     0);
    ck_assert_int_eq(check("{\"$schema\":\"http://json-schema.org/draft-04/schema#\","
                           "\"type\":\"object\",\"exclusiveMinimum\":true,\"minimum\":1}",
                           NULL, 0),
                     0);
    ck_assert_int_eq(check("{\"$schema\":\"https://example.com/unknown\"}", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "https://example.com/unknown"));
}
END_TEST

/* Compile SCH (2020-12 default); returns 1 when it compiles. The first error's message
 * and schema pointer go to MSG and LOC (may be NULL), the error count to *NERR. */
static int compiles(json_t *sch, const struct schema_limits *lim, char *msg, size_t msglen,
                    char *loc, size_t loclen, size_t *nerr)
{
    schema_ctx *ctx = schema_ctx_new(lim);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &errs);
    if (msg) snprintf(msg, msglen, "%s", errs.len ? errs.items[0].message : "");
    if (loc) snprintf(loc, loclen, "%s", errs.len ? errs.items[0].instance_location : "");
    if (nerr) *nerr = errs.len;
    schema_errors_release(&errs);
    int ok = c != NULL;
    schema_free(c);
    schema_ctx_free(ctx);
    return ok;
}

/* SCH must not compile: exactly one error at LOC whose message holds WANT. */
static void refused(const char *sch, const char *want, const char *want_loc)
{
    json_t *s = J(sch);
    char msg[512], loc[256];
    size_t n = 0;
    ck_assert_msg(!compiles(s, NULL, msg, sizeof msg, loc, sizeof loc, &n), "%s compiled", sch);
    ck_assert_msg(strstr(msg, want) != NULL, "%s: message \"%s\" lacks \"%s\"", sch, msg, want);
    ck_assert_str_eq(loc, want_loc);
    ck_assert_msg(n == 1, "%s: %zu errors (first: %s)", sch, n, msg);
    json_decref(s);
}

/* A NUL inside a reference or identifier would cut it short and name something else
 * (hostile cases schema-nul-ref, schema-nul-id): refused, the value shown escaped. */
START_TEST(nul_in_references)
{
    refused("{\"$ref\":\"#/$defs/Str\\u0000evil\",\"$defs\":{\"Str\":{\"type\":\"string\"}}}",
            "reference \"#/$defs/Str\\u0000evil\" contains a NUL character", "/$ref");
    refused("{\"$id\":\"https://x.example/a\\u0000b\",\"type\":\"integer\"}",
            "identifier \"https://x.example/a\\u0000b\"", "/$id");
    refused("{\"$defs\":{\"a\":{\"$anchor\":\"x\\u0000y\"}}}", "anchor \"x\\u0000y\"",
            "/$defs/a/$anchor");
    refused("{\"$defs\":{\"a\":{\"$dynamicAnchor\":\"x\\u0000\"}}}", "\"$dynamicAnchor\"",
            "/$defs/a/$dynamicAnchor");
    refused("{\"items\":{\"$dynamicRef\":\"#x\\u0000\"}}", "reference \"#x\\u0000\"",
            "/items/$dynamicRef");
    refused("{\"$schema\":\"https://json-schema.org/draft/2019-09/schema\","
            "\"not\":{\"$recursiveRef\":\"#\\u0000\"}}",
            "\"$recursiveRef\"", "/not/$recursiveRef");
    refused("{\"$schema\":\"http://json-schema.org/draft-04/schema#\","
            "\"properties\":{\"a\":{\"id\":\"#a\\u0000\"}}}",
            "identifier \"#a\\u0000\"", "/properties/a/id");
    /* cut short, this $id would make the $ref below refer to the schema itself */
    json_t *s = J("{\"$id\":\"https://x.example/a\\u0000b\",\"$ref\":\"https://x.example/a\"}");
    ck_assert(!compiles(s, NULL, NULL, 0, NULL, 0, NULL));
    json_decref(s);
    /* cut short, this $schema would be the 2020-12 meta-schema's URI */
    const char *dial = "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\\u0000x\"}";
    char msg[512];
    ck_assert_int_eq(run(NULL, dial, "1", msg, sizeof msg), -2);
    ck_assert_ptr_nonnull(strstr(msg, "dialect \"https://json-schema.org/draft/2020-12/"
                                      "schema\\u0000x\" contains a NUL character"));
    schema_ctx *ctx = schema_ctx_new(NULL);
    s = J(dial);
    ck_assert_int_eq(schema_declared_dialect(ctx, s, SCHEMA_DRAFT07), SCHEMA_DIALECT_NONE);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    ck_assert_int_eq(schema_check(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs), -1);
    schema_errors_release(&errs);
    json_decref(s);
    schema_ctx_free(ctx);
    /* elsewhere a NUL is an ordinary character */
    ck_assert_int_eq(run(NULL, "{\"const\":\"a\\u0000b\"}", "\"a\\u0000b\"", NULL, 0), 0);
    ck_assert_int_eq(run(NULL, "{\"const\":\"a\\u0000b\"}", "\"a\"", NULL, 0), 1);
}
END_TEST

/* "required" names are compared by length: "a\u0000b" is not "a" (hostile case
 * schema-nul-required); names are shown escaped. */
START_TEST(nul_in_required_names)
{
    char msg[256];
    ck_assert_int_eq(run(NULL, "{\"required\":[\"a\\u0000b\"]}", "{\"a\":1}", msg, sizeof msg), 1);
    ck_assert_str_eq(msg, "required property \"a\\u0000b\" is missing");
    ck_assert_int_eq(run(NULL, "{\"dependentRequired\":{\"a\":[\"c\\u0000d\"]}}",
                         "{\"a\":1,\"c\":2}", msg, sizeof msg),
                     1);
    ck_assert_str_eq(msg, "property \"c\\u0000d\" is required when \"a\" is present");
    ck_assert_int_eq(run(NULL, "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                               "\"dependencies\":{\"a\":[\"c\\u0000\"]}}",
                         "{\"a\":1,\"c\":2}", NULL, 0),
                     1);
    ck_assert_int_eq(run(NULL, "{\"required\":[\"a\\nb\"]}", "{}", msg, sizeof msg), 1);
    ck_assert_str_eq(msg, "required property \"a\\nb\" is missing");
    ck_assert_int_eq(run(NULL, "{\"additionalProperties\":false}", "{\"x\\ty\":1}", msg,
                         sizeof msg),
                     1);
    ck_assert_str_eq(msg, "property \"x\\ty\" is not allowed");
    /* members whose names hold a NUL (built through the API: parsers refuse them) */
    json_t *sch = J("{\"required\":[\"a\\u0000b\"],\"properties\":{}}");
    json_object_setn_new(json_object_get(sch, "properties"), "k\0z", 3, json_false());
    json_t *inst = json_object();
    json_object_setn_new(inst, "a\0b", 3, json_integer(1));
    json_object_set_new(inst, "k", json_integer(1));
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(schema_validate(c, inst, &errs), 0); /* "k" is not "k\0z" */
    json_object_setn_new(inst, "k\0z", 3, json_integer(1));
    ck_assert_int_eq(schema_validate(c, inst, &errs), 1);
    schema_errors_release(&errs);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sch);
    json_decref(inst);
}
END_TEST

/* A chain of N {"properties":{"a": ...}} levels built through the API (parsers stop
 * at their own depth); LEAF (new reference) at the bottom. */
static json_t *deep_chain(size_t n, json_t *leaf, json_t ***levels)
{
    json_t **lv = xmalloc(2 * n * sizeof *lv);
    json_t *root = json_object(), *cur = root;
    for (size_t i = 0; i < n; i++) {
        json_t *props = json_object(), *next = i + 1 < n ? json_object() : leaf;
        json_object_set_new(cur, "properties", props);
        json_object_set_new(props, "a", next);
        lv[2 * i] = cur;
        lv[2 * i + 1] = props;
        cur = next;
    }
    *levels = lv;
    return root;
}

/* Free it from the bottom up: jansson frees recursively and would need n frames. */
static void deep_free(json_t **lv, size_t n)
{
    for (size_t i = 2 * n; i-- > 0;) json_object_clear(lv[i]);
    json_decref(lv[0]);
    free(lv);
}

/* Past the depth bound the compile stops: nothing deeper is compiled (so reported),
 * and a schema nested 20,000 deep (hostile case component-ref-nest-100k-valid-schema
 * has 200,000) costs no more than one at the bound. */
START_TEST(bound_depth_stops_compile)
{
    json_t **lv;
    json_t *s = deep_chain(400, J("{\"pattern\":\"(\"}"), &lv);
    char msg[256];
    size_t n = 0;
    ck_assert(!compiles(s, NULL, msg, sizeof msg, NULL, 0, &n));
    ck_assert_ptr_nonnull(strstr(msg, "max_depth=256"));
    ck_assert_msg(n == 1, "%zu errors: the compile went on past the bound", n);
    deep_free(lv, 400);

    s = deep_chain(20000, json_object(), &lv);
    ck_assert(!compiles(s, NULL, msg, sizeof msg, NULL, 0, &n));
    ck_assert_ptr_nonnull(strstr(msg, "max_depth=256"));
    ck_assert_uint_eq(n, 1);
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    /* schema_check says so alone, not that the meta-schema's evaluation went too deep */
    ck_assert_int_eq(schema_check(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs), 1);
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "max_depth=256"));
    schema_errors_release(&errs);
    schema_ctx_free(ctx);
    deep_free(lv, 20000);

    /* the same through a reference into a place that is not a subschema */
    json_t *inner = deep_chain(400, J("{\"pattern\":\"(\"}"), &lv);
    s = J("{\"$ref\":\"#/x\"}");
    json_object_set_new(s, "x", inner);
    ck_assert(!compiles(s, NULL, msg, sizeof msg, NULL, 0, &n));
    ck_assert_ptr_nonnull(strstr(msg, "max_depth=256"));
    ck_assert_uint_eq(n, 1);
    json_incref(inner);
    json_decref(s);
    deep_free(lv, 400);
}
END_TEST

/* After max_subschemas the compile stops too (one error, nothing compiled after it). */
START_TEST(bound_subschemas_stops_compile)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_subschemas = 5;
    /* the first subschema is made before the bound is hit, compiled after it */
    json_t *s = J("{\"allOf\":[{\"pattern\":\"(\"},{},{},{},{},{},{}]}");
    char msg[256];
    size_t n = 0;
    ck_assert(!compiles(s, &lim, msg, sizeof msg, NULL, 0, &n));
    ck_assert_ptr_nonnull(strstr(msg, "max_subschemas=5"));
    ck_assert_uint_eq(n, 1);
    json_decref(s);
}
END_TEST

/* Subschema pointers are stored as a tree (each its parent's plus a segment): a chain
 * of long keys costs their bytes once, not once per level below them, and locations
 * in messages are still whole. */
START_TEST(pointers_stored_once)
{
    enum { LEVELS = 100, KEY = 1000 };
    char key[KEY + 1];
    memset(key, 'k', KEY);
    key[KEY] = 0;
    struct buf text = BUF_INIT, want = BUF_INIT;
    for (int i = 0; i < LEVELS; i++) {
        buf_addf(&text, "{\"properties\":{\"%s\":", key);
        buf_addf(&want, "/properties/%s", key);
    }
    buf_adds(&text, "{\"type\":\"string\"}");
    buf_adds(&want, "/type");
    for (int i = 0; i < LEVELS; i++) buf_adds(&text, "}}");
    json_t *sch = J(buf_str(&text));
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *c = schema_compile(ctx, sch, NULL, SCHEMA_DRAFT2020_12, &errs);
    ck_assert_ptr_nonnull(c);
    size_t bytes = 0;
    for (size_t i = 0; i < c->ptrs.len; i++) bytes += strlen(c->ptrs.items[i].seg);
    ck_assert_msg(bytes < 2 * text.len, "%zu bytes of pointers for %zu of schema", bytes,
                  text.len);
    /* the instance: the same chain of objects, a number at the bottom */
    struct buf inst = BUF_INIT;
    for (int i = 0; i < LEVELS; i++) buf_addf(&inst, "{\"%s\":", key);
    buf_adds(&inst, "1");
    for (int i = 0; i < LEVELS; i++) buf_addc(&inst, '}');
    json_t *ij = J(buf_str(&inst));
    ck_assert_int_eq(schema_validate(c, ij, &errs), 1);
    ck_assert_uint_eq(errs.len, 1);
    ck_assert_str_eq(errs.items[0].keyword_location, buf_str(&want));
    ck_assert_uint_eq(strlen(errs.items[0].instance_location), (size_t)LEVELS * (KEY + 1));
    schema_errors_release(&errs);
    schema_free(c);
    schema_ctx_free(ctx);
    json_decref(sch);
    json_decref(ij);
    buf_release(&text);
    buf_release(&want);
    buf_release(&inst);
}
END_TEST

/* ---- schema checks once per distinct schema (schema_memo.c) ---------------------- */

/* The errors of E as one text, for comparing lists whole. */
static char *errs_text(int rc, const struct schema_errors *e)
{
    struct buf b = BUF_INIT;
    buf_addf(&b, "rc=%d n=%zu\n", rc, e->len);
    for (size_t i = 0; i < e->len; i++)
        buf_addf(&b, "[%s] [%s] %s\n", e->items[i].keyword_location, e->items[i].instance_location,
                 e->items[i].message);
    return buf_detach(&b);
}

/* TEXT checked on CTX (offline when OFF, errors bounded by LIMIT), as errs_text. */
static char *checked(schema_ctx *ctx, const char *text, enum schema_dialect d, int off,
                     size_t limit)
{
    json_t *s = J(text);
    struct schema_errors errs = {.limit = limit};
    int rc =
        off ? schema_check_offline(ctx, s, NULL, d, &errs) : schema_check(ctx, s, NULL, d, &errs);
    char *t = errs_text(rc, &errs);
    schema_errors_release(&errs);
    json_decref(s);
    return t;
}

/* Schemas whose checks differ only in what the memo must tell apart: member order (the
 * order of the errors), an integer and a real, the dialect, the error bound. */
static const char *const MEMO_CASES[] = {
    "{\"type\":\"object\",\"properties\":{\"a\":{\"pattern\":\"[\",\"minimum\":\"1\"}}}",
    "{\"properties\":{\"a\":{\"type\":1},\"b\":{\"pattern\":\"[\"}}}",
    "{\"properties\":{\"b\":{\"pattern\":\"[\"},\"a\":{\"type\":1}}}",
    "{\"minLength\":1}",
    "{\"minLength\":1.5}",
    "{\"minLength\":1.0}",
    "{\"items\":[{\"type\":\"string\"}]}",
    "{\"$ref\":\"#/$defs/missing\",\"$defs\":{\"a\":{\"type\":\"strng\"}}}",
    "{\"$ref\":\"https://example.com/s.json\",\"type\":7}",
    "{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}}",
    "{\"anyOf\":[],\"allOf\":[1,2,3],\"oneOf\":[true,{\"enum\":5}]}",
    "{\"patternProperties\":{\"^a\\\\\":{},\"(?<n>x)\":{}}}",
    "true",
    "{}",
};
#define NMEMO (sizeof MEMO_CASES / sizeof *MEMO_CASES)

START_TEST(checked_once_per_distinct_schema)
{
    static const enum schema_dialect ds[] = {SCHEMA_DRAFT2020_12, SCHEMA_DRAFT07, SCHEMA_DRAFT04};
    schema_ctx *shared = schema_ctx_new(NULL);
    for (int round = 0; round < 2; round++) /* the second round from the memo */
        for (size_t i = 0; i < NMEMO; i++)
            for (size_t d = 0; d < 3; d++)
                for (int off = 0; off < 2; off++)
                    for (size_t limit = 0; limit < 3; limit += 2) {
                        schema_ctx *fresh = schema_ctx_new(NULL);
                        char *want = checked(fresh, MEMO_CASES[i], ds[d], off, limit);
                        char *got = checked(shared, MEMO_CASES[i], ds[d], off, limit);
                        ck_assert_msg(!strcmp(want, got),
                                      "%s (d=%d off=%d limit=%zu round %d):\n%s\nnot\n%s",
                                      MEMO_CASES[i], ds[d], off, limit, round, got, want);
                        free(want);
                        free(got);
                        schema_ctx_free(fresh);
                    }
    /* an error list with errors already in it (which count against its bound) is
     * filled as without the memo */
    json_t *s = J(MEMO_CASES[0]);
    char *with[2];
    for (int k = 0; k < 2; k++) {
        schema_ctx *ctx = k ? shared : schema_ctx_new(NULL);
        struct schema_errors errs = {.limit = 2};
        schema_errors_add(&errs, "", "", "before");
        int rc = schema_check(ctx, s, NULL, SCHEMA_DRAFT2020_12, &errs);
        with[k] = errs_text(rc, &errs);
        schema_errors_release(&errs);
        if (!k) schema_ctx_free(ctx);
    }
    ck_assert_str_eq(with[1], with[0]);
    free(with[0]);
    free(with[1]);
    json_decref(s);
    schema_ctx_free(shared);
}
END_TEST

/* A schema only checked compiles no regex, and says what compiling it would have said. */
START_TEST(checked_patterns_as_compiled)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_regex_len = 64; /* past the meta-schema's own patterns */
    static const char *const texts[] = {"{\"pattern\":\"a{1,2}b{1,2}c{1,2}d{1,2}e{1,2}f{1,2}g{1,2}h{1,2}"
                                        "i{1,2}j{1,2}k{1,2}l{1,2}m{1,2}n{1,2}o{1,2}\"}", "{\"pattern\":\"a{2,1}\"}",
                                        "{\"patternProperties\":{\"(?<=a+)b\":{},\"[\":{}}}"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        for (int round = 0; round < 2; round++) {
            schema_ctx *ctx = schema_ctx_new(i ? NULL : &lim);
            json_t *s = J(texts[i]);
            struct schema_errors c = SCHEMA_ERRORS_INIT, k = SCHEMA_ERRORS_INIT;
            schema *compiled = schema_compile(ctx, s, NULL, SCHEMA_DRAFT2020_12, &c);
            ck_assert_ptr_null(compiled);
            schema_free(compiled);
            ck_assert_int_eq(schema_check(ctx, s, NULL, SCHEMA_DRAFT2020_12, &k), 1);
            /* the compiler's errors come after the meta-schema's */
            ck_assert_uint_ge(k.len, c.len);
            for (size_t e = 0; e < c.len; e++) {
                const struct schema_error *x = &c.items[e], *y = &k.items[k.len - c.len + e];
                ck_assert_str_eq(y->message, x->message);
                ck_assert_str_eq(y->instance_location, x->instance_location);
            }
            schema_errors_release(&c);
            schema_errors_release(&k);
            json_decref(s);
            schema_ctx_free(ctx);
        }
}
END_TEST

START_TEST(checked_again_after_a_registration)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    const char *text = "{\"$ref\":\"urn:example:name\"}";
    char *before = checked(ctx, text, SCHEMA_DRAFT2020_12, 0, 0);
    ck_assert_ptr_nonnull(strstr(before, "rc=1"));
    json_t *doc = J("{\"type\":\"string\"}");
    schema_ctx_add_document(ctx, "urn:example:name", doc);
    json_decref(doc);
    char *after = checked(ctx, text, SCHEMA_DRAFT2020_12, 0, 0);
    ck_assert_str_eq(after, "rc=0 n=0\n");
    free(before);
    free(after);
    schema_ctx_free(ctx);
}
END_TEST

struct memo_thread {
    schema_ctx *ctx;
    char *got[NMEMO];
};

static void *memo_thread_run(void *arg)
{
    struct memo_thread *t = arg;
    for (int round = 0; round < 20; round++)
        for (size_t i = 0; i < NMEMO; i++) {
            char *g = checked(t->ctx, MEMO_CASES[i], SCHEMA_DRAFT2020_12, 1, 400);
            if (!t->got[i]) t->got[i] = g;
            else if (strcmp(t->got[i], g)) t->got[i][0] = '!'; /* changed between rounds */
            if (t->got[i] != g) free(g);
        }
    return NULL;
}

START_TEST(checked_on_two_threads)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    struct memo_thread t[2] = {{ctx, {NULL}}, {ctx, {NULL}}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, memo_thread_run, &t[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (size_t i = 0; i < NMEMO; i++) {
        schema_ctx *fresh = schema_ctx_new(NULL);
        char *want = checked(fresh, MEMO_CASES[i], SCHEMA_DRAFT2020_12, 1, 400);
        ck_assert_str_eq(t[0].got[i], want);
        ck_assert_str_eq(t[1].got[i], want);
        free(want);
        free(t[0].got[i]);
        free(t[1].got[i]);
        schema_ctx_free(fresh);
    }
    schema_ctx_free(ctx);
}
END_TEST

Suite *schema_suite(void)
{
    Suite *s = suite_create("schema");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, code_point_lengths);
    tcase_add_test(tc, multiple_of);
    tcase_add_test(tc, regex_rewrites);
    tcase_add_test(tc, bound_schema_depth);
    tcase_add_test(tc, bound_subschemas_and_regex_len);
    tcase_add_test(tc, bound_regex_match_limit);
    tcase_add_test(tc, bound_work_and_depth);
    tcase_add_test(tc, references);
    tcase_add_test(tc, registered_and_mapped_documents);
    tcase_add_test(tc, dialects);
    tcase_add_test(tc, custom_metaschema_vocabularies);
    tcase_add_test(tc, schema_checking);
    tcase_add_test(tc, nul_in_references);
    tcase_add_test(tc, nul_in_required_names);
    tcase_add_test(tc, bound_depth_stops_compile);
    tcase_add_test(tc, bound_subschemas_stops_compile);
    tcase_add_test(tc, pointers_stored_once);
    tcase_add_test(tc, error_limit);
    tcase_add_test(tc, checked_once_per_distinct_schema);
    tcase_add_test(tc, checked_patterns_as_compiled);
    tcase_add_test(tc, checked_again_after_a_registration);
    tcase_add_test(tc, checked_on_two_threads);
    suite_add_tcase(s, tc);
    return s;
}
