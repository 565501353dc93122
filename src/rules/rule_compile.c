/* rule_compile.c - the rule language's compiler: the names it accepts (rule_names),
 * its positioned errors, and each rule of a rule file checked member by member against
 * what rules-yaml/README.md documents, its `check` compiled into clauses and predicates
 * (ruleInt.h), its fixes, yields and preset. Errors never stop a file early: a rule
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
#include "schema/schema.h"

/* ---- the names the loader accepts (rule_names: editors complete from these) ------ */

static const char *const file_members[] = {"predicates", "rules", NULL};
static const char *const rule_members[] = {
    "id",          "owner",     "surface", "paths",       "kind",          "level",    "status",
    "enforcement", "applies",   "summary", "requirement", "required-by",   "based-on", "gaps",
    "examples",    "yields-to", "check",   "preset",      "preset-reason", NULL};
static const char *const clause_members[] = {"versions",  "select", "when", "require",
                                             "message",   "hint",   "all",  "first",
                                             "report-at", "fix",    NULL};
static const char *const fix_members[] = {"title", "when", "at",     "replace",
                                          "set",   "add",  "remove", NULL};
static const char *const example_members[] = {"expect", "fixture", "pointer",
                                              "note",   "after",   NULL};
static const char *const expect_names[] = {"valid", "invalid", "warning", "info", "fix", NULL};
static const char *const required_by_members[] = {"document", "section", "title", "requirement",
                                                  NULL};
static const char *const based_on_members[] = {"tier", "text", "url", NULL};
static const char *const range_members[] = {"from", "before", NULL};
static const char *const manifest_members[] = {
    "name",       "tag",   "description-format", "docs-url", "versions", "tiers", "document",
    "schema-map", "files", "fixtures",           "extends",  NULL};
static const char *const document_members[] = {"versions-member", "collections", "component-ref",
                                               NULL};
static const char *const component_ref_members[] = {"member", "prefix", "scopes", NULL};
static const char *const report_at_names[] = {"node", "failure", NULL};
/* ORDER level_names level_values */
static const char *const level_names[] = {"must", "should", "may", NULL};
static const enum diag_level level_values[] = {DIAG_ERROR, DIAG_WARNING, DIAG_INFO};

const char *const *rule_names(enum rule_names which)
{
    switch (which) {
    case RULE_NAMES_FILE: return file_members;
    case RULE_NAMES_RULE: return rule_members;
    case RULE_NAMES_CLAUSE: return clause_members;
    case RULE_NAMES_FIX: return fix_members;
    case RULE_NAMES_EXAMPLE: return example_members;
    case RULE_NAMES_EXPECT: return expect_names;
    case RULE_NAMES_REQUIRED_BY: return required_by_members;
    case RULE_NAMES_BASED_ON: return based_on_members;
    case RULE_NAMES_VERSION_RANGE: return range_members;
    case RULE_NAMES_MANIFEST: return manifest_members;
    case RULE_NAMES_DOCUMENT: return document_members;
    case RULE_NAMES_COMPONENT_REF: return component_ref_members;
    case RULE_NAMES_REPORT_AT: return report_at_names;
    case RULE_NAMES_LEVEL: return level_names;
    }
    return NULL;
}

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

struct yv rule_yv_member(struct cc *cc, struct yv y, const char *key)
{
    struct yv out = {NULL, DOC_NONE};
    if (!json_is_object(y.v)) return out;
    size_t i = 0;
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it), i++) {
        if (strcmp(json_object_iter_key(it), key) != 0) continue;
        out.v = json_object_iter_value(it);
        out.n = doc_node_item(cc->d, y.n, i);
        return out;
    }
    return out;
}

struct yv rule_yv_item(struct cc *cc, struct yv y, size_t i)
{
    struct yv out = {json_array_get(y.v, i), doc_node_item(cc->d, y.n, i)};
    return out;
}

const char *rule_json_type_name(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "mapping";
    case JSON_ARRAY: return "list";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

/* The closest of NAMES (NULL-terminated) to S, if close enough to be a typo. */
const char *rule_cc_nearest(const char *s, const char *const *names)
{
    const char *best = NULL;
    size_t bd = 3;
    for (; *names; names++) {
        size_t d = util_edit_distance(s, *names);
        if (d < bd) {
            bd = d;
            best = *names;
        }
    }
    return best;
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

/* Report members of mapping Y that are not in ALLOWED; a did-you-mean looks in PREFER
 * (a part of ALLOWED, or NULL) first. */
static void check_members_prefer(struct cc *cc, struct yv y, const char *what,
                                 const char *const *allowed, const char *const *prefer)
{
    size_t i = 0;
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it), i++) {
        const char *k = json_object_iter_key(it);
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++) ok = !strcmp(*a, k);
        if (!ok) unknown_member(cc, y, i, k, what, allowed, prefer);
    }
}

