/* doc_cache.c - loaded YAML documents kept on disk, so that a rule set's files are not
 * parsed again on every run (docInt.h: doc_cache_get, doc_cache_put; the entry point is
 * doc_load_file_cached in doc_load.c). libyaml reads a rule set's 220 KB of YAML in about
 * 4 ms, a fifth of a run on a small description; an entry is read back in a tenth of that.
 *
 * An entry is named by the sha256 of the YAML text it was loaded from and 16 hex digits
 * of the engine's (doc_cache_entry_path: two builds used in turn keep their own), and
 * holds:
 *   "MCPDDOC\n", u32 format, u32 n + n bytes: the engine (MCPDESC_VERSION and the
 *   running program's GNU build ID), 64 hex digits: the text's sha256, u64 payload
 *   length, u64: the payload's checksum (doc_cache_checksum), the payload:
 *   u32 entries, the position index (9 u32 each), then the jansson tree in pre-order
 *   ('o' u32 members (u32 key length, key, value)..., 'a' u32 items, 's' u32 length and
 *   bytes, 'i' i64, 'r' the double's 64 bits, 't' 'f' 'n'; 'd' before a value held
 *   again later, 'x' u32: the n-th value so marked, held again).
 * Integers are the machine's own (an entry is read by the program that wrote it).
 * Nothing read is trusted unchecked: an entry serves only when its format, engine,
 * text digest (recomputed from the bytes just read) and payload checksum all match and the
 * payload decodes to the end within bounds; anything else is ignored and written anew.
 * The checksum finds an entry torn or damaged on disk; it is no defence against a writer
 * (who could write any digest beside the payload): the directory must be the user's
 * own, written by no one else (dir_ours). It replaced the payload's sha256 (format 1),
 * a quarter of a start's instructions on a processor without SHA extensions; format 3
 * computes it in four lanes.
 * A value the tree holds more than once (a YAML alias) is read back shared ('d', 'x'
 * below). A program without a build ID keeps nothing (a rebuilt engine might load
 * the same text differently).
 * A record (doc_cache_record_*, ".rec") keeps a caller's bytes by key, and a value record
 * (doc_cache_value_*, ".val") a jansson value in the tree form above: a rule set's schema
 * files parsed once (rules/rule_cache.c), read back in a fifth of jansson's parse. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#ifndef __EMSCRIPTEN__
#include <link.h>
#endif
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "doc/docInt.h"

#ifndef MCPDESC_VERSION
#define MCPDESC_VERSION "dev"
#endif

/* MAX_NEST: deeper than any document the loader accepts (an entry is only written for a
 * document loaded within the default bounds). MAX_SHARED: values held more than once
 * that a document may have and still be kept (each is looked up among those before). */
enum {
    CACHE_FORMAT = 3,
    ENTRY_FIELDS = 9,
    MAX_NEST = DOC_DEFAULT_MAX_DEPTH + 2,
    MAX_SHARED = 4096,
    TOUCH_AFTER = 60
};
static const char MAGIC[8] = {'M', 'C', 'P', 'D', 'D', 'O', 'C', '\n'};

/* ---- the engine: this version and this very program --------------------------------- */

static char engine[128];
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

#ifndef __EMSCRIPTEN__
/* The main program's NT_GNU_BUILD_ID note, in hex, into engine (after the version). */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    char *hex = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const unsigned char *name = p + sizeof *nh;
            const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (desc + nh->n_descsz > end) break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
                nh->n_descsz > 0 && nh->n_descsz <= 40) {
                for (size_t k = 0; k < nh->n_descsz; k++) snprintf(hex + 2 * k, 3, "%02x", desc[k]);
                return 1;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return 1; /* the first object is the main program: look no further */
}
#endif

static char engine_tag[17]; /* 16 hex digits of the engine's sha256: its entries' names */

