/* config.c - .mcpdesc.yaml: read, checked against the rule set, applied to findings. */
#include "findings/config.h"

#include <fnmatch.h>
#include <limits.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "doc/doc.h"
#include "base/buf.h"
#include "base/uri.h"

static const char *const top_keys[] = {
    "rules",    "preset",   "levels", "overrides", "ignore",        "fail-on",  "format", "output",
    "suppress", "docs-url", "paths",  "baseline",  "strict-inputs", "together", NULL};
static const char *const override_keys[] = {"files", "levels", NULL};
static const char *const suppress_keys[] = {"file",   "rule",  "item", "pointer",
                                            "reason", "until", NULL};
static const char *const level_names[] = {"error", "warning", "info", "off", NULL};
static const char *const preset_names[] = {"recommended", "strict", "all", NULL};
static const char *const fail_on_names[] = {"error", "warning", "info", "never", NULL};
static const char *const format_names[] = {"text",   "json",     "sarif", "github", "junit",
                                           "gitlab", "markdown", "html",  NULL};

const char *const *config_names(enum config_names which)
{
    switch (which) {
    case CONFIG_NAMES_TOP: return top_keys;
    case CONFIG_NAMES_OVERRIDE: return override_keys;
    case CONFIG_NAMES_SUPPRESS: return suppress_keys;
    case CONFIG_NAMES_LEVEL: return level_names;
    case CONFIG_NAMES_PRESET: return preset_names;
    case CONFIG_NAMES_FAIL_ON: return fail_on_names;
    case CONFIG_NAMES_FORMAT: return format_names;
    }
    return NULL;
}

/* What the parser passes around: the document, the errors, the config being filled. */
struct cp {
    doc *d;
    const char *path;
    struct diag_list *errs;
    struct config *c;
};

/* A value and its node. */
struct yn {
    json_t *v;
    doc_node n;
};

static struct config_pos pos_of(const struct cp *p, doc_node n, int key)
{
    struct doc_pos dp = key ? doc_node_key_pos(p->d, n) : doc_node_pos(p->d, n);
    return (struct config_pos){dp.line, dp.col};
}

