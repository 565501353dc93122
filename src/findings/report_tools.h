/* report_tools.h - the report toolbox: what a report is made of (struct report_file,
 * struct report_opts) and what every format shares (report_tools.c; report_rule_set_json
 * in report_rule_set.c, below baseline.c, which writes it). The formats (report.h) use
 * these only; nothing here calls a format or the format table. */
#ifndef MCPDESC_REPORT_TOOLS_H
#define MCPDESC_REPORT_TOOLS_H

#include <stdio.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "findings/config.h"
#include "rules/rule.h"

struct report_file {
    const char *name;       /* as given on the command line ("-" shows as <stdin>) */
    const doc *d;           /* for source excerpts; NULL when the file did not load */
    struct diag_list diags; /* what the rules found */
    struct diag *error;     /* why the file could not be judged, or NULL */
    /* Why a file found by a directory search was not judged ("no mcpDescription
     * member"), or NULL. Such a file is no file of the report: it is only counted in the
     * summaries, and listed by the JSON report. */
    const char *skipped;
    /* The config file's own findings (its unused or expired suppressions): no input, so
     * not counted among the files judged. */
    int config;
    /* mcpdesc diff: the OLD side's name of the pair whose changes DIAGS holds (NAME is
     * NEW's), or NULL: a description only NEW has, or not a diff. */
    const char *old_name;
    /* mcpdesc diff: NAME is the OLD side's: the pair has no description in NEW (one
     * removed), and each change stands at its place in OLD; 0 otherwise. */
    int old_only;
};

struct baseline;

struct report_opts {
    FILE *out;
    const struct rule_set *rs;
    int quiet;    /* 0: every finding; 1: only errors; 2: errors and warnings;
                                  3: infos too (validate -q shows what --fail-on fails on) */
    int color;    /* ANSI colour by level */
    int excerpts; /* source line and caret under each diagnostic */
    /* The preset that chose the rules (rule.h), named by every format: JSON "preset",
     * SARIF run.properties.preset, and the text and github rules line when the set has
     * rules outside recommended (report_rules_line). RULE_PRESET_NONE: every rule ran,
     * and no report names a preset. */
    enum rule_preset preset;
    /* The config of the run (docs/config.md), or NULL: every format names it and what it
     * changed. */
    const struct config *config;
    /* validate --baseline (baseline.h; NULL: none): the reporters list the findings it
     * hides in JSON and SARIF with their baselineState, and the gone ones in every format */
    const struct baseline *baseline;
    /* --fail-on: JUnit fails the test case of a rule with a finding at or above
     * FAIL_LEVEL (none when NEVER_FAIL), the others pass; the html page's verdict and
     * order of files follow it */
    enum diag_level fail_level;
    int never_fail;
    /* The other reports of this run ("sarif:out.sarif, markdown:summary.md"), or NULL:
     * the github format's closing notice says where the annotations it cannot show are. */
    const char *elsewhere;
    /* The working directory of the run (asked once), or NULL: files inside it are named
     * relative to it (fingerprint_file, SARIF's uriBaseId). */
    const char *cwd;
    /* Where the rule pages are published (--docs-url, else the config's docs-url, else
     * the manifest's), or NULL: SARIF's helpUri and the html report's rule links are
     * DOCS_URL + id + .html; without one no report links to a rule page. */
    const char *docs_url;
    /* The config of the run names rules (its `rules:`), and the command line's --rules or
     * --rules-tag ran instead (the command line wins): the rules line ends ", from the
     * command line over the config's rules (PATH)", and JSON's and SARIF's config object
     * has "rulesOverridden": true. */
    int rules_over_config;
    /* What the run judged, for JUnit's test case per (file, rule judged): the rules for
     * which ENABLED (eval_options' filter: --rule, --skip, the config's levels, the
     * preset) says yes, NULL: every rule, at VERSIONS (--protocol-version; 0: all). */
    int (*enabled)(const char *rule_id, void *arg);
    void *enabled_arg;
    ver_mask versions;
    /* validate --together: the inputs were also judged as one client session (the rules
     * line ends ", together: N session rules", JSON "together": true, SARIF
     * run.properties.together), so a clean report says the session rules ran. */
    int together;
    /* mcpdesc diff: the findings are changes from an old description to a new one, each
     * placed in NEW with its place in OLD as the related place "old" (judge/judge_diff.h); json
     * writes "changes" per file pair and markdown a changelog by category (report_diff.c). */
    int diff;
};
/* The rule page of ID under o->docs_url (new string), or NULL: no docs-url, or ID is
 * REPORT_INPUT_RULE or NULL. */
char *report_rule_url(const struct report_opts *o, const char *id);

/* The rule id of an input that could not be judged (read, parsed, or a directory with no
 * description), in the formats that need one for every finding (SARIF results, GitLab
 * check_name, JUnit classname); the diagnostic's own rule when it has one. */
#define REPORT_INPUT_RULE "mcpdesc.parse"
#define REPORT_INPUT_SUMMARY                                                                       \
    "every input can be read and parsed (and every directory holds an MCP Description)"
/* The Markdown formats' bounds (report_markdown.c, and report_diff.c's changelog), for
 * huge runs: at most MD_FILES files (pairs) and MD_RULES rules in the tables, MD_FIRST
 * findings per rule, texts cut at MD_MESSAGE bytes; what is left out is counted. */
