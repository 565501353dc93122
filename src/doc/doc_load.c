/* doc_load.c - the public load entry points of doc.h (doc_load_file, doc_load_buffer):
 * read the bytes, apply the size bounds, pick the loader (YAML by the file name's suffix,
 * or as the caller says) and hand it a doc of the model. It sits above both loaders
 * (doc_json.c, doc_yaml.c) and the model (doc.c), and nothing among them calls back up. */
#include "doc/doc.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "doc/docInt.h"

/* A large file's text is mapped rather than read (read_input): the kernel's page cache
 * then holds it once, and its pages leave the process once parsed (doc_text_drop). */
#define DOC_MAP_MIN_TEXT ((size_t)1 << 20)

static void text_release(char *text, size_t len, int mapped)
{
    if (mapped) munmap(text, len);
    else free(text);
}

/* Load from TEXT, which the doc takes over: LEN bytes plus room for a NUL (a file is
 * read straight into the buffer the doc keeps, so a large input is not copied), or when
 * MAPPED, a file's pages mapped read-only whose last page's zeros end it. */
static doc *load_mapped(const char *name, char *text, size_t len, int mapped, int is_yaml,
                        const struct doc_limits *lim, struct doc_error *err)
{
    struct doc_limits l = lim ? *lim : (struct doc_limits){0, 0};
    if (!l.max_bytes) l.max_bytes = DOC_DEFAULT_MAX_BYTES;
    if (!l.max_depth) l.max_depth = DOC_DEFAULT_MAX_DEPTH;
    err->message = NULL;
    err->line = err->col = 0;
    if (len > l.max_bytes) {
        doc_set_error(err, 0, 0,
                      xasprintf("input is %zu bytes, over the limit of %zu", len, l.max_bytes));
        text_release(text, len, mapped);
        return NULL;
    }
    if (len > UINT32_MAX) {
        doc_set_error(err, 0, 0, xstrdup("input over 4 GiB"));
        text_release(text, len, mapped);
        return NULL;
    }
    doc *d = xcalloc(1, sizeof *d);
    pthread_mutex_init(&d->cache_lock, NULL);
    d->name = xstrdup(name);
    d->text = text;
    if (!mapped) d->text[len] = '\0';
    d->len = len;
    d->text_mapped = mapped;
    d->is_yaml = is_yaml;
    d = is_yaml ? doc_yaml_load(d, &l, err) : doc_json_load(d, &l, err);
    if (d) doc_text_drop(d, 0, d->len); /* parsed: read again only where asked */
    return d;
}

static doc *load_owned(const char *name, char *text, size_t len, int is_yaml,
                       const struct doc_limits *lim, struct doc_error *err)
{
    return load_mapped(name, text, len, 0, is_yaml, lim, err);
}

doc *doc_load_buffer(const char *name, const char *data, size_t len, int is_yaml,
                     const struct doc_limits *lim, struct doc_error *err)
{
    size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    if (len > max || len > UINT32_MAX) return load_owned(name, xmalloc(1), len, is_yaml, lim, err);
    char *text = xmalloc(len + 1);
    memcpy(text, data, len);
    return load_owned(name, text, len, is_yaml, lim, err);
}

static int has_yaml_suffix(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
}

/* FD's LEN bytes mapped read-only, or NULL: LEN must leave room for the NUL in the last
 * page (the kernel fills it with zeros past the end of the file). */
