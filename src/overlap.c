/* overlap.c - the yields-to post-pass; see overlap.h. It runs after every rule, on the
 * final (sorted, merged) diagnostics of one document, so it depends on no rule order. */
#include "overlap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Is pointer IN the pointer AT or below it ("/tools/0" covers "/tools/0/name", not
 * "/tools/01")? */
static int at_or_below(const char *at, const char *in)
{
    size_t n = strlen(at);
    return !strncmp(at, in, n) && (in[n] == '\0' || in[n] == '/');
}

static int same_file(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Is there any diagnostic of a rule R yields to at D's pointer or below? */
static int covered_any(const struct rule *r, const struct diag *d, const struct diag_list *l,
                       size_t from)
{
    for (size_t i = from; i < l->len; i++) {
        const struct diag *e = &l->items[i];
        if (e != d && e->rule && e->pointer && same_file(e->file, d->file) &&
            at_or_below(d->pointer, e->pointer) && rule_yields_to(r, e->rule))
            return 1;
    }
    return 0;
}

/* The versions of D that a diagnostic of a rule it yields to already covers. */
static ver_mask covered(const struct rule *r, const struct diag *d, const struct diag_list *l,
                        size_t from)
{
    ver_mask m = 0;
    for (size_t i = from; i < l->len; i++) {
        const struct diag *e = &l->items[i];
        if (e == d || !e->rule || !e->pointer || !same_file(e->file, d->file)) continue;
        if (at_or_below(d->pointer, e->pointer) && rule_yields_to(r, e->rule)) m |= e->versions;
    }
    return m;
}

/* The yielding rule of D, or NULL when D's rule does not yield (or D is a loader error). */
static const struct rule *yielding(const struct rule_set *rs, const struct diag *d)
{
    const struct rule *r = d->rule && d->pointer ? rule_set_find(rs, d->rule) : NULL;
    return r && rule_yields_count(r) ? r : NULL;
}

size_t overlap_filter(const struct rule_set *rs, struct diag_list *l, size_t from)
{
    if (l->len <= from) return 0;
    /* decide first, drop after: a dropped diagnostic still covers others */
    size_t n = l->len - from;
    ver_mask *left = xcalloc(n, sizeof *left);
    unsigned char *drop = xcalloc(n, 1);
    for (size_t i = from; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        const struct rule *r = yielding(rs, d);
        left[i - from] = d->versions;
        if (!r) continue;
        ver_mask c = covered(r, d, l, from);
        left[i - from] = d->versions & ~c;
        /* a diagnostic without versions is covered by any overlapping one */
        drop[i - from] = d->versions ? !left[i - from] : c != 0 || covered_any(r, d, l, from);
    }
    size_t out = from, dropped = 0;
    for (size_t i = from; i < l->len; i++) {
        struct diag *d = &l->items[i];
        if (drop[i - from]) {
            diag_clear(d);
            dropped++;
            continue;
        }
        d->versions = left[i - from];
        l->items[out++] = *d;
    }
    l->len = out;
    free(left);
    free(drop);
    return dropped;
}
