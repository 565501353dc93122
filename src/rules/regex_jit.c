/* regex_jit.c - PCRE2's JIT on first use; see regex_jit.h. */
#include "rules/regex_jit.h"

#include <pthread.h>

enum { JIT_ON = 1, JIT_OFF = 2 };

/* pcre2_jit_compile writes into the code: one compile at a time, and no match of a code
 * until its state is set (every match asks regex_jit_ready first) */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

int regex_jit_ready(pcre2_code *code, regex_jit_state *state)
{
    int s = atomic_load_explicit(state, memory_order_acquire);
    if (s) return s == JIT_ON;
    pthread_mutex_lock(&jit_lock);
    s = atomic_load_explicit(state, memory_order_relaxed);
    if (!s) {
        s = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0 ? JIT_ON : JIT_OFF;
        atomic_store_explicit(state, s, memory_order_release);
    }
    pthread_mutex_unlock(&jit_lock);
    return s == JIT_ON;
}
