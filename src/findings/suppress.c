/* suppress.c - suppressions with reasons, inline and from the config (suppress.h). */
#include "findings/suppress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "findings/fingerprint.h"
#include "resolve/res.h"
#include "base/buf.h"
#include "base/util.h"
#include "base/val.h"

#define RULE_INVALID "mcpdesc.suppression.invalid"
#define RULE_UNUSED "mcpdesc.suppression.unused"
#define RULE_EXPIRED "mcpdesc.suppression.expired"

/* ---- dates ---------------------------------------------------------------------- */

int suppress_today(char out[11])
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t now = time(NULL);
    int rc = 0;
    if (sde && *sde) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(sde, &end, 10);
        if (errno || *end || *sde < '0' || *sde > '9' || v > (unsigned long long)253402300799ULL)
            rc = -1; /* past 9999-12-31: no YYYY-MM-DD */
        else now = (time_t)v;
    }
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 11, "%Y-%m-%d", &tm);
    return rc;
}

int suppress_date_ok(const char *s)
{
    if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1]) return 0;
    return m != 2 || d < 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

int suppress_expired(const char *until, const char *today)
{
    /* YYYY-MM-DD sorts as it reads */
    return until && strcmp(until, today) < 0;
}

/* ---- shared --------------------------------------------------------------------- */

/* Did a rule that PATTERN (an id or a glob) names run? */
static int rule_ran(const struct rule_set *rs, const struct suppress_filter *f, const char *pattern)
{
    size_t n = rule_set_count(rs);
    for (size_t i = 0; i < n + res_nbuiltins; i++) {
        const char *id = i < n ? rule_id(rule_set_rule(rs, i)) : res_builtins[i - n].id;
        if (i < n && rule_is_session(rule_set_rule(rs, i)) && !(f && f->session)) continue;
        if (config_rule_matches(pattern, id) && (!f || !f->enabled || f->enabled(id, f->arg)))
            return 1;
    }
    return 0;
}

static int reported(const struct suppress_filter *f, const char *id)
{
    return !f || !f->enabled || f->enabled(id, f->arg);
}

static int at_or_below(const char *dp, const char *p, size_t n)
{
    return dp && !strncmp(dp, p, n) && (dp[n] == '\0' || dp[n] == '/');
}

static void hide(struct diag *g, enum diag_suppress_kind kind, const char *reason,
                 const char *until)
{
    g->suppressed = xstrdup(reason);
    g->suppressed_until = until ? xstrdup(until) : NULL;
    g->suppress_kind = kind;
}

/* The versions of the run's suppression findings: all the set knows, narrowed by F. */
static ver_mask run_versions(const struct rule_set *rs, const struct suppress_filter *f)
{
    ver_mask all = ver_all(rule_set_versions(rs));
    return f && f->versions ? all & f->versions : all;
}

/* ... and of an inline one's: narrowed by the document's protocolVersions as well. */
static ver_mask doc_versions(const struct rule_set *rs, const doc *d,
                             const struct suppress_filter *f)
{
    json_t *pv = json_object_get(doc_root(d), "protocolVersions");
    ver_mask m = 0, run = run_versions(rs, f);
    size_t i;
    json_t *v;
    json_array_foreach(pv, i, v)
    {
        int k = json_is_string(v) ? ver_index(rule_set_versions(rs), json_string_value(v)) : -1;
        if (k >= 0) m |= (ver_mask)1 << k;
    }
    return m & run ? m & run : run;
}

static struct diag *finding(struct diag_list *l, enum diag_level level, const char *rule,
                            const char *file, uint32_t line, uint32_t col, const char *pointer,
                            char *message, ver_mask versions)
{
    struct diag *g = diag_add(l, level, rule, file, line, col, message);
    g->pointer = xstrdup(pointer);
    g->versions = versions;
    free(message);
    return g;
}

/* ---- inline --------------------------------------------------------------------- */

