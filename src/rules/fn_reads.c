/* fn_reads.c - what a unique, among or mentions over the whole document reads beyond the
 * node it judges, as bytes that are equal exactly when what it reads is: the language
 * server's memo (judge/eval_memo.c) keeps the findings of such a rule while they are. */
#include <string.h>

#include "base/buf.h"
#include "rules/fnInt.h"

int fn_reads_document(const struct pred *p)
{
    if (!p || !p->nkids || (p->fn->eval != fn_eval_context && p->fn->eval != fn_mentions_eval))
        return 0;
    for (size_t i = 0; i < p->nkids; i++)
        if (!p->kids[i]->sel || p->kids[i]->session || p->kids[i]->side ||
            !sel_is_absolute(p->kids[i]->sel))
            return 0;
    return 1;
}

/* N, then N bytes of S (lengths first: no two different lists make the same bytes). */
static void add_counted(struct buf *out, const char *s, size_t n)
{
    buf_add(out, (const char *)&n, sizeof n);
    buf_add(out, s, n);
}

/* A JSON value as counted bytes (a string's own bytes, else its compact text). */
static void add_value(struct buf *out, json_t *v)
{
    if (json_is_string(v)) {
        buf_add(out, "s", 1);
        add_counted(out, json_string_value(v), json_string_length(v));
        return;
    }
    char *t = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    buf_add(out, "j", 1);
    add_counted(out, t ? t : "", t ? strlen(t) : 0);
    free(t);
}

static void add_entry(const char *name, ver_mask vmask, json_t *v, void *arg)
{
    struct buf *out = arg;
    add_counted(out, name, strlen(name));
    buf_add(out, (const char *)&vmask, sizeof vmask);
    if (v) add_value(out, v);
}

static int add_node(const struct cursor *c, void *arg)
{
    char *ptr = sel_pointer(c);
    add_entry(ptr, c->vmask, c->v, arg);
    free(ptr);
    return 0;
}

void fn_index_fingerprint(const struct pred *p, struct eval_ctx *ctx, struct buf *out)
{
    if (p->fn->eval == fn_eval_context) { /* unique, among: the index the judging uses */
        fn_index_each(p, ctx, add_entry, out);
        return;
    }
    for (size_t i = 0; i < p->nkids; i++) { /* mentions: what each selector selects */
        buf_add(out, "k", 1);
        sel_run(p->kids[i]->sel, &ctx->sctx, NULL, add_node, out);
    }
}
