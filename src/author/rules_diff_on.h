/* rules_diff_on.h - `mcpdesc rules diff A B --on FILE|DIR...`: what moving a pin from
 * set A to set B changes on one's own descriptions. The command line judges each file
 * under both sets (judge.h, as validate does); this compares the two lists of findings
 * file by file and renders the upgrade report (text, and beside rules_diff's JSON and
 * Markdown). Nothing is printed here.
 *
 * A finding of A and one of B are the same finding when they have the same rule,
 * pointer, position and level: unchanged when their message and versions are the same
 * too, else changed (a reworded message, other versions). The others appear (only
 * under B) or disappear (only under A). A level that moves is a finding that disappears
 * at the old level and appears at the new one, so --fail-on sees it. */
#ifndef MCPDESC_RULES_DIFF_ON_H
#define MCPDESC_RULES_DIFF_ON_H

#include <jansson.h>

#include "base/buf.h"
#include "base/diag.h"
#include "rules/rule.h"

/* One judged file: its name in the report and its findings under each set (borrowed;
 * hidden ones, such as those x-mcpdesc-ignore suppresses, are left out). */
struct rules_diff_file {
    const char *name;
    const struct diag_list *a, *b;
};

/* The findings from A to B over FILES (N of them), a new object:
 *   files      how many files were judged
 *   judged     their names, in the order they were judged
 *   preset     the preset both ran with (recommended, strict, all)
 *   fail-on    the lowest level at which a finding that appears fails (error, warning,
 *              info, or never)
 *   appear     [{rule, file, line, column, pointer, level, message, versions}] only under B
 *   disappear  the same, only under A
 *   changed    [{before, after}]: the same finding, its message or versions changed
 *   unchanged  how many findings are the same under both
 *   failing    how many of those that appear are at or above fail-on
 * Each list in file order, then by position (as the files' lists are). FAIL_ON is the
 * level, NEVER nonzero for "never" (then failing is 0). */
json_t *rules_diff_findings(const struct rule_set *a, const struct rule_set *b,
                            const struct rules_diff_file *files, size_t n, const char *preset,
                            enum diag_level fail_on, int never);

/* Append the text of FINDINGS (rules_diff_findings) to OUT:
 *   findings on N files (preset P), from A to B:
 *   + FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS)     appears
 *   - FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS)     disappears
 *   ~ FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS)     changed, then what changed
 *   N appear, N disappear, N changed, N unchanged; N new at or above LEVEL */
void rules_diff_findings_text(json_t *findings, struct buf *out);

/* Append the Markdown of DIFF (rules_diff_compute, with the member "on" holding
 * rules_diff_findings when files were judged) to OUT: release notes, the rules added,
 * removed and changed (with what changed), then the findings that appear and disappear
 * as tables. */
void rules_diff_markdown(json_t *diff, struct buf *out);

#endif
