/* cmd.h - command families of the CLI. Each takes argv with argv[0] = its own name
 * ("validate", "rules", ...) and returns the process exit status: 0 ok, 1 findings,
 * 2 bad usage, unreadable input or rule set. */
#ifndef MCPDESC_CMD_H
#define MCPDESC_CMD_H

#include <stddef.h>

struct rule_set;
struct report_file;

int cmd_validate(int argc, char **argv);
/* `mcpdesc diff OLD NEW` (cmd_diff.c): validate's options and reports over a pair. */
int cmd_diff(int argc, char **argv);
/* What `validate` judged, for a command that does something else with it than a report
 * (`baseline write`): the rule set, every input's report_file, and the status so far (0,
 * 1 findings at or above error, 2 an input could not be judged). Returns the exit
 * status. */
struct eval_options;
struct config;
struct doc;
struct diag_list;
/* How validate judged (the run's options), for a command that judges again (`fix`). */
struct cmd_judged_run {
    const struct eval_options *eo; /* versions, rule selection, preset */
    const struct config *cfg;      /* the run's config, or NULL */
    const char *today;             /* YYYY-MM-DD, for suppressions' until */
    const char *cwd;               /* the working directory, asked once (fingerprint.h) */
};
typedef int (*cmd_judged_fn)(const struct rule_set *rs, const struct report_file *files, size_t n,
                             int status, const char *anchor, const struct cmd_judged_run *run,
                             void *arg);
/* What validate hides or drops of FILE's diagnostics L (document D) after judging it:
 * x-mcpdesc-ignore, the config's levels and ignores, its suppressions. */
void cmd_validate_filter(const struct cmd_judged_run *run, const struct rule_set *rs,
                         const struct doc *d, const char *file, struct diag_list *l);
/* Parse validate's options and inputs from ARGV (argv[0] is not read), for the command
 * CMD ("fix", "baseline write": the name its messages give),
 * load the rules and judge the inputs as validate does, then call THEN instead of
 * writing a report. Options that shape only the report (--format, -o, -q, --color,
 * --fail-on, --timing, --baseline) are refused. --help returns -2 without printing.
 * BASELINE_OUT, the baseline THEN writes, anchors the files' names (fingerprint.h); THEN
 * gets that anchor. */
int cmd_validate_then(const char *cmd, int argc, char **argv, cmd_judged_fn then, void *arg,
                      const char *baseline_out);
/* The files below DIR that validate's directory search judges (*.json, *.yaml, *.yml;
 * hidden entries and node_modules left out), sorted by name, depth first: a new array of
 * new strings, *N of them (DIR itself when it cannot be opened, so that loading it says
 * why). */
char **cmd_find_candidates(const char *dir, size_t *n);
int cmd_baseline(int argc, char **argv);
int cmd_rules(int argc, char **argv);
/* `rules init` (cmd_rules_init.c): argv[0] is "init". */
int cmd_rules_init(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_lsp(int argc, char **argv);
int cmd_fix(int argc, char **argv);

#endif
