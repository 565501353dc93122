/* doc.h - a loaded document (JSON or YAML) as a jansson tree plus a position index.
 * jansson values carry no positions and true/false/null are shared singletons, so
 * positions live in a separate pre-order index of the source tree (house style 8.1-8.2):
 * node 0 is the root; a node's first child is node+1; its next sibling is node+size. */
#ifndef MCPDESC_DOC_H
#define MCPDESC_DOC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct doc doc;
typedef uint32_t doc_node; /* index into the position index */
#define DOC_NONE ((doc_node)UINT32_MAX)

struct doc_pos {
    uint32_t line, col; /* 1-based; 0 means unknown */
};

struct doc_limits {
    size_t max_bytes;   /* refuse larger inputs (0: DOC_DEFAULT_MAX_BYTES) */
    uint32_t max_depth; /* nesting bound (0: DOC_DEFAULT_MAX_DEPTH) */
};
#define DOC_DEFAULT_MAX_BYTES ((size_t)256 << 20)
#define DOC_DEFAULT_MAX_DEPTH 512u

/* Why a load failed: message is new (free it with doc_error_release); line/col 1-based,
 * 0 when the failure has no position (file cannot be read, too large). */
struct doc_error {
    char *message;
    uint32_t line, col;
};
void doc_error_release(struct doc_error *err);

/* Load PATH ("-" reads standard input). YAML when the name ends in .yaml/.yml, else JSON.
 * JSON duplicate keys are an error; any top-level value is accepted here (callers decide).
 * Returns a new doc, or NULL with *err filled. */
doc *doc_load_file(const char *path, const struct doc_limits *lim, struct doc_error *err);
/* Same from memory; NAME is used in messages and by doc_name. is_yaml selects the parser. */
doc *doc_load_buffer(const char *name, const char *data, size_t len, int is_yaml,
                     const struct doc_limits *lim, struct doc_error *err);
/* doc_load_file for a YAML file read often and seldom changed (a rule set's files): the
 * document loaded from the same text before is read back from the cache
 * ($XDG_CACHE_HOME/mcpdesc/docs, doc_cache.c; off when $MCPDESC_NO_CACHE is set, not empty
 * and not 0), the same tree and positions. With LIM, standard input or another suffix:
 * no cache. TEXT_SHA256 (may be NULL) receives the sha256 of the bytes read, in hex (""
 * when they could not be read), so that a caller that records it reads the file once. */
doc *doc_load_file_cached(const char *path, const struct doc_limits *lim, struct doc_error *err,
                          char text_sha256[65]);
/* doc_load_file_cached(PATH, NULL, ERR, TEXT_SHA256) for a file whose bytes the caller
 * knows to have the sha256 KNOWN (kept by the file's identity: rules/rule_cache.c,
 * rule_sums): the cached document of that text is taken without hashing the bytes read
 * (TEXT_SHA256 is then KNOWN); when there is none, the bytes are hashed and TEXT_SHA256
 * is theirs. */
doc *doc_load_file_known(const char *path, struct doc_error *err, const char known[65],
                         char text_sha256[65]);
void doc_free(doc *d); /* NULL is a no-op */
/* A few bytes a caller keeps beside the cache of loaded YAML, under KEY (64 hex digits,
 * the sha256 of what they stand for, the engine included: doc_cache_engine), for this
 * engine only (rules/rule_cache.c: the files a rule set's schemas read). get: a copy
 * (new, NUL-terminated) and its length, or NULL when there is none whole or the cache is
 * off; drop removes it. */
const char *doc_cache_engine(void); /* "" when this program keeps nothing */
int doc_cache_on(void);             /* 0 when nothing is kept (MCPDESC_NO_CACHE, ...) */
char *doc_cache_record_get(const char key[65], size_t *len);
void doc_cache_record_put(const char key[65], const char *data, size_t len);
void doc_cache_record_drop(const char key[65]);
/* A jansson value kept as such a record (the cache entries' tree form: every type, an
 * integer apart from a real, members in their order, strings with their NULs): get gives
 * a new value equal to the one put, or NULL (none, damaged, or the cache is off). */
void doc_cache_value_put(const char key[65], json_t *v);
json_t *doc_cache_value_get(const char key[65]);

/* Threads for a large JSON text (doc_json.c): with THREADS 2, a text of MIN_BYTES or more
 * is parsed on the loading thread and one more, which parses the later half of an array
 * near the text's middle while the first parses up to it, and hands its items over. The
 * document is the same, value for value and position for position, as one thread's; an
 * error anywhere, or a guess that was not an array's item, leaves it all to the first
 * thread. 1 (the default): one thread. A program's setting: set it before loading. */
void doc_json_set_threads(unsigned threads, size_t min_bytes);
#define DOC_JSON_SPLIT_MIN ((size_t)1 << 20)

json_t *doc_root(const doc *d);     /* borrowed */
const char *doc_name(const doc *d); /* borrowed */