struct inline_entry {
    const char *rule, *reason, *until; /* borrowed from the document */
    char *pointer;                     /* the entry's */
    int expired, used;
};

/* Is PATTERN an id of RS or a built-in, or a glob that matches one? */
static int known_rule(const struct rule_set *rs, const char *pattern)
{
    return rule_ran(rs, NULL, pattern);
}

/* Why the entry E is malformed (new string), or NULL; *AT: the pointer to report it at. */
static char *entry_problem(const struct rule_set *rs, json_t *e, const char *ptr, char **at)
{
    *at = xstrdup(ptr);
    if (!json_is_object(e))
        return xasprintf(SUPPRESS_MEMBER " entries are objects {rule, reason, until}, not %s %s",
                         json_is_array(e) || json_is_object(e) || json_is_integer(e) ? "an" : "a",
                         val_type_name(e));
    const char *key;
    json_t *v;
    json_object_foreach(e, key, v)
    {
        if (strcmp(key, "rule") && strcmp(key, "reason") && strcmp(key, "until"))
            return xasprintf("unknown member '%s' in an " SUPPRESS_MEMBER
                             " entry (it has rule, reason and until)",
                             key);
    }
    json_t *rule = json_object_get(e, "rule");
    json_t *reason = json_object_get(e, "reason");
    json_t *until = json_object_get(e, "until");
    if (!json_is_string(rule))
        return xstrdup(rule ? "an " SUPPRESS_MEMBER " entry's rule is a rule id (a string)"
                            : "an " SUPPRESS_MEMBER
                              " entry needs rule: the rule id whose findings it hides");
    if (!known_rule(rs, json_string_value(rule))) {
        free(*at);
        *at = xasprintf("%s/rule", ptr);
        const char *near = rule_set_suggest(rs, json_string_value(rule));
        return xasprintf("'%s' names no rule of %s%s%s%s (see mcpdesc rules list)",
                         json_string_value(rule), rule_set_name(rs), near ? "; did you mean '" : "",
                         near ? near : "", near ? "'?" : "");
    }
    const char *r = json_string_value(reason);
    while (r && (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')) r++;
    if (!r || !*r)
        return xstrdup("an " SUPPRESS_MEMBER
                       " entry needs reason: why the finding is accepted (a non-empty string)");
    if (until && !suppress_date_ok(json_string_value(until))) {
        free(*at);
        *at = xasprintf("%s/until", ptr);
        return xstrdup("an " SUPPRESS_MEMBER " entry's until is a date YYYY-MM-DD");
    }
    return NULL;
}

static void at_pos(const doc *d, const char *ptr, uint32_t *line, uint32_t *col)
{
    struct doc_pos p = {0, 0};
    doc_pointer_pos(d, ptr, &p, NULL);
    *line = p.line;
    *col = p.col;
}

/* The inline suppressions of the item at ITEM_PTR (the value ITEM). */
static void inline_item(const struct rule_set *rs, const doc *d, const char *file, json_t *item,
                        const char *item_ptr, struct diag_list *l, size_t nfound,
                        struct diag_list *add, const char *today, const struct suppress_filter *f)
{
    json_t *ign = json_object_get(item, SUPPRESS_MEMBER);
    char *base = xasprintf("%s/" SUPPRESS_MEMBER, item_ptr);
    VEC(struct inline_entry) entries = VEC_INIT;
    ver_mask vs = doc_versions(rs, d, f);
    size_t n = json_is_array(ign) ? json_array_size(ign) : 1;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_is_array(ign) ? json_array_get(ign, i) : ign;
        char *ptr = json_is_array(ign) ? xasprintf("%s/%zu", base, i) : xstrdup(base);
        char *at;
        char *why = entry_problem(rs, e, ptr, &at);
        if (why) {
            uint32_t line, col;
            at_pos(d, at, &line, &col);
            if (reported(f, RULE_INVALID))
                finding(add, DIAG_ERROR, RULE_INVALID, file, line, col, at, why, vs);
            else free(why);
            free(at);
            free(ptr);
            continue;
        }
        free(at);
        struct inline_entry ie = {json_string_value(json_object_get(e, "rule")),
                                  json_string_value(json_object_get(e, "reason")),
                                  json_string_value(json_object_get(e, "until")),
                                  ptr,
                                  0,
                                  0};
        ie.expired = suppress_expired(ie.until, today);
        VEC_PUSH(entries, ie);
    }
    size_t plen = strlen(item_ptr);
    for (size_t k = 0; k < nfound; k++) {
        struct diag *g = &l->items[k];
        if (!g->rule || g->suppressed || !at_or_below(g->pointer, item_ptr, plen)) continue;
        for (size_t i = 0; i < entries.len; i++) {
            struct inline_entry *ie = &entries.items[i];
            if (ie->expired || !config_rule_matches(ie->rule, g->rule)) continue;
            hide(g, DIAG_SUPPRESS_INLINE, ie->reason, ie->until);
            ie->used = 1;
            break;
        }
    }
    for (size_t i = 0; i < entries.len; i++) {
        struct inline_entry *ie = &entries.items[i];
        uint32_t line, col;
        at_pos(d, ie->pointer, &line, &col);
        if (ie->expired && reported(f, RULE_EXPIRED))
            finding(add, DIAG_WARNING, RULE_EXPIRED, file, line, col, ie->pointer,
                    xasprintf("this suppression of %s expired on %s (today is %s) and hides "
                              "nothing: fix the finding, or give a new until with its reason",
                              ie->rule, ie->until, today),
                    vs);
        else if (!ie->expired && !ie->used && rule_ran(rs, f, ie->rule) && reported(f, RULE_UNUSED))
            finding(add, DIAG_WARNING, RULE_UNUSED, file, line, col, ie->pointer,
                    xasprintf("this suppression of %s hides no finding of its item: remove it",
                              ie->rule),
                    vs);
        free(ie->pointer);
    }
    VEC_FREE(entries);
    free(base);
}

void suppress_inline(const struct rule_set *rs, const doc *d, const char *file, struct diag_list *l,
                     const char *today, const struct suppress_filter *f)
{
    json_t *root = d ? doc_root(d) : NULL;
    const struct res_config *cfg = rs ? rule_set_res_config(rs) : NULL;
    if (!json_is_object(root) || !cfg) return;
    struct diag_list add = DIAG_LIST_INIT;
    size_t nfound = l->len;
    for (size_t c = 0; c < cfg->ncollections; c++) {
        json_t *arr = json_object_get(root, cfg->collections[c]);
        if (!json_is_array(arr)) continue;
        for (size_t i = 0; i < json_array_size(arr); i++) {
            json_t *item = json_array_get(arr, i);
            if (!json_is_object(item) || !json_object_get(item, SUPPRESS_MEMBER)) continue;
            char *ptr = xasprintf("/%s/%zu", cfg->collections[c], i);
            inline_item(rs, d, file, item, ptr, l, nfound, &add, today, f);
            free(ptr);
        }
    }
    if (!add.len) return;
    VEC_RESERVE(*l, add.len);
    for (size_t i = 0; i < add.len; i++) l->items[l->len++] = add.items[i];
    free(add.items);
    diag_sort_merge(l);
}

/* ---- the config's --------------------------------------------------------------- */

struct suppress_run {
    const struct config *c;
    char today[11];
    unsigned char *expired, *judged; /* per entry */
    size_t *used;                    /* per entry: findings hidden */
};

struct suppress_run *suppress_run_new(const struct config *c, const char *today)
{
    struct suppress_run *s = xcalloc(1, sizeof *s);
    s->c = c;
    snprintf(s->today, sizeof s->today, "%s", today);
    size_t n = c->suppress.len ? c->suppress.len : 1;
    s->expired = xcalloc(n, 1);
    s->judged = xcalloc(n, 1);
    s->used = xcalloc(n, sizeof *s->used);
    for (size_t i = 0; i < c->suppress.len; i++)
        s->expired[i] = (unsigned char)suppress_expired(c->suppress.items[i].until, today);
    return s;
}

void suppress_run_free(struct suppress_run *s)
{
    if (!s) return;
    free(s->expired);
    free(s->judged);
    free(s->used);
    free(s);
}

void suppress_run_apply(struct suppress_run *s, const struct rule_set *rs, const char *file,
                        const doc *d, struct diag_list *l)
{
    const struct config *c = s->c;
    if (!c->suppress.len) return;
    char *rel = config_relpath(c, file);
    unsigned char *applies = xcalloc(c->suppress.len, 1);
    int any = 0, items = 0;
    for (size_t i = 0; i < c->suppress.len; i++) {
        const struct config_suppress *e = &c->suppress.items[i];
        if (e->file && !(rel && config_path_matches(e->file, rel))) continue;
        s->judged[i] = 1;
        if (s->expired[i] || !e->rule || !e->reason) continue;
        applies[i] = 1;
        any = 1;
        items |= e->item != NULL;
    }
    struct fingerprint_items *fi = any && items ? fingerprint_items_new(rs, d) : NULL;
    for (size_t k = 0; any && k < l->len; k++) {
        struct diag *g = &l->items[k];
        if (!g->rule || g->suppressed) continue;
        const char *identity = NULL;
        size_t plen;
        if (fi) fingerprint_item_value(fi, g->pointer, &plen, &identity);
        for (size_t i = 0; i < c->suppress.len; i++) {
            const struct config_suppress *e = &c->suppress.items[i];
            if (!applies[i] || !config_rule_matches(e->rule, g->rule)) continue;
            if (e->item && !(identity && !strcmp(identity, e->item))) continue;
            if (e->pointer && !at_or_below(g->pointer, e->pointer, strlen(e->pointer))) continue;
            hide(g, DIAG_SUPPRESS_CONFIG, e->reason, e->until);
            s->used[i]++;
            break;
        }
    }
    fingerprint_items_free(fi);
    free(applies);
    free(rel);
}

/* "mcp.tool.name.charset for item "get weather" in servers/acme.json" (new string). */
static char *describe(const struct config_suppress *e)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, e->rule ? e->rule : "");
    if (e->item) buf_addf(&b, " for item \"%s\"", e->item);
    if (e->pointer) buf_addf(&b, " at %s", *e->pointer ? e->pointer : "the document root");
    if (e->file) buf_addf(&b, " in %s", e->file);
    return buf_detach(&b);
}

