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

/* by path: manifest.yaml; a .yaml listed by a manifest.yaml in its directory; .mcpdesc.yaml; else by content: JSON or YAML whose top level is an object with an mcpDescription member → LSPF_DESCRIPTION; else LSPF_OTHER */
/* (.mcpdesc.yml is a config too, as docs/config.md says; .yml rule files count as .yaml
 * ones; a text that does not parse is a description when it names the member where a
 * description has it, so that its parse error is published rather than nothing.) */
enum lspf_kind lspf_classify(const struct lspf_text *t);
/* rule file / manifest / config diagnostics for the buffer's text (not the file on disk): what `mcpdesc rules lint` reports for the rule set the file belongs to (with this buffer in place of the file), or what the config loader reports for a config. Appends diags with file = t->path, 1-based line/col in code points, level, message, hint. Must be correct for an unsaved buffer: find a way to lint with the buffer overlaid (e.g. an overlay hook in the loader's file reading, or copying the set to a temp dir — prefer the clean way and say why) */
/* (The buffer is overlaid through struct rule_overlay of core/rule.h: the loader and lint
 * read it wherever they would read the file. A rule file whose manifest has errors gets
 * one warning at 1:1 naming the first, since its rules were not compiled.) */
void lspf_lint(const struct lspf_text *t, enum lspf_kind k, struct diag_list *out);
/* hover at POS. In a description: a finding of DIAGS whose range covers POS → Markdown with the rule id, level, the requirement (rule_str(r,"requirement")), the protocol versions concerned, the summary, and a link to the rule page only when rule_set_docs_url(rs) is set; several findings at one place: all of them. In a rule file: on a predicate name (built-in: its synopsis — find where built-in predicates are defined: src/core/fn_table.c; named: its definition text), on a rule id (its summary), on a protocol version. Returns 1 and fills *out, 0 when nothing. RS may be NULL (no rule set loaded). */
/* (A finding is "**ID** · LEVEL (must)\n\nMESSAGE\n\nRequirement: ...\n\nProtocol versions:
 * V, W\n\nSUMMARY\n\n[Rule page](URL)", each part left out when unknown; several are
 * joined by "\n\n---\n\n"; suppressed and baselined findings are not shown. Its range is
 * lspf_diag_range's. In a rule file the range is the word's.) */
int lspf_hover(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
               const struct diag_list *diags, struct doc_pos pos, struct lspf_hover *out);
void lspf_hover_release(struct lspf_hover *h);
/* go to definition at POS: on a "$componentRef" value in a description → the component it names (its key position, or value range; read src/core/res.h for how components resolve, per MCP Description spec /work/shared/spec/mcp-description.md); on a `use: NAME` in a rule file → the named predicate's definition (possibly in another rule file of the set: read that file from disk, or the set's loaded metadata); on a `yields-to` id → that rule. Returns n and a new array *out (NULL when 0). */
/* (The component's key token, quotes included in JSON; a `yields-to` prefix "P.*" gives
 * every rule of the set's files whose id starts with "P.", at its id's value.) */
size_t lspf_definition(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       struct doc_pos pos, struct lspf_location **out);
void lspf_locations_free(struct lspf_location *locs, size_t n);
/* completion at POS in a rule file or manifest: predicate names (built-in with synopsis as detail and documentation; the set's named predicates for `use:`), rule members (id, level, applies, check, examples, … — the ones the loader accepts: take them from the loader's table, never a second copy that can fall behind), protocol versions (from rule_set_versions or the manifest) after `applies`/`versions`/`from`/`before`, levels after `level:`. The buffer may be mid-edit and not parse: work from the text around POS (the line, its indentation, the keys of the enclosing mappings) rather than requiring a parse. Appends items. */
/* (Also in a config file (LSPF_CONFIG): its keys, an override's and a suppression's keys,
 * the values of preset, fail-on, format and of a levels entry, from the config reader's
 * tables (config_names); RS's rule ids as levels keys. Keys are inserted as "KEY: ".) */
void lspf_complete(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                   struct doc_pos pos, struct lspf_items *out);

/* The range a diagnostic D of the text T covers (added for the server, so that published
 * ranges and hover agree): the token at D's position (a string with its quotes, a number,
 * a literal, a plain YAML scalar, or one character for '{' and '['); empty at D's position
 * when it has none. */
struct lspf_range lspf_diag_range(const struct lspf_text *t, const struct diag *d);

#endif
