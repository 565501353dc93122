/* rule.c - load and compile a rule set: manifest.yaml, then each rule file, each rule
 * checked field by field against what rules-yaml/README.md documents, and its `check`
 * compiled into clauses and predicates (ruleInt.h). Errors never stop the load early:
 * a rule author sees every mistake of a file, each at its line and column. */
#include "rules/rule.h"

#include <limits.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "rules/lock.h"
#include "rules/release.h"
#include "rules/ruleInt.h"
#include "schema/schema.h"
#include "base/uri.h"
#include "base/util.h"

struct named_pred {
    char *name;
    struct yv y;
    const doc *d; /* the rule file that defines it */
    struct pred *compiled;
    int busy;
    int failed; /* compiled once and refused: its errors are reported once, not per use */
};

/* The named predicates of every rule file of a set, shared by its files. */
struct named_preds {
    VEC(struct named_pred) v;
};

/* How deep `extends` may go: a set, its base, the base's base ... */
enum { MAX_EXTENDS = 8 };

/* The sets being loaded, outermost first, to refuse an `extends` cycle. */
struct load_chain {
    const struct load_chain *up;
    const char *real; /* realpath of the set's directory */
    const char *dir;  /* as named */
    size_t depth;
};

/* One file of the set's digest, by kind: a lock of an old format covers only some kinds
 * (lock.c), and a release copies each kind to its own directory. */
struct file_digest {
    char *path;
    char hex[65];
    enum rule_file_kind kind;
};

struct rule_set {
    char *dir;
    struct rule_set *base; /* the set `extends` names (owned), or NULL */
    char *extends;         /* "NAME@TAG" of the base, for the digest line */
    char *name, *tag, *format;
    char *fixtures; /* the manifest's `fixtures` (relative to dir), default ../conformance */
    char digest[7 + 64 + 1];
    char *sums;     /* the `sha256sum` lines the digest is taken over (a release's SHA256SUMS) */
    char *released; /* the tag whose lock records exactly these files, else NULL */
    char *display_tag;
    struct ver_list versions;
    char *versions_member, *ref_member, *ref_prefix;
    VEC(char *) collections;
    VEC(struct sel *) scopes;
    struct res_config rescfg;
    VEC(struct rule) rules;
    VEC(char *) refused_ids;  /* ids of rules that did not compile (yields-to may name them) */
    VEC(char *) missing_dirs; /* schema directories reported missing (each said once) */
    char *unread; /* the first rule file that could not be read or parsed, else NULL: the
                   * checks across files (yields-to, use:) are left out, since what they
                   * look for may be there */
    VEC(char *) files;
    VEC(struct pred *) shared_preds; /* named predicates, referenced by `use` */
    VEC(struct file_digest) digests; /* manifest and rule files, sorted by path */
    json_t *manifest;
    schema_ctx *schemas;                /* JSON Schema registry for schema predicates */
    const struct rule_overlay *overlay; /* during the load only (rule_load_opts) */
};

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
static void set_error(struct diag_list *errs, const char *file, uint32_t line, uint32_t col,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void set_error(struct diag_list *errs, const char *file, uint32_t line, uint32_t col,
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
static const char *nearest(const char *s, const char *const *names)
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
    const char *near = prefer ? nearest(k, prefer) : NULL;
    if (!near) near = nearest(k, allowed);
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
static void check_members(struct cc *cc, struct yv y, const char *what, const char *const *allowed)
{
    check_members_prefer(cc, y, what, allowed, NULL);
}

static const char *need_string(struct cc *cc, struct yv parent, const char *key, const char *what,
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
    const char *near = nearest(s, names);
    for (size_t k = 0; k < fn_count; k++) names[k] = fn_table[k].name;
    names[fn_count] = NULL;
    const char *builtin = fn_lookup(s) ? s : near ? NULL : nearest(s, names);
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
        const char *near = nearest(name, names);
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

static void clause_free(struct clause *c);

static void fix_free(struct rule_fix *f)
{
    if (!f) return;
    free(f->title);
    fn_pred_free(f->when);
    free(f->at);
    free(f->member);
    json_decref(f->value);
    free(f);
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
            check_members(cc, e, fix_ops[i], edit_members);
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
        fix_free(f);
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
    check_members(cc, y, what, clause_members);
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
        const char *msg = need_string(cc, y, "message", what, 1);
        c->message = msg ? xstrdup(msg) : NULL;
        if (!msg) bad = 1;
    } else if (rule_yv_member(cc, y, "message").v) {
        rule_cc_error(cc, rule_yv_member(cc, y, "message").n, 1,
                      "\"message\" belongs beside \"require\"; a check with \"all\"/\"first\" "
                      "reports through its sub-checks");
        bad = 1;
    }
    const char *hint = need_string(cc, y, "hint", what, 0);
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
        clause_free(c);
        return NULL;
    }
    return c;
}

static void clause_free(struct clause *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nsels; i++) sel_free(c->sels[i]);
    free(c->sels);
    fn_pred_free(c->when);
    fn_pred_free(c->require);
    free(c->message);
    free(c->hint);
    for (size_t i = 0; i < c->nfixes; i++) fix_free(c->fixes[i]);
    free(c->fixes);
    for (size_t i = 0; i < c->nkids; i++) clause_free(c->kids[i]);
    free(c->kids);
    free(c);
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

static void check_string_list(struct cc *cc, struct yv y, const char *key, const char *what)
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
        check_members(cc, e, what, allowed);
        for (const char *const *r = required; *r; r++) need_string(cc, e, *r, what, 1);
    }
}

