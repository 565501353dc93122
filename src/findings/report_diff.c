/* report_diff.c - the two reports made for `mcpdesc diff` (issue 31, item 5; report.h):
 * JSON with the changes of each file pair, for tools, and a Markdown changelog grouped by
 * category, for release notes. Every other format reports a diff run as it reports
 * validate's findings. A change (judge/judge_diff.h) is a diagnostic placed in NEW, its
 * place in OLD its related place "old"; its item is item_kind/item_name, its category
 * its rule's. A description removed (report_file.old_only) has its changes at their
 * places in OLD and no place in NEW. */
#include <string.h>

#include "findings/report.h"
#include "base/buf.h"
#include "base/util.h"

/* The message of the related place a diff gives each change: its place in OLD. */
#define DIFF_OLD_PLACE "old"
/* At most this many changes are listed in the Markdown changelog (each category says how
 * many more it has): a GitHub step summary holds 1 MiB, and a release note is read. */
enum { MD_CHANGES = 200 };

/* The related place of D that is its place in OLD, or NULL. */
static const struct diag_related *old_place(const struct diag *d)
{
    for (size_t i = 0; i < d->nrelated; i++)
        if (d->related[i].message && !strcmp(d->related[i].message, DIFF_OLD_PLACE))
            return &d->related[i];
    return NULL;
}

/* D's category (NONE: a finding without rule, as mcpdesc.diff.unmatched, or a rule of
 * no category). */
static enum rule_category category_of(const struct report_opts *o, const struct diag *d)
{
    const struct rule *r = d->rule ? rule_set_find(o->rs, d->rule) : NULL;
    return r ? rule_category(r) : RULE_CATEGORY_NONE;
}

/* ---- JSON ---- */

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *place_json(const char *file, uint32_t line, uint32_t col, const char *pointer)
{
    return json_pack("{s:s, s:I, s:I, s:s}", "file", file, "line", (json_int_t)line, "column",
                     (json_int_t)col, "pointer", pointer ? pointer : "");
}

static json_t *versions_json(const struct report_opts *o, ver_mask m)
{
    json_t *vs = json_array();
    const struct ver_list *vl = rule_set_versions(o->rs);
    for (size_t i = 0; vl && i < vl->n; i++)
        if (m & ((ver_mask)1 << i)) json_array_append_new(vs, json_string(vl->names[i]));
    return vs;
}

/* One change of pair F, keys in a fixed order. */
static json_t *change_json(const struct report_opts *o, const struct report_file *f,
                           const struct diag *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "rule", str_or_null(d->rule));
    json_object_set_new(j, "level", json_string(diag_level_name(d->level)));
    json_object_set_new(j, "category", str_or_null(rule_category_name(category_of(o, d))));
    json_object_set_new(j, "message", json_string(d->message));
    if (d->hint) json_object_set_new(j, "hint", json_string(d->hint));
    json_object_set_new(j, "versions", versions_json(o, d->versions));
    json_object_set_new(j, "item",
                        d->item_kind ? json_pack("{s:s, s:o}", "kind", d->item_kind, "name",
                                                 str_or_null(d->item_name))
                                     : json_null());
    json_t *here = place_json(d->file, d->line, d->col, d->pointer);
    const struct diag_related *r = old_place(d);
    if (f->old_only) { /* a description removed: its own place is in OLD */
        json_object_set_new(j, "new", json_null());
        json_object_set_new(j, "old", here);
    } else {
        json_object_set_new(j, "new", here);
        json_object_set_new(j, "old",
                            r ? place_json(r->file, r->line, r->col, r->pointer) : json_null());
    }
    json_object_set_new(j, "fingerprint", str_or_null(d->fingerprint));
    if (d->suppressed) json_object_set_new(j, "suppressed", report_suppressed_json(d));
    return j;
}

/* A finding of the config file itself (an unused suppression): no pair, no category. */
static json_t *config_finding_json(const struct report_opts *o, const struct diag *d)
{
    json_t *j = json_pack("{s:o, s:s, s:s}", "rule", str_or_null(d->rule), "level",
                          diag_level_name(d->level), "message", d->message);
    if (d->hint) json_object_set_new(j, "hint", json_string(d->hint));
    json_object_set_new(j, "file", json_string(d->file ? d->file : ""));
    json_object_set_new(j, "line", json_integer(d->line));
    json_object_set_new(j, "column", json_integer(d->col));
    if (d->suppressed) json_object_set_new(j, "suppressed", report_suppressed_json(d));
    return j;
}

