/* docInt.h - the document's files, bottom up, each calling only those below it:
 *   doc_arena.c            the jansson values of a large document in one mapping (calls none)
 *   doc.c                  the model: index, navigation, line table, errors (calls none
 *                          but the arena's release)
 *   doc_json.c, doc_yaml.c the loaders: fill a doc's index, using only the model
 *   doc_scalar.c           positions inside a string: one scalar's source read again,
 *                          using only the model (doc_scalar_range)
 *   doc_cache.c            loaded YAML kept on disk and read back, using only the model
 *   doc_load.c             the public load entry points: read, bound, pick a loader
 * This header is what they share. Nothing outside those files includes it. */
#ifndef MCPDESC_DOCINT_H
#define MCPDESC_DOCINT_H

#include <pthread.h>
#include <stdatomic.h>
#include "doc/doc.h"
#include "base/buf.h"
#include "base/util.h"

struct doc_entry {
    uint32_t line, col;   /* value start */
    uint32_t kline, kcol; /* member key start (objects), else = value */
    uint32_t size;        /* entries in this subtree, itself included */
    /* Byte offsets into the text (the 256 MiB limit fits in 32 bits): the value's
     * [start, end) and the member key's [kstart, kend) (= start, start without a key). */
    uint32_t start, end, kstart, kend;
    uint32_t flags; /* DOC_SPAN_* */
};

/* A JSON document's entry: 16 bytes rather than 40, its line and column read from the
 * text when asked (doc_offset_pos), as they are only for a finding. JSON breaks lines at
 * LF alone and a key is a string, so both are known from the byte offsets. */
struct doc_jentry {
    uint32_t size;       /* entries in this subtree, itself included */
    uint32_t start, end; /* the value's bytes [start, end) */
    uint32_t kstart;     /* the member key's opening quote; = start without a key */
};

typedef VEC(struct doc_jentry) doc_jvec;

/* For a large object or array: its children's nodes, and for an object a hash of its
 * keys (borrowed from jansson), so lookups cost O(1) instead of a walk. Built lazily. */
struct doc_children {
    doc_node node;
    size_t n;
    doc_node *child;      /* i-th child's node */
    const char **keys;    /* objects: open-addressing table of keys ... */
    uint32_t *slot_child; /* ... and the child index in each slot */
    size_t nslots;
};

struct doc_arena;

struct doc_kept_line {
    uint32_t line;
    char *text;
    size_t len;
};

/* The member names starting with '$' a JSON parse met (schema keywords, $componentRef),
 * as 64-bit hashes, at most DOC_DOLLAR_MAX different ones (OVER: more): enough to say
 * that a document has no member of such a name at all (doc_may_have_member). */
#define DOC_DOLLAR_MAX 32
struct doc_dollar {
    uint64_t h[DOC_DOLLAR_MAX];
    unsigned n;
    int over;
};
void doc_dollar_add(struct doc_dollar *s, const char *name, size_t len);
void doc_dollar_add_hash(struct doc_dollar *s, uint64_t h); /* another set's entry */

struct doc {
    char *name;
    char *text; /* the source bytes, NUL-terminated (for excerpts) */
    size_t len;
    /* text is the file's pages mapped read-only (doc_load.c), not a copy: unmapped when
     * freed, and its pages leave the process once read (doc_text_drop) */
    int text_mapped;
    _Atomic unsigned text_reads; /* of a mapped text since the load (doc_text_read) */
    json_t *root;
    struct doc_arena *arena;      /* where root's values were made, or NULL (doc_arena.c) */
    struct doc_arena *arena2;     /* ... those a second parse thread made (doc_json.c) */
    int split_taken;              /* the parse took a second thread's items (doc_json.c) */
    struct doc_dollar dollar;     /* the '$' member names of the text (doc_json.c) ... */
    int dollar_known;             /* ... when set: every one of them, no more */
    VEC(struct doc_entry) idx;    /* YAML's positions (libyaml's marks) */
    doc_jvec jidx;                /* JSON's (the other one is empty) */
    VEC(uint32_t) cp_blocks;      /* characters before each DOC_CP_BLOCK bytes, lazily */
    VEC(uint32_t) line_starts;    /* built lazily by doc_line (texts are under 4 GiB) */
    int is_yaml;                  /* its line breaks are libyaml's (see doc_break_len) */
    VEC(struct doc_children) big; /* lazily built child indexes, sorted by node */
    /* Held while a cache above is read or built: threads judge the items of one
     * document at the same time (eval.h: workers). */
    pthread_mutex_t cache_lock;
    /* After doc_shed: the lines kept, sorted by line (text owned, without its break) */
    VEC(struct doc_kept_line) kept;
    int shed;
};

/* ---- the arena of a large document's jansson values (doc_arena.c) ---- */

/* Texts shorter than this are parsed into malloc's blocks: an arena is worth its mapping
 * and its slot from there on. */