static void check_examples(struct cc *cc, struct yv y)
{
    static const char *const required[] = {"fixture", "pointer", NULL};
    check_objects(cc, y, "examples", example_members, required);
    for (size_t i = 0; json_is_array(y.v) && i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        const char *ex = need_string(cc, e, "expect", "an example", 1);
        int known = 0;
        for (const char *const *k = expect_names; ex && *k; k++) known |= !strcmp(*k, ex);
        if (ex && !known)
            rule_cc_error(cc, rule_yv_member(cc, e, "expect").n, 0,
                          "expect must be valid, invalid, warning, info or fix, not \"%s\"", ex);
        struct yv after = rule_yv_member(cc, e, "after");
        if (ex && !strcmp(ex, "fix")) {
            need_string(cc, e, "after", "a fix example", 1);
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

static int yield_matches(const char *pat, const char *id)
{
    size_t n = strlen(pat);
    if (n > 2 && !strcmp(pat + n - 2, ".*")) return !strncmp(pat, id, n - 1); /* "PREFIX." */
    return !strcmp(pat, id);
}

int rule_yields_to(const struct rule *r, const char *id)
{
    if (!id || !strcmp(r->id, id)) return 0;
    for (size_t i = 0; i < r->nyields; i++)
        if (yield_matches(r->yields[i].pattern, id)) return 1;
    return 0;
}

size_t rule_yields_count(const struct rule *r)
{
    return r->nyields;
}

/* Every yields-to entry must name at least one other rule of the set (or a built-in
 * rule): a typo would
 * silently never yield. */
static void check_yields(const struct rule_set *rs, struct diag_list *errs)
{
    for (size_t i = 0; i < rs->rules.len; i++) {
        const struct rule *r = &rs->rules.items[i];
        if (r->borrowed) continue; /* checked when its own set loaded */
        for (size_t k = 0; k < r->nyields; k++) {
            size_t hits = 0;
            for (size_t j = 0; j < rs->rules.len; j++)
                hits += j != i && yield_matches(r->yields[k].pattern, rs->rules.items[j].id);
            for (size_t j = 0; j < res_nbuiltins; j++) /* built-in rules report too */
                hits += yield_matches(r->yields[k].pattern, res_builtins[j].id);
            for (size_t j = 0; j < rs->refused_ids.len; j++) /* already reported: no second error */
                hits += strcmp(rs->refused_ids.items[j], r->id) &&
                    yield_matches(r->yields[k].pattern, rs->refused_ids.items[j]);
            if (hits || rs->unread) continue; /* unread: the rule may be there */
            char *path = xasprintf("%s/%s", rs->dir, r->file);
            set_error(errs, path, r->yields[k].line, r->yields[k].col,
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
                name ? nearest(name, (const char *const[]){"strict", "all", NULL}) : NULL;
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

static void rule_release(struct rule *r)
{
    if (r->borrowed) return; /* the base set frees it */
    free(r->id);
    free(r->file);
    json_decref(r->meta);
    clause_free(r->check);
    for (size_t i = 0; i < r->nyields; i++) free(r->yields[i].pattern);
    free(r->yields);
}

static void compile_rule(struct cc *cc, struct yv y, const char *file)
{
    if (!json_is_object(y.v)) {
        rule_cc_error(cc, y.n, 0, "a rule must be a mapping, not a %s", rule_json_type_name(y.v));
        return;
    }
    check_members(cc, y, "a rule", rule_members);
    const char *id = need_string(cc, y, "id", "a rule", 1);
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
    for (const char *const *s = strings; *s; s++) need_string(cc, y, *s, what, 1);
    struct rule r;
    memset(&r, 0, sizeof r);
    int bad = !id;
    const char *level = need_string(cc, y, "level", what, 1);
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
    if (paths.v) check_string_list(cc, paths, "paths", what);
    struct yv gaps = rule_yv_member(cc, y, "gaps");
    if (gaps.v) check_string_list(cc, gaps, "gaps", what);
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
        if (id) VEC_PUSH(cc->rs->refused_ids, xstrdup(id));
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

/* Load DIR/NAME as YAML; on failure append its positioned error and return NULL.
 * *PATH receives the new path string (free it). */
static doc *load_rule_yaml(struct rule_set *rs, const char *name, char **path,
                           struct diag_list *errs)
{
    *path = xasprintf("%s/%s", rs->dir, name);
    struct doc_error derr;
    doc *d = rule_overlay_load(rs->overlay, *path, &derr);
    if (!d) {
        set_error(errs, *path, derr.line, derr.col, "%s", derr.message);
        int yaml = !strncmp(derr.message, "invalid YAML", 12);
        int first = !rs->unread && strcmp(name, "manifest.yaml");
        if (first) rs->unread = xstrdup(name);
        struct diag *dg = &errs->items[errs->len - 1];
        char *hint = xasprintf(
            "%s%s%s%s",
            yaml ? "check the YAML syntax near here: an unclosed { or [, a missing ':' or quote, "
                   "or an indentation that does not line up"
                 : dg->hint,
            /* the skipped checks are said once, here, where the set has other files */
            first && rs->files.len > 1 ? "; the checks across files that may need its rules "
                                         "(yields-to, use: of a named predicate) were left out "
                                         "until "
                                       : "",
            first && rs->files.len > 1 ? name : "", first && rs->files.len > 1 ? " reads" : "");
        free(dg->hint);
        dg->hint = hint;
        doc_error_release(&derr);
    }
    return d;
}

/* Compile the set's own rule files: first every file's `predicates:` (one namespace for
 * the set's files: a `use` in one file finds a predicate defined in another; a name
 * defined twice with different bodies is refused, a repeat of the same body is the same
 * predicate), then every file's rules, in manifest order. */
static void compile_files(struct rule_set *rs, struct diag_list *errs)
{
    size_t n = rs->files.len;
    doc **docs = xcalloc(n ? n : 1, sizeof *docs);
    int *nodes = xcalloc(n ? n : 1, sizeof *nodes);
    struct named_preds named = {VEC_INIT};
    for (size_t f = 0; f < n; f++) {
        char *path;
        doc *d = load_rule_yaml(rs, rs->files.items[f], &path, errs);
        free(path);
        if (!d) continue;
        struct cc cc = {d, rs, errs, &named, 0};
        struct yv top = {doc_root(d), 0};
        if (!json_is_object(top.v)) {
            rule_cc_error(
                &cc, 0, 0,
                "a rule file is a mapping with \"rules:\" (and optionally \"predicates:\")");
            doc_free(d);
            continue;
        }
        docs[f] = d;
        check_members(&cc, top, "a rule file", file_members);
        struct yv preds = rule_yv_member(&cc, top, "predicates");
        if (preds.v && !json_is_object(preds.v)) {
            rule_cc_error(&cc, preds.n, 0, "\"predicates\" must be a mapping of name to predicate");
            continue;
        }
        size_t i = 0;
        for (void *it = preds.v ? json_object_iter(preds.v) : NULL; it;
             it = json_object_iter_next(preds.v, it), i++) {
            const char *name = json_object_iter_key(it);
            doc_node at = doc_node_item(d, preds.n, i);
            const struct named_pred *first = NULL;
            for (size_t k = 0; k < named.v.len && !first; k++)
                if (!strcmp(named.v.items[k].name, name)) first = &named.v.items[k];
            if (first && json_equal(first->y.v, json_object_iter_value(it)))
                continue; /* the same definition again (released sets repeat some): one name */
            if (first) {
                struct doc_pos fp = doc_node_key_pos(first->d, first->y.n);
                char *there = loc_format(doc_name(first->d), fp.line, fp.col);
                rule_cc_error_hint(
                    &cc, at, 1,
                    "a named predicate is defined once per set: rename one, or keep one definition",
                    "predicate \"%s\" is defined twice in the set, differently: here and at %s",
                    name, there);
                free(there);
                continue;
            }
            struct named_pred np = {xstrdup(name), {json_object_iter_value(it), at}, d, NULL, 0, 0};
            VEC_PUSH(named.v, np);
        }
    }
    /* compile unused ones too: report their errors, each in its own file */
    for (size_t f = 0; f < n; f++) {
        if (!docs[f]) continue;
        struct cc cc = {docs[f], rs, errs, &named, 0};
        for (size_t k = 0; k < named.v.len; k++) {
            if (named.v.items[k].d != docs[f]) continue;
            struct yv name = {json_string(named.v.items[k].name), named.v.items[k].y.n};
            rule_cc_named(&cc, name);
            json_decref(name.v);
        }
        nodes[f] = cc.nodes;
    }
    for (size_t f = 0; f < n; f++) {
        if (!docs[f]) continue;
        struct cc cc = {docs[f], rs, errs, &named, nodes[f]};
        struct yv top = {doc_root(docs[f]), 0};
        struct yv rules = rule_yv_member(&cc, top, "rules");
        if (!rules.v || !json_is_array(rules.v))
            rule_cc_error(&cc, rules.v ? rules.n : 0, 0,
                          "a rule file needs \"rules:\", a list of rules");
        else
            for (size_t i = 0; i < json_array_size(rules.v); i++)
                compile_rule(&cc, rule_yv_item(&cc, rules, i), rs->files.items[f]);
    }
    for (size_t k = 0; k < named.v.len; k++) free(named.v.items[k].name);
    VEC_FREE(named.v);
    for (size_t f = 0; f < n; f++) doc_free(docs[f]);
    free(docs);
    free(nodes);
}

/* ---- manifest -------------------------------------------------------------------- */

/* A path's canonical form for rule_overlay_is: its directory's real path and its name
 * (new; the path itself when the directory does not resolve). */
static char *overlay_canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
    char *real = realpath(slash == path ? "/" : dir, NULL);
    char *out = real ? xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path)
                     : xstrdup(path);
    free(real);
    free(dir);
    return out;
}

int rule_overlay_is(const struct rule_overlay *ov, const char *path)
{
    if (!ov || !ov->path || !path) return 0;
    if (!strcmp(ov->path, path)) return 1;
    const char *a = strrchr(ov->path, '/'), *b = strrchr(path, '/');
    if (strcmp(a ? a + 1 : ov->path, b ? b + 1 : path)) return 0; /* another name */
    char *ca = overlay_canonical(ov->path), *cb = overlay_canonical(path);
    int same = !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

doc *rule_overlay_load(const struct rule_overlay *ov, const char *path, struct doc_error *err)
{
    if (!rule_overlay_is(ov, path)) return doc_load_file(path, NULL, err);
    size_t n = strlen(path);
    int yaml =
        (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
    return doc_load_buffer(path, ov->data ? ov->data : "", ov->data ? ov->len : 0, yaml, NULL, err);
}

static int read_file(const struct rule_overlay *ov, const char *path, char **data, size_t *len)
{
    if (rule_overlay_is(ov, path)) {
        *len = ov->data ? ov->len : 0;
        *data = xmalloc(*len + 1);
        if (*len) memcpy(*data, ov->data, *len);
        (*data)[*len] = '\0';
        return 0;
    }
    struct buf b = BUF_INIT;
    int rc = buf_read_file(&b, path);
    *len = b.len;
    *data = buf_detach(&b);
    if (rc < 0) {
        free(*data);
        return -1;
    }
    return 0;
}

static void hex_sha256(const char *data, size_t len, char out[65])
{
    struct sha256_ctx ctx;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)data);
    sha256_digest(&ctx, sizeof dg, dg);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(out + 2 * i, 3, "%02x", dg[i]);
}

/* PATH (read as "<rule set dir>/REST") as REST with empty and "." segments dropped, so
 * the same file read twice has one name; NULL for a file outside that form. */
static char *rule_relative_path(const struct rule_set *rs, const char *path)
{
    size_t dl = strlen(rs->dir);
    if (strncmp(path, rs->dir, dl) || path[dl] != '/') return NULL;
    struct buf out = BUF_INIT;
    for (const char *p = path + dl; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        if (n && !(n == 1 && *p == '.')) buf_addf(&out, "%s%.*s", out.len ? "/" : "", (int)n, p);
        p += n;
    }
    return buf_detach(&out);
}

/* DIR/REST as a path relative to the rule set's directory with empty and "." segments
 * dropped ("../conformance" + "expected-valid/a.json"). */
static char *join_relative(const char *dir, const char *rest)
{
    struct buf out = BUF_INIT;
    const char *parts[2] = {dir, rest};
    for (int k = 0; k < 2; k++)
        for (const char *p = parts[k]; *p;) {
            while (*p == '/') p++;
            size_t n = strcspn(p, "/");
            if (n && !(n == 1 && *p == '.'))
                buf_addf(&out, "%s%.*s", out.len ? "/" : "", (int)n, p);
            p += n;
        }
    return buf_detach(&out);
}

struct digest_name {
    const char *path;
    enum rule_file_kind kind;
};

static int name_cmp(const void *a, const void *b)
{
    return strcmp(((const struct digest_name *)a)->path, ((const struct digest_name *)b)->path);
}

/* sha256 over the lines `<sha256 of file>  <path>` of the manifest, every rule file,
 * every schema file the rules loaded and every fixture their examples cite (paths
 * relative to the rule set, e.g. ../schema/mcp/2025-11-25/tool.json), sorted by path:
 * the text `sha256sum` prints, kept as a release's SHA256SUMS, so anyone can recompute
 * it. A cited fixture that does not exist is left out (lint reports it); the set then
 * differs from its lock. */
static void compute_digest(struct rule_set *rs, struct diag_list *errs)
{
    VEC(struct digest_name) names = VEC_INIT;
    VEC(char *) owned = VEC_INIT;
    struct digest_name dn = {"manifest.yaml", RULE_FILE_MANIFEST};
    VEC_PUSH(names, dn);
    for (size_t i = 0; i < rs->files.len; i++) {
        dn = (struct digest_name){rs->files.items[i], RULE_FILE_RULES};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < schema_ctx_file_count(rs->schemas); i++) {
        char *rel = rule_relative_path(rs, schema_ctx_file(rs->schemas, i));
        if (!rel) continue;
        VEC_PUSH(owned, rel);
        dn = (struct digest_name){rel, RULE_FILE_SCHEMA};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < rs->rules.len; i++) {
        if (rs->rules.items[i].borrowed) continue; /* the base's digest covers its fixtures */
        json_t *ex = json_object_get(rs->rules.items[i].meta, "examples"), *e;
        size_t k;
        json_array_foreach(ex, k, e)
        {
            for (int which = 0; which < 2; which++) { /* the fixture, a fix's after */
                const char *fx = json_string_value(json_object_get(e, which ? "after" : "fixture"));
                if (!fx || strstr(fx, "..")) continue; /* lint refuses a fixture outside the dir */
                char *rel = join_relative(rs->fixtures, fx);
                char *abs = xasprintf("%s/%s", rs->dir, rel);
                int there = access(abs, R_OK) == 0;
                free(abs);
                if (!there) {
                    free(rel);
                    continue;
                }
                VEC_PUSH(owned, rel);
                dn = (struct digest_name){rel, RULE_FILE_FIXTURE};
                VEC_PUSH(names, dn);
            }
        }
    }
    qsort(names.items, names.len, sizeof *names.items, name_cmp);
    size_t uniq = 0; /* a schema file may be read twice (by path and by URI) */
    for (size_t i = 0; i < names.len; i++)
        if (!uniq || strcmp(names.items[uniq - 1].path, names.items[i].path))
            names.items[uniq++] = names.items[i];
    names.len = uniq;
    char *base_line = NULL;
    /* "<base digest hex>  extends/NAME@TAG.SHA256SUMS": another base, another set. The
     * base's digest is the sha256 of its SHA256SUMS, which a release keeps at that path
     * (release_pack), so `sha256sum -c` checks that line too. */
    if (rs->base) {
        base_line = xasprintf("extends/%s.SHA256SUMS", rs->extends);
        dn = (struct digest_name){base_line, RULE_FILE_BASE};
        VEC_PUSH(names, dn);
        qsort(names.items, names.len, sizeof *names.items, name_cmp);
    }
    struct buf lines = BUF_INIT;
    for (size_t i = 0; i < names.len; i++) {
        if (names.items[i].kind == RULE_FILE_BASE) {
            struct file_digest fd;
            fd.path = xstrdup(names.items[i].path);
            fd.kind = RULE_FILE_BASE;
            snprintf(fd.hex, sizeof fd.hex, "%s", rs->base->digest + 7);
            VEC_PUSH(rs->digests, fd);
            buf_addf(&lines, "%s  %s\n", fd.hex, fd.path);
            continue;
        }
        char *path = xasprintf("%s/%s", rs->dir, names.items[i].path), *data;
        size_t len;
        if (read_file(rs->overlay, path, &data, &len) < 0) {
            set_error(errs, path, 0, 0, "cannot read rule file");
        } else {
            struct file_digest fd;
            fd.path = xstrdup(names.items[i].path);
            fd.kind = names.items[i].kind;
            hex_sha256(data, len, fd.hex);
            VEC_PUSH(rs->digests, fd);
            buf_addf(&lines, "%s  %s\n", fd.hex, names.items[i].path);
            free(data);
        }
        free(path);
    }
    char hex[65];
    hex_sha256(buf_str(&lines), lines.len, hex);
    snprintf(rs->digest, sizeof rs->digest, "sha256:%s", hex);
    rs->sums = buf_detach(&lines);
    free(base_line);
    VEC_FREE(names);
    for (size_t i = 0; i < owned.len; i++) free(owned.items[i]);
    VEC_FREE(owned);
}

/* The manifest's name and tag name files and pages (tags/TAG.lock): plain names only. */
static int valid_set_name(const char *s, int tag)
{
    if (!*s || strlen(s) > 100) return 0;
    if (tag ? (*s == '.' || *s == '-') : !(*s >= 'a' && *s <= 'z')) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
              (tag && ((*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '+'))))
            return 0;
    return 1;
}

static void check_set_names(struct cc *cc, struct yv top)
{
    struct yv name = rule_yv_member(cc, top, "name"), tag = rule_yv_member(cc, top, "tag");
    if (json_is_string(name.v) && !valid_set_name(json_string_value(name.v), 0))
        rule_cc_error_hint(cc, name.n, 0,
                           "write lowercase letters, digits, - and ., starting with a letter "
                           "(e.g. mcpdesc-mcp)",
                           "the manifest's name \"%s\" is not a rule set name",
                           json_string_value(name.v));
    if (json_is_string(tag.v) && !valid_set_name(json_string_value(tag.v), 1))
        rule_cc_error_hint(cc, tag.n, 0,
                           "write letters, digits, . - _ and +, not starting with . or - (e.g. "
                           "v0.9.0-rc.9): the tag names the file tags/TAG.lock",
                           "the manifest's tag \"%s\" is not a tag name", json_string_value(tag.v));
}

static struct rule_set *load_set(const char *dir, const struct rule_load_opts *opts,
                                 const struct load_chain *up, struct diag_list *errs);

/* The manifest member KEY of RS, or of the nearest base that has it. *FROM: that set. */
static json_t *effective_member(const struct rule_set *rs, const char *key,
                                const struct rule_set **from)
{
    for (; rs; rs = rs->base) {
        json_t *v = json_object_get(rs->manifest, key);
        if (v) {
            if (from) *from = rs;
            return v;
        }
    }
    return NULL;
}

/* One line from release_explain_missing (without its "mcpdesc: " and newline), new. */
static char *explain_missing(const struct release_path *rp, const char *name, const char *tag)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return xasprintf("no release %s@%s", name, tag);
    release_explain_missing(rp, name, tag, m);
    fclose(m);
    while (len && text[len - 1] == '\n') text[--len] = '\0';
    const char *body = strncmp(text, "mcpdesc: ", 9) ? text : text + 9;
    char *out = xstrdup(body);
    free(text);
    return out;
}

static void load_base_dir(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                          const struct load_chain *chain, char *dir);

static const char hint_extends[] =
    "write extends: NAME@TAG of an available release, or a path (relative to the manifest) "
    "to a rule set directory or a release directory NAME@TAG/";

/* `extends: NAME@TAG` or `extends: PATH`: load the base into rs->base (or report at the
 * value). */
static void load_base(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                      const struct load_chain *chain)
{
    struct rule_set *rs = cc->rs;
    const char *v = json_string_value(ext.v);
    const char *given = opts && opts->nbases ? opts->bases[opts->nbases - 1] : NULL;
    if (given && !ext.v) { /* the chain names the base: no extends of its own */
        load_base_dir(cc, ext, opts, chain, xstrdup(given));
        return;
    }
    if (!v || !*v) {
        rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                           "\"extends\" names the base set: NAME@TAG or a path, not a %s",
                           v ? "empty string" : rule_json_type_name(ext.v));
        return;
    }
    char *dir = NULL, *want = NULL; /* by tag: the base must be released as "NAME@TAG" */
    if (!strchr(v, '/') && strchr(v, '@')) {
        char *name, *tag;
        if (release_parse(v, "", &name, &tag) < 0) {
            rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                               "extends: \"%s\" is not NAME@TAG (a name of lowercase letters, "
                               "digits, - and .; a tag of letters, digits, . - _ +)",
                               v);
            return;
        }
        struct release_path rp = {opts ? opts->release_dirs : NULL, opts ? opts->nrelease_dirs : 0};
        dir = release_find(&rp, name, tag);
        if (dir) want = xasprintf("%s@%s", name, tag);
        if (!dir) {
            char *why = explain_missing(&rp, name, tag);
            rule_cc_error_hint(cc, ext.n, 0, hint_extends, "extends: %s", why);
            free(why);
        }
        free(name);
        free(tag);
    } else {
        char *path = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", rs->dir, v);
        char *m = xasprintf("%s/manifest.yaml", path);
        if (access(m, R_OK) == 0) dir = xstrdup(path);
        else if (!(dir = release_rules_dir(path)))
            rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                               "extends: no rule set at %s (neither a directory with "
                               "manifest.yaml nor a release directory NAME@TAG/ with rules/)",
                               path);
        free(m);
        free(path);
    }
    if (!dir) return;
    if (given) {
        free(want);
        want = NULL; /* the chain names the set: a path, checked by the config */
        char *mine = realpath(dir, NULL), *theirs = realpath(given, NULL);
        int same = mine && theirs && !strcmp(mine, theirs);
        free(mine);
        free(theirs);
        if (!same) {
            rule_cc_error_hint(cc, ext.n, 0,
                               "remove this extends, or list the set it names before this one",
                               "extends: \"%s\" is not %s, the set before this one in the "
                               "config's rules list",
                               v, given);
            free(dir);
            return;
        }
    }
    load_base_dir(cc, ext, opts, chain, dir);
    /* NAME@TAG pins the base by tag: a copy there that is not the release never runs
     * under that name as this set's base (a re-hashed one the base's load refused) */
    if (want && rs->base) {
        char *is =
            rs->base->released ? xasprintf("%s@%s", rs->base->name, rs->base->released) : NULL;
        if (!is || strcmp(is, want))
            rule_cc_error_hint(cc, ext.n, 0,
                               "restore the release, or extend an edited copy by its path",
                               "extends: the release in %s is not %s (it is %s %s)", rs->base->dir,
                               want, rs->base->name, rs->base->display_tag);
        free(is);
    }
    free(want);
}

/* Load the base set in DIR (taken) into rs->base, refusing a cycle and a chain too long. */
static void load_base_dir(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                          const struct load_chain *chain, char *dir)
{
    struct rule_set *rs = cc->rs;
    struct rule_load_opts below; /* the chain of bases, one set shorter */
    if (opts && opts->nbases) {
        below = *opts;
        below.nbases--;
        opts = &below;
    }
    char *real = realpath(dir, NULL);
    for (const struct load_chain *c = chain; c && real; c = c->up) {
        if (strcmp(c->real, real) != 0) continue;
        VEC(const char *) sets = VEC_INIT; /* from the set that extends, down to c */
        for (const struct load_chain *k = chain; k != c->up; k = k->up) VEC_PUSH(sets, k->dir);
        struct buf cycle = BUF_INIT;
        for (size_t k = sets.len; k-- > 0;) buf_addf(&cycle, "%s extends ", sets.items[k]);
        buf_addf(&cycle, "%s", dir);
        rule_cc_error_hint(cc, ext.n, 0,
                           "a set cannot extend itself, directly or through its base: remove "
                           "one extends",
                           "extends: a cycle: %s", buf_str(&cycle));
        buf_release(&cycle);
        VEC_FREE(sets);
        free(real);
        free(dir);
        return;
    }
    free(real);
    if (chain && chain->depth + 1 >= MAX_EXTENDS) {
        rule_cc_error_hint(cc, ext.n, 0, "flatten the chain of bases",
                           "extends: more than %d levels of extends (at %s)", MAX_EXTENDS, dir);
        free(dir);
        return;
    }
    size_t before = cc->errs->len;
    rs->base = load_set(dir, opts, chain, cc->errs);
    if (!rs->base) {
        if (cc->errs->len == before) /* cannot happen: a refused set says why */
            rule_cc_error(cc, ext.n, 0, "extends: the base set in %s cannot be loaded", dir);
        else
            rule_cc_error_hint(cc, ext.n, 0, "fix the base set, or extend another",
                               "extends: the base set in %s has %zu error%s (listed above)", dir,
                               cc->errs->len - before, cc->errs->len - before == 1 ? "" : "s");
    } else {
        rs->extends = xasprintf("%s@%s", rule_set_name(rs->base), rule_set_tag(rs->base));
    }
    free(dir);
}

/* A member an extending manifest may repeat only as its base has it. */
static void same_as_base(struct cc *cc, struct yv top, const char *key)
{
    struct yv mine = rule_yv_member(cc, top, key);
    if (!mine.v) return;
    json_t *theirs = effective_member(cc->rs->base, key, NULL);
    if (theirs && json_equal(mine.v, theirs)) return;
    char *want = theirs ? json_dumps(theirs, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    rule_cc_error_hint(cc, mine.n, 1,
                       "remove it (an extending set takes it from its base) or copy the base's "
                       "exactly",
                       "\"%s\" differs from the base set %s's (%s): a set that extends another "
                       "judges documents exactly as its base does",
                       key, cc->rs->extends, want ? want : "none");
    free(want);
}

static void load_manifest(struct rule_set *rs, const struct rule_load_opts *opts,
                          const struct load_chain *chain, struct diag_list *errs)
{
    char *path;
    doc *d = load_rule_yaml(rs, "manifest.yaml", &path, errs);
    if (!d) {
        free(path);
        return;
    }
    struct cc cc = {d, rs, errs, NULL, 0};
    struct yv top = {doc_root(d), 0};
    const char *what = "the manifest";
    if (!json_is_object(top.v)) {
        rule_cc_error(&cc, 0, 0, "the manifest must be a mapping");
        goto out;
    }
    check_members(&cc, top, what, manifest_members);
    const char *s;
    if ((s = need_string(&cc, top, "name", what, 1))) rs->name = xstrdup(s);
    if ((s = need_string(&cc, top, "tag", what, 1))) rs->tag = xstrdup(s);
    check_set_names(&cc, top);
    if ((s = need_string(&cc, top, "docs-url", what, 0)) && !uri_is_link(s))
        /* reports and the editor link every rule page under it: nothing else may go there */
        rule_cc_error_hint(&cc, rule_yv_member(&cc, top, "docs-url").n, 0,
                           "write where the pages of `mcpdesc rules docs` are published, "
                           "https://example.org/rules/, or leave docs-url out",
                           "docs-url takes an absolute http://, https:// or file:// URL, not '%s'",
                           s);
    s = need_string(&cc, top, "fixtures", what, 0);
    rs->fixtures = xstrdup(s ? s : "../conformance");
    struct yv ext = rule_yv_member(&cc, top, "extends");
    if (ext.v || (opts && opts->nbases)) {
        struct load_chain me = {chain, NULL, rs->dir, chain ? chain->depth + 1 : 0};
        char *real = realpath(rs->dir, NULL);
        me.real = real ? real : rs->dir;
        load_base(&cc, ext, opts, &me);
        free(real);
        if (!rs->base) goto out;
        /* versions, document shape, description format and schema-map are the base's */
        static const char *const inherited[] = {"versions", "document", "schema-map",
                                                "description-format", NULL};
        for (const char *const *k = inherited; *k; k++) same_as_base(&cc, top, *k);
        rs->format = xstrdup(rs->base->format);
        for (size_t i = 0; i < rs->base->versions.n; i++)
            rs->versions.names[rs->versions.n++] = xstrdup(rs->base->versions.names[i]);
        /* $refs between schema files: the nearest schema-map, relative to its set */
        const struct rule_set *from = NULL;
        json_t *smap = effective_member(rs, "schema-map", &from);
        const char *prefix;
        json_t *dirv;
        json_object_foreach(json_is_object(smap) ? smap : NULL, prefix, dirv)
        {
            if (!json_is_string(dirv)) continue; /* refused where it is written */
            char *sdir = xasprintf("%s/%s", from->dir, json_string_value(dirv));
            schema_ctx_add_ref_map(rs->schemas, prefix, sdir);
            free(sdir);
        }
        goto files;
    }
    if ((s = need_string(&cc, top, "description-format", what, 1))) rs->format = xstrdup(s);
    struct yv vers = rule_yv_member(&cc, top, "versions");
    if (!json_is_array(vers.v) || !json_array_size(vers.v)) {
        rule_cc_error(&cc, vers.v ? vers.n : 0, 0,
                      "the manifest needs \"versions\": the known protocol versions, oldest first");
    } else {
        for (size_t i = 0; i < json_array_size(vers.v) && rs->versions.n < VER_MAX; i++) {
            struct yv e = rule_yv_item(&cc, vers, i);
            if (!json_is_string(e.v)) {
                rule_cc_error(&cc, e.n, 0, "a protocol version must be a string");
                continue;
            }
            const char *name = json_string_value(e.v);
            if (ver_index(&rs->versions, name) >= 0)
                rule_cc_error(&cc, e.n, 0, "version \"%s\" is listed twice", name);
            else if (rs->versions.n && strcmp(rs->versions.names[rs->versions.n - 1], name) >= 0)
                rule_cc_error_hint(
                    &cc, e.n, 0, "reorder the manifest's versions, oldest first",
                    "versions must be listed oldest first (\"%s\" comes after \"%s\")", name,
                    rs->versions.names[rs->versions.n - 1]);
            else rs->versions.names[rs->versions.n++] = xstrdup(name);
        }
    }
    /* schema-map: URI prefix -> directory (relative to the rule set) for $refs between
     * the schema files that schema predicates use; nothing else is ever read. */
    struct yv smap = rule_yv_member(&cc, top, "schema-map");
    if (smap.v && !json_is_object(smap.v))
        rule_cc_error(&cc, smap.n, 0, "\"schema-map\" maps URI prefixes to directories");
    else if (smap.v) {
        const char *prefix;
        json_t *dirv;
        json_object_foreach(smap.v, prefix, dirv)
        {
            if (!json_is_string(dirv)) {
                rule_cc_error(&cc, smap.n, 0,
                              "schema-map: the directory for \"%s\" must be a string", prefix);
                continue;
            }
            char *dir = xasprintf("%s/%s", rs->dir, json_string_value(dirv));
            schema_ctx_add_ref_map(rs->schemas, prefix, dir);
            free(dir);
        }
    }
    struct yv docm = rule_yv_member(&cc, top, "document");
    if (!json_is_object(docm.v)) {
        rule_cc_error(
            &cc, docm.v ? docm.n : 0, 0,
            "the manifest needs \"document\": versions-member, collections, component-ref");
        goto out;
    }
    check_members(&cc, docm, "\"document\"", document_members);
    if ((s = need_string(&cc, docm, "versions-member", "\"document\"", 1)))
        rs->versions_member = xstrdup(s);
    struct yv colls = rule_yv_member(&cc, docm, "collections");
    if (colls.v) check_string_list(&cc, colls, "collections", "\"document\"");
    for (size_t i = 0; json_is_array(colls.v) && i < json_array_size(colls.v); i++)
        if (json_is_string(json_array_get(colls.v, i)))
            VEC_PUSH(rs->collections, xstrdup(json_string_value(json_array_get(colls.v, i))));
    struct yv ref = rule_yv_member(&cc, docm, "component-ref");
    if (!json_is_object(ref.v)) {
        rule_cc_error(&cc, ref.v ? ref.n : docm.n, 0,
                      "\"document\" needs \"component-ref\": member, prefix, scopes");
        goto out;
    }
    check_members(&cc, ref, "\"component-ref\"", component_ref_members);
    if ((s = need_string(&cc, ref, "member", "\"component-ref\"", 1))) rs->ref_member = xstrdup(s);
    if ((s = need_string(&cc, ref, "prefix", "\"component-ref\"", 1))) rs->ref_prefix = xstrdup(s);
    struct yv scopes = rule_yv_member(&cc, ref, "scopes");
    if (!json_is_array(scopes.v))
        rule_cc_error(&cc, scopes.v ? scopes.n : ref.n, 0,
                      "\"component-ref\" needs \"scopes\": a list of selectors");
    for (size_t i = 0; json_is_array(scopes.v) && i < json_array_size(scopes.v); i++) {
        struct sel *sl = rule_cc_sel(&cc, rule_yv_item(&cc, scopes, i));
        if (sl) VEC_PUSH(rs->scopes, sl);
    }
files:;
    struct yv files = rule_yv_member(&cc, top, "files");
    if (!files.v)
        rule_cc_error(&cc, 0, 0, "the manifest needs \"files\": the rule files, in order");
    else check_string_list(&cc, files, "files", what);
    for (size_t i = 0; json_is_array(files.v) && i < json_array_size(files.v); i++) {
        json_t *f = json_array_get(files.v, i);
        if (!json_is_string(f)) continue;
        const char *name = json_string_value(f);
        if (strchr(name, '/') || name[0] == '.' || !strstr(name, ".yaml"))
            rule_cc_error(
                &cc, rule_yv_item(&cc, files, i).n, 0,
                "rule files are plain names of .yaml files beside the manifest, not \"%s\"", name);
        else VEC_PUSH(rs->files, xstrdup(name));
    }
    rs->manifest = json_incref(top.v);
out:
    doc_free(d);
    free(path);
}

struct rule_set *rule_set_load(const char *dir, struct diag_list *errs)
{
    return rule_set_load_with(dir, NULL, errs);
}

struct rule_set *rule_set_load_with(const char *dir, const struct rule_load_opts *opts,
                                    struct diag_list *errs)
{
    return load_set(dir, opts, NULL, errs);
}

static struct rule_set *load_set(const char *dir, const struct rule_load_opts *opts,
                                 const struct load_chain *chain, struct diag_list *errs)
{
    size_t before = errs->len;
    struct rule_set *rs = xcalloc(1, sizeof *rs);
    rs->dir = xstrdup(dir);
    rs->schemas = schema_ctx_new(NULL);
    rs->overlay = opts ? opts->overlay : NULL;
    load_manifest(rs, opts, chain, errs);
    if (errs->len == before) {
        for (size_t i = 0; rs->base && i < rs->base->rules.len; i++) {
            struct rule r = rs->base->rules.items[i]; /* the base's program, borrowed */
            r.borrowed = 1;
            VEC_PUSH(rs->rules, r);
        }
        compile_files(rs, errs);
        check_yields(rs, errs);
        compute_digest(rs, errs);
    }
    rs->overlay = NULL; /* borrowed for the load only */
    if (errs->len == before) {
        rs->released = lock_released_as(rs);
        rs->display_tag = rs->released ? xstrdup(rs->released)
                                       : xasprintf("%s+modified", rs->tag ? rs->tag : "untagged");
        /* never something else under a shipped tag's name, wherever it was found */
        release_check_loaded(rs, opts ? opts->pins : NULL, opts ? opts->npins : 0, errs);
    }
    if (errs->len != before) {
        rule_set_free(rs);
        return NULL;
    }
    if (rs->base) { /* the document's shape is the base's */
        rs->rescfg = rs->base->rescfg;
        rs->rescfg.versions = &rs->versions;
        return rs;
    }
    rs->rescfg.versions = &rs->versions;
    rs->rescfg.versions_member = rs->versions_member;
    rs->rescfg.collections = rs->collections.items;
    rs->rescfg.ncollections = rs->collections.len;
    rs->rescfg.scopes = rs->scopes.items;
    rs->rescfg.nscopes = rs->scopes.len;
    rs->rescfg.ref_member = rs->ref_member;
    rs->rescfg.ref_prefix = rs->ref_prefix;
    return rs;
}

void rule_set_free(struct rule_set *rs)
{
    if (!rs) return;
    for (size_t i = 0; i < rs->rules.len; i++) rule_release(&rs->rules.items[i]);
    VEC_FREE(rs->rules);
    rule_set_free(rs->base);
    free(rs->extends);
    for (size_t i = 0; i < rs->refused_ids.len; i++) free(rs->refused_ids.items[i]);
    VEC_FREE(rs->refused_ids);
    for (size_t i = 0; i < rs->missing_dirs.len; i++) free(rs->missing_dirs.items[i]);
    VEC_FREE(rs->missing_dirs);
    free(rs->unread);
    for (size_t i = 0; i < rs->shared_preds.len; i++) fn_pred_free(rs->shared_preds.items[i]);
    VEC_FREE(rs->shared_preds);
    for (size_t i = 0; i < rs->digests.len; i++) free(rs->digests.items[i].path);
    VEC_FREE(rs->digests);
    for (size_t i = 0; i < rs->files.len; i++) free(rs->files.items[i]);
    VEC_FREE(rs->files);
    for (size_t i = 0; i < rs->collections.len; i++) free(rs->collections.items[i]);
    VEC_FREE(rs->collections);
    for (size_t i = 0; i < rs->scopes.len; i++) sel_free(rs->scopes.items[i]);
    VEC_FREE(rs->scopes);
    ver_list_release(&rs->versions);
    json_decref(rs->manifest);
    schema_ctx_free(rs->schemas);
    free(rs->versions_member);
    free(rs->ref_member);
    free(rs->ref_prefix);
    free(rs->name);
    free(rs->tag);
    free(rs->format);
    free(rs->fixtures);
    free(rs->sums);
    free(rs->released);
    free(rs->display_tag);
    free(rs->dir);
    free(rs);
}

const char *rule_set_dir(const struct rule_set *rs)
{
    return rs->dir;
}
const struct rule_set *rule_set_base(const struct rule_set *rs)
{
    return rs->base;
}
struct schema_ctx *rule_set_schemas(const struct rule_set *rs)
{
    return rs->schemas;
}
const char *rule_set_name(const struct rule_set *rs)
{
    return rs->name;
}
const char *rule_set_tag(const struct rule_set *rs)
{
    return rs->tag;
}
const char *rule_set_digest(const struct rule_set *rs)
{
    return rs->digest;
}
const char *rule_set_sums(const struct rule_set *rs)
{
    return rs->sums;
}
const char *rule_set_released_tag(const struct rule_set *rs)
{
    return rs->released;
}
const char *rule_set_display_tag(const struct rule_set *rs)
{
    return rs->display_tag;
}
const char *rule_set_fixtures(const struct rule_set *rs)
{
    return rs->fixtures;
}
char *rule_set_fixtures_path(const struct rule_set *rs)
{
    char *dir = xstrdup(rs->dir);
    const char *rest = rs->fixtures;
    for (;;) {
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
        char *slash = strrchr(dir, '/');
        const char *last = slash ? slash + 1 : dir;
        if (strncmp(rest, "../", 3) || !strcmp(last, "..") || !strcmp(last, ".") || !*last) break;
        if (slash) *slash = '\0';
        else strcpy(dir, ".");
        rest += 3;
    }
    char *out = !strcmp(dir, ".") && *rest ? xstrdup(rest) : xasprintf("%s/%s", dir, rest);
    free(dir);
    /* through a symbolic link (an installed rules -> releases/NAME@TAG/rules), ".." is
     * the link target's parent: keep the path as written unless both name one place */
    char *plain = xasprintf("%s/%s", rs->dir, rs->fixtures);
    char *a = realpath(plain, NULL), *b = realpath(out, NULL);
    int same = a && b && !strcmp(a, b);
    free(a);
    free(b);
    if (!same && strcmp(plain, out)) {
        free(out);
        return plain;
    }
    free(plain);
    return out;
}

enum rule_file_kind rule_set_digest_kind(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].kind;
}

const char *rule_set_docs_url(const struct rule_set *rs)
{
    return json_string_value(json_object_get(rs->manifest, "docs-url"));
}

char *rule_page_url(const char *docs_url, const char *id)
{
    if (!docs_url || !*docs_url || !id) return NULL;
    return xasprintf("%s%s%s.html", docs_url, docs_url[strlen(docs_url) - 1] == '/' ? "" : "/", id);
}

const char *rule_set_tier_name(const struct rule_set *rs, long tier)
{
    char key[24];
    snprintf(key, sizeof key, "%ld", tier);
    return json_string_value(json_object_get(json_object_get(rs->manifest, "tiers"), key));
}

const struct ver_list *rule_set_versions(const struct rule_set *rs)
{
    return &rs->versions;
}
const struct res_config *rule_set_res_config(const struct rule_set *rs)
{
    return &rs->rescfg;
}
size_t rule_set_count(const struct rule_set *rs)
{
    return rs->rules.len;
}
const struct rule *rule_set_rule(const struct rule_set *rs, size_t i)
{
    return &rs->rules.items[i];
}
size_t rule_set_digest_count(const struct rule_set *rs)
{
    return rs->digests.len;
}
const char *rule_set_digest_path(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].path;
}
const char *rule_set_digest_hex(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].hex;
}
size_t rule_set_file_count(const struct rule_set *rs)
{
    return rs->files.len;
}
const char *rule_set_file(const struct rule_set *rs, size_t i)
{
    return rs->files.items[i];
}

