/* sel.h - selectors and cursors. A selector is a JSON Pointer whose segments may be the
 * wildcard "*" (every member or item), "[*]" (every item of an array; an object has none)
 * or "**" (zero or more levels of members and items, at most one per selector): absolute when it starts with "/" (for instance every tool's
 * inputSchema), else relative to the current node ("properties", then every member). A cursor is a node of the resolved document with
 * what the interpreter needs: its source position, the component it came through, its
 * effective protocol versions, and its logical path (parent links, on the C stack). */
#ifndef MCPDESC_SEL_H
#define MCPDESC_SEL_H

#include <jansson.h>
#include <stdint.h>
#include <stdatomic.h>

#include "doc/doc.h"
#include "base/ver.h"

struct view;

struct cursor {
    json_t *v;                   /* the value (borrowed) */
    doc_node node;               /* its source position (a component's, if reached through one) */
    const struct cursor *parent; /* NULL at the root */
    const char *key;             /* member name (borrowed), or NULL for an array item */
    size_t index;                /* item index when key is NULL */
    const char *component;       /* component pointer crossed last, or NULL */
    ver_mask vmask;              /* effective versions of the enclosing item (or document) */
    int coll;                    /* at depth 1: index of the item collection, else -1 */
    int unresolved;              /* an unresolved $componentRef site (not judged by rules) */
    int depth;
    /* A text node of a {texts: ...} selector (texts.h): its kind as the manifest names it
     * (borrowed), else NULL; IS_KEY: the node is a member's name (v a string of it, the
     * position that of the key, the pointer the member's). Children never inherit them. */
    const char *text_kind;
    int is_key;
    /* Facts about a text node's string, found once when its item's texts are listed
     * (sel_text_facts) so that every rule over texts skips what cannot hold without
     * scanning it again: SEL_TEXT_FACTS when set, which ASCII bytes occur (a bit each),
     * whether a byte above ASCII does, and white space that folding would change. */
    unsigned text_facts;
    uint64_t text_ascii[2];
};
enum {
    SEL_TEXT_FACTS = 1,     /* text_facts and text_ascii are set */
    SEL_TEXT_NON_ASCII = 2, /* a byte of 0x80 or more */
    SEL_TEXT_UNFOLDED = 4   /* TAB, LF, VT, FF, CR, or two spaces in a row */
};
/* Set C's text facts from its string value (nothing for another value). */
void sel_text_facts(struct cursor *c);

/* What cursors walk: a document, and what its resolution says about it (view.h: the
 * effective versions, the $componentRef sites to follow and those to leave alone).
 * With no view, the source tree as it is: every cursor has no versions (vmask 0), no
 * collection, and no site is followed. */
struct sel_ctx {
    const doc *d;
    const struct view *view; /* read only; may be NULL */
};

struct sel;

#define SEL_ITEMS "[*]" /* the segment for every item of an array, and nothing else */

/* Bounds of one "**" walk: nodes entered and depth below the root (a resolved document
 * can repeat a component many times). Nodes beyond them are not selected. */
#define SEL_DEEP_MAX_NODES 200000u
#define SEL_DEEP_MAX_DEPTH 256

/* Compile TEXT; returns a new selector, or NULL and *why (static text) when malformed. */
struct sel *sel_compile(const char *text, const char **why);
void sel_free(struct sel *s);
/* The selector that selects the node it runs from, and nothing else (relative, no
 * segments; its text is ""): a change rule's {old: ''}, the item itself. */
struct sel *sel_self(void);
/* When TEXT looks like JSONPath rather than a selector ("$.tools[*].name", a "$" root,
 * "[*]" glued to a name as in "tools[*]", or "..") the selector it means, as a new string
 * ("/tools/[*]/name", ".." becoming "**"); else NULL. */
char *sel_from_jsonpath(const char *text);
int sel_is_absolute(const struct sel *s);
int sel_has_wildcard(const struct sel *s);
const char *sel_text(const struct sel *s);
/* The member S names when it is a relative selector of one segment, a name (neither a
 * wildcard nor "**"): what sel_run of S from an object selects is that member, if
 * present. NULL for any other selector. */
const char *sel_member_name(const struct sel *s);
/* The member the first segment of S names when S is relative, of two segments or more,
 * and that segment is a name (neither a wildcard nor "**"), else NULL: sel_run of S from
 * an object is then sel_run_rest of S from that member, if present (sel_run_rest). */
const char *sel_first_member(const struct sel *s);

void sel_root(const struct sel_ctx *ctx, struct cursor *out);
/* Step from C into member KEY / item IDX; returns 0 and fills *out, -1 if absent. */
int sel_member(const struct sel_ctx *ctx, const struct cursor *c, const char *key,
               struct cursor *out);
int sel_item(const struct sel_ctx *ctx, const struct cursor *c, size_t idx, struct cursor *out);

/* Calls FN with a cursor of every member or item of C, in document order (O(1) a step);
 * FN returns nonzero to stop, and sel_children returns that value (else 0). */
typedef int (*sel_visit_fn)(const struct cursor *c, void *arg);
int sel_children(const struct sel_ctx *ctx, const struct cursor *c, sel_visit_fn fn, void *arg);
/* sel_children, asking SKIP first of each child's member name (NULL for an item) and
 * value: a child SKIP answers nonzero for gets no cursor and no call of FN (a walk that
 * wants few of many children saves making their cursors). */
typedef int (*sel_skip_fn)(const char *key, const json_t *v, void *arg);
int sel_children_unless(const struct sel_ctx *ctx, const struct cursor *c, sel_skip_fn skip,
                        sel_visit_fn fn, void *arg);

/* Calls FN for every node S selects from FROM (absolute selectors start at the root),
 * in document order. FN returns nonzero to stop; sel_run returns that value (else 0). */
/* How many times a "**" walk went through a shared value (a substituted component)
 * rather than counting it from an earlier walk of it that selected nothing; for the
 * tests, which see a reference bomb walked in linear time. */
extern _Atomic unsigned long sel_shared_walks;
int sel_run(const struct sel *s, const struct sel_ctx *ctx, const struct cursor *from,
            sel_visit_fn fn, void *arg);
/* sel_run of S's segments after the first, from C (S relative, of two segments or more). */
int sel_run_rest(const struct sel *s, const struct sel_ctx *ctx, const struct cursor *c,
                 sel_visit_fn fn, void *arg);

/* sel_run of each of SELS (N of them) in turn, as one walk when they differ only in their
 * last segment, a name, after a "**" (selectors "** / anyOf" and "** / oneOf", spaces aside): FN is called for every
 * node any of them selects, each once, in document order rather than selector by
 * selector; the bounds of "**" count as for one of them. FN returning nonzero stops it. */
int sel_run_alt(const struct sel *const *sels, size_t n, const struct sel_ctx *ctx,
                const struct cursor *from, sel_visit_fn fn, void *arg);
/* The cursor's logical pointer (new string). */
char *sel_pointer(const struct cursor *c);

#endif
