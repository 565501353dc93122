/* fn.c - the predicate table: every predicate a rule's `check` may use, with its
 * compiler (argument checking, positioned errors) and its evaluator. Adding a
 * predicate is one entry in fn_table; rules-yaml/README.md documents each one. */
#include <math.h>
#include <string.h>

#include "ruleInt.h"

enum {
    T_OBJECT = 1, T_ARRAY = 2, T_STRING = 4, T_NUMBER = 8, T_INTEGER = 16, T_BOOLEAN = 32, T_NULL = 64
};
static const struct { const char *name; unsigned bit; } type_names[] = {
    {"object", T_OBJECT}, {"array", T_ARRAY}, {"string", T_STRING}, {"number", T_NUMBER},
    {"integer", T_INTEGER}, {"boolean", T_BOOLEAN}, {"null", T_NULL},
};

void fn_pred_free(struct pred *p)
{
    if (!p) return;
    json_decref(p->arg);
    for (size_t i = 0; i < p->nkids; i++)
        if (!p->borrowed) fn_pred_free(p->kids[i]);
    free(p->kids);
    sel_free(p->sel);
    fn_schema_free(p);
    fn_pred_free(p->body);
    free(p);
}

int fn_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    return p->fn->eval(p, c, ctx);
}

/* ---- argument compilers -------------------------------------------------------- */

static int arg_string(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_string(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a string (%s), not a %s", p->fn->name, p->fn->synopsis,
                      rule_json_type_name(arg.v));
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

static int arg_strings(struct cc *cc, struct pred *p, struct yv arg)
{
    if (json_is_string(arg.v)) {
        p->arg = json_pack("[O]", arg.v);
        return 0;
    }
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a member name or a non-empty list of names (%s)",
                      p->fn->name, p->fn->synopsis);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(arg.v); i++)
        if (!json_is_string(json_array_get(arg.v, i))) {
            rule_cc_error(cc, rule_yv_item(cc, arg, i).n, 0, "%s: every name must be a string", p->fn->name);
            return -1;
        }
    p->arg = json_incref(arg.v);
    return 0;
}

static int arg_any(struct cc *cc, struct pred *p, struct yv arg)
{
    (void)cc;
    p->arg = json_incref(arg.v);
    return 0;
}

static int arg_types(struct cc *cc, struct pred *p, struct yv arg)
{
    size_t n = json_is_array(arg.v) ? json_array_size(arg.v) : 1;
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(arg.v) ? rule_yv_item(cc, arg, i) : arg;
        /* YAML reads a plain `null` as the null value: take it as the type name */
        unsigned bit = json_is_null(e.v) ? T_NULL : 0;
        for (size_t k = 0; json_is_string(e.v) && k < sizeof type_names / sizeof *type_names; k++)
            if (!strcmp(json_string_value(e.v), type_names[k].name)) bit = type_names[k].bit;
        if (!bit) {
            rule_cc_error(cc, e.n, 0, "json-type takes object, array, string, number, integer, "
                          "boolean or null (or a list of them), not %s%s%s",
                          json_is_string(e.v) ? "\"" : "a ",
                          json_is_string(e.v) ? json_string_value(e.v) : rule_json_type_name(e.v),
                          json_is_string(e.v) ? "\"" : "");
            return -1;
        }
        p->types |= bit;
    }
    if (!n) {
        rule_cc_error(cc, arg.n, 0, "json-type needs at least one type");
        return -1;
    }
    return 0;
}

static int arg_preds(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a non-empty list of predicates", p->fn->name);
        return -1;
    }
    p->kids = xcalloc(json_array_size(arg.v), sizeof *p->kids);
    int bad = 0;
    for (size_t i = 0; i < json_array_size(arg.v); i++) {
        struct pred *k = rule_cc_pred(cc, rule_yv_item(cc, arg, i));
        if (k) p->kids[p->nkids++] = k;
        else bad = 1;
    }
    return bad ? -1 : 0;
}

static int arg_pred(struct cc *cc, struct pred *p, struct yv arg)
{
    struct pred *k = rule_cc_pred(cc, arg);
    if (!k) return -1;
    p->kids = xcalloc(1, sizeof *p->kids);
    p->kids[p->nkids++] = k;
    return 0;
}

