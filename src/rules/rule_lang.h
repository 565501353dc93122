/* rule_lang.h - the rule language as tables: one table per mapping of it (the manifest,
 * its document, component-ref and overrides entry, a rule file, a rule, a check clause, a
 * fix, an example, a required-by or based-on entry, a version range), each row a member:
 * its name, kind, whether it is required, a one-line doc and the handler that compiles
 * it. The compiler walks a mapping against its table (rule_compile.c, rule_cc_members);
 * `make check` holds schema/rule-file.schema.json and schema/manifest.schema.json to the
 * same rows (tests/check-schemas.sh, through `mcpdesc rules dump --language`); completion
 * and rule_names() read them. Adding a member is one row, its handler if the generic check
 * of its kind is not enough, its docs and its schema entry (docs/architecture.md). */
#ifndef MCPDESC_RULE_LANG_H
#define MCPDESC_RULE_LANG_H

#include <stddef.h>
#include <stdio.h>

#include "rules/rule.h"

/* What a member's value is. Of a row that is not RULE_LANG_OWN, the walker checks a
 * STRING, STRINGS or MAPPINGS value itself (the loader's usual words; a list of mappings
 * entry by entry against the row's table) and reports any required member missing; every
 * other kind is its handler's to check, called when the member is there. */
enum rule_lang_kind {
    RULE_LANG_STRING,     /* a string */
    RULE_LANG_STRINGS,    /* a list of strings */
    RULE_LANG_INTEGER,    /* an integer */
    RULE_LANG_ENUM,       /* one of the row's values */
    RULE_LANG_MAPPING,    /* a mapping, of the row's table */
    RULE_LANG_MAPPINGS,   /* a list of mappings, of the row's table */
    RULE_LANG_STRING_MAP, /* a mapping of names to strings */
    RULE_LANG_VERSIONS,   /* a version spec: all, a list of versions, or a version range */
    RULE_LANG_SELECTORS,  /* a selector, or a list of them */
    RULE_LANG_PREDICATE,  /* a predicate (rules-yaml/README.md, Predicates) */
    RULE_LANG_PREDICATES, /* a mapping of names to predicates */
    RULE_LANG_CLAUSE,     /* a check: a mapping of the clause table */
    RULE_LANG_CLAUSES,    /* a non-empty list of checks */
    RULE_LANG_FIXES,      /* a fix (the fix table), or a list of them */
    RULE_LANG_RULE_IDS,   /* a list of rule ids or id prefixes ending in ".*" */
    RULE_LANG_ANY         /* any value */
};

enum {
    RULE_LANG_REQUIRED = 1, /* every such mapping has it */
    /* The walker neither checks it nor reports it missing: its handler does, in its own
     * words, and is called whether the member is there or not; without a handler, a
     * sibling's handler checks it, or only the schema (rule_lang.c says which). */
    RULE_LANG_OWN = 2
};

struct cc;
struct rule_lang_walk;
struct rule_lang_map;

/* Compiles or checks one member (w->m; its value NULL when absent, for RULE_LANG_OWN
 * rows): 0, or -1 when the mapping it is in must be refused (after reporting). */
typedef int (*rule_lang_handler)(struct cc *cc, struct rule_lang_walk *w);

struct rule_lang_member {
    const char *name;
    enum rule_lang_kind kind;
    unsigned flags;                  /* RULE_LANG_REQUIRED, RULE_LANG_OWN */
    const char *doc;                 /* one line, for completion and pages */
    const struct rule_lang_map *map; /* MAPPING, MAPPINGS, CLAUSE(S), FIXES, VERSIONS */
    const char *const *values;       /* ENUM: the accepted values, NULL-terminated */
    rule_lang_handler handler;       /* NULL: the walker's check of the kind is all */
    /* When the compiler looks at it, relative to the mapping's other rows: errors come out
     * in this order (rows of one step in table order). The table's own order is the
     * documented one, which messages list ("known: ..."). */
    unsigned step;
};

struct rule_lang_map {
    const char *name;                       /* "rule": rules dump --language, schema checks */
    enum rule_names names;                  /* its rule_names() list */
    const char *schema;                     /* its place in schema/: FILE#POINTER */
    const struct rule_lang_member *members; /* ended by a row without a name */
    /* Members one of which a mapping holds (a fix's actions): when it has none of them, a
     * misspelt member is most likely one (did you mean); NULL for most. */
    const char *const *prefer;
};

/* Every table, the rule files' first, then the manifest's; NULL after the last. */
const struct rule_lang_map *rule_lang_map_at(size_t i);
/* The table whose rule_names() list is WHICH (NULL for a list of values). */
const struct rule_lang_map *rule_lang_map_of(enum rule_names which);
/* The row of MAP named NAME, or NULL. */
const struct rule_lang_member *rule_lang_member(const struct rule_lang_map *map, const char *name);
/* "string", "list of strings", ...: the kind as the tables' dump names it. */
const char *rule_lang_kind_name(enum rule_lang_kind kind);
/* Every row of every table as one JSON object a line (map, schema, member, kind,
 * required, doc; values and of where it has them), for tests/check-schemas.sh. */
void rule_lang_dump(FILE *out);

#endif
