/* schema_compat.c - what changed from one JSON Schema to another, keyword by keyword
 * (schema_compat.h lists every decision). One file: the state and the index of each
 * root, references, the recursion and dispatch, then one comparison per keyword. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"
#include "schema/schema_compat.h"

const char *const schema_compat_kind_names[] = {
    "type-narrowed",       "type-widened",       "enum-added",
    "enum-removed",        "enum-value-removed", "enum-value-added",
    "const-added",         "const-removed",      "const-changed",
    "bound-tightened",     "bound-loosened",     "pattern-added",
    "pattern-removed",     "required-added",     "required-removed",
    "property-added",      "property-removed",   "property-removed-closed",
    "additional-closed",   "additional-opened",  "alternative-added",
    "alternative-removed", "unprovable",         NULL};

const char *schema_change_kind_name(enum schema_change_kind k)
{
    if ((int)k < 0 || (int)k >= SCHEMA_CHANGE_KIND_COUNT) return NULL;
    return schema_compat_kind_names[k];
}

int schema_change_kind_parse(const char *name)
{
    for (int i = 0; name && schema_compat_kind_names[i]; i++)
        if (!strcmp(name, schema_compat_kind_names[i])) return i;
    return -1;
}

/* ---- the state ---------------------------------------------------------------------- */

struct anchor {
    json_t *node;
    char *path;
};

/* One root: its dialect and its index. */
struct side {
    json_t *root;
    int draft;                 /* enum schema_dialect's number */
    struct schema_map info;    /* container node -> expanded size << 1 | holds a reference */
    struct schema_map anchors; /* plain name -> index in anchor_list */
    VEC(struct anchor) anchor_list;
};

struct strs {
    char **items;
    size_t len, cap;
};

struct compat {
    struct side old, new;
    schema_change_fn fn;
    void *arg;
    size_t count, pairs;
    int stop;
    int probe;                  /* only asking whether anything differs: report nothing */
    unsigned depth;             /* of the schema pair being compared */
    struct schema_map visited;  /* (old node, new node) pairs compared */
    struct schema_map reported; /* kind, old_at, new_at */
    json_t *empty;              /* {}: what true and an absent subschema compare as */
    struct strs *strs;          /* every string made during the comparison, freed at its end */
    int root_types;             /* the JSON types the roots judge (T_ALL: any) */
};

static void compare_schema(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                           unsigned depth);
static int refs_differ(struct compat *c, json_t *o, json_t *n, const char *op, const char *np);

/* ---- keywords: which comparison each belongs to, per dialect ------------------------ */

enum group {
    G_IGNORE = -1, /* annotation, identifier, container, or unknown in the dialect */
    G_OTHER = 0,   /* compared by value: UNPROVABLE when changed */
    G_TYPE,
    G_ENUM,
    G_CONST,
    G_LOWER, /* minimum, exclusiveMinimum */
    G_UPPER, /* maximum, exclusiveMaximum */
    G_MULTIPLE,
    G_UNIQUE,
    G_MINLENGTH,
    G_MAXLENGTH,
    G_MINITEMS,
    G_MAXITEMS,
    G_MINPROPS,
    G_MAXPROPS,
    G_PATTERN,
    G_REQUIRED,
    G_PROPERTIES,
    G_ADDITIONAL,
    G_ITEMS, /* items, prefixItems, additionalItems */
    G_ANYOF,
    G_ONEOF,
    G_REF,
};

static const struct {
    const char *kw;
    enum group g;
} GROUPS[] = {
    {"type", G_TYPE},
    {"enum", G_ENUM},
    {"const", G_CONST},
    {"minimum", G_LOWER},
    {"exclusiveMinimum", G_LOWER},
    {"maximum", G_UPPER},
    {"exclusiveMaximum", G_UPPER},
    {"multipleOf", G_MULTIPLE},
    {"uniqueItems", G_UNIQUE},
    {"minLength", G_MINLENGTH},
    {"maxLength", G_MAXLENGTH},
    {"minItems", G_MINITEMS},
    {"maxItems", G_MAXITEMS},
    {"minProperties", G_MINPROPS},
    {"maxProperties", G_MAXPROPS},
    {"pattern", G_PATTERN},
    {"required", G_REQUIRED},
    {"properties", G_PROPERTIES},
    {"additionalProperties", G_ADDITIONAL},
    {"items", G_ITEMS},
    {"prefixItems", G_ITEMS},
    {"additionalItems", G_ITEMS},
    {"anyOf", G_ANYOF},
    {"oneOf", G_ONEOF},
    {"$ref", G_REF},
    /* annotations (2020-12 Validation, 9 "meta-data"; Core, 8.3 "$comment"), identifiers
     * and containers: never a change in themselves */
    {"title", G_IGNORE},
    {"description", G_IGNORE},
    {"default", G_IGNORE},
    {"examples", G_IGNORE},
    {"$comment", G_IGNORE},
    {"deprecated", G_IGNORE},
    {"readOnly", G_IGNORE},
    {"writeOnly", G_IGNORE},
    {"$schema", G_IGNORE},
    {"$id", G_IGNORE},
    {"id", G_IGNORE},
    {"$anchor", G_IGNORE},
    {"$dynamicAnchor", G_IGNORE},
    {"$recursiveAnchor", G_IGNORE},
    {"$vocabulary", G_IGNORE},
    {"$defs", G_IGNORE},
    {"definitions", G_IGNORE},
};

static enum group group_of(const char *kw, int draft)
{
    if (!schema_kwinfo(draft, kw)) return G_IGNORE; /* unknown: an annotation (Core, 6.5) */
    for (size_t i = 0; i < sizeof GROUPS / sizeof GROUPS[0]; i++)
        if (!strcmp(GROUPS[i].kw, kw)) return GROUPS[i].g;
    return G_OTHER;
}

/* Member KW of the schema OBJ of side S when it asserts something there, else NULL. */
static json_t *live(const struct side *s, json_t *obj, const char *kw)
{
    json_t *v = json_object_get(obj, kw);
    if (!v || group_of(kw, s->draft) == G_IGNORE) return NULL;
    /* up to draft-07 the members beside $ref are ignored (draft-07 Core, 8.3) */
    if (s->draft <= 7 && strcmp(kw, "$ref") && json_object_get(obj, "$ref")) return NULL;
    return v;
}

/* Does OBJ have a member other than $ref that asserts something? */
static int constraining_sibling(const struct side *s, json_t *obj)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        if (strcmp(k, "$ref") && group_of(k, s->draft) != G_IGNORE) return 1;
    }
    return 0;
}

/* Does V admit everything (true, or only annotations)? */
static int trivial(const struct side *s, json_t *v)
{
    if (json_is_true(v)) return 1;
    if (!json_is_object(v)) return 0;
    const char *k;
    json_t *m;
    json_object_foreach(v, k, m)
    {
        if (group_of(k, s->draft) != G_IGNORE) return 0;
    }
    return 1;
}

/* ---- the index of one root ---------------------------------------------------------- */

/* A size is kept as size << 1 | reference in a size_t: 2^40, or what a 32-bit size_t
 * (WebAssembly) holds shifted, whichever is less. */
