/* view.c - reading a resolution's view; see view.h. */
#include "resolve/view.h"

#include <string.h>

int view_collection(const struct view *v, const char *key)
{
    for (size_t i = 0; i < v->ncollections; i++)
        if (!strcmp(v->collections[i].name, key)) return (int)i;
    return -1;
}

ver_mask view_item_mask(const struct view *v, int coll, size_t idx)
{
    if (coll < 0 || (size_t)coll >= v->ncollections || idx >= v->collections[coll].nitems)
        return v->doc_mask;
    return v->collections[coll].items[idx];
}

ver_mask view_collection_mask(const struct view *v, int coll)
{
    if (coll < 0 || (size_t)coll >= v->ncollections) return v->doc_mask;
    return v->collections[coll].mask;
}

int view_follow(const struct view *v, doc_node n, doc_node *target, const char **component)
{
    if (n >= v->nmark || !(v->mark[n] & VIEW_SITE)) return 0;
    size_t a = 0, b = v->nsites;
    while (a < b) {
        size_t m = (a + b) / 2;
        if (v->sites[m].node < n) a = m + 1;
        else if (v->sites[m].node > n) b = m;
        else {
            *target = v->sites[m].target;
            *component = v->sites[m].component;
            return 1;
        }
    }
    return 0;
}

int view_unresolved(const struct view *v, doc_node n)
{
    return n < v->nmark && (v->mark[n] & VIEW_UNRESOLVED);
}
