/* rule_compile.c - the rule language's compiler: its positioned errors, the walker that
 * reads a mapping against its table (rule_cc_members; rule_lang.h), and the tables of a
 * rule file's mappings beside their handlers: a rule, its `check` compiled into clauses
 * and predicates (ruleInt.h), its fixes, examples, yields and preset, each as
 * rules-yaml/README.md documents it. Errors never stop a file early: a rule
 * author sees every mistake, each at its line and column. The predicate table (fn_table.c)
 * and the predicates with nested predicates call back into rule_cc_pred: the one cycle of
 * src/ (tools/deps-allow.txt). The loader (rule_set_load.c) drives it, file by file. */
#include "rules/rule.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/uri.h"
#include "base/util.h"
#include "rules/ruleInt.h"
#include "rules/rule_lang.h"
#include "schema/schema.h"

/* ---- errors and YAML access ----------------------------------------------------- */

/* Every error of the loader carries a hint (`rules lint` shows it): how to fix what its
 * message says, or at least where the rule format is described. */
static const char hint_format[] = "see rules-yaml/README.md for the rule format";
const char rule_hint_unknown_member[] =
    "remove the member or correct its spelling (the message lists the known ones)";

static void cc_verror(struct cc *cc, doc_node n, int at_key, const char *hint, const char *fmt,
                      va_list ap)
{
    struct doc_pos p = at_key ? doc_node_key_pos(cc->d, n) : doc_node_pos(cc->d, n);
    struct diag *dg = diag_vadd(cc->errs, DIAG_ERROR, doc_name(cc->d), p.line, p.col, fmt, ap);
    dg->hint = xstrdup(hint ? hint : hint_format);
}

int rule_cc_missing_dir_once(struct cc *cc, const char *dir)
{
    for (size_t i = 0; i < cc->rs->missing_dirs.len; i++)
        if (!strcmp(cc->rs->missing_dirs.items[i], dir)) return 0;
    VEC_PUSH(cc->rs->missing_dirs, xstrdup(dir));
    return 1;
}

void rule_cc_error(struct cc *cc, doc_node n, int at_key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_verror(cc, n, at_key, NULL, fmt, ap);
    va_end(ap);
}

void rule_cc_error_hint(struct cc *cc, doc_node n, int at_key, const char *hint, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_verror(cc, n, at_key, hint, fmt, ap);
    va_end(ap);
}

/* An error that is about a file or the whole set rather than a node of the rule file
 * being compiled (FILE may be any file of the set; LINE 0 when there is no position). */
void rule_cc_set_error(struct diag_list *errs, const char *file, uint32_t line, uint32_t col,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct diag *dg = diag_vadd(errs, DIAG_ERROR, file, line, col, fmt, ap);
    va_end(ap);
    dg->hint = xstrdup(hint_format);
}

/* Report the I-th member K of mapping Y, which is not in ALLOWED. */
static void unknown_member(struct cc *cc, struct yv y, size_t i, const char *k, const char *what,
                           const char *const *allowed, const char *const *prefer)
{
    const char *near = prefer ? rule_cc_nearest(k, prefer) : NULL;
    if (!near) near = rule_cc_nearest(k, allowed);
    struct buf list = BUF_INIT;
    for (const char *const *a = allowed; *a; a++)
        buf_addf(&list, "%s%s", a == allowed ? "" : ", ", *a);
    rule_cc_error_hint(cc, doc_node_item(cc->d, y.n, i), 1, rule_hint_unknown_member,
                       "unknown member \"%s\" in %s%s%s%s (known: %s)", k, what,
                       near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "",
                       buf_str(&list));
    buf_release(&list);
}

/* Y, the member KEY of PARENT as found (its value NULL when absent), as a string. */
static const char *string_member(struct cc *cc, struct yv parent, struct yv y, const char *key,
                                 const char *what, int required)
{
    if (!y.v) {
        if (required)
            rule_cc_error(cc, parent.n, 0, "%s has no \"%s\" (it is required)", what, key);
        return NULL;
    }
    if (!json_is_string(y.v)) {
        rule_cc_error(cc, y.n, 0, "\"%s\" of %s must be a string, not a %s", key, what,
                      rule_json_type_name(y.v));
        return NULL;
    }
    return json_string_value(y.v);
}

const char *rule_cc_need_string(struct cc *cc, struct yv parent, const char *key, const char *what,
                                int required)
{
    return string_member(cc, parent, rule_yv_member(cc, parent, key), key, what, required);
}

/* Whether the mapping Y has KEY, without the walk to its node that rule_yv_member makes
 * (a node is wanted only to report at). */
static int has_member(struct yv y, const char *key)
{
    return json_is_object(y.v) && json_object_get(y.v, key) != NULL;
}

/* ---- a mapping against its table (rule_lang.h) ------------------------------------ */

enum { MAX_MEMBERS = 32 };

/* MAP's member names, in table order, NULL-terminated, into NAMES (MAX_MEMBERS + 1). */
static void map_names(const struct rule_lang_map *map, const char **names)
{
    size_t n = 0;
    for (const struct rule_lang_member *m = map->members; m->name && n < MAX_MEMBERS; m++)
        names[n++] = m->name;
    names[n] = NULL;
}

void rule_cc_unknown_members(struct cc *cc, struct yv y, const struct rule_lang_map *map,
                             const char *what)
{
    const char *names[MAX_MEMBERS + 1];
    map_names(map, names);
    const char *const *prefer = map->prefer; /* a did-you-mean looks there first */
    for (const char *const *p = prefer; p && *p; p++)
        if (has_member(y, *p)) prefer = NULL; /* it has one: no preference */
    size_t i = 0;
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it), i++) {
        const char *k = json_object_iter_key(it), *const *a = names;
        while (*a && strcmp(*a, k)) a++;
        if (!*a) unknown_member(cc, y, i, k, what, names, prefer);
    }
}

enum { WALK_GENERIC = 1, WALK_OWN = 2 }; /* which rows a walk looks at */

static int walk_list(struct cc *cc, struct yv y, const struct rule_lang_member *row, void *out);

/* The walker's part of the row W->row of W->y: presence and kind of the kinds it checks
 * (rule_lang.h), in the loader's usual words; then its handler, when the member is there
 * (and a string, for a string). -1 when the handler refused. */
static int walk_generic(struct cc *cc, struct rule_lang_walk *w)
{
    const struct rule_lang_member *row = w->row;
    if (!w->m.v) { /* rule_cc_need_string's words, for a string too */
        if (row->flags & RULE_LANG_REQUIRED)
            rule_cc_error(cc, w->y.n, 0, "%s has no \"%s\" (it is required)", w->what, row->name);
        return 0;
    } else if (row->kind == RULE_LANG_STRING && !json_is_string(w->m.v)) {
        rule_cc_error(cc, w->m.n, 0, "\"%s\" of %s must be a string, not a %s", row->name, w->what,
                      rule_json_type_name(w->m.v));
        return 0;
    } else if (row->kind == RULE_LANG_STRINGS) {
        rule_cc_check_string_list(cc, w->m, row->name, w->what);
        if (!json_is_array(w->m.v)) return 0;
    } else if (row->kind == RULE_LANG_MAPPINGS) {
        if (walk_list(cc, w->m, row, w->out) < 0) return -1;
    }
    return row->handler ? row->handler(cc, w) : 0;
}

/* Y's members named by the NROWS ROWS into FOUND by row (NULL if absent), in one pass (not
 * a lookup and a walk to its node per row); 1 when Y has a member no row names. */
static int find_rows(struct cc *cc, struct yv y, const struct rule_lang_member *rows, size_t nrows,
                     struct yv *found)
{
    for (size_t r = 0; r < nrows; r++) found[r] = (struct yv){NULL, DOC_NONE};
    int unknown = 0;
    doc_node c = doc_node_first_child(cc->d, y.n); /* the I-th member's node, as doc_node_item */
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it)) {
        const char *k = json_object_iter_key(it);
        size_t r = 0; /* the first character first: most rows differ there */
        while (r < nrows && (rows[r].name[0] != k[0] || strcmp(rows[r].name, k) != 0)) r++;
        if (r == nrows) unknown = 1;
        else found[r] = (struct yv){json_object_iter_value(it), c};
        if (c != DOC_NONE) c = doc_node_next_sibling(cc->d, y.n, c);
    }
    return unknown;
}

