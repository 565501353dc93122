/* overlap.h - a post-pass over one document's diagnostics: a rule whose metadata says
 * `yields-to: [RULE-ID or PREFIX.*, ...]` (a general rule such as the native projection)
 * does not repeat what a more specific rule already reported. */
#ifndef MCPDESC_OVERLAP_H
#define MCPDESC_OVERLAP_H

#include <stddef.h>

#include "diag.h"
#include "rule.h"

/* For each diagnostic D at index FROM or later whose rule yields to others: every
 * diagnostic E (same file, index FROM or later) of a rule D's rule yields to, at D's
 * pointer or below it, removes E's versions from D's; D is dropped when no version is
 * left. Diagnostics of rules without `yields-to`, loader errors and diagnostics before
 * FROM are kept as they are; the order of the kept ones does not change. Returns the
 * number of diagnostics dropped. */
size_t overlap_filter(const struct rule_set *rs, struct diag_list *l, size_t from);

#endif
