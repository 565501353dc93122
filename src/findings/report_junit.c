/* report_junit.c - JUnit XML, as Jenkins (junit step) and GitLab (artifacts:reports:junit)
 * read it: <testsuites> with one <testsuite> per input (named by the file) and one
 * <testcase> per rule judged on it: every rule the run enabled that applies to one of the
 * file's protocol versions, whether it found something or not, so the count of test
 * cases stays the same when findings are fixed (a test case per finding made it drop).
 * Its classname is the rule id (Jenkins groups by it: the rule family is the package,
 * the rest of the id the class; GitLab shows it as the suite column), its name the
 * file. A rule with a finding at or above --fail-on is a <failure> (type: the highest
 * level; body: each such finding, with its place, versions, pointer and hint); the
 * findings below it, and the suppressed and baselined ones (with the reason), are
 * listed in the case's <system-out>, and the case passes when none fails. An input that
 * could not be judged is one failed test case of REPORT_INPUT_RULE. Test cases are in
 * rule id order; no times, no timestamps, no host: the same run gives the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "findings/report.h"
#include "findings/baseline.h"
#include "resolve/res.h"
#include "base/loc.h"
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

/* Does D fail the run (report_verdict's count)? */
static int fails(const struct report_opts *o, const struct diag *d)
{
    return !o->never_fail && !diag_hidden(d) && d->level >= o->fail_level;
}

static int enabled(const struct report_opts *o, const char *id)
{
    return !o->enabled || o->enabled(id, o->enabled_arg);
}

/* The versions the run judged F at: its protocolVersions the rule set knows, within
 * --protocol-version; the run's when it names none of them (suppress.c's rule). */
static ver_mask file_versions(const struct report_opts *o, const struct report_file *f)
{
    const struct ver_list *vl = rule_set_versions(o->rs);
    ver_mask run = ver_all(vl), m = 0;
    if (o->versions) run &= o->versions;
    json_t *pv = f->d ? json_object_get(doc_root(f->d), "protocolVersions") : NULL;
    size_t i;
    json_t *v;
    json_array_foreach(pv, i, v)
    {
        int k = json_is_string(v) ? ver_index(vl, json_string_value(v)) : -1;
        if (k >= 0) m |= (ver_mask)1 << k;
    }
    return m & run ? m & run : run;
}

static int id_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct ids {
    const char **items;
    size_t len, cap;
};

static void add_id(struct ids *ids, const char *id)
{
    for (size_t i = 0; i < ids->len; i++)
        if (!strcmp(ids->items[i], id)) return;
    VEC_PUSH(*ids, id);
}

/* The rules judged on F, sorted by id: for a judged document, every rule enabled that
 * applies to one of its versions and every built-in mcpdesc.* rule enabled (resolution,
 * inline suppressions); for the config's own findings, their rules. And the rule of
 * every finding listed, so that none is left out. */
static void judged_rules(const struct report_opts *o, const struct report_file *f, struct ids *ids)
{
    if (f->d && !f->config && o->rs) {
        ver_mask vs = file_versions(o, f);
        for (size_t i = 0; i < rule_set_count(o->rs); i++) {
            const struct rule *r = rule_set_rule(o->rs, i);
            ver_mask a = rule_applies(r);
            if ((!a || (a & vs)) && enabled(o, rule_id(r))) add_id(ids, rule_id(r));
        }
        for (size_t i = 0; i < res_nbuiltins; i++)
            if (enabled(o, res_builtins[i].id)) add_id(ids, res_builtins[i].id);
    }
    for (size_t k = 0; k < f->diags.len; k++)
        if (report_listed(o, &f->diags.items[k]))
            add_id(ids, f->diags.items[k].rule ? f->diags.items[k].rule : REPORT_INPUT_RULE);
    if (ids->len > 1) qsort(ids->items, ids->len, sizeof *ids->items, id_cmp);
}

/* One finding as text: place, level, message, versions, pointer, hint, related places
 * (a "related:" line each); and, for a suppressed or baselined one, why it does not
 * count. */
static void finding_text(struct buf *b, const struct report_opts *o, const struct report_file *f,
                         const struct diag *d)
{
    if (b->len) buf_adds(b, "\n\n");
    loc_add(b, f->name, d->line, d->col);
    buf_addf(b, ": %s: %s", diag_level_name(d->level), d->message);
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    if (vl && d->versions) {
        buf_adds(b, " (");
        ver_format(b, vl, d->versions, ", ");
        buf_adds(b, ")");
    }
    if (d->pointer) buf_addf(b, "\nat %s", *d->pointer ? d->pointer : "(document)");
    if (d->hint) buf_addf(b, "\nhint: %s", d->hint);
    for (size_t i = 0; i < d->nrelated; i++) {
        buf_adds(b, "\nrelated: ");
        report_related(b, &d->related[i]);
    }
    if (d->suppressed) {
        buf_addf(b, "\nsuppressed: %s", d->suppressed);
        if (d->suppressed_until) buf_addf(b, ", until %s", d->suppressed_until);
    } else if (d->baseline == DIAG_BASELINE_UNCHANGED)
        buf_addf(b, "\nin the baseline %s", o->baseline ? o->baseline->path : "");
}

