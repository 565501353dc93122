/* cmd_config.c - see cmd_config.h. */
#include "cli/cmd_config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd_common.h"
#include "base/buf.h"
#include "base/loc.h"
#include "rules/release.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int env_says_no_config(void)
{
    const char *e = getenv("MCPDESC_NO_CONFIG");
    return e && *e && strcmp(e, "0") != 0;
}

int cmd_config_find(const char *given, int none, char **path)
{
    *path = NULL;
    if (given) {
        *path = xstrdup(given);
        return 0;
    }
    if (none || env_says_no_config()) return 0;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return 0;
    static const char *const names[] = {CMD_CONFIG_NAMES};
    struct buf up = BUF_INIT; /* "" then "../", "../../", ... */
    for (;;) {
        const char *found = NULL;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            char *p = xasprintf("%s/%s", cwd, names[i]);
            if (exists(p)) {
                if (found) {
                    fprintf(stderr,
                            "mcpdesc: both %s%s and %s%s exist: keep one (or name one with "
                            "--config FILE)\n",
                            buf_str(&up), found, buf_str(&up), names[i]);
                    free(p);
                    buf_release(&up);
                    return 2;
                }
                found = names[i];
            }
            free(p);
        }
        if (found) {
            *path = xasprintf("%s%s", buf_str(&up), found);
            break;
        }
        char *git = xasprintf("%s/.git", cwd);
        int root = exists(git) || !strcmp(cwd, "/");
        free(git);
        if (root) break;
        char *slash = strrchr(cwd, '/');
        if (slash == cwd) slash[1] = '\0';
        else *slash = '\0';
        buf_adds(&up, "../");
    }
    buf_release(&up);
    return 0;
}

struct config *cmd_config_load(const char *path)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct config *c = config_load(path, &errs);
    if (!c) {
        cmd_print_errors(stderr, &errs);
        fprintf(stderr, "mcpdesc: the config %s has %zu error%s\n", path, errs.len,
                errs.len == 1 ? "" : "s");
    }
    diag_list_release(&errs);
    return c;
}

