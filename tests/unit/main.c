/* main.c - the one Check harness: runs every suite listed in the generated
 * unit_suites.h (one SUITE(name) per `Suite *name(void)` in tests/unit/check_*.c). */
#include <check.h>
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
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
