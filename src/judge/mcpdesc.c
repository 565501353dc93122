/* mcpdesc.c - the embedding facade of mcpdesc.h over rule.h, judge.h and diag.h: a
 * result owns its diagnostics and the strings the public view points at. */
#include "judge/mcpdesc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/diag.h"
#include "judge/judge.h"
#include "rules/release.h"
#include "rules/rule.h"
#include "base/util.h"

struct mcpdesc_rules {
    struct rule_set *rs; /* shared by concurrent validations: only read (eval.h) */
};

struct mcpdesc_result {
    int parsed;
    struct diag_list diags;
    struct mcpdesc_diag *view; /* one per diagnostic */
    char **versions;           /* formatted version lists, one per diagnostic */
};

const char *mcpdesc_version(void)
{
    return MCPDESC_VERSION;
}

const char *mcpdesc_level_name(enum mcpdesc_level level)
{
    return level == MCPDESC_ERROR ? "error" : level == MCPDESC_WARNING ? "warning" : "info";
}

/* *ERR (when ERR is not NULL): every error of ERRS, one per line, new. */
static void errors_text(const struct diag_list *errs, const char *path, char **err)
{
    if (!err) return;
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < errs->len; i++) {
        const struct diag *d = &errs->items[i];
        loc_add(&b, d->file ? d->file : path, d->line, d->col);
        buf_addf(&b, ": %s\n", d->message);
    }
    if (!b.len) buf_addf(&b, "%s: cannot load the rule set\n", path);
    *err = buf_detach(&b);
}

/* Load the set in DIR (a release directory NAME@TAG/ stands for its rules/) with the one
 * release search path (release.h) and PIN ("NAME@TAG@sha256:HEX" or NULL). */
static mcpdesc_rules *load(const char *dir, const char *pin, char **err)
{
    char *rel = release_rules_dir(dir);
    char *m = xasprintf("%s/manifest.yaml", dir);
    const char *path = rel && access(m, F_OK) != 0 ? rel : dir;
    free(m);
    struct release_search rp;
    release_search_init(&rp);
    struct rule_load_opts lo = {rp.path.dirs, rp.path.n, NULL, 0, NULL, &pin, pin ? 1 : 0};
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load_with(path, &lo, &errs);
    if (!rs) errors_text(&errs, path, err);
    diag_list_release(&errs);
    release_search_release(&rp);
    free(rel);
    if (!rs) return NULL;
    mcpdesc_rules *r = xmalloc(sizeof *r);
    r->rs = rs;
    return r;
}

mcpdesc_rules *mcpdesc_rules_load(const char *dir, char **err)
{
    if (err) *err = NULL;
    char *path = dir ? xstrdup(dir) : release_default_rules();
    mcpdesc_rules *r = load(path, NULL, err);
    free(path);
    return r;
}

mcpdesc_rules *mcpdesc_rules_load_tag(const char *spec, char **err)
{
    if (err) *err = NULL;
    char *name, *tag, *digest;
    if (!spec || release_parse_pin(spec, "mcpdesc-mcp", &name, &tag, &digest) < 0) {
        if (err)
            *err = xasprintf("'%s' is not TAG, NAME@TAG or NAME@TAG@sha256:HEX\n",
                             spec ? spec : "(null)");
        return NULL;
    }
    struct release_search rp;
    release_search_init(&rp);
    char *dir = release_find(&rp.path, name, tag);
    mcpdesc_rules *r = NULL;
    if (!dir) {
        if (err) {
            struct buf where = BUF_INIT;
            for (size_t i = 0; i < rp.path.n; i++)
                buf_addf(&where, "%s%s", i ? ", " : "", rp.path.dirs[i]);
            *err = xasprintf("no release %s@%s in %s\n", name, tag, buf_str(&where));
            buf_release(&where);
        }
    } else {
        char *pin = digest ? xasprintf("%s@%s@%s", name, tag, digest) : NULL;
        r = load(dir, pin, err);
        const char *released = r ? rule_set_released_tag(r->rs) : NULL;
        if (r &&
            (!released || strcmp(released, tag) || strcmp(rule_set_name(r->rs), name) ||
             (digest && strcmp(rule_set_digest(r->rs), digest)))) {
            if (err)
                *err = xasprintf("%s: the release there is %s %s (%s), not %s\n", dir,
                                 rule_set_name(r->rs), rule_set_display_tag(r->rs),
                                 rule_set_digest(r->rs), spec);
            mcpdesc_rules_free(r);
            r = NULL;
        }
        free(pin);
    }
    free(dir);
    release_search_release(&rp);
    free(name);
    free(tag);
    free(digest);
    return r;
}

