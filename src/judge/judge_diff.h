/* judge_diff.h - judge what changed from one description to the next (mcpdesc diff;
 * rules-yaml/README.md, "Change rules"). Both documents are resolved; the items of each
 * collection a change rule compares are matched by identity (a tool's or prompt's name, a
 * resource's uri, a template's uriTemplate) version by version: an item of OLD and the
 * item of NEW with its identity in the same versions are a pair, an item on one side only
 * (in some versions) a pair with that side alone (removed, added). Item changes are judged
 * in the versions both documents offer; the documents themselves are one pair (compare:
 * document), in every version either offers. An identity two items of one side share in a
 * common version cannot be matched: reported once, as DIFF_DUPLICATE_RULE, and left out. */
#ifndef MCPDESC_JUDGE_DIFF_H
#define MCPDESC_JUDGE_DIFF_H

#include "base/diag.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "rules/rule.h"

/* The built-in rule of an identity that cannot be matched (a warning). */
#define DIFF_DUPLICATE_RULE "mcpdesc.diff.unmatched"

/* Judge the change from OLD to NEW (loaded documents, resolved here in place; either may
 * be NULL: a description added or removed, judged as a document pair alone) with RS's
 * change rules and OPTS (eval.h). The findings, each placed in NEW (in OLD when NEW is
 * NULL) with its place in OLD as the related place, are appended to OUT, sorted and
 * merged. */
void judge_diff(const struct rule_set *rs, doc *old, doc *new, const struct eval_options *opts,
                struct diag_list *out);

#endif
