/* schema_keywords.c - the keywords of each dialect as a schema author writes them: which
 * dialects define a keyword, what its value holds (subschemas or data), and its expected
 * form in words ("a non-negative integer"), for the messages of schema_explain.c and the
 * misspelt-keyword check (schema_keywords_misspelt). The forms follow each dialect's
 * meta-schema (the 2020-12 meta-schema and its vocabularies, draft-07/schema, ...), which stays
 * the authority: this table only words what the meta-schema requires. */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

/* 4, 6, 7, 2019, 2020: the dialects' numbers (enum schema_dialect). */
#define ALL 0, 9999
#define FROM(d) (d), 9999

static const struct schema_kwinfo KEYWORDS[] = {
    {"$schema", ALL, SKW_DATA, "a string, the URI of a dialect's meta-schema"},
    {"id", 4, 4, SKW_DATA, "a string, a URI reference"},
    {"$id", FROM(6), SKW_DATA, "a string, a URI reference"},
    {"$ref", ALL, SKW_DATA, "a string, a URI reference"},
    {"$anchor", FROM(2019), SKW_DATA, "a string, a plain name such as \"address\""},
    {"$dynamicRef", FROM(2020), SKW_DATA, "a string, a URI reference"},
    {"$dynamicAnchor", FROM(2020), SKW_DATA, "a string, a plain name such as \"node\""},
    {"$recursiveRef", 2019, 2019, SKW_DATA, "a string, a URI reference"},
    {"$recursiveAnchor", 2019, 2019, SKW_DATA, "a boolean"},
    {"$vocabulary", FROM(2019), SKW_DATA, "an object of vocabulary URIs, each true or false"},
    {"$comment", FROM(7), SKW_DATA, "a string"},
    {"$defs", FROM(2019), SKW_MAP, "an object whose values are schemas"},
    {"definitions", ALL, SKW_MAP, "an object whose values are schemas"},
    {"title", ALL, SKW_DATA, "a string"},
    {"description", ALL, SKW_DATA, "a string"},
    {"default", ALL, SKW_DATA, NULL},
    {"examples", FROM(6), SKW_DATA, "an array of example values"},
    {"readOnly", FROM(7), SKW_DATA, "a boolean"},
    {"writeOnly", FROM(7), SKW_DATA, "a boolean"},
    {"deprecated", FROM(2019), SKW_DATA, "a boolean"},
    {"type", ALL, SKW_DATA, NULL}, /* worded by schema_kwform (the type names) */
    {"enum", ALL, SKW_DATA, "an array of the allowed values"},
    {"const", FROM(6), SKW_DATA, NULL},
    {"multipleOf", ALL, SKW_DATA, "a number greater than 0"},
    {"maximum", ALL, SKW_DATA, "a number"},
    {"minimum", ALL, SKW_DATA, "a number"},
    {"exclusiveMaximum", 4, 4, SKW_DATA, "a boolean (it makes maximum exclusive)"},
    {"exclusiveMinimum", 4, 4, SKW_DATA, "a boolean (it makes minimum exclusive)"},
    {"exclusiveMaximum", FROM(6), SKW_DATA, "a number"},
    {"exclusiveMinimum", FROM(6), SKW_DATA, "a number"},
    {"maxLength", ALL, SKW_DATA, "a non-negative integer"},
    {"minLength", ALL, SKW_DATA, "a non-negative integer"},
    {"pattern", ALL, SKW_DATA, "a string, a regular expression (ECMA-262)"},
    {"format", ALL, SKW_DATA, "a string"},
    {"maxItems", ALL, SKW_DATA, "a non-negative integer"},
    {"minItems", ALL, SKW_DATA, "a non-negative integer"},
    {"uniqueItems", ALL, SKW_DATA, "a boolean"},
    {"maxContains", FROM(2019), SKW_DATA, "a non-negative integer"},
    {"minContains", FROM(2019), SKW_DATA, "a non-negative integer"},
    {"maxProperties", ALL, SKW_DATA, "a non-negative integer"},
    {"minProperties", ALL, SKW_DATA, "a non-negative integer"},
    {"required", 4, 4, SKW_DATA, "a non-empty array of distinct strings (property names)"},
    {"required", FROM(6), SKW_DATA, "an array of distinct strings (property names)"},
    {"dependentRequired", FROM(2019), SKW_DATA,
     "an object whose values are arrays of distinct strings (property names)"},
    {"dependentSchemas", FROM(2019), SKW_MAP, "an object whose values are schemas"},
    {"dependencies", ALL, SKW_DEPS,
     "an object whose values are schemas or arrays of strings (property names)"},
    {"properties", ALL, SKW_MAP, "an object whose values are schemas"},
    {"patternProperties", ALL, SKW_MAP,
     "an object whose member names are regular expressions and whose values are schemas"},
    {"additionalProperties", ALL, SKW_ONE, NULL},
    {"propertyNames", FROM(6), SKW_ONE, NULL},
    {"allOf", ALL, SKW_ARRAY, "a non-empty array of schemas"},
    {"anyOf", ALL, SKW_ARRAY, "a non-empty array of schemas"},
    {"oneOf", ALL, SKW_ARRAY, "a non-empty array of schemas"},
    {"not", ALL, SKW_ONE, NULL},
    {"if", FROM(7), SKW_ONE, NULL},
    {"then", FROM(7), SKW_ONE, NULL},
    {"else", FROM(7), SKW_ONE, NULL},
    {"contains", FROM(6), SKW_ONE, NULL},
    {"prefixItems", FROM(2020), SKW_ARRAY, "a non-empty array of schemas"},
    {"items", 0, 2019, SKW_ITEMS, NULL},
    {"items", FROM(2020), SKW_ONE, NULL},
    {"additionalItems", 0, 2019, SKW_ONE, NULL},
    {"unevaluatedItems", FROM(2019), SKW_ONE, NULL},
    {"unevaluatedProperties", FROM(2019), SKW_ONE, NULL},
    {"contentMediaType", FROM(7), SKW_DATA, "a string, a media type"},
    {"contentEncoding", FROM(7), SKW_DATA, "a string, such as \"base64\""},
    {"contentSchema", FROM(2019), SKW_ONE, NULL},
};
#define NKEYWORDS (sizeof KEYWORDS / sizeof KEYWORDS[0])

