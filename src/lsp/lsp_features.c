/* lsp_features.c - what an editor's open documents are (lspf_classify) and the
 * diagnostics of rule files, manifests and config files (lspf_lint), with the text
 * helpers the other feature files share (lsp_featuresInt.h): lines and code point
 * columns, tokens, the rule set a file belongs to, named predicates and rule ids. */
#include "lsp/lsp_features.h"

#include <stdlib.h>
#include <string.h>

#include "author/lint.h"
#include "base/buf.h"
#include "base/loc.h"
#include "base/util.h"
#include "rules/release.h"
#include "findings/config.h"
#include "judge/judge.h"
#include "lsp/lsp_featuresInt.h"
#include "lsp/lsp_pos.h"

/* ---- lines and columns ------------------------------------------------------------ */

void lspf_lines_init(struct lspf_lines *ls, const char *text, size_t len)
{
    memset(ls, 0, sizeof *ls);
    ls->text = text ? text : "";
    if (!text) len = 0;
    ls->len = len;
    size_t cap = 16;
    ls->starts = xmalloc(cap * sizeof *ls->starts);
    ls->lens = xmalloc(cap * sizeof *ls->lens);
    size_t at = 0;
    for (;;) {
        const char *nl = at < len ? memchr(ls->text + at, '\n', len - at) : NULL;
        size_t end = nl ? (size_t)(nl - ls->text) : len;
        if (ls->n == cap) {
            cap *= 2;
            ls->starts = xrealloc(ls->starts, cap * sizeof *ls->starts);
            ls->lens = xrealloc(ls->lens, cap * sizeof *ls->lens);
        }
        size_t l = end - at;
        if (l && ls->text[end - 1] == '\r') l--;
        ls->starts[ls->n] = at;
        ls->lens[ls->n] = l;
        ls->n++;
        if (!nl) break;
        at = end + 1;
    }
}

void lspf_lines_release(struct lspf_lines *ls)
{
    free(ls->starts);
    free(ls->lens);
    memset(ls, 0, sizeof *ls);
}

const char *lspf_line(const struct lspf_lines *ls, uint32_t line, size_t *len)
{
    if (line < 1 || line > ls->n) return NULL;
    *len = ls->lens[line - 1];
    return ls->text + ls->starts[line - 1];
}

size_t lspf_col_to_off(const char *s, size_t len, uint32_t col)
{
    size_t at = 0;
    for (uint32_t c = 1; c < col && at < len; c++) {
        at++;
        while (at < len && ((unsigned char)s[at] & 0xC0) == 0x80) at++;
    }
    return at;
}

uint32_t lspf_off_to_col(const char *s, size_t off)
{
    uint32_t col = 1;
    for (size_t i = 0; i < off; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) col++;
    return col;
}

/* The line of START (*S, *LEN bytes) and START's byte offset in it; 0, or -1 when START
 * lies outside the text (then the range is empty at START). */
static int line_at(const struct lspf_lines *ls, struct doc_pos start, const char **s, size_t *len,
                   size_t *at)
{
    *s = lspf_line(ls, start.line, len);
    if (!*s || !start.col) return -1;
    *at = lspf_col_to_off(*s, *len, start.col);
    return *at < *len ? 0 : -1;
}

struct lspf_range lspf_token_range(const struct lspf_lines *ls, struct doc_pos start)
{
    struct lspf_range r = {start, start};
    const char *s;
    size_t len, at, end;
    if (line_at(ls, start, &s, &len, &at) < 0) return r;
    char c = s[at];
    /* a bracket or a comma is itself; anything else ends as a published value would */
    if (c == '{' || c == '[' || c == '}' || c == ']' || c == ',') end = at + 1;
    else end = lsp_value_end(s, len, at);
    r.end.col = lspf_off_to_col(s, end);
    return r;
}

