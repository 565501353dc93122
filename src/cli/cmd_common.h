/* cmd_common.h - what the command families share: finding and loading the rule set,
 * printing loader errors, option suggestions. */
#ifndef MCPDESC_CMD_COMMON_H
#define MCPDESC_CMD_COMMON_H

#include <stdio.h>

#include "findings/config.h"
#include "base/diag.h"
#include "base/util.h"
#include "rules/release.h"
#include "rules/rule.h"

/* The shipped set's name: a bare --rules-tag TAG means CMD_DEFAULT_SET@TAG. */
#define CMD_DEFAULT_SET "mcpdesc-mcp"

/* The rule set directory: DIR if given, else $MCPDESC_RULES, else rules-yaml/ of the
 * build tree the binary runs from, else ../share/mcpdesc/rules beside the binary's
 * directory, else the installed one (MCPDESC_DATADIR/rules). A release directory
 * (NAME@TAG/) stands for its rules/. Returns new memory. */
char *cmd_common_rules_dir(const char *given);
/* The same, and *WHY says where it came from (static text): "given", "$MCPDESC_RULES",
 * "the default: the build tree's rules-yaml/" or "the default: the installed set". */
char *cmd_common_rules_dir_why(const char *given, const char **why);
/* Does DIR hold a rule-set manifest: a manifest.yaml that parses as YAML and has the
 * members schema/manifest.schema.json requires (name, tag, files), not any file of that
 * name? 1 and its name and tag (new; NAME or TAG may be NULL), else 0. */
int cmd_rule_manifest(const char *dir, char **name, char **tag);
/* The same test on a manifest already parsed (M may be NULL: 0): for a command that has
 * the program's manifest (rule_set_manifest_doc) and must not read the file again. */
int cmd_manifest_names(const doc *m, char **name, char **tag);
/* The rules commands' own set (rules lint, test, explain, docs, list with no DIR): the
 * nearest folder, from the working directory up to the folder that holds .git (the
 * working directory alone outside a repository), that holds a rule-set manifest or is a
 * release directory NAME@TAG/ whose rules/ holds one. New, or NULL when there is none. */
char *cmd_nearest_rule_dir(void);
/* Set *SLOT to V for the option NAME (--rules, --rules-tag) of command CMD, once: given
 * twice is -1 after a message naming both values (a chain of sets is the config's
 * rules: [A, B], never the last option winning), else 0. */
int cmd_option_once(const char *cmd, const char *name, const char **slot, const char *v);
/* Where releases are looked for (docs/releases.md): each directory of
 * $MCPDESC_RULES_PATH (colon-separated), rules-yaml/releases of the build tree the binary
 * runs from, PREFIX/share/mcpdesc/releases beside the binary, MCPDESC_DATADIR/releases. */
struct cmd_release_path {
    struct release_path path; /* borrowed from search */
    struct release_search search;
};
void cmd_release_path_init(struct cmd_release_path *p);
void cmd_release_path_release(struct cmd_release_path *p);
/* Load the rule set, printing every loader error to stderr as file:line:col: error:
 * message. NULL on failure (the caller exits 2). */
struct rule_set *cmd_load_rules(const char *given_dir);
/* The same, pinned to TAG ("TAG" or "NAME@TAG") when TAG is not NULL: without
 * GIVEN_DIR, the release of that tag found on the release path (one line naming the
 * available ones when it is not there); with GIVEN_DIR, that set if it is the one locked
 * as TAG (lock_verify). */
struct rule_set *cmd_load_rules_tagged(const char *given_dir, const char *tag);
/* 1 when RS is NAME@TAG with DIGEST ("sha256:HEX"); else 0 after one line on ERR, at
 * WHERE (a config's file:line:col, or "mcpdesc"), naming both digests and the path. */
int cmd_common_pin_matches(const struct rule_set *rs, const char *name, const char *tag,
                           const char *digest, const char *where, FILE *err);
/* After a refused release RS: the lines in which its files differ from what its own
 * SHA256SUMS records, a changed base named as the base with its path. */
void cmd_release_differences(const struct rule_set *rs, FILE *err);
/* Write TEXT over the file NAME (a symbolic link's target) through a temporary file in its
 * directory, renamed over it, with its mode. 0, or -1 with a message on stderr naming the
 * command LABEL ("fix") (the file unchanged). */
int cmd_write_atomically(const char *label, const char *name, const char *text, size_t len);
/* Which rules run (validate's --rule, --skip, the config's levels and the preset; the
 * language server's preset and config): the eval_options `enabled` filter. */
struct cmd_filters {
    VEC(const char *) only;    /* --rule globs */
    VEC(const char *) skip;    /* --skip globs */
    const struct config *cfg;  /* its top-level `off` levels, or NULL */
    const struct rule_set *rs; /* with preset: which rules run by default */
    enum rule_preset preset;
};
/* Is the --rule pattern G a plain rule id (no fnmatch wildcard)? */
int cmd_rule_plain_id(const char *g);
/* Does --rule name ID exactly, by its id, not by a glob (a struct cmd_filters *ARG)? Then
 * it runs whatever the preset, and the config's `off` does not apply: the command line
 * wins. */
int cmd_rule_named(const char *id, void *arg);
/* One decision order: --skip; a rule --rule names by its id runs; with --rule, a rule
 * no pattern matches does not; then the config's levels, then the preset (so a --rule
 * glob selects among the rules the preset and config enable). A rule turned off does
 * not run, as with --skip (the rules it yields to still decide the yields: eval.h), and a
 * rule the config gives a level runs even where the preset leaves it out (the config
 * over the preset, as a severity in ESLint's or Spectral's config turns a rule on). */
int cmd_rule_enabled(const char *id, void *arg);
/* Where the rule pages are: GIVEN (--docs-url), else the config's docs-url, else the
 * manifest's; NULL when none names one (then nothing links to a rule page). Borrowed. */
const char *cmd_docs_url(const char *given, const struct config *cfg, const struct rule_set *rs);
/* Print diagnostics without rule ids (loader errors) to F. */
void cmd_print_errors(FILE *f, const struct diag_list *l);
/* "unknown option '--fromat': did you mean '--format'?" to stderr; OPTIONS is
 * NULL-terminated. */
void cmd_unknown_option(const char *cmd, const char *arg, const char *const *options);
/* Value of an option given as "--name=value" or "--name value"; advances *i. NULL and
 * a message when missing. */
const char *cmd_option_value(int argc, char **argv, int *i, const char *name);

#endif
