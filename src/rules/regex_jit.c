/* regex_jit.c - PCRE2's JIT on first use; see regex_jit.h. */
#include "rules/regex_jit.h"

enum { JIT_ON = 1, JIT_OFF = 2 };

/* pcre2_jit_compile writes into the code: one compile at a time, and no match of a code
 * until its state is set (every match asks regex_jit_ready first) */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

static int jit_compile(void *code)
{
    return pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0 ? JIT_ON : JIT_OFF;
}

int regex_jit_ready(pcre2_code *code, regex_jit_state *state)
{
    return once_run(state, &jit_lock, jit_compile, code) == JIT_ON;
}