static void err_at(const struct cp *p, doc_node n, int key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void err_at(const struct cp *p, doc_node n, int key, const char *fmt, ...)
{
    struct config_pos at = n == DOC_NONE ? (struct config_pos){0, 0} : pos_of(p, n, key);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(p->errs, DIAG_ERROR, p->path, at.line, at.col, fmt, ap);
    va_end(ap);
}

/* The name of NAMES closest to S (within 3 edits, and fewer than S's length), or NULL. */
static const char *nearest(const char *s, const char *const *names)
{
    const char *best = NULL;
    size_t bd = 4, len = strlen(s);
    for (; *names; names++) {
        size_t d = util_edit_distance(s, *names);
        if (d < bd && d < len) {
            bd = d;
            best = *names;
        }
    }
    return best;
}

/* ", did you mean 'X'?" or "" (static or new: free with free_hint). */
static char *did_you_mean(const char *near)
{
    return near ? xasprintf("; did you mean '%s'?", near) : xstrdup("");
}

static const char *type_name(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "mapping";
    case JSON_ARRAY: return "list";
    case JSON_STRING: return "string";
    case JSON_INTEGER:
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

static struct yn member(const struct cp *p, struct yn obj, const char *key)
{
    json_t *v = json_object_get(obj.v, key);
    return (struct yn){v, v ? doc_node_member(p->d, obj.n, obj.v, key) : DOC_NONE};
}

static struct yn item(const struct cp *p, struct yn arr, size_t i)
{
    return (struct yn){json_array_get(arr.v, i), doc_node_item(p->d, arr.n, i)};
}

/* Unknown members of OBJ (WHAT names it) are errors at their keys. */
static void check_keys(const struct cp *p, struct yn obj, const char *what,
                       const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj.v, key, v)
    {
        int ok = 0;
        for (const char *const *k = allowed; *k && !ok; k++) ok = !strcmp(*k, key);
        if (ok) continue;
        char *dym = did_you_mean(nearest(key, allowed));
        struct buf keys = BUF_INIT;
        for (const char *const *k = allowed; *k; k++)
            buf_addf(&keys, "%s%s", k == allowed ? "" : ", ", *k);
        err_at(p, doc_node_member(p->d, obj.n, obj.v, key), 1,
               "unknown key '%s' in %s%s (known: %s)", key, what, dym, buf_str(&keys));
        buf_release(&keys);
        free(dym);
    }
}

/* A string value that must be one of NAMES; NULL (after an error) otherwise. */
static const char *one_of(const struct cp *p, struct yn y, const char *what,
                          const char *const *names)
{
    const char *s = json_string_value(y.v);
    if (s)
        for (const char *const *k = names; *k; k++)
            if (!strcmp(*k, s)) return s;
    struct buf list = BUF_INIT;
    for (const char *const *k = names; *k; k++)
        buf_addf(&list, "%s%s", k == names ? "" : k[1] ? ", " : " or ", *k);
    if (!s) {
        err_at(p, y.n, 0, "%s takes %s, not a %s", what, buf_str(&list), type_name(y.v));
    } else {
        char *dym = did_you_mean(nearest(s, names));
        err_at(p, y.n, 0, "%s takes %s, not '%s'%s", what, buf_str(&list), s, dym);
        free(dym);
    }
    buf_release(&list);
    return NULL;
}

/* A non-empty string, or NULL after an error. */
static const char *need_string(const struct cp *p, struct yn y, const char *what)
{
    const char *s = json_string_value(y.v);
    if (s && *s) return s;
    err_at(p, y.n, 0, "%s must be a non-empty string, not %s%s", what, s ? "an empty " : "a ",
           s ? "string" : type_name(y.v));
    return NULL;
}

static void set_str(const struct cp *p, struct yn y, struct config_str *out, const char *s)
{
    out->s = xstrdup(s);
    out->pos = pos_of(p, y.n, 0);
}

/* A string or a list of strings (not empty) into OUT. */
static void string_list(const struct cp *p, struct yn y, const char *what, void *outv)
{
    VEC(struct config_str) *out = outv;
    if (json_is_string(y.v)) {
        const char *s = need_string(p, y, what);
        if (s) {
            struct config_str cs;
            set_str(p, y, &cs, s);
            VEC_PUSH(*out, cs);
        }
        return;
    }
    if (!json_is_array(y.v) || !json_array_size(y.v)) {
        err_at(p, y.n, 0, "%s takes a string or a non-empty list of strings, not %s%s", what,
               json_is_array(y.v) ? "an empty " : "a ", type_name(y.v));
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yn e = item(p, y, i);
        const char *s = need_string(p, e, what);
        if (!s) continue;
        struct config_str cs;
        set_str(p, e, &cs, s);
        VEC_PUSH(*out, cs);
    }
}

/* `format`: FORMAT[:FILE], one or a list; each FORMAT one of format_names and each FILE
 * not empty (the validate command checks that at most one goes to standard output). */
static void format_list(const struct cp *p, struct yn y)
{
    size_t from = p->c->format.len;
    string_list(p, y, "format", &p->c->format);
    for (size_t i = from; i < p->c->format.len; i++) {
        const char *s = p->c->format.items[i].s;
        const char *colon = strchr(s, ':');
        char *name = colon ? xstrndup(s, (size_t)(colon - s)) : xstrdup(s);
        struct yn e = json_is_array(y.v) ? item(p, y, i - from) : y;
        json_t *as_value = json_string(name);
        (void)one_of(p, (struct yn){as_value, e.n}, "format", format_names);
        json_decref(as_value);
        if (colon && !colon[1])
            err_at(p, e.n, 0, "format '%s' names no file after the ':' (FORMAT or FORMAT:FILE)", s);
        free(name);
    }
}

/* A `levels` mapping: rule id or glob -> error | warning | info | off. */
static void levels_map(const struct cp *p, struct yn y, const char *what, void *outv)
{
    VEC(struct config_level) *out = outv;
    if (!json_is_object(y.v)) {
        err_at(p, y.n, 0,
               "%s is a mapping of rule ids or globs to error, warning, info or off, "
               "not a %s",
               what, type_name(y.v));
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach(y.v, key, v)
    {
        struct yn e = {v, doc_node_member(p->d, y.n, y.v, key)};
        if (!*key) {
            err_at(p, e.n, 1, "%s: an empty rule id", what);
            continue;
        }
        char *w = xasprintf("the level of '%s'", key);
        const char *l = one_of(p, e, w, level_names);
        free(w);
        if (!l) continue;
        enum diag_level dl = DIAG_ERROR;
        struct config_level cl = {xstrdup(key), diag_level_parse(l, &dl) < 0 ? CONFIG_OFF : (int)dl,
                                  pos_of(p, e.n, 1)};
        VEC_PUSH(*out, cl);
    }
}

/* Is S a JSON Pointer (RFC 6901: empty, or '/'-prefixed with ~ only as ~0 or ~1)? */
static int pointer_ok(const char *s)
{
    if (*s && *s != '/') return 0;
    for (; *s; s++)
        if (*s == '~' && s[1] != '0' && s[1] != '1') return 0;
    return 1;
}

static void override_files(const struct cp *p, struct yn y, struct config_override *o)
{
    VEC(struct config_str) globs = VEC_INIT;
    string_list(p, y, "an override's files", &globs);
    for (size_t i = 0; i < globs.len; i++) {
        char *s = globs.items[i].s, *hash = strchr(s, '#');
        struct config_files f = {NULL, NULL, globs.items[i].pos};
        if (hash) {
            if (!pointer_ok(hash + 1)) {
                diag_errorf(p->errs, p->path, f.pos.line, f.pos.col,
                            "'%s': after '#' comes a JSON Pointer (/tools/0, with ~0 for ~ and "
                            "~1 for /), not '%s'",
                            s, hash + 1);
                free(s);
                continue;
            }
            f.pointer = xstrdup(hash + 1);
            *hash = '\0';
        }
        if (!*s) {
            diag_errorf(p->errs, p->path, f.pos.line, f.pos.col,
                        "an override's files entry needs a path glob before '#' (** for every "
                        "file)");
            free(s);
            free(f.pointer);
            continue;
        }
        f.glob = s;
        VEC_PUSH(o->files, f);
    }
    VEC_FREE(globs);
}

static void overrides_list(const struct cp *p, struct yn y)
{
    if (!json_is_array(y.v)) {
        err_at(p, y.n, 0, "overrides is a list of {files, levels} mappings, not a %s",
               type_name(y.v));
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yn e = item(p, y, i);
        if (!json_is_object(e.v)) {
            err_at(p, e.n, 0, "an override is a mapping with files and levels, not a %s",
                   type_name(e.v));
            continue;
        }
        check_keys(p, e, "an override", override_keys);
        struct config_override o = {VEC_INIT, VEC_INIT, pos_of(p, e.n, 0)};
        struct yn files = member(p, e, "files"), levels = member(p, e, "levels");
        if (!files.v) err_at(p, e.n, 0, "an override needs files: the path globs it applies to");
        else override_files(p, files, &o);
        if (!levels.v) err_at(p, e.n, 0, "an override needs levels: what it changes");
        else levels_map(p, levels, "an override's levels", &o.levels);
        VEC_PUSH(p->c->overrides, o);
    }
}

/* YYYY-MM-DD, a real date. */
static int date_ok(const char *s)
{
    int y, m, d;
    char tail;
    if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3) return 0;
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1]) return 0;
    return m != 2 || d < 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