static char *map_text(int fd, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (len < DOC_MAP_MIN_TEXT || len % page == 0) return NULL;
    /* MCPDESC_NO_MMAP: read it (a file truncated while mapped would end the run, SIGBUS) */
    const char *no = getenv("MCPDESC_NO_MMAP");
    if (no && *no && strcmp(no, "0") != 0) return NULL;
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Up to N bytes from F (standard input, through stdio: what was buffered there comes
 * first) or else from FD: the count, 0 at the end, -1 on an error (errno). */
static ssize_t read_some(FILE *f, int fd, char *to, size_t n)
{
    if (f) {
        size_t got = fread(to, 1, n, f);
        return got || !ferror(f) ? (ssize_t)got : -1;
    }
    for (;;) {
        ssize_t r = read(fd, to, n);
        if (r >= 0 || errno != EINTR) return r;
    }
}

/* Reads PATH ("-": standard input) whole into *DATA (new, room for a NUL) and *LEN;
 * -1 with *ERR filled when it cannot, or it is over the limit of LIM. With MAPPED, a
 * large regular file may be mapped instead (*MAPPED set to 1: doc_load.c's load_mapped
 * takes it). A file is read with open, fstat and read at its size (stdio's fopen, its
 * buffer and a second fstat cost a rule set's start a system call and a page per file). */
static int read_input(const char *path, const struct doc_limits *lim, char **data_out,
                      size_t *len_out, int *mapped, struct doc_error *err)
{
    size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    int is_stdin = !strcmp(path, "-");
    int fd = is_stdin ? -1 : open(path, O_RDONLY | O_CLOEXEC);
    err->message = NULL;
    err->line = err->col = 0;
    if (!is_stdin && fd < 0) {
        doc_set_error(err, 0, 0, xasprintf("cannot open: %s", strerror(errno)));
        return -1;
    }
    /* A regular file's size is known: read it in one buffer, with room for the NUL. */
    struct stat st;
    size_t cap = 65536;
    int sized = !is_stdin && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size < (uint64_t)max;
    if (sized) cap = (size_t)st.st_size + 2; /* + the NUL, + 1: EOF is seen without growing */
    char *map = mapped && sized ? map_text(fd, (size_t)st.st_size) : NULL;
    if (mapped) *mapped = map != NULL;
    if (map) {
        close(fd);
        *data_out = map;
        *len_out = (size_t)st.st_size;
        return 0;
    }
    char *data = xmalloc(cap);
    size_t len = 0;
    int too_big = 0, read_err = 0;
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            data = xrealloc(data, cap);
        }
        ssize_t n = read_some(is_stdin ? stdin : NULL, fd, data + len, cap - 1 - len);
        if (n < 0) {
            read_err = 1;
            break;
        }
        len += (size_t)n;
        if (len > max) {
            too_big = 1;
            break;
        }
        /* a regular file read short has ended (its size's worth read: the NUL's room left) */
        if (n == 0 || (sized && len < cap - 1)) break;
    }
    int saved = errno;
    if (!is_stdin) close(fd);
    if (read_err) doc_set_error(err, 0, 0, xasprintf("cannot read: %s", strerror(saved)));
    else if (too_big)
        doc_set_error(err, 0, 0, xasprintf("input is over the limit of %zu bytes", max));
    else {
        *data_out = data;
        *len_out = len;
        return 0;
    }
    free(data);
    return -1;
}

doc *doc_load_file(const char *path, const struct doc_limits *lim, struct doc_error *err)
{
    char *data;
    size_t len;
    int mapped;
    if (read_input(path, lim, &data, &len, &mapped, err) < 0) return NULL;
    return load_mapped(strcmp(path, "-") ? path : "<stdin>", data, len, mapped,
                       has_yaml_suffix(path), lim, err);
}

/* KNOWN: the sha256 the caller vouches the bytes have (or NULL): their entry is taken
 * without hashing them; when there is none, they are hashed as without it. */
static doc *load_cached(const char *path, const struct doc_limits *lim, struct doc_error *err,
                        const char *known, char text_sha256[65])
{
    if (text_sha256) text_sha256[0] = '\0';
    int yaml = has_yaml_suffix(path), is_stdin = !strcmp(path, "-");
    char *dir = lim || is_stdin || !yaml ? NULL : doc_cache_dir();
    if (!dir && !text_sha256) return doc_load_file(path, lim, err);
    char *data;
    size_t len;
    if (read_input(path, lim, &data, &len, NULL, err) < 0) {
        free(dir);
        return NULL;
    }
    doc *kept = dir && known ? doc_cache_get(dir, path, data, len, known) : NULL;
    if (kept) {
        if (text_sha256) memcpy(text_sha256, known, 65);
        free(dir);
        return kept;
    }
    struct sha256_ctx ctx;
    uint8_t dg[SHA256_DIGEST_SIZE];
    char hex[65];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)data);
    sha256_digest(&ctx, sizeof dg, dg);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = "0123456789abcdef"[dg[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[dg[i] & 15];
    }
    hex[64] = '\0';
    if (text_sha256) memcpy(text_sha256, hex, sizeof hex);
    /* the entry of KNOWN was asked for already: the same text, none */
    doc *d =
        dir && !(known && !strcmp(known, hex)) ? doc_cache_get(dir, path, data, len, hex) : NULL;
    if (!d && (d = load_owned(is_stdin ? "<stdin>" : path, data, len, yaml, lim, err)) && dir)
        doc_cache_put(dir, d, hex);
    free(dir);
    return d;
}

doc *doc_load_file_cached(const char *path, const struct doc_limits *lim, struct doc_error *err,
                          char text_sha256[65])
{
    return load_cached(path, lim, err, NULL, text_sha256);
}

doc *doc_load_file_known(const char *path, struct doc_error *err, const char known[65],
                         char text_sha256[65])
{
    return load_cached(path, NULL, err, known, text_sha256);
}
