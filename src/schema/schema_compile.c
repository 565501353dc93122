/* schema_compile.c - the JSON Schema compiler: the work list of subschemas (each
 * shared object compiled once), references resolved through the index
 * (schema_index.c), and each keyword checked and compiled into the node's program
 * (regexes precompiled, subschemas linked by index); then the boolean programs
 * (schema_fast.c). Validation is in schema_eval.c, schema checking in schema_check.c. */
#include <stdlib.h>
#include <string.h>

#include "base/loc.h"
#include "base/ptr.h"
#include "base/uri.h"
#include "schema/schemaInt.h"

/* Pointer ID as a string (new). */
static char *ptr_str(const schema *s, size_t id)
{
    struct buf b = BUF_INIT;
    schema_ptr_append(s, id, &b);
    return b.s ? buf_detach(&b) : xstrdup("");
}

static size_t new_node(struct schema_cstate *cs, json_t *j, uint32_t doc, size_t ptr, size_t res)
{
    if (cs->s->nodes.len >= cs->s->lim.max_subschemas) {
        if (!cs->bound_reported++) {
            char *p = ptr_str(cs->s, ptr);
            schema_cerr_at(cs, doc, p,
                           "schema has more subschemas than the bound max_subschemas=%u",
                           (unsigned)cs->s->lim.max_subschemas);
            free(p);
        }
        return SCHEMA_NONE;
    }
    struct schema_node *n = xcalloc(1, sizeof *n);
    n->json = j;
    n->boolean = json_is_object(j) ? -1 : json_is_true(j);
    n->doc = doc;
    n->ptr = ptr;
    n->res = res;
    n->draft = cs->s->res.items[res]->draft;
    size_t idx = cs->s->nodes.len;
    VEC_PUSH(cs->s->nodes, n);
    return idx;
}

/* The node for subschema J found in DOC at pointer PID followed by SUFFIX, within RES
 * (objects are shared and compiled later from the work list; booleans are made at
 * once). */
static size_t get_node(struct schema_cstate *cs, json_t *j, uint32_t doc, size_t pid,
                       const char *suffix, size_t res)
{
    size_t idx;
    /* past a bound the compile has failed: make nothing more (a schema nested 200,000
     * deep would otherwise be walked again from each node at the depth bound) */
    if (cs->bound_reported) return SCHEMA_NONE;
    if (json_is_boolean(j))
        return new_node(cs, j, doc, *suffix ? schema_ptr_new(cs->s, pid, suffix) : pid, res);
    if (!json_is_object(j)) {
        struct buf p = BUF_INIT;
        schema_ptr_append(cs->s, pid, &p);
        buf_adds(&p, suffix);
        schema_cerr_at(cs, doc, buf_str(&p), "expected a schema (an object or a boolean), got %s",
                       val_type_name(j));
        buf_release(&p);
        return SCHEMA_NONE;
    }
    if (schema_map_get(&cs->nodemap, &j, sizeof j, &idx)) return idx;
    size_t li = schema_index_loc(cs, j, doc, pid, suffix, res);
    if (li == SCHEMA_NONE) return SCHEMA_NONE;
    const struct schema_loc *L = &cs->locs.items[li];
    idx = new_node(cs, j, L->doc, L->ptr, L->res);
    if (idx == SCHEMA_NONE) return idx;
    schema_map_put(&cs->nodemap, &j, sizeof j, idx);
    VEC_PUSH(cs->work, idx);
    return idx;
}

/* Child subschema of node N under keyword KW (and SUB: key or index, may be NULL). */
static size_t child(struct schema_cstate *cs, const struct schema_node *n, json_t *j,
                    const char *kw, const char *sub, size_t idx)
{
    struct buf *p = &cs->child_seg; /* reused: get_node copies what it keeps */
    buf_truncate(p, 0);
    ptr_append_segment(p, kw, strlen(kw));
    if (sub) ptr_append_segment(p, sub, strlen(sub));
    else if (idx != SCHEMA_NONE) ptr_append_index(p, idx);
    return get_node(cs, j, n->doc, n->ptr, buf_str(p), n->res);
}

/* Resolve reference REF of node N. Returns the target node or NONE (error recorded).
 * For $dynamicRef, *dyn gets the anchor name when the target is a dynamic anchor. */
