/* cmd_validate.c - `mcpdesc validate`: load the rule set once, judge every input
 * (files; directories, searched for *.json, *.yaml and *.yml with an mcpDescription
 * member; "-" for standard input, JSON or YAML), write one report.
 * Exit 0: all judged, nothing at or above --fail-on; 1: something is; 2: bad usage, an
 * unreadable or unparsable input, a directory without a description, a
 * --protocol-version that selects none of a document's versions, or a rule set that
 * cannot be loaded. No run ends green without judging something. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/cmd_changes.h"
#include "cli/cmd_common.h"
#include "cli/cmd_config.h"
#include "cli/cmd_validateInt.h"
#include "doc/doc.h"
#include "findings/baseline.h"
#include "findings/fingerprint.h"
#include "judge/judge.h"
#include "rules/lock.h"
#include "findings/report.h"
#include "findings/suppress.h"
#include "base/loc.h"
#include "base/uri.h"
#include "base/util.h"

/* Every option (for did-you-mean). tests/check-options.sh checks this table, --help, the
 * man page and the bash completion against each other: a new option goes in all four. */
static const char *const options[] = {
    "--rules",
    "--rules-tag",
    "--format",
    "--protocol-version",
    "--rule",
    "--skip",
    "--fail-on",
    "--color",
    "--preset",
    "--output",
    "--jobs",
    "--quiet",
    "--timing",
    "--stdin-filepath",
    "--config",
    "--no-config",
    "--baseline",
    "--help",
    "-o",
    "-j",
    "-q",
    "--full-report",
    "--docs-url",
    "--only-descriptions",
    "--strict-inputs",
    "--together",
    NULL,
};

/* The options that shape only the report: `baseline write` refuses them (and takes the
 * others; tests/check-options.sh reads both tables). */
static const char *const report_options[] = {"--format", "--fail-on",     "--color",    "--output",
                                             "--quiet",  "--timing",      "--baseline", "-o",
                                             "-q",       "--full-report", "--docs-url", NULL};

/* The command the messages name: validate, or the one that judges through it (fix,
 * baseline write: cmd_validate_then). Set once by run(), before any thread starts. */
const char *cmd_validate_label = "validate";

static void usage(FILE *f)
{
    fputs("usage: mcpdesc validate [OPTIONS] FILE|DIR|- ...\n"
          "\n"
          "Check MCP Description documents against the rule set. A file named on the\n"
          "command line is always judged (unless --only-descriptions). A directory is\n"
          "searched for *.json, *.yaml and *.yml files (recursively, in name order, not\n"
          "following links to directories, leaving out hidden files and directories and\n"
          "node_modules): those whose top level has an mcpDescription member are judged,\n"
          "the others are skipped and counted in the summary. One that does not parse\n"
          "(JSON with comments, several YAML documents) is skipped too, as \"not a\n"
          "description: does not parse\", unless it is named as one\n"
          "(NAME.mcp-description.json, .yaml or .yml) or its text holds mcpDescription:\n"
          "then it is an input error (--strict-inputs: always). A directory with no\n"
          "description in it is an input error. - reads standard input, JSON or YAML (by\n"
          "content). One report covers every input; a file that cannot be parsed is\n"
          "reported and the others are still judged.\n"
          "\n"
          "  --rules DIR              rule set to load: a directory with manifest.yaml or a\n"
          "                           release NAME@TAG/ (default: $MCPDESC_RULES, else the\n"
          "                           build tree's rules-yaml/, else the installed one)\n"
          "  --rules-tag TAG          run the release TAG (or NAME@TAG; NAME@TAG@sha256:HEX\n"
          "                           pins its digest, the sha256 of its rules/SHA256SUMS),\n"
          "                           found in $MCPDESC_RULES_PATH, the build tree's\n"
          "                           rules-yaml/releases or the installed releases; files\n"
          "                           that are not the release are refused; with --rules,\n"
          "                           refuse to run unless that set is the one locked as\n"
          "                           TAG. Each of\n"
          "                           --rules and --rules-tag once (twice: exit 2; a chain\n"
          "                           is the config's rules: [A, B]); either one runs\n"
          "                           instead of the config's rules, and the report says so\n"
          "  --format FORMAT[:FILE]   text (default), json, sarif (SARIF 2.1.0 for code\n"
          "                           scanning), github (GitHub Actions annotations, errors\n"
          "                           first), junit (JUnit XML: Jenkins, GitLab), gitlab\n"
          "                           (GitLab Code Quality), markdown (a CI step summary),\n"
          "                           html (one self-contained page to look at);\n"
          "                           repeatable: each with :FILE writes that file, one at\n"
          "                           most goes to standard output (or to -o FILE)\n"
          "  --protocol-version V     judge only these versions (repeatable); a document\n"
          "                           that lists none of them is an input error\n"
          "  --preset PRESET          recommended (default), strict or all: which rules run\n"
          "                           (recommended leaves out advice a server author often\n"
          "                           cannot act on; see mcpdesc rules list)\n"
          "  --rule GLOB              run only matching rules (repeatable): an exact id runs\n"
          "                           whatever the preset, a glob selects in the preset\n"
          "  --skip GLOB              never run matching rule ids (repeatable)\n"
          "  --fail-on LEVEL          error (default), warning, info or never: the lowest level\n"
          "                           that makes the exit status 1\n"
          "  --color WHEN             auto (default: colour on a terminal unless NO_COLOR is\n"
          "                           set), always, never\n"
          "  --stdin-filepath NAME    name standard input NAME in the report (default\n"
          "                           <stdin>); a .json, .yaml or .yml ending picks the\n"
          "                           parser; with no input given, - is implied\n"
          "  -o, --output FILE        write the report that names no file to FILE (through a\n"
          "                           temporary file, renamed when complete: never left\n"
          "                           half-written; so is each --format FORMAT:FILE)\n"
          "      --docs-url URL       where the rule pages are published (mcpdesc rules docs),\n"
          "                           an absolute http://, https:// or file:// URL: SARIF\n"
          "                           helpUri and html links are URL + id + .html\n"
          "                           (default: the config's docs-url, else the rule set's;\n"
          "                           none: no report links to a rule page)\n"
          "      --full-report WHERE  what the github format's notice of the annotations\n"
          "                           GitHub will not show names as the full report\n"
          "                           (default: the other reports' files, FORMAT:FILE);\n"
          "                           needs --format github\n"
          "  -j, --jobs N             judge N files at a time, and the items of a file on\n"
          "                           the threads left over when there are fewer files than\n"
          "                           N (default: one per online CPU); the report is the\n"
          "                           same for every N\n"
          "  -q, --quiet              print only findings at or above --fail-on (only errors\n"
          "                           with --fail-on never); the summary counts them all\n"
          "      --timing             after the report, print to standard error the time\n"
          "                           spent on each rule, slowest first\n"
          "      --config FILE        use this config file (docs/config.md) instead of the\n"
          "                           .mcpdesc.yaml or .mcpdesc.yml found from the current\n"
          "                           directory upward (stopping at a directory with .git)\n"
          "      --no-config          use no config file (MCPDESC_NO_CONFIG=1 does the same\n"
          "                           for the search; --config still names one)\n"
          "      --baseline FILE      report only findings not recorded in FILE (written by\n"
          "                           mcpdesc baseline write); the recorded ones are counted,\n"
          "                           do not fail the run, and those that are gone are listed\n"
          "      --strict-inputs      a file a directory search finds that does not parse is\n"
          "                           an input error, whatever its name and text (the rule\n"
          "                           of earlier releases)\n"
          "      --together           judge the inputs also as one client session, the\n"
          "                           servers a client connects to at once: the rule set's\n"
          "                           session rules (--rules-tag mcpdesc-security@TAG) report\n"
          "                           names that collide across servers and texts that\n"
          "                           steer the model to another server's tool, on each file\n"
          "                           involved, with the other place as a related location\n"
          "      --only-descriptions  judge the files named on the command line as a\n"
          "                           directory search judges what it finds: those that are\n"
          "                           not descriptions are skipped (pre-commit's hook); a\n"
          "                           run whose named files are all skipped exits 0\n"
          "\n"
          "Precedence: an option on the command line wins over the config, which wins over\n"
          "the preset. The config's ignore leaves files out of directory searches only (a\n"
          "file named on the command line is judged); the report names the config used.\n"
          "\n"
          "Exit status: 0 nothing at or above --fail-on, 1 something is, 2 bad usage, an\n"
          "input that cannot be read or parsed, a directory without a description, a\n"
          "--protocol-version that selects none of a document's versions, or a rule set\n"
          "that cannot be loaded.\n",
          f);
}

