/* rule_data.c - a rule set's data files once loaded (rule_data.h): lookups by name, the
 * code point sets' search, and freeing. Loading, validation and lint: rule_data_load.c. */
#include "rules/rule_data.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int rule_data_cps_has(const struct rule_data_cps *set, uint32_t cp)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < set->r[mid][0]) hi = mid;
        else if (cp > set->r[mid][1]) lo = mid + 1;
        else return 1;
    }
    return 0;
}

void rule_data_free(struct rule_data *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->u.classes.len; i++) {
        free(d->u.classes.items[i].name);
        free(d->u.classes.items[i].cps.r);
    }
    VEC_FREE(d->u.classes);
    for (size_t i = 0; i < d->u.seqs.len; i++) {
        struct rule_data_seq *q = &d->u.seqs.items[i];
        free(q->name);
        free(q->chars.r);
        free(q->after.r);
        free(q->before.r);
        free(q->next_to.r);
        free(q->run.r);
        free(q->end.r);
    }
    VEC_FREE(d->u.seqs);
    free(d->u.version);
    for (size_t i = 0; i < d->p.lists.len; i++) {
        free(d->p.lists.items[i].name);
        phrase_set_free(d->p.lists.items[i].phrases);
        phrase_set_free(d->p.lists.items[i].allow);
    }
    VEC_FREE(d->p.lists);
    doc_free(d->d);
    free(d->name);
    free(d->path);
    free(d);
}

const struct rule_data *rule_data_find(const struct rule_set *rs, const char *name)
{
    for (; rs; rs = rs->base)
        for (size_t i = 0; i < rs->data.len; i++)
            if (!strcmp(rs->data.items[i]->name, name)) return rs->data.items[i];
    return NULL;
}

const char **rule_data_names(const struct rule_set *rs)
{
    VEC(const char *) v = VEC_INIT;
    for (; rs; rs = rs->base)
        for (size_t i = 0; i < rs->data.len; i++) VEC_PUSH(v, rs->data.items[i]->name);
    VEC_PUSH(v, NULL);
    return v.items;
}

const struct rule_data_class *rule_data_class(const struct rule_data *d, const char *name)
{
    for (size_t i = 0; i < d->u.classes.len; i++)
        if (!strcmp(d->u.classes.items[i].name, name)) return &d->u.classes.items[i];
    return NULL;
}

const struct rule_data_seq *rule_data_seq(const struct rule_data *d, const char *name)
{
    for (size_t i = 0; i < d->u.seqs.len; i++)
        if (!strcmp(d->u.seqs.items[i].name, name)) return &d->u.seqs.items[i];
    return NULL;
}

const struct rule_data_list *rule_data_list(const struct rule_data *d, const char *name)
{
    for (size_t i = 0; i < d->p.lists.len; i++)
        if (!strcmp(d->p.lists.items[i].name, name)) return &d->p.lists.items[i];
    return NULL;
}

void rule_data_free_all(struct rule_set *rs)
{
    for (size_t i = 0; i < rs->data.len; i++) rule_data_free(rs->data.items[i]);
    VEC_FREE(rs->data);
}
