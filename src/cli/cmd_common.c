/* cmd_common.c - see cmd_common.h. */
#include "cli/cmd_common.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "core/doc.h"
#include "core/lock.h"
#include "core/release.h"

static int is_rule_dir(const char *dir)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    int ok = access(m, R_OK) == 0;
    free(m);
    return ok;
}

/* The directory of the running binary, new; NULL when /proc cannot say. */
static char *exe_dir(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    return xstrdup(exe);
}

/* A release directory NAME@TAG/ given where a rule set directory is expected stands for
 * its rules/ directory. */
static char *rules_dir_of(const char *dir)
{
    if (is_rule_dir(dir)) return xstrdup(dir);
    char *rel = release_rules_dir(dir);
    return rel ? rel : xstrdup(dir);
}

char *cmd_rules_dir(const char *given)
{
    return cmd_rules_dir_why(given, NULL);
}

char *cmd_rules_dir_why(const char *given, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = "given";
    if (given) return rules_dir_of(given);
    const char *env = getenv("MCPDESC_RULES");
    *why = "$MCPDESC_RULES";
    if (env && *env) return rules_dir_of(env);
    *why = "the default: the build tree's rules-yaml/";
    char *exe = exe_dir();
    if (exe) {
        /* build/mcpdesc and build/san/mcpdesc both sit below the source tree; an
         * installed PREFIX/bin/mcpdesc finds PREFIX/share/mcpdesc/rules (the installed
         * release of the default tag) wherever PREFIX was moved to (DESTDIR staging,
         * relocated packages) */
        static const char *const ups[] = {"/../rules-yaml", "/../../rules-yaml",
                                          "/../share/mcpdesc/rules"};
        for (size_t i = 0; i < sizeof ups / sizeof *ups; i++) {
            char *cand = xasprintf("%s%s", exe, ups[i]);
            if (is_rule_dir(cand)) {
                /* messages name /src/rules-yaml, not /src/build/../rules-yaml */
                char *real = realpath(cand, NULL);
                free(exe);
                if (!real) return cand;
                free(cand);
                return real;
            }
            free(cand);
        }
        free(exe);
    }
    *why = "the default: the installed set";
    return xstrdup(MCPDESC_DATADIR "/rules");
}

int cmd_rule_manifest(const char *dir, char **name, char **tag)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    struct doc_error err = {0};
    doc *d = access(m, R_OK) == 0 ? doc_load_file(m, NULL, &err) : NULL;
    free(m);
    doc_error_release(&err);
    json_t *root = d ? doc_root(d) : NULL;
    /* the members schema/manifest.schema.json requires, of their types */
    int ok = json_is_object(root) && json_is_string(json_object_get(root, "name")) &&
        json_is_string(json_object_get(root, "tag")) &&
        json_is_array(json_object_get(root, "files"));
    if (ok && name) *name = xstrdup(json_string_value(json_object_get(root, "name")));
    if (ok && tag) *tag = xstrdup(json_string_value(json_object_get(root, "tag")));
    doc_free(d);
    return ok;
}

/* DIR's rule set directory when DIR holds a rule-set manifest, or is a release directory
 * NAME@TAG/ whose rules/ holds one (new); else NULL. */
static char *manifest_here(const char *dir)
{
    if (cmd_rule_manifest(dir, NULL, NULL)) return xstrdup(dir);
    char *rel = release_rules_dir(dir);
    if (rel && cmd_rule_manifest(rel, NULL, NULL)) return rel;
    free(rel);
    return NULL;
}

static int holds_git(const char *dir)
{
    char *g = xasprintf("%s/.git", strcmp(dir, "/") ? dir : "");
    int yes = access(g, F_OK) == 0;
    free(g);
    return yes;
}

