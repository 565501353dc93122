/* rule_change.c - what makes a rule a change rule (mcpdesc diff; rules-yaml/README.md,
 * "Change rules"): its `compare` (the collection whose items it judges in pairs, or
 * "document") and `category`, its {old: SEL} and {new: SEL} selectors, and the check
 * that a change rule and an ordinary one each use only what their judging gives them:
 * a pair for the one, one document (or a session) for the other. */
#include <string.h>

#include "base/util.h"
#include "resolve/sel.h"
#include "rules/ruleInt.h"
#include "rules/rule_lang.h"

/* ORDER rule_category */
const char *const rule_category_names[] = {"caller", "output",     "protocol",
                                           "trust",  "compatible", NULL};

const char *rule_category_name(enum rule_category c)
{
    return c == RULE_CATEGORY_NONE ? NULL : rule_category_names[c - 1];
}

int rule_category_parse(const char *name, enum rule_category *out)
{
    for (size_t i = 0; name && rule_category_names[i]; i++)
        if (!strcmp(name, rule_category_names[i])) {
            *out = (enum rule_category)(i + 1);
            return 0;
        }
    return -1;
}

/* Does the set (or a base it extends) declare the collection NAME? */
static int known_collection(const struct rule_set *rs, const char *name)
{
    for (; rs; rs = rs->base)
        for (size_t i = 0; i < rs->collections.len; i++)
            if (!strcmp(rs->collections.items[i], name)) return 1;
    return 0;
}

int rule_cc_compare_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule *r = w->out; /* a rule_build starts with its rule */
    if (!w->m.v) return 0;
    const char *name = json_string_value(w->m.v);
    if (!name || (strcmp(name, "document") && !known_collection(cc->rs, name))) {
        rule_cc_error_hint(cc, w->m.n, 0,
                           "write compare: tools (or another collection the manifest's "
                           "document.collections lists, e.g. prompts, resources, "
                           "resourceTemplates), or compare: document",
                           "compare names the items a change rule judges in pairs: a collection "
                           "of the document or \"document\", not %s%s%s",
                           name ? "\"" : "a ", name ? name : rule_json_type_name(w->m.v),
                           name ? "\"" : "");
        return -1;
    }
    r->compare = xstrdup(name);
    return 0;
}

int rule_cc_category_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule *r = w->out;
    if (!w->m.v) return 0;
    const char *name = json_string_value(w->m.v);
    if (rule_category_parse(name, &r->category) == 0) return 0;
    const char *near = name ? rule_cc_nearest(name, rule_category_names) : NULL;
    rule_cc_error_hint(cc, w->m.n, 0,
                       "write caller, output, protocol, trust or compatible "
                       "(rules-yaml/README.md, \"Change rules\")",
                       "category must be caller, output, protocol, trust or compatible, not "
                       "%s%s%s%s%s%s",
                       name ? "\"" : "a ", name ? name : rule_json_type_name(w->m.v),
                       name ? "\"" : "", near ? ": did you mean \"" : "", near ? near : "",
                       near ? "\"?" : "");
    return -1;
}

struct sel *rule_cc_sel_any(struct cc *cc, struct yv y, int *session, int *side)
{
    *session = 0;
    *side = RULE_SIDE_NONE;
    if (!json_is_object(y.v)) return rule_cc_sel(cc, y);
    struct yv o = rule_yv_member(cc, y, "old"), n = rule_yv_member(cc, y, "new");
    if (json_object_size(y.v) == 1 && (o.v || n.v)) {
        *side = o.v ? RULE_SIDE_OLD : RULE_SIDE_NEW;
        struct yv s = o.v ? o : n;
        if (json_is_string(s.v) && !json_string_length(s.v)) return sel_self(); /* the item */
        return rule_cc_sel(cc, s);
    }
    return rule_cc_sel_or_session(cc, y, session);
}

/* The predicates that read the pair whatever their selectors (fn_pair.c). */
static int pair_predicate(const struct pred *p)
{
    static const char *const names[] = {"paired", "counterpart", "unchanged", "no-schema-change",
                                        NULL};
    for (size_t i = 0; p->fn && names[i]; i++)
        if (!strcmp(p->fn->name, names[i])) return 1;
    return 0;
}

int rule_pred_uses_pair(const struct pred *p)
{
    if (!p) return 0;
    if (p->side || pair_predicate(p)) return 1;
    for (size_t i = 0; i < p->nkids; i++)
        if (rule_pred_uses_pair(p->kids[i])) return 1;
    return rule_pred_uses_pair(p->body);
}

int rule_clause_uses_pair(const struct clause *c)
{
    if (!c) return 0;
    if (c->sel_sides || rule_pred_uses_pair(c->when) || rule_pred_uses_pair(c->require)) return 1;
    for (size_t i = 0; i < c->nkids; i++)
        if (rule_clause_uses_pair(c->kids[i])) return 1;
    return 0;
}

static int clause_uses_texts(const struct clause *c)
{
    if (c->texts) return 1;
    for (size_t i = 0; i < c->nkids; i++)
        if (clause_uses_texts(c->kids[i])) return 1;
    return 0;
}

int rule_cc_check_change(struct cc *cc, struct yv y, struct rule *r)
{
    size_t before = cc->errs->len;
    struct yv compare = rule_yv_member(cc, y, "compare"),
              category = rule_yv_member(cc, y, "category");
    struct yv check = rule_yv_member(cc, y, "check");
    if (compare.v && !category.v)
        rule_cc_error_hint(cc, compare.n, 1,
                           "add category: caller, output, protocol, trust or compatible",
                           "a change rule (with \"compare\") needs a \"category\": what the "
                           "change means to whom");
    if (category.v && !compare.v)
        rule_cc_error_hint(cc, category.n, 1,
                           "add compare: tools (the items judged in pairs), or remove category",
                           "\"category\" belongs to a change rule, which has \"compare\"");
    if (!r->check) return cc->errs->len > before ? -1 : 0;
    if (compare.v && r->session)
        rule_cc_error(cc, check.n, 1,
                      "a change rule compares two versions of one description; a session "
                      "selector ({session: SEL}) belongs to a session rule");
    if (compare.v && clause_uses_texts(r->check))
        rule_cc_error_hint(cc, check.n, 1,
                           "select the texts by their selectors (description, "
                           "inputSchema/properties/*/description)",
                           "a change rule selects with selectors; {texts: ...} judges one "
                           "document");
    if (!compare.v && rule_clause_uses_pair(r->check))
        rule_cc_error_hint(cc, check.n, 1,
                           "add compare: tools (or the collection it judges) and a category: "
                           "the rule then judges pairs in mcpdesc diff",
                           "{old: SEL}, {new: SEL}, paired, counterpart, unchanged and "
                           "no-schema-change read a pair of items: they belong to a change "
                           "rule");
    return cc->errs->len > before ? -1 : 0;
}
