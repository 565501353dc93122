/* cmd_rules.c - `mcpdesc rules init|list|explain|dump|lint|test|docs|diff|lock|pack|pin|changes`: the tools
 * of rule authors and release engineers. The work is in lint.c (lint, examples),
 * rulepage*.c (pages), rule_dump.c (compiled programs) and cmd_rules_diff.c (two sets
 * compared); this file parses options and maps outcomes to exit codes: 0 ok, 1 findings
 * (lint findings, failed examples, examples that cannot be shown, sets that differ), 2
 * bad usage (an unknown rule id too) or a rule set that cannot be read, loaded or
 * matched to --rules-tag. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/cmd_changes.h"
#include "cli/cmd_pin.h"
#include "cli/cmd_rules_diff.h"
#include "cli/cmd_common.h"
#include "author/rulepage.h"
#include "author/lint.h"
#include "author/rules_expect.h"
#include "author/rules_test.h"
#include "rules/lock.h"
#include "rules/release.h"
#include "rules/rule_lang.h"
#include "findings/report.h"
#include "resolve/res.h"
#include "base/loc.h"
#include "base/util.h"

static const struct sub {
    const char *name, *synopsis, *summary, *help;
    const char *const options[8];
} subs[] = {
    {"list",
     "list [--format text|json] [--rules DIR]",
     "one line per rule: id, level, preset, surface, versions",
     "  --format FORMAT    text (default: an aligned table) or json\n",
     {"--format", "--rules", "--rules-tag", "--help", NULL}},
    {"explain",
     "explain RULE-ID [--rules DIR] [--fixtures DIR]",
     "the rule's page in the terminal",
     "The page has the sections of the published rule pages; each example shows the JSON the\n"
     "fixture holds at its pointer.\n",
     {"--rules", "--rules-tag", "--fixtures", "--help", NULL}},
    {"dump",
     "dump [RULE-ID...] [--format text|json] [--rules DIR]",
     "the compiled program of rules, clause by clause",
     "Prints what the loader compiled each rule into (every rule of the set without RULE-ID,\n"
     "in the set's order): its level, applies (versions, and their bit mask), yields-to,\n"
     "then its checks, indented: the versions of a check where narrower than its parent's,\n"
     "its selectors (absolute or relative, with their wildcards), when and require as\n"
     "predicate trees with their compiled arguments (use NAME = the named predicate's body,\n"
     "schema files relative to the rule set), report-at, message, hint and fixes (JSON). Regexes,\n"
     "messages and hints are quoted as in YAML ('' for '), literal arguments are JSON.\n"
     "  --format FORMAT    text (default) or json (the same program as one JSON object)\n",
     {"--format", "--rules", "--rules-tag", "--help", NULL}},
    {"lint",
     "lint [DIR] [--fixtures DIR]",
     "check rule files themselves, with file:line:col",
     "Reports every mistake of every file: what the loader refuses, version branches outside\n"
     "the rule's applies, versions in applies that no check judges, examples whose fixture or\n"
     "pointer does not exist or whose expectation the rule's level cannot produce, and a level\n"
     "that contradicts the requirement's MUST, SHOULD or MAY. DIR defaults to the rule set (as\n"
     "for --rules: the nearest manifest.yaml, else the default).\n",
     {"--rules", "--fixtures", "--help", NULL}},
    {"test",
     "test [DIR] [--fixtures DIR] [--rule GLOB]... [--expect-only]",
     "run every rule's examples and the fixtures' x-expect",
     "Runs only the example's rule on its fixture and checks that it reports exactly at the\n"
     "example's pointer: an error (invalid), a warning (warning), nothing (valid). A valid\n"
     "example passes only if the rule judged its pointer for a version the fixture and the\n"
     "rule share (else \"not exercised\", with why); a fix example checks that the fixed\n"
     "file is its after, that the rule reports nothing at or below the pointer, that no\n"
     "other rule reports anything new there, that the file is still a description and that\n"
     "a second fix changes nothing. A packed release (its rules/ holds SHA256SUMS) is tested\n"
     "as it was released: valid examples need no finding only, fix examples no finding at\n"
     "the pointer and idempotence. One line per example, then \"N passed, N failed\"; then\n"
     "every fixture of the fixtures' expected-*/ folders with x-expect, judged by the whole\n"
     "set (every preset) and compared both ways, one line each, then \"fixtures: N passed,\n"
     "N failed\".\n"
     "  --rule GLOB        only the examples of matching rule ids (repeatable)\n"
     "  --expect-only      only the fixtures' x-expect (a fixture without one fails); the\n"
     "                     last line is \"N passed, N failed\" (make test-conformance)\n",
     {"--rules", "--rules-tag", "--fixtures", "--rule", "--expect-only", "--help", NULL}},
    {"docs",
     "docs --out DIR [--rules DIR] [--fixtures DIR] [--own]",
     "render every rule's page (Markdown and HTML)",
     "Writes RULE-ID.md and RULE-ID.html per rule, index.{md,html} (rules grouped by surface)\n"
     "and version-V.{md,html} per protocol version (the rules that apply to it).\n"
     "  --out DIR          where to write the pages (created when missing)\n"
     "  --own              of a set that extends another, only its own rules and the base\n"
     "                     rules its overrides change (not the base's others under its name)\n",
     {"--out", "--rules", "--rules-tag", "--fixtures", "--own", "--help", NULL}},
    {"diff",
     "diff A B [--format text|json|markdown] [--on FILE|DIR]... [--fail-on LEVEL] [--preset "
     "PRESET]",
     "the rules added, removed and changed from set A to set B",
     "A and B are rule-set or release directories, or tags (TAG, NAME@TAG) found as\n"
     "--rules-tag finds them. Rules are matched by\n"
     "id; one line per rule that differs, sorted by id: + ID (LEVEL, APPLIES) added, - ID\n"
     "removed, ~ ID: what changed (level, applies as a version spec, check, message, hint,\n"
     "metadata: the members), then \"N added, N removed, N changed, N unchanged\". Below a\n"
     "changed rule, one indented line per change of its compiled form, WHAT [at PATH]:\n"
     "BEFORE -> AFTER (level, applies, selector, when, require, report-at, versions,\n"
     "clauses, message, hint, fix, yields-to, preset, a metadata member), then whether its\n"
     "findings can change: a message, hint, fix or documentation change cannot change them.\n"
     "A check is compared as compiled (rules dump --format json), so YAML written\n"
     "differently that compiles the same (a renamed use: predicate too) is no change. The\n"
     "set's own changes (name, tag, digest, docs-url, extends, versions, tiers, files: those\n"
     "of the sets it extends too; data: each data file added, removed or changed, which can\n"
     "change findings) are one \"~ set:\" line. Exit status 0 when the sets are the\n"
     "same, 1 when they differ (the digest counts), 2 on bad usage or a set that cannot load.\n"
     "\n"
     "With --on, the upgrade report: every file (a directory: the descriptions below it, as\n"
     "validate finds them; operands after B are judged too) is judged under A and under B as\n"
     "validate judges it (the preset, x-mcpdesc-ignore; no config is read), and the findings\n"
     "that appear (+), disappear (-) or change (~: message or versions) are listed as\n"
     "FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS), then \"N appear, N disappear, N\n"
     "changed, N unchanged; N new at or above LEVEL\". Exit status 1 when a finding at or\n"
     "above --fail-on appears (findings that disappear never fail), else 0; 2 when a path is\n"
     "not there or a file cannot be judged.\n"
     "  --format FORMAT    text (default), json (one object: a, b, set, added, removed,\n"
     "                     changed with before/after and details of each change, unchanged,\n"
     "                     and with --on: on) or markdown (release notes)\n"
     "  --on FILE|DIR      judge this file or directory under both sets (repeatable)\n"
     "  --fail-on LEVEL    with --on: info (default: any new finding fails), warning, error\n"
     "                     or never\n"
     "  --preset PRESET    with --on: recommended (default), strict or all\n",
     {"--format", "--on", "--fail-on", "--preset", "--help", NULL}},
    {"lock",
     "lock TAG [--rules DIR]",
     "record the digests of the rule set under TAG",
     "Writes DIR/tags/TAG.lock: the SHA-256 of manifest.yaml, of every rule file and data\n"
     "file, of the schema files they load, of the fixtures their examples cite, and of the\n"
     "set. TAG must\n"
     "be the manifest's tag. An existing lock is never changed: a released tag never moves.\n",
     {"--rules", "--help", NULL}},
    {"pack",
     "pack --out DIR [--rules DIR]",
     "write the release directory NAME@TAG of a locked rule set",
     "Writes DIR/NAME@TAG/: rules/ (manifest, rule files, SHA256SUMS) and the schema files\n"
     "and fixtures the set loads and cites, at the same relative paths, so the release loads\n"
     "with --rules DIR/NAME@TAG and is found by --rules-tag in a release directory. The set\n"
     "must be the one locked as its manifest's tag (`mcpdesc rules lock TAG` first).\n"
     "  --out DIR          the directory that holds releases (e.g. rules-yaml/releases)\n",
     {"--out", "--rules", "--help", NULL}},
    {"pin",
     "pin [--config FILE]",
     "pin the releases a config's rules name to their digests",
     "Rewrites each release that the config's rules: names (NAME@TAG, or mcpdesc-mcp, the\n"
     "shipped set) to NAME@TAG@sha256:HEX, the digest of the release that runs today, in\n"
     "place: comments and layout are kept, and paths are left as they are. A run then refuses\n"
     "any other files under that name (exit 2). A pin already there is checked, never\n"
     "moved: to move it, write the new NAME@TAG and pin again. The config is the one validate\n"
     "uses: --config FILE, else .mcpdesc.yaml in this folder or above.\n"
     "  --config FILE      the config to rewrite\n",
     {"--config", "--help", NULL}},
    {"changes",
     "changes NAME@TAG",
     "the engine changes that altered a release's findings",
     "Prints the changes log of the release NAME@TAG (a bare TAG means mcpdesc-mcp@TAG, as\n"
     "for --rules-tag), found as --rules-tag finds it: the log NAME@TAG.changes and the\n"
     "findings record NAME@TAG.findings beside the release directory. First the release's\n"
     "directory, then the engine version its findings were recorded with, then each entry\n"
     "(\"## YYYY-MM-DD, mcpdesc VERSION: what changed\", then why), newest last; or that no\n"
     "engine change has altered them. Exit status 2 when the release or its log is not\n"
     "there.\n",
     {"--help", NULL}},
};
#define NSUBS (sizeof subs / sizeof subs[0])

