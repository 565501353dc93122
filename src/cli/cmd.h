/* cmd.h - command families of the CLI. Each takes argv with argv[0] = its own name
 * ("validate", "rules", ...) and returns the process exit status: 0 ok, 1 findings,
 * 2 bad usage, unreadable input or rule set. */
#ifndef MCPDESC_CMD_H
#define MCPDESC_CMD_H

#include <stddef.h>

struct rule_set;
struct report_file;

int cmd_validate(int argc, char **argv);
/* What `validate` judged, for a command that does something else with it than a report
 * (`baseline write`): the rule set, every input's report_file, and the status so far (0,
 * 1 findings at or above error, 2 an input could not be judged). Returns the exit
 * status. */
typedef int (*cmd_judged_fn)(const struct rule_set *rs, const struct report_file *files, size_t n,
                             int status, const char *anchor, const char *cwd, void *arg);
/* Parse validate's options and inputs from ARGV (argv[0] is the calling command's name),
 * load the rules and judge the inputs as validate does, then call THEN instead of
 * writing a report. Options that shape only the report (--format, -o, -q, --color,
 * --fail-on, --timing, --baseline) are refused. --help returns -2 without printing.
 * BASELINE_OUT, the baseline THEN writes, anchors the files' names (fingerprint.h); THEN
 * gets that anchor. */
int cmd_validate_then(int argc, char **argv, cmd_judged_fn then, void *arg,
                      const char *baseline_out);
int cmd_baseline(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_capture(int argc, char **argv);

#endif