static int arg_use(struct cc *cc, struct pred *p, struct yv arg)
{
    struct pred *k = rule_cc_named(cc, arg);
    if (!k) return -1;
    p->kids = xcalloc(1, sizeof *p->kids);
    p->kids[p->nkids++] = k;
    p->borrowed = 1;
    return 0;
}

static int arg_quantifier(struct cc *cc, struct pred *p, struct yv arg)
{
    int body_required = !strcmp(p->fn->name, "every");
    if (!json_is_object(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a mapping {select: SELECTOR, require: PREDICATE}", p->fn->name);
        return -1;
    }
    int bad = 0;
    size_t i = 0;
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it), i++) {
        const char *k = json_object_iter_key(it);
        if (strcmp(k, "select") && strcmp(k, "require")) {
            rule_cc_error(cc, doc_node_item(cc->d, arg.n, i), 1,
                          "unknown member \"%s\" in %s (it takes select and require)", k, p->fn->name);
            bad = 1;
        }
    }
    struct yv s = rule_yv_member(cc, arg, "select"), r = rule_yv_member(cc, arg, "require");
    if (!s.v) {
        rule_cc_error(cc, arg.n, 0, "%s needs \"select\": the nodes it quantifies over", p->fn->name);
        return -1;
    }
    if (!(p->sel = rule_cc_sel(cc, s))) bad = 1;
    if (r.v && !(p->body = rule_cc_pred(cc, r))) bad = 1;
    if (!r.v && body_required) {
        rule_cc_error(cc, arg.n, 0, "every needs \"require\": what each selected node satisfies");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* ---- evaluators ---------------------------------------------------------------- */

static int is_integral(json_t *v)
{
    if (json_is_integer(v)) return 1;
    if (!json_is_real(v)) return 0;
    double x = json_real_value(v);
    return isfinite(x) && x == trunc(x);
}

static int eval_json_type(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *v = c->v;
    unsigned t = p->types;
    switch (json_typeof(v)) {
    case JSON_OBJECT: return !!(t & T_OBJECT);
    case JSON_ARRAY: return !!(t & T_ARRAY);
    case JSON_STRING: return !!(t & T_STRING);
    case JSON_INTEGER:
    case JSON_REAL: return (t & T_NUMBER) || ((t & T_INTEGER) && is_integral(v));
    case JSON_TRUE:
    case JSON_FALSE: return !!(t & T_BOOLEAN);
    default: return !!(t & T_NULL);
    }
}

static int eval_declared_type_is(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *t = json_object_get(c->v, "type");
    return json_is_string(t) && !strcmp(json_string_value(t), json_string_value(p->arg));
}

static int eval_declared_type_includes(const struct pred *p, const struct cursor *c,
                                       struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *t = json_object_get(c->v, "type"), *e;
    const char *want = json_string_value(p->arg);
    if (json_is_string(t)) return !strcmp(json_string_value(t), want);
    size_t i;
    json_array_foreach(t, i, e) if (json_is_string(e) && !strcmp(json_string_value(e), want)) return 1;
    return 0;
}

static int eval_has(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_object(c->v)) return 0;
    size_t i;
    json_t *k;
    json_array_foreach(p->arg, i, k) if (!json_object_get(c->v, json_string_value(k))) return 0;
    return 1;
}

static int eval_lacks(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_object(c->v)) return 1;
    size_t i;
    json_t *k;
    json_array_foreach(p->arg, i, k) if (json_object_get(c->v, json_string_value(k))) return 0;
    return 1;
}

int fn_json_equal(json_t *a, json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        if (json_is_integer(a) && json_is_integer(b)) return json_integer_value(a) == json_integer_value(b);
        if (json_is_real(a) && json_is_real(b)) return json_real_value(a) == json_real_value(b);
        json_t *i = json_is_integer(a) ? a : b, *r = json_is_integer(a) ? b : a;
        double x = json_real_value(r);
        /* exact: compare as integers only when the real is integral and in range */
        if (!isfinite(x) || x != trunc(x) || x < -9.2233720368547758e18 || x >= 9.2233720368547758e18)
            return 0;
        return (json_int_t)x == json_integer_value(i);
    }
    if (json_typeof(a) != json_typeof(b)) return 0;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b)) return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!fn_json_equal(json_array_get(a, i), json_array_get(b, i))) return 0;
        return 1;
    }
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b)) return 0;
        const char *k;
        json_t *v;
        json_object_foreach(a, k, v) {
            json_t *w = json_object_get(b, k);
            if (!w || !fn_json_equal(v, w)) return 0;
        }
        return 1;
    }
    return json_equal(a, b);
}

