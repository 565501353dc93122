/* schema_obj.c - the compiled schema as a value: the tree of its subschemas' JSON
 * pointers, the keyword locations of messages, its dialect, and schema_free. Below
 * the context (which frees its cached meta-schemas), the compiler and the validator. */
#include <stdlib.h>
#include <string.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

void schema_ptr_append(const schema *s, size_t id, struct buf *b)
{
    size_t depth = 0, i;
    for (i = id; i != SCHEMA_NONE; i = s->ptrs.items[i].parent) depth++;
    size_t *chain = xmalloc((depth ? depth : 1) * sizeof *chain), k = depth;
    for (i = id; i != SCHEMA_NONE; i = s->ptrs.items[i].parent) chain[--k] = i;
    for (k = 0; k < depth; k++) buf_adds(b, s->ptrs.items[chain[k]].seg);
    free(chain);
}

size_t schema_ptr_new(schema *s, size_t parent, const char *seg)
{
    struct schema_ptrent e = {parent, xstrdup(seg)};
    VEC_PUSH(s->ptrs, e);
    return s->ptrs.len - 1;
}

char *schema_kwloc(const schema *s, const struct schema_node *n, const char *kw, const char *extra)
{
    struct buf b = BUF_INIT;
    if (n->doc != 0 || !s->root_plain) {
        buf_adds(&b, s->docs.items[n->doc].uri);
        buf_addc(&b, '#');
    }
    schema_ptr_append(s, n->ptr, &b);
    if (kw) ptr_append_segment(&b, kw, strlen(kw));
    if (extra) buf_adds(&b, extra);
    return b.s ? buf_detach(&b) : xstrdup("");
}

enum schema_dialect schema_root_dialect(const schema *s)
{
    return s->root_draft;
}

static void kw_free(struct schema_kw *k)
{
    switch (k->kind) {
    case SK_ALLOF:
    case SK_ANYOF:
    case SK_ONEOF:
    case SK_PREFIXITEMS: free(k->u.list.nodes); break;
    case SK_PROPERTIES:
    case SK_DEPSCHEMAS:
        free(k->u.props.names);
        free(k->u.props.lens);
        free(k->u.props.nodes);
        break;
    case SK_PATTERNPROPS:
        free(k->u.pprops.re);
        free(k->u.pprops.nodes);
        break;
    case SK_ADDPROPS: free(k->u.addprops.re); break;
    case SK_DYNREF: free(k->u.ref.anchor); break;
    default: break;
    }
}

void schema_free(schema *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nodes.len; i++) {
        struct schema_node *n = s->nodes.items[i];
        schema_fast_free(n);
        for (size_t k = 0; k < n->nkw; k++) kw_free(&n->kws[k]);
        free(n->kws);
        free(n);
    }
    VEC_FREE(s->nodes);
    for (size_t i = 0; i < s->res.len; i++) {
        struct schema_res *r = s->res.items[i];
        for (size_t k = 0; k < r->dyn.len; k++) free(r->dyn.items[k].name);
        VEC_FREE(r->dyn);
        free(r->uri);
        free(r);
    }
    VEC_FREE(s->res);
    for (size_t i = 0; i < s->docs.len; i++) {
        free(s->docs.items[i].uri);
        json_decref(s->docs.items[i].root);
    }
    VEC_FREE(s->docs);
    for (size_t i = 0; i < s->regexes.len; i++) schema_re_free(s->regexes.items[i]);
    VEC_FREE(s->regexes);
    for (size_t i = 0; i < s->ptrs.len; i++) free(s->ptrs.items[i].seg);
    VEC_FREE(s->ptrs);
    pcre2_match_context_free(s->mctx);
    schema_fast_release(s);
    free(s);
}
