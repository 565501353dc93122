/* val.h - JSON value semantics that jansson does not give, shared by the JSON Schema
 * engine (schema/) and the rule interpreter (core/): equality where 1 == 1.0 and key
 * order is ignored, exact comparison of numbers across integers and reals, the
 * integer test, type names, the length of a string in code points. Values are
 * borrowed; jansson holds no NaN or infinity (json_real refuses them). */
#ifndef MCPDESC_VAL_H
#define MCPDESC_VAL_H

#include <jansson.h>
#include <stddef.h>

/* 1 when A and B are equal JSON values: numbers by value (1 == 1.0, exactly: not
 * through a double, so 2^53 + 1 != 2^53 as a real), strings byte for byte (a NUL
 * inside counts), arrays element by element, objects member by member whatever their
 * order; else 0. */
int val_equal(json_t *a, json_t *b);

/* A <=> B for two numbers (integers or reals), exactly: <0, 0, >0. */
int val_num_cmp(json_t *a, json_t *b);

/* 1 when V is an integer, or a real with no fractional part (1.0, -0.0, 1e300). */
int val_is_integer(json_t *v);

/* The JSON Schema type name of V (static): "object", "array", "string", "integer"
 * (an integer literal), "number" (a real, even 1.0), "boolean", "null". */
const char *val_type_name(json_t *v);
/* The same in YAML's words, as a rule file's messages say them: "mapping" for an
 * object, "list" for an array, the others as val_type_name. */
const char *val_type_name_yaml(json_t *v);

/* The length of S[0..N) in code points: the bytes that are not UTF-8 continuation
 * bytes (10xxxxxx). S is not checked: a stray continuation byte counts 0, a truncated
 * or invalid lead byte 1. */
size_t val_utf8_length(const char *s, size_t n);

/* json_load_file(PATH, FLAGS, ERR), the same value and the same errors, but the file read
 * whole first: jansson reads a FILE with a getc per byte, a fifth of a small run's start
 * for the rule set's schema files. */
json_t *val_load_file(const char *path, size_t flags, json_error_t *err);

#endif
