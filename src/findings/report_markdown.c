/* report_markdown.c - a Markdown summary for a CI step summary ($GITHUB_STEP_SUMMARY, a
 * merge request note): the totals, the rule set and config lines, a table per rule
 * (level, count), the findings per file, and the first findings of each rule with
 * file:line. Bounded for huge runs: at most MD_FILES files and MD_RULES rules in the
 * tables, MD_FIRST findings per rule, messages cut at MD_MESSAGE bytes; what is left out
 * is counted. Suppressed and baselined findings are counted, not listed. */
#include <stdlib.h>
#include <string.h>

#include "findings/report.h"
#include "base/buf.h"
#include "base/loc.h"
#include "base/util.h"

struct md_rule {
    const char *rule;
    enum diag_level level;
    size_t count;
    struct {
        const char *file;
        const struct diag *d;
    } first[MD_FIRST];
};

/* S in a table cell or list item: no line breaks, | and HTML escaped, cut at MAX bytes
 * (on a UTF-8 character boundary). */
static void put_md(FILE *out, const char *s, size_t max)
{
    size_t i = 0;
    for (; s && s[i]; i++) {
        if (i >= max && ((unsigned char)s[i] & 0xc0) != 0x80) {
            fputs("…", out);
            return;
        }
        switch (s[i]) {
        case '|': fputs("\\|", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '`': fputc('\'', out); break;
        case '\n':
        case '\r': fputc(' ', out); break;
        default: fputc(s[i], out);
        }
    }
}

struct md_rules {
    struct md_rule *items;
    size_t len, cap;
};

static void add(struct md_rules *rules, const char *file, const struct diag *d)
{
    const char *id = d->rule ? d->rule : REPORT_INPUT_RULE;
    struct md_rule *r = NULL;
    for (size_t i = 0; i < rules->len && !r; i++)
        if (!strcmp(rules->items[i].rule, id) && rules->items[i].level == d->level)
            r = &rules->items[i];
    if (!r) {
        struct md_rule z = {0};
        z.rule = id;
        z.level = d->level;
        VEC_PUSH(*rules, z);
        r = &rules->items[rules->len - 1];
    }
    if (r->count < MD_FIRST) {
        r->first[r->count].file = file;
        r->first[r->count].d = d;
    }
    r->count++;
}

/* errors first, then the most frequent, then by id: the same order for the same run */
static int rule_cmp(const void *a, const void *b)
{
    const struct md_rule *x = a, *y = b;
    if (x->level != y->level) return x->level > y->level ? -1 : 1;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

void report_markdown(const struct report_opts *o, const struct report_file *files, size_t n)
{
    if (o->diff) { /* a changelog by category (report_diff.c) */
        report_diff_markdown(o, files, n);
        return;
    }
    FILE *out = o->out;
    struct report_totals t = report_count(files, n);
    report_md_head(o, files, n, "mcpdesc", "nothing");
    /* the text format's lines, as they are: which rules, which config, the totals */
    fputs("```text\n", out);
    report_rules_line(o);
    report_config_line(o);
    report_summary(o, files, n);
    report_baseline_gone(o);
    fputs("```\n\n", out);
    if (t.suppressed || t.baselined || t.skipped)
        fprintf(out,
                "Not counted above: %zu suppressed (with reasons), %zu in the baseline, %zu "
                "file%s skipped.\n\n",
                t.suppressed, t.baselined, t.skipped, t.skipped == 1 ? "" : "s");

    struct md_rules rules = {NULL, 0, 0};
    size_t with_findings = 0;
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        size_t before = 0;
        for (size_t r = 0; r < rules.len; r++) before += rules.items[r].count;
        if (f->error) add(&rules, f->name, f->error);
        for (size_t k = 0; !f->error && k < f->diags.len; k++)
            if (report_shown(o, &f->diags.items[k])) add(&rules, f->name, &f->diags.items[k]);
        size_t after = 0;
        for (size_t r = 0; r < rules.len; r++) after += rules.items[r].count;
        with_findings += after > before;
    }
    if (!rules.len) {
        fputs("No findings.\n", out);
        VEC_FREE(rules);
        return;
    }
    if (rules.len > 1) qsort(rules.items, rules.len, sizeof *rules.items, rule_cmp);

    fputs("### Findings per rule\n\n| rule | level | count |\n|---|---|---:|\n", out);
    for (size_t r = 0; r < rules.len && r < MD_RULES; r++)
        fprintf(out, "| `%s` | %s | %zu |\n", rules.items[r].rule,
                diag_level_name(rules.items[r].level), rules.items[r].count);
    if (rules.len > MD_RULES) fprintf(out, "\n… and %zu more rules\n", rules.len - MD_RULES);

    fputs("\n### Findings per file\n\n| file | errors | warnings | infos |\n|---|---:|---:|---:|\n",
          out);
    size_t shown_files = 0;
    for (size_t i = 0; i < n && shown_files < MD_FILES; i++) {
        const struct report_file *f = &files[i];
        size_t c[3] = {0, 0, 0};
        if (f->error) c[DIAG_ERROR] = 1;
        for (size_t k = 0; !f->error && k < f->diags.len; k++)
            if (report_shown(o, &f->diags.items[k])) c[f->diags.items[k].level]++;
        if (!c[0] && !c[1] && !c[2]) continue;
        fputs("| ", out);
        put_md(out, f->name, MD_MESSAGE);
        fprintf(out, " | %zu | %zu | %zu |\n", c[DIAG_ERROR], c[DIAG_WARNING], c[DIAG_INFO]);
        shown_files++;
    }
    if (with_findings > shown_files)
        fprintf(out, "\n… and %zu more files with findings\n", with_findings - shown_files);

    fputs("\n### First findings of each rule\n", out);
    for (size_t r = 0; r < rules.len && r < MD_RULES; r++) {
        const struct md_rule *m = &rules.items[r];
        fprintf(out, "\n**`%s`** (%s, %zu)\n\n", m->rule, diag_level_name(m->level), m->count);
        for (size_t k = 0; k < m->count && k < MD_FIRST; k++) {
            const struct diag *d = m->first[k].d;
            fputs("- ", out);
            report_md_code(out, m->first[k].file, MD_MESSAGE, d->line, 0);
            fputc(' ', out);
            put_md(out, d->message, MD_MESSAGE);
            /* the other places it concerns (validate --together), as places only */
            for (size_t i = 0; i < d->nrelated; i++) {
                fputs(i ? ", " : " (related: ", out);
                report_md_code(out, d->related[i].file, MD_MESSAGE, d->related[i].line, 0);
            }
            if (d->nrelated) fputc(')', out);
            fputc('\n', out);
        }
        if (m->count > MD_FIRST) fprintf(out, "- … and %zu more\n", m->count - MD_FIRST);
    }
    VEC_FREE(rules);
}
