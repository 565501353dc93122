/* fix.h - fixes declared in the rules (rules-yaml/README.md, "Fixes"), applied as text
 * edits at exact byte spans of the judged text, so that the file keeps its formatting,
 * its YAML comments and its key order: the fix of one finding (what an editor offers as
 * a quick fix), and every fix of a document up to a fixpoint (`mcpdesc fix`). */
#ifndef MCPDESC_FIX_H
#define MCPDESC_FIX_H

#include <stddef.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "judge/judge.h"
#include "rules/rule.h"

/* Replace the bytes [start, end) of the judged text with TEXT (owned, NUL-terminated). */
struct fix_edit {
    size_t start, end;
    char *text;
};

/* One finding's fix: the rule's id (borrowed from the rule set, valid while it lives, not
 * from the diagnostic), the title an editor shows (owned) and its edits (owned, sorted by
 * start, not overlapping). */
struct fix_offer {
    const char *rule;
    char *title;
    struct fix_edit *edits;
    size_t nedits;
};

/* The fix offered for diagnostic DG of document D, which RS judged (D as judged: its
 * text is what the edits' offsets refer to). Returns 1 with *OUT filled (release it with
 * fix_offer_release), or 0 with *OUT empty: DG has no fix (none declared, its `when`
 * does not hold, reached through a $componentRef), the fix has nothing to do (the value
 * already is what it would write), or its edit would touch YAML text that other nodes
 * share (an anchor, an alias, a merged member) or a place it cannot edit safely. */
int fix_for_diag(const struct rule_set *rs, const doc *d, const struct diag *dg,
                 struct fix_offer *out);
void fix_offer_release(struct fix_offer *o);

/* Edits in the fix engine's style for what is not a declared fix (an editor's "suppress
 * this finding"): add MEMBER: VALUE to the object at POINTER of D (as an `add` fix writes
 * it: its first member, laid out as its neighbours), or append VALUE to the array at
 * POINTER (after its last item, laid out as it; a block sequence gets a "- " line).
 * Return 1 with *OUT filled (its text new), or 0: no such object or array in D's source,
 * MEMBER is there already, or the text cannot be edited safely (shared YAML text, a
 * mapping with only merged members, a dash that shares its line). */
int fix_insert_member(const doc *d, const char *pointer, const char *member, json_t *value,
                      struct fix_edit *out);
int fix_append_item(const doc *d, const char *pointer, json_t *value, struct fix_edit *out);

/* How fix_text judges: as JUDGE says (NULL: everything), then FILTER (may be NULL), called
 * with every judgement, hides or drops what the caller's run hides (suppressions, a
 * config's levels): fixes apply only to the diagnostics it leaves that are not hidden
 * (diag_hidden). */
typedef void (*fix_filter_fn)(const struct rule_set *rs, const doc *d, const char *name,
                              struct diag_list *diags, void *arg);
struct fix_opts {
    const struct judge_options *judge;
    fix_filter_fn filter;
    void *filter_arg;
};

/* Apply every offered fix to TEXT (LEN bytes; NAME says JSON or YAML as judge.h does and
 * names the document in ERRS) until a fixpoint: judge (with OPTS, as `validate` would:
 * preset, rule selection, versions; NULL judges everything), apply the offers whose edits
 * overlap no earlier offer's (in the order of the sorted diagnostics), judge the result
 * again, at most FIX_MAX_PASSES times. Returns the new text (new, NUL-terminated,
 * *OUT_LEN bytes), or NULL when nothing changed or on an error. *NAPPLIED (may be NULL):
 * fixes applied. On an error (TEXT cannot be judged: it does not parse, its top level is
 * not an object; a fix made text that does not parse; no fixpoint within the bound)
 * returns NULL with -1 in *NAPPLIED and one diagnostic in ERRS: a text that does not
 * parse is never returned. */
#define FIX_MAX_PASSES 10
char *fix_text(const struct rule_set *rs, const struct fix_opts *opts, const char *name,
               const char *text, size_t len, size_t *out_len, int *napplied,
               struct diag_list *errs);

#endif