static size_t resolve_ref(struct schema_cstate *cs, size_t nid, const char *ref, const char *kw,
                          char **dyn)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    const struct schema_res *R = cs->s->res.items[n->res];
    char *bad = NULL;
    char *abs = uri_resolve(R->uri, ref, &bad);
    if (!abs) {
        schema_cerr(cs, n, kw, "reference \"%s\" %s", ref, bad);
        free(bad);
        return SCHEMA_NONE;
    }
    struct schema_target t;
    size_t out = SCHEMA_NONE;
    if (schema_index_target(cs, nid, abs, ref, kw, dyn, &t) == 0) {
        out = get_node(cs, t.json, t.doc, t.ptr, t.suffix, t.res);
        free(t.suffix);
    }
    free(abs);
    return out;
}

/* ---- keyword compiler ----------------------------------------------------------- */

enum {
    T_NULL = 1,
    T_BOOL = 2,
    T_OBJECT = 4,
    T_ARRAY = 8,
    T_NUMBER = 16,
    T_STRING = 32,
    T_INTEGER = 64
};

static unsigned type_bit(const char *t)
{
    static const char *const names[] = {"null",   "boolean", "object", "array",
                                        "number", "string",  "integer"};
    for (unsigned i = 0; i < 7; i++)
        if (!strcmp(t, names[i])) return 1u << i;
    return 0;
}

typedef VEC(struct schema_kw) kwvec;

/* Member KW of N's schema object, or NULL. */
static inline json_t *kwget(const struct schema_node *n, const char *kw)
{
    return schema_kw_get(n->present, n->json, kw);
}

static struct schema_kw *kw_add(kwvec *v, enum schema_kwk kind, const char *name)
{
    struct schema_kw k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.name = name;
    VEC_PUSH(*v, k);
    return &v->items[v->len - 1];
}

static int get_count(struct schema_cstate *cs, const struct schema_node *n, const char *kw,
                     size_t *out)
{
    json_t *v = kwget(n, kw);
    if (!v) return 0;
    if (!val_is_integer(v) || (json_is_integer(v) && json_integer_value(v) < 0) ||
        (json_is_real(v) && json_real_value(v) < 0)) {
        schema_cerr(cs, n, kw, "\"%s\" must be a non-negative integer", kw);
        return 0;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        *out = d >= 1.8e19 ? SIZE_MAX : (size_t)d;
    } else {
        *out = (size_t)json_integer_value(v);
    }
    return 1;
}

static struct schema_re *compile_re(struct schema_cstate *cs, const struct schema_node *n,
                                    const char *kw, const char *pat, size_t len)
{
    char *err = NULL;
    if (cs->check_all) {                 /* only checked: the verdict, not the regex (never run) */
        static struct schema_re checked; /* what the keyword holds, never matched nor freed */
        if (schema_re_valid(pat, len, cs->s->lim.max_regex_len, &err) == 0) return &checked;
        schema_cerr(cs, n, kw, "%s", err);
        free(err);
        return NULL;
    }
    struct schema_re *re = schema_re_compile(pat, len, cs->s->lim.max_regex_len, 1, &err);
    if (!re) {
        schema_cerr(cs, n, kw, "%s", err);
        free(err);
        return NULL;
    }
    VEC_PUSH(cs->s->regexes, re);
    return re;
}

static void compile_list(struct schema_cstate *cs, size_t nid, kwvec *kws, enum schema_kwk kind,
                         const char *kw)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    json_t *v = kwget(n, kw);
    if (!v) return;
    if (!json_is_array(v) || (kind != SK_PREFIXITEMS && json_array_size(v) == 0)) {
        schema_cerr(cs, n, kw, "\"%s\" must be a non-empty array of schemas", kw);
        return;
    }
    size_t cnt = json_array_size(v);
    size_t *nodes = xmalloc((cnt ? cnt : 1) * sizeof *nodes);
    for (size_t i = 0; i < cnt; i++) {
        nodes[i] = child(cs, cs->s->nodes.items[nid], json_array_get(v, i), kw, NULL, i);
    }
    struct schema_kw *k = kw_add(kws, kind, kw);
    k->u.list.n = cnt;
    k->u.list.nodes = nodes;
}