static void engine_init(void)
{
    char id[81] = "";
#if defined(MCPDESC_BUILD_ID)
    /* a build without ELF notes (WebAssembly, mk/wasm.mk) names itself: the digest of
     * everything it was compiled from */
    snprintf(id, sizeof id, "%s", MCPDESC_BUILD_ID);
#elif !defined(__EMSCRIPTEN__)
    dl_iterate_phdr(find_build_id, id);
#endif
    if (!*id) return;
    snprintf(engine, sizeof engine, "mcpdesc %s %s", MCPDESC_VERSION, id);
    struct sha256_ctx c;
    uint8_t sum[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, strlen(engine), (const uint8_t *)engine);
    sha256_digest(&c, sizeof sum, sum);
    for (int i = 0; i < 8; i++) snprintf(engine_tag + 2 * i, 3, "%02x", sum[i]);
}

/* "" when this program has no build ID (then nothing is kept). */
static const char *engine_key(void)
{
    pthread_once(&engine_once, engine_init);
    return engine;
}

/* ---- where ----------------------------------------------------------------------------- */

char *doc_cache_dir(void)
{
    const char *off = getenv("MCPDESC_NO_CACHE");
    if (off && *off && strcmp(off, "0")) return NULL; /* as MCPDESC_NO_CONFIG */
    if (!*engine_key()) return NULL;
    /* XDG Base Directory: $XDG_CACHE_HOME when absolute, else $HOME/.cache */
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') return xasprintf("%s/mcpdesc/docs", xdg);
    if (home && home[0] == '/') return xasprintf("%s/.cache/mcpdesc/docs", home);
    return NULL;
}

/* DIR is a directory of this user that no one else may write into. */
static int dir_ours(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
        !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* mkdir -p DIR (each new directory 0700); then dir_ours. */
static int make_dir(const char *dir)
{
    if (dir_ours(dir)) return 1;
    char *p = xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0700) < 0 && errno != EEXIST) break;
        *s = '/';
    }
    free(p);
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) return 0;
    return dir_ours(dir);
}

/* Named by the text and by the program: two builds used in turn (an installed one and
 * a checkout's) each keep their own entries rather than write over each other's. */
char *doc_cache_entry_path(const char *dir, const char hex[65])
{
    (void)engine_key(); /* sets engine_tag */
    return xasprintf("%s/%s-%s.doc", dir, hex, engine_tag);
}

/* ---- a bounded directory --------------------------------------------------------------
 * Every edit of a rule file leaves an entry for its new text, so the directory would only
 * grow: past DOC_CACHE_MAX_ENTRIES entries, a write removes the least recently written
 * or used until three quarters are left (one still in use is then parsed and written
 * again). An entry read is marked used (its time set to now) when its time is more than
 * TOUCH_AFTER seconds old: by write time alone, the entries every run reads were the
 * first removed when other builds wrote many (several checkouts' tests on one machine),
 * and each run then parsed its rule set again. */

struct aged {
    char *name;
    time_t mtime;
};

static int aged_cmp(const void *a, const void *b)
{
    const struct aged *x = a, *y = b;
    if (x->mtime != y->mtime) return x->mtime < y->mtime ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return 1;
}

/* An entry of any build: "<64 hex>-<16 hex>.doc", or "<64 hex>.doc" (the first naming),
 * or a record (doc_cache_record_put, doc_cache_value_put): "<64 hex>-<16 hex>.rec" or
 * ".val". The bound is the directory's: every build's entries count. */
static int is_entry_name(const char *n)
{
    size_t len = strlen(n);
    if (len == 64 + 4) return !strcmp(n + 64, ".doc") && all_hex(n, 64);
    return len == 64 + 1 + 16 + 4 && n[64] == '-' &&
        (!strcmp(n + 81, ".doc") || !strcmp(n + 81, ".rec") || !strcmp(n + 81, ".val")) &&
        all_hex(n, 64) && all_hex(n + 65, 16);
}

