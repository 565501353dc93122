/* fn_table.c - the one predicate table: every predicate a rule's `check` may name, with
 * its argument synopsis, its one-sentence description, its compiler and evaluator, and
 * the hook that frees what its compiler kept. The functions live in fn.c, in fn_mentions.c
 * (mentions) and, for the predicates backed by the JSON Schema engine, in fn_schema.c (all
 * export them through fnInt.h); this file only lists them, so neither of them depends on the other. The
 * compiler (rule_compile.c) looks names up here and suggests the nearest one for a typo;
 * tests/check-schemas.sh checks that schema/rule-file.schema.json has exactly these
 * predicates. Adding a predicate: its functions, one entry here, its $defs entry
 * pred.NAME in schema/rule-file.schema.json and its section in rules-yaml/README.md. */
#include <string.h>

#include "rules/fn.h"
#include "rules/fnInt.h"

const struct fn_def fn_table[] = {
    /* fn.c */
    {"json-type", "TYPE or [TYPE, ...]",
     "the node's JSON type is one of these (integer also matches 1.0; number matches any number)",
     fn_arg_types, fn_eval_json_type, NULL},
    {"declared-type-is", "TYPE-NAME", "the node is an object whose \"type\" is exactly this string",
     fn_arg_string, fn_eval_declared_type_is, NULL},
    {"declared-type-includes", "TYPE-NAME",
     "the node is an object whose \"type\" is this string or an array containing it", fn_arg_string,
     fn_eval_declared_type_includes, NULL},
    {"has", "MEMBER or [MEMBER, ...]", "the node is an object with every one of these members",
     fn_arg_strings, fn_eval_has, NULL},
    {"lacks", "MEMBER or [MEMBER, ...]", "the node is not an object, or has none of these members",
     fn_arg_strings, fn_eval_lacks, NULL},
    {"equals", "VALUE",
     "the node equals this JSON value (1 equals 1.0; member order is irrelevant)", fn_arg_any,
     fn_eval_equals, NULL},
    {"one-of", "[VALUE, ...]", "the node equals one of these JSON values", fn_arg_values,
     fn_eval_one_of, NULL},
    {"all", "[PREDICATE, ...]", "every predicate holds", fn_arg_preds, fn_eval_all, NULL},
    {"any", "[PREDICATE, ...]", "at least one predicate holds", fn_arg_preds, fn_eval_any, NULL},
    {"not", "PREDICATE", "the predicate does not hold", fn_arg_pred, fn_eval_not, NULL},
    {"every", "{select: SELECTOR, require: PREDICATE}",
     "every node the selector reaches from here satisfies the predicate (true when none)",
     fn_arg_quantifier, fn_eval_every, NULL},
    {"some", "{select: SELECTOR, require: PREDICATE}",
     "at least one node the selector reaches satisfies the predicate (or exists, without require)",
     fn_arg_quantifier, fn_eval_some, NULL},
    {"use", "NAME", "the predicate defined as NAME under the file's \"predicates:\"", fn_arg_use,
     fn_eval_all, NULL},
    {"length", "{min: N, max: N}",
     "the node is a string whose length in Unicode code points, an array whose item count, or an "
     "object whose member count lies within min and max (inclusive; either may be omitted)",
     fn_arg_length, fn_eval_length, NULL},
    {"matches", "REGEX",
     "the node is a string in which the PCRE2 regular expression finds a match (anchor with ^ and "
     "$)",
     fn_arg_regex, fn_eval_matches, NULL},
    {"path-matches", "REGEX",
     "the node's JSON Pointer in the resolved document matches the PCRE2 regular expression",
     fn_arg_regex, fn_eval_path_matches, NULL},
    {"key", "PREDICATE",
     "the node is an object member whose name, taken as a string, satisfies the predicate",
     fn_arg_pred, fn_eval_key, NULL},
    {"range", "{min: NUMBER, max: NUMBER}",
     "the node is a number within min and max (inclusive; either may be omitted)", fn_arg_range,
     fn_eval_range, NULL},
    {"format", "uri | uri-reference | uri-template | media-type | iso-8601 | base64 | data-uri",
     "the node is a string of that syntax (RFC 3986 URI or URI reference, RFC 6570 template, RFC "
     "9110 media type, ISO 8601 date or date-time, RFC 4648 Base64, RFC 2397 data: URI whose "
     ";base64 data is Base64)",
     fn_arg_format, fn_eval_format, NULL},
    {"unique",
     "{select: SELECTOR or [SELECTOR, ...], up: N, depth: N, ignore-case: BOOL, "
     "ignore-separators: BOOL}",
     "no node selected before this one (from the ancestor up levels above, or at depth, or the "
     "root for "
     "absolute selectors) and offered in a common protocol version has an equal value",
     fn_arg_context, fn_eval_context, NULL},
    {"among",
     "{select: SELECTOR or [SELECTOR, ...], up: N, depth: N, ignore-case: BOOL, "
     "ignore-separators: BOOL, keys: BOOL}",
     "some other selected node has an equal value (keys: the node is a string naming a member of a "
     "selected object; {session: SELECTOR}: a node of another document judged together)",
     fn_arg_context, fn_eval_context, NULL},
    {"ancestor", "{up: N, require: PREDICATE}",
     "the node's ancestor N member or item steps up (1: its parent) satisfies the predicate "
     "(false when there is none)",
     fn_arg_ancestor, fn_eval_ancestor, NULL},
    {"nesting", "{max: N}",
     "no value lies more than N member or item steps below the node (a scalar, [] and {} nest 0 "
     "levels; [[1]] nests 2)",
     fn_arg_nesting, fn_eval_nesting, NULL},
    {"every-descendant", "PREDICATE",
     "every node below this one, at any depth, satisfies the predicate (true when there is none)",
     fn_arg_pred, fn_eval_every_descendant, NULL},
    {"text-kind", "KIND or [KIND, ...]",
     "the node is a text that a {texts: ...} selector reached, of one of these kinds (as the "
     "manifest's texts: names them)",
     fn_arg_strings, fn_eval_text_kind, NULL},
    /* fn_mentions.c */
    {"mentions",
     "{as: call-target | parameter, names: [NAME, ...], among: [SELECTOR, ...], except: "
     "[SELECTOR, ...], up: N, depth: N}",
     "the node is a string that names, as a call target (\"call X\", \"use the X tool\", call "
     "syntax; quoted or code-formatted for the names the rule gives) or as a parameter to fill "
     "(\"pass it as X\", \"the X parameter\"), a name of names or among (for call targets "
     "without either: any tool-like name) that none of the except selectors reaches; names compare "
     "without ASCII case and without - and _",
     fn_mentions_arg, fn_mentions_eval, fn_mentions_free},
    /* fn_schema.c: backed by the JSON Schema engine */
    {"valid-schema", "DIALECT",
     "the node is a valid JSON Schema of its declared dialect ($schema), or of DIALECT when it "
     "declares none: the meta-schema, plus every regex and reference compiles (a reference to a "
     "network URI is not resolved)",
     fn_schema_arg_dialect, fn_schema_eval_valid_schema, NULL},
    {"keywords-spelt", "DIALECT",
     "no member of the node (a schema of its declared dialect, or of DIALECT when it declares "
     "none) or of its subschemas, in a keyword position, is an unknown name a few edits from a "
     "keyword of that dialect (minimun for minimum); x- names and OpenAPI's example aside",
     fn_schema_arg_dialect, fn_schema_eval_keywords_spelt, NULL},
    {"dialect-in", "DIALECT or [DIALECT, ...]",
     "the node's declared dialect ($schema; the first DIALECT when absent) is one of these",
     fn_schema_arg_dialect, fn_schema_eval_dialect_in, NULL},
    {"matches-schema", "FILE or {file: FILE, without: [MEMBER, ...]}",
     "the node (without the listed members, when given) validates against the JSON Schema in "
     "FILE (relative to the rule set's directory)",
     fn_schema_arg_schema_file, fn_schema_eval_matches_schema, fn_schema_free_compiled},
    {"ref-resolves", "{depth: N, dialect: DIALECT}",
     "the node, a $ref value, resolves inside the schema rooted at its ancestor at depth N "
     "(DIALECT, "
     "2020-12 by default, when that root declares no $schema); nothing is fetched",
     fn_schema_arg_ref_resolves, fn_schema_eval_ref_resolves, NULL},
    /* fn_pair.c: change rules (mcpdesc diff), over the pair being judged */
    {"paired", "BOOL",
     "the pair being judged has both an old and a new item (true), or only one of them (false: "
     "added or removed)",
     fn_pair_arg_bool, fn_pair_eval_paired, NULL},
    {"counterpart", "PREDICATE",
     "the node at this node's place below the other side's item (its path below its item) "
     "exists and satisfies the predicate",
     fn_arg_pred, fn_pair_eval_counterpart, NULL},
    {"unchanged", "BOOL",
     "the node equals the node at its place on the other side (true), or differs from it or has "
     "none there (false); {detail} shows the other side's value",
     fn_pair_arg_bool, fn_pair_eval_unchanged, NULL},
    {"no-schema-change", "[KIND, ...] or {changes: [KIND, ...], dialect: DIALECT}",
     "the node, a JSON Schema, and the schema at its place on the other side differ by none of "
     "these kinds of change (type-narrowed, required-added, bound-tightened, unprovable, ...), "
     "each a place of its own; true when the other side has no schema there",
     fn_pair_arg_schema_change, fn_pair_eval_schema_change, NULL},
    /* fn_chars.c, fn_phrases.c: over a data file of the set (manifest member data:) */
    {"chars", "{data: NAME, in: [CLASS, ...], except: [SEQUENCE, ...], min-run: N}",
     "the node is a string with a code point of one of the classes of data file NAME (kind "
     "unicode-classes) that none of the sequences excuses (min-run: N such code points in a row)",
     fn_chars_arg, fn_chars_eval, fn_chars_free},
    {"phrases", "{data: NAME, list: LIST, near: {list: LIST, within: N}}",
     "the node is a string in which, folded as the list says, a phrase of LIST (data file NAME, "
     "kind phrase-lists) occurs that none of its allowed phrases overlaps (near: within N words "
     "of a phrase of the second list)",
     fn_phrases_arg, fn_phrases_eval, fn_phrases_free},
};
const size_t fn_count = sizeof fn_table / sizeof fn_table[0];

const struct fn_def *fn_lookup(const char *name)
{
    for (size_t i = 0; i < fn_count; i++)
        if (!strcmp(fn_table[i].name, name)) return &fn_table[i];
    return NULL;
}

size_t fn_predicate_count(void)
{
    return fn_count;
}

const char *fn_predicate_name(size_t i)
{
    return i < fn_count ? fn_table[i].name : NULL;
}

const char *fn_predicate_synopsis(size_t i)
{
    return i < fn_count ? fn_table[i].synopsis : NULL;
}

const char *fn_predicate_doc(size_t i)
{
    return i < fn_count ? fn_table[i].doc : NULL;
}
