/* schemaInt.h - internals shared by the files of the JSON Schema engine, and not for
 * other modules. The files, each calling only those listed before it:
 *   schema_errors.c   the error list and message helpers
 *   schema_map.c      the hash map
 *   schema_num.c      decimal-exact multipleOf (the other value semantics: base/val.c)
 *   schema_regex_lin.c a linear matcher for simple patterns (beside PCRE2)
 *   schema_regex.c    ECMA-262 patterns on PCRE2
 *   schema_memo.c     schema checking's verdicts by content
 *   schema_fast.c     the specialised boolean programs
 *   schema_obj.c      the compiled schema: pointers, keyword locations, schema_free
 *   schema_ctx.c      the context: limits, documents, --ref-map, meta-schema cache
 *   schema_dialect.c  dialects, vocabularies, $schema
 *   schema_index.c    the index of identifiers and anchors; reference targets
 *   schema_compile.c  the compiler
 *   schema_eval.c     validation
 *   schema_check_fast.c schema checking's fast path: one walk, certain of everyday
 *                     valid schemas (else the full check decides)
 *   schema_check.c    schema checking (against the meta-schema, then compiled)
 *   schema_keywords.c the keywords of each dialect in words: expected forms, did you mean
 *   schema_explain.c  schema_check's errors as one finding per failing value
 *   schema_compat.c   two schemas compared, keyword by keyword (mcpdesc diff; uses the
 *                     keyword table, the map and the seen-set) */
#ifndef MCPDESC_SCHEMA_INT_H
#define MCPDESC_SCHEMA_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/uri.h"
#include "base/val.h"
#include "schema/schema.h"
#include "base/util.h"

#define SCHEMA_NONE ((size_t)-1)

/* A string/byte-keyed hash map to size_t (open addressing). */
#define SCHEMA_MAP_INLINE 16 /* keys this short (a json_t pointer) are kept in the entry */
struct schema_map_ent {
    union {
        char *p;                    /* klen > SCHEMA_MAP_INLINE */
        char in[SCHEMA_MAP_INLINE]; /* klen <= SCHEMA_MAP_INLINE */
    } key;
    size_t klen;
    size_t val;
    int used;
};
struct schema_map {
    struct schema_map_ent *ents;
    size_t cap, len;
};
int schema_map_get(const struct schema_map *m, const void *key, size_t klen, size_t *val);
void schema_map_put(struct schema_map *m, const void *key, size_t klen, size_t val);
void schema_map_release(struct schema_map *m);
/* The same with a NUL-terminated string key. */
static inline int schema_smap_get(const struct schema_map *m, const char *s, size_t *v)
{
    return schema_map_get(m, s, strlen(s), v);
}
static inline void schema_smap_put(struct schema_map *m, const char *s, size_t v)
{
    schema_map_put(m, s, strlen(s), v);
}

/* URI without its fragment (new): the key of a document or a resource. */
static inline char *schema_uri_nofrag(const char *uri)
{
    const char *frag;
    return uri_split_fragment(uri, &frag);
}

/* Vocabularies (bit mask). */
enum {
    SCHEMA_V_CORE = 1u << 0,
    SCHEMA_V_APPLICATOR = 1u << 1,
    SCHEMA_V_UNEVALUATED = 1u << 2,
    SCHEMA_V_VALIDATION = 1u << 3,
    SCHEMA_V_METADATA = 1u << 4,
    SCHEMA_V_FORMAT_ANNOTATION = 1u << 5,
    SCHEMA_V_FORMAT_ASSERTION = 1u << 6,
    SCHEMA_V_CONTENT = 1u << 7,
    SCHEMA_V_ALL = 0xffu & ~SCHEMA_V_FORMAT_ASSERTION,
};

/* Embedded meta-schemas (generated at build time from python3-jsonschema). A bundle is
 * an object mapping URIs to schemas (Debian's vocabularies.json). */
struct schema_embedded {
    const char *uri; /* NULL for a bundle */
    const unsigned char *data;
    size_t len;
};
extern const struct schema_embedded schema_embedded_docs[];
extern const size_t schema_embedded_count;

/* Compiled regex. */
struct schema_re {
    pcre2_code *code;         /* NULL: valid ECMA-262 that PCRE2 cannot run (taken to match) */
    int jit;                  /* JIT-compiled: matched through pcre2_jit_match */
    char *src;                /* the original ECMA pattern */
    struct schema_relin *lin; /* a linear matcher for it (schema_regex_lin.c), or NULL */
};
/* Compile PATTERN (with JIT when WANT_JIT and PCRE2 has it); NULL and *err (new) when
 * it is not ECMA-262 or longer than MAX_LEN. */
