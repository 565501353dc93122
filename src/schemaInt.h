/* schemaInt.h - internals shared by schema.c (context, documents, URIs, index and
 * compiler), schema_eval.c (validation), schema_num.c (numbers, equality, strings) and
 * schema_regex.c (ECMA-262 on PCRE2). Not for other modules. */
#ifndef MCPDESC_SCHEMA_INT_H
#define MCPDESC_SCHEMA_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdarg.h>

#include "buf.h"
#include "schema.h"
#include "util.h"

#define SCHEMA_NONE ((size_t)-1)

/* A string/byte-keyed hash map to size_t (open addressing). */
struct schema_map_ent {
    char *key;
    size_t klen;
    size_t val;
};
struct schema_map {
    struct schema_map_ent *ents;
    size_t cap, len;
};
int schema_map_get(const struct schema_map *m, const void *key, size_t klen, size_t *val);
void schema_map_put(struct schema_map *m, const void *key, size_t klen, size_t val);
void schema_map_release(struct schema_map *m);

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
    pcre2_code *code;
    char *src; /* the original ECMA pattern */
};
/* Compile PATTERN; NULL and *err (new) on failure or when longer than MAX_LEN. */
struct schema_re *schema_re_compile(const char *pattern, size_t len, uint32_t max_len,
                                    char **err);
void schema_re_free(struct schema_re *re);

/* Keyword kinds, in no particular order; compile order decides evaluation order. */
enum schema_kwk {
    SK_TYPE, SK_ENUM, SK_CONST, SK_MULTIPLEOF, SK_MAXIMUM, SK_EXMAXIMUM, SK_MINIMUM,
    SK_EXMINIMUM, SK_MAXLENGTH, SK_MINLENGTH, SK_PATTERN, SK_MAXITEMS, SK_MINITEMS,
    SK_UNIQUE, SK_CONTAINS, SK_MAXPROPS, SK_MINPROPS, SK_REQUIRED, SK_DEPREQ,
    SK_DEPSCHEMAS, SK_ALLOF, SK_ANYOF, SK_ONEOF, SK_NOT, SK_IF, SK_PROPERTIES,
    SK_PATTERNPROPS, SK_ADDPROPS, SK_PROPNAMES, SK_PREFIXITEMS, SK_ITEMS, SK_UNEVALPROPS,
    SK_UNEVALITEMS, SK_REF, SK_DYNREF, SK_RECREF, SK_FALSE,
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
            size_t *nodes;
        } props;
        struct {
            size_t n;
            struct schema_re **re;
            size_t *nodes;
        } pprops;
        struct {
            size_t node;
            json_t *props;  /* sibling "properties" object or NULL */
            size_t npat;
            struct schema_re **re; /* sibling patternProperties regexes (borrowed) */
        } addprops;
        struct {
            size_t node;
            char *anchor; /* $dynamicRef: the dynamic anchor name, NULL if static */
        } ref;
    } u;
};

struct schema_node {
    json_t *json;    /* borrowed from its document */
    int boolean;     /* -1: object schema, 0/1: false/true */
    int draft;
    size_t res;      /* schema resource it belongs to */
    uint32_t doc;    /* document */
    char *ptr;       /* JSON pointer of the node inside its document */
    struct schema_kw *kws;
    size_t nkw;
    int has_uneval;  /* has unevaluatedProperties/Items itself */
};

struct schema_dyn_anchor {
    char *name;
    json_t *json;
    size_t node; /* compiled node, SCHEMA_NONE until compiled */
};

struct schema_res {
    char *uri;       /* absolute URI without fragment (may be relative if no base) */
    json_t *root;    /* borrowed from the document */
    uint32_t doc;
    char *ptr;
    int draft;
    unsigned vocab;
    int recursive_anchor;
    int used;        /* some node of it was compiled */
    size_t root_node; /* compiled root when recursive_anchor (2019-09), else NONE */
    VEC(struct schema_dyn_anchor) dyn;
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
    size_t root;
    int root_draft;
    int root_plain;  /* locations in document 0 are printed as bare pointers */
    struct schema_limits lim;
    pcre2_match_context *mctx;
};

/* Error list helpers. */
void schema_errors_add(struct schema_errors *e, const char *kwloc, const char *iloc,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* URIs (RFC 3986). New strings. */
char *schema_uri_resolve(const char *base, const char *ref);
/* Split URI at '#': returns the part before (new); *frag borrowed (NULL when absent). */
char *schema_uri_split(const char *uri, const char **frag);

/* Numbers (schema_num.c): compare two numbers exactly: <0, 0, >0. */
int schema_num_cmp(json_t *a, json_t *b);

/* Keyword location for errors of node N (new): "/ptr/KW" or "URI#/ptr/KW". */
char *schema_kwloc(const schema *s, const struct schema_node *n, const char *kw,
                   const char *extra);

#endif
