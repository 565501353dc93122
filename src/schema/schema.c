/* schema.c - the JSON Schema compiler: context (registered documents, --ref-map,
 * embedded meta-schemas), dialects and vocabularies, RFC 3986 URIs, the identifier
 * index ($id, $anchor, $dynamicAnchor per resource) and the keyword compiler.
 * Validation is in schema_eval.c. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/ptr.h"
#include "base/uri.h"
#include "schema/schemaInt.h"

/* ---- small hash map ---------------------------------------------------------- */

static uint64_t map_hash(const void *key, size_t n)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

int schema_map_get(const struct schema_map *m, const void *key, size_t klen, size_t *val)
{
    if (!m->cap) return 0;
    size_t i = (size_t)map_hash(key, klen) & (m->cap - 1);
    while (m->ents[i].key) {
        if (m->ents[i].klen == klen && !memcmp(m->ents[i].key, key, klen)) {
            if (val) *val = m->ents[i].val;
            return 1;
        }
        i = (i + 1) & (m->cap - 1);
    }
    return 0;
}

void schema_map_put(struct schema_map *m, const void *key, size_t klen, size_t val)
{
    if ((m->len + 1) * 2 > m->cap) {
        struct schema_map old = *m;
        m->cap = old.cap ? old.cap * 2 : 16;
        m->ents = xcalloc(m->cap, sizeof *m->ents);
        m->len = 0;
        for (size_t i = 0; i < old.cap; i++) {
            if (!old.ents[i].key) continue;
            size_t j = (size_t)map_hash(old.ents[i].key, old.ents[i].klen) & (m->cap - 1);
            while (m->ents[j].key) j = (j + 1) & (m->cap - 1);
            m->ents[j] = old.ents[i];
            m->len++;
        }
        free(old.ents);
    }
    size_t i = (size_t)map_hash(key, klen) & (m->cap - 1);
    while (m->ents[i].key) {
        if (m->ents[i].klen == klen && !memcmp(m->ents[i].key, key, klen)) {
            m->ents[i].val = val;
            return;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->ents[i].key = xmalloc(klen ? klen : 1);
    memcpy(m->ents[i].key, key, klen);
    m->ents[i].klen = klen;
    m->ents[i].val = val;
    m->len++;
}

void schema_map_release(struct schema_map *m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->ents[i].key);
    free(m->ents);
    m->ents = NULL;
    m->cap = m->len = 0;
}

static int smap_get(const struct schema_map *m, const char *s, size_t *v)
{
    return schema_map_get(m, s, strlen(s), v);
}
static void smap_put(struct schema_map *m, const char *s, size_t v)
{
    schema_map_put(m, s, strlen(s), v);
}

void schema_limits_default(struct schema_limits *lim)
{
    lim->max_depth = SCHEMA_DEFAULT_MAX_DEPTH;
    lim->max_subschemas = SCHEMA_DEFAULT_MAX_SUBSCHEMAS;
    lim->max_documents = SCHEMA_DEFAULT_MAX_DOCUMENTS;
    lim->max_regex_len = SCHEMA_DEFAULT_MAX_REGEX_LEN;
    lim->regex_match_limit = SCHEMA_DEFAULT_REGEX_MATCH_LIMIT;
    lim->regex_depth_limit = SCHEMA_DEFAULT_REGEX_DEPTH_LIMIT;
    lim->max_eval_depth = SCHEMA_DEFAULT_MAX_EVAL_DEPTH;
    lim->max_work = SCHEMA_DEFAULT_MAX_WORK;
}

/* ---- dialects ------------------------------------------------------------------ */

static const struct {
    enum schema_dialect d;
    const char *uri, *name;
} DIALECTS[] = {
    {SCHEMA_DRAFT2020_12, "https://json-schema.org/draft/2020-12/schema", "2020-12"},
    {SCHEMA_DRAFT2019_09, "https://json-schema.org/draft/2019-09/schema", "2019-09"},
    {SCHEMA_DRAFT07, "http://json-schema.org/draft-07/schema#", "draft-07"},
    {SCHEMA_DRAFT06, "http://json-schema.org/draft-06/schema#", "draft-06"},
    {SCHEMA_DRAFT04, "http://json-schema.org/draft-04/schema#", "draft-04"},
};
#define NDIALECTS (sizeof DIALECTS / sizeof DIALECTS[0])

/* Exactly the meta-schema URI, with or without an empty fragment. */
static enum schema_dialect dialect_from_known_uri(const char *uri)
{
    size_t n = strlen(uri);
    if (n && uri[n - 1] == '#') n--;
    for (size_t i = 0; i < NDIALECTS; i++) {
        size_t m = strlen(DIALECTS[i].uri);
        if (DIALECTS[i].uri[m - 1] == '#') m--;
        if (m == n && !strncmp(uri, DIALECTS[i].uri, n)) return DIALECTS[i].d;
    }
    return SCHEMA_DIALECT_NONE;
}

enum schema_dialect schema_dialect_parse(const char *name)
{
    static const struct {
        const char *alias;
        enum schema_dialect d;
    } AL[] = {{"2020-12", SCHEMA_DRAFT2020_12}, {"draft2020-12", SCHEMA_DRAFT2020_12},
              {"2019-09", SCHEMA_DRAFT2019_09}, {"draft2019-09", SCHEMA_DRAFT2019_09},
              {"draft-07", SCHEMA_DRAFT07},     {"draft7", SCHEMA_DRAFT07},
              {"7", SCHEMA_DRAFT07},            {"draft-06", SCHEMA_DRAFT06},
              {"draft6", SCHEMA_DRAFT06},       {"6", SCHEMA_DRAFT06},
              {"draft-04", SCHEMA_DRAFT04},     {"draft4", SCHEMA_DRAFT04},
              {"4", SCHEMA_DRAFT04}};
    for (size_t i = 0; i < sizeof AL / sizeof AL[0]; i++)
        if (!strcmp(name, AL[i].alias)) return AL[i].d;
    return dialect_from_known_uri(name);
}

const char *schema_dialect_uri(enum schema_dialect d)
{
    for (size_t i = 0; i < NDIALECTS; i++)
        if (DIALECTS[i].d == d) return DIALECTS[i].uri;
    return NULL;
}

const char *schema_dialect_name(enum schema_dialect d)
{
    for (size_t i = 0; i < NDIALECTS; i++)
        if (DIALECTS[i].d == d) return DIALECTS[i].name;
    return "unknown";
}

/* ---- context -------------------------------------------------------------------- */

struct refmap_ent {
    char *prefix, *dir;
};

struct meta_cache_ent {
    char *uri;
    schema *s;
};

struct schema_ctx {
    struct schema_limits lim;
    VEC(struct schema_docent) docs;
    struct schema_map docmap;
    VEC(struct refmap_ent) refmap;
    VEC(struct meta_cache_ent) metas; /* compiled meta-schemas, for schema_check */
    VEC(char *) files;                /* files read from disk, in the order read */
    /* held around what compiling may add once set up: documents read through the
     * ref-map (docs, docmap, files) and the meta-schema cache (metas) */
    pthread_mutex_t lock;
};

static char *strip_empty_fragment(const char *uri)
{
    const char *frag;
    return uri_split_fragment(uri, &frag);
}

void schema_ctx_add_document(schema_ctx *ctx, const char *uri, json_t *doc)
{
    char *u = strip_empty_fragment(uri);
    size_t i;
    json_incref(doc);
    if (smap_get(&ctx->docmap, u, &i)) {
        json_decref(ctx->docs.items[i].root);
        ctx->docs.items[i].root = doc;
        free(u);
        return;
    }
    struct schema_docent e = {u, doc};
    smap_put(&ctx->docmap, u, ctx->docs.len);
    VEC_PUSH(ctx->docs, e);
}

void schema_ctx_add_ref_map(schema_ctx *ctx, const char *prefix, const char *dir)
{
    struct refmap_ent e = {xstrdup(prefix), xstrdup(dir)};
    VEC_PUSH(ctx->refmap, e);
}

schema_ctx *schema_ctx_new(const struct schema_limits *lim)
{
    schema_ctx *ctx = xcalloc(1, sizeof *ctx);
    pthread_mutex_init(&ctx->lock, NULL);
    if (lim) ctx->lim = *lim;
    else schema_limits_default(&ctx->lim);
    for (size_t i = 0; i < schema_embedded_count; i++) {
        const struct schema_embedded *e = &schema_embedded_docs[i];
        json_error_t jerr;
        json_t *j = json_loadb((const char *)e->data, e->len, 0, &jerr);
        if (!j) BUG("embedded meta-schema does not parse");
        if (e->uri) {
            schema_ctx_add_document(ctx, e->uri, j);
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(j, k, v) schema_ctx_add_document(ctx, k, v);
        }
        json_decref(j);
    }
    return ctx;
}

void schema_ctx_free(schema_ctx *ctx)
{
    if (!ctx) return;
    for (size_t i = 0; i < ctx->docs.len; i++) {
        free(ctx->docs.items[i].uri);
        json_decref(ctx->docs.items[i].root);
    }
    VEC_FREE(ctx->docs);
    schema_map_release(&ctx->docmap);
    for (size_t i = 0; i < ctx->refmap.len; i++) {
        free(ctx->refmap.items[i].prefix);
        free(ctx->refmap.items[i].dir);
    }
    VEC_FREE(ctx->refmap);
    for (size_t i = 0; i < ctx->metas.len; i++) {
        free(ctx->metas.items[i].uri);
        schema_free(ctx->metas.items[i].s);
    }
    VEC_FREE(ctx->metas);
    for (size_t i = 0; i < ctx->files.len; i++) free(ctx->files.items[i]);
    VEC_FREE(ctx->files);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

size_t schema_ctx_file_count(const schema_ctx *ctx) { return ctx->files.len; }
const char *schema_ctx_file(const schema_ctx *ctx, size_t i) { return ctx->files.items[i]; }

schema *schema_ctx_meta(schema_ctx *ctx, const char *uri)
{
    schema *m = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->metas.len && !m; i++)
        if (!strcmp(ctx->metas.items[i].uri, uri)) m = ctx->metas.items[i].s;
    pthread_mutex_unlock(&ctx->lock);
    return m;
}

schema *schema_ctx_meta_keep(schema_ctx *ctx, const char *uri, schema *fresh)
{
    schema *m = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->metas.len && !m; i++)
        if (!strcmp(ctx->metas.items[i].uri, uri)) m = ctx->metas.items[i].s;
    if (!m) {
        struct meta_cache_ent e = {xstrdup(uri), fresh};
        VEC_PUSH(ctx->metas, e);
        m = fresh;
        fresh = NULL;
    }
    pthread_mutex_unlock(&ctx->lock);
    schema_free(fresh);
    return m;
}