#define DOC_ARENA_MIN_TEXT ((size_t)64 << 10)
/* A new arena for the tree of a text of TEXT_LEN bytes, or NULL (a short text, no room
 * left, a program that installed its own jansson allocation functions after ours).
 * Between doc_arena_begin and doc_arena_end, every jansson allocation of the calling
 * thread is made in A (malloc's once A is full). Its blocks may be freed on any thread
 * (json_decref): the mapping goes once doc_arena_release was called and every block is
 * freed, so values still referenced elsewhere stay valid. A program that sets jansson's
 * allocation functions itself does it before it loads a document (jansson asks it be
 * done before any other of its calls). */
struct doc_arena *doc_arena_new(size_t text_len);
/* The same for a tree rebuilt from a cache entry (doc_cache.c) whose values take about
 * TREE_BYTES: worth it from DOC_ARENA_MIN_TREE (a rule file's tree of a few hundred
 * blocks: the bump allocation and its denser pages cost less than malloc's blocks). The
 * pages of the first 2 * TREE_BYTES are made at once (MADV_POPULATE_WRITE). */
#define DOC_ARENA_MIN_TREE ((size_t)8 << 10)
struct doc_arena *doc_arena_new_tree(size_t tree_bytes);
void doc_arena_begin(struct doc_arena *a);
void doc_arena_end(struct doc_arena *a);
void doc_arena_release(struct doc_arena *a); /* the document's hold; NULL is a no-op */
/* Bytes of A's mapping handed out so far (its header included); 0 for NULL. */
size_t doc_arena_used(const struct doc_arena *a);
/* Bytes of A's pages of blocks in memory (mincore; (size_t)-1 when it cannot tell). A
 * released arena a held value keeps mapped keeps only the pages with live blocks. */
size_t doc_arena_resident(const struct doc_arena *a);

/* ---- the model's helpers for the loaders (doc.c) ---- */

/* Fills *ERR; MSG is new (ERR takes it). */
void doc_set_error(struct doc_error *err, uint32_t line, uint32_t col, char *msg);
/* Bytes of a leading UTF-8 byte order mark (RFC 8259 section 8.1 lets a parser ignore
 * it; positions count from the character after it). */
size_t doc_bom_len(const char *text, size_t len);
/* Bytes of the line break at D's text[I], 0 if none (JSON: LF only; YAML: libyaml's). */
size_t doc_break_len(const doc *d, size_t i);
/* Releases D's text (freed or unmapped): NULL and 0 bytes then. */
void doc_text_release(doc *d);
/* A mapped text's pages in [FROM, TO) leave the process's memory: the file's bytes stay
 * in the kernel's page cache, and a read there maps them again. No-op for a text in
 * memory of its own. */
void doc_text_drop(const doc *d, size_t from, size_t to);
/* Counts a read of D's text at a few places (a position, a line): a read maps the pages
 * around it (the kernel's fault-around), so every few reads they all leave again. */
void doc_text_read(const doc *d);
/* The bytes read between two doc_text_drop calls of a forward scan of a mapped text. */
#define DOC_DROP_STEP ((size_t)4 << 20)
/* D's line table (starts of lines), built on first use: a cache. Returns D. */
const doc *doc_line_table(const doc *d);

/* ---- the loaders, for doc_load.c (doc_json.c, doc_yaml.c) ---- */

/* The loaders: D has its name, text, len and is_yaml set; LIM has no zero bound.
 * Return D with its root and index filled, or free D and return NULL with *ERR filled. */
doc *doc_json_load(doc *d, const struct doc_limits *lim, struct doc_error *err);
doc *doc_yaml_load(doc *d, const struct doc_limits *lim, struct doc_error *err);

/* ---- the cache of loaded YAML, for doc_load.c (doc_cache.c) ---- */

/* The directory of the entries ($XDG_CACHE_HOME/mcpdesc/docs, else
 * $HOME/.cache/mcpdesc/docs; new), or NULL when nothing is to be kept: $MCPDESC_NO_CACHE
 * is set, not empty and not 0, neither variable is an absolute path, or the program has no
 * build ID. */
char *doc_cache_dir(void);
/* The document NAME whose text is TEXT (LEN bytes, room for a NUL, sha256 HEX), read
 * from DIR's entry: it takes TEXT over. NULL (TEXT still the caller's) when there is no
 * entry or it does not check out. */
doc *doc_cache_get(const char *dir, const char *name, char *text, size_t len, const char hex[65]);
/* The file of the entry for a text of sha256 HEX in DIR, for this program (new). */
char *doc_cache_entry_path(const char *dir, const char hex[65]);
/* The most entries the directory keeps: a write past it removes the oldest (doc_cache.c). */
#define DOC_CACHE_MAX_ENTRIES 512
/* Keeps D (a YAML document loaded from a text of sha256 HEX) in DIR, when it can;
 * failures are silent (the next run parses again). */
void doc_cache_put(const char *dir, const doc *d, const char hex[65]);
/* The checksum of an entry's payload (LEN bytes at DATA): damage on disk, not a digest. */
uint64_t doc_cache_checksum(const void *data, size_t len);

#endif