void report_diff_json(const struct report_opts *o, const struct report_file *files, size_t n)
{
    json_t *root = json_object();
    json_object_set_new(root, "mcpdesc", json_string(MCPDESC_VERSION));
    json_object_set_new(root, "rules", report_rule_set_json(o->rs));
    if (rule_preset_name(o->preset))
        json_object_set_new(root, "preset", json_string(rule_preset_name(o->preset)));
    if (o->config) json_object_set_new(root, "config", report_config_json(o));
    json_t *pairs = json_array(), *config_findings = json_array();
    /* by category, RULE_CATEGORY_NONE last as "other": the changes that count (not
     * suppressed), whatever -q lists, as "errors" and the others count them */
    size_t by_cat[RULE_CATEGORY_COMPATIBLE + 1] = {0};
    size_t npairs = 0;
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->config) {
            for (size_t k = 0; k < f->diags.len; k++)
                if (report_listed(o, &f->diags.items[k]))
                    json_array_append_new(config_findings,
                                          config_finding_json(o, &f->diags.items[k]));
            continue;
        }
        npairs++;
        json_t *p = json_object();
        json_object_set_new(p, "old", str_or_null(f->old_only ? f->name : f->old_name));
        json_object_set_new(p, "new", str_or_null(f->old_only ? NULL : f->name));
        json_object_set_new(p, "error",
                            f->error ? json_pack("{s:s, s:I, s:I}", "message", f->error->message,
                                                 "line", (json_int_t)f->error->line, "column",
                                                 (json_int_t)f->error->col)
                                     : json_null());
        json_object_set_new(p, "skipped", str_or_null(f->skipped));
        json_t *changes = json_array();
        for (size_t k = 0; !f->error && !f->skipped && k < f->diags.len; k++) {
            const struct diag *d = &f->diags.items[k];
            if (!diag_hidden(d)) by_cat[category_of(o, d)]++;
            if (report_listed(o, d)) json_array_append_new(changes, change_json(o, f, d));
        }
        json_object_set_new(p, "changes", changes);
        json_array_append_new(pairs, p);
    }
    json_object_set_new(root, "pairs", pairs);
    if (o->config) json_object_set(root, "configFindings", config_findings);
    json_decref(config_findings);
    struct report_totals t = report_count(files, n);
    json_t *cats = json_object();
    for (int c = RULE_CATEGORY_CALLER; c <= RULE_CATEGORY_COMPATIBLE; c++)
        json_object_set_new(cats, rule_category_name((enum rule_category)c),
                            json_integer((json_int_t)by_cat[c]));
    json_object_set_new(cats, "other", json_integer((json_int_t)by_cat[RULE_CATEGORY_NONE]));
    json_object_set_new(root, "summary",
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:o}", "pairs",
                                  (json_int_t)npairs, "errors", (json_int_t)t.errors, "warnings",
                                  (json_int_t)t.warnings, "infos", (json_int_t)t.infos,
                                  "inputErrors", (json_int_t)t.input_errors, "suppressed",
                                  (json_int_t)t.suppressed, "byCategory", cats));
    json_dumpf(root, o->out, JSON_INDENT(2));
    fputc('\n', o->out);
    json_decref(root);
}

/* ---- Markdown ---- */

/* The changelog's sections, in this order; a change of no category is under "Other". */
static const struct {
    enum rule_category category;
    const char *heading;
} md_sections[] = {
    {RULE_CATEGORY_CALLER, "Breaking for callers"},
    {RULE_CATEGORY_OUTPUT, "Structured output"},
    {RULE_CATEGORY_PROTOCOL, "Protocol"},
    {RULE_CATEGORY_TRUST, "Review before approving"},
    {RULE_CATEGORY_COMPATIBLE, "Compatible changes"},
    {RULE_CATEGORY_NONE, "Other"},
};

/* S (a text that may come from a document: a message, a file name) as Markdown inline
 * text: what would start emphasis, a code span, a link, a table cell or strikethrough
 * escaped with a backslash (CommonMark 2.4: any ASCII punctuation may be), < > & as
 * entities so no HTML reaches the page, line breaks as spaces; cut at MAX bytes on a
 * UTF-8 character boundary. */
static void put_text(FILE *out, const char *s, size_t max)
{
    for (size_t i = 0; s && s[i]; i++) {
        if (i >= max && ((unsigned char)s[i] & 0xc0) != 0x80) {
            fputs("…", out);
            return;
        }
        switch (s[i]) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '~':
            fputc('\\', out);
            fputc(s[i], out);
            break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '\n':
        case '\r': fputc(' ', out); break;
        default: fputc(s[i], out);
        }
    }
}

