/* schema_index.c - the index of identifiers: the documents of a compilation, each
 * walked once for its schema resources ($id), anchors ($anchor, $dynamicAnchor, and
 * the fragment ids of draft-07 and before) and the JSON pointer of every subschema; a
 * reference's target looked up in it (documents loaded through the context when
 * needed); and the compile errors located in the schema (schema_cerr_at, schema_cerr),
 * which the compiler shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

void schema_cerr_at(struct schema_cstate *cs, uint32_t doc, const char *ptr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    char *kw = doc == 0 && cs->s->root_plain ? xstrdup(ptr)
                                             : xasprintf("%s#%s", cs->s->docs.items[doc].uri, ptr);
    schema_errors_add(cs->errs, kw, doc == 0 ? ptr : "", "%s", msg);
    free(kw);
    free(msg);
    cs->nerr++;
}

void schema_cerr(struct schema_cstate *cs, const struct schema_node *n, const char *kw,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    char *kwl = schema_kwloc(cs->s, n, kw, NULL);
    char *il = NULL;
    if (n->doc == 0) {
        struct buf b = BUF_INIT;
        schema_ptr_append(cs->s, n->ptr, &b);
        if (kw) ptr_append_segment(&b, kw, strlen(kw));
        il = b.s ? buf_detach(&b) : xstrdup("");
    }
    schema_errors_add(cs->errs, kwl, il ? il : "", "%s", msg);
    free(kwl);
    free(il);
    free(msg);
    cs->nerr++;
}

static size_t new_res(struct schema_cstate *cs, char *uri, json_t *root, uint32_t doc, size_t ptr,
                      int draft, unsigned vocab)
{
    struct schema_res *r = xcalloc(1, sizeof *r);
    r->uri = uri;
    r->root = root;
    r->doc = doc;
    r->ptr = ptr;
    r->draft = draft;
    r->vocab = vocab;
    r->root_node = SCHEMA_NONE;
    size_t idx = cs->s->res.len;
    VEC_PUSH(cs->s->res, r);
    if (!schema_smap_get(&cs->resmap, uri, NULL)) schema_smap_put(&cs->resmap, uri, idx);
    return idx;
}

static void add_anchor(struct schema_cstate *cs, const char *base, const char *name, size_t loc)
{
    char *k = xasprintf("%s#%s", base, name);
    if (!schema_smap_get(&cs->anchors, k, NULL)) schema_smap_put(&cs->anchors, k, loc);
    free(k);
}

static const char *const SUB_ONE[] = {"additionalItems",
                                      "additionalProperties",
                                      "contains",
                                      "contentSchema",
                                      "else",
                                      "if",
                                      "items",
                                      "not",
                                      "propertyNames",
                                      "then",
                                      "unevaluatedItems",
                                      "unevaluatedProperties"};
static const char *const SUB_ARRAY[] = {"allOf", "anyOf", "oneOf", "prefixItems", "items"};
static const char *const SUB_MAP[] = {"$defs",        "definitions",       "dependentSchemas",
                                      "dependencies", "patternProperties", "properties"};

/* Report each URI-like keyword of J (at PTR of DOC) whose value holds a NUL: cut short
 * at the NUL it would name another resource or anchor. */
static void refuse_nul(struct schema_cstate *cs, json_t *j, uint64_t pres, uint32_t doc,
                       struct buf *ptr, int draft)
{
    static const struct {
        const char *kw, *what;
        int min, max; /* drafts where the keyword is in effect */
    } KWS[] = {{"$ref", "reference", 0, 9999},
               {"id", "identifier", 4, 4},
               {"$id", "identifier", 6, 9999},
               {"$anchor", "anchor", 2019, 9999},
               {"$recursiveRef", "reference", 2019, 2019},
               {"$dynamicRef", "reference", 2020, 9999},
               {"$dynamicAnchor", "anchor", 2020, 9999}};
    size_t mark = ptr->len;
    for (size_t i = 0; i < sizeof KWS / sizeof KWS[0]; i++) {
        json_t *v = schema_kw_get(pres, j, KWS[i].kw);
        if (draft < KWS[i].min || draft > KWS[i].max || !schema_has_nul(v)) continue;
        ptr_append_segment(ptr, KWS[i].kw, strlen(KWS[i].kw));
        char *m = schema_nul_message(KWS[i].what, KWS[i].kw, v);
        schema_cerr_at(cs, doc, buf_str(ptr), "%s", m);
        free(m);
        buf_truncate(ptr, mark);
    }
}