static void suppress_list(const struct cp *p, struct yn y)
{
    if (!json_is_array(y.v)) {
        err_at(p, y.n, 0,
               "suppress is a list of {file, rule, item or pointer, reason, until} mappings, "
               "not a %s",
               type_name(y.v));
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yn e = item(p, y, i);
        if (!json_is_object(e.v)) {
            err_at(p, e.n, 0,
                   "a suppression is a mapping (file, rule, item or pointer, reason, "
                   "until), not a %s",
                   type_name(e.v));
            continue;
        }
        check_keys(p, e, "a suppression", suppress_keys);
        struct config_suppress s = {.pos = pos_of(p, e.n, 0)};
        char **fields[] = {&s.file, &s.rule, &s.item, &s.pointer, &s.reason, &s.until};
        for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
            struct yn m = member(p, e, suppress_keys[k]);
            if (!m.v) continue;
            char *what = xasprintf("a suppression's %s", suppress_keys[k]);
            const char *v = need_string(p, m, what);
            free(what);
            if (!v) continue;
            if (!strcmp(suppress_keys[k], "until") && !date_ok(v))
                err_at(p, m.n, 0, "a suppression's until is a date YYYY-MM-DD, not '%s'", v);
            else if (!strcmp(suppress_keys[k], "pointer") && !pointer_ok(v))
                err_at(p, m.n, 0, "a suppression's pointer is a JSON Pointer (/tools/0), not '%s'",
                       v);
            *fields[k] = xstrdup(v);
            if (!strcmp(suppress_keys[k], "rule")) s.rule_pos = pos_of(p, m.n, 0);
        }
        if (!member(p, e, "rule").v)
            err_at(p, e.n, 0, "a suppression needs rule: the rule id whose finding it hides");
        if (!member(p, e, "reason").v)
            err_at(p, e.n, 0, "a suppression needs reason: why the finding is accepted");
        if (s.item && s.pointer)
            err_at(p, member(p, e, "pointer").n, 1,
                   "a suppression names the finding by item or by pointer, not both");
        VEC_PUSH(p->c->suppress, s);
    }
}