#define SIZE_CAP                                                                                   \
    ((uint64_t)(SIZE_MAX >> 2) < ((uint64_t)1 << 40) ? (size_t)(SIZE_MAX >> 2)                     \
                                                     : (size_t)((uint64_t)1 << 40))
#define ROOT_EQUAL_LIMIT ((size_t)1 << 22)

static void add_anchor(struct side *s, const char *name, json_t *node, const char *path)
{
    size_t idx;
    if (!*name || schema_smap_get(&s->anchors, name, &idx)) return; /* the first one wins */
    struct anchor a = {node, xstrdup(path)};
    VEC_PUSH(s->anchor_list, a);
    schema_smap_put(&s->anchors, name, s->anchor_list.len - 1);
}

/* Record for each container below V its expanded size and whether it holds a reference
 * (returned as size << 1 | reference); a value shared by several places (YAML aliases)
 * is walked once, so a "billion laughs" stays linear. */
static size_t index_walk(struct side *s, json_t *v, struct buf *path, struct schema_seen *seen)
{
    if (!json_is_object(v) && !json_is_array(v)) return 2; /* size 1, no reference */
    size_t rec;
    if (!schema_seen_add(seen, v))
        return schema_map_get(&s->info, &v, sizeof v, &rec) ? rec : SIZE_CAP << 1 | 1;
    size_t size = 1, len = path->len;
    int ref = 0;
    if (json_is_object(v)) {
        ref = json_object_get(v, "$ref") || json_object_get(v, "$dynamicRef") ||
            json_object_get(v, "$recursiveRef");
        json_t *an = json_object_get(v, "$anchor");
        if (json_is_string(an)) add_anchor(s, json_string_value(an), v, buf_str(path));
        json_t *id = json_object_get(v, s->draft == 4 ? "id" : "$id");
        if (json_is_string(id) && json_string_value(id)[0] == '#' &&
            json_string_value(id)[1] != '/')
            add_anchor(s, json_string_value(id) + 1, v, buf_str(path));
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m)
        {
            ptr_append_segment(path, k, strlen(k));
            size_t r = index_walk(s, m, path, seen);
            buf_truncate(path, len);
            size += r >> 1, ref |= (int)(r & 1);
            if (size > SIZE_CAP) size = SIZE_CAP;
        }
    } else {
        for (size_t i = 0; i < json_array_size(v); i++) {
            ptr_append_index(path, i);
            size_t r = index_walk(s, json_array_get(v, i), path, seen);
            buf_truncate(path, len);
            size += r >> 1, ref |= (int)(r & 1);
            if (size > SIZE_CAP) size = SIZE_CAP;
        }
    }
    rec = size << 1 | (size_t)ref;
    schema_map_put(&s->info, &v, sizeof v, rec);
    return rec;
}

static size_t node_info(const struct side *s, json_t *v)
{
    size_t rec;
    if (!json_is_object(v) && !json_is_array(v)) return 2;
    return schema_map_get(&s->info, &v, sizeof v, &rec) ? rec : 0; /* not indexed: {} */
}

static int has_ref(const struct side *s, json_t *v)
{
    return (int)(node_info(s, v) & 1);
}

/* The size of V (of either side) with every shared value counted where it is used. */
static size_t expanded(const struct compat *c, json_t *v)
{
    size_t r = node_info(&c->old, v);
    return (r ? r : node_info(&c->new, v)) >> 1;
}

/* val_equal, on values small enough for it to cost little; larger ones (a value shared
 * many times over, YAML's "billion laughs") are taken to differ. */
static int equal(const struct compat *c, json_t *a, json_t *b)
{
    return a == b ||
        (expanded(c, a) <= SCHEMA_COMPAT_MAX_PAIRS && expanded(c, b) <= SCHEMA_COMPAT_MAX_PAIRS &&
         val_equal(a, b));
}

/* Are O (of OLD) and N the same schema, without looking further? Equal text holding a
 * reference is not: the definitions it reaches may differ. */
static int same(struct compat *c, json_t *o, json_t *n)
{
    return equal(c, o, n) && !has_ref(&c->old, o);
}

static void side_init(struct side *s, json_t *root, enum schema_dialect dflt)
{
    memset(s, 0, sizeof *s);
    s->root = root;
    enum schema_dialect d = dflt ? dflt : SCHEMA_DRAFT2020_12;
    json_t *sv = json_object_get(root, "$schema");
    if (json_is_string(sv) && schema_dialect_parse(json_string_value(sv)))
        d = schema_dialect_parse(json_string_value(sv));
    s->draft = (int)d;
    struct buf path = BUF_INIT;
    struct schema_seen seen = SCHEMA_SEEN_INIT;
    index_walk(s, root, &path, &seen);
    schema_seen_release(&seen);
    buf_release(&path);
}

static void side_release(struct side *s)
{
    schema_map_release(&s->info);
    schema_map_release(&s->anchors);
    for (size_t i = 0; i < s->anchor_list.len; i++) free(s->anchor_list.items[i].path);
    VEC_FREE(s->anchor_list);
}

/* ---- places, values, reports --------------------------------------------------------- */

static const char *keep(struct compat *c, char *s)
{
    VEC_PUSH(*c->strs, s);
    return s;
}

/* BASE + "/" + SEG (escaped), and with "/" + I after it. */
static const char *at(struct compat *c, const char *base, const char *seg)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, base);
    ptr_append_segment(&b, seg, strlen(seg));
    return keep(c, buf_detach(&b));
}

static const char *at_index(struct compat *c, const char *base, const char *seg, size_t i)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, base);
    ptr_append_segment(&b, seg, strlen(seg));
    ptr_append_index(&b, i);
    return keep(c, buf_detach(&b));
}

/* The place of keyword KW of the schema at BASE when it is there (V), else BASE. */
static const char *at_kw(struct compat *c, const char *base, json_t *v, const char *kw)
{
    return v ? at(c, base, kw) : base;
}

/* V as compact JSON, at most about 80 bytes (cut at a character boundary). */
static const char *show(struct compat *c, json_t *v)
{
    if (!v) return "absent";
    if (expanded(c, v) > 256) return json_is_object(v) ? "{...}" : "[...]";
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) s = xstrdup("?");
    size_t n = strlen(s);
    if (n > 80) {
        n = 77;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
        strcpy(s + n, "...");
    }
    return keep(c, s);
}

/* NAME as a JSON string literal. */
static const char *quote(struct compat *c, const char *name)
{
    struct buf b = BUF_INIT;
    buf_addc(&b, '"');
    buf_add_json_escaped(&b, name, strlen(name));
    buf_addc(&b, '"');
    return keep(c, buf_detach(&b));
}

