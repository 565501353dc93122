/* once.c - the slow path of once.h: the first use, under the caller's mutex. */
#include "base/once.h"

int once_do(once_state *state, pthread_mutex_t *lock, int (*fn)(void *arg), void *arg)
{
    pthread_mutex_lock(lock);
    /* relaxed: the lock orders it after any doer's store */
    int s = atomic_load_explicit(state, memory_order_relaxed);
    if (!s) {
        s = fn(arg);
        atomic_store_explicit(state, s, memory_order_release);
    }
    pthread_mutex_unlock(lock);
    return s;
}