/* The directory of PATH, absolute and resolved when it exists, new. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? (slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path)))
                      : xstrdup(".");
    char *real = realpath(dir, NULL);
    if (real) {
        free(dir);
        return real;
    }
    return dir;
}

static int by_position(const void *a, const void *b)
{
    const struct diag *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return 0;
}

static struct config *read_buffer(const char *path, const char *data, size_t len,
                                  struct diag_list *errs)
{
    size_t before = errs->len;
    struct doc_error derr = {0};
    doc *d = doc_load_buffer(path, data, len, 1, NULL, &derr);
    if (!d) {
        diag_errorf(errs, path, derr.line, derr.col, "%s", derr.message);
        doc_error_release(&derr);
        return NULL;
    }
    struct config *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    c->dir = dir_of(path);
    struct cp p = {d, path, errs, c};
    struct yn top = {doc_root(d), 0};
    if (json_is_object(top.v)) {
        check_keys(&p, top, "the config", top_keys);
        struct yn y;
        const char *s;
        if ((y = member(&p, top, "rules")).v) {
            size_t had = errs->len;
            string_list(&p, y, "rules", &c->rules);
            c->rules_bad = errs->len != had;
        }
        if ((y = member(&p, top, "preset")).v && (s = one_of(&p, y, "preset", preset_names)))
            set_str(&p, y, &c->preset, s);
        if ((y = member(&p, top, "fail-on")).v && (s = one_of(&p, y, "fail-on", fail_on_names)))
            set_str(&p, y, &c->fail_on, s);
        if ((y = member(&p, top, "format")).v) format_list(&p, y);
        if ((y = member(&p, top, "output")).v && (s = need_string(&p, y, "output")))
            set_str(&p, y, &c->output, s);
        if ((y = member(&p, top, "docs-url")).v && (s = need_string(&p, y, "docs-url"))) {
            if (uri_is_link(s)) set_str(&p, y, &c->docs_url, s);
            else err_at(&p, y.n, 0, "docs-url takes " URI_LINK_WANTED ", not '%s'", s);
        }
        if ((y = member(&p, top, "levels")).v) levels_map(&p, y, "levels", &c->levels);
        if ((y = member(&p, top, "overrides")).v) overrides_list(&p, y);
        if ((y = member(&p, top, "ignore")).v) string_list(&p, y, "ignore", &c->ignore);
        if ((y = member(&p, top, "suppress")).v) suppress_list(&p, y);
        if ((y = member(&p, top, "paths")).v) string_list(&p, y, "paths", &c->paths);
        if ((y = member(&p, top, "baseline")).v && (s = need_string(&p, y, "baseline")))
            set_str(&p, y, &c->baseline, s);
        if ((y = member(&p, top, "together")).v) {
            c->together_pos = pos_of(&p, y.n, 0);
            if (json_is_boolean(y.v)) c->together = json_is_true(y.v);
            else err_at(&p, y.n, 0, "together is true or false, not %s", type_name(y.v));
        }
        if ((y = member(&p, top, "strict-inputs")).v) {
            if (json_is_boolean(y.v)) c->strict_inputs = json_is_true(y.v);
            else err_at(&p, y.n, 0, "strict-inputs is true or false, not %s", type_name(y.v));
        }
    } else if (!json_is_null(top.v)) { /* an empty file is an empty config */
        err_at(&p, 0, 0, "the config is a mapping (rules, preset, levels, ...), not a %s",
               type_name(top.v));
    }
    doc_free(d);
    c->nerrors = errs->len - before;
    /* in the order of the file: the keys are checked one after another, not in it (no
     * errors: errs->items may be NULL, which qsort must not get) */
    if (c->nerrors) qsort(errs->items + before, c->nerrors, sizeof *errs->items, by_position);
    return c;
}

