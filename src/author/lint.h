/* lint.h - tools for rule authors: lint a rule directory (the loader's errors plus
 * what only a whole-set view finds: version branches outside `applies`, examples whose
 * fixture or pointer does not exist, a level that contradicts the requirement's RFC 2119
 * keyword, citations without a text or a url, or whose GitHub links are not pinned to the
 * set's commit, rule files the manifest does not list, selectors that cannot select
 * anything in a description, rules without examples), from the partial program the
 * loader returns (rules/rule.h, rule_set_load_partial). Running the examples, `rules
 * test`, is rules_test.h. */
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
 * Appends every finding to OUT (level error or warning, or info for a check lint could not
 * run: lint_selectors.h; file:line:col, message and hint:
 * the loader's errors come with theirs), sorted by file and position. Returns 0, or -1 when DIR
 * has no readable manifest.yaml (one diagnostic without position appended). */
int lint_rule_dir(const char *dir, const char *fixtures, struct diag_list *out);
/* The same, loading with OPTS (where `extends: NAME@TAG` finds its base, and the file its
 * overlay holds in memory, read from there by the loader and by lint; may be NULL). A
 * set that extends another is linted for its own files: its base is linted as itself. */
int lint_rule_dir_with(const char *dir, const char *fixtures, const struct rule_load_opts *opts,
                       struct diag_list *out);
/* The same, handing back in *PROGRAM the partial program lint read (rule_set_load_partial;
 * NULL when the manifest does not parse or cannot be read; free it with rule_set_free):
 * for a caller that shows what the manifest says without reading it again. */
int lint_rule_dir_read(const char *dir, const char *fixtures, const struct rule_load_opts *opts,
                       struct diag_list *out, struct rule_set **program);

#endif
