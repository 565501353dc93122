/* cmd_validate.c - `mcpdesc validate`: load the rule set once, judge every input
 * (files; directories, searched for *.json, *.yaml and *.yml with an mcpDescription
 * member; "-" for standard input, JSON or YAML), write one report.
 * Exit 0: all judged, nothing at or above --fail-on; 1: something is; 2: bad usage, an
 * unreadable or unparsable input, a directory without a description, a
 * --protocol-version that selects none of a document's versions, or a rule set that
 * cannot be loaded. No run ends green without judging something. */
#include <ctype.h>
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
#include "cli/cmd_common.h"
#include "core/eval.h"
#include "core/lock.h"
#include "core/report.h"
#include "base/util.h"

static const char *const options[] = {"--rules", "--rules-tag", "--format", "--protocol-version",
                                      "--rule", "--skip", "--fail-on", "--color", "--output",
                                      "--jobs", "--quiet", "--timing", "--stdin-filepath", "--help",
                                      NULL};

static void usage(FILE *f)
{
    fputs("usage: mcpdesc validate [OPTIONS] FILE|DIR|- ...\n"
          "\n"
          "Check MCP Description documents against the rule set. A file named on the\n"
          "command line is always judged. A directory is searched for *.json, *.yaml and\n"
          "*.yml files (recursively, in name order, not following links to directories,\n"
          "leaving out hidden files and directories and node_modules): those whose top\n"
          "level has an mcpDescription member are judged, the others are skipped and\n"
          "counted in the summary, and one that cannot be parsed is an input error. A\n"
          "directory with no description in it is an input error. - reads standard input,\n"
          "JSON or YAML (by content). One report covers every input; a file that cannot\n"
          "be parsed is reported and the others are still judged.\n"
          "\n"
          "  --rules DIR              rule set to load (default: $MCPDESC_RULES, else the build\n"
          "                           tree's rules-yaml/, else the installed one)\n"
          "  --rules-tag TAG          refuse to run unless the rule set is the one locked as TAG\n"
          "  --format FORMAT          text (default), json, sarif (SARIF 2.1.0 for code\n"
          "                           scanning), github (GitHub Actions annotations)\n"
          "  --protocol-version V     judge only these versions (repeatable); a document\n"
          "                           that lists none of them is an input error\n"
          "  --rule GLOB              run only matching rule ids (repeatable)\n"
          "  --skip GLOB              never run matching rule ids (repeatable)\n"
          "  --fail-on LEVEL          error (default), warning, info or never: the lowest level\n"
          "                           that makes the exit status 1\n"
          "  --color WHEN             auto (default: colour on a terminal unless NO_COLOR is\n"
          "                           set), always, never\n"
          "  --stdin-filepath NAME    name standard input NAME in the report (default\n"
          "                           <stdin>); a .json, .yaml or .yml ending picks the\n"
          "                           parser; with no input given, - is implied\n"
          "  -o, --output FILE        write the report to FILE (through a temporary file,\n"
          "                           renamed when complete: never left half-written)\n"
          "  -j, --jobs N             judge N files at a time (default: one per online CPU);\n"
          "                           the report is the same for every N\n"
          "  -q, --quiet              print only findings at or above --fail-on (only errors\n"
          "                           with --fail-on never); the summary counts them all\n"
          "      --timing             after the report, print to standard error the time\n"
          "                           spent on each rule, slowest first\n"
          "\n"
          "Exit status: 0 nothing at or above --fail-on, 1 something is, 2 bad usage, an\n"
          "input that cannot be read or parsed, a directory without a description, a\n"
          "--protocol-version that selects none of a document's versions, or a rule set\n"
          "that cannot be loaded.\n",
          f);
}

struct filters {
    VEC(const char *) only;
    VEC(const char *) skip;
};

static int rule_enabled(const char *id, void *arg)
{
    const struct filters *f = arg;
    if (!id) return 1;
    for (size_t i = 0; i < f->skip.len; i++)
        if (!fnmatch(f->skip.items[i], id, 0)) return 0;
    if (!f->only.len) return 1;
    for (size_t i = 0; i < f->only.len; i++)
        if (!fnmatch(f->only.items[i], id, 0)) return 1;
    return 0;
}

