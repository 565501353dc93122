/* lsp_features_placeholder.c - replaced by lsp_features.c on merge. A minimal stand-in
 * for the feature functions of lsp_features.h (branch h19feat writes them), so that the
 * server links and its plumbing is tested: documents are classified by path and by the
 * mcpDescription member; lint, hover, definition and completion give nothing. */
#include "lsp/lsp_features.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "core/judge.h"

/* The base name of PATH. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* Does the top level of T look like an object with an mcpDescription member? (The
 * member's name in the first 4096 bytes, quoted or as a YAML key at the start of a
 * line.) */
static int has_member(const struct lspf_text *t)
{
    size_t n = t->len < 4096 ? t->len : 4096;
    const char *m = JUDGE_DESCRIPTION_MEMBER;
    size_t k = strlen(m);
    for (size_t i = 0; i + k <= n; i++) {
        if (memcmp(t->text + i, m, k)) continue;
        if (i > 0 && t->text[i - 1] == '"' && i + k < n && t->text[i + k] == '"') return 1;
        if ((i == 0 || t->text[i - 1] == '\n') && i + k < n && t->text[i + k] == ':') return 1;
    }
    return 0;
}

enum lspf_kind lspf_classify(const struct lspf_text *t)
{
    if (t->path) {
        const char *b = base_name(t->path);
        if (!strcmp(b, "manifest.yaml")) return LSPF_MANIFEST;
        if (!strcmp(b, ".mcpdesc.yaml") || !strcmp(b, ".mcpdesc.yml")) return LSPF_CONFIG;
        if (ends_with(b, ".yaml")) {
            char *m = xasprintf("%.*smanifest.yaml", (int)(b - t->path), t->path);
            struct stat st;
            int in_set = stat(m, &st) == 0;
            free(m);
            if (in_set) return LSPF_RULES;
        }
    }
    return t->text && has_member(t) ? LSPF_DESCRIPTION : LSPF_OTHER;
}

void lspf_lint(const struct lspf_text *t, enum lspf_kind k, struct diag_list *out) {}

int lspf_hover(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
               const struct diag_list *diags, struct doc_pos pos, struct lspf_hover *out)
{
    return 0;
}

void lspf_hover_release(struct lspf_hover *h)
{
    free(h->markdown);
    h->markdown = NULL;
}

size_t lspf_definition(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       struct doc_pos pos, struct lspf_location **out)
{
    *out = NULL;
    return 0;
}

void lspf_locations_free(struct lspf_location *locs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(locs[i].path);
    free(locs);
}

void lspf_complete(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                   struct doc_pos pos, struct lspf_items *out)
{
}

void lspf_items_release(struct lspf_items *items)
{
    for (size_t i = 0; i < items->len; i++) {
        free(items->items[i].label);
        free(items->items[i].detail);
        free(items->items[i].documentation);
        free(items->items[i].insert_text);
    }
    free(items->items);
    memset(items, 0, sizeof *items);
}
