/* fn_walk.c - the predicates that walk every value below the node: every-descendant
 * (a predicate at each) and nesting (how deep it goes), each bounded in the values it
 * visits and the depth it reaches (FN_WALK_MAX_*, fnInt.h). */
#include "rules/fnInt.h"

/* ---- every-descendant: PREDICATE ---- */

struct walk {
    const struct pred *body;
    struct eval_ctx *ctx;
    size_t budget;
};

/* 0 when a node below C fails the body (nodes past the bounds are not examined). */
static int walk_below(struct walk *w, const struct cursor *c, int depth)
{
    if (depth >= FN_WALK_MAX_DEPTH) return 1;
    struct cursor k;
    if (json_is_object(c->v)) {
        for (void *it = json_object_iter(c->v); it; it = json_object_iter_next(c->v, it)) {
            if (!w->budget) return 1;
            w->budget--;
            if (sel_member(&w->ctx->sctx, c, json_object_iter_key(it), &k) < 0) continue;
            if (!fn_eval(w->body, &k, w->ctx) || !walk_below(w, &k, depth + 1)) return 0;
        }
    } else if (json_is_array(c->v)) {
        for (size_t i = 0; i < json_array_size(c->v); i++) {
            if (!w->budget) return 1;
            w->budget--;
            if (sel_item(&w->ctx->sctx, c, i, &k) < 0) continue;
            if (!fn_eval(w->body, &k, w->ctx) || !walk_below(w, &k, depth + 1)) return 0;
        }
    }
    return 1;
}

int fn_eval_every_descendant(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct walk w = {p->kids[0], ctx, FN_WALK_MAX_NODES};
    return walk_below(&w, c, 0);
}

/* Depth-first over containers with an explicit stack (no recursion, so a deep value
 * costs no C stack): true unless some value lies more than max steps below the node.
 * Like every-descendant, at most FN_WALK_MAX_NODES values are visited (substituted
 * components are shared subtrees, so a tree may be far larger than its text). */
int fn_eval_nesting(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    size_t max = (size_t)json_integer_value(json_object_get(p->arg, "max"));
    struct frame {
        json_t *v;
        size_t next; /* array index */
        void *iter;  /* object iterator */
    } stack[FN_WALK_MAX_DEPTH + 2];
    size_t top = 0, visited = 0;
    if (!json_is_array(c->v) && !json_is_object(c->v)) return 1;
    stack[0] = (struct frame){c->v, 0, json_is_object(c->v) ? json_object_iter(c->v) : NULL};
    for (;;) {
        struct frame *f = &stack[top];
        json_t *child = NULL;
        if (json_is_array(f->v)) {
            if (f->next < json_array_size(f->v)) child = json_array_get(f->v, f->next++);
        } else if (f->iter) {
            child = json_object_iter_value(f->iter);
            f->iter = json_object_iter_next(f->v, f->iter);
        }
        if (!child) {
            if (top-- == 0) return 1;
            continue;
        }
        if (++visited > FN_WALK_MAX_NODES) return 1;
        if (top + 1 > max) return 0; /* the child lies top + 1 steps below the node */
        if (json_is_array(child) || json_is_object(child))
            stack[++top] =
                (struct frame){child, 0, json_is_object(child) ? json_object_iter(child) : NULL};
    }
}
