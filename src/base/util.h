/* util.h - allocation that never returns NULL, BUG(), and typed growable arrays.
 * Out-of-memory aborts (house style: a CLI gains nothing from recovering),
 * which removes a whole class of error paths from every other module. */
#ifndef MCPDESC_UTIL_H
#define MCPDESC_UTIL_H

#include <stddef.h>
#include <stdlib.h>

/* All return new memory; abort with a message when the allocator fails. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into new memory */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Levenshtein distance between A and B (for "did you mean" suggestions); strings over
 * 62 bytes count as far apart. */
size_t util_edit_distance(const char *a, const char *b);

/* The file a write to PATH should replace (new): PATH itself, or when PATH is a symbolic
 * link, what it names, link after link (a relative target read from the link's
 * directory), even when that does not exist yet (a dangling link: the file is created
 * there). A write through a temporary file renamed over the result keeps the links. */
char *util_link_target(const char *path);
/* Is PATH something to write straight into rather than through a temporary file renamed
 * over it: an existing file that is not a regular file (/dev/null, a FIFO, a terminal)?
 * A rename would replace it with a regular file (as root, /dev/null itself). */
int util_write_in_place(const char *path);

/* A programmer error: print file:line and abort. Never for bad user input. */
#define BUG(msg) util_bug(__FILE__, __LINE__, (msg))

/* Whether a program frees what it holds just before it exits. The sanitizer builds do
 * (LeakSanitizer reports what is left; the Makefile's SAN builds also define
 * MCPDESC_FREE_AT_EXIT); the normal build may leave large structures to the kernel,
 * which takes the pages back at once. */
#if defined(MCPDESC_FREE_AT_EXIT) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UTIL_FREE_AT_EXIT 1
#else
#define UTIL_FREE_AT_EXIT 0
#endif
void util_bug(const char *file, int line, const char *msg) __attribute__((noreturn));

/* Typed growable array: VEC(int) v = VEC_INIT; VEC_PUSH(v, 3); VEC_FREE(v); */
#define VEC(T)                                                                                     \
    struct {                                                                                       \
        T *items;                                                                                  \
        size_t len, cap;                                                                           \
    }
#define VEC_INIT                                                                                   \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }
#define VEC_RESERVE(v, n)                                                                          \
    do {                                                                                           \
        if ((v).len + (n) > (v).cap) {                                                             \
            size_t vec_cap_ = (v).cap ? (v).cap * 2 : 8;                                           \
            while (vec_cap_ < (v).len + (n)) vec_cap_ *= 2;                                        \
            (v).items = xrealloc((v).items, vec_cap_ * sizeof(*(v).items));                        \
            (v).cap = vec_cap_;                                                                    \
        }                                                                                          \
    } while (0)
#define VEC_PUSH(v, x)                                                                             \
    do {                                                                                           \
        VEC_RESERVE(v, 1);                                                                         \
        (v).items[(v).len++] = (x);                                                                \
    } while (0)
#define VEC_FREE(v)                                                                                \
    do {                                                                                           \
        free((v).items);                                                                           \
        (v).items = NULL;                                                                          \
        (v).len = (v).cap = 0;                                                                     \
    } while (0)

/* FILE with "." and "DIR/.." segments (and repeated slashes) removed: the same file as
 * FILE, relative to the same directory, written once (`rules dump` shows it). New. */
char *util_normalize_path(const char *file);

#endif