struct lspf_range lspf_value_range(const struct lspf_lines *ls, struct doc_pos start)
{
    struct lspf_range r = {start, start};
    const char *s;
    size_t len, at;
    if (line_at(ls, start, &s, &len, &at) < 0) return r;
    at += (size_t)(s - ls->text);
    size_t end = lsp_value_end(ls->text, ls->len, at);
    /* the line END lies on: the last line starting at or before it */
    size_t lo = start.line - 1, hi = ls->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (ls->starts[mid] <= end) lo = mid;
        else hi = mid - 1;
    }
    size_t off = end - ls->starts[lo];
    if (off > ls->lens[lo]) off = ls->lens[lo];
    r.end = (struct doc_pos){(uint32_t)lo + 1, lspf_off_to_col(ls->text + ls->starts[lo], off)};
    return r;
}

static int word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '_' || c == '*' || c == '$' || c >= 0x80;
}

char *lspf_word_at(const struct lspf_lines *ls, struct doc_pos pos, struct lspf_range *range)
{
    size_t len;
    const char *s = lspf_line(ls, pos.line, &len);
    if (!s || !pos.col) return NULL;
    size_t at = lspf_col_to_off(s, len, pos.col);
    if (at >= len || !word_char((unsigned char)s[at])) return NULL;
    size_t from = at, to = at;
    while (from > 0 && word_char((unsigned char)s[from - 1])) from--;
    while (to < len && word_char((unsigned char)s[to])) to++;
    /* a key's colon or a sentence's full stop is not part of the word */
    while (to > from + 1 && s[to - 1] == '.') to--;
    if (to <= at) return NULL;
    range->start = (struct doc_pos){pos.line, lspf_off_to_col(s, from)};
    range->end = (struct doc_pos){pos.line, lspf_off_to_col(s, to)};
    return xstrndup(s + from, to - from);
}

/* ---- paths and the rule set a file belongs to ---------------------------------------- */

char *lspf_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

const char *lspf_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int lspf_is_yaml_name(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
}