const struct rule *rule_set_find(const struct rule_set *rs, const char *id)
{
    for (size_t i = 0; i < rs->rules.len; i++)
        if (!strcmp(rs->rules.items[i].id, id)) return &rs->rules.items[i];
    return NULL;
}

const char *rule_id(const struct rule *r)
{
    return r->id;
}
enum diag_level rule_level(const struct rule *r)
{
    return r->level;
}
ver_mask rule_applies(const struct rule *r)
{
    return r->applies;
}
char *rule_set_local_url(const struct rule_set *rs, const char *url)
{
    const char *prefix;
    json_t *dirv;
    json_t *map = json_object_get(rs->manifest, "schema-map");
    json_object_foreach(map, prefix, dirv)
    {
        size_t n = strlen(prefix);
        if (!json_is_string(dirv) || !n || strncmp(url, prefix, n)) continue;
        const char *rest = url + n, *dir = json_string_value(dirv);
        /* the set's directory by name, so that "../schema/" leads to "schema/" */
        char *real = realpath(rs->dir, NULL);
        const char *base = real ? real : rs->dir;
        const char *slash = strrchr(base, '/');
        char *joined = xasprintf("%s/%s%s%.*s", slash ? slash + 1 : base, dir,
                                 *dir && dir[strlen(dir) - 1] != '/' && *rest != '/' ? "/" : "",
                                 (int)strcspn(rest, "?#"), rest);
        char *local = rule_normalize_path(joined);
        free(joined);
        free(real);
        return local;
    }
    return NULL;
}

