/* fn_schema.c - predicates backed by the JSON Schema engine (schema.h):
 *   valid-schema: D     the node is a valid schema of its declared dialect ($schema),
 *                       or of D when it declares none (meta-schema + every regex/ref;
 *                       a reference to a network URI is not resolved: nothing is
 *                       fetched, and the meta-schema never needs it)
 *   keywords-spelt: D   no member in a keyword position of the node (a schema of its
 *                       declared dialect, else D) is a near miss of a keyword ("minimun")
 *   dialect-in: [D...]  the node's declared dialect (or the first D) is one of these
 *   matches-schema: F   the node validates against schema file F (relative to the rule
 *                       set's directory), compiled once: when the rules load, or on its
 *                       first match when the load may defer it (rule_cache.h);
 *                       {file: F, without: [M...]}: the node minus its members M (the
 *                       description-only members of a native projection, e.g.
 *                       protocolVersions) validates against F
 *   ref-resolves: {depth: N, dialect: D}
 *                       the node (a $ref value) resolves inside the schema rooted at its
 *                       ancestor at depth N (D when that root declares no $schema),
 *                       without fetching anything
 * Each failure leaves a one-line explanation in ctx->detail (message placeholder
 * {detail}), so a diagnostic names the keyword and the pointer that failed, and where
 * below the node the failing value is in ctx->at (report-at: failure): the instance
 * location of the error it names (for valid-schema a pointer inside the schema; for
 * dialect-in its $schema; which error: name_first below). A matches-schema `const` failure is the failure of the object
 * holding the member: a literal member such as an MCP inputSchema's "type": "object"
 * discriminates the object's type, so the object is the value that does not have it.
 * The predicates are listed, with their names and synopses, in fn_table[] (fn_table.c);
 * this file exports their functions through fnInt.h. */
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/once.h"
#include "rules/fnInt.h"
#include "rules/rule_cache.h"
#include "schema/schema.h"

/* A matches-schema schema compiled on its first match (p->data): items are judged on two
 * threads, so the first to need it compiles it under LOCK and publishes it; the others
 * wait for it there. */
struct deferred_schema {
    pthread_mutex_t lock;
    once_state done; /* compiled, or failed (then s NULL and why says why) */
    schema *s;       /* read without the lock once done is seen */
    char *path;      /* as the compiler is given it */
    schema_ctx *ctx; /* the set's that named it (a base's rules keep their base's) */
    char *why;
    char record[65]; /* the rule_cache record that said it compiles, dropped if it does not */
};

static void deferred_free(struct deferred_schema *d)
{
    if (!d) return;
    pthread_mutex_destroy(&d->lock);
    schema_free(d->s);
    free(d->path);
    free(d->why);
    free(d);
}

/* The outermost directory of PATH's that does not exist (new), or NULL when PATH's own
 * directory exists (only the file is missing). */
static char *missing_root(const char *path)
{
    char *dir = xstrdup(path), *root = NULL;
    for (char *slash = strrchr(dir, '/'); slash && slash != dir; slash = strrchr(dir, '/')) {
        *slash = 0;
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) break;
        free(root);
        root = xstrdup(dir);
    }
    free(dir);
    return root;
}

static void add_detail(struct eval_ctx *ctx, const struct schema_errors *errs)
{
    buf_reset(&ctx->detail);
    if (!errs->len) return;
    const struct schema_error *e = &errs->items[0];
    buf_addf(&ctx->detail, "%s", e->message);
    if (e->instance_location && *e->instance_location)
        buf_addf(&ctx->detail, " at %s", e->instance_location);
    if (e->keyword_location && *e->keyword_location)
        buf_addf(&ctx->detail, " (%s)", e->keyword_location);
    if (errs->len > 1)
        buf_addf(&ctx->detail, "; %s%zu more", schema_errors_full(errs) ? "at least " : "",
                 errs->len - 1);
}

/* The predicates name the first error and count the others: they stop counting here. */
#define DETAIL_ERRORS 100

/* ctx->at: where the first error is, for report-at: failure. PARENT: the object holding
 * the member the error is at. */
static void set_at(struct eval_ctx *ctx, const struct schema_errors *errs, int parent)
{
    buf_reset(&ctx->at);
    if (!errs->len || !errs->items[0].instance_location) return;
    const char *loc = errs->items[0].instance_location;
    const char *end = parent ? strrchr(loc, '/') : NULL;
    buf_add(&ctx->at, loc, end ? (size_t)(end - loc) : strlen(loc));
}

