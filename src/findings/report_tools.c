/* report_tools.c - what every report format shares: counts, what is shown, the verdict,
 * the summary, rules and config lines, the gone baseline entries. Below the formats and
 * above baseline.c; it calls no format and nothing of the format table. */
#include "findings/report_tools.h"

#include <stdlib.h>
#include <string.h>

#include "base/display.h"
#include "base/loc.h"
#include "base/util.h"
#include "findings/baseline.h"

struct report_totals report_count(const struct report_file *files, size_t n)
{
    struct report_totals t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < n; i++) {
        if (files[i].skipped) {
            t.skipped++;
            continue;
        }
        t.files += !files[i].config;
        if (files[i].error) t.input_errors++;
        const struct diag_list *l = &files[i].diags;
        for (size_t k = 0; k < l->len; k++) {
            const struct diag *d = &l->items[k];
            if (d->suppressed) t.suppressed++;
            else if (d->baseline == DIAG_BASELINE_UNCHANGED) t.baselined++;
            else if (d->level == DIAG_ERROR) t.errors++;
            else if (d->level == DIAG_WARNING) t.warnings++;
            else t.infos++;
        }
    }
    return t;
}

int report_shown(const struct report_opts *o, const struct diag *d)
{
    if (diag_hidden(d)) return 0;
    if (!o->quiet) return 1;
    enum diag_level least = o->quiet >= 3 ? DIAG_INFO : o->quiet == 2 ? DIAG_WARNING : DIAG_ERROR;
    return d->level >= least;
}

int report_listed(const struct report_opts *o, const struct diag *d)
{
    if (report_shown(o, d)) return 1;
    if (!diag_hidden(d)) return 0;
    /* suppressed or baselined: kept, marked as such, at a level quiet keeps */
    struct diag shown = *d;
    shown.baseline = DIAG_BASELINE_NONE;
    shown.suppressed = NULL;
    return report_shown(o, &shown);
}

void report_baseline_gone(const struct report_opts *o)
{
    const struct baseline *b = o->baseline;
    size_t judged = 0;
    for (size_t i = 0; b && i < b->n; i++) judged += b->entries[i].judged;
    if (b && b->n && !judged) /* a baseline of other files matches nothing: say so */
        fprintf(o->out,
                "baseline: none of the %zu findings of %s is in a file judged in this run (it "
                "names files relative to %s)\n",
                b->n, b->path, b->anchor ? b->anchor : "the working directory");
    size_t gone = b ? baseline_absent(b) : 0;
    if (!gone) return;
    fprintf(o->out, "baseline: %zu finding%s %s gone; `mcpdesc baseline write %s ...` shrinks it\n",
            gone, gone == 1 ? "" : "s", gone == 1 ? "is" : "are", o->baseline->path);
    for (size_t i = 0; i < o->baseline->n; i++) {
        const struct baseline_entry *e = &o->baseline->entries[i];
        if (!baseline_entry_absent(e)) continue;
        char *shown = baseline_entry_path(o->baseline, e);
        /* the item's name and pointer come from a document: hidden characters escaped */
        struct buf at = BUF_INIT;
        if (*e->item) display_add(&at, e->item, strlen(e->item));
        else buf_adds(&at, "(document)");
        display_add(&at, e->pointer, strlen(e->pointer));
        fprintf(o->out, "  gone: %s: %s [%s]\n", shown, buf_str(&at), e->rule);
        buf_release(&at);
        free(shown);
    }
}

void report_rules_line(const struct report_opts *o)
{
    if (!o->rs) return;
    const char *preset = rule_set_has_presets(o->rs) ? rule_preset_name(o->preset) : NULL;
    fprintf(o->out, "rules: %s %s (%s%s)%s%s, engine mcpdesc %s", rule_set_name(o->rs),
            rule_set_display_tag(o->rs), rule_set_digest(o->rs),
            rule_set_released_tag(o->rs) ? "" : "; not a released tag", preset ? ", preset " : "",
            preset ? preset : "", MCPDESC_VERSION);
    if (o->rules_over_config && o->config)
        fprintf(o->out, ", from the command line over the config's rules (%s)", o->config->path);
    if (o->together) {
        size_t n = rule_set_session_count(o->rs);
        fprintf(o->out, ", together: %zu session rule%s", n, n == 1 ? "" : "s");
    }
    fputc('\n', o->out);
}