static const struct {
    const char *option, *text;
} common_help[] = {
    {"--rules",
     "  --rules DIR        rule set or release directory NAME@TAG/ (default: $MCPDESC_RULES;\n"
     "                     for list, explain, lint, test and docs then the nearest rule-set\n"
     "                     manifest.yaml, here or above up to the folder holding .git; else\n"
     "                     the build tree's rules-yaml/, else the installed one). Given\n"
     "                     twice is an error (exit 2); standard error names the set judged\n"},
    {"--rules-tag",
     "  --rules-tag TAG    use the release TAG (or NAME@TAG) from $MCPDESC_RULES_PATH, the\n"
     "                     build tree's rules-yaml/releases or the installed releases; with\n"
     "                     --rules, refuse a set that is not the one locked as TAG (given\n"
     "                     twice is an error: a chain is the config's rules: [A, B])\n"},
    {"--fixtures",
     "  --fixtures DIR     conformance fixtures (default: the rule set's ../conformance)\n"},
};

static void usage(FILE *f)
{
    fputs("usage: mcpdesc rules SUBCOMMAND [OPTIONS]\n\n", f);
    fprintf(f, "  %-9s %s\n", "init", "start an organisation rule set that extends a release");
    for (size_t i = 0; i < NSUBS; i++) fprintf(f, "  %-9s %s\n", subs[i].name, subs[i].summary);
    fputs("\nmcpdesc rules SUBCOMMAND --help shows its options. Exit status: 0 ok, 1 findings\n"
          "(lint findings, failed examples, sets that differ), 2 bad usage or a rule set that\n"
          "cannot be loaded.\n",
          f);
}

