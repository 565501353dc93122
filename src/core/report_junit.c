/* report_junit.c - JUnit XML, as Jenkins (junit step) and GitLab (artifacts:reports:junit)
 * read it: <testsuites> with one <testsuite> per input (named by the file) and one
 * <testcase> per finding, whose classname is the rule id (Jenkins groups by it: the
 * rule family is the package, the rest of the id the class; GitLab shows it as the
 * suite column) and whose name is the place (file:line:col and pointer), so that each
 * finding is its own line in both tools' test lists, with its own message (a test case
 * per rule and file would show one message for many findings). A finding at or above --fail-on is a
 * <failure> (type: its level), one below passes (its message in <system-out>); a
 * suppressed or baselined finding is <skipped> with the reason; an input that could
 * not be judged is a failed test case of REPORT_INPUT_RULE; a file with no finding is
 * one passing test case. No times, no timestamps, no host: the same run gives the same
 * bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "core/baseline.h"
#include "base/util.h"

/* S as XML character data or attribute value: & < > " ' escaped, and the characters
 * XML 1.0 does not allow (controls other than tab, LF, CR) replaced by U+FFFD. */
static void put_xml(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        case '\t':
        case '\n':
        case '\r': fputc(c, out); break;
        default:
            if (c < 0x20 || c == 0x7f) fputs("&#xFFFD;", out);
            else fputc(c, out);
        }
    }
}

enum outcome { PASSED, FAILED, SKIPPED };

static enum outcome outcome_of(const struct report_opts *o, const struct diag *d, int input_error)
{
    if (input_error) return FAILED;
    if (diag_hidden(d)) return SKIPPED;
    return !o->never_fail && d->level >= o->fail_level ? FAILED : PASSED;
}

/* Is D a test case of the report? */
static int listed(const struct report_opts *o, const struct report_file *f, const struct diag *d)
{
    return d == f->error || report_listed(o, d);
}

static void counts(const struct report_opts *o, const struct report_file *f, size_t *tests,
                   size_t *failures, size_t *skipped)
{
    *tests = *failures = *skipped = 0;
    if (f->error) {
        *tests = *failures = 1;
        return;
    }
    for (size_t k = 0; k < f->diags.len; k++) {
        const struct diag *d = &f->diags.items[k];
        if (!listed(o, f, d)) continue;
        ++*tests;
        enum outcome r = outcome_of(o, d, 0);
        *failures += r == FAILED;
        *skipped += r == SKIPPED;
    }
    if (!*tests) *tests = 1; /* the file's one passing test case */
}

static void testcase(const struct report_opts *o, const struct report_file *f, const struct diag *d)
{
    const char *rule = d->rule ? d->rule : REPORT_INPUT_RULE;
    int input_error = d == f->error;
    struct buf name = BUF_INIT, body = BUF_INIT;
    buf_adds(&name, f->name);
    if (d->line) buf_addf(&name, ":%u:%u", d->line, d->col);
    if (d->pointer) buf_addf(&name, " %s", *d->pointer ? d->pointer : "(document)");
    buf_addf(&body, "%s", f->name);
    if (d->line) buf_addf(&body, ":%u:%u", d->line, d->col);
    buf_addf(&body, ": %s: %s", diag_level_name(d->level), d->message);
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    if (vl && d->versions) {
        buf_adds(&body, " (");
        ver_format(&body, vl, d->versions, ", ");
        buf_adds(&body, ")");
    }
    if (d->pointer) buf_addf(&body, "\nat %s", *d->pointer ? d->pointer : "(document)");
    if (d->hint) buf_addf(&body, "\nhint: %s", d->hint);
    fputs("    <testcase classname=\"", o->out);
    put_xml(o->out, rule);
    fputs("\" name=\"", o->out);
    put_xml(o->out, buf_str(&name));
    fputs("\" file=\"", o->out);
    put_xml(o->out, f->name);
    fputc('"', o->out);
    if (d->line) fprintf(o->out, " line=\"%u\"", d->line);
    fputs(" time=\"0\">\n", o->out);
    switch (outcome_of(o, d, input_error)) {
    case FAILED:
        fprintf(o->out, "      <failure type=\"%s\" message=\"",
                input_error ? "input" : diag_level_name(d->level));
        put_xml(o->out, d->message);
        fputs("\">", o->out);
        put_xml(o->out, buf_str(&body));
        fputs("</failure>\n", o->out);
        break;
    case SKIPPED: {
        char *why = d->suppressed
            ? xasprintf("suppressed: %s", d->suppressed)
            : xasprintf("in the baseline %s", o->baseline ? o->baseline->path : "");
        fputs("      <skipped message=\"", o->out);
        put_xml(o->out, why);
        fputs("\"/>\n", o->out);
        free(why);
        fputs("      <system-out>", o->out);
        put_xml(o->out, buf_str(&body));
        fputs("</system-out>\n", o->out);
        break;
    }
    case PASSED:
        fputs("      <system-out>", o->out);
        put_xml(o->out, buf_str(&body));
        fputs("</system-out>\n", o->out);
        break;
    }
    fputs("    </testcase>\n", o->out);
    buf_release(&name);
    buf_release(&body);
}

void report_junit(const struct report_opts *o, const struct report_file *files, size_t n)
{
    size_t tests = 0, failures = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (files[i].skipped) continue;
        size_t t, f, s;
        counts(o, &files[i], &t, &f, &s);
        tests += t;
        failures += f;
        skipped += s;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", o->out);
    fprintf(o->out,
            "<testsuites name=\"mcpdesc\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
            "skipped=\"%zu\" time=\"0\">\n",
            tests, failures, skipped);
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->skipped) continue; /* not a file of the report: counted in the summaries */
        size_t t, fl, s;
        counts(o, f, &t, &fl, &s);
        fputs("  <testsuite name=\"", o->out);
        put_xml(o->out, f->name);
        fprintf(o->out,
                "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n", t,
                fl, s);
        size_t written = 0;
        if (f->error) {
            testcase(o, f, f->error);
            written++;
        }
        for (size_t k = 0; !f->error && k < f->diags.len; k++)
            if (listed(o, f, &f->diags.items[k])) {
                testcase(o, f, &f->diags.items[k]);
                written++;
            }
        if (!written) {
            fputs("    <testcase classname=\"mcpdesc\" name=\"", o->out);
            put_xml(o->out, f->name);
            fputs("\" file=\"", o->out);
            put_xml(o->out, f->name);
            fputs("\" time=\"0\"/>\n", o->out);
        }
        fputs("  </testsuite>\n", o->out);
    }
    fputs("</testsuites>\n", o->out);
}
