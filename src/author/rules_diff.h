/* rules_diff.h - what changed between two rule sets (`mcpdesc rules diff A B`): the
 * release notes a release engineer reads before moving a pin. Rules are matched by id;
 * a rule is changed when its level, the versions it applies to, its compiled check (as
 * `rules dump --format json` describes it: a YAML file written differently that compiles
 * to the same program, or a named predicate renamed, is no change), a message or hint of
 * the check, or a member of its metadata (summary, requirement, based-on, ...) differs.
 * The set itself is compared on its name, tag, digest, docs-url, extends, versions, tiers
 * and rule files.
 *
 * The comparison is first described as JSON (`--format json` prints it as it is) and the
 * text is rendered from that description, so the two always say the same. Nothing
 * depends on addresses, hash order or the order of rules or members in the files: the
 * output is stable. Nothing is printed here; the caller writes what it gets. */
#ifndef MCPDESC_RULES_DIFF_H
#define MCPDESC_RULES_DIFF_H

#include <jansson.h>

#include "rules/rule.h"
#include "base/buf.h"

/* The differences from A to B, a new object:
 *   a, b       {name, tag, digest} of each set
 *   set        the set's members that differ, each {before, after} (name, tag, digest,
 *              docs-url, extends (NAME@TAG of the base, null for none), versions, files (the
 *              rule files of the set and of the sets it extends, base first: an extending
 *              set's rules come from its base's files too); tiers: {"N": {before, after}}
 *              per tier); {} when none
 *   added      rules only in B, by id: [{id, level, applies}] (applies as a version spec)
 *   removed    rules only in A, the same
 *   changed    [{id, changes}], by id; changes holds what differs, each {before, after}:
 *              level (must, should, may), applies (version specs; compared by the versions
 *              they name), check (the dumped programs; compared without their messages,
 *              hints and version bit masks), message and hint (the check's, one entry per
 *              clause with a require, null when it has none), metadata ({MEMBER: {before,
 *              after}}, null when absent; preset compared as the preset it puts the rule
 *              in, yields-to as a set); then
 *              details: one entry per change, {what, at (the clause's path in the dumped
 *              program, "check/first/2"; only for a change inside the check), before,
 *              after, findings-can-change}, what being level, applies, versions,
 *              selector, when, require, report-at, clauses (a clause added, removed or
 *              regrouped: {kind, count} of the clause list; its parts are not paired
 *              further), message, hint, fix (one entry per fix), yields-to, preset, or
 *              metadata (with member); items-only: true on a selector or predicate whose
 *              only change is "*" segments becoming "[*]";
 *              findings-can-change: whether any detail can change which findings appear
 *              (message, hint, fix and metadata other than yields-to and preset cannot);
 *              findings-items-only: true when every such detail is items-only (findings
 *              change only where an MCP list is written as a map)
 *   unchanged  how many rules are in both sets and the same */
json_t *rules_diff_compute(const struct rule_set *a, const struct rule_set *b);

/* 1 when the description DIFF holds any difference (the digest counts: the sets are not
 * byte for byte the same), else 0. */
int rules_diff_differs(json_t *diff);

/* Append the text form of DIFF to OUT:
 *   --- NAME TAG (DIGEST)                      set A
 *   +++ NAME TAG (DIGEST)                      set B
 *   ~ set: tag T1 -> T2; digest; versions [..] -> [..]; tiers 2
 *   + ID (LEVEL, APPLIES)                      added
 *   - ID (LEVEL, APPLIES)                      removed
 *   ~ ID: level L1 -> L2; applies S1 -> S2; check; message; hint; metadata: M, ...
 *   N added, N removed, N changed, N unchanged
 * Rule lines are sorted by id (an added, a removed and a changed rule mixed); below a
 * changed rule, one indented line per detail (rules_diff_detail_line), then whether its
 * findings can change (rules_diff_findings_note). */
void rules_diff_text(json_t *diff, struct buf *out);

/* The set's own changes (DIFF's "set", not empty) as the text's "~ set:" line has them,
 * appended to OUT without that prefix or a newline. */
void rules_diff_set_line(json_t *set, struct buf *out);
/* One entry of a changed rule's "details" (rules_diff_compute) on one line, appended to
 * OUT without indentation or newline: WHAT [at PATH]: BEFORE -> AFTER, e.g. "level:
 * should -> must", "fix added at check/first/2: TITLE", "require at check: length
 * {"max": 64} -> length {"max": 128}". */
void rules_diff_detail_line(json_t *detail, struct buf *out);
/* Whether the changed rule E's findings can change, as one sentence appended to OUT:
 * "findings can change", or "findings cannot change: only fixes, examples changed". */
void rules_diff_findings_note(json_t *e, struct buf *out);

#endif
