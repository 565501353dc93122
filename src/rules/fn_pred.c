/* fn_pred.c - the generic operations on a compiled predicate tree: free it (each node
 * through its table row's free hook) and evaluate it (through its row's evaluator). Apart
 * from the compilers, so that freeing a rule set (rule_set.c) needs no compiler. */
#include <stdlib.h>

#include "rules/fnInt.h"

void fn_pred_free(struct pred *p)
{
    if (!p) return;
    if (p->fn->free) p->fn->free(p); /* what its compiler kept beyond the members below */
    json_decref(p->arg);
    for (size_t i = 0; i < p->nkids; i++)
        if (!p->borrowed) fn_pred_free(p->kids[i]);
    free(p->kids);
    sel_free(p->sel);
    fn_pred_free(p->body);
    free(p);
}

int fn_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    return p->fn->eval(p, c, ctx);
}
