/* wasm_api.c - the npm package's in-process API module (mk/npm.mk, docs/npm.md): the
 * command line called as a function, again and again in one WebAssembly instance, instead
 * of once per node process. tools/npm/api-pre.js gives each call its arguments, working
 * directory, environment and standard input, and keeps what it writes to standard output
 * and error; tools/npm/index.js builds the arguments (validate --format json, rules list
 * --format json) and reads the JSON report.
 *
 * Why the command line and not mcpdesc.h alone: what validate does around judging a
 * document (the preset and --rule/--skip filter, the config's discovery, levels and
 * suppressions, inline x-mcpdesc-ignore, fingerprints and the baseline, the JSON report's
 * assembly) lives only in src/cli/cmd_validate.c, cmd_config.c and cmd_common.c; calling
 * it keeps the findings the native program's, field by field, without a second copy.
 *
 * Compiled only for the API module (MCPDESC_WASM_API, mk/npm.mk): the native program and
 * the command line's module have no use for it (for them this file is empty). The API
 * module links cmd_validate.c built with MCPDESC_FREE_AT_EXIT, so that a call frees its
 * rule set and documents instead of leaving them to a process exit that never comes;
 * and it is linked with --wrap for the two functions below that keep the carried rule
 * sets loaded from one call to the next. */
#ifdef MCPDESC_WASM_API
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "rules/rule.h"

int main(int argc, char **argv);
int mcpdesc_wasm_run(int argc, char **argv);
void mcpdesc_wasm_env_clear(void);
int mcpdesc_wasm_env_set(const char *name, const char *value);
struct rule_set *__real_cmd_load_rules_tagged(const char *given_dir, const char *spec);
struct rule_set *__wrap_cmd_load_rules_tagged(const char *given_dir, const char *spec);
void __real_rule_set_free(struct rule_set *rs);
void __wrap_rule_set_free(struct rule_set *rs);

/* `mcpdesc ARGV[1] ...` (ARGV[0] is the program's name), as main runs it; its exit
 * status. Standard input starts afresh: bytes an earlier call left in its buffer unread
 * (a usage error before reading "-") and its end-of-file are forgotten. What the command
 * wrote is flushed before the caller collects it. */
int mcpdesc_wasm_run(int argc, char **argv)
{
    __fpurge(stdin);
    clearerr(stdin);
    int status = main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    clearerr(stdout);
    clearerr(stderr);
    return status;
}

/* The environment getenv sees (the C library's copy, made once at start-up): emptied,
 * then set variable by variable before each call, as a child process would inherit it. */
void mcpdesc_wasm_env_clear(void)
{
    /* emscripten's C library has no clearenv: each variable unset, the first until none */
    char name[256];
    while (environ && environ[0]) {
        const char *eq = strchr(environ[0], '=');
        size_t n = eq ? (size_t)(eq - environ[0]) : strlen(environ[0]);
        if (n == 0 || n >= sizeof name) { /* not a name unsetenv takes: dropped by hand */
            for (char **e = environ; *e; e++) e[0] = e[1];
            continue;
        }
        memcpy(name, environ[0], n);
        name[n] = '\0';
        unsetenv(name);
    }
}

int mcpdesc_wasm_env_set(const char *name, const char *value)
{
    return setenv(name, value, 1);
}

/* The rule sets this instance carries (MCPDESC_DATADIR, in memory: they never change),
 * loaded once and kept for every later call that asks for the same one: a load is
 * nearly all of a call's time (45 ms of 50 on a small description). Kept only when the
 * search cannot reach the host's files: no --rules folder, no $MCPDESC_RULES, no
 * $MCPDESC_RULES_PATH (cmd_common.h, release.h: then every place searched is under
 * MCPDESC_DATADIR). Anything else is loaded by each call, as the command line does. */
enum { KEPT_MAX = 8 };
static struct {
    char *spec; /* the --rules-tag given, "" for none */
    struct rule_set *rs;
} kept[KEPT_MAX];
static size_t nkept;

static int only_carried_sets_reachable(const char *given_dir)
{
    const char *rules = getenv("MCPDESC_RULES"), *path = getenv("MCPDESC_RULES_PATH");
    return !given_dir && !(rules && *rules) && !(path && *path);
}

static int carried(const struct rule_set *rs)
{
    const char *dir = rule_set_dir(rs), *top = MCPDESC_DATADIR "/";
    return dir && !strncmp(dir, top, strlen(top));
}

/* cmd_load_rules_tagged (cmd_common.h) with the carried sets kept */
struct rule_set *__wrap_cmd_load_rules_tagged(const char *given_dir, const char *spec)
{
    if (!only_carried_sets_reachable(given_dir))
        return __real_cmd_load_rules_tagged(given_dir, spec);
    const char *key = spec ? spec : "";
    for (size_t i = 0; i < nkept; i++)
        if (!strcmp(kept[i].spec, key)) return kept[i].rs;
    struct rule_set *rs = __real_cmd_load_rules_tagged(given_dir, spec);
    if (rs && nkept < KEPT_MAX && carried(rs)) {
        kept[nkept].spec = xstrdup(key);
        kept[nkept++].rs = rs;
    }
    return rs;
}

/* rule_set_free (rule.h), which a call's end does: never of a kept set */
void __wrap_rule_set_free(struct rule_set *rs)
{
    for (size_t i = 0; i < nkept; i++)
        if (kept[i].rs == rs) return;
    __real_rule_set_free(rs);
}
#endif