/* C, or NULL (C freed) when it has errors */
static struct config *only_clean(struct config *c)
{
    if (c && c->nerrors) {
        config_free(c);
        return NULL;
    }
    return c;
}

struct config *config_load_buffer(const char *path, const char *data, size_t len,
                                  struct diag_list *errs)
{
    return only_clean(read_buffer(path, data, len, errs));
}

struct config *config_read(const char *path, struct diag_list *errs)
{
    struct buf b = BUF_INIT;
    if (buf_read_file(&b, path) < 0) {
        diag_errorf(errs, path, 0, 0, "cannot read the config: %s", strerror(errno));
        buf_release(&b);
        return NULL;
    }
    struct config *c = read_buffer(path, b.s ? b.s : "", b.len, errs);
    buf_release(&b);
    return c;
}

struct config *config_load(const char *path, struct diag_list *errs)
{
    return only_clean(config_read(path, errs));
}

static void levels_free(void *lv)
{
    VEC(struct config_level) *l = lv;
    for (size_t i = 0; i < l->len; i++) free(l->items[i].rule);
    VEC_FREE(*l);
}

void config_free(struct config *c)
{
    if (!c) return;
    free(c->path);
    free(c->dir);
    for (size_t i = 0; i < c->rules.len; i++) free(c->rules.items[i].s);
    VEC_FREE(c->rules);
    free(c->preset.s);
    free(c->fail_on.s);
    for (size_t i = 0; i < c->format.len; i++) free(c->format.items[i].s);
    VEC_FREE(c->format);
    free(c->output.s);
    free(c->docs_url.s);
    levels_free(&c->levels);
    for (size_t i = 0; i < c->overrides.len; i++) {
        struct config_override *o = &c->overrides.items[i];
        for (size_t k = 0; k < o->files.len; k++) {
            free(o->files.items[k].glob);
            free(o->files.items[k].pointer);
        }
        VEC_FREE(o->files);
        levels_free(&o->levels);
    }
    VEC_FREE(c->overrides);
    for (size_t i = 0; i < c->ignore.len; i++) free(c->ignore.items[i].s);
    VEC_FREE(c->ignore);
    for (size_t i = 0; i < c->paths.len; i++) free(c->paths.items[i].s);
    VEC_FREE(c->paths);
    free(c->baseline.s);
    for (size_t i = 0; i < c->suppress.len; i++) {
        struct config_suppress *s = &c->suppress.items[i];
        free(s->file);
        free(s->rule);
        free(s->item);
        free(s->pointer);
        free(s->reason);
        free(s->until);
    }
    VEC_FREE(c->suppress);
    free(c);
}

