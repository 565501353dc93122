/* fn_text_skip.c - a require that surely holds on a text node, by its facts (fn_text_skip.h).
 * Each predicate answers with the same test its evaluator starts with, so a skipped node is
 * one the evaluator would have answered "no" without looking at the string. */
#include "rules/fn_text_skip.h"

#include "rules/fnInt.h"

/* 1 only when P cannot hold on C (C has facts). */
static int cannot_hold(const struct pred *p, const struct cursor *c)
{
    fn_eval_fn *eval = p->fn->eval;
    if (eval == fn_chars_eval) return !fn_chars_may_hold(p, c, NULL);
    if (eval == fn_phrases_eval) return !fn_phrases_may_hold(p, c, NULL);
    if (eval == fn_eval_matches) return !fn_matches_may_hold(p, c, NULL);
    if (eval == fn_mentions_eval) return !fn_mentions_may_hold(p, c, NULL);
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

/* Is P's answer on a text node the same on every node with the same string, in one
 * document's run? Not when it reads the node's place, or other nodes than the document's
 * fixed ones (mentions' names; a pair's sides change documents). */
static int on_string_alone(const struct pred *p, const struct eval_ctx *ctx)
{
    fn_eval_fn *eval = p->fn->eval;
    if (eval == fn_chars_eval || eval == fn_phrases_eval || eval == fn_eval_matches) return 1;
    if (eval == fn_mentions_eval) return !ctx->pair && fn_mentions_per_document(p);
    if (eval != fn_eval_any && eval != fn_eval_all) return 0;
    for (size_t i = 0; i < p->nkids; i++)
        if (!on_string_alone(p->kids[i], ctx)) return 0;
    return 1;
}

/* Is P's answer on a text node the same on every node with the same string and text kind
 * (a verdict's record is one string of one kind: texts.h)? A `when` that picks texts by
 * kind and string, as {text-kind: [property name]}. */
static int on_text_alone(const struct pred *p, const struct eval_ctx *ctx)
{
    fn_eval_fn *eval = p->fn->eval;
    if (eval == fn_eval_text_kind) return 1;
    if (eval != fn_eval_not && eval != fn_eval_any && eval != fn_eval_all)
        return on_string_alone(p, ctx);
    for (size_t i = 0; i < p->nkids; i++)
        if (!on_text_alone(p->kids[i], ctx)) return 0;
    return 1;
}

fn_text_may_hold_fn *fn_text_may_hold_of(const struct pred *require, const struct pred **kid)
{
    if (!fn_text_verdict_worth(require)) return NULL;
    const struct pred *p = require->kids[0];
    fn_eval_fn *eval = p->fn->eval;
    *kid = p;
    return eval == fn_chars_eval   ? fn_chars_may_hold
        : eval == fn_phrases_eval  ? fn_phrases_may_hold
        : eval == fn_eval_matches  ? fn_matches_may_hold
        : eval == fn_mentions_eval ? fn_mentions_may_hold
                                   : NULL;
}

int fn_text_verdict_worth(const struct pred *require)
{
    return require && require->fn->eval == fn_eval_not && require->nkids == 1;
}

/* on_string_alone with its most frequent answer first, without a call: a text rule's
 * require is not chars, phrases or matches */
static inline int string_alone(const struct pred *p, const struct eval_ctx *ctx)
{
    fn_eval_fn *eval = p->fn->eval;
    return eval == fn_chars_eval || eval == fn_phrases_eval || eval == fn_eval_matches ||
        on_string_alone(p, ctx);
}

/* fn_text_holds past its common case (no `when`, a record, facts, a require over the
 * string alone): kept out of it so that the common case saves and restores few
 * registers (it runs once per new string and rule, a million times at 10,000 tools). */
static __attribute__((noinline)) int
text_holds_rest(const struct pred *require, const struct pred *when, const struct cursor *c,
                struct texts_verdict *v, uint64_t bit, struct eval_ctx *ctx)
{
    if (!(v && (v->unsure & bit))) { /* the facts' answer, once per string */
        if (fn_text_surely_holds(require, c)) {
            if (v) v->known |= bit, v->yes |= bit;
            return 1;
        }
        if (!v || !(c->text_facts & SEL_TEXT_FACTS) || !string_alone(require->kids[0], ctx)) {
            if (v) v->known |= bit; /* judged on every node */
            return 0;
        }
        v->unsure |= bit;
    }
    /* a text node whose require the judge evaluates once its `when` held: evaluated here
     * once per distinct string (a failure is judged again, and reported, by judge). A
     * `when` reads the node: evaluated on each, as judge would, its answer kept only when
     * it reads no more than the string and its kind (the record's: a YES then says that
     * no node of this string and kind is judged, whatever the require). */
    if (when && !fn_eval(when, c, ctx)) {
        if (on_text_alone(when, ctx)) { /* not judged on any node of this string and kind */
            v->yes |= bit;
            v->known |= bit;
        }
        return 1;
    }
    int holds = fn_eval(require, c, ctx);
    v->known |= bit;
    if (holds) v->yes |= bit;
    return holds;
}

int fn_text_holds(const struct pred *require, const struct pred *when, const struct cursor *c,
                  struct texts_verdict *v, uint64_t bit, struct eval_ctx *ctx)
{
    if (v && (v->known & bit)) return (v->yes & bit) != 0;
    if (!when && v && (c->text_facts & SEL_TEXT_FACTS) && string_alone(require->kids[0], ctx)) {
        /* evaluated at once: its evaluators start with the facts' test themselves */
        int holds = fn_eval(require, c, ctx);
        v->known |= bit;
        if (holds) v->yes |= bit;
        return holds;
    }
    return text_holds_rest(require, when, c, v, bit, ctx);
}