void lspf_strings_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* The partial program of the rule set in PATH's directory (rules/rule.h,
 * rule_set_load_partial: the one reader of its manifest and rule files), with T's text for
 * the file T is (T may be NULL); NULL when there is no manifest there or it does not
 * parse. Its errors are lint's to show (lspf_lint); `extends: NAME@TAG` is not looked up
 * (what is asked of it here, the files and what they say, is the set's own). */
static struct rule_set *program_beside(const struct lspf_text *t, const char *path, char **dir)
{
    *dir = lspf_dirname(path);
    struct rule_overlay ov = {t ? t->path : NULL, t && t->text ? t->text : "", t ? t->len : 0};
    struct rule_load_opts lo = {NULL, 0, NULL, 0, t ? &ov : NULL, NULL, 0};
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load_partial(*dir, &lo, &errs);
    diag_list_release(&errs);
    return rs;
}

struct rule_set *lspf_program(const struct lspf_text *t)
{
    if (!t->path) return NULL;
    char *dir;
    struct rule_set *rs = program_beside(t, t->path, &dir);
    free(dir);
    return rs;
}

char **lspf_set_files(const struct lspf_text *t, size_t *n, char ***versions, size_t *nversions)
{
    *n = 0;
    if (versions) {
        *versions = NULL;
        *nversions = 0;
    }
    if (!t->path) return NULL;
    char *dir;
    struct rule_set *rs = program_beside(t, t->path, &dir);
    char **out = NULL;
    if (rs) {
        size_t nf = rule_set_file_count(rs);
        out = xcalloc(nf ? nf : 1, sizeof *out);
        for (size_t i = 0; i < nf; i++) out[(*n)++] = xasprintf("%s/%s", dir, rule_set_file(rs, i));
        json_t *vers = json_object_get(doc_root(rule_set_manifest_doc(rs)), "versions");
        size_t nv = json_array_size(vers);
        if (versions && nv) {
            *versions = xcalloc(nv, sizeof **versions);
            for (size_t i = 0; i < nv && i < 64; i++) {
                const char *v = json_string_value(json_array_get(vers, i));
                if (v) (*versions)[(*nversions)++] = xstrdup(v);
            }
        }
        rule_set_free(rs);
    }
    free(dir);
    if (!*n) {
        free(out);
        out = NULL;
    }
    return out;
}

/* ---- named predicates and rule ids, found in the text --------------------------------- */

/* Call FN(PATH, TEXT, LEN, ARG) for every rule file of T's set other than T itself, on
 * the text its partial program read (the loader is the one reader of the rule files: a
 * file that did not parse has no document and is not searched), until FN returns nonzero.
 * Returns what FN last returned. */
typedef int each_text_fn(const char *path, const char *text, size_t len, void *arg);
static int each_other_file(const struct lspf_text *t, each_text_fn *fn, void *arg)
{
    if (!t->path) return 0;
    char *dir;
    struct rule_set *rs = program_beside(t, t->path, &dir);
    struct rule_overlay ov = {t->path, t->text, t->len};
    int rc = 0;
    for (size_t i = 0; rs && i < rule_set_file_count(rs) && !rc; i++) {
        char *path = xasprintf("%s/%s", dir, rule_set_file(rs, i));
        const doc *d = rule_set_file_doc(rs, i);
        if (d && !rule_overlay_is(&ov, path)) { /* T itself is searched by the caller */
            size_t len;
            const char *text = doc_text(d, &len);
            rc = fn(path, text, len, arg);
        }
        free(path);
    }
    rule_set_free(rs);
    free(dir);
    return rc;
}

static size_t indent_of(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    return i;
}

static int blank_or_comment(const char *s, size_t len)
{
    size_t i = indent_of(s, len);
    return i == len || s[i] == '#';
}

/* The plain key written at S+AT ("name:" followed by a space, a comment or the end):
 * its length, or 0. */
static size_t key_len(const char *s, size_t len, size_t at)
{
    size_t k = at;
    while (k < len && s[k] != ':' && s[k] != ' ' && s[k] != '{' && s[k] != '[') k++;
    if (k == at || k >= len || s[k] != ':') return 0;
    if (k + 1 < len && s[k + 1] != ' ') return 0;
    return k - at;
}

/* Call EACH for every named predicate defined in TEXT (the keys of the top-level
 * `predicates:` block mapping): its name, line (1-based), the column of its key and the
 * definition's lines. Stops when EACH returns nonzero; returns that. */
typedef int named_fn(const char *name, size_t nlen, const struct lspf_lines *ls, uint32_t line,
                     uint32_t col, uint32_t last_line, void *arg);
static int each_named(const char *text, size_t len, named_fn *each, void *arg)
{
    struct lspf_lines ls;
    lspf_lines_init(&ls, text, len);
    int rc = 0;
    uint32_t l = 1;
    for (; l <= ls.n; l++) {
        size_t n = 0;
        const char *s = lspf_line(&ls, l, &n);
        if (n >= 11 && !strncmp(s, "predicates:", 11) && blank_or_comment(s + 11, n - 11)) break;
    }
    size_t child = 0;
    for (l++; !rc && l <= ls.n; l++) {
        size_t n = 0;
        const char *s = lspf_line(&ls, l, &n);
        if (blank_or_comment(s, n)) continue;
        size_t ind = indent_of(s, n);
        if (ind == 0) break; /* the next top-level key */
        if (!child) child = ind;
        if (ind != child) continue;
        size_t kl = key_len(s, n, ind);
        if (!kl) continue;
        uint32_t last = l;
        for (uint32_t m = l + 1; m <= ls.n; m++) {
            size_t mn = 0;
            const char *ms = lspf_line(&ls, m, &mn);
            if (blank_or_comment(ms, mn)) continue;
            if (indent_of(ms, mn) <= child) break;
            last = m;
        }
        rc = each(s + ind, kl, &ls, l, lspf_off_to_col(s, ind), last, arg);
    }
    lspf_lines_release(&ls);
    return rc;
}

struct find_named {
    const char *name;
    uint32_t line, col, nlen;
    char *def;
};

static int find_one(const char *name, size_t nlen, const struct lspf_lines *ls, uint32_t line,
                    uint32_t col, uint32_t last, void *arg)
{
    struct find_named *f = arg;
    if (strlen(f->name) != nlen || strncmp(f->name, name, nlen)) return 0;
    f->line = line;
    f->col = col;
    f->nlen = lspf_off_to_col(name, nlen) - 1;
    struct buf b = BUF_INIT;
    for (uint32_t l = line; l <= last; l++) {
        size_t n = 0;
        const char *s = lspf_line(ls, l, &n);
        buf_add(&b, s, n);
        buf_addc(&b, '\n');
    }
    f->def = buf_detach(&b);
    return 1;
}

struct find_in_file {
    struct find_named *f;
    struct lspf_location *loc;
};

static int find_in(const char *path, const char *text, size_t len, void *arg)
{
    struct find_in_file *ff = arg;
    if (!each_named(text, len, find_one, ff->f)) return 0;
    ff->loc->path = xstrdup(path);
    return 1;
}

int lspf_find_named(const struct lspf_text *t, const char *name, struct lspf_location *loc,
                    char **def)
{
    struct find_named f = {name, 0, 0, 0, NULL};
    if (each_named(t->text, t->len, find_one, &f)) {
        loc->path = xstrdup(t->path ? t->path : "");
    } else {
        struct find_in_file ff = {&f, loc};
        if (!each_other_file(t, find_in, &ff)) return 0;
    }
    loc->range.start = (struct doc_pos){f.line, f.col};
    loc->range.end = (struct doc_pos){f.line, f.col + f.nlen};
    if (def) *def = f.def;
    else free(f.def);
    return 1;
}

struct names {
    VEC(char *) v;
};

static int add_name(const char *name, size_t nlen, const struct lspf_lines *ls, uint32_t line,
                    uint32_t col, uint32_t last, void *arg)
{
    struct names *ns = arg;
    for (size_t i = 0; i < ns->v.len; i++)
        if (strlen(ns->v.items[i]) == nlen && !strncmp(ns->v.items[i], name, nlen)) return 0;
    VEC_PUSH(ns->v, xstrndup(name, nlen));
    return 0;
}

static int add_names_in(const char *path, const char *text, size_t len, void *arg)
{
    each_named(text, len, add_name, arg);
    return 0;
}

char **lspf_named_names(const struct lspf_text *t, size_t *n)
{
    struct names ns = {VEC_INIT};
    each_named(t->text, t->len, add_name, &ns);
    each_other_file(t, add_names_in, &ns);
    *n = ns.v.len;
    return ns.v.items;
}

/* Append the `id: ID` values of TEXT that ID (or "PREFIX.*") names to *LOCS. */
static void rules_in(const char *path, const char *text, size_t len, const char *id,
                     struct lspf_location **locs, size_t *n)
{
    size_t il = strlen(id);
    int prefix = il > 2 && !strcmp(id + il - 2, ".*");
    struct lspf_lines ls;
    lspf_lines_init(&ls, text, len);
    for (uint32_t l = 1; l <= ls.n; l++) {
        size_t sl = 0;
        const char *s = lspf_line(&ls, l, &sl);
        size_t at = indent_of(s, sl);
        if (at + 1 < sl && s[at] == '-' && s[at + 1] == ' ')
            at = at + 1 + indent_of(s + at + 1, sl - at - 1);
        if (sl - at < 4 || strncmp(s + at, "id: ", 4)) continue;
        size_t v = at + 4;
        while (v < sl && s[v] == ' ') v++;
        size_t ve = v;
        int quoted = v < sl && (s[v] == '"' || s[v] == '\'');
        if (quoted) v++, ve++;
        while (ve < sl && s[ve] != ' ' && s[ve] != '"' && s[ve] != '\'' && s[ve] != '#') ve++;
        size_t vl = ve - v;
        int match = prefix ? vl > il - 1 && !strncmp(s + v, id, il - 1)
                           : vl == il && !strncmp(s + v, id, il);
        if (!match) continue;
        *locs = xrealloc(*locs, (*n + 1) * sizeof **locs);
        struct lspf_location *loc = &(*locs)[(*n)++];
        loc->path = xstrdup(path);
        loc->range.start = (struct doc_pos){l, lspf_off_to_col(s, v)};
        loc->range.end = (struct doc_pos){l, lspf_off_to_col(s, ve)};
    }
    lspf_lines_release(&ls);
}

struct rules_in_files {
    const char *id;
    struct lspf_location **locs;
    size_t *n;
};

static int rules_in_file(const char *path, const char *text, size_t len, void *arg)
{
    struct rules_in_files *r = arg;
    rules_in(path, text, len, r->id, r->locs, r->n);
    return 0;
}

void lspf_find_rules(const struct lspf_text *t, const char *id, struct lspf_location **locs,
                     size_t *n)
{
    rules_in(t->path ? t->path : "", t->text ? t->text : "", t->text ? t->len : 0, id, locs, n);
    struct rules_in_files r = {id, locs, n};
    each_other_file(t, rules_in_file, &r);
}

/* ---- classify ------------------------------------------------------------------------ */

/* Is NAME listed under files: by the manifest.yaml in PATH's directory? */
static int listed_by_manifest(const char *path)
{
    char *dir;
    struct rule_set *rs = program_beside(NULL, path, &dir);
    free(dir);
    int listed = 0;
    for (size_t i = 0; rs && i < rule_set_file_count(rs) && !listed; i++)
        listed = !strcmp(rule_set_file(rs, i), lspf_basename(path));
    rule_set_free(rs);
    return listed;
}

/* YAML by the name (.yaml, .yml), JSON by the name (.json), else by content as `validate -`
 * reads standard input: JSON when the first character after a byte-order mark and white
 * space is '{' or '['. */
int lspf_text_is_yaml(const struct lspf_text *t)
{
    if (t->path && lspf_is_yaml_name(t->path)) return 1;
    size_t n = t->path ? strlen(t->path) : 0;
    if (n > 5 && !strcmp(t->path + n - 5, ".json")) return 0;
    if (!t->text) return 0;
    size_t i = t->len >= 3 && !memcmp(t->text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < t->len && strchr(" \t\r\n", t->text[i])) i++;
    return !(i < t->len && (t->text[i] == '{' || t->text[i] == '['));
}

/* A text that does not parse (mid-edit) is a description when it names the member where
 * a description has it: "mcpDescription" in JSON, a top-level key in YAML. */
static int names_member(const struct lspf_text *t, int yaml)
{
    const char *m = JUDGE_DESCRIPTION_MEMBER;
    size_t ml = strlen(m);
    for (size_t i = 0; i + ml <= t->len; i++) {
        if (memcmp(t->text + i, m, ml)) continue;
        if (!yaml) {
            if (i > 0 && t->text[i - 1] == '"' && i + ml < t->len && t->text[i + ml] == '"')
                return 1;
            continue;
        }
        int bol = i == 0 || t->text[i - 1] == '\n' ||
            (i >= 2 && t->text[i - 1] == '"' && t->text[i - 2] == '\n');
        if (bol) return 1;
    }
    return 0;
}

enum lspf_kind lspf_classify(const struct lspf_text *t)
{
    if (t->path) {
        const char *base = lspf_basename(t->path);
        if (!strcmp(base, "manifest.yaml")) return LSPF_MANIFEST;
        if (!strcmp(base, ".mcpdesc.yaml") || !strcmp(base, ".mcpdesc.yml")) return LSPF_CONFIG;
        if (lspf_is_yaml_name(t->path) && listed_by_manifest(t->path)) return LSPF_RULES;
    }
    if (!t->text) return LSPF_OTHER;
    int yaml = lspf_text_is_yaml(t);
    struct doc_error err;
    doc *d = doc_load_buffer(t->path ? t->path : "<buffer>", t->text, t->len, yaml, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return names_member(t, yaml) ? LSPF_DESCRIPTION : LSPF_OTHER;
    }
    json_t *root = doc_root(d);
    int desc = json_is_object(root) && json_object_get(root, JUDGE_DESCRIPTION_MEMBER);
    doc_free(d);
    return desc ? LSPF_DESCRIPTION : LSPF_OTHER;
}

enum lspf_kind lspf_classify_edited(const struct lspf_text *t, enum lspf_kind was)
{
    if (was == LSPF_DESCRIPTION && t->text && names_member(t, lspf_text_is_yaml(t)))
        return LSPF_DESCRIPTION;
    return lspf_classify(t);
}

/* ---- lint ---------------------------------------------------------------------------- */

static void copy_diag(struct diag_list *out, const struct diag *d, const char *file)
{
    struct diag *c = diag_add(out, d->level, d->rule, file, d->line, d->col, d->message);
    if (d->hint) c->hint = xstrdup(d->hint);
}

void lspf_lint(const struct lspf_text *t, enum lspf_kind k, struct diag_list *out)
{
    if (k == LSPF_CONFIG) {
        const char *path = t->path ? t->path : ".mcpdesc.yaml";
        struct diag_list errs = DIAG_LIST_INIT;
        config_free(config_load_buffer(path, t->text ? t->text : "", t->text ? t->len : 0, &errs));
        for (size_t i = 0; i < errs.len; i++) copy_diag(out, &errs.items[i], path);
        diag_list_release(&errs);
        return;
    }
    if ((k != LSPF_RULES && k != LSPF_MANIFEST) || !t->path) return;
    char *dir = lspf_dirname(t->path);
    struct release_search rp; /* where `extends: NAME@TAG` finds its base, as on the CLI */
    release_search_init(&rp);
    struct rule_overlay ov = {t->path, t->text ? t->text : "", t->text ? t->len : 0};
    struct rule_load_opts lo = {rp.path.dirs, rp.path.n, NULL, 0, &ov, NULL, 0};
    struct diag_list all = DIAG_LIST_INIT;
    lint_rule_dir_with(dir, NULL, &lo, &all);
    size_t manifest_errors = 0;
    const struct diag *first = NULL;
    for (size_t i = 0; i < all.len; i++) {
        const struct diag *d = &all.items[i];
        if (d->file && rule_overlay_is(&ov, d->file)) {
            copy_diag(out, d, t->path);
        } else if (d->file && !strcmp(lspf_basename(d->file), "manifest.yaml") &&
                   d->level == DIAG_ERROR) {
            if (!manifest_errors++) first = d;
        }
    }
    /* a manifest that does not load leaves this file's rules uncompiled: say so here */
    if (k == LSPF_RULES && manifest_errors) {
        char *at = loc_format(first->file, first->line, first->col);
        char *msg = xasprintf(
            "the rule set's manifest has %zu error%s, so this file's rules were not compiled "
            "(first: %s: %s)",
            manifest_errors, manifest_errors == 1 ? "" : "s", at, first->message);
        free(at);
        struct diag *d = diag_add(out, DIAG_WARNING, NULL, t->path, 1, 1, msg);
        free(msg);
        d->hint = xstrdup("fix manifest.yaml first");
    }
    diag_list_release(&all);
    release_search_release(&rp);
    free(dir);
}

/* ---- releasing answers ------------------------------------------------------------------ */

void lspf_items_release(struct lspf_items *items)
{
    for (size_t i = 0; i < items->len; i++) {
        free(items->items[i].label);
        free(items->items[i].detail);
        free(items->items[i].documentation);
        free(items->items[i].insert_text);
    }
    free(items->items);
    items->items = NULL;
    items->len = items->cap = 0;
}

void lspf_hover_release(struct lspf_hover *h)
{
    free(h->markdown);
    h->markdown = NULL;
}

void lspf_locations_free(struct lspf_location *locs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(locs[i].path);
    free(locs);
}