static void prune(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    VEC(struct aged) all = VEC_INIT;
    for (struct dirent *e; (e = readdir(dp));) {
        if (!is_entry_name(e->d_name)) continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            struct aged a = {p, st.st_mtime};
            VEC_PUSH(all, a);
        } else {
            free(p);
        }
    }
    closedir(dp);
    if (all.len > DOC_CACHE_MAX_ENTRIES) {
        qsort(all.items, all.len, sizeof *all.items, aged_cmp);
        for (size_t i = 0; i < all.len - DOC_CACHE_MAX_ENTRIES * 3 / 4; i++)
            unlink(all.items[i].name);
    }
    for (size_t i = 0; i < all.len; i++) free(all.items[i].name);
    VEC_FREE(all);
}

/* One step of a lane: every bit of W moves H (a multiply by an odd constant and an
 * xor-shift are both one to one). */
static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    return h ^ (h >> 29);
}

uint64_t doc_cache_checksum(const void *data, size_t len)
{
    const unsigned char *p = data;
    /* four lanes of 8 bytes, each waiting only on its own multiply: about 4 bytes a
     * cycle (one lane, format 2, did one byte a cycle: a tenth of a start's reading
     * of the cache) */
    uint64_t lane[4] = {0x9e3779b97f4a7c15u ^ (uint64_t)len, 0xc2b2ae3d27d4eb4fu,
                        0x165667b19e3779f9u, 0x27d4eb2f165667c5u};
    for (; len >= 32; p += 32, len -= 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + 8 * k, 8);
            lane[k] = mix(lane[k], w);
        }
    uint64_t h = mix(mix(mix(lane[0], lane[1]), lane[2]), lane[3]);
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix(h, w);
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 32);
}

/* ---- writing ------------------------------------------------------------------------ */

static void put_u32(struct buf *b, uint32_t v)
{
    buf_add(b, (const char *)&v, sizeof v);
}

static void put_u64(struct buf *b, uint64_t v)
{
    buf_add(b, (const char *)&v, sizeof v);
}

/* The values held more than once (a YAML alias holds its anchor's value): each is
 * written once, as 'd' and the value, and then 'x' and its number, and read back shared,
 * so that the tree read back is the tree written, identities included. */
struct shared {
    VEC(json_t *) seen;
};

static int put_value(struct buf *b, json_t *v, struct shared *sh);

/* V in pre-order; 0 when it is of a kind this format does not know. */
static int put_shared(struct buf *b, json_t *v, struct shared *sh)
{
    /* true, false and null are jansson's singletons: never counted */
    if (v->refcount == 1 || json_is_boolean(v) || json_is_null(v)) return put_value(b, v, sh);
    for (size_t i = 0; i < sh->seen.len; i++)
        if (sh->seen.items[i] == v) {
            buf_addc(b, 'x');
            put_u32(b, (uint32_t)i);
            return 1;
        }
    if (sh->seen.len >= MAX_SHARED) return 0; /* not kept: parsed again next time */
    VEC_PUSH(sh->seen, v);
    buf_addc(b, 'd');
    return put_value(b, v, sh);
}

static int put_value(struct buf *b, json_t *v, struct shared *sh)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        buf_addc(b, 'o');
        put_u32(b, (uint32_t)json_object_size(v));
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            size_t kl = json_object_iter_key_len(it);
            put_u32(b, (uint32_t)kl);
            buf_add(b, json_object_iter_key(it), kl);
            if (!put_shared(b, json_object_iter_value(it), sh)) return 0;
        }
        return 1;
    }
    case JSON_ARRAY:
        buf_addc(b, 'a');
        put_u32(b, (uint32_t)json_array_size(v));
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!put_shared(b, json_array_get(v, i), sh)) return 0;
        return 1;
    case JSON_STRING:
        buf_addc(b, 's');
        put_u32(b, (uint32_t)json_string_length(v));
        buf_add(b, json_string_value(v), json_string_length(v));
        return 1;
    case JSON_INTEGER: {
        buf_addc(b, 'i');
        int64_t i = (int64_t)json_integer_value(v);
        buf_add(b, (const char *)&i, sizeof i);
        return 1;
    }
    case JSON_REAL: {
        buf_addc(b, 'r');
        double r = json_real_value(v);
        buf_add(b, (const char *)&r, sizeof r);
        return 1;
    }
    case JSON_TRUE: buf_addc(b, 't'); return 1;
    case JSON_FALSE: buf_addc(b, 'f'); return 1;
    case JSON_NULL: buf_addc(b, 'n'); return 1;
    }
    return 0;
}

