/* baseline.h - a baseline: the findings of a run recorded in a file (`mcpdesc baseline
 * write`), so that a later `validate --baseline FILE` reports only the new ones and lists
 * the recorded ones that are gone. Findings are matched by their fingerprint
 * (fingerprint.h), which survives reordering and insertions; a fingerprint recorded
 * twice matches two findings.
 *
 * The file is JSON, written in a stable order (by file, item, pointer, rule, then
 * fingerprint and message), so that it can be reviewed and diffed:
 *   {"mcpdescBaseline": 1, "mcpdesc": VERSION, "rules": {name, tag, derivedFrom,
 *    modified, digest}, "findings": [{fingerprint, rule, file, item, pointer, versions,
 *    level, message}, ...]}
 * Only fingerprint, rule, file, item, pointer, versions, level and message of the
 * findings are read back; "mcpdesc" and "rules" say what wrote it. */
#ifndef MCPDESC_BASELINE_H
#define MCPDESC_BASELINE_H

#include <stddef.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "findings/report_tools.h"
#include "rules/rule.h"

/* The format version in "mcpdescBaseline". */
#define BASELINE_FORMAT 1

struct baseline_entry {
    char *fingerprint, *rule, *file, *item, *pointer, *level, *message; /* owned */
    char **versions;                                                    /* owned, NULL-terminated */
    int used;   /* matched by a finding of this run */
    int judged; /* its file was judged in this run */
};

struct baseline {
    char *path;   /* as given */
    char *anchor; /* the directory files are named relative to (fingerprint_anchor) */
    char *cwd;    /* the working directory of the run (baseline_load), or NULL */
    struct baseline_entry *entries;
    size_t n;
    size_t *by_fp;           /* entry indexes sorted by fingerprint (then position) */
    size_t nnew, nunchanged; /* findings of this run (baseline_apply), suppressed included */
};

/* Load PATH, in a run whose working directory is CWD (NULL: unknown). Returns a new baseline, or NULL with *ERR filled (a message, and the line
 * and column of the offending value when there is one). */
struct baseline *baseline_load(const char *path, const char *cwd, struct doc_error *err);
void baseline_free(struct baseline *b);
/* Mark every diagnostic of FILE (its name in the report: normalised as fingerprints
 * normalise it) DIAG_BASELINE_UNCHANGED when an unused entry has its fingerprint (the
 * entry is then used), else DIAG_BASELINE_NEW. A suppressed finding is marked and uses its
 * entry too: nnew and nunchanged count exactly the findings marked new and unchanged,
 * suppressed ones included. Call it for the files in
 * report order. */
void baseline_apply(struct baseline *b, const char *file, struct diag_list *l);
/* The entries no finding matched, of files judged in this run: the findings that are gone
 * (baseline_apply must have seen every judged file). */
size_t baseline_absent(const struct baseline *b);
int baseline_entry_absent(const struct baseline_entry *e);
/* E's file as the report names files: relative to the working directory (the baseline
 * names it relative to its own directory). New string. */
char *baseline_entry_path(const struct baseline *b, const struct baseline_entry *e);

/* Write the baseline of FILES (N of them, judged by RS; only files with a document, the
 * suppressed findings left out) to PATH ("-": standard output) through a temporary file
 * renamed when complete. Files are named relative to ANCHOR (fingerprint_file_from: the
 * directory of PATH, else the config's, else NULL; CWD the working directory), as the
 * findings' fingerprints were.
 * Returns the number of findings written, or -1 with errno set (nothing is left behind). */
long baseline_write(const char *path, const char *anchor, const char *cwd,
                    const struct rule_set *rs, const struct report_file *files, size_t n);

#endif
