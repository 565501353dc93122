/* options.c - linked into every program of a sanitizer build (SAN=1; see the Makefile),
 * never into a release build. A sanitizer report must never look like a finding: by
 * default ASan, LeakSanitizer and UBSan exit with status 1, which is also mcpdesc's
 * "findings" status, so a test that expects 1 would pass with a leak or undefined
 * behaviour. These defaults make every report exit with 86, a status no mcpdesc command
 * uses. Options in the environment still add to (and may override) them. */
#define SAN_EXIT "exitcode=86"

const char *__asan_default_options(void);
const char *__lsan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void) { return SAN_EXIT; }
const char *__lsan_default_options(void) { return SAN_EXIT; }
const char *__ubsan_default_options(void) { return SAN_EXIT ":print_stacktrace=1:halt_on_error=1"; }