struct schema_re *schema_re_compile(const char *pattern, size_t len, uint32_t max_len, int want_jit,
                                    char **err);
void schema_re_free(struct schema_re *re);
/* Would schema_re_compile fail on PATTERN? 0, or -1 and *err (new), its message; the
 * verdict is kept by pattern for the process (schema checking compiles no regex). */
int schema_re_valid(const char *pattern, size_t len, uint32_t max_len, char **err);

/* Keyword kinds, in no particular order; compile order decides evaluation order. */
enum schema_kwk {
    SK_TYPE,
    SK_ENUM,
    SK_CONST,
    SK_MULTIPLEOF,
    SK_MAXIMUM,
    SK_EXMAXIMUM,
    SK_MINIMUM,
    SK_EXMINIMUM,
    SK_MAXLENGTH,
    SK_MINLENGTH,
    SK_PATTERN,
    SK_MAXITEMS,
    SK_MINITEMS,
    SK_UNIQUE,
    SK_CONTAINS,
    SK_MAXPROPS,
    SK_MINPROPS,
    SK_REQUIRED,
    SK_DEPREQ,
    SK_DEPSCHEMAS,
    SK_ALLOF,
    SK_ANYOF,
    SK_ONEOF,
    SK_NOT,
    SK_IF,
    SK_PROPERTIES,
    SK_PATTERNPROPS,
    SK_ADDPROPS,
    SK_PROPNAMES,
    SK_PREFIXITEMS,
    SK_ITEMS,
    SK_UNEVALPROPS,
    SK_UNEVALITEMS,
    SK_REF,
    SK_DYNREF,
    SK_RECREF,
    SK_FALSE,
    /* specialised forms, only in a node's boolean program (schema_fast.c) */
    SK_OBJECT,
    SK_ENUMSTR,
    SK_REQNAMES,
};

/* A property-name table built at compile time: open addressing over a cheap hash of
 * the name's length and a few of its bytes, verified by length and bytes. */
struct schema_pname {
    const char *name; /* borrowed from the schema document */
    size_t len;
    size_t node;  /* "properties" subschema; SCHEMA_NONE when none or always valid */
    int declared; /* named by "properties" (so not an additional property) */
    int required;
    /* the name "properties" declares after this one, else the table's sentinel: the
     * entry after the last name, whose length no key has */
    size_t next;
    const struct schema_fnode *leaf; /* node's record when a leaf (schema_fast.c) */
    uint64_t reqbit;                 /* its bit of schema_objop.reqmask, 0 when not required */
};
struct schema_ptab {
    size_t n;
    struct schema_pname *names; /* n names, then the sentinel (schema_pname.next) */
    uint32_t *slots;            /* index + 1, 0 = empty; power-of-two size */
    uint32_t mask;
};

/* Equality of two byte strings of length N (inline: most are short keys); overlapping
 * word loads instead of a byte loop. */
static inline int schema_bytes_eq(const char *a, const char *b, size_t n)
{
    if (n < 4) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i]) return 0;
        return 1;
    }
    if (n <= 8) {
        uint32_t a0, b0, a1, b1;
        memcpy(&a0, a, 4), memcpy(&b0, b, 4);
        memcpy(&a1, a + n - 4, 4), memcpy(&b1, b + n - 4, 4);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    for (; n > 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8), memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    uint64_t x, y; /* the last 8 bytes, overlapping what was compared */
    memcpy(&x, a + n - 8, 8), memcpy(&y, b + n - 8, 8);
    return x == y;
}

static inline uint32_t schema_pname_hash(const char *k, size_t len)
{
    uint32_t h = (uint32_t)len * 0x9E3779B1u;
    if (len) {
        const unsigned char *p = (const unsigned char *)k;
        h ^= (p[0] | (uint32_t)p[len - 1] << 8 | (uint32_t)p[len / 2] << 16 |
              (uint32_t)p[len > 1] << 24) *
            0x85EBCA6Bu;
        h ^= h >> 15;
    }
    return h;
}

/* Index of KEY in T, SCHEMA_NONE when absent. */
static inline size_t schema_ptab_find(const struct schema_ptab *t, const char *key, size_t len)
{
    for (uint32_t i = schema_pname_hash(key, len) & t->mask;; i = (i + 1) & t->mask) {
        uint32_t s = t->slots[i];
        if (!s) return SCHEMA_NONE;
        const struct schema_pname *p = &t->names[s - 1];
        if (p->len == len && schema_bytes_eq(p->name, key, len)) return s - 1;
    }
}