/* Write OUT to DIR/NAME's place PATH: aside, then renamed over, so that a reader sees a
 * whole entry or none; then the directory is held to its bound. */
static void write_entry(const char *dir, const char *path, const struct buf *out)
{
    char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int ok = fd >= 0;
    for (size_t off = 0; ok && off < out->len;) {
        ssize_t n = write(fd, buf_str(out) + off, out->len - off);
        if (n <= 0) ok = 0;
        else off += (size_t)n;
    }
    if (fd >= 0 && close(fd) < 0) ok = 0;
    if (!ok || rename(tmp, path) < 0) unlink(tmp);
    else prune(dir);
    free(tmp);
}

void doc_cache_put(const char *dir, const doc *d, const char hex[65])
{
    struct buf payload = BUF_INIT;
    put_u32(&payload, (uint32_t)d->idx.len);
    for (size_t i = 0; i < d->idx.len; i++) {
        const struct doc_entry *e = &d->idx.items[i];
        uint32_t f[ENTRY_FIELDS] = {e->line,  e->col, e->kline,  e->kcol, e->size,
                                    e->start, e->end, e->kstart, e->kend};
        buf_add(&payload, (const char *)f, sizeof f);
    }
    /* the flags go after the fields: not one of the nine above */
    for (size_t i = 0; i < d->idx.len; i++) put_u32(&payload, d->idx.items[i].flags);
    struct shared sh = {VEC_INIT};
    int ok = d->root && put_shared(&payload, d->root, &sh);
    VEC_FREE(sh.seen);
    if (!ok || !make_dir(dir)) {
        buf_release(&payload);
        return;
    }
    const char *key = engine_key();
    struct buf out = BUF_INIT;
    buf_add(&out, MAGIC, sizeof MAGIC);
    put_u32(&out, CACHE_FORMAT);
    put_u32(&out, (uint32_t)strlen(key));
    buf_adds(&out, key);
    buf_add(&out, hex, 64);
    put_u64(&out, payload.len);
    put_u64(&out, doc_cache_checksum(buf_str(&payload), payload.len));
    buf_add(&out, buf_str(&payload), payload.len);
    buf_release(&payload);
    char *path = doc_cache_entry_path(dir, hex);
    write_entry(dir, path, &out);
    free(path);
    buf_release(&out);
}

/* ---- reading ------------------------------------------------------------------------ */

struct reader {
    const unsigned char *p, *end;
    VEC(json_t *) shared; /* borrowed: the tree holds them */
};

static int get(struct reader *r, void *out, size_t n)
{
    if ((size_t)(r->end - r->p) < n) return 0;
    memcpy(out, r->p, n);
    r->p += n;
    return 1;
}

