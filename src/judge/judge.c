/* judge.c - judge one document; see judge.h. */
#include "judge/judge.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/ver.h"

#define SKIP_REASON "no " JUDGE_DESCRIPTION_MEMBER " member"
#define SKIP_UNPARSED "not a description: does not parse"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcmp(s + n - k, suffix);
}

static int yaml_name(const char *name)
{
    return ends_with(name, ".yaml") || ends_with(name, ".yml");
}

/* YAML unless the text starts, after a UTF-8 byte-order mark and white space, like JSON. */
static int looks_like_yaml(const char *text, size_t len)
{
    size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    return i == len || (text[i] != '{' && text[i] != '[');
}

/* Read standard input whole (within the byte limit) and load it as NAME (judge.h). */
static doc *load_stdin(const char *name, const struct doc_limits *lim, struct doc_error *err)
{
    const size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    size_t cap = 65536, len = 0;
    char *data = xmalloc(cap);
    err->message = NULL;
    err->line = err->col = 0;
    for (;;) {
        if (len == cap) {
            cap = cap > max / 2 ? max + 1 : cap * 2; /* one byte past the limit says "over" */
            data = xrealloc(data, cap);
        }
        size_t n = fread(data + len, 1, cap - len, stdin);
        len += n;
        if (len > max) {
            err->message = xasprintf("input is over the limit of %zu bytes", max);
            break;
        }
        if (n == 0) {
            if (ferror(stdin)) err->message = xasprintf("cannot read: %s", strerror(errno));
            break;
        }
    }
    doc *d = NULL;
    if (!err->message) {
        int yaml = yaml_name(name) ? 1 : ends_with(name, ".json") ? 0 : looks_like_yaml(data, len);
        d = doc_load_buffer(name, data, len, yaml, lim, err);
    }
    free(data);
    return d;
}

static doc *load(const struct judge_source *src, const struct doc_limits *lim,
                 struct doc_error *err)
{
    switch (src->from) {
    case JUDGE_FILE: return doc_load_file(src->path, lim, err);
    case JUDGE_STDIN: return load_stdin(src->name, lim, err);
    case JUDGE_BUFFER: break;
    }
    return doc_load_buffer(src->name, src->data ? src->data : "", src->data ? src->len : 0,
                           yaml_name(src->name), lim, err);
}

static struct diag *error_at(const char *name, uint32_t line, uint32_t col, const char *msg)
{
    struct diag *d = xcalloc(1, sizeof *d);
    d->level = DIAG_ERROR;
    d->file = xstrdup(name);
    d->line = line;
    d->col = col;
    d->message = xstrdup(msg);
    return d;
}

/* Is KEY (N bytes) mcpDescription or a misspelling of it: letter case aside, at most two
 * edits ("mcpDescripton", "mcp_description")? */
static int description_word(const char *key, size_t n)
{
    char low[32];
    if (n >= sizeof low || n + 2 < sizeof JUDGE_DESCRIPTION_MEMBER - 1) return 0;
    for (size_t k = 0; k < n; k++) low[k] = (char)tolower((unsigned char)key[k]);
    low[n] = '\0';
    return util_edit_distance(low, "mcpdescription") <= 2;
}

/* Is ROOT, from a found document, to be judged (judge_options.found)? */
static int is_description(json_t *root)
{
    if (!json_is_object(root)) return 0;
    if (json_object_get(root, JUDGE_DESCRIPTION_MEMBER)) return 1;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        if (description_word(key, strlen(key))) return 1;
    }
    return 0;
}

int judge_named_description(const char *path, const char *data, size_t len)
{
    static const char *const names[] = {"mcp-description.json", "mcp-description.yaml",
                                        "mcp-description.yml"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t k = strlen(names[i]);
        if (bl >= k && !strcmp(base + bl - k, names[i]) &&
            (bl == k || (bl > k + 1 && base[bl - k - 1] == '.')))
            return 1;
    }
    /* the words of the bytes: letters, digits, '_' and '-' (a key, quoted or not) */
    for (size_t i = 0; i < len;) {
        size_t start = i;
        while (i < len && (isalnum((unsigned char)data[i]) || data[i] == '_' || data[i] == '-'))
            i++;
        if (i > start && description_word(data + start, i - start)) return 1;
        if (i == start) i++;
    }
    return 0;
}