static void report(struct compat *c, enum schema_change_kind kind, const char *kw,
                   const char *old_at, const char *new_at, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void report(struct compat *c, enum schema_change_kind kind, const char *kw,
                   const char *old_at, const char *new_at, const char *fmt, ...)
{
    if (c->stop) return;
    struct buf key = BUF_INIT;
    buf_addf(&key, "%d", (int)kind);
    buf_add(&key, "", 1);
    buf_adds(&key, old_at);
    buf_add(&key, "", 1);
    buf_adds(&key, new_at);
    int dup = schema_map_get(&c->reported, key.s, key.len, NULL);
    if (!dup) schema_map_put(&c->reported, key.s, key.len, 1);
    buf_release(&key);
    if (dup) return;
    c->count++;
    if (c->probe) c->stop = 1; /* a probe only asks whether anything changed */
    if (c->probe || !c->fn) return;
    va_list ap;
    va_start(ap, fmt);
    char *d = NULL;
    if (vasprintf(&d, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    struct schema_change ch = {kind, kw, old_at, new_at, d};
    if (c->fn(&ch, c->arg)) c->stop = 1;
    free(d);
}

/* Keyword KW (OV in the schema at OP, NV in the one at NP; either NULL when absent),
 * compared by value: UNPROVABLE when it changed. */
static void unprovable(struct compat *c, const char *kw, json_t *ov, json_t *nv, const char *op,
                       const char *np)
{
    if (!ov && !nv) return;
    if (ov && nv && same(c, ov, nv)) return;
    const char *oa = at_kw(c, op, ov, kw), *na = at_kw(c, np, nv, kw);
    if (ov && nv && equal(c, ov, nv)) {
        if (refs_differ(c, ov, nv, oa, na))
            report(c, SCHEMA_CHANGE_UNPROVABLE, kw, oa, na,
                   "%s unchanged, but a definition it references changed", kw);
    } else if (ov && nv) {
        report(c, SCHEMA_CHANGE_UNPROVABLE, kw, oa, na, "%s changed from %s to %s", kw, show(c, ov),
               show(c, nv));
    } else if (nv) {
        report(c, SCHEMA_CHANGE_UNPROVABLE, kw, oa, na, "%s %s added", kw, show(c, nv));
    } else {
        report(c, SCHEMA_CHANGE_UNPROVABLE, kw, oa, na, "%s %s removed", kw, show(c, ov));
    }
}

static void too_large(struct compat *c)
{
    report(c, SCHEMA_CHANGE_UNPROVABLE, "schema", "", "",
           "too large to compare (more than %u subschema pairs)", SCHEMA_COMPAT_MAX_PAIRS);
    c->stop = 1;
}

/* ---- references ---------------------------------------------------------------------- */

/* The schema the local reference REF of side S names, with its place in *PATH; NULL for
 * another document, or when it does not resolve. */
static json_t *ref_target(struct compat *c, struct side *s, json_t *ref, const char **path)
{
    if (!json_is_string(ref)) return NULL;
    const char *r = json_string_value(ref);
    if (r[0] != '#') return NULL;
    if (r[1] && r[1] != '/') { /* a plain-name fragment: an anchor */
        size_t idx;
        if (!schema_smap_get(&s->anchors, r + 1, &idx)) return NULL;
        *path = s->anchor_list.items[idx].path;
        return s->anchor_list.items[idx].node;
    }
    const char *why;
    char *p = ptr_from_fragment(r, &why);
    if (!p) return NULL;
    struct ptr pp = PTR_INIT;
    json_t *t = ptr_parse(p, &pp, &why) == 0 ? ptr_get(s->root, &pp) : NULL;
    ptr_release(&pp);
    if (!t) {
        free(p);
        return NULL;
    }
    *path = keep(c, p);
    return t;
}

/* Follow NODE's local $ref while the reference is all NODE asserts; *PATH follows. */
static json_t *resolve(struct compat *c, struct side *s, json_t *node, const char **path)
{
    for (int hops = 0; hops < 64 && json_is_object(node); hops++) {
        json_t *ref = json_object_get(node, "$ref");
        if (!ref || (s->draft >= 2019 && constraining_sibling(s, node))) break;
        const char *tp;
        json_t *t = ref_target(c, s, ref, &tp);
        if (!t) break;
        node = t, *path = tp;
    }
    return node;
}

/* Walk the equal values O and N in step; at each reference compare the two in a probe.
 * 1 when any differs. */
static int refs_walk(struct compat *p, json_t *o, json_t *n, const char *op, const char *np,
                     struct schema_seen *seen)
{
    if (!has_ref(&p->old, o) || !schema_seen_add(seen, o)) return 0;
    if (json_is_object(o)) {
        if (json_object_get(o, "$ref")) {
            compare_schema(p, o, n, op, np, p->depth + 1);
            if (p->count || p->stop) return 1;
        }
        const char *k;
        json_t *m;
        json_object_foreach(o, k, m)
        {
            if (refs_walk(p, m, json_object_get(n, k), at(p, op, k), at(p, np, k), seen)) return 1;
        }
    } else if (json_is_array(o)) {
        for (size_t i = 0; i < json_array_size(o); i++) {
            const char *oi = keep(p, xasprintf("%s/%zu", op, i));
            const char *ni = keep(p, xasprintf("%s/%zu", np, i));
            if (refs_walk(p, json_array_get(o, i), json_array_get(n, i), oi, ni, seen)) return 1;
        }
    }
    return 0;
}

/* Do the equal values O and N (their text) reach different definitions? Asked in a
 * probe, which reports nothing; a probe asks again within itself, so that the pairs it
 * compared (or is comparing: a cycle through the reference) are not compared again. */
static int refs_differ(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    if (c->probe) {
        struct schema_seen seen = SCHEMA_SEEN_INIT;
        int differ = refs_walk(c, o, n, op, np, &seen);
        schema_seen_release(&seen);
        return differ;
    }
    struct compat p = *c;
    memset(&p.visited, 0, sizeof p.visited);
    memset(&p.reported, 0, sizeof p.reported);
    p.probe = 1, p.count = 0, p.stop = 0;
    struct schema_seen seen = SCHEMA_SEEN_INIT;
    int differ = refs_walk(&p, o, n, op, np, &seen);
    schema_seen_release(&seen);
    schema_map_release(&p.visited);
    schema_map_release(&p.reported);
    c->pairs = p.pairs;
    if (c->pairs > SCHEMA_COMPAT_MAX_PAIRS) too_large(c);
    return differ;
}

/* ---- type ---------------------------------------------------------------------------- */

enum { T_NULL = 1, T_BOOLEAN = 2, T_OBJECT = 4, T_ARRAY = 8, T_STRING = 16, T_INTEGER = 32 };
#define T_FRACTION 64 /* numbers that are not integers: "number" is T_INTEGER | T_FRACTION */
#define T_ALL 127

static int type_bits(json_t *name)
{
    static const struct {
        const char *name;
        int bits;
    } T[] = {{"null", T_NULL},
             {"boolean", T_BOOLEAN},
             {"object", T_OBJECT},
             {"array", T_ARRAY},
             {"string", T_STRING},
             {"integer", T_INTEGER},
             {"number", T_INTEGER | T_FRACTION}};
    for (size_t i = 0; json_is_string(name) && i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(json_string_value(name), T[i].name)) return T[i].bits;
    return -1;
}

/* The JSON types `type` V admits (absent: all), -1 when V is no type. */
static int type_mask(json_t *v)
{
    if (!v) return T_ALL;
    if (!json_is_array(v)) return type_bits(v);
    int m = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        int b = type_bits(json_array_get(v, i));
        if (b < 0) return -1;
        m |= b;
    }
    return json_array_size(v) ? m : -1;
}

static void cmp_type(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "type"), *nv = live(&c->new, n, "type");
    int mo = type_mask(ov), mn = type_mask(nv);
    if (mo < 0 || mn < 0) return unprovable(c, "type", ov, nv, op, np);
    if (!c->depth) { /* the roots judge only values of these types: the others do not count */
        mo &= c->root_types;
        mn &= c->root_types;
    }
    if (mo == mn) return; /* reordered, or ["integer","number"] for "number" */
    int narrowed = (mo & ~mn) != 0, widened = (mn & ~mo) != 0;
    const char *how = narrowed && widened ? "changed" : narrowed ? "narrowed" : "widened";
    const char *oa = at_kw(c, op, ov, "type"), *na = at_kw(c, np, nv, "type");
    const char *os = ov ? show(c, ov) : "any", *ns = nv ? show(c, nv) : "any";
    if (narrowed)
        report(c, SCHEMA_CHANGE_TYPE_NARROWED, "type", oa, na, "type %s from %s to %s", how, os,
               ns);
    if (widened)
        report(c, SCHEMA_CHANGE_TYPE_WIDENED, "type", oa, na, "type %s from %s to %s", how, os, ns);
}

/* ---- enum, const --------------------------------------------------------------------- */

/* Is V among the first N values of the array A (val_equal)? */
static int among(const struct compat *c, json_t *a, size_t n, json_t *v)
{
    for (size_t i = 0; i < n; i++)
        if (equal(c, json_array_get(a, i), v)) return 1;
    return 0;
}

static void cmp_enum(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "enum"), *nv = live(&c->new, n, "enum");
    if ((ov && !json_is_array(ov)) || (nv && !json_is_array(nv)))
        return unprovable(c, "enum", ov, nv, op, np);
    if (!ov && !nv) return;
    const char *oa = at_kw(c, op, ov, "enum"), *na = at_kw(c, np, nv, "enum");
    if (!ov)
        return report(c, SCHEMA_CHANGE_ENUM_ADDED, "enum", oa, na, "enum %s added", show(c, nv));
    if (!nv)
        return report(c, SCHEMA_CHANGE_ENUM_REMOVED, "enum", oa, na, "enum %s removed",
                      show(c, ov));
    size_t no = json_array_size(ov), nn = json_array_size(nv);
    for (size_t j = 0; j < nn; j++) {
        json_t *v = json_array_get(nv, j);
        if (!among(c, ov, no, v) && !among(c, nv, j, v))
            report(c, SCHEMA_CHANGE_ENUM_VALUE_ADDED, "enum", oa, at_index(c, np, "enum", j),
                   "enum value %s added", show(c, v));
    }
    for (size_t i = 0; i < no; i++) {
        json_t *v = json_array_get(ov, i);
        if (!among(c, nv, nn, v) && !among(c, ov, i, v))
            report(c, SCHEMA_CHANGE_ENUM_VALUE_REMOVED, "enum", at_index(c, op, "enum", i), na,
                   "enum value %s removed", show(c, v));
    }
}

