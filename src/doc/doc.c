/* doc.c - the document model (see doc.h): the pre-order position index, node navigation,
 * pointer lookup, line table and load errors. It is the bottom of the document's files and
 * calls none of them: the loaders that fill the index, doc_json.c (one pass, jansson's
 * parser when it gives up) and doc_yaml.c (libyaml's events), use only this model
 * (docInt.h), and doc_load.c, the public load entry points, picks a loader. */
#include "doc/doc.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"
#include "doc/docInt.h"

#define DOC_BIG 32        /* children before a container gets an index */
#define DOC_CP_BLOCK 4096 /* bytes between two counts of characters (chars_before) */

void doc_error_release(struct doc_error *err)
{
    free(err->message);
    err->message = NULL;
}

void doc_set_error(struct doc_error *err, uint32_t line, uint32_t col, char *msg)
{
    err->message = msg;
    err->line = line;
    err->col = col;
}

/* Bytes of a leading UTF-8 byte order mark (RFC 8259 section 8.1 lets a parser ignore
 * it; positions count from the character after it). */
size_t doc_bom_len(const char *text, size_t len)
{
    return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* Bytes of the line break at TEXT[I], 0 if none. JSON breaks lines at LF only (as
 * jansson and the scans count them); libyaml also at CR, CRLF and YAML 1.1's NEL, LS
 * and PS, and a YAML document's positions count those. */
size_t doc_break_len(const doc *d, size_t i)
{
    const unsigned char *t = (const unsigned char *)d->text + i;
    size_t left = d->len - i;
    if (t[0] == '\n') return 1;
    if (!d->is_yaml) return 0;
    if (t[0] == '\r') return left > 1 && t[1] == '\n' ? 2 : 1;
    if (left > 1 && t[0] == 0xC2 && t[1] == 0x85) return 2;
    if (left > 2 && t[0] == 0xE2 && t[1] == 0x80 && (t[2] == 0xA8 || t[2] == 0xA9)) return 3;
    return 0;
}

void doc_text_read(const doc *d)
{
    doc *m = (doc *)d; /* like a cache: what is mapped, not what is read */
    if (d->text_mapped && atomic_fetch_add(&m->text_reads, 1) % 64 == 63)
        doc_text_drop(d, 0, d->len);
}

static void line_table_build(doc *m);
static void release_positions(doc *d);

/* The line table (starts of lines), built on first use: a cache. */
const doc *doc_line_table(const doc *d)
{
    doc *m = (doc *)d;
    pthread_mutex_lock(&m->cache_lock);
    if (!m->line_starts.len) line_table_build(m);
    pthread_mutex_unlock(&m->cache_lock);
    return d;
}

void doc_text_release(doc *d)
{
    if (d->text_mapped) munmap(d->text, d->len);
    else free(d->text);
    d->text = NULL;
    d->len = 0;
    d->text_mapped = 0;
}

void doc_text_drop(const doc *d, size_t from, size_t to)
{
    if (!d->text_mapped) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)d->text + from + page - 1) & ~(uintptr_t)(page - 1),
              b = ((uintptr_t)d->text + (to < d->len ? to : d->len)) & ~(uintptr_t)(page - 1);
    if (to >= d->len) b = ((uintptr_t)d->text + d->len + page - 1) & ~(uintptr_t)(page - 1);
    if (a < b) madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Calls ON(CTX, START) with the start of each line after the first, in order, until it
 * returns nonzero. A mapped text's pages leave memory behind the scan. */
static void lines_scan(const doc *m, int (*on)(void *ctx, size_t start), void *ctx)
{
    const unsigned char *t = (const unsigned char *)m->text;
    /* LF is the only break of JSON, and of most YAML: memchr finds them */
    int lf_only = !m->is_yaml ||
        (!memchr(t, '\r', m->len) && !memchr(t, 0xC2, m->len) && !memchr(t, 0xE2, m->len));
    size_t dropped = 0;
    for (size_t i = 0; i < m->len;) {
        size_t n = 1;
        if (lf_only) {
            const unsigned char *p = memchr(t + i, '\n', m->len - i);
            if (!p) break;
            i = (size_t)(p - t);
        } else {
            /* most bytes start no break: only LF, CR and the leads of NEL, LS and PS may;
             * the others skip the call (a rule set's load reads its texts through here) */
            unsigned char c = t[i];
            if ((c != '\n' && c != '\r' && c != 0xC2 && c != 0xE2) || !(n = doc_break_len(m, i))) {
                i++;
                continue;
            }
        }
        i += n;
        if (i - dropped >= DOC_DROP_STEP) {
            doc_text_drop(m, dropped, i);
            dropped = i;
        }
        if (on(ctx, i)) break;
    }
    doc_text_drop(m, dropped, m->len);
}

