/* lint.c - `rules lint`: the loader's positioned errors, then what the loader cannot
 * see because it judges one member at a time: version branches outside `applies`,
 * examples whose fixture or pointer does not exist (or whose expectation the rule's level
 * can never produce), and a level that contradicts the requirement's RFC 2119 keyword.
 * Lint reads the rule files itself, so it runs even when the loader refuses the set. */
#include "lint.h"

#include "schema.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "docs.h"
#include "eval.h"
#include "ptr.h"
#include "res.h"
#include "util.h"
#include "ver.h"

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

/* ---- fixtures ---------------------------------------------------------------------- */

struct fx_entry {
    char *name;
    doc *raw;        /* as written */
    doc *resolved;   /* after $componentRef resolution (on demand) */
    char *problem;   /* why it cannot be loaded */
};

struct lint_fixtures {
    char *dir;
    const struct rule_set *rs;
    VEC(struct fx_entry) e;
};

struct lint_fixtures *lint_fixtures_new(const char *dir, const struct rule_set *rs)
{
    struct lint_fixtures *fx = xcalloc(1, sizeof *fx);
    fx->dir = xstrdup(dir);
    fx->rs = rs;
    return fx;
}

void lint_fixtures_free(struct lint_fixtures *fx)
{
    if (!fx) return;
    for (size_t i = 0; i < fx->e.len; i++) {
        free(fx->e.items[i].name);
        doc_free(fx->e.items[i].raw);
        doc_free(fx->e.items[i].resolved);
        free(fx->e.items[i].problem);
    }
    VEC_FREE(fx->e);
    free(fx->dir);
    free(fx);
}

const char *lint_fixtures_dir(const struct lint_fixtures *fx) { return fx->dir; }

/* A fixture name is a relative path that stays inside the fixtures directory. */
static int fixture_name_ok(const char *name)
{
    if (!*name || name[0] == '/') return 0;
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 2 && !strncmp(p, "..", 2)) || (n == 1 && *p == '.')) return 0;
        p += n;
        if (*p) p++;
    }
    return 1;
}

static struct fx_entry *fixture_entry(struct lint_fixtures *fx, const char *name)
{
    for (size_t i = 0; i < fx->e.len; i++)
        if (!strcmp(fx->e.items[i].name, name)) return &fx->e.items[i];
    struct fx_entry e = {xstrdup(name), NULL, NULL, NULL};
    if (!fixture_name_ok(name)) {
        e.problem = xasprintf("fixture \"%s\" is not a relative path inside %s", name, fx->dir);
    } else {
        char *path = xasprintf("%s/%s", fx->dir, name);
        struct doc_error err;
        if (access(path, F_OK) != 0) {
            e.problem = xasprintf("no fixture \"%s\" in %s", name, fx->dir);
        } else if (!(e.raw = doc_load_file(path, NULL, &err))) {
            e.problem = err.line ? xasprintf("fixture %s does not parse: %u:%u: %s", path, err.line,
                                             err.col, err.message)
                                 : xasprintf("fixture %s cannot be read: %s", path, err.message);
            doc_error_release(&err);
        }
        free(path);
    }
    VEC_PUSH(fx->e, e);
    return &fx->e.items[fx->e.len - 1];
}

/* The deepest prefix of P that exists in ROOT, as a pointer string (new). */
static char *deepest_prefix(json_t *root, const struct ptr *p)
{
    struct buf b = BUF_INIT;
    json_t *v = root;
    for (size_t i = 0; i < p->n; i++) {
        json_t *next = NULL;
        size_t idx;
        if (json_is_object(v)) next = json_object_get(v, p->segs[i]);
        else if (json_is_array(v) && ptr_is_index(p->segs[i], &idx)) next = json_array_get(v, idx);
        if (!next) break;
        ptr_append_segment(&b, p->segs[i], strlen(p->segs[i]));
        v = next;
    }
    char *s = b.len ? buf_detach(&b) : xstrdup("\"\" (the root)");
    buf_release(&b);
    return s;
}