/* The value at R, new; NULL when the payload does not decode. */
static json_t *get_value(struct reader *r, int depth)
{
    unsigned char tag;
    uint32_t n;
    if (depth > MAX_NEST || !get(r, &tag, 1)) return NULL;
    switch (tag) {
    case 'd': {
        if ((size_t)(r->end - r->p) < 1 || *r->p == 'd' || *r->p == 'x') return NULL;
        size_t at = r->shared.len;
        VEC_PUSH(r->shared, NULL); /* its number, before the values inside it */
        json_t *v = get_value(r, depth);
        r->shared.items[at] = v;
        return v;
    }
    case 'x':
        if (!get(r, &n, sizeof n) || n >= r->shared.len || !r->shared.items[n]) return NULL;
        return json_incref(r->shared.items[n]);
    case 'o': {
        if (!get(r, &n, sizeof n)) return NULL;
        json_t *o = json_object();
        for (uint32_t i = 0; i < n; i++) {
            uint32_t kl;
            if (!get(r, &kl, sizeof kl) || (size_t)(r->end - r->p) < kl) break;
            const char *key = (const char *)r->p;
            r->p += kl;
            json_t *v = get_value(r, depth + 1);
            if (!v || json_object_setn_new_nocheck(o, key, kl, v) < 0) break;
            if (i + 1 == n) return o;
        }
        if (n == 0) return o;
        json_decref(o);
        return NULL;
    }
    case 'a': {
        if (!get(r, &n, sizeof n)) return NULL;
        json_t *a = json_array();
        for (uint32_t i = 0; i < n; i++) {
            json_t *v = get_value(r, depth + 1);
            if (!v || json_array_append_new(a, v) < 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case 's': {
        if (!get(r, &n, sizeof n) || (size_t)(r->end - r->p) < n) return NULL;
        json_t *s = json_stringn_nocheck((const char *)r->p, n);
        r->p += n;
        return s;
    }
    case 'i': {
        int64_t i;
        return get(r, &i, sizeof i) ? json_integer((json_int_t)i) : NULL;
    }
    case 'r': {
        double d;
        return get(r, &d, sizeof d) ? json_real(d) : NULL;
    }
    case 't': return json_true();
    case 'f': return json_false();
    case 'n': return json_null();
    }
    return NULL;
}

/* The whole file PATH, or NULL when it cannot be read: an entry of ENTRY_MAP_MIN bytes
 * or more mapped (its pages are the page cache's: neither copied nor faulted in one by
 * one; an entry is replaced by a rename, never written in place, so the mapped file stays
 * whole), a smaller one read at its size in one call (stdio copied a 150 KB entry through
 * 64 KB chunks and a growing buffer). Let go of it with release_all. */
#define ENTRY_MAP_MIN ((size_t)32 << 10)

struct whole {
    char *data;
    size_t len;
    int mapped;
};

static int read_all(const char *path, struct whole *w, time_t *mtime)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return -1;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        return -1;
    }
    size_t want = (size_t)st.st_size, n = 0;
    *mtime = st.st_mtime;
    if (want >= ENTRY_MAP_MIN) {
        void *m = mmap(NULL, want, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        close(fd);
        if (m == MAP_FAILED) return -1;
        *w = (struct whole){m, want, 1};
        return 0;
    }
    char *p = xmalloc(want + 1);
    while (n < want) {
        ssize_t r = read(fd, p + n, want - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (n != want) { /* cut short, or changed under us: not an entry to trust */
        free(p);
        return -1;
    }
    *w = (struct whole){p, n, 0};
    return 0;
}

static void release_all(struct whole *w)
{
    if (w->mapped) munmap(w->data, w->len);
    else free(w->data);
    w->data = NULL;
}

doc *doc_cache_get(const char *dir, const char *name, char *text, size_t len, const char hex[65])
{
    if (!dir_ours(dir)) return NULL;
    char *path = doc_cache_entry_path(dir, hex);
    time_t written = 0;
    struct whole w;
    if (read_all(path, &w, &written) < 0) {
        free(path);
        return NULL;
    }
    const unsigned char *data = (const unsigned char *)w.data;
    struct reader r = {data, data + w.len, VEC_INIT};
    const char *key = engine_key();
    char magic[sizeof MAGIC], their_hex[64];
    uint32_t format = 0, kl = 0, nidx = 0;
    uint64_t plen = 0, sum = 0;
    doc *d = NULL;
    json_t *root = NULL;
    if (!get(&r, magic, sizeof magic) || memcmp(magic, MAGIC, sizeof MAGIC) ||
        !get(&r, &format, sizeof format) || format != CACHE_FORMAT || !get(&r, &kl, sizeof kl) ||
        kl != strlen(key) || (size_t)(r.end - r.p) < kl || memcmp(r.p, key, kl))
        goto out;
    r.p += kl;
    if (!get(&r, their_hex, 64) || memcmp(their_hex, hex, 64) || !get(&r, &plen, sizeof plen) ||
        !get(&r, &sum, sizeof sum) || plen != (uint64_t)(r.end - r.p))
        goto out;
    if (sum != doc_cache_checksum(r.p, (size_t)plen) || !get(&r, &nidx, sizeof nidx) ||
        (uint64_t)(r.end - r.p) < (uint64_t)nidx * (ENTRY_FIELDS + 1) * 4)
        goto out;
    d = xcalloc(1, sizeof *d);
    pthread_mutex_init(&d->cache_lock, NULL);
    VEC_RESERVE(d->idx, nidx); /* at once: the count is bounded by the payload's length */
    for (uint32_t i = 0; i < nidx; i++) {
        uint32_t f[ENTRY_FIELDS];
        get(&r, f, sizeof f);
        struct doc_entry e = {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], 0};
        /* what the model relies on: spans inside the text, subtrees inside the index */
        if (e.start > e.end || e.end > len || e.kstart > e.kend || e.kend > len || !e.size ||
            e.size > nidx - i || !e.line || !e.col)
            goto out;
        VEC_PUSH(d->idx, e);
    }
    if (!nidx) goto out;
    for (uint32_t i = 0; i < nidx; i++) get(&r, &d->idx.items[i].flags, 4);
    d->arena = doc_arena_new_tree((size_t)plen); /* the payload: about the tree's size */
    doc_arena_begin(d->arena);
    root = get_value(&r, 0);
    doc_arena_end(d->arena);
    VEC_FREE(r.shared);
    if (!root || r.p != r.end) goto out;
    d->name = xstrdup(name);
    d->text = text;
    d->text[len] = '\0';
    d->len = len;
    d->is_yaml = 1;
    d->root = root;
    release_all(&w);
    if (written < time(NULL) - TOUCH_AFTER) utimensat(AT_FDCWD, path, NULL, 0); /* used */
    free(path);
    return d;
out:
    VEC_FREE(r.shared);
    json_decref(root);
    if (d) {
        VEC_FREE(d->idx);
        doc_arena_release(d->arena); /* after the tree's values went (json_decref above) */
        pthread_mutex_destroy(&d->cache_lock);
    }
    free(d);
    release_all(&w);
    free(path);
    return NULL;
}

/* ---- records: a caller's few bytes kept by key ---------------------------------------
 * "MCPDREC\n", u32 format, u32 n + n bytes: the engine, 64 hex digits: the key, u64
 * payload length, u64 the payload's checksum, the payload. Read back only by the same
 * engine, whole and with its checksum right. */

static const char REC_MAGIC[8] = {'M', 'C', 'P', 'D', 'R', 'E', 'C', '\n'};

/* SUFFIX: "rec" for a caller's bytes, "val" for a value (doc_cache_value_put): a value's
 * record is not counted among the records of a caller's (rules/rule_cache.c). */
static char *record_path(const char *dir, const char key[65], const char *suffix)
{
    (void)engine_key(); /* sets engine_tag */
    return xasprintf("%s/%.64s-%s.%s", dir, key, engine_tag, suffix);
}

const char *doc_cache_engine(void)
{
    return engine_key();
}

int doc_cache_on(void)
{
    char *dir = doc_cache_dir();
    free(dir);
    return dir != NULL;
}

static char *record_get_as(const char key[65], const char *suffix, size_t *len)
{
    char *dir = doc_cache_dir();
    if (!dir) return NULL;
    char *path = dir_ours(dir) ? record_path(dir, key, suffix) : NULL;
    time_t written = 0;
    struct whole w = {NULL, 0, 0};
    if (path && read_all(path, &w, &written) < 0) w.data = NULL;
    char *payload = NULL, *data = w.data;
    const unsigned char *bytes = (const unsigned char *)data; /* NULL: none read */
    struct reader r = {bytes, bytes ? bytes + w.len : NULL, VEC_INIT};
    const char *engine_now = engine_key();
    char magic[sizeof REC_MAGIC], their_key[64];
    uint32_t format = 0, kl = 0;
    uint64_t plen = 0, sum = 0;
    if (data && get(&r, magic, sizeof magic) && !memcmp(magic, REC_MAGIC, sizeof magic) &&
        get(&r, &format, sizeof format) && format == CACHE_FORMAT && get(&r, &kl, sizeof kl) &&
        kl == strlen(engine_now) && (size_t)(r.end - r.p) >= kl && !memcmp(r.p, engine_now, kl)) {
        r.p += kl;
        if (get(&r, their_key, 64) && !memcmp(their_key, key, 64) && get(&r, &plen, sizeof plen) &&
            get(&r, &sum, sizeof sum) && plen == (uint64_t)(r.end - r.p) &&
            sum == doc_cache_checksum(r.p, (size_t)plen)) {
            payload = xmalloc((size_t)plen + 1);
            memcpy(payload, r.p, (size_t)plen);
            payload[plen] = '\0';
            *len = (size_t)plen;
            if (written < time(NULL) - TOUCH_AFTER) utimensat(AT_FDCWD, path, NULL, 0);
        }
    }
    if (data) release_all(&w);
    free(path);
    free(dir);
    return payload;
}

char *doc_cache_record_get(const char key[65], size_t *len)
{
    return record_get_as(key, "rec", len);
}

static void record_put_as(const char key[65], const char *suffix, const char *data, size_t len)
{
    char *dir = doc_cache_dir();
    if (!dir || !make_dir(dir)) {
        free(dir);
        return;
    }
    const char *engine_now = engine_key();
    struct buf out = BUF_INIT;
    buf_add(&out, REC_MAGIC, sizeof REC_MAGIC);
    put_u32(&out, CACHE_FORMAT);
    put_u32(&out, (uint32_t)strlen(engine_now));
    buf_adds(&out, engine_now);
    buf_add(&out, key, 64);
    put_u64(&out, len);
    put_u64(&out, doc_cache_checksum(data, len));
    buf_add(&out, data, len);
    char *path = record_path(dir, key, suffix);
    write_entry(dir, path, &out);
    free(path);
    buf_release(&out);
    free(dir);
}

void doc_cache_record_put(const char key[65], const char *data, size_t len)
{
    record_put_as(key, "rec", data, len);
}

void doc_cache_record_drop(const char key[65])
{
    char *dir = doc_cache_dir();
    char *path = dir && dir_ours(dir) ? record_path(dir, key, "rec") : NULL;
    if (path) unlink(path);
    free(path);
    free(dir);
}

/* ---- values: a jansson value kept as a record, in the entries' tree form ------------ */

void doc_cache_value_put(const char key[65], json_t *v)
{
    if (!doc_cache_on()) return;
    struct buf payload = BUF_INIT;
    struct shared sh = {VEC_INIT};
    if (v && put_shared(&payload, v, &sh))
        record_put_as(key, "val", buf_str(&payload), payload.len);
    VEC_FREE(sh.seen);
    buf_release(&payload);
}

json_t *doc_cache_value_get(const char key[65])
{
    size_t len = 0;
    char *rec = record_get_as(key, "val", &len);
    if (!rec) return NULL;
    struct reader r = {(const unsigned char *)rec, (const unsigned char *)rec + len, VEC_INIT};
    json_t *v = get_value(&r, 0);
    VEC_FREE(r.shared);
    if (v && r.p != r.end) { /* more after the value: not one this program wrote */
        json_decref(v);
        v = NULL;
    }
    free(rec);
    return v;
}
