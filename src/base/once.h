/* once.h - something done once, on its first use, by whichever thread asks first while
 * others may ask at the same time (a pattern's JIT, a need's text, a deferred schema):
 * the later calls cost one acquire load; the first ones wait for the doer under a mutex. */
#ifndef MCPDESC_ONCE_H
#define MCPDESC_ONCE_H

#include <pthread.h>
#include <stdatomic.h>

/* What was done: ONCE_INIT (zero, as xcalloc leaves it) until then, then the nonzero
 * value the doer returned. */
typedef atomic_int once_state;
#define ONCE_INIT 0

/* Under LOCK, unless another thread did it meanwhile: STATE set to FN(ARG), which must be
 * nonzero, with release ordering, so that a thread that sees it (acquire) sees all FN
 * wrote. Returns STATE's value. once_run calls it only when STATE is not yet set. */
int once_do(once_state *state, pthread_mutex_t *lock, int (*fn)(void *arg), void *arg);

/* STATE's value, FN(ARG) done first (once_do) when it is not yet set. */
static inline int once_run(once_state *state, pthread_mutex_t *lock, int (*fn)(void *arg),
                           void *arg)
{
    int s = atomic_load_explicit(state, memory_order_acquire);
    return s ? s : once_do(state, lock, fn, arg);
}

#endif
