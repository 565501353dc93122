/* report.h - write the results of a validate run: one report for all inputs, in one of
 * the formats of spec/cli.md (text, json, sarif, github; one file each). A
 * reporter only reads diagnostics, never the rule program. */
#ifndef MCPDESC_REPORT_H
#define MCPDESC_REPORT_H

#include <stdio.h>

#include "diag.h"
#include "doc.h"
#include "rule.h"

struct report_file {
    const char *name;          /* as given on the command line ("-" shows as <stdin>) */
    const doc *d;              /* for source excerpts; NULL when the file did not load */
    struct diag_list diags;    /* what the rules found */
    struct diag *error;        /* why the file could not be judged, or NULL */
};

struct report_opts {
    FILE *out;
    const struct rule_set *rs;
    int quiet;                 /* only errors */
    int color;                 /* ANSI colour by level */
    int excerpts;              /* source line and caret under each diagnostic */
};

struct report_format {
    const char *name;
    void (*write)(const struct report_opts *o, const struct report_file *files, size_t n);
};

/* The format called NAME, or NULL. */
const struct report_format *report_find(const char *name);
/* "text, json, ..." for messages. */
const char *report_names(void);

/* Shared by the reporters: totals over every file (parse failures count as errors). */
struct report_totals {
    size_t files, errors, warnings, infos;
};
struct report_totals report_count(const struct report_file *files, size_t n);
/* Is this diagnostic printed under opts (quiet drops warnings and infos)? */
int report_shown(const struct report_opts *o, const struct diag *d);

void report_text(const struct report_opts *o, const struct report_file *files, size_t n);
void report_json(const struct report_opts *o, const struct report_file *files, size_t n);
/* SARIF 2.1.0 (report_sarif.c): reads the rule set's manifest for the rule pages' URL. */
void report_sarif(const struct report_opts *o, const struct report_file *files, size_t n);
/* GitHub Actions workflow commands (report_github.c). */
void report_github(const struct report_opts *o, const struct report_file *files, size_t n);

#endif
