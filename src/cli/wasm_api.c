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
 * Compiled only into the WebAssembly builds (MCPDESC_WASM): the native program has no use
 * for it. The API module links cmd_validate.c built with MCPDESC_FREE_AT_EXIT, so that a
 * call frees its rule set and documents instead of leaving them to a process exit that
 * never comes. */
#ifdef MCPDESC_WASM
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv);
int mcpdesc_wasm_run(int argc, char **argv);
void mcpdesc_wasm_env_clear(void);
int mcpdesc_wasm_env_set(const char *name, const char *value);

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
#endif
