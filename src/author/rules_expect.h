/* rules_expect.h - `rules test`, the fixtures' side: judge every fixture of a set's
 * conformance folder that carries x-expect with the whole set (every preset, the
 * fixture's x-args --protocol-version) and compare the findings with x-expect, as
 * multisets both ways (conformance/README.md). The one implementation of that
 * comparison: `make test-conformance` (tests/run-conformance.sh) runs it through
 * `mcpdesc rules test --expect-only`. */
#ifndef MCPDESC_RULES_EXPECT_H
#define MCPDESC_RULES_EXPECT_H

#include <stddef.h>

#include "base/buf.h"
#include "rules/rule.h"

/* The outcome of one fixture. */
struct rules_expect_result {
    const char *path; /* FIXTURES/expected-.../NAME.json (borrowed) */
    int passed;
    const struct buf *notes; /* what failed, one line each ending in '\n' (empty when passed) */
};

/* Judge every *.json under FIXTURES/expected-{valid,warning,invalid}/ (recursively, sorted
 * per folder) with RS, calling EACH per fixture in that order. A fixture without x-expect
 * is skipped, unless REQUIRE_EXPECT (the project's own fixtures: each one states what it
 * expects) makes it a failure. Returns the number of failed fixtures; *JUDGED (may be
 * NULL) the number of fixtures reported through EACH. */
size_t rules_expect_run(const struct rule_set *rs, const char *fixtures, int require_expect,
                        void (*each)(const struct rules_expect_result *res, void *arg), void *arg,
                        size_t *judged);

#endif
