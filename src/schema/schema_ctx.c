/* schema_ctx.c - the context (schema_ctx, schema.h): its limits, the registry of
 * documents (registered, embedded meta-schemas, read through the --ref-map under the
 * context's lock), the files read from disk and the cache of compiled meta-schemas.
 * Nothing here compiles or validates. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema/schemaInt.h"

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

struct refmap_ent {
    char *prefix, *dir;
};

struct meta_cache_ent {
    char *uri;
    schema *s;
};

struct real_dir {
    char *dir, *real;
};

struct schema_ctx {
    struct schema_limits lim;
    VEC(struct schema_docent) docs;
    struct schema_map docmap;
    VEC(struct refmap_ent) refmap;
    VEC(struct meta_cache_ent) metas; /* compiled meta-schemas, for schema_check */
    VEC(char *) files;                /* files read from disk, in the order read */
    VEC(struct real_dir) real_dirs;   /* directories' real paths (schema_ctx_real_path) */
    struct schema_memo *memo;         /* schema_check's verdicts by content */
    schema_file_loader loader;        /* NULL: val_load_file */
    void *loader_arg;
    void (*loader_free)(void *);
    /* the embedded meta-schemas parsed so far (one flag each, schema_embedded_docs order):
     * each is parsed when a lookup first misses it, not up front (0.7 ms of every start) */
    unsigned char *embedded_parsed;
    /* a document not embedded was registered under a json-schema.org URI: the meta-schemas
     * may not be the standard ones (schema_ctx_metas_embedded) */
    _Atomic int foreign_meta;
    /* held around what compiling may add once set up: documents read through the
     * ref-map (docs, docmap, files), files compiled (files) and the meta-schema cache
     * (metas) */
    pthread_mutex_t lock;
};

static int meta_uri(const char *u)
{
    return !strncmp(u, "https://json-schema.org/", 24) ||
        !strncmp(u, "http://json-schema.org/", 23);
}

/* EMBEDDED: one of the embedded meta-schemas (parse_embedded), else the caller's or the
 * ref-map's. */
static void add_document_as(schema_ctx *ctx, const char *uri, json_t *doc, int embedded)
{
    char *u = schema_uri_nofrag(uri);
    size_t i;
    if (!embedded && meta_uri(u)) atomic_store(&ctx->foreign_meta, 1);
    json_incref(doc);
    if (schema_smap_get(&ctx->docmap, u, &i)) {
        json_decref(ctx->docs.items[i].root);
        ctx->docs.items[i].root = doc;
        free(u);
        return;
    }
    struct schema_docent e = {u, doc};
    schema_smap_put(&ctx->docmap, u, ctx->docs.len);
    VEC_PUSH(ctx->docs, e);
}

static void add_document(schema_ctx *ctx, const char *uri, json_t *doc)
{
    add_document_as(ctx, uri, doc, 0);
}

int schema_ctx_metas_embedded(schema_ctx *ctx)
{
    return !atomic_load(&ctx->foreign_meta);
}

void schema_ctx_add_document(schema_ctx *ctx, const char *uri, json_t *doc)
{
    schema_memo_reset(ctx->memo); /* a reference may resolve differently now */
    add_document(ctx, uri, doc);
}

void schema_ctx_add_ref_map(schema_ctx *ctx, const char *prefix, const char *dir)
{
    struct refmap_ent e = {xstrdup(prefix), xstrdup(dir)};
    schema_memo_reset(ctx->memo);
    VEC_PUSH(ctx->refmap, e);
}

schema_ctx *schema_ctx_new(const struct schema_limits *lim)
{
    schema_ctx *ctx = xcalloc(1, sizeof *ctx);
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->memo = schema_memo_new();
    if (lim) ctx->lim = *lim;
    else schema_limits_default(&ctx->lim);
    ctx->embedded_parsed = xcalloc(schema_embedded_count ? schema_embedded_count : 1, 1);
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
    for (size_t i = 0; i < ctx->real_dirs.len; i++) {
        free(ctx->real_dirs.items[i].dir);
        free(ctx->real_dirs.items[i].real);
    }
    VEC_FREE(ctx->real_dirs);
    free(ctx->embedded_parsed);
    if (ctx->loader_free) ctx->loader_free(ctx->loader_arg);
    schema_memo_free(ctx->memo);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

void schema_ctx_set_loader(schema_ctx *ctx, schema_file_loader fn, void *arg,
                           void (*free_arg)(void *))
{
    if (ctx->loader_free) ctx->loader_free(ctx->loader_arg);
    ctx->loader = fn;
    ctx->loader_arg = arg;
    ctx->loader_free = free_arg;
}

void *schema_ctx_loader_arg(const schema_ctx *ctx, schema_file_loader fn)
{
    return ctx->loader == fn ? ctx->loader_arg : NULL;
}

json_t *schema_ctx_load_file(schema_ctx *ctx, const char *path, size_t flags, json_error_t *err)
{
    return ctx->loader ? ctx->loader(ctx->loader_arg, path, flags, err)
                       : val_load_file(path, flags, err);
}

size_t schema_ctx_file_count(const schema_ctx *ctx)
{
    return ctx->files.len;
}
const char *schema_ctx_file(const schema_ctx *ctx, size_t i)
{
    return ctx->files.items[i];
}

char *schema_ctx_real_path(schema_ctx *ctx, const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    struct stat st;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || lstat(path, &st) != 0 ||
        S_ISLNK(st.st_mode))
        return realpath(path, NULL); /* as realpath says, a link or a missing file included */
    char *dir = !slash ? xstrdup(".") : xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
    char *real = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->real_dirs.len && !real; i++)
        if (!strcmp(ctx->real_dirs.items[i].dir, dir)) real = xstrdup(ctx->real_dirs.items[i].real);
    pthread_mutex_unlock(&ctx->lock);
    if (real) {
        free(dir);
    } else if ((real = realpath(dir, NULL))) {
        struct real_dir rd = {dir, xstrdup(real)};
        pthread_mutex_lock(&ctx->lock);
        VEC_PUSH(ctx->real_dirs, rd);
        pthread_mutex_unlock(&ctx->lock);
    } else {
        free(dir);
        return NULL;
    }
    char *out = xasprintf("%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
    free(real);
    return out;
}