static void cmp_const(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "const"), *nv = live(&c->new, n, "const");
    const char *oa = at_kw(c, op, ov, "const"), *na = at_kw(c, np, nv, "const");
    if (!ov && nv)
        report(c, SCHEMA_CHANGE_CONST_ADDED, "const", oa, na, "const %s added", show(c, nv));
    else if (ov && !nv)
        report(c, SCHEMA_CHANGE_CONST_REMOVED, "const", oa, na, "const %s removed", show(c, ov));
    else if (ov && nv && !equal(c, ov, nv))
        report(c, SCHEMA_CHANGE_CONST_CHANGED, "const", oa, na, "const %s -> %s", show(c, ov),
               show(c, nv));
}

/* ---- bounds -------------------------------------------------------------------------- */

/* The effective numeric bound of one side: its value, whether it is exclusive, the
 * keyword that sets it. */
struct nbound {
    json_t *v; /* NULL: no bound */
    int excl;
    const char *kw;
};

/* The lower (LOWER) or upper bound of the schema OBJ of S; -1 when a keyword is malformed. */
static int effective_bound(const struct side *s, json_t *obj, int lower, struct nbound *b)
{
    const char *inc = lower ? "minimum" : "maximum";
    const char *exc = lower ? "exclusiveMinimum" : "exclusiveMaximum";
    json_t *iv = live(s, obj, inc), *xv = live(s, obj, exc);
    memset(b, 0, sizeof *b);
    if (iv && !json_is_number(iv)) return -1;
    if (s->draft == 4) { /* draft-04: a boolean that makes minimum/maximum exclusive */
        if (xv && !json_is_boolean(xv)) return -1;
        if (iv) b->v = iv, b->excl = json_is_true(xv), b->kw = inc;
        return 0;
    }
    if (xv && !json_is_number(xv)) return -1;
    if (iv) b->v = iv, b->kw = inc;
    if (xv && (!b->v || (lower ? val_num_cmp(xv, b->v) >= 0 : val_num_cmp(xv, b->v) <= 0)))
        b->v = xv, b->excl = 1, b->kw = exc;
    return 0;
}

/* "maximum 5", "exclusiveMaximum 5", draft-04's "maximum 5 (exclusive)". */
static const char *bound_text(struct compat *c, const struct side *s, const struct nbound *b)
{
    return keep(
        c,
        xasprintf("%s %s%s", b->kw, show(c, b->v), s->draft == 4 && b->excl ? " (exclusive)" : ""));
}

/* The place of the keyword that sets bound B in the schema at BASE of side S; a change
 * of draft-04's flag alone is at the flag (when present). */
static const char *bound_at(struct compat *c, const struct side *s, json_t *obj, const char *base,
                            const struct nbound *b, const char *flag)
{
    if (!b->v) return base;
    if (flag && s->draft == 4 && live(s, obj, flag)) return at(c, base, flag);
    return at(c, base, b->kw);
}

static void cmp_numeric(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                        int lower)
{
    struct nbound ob, nb;
    const char *inc = lower ? "minimum" : "maximum";
    const char *exc = lower ? "exclusiveMinimum" : "exclusiveMaximum";
    if (effective_bound(&c->old, o, lower, &ob) < 0 ||
        effective_bound(&c->new, n, lower, &nb) < 0) {
        unprovable(c, inc, live(&c->old, o, inc), live(&c->new, n, inc), op, np);
        unprovable(c, exc, live(&c->old, o, exc), live(&c->new, n, exc), op, np);
        return;
    }
    if (!ob.v && !nb.v) return;
    if (!ob.v)
        return report(c, SCHEMA_CHANGE_BOUND_TIGHTENED, nb.kw, op,
                      bound_at(c, &c->new, n, np, &nb, NULL), "%s added",
                      bound_text(c, &c->new, &nb));
    if (!nb.v)
        return report(c, SCHEMA_CHANGE_BOUND_LOOSENED, ob.kw,
                      bound_at(c, &c->old, o, op, &ob, NULL), np, "%s removed",
                      bound_text(c, &c->old, &ob));
    int cmp = val_num_cmp(nb.v, ob.v), d = lower ? cmp : -cmp;
    if (!d) d = nb.excl - ob.excl;
    if (!d) return;
    const char *kw = nb.kw, *flag = NULL;
    if (!cmp && c->new.draft == 4 && c->old.draft == 4) kw = flag = exc; /* the flag alone */
    const char *oa = bound_at(c, &c->old, o, op, &ob, flag);
    const char *na = bound_at(c, &c->new, n, np, &nb, flag);
    enum schema_change_kind k =
        d > 0 ? SCHEMA_CHANGE_BOUND_TIGHTENED : SCHEMA_CHANGE_BOUND_LOOSENED;
    if (!strcmp(ob.kw, nb.kw) && ob.excl == nb.excl)
        report(c, k, kw, oa, na, "%s %s -> %s", kw, show(c, ob.v), show(c, nb.v));
    else
        report(c, k, kw, oa, na, "%s -> %s", bound_text(c, &c->old, &ob),
               bound_text(c, &c->new, &nb));
}

