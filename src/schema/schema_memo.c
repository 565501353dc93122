/* schema_memo.c - schema checking's verdicts by content (struct schema_memo,
 * schemaInt.h). A schema's check depends only on its content, its default dialect and
 * the context, and many descriptions repeat one schema in tool after tool (an empty
 * object's, a pagination cursor's): the verdict and the error list of a check are kept
 * under a hash of the schema's content, with a reference to the schema, and found again
 * for an equal one (compared member by member in order, numbers by type and bits,
 * strings by bytes: what the error list depends on). The hash reads a schema's first
 * MEMO_HASH_VALUES values only, so that a schema seen once costs little more than its
 * check; the comparison reads the rest. Shared by the threads of one context, under the
 * memo's own lock; bounded in the schemas it keeps, past which it starts again.
 * Calls the error list and the hash map only. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

/* What the memo may hold before it starts again: schemas (alive through its
 * references even once their document is gone) and the bytes of their errors. */
#define MEMO_MAX_SCHEMAS 2048u
#define MEMO_MAX_BYTES ((size_t)4 << 20)
/* The values of a schema its hash reads, in document order. */
#define MEMO_HASH_VALUES 64
/* Deeper schemas are never found equal (the comparison recurses). */
#define MEMO_MAX_DEPTH 256u

struct memo_ent {
    json_t *sch; /* own reference */
    int rc;
    struct schema_errors errs;
};

struct schema_memo {
    pthread_mutex_t lock;
    struct schema_map index; /* struct schema_memo_key bytes -> ents */
    VEC(struct memo_ent) ents;
    size_t bytes;
    /* schema_check_fast's finding on the context's 2020-12 [0] and draft-07 [1]
     * meta-schemas: 0 not looked at, 1 the embedded ones, -1 another */
    int meta_state[2];
    unsigned long checks; /* full checks made in the context, for schema_check */
};

struct schema_memo *schema_memo_new(void)
{
    struct schema_memo *m = xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

static void memo_clear(struct schema_memo *m)
{
    for (size_t i = 0; i < m->ents.len; i++) {
        json_decref(m->ents.items[i].sch);
        schema_errors_release(&m->ents.items[i].errs);
    }
    VEC_FREE(m->ents);
    schema_map_release(&m->index);
    m->bytes = 0;
}

void schema_memo_reset(struct schema_memo *m)
{
    pthread_mutex_lock(&m->lock);
    memo_clear(m);
    m->meta_state[0] = m->meta_state[1] = 0; /* a document may replace a meta-schema */
    pthread_mutex_unlock(&m->lock);
}

int schema_memo_meta_state(struct schema_memo *m, int slot)
{
    pthread_mutex_lock(&m->lock);
    int s = m->meta_state[slot];
    pthread_mutex_unlock(&m->lock);
    return s;
}

unsigned long schema_memo_count_check(struct schema_memo *m, int add)
{
    pthread_mutex_lock(&m->lock);
    unsigned long n = m->checks += add != 0;
    pthread_mutex_unlock(&m->lock);
    return n;
}

void schema_memo_set_meta_state(struct schema_memo *m, int slot, int state)
{
    pthread_mutex_lock(&m->lock);
    m->meta_state[slot] = state;
    pthread_mutex_unlock(&m->lock);
}

void schema_memo_free(struct schema_memo *m)
{
    if (!m) return;
    memo_clear(m);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
}

/* Eight bytes at a time: descriptions make most of a schema's bytes. */
static uint64_t mix_bytes(uint64_t h, const char *s, size_t n)
{
    uint64_t f = 1469598103934665603ull ^ n, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        f = (f ^ w) * 0x9FB21C651E98DF25ull;
        f ^= f >> 29;
    }
    if (i < n) {
        w = 0;
        memcpy(&w, s + i, n - i);
        f = (f ^ w) * 0x9FB21C651E98DF25ull;
        f ^= f >> 29;
    }
    return mix(h, f);
}