/* - **KIND `NAME`**: MESSAGE (`RULE`, LEVEL, VERSIONS) `FILE:LINE:COL`, D's own place (in
 * NEW; in OLD for a description removed). */
static void md_change(const struct report_opts *o, const struct diag *d)
{
    FILE *out = o->out;
    fputs("- ", out);
    if (d->item_kind) {
        fputs("**", out);
        put_text(out, d->item_kind, MD_MESSAGE);
        if (d->item_name && *d->item_name) { /* an empty code span would show its fence */
            fputc(' ', out);
            report_md_code(out, d->item_name, MD_MESSAGE, 0, 0);
        }
        fputs("**: ", out);
    }
    put_text(out, d->message, MD_MESSAGE);
    fputs(" (", out);
    report_md_code(out, d->rule ? d->rule : REPORT_INPUT_RULE, MD_MESSAGE, 0, 0);
    fprintf(out, ", %s", diag_level_name(d->level));
    const struct ver_list *vl = rule_set_versions(o->rs);
    for (size_t i = 0; vl && i < vl->n; i++)
        if (d->versions & ((ver_mask)1 << i)) fprintf(out, ", %s", vl->names[i]);
    fputs(") ", out);
    report_md_code(out, d->file ? d->file : "", MD_MESSAGE, d->line, d->col);
    fputc('\n', out);
}

/* One pair's changelog: its title, then each category's changes, in their order in the
 * report (NEW's order). *LISTED counts the bullets written so far, against MD_CHANGES. */
static void md_pair(const struct report_opts *o, const struct report_file *f, size_t *listed)
{
    FILE *out = o->out;
    const char *old = f->old_only ? f->name : f->old_name, *new = f->old_only ? NULL : f->name;
    fputs("# Changes: ", out);
    if (old) put_text(out, old, MD_MESSAGE);
    else fputs("(none)", out);
    fputs(" → ", out);
    if (new) put_text(out, new, MD_MESSAGE);
    else fputs("(none)", out);
    fputs("\n\n", out);
    if (f->error) {
        fputs("Not compared: ", out);
        put_text(out, f->error->message, MD_MESSAGE);
        fputc(' ', out);
        report_md_code(out, f->error->file ? f->error->file : f->name, MD_MESSAGE, f->error->line,
                       f->error->col);
        fputs("\n\n", out);
        return;
    }
    int any = 0;
    for (size_t s = 0; s < sizeof md_sections / sizeof md_sections[0]; s++) {
        size_t count = 0, shown = 0;
        for (size_t k = 0; k < f->diags.len; k++) {
            const struct diag *d = &f->diags.items[k];
            if (!report_shown(o, d) || category_of(o, d) != md_sections[s].category) continue;
            if (!count++) fprintf(out, "## %s\n\n", md_sections[s].heading);
            if (*listed < MD_CHANGES) {
                md_change(o, d);
                ++*listed;
                shown++;
            }
        }
        if (count > shown) fprintf(out, "- … and %zu more\n", count - shown);
        if (count) fputc('\n', out);
        any |= count > 0;
    }
    if (!any) fputs("No changes.\n\n", out);
}

void report_diff_markdown(const struct report_opts *o, const struct report_file *files, size_t n)
{
    FILE *out = o->out;
    size_t listed = 0, pairs = 0, left_out = 0;
    /* the counts and the verdict first, as the exit status has it (a CI step summary says
     * whether the step failed) */
    report_md_head(o, files, n, "mcpdesc diff", "no change");
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->config || f->skipped) continue; /* not a description on either side */
        if (pairs++ >= MD_FILES) {
            left_out++;
            continue;
        }
        md_pair(o, f, &listed);
    }
    if (left_out) fprintf(out, "… and %zu more pairs of descriptions\n\n", left_out);
    /* the config's own findings (an unused suppression): they count towards --fail-on */
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        size_t count = 0;
        for (size_t k = 0; f->config && k < f->diags.len; k++) {
            if (!report_shown(o, &f->diags.items[k])) continue;
            if (!count++) {
                fputs("# Config: ", out);
                put_text(out, f->name, MD_MESSAGE);
                fputs("\n\n", out);
            }
            if (count <= MD_FIRST * MD_RULES) md_change(o, &f->diags.items[k]);
        }
        if (count > MD_FIRST * MD_RULES)
            fprintf(out, "- … and %zu more\n", count - MD_FIRST * MD_RULES);
        if (count) fputc('\n', out);
    }
}
