/* lsp_loop.c - the stdio loop of the language server: read what the client sends
 * (poll(2), waking for the debounce timer and for the judge thread), hand each framed
 * message to lsp_handle, hand due re-judges to one worker thread (lsp_job_*: the loop
 * goes on reading and answering meanwhile; a result for a text changed since is dropped),
 * write the answers framed. See lsp.h. */
#include "lsp/lsp.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "lsp/lsp_frame.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Write the messages of OUT framed to FD and empty OUT; -1 when FD is gone. */
static int flush(int fd, json_t *out)
{
    struct buf b = BUF_INIT;
    size_t i;
    json_t *m;
    json_array_foreach(out, i, m)
    {
        char *s = json_dumps(m, JSON_COMPACT);
        if (s) lsp_frame_write(&b, s, strlen(s));
        free(s);
    }
    json_array_clear(out);
    int rc = 0;
    for (size_t off = 0; off < b.len;) {
        ssize_t w = write(fd, b.s + off, b.len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    buf_release(&b);
    return rc;
}

/* The judge thread: one job at a time, from TODO to DONE; a byte on WAKE says it is done. */
struct worker {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    lsp_job *todo, *done;
    int quit;
    int wake[2];
    pthread_t tid;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->todo && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (!w->todo) break;
        lsp_job *j = w->todo;
        w->todo = NULL;
        pthread_mutex_unlock(&w->mu);
        lsp_job_run(j);
        void *left = lsp_job_leftovers(j);
        pthread_mutex_lock(&w->mu);
        w->done = j;
        ssize_t n;
        do n = write(w->wake[1], "j", 1);
        while (n < 0 && errno == EINTR);
        pthread_mutex_unlock(&w->mu);
        lsp_leftovers_free(left); /* while the findings go out */
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Start the worker; -1 when it cannot be (the loop then judges on its own thread). */
static int worker_start(struct worker *w)
{
    memset(w, 0, sizeof *w);
    if (pipe(w->wake) < 0) return -1;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->tid, NULL, work, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        close(w->wake[0]);
        close(w->wake[1]);
        return -1;
    }
    return 0;
}

/* The job the worker finished (after its byte on WAKE), or NULL. */
static lsp_job *worker_collect(struct worker *w)
{
    char c;
    ssize_t n;
    do n = read(w->wake[0], &c, 1);
    while (n < 0 && errno == EINTR);
    pthread_mutex_lock(&w->mu);
    lsp_job *j = w->done;
    w->done = NULL;
    pthread_mutex_unlock(&w->mu);
    return j;
}

static void worker_give(struct worker *w, lsp_job *j)
{
    pthread_mutex_lock(&w->mu);
    w->todo = j;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Stop the worker after the job it runs, if any (BUSY), which is freed unpublished. */
static void worker_stop(struct worker *w, int busy)
{
    if (busy) lsp_job_free(worker_collect(w));
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->tid, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    close(w->wake[0]);
    close(w->wake[1]);
}

int lsp_run(lsp_server *s, int in, int out, size_t max_body)
{
    struct lsp_frame f;
    lsp_frame_init(&f, max_body);
    json_t *msgs = json_array();
    char chunk[65536];
    int eof = 0, busy = 0;
    struct worker w;
    int threaded = worker_start(&w) == 0;
    lsp_server_set_async(s, threaded);
    while (lsp_exit_status(s) < 0 && !eof) {
        if (threaded && !busy) {
            lsp_job *j = lsp_job_take(s, now_s());
            if (j) {
                worker_give(&w, j);
                busy = 1;
            }
        }
        double due = busy ? -1 : lsp_next_due(s);
        int timeout = -1;
        if (due >= 0) {
            double ms = (due - now_s()) * 1000.0;
            timeout = ms <= 0 ? 0 : ms > 60000 ? 60000 : (int)ms + 1;
        }
        struct pollfd p[2] = {{in, POLLIN, 0}, {threaded ? w.wake[0] : -1, POLLIN, 0}};
        int r = poll(p, 2, timeout);
        if (r < 0 && errno != EINTR) break;
        if (r > 0 && busy && (p[1].revents & POLLIN)) {
            lsp_job *j = worker_collect(&w);
            busy = 0;
            if (j) lsp_job_finish(s, j, msgs);
            if (flush(out, msgs) < 0) eof = 1;
        }
        if (r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(in, chunk, sizeof chunk);
            if (n < 0 && errno != EINTR && errno != EAGAIN) break;
            if (n == 0) eof = 1;
            if (n > 0) lsp_frame_feed(&f, chunk, (size_t)n);
            const char *body, *why;
            size_t len;
            int k;
            while (lsp_exit_status(s) < 0 && (k = lsp_frame_next(&f, &body, &len, &why)) != 0) {
                if (k > 0) lsp_handle(s, body, len, now_s(), msgs);
                else {
                    fprintf(stderr, "mcpdesc lsp: %s\n", why);
                    lsp_handle_frame_error(s, why, msgs);
                }
                if (flush(out, msgs) < 0) eof = 1;
            }
        }
        if (!threaded) lsp_tick(s, now_s(), msgs);
        if (flush(out, msgs) < 0) eof = 1;
    }
    if (threaded) worker_stop(&w, busy);
    json_decref(msgs);
    lsp_frame_release(&f);
    int st = lsp_exit_status(s);
    return st < 0 ? 1 : st;
}
