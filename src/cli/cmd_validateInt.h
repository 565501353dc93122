/* cmd_validateInt.h - what `validate` and the commands that judge through its options
 * and reports share (cmd_validate.c; cmd_diff.c: `mcpdesc diff`, which judges pairs of
 * inputs instead of single ones): the options, the run, the job of the workers. For the
 * files of cli/ only. */
#ifndef MCPDESC_CMD_VALIDATEINT_H
#define MCPDESC_CMD_VALIDATEINT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cmd_common.h"
#include "findings/baseline.h"
#include "findings/report.h"
#include "judge/judge.h"

struct cmd_validate_mode;

struct strvec {
    char **items;
    size_t len, cap;
};

/* The files to judge, shared by the workers: each takes the next index and fills that
 * file's slot, so the report (written after all are done) is the same for any -j. */
struct job {
    const struct rule_set *rs; /* read only, loaded once */
    const struct eval_options *eo;
    const struct config *cfg;     /* its levels are applied to each file's findings */
    const unsigned char *ignored; /* found by a directory search, left out by `ignore` */
    const char *ignored_reason;   /* "ignored by CONFIG" */
    char **files;
    const unsigned char *from_dir; /* found by a directory search: may be skipped */
    int strict_inputs;             /* --strict-inputs (judge_options) */
    const char *stdin_name;        /* how "-" is called in the report */
    const char *today;             /* YYYY-MM-DD: suppressions' until (suppress.h) */
    const char *anchor; /* fingerprints name files relative to it (fingerprint_file_from) */
    const char *cwd;    /* the working directory, asked once per run (validate_run) */
    struct judge_result *results;
    size_t n;
    atomic_size_t next;
    int together;    /* --together: finish_file waits for the session rules */
    int session_ran; /* ... and they ran: two servers or more (suppress_filter.session) */
    /* the config's suppressions, applied as each file is finished (under SR_LOCK: whether
     * an entry is used is decided over every file) */
    struct suppress_run *sr;
    pthread_mutex_t sr_lock;
    /* once finished, a file's document keeps only what the reports print (doc_shed): the
     * run's memory stays flat in the number of files; 0 when a step after the report
     * needs the documents (baseline write) */
    int shed;
};

/* One report of the run: a format and its file (NULL: standard output). */
struct report_out {
    const struct report_format *fmt;
    const char *file;
    char *owned; /* FILE when made here (a config's, relative to the config) */
};

/* What the command line asks for (parse_options), then the config (settle_options). */
struct validate_opts {
    const char *rules_dir, *rules_tag, *color, *output, *stdin_name;
    const char *fail_on;       /* as given, NULL when not given */
    VEC(const char *) formats; /* --format FORMAT[:FILE], as given */
    const char *config_file;   /* --config FILE */
    int no_config;             /* --no-config */
    struct config *cfg;        /* the config of the run, or NULL */
    char *output_owned;        /* the config's output, relative to the config */
    const char *preset_arg;    /* --preset as given, NULL when not given */
    enum rule_preset preset;   /* --preset, else the config's, else recommended */
    const char *baseline;      /* --baseline FILE, else the config's baseline */
    char *baseline_owned;      /* the config's baseline, relative to the config */
    const char *full_report;   /* --full-report WHERE: the github notice names it */
    const char *docs_url;      /* --docs-url URL: the rule pages */
    /* `baseline write` (cmd_validate_then): the step that takes the judged files instead
     * of the report, and its argument */
    cmd_judged_fn then;
    void *then_arg;
    /* the reports to write: the --format values, else the config's, else text; at most
     * one with no file (standard output, or -o / the config's output) */
    VEC(struct report_out) outs;
    enum diag_level fail_level;
    int never_fail; /* --fail-on never */
    int quiet, timing;
    int strict_inputs;     /* --strict-inputs: a found file that does not parse is an error */
    int only_descriptions; /* --only-descriptions: named files are judged as found ones */
    int together;          /* --together: judge the inputs also as one client session */
    int together_config;   /* ... because the config says together: true (not the option) */
    int diff;              /* mcpdesc diff: the inputs are OLD and NEW (cmd_diff.c) */
    const struct cmd_validate_mode *mode; /* diff's usage, checks, rules and judging */
    long jobs;
    struct cmd_filters filt;
    VEC(const char *) versions; /* --protocol-version, as given */
    VEC(char *) inputs;         /* files, directories and "-", in order */
};

/* The inputs once directories are expanded, and what judging them gave. */
struct validate_run {
    struct rule_set *rs;
    char *anchor; /* fingerprints name files relative to it (run) */
    char *cwd;    /* the working directory (NULL: unknown), asked once here for the run */
    struct eval_options eo;
    _Atomic uint64_t *rule_ns; /* --timing */
    struct strvec files;       /* command-line order; a directory's files together */
    struct dir_range {
        const char *dir;
        size_t begin, end; /* its files in FILES */
    } * dirs;
    size_t ndirs;
    struct job job;
    struct report_file *rf; /* the report's view of job.results, then one entry per
                                       * directory in which no description was found */
    size_t nrf;
    struct diag_list dir_errors;   /* those directories' errors (rf points into it) */
    char *ignored_reason;          /* "ignored by CONFIG" (skipped files point at it) */
    struct baseline *baseline;     /* --baseline */
    char today[11];                /* suppress_today */
    struct diag_list cfg_findings; /* the config's own: unused or expired suppressions */
    struct strvec old_files;       /* diff: the OLD side's name of each pair (rf.old_name) */
};

/* The command the messages name: validate, diff, or the one that judges through it. */
extern const char *cmd_validate_label;

struct suppress_run;
/* After every input: the config's unused and expired suppressions of SR (freed here) as
 * findings in the config file itself, with the config's levels, fingerprints and the
 * baseline applied, added to V's report files; SESSION_RAN as for suppress_filter.
 * Returns 1 when one is at or above --fail-on. */
int cmd_validate_config_findings(const struct validate_opts *o, struct validate_run *v,
                                 struct suppress_run *sr, int session_ran);

/* A command that runs validate's options and reports over other inputs (diff): its
 * usage, its checks of the options once parsed (2 after a message, else 0), its rule set
 * (NULL after messages), and the judging that fills V as validate's judge_inputs does
 * (returns the status so far: 0, 1, 2). */
struct cmd_validate_mode {
    void (*usage)(FILE *f);
    int (*check_options)(const struct validate_opts *o);
    struct rule_set *(*load_rules)(const struct validate_opts *o);
    int (*judge_inputs)(const struct validate_opts *o, struct validate_run *v);
};
/* validate's run for the command LABEL, in MODE. */
int cmd_validate_run(const char *label, const struct cmd_validate_mode *mode, int argc,
                     char **argv);

#endif
