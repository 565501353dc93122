/* lint_selectors.h - `rules lint`'s selector checks (lint.c calls them for each rule):
 * a selector whose literal path the description format's JSON Schema forbids (a misspelt
 * collection, a member of a string), and a member under an item (a tool, a resource, a
 * template, a prompt) or under serverInfo or capabilities that no MCP type of the set's
 * protocol versions declares but that lies within two edits of one it does (a misspelt
 * member: `anotations` under a tool). The schemas come from the set, else from the set it
 * extends (a release directory keeps them in schema/), so a set outside the checkout is
 * checked too; where none is found lint says so once, at the manifest. */
#ifndef MCPDESC_LINT_SELECTORS_H
#define MCPDESC_LINT_SELECTORS_H

#include <jansson.h>

#include "base/diag.h"
#include "base/ver.h"
#include "doc/doc.h"
#include "rules/rule.h"

struct sel_lint;

/* Find the description format's schema for the set in DIR (PROGRAM: its partial program,
 * for the base it extends; may be NULL) through SCHEMA_MAP (the manifest's schema-map, may
 * be NULL), else DIR/../schema, else the same for each base. VL: the set's versions
 * (borrowed until lint_selectors_free). When none is found, appends one info to OUT at the
 * manifest M's `extends` (else its first line) saying where it looked. */
struct sel_lint *lint_selectors_new(const struct rule_set *program, const char *dir,
                                    json_t *schema_map, const struct ver_list *vl, const doc *m,
                                    struct diag_list *out);
/* The selectors of a rule's CHECK (at POINTER in the rule file D), judged for the versions
 * APPLIES (each branch narrowed by its own `versions`); findings go to OUT. A change rule's
 * check starts at its items: COMPARE is the collection it compares ("tools": relative
 * selectors, {old: SEL} and {new: SEL} start at /tools/[*]), NULL or "document" at the root. */
void lint_selectors_check(struct sel_lint *s, const doc *d, json_t *check, const char *pointer,
                          ver_mask applies, const char *compare, struct diag_list *out);
void lint_selectors_free(struct sel_lint *s);

#endif