/* Where walk() is: the pointer entry of the nearest indexed ancestor and the length
 * of its pointer (the part of the walk's buffer that it already stores). */
struct wparent {
    size_t id, len;
};

/* Index identifiers of the subschema J (at PTR of DOC, inside resource RES). */
static void walk(struct schema_cstate *cs, json_t *j, uint32_t doc, struct buf *ptr,
                 struct wparent up, size_t res, unsigned depth, int is_doc_root)
{
    if (depth > cs->s->lim.max_depth) {
        if (!cs->bound_reported++)
            schema_cerr_at(cs, doc, buf_str(ptr),
                           "schema is nested deeper than the bound max_depth=%u",
                           (unsigned)cs->s->lim.max_depth);
        return;
    }
    if (!json_is_object(j) || schema_map_get(&cs->locmap, &j, sizeof j, NULL)) return;
    struct schema_res *R = cs->s->res.items[res];
    int draft = R->draft;
    size_t pid = schema_ptr_new(cs->s, up.id, buf_str(ptr) + up.len);
    uint64_t pres = schema_kw_bits(j);
    refuse_nul(cs, j, pres, doc, ptr, draft);
    json_t *idv = schema_kw_get(pres, j, draft == 4 ? "id" : "$id");
    int has_ref = json_is_string(schema_kw_get(pres, j, "$ref"));
    char *old_anchor = NULL;
    if (json_is_string(idv) && !schema_has_nul(idv) && (draft >= 2019 || !has_ref)) {
        const char *id = json_string_value(idv);
        if (draft <= 7 && id[0] == '#') {
            old_anchor = xstrdup(id + 1);
        } else {
            char *bad = NULL;
            char *u = uri_resolve(R->uri, id, &bad);
            const char *frag = NULL;
            char *nofrag = u ? uri_split_fragment(u, &frag) : NULL;
            if (frag && *frag && *frag != '/' && draft <= 7) old_anchor = xstrdup(frag);
            free(u);
            if (!nofrag) {
                /* reported, and the subschema keeps the identifier of its parent */
                const char *kw = draft == 4 ? "id" : "$id";
                size_t mark = ptr->len;
                ptr_append_segment(ptr, kw, strlen(kw));
                schema_cerr_at(cs, doc, buf_str(ptr), "identifier \"%s\" %s", id, bad);
                buf_truncate(ptr, mark);
                free(bad);
            } else if (is_doc_root) {
                if (strcmp(nofrag, R->uri)) {
                    schema_smap_put(&cs->resmap, nofrag, res);
                    free(R->uri);
                    R->uri = nofrag;
                } else {
                    free(nofrag);
                }
            } else {
                int ndraft = draft;
                unsigned nvocab = R->vocab;
                json_t *sv = schema_kw_get(pres, j, "$schema");
                if (json_is_string(sv)) {
                    char *why = NULL;
                    if (schema_dialect_of(cs->ctx, sv, &ndraft, &nvocab, &why) < 0) {
                        schema_cerr_at(cs, doc, buf_str(ptr), "%s", why);
                        free(why);
                    }
                }
                res = new_res(cs, nofrag, j, doc, pid, ndraft, nvocab);
                R = cs->s->res.items[res];
                draft = R->draft;
            }
        }
    }
    struct schema_loc L = {j, doc, pid, res};
    size_t li = cs->locs.len;
    VEC_PUSH(cs->locs, L);
    schema_map_put(&cs->locmap, &j, sizeof j, li);
    if (old_anchor) {
        add_anchor(cs, R->uri, old_anchor, li);
        free(old_anchor);
    }
    if (draft >= 2019) {
        json_t *a = schema_kw_get(pres, j, "$anchor");
        if (json_is_string(a) && !schema_has_nul(a))
            add_anchor(cs, R->uri, json_string_value(a), li);
        a = schema_kw_get(pres, j, "$dynamicAnchor");
        if (draft >= 2020 && json_is_string(a) && !schema_has_nul(a)) {
            add_anchor(cs, R->uri, json_string_value(a), li);
            struct schema_dyn_anchor da = {xstrdup(json_string_value(a)), j, SCHEMA_NONE};
            VEC_PUSH(R->dyn, da);
        }
        if (draft == 2019 && json_is_true(schema_kw_get(pres, j, "$recursiveAnchor")) &&
            R->root == j)
            R->recursive_anchor = 1;
    }
    if (draft <= 7 && has_ref) return;
    size_t mark = ptr->len;
    struct wparent here = {pid, mark};
    for (size_t i = 0; i < sizeof SUB_ONE / sizeof SUB_ONE[0]; i++) {
        json_t *c = schema_kw_get(pres, j, SUB_ONE[i]);
        if (!json_is_object(c)) continue;
        ptr_append_segment(ptr, SUB_ONE[i], strlen(SUB_ONE[i]));
        walk(cs, c, doc, ptr, here, res, depth + 1, 0);
        buf_truncate(ptr, mark);
    }
    for (size_t i = 0; i < sizeof SUB_ARRAY / sizeof SUB_ARRAY[0]; i++) {
        json_t *c = schema_kw_get(pres, j, SUB_ARRAY[i]), *v;
        size_t k;
        if (!json_is_array(c)) continue;
        json_array_foreach(c, k, v)
        {
            ptr_append_segment(ptr, SUB_ARRAY[i], strlen(SUB_ARRAY[i]));
            ptr_append_index(ptr, k);
            walk(cs, v, doc, ptr, here, res, depth + 2, 0);
            buf_truncate(ptr, mark);
        }
    }
    for (size_t i = 0; i < sizeof SUB_MAP / sizeof SUB_MAP[0]; i++) {
        json_t *c = schema_kw_get(pres, j, SUB_MAP[i]), *v;
        const char *k;
        if (!json_is_object(c)) continue;
        json_object_foreach(c, k, v)
        {
            ptr_append_segment(ptr, SUB_MAP[i], strlen(SUB_MAP[i]));
            ptr_append_segment(ptr, k, strlen(k));
            walk(cs, v, doc, ptr, here, res, depth + 2, 0);
            buf_truncate(ptr, mark);
        }
    }
}

