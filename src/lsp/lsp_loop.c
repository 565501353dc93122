/* lsp_loop.c - the stdio loop of the language server: read what the client sends
 * (poll(2), waking for the debounce timer), hand each framed message to lsp_handle, run
 * lsp_tick when a re-judge is due, write the answers framed. See lsp.h. */
#include "lsp/lsp.h"

#include <errno.h>
#include <poll.h>
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

int lsp_run(lsp_server *s, int in, int out, size_t max_body)
{
    struct lsp_frame f;
    lsp_frame_init(&f, max_body);
    json_t *msgs = json_array();
    char chunk[65536];
    int eof = 0;
    while (lsp_exit_status(s) < 0 && !eof) {
        double due = lsp_next_due(s);
        int timeout = -1;
        if (due >= 0) {
            double ms = (due - now_s()) * 1000.0;
            timeout = ms <= 0 ? 0 : ms > 60000 ? 60000 : (int)ms + 1;
        }
        struct pollfd p = {in, POLLIN, 0};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno != EINTR) break;
        if (r > 0) {
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
        lsp_tick(s, now_s(), msgs);
        if (flush(out, msgs) < 0) eof = 1;
    }
    json_decref(msgs);
    lsp_frame_release(&f);
    int st = lsp_exit_status(s);
    return st < 0 ? 1 : st;
}
