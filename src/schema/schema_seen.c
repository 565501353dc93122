/* schema_seen.c - a set of JSON values, by identity, for the walks over a schema's
 * subschemas (schema_keywords.c, schema_regex.c). A value shared by several places (a
 * substituted component, a YAML alias) is walked once, at its first place: a document
 * that shares values by the thousand (a reference bomb) stays linear, where a walk of
 * every place would take exponential time. */
#include <stdint.h>
#include <stdlib.h>

#include "schema/schemaInt.h"

static size_t slot_of(const json_t *v, size_t cap)
{
    return (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

int schema_seen_add(struct schema_seen *s, json_t *v)
{
    if (2 * (s->n + 1) > s->cap) { /* at most half full: probes stay short */
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct schema_seen g = {xcalloc(cap, sizeof *g.slot), cap, 0};
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) schema_seen_add(&g, s->slot[i]);
        free(s->slot);
        *s = g;
    }
    size_t i = slot_of(v, s->cap);
    for (; s->slot[i]; i = (i + 1) & (s->cap - 1))
        if (s->slot[i] == v) return 0;
    s->slot[i] = v;
    s->n++;
    return 1;
}

void schema_seen_release(struct schema_seen *s)
{
    free(s->slot);
    *s = (struct schema_seen)SCHEMA_SEEN_INIT;
}
