/* main.c - the mcpdesc command line: dispatch to cmd_<family>(). Each family parses
 * its own options and returns the exit status (0 ok, 1 findings, 2 usage/input). */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "cli/cmd.h"

#ifdef MCPDESC_WASM
/* The WebAssembly build (mk/wasm.mk) cannot start a server process nor serve an editor
 * over a long-lived pipe: capture and lsp are the native program's. */
static int native_only(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr,
            "mcpdesc: '%s' is not in the WebAssembly build: it needs %s; use the native "
            "mcpdesc (built with make, or the Debian package: docs/wasm.md)\n",
            argv[0],
            !strcmp(argv[0], "capture") ? "to start the server's process or reach its URL"
                                        : "a language server's process for the editor");
    return 2;
}
#define cmd_capture native_only
#define cmd_lsp native_only
#endif

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"validate", cmd_validate, "check description documents against the rule set"},
    {"diff", cmd_diff, "what changed from an old description to a new one: breaks, rug pulls"},
    {"rules", cmd_rules, "list, explain, lint, test, render, lock, pack, pin and diff rules"},
    {"schema", cmd_schema, "validate instances against a JSON Schema, check schemas"},
    {"capture", cmd_capture, "describe a running MCP server"},
    {"baseline", cmd_baseline, "record today's findings, so validate --baseline shows new ones"},
    {"fix", cmd_fix, "apply the fixes the rules declare, in place"},
    {"lsp", cmd_lsp, "a language server for editors (LSP over standard input and output)"},
};

static void usage(FILE *out)
{
    fputs("usage: mcpdesc COMMAND [OPTIONS] ...\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nmcpdesc COMMAND --help shows a command's options.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mcpdesc %s\n", MCPDESC_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    /* a near miss (valdate) names the command, within a third of its length (one edit
     * for fix and lsp, two for validate): alone, as an unknown option does */
    const char *best = NULL;
    size_t bd = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t d = util_edit_distance(argv[1], commands[i].name);
        size_t most = strlen(commands[i].name) / 3;
        if (d <= (most ? most : 1) && (!best || d < bd)) {
            best = commands[i].name;
            bd = d;
        }
    }
    if (best) {
        fprintf(stderr, "mcpdesc: unknown command '%s': did you mean '%s'?\n", argv[1], best);
        return 2;
    }
    fprintf(stderr, "mcpdesc: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