static int line_start_push(void *ctx, size_t start)
{
    doc *m = ctx;
    VEC_PUSH(m->line_starts, (uint32_t)start);
    return 0;
}

static void line_table_build(doc *m)
{
    VEC_PUSH(m->line_starts, 0);
    lines_scan(m, line_start_push, m);
}

void doc_free(doc *d)
{
    if (!d) return;
    /* Large buffers first: freeing one after the tree's many small blocks would make
     * malloc consolidate all of them (a fifth of the run time on a 70 MB document). */
    doc_text_release(d);
    release_positions(d);
    for (size_t i = 0; i < d->kept.len; i++) free(d->kept.items[i].text);
    VEC_FREE(d->kept);
    json_decref(d->root);
    doc_arena_release(d->arena);
    doc_arena_release(d->arena2);
    free(d->name);
    pthread_mutex_destroy(&d->cache_lock);
    free(d);
}

json_t *doc_root(const doc *d)
{
    return d->root;
}
const char *doc_name(const doc *d)
{
    return d->name;
}
/* A document's index is YAML's idx or JSON's jidx (docInt.h): one of them is empty. */
size_t doc_node_count(const doc *d)
{
    return d->idx.len + d->jidx.len;
}

/* Entries in N's subtree (N < doc_node_count). */
static uint32_t node_size(const doc *d, doc_node n)
{
    return d->idx.len ? d->idx.items[n].size : d->jidx.items[n].size;
}

struct doc_pos doc_node_pos(const doc *d, doc_node n)
{
    if (n >= doc_node_count(d)) return (struct doc_pos){0, 0};
    if (!d->idx.len) return doc_offset_pos(d, d->jidx.items[n].start);
    return (struct doc_pos){d->idx.items[n].line, d->idx.items[n].col};
}

struct doc_pos doc_node_key_pos(const doc *d, doc_node n)
{
    if (n >= doc_node_count(d)) return (struct doc_pos){0, 0};
    if (!d->idx.len) return doc_offset_pos(d, d->jidx.items[n].kstart);
    return (struct doc_pos){d->idx.items[n].kline, d->idx.items[n].kcol};
}

int doc_node_span(const doc *d, doc_node n, struct doc_span *value, struct doc_span *key)
{
    if (n >= doc_node_count(d)) return -1;
    if (!d->idx.len) {
        const struct doc_jentry *e = &d->jidx.items[n];
        uint32_t kend = e->kstart;
        if (kend != e->start) { /* past the key string's closing quote */
            kend++;
            while (kend < d->len && d->text[kend] != '"') kend += d->text[kend] == '\\' ? 2 : 1;
            kend++;
        }
        if (value) *value = (struct doc_span){e->start, e->end};
        if (key) *key = (struct doc_span){e->kstart, kend};
        doc_text_read(d);
        return 0;
    }
    const struct doc_entry *e = &d->idx.items[n];
    if (value) *value = (struct doc_span){e->start, e->end};
    if (key) *key = (struct doc_span){e->kstart, e->kend};
    return (int)e->flags;
}

const char *doc_text(const doc *d, size_t *len)
{
    if (len) *len = d->len;
    return d->text;
}

int doc_is_yaml(const doc *d)
{
    return d->is_yaml;
}

static uint64_t dollar_hash(const char *name, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
    return h;
}

void doc_dollar_add(struct doc_dollar *s, const char *name, size_t len)
{
    doc_dollar_add_hash(s, dollar_hash(name, len));
}

void doc_dollar_add_hash(struct doc_dollar *s, uint64_t h)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->h[i] == h) return;
    if (s->n == DOC_DOLLAR_MAX) s->over = 1;
    else s->h[s->n++] = h;
}

int doc_may_have_member(const doc *d, const char *name)
{
    if (!d->dollar_known || name[0] != '$') return 1;
    uint64_t h = dollar_hash(name, strlen(name));
    for (unsigned i = 0; i < d->dollar.n; i++)
        if (d->dollar.h[i] == h) return 1;
    return 0;
}