/* ---- rule ids ------------------------------------------------------------------- */

int config_rule_matches(const char *pattern, const char *id)
{
    return !fnmatch(pattern, id, 0);
}

static int is_glob(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* Every rule id of RS, then the built-ins: I from 0 to nids(RS). */
static size_t nids(const struct rule_set *rs)
{
    return rule_set_count(rs) + res_nbuiltins;
}
static const char *id_at(const struct rule_set *rs, size_t i)
{
    size_t n = rule_set_count(rs);
    return i < n ? rule_id(rule_set_rule(rs, i)) : res_builtins[i - n].id;
}
static int default_level(const struct rule_set *rs, size_t i)
{
    size_t n = rule_set_count(rs);
    return i < n ? (int)rule_level(rule_set_rule(rs, i)) : (int)res_builtins[i - n].level;
}

/* Does RULE (an id or a glob) name a rule of RS or a built-in? Else an error at POS. */
static size_t check_rule(const struct config *c, const struct rule_set *rs, const char *rule,
                         struct config_pos pos, struct diag_list *errs)
{
    for (size_t k = 0; k < nids(rs); k++)
        if (config_rule_matches(rule, id_at(rs, k))) return 0;
    const char *near = rule_set_suggest(rs, rule);
    diag_errorf(errs, c->path, pos.line, pos.col, "%s '%s'%s %s%s%s%s (see mcpdesc rules list)",
                is_glob(rule) ? "the glob" : "unknown rule id", rule,
                is_glob(rule) ? " matches no rule of" : ": no rule of", rule_set_name(rs),
                near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return 1;
}

static size_t check_levels(const struct config *c, const struct rule_set *rs, const void *lv,
                           struct diag_list *errs)
{
    const VEC(struct config_level) *l = lv;
    size_t bad = 0;
    for (size_t i = 0; i < l->len; i++)
        bad += check_rule(c, rs, l->items[i].rule, l->items[i].pos, errs);
    return bad;
}

size_t config_check(const struct config *c, const struct rule_set *rs, struct diag_list *errs)
{
    size_t bad = check_levels(c, rs, &c->levels, errs);
    for (size_t i = 0; i < c->overrides.len; i++)
        bad += check_levels(c, rs, &c->overrides.items[i].levels, errs);
    for (size_t i = 0; i < c->suppress.len; i++)
        if (c->suppress.items[i].rule)
            bad +=
                check_rule(c, rs, c->suppress.items[i].rule, c->suppress.items[i].rule_pos, errs);
    return bad;
}

/* The level the entries of L give ID (the last match), or DFLT; *BY: the deciding entry.
 * An `off` entry is passed over when KEEP says so. */
static int level_in(const void *lv, const char *id, int dflt, int (*keep)(const char *, void *),
                    void *arg, const struct config_level **by)
{
    const VEC(struct config_level) *l = lv;
    for (size_t i = 0; i < l->len; i++) {
        const struct config_level *e = &l->items[i];
        if (!config_rule_matches(e->rule, id)) continue;
        if (e->level == CONFIG_OFF && keep && keep(id, arg)) continue;
        dflt = e->level;
        if (by) *by = e;
    }
    return dflt;
}

int config_rule_level(const struct config *c, const char *id, int dflt)
{
    return level_in(&c->levels, id, dflt, NULL, NULL, NULL);
}

/* ---- paths ---------------------------------------------------------------------- */

/* Split S at '/' into new segments (empty ones dropped). */
static size_t split(const char *s, char ***out)
{
    VEC(char *) v = VEC_INIT;
    while (*s) {
        size_t n = strcspn(s, "/");
        if (n) VEC_PUSH(v, xstrndup(s, n));
        s += n + (s[n] == '/');
    }
    *out = v.items;
    return v.len;
}

static void split_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

static int match_segs(char **g, size_t ng, char **p, size_t np)
{
    if (!ng) return !np;
    if (!strcmp(g[0], "**"))
        return match_segs(g + 1, ng - 1, p, np) || (np && match_segs(g, ng, p + 1, np - 1));
    return np && !fnmatch(g[0], p[0], FNM_PERIOD) && match_segs(g + 1, ng - 1, p + 1, np - 1);
}

int config_path_matches(const char *glob, const char *path)
{
    char **g, **p;
    size_t ng = split(glob, &g), np = split(path, &p);
    int hit = 0;
    for (size_t k = np; k >= 1 && !hit; k--) hit = match_segs(g, ng, p, k); /* or a parent */
    split_free(g, ng);
    split_free(p, np);
    return hit;
}

/* PATH made absolute against the working directory, "." and ".." taken away, new. */
static char *lexical_abs(const char *path)
{
    char cwd[PATH_MAX];
    struct buf in = BUF_INIT;
    if (path[0] != '/' && getcwd(cwd, sizeof cwd)) buf_addf(&in, "%s/", cwd);
    buf_adds(&in, path);
    char **segs;
    size_t n = split(buf_str(&in), &segs), keep = 0;
    buf_release(&in);
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(segs[i], ".")) {
            free(segs[i]);
        } else if (!strcmp(segs[i], "..")) {
            free(segs[i]);
            if (keep) free(segs[--keep]);
        } else {
            segs[keep++] = segs[i];
        }
    }
    struct buf out = BUF_INIT;
    for (size_t i = 0; i < keep; i++) buf_addf(&out, "/%s", segs[i]);
    split_free(segs, keep);
    return out.len ? buf_detach(&out) : xstrdup("/");
}