static json_t *ctx_lookup(schema_ctx *ctx, const char *uri)
{
    size_t i;
    char *u = strip_empty_fragment(uri);
    int found = smap_get(&ctx->docmap, u, &i);
    free(u);
    return found ? ctx->docs.items[i].root : NULL;
}

/* The document at URI: registered (or embedded), else read from a --ref-map directory
 * and registered. Borrowed; NULL with *why (new) when it cannot be had. */
static json_t *fetch_nofrag(schema_ctx *ctx, const char *uri, char **why);
static json_t *schema_ctx_fetch(schema_ctx *ctx, const char *uri, char **why)
{
    char *u = strip_empty_fragment(uri);
    json_t *j = fetch_nofrag(ctx, u, why);
    free(u);
    return j;
}

static json_t *fetch_unlocked(schema_ctx *ctx, const char *uri, char **why);
static json_t *fetch_nofrag(schema_ctx *ctx, const char *uri, char **why)
{
    pthread_mutex_lock(&ctx->lock);
    json_t *j = fetch_unlocked(ctx, uri, why);
    pthread_mutex_unlock(&ctx->lock);
    return j; /* stays valid: a document once registered is never replaced by a fetch */
}

static json_t *fetch_unlocked(schema_ctx *ctx, const char *uri, char **why)
{
    json_t *j = ctx_lookup(ctx, uri);
    if (j) return j;
    for (size_t i = 0; i < ctx->refmap.len; i++) {
        const struct refmap_ent *m = &ctx->refmap.items[i];
        size_t pl = strlen(m->prefix);
        if (strncmp(uri, m->prefix, pl)) continue;
        const char *rest = uri + pl;
        if (strstr(rest, "..") || strchr(rest, '?') || strchr(rest, '#')) {
            *why = xasprintf("reference \"%s\" was not fetched: it leaves the mapped directory",
                             uri);
            return NULL;
        }
        char *path = xasprintf("%s%s%s", m->dir,
                               (*rest == '/' || !*m->dir || m->dir[strlen(m->dir) - 1] == '/')
                                   ? ""
                                   : "/",
                               rest);
        json_error_t jerr;
        j = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
        if (!j) {
            *why = xasprintf("cannot read reference \"%s\" from \"%s\": %s", uri, path,
                             jerr.text);
            free(path);
            return NULL;
        }
        VEC_PUSH(ctx->files, path);
        schema_ctx_add_document(ctx, uri, j);
        json_decref(j);
        return ctx_lookup(ctx, uri);
    }
    *why = xasprintf("reference \"%s\" was not fetched: only registered documents and "
                     "--ref-map prefixes are resolved",
                     uri);
    return NULL;
}

