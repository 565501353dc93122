/* testskip.h - the C test runners' side of tests/skip.sh (header-only, tests only):
 * test_skip(TARGET, WHAT-format, ...) prints "SKIP TARGET: WHAT" and appends it to
 * $MCPDESC_SKIP_LOG when set; under MCPDESC_REQUIRE=all it prints FAIL instead and
 * returns 1, which the caller turns into a failure. Returns 0 for a plain skip. */
#ifndef MCPDESC_TESTSKIP_H
#define MCPDESC_TESTSKIP_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3), unused))
#endif
static int test_skip(const char *target, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *req = getenv("MCPDESC_REQUIRE");
    int required = req && !strcmp(req, "all");
    printf("%s %s: %s\n", required ? "FAIL (MCPDESC_REQUIRE=all forbids skips)" : "SKIP",
           target, what);
    fflush(stdout);
    const char *log = getenv("MCPDESC_SKIP_LOG");
    if (log && *log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "%s%s: %s\n", required ? "REQUIRED BUT SKIPPED " : "", target, what);
            fclose(f);
        }
    }
    return required;
}
#endif