/* Which error a diagnostic names (moved to the front, the others keeping their order):
 * with MEMBERS_FIRST the first one below the judged node rather than one at the node
 * itself, with REFS_LAST the first one that is not an unresolved reference. A missing
 * member of an item (an error at the node itself) and a local reference that does not
 * resolve have rules of their own (mcp.tool.name.required, mcp.schema.ref.local-resolves,
 * ...) that report them where they are: naming them first would let such a rule's
 * diagnostic take the place of an error about another value. */
static int is_ref_error(const struct schema_error *e)
{
    static const char *const kws[] = {"/$ref", "/$dynamicRef", "/$recursiveRef"};
    size_t n = e->keyword_location ? strlen(e->keyword_location) : 0;
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++) {
        size_t k = strlen(kws[i]);
        if (n >= k && !strcmp(e->keyword_location + n - k, kws[i])) return 1;
    }
    return 0;
}

static void name_first(struct schema_errors *errs, int members_first, int refs_last)
{
    size_t best = 0;
    int best_rank = 4;
    for (size_t i = 0; i < errs->len && best_rank; i++) {
        const struct schema_error *e = &errs->items[i];
        int rank = (refs_last && is_ref_error(e)) * 2 +
            (members_first && !(e->instance_location && *e->instance_location));
        if (rank < best_rank) {
            best = i;
            best_rank = rank;
        }
    }
    if (!best) return;
    struct schema_error first = errs->items[best];
    memmove(errs->items + 1, errs->items, best * sizeof *errs->items);
    errs->items[0] = first;
}

/* Is the first error a `const` keyword's (a literal member)? */
static int first_is_const(const struct schema_errors *errs)
{
    const char *k = errs->len ? errs->items[0].keyword_location : NULL;
    size_t n = k ? strlen(k) : 0;
    return n >= 6 && !strcmp(k + n - 6, "/const");
}

int fn_schema_arg_dialect(struct cc *cc, struct pred *p, struct yv arg)
{
    size_t n = json_is_array(arg.v) ? json_array_size(arg.v) : 1;
    if (!n) {
        rule_cc_error(cc, arg.n, 0, "%s needs at least one dialect", p->fn->name);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(arg.v) ? rule_yv_item(cc, arg, i) : arg;
        if (!json_is_string(e.v) ||
            schema_dialect_parse(json_string_value(e.v)) == SCHEMA_DIALECT_NONE) {
            rule_cc_error(cc, e.n, 0,
                          "%s takes dialect names (2020-12, 2019-09, draft-07, draft-06, "
                          "draft-04), not %s",
                          p->fn->name,
                          json_is_string(e.v) ? json_string_value(e.v) : rule_json_type_name(e.v));
            return -1;
        }
    }
    p->arg = json_is_array(arg.v) ? json_incref(arg.v) : json_pack("[O]", arg.v);
    return 0;
}

static enum schema_dialect default_dialect(const struct pred *p)
{
    return schema_dialect_parse(json_string_value(json_array_get(p->arg, 0)));
}

/* valid-schema collects this many errors of a schema (one mistake often gives several:
 * a $dynamicRef to each vocabulary, then the compiler's own), and names at most
 * FINDINGS_MAX failing values; past either, the last one says the list stops there. */
#define CHECK_ERRORS 400
#define FINDINGS_MAX 100

/* ctx->places: one per failing value of the checked schema (schema_explain), and their
 * summary in ctx->at and ctx->detail. */
static void set_places(struct eval_ctx *ctx, json_t *sch, enum schema_dialect d,
                       const struct schema_errors *errs)
{
    struct schema_errors found = SCHEMA_ERRORS_INIT;
    schema_explain(sch, d, errs, &found);
    size_t n = found.len < FINDINGS_MAX ? found.len : FINDINGS_MAX;
    int more = found.len > FINDINGS_MAX || schema_errors_full(errs);
    fn_places_reset(ctx);
    for (size_t i = 0; i < n; i++) {
        const struct schema_error *e = &found.items[i];
        if (i + 1 < n || !more) {
            fn_places_add(ctx, e->instance_location, e->message);
            continue;
        }
        char *last = found.len > FINDINGS_MAX
            ? xasprintf("%s (mcpdesc names at most %d mistakes of a schema: fix these and "
                        "validate again for the others)",
                        e->message, FINDINGS_MAX)
            : xasprintf("%s (mcpdesc stopped after %d errors in this schema: fix these and "
                        "validate again for any others)",
                        e->message, CHECK_ERRORS);
        fn_places_add(ctx, e->instance_location, last);
        free(last);
    }
    fn_places_summarize(ctx, more);
    schema_errors_release(&found);
}