/* One of 64 bits for a member name: the compiler asks for some fifty keywords per
 * schema object, most of them absent; a mask of the bits of the names present answers
 * "absent" without hashing the keyword (jansson's lookup hashes every time). */
static inline unsigned schema_kw_bit(const char *k, size_t len)
{
    return len ? (unsigned)(len * 7u + (unsigned char)k[0] * 3u + (unsigned char)k[len - 1]) & 63u
               : 0;
}

/* The bits of J's member names (0 when J is not an object). */
static inline uint64_t schema_kw_bits(json_t *j)
{
    uint64_t m = 0;
    for (void *it = json_object_iter(j); it; it = json_object_iter_next(j, it))
        m |= 1ull << schema_kw_bit(json_object_iter_key(it), json_object_iter_key_len(it));
    return m;
}

/* Member KW of the object J whose names have the bits PRESENT, or NULL: an absent
 * name usually costs no hash lookup. */
static inline json_t *schema_kw_get(uint64_t present, json_t *j, const char *kw)
{
    if (!(present >> schema_kw_bit(kw, strlen(kw)) & 1)) return NULL;
    return json_object_get(j, kw);
}

/* "properties" + "required" + "additionalProperties" fused into one pass over the
 * instance's members (boolean mode only). */
struct schema_objop {
    struct schema_ptab tab;
    size_t first;     /* the first name "properties" declares (members often follow its order),
                   * else the sentinel */
    uint64_t reqmask; /* bit i: names[i] is required (required names come first) */
    size_t add;       /* additionalProperties subschema, SCHEMA_NONE when absent */
    int add_false;    /* additionalProperties: false */
};

struct schema_kw {
    enum schema_kwk kind;
    const char *name; /* keyword, borrowed from the schema document (or static) */
    union {
        unsigned types;
        json_t *value; /* enum array, const value, numeric limit, dependentRequired */
        size_t count;
        size_t node;
        struct schema_re *re;
        struct {
            size_t n;
            size_t *nodes;
        } list;
        struct {
            size_t node, start;
        } items;
        struct {
            size_t node, min, max;
        } contains;
        struct {
            size_t cond, then_, else_;
        } ifte;
        struct {
            size_t n;
            const char **names;
            size_t *lens; /* byte lengths of names (a key may hold a NUL) */
            size_t *nodes;
        } props;
        struct {
            size_t n;
            struct schema_re **re;
            size_t *nodes;
        } pprops;
        struct {
            size_t node;
            json_t *props; /* sibling "properties" object or NULL */
            size_t npat;
            struct schema_re **re; /* sibling patternProperties regexes (borrowed) */
        } addprops;
        struct {
            size_t node;
            char *anchor; /* $dynamicRef: the dynamic anchor name, NULL if static */
        } ref;
        struct schema_objop *obj;
        struct {
            size_t n;
            const char **s;
            size_t *len;
        } strs; /* enum of strings; required names */
    } u;
};

struct schema_node {
    json_t *json; /* borrowed from its document */
    int boolean;  /* -1: object schema, 0/1: false/true */
    int draft;
    size_t res;   /* schema resource it belongs to */
    uint32_t doc; /* document */
    size_t ptr;   /* JSON pointer of the node inside its document (schema.ptrs) */
    struct schema_kw *kws;
    size_t nkw;
    int has_uneval;   /* has unevaluatedProperties/Items itself */
    uint64_t present; /* compile time: schema_kw_bit of each member name (kwget) */
    int slow;         /* has_uneval: annotations needed, no boolean fast path */
    /* The boolean program (schema_fast.c): the same keywords with specialised forms,
     * used when no error is reported and no annotation is collected; NULL = kws. */
    struct schema_kw *fkws;
    size_t nfkw;
    const struct schema_kw *prog; /* fkws, or kws when nothing was specialised */
    size_t nprog;
    const struct schema_fnode *fn; /* prog as one record (schema_fast.c), or NULL */
};

struct schema_dyn_anchor {
    char *name;
    json_t *json;
    size_t node; /* compiled node, SCHEMA_NONE until compiled */
};