/* Does GLOB match a rule that the config's levels turn on (a level, not off)? Such a rule
 * runs whatever the preset (cmd_rule_enabled). */
static int glob_matches_a_configured_rule(const struct rule_set *rs, const char *glob,
                                          const struct config *cfg)
{
    enum { UNSET = -2 };
    for (size_t i = 0; cfg && i < rule_set_count(rs); i++) {
        const char *id = rule_id(rule_set_rule(rs, i));
        int level = config_rule_level(cfg, id, UNSET);
        if (level != UNSET && level != CONFIG_OFF && !fnmatch(glob, id, 0)) return 1;
    }
    return 0;
}

/* Does GLOB match a rule of preset P (every rule for RULE_PRESET_NONE), or a built-in? */
static int glob_matches_a_rule(const struct rule_set *rs, const char *glob, enum rule_preset p)
{
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (rule_in_preset(rule_set_rule(rs, i), p) &&
            !fnmatch(glob, rule_id(rule_set_rule(rs, i)), 0))
            return 1;
    for (size_t i = 0; i < res_nbuiltins; i++)
        if (!fnmatch(glob, res_builtins[i].id, 0)) return 1;
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is NAME a candidate for a directory search: *.json, *.yaml or *.yml? */
static int has_description_suffix(const char *name)
{
    size_t n = strlen(name);
    return (n > 5 && (!strcmp(name + n - 5, ".json") || !strcmp(name + n - 5, ".yaml"))) ||
        (n > 4 && !strcmp(name + n - 4, ".yml"));
}

/* Append every *.json, *.yaml and *.yml below DIR, sorted by name, depth first. Hidden
 * entries (a leading dot) and node_modules directories (ESLint's and ruff's default
 * ignore) are not searched; DIR itself is, whatever its name. Symbolic links to files are followed,
 * links to directories are not (like grep -r: no cycles, no file seen twice). A
 * directory that cannot be opened is appended itself, so that loading it fails and the
 * report says why. */
static void walk_dir(const char *dir, struct strvec *out, int depth)
{
    DIR *d = depth < 256 ? opendir(dir) : NULL;
    if (!d) {
        VEC_PUSH(*out, xstrdup(dir));
        return;
    }
    VEC(char *) names = VEC_INIT;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') VEC_PUSH(names, xstrdup(e->d_name));
    closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, name_cmp); /* not NULL */
    for (size_t i = 0; i < names.len; i++) {
        size_t dl = strlen(dir); /* "examples/" names examples/x.json, not examples//x.json */
        char *path = dl && dir[dl - 1] == '/' ? xasprintf("%s%s", dir, names.items[i])
                                              : xasprintf("%s/%s", dir, names.items[i]);
        struct stat st = {0}; /* stays zero when lstat fails: loading reports why */
        int wanted = has_description_suffix(names.items[i]);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (strcmp(names.items[i], "node_modules")) walk_dir(path, out, depth + 1);
            free(path);
        } else if (wanted &&
                   !(S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
            VEC_PUSH(*out, path);
        } else {
            free(path);
        }
        free(names.items[i]);
    }
    VEC_FREE(names);
}

char **cmd_find_candidates(const char *dir, size_t *n)
{
    struct strvec v = {NULL, 0, 0};
    walk_dir(dir, &v, 0);
    *n = v.len;
    return v.items;
}

/* File I is "-" (standard input) or a path; judge.h does the rest. */
static const char *file_name(const struct job *j, size_t i)
{
    return !strcmp(j->files[i], "-") ? j->stdin_name : j->files[i];
}

static void finish_file(struct job *j, size_t i);
static void shed_document(struct judge_result *r);

static void judge_file(struct job *j, size_t i)
{
    int is_stdin = !strcmp(j->files[i], "-");
    struct judge_source src = {is_stdin ? JUDGE_STDIN : JUDGE_FILE, file_name(j, i), j->files[i],
                               NULL, 0};
    struct judge_options jo = {j->eo, NULL, j->from_dir[i], j->strict_inputs, 0};
    if (j->ignored && j->ignored[i]) {
        j->results[i].skipped = j->ignored_reason; /* counted as skipped, never silently */
        return;
    }
    judge_document(j->rs, &src, &jo, &j->results[i]);
    if (!j->together) finish_file(j, i);
}

/* What a team decided about file I's findings (inline suppressions, the config's levels)
 * and their fingerprints: once every rule has judged it (with --together, after the
 * session rules). */
static void finish_file(struct job *j, size_t i)
{
    if (j->ignored && j->ignored[i]) return;
    /* inline x-mcpdesc-ignore first: the config's levels then apply to its findings too */
    struct suppress_filter sf = {j->eo->enabled, j->eo->enabled_arg, j->eo->versions,
                                 j->session_ran};
    if (j->results[i].d)
        suppress_inline(j->rs, j->results[i].d, file_name(j, i), &j->results[i].diags, j->today,
                        &sf);
    if (j->cfg)
        config_apply(j->cfg, file_name(j, i), &j->results[i].diags, cmd_rule_named,
                     j->eo->enabled_arg);
    /* here, on the worker threads: each item's identity is worked out once per file */
    char *fp_name = fingerprint_file_from(j->cwd, j->anchor, file_name(j, i));
    fingerprint_diags(j->rs, j->results[i].d, j->cwd, fp_name, &j->results[i].diags);
    free(fp_name);
    /* the config's suppressions: before the baseline, so that a suppressed finding counts
     * as suppressed, baselined or not */
    if (j->sr && j->results[i].d) {
        pthread_mutex_lock(&j->sr_lock);
        suppress_run_apply(j->sr, j->rs, file_name(j, i), j->results[i].d, &j->results[i].diags);
        pthread_mutex_unlock(&j->sr_lock);
    }
    if (j->shed && j->results[i].d) shed_document(&j->results[i]);
}

/* What the reports still need of a judged document: the lines of its findings (text and
 * HTML excerpts) and its protocolVersions (JUnit's list of the rules judged). */
static void shed_document(struct judge_result *r)
{
    static const char *const keep[] = {"protocolVersions", NULL};
    uint32_t *lines = xcalloc(r->diags.len ? r->diags.len : 1, sizeof *lines);
    size_t n = 0;
    for (size_t k = 0; k < r->diags.len; k++)
        if (r->diags.items[k].line) lines[n++] = r->diags.items[k].line;
    doc_shed(r->d, lines, n, keep);
    free(lines);
}