/* minLength, maxItems, ...: a non-negative integer; an absent minimum is 0, an absent
 * maximum none. */
static void cmp_count(struct compat *c, const char *kw, int lower, json_t *o, json_t *n,
                      const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, kw), *nv = live(&c->new, n, kw);
    if ((ov && !json_is_number(ov)) || (nv && !json_is_number(nv)))
        return unprovable(c, kw, ov, nv, op, np);
    if (!ov && !nv) return;
    int d;
    if (ov && nv) d = val_num_cmp(nv, ov);
    else if (lower) {
        json_t *zero = json_integer(0);
        d = nv ? val_num_cmp(nv, zero) : -val_num_cmp(ov, zero);
        json_decref(zero);
    } else {
        d = nv ? -1 : 1; /* a maximum added lowers it from infinity */
    }
    if (!lower) d = -d;
    if (!d) return;
    enum schema_change_kind k =
        d > 0 ? SCHEMA_CHANGE_BOUND_TIGHTENED : SCHEMA_CHANGE_BOUND_LOOSENED;
    const char *oa = at_kw(c, op, ov, kw), *na = at_kw(c, np, nv, kw);
    if (ov && nv) report(c, k, kw, oa, na, "%s %s -> %s", kw, show(c, ov), show(c, nv));
    else if (nv) report(c, k, kw, oa, na, "%s %s added", kw, show(c, nv));
    else report(c, k, kw, oa, na, "%s %s removed", kw, show(c, ov));
}

static void cmp_multiple(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "multipleOf"), *nv = live(&c->new, n, "multipleOf");
    json_t *zero = json_integer(0);
    int bad = (ov && (!json_is_number(ov) || val_num_cmp(ov, zero) <= 0)) ||
        (nv && (!json_is_number(nv) || val_num_cmp(nv, zero) <= 0));
    json_decref(zero);
    if (bad) return unprovable(c, "multipleOf", ov, nv, op, np);
    if ((!ov && !nv) || (ov && nv && equal(c, ov, nv))) return;
    const char *oa = at_kw(c, op, ov, "multipleOf"), *na = at_kw(c, np, nv, "multipleOf");
    if (!ov)
        return report(c, SCHEMA_CHANGE_BOUND_TIGHTENED, "multipleOf", oa, na, "multipleOf %s added",
                      show(c, nv));
    if (!nv)
        return report(c, SCHEMA_CHANGE_BOUND_LOOSENED, "multipleOf", oa, na,
                      "multipleOf %s removed", show(c, ov));
    /* multiples of NEW are all multiples of OLD exactly when NEW is one of them */
    int tighter = schema_multiple_of(nv, ov), looser = schema_multiple_of(ov, nv);
    if (tighter || !looser)
        report(c, SCHEMA_CHANGE_BOUND_TIGHTENED, "multipleOf", oa, na, "multipleOf %s -> %s",
               show(c, ov), show(c, nv));
    if (looser || !tighter)
        report(c, SCHEMA_CHANGE_BOUND_LOOSENED, "multipleOf", oa, na, "multipleOf %s -> %s",
               show(c, ov), show(c, nv));
}

static void cmp_unique(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "uniqueItems"), *nv = live(&c->new, n, "uniqueItems");
    if ((ov && !json_is_boolean(ov)) || (nv && !json_is_boolean(nv)))
        return unprovable(c, "uniqueItems", ov, nv, op, np);
    int a = json_is_true(ov), b = json_is_true(nv);
    if (a == b) return;
    report(c, b ? SCHEMA_CHANGE_BOUND_TIGHTENED : SCHEMA_CHANGE_BOUND_LOOSENED, "uniqueItems",
           at_kw(c, op, ov, "uniqueItems"), at_kw(c, np, nv, "uniqueItems"), "uniqueItems %s -> %s",
           a ? "true" : "false", b ? "true" : "false");
}

/* ---- pattern, required --------------------------------------------------------------- */

static void cmp_pattern(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "pattern"), *nv = live(&c->new, n, "pattern");
    if (ov && nv) return unprovable(c, "pattern", ov, nv, op, np); /* changed: undecided */
    if (nv)
        report(c, SCHEMA_CHANGE_PATTERN_ADDED, "pattern", op, at(c, np, "pattern"),
               "pattern %s added", show(c, nv));
    else if (ov)
        report(c, SCHEMA_CHANGE_PATTERN_REMOVED, "pattern", at(c, op, "pattern"), np,
               "pattern %s removed", show(c, ov));
}

static int names_ok(json_t *v)
{
    if (!v) return 1;
    if (!json_is_array(v)) return 0;
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!json_is_string(json_array_get(v, i))) return 0;
    return 1;
}

static void cmp_required(struct compat *c, json_t *o, json_t *n, const char *op, const char *np)
{
    json_t *ov = live(&c->old, o, "required"), *nv = live(&c->new, n, "required");
    if (!names_ok(ov) || !names_ok(nv)) return unprovable(c, "required", ov, nv, op, np);
    size_t no = json_array_size(ov), nn = json_array_size(nv);
    const char *oa = at_kw(c, op, ov, "required"), *na = at_kw(c, np, nv, "required");
    for (size_t j = 0; j < nn; j++) {
        json_t *v = json_array_get(nv, j);
        if (!(ov && among(c, ov, no, v)) && !among(c, nv, j, v))
            report(c, SCHEMA_CHANGE_REQUIRED_ADDED, "required", oa, at_index(c, np, "required", j),
                   "property %s is now required", show(c, v));
    }
    for (size_t i = 0; i < no; i++) {
        json_t *v = json_array_get(ov, i);
        if (!(nv && among(c, nv, nn, v)) && !among(c, ov, i, v))
            report(c, SCHEMA_CHANGE_REQUIRED_REMOVED, "required", at_index(c, op, "required", i),
                   na, "property %s is no longer required", show(c, v));
    }
}

/* ---- properties, additionalProperties ------------------------------------------------ */

