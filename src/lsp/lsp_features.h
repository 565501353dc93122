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

#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"

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

/* What T is: by its name, manifest.yaml; a .yaml or .yml file listed by the manifest.yaml
 * beside it; .mcpdesc.yaml or .mcpdesc.yml; else by content: JSON or YAML whose top level
 * is an object with an mcpDescription member (a text that does not parse counts when it
 * names the member where a description has it, so that its parse error is published). */
enum lspf_kind lspf_classify(const struct lspf_text *t);
/* lspf_classify after an edit of a document that was of kind WAS: a description that
 * still names the member stays one without parsing its text here (the judge parses it
 * anyway, and says when its top level has lost the member: lsp.c then makes it
 * LSPF_OTHER, as lspf_classify would have); anything else as lspf_classify. */
enum lspf_kind lspf_classify_edited(const struct lspf_text *t, enum lspf_kind was);
/* The diagnostics of a rule file, manifest or config for the buffer's text, not the file
 * on disk: what `mcpdesc rules lint` reports for the set the file belongs to, the buffer
 * overlaid through struct rule_overlay (rules/rule.h) wherever the loader and lint would
 * read the file; for a config, what the config loader reports. Appended with file =
 * t->path. A rule file whose manifest has errors gets one warning at 1:1 naming the first,
 * since its rules were not compiled. */
void lspf_lint(const struct lspf_text *t, enum lspf_kind k, struct diag_list *out);
/* Hover at POS. In a description, the findings of DIAGS whose range (lspf_diag_range)
 * covers POS, each "**ID** · LEVEL (must)", the message, the requirement, the protocol
 * versions, the summary and a link to the rule page only when DOCS_URL is set (see
 * rule_page_url), joined by "---"; suppressed and baselined findings are not shown; on a
 * member key the format defines, its type and description from RS's
 * mcp-description.schema.json (after the findings, if any). In a rule file:
 * a predicate (built-in: its synopsis; named: its definition), a rule id (its summary), a
 * protocol version. Returns 1 and fills *OUT, 0 when there is nothing to say. RS may be
 * NULL (no rule set loaded). */
int lspf_hover(const struct rule_set *rs, const char *docs_url, const struct lspf_text *t,
               enum lspf_kind k, const struct diag_list *diags, struct doc_pos pos,
               struct lspf_hover *out);
void lspf_hover_release(struct lspf_hover *h);
/* Go to definition at POS: a "$componentRef" value in a description goes to the
 * component's key (quotes included in JSON); `use: NAME` in a rule file to the named
 * predicate, in this or another rule file of the set; a `yields-to` id to that rule (a
 * "P.*" entry to every rule whose id starts with "P."). Returns n and a new array *OUT
 * (NULL when 0). */
size_t lspf_definition(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       struct doc_pos pos, struct lspf_location **out);
void lspf_locations_free(struct lspf_location *locs, size_t n);
/* Completion at POS, from the text around it (a buffer being edited often does not
 * parse): in a description (JSON or YAML), the member names RS's
 * mcp-description.schema.json defines for the object at POS, with their descriptions; in
 * a rule file or manifest, predicate names with their synopsis, the set's named
 * predicates after `use:`, members (from the loader's own tables, rule_names), protocol
 * versions after applies/versions/from/before, levels after `level:`; in a config, its
 * keys and values (config_names) and RS's rule ids as levels keys. Appends to OUT. */
void lspf_complete(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                   struct doc_pos pos, struct lspf_items *out);

/* The range a diagnostic D of the text T covers, as published (lsp_value_end: the value
 * at D's position, a string with its quotes, a bracketed value to its closing bracket
 * within 4 KiB), so that hover answers wherever the editor underlines; empty at D's
 * position when it has none. */
struct lspf_range lspf_diag_range(const struct lspf_text *t, const struct diag *d);

#endif