static void *worker(void *arg)
{
    struct job *j = arg;
    for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) judge_file(j, i);
    return NULL;
}

/* Judge every file with up to JOBS threads (the calling one included). */
static void judge_all(struct job *j, long jobs)
{
    size_t extra = jobs > 1 && j->n > 1 ? (size_t)jobs - 1 : 0;
    if (extra > j->n - 1) extra = j->n - 1;
    pthread_t *tids = xcalloc(extra ? extra : 1, sizeof *tids);
    size_t started = 0;
    while (started < extra && pthread_create(&tids[started], NULL, worker, j) == 0) started++;
    worker(j); /* with no thread started, this one does it all */
    for (size_t t = 0; t < started; t++) pthread_join(tids[t], NULL);
    free(tids);
}

/* --timing: every rule that took time, slowest first, then the resolution and the
 * total, to F. NS has a counter per rule and one for the resolution (eval.h). A rule
 * that --rule/--skip leave out but that ran because a reported rule yields to it
 * (eval.h) is marked "(yield only)": its time is part of the run. */
static void print_timing(FILE *f, const struct rule_set *rs, _Atomic uint64_t *ns, void *filt)
{
    size_t n = rule_set_count(rs);
    size_t *order = xcalloc(n ? n : 1, sizeof *order);
    uint64_t total = atomic_load(&ns[n]);
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t t = atomic_load(&ns[i]);
        total += t;
        if (!t) continue; /* not run: disabled, or no version applies */
        size_t k = shown++;
        for (; k > 0 && atomic_load(&ns[order[k - 1]]) < t; k--) order[k] = order[k - 1];
        order[k] = i;
    }
    double all = total ? (double)total : 1.0;
    fprintf(f, "%-52s %10s %7s\n", "rule", "time (ms)", "share");
    for (size_t k = 0; k < shown; k++) {
        uint64_t t = atomic_load(&ns[order[k]]);
        const char *id = rule_id(rule_set_rule(rs, order[k]));
        fprintf(f, "%-52s %10.3f %6.1f%%%s\n", id, (double)t / 1e6, 100.0 * (double)t / all,
                cmd_rule_enabled(id, filt) ? "" : "  (yield only)");
    }
    uint64_t res = atomic_load(&ns[n]);
    fprintf(f, "%-52s %10.3f %6.1f%%\n", "(resolution: $componentRef, versions)", (double)res / 1e6,
            100.0 * (double)res / all);
    fprintf(f, "%-52s %10.3f  (%zu rules; summed over threads, parsing not included)\n", "total",
            (double)total / 1e6, shown);
    free(order);
}

/* -j/--jobs: a count from 1 to 1024; 0 on a bad value (after a message). */
static long parse_jobs(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < 1 || n > 1024) {
        fprintf(stderr, "mcpdesc %s: --jobs takes a number from 1 to 1024, not '%s'\n",
                cmd_validate_label, v);
        return 0;
    }
    return n;
}

static void opts_release(struct validate_opts *o)
{
    config_free(o->cfg);
    free(o->output_owned);
    free(o->baseline_owned);
    for (size_t i = 0; i < o->outs.len; i++) free(o->outs.items[i].owned);
    VEC_FREE(o->outs);
    VEC_FREE(o->formats);
    for (size_t i = 0; i < o->inputs.len; i++) free(o->inputs.items[i]);
    VEC_FREE(o->inputs);
    VEC_FREE(o->versions);
    VEC_FREE(o->filt.only);
    VEC_FREE(o->filt.skip);
}

/* Is A an option that shapes only the report (refused by `baseline write`)? */
static int report_only(const char *a)
{
    for (const char *const *o = report_options; *o; o++) {
        size_t n = strlen(*o);
        if (!strncmp(a, *o, n) && (a[n] == '\0' || (a[1] == '-' && a[n] == '='))) return 1;
    }
    return 0;
}

/* Parse ARGV into *O. Returns 0 to go on, 2 on bad usage (after a message), -1 when
 * --help was printed. What needs the rule set (versions, globs) is checked by
 * judge_inputs. */
static int parse_options(int argc, char **argv, struct validate_opts *o)
{
    int only_args = 0;
    *o = (struct validate_opts){.color = "auto",
                                .jobs = sysconf(_SC_NPROCESSORS_ONLN),
                                .filt = {VEC_INIT, VEC_INIT},
                                .then = o->then,
                                .then_arg = o->then_arg,
                                .diff = o->diff,
                                .mode = o->mode};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
#define OPT(name)                                                                                  \
    (!strcmp(a, name) || (!strncmp(a, name "=", sizeof(name)) && a[sizeof(name) - 1] == '='))
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            VEC_PUSH(o->inputs, xstrdup(a));
        } else if (o->then && report_only(a)) {
            if (!strcmp(cmd_validate_label, "fix"))
                fprintf(stderr,
                        "mcpdesc fix: %s does not apply here: fix writes the files and no "
                        "report\n",
                        a);
            else
                fprintf(stderr,
                        "mcpdesc baseline write: %s does not apply here: a baseline records "
                        "every finding and writes no report\n",
                        a);
            return 2;
        } else if (!strcmp(a, "--")) {
            only_args = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            if (o->then) return -2; /* the calling command prints its own */
            if (o->mode) o->mode->usage(stdout);
            else usage(stdout);
            return -1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--timing")) {
            o->timing = 1;
        } else if (!strcmp(a, "--strict-inputs")) {
            o->strict_inputs = 1;
        } else if (!strcmp(a, "--only-descriptions")) {
            o->only_descriptions = 1;
        } else if (!strcmp(a, "--together")) {
            o->together = 1;
        } else if (OPT("--rules")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules"))) return 2;
            if (cmd_option_once(cmd_validate_label, "--rules", &o->rules_dir, v) < 0) return 2;
        } else if (OPT("--rules-tag")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules-tag"))) return 2;
            if (cmd_option_once(cmd_validate_label, "--rules-tag", &o->rules_tag, v) < 0) return 2;
        } else if (OPT("--format")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--format"))) return 2;
            VEC_PUSH(o->formats, v);
        } else if (OPT("--protocol-version")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--protocol-version"))) return 2;
            VEC_PUSH(o->versions, v);
        } else if (OPT("--rule")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rule"))) return 2;
            VEC_PUSH(o->filt.only, v);
        } else if (OPT("--preset")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--preset"))) return 2;
            o->preset_arg = v;
        } else if (OPT("--skip")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--skip"))) return 2;
            VEC_PUSH(o->filt.skip, v);
        } else if (OPT("--docs-url")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--docs-url"))) return 2;
            if (!uri_is_link(v)) {
                fprintf(stderr, "mcpdesc %s: --docs-url takes " URI_LINK_WANTED ", not '%s'\n",
                        cmd_validate_label, v);
                return 2;
            }
            o->docs_url = v;
        } else if (OPT("--full-report")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--full-report"))) return 2;
            if (!*v) {
                fprintf(stderr,
                        "mcpdesc %s: --full-report needs a place to name (the job summary, an "
                        "artifact), not an empty string\n",
                        cmd_validate_label);
                return 2;
            }
            o->full_report = v;
        } else if (OPT("--baseline") && !o->then) {
            if (!(v = cmd_option_value(argc, argv, &i, "--baseline"))) return 2;
            o->baseline = v;
        } else if (OPT("--stdin-filepath")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--stdin-filepath"))) return 2;
            if (!*v) {
                fprintf(stderr, "mcpdesc %s: --stdin-filepath needs a name\n", cmd_validate_label);
                return 2;
            }
            o->stdin_name = v;
        } else if (OPT("--fail-on")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--fail-on"))) return 2;
            o->fail_on = v;
        } else if (OPT("--color")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--color"))) return 2;
            o->color = v;
        } else if (OPT("--config")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--config"))) return 2;
            o->config_file = v;
        } else if (!strcmp(a, "--no-config")) {
            o->no_config = 1;
        } else if (!strcmp(a, "-j") || OPT("--jobs")) {
            if (!(v = cmd_option_value(argc, argv, &i, a[1] == 'j' ? "-j" : "--jobs"))) return 2;
            if (!(o->jobs = parse_jobs(v))) return 2;
        } else if (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9') {
            if (!(o->jobs = parse_jobs(a + 2))) return 2;
        } else if (!strcmp(a, "-o") || OPT("--output")) {
            if (!(v = cmd_option_value(argc, argv, &i, a[1] == 'o' ? "-o" : "--output"))) return 2;
            o->output = v;
        } else {
            cmd_unknown_option(cmd_validate_label, a, options);
            return 2;
        }
