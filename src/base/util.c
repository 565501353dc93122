/* util.c - aborting allocators and BUG(); see util.h. */
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void *check_alloc(void *p)
{
    if (!p) {
        fputs("mcpdesc: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *xmalloc(size_t n)
{
    return check_alloc(malloc(n ? n : 1));
}
void *xcalloc(size_t count, size_t size)
{
    return check_alloc(calloc(count ? count : 1, size ? size : 1));
}
void *xrealloc(void *p, size_t n)
{
    return check_alloc(realloc(p, n ? n : 1));
}
char *xstrdup(const char *s)
{
    return check_alloc(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) BUG("vsnprintf failed");
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

size_t util_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];
    if (la > 62 || lb > 62) return 99;
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            cur[j] = best;
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

void util_bug(const char *file, int line, const char *msg)
{
    fprintf(stderr, "mcpdesc: BUG at %s:%d: %s\n", file, line, msg);
    abort();
}

char *util_link_target(const char *path)
{
    char *p = xstrdup(path);
    struct stat st;
    for (int hops = 0; hops < 40 && lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 256;
        char *t = xmalloc(cap);
        ssize_t n = readlink(p, t, cap);
        if (n < 0 || (size_t)n >= cap) { /* changed under us: write the name as given */
            free(t);
            break;
        }
        t[n] = '\0';
        const char *slash = strrchr(p, '/');
        char *next =
            t[0] == '/' || !slash ? xstrdup(t) : xasprintf("%.*s/%s", (int)(slash - p), p, t);
        free(t);
        free(p);
        p = next;
    }
    return p;
}

int util_write_in_place(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

char *util_normalize_path(const char *file)
{
    struct seg {
        const char *s;
        int n;
    };
    VEC(struct seg) segs = VEC_INIT;
    for (const char *s = file; *s;) {
        int n = (int)strcspn(s, "/");
        int up = n == 2 && !strncmp(s, "..", 2);
        const struct seg *last = segs.len ? &segs.items[segs.len - 1] : NULL;
        if (up && last && !(last->n == 2 && !strncmp(last->s, "..", 2))) segs.len--; /* DIR/.. */
        else if (n && !(n == 1 && *s == '.')) VEC_PUSH(segs, ((struct seg){s, n}));
        s += n;
        while (*s == '/') s++;
    }
    /* no longer than FILE (or ".") */
    char *out = xmalloc(strlen(file) + 2), *o = out;
    for (size_t i = 0; i < segs.len; i++) {
        if (i) *o++ = '/';
        memcpy(o, segs.items[i].s, (size_t)segs.items[i].n);
        o += segs.items[i].n;
    }
    if (!segs.len) *o++ = '.';
    *o = '\0';
    VEC_FREE(segs);
    return out;
}
