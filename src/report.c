/* report.c - the format table and what every reporter shares. */
#include "report.h"

#include <string.h>

static const struct report_format formats[] = {
    {"text", report_text},
    {"json", report_json},
    {"sarif", report_sarif},
    {"github", report_github},
};

const struct report_format *report_find(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (!strcmp(formats[i].name, name)) return &formats[i];
    return NULL;
}

const char *report_names(void) { return "text, json, sarif, github"; }

struct report_totals report_count(const struct report_file *files, size_t n)
{
    struct report_totals t = {n, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        if (files[i].error) t.errors++;
        t.errors += diag_count(&files[i].diags, DIAG_ERROR);
        t.warnings += diag_count(&files[i].diags, DIAG_WARNING);
        t.infos += diag_count(&files[i].diags, DIAG_INFO);
    }
    return t;
}

int report_shown(const struct report_opts *o, const struct diag *d)
{
    return !o->quiet || d->level == DIAG_ERROR;
}
