/* eval_memo.h - what the judgement of a document's text leaves for the judgement of its
 * next text (the language server's edits, issue 32 item 5): per item of each walked
 * collection, the findings of the rules that read nothing but the item (and the
 * components it reaches), with the item's byte span. The next judgement takes an item's
 * findings from the memo instead of judging it again when the item's bytes are the same,
 * at the same index, and nothing outside the collection's array changed; the findings'
 * positions are moved with the bytes around them. The rules that read more (unique,
 * among, mentions, ancestor, absolute selectors) judge every item every time.
 *
 * Exactness: an item's findings are a function of what its rules read; a reused item
 * read the same bytes, so the same findings, byte for byte (tests/unit/check_eval_memo.c
 * compares with a full judgement after each edit of randomized sequences). JSON only: a
 * YAML item's bytes do not fix its value (anchors, indentation). */
#ifndef MCPDESC_EVAL_MEMO_H
#define MCPDESC_EVAL_MEMO_H

#include <stddef.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "resolve/sel.h"
#include "rules/rule.h"

struct eval_memo;
struct eval_options;

/* An empty memo (the first judgement finds nothing in it). Give it to eval_options.memo
 * for every judgement of one document's successive texts, with the same rule set and
 * options; a judgement with another set or other options starts it afresh. */
struct eval_memo *eval_memo_new(void);
void eval_memo_free(struct eval_memo *m); /* NULL is a no-op */
/* The last judgement's items: taken from the memo, and judged. */
void eval_memo_stats(const struct eval_memo *m, size_t *reused, size_t *judged);

/* ---- for eval.c ------------------------------------------------------------------- */

/* One judgement's use of a memo: begun before the walk with the document D, the rule set,
 * the options, and the collections the walk visits (KEYS, N of them, in the walk's order);
 * NULL when the memo cannot serve (a YAML document, a session, rules test's callback). */
struct memo_run;
struct memo_run *eval_memo_run_begin(struct eval_memo *m, const struct rule_set *rs,
                                     const struct eval_options *opts, const doc *d,
                                     char *const *keys, size_t nkeys);
/* Per rule of the set, and for one more slot after them (the built-in pattern notes of
 * each tool, eval.c): does it read only the item it judges (its findings can be kept)? */
const unsigned char *eval_memo_run_local(const struct memo_run *mr);
/* Item I of collection KI (its index in KEYS): when the memo holds its findings, append
 * them to PER_RULE (one list per slot of eval_memo_run_local) and return 1; the item's local rules are then not
 * judged. Else 0. Threads may call it for different items at once. */
int eval_memo_item_reuse(struct memo_run *mr, size_t ki, size_t i, struct diag_list *per_rule);
/* After judging item I of collection KI: keep its findings of the local rules, those of
 * PER_RULE[r] from MARK[r] on, when KEEP (0: a predicate read beyond the item,
 * eval_ctx.escaped). Threads may call it for different items at once. */
void eval_memo_item_store(struct memo_run *mr, size_t ki, size_t i,
                          const struct diag_list *per_rule, const size_t *mark, int keep);
/* The judgement is over: the memo now holds D's text and items. Frees MR. */
void eval_memo_run_end(struct memo_run *mr);

#endif