/* MAP's rows into ORDER by step, in table order within a step (a stable insertion sort:
 * one pass over the rows, not one per step); their count. */
static size_t rows_by_step(const struct rule_lang_map *map, unsigned char *order)
{
    const struct rule_lang_member *rows = map->members;
    size_t n = 0;
    for (; rows[n].name; n++) {
        if (n == MAX_MEMBERS) BUG("a rule_lang table with more than MAX_MEMBERS rows");
        size_t i = n;
        for (; i > 0 && rows[order[i - 1]].step > rows[n].step; i--) order[i] = order[i - 1];
        order[i] = (unsigned char)n;
    }
    return n;
}

/* Walk the mapping Y against MAP: its unknown members, then the rows WHICH names, step by
 * step (rule_lang.h; ORDER and NROWS of rows_by_step), each checked by the walker or by its
 * handler. */
static int walk(struct cc *cc, struct yv y, const struct rule_lang_map *map,
                const unsigned char *order, size_t nrows, const char *what, void *out, int which)
{
    struct yv found[MAX_MEMBERS];
    if (find_rows(cc, y, map->members, nrows, found) && (which & WALK_GENERIC))
        rule_cc_unknown_members(cc, y, map, what);
    int bad = 0;
    for (size_t k = 0; k < nrows; k++) {
        const struct rule_lang_member *m = &map->members[order[k]];
        int own = (m->flags & RULE_LANG_OWN) != 0;
        if (!(which & (own ? WALK_OWN : WALK_GENERIC))) continue;
        struct rule_lang_walk w = {y, what, m, found[order[k]], out};
        if (own ? m->handler && m->handler(cc, &w) < 0 : walk_generic(cc, &w) < 0) bad = 1;
    }
    return bad ? -1 : 0;
}

int rule_cc_members(struct cc *cc, struct yv y, const struct rule_lang_map *map, const char *what,
                    void *out)
{
    unsigned char order[MAX_MEMBERS];
    size_t nrows = rows_by_step(map, order);
    return walk(cc, y, map, order, nrows, what, out, WALK_GENERIC | WALK_OWN);
}

/* A list of mappings, each of the table ROW->map, as rules-yaml/README.md has them: the
 * shape of every entry first (each a mapping, its members known, its plain required
 * ones there), then what its own-checked rows mean, entry by entry. */
static int walk_list(struct cc *cc, struct yv y, const struct rule_lang_member *row, void *out)
{
    const char *key = row->name;
    if (!json_is_array(y.v)) {
        rule_cc_error(cc, y.n, 0, "\"%s\" must be a list of mappings", key);
        return 0;
    }
    char what[64]; /* "a \"KEY\" entry", put together: snprintf cost more than the walk */
    size_t klen = strlen(key);
    if (klen + sizeof "a \"\" entry" > sizeof what) BUG("a rule_lang row name over 53 bytes");
    memcpy(what, "a \"", 3);
    memcpy(what + 3, key, klen);
    memcpy(what + 3 + klen, "\" entry", sizeof "\" entry");
    unsigned char order[MAX_MEMBERS]; /* the entries' rows by step, sorted once for all */
    size_t nrows = rows_by_step(row->map, order);
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        if (!json_is_object(e.v))
            rule_cc_error(cc, e.n, 0, "\"%s\" entries must be mappings, not a %s", key,
                          rule_json_type_name(e.v));
        else walk(cc, e, row->map, order, nrows, what, out, WALK_GENERIC);
    }
    int bad = 0;
    for (size_t i = 0; i < json_array_size(y.v); i++) /* not-mappings too: they say so */
        if (walk(cc, rule_yv_item(cc, y, i), row->map, order, nrows, what, out, WALK_OWN) < 0)
            bad = 1;
    return bad ? -1 : 0;
}

/* ---- versions -------------------------------------------------------------------- */

/* The loader's words for what ver_spec_parse finds wrong in the spec Y. */
struct spec_cc {
    struct cc *cc;
    struct yv y;
};

static void spec_error(void *arg, const struct ver_spec_error *e)
{
    const struct spec_cc *sc = arg;
    struct cc *cc = sc->cc;
    const struct ver_list *vl = &cc->rs->versions;
    doc_node at = e->index < 0 ? sc->y.n : doc_node_item(cc->d, sc->y.n, (size_t)e->index);
    switch (e->problem) {
    case VER_SPEC_NOT_A_STRING:
        if (e->member)
            rule_cc_error(cc, at, 0, "\"%s\" must be a protocol version string, not a %s",
                          e->member, rule_json_type_name(e->value));
        else
            rule_cc_error(cc, at, 0,
                          "a version list entry must be a protocol version string, not a %s",
                          rule_json_type_name(e->value));
        break;
    case VER_SPEC_UNKNOWN_VERSION: {
        struct buf known = BUF_INIT;
        ver_format(&known, vl, ver_all(vl), ", ");
        rule_cc_error_hint(
            cc, at, 0,
            "use a version the manifest lists, or add it to \"versions\" in manifest.yaml "
            "(oldest first)",
            "unknown protocol version \"%s\" (the manifest knows: %s)", json_string_value(e->value),
            buf_str(&known));
        buf_release(&known);
        break;
    }
    case VER_SPEC_EMPTY_LIST:
        rule_cc_error(cc, at, 0,
                      "an empty version list never applies; remove the rule or list versions");
        break;
    case VER_SPEC_UNKNOWN_MEMBER: {
        const char *names[MAX_MEMBERS + 1];
        map_names(&rule_cc_lang_version_range, names);
        unknown_member(cc, sc->y, (size_t)e->index, e->member, "a version range", names, NULL);
        break;
    }
    case VER_SPEC_NO_BOUND:
        rule_cc_error(cc, at, 0, "a version range needs \"from\", \"before\" or both");
        break;
    case VER_SPEC_EMPTY_RANGE:
        rule_cc_error_hint(cc, at, 0,
                           "\"from\" must be older than \"before\" (versions in manifest order)",
                           "this version range is empty (\"from\" must be older than \"before\")");
        break;
    case VER_SPEC_NOT_A_SPEC:
        rule_cc_error(cc, at, 0,
                      "a version spec is \"all\", a list of versions, or {from: V} / {before: V} / "
                      "{from: V, before: W}, not a %s",
                      rule_json_type_name(e->value));
        break;
    }
}

int rule_cc_versions(struct cc *cc, struct yv y, ver_mask *out)
{
    struct spec_cc sc = {cc, y};
    return ver_spec_parse(&cc->rs->versions, y.v, out, spec_error, &sc);
}

/* ---- predicates and clauses ------------------------------------------------------ */

struct sel *rule_cc_sel(struct cc *cc, struct yv y)
{
    if (!json_is_string(y.v)) {
        rule_cc_error(
            cc, y.n, 0,
            "a selector must be a string such as \"/tools/*\" or \"properties/*\", not a %s",
            rule_json_type_name(y.v));
        return NULL;
    }
    const char *why = NULL;
    char *ours = sel_from_jsonpath(json_string_value(y.v));
    if (ours) { /* JSONPath selects nothing here: say which selector it means */
        char *hint = xasprintf("write %s: a selector is a JSON Pointer whose segment * is every "
                               "member, [*] every item and ** any depth (rules-yaml/README.md)",
                               ours);
        rule_cc_error_hint(cc, y.n, 0, hint, "selector \"%s\" is JSONPath, not a selector",
                           json_string_value(y.v));
        free(hint);
        free(ours);
        return NULL;
    }
    struct sel *s = sel_compile(json_string_value(y.v), &why);
    if (!s)
        rule_cc_error_hint(cc, y.n, 0,
                           "a selector is a JSON Pointer whose segment * means every member, e.g. "
                           "/tools/*/inputSchema",
                           "bad selector \"%s\": %s", json_string_value(y.v), why);
    return s;
}