static const struct {
    const char *uri;
    unsigned bit;
} VOCABS[] = {
    {"https://json-schema.org/draft/2020-12/vocab/core", SCHEMA_V_CORE},
    {"https://json-schema.org/draft/2020-12/vocab/applicator", SCHEMA_V_APPLICATOR},
    {"https://json-schema.org/draft/2020-12/vocab/unevaluated", SCHEMA_V_UNEVALUATED},
    {"https://json-schema.org/draft/2020-12/vocab/validation", SCHEMA_V_VALIDATION},
    {"https://json-schema.org/draft/2020-12/vocab/meta-data", SCHEMA_V_METADATA},
    {"https://json-schema.org/draft/2020-12/vocab/format-annotation",
     SCHEMA_V_FORMAT_ANNOTATION},
    {"https://json-schema.org/draft/2020-12/vocab/format-assertion",
     SCHEMA_V_FORMAT_ASSERTION},
    {"https://json-schema.org/draft/2020-12/vocab/content", SCHEMA_V_CONTENT},
    {"https://json-schema.org/draft/2019-09/vocab/core", SCHEMA_V_CORE},
    {"https://json-schema.org/draft/2019-09/vocab/applicator",
     SCHEMA_V_APPLICATOR | SCHEMA_V_UNEVALUATED},
    {"https://json-schema.org/draft/2019-09/vocab/validation", SCHEMA_V_VALIDATION},
    {"https://json-schema.org/draft/2019-09/vocab/meta-data", SCHEMA_V_METADATA},
    {"https://json-schema.org/draft/2019-09/vocab/format", SCHEMA_V_FORMAT_ANNOTATION},
    {"https://json-schema.org/draft/2019-09/vocab/content", SCHEMA_V_CONTENT},
};

/* Dialect of a $schema URI: a known meta-schema, or a registered custom meta-schema
 * (its $vocabulary, on top of its own $schema). Returns 0, or -1 unknown (with *why). */
