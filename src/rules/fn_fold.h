/* fn_fold.h - how the predicates unique and among compare values, and the hash of their
 * selection indexes: equal values (under the fold) hash equal. */
#ifndef MCPDESC_FN_FOLD_H
#define MCPDESC_FN_FOLD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* FOLD_CASE: without ASCII case (ignore-case); FOLD_SEPARATORS: without the separators of
 * names, - _ and . (ignore-separators: send_email, Send-Email and sendEmail are one name). */
enum { FOLD_CASE = 1, FOLD_SEPARATORS = 2 };

/* Are the texts A (LA bytes) and B equal under FOLD? */
int fn_fold_text_equal(const char *a, size_t la, const char *b, size_t lb, int fold);
/* Are the values equal (val_equal; strings under FOLD)? */
int fn_fold_values_equal(json_t *a, json_t *b, int fold);
/* FNV-1a of S (N bytes) under FOLD. */
uint64_t fn_fold_fnv(const char *s, size_t n, int fold);
/* Strings by (folded) text, numbers by value, other values by type only. */
uint64_t fn_fold_value_hash(json_t *v, int fold);

#endif
