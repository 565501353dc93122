/* lsp_features_nav.c - hover (lspf_hover: a description's findings, with the rule's
 * requirement, versions, level, summary and page; in a rule file a predicate, a named
 * predicate, a rule id or a protocol version) and go to definition (lspf_definition: the
 * component a $componentRef names, the named predicate of a `use:`, the rules a
 * `yields-to` entry names). */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/util.h"
#include "rules/fn.h"
#include "resolve/res.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_featuresInt.h"

static int pos_before(struct doc_pos a, struct doc_pos b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* Does R cover POS (end exclusive)? */
static int covers(struct lspf_range r, struct doc_pos pos)
{
    return !pos_before(pos, r.start) && pos_before(pos, r.end);
}

struct lspf_range lspf_diag_range(const struct lspf_text *t, const struct diag *d)
{
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    struct lspf_range r = lspf_value_range(&ls, (struct doc_pos){d->line, d->col});
    lspf_lines_release(&ls);
    return r;
}

/* ---- hover on findings ------------------------------------------------------------------- */

static const char *builtin_summary(const char *id)
{
    for (size_t i = 0; id && i < res_nbuiltins; i++)
        if (!strcmp(res_builtins[i].id, id)) return res_builtins[i].summary;
    return NULL;
}

static void finding_markdown(struct buf *b, const struct rule_set *rs, const char *docs_url,
                             const struct diag *d)
{
    const struct rule *r = rs && d->rule ? rule_set_find(rs, d->rule) : NULL;
    if (d->rule) buf_addf(b, "**%s** · %s", d->rule, diag_level_name(d->level));
    else buf_addf(b, "**%s**", diag_level_name(d->level));
    const char *req_level = r ? rule_str(r, "level") : NULL;
    if (req_level) buf_addf(b, " (%s)", req_level);
    buf_addf(b, "\n\n%s", d->message ? d->message : "");
    const char *req = r ? rule_str(r, "requirement") : NULL;
    if (req) buf_addf(b, "\n\nRequirement: %s", req);
    if (rs && d->versions) {
        buf_adds(b, "\n\nProtocol versions: ");
        ver_format(b, rule_set_versions(rs), d->versions, ", ");
    }
    const char *summary = r ? rule_str(r, "summary") : builtin_summary(d->rule);
    if (summary) buf_addf(b, "\n\n%s", summary);
    char *page = rule_page_url(docs_url, d->rule);
    if (page) buf_addf(b, "\n\n[Rule page](%s)", page);
    free(page);
}

static int hover_findings(const struct rule_set *rs, const char *docs_url,
                          const struct lspf_lines *ls, const struct diag_list *diags,
                          struct doc_pos pos, struct lspf_hover *out)
{
    struct buf b = BUF_INIT;
    int n = 0;
    for (size_t i = 0; diags && i < diags->len; i++) {
        const struct diag *d = &diags->items[i];
        if (!d->line || !d->col || diag_hidden(d)) continue;
        struct lspf_range r = lspf_value_range(ls, (struct doc_pos){d->line, d->col});
        if (!covers(r, pos)) continue;
        if (n++) buf_adds(&b, "\n\n---\n\n");
        else out->range = r;
        finding_markdown(&b, rs, docs_url, d);
    }
    if (!n) return 0;
    out->markdown = buf_detach(&b);
    return 1;
}

/* ---- hover in rule files ------------------------------------------------------------------- */

static int predicate_index(const char *name)
{
    for (size_t i = 0; i < fn_predicate_count(); i++)
        if (!strcmp(fn_predicate_name(i), name)) return (int)i;
    return -1;
}

/* The versions of T's set (its manifest), else RS's: index of WORD and how many. */
static int version_index(const struct rule_set *rs, const struct lspf_text *t, const char *word,
                         size_t *count)
{
    size_t nf, nv;
    char **vers;
    char **files = lspf_set_files(t, &nf, &vers, &nv);
    lspf_strings_free(files, nf);
    int at = -1;
    *count = nv;
    for (size_t i = 0; i < nv; i++)
        if (!strcmp(vers[i], word)) at = (int)i;
    lspf_strings_free(vers, nv);
    if (!nv && rs) {
        *count = rule_set_versions(rs)->n;
        at = ver_index(rule_set_versions(rs), word);
    }
    return at;
}

/* The summary of rule ID: from RS, else from the rule files of T's set as its partial
 * program parsed them (a rule it refused too). */
static char *rule_summary(const struct rule_set *rs, const struct lspf_text *t, const char *id)
{
    const struct rule *r = rs ? rule_set_find(rs, id) : NULL;
    if (r) return rule_str(r, "summary") ? xstrdup(rule_str(r, "summary")) : NULL;
    struct rule_set *program = lspf_program(t);
    char *out = NULL;
    for (size_t i = 0; program && i < rule_set_file_count(program) && !out; i++) {
        const doc *d = rule_set_file_doc(program, i);
        json_t *rules = d ? json_object_get(doc_root(d), "rules") : NULL;
        for (size_t k = 0; k < json_array_size(rules) && !out; k++) {
            json_t *rule = json_array_get(rules, k);
            const char *rid = json_string_value(json_object_get(rule, "id"));
            const char *sum = json_string_value(json_object_get(rule, "summary"));
            if (rid && sum && !strcmp(rid, id)) out = xstrdup(sum);
        }
    }
    rule_set_free(program);
    return out;
}

static int hover_rules(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       const struct lspf_lines *ls, struct doc_pos pos, struct lspf_hover *out)
{
    struct lspf_range wr;
    char *word = lspf_word_at(ls, pos, &wr);
    if (!word) return 0;
    struct lspf_context cx;
    lspf_context_at(ls, wr.start, &cx);
    int cls = lspf_context_class(&cx, k);
    struct buf b = BUF_INIT;
    int pi = predicate_index(word);
    size_t nvers = 0;
    int vi;
    if (cx.slot == LSPF_SLOT_VALUE && cx.key && !strcmp(cx.key, "use")) {
        struct lspf_location loc;
        char *def;
        if (lspf_find_named(t, word, &loc, &def)) {
            struct buf at = BUF_INIT;
            loc_add_line(&at, lspf_basename(loc.path), loc.range.start.line);
            buf_addf(&b, "**%s**: named predicate (%s)\n\n```yaml\n%s```", word, buf_str(&at), def);
            buf_release(&at);
            free(loc.path);
            free(def);
        }
    } else if (pi >= 0 && cx.slot == LSPF_SLOT_KEY && cls != RULE_NAMES_CLAUSE &&
               cls != RULE_NAMES_RULE) {
        buf_addf(&b, "**%s**: `%s`\n\n%s", word, fn_predicate_synopsis((size_t)pi),
                 fn_predicate_doc((size_t)pi));
    } else if ((vi = version_index(rs, t, word, &nvers)) >= 0) {
        buf_addf(&b,
                 "MCP protocol version **%s** (%d of the %zu versions the rule set knows, "
                 "oldest first)",
                 word, vi + 1, nvers);
    } else if (strchr(word, '.')) {
        char *summary = rule_summary(rs, t, word);
        if (summary) buf_addf(&b, "**%s**\n\n%s", word, summary);
        free(summary);
    }
    lspf_context_release(&cx);
    free(word);
    if (!b.len) return 0;
    out->markdown = buf_detach(&b);
    out->range = wr;
    return 1;
}

int lspf_hover(const struct rule_set *rs, const char *docs_url, const struct lspf_text *t,
               enum lspf_kind k, const struct diag_list *diags, struct doc_pos pos,
               struct lspf_hover *out)
{
    memset(out, 0, sizeof *out);
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    int rc = 0;
    if (k == LSPF_DESCRIPTION) {
        rc = hover_findings(rs, docs_url, &ls, diags, pos, out);
        /* on a member key: what the format says of the member, after any finding there */
        struct lspf_hover m = {0};
        if (lspf_hover_member(rs, t, pos, &m)) {
            if (rc) {
                char *both = xasprintf("%s\n\n---\n\n%s", out->markdown, m.markdown);
                free(out->markdown);
                out->markdown = both;
                lspf_hover_release(&m);
            } else {
                *out = m;
                rc = 1;
            }
        }
    } else if (k == LSPF_RULES || k == LSPF_MANIFEST) rc = hover_rules(rs, t, k, &ls, pos, out);
    lspf_lines_release(&ls);
    return rc;
}

/* ---- go to definition ---------------------------------------------------------------------- */

struct ref_search {
    const doc *d;
    const struct lspf_lines *ls;
    const char *member;
    struct doc_pos pos;
    const char *found; /* the $componentRef value under POS */
};

static void find_ref(struct ref_search *rsch, json_t *v, doc_node n, int depth)
{
    if (rsch->found || depth > 600) return;
    if (json_is_object(v)) {
        size_t i = 0;
        for (void *it = json_object_iter(v); it && !rsch->found;
             it = json_object_iter_next(v, it), i++) {
            json_t *c = json_object_iter_value(it);
            doc_node cn = doc_node_item(rsch->d, n, i);
            if (cn == DOC_NONE) continue;
            if (json_is_string(c) && !strcmp(json_object_iter_key(it), rsch->member)) {
                struct lspf_range vr = lspf_token_range(rsch->ls, doc_node_pos(rsch->d, cn));
                struct lspf_range kr = lspf_token_range(rsch->ls, doc_node_key_pos(rsch->d, cn));
                if (covers(vr, rsch->pos) || covers(kr, rsch->pos))
                    rsch->found = json_string_value(c);
                continue;
            }
            find_ref(rsch, c, cn, depth + 1);
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v) && !rsch->found; i++) {
            doc_node cn = doc_node_item(rsch->d, n, i);
            if (cn != DOC_NONE) find_ref(rsch, json_array_get(v, i), cn, depth + 1);
        }
    }
}

