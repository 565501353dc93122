/* report.c - the format table: the front door of the reports, above the formats
 * (report_*.c), which use only the toolbox below them (report_tools.c). */
#include "findings/report.h"

#include <string.h>

static const struct report_format formats[] = {
    {"text", report_text},         {"json", report_json},   {"sarif", report_sarif},
    {"github", report_github},     {"junit", report_junit}, {"gitlab", report_gitlab},
    {"markdown", report_markdown}, {"html", report_html},
};

const struct report_format *report_find(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (!strcmp(formats[i].name, name)) return &formats[i];
    return NULL;
}

const char *report_names(void)
{
    return "text, json, sarif, github, junit, gitlab, markdown, html";
}
