/* eval_memo.h - what the judgement of a document's text leaves for the judgement of its
 * next text (the language server's edits, issue 32 item 5): per item of each walked
 * collection, the findings of the rules that read nothing but the item (and the
 * components it reaches), with the item's byte span. The next judgement takes an item's
 * findings from the memo instead of judging it again when the item's bytes are the same,
 * at the same index, and nothing outside the collection's array changed; the findings'
 * positions are moved with the bytes around them. A rule that reads beyond the item
 * keeps its findings too when what it reads did not change: its absolute selectors start
 * from members of the root other than the collection edited, and its unique, among or
 * mentions over the document select the same nodes and values (fn_index_fingerprint); a
 * rule that reads anything else (a wildcard or "**" first, a session's documents)
 * judges every item every time.
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
/* Did the last judgement keep rule R's findings on the unchanged items (R read nothing
 * that changed)? 0 before any judgement. */
int eval_memo_rule_was_kept(const struct eval_memo *m, size_t r);

/* ---- for eval.c ------------------------------------------------------------------- */

/* One judgement's use of a memo: begun before the walk with the document D, the rule set,
 * the options, and the collections the walk visits (KEYS, N of them, in the walk's order);
 * NULL when the memo cannot serve (a YAML document, a session, rules test's callback). */
struct memo_run;
struct eval_ctx;
/* CTX: the document's context, with which the indexes of the rules PLANNED (per rule: it
 * runs) are read before the walk. */
struct memo_run *eval_memo_run_begin(struct eval_memo *m, const struct rule_set *rs,
                                     const struct eval_options *opts, const doc *d,
                                     char *const *keys, size_t nkeys, struct eval_ctx *ctx,
                                     const unsigned char *planned);
/* Per rule of the set, and for one more slot after them (the built-in pattern notes of
 * each tool, eval.c): may its findings on an unchanged item be kept this time (it reads
 * nothing that changed)? */
const unsigned char *eval_memo_run_local(const struct memo_run *mr);
/* May rule R's findings on an item ever be kept (what it reads can be followed)? A
 * predicate of such a rule that reads above the item sets eval_ctx.escaped. */
int eval_memo_rule_kept(const struct memo_run *mr, size_t r);
/* Item I of collection KI (its index in KEYS): when the memo holds its findings, append
 * those of the rules eval_memo_run_local allows to PER_RULE (one list per slot) and
 * return 1; those rules are then not judged on the item. Else 0. Threads may call it for
 * different items at once. */
int eval_memo_item_reuse(struct memo_run *mr, size_t ki, size_t i, struct diag_list *per_rule);
/* After judging item I of collection KI (REUSED: eval_memo_item_reuse gave it findings):
 * keep its findings of the rules whose findings can be kept, those of PER_RULE[r] from
 * MARK[r] on (MARK taken before eval_memo_item_reuse), when KEEP (0: such a rule's
 * predicate read beyond the item, eval_ctx.escaped). Threads may call it for different
 * items at once. */
void eval_memo_item_store(struct memo_run *mr, size_t ki, size_t i,
                          const struct diag_list *per_rule, const size_t *mark, int keep,
                          int reused);
/* The judgement is over: the memo now holds D's text and items. Frees MR. */
void eval_memo_run_end(struct memo_run *mr);

#endif
