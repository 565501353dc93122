/* eval_message.h - what a finding says (judge/eval.c's reports): its message, hint and
 * fix title expanded from the rule's templates ({pointer}, {item}, {match}, ...: the
 * names eval.h exports as eval_placeholders), and where in the source the match the
 * failing require found stands (report-at: match). */
#ifndef MCPDESC_EVAL_MESSAGE_H
#define MCPDESC_EVAL_MESSAGE_H

#include "base/buf.h"
#include "base/ver.h"
#include "doc/doc.h"
#include "resolve/sel.h"
#include "rules/ruleInt.h"

/* What the failing require found, for report-at: match and {match} {codepoint}: the
 * judged string (the node's value, or its member name when the key predicate found the
 * text there), its length, and the match's bytes in it. S is NULL when nothing was
 * recorded. */
struct found {
    const char *s;
    size_t slen, off, len;
    const char *related; /* {related}: the other documents' places, or NULL */
};

/* The item C lies in (a member of a collection of the document, at depth 2), or NULL. */
const struct cursor *eval_enclosing_item(const struct cursor *c);
/* {item-kind} of ITEM ("document" for NULL); *MEMBER the member that names it. */
const char *eval_item_kind(const struct cursor *item, const char **member);
/* What CTX's last require recorded as its match at C. */
struct found eval_found_text(const struct eval_ctx *ctx, const struct cursor *c);
/* The source positions of F's match at C (its start, and just after its end): 0, or -1
 * when the node's source does not decode to the judged string. */
int eval_found_pos(const struct eval_ctx *ctx, const struct cursor *c, const struct found *f,
                   struct doc_pos *at, struct doc_pos *end);
/* TMPL with its placeholders expanded for the finding at C (POINTER its pointer, M its
 * versions of VL, DETAIL the predicate's detail, F its match): a new string. */
char *eval_expand(const char *tmpl, const struct cursor *c, const char *pointer, ver_mask m,
                  const struct ver_list *vl, const struct buf *detail, const struct found *f);

#endif