static void sub_usage(const struct sub *s, FILE *f)
{
    fprintf(f, "usage: mcpdesc rules %s\n\n%c%s.\n\n%s", s->synopsis, s->summary[0] - 'a' + 'A',
            s->summary + 1, s->help);
    const char *last = s->help + strlen(s->help) - 1;
    while (last > s->help && last[-1] != '\n') last--;
    if (strncmp(last, "  --", 4) != 0) fputc('\n', f); /* prose, then the options */
    for (size_t k = 0; k < sizeof common_help / sizeof common_help[0]; k++)
        for (const char *const *o = s->options; *o; o++)
            if (!strcmp(*o, common_help[k].option)) fputs(common_help[k].text, f);
}

struct opts {
    const char *rules, *rules_tag, *fixtures, *format, *out, *config;
    const char *fail_on, *preset; /* diff --on */
    int own;                      /* docs --own */
    VEC(const char *) args;
    VEC(const char *) only;
    VEC(const char *) on; /* diff --on, repeatable */
    int expect_only;      /* rules test --expect-only */
};

/* Parse ARGV (argv[0] is the subcommand). Returns 0, 1 after --help, -1 on bad usage. */
static int parse(const struct sub *s, int argc, char **argv, struct opts *o)
{
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            VEC_PUSH(o->args, a);
            continue;
        }
        if (!strcmp(a, "--")) {
            only_args = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            sub_usage(s, stdout);
            return 1;
        }
        const char *name = NULL;
        for (const char *const *opt = s->options; *opt && !name; opt++) {
            size_t n = strlen(*opt);
            if (!strncmp(a, *opt, n) && (a[n] == '\0' || a[n] == '=')) name = *opt;
        }
        if (name && !strcmp(name, "--own") && !strcmp(a, "--own")) { /* a flag, no value */
            o->own = 1;
            continue;
        }
        if (!name || !strcmp(name, "--help") || !strcmp(name, "--own")) {
            char cmd[32];
            snprintf(cmd, sizeof cmd, "rules %s", s->name);
            cmd_unknown_option(cmd, a, s->options);
            return -1;
        }
        if (!strcmp(name, "--expect-only")) { /* a switch: it takes no value */
            if (a[strlen(name)] == '=') {
                fprintf(stderr, "mcpdesc rules %s: %s takes no value\n", s->name, name);
                return -1;
            }
            o->expect_only = 1;
            continue;
        }
        const char *v = cmd_option_value(argc, argv, &i, name);
        if (!v) return -1;
        /* --rules and --rules-tag once each: the last one never silently wins */
        const char **once = !strcmp(name, "--rules") ? &o->rules
            : !strcmp(name, "--rules-tag")           ? &o->rules_tag
                                                     : NULL;
        if (once) {
            char cmd[32];
            snprintf(cmd, sizeof cmd, "rules %s", s->name);
            if (cmd_option_once(cmd, name, once, v) < 0) return -1;
            continue;
        }
        if (!strcmp(name, "--fixtures")) o->fixtures = v;
        else if (!strcmp(name, "--format")) o->format = v;
        else if (!strcmp(name, "--out")) o->out = v;
        else if (!strcmp(name, "--config")) o->config = v;
        else if (!strcmp(name, "--rule")) VEC_PUSH(o->only, v);
        else if (!strcmp(name, "--on")) VEC_PUSH(o->on, v);
        else if (!strcmp(name, "--fail-on")) o->fail_on = v;
        else if (!strcmp(name, "--preset")) o->preset = v;
    }
    return 0;
}

/* Load the rule set (and check --rules-tag); NULL after printing why. */
static struct rule_set *load(const struct opts *o)
{
    return cmd_load_rules_tagged(o->rules, o->rules_tag);
}

/* The set of a rules command given no directory (rules-yaml/README.md, Which set the
 * rules commands judge): the one $MCPDESC_RULES names, else the nearest rule-set
 * manifest (cmd_nearest_rule_dir), else the default. New; *WHY says which (static). */
static char *own_set_dir(const char **why)
{
    const char *env = getenv("MCPDESC_RULES");
    if (!(env && *env)) {
        char *near = cmd_nearest_rule_dir();
        if (near) {
            *why = "the nearest manifest.yaml";
            return near;
        }
    }
    return cmd_common_rules_dir_why(NULL, why);
}

