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
#include <limits.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/val.h"
#include "doc/doc.h"

static const char RECORD_HEAD[] = "mcpdesc schema files 1\n";
static const char JSON_HEAD[] = "mcpdesc json parse 1\n";

static void add_str(struct sha256_ctx *c, const char *s);

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

/* The key of a JSON file's parse: the sha256 of its bytes (TEXT_HEX), the parser's flags
 * and the engine (which names the jansson it runs with). */
static void json_key(const char text_hex[65], size_t flags, char key[65])
{
    struct sha256_ctx c;
    char fl[32];
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    add_str(&c, JSON_HEAD);
    add_str(&c, doc_cache_engine());
    snprintf(fl, sizeof fl, "%zu", flags);
    add_str(&c, fl);
    add_str(&c, text_hex);
    sha256_digest(&c, sizeof dg, dg);
    hex_of(dg, sizeof dg, key);
}

static void known_free(void *known)
{
    if (!known) return;
    rule_cache_files_release(known);
    free(known);
}

json_t *rule_cache_load_json(void *arg, const char *path, size_t flags, json_error_t *err)
{
    const struct rule_cache_files *known = arg;
    char key[65], hex[65];
    for (size_t i = 0; known && i < known->v.len; i++)
        if (!strcmp(known->v.items[i].path, path)) {
            json_key(known->v.items[i].hex, flags, key);
            json_t *v = doc_cache_value_get(key);
            if (v) return v;
            break; /* none kept: read as any other */
        }
    char *data;
    size_t len;
    /* not read: val_load_file says why, as it always did */
    if (rule_file_read(path, &data, &len) < 0) return val_load_file(path, flags, err);
    rule_sha256_hex(data, len, hex);
    json_key(hex, flags, key);
    json_t *v = doc_cache_value_get(key);
    if (!v && (v = json_loadb(data, len, flags, err))) doc_cache_value_put(key, v);
    free(data);
    return v; /* a parse error: jansson's on these bytes, as val_load_file gives it */
}

void rule_cache_files_release(struct rule_cache_files *f)
{
    for (size_t i = 0; i < f->v.len; i++) free(f->v.items[i].path);
    VEC_FREE(f->v);
}

void rule_cache_use_loader(schema_ctx *ctx)
{
    schema_ctx_set_loader(ctx, rule_cache_load_json, xcalloc(1, sizeof(struct rule_cache_files)),
                          known_free);
}

