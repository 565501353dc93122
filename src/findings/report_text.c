/* report_text.c - compiler-style lines editors can jump to:
 *   file:line:col: level: message [rule-id] (versions)
 * then, on a terminal, the source line with a caret and the fix hint; then the other
 * places the finding concerns, one line each ("  related: b.json:4:15 /tools/0/name: ...",
 * under an excerpt "       = related: ..."); and a summary. */
#include <string.h>

#include "findings/report.h"

#include "base/display.h"
#include "base/loc.h"
#include "findings/baseline.h"

static const char *level_color(enum diag_level l)
{
    return l == DIAG_ERROR ? "\033[1;31m" : l == DIAG_WARNING ? "\033[1;33m" : "\033[1;36m";
}

static void excerpt(const struct report_opts *o, const doc *d, uint32_t line, uint32_t col)
{
    size_t len;
    const char *text = d ? doc_line(d, line, &len) : NULL;
    if (!text || col == 0) return;
    /* the byte where the col-th character starts */
    size_t at = 0;
    for (uint32_t c = 1; at < len && c < col; c++) {
        at++;
        while (at < len && ((unsigned char)text[at] & 0xC0) == 0x80) at++;
    }
    /* hidden characters escaped (a right-to-left override would reorder the line on the
     * terminal); the caret under the col-th character, tabs kept so it lines up */
    struct buf shown = BUF_INIT, pad = BUF_INIT;
    display_add_line(&shown, text, at, &pad);
    display_add_line(&shown, text + at, len - at, NULL);
    fprintf(o->out, " %5u | %s\n       | %s", line, buf_str(&shown), buf_str(&pad));
    fprintf(o->out, "%s^%s\n", o->color ? "\033[1;32m" : "", o->color ? "\033[0m" : "");
    buf_release(&shown);
    buf_release(&pad);
}

static void line_for(const struct report_opts *o, const char *file, const struct diag *d)
{
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    /* file:line:col: as compilers print it; just file: when there is no position (a
     * file that cannot be opened) */
    fputs(o->color ? "\033[1m" : "", o->out);
    loc_print(o->out, file, d->line, d->col);
    fprintf(o->out, ":%s %s%s:%s %s", o->color ? "\033[0m" : "",
            o->color ? level_color(d->level) : "", diag_level_name(d->level),
            o->color ? "\033[0m" : "", d->message);
    if (d->rule) fprintf(o->out, " [%s]", d->rule);
    if (vl && d->versions) {
        struct buf b = BUF_INIT;
        ver_format(&b, vl, d->versions, ", ");
        fprintf(o->out, " (%s)", buf_str(&b));
        buf_release(&b);
    }
    fputc('\n', o->out);
}

/* Every related place, even without excerpts: it is part of the finding (where the
 * other half of a collision is), not a decoration for a terminal. */
static void related_lines(const struct report_opts *o, const struct diag *d)
{
    for (size_t i = 0; i < d->nrelated; i++) {
        struct buf b = BUF_INIT;
        report_related(&b, &d->related[i]);
        fprintf(o->out, "%s%s\n", o->excerpts ? "       = related: " : "  related: ", buf_str(&b));
        buf_release(&b);
    }
}

void report_text(const struct report_opts *o, const struct report_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->error) {
            line_for(o, f->name, f->error);
            continue;
        }
        for (size_t k = 0; k < f->diags.len; k++) {
            const struct diag *d = &f->diags.items[k];
            if (!report_shown(o, d)) continue;
            line_for(o, f->name, d);
            if (o->excerpts) {
                excerpt(o, f->d, d->line, d->col);
                if (d->component) fprintf(o->out, "       = through %s\n", d->component);
                if (d->hint) fprintf(o->out, "       = hint: %s\n", d->hint);
            }
            related_lines(o, d);
        }
    }
    report_baseline_gone(o);
    /* which rules judged (a pinned run can be told from any other), then the summary */
    report_rules_line(o);
    report_config_line(o);
    report_summary(o, files, n);
}