doc_node doc_node_first_child(const doc *d, doc_node n)
{
    if (n >= doc_node_count(d) || node_size(d, n) < 2) return DOC_NONE;
    return n + 1;
}

doc_node doc_node_next_sibling(const doc *d, doc_node parent, doc_node n)
{
    if (parent >= doc_node_count(d) || n >= doc_node_count(d)) return DOC_NONE;
    doc_node next = n + node_size(d, n);
    return next < parent + node_size(d, parent) ? next : DOC_NONE;
}

static uint64_t key_hash(const char *k)
{
    uint64_t h = 1469598103934665603ull;
    for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

static const struct doc_children *children_find(doc *m, doc_node n, json_t *v, size_t count);

/* The child index of container N (json V), built on first use, into *OUT; NULL for small
 * ones. A copy: the cache's entries move as others are added (by other threads too),
 * while the arrays an entry points to do not. */
static const struct doc_children *children_of(const doc *d, doc_node n, json_t *v,
                                              struct doc_children *out)
{
    doc *m = (doc *)d; /* a cache, like the line table */
    size_t count = json_is_object(v) ? json_object_size(v)
        : json_is_array(v)           ? json_array_size(v)
                                     : 0;
    if (count < DOC_BIG || n >= doc_node_count(d)) return NULL;
    pthread_mutex_lock(&m->cache_lock);
    *out = *children_find(m, n, v, count);
    pthread_mutex_unlock(&m->cache_lock);
    return out;
}

static const struct doc_children *children_find(doc *m, doc_node n, json_t *v, size_t count)
{
    const doc *d = m;
    size_t a = 0, b = m->big.len;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (m->big.items[mid].node < n) a = mid + 1;
        else b = mid;
    }
    if (a < m->big.len && m->big.items[a].node == n) return &m->big.items[a];
    struct doc_children c = {n, 0, NULL, NULL, NULL, 0};
    c.child = xmalloc(count * sizeof *c.child);
    for (doc_node k = doc_node_first_child(d, n); k != DOC_NONE && c.n < count;
         k = doc_node_next_sibling(d, n, k))
        c.child[c.n++] = k;
    if (json_is_object(v)) {
        c.nslots = 1;
        while (c.nslots < 2 * c.n) c.nslots *= 2;
        c.keys = xcalloc(c.nslots, sizeof *c.keys);
        c.slot_child = xcalloc(c.nslots, sizeof *c.slot_child);
        uint32_t i = 0;
        for (void *it = json_object_iter(v); it && i < c.n;
             it = json_object_iter_next(v, it), i++) {
            const char *k = json_object_iter_key(it);
            size_t s = key_hash(k) & (c.nslots - 1);
            while (c.keys[s]) s = (s + 1) & (c.nslots - 1);
            c.keys[s] = k;
            c.slot_child[s] = i;
        }
    }
    VEC_RESERVE(m->big, 1);
    memmove(m->big.items + a + 1, m->big.items + a, (m->big.len - a) * sizeof *m->big.items);
    m->big.items[a] = c;
    m->big.len++;
    return &m->big.items[a];
}

static doc_node walk_item(const doc *d, doc_node n, size_t idx)
{
    doc_node c = doc_node_first_child(d, n);
    while (c != DOC_NONE && idx--) c = doc_node_next_sibling(d, n, c);
    return c;
}

doc_node doc_node_item(const doc *d, doc_node n, size_t idx)
{
    return walk_item(d, n, idx);
}

doc_node doc_node_array_item(const doc *d, doc_node n, json_t *arr, size_t idx)
{
    struct doc_children found;
    const struct doc_children *c = children_of(d, n, arr, &found);
    if (c) return idx < c->n ? c->child[idx] : DOC_NONE;
    return walk_item(d, n, idx);
}

doc_node doc_node_member_key(const doc *d, doc_node n, json_t *obj, const char *key,
                             const char **stable_key)
{
    struct doc_children found;
    const struct doc_children *c = children_of(d, n, obj, &found);
    if (c) {
        for (size_t s = key_hash(key) & (c->nslots - 1); c->keys[s]; s = (s + 1) & (c->nslots - 1))
            if (!strcmp(c->keys[s], key)) {
                if (stable_key) *stable_key = c->keys[s];
                return c->slot_child[s] < c->n ? c->child[c->slot_child[s]] : DOC_NONE;
            }
        return DOC_NONE;
    }
    /* One walk of the members and their nodes side by side; the member is found by its
     * value (a pointer compare) and confirmed by its key, as true/false/null are
     * shared values and a component may be substituted at two members. */
    json_t *want = json_object_get(obj, key);
    if (!want) return DOC_NONE;
    doc_node k = doc_node_first_child(d, n);
    for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it)) {
        if (json_object_iter_value(it) == want && !strcmp(json_object_iter_key(it), key)) {
            if (stable_key) *stable_key = json_object_iter_key(it);
            return k;
        }
        if (k != DOC_NONE) k = doc_node_next_sibling(d, n, k);
    }
    return DOC_NONE;
}