char *cmd_nearest_rule_dir(void)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return NULL;
    /* the top: the folder that holds .git (a directory, or a worktree's file), else the
     * working directory alone (outside a repository nothing above it is searched) */
    char *top = xstrdup(cwd);
    for (;;) {
        if (holds_git(top)) break;
        char *slash = strrchr(top, '/');
        if (!slash || slash == top) {
            free(top);
            top = xstrdup(cwd);
            break;
        }
        *slash = '\0';
    }
    char *dir = cwd, *found = NULL;
    for (;;) {
        if ((found = manifest_here(dir)) || !strcmp(dir, top)) break;
        char *slash = strrchr(dir, '/'); /* TOP is DIR or above it: never past "/" */
        if (!slash || slash == dir) break;
        *slash = '\0';
    }
    free(top);
    free(cwd);
    return found;
}

int cmd_option_once(const char *cmd, const char *name, const char **slot, const char *v)
{
    if (*slot) {
        fprintf(stderr,
                "mcpdesc %s: %s given twice ('%s', then '%s'): give it once; a chain of rule "
                "sets is written rules: [A, B] in .mcpdesc.yaml (docs/config.md)\n",
                cmd, name, *slot, v);
        return -1;
    }
    *slot = v;
    return 0;
}

void cmd_release_path_init(struct cmd_release_path *p)
{
    memset(p, 0, sizeof *p);
    const char *env = getenv("MCPDESC_RULES_PATH");
    for (const char *s = env ? env : ""; *s;) {
        size_t n = strcspn(s, ":");
        if (n) VEC_PUSH(p->owned, xstrndup(s, n));
        s += n + (s[n] == ':');
    }
    char *exe = exe_dir();
    if (exe) {
        static const char *const ups[] = {"/../rules-yaml/releases", "/../../rules-yaml/releases",
                                          "/../share/mcpdesc/releases"};
        for (size_t i = 0; i < sizeof ups / sizeof *ups; i++) {
            char *cand = xasprintf("%s%s", exe, ups[i]), *real = realpath(cand, NULL);
            free(cand);
            if (real) VEC_PUSH(p->owned, real);
        }
        free(exe);
    }
    char *installed = realpath(MCPDESC_DATADIR "/releases", NULL);
    VEC_PUSH(p->owned, installed ? installed : xstrdup(MCPDESC_DATADIR "/releases"));
    /* each directory once (the binary's own prefix is often MCPDESC_DATADIR's) */
    size_t keep = 0;
    for (size_t i = 0; i < p->owned.len; i++) {
        int seen = 0;
        for (size_t k = 0; k < keep; k++) seen |= !strcmp(p->owned.items[k], p->owned.items[i]);
        if (seen) free(p->owned.items[i]);
        else p->owned.items[keep++] = p->owned.items[i];
    }
    p->owned.len = keep;
    p->path.dirs = (const char *const *)p->owned.items;
    p->path.n = p->owned.len;
}

void cmd_release_path_release(struct cmd_release_path *p)
{
    for (size_t i = 0; i < p->owned.len; i++) free(p->owned.items[i]);
    VEC_FREE(p->owned);
}

void cmd_print_errors(FILE *f, const struct diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        if (d->line) fprintf(f, "%s:%u:%u: error: %s\n", d->file, d->line, d->col, d->message);
        else fprintf(f, "%s: error: %s\n", d->file ? d->file : "mcpdesc", d->message);
    }
}

static struct rule_set *load_dir(const char *dir, const struct cmd_release_path *rp)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = NULL;
    if (!is_rule_dir(dir)) {
        fprintf(stderr, "mcpdesc: no rule set at '%s' (no manifest.yaml there); pass --rules DIR\n",
                dir);
    } else {
        struct rule_load_opts lo = {rp->path.dirs, rp->path.n, NULL, 0, NULL};
        rs = rule_set_load_with(dir, &lo, &errs);
        if (!rs) {
            cmd_print_errors(stderr, &errs);
            fprintf(stderr,
                    "mcpdesc: the rule set in '%s' has %zu error%s; `mcpdesc rules lint %s` "
                    "lists them\n",
                    dir, errs.len, errs.len == 1 ? "" : "s", dir);
        }
    }
    diag_list_release(&errs);
    return rs;
}

