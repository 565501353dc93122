/* schema_check_fast.c - schema checking's fast path (schema_check_fast, schemaInt.h): one
 * walk over a schema that allocates nothing and says "certainly valid" for the schemas
 * of everyday descriptions, so that schema_check skips the meta-schema validation and
 * the check-only compile (and the compiled meta-schema) for them. It answers only for
 * 2020-12 and draft-07, the default limits, the standard meta-schemas, and schemas
 * whose every keyword it knows the whole rule for: it requires what the meta-schema
 * and the compiler both require, or more. Anything else (an $id, an anchor, a $ref
 * other than "#", "#/$defs/NAME" or "#/definitions/NAME", a value it is unsure of, a
 * schema past its small bounds) is "unsure", and the full check decides: a wrong "unsure"
 * costs time, a wrong "valid" would lose errors, so every doubt is "unsure". */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

/* Far inside the engine's bounds (max_depth 256 of the index walk, max_eval_depth 1000
 * of the meta-schema's validation at a few evaluations per level, max_work 50,000,000). */
#define FAST_MAX_DEPTH 32u
#define FAST_MAX_VALUES 5000u
/* "required" and "type" lists are compared pairwise for duplicates up to this length. */
#define FAST_MAX_LIST 64u

enum fast_kind {
    FK_ANY,      /* default, const: any value */
    FK_STRING,   /* title, description, $comment, format, content* */
    FK_BOOL,     /* readOnly, writeOnly, deprecated, uniqueItems */
    FK_ARRAY,    /* enum, examples */
    FK_NUMBER,   /* maximum, minimum, exclusiveMaximum, exclusiveMinimum */
    FK_POSITIVE, /* multipleOf */
    FK_COUNT,    /* maxLength, minItems, ...: a non-negative integer */
    FK_PATTERN,  /* a valid ECMA-262 pattern */
    FK_TYPE,     /* a type name or a non-empty list of distinct ones */
    FK_NAMES,    /* required: distinct strings */
    FK_DEPREQ,   /* dependentRequired: an object of FK_NAMES */
    FK_DEPS,     /* dependencies: an object of schemas or FK_NAMES */
    FK_MAP,      /* an object of schemas */
    FK_PATMAP,   /* patternProperties: FK_MAP with names that are patterns */
    FK_ONE,      /* one schema */
    FK_ITEMS,    /* items: a schema (draft-07 also a non-empty list of schemas) */
    FK_LIST,     /* a non-empty list of schemas */
    FK_REF,      /* $ref */
    FK_SCHEMA,   /* $schema: the caller judged the root's; anywhere else unsure */
    FK_UNSURE    /* identifiers, anchors, dynamic references, $vocabulary */
};

/* Every name the engine reads in a schema (the compiler, the index walk, the
 * meta-schemas of all five dialects: schema_keywords.c's table).
 * A member not named here is an annotation to every part of the engine. */
#define KW(name, kind)                                                                             \
    {                                                                                              \
        name, sizeof name - 1, kind                                                                \
    }