int mcpdesc_rules_verify_digest(const mcpdesc_rules *rules, const char *digest)
{
    return rules && digest && !strcmp(rule_set_digest(rules->rs), digest);
}

void mcpdesc_rules_free(mcpdesc_rules *rules)
{
    if (!rules) return;
    rule_set_free(rules->rs);
    free(rules);
}

const char *mcpdesc_rules_tag(const mcpdesc_rules *rules)
{
    return rule_set_released_tag(rules->rs);
}
const char *mcpdesc_rules_digest(const mcpdesc_rules *rules)
{
    return rule_set_digest(rules->rs);
}

/* Judge SRC (judge.h: the path `mcpdesc validate` takes) and build the public view: a
 * document that was not judged has its one error as its diagnostic. */
static mcpdesc_result *judge(const mcpdesc_rules *rules, const struct judge_source *src)
{
    mcpdesc_result *res = xcalloc(1, sizeof *res);
    struct judge_result jr;
    judge_document(rules->rs, src, NULL, &jr);
    if (jr.error) {
        diag_add(&res->diags, DIAG_ERROR, NULL, src->name, jr.error->line, jr.error->col,
                 jr.error->message);
    } else {
        res->parsed = 1;
        res->diags = jr.diags; /* taken over */
        jr.diags = (struct diag_list)DIAG_LIST_INIT;
    }
    judge_result_release(&jr);
    size_t n = res->diags.len;
    res->view = xcalloc(n ? n : 1, sizeof *res->view);
    res->versions = xcalloc(n ? n : 1, sizeof *res->versions);
    for (size_t i = 0; i < n; i++) {
        const struct diag *dg = &res->diags.items[i];
        struct buf b = BUF_INIT;
        ver_format(&b, rule_set_versions(rules->rs), dg->versions, ", ");
        res->versions[i] = b.len ? buf_detach(&b) : xstrdup("");
        buf_release(&b);
        res->view[i] = (struct mcpdesc_diag){
            (enum mcpdesc_level)dg->level,
            dg->rule,
            dg->file ? dg->file : src->name,
            dg->line,
            dg->col,
            dg->pointer ? dg->pointer : "",
            res->versions[i],
            dg->message,
            dg->hint,
            dg->component,
        };
    }
    return res;
}

mcpdesc_result *mcpdesc_validate_file(const mcpdesc_rules *rules, const char *path)
{
    if (!rules || !path) return NULL;
    struct judge_source src = {JUDGE_FILE, !strcmp(path, "-") ? "<stdin>" : path, path, NULL, 0};
    return judge(rules, &src);
}

mcpdesc_result *mcpdesc_validate_buffer(const mcpdesc_rules *rules, const char *name,
                                        const char *data, size_t len)
{
    if (!rules) return NULL;
    struct judge_source src = {JUDGE_BUFFER, name ? name : "<buffer>", NULL, data, len};
    return judge(rules, &src);
}

void mcpdesc_result_free(mcpdesc_result *res)
{
    if (!res) return;
    for (size_t i = 0; i < res->diags.len; i++) free(res->versions[i]);
    free(res->versions);
    free(res->view);
    diag_list_release(&res->diags);
    free(res);
}

int mcpdesc_result_parsed(const mcpdesc_result *res)
{
    return res && res->parsed;
}

size_t mcpdesc_result_count(const mcpdesc_result *res)
{
    return res ? res->diags.len : 0;
}

const struct mcpdesc_diag *mcpdesc_result_diag(const mcpdesc_result *res, size_t i)
{
    return res && i < res->diags.len ? &res->view[i] : NULL;
}

size_t mcpdesc_result_count_at_least(const mcpdesc_result *res, enum mcpdesc_level level)
{
    size_t n = 0;
    for (size_t i = 0; res && i < res->diags.len; i++)
        if ((int)res->diags.items[i].level >= (int)level) n++;
    return n;
}
