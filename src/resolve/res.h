/* res.h - resolution before any rule runs: each item's effective protocol versions
 * (spec 2.1) and $componentRef substitution (spec 3). Substitution shares nodes
 * (json_incref) in the document's own tree. What it leaves for the selectors is a view
 * (view.h): the versions, and where each substituted value really is in the source,
 * so that diagnostics keep its line and column. Resolution walks the document with
 * selectors (sel.h); selectors read only the view, never this module. */
#ifndef MCPDESC_RES_H
#define MCPDESC_RES_H

#include "base/ver.h"
#include "base/diag.h"
#include "doc/doc.h"
#include "resolve/view.h"

struct sel;

struct res_config {
    const struct ver_list *versions;
    const char *versions_member; /* "protocolVersions" */
    char *const *collections;    /* "tools", "resources", ... */
    size_t ncollections;
    struct sel *const *scopes; /* where $componentRef is honoured */
    size_t nscopes;
    const char *ref_member; /* "$componentRef" */
    const char *ref_prefix; /* references must point inside: "/components/schemas/" */
};

struct res;

/* Resolve D in place, in three stages, each with its input explicit: the versions (from
 * the source tree alone), then the references (their scopes walked with the view of
 * the versions, no site followed yet), then the view of both. Appends a diagnostic for
 * each problem found (built-in rules mcpdesc.protocol-versions.* and
 * mcpdesc.component-ref.*) and returns a new res. */
struct res *res_resolve(doc *d, const struct res_config *cfg, struct diag_list *out);
void res_free(struct res *r);
/* What the selectors read: valid until res_free (borrowed). */
const struct view *res_view(const struct res *r);

/* The built-in rules res_resolve reports (for rule listings and SARIF). */
struct res_builtin {
    const char *id;
    enum diag_level level;
    const char *summary;
};
extern const struct res_builtin res_builtins[];
extern const size_t res_nbuiltins;

#endif
