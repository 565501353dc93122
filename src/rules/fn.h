/* fn.h - the predicates a rule's `check` may name, read only: the one table of
 * fn_table.c (name, argument synopsis, one-sentence description), for tools that show
 * or complete them (an editor's hover and completion). The loader and the interpreter
 * reach the table through ruleInt.h. */
#ifndef MCPDESC_FN_H
#define MCPDESC_FN_H

#include <stddef.h>

/* How many predicates there are; entry I's name, synopsis and description (borrowed,
 * static; I < fn_predicate_count()). */
size_t fn_predicate_count(void);
const char *fn_predicate_name(size_t i);
const char *fn_predicate_synopsis(size_t i);
const char *fn_predicate_doc(size_t i);

#endif