static const struct fast_kw {
    const char *name;
    size_t len;
    enum fast_kind kind;
} FAST_KWS[] = {
    KW("$anchor", FK_UNSURE),
    KW("$comment", FK_STRING),
    KW("$defs", FK_MAP),
    KW("$dynamicAnchor", FK_UNSURE),
    KW("$dynamicRef", FK_UNSURE),
    KW("$id", FK_UNSURE),
    KW("$recursiveAnchor", FK_UNSURE),
    KW("$recursiveRef", FK_UNSURE),
    KW("$ref", FK_REF),
    KW("$schema", FK_SCHEMA),
    KW("$vocabulary", FK_UNSURE),
    KW("additionalItems", FK_ONE),
    KW("additionalProperties", FK_ONE),
    KW("allOf", FK_LIST),
    KW("anyOf", FK_LIST),
    KW("const", FK_ANY),
    KW("contains", FK_ONE),
    KW("contentEncoding", FK_STRING),
    KW("contentMediaType", FK_STRING),
    KW("contentSchema", FK_ONE),
    KW("default", FK_ANY),
    KW("definitions", FK_MAP),
    KW("dependencies", FK_DEPS),
    KW("dependentRequired", FK_DEPREQ),
    KW("dependentSchemas", FK_MAP),
    KW("deprecated", FK_BOOL),
    KW("description", FK_STRING),
    KW("else", FK_ONE),
    KW("enum", FK_ARRAY),
    KW("examples", FK_ARRAY),
    KW("exclusiveMaximum", FK_NUMBER),
    KW("exclusiveMinimum", FK_NUMBER),
    KW("format", FK_STRING),
    KW("id", FK_UNSURE),
    KW("if", FK_ONE),
    KW("items", FK_ITEMS),
    KW("maxContains", FK_COUNT),
    KW("maxItems", FK_COUNT),
    KW("maxLength", FK_COUNT),
    KW("maxProperties", FK_COUNT),
    KW("maximum", FK_NUMBER),
    KW("minContains", FK_COUNT),
    KW("minItems", FK_COUNT),
    KW("minLength", FK_COUNT),
    KW("minProperties", FK_COUNT),
    KW("minimum", FK_NUMBER),
    KW("multipleOf", FK_POSITIVE),
    KW("not", FK_ONE),
    KW("oneOf", FK_LIST),
    KW("pattern", FK_PATTERN),
    KW("patternProperties", FK_PATMAP),
    KW("prefixItems", FK_LIST),
    KW("properties", FK_MAP),
    KW("propertyNames", FK_ONE),
    KW("readOnly", FK_BOOL),
    KW("required", FK_NAMES),
    KW("then", FK_ONE),
    KW("title", FK_STRING),
    KW("type", FK_TYPE),
    KW("unevaluatedItems", FK_ONE),
    KW("unevaluatedProperties", FK_ONE),
    KW("uniqueItems", FK_BOOL),
    KW("writeOnly", FK_BOOL),
};
#undef KW
#define FAST_NKWS (sizeof FAST_KWS / sizeof FAST_KWS[0])

struct fast {
    json_t *root;
    int draft; /* 2020 or 7 */
    unsigned values;
    uint32_t max_regex_len;
};

/* FAST_KWS by a hash of a name's length and three of its bytes (built once, for every
 * thread): slot -> entry + 1, 0 free; most names are settled by one slot. */
#define FAST_SLOTS 256u
static unsigned char kw_slot[FAST_SLOTS];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *name, size_t len)
{
    const unsigned char *u = (const unsigned char *)name;
    return len ? (unsigned)(len * 7u + u[0] * 3u + u[len / 2] * 5u + u[len - 1]) % FAST_SLOTS : 0;
}

static void kw_build(void)
{
    _Static_assert(FAST_NKWS < 255 && FAST_SLOTS > 2 * FAST_NKWS, "FAST_SLOTS too small");
    for (size_t i = 0; i < FAST_NKWS; i++) {
        unsigned h = kw_hash(FAST_KWS[i].name, FAST_KWS[i].len);
        while (kw_slot[h]) h = (h + 1) % FAST_SLOTS;
        kw_slot[h] = (unsigned char)(i + 1);
    }
}

/* The kind of member NAME (LEN bytes, maybe with a NUL inside), or -1: unknown. */
static int kind_of(const char *name, size_t len)
{
    for (unsigned h = kw_hash(name, len); kw_slot[h]; h = (h + 1) % FAST_SLOTS) {
        const struct fast_kw *k = &FAST_KWS[kw_slot[h] - 1];
        if (k->len == len && !memcmp(k->name, name, len)) return (int)k->kind;
    }
    return -1;
}

static int is_type_name(json_t *v)
{
    static const struct {
        const char *name;
        size_t len;
    } names[] = {{"array", 5},  {"boolean", 7}, {"integer", 7}, {"null", 4},
                 {"number", 6}, {"object", 6},  {"string", 6}};
    if (!json_is_string(v)) return 0;
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (n == names[i].len && !memcmp(s, names[i].name, n)) return 1;
    return 0;
}

static int same_string(json_t *a, json_t *b)
{
    return json_string_length(a) == json_string_length(b) &&
        !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
}

/* A list of distinct strings (ALL_TYPES: each a type name, at least one). */
static int distinct_strings(json_t *v, int type_names)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!json_is_array(v) || n > FAST_MAX_LIST || (type_names && !n)) return 0;
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(v, i);
        if (!json_is_string(s) || (type_names && !is_type_name(s))) return 0;
        for (size_t k = 0; k < i; k++)
            if (same_string(s, json_array_get(v, k))) return 0;
    }
    return 1;
}

static int pattern_ok(const struct fast *f, const char *p, size_t len)
{
    char *err = NULL;
    int rc = schema_re_valid(p, len, f->max_regex_len, &err);
    free(err);
    return rc == 0;
}