static int dialect_of_uri(schema_ctx *ctx, const char *uri, int *draft, unsigned *vocab,
                          int depth, char **why)
{
    enum schema_dialect d = dialect_from_known_uri(uri);
    if (d) {
        *draft = (int)d;
        *vocab = SCHEMA_V_ALL;
        return 0;
    }
    char *ferr = NULL;
    json_t *m = depth < 8 ? schema_ctx_fetch(ctx, uri, &ferr) : NULL;
    free(ferr);
    json_t *ms = json_object_get(m, "$schema");
    if (!json_is_string(ms) || schema_has_nul(ms) || !strcmp(json_string_value(ms), uri)) {
        *why = xasprintf("unknown dialect \"%s\" in $schema", uri);
        return -1;
    }
    if (dialect_of_uri(ctx, json_string_value(ms), draft, vocab, depth + 1, why) < 0)
        return -1;
    json_t *voc = json_object_get(m, "$vocabulary");
    if (*draft >= 2019 && json_is_object(voc)) {
        unsigned v = SCHEMA_V_CORE;
        const char *k;
        json_t *val;
        json_object_foreach(voc, k, val) {
            size_t i;
            for (i = 0; i < sizeof VOCABS / sizeof VOCABS[0]; i++)
                if (!strcmp(VOCABS[i].uri, k)) break;
            if (i < sizeof VOCABS / sizeof VOCABS[0]) v |= VOCABS[i].bit;
            else if (json_is_true(val)) {
                *why = xasprintf("dialect \"%s\" requires the unsupported vocabulary \"%s\"",
                                 uri, k);
                return -1;
            }
        }
        *vocab = v;
    }
    return 0;
}

int schema_dialect_of(schema_ctx *ctx, json_t *sv, int *draft, unsigned *vocab, char **why)
{
    if (schema_has_nul(sv)) {
        *why = schema_nul_message("dialect", "$schema", sv);
        return -1;
    }
    return dialect_of_uri(ctx, json_string_value(sv), draft, vocab, 0, why);
}

enum schema_dialect schema_declared_dialect(schema_ctx *ctx, json_t *sch,
                                            enum schema_dialect dflt)
{
    json_t *sv = json_object_get(sch, "$schema");
    if (!json_is_string(sv)) return dflt;
    int draft;
    unsigned vocab;
    char *why = NULL;
    if (schema_dialect_of(ctx, sv, &draft, &vocab, &why) < 0) {
        free(why);
        return SCHEMA_DIALECT_NONE;
    }
    return (enum schema_dialect)draft;
}

/* ---- compile state -------------------------------------------------------------- */

struct loc {
    json_t *json;
    uint32_t doc;
    size_t ptr; /* in s->ptrs */
    size_t res;
};

struct cstate {
    schema *s;
    schema_ctx *ctx;
    struct schema_errors *errs;
    int nerr;
    int default_draft;
    int check_all;
    int skip_network;          /* schema_check_offline: a network reference that is not
                                * available without fetching is left unresolved */
    int bound_reported;
    struct schema_map resmap;  /* uri -> res */
    struct schema_map anchors; /* uri#name -> loc */
    struct schema_map locmap;  /* json_t* -> loc */
    struct schema_map nodemap; /* json_t* -> node */
    struct schema_map docmap;  /* uri -> doc */
    VEC(struct loc) locs;
    VEC(size_t) work; /* FIFO: work_head is the next to compile */
    size_t work_head;
};

void schema_ptr_append(const schema *s, size_t id, struct buf *b)
{
    size_t depth = 0, i;
    for (i = id; i != SCHEMA_NONE; i = s->ptrs.items[i].parent) depth++;
    size_t *chain = xmalloc((depth ? depth : 1) * sizeof *chain), k = depth;
    for (i = id; i != SCHEMA_NONE; i = s->ptrs.items[i].parent) chain[--k] = i;
    for (k = 0; k < depth; k++) buf_adds(b, s->ptrs.items[chain[k]].seg);
    free(chain);
}

/* A new pointer: PARENT's (SCHEMA_NONE: none) followed by SEG. Returns its id. */
static size_t ptr_new(schema *s, size_t parent, const char *seg)
{
    struct schema_ptrent e = {parent, xstrdup(seg)};
    VEC_PUSH(s->ptrs, e);
    return s->ptrs.len - 1;
}

/* Pointer ID as a string (new). */
static char *ptr_str(const schema *s, size_t id)
{
    struct buf b = BUF_INIT;
    schema_ptr_append(s, id, &b);
    return b.s ? buf_detach(&b) : xstrdup("");
}

char *schema_kwloc(const schema *s, const struct schema_node *n, const char *kw,
                   const char *extra)
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

