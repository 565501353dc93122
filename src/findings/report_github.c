/* report_github.c - GitHub Actions workflow commands, one line per diagnostic:
 *   ::error file=F,line=L,col=C,title=RULE::message
 * (::warning, ::notice for infos) which the runner turns into annotations on the pull
 * request. Data is escaped as the runner expects (% CR LF; in properties also : and ,).
 * Errors come first, then warnings, then notices (GitHub shows 10 of each level per
 * step); a notice counts those it will not show. A closing plain summary line is
 * ignored by the runner and read by people. */
#include <string.h>

#include "findings/report.h"
#include "findings/baseline.h"

static void put_escaped(FILE *out, const char *s, int property)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':':
            if (property) fputs("%3A", out);
            else fputc(':', out);
            break;
        case ',':
            if (property) fputs("%2C", out);
            else fputc(',', out);
            break;
        default: fputc(*s, out);
        }
    }
}

static const char *command(enum diag_level l)
{
    return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "notice";
}

static void annotation(const struct report_opts *o, const char *file, const struct diag *d)
{
    fprintf(o->out, "::%s ", command(d->level));
    const char *sep = "";
    if (strcmp(file, "<stdin>")) {
        fputs("file=", o->out);
        put_escaped(o->out, file, 1);
        sep = ",";
    }
    if (d->line) {
        fprintf(o->out, "%sline=%u", sep, d->line);
        sep = ",";
        if (d->col) fprintf(o->out, ",col=%u", d->col);
        /* report-at: match: the column of the match's last character (the runner's
         * endColumn is inclusive: it defaults to col), when the match ends on the line it
         * starts on (the runner takes columns only within one line) */
        if (d->col && d->has_match && d->end_line == d->line && d->end_col > d->col)
            fprintf(o->out, ",endColumn=%u", d->end_col - 1);
    }
    fprintf(o->out, "%stitle=", sep);
    put_escaped(o->out, d->rule ? d->rule : "mcpdesc", 1);
    fputs("::", o->out);
    /* the message as the text format has it: versions in parentheses, the other places
     * it concerns (an annotation has one place), then the hint */
    struct buf msg = BUF_INIT;
    report_message(&msg, o, d);
    report_related_places(&msg, d);
    if (d->hint) buf_addf(&msg, "\nhint: %s", d->hint);
    put_escaped(o->out, buf_str(&msg), 0);
    buf_release(&msg);
    fputc('\n', o->out);
}

/* The findings of LEVEL in file order (a file that could not be judged is an error);
 * returns how many. */
static size_t annotate_level(const struct report_opts *o, const struct report_file *files, size_t n,
                             enum diag_level level)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->error) {
            if (level == DIAG_ERROR) {
                annotation(o, f->name, f->error);
                count++;
            }
            continue;
        }
        for (size_t k = 0; k < f->diags.len; k++) {
            const struct diag *d = &f->diags.items[k];
            if (d->level == level && report_shown(o, d)) {
                annotation(o, f->name, d);
                count++;
            }
        }
    }
    return count;
}

static size_t over(size_t count)
{
    return count > REPORT_GITHUB_MAX ? count - REPORT_GITHUB_MAX : 0;
}

/* Errors first, then warnings, then notices: GitHub shows the first REPORT_GITHUB_MAX
 * annotations of each level of a step, so the most serious are the ones shown. When some
 * will not be shown, one notice says how many and where the full report is; it comes
 * before the findings' notices, so that it is itself among those shown. */
void report_github(const struct report_opts *o, const struct report_file *files, size_t n)
{
    size_t errors = annotate_level(o, files, n, DIAG_ERROR);
    size_t warnings = annotate_level(o, files, n, DIAG_WARNING);
    size_t notices = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; !files[i].error && k < files[i].diags.len; k++)
            notices += files[i].diags.items[k].level == DIAG_INFO &&
                report_shown(o, &files[i].diags.items[k]);
    /* the notices this format adds: the baseline's, and this one when it is written */
    size_t own = o->baseline != NULL;
    size_t hidden_e = over(errors), hidden_w = over(warnings);
    if (hidden_e || hidden_w || notices + own > REPORT_GITHUB_MAX) {
        size_t hidden_n = over(notices + own + 1);
        struct buf msg = BUF_INIT;
        buf_addf(&msg,
                 "GitHub shows %d annotations of each level per step: %zu error%s, %zu "
                 "warning%s and %zu notice%s of this run are not shown (all are in this step's "
                 "log); ",
                 REPORT_GITHUB_MAX, hidden_e, hidden_e == 1 ? "" : "s", hidden_w,
                 hidden_w == 1 ? "" : "s", hidden_n, hidden_n == 1 ? "" : "s");
        if (o->elsewhere) buf_addf(&msg, "the full report: %s", o->elsewhere);
        else
            buf_adds(&msg,
                     "for the full report, add --format sarif:FILE (code scanning) or "
                     "--format markdown:FILE (a step summary)");
        fputs("::notice title=mcpdesc::", o->out);
        put_escaped(o->out, buf_str(&msg), 0);
        buf_release(&msg);
        fputc('\n', o->out);
    }
    annotate_level(o, files, n, DIAG_INFO);
    if (o->baseline) {
        /* the hidden ones are counted, not annotated: a pull request shows what is new */
        struct report_totals t = report_count(files, n);
        size_t gone = baseline_absent(o->baseline);
        fprintf(o->out, "::notice title=mcpdesc baseline::");
        struct buf msg = BUF_INIT;
        buf_addf(&msg, "%zu finding%s in the baseline %s not annotated", t.baselined,
                 t.baselined == 1 ? "" : "s", o->baseline->path);
        if (gone)
            buf_addf(&msg, "; %zu gone (mcpdesc baseline write %s ... shrinks it)", gone,
                     o->baseline->path);
        put_escaped(o->out, buf_str(&msg), 0);
        buf_release(&msg);
        fputc('\n', o->out);
    }
    report_rules_line(o);
    report_config_line(o);
    report_summary(o, files, n);
}