/* The verdict depends only on the schema value and the default dialect, so a valid
 * one is memoized per document: a component shared by many tools is checked once (an
 * invalid one is checked again, for where it fails). A failure names every failing
 * value (ctx->places, each with its keyword's expected form), unresolved references
 * last: mcp.schema.ref.* report those at the $ref for the versions they judge. */
int fn_schema_eval_valid_schema(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    enum schema_dialect d = default_dialect(p);
    int ok;
    if (fn_memo_get(ctx, c->v, (int)d, &ok) && ok) return ok;
    struct schema_errors errs = {.limit = CHECK_ERRORS};
    schema_ctx *sc = rule_set_schemas(ctx->rs);
    int rc = schema_check_offline(sc, c->v, NULL, d, &errs);
    if (rc != 0) {
        name_first(&errs, 1, 1);
        enum schema_dialect declared = schema_declared_dialect(sc, c->v, d);
        set_places(ctx, c->v, declared ? declared : d, &errs);
    }
    schema_errors_release(&errs);
    if (rc == 0) fn_memo_put(ctx, c->v, (int)d, 1);
    return rc == 0;
}

/* Misspelt keywords are legal JSON Schema (an unknown keyword is an annotation), so this
 * is a predicate of its own, for a rule of its own level; it names every one (ctx->places). */
int fn_schema_eval_keywords_spelt(const struct pred *p, const struct cursor *c,
                                  struct eval_ctx *ctx)
{
    enum schema_dialect d =
        schema_declared_dialect(rule_set_schemas(ctx->rs), c->v, default_dialect(p));
    if (!json_is_object(c->v) || d == SCHEMA_DIALECT_NONE) return 1; /* dialect-in's */
    struct schema_errors found = SCHEMA_ERRORS_INIT;
    size_t n = schema_misspelt_keywords(c->v, d, &found);
    fn_places_reset(ctx);
    for (size_t i = 0; i < n && i < FINDINGS_MAX; i++)
        fn_places_add(ctx, found.items[i].instance_location, found.items[i].message);
    if (n) fn_places_summarize(ctx, 0);
    schema_errors_release(&found);
    return n == 0;
}

int fn_schema_eval_dialect_in(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    enum schema_dialect d =
        schema_declared_dialect(rule_set_schemas(ctx->rs), c->v, default_dialect(p));
    size_t i;
    json_t *e;
    json_array_foreach(p->arg, i, e) if (schema_dialect_parse(json_string_value(e)) == d) return 1;
    buf_reset(&ctx->detail);
    json_t *decl = json_object_get(c->v, "$schema");
    buf_addf(&ctx->detail, "%s",
             json_is_string(decl) ? json_string_value(decl) : "a $schema that is not a string");
    buf_reset(&ctx->at);
    if (decl) buf_adds(&ctx->at, "/$schema"); /* the failing value */
    return 0;
}

/* `without`: a list of member names (kept in p->arg). */
static int arg_without(struct cc *cc, struct pred *p, struct yv w)
{
    if (!json_is_array(w.v) || !json_array_size(w.v)) {
        rule_cc_error(cc, w.n, 0,
                      "matches-schema \"without\" takes a non-empty list of member names, "
                      "e.g. [protocolVersions]");
        return -1;
    }
    for (size_t i = 0; i < json_array_size(w.v); i++) {
        struct yv e = rule_yv_item(cc, w, i);
        if (!json_is_string(e.v)) {
            rule_cc_error(cc, e.n, 0,
                          "matches-schema \"without\" entries are member names, not a %s",
                          rule_json_type_name(e.v));
            return -1;
        }
    }
    p->arg = json_incref(w.v);
    return 0;
}