json_t *report_suppressed_json(const struct diag *d)
{
    json_t *s = json_pack("{s:s, s:s}", "kind",
                          d->suppress_kind == DIAG_SUPPRESS_INLINE ? "inline" : "config", "reason",
                          d->suppressed);
    if (d->suppressed_until) json_object_set_new(s, "until", json_string(d->suppressed_until));
    return s;
}

json_t *report_config_json(const struct report_opts *o)
{
    if (!o->config) return NULL;
    json_t *c = config_report_json(o->config, o->rs);
    if (o->rules_over_config) json_object_set_new(c, "rulesOverridden", json_true());
    return c;
}

void report_config_line(const struct report_opts *o)
{
    const struct config *c = o->config;
    if (!c || !o->rs) return;
    size_t changed = config_levels_changed(c, o->rs);
    fprintf(o->out, "config: %s (%zu level%s changed, %zu override%s, %zu ignored path%s", c->path,
            changed, changed == 1 ? "" : "s", c->overrides.len, c->overrides.len == 1 ? "" : "s",
            c->ignore.len, c->ignore.len == 1 ? "" : "s");
    if (c->suppress.len)
        fprintf(o->out, ", %zu suppression%s", c->suppress.len, c->suppress.len == 1 ? "" : "s");
    /* the config's preset, and when the command line's --preset won, which one ran */
    if (c->preset.s) {
        enum rule_preset p;
        int won = rule_preset_parse(c->preset.s, &p) == 0 && p != o->preset;
        fprintf(o->out, ", preset %s%s%s%s", c->preset.s, won ? " (--preset " : "",
                won ? rule_preset_name(o->preset) : "", won ? " ran)" : "");
    }
    fputs(")\n", o->out);
}

static void count(struct buf *b, const char *sep, size_t k, const char *word)
{
    buf_addf(b, "%s%zu %s%s", sep, k, word, k == 1 ? "" : "s");
}

void report_counts(struct buf *b, const struct report_totals *t)
{
    count(b, "", t->errors, "error");
    count(b, ", ", t->warnings, "warning");
    count(b, ", ", t->infos, "info");
    if (t->input_errors) count(b, ", ", t->input_errors, "input error");
    count(b, " in ", t->files, "file");
}

int report_verdict(struct buf *b, const struct report_opts *o, const struct report_file *files,
                   size_t n)
{
    size_t failing = 0, by_level[3] = {0, 0, 0};
    struct report_totals t = report_count(files, n);
    for (size_t i = 0; !o->never_fail && i < n; i++)
        for (size_t k = 0; !files[i].error && k < files[i].diags.len; k++) {
            const struct diag *d = &files[i].diags.items[k];
            if (diag_hidden(d) || d->level < o->fail_level) continue;
            failing++;
            by_level[d->level]++;
        }
    const char *sep = "";
    if (failing) {
        /* "3 errors", or "3 findings (2 errors, 1 warning)" when several levels fail */
        int levels = !!by_level[DIAG_ERROR] + !!by_level[DIAG_WARNING] + !!by_level[DIAG_INFO];
        if (levels == 1)
            for (int l = DIAG_ERROR; l >= DIAG_INFO; l--)
                if (by_level[l]) count(b, "", by_level[l], diag_level_name((enum diag_level)l));
        if (levels > 1) {
            count(b, "", failing, "finding");
            const char *open = " (";
            for (int l = DIAG_ERROR; l >= DIAG_INFO; l--)
                if (by_level[l]) {
                    count(b, open, by_level[l], diag_level_name((enum diag_level)l));
                    open = ", ";
                }
            buf_adds(b, ")");
        }
        buf_addf(b, " at or above --fail-on %s", diag_level_name(o->fail_level));
        sep = "; ";
    }
    if (t.input_errors) {
        count(b, sep, t.input_errors, "input error");
        buf_addf(b, ": %s not be read or parsed",
                 t.input_errors == 1 ? "an input could" : "inputs could");
    }
    return failing || t.input_errors;
}