struct rule_set *cmd_load_rules_tagged(const char *given_dir, const char *tag)
{
    struct cmd_release_path rp;
    cmd_release_path_init(&rp);
    struct rule_set *rs = NULL;
    if (tag && !given_dir) {
        /* a pinned run without --rules runs the release itself */
        char *name, *t;
        if (release_parse(tag, CMD_DEFAULT_SET, &name, &t) < 0) {
            fprintf(stderr,
                    "mcpdesc: '%s' is not a tag (TAG or NAME@TAG: letters, digits, . - _ +)\n",
                    tag);
        } else {
            char *dir = release_find(&rp.path, name, t);
            if (!dir) release_explain_missing(&rp.path, name, t, stderr);
            else if ((rs = load_dir(dir, &rp)) &&
                     (!rule_set_released_tag(rs) || strcmp(rule_set_released_tag(rs), t))) {
                fprintf(stderr,
                        "mcpdesc: the release in %s is not %s@%s (it is %s %s): refusing to "
                        "run\n",
                        dir, name, t, rule_set_name(rs), rule_set_display_tag(rs));
                rule_set_free(rs);
                rs = NULL;
            }
            free(dir);
            free(name);
            free(t);
        }
    } else {
        char *dir = cmd_rules_dir(given_dir);
        rs = load_dir(dir, &rp);
        free(dir);
        if (rs && tag && lock_verify(rs, tag, stderr) < 0) {
            rule_set_free(rs);
            rs = NULL;
        }
    }
    cmd_release_path_release(&rp);
    return rs;
}

struct rule_set *cmd_load_rules(const char *given_dir)
{
    return cmd_load_rules_tagged(given_dir, NULL);
}

void cmd_unknown_option(const char *cmd, const char *arg, const char *const *options)
{
    size_t len = strcspn(arg, "=");
    char *name = xstrndup(arg, len);
    const char *best = NULL;
    size_t bd = 4;
    for (; *options; options++) {
        size_t d = util_edit_distance(name, *options);
        if (d < bd) {
            bd = d;
            best = *options;
        }
    }
    if (best)
        fprintf(stderr, "mcpdesc %s: unknown option '%s': did you mean '%s'?\n", cmd, name, best);
    else
        fprintf(stderr, "mcpdesc %s: unknown option '%s' (see mcpdesc %s --help)\n", cmd, name,
                cmd);
    free(name);
}

const char *cmd_option_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (!strncmp(a, name, n) && a[n] == '=') return a + n + 1;
    if (*i + 1 < argc) return argv[++*i];
    fprintf(stderr, "mcpdesc: option '%s' needs a value\n", name);
    return NULL;
}

int cmd_rule_plain_id(const char *g)
{
    return !strpbrk(g, "*?[\\");
}

int cmd_rule_named(const char *id, void *arg)
{
    const struct cmd_filters *f = arg;
    for (size_t i = 0; i < f->only.len; i++)
        if (cmd_rule_plain_id(f->only.items[i]) && !strcmp(f->only.items[i], id)) return 1;
    return 0;
}

/* Does a --rule pattern (an id or a glob) match ID? */
static int rule_selected(const struct cmd_filters *f, const char *id)
{
    for (size_t i = 0; i < f->only.len; i++)
        if (!fnmatch(f->only.items[i], id, 0)) return 1;
    return 0;
}

int cmd_rule_enabled(const char *id, void *arg)
{
    const struct cmd_filters *f = arg;
    if (!id) return 1;
    for (size_t i = 0; i < f->skip.len; i++)
        if (!fnmatch(f->skip.items[i], id, 0)) return 0;
    if (cmd_rule_named(id, arg)) return 1;
    if (f->only.len && !rule_selected(f, id)) return 0;
    enum { UNSET = -2 };
    int level = f->cfg ? config_rule_level(f->cfg, id, UNSET) : UNSET;
    if (level != UNSET) return level != CONFIG_OFF;
    const struct rule *r = f->rs ? rule_set_find(f->rs, id) : NULL;
    return !r || rule_in_preset(r, f->preset);
}

const char *cmd_docs_url(const char *given, const struct config *cfg, const struct rule_set *rs)
{
    if (given) return given;
    if (cfg && cfg->docs_url.s) return cfg->docs_url.s;
    return rs ? rule_set_docs_url(rs) : NULL;
}