/* FILE, or {file: FILE, without: [MEMBER, ...]}. */
int fn_schema_arg_schema_file(struct cc *cc, struct pred *p, struct yv arg)
{
    struct yv file = arg;
    if (json_is_object(arg.v)) {
        for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it)) {
            const char *k = json_object_iter_key(it);
            if (strcmp(k, "file") && strcmp(k, "without")) {
                rule_cc_error_hint(cc, rule_yv_member(cc, arg, k).n, 1, rule_hint_unknown_member,
                                   "unknown member \"%s\" of matches-schema (known: file, without)",
                                   k);
                return -1;
            }
        }
        file = rule_yv_member(cc, arg, "file");
        struct yv w = rule_yv_member(cc, arg, "without");
        if (w.v && arg_without(cc, p, w) < 0) return -1;
        if (!file.v) {
            rule_cc_error(cc, arg.n, 0,
                          "matches-schema needs \"file\": a schema file relative to the rule set");
            return -1;
        }
    }
    if (!json_is_string(file.v)) {
        rule_cc_error(cc, file.n, 0,
                      "matches-schema takes a schema file path relative to the rule set, not a %s",
                      rule_json_type_name(file.v));
        return -1;
    }
    char *path = xasprintf("%s/%s", rule_set_dir(cc->rs), json_string_value(file.v));
    p->file = util_normalize_path(json_string_value(file.v));
    /* Deferred, it is not looked at here (a start's 31 access calls): the loader's record
     * check finds it by its identity, or compiles it at load; one that cannot be read fails
     * that load, which is then done again without deferring and reports it below. */
    if (cc->rs->defer_schemas) {
        struct deferred_schema *d = xcalloc(1, sizeof *d);
        pthread_mutex_init(&d->lock, NULL);
        d->path = path;
        d->ctx = rule_set_schemas(cc->rs);
        p->data = d;
        VEC_PUSH(cc->rs->deferred, p);
        VEC_PUSH(cc->rs->deferred_files, d->path);
        return 0;
    }
    int readable = access(path, R_OK) == 0;
    char *missing = !readable ? missing_root(path) : NULL;
    if (missing) {
        /* the usual cause: a rule directory copied without the schemas beside it; said
         * once for the directory, not for every file in it */
        if (rule_cc_missing_dir_once(cc, missing))
            rule_cc_error_hint(
                cc, file.n, 0,
                "copy the directory to where the rule files name it (rules-yaml/README.md, Working "
                "on a copy), or "
                "use the set's release directory NAME@TAG/ (`mcpdesc rules pack`, "
                "docs/releases.md)",
                "schema directory %s not found: the rule set's schema files are not there",
                missing);
        free(missing);
        free(path);
        return -1;
    }
    if (!readable) {
        rule_cc_error_hint(cc, file.n, 0,
                           "a rule directory alone is not a whole rule set: copy its release "
                           "directory NAME@TAG/ (`mcpdesc rules pack`, docs/releases.md), or put "
                           "the file there",
                           "cannot use schema %s: there is no such file (%s)",
                           json_string_value(file.v), path);
        free(path);
        return -1;
    }
    struct schema_errors errs = {.limit = DETAIL_ERRORS};
    p->compiled = schema_compile_file(rule_set_schemas(cc->rs), path, SCHEMA_DRAFT2020_12, &errs);
    if (!p->compiled)
        rule_cc_error(cc, file.n, 0, "cannot use schema %s: %s", path,
                      errs.len ? errs.items[0].message : "?");
    schema_errors_release(&errs);
    free(path);
    return p->compiled ? 0 : -1;
}

int fn_schema_compile_deferred(struct pred *p)
{
    struct deferred_schema *d = p->data;
    struct schema_errors errs = {.limit = DETAIL_ERRORS};
    p->compiled = schema_compile_file(d->ctx, d->path, SCHEMA_DRAFT2020_12, &errs);
    schema_errors_release(&errs);
    p->data = NULL;
    deferred_free(d);
    return p->compiled ? 0 : -1;
}

void fn_schema_defer(struct pred *p, const char record[65])
{
    struct deferred_schema *d = p->data;
    memcpy(d->record, record, sizeof d->record);
}

/* D's schema compiled (once_run's doer: schema_of), or why it does not compile. */
static int deferred_compile(void *arg)
{
    struct deferred_schema *d = arg;
    struct schema_errors errs = {.limit = DETAIL_ERRORS};
    d->s = schema_compile_file(d->ctx, d->path, SCHEMA_DRAFT2020_12, &errs);
    /* changed since the record was checked: the next load compiles and reports it */
    if (!d->s) {
        d->why =
            xasprintf("cannot use schema %s: %s", d->path, errs.len ? errs.items[0].message : "?");
        rule_cache_schema_drop(d->record);
    }
    schema_errors_release(&errs);
    return 1;
}

/* P's compiled schema: compiled now when deferred and not yet compiled, NULL when it
 * does not compile (ctx->detail says why). */
static schema *schema_of(const struct pred *p, struct eval_ctx *ctx)
{
    struct deferred_schema *d = p->data;
    if (!d) return p->compiled;
    once_run(&d->done, &d->lock, deferred_compile, d);
    if (!d->s) {
        buf_reset(&ctx->detail);
        buf_adds(&ctx->detail, d->why);
    }
    return d->s;
}

/* The value to validate: the node, or a shallow copy without the `without` members
 * (the node itself when it has none of them). */