doc_node doc_node_member(const doc *d, doc_node n, json_t *obj, const char *key)
{
    return doc_node_member_key(d, n, obj, key, NULL);
}

doc_node doc_pointer_node(const doc *d, const char *pointer)
{
    struct ptr p;
    const char *why;
    if (d->shed || ptr_parse(pointer, &p, &why) < 0) return DOC_NONE;
    json_t *v = d->root;
    doc_node n = 0;
    for (size_t i = 0; v && n != DOC_NONE && i < p.n; i++) {
        size_t idx;
        if (json_is_object(v)) {
            n = doc_node_member(d, n, v, p.segs[i]);
            v = json_object_get(v, p.segs[i]);
        } else if (json_is_array(v) && ptr_is_index(p.segs[i], &idx)) {
            n = doc_node_array_item(d, n, v, idx);
            v = json_array_get(v, idx);
        } else {
            v = NULL;
        }
    }
    ptr_release(&p);
    return v ? n : DOC_NONE;
}

int doc_pointer_pos(const doc *d, const char *pointer, struct doc_pos *value, struct doc_pos *key)
{
    doc_node n = doc_pointer_node(d, pointer);
    if (n == DOC_NONE) return -1;
    if (value) *value = doc_node_pos(d, n);
    if (key) *key = doc_node_key_pos(d, n);
    return 0;
}

uint32_t doc_node_size(const doc *d, doc_node n)
{
    return n < doc_node_count(d) ? node_size(d, n) : 0;
}

static int kept_cmp(const void *a, const void *b)
{
    uint32_t x = ((const struct doc_kept_line *)a)->line,
             y = ((const struct doc_kept_line *)b)->line;
    return x < y ? -1 : x > y;
}

static const char *kept_line(const doc *d, uint32_t line, size_t *len)
{
    struct doc_kept_line key = {line, NULL, 0};
    const struct doc_kept_line *k =
        d->kept.len ? bsearch(&key, d->kept.items, d->kept.len, sizeof key, kept_cmp) : NULL;
    if (!k) return NULL;
    *len = k->len;
    return k->text;
}

static void release_positions(doc *d)
{
    VEC_FREE(d->idx);
    VEC_FREE(d->jidx);
    VEC_FREE(d->cp_blocks);
    VEC_FREE(d->line_starts);
    for (size_t i = 0; i < d->big.len; i++) {
        free(d->big.items[i].child);
        free(d->big.items[i].keys);
        free(d->big.items[i].slot_child);
    }
    VEC_FREE(d->big);
}

static int line_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Line LINE, which starts at byte START, without its break. */
static const char *line_text(const doc *d, uint32_t line, size_t start, size_t *len)
{
    if (line == 1) start = doc_bom_len(d->text, d->len); /* columns count from after it */
    size_t end = start;
    while (end < d->len && !doc_break_len(d, end)) end++; /* a CR before LF in JSON too */
    if (end > start && d->text[end - 1] == '\r') end--;
    *len = end - start;
    return d->text + start;
}

static void keep_line(doc *d, uint32_t line, const char *t, size_t len)
{
    struct doc_kept_line k = {line, xmalloc(len + 1), len};
    memcpy(k.text, t, len);
    k.text[len] = '\0';
    VEC_PUSH(d->kept, k); /* in line order: kept_line searches it */
}

/* doc_shed's scan: the lines WANT (N of them, sorted, each once) and the next one to
 * find, K; LINE is the number of the line a call to shed_line_start finds. */
struct shed_scan {
    doc *d;
    const uint32_t *want;
    size_t n, k;
    uint32_t line;
};