/* KEYWORDS by name, for the walks that look up every member of every schema: a hash
 * of the names (built once, for every thread) leading to the first entry of a name,
 * and each entry to the next of the same name (a keyword that dialects define
 * differently has several), in the table's order. */
#define KW_SLOTS 256                     /* a power of two, over twice NKEYWORDS */
static unsigned char kw_slot[KW_SLOTS];  /* entry + 1 of a name; 0: free */
static unsigned char kw_next[NKEYWORDS]; /* entry + 1 of the same name; 0: none */
static pthread_once_t kw_index_once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void kw_index_build(void)
{
    _Static_assert(NKEYWORDS < 255 && KW_SLOTS > 2 * NKEYWORDS, "KW_SLOTS too small");
    for (size_t i = 0; i < NKEYWORDS; i++) {
        unsigned h = kw_hash(KEYWORDS[i].kw) & (KW_SLOTS - 1);
        while (kw_slot[h] && strcmp(KEYWORDS[kw_slot[h] - 1].kw, KEYWORDS[i].kw))
            h = (h + 1) & (KW_SLOTS - 1);
        if (!kw_slot[h]) {
            kw_slot[h] = (unsigned char)(i + 1);
            continue;
        }
        size_t last = kw_slot[h] - 1u;
        while (kw_next[last]) last = kw_next[last] - 1u;
        kw_next[last] = (unsigned char)(i + 1);
    }
}

/* The first entry named KW + 1, 0 when none is. */
static size_t kw_first(const char *kw)
{
    pthread_once(&kw_index_once, kw_index_build);
    for (unsigned h = kw_hash(kw) & (KW_SLOTS - 1); kw_slot[h]; h = (h + 1) & (KW_SLOTS - 1))
        if (!strcmp(KEYWORDS[kw_slot[h] - 1].kw, kw)) return kw_slot[h];
    return 0;
}

