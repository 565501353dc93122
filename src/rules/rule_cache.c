/* rule_cache.c - see rule_cache.h. A record (doc_cache_record_*, beside the cache of
 * loaded YAML; off with it, MCPDESC_NO_CACHE) is named by the sha256 of the engine, the
 * working directory, the set's directory and schema-map as given and its matches-schema
 * files, and lists every file the compiler read for them (the files and those their $refs
 * fetched through the schema-map) with the sha256 of its bytes, one per line:
 * "<64 hex> <path>". It is written only after a load in which every schema compiled, and
 * serves only when every file it lists still has its sha256: compiling then would read
 * the same bytes, reach the same files and compile as it did. Anything else (a file
 * edited, added to the list, unreadable; another schema-map) is another key or a
 * mismatch, and the load compiles every schema as before, reporting what fails where it
 * did. */
#include "rules/rule_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "doc/doc.h"

static const char RECORD_HEAD[] = "mcpdesc schema files 1\n";

/* open, fstat, one read, close for a regular file (stdio takes six): the digest reads a
 * hundred files or more on every start. */
int rule_file_read(const char *path, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    size_t cap = reg && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    char *p = xmalloc(cap + 1);
    for (;;) {
        if (n == cap) p = xrealloc(p, (cap *= 2) + 1);
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            close(fd);
            free(p);
            return -1;
        }
        n += (size_t)r;
        /* a regular file read short has ended (one size + 1 bytes long has grown) */
        if (r == 0 || (reg && n < cap)) break;
    }
    close(fd);
    p[n] = '\0';
    *data = p;
    *len = n;
    return 0;
}

static void hex_of(const uint8_t *dg, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef"; /* snprintf per byte: a run's hottest printf */
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[dg[i] >> 4];
        out[2 * i + 1] = hex[dg[i] & 15];
    }
    out[2 * n] = '\0';
}

void rule_sha256_hex(const char *data, size_t len, char out[65])
{
    struct sha256_ctx ctx;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)data);
    sha256_digest(&ctx, sizeof dg, dg);
    hex_of(dg, sizeof dg, out);
}

static int file_hex(const char *path, char out[65])
{
    char *data;
    size_t len;
    if (rule_file_read(path, &data, &len) < 0) return -1;
    rule_sha256_hex(data, len, out);
    free(data);
    return 0;
}

void rule_cache_files_release(struct rule_cache_files *f)
{
    for (size_t i = 0; i < f->v.len; i++) free(f->v.items[i].path);
    VEC_FREE(f->v);
}

static int str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each string with its terminating NUL: no two lists of strings hash alike. */
static void add_str(struct sha256_ctx *c, const char *s)
{
    sha256_update(c, strlen(s) + 1, (const uint8_t *)s);
}

void rule_cache_schema_key(const char *dir, char *const *maps, size_t n, char *const *files,
                           size_t nfiles, char key[65])
{
    struct sha256_ctx c;
    sha256_init(&c);
    add_str(&c, RECORD_HEAD);
    add_str(&c, doc_cache_engine());
    /* paths as given are relative to it */
    char *cwd = getcwd(NULL, 0);
    add_str(&c, cwd ? cwd : "");
    free(cwd);
    add_str(&c, dir);
    char count[32];
    snprintf(count, sizeof count, "%zu", n);
    add_str(&c, count);
    for (size_t i = 0; i < n; i++) add_str(&c, maps[i]);
    char **sorted = xmalloc((nfiles ? nfiles : 1) * sizeof *sorted);
    if (nfiles) memcpy(sorted, files, nfiles * sizeof *sorted);
    if (nfiles) qsort(sorted, nfiles, sizeof *sorted, str_ptr_cmp);
    for (size_t i = 0; i < nfiles; i++)
        if (!i || strcmp(sorted[i - 1], sorted[i])) add_str(&c, sorted[i]);
    free(sorted);
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_digest(&c, sizeof dg, dg);
    hex_of(dg, sizeof dg, key);
}

static int is_hex64(const char *s)
{
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return 1;
}

int rule_cache_schema_get(const char key[65], struct rule_cache_files *out)
{
    size_t len = 0;
    char *rec = doc_cache_record_get(key, &len);
    size_t hl = sizeof RECORD_HEAD - 1;
    int ok = rec && len > hl && !memcmp(rec, RECORD_HEAD, hl) && rec[len - 1] == '\n' &&
        strlen(rec) == len;
    for (char *p = ok ? rec + hl : NULL; ok && p < rec + len;) {
        char *nl = strchr(p, '\n');
        ok = nl - p > 65 && is_hex64(p) && p[64] == ' ';
        if (!ok) break;
        *nl = '\0';
        struct rule_cache_file f = {xstrdup(p + 65), ""};
        VEC_PUSH(out->v, f);
        /* the file as it is now: its bytes must be the ones that compiled */
        char *want = p;
        want[64] = '\0';
        ok = file_hex(f.path, out->v.items[out->v.len - 1].hex) == 0 &&
            !strcmp(out->v.items[out->v.len - 1].hex, want);
        p = nl + 1;
    }
    free(rec);
    if (!ok) rule_cache_files_release(out);
    return ok;
}

void rule_cache_schema_put(const char key[65], const schema_ctx *ctx)
{
    if (!doc_cache_on()) return; /* before reading every file again for nothing */
    struct buf rec = BUF_INIT;
    buf_adds(&rec, RECORD_HEAD);
    int ok = 1;
    for (size_t i = 0; i < schema_ctx_file_count(ctx) && ok; i++) {
        const char *path = schema_ctx_file(ctx, i);
        char hex[65];
        ok = !strchr(path, '\n') && file_hex(path, hex) == 0;
        if (ok) buf_addf(&rec, "%s %s\n", hex, path);
    }
    if (ok) doc_cache_record_put(key, buf_str(&rec), rec.len);
    buf_release(&rec);
}

void rule_cache_schema_drop(const char key[65])
{
    doc_cache_record_drop(key);
}