#undef OPT
    }
    if (o->config_file && o->no_config) {
        fprintf(stderr, "mcpdesc %s: --config and --no-config contradict each other\n",
                cmd_validate_label);
        return 2;
    }
    return 0;
}

/* PATH as the file system resolves it: realpath of PATH when it exists (symbolic links
 * followed), else realpath of its directory plus its last name; PATH itself when
 * neither resolves (new string). */
static char *resolved_path(const char *path)
{
    char *r = realpath(path, NULL);
    if (r) return r;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
    char *rdir = realpath(dir, NULL);
    free(dir);
    if (!rdir) return xstrdup(path);
    const char *base = slash ? slash + 1 : path;
    r = xasprintf("%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base);
    free(rdir);
    return r;
}

/* Do the names A and B name one file ("q", "./q", "a/../q", a symbolic link to q)? The
 * same device and inode when both exist, else the same resolved path. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!strcmp(a, b)) return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolved_path(a), *rb = resolved_path(b);
    int same = !strcmp(ra, rb);
    free(ra);
    free(rb);
    return same;
}

/* The reports: each --format FORMAT[:FILE] (else the config's format, its files relative
 * to the config; else text); -o (else the config's output) is the file of the one that
 * names none. Two on standard output, or two to one file, are refused. 0, or 2 after a
 * message. */
static int settle_formats(struct validate_opts *o)
{
    const struct config *c = o->cfg;
    int from_config = !o->formats.len && c && c->format.len;
    size_t n = o->formats.len ? o->formats.len : from_config ? c->format.len : 1;
    const char *to_stdout = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *spec = o->formats.len ? o->formats.items[i]
            : from_config                 ? c->format.items[i].s
                                          : "text";
        const char *colon = strchr(spec, ':');
        char *name = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
        struct report_out out = {report_find(name), NULL, NULL};
        if (!out.fmt) {
            fprintf(stderr, "mcpdesc %s: unknown format '%s' (use one of: %s)\n",
                    cmd_validate_label, name, report_names());
            free(name);
            return 2;
        }
        if (colon && !colon[1]) {
            fprintf(stderr,
                    "mcpdesc %s: --format %s names no file after the ':' (FORMAT or "
                    "FORMAT:FILE)\n",
                    cmd_validate_label, spec);
            free(name);
            return 2;
        }
        if (colon && from_config && colon[1] != '/')
            out.file = out.owned = xasprintf("%s/%s", c->dir, colon + 1);
        else if (colon) out.file = colon + 1;
        if (!out.file && to_stdout) {
            fprintf(stderr,
                    "mcpdesc %s: two formats on standard output (%s and %s%s%s): give all "
                    "but one a file, FORMAT:FILE\n",
                    cmd_validate_label, to_stdout, out.fmt->name,
                    from_config ? ", the format of " : "", from_config ? c->path : "");
            free(name);
            return 2;
        }
        if (!out.file) to_stdout = out.fmt->name;
        free(name);
        VEC_PUSH(o->outs, out);
    }
    /* -o: the file of the report that names none */
    for (size_t i = 0; o->output && i < o->outs.len; i++)
        if (!o->outs.items[i].file) o->outs.items[i].file = o->output;
    if (o->output && !to_stdout) {
        fprintf(stderr,
                "mcpdesc %s: -o %s names the file of the report written to standard "
                "output, but every --format names its own file\n",
                cmd_validate_label, o->output);
        return 2;
    }
    for (size_t i = 0; i < o->outs.len; i++) {
        const struct report_out *r = &o->outs.items[i];
        for (size_t k = 0; k < i; k++) {
            const struct report_out *q = &o->outs.items[k];
            if (!r->file || !q->file || !same_file(r->file, q->file)) continue;
            if (!strcmp(r->file, q->file))
                fprintf(stderr, "mcpdesc %s: two reports (%s and %s) to one file '%s'\n",
                        cmd_validate_label, q->fmt->name, r->fmt->name, r->file);
            else
                fprintf(stderr,
                        "mcpdesc %s: two reports (%s and %s) to one file: '%s' and '%s' "
                        "name the same file\n",
                        cmd_validate_label, q->fmt->name, r->fmt->name, q->file, r->file);
            return 2;
        }
        /* the run reads the baseline: a report written over it would lose it */
        if (r->file && o->baseline && strcmp(o->baseline, "-") && same_file(r->file, o->baseline)) {
            fprintf(stderr,
                    "mcpdesc %s: the %s report's file '%s' is the baseline '%s' (it would "
                    "be overwritten)\n",
                    cmd_validate_label, r->fmt->name, r->file, o->baseline);
            return 2;
        }
    }
    /* --full-report shapes only the github report: without one it would say nothing */
    int github = 0;
    for (size_t i = 0; i < o->outs.len; i++)
        github |= !strcmp(o->outs.items[i].fmt->name, "github");
    if (o->full_report && !github) {
        fprintf(stderr,
                "mcpdesc %s: --full-report names where the github format's notice points, and "
                "no report of this run is github (add --format github)\n",
                cmd_validate_label);
        return 2;
    }
    return 0;
}

/* The config's keys where the command line gave nothing (the command line wins), then
 * the checks of the values. 0, or 2 after a message. */