void schema_ctx_add_file(schema_ctx *ctx, const char *path)
{
    char *copy = xstrdup(path);
    pthread_mutex_lock(&ctx->lock); /* a schema compiled on first use: on a judging thread */
    VEC_PUSH(ctx->files, copy);
    pthread_mutex_unlock(&ctx->lock);
}

const struct schema_limits *schema_ctx_limits(const schema_ctx *ctx)
{
    return &ctx->lim;
}

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

struct schema_memo *schema_ctx_memo(schema_ctx *ctx)
{
    return ctx->memo;
}

static json_t *registered(schema_ctx *ctx, const char *u)
{
    size_t i;
    return schema_smap_get(&ctx->docmap, u, &i) ? ctx->docs.items[i].root : NULL;
}

/* Registers the embedded document I (a bundle: each of its members), under the URIs no
 * document holds yet: one registered by the caller before stays, as when every embedded
 * one was registered first and the caller's replaced it. */
static void parse_embedded(schema_ctx *ctx, size_t i)
{
    const struct schema_embedded *e = &schema_embedded_docs[i];
    ctx->embedded_parsed[i] = 1;
    json_error_t jerr;
    json_t *j = json_loadb((const char *)e->data, e->len, 0, &jerr);
    if (!j) BUG("embedded meta-schema does not parse");
    const char *k;
    json_t *v;
    if (e->uri) {
        char *u = schema_uri_nofrag(e->uri);
        if (!registered(ctx, u)) add_document_as(ctx, u, j, 1);
        free(u);
    } else {
        json_object_foreach(j, k, v)
        {
            if (!meta_uri(k)) BUG("an embedded bundle holds a URI not under json-schema.org");
            char *u = schema_uri_nofrag(k);
            if (!registered(ctx, u)) add_document_as(ctx, u, v, 1);
            free(u);
        }
    }
    json_decref(j);
}

/* The document registered under URI; else the embedded one of that URI, parsed now: the
 * one named so, else those of the bundles (whose URIs are known once parsed). The
 * caller holds the context's lock. */
static json_t *ctx_lookup(schema_ctx *ctx, const char *uri)
{
    char *u = schema_uri_nofrag(uri);
    json_t *j = registered(ctx, u);
    for (size_t i = 0; i < schema_embedded_count && !j; i++) {
        const struct schema_embedded *e = &schema_embedded_docs[i];
        if (ctx->embedded_parsed[i] || !e->uri) continue;
        char *eu = schema_uri_nofrag(e->uri);
        int same = !strcmp(eu, u);
        free(eu);
        if (!same) continue;
        parse_embedded(ctx, i);
        j = registered(ctx, u);
    }
    /* a bundle holds the vocabularies' meta-schemas (parse_embedded checks): any other
     * URI, such as a rule set's schema file, is not parsed for */
    for (size_t i = 0; i < schema_embedded_count && !j && meta_uri(u); i++)
        if (!ctx->embedded_parsed[i] && !schema_embedded_docs[i].uri) {
            parse_embedded(ctx, i);
            j = registered(ctx, u);
        }
    free(u);
    return j;
}

static json_t *fetch_nofrag(schema_ctx *ctx, const char *uri, char **why);
json_t *schema_ctx_fetch(schema_ctx *ctx, const char *uri, char **why)
{
    char *u = schema_uri_nofrag(uri);
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
            *why =
                xasprintf("reference \"%s\" was not fetched: it leaves the mapped directory", uri);
            return NULL;
        }
        char *path = xasprintf(
            "%s%s%s", m->dir,
            (*rest == '/' || !*m->dir || m->dir[strlen(m->dir) - 1] == '/') ? "" : "/", rest);
        json_error_t jerr;
        j = schema_ctx_load_file(ctx, path, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
        if (!j) {
            *why = xasprintf("cannot read reference \"%s\" from \"%s\": %s", uri, path, jerr.text);
            free(path);
            return NULL;
        }
        VEC_PUSH(ctx->files, path);
        add_document(ctx, uri, j); /* what the ref-map gives every time: checks stand */
        json_decref(j);
        return ctx_lookup(ctx, uri);
    }
    *why = xasprintf("reference \"%s\" was not fetched: only registered documents and "
                     "--ref-map prefixes are resolved",
                     uri);
    return NULL;
}