uint32_t schema_index_doc(struct schema_cstate *cs, const char *uri, json_t *root)
{
    uint32_t di = (uint32_t)cs->s->docs.len;
    struct schema_docent e = {xstrdup(uri), json_incref(root)};
    VEC_PUSH(cs->s->docs, e);
    schema_smap_put(&cs->docmap, uri, di);
    int draft = cs->default_draft;
    unsigned vocab = SCHEMA_V_ALL;
    json_t *sv = json_object_get(root, "$schema");
    if (json_is_string(sv)) {
        char *why = NULL;
        if (schema_dialect_of(cs->ctx, sv, &draft, &vocab, &why) < 0) {
            schema_cerr_at(cs, di, "", "%s", why);
            free(why);
        }
    }
    size_t root_ptr = schema_ptr_new(cs->s, SCHEMA_NONE, "");
    size_t res = new_res(cs, xstrdup(uri), root, di, root_ptr, draft, vocab);
    struct buf p = BUF_INIT;
    walk(cs, root, di, &p, (struct wparent){root_ptr, 0}, res, 0, 1);
    buf_release(&p);
    return di;
}

/* Does URI name a network location: an http, https, ws, wss or ftp URI, or a
 * scheme-relative //host reference (the predicate network-uri of rules-yaml/schema.yaml)? */
static int network_uri(const char *uri)
{
    static const char *const schemes[] = {"http:", "https:", "ws:", "wss:", "ftp:"};
    if (!strncmp(uri, "//", 2)) return 1;
    for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
        if (!strncasecmp(uri, schemes[i], strlen(schemes[i]))) return 1;
    return 0;
}

/* Make the document at URI (no fragment) available: registered on the context
 * (including the embedded meta-schemas) or read through the ref map. 0 or -1. */
