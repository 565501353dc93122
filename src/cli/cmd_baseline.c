/* cmd_baseline.c - `mcpdesc baseline write FILE [validate options] INPUTS...`: judge the
 * inputs as validate does (cmd_validate_then) and record every finding in FILE
 * (findings/baseline.h), so that `validate --baseline FILE` reports only new ones. The file
 * is written through a temporary file renamed when complete; nothing is written when an
 * input cannot be judged. Exit 0 written (whatever the findings), 2 bad usage, an input
 * that cannot be judged, or a file that cannot be written. */
#include <errno.h>
#include <string.h>

#include "base/loc.h"
#include "cli/cmd.h"
#include "cli/cmd_common.h"
#include "findings/baseline.h"
#include "findings/report.h"

static void usage(FILE *f)
{
    fputs("usage: mcpdesc baseline write FILE [VALIDATE OPTIONS] FILE|DIR|- ...\n"
          "\n"
          "Record today's findings, so that `mcpdesc validate --baseline FILE` reports only\n"
          "new ones (a team adopting mcpdesc on an existing server fixes what it adds, not\n"
          "everything at once) and lists the recorded ones that are gone, so the baseline\n"
          "can shrink: run this command again to drop them.\n"
          "\n"
          "The inputs are judged as validate judges them, with its options that choose what\n"
          "is judged (see mcpdesc validate --help; those of the report are refused):\n"
          "  --rules DIR, --rules-tag TAG, --preset PRESET, --config FILE, --no-config,\n"
          "  --protocol-version V, --rule GLOB, --skip GLOB, --stdin-filepath NAME,\n"
          "  -j, --jobs N, --strict-inputs, --only-descriptions, --together\n"
          "Like validate, it reads the config found from the current directory upward (its\n"
          "levels, ignores and suppressions apply). Every finding of every level is recorded\n"
          "with its fingerprint, which does not change when tools, resources or prompts are\n"
          "reordered or others inserted: the rule, the file, the item (a tool or prompt by\n"
          "name, a resource by uri, a template by uriTemplate), the pointer inside the item\n"
          "and the versions.\n"
          "\n"
          "FILE is JSON in a stable order, meant to be checked in; it names files relative to\n"
          "its own directory, so validate --baseline FILE matches them from any directory.\n"
          "- writes it to standard output (files then relative to the config's directory, or\n"
          "the current one). It is written through a temporary file, renamed when\n"
          "complete; nothing is written when an input cannot be read, parsed or judged.\n"
          "\n"
          "Exit status: 0 written (whatever was found), 2 bad usage, an input that cannot\n"
          "be judged, a rule set that cannot be loaded, or FILE cannot be written.\n",
          f);
}

static int write_baseline(const struct rule_set *rs, const struct report_file *files, size_t n,
                          int status, const char *anchor, const struct cmd_judged_run *run,
                          void *arg)
{
    const char *path = arg;
    if (status == 2) {
        /* validate reports these in its report; here they are the reason for writing nothing */
        for (size_t i = 0; i < n; i++)
            if (files[i].error) {
                loc_print(stderr, files[i].name, files[i].error->line, files[i].error->col);
                fprintf(stderr, ": error: %s\n", files[i].error->message);
            }
        fprintf(stderr, "mcpdesc baseline write: nothing written: an input could not be judged\n");
        return 2;
    }
    long count = baseline_write(path, anchor, run->cwd, rs, files, n);
    if (count < 0) {
        fprintf(stderr, "mcpdesc baseline write: cannot write '%s': %s\n", path, strerror(errno));
        return 2;
    }
    size_t judged = 0;
    for (size_t i = 0; i < n; i++) judged += files[i].d != NULL;
    fprintf(strcmp(path, "-") ? stdout : stderr,
            "baseline: %ld finding%s of %zu file%s recorded in %s\n", count, count == 1 ? "" : "s",
            judged, judged == 1 ? "" : "s", strcmp(path, "-") ? path : "standard output");
    return 0;
}

int cmd_baseline(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "write")) {
        fprintf(stderr, "mcpdesc baseline: unknown subcommand '%s' (there is one: write)\n",
                argv[1]);
        return 2;
    }
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    if (argc < 3 || (argv[2][0] == '-' && argv[2][1])) {
        fprintf(stderr,
                "mcpdesc baseline write: the first argument is the baseline FILE to write "
                "(- for standard output)\n");
        return 2;
    }
    /* argv[2] is FILE; validate's options and inputs follow it: argv[2] becomes their argv[0] */
    return cmd_validate_then("baseline write", argc - 2, argv + 2, write_baseline, argv[2],
                             argv[2]);
}