/* The one line on standard error naming the set a command judges and where it came from
 * (standard output keeps its form). */
static void say_judging(const char *sub, const char *name, const char *tag, const char *dir,
                        const char *why)
{
    if (name)
        fprintf(stderr, "mcpdesc rules %s: judging %s %s in %s (%s)\n", sub, name, tag, dir, why);
    else fprintf(stderr, "mcpdesc rules %s: judging the rule set in %s (%s)\n", sub, dir, why);
}

/* load() for the commands that judge a set of their own (list, explain, test, docs):
 * --rules DIR (GIVEN_WHY says how it was given), else the release of --rules-tag, else
 * own_set_dir(); then the line naming it. NULL after printing why. */
static struct rule_set *load_judged(const char *sub, const struct opts *o, const char *given_why)
{
    const char *why = given_why;
    char *dir = NULL;
    if (o->rules) dir = xstrdup(o->rules);
    else if (o->rules_tag) why = "the release of --rules-tag";
    else dir = own_set_dir(&why);
    struct rule_set *rs = cmd_load_rules_tagged(dir, o->rules_tag);
    if (rs) say_judging(sub, rule_set_name(rs), rule_set_display_tag(rs), rule_set_dir(rs), why);
    free(dir);
    return rs;
}

static char *fixtures_dir(const struct opts *o, const struct rule_set *rs)
{
    return o->fixtures ? xstrdup(o->fixtures) : rule_set_fixtures_path(rs);
}

/* The fixtures directory of `rules test` and `rules docs`, or NULL (said once, as lint
 * says it) when it is not there: a copy of rules-yaml/ without conformance/ beside it
 * would otherwise fail every example on its own line. */
static char *fixtures_needed(const char *cmd, const struct opts *o, const struct rule_set *rs)
{
    char *fx = fixtures_dir(o, rs);
    struct stat st;
    if (stat(fx, &st) == 0 && S_ISDIR(st.st_mode)) return fx;
    fprintf(stderr,
            "mcpdesc rules %s: fixtures directory %s not found: copy conformance/ beside the "
            "rule set, or pass --fixtures DIR (rules-yaml/README.md, Working on a copy)\n",
            cmd, fx);
    free(fx);
    return NULL;
}

static int too_many(const char *sub, const struct opts *o, size_t max)
{
    if (o->args.len <= max) return 0;
    fprintf(stderr, "mcpdesc rules %s: unexpected argument '%s'\n", sub, o->args.items[max]);
    return 1;
}

/* ---- list ------------------------------------------------------------------------- */

/* The rows of `rules list`: the set's rules, then the built-in ones. */
struct list_rows {
    size_t n, total; /* the set's rules; with the built-ins */
    const char **ids, **levels, **surfaces;
    const char **presets; /* the smallest preset that runs the rule (built-ins: recommended) */
    char **specs;         /* applies, as a version spec (new) */
    int *marked;          /* a rule the set's overrides change (text: a * after its level) */
    size_t nmarked;
};

static const char *level_word(enum diag_level level)
{
    return level == DIAG_ERROR ? "must" : level == DIAG_WARNING ? "should" : "may";
}

static void list_collect(const struct rule_set *rs, struct list_rows *l)
{
    const struct ver_list *vl = rule_set_versions(rs);
    size_t n = rule_set_count(rs), total = n + res_nbuiltins;
    l->n = n;
    l->total = total;
    l->ids = xcalloc(total, sizeof *l->ids);
    l->levels = xcalloc(total, sizeof *l->levels);
    l->surfaces = xcalloc(total, sizeof *l->surfaces);
    l->presets = xcalloc(total, sizeof *l->presets);
    l->specs = xcalloc(total, sizeof *l->specs);
    l->marked = xcalloc(total, sizeof *l->marked);
    l->nmarked = 0;
    for (size_t i = 0; i < total; i++) {
        struct buf spec = BUF_INIT;
        if (i < n) {
            const struct rule *r = rule_set_rule(rs, i);
            l->ids[i] = rule_id(r);
            l->levels[i] = rule_off(r) ? "off" : level_word(rule_level(r));
            l->surfaces[i] = rule_str(r, "surface");
            l->presets[i] = rule_off(r) ? "none" : rule_preset_name(rule_preset(r));
            l->marked[i] = rule_level_overridden(r) || rule_preset_overridden(r);
            l->nmarked += l->marked[i];
            ver_spec_format(&spec, vl, rule_applies(r));
        } else {
            const struct res_builtin *b = &res_builtins[i - n];
            l->ids[i] = b->id;
            l->levels[i] = b->level == DIAG_ERROR ? "must"
                : b->level == DIAG_WARNING        ? "should"
                                                  : "may";
            l->surfaces[i] = "(built-in)";
            l->presets[i] = rule_preset_name(RULE_PRESET_RECOMMENDED);
            buf_adds(&spec, "all");
        }
        l->specs[i] = buf_detach(&spec);
    }
}

static void list_release(struct list_rows *l)
{
    for (size_t i = 0; i < l->total; i++) free(l->specs[i]);
    free(l->specs);
    free(l->marked);
    free(l->ids);
    free(l->levels);
    free(l->surfaces);
    free(l->presets);
}

/* The set that says an override, as reports name a set: "NAME TAG". New. */
static char *override_set_name(const struct rule_set *by)
{
    return xasprintf("%s %s", rule_set_name(by), rule_set_display_tag(by));
}

/* `rules list --format json`'s "overridden" of R: what its rule file says, and who
 * changed it why. */
