/* rules_test.h - `rules test`: run every rule's examples against its conformance
 * fixtures. */
#ifndef MCPDESC_RULES_TEST_H
#define MCPDESC_RULES_TEST_H

#include <stddef.h>

#include "rules/rule.h"

/* The outcome of one example under `rules test`. */
struct rules_test_result {
    const char *rule;    /* borrowed from the rule set */
    const char *expect;  /* valid, invalid, warning (borrowed) */
    const char *fixture; /* borrowed */
    const char *pointer; /* borrowed */
    int passed;
    char *detail; /* new: what the rule reported instead (NULL when passed) */
};

/* Run the examples of every rule of RS's own (not of a set it extends, rule_origin) for
 * which ENABLED(id, arg) is nonzero (ENABLED NULL: all): load the fixture, run only that
 * rule (honouring the fixture's x-args --protocol-version), and check that it reports
 * exactly at the example's pointer (an error for invalid, a warning for warning, nothing
 * for valid). STRICT (the working set's checks, rules-yaml/README.md, Testing): a valid
 * example passes only if the rule judged its pointer for a version the fixture and the
 * rule share ("not exercised" otherwise, with why), and a fix example proves its fix
 * (the rule reports nothing at or below the pointer, no other rule reports anything new
 * there, the file is still a description, a second fix changes nothing); without it the
 * semantics released tags were tested with. Calls EACH for every example in rule order. Returns the number of failed
 * examples. */
size_t rules_test_run_examples(const struct rule_set *rs, const char *fixtures, int strict,
                               int (*enabled)(const char *id, void *arg), void *enabled_arg,
                               void (*each)(const struct rules_test_result *res, void *arg),
                               void *each_arg);

#endif
