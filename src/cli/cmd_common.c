/* cmd_common.c - see cmd_common.h. */
#include "cli/cmd_common.h"

#include <fnmatch.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/loc.h"
#include "base/util.h"
#include "doc/doc.h"
#include "rules/lock.h"
#include "rules/release.h"

static int is_rule_dir(const char *dir)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    int ok = access(m, R_OK) == 0;
    free(m);
    return ok;
}

/* A release directory NAME@TAG/ given where a rule set directory is expected stands for
 * its rules/ directory. */
static char *rules_dir_of(const char *dir)
{
    if (is_rule_dir(dir)) return xstrdup(dir);
    char *rel = release_rules_dir(dir);
    return rel ? rel : xstrdup(dir);
}

char *cmd_common_rules_dir(const char *given)
{
    return cmd_common_rules_dir_why(given, NULL);
}

char *cmd_common_rules_dir_why(const char *given, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = "given";
    if (given) return rules_dir_of(given);
    const char *env = getenv("MCPDESC_RULES");
    *why = "$MCPDESC_RULES";
    if (env && *env) return rules_dir_of(env);
    char *tree = release_tree_root();
    *why = tree ? "the default: the build tree's rules-yaml/" : "the default: the installed set";
    free(tree);
    char *dflt = release_default_rules();
    char *dir = rules_dir_of(dflt);
    free(dflt);
    return dir;
}

int cmd_manifest_names(const doc *m, char **name, char **tag)
{
    return rule_set_load_names(m, name, tag);
}

int cmd_rule_manifest(const char *dir, char **name, char **tag)
{
    return rule_set_load_probe(dir, name, tag);
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
    release_search_init(&p->search);
    p->path = p->search.path;
}

void cmd_release_path_release(struct cmd_release_path *p)
{
    release_search_release(&p->search);
}

void cmd_print_errors(FILE *f, const struct diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        loc_print(f, d->file ? d->file : "mcpdesc", d->line, d->col);
        fprintf(f, ": error: %s\n", d->message);
    }
}

static struct rule_set *load_dir(const char *dir, const struct cmd_release_path *rp,
                                 const char *pin)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = NULL;
    if (!is_rule_dir(dir)) {
        fprintf(stderr, "mcpdesc: no rule set at '%s' (no manifest.yaml there); pass --rules DIR\n",
                dir);
    } else {
        struct rule_load_opts lo = {rp->path.dirs, rp->path.n, NULL, 0, NULL, &pin, pin ? 1 : 0};
        rs = rule_set_load_with(dir, &lo, &errs);
        if (!rs) {
            cmd_print_errors(stderr, &errs);
            /* errors in rule files (file:line:col): lint lists them with the rest; a set
             * refused as a whole (not the release it claims) gains nothing from lint */
            int in_files = 0;
            for (size_t i = 0; i < errs.len; i++) in_files |= errs.items[i].line > 0;
            if (in_files)
                fprintf(stderr,
                        "mcpdesc: the rule set in '%s' has %zu error%s; `mcpdesc rules lint "
                        "%s` lists them\n",
                        dir, errs.len, errs.len == 1 ? "" : "s", dir);
            else fprintf(stderr, "mcpdesc: refusing to run the rule set in '%s'\n", dir);
        }
    }
    diag_list_release(&errs);
    return rs;
}

int cmd_common_pin_matches(const struct rule_set *rs, const char *name, const char *tag,
                           const char *digest, const char *where, FILE *err)
{
    if (!strcmp(rule_set_name(rs), name) && !strcmp(rule_set_tag(rs), tag) &&
        !strcmp(rule_set_digest(rs), digest))
        return 1;
    fprintf(err,
            "%s: error: the rule set in %s is %s %s with the digest %s, not the pinned "
            "%s@%s@%s: refusing to run; restore the set the pin names; or, if you checked "
            "this one and mean to run it, write its NAME@TAG without the digest and run "
            "`mcpdesc rules pin`\n",
            where, rule_set_dir(rs), rule_set_name(rs), rule_set_display_tag(rs),
            rule_set_digest(rs), name, tag, digest);
    return 0;
}