enum lookup { LOOKUP_OK, LOOKUP_NO_FIXTURE, LOOKUP_NO_POINTER, LOOKUP_BAD_POINTER };

static enum lookup fixture_lookup(struct lint_fixtures *fx, const char *fixture, const char *pointer,
                                  json_t **value, char **problem)
{
    *value = NULL;
    *problem = NULL;
    struct fx_entry *e = fixture_entry(fx, fixture);
    if (!e->raw) {
        *problem = xstrdup(e->problem);
        return LOOKUP_NO_FIXTURE;
    }
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) {
        *problem = xasprintf("bad JSON Pointer \"%s\": %s", pointer, why);
        return LOOKUP_BAD_POINTER;
    }
    *value = ptr_get(doc_root(e->raw), &p);
    if (!*value && fx->rs) {
        if (!e->resolved) {
            char *path = xasprintf("%s/%s", fx->dir, fixture);
            struct doc_error err;
            e->resolved = doc_load_file(path, NULL, &err);
            if (!e->resolved) doc_error_release(&err);
            free(path);
            if (e->resolved) {
                struct diag_list ignored = DIAG_LIST_INIT;
                res_free(res_resolve(e->resolved, rule_set_res_config(fx->rs), &ignored));
                diag_list_release(&ignored);
            }
        }
        if (e->resolved) *value = ptr_get(doc_root(e->resolved), &p);
    }
    if (!*value) {
        char *deepest = deepest_prefix(doc_root(e->raw), &p);
        *problem = xasprintf("nothing at %s in fixture %s (the deepest part that exists is %s)", pointer,
                             fixture, deepest);
        free(deepest);
    }
    ptr_release(&p);
    return *value ? LOOKUP_OK : LOOKUP_NO_POINTER;
}

json_t *lint_fixture_value(struct lint_fixtures *fx, const char *fixture, const char *pointer,
                           char **problem)
{
    json_t *v;
    fixture_lookup(fx, fixture, pointer, &v, problem);
    return v;
}

/* ---- lint -------------------------------------------------------------------------- */

struct seen_id {
    char *id, *file;
    struct doc_pos pos;
};

struct lint {
    VEC(struct seen_id) ids;     /* every rule id met so far, for duplicates */
    const doc *d;                /* the rule file being linted */
    struct ver_list vl;          /* the manifest's versions (as lint read them) */
    struct lint_fixtures *fx;
    struct diag_list *out;
    const char *rule_id;
    ver_mask judged;             /* versions some `require` of the current rule judges */
};