static void cerr_at(struct cstate *cs, uint32_t doc, const char *ptr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void cerr_at(struct cstate *cs, uint32_t doc, const char *ptr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    char *kw = doc == 0 && cs->s->root_plain
                   ? xstrdup(ptr)
                   : xasprintf("%s#%s", cs->s->docs.items[doc].uri, ptr);
    schema_errors_add(cs->errs, kw, doc == 0 ? ptr : "", "%s", msg);
    free(kw);
    free(msg);
    cs->nerr++;
}

static void cerr(struct cstate *cs, const struct schema_node *n, const char *kw,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void cerr(struct cstate *cs, const struct schema_node *n, const char *kw,
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

static size_t new_res(struct cstate *cs, char *uri, json_t *root, uint32_t doc, size_t ptr,
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
    if (!smap_get(&cs->resmap, uri, NULL)) smap_put(&cs->resmap, uri, idx);
    return idx;
}

static void add_anchor(struct cstate *cs, const char *base, const char *name, size_t loc)
{
    char *k = xasprintf("%s#%s", base, name);
    if (!smap_get(&cs->anchors, k, NULL)) smap_put(&cs->anchors, k, loc);
    free(k);
}

static const char *const SUB_ONE[] = {"additionalItems", "additionalProperties", "contains",
                                      "contentSchema", "else", "if", "items", "not",
                                      "propertyNames", "then", "unevaluatedItems",
                                      "unevaluatedProperties"};
static const char *const SUB_ARRAY[] = {"allOf", "anyOf", "oneOf", "prefixItems", "items"};
static const char *const SUB_MAP[] = {"$defs", "definitions", "dependentSchemas",
                                      "dependencies", "patternProperties", "properties"};

/* Report each URI-like keyword of J (at PTR of DOC) whose value holds a NUL: cut short
 * at the NUL it would name another resource or anchor. */
static void refuse_nul(struct cstate *cs, json_t *j, uint32_t doc, struct buf *ptr, int draft)
{
    static const struct {
        const char *kw, *what;
        int min, max; /* drafts where the keyword is in effect */
    } KWS[] = {{"$ref", "reference", 0, 9999},        {"id", "identifier", 4, 4},
               {"$id", "identifier", 6, 9999},        {"$anchor", "anchor", 2019, 9999},
               {"$recursiveRef", "reference", 2019, 2019},
               {"$dynamicRef", "reference", 2020, 9999},
               {"$dynamicAnchor", "anchor", 2020, 9999}};
    size_t mark = ptr->len;
    for (size_t i = 0; i < sizeof KWS / sizeof KWS[0]; i++) {
        json_t *v = json_object_get(j, KWS[i].kw);
        if (draft < KWS[i].min || draft > KWS[i].max || !schema_has_nul(v)) continue;
        ptr_append_segment(ptr, KWS[i].kw, strlen(KWS[i].kw));
        char *m = schema_nul_message(KWS[i].what, KWS[i].kw, v);
        cerr_at(cs, doc, buf_str(ptr), "%s", m);
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
static void walk(struct cstate *cs, json_t *j, uint32_t doc, struct buf *ptr,
                 struct wparent up, size_t res, unsigned depth, int is_doc_root)
{
    if (depth > cs->s->lim.max_depth) {
        if (!cs->bound_reported++)
            cerr_at(cs, doc, buf_str(ptr),
                    "schema is nested deeper than the bound max_depth=%u",
                    (unsigned)cs->s->lim.max_depth);
        return;
    }
    if (!json_is_object(j) || schema_map_get(&cs->locmap, &j, sizeof j, NULL)) return;
    struct schema_res *R = cs->s->res.items[res];
    int draft = R->draft;
    size_t pid = ptr_new(cs->s, up.id, buf_str(ptr) + up.len);
    uint64_t pres = schema_kw_bits(j);
    refuse_nul(cs, j, doc, ptr, draft);
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
                cerr_at(cs, doc, buf_str(ptr), "identifier \"%s\" %s", id, bad);
                buf_truncate(ptr, mark);
                free(bad);
            } else if (is_doc_root) {
                if (strcmp(nofrag, R->uri)) {
                    smap_put(&cs->resmap, nofrag, res);
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
                        cerr_at(cs, doc, buf_str(ptr), "%s", why);
                        free(why);
                    }
                }
                res = new_res(cs, nofrag, j, doc, pid, ndraft, nvocab);
                R = cs->s->res.items[res];
                draft = R->draft;
            }
        }
    }
    struct loc L = {j, doc, pid, res};
    size_t li = cs->locs.len;
    VEC_PUSH(cs->locs, L);
    schema_map_put(&cs->locmap, &j, sizeof j, li);
    if (old_anchor) {
        add_anchor(cs, R->uri, old_anchor, li);
        free(old_anchor);
    }
    if (draft >= 2019) {
        json_t *a = schema_kw_get(pres, j, "$anchor");
        if (json_is_string(a) && !schema_has_nul(a)) add_anchor(cs, R->uri, json_string_value(a), li);
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
        json_array_foreach(c, k, v) {
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
        json_object_foreach(c, k, v) {
            ptr_append_segment(ptr, SUB_MAP[i], strlen(SUB_MAP[i]));
            ptr_append_segment(ptr, k, strlen(k));
            walk(cs, v, doc, ptr, here, res, depth + 2, 0);
            buf_truncate(ptr, mark);
        }
    }
}

/* Add a document (borrowed root) under URI and index it. Returns its index. */
static uint32_t add_doc(struct cstate *cs, const char *uri, json_t *root)
{
    uint32_t di = (uint32_t)cs->s->docs.len;
    struct schema_docent e = {xstrdup(uri), json_incref(root)};
    VEC_PUSH(cs->s->docs, e);
    smap_put(&cs->docmap, uri, di);
    int draft = cs->default_draft;
    unsigned vocab = SCHEMA_V_ALL;
    json_t *sv = json_object_get(root, "$schema");
    if (json_is_string(sv)) {
        char *why = NULL;
        if (schema_dialect_of(cs->ctx, sv, &draft, &vocab, &why) < 0) {
            cerr_at(cs, di, "", "%s", why);
            free(why);
        }
    }
    size_t root_ptr = ptr_new(cs->s, SCHEMA_NONE, "");
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
static int load_doc(struct cstate *cs, const char *uri, const struct schema_node *from,
                    const char *kw)
{
    if (smap_get(&cs->docmap, uri, NULL)) return 0;
    if (cs->s->docs.len >= cs->s->lim.max_documents) {
        cerr(cs, from, kw, "reference \"%s\" exceeds the bound max_documents=%u", uri,
             (unsigned)cs->s->lim.max_documents);
        return -1;
    }
    char *why = NULL;
    json_t *j = schema_ctx_fetch(cs->ctx, uri, &why);
    if (!j) {
        /* schema_check_offline: resolving it would mean fetching it, so it is skipped */
        if (!cs->skip_network || !network_uri(uri)) cerr(cs, from, kw, "%s", why);
        free(why);
        return -1;
    }
    add_doc(cs, uri, j);
    return 0;
}

static size_t new_node(struct cstate *cs, json_t *j, uint32_t doc, size_t ptr, size_t res)
{
    if (cs->s->nodes.len >= cs->s->lim.max_subschemas) {
        if (!cs->bound_reported++) {
            char *p = ptr_str(cs->s, ptr);
            cerr_at(cs, doc, p, "schema has more subschemas than the bound max_subschemas=%u",
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
static size_t get_node(struct cstate *cs, json_t *j, uint32_t doc, size_t pid,
                       const char *suffix, size_t res)
{
    size_t idx;
    /* past a bound the compile has failed: make nothing more (a schema nested 200,000
     * deep would otherwise be walked again from each node at the depth bound) */
    if (cs->bound_reported) return SCHEMA_NONE;
    if (json_is_boolean(j))
        return new_node(cs, j, doc, *suffix ? ptr_new(cs->s, pid, suffix) : pid, res);
    struct buf p = BUF_INIT;
    if (!json_is_object(j)) {
        schema_ptr_append(cs->s, pid, &p);
        buf_adds(&p, suffix);
        cerr_at(cs, doc, buf_str(&p), "expected a schema (an object or a boolean), got %s",
                schema_type_name(j));
        buf_release(&p);
        return SCHEMA_NONE;
    }
    if (schema_map_get(&cs->nodemap, &j, sizeof j, &idx)) return idx;
    size_t li;
    if (!schema_map_get(&cs->locmap, &j, sizeof j, &li)) {
        /* not met by walk() from its document's root (a reference into a place that
         * is not a subschema): index it from here */
        schema_ptr_append(cs->s, pid, &p);
        struct wparent up = {pid, p.len};
        buf_adds(&p, suffix);
        walk(cs, j, doc, &p, up, res, 0, 0);
        buf_release(&p);
        if (!schema_map_get(&cs->locmap, &j, sizeof j, &li)) return SCHEMA_NONE;
    }
    const struct loc *L = &cs->locs.items[li];
    idx = new_node(cs, j, L->doc, L->ptr, L->res);
    if (idx == SCHEMA_NONE) return idx;
    schema_map_put(&cs->nodemap, &j, sizeof j, idx);
    VEC_PUSH(cs->work, idx);
    return idx;
}

/* Child subschema of node N under keyword KW (and SUB: key or index, may be NULL). */
static size_t child(struct cstate *cs, const struct schema_node *n, json_t *j, const char *kw,
                    const char *sub, size_t idx)
{
    struct buf p = BUF_INIT;
    ptr_append_segment(&p, kw, strlen(kw));
    if (sub) ptr_append_segment(&p, sub, strlen(sub));
    else if (idx != SCHEMA_NONE) ptr_append_index(&p, idx);
    size_t r = get_node(cs, j, n->doc, n->ptr, buf_str(&p), n->res);
    buf_release(&p);
    return r;
}

/* Resolve reference REF of node N. Returns the target node or NONE (error recorded).
 * For $dynamicRef, *dyn gets the anchor name when the target is a dynamic anchor. */
static size_t resolve_ref(struct cstate *cs, size_t nid, const char *ref, const char *kw,
                          char **dyn)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    const struct schema_res *R = cs->s->res.items[n->res];
    char *bad = NULL;
    char *abs = uri_resolve(R->uri, ref, &bad);
    if (!abs) {
        cerr(cs, n, kw, "reference \"%s\" %s", ref, bad);
        free(bad);
        return SCHEMA_NONE;
    }
    const char *frag;
    char *nofrag = uri_split_fragment(abs, &frag);
    size_t ri, out = SCHEMA_NONE;
    if (!smap_get(&cs->resmap, nofrag, &ri)) {
        if (load_doc(cs, nofrag, n, kw) < 0) goto done;
        n = cs->s->nodes.items[nid];
        if (!smap_get(&cs->resmap, nofrag, &ri)) {
            cerr(cs, n, kw, "reference \"%s\" does not resolve", abs);
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
            cerr(cs, n, kw, "reference \"%s\" has a malformed JSON pointer: %s", ref, why);
            goto done;
        }
        struct ptr pp = PTR_INIT;
        if (ptr_parse(p, &pp, &why) == 0) target = ptr_get(T->root, &pp);
        ptr_release(&pp);
        tsuf = p;
    } else {
        char *k = xasprintf("%s#%s", T->uri, frag);
        size_t li;
        if (smap_get(&cs->anchors, k, &li)) {
            const struct loc *L = &cs->locs.items[li];
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
        cerr(cs, n, kw, "reference \"%s\" does not resolve", abs);
        free(tsuf);
        goto done;
    }
    size_t li;
    if (json_is_object(target) && schema_map_get(&cs->locmap, &target, sizeof target, &li))
        res = cs->locs.items[li].res;
    out = get_node(cs, target, doc, tpid, tsuf, res);
    free(tsuf);
done:
    free(abs);
    free(nofrag);
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

static int get_count(struct cstate *cs, const struct schema_node *n, const char *kw,
                     size_t *out)
{
    json_t *v = kwget(n, kw);
    if (!v) return 0;
    if (!schema_is_integer(v) || (json_is_integer(v) && json_integer_value(v) < 0) ||
        (json_is_real(v) && json_real_value(v) < 0)) {
        cerr(cs, n, kw, "\"%s\" must be a non-negative integer", kw);
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

static struct schema_re *compile_re(struct cstate *cs, const struct schema_node *n,
                                    const char *kw, const char *pat, size_t len)
{
    char *err = NULL;
    struct schema_re *re = schema_re_compile(pat, len, cs->s->lim.max_regex_len, !cs->check_all, &err);
    if (!re) {
        cerr(cs, n, kw, "%s", err);
        free(err);
        return NULL;
    }
    VEC_PUSH(cs->s->regexes, re);
    return re;
}

static void compile_list(struct cstate *cs, size_t nid, kwvec *kws, enum schema_kwk kind,
                         const char *kw)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    json_t *v = kwget(n, kw);
    if (!v) return;
    if (!json_is_array(v) || (kind != SK_PREFIXITEMS && json_array_size(v) == 0)) {
        cerr(cs, n, kw, "\"%s\" must be a non-empty array of schemas", kw);
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

static void compile_map(struct cstate *cs, size_t nid, kwvec *kws, enum schema_kwk kind,
                        const char *kw, int skip_arrays)
{
    const struct schema_node *n = cs->s->nodes.items[nid];
    json_t *v = kwget(n, kw), *c;
    if (!v) return;
    if (!json_is_object(v)) {
        cerr(cs, n, kw, "\"%s\" must be an object", kw);
        return;
    }
    size_t cnt = json_object_size(v), i = 0;
    const char **names = xmalloc((cnt ? cnt : 1) * sizeof *names);
    size_t *lens = xmalloc((cnt ? cnt : 1) * sizeof *lens);
    size_t *nodes = xmalloc((cnt ? cnt : 1) * sizeof *nodes);
    const char *key;
    size_t klen;
    json_object_keylen_foreach(v, key, klen, c) {
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

static void compile_node(struct cstate *cs, size_t nid)
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
            cerr(cs, n, "$ref", "\"$ref\" must be a string");
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
    if (draft == 2019 && json_is_string(v = kwget(n, "$recursiveRef")) &&
        !schema_has_nul(v)) {
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
                json_array_foreach(v, i, t) {
                    unsigned b = json_is_string(t) ? type_bit(json_string_value(t)) : 0;
                    if (!b) {
                        mask = 0;
                        break;
                    }
                    mask |= b;
                }
            }
            if (!mask) cerr(cs, n, "type", "\"type\" must name JSON Schema types");
            else kw_add(&kws, SK_TYPE, "type")->u.types = mask;
        }
        if ((v = kwget(n, "enum"))) {
            if (!json_is_array(v)) cerr(cs, n, "enum", "\"enum\" must be an array");
            else kw_add(&kws, SK_ENUM, "enum")->u.value = v;
        }
        if (draft >= 6 && (v = kwget(n, "const")))
            kw_add(&kws, SK_CONST, "const")->u.value = v;
        if ((v = kwget(n, "multipleOf"))) {
            if (!json_is_number(v) || json_number_value(v) <= 0)
                cerr(cs, n, "multipleOf", "\"multipleOf\" must be a number greater than 0");
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
                cerr(cs, n, LIMS[i].kw, "\"%s\" must be a number", LIMS[i].kw);
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
                    cerr(cs, n, LIMS[i].ex, "\"%s\" must be a number", LIMS[i].ex);
                else if (ex) kw_add(&kws, LIMS[i].kx, LIMS[i].ex)->u.value = ex;
            }
        }
        static const struct {
            const char *kw;
            enum schema_kwk k;
        } COUNTS[] = {{"maxLength", SK_MAXLENGTH}, {"minLength", SK_MINLENGTH},
                      {"maxItems", SK_MAXITEMS},   {"minItems", SK_MINITEMS},
                      {"maxProperties", SK_MAXPROPS}, {"minProperties", SK_MINPROPS}};
        for (size_t i = 0; i < sizeof COUNTS / sizeof COUNTS[0]; i++) {
            size_t c;
            if (get_count(cs, n, COUNTS[i].kw, &c))
                kw_add(&kws, COUNTS[i].k, COUNTS[i].kw)->u.count = c;
        }
        if ((v = kwget(n, "pattern"))) {
            if (!json_is_string(v)) {
                cerr(cs, n, "pattern", "\"pattern\" must be a string");
            } else {
                struct schema_re *re =
                    compile_re(cs, n, "pattern", json_string_value(v), json_string_length(v));
                if (re) kw_add(&kws, SK_PATTERN, "pattern")->u.re = re;
            }
        }
        if (json_is_true(kwget(n, "uniqueItems")))
            kw_add(&kws, SK_UNIQUE, "uniqueItems");
        if ((v = kwget(n, "required"))) {
            int ok = json_is_array(v);
            size_t i;
            json_t *t;
            if (ok) json_array_foreach(v, i, t) if (!json_is_string(t)) ok = 0;
            if (!ok) cerr(cs, n, "required", "\"required\" must be an array of strings");
            else kw_add(&kws, SK_REQUIRED, "required")->u.value = v;
        }
        if (draft >= 2019 && (v = kwget(n, "dependentRequired"))) {
            if (!json_is_object(v))
                cerr(cs, n, "dependentRequired", "\"dependentRequired\" must be an object");
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
            size_t c = child(cs, n, v, "if", NULL, SCHEMA_NONE), t = SCHEMA_NONE,
                   e = SCHEMA_NONE;
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
                cerr(cs, n, "patternProperties", "\"patternProperties\" must be an object");
            } else {
                size_t cnt = json_object_size(v);
                pres = xcalloc(cnt ? cnt : 1, sizeof *pres);
                size_t *nodes = xmalloc((cnt ? cnt : 1) * sizeof *nodes);
                const char *key;
                json_t *c;
                json_object_foreach(v, key, c) {
                    struct schema_re *re =
                        compile_re(cs, cs->s->nodes.items[nid], "patternProperties", key,
                                   strlen(key));
                    if (!re) continue;
                    pres[npat] = re;
                    nodes[npat] = child(cs, cs->s->nodes.items[nid], c, "patternProperties",
                                        key, SCHEMA_NONE);
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
                k->u.items.node = child(cs, cs->s->nodes.items[nid], ai, "additionalItems",
                                        NULL, SCHEMA_NONE);
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

static void drain(struct cstate *cs)
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

static void kw_free(struct schema_kw *k)
{
    switch (k->kind) {
    case SK_ALLOF:
    case SK_ANYOF:
    case SK_ONEOF:
    case SK_PREFIXITEMS:
        free(k->u.list.nodes);
        break;
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
    case SK_ADDPROPS:
        free(k->u.addprops.re);
        break;
    case SK_DYNREF:
        free(k->u.ref.anchor);
        break;
    default:
        break;
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

static void cstate_release(struct cstate *cs)
{
    schema_map_release(&cs->resmap);
    schema_map_release(&cs->anchors);
    schema_map_release(&cs->locmap);
    schema_map_release(&cs->nodemap);
    schema_map_release(&cs->docmap);
    VEC_FREE(cs->locs);
    VEC_FREE(cs->work);
}

/* Compile ROOT; *BOUNDED (may be NULL) tells whether a bound stopped it. */
static schema *compile(schema_ctx *ctx, json_t *root, const char *base_uri,
                       enum schema_dialect dflt, struct schema_errors *errs, int plain,
                       int check_all, int *bounded)
{
    /* check_all: 1 to compile every subschema (schema_check), | 2 to leave a network
     * reference unresolved (schema_check_offline) */
    struct cstate cs;
    memset(&cs, 0, sizeof cs);
    schema *s = xcalloc(1, sizeof *s);
    s->lim = ctx->lim;
    s->root_plain = plain;
    s->mctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(s->mctx, s->lim.regex_match_limit);
    pcre2_set_depth_limit(s->mctx, s->lim.regex_depth_limit);
    cs.s = s;
    cs.ctx = ctx;
    cs.errs = errs;
    cs.check_all = check_all & 1;
    cs.skip_network = (check_all & 2) != 0;
    cs.default_draft = dflt ? (int)dflt : SCHEMA_DRAFT2020_12;
    char *base = strip_empty_fragment(base_uri ? base_uri : "");
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
    uint32_t di = add_doc(&cs, base, root);
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
    char *u = strip_empty_fragment(uri);
    schema *s = compile(ctx, j, u, dflt, errs, 0, 0, NULL);
    free(u);
    return s;
}

schema *schema_compile_file(schema_ctx *ctx, const char *path, enum schema_dialect dflt,
                            struct schema_errors *errs)
{
    json_error_t jerr;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY,
                               &jerr);
    if (!j) {
        schema_errors_add(errs, "", "", "cannot load schema \"%s\": %s (line %d, column %d)",
                          path, jerr.text, jerr.line, jerr.column);
        return NULL;
    }
    VEC_PUSH(ctx->files, xstrdup(path));
    char *rp = realpath(path, NULL);
    char *base = uri_from_path(rp ? rp : path);
    free(rp);
    schema *s = schema_compile(ctx, j, base, dflt, errs);
    free(base);
    json_decref(j);
    return s;
}

enum schema_dialect schema_root_dialect(const schema *s) { return s->root_draft; }

schema *schema_compile_check(schema_ctx *ctx, json_t *sch, const char *base_uri,
                             enum schema_dialect dflt, struct schema_errors *errs, int offline,
                             int *bounded)
{
    return compile(ctx, sch, base_uri, dflt, errs, 1, offline ? 3 : 1, bounded);
}