static int glob_matches_a_rule(const struct rule_set *rs, const char *glob)
{
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (!fnmatch(glob, rule_id(rule_set_rule(rs, i)), 0)) return 1;
    for (size_t i = 0; i < res_nbuiltins; i++)
        if (!fnmatch(glob, res_builtins[i].id, 0)) return 1;
    return 0;
}

struct strvec {
    char **items;
    size_t len, cap;
};

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
        char *path = !strcmp(dir, "/") ? xasprintf("/%s", names.items[i])
                                       : xasprintf("%s/%s", dir, names.items[i]);
        struct stat st = {0};   /* stays zero when lstat fails: loading reports why */
        int wanted = has_description_suffix(names.items[i]);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (strcmp(names.items[i], "node_modules")) walk_dir(path, out, depth + 1);
            free(path);
        } else if (wanted && !(S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
            VEC_PUSH(*out, path);
        } else {
            free(path);
        }
        free(names.items[i]);
    }
    VEC_FREE(names);
}

static struct diag *file_error(const char *name, uint32_t line, uint32_t col, const char *msg)
{
    struct diag *d = xcalloc(1, sizeof *d);
    d->level = DIAG_ERROR;
    d->file = xstrdup(name);
    d->line = line;
    d->col = col;
    d->message = xstrdup(msg);
    return d;
}

/* The top-level member that makes a file found in a directory a description. */
#define DESCRIPTION_MEMBER "mcpDescription"
#define SKIP_REASON "no " DESCRIPTION_MEMBER " member"

/* Is ROOT, from a file found in a directory, to be judged? Yes when it is an object
 * with an mcpDescription member, or with a member that looks like a misspelling of it
 * (letter case aside, at most two edits: "mcpDescripton", "mcp_description"), so that
 * the description-format rule reports the typo instead of the file being skipped. */
static int is_description(json_t *root)
{
    if (!json_is_object(root)) return 0;
    if (json_object_get(root, DESCRIPTION_MEMBER)) return 1;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        char low[32];
        size_t n = strlen(key);
        if (n >= sizeof low || n + 2 < sizeof DESCRIPTION_MEMBER - 1) continue;
        for (size_t k = 0; k <= n; k++) low[k] = (char)tolower((unsigned char)key[k]);
        if (util_edit_distance(low, "mcpdescription") <= 2) return 1;
    }
    return 0;
}

/* With --protocol-version: does the selection meet the versions D lists (its
 * protocolVersions member, read as the resolver reads it: absent or not an array means
 * every known version)? If not, the reason, at the member's position. */
static char *versions_selected(const struct rule_set *rs, const doc *d, ver_mask want,
                               struct doc_pos *pos)
{
    const struct ver_list *vl = rule_set_versions(rs);
    const char *member = rule_set_res_config(rs)->versions_member;
    json_t *pv = json_object_get(doc_root(d), member);
    if (!want || !json_is_array(pv)) return NULL;
    ver_mask listed = 0;
    size_t i;
    json_t *e;
    json_array_foreach(pv, i, e) {
        int k = json_is_string(e) ? ver_index(vl, json_string_value(e)) : -1;
        if (k >= 0) listed |= (ver_mask)1 << k;
    }
    if (listed & want) return NULL;
    struct buf sel = BUF_INIT, has = BUF_INIT;
    ver_format(&sel, vl, want, ", ");
    if (listed) ver_format(&has, vl, listed, ", ");
    else buf_adds(&has, json_array_size(pv) ? "none known" : "none");
    char *why = xasprintf("--protocol-version %s selects none of the protocol versions the "
                          "document lists (%s): nothing would be judged",
                          buf_str(&sel), buf_str(&has));
    buf_release(&sel);
    buf_release(&has);
    char *pointer = xasprintf("/%s", member);
    if (doc_pointer_pos(d, pointer, pos, NULL) < 0) *pos = (struct doc_pos){1, 1};
    free(pointer);
    return why;
}

/* The files to judge, shared by the workers: each takes the next index and fills that
 * file's slot, so the report (written after all are done) is the same for any -j. */
struct job {
    const struct rule_set *rs;        /* read only, loaded once */
    const struct eval_options *eo;
    char **files;
    const unsigned char *from_dir;    /* found by a directory search: may be skipped */
    const char *stdin_name;           /* how "-" is called in the report */
    struct report_file *rf;
    doc **docs;
    size_t n;
    atomic_size_t next;
};