static void finding(struct lint *l, const char *pointer, enum diag_level level, const char *hint,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void finding(struct lint *l, const char *pointer, enum diag_level level, const char *hint,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    struct doc_pos pos = {0, 0};
    doc_pointer_pos(l->d, pointer, &pos, NULL);
    struct diag *dg = diag_add(l->out, level, NULL, doc_name(l->d), pos.line, pos.col, msg);
    if (hint) dg->hint = xstrdup(hint);
    free(msg);
}

/* A version spec as the loader reads it; -1 when malformed (the loader reports it). */
static int spec_mask(const struct ver_list *vl, json_t *spec, ver_mask *out)
{
    if (json_is_string(spec) && !strcmp(json_string_value(spec), "all")) {
        *out = ver_all(vl);
        return 0;
    }
    if (json_is_array(spec)) {
        ver_mask m = 0;
        for (size_t i = 0; i < json_array_size(spec); i++) {
            const char *s = json_string_value(json_array_get(spec, i));
            int k = s ? ver_index(vl, s) : -1;
            if (k < 0) return -1;
            m |= (ver_mask)1 << k;
        }
        *out = m;
        return m ? 0 : -1;
    }
    if (json_is_object(spec)) {
        json_t *f = json_object_get(spec, "from"), *b = json_object_get(spec, "before");
        if ((!f && !b) || json_object_size(spec) != (size_t)(!!f + !!b)) return -1;
        int fi = -1, bi = -1;
        if (f && (!json_is_string(f) || (fi = ver_index(vl, json_string_value(f))) < 0)) return -1;
        if (b && (!json_is_string(b) || (bi = ver_index(vl, json_string_value(b))) < 0)) return -1;
        *out = ver_range(vl, fi, bi);
        return *out ? 0 : -1;
    }
    return -1;
}

static char *versions_text(const struct ver_list *vl, ver_mask m)
{
    struct buf b = BUF_INIT;
    ver_format(&b, vl, m, ", ");
    return buf_detach(&b);
}

/* A clause's `versions` against the versions it can ever be asked about (OUTER). */
static void lint_clause(struct lint *l, json_t *c, const char *ptr, ver_mask outer, const char *outer_what)
{
    if (!json_is_object(c)) return;
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
            docs_versions_spec(&spec, &l->vl, inside);
            char *in = versions_text(&l->vl, inside);
            char *hint = xasprintf("write versions: %s (what it judges), or widen %s", buf_str(&spec),
                                   outer_what);
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
    {"MUST", "must"}, {"REQUIRED", "must"}, {"SHALL", "must"},
    {"SHOULD", "should"}, {"RECOMMENDED", "should"},
    {"MAY", "may"}, {"OPTIONAL", "may"},
};

static int is_upper_word_char(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }

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
    char *hint = xasprintf("write level: %s, or reword the requirement (MUST: error, SHOULD: warning, "
                           "MAY: info)", want);
    finding(l, lp, DIAG_ERROR, hint,
            "level \"%s\" does not match the requirement, which says %s (a %s rule)", level, first, want);
    free(hint);
    free(lp);
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
            const char *need = !strcmp(expect, "invalid") ? "must" : !strcmp(expect, "warning") ? "should"
                             : !strcmp(expect, "info") ? "may" : NULL;
            if (need && strcmp(need, level) != 0 &&
                (!strcmp(level, "must") || !strcmp(level, "should") || !strcmp(level, "may"))) {
                char *xp = xasprintf("%s/expect", ep);
                const char *reports = !strcmp(level, "must") ? "errors" : !strcmp(level, "should") ? "warnings" : "infos";
                char *hint = xasprintf("write expect: %s, or level: %s",
                                       !strcmp(level, "must") ? "invalid" : !strcmp(level, "should") ? "warning" : "info",
                                       need);
                finding(l, xp, DIAG_ERROR, hint,
                        "this example expects %s, but a %s rule reports %s, so `rules test` can never pass it",
                        !strcmp(expect, "invalid") ? "an error" : !strcmp(expect, "warning") ? "a warning" : "an info",
                        level, reports);
                free(hint);
                free(xp);
            }
        }
        if (fixture && pointer) {
            json_t *v;
            char *problem;
            enum lookup k = fixture_lookup(l->fx, fixture, pointer, &v, &problem);
            if (k == LOOKUP_NO_FIXTURE) {
                char *fp = xasprintf("%s/fixture", ep);
                char *hint = xasprintf("name a file under %s (e.g. expected-invalid/NAME.json), or add "
                                       "the fixture (see conformance/README.md)", lint_fixtures_dir(l->fx));
                finding(l, fp, DIAG_ERROR, hint, "%s", problem);
                free(hint);
                free(fp);
            } else if (k == LOOKUP_NO_POINTER) {
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

/* A rule id met before. The loader reports duplicates of rules it compiled; one whose
 * first occurrence it refused slips through, so lint reports it unless already reported. */
static void lint_duplicate(struct lint *l, const char *ptr)
{
    char *ip = xasprintf("%s/id", ptr);
    struct doc_pos pos = {0, 0};
    doc_pointer_pos(l->d, ip, &pos, NULL);
    const struct seen_id *first = NULL;
    for (size_t i = 0; i < l->ids.len && !first; i++)
        if (!strcmp(l->ids.items[i].id, l->rule_id)) first = &l->ids.items[i];
    if (first) {
        int reported = 0;
        for (size_t i = 0; i < l->out->len && !reported; i++) {
            const struct diag *d = &l->out->items[i];
            reported = d->file && !strcmp(d->file, doc_name(l->d)) && d->line == pos.line && d->col == pos.col;
        }
        if (!reported) {
            char *hint = xasprintf("rule ids are unique in the set: rename this rule or merge it with the "
                                   "one at %s:%u:%u", first->file, first->pos.line, first->pos.col);
            finding(l, ip, DIAG_ERROR, hint, "duplicate rule id \"%s\"", l->rule_id);
            free(hint);
        }
    } else {
        struct seen_id e = {xstrdup(l->rule_id), xstrdup(doc_name(l->d)), pos};
        VEC_PUSH(l->ids, e);
    }
    free(ip);
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
                docs_versions_spec(&spec, &l->vl, applies & l->judged);
                char *hint = xasprintf("write applies: %s, or add a check for %s", buf_str(&spec), unj);
                finding(l, ap, DIAG_WARNING, hint,
                        "the rule applies to %s, but none of its checks judges %s: its page would "
                        "claim it applies there", unj, ver_count(applies & ~l->judged) > 1 ? "them" : "it");
                free(hint);
                buf_release(&spec);
                free(unj);
                free(ap);
            }
            free(cp);
        }
        lint_level(l, r, ptr);
        lint_examples(l, r, ptr);
        free(ptr);
    }
}

