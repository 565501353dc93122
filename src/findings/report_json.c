/* report_json.c - the JSON report of spec/cli.md, built with jansson. */
#include "findings/report.h"
#include "findings/baseline.h"

static json_t *diag_json(const struct report_opts *o, const struct diag *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "rule", json_string(d->rule));
    json_object_set_new(j, "level", json_string(diag_level_name(d->level)));
    json_object_set_new(j, "pointer", json_string(d->pointer ? d->pointer : ""));
    json_t *vs = json_array();
    const struct ver_list *vl = rule_set_versions(o->rs);
    for (size_t i = 0; i < vl->n; i++)
        if (d->versions & ((ver_mask)1 << i)) json_array_append_new(vs, json_string(vl->names[i]));
    json_object_set_new(j, "versions", vs);
    json_object_set_new(j, "message", json_string(d->message));
    if (d->hint) json_object_set_new(j, "hint", json_string(d->hint));
    json_object_set_new(j, "line", json_integer(d->line));
    json_object_set_new(j, "column", json_integer(d->col));
    /* added member, only under report-at: match: the match's bytes in the decoded string */
    if (d->has_match)
        json_object_set_new(j, "match",
                            json_pack("{s:I, s:I}", "offset", (json_int_t)d->match_off, "length",
                                      (json_int_t)d->match_len));
    if (d->component) json_object_set_new(j, "component", json_string(d->component));
    /* added member, only on a finding about other places too (validate --together): each
     * {file, line, column, pointer?, message?} */
    if (d->nrelated) {
        json_t *rel = json_array();
        for (size_t i = 0; i < d->nrelated; i++) {
            const struct diag_related *r = &d->related[i];
            json_t *rj = json_pack("{s:s, s:I, s:I}", "file", r->file, "line", (json_int_t)r->line,
                                   "column", (json_int_t)r->col);
            if (r->pointer) json_object_set_new(rj, "pointer", json_string(r->pointer));
            if (r->message) json_object_set_new(rj, "message", json_string(r->message));
            json_array_append_new(rel, rj);
        }
        json_object_set_new(j, "related", rel);
    }
    if (d->baseline != DIAG_BASELINE_NONE)
        json_object_set_new(
            j, "baselineState",
            json_string(d->baseline == DIAG_BASELINE_UNCHANGED ? "unchanged" : "new"));
    /* added member, only on a suppressed finding: who accepted it, why, until when */
    if (d->suppressed) json_object_set_new(j, "suppressed", report_suppressed_json(d));
    return j;
}

/* "baseline": {file, new, unchanged, absent: [the gone findings as recorded]}. */
static json_t *report_baseline_json(const struct baseline *b)
{
    json_t *absent = json_array();
    for (size_t i = 0; i < b->n; i++) {
        const struct baseline_entry *e = &b->entries[i];
        if (!baseline_entry_absent(e)) continue;
        json_t *vs = json_array();
        for (size_t k = 0; e->versions[k]; k++)
            json_array_append_new(vs, json_string(e->versions[k]));
        json_array_append_new(absent,
                              json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:s}", "fingerprint",
                                        e->fingerprint, "rule", e->rule, "file", e->file, "item",
                                        e->item, "pointer", e->pointer, "versions", vs, "level",
                                        e->level, "message", e->message));
    }
    return json_pack("{s:s, s:I, s:I, s:o}", "file", b->path, "new", (json_int_t)b->nnew,
                     "unchanged", (json_int_t)b->nunchanged, "absent", absent);
}

void report_json(const struct report_opts *o, const struct report_file *files, size_t n)
{
    if (o->diff) { /* "changes" per file pair (report_diff.c) */
        report_diff_json(o, files, n);
        return;
    }
    json_t *root = json_object();
    json_object_set_new(root, "mcpdesc", json_string(MCPDESC_VERSION));
    json_object_set_new(root, "rules", report_rule_set_json(o->rs));
    /* added member: the preset that chose the rules (absent when every rule ran) */
    if (rule_preset_name(o->preset))
        json_object_set_new(root, "preset", json_string(rule_preset_name(o->preset)));
    if (o->together) /* added member: judged also as one client session (--together) */
        json_object_set_new(root, "together", json_true());
    /* Added, like "skipped": present only when a config was used (docs/config.md). */
    if (o->config) json_object_set_new(root, "config", report_config_json(o));
    json_t *arr = json_array();
    json_t *skipped = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->skipped) {
            json_array_append_new(skipped,
                                  json_pack("{s:s, s:s}", "file", f->name, "reason", f->skipped));
            continue;
        }
        json_t *fj = json_pack("{s:s}", "file", f->name);
        if (f->error) {
            json_object_set_new(fj, "error",
                                json_pack("{s:s, s:I, s:I}", "message", f->error->message, "line",
                                          (json_int_t)f->error->line, "column",
                                          (json_int_t)f->error->col));
        } else {
            json_t *ds = json_array();
            for (size_t k = 0; k < f->diags.len; k++)
                if (report_listed(o, &f->diags.items[k]))
                    json_array_append_new(ds, diag_json(o, &f->diags.items[k]));
            json_object_set_new(fj, "diagnostics", ds);
        }
        json_array_append_new(arr, fj);
    }
    json_object_set_new(root, "files", arr);
    if (o->baseline) json_object_set_new(root, "baseline", report_baseline_json(o->baseline));
    /* Added members (none renamed or removed), present only when a directory search
     * skipped a file: the list after "files", the count in the summary. */
    struct report_totals t = report_count(files, n);
    if (t.skipped) json_object_set(root, "skipped", skipped);
    json_decref(skipped);
    json_t *sum = json_pack("{s:I, s:I, s:I, s:I}", "files", (json_int_t)t.files, "errors",
                            (json_int_t)t.errors, "warnings", (json_int_t)t.warnings, "infos",
                            (json_int_t)t.infos);
    if (t.skipped) json_object_set_new(sum, "skipped", json_integer((json_int_t)t.skipped));
    /* inputs that could not be read or parsed: not among "errors" (each has its file's
     * "error") */
    if (t.input_errors)
        json_object_set_new(sum, "inputErrors", json_integer((json_int_t)t.input_errors));
    if (o->baseline) json_object_set_new(sum, "baselined", json_integer((json_int_t)t.baselined));
    if (t.suppressed)
        json_object_set_new(sum, "suppressed", json_integer((json_int_t)t.suppressed));
    json_object_set_new(root, "summary", sum);
    json_dumpf(root, o->out, JSON_INDENT(2));
    fputc('\n', o->out);
    json_decref(root);
}