void rule_cache_known_add(schema_ctx *ctx, const struct rule_cache_files *files)
{
    /* another loader or none (MCPDESC_NO_CACHE): nothing to tell */
    struct rule_cache_files *known = schema_ctx_loader_arg(ctx, rule_cache_load_json);
    for (size_t i = 0; known && i < files->v.len; i++) {
        struct rule_cache_file f = {xstrdup(files->v.items[i].path), ""};
        memcpy(f.hex, files->v.items[i].hex, sizeof f.hex);
        VEC_PUSH(known->v, f);
    }
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

int rule_cache_schema_get(const char key[65], struct rule_sums *sums, struct rule_cache_files *out)
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
        ok = rule_sums_file_hex(sums, f.path, out->v.items[out->v.len - 1].hex) == 0 &&
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

/* ---- data files that matched their kind's schema -------------------------------------
 * A record per data file text that validated (rule_data_load.c): named by the sha256 of
 * the engine (whose build ID covers the kinds' schemas, embedded in it), the kind and the
 * text's sha256. The name is all that is asked: doc_cache_record_get gives a record only
 * when the key and the engine written in it are the ones asked for, so a record found
 * says this engine validated this kind's text, whatever it holds (one word; a build that
 * wrote more is another engine, whose records are never read). Only a text that matched
 * is recorded: one that did not is validated on every load and reported as before. */
static const char DATA_HEAD[] = "mcpdesc data valid 1\n";
static const char DATA_VALID[] = "valid\n";

static void data_key(const char *kind, const char text_hex[65], char key[65])
{
    struct sha256_ctx c;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    add_str(&c, DATA_HEAD);
    add_str(&c, doc_cache_engine());
    add_str(&c, kind);
    add_str(&c, text_hex);
    sha256_digest(&c, sizeof dg, dg);
    hex_of(dg, sizeof dg, key);
}

int rule_cache_data_valid(const char *kind, const char text_hex[65])
{
    if (strlen(text_hex) != 64 || !*doc_cache_engine()) return 0;
    char key[65];
    data_key(kind, text_hex, key);
    size_t len = 0;
    char *rec = doc_cache_record_get(key, &len);
    int found = rec != NULL;
    free(rec);
    return found;
}

void rule_cache_data_valid_put(const char *kind, const char text_hex[65])
{
    if (strlen(text_hex) != 64 || !doc_cache_on()) return;
    char key[65];
    data_key(kind, text_hex, key);
    doc_cache_record_put(key, DATA_VALID, strlen(DATA_VALID));
}

/* ---- sums kept by a file's identity ------------------------------------------------
 * The fixtures a set's examples cite are read only to be hashed into its digest: 66
 * files, four system calls and a fresh buffer each, on every start. A record (one per
 * set directory and working directory) keeps each file's sha256 beside its identity
 * from one stat: device, inode, mode, size, mtime and ctime to the nanosecond, as git's
 * index does. A file whose identity is the recorded one is taken to hold the recorded
 * bytes; any other is read and hashed. The racy case: a file changed in the same clock
 * tick as it was hashed could keep its identity, so a file whose mtime or ctime is not
 * older than rule_sums_settle_ns before the load began is hashed on every load and
 * never recorded (the record says from when its entries are trusted, and the reader
 * refuses a record with an entry newer than that). The limit is git's: whoever rewrites
 * a file and sets both its times back (ctime moves back only with the clock) can make
 * it pass for the recorded one. */
static const char SUMS_HEAD[] = "mcpdesc file sums 1\n";

long long rule_sums_settle_ns = 2000000000LL; /* coarser than any file system's times */

struct sum_id {
    long long dev, ino, mode, size, mtime_s, mtime_ns, ctime_s, ctime_ns;
};
enum { SUM_ID_FIELDS = 8 };

struct rule_sum {
    char *path;
    struct sum_id id;
    char hex[65];
};
typedef VEC(struct rule_sum) sum_vec;

struct rule_sums {
    char key[65];
    sum_vec rec;                     /* the record read, sorted by path */
    sum_vec next;                    /* this load's settled files: the next record */
    long long settled_s, settled_ns; /* this load's: changed at or after it, not recorded */
    int missed;                      /* a settled file the record did not have right */
    struct rule_sum pending;         /* rule_sums_known's file not recorded (path NULL: none) */
};

static void id_of(const struct stat *st, struct sum_id *id)
{
    *id = (struct sum_id){(long long)st->st_dev,  (long long)st->st_ino, (long long)st->st_mode,
                          (long long)st->st_size, st->st_mtim.tv_sec,    st->st_mtim.tv_nsec,
                          st->st_ctim.tv_sec,     st->st_ctim.tv_nsec};
}

static int before(long long s, long long ns, long long ref_s, long long ref_ns)
{
    return s < ref_s || (s == ref_s && ns < ref_ns);
}

/* Neither of the file's times is at or after the moment S.NS. */
static int id_settled(const struct sum_id *id, long long s, long long ns)
{
    return before(id->mtime_s, id->mtime_ns, s, ns) && before(id->ctime_s, id->ctime_ns, s, ns);
}

static int sum_cmp(const void *a, const void *b)
{
    return strcmp(((const struct rule_sum *)a)->path, ((const struct rule_sum *)b)->path);
}

/* A decimal number at *P, then the byte STOP (*P moved past both); 0 when not so. */
static int num_then(char **p, char stop, long long *out)
{
    char *s = *p;
    if (*s < '0' || *s > '9') return 0;
    /* digit by digit (strtoull and its locale: a third of reading a record of 120 files) */
    long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        int d = *s - '0';
        if (v > (LLONG_MAX - d) / 10) return 0; /* over LLONG_MAX */
        v = v * 10 + d;
    }
    if (*s != stop) return 0;
    *out = v;
    *p = s + 1;
    return 1;
}

static void sums_clear(sum_vec *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->items[i].path);
    VEC_FREE(*v);
}

/* The record REC (LEN bytes, NUL-terminated) into S->rec: "settled S NS", then a line
 * per file: the identity's 8 numbers, the sha256, the path. 0 (and S->rec empty) when
 * any of it does not read exactly as written. */
static int sums_parse(struct rule_sums *s, char *rec, size_t len)
{
    size_t hl = sizeof SUMS_HEAD - 1;
    if (len <= hl || memcmp(rec, SUMS_HEAD, hl) || rec[len - 1] != '\n' || strlen(rec) != len)
        return 0;
    char *p = rec + hl;
    long long ts, tns;
    if (strncmp(p, "settled ", 8)) return 0;
    p += 8;
    if (!num_then(&p, ' ', &ts) || !num_then(&p, '\n', &tns) || tns >= 1000000000LL) return 0;
    while (p < rec + len) {
        long long f[SUM_ID_FIELDS];
        int ok = 1;
        for (int i = 0; i < SUM_ID_FIELDS && ok; i++) ok = num_then(&p, ' ', &f[i]);
        char *nl = ok ? strchr(p, '\n') : NULL;
        if (!nl || nl - p < 66 || !is_hex64(p) || p[64] != ' ') goto bad;
        struct rule_sum e = {NULL, {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]}, ""};
        memcpy(e.hex, p, 64);
        e.hex[64] = '\0';
        if (!id_settled(&e.id, ts, tns)) goto bad; /* never written so */
        e.path = xstrndup(p + 65, (size_t)(nl - p - 65));
        VEC_PUSH(s->rec, e);
        if (s->rec.len > 1 && strcmp(s->rec.items[s->rec.len - 2].path, e.path) >= 0)
            goto bad; /* written sorted, once each */
        p = nl + 1;
    }
    return 1;