static void compile_map(struct schema_cstate *cs, size_t nid, kwvec *kws, enum schema_kwk kind,
                        const char *kw, int skip_arrays)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    json_t *v = kwget(n, kw), *c;
    if (!v) return;
    if (!json_is_object(v)) {
        schema_cerr(cs, n, kw, "\"%s\" must be an object", kw);
        return;
    }
    size_t cnt = json_object_size(v), i = 0;
    const char **names = xmalloc((cnt ? cnt : 1) * sizeof *names);
    size_t *lens = xmalloc((cnt ? cnt : 1) * sizeof *lens);
    size_t *nodes = xmalloc((cnt ? cnt : 1) * sizeof *nodes);
    const char *key;
    size_t klen;
    json_object_keylen_foreach(v, key, klen, c)
    {
        if (skip_arrays && json_is_array(c)) continue;
        names[i] = key;
        lens[i] = klen;
        nodes[i] = child(cs, cs->s->nodes.items[nid], c, kw, key, SCHEMA_NONE);
        i++;
    }
    struct schema_kw *k = kw_add(kws, kind, kw);
    k->u.props.n = i;
    k->u.props.names = names;
    k->u.props.lens = lens;
    k->u.props.nodes = nodes;
}

static void compile_node(struct schema_cstate *cs, size_t nid)
{
    struct schema_node *n = cs->s->nodes.items[nid];
    json_t *j = n->json, *v;
    const struct schema_res *R = cs->s->res.items[n->res];
    int draft = R->draft;
    unsigned vocab = R->vocab;
    kwvec kws = VEC_INIT;
    cs->s->res.items[n->res]->used = 1;
    n->present = schema_kw_bits(j);

    v = kwget(n, "$ref");
    if (v) {
        if (!json_is_string(v)) {
            schema_cerr(cs, n, "$ref", "\"$ref\" must be a string");
        } else if (!schema_has_nul(v)) { /* with a NUL: reported by walk() */
            size_t t = resolve_ref(cs, nid, json_string_value(v), "$ref", NULL);
            if (t != SCHEMA_NONE) kw_add(&kws, SK_REF, "$ref")->u.ref.node = t;
        }
        if (draft <= 7) goto out;
    }
    n = cs->s->nodes.items[nid];
    if (draft >= 2020 && json_is_string(v = kwget(n, "$dynamicRef")) && !schema_has_nul(v)) {
        char *anchor = NULL;
        size_t t = resolve_ref(cs, nid, json_string_value(v), "$dynamicRef", &anchor);
        if (t != SCHEMA_NONE) {
            struct schema_kw *k = kw_add(&kws, SK_DYNREF, "$dynamicRef");
            k->u.ref.node = t;
            k->u.ref.anchor = anchor;
        } else {
            free(anchor);
        }
    }
    if (draft == 2019 && json_is_string(v = kwget(n, "$recursiveRef")) && !schema_has_nul(v)) {
        size_t t = resolve_ref(cs, nid, json_string_value(v), "$recursiveRef", NULL);
        if (t != SCHEMA_NONE) kw_add(&kws, SK_RECREF, "$recursiveRef")->u.ref.node = t;
    }
    n = cs->s->nodes.items[nid];

    if (vocab & SCHEMA_V_VALIDATION) {
        if ((v = kwget(n, "type"))) {
            unsigned mask = 0;
            if (json_is_string(v)) {
                mask = type_bit(json_string_value(v));
            } else if (json_is_array(v)) {
                size_t i;
                json_t *t;
                json_array_foreach(v, i, t)
                {
                    unsigned b = json_is_string(t) ? type_bit(json_string_value(t)) : 0;
                    if (!b) {
                        mask = 0;
                        break;
                    }
                    mask |= b;
                }
            }
            if (!mask) schema_cerr(cs, n, "type", "\"type\" must name JSON Schema types");
            else kw_add(&kws, SK_TYPE, "type")->u.types = mask;
        }
        if ((v = kwget(n, "enum"))) {
            if (!json_is_array(v)) schema_cerr(cs, n, "enum", "\"enum\" must be an array");
            else kw_add(&kws, SK_ENUM, "enum")->u.value = v;
        }
        if (draft >= 6 && (v = kwget(n, "const"))) kw_add(&kws, SK_CONST, "const")->u.value = v;
        if ((v = kwget(n, "multipleOf"))) {
            if (!json_is_number(v) || json_number_value(v) <= 0)
                schema_cerr(cs, n, "multipleOf", "\"multipleOf\" must be a number greater than 0");
            else kw_add(&kws, SK_MULTIPLEOF, "multipleOf")->u.value = v;
        }
        static const struct {
            const char *kw, *ex;
            enum schema_kwk k, kx;
        } LIMS[] = {{"maximum", "exclusiveMaximum", SK_MAXIMUM, SK_EXMAXIMUM},
                    {"minimum", "exclusiveMinimum", SK_MINIMUM, SK_EXMINIMUM}};
        for (size_t i = 0; i < 2; i++) {
            json_t *lim = kwget(n, LIMS[i].kw), *ex = kwget(n, LIMS[i].ex);
            if (lim && !json_is_number(lim)) {
                schema_cerr(cs, n, LIMS[i].kw, "\"%s\" must be a number", LIMS[i].kw);
                lim = NULL;
            }
            if (draft == 4) {
                if (lim)
                    kw_add(&kws, json_is_true(ex) ? LIMS[i].kx : LIMS[i].k,
                           json_is_true(ex) ? LIMS[i].ex : LIMS[i].kw)
                        ->u.value = lim;
            } else {
                if (lim) kw_add(&kws, LIMS[i].k, LIMS[i].kw)->u.value = lim;
                if (ex && !json_is_number(ex))
                    schema_cerr(cs, n, LIMS[i].ex, "\"%s\" must be a number", LIMS[i].ex);
                else if (ex) kw_add(&kws, LIMS[i].kx, LIMS[i].ex)->u.value = ex;
            }
        }
        static const struct {
            const char *kw;
            enum schema_kwk k;
        } COUNTS[] = {{"maxLength", SK_MAXLENGTH},    {"minLength", SK_MINLENGTH},
                      {"maxItems", SK_MAXITEMS},      {"minItems", SK_MINITEMS},
                      {"maxProperties", SK_MAXPROPS}, {"minProperties", SK_MINPROPS}};
        for (size_t i = 0; i < sizeof COUNTS / sizeof COUNTS[0]; i++) {
            size_t c;
            if (get_count(cs, n, COUNTS[i].kw, &c))
                kw_add(&kws, COUNTS[i].k, COUNTS[i].kw)->u.count = c;
        }
        if ((v = kwget(n, "pattern"))) {
            if (!json_is_string(v)) {
                schema_cerr(cs, n, "pattern", "\"pattern\" must be a string");
            } else {
                struct schema_re *re =
                    compile_re(cs, n, "pattern", json_string_value(v), json_string_length(v));
                if (re) kw_add(&kws, SK_PATTERN, "pattern")->u.re = re;
            }
        }
        if (json_is_true(kwget(n, "uniqueItems"))) kw_add(&kws, SK_UNIQUE, "uniqueItems");
        if ((v = kwget(n, "required"))) {
            int ok = json_is_array(v);
            size_t i;
            json_t *t;
            if (ok) json_array_foreach(v, i, t) if (!json_is_string(t)) ok = 0;
            if (!ok) schema_cerr(cs, n, "required", "\"required\" must be an array of strings");
            else kw_add(&kws, SK_REQUIRED, "required")->u.value = v;
        }
        if (draft >= 2019 && (v = kwget(n, "dependentRequired"))) {
            if (!json_is_object(v))
                schema_cerr(cs, n, "dependentRequired", "\"dependentRequired\" must be an object");
            else kw_add(&kws, SK_DEPREQ, "dependentRequired")->u.value = v;
        }
    }
    if ((v = kwget(n, "dependencies")) && json_is_object(v)) {
        kw_add(&kws, SK_DEPREQ, "dependencies")->u.value = v;
        compile_map(cs, nid, &kws, SK_DEPSCHEMAS, "dependencies", 1);
    }
    if (vocab & SCHEMA_V_APPLICATOR) {
        compile_list(cs, nid, &kws, SK_ALLOF, "allOf");
        compile_list(cs, nid, &kws, SK_ANYOF, "anyOf");
        compile_list(cs, nid, &kws, SK_ONEOF, "oneOf");
        if ((v = kwget(n, "not")))
            kw_add(&kws, SK_NOT, "not")->u.node = child(cs, n, v, "not", NULL, SCHEMA_NONE);
        n = cs->s->nodes.items[nid];
        if (draft >= 7 && (v = kwget(n, "if"))) {
            size_t c = child(cs, n, v, "if", NULL, SCHEMA_NONE), t = SCHEMA_NONE, e = SCHEMA_NONE;
            json_t *w;
            if ((w = kwget(n, "then"))) t = child(cs, n, w, "then", NULL, SCHEMA_NONE);
            if ((w = kwget(n, "else"))) e = child(cs, n, w, "else", NULL, SCHEMA_NONE);
            struct schema_kw *k = kw_add(&kws, SK_IF, "if");
            k->u.ifte.cond = c;
            k->u.ifte.then_ = t;
            k->u.ifte.else_ = e;
        }
        if (draft >= 2019) compile_map(cs, nid, &kws, SK_DEPSCHEMAS, "dependentSchemas", 0);
        compile_map(cs, nid, &kws, SK_PROPERTIES, "properties", 0);
        struct schema_re **pres = NULL;
        size_t npat = 0;
        if ((v = kwget(n, "patternProperties"))) {
            if (!json_is_object(v)) {
                schema_cerr(cs, n, "patternProperties", "\"patternProperties\" must be an object");
            } else {
                size_t cnt = json_object_size(v);
                pres = xcalloc(cnt ? cnt : 1, sizeof *pres);
                size_t *nodes = xmalloc((cnt ? cnt : 1) * sizeof *nodes);
                const char *key;
                json_t *c;
                json_object_foreach(v, key, c)
                {
                    struct schema_re *re = compile_re(cs, cs->s->nodes.items[nid],
                                                      "patternProperties", key, strlen(key));
                    if (!re) continue;
                    pres[npat] = re;
                    nodes[npat] = child(cs, cs->s->nodes.items[nid], c, "patternProperties", key,
                                        SCHEMA_NONE);
                    npat++;
                }
                struct schema_kw *k = kw_add(&kws, SK_PATTERNPROPS, "patternProperties");
                k->u.pprops.n = npat;
                k->u.pprops.re = pres;
                k->u.pprops.nodes = nodes;
            }
        }
        n = cs->s->nodes.items[nid];
        if ((v = kwget(n, "additionalProperties"))) {
            struct schema_kw *k = kw_add(&kws, SK_ADDPROPS, "additionalProperties");
            k->u.addprops.node = child(cs, n, v, "additionalProperties", NULL, SCHEMA_NONE);
            json_t *pp = kwget(n, "properties");
            k->u.addprops.props = json_is_object(pp) ? pp : NULL;
            k->u.addprops.npat = npat;
            if (npat) {
                k->u.addprops.re = xmalloc(npat * sizeof *k->u.addprops.re);
                memcpy(k->u.addprops.re, pres, npat * sizeof *pres);
            }
        }
        n = cs->s->nodes.items[nid];
        if (draft >= 6 && (v = kwget(n, "propertyNames")))
            kw_add(&kws, SK_PROPNAMES, "propertyNames")->u.node =
                child(cs, n, v, "propertyNames", NULL, SCHEMA_NONE);
        n = cs->s->nodes.items[nid];
        json_t *items = kwget(n, "items");
        if (draft >= 2020) {
            json_t *pi = kwget(n, "prefixItems");
            compile_list(cs, nid, &kws, SK_PREFIXITEMS, "prefixItems");
            if (items) {
                struct schema_kw *k = kw_add(&kws, SK_ITEMS, "items");
                k->u.items.node =
                    child(cs, cs->s->nodes.items[nid], items, "items", NULL, SCHEMA_NONE);
                k->u.items.start = json_is_array(pi) ? json_array_size(pi) : 0;
            }
        } else if (json_is_array(items)) {
            compile_list(cs, nid, &kws, SK_PREFIXITEMS, "items");
            json_t *ai = kwget(n, "additionalItems");
            if (ai) {
                struct schema_kw *k = kw_add(&kws, SK_ITEMS, "additionalItems");
                k->u.items.node =
                    child(cs, cs->s->nodes.items[nid], ai, "additionalItems", NULL, SCHEMA_NONE);
                k->u.items.start = json_array_size(items);
            }
        } else if (items) {
            struct schema_kw *k = kw_add(&kws, SK_ITEMS, "items");
            k->u.items.node = child(cs, n, items, "items", NULL, SCHEMA_NONE);
            k->u.items.start = 0;
        }
        n = cs->s->nodes.items[nid];
        if (draft >= 6 && (v = kwget(n, "contains"))) {
            size_t c = child(cs, n, v, "contains", NULL, SCHEMA_NONE), mn = 1, mx = SIZE_MAX;
            n = cs->s->nodes.items[nid];
            if (draft >= 2019 && (vocab & SCHEMA_V_VALIDATION)) {
                get_count(cs, n, "minContains", &mn);
                get_count(cs, n, "maxContains", &mx);
            }
            struct schema_kw *k = kw_add(&kws, SK_CONTAINS, "contains");
            k->u.contains.node = c;
            k->u.contains.min = mn;
            k->u.contains.max = mx;
        }
    }
    n = cs->s->nodes.items[nid];
    if (draft >= 2019 && (vocab & SCHEMA_V_UNEVALUATED)) {
        if ((v = kwget(n, "unevaluatedProperties"))) {
            kw_add(&kws, SK_UNEVALPROPS, "unevaluatedProperties")->u.node =
                child(cs, n, v, "unevaluatedProperties", NULL, SCHEMA_NONE);
            n = cs->s->nodes.items[nid];
            n->has_uneval = 1;
        }
        if ((v = kwget(n, "unevaluatedItems"))) {
            kw_add(&kws, SK_UNEVALITEMS, "unevaluatedItems")->u.node =
                child(cs, n, v, "unevaluatedItems", NULL, SCHEMA_NONE);
            n = cs->s->nodes.items[nid];
            n->has_uneval = 1;
        }
    }
out:
    n = cs->s->nodes.items[nid];
    /* drop keywords whose subschema failed to compile (errors were recorded) */
    n->kws = kws.items;
    n->nkw = kws.len;
}

