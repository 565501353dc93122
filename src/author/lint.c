/* lint.c - `rules lint`: the loader's positioned errors, then what the loader cannot
 * see because it judges one member at a time: version branches outside `applies`,
 * examples whose fixture or pointer does not exist (or whose expectation the rule's level
 * can never produce), a level that contradicts the requirement's RFC 2119 keyword, and
 * citations (`based-on`): every source has a text and, once the set links its sources, a
 * url; a GitHub file link is pinned to a commit, the same commit as the set's other links
 * to that repository; a link to a file of this project (under the manifest's schema-map)
 * names a file that exists; rule files beside the manifest that `files:` does not list;
 * selectors whose path the description format's JSON Schema forbids (a misspelt member);
 * rules without examples.
 * Lint reads the partial program (rule_set_load_partial): the loader is the one reader of
 * the manifest and the rule files, and lint walks the documents it kept, with their
 * positions, so it runs even when the loader refuses some rules or the whole set.
 * `rules test` (running the examples) is rules_test.c. */
#include "author/lint.h"

#include <dirent.h>
#include <regex.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "author/fixtures.h"
#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/util.h"
#include "base/ver.h"
#include "judge/eval.h"
#include "resolve/sel.h"
#include "schema/schema.h"

char *lint_default_fixtures(const char *rules_dir)
{
    size_t n = strlen(rules_dir);
    while (n > 1 && rules_dir[n - 1] == '/') n--;
    size_t base = n;
    while (base > 0 && rules_dir[base - 1] != '/') base--;
    const char *last = rules_dir + base;
    size_t last_len = n - base;
    if ((last_len == 1 && *last == '.') || (last_len == 2 && !strncmp(last, "..", 2)) || !last_len)
        return xasprintf("%.*s/../conformance", (int)n, rules_dir);
    if (base == 0) return xstrdup("conformance");
    return xasprintf("%.*sconformance", (int)base, rules_dir);
}

/* ---- lint -------------------------------------------------------------------------- */

struct seen_id {
    char *id, *file;
    struct doc_pos pos;
};

struct fmt;

/* A based-on url found in the set, remembered until every file is read. */
struct cite {
    char *file;
    struct doc_pos pos;
    char *repo;   /* GitHub owner/name, lower case (NULL: an entry without url) */
    char *commit; /* 40 hex digits (NULL: not pinned, or no url) */
    char *ref;    /* the ref of a link not pinned to a commit (else NULL) */
};

struct lint {
    VEC(struct seen_id) ids; /* every rule id met so far, for duplicates */
    VEC(struct cite) pinned; /* every GitHub file link, pinned to a commit or not */
    VEC(struct cite) no_url; /* every based-on entry without a url */
    size_t urls;             /* based-on entries with a url */
    const char *dir;         /* the rule set's directory */
    json_t *schema_map;      /* the manifest's schema-map (borrowed; may be NULL) */
    const doc *d;            /* the rule file being linted */
    struct ver_list vl;      /* the manifest's versions (as lint read them) */
    struct fixtures *fx;
    struct diag_list *out;
    const char *rule_id;
    ver_mask judged;    /* versions some `require` of the current rule judges */
    struct fmt *format; /* the description format's JSON Schema (NULL: not found) */
    char *fx_missing;   /* the fixtures directory, when it is not there (fx is NULL) */
};

static void finding(struct lint *l, const char *pointer, enum diag_level level, const char *hint,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void finding(struct lint *l, const char *pointer, enum diag_level level, const char *hint,
                    const char *fmt, ...)
{
    struct doc_pos pos = {0, 0};
    doc_pointer_pos(l->d, pointer, &pos, NULL);
    va_list ap;
    va_start(ap, fmt);
    struct diag *dg = diag_vadd(l->out, level, doc_name(l->d), pos.line, pos.col, fmt, ap);
    va_end(ap);
    if (hint) dg->hint = xstrdup(hint);
}

static void count_problem(void *arg, const struct ver_spec_error *e)
{
    (void)e;
    ++*(size_t *)arg;
}

/* A version spec read by the loader's parser; -1 when it has any problem (the loader
 * reports it, and lint does not judge what it would have meant). */
static int spec_mask(const struct ver_list *vl, json_t *spec, ver_mask *out)
{
    size_t problems = 0;
    ver_mask m;
    if (ver_spec_parse(vl, spec, &m, count_problem, &problems) < 0 || problems) return -1;
    *out = m;
    return 0;
}

static char *versions_text(const struct ver_list *vl, ver_mask m)
{
    struct buf b = BUF_INIT;
    ver_format(&b, vl, m, ", ");
    return buf_detach(&b);
}

/* A {...} in the template S (at POINTER, called WHAT) that is no placeholder but within
 * 2 edits of one (eval_placeholders): a typo the interpreter would keep as written. */
static void lint_template(struct lint *l, json_t *s, const char *pointer, const char *what)
{
    const char *t = json_string_value(s);
    for (const char *p = t ? strchr(t, '{') : NULL; p; p = strchr(p + 1, '{')) {
        const char *close = strchr(p + 1, '}');
        if (!close) break;
        char *name = xstrndup(p + 1, (size_t)(close - p - 1));
        const char *near = NULL, *exact = NULL;
        size_t best = 3;
        for (const char *const *ph = eval_placeholders; *ph && !exact; ph++) {
            size_t d = util_edit_distance(name, *ph);
            if (!d) exact = *ph;
            else if (d < best) {
                best = d;
                near = *ph;
            }
        }
        if (!exact && near && *name) {
            struct buf known = BUF_INIT;
            for (const char *const *ph = eval_placeholders; *ph; ph++)
                buf_addf(&known, "%s{%s}", ph == eval_placeholders ? "" : ", ", *ph);
            char *hint = xasprintf("write {%s}; the placeholders are %s", near, buf_str(&known));
            finding(l, pointer, DIAG_WARNING, hint,
                    "\"{%s}\" in %s is no placeholder and is shown as written: did you mean "
                    "\"{%s}\"?",
                    name, what, near);
            free(hint);
            buf_release(&known);
        }
        free(name);
    }
}

/* The templates of a clause: its message, hint and fix titles. */
static void lint_templates(struct lint *l, json_t *c, const char *ptr)
{
    static const char *const members[] = {"message", "hint"};
    for (size_t k = 0; k < 2; k++) {
        char *mp = xasprintf("%s/%s", ptr, members[k]);
        lint_template(l, json_object_get(c, members[k]), mp, k ? "a hint" : "a message");
        free(mp);
    }
    json_t *fx = json_object_get(c, "fix");
    for (size_t i = 0; i < (json_is_array(fx) ? json_array_size(fx) : 1); i++) {
        json_t *f = json_is_array(fx) ? json_array_get(fx, i) : fx;
        char *tp = json_is_array(fx) ? xasprintf("%s/fix/%zu/title", ptr, i)
                                     : xasprintf("%s/fix/title", ptr);
        lint_template(l, json_object_get(f, "title"), tp, "a fix title");
        free(tp);
    }
}

/* A clause's `versions` against the versions it can ever be asked about (OUTER). */
static void lint_clause(struct lint *l, json_t *c, const char *ptr, ver_mask outer,
                        const char *outer_what)
{
    if (!json_is_object(c)) return;
    lint_templates(l, c, ptr);
    json_t *v = json_object_get(c, "versions");
    ver_mask own, eff = outer;
    if (v && spec_mask(&l->vl, v, &own) == 0) {
        ver_mask inside = own & outer, outside = own & ~outer;
        char *vp = xasprintf("%s/versions", ptr);
        char *o = versions_text(&l->vl, outer), *out = versions_text(&l->vl, outside);
        if (!inside) {
            char *hint = xasprintf("remove the branch, or widen %s to include it", outer_what);
            finding(l, vp, DIAG_ERROR, hint,
                    "this branch never runs: its versions (%s) are all outside %s (%s)", out,
                    outer_what, o);
            free(hint);
        } else if (outside) {
            struct buf spec = BUF_INIT;
            ver_spec_format(&spec, &l->vl, inside);
            char *in = versions_text(&l->vl, inside);
            char *hint = xasprintf("write versions: %s (what it judges), or widen %s",
                                   buf_str(&spec), outer_what);
            finding(l, vp, DIAG_WARNING, hint,
                    "versions %s of this branch are outside %s (%s): it only judges %s", out,
                    outer_what, o, in);
            free(hint);
            free(in);
            buf_release(&spec);
        }
        free(o);
        free(out);
        free(vp);
        eff = inside;
        if (!eff) return;
    }
    if (json_object_get(c, "require")) l->judged |= eff;
    static const char *const lists[] = {"all", "first"};
    for (size_t k = 0; k < 2; k++) {
        json_t *kids = json_object_get(c, lists[k]);
        for (size_t i = 0; json_is_array(kids) && i < json_array_size(kids); i++) {
            char *kp = xasprintf("%s/%s/%zu", ptr, lists[k], i);
            char *what = v ? xasprintf("the enclosing branch's versions (%s/versions)", ptr) : NULL;
            lint_clause(l, json_array_get(kids, i), kp, eff, what ? what : outer_what);
            free(what);
            free(kp);
        }
    }
}

/* RFC 2119 keywords (upper case only, as RFC 8174 says) and the level each means. */
static const struct {
    const char *word;
    const char *level;
} keywords[] = {
    {"MUST", "must"},          {"REQUIRED", "must"}, {"SHALL", "must"},   {"SHOULD", "should"},
    {"RECOMMENDED", "should"}, {"MAY", "may"},       {"OPTIONAL", "may"},
};

static int is_upper_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || c == '_';
}

