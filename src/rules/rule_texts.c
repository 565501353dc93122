/* rule_texts.c - where the texts a client shows a model are, as data: the manifest's
 * `texts:` member compiled into a struct texts_spec (resolve/texts.h), its tables
 * (rule_lang.h); a clause's `select: {texts: item | document}` is rule_compile.c's
 * (rules-yaml/README.md, "Texts"). A set that extends another and declares no `texts:`
 * judges with its base's (rule_set_texts); one that declares it replaces the base's. */
#include <string.h>

#include "rules/ruleInt.h"

/* The kind a plain entry names: its selector's or member's last segment that is not a
 * wildcard ("annotations/title": title). */
static char *default_kind(const char *text)
{
    const char *best = text, *p = text;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n && strncmp(p, "*", n) && strncmp(p, SEL_ITEMS, n) && strncmp(p, "**", n)) best = p;
        p += n + (slash ? 1 : 0);
    }
    return xstrndup(best, strcspn(best, "/"));
}

/* One entry of a list: SELECTOR or {select: SELECTOR, kind: KIND} (MEMBER_FORM: MEMBER
 * or {member: MEMBER, kind: KIND}). 0, or -1 after reporting. */
static int entry(struct cc *cc, struct yv e, int member_form, struct texts_entry *out)
{
    const char *what = member_form ? "member" : "select";
    memset(out, 0, sizeof *out);
    struct yv target = e, kind = {NULL, DOC_NONE};
    if (json_is_object(e.v)) {
        const char *k;
        json_t *v;
        json_object_foreach(e.v, k, v) if (strcmp(k, what) && strcmp(k, "kind"))
        {
            rule_cc_error_hint(cc, rule_yv_member(cc, e, k).n, 1,
                               member_form ? "write NAME or {member: NAME, kind: KIND}"
                                           : "write SELECTOR or {select: SELECTOR, kind: KIND}",
                               "unknown member \"%s\" in a texts entry (known: %s, kind)", k, what);
            return -1;
        }
        target = rule_yv_member(cc, e, what);
        kind = rule_yv_member(cc, e, "kind");
        if (!target.v) {
            rule_cc_error(cc, e.n, 0, "a texts entry needs \"%s\"", what);
            return -1;
        }
        if (kind.v && (!json_is_string(kind.v) || !*json_string_value(kind.v))) {
            rule_cc_error(cc, kind.n, 0, "\"kind\" of a texts entry must be a non-empty string");
            return -1;
        }
    }
    if (!json_is_string(target.v) || !*json_string_value(target.v)) {
        rule_cc_error_hint(cc, target.n, 0,
                           member_form ? "write NAME or {member: NAME, kind: KIND}"
                                       : "write SELECTOR or {select: SELECTOR, kind: KIND}",
                           "a texts entry is a %s or a mapping, not a %s",
                           member_form ? "member name" : "selector", rule_json_type_name(target.v));
        return -1;
    }
    const char *text = json_string_value(target.v);
    if (member_form) {
        out->member = xstrdup(text);
    } else {
        if (text[0] == '/') {
            rule_cc_error_hint(cc, target.n, 0,
                               "drop the leading /: tools/[*]/description is "
                               "written description under item: tools:",
                               "a texts selector is relative (to the item or the document), not "
                               "\"%s\"",
                               text);
            return -1;
        }
        if (!(out->sel = rule_cc_sel(cc, target))) return -1;
    }
    out->kind = kind.v ? xstrdup(json_string_value(kind.v)) : default_kind(text);
    return 0;
}

/* A list of entries (Y) into OUT. */
static int entries(struct cc *cc, struct yv y, const char *where, int member_form,
                   texts_entries *out)
{
    if (!json_is_array(y.v)) {
        rule_cc_error(cc, y.n, 0, "%s takes a list of texts entries, not a %s", where,
                      rule_json_type_name(y.v));
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct texts_entry e;
        if (entry(cc, rule_yv_item(cc, y, i), member_form, &e) < 0) bad = 1;
        else VEC_PUSH(*out, e);
    }
    return bad ? -1 : 0;
}

static int texts_item(struct cc *cc, struct rule_lang_walk *w)
{
    struct texts_spec *spec = w->out;
    if (!json_is_object(w->m.v)) {
        rule_cc_error(cc, w->m.n, 0,
                      "texts: \"item\" maps each item collection (tools, prompts, ...) to its "
                      "texts, not a %s",
                      rule_json_type_name(w->m.v));
        return -1;
    }
    int bad = 0;
    const char *name;
    json_t *v;
    json_object_foreach(w->m.v, name, v)
    {
        struct texts_coll coll = {xstrdup(name), VEC_INIT};
        char *where = xasprintf("texts: item: %s", name);
        if (entries(cc, rule_yv_member(cc, w->m, name), where, 0, &coll.entries) < 0) bad = 1;
        free(where);
        VEC_PUSH(spec->item, coll);
    }
    return bad ? -1 : 0;
}