struct schema_res {
    char *uri;    /* absolute URI without fragment (may be relative if no base) */
    json_t *root; /* borrowed from the document */
    uint32_t doc;
    size_t ptr; /* its root's JSON pointer inside its document (schema.ptrs) */
    int draft;
    unsigned vocab;
    int recursive_anchor;
    int used;         /* some node of it was compiled */
    size_t root_node; /* compiled root when recursive_anchor (2019-09), else NONE */
    VEC(struct schema_dyn_anchor) dyn;
};

/* The JSON pointers of subschemas, as a tree: each is its parent's pointer followed by
 * SEG (the whole pointer when PARENT is SCHEMA_NONE). A schema nested D deep then costs
 * the bytes of its keys, not D times them. */
struct schema_ptrent {
    size_t parent;
    char *seg;
};

struct schema_docent {
    char *uri;
    json_t *root; /* own reference */
};

struct schema {
    VEC(struct schema_node *) nodes;
    VEC(struct schema_res *) res;
    VEC(struct schema_docent) docs;
    VEC(struct schema_re *) regexes;
    VEC(struct schema_ptrent) ptrs;
    size_t root;
    int root_draft;
    int root_plain; /* locations in document 0 are printed as bare pointers */
    struct schema_limits lim;
    pcre2_match_context *mctx;
    int dynamic; /* has $dynamicRef or $recursiveRef: validation tracks the scope */
    /* one reusable PCRE2 match data block (taken and given back atomically) */
    struct schema_mdcache *mdcache;
};

/* The dialect of the value SV of a $schema keyword: a known meta-schema, or a custom
 * one registered on CTX (its $vocabulary on top of its own $schema). 0, or -1 with *WHY
 * (new) when unknown; a NUL inside is refused rather than cut short (which could turn
 * "...2020-12/schema\u0000x" into a known dialect). */
int schema_dialect_of(schema_ctx *ctx, json_t *sv, int *draft, unsigned *vocab, char **why);

/* Schema checking's verdicts by content (schema_memo.c), one memo per context. The
 * key: a hash of a schema's content and what else its check depends on. */
struct schema_memo_key {
    uint64_t hash;
    int dialect;   /* the default dialect */
    int offline;   /* schema_check_offline */
    size_t limit;  /* of the error list */
    int errs_null; /* no error list */
};
struct schema_memo;
struct schema_memo *schema_memo_new(void);
void schema_memo_free(struct schema_memo *m);  /* NULL is a no-op */
void schema_memo_reset(struct schema_memo *m); /* forget every verdict */
/* K->hash for SCH, the other members zero for the caller to fill. */
void schema_memo_key(json_t *sch, struct schema_memo_key *k);
/* A schema equal to SCH checked under K before: 1, *RC its result and its errors
 * appended to ERRS (NULL: none); 0 when there is none. */
int schema_memo_get(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch,
                    struct schema_errors *errs, int *rc);
/* Keep RC and ERRS' errors from index FROM on as the check of SCH under K. */
void schema_memo_put(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch, int rc,
                     const struct schema_errors *errs, size_t from);

/* Context (schema_ctx.c). The document at URI (any fragment ignored): registered (or
 * embedded), else read from a --ref-map directory and registered, under the context's
 * lock. Borrowed; NULL with *WHY (new) when it cannot be had. */
json_t *schema_ctx_fetch(schema_ctx *ctx, const char *uri, char **why);
/* The JSON file PATH read through the context's loader (schema_ctx_set_loader). */
json_t *schema_ctx_load_file(schema_ctx *ctx, const char *path, size_t flags, json_error_t *err);
/* Note PATH (copied) as read from disk (schema_ctx_file). */
void schema_ctx_add_file(schema_ctx *ctx, const char *path);
const struct schema_limits *schema_ctx_limits(const schema_ctx *ctx);

/* The context's cache of compiled meta-schemas, for schema_check (schema_check.c),
 * under the context's lock: the one of URI or NULL; or keep FRESH (stolen) as URI's
 * unless another thread cached one first (FRESH is then freed). Returns the cached. */
schema *schema_ctx_meta(schema_ctx *ctx, const char *uri);
schema *schema_ctx_meta_keep(schema_ctx *ctx, const char *uri, schema *fresh);
/* The context's memo of schema checks (schema_check.c); emptied when a document or a
 * --ref-map entry is added, which could change a check. */
struct schema_memo *schema_ctx_memo(schema_ctx *ctx);
/* 1 while no document but the embedded ones was registered under a json-schema.org URI:
 * every standard meta-schema the context gives is then the embedded one, unchanged. */