static void cmp_properties(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                           unsigned depth)
{
    json_t *ov = live(&c->old, o, "properties"), *nv = live(&c->new, n, "properties");
    if ((ov && !json_is_object(ov)) || (nv && !json_is_object(nv)))
        return unprovable(c, "properties", ov, nv, op, np);
    const char *oa = at_kw(c, op, ov, "properties"), *na = at_kw(c, np, nv, "properties");
    json_t *oadd = live(&c->old, o, "additionalProperties");
    const char *k;
    json_t *sub;
    json_object_foreach(nv, k, sub)
    {
        json_t *osub = json_object_get(ov, k);
        const char *nat = at(c, na, k);
        if (osub) {
            compare_schema(c, osub, sub, at(c, oa, k), nat, depth + 1);
        } else {
            report(c, SCHEMA_CHANGE_PROPERTY_ADDED, "properties", oa, nat, "property %s added",
                   quote(c, k));
            /* what OLD said such a member must be, when it said something */
            if (json_is_object(oadd) && !trivial(&c->old, oadd))
                compare_schema(c, oadd, sub, at(c, op, "additionalProperties"), nat, depth + 1);
        }
        if (c->stop) return;
    }
    json_t *nadd = live(&c->new, n, "additionalProperties");
    json_t *npat = live(&c->new, n, "patternProperties");
    json_object_foreach(ov, k, sub)
    {
        if (json_object_get(nv, k)) continue;
        const char *oat = at(c, oa, k), *name = quote(c, k);
        if (json_is_object(npat) && json_object_size(npat))
            report(c, SCHEMA_CHANGE_UNPROVABLE, "patternProperties", oat,
                   at(c, np, "patternProperties"),
                   "property %s removed; whether patternProperties admits it is not decided", name);
        else if (!nadd || trivial(&c->new, nadd) || same(c, sub, nadd))
            report(c, SCHEMA_CHANGE_PROPERTY_REMOVED, "properties", oat, na, "property %s removed",
                   name);
        else if (json_is_false(nadd))
            report(c, SCHEMA_CHANGE_PROPERTY_REMOVED_CLOSED, "properties", oat, na,
                   "property %s removed, and additionalProperties is false", name);
        else
            report(c, SCHEMA_CHANGE_UNPROVABLE, "additionalProperties", oat,
                   at(c, np, "additionalProperties"),
                   "property %s removed; whether additionalProperties admits it is not decided",
                   name);
    }
}

enum { A_OPEN, A_CLOSED, A_SCHEMA };

static int additional_class(const struct side *s, json_t *v)
{
    if (!v || trivial(s, v)) return A_OPEN;
    if (json_is_false(v)) return A_CLOSED;
    return json_is_object(v) ? A_SCHEMA : -1;
}

static void cmp_additional(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                           unsigned depth)
{
    const char *kw = "additionalProperties";
    json_t *ov = live(&c->old, o, kw), *nv = live(&c->new, n, kw);
    int oc = additional_class(&c->old, ov), nc = additional_class(&c->new, nv);
    if (oc < 0 || nc < 0) return unprovable(c, kw, ov, nv, op, np);
    const char *oa = at_kw(c, op, ov, kw), *na = at_kw(c, np, nv, kw);
    if (oc == nc) {
        if (oc == A_SCHEMA) compare_schema(c, ov, nv, oa, na, depth + 1);
        return;
    }
    int closed = oc == A_OPEN || nc == A_CLOSED;
    report(c, closed ? SCHEMA_CHANGE_ADDITIONAL_CLOSED : SCHEMA_CHANGE_ADDITIONAL_OPENED, kw, oa,
           na, "additionalProperties %s -> %s", show(c, ov), show(c, nv));
}

/* ---- arrays -------------------------------------------------------------------------- */

/* An array schema as positional schemas, then the schema for the rest. */
struct shape {
    json_t *prefix; /* array, or NULL */
    const char *prefix_kw;
    json_t *rest; /* NULL: true */
    const char *rest_kw;
};

static void array_shape(const struct side *s, json_t *obj, struct shape *a)
{
    json_t *items = live(s, obj, "items");
    memset(a, 0, sizeof *a);
    if (s->draft >= 2020) { /* prefixItems, then items (2020-12 Core, 10.3.1) */
        json_t *pre = live(s, obj, "prefixItems");
        if (json_is_array(pre)) a->prefix = pre, a->prefix_kw = "prefixItems";
        a->rest = items, a->rest_kw = "items";
    } else if (json_is_array(items)) { /* items array, then additionalItems */
        a->prefix = items, a->prefix_kw = "items";
        a->rest = live(s, obj, "additionalItems"), a->rest_kw = "additionalItems";
    } else {
        a->rest = items, a->rest_kw = "items";
    }
}

static void cmp_items(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                      unsigned depth)
{
    struct shape a, b;
    array_shape(&c->old, o, &a);
    array_shape(&c->new, n, &b);
    if (json_is_array(a.rest) || json_is_array(b.rest)) /* items array in 2020-12: malformed */
        return unprovable(c, "items", live(&c->old, o, "items"), live(&c->new, n, "items"), op, np);
    size_t la = json_array_size(a.prefix), lb = json_array_size(b.prefix);
    const char *ra = at_kw(c, op, a.rest, a.rest_kw), *rb = at_kw(c, np, b.rest, b.rest_kw);
    json_t *t = json_true();
    for (size_t i = 0; i < la || i < lb; i++) {
        json_t *x = i < la ? json_array_get(a.prefix, i) : a.rest ? a.rest : t;
        json_t *y = i < lb ? json_array_get(b.prefix, i) : b.rest ? b.rest : t;
        compare_schema(c, x, y, i < la ? at_index(c, op, a.prefix_kw, i) : ra,
                       i < lb ? at_index(c, np, b.prefix_kw, i) : rb, depth + 1);
        if (c->stop) return;
    }
    if (a.rest || b.rest)
        compare_schema(c, a.rest ? a.rest : t, b.rest ? b.rest : t, ra, rb, depth + 1);
}

/* ---- anyOf, oneOf -------------------------------------------------------------------- */

static void cmp_alternatives(struct compat *c, const char *kw, json_t *o, json_t *n, const char *op,
                             const char *np, unsigned depth)
{
    json_t *ov = live(&c->old, o, kw), *nv = live(&c->new, n, kw);
    if (!json_is_array(ov) || !json_is_array(nv)) /* added or removed whole */
        return unprovable(c, kw, ov, nv, op, np);
    size_t no = json_array_size(ov), nn = json_array_size(nv), uo = no, un = 0;
    char *used = xcalloc(no + 1, 1);
    size_t *match = xmalloc((nn + 1) * sizeof *match);
    for (size_t j = 0; j < nn; j++) {
        json_t *y = json_array_get(nv, j);
        match[j] = SCHEMA_NONE;
        for (size_t i = 0; i < no && match[j] == SCHEMA_NONE; i++) {
            json_t *x = json_array_get(ov, i);
            if (!used[i] && equal(c, x, y)) used[i] = 1, match[j] = i, uo--;
        }
        un += match[j] == SCHEMA_NONE;
    }
    const char *oa = at(c, op, kw), *na = at(c, np, kw);
    for (size_t j = 0; j < nn && !c->stop; j++) {
        size_t i = match[j];
        if (i != SCHEMA_NONE && has_ref(&c->old, json_array_get(ov, i)))
            compare_schema(c, json_array_get(ov, i), json_array_get(nv, j), at_index(c, op, kw, i),
                           at_index(c, np, kw, j), depth + 1);
        else if (i == SCHEMA_NONE && un != uo)
            report(c, SCHEMA_CHANGE_ALTERNATIVE_ADDED, kw, oa, at_index(c, np, kw, j),
                   "%s alternative %s added", kw, show(c, json_array_get(nv, j)));
    }
    for (size_t i = 0; i < no && un != uo; i++)
        if (!used[i])
            report(c, SCHEMA_CHANGE_ALTERNATIVE_REMOVED, kw, at_index(c, op, kw, i), na,
                   "%s alternative %s removed", kw, show(c, json_array_get(ov, i)));
    if (un && un == uo)
        report(c, SCHEMA_CHANGE_UNPROVABLE, kw, oa, na, "%s: %zu alternative%s edited", kw, un,
               un == 1 ? "" : "s");
    free(used);
    free(match);
}

