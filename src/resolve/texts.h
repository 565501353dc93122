/* texts.h - every text a client shows a model, as the nodes of a document: the `{texts:
 * item}` and `{texts: document}` selectors of the rule language. WHERE the texts are is
 * data (a rule set manifest's `texts:`, compiled into a struct texts_spec by
 * rules/rule_texts.c): per item collection, relative selectors of its texts (name,
 * description, ...); the document's (instructions, ...); and inside the schema roots of
 * an item (inputSchema, ...), at any depth, the string leaves of some members (title,
 * enum, default, ...) and the member NAMES of others (properties, $defs, ...), each a key
 * node (sel.h: is_key). Schemas are walked in place, as a client sends them: $ref is
 * never followed (no double reports, no cycles); a $componentRef is already resolved by
 * the view (sel.h), as for every selector. Each text node carries its kind's name
 * (cursor.text_kind). The walk of one item is bounded as a "**" walk is
 * (SEL_DEEP_MAX_NODES, SEL_DEEP_MAX_DEPTH). */
#ifndef MCPDESC_TEXTS_H
#define MCPDESC_TEXTS_H

#include "resolve/sel.h"
#include "base/util.h"

/* One declared place of texts: a relative selector (item and document entries) or a
 * member name (schema values and keys), and the name of its texts' kind. All owned. */
struct texts_entry {
    struct sel *sel;
    char *member;
    char *kind;
};
typedef VEC(struct texts_entry) texts_entries;

struct texts_coll {
    char *name; /* a collection of the document: tools, prompts, ... */
    texts_entries entries;
};

struct texts_spec {
    VEC(struct texts_coll) item;
    texts_entries document;
    VEC(struct sel *) roots; /* the schema roots, relative to an item */
    texts_entries values;    /* members whose string leaves are texts */
    texts_entries keys;      /* members whose member names are texts */
    VEC(char *) skip;        /* members a schema walk does not enter (_meta) */
};

struct texts_spec *texts_spec_new(void);
void texts_spec_free(struct texts_spec *spec);
/* The declaration of collection NAME, or NULL. */
const struct texts_coll *texts_spec_coll(const struct texts_spec *spec, const char *name);

/* The text nodes of an item or of the document, in walk order. The cursors (and their
 * parent chains, and the key strings of key nodes) belong to the list. */
struct texts_chunk;
struct texts_list {
    VEC(const struct cursor *) nodes;
    struct texts_chunk *chunks;
    struct texts_chunk *spare; /* emptied chunks, taken again before allocating */
    VEC(json_t *) owned;
    size_t entered; /* schema nodes entered */
    size_t cuts;    /* nodes a bound kept out */
    /* per node, its string's verdicts (texts_cache_verdicts), once asked for */
    VEC(struct texts_verdict *) verdicts;
    int has_verdicts;
    VEC(uint32_t) open; /* texts_cache_open's nodes, for the questions in OPEN_FOR */
    uint64_t open_for;
    int has_open;
    /* Texts left out (texts_cache_item_for): only when HAS_SKIPS, all with YES to every
     * question in SKIPPED_FOR. */
    uint64_t skipped_for;
    int has_skips;
};

/* The texts of ITEM (a cursor of an item of a declared collection; else none): a new
 * list, freed with texts_list_free. */
struct texts_list *texts_of_item(const struct texts_spec *spec, const struct sel_ctx *ctx,
                                 const struct cursor *item);
/* The texts of the document, from ROOT (the root cursor). */
struct texts_list *texts_of_document(const struct texts_spec *spec, const struct sel_ctx *ctx,
                                     const struct cursor *root);
void texts_list_free(struct texts_list *l);

/* How many item walks texts_of_item did (for the tests: the cache walks each item once). */
extern _Atomic unsigned long texts_item_walks;
/* How many times a shared value's settled texts were left out of a list (for the tests). */
extern _Atomic unsigned long texts_values_left_out;

/* A per-document cache of text lists, so that every rule over texts reuses one walk of
 * each item. *CACHE starts NULL; lists stay valid until dropped or freed. */
struct texts_cache;
const struct texts_list *texts_cache_item(struct texts_cache **cache, const struct texts_spec *spec,
                                          const struct sel_ctx *ctx, const struct cursor *item);
/* texts_cache_item for a caller that asks question Q of every text (texts_cache_question;
 * -1: none, it reads every node): the list may leave out the texts of a component
 * substituted at several sites once every string in it answered YES to Q and every other
 * question numbered (their nodes are then skipped by texts_cache_open's callers alike). A
 * Q of -1 makes this and the next lists whole. */
const struct texts_list *texts_cache_item_for(struct texts_cache **cache,
                                              const struct texts_spec *spec,
                                              const struct sel_ctx *ctx, const struct cursor *item,
                                              int q);
const struct texts_list *texts_cache_document(struct texts_cache **cache,
                                              const struct texts_spec *spec,
                                              const struct sel_ctx *ctx, const struct cursor *root);
/* Answers about a string that depend on its bytes and its kind alone, shared by every
 * text node of the cache's document with the same string and kind (the same property
 * names, enum values and $componentRef texts recur in every item): bit Q of YES is the
 * answer to question Q, when bit Q of KNOWN is set. The caller numbers its questions (texts_cache_question) and keeps
 * their meaning fixed while the cache lives. */
struct texts_verdict {
    uint64_t known, yes;
    uint64_t unsure; /* the caller's own use: a first test that left the answer open */
};
/* Question ASKER's number in CACHE (ASKER: any address that stays the same while the
 * cache lives): 0 to 63, or -1 when 64 are taken. */
int texts_cache_question(struct texts_cache **cache, const void *asker);
/* The verdicts of L's nodes (L from CACHE), one per node in L's order, each NULL when the
 * node has none (not a string, a long one, or too many distinct strings). Valid until L
 * is dropped. */
struct texts_verdict *const *texts_cache_verdicts(struct texts_cache **cache,
                                                  const struct texts_list *l);
/* The nodes of L (by index, in L's order) whose answer to question Q may be other than
 * YES: every node but those whose verdicts said YES to every question numbered when L was
 * first asked (answers never change once known). NULL (every node) when Q was numbered
 * later. *N receives their number. */
const uint32_t *texts_cache_open(struct texts_cache **cache, const struct texts_list *l, int q,
                                 size_t *n);

/* Forget ITEM's list (a walk of a large collection is done with the item). */
void texts_cache_drop(struct texts_cache *cache, const struct cursor *item);
void texts_cache_free(struct texts_cache *cache);

#endif