const struct schema_kwinfo *schema_kwinfo(int draft, const char *kw)
{
    for (size_t e = kw_first(kw); e; e = kw_next[e - 1])
        if (draft >= KEYWORDS[e - 1].min && draft <= KEYWORDS[e - 1].max) return &KEYWORDS[e - 1];
    return NULL;
}

static int known_in_any_dialect(const char *kw)
{
    return kw_first(kw) != 0;
}

/* The one-schema form: booleans are schemas from draft-06 on. */
static const char *schema_form(int draft)
{
    return draft >= 6 ? "a schema (an object or a boolean)" : "a schema (an object)";
}

const char *schema_kwform(int draft, const struct schema_kwinfo *k)
{
    if (k->form) return k->form;
    if (!strcmp(k->kw, "type"))
        return "one of the JSON Schema type names: string, number, integer, boolean, object, "
               "array, null (or an array of distinct ones)";
    if (k->shape == SKW_ITEMS)
        return draft >= 6 ? "a schema (an object or a boolean) or an array of schemas"
                          : "a schema (an object) or an array of schemas";
    if (draft == 4 && (!strcmp(k->kw, "additionalProperties") || !strcmp(k->kw, "additionalItems")))
        return "a boolean or a schema (an object)";
    if (k->shape == SKW_ONE) return schema_form(draft);
    return NULL; /* any value (default, const) */
}

const char *schema_subschema_form(int draft)
{
    return schema_form(draft);
}

/* ---- did you mean ------------------------------------------------------------------ */

static const char *const TYPE_NAMES[] = {"string", "number", "integer", "boolean",
                                         "object", "array",  "null"};

/* What other languages call JSON Schema's types: too far for the edit distance. */
static const struct {
    const char *alias, *name;
} TYPE_ALIASES[] = {
    {"int", "integer"},     {"long", "integer"}, {"float", "number"}, {"double", "number"},
    {"decimal", "number"},  {"num", "number"},   {"bool", "boolean"}, {"str", "string"},
    {"text", "string"},     {"dict", "object"},  {"map", "object"},   {"list", "array"},
    {"tuple", "array"},     {"none", "null"},    {"nil", "null"},     {"date", "string"},
    {"datetime", "string"}, {"uuid", "string"},
};

static char *lower(const char *s)
{
    char *l = xstrdup(s);
    for (char *p = l; *p; p++) *p = (char)tolower((unsigned char)*p);
    return l;
}

const char *schema_type_suggest(const char *name)
{
    char *l = lower(name);
    const char *best = NULL;
    for (size_t i = 0; i < sizeof TYPE_ALIASES / sizeof *TYPE_ALIASES && !best; i++)
        if (!strcmp(l, TYPE_ALIASES[i].alias)) best = TYPE_ALIASES[i].name;
    size_t best_d = best ? 0 : 3; /* within two edits, case aside ("String") */
    for (size_t i = 0; i < sizeof TYPE_NAMES / sizeof *TYPE_NAMES; i++) {
        size_t d = util_edit_distance(l, TYPE_NAMES[i]);
        if (d < best_d && d < strlen(TYPE_NAMES[i])) {
            best_d = d;
            best = TYPE_NAMES[i];
        }
    }
    free(l);
    return best;
}

int schema_type_name_known(const char *name)
{
    for (size_t i = 0; i < sizeof TYPE_NAMES / sizeof *TYPE_NAMES; i++)
        if (!strcmp(name, TYPE_NAMES[i])) return 1;
    return 0;
}

/* Names other specifications define in schemas (OpenAPI 3.0's Schema Object), close to a
 * JSON Schema keyword but not a misspelling of it. */
static const char *const FOREIGN[] = {"example"};

/* Are A and B the same once lowercased (as lower() does)? */
static int same_but_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return !*a && !*b;
}