/* ---- $ref beside other keywords (2019-09 on), or not followed ------------------------ */

static void cmp_ref(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                    unsigned depth)
{
    json_t *ov = live(&c->old, o, "$ref"), *nv = live(&c->new, n, "$ref");
    const char *ot_at = NULL, *nt_at = NULL;
    json_t *ot = ov ? ref_target(c, &c->old, ov, &ot_at) : NULL;
    json_t *nt = nv ? ref_target(c, &c->new, nv, &nt_at) : NULL;
    if (ot && nt) return compare_schema(c, ot, nt, ot_at, nt_at, depth + 1);
    if (ov && nv && equal(c, ov, nv) && !ot && !nt) return; /* the same other document */
    if (ov && nv && equal(c, ov, nv))
        return report(c, SCHEMA_CHANGE_UNPROVABLE, "$ref", at(c, op, "$ref"), at(c, np, "$ref"),
                      "$ref %s resolves on one side only", show(c, nv));
    unprovable(c, "$ref", ov, nv, op, np);
}

/* ---- the recursion -------------------------------------------------------------------- */

static void compare_group(struct compat *c, enum group g, json_t *o, json_t *n, const char *op,
                          const char *np, unsigned depth)
{
    switch (g) {
    case G_TYPE: return cmp_type(c, o, n, op, np);
    case G_ENUM: return cmp_enum(c, o, n, op, np);
    case G_CONST: return cmp_const(c, o, n, op, np);
    case G_LOWER: return cmp_numeric(c, o, n, op, np, 1);
    case G_UPPER: return cmp_numeric(c, o, n, op, np, 0);
    case G_MULTIPLE: return cmp_multiple(c, o, n, op, np);
    case G_UNIQUE: return cmp_unique(c, o, n, op, np);
    case G_MINLENGTH: return cmp_count(c, "minLength", 1, o, n, op, np);
    case G_MAXLENGTH: return cmp_count(c, "maxLength", 0, o, n, op, np);
    case G_MINITEMS: return cmp_count(c, "minItems", 1, o, n, op, np);
    case G_MAXITEMS: return cmp_count(c, "maxItems", 0, o, n, op, np);
    case G_MINPROPS: return cmp_count(c, "minProperties", 1, o, n, op, np);
    case G_MAXPROPS: return cmp_count(c, "maxProperties", 0, o, n, op, np);
    case G_PATTERN: return cmp_pattern(c, o, n, op, np);
    case G_REQUIRED: return cmp_required(c, o, n, op, np);
    case G_PROPERTIES: return cmp_properties(c, o, n, op, np, depth);
    case G_ADDITIONAL: return cmp_additional(c, o, n, op, np, depth);
    case G_ITEMS: return cmp_items(c, o, n, op, np, depth);
    case G_ANYOF: return cmp_alternatives(c, "anyOf", o, n, op, np, depth);
    case G_ONEOF: return cmp_alternatives(c, "oneOf", o, n, op, np, depth);
    case G_REF: return cmp_ref(c, o, n, op, np, depth);
    case G_OTHER:
    case G_IGNORE: break;
    }
}

/* The JSON types the keywords of group G apply to (T_ALL: any). */
static int group_types(enum group g)
{
    switch (g) {
    case G_LOWER:
    case G_UPPER:
    case G_MULTIPLE: return T_INTEGER | T_FRACTION;
    case G_MINLENGTH:
    case G_MAXLENGTH:
    case G_PATTERN: return T_STRING;
    case G_MINITEMS:
    case G_MAXITEMS:
    case G_UNIQUE:
    case G_ITEMS: return T_ARRAY;
    case G_MINPROPS:
    case G_MAXPROPS:
    case G_REQUIRED:
    case G_PROPERTIES:
    case G_ADDITIONAL: return T_OBJECT;
    default: return T_ALL;
    }
}

/* The keywords of the schema objects O and N: in NEW's order, then what only OLD has. A
 * group that applies to one JSON type only (minLength to strings, items to arrays) is not
 * compared when OLD and NEW admit no value of that type in common: a string that became an
 * array is one change, its type, and the array's items concern no call that worked. */
static void compare_keywords(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                             unsigned depth)
{
    int ot = type_mask(live(&c->old, o, "type")), nt = type_mask(live(&c->new, n, "type"));
    int common = (ot < 0 ? T_ALL : ot) & (nt < 0 ? T_ALL : nt) & (depth ? T_ALL : c->root_types);
    uint64_t done = 0;
    for (int g = 0; g < 64; g++) { /* the groups of one type neither side has: as if done */
        int t = group_types((enum group)g);
        if (t != T_ALL && !(t & common)) done |= 1ull << g;
    }
    const char *k;
    json_t *v;
    json_object_foreach(n, k, v)
    {
        enum group g = group_of(k, c->new.draft);
        if (g == G_IGNORE || !live(&c->new, n, k)) continue;
        if (g == G_OTHER) {
            json_t *ov = group_of(k, c->old.draft) == G_OTHER ? live(&c->old, o, k) : NULL;
            unprovable(c, k, ov, v, op, np);
        } else if (!(done >> g & 1)) {
            done |= 1ull << g;
            compare_group(c, g, o, n, op, np, depth);
        }
        if (c->stop) return;
    }
    json_object_foreach(o, k, v)
    {
        enum group g = group_of(k, c->old.draft);
        if (g == G_IGNORE || !live(&c->old, o, k)) continue;
        if (g == G_OTHER) {
            if (group_of(k, c->new.draft) != G_OTHER || !live(&c->new, n, k))
                unprovable(c, k, v, NULL, op, np);
        } else if (!(done >> g & 1)) {
            done |= 1ull << g;
            compare_group(c, g, o, n, op, np, depth);
        }
        if (c->stop) return;
    }
}

/* Does comparing O with N (a probe: nothing reported) find any change? */
static int schemas_differ(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                          unsigned depth)
{
    struct compat p = *c;
    memset(&p.visited, 0, sizeof p.visited);
    memset(&p.reported, 0, sizeof p.reported);
    p.probe = 1, p.count = 0, p.stop = 0;
    compare_schema(&p, o, n, op, np, depth);
    int differ = p.count || p.stop;
    schema_map_release(&p.visited);
    schema_map_release(&p.reported);
    c->pairs = p.pairs;
    if (c->pairs > SCHEMA_COMPAT_MAX_PAIRS) too_large(c);
    return differ;
}