/* Position index. */
size_t doc_node_count(const doc *d);
struct doc_pos doc_node_pos(const doc *d, doc_node n);     /* where the value starts */
struct doc_pos doc_node_key_pos(const doc *d, doc_node n); /* member key; = value pos otherwise */
doc_node doc_node_first_child(const doc *d, doc_node n);   /* DOC_NONE when no children */
doc_node doc_node_next_sibling(const doc *d, doc_node parent, doc_node n);

/* The node of a child of (v, n): member KEY of an object or item IDX of an array,
 * found by position in jansson's (insertion = source) order. DOC_NONE if absent. */
doc_node doc_node_member(const doc *d, doc_node n, json_t *obj, const char *key);
doc_node doc_node_item(const doc *d, doc_node n, size_t idx);
/* The same for large containers in O(1) (a child index is built on first use):
 * ARR is the array at N; STABLE_KEY (may be NULL) receives the object's own copy of
 * the key, valid while the object lives. */
doc_node doc_node_array_item(const doc *d, doc_node n, json_t *arr, size_t idx);
doc_node doc_node_member_key(const doc *d, doc_node n, json_t *obj, const char *key,
                             const char **stable_key);

/* Position of the value at an RFC 6901 pointer of the source tree ("" = root).
 * Returns 0 and fills *value (and *key when not NULL), or -1 when nothing is there. */
int doc_pointer_pos(const doc *d, const char *pointer, struct doc_pos *value, struct doc_pos *key);

/* The source node at POINTER (following the source tree, before any resolution), or
 * DOC_NONE. doc_node_size: entries in N's subtree, N included (0 if out of range). */
doc_node doc_pointer_node(const doc *d, const char *pointer);
uint32_t doc_node_size(const doc *d, doc_node n);

/* Byte spans for text edits (src/findings/fix.c): offsets into doc_text, END exclusive. */
struct doc_span {
    uint32_t start, end;
};
/* Flags of a node's spans. */
#define DOC_SPAN_SHARED                                                                            \
    1u                   /* YAML: the text is shared (an anchor other nodes alias, an  \
                            * alias's copy, a member a merge key << brought in): an edit \
                            * there would change other nodes too */
#define DOC_SPAN_FLOW 2u /* YAML: a flow collection ({...} or [...]); else block style */
/* N's value span and (when KEY is not NULL) its member key's span (= {start, start} for an
 * array item or the root); returns N's DOC_SPAN_* flags, or -1 when N is out of range.
 * An alias's node has its anchor's spans and DOC_SPAN_SHARED. */
int doc_node_span(const doc *d, doc_node n, struct doc_span *value, struct doc_span *key);
/* The source bytes (borrowed, NUL-terminated) and their length; is D YAML? */
const char *doc_text(const doc *d, size_t *len);
int doc_is_yaml(const doc *d);
/* 0 when D certainly has no member named NAME anywhere (a name starting with '$' in a
 * JSON document its one-pass parse read whole); 1 when it may. Resolution skips looking
 * for $componentRef sites in a document that has none. */
int doc_may_have_member(const doc *d, const char *name);

/* The line and column (code points from the line's start, as every position of a doc
 * counts them) of byte OFF of the source text; {0, 0} past its end. */
struct doc_pos doc_offset_pos(const doc *d, size_t off);

/* Positions inside a string, for a diagnostic about a part of it (report-at: match).
 * The JSON string or YAML scalar whose source starts at byte START of D's text (a node's
 * value or member-key span start, doc_node_span) is decoded again: JSON escapes
 * (\u202e, surrogate pairs, \n), YAML quoting and escapes, line folding, literal and
 * folded block scalars. When it decodes to VALUE (LEN bytes), *AT is the source position
 * of the decoded byte OFF and *END the position just after the source of byte OFF+N-1
 * (N > 0; an escape is one unit: a match inside \u202e starts at its backslash), and 0
 * is returned. -1 when the source does not decode to VALUE (a string the resolver made,
 * a number) or [OFF, OFF+N) is not inside it. The source is read only here, when a
 * diagnostic asks: loading keeps no per-character map. */
int doc_scalar_range(const doc *d, uint32_t start, const char *value, size_t len, size_t off,
                     size_t n, struct doc_pos *at, struct doc_pos *end);

/* Source line LINE (1-based) without its newline, for excerpts; NULL if out of range. */
const char *doc_line(const doc *d, uint32_t line, size_t *len);

/* Free what D holds once it is judged but what a report still prints: the lines LINES (N
 * of them, 1-based, in any order, repeats allowed) for excerpts, and a copy of the
 * top-level members KEEP (NULL-terminated names) as the new root. Afterwards doc_line
 * answers for the kept lines only, doc_root is that small object, and D has no nodes
 * (every position function answers as for a node that does not exist). For a run over
 * many files: its memory then stays flat in their number. Not thread-safe against other
 * uses of D. */
void doc_shed(doc *d, const uint32_t *lines, size_t n, const char *const *keep);

#endif