static int settle_options(struct validate_opts *o)
{
    const struct config *c = o->cfg;
    const char *fail_on = o->fail_on ? o->fail_on : c && c->fail_on.s ? c->fail_on.s : "error";
    if (c && !o->output && c->output.s) {
        o->output_owned =
            c->output.s[0] == '/' ? xstrdup(c->output.s) : xasprintf("%s/%s", c->dir, c->output.s);
        o->output = o->output_owned;
    }
    if (c && c->strict_inputs) o->strict_inputs = 1; /* either one asks for the old rule */
    if (c && c->together && !o->together) o->together = o->together_config = 1;
    /* `baseline write` writes a baseline: it reads none */
    if (c && !o->baseline && !o->then && c->baseline.s)
        o->baseline = o->baseline_owned = config_path_of(c, c->baseline.s);
    const char *preset = o->preset_arg ? o->preset_arg
        : c && c->preset.s             ? c->preset.s
                                       : "recommended";
    if (rule_preset_parse(preset, &o->preset) < 0) {
        fprintf(stderr, "mcpdesc %s: --preset takes %s, not '%s'\n", cmd_validate_label,
                rule_preset_names(), preset);
        return 2;
    }
    o->filt.cfg = c;
    if (settle_formats(o) != 0) return 2;
    o->fail_level = DIAG_ERROR;
    o->never_fail = !strcmp(fail_on, "never");
    if (!o->never_fail && diag_level_parse(fail_on, &o->fail_level) < 0) {
        fprintf(stderr, "mcpdesc %s: --fail-on takes error, warning, info or never, not '%s'\n",
                cmd_validate_label, fail_on);
        return 2;
    }
    if (strcmp(o->color, "auto") && strcmp(o->color, "always") && strcmp(o->color, "never")) {
        fprintf(stderr, "mcpdesc %s: --color takes auto, always or never, not '%s'\n",
                cmd_validate_label, o->color);
        return 2;
    }
    size_t dashes = 0;
    for (size_t i = 0; i < o->inputs.len; i++) dashes += !strcmp(o->inputs.items[i], "-");
    if (o->stdin_name && !o->inputs.len) {
        VEC_PUSH(o->inputs, xstrdup("-")); /* like prettier and ruff: the name implies stdin */
        dashes = 1;
    }
    if (!o->inputs.len && c) /* the config's paths when the command line names no input */
        for (size_t i = 0; i < c->paths.len; i++)
            VEC_PUSH(o->inputs, config_path_of(c, c->paths.items[i].s));
    if (!o->inputs.len) {
        fprintf(stderr,
                "mcpdesc %s: no input (give files, directories, or - for standard input; or "
                "list them under paths: in the config)\n",
                cmd_validate_label);
        return 2;
    }
    if (dashes > 1) {
        fprintf(stderr, "mcpdesc %s: '-' is given twice (standard input can be read only once)\n",
                cmd_validate_label);
        return 2;
    }
    if (o->stdin_name && !dashes) {
        fprintf(stderr,
                "mcpdesc %s: --stdin-filepath names standard input, but '-' is not "
                "among the inputs\n",
                cmd_validate_label);
        return 2;
    }
    return 0;
}

/* Load the rule set (--rules/--rules-tag, else the config's rules, else the default) and
 * check what depends on it: the tag, the protocol versions, the --rule/--skip globs and
 * the config's rule ids. 0, or 2 after a message. */
/* The rule set a run judges by: the command line's --rules/--rules-tag, else the config
 * C's `rules`, else the default; NULL after its messages. */
static struct rule_set *load_rule_set(const struct validate_opts *o, const struct config *c)
{
    if (o->mode) return o->mode->load_rules(o);
    if (c && c->rules.len && !o->rules_dir && !o->rules_tag) return cmd_config_rules(c);
    return cmd_load_rules_tagged(o->rules_dir, o->rules_tag);
}

/* The security set's newest shipped tag as NAME@TAG (new): where the session rules are. */
static char *newest_security_tag(void)
{
    const char *tag = release_shipped_newest("mcpdesc-security");
    return xasprintf("mcpdesc-security@%s", tag ? tag : "TAG");
}

static int prepare(struct validate_opts *o, struct validate_run *v)
{
    if (!(v->rs = load_rule_set(o, o->cfg))) return 2;
    /* a run pinned to a tag says when an engine change altered that tag's findings
     * (docs/releases.md); -q prints only what fails the run */
    if (!o->quiet && o->rules_tag)
        cmd_changes_note(o->rules_tag, o->rules_dir ? rule_set_name(v->rs) : CMD_DEFAULT_SET);
    else if (!o->quiet && !o->rules_dir && o->cfg)
        for (size_t i = 0; i < o->cfg->rules.len; i++) {
            const char *e = o->cfg->rules.items[i].s;
            if (!strchr(e, '/') && strchr(e, '@')) cmd_changes_note(e, CMD_DEFAULT_SET);
        }
    if (suppress_today(v->today) < 0) {
        fprintf(stderr,
                "mcpdesc %s: SOURCE_DATE_EPOCH is a number of seconds since "
                "1970-01-01 UTC, not '%s'\n",
                cmd_validate_label, getenv("SOURCE_DATE_EPOCH"));
        return 2;
    }
    if (o->cfg) {
        struct diag_list errs = DIAG_LIST_INIT;
        size_t bad = config_check(o->cfg, v->rs, &errs);
        cmd_print_errors(stderr, &errs);
        diag_list_release(&errs);
        if (bad) {
            fprintf(stderr, "mcpdesc: the config %s has %zu error%s\n", o->cfg->path, bad,
                    bad == 1 ? "" : "s");
            return 2;
        }
    }
    /* the preset is decided in cmd_rule_enabled, where the config can overrule it */
    o->filt.rs = v->rs;
    o->filt.preset = o->preset;
    v->eo = (struct eval_options){.enabled = cmd_rule_enabled, .enabled_arg = (void *)&o->filt};
    if (o->diff && !rule_set_change_count(v->rs)) {
        fprintf(stderr,
                "mcpdesc diff: the rule set %s@%s has no change rules (rules with compare: "
                "that judge an old and a new item); run it with the default set, or "
                "--rules-tag mcpdesc-diff@TAG (mcpdesc rules list --rules-tag mcpdesc-diff@TAG "
                "lists them)\n",
                rule_set_name(v->rs), rule_set_display_tag(v->rs));
        return 2;
    }
    if (o->together && !rule_set_session_count(v->rs) && o->together_config) {
        char *tag = newest_security_tag();
        fprintf(stderr, "mcpdesc %s: ", cmd_validate_label);
        loc_print(stderr, o->cfg->path, o->cfg->together_pos.line, o->cfg->together_pos.col);
        fprintf(stderr,
                ": error: together: true, but the rule set %s@%s has no session rules (rules "
                "that judge the servers of one client together)\n"
                "    hint: add rules: %s to the config (or run --rules-tag %s)\n",
                rule_set_name(v->rs), rule_set_display_tag(v->rs), tag, tag);
        free(tag);
        return 2;
    }
    if (o->together && !rule_set_session_count(v->rs)) {
        char *tag = newest_security_tag();
        fprintf(stderr,
                "mcpdesc %s: --together: the rule set %s@%s has no session rules (rules that "
                "judge the servers of one client together); run it with --rules-tag %s, whose "
                "rules find names that collide across servers and texts that steer the model to "
                "another server's tool\n",
                cmd_validate_label, rule_set_name(v->rs), rule_set_display_tag(v->rs), tag);
        free(tag);
        return 2;
    }
    if (o->baseline) {
        struct doc_error err;
        if (!(v->baseline = baseline_load(o->baseline, v->cwd, &err))) {
            fprintf(stderr, "mcpdesc %s: ", cmd_validate_label);
            loc_print(stderr, o->baseline, err.line, err.col);
            fprintf(stderr, ": error: %s\n", err.message);
            doc_error_release(&err);
            if (o->baseline_owned) {
                fprintf(stderr, "mcpdesc %s: ", cmd_validate_label);
                loc_print(stderr, o->cfg->path, o->cfg->baseline.pos.line,
                          o->cfg->baseline.pos.col);
                fputs(": note: the config's baseline (relative to the config; --baseline FILE "
                      "names another)\n",
                      stderr);
            }
            return 2;
        }
    }
    const struct ver_list *vl = rule_set_versions(v->rs);
    for (size_t i = 0; i < o->versions.len; i++) {
        int k = ver_index(vl, o->versions.items[i]);
        if (k < 0) {
            struct buf known = BUF_INIT;
            ver_format(&known, vl, ver_all(vl), ", ");
            fprintf(stderr, "mcpdesc %s: unknown protocol version '%s' (known: %s)\n",
                    cmd_validate_label, o->versions.items[i], buf_str(&known));
            buf_release(&known);
            return 2;
        }
        v->eo.versions |= (ver_mask)1 << k;
    }
    for (size_t i = 0; i < o->filt.only.len + o->filt.skip.len; i++) {
        const char *g =
            i < o->filt.only.len ? o->filt.only.items[i] : o->filt.skip.items[i - o->filt.only.len];
        if (!glob_matches_a_rule(v->rs, g, RULE_PRESET_NONE)) {
            const char *near = rule_set_suggest(v->rs, g);
            fprintf(stderr, "mcpdesc %s: '%s' matches no rule id%s%s%s (see mcpdesc rules list)\n",
                    cmd_validate_label, g, near ? "; did you mean '" : "", near ? near : "",
                    near ? "'?" : "");
            return 2;
        }
        /* a --rule glob of rules the preset leaves out would judge nothing: no false
         * green (a rule named by its id runs whatever the preset) */
        if (i < o->filt.only.len && !cmd_rule_plain_id(g) &&
            !glob_matches_a_rule(v->rs, g, o->preset) &&
            !glob_matches_a_configured_rule(v->rs, g, o->cfg)) {
            enum rule_preset need = RULE_PRESET_STRICT;
            while (need < RULE_PRESET_ALL && !glob_matches_a_rule(v->rs, g, need)) need++;
            if (!glob_matches_a_rule(v->rs, g, RULE_PRESET_ALL)) { /* no preset runs them */
                fprintf(stderr,
                        "mcpdesc %s: --rule '%s' matches only rules that the rule set's "
                        "overrides turn off (name one by its id, or give it a level in the "
                        "config's levels; see mcpdesc rules list)\n",
                        cmd_validate_label, g);
                return 2;
            }
            fprintf(stderr,
                    "mcpdesc %s: --rule '%s' matches only rules that preset %s leaves "
                    "out (add --preset %s; see mcpdesc rules list)\n",
                    cmd_validate_label, g, rule_preset_name(o->preset), rule_preset_name(need));
            return 2;
        }
    }
    return 0;
}