void suppress_run_finish(struct suppress_run *s, const struct rule_set *rs,
                         const struct suppress_filter *f, struct diag_list *out)
{
    const struct config *c = s->c;
    for (size_t i = 0; i < c->suppress.len; i++) {
        const struct config_suppress *e = &c->suppress.items[i];
        if (!e->rule) continue;
        char *ptr = xasprintf("/suppress/%zu", i);
        char *what = describe(e);
        if (s->expired[i] && reported(f, RULE_EXPIRED))
            finding(out, DIAG_WARNING, RULE_EXPIRED, c->path, e->pos.line, e->pos.col, ptr,
                    xasprintf("this suppression of %s expired on %s (today is %s) and hides "
                              "nothing: fix the finding, or give a new until with its reason",
                              what, e->until, s->today),
                    run_versions(rs, f));
        else if (!s->expired[i] && s->judged[i] && !s->used[i] && rule_ran(rs, f, e->rule) &&
                 reported(f, RULE_UNUSED))
            finding(out, DIAG_WARNING, RULE_UNUSED, c->path, e->pos.line, e->pos.col, ptr,
                    xasprintf("this suppression of %s hides no finding in the files judged: "
                              "remove it, or correct its file, rule, item or pointer",
                              what),
                    run_versions(rs, f));
        free(what);
        free(ptr);
    }
}