static void judge_file(struct job *j, size_t i)
{
    struct report_file *rf = &j->rf[i];
    const char *name = j->files[i];
    int is_stdin = !strcmp(name, "-");
    rf->name = is_stdin ? j->stdin_name : name;
    struct doc_error err;
    j->docs[i] = is_stdin ? cmd_load_stdin(rf->name, &err) : doc_load_file(name, NULL, &err);
    if (!j->docs[i]) {
        rf->error = file_error(rf->name, err.line, err.col, err.message);
        doc_error_release(&err);
        return;
    }
    if (j->from_dir[i] && !is_description(doc_root(j->docs[i]))) {
        rf->skipped = SKIP_REASON;
        doc_free(j->docs[i]);
        j->docs[i] = NULL;
        return;
    }
    if (!json_is_object(doc_root(j->docs[i]))) {
        rf->error = file_error(rf->name, 1, 1,
                               "an MCP Description must be a JSON object with \"mcpDescription\"");
        return;
    }
    struct doc_pos pos;
    char *why = versions_selected(j->rs, j->docs[i], j->eo->versions, &pos);
    if (why) {
        rf->error = file_error(rf->name, pos.line, pos.col, why);
        free(why);
        return;
    }
    rf->d = j->docs[i];
    eval_document(j->rs, j->docs[i], j->eo, &rf->diags);
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
                rule_enabled(id, filt) ? "" : "  (yield only)");
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
        fprintf(stderr, "mcpdesc validate: --jobs takes a number from 1 to 1024, not '%s'\n", v);
        return 0;
    }
    return n;
}

int cmd_validate(int argc, char **argv)
{
    const char *rules_dir = NULL, *rules_tag = NULL, *format = "text", *fail_on = "error";
    const char *color = "auto", *output = NULL, *stdin_name = NULL;
    int quiet = 0, timing = 0, status = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    struct filters filt = {VEC_INIT, VEC_INIT};
    VEC(const char *) versions = VEC_INIT;
    VEC(char *) inputs = VEC_INIT;
    int only_args = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
#define OPT(name) (!strcmp(a, name) || (!strncmp(a, name "=", sizeof(name)) && a[sizeof(name) - 1] == '='))
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            VEC_PUSH(inputs, xstrdup(a));
        } else if (!strcmp(a, "--")) {
            only_args = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            status = -1;
            goto done;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "--timing")) {
            timing = 1;
        } else if (OPT("--rules")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules"))) goto usage_error;
            rules_dir = v;
        } else if (OPT("--rules-tag")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules-tag"))) goto usage_error;
            rules_tag = v;
        } else if (OPT("--format")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--format"))) goto usage_error;
            format = v;
        } else if (OPT("--protocol-version")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--protocol-version"))) goto usage_error;
            VEC_PUSH(versions, v);
        } else if (OPT("--rule")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rule"))) goto usage_error;
            VEC_PUSH(filt.only, v);
        } else if (OPT("--skip")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--skip"))) goto usage_error;
            VEC_PUSH(filt.skip, v);
        } else if (OPT("--stdin-filepath")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--stdin-filepath"))) goto usage_error;
            if (!*v) {
                fprintf(stderr, "mcpdesc validate: --stdin-filepath needs a name\n");
                goto usage_error;
            }
            stdin_name = v;
        } else if (OPT("--fail-on")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--fail-on"))) goto usage_error;
            fail_on = v;
        } else if (OPT("--color")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--color"))) goto usage_error;
            color = v;
        } else if (!strcmp(a, "-j") || OPT("--jobs")) {
            if (!(v = cmd_option_value(argc, argv, &i, a[1] == 'j' ? "-j" : "--jobs"))) goto usage_error;
            if (!(jobs = parse_jobs(v))) goto usage_error;
        } else if (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9') {
            if (!(jobs = parse_jobs(a + 2))) goto usage_error;
        } else if (!strcmp(a, "-o") || OPT("--output")) {
            if (!(v = cmd_option_value(argc, argv, &i, a[1] == 'o' ? "-o" : "--output"))) goto usage_error;
            output = v;
        } else {
            cmd_unknown_option("validate", a, options);
            goto usage_error;
        }