/* --together: the judged files that repeat an earlier one (the same file named twice, or
 * found twice), left out of the session: a server does not collide with itself. Says so
 * (and when fewer than two servers remain: a session of one has nothing to compare)
 * unless QUIET. New array of J->n flags. */
static unsigned char *session_repeats(struct job *j, int quiet)
{
    unsigned char *twice = xcalloc(j->n ? j->n : 1, 1);
    char **real = xcalloc(j->n ? j->n : 1, sizeof *real);
    size_t servers = 0;
    for (size_t i = 0; i < j->n; i++) {
        if (!j->results[i].d) continue;
        if (strcmp(j->files[i], "-")) real[i] = realpath(j->files[i], NULL);
        for (size_t k = 0; real[i] && k < i && !twice[i]; k++)
            if (real[k] && !twice[k] && !strcmp(real[k], real[i])) {
                twice[i] = 1;
                if (!quiet)
                    fprintf(stderr,
                            "mcpdesc %s: --together: %s is %s, named again: it is one server "
                            "of the session, judged once\n",
                            cmd_validate_label, file_name(j, i), file_name(j, k));
            }
        servers += !twice[i];
    }
    j->session_ran = servers >= 2;
    if (servers < 2 && !quiet)
        fprintf(stderr,
                "mcpdesc %s: --together: the session holds %zu server%s: the session rules "
                "had no other server to compare with\n",
                cmd_validate_label, servers, servers == 1 ? "" : "s");
    for (size_t i = 0; i < j->n; i++) free(real[i]);
    free(real);
    return twice;
}

/* Expand directories, keeping command-line order otherwise; then judge every file.
 * Returns the status so far: 1 when a diagnostic is at or above --fail-on, 2 when an
 * input could not be judged or a directory holds no description (after a message). */
