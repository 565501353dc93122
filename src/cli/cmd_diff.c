/* cmd_diff.c - `mcpdesc diff [OPTIONS] OLD NEW`: what changed from one description to the
 * next, judged by change rules (judge/judge_diff.h; rules-yaml/README.md, "Change rules").
 * OLD and NEW are two files (or - for one of them) or two directories, whose descriptions
 * are matched by their path relative to each. validate's options and reports, through
 * its run (cmd_validateInt.h): one report, each change placed in NEW with its place in
 * OLD as the related place. Exit 0: nothing at or above --fail-on; 1: something is; 2:
 * bad usage, an input that cannot be read or parsed, directories without a description,
 * or a rule set without change rules. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "cli/cmd_validateInt.h"
#include "findings/fingerprint.h"
#include "findings/suppress.h"
#include "judge/judge_diff.h"
#include "rules/release.h"

/* The shipped set of change rules: diff's default, and what a bare --rules-tag TAG names. */
#define DIFF_SET "mcpdesc-diff"

static void diff_usage(FILE *f)
{
    fputs("usage: mcpdesc diff [OPTIONS] OLD NEW\n"
          "\n"
          "What changed from OLD to NEW, two MCP Descriptions (files, or - for one of them),\n"
          "or two directories whose descriptions are matched by their path relative to\n"
          "each (found as validate finds them; one on one side only is a description added\n"
          "or removed). Items are matched by identity (a tool's or prompt's name, a\n"
          "resource's uri, a template's uriTemplate) per protocol version, and each change\n"
          "rule (YAML, like any rule) judges the pairs: caller (a call that worked against\n"
          "OLD fails against NEW: errors), output (structured output that changed under\n"
          "its consumers: errors), protocol (a protocol version or capability gone:\n"
          "errors), trust (what a user approved in OLD is not what NEW says: warnings; a\n"
          "new tool or prompt: info) and compatible (additions that break nothing: info).\n"
          "Reordering and formatting are not changes. Each change is reported in NEW, with\n"
          "its place in OLD as the related place; a removed item at the nearest place NEW\n"
          "still has (its collection, e.g. /tools).\n"
          "\n"
          "  --rules DIR              a rule set with change rules (default: the newest\n"
          "                           shipped " DIFF_SET " tag)\n"
          "  --rules-tag TAG          run the release TAG of " DIFF_SET " (or NAME@TAG;\n"
          "                           NAME@TAG@sha256:HEX pins its digest); a config's\n"
          "                           rules: are validate's and are not read here\n"
          "  --format FORMAT[:FILE]   text (default), json (\"changes\" per file pair),\n"
          "                           sarif, github, junit, gitlab, markdown (a changelog\n"
          "                           by category, for release notes) or html; repeatable\n"
          "  --protocol-version V     judge only these versions (repeatable)\n"
          "  --preset PRESET          recommended (default), strict or all\n"
          "  --rule GLOB, --skip GLOB run only, or never, the matching change rules\n"
          "  --fail-on LEVEL          error (default), warning, info or never: the lowest\n"
          "                           level that makes the exit status 1 (a client user:\n"
          "                           warning, so that a trust change stops the session)\n"
          "  --color WHEN             auto (default), always, never\n"
          "  --stdin-filepath NAME    name standard input NAME in the report\n"
          "  -o, --output FILE        write the report that names no file to FILE\n"
          "      --docs-url URL       where the rule pages are published\n"
          "      --full-report WHERE  what the github format's notice names\n"
          "  -j, --jobs N             accepted for validate's sake; diff judges on one thread\n"
          "  -q, --quiet              print only changes at or above --fail-on\n"
          "      --timing             print the time spent on each rule to standard error\n"
          "      --config FILE        use this config (its levels, suppressions, format,\n"
          "                           fail-on, output; its rules: are validate's)\n"
          "      --no-config          use no config file\n"
          "\n"
          "Exit status: 0 nothing at or above --fail-on, 1 something is, 2 bad usage, an\n"
          "input that cannot be read or parsed, two directories without a description, or\n"
          "a rule set without change rules.\n"
          "\n"
          "Examples:\n"
          "  mcpdesc diff examples/diff/weather-1.0.mcp-description.json \\\n"
          "               examples/diff/weather-1.1.mcp-description.json\n"
          "  mcpdesc diff --format markdown:CHANGES.md base.json pr.json   (release notes)\n"
          "  mcpdesc diff --fail-on warning approved.json today.json   (before a session)\n"
          "See docs/diff.md.\n",
          f);
}

