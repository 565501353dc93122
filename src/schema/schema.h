/* schema.h - JSON Schema engine: compile a schema once (references resolved, regexes
 * precompiled, keywords dispatched), validate many instances; check schemas against
 * their dialect's meta-schema. Dialects 2020-12, 2019-09, draft-07, -06, -04.
 * Never touches the network: non-local references resolve only through documents
 * registered on the context, the embedded meta-schemas and explicit --ref-map dirs. */
#ifndef MCPDESC_SCHEMA_H
#define MCPDESC_SCHEMA_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

enum schema_dialect {
    SCHEMA_DIALECT_NONE = 0,
    SCHEMA_DRAFT04 = 4,
    SCHEMA_DRAFT06 = 6,
    SCHEMA_DRAFT07 = 7,
    SCHEMA_DRAFT2019_09 = 2019,
    SCHEMA_DRAFT2020_12 = 2020,
};

/* "2020-12", "2019-09", "draft-07", "draft-06", "draft-04" (also "draft7", "7", ...) or a
 * dialect's meta-schema URI (with or without an empty fragment). NONE when unknown. */
enum schema_dialect schema_dialect_parse(const char *name);
/* The canonical meta-schema URI of D (static string), NULL for NONE. */
const char *schema_dialect_uri(enum schema_dialect d);
/* Short name ("2020-12", "draft-07", ...), static. */
const char *schema_dialect_name(enum schema_dialect d);

/* Bounds. Each exceeded bound is reported by an error that names it. */
struct schema_limits {
    uint32_t max_depth;         /* nesting of a schema document (default 256) */
    uint32_t max_subschemas;    /* compiled subschemas per schema (default 100000) */
    uint32_t max_documents;     /* documents loaded for references (default 1000) */
    uint32_t max_regex_len;     /* bytes of one pattern (default 8192) */
    uint32_t regex_match_limit; /* PCRE2 match limit (default 1000000) */
    uint32_t regex_depth_limit; /* PCRE2 depth limit (default 10000) */
    uint32_t max_eval_depth;    /* nested evaluations in one validation (default 1000) */
    uint64_t max_work;          /* keyword evaluations per validation (default 50000000) */
};
#define SCHEMA_DEFAULT_MAX_DEPTH 256u
#define SCHEMA_DEFAULT_MAX_SUBSCHEMAS 100000u
#define SCHEMA_DEFAULT_MAX_DOCUMENTS 1000u
#define SCHEMA_DEFAULT_MAX_REGEX_LEN 8192u
#define SCHEMA_DEFAULT_REGEX_MATCH_LIMIT 1000000u
#define SCHEMA_DEFAULT_REGEX_DEPTH_LIMIT 10000u
#define SCHEMA_DEFAULT_MAX_EVAL_DEPTH 1000u
#define SCHEMA_DEFAULT_MAX_WORK 50000000u
/* Fill *lim with the defaults above. */
void schema_limits_default(struct schema_limits *lim);

/* One failure. All strings are owned by the list.
 * keyword_location: where in the schema ("/properties/a/type" inside the schema
 *   document itself; "URI#/pointer" inside another document such as a meta-schema);
 * instance_location: RFC 6901 pointer into the instance ("" = root); for compile errors
 *   it is the pointer into the schema where the problem is. */
struct schema_error {
    char *keyword_location;
    char *instance_location;
    char *message;
};
struct schema_errors {
    struct schema_error *items;
    size_t len, cap;
    /* 0, or collect at most this many: validation then goes on as if without an error
     * list (stopping at the first failure of each schema), so a schema invalid at a
     * million places costs no more than any other invalid one. */
    size_t limit;
};
#define SCHEMA_ERRORS_INIT                                                                         \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }
/* Has E collected its limit (so more errors may have been left uncounted)? */
static inline int schema_errors_full(const struct schema_errors *e)
{
    return e->limit && e->len >= e->limit;
}
void schema_errors_release(struct schema_errors *e);

/* A registry: limits, preloaded documents and the --ref-map, and a cache of the
 * meta-schemas compiled by schema_check. Set it up (add documents and ref-map
 * entries) from one thread; after that, threads may compile, check and validate with
 * it at the same time (what compiling adds, documents read through the ref-map and
 * compiled meta-schemas, is added under the context's own lock). Compiled schemas do
 * not refer to it afterwards. */