static int judge_inputs(const struct validate_opts *o, struct validate_run *v)
{
    VEC(struct dir_range) dirs = VEC_INIT;
    for (size_t i = 0; i < o->inputs.len; i++) {
        const char *in = o->inputs.items[i];
        struct stat st;
        if (strcmp(in, "-") && stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
            struct dir_range r = {in, v->files.len, 0};
            walk_dir(in, &v->files, 0);
            r.end = v->files.len;
            VEC_PUSH(dirs, r);
        } else {
            VEC_PUSH(v->files, xstrdup(in));
        }
    }
    v->dirs = dirs.items;
    v->ndirs = dirs.len;
    size_t n = v->files.len, nf = n ? n : 1;
    unsigned char *from_dir = xcalloc(nf, 1);
    for (size_t k = 0; k < v->ndirs; k++)
        memset(from_dir + v->dirs[k].begin, 1, v->dirs[k].end - v->dirs[k].begin);
    /* --only-descriptions: a named file (not standard input) is judged as a found one */
    for (size_t i = 0; o->only_descriptions && i < n; i++)
        if (strcmp(v->files.items[i], "-")) from_dir[i] = 1;
    /* the config's ignore: only files a directory search found (a named file is judged) */
    unsigned char *ignored = o->cfg && o->cfg->ignore.len ? xcalloc(nf, 1) : NULL;
    for (size_t i = 0; ignored && i < n; i++)
        ignored[i] = from_dir[i] && config_ignored(o->cfg, v->files.items[i]);
    char *ignored_reason = o->cfg ? xasprintf("ignored by %s", o->cfg->path) : NULL;
    if (o->timing) {
        size_t nrules = rule_set_count(v->rs);
        v->rule_ns = xcalloc(nrules + 1, sizeof *v->rule_ns);
        for (size_t i = 0; i <= nrules; i++) atomic_init(&v->rule_ns[i], 0);
        v->eo.rule_ns = v->rule_ns;
    }
    /* the last field, shed: with one file nothing is judged after it, and shedding its
     * tree would only free it on one core (a tenth of a large file's run) before exit */
    v->job =
        (struct job){v->rs,
                     &v->eo,
                     o->cfg,
                     ignored,
                     ignored_reason,
                     v->files.items,
                     from_dir,
                     o->strict_inputs,
                     o->stdin_name ? o->stdin_name : "<stdin>",
                     v->today,
                     v->anchor,
                     v->cwd,
                     xcalloc(nf, sizeof *v->job.results),
                     n,
                     0,
                     o->together,
                     0,
                     o->cfg && o->cfg->suppress.len ? suppress_run_new(o->cfg, v->today) : NULL,
                     PTHREAD_MUTEX_INITIALIZER,
                     !o->then && n > 1};
    /* the threads -j gives beyond one per file judge the items of each file */
    v->eo.workers = n && (size_t)o->jobs > n ? o->jobs / (long)n : 1;
    /* ... and the parse of a large JSON file: two threads when it has two or more */
    doc_json_set_threads(v->eo.workers > 1 ? 2 : 1, DOC_JSON_SPLIT_MIN);
    judge_all(&v->job, o->jobs);
    if (o->together) { /* the session rules, then each file's suppressions and fingerprints */
        unsigned char *twice = session_repeats(&v->job, o->quiet);
        judge_together(v->rs, v->job.results, n, &v->eo, twice);
        free(twice);
        for (size_t i = 0; i < n; i++) finish_file(&v->job, i);
    }
    v->job.from_dir = NULL;
    free(from_dir);
    v->job.ignored = NULL;
    v->ignored_reason = ignored_reason; /* the skipped files point at it */

    int status = 0, unreadable = 0;
    v->rf = xcalloc(nf + v->ndirs + 1, sizeof *v->rf);
    /* the config's suppressions, applied file by file (finish_file); unused ones are
     * decided over every file (cmd_validate_config_findings) */
    struct suppress_run *sr = v->job.sr;
    for (size_t i = 0; i < n; i++) {
        const struct judge_result *r = &v->job.results[i];
        v->rf[i] = (struct report_file){
            file_name(&v->job, i), r->d, r->diags, r->error, r->skipped, 0, NULL, 0};
        if (r->error) unreadable = 1;
        /* before the baseline: a suppressed finding counts as suppressed, baselined or not */
        if (v->baseline && r->d) baseline_apply(v->baseline, v->rf[i].name, &v->rf[i].diags);
        for (size_t k = 0; k < r->diags.len; k++)
            if (!o->never_fail && !diag_hidden(&r->diags.items[k]) &&
                r->diags.items[k].level >= o->fail_level)
                status = 1;
    }
    /* --only-descriptions: named files that are all skipped are a green run that says so
     * (pre-commit passes package.json alone); a directory still needs a description */
    size_t judged_any = 0;
    for (size_t i = 0; i < n; i++) judged_any += !v->rf[i].skipped;
    if (o->only_descriptions && n && !judged_any && !v->ndirs && !o->quiet)
        fprintf(stderr,
                "mcpdesc %s: nothing judged: no file named is an MCP Description "
                "(--only-descriptions)\n",
                cmd_validate_label);
    /* A directory that holds nothing judged would pass for a clean one: an input error,
     * on standard error and in the report itself (JSON files[].error, a SARIF
     * notification, a GitHub ::error), so that no format shows a clean run. */
    v->nrf = n;
    for (size_t k = 0; k < v->ndirs; k++) {
        const struct dir_range *r = &v->dirs[k];
        size_t found = r->end - r->begin, judged = 0, nignored = 0;
        for (size_t i = r->begin; i < r->end; i++) {
            judged += !v->rf[i].skipped;
            nignored += ignored && ignored[i];
        }
        if (judged) continue;
        unreadable = 1;
        char *ign =
            nignored ? xasprintf(" (%zu of them %s)", nignored, ignored_reason) : xstrdup("");
        char *why = !found ? xstrdup("no *.json, *.yaml or *.yml file below it")
                           : xasprintf("%zu *.json, *.yaml or *.yml file%s below it%s, none with a "
                                       "top-level " JUDGE_DESCRIPTION_MEMBER " member",
                                       found, found == 1 ? "" : "s", ign);
        free(ign);
        char *msg = xasprintf("no MCP Description found: %s (hidden files and directories, and "
                              "node_modules, are not searched)",
                              why);
        fprintf(stderr,
                "mcpdesc %s: no MCP Description under '%s': %s (hidden files and "
                "directories, and node_modules, are not searched)\n",
                cmd_validate_label, r->dir, why);
        diag_add(&v->dir_errors, DIAG_ERROR, NULL, r->dir, 0, 0, msg);
        free(msg);
        free(why);
        v->rf[v->nrf++] =
            (struct report_file){r->dir, NULL, DIAG_LIST_INIT, NULL, NULL, 0, NULL, 0};
    }
    /* the errors' addresses are stable only now that the list is complete */
    for (size_t i = n, e = 0; i < v->nrf; i++) v->rf[i].error = &v->dir_errors.items[e++];
    /* the config's unused and expired suppressions: findings in the config file itself */
    if (sr && cmd_validate_config_findings(o, v, sr, v->job.session_ran)) status = 1;
    free(ignored);
    return unreadable ? 2 : status;
}

int cmd_validate_config_findings(const struct validate_opts *o, struct validate_run *v,
                                 struct suppress_run *sr, int session_ran)
{
    int fails = 0;
    struct suppress_filter sf = {v->eo.enabled, v->eo.enabled_arg, v->eo.versions, session_ran};
    suppress_run_finish(sr, v->rs, &sf, &v->cfg_findings);
    suppress_run_free(sr);
    config_apply(o->cfg, o->cfg->path, &v->cfg_findings, cmd_rule_named, v->eo.enabled_arg);
    char *fp_name = fingerprint_file_from(v->cwd, v->anchor, o->cfg->path);
    fingerprint_diags(v->rs, NULL, v->cwd, fp_name, &v->cfg_findings);
    free(fp_name);
    if (v->baseline) baseline_apply(v->baseline, o->cfg->path, &v->cfg_findings);
    for (size_t k = 0; k < v->cfg_findings.len; k++)
        if (!o->never_fail && !diag_hidden(&v->cfg_findings.items[k]) &&
            v->cfg_findings.items[k].level >= o->fail_level)
            fails = 1;
    if (v->cfg_findings.len)
        v->rf[v->nrf++] =
            (struct report_file){o->cfg->path, NULL, v->cfg_findings, NULL, NULL, 1, NULL, 0};
    return fails;
}

/* Where the full report is, for the github format's closing notice: --full-report, else
 * the reports of the run other than SKIP that go to files ("sarif:out.sarif,
 * markdown:summary.md"), or NULL when none does (new). */
static char *elsewhere(const struct validate_opts *o, size_t skip)
{
    if (o->full_report) return xstrdup(o->full_report);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < o->outs.len; i++)
        if (i != skip && o->outs.items[i].file)
            buf_addf(&b, "%s%s:%s", b.len ? ", " : "", o->outs.items[i].fmt->name,
                     o->outs.items[i].file);
    if (b.len) return buf_detach(&b);
    buf_release(&b);
    return NULL;
}

/* Write one report, to standard output or to its file through a temporary file, renamed
 * when complete (never left half-written). 0, or 2 after a message. */
static int emit_one(const struct validate_opts *o, const struct validate_run *v, size_t which,
                    int quiet_level)
{
    const struct report_out *r = &o->outs.items[which];
    FILE *out = stdout;
    char *tmp = NULL, *target = NULL;
    int status = 0;
    if (r->file) {
        /* a symbolic link's target is written, the link kept (as fix does) */
        target = util_link_target(r->file);
        /* /dev/null and the like are written, never replaced by a renamed file */
        if (!util_write_in_place(target)) tmp = xasprintf("%s.tmp.%ld", target, (long)getpid());
        if (!(out = fopen(tmp ? tmp : target, "w"))) {
            fprintf(stderr, "mcpdesc %s: cannot write '%s': %s\n", cmd_validate_label, r->file,
                    strerror(errno));
            free(tmp);
            free(target);
            return 2;
        }
    }
    int tty = isatty(fileno(out));
    const char *no_color = getenv("NO_COLOR");
    int use_color = !strcmp(o->color, "always") ||
        (!strcmp(o->color, "auto") && tty && !(no_color && *no_color));
    char *others = elsewhere(o, which);
    const char *docs = cmd_docs_url(o->docs_url, o->cfg, v->rs);
    /* the command line's set ran instead of the config's rules: (the report says so) */
    int over_config = o->cfg && o->cfg->rules.len && (o->rules_dir || o->rules_tag);
    struct report_opts ro = {out,
                             v->rs,
                             quiet_level,
                             use_color,
                             tty,
                             o->preset,
                             o->cfg,
                             v->baseline,
                             o->fail_level,
                             o->never_fail,
                             others,
                             v->cwd,
                             docs,
                             over_config,
                             v->eo.enabled,
                             v->eo.enabled_arg,
                             v->eo.versions,
                             o->together,
                             o->diff};
    r->fmt->write(&ro, v->rf, v->nrf);
    free(others);
    if (r->file) {
        int write_failed = ferror(out); /* an error the final flush would not repeat */
        if (fclose(out) != 0 || write_failed || (tmp && rename(tmp, target) != 0)) {
            fprintf(stderr, "mcpdesc %s: cannot write '%s': %s\n", cmd_validate_label, r->file,
                    strerror(errno));
            if (tmp) unlink(tmp);
            status = 2;
        }
    } else {
        fflush(out);
    }
    free(tmp);
    free(target);
    return status;
}