static void lint_level(struct lint *l, json_t *rule, const char *ptr)
{
    const char *level = json_string_value(json_object_get(rule, "level"));
    const char *req = json_string_value(json_object_get(rule, "requirement"));
    if (!level || !req) return;
    if (strcmp(level, "must") && strcmp(level, "should") && strcmp(level, "may")) return;
    const char *first = NULL;
    int matches = 0;
    for (const char *p = req; *p; p++) {
        if (p > req && is_upper_word_char(p[-1])) continue;
        for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
            size_t n = strlen(keywords[k].word);
            if (strncmp(p, keywords[k].word, n) || is_upper_word_char(p[n])) continue;
            if (!first) first = keywords[k].word;
            if (!strcmp(keywords[k].level, level)) matches = 1;
        }
    }
    if (!first || matches) return;
    const char *want = "must";
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (!strcmp(keywords[k].word, first)) want = keywords[k].level;
    char *lp = xasprintf("%s/level", ptr);
    char *hint =
        xasprintf("write level: %s, or reword the requirement (MUST: error, SHOULD: warning, "
                  "MAY: info)",
                  want);
    finding(l, lp, DIAG_ERROR, hint,
            "level \"%s\" does not match the requirement, which says %s (a %s rule)", level, first,
            want);
    free(hint);
    free(lp);
}

/* Does clause C (a rule's check as written) or one below it declare a fix? */
static int has_fix(json_t *c)
{
    if (!json_is_object(c)) return 0;
    if (json_object_get(c, "fix")) return 1;
    static const char *const lists[] = {"all", "first"};
    for (size_t k = 0; k < 2; k++) {
        json_t *kids = json_object_get(c, lists[k]);
        for (size_t i = 0; json_is_array(kids) && i < json_array_size(kids); i++)
            if (has_fix(json_array_get(kids, i))) return 1;
    }
    return 0;
}

static int has_fix_example(json_t *ex)
{
    for (size_t i = 0; json_is_array(ex) && i < json_array_size(ex); i++) {
        const char *e = json_string_value(json_object_get(json_array_get(ex, i), "expect"));
        if (e && !strcmp(e, "fix")) return 1;
    }
    return 0;
}

/* Has EX an example where the rule must report (invalid, warning, info or fix)? Only
 * such an example fails when the rule checks the wrong thing (issue 28). */
static int has_failing_example(json_t *ex)
{
    for (size_t i = 0; i < json_array_size(ex); i++) {
        const char *expect = json_string_value(json_object_get(json_array_get(ex, i), "expect"));
        if (expect && strcmp(expect, "valid")) return 1;
    }
    return 0;
}

static void lint_examples(struct lint *l, json_t *rule, const char *ptr)
{
    json_t *ex = json_object_get(rule, "examples");
    const char *level = json_string_value(json_object_get(rule, "level"));
    for (size_t i = 0; json_is_array(ex) && i < json_array_size(ex); i++) {
        json_t *e = json_array_get(ex, i);
        const char *expect = json_string_value(json_object_get(e, "expect"));
        const char *fixture = json_string_value(json_object_get(e, "fixture"));
        const char *pointer = json_string_value(json_object_get(e, "pointer"));
        char *ep = xasprintf("%s/examples/%zu", ptr, i);
        if (expect && level) {
            const char *need = !strcmp(expect, "invalid") ? "must"
                : !strcmp(expect, "warning")              ? "should"
                : !strcmp(expect, "info")                 ? "may"
                                                          : NULL;
            if (need && strcmp(need, level) != 0 &&
                (!strcmp(level, "must") || !strcmp(level, "should") || !strcmp(level, "may"))) {
                char *xp = xasprintf("%s/expect", ep);
                const char *reports = !strcmp(level, "must") ? "errors"
                    : !strcmp(level, "should")               ? "warnings"
                                                             : "infos";
                char *hint = xasprintf("write expect: %s, or level: %s",
                                       !strcmp(level, "must")         ? "invalid"
                                           : !strcmp(level, "should") ? "warning"
                                                                      : "info",
                                       need);
                finding(l, xp, DIAG_ERROR, hint,
                        "this example expects %s, but a %s rule reports %s, so `rules test` can "
                        "never pass it",
                        !strcmp(expect, "invalid")       ? "an error"
                            : !strcmp(expect, "warning") ? "a warning"
                                                         : "an info",
                        level, reports);
                free(hint);
                free(xp);
            }
        }
        if (!l->fx && l->fx_missing &&
            (json_object_get(e, "fixture") || json_object_get(e, "after"))) {
            /* said once for the set; the examples' fixtures are then not looked up */
            diag_errorf(l->out, l->dir, 0, 0,
                        "fixtures directory %s not found: the examples' fixtures are not checked",
                        l->fx_missing);
            l->out->items[l->out->len - 1].hint =
                xstrdup("copy conformance/ beside the rule set, or pass --fixtures DIR "
                        "(rules-yaml/README.md, Working on a copy)");
            free(l->fx_missing);
            l->fx_missing = NULL;
        }
        const char *after = l->fx ? json_string_value(json_object_get(e, "after")) : NULL;
        if (after) {
            json_t *v;
            char *problem;
            if (fixtures_lookup(l->fx, after, "", &v, &problem) == FIXTURES_NO_FIXTURE) {
                char *fp = xasprintf("%s/after", ep);
                finding(l, fp, DIAG_ERROR,
                        "name the fixed fixture (e.g. fixes/NAME.after.json, see "
                        "conformance/README.md)",
                        "%s", problem);
                free(fp);
            }
            free(problem);
        }
        if (fixture && pointer && l->fx) { /* no fixtures directory: reported once */
            json_t *v;
            char *problem;
            enum fixtures_lookup k = fixtures_lookup(l->fx, fixture, pointer, &v, &problem);
            if (k == FIXTURES_NO_FIXTURE) {
                char *fp = xasprintf("%s/fixture", ep);
                char *hint =
                    xasprintf("name a file under %s (e.g. expected-invalid/NAME.json), or add "
                              "the fixture (see conformance/README.md)",
                              fixtures_dir(l->fx));
                finding(l, fp, DIAG_ERROR, hint, "%s", problem);
                free(hint);
                free(fp);
            } else if (k == FIXTURES_NO_POINTER) {
                char *pp = xasprintf("%s/pointer", ep);
                finding(l, pp, DIAG_ERROR,
                        "point at the value the rule reports (RFC 6901: array items by index, e.g. "
                        "/tools/0/inputSchema)",
                        "%s", problem);
                free(pp);
            }
            free(problem);
        }
        free(ep);
    }
}