/* Fix hints for the loader's messages (which say what is wrong, and often how). */
static const struct {
    const char *start, *hint;
} loader_hints[] = {
    {"unknown protocol version", "use a version the manifest lists, or add it to \"versions\" in manifest.yaml (oldest first)"},
    {"bad JSON Pointer", "an example's pointer is an RFC 6901 pointer from the fixture's root, e.g. /tools/0/inputSchema"},
    {"bad selector", "a selector is a JSON Pointer whose segment * means every member, e.g. /tools/*/inputSchema"},
    {"unknown predicate", "use one of the predicates listed in rules-yaml/README.md (Predicates)"},
    {"this version range is empty", "\"from\" must be older than \"before\" (versions in manifest order)"},
    {"versions must be listed oldest first", "reorder the manifest's versions, oldest first"},
    {"duplicate rule id", "rule ids are unique in the set: rename one of the rules"},
    {"unknown member", "remove the member or correct its spelling (the message lists the known ones)"},
    {"level must be", "write must, should or may in lower case"},
    {"a predicate is a mapping", "write the predicate as {NAME: ARGUMENT}, one member per mapping"},
};

static void add_loader_hints(struct diag_list *l, size_t from)
{
    for (size_t i = from; i < l->len; i++) {
        struct diag *d = &l->items[i];
        if (d->hint) continue;
        const char *hint = "see rules-yaml/README.md for the rule format";
        for (size_t k = 0; k < sizeof loader_hints / sizeof loader_hints[0]; k++)
            if (strstr(d->message, loader_hints[k].start)) {
                hint = loader_hints[k].hint;
                break;
            }
        d->hint = xstrdup(hint);
    }
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
        char *hint = xasprintf("see %s (%s)", schema_path, e->keyword_location ? e->keyword_location : "");
        finding(l, sc ? e->instance_location : "", DIAG_WARNING, hint, "does not match the rule-file schema: %s",
                e->message);
        free(hint);
    }
    schema_free(sc);
    schema_errors_release(&errs);
}