int schema_ctx_metas_embedded(schema_ctx *ctx);
/* realpath(PATH) (new, or NULL), its directory's real path found once per context: the
 * schema files of a set stand in a few directories, and realpath costs a system call for
 * every component of every path. A file that is a symbolic link is resolved whole. */
char *schema_ctx_real_path(schema_ctx *ctx, const char *path);

/* Compile SCH for schema_check: every subschema (not only those reachable from the
 * root), no boolean programs; with OFFLINE a network reference that is not available
 * without fetching is left unresolved. *BOUNDED (may be NULL): did a bound stop it. */
schema *schema_compile_check(schema_ctx *ctx, json_t *sch, const char *base_uri,
                             enum schema_dialect dflt, struct schema_errors *errs, int offline,
                             int *bounded);

/* Specialise every node's boolean program; free one node's. (schema_fast.c) */
void schema_fast_build(schema *s);
void schema_fast_free(struct schema_node *n);
void schema_fast_release(schema *s); /* the match data cache */
/* PCRE2 match data for one validation: from S's cache or new; give it back after. */
pcre2_match_data *schema_md_take(const schema *s);
void schema_md_give(const schema *s, pcre2_match_data *md);

/* Error list helpers (schema_errors.c, the bottom of the engine: it calls no other
 * file of it). Append one error to E (NULL: nothing) with locations KWLOC and ILOC
 * (NULL: ""). */