/* FILE (a path under the rule set's directory) as the rule set names it: tool.yaml. */
static const char *set_relative(const struct lint *l, const char *file)
{
    size_t n = strlen(l->dir);
    while (n > 1 && l->dir[n - 1] == '/') n--;
    return !strncmp(file, l->dir, n) && file[n] == '/' ? file + n + 1 : file;
}

/* A rule id met before. The loader reports duplicates of rules it compiled; one whose
 * first occurrence it refused slips through, so lint reports it unless already reported. */
static void lint_duplicate(struct lint *l, const char *ptr)
{
    char *ip = xasprintf("%s/id", ptr);
    struct doc_pos pos = {0, 0}, rule_pos = {0, 0};
    doc_pointer_pos(l->d, ip, &pos, NULL);
    doc_pointer_pos(l->d, ptr, &rule_pos, NULL);
    const struct seen_id *first = NULL;
    for (size_t i = 0; i < l->ids.len && !first; i++)
        if (!strcmp(l->ids.items[i].id, l->rule_id)) first = &l->ids.items[i];
    if (first) {
        int reported = 0;
        for (size_t i = 0; i < l->out->len && !reported; i++) {
            const struct diag *d = &l->out->items[i];
            reported = d->file && !strcmp(d->file, doc_name(l->d)) && d->line == pos.line &&
                d->col == pos.col;
        }
        if (!reported) {
            char *at = loc_format(first->file, first->pos.line, first->pos.col);
            char *rel = loc_format(set_relative(l, first->file), first->pos.line, first->pos.col);
            char *hint = xasprintf("rule ids are unique in the set: rename this rule or merge it "
                                   "with the one at %s",
                                   at);
            finding(l, ip, DIAG_ERROR, hint, "duplicate rule id \"%s\" (first defined at %s)",
                    l->rule_id, rel);
            free(hint);
            free(rel);
            free(at);
        }
    } else {
        struct seen_id e = {xstrdup(l->rule_id), xstrdup(doc_name(l->d)), rule_pos};
        VEC_PUSH(l->ids, e);
    }
    free(ip);
}

/* ---- selectors against the description format --------------------------------------- */

/* The description format's JSON Schema (mcp-description.schema.json beside the schema-map's
 * directories, or in DIR/../schema) and the files its $refs reach through the schema-map:
 * an absolute selector whose literal segments that schema forbids selects nothing in any
 * description. */
struct fmt_file {
    char *path;
    json_t *root;
};

struct fmt {
    VEC(struct fmt_file) files; /* [0] is the description format */
    const struct lint *l;
};

/* A schema and the file it lies in (for its local $refs). */
struct spos {
    json_t *s;
    size_t file;
};
typedef VEC(struct spos) spos_vec;
typedef VEC(char *) str_vec;

static long fmt_open(struct fmt *f, const char *path)
{
    for (size_t i = 0; i < f->files.len; i++)
        if (!strcmp(f->files.items[i].path, path)) return (long)i;
    json_t *root = json_load_file(path, 0, NULL);
    if (!root) return -1;
    struct fmt_file ff = {xstrdup(path), root};
    VEC_PUSH(f->files, ff);
    return (long)f->files.len - 1;
}

static const char *description_schema_name = "mcp-description.schema.json";

static struct fmt *fmt_new(const struct lint *l)
{
    struct fmt *f = xcalloc(1, sizeof *f);
    f->l = l;
    const char *prefix;
    json_t *dirv;
    if (l->schema_map) json_object_foreach(l->schema_map, prefix, dirv)
        {
            if (!json_is_string(dirv) || f->files.len) continue;
            const char *d = json_string_value(dirv);
            size_t dn = strlen(d);
            while (dn > 1 && d[dn - 1] == '/') dn--;
            char *p = xasprintf("%s/%.*s/%s", l->dir, (int)dn, d, description_schema_name);
            if (access(p, R_OK) == 0) fmt_open(f, p);
            free(p);
        }
    if (!f->files.len) {
        char *p = xasprintf("%s/../schema/%s", l->dir, description_schema_name);
        if (access(p, R_OK) == 0) fmt_open(f, p);
        free(p);
    }
    if (!f->files.len) {
        free(f);
        return NULL;
    }
    return f;
}

static void fmt_free(struct fmt *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->files.len; i++) {
        free(f->files.items[i].path);
        json_decref(f->files.items[i].root);
    }
    VEC_FREE(f->files);
    free(f);
}

/* The schema $ref REF names from FILE, or s NULL when lint cannot follow it (an anchor, a
 * file outside the schema-map): the walk then accepts whatever lies below. */
static struct spos fmt_ref(struct fmt *f, size_t file, const char *ref)
{
    struct spos out = {NULL, file};
    const char *hash = strchr(ref, '#');
    size_t n = hash ? (size_t)(hash - ref) : strlen(ref);
    if (n) {
        char *path = NULL;
        const char *prefix;
        json_t *dirv;
        if (f->l->schema_map) json_object_foreach(f->l->schema_map, prefix, dirv)
            {
                size_t pn = strlen(prefix);
                if (path || !json_is_string(dirv) || pn > n || strncmp(ref, prefix, pn)) continue;
                path = xasprintf("%s/%s/%.*s", f->l->dir, json_string_value(dirv), (int)(n - pn),
                                 ref + pn);
            }
        if (!path && !strstr(ref, "://")) { /* relative to the referring file */
            const char *from = f->files.items[file].path, *slash = strrchr(from, '/');
            path = xasprintf("%.*s%.*s", slash ? (int)(slash - from + 1) : 0, from, (int)n, ref);
        }
        long k = path ? fmt_open(f, path) : -1;
        free(path);
        if (k < 0) return out;
        out.file = (size_t)k;
    }
    json_t *root = f->files.items[out.file].root;
    if (!hash || !hash[1]) {
        out.s = root;
        return out;
    }
    if (hash[1] != '/') return out; /* an anchor */
    struct ptr p;
    const char *why;
    if (ptr_parse(hash + 1, &p, &why) < 0) return out;
    out.s = ptr_get(root, &p);
    ptr_release(&p);
    return out;
}

/* S and what it must also satisfy: its $ref and allOf, recursively. Returns -1 when some
 * part cannot be followed, or chooses (anyOf, oneOf, if): lint then cannot tell. */