char *report_rule_url(const struct report_opts *o, const char *id)
{
    if (!id || !strcmp(id, REPORT_INPUT_RULE)) return NULL;
    return rule_page_url(o->docs_url, id);
}

void report_message(struct buf *b, const struct report_opts *o, const struct diag *d)
{
    buf_adds(b, d->message);
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    if (vl && d->versions) {
        buf_adds(b, " (");
        ver_format(b, vl, d->versions, ", ");
        buf_adds(b, ")");
    }
}

void report_related(struct buf *b, const struct diag_related *r)
{
    loc_add(b, r->file, r->line, r->col);
    if (r->pointer) {
        buf_addc(b, ' ');
        if (*r->pointer) display_add(b, r->pointer, strlen(r->pointer));
        else buf_adds(b, "(document)");
    }
    if (r->message) {
        buf_adds(b, ": ");
        display_add(b, r->message, strlen(r->message));
    }
}

void report_related_places(struct buf *b, const struct diag *d)
{
    for (size_t i = 0; i < d->nrelated; i++) {
        buf_adds(b, i ? ", " : " (related: ");
        loc_add(b, d->related[i].file, d->related[i].line, d->related[i].col);
    }
    if (d->nrelated) buf_addc(b, ')');
}

void report_summary(const struct report_opts *o, const struct report_file *files, size_t n)
{
    struct report_totals t = report_count(files, n);
    struct buf b = BUF_INIT;
    report_counts(&b, &t);
    fputs(buf_str(&b), o->out);
    buf_release(&b);
    /* one count per reason, in the order of their first file */
    const char *open = " (";
    for (size_t i = 0; t.skipped && i < n; i++) {
        if (!files[i].skipped) continue;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = files[k].skipped && !strcmp(files[k].skipped, files[i].skipped);
        if (seen) continue;
        size_t count = 0;
        for (size_t k = i; k < n; k++)
            count += files[k].skipped && !strcmp(files[k].skipped, files[i].skipped);
        fprintf(o->out, "%s%zu file%s skipped: %s", open, count, count == 1 ? "" : "s",
                files[i].skipped);
        open = "; ";
    }
    if (t.skipped) fputc(')', o->out);
    if (t.suppressed) fprintf(o->out, "; %zu suppressed (with reasons)", t.suppressed);
    if (t.baselined) fprintf(o->out, "; %zu in the baseline, not shown", t.baselined);
    fputc('\n', o->out);
}

void report_md_code(FILE *out, const char *text, size_t max, uint32_t line, uint32_t col)
{
    struct buf t = BUF_INIT;
    size_t run = 0, longest = 0;
    for (size_t i = 0; text[i]; i++) {
        if (i >= max && ((unsigned char)text[i] & 0xc0) != 0x80) {
            buf_adds(&t, "…");
            break;
        }
        char c = text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
        run = c == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
        buf_addc(&t, c);
    }
    if (col) loc_add(&t, NULL, line, col);
    else loc_add_line(&t, NULL, line);
    const char *s = buf_str(&t);
    size_t n = t.len;
    int pad = n && (s[0] == '`' || s[n - 1] == '`' || (s[0] == ' ' && s[n - 1] == ' '));
    for (size_t k = 0; k <= longest; k++) fputc('`', out);
    if (pad) fputc(' ', out);
    fputs(s, out);
    if (pad) fputc(' ', out);
    for (size_t k = 0; k <= longest; k++) fputc('`', out);
    buf_release(&t);
}

void report_md_head(const struct report_opts *o, const struct report_file *files, size_t n,
                    const char *title, const char *nothing)
{
    FILE *out = o->out;
    struct report_totals t = report_count(files, n);
    struct buf head = BUF_INIT;
    report_counts(&head, &t);
    fprintf(out, "## %s: %s\n\n", title, buf_str(&head));
    buf_reset(&head);
    if (report_verdict(&head, o, files, n)) fprintf(out, "**Failed**: %s\n\n", buf_str(&head));
    else if (o->never_fail) fputs("**Passed** (--fail-on never)\n\n", out);
    else
        fprintf(out, "**Passed**: %s at or above --fail-on %s\n\n", nothing,
                diag_level_name(o->fail_level));
    buf_release(&head);
}
