/* schema_explain.c - one finding per failing value of a checked schema. schema_check
 * lists what failed as the meta-schema and the compiler see it: one mistake often gives
 * several errors (a $dynamicRef to each vocabulary's meta-schema, each anyOf
 * alternative, then the compiler's own), in the meta-schema's words ("value matches none
 * of the anyOf alternatives: ..."). Here they are grouped by the value inside the schema
 * they are about, and each value is worded once, by its keyword's expected form
 * (schema_keywords.c): "type must be one of the JSON Schema type names: ..., not
 * \"strng\": did you mean \"string\"?". */
#include <stdlib.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

struct group {
    const char *loc;                 /* the value's pointer inside the schema */
    const struct schema_error *meta; /* the first meta-schema error about it, or NULL */
    const struct schema_error *comp; /* the first compiler error about it, or NULL */
    int has_inner;                   /* another group's place is inside this one's */
};

struct group_list {
    struct group *items;
    size_t len, cap;
};

/* Where a value sits in a schema: at its root, as a keyword's value (or inside one), or
 * as a member of a keyword that holds schemas (properties/x, allOf/0). */
enum place_kind { PLACE_ROOT, PLACE_KEYWORD, PLACE_MEMBER };
struct place {
    enum place_kind kind;
    const struct schema_kwinfo *kw; /* PLACE_KEYWORD (NULL: unknown keyword), PLACE_MEMBER:
                                     * the holder */
    const char *name;               /* the keyword's (or the member's) name, borrowed */
    int depth_below;                /* PLACE_KEYWORD: segments inside the keyword's value */
    const char *below;              /* the first of those, borrowed */
};

/* An error of the meta-schema (a URI keyword location) rather than of the compiler (a
 * pointer into the schema itself). */
static int is_meta(const struct schema_error *e)
{
    return e->keyword_location && strchr(e->keyword_location, '#') && e->keyword_location[0] != '/';
}

static void locate(json_t *sch, int draft, const struct ptr *p, struct place *out)
{
    *out = (struct place){PLACE_ROOT, NULL, NULL, 0, NULL};
    json_t *cur = sch;
    for (size_t i = 0; i < p->n && json_is_object(cur); i++) {
        const char *seg = p->segs[i];
        const struct schema_kwinfo *k = schema_kwinfo(draft, seg);
        json_t *v = json_object_get(cur, seg);
        *out = (struct place){PLACE_KEYWORD, k, seg, (int)(p->n - i - 1),
                              i + 1 < p->n ? p->segs[i + 1] : NULL};
        if (!k || i + 1 == p->n || k->shape == SKW_DATA) return;
        if (k->shape == SKW_ONE || (k->shape == SKW_ITEMS && !json_is_array(v))) {
            cur = v;
            continue;
        }
        /* a keyword holding schemas by name or index: the next segment names one */
        const char *member = p->segs[++i];
        json_t *sub = json_is_array(v) ? json_array_get(v, (size_t)strtoul(member, NULL, 10))
                                       : json_object_get(v, member);
        if (i + 1 == p->n) {
            *out = (struct place){PLACE_MEMBER, k, member, 0, NULL};
            return;
        }
        if (k->shape == SKW_DEPS && !json_is_object(sub)) return; /* a list of names */
        cur = sub;
    }
}

/* VALUE in a message: compact JSON, cut at 40 bytes. */
static void add_value(struct buf *b, json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    size_t n = s ? strlen(s) : 0;
    if (n > 40) buf_addf(b, "%.37s...", s);
    else buf_adds(b, s ? s : "?");
    free(s);
}

/* A number written as a string ("1"): say so. */
static void add_number_in_quotes(struct buf *b, const char *form, json_t *v)
{
    if (!json_is_string(v) || (!strstr(form, "number") && !strstr(form, "integer"))) return;
    const char *s = json_string_value(v);
    char *end;
    if (!(*s == '-' || (*s >= '0' && *s <= '9'))) return; /* not " 1", "inf", "nan" */
    strtod(s, &end);
    if (*end) return;
    buf_addf(b, ": write %s, without quotes", s);
}

/* type: the first name that is not a type name, with the one it is likely to mean. */
static void add_type_suggestion(struct buf *b, json_t *v)
{
    json_t *names = json_is_array(v) ? v : NULL, *e = v;
    size_t i = 0;
    if (names) e = json_array_get(names, 0);
    for (; e; e = names ? json_array_get(names, ++i) : NULL) {
        if (!json_is_string(e) || schema_type_name_known(json_string_value(e))) {
            if (!names) return;
            continue;
        }
        const char *s = schema_type_suggest(json_string_value(e));
        if (s) buf_addf(b, ": did you mean \"%s\"?", s);
        else if (names) buf_addf(b, ": \"%s\" is not one", json_string_value(e));
        return;
    }
    for (size_t k = 0; names && k < json_array_size(names); k++) /* all names: a repeat? */
        for (size_t j = 0; j < k; j++)
            if (json_equal(json_array_get(names, j), json_array_get(names, k))) {
                buf_addf(b, ": \"%s\" is named twice", json_string_value(json_array_get(names, k)));
                return;
            }
}

/* Does the compiler's error say the value has the wrong shape ("\"type\" must name JSON
 * Schema types", "expected a schema ...")? Not a bad regex, reference or NUL. */
static int shape_error(const struct group *g)
{
    if (!g->comp) return 0;
    const char *m = g->comp->message, *slash = strrchr(g->loc, '/');
    if (!strncmp(m, "expected a schema", 17)) return 1;
    if (!slash || *m != '"') return 0;
    size_t n = strlen(slash + 1);
    return !strncmp(m + 1, slash + 1, n) && !strncmp(m + 1 + n, "\" must", 6);
}

