/* overlap.c - the yields-to post-pass; see overlap.h. It runs after every rule, on the
 * final (sorted, merged) diagnostics of one document, so it depends on no rule order.
 *
 * About the same value: a diagnostic is about the value at its pointer (a yielding rule
 * reports at the value that fails: report-at: failure), and a diagnostic E is about
 * D's value when E's pointer is D's pointer or below it ("/tools/0/icons/0/sizes/1" is
 * about "/tools/0/icons/0/sizes"; "/tools/0/inputSchema" is not about
 * "/tools/0/description", nor is "/tools/0" about either). D yields, version by version,
 * only to a kept diagnostic about its own value: never to one elsewhere in the item. */
#include "judge/overlap.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

int overlap_disabled(void)
{
    const char *e = getenv("MCPDESC_NO_OVERLAP");
    return e && *e && strcmp(e, "0") != 0;
}

static int strcmp_null(const char *a, const char *b)
{
    return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* One diagnostic with a rule and a pointer, for the index sorted by (file, pointer). */
struct ent {
    const char *file, *pointer;
    size_t i;     /* index in the list */
    size_t depth; /* segments of the pointer */
};

static int ent_cmp(const void *pa, const void *pb)
{
    const struct ent *a = pa, *b = pb;
    int c = strcmp_null(a->file, b->file);
    if (!c) c = strcmp(a->pointer, b->pointer);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Deepest first; the list order among equals. */
static int depth_cmp(const void *pa, const void *pb)
{
    const struct ent *a = pa, *b = pb;
    if (a->depth != b->depth) return a->depth > b->depth ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static size_t depth_of(const char *p)
{
    size_t n = 0;
    for (; *p; p++) n += *p == '/';
    return n;
}

/* First index of IX (N sorted entries) whose (file, pointer) is not below (FILE, P). */
static size_t lower_bound(const struct ent *ix, size_t n, const char *file, const char *p)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp_null(ix[mid].file, file);
        if (!c) c = strcmp(ix[mid].pointer, p);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The yielding rule of D, or NULL when D's rule does not yield (or D is a loader error). */
static const struct rule *yielding(const struct rule_set *rs, const struct diag *d)
{
    const struct rule *r = d->rule && d->pointer ? rule_set_find(rs, d->rule) : NULL;
    return r && rule_yields_count(r) ? r : NULL;
}

size_t overlap_filter(const struct rule_set *rs, struct diag_list *l, size_t from)
{
    if (l->len <= from || overlap_disabled()) return 0;
    size_t n = l->len - from;
    ver_mask *left = xcalloc(n, sizeof *left); /* versions still reported */
    unsigned char *drop = xcalloc(n, 1);
    const struct rule **rule = xcalloc(n, sizeof *rule);
    struct ent *ix = xcalloc(n, sizeof *ix);     /* every diagnostic with a pointer */
    struct ent *todo = xcalloc(n, sizeof *todo); /* the yielding ones */
    size_t nix = 0, ntodo = 0;
    for (size_t k = 0; k < n; k++) {
        const struct diag *d = &l->items[from + k];
        left[k] = d->versions;
        if (!d->rule || !d->pointer) continue;
        struct ent e = {d->file, d->pointer, k, depth_of(d->pointer)};
        ix[nix++] = e;
        if ((rule[k] = yielding(rs, d))) todo[ntodo++] = e;
    }
    qsort(ix, nix, sizeof *ix, ent_cmp);
    /* deepest first: whatever lies below D is decided (kept, trimmed or dropped) before D
     * is, so D yields only to what is still reported. Diagnostics at one pointer that
     * yield to each other are decided in list order: the later one stays. */
    qsort(todo, ntodo, sizeof *todo, depth_cmp);
    struct buf below = BUF_INIT;
    for (size_t t = 0; t < ntodo; t++) {
        size_t k = todo[t].i;
        const struct diag *d = &l->items[from + k];
        ver_mask cover = 0;
        int any = 0;
        /* the range of D's own pointer, then the range of "D's pointer/..." */
        for (int pass = 0; pass < 2; pass++) {
            buf_reset(&below);
            buf_adds(&below, d->pointer);
            if (pass) buf_addc(&below, '/');
            for (size_t j = lower_bound(ix, nix, d->file, buf_str(&below)); j < nix; j++) {
                const struct ent *e = &ix[j];
                if (strcmp_null(e->file, d->file)) break;
                if (pass ? strncmp(e->pointer, buf_str(&below), below.len)
                         : strcmp(e->pointer, d->pointer))
                    break;
                if (e->i == k || drop[e->i] || !rule_yields_to(rule[k], l->items[from + e->i].rule))
                    continue;
                cover |= left[e->i];
                any = 1;
            }
        }
        left[k] = d->versions & ~cover;
        /* a diagnostic without versions yields to any kept one about its value */
        drop[k] = d->versions ? !left[k] : any;
    }
    buf_release(&below);
    size_t out = from, dropped = 0;
    for (size_t k = 0; k < n; k++) {
        struct diag *d = &l->items[from + k];
        if (drop[k]) {
            diag_clear(d);
            dropped++;
            continue;
        }
        d->versions = left[k];
        l->items[out++] = *d;
    }
    l->len = out;
    free(left);
    free(drop);
    free(rule);
    free(ix);
    free(todo);
    return dropped;
}

unsigned char *overlap_required(const struct rule_set *rs,
                                int (*enabled)(const char *id, void *arg), void *arg)
{
    size_t n = rule_set_count(rs);
    unsigned char *need = xcalloc(n ? n : 1, 1);
    size_t *stack = xcalloc(n ? n : 1, sizeof *stack), top = 0;
    for (size_t i = 0; i < n; i++)
        if (!enabled || enabled(rule_id(rule_set_rule(rs, i)), arg)) {
            need[i] = 1;
            stack[top++] = i;
        }
    /* what the enabled rules yield to, and what those yield to in turn (a yielded-to
     * diagnostic counts only while it is itself kept) */
    while (top) {
        const struct rule *r = rule_set_rule(rs, stack[--top]);
        if (!rule_yields_count(r)) continue;
        for (size_t i = 0; i < n; i++)
            if (!need[i] && rule_yields_to(r, rule_id(rule_set_rule(rs, i)))) {
                need[i] = 1;
                stack[top++] = i;
            }
    }
    free(stack);
    return need;
}
