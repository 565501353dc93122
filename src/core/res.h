/* res.h - resolution before any rule runs: each item's effective protocol versions
 * (spec 2.1) and $componentRef substitution (spec 3). Substitution shares nodes
 * (json_incref) in the document's own tree; res_follow tells cursors where a
 * substituted value really is in the source, so diagnostics keep its line and column. */
#ifndef MCPDESC_RES_H
#define MCPDESC_RES_H

#include "core/diag.h"
#include "core/doc.h"
#include "core/sel.h"
#include "base/ver.h"

struct res_config {
    const struct ver_list *versions;
    const char *versions_member;          /* "protocolVersions" */
    char *const *collections;             /* "tools", "resources", ... */
    size_t ncollections;
    struct sel *const *scopes;            /* where $componentRef is honoured */
    size_t nscopes;
    const char *ref_member;               /* "$componentRef" */
    const char *ref_prefix;               /* references must point inside: "/components/schemas/" */
};

struct res;

/* Resolve D in place. Appends a diagnostic for each problem found (built-in rules
 * mcpdesc.protocol-versions.* and mcpdesc.component-ref.*) and returns a new res. */
struct res *res_resolve(doc *d, const struct res_config *cfg, struct diag_list *out);
void res_free(struct res *r);

ver_mask res_doc_mask(const struct res *r);
int res_collection(const struct res *r, const char *key);          /* -1 if not one */
ver_mask res_item_mask(const struct res *r, int coll, size_t idx);
/* The versions in which collection COLL offers at least one item: the union of its
 * items' masks (0 for an empty list); the document's versions if COLL is not a list. */
ver_mask res_collection_mask(const struct res *r, int coll);
/* If N is a resolved reference site: 1, with the node holding its value and the
 * component's pointer (borrowed). Else 0. */
int res_follow(const struct res *r, doc_node n, doc_node *target, const char **component);

/* Is N a reference site that could not be resolved (and was reported)? Rules do not
 * judge such a node: it would only repeat the built-in diagnostic. */
int res_unresolved(const struct res *r, doc_node n);

/* The built-in rules res_resolve reports (for rule listings and SARIF). */
struct res_builtin {
    const char *id;
    enum diag_level level;
    const char *summary;
};
extern const struct res_builtin res_builtins[];
extern const size_t res_nbuiltins;

#endif
