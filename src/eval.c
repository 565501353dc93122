/* eval.c - the interpreter: clauses select nodes, guard them with `when`, judge them
 * with `require`, and report one diagnostic per failing node whose versions are all
 * the node's versions for which the clause applies (predicates do not depend on the
 * version, so one evaluation serves every version). */
#include "eval.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "overlap.h"
#include "res.h"
#include "ruleInt.h"
#include "schema.h"

struct visit {
    struct eval_ctx *ctx;
    const struct clause *cl;
    ver_mask m;
    ver_mask failed;
};

static ver_mask run_clause(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m);


/* Expand {pointer} {key} {value} {type} {versions} {detail} in a message template. */
static char *expand(const char *tmpl, const struct cursor *c, const char *pointer, ver_mask m,
                    const struct ver_list *vl, const struct buf *detail)
{
    struct buf b = BUF_INIT;
    for (const char *p = tmpl; *p; p++) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            buf_addc(&b, *p);
            continue;
        }
        size_t n = (size_t)(close - p - 1);
        if (n == 7 && !strncmp(p + 1, "pointer", n)) buf_adds(&b, pointer);
        else if (n == 3 && !strncmp(p + 1, "key", n)) {
            if (c->key) buf_adds(&b, c->key);
            else buf_addf(&b, "%zu", c->index);
        } else if (n == 4 && !strncmp(p + 1, "type", n)) buf_adds(&b, schema_type_name(c->v));
        else if (n == 8 && !strncmp(p + 1, "versions", n)) ver_format(&b, vl, m, ", ");
        else if (n == 6 && !strncmp(p + 1, "detail", n)) buf_adds(&b, buf_str(detail));
        else if (n == 5 && !strncmp(p + 1, "value", n)) {
            char *s = json_dumps(c->v, JSON_COMPACT | JSON_ENCODE_ANY);
            size_t len = strlen(s);
            if (len > 60) buf_addf(&b, "%.57s...", s);
            else buf_adds(&b, s);
            free(s);
        } else {
            buf_add(&b, p, n + 2); /* not a placeholder: keep the braces (JSON in messages) */
        }
        p = close;
    }
    return buf_detach(&b);
}

static void report(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c, ver_mask m)
{
    const struct rule *r = ctx->rule;
    const struct ver_list *vl = rule_set_versions(ctx->rs);
    char *pointer = sel_pointer(c);
    char *msg = expand(cl->message, c, pointer, m, vl, &ctx->detail);
    struct doc_pos pos = doc_node_pos(ctx->sctx.d, c->node);
    struct diag *dg = diag_add(ctx->out, r->level, r->id, doc_name(ctx->sctx.d), pos.line, pos.col, msg);
    dg->pointer = pointer;
    dg->versions = m;
    dg->hint = cl->hint ? expand(cl->hint, c, pointer, m, vl, &ctx->detail) : NULL;
    dg->component = c->component ? xstrdup(c->component) : NULL;
    free(msg);
}

static ver_mask judge(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c, ver_mask m)
{
    m &= c->vmask;
    if (!m || c->unresolved) return 0; /* its built-in diagnostic says it all */
    if (cl->when && !fn_eval(cl->when, c, ctx)) return 0;
    if (cl->require) {
        buf_reset(&ctx->detail);
        if (fn_eval(cl->require, c, ctx)) return 0;
        report(ctx, cl, c, m);
        return m;
    }
    ver_mask failed = 0, remaining = m;
    for (size_t i = 0; i < cl->nkids && remaining; i++) {
        ver_mask f = run_clause(ctx, cl->kids[i], c, cl->first ? remaining : m);
        failed |= f;
        if (cl->first) remaining &= ~f;
    }
    return failed;
}

static int visit(const struct cursor *c, void *arg)
{
    struct visit *v = arg;
    v->failed |= judge(v->ctx, v->cl, c, v->m);
    return 0;
}

static ver_mask run_clause(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m)
{
    m &= cl->vmask;
    if (!m) return 0;
    if (!cl->nsels) return judge(ctx, cl, c, m);
    struct visit v = {ctx, cl, m, 0};
    for (size_t i = 0; i < cl->nsels; i++) sel_run(cl->sels[i], &ctx->sctx, c, visit, &v);
    return v.failed;
}

size_t eval_document(const struct rule_set *rs, doc *d, const struct eval_options *opts,
                     struct diag_list *out)
{
    size_t before = out->len;
    struct diag_list found = DIAG_LIST_INIT;
    struct res *res = res_resolve(d, rule_set_res_config(rs), &found);
    ver_mask want = opts && opts->versions ? opts->versions : ver_all(rule_set_versions(rs));
    struct eval_ctx ctx = {rs, NULL, {d, res, res_doc_mask(res)}, &found, BUF_INIT, NULL};
    struct cursor root;
    sel_root(&ctx.sctx, &root);
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (opts && opts->enabled && !opts->enabled(r->id, opts->enabled_arg)) continue;
        ver_mask m = r->applies & want;
        if (!m) continue;
        ctx.rule = r;
        run_clause(&ctx, r->check, &root, m);
    }
    fn_indexes_free(&ctx);
    res_free(res);
    buf_release(&ctx.detail);
    /* keep what the options ask for: enabled rules, requested versions */
    for (size_t i = 0; i < found.len; i++) {
        struct diag *dg = &found.items[i];
        int keep = !(opts && opts->enabled) || opts->enabled(dg->rule, opts->enabled_arg);
        if (dg->rule && !strncmp(dg->rule, "mcpdesc.", 8) && opts && opts->versions && dg->versions)
            dg->versions &= want;
        if (keep) {
            if (out->len == out->cap) {
                out->cap = out->cap ? out->cap * 2 : 16;
                out->items = xrealloc(out->items, out->cap * sizeof *out->items);
            }
            out->items[out->len++] = *dg;
        } else {
            diag_clear(dg);
        }
    }
    free(found.items);
    diag_sort_merge(out);
    overlap_filter(rs, out, before);
    return out->len - before;
}