char *config_relpath(const struct config *c, const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs) abs = lexical_abs(path);
    size_t dl = strlen(c->dir);
    char *rel = NULL;
    if (!strcmp(c->dir, "/")) rel = xstrdup(abs + 1);
    else if (!strncmp(abs, c->dir, dl) && abs[dl] == '/') rel = xstrdup(abs + dl + 1);
    free(abs);
    return rel;
}

char *config_path_of(const struct config *c, const char *rel)
{
    const char *slash = strrchr(c->path, '/');
    if (rel[0] == '/' || !slash) return xstrdup(rel);
    return xasprintf("%.*s/%s", (int)(slash - c->path), c->path, rel);
}

int config_ignored(const struct config *c, const char *path)
{
    if (!c->ignore.len) return 0;
    char *rel = config_relpath(c, path);
    int hit = 0;
    for (size_t i = 0; rel && i < c->ignore.len && !hit; i++)
        hit = config_path_matches(c->ignore.items[i].s, rel);
    free(rel);
    return hit;
}

/* Is the diagnostic pointer DP the pointer P or below it? */
static int at_or_below(const char *dp, const char *p)
{
    size_t n = strlen(p);
    return dp && !strncmp(dp, p, n) && (dp[n] == '\0' || dp[n] == '/');
}

static int override_applies(const struct config_override *o, const char *rel, const char *dp)
{
    for (size_t i = 0; rel && i < o->files.len; i++) {
        const struct config_files *f = &o->files.items[i];
        if (config_path_matches(f->glob, rel) && (!f->pointer || at_or_below(dp, f->pointer)))
            return 1;
    }
    return 0;
}

