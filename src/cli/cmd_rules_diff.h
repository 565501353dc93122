/* cmd_rules_diff.h - `mcpdesc rules diff A B [--on FILE|DIR...]`: the rule sets compared
 * (author/rules_diff.h) and, with --on, the files judged under both (judge.h, as
 * validate judges them) and their findings compared (author/rules_diff_on.h). */
#ifndef MCPDESC_CMD_RULES_DIFF_H
#define MCPDESC_CMD_RULES_DIFF_H

#include <stddef.h>

struct cmd_rules_diff_opts {
    const char *format;          /* text (NULL), json or markdown */
    const char *fail_on;         /* --fail-on as given, or NULL (info) */
    const char *preset;          /* --preset as given, or NULL (recommended) */
    const char *const *operands; /* A, B, then (with --on) more files and directories */
    size_t noperands;
    const char *const *on; /* the --on values */
    size_t non;
};

/* Run it; returns the exit status: without --on 0 when the sets are the same, 1 when they
 * differ; with --on 1 when a finding at or above --fail-on appears, else 0; 2 on bad
 * usage, a set that cannot load, a path that is not there or a file that cannot be
 * judged. */
int cmd_rules_diff(const struct cmd_rules_diff_opts *o);

#endif