static size_t definition_ref(const struct rule_set *rs, const struct lspf_text *t,
                             struct doc_pos pos, struct lspf_location **out)
{
    const struct res_config *cfg = rs ? rule_set_res_config(rs) : NULL;
    const char *member = cfg && cfg->ref_member ? cfg->ref_member : "$componentRef";
    int yaml = lspf_text_is_yaml(t);
    struct doc_error err;
    doc *d = doc_load_buffer(t->path ? t->path : "<buffer>", t->text ? t->text : "",
                             t->text ? t->len : 0, yaml, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return 0;
    }
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    struct ref_search rsch = {d, &ls, member, pos, NULL};
    find_ref(&rsch, doc_root(d), 0, 0);
    size_t n = 0;
    const char *why;
    char *pointer = rsch.found ? ptr_from_fragment(rsch.found, &why) : NULL;
    struct doc_pos value, key;
    if (pointer && doc_pointer_pos(d, pointer, &value, &key) == 0) {
        *out = xcalloc(1, sizeof **out);
        (*out)->path = xstrdup(t->path ? t->path : "");
        (*out)->range = lspf_token_range(&ls, key);
        n = 1;
    }
    free(pointer);
    lspf_lines_release(&ls);
    doc_free(d);
    return n;
}

static size_t definition_rules(const struct lspf_text *t, enum lspf_kind k, struct doc_pos pos,
                               struct lspf_location **out)
{
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    struct lspf_range wr;
    char *word = lspf_word_at(&ls, pos, &wr);
    size_t n = 0;
    if (word) {
        struct lspf_context cx;
        lspf_context_at(&ls, wr.start, &cx);
        const char *seq = cx.nframes ? cx.frames[cx.nframes - 1].key : NULL;
        if (cx.slot == LSPF_SLOT_VALUE && cx.key && !strcmp(cx.key, "use")) {
            struct lspf_location loc;
            if (lspf_find_named(t, word, &loc, NULL)) {
                *out = xcalloc(1, sizeof **out);
                **out = loc;
                n = 1;
            }
        } else if ((cx.slot == LSPF_SLOT_ITEM && seq && !strcmp(seq, "yields-to")) ||
                   (cx.slot == LSPF_SLOT_KEY && cx.nframes >= 2 && cx.frames[cx.nframes - 2].key &&
                    !strcmp(cx.frames[cx.nframes - 2].key, "yields-to"))) {
            lspf_find_rules(t, word, out, &n);
        }
        lspf_context_release(&cx);
        free(word);
    }
    lspf_lines_release(&ls);
    return n;
}

size_t lspf_definition(const struct rule_set *rs, const struct lspf_text *t, enum lspf_kind k,
                       struct doc_pos pos, struct lspf_location **out)
{
    *out = NULL;
    if (k == LSPF_DESCRIPTION) return definition_ref(rs, t, pos, out);
    if (k == LSPF_RULES || k == LSPF_MANIFEST) return definition_rules(t, k, pos, out);
    return 0;
}