/* The hash of J's content in member order, as far as *BUDGET values go. */
static void content_hash(json_t *j, int *budget, uint64_t *h)
{
    if (--*budget < 0) return;
    *h = mix(*h, (uint64_t)json_typeof(j));
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        *h = mix(*h, json_object_size(j));
        for (void *it = json_object_iter(j); it && *budget > 0; it = json_object_iter_next(j, it)) {
            *h = mix_bytes(*h, json_object_iter_key(it), json_object_iter_key_len(it));
            content_hash(json_object_iter_value(it), budget, h);
        }
        return;
    case JSON_ARRAY:
        *h = mix(*h, json_array_size(j));
        for (size_t i = 0; i < json_array_size(j) && *budget > 0; i++)
            content_hash(json_array_get(j, i), budget, h);
        return;
    case JSON_STRING: *h = mix_bytes(*h, json_string_value(j), json_string_length(j)); return;
    case JSON_INTEGER: *h = mix(*h, (uint64_t)json_integer_value(j)); return;
    case JSON_REAL: {
        double d = json_real_value(j);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        *h = mix(*h, bits);
        return;
    }
    default: return;
    }
}

void schema_memo_key(json_t *sch, struct schema_memo_key *k)
{
    memset(k, 0, sizeof *k); /* the key is compared as bytes: no stray padding */
    k->hash = 0x243F6A8885A308D3ull;
    int budget = MEMO_HASH_VALUES;
    content_hash(sch, &budget, &k->hash);
}

/* Are A and B the same content: members in the same order, numbers of the same type and
 * bits, strings of the same bytes? (json_equal ignores member order, which orders the
 * errors, and takes an integer for a real equal to it.) */
static int same_content(json_t *a, json_t *b, unsigned depth)
{
    if (a == b) return 1;
    if (json_typeof(a) != json_typeof(b) || depth > MEMO_MAX_DEPTH) return 0;
    switch (json_typeof(a)) {
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b)) return 0;
        void *i = json_object_iter(a), *k = json_object_iter(b);
        for (; i && k; i = json_object_iter_next(a, i), k = json_object_iter_next(b, k)) {
            size_t n = json_object_iter_key_len(i);
            if (n != json_object_iter_key_len(k) ||
                memcmp(json_object_iter_key(i), json_object_iter_key(k), n) ||
                !same_content(json_object_iter_value(i), json_object_iter_value(k), depth + 1))
                return 0;
        }
        return !i && !k;
    }
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b)) return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_content(json_array_get(a, i), json_array_get(b, i), depth + 1)) return 0;
        return 1;
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
            !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
    case JSON_INTEGER: return json_integer_value(a) == json_integer_value(b);
    case JSON_REAL: {
        double x = json_real_value(a), y = json_real_value(b);
        return !memcmp(&x, &y, sizeof x);
    }
    default: return 1; /* true, false, null: the type says it all */
    }
}

int schema_memo_get(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch,
                    struct schema_errors *errs, int *rc)
{
    size_t i;
    pthread_mutex_lock(&m->lock);
    int hit =
        schema_map_get(&m->index, k, sizeof *k, &i) && same_content(m->ents.items[i].sch, sch, 0);
    if (hit) {
        const struct memo_ent *e = &m->ents.items[i];
        for (size_t x = 0; x < e->errs.len; x++)
            schema_errors_add(errs, e->errs.items[x].keyword_location,
                              e->errs.items[x].instance_location, "%s", e->errs.items[x].message);
        *rc = e->rc;
    }
    pthread_mutex_unlock(&m->lock);
    return hit;
}

void schema_memo_put(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch, int rc,
                     const struct schema_errors *errs, size_t from)
{
    size_t bytes = 0;
    for (size_t x = from; errs && x < errs->len; x++)
        bytes += strlen(errs->items[x].keyword_location) +
            strlen(errs->items[x].instance_location) + strlen(errs->items[x].message) + 3;
    if (bytes > MEMO_MAX_BYTES) return; /* never kept */
    pthread_mutex_lock(&m->lock);
    /* full: start again (a long-lived context, the language server's, keeps what
     * recent documents repeat, not what its first ones did) */
    if (m->ents.len >= MEMO_MAX_SCHEMAS || m->bytes + bytes > MEMO_MAX_BYTES) memo_clear(m);
    /* kept already (or an equal hash of another schema: rare, not kept) */
    if (!schema_map_get(&m->index, k, sizeof *k, NULL)) {
        struct memo_ent e = {json_incref(sch), rc, SCHEMA_ERRORS_INIT};
        for (size_t x = from; errs && x < errs->len; x++)
            schema_errors_add(&e.errs, errs->items[x].keyword_location,
                              errs->items[x].instance_location, "%s", errs->items[x].message);
        schema_map_put(&m->index, k, sizeof *k, m->ents.len);
        VEC_PUSH(m->ents, e);
        m->bytes += bytes;
    }
    pthread_mutex_unlock(&m->lock);
}