/* A found file PATH that did not load: is it to be skipped as "not a description"? Only
 * when it can be read whole within the byte limit (so it does not parse) and nothing
 * names it a description. */
static int skip_unparsed(const char *path, const struct doc_limits *lim)
{
    const size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t cap = 65536, len = 0;
    char *data = xmalloc(cap);
    int ok = 1;
    for (;;) {
        if (len == cap) {
            if (cap > max) {
                ok = 0;
                break;
            }
            cap *= 2;
            data = xrealloc(data, cap);
        }
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    if (ferror(f) || len > max) ok = 0;
    fclose(f);
    int skip = ok && !judge_named_description(path, data, len);
    free(data);
    return skip;
}

/* With a version selection WANT (--protocol-version): does it meet the versions D lists
 * (its protocolVersions member, read as the resolver reads it: absent or not an array
 * means every known version)? If not, the reason (new), at the member's position. */
static char *versions_selected(const struct rule_set *rs, const doc *d, ver_mask want,
                               struct doc_pos *pos)
{
    const struct ver_list *vl = rule_set_versions(rs);
    const char *member = rule_set_res_config(rs)->versions_member;
    json_t *pv = json_object_get(doc_root(d), member);
    if (!want || !json_is_array(pv)) return NULL;
    ver_mask listed = 0;
    size_t i;
    json_t *e;
    json_array_foreach(pv, i, e)
    {
        int k = json_is_string(e) ? ver_index(vl, json_string_value(e)) : -1;
        if (k >= 0) listed |= (ver_mask)1 << k;
    }
    if (listed & want) return NULL;
    struct buf sel = BUF_INIT, has = BUF_INIT;
    ver_format(&sel, vl, want, ", ");
    if (listed) ver_format(&has, vl, listed, ", ");
    else buf_adds(&has, json_array_size(pv) ? "none known" : "none");
    char *why = xasprintf("--protocol-version %s selects none of the protocol versions the "
                          "document lists (%s): nothing would be judged",
                          buf_str(&sel), buf_str(&has));
    buf_release(&sel);
    buf_release(&has);
    char *pointer = xasprintf("/%s", member);
    if (doc_pointer_pos(d, pointer, pos, NULL) < 0) *pos = (struct doc_pos){1, 1};
    free(pointer);
    return why;
}

void judge_document(const struct rule_set *rs, const struct judge_source *src,
                    const struct judge_options *opts, struct judge_result *out)
{
    static const struct judge_options none = {NULL, NULL, 0, 0, 0};
    if (!opts) opts = &none;
    *out = (struct judge_result){NULL, DIAG_LIST_INIT, NULL, NULL};
    struct doc_error err;
    doc *d = load(src, opts->limits, &err);
    if (!d && opts->found && !opts->strict_inputs && src->from == JUDGE_FILE &&
        skip_unparsed(src->path, opts->limits)) {
        doc_error_release(&err);
        out->skipped = SKIP_UNPARSED;
        return;
    }
    if (!d) {
        out->error = error_at(src->name, err.line, err.col, err.message);
        doc_error_release(&err);
        return;
    }
    if (opts->found && !is_description(doc_root(d))) {
        out->skipped = SKIP_REASON;
        doc_free(d);
        return;
    }
    if (!json_is_object(doc_root(d))) {
        out->error = error_at(src->name, 1, 1,
                              "an MCP Description must be a JSON object with \"mcpDescription\"");
        doc_free(d);
        return;
    }
    if (opts->load_only) {
        out->d = d;
        return;
    }
    struct doc_pos pos;
    char *why = versions_selected(rs, d, opts->eval ? opts->eval->versions : 0, &pos);
    if (why) {
        out->error = error_at(src->name, pos.line, pos.col, why);
        free(why);
        doc_free(d);
        return;
    }
    out->d = d;
    eval_document(rs, d, opts->eval, &out->diags);
}

void judge_result_release(struct judge_result *r)
{
    diag_list_release(&r->diags);
    if (r->error) {
        diag_clear(r->error);
        free(r->error);
    }
    doc_free(r->d);
    *r = (struct judge_result){NULL, DIAG_LIST_INIT, NULL, NULL};
}

/* Does L hold a finding of RULE at POINTER? */
static struct diag *finding_at(struct diag_list *l, const char *rule, const char *pointer)
{
    for (size_t i = 0; i < l->len; i++)
        if (l->items[i].rule && l->items[i].pointer && !strcmp(l->items[i].rule, rule) &&
            !strcmp(l->items[i].pointer, pointer))
            return &l->items[i];
    return NULL;
}

/* A session finding D of document K concerns its related places too: at each one, in its
 * own document, that no finding of the same rule reports (a collision is reported by both
 * sides already; a reference only where the text is), add one that names D's place as its
 * related place (several findings there: one, with each place). */
static void mirror(const struct rule_session_doc *docs, size_t m, size_t k, const struct diag *d,
                   struct diag_list *fresh, struct diag_list *mirrors)
{
    for (size_t r = 0; r < d->nrelated; r++) {
        const struct diag_related *at = &d->related[r];
        size_t j = 0;
        while (j < m && (j == k || strcmp(doc_name(docs[j].d), at->file))) j++;
        if (j == m || !at->pointer || finding_at(&fresh[j], d->rule, at->pointer)) continue;
        struct diag *mm = finding_at(&mirrors[j], d->rule, at->pointer);
        if (!mm) {
            char *msg = xasprintf("the other place of a finding in %s:%u:%u: %s", d->file,
                                  (unsigned)d->line, (unsigned)d->col, d->message);
            mm = diag_add(&mirrors[j], d->level, d->rule, at->file, at->line, at->col, msg);
            free(msg);
            mm->pointer = xstrdup(at->pointer);
            mm->versions = d->versions;
            mm->hint = xstrdup("the finding is about the other server's text, at the related "
                               "place: nothing to change here");
        }
        diag_add_related(mm, d->file, d->line, d->col, d->pointer, NULL);
    }
}

void judge_together(const struct rule_set *rs, struct judge_result *results, size_t n,
                    const struct eval_options *opts, const unsigned char *left_out)
{
    size_t cap = n ? n : 1;
    struct rule_session_doc *docs = xcalloc(cap, sizeof *docs);
    struct res **res = xcalloc(cap, sizeof *res);
    size_t *which = xcalloc(cap, sizeof *which); /* session index -> result index */
    size_t m = 0;
    struct diag_list scratch = DIAG_LIST_INIT; /* resolution's own: reported already */
    for (size_t i = 0; i < n; i++) {
        if (!results[i].d || (left_out && left_out[i])) continue;
        res[m] = res_resolve(results[i].d, rule_set_res_config(rs), &scratch);
        docs[m] = (struct rule_session_doc){results[i].d, res_view(res[m])};
        which[m++] = i;
    }
    diag_list_release(&scratch);
    struct eval_options o = opts ? *opts : (struct eval_options){0};
    struct diag_list *fresh = xcalloc(cap, sizeof *fresh), *mirrors = xcalloc(cap, sizeof *mirrors);
    for (size_t k = 0; k < m; k++) {
        struct rule_session s = {docs, m, k};
        o.session = &s;
        eval_document(rs, results[which[k]].d, &o, &fresh[k]);
    }
    for (size_t k = 0; k < m; k++)
        for (size_t i = 0; i < fresh[k].len; i++)
            mirror(docs, m, k, &fresh[k].items[i], fresh, mirrors);
    for (size_t k = 0; k < m; k++) {
        struct diag_list *to = &results[which[k]].diags;
        diag_list_move(to, &fresh[k]);
        diag_list_move(to, &mirrors[k]);
        diag_sort_merge(to);
        res_free(res[k]);
    }
    free(fresh);
    free(mirrors);
    free(which);
    free(res);
    free(docs);
}
