/* check_once.c - base/once.h: the doer runs once, whoever asks first, even when threads
 * ask at the same moment, and every caller gets its value. */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "base/once.h"

struct job {
    int runs;  /* written only by the doer, under the lock */
    int value; /* what the doer returns */
    int made;  /* what doer_making writes */
};

static int doer(void *arg)
{
    struct job *j = arg;
    j->runs++;
    /* long enough that the other threads are waiting on the lock meanwhile */
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return j->value;
}

START_TEST(once_runs_once_in_turn)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    once_state st = ONCE_INIT;
    struct job j = {0, 7, 0};
    ck_assert_int_eq(once_run(&st, &lock, doer, &j), 7);
    ck_assert_int_eq(once_run(&st, &lock, doer, &j), 7);
    ck_assert_int_eq(once_do(&st, &lock, doer, &j), 7); /* set already: not done again */
    ck_assert_int_eq(j.runs, 1);
}
END_TEST

enum { THREADS = 4 };

struct racer {
    pthread_barrier_t *start;
    once_state *st;
    pthread_mutex_t *lock;
    struct job *job;
    int got;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    pthread_barrier_wait(r->start);
    r->got = once_run(r->st, r->lock, doer, r->job);
    return NULL;
}

START_TEST(once_runs_once_among_threads)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    once_state st = ONCE_INIT;
    struct job j = {0, 2, 0};
    struct racer r[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        r[i] = (struct racer){&start, &st, &lock, &j, 0};
        ck_assert_int_eq(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    ck_assert_int_eq(j.runs, 1);
    for (int i = 0; i < THREADS; i++) ck_assert_int_eq(r[i].got, 2);
}
END_TEST

/* A caller that finds the work done (the fast path, no lock) sees all the doer wrote:
 * under ThreadSanitizer, a relaxed load there is a data race on made. */
struct later {
    once_state *st;
    pthread_mutex_t *lock;
    struct job *job;
    int seen;
};

static int doer_making(void *arg)
{
    struct job *j = arg;
    j->made = 42; /* a plain write, published by the state alone */
    return 1;
}

static void *come_later(void *arg)
{
    struct later *l = arg;
    /* wait, without synchronising, until the work is done */
    while (!atomic_load_explicit(l->st, memory_order_relaxed)) sched_yield();
    once_run(l->st, l->lock, doer_making, l->job);
    l->seen = l->job->made;
    return NULL;
}

START_TEST(once_later_callers_see_the_work)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    once_state st = ONCE_INIT;
    struct job j = {0, 1, 0};
    struct later l = {&st, &lock, &j, 0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, come_later, &l), 0);
    ck_assert_int_eq(once_run(&st, &lock, doer_making, &j), 1);
    pthread_join(t, NULL);
    ck_assert_int_eq(l.seen, 42);
}
END_TEST

Suite *once_suite(void)
{
    Suite *s = suite_create("once");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, once_runs_once_in_turn);
    tcase_add_test(tc, once_runs_once_among_threads);
    tcase_add_test(tc, once_later_callers_see_the_work);
    suite_add_tcase(s, tc);
    return s;
}