size_t config_apply(const struct config *c, const char *path, struct diag_list *l,
                    int (*keep)(const char *id, void *arg), void *arg)
{
    if (!c->levels.len && !c->overrides.len) return 0;
    char *rel = c->overrides.len ? config_relpath(c, path) : NULL;
    size_t out = 0, dropped = 0;
    for (size_t i = 0; i < l->len; i++) {
        struct diag *d = &l->items[i];
        int level = d->level;
        if (d->rule) {
            level = level_in(&c->levels, d->rule, level, keep, arg, NULL);
            for (size_t k = 0; k < c->overrides.len; k++)
                if (override_applies(&c->overrides.items[k], rel, d->pointer))
                    level =
                        level_in(&c->overrides.items[k].levels, d->rule, level, keep, arg, NULL);
        }
        if (level == CONFIG_OFF) {
            diag_clear(d);
            dropped++;
            continue;
        }
        d->level = (enum diag_level)level;
        l->items[out++] = *d;
    }
    l->len = out;
    free(rel);
    return dropped;
}

/* ---- reports -------------------------------------------------------------------- */

const char *config_level_name(int level)
{
    return level == CONFIG_OFF ? "off" : diag_level_name((enum diag_level)level);
}

size_t config_levels_changed(const struct config *c, const struct rule_set *rs)
{
    size_t n = 0;
    for (size_t i = 0; i < nids(rs); i++) {
        int from = default_level(rs, i);
        n += config_rule_level(c, id_at(rs, i), from) != from;
    }
    return n;
}

static json_t *change(const char *id, const struct config_level *by, int from, int to,
                      json_t *where)
{
    return json_pack("{s:s, s:o, s:s, s:s, s:o}", "rule", id, "glob",
                     is_glob(by->rule) ? json_string(by->rule) : json_null(), "from",
                     config_level_name(from), "to", config_level_name(to), "where",
                     where ? where : json_null());
}

json_t *config_changes_json(const struct config *c, const struct rule_set *rs)
{
    json_t *a = json_array();
    for (size_t i = 0; i < nids(rs); i++) {
        const struct config_level *by = NULL;
        int from = default_level(rs, i),
            to = level_in(&c->levels, id_at(rs, i), from, NULL, NULL, &by);
        if (by && to != from) json_array_append_new(a, change(id_at(rs, i), by, from, to, NULL));
    }
    for (size_t k = 0; k < c->overrides.len; k++) {
        const struct config_override *o = &c->overrides.items[k];
        for (size_t i = 0; i < nids(rs); i++) {
            const struct config_level *by = NULL;
            int from = config_rule_level(c, id_at(rs, i), default_level(rs, i));
            int to = level_in(&o->levels, id_at(rs, i), from, NULL, NULL, &by);
            if (!by || to == from) continue;
            json_t *where = json_array();
            for (size_t f = 0; f < o->files.len; f++)
                json_array_append_new(
                    where,
                    o->files.items[f].pointer
                        ? json_sprintf("%s#%s", o->files.items[f].glob, o->files.items[f].pointer)
                        : json_string(o->files.items[f].glob));
            json_array_append_new(a, change(id_at(rs, i), by, from, to, where));
        }
    }
    return a;
}

json_t *config_report_json(const struct config *c, const struct rule_set *rs)
{
    json_t *ignore = json_array();
    for (size_t i = 0; i < c->ignore.len; i++)
        json_array_append_new(ignore, json_string(c->ignore.items[i].s));
    return json_pack("{s:s, s:s?, s:s?, s:o, s:I, s:I, s:o}", "file", c->path, "preset",
                     c->preset.s, "failOn", c->fail_on.s, "ignore", ignore, "overrides",
                     (json_int_t)c->overrides.len, "suppressions", (json_int_t)c->suppress.len,
                     "changes", config_changes_json(c, rs));
}