static int eval_equals(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    return fn_json_equal(c->v, p->arg);
}

static int eval_one_of(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    size_t i;
    json_t *e;
    json_array_foreach(p->arg, i, e) if (fn_json_equal(c->v, e)) return 1;
    return 0;
}

static int eval_all(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    for (size_t i = 0; i < p->nkids; i++)
        if (!fn_eval(p->kids[i], c, ctx)) return 0;
    return 1;
}

static int eval_any(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    for (size_t i = 0; i < p->nkids; i++)
        if (fn_eval(p->kids[i], c, ctx)) return 1;
    return 0;
}

static int eval_not(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    return !fn_eval(p->kids[0], c, ctx);
}

struct quant {
    const struct pred *p;
    struct eval_ctx *ctx;
};

static int every_visit(const struct cursor *c, void *arg)
{
    struct quant *q = arg;
    return !fn_eval(q->p->body, c, q->ctx); /* stop at the first counterexample */
}

static int some_visit(const struct cursor *c, void *arg)
{
    struct quant *q = arg;
    return !q->p->body || fn_eval(q->p->body, c, q->ctx); /* stop at the first witness */
}

static int eval_every(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct quant q = {p, ctx};
    return !sel_run(p->sel, &ctx->sctx, c, every_visit, &q);
}

static int eval_some(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct quant q = {p, ctx};
    return sel_run(p->sel, &ctx->sctx, c, some_visit, &q) != 0;
}

static int arg_values(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "one-of takes a non-empty list of values");
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

const struct fn_def fn_table[] = {
    {"json-type", "TYPE or [TYPE, ...]",
     "the node's JSON type is one of these (integer also matches 1.0; number matches any number)",
     arg_types, eval_json_type},
    {"declared-type-is", "TYPE-NAME",
     "the node is an object whose \"type\" is exactly this string", arg_string, eval_declared_type_is},
    {"declared-type-includes", "TYPE-NAME",
     "the node is an object whose \"type\" is this string or an array containing it", arg_string,
     eval_declared_type_includes},
    {"has", "MEMBER or [MEMBER, ...]", "the node is an object with every one of these members",
     arg_strings, eval_has},
    {"lacks", "MEMBER or [MEMBER, ...]", "the node is not an object, or has none of these members",
     arg_strings, eval_lacks},
    {"equals", "VALUE", "the node equals this JSON value (1 equals 1.0; member order is irrelevant)",
     arg_any, eval_equals},
    {"one-of", "[VALUE, ...]", "the node equals one of these JSON values", arg_values, eval_one_of},
    {"all", "[PREDICATE, ...]", "every predicate holds", arg_preds, eval_all},
    {"any", "[PREDICATE, ...]", "at least one predicate holds", arg_preds, eval_any},
    {"not", "PREDICATE", "the predicate does not hold", arg_pred, eval_not},
    {"every", "{select: SELECTOR, require: PREDICATE}",
     "every node the selector reaches from here satisfies the predicate (true when none)",
     arg_quantifier, eval_every},
    {"some", "{select: SELECTOR, require: PREDICATE}",
     "at least one node the selector reaches satisfies the predicate (or exists, without require)",
     arg_quantifier, eval_some},
    {"use", "NAME", "the predicate defined as NAME under the file's \"predicates:\"", arg_use, eval_all},
};
const size_t fn_count = sizeof fn_table / sizeof fn_table[0];

const struct fn_def *fn_lookup(const char *name)
{
    for (size_t i = 0; i < fn_schema_count; i++)
        if (!strcmp(fn_schema_table[i].name, name)) return &fn_schema_table[i];
    for (size_t i = 0; i < fn_count; i++)
        if (!strcmp(fn_table[i].name, name)) return &fn_table[i];
    return NULL;
}