/* Report members of mapping Y that are not in ALLOWED. */
void rule_cc_check_members(struct cc *cc, struct yv y, const char *what, const char *const *allowed)
{
    check_members_prefer(cc, y, what, allowed, NULL);
}

const char *rule_cc_need_string(struct cc *cc, struct yv parent, const char *key, const char *what,
                                int required)
{
    struct yv y = rule_yv_member(cc, parent, key);
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
    case VER_SPEC_UNKNOWN_MEMBER:
        unknown_member(cc, sc->y, (size_t)e->index, e->member, "a version range", range_members,
                       NULL);
        break;
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

/* A clause's `fix` (rules-yaml/README.md, "Fixes"): {title, when?, at?, and exactly one
 * of replace: VALUE, set: {member, value}, add: {member, value}, remove: MEMBER}. NULL
 * after reporting. Every error carries a hint of its own. */
static struct rule_fix *compile_fix(struct cc *cc, struct yv y)
{
    static const char *const edit_members[] = {"member", "value", NULL};
    if (!json_is_object(y.v)) {
        rule_cc_error_hint(cc, y.n, 0,
                           "write fix: {title: TEXT, replace: VALUE} (or set, add, remove)",
                           "a fix must be a mapping, not a %s", rule_json_type_name(y.v));
        return NULL;
    }
    int nops = 0;
    for (int i = 0; fix_ops[i]; i++) nops += rule_yv_member(cc, y, fix_ops[i]).v != NULL;
    /* without an action, a misspelt member is most likely the action ("ad": "add", not
     * "at") */
    check_members_prefer(cc, y, "a fix", fix_members, nops ? NULL : fix_ops);
    struct rule_fix *f = xcalloc(1, sizeof *f);
    struct doc_pos pos = doc_node_pos(cc->d, y.n);
    f->line = pos.line;
    f->col = pos.col;
    int bad = 0;
    struct yv t = rule_yv_member(cc, y, "title");
    if (!t.v) {
        rule_cc_error_hint(cc, y.n, 0, "add title: TEXT, what an editor shows for the fix",
                           "a fix has no \"title\" (it is required)");
        bad = 1;
    } else if (!json_is_string(t.v)) {
        rule_cc_error_hint(cc, t.n, 0, "write title: TEXT, what an editor shows for the fix",
                           "\"title\" of a fix must be a string, not a %s",
                           rule_json_type_name(t.v));
        bad = 1;
    } else {
        f->title = xstrdup(json_string_value(t.v));
    }
    struct yv w = rule_yv_member(cc, y, "when");
    if (w.v && !(f->when = rule_cc_pred(cc, w))) bad = 1;
    struct yv at = rule_yv_member(cc, y, "at");
    f->at = xstrdup("");
    if (at.v) {
        struct ptr parsed;
        const char *why;
        const char *a = json_string_value(at.v);
        char *full = a ? xasprintf("/%s", a) : NULL;
        if (!a || a[0] == '/' || !a[0]) {
            const char *rel = a;
            while (rel && *rel == '/') rel++;
            char *hint =
                xasprintf("write at: %s (relative to the finding, no leading slash)%s",
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
    }
    int seen = 0;
    for (int i = 0; fix_ops[i]; i++) {
        struct yv e = rule_yv_member(cc, y, fix_ops[i]);
        if (!e.v) continue;
        if (seen++) continue;
        f->op = (enum rule_fix_op)i;
        if (i == RULE_FIX_REPLACE) {
            f->value = json_incref(e.v);
        } else if (i == RULE_FIX_REMOVE) {
            if (!json_is_string(e.v)) {
                rule_cc_error_hint(cc, e.n, 0, "write remove: NAME, the member to remove",
                                   "\"remove\" of a fix names a member (a string), not a %s",
                                   rule_json_type_name(e.v));
                bad = 1;
            } else {
                f->member = xstrdup(json_string_value(e.v));
            }
        } else if (!json_is_object(e.v)) {
            rule_cc_error_hint(cc, e.n, 0, "write {member: NAME, value: VALUE}",
                               "\"%s\" of a fix must be a mapping, not a %s", fix_ops[i],
                               rule_json_type_name(e.v));
            bad = 1;
        } else {
            rule_cc_check_members(cc, e, fix_ops[i], edit_members);
            struct yv m = fix_edit_member(cc, e, fix_ops[i], "member");
            struct yv v = fix_edit_member(cc, e, fix_ops[i], "value");
            if (m.v && !json_is_string(m.v)) {
                rule_cc_error_hint(cc, m.n, 0, "write member: NAME, the member's name",
                                   "\"member\" of \"%s\" of a fix must be a string, not a %s",
                                   fix_ops[i], rule_json_type_name(m.v));
                m.v = NULL;
            }
            if (!m.v || !v.v) bad = 1;
            f->member = m.v ? xstrdup(json_string_value(m.v)) : NULL;
            f->value = v.v ? json_incref(v.v) : NULL;
        }
    }
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

static struct clause *compile_clause(struct cc *cc, struct yv y, const char *what)
{
    if (!json_is_object(y.v)) {
        rule_cc_error(cc, y.n, 0,
                      "%s must be a mapping (with select/when/require/message or "
                      "all/first), not a %s",
                      what, rule_json_type_name(y.v));
        return NULL;
    }
    rule_cc_check_members(cc, y, what, clause_members);
    struct clause *c = xcalloc(1, sizeof *c);
    struct doc_pos pos = doc_node_pos(cc->d, y.n);
    c->line = pos.line;
    c->col = pos.col;
    c->vmask = ver_all(&cc->rs->versions);
    int bad = 0;
    struct yv v = rule_yv_member(cc, y, "versions");
    if (v.v && rule_cc_versions(cc, v, &c->vmask) < 0) bad = 1;
    struct yv s = rule_yv_member(cc, y, "select");
    if (s.v) {
        size_t n = json_is_array(s.v) ? json_array_size(s.v) : 1;
        if (n == 0) {
            rule_cc_error(cc, s.n, 0, "select needs at least one selector");
            bad = 1;
        }
        c->sels = xcalloc(n ? n : 1, sizeof *c->sels);
        for (size_t i = 0; i < n; i++) {
            struct yv e = json_is_array(s.v) ? rule_yv_item(cc, s, i) : s;
            c->sels[c->nsels] = rule_cc_sel(cc, e);
            if (c->sels[c->nsels]) c->nsels++;
            else bad = 1;
        }
    }
    struct yv w = rule_yv_member(cc, y, "when");
    if (w.v && !(c->when = rule_cc_pred(cc, w))) bad = 1;
    struct yv r = rule_yv_member(cc, y, "require");
    struct yv all = rule_yv_member(cc, y, "all"), first = rule_yv_member(cc, y, "first");
    int forms = !!r.v + !!all.v + !!first.v;
    if (forms != 1) {
        rule_cc_error(cc, y.n, 0,
                      "%s needs exactly one of \"require\" (a predicate), \"all\" "
                      "or \"first\" (lists of checks)%s",
                      what, forms ? "; found several" : "");
        bad = 1;
    }
    if (r.v) {
        if (!(c->require = rule_cc_pred(cc, r))) bad = 1;
        const char *msg = rule_cc_need_string(cc, y, "message", what, 1);
        c->message = msg ? xstrdup(msg) : NULL;
        if (!msg) bad = 1;
    } else if (rule_yv_member(cc, y, "message").v) {
        rule_cc_error(cc, rule_yv_member(cc, y, "message").n, 1,
                      "\"message\" belongs beside \"require\"; a check with \"all\"/\"first\" "
                      "reports through its sub-checks");
        bad = 1;
    }
    const char *hint = rule_cc_need_string(cc, y, "hint", what, 0);
    c->hint = hint ? xstrdup(hint) : NULL;
    struct yv fx = rule_yv_member(cc, y, "fix");
    if (fx.v && !r.v) {
        rule_cc_error(cc, fx.n, 1,
                      "\"fix\" belongs beside \"require\" and \"message\" (the finding it "
                      "fixes)");
        bad = 1;
    } else if (fx.v) { /* a fix, or a list of them */
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
    }
    struct yv at = rule_yv_member(cc, y, "report-at");
    if (at.v) {
        const char *a = json_string_value(at.v);
        int known = 0;
        for (const char *const *k = report_at_names; a && *k; k++) known |= !strcmp(*k, a);
        if (!known) {
            rule_cc_error(cc, at.n, 0,
                          "report-at is \"node\" (the judged node, the default) or "
                          "\"failure\" (the value where matches-schema failed)");
            bad = 1;
        } else if (!r.v) {
            rule_cc_error(cc, at.n, 1, "\"report-at\" belongs beside \"require\"");
            bad = 1;
        } else {
            c->at_failure = !strcmp(a, report_at_names[1]);
        }
    }
    struct yv kids = all.v ? all : first;
    if (kids.v) {
        c->first = first.v != NULL;
        if (!json_is_array(kids.v) || !json_array_size(kids.v)) {
            rule_cc_error(cc, kids.n, 0, "\"%s\" takes a non-empty list of checks",
                          c->first ? "first" : "all");
            bad = 1;
        } else {
            c->kids = xcalloc(json_array_size(kids.v), sizeof *c->kids);
            for (size_t i = 0; i < json_array_size(kids.v); i++) {
                struct clause *k = compile_clause(cc, rule_yv_item(cc, kids, i), "a check");
                if (k) c->kids[c->nkids++] = k;
                else bad = 1;
            }
        }
    }
    if (bad) {
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

static void check_objects(struct cc *cc, struct yv y, const char *key, const char *const *allowed,
                          const char *const *required)
{
    if (!json_is_array(y.v)) {
        rule_cc_error(cc, y.n, 0, "\"%s\" must be a list of mappings", key);
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        if (!json_is_object(e.v)) {
            rule_cc_error(cc, e.n, 0, "\"%s\" entries must be mappings, not a %s", key,
                          rule_json_type_name(e.v));
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "a \"%s\" entry", key);
        rule_cc_check_members(cc, e, what, allowed);
        for (const char *const *r = required; *r; r++) rule_cc_need_string(cc, e, *r, what, 1);
    }
}

static void check_examples(struct cc *cc, struct yv y)
{
    static const char *const required[] = {"fixture", "pointer", NULL};
    check_objects(cc, y, "examples", example_members, required);
    for (size_t i = 0; json_is_array(y.v) && i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        const char *ex = rule_cc_need_string(cc, e, "expect", "an example", 1);
        int known = 0;
        for (const char *const *k = expect_names; ex && *k; k++) known |= !strcmp(*k, ex);
        if (ex && !known)
            rule_cc_error(cc, rule_yv_member(cc, e, "expect").n, 0,
                          "expect must be valid, invalid, warning, info or fix, not \"%s\"", ex);
        struct yv after = rule_yv_member(cc, e, "after");
        if (ex && !strcmp(ex, "fix")) {
            rule_cc_need_string(cc, e, "after", "a fix example", 1);
        } else if (after.v) {
            rule_cc_error_hint(cc, after.n, 1,
                               "write {expect: fix, fixture: BEFORE, after: AFTER, pointer: P}",
                               "\"after\" belongs to an example with expect: fix");
        }
        struct yv p = rule_yv_member(cc, e, "pointer");
        struct ptr parsed;
        const char *why;
        if (json_is_string(p.v)) {
            if (ptr_parse(json_string_value(p.v), &parsed, &why) < 0)
                rule_cc_error_hint(
                    cc, p.n, 0,
                    "an example's pointer is an RFC 6901 pointer from the fixture's root, "
                    "e.g. /tools/0/inputSchema",
                    "bad JSON Pointer: %s", why);
            else ptr_release(&parsed);
        }
    }
}

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
        for (size_t k = 0; k < r->nyields; k++) {
            size_t hits = 0;
            for (size_t j = 0; j < rs->rules.len; j++)
                hits += j != i && rule_yield_matches(r->yields[k].pattern, rs->rules.items[j].id);
            for (size_t j = 0; j < res_nbuiltins; j++) /* built-in rules report too */
                hits += rule_yield_matches(r->yields[k].pattern, res_builtins[j].id);
            for (size_t j = 0; j < rs->refused.len; j++) /* already reported: no second error */
                hits += rs->refused.items[j].id_valid && strcmp(rs->refused.items[j].id, r->id) &&
                    rule_yield_matches(r->yields[k].pattern, rs->refused.items[j].id);
            if (hits || rs->unread) continue; /* unread: the rule may be there */
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
            const char *near =
                name ? rule_cc_nearest(name, (const char *const[]){"strict", "all", NULL}) : NULL;
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
    rule_cc_check_members(cc, y, "a rule", rule_members);
    const char *id = rule_cc_need_string(cc, y, "id", "a rule", 1);
    const char *what = "a rule";
    if (id && !valid_rule_id(id)) {
        rule_cc_error(
            cc, rule_yv_member(cc, y, "id").n, 0,
            "rule id \"%s\" must be dot-separated lowercase words, e.g. mcp.tool.name.unique", id);
        id = NULL;
    }
    const struct rule *dup = id ? rule_set_find(cc->rs, id) : NULL;
    if (dup && dup->borrowed) {
        struct buf at = BUF_INIT;
        buf_addf(&at, "%s/", rule_origin_dir(dup));
        loc_add(&at, dup->file, dup->line, dup->col);
        rule_cc_error_hint(cc, rule_yv_member(cc, y, "id").n, 0,
                           "rule ids are unique across a set and its base: rename the rule "
                           "(an organisation's ids start with its own prefix)",
                           "duplicate rule id \"%s\": the base set %s %s has it (%s)", id,
                           rule_origin_name(dup), rule_origin_tag(dup), buf_str(&at));
        buf_release(&at);
        id = NULL;
    } else if (dup) {
        char *at = loc_format(dup->file, dup->line, dup->col);
        rule_cc_error_hint(cc, rule_yv_member(cc, y, "id").n, 0,
                           "rule ids are unique in the set: rename one of the rules",
                           "duplicate rule id \"%s\" (first defined at %s)", id, at);
        free(at);
        id = NULL;
    }
    static const char *const strings[] = {"owner",       "surface", "kind",        "status",
                                          "enforcement", "summary", "requirement", NULL};
    for (const char *const *s = strings; *s; s++) rule_cc_need_string(cc, y, *s, what, 1);
    struct rule r;
    memset(&r, 0, sizeof r);
    int bad = !id;
    const char *level = rule_cc_need_string(cc, y, "level", what, 1);
    if (level) {
        size_t k = 0;
        while (level_names[k] && strcmp(level_names[k], level)) k++;
        if (level_names[k]) r.level = level_values[k];
        else {
            rule_cc_error_hint(
                cc, rule_yv_member(cc, y, "level").n, 0, "write must, should or may in lower case",
                "level must be must (error), should (warning) or may (info), not \"%s\"", level);
            bad = 1;
        }
    } else {
        bad = 1;
    }
    struct yv applies = rule_yv_member(cc, y, "applies");
    if (!applies.v) {
        rule_cc_error(
            cc, y.n, 0,
            "a rule has no \"applies\" (write \"all\", a list of versions, or {from: V})");
        bad = 1;
    } else if (rule_cc_versions(cc, applies, &r.applies) < 0) {
        bad = 1;
    }
    struct yv paths = rule_yv_member(cc, y, "paths");
    if (paths.v) rule_cc_check_string_list(cc, paths, "paths", what);
    struct yv gaps = rule_yv_member(cc, y, "gaps");
    if (gaps.v) rule_cc_check_string_list(cc, gaps, "gaps", what);
    static const char *const rb_required[] = {"document", "section", NULL};
    struct yv rb = rule_yv_member(cc, y, "required-by");
    if (rb.v) check_objects(cc, rb, "required-by", required_by_members, rb_required);
    static const char *const bo_required[] = {NULL};
    struct yv bo = rule_yv_member(cc, y, "based-on");
    if (!bo.v) rule_cc_error(cc, y.n, 0, "a rule has no \"based-on\" (cite its Tier 1 source)");
    else {
        check_objects(cc, bo, "based-on", based_on_members, bo_required);
        for (size_t i = 0; json_is_array(bo.v) && i < json_array_size(bo.v); i++) {
            struct yv e = rule_yv_item(cc, bo, i);
            struct yv tier = rule_yv_member(cc, e, "tier");
            if (!json_is_object(e.v)) continue;
            if (!json_is_integer(tier.v) || json_integer_value(tier.v) < 1 ||
                json_integer_value(tier.v) > 4)
                rule_cc_error(cc, tier.v ? tier.n : e.n, 0, "based-on needs \"tier\": 1 to 4");
            if (!rule_yv_member(cc, e, "text").v && !rule_yv_member(cc, e, "url").v)
                rule_cc_error(cc, e.n, 0, "a based-on entry needs \"text\", \"url\" or both");
        }
    }
    struct yv ex = rule_yv_member(cc, y, "examples");
    if (ex.v) check_examples(cc, ex);
    if (compile_preset(cc, y, &r) < 0) bad = 1;
    compile_yields(cc, y, &r);
    struct yv check = rule_yv_member(cc, y, "check");
    if (!check.v) {
        rule_cc_error(cc, y.n, 0, "a rule has no \"check\"");
        bad = 1;
    } else if (!(r.check = compile_clause(cc, check, "check"))) {
        bad = 1;
    }
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
