/* pattern_note.h - the built-in rule mcpdesc.schema.pattern-not-checked: a tool schema's
 * pattern that is valid ECMA-262 but that mcpdesc cannot run (PCRE2 10.42 has no
 * translation of it) is an info at the pattern, never the author's error. Invalid
 * patterns are the rule set's mcp.schema.dialect.valid errors (schema_regex_check). */
#ifndef MCPDESC_PATTERN_NOTE_H
#define MCPDESC_PATTERN_NOTE_H

#include "base/ver.h"
#include "base/diag.h"
#include "resolve/sel.h"

#define PATTERN_NOTE_RULE "mcpdesc.schema.pattern-not-checked"

/* Append one info per tool schema (inputSchema; outputSchema from 2025-06-18, the first
 * version that has it) naming its first pattern mcpdesc cannot check, with the tool's
 * versions within WANT. */
void pattern_note_scan(const struct sel_ctx *sctx, const struct ver_list *vl, ver_mask want,
                       struct diag_list *out);
/* The same for one tool, TOOL (an item of "tools"): what the walk over the items calls, so
 * that the language server keeps an unchanged tool's notes (eval_memo.h). */
void pattern_note_item(const struct sel_ctx *sctx, const struct ver_list *vl, ver_mask want,
                       const struct cursor *tool, struct diag_list *out);

#endif
