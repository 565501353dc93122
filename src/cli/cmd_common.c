/* cmd_common.c - see cmd_common.h. */
#include "cli/cmd_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static int is_rule_dir(const char *dir)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    int ok = access(m, R_OK) == 0;
    free(m);
    return ok;
}

char *cmd_rules_dir(const char *given)
{
    if (given) return xstrdup(given);
    const char *env = getenv("MCPDESC_RULES");
    if (env && *env) return xstrdup(env);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        /* build/mcpdesc and build/san/mcpdesc both sit below the source tree; an
         * installed PREFIX/bin/mcpdesc finds PREFIX/share/mcpdesc/rules wherever PREFIX
         * was moved to (DESTDIR staging, relocated packages) */
        static const char *const ups[] = {"/../rules-yaml", "/../../rules-yaml",
                                          "/../share/mcpdesc/rules"};
        for (size_t i = 0; i < sizeof ups / sizeof *ups; i++) {
            char *cand = xasprintf("%s%s", exe, ups[i]);
            if (is_rule_dir(cand)) return cand;
            free(cand);
        }
    }
    return xstrdup(MCPDESC_DATADIR "/rules");
}

void cmd_print_errors(FILE *f, const struct diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        if (d->line) fprintf(f, "%s:%u:%u: error: %s\n", d->file, d->line, d->col, d->message);
        else fprintf(f, "%s: error: %s\n", d->file ? d->file : "mcpdesc", d->message);
    }
}

struct rule_set *cmd_load_rules(const char *given_dir)
{
    char *dir = cmd_rules_dir(given_dir);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = NULL;
    if (!is_rule_dir(dir)) {
        fprintf(stderr, "mcpdesc: no rule set at '%s' (no manifest.yaml there); pass --rules DIR\n",
                dir);
    } else {
        rs = rule_set_load(dir, &errs);
        if (!rs) {
            cmd_print_errors(stderr, &errs);
            fprintf(stderr,
                    "mcpdesc: the rule set in '%s' has %zu error%s; `mcpdesc rules lint %s` "
                    "lists them\n",
                    dir, errs.len, errs.len == 1 ? "" : "s", dir);
        }
    }
    diag_list_release(&errs);
    free(dir);
    return rs;
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
