/* fn_pair.c - the predicates of change rules (rules-yaml/README.md, "Change rules"),
 * which read the pair being judged (eval_ctx.pair): whether the item has a counterpart,
 * the node at the same place on the other side (its counterpart), and whether the node is
 * unchanged there. "The same place" is the node's path below its item (member names, and
 * item indexes, except that a scalar item is the other array's equal item and an item
 * with a string "name" the other array's item of that name), taken from the other side's item: a tool's inputSchema/properties/q in OLD
 * is inputSchema/properties/q of the tool of the same name in NEW, and a prompt's
 * arguments/2 the argument of the same name. */
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/fnInt.h"
#include "schema/schema_compat.h"

/* paired: BOOL */
int fn_pair_arg_bool(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_boolean(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes true or false, not a %s", p->fn->name,
                      rule_json_type_name(arg.v));
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_pair_eval_paired(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)c;
    const struct rule_pair *pr = ctx->pair;
    int both = pr && pr->old.item && pr->new.item;
    return both == json_is_true(p->arg);
}

/* The item of the side being judged (NULL outside a pair). */
static const struct cursor *side_item(const struct eval_ctx *ctx)
{
    if (!ctx->pair) return NULL;
    return ctx->side == RULE_SIDE_OLD ? ctx->pair->old.item : ctx->pair->new.item;
}

const struct rule_pair_side *fn_pair_other(const struct eval_ctx *ctx)
{
    if (!ctx->pair) return NULL;
    return ctx->side == RULE_SIDE_OLD ? &ctx->pair->new : &ctx->pair->old;
}

/* The item of ARR at V's place: for a scalar V the item equal to it (an enum value, a
 * required name, a protocol version: their order means nothing); the object whose "name"
 * is V's when V has a string name (a prompt's arguments, matched by name whatever their
 * order); else item INDEX. SIZE_MAX when there is none. */
static size_t same_item(json_t *v, json_t *arr, size_t index)
{
    if (!json_is_object(v) && !json_is_array(v)) {
        for (size_t k = 0; k < json_array_size(arr); k++)
            if (json_equal(v, json_array_get(arr, k))) return k;
        return SIZE_MAX;
    }
    const char *name = json_string_value(json_object_get(v, "name"));
    if (!name) return index;
    for (size_t k = 0; k < json_array_size(arr); k++) {
        const char *other = json_string_value(json_object_get(json_array_get(arr, k), "name"));
        if (other && !strcmp(other, name)) return k;
    }
    return SIZE_MAX;
}

int fn_pair_counterpart(const struct eval_ctx *ctx, const struct cursor *c, struct cursor *steps,
                        size_t max, const struct cursor **out)
{
    const struct cursor *item = side_item(ctx);
    const struct rule_pair_side *other = fn_pair_other(ctx);
    *out = NULL;
    if (!item || !other || !other->item || c->depth < item->depth) return -1;
    size_t n = (size_t)(c->depth - item->depth);
    if (n > max) return -1;
    const struct cursor **path = xcalloc(n ? n : 1, sizeof *path);
    const struct cursor *k = c;
    for (size_t i = n; i-- > 0; k = k->parent) path[i] = k;
    struct sel_ctx sc = {other->d, other->view};
    const struct cursor *at = other->item;
    size_t i = 0;
    for (; i < n; i++) {
        int rc = path[i]->key ? sel_member(&sc, at, path[i]->key, &steps[i])
            : json_is_array(at->v)
            ? sel_item(&sc, at, same_item(path[i]->v, at->v, path[i]->index), &steps[i])
            : -1;
        if (rc < 0) break;
        at = &steps[i];
    }
    free(path);
    *out = at;
    return i == n ? 0 : 1;
}

/* The steps a counterpart of C can take: one per level below its item (C's depth bounds
 * them), allocated to that size rather than to a fixed bound on every evaluation. */
#define PAIR_STEPS(c) ((size_t)(c)->depth + 1)

/* Evaluate P at the counterpart CP with the other side's document in view. */
static int eval_on_other(const struct pred *p, const struct cursor *cp, struct eval_ctx *ctx)
{
    const struct rule_pair_side *other = fn_pair_other(ctx);
    struct sel_ctx saved = ctx->sctx;
    int side = ctx->side;
    ctx->sctx = (struct sel_ctx){other->d, other->view};
    ctx->side = side == RULE_SIDE_OLD ? RULE_SIDE_NEW : RULE_SIDE_OLD;
    int ok = fn_eval(p, cp, ctx);
    ctx->sctx = saved;
    ctx->side = side;
    return ok;
}

/* counterpart: PREDICATE */
int fn_pair_eval_counterpart(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct cursor *steps = xcalloc(PAIR_STEPS(c), sizeof *steps);
    const struct cursor *cp;
    int ok = fn_pair_counterpart(ctx, c, steps, PAIR_STEPS(c), &cp) == 0 &&
        eval_on_other(p->kids[0], cp, ctx);
    free(steps);
    return ok;
}

/* unchanged: true (false: the node differs, or is absent, on the other side). {detail}
 * says what the other side has. */