static void drain(struct schema_cstate *cs)
{
    while (!cs->bound_reported) {
        while (cs->work_head < cs->work.len && !cs->bound_reported)
            compile_node(cs, cs->work.items[cs->work_head++]);
        /* dynamic scopes: every dynamic anchor of a resource in use must be compiled */
        int more = 0;
        for (size_t r = 0; r < cs->s->res.len; r++) {
            struct schema_res *R = cs->s->res.items[r];
            if (!R->used) continue;
            for (size_t i = 0; i < R->dyn.len; i++) {
                if (R->dyn.items[i].node != SCHEMA_NONE) continue;
                json_t *dj = R->dyn.items[i].json;
                size_t li;
                if (!schema_map_get(&cs->locmap, &dj, sizeof dj, &li)) continue;
                R->dyn.items[i].node =
                    get_node(cs, dj, cs->locs.items[li].doc, cs->locs.items[li].ptr, "", r);
                if (R->dyn.items[i].node == SCHEMA_NONE) R->dyn.items[i].node = SIZE_MAX - 1;
                more = 1;
            }
            if (R->recursive_anchor && R->root_node == SCHEMA_NONE) {
                R->root_node = get_node(cs, R->root, R->doc, R->ptr, "", r);
                if (R->root_node == SCHEMA_NONE) R->root_node = SIZE_MAX - 1;
                more = 1;
            }
        }
        if (!more && cs->work_head == cs->work.len) break;
    }
}

