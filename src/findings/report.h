/* report.h - write the results of a validate run: one report for all inputs, in one of
 * the formats of spec/cli.md (text, json, sarif, github, junit, gitlab, markdown, html; one
 * file each, several in one run). A reporter only reads diagnostics, never the rule
 * program. This is the front door (report.c: the format table) and the eight formats
 * (report_FORMAT.c); what they share is the toolbox below them (report_tools.h). */
#ifndef MCPDESC_REPORT_H
#define MCPDESC_REPORT_H

#include "findings/report_tools.h"

struct report_format {
    const char *name;
    void (*write)(const struct report_opts *o, const struct report_file *files, size_t n);
};

/* The format called NAME, or NULL. */
const struct report_format *report_find(const char *name);
/* "text, json, ..." for messages. */
const char *report_names(void);

void report_text(const struct report_opts *o, const struct report_file *files, size_t n);
void report_json(const struct report_opts *o, const struct report_file *files, size_t n);
/* SARIF 2.1.0 (report_sarif.c): reads the rule set's manifest for the rule pages' URL. */
void report_sarif(const struct report_opts *o, const struct report_file *files, size_t n);
/* GitHub Actions workflow commands (report_github.c): errors, then warnings, then
 * notices; a closing notice counts those GitHub does not show (REPORT_GITHUB_MAX). */
void report_github(const struct report_opts *o, const struct report_file *files, size_t n);
/* JUnit XML (report_junit.c): a testsuite per input, a testcase per rule judged. */
void report_junit(const struct report_opts *o, const struct report_file *files, size_t n);
/* GitLab Code Quality JSON (report_gitlab.c): an array of issues. */
void report_gitlab(const struct report_opts *o, const struct report_file *files, size_t n);
/* A Markdown summary for a CI step summary (report_markdown.c), bounded in size. */
void report_markdown(const struct report_opts *o, const struct report_file *files, size_t n);
/* One self-contained HTML page (report_html.c): the verdict first, charts, findings by
 * file (failing files first, a rule's repeated findings collapsed) with excerpts, rule
 * page links, filters by level and version; no request when opened. */
void report_html(const struct report_opts *o, const struct report_file *files, size_t n);

/* mcpdesc diff (report_opts.diff; report_diff.c): report_json and report_markdown hand
 * a diff run to these. JSON: the rule set, preset and config as report_json names them,
 * then "pairs", each {old, new, error, skipped, changes: [{rule, level, category, message,
 * hint?, versions, item: {kind, name}, new: place, old: place, fingerprint, suppressed?}]}
 * (a place: {file, line, column, pointer}, or null: the side has none), then the config
 * file's own findings, then "summary" with the counts by category. Markdown: a changelog
 * for release notes, "# Changes: OLD → NEW" per pair, then a section per category with
 * changes (callers, output, protocol, trust, compatible, other), one bullet a change;
 * bounded as report_markdown is (MD_*). */
void report_diff_json(const struct report_opts *o, const struct report_file *files, size_t n);
void report_diff_markdown(const struct report_opts *o, const struct report_file *files, size_t n);

#endif