/* Write every report (in the order given), then --timing. Returns STATUS, or 2 when a
 * report cannot be written (the others are still written). */
static int emit(const struct validate_opts *o, const struct validate_run *v, int status)
{
    /* -q shows what fails the run: errors, warnings too with --fail-on warning, ... */
    int quiet_level = !o->quiet                        ? 0
        : o->never_fail || o->fail_level == DIAG_ERROR ? 1
        : o->fail_level == DIAG_WARNING                ? 2
                                                       : 3;
    for (size_t i = 0; i < o->outs.len; i++)
        if (emit_one(o, v, i, quiet_level)) status = 2;
    if (v->rule_ns) print_timing(stderr, v->rs, v->rule_ns, (void *)&o->filt);
    return status;
}

static void run_release(struct validate_run *v)
{
    /* Large blocks before the documents' many small ones: a large block freed after
     * them makes malloc merge them all first (a tenth of a run over 5,000 files). The
     * normal build leaves the rule set to the kernel at exit, as the documents below
     * (a twentieth of a run on a small description). */
    if (UTIL_FREE_AT_EXIT) rule_set_free(v->rs);
    baseline_free(v->baseline);
    free((void *)v->rule_ns);
    free(v->rf);
    diag_list_release(&v->dir_errors);
    diag_list_release(&v->cfg_findings);
    for (size_t i = 0; i < v->job.n; i++) {
        /* the process exits next: freeing every value of a large document's tree only to
         * give the pages back costs a tenth of a run on 10,000 tools, so the normal build
         * leaves the trees to the kernel; the sanitizer builds free them (LeakSanitizer) */
        if (!UTIL_FREE_AT_EXIT) v->job.results[i].d = NULL;
        judge_result_release(&v->job.results[i]);
        free(v->files.items[i]);
    }
    free(v->job.results);
    for (size_t i = 0; i < v->old_files.len; i++) free(v->old_files.items[i]);
    VEC_FREE(v->old_files);
    free(v->dirs);
    VEC_FREE(v->files);
    free(v->ignored_reason);
    free(v->anchor);
    free(v->cwd);
}

/* The config PATH into O->cfg; 2 after its errors. Every mistake shows in one run: with
 * errors in its keys or values, its rule ids are checked too, against the rule set it
 * would run (when its `rules` is sound and that set loads), rather than in a second run
 * once the first errors are fixed. */
static int load_config(struct validate_opts *o, const char *path)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct config *c = config_read(path, &errs);
    if (c && !c->nerrors) {
        o->cfg = c;
        return 0;
    }
    struct rule_set *rs = NULL;
    if (c && !c->rules_bad) {
        rs = load_rule_set(o, c);
        if (rs) config_check(c, rs, &errs);
        diag_sort_merge(&errs);
    }
    cmd_print_errors(stderr, &errs);
    fprintf(stderr, "mcpdesc: the config %s has %zu error%s%s\n", path, errs.len,
            errs.len == 1 ? "" : "s",
            c && !rs && (c->levels.len || c->overrides.len || c->suppress.len)
                ? " (its rule ids are checked once its rule set loads)"
                : "");
    rule_set_free(rs);
    diag_list_release(&errs);
    config_free(c);
    return 2;
}

/* validate, or with THEN the judged files handed to THEN instead of a report (with
 * BASELINE_OUT, the baseline it writes). */
static int run(int argc, char **argv, cmd_judged_fn then, void *then_arg, const char *baseline_out,
               const struct cmd_validate_mode *mode)
{
    struct validate_opts o = {
        .then = then, .then_arg = then_arg, .diff = mode != NULL, .mode = mode};
    int status = parse_options(argc, argv, &o);
    if (!status && mode) status = mode->check_options(&o);
    char *cfg_path = NULL;
    if (!status) status = cmd_config_find(o.config_file, o.no_config, &cfg_path);
    if (!status && cfg_path) status = load_config(&o, cfg_path);
    free(cfg_path);
    if (!status) status = settle_options(&o);
    if (!status) {
        struct validate_run v = {0};
        /* Fingerprints name files relative to the baseline's directory (the one written
         * or read), else the config's, else the working directory: a baseline holds
         * wherever CI runs from (docs/ci.md). */
        const char *bl = baseline_out ? baseline_out : o.baseline;
        v.cwd = getcwd(NULL, 0);
        v.anchor = bl && strcmp(bl, "-") ? fingerprint_anchor(v.cwd, bl)
            : o.cfg                      ? xstrdup(o.cfg->dir)
                                         : NULL;
        status = prepare(&o, &v);
        if (!status) {
            status = mode ? mode->judge_inputs(&o, &v) : judge_inputs(&o, &v);
            struct cmd_judged_run jr = {&v.eo, o.cfg, v.today, v.cwd};
            status = then ? then(v.rs, v.rf, v.nrf, status, v.anchor, &jr, then_arg)
                          : emit(&o, &v, status);
        }
        run_release(&v);
    }
    opts_release(&o);
    return status == -1 ? 0 : status;
}

void cmd_validate_filter(const struct cmd_judged_run *run, const struct rule_set *rs,
                         const struct doc *d, const char *file, struct diag_list *l)
{
    const struct eval_options *eo = run->eo;
    struct suppress_filter sf = {eo->enabled, eo->enabled_arg, eo->versions, 0};
    suppress_inline(rs, d, file, l, run->today, &sf);
    if (!run->cfg) return;
    config_apply(run->cfg, file, l, cmd_rule_named, eo->enabled_arg);
    if (run->cfg->suppress.len) {
        struct suppress_run *sr = suppress_run_new(run->cfg, run->today);
        suppress_run_apply(sr, rs, file, d, l);
        suppress_run_free(sr);
    }
}

int cmd_validate(int argc, char **argv)
{
    cmd_validate_label = "validate";
    return run(argc, argv, NULL, NULL, NULL, NULL);
}

int cmd_validate_run(const char *label, const struct cmd_validate_mode *mode, int argc, char **argv)
{
    cmd_validate_label = label;
    return run(argc, argv, NULL, NULL, NULL, mode);
}

int cmd_validate_then(const char *cmd, int argc, char **argv, cmd_judged_fn then, void *arg,
                      const char *baseline_out)
{
    cmd_validate_label = cmd;
    return run(argc, argv, then, arg, baseline_out, NULL);
}
