/* fn_text_skip.h - whether a rule's require surely holds on a text node, from the node's
 * facts alone (sel.h: which ASCII bytes its string holds, whether it holds more), so that
 * the interpreter skips judging it: a rule over every text judges millions of them, and
 * most hold nothing a text rule looks for. */
#ifndef MCPDESC_FN_TEXT_SKIP_H
#define MCPDESC_FN_TEXT_SKIP_H

#include "resolve/sel.h"
#include "rules/phrase.h"
#include "resolve/texts.h"

struct pred;
struct eval_ctx;

/* 1 only when REQUIRE holds on C whatever else is known: REQUIRE is `not P` and P cannot
 * hold on C's string by its facts (P: chars, phrases, matches or mentions, or all/any/use
 * of them).
 * 0 when it may fail, or when this cannot tell (C without facts, another predicate). */
int fn_text_surely_holds(const struct pred *require, const struct cursor *c);

/* Whether fn_text_holds may answer for REQUIRE: it is `not P`. */
int fn_text_verdict_worth(const struct pred *require);

/* 1 when a clause of REQUIRE (fn_text_verdict_worth) and WHEN (may be NULL) surely finds
 * nothing on text node C: REQUIRE surely holds by C's facts (fn_text_surely_holds); or,
 * when P's answer depends on the string alone (chars, phrases, matches, all/any/use of
 * them, mentions without a relative selector), WHEN fails on C or REQUIRE holds once
 * evaluated. REQUIRE's answer is kept in V (C's string's verdicts, per string and text
 * kind, or NULL) as bit BIT and read from there when known: a string's answer is the same
 * on every node that holds it; WHEN failing is kept too (as YES) when WHEN reads the
 * string and the text kind alone (text-kind, and the predicates above, under not, all,
 * any), else never. 0: judge C. */
int fn_text_holds(const struct pred *require, const struct pred *when, const struct cursor *c,
                  struct texts_verdict *v, uint64_t bit, struct eval_ctx *ctx);

/* A test of P on a text node by its facts (and, for phrases and mentions, a scan of its
 * string that needs no decoding): 0 only when P cannot hold on C. Each is the test P's
 * evaluator starts with. */
/* What the tests of many rules on one text node share, found at most once for the node
 * by the first test that needs it (the filter of its words, for every phrase list): a
 * caller judging a node for many rules clears one per node (fn_text_scratch_clear) and
 * passes it to each test; NULL: none (phrase.c then keeps the last texts' filters). */
struct fn_text_scratch {
    struct phrase_runs runs;
};
static inline void fn_text_scratch_clear(struct fn_text_scratch *s)
{
    s->runs.state = 0;
}

typedef int fn_text_may_hold_fn(const struct pred *p, const struct cursor *c,
                                struct fn_text_scratch *s);
/* P's test when REQUIRE is `not P` and P is chars, phrases, matches or mentions (*KID set
 * to P), else NULL: a caller over many text nodes finds it once per clause, and a node
 * with facts (SEL_TEXT_FACTS) on which it answers 0 is one fn_text_holds answers YES (and
 * records as YES in its verdict) without a further call. */
fn_text_may_hold_fn *fn_text_may_hold_of(const struct pred *require, const struct pred **kid);

#endif