static void cstate_release(struct schema_cstate *cs)
{
    schema_map_release(&cs->resmap);
    schema_map_release(&cs->anchors);
    schema_map_release(&cs->locmap);
    schema_map_release(&cs->nodemap);
    schema_map_release(&cs->docmap);
    VEC_FREE(cs->locs);
    VEC_FREE(cs->work);
    buf_release(&cs->child_seg);
}

/* Compile ROOT; *BOUNDED (may be NULL) tells whether a bound stopped it. */
static schema *compile(schema_ctx *ctx, json_t *root, const char *base_uri,
                       enum schema_dialect dflt, struct schema_errors *errs, int plain,
                       int check_all, int *bounded)
{
    /* check_all: 1 to compile every subschema (schema_check), | 2 to leave a network
     * reference unresolved (schema_check_offline) */
    struct schema_cstate cs;
    memset(&cs, 0, sizeof cs);
    schema *s = xcalloc(1, sizeof *s);
    s->lim = *schema_ctx_limits(ctx);
    s->root_plain = plain;
    if (!(check_all & 1)) { /* a schema only checked matches nothing */
        s->mctx = pcre2_match_context_create(NULL);
        pcre2_set_match_limit(s->mctx, s->lim.regex_match_limit);
        pcre2_set_depth_limit(s->mctx, s->lim.regex_depth_limit);
    }
    cs.s = s;
    cs.ctx = ctx;
    cs.errs = errs;
    cs.check_all = check_all & 1;
    cs.skip_network = (check_all & 2) != 0;
    cs.default_draft = dflt ? (int)dflt : SCHEMA_DRAFT2020_12;
    char *base = schema_uri_nofrag(base_uri ? base_uri : "");
    json_t *sv = json_object_get(root, "$schema");
    if (json_is_string(sv)) {
        int d;
        unsigned v;
        char *why = NULL;
        if (schema_dialect_of(ctx, sv, &d, &v, &why) < 0) {
            schema_errors_add(errs, "/$schema", "/$schema", "%s", why);
            free(why);
            free(base);
            cstate_release(&cs);
            schema_free(s);
            return NULL;
        }
    }
    uint32_t di = schema_index_doc(&cs, base, root);
    free(base);
    s->root_draft = s->res.items[0]->draft;
    s->root = get_node(&cs, root, di, s->res.items[0]->ptr, "", 0);
    if (check_all & 1) {
        for (size_t i = 0; i < cs.locs.len && !cs.bound_reported; i++)
            if (cs.locs.items[i].doc == 0)
                get_node(&cs, cs.locs.items[i].json, 0, cs.locs.items[i].ptr, "",
                         cs.locs.items[i].res);
    }
    drain(&cs);
    if (bounded) *bounded = cs.bound_reported > 0;
    int failed = cs.nerr > 0 || s->root == SCHEMA_NONE;
    cstate_release(&cs);
    if (failed) {
        schema_free(s);
        return NULL;
    }
    if (!(check_all & 1)) schema_fast_build(s); /* schema_check only wants the errors */
    return s;
}