/* A $ref the compiler resolves for certain to a subschema the walk checks: "#", or
 * "#/$defs/NAME" / "#/definitions/NAME" of the root with NAME plain (letters, digits,
 * _ . -: nothing for a URI parser or a JSON pointer to decode). */
static int ref_ok(const struct fast *f, json_t *v)
{
    if (!json_is_string(v)) return 0;
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n == 1 && s[0] == '#') return 1;
    static const char *const maps[] = {"$defs", "definitions"};
    for (size_t m = 0; m < 2; m++) {
        size_t ml = strlen(maps[m]);
        if (n <= ml + 3 || memcmp(s, "#/", 2) || memcmp(s + 2, maps[m], ml) || s[2 + ml] != '/')
            continue;
        const char *name = s + ml + 3;
        size_t nl = n - ml - 3;
        int dots = 1;
        for (size_t i = 0; i < nl; i++) {
            char c = name[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.'))
                return 0;
            dots &= c == '.';
        }
        if (dots) return 0; /* "." and "..": path segments to a URI parser */
        json_t *t = json_object_getn(json_object_get(f->root, maps[m]), name, nl);
        return json_is_object(t) || json_is_boolean(t);
    }
    return 0;
}

static int schema_ok(struct fast *f, json_t *j, unsigned depth);

static int sub_ok(struct fast *f, json_t *v, unsigned depth)
{
    if (json_is_boolean(v)) return 1;
    return json_is_object(v) && schema_ok(f, v, depth + 1);
}

static int list_ok(struct fast *f, json_t *v, unsigned depth)
{
    if (!json_is_array(v) || !json_array_size(v)) return 0;
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!sub_ok(f, json_array_get(v, i), depth)) return 0;
    return 1;
}

static int member_ok(struct fast *f, int kind, json_t *v, unsigned depth)
{
    switch ((enum fast_kind)kind) {
    case FK_ANY: return 1;
    case FK_STRING: return json_is_string(v);
    case FK_BOOL: return json_is_boolean(v);
    case FK_ARRAY: return json_is_array(v);
    case FK_NUMBER: return json_is_number(v);
    case FK_POSITIVE: return json_is_number(v) && json_number_value(v) > 0;
    case FK_COUNT: return json_is_integer(v) && json_integer_value(v) >= 0;
    case FK_PATTERN:
        return json_is_string(v) && pattern_ok(f, json_string_value(v), json_string_length(v));
    case FK_TYPE: return is_type_name(v) || distinct_strings(v, 1);
    case FK_NAMES: return distinct_strings(v, 0);
    case FK_ONE: return sub_ok(f, v, depth);
    case FK_LIST: return list_ok(f, v, depth);
    case FK_ITEMS: return sub_ok(f, v, depth) || (f->draft == 7 && list_ok(f, v, depth));
    case FK_REF: return ref_ok(f, v);
    case FK_DEPREQ:
    case FK_DEPS:
    case FK_MAP:
    case FK_PATMAP: {
        if (!json_is_object(v)) return 0;
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            const char *k = json_object_iter_key(it);
            size_t kl = json_object_iter_key_len(it);
            json_t *c = json_object_iter_value(it);
            if (++f->values > FAST_MAX_VALUES) return 0;
            int ok = kind == FK_DEPREQ ? distinct_strings(c, 0)
                : kind == FK_DEPS
                ? (json_is_array(c) ? distinct_strings(c, 0) : sub_ok(f, c, depth))
                : kind == FK_PATMAP ? strlen(k) == kl && pattern_ok(f, k, kl) && sub_ok(f, c, depth)
                                    : sub_ok(f, c, depth);
            if (!ok) return 0;
        }
        return 1;
    }
    case FK_SCHEMA: return depth == 0; /* the root's: judged by schema_check_fast */
    case FK_UNSURE: return 0;
    }
    return 0;
}

static int schema_ok(struct fast *f, json_t *j, unsigned depth)
{
    if (depth > FAST_MAX_DEPTH) return 0;
    for (void *it = json_object_iter(j); it; it = json_object_iter_next(j, it)) {
        if (++f->values > FAST_MAX_VALUES) return 0;
        int kind = kind_of(json_object_iter_key(it), json_object_iter_key_len(it));
        if (kind >= 0 && !member_ok(f, kind, json_object_iter_value(it), depth)) return 0;
    }
    return 1;
}

