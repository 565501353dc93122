/* fn_text_skip.c - a require that surely holds on a text node, by its facts (fn_text_skip.h).
 * Each predicate answers with the same test its evaluator starts with, so a skipped node is
 * one the evaluator would have answered "no" without looking at the string. */
#include "rules/fn_text_skip.h"

#include "rules/fnInt.h"

/* 1 only when P cannot hold on C (C has facts). */
static int cannot_hold(const struct pred *p, const struct cursor *c)
{
    fn_eval_fn *eval = p->fn->eval;
    if (eval == fn_chars_eval) return !fn_chars_may_hold(p, c);
    if (eval == fn_phrases_eval) return !fn_phrases_may_hold(p, c);
    if (eval == fn_eval_matches) return !fn_matches_may_hold(p, c);
    if (eval == fn_eval_any) {
        if (!p->nkids) return 0; /* not worth knowing */
        for (size_t i = 0; i < p->nkids; i++)
            if (!cannot_hold(p->kids[i], c)) return 0;
        return 1;
    }
    if (eval == fn_eval_all) { /* also use: fn_eval_all over one kid */
        for (size_t i = 0; i < p->nkids; i++)
            if (cannot_hold(p->kids[i], c)) return 1;
        return 0;
    }
    return 0;
}

int fn_text_surely_holds(const struct pred *require, const struct cursor *c)
{
    if (!require || require->fn->eval != fn_eval_not || require->nkids != 1) return 0;
    if (!(c->text_facts & SEL_TEXT_FACTS)) return 0;
    return cannot_hold(require->kids[0], c);
}