static int shed_line_start(void *ctx, size_t start)
{
    struct shed_scan *sc = ctx;
    if (sc->k < sc->n && sc->want[sc->k] == sc->line) {
        size_t len;
        const char *t = line_text(sc->d, sc->line, start, &len);
        keep_line(sc->d, sc->line, t, len);
        sc->k++;
    }
    sc->line++;
    return sc->k == sc->n;
}

void doc_shed(doc *d, const uint32_t *lines, size_t n, const char *const *keep)
{
    if (d->shed) return;
    /* sorted once, each line once: a document may have many findings on few lines */
    uint32_t *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
    if (n) memcpy(sorted, lines, n * sizeof *sorted);
    if (n) qsort(sorted, n, sizeof *sorted, line_cmp);
    size_t wanted = 0; /* each line once, no line 0 */
    for (size_t i = 0; i < n; i++)
        if (sorted[i] && (!wanted || sorted[i] != sorted[wanted - 1])) sorted[wanted++] = sorted[i];
    if (d->line_starts.len) { /* the table is there: read the lines through it */
        for (size_t i = 0; i < wanted; i++) {
            size_t len;
            const char *t = doc_line(d, sorted[i], &len);
            if (t) keep_line(d, sorted[i], t, len);
        }
    } else { /* one pass over the text finds them, without a table of every line */
        struct shed_scan sc = {d, sorted, wanted, 0, 1};
        if (wanted && shed_line_start(&sc, 0) == 0) lines_scan(d, shed_line_start, &sc);
    }
    free(sorted);
    json_t *small = json_object();
    for (size_t i = 0; keep && keep[i]; i++) {
        json_t *v = json_object_get(d->root, keep[i]);
        if (v) json_object_set_new(small, keep[i], json_deep_copy(v));
    }
    doc_text_release(d);
    d->text = xstrdup("");
    release_positions(d);
    json_decref(d->root);
    doc_arena_release(d->arena);
    doc_arena_release(d->arena2);
    d->arena = d->arena2 = NULL;
    d->root = small;
    d->shed = 1;
}

const char *doc_line(const doc *d, uint32_t line, size_t *len)
{
    if (d->shed) return kept_line(d, line, len);
    doc_line_table(d);
    if (line == 0 || line > d->line_starts.len) return NULL;
    doc_text_read(d);
    return line_text(d, line, d->line_starts.items[line - 1], len);
}

/* Characters (UTF-8 sequences) in D's text before byte OFF. The count at each
 * DOC_CP_BLOCK bytes is a cache (built on first use) that bounds the walk. */
static uint32_t chars_before(const doc *d, size_t off)
{
    doc *m = (doc *)d;
    const unsigned char *t = (const unsigned char *)d->text;
    pthread_mutex_lock(&m->cache_lock);
    if (!m->cp_blocks.len) {
        uint32_t c = 0;
        VEC_PUSH(m->cp_blocks, 0);
        for (size_t b = DOC_CP_BLOCK; b <= m->len; b += DOC_CP_BLOCK) {
            for (size_t i = b - DOC_CP_BLOCK; i < b; i++) c += (t[i] & 0xC0) != 0x80;
            VEC_PUSH(m->cp_blocks, c);
        }
        doc_text_drop(m, 0, m->len);
    }
    pthread_mutex_unlock(&m->cache_lock);
    size_t k = off / DOC_CP_BLOCK;
    uint32_t c = d->cp_blocks.items[k];
    for (size_t i = k * DOC_CP_BLOCK; i < off; i++) c += (t[i] & 0xC0) != 0x80;
    return c;
}

struct doc_pos doc_offset_pos(const doc *d, size_t off)
{
    doc_line_table(d);
    if (off > d->len) return (struct doc_pos){0, 0};
    size_t a = 0, b = d->line_starts.len; /* the last line starting at or before OFF */
    while (b - a > 1) {
        size_t mid = (a + b) / 2;
        if (d->line_starts.items[mid] <= off) a = mid;
        else b = mid;
    }
    size_t start = a ? d->line_starts.items[a] : doc_bom_len(d->text, d->len);
    if (off - start > 2 * DOC_CP_BLOCK) /* a long line (minified JSON): a table, not a walk */
        return (struct doc_pos){(uint32_t)a + 1, 1 + chars_before(d, off) - chars_before(d, start)};
    uint32_t col = 1;
    for (size_t i = start; i < off; i++) col += ((unsigned char)d->text[i] & 0xC0) != 0x80;
    doc_text_read(d);
    return (struct doc_pos){(uint32_t)a + 1, col};
}