static int default_limits(const struct schema_limits *l)
{
    return l->max_depth == SCHEMA_DEFAULT_MAX_DEPTH &&
        l->max_subschemas == SCHEMA_DEFAULT_MAX_SUBSCHEMAS &&
        l->max_documents == SCHEMA_DEFAULT_MAX_DOCUMENTS &&
        l->max_regex_len == SCHEMA_DEFAULT_MAX_REGEX_LEN &&
        l->regex_match_limit == SCHEMA_DEFAULT_REGEX_MATCH_LIMIT &&
        l->regex_depth_limit == SCHEMA_DEFAULT_REGEX_DEPTH_LIMIT &&
        l->max_eval_depth == SCHEMA_DEFAULT_MAX_EVAL_DEPTH &&
        l->max_work == SCHEMA_DEFAULT_MAX_WORK;
}

/* The meta-schema documents of each dialect the fast path answers for. */
static const char *const META_2020[] = {
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/meta/core",
    "https://json-schema.org/draft/2020-12/meta/applicator",
    "https://json-schema.org/draft/2020-12/meta/unevaluated",
    "https://json-schema.org/draft/2020-12/meta/validation",
    "https://json-schema.org/draft/2020-12/meta/meta-data",
    "https://json-schema.org/draft/2020-12/meta/format-annotation",
    "https://json-schema.org/draft/2020-12/meta/content",
};
static const char *const META_07[] = {"http://json-schema.org/draft-07/schema"};

/* Is the context's document at URIS[I] the embedded one of that URI, for every I? (A
 * document registered under a meta-schema's URI replaces it, and then the rules of this
 * file are not the meta-schema's.) Each embedded document that can hold one of them (its
 * own URI, or the vocabularies' object) is parsed once. */
static int embedded_as_is(schema_ctx *ctx, const char *const *uris, size_t n)
{
    size_t matched = 0;
    int ok = 1;
    for (size_t i = 0; i < schema_embedded_count && ok; i++) {
        const struct schema_embedded *e = &schema_embedded_docs[i];
        size_t u = 0;
        while (e->uri && u < n && strcmp(e->uri, uris[u])) u++;
        if (e->uri && u == n) continue;
        json_error_t jerr;
        json_t *doc = json_loadb((const char *)e->data, e->len, 0, &jerr);
        for (u = 0; u < n && ok; u++) {
            json_t *want =
                e->uri ? (strcmp(e->uri, uris[u]) ? NULL : doc) : json_object_get(doc, uris[u]);
            if (!want) continue;
            char *why = NULL;
            json_t *have = schema_ctx_fetch(ctx, uris[u], &why);
            free(why);
            ok = have && json_equal(want, have);
            matched++;
        }
        json_decref(doc);
    }
    return ok && matched == n;
}

static int metas_standard(schema_ctx *ctx, int draft)
{
    struct schema_memo *memo = schema_ctx_memo(ctx);
    if (schema_ctx_metas_embedded(ctx)) return 1; /* no need to compare them */
    int slot = draft == 7, known = schema_memo_meta_state(memo, slot);
    if (known) return known > 0;
    int ok = draft == 7 ? embedded_as_is(ctx, META_07, sizeof META_07 / sizeof *META_07)
                        : embedded_as_is(ctx, META_2020, sizeof META_2020 / sizeof *META_2020);
    schema_memo_set_meta_state(memo, slot, ok ? 1 : -1);
    return ok;
}

int schema_check_fast(schema_ctx *ctx, json_t *sch, const char *base_uri, enum schema_dialect dflt)
{
    if ((base_uri && *base_uri) || !json_is_object(sch) || !default_limits(schema_ctx_limits(ctx)))
        return 0;
    int draft = dflt ? (int)dflt : SCHEMA_DRAFT2020_12;
    json_t *sv = json_object_get(sch, "$schema");
    if (sv) {
        if (!json_is_string(sv)) return 0;
        const char *s = json_string_value(sv);
        if (!strcmp(s, schema_dialect_uri(SCHEMA_DRAFT2020_12)) && !schema_has_nul(sv))
            draft = SCHEMA_DRAFT2020_12;
        else if (!strcmp(s, schema_dialect_uri(SCHEMA_DRAFT07)) && !schema_has_nul(sv))
            draft = SCHEMA_DRAFT07;
        else return 0;
    }
    if (draft != SCHEMA_DRAFT2020_12 && draft != SCHEMA_DRAFT07) return 0;
    struct fast f = {sch, draft, 0, schema_ctx_limits(ctx)->max_regex_len};
    pthread_once(&kw_once, kw_build);
    return schema_ok(&f, sch, 0) && metas_standard(ctx, draft);
}