static char *word(json_t *sch, int draft, const struct group *g)
{
    struct ptr p = PTR_INIT;
    const char *why;
    const struct schema_error *fallback = g->comp ? g->comp : g->meta;
    if (!(g->meta || shape_error(g)) || ptr_parse(g->loc, &p, &why) < 0)
        return xstrdup(fallback->message);
    json_t *v = ptr_get(sch, &p);
    struct place pl;
    locate(sch, draft, &p, &pl);
    struct buf b = BUF_INIT;
    if (pl.kind == PLACE_KEYWORD && pl.kw && v) {
        const char *form = schema_kwform(draft, pl.kw);
        if (form) {
            buf_addf(&b, "%s must be %s", pl.name, form);
            if (!pl.depth_below) {
                buf_adds(&b, ", not ");
                add_value(&b, v);
                if (!strcmp(pl.name, "type")) add_type_suggestion(&b, v);
                else add_number_in_quotes(&b, form, v);
                if (!strcmp(pl.name, "items") && draft >= 2020 && json_is_array(v))
                    buf_adds(&b, ": a list of positional schemas is prefixItems in 2020-12");
            } else {
                size_t idx;
                if (pl.depth_below == 1 && ptr_is_index(pl.below, &idx))
                    buf_addf(&b, "; its item %zu is ", idx);
                else buf_addf(&b, "; at %s inside it there is ", g->loc);
                add_value(&b, v);
            }
        }
    } else if (pl.kind == PLACE_MEMBER && v && !json_is_object(v)) {
        const char *form = pl.kw->shape == SKW_DEPS
            ? "a schema or an array of strings (property names)"
            : schema_subschema_form(draft);
        if (pl.kw->shape == SKW_ARRAY || pl.kw->shape == SKW_ITEMS)
            buf_addf(&b, "item %s of %s must be %s, not ", pl.name, pl.kw->kw, form);
        else buf_addf(&b, "\"%s\" in %s must be %s, not ", pl.name, pl.kw->kw, form);
        add_value(&b, v);
    }
    ptr_release(&p);
    return b.len ? buf_detach(&b) : xstrdup(fallback->message);
}

/* The value at LOC in SCH (borrowed), or NULL. */
static json_t *value_at(json_t *sch, const char *loc)
{
    struct ptr p = PTR_INIT;
    const char *why;
    json_t *v = ptr_parse(loc, &p, &why) == 0 ? ptr_get(sch, &p) : NULL;
    ptr_release(&p);
    return v;
}

/* Is the error an anyOf or oneOf that none of its alternatives fit? */
static int is_alternatives(const struct schema_error *e)
{
    const char *k = e->keyword_location;
    size_t n = strlen(k);
    return (n >= 6 && !strcmp(k + n - 6, "/anyOf")) || (n >= 6 && !strcmp(k + n - 6, "/oneOf"));
}

/* Is G the same mistake as a value named inside it, named less exactly? The compiler's
 * error at its place ("required" must be an array of strings) beside the meta-schema's at
 * an item of it; a meta-schema anyOf there (draft-07's items: a schema or an array of
 * schemas) beside the error that made each alternative fail. */
static int covered(const struct group *g)
{
    return g->has_inner && !(g->meta && !is_alternatives(g->meta));
}

/* Mark every group whose place encloses another group's (through BY_LOC: place to
 * index), walking each place's ancestors: linear in the places and their depth. */
static void mark_inner(struct group_list *groups, const struct schema_map *by_loc)
{
    for (size_t k = 0; k < groups->len; k++) {
        const char *loc = groups->items[k].loc;
        for (const char *slash = strrchr(loc, '/'); slash && slash > loc;) {
            size_t idx;
            size_t n = (size_t)(slash - loc);
            if (schema_map_get(by_loc, loc, n, &idx)) groups->items[idx].has_inner = 1;
            while (--slash > loc && *slash != '/') continue;
        }
    }
}

void schema_explain(json_t *sch, enum schema_dialect dialect, const struct schema_errors *errs,
                    struct schema_errors *out)
{
    struct group_list groups = VEC_INIT;
    struct schema_map by_loc = {0}, worded = {0};
    for (size_t i = 0; i < errs->len; i++) {
        const struct schema_error *e = &errs->items[i];
        const char *loc = e->instance_location ? e->instance_location : "";
        size_t k;
        if (!schema_smap_get(&by_loc, loc, &k)) {
            k = groups.len;
            VEC_PUSH(groups, ((struct group){loc, NULL, NULL, 0}));
            schema_smap_put(&by_loc, loc, k);
        }
        struct group *g = &groups.items[k];
        if (is_meta(e) && !g->meta) g->meta = e;
        if (!is_meta(e) && !g->comp) g->comp = e;
    }
    mark_inner(&groups, &by_loc);
    for (size_t k = 0; k < groups.len; k++) {
        const struct group *g = &groups.items[k];
        if (covered(g)) continue;
        char *msg = word(sch, (int)dialect, g);
        /* one value that several places share (a component that several $componentRefs
         * substituted) is worded once: keyed by the value's address and the words */
        json_t *v = value_at(sch, g->loc);
        char *key = v ? xasprintf("%p %s", (void *)v, msg) : NULL;
        if (!key || !schema_smap_get(&worded, key, NULL)) {
            if (key) schema_smap_put(&worded, key, k);
            const struct schema_error *first = g->meta ? g->meta : g->comp;
            schema_errors_add(out, first->keyword_location, g->loc, "%s", msg);
        }
        free(key);
        free(msg);
    }
    schema_map_release(&by_loc);
    schema_map_release(&worded);
    VEC_FREE(groups);
}
