/* lint.h - tools for rule authors: lint a rule directory (the loader's errors plus
 * what only a whole-set view finds: version branches outside `applies`, examples whose
 * fixture or pointer does not exist, a level that contradicts the requirement's RFC 2119
 * keyword, citations without a text or a url, or whose GitHub links are not pinned to the
 * set's commit, rule files the manifest does not list, selectors that cannot select
 * anything in a description, rules without examples), and run every rule's examples against its conformance fixtures. */
#ifndef MCPDESC_LINT_H
#define MCPDESC_LINT_H

#include <jansson.h>
#include <stdio.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"

/* The conformance fixtures of the rule set in RULES_DIR: RULES_DIR/../conformance.
 * New string. */
char *lint_default_fixtures(const char *rules_dir);

/* Lint the rule set in DIR. FIXTURES is the conformance directory (NULL: the default).
 * Appends every finding to OUT (level error or warning, file:line:col, message and hint:
 * the loader's errors come with theirs), sorted by file and position. Returns 0, or -1 when DIR
 * has no readable manifest.yaml (one diagnostic without position appended). */
int lint_rule_dir(const char *dir, const char *fixtures, struct diag_list *out);
/* The same, loading with OPTS (where `extends: NAME@TAG` finds its base, and the file its
 * overlay holds in memory, read from there by the loader and by lint; may be NULL). A
 * set that extends another is linted for its own files: its base is linted as itself. */
int lint_rule_dir_with(const char *dir, const char *fixtures, const struct rule_load_opts *opts,
                       struct diag_list *out);

/* The outcome of one example under `rules test`. */
struct lint_example_result {
    const char *rule;    /* borrowed from the rule set */
    const char *expect;  /* valid, invalid, warning (borrowed) */
    const char *fixture; /* borrowed */
    const char *pointer; /* borrowed */
    int passed;
    char *detail; /* new: what the rule reported instead (NULL when passed) */
};

/* Run the examples of every rule of RS's own (not of a set it extends, rule_origin) for
 * which ENABLED(id, arg) is nonzero (ENABLED
 * NULL: all): load the fixture, run only that rule (honouring the fixture's x-args
 * --protocol-version), and check that it reports exactly at the example's pointer (an
 * error for invalid, a warning for warning, nothing for valid). Calls EACH for every
 * example in rule order. Returns the number of failed examples. */
size_t lint_run_examples(const struct rule_set *rs, const char *fixtures,
                         int (*enabled)(const char *id, void *arg), void *enabled_arg,
                         void (*each)(const struct lint_example_result *res, void *arg),
                         void *each_arg);

#endif