#undef OPT
    }
    const struct report_format *fmt = report_find(format);
    if (!fmt) {
        fprintf(stderr, "mcpdesc validate: unknown format '%s' (use one of: %s)\n", format, report_names());
        goto usage_error;
    }
    enum diag_level fail_level = DIAG_ERROR;
    int never_fail = !strcmp(fail_on, "never");
    if (!never_fail && diag_level_parse(fail_on, &fail_level) < 0) {
        fprintf(stderr, "mcpdesc validate: --fail-on takes error, warning, info or never, not '%s'\n", fail_on);
        goto usage_error;
    }
    if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
        fprintf(stderr, "mcpdesc validate: --color takes auto, always or never, not '%s'\n", color);
        goto usage_error;
    }
    size_t dashes = 0;
    for (size_t i = 0; i < inputs.len; i++) dashes += !strcmp(inputs.items[i], "-");
    if (stdin_name && !inputs.len) {
        VEC_PUSH(inputs, xstrdup("-")); /* like prettier and ruff: the name implies stdin */
        dashes = 1;
    }
    if (!inputs.len) {
        fprintf(stderr, "mcpdesc validate: no input (give files, directories, or - for standard input)\n");
        goto usage_error;
    }
    if (dashes > 1) {
        fprintf(stderr, "mcpdesc validate: '-' is given twice (standard input can be read only once)\n");
        goto usage_error;
    }
    if (stdin_name && !dashes) {
        fprintf(stderr, "mcpdesc validate: --stdin-filepath names standard input, but '-' is not "
                        "among the inputs\n");
        goto usage_error;
    }

    struct rule_set *rs = cmd_load_rules(rules_dir);
    if (!rs) {
        status = 2;
        goto done;
    }
    if (rules_tag && lock_verify(rs, rules_tag, stderr) < 0) {
        rule_set_free(rs);
        status = 2;
        goto done;
    }
    struct eval_options eo = {0, rule_enabled, &filt, NULL};
    for (size_t i = 0; i < versions.len; i++) {
        int k = ver_index(rule_set_versions(rs), versions.items[i]);
        if (k < 0) {
            struct buf known = BUF_INIT;
            ver_format(&known, rule_set_versions(rs), ver_all(rule_set_versions(rs)), ", ");
            fprintf(stderr, "mcpdesc validate: unknown protocol version '%s' (known: %s)\n",
                    versions.items[i], buf_str(&known));
            buf_release(&known);
            rule_set_free(rs);
            goto usage_error;
        }
        eo.versions |= (ver_mask)1 << k;
    }
    for (size_t i = 0; i < filt.only.len + filt.skip.len; i++) {
        const char *g = i < filt.only.len ? filt.only.items[i] : filt.skip.items[i - filt.only.len];
        if (!glob_matches_a_rule(rs, g)) {
            fprintf(stderr, "mcpdesc validate: '%s' matches no rule id (see mcpdesc rules list)\n", g);
            rule_set_free(rs);
            goto usage_error;
        }
    }

    /* Expand directories; keep command-line order otherwise. The files of a directory
     * are contiguous: DIRS remembers each one's range, to tell one without a
     * description. */
    struct strvec files = VEC_INIT;
    struct dir_range {
        const char *dir;
        size_t begin, end;
    };
    VEC(struct dir_range) dirs = VEC_INIT;
    for (size_t i = 0; i < inputs.len; i++) {
        struct stat st;
        if (strcmp(inputs.items[i], "-") && stat(inputs.items[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            struct dir_range r = {inputs.items[i], files.len, 0};
            walk_dir(inputs.items[i], &files, 0);
            r.end = files.len;
            VEC_PUSH(dirs, r);
        } else {
            VEC_PUSH(files, xstrdup(inputs.items[i]));
        }
    }
    size_t nf = files.len ? files.len : 1;
    struct report_file *rf = xcalloc(nf, sizeof *rf);
    doc **docs = xcalloc(nf, sizeof *docs);
    unsigned char *from_dir = xcalloc(nf, 1);
    for (size_t k = 0; k < dirs.len; k++)
        memset(from_dir + dirs.items[k].begin, 1, dirs.items[k].end - dirs.items[k].begin);
    _Atomic uint64_t *rule_ns = NULL;
    if (timing) {
        rule_ns = xcalloc(rule_set_count(rs) + 1, sizeof *rule_ns);
        for (size_t i = 0; i <= rule_set_count(rs); i++) atomic_init(&rule_ns[i], 0);
        eo.rule_ns = rule_ns;
    }
    struct job job = {rs, &eo, files.items, from_dir, stdin_name ? stdin_name : "<stdin>", rf, docs,
                      files.len, 0};
    judge_all(&job, jobs);
    int unreadable = 0;
    for (size_t i = 0; i < files.len; i++) {
        if (rf[i].error) unreadable = 1;
        for (size_t k = 0; k < rf[i].diags.len; k++) {
            struct diag *d = &rf[i].diags.items[k];
            if (!never_fail && d->level >= fail_level) status = 1;
        }
    }
    /* A directory that holds nothing judged would pass for a clean one. */
    for (size_t k = 0; k < dirs.len; k++) {
        const struct dir_range *r = &dirs.items[k];
        size_t found = r->end - r->begin, judged = 0;
        for (size_t i = r->begin; i < r->end; i++) judged += !rf[i].skipped;
        if (judged) continue;
        unreadable = 1;
        fprintf(stderr, "mcpdesc validate: no MCP Description under '%s': ", r->dir);
        if (!found) fprintf(stderr, "no *.json, *.yaml or *.yml file below it");
        else
            fprintf(stderr, "%zu *.json, *.yaml or *.yml file%s below it, none with a top-level "
                            DESCRIPTION_MEMBER " member", found, found == 1 ? "" : "s");
        fprintf(stderr, " (hidden files and directories, and node_modules, are not searched)\n");
    }
    if (unreadable) status = 2;
    /* -q shows what fails the run: errors, warnings too with --fail-on warning, ... */
    int quiet_level = !quiet ? 0 : never_fail || fail_level == DIAG_ERROR ? 1
                                 : fail_level == DIAG_WARNING            ? 2
                                                                         : 3;

    FILE *out = stdout;
    char *tmp = NULL;
    if (output) {
        tmp = xasprintf("%s.tmp.%ld", output, (long)getpid());
        out = fopen(tmp, "w");
        if (!out) {
            fprintf(stderr, "mcpdesc validate: cannot write '%s': %m\n", output);
            status = 2;
            out = NULL;
        }
    }
    if (out) {
        int tty = isatty(fileno(out));
        const char *no_color = getenv("NO_COLOR");
        int use_color = !strcmp(color, "always") ||
                        (!strcmp(color, "auto") && tty && !(no_color && *no_color));
        struct report_opts ro = {out, rs, quiet_level, use_color, tty};
        fmt->write(&ro, rf, files.len);
        if (output) {
            int write_failed = ferror(out); /* an error the final flush would not repeat */
            if (fclose(out) != 0 || write_failed || rename(tmp, output) != 0) {
                fprintf(stderr, "mcpdesc validate: cannot write '%s': %m\n", output);
                unlink(tmp);
                status = 2;
            }
        } else {
            fflush(out);
        }
    }
    free(tmp);
    if (rule_ns) {
        print_timing(stderr, rs, rule_ns, &filt);
        free((void *)rule_ns);
    }
    /* Large blocks before the documents' many small ones: a large block freed after
     * them makes malloc merge them all first (a tenth of a run over 5,000 files). */
    rule_set_free(rs);
    for (size_t i = 0; i < files.len; i++) {
        diag_list_release(&rf[i].diags);
        if (rf[i].error) {
            diag_clear(rf[i].error);
            free(rf[i].error);
        }
        free(files.items[i]);
    }
    free(rf);
    free(from_dir);
    VEC_FREE(dirs);
    VEC_FREE(files);
    for (size_t i = 0; i < job.n; i++) doc_free(docs[i]);
    free(docs);
    goto done;

usage_error:
    status = 2;
done:
    for (size_t i = 0; i < inputs.len; i++) free(inputs.items[i]);
    VEC_FREE(inputs);
    VEC_FREE(versions);
    VEC_FREE(filt.only);
    VEC_FREE(filt.skip);
    return status < 0 ? 0 : status;
}
