/* lint.c - `rules lint`: the loader's positioned errors, then what the loader cannot
 * see because it judges one member at a time: version branches outside `applies`,
 * examples whose fixture or pointer does not exist (or whose expectation the rule's level
 * can never produce), a level that contradicts the requirement's RFC 2119 keyword, and
 * citations (`based-on`): every source has a text and, once the set links its sources, a
 * url; a GitHub file link is pinned to a commit, the same commit as the set's other links
 * to that repository; a link to a file of this project (under the manifest's schema-map)
 * names a file that exists; rule files beside the manifest that `files:` does not list;
 * selectors whose path the description format's JSON Schema forbids, or that misspell a
 * member of an MCP type (lint_selectors.c);
 * rules without examples.
 * Lint reads the partial program (rule_set_load_partial): the loader is the one reader of
 * the manifest and the rule files, and lint walks the documents it kept, with their
 * positions, so it runs even when the loader refuses some rules or the whole set.
 * `rules test` (running the examples) is rules_test.c. */
#include "author/lint.h"

#include <dirent.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "author/fixtures.h"
#include "author/lint_selectors.h"
#include "base/buf.h"
#include "base/loc.h"
#include "base/util.h"
#include "base/ver.h"
#include "judge/eval.h"
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

/* A based-on url found in the set, remembered until every file is read. */
struct cite {
    char *file;
    struct doc_pos pos;
    char *repo;   /* GitHub owner/name, lower case (NULL: an entry without url) */
    char *commit; /* 40 hex digits (NULL: not pinned, or no url) */
    char *ref;    /* the ref of a link not pinned to a commit (else NULL) */
};

typedef VEC(char *) str_vec;

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
    ver_mask judged;       /* versions some `require` of the current rule judges */
    struct sel_lint *sels; /* the selector checks (lint_selectors.h) */
    char *fx_missing;      /* the fixtures directory, when it is not there (fx is NULL) */
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

/* Where the J-th (from 0) occurrence of TOKEN lies in the source of the string at
 * POINTER: a placeholder holds no escapes, so it is written in the file as it reads. The
 * string's own position when it cannot be found (a scalar folded across the token). */
static struct doc_pos token_pos(const struct lint *l, const char *pointer, const char *token,
                                size_t j)
{
    struct doc_pos pos = {0, 0};
    doc_pointer_pos(l->d, pointer, &pos, NULL);
    doc_node n = doc_pointer_node(l->d, pointer);
    struct doc_span span;
    size_t len;
    const char *text = doc_text(l->d, &len);
    if (n == DOC_NONE || doc_node_span(l->d, n, &span, NULL) < 0 || span.end > len) return pos;
    char *src = xstrndup(text + span.start, span.end - span.start);
    const char *at = src;
    for (size_t k = 0; at && (at = strstr(at, token)) && k < j; k++) at++;
    if (at) {
        struct doc_pos p = doc_node_pos(l->d, n);
        for (const char *q = src; q < at; q++) {
            if (*q == '\n') p.line++, p.col = 1;
            else p.col += ((unsigned char)*q & 0xC0) != 0x80;
        }
        pos = p;
    }
    free(src);
    return pos;
}

/* A {...} in the template S (at POINTER, called WHAT) that is no placeholder but within
 * 2 edits of one (eval_placeholders): a typo the interpreter would keep as written, so
 * an error at the column of its "{". Braces far from every placeholder are text (JSON,
 * URI templates such as {id} or {name}) and pass. */
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
            char *token = xstrndup(p, (size_t)(close - p + 1));
            size_t j = 0; /* the same token earlier in the string */
            for (const char *q = t; (q = strstr(q, token)) && q < p; q++) j++;
            struct doc_pos pos = token_pos(l, pointer, token, j);
            struct buf known = BUF_INIT;
            for (const char *const *ph = eval_placeholders; *ph; ph++)
                buf_addf(&known, "%s{%s}", ph == eval_placeholders ? "" : ", ", *ph);
            char *msg = xasprintf("\"{%s}\" in %s is no placeholder and would be shown as "
                                  "written: did you mean \"{%s}\"?",
                                  name, what, near);
            struct diag *dg =
                diag_add(l->out, DIAG_ERROR, NULL, doc_name(l->d), pos.line, pos.col, msg);
            free(msg);
            dg->hint = xasprintf("write {%s}; the placeholders are %s (rules-yaml/README.md, "
                                 "Message placeholders)",
                                 near, buf_str(&known));
            buf_release(&known);
            free(token);
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

/* Example E's fixture MEMBER (at EP in the rule file), when it names one, must be there. */
static void lint_named_fixture(struct lint *l, json_t *e, const char *ep, const char *member,
                               const char *hint)
{
    const char *name = l->fx ? json_string_value(json_object_get(e, member)) : NULL;
    json_t *v;
    char *problem = NULL;
    if (name && fixtures_lookup(l->fx, name, "", &v, &problem) == FIXTURES_NO_FIXTURE) {
        char *mp = xasprintf("%s/%s", ep, member);
        finding(l, mp, DIAG_ERROR, hint, "%s", problem);
        free(mp);
    }
    free(problem);
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
        /* a change rule's old description, a fix example's after: each must be there */
        lint_named_fixture(l, e, ep, "old",
                           "name the old description the fixture is compared with (e.g. "
                           "NAME/old.json beside NAME/new.json)");
        lint_named_fixture(l, e, ep, "after",
                           "name the fixed fixture (e.g. fixes/NAME.after.json, see "
                           "conformance/README.md)");
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
            ver_mask judged_for = ver_all(&l->vl);
            spec_mask(&l->vl, json_object_get(r, "applies"), &judged_for);
            lint_selectors_check(l->sels, l->d, check, cp, judged_for,
                                 json_string_value(json_object_get(r, "compare")), l->out);
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

/* A *.yaml or *.yml file beside the manifest that neither its `files:` nor its `data:`
 * lists is never loaded: its rules would silently not exist. Reported at the `files:` key. */
static void lint_unlisted(struct lint *l, json_t *files, json_t *data)
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
        const char *dk;
        json_t *dv;
        json_object_foreach(json_is_object(data) ? data : NULL, dk, dv)
        {
            const char *p = json_string_value(dv);
            while (p && p[0] == '.' && p[1] == '/') p += 2;
            listed |= p && !strcmp(p, n);
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
    /* the manifest's `fixtures`, read by the loader even when a rule file has errors */
    char *fxdir = fixtures      ? xstrdup(fixtures)
        : rule_set_fixtures(rs) ? rule_set_fixtures_path(rs)
                                : lint_default_fixtures(dir);
    struct stat fst;
    if (stat(fxdir, &fst) == 0 && S_ISDIR(fst.st_mode)) l.fx = fixtures_new(fxdir, good);
    else l.fx_missing = xstrdup(fxdir); /* said once, where an example names a fixture */
    free(fxdir);
    l.d = m;
    lint_unlisted(&l, json_object_get(doc_root(m), "files"), json_object_get(doc_root(m), "data"));
    l.sels = lint_selectors_new(rs, dir, l.schema_map, &l.vl, m, out);
    for (size_t i = 0; i < rule_set_file_count(rs); i++) {
        if (!(l.d = rule_set_file_doc(rs, i))) continue; /* the loader reported it */
        lint_file(&l);
        if (sctx) lint_against_schema(&l, sctx, rule_schema);
    }
    lint_citations_finish(&l);
    if (good) rule_data_lint(good, out); /* the phrase lists' examples and duplicates */
    cites_free(&l);
    lint_selectors_free(l.sels);
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