/* Does schema object S hold a constraining keyword other than KW (annotations aside)? */
static int constrains_besides(const struct side *sd, json_t *s, const char *kw)
{
    const char *k;
    json_t *v;
    json_object_foreach(s, k, v)
    {
        if (strcmp(k, kw) && group_of(k, sd->draft) != G_IGNORE && live(sd, s, k)) return 1;
    }
    return 0;
}

/* One side is an anyOf (or oneOf) and nothing else (annotations aside), the other is
 * one of its alternatives, unchanged (a union narrowed to one of its members, or a type
 * widened into a union): the other alternatives were removed (added), and that is all
 * that changed; without this the keywords of the one would be compared with the union's
 * absent ones ("type narrowed from any"). 1 when so (reported), else 0. */
static int alternatives_collapsed(struct compat *c, json_t *o, json_t *n, const char *op,
                                  const char *np, unsigned depth)
{
    static const char *const kws[] = {"anyOf", "oneOf"};
    for (int dir = 0; dir < 2; dir++) {
        json_t *whole = dir ? n : o, *one = dir ? o : n;
        const struct side *ws = dir ? &c->new : &c->old, *os = dir ? &c->old : &c->new;
        for (size_t k = 0; k < 2; k++) {
            json_t *alts = live(ws, whole, kws[k]);
            if (!json_is_array(alts) || live(os, one, "anyOf") || live(os, one, "oneOf") ||
                constrains_besides(ws, whole, kws[k]))
                continue;
            size_t hit = SIZE_MAX;
            for (size_t i = 0; i < json_array_size(alts) && hit == SIZE_MAX && !c->stop; i++) {
                json_t *alt = json_array_get(alts, i);
                const char *ap = at_index(c, dir ? np : op, kws[k], i);
                if (dir ? !schemas_differ(c, one, alt, op, ap, depth + 1)
                        : !schemas_differ(c, alt, one, ap, np, depth + 1))
                    hit = i;
            }
            if (hit == SIZE_MAX) continue;
            for (size_t i = 0; i < json_array_size(alts); i++) {
                if (i == hit) continue;
                const char *ap = at_index(c, dir ? np : op, kws[k], i);
                if (dir)
                    report(c, SCHEMA_CHANGE_ALTERNATIVE_ADDED, kws[k], op, ap,
                           "%s alternative %s added (the schema was its alternative %zu alone)",
                           kws[k], show(c, json_array_get(alts, i)), hit);
                else
                    report(c, SCHEMA_CHANGE_ALTERNATIVE_REMOVED, kws[k], ap, np,
                           "%s alternative %s removed (the schema is its alternative %zu alone)",
                           kws[k], show(c, json_array_get(alts, i)), hit);
            }
            return 1;
        }
    }
    return 0;
}

/* Pair O (at OP in OLD) with N (at NP in NEW). Was the pair compared already (or is it
 * being compared: a cycle of references)? Marks it. */
static int pair_seen(struct compat *c, json_t *o, json_t *n)
{
    json_t *key[2] = {o, n};
    if (schema_map_get(&c->visited, key, sizeof key, NULL)) return 1;
    schema_map_put(&c->visited, key, sizeof key, 1);
    return 0;
}

static void compare_schema(struct compat *c, json_t *o, json_t *n, const char *op, const char *np,
                           unsigned depth)
{
    if (c->stop) return;
    o = resolve(c, &c->old, o, &op);
    n = resolve(c, &c->new, n, &np);
    if (json_is_true(o)) o = c->empty;
    if (json_is_true(n)) n = c->empty;
    if (same(c, o, n) || pair_seen(c, o, n)) return;
    if (++c->pairs > SCHEMA_COMPAT_MAX_PAIRS) return too_large(c);
    if (depth >= SCHEMA_COMPAT_MAX_DEPTH)
        return report(c, SCHEMA_CHANGE_UNPROVABLE, "schema", op, np,
                      "too deeply nested to compare (more than %u levels)",
                      SCHEMA_COMPAT_MAX_DEPTH);
    if (json_is_false(n) || json_is_false(o)) {
        if (!json_is_false(o))
            report(c, SCHEMA_CHANGE_TYPE_NARROWED, "schema", op, np,
                   "schema became false: it admits nothing");
        else if (!json_is_false(n))
            report(c, SCHEMA_CHANGE_TYPE_WIDENED, "schema", op, np,
                   "schema was false: it admitted nothing");
        return;
    }
    if (!json_is_object(o) || !json_is_object(n))
        return report(c, SCHEMA_CHANGE_UNPROVABLE, "schema", op, np, "schema changed from %s to %s",
                      show(c, o), show(c, n));
    unsigned outer = c->depth;
    c->depth = depth;
    if (!alternatives_collapsed(c, o, n, op, np, depth)) compare_keywords(c, o, n, op, np, depth);
    c->depth = outer;
}

/* Does V have at most *BUDGET values, counted as a tree? Spends them. */
static int within(json_t *v, size_t *budget)
{
    if (!*budget) return 0;
    --*budget;
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m)
        {
            if (!within(m, budget)) return 0;
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!within(json_array_get(v, i), budget)) return 0;
    }
    return 1;
}

size_t schema_compat_compare(json_t *old_schema, json_t *new_schema,
                             enum schema_dialect default_dialect, schema_change_fn fn, void *arg)
{
    return schema_compat_compare_root(old_schema, new_schema, default_dialect, NULL, fn, arg);
}

int schema_compat_roots_equal(json_t *old_schema, json_t *new_schema)
{
    if (old_schema == new_schema) return 1;
    /* equal roots reach equal definitions: nothing changed, found before any index is
     * built (unless a value shared many times over makes a root too large to walk) */
    size_t budget = ROOT_EQUAL_LIMIT;
    return within(old_schema, &budget) && within(new_schema, &budget) &&
        val_equal(old_schema, new_schema);
}

size_t schema_compat_compare_root(json_t *old_schema, json_t *new_schema,
                                  enum schema_dialect default_dialect, const char *root_type,
                                  schema_change_fn fn, void *arg)
{
    if (!old_schema || !new_schema || schema_compat_roots_equal(old_schema, new_schema)) return 0;
    struct strs strs = {NULL, 0, 0};
    struct compat c;
    memset(&c, 0, sizeof c);
    c.fn = fn, c.arg = arg;
    c.strs = &strs;
    c.root_types = T_ALL;
    if (root_type) {
        json_t *t = json_string(root_type);
        int b = type_bits(t);
        json_decref(t);
        if (b > 0) c.root_types = b;
    }
    side_init(&c.old, old_schema, default_dialect);
    side_init(&c.new, new_schema, default_dialect);
    c.empty = json_object();
    compare_schema(&c, old_schema, new_schema, "", "", 0);
    json_decref(c.empty);
    side_release(&c.old);
    side_release(&c.new);
    schema_map_release(&c.visited);
    schema_map_release(&c.reported);
    for (size_t i = 0; i < strs.len; i++) free(strs.items[i]);
    free(strs.items);
    return c.count;
}