int lint_rule_dir(const char *dir, const char *fixtures, struct diag_list *out)
{
    char *mpath = xasprintf("%s/manifest.yaml", dir);
    if (access(mpath, R_OK) != 0) {
        diag_errorf(out, dir, 0, 0, "no readable manifest.yaml in this directory (is it a rule set?)");
        free(mpath);
        return -1;
    }
    size_t before = out->len;
    struct rule_set *rs = rule_set_load(dir, out);
    add_loader_hints(out, before);
    struct doc_error err;
    doc *m = doc_load_file(mpath, NULL, &err);
    if (!m) {
        doc_error_release(&err); /* the loader reported it */
    } else {
        struct lint l;
        memset(&l, 0, sizeof l);
        l.out = out;
        json_t *vers = json_object_get(doc_root(m), "versions");
        for (size_t i = 0; json_is_array(vers) && i < json_array_size(vers) && l.vl.n < VER_MAX; i++) {
            const char *s = json_string_value(json_array_get(vers, i));
            if (s && ver_index(&l.vl, s) < 0) l.vl.names[l.vl.n++] = xstrdup(s);
        }
        /* The JSON Schemas of the format, when the loader accepted the set (otherwise its
         * errors already say what the schema would, and more precisely). */
        schema_ctx *sctx = rs ? schema_ctx_new(NULL) : NULL;
        char *rule_schema = xasprintf("%s/../schema/rule-file.schema.json", dir);
        char *manifest_schema = xasprintf("%s/../schema/manifest.schema.json", dir);
        if (sctx) {
            l.d = m;
            lint_against_schema(&l, sctx, manifest_schema);
        }
        char *fxdir = fixtures ? xstrdup(fixtures) : lint_default_fixtures(dir);
        l.fx = lint_fixtures_new(fxdir, rs);
        free(fxdir);
        json_t *files = json_object_get(doc_root(m), "files");
        for (size_t i = 0; json_is_array(files) && i < json_array_size(files); i++) {
            const char *f = json_string_value(json_array_get(files, i));
            if (!f || strchr(f, '/')) continue;
            char *path = xasprintf("%s/%s", dir, f);
            doc *d = doc_load_file(path, NULL, &err);
            if (d) {
                l.d = d;
                lint_file(&l);
                if (sctx) lint_against_schema(&l, sctx, rule_schema);
                doc_free(d);
            } else {
                doc_error_release(&err);
            }
            free(path);
        }
        lint_fixtures_free(l.fx);
        schema_ctx_free(sctx);
        free(rule_schema);
        free(manifest_schema);
        ver_list_release(&l.vl);
        for (size_t i = 0; i < l.ids.len; i++) {
            free(l.ids.items[i].id);
            free(l.ids.items[i].file);
        }
        VEC_FREE(l.ids);
        doc_free(m);
    }
    rule_set_free(rs);
    free(mpath);
    /* sort only what this call added */
    struct diag_list mine = {out->items + before, out->len - before, out->len - before};
    diag_sort_merge(&mine);
    out->len = before + mine.len;
    return 0;
}

/* ---- rules test -------------------------------------------------------------------- */

struct only {
    const char *id;
};

static int only_rule(const char *id, void *arg)
{
    const struct only *o = arg;
    return id && !strcmp(id, o->id);
}

/* The fixture's x-args: only --protocol-version V is meaningful to a single rule. */
static ver_mask fixture_versions(const struct rule_set *rs, json_t *root)
{
    json_t *args = json_object_get(root, "x-args");
    ver_mask m = 0;
    for (size_t i = 0; json_is_array(args) && i + 1 < json_array_size(args); i++) {
        const char *a = json_string_value(json_array_get(args, i));
        const char *v = json_string_value(json_array_get(args, i + 1));
        if (!a || !v || strcmp(a, "--protocol-version")) continue;
        int k = ver_index(rule_set_versions(rs), v);
        if (k >= 0) m |= (ver_mask)1 << k;
        i++;
    }
    return m;
}

