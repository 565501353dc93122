/* schema_compat.h - what changed from one JSON Schema to another, keyword by keyword, for
 * `mcpdesc diff` (issue 31 item 4): each edit classified by kind, at its place in OLD and
 * in NEW, so a rule can say whether NEW still accepts what OLD accepted (an input schema)
 * or OLD still accepts what NEW produces (an output schema). Structural, not semantic:
 * keywords are compared where both sides have them, recursing where both have a
 * subschema; whatever changed and is not one of the kinds below is UNPROVABLE, naming the
 * keyword: never a silent pass. Knows JSON Schema, nothing of MCP.
 *
 * Decisions (each a test in tests/unit/check_schema_compat.c):
 * - Each side's dialect is its root's $schema (an unknown one, or none: DEFAULT_DIALECT;
 *   NONE: 2020-12). An embedded $schema in a subschema is not read.
 * - Annotations are never changes: title, description, default, examples, $comment,
 *   deprecated, readOnly, writeOnly, and every keyword its side's dialect does not define
 *   (x-*, nullable, misspellings). Identifiers and containers are not compared either
 *   ($schema, $id, id, $anchor, $dynamicAnchor, $recursiveAnchor, $vocabulary, $defs,
 *   definitions): a definition matters only where a $ref reaches it.
 * - `true` is compared as {} (so `true` -> {"type":"string"} is TYPE_NARROWED, keyword
 *   "type"); a schema becoming `false` is TYPE_NARROWED and `false` becoming anything else
 *   TYPE_WIDENED, both with the keyword "schema" (the whole schema, at its place). A value
 *   that is no schema (a number where a schema belongs), when changed: UNPROVABLE "schema".
 * - Keywords are compared one at a time, without reasoning across them: `type` added
 *   where an `enum` already held only strings is still TYPE_NARROWED. One exception: the
 *   keywords of one JSON type (the numeric bounds and multipleOf; minLength, maxLength,
 *   pattern; the array's; the object's) are not compared when OLD's and NEW's `type`
 *   admit no value of that type in common (a string that became an array: the type is
 *   the change).
 * - type: the sets of admitted JSON types ("number" admits integers; absent admits all).
 *   A change both ways ("string" -> "number") is reported twice, NARROWED and WIDENED.
 * - Numeric bounds are the effective bound of each side: the larger of minimum and
 *   exclusiveMinimum (draft-06 on), minimum made exclusive by draft-04's boolean
 *   exclusiveMinimum; the same for maxima. Moving minimum 5 to exclusiveMinimum 5 is
 *   TIGHTENED (keyword: NEW's); a bound that another one makes redundant does not count.
 *   multipleOf: NEW a multiple of OLD is TIGHTENED, OLD a multiple of NEW LOOSENED, other
 *   edits both. uniqueItems absent is false. A bound of the wrong type: UNPROVABLE.
 * - required, enum: one change per name or value (val_equal: 1 == 1.0); an enum added or
 *   removed whole is one ENUM_ADDED / ENUM_REMOVED.
 * - properties: a property on both sides is compared; one added is PROPERTY_ADDED, and
 *   when OLD's additionalProperties was a constraining schema (what OLD said such a
 *   member must be) that schema is compared with the new property's. A property removed
 *   is PROPERTY_REMOVED when NEW's additionalProperties is absent, true, trivial or equal
 *   to the removed property's schema; PROPERTY_REMOVED_CLOSED when it is false; otherwise
 *   (a different schema), or when NEW has patternProperties, UNPROVABLE naming that keyword.
 * - additionalProperties (absent = true): true -> false or a constraining schema, a
 *   schema -> false: ADDITIONAL_CLOSED; the reverse: ADDITIONAL_OPENED; two schemas are
 *   compared. patternProperties, propertyNames, dependencies, dependentRequired,
 *   dependentSchemas, allOf, not, if/then/else, contains, min/maxContains, format,
 *   content*, unevaluated*, $dynamicRef, $recursiveRef: UNPROVABLE when changed.
 * - Arrays: each side as a list of positional schemas (2020-12 prefixItems, or an items
 *   array before it) and the schema for the rest (items, or additionalItems after an
 *   items array; absent = true); position by position, then rest against rest.
 * - anyOf, oneOf: alternatives matched by val_equal (reordering is no change); the rest
 *   are ALTERNATIVE_ADDED / _REMOVED, or when as many are unmatched on each side (an
 *   edit) one UNPROVABLE at the keyword. The keyword added or removed whole: UNPROVABLE.
 *   (An alternative added to oneOf may also reject an instance that now matches two.)
 * - $ref: a reference whose fragment is a JSON Pointer or a plain-name anchor ($anchor, or
 *   an $id/id "#name") in the same root is followed on each side, and the places are the
 *   target's (`/$defs/Addr/properties/zip`). Up to draft-07 the members beside $ref are
 *   ignored; from 2019-09 on they apply too, so a $ref with constraining siblings is
 *   followed only when both sides have one (targets compared, then the siblings), else
 *   UNPROVABLE "$ref". Any other reference is compared by its text: the same text is no
 *   change, a different one UNPROVABLE. A nested $id changing the base URI is not honoured.
 *   Each (OLD node, NEW node) pair is compared once (cycles end there), and the same
 *   (kind, old_at, new_at) is reported once.
 * - Bounds: more than 256 nested comparisons give one UNPROVABLE "schema" ("too deeply
 *   nested") there; more than 100000 subschema pairs one UNPROVABLE "schema" ("too large
 *   to compare") at the roots, and the comparison stops. */
