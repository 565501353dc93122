/* ver.h - the ordered list of known MCP protocol versions (data from the rule set's
 * manifest, never compiled in) and version sets as bit masks over that list. */
#ifndef MCPDESC_VER_H
#define MCPDESC_VER_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define VER_MAX 64
typedef uint64_t ver_mask;

struct ver_list {
    char *names[VER_MAX];  /* oldest first, owned */
    size_t n;
};

void ver_list_release(struct ver_list *l);
int ver_index(const struct ver_list *l, const char *name);   /* -1 if unknown */
ver_mask ver_all(const struct ver_list *l);
/* Versions i with from <= i < before (indexes; -1 means unbounded). */
ver_mask ver_range(const struct ver_list *l, int from, int before);
/* "2024-11-05, 2025-03-26" (oldest first) appended to B, with SEP between names. */
void ver_format(struct buf *b, const struct ver_list *l, ver_mask m, const char *sep);
size_t ver_count(ver_mask m);

#endif
