/* lsp_features_complete.c - completion in rule files, manifests and configs (lspf_complete;
 * in a description it is lsp_features_describe.c's, from the format's schema), from the
 * context of the position (lsp_features_context.c: the buffer is often mid-edit and does
 * not parse). What is offered comes from the loader's own tables (the rule language's,
 * rules/rule_lang.h: names, docs and what each member holds; rules/fn.h), the set's
 * manifest and its named predicates. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "findings/config.h"
#include "rules/fn.h"
#include "rules/rule_lang.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_featuresInt.h"

static int eq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* ---- completion ------------------------------------------------------------------------ */

static void add_item(struct lspf_items *out, const char *label, enum lspf_item_kind kind,
                     const char *detail, const char *docs, char *insert)
{
    if (out->len == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->items = xrealloc(out->items, out->cap * sizeof *out->items);
    }
    struct lspf_item *it = &out->items[out->len++];
    it->label = xstrdup(label);
    it->kind = kind;
    it->detail = detail ? xstrdup(detail) : NULL;
    it->documentation = docs ? xstrdup(docs) : NULL;
    it->insert_text = insert;
}

static void add_names(struct lspf_items *out, const char *const *names, enum lspf_item_kind kind,
                      int as_key)
{
    for (; names && *names; names++)
        add_item(out, *names, kind, NULL, NULL, as_key ? xasprintf("%s: ", *names) : NULL);
}

/* The members of a mapping of the rule language, each with its one-line doc. */
static void add_members(struct lspf_items *out, const struct rule_lang_map *map)
{
    for (const struct rule_lang_member *m = map->members; m->name; m++)
        add_item(out, m->name, LSPF_ITEM_PROPERTY, NULL, m->doc, xasprintf("%s: ", m->name));
}

static void add_predicates(struct lspf_items *out)
{
    for (size_t i = 0; i < fn_predicate_count(); i++) {
        const char *name = fn_predicate_name(i);
        char *docs =
            xasprintf("`%s: %s`\n\n%s", name, fn_predicate_synopsis(i), fn_predicate_doc(i));
        add_item(out, name, LSPF_ITEM_FUNCTION, fn_predicate_synopsis(i), docs,
                 xasprintf("%s: ", name));
        free(docs);
    }
}

static void add_versions(const struct rule_set *rs, const struct lspf_text *t,
                         struct lspf_items *out, int with_all)
{
    size_t nf, nv;
    char **vers;
    char **files = lspf_set_files(t, &nf, &vers, &nv);
    lspf_strings_free(files, nf);
    if (with_all)
        add_item(out, "all", LSPF_ITEM_KEYWORD, "every known protocol version", NULL, NULL);
    if (nv) {
        for (size_t i = 0; i < nv; i++)
            add_item(out, vers[i], LSPF_ITEM_VALUE, "MCP protocol version", NULL, NULL);
    } else if (rs) {
        const struct ver_list *vl = rule_set_versions(rs);
        for (size_t i = 0; i < vl->n; i++)
            add_item(out, vl->names[i], LSPF_ITEM_VALUE, "MCP protocol version", NULL, NULL);
    }
    lspf_strings_free(vers, nv);
}

static void add_named(const struct lspf_text *t, struct lspf_items *out)
{
    size_t n;
    char **names = lspf_named_names(t, &n);
    for (size_t i = 0; i < n; i++) {
        struct lspf_location loc;
        char *def = NULL;
        char *docs = NULL;
        if (lspf_find_named(t, names[i], &loc, &def)) {
            docs = xasprintf("```yaml\n%s```", def);
            free(loc.path);
            free(def);
        }
        add_item(out, names[i], LSPF_ITEM_FUNCTION, "named predicate", docs, NULL);
        free(docs);
    }
    lspf_strings_free(names, n);
}

static const char *const level_details[] = {"error", "warning", "info"};

/* A config file: its keys, the keys of an override or a suppression, the values of
 * preset, fail-on, format and of a levels entry, and the rule ids of RS as levels keys. */