static json_t *override_json(const struct rule *r)
{
    json_t *o = json_object();
    if (rule_level_overridden(r)) {
        char *by = override_set_name(rule_level_set(r));
        json_object_set_new(o, "level",
                            json_pack("{s:s, s:s, s:s}", "base", level_word(rule_file_level(r)),
                                      "by", by, "reason", rule_level_reason(r)));
        free(by);
    }
    if (rule_preset_overridden(r)) {
        char *by = override_set_name(rule_preset_set(r));
        json_object_set_new(o, "preset",
                            json_pack("{s:s, s:s, s:s}", "base",
                                      rule_preset_name(rule_file_preset(r)), "by", by, "reason",
                                      rule_preset_reason(r)));
        free(by);
    }
    return o;
}

/* --format json: the set's name, tag and digest, then one object per row. */
static void list_emit_json(const struct rule_set *rs, const struct list_rows *l)
{
    const struct ver_list *vl = rule_set_versions(rs);
    size_t n = l->n;
    json_t *arr = json_array();
    for (size_t i = 0; i < l->total; i++) {
        const struct rule *r = i < n ? rule_set_rule(rs, i) : NULL;
        json_t *vs = json_array();
        ver_mask m = r ? rule_applies(r) : ver_all(vl);
        for (size_t k = 0; k < vl->n; k++)
            if (m >> k & 1) json_array_append_new(vs, json_string(vl->names[k]));
        json_t *e =
            json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", l->ids[i], "level", l->levels[i],
                      "severity", diag_level_name(r ? rule_level(r) : res_builtins[i - n].level),
                      "surface", r ? l->surfaces[i] : "built-in", "versions", vs);
        json_object_set_new(e, "applies", json_string(l->specs[i]));
        json_object_set_new(e, "preset", json_string(l->presets[i]));
        if (r && rule_preset_reason(r))
            json_object_set_new(e, "presetReason", json_string(rule_preset_reason(r)));
        if (r && l->marked[i]) json_object_set_new(e, "overridden", override_json(r));
        if (r) {
            json_object_set_new(e, "file", json_string(rule_file(r)));
            json_object_set(e, "requirement", json_object_get(rule_meta(r), "requirement"));
        } else {
            json_object_set_new(e, "builtin", json_true());
            json_object_set_new(e, "summary", json_string(res_builtins[i - n].summary));
        }
        json_array_append_new(arr, e);
    }
    json_t *top = report_rule_set_json(rs); /* name, tag (released or null), modified... */
    json_object_set_new(top, "rules", arr);
    char *text = json_dumps(top, JSON_INDENT(2));
    puts(text);
    free(text);
    json_decref(top);
}

/* --format text: an aligned table. */
static void list_emit_text(const struct rule_set *rs, const struct list_rows *l)
{
    int w[4] = {2, 5, 6, 7};
    for (size_t i = 0; i < l->total; i++) {
        if ((int)strlen(l->ids[i]) > w[0]) w[0] = (int)strlen(l->ids[i]);
        if ((int)strlen(l->levels[i]) > w[1]) w[1] = (int)strlen(l->levels[i]);
        if ((int)strlen(l->presets[i]) > w[2]) w[2] = (int)strlen(l->presets[i]);
        if ((int)strlen(l->surfaces[i]) > w[3]) w[3] = (int)strlen(l->surfaces[i]);
    }
    if (l->nmarked) w[1]++; /* room for the * */
    printf("%-*s  %-*s  %-*s  %-*s  %s\n", w[0], "ID", w[1], "LEVEL", w[2], "PRESET", w[3],
           "SURFACE", "VERSIONS");
    for (size_t i = 0; i < l->total; i++) {
        char level[16];
        snprintf(level, sizeof level, "%s%s", l->levels[i], l->marked[i] ? "*" : "");
        printf("%-*s  %-*s  %-*s  %-*s  %s\n", w[0], l->ids[i], w[1], level, w[2], l->presets[i],
               w[3], l->surfaces[i], l->specs[i]);
    }
    if (!l->nmarked) return;
    /* * : the set's overrides, with the rule file's level or preset and the reason */
    printf("\n* overridden (rules-yaml/README.md, Organisation rule sets):\n");
    for (size_t i = 0; i < l->n; i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (!l->marked[i]) continue;
        if (rule_level_overridden(r)) {
            char *by = override_set_name(rule_level_set(r));
            printf("  %s: %s, base %s; by %s: %s\n", l->ids[i], l->levels[i],
                   level_word(rule_file_level(r)), by, rule_level_reason(r));
            free(by);
        }
        if (rule_preset_overridden(r)) {
            char *by = override_set_name(rule_preset_set(r));
            printf("  %s: preset %s, base %s; by %s: %s\n", l->ids[i],
                   rule_preset_name(rule_preset(r)), rule_preset_name(rule_file_preset(r)), by,
                   rule_preset_reason(r));
            free(by);
        }
    }
}

static int run_list(struct opts *o)
{
    const char *format = o->format ? o->format : "text";
    if (strcmp(format, "text") && strcmp(format, "json")) {
        fprintf(stderr, "mcpdesc rules list: --format takes text or json, not '%s'\n", format);
        return 2;
    }
    if (too_many("list", o, 0)) return 2;
    struct rule_set *rs = load_judged("list", o, "--rules");
    if (!rs) return 2;
    struct list_rows l;
    list_collect(rs, &l);
    if (!strcmp(format, "json")) list_emit_json(rs, &l);
    else list_emit_text(rs, &l);
    list_release(&l);
    rule_set_free(rs);
    return 0;
}