#ifndef MCPDESC_SCHEMA_COMPAT_H
#define MCPDESC_SCHEMA_COMPAT_H

#include <jansson.h>
#include <stddef.h>

#include "schema/schema.h"

enum schema_change_kind {                                   /* each an edit from OLD to NEW */
                          SCHEMA_CHANGE_TYPE_NARROWED,      /* NEW's type admits fewer JSON types */
                          SCHEMA_CHANGE_TYPE_WIDENED,       /* more types */
                          SCHEMA_CHANGE_ENUM_ADDED,         /* NEW has an enum where OLD had none */
                          SCHEMA_CHANGE_ENUM_REMOVED,       /* OLD's enum is gone */
                          SCHEMA_CHANGE_ENUM_VALUE_REMOVED, /* one per value */
                          SCHEMA_CHANGE_ENUM_VALUE_ADDED,   /* one per value */
                          SCHEMA_CHANGE_CONST_ADDED,        /* */
                          SCHEMA_CHANGE_CONST_REMOVED,      /* */
                          SCHEMA_CHANGE_CONST_CHANGED,      /* */
                          SCHEMA_CHANGE_BOUND_TIGHTENED,    /* a min*, max*, exclusive*, multipleOf,
                                             uniqueItems added or made stricter */
                          SCHEMA_CHANGE_BOUND_LOOSENED,     /* removed or made laxer */
                          SCHEMA_CHANGE_PATTERN_ADDED,      /* (a changed pattern is UNPROVABLE) */
                          SCHEMA_CHANGE_PATTERN_REMOVED,    /* */
                          SCHEMA_CHANGE_REQUIRED_ADDED, /* a name newly in `required` (one per name) */
                          SCHEMA_CHANGE_REQUIRED_REMOVED, /* */
                          SCHEMA_CHANGE_PROPERTY_ADDED,   /* a member of `properties` */
                          SCHEMA_CHANGE_PROPERTY_REMOVED, /* NEW still admits it as an additional member */
                          SCHEMA_CHANGE_PROPERTY_REMOVED_CLOSED, /* NEW rejects it (additionalProperties false) */
                          SCHEMA_CHANGE_ADDITIONAL_CLOSED, /* additionalProperties now rejects members OLD
                                             admitted */
                          SCHEMA_CHANGE_ADDITIONAL_OPENED, /* */
                          SCHEMA_CHANGE_ALTERNATIVE_ADDED, /* an anyOf/oneOf alternative added whole */
                          SCHEMA_CHANGE_ALTERNATIVE_REMOVED, /* */
                          SCHEMA_CHANGE_UNPROVABLE, /* anything else that changed: `keyword` names it */
};
#define SCHEMA_CHANGE_KIND_COUNT (SCHEMA_CHANGE_UNPROVABLE + 1)

struct schema_change {
    enum schema_change_kind kind;
    const char *keyword; /* "type", "enum", "maxLength", "anyOf", ...; "schema" for the
                            whole schema (a boolean schema, a bound of the comparison) */
    const char *old_at;  /* RFC 6901 pointer from OLD's root: the place in OLD (for an
                            addition: the nearest place OLD has) */
    const char *new_at;  /* from NEW's root: the place in NEW (for a removal: the nearest
                            surviving place: the keyword, `properties`, the subschema) */
    const char *detail;  /* one phrase for people, no trailing period */
};

/* The bounds of one comparison. */
#define SCHEMA_COMPAT_MAX_DEPTH 256u
#define SCHEMA_COMPAT_MAX_PAIRS 100000u

/* Calls FN for each change from OLD_SCHEMA to NEW_SCHEMA (borrowed; any dialect; a
 * boolean schema too), in a stable order (NEW's document order, then what only OLD has,
 * in OLD's); FN's strings live during the call. DEFAULT_DIALECT applies to a root
 * without $schema. Equal schemas report nothing. Returns the number of changes reported;
 * FN returning nonzero stops (that change is counted). FN may be NULL (just count). */
typedef int (*schema_change_fn)(const struct schema_change *c, void *arg);
size_t schema_compat_compare(json_t *old_schema, json_t *new_schema,
                             enum schema_dialect default_dialect, schema_change_fn fn, void *arg);

/* Are the two roots equal values (so that no change can be found between them)? The
 * check schema_compat_compare_root makes first, for a caller that asks several times
 * about one pair (the change rules of one tool). */
int schema_compat_roots_equal(json_t *old_schema, json_t *new_schema);

/* The same, where the values the two roots judge are always of the JSON type ROOT_TYPE
 * ("object": a tool's arguments, structuredContent; NULL: any): at the roots, a `type`
 * change that only adds or drops other types is no change (an untyped inputSchema that
 * becomes {"type": "object"} narrows nothing a client can send). */
size_t schema_compat_compare_root(json_t *old_schema, json_t *new_schema,
                                  enum schema_dialect default_dialect, const char *root_type,
                                  schema_change_fn fn, void *arg);

/* "type-narrowed", "enum-value-removed", ... (kebab case of the enum names; static), NULL
 * for a value out of range; and back: the kind, or -1 when NAME is none. */
const char *schema_change_kind_name(enum schema_change_kind k);
int schema_change_kind_parse(const char *name);
/* Every name, in the enum's order, then NULL: for the rule compiler's checks. */
extern const char *const schema_compat_kind_names[];

#endif