static int load_doc(struct schema_cstate *cs, const char *uri, const struct schema_node *from,
                    const char *kw)
{
    if (schema_smap_get(&cs->docmap, uri, NULL)) return 0;
    if (cs->s->docs.len >= cs->s->lim.max_documents) {
        schema_cerr(cs, from, kw, "reference \"%s\" exceeds the bound max_documents=%u", uri,
                    (unsigned)cs->s->lim.max_documents);
        return -1;
    }
    char *why = NULL;
    json_t *j = schema_ctx_fetch(cs->ctx, uri, &why);
    if (!j) {
        /* schema_check_offline: resolving it would mean fetching it, so it is skipped */
        if (!cs->skip_network || !network_uri(uri)) schema_cerr(cs, from, kw, "%s", why);
        free(why);
        return -1;
    }
    schema_index_doc(cs, uri, j);
    return 0;
}

size_t schema_index_loc(struct schema_cstate *cs, json_t *j, uint32_t doc, size_t pid,
                        const char *suffix, size_t res)
{
    size_t li;
    if (schema_map_get(&cs->locmap, &j, sizeof j, &li)) return li;
    /* not met by walk() from its document's root (a reference into a place that is not
     * a subschema): index it from here */
    struct buf p = BUF_INIT;
    schema_ptr_append(cs->s, pid, &p);
    struct wparent up = {pid, p.len};
    buf_adds(&p, suffix);
    walk(cs, j, doc, &p, up, res, 0, 0);
    buf_release(&p);
    return schema_map_get(&cs->locmap, &j, sizeof j, &li) ? li : SCHEMA_NONE;
}

int schema_index_target(struct schema_cstate *cs, size_t nid, const char *abs, const char *ref,
                        const char *kw, char **dyn, struct schema_target *t)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    const char *frag;
    char *nofrag = uri_split_fragment(abs, &frag);
    size_t ri;
    int rc = -1;
    if (!schema_smap_get(&cs->resmap, nofrag, &ri)) {
        if (load_doc(cs, nofrag, n, kw) < 0) goto done;
        n = cs->s->nodes.items[nid];
        if (!schema_smap_get(&cs->resmap, nofrag, &ri)) {
            schema_cerr(cs, n, kw, "reference \"%s\" does not resolve", abs);
            goto done;
        }
    }
    const struct schema_res *T = cs->s->res.items[ri];
    json_t *target = NULL;
    uint32_t doc = T->doc;
    size_t res = ri;
    size_t tpid = T->ptr;
    char *tsuf = NULL; /* the target is at pointer tpid followed by tsuf */
    if (!frag || !*frag) {
        target = T->root;
        tsuf = xstrdup("");
    } else if (*frag == '/') {
        const char *why = NULL;
        char *hashed = xasprintf("#%s", frag);
        char *p = ptr_from_fragment(hashed, &why);
        free(hashed);
        if (!p) {
            schema_cerr(cs, n, kw, "reference \"%s\" has a malformed JSON pointer: %s", ref, why);
            goto done;
        }
        struct ptr pp = PTR_INIT;
        if (ptr_parse(p, &pp, &why) == 0) target = ptr_get(T->root, &pp);
        ptr_release(&pp);
        tsuf = p;
    } else {
        char *k = xasprintf("%s#%s", T->uri, frag);
        size_t li;
        if (schema_smap_get(&cs->anchors, k, &li)) {
            const struct schema_loc *L = &cs->locs.items[li];
            target = L->json;
            doc = L->doc;
            res = L->res;
            tpid = L->ptr;
            tsuf = xstrdup("");
            if (dyn) {
                const struct schema_res *LR = cs->s->res.items[L->res];
                for (size_t i = 0; i < LR->dyn.len; i++)
                    if (!strcmp(LR->dyn.items[i].name, frag) && LR->dyn.items[i].json == target)
                        *dyn = xstrdup(frag);
            }
        }
        free(k);
    }
    if (!target) {
        schema_cerr(cs, n, kw, "reference \"%s\" does not resolve", abs);
        free(tsuf);
        goto done;
    }
    size_t li;
    if (json_is_object(target) && schema_map_get(&cs->locmap, &target, sizeof target, &li))
        res = cs->locs.items[li].res;
    t->json = target;
    t->doc = doc;
    t->res = res;
    t->ptr = tpid;
    t->suffix = tsuf;
    rc = 0;
done:
    free(nofrag);
    return rc;
}
