/* schema_map.c - the engine's hash map (struct schema_map, schemaInt.h): byte-string
 * keys to indexes, open addressing. Calls no other file of the engine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static uint64_t map_hash(const void *key, size_t n)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The bytes of E's key. */
static inline const char *ent_key(const struct schema_map_ent *e)
{
    return e->klen > SCHEMA_MAP_INLINE ? e->key.p : e->key.in;
}

int schema_map_get(const struct schema_map *m, const void *key, size_t klen, size_t *val)
{
    if (!m->cap) return 0;
    size_t i = (size_t)map_hash(key, klen) & (m->cap - 1);
    while (m->ents[i].used) {
        if (m->ents[i].klen == klen && !memcmp(ent_key(&m->ents[i]), key, klen)) {
            if (val) *val = m->ents[i].val;
            return 1;
        }
        i = (i + 1) & (m->cap - 1);
    }
    return 0;
}

void schema_map_put(struct schema_map *m, const void *key, size_t klen, size_t val)
{
    if ((m->len + 1) * 2 > m->cap) {
        struct schema_map old = *m;
        m->cap = old.cap ? old.cap * 2 : 16;
        m->ents = xcalloc(m->cap, sizeof *m->ents);
        m->len = 0;
        for (size_t i = 0; i < old.cap; i++) {
            if (!old.ents[i].used) continue;
            size_t j = (size_t)map_hash(ent_key(&old.ents[i]), old.ents[i].klen) & (m->cap - 1);
            while (m->ents[j].used) j = (j + 1) & (m->cap - 1);
            m->ents[j] = old.ents[i];
            m->len++;
        }
        free(old.ents);
    }
    size_t i = (size_t)map_hash(key, klen) & (m->cap - 1);
    while (m->ents[i].used) {
        if (m->ents[i].klen == klen && !memcmp(ent_key(&m->ents[i]), key, klen)) {
            m->ents[i].val = val;
            return;
        }
        i = (i + 1) & (m->cap - 1);
    }
    struct schema_map_ent *e = &m->ents[i];
    if (klen > SCHEMA_MAP_INLINE) e->key.p = xmalloc(klen);
    if (klen) memcpy(klen > SCHEMA_MAP_INLINE ? e->key.p : e->key.in, key, klen);
    e->used = 1;
    m->ents[i].klen = klen;
    m->ents[i].val = val;
    m->len++;
}

void schema_map_release(struct schema_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->ents[i].used && m->ents[i].klen > SCHEMA_MAP_INLINE) free(m->ents[i].key.p);
    free(m->ents);
    m->ents = NULL;
    m->cap = m->len = 0;
}