void schema_errors_add(struct schema_errors *e, const char *kwloc, const char *iloc,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* S[0..N) as the body of a JSON string literal (new): names and references in
 * messages, with a NUL or a control character shown as \u00XX, never cut short. */
char *schema_escape(const char *s, size_t n);

/* A string with a NUL inside: as a C string it would be cut short there. */
static inline int schema_has_nul(json_t *v)
{
    return json_is_string(v) && memchr(json_string_value(v), 0, json_string_length(v));
}

/* The message for a URI-like keyword value V (WHAT, e.g. "reference", of the keyword
 * KW) holding a NUL (new). */
char *schema_nul_message(const char *what, const char *kw, json_t *v);

/* The compiled schema (schema_obj.c). Append the JSON pointer ID (an index in S->ptrs)
 * to B. */
void schema_ptr_append(const schema *s, size_t id, struct buf *b);
/* A new pointer: PARENT's (SCHEMA_NONE: none) followed by SEG. Returns its id. */
size_t schema_ptr_new(schema *s, size_t parent, const char *seg);

/* Keyword location for errors of node N (new): "/ptr/KW" or "URI#/ptr/KW". */
char *schema_kwloc(const schema *s, const struct schema_node *n, const char *kw, const char *extra);

/* The state of one compilation (schema_compile.c), with its index (schema_index.c). */
struct schema_loc {
    json_t *json;
    uint32_t doc;
    size_t ptr; /* in s->ptrs */
    size_t res;
};

struct schema_cstate {
    schema *s;
    schema_ctx *ctx;
    struct schema_errors *errs;
    int nerr;
    int default_draft;
    int check_all;
    int skip_network; /* schema_check_offline: a network reference that is not
                                * available without fetching is left unresolved */
    int bound_reported;
    struct schema_map resmap;  /* uri -> res */
    struct schema_map anchors; /* uri#name -> loc */
    struct schema_map locmap;  /* json_t* -> loc */
    struct schema_map nodemap; /* json_t* -> node */
    struct schema_map docmap;  /* uri -> doc */
    VEC(struct schema_loc) locs;
    VEC(size_t) work; /* FIFO: work_head is the next to compile */
    size_t work_head;
    struct buf child_seg; /* the compiler's scratch: a child's pointer below its parent */
};

/* A compile error at pointer PTR of document DOC, or at keyword KW (NULL: none) of
 * node N; counted in cs->nerr. */
void schema_cerr_at(struct schema_cstate *cs, uint32_t doc, const char *ptr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void schema_cerr(struct schema_cstate *cs, const struct schema_node *n, const char *kw,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Index (schema_index.c). Add a document (borrowed root) under URI and index it.
 * Returns its index. */
uint32_t schema_index_doc(struct schema_cstate *cs, const char *uri, json_t *root);
/* The index entry (in cs->locs) of the schema object J, found in DOC at pointer PID
 * followed by SUFFIX, within RES: indexed now when the walk from its document's root
 * did not meet it. SCHEMA_NONE when it cannot be (an error was recorded). */
size_t schema_index_loc(struct schema_cstate *cs, json_t *j, uint32_t doc, size_t pid,
                        const char *suffix, size_t res);
/* Where a reference leads: the subschema JSON, in DOC at pointer PTR followed by SUFFIX
 * (new), within resource RES. */
struct schema_target {
    json_t *json;
    uint32_t doc;
    size_t res, ptr;
    char *suffix;
};
/* The target of the absolute reference ABS (REF as written, under keyword KW, of node
 * NID), its document loaded through the context when it is not yet: 0 with *T, or -1
 * after an error was recorded. For $dynamicRef (DYN not NULL), *DYN gets the anchor
 * name (new) when the target is a dynamic anchor. */
int schema_index_target(struct schema_cstate *cs, size_t nid, const char *abs, const char *ref,
                        const char *kw, char **dyn, struct schema_target *t);

/* schema_keywords.c: what each dialect's keywords hold, for messages. DRAFT is a dialect's
 * number (enum schema_dialect). */
enum schema_kwshape {
    SKW_DATA,  /* no subschema: a string, a number, a list of names, any value */
    SKW_ONE,   /* one schema */
    SKW_ARRAY, /* an array of schemas */
    SKW_MAP,   /* an object whose values are schemas */
    SKW_ITEMS, /* items up to 2019-09: a schema or an array of schemas */
    SKW_DEPS   /* dependencies: an object of schemas or arrays of names */
};
struct schema_kwinfo {
    const char *kw;
    int min, max; /* the dialects that define it */
    enum schema_kwshape shape;
    const char *form; /* its expected form in words, or NULL: see schema_kwform */
};
/* KW as DRAFT defines it, or NULL when DRAFT does not know it. */
const struct schema_kwinfo *schema_kwinfo(int draft, const char *kw);
/* The expected form of K's value in words ("a non-negative integer"), static; NULL when
 * any value will do (default, const). */
const char *schema_kwform(int draft, const struct schema_kwinfo *k);
/* "a schema (an object or a boolean)", or draft-04's "a schema (an object)". */
const char *schema_subschema_form(int draft);
/* Is NAME one of the seven type names? The type name NAME likely means ("strng": string,
 * "int": integer), or NULL. */
int schema_type_name_known(const char *name);
const char *schema_type_suggest(const char *name);

/* schema_eval.c: how many times a boolean validation evaluated a node of a schema on a
 * shared value (a substituted component) rather than taking its remembered verdict; for
 * the tests, which see a reference bomb stay linear. */
extern _Atomic unsigned long schema_eval_shared_evals;

/* schema_seen.c: JSON values by identity, so that a walk over subschemas visits a value
 * shared by several places once (a reference bomb stays linear). */
struct schema_seen {
    json_t **slot; /* open addressing, NULL = free */
    size_t cap, n;
};
#define SCHEMA_SEEN_INIT                                                                           \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }
/* 1 when V was not in S (and now is), 0 when it was */
int schema_seen_add(struct schema_seen *s, json_t *v);
void schema_seen_release(struct schema_seen *s);

/* schema eval (h-eval) */

/* A node's boolean program as one record, when every keyword of it is a common one
 * (schema_fast.c builds it, schema_eval.c runs it): checked by the instance's type in
 * one pass, in the program's order, without a dispatch per keyword. */
enum {
    SF_REF = 1u << 0, /* $ref, first as in the program */
    SF_TYPE = 1u << 1,
    SF_STRS = 1u << 2, /* enum of strings, or a string const */
    SF_NUM = 1u << 3,  /* maximum, exclusiveMaximum, minimum, exclusiveMinimum */
    SF_MAXLEN = 1u << 4,
    SF_MINLEN = 1u << 5,
    SF_PATTERN = 1u << 6,
    SF_MAXITEMS = 1u << 7,
    SF_MINITEMS = 1u << 8,
    SF_ITEMS = 1u << 9,
    SF_MAXPROPS = 1u << 10,
    SF_MINPROPS = 1u << 11,
    SF_REQ = 1u << 12, /* required names not fused into the object op */
    SF_OBJ = 1u << 13,
};
/* S[0..N), N <= 8, as one word: two strings of the same length up to 8 bytes are equal
 * exactly when their words are (the two loads cover every byte, overlapping). */
static inline uint64_t schema_short_key(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4), memcpy(&b, p + n - 4, 4);
        return a | (uint64_t)b << 32;
    }
    return n ? p[0] | (uint32_t)p[n >> 1] << 8 | (uint32_t)p[n - 1] << 16 : 0;
}

/* The slot of a string of LEN <= 8 bytes with schema_short_key KEY in a table of
 * 2^(64 - SHIFT) slots (struct schema_fnode's STRTAB). */
static inline size_t schema_strtab_slot(uint64_t mul, unsigned shift, uint64_t key, size_t len)
{
    return (size_t)(((key ^ len) * mul) >> shift);
}

struct schema_strslot {
    uint64_t key; /* schema_short_key */
    size_t len;   /* SIZE_MAX: an empty slot */
};

struct schema_fbound {
    enum schema_kwk kind; /* SK_MAXIMUM, SK_EXMAXIMUM, SK_MINIMUM or SK_EXMINIMUM */
    int is_int;           /* the limit is a JSON integer: I */
    json_int_t i;
    json_t *v; /* the limit */
};
struct schema_fnode {
    const struct schema_node *node; /* whose program it is */
    unsigned has;                   /* SF_* */
    int leaf;                       /* no SF_REF, SF_OBJ or SF_ITEMS: no subschema to evaluate */
    /* bit T (a json_type): a value of type T passes "type" and the string enum; a real
     * with an integer value passes when REAL_INT; it has checks of its own (JCHECKS) */
    unsigned jtypes, jchecks;
    int real_int;
    unsigned types;
    size_t ref;
    const struct schema_kw *strs; /* SK_ENUMSTR of the boolean program */
    uint64_t *strkeys;            /* schema_short_key of each of its strings up to 8 bytes */
    /* its strings up to 8 bytes by (key, length), one per slot: slot
     * schema_strtab_slot(F, key, length); NULL: none, or no multiplier put each in a slot
     * of its own (then STRKEYS are compared in turn) */
    struct schema_strslot *strtab;
    uint64_t strmul;
    unsigned strshift;
    size_t nbound;
    struct schema_fbound bound[4];
    int int_range; /* every limit an integer: an integer passes when LO <= it <= HI */
    json_int_t lo, hi;
    size_t maxlen, minlen;
    const struct schema_re *re;
    size_t maxitems, minitems;
    size_t items, items_start;
    size_t maxprops, minprops;
    const struct schema_kw *req;    /* SK_REQNAMES of the boolean program */
    const struct schema_objop *obj; /* SK_OBJECT's */
    /* an object passes its checks (no $ref, "type" admits it, no checks of objects):
     * only OBJ's member loop is left to run on one */
    int obj_loop_only;
    /* by json_type of the value: what passes "type" and the string enum leaves to do */
    uint8_t jact[8];
};
enum schema_jact {
    SJA_FAIL,     /* fails "type" or the enum */
    SJA_PASS,     /* passes, no checks of its type */
    SJA_STRING,   /* the string checks (fnode_string) */
    SJA_NUMBER,   /* the numeric bounds */
    SJA_OBJECT,   /* minProperties, maxProperties, required not fused */
    SJA_ARRAY,    /* minItems, maxItems */
    SJA_REAL_INT, /* a real: passes "integer" when its value is one, then the bounds */
};

/* schema regex (h-eval2) */
/* schema_regex_lin.c: a table automaton for a simple anchored pattern (ASCII literals,
 * \d \w, classes, groups, quantifiers; unambiguous), or NULL when
 * PATTERN is not one. It answers as PCRE2 does, and in time linear in the subject. */
struct schema_relin;
struct schema_relin *schema_relin_compile(const char *pattern, size_t len);
void schema_relin_free(struct schema_relin *l);
/* May L decide a subject of LEN bytes? Only when PCRE2 could not have stopped on it
 * under LIM (its frames per byte are bounded by L's cost): else PCRE2 decides. */
int schema_relin_usable(const struct schema_relin *l, size_t len, const struct schema_limits *lim);
/* 1 when S[0..LEN) matches, else 0. */
int schema_relin_match(const struct schema_relin *l, const char *s, size_t len);

/* schema check (h-check) */
/* schema_check_fast.c: is SCH certainly a valid schema under DFLT (its $schema else
 * DFLT), as schema_check would find it (no base URI, the default limits)? 1 when it is,
 * 0 when unsure: only schema_check can say. Allocates nothing once the context's
 * meta-schemas are known to be the embedded ones. */
int schema_check_fast(schema_ctx *ctx, json_t *sch, const char *base_uri, enum schema_dialect dflt);
/* schema_memo.c: the fast path's finding on the context's meta-schemas (SLOT 0:
 * 2020-12, 1: draft-07): 0 not known, 1 the embedded ones, -1 not; forgotten with the
 * memo's verdicts when a document or a --ref-map entry is added. */
int schema_memo_meta_state(struct schema_memo *m, int slot);
void schema_memo_set_meta_state(struct schema_memo *m, int slot, int state);
/* The full checks made in the memo's context so far, after counting one more when ADD. */
unsigned long schema_memo_count_check(struct schema_memo *m, int add);

/* ---- jansson's values read in place (schema_eval_jansson.c) -------------------------
 * The member loop asked jansson four functions per member (object iterator, key, its
 * length, value): with the calls and the registers they clobber, about half of what a
 * leaf member cost. Jansson 2.14 and 2.15 lay their values out as below (their
 * src/jansson_private.h and src/hashtable.h: an object iterator is the address of a
 * member's link in the list of members in insertion order). schema_jansson_direct()
 * says whether the jansson this process runs is one of those versions and reads the
 * same through these views as through its API on a probe of every field read; when
 * not, the evaluator keeps to the API. JD below: 1 read in place, 0 ask jansson. */
struct schema_jlist {
    struct schema_jlist *prev, *next;
};
struct schema_jmember { /* what an object iterator points to */
    struct schema_jlist order;
    size_t hash;
    json_t *value;
    size_t key_len;
    char key[];
};
struct schema_jobject {
    json_t json;
    size_t size;
    void *buckets;
    size_t order_bits;
    struct schema_jlist list, ordered; /* ORDERED: the head of the members in order */
};
struct schema_jarray {
    json_t json;
    size_t size, entries;
    json_t **table;
};
struct schema_jstring {
    json_t json;
    char *value;
    size_t length;
};
struct schema_jinteger {
    json_t json;
    json_int_t value;
};

/* 1 when values are read in place (probed once per process), else 0. */
int schema_jansson_direct(void);
/* For tests: ON 1 keeps every later validation to jansson's API, 0 undoes it. */
void schema_jansson_force_api(int on);

#define SCHEMA_JINLINE static inline __attribute__((always_inline))
SCHEMA_JINLINE void *schema_jiter(json_t *o, int jd)
{
    if (!jd) return json_object_iter(o);
    struct schema_jobject *ob = (struct schema_jobject *)o;
    return ob->ordered.next == &ob->ordered ? NULL : ob->ordered.next;
}
SCHEMA_JINLINE void *schema_jiter_next(json_t *o, void *it, int jd)
{
    if (!jd) return json_object_iter_next(o, it);
    struct schema_jlist *n = ((struct schema_jlist *)it)->next;
    return n == &((struct schema_jobject *)o)->ordered ? NULL : n;
}
SCHEMA_JINLINE const char *schema_jiter_key(void *it, int jd)
{
    return jd ? ((struct schema_jmember *)it)->key : json_object_iter_key(it);
}
SCHEMA_JINLINE size_t schema_jiter_key_len(void *it, int jd)
{
    return jd ? ((struct schema_jmember *)it)->key_len : json_object_iter_key_len(it);
}
SCHEMA_JINLINE json_t *schema_jiter_value(void *it, int jd)
{
    return jd ? ((struct schema_jmember *)it)->value : json_object_iter_value(it);
}
/* The next four: V is of the type they read (the API would answer 0 or NULL else). */
SCHEMA_JINLINE size_t schema_jobject_size(json_t *v, int jd)
{
    return jd ? ((struct schema_jobject *)v)->size : json_object_size(v);
}
SCHEMA_JINLINE const char *schema_jstring_value(json_t *v, int jd)
{
    return jd ? ((struct schema_jstring *)v)->value : json_string_value(v);
}
SCHEMA_JINLINE size_t schema_jstring_length(json_t *v, int jd)
{
    return jd ? ((struct schema_jstring *)v)->length : json_string_length(v);
}
SCHEMA_JINLINE json_int_t schema_jinteger_value(json_t *v, int jd)
{
    return jd ? ((struct schema_jinteger *)v)->value : json_integer_value(v);
}
SCHEMA_JINLINE size_t schema_jarray_size(json_t *v, int jd)
{
    return jd ? ((struct schema_jarray *)v)->entries : json_array_size(v);
}
/* Element I < schema_jarray_size of array V. */
SCHEMA_JINLINE json_t *schema_jarray_get(json_t *v, size_t i, int jd)
{
    return jd ? ((struct schema_jarray *)v)->table[i] : json_array_get(v, i);
}

#endif
