/* ver.c - protocol version lists and masks; see ver.h. */
#include "base/ver.h"

#include <stdlib.h>
#include <string.h>

void ver_list_release(struct ver_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->names[i]);
    l->n = 0;
}

int ver_index(const struct ver_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name)) return (int)i;
    return -1;
}

ver_mask ver_all(const struct ver_list *l)
{
    return l->n >= 64 ? ~(ver_mask)0 : (((ver_mask)1 << l->n) - 1);
}

ver_mask ver_range(const struct ver_list *l, int from, int before)
{
    ver_mask m = 0;
    for (size_t i = 0; i < l->n; i++)
        if ((from < 0 || (int)i >= from) && (before < 0 || (int)i < before)) m |= (ver_mask)1 << i;
    return m;
}

void ver_format(struct buf *b, const struct ver_list *l, ver_mask m, const char *sep)
{
    int first = 1;
    for (size_t i = 0; i < l->n; i++) {
        if (!(m & ((ver_mask)1 << i))) continue;
        if (!first) buf_adds(b, sep);
        buf_adds(b, l->names[i]);
        first = 0;
    }
}

size_t ver_count(ver_mask m) { return (size_t)__builtin_popcountll(m); }