static int fmt_conjuncts(struct fmt *f, struct spos s, spos_vec *out, int depth)
{
    if (!s.s || depth > 32) return -1;
    if (json_is_true(s.s)) return 0;
    if (!json_is_object(s.s)) return -1; /* false, or not a schema */
    if (json_object_get(s.s, "anyOf") || json_object_get(s.s, "oneOf") ||
        json_object_get(s.s, "if") || json_object_get(s.s, "$dynamicRef"))
        return -1;
    VEC_PUSH(*out, s);
    json_t *ref = json_object_get(s.s, "$ref");
    if (json_is_string(ref) &&
        fmt_conjuncts(f, fmt_ref(f, s.file, json_string_value(ref)), out, depth + 1) < 0)
        return -1;
    json_t *all = json_object_get(s.s, "allOf");
    for (size_t i = 0; json_is_array(all) && i < json_array_size(all); i++) {
        struct spos k = {json_array_get(all, i), s.file};
        if (fmt_conjuncts(f, k, out, depth + 1) < 0) return -1;
    }
    return 0;
}

static int type_allows(json_t *s, const char *type)
{
    json_t *t = json_object_get(s, "type");
    if (json_is_string(t)) return !strcmp(json_string_value(t), type);
    if (!json_is_array(t)) return 1;
    for (size_t i = 0; i < json_array_size(t); i++)
        if (json_is_string(json_array_get(t, i)) &&
            !strcmp(json_string_value(json_array_get(t, i)), type))
            return 1;
    return 0;
}