int fn_pair_eval_unchanged(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct cursor *steps = xcalloc(PAIR_STEPS(c), sizeof *steps);
    const struct cursor *cp;
    int found = fn_pair_counterpart(ctx, c, steps, PAIR_STEPS(c), &cp) == 0;
    int same = found && json_equal(c->v, cp->v);
    if (!same) {
        buf_reset(&ctx->detail);
        if (!found) {
            buf_adds(&ctx->detail, "absent");
        } else {
            char *s = json_dumps(cp->v, JSON_COMPACT | JSON_ENCODE_ANY);
            size_t len = strlen(s), cut = len > 80 ? 77 : len;
            while (cut < len && cut && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
            buf_add(&ctx->detail, s, cut);
            if (cut < len) buf_adds(&ctx->detail, "...");
            free(s);
        }
    }
    free(steps);
    return same == json_is_true(p->arg);
}

/* no-schema-change: [KIND, ...] or {changes: [KIND, ...], dialect: DIALECT, root-type: TYPE} */
int fn_pair_arg_schema_change(struct cc *cc, struct pred *p, struct yv arg)
{
    struct yv kinds = arg, dia = {NULL, 0}, root = {NULL, 0};
    if (json_is_object(arg.v)) {
        kinds = rule_yv_member(cc, arg, "changes");
        dia = rule_yv_member(cc, arg, "dialect");
        root = rule_yv_member(cc, arg, "root-type");
        const char *key;
        json_t *v;
        json_object_foreach(arg.v, key, v)
        {
            if (strcmp(key, "changes") && strcmp(key, "dialect") && strcmp(key, "root-type")) {
                rule_cc_error(cc, arg.n, 0,
                              "no-schema-change takes [KIND, ...] or {changes: [KIND, ...], "
                              "dialect: DIALECT, root-type: TYPE}, not \"%s\"",
                              key);
                return -1;
            }
        }
    }
    if (!json_is_array(kinds.v) || !json_array_size(kinds.v)) {
        rule_cc_error(cc, kinds.v ? kinds.n : arg.n, 0,
                      "no-schema-change takes a non-empty list of kinds of change (%s, ...)",
                      schema_compat_kind_names[0]);
        return -1;
    }
    json_int_t mask = 0;
    for (size_t i = 0; i < json_array_size(kinds.v); i++) {
        struct yv k = rule_yv_item(cc, kinds, i);
        int kind = schema_change_kind_parse(json_string_value(k.v));
        if (kind < 0) {
            const char *near = json_is_string(k.v)
                ? rule_cc_nearest(json_string_value(k.v), schema_compat_kind_names)
                : NULL;
            rule_cc_error_hint(cc, k.n, 0,
                               "the kinds are those of rules-yaml/README.md, \"Change rules\" "
                               "(type-narrowed, required-added, unprovable, ...)",
                               "no-schema-change: unknown kind of change %s%s%s%s",
                               json_is_string(k.v) ? json_string_value(k.v) : "(not a string)",
                               near ? ": did you mean \"" : "", near ? near : "",
                               near ? "\"?" : "");
            return -1;
        }
        mask |= (json_int_t)1 << kind;
    }
    enum schema_dialect d = SCHEMA_DRAFT2020_12;
    if (dia.v && (d = schema_dialect_parse(json_string_value(dia.v))) == SCHEMA_DIALECT_NONE) {
        rule_cc_error(cc, dia.n, 0,
                      "no-schema-change: dialect is 2020-12, 2019-09, draft-07, draft-06 or "
                      "draft-04");
        return -1;
    }
    static const char *const types[] = {"object",  "array",   "string", "number",
                                        "integer", "boolean", "null",   NULL};
    const char *rt = json_string_value(root.v);
    size_t t = 0;
    while (rt && types[t] && strcmp(types[t], rt)) t++;
    if (root.v && (!rt || !types[t])) {
        rule_cc_error(cc, root.n, 0,
                      "no-schema-change: root-type is a JSON type (object, array, string, "
                      "number, integer, boolean, null): the type of every value the schema "
                      "judges at its root");
        return -1;
    }
    p->arg = json_pack("{s:I,s:i,s:s?}", "mask", mask, "dialect", (int)d, "root-type", rt);
    return 0;
}

struct change_walk {
    struct eval_ctx *ctx;
    json_int_t mask;
    int side; /* the judged node's side: its places are reported */
    size_t found;
};

static int each_change(const struct schema_change *ch, void *arg)
{
    struct change_walk *w = arg;
    if (!(w->mask & ((json_int_t)1 << ch->kind))) return 0;
    if (!w->found++) fn_places_reset(w->ctx);
    const char *at = w->side == RULE_SIDE_OLD ? ch->old_at : ch->new_at;
    /* where in the schema: a report without pointers (a changelog) still says which one */
    char *detail = *at ? xasprintf("%s (at %s)", ch->detail, at) : NULL;
    fn_places_add(w->ctx, at, detail ? detail : ch->detail);
    free(detail);
    return 0;
}

/* The node, a JSON Schema, against its counterpart: holds when the change from OLD's to
 * NEW's holds none of the kinds (schema/schema_compat.h), or when the other side has no
 * schema there (another rule reports a schema added or removed). Each change found is a
 * place (report-at: failure reports each). */
int fn_pair_eval_schema_change(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct cursor *steps = xcalloc(PAIR_STEPS(c), sizeof *steps);
    const struct cursor *cp;
    int found = fn_pair_counterpart(ctx, c, steps, PAIR_STEPS(c), &cp) == 0;
    struct change_walk w = {ctx, json_integer_value(json_object_get(p->arg, "mask")), ctx->side, 0};
    if (found) {
        json_t *old = ctx->side == RULE_SIDE_OLD ? c->v : cp->v;
        json_t *new = ctx->side == RULE_SIDE_OLD ? cp->v : c->v;
        enum schema_dialect d =
            (enum schema_dialect)json_integer_value(json_object_get(p->arg, "dialect"));
        if ((ctx->same_old == old && ctx->same_new == new) || schema_compat_roots_equal(old, new)) {
            ctx->same_old = old, ctx->same_new = new; /* the pair's other rules ask again */
            free(steps);
            return 1;
        }
        schema_compat_compare_root(
            old, new, d, json_string_value(json_object_get(p->arg, "root-type")), each_change, &w);
    }
    free(steps);
    if (!w.found) return 1;
    fn_places_summarize(ctx, 0);
    return 0;
}