static void complete_config(const struct rule_set *rs, const struct lspf_context *cx,
                            struct lspf_items *out)
{
    const struct lspf_frame *in = cx->nframes ? &cx->frames[cx->nframes - 1] : NULL;
    const char *parent = cx->nframes >= 2 ? cx->frames[cx->nframes - 2].key : NULL;
    const char *key = cx->slot == LSPF_SLOT_VALUE ? cx->key
        : cx->slot == LSPF_SLOT_ITEM && in        ? in->key
                                                  : NULL;
    if (key) {
        if (eq(key, "preset"))
            add_names(out, config_names(CONFIG_NAMES_PRESET), LSPF_ITEM_VALUE, 0);
        else if (eq(key, "fail-on"))
            add_names(out, config_names(CONFIG_NAMES_FAIL_ON), LSPF_ITEM_VALUE, 0);
        else if (eq(key, "format"))
            add_names(out, config_names(CONFIG_NAMES_FORMAT), LSPF_ITEM_VALUE, 0);
        else if (cx->slot == LSPF_SLOT_VALUE && in && eq(in->key, "levels"))
            add_names(out, config_names(CONFIG_NAMES_LEVEL), LSPF_ITEM_VALUE, 0);
        return;
    }
    if (cx->slot != LSPF_SLOT_KEY || !in || in->kind != LSPF_FRAME_MAP) return;
    if (cx->nframes == 1) {
        add_names(out, config_names(CONFIG_NAMES_TOP), LSPF_ITEM_PROPERTY, 1);
    } else if (!in->key && (eq(parent, "overrides") || eq(parent, "suppress"))) {
        add_names(
            out,
            config_names(eq(parent, "overrides") ? CONFIG_NAMES_OVERRIDE : CONFIG_NAMES_SUPPRESS),
            LSPF_ITEM_PROPERTY, 1);
    } else if (eq(in->key, "levels") && rs) {
        for (size_t i = 0; i < rule_set_count(rs); i++)
            add_item(out, rule_id(rule_set_rule(rs, i)), LSPF_ITEM_VALUE,
                     rule_str(rule_set_rule(rs, i), "summary"), NULL,
                     xasprintf("%s: ", rule_id(rule_set_rule(rs, i))));
    }
}

void lspf_complete(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                   struct doc_pos pos, struct lspf_items *out)
{
    if (k == LSPF_DESCRIPTION) {
        lspf_describe_complete(rs, t, pos, out);
        return;
    }
    if (k != LSPF_RULES && k != LSPF_MANIFEST && k != LSPF_CONFIG) return;
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    struct lspf_context cx;
    lspf_context_at(&ls, pos, &cx);
    if (k == LSPF_CONFIG) {
        complete_config(rs, &cx, out);
        lspf_context_release(&cx);
        lspf_lines_release(&ls);
        return;
    }
    int cls = lspf_context_class(&cx, k);
    const char *key = cx.slot == LSPF_SLOT_VALUE ? cx.key
        : cx.slot == LSPF_SLOT_ITEM              ? cx.frames[cx.nframes - 1].key
                                                 : NULL;
    if (cx.slot == LSPF_SLOT_KEY && cx.nframes >= 2 &&
        cx.frames[cx.nframes - 1].kind == LSPF_FRAME_MAP && !cx.frames[cx.nframes - 1].key &&
        cls == LSPF_CX_UNKNOWN) {
        /* "- word" in a sequence of scalars (applies: [..] written as a block) */
        const struct lspf_frame *seq = &cx.frames[cx.nframes - 2];
        if (seq->kind == LSPF_FRAME_SEQ) key = seq->key;
    }
    if (key) {
        if (eq(key, "use")) add_named(t, out);
        else if (eq(key, "applies") || eq(key, "versions") || eq(key, "from") || eq(key, "before"))
            add_versions(rs, t, out,
                         cx.slot == LSPF_SLOT_VALUE && (eq(key, "applies") || eq(key, "versions")));
        else if (eq(key, "level") && k == LSPF_RULES) {
            const char *const *names = rule_names(RULE_NAMES_LEVEL);
            for (size_t i = 0; names[i]; i++)
                add_item(out, names[i], LSPF_ITEM_VALUE, i < 3 ? level_details[i] : NULL, NULL,
                         NULL);
        } else if (eq(key, "expect")) {
            add_names(out, rule_names(RULE_NAMES_EXPECT), LSPF_ITEM_VALUE, 0);
        } else if (eq(key, "report-at")) {
            add_names(out, rule_names(RULE_NAMES_REPORT_AT), LSPF_ITEM_VALUE, 0);
        } else if (eq(key, "yields-to") && rs) {
            for (size_t i = 0; i < rule_set_count(rs); i++)
                add_item(out, rule_id(rule_set_rule(rs, i)), LSPF_ITEM_VALUE,
                         rule_str(rule_set_rule(rs, i), "summary"), NULL, NULL);
        }
    } else if (cx.slot == LSPF_SLOT_KEY) {
        if (cls == LSPF_CX_PREDICATE) add_predicates(out);
        else if (cls >= 0 && cls < LSPF_CX_PREDICATE && rule_lang_map_of((enum rule_names)cls))
            add_members(out, rule_lang_map_of((enum rule_names)cls));
    }
    lspf_context_release(&cx);
    lspf_lines_release(&ls);
}