bad:
    sums_clear(&s->rec);
    return 0;
}

void rule_sums_key(const char *dir, char key[65])
{
    struct sha256_ctx c;
    sha256_init(&c);
    add_str(&c, SUMS_HEAD);
    char *cwd = dir[0] == '/' ? NULL : getcwd(NULL, 0); /* a relative DIR: from where */
    add_str(&c, cwd ? cwd : "");
    free(cwd);
    add_str(&c, dir);
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_digest(&c, sizeof dg, dg);
    hex_of(dg, sizeof dg, key);
}

struct rule_sums *rule_sums_open(const char *dir)
{
    if (!doc_cache_on()) return NULL;
    struct rule_sums *s = xcalloc(1, sizeof *s);
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t); /* before any file is looked at */
    long long at = (long long)t.tv_sec * 1000000000LL + t.tv_nsec - rule_sums_settle_ns;
    s->settled_s = at / 1000000000LL;
    s->settled_ns = at % 1000000000LL;
    rule_sums_key(dir, s->key);
    size_t len = 0;
    char *rec = doc_cache_record_get(s->key, &len);
    if (rec) sums_parse(s, rec, len);
    free(rec);
    return s;
}

int rule_sums_file_hex(struct rule_sums *s, const char *path, char out[65])
{
    if (!s) return file_hex(path, out);
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) return file_hex(path, out);
    struct rule_sum e = {(char *)path, {0}, ""};
    id_of(&st, &e.id);
    const struct rule_sum *had =
        s->rec.len ? bsearch(&e, s->rec.items, s->rec.len, sizeof e, sum_cmp) : NULL;
    if (had && !memcmp(&had->id, &e.id, sizeof e.id)) {
        memcpy(out, had->hex, 65);
    } else {
        if (file_hex(path, out) < 0) return -1;
        if (!id_settled(&e.id, s->settled_s, s->settled_ns)) return 0; /* hashed every time */
        s->missed = 1;
    }
    e.path = xstrdup(path);
    memcpy(e.hex, out, 65);
    VEC_PUSH(s->next, e);
    return 0;
}

int rule_sums_known(struct rule_sums *s, const char *path, char known[65])
{
    if (!s) return 0;
    free(s->pending.path);
    s->pending.path = NULL;
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) return 0;
    struct rule_sum e = {(char *)path, {0}, ""};
    id_of(&st, &e.id);
    const struct rule_sum *had =
        s->rec.len ? bsearch(&e, s->rec.items, s->rec.len, sizeof e, sum_cmp) : NULL;
    e.path = xstrdup(path);
    if (!had || memcmp(&had->id, &e.id, sizeof e.id)) {
        s->pending = e; /* its identity before it is read: a change after this moves it */
        return 0;
    }
    memcpy(known, had->hex, 65);
    memcpy(e.hex, had->hex, 65);
    VEC_PUSH(s->next, e);
    return 1;
}

void rule_sums_read(struct rule_sums *s, const char *path, const char hex[65])
{
    if (!s || !s->pending.path) return;
    struct rule_sum e = s->pending;
    s->pending.path = NULL;
    if (strcmp(e.path, path) || !hex[0] || !id_settled(&e.id, s->settled_s, s->settled_ns)) {
        free(e.path); /* hashed every time until it settles */
        return;
    }
    memcpy(e.hex, hex, 65);
    VEC_PUSH(s->next, e);
    s->missed = 1;
}

void rule_sums_close(struct rule_sums *s)
{
    if (!s) return;
    free(s->pending.path);
    if (s->next.len) qsort(s->next.items, s->next.len, sizeof *s->next.items, sum_cmp);
    size_t uniq = 0;
    for (size_t i = 0; i < s->next.len; i++)
        if (!uniq || strcmp(s->next.items[uniq - 1].path, s->next.items[i].path))
            s->next.items[uniq++] = s->next.items[i];
        else free(s->next.items[i].path);
    s->next.len = uniq;
    /* written again when it was missing a file, or lists one no longer asked for */
    if (s->missed || s->next.len != s->rec.len) {
        struct buf out = BUF_INIT;
        buf_adds(&out, SUMS_HEAD);
        buf_addf(&out, "settled %lld %lld\n", s->settled_s, s->settled_ns);
        for (size_t i = 0; i < s->next.len; i++) {
            const struct rule_sum *e = &s->next.items[i];
            if (strchr(e->path, '\n')) continue;
            buf_addf(&out, "%lld %lld %lld %lld %lld %lld %lld %lld %s %s\n", e->id.dev, e->id.ino,
                     e->id.mode, e->id.size, e->id.mtime_s, e->id.mtime_ns, e->id.ctime_s,
                     e->id.ctime_ns, e->hex, e->path);
        }
        doc_cache_record_put(s->key, buf_str(&out), out.len);
        buf_release(&out);
    }
    sums_clear(&s->rec);
    sums_clear(&s->next);
    free(s);
}
