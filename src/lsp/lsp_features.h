/* lsp_features.h - what the language server knows about the documents an editor holds:
 * the diagnostics of rule files, manifests and config files, hover, go to definition and
 * completion. Pure functions of the text (and the loaded rule set): no JSON-RPC, no I/O
 * to the client, so they are unit tested and fuzzed on their own; lsp.c (the server)
 * turns their answers into LSP messages.
 *
 * Positions are mcpdesc's own, as in every diagnostic: 1-based line, 1-based column in
 * Unicode code points (struct doc_pos). The server converts them to and from the
 * position encoding the client negotiated (UTF-16 code units by default). */
#ifndef MCPDESC_LSP_FEATURES_H
#define MCPDESC_LSP_FEATURES_H

#include <stddef.h>

#include "core/diag.h"
#include "core/doc.h"
#include "core/rule.h"

/* What an open document is, which decides what is published for it. */
enum lspf_kind {
    LSPF_OTHER,       /* nothing is published */
    LSPF_DESCRIPTION, /* an MCP Description: judged with the rule set */
    LSPF_RULES,       /* a rule file of a rule set (listed by a manifest.yaml beside it) */
    LSPF_MANIFEST,    /* a rule set's manifest.yaml */
    LSPF_CONFIG       /* a .mcpdesc.yaml config file */
};

/* One open document as the server holds it: the newest text (not NUL-terminated
 * necessarily: LEN bytes), its file system path (NULL for an untitled buffer). */
struct lspf_text {
    const char *path;
    const char *text;
    size_t len;
};

struct lspf_range {
    struct doc_pos start, end; /* end is exclusive */
};

struct lspf_location {
    char *path; /* new */
    struct lspf_range range;
};

/* A hover answer: Markdown (new) and the range it is about. */
struct lspf_hover {
    char *markdown;
    struct lspf_range range;
};

enum lspf_item_kind { LSPF_ITEM_FUNCTION, LSPF_ITEM_PROPERTY, LSPF_ITEM_VALUE, LSPF_ITEM_KEYWORD };
struct lspf_item {
    char *label;
    enum lspf_item_kind kind;
    char *detail;        /* one line (a predicate's synopsis), or NULL */
    char *documentation; /* Markdown, or NULL */
    char *insert_text;   /* NULL: the label */
};
struct lspf_items {
    struct lspf_item *items;
    size_t len, cap;
};
void lspf_items_release(struct lspf_items *items);

enum lspf_kind lspf_classify(
    const struct lspf_text *
        t); /* by path: manifest.yaml; a .yaml listed by a manifest.yaml in its directory; .mcpdesc.yaml; else by content: an object with mcpDescription → LSPF_DESCRIPTION */
void lspf_lint(
    const struct lspf_text *t, enum lspf_kind k,
    struct diag_list *out); /* rule file/manifest/config diagnostics for the buffer's text */
int lspf_hover(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
               const struct diag_list *diags, struct doc_pos pos,
               struct lspf_hover *out); /* 1 and *out, or 0 */
void lspf_hover_release(struct lspf_hover *h);
size_t lspf_definition(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       struct doc_pos pos,
                       struct lspf_location **out); /* a new array of n locations */
void lspf_locations_free(struct lspf_location *locs, size_t n);
void lspf_complete(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                   struct doc_pos pos, struct lspf_items *out);

#endif
