/* diag.c - diagnostic lists; see diag.h. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

struct diag *diag_add(struct diag_list *l, enum diag_level level, const char *rule,
                      const char *file, uint32_t line, uint32_t col, const char *message)
{
    if (l->len == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->items = xrealloc(l->items, l->cap * sizeof *l->items);
    }
    struct diag *d = &l->items[l->len++];
    memset(d, 0, sizeof *d);
    d->level = level;
    d->rule = dup_or_null(rule);
    d->file = dup_or_null(file);
    d->line = line;
    d->col = col;
    d->message = xstrdup(message);
    return d;
}

struct diag *diag_vadd(struct diag_list *l, enum diag_level level, const char *file, uint32_t line,
                       uint32_t col, const char *fmt, va_list ap)
{
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    struct diag *d = diag_add(l, level, NULL, file, line, col, msg);
    free(msg);
    return d;
}

void diag_errorf(struct diag_list *l, const char *file, uint32_t line, uint32_t col,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(l, DIAG_ERROR, file, line, col, fmt, ap);
    va_end(ap);
}

static int strcmp_null(const char *a, const char *b)
{
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* Related places in order: their count, then each one's file, position, pointer and
 * message. */
static int related_cmp(const struct diag *a, const struct diag *b)
{
    if (a->nrelated != b->nrelated) return a->nrelated < b->nrelated ? -1 : 1;
    for (size_t i = 0; i < a->nrelated; i++) {
        const struct diag_related *x = &a->related[i], *y = &b->related[i];
        int c;
        if ((c = strcmp_null(x->file, y->file))) return c;
        if (x->line != y->line) return x->line < y->line ? -1 : 1;
        if (x->col != y->col) return x->col < y->col ? -1 : 1;
        if ((c = strcmp_null(x->pointer, y->pointer))) return c;
        if ((c = strcmp_null(x->message, y->message))) return c;
    }
    return 0;
}

/* The order of a list, and what merges: equal under it (and of one level and fix).
 * Related places come last: diagnostics of one rule on one node that name other places
 * are other findings (a name colliding with two servers' tools is two findings), kept
 * apart and in a fixed order; those that merge name the same places, and the first's
 * are kept. */
static int diag_cmp(const void *pa, const void *pb)
{
    const struct diag *a = pa, *b = pb;
    int c;
    if ((c = strcmp_null(a->file, b->file))) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if ((c = strcmp_null(a->rule, b->rule))) return c;
    if ((c = strcmp_null(a->pointer, b->pointer))) return c;
    if ((c = strcmp(a->message, b->message))) return c;
    if ((c = strcmp_null(a->fix_title, b->fix_title))) return c;
    return related_cmp(a, b);
}

void diag_clear(struct diag *d)
{
    free(d->rule);
    free(d->file);
    free(d->pointer);
    free(d->message);
    free(d->hint);
    free(d->fix_title);
    free(d->component);
    free(d->fingerprint);
    free(d->suppressed);
    free(d->suppressed_until);
    free(d->item_kind);
    free(d->item_name);
    for (size_t i = 0; i < d->nrelated; i++) {
        free(d->related[i].file);
        free(d->related[i].pointer);
        free(d->related[i].message);
    }
    free(d->related);
}

void diag_copy(struct diag_list *to, const struct diag *from)
{
    struct diag *d =
        diag_add(to, from->level, from->rule, from->file, from->line, from->col, from->message);
    d->pointer = dup_or_null(from->pointer);
    d->versions = from->versions;
    d->hint = dup_or_null(from->hint);
    d->component = dup_or_null(from->component);
    d->has_match = from->has_match;
    d->match_off = from->match_off;
    d->match_len = from->match_len;
    d->end_line = from->end_line;
    d->end_col = from->end_col;
    for (size_t i = 0; i < from->nrelated; i++)
        diag_add_related(d, from->related[i].file, from->related[i].line, from->related[i].col,
                         from->related[i].pointer, from->related[i].message);
    d->item_kind = dup_or_null(from->item_kind);
    d->item_name = dup_or_null(from->item_name);
    d->fix = from->fix;
    d->fix_title = dup_or_null(from->fix_title);
    d->fingerprint = dup_or_null(from->fingerprint);
    d->suppressed = dup_or_null(from->suppressed);
    d->suppressed_until = dup_or_null(from->suppressed_until);
    d->suppress_kind = from->suppress_kind;
    d->baseline = from->baseline;
}

void diag_add_related(struct diag *d, const char *file, uint32_t line, uint32_t col,
                      const char *pointer, const char *message)
{
    d->related = xrealloc(d->related, (d->nrelated + 1) * sizeof *d->related);
    d->related[d->nrelated++] =
        (struct diag_related){xstrdup(file), line, col, pointer ? xstrdup(pointer) : NULL,
                              message ? xstrdup(message) : NULL};
}

int diag_hidden(const struct diag *d)
{
    return d->suppressed != NULL || d->baseline == DIAG_BASELINE_UNCHANGED;
}

void diag_sort_merge(struct diag_list *l)
{
    if (l->len < 2) return;
    qsort(l->items, l->len, sizeof *l->items, diag_cmp);
    size_t out = 0;
    for (size_t i = 0; i < l->len; i++) {
        struct diag *prev = out ? &l->items[out - 1] : NULL;
        if (prev && diag_cmp(prev, &l->items[i]) == 0 && prev->level == l->items[i].level &&
            prev->fix == l->items[i].fix) {
            prev->versions |= l->items[i].versions;
            diag_clear(&l->items[i]); /* its related places too: equal to prev's */
            continue;
        }
        l->items[out++] = l->items[i];
    }
    l->len = out;
}

size_t diag_count(const struct diag_list *l, enum diag_level level)
{
    size_t n = 0;
    for (size_t i = 0; i < l->len; i++) n += l->items[i].level == level;
    return n;
}

void diag_list_release(struct diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) diag_clear(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->len = l->cap = 0;
}

void diag_list_move(struct diag_list *to, struct diag_list *from)
{
    if (from->len && to->cap - to->len < from->len) {
        size_t cap = to->cap ? to->cap : 16;
        while (cap - to->len < from->len) cap *= 2;
        to->items = xrealloc(to->items, cap * sizeof *to->items);
        to->cap = cap;
    }
    if (from->len) memcpy(to->items + to->len, from->items, from->len * sizeof *from->items);
    to->len += from->len;
    free(from->items);
    *from = (struct diag_list)DIAG_LIST_INIT;
}

const char *diag_level_name(enum diag_level level)
{
    switch (level) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    default: return "info";
    }
}

int diag_level_parse(const char *s, enum diag_level *out)
{
    if (!strcmp(s, "error")) *out = DIAG_ERROR;
    else if (!strcmp(s, "warning")) *out = DIAG_WARNING;
    else if (!strcmp(s, "info")) *out = DIAG_INFO;
    else return -1;
    return 0;
}
