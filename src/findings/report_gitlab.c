/* report_gitlab.c - GitLab Code Quality (artifacts:reports:codequality): a JSON array of
 * issues with the members GitLab documents: description, check_name, fingerprint,
 * severity (info, minor, major, critical, blocker) and location {path, lines {begin}}.
 * Levels map error -> major, warning -> minor, info -> info; an input that could not be
 * judged is a blocker of REPORT_INPUT_RULE. The fingerprint is the finding's own
 * (fingerprint.h, the baseline's and SARIF's), so GitLab tracks a finding across
 * commits as they do; an input error's is made of its rule and file. GitLab has no
 * member for a suppressed or baselined finding: they are left out (the other formats
 * list them). */
#include <stdlib.h>
#include <string.h>

#include "findings/report.h"
#include "findings/fingerprint.h"
#include "base/util.h"

static const char *severity(enum diag_level l)
{
    return l == DIAG_ERROR ? "major" : l == DIAG_WARNING ? "minor" : "info";
}

static json_t *issue(const struct report_opts *o, const struct report_file *f, const struct diag *d,
                     int input_error)
{
    const char *rule = d->rule ? d->rule : REPORT_INPUT_RULE;
    char *path = fingerprint_file(o->cwd, f->name);
    struct buf msg = BUF_INIT;
    report_message(&msg, o, d);
    if (d->pointer && *d->pointer) buf_addf(&msg, " at %s", d->pointer);
    report_related_places(&msg, d); /* an issue has one location: the others are named */
    char *fp =
        d->fingerprint ? xstrdup(d->fingerprint) : fingerprint_make(rule, path, NULL, NULL, NULL);
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:{s:s, s:{s:I}}}", "description", buf_str(&msg),
                          "check_name", rule, "fingerprint", fp, "severity",
                          input_error ? "blocker" : severity(d->level), "location", "path", path,
                          "lines", "begin", (json_int_t)(d->line ? d->line : 1));
    free(fp);
    free(path);
    buf_release(&msg);
    return j;
}

void report_gitlab(const struct report_opts *o, const struct report_file *files, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->skipped) continue;
        if (f->error) {
            json_array_append_new(a, issue(o, f, f->error, 1));
            continue;
        }
        for (size_t k = 0; k < f->diags.len; k++)
            if (report_shown(o, &f->diags.items[k]))
                json_array_append_new(a, issue(o, f, &f->diags.items[k], 0));
    }
    json_dumpf(a, o->out, JSON_INDENT(2));
    fputc('\n', o->out);
    json_decref(a);
}
