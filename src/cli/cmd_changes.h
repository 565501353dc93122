/* cmd_changes.h - what an engine change did to a release's findings (docs/releases.md,
 * "Findings records and changes logs"): beside a release directory NAME@TAG/ sit its
 * findings record NAME@TAG.findings (first line "# findings of NAME@TAG on its
 * conformance/: mcpdesc VERSION, changes N") and its changes log NAME@TAG.changes (one
 * entry per engine change that altered those findings, each starting with a line
 * "## YYYY-MM-DD, mcpdesc VERSION: what changed", newest last). `mcpdesc rules changes`
 * prints them; a run pinned to a tag whose log has entries notes the newest. */
#ifndef MCPDESC_CMD_CHANGES_H
#define MCPDESC_CMD_CHANGES_H

#include <stddef.h>

struct cmd_changes {
    char *release;           /* the release directory NAME@TAG (no trailing slash) */
    char *log;               /* RELEASE.changes, its text (NULL: there is no log) */
    size_t entries;          /* its "## " lines */
    char *newest;            /* the last of them, without "## " (NULL: no entry) */
    const char *first_entry; /* where the first entry starts in LOG (NULL: none) */
    char *engine;            /* the engine version of RELEASE.findings (NULL: no record) */
    long taken;              /* the record's "changes N" (-1: no record) */
};
/* Read the log and record beside the release whose rules directory (NAME@TAG/rules, as
 * release_find gives it) is RULES_DIR. */
void cmd_changes_read(const char *rules_dir, struct cmd_changes *c);
void cmd_changes_release(struct cmd_changes *c);
/* For a run pinned to SPEC ("TAG" or "NAME@TAG"; a bare TAG is DEFAULT_NAME@TAG): when
 * the release found on the release search path has a changes log with entries, one line
 * on stderr naming the newest and how many there are. Nothing otherwise. */
void cmd_changes_note(const char *spec, const char *default_name);
/* `mcpdesc rules changes NAME@TAG`: 0, or 2 after a message. */
int cmd_changes_print(const char *spec);

#endif