static int pattern_matches(const char *pattern, const char *name)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) return 1; /* cannot tell */
    int m = regexec(&re, name, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

/* Why a walk stopped on a segment the format forbids. */
struct fmt_block {
    size_t seg;      /* the forbidden segment */
    json_t *schema;  /* the closed object schema, or the one whose type excludes it */
    const char *was; /* its JSON type when the type forbids it, else NULL */
};

/* Walk SEGS from the format's root. 1 and *B filled when a literal segment cannot exist. */
static int fmt_walk(struct fmt *f, const struct ptr *segs, struct fmt_block *b)
{
    spos_vec cur = VEC_INIT, next = VEC_INIT;
    struct spos root = {f->files.items[0].root, 0};
    int blocked = 0, open = fmt_conjuncts(f, root, &cur, 0) < 0;
    for (size_t i = 0; i < segs->n && !open && !blocked && cur.len; i++) {
        const char *seg = segs->segs[i];
        next.len = 0;
        if (!strcmp(seg, "**")) break;
        int wild = !strcmp(seg, "*") || !strcmp(seg, SEL_ITEMS);
        for (size_t k = 0; k < cur.len && !open && !blocked; k++) {
            json_t *s = cur.items[k].s;
            size_t file = cur.items[k].file;
            json_t *props = json_object_get(s, "properties");
            json_t *pats = json_object_get(s, "patternProperties");
            json_t *items = json_object_get(s, "items");
            json_t *addl = json_object_get(s, "additionalProperties");
            if (wild) {
                struct spos kid = {NULL, file};
                if (json_is_object(items) && !type_allows(s, "object")) kid.s = items;
                else if (json_is_object(addl) && !props && !pats && !type_allows(s, "array"))
                    kid.s = addl;
                else if (props || pats || items || addl) open = 1; /* members differ */
                if (kid.s && fmt_conjuncts(f, kid, &next, 0) < 0) open = 1;
                continue;
            }
            int digits = all_digits(seg);
            if (!type_allows(s, "object") && !(digits && type_allows(s, "array"))) {
                json_t *t = json_object_get(s, "type");
                b->seg = i;
                b->schema = s;
                b->was = json_is_string(t) ? json_string_value(t) : "not an object";
                blocked = 1;
                break;
            }
            int found = 0;
            struct spos kid = {json_object_get(props, seg), file};
            if (kid.s) {
                found = 1;
                if (fmt_conjuncts(f, kid, &next, 0) < 0) open = 1;
            }
            const char *pat;
            json_t *ps;
            if (json_is_object(pats)) json_object_foreach(pats, pat, ps)
                {
                    if (!pattern_matches(pat, seg)) continue;
                    found = 1;
                    struct spos pk = {ps, file};
                    if (fmt_conjuncts(f, pk, &next, 0) < 0) open = 1;
                }
            if (found) continue;
            if (digits && json_is_object(items)) {
                struct spos ik = {items, file};
                if (fmt_conjuncts(f, ik, &next, 0) < 0) open = 1;
            } else if (json_is_false(addl)) {
                b->seg = i;
                b->schema = s;
                b->was = NULL;
                blocked = 1;
            } else if (json_is_object(addl)) {
                struct spos ak = {addl, file};
                if (fmt_conjuncts(f, ak, &next, 0) < 0) open = 1;
            }
        }
        spos_vec t = cur;
        cur = next;
        next = t;
    }
    VEC_FREE(cur);
    VEC_FREE(next);
    return blocked;
}

/* One selector (at POINTER in the rule file), relative ones from each of BASES (absolute
 * selectors; NULL: relative ones are not checked). Appends the absolute selectors it
 * stands for to OUT (when not NULL). */
static void lint_selector(struct lint *l, json_t *sv, const char *pointer, char **bases,
                          size_t nbases, str_vec *out)
{
    const char *text = json_string_value(sv);
    if (!text || !*text) return;
    char *ours = sel_from_jsonpath(text);
    if (ours) { /* the loader reports it */
        free(ours);
        return;
    }
    int absolute = text[0] == '/';
    static char empty[] = "";
    static char *const root_only[] = {empty};
    if (absolute) {
        bases = (char **)root_only;
        nbases = 1;
    } else if (!bases) {
        return;
    }
    int reported = 0;
    for (size_t bi = 0; bi < nbases; bi++) {
        char *full = absolute ? xstrdup(text) : xasprintf("%s/%s", bases[bi], text);
        struct ptr segs;
        const char *why;
        if (ptr_parse(full, &segs, &why) < 0) {
            free(full);
            continue;
        }
        struct fmt_block b = {0, NULL, NULL};
        if (!reported && l->format && fmt_walk(l->format, &segs, &b)) {
            reported = 1;
            struct buf where = BUF_INIT, names = BUF_INIT, fix = BUF_INIT;
            for (size_t i = 0; i < b.seg; i++)
                ptr_append_segment(&where, segs.segs[i], strlen(segs.segs[i]));
            if (!where.len) buf_addc(&where, '/');
            const char *fmt_path = l->format->files.items[0].path;
            const char *bad = segs.segs[b.seg];
            if (b.was) {
                finding(l, pointer, DIAG_ERROR,
                        "select the value itself, or a member of an object the description "
                        "format defines (see schema/mcp-description.schema.json)",
                        "selector \"%s\" selects nothing in any description: %s is %s %s in "
                        "the description format, it has no member \"%s\"",
                        text, buf_str(&where), strchr("aeiou", b.was[0]) ? "an" : "a", b.was, bad);
            } else {
                VEC(const char *) known = VEC_INIT;
                const char *k;
                json_t *v;
                json_object_foreach(json_object_get(b.schema, "properties"), k, v)
                {
                    buf_addf(&names, "%s%s", names.len ? ", " : "", k);
                    VEC_PUSH(known, k);
                }
                json_object_foreach(json_object_get(b.schema, "patternProperties"), k, v)
                    buf_addf(&names, "%smembers matching %s", names.len ? ", " : "", k);
                VEC_PUSH(known, NULL);
                const char *near = NULL;
                size_t best = 3;
                for (size_t i = 0; known.items[i]; i++) {
                    size_t d = util_edit_distance(bad, known.items[i]);
                    if (d < best) {
                        best = d;
                        near = known.items[i];
                    }
                }
                if (near) { /* the selector as written, with the segment corrected */
                    struct ptr mine;
                    char *own = absolute ? xstrdup(text) : xasprintf("/%s", text);
                    if (ptr_parse(own, &mine, &why) == 0) {
                        size_t off = segs.n - mine.n; /* segments of the base */
                        if (b.seg >= off) {
                            for (size_t i = 0; i < mine.n; i++) {
                                if (i || absolute) buf_addc(&fix, '/');
                                buf_adds(&fix, i == b.seg - off ? near : mine.segs[i]);
                            }
                        }
                        ptr_release(&mine);
                    }
                    free(own);
                }
                char *hint = fix.len
                    ? xasprintf("write %s", buf_str(&fix))
                    : xasprintf("select a member the description format defines (%s)", fmt_path);
                finding(l, pointer, DIAG_ERROR, hint,
                        "selector \"%s\" selects nothing in any description: the description "
                        "format allows no member \"%s\" in %s (it allows %s)%s%s%s",
                        text, bad, buf_str(&where), names.len ? buf_str(&names) : "none",
                        near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
                free(hint);
                VEC_FREE(known);
            }
            buf_release(&where);
            buf_release(&names);
            buf_release(&fix);
        }
        ptr_release(&segs);
        if (out && out->len < 16) VEC_PUSH(*out, full);
        else free(full);
        if (absolute) break;
    }
}

/* The selectors of a `select` (one string or a list) at POINTER. */
static void lint_select(struct lint *l, json_t *sel, const char *pointer, char **bases,
                        size_t nbases, str_vec *out)
{
    if (!json_is_array(sel)) {
        lint_selector(l, sel, pointer, bases, nbases, out);
        return;
    }
    for (size_t i = 0; i < json_array_size(sel); i++) {
        char *p = xasprintf("%s/%zu", pointer, i);
        lint_selector(l, json_array_get(sel, i), p, bases, nbases, out);
        free(p);
    }
}

static void free_bases(char **b, size_t n)
{
    for (size_t i = 0; i < n; i++) free(b[i]);
    free(b);
}

/* The selectors inside predicate P (at POINTER), judged at the nodes BASES select. */
static void lint_pred_sels(struct lint *l, json_t *p, const char *pointer, char **bases,
                           size_t nbases)
{
    if (!json_is_object(p) || json_object_size(p) != 1) return;
    void *it = json_object_iter(p);
    const char *name = json_object_iter_key(it);
    json_t *arg = json_object_iter_value(it);
    char *ap = xasprintf("%s/%s", pointer, name);
    if (!strcmp(name, "all") || !strcmp(name, "any")) {
        for (size_t i = 0; json_is_array(arg) && i < json_array_size(arg); i++) {
            char *kp = xasprintf("%s/%zu", ap, i);
            lint_pred_sels(l, json_array_get(arg, i), kp, bases, nbases);
            free(kp);
        }
    } else if (!strcmp(name, "not")) {
        lint_pred_sels(l, arg, ap, bases, nbases);
    } else if (!strcmp(name, "every") || !strcmp(name, "some")) {
        str_vec kids = VEC_INIT;
        char *sp = xasprintf("%s/select", ap), *rp = xasprintf("%s/require", ap);
        lint_select(l, json_object_get(arg, "select"), sp, bases, nbases, &kids);
        lint_pred_sels(l, json_object_get(arg, "require"), rp, kids.items, kids.len);
        free_bases(kids.items, kids.len);
        free(sp);
        free(rp);
    } else if (!strcmp(name, "unique") || !strcmp(name, "among")) {
        char *sp = xasprintf("%s/select", ap); /* relative ones start elsewhere (up, depth) */
        lint_select(l, json_object_get(arg, "select"), sp, NULL, 0, NULL);
        free(sp);
    }
    free(ap);
}

/* The selectors of clause C (at POINTER), whose node is each of BASES. */
static void lint_clause_sels(struct lint *l, json_t *c, const char *pointer, char **bases,
                             size_t nbases)
{
    if (!json_is_object(c)) return;
    str_vec own = VEC_INIT;
    json_t *sel = json_object_get(c, "select");
    char **here = bases;
    size_t nhere = nbases;
    if (sel) {
        char *sp = xasprintf("%s/select", pointer);
        lint_select(l, sel, sp, bases, nbases, &own);
        free(sp);
        here = own.items;
        nhere = own.len;
    }
    static const char *const preds[] = {"when", "require"};
    for (size_t k = 0; k < 2; k++) {
        char *pp = xasprintf("%s/%s", pointer, preds[k]);
        lint_pred_sels(l, json_object_get(c, preds[k]), pp, here, nhere);
        free(pp);
    }
    static const char *const lists[] = {"all", "first"};
    for (size_t k = 0; k < 2; k++) {
        json_t *kids = json_object_get(c, lists[k]);
        for (size_t i = 0; json_is_array(kids) && i < json_array_size(kids); i++) {
            char *kp = xasprintf("%s/%s/%zu", pointer, lists[k], i);
            lint_clause_sels(l, json_array_get(kids, i), kp, here, nhere);
            free(kp);
        }
    }
    free_bases(own.items, own.len);
}

/* ---- citations (based-on) ----------------------------------------------------------- */

/* A GitHub file link: https://github.com/OWNER/REPO/(blob|tree|raw|blame)/REF/PATH or
 * https://raw.githubusercontent.com/OWNER/REPO/REF/PATH. Spans point into the url. */
struct gh_link {
    const char *owner, *repo, *ref;
    size_t owner_n, repo_n, ref_n;
};

static int github_file_link(const char *url, struct gh_link *g)
{
    static const char web[] = "https://github.com/", raw[] = "https://raw.githubusercontent.com/";
    const char *p;
    int is_raw = 0;
    if (!strncmp(url, web, sizeof web - 1)) {
        p = url + sizeof web - 1;
    } else if (!strncmp(url, raw, sizeof raw - 1)) {
        p = url + sizeof raw - 1;
        is_raw = 1;
    } else {
        return 0;
    }
    memset(g, 0, sizeof *g);
    g->owner = p;
    g->owner_n = strcspn(p, "/?#");
    p += g->owner_n;
    if (!g->owner_n || *p != '/') return 0;
    g->repo = ++p;
    g->repo_n = strcspn(p, "/?#");
    p += g->repo_n;
    if (!g->repo_n) return 0;
    if (!is_raw) {
        if (*p != '/') return 0; /* the repository's home page */
        size_t k = strcspn(++p, "/?#");
        static const char *const views[] = {"blob", "tree", "raw", "blame"};
        int file_view = 0;
        for (size_t i = 0; i < sizeof views / sizeof *views; i++)
            if (k == strlen(views[i]) && !strncmp(p, views[i], k)) file_view = 1;
        if (!file_view) return 0; /* pull requests, issues, commits: not a file */
        p += k;
    }
    g->ref = *p == '/' ? p + 1 : p;
    g->ref_n = *p == '/' ? strcspn(p + 1, "/?#") : 0;
    return 1;
}

static int is_commit_id(const char *s, size_t n)
{
    if (n != 40) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
              (s[i] >= 'A' && s[i] <= 'F')))
            return 0;
    return 1;
}

/* A GitHub line anchor: L12, L12-L34, with optional columns (L12C3-L14C5). Returns 1 when
 * FRAG (after '#') is one, well formed, first line first; 0 when it is malformed; -1
 * when it is no line anchor at all (a heading's anchor). */
