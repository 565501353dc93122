/* report_github.c - GitHub Actions workflow commands, one line per diagnostic:
 *   ::error file=F,line=L,col=C,title=RULE::message
 * (::warning, ::notice for infos) which the runner turns into annotations on the pull
 * request. Data is escaped as the runner expects (% CR LF; in properties also : and ,).
 * A closing plain summary line is ignored by the runner and read by people. */
#include <string.h>

#include "core/report.h"
#include "core/baseline.h"

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
    }
    fprintf(o->out, "%stitle=", sep);
    put_escaped(o->out, d->rule ? d->rule : "mcpdesc", 1);
    fputs("::", o->out);
    /* the message as the text format has it: versions in parentheses, then the hint */
    struct buf msg = BUF_INIT;
    buf_adds(&msg, d->message);
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    if (vl && d->versions) {
        buf_adds(&msg, " (");
        ver_format(&msg, vl, d->versions, ", ");
        buf_adds(&msg, ")");
    }
    if (d->hint) buf_addf(&msg, "\nhint: %s", d->hint);
    put_escaped(o->out, buf_str(&msg), 0);
    buf_release(&msg);
    fputc('\n', o->out);
}

void report_github(const struct report_opts *o, const struct report_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->error) {
            annotation(o, f->name, f->error);
            continue;
        }
        for (size_t k = 0; k < f->diags.len; k++)
            if (report_shown(o, &f->diags.items[k])) annotation(o, f->name, &f->diags.items[k]);
    }
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
