/* fn_text_skip.h - whether a rule's require surely holds on a text node, from the node's
 * facts alone (sel.h: which ASCII bytes its string holds, whether it holds more), so that
 * the interpreter skips judging it: a rule over every text judges millions of them, and
 * most hold nothing a text rule looks for. */
#ifndef MCPDESC_FN_TEXT_SKIP_H
#define MCPDESC_FN_TEXT_SKIP_H

#include "resolve/sel.h"

struct pred;

/* 1 only when REQUIRE holds on C whatever else is known: REQUIRE is `not P` and P cannot
 * hold on C's string by its facts (P: chars, phrases or matches, or all/any/use of them).
 * 0 when it may fail, or when this cannot tell (C without facts, another predicate). */
int fn_text_surely_holds(const struct pred *require, const struct cursor *c);

#endif
