/* pattern_note.c - the built-in rule mcpdesc.schema.pattern-not-checked (pattern_note.h).
 * Built in rather than a rule of the set: it reports a limit of this engine (which
 * patterns PCRE2 cannot run), so it follows the engine, in every rule set and tag. */
#include "judge/pattern_note.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/display.h"
#include "base/ptr.h"
#include "base/util.h"
#include "schema/schema.h"

/* The cursor at POINTER below C (as deep as the document has it); STEPS holds them. */
static const struct cursor *walk(const struct sel_ctx *sctx, const struct cursor *c,
                                 const char *pointer, struct cursor **steps, struct ptr *p)
{
    const char *why;
    *steps = NULL;
    if (ptr_parse(pointer, p, &why) < 0 || !p->n) return c;
    *steps = xcalloc(p->n, sizeof **steps);
    for (size_t i = 0; i < p->n; i++) {
        size_t idx;
        int rc = json_is_array(c->v)
            ? (ptr_is_index(p->segs[i], &idx) ? sel_item(sctx, c, idx, &(*steps)[i]) : -1)
            : sel_member(sctx, c, p->segs[i], &(*steps)[i]);
        if (rc < 0) break;
        c = &(*steps)[i];
    }
    return c;
}

static void note(const struct sel_ctx *sctx, const struct cursor *sch, ver_mask m,
                 struct diag_list *out)
{
    char *where, *why;
    if (!m || !json_is_object(sch->v) || !schema_first_unrunnable_pattern(sch->v, &where, &why))
        return;
    struct ptr p = PTR_INIT;
    struct cursor *steps;
    const struct cursor *c = walk(sctx, sch, where, &steps, &p);
    struct buf shown = BUF_INIT; /* the pattern comes from the document: hidden text escaped */
    display_add(&shown, why, strlen(why));
    buf_adds(&shown, "; mcpdesc takes every string to match it");
    char *msg = buf_detach(&shown);
    struct doc_pos pos = doc_node_pos(sctx->d, c->node);
    struct diag *dg =
        diag_add(out, DIAG_INFO, PATTERN_NOTE_RULE, doc_name(sctx->d), pos.line, pos.col, msg);
    dg->pointer = sel_pointer(c);
    dg->versions = m;
    dg->hint = xstrdup("nothing to fix: JavaScript clients run it (docs/schema.md lists what "
                       "mcpdesc translates for PCRE2)");
    dg->component = c->component ? xstrdup(c->component) : NULL;
    free(msg);
    free(where);
    free(why);
    free(steps);
    ptr_release(&p);
}

void pattern_note_scan(const struct sel_ctx *sctx, const struct ver_list *vl, ver_mask want,
                       struct diag_list *out)
{
    struct cursor root, tools, tool;
    sel_root(sctx, &root);
    if (sel_member(sctx, &root, "tools", &tools) < 0 || !json_is_array(tools.v)) return;
    for (size_t i = 0; i < json_array_size(tools.v); i++)
        if (sel_item(sctx, &tools, i, &tool) == 0) pattern_note_item(sctx, vl, want, &tool, out);
}

void pattern_note_item(const struct sel_ctx *sctx, const struct ver_list *vl, ver_mask want,
                       const struct cursor *tool, struct diag_list *out)
{
    struct cursor sch;
    if (tool->unresolved) return;
    int output_from = ver_index(vl, "2025-06-18");
    ver_mask output = output_from < 0 ? 0 : ver_range(vl, output_from, -1);
    ver_mask m = tool->vmask & want;
    if (sel_member(sctx, tool, "inputSchema", &sch) == 0 && !sch.unresolved)
        note(sctx, &sch, m, out);
    if (sel_member(sctx, tool, "outputSchema", &sch) == 0 && !sch.unresolved)
        note(sctx, &sch, m & output, out);
}