static json_t *projected(const struct pred *p, json_t *v)
{
    size_t i;
    json_t *m;
    int has = 0;
    if (p->arg && json_is_object(v))
        json_array_foreach(p->arg, i, m) has |= json_object_get(v, json_string_value(m)) != NULL;
    if (!has) return json_incref(v);
    json_t *copy = json_copy(v);
    json_array_foreach(p->arg, i, m) json_object_del(copy, json_string_value(m));
    return copy;
}

int fn_schema_eval_matches_schema(const struct pred *p, const struct cursor *c,
                                  struct eval_ctx *ctx)
{
    schema *s = schema_of(p, ctx);
    if (!s) return 0;
    struct schema_errors errs = {.limit = DETAIL_ERRORS};
    json_t *v = projected(p, c->v);
    /* yes/no first (the engine's fast path); the error list only for a failure */
    int rc = schema_validate(s, v, NULL);
    if (rc != 0) rc = schema_validate(s, v, &errs);
    json_decref(v);
    if (rc != 0) {
        /* an item's missing member is its presence rule's; the document's own
         * (mcpdesc.description.format, at the root) is named as it comes */
        name_first(&errs, c->depth > 0, 0);
        add_detail(ctx, &errs);
        /* where: for report-at: failure (the members it drops are never where it fails) */
        set_at(ctx, &errs, first_is_const(&errs));
    }
    schema_errors_release(&errs);
    return rc == 0;
}

/* {depth: N, dialect: D}: kept in p->arg as {"depth": N, "dialect": [D]}. */
int fn_schema_arg_ref_resolves(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_object(arg.v)) {
        rule_cc_error(cc, arg.n, 0,
                      "ref-resolves takes {depth: N, dialect: D} (the schema root's depth, e.g. 3 "
                      "for /tools/0/inputSchema), not a %s",
                      rule_json_type_name(arg.v));
        return -1;
    }
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it)) {
        const char *k = json_object_iter_key(it);
        if (strcmp(k, "depth") && strcmp(k, "dialect")) {
            rule_cc_error_hint(cc, rule_yv_member(cc, arg, k).n, 1, rule_hint_unknown_member,
                               "unknown member \"%s\" of ref-resolves (known: depth, dialect)", k);
            return -1;
        }
    }
    struct yv depth = rule_yv_member(cc, arg, "depth");
    if (!json_is_integer(depth.v) || json_integer_value(depth.v) < 0) {
        rule_cc_error(cc, depth.v ? depth.n : arg.n, 0,
                      "ref-resolves needs \"depth\": a count of levels below the "
                      "document root (3 for /tools/0/inputSchema)");
        return -1;
    }
    struct yv dialect = rule_yv_member(cc, arg, "dialect");
    json_t *d = dialect.v ? dialect.v : json_string("2020-12");
    struct yv dy = {d, dialect.v ? dialect.n : arg.n};
    int rc = fn_schema_arg_dialect(cc, p, dy);
    if (!dialect.v) json_decref(d);
    if (rc < 0) return -1;
    json_t *dl = p->arg;
    p->arg = json_pack("{s:O,s:o}", "depth", depth.v, "dialect", dl);
    return 0;
}

int fn_schema_eval_ref_resolves(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    json_int_t depth = json_integer_value(json_object_get(p->arg, "depth"));
    const struct cursor *root = c;
    while (root && root->depth > depth) root = root->parent;
    if (!root || root->depth != depth || !json_is_string(c->v)) {
        buf_reset(&ctx->detail);
        buf_addf(&ctx->detail, "%s",
                 json_is_string(c->v) ? "no schema root at that depth" : "a $ref must be a string");
        return 0;
    }
    char *at = sel_pointer(c), *top = sel_pointer(root);
    const char *rel = at + strlen(top); /* the $ref's pointer inside the schema */
    enum schema_dialect d = schema_dialect_parse(
        json_string_value(json_array_get(json_object_get(p->arg, "dialect"), 0)));
    struct schema_errors errs = {.limit = DETAIL_ERRORS};
    schema *s = schema_compile(rule_set_schemas(ctx->rs), root->v, NULL, d, &errs);
    int ok = 1;
    for (size_t i = 0; i < errs.len && ok; i++) {
        const struct schema_error *e = &errs.items[i];
        if (e->instance_location && !strcmp(e->instance_location, rel)) {
            ok = 0;
            buf_reset(&ctx->detail);
            buf_addf(&ctx->detail, "%s", e->message);
        }
    }
    schema_free(s);
    schema_errors_release(&errs);
    free(at);
    free(top);
    return ok;
}

/* matches-schema's free hook: the schema its compiler compiled when the rules loaded, or
 * the one compiled on first use. */
void fn_schema_free_compiled(struct pred *p)
{
    schema_free(p->compiled);
    deferred_free(p->data);
    free(p->file);
}
