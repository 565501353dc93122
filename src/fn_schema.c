/* fn_schema.c - predicates backed by the JSON Schema engine (schema.h):
 *   valid-schema: D     the node is a valid schema of its declared dialect ($schema),
 *                       or of D when it declares none (meta-schema + every regex/ref)
 *   dialect-in: [D...]  the node's declared dialect (or the first D) is one of these
 *   matches-schema: F   the node validates against schema file F (relative to the rule
 *                       set's directory), compiled once when the rules load
 * Each failure leaves a one-line explanation in ctx->detail (message placeholder
 * {detail}), so a diagnostic names the keyword and the pointer that failed. */
#include <string.h>

#include "ruleInt.h"
#include "schema.h"

static void add_detail(struct eval_ctx *ctx, const struct schema_errors *errs)
{
    buf_reset(&ctx->detail);
    if (!errs->len) return;
    const struct schema_error *e = &errs->items[0];
    buf_addf(&ctx->detail, "%s", e->message);
    if (e->instance_location && *e->instance_location)
        buf_addf(&ctx->detail, " at %s", e->instance_location);
    if (e->keyword_location && *e->keyword_location)
        buf_addf(&ctx->detail, " (%s)", e->keyword_location);
    if (errs->len > 1) buf_addf(&ctx->detail, "; %zu more", errs->len - 1);
}

static int arg_dialect(struct cc *cc, struct pred *p, struct yv arg)
{
    size_t n = json_is_array(arg.v) ? json_array_size(arg.v) : 1;
    if (!n) {
        rule_cc_error(cc, arg.n, 0, "%s needs at least one dialect", p->fn->name);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(arg.v) ? rule_yv_item(cc, arg, i) : arg;
        if (!json_is_string(e.v) || schema_dialect_parse(json_string_value(e.v)) == SCHEMA_DIALECT_NONE) {
            rule_cc_error(cc, e.n, 0, "%s takes dialect names (2020-12, 2019-09, draft-07, draft-06, "
                          "draft-04), not %s", p->fn->name,
                          json_is_string(e.v) ? json_string_value(e.v) : rule_json_type_name(e.v));
            return -1;
        }
    }
    p->arg = json_is_array(arg.v) ? json_incref(arg.v) : json_pack("[O]", arg.v);
    return 0;
}

static enum schema_dialect default_dialect(const struct pred *p)
{
    return schema_dialect_parse(json_string_value(json_array_get(p->arg, 0)));
}

static int eval_valid_schema(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    int rc = schema_check(rule_set_schemas(ctx->rs), c->v, NULL, default_dialect(p), &errs);
    if (rc != 0) add_detail(ctx, &errs);
    schema_errors_release(&errs);
    return rc == 0;
}

static int eval_dialect_in(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    enum schema_dialect d = schema_declared_dialect(rule_set_schemas(ctx->rs), c->v, default_dialect(p));
    size_t i;
    json_t *e;
    json_array_foreach(p->arg, i, e) if (schema_dialect_parse(json_string_value(e)) == d) return 1;
    buf_reset(&ctx->detail);
    json_t *decl = json_object_get(c->v, "$schema");
    buf_addf(&ctx->detail, "%s", json_is_string(decl) ? json_string_value(decl) : "a $schema that is not a string");
    return 0;
}

static int arg_schema_file(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_string(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "matches-schema takes a schema file path relative to the rule set, not a %s",
                      rule_json_type_name(arg.v));
        return -1;
    }
    char *path = xasprintf("%s/%s", rule_set_dir(cc->rs), json_string_value(arg.v));
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    p->compiled = schema_compile_file(rule_set_schemas(cc->rs), path, SCHEMA_DRAFT2020_12, &errs);
    if (!p->compiled)
        rule_cc_error(cc, arg.n, 0, "cannot use schema %s: %s", path, errs.len ? errs.items[0].message : "?");
    schema_errors_release(&errs);
    free(path);
    return p->compiled ? 0 : -1;
}

static int eval_matches_schema(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    int rc = schema_validate(p->compiled, c->v, &errs);
    if (rc != 0) add_detail(ctx, &errs);
    schema_errors_release(&errs);
    return rc == 0;
}

const struct fn_def fn_schema_table[] = {
    {"valid-schema", "DIALECT",
     "the node is a valid JSON Schema of its declared dialect ($schema), or of DIALECT when it "
     "declares none: the meta-schema, plus every regex and reference compiles",
     arg_dialect, eval_valid_schema},
    {"dialect-in", "DIALECT or [DIALECT, ...]",
     "the node's declared dialect ($schema; the first DIALECT when absent) is one of these",
     arg_dialect, eval_dialect_in},
    {"matches-schema", "FILE",
     "the node validates against the JSON Schema in FILE (relative to the rule set's directory)",
     arg_schema_file, eval_matches_schema},
};
const size_t fn_schema_count = sizeof fn_schema_table / sizeof fn_schema_table[0];

void fn_schema_free(struct pred *p)
{
    schema_free(p->compiled);
}
