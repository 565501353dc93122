/* fnInt.h - the predicates' functions, for fn_table.c to list in the one predicate table
 * (fn_table[]): the compilers and evaluators of fn.c and of fn_schema.c (the predicates
 * backed by the JSON Schema engine), and their free hooks. Included by those three files
 * only; the compiler (rule_compile.c) and the interpreter (eval.c) reach a predicate through
 * fn_table[] (ruleInt.h), never by these names. */
#ifndef MCPDESC_FNINT_H
#define MCPDESC_FNINT_H

#include "rules/ruleInt.h"

/* The shapes of struct fn_def's compile and eval (ruleInt.h). */
typedef int fn_compile_fn(struct cc *cc, struct pred *p, struct yv arg);
typedef int fn_eval_fn(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx);

/* fn.c */
fn_compile_fn fn_arg_types, fn_arg_string, fn_arg_strings, fn_arg_any, fn_arg_values, fn_arg_preds,
    fn_arg_pred, fn_arg_quantifier, fn_arg_use, fn_arg_length, fn_arg_regex, fn_arg_range,
    fn_arg_format, fn_arg_context, fn_arg_nesting, fn_arg_ancestor;
struct fn_text_scratch;

fn_eval_fn fn_eval_json_type, fn_eval_declared_type_is, fn_eval_declared_type_includes, fn_eval_has,
    fn_eval_lacks, fn_eval_equals, fn_eval_one_of, fn_eval_all, fn_eval_any, fn_eval_not,
    fn_eval_every, fn_eval_some, fn_eval_length, fn_eval_matches, fn_eval_path_matches, fn_eval_key,
    fn_eval_range, fn_eval_format, fn_eval_context, fn_eval_nesting, fn_eval_every_descendant,
    fn_eval_ancestor, fn_eval_text_kind;

/* fn_walk.c: every-descendant and nesting, within these bounds (values visited, depth) */
#define FN_WALK_MAX_NODES 200000
#define FN_WALK_MAX_DEPTH 256

/* fn.c: a private holder of one selector, with ARG (owned; the owner's meaning) */
struct pred *fn_sel_holder(struct sel *sl, json_t *arg);
/* fn.c: each entry of the index of P (unique, among: fn_reads_document) in ctx's
 * document, in selection order: its pointer (keys: the member name), versions and value
 * (keys: NULL). The index is built now if no rule built it yet. */
void fn_index_each(const struct pred *p, struct eval_ctx *ctx,
                   void (*visit)(const char *name, ver_mask vmask, json_t *v, void *arg),
                   void *arg);

/* fn_mentions.c */
fn_compile_fn fn_mentions_arg;
fn_eval_fn fn_mentions_eval;
void fn_mentions_free(struct pred *p);
/* 1 when P compares with the same names wherever it is evaluated in one document (no
 * relative selector): its answer on a string is then the same on every node. */
int fn_mentions_per_document(const struct pred *p);
/* 0 only when P cannot hold on C: P looks for any tool-like name and C's string holds none
 * (the test fn_mentions_eval starts with). */
int fn_mentions_may_hold(const struct pred *p, const struct cursor *c,
                         struct fn_text_scratch *scratch);

/* fn_schema.c */
fn_compile_fn fn_schema_arg_dialect, fn_schema_arg_schema_file, fn_schema_arg_ref_resolves;
fn_eval_fn fn_schema_eval_valid_schema, fn_schema_eval_dialect_in, fn_schema_eval_matches_schema,
    fn_schema_eval_ref_resolves, fn_schema_eval_keywords_spelt;
/* matches-schema: frees p->compiled */
void fn_schema_free_compiled(struct pred *p);

/* fn_pair.c: the predicates of change rules, which read the pair being judged */
fn_compile_fn fn_pair_arg_bool, fn_pair_arg_schema_change;
fn_eval_fn fn_pair_eval_paired, fn_pair_eval_counterpart, fn_pair_eval_unchanged,
    fn_pair_eval_schema_change;

/* fn_chars.c, fn_phrases.c: predicates over a data file of the set (rule_data.h) */
fn_compile_fn fn_chars_arg, fn_phrases_arg;
fn_eval_fn fn_chars_eval, fn_phrases_eval;
void fn_chars_free(struct pred *p), fn_phrases_free(struct pred *p);

/* 0 only when the predicate cannot hold on C, by C's text facts (sel.h): the first test of
 * its evaluator, for fn_text_skip.c (fn.c: matches) */
int fn_chars_may_hold(const struct pred *p, const struct cursor *c,
                      struct fn_text_scratch *scratch);
int fn_phrases_may_hold(const struct pred *p, const struct cursor *c,
                        struct fn_text_scratch *scratch);
int fn_matches_may_hold(const struct pred *p, const struct cursor *c,
                        struct fn_text_scratch *scratch);

#endif