static int line_anchor_ok(const char *frag)
{
    if (frag[0] != 'L' || frag[1] < '0' || frag[1] > '9') return -1;
    unsigned long lines[2] = {0, 0};
    const char *p = frag;
    for (int k = 0; k < 2; k++) {
        if (*p != 'L' || p[1] < '0' || p[1] > '9') return 0;
        char *end;
        lines[k] = strtoul(p + 1, &end, 10);
        p = end;
        if (*p == 'C') {
            if (p[1] < '0' || p[1] > '9') return 0;
            strtoul(p + 1, &end, 10);
            p = end;
        }
        if (k == 0 && *p != '-') {
            lines[1] = lines[0];
            break;
        }
        if (k == 0) p++;
    }
    return !*p && lines[0] >= 1 && lines[1] >= lines[0];
}

/* RFC 3986: an absolute URI starts with a scheme, ALPHA *( ALPHA / DIGIT / + / - / . ) ":". */
static int is_absolute_url(const char *u)
{
    if (!((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z'))) return 0;
    const char *p = u + 1;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '-' || *p == '.')
        p++;
    return *p == ':' && p[1];
}

/* Remember a based-on entry: NO_URL, or a GitHub link to REPO whose REF is a commit (or not). */
static void cite_push(struct lint *l, int no_url, const char *pointer, const char *repo,
                      size_t repo_n, const char *ref, size_t ref_n)
{
    struct cite c = {xstrdup(doc_name(l->d)), {0, 0}, NULL, NULL, NULL};
    doc_pointer_pos(l->d, pointer, &c.pos, NULL);
    if (repo) {
        c.repo = xstrndup(repo, repo_n);
        for (char *q = c.repo; *q; q++)
            if (*q >= 'A' && *q <= 'Z') *q = (char)(*q - 'A' + 'a');
    }
    if (ref && is_commit_id(ref, ref_n)) {
        c.commit = xstrndup(ref, ref_n);
        for (char *q = c.commit; *q; q++)
            if (*q >= 'A' && *q <= 'F') *q = (char)(*q - 'A' + 'a');
    } else if (ref) {
        c.ref = xstrndup(ref, ref_n);
    }
    if (no_url) VEC_PUSH(l->no_url, c);
    else VEC_PUSH(l->pinned, c);
}

/* A url under a schema-map prefix names a file of this project: it must exist. */
static void lint_project_link(struct lint *l, const char *url, const char *up)
{
    const char *prefix;
    json_t *dirv;
    json_object_foreach(l->schema_map, prefix, dirv)
    {
        size_t n = strlen(prefix);
        if (!json_is_string(dirv) || !n || strncmp(url, prefix, n)) continue;
        const char *rest = url + n;
        size_t rest_n = strcspn(rest, "?#");
        const char *dir = json_string_value(dirv);
        char *path =
            xasprintf("%s/%s%s%.*s", l->dir, dir,
                      *dir && dir[strlen(dir) - 1] != '/' && rest_n && *rest != '/' ? "/" : "",
                      (int)rest_n, rest);
        char *mapped = xasprintf("%s/%s", l->dir, dir);
        struct stat st;
        int have_dir = stat(mapped, &st) == 0 && S_ISDIR(st.st_mode);
        free(mapped);
        /* without the directory (a copy of the rule files alone) the loader says so once */
        if (have_dir && access(path, R_OK) != 0) {
            char *hint = xasprintf(
                "correct the path (the manifest's schema-map reads %s as %s, relative to the "
                "rule set), or add the file",
                prefix, dir);
            finding(l, up, DIAG_ERROR, hint,
                    "url %s names %s in this project, which does not exist", url, path);
            free(hint);
        }
        free(path);
        return;
    }
}

/* The first schema-map prefix (for hints), or NULL. */
static const char *first_project_prefix(const struct lint *l)
{
    const char *prefix;
    json_t *dirv;
    json_object_foreach(l->schema_map, prefix, dirv) return prefix;
    return NULL;
}

static void lint_based_on(struct lint *l, json_t *rule, const char *ptr)
{
    json_t *bo = json_object_get(rule, "based-on");
    for (size_t i = 0; json_is_array(bo) && i < json_array_size(bo); i++) {
        json_t *e = json_array_get(bo, i);
        if (!json_is_object(e)) continue; /* the loader reports it */
        char *ep = xasprintf("%s/based-on/%zu", ptr, i);
        json_t *text = json_object_get(e, "text"), *url = json_object_get(e, "url");
        if (!text || (json_is_string(text) && !*json_string_value(text)))
            finding(
                l, ep, DIAG_ERROR,
                "add text: what the source says and where, e.g. MCP 2025-11-25 specification, "
                "Server "
                "Features, Tools, Tool Names (\"Tool names SHOULD be between 1 and 128 "
                "characters\")",
                "this source has %s \"text\": its link alone does not say what the rule rests on",
                text ? "an empty" : "no");
        if (!url || (json_is_string(url) && !*json_string_value(url))) {
            cite_push(l, 1, ep, NULL, 0, NULL, 0);
        } else if (json_is_string(url)) {
            const char *u = json_string_value(url);
            char *up = xasprintf("%s/url", ep);
            struct gh_link g;
            const char *frag = strchr(u, '#');
            l->urls++;
            if (!is_absolute_url(u)) {
                const char *pfx = first_project_prefix(l);
                char *hint = pfx
                    ? xasprintf("cite a file of this project by its URL under the manifest's "
                                "schema-map (%s...), any other source by its https:// address",
                                pfx)
                    : xstrdup("write the source's full https:// address");
                finding(l, up, DIAG_ERROR, hint,
                        "url \"%s\" is not an absolute URL: the rule pages cannot link it", u);
                free(hint);
            } else if (github_file_link(u, &g)) {
                /* judged once the set's commit for this repository is known */
                cite_push(l, 0, up, g.owner, (size_t)(g.repo + g.repo_n - g.owner), g.ref, g.ref_n);
                if (frag && line_anchor_ok(frag + 1) == 0)
                    finding(l, up, DIAG_ERROR,
                            "write #L<first> or #L<first>-L<last>: the lines that hold the cited "
                            "text at the "
                            "pinned commit",
                            "url has a malformed line anchor \"%s\" (GitHub marks lines #L12 or "
                            "#L12-L34, first "
                            "line first)",
                            frag);
            } else if (l->schema_map) {
                lint_project_link(l, u, up);
            }
            free(up);
        }
        free(ep);
    }
}

struct repo_commit {
    const char *repo, *commit; /* borrowed from the cites */
    size_t n, total;           /* links pinned to commit; links to repo */
};

/* After every file: the links to one GitHub repository share the commit most of them use;
 * a link without a commit, or with another one, is reported naming that commit; and once
 * the set links any source, an entry without a url is reported. */
static void lint_citations_finish(struct lint *l)
{
    /* the majority commit of each repository (ties: the one met first) */
    VEC(struct repo_commit) maj = VEC_INIT;
    for (size_t i = 0; i < l->pinned.len; i++) {
        const struct cite *c = &l->pinned.items[i];
        size_t k = 0;
        while (k < maj.len && strcmp(maj.items[k].repo, c->repo)) k++;
        if (k == maj.len) {
            VEC_RESERVE(maj, 1);
            maj.items[maj.len].repo = c->repo;
            maj.items[maj.len].commit = NULL;
            maj.items[maj.len].n = 0;
            maj.items[maj.len].total = 0;
            maj.len++;
        }
        maj.items[k].total++;
        if (!c->commit) continue;
        size_t same = 0;
        for (size_t j = 0; j < l->pinned.len; j++)
            same += l->pinned.items[j].commit && !strcmp(l->pinned.items[j].repo, c->repo) &&
                !strcmp(l->pinned.items[j].commit, c->commit);
        if (same > maj.items[k].n) {
            maj.items[k].n = same;
            maj.items[k].commit = c->commit;
        }
    }
    for (size_t i = 0; i < l->pinned.len; i++) {
        const struct cite *c = &l->pinned.items[i];
        size_t k = 0;
        while (strcmp(maj.items[k].repo, c->repo)) k++;
        const char *mc = maj.items[k].commit;
        char *msg = NULL, *hint = NULL;
        if (!c->commit) {
            msg = *c->ref
                ? xasprintf(
                      "this link to %s is not pinned to a commit: \"%s\" is a branch, a tag or an "
                      "abbreviated commit, and what it shows changes as the repository moves",
                      c->repo, c->ref)
                : xasprintf("this link to %s names no commit", c->repo);
            hint = mc
                ? xasprintf("write %s (the commit of the set's other links to %s) in place of "
                            "\"%s\", and "
                            "check that the cited lines say the same at that commit",
                            mc, c->repo, c->ref)
                : xasprintf(
                      "write the 40-hex commit you read (git rev-parse HEAD) in place of \"%s\"",
                      c->ref);
        } else if (strcmp(c->commit, mc)) {
            msg = xasprintf(
                "this link is pinned to commit %s, but %zu of the set's %zu links to %s are "
                "pinned to %s",
                c->commit, maj.items[k].n, maj.items[k].total, c->repo, mc);
            hint = xasprintf(
                "re-pin it to %s (one snapshot for the whole set) and check that the cited lines "
                "say the same at that commit",
                mc);
        }
        if (msg) {
            struct diag *dg =
                diag_add(l->out, DIAG_ERROR, NULL, c->file, c->pos.line, c->pos.col, msg);
            dg->hint = hint;
            free(msg);
        }
    }
    if (l->urls) {
        /* the commit of the most-linked repository, for the hint */
        size_t best = 0;
        for (size_t k = 1; k < maj.len; k++)
            if (maj.items[k].total > maj.items[best].total) best = k;
        const char *pfx = first_project_prefix(l);
        for (size_t i = 0; i < l->no_url.len; i++) {
            const struct cite *c = &l->no_url.items[i];
            char *msg = xasprintf(
                "this source has no \"url\", while %zu other source%s of the set link%s theirs",
                l->urls, l->urls == 1 ? "" : "s", l->urls == 1 ? "s" : "");
            struct buf h = BUF_INIT;
            buf_adds(&h, "add url: a link to the source,");
            if (maj.len && maj.items[best].commit)
                buf_addf(
                    &h,
                    " pinned like the set's other links (https://github.com/%s/blob/%s/PATH#Lx-Ly)",
                    maj.items[best].repo, maj.items[best].commit);
            if (pfx) buf_addf(&h, "; a file of this project by its URL under %s", pfx);
            struct diag *dg =
                diag_add(l->out, DIAG_ERROR, NULL, c->file, c->pos.line, c->pos.col, msg);
            dg->hint = buf_detach(&h);
            free(msg);
        }
    }
    VEC_FREE(maj);
}

static void cites_free(struct lint *l)
{
    for (size_t i = 0; i < l->pinned.len; i++) {
        free(l->pinned.items[i].file);
        free(l->pinned.items[i].repo);
        free(l->pinned.items[i].commit);
        free(l->pinned.items[i].ref);
    }
    for (size_t i = 0; i < l->no_url.len; i++) free(l->no_url.items[i].file);
    VEC_FREE(l->pinned);
    VEC_FREE(l->no_url);
}

static void lint_file(struct lint *l)
{
    json_t *rules = json_object_get(doc_root(l->d), "rules");
    for (size_t i = 0; json_is_array(rules) && i < json_array_size(rules); i++) {
        json_t *r = json_array_get(rules, i);
        if (!json_is_object(r)) continue;
        char *ptr = xasprintf("/rules/%zu", i);
        l->rule_id = json_string_value(json_object_get(r, "id"));
        if (l->rule_id) lint_duplicate(l, ptr);
        ver_mask applies;
        json_t *check = json_object_get(r, "check");
        if (check && spec_mask(&l->vl, json_object_get(r, "applies"), &applies) == 0) {
            char *cp = xasprintf("%s/check", ptr);
            l->judged = 0;
            lint_clause(l, check, cp, applies, "the rule's applies");
            if (l->judged && (applies & ~l->judged)) {
                char *ap = xasprintf("%s/applies", ptr);
                char *unj = versions_text(&l->vl, applies & ~l->judged);
                struct buf spec = BUF_INIT;
                ver_spec_format(&spec, &l->vl, applies & l->judged);
                char *hint =
                    xasprintf("write applies: %s, or add a check for %s", buf_str(&spec), unj);
                finding(l, ap, DIAG_WARNING, hint,
                        "the rule applies to %s, but none of its checks judges %s: its page would "
                        "claim it applies there",
                        unj, ver_count(applies & ~l->judged) > 1 ? "them" : "it");
                free(hint);
                buf_release(&spec);
                free(unj);
                free(ap);
            }
            free(cp);
        }
        if (check) {
            char *cp = xasprintf("%s/check", ptr);
            static char empty[] = "";
            static char *const root[] = {empty};
            lint_clause_sels(l, check, cp, (char **)root, 1);
            free(cp);
        }
        lint_level(l, r, ptr);
        lint_examples(l, r, ptr);
        json_t *ex = json_object_get(r, "examples");
        if (l->rule_id && check && has_fix(check) && !has_fix_example(ex)) {
            char *ip = xasprintf("%s/id", ptr);
            finding(l, ip, DIAG_ERROR,
                    "add an example {expect: fix, fixture: fixes/NAME.before.json, after: "
                    "fixes/NAME.after.json, pointer: P} (rules-yaml/README.md, Fixes)",
                    "rule %s declares a fix without a fix example: rules test cannot check it",
                    l->rule_id);
            free(ip);
        }
        if (l->rule_id && (!ex || (json_is_array(ex) && !json_array_size(ex)))) {
            char *ip = xasprintf("%s/id", ptr);
            finding(l, ip, DIAG_WARNING,
                    "add examples: with a valid and an invalid fixture from conformance/ (see "
                    "rules-yaml/README.md, Adding a rule)",
                    "rule %s has no examples: rules test cannot check it", l->rule_id);
            free(ip);
        }
        if (l->rule_id && json_is_array(ex) && json_array_size(ex) && !has_failing_example(ex)) {
            char *ip = xasprintf("%s/id", ptr);
            finding(l, ip, DIAG_WARNING,
                    "add an example where the rule reports: {expect: invalid (or warning, info "
                    "as its level reports), fixture: expected-invalid/NAME.json, pointer: P} "
                    "(rules-yaml/README.md, Testing)",
                    "rule %s has only valid examples: they pass whatever the rule checks, so "
                    "rules test cannot tell that it finds anything",
                    l->rule_id);
            free(ip);
        }
        lint_based_on(l, r, ptr);
        free(ptr);
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A *.yaml or *.yml file beside the manifest that its `files:` does not list is never
 * loaded: its rules would silently not exist. Reported at the `files:` key. */
static void lint_unlisted(struct lint *l, json_t *files)
{
    if (!json_is_array(files)) return; /* the loader reports it */
    DIR *dh = opendir(l->dir);
    if (!dh) return;
    str_vec names = VEC_INIT;
    for (struct dirent *e; (e = readdir(dh));) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        if (n[0] == '.' || !strcmp(n, "manifest.yaml")) continue;
        if (!(len > 5 && !strcmp(n + len - 5, ".yaml")) &&
            !(len > 4 && !strcmp(n + len - 4, ".yml")))
            continue;
        int listed = 0;
        for (size_t i = 0; i < json_array_size(files) && !listed; i++) {
            const char *f = json_string_value(json_array_get(files, i));
            listed = f && !strcmp(f, n);
        }
        char *path = xasprintf("%s/%s", l->dir, n);
        struct stat st;
        if (!listed && stat(path, &st) == 0 && S_ISREG(st.st_mode)) VEC_PUSH(names, xstrdup(n));
        free(path);
    }
    closedir(dh);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, name_cmp); /* not NULL */
    struct doc_pos key = {0, 0}, value = {0, 0};
    doc_pointer_pos(l->d, "/files", &value, &key);
    for (size_t i = 0; i < names.len; i++) {
        char *hint = xasprintf("list it under files: (in the order the rules should run), or move "
                               "it out of %s",
                               l->dir);
        char *msg = xasprintf("rule file %s is not listed in the manifest's files: it is never "
                              "loaded, and none of its rules runs",
                              names.items[i]);
        struct diag *dg =
            diag_add(l->out, DIAG_ERROR, NULL, doc_name(l->d), key.line, key.col, msg);
        dg->hint = hint;
        free(msg);
        free(names.items[i]);
    }
    VEC_FREE(names);
}

/* Check D against the JSON Schema at SCHEMA_PATH (the rule-file or manifest schema in
 * the schema/ directory beside the rule set); each failure is a warning where it is.
 * Skipped silently when the schema file is absent (an installed rule set without it). */
static void lint_against_schema(struct lint *l, schema_ctx *ctx, const char *schema_path)
{
    if (access(schema_path, R_OK) != 0) return;
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *sc = schema_compile_file(ctx, schema_path, SCHEMA_DRAFT2020_12, &errs);
    if (sc) schema_validate(sc, doc_root(l->d), &errs);
    for (size_t i = 0; i < errs.len; i++) {
        const struct schema_error *e = &errs.items[i];
        char *hint =
            xasprintf("see %s (%s)", schema_path, e->keyword_location ? e->keyword_location : "");
        finding(l, sc ? e->instance_location : "", DIAG_WARNING, hint,
                "does not match the rule-file schema: %s", e->message);
        free(hint);
    }
    schema_free(sc);
    schema_errors_release(&errs);
}

int lint_rule_dir(const char *dir, const char *fixtures, struct diag_list *out)
{
    return lint_rule_dir_with(dir, fixtures, NULL, out);
}

int lint_rule_dir_with(const char *dir, const char *fixtures, const struct rule_load_opts *opts,
                       struct diag_list *out)
{
    struct rule_set *program = NULL;
    int rc = lint_rule_dir_read(dir, fixtures, opts, out, &program);
    rule_set_free(program);
    return rc;
}

/* The manifest's versions as lint reads them: as written (each once), else, for a set
 * that extends another and loaded whole, its base's. */
static void lint_versions(struct lint *l, json_t *manifest, const struct rule_set *good)
{
    json_t *vers = json_object_get(manifest, "versions");
    for (size_t i = 0; json_is_array(vers) && i < json_array_size(vers) && l->vl.n < VER_MAX; i++) {
        const char *s = json_string_value(json_array_get(vers, i));
        if (s && ver_index(&l->vl, s) < 0) l->vl.names[l->vl.n++] = xstrdup(s);
    }
    for (size_t i = 0; !vers && good && i < rule_set_versions(good)->n; i++) /* the base's */
        l->vl.names[l->vl.n++] = xstrdup(rule_set_versions(good)->names[i]);
}

/* Lint's own checks over the documents the partial program RS kept (the manifest's and
 * each rule file's). What needs a usable set (the JSON Schemas of the format, the
 * manifest's fixtures directory, resolving fixtures' $componentRefs) comes from RS only
 * when it loaded without error: otherwise the loader's errors already say more. */
static void lint_program(const struct rule_set *rs, const char *dir, const char *fixtures,
                         struct diag_list *out)
{
    const doc *m = rule_set_manifest_doc(rs);
    const struct rule_set *good = rule_set_ok(rs) ? rs : NULL;
    struct lint l;
    memset(&l, 0, sizeof l);
    l.out = out;
    l.dir = dir;
    l.schema_map = json_object_get(doc_root(m), "schema-map");
    if (!json_is_object(l.schema_map)) l.schema_map = NULL;
    lint_versions(&l, doc_root(m), good);
    schema_ctx *sctx = good ? schema_ctx_new(NULL) : NULL;
    char *rule_schema = xasprintf("%s/../schema/rule-file.schema.json", dir);
    char *manifest_schema = xasprintf("%s/../schema/manifest.schema.json", dir);
    if (sctx) {
        l.d = m;
        lint_against_schema(&l, sctx, manifest_schema);
    }
    char *fxdir = fixtures ? xstrdup(fixtures)
        : good             ? rule_set_fixtures_path(good) /* the manifest's `fixtures` */
                           : lint_default_fixtures(dir);
    struct stat fst;
    if (stat(fxdir, &fst) == 0 && S_ISDIR(fst.st_mode)) l.fx = fixtures_new(fxdir, good);
    else l.fx_missing = xstrdup(fxdir); /* said once, where an example names a fixture */
    free(fxdir);
    l.d = m;
    lint_unlisted(&l, json_object_get(doc_root(m), "files"));
    l.format = fmt_new(&l);
    for (size_t i = 0; i < rule_set_file_count(rs); i++) {
        if (!(l.d = rule_set_file_doc(rs, i))) continue; /* the loader reported it */
        lint_file(&l);
        if (sctx) lint_against_schema(&l, sctx, rule_schema);
    }
    lint_citations_finish(&l);
    cites_free(&l);
    fmt_free(l.format);
    fixtures_free(l.fx);
    free(l.fx_missing);
    schema_ctx_free(sctx);
    free(rule_schema);
    free(manifest_schema);
    ver_list_release(&l.vl);
    for (size_t i = 0; i < l.ids.len; i++) {
        free(l.ids.items[i].id);
        free(l.ids.items[i].file);
    }
    VEC_FREE(l.ids);
}

int lint_rule_dir_read(const char *dir, const char *fixtures, const struct rule_load_opts *opts,
                       struct diag_list *out, struct rule_set **program)
{
    *program = NULL;
    char *mpath = xasprintf("%s/manifest.yaml", dir);
    int readable = rule_overlay_is(opts ? opts->overlay : NULL, mpath) || access(mpath, R_OK) == 0;
    free(mpath);
    if (!readable) {
        diag_errorf(out, dir, 0, 0,
                    "no readable manifest.yaml in this directory (is it a rule set?)");
        return -1;
    }
    size_t before = out->len;
    /* the one reader of the manifest and the rule files; its errors carry their hints */
    *program = rule_set_load_partial(dir, opts, out);
    if (*program) lint_program(*program, dir, fixtures, out);
    if (out->len > before) { /* sort only what this call added (items is NULL when none) */
        struct diag_list mine = {out->items + before, out->len - before, out->len - before};
        diag_sort_merge(&mine);
        out->len = before + mine.len;
    }
    return 0;
}
