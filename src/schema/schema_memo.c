/* schema_memo.c - schema checking's verdicts by content (struct schema_memo,
 * schemaInt.h). A schema's check depends only on its bytes, its default dialect and
 * the context, and many descriptions repeat one schema in tool after tool (an empty
 * object's, a pagination cursor's): the verdict and the error list of a check are kept
 * under a hash of the schema's content and found again for an equal one, compared by
 * its compact serialization (member order, number types and strings exactly: what
 * the error list depends on). Shared by the threads of one context, under the memo's
 * own lock; bounded in bytes, past which nothing more is kept. Calls the error list
 * and the hash map only. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

/* What the memo may hold: serialized schemas and their errors. */
#define MEMO_MAX_BYTES ((size_t)8 << 20)
/* Deeper schemas are not kept (the hash and the serialization recurse). */
#define MEMO_MAX_DEPTH 256u

struct memo_ent {
    char *text; /* the schema, compact */
    size_t len;
    int rc;
    struct schema_errors errs;
};

struct schema_memo {
    pthread_mutex_t lock;
    struct schema_map index; /* struct schema_memo_key bytes -> ents */
    VEC(struct memo_ent) ents;
    size_t bytes;
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
        free(m->ents.items[i].text);
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

static uint64_t mix_bytes(uint64_t h, const char *s, size_t n)
{
    uint64_t f = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) f = (f ^ (unsigned char)s[i]) * 1099511628211ull;
    return mix(h, f ^ n);
}

/* The hash of J's content in member order; -1 past MEMO_MAX_DEPTH. */
static int content_hash(json_t *j, unsigned depth, uint64_t *h)
{
    if (depth > MEMO_MAX_DEPTH) return -1;
    *h = mix(*h, (uint64_t)json_typeof(j));
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        for (void *it = json_object_iter(j); it; it = json_object_iter_next(j, it)) {
            *h = mix_bytes(*h, json_object_iter_key(it), json_object_iter_key_len(it));
            if (content_hash(json_object_iter_value(it), depth + 1, h) < 0) return -1;
        }
        *h = mix(*h, json_object_size(j));
        return 0;
    case JSON_ARRAY:
        for (size_t i = 0; i < json_array_size(j); i++)
            if (content_hash(json_array_get(j, i), depth + 1, h) < 0) return -1;
        *h = mix(*h, json_array_size(j));
        return 0;
    case JSON_STRING: *h = mix_bytes(*h, json_string_value(j), json_string_length(j)); return 0;
    case JSON_INTEGER: *h = mix(*h, (uint64_t)json_integer_value(j)); return 0;
    case JSON_REAL: {
        double d = json_real_value(j);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        *h = mix(*h, bits);
        return 0;
    }
    default: return 0;
    }
}

int schema_memo_key(json_t *sch, struct schema_memo_key *k)
{
    memset(k, 0, sizeof *k); /* the key is compared as bytes: no stray padding */
    k->hash = 0x243F6A8885A308D3ull;
    return content_hash(sch, 0, &k->hash);
}

/* SCH compact, as the memo compares it (new). */
static char *serialize(json_t *sch, size_t *len)
{
    char *t = json_dumps(sch, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!t) BUG("json_dumps failed");
    *len = strlen(t);
    return t;
}

int schema_memo_get(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch,
                    struct schema_errors *errs, int *rc)
{
    size_t i;
    pthread_mutex_lock(&m->lock);
    int known = schema_map_get(&m->index, k, sizeof *k, &i);
    pthread_mutex_unlock(&m->lock);
    if (!known) return 0;
    size_t len;
    char *text = serialize(sch, &len); /* outside the lock: the entry is never changed */
    pthread_mutex_lock(&m->lock);
    /* the table may have been reset meanwhile: look again */
    int hit = schema_map_get(&m->index, k, sizeof *k, &i) && m->ents.items[i].len == len &&
        !memcmp(m->ents.items[i].text, text, len);
    if (hit) {
        const struct memo_ent *e = &m->ents.items[i];
        for (size_t x = 0; x < e->errs.len; x++)
            schema_errors_add(errs, e->errs.items[x].keyword_location,
                              e->errs.items[x].instance_location, "%s", e->errs.items[x].message);
        *rc = e->rc;
    }
    pthread_mutex_unlock(&m->lock);
    free(text);
    return hit;
}

void schema_memo_put(struct schema_memo *m, const struct schema_memo_key *k, json_t *sch, int rc,
                     const struct schema_errors *errs, size_t from)
{
    struct memo_ent e = {NULL, 0, rc, SCHEMA_ERRORS_INIT};
    size_t bytes = 0;
    for (size_t x = from; errs && x < errs->len; x++)
        bytes += strlen(errs->items[x].keyword_location) +
            strlen(errs->items[x].instance_location) + strlen(errs->items[x].message) + 3;
    pthread_mutex_lock(&m->lock);
    int full = m->bytes + bytes > MEMO_MAX_BYTES || schema_map_get(&m->index, k, sizeof *k, NULL);
    pthread_mutex_unlock(&m->lock);
    if (full) return; /* out of room, or kept already (or an equal hash: rare, not kept) */
    e.text = serialize(sch, &e.len);
    for (size_t x = from; errs && x < errs->len; x++)
        schema_errors_add(&e.errs, errs->items[x].keyword_location,
                          errs->items[x].instance_location, "%s", errs->items[x].message);
    pthread_mutex_lock(&m->lock);
    if (m->bytes + bytes + e.len <= MEMO_MAX_BYTES &&
        !schema_map_get(&m->index, k, sizeof *k, NULL)) {
        schema_map_put(&m->index, k, sizeof *k, m->ents.len);
        VEC_PUSH(m->ents, e);
        m->bytes += bytes + e.len;
        e.text = NULL;
        e.errs = (struct schema_errors)SCHEMA_ERRORS_INIT;
    }
    pthread_mutex_unlock(&m->lock);
    free(e.text);
    schema_errors_release(&e.errs);
}
