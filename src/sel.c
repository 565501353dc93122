/* sel.c - selectors and cursor stepping; see sel.h. Stepping follows resolved
 * $componentRef sites (res.h) so that positions stay those of the source. */
#include "sel.h"

#include <string.h>

#include "buf.h"
#include "ptr.h"
#include "res.h"
#include "util.h"

struct sel {
    char *text;
    int absolute;
    struct ptr segs;      /* a segment "*" is the wildcard */
    int wildcard;
};

struct sel *sel_compile(const char *text, const char **why)
{
    struct sel *s = xcalloc(1, sizeof *s);
    s->text = xstrdup(text);
    s->absolute = text[0] == '/';
    if (!*text) {
        *why = "a selector must not be empty (use a pointer such as /tools/* or properties)";
        sel_free(s);
        return NULL;
    }
    char *full = s->absolute ? xstrdup(text) : xasprintf("/%s", text);
    int rc = ptr_parse(full, &s->segs, why);
    free(full);
    if (rc < 0) {
        sel_free(s);
        return NULL;
    }
    for (size_t i = 0; i < s->segs.n; i++)
        if (!strcmp(s->segs.segs[i], "*")) s->wildcard = 1;
    return s;
}

void sel_free(struct sel *s)
{
    if (!s) return;
    ptr_release(&s->segs);
    free(s->text);
    free(s);
}

int sel_is_absolute(const struct sel *s) { return s->absolute; }
int sel_has_wildcard(const struct sel *s) { return s->wildcard; }
const char *sel_text(const struct sel *s) { return s->text; }

void sel_root(const struct sel_ctx *ctx, struct cursor *out)
{
    memset(out, 0, sizeof *out);
    out->v = doc_root(ctx->d);
    out->node = 0;
    out->vmask = ctx->doc_mask;
    out->coll = -1;
}

/* Fill the parts of a child cursor that depend on where it is. */
static void enter(const struct sel_ctx *ctx, const struct cursor *c, struct cursor *out)
{
    out->parent = c;
    out->component = c->component;
    out->vmask = c->vmask;
    out->coll = -1;
    out->unresolved = 0;
    out->depth = c->depth + 1;
    if (ctx->res) {
        if (c->depth == 0 && out->key) out->coll = res_collection(ctx->res, out->key);
        else if (c->depth == 1 && c->coll >= 0 && !out->key)
            out->vmask = res_item_mask(ctx->res, c->coll, out->index);
        doc_node target;
        const char *component;
        if (out->node != DOC_NONE && res_follow(ctx->res, out->node, &target, &component)) {
            out->node = target;
            out->component = component;
        } else if (out->node != DOC_NONE) {
            out->unresolved = res_unresolved(ctx->res, out->node);
        }
    }
}

int sel_member(const struct sel_ctx *ctx, const struct cursor *c, const char *key,
               struct cursor *out)
{
    if (!json_is_object(c->v)) return -1;
    json_t *v = json_object_get(c->v, key);
    if (!v) return -1;
    const char *stable = NULL;
    doc_node n = c->node == DOC_NONE ? DOC_NONE
                                     : doc_node_member_key(ctx->d, c->node, c->v, key, &stable);
    if (!stable) { /* no source node (should not happen): find the object's own key copy */
        for (void *it = json_object_iter(c->v); it; it = json_object_iter_next(c->v, it))
            if (!strcmp(json_object_iter_key(it), key)) stable = json_object_iter_key(it);
    }
    out->v = v;
    out->key = stable;
    out->index = 0;
    out->node = n;
    enter(ctx, c, out);
    return 0;
}

int sel_item(const struct sel_ctx *ctx, const struct cursor *c, size_t idx, struct cursor *out)
{
    if (!json_is_array(c->v) || idx >= json_array_size(c->v)) return -1;
    out->v = json_array_get(c->v, idx);
    out->key = NULL;
    out->index = idx;
    out->node = c->node == DOC_NONE ? DOC_NONE : doc_node_array_item(ctx->d, c->node, c->v, idx);
    enter(ctx, c, out);
    return 0;
}

static int run_from(const struct sel *s, size_t i, const struct sel_ctx *ctx,
                    const struct cursor *c, sel_visit_fn fn, void *arg)
{
    if (i == s->segs.n) return fn(c, arg);
    const char *seg = s->segs.segs[i];
    struct cursor child;
    if (strcmp(seg, "*") != 0) {
        size_t idx;
        if (json_is_object(c->v)) {
            if (sel_member(ctx, c, seg, &child) < 0) return 0;
        } else if (json_is_array(c->v) && ptr_is_index(seg, &idx)) {
            if (sel_item(ctx, c, idx, &child) < 0) return 0;
        } else {
            return 0;
        }
        return run_from(s, i + 1, ctx, &child, fn, arg);
    }
    /* Wildcard: walk children and their source nodes side by side (O(1) per step). */
    doc_node n = c->node == DOC_NONE ? DOC_NONE : doc_node_first_child(ctx->d, c->node);
    int rc = 0;
    if (json_is_object(c->v)) {
        for (void *it = json_object_iter(c->v); it && !rc; it = json_object_iter_next(c->v, it)) {
            child.v = json_object_iter_value(it);
            child.key = json_object_iter_key(it);
            child.index = 0;
            child.node = n;
            enter(ctx, c, &child);
            rc = run_from(s, i + 1, ctx, &child, fn, arg);
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    } else if (json_is_array(c->v)) {
        size_t len = json_array_size(c->v);
        for (size_t k = 0; k < len && !rc; k++) {
            child.v = json_array_get(c->v, k);
            child.key = NULL;
            child.index = k;
            child.node = n;
            enter(ctx, c, &child);
            rc = run_from(s, i + 1, ctx, &child, fn, arg);
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    }
    return rc;
}

int sel_run(const struct sel *s, const struct sel_ctx *ctx, const struct cursor *from,
            sel_visit_fn fn, void *arg)
{
    struct cursor root;
    if (s->absolute || !from) {
        sel_root(ctx, &root);
        from = &root;
    }
    return run_from(s, 0, ctx, from, fn, arg);
}

static void append_path(struct buf *b, const struct cursor *c)
{
    if (!c->parent) return;
    append_path(b, c->parent);
    if (c->key) ptr_append_segment(b, c->key, strlen(c->key));
    else ptr_append_index(b, c->index);
}

char *sel_pointer(const struct cursor *c)
{
    struct buf b = BUF_INIT;
    append_path(&b, c);
    return buf_detach(&b);
}