static int is_dir(const char *path);

static int diff_check_options(const struct validate_opts *o)
{
    static const struct {
        size_t off;
        const char *name, *why;
    } refused[] = {
        {offsetof(struct validate_opts, together), "--together",
         "it judges the servers of one client together, and diff compares two versions of "
         "one server; leave it out (mcpdesc validate --together judges servers together)"},
        {offsetof(struct validate_opts, strict_inputs), "--strict-inputs",
         "diff searches directories as validate does by default (a file that does not "
         "parse, not named as a description, is skipped); leave it out"},
        {offsetof(struct validate_opts, only_descriptions), "--only-descriptions",
         "the two files named are always compared as descriptions, and two directories "
         "are searched for theirs; leave it out"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (*(const int *)((const char *)o + refused[i].off)) {
            fprintf(stderr, "mcpdesc diff: %s does not apply to diff: %s\n", refused[i].name,
                    refused[i].why);
            return 2;
        }
    if (o->baseline) {
        fprintf(stderr,
                "mcpdesc diff: --baseline does not apply to diff: OLD is what NEW is "
                "compared with; leave it out, and name the base (or approved) description "
                "as OLD\n");
        return 2;
    }
    if (o->inputs.len != 2) {
        fprintf(stderr,
                "mcpdesc diff: needs two inputs, OLD and NEW, and got %zu: mcpdesc diff "
                "[OPTIONS] OLD NEW, two files (- for one of them) or two directories%s\n",
                o->inputs.len,
                o->inputs.len > 2 ? "; to compare several descriptions, put the old ones in "
                                    "one directory and the new ones at the same paths in another"
                                  : " (see mcpdesc diff --help)");
        return 2;
    }
    /* a file and a directory (both there: a name that is neither is an input error when
     * read, "cannot open") are no pair */
    const char *a = o->inputs.items[0], *b = o->inputs.items[1];
    struct stat sa, sb;
    int da = is_dir(a), db = is_dir(b);
    int both_there =
        (!strcmp(a, "-") || stat(a, &sa) == 0) && (!strcmp(b, "-") || stat(b, &sb) == 0);
    if (both_there && da != db) {
        fprintf(stderr,
                "mcpdesc diff: OLD '%s' is a %s and NEW '%s' a %s: compare two files, or "
                "two directories whose descriptions are matched by relative path\n",
                a, da ? "directory" : "file", b, da ? "file" : "directory");
        return 2;
    }
    return 0;
}

static struct rule_set *diff_load_rules(const struct validate_opts *o)
{
    if (o->rules_tag && !strchr(o->rules_tag, '@')) {
        char *spec = xasprintf(DIFF_SET "@%s", o->rules_tag);
        struct rule_set *rs = cmd_load_rules_tagged(o->rules_dir, spec);
        free(spec);
        return rs;
    }
    if (o->rules_dir || o->rules_tag) return cmd_load_rules_tagged(o->rules_dir, o->rules_tag);
    const char *newest = release_shipped_newest(DIFF_SET);
    if (newest) {
        char *spec = xasprintf(DIFF_SET "@%s", newest);
        struct rule_set *rs = cmd_load_rules_tagged(NULL, spec);
        free(spec);
        return rs;
    }
    /* no tag shipped yet (a development build): the build tree's change rules */
    char *base = cmd_common_rules_dir(NULL);
    char *dir = xasprintf("%s/diff", base);
    struct rule_set *rs = cmd_load_rules_tagged(dir, NULL);
    free(dir);
    free(base);
    return rs;
}

static int is_dir(const char *path)
{
    struct stat st;
    return strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One pair of inputs: OLD's and NEW's paths (NULL: not on that side). */
struct pair_in {
    char *old, *new;
};
struct pair_list {
    struct pair_in *items;
    size_t len, cap;
};

/* PATH below DIR, relative to it (borrowed from PATH). */
static const char *relative(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    while (n && dir[n - 1] == '/') n--;
    return path[n] == '/' ? path + n + 1 : path + n;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of OLD and NEW, two directories, matched by relative path (in its order). */
static void pair_dirs(const char *old, const char *new, struct pair_list *out)
{
    size_t no, nn;
    char **a = cmd_find_candidates(old, &no), **b = cmd_find_candidates(new, &nn);
    if (no) qsort(a, no, sizeof *a, str_cmp); /* relative order is full-path order */
    if (nn) qsort(b, nn, sizeof *b, str_cmp);
    size_t i = 0, j = 0;
    while (i < no || j < nn) {
        int c = i == no ? 1 : j == nn ? -1 : strcmp(relative(old, a[i]), relative(new, b[j]));
        struct pair_in p = {c <= 0 ? a[i++] : NULL, c >= 0 ? b[j++] : NULL};
        VEC_PUSH(*out, p);
    }
    free(a);
    free(b);
}

/* Load PATH (a name, "-", or NULL: nothing) into *R, without judging it. */
static void load_side(const struct validate_opts *o, const char *path, int found,
                      struct judge_result *r)
{
    *r = (struct judge_result){NULL, DIAG_LIST_INIT, NULL, NULL};
    if (!path) return;
    int is_stdin = !strcmp(path, "-");
    const char *name = is_stdin ? (o->stdin_name ? o->stdin_name : "<stdin>") : path;
    struct judge_source src = {is_stdin ? JUDGE_STDIN : JUDGE_FILE, name, path, NULL, 0};
    struct judge_options jo = {NULL, NULL, found, 0, 1};
    judge_document(NULL, &src, &jo, r);
}

/* After judging: the config's levels and each change's fingerprint, as validate's
 * finish_file does (no inline x-mcpdesc-ignore: a change is about two documents; the
 * config's suppress entries apply, diff_judge_inputs). */
static void finish(const struct validate_opts *o, struct validate_run *v, const char *name,
                   struct judge_result *r)
{
    if (o->cfg) config_apply(o->cfg, name, &r->diags, cmd_rule_named, v->eo.enabled_arg);
    char *fp_name = fingerprint_file_from(v->cwd, v->anchor, name);
    fingerprint_diags(v->rs, r->d, v->cwd, fp_name, &r->diags);
    free(fp_name);
}

static int diff_judge_inputs(const struct validate_opts *o, struct validate_run *v)
{
    const char *old = o->inputs.items[0], *new = o->inputs.items[1];
    int dirs = is_dir(old) && is_dir(new); /* a file and a directory: diff_check_options */
    struct pair_list pairs = VEC_INIT;
    if (dirs) {
        pair_dirs(old, new, &pairs);
    } else {
        struct pair_in p = {xstrdup(old), xstrdup(new)};
        VEC_PUSH(pairs, p);
    }
    if (o->timing) {
        size_t nrules = rule_set_count(v->rs);
        v->rule_ns = xcalloc(nrules + 1, sizeof *v->rule_ns);
        for (size_t i = 0; i <= nrules; i++) atomic_init(&v->rule_ns[i], 0);
        v->eo.rule_ns = v->rule_ns;
    }
    size_t n = pairs.len;
    v->job.results = xcalloc(n ? n : 1, sizeof *v->job.results);
    v->rf = xcalloc(n + 3, sizeof *v->rf);
    int status = 0, unreadable = 0;
    size_t judged = 0;
    /* the config's suppressions: unused is decided over every pair, as validate does */
    struct suppress_run *sr =
        o->cfg && o->cfg->suppress.len ? suppress_run_new(o->cfg, v->today) : NULL;
    for (size_t i = 0; i < n; i++) {
        struct judge_result a, b;
        load_side(o, pairs.items[i].old, dirs, &a);
        load_side(o, pairs.items[i].new, dirs, &b);
        /* the report's file: NEW's, or OLD's for a description removed, and for an OLD
         * that cannot be read or parsed (the pair is not judged; its error's file:line:col
         * is OLD's) */
        int use_new = pairs.items[i].new && !b.skipped && !a.error;
        struct judge_result *r = &v->job.results[v->job.n];
        *r = use_new ? b : a;
        VEC_PUSH(v->files, xstrdup(use_new ? pairs.items[i].new : pairs.items[i].old));
        const char *path = v->files.items[v->files.len - 1];
        const char *name = !strcmp(path, "-") ? (o->stdin_name ? o->stdin_name : "<stdin>") : path;
        if (!r->error && (a.d || b.d) && !(a.skipped && b.skipped)) {
            judge_diff(v->rs, a.d, use_new ? b.d : NULL, &v->eo, &r->diags);
            finish(o, v, name, r);
            if (sr) suppress_run_apply(sr, v->rs, name, r->d, &r->diags);
            judged++;
        } else if (!r->error && !r->skipped) {
            r->skipped = "not a description on either side";
        }
        if (use_new) judge_result_release(&a);
        else judge_result_release(&b);
        if (r->error) {
            unreadable = 1;
            if (r->d) { /* NEW was read, OLD not: keep NEW for the report's excerpts */
                diag_list_release(&r->diags);
            }
        }
        const char *old_name = NULL;
        if (use_new && pairs.items[i].old) {
            const char *op = pairs.items[i].old;
            VEC_PUSH(v->old_files,
                     xstrdup(!strcmp(op, "-") ? (o->stdin_name ? o->stdin_name : "<stdin>") : op));
            old_name = v->old_files.items[v->old_files.len - 1];
        }
        v->rf[v->job.n] =
            (struct report_file){name, r->d, r->diags, r->error, r->skipped, 0, old_name, !use_new};
        for (size_t k = 0; k < r->diags.len; k++)
            if (!o->never_fail && !diag_hidden(&r->diags.items[k]) &&
                r->diags.items[k].level >= o->fail_level)
                status = 1;
        v->job.n++;
    }
    for (size_t i = 0; i < n; i++) {
        free(pairs.items[i].old);
        free(pairs.items[i].new);
    }
    VEC_FREE(pairs);
    v->nrf = v->job.n;
    if (dirs && !judged) { /* two directories that hold nothing judged: never a clean run */
        char *msg = xasprintf("no MCP Description found under '%s' or '%s' (hidden files and "
                              "directories, and node_modules, are not searched)",
                              old, new);
        fprintf(stderr, "mcpdesc diff: %s\n", msg);
        diag_add(&v->dir_errors, DIAG_ERROR, NULL, new, 0, 0, msg);
        free(msg);
        v->rf[v->nrf++] = (struct report_file){new,  NULL, DIAG_LIST_INIT, &v->dir_errors.items[0],
                                               NULL, 0,    NULL,           0};
        unreadable = 1;
    }
    /* the config's unused and expired suppressions: findings in the config itself */
    if (sr && cmd_validate_config_findings(o, v, sr, 0)) status = 1;
    return unreadable ? 2 : status;
}

int cmd_diff(int argc, char **argv)
{
    static const struct cmd_validate_mode mode = {diff_usage, diff_check_options, diff_load_rules,
                                                  diff_judge_inputs};
    return cmd_validate_run("diff", &mode, argc, argv);
}
