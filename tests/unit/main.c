/* main.c - the one Check harness: runs every suite listed in the generated
 * unit_suites.h (SUITE(<module>_suite) for each tests/unit/check_<module>.c, made from the
 * file names by the Makefile). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define SUITE(fn) Suite *fn(void);
#include "unit_suites.h"
#undef SUITE

int main(void)
{
    SRunner *sr = srunner_create(NULL);
#define SUITE(fn) srunner_add_suite(sr, fn());
#include "unit_suites.h"
#undef SUITE
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr), run = srunner_ntests_run(sr);
    srunner_free(sr);
    /* a harness that ran nothing has checked nothing: that is a failure, not a pass */
    if (run == 0) {
        fprintf(stderr, "unit-tests: no test ran\n");
        return EXIT_FAILURE;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
