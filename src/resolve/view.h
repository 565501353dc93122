/* view.h - what resolution (resolve/res.h) leaves for the selectors (resolve/sel.h) to read:
 * the effective protocol versions of the document, of each item of each collection and
 * of each collection, and, by source node, the $componentRef sites (where a substituted
 * value really is in the source, so that diagnostics keep its line and column) and the
 * sites left unresolved. Passive data: res.c fills it, sel.c only reads it, and nothing
 * here calls back into resolution. A view with no collections and no sites is the
 * plain source tree. */
#ifndef MCPDESC_VIEW_H
#define MCPDESC_VIEW_H

#include <stddef.h>

#include "base/ver.h"
#include "doc/doc.h"

/* One item collection of the document ("tools", ...). */
struct view_collection {
    const char *name;      /* its member name (borrowed from the rule set) */
    const ver_mask *items; /* each item's effective versions; NULL when no list */
    size_t nitems;
    /* The versions in which it offers at least one item: the union of its items'
     * versions (0 for an empty list). */
    ver_mask mask;
};

/* A resolved $componentRef site. */
struct view_site {
    doc_node node;         /* where the reference object is written */
    doc_node target;       /* the node that holds its final value */
    const char *component; /* the pointer of that value ("/components/schemas/A") */
};

/* Per source node (view.mark). */
enum { VIEW_SITE = 1, VIEW_UNRESOLVED = 2 };

struct view {
    ver_mask doc_mask; /* versions of nodes outside items */
    const struct view_collection *collections;
    size_t ncollections;
    const struct view_site *sites; /* sorted by node */
    size_t nsites;
    /* VIEW_SITE or VIEW_UNRESOLVED for each of the first NMARK source nodes (NULL, 0
     * when the document has no $componentRef site): the question every cursor step asks
     * is answered in O(1). */
    const unsigned char *mark;
    size_t nmark;
};

/* The collection whose member name is KEY, or -1. */
int view_collection(const struct view *v, const char *key);
/* Item IDX of collection COLL: its versions (the document's when COLL or IDX is out of
 * range). */
ver_mask view_item_mask(const struct view *v, int coll, size_t idx);
/* Collection COLL's versions (the document's when COLL is out of range). */
ver_mask view_collection_mask(const struct view *v, int coll);
/* If N is a resolved site: 1, with the node holding its value and the component's
 * pointer (borrowed). Else 0. */
int view_follow(const struct view *v, doc_node n, doc_node *target, const char **component);
/* Is N a site that could not be resolved (and was reported)? Rules do not judge such a
 * node: it would only repeat the built-in diagnostic. */
int view_unresolved(const struct view *v, doc_node n);

#endif