static char *run_one(const struct rule_set *rs, const char *fixtures, const char *id, const char *expect,
                     const char *fixture, const char *pointer)
{
    if (!fixture_name_ok(fixture)) return xasprintf("fixture \"%s\" is not a relative path", fixture);
    char *path = xasprintf("%s/%s", fixtures, fixture);
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    if (!d) {
        char *msg = err.line ? xasprintf("%s:%u:%u: %s", path, err.line, err.col, err.message)
                             : xasprintf("%s: %s", path, err.message);
        doc_error_release(&err);
        free(path);
        return msg;
    }
    free(path);
    if (!json_is_object(doc_root(d))) {
        doc_free(d);
        return xstrdup("the fixture is not a JSON object");
    }
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) {
        doc_free(d);
        return xasprintf("bad JSON Pointer \"%s\": %s", pointer, why);
    }
    int exists = ptr_get(doc_root(d), &p) != NULL;
    struct only o = {id};
    struct eval_options eo = {fixture_versions(rs, doc_root(d)), only_rule, &o, NULL};
    struct diag_list found = DIAG_LIST_INIT;
    eval_document(rs, d, &eo, &found);
    if (!exists) exists = ptr_get(doc_root(d), &p) != NULL; /* through $componentRef */
    ptr_release(&p);
    doc_free(d);
    if (!exists) {
        diag_list_release(&found);
        return xasprintf("nothing at %s in the fixture", pointer);
    }
    enum diag_level want = !strcmp(expect, "invalid") ? DIAG_ERROR : !strcmp(expect, "warning") ? DIAG_WARNING : DIAG_INFO;
    int valid = !strcmp(expect, "valid");
    int ok = valid;
    struct buf at = BUF_INIT, elsewhere = BUF_INIT;
    size_t others = 0;
    for (size_t i = 0; i < found.len; i++) {
        const struct diag *dg = &found.items[i];
        if (dg->pointer && !strcmp(dg->pointer, pointer)) {
            if (valid) ok = 0;
            else if (dg->level == want) ok = 1;
            buf_addf(&at, "%s%s \"%s\"", at.len ? "; " : "", diag_level_name(dg->level), dg->message);
        } else if (others++ < 3) {
            buf_addf(&elsewhere, "%s%s at %s", elsewhere.len ? ", " : "", diag_level_name(dg->level),
                     dg->pointer ? dg->pointer : "?");
        }
    }
    if (others > 3) buf_addf(&elsewhere, " and %zu more", others - 3);
    diag_list_release(&found);
    char *detail = NULL;
    if (!ok) {
        if (at.len)
            detail = xasprintf("expected %s at %s, the rule reports %s", valid ? "nothing" : diag_level_name(want),
                               pointer, buf_str(&at));
        else
            detail = xasprintf("expected %s at %s, the rule reports nothing there%s%s%s",
                               diag_level_name(want), pointer, elsewhere.len ? " (it reports " : "",
                               buf_str(&elsewhere), elsewhere.len ? ")" : "");
    }
    buf_release(&at);
    buf_release(&elsewhere);
    return detail;
}

size_t lint_run_examples(const struct rule_set *rs, const char *fixtures,
                         int (*enabled)(const char *id, void *arg), void *enabled_arg,
                         void (*each)(const struct lint_example_result *res, void *arg), void *each_arg)
{
    size_t failed = 0;
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (enabled && !enabled(rule_id(r), enabled_arg)) continue;
        json_t *ex = json_object_get(rule_meta(r), "examples");
        for (size_t k = 0; json_is_array(ex) && k < json_array_size(ex); k++) {
            json_t *e = json_array_get(ex, k);
            struct lint_example_result res = {rule_id(r), json_string_value(json_object_get(e, "expect")),
                                              json_string_value(json_object_get(e, "fixture")),
                                              json_string_value(json_object_get(e, "pointer")), 0, NULL};
            if (!res.expect || !res.fixture || !res.pointer) continue; /* the loader refuses these */
            res.detail = run_one(rs, fixtures, res.rule, res.expect, res.fixture, res.pointer);
            res.passed = res.detail == NULL;
            if (!res.passed) failed++;
            if (each) each(&res, each_arg);
            free(res.detail);
        }
    }
    return failed;
}