struct sel *rule_cc_sel_or_session(struct cc *cc, struct yv y, int *session)
{
    *session = 0;
    if (!json_is_object(y.v)) return rule_cc_sel(cc, y);
    struct yv s = rule_yv_member(cc, y, "session");
    if (!s.v || json_object_size(y.v) != 1) {
        rule_cc_error_hint(cc, y.n, 0,
                           "write a selector string, or {session: SELECTOR} for the nodes it "
                           "reaches in the other documents judged together (validate --together)",
                           "a mapping here is {session: SELECTOR}, nothing else");
        return NULL;
    }
    *session = 1;
    return rule_cc_sel(cc, s);
}

int rule_pred_uses_session(const struct pred *p)
{
    if (!p) return 0;
    if (p->session) return 1;
    for (size_t i = 0; i < p->nkids; i++)
        if (rule_pred_uses_session(p->kids[i])) return 1;
    return rule_pred_uses_session(p->body);
}

static int clause_uses_session(const struct clause *c)
{
    if (!c) return 0;
    if (rule_pred_uses_session(c->when) || rule_pred_uses_session(c->require)) return 1;
    for (size_t i = 0; i < c->nkids; i++)
        if (clause_uses_session(c->kids[i])) return 1;
    return 0;
}

/* `use: NAME` resolves against the file's `predicates:` section; compiled on first use. */
struct pred *rule_cc_named(struct cc *cc, struct yv name)
{
    if (!json_is_string(name.v)) {
        rule_cc_error(cc, name.n, 0,
                      "use takes the name of a predicate defined under \"predicates:\"");
        return NULL;
    }
    const char *s = json_string_value(name.v);
    for (size_t i = 0; cc->named && i < cc->named->v.len; i++) {
        struct named_pred *np = &cc->named->v.items[i];
        if (strcmp(np->name, s) != 0) continue;
        if (np->compiled || np->failed) return np->compiled;
        if (np->busy) {
            rule_cc_error(cc, name.n, 0, "predicate \"%s\" refers to itself", s);
            return NULL;
        }
        const doc *used_in = cc->d; /* compiled where it is defined: errors point there */
        cc->d = np->d;
        np->busy = 1;
        np->compiled = rule_cc_pred(cc, np->y);
        np->busy = 0;
        cc->d = used_in;
        np->failed = !np->compiled;
        if (np->compiled) VEC_PUSH(cc->rs->shared_preds, np->compiled);
        return np->compiled;
    }
    if (cc->rs->unread) return NULL; /* it may be defined there: said once (load_rule_yaml) */
    /* did you mean: a named predicate of the file, or a predicate of the table (any of
     * fn_table, the schema predicates included), which is written without `use` */
    const char **names = xcalloc((cc->named ? cc->named->v.len : 0) + fn_count + 1, sizeof *names);
    size_t nnamed = cc->named ? cc->named->v.len : 0;
    for (size_t i = 0; i < nnamed; i++) names[i] = cc->named->v.items[i].name;
    const char *near = rule_cc_nearest(s, names);
    for (size_t k = 0; k < fn_count; k++) names[k] = fn_table[k].name;
    names[fn_count] = NULL;
    const char *builtin = fn_lookup(s) ? s : near ? NULL : rule_cc_nearest(s, names);
    char *hint = builtin
        ? xasprintf("%s is a predicate of the rule format: write {%s: ARGUMENT} "
                    "without use (rules-yaml/README.md, Predicates)",
                    builtin, builtin)
        : xstrdup("define it under \"predicates:\" in one of the set's rule files, "
                  "or correct the name");
    const char *sugg = near ? near : builtin && strcmp(builtin, s) ? builtin : NULL;
    rule_cc_error_hint(
        cc, name.n, 0, hint,
        "no predicate named \"%s\" under \"predicates:\" in the set's rule files%s%s%s%s", s,
        cc->rs->base ? " (a base set's predicates are not visible to a set "
                       "that extends it)"
                     : "",
        sugg ? ": did you mean \"" : "", sugg ? sugg : "", sugg ? "\"?" : "");
    free(hint);
    free(names);
    return NULL;
}

#define MAX_PRED_NODES 100000