typedef struct schema_ctx schema_ctx;
schema_ctx *schema_ctx_new(const struct schema_limits *lim); /* NULL: defaults */
void schema_ctx_free(schema_ctx *ctx);                       /* NULL is a no-op */
/* Make DOC (borrowed; the context takes its own reference) available as URI (any
 * fragment is ignored). Later registrations of the same URI win. */
void schema_ctx_add_document(schema_ctx *ctx, const char *uri, json_t *doc);
/* References whose absolute URI starts with PREFIX are read from DIR + the rest of the
 * URI (JSON files, loaded at compile time). Only these and registered documents are
 * ever read; nothing is fetched. */
void schema_ctx_add_ref_map(schema_ctx *ctx, const char *prefix, const char *dir);
/* How the context reads a schema file (schema_compile_file, the --ref-map): FN(ARG, PATH,
 * FLAGS, ERR) returns what val_load_file(PATH, FLAGS, ERR) would, the same value or the
 * same error, such as a parse kept from before (rules/rule_cache.c). Set it while setting
 * up: FN may be called on several threads at once. NULL (the default): val_load_file.
 * The context frees ARG with FREE_ARG (may be NULL) when it is freed; schema_ctx_loader_arg
 * gives ARG back to the owner of FN (the caller may add to it until the context is used on
 * threads). */
typedef json_t *(*schema_file_loader)(void *arg, const char *path, size_t flags, json_error_t *err);
void schema_ctx_set_loader(schema_ctx *ctx, schema_file_loader fn, void *arg,
                           void (*free_arg)(void *));
/* ARG when CTX reads through FN, else NULL: only FN's owner knows what ARG is. */
void *schema_ctx_loader_arg(const schema_ctx *ctx, schema_file_loader fn);
/* The files this context has read from disk (schema_compile_file and --ref-map), as
 * the paths they were read by, in the order read: what a rule set's digest covers. */
size_t schema_ctx_file_count(const schema_ctx *ctx);
const char *schema_ctx_file(const schema_ctx *ctx, size_t i);

/* A compiled schema: immutable, self-contained (it holds references to the jansson
 * documents it uses, not to the context). */
typedef struct schema schema;

/* Compile ROOT (borrowed) whose retrieval URI is BASE_URI (NULL or "" when unknown).
 * The dialect comes from ROOT's $schema, else DEFAULT_DIALECT. Returns a new schema, or
 * NULL after appending at least one error to ERRS (unknown dialect, unresolvable or
 * unfetched reference, bad regex, malformed keyword, exceeded bound). */
schema *schema_compile(schema_ctx *ctx, json_t *root, const char *base_uri,
                       enum schema_dialect default_dialect, struct schema_errors *errs);
/* Compile the registered or embedded document at URI (e.g. a meta-schema). */
schema *schema_compile_uri(schema_ctx *ctx, const char *uri, enum schema_dialect default_dialect,
                           struct schema_errors *errs);
/* Compile the JSON file PATH (its base URI is file://<absolute path>). NULL after
 * appending an error (unreadable or malformed file, or any schema_compile error). */
schema *schema_compile_file(schema_ctx *ctx, const char *path, enum schema_dialect default_dialect,
                            struct schema_errors *errs);
void schema_free(schema *s); /* NULL is a no-op */
/* Dialect of the schema's root resource. */
enum schema_dialect schema_root_dialect(const schema *s);

/* Validate INSTANCE (borrowed). Returns 0 when valid, 1 when invalid, -1 when a bound
 * (work budget, evaluation depth, regex match limit) stopped the validation. When ERRS
 * is not NULL every failure is appended to it (and the bound that stopped it, if any);
 * with ERRS NULL evaluation stops at the first failure. Thread-safe for one schema. */
int schema_validate(const schema *s, json_t *instance, struct schema_errors *errs);

/* Schema checking: is SCHEMA (borrowed) a valid schema of its dialect ($schema, else
 * DEFAULT_DIALECT)? Validates it against the dialect's meta-schema (the embedded one,
 * or a custom meta-schema registered on CTX), then compiles it with every subschema
 * (each pattern and patternProperties regex, each reference). Returns 0 when valid, 1
 * when errors were appended (instance_location then points into SCHEMA), -1 when the
 * dialect is unknown (one error appended naming it). A schema equal to one checked
 * before on CTX (same content, member order included, same default dialect, an empty
 * error list with the same bound) takes that check's result without a second check:
 * CTX keeps a reference to each schema it checked (its memo), so a checked schema must
 * not be changed afterwards while CTX lives (check a copy of one that will be). */