static int texts_document(struct cc *cc, struct rule_lang_walk *w)
{
    struct texts_spec *spec = w->out;
    return entries(cc, w->m, "texts: document", 0, &spec->document);
}

static int texts_schema(struct cc *cc, struct rule_lang_walk *w)
{
    if (!json_is_object(w->m.v)) {
        rule_cc_error(cc, w->m.n, 0,
                      "texts: \"schema\" is a mapping (roots, values, keys, skip), not a %s",
                      rule_json_type_name(w->m.v));
        return -1;
    }
    return rule_cc_members(cc, w->m, &rule_texts_lang_schema, "texts: \"schema\"", w->out);
}

static int schema_roots(struct cc *cc, struct rule_lang_walk *w)
{
    struct texts_spec *spec = w->out;
    int bad = 0;
    for (size_t i = 0; i < json_array_size(w->m.v); i++) {
        struct sel *s = rule_cc_sel(cc, rule_yv_item(cc, w->m, i));
        if (s) VEC_PUSH(spec->roots, s);
        else bad = 1;
    }
    return bad ? -1 : 0;
}

static int schema_values(struct cc *cc, struct rule_lang_walk *w)
{
    struct texts_spec *spec = w->out;
    return entries(cc, w->m, "texts: schema: values", 1, &spec->values);
}

static int schema_keys(struct cc *cc, struct rule_lang_walk *w)
{
    struct texts_spec *spec = w->out;
    return entries(cc, w->m, "texts: schema: keys", 1, &spec->keys);
}

static int schema_skip(struct cc *cc, struct rule_lang_walk *w)
{
    (void)cc;
    struct texts_spec *spec = w->out;
    for (size_t i = 0; i < json_array_size(w->m.v); i++)
        if (json_is_string(json_array_get(w->m.v, i)))
            VEC_PUSH(spec->skip, xstrdup(json_string_value(json_array_get(w->m.v, i))));
    return 0;
}

static const struct rule_lang_member texts_members[] = {
    {"item", RULE_LANG_ANY, 0,
     "per item collection (tools, prompts, ...), its texts: relative selectors, each SELECTOR or "
     "{select: SELECTOR, kind: KIND}",
     NULL, NULL, texts_item, 0},
    {"document", RULE_LANG_ANY, 0,
     "the document's texts: selectors from the root, each SELECTOR or {select, kind}", NULL, NULL,
     texts_document, 0},
    {"schema", RULE_LANG_MAPPING, 0,
     "the texts inside an item's schemas: roots, values, keys, skip", &rule_texts_lang_schema, NULL,
     texts_schema, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_texts_lang = {
    "texts", RULE_NAMES_TEXTS, "manifest.schema.json#/$defs/Texts", texts_members, NULL};

static const struct rule_lang_member texts_schema_members[] = {
    {"roots", RULE_LANG_STRINGS, 0, "the schemas of an item, as selectors relative to it", NULL,
     NULL, schema_roots, 0},
    {"values", RULE_LANG_ANY, 0,
     "members whose string leaves are texts (title, enum, default, ...): NAME or {member, kind}",
     NULL, NULL, schema_values, 0},
    {"keys", RULE_LANG_ANY, 0,
     "members whose member names are texts (properties, $defs, ...): NAME or {member, kind}", NULL,
     NULL, schema_keys, 0},
    {"skip", RULE_LANG_STRINGS, 0, "members the walk of a schema does not enter (_meta)", NULL,
     NULL, schema_skip, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_texts_lang_schema = {"texts-schema", RULE_NAMES_TEXTS_SCHEMA,
                                                     "manifest.schema.json#/$defs/TextsSchema",
                                                     texts_schema_members, NULL};

void rule_texts_load(struct cc *cc, struct yv y)
{
    if (!y.v) return;
    if (!json_is_object(y.v)) {
        rule_cc_error(cc, y.n, 0,
                      "\"texts\" is a mapping (item, document, schema): where the texts a client "
                      "shows a model are, not a %s",
                      rule_json_type_name(y.v));
        return;
    }
    struct texts_spec *spec = texts_spec_new();
    rule_cc_members(cc, y, &rule_texts_lang, "\"texts\"", spec);
    texts_spec_free(cc->rs->texts);
    cc->rs->texts = spec;
}
