/* cmd_common.h - what the command families share: finding and loading the rule set,
 * printing loader errors, option suggestions. */
#ifndef MCPDESC_CMD_COMMON_H
#define MCPDESC_CMD_COMMON_H

#include <stdio.h>

#include "core/diag.h"
#include "core/rule.h"

/* The rule set directory: DIR if given, else $MCPDESC_RULES, else rules-yaml/ of the
 * build tree the binary runs from, else ../share/mcpdesc/rules beside the binary's
 * directory, else the installed one (MCPDESC_DATADIR/rules). Returns new memory. */
char *cmd_rules_dir(const char *given);
/* Load the rule set, printing every loader error to stderr as file:line:col: error:
 * message. NULL on failure (the caller exits 2). */
struct rule_set *cmd_load_rules(const char *given_dir);
/* Print diagnostics without rule ids (loader errors) to F. */
void cmd_print_errors(FILE *f, const struct diag_list *l);
/* "unknown option '--fromat': did you mean '--format'?" to stderr; OPTIONS is
 * NULL-terminated. */
void cmd_unknown_option(const char *cmd, const char *arg, const char *const *options);
/* Value of an option given as "--name=value" or "--name value"; advances *i. NULL and
 * a message when missing. */
const char *cmd_option_value(int argc, char **argv, int *i, const char *name);

#endif
