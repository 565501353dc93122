/* schema_check.c - schema checking (schema_check, schema_check_offline), the top of
 * the JSON Schema engine: a schema against its dialect's meta-schema (compiled once
 * per context and cached there), then compiled with every subschema. A schema the fast
 * path (schema_check_fast.c) is certain of skips both; one equal to a schema checked
 * before takes that check's verdict from the memo (schema_memo.c). It calls the
 * compiler, the validator, the fast path and the memo; no file of the engine calls it. */
#include <stdlib.h>

#include "schema/schemaInt.h"

static int check(schema_ctx *ctx, json_t *sch, const char *base_uri, enum schema_dialect dflt,
                 struct schema_errors *errs, int offline)
{
    if (!dflt) dflt = SCHEMA_DRAFT2020_12;
    json_t *sv = json_object_get(sch, "$schema");
    const char *meta = schema_dialect_uri(dflt);
    if (json_is_string(sv)) {
        int d;
        unsigned v;
        char *why = NULL;
        if (schema_dialect_of(ctx, sv, &d, &v, &why) < 0) {
            schema_errors_add(errs, "/$schema", "/$schema", "%s", why);
            free(why);
            return -1;
        }
        meta = json_string_value(sv);
    }
    size_t before = errs ? errs->len : 0;
    schema *m = schema_ctx_meta(ctx, meta);
    if (!m) { /* compiled outside the lock (compiling fetches); the first one cached wins */
        schema *fresh = schema_compile_uri(ctx, meta, dflt, errs);
        if (!fresh) return 1;
        m = schema_ctx_meta_keep(ctx, meta, fresh);
    }
    /* compile even when the meta-schema fails: bad regexes and references too. First,
     * though: past a bound (a schema nested deeper than max_depth) the meta-schema's
     * verdict would only be that its own evaluation went too deep */
    struct schema_errors cerrs = SCHEMA_ERRORS_INIT;
    int bounded = 0;
    schema *s = schema_compile_check(ctx, sch, base_uri, dflt, &cerrs, offline, &bounded);
    /* yes/no first (the fast path, no error list); the errors only for an invalid one */
    int r = bounded ? 1 : schema_validate(m, sch, NULL);
    if (r != 0 && !bounded && errs) r = schema_validate(m, sch, errs);
    for (size_t i = 0; i < cerrs.len; i++) { /* after the meta-schema's, as they come */
        struct schema_error *e = &cerrs.items[i];
        schema_errors_add(errs, e->keyword_location, e->instance_location, "%s", e->message);
    }
    schema_errors_release(&cerrs);
    if (!s && r == 0) r = 1;
    schema_free(s);
    if (errs && errs->len > before && r == 0) r = 1;
    return r < 0 ? 1 : r;
}

/* check() once per distinct schema: a schema equal to one checked before (in content,
 * member order included) under the same default dialect and error list bound takes
 * that check's verdict and errors from the context's memo. Only a schema without a
 * base URI (its references resolve alike wherever it is) into an empty error list (the
 * bound counts what was there) is kept. */
/* Full checks of a context before schema_check_fast is asked. Callgrind: the fast path's
 * one-time comparison of the meta-schemas costs about 3M instructions, a meta-schema's
 * compile 1.5M; a valid schema then costs about 250k by the full check, 15k by the walk. */
#define FAST_AFTER_CHECKS 8

static int check_once(schema_ctx *ctx, json_t *sch, const char *base_uri, enum schema_dialect dflt,
                      struct schema_errors *errs, int offline)
{
    struct schema_memo_key k;
    struct schema_memo *memo = schema_ctx_memo(ctx);
    /* most schemas are valid: a walk that allocates nothing says so, or is unsure; not
     * for a context's first few checks when a document was registered under a
     * meta-schema's URI: then its one-time cost (the meta-schemas compared with the
     * embedded ones) is more than compiling the meta-schema */
    if ((schema_ctx_metas_embedded(ctx) || schema_memo_count_check(memo, 0) >= FAST_AFTER_CHECKS) &&
        schema_check_fast(ctx, sch, base_uri, dflt))
        return 0;
    if ((base_uri && *base_uri) || (errs && errs->len)) {
        schema_memo_count_check(memo, 1);
        return check(ctx, sch, base_uri, dflt, errs, offline);
    }
    schema_memo_key(sch, &k);
    k.dialect = (int)dflt;
    k.offline = offline;
    k.limit = errs ? errs->limit : 0;
    k.errs_null = !errs;
    int rc;
    if (schema_memo_get(memo, &k, sch, errs, &rc)) return rc;
    schema_memo_count_check(memo, 1);
    rc = check(ctx, sch, base_uri, dflt, errs, offline);
    schema_memo_put(memo, &k, sch, rc, errs, 0);
    return rc;
}

int schema_check(schema_ctx *ctx, json_t *sch, const char *base_uri, enum schema_dialect dflt,
                 struct schema_errors *errs)
{
    return check_once(ctx, sch, base_uri, dflt, errs, 0);
}

int schema_check_offline(schema_ctx *ctx, json_t *sch, const char *base_uri,
                         enum schema_dialect dflt, struct schema_errors *errs)
{
    return check_once(ctx, sch, base_uri, dflt, errs, 1);
}