/* ---- explain ---------------------------------------------------------------------- */

static void print_problems(const struct rulepage_site *site)
{
    for (size_t i = 0; i < rulepage_problem_count(site); i++)
        fprintf(stderr, "mcpdesc: %s (run `mcpdesc rules lint`)\n", rulepage_problem(site, i));
}

static int run_explain(struct opts *o)
{
    if (o->args.len != 1) {
        fprintf(stderr, "mcpdesc rules explain: give one RULE-ID (see mcpdesc rules list)\n");
        return 2;
    }
    const char *id = o->args.items[0];
    struct rule_set *rs = load_judged("explain", o, "--rules");
    if (!rs) return 2;
    const struct rule *r = rule_set_find(rs, id);
    int status = 0;
    if (!r) {
        const struct res_builtin *b = NULL;
        for (size_t i = 0; i < res_nbuiltins; i++)
            if (!strcmp(res_builtins[i].id, id)) b = &res_builtins[i];
        if (b) {
            printf("%s\n\nA built-in rule (%s), judged before any rule runs: %s.\n", b->id,
                   diag_level_name(b->level), b->summary);
        } else {
            const char *best = rule_set_suggest(rs, id); /* as rules dump and validate --rule do */
            fprintf(stderr, "mcpdesc rules explain: no rule '%s'%s%s%s (see mcpdesc rules list)\n",
                    id, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            status = 2;
        }
    } else {
        char *fx = fixtures_dir(o, rs);
        struct rulepage_site *site = rulepage_site_new(rs, fx);
        struct buf page = BUF_INIT;
        rulepage_rule_text(site, r, &page);
        fputs(buf_str(&page), stdout);
        buf_release(&page);
        print_problems(site);
        if (rulepage_problem_count(site)) status = 1;
        rulepage_site_free(site);
        free(fx);
    }
    rule_set_free(rs);
    return status;
}

/* ---- dump ------------------------------------------------------------------------- */

static int run_dump(struct opts *o)
{
    const char *format = o->format ? o->format : "text";
    if (strcmp(format, "text") && strcmp(format, "json")) {
        fprintf(stderr, "mcpdesc rules dump: --format takes text or json, not '%s'\n", format);
        return 2;
    }
    struct rule_set *rs = load(o);
    if (!rs) return 2;
    int status = 0;
    for (size_t i = 0; i < o->args.len; i++) {
        const char *id = o->args.items[i];
        if (rule_set_find(rs, id)) continue;
        status = 2;
        int builtin = 0;
        for (size_t k = 0; k < res_nbuiltins; k++) builtin |= !strcmp(res_builtins[k].id, id);
        if (builtin) {
            fprintf(
                stderr,
                "mcpdesc rules dump: '%s' is a built-in rule, judged in C before any rule runs: "
                "it has no program (mcpdesc rules explain %s says what it checks)\n",
                id, id);
            continue;
        }
        const char *near = rule_set_suggest(rs, id);
        fprintf(stderr, "mcpdesc rules dump: no rule '%s'%s%s%s (see mcpdesc rules list)\n", id,
                near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    if (!status &&
        rule_dump_write(rs, o->args.items, o->args.len,
                        strcmp(format, "json") ? RULE_DUMP_TEXT : RULE_DUMP_JSON, stdout) < 0)
        status = 2; /* not reached: every id was found above */
    rule_set_free(rs);
    return status;
}

/* ---- lint ------------------------------------------------------------------------- */

static const char *dir_arg(const char *sub, struct opts *o)
{
    if (too_many(sub, o, 1)) return NULL;
    if (o->args.len && o->rules && strcmp(o->args.items[0], o->rules)) {
        fprintf(stderr, "mcpdesc rules %s: give the rule directory once (DIR or --rules DIR)\n",
                sub);
        return NULL;
    }
    return o->args.len ? o->args.items[0] : o->rules;
}

static int run_lint(struct opts *o)
{
    if (too_many("lint", o, 1)) return 2;
    const char *given = dir_arg("lint", o);
    if (o->args.len > 1 || (o->args.len && !given)) return 2;
    const char *why = o->args.len ? "given" : "--rules";
    char *dir = given ? cmd_common_rules_dir(given) : own_set_dir(&why);
    if (!given) { /* the build tree's or installed set: show it relative to here if below */
        char *real = realpath(dir, NULL), *cwd = getcwd(NULL, 0);
        size_t n = cwd ? strlen(cwd) : 0;
        if (real) {
            free(dir);
            dir = xstrdup(cwd && !strncmp(real, cwd, n) && real[n] == '/' ? real + n + 1 : real);
        }
        free(real);
        free(cwd);
    }
    struct diag_list found = DIAG_LIST_INIT;
    int status;
    struct cmd_release_path rp; /* where an `extends: NAME@TAG` finds its base */
    cmd_release_path_init(&rp);
    struct rule_load_opts lo = {rp.path.dirs, rp.path.n, NULL, 0, NULL, NULL, 0};
    struct rule_set *program = NULL; /* the partial program lint read */
    int linted = lint_rule_dir_read(dir, o->fixtures, &lo, &found, &program);
    cmd_release_path_release(&rp);
    char *name = NULL, *tag = NULL; /* the set as its manifest names it, if it can */
    cmd_manifest_names(program ? rule_set_manifest_doc(program) : NULL, &name, &tag);
    rule_set_free(program);
    say_judging("lint", name, tag, dir, why);
    free(name);
    free(tag);
    if (linted < 0) {
        cmd_print_errors(stderr, &found);
        status = 2;
    } else {
        for (size_t i = 0; i < found.len; i++) {
            const struct diag *d = &found.items[i];
            loc_print(stdout, d->file, d->line, d->col);
            printf(": %s: %s\n", diag_level_name(d->level), d->message);
            if (d->hint) printf("    hint: %s\n", d->hint);
        }
        size_t e = diag_count(&found, DIAG_ERROR), w = diag_count(&found, DIAG_WARNING);
        printf("%zu error%s, %zu warning%s in %s\n", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s",
               dir);
        status = e || w ? 1 : 0; /* an info (a check lint could not run) is said, not failed */
    }
    diag_list_release(&found);
    free(dir);
    return status;
}

/* ---- test ------------------------------------------------------------------------- */

static int glob_enabled(const char *id, void *arg)
{
    const struct opts *o = arg;
    if (!o->only.len) return 1;
    for (size_t i = 0; i < o->only.len; i++)
        if (!fnmatch(o->only.items[i], id, 0)) return 1;
    return 0;
}

struct tally {
    size_t passed, failed;
};

static void print_result(const struct rules_test_result *res, void *arg)
{
    struct tally *t = arg;
    if (res->passed) t->passed++;
    else t->failed++;
    printf("%s %s %s %s %s%s%s\n", res->passed ? "ok" : "FAIL", res->rule, res->expect,
           res->fixture, res->pointer, res->passed ? "" : ": ", res->passed ? "" : res->detail);
}

/* One fixture of rules_expect_run: "ok PATH", or "FAIL PATH" and what failed, indented
 * (the lines the project's conformance runner has always printed). */
static void print_fixture(const struct rules_expect_result *res, void *arg)
{
    struct tally *t = arg;
    if (res->passed) t->passed++;
    else t->failed++;
    printf("%s %s\n", res->passed ? "ok" : "FAIL", res->path);
    const char *p = buf_str(res->notes);
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        printf("    %.*s\n", (int)n, p);
        p += n + (e != NULL);
    }
}

/* Is RS a packed release (NAME@TAG/rules with SHA256SUMS)? Released tags never change,
 * so `rules test` runs their examples with the semantics they were released under. */
static int is_packed_release(const struct rule_set *rs)
{
    char *sums = xasprintf("%s/SHA256SUMS", rule_set_dir(rs));
    struct stat st;
    int yes = stat(sums, &st) == 0;
    free(sums);
    return yes;
}

static int run_test(struct opts *o)
{
    if (too_many("test", o, 1)) return 2;
    const char *given = dir_arg("test", o);
    if (o->args.len && !given) return 2;
    if (o->expect_only && o->only.len) {
        fprintf(stderr,
                "mcpdesc rules test: --expect-only runs no example, so --rule has "
                "nothing to choose\n");
        return 2;
    }
    o->rules = given;
    struct rule_set *rs = load_judged("test", o, o->args.len ? "given" : "--rules");
    if (!rs) return 2;
    for (size_t i = 0; i < o->only.len; i++) {
        int hit = 0;
        for (size_t k = 0; k < rule_set_count(rs) && !hit; k++)
            hit = !fnmatch(o->only.items[i], rule_id(rule_set_rule(rs, k)), 0);
        if (!hit) {
            fprintf(stderr,
                    "mcpdesc rules test: '%s' matches no rule id (see mcpdesc rules list)\n",
                    o->only.items[i]);
            rule_set_free(rs);
            return 2;
        }
    }
    char *fx = fixtures_needed("test", o, rs);
    if (!fx) {
        rule_set_free(rs);
        return 2;
    }
    if (o->expect_only) {
        struct tally f = {0, 0};
        size_t judged = 0;
        rules_expect_run(rs, fx, 1, print_fixture, &f, &judged);
        printf("%zu passed, %zu failed\n", f.passed, f.failed);
        if (!judged)
            fprintf(stderr,
                    "mcpdesc rules test: no fixture under %s/expected-*/: nothing was "
                    "tested\n",
                    fx);
        free(fx);
        rule_set_free(rs);
        return f.failed || !judged ? 1 : 0;
    }
    int strict = !is_packed_release(rs);
    if (!strict)
        fprintf(stderr,
                "mcpdesc rules test: %s is a packed release: its examples are tested as "
                "released, without the checks added since (rules-yaml/README.md, Testing)\n",
                rule_set_dir(rs));
    struct tally t = {0, 0};
    rules_test_run_examples(rs, fx, strict, glob_enabled, o, print_result, &t);
    printf("%zu passed, %zu failed\n", t.passed, t.failed);
    /* a rule without examples passes silently: say which, and never call nothing a pass */
    size_t bare = 0;
    struct buf ids = BUF_INIT;
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        json_t *ex = json_object_get(rule_meta(r), "examples");
        if (!glob_enabled(rule_id(r), o) || (json_is_array(ex) && json_array_size(ex))) continue;
        buf_addf(&ids, "%s%s", bare++ ? ", " : "", rule_id(r));
    }
    if (bare)
        printf("%zu rule%s no examples (rules test cannot check %s): %s\n", bare,
               bare == 1 ? " has" : "s have", bare == 1 ? "it" : "them", buf_str(&ids));
    buf_release(&ids);
    if (!t.passed && !t.failed)
        fprintf(stderr, "mcpdesc rules test: no example ran: nothing was tested\n");
    /* the fixtures' own expectations, whole set: not narrowed by --rule, so only then */
    struct tally f = {0, 0};
    size_t judged = 0;
    if (strict && !o->only.len) {
        rules_expect_run(rs, fx, 0, print_fixture, &f, &judged);
        if (judged) printf("fixtures: %zu passed, %zu failed\n", f.passed, f.failed);
    }
    free(fx);
    rule_set_free(rs);
    return t.failed || f.failed || (!t.passed && !t.failed) ? 1 : 0;
}

/* ---- docs ------------------------------------------------------------------------- */

static int run_docs(struct opts *o)
{
    if (!o->out) {
        fprintf(stderr, "mcpdesc rules docs: give --out DIR (where to write the pages)\n");
        return 2;
    }
    if (too_many("docs", o, 0)) return 2;
    struct rule_set *rs = load_judged("docs", o, "--rules");
    if (!rs) return 2;
    char *fx = fixtures_needed("docs", o, rs);
    if (!fx) {
        rule_set_free(rs);
        return 2;
    }
    struct rulepage_site *site = rulepage_site_new(rs, fx);
    if (o->own) rulepage_site_own(site);
    int n = rulepage_write(site, o->out, stderr), status = 0;
    if (n < 0) {
        status = 2;
    } else {
        print_problems(site);
        if (rulepage_problem_count(site)) status = 1;
        /* The pages say "at immutable tag TAG" only when a lock backs it: say why not. */
        if (!rule_set_released_tag(rs))
            fprintf(stderr,
                    "mcpdesc: note: no lock of tag %s records this set, so the pages name it %s "
                    "(not a released tag)\n",
                    rule_set_tag(rs), rule_set_display_tag(rs));
        printf("wrote %d files to %s (index.html)\n", n, o->out);
    }
    rulepage_site_free(site);
    free(fx);
    rule_set_free(rs);
    return status;
}

/* ---- diff ------------------------------------------------------------------------- */

static int run_diff(struct opts *o)
{
    struct cmd_rules_diff_opts d = {o->format,   o->fail_on,  o->preset, o->args.items,
                                    o->args.len, o->on.items, o->on.len};
    return cmd_rules_diff(&d);
}

/* ---- lock ------------------------------------------------------------------------- */

static int run_lock(struct opts *o)
{
    if (o->args.len != 1) {
        fprintf(stderr, "mcpdesc rules lock: give one TAG (the manifest's tag)\n");
        return 2;
    }
    struct rule_set *rs = load(o);
    if (!rs) return 2;
    const char *tag = o->args.items[0];
    int status = 0;
    if (strcmp(tag, rule_set_tag(rs)) != 0) {
        fprintf(stderr,
                "mcpdesc rules lock: the manifest's tag is '%s', not '%s': reports name the "
                "manifest's tag, so set `tag: %s` in %s/manifest.yaml first\n",
                rule_set_tag(rs), tag, tag, rule_set_dir(rs));
        status = 2;
    } else if (lock_write(rs, tag, stderr) < 0) {
        status = 2;
    }
    rule_set_free(rs);
    return status;
}

/* ---- pack ------------------------------------------------------------------------- */

static int run_pack(struct opts *o)
{
    if (!o->out) {
        fprintf(stderr, "mcpdesc rules pack: give --out DIR (the directory that holds releases)\n");
        return 2;
    }
    if (too_many("pack", o, 0)) return 2;
    struct rule_set *rs = load(o);
    if (!rs) return 2;
    int status = release_pack(rs, o->out, stderr) < 0 ? 2 : 0;
    rule_set_free(rs);
    return status;
}

/* ---- changes ---------------------------------------------------------------------- */

static int run_changes(struct opts *o)
{
    if (o->args.len != 1) {
        if (o->args.len > 1) too_many("changes", o, 1);
        else
            fprintf(stderr,
                    "mcpdesc rules changes: give one release, NAME@TAG or TAG (as "
                    "--rules-tag takes it)\n");
        return 2;
    }
    return cmd_changes_print(o->args.items[0]);
}

int cmd_rules(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "dump-language") && argc == 2) {
        /* not in --help: the language's tables, for tests/check-schemas.sh */
        rule_lang_dump(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "init")) return cmd_rules_init(argc - 1, argv + 1);
    const struct sub *s = NULL;
    for (size_t i = 0; i < NSUBS; i++)
        if (!strcmp(argv[1], subs[i].name)) s = &subs[i];
    if (!s) {
        fprintf(stderr, "mcpdesc rules: unknown subcommand '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    struct opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(s, argc - 1, argv + 1, &o), status;
    if (rc != 0) status = rc > 0 ? 0 : 2;
    else if (!strcmp(s->name, "list")) status = run_list(&o);
    else if (!strcmp(s->name, "explain")) status = run_explain(&o);
    else if (!strcmp(s->name, "dump")) status = run_dump(&o);
    else if (!strcmp(s->name, "lint")) status = run_lint(&o);
    else if (!strcmp(s->name, "test")) status = run_test(&o);
    else if (!strcmp(s->name, "docs")) status = run_docs(&o);
    else if (!strcmp(s->name, "pack")) status = run_pack(&o);
    else if (!strcmp(s->name, "diff")) status = run_diff(&o);
    else if (!strcmp(s->name, "changes")) status = run_changes(&o);
    else if (!strcmp(s->name, "pin"))
        status = too_many("pin", &o, 0) ? 2 : cmd_pin_config(o.config);
    else status = run_lock(&o);
    VEC_FREE(o.args);
    VEC_FREE(o.only);
    VEC_FREE(o.on);
    return status;
}
