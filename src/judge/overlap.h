/* overlap.h - a post-pass over one document's diagnostics: a rule whose metadata says
 * `yields-to: [RULE-ID or PREFIX.*, ...]` (a general rule such as the native projection)
 * does not repeat what a more specific rule already reported about the same value. */
#ifndef MCPDESC_OVERLAP_H
#define MCPDESC_OVERLAP_H

#include <stddef.h>

#include "base/diag.h"
#include "rules/rule.h"

/* For each diagnostic D at index FROM or later whose rule yields to others: every kept
 * diagnostic E (same file, index FROM or later) of a rule D's rule yields to, about D's
 * value (E's pointer is D's pointer or below it), removes E's versions from D's; D is
 * dropped when no version is left. A diagnostic elsewhere, even in the same item, never
 * removes anything. Diagnostics are decided deepest pointer first, so D yields only to
 * what is itself still reported (at one pointer, in list order). Diagnostics of rules
 * without `yields-to`, loader errors and diagnostics before FROM are kept as they are;
 * the order of the kept ones does not change. Returns the number of diagnostics
 * dropped. With MCPDESC_NO_OVERLAP set (not empty, not "0") in the environment it does
 * nothing (tests/overlap-invariant.sh compares both). */
size_t overlap_filter(const struct rule_set *rs, struct diag_list *l, size_t from);

/* Is the post-pass switched off by MCPDESC_NO_OVERLAP? */
int overlap_disabled(void);

/* Which rules of RS must run when only those for which ENABLED (NULL: all) returns
 * nonzero are reported: the enabled ones, and every rule an enabled rule yields to,
 * transitively (a yield is decided on the full set, then --rule/--skip filter the
 * output). A new array of rule_set_count(RS) flags, in rule order (free it). */
unsigned char *overlap_required(const struct rule_set *rs,
                                int (*enabled)(const char *id, void *arg), void *arg);

#endif