schema *schema_compile(schema_ctx *ctx, json_t *root, const char *base_uri,
                       enum schema_dialect dflt, struct schema_errors *errs)
{
    return compile(ctx, root, base_uri, dflt, errs, 1, 0, NULL);
}

schema *schema_compile_uri(schema_ctx *ctx, const char *uri, enum schema_dialect dflt,
                           struct schema_errors *errs)
{
    char *why = NULL;
    json_t *j = schema_ctx_fetch(ctx, uri, &why);
    if (!j) {
        schema_errors_add(errs, "", "", "%s", why);
        free(why);
        return NULL;
    }
    char *u = schema_uri_nofrag(uri);
    schema *s = compile(ctx, j, u, dflt, errs, 0, 0, NULL);
    free(u);
    return s;
}

schema *schema_compile_file(schema_ctx *ctx, const char *path, enum schema_dialect dflt,
                            struct schema_errors *errs)
{
    json_error_t jerr;
    json_t *j = schema_ctx_load_file(
        ctx, path, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY, &jerr);
    if (!j) {
        if (jerr.line > 0) { /* jansson says -1 when the file could not be read at all */
            char *at =
                loc_format(path, (uint32_t)jerr.line, jerr.column > 0 ? (uint32_t)jerr.column : 0);
            schema_errors_add(errs, "", "", "cannot load schema %s: %s", at, jerr.text);
            free(at);
        } else schema_errors_add(errs, "", "", "cannot load schema \"%s\": %s", path, jerr.text);
        return NULL;
    }
    schema_ctx_add_file(ctx, path);
    char *rp = schema_ctx_real_path(ctx, path);
    char *base = uri_from_path(rp ? rp : path);
    free(rp);
    schema *s = schema_compile(ctx, j, base, dflt, errs);
    free(base);
    json_decref(j);
    return s;
}

schema *schema_compile_check(schema_ctx *ctx, json_t *sch, const char *base_uri,
                             enum schema_dialect dflt, struct schema_errors *errs, int offline,
                             int *bounded)
{
    return compile(ctx, sch, base_uri, dflt, errs, 1, offline ? 3 : 1, bounded);
}