struct rule_set *cmd_load_rules_tagged(const char *given_dir, const char *spec)
{
    struct cmd_release_path rp;
    cmd_release_path_init(&rp);
    struct rule_set *rs = NULL;
    char *name = NULL, *t = NULL, *digest = NULL, *pin = NULL;
    if (spec && release_parse_pin(spec, CMD_DEFAULT_SET, &name, &t, &digest) < 0) {
        fprintf(stderr,
                "mcpdesc: '%s' is not a tag (TAG or NAME@TAG: letters, digits, . - _ +; a "
                "pinned one is NAME@TAG@sha256: and 64 lowercase hex digits)\n",
                spec);
        cmd_release_path_release(&rp);
        return NULL;
    }
    if (digest) pin = xasprintf("%s@%s@%s", name, t, digest);
    if (spec && !given_dir) {
        /* a pinned run without --rules runs the release itself */
        char *dir = release_find(&rp.path, name, t);
        if (!dir) release_explain_missing(&rp.path, name, t, stderr);
        else if ((rs = load_dir(dir, &rp, pin)) &&
                 (!rule_set_released_tag(rs) || strcmp(rule_set_released_tag(rs), t) ||
                  strcmp(rule_set_name(rs), name))) {
            fprintf(stderr,
                    "mcpdesc: the release in %s is not %s@%s (it is %s %s): refusing to "
                    "run; restore the release (reinstall mcpdesc, or copy %s@%s/ from the "
                    "rules-yaml/releases of its source), or run an edited copy with --rules "
                    "PATH (reported as modified)\n",
                    dir, name, t, rule_set_name(rs), rule_set_display_tag(rs), name, t);
            cmd_release_differences(rs, stderr);
            rule_set_free(rs);
            rs = NULL;
        }
        free(dir);
    } else {
        char *dir = cmd_common_rules_dir(given_dir);
        rs = load_dir(dir, &rp, pin);
        free(dir);
        if (rs && spec && lock_verify(rs, t, stderr) < 0) {
            rule_set_free(rs);
            rs = NULL;
        }
    }
    if (rs && digest && !cmd_common_pin_matches(rs, name, t, digest, "mcpdesc", stderr)) {
        rule_set_free(rs);
        rs = NULL;
    }
    free(name);
    free(t);
    free(digest);
    free(pin);
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

void cmd_release_differences(const struct rule_set *rs, FILE *err)
{
    char *path = xasprintf("%s/SHA256SUMS", rule_set_dir(rs));
    struct buf sums = BUF_INIT, why = BUF_INIT;
    if (buf_read_file(&sums, path) == 0) {
        lock_sums_differences(buf_str(&sums), rule_set_sums(rs), &why);
        const struct rule_set *b = rule_set_base(rs);
        char *base = b ? xasprintf("  extends/%s@%s.SHA256SUMS: differs from the release's file\n",
                                   rule_set_name(b), rule_set_tag(b))
                       : NULL;
        const char *at = base ? strstr(buf_str(&why), base) : NULL;
        if (at) { /* name the base, with its path, rather than a line of the digest */
            fwrite(buf_str(&why), 1, (size_t)(at - buf_str(&why)), err);
            fprintf(err,
                    "  its base %s@%s (in %s) is not the one it was released with: the base's "
                    "digest is %s\n",
                    rule_set_name(b), rule_set_tag(b), rule_set_dir(b), rule_set_digest(b));
            fputs(at + strlen(base), err);
        } else {
            fputs(buf_str(&why), err);
        }
        free(base);
    }
    buf_release(&sums);
    buf_release(&why);
    free(path);
}

/* Write TEXT over the file NAME (a symbolic link's target) through a temporary file in its
 * directory, renamed over it, with its mode. 0, or -1 with a message on stderr (the file
 * unchanged). */
int cmd_write_atomically(const char *label, const char *name, const char *text, size_t len)
{
    struct stat st;
    char *path = realpath(name, NULL); /* a symbolic link: its target is written */
    if (!path || stat(path, &st) < 0) {
        fprintf(stderr, "mcpdesc %s: %s: %s\n", label, name, strerror(errno));
        free(path);
        return -1;
    }
    const char *slash = strrchr(path, '/');
    char *tmp = slash
        ? xasprintf("%.*s/.%s.mcpdesc-fix-XXXXXX", (int)(slash - path), path, slash + 1)
        : xasprintf(".%s.mcpdesc-fix-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "mcpdesc %s: %s: cannot write (a temporary file in its directory: %s)\n",
                label, name, strerror(errno));
        free(tmp);
        free(path);
        return -1;
    }
    int ok = 1;
    for (size_t off = 0; ok && off < len;) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) ok = 0;
        else off += (size_t)w;
    }
    int err = ok ? 0 : errno;
    if (ok && fchmod(fd, st.st_mode & 07777) < 0) ok = 0, err = errno;
    if (ok && fsync(fd) < 0) ok = 0, err = errno;
    if (close(fd) < 0 && ok) ok = 0, err = errno;
    if (ok && rename(tmp, path) < 0) ok = 0, err = errno;
    if (!ok) {
        unlink(tmp);
        fprintf(stderr, "mcpdesc %s: %s: cannot write: %s\n", label, name, strerror(err));
    }
    free(tmp);
    free(path);
    return ok ? 0 : -1;
}