const char *rule_file(const struct rule *r)
{
    return r->file;
}
static size_t fix_positions(const struct clause *c, uint32_t *lines, uint32_t *cols, size_t max,
                            size_t n)
{
    if (!c) return n;
    for (size_t i = 0; i < c->nfixes; i++, n++)
        if (n < max) {
            lines[n] = c->fixes[i]->line;
            cols[n] = c->fixes[i]->col;
        }
    for (size_t k = 0; k < c->nkids; k++) n = fix_positions(c->kids[k], lines, cols, max, n);
    return n;
}
size_t rule_fix_positions(const struct rule *r, uint32_t *lines, uint32_t *cols, size_t max)
{
    return fix_positions(r->check, lines, cols, max, 0);
}
json_t *rule_meta(const struct rule *r)
{
    return r->meta;
}

const char *rule_str(const struct rule *r, const char *member)
{
    return json_string_value(json_object_get(r->meta, member));
}

static const char *const preset_names[] = {NULL, "recommended", "strict", "all"};

enum rule_preset rule_preset(const struct rule *r)
{
    return r->preset ? r->preset : RULE_PRESET_RECOMMENDED;
}
const char *rule_preset_reason(const struct rule *r)
{
    return rule_preset(r) == RULE_PRESET_RECOMMENDED ? NULL : rule_str(r, "preset-reason");
}
int rule_in_preset(const struct rule *r, enum rule_preset p)
{
    return p == RULE_PRESET_NONE || rule_preset(r) <= p;
}
const char *rule_preset_name(enum rule_preset p)
{
    return p >= RULE_PRESET_RECOMMENDED && p <= RULE_PRESET_ALL ? preset_names[p] : NULL;
}
int rule_preset_parse(const char *name, enum rule_preset *out)
{
    for (int p = RULE_PRESET_RECOMMENDED; name && p <= RULE_PRESET_ALL; p++)
        if (!strcmp(name, preset_names[p])) {
            *out = (enum rule_preset)p;
            return 0;
        }
    return -1;
}
const char *rule_preset_names(void)
{
    return "recommended, strict, all";
}
int rule_set_preset_narrows(const struct rule_set *rs, enum rule_preset p)
{
    for (size_t i = 0; i < rs->rules.len; i++)
        if (!rule_in_preset(&rs->rules.items[i], p)) return 1;
    return 0;
}
int rule_set_has_presets(const struct rule_set *rs)
{
    return rule_set_preset_narrows(rs, RULE_PRESET_RECOMMENDED);
}

const struct rule_set *rule_origin(const struct rule *r)
{
    return r->origin;
}
const char *rule_origin_name(const struct rule *r)
{
    return r->origin->name;
}
const char *rule_origin_tag(const struct rule *r)
{
    return r->origin->tag;
}
const char *rule_origin_display_tag(const struct rule *r)
{
    return r->origin->display_tag;
}
const char *rule_origin_dir(const struct rule *r)
{
    return r->origin->dir;
}
char *rule_origin_fixtures(const struct rule *r)
{
    return xasprintf("%s/%s", r->origin->dir, r->origin->fixtures);
}