struct pred *rule_cc_pred(struct cc *cc, struct yv y)
{
    if (++cc->nodes > MAX_PRED_NODES) {
        if (cc->nodes == MAX_PRED_NODES + 1)
            rule_cc_error(cc, y.n, 0,
                          "more than %d predicate nodes in one file (YAML aliases "
                          "expanding too far?)",
                          MAX_PRED_NODES);
        return NULL;
    }
    if (!json_is_object(y.v) || json_object_size(y.v) != 1) {
        rule_cc_error_hint(
            cc, y.n, 0, "write the predicate as {NAME: ARGUMENT}, one member per mapping",
            "a predicate is a mapping with exactly one member, such as {json-type: object} "
            "or {all: [...]}; found a %s%s",
            rule_json_type_name(y.v), json_is_object(y.v) ? " with several members" : "");
        return NULL;
    }
    void *it = json_object_iter(y.v);
    const char *name = json_object_iter_key(it);
    struct yv arg = {json_object_iter_value(it), doc_node_first_child(cc->d, y.n)};
    const struct fn_def *fn = fn_lookup(name);
    if (!fn) { /* suggest the nearest of every predicate of the one table */
        const char **names = xcalloc(fn_count + 1, sizeof *names);
        for (size_t k = 0; k < fn_count; k++) names[k] = fn_table[k].name;
        const char *near = rule_cc_nearest(name, names);
        rule_cc_error_hint(
            cc, arg.n, 1, "use one of the predicates listed in rules-yaml/README.md (Predicates)",
            "unknown predicate \"%s\"%s%s%s (see rules-yaml/README.md for the list)", name,
            near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
        free(names);
        return NULL;
    }
    struct pred *p = xcalloc(1, sizeof *p);
    p->fn = fn;
    if (fn->compile(cc, p, arg) < 0) {
        fn_pred_free(p);
        return NULL;
    }
    return p;
}

/* The actions of a fix, in the order of enum rule_fix_op. */
static const char *const fix_ops[] = {"replace", "set", "add", "remove", NULL};

/* The member MEMBER ("member" or "value") of the action OP of a fix; NULL after
 * reporting that it is missing (one wording for both). */
static struct yv fix_edit_member(struct cc *cc, struct yv e, const char *op, const char *member)
{
    struct yv m = rule_yv_member(cc, e, member);
    if (!m.v) {
        char *hint = xasprintf("write %s: {member: NAME, value: VALUE}", op);
        rule_cc_error_hint(cc, e.n, 0, hint, "\"%s\" of a fix has no \"%s\" (it is required)", op,
                           member);
        free(hint);
    }
    return m;
}

/* A fix's `title` (required; every error carries a hint of its own). */
static int fix_title(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_fix *f = w->out;
    struct yv t = w->m;
    if (!t.v) {
        rule_cc_error_hint(cc, w->y.n, 0, "add title: TEXT, what an editor shows for the fix",
                           "a fix has no \"title\" (it is required)");
        return -1;
    }
    if (!json_is_string(t.v)) {
        rule_cc_error_hint(cc, t.n, 0, "write title: TEXT, what an editor shows for the fix",
                           "\"title\" of a fix must be a string, not a %s",
                           rule_json_type_name(t.v));
        return -1;
    }
    f->title = xstrdup(json_string_value(t.v));
    return 0;
}

static int fix_when(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_fix *f = w->out;
    return (f->when = rule_cc_pred(cc, w->m)) ? 0 : -1;
}

/* A fix's `at`: a JSON Pointer below the finding's value, without the leading slash. */
static int fix_at(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_fix *f = w->out;
    struct yv at = w->m;
    if (!at.v) return 0;
    int bad = 0;
    struct ptr parsed;
    const char *why;
    const char *a = json_string_value(at.v);
    char *full = a ? xasprintf("/%s", a) : NULL;
    if (!a || a[0] == '/' || !a[0]) {
        const char *rel = a;
        while (rel && *rel == '/') rel++;
        char *hint = xasprintf("write at: %s (relative to the finding, no leading slash)%s",
                               rel && *rel ? rel : "0/type",
                               rel && *rel ? "" : ", or leave at out to edit the finding's value");
        rule_cc_error_hint(cc, at.n, 0, hint,
                           "a fix's \"at\" is a non-empty JSON Pointer below the finding's "
                           "value, without the leading slash");
        free(hint);
        bad = 1;
    } else if (ptr_parse(full, &parsed, &why) < 0) {
        rule_cc_error_hint(cc, at.n, 0,
                           "write ~0 for ~ and ~1 for / inside a member name (RFC 6901)",
                           "bad JSON Pointer in a fix's \"at\": %s", why);
        bad = 1;
    } else {
        ptr_release(&parsed);
        free(f->at);
        f->at = xstrdup(full);
    }
    free(full);
    return bad ? -1 : 0;
}

/* One action of a fix (replace, set, add, remove): the first one it has is its action;
 * compile_fix refuses a fix with several. */
static int fix_action(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_fix *f = w->out;
    struct yv e = w->m;
    int i = 0;
    while (fix_ops[i] && strcmp(fix_ops[i], w->row->name)) i++;
    if (!e.v) return 0;
    for (int k = 0; k < i; k++)
        if (has_member(w->y, fix_ops[k])) return 0;
    f->op = (enum rule_fix_op)i;
    if (i == RULE_FIX_REPLACE) {
        f->value = json_incref(e.v);
    } else if (i == RULE_FIX_REMOVE) {
        if (!json_is_string(e.v)) {
            rule_cc_error_hint(cc, e.n, 0, "write remove: NAME, the member to remove",
                               "\"remove\" of a fix names a member (a string), not a %s",
                               rule_json_type_name(e.v));
            return -1;
        }
        f->member = xstrdup(json_string_value(e.v));
    } else if (!json_is_object(e.v)) {
        rule_cc_error_hint(cc, e.n, 0, "write {member: NAME, value: VALUE}",
                           "\"%s\" of a fix must be a mapping, not a %s", fix_ops[i],
                           rule_json_type_name(e.v));
        return -1;
    } else {
        rule_cc_unknown_members(cc, e, &rule_cc_lang_fix_edit, fix_ops[i]);
        struct yv m = fix_edit_member(cc, e, fix_ops[i], "member");
        struct yv v = fix_edit_member(cc, e, fix_ops[i], "value");
        if (m.v && !json_is_string(m.v)) {
            rule_cc_error_hint(cc, m.n, 0, "write member: NAME, the member's name",
                               "\"member\" of \"%s\" of a fix must be a string, not a %s",
                               fix_ops[i], rule_json_type_name(m.v));
            m.v = NULL;
        }
        f->member = m.v ? xstrdup(json_string_value(m.v)) : NULL;
        f->value = v.v ? json_incref(v.v) : NULL;
        if (!m.v || !v.v) return -1;
    }
    return 0;
}

/* A fix's members (rules-yaml/README.md, "Fixes"); the steps keep the loader's order of
 * errors: title, when, at, then the action. */
static const struct rule_lang_member fix_members[] = {
    {"title", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "what an editor shows for the fix; message's placeholders work", NULL, NULL, fix_title, 0},
    {"when", RULE_LANG_PREDICATE, 0,
     "a predicate at the finding's value: the fix is offered only where it holds", NULL, NULL,
     fix_when, 1},
    {"at", RULE_LANG_STRING, RULE_LANG_OWN,
     "a JSON Pointer below the finding's value, without the leading slash: the edit applies there",
     NULL, NULL, fix_at, 2},
    {"replace", RULE_LANG_ANY, 0, "replace the value with this one", NULL, NULL, fix_action, 3},
    {"set", RULE_LANG_MAPPING, 0,
     "{member, value}: replace the object's member, or add it as its first member",
     &rule_cc_lang_fix_edit, NULL, fix_action, 3},
    {"add", RULE_LANG_MAPPING, 0, "{member, value}: add the member the object lacks, first",
     &rule_cc_lang_fix_edit, NULL, fix_action, 3},
    {"remove", RULE_LANG_STRING, RULE_LANG_OWN, "the name of the object's member to remove", NULL,
     NULL, fix_action, 3},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_fix = {
    "fix", RULE_NAMES_FIX, "rule-file.schema.json#/$defs/Fix", fix_members, fix_ops};

/* set: and add: of a fix (checked by fix_action, whose messages name the action). */
static const struct rule_lang_member fix_edit_members[] = {
    {"member", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN, "the member's name", NULL,
     NULL, NULL, 0},
    {"value", RULE_LANG_ANY, RULE_LANG_REQUIRED | RULE_LANG_OWN, "its new value", NULL, NULL, NULL,
     0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_fix_edit = {"fix-edit", RULE_NAMES_FIX_EDIT,
                                                    "rule-file.schema.json#/$defs/FixMember",
                                                    fix_edit_members, NULL};

/* A clause's `fix` (rules-yaml/README.md, "Fixes"): {title, when?, at?, and exactly one
 * of replace: VALUE, set: {member, value}, add: {member, value}, remove: MEMBER}. NULL
 * after reporting. Every error carries a hint of its own. */
static struct rule_fix *compile_fix(struct cc *cc, struct yv y)
{
    if (!json_is_object(y.v)) {
        rule_cc_error_hint(cc, y.n, 0,
                           "write fix: {title: TEXT, replace: VALUE} (or set, add, remove)",
                           "a fix must be a mapping, not a %s", rule_json_type_name(y.v));
        return NULL;
    }
    struct rule_fix *f = xcalloc(1, sizeof *f);
    struct doc_pos pos = doc_node_pos(cc->d, y.n);
    f->line = pos.line;
    f->col = pos.col;
    f->at = xstrdup("");
    int bad = rule_cc_members(cc, y, &rule_cc_lang_fix, "a fix", f) < 0;
    int nops = 0;
    for (int i = 0; fix_ops[i]; i++) nops += has_member(y, fix_ops[i]);
    if (nops != 1) {
        rule_cc_error_hint(cc, y.n, 0,
                           nops ? "keep one action; for another case write a list of fixes, "
                                  "each with its own when"
                                : "add replace: VALUE, set: {member, value}, add: {member, value} "
                                  "or remove: NAME",
                           "a fix needs exactly one of \"replace\", \"set\", \"add\" or "
                           "\"remove\"%s",
                           nops ? "; found several" : "");
        bad = 1;
    }
    if (bad) {
        rule_fix_free(f);
        return NULL;
    }
    return f;
}

static struct clause *compile_clause(struct cc *cc, struct yv y, const char *what);

static int clause_versions(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    return rule_cc_versions(cc, w->m, &c->vmask) < 0 ? -1 : 0;
}

/* `select: {texts: item | document | all}` (Y, a mapping): RULE_TEXTS_ITEM,
 * RULE_TEXTS_DOCUMENT or RULE_TEXTS_ALL (both),
 * or -1 after reporting (also when no set of the chain declares `texts:`). */
static int clause_select_texts(struct cc *cc, struct yv y)
{
    static const char hint[] = "write select: {texts: item} (every text of every item), "
                               "{texts: document} or {texts: all} (both)";
    struct yv t = rule_yv_member(cc, y, "texts");
    if (!t.v || json_object_size(y.v) != 1) {
        rule_cc_error_hint(
            cc, y.n, 0, hint,
            "a mapping as select is {texts: item}, {texts: document} or {texts: all}");
        return -1;
    }
    const char *which = json_string_value(t.v);
    int kind = !which                ? -1
        : !strcmp(which, "item")     ? RULE_TEXTS_ITEM
        : !strcmp(which, "document") ? RULE_TEXTS_DOCUMENT
        : !strcmp(which, "all")      ? RULE_TEXTS_ALL
                                     : -1;
    if (kind < 0) {
        rule_cc_error_hint(cc, t.n, 0, hint, "texts selects item, document or all, not %s",
                           which ? which : rule_json_type_name(t.v));
        return -1;
    }
    if (!rule_set_texts(cc->rs)) {
        rule_cc_error_hint(cc, t.n, 0,
                           "add texts: (item, document, schema) to the set's manifest.yaml, or "
                           "extend a set that has it (rules-yaml/README.md, \"Texts\")",
                           "select: {texts: %s} needs the manifest's \"texts\": where the texts "
                           "are, and no set of this one's chain declares it",
                           which);
        return -1;
    }
    return kind;
}

static int clause_select(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    struct yv s = w->m;
    int bad = 0;
    if (json_is_object(s.v) && !has_member(s, "old") &&
        !has_member(s, "new")) { /* {texts: item | document} */
        c->texts = clause_select_texts(cc, s);
        return c->texts < 0 ? (c->texts = 0, -1) : 0;
    }
    size_t n = json_is_array(s.v) ? json_array_size(s.v) : 1;
    if (n == 0) {
        rule_cc_error(cc, s.n, 0, "select needs at least one selector");
        bad = 1;
    }
    c->sels = xcalloc(n ? n : 1, sizeof *c->sels);
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(s.v) ? rule_yv_item(cc, s, i) : s;
        int session = 0, side = 0;
        c->sels[c->nsels] =
            json_is_object(e.v) ? rule_cc_sel_any(cc, e, &session, &side) : rule_cc_sel(cc, e);
        if (c->sels[c->nsels] && session) { /* a session selector compares; it selects nothing */
            sel_free(c->sels[c->nsels]);
            c->sels[c->nsels] = NULL;
            rule_cc_error(cc, e.n, 0,
                          "select takes a selector, {old: SELECTOR} or {new: SELECTOR}; "
                          "{session: SELECTOR} belongs in among");
        }
        if (!c->sels[c->nsels]) {
            bad = 1;
            continue;
        }
        if (json_is_object(e.v)) { /* {old: SEL} or {new: SEL}: a change rule's */
            if (!c->sel_sides) c->sel_sides = xcalloc(n, 1);
            c->sel_sides[c->nsels] = (unsigned char)side;
        }
        c->nsels++;
    }
    return bad ? -1 : 0;
}

static int clause_when(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    return (c->when = rule_cc_pred(cc, w->m)) ? 0 : -1;
}

/* `require`, and that a clause has exactly one of require, all and first. */
static int clause_require(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    int bad = 0;
    int forms = !!w->m.v + has_member(w->y, "all") + has_member(w->y, "first");
    if (forms != 1) {
        rule_cc_error(cc, w->y.n, 0,
                      "%s needs exactly one of \"require\" (a predicate), \"all\" "
                      "or \"first\" (lists of checks)%s",
                      w->what, forms ? "; found several" : "");
        bad = 1;
    }
    if (w->m.v && !(c->require = rule_cc_pred(cc, w->m))) bad = 1;
    return bad ? -1 : 0;
}

/* `message`: required beside require, and only there. */
static int clause_message(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    if (has_member(w->y, "require")) {
        const char *msg = string_member(cc, w->y, w->m, "message", w->what, 1);
        c->message = msg ? xstrdup(msg) : NULL;
        return msg ? 0 : -1;
    }
    if (!w->m.v) return 0;
    rule_cc_error(cc, w->m.n, 1,
                  "\"message\" belongs beside \"require\"; a check with \"all\"/\"first\" "
                  "reports through its sub-checks");
    return -1;
}

static int clause_hint(struct cc *cc, struct rule_lang_walk *w)
{
    (void)cc;
    struct clause *c = w->out;
    c->hint = xstrdup(json_string_value(w->m.v));
    return 0;
}

/* `fix`: a fix, or a list of them, beside require. */
static int clause_fix(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    struct yv fx = w->m;
    if (!has_member(w->y, "require")) {
        rule_cc_error(cc, fx.n, 1,
                      "\"fix\" belongs beside \"require\" and \"message\" (the finding it "
                      "fixes)");
        return -1;
    }
    int bad = 0;
    size_t n = json_is_array(fx.v) ? json_array_size(fx.v) : 1;
    if (!n) {
        rule_cc_error(cc, fx.n, 0, "\"fix\" takes a fix or a non-empty list of fixes");
        bad = 1;
    }
    c->fixes = xcalloc(n ? n : 1, sizeof *c->fixes);
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(fx.v) ? rule_yv_item(cc, fx, i) : fx;
        struct rule_fix *f = compile_fix(cc, e);
        if (f) c->fixes[c->nfixes++] = f;
        else bad = 1;
    }
    return bad ? -1 : 0;
}

static const char *const report_at_names[] = {"node", "failure", "match", NULL};

static int clause_report_at(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    struct yv at = w->m;
    const char *a = json_string_value(at.v);
    int known = 0;
    for (const char *const *k = report_at_names; a && *k; k++) known |= !strcmp(*k, a);
    if (!known) {
        rule_cc_error(cc, at.n, 0,
                      "report-at is \"node\" (the judged node, the default), "
                      "\"failure\" (the value where matches-schema failed) or \"match\" "
                      "(where in the string a text predicate found its text)");
        return -1;
    }
    if (!has_member(w->y, "require")) {
        rule_cc_error(cc, at.n, 1, "\"report-at\" belongs beside \"require\"");
        return -1;
    }
    c->at_failure = !strcmp(a, report_at_names[1]);
    c->at_match = !strcmp(a, report_at_names[2]);
    return 0;
}

/* `all` or `first`: the sub-checks (when a clause has both, all's; it is refused). */
static int clause_kids(struct cc *cc, struct rule_lang_walk *w)
{
    struct clause *c = w->out;
    struct yv kids = w->m;
    if (!strcmp(w->row->name, "first") && has_member(w->y, "all")) return 0;
    c->first = has_member(w->y, "first");
    if (!json_is_array(kids.v) || !json_array_size(kids.v)) {
        rule_cc_error(cc, kids.n, 0, "\"%s\" takes a non-empty list of checks",
                      c->first ? "first" : "all");
        return -1;
    }
    int bad = 0;
    c->kids = xcalloc(json_array_size(kids.v), sizeof *c->kids);
    for (size_t i = 0; i < json_array_size(kids.v); i++) {
        struct clause *k = compile_clause(cc, rule_yv_item(cc, kids, i), "a check");
        if (k) c->kids[c->nkids++] = k;
        else bad = 1;
    }
    return bad ? -1 : 0;
}

/* A check clause's members (rules-yaml/README.md, "Checks"). */
static const struct rule_lang_member clause_members[] = {
    {"versions", RULE_LANG_VERSIONS, 0,
     "the versions this clause (and its sub-clauses) judges; all when absent",
     &rule_cc_lang_version_range, NULL, clause_versions, 0},
    {"select", RULE_LANG_SELECTORS, 0,
     "a selector or a list of them: the nodes the clause judges, each in turn; or {texts: item "
     "| document}",
     NULL, NULL, clause_select, 1},
    {"when", RULE_LANG_PREDICATE, 0, "a predicate: nodes where it is false are not judged", NULL,
     NULL, clause_when, 2},
    {"require", RULE_LANG_PREDICATE, RULE_LANG_OWN,
     "a predicate every judged node must satisfy; a node that does not gets a diagnostic", NULL,
     NULL, clause_require, 3},
    {"message", RULE_LANG_STRING, RULE_LANG_OWN, "with require: the diagnostic's text", NULL, NULL,
     clause_message, 4},
    {"hint", RULE_LANG_STRING, 0, "how to fix what the message says", NULL, NULL, clause_hint, 5},
    {"all", RULE_LANG_CLAUSES, 0, "a list of checks, each judged and reported on its own",
     &rule_cc_lang_clause, NULL, clause_kids, 8},
    {"first", RULE_LANG_CLAUSES, 0,
     "a list of checks: for each version, only the first that fails reports", &rule_cc_lang_clause,
     NULL, clause_kids, 8},
    {"report-at", RULE_LANG_ENUM, 0,
     "with require: node (the judged node), failure (where the predicate failed) or match "
     "(where in the string a text predicate found its text)",
     NULL, report_at_names, clause_report_at, 7},
    {"fix", RULE_LANG_FIXES, 0, "with require: a fix for the finding, or a list of them",
     &rule_cc_lang_fix, NULL, clause_fix, 6},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_clause = {
    "clause", RULE_NAMES_CLAUSE, "rule-file.schema.json#/$defs/Clause", clause_members, NULL};

static struct clause *compile_clause(struct cc *cc, struct yv y, const char *what)
{
    if (!json_is_object(y.v)) {
        rule_cc_error(cc, y.n, 0,
                      "%s must be a mapping (with select/when/require/message or "
                      "all/first), not a %s",
                      what, rule_json_type_name(y.v));
        return NULL;
    }
    struct clause *c = xcalloc(1, sizeof *c);
    struct doc_pos pos = doc_node_pos(cc->d, y.n);
    c->line = pos.line;
    c->col = pos.col;
    c->vmask = ver_all(&cc->rs->versions);
    if (rule_cc_members(cc, y, &rule_cc_lang_clause, what, c) < 0) {
        rule_clause_free(c);
        return NULL;
    }
    return c;
}

/* ---- rules ----------------------------------------------------------------------- */

static int valid_rule_id(const char *id)
{
    /* dot-separated lowercase words: mcp.tool.input-schema.object-root */
    int dots = 0;
    if (!*id || *id == '.' || *id == '-') return 0;
    for (const char *p = id; *p; p++) {
        if (*p == '.') {
            dots++;
            if (p[1] == '.' || p[1] == '\0' || p[1] == '-') return 0;
        } else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) {
            return 0;
        }
    }
    return dots >= 1;
}

void rule_cc_check_string_list(struct cc *cc, struct yv y, const char *key, const char *what)
{
    if (!json_is_array(y.v)) {
        rule_cc_error(cc, y.n, 0, "\"%s\" of %s must be a list of strings", key, what);
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        if (!json_is_string(e.v))
            rule_cc_error(cc, e.n, 0, "\"%s\" entries must be strings, not a %s", key,
                          rule_json_type_name(e.v));
    }
}

/* An example's meaning, once every example's shape is checked: its expect, a fix
 * example's after, its pointer. */
static int example_meaning(struct cc *cc, struct rule_lang_walk *w)
{
    struct yv e = w->y;
    const char *ex = string_member(cc, e, w->m, "expect", "an example", 1);
    int known = 0;
    for (const char *const *k = w->row->values; ex && *k; k++) known |= !strcmp(*k, ex);
    if (ex && !known)
        rule_cc_error(cc, w->m.n, 0,
                      "expect must be valid, invalid, warning, info or fix, not \"%s\"", ex);
    if (ex && !strcmp(ex, "fix")) {
        rule_cc_need_string(cc, e, "after", "a fix example", 1);
    } else if (has_member(e, "after")) {
        rule_cc_error_hint(cc, rule_yv_member(cc, e, "after").n, 1,
                           "write {expect: fix, fixture: BEFORE, after: AFTER, pointer: P}",
                           "\"after\" belongs to an example with expect: fix");
    }
    const char *ps = json_string_value(json_object_get(e.v, "pointer"));
    struct ptr parsed;
    const char *why;
    /* a pointer is refused only for its first byte or a '~' (ptr_parse): most are read
     * no further */
    if (ps && *ps && (*ps != '/' || strchr(ps, '~'))) {
        if (ptr_parse(ps, &parsed, &why) < 0)
            rule_cc_error_hint(cc, rule_yv_member(cc, e, "pointer").n, 0,
                               "an example's pointer is an RFC 6901 pointer from the fixture's "
                               "root, e.g. /tools/0/inputSchema",
                               "bad JSON Pointer: %s", why);
        else ptr_release(&parsed);
    }
    return 0;
}

static const char *const expect_names[] = {"valid", "invalid", "warning", "info", "fix", NULL};
static const char *const absent_names[] = {"old", "new", NULL};

/* `absent`: old or new, and not with `old` (a change rule's example of a description added
 * or removed). */
static int example_absent(struct cc *cc, struct rule_lang_walk *w)
{
    if (!w->m.v) return 0;
    const char *a = json_string_value(w->m.v);
    if (!a || (strcmp(a, "old") && strcmp(a, "new"))) {
        rule_cc_error(cc, w->m.n, 0,
                      "absent is old (the fixture is a description added) or new (a description "
                      "removed)");
        return -1;
    }
    if (has_member(w->y, "old")) {
        rule_cc_error(cc, w->m.n, 1,
                      "an example has \"old\" (the old description) or \"absent\", "
                      "not both");
        return -1;
    }
    return 0;
}

/* An entry of a rule's examples (rules-yaml/README.md, "Examples"). */
static const struct rule_lang_member example_members[] = {
    {"expect", RULE_LANG_ENUM, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "what the rule finds in the fixture at pointer: valid, invalid, warning, info or fix", NULL,
     expect_names, example_meaning, 0},
    {"fixture", RULE_LANG_STRING, RULE_LANG_REQUIRED,
     "a description document, relative to the manifest's fixtures directory", NULL, NULL, NULL, 0},
    {"pointer", RULE_LANG_STRING, RULE_LANG_REQUIRED,
     "the JSON Pointer in the fixture where the rule reports (or does not)", NULL, NULL, NULL, 0},
    /* not checked by the loader: the schema (and so rules lint) checks its kind */
    {"note", RULE_LANG_STRING, RULE_LANG_OWN, "why the example is there", NULL, NULL, NULL, 0},
    /* checked by expect's handler */
    {"after", RULE_LANG_STRING, RULE_LANG_OWN, "with expect: fix: the fixture as the fix leaves it",
     NULL, NULL, NULL, 0},
    {"together", RULE_LANG_STRINGS, RULE_LANG_OWN,
     "the other descriptions the fixture is judged together with (a session rule's example)", NULL,
     NULL, NULL, 0},
    {"old", RULE_LANG_STRING, RULE_LANG_OWN,
     "the old description the fixture (the new one) is compared with (a change rule's example)",
     NULL, NULL, NULL, 0},
    {"absent", RULE_LANG_ENUM, RULE_LANG_OWN,
     "old: the fixture is a description added (no old one); new: a description removed (the "
     "fixture is the old one, and there is no new one)",
     NULL, absent_names, example_absent, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_example = {
    "example", RULE_NAMES_EXAMPLE, "rule-file.schema.json#/$defs/Example", example_members, NULL};

/* An entry of a rule's required-by; title and requirement are the schema's to check. */
static const struct rule_lang_member required_by_members[] = {
    {"document", RULE_LANG_STRING, RULE_LANG_REQUIRED, "the document that requires it", NULL, NULL,
     NULL, 0},
    {"section", RULE_LANG_STRING, RULE_LANG_REQUIRED, "its section", NULL, NULL, NULL, 0},
    {"title", RULE_LANG_STRING, RULE_LANG_OWN, "the section's title", NULL, NULL, NULL, 0},
    {"requirement", RULE_LANG_STRING, RULE_LANG_OWN, "the requirement, quoted", NULL, NULL, NULL,
     0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_required_by = {"required-by", RULE_NAMES_REQUIRED_BY,
                                                       "rule-file.schema.json#/$defs/RequiredBy",
                                                       required_by_members, NULL};

/* A based-on entry's tier and source (text or url), once every entry's shape is checked. */
static int based_on_source(struct cc *cc, struct rule_lang_walk *w)
{
    struct yv e = w->y, tier = w->m;
    if (!json_is_object(e.v)) return 0;
    if (!json_is_integer(tier.v) || json_integer_value(tier.v) < 1 ||
        json_integer_value(tier.v) > 4)
        rule_cc_error(cc, tier.v ? tier.n : e.n, 0, "based-on needs \"tier\": 1 to 4");
    if (!has_member(e, "text") && !has_member(e, "url"))
        rule_cc_error(cc, e.n, 0, "a based-on entry needs \"text\", \"url\" or both");
    return 0;
}

/* An entry of a rule's based-on; text and url are checked by tier's handler (one of
 * them) and the schema (their kind). */
static const struct rule_lang_member based_on_members[] = {
    {"tier", RULE_LANG_INTEGER, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the source's tier, 1 to 4 (the manifest names them)", NULL, NULL, based_on_source, 0},
    {"text", RULE_LANG_STRING, RULE_LANG_OWN, "the source, quoted or described", NULL, NULL, NULL,
     0},
    {"url", RULE_LANG_STRING, RULE_LANG_OWN, "where the source is", NULL, NULL, NULL, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_based_on = {"based-on", RULE_NAMES_BASED_ON,
                                                    "rule-file.schema.json#/$defs/BasedOn",
                                                    based_on_members, NULL};

/* A version range's members (checked by ver_spec_parse, through spec_error). */
static const struct rule_lang_member range_members[] = {
    {"from", RULE_LANG_STRING, RULE_LANG_OWN, "the first version of the range (inclusive)", NULL,
     NULL, NULL, 0},
    {"before", RULE_LANG_STRING, RULE_LANG_OWN, "the end of the range (exclusive)", NULL, NULL,
     NULL, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_version_range = {
    "version-range", RULE_NAMES_VERSION_RANGE, "rule-file.schema.json#/$defs/VersionSpec/oneOf/2",
    range_members, NULL};

/* A rule file's top level: its two members are read in two passes of the loader
 * (rule_set_load.c: every file's predicates before any rule), not by a walk. */
static const struct rule_lang_member file_members[] = {
    {"predicates", RULE_LANG_PREDICATES, RULE_LANG_OWN,
     "named predicates, for use: NAME in any rule file of the set", NULL, NULL, NULL, 0},
    {"rules", RULE_LANG_MAPPINGS, RULE_LANG_REQUIRED | RULE_LANG_OWN, "the file's rules, in order",
     &rule_cc_lang_rule, NULL, NULL, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_file = {"rule-file", RULE_NAMES_FILE,
                                                "rule-file.schema.json#", file_members, NULL};

/* A yields-to entry is a rule id or an id prefix followed by ".*" (mcp.tool.name.*). */
static int valid_yield_pattern(const char *s)
{
    size_t n = strlen(s);
    if (n > 2 && !strcmp(s + n - 2, ".*")) {
        char *prefix = xasprintf("%.*s.x", (int)(n - 2), s); /* a prefix of some valid id */
        int ok = valid_rule_id(prefix);
        free(prefix);
        return ok;
    }
    return valid_rule_id(s);
}

/* `yields-to`: syntax now; that each entry names another rule once the set is loaded. */
static void compile_yields(struct cc *cc, struct yv y, struct rule *r)
{
    struct yv yt = rule_yv_member(cc, y, "yields-to");
    if (!yt.v) return;
    if (!json_is_array(yt.v) || !json_array_size(yt.v)) {
        rule_cc_error(cc, yt.n, 0,
                      "\"yields-to\" must be a non-empty list of rule ids or id prefixes "
                      "ending in \".*\", e.g. [mcp.tool.input-schema.*, mcp.tool.name.required]");
        return;
    }
    for (size_t i = 0; i < json_array_size(yt.v); i++) {
        struct yv e = rule_yv_item(cc, yt, i);
        const char *pat = json_string_value(e.v);
        if (!pat || !valid_yield_pattern(pat)) {
            rule_cc_error(
                cc, e.n, 0,
                "yields-to entry %s%s%s is not a rule id or an id prefix ending in \".*\" "
                "(e.g. mcp.tool.name.required or mcp.tool.input-schema.*)",
                pat ? "\"" : "a ", pat ? pat : rule_json_type_name(e.v), pat ? "\"" : "");
            continue;
        }
        struct doc_pos pos = doc_node_pos(cc->d, e.n);
        r->yields = xrealloc(r->yields, (r->nyields + 1) * sizeof *r->yields);
        r->yields[r->nyields++] = (struct yield){xstrdup(pat), pos.line, pos.col};
    }
}

/* Every yields-to entry must name at least one other rule of the set (or a built-in
 * rule): a typo would
 * silently never yield. */
void rule_cc_check_yields(const struct rule_set *rs, struct diag_list *errs)
{
    for (size_t i = 0; i < rs->rules.len; i++) {
        const struct rule *r = &rs->rules.items[i];
        if (r->borrowed) continue; /* checked when its own set loaded */
        for (size_t k = 0; k < r->nyields && !rs->unread; k++) { /* unread: it may be there */
            size_t hits = 0; /* the first is enough: no loop goes on past it */
            for (size_t j = 0; j < rs->rules.len && !hits; j++)
                hits += j != i && rule_yield_matches(r->yields[k].pattern, rs->rules.items[j].id);
            for (size_t j = 0; j < res_nbuiltins && !hits; j++) /* built-in rules report too */
                hits += rule_yield_matches(r->yields[k].pattern, res_builtins[j].id);
            for (size_t j = 0; j < rs->refused.len && !hits; j++) /* reported: no second error */
                hits += rs->refused.items[j].id_valid && strcmp(rs->refused.items[j].id, r->id) &&
                    rule_yield_matches(r->yields[k].pattern, rs->refused.items[j].id);
            if (hits) continue;
            char *path = xasprintf("%s/%s", rs->dir, r->file);
            rule_cc_set_error(
                errs, path, r->yields[k].line, r->yields[k].col,
                "yields-to entry \"%s\" of rule %s names no other rule of the set; "
                "write an existing rule id, or a prefix such as mcp.tool.* ending in \".*\"",
                r->yields[k].pattern, r->id);
            free(path);
        }
    }
}

static const char *const preset_values[] = {"strict", "all", NULL};

/* `preset: strict|all` and its `preset-reason` (both, or neither: the rule is then in
 * recommended, the default preset). */
static int compile_preset(struct cc *cc, struct yv y, struct rule *r)
{
    struct yv p = rule_yv_member(cc, y, "preset");
    struct yv why = rule_yv_member(cc, y, "preset-reason");
    r->preset = RULE_PRESET_RECOMMENDED;
    int bad = 0;
    if (p.v) {
        const char *name = json_string_value(p.v);
        enum rule_preset v;
        if (name && !strcmp(name, "recommended")) {
            rule_cc_error_hint(cc, p.n, 0,
                               "leave \"preset\" out: a rule without it is in recommended (and "
                               "so in strict and all)",
                               "preset must be strict or all, not \"recommended\"");
            bad = 1;
        } else if (!name || rule_preset_parse(name, &v) < 0) {
            char shown[80];
            if (name) snprintf(shown, sizeof shown, "\"%.60s\"", name);
            else snprintf(shown, sizeof shown, "a %s", rule_json_type_name(p.v));
            const char *near = name ? rule_cc_nearest(name, preset_values) : NULL;
            rule_cc_error_hint(cc, p.n, 0,
                               "write strict (advice a careful author follows) or all (notes "
                               "that describe the document); leave it out for recommended",
                               "preset must be strict or all, not %s%s%s%s", shown,
                               near ? ": did you mean \"" : "", near ? near : "",
                               near ? "\"?" : "");
            bad = 1;
        } else {
            r->preset = v;
        }
        if (!why.v) {
            rule_cc_error_hint(cc, p.n, 1,
                               "add preset-reason: one sentence saying why a server author is "
                               "better off without this rule by default",
                               "a rule with \"preset\" needs a \"preset-reason\"");
            bad = 1;
        }
    }
    if (why.v) {
        const char *text = json_string_value(why.v);
        if (!text || !*text) {
            rule_cc_error_hint(cc, why.n, 0,
                               "write one sentence: why a server author is better off without "
                               "this rule by default",
                               "preset-reason must be a non-empty string, not %s",
                               text ? "\"\"" : rule_json_type_name(why.v));
            bad = 1;
        } else if (!p.v) {
            rule_cc_error_hint(cc, why.n, 1,
                               "add preset: strict or preset: all, or remove preset-reason (a "
                               "rule without preset is in recommended)",
                               "\"preset-reason\" without \"preset\"");
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* What a rule's handlers build: the rule, and its id once it is valid and unique. */
struct rule_build {
    struct rule r;
    const char *id;
};

/* `id`: dot-separated lowercase words, unique across the set and its base. */
static int rule_id_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    const char *id = string_member(cc, w->y, w->m, "id", w->what, 1);
    if (id && !valid_rule_id(id)) {
        rule_cc_error(
            cc, w->m.n, 0,
            "rule id \"%s\" must be dot-separated lowercase words, e.g. mcp.tool.name.unique", id);
        id = NULL;
    }
    const struct rule *dup = id ? rule_set_find(cc->rs, id) : NULL;
    if (dup && dup->borrowed) {
        struct buf at = BUF_INIT;
        buf_addf(&at, "%s/", rule_origin_dir(dup));
        loc_add(&at, dup->file, dup->line, dup->col);
        rule_cc_error_hint(cc, w->m.n, 0,
                           "rule ids are unique across a set and its base: rename the rule "
                           "(an organisation's ids start with its own prefix)",
                           "duplicate rule id \"%s\": the base set %s %s has it (%s)", id,
                           rule_origin_name(dup), rule_origin_tag(dup), buf_str(&at));
        buf_release(&at);
        id = NULL;
    } else if (dup) {
        char *at = loc_format(dup->file, dup->line, dup->col);
        rule_cc_error_hint(cc, w->m.n, 0, "rule ids are unique in the set: rename one of the rules",
                           "duplicate rule id \"%s\" (first defined at %s)", id, at);
        free(at);
        id = NULL;
    }
    b->id = id;
    return 0;
}

/* ORDER level_names level_values */
static const char *const level_names[] = {"must", "should", "may", NULL};
static const enum diag_level level_values[] = {DIAG_ERROR, DIAG_WARNING, DIAG_INFO};

static int rule_level_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    const char *level = string_member(cc, w->y, w->m, "level", w->what, 1);
    if (!level) return -1;
    size_t k = 0;
    while (level_names[k] && strcmp(level_names[k], level)) k++;
    if (!level_names[k]) {
        rule_cc_error_hint(cc, w->m.n, 0, "write must, should or may in lower case",
                           "level must be must (error), should (warning) or may (info), not \"%s\"",
                           level);
        return -1;
    }
    b->r.level = level_values[k];
    return 0;
}

static int rule_applies_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    if (!w->m.v) {
        rule_cc_error(
            cc, w->y.n, 0,
            "a rule has no \"applies\" (write \"all\", a list of versions, or {from: V})");
        return -1;
    }
    return rule_cc_versions(cc, w->m, &b->r.applies) < 0 ? -1 : 0;
}

static int rule_based_on_member(struct cc *cc, struct rule_lang_walk *w)
{
    if (!w->m.v)
        rule_cc_error(cc, w->y.n, 0, "a rule has no \"based-on\" (cite its Tier 1 source)");
    else walk_list(cc, w->m, w->row, w->out);
    return 0;
}

static int rule_preset_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    return compile_preset(cc, w->y, &b->r);
}

static int rule_yields_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    compile_yields(cc, w->y, &b->r);
    return 0;
}

static int rule_check_member(struct cc *cc, struct rule_lang_walk *w)
{
    struct rule_build *b = w->out;
    if (!w->m.v) {
        rule_cc_error(cc, w->y.n, 0, "a rule has no \"check\"");
        return -1;
    }
    if (!(b->r.check = compile_clause(cc, w->m, "check"))) return -1;
    b->r.session = clause_uses_session(b->r.check);
    return rule_cc_check_change(cc, w->y, &b->r);
}

/* A rule's members (rules-yaml/README.md, "A rule"), in the documented order; the steps
 * keep the loader's order of errors: id, the required strings, level, applies, paths
 * and gaps, required-by, based-on, examples, preset, yields-to, check. */
static const struct rule_lang_member rule_members[] = {
    {"id", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the rule's id: dot-separated lowercase words, unique in the set", NULL, NULL, rule_id_member,
     0},
    {"owner", RULE_LANG_STRING, RULE_LANG_REQUIRED, "who maintains the rule", NULL, NULL, NULL, 1},
    {"surface", RULE_LANG_STRING, RULE_LANG_REQUIRED, "the part of the document it judges", NULL,
     NULL, NULL, 1},
    {"paths", RULE_LANG_STRINGS, 0, "the document paths it looks at, for readers", NULL, NULL, NULL,
     4},
    {"kind", RULE_LANG_STRING, RULE_LANG_REQUIRED, "what sort of check it is", NULL, NULL, NULL, 1},
    {"level", RULE_LANG_ENUM, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "must (error), should (warning) or may (info)", NULL, level_names, rule_level_member, 2},
    {"status", RULE_LANG_STRING, RULE_LANG_REQUIRED, "how settled the rule is", NULL, NULL, NULL,
     1},
    {"enforcement", RULE_LANG_STRING, RULE_LANG_REQUIRED, "how the rule is enforced", NULL, NULL,
     NULL, 1},
    {"applies", RULE_LANG_VERSIONS, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the protocol versions the rule judges", &rule_cc_lang_version_range, NULL,
     rule_applies_member, 3},
    {"summary", RULE_LANG_STRING, RULE_LANG_REQUIRED, "one line: what the rule checks", NULL, NULL,
     NULL, 1},
    {"requirement", RULE_LANG_STRING, RULE_LANG_REQUIRED, "the requirement, in full", NULL, NULL,
     NULL, 1},
    {"required-by", RULE_LANG_MAPPINGS, 0, "the documents and sections that require it",
     &rule_cc_lang_required_by, NULL, NULL, 5},
    {"based-on", RULE_LANG_MAPPINGS, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "its sources, each with its tier", &rule_cc_lang_based_on, NULL, rule_based_on_member, 6},
    {"gaps", RULE_LANG_STRINGS, 0, "what the rule does not check, and why", NULL, NULL, NULL, 4},
    {"examples", RULE_LANG_MAPPINGS, 0, "fixtures it judges, each with the expected verdict",
     &rule_cc_lang_example, NULL, NULL, 7},
    {"compare", RULE_LANG_STRING, RULE_LANG_OWN,
     "a change rule's items, judged in pairs by mcpdesc diff: a collection (tools, ...) or "
     "document",
     NULL, NULL, rule_cc_compare_member, 9},
    {"category", RULE_LANG_ENUM, RULE_LANG_OWN,
     "a change rule's category: caller, output, protocol, trust or compatible", NULL,
     rule_category_names, rule_cc_category_member, 9},
    {"yields-to", RULE_LANG_RULE_IDS, RULE_LANG_OWN,
     "rules (or id prefixes ending in .*) whose finding at the same place silences this one", NULL,
     NULL, rule_yields_member, 9},
    {"check", RULE_LANG_CLAUSE, RULE_LANG_REQUIRED | RULE_LANG_OWN, "what the rule judges",
     &rule_cc_lang_clause, NULL, rule_check_member, 10},
    {"preset", RULE_LANG_ENUM, RULE_LANG_OWN,
     "strict or all: a preset beyond recommended that runs the rule", NULL, preset_values,
     rule_preset_member, 8},
    /* checked by preset's handler */
    {"preset-reason", RULE_LANG_STRING, RULE_LANG_OWN,
     "with preset: why a server author is better off without it by default", NULL, NULL, NULL, 8},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_cc_lang_rule = {
    "rule", RULE_NAMES_RULE, "rule-file.schema.json#/$defs/Rule", rule_members, NULL};

/* Keep what the refused rule Y still says (its id as written, file and positions) for the
 * readers of a partial program (rule_set_load_partial); VALID_ID is its id when well formed
 * and not a duplicate, else NULL. */
static void refuse_rule(struct cc *cc, struct yv y, const char *valid_id, const char *file)
{
    struct yv idv = rule_yv_member(cc, y, "id");
    struct doc_pos pos = doc_node_pos(cc->d, y.n), ip = {0, 0};
    if (idv.v) ip = doc_node_pos(cc->d, idv.n);
    const char *written = json_string_value(idv.v);
    struct rule_refused rr = {written ? xstrdup(written) : NULL,
                              xstrdup(file),
                              pos.line,
                              pos.col,
                              ip.line,
                              ip.col,
                              valid_id != NULL};
    VEC_PUSH(cc->rs->refused, rr);
}

void rule_compile_rule(struct cc *cc, struct yv y, const char *file)
{
    if (!json_is_object(y.v)) {
        rule_cc_error(cc, y.n, 0, "a rule must be a mapping, not a %s", rule_json_type_name(y.v));
        return;
    }
    struct rule_build b;
    memset(&b, 0, sizeof b);
    int bad = rule_cc_members(cc, y, &rule_cc_lang_rule, "a rule", &b) < 0;
    const char *id = b.id;
    struct rule r = b.r;
    if (!id) bad = 1;
    if (bad) {
        refuse_rule(cc, y, id, file);
        rule_release(&r);
        return;
    }
    struct doc_pos pos = doc_node_pos(cc->d, y.n);
    r.id = xstrdup(id);
    r.meta = json_incref(y.v);
    r.file = xstrdup(file);
    r.line = pos.line;
    r.col = pos.col;
    r.origin = cc->rs;
    VEC_PUSH(cc->rs->rules, r);
}