enum { MD_FILES = 50, MD_RULES = 50, MD_FIRST = 3, MD_MESSAGE = 200 };
/* Writes TEXT, then :LINE:COL (:LINE when COL is 0; nothing when LINE is 0), as one
 * Markdown code span: raw (GitHub shows a code span as written: entities are not decoded
 * there, and < > & are harmless), line breaks as spaces, TEXT cut at MAX bytes (on a
 * UTF-8 character boundary); the fence one backtick longer than TEXT's longest run of
 * them, with a space inside when TEXT starts or ends with a backtick, or with a space at
 * both ends (CommonMark strips one space from each side), so the span holds TEXT exactly. */
void report_md_code(FILE *out, const char *text, size_t max, uint32_t line, uint32_t col);

/* GitHub shows at most this many annotations of each level per step. */
#define REPORT_GITHUB_MAX 10

/* Totals over every file (an input that could not be read or
 * parsed counts as an input error, not among the findings' errors; skipped files count
 * only as skipped). */
struct report_totals {
    size_t files, errors, warnings, infos, skipped;
    size_t input_errors;          /* inputs that could not be judged (exit status 2) */
    size_t suppressed, baselined; /* hidden findings (diag_hidden), not in the three above */
};
struct report_totals report_count(const struct report_file *files, size_t n);
/* Is this diagnostic printed under opts (quiet drops the levels below its own)? */
int report_shown(const struct report_opts *o, const struct diag *d);
/* Is it in the JSON and SARIF reports: shown, or suppressed or in the baseline (then
 * marked as such: "suppressed" and baselineState, SARIF suppressions) at a level quiet
 * keeps? */
int report_listed(const struct report_opts *o, const struct diag *d);
/* The summary line of the text and github formats: "N errors, N warnings, N infos in N
 * files", then " (N files skipped: REASON)" when a directory search skipped some (the
 * reason of the first: there is one reason today). */
void report_summary(const struct report_opts *o, const struct report_file *files, size_t n);
/* Appends the counts every format's summary gives, each word singular or plural by its
 * count: "1 error, 2 warnings, 1 info[, 1 input error] in 3 files" (input errors only
 * when there are some). */
void report_counts(struct buf *b, const struct report_totals *t);
/* The verdict of the run, as the exit status has it (docs/mcpdesc.1): the findings at or
 * above --fail-on, not suppressed or baselined, and the input errors. Returns 1 failed,
 * 0 passed, and appends the reason ("2 errors at or above --fail-on error", "1 input
 * error: an input could not be read or parsed"; "" when it passed). */
/* The Markdown formats' head: "## TITLE: COUNTS", then the verdict as the exit status has
 * it ("**Failed**: why", or "**Passed**: NOTHING at or above --fail-on LEVEL"). */
void report_md_head(const struct report_opts *o, const struct report_file *files, size_t n,
                    const char *title, const char *nothing);
int report_verdict(struct buf *b, const struct report_opts *o, const struct report_file *files,
                   size_t n);
/* The text and github formats' line naming the rule set (name, tag or TAG+modified,
 * digest), the preset when the set has rules outside recommended (a set without them,
 * as every release before presets, runs the same rules under every preset, and its line
 * is as before) and the engine's version: which rules judged, so a pinned run can be
 * told from any other; then, when the command line's set ran instead of the config's
 * rules:, ", from the command line over the config's rules (PATH)". Nothing without a
 * rule set. */
void report_rules_line(const struct report_opts *o);
/* The text and github formats' line naming the config and what it changed: "config: PATH
 * (N levels changed, N overrides, N ignored paths[, preset P])". Nothing without one. */
void report_config_line(const struct report_opts *o);
/* The text format's list of the baselined findings that are gone (nothing without a
 * baseline or when none is): "baseline: N findings are gone; ..." then one line each. */
void report_baseline_gone(const struct report_opts *o);
/* Appends the finding's message as the github and gitlab formats give it: the message,
 * then its versions in parentheses when the rule set has versions. */
void report_message(struct buf *b, const struct report_opts *o, const struct diag *d);
/* Appends related place R of a finding (diag.h; validate --together: the other server's
 * tool a name collides with) as the text, JUnit and HTML formats give it:
 * "FILE:LINE:COL POINTER: MESSAGE" ("(document)" for the pointer "", no pointer or
 * message when it has none), the pointer and message with hidden characters escaped
 * (they come from a document). */
void report_related(struct buf *b, const struct diag_related *r);
/* Appends " (related: FILE:LINE:COL, ...)", the places only, for the formats with room
 * for one line (github, gitlab); nothing when D has no related place. */
void report_related_places(struct buf *b, const struct diag *d);
/* The rule set as JSON, SARIF and the baseline file name it (report_rule_set.c; new reference): {name, tag, derivedFrom,
 * modified, digest}; tag is the released tag, null for a set that differs from every
 * lock of its manifest's tag (derivedFrom), which is then modified. */
json_t *report_rule_set_json(const struct rule_set *rs);
/* A suppressed finding's JSON "suppressed" (new reference): {kind: "config" or "inline",
 * reason, until (when it has one)}. D->suppressed is set. */
json_t *report_suppressed_json(const struct diag *d);
/* The config of the run as JSON and SARIF name it (new reference; NULL without one):
 * config_report_json, and "rulesOverridden": true when rules_over_config. */
json_t *report_config_json(const struct report_opts *o);

#endif