int schema_check(schema_ctx *ctx, json_t *sch, const char *base_uri,
                 enum schema_dialect default_dialect, struct schema_errors *errs);

/* schema_check without the network: a reference that resolves to a network URI (http,
 * https, ws, wss, ftp, or a scheme-relative //host) and is not available without
 * fetching (registered, embedded, in the schema itself through an $id, or under a
 * --ref-map prefix) is left unresolved instead of being an error. Everything else is
 * checked as by schema_check: the meta-schema, every regex, every other reference. */
int schema_check_offline(schema_ctx *ctx, json_t *sch, const char *base_uri,
                         enum schema_dialect default_dialect, struct schema_errors *errs);

/* Schema checking, one finding per failing value: ERRS (from schema_check or
 * schema_check_offline of SCH, whose dialect is D) grouped by the value inside SCH they
 * are about (instance_location), each value once, in the order they first appear, with
 * a message that names the failing keyword and its expected form ("minimum must be a
 * number, not \"1\": write 1, without quotes"; for type a "did you mean"). An error that
 * no keyword's form words (a bad regex, a reference) keeps its own message, the
 * compiler's before the meta-schema's. Appended to OUT, keyword_location the first
 * error's. */
void schema_explain(json_t *sch, enum schema_dialect d, const struct schema_errors *errs,
                    struct schema_errors *out);

/* The members in keyword positions of SCH (a schema of dialect D) whose name is a
 * keyword of no dialect but close to one of D's ("minimun": minimum), one error each at
 * the member's pointer, naming the keyword meant. Such a member is legal JSON Schema (an
 * unknown keyword is an annotation and checks nothing): what it is worth is the
 * caller's to say. "x-" names and OpenAPI's "example" are never reported. Returns the
 * number appended. */
size_t schema_misspelt_keywords(json_t *sch, enum schema_dialect d, struct schema_errors *out);

/* The dialect SCHEMA declares through $schema (DEFAULT_DIALECT when absent; a custom
 * meta-schema gives its base dialect). NONE when $schema is not a known dialect. */
enum schema_dialect schema_declared_dialect(schema_ctx *ctx, json_t *sch,
                                            enum schema_dialect default_dialect);

/* Helpers with JSON Schema semantics, exported for the tests (equality, number
 * comparison, the integer test, type names and code-point lengths are base/val.h's). */
/* Is X a multiple of M (both numbers, M > 0), exactly in decimal for reals. */
int schema_multiple_of(json_t *x, json_t *m);
/* The options a translated pattern is compiled with (pcre2.h's names; the engine and
 * the regex fuzz harness compile alike): UTF, \u escapes, [] matches nothing, $ only at
 * the end, and a backreference to an unset group matches empty, as in ECMA-262. */
#define SCHEMA_REGEX_PCRE2_OPTIONS                                                                 \
    (PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_DOLLAR_ENDONLY |                 \
     PCRE2_MATCH_UNSET_BACKREF)
/* Translate an ECMA-262 pattern into PCRE2 syntax (for SCHEMA_REGEX_PCRE2_OPTIONS): \s,
 * \S and long \p{...} names. Returns new memory. */
char *schema_regex_translate(const char *pattern, size_t len, size_t *out_len);
/* Is PATTERN an ECMA-262 regular expression (ECMAScript 2024, 22.2.1, Unicode mode: the
 * `u` flag, no Annex B)? 0 when it is; -1 and *why (new: the construct, PCRE-only ones
 * named as such, and its character position) when not. Syntax only (schema_regex_check.c). */
int schema_regex_check(const char *pattern, size_t len, char **why);
/* May PCRE2 run PATTERN (a valid ECMA-262 one) after translation? 1 when it may; 0 and
 * *why (new) when there is no translation (a "cannot check" note, never the author's
 * error); -1 when it is not an ECMA-262 pattern (*why: schema_regex_check's). */
int schema_regex_runnable(const char *pattern, size_t len, char **why);
/* The first pattern of schema SCH (a `pattern` value or a `patternProperties` name, in
 * any subschema) that is valid ECMA-262 but that PCRE2 cannot run: 1, *where (new, its
 * JSON Pointer inside SCH) and *why (new); 0 when there is none. */
int schema_first_unrunnable_pattern(json_t *sch, char **where, char **why);

#endif
