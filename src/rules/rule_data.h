/* rule_data.h - the data files of a rule set (manifest member `data:`, rules-yaml/README.md
 * "Data files"): each named, of one kind, validated against its schema
 * (schema/data-KIND.schema.json, embedded at build time) and compiled when the set loads,
 * for the predicates that read them (chars: fn_chars.c, phrases: fn_phrases.c). Included
 * by the rules layer only. */
#ifndef MCPDESC_RULE_DATA_H
#define MCPDESC_RULE_DATA_H

#include <stdint.h>

#include "rules/phrase.h"
#include "rules/ruleInt.h"

/* Code points as sorted, disjoint, merged inclusive ranges. */
struct rule_data_cps {
    uint32_t (*r)[2];
    size_t n;
};
/* Is CP in SET? (binary search) */
int rule_data_cps_has(const struct rule_data_cps *set, uint32_t cp);

struct rule_data_class {
    char *name;
    struct rule_data_cps cps;
};

/* A sequence that excuses code points (kind unicode-classes, `sequences:`). Context form:
 * a code point of CHARS whose neighbour is in AFTER (before it), BEFORE (after it), both
 * when both are given, or NEXT_TO (either side). Run form (RUN set): a run of MIN to MAX
 * code points of RUN just after one of AFTER and closed by one of END. */
struct rule_data_seq {
    char *name;
    int run_form, has_after, has_before, has_next_to;
    struct rule_data_cps chars, after, before, next_to, run, end;
    long min, max; /* run form; max 0: no limit */
};

struct rule_data_unicode {
    char *version;
    VEC(struct rule_data_class) classes;
    VEC(struct rule_data_seq) seqs;
};

/* One list of a phrase-lists file, compiled. */
struct rule_data_list {
    char *name;
    unsigned fold;                      /* PHRASE_FOLD_* */
    struct phrase_set *phrases, *allow; /* allow NULL when the list allows none */
    json_t *v;                          /* the list in its file (borrowed), for lint */
    doc_node node;                      /* and its node */
};

struct rule_data_phrases {
    VEC(struct rule_data_list) lists;
};

enum rule_data_kind { RULE_DATA_UNICODE, RULE_DATA_PHRASES };

struct rule_data {
    char *name;
    char *path; /* relative to the set's directory, as the digest lists it */
    enum rule_data_kind kind;
    doc *d; /* the file, kept for lint's positions */
    struct rule_data_unicode u;
    struct rule_data_phrases p;
};

/* The manifest's `data:` (Y; v NULL when absent) of the set being loaded: each file read,
 * validated and compiled into cc->rs->data, or reported at file:line:col. */
void rule_data_load(struct cc *cc, struct yv y);
/* The data file NAME as the rules of RS see it: RS's own, else its base's (nearest
 * first); NULL when none. */
const struct rule_data *rule_data_find(const struct rule_set *rs, const char *name);
/* The names of the data files RS's rules see, for a did-you-mean (new NULL-terminated
 * array of borrowed names). */
const char **rule_data_names(const struct rule_set *rs);
const struct rule_data_class *rule_data_class(const struct rule_data *d, const char *name);
const struct rule_data_seq *rule_data_seq(const struct rule_data *d, const char *name);
const struct rule_data_list *rule_data_list(const struct rule_data *d, const char *name);
/* For the predicates that read a data file (fn_chars.c): ARG, a mapping with only the
 * members ALLOWED (NULL-terminated), whose `data` names a data file of KIND that the
 * compiled set sees; NULL after reporting. */
const struct rule_data *fn_chars_arg_data(struct cc *cc, struct pred *p, struct yv arg,
                                          const char *const *allowed, enum rule_data_kind kind);
/* Free one data file; RS's data files. */
void rule_data_free(struct rule_data *d);
void rule_data_free_all(struct rule_set *rs);

#endif
