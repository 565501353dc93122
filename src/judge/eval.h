/* eval.h - run a rule set over one document: resolve it (effective versions,
 * $componentRef), then run every enabled rule's compiled check, judging each selected
 * node once for all of its versions, and merge the failures into diagnostics. */
#ifndef MCPDESC_EVAL_H
#define MCPDESC_EVAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"

struct eval_memo;

/* What one run did (eval_options.stats), for the tests. */
struct eval_stats {
    /* how many times a run of {texts: item} rules judged an item's texts node by node,
     * every rule on each node in turn (validate takes that way, rules test and --timing
     * judge rule by rule) */
    unsigned long texts_runs;
};

struct eval_options {
    ver_mask versions; /* judge only these (e.g. --protocol-version); 0 = all */
    /* Report only rules for which this returns nonzero (NULL: all); the rules they yield
     * to run too, unreported, so that yields are decided on the full set (overlap.h).
     * Also filters the built-in mcpdesc.* diagnostics. */
    int (*enabled)(const char *rule_id, void *arg);
    void *enabled_arg;
    /* When set (validate --timing): one counter per rule of the set, in rule order, to
     * which the nanoseconds spent judging that rule are added, and one more for the
     * resolution ($componentRef and versions: the built-in rules). Threads may share it. */
    _Atomic uint64_t *rule_ns;
    /* Report only the rules of this preset (rule.h: rule_in_preset; the built-in mcpdesc.*
     * rules are in every preset); RULE_PRESET_NONE (0): every rule. Applied with `enabled`
     * (a rule is reported when both say so), and like it after the yields, which are
     * decided on the full set: a rule of the preset yields to a rule outside it too. */
    enum rule_preset preset;
    /* When set (rules test): called once per node a rule judged, after its `when` held,
     * with the rule, the node's pointer (borrowed for the call), WHOLE (the clause reports
     * where below the node its predicate fails, report-at: failure, so it judged the values
     * below too), the versions it was judged for and those of them in which it failed
     * (before any yield). NULL (validate): no pointer is even formatted. Called for the
     * rules that run unreported too. */
    void (*judged)(const struct rule *r, const char *pointer, int whole, ver_mask judged,
                   ver_mask failed, void *arg);
    void *judged_arg;
    /* Judge the document as SESSION's document self (its d, resolved as SESSION's view
     * says), with the session rules only, and none of the built-in diagnostics (the
     * document's own judging reported those); NULL (the default): every rule but the
     * session rules (rule.h: rule_is_session). */
    const struct rule_session *session;
    /* Threads that judge the items of the collections (this one among them); 0 or 1:
     * this thread alone. The output is the same for any number (one worker's order). */
    long workers;
    /* The least items of a collection judged item by item with every rule (0: 1, every
     * collection, the default). Tests set SIZE_MAX to judge rule by rule, as the walk must. */
    size_t group_min;
    /* When set (the language server): what the judgement of this document's previous text
     * left (eval_memo.h); the items it holds unchanged are not judged again by the rules
     * that read only their item, and it is updated for the next text. NULL: none. */
    struct eval_memo *memo;
    /* When set: what eval_document did is added to it (the caller's own: one run's). */
    struct eval_stats *stats;
};

/* The placeholders a message, hint or fix title may hold ("value" for {value}, ...),
 * NULL-terminated (borrowed, static): the one table the interpreter expands, which
 * `rules lint` checks templates against. Any other {...} is kept as written. */
extern const char *const eval_placeholders[];

/* Judge D (resolved in place) with RS. Appends diagnostics to OUT, sorted by position
 * and merged per rule, node and failure. Returns the number appended. Threads may
 * judge their own documents with one rule set at the same time: a loaded rule set is
 * only read, except its JSON Schema registry, which locks what it adds (schema.h). */
size_t eval_document(const struct rule_set *rs, doc *d, const struct eval_options *opts,
                     struct diag_list *out);

/* Judge one pair of a diff (rule.h: struct rule_pair) with RS's change rules whose
 * compare is COMPARE ("tools", ..., "document"), for the pair's versions; what they find
 * is appended to OUT (sorted and merged among themselves; the caller sorts OUT once it
 * holds every pair's, diag_sort_merge), each finding placed in NEW
 * with its place in OLD as the related place. OPTS as for eval_document (versions,
 * enabled, preset, timing, judged); NEED (eval_needed, or NULL: all) the rules that run. */
void eval_pair(const struct rule_set *rs, const char *compare, const struct rule_pair *pair,
               const struct eval_options *opts, const unsigned char *need, struct diag_list *out);
/* Which rules a run with OPTS judges: those it reports (enabled, preset) and those they
 * yield to, which run unreported so that yields are decided on the full set (overlap.h). A
 * new array of flags per rule of RS, or NULL: every rule. For eval_pair's NEED. */
unsigned char *eval_needed(const struct rule_set *rs, const struct eval_options *opts);
/* The member that names an item of COLLECTION (tools and prompts: "name", resources:
 * "uri", resourceTemplates: "uriTemplate"; "name" for any other), and what messages call
 * such an item ("tool", ...; the collection's name for any other). */
const char *eval_item_member(const char *collection, const char **kind);

#endif