static const char *keyword_suggest(int draft, const char *name)
{
    if (!strncmp(name, "x-", 2) || known_in_any_dialect(name)) return NULL;
    for (size_t i = 0; i < sizeof FOREIGN / sizeof *FOREIGN; i++)
        if (!strcmp(name, FOREIGN[i])) return NULL;
    size_t n = strlen(name);
    /* a quarter of the name's length, at least one edit and at most three: minimun
     * (minimum) and additionalProperty (additionalProperties), not "then" for "that" */
    size_t max = n / 4 < 1 ? 1 : n / 4 > 3 ? 3 : n / 4;
    const char *best = NULL;
    size_t best_d = max + 1;
    for (size_t i = 0; i < NKEYWORDS; i++) {
        const struct schema_kwinfo *k = &KEYWORDS[i];
        if (draft < k->min || draft > k->max) continue;
        /* a difference of case alone (readonly) is one edit */
        size_t d = same_but_case(name, k->kw) ? 1 : util_edit_distance(name, k->kw);
        if (d < best_d && d < strlen(k->kw)) {
            best_d = d;
            best = k->kw;
        }
    }
    return best;
}

/* ---- the schema positions of a schema ---------------------------------------------- */

struct walk {
    int draft;
    void (*visit)(const char *ptr, json_t *sch, void *arg);
    void *arg;
    unsigned depth;
    struct schema_seen seen; /* each shared value walked once */
};

static void walk_schema(struct walk *w, json_t *sch, struct buf *ptr);

static void walk_child(struct walk *w, json_t *v, struct buf *ptr, const char *seg, size_t idx)
{
    size_t mark = ptr->len;
    if (seg) ptr_append_segment(ptr, seg, strlen(seg));
    else ptr_append_index(ptr, idx);
    walk_schema(w, v, ptr);
    buf_truncate(ptr, mark);
}

static void walk_schema(struct walk *w, json_t *sch, struct buf *ptr)
{
    if (!json_is_object(sch) || w->depth > SCHEMA_DEFAULT_MAX_DEPTH ||
        !schema_seen_add(&w->seen, sch))
        return;
    w->depth++;
    w->visit(buf_str(ptr), sch, w->arg);
    const char *kw;
    json_t *v;
    json_object_foreach(sch, kw, v)
    {
        const struct schema_kwinfo *k = schema_kwinfo(w->draft, kw);
        if (!k || k->shape == SKW_DATA) continue;
        size_t mark = ptr->len;
        ptr_append_segment(ptr, kw, strlen(kw));
        const char *name;
        json_t *sub;
        size_t i;
        if (k->shape == SKW_ONE || (k->shape == SKW_ITEMS && !json_is_array(v)))
            walk_schema(w, v, ptr);
        else if (k->shape == SKW_ARRAY || k->shape == SKW_ITEMS)
            json_array_foreach(v, i, sub) walk_child(w, sub, ptr, NULL, i);
        else if (json_is_object(v))
            json_object_foreach(v, name, sub) walk_child(w, sub, ptr, name, 0);
        buf_truncate(ptr, mark);
    }
    w->depth--;
}

struct misspelt {
    int draft;
    struct schema_errors *out;
    size_t n;
};

static void misspelt_visit(const char *ptr, json_t *sch, void *arg)
{
    struct misspelt *m = arg;
    const char *name;
    json_t *v;
    json_object_foreach(sch, name, v)
    {
        const char *meant = keyword_suggest(m->draft, name);
        if (!meant) continue;
        struct buf at = BUF_INIT;
        buf_adds(&at, ptr);
        ptr_append_segment(&at, name, strlen(name));
        char *e = schema_escape(name, strlen(name));
        schema_errors_add(m->out, buf_str(&at), buf_str(&at),
                          "unknown keyword \"%s\": did you mean \"%s\"?", e, meant);
        free(e);
        buf_release(&at);
        m->n++;
    }
}

size_t schema_misspelt_keywords(json_t *sch, enum schema_dialect d, struct schema_errors *out)
{
    struct misspelt m = {(int)d, out, 0};
    struct walk w = {(int)d, misspelt_visit, &m, 0, SCHEMA_SEEN_INIT};
    struct buf ptr = BUF_INIT;
    walk_schema(&w, sch, &ptr);
    buf_release(&ptr);
    schema_seen_release(&w.seen);
    return m.n;
}