/* The test case of rule ID on F; returns 1 when it failed. WRITE 0: only count. */
static int testcase(const struct report_opts *o, const struct report_file *f, const char *id,
                    int write)
{
    struct buf failed = BUF_INIT, passed = BUF_INIT;
    const struct diag *first = NULL; /* the first failing finding */
    size_t nfailed = 0;
    enum diag_level worst = DIAG_INFO;
    for (size_t k = 0; k < f->diags.len; k++) {
        const struct diag *d = &f->diags.items[k];
        const char *rule = d->rule ? d->rule : REPORT_INPUT_RULE;
        if (strcmp(rule, id) || !report_listed(o, d)) continue;
        if (fails(o, d)) {
            if (!first) first = d;
            if (d->level > worst) worst = d->level;
            nfailed++;
            if (write) finding_text(&failed, o, f, d);
        } else if (write) {
            finding_text(&passed, o, f, d);
        }
    }
    if (write) {
        fputs("    <testcase classname=\"", o->out);
        put_xml(o->out, id);
        fputs("\" name=\"", o->out);
        put_xml(o->out, f->name);
        fputs("\" file=\"", o->out);
        put_xml(o->out, f->name);
        fputc('"', o->out);
        if (first && first->line) fprintf(o->out, " line=\"%u\"", first->line);
        fputs(" time=\"0\"", o->out);
        if (!first && !passed.len) {
            fputs("/>\n", o->out);
        } else {
            fputs(">\n", o->out);
            if (first) {
                fprintf(o->out, "      <failure type=\"%s\" message=\"", diag_level_name(worst));
                put_xml(o->out, first->message);
                if (nfailed > 1) fprintf(o->out, " (and %zu more)", nfailed - 1);
                fputs("\">", o->out);
                put_xml(o->out, buf_str(&failed));
                fputs("</failure>\n", o->out);
            }
            if (passed.len) {
                fputs("      <system-out>", o->out);
                put_xml(o->out, buf_str(&passed));
                fputs("</system-out>\n", o->out);
            }
            fputs("    </testcase>\n", o->out);
        }
    }
    buf_release(&failed);
    buf_release(&passed);
    return first != NULL;
}

/* The input that could not be judged: one failed test case. */
static void input_error(const struct report_opts *o, const struct report_file *f)
{
    const struct diag *d = f->error;
    struct buf body = BUF_INIT;
    loc_add(&body, f->name, d->line, d->col);
    buf_addf(&body, ": %s: %s", diag_level_name(d->level), d->message);
    fputs("    <testcase classname=\"" REPORT_INPUT_RULE "\" name=\"", o->out);
    put_xml(o->out, f->name);
    fputs("\" file=\"", o->out);
    put_xml(o->out, f->name);
    fputc('"', o->out);
    if (d->line) fprintf(o->out, " line=\"%u\"", d->line);
    fputs(" time=\"0\">\n      <failure type=\"input\" message=\"", o->out);
    put_xml(o->out, d->message);
    fputs("\">", o->out);
    put_xml(o->out, buf_str(&body));
    fputs("</failure>\n    </testcase>\n", o->out);
    buf_release(&body);
}

/* F's test cases and failures; writes them when WRITE. */
static void suite(const struct report_opts *o, const struct report_file *f, int write,
                  size_t *tests, size_t *failures)
{
    *tests = *failures = 0;
    if (f->error) {
        *tests = *failures = 1;
        if (write) input_error(o, f);
        return;
    }
    struct ids ids = {NULL, 0, 0};
    judged_rules(o, f, &ids);
    for (size_t i = 0; i < ids.len; i++) {
        ++*tests;
        *failures += (size_t)testcase(o, f, ids.items[i], write);
    }
    VEC_FREE(ids);
}

void report_junit(const struct report_opts *o, const struct report_file *files, size_t n)
{
    size_t tests = 0, failures = 0;
    for (size_t i = 0; i < n; i++) {
        if (files[i].skipped) continue;
        size_t t, fl;
        suite(o, &files[i], 0, &t, &fl);
        tests += t;
        failures += fl;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", o->out);
    fprintf(o->out,
            "<testsuites name=\"mcpdesc\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
            "skipped=\"0\" time=\"0\">\n",
            tests, failures);
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->skipped) continue; /* not a file of the report: counted in the summaries */
        size_t t, fl;
        suite(o, f, 0, &t, &fl);
        fputs("  <testsuite name=\"", o->out);
        put_xml(o->out, f->name);
        fprintf(o->out,
                "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0\">\n", t,
                fl);
        suite(o, f, 1, &t, &fl);
        fputs("  </testsuite>\n", o->out);
    }
    fputs("</testsuites>\n", o->out);
}