static void entry_error(const struct config *c, const struct config_str *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void entry_error(const struct config *c, const struct config_str *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    loc_print(stderr, c->path, e->pos.line, e->pos.col);
    fputs(": error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The rules directory one entry of `rules` names, new; NULL after a message. */
static char *entry_dir(const struct config *c, const struct config_str *e,
                       const struct cmd_release_path *rp)
{
    const char *v = e->s;
    if (!strcmp(v, CMD_DEFAULT_SET)) return cmd_common_rules_dir(NULL);
    if (!strchr(v, '/') && strchr(v, '@')) {
        char *name, *tag, *digest, *dir = NULL;
        if (release_parse_pin(v, CMD_DEFAULT_SET, &name, &tag, &digest) < 0) {
            entry_error(c, e,
                        "rules: '%s' is not NAME@TAG (letters, digits, . - _ +) or a pinned "
                        "NAME@TAG@sha256:HEX (64 lowercase hex digits)",
                        v);
            return NULL;
        }
        free(digest);
        if (!(dir = release_find(&rp->path, name, tag))) {
            entry_error(c, e, "rules: no release %s@%s on the release search path", name, tag);
            release_explain_missing(&rp->path, name, tag, stderr);
        }
        free(name);
        free(tag);
        return dir;
    }
    char *path = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", c->dir, v);
    char *real = realpath(path, NULL); /* "../../examples/acme/rules" read as itself */
    if (real) {
        free(path);
        path = real;
    }
    char *m = xasprintf("%s/manifest.yaml", path), *dir = NULL;
    if (exists(m)) dir = xstrdup(path);
    else if (!(dir = release_rules_dir(path)))
        entry_error(c, e,
                    "rules: no rule set at %s (neither a directory with manifest.yaml nor a "
                    "release directory NAME@TAG/); write %s, NAME@TAG or a path relative to "
                    "the config",
                    path, CMD_DEFAULT_SET);
    free(m);
    free(path);
    return dir;
}

struct rule_set *cmd_config_rules(const struct config *c)
{
    struct cmd_release_path rp;
    cmd_release_path_init(&rp);
    size_t n = c->rules.len;
    char **dirs = xcalloc(n, sizeof *dirs);
    int ok = 1;
    for (size_t i = 0; i < n; i++) ok &= (dirs[i] = entry_dir(c, &c->rules.items[i], &rp)) != NULL;
    struct rule_set *rs = NULL;
    /* the pinned entries' digests, "NAME@TAG@sha256:HEX", for the loader */
    VEC(char *) pins = VEC_INIT;
    for (size_t i = 0; ok && i < n; i++) {
        char *name, *tag, *digest;
        const char *v = c->rules.items[i].s;
        if (strchr(v, '/') || !strchr(v, '@') ||
            release_parse_pin(v, CMD_DEFAULT_SET, &name, &tag, &digest) < 0)
            continue;
        if (digest) VEC_PUSH(pins, xasprintf("%s@%s@%s", name, tag, digest));
        free(name);
        free(tag);
        free(digest);
    }
    if (ok) {
        struct diag_list errs = DIAG_LIST_INIT;
        struct rule_load_opts lo = {rp.path.dirs, rp.path.n, (const char *const *)dirs,
                                    n - 1,        NULL,      (const char *const *)pins.items,
                                    pins.len};
        if (!(rs = rule_set_load_with(dirs[n - 1], &lo, &errs))) {
            cmd_print_errors(stderr, &errs);
            /* a pin the loader refused: say where the config writes it */
            for (size_t i = 0; i < n; i++) {
                const char *v = c->rules.items[i].s, *d = strstr(v, "@sha256:");
                for (size_t k = 0; d && k < errs.len; k++)
                    if (strstr(errs.items[k].message, "pinned") &&
                        strstr(errs.items[k].message, d + 1)) {
                        entry_error(c, &c->rules.items[i],
                                    "rules: the set found for %s has another digest (above)", v);
                        break;
                    }
            }
            fprintf(stderr, "mcpdesc: the rule set%s named by %s's rules %s %zu error%s\n",
                    n > 1 ? "s" : "", c->path, n > 1 ? "have" : "has", errs.len,
                    errs.len == 1 ? "" : "s");
        }
        diag_list_release(&errs);
    }
    /* a NAME@TAG entry runs only the set released as that tag */
    for (size_t k = 0; rs && k < n; k++) {
        const struct config_str *e = &c->rules.items[k];
        char *name, *tag, *digest;
        if (strchr(e->s, '/') || !strchr(e->s, '@') ||
            release_parse_pin(e->s, CMD_DEFAULT_SET, &name, &tag, &digest) < 0)
            continue;
        const struct rule_set *s = rs;
        for (size_t j = n - 1; j > k && s; j--) s = rule_set_base(s);
        const char *rel = s ? rule_set_released_tag(s) : NULL;
        if (!s || !rel || strcmp(rel, tag) || strcmp(rule_set_name(s), name)) {
            entry_error(
                c, e, "rules: the release in %s is not %s@%s (it is %s %s): refusing to run",
                dirs[k], name, tag, s ? rule_set_name(s) : "?", s ? rule_set_display_tag(s) : "?");
            rule_set_free(rs);
            rs = NULL;
        } else if (digest) {
            char *where = loc_format(c->path, e->pos.line, e->pos.col);
            if (!cmd_common_pin_matches(s, name, tag, digest, where, stderr)) {
                rule_set_free(rs);
                rs = NULL;
            }
            free(where);
        }
        free(name);
        free(tag);
        free(digest);
    }
    for (size_t i = 0; i < pins.len; i++) free(pins.items[i]);
    VEC_FREE(pins);
    for (size_t i = 0; i < n; i++) free(dirs[i]);
    free(dirs);
    cmd_release_path_release(&rp);
    return rs;
}
