/* config.h - a team's configuration file, .mcpdesc.yaml (docs/config.md): which rule
 * sets, which preset, per-rule levels (by id or glob), per-file overrides (a path glob,
 * optionally with a JSON Pointer below which it applies), paths a directory search
 * leaves out, fail-on, format and output, the inputs and the baseline `validate` uses
 * when the command line names none, and the suppressions (parsed and kept here;
 * applied elsewhere). This module reads and checks the file and applies its levels to
 * one document's diagnostics; where the file is found and how it ranks against the
 * command line are the front end's (cli/cmd_config.c). Every error is a positioned
 * diagnostic (CONFIG:line:col) with a "did you mean" where a name is near. */
#ifndef MCPDESC_CONFIG_H
#define MCPDESC_CONFIG_H

#include <jansson.h>
#include <stdint.h>

#include "base/diag.h"
#include "rules/rule.h"
#include "base/util.h"

/* A level of the `levels` mappings: a diag_level, or CONFIG_OFF (the rule's findings
 * are not reported). */
enum { CONFIG_OFF = -1 };

struct config_pos {
    uint32_t line, col;
};

/* A string value of the file and where it is. */
struct config_str {
    char *s;
    struct config_pos pos;
};

/* One entry of a `levels` mapping: a rule id or an fnmatch glob of rule ids. */
struct config_level {
    char *rule;
    int level; /* DIAG_ERROR, DIAG_WARNING, DIAG_INFO or CONFIG_OFF */
    struct config_pos pos;
};

/* One `files` entry of an override: a path glob, and the JSON Pointer after a '#'. */
struct config_files {
    char *glob;    /* relative to the config file's directory; ** spans directories */
    char *pointer; /* NULL (the whole file), or an RFC 6901 pointer ("" is the root) */
    struct config_pos pos;
};

struct config_override {
    VEC(struct config_files) files;
    VEC(struct config_level) levels;
    struct config_pos pos;
};

/* One `suppress` entry, as written (findings/suppress.h applies them). */
struct config_suppress {
    char *file, *rule, *item, *pointer, *reason, *until; /* NULL when absent */
    struct config_pos pos;      /* the entry (its findings are reported here) */
    struct config_pos rule_pos; /* its rule (config_check's errors) */
};

struct config {
    char *path; /* as named (messages and reports) */
    char *dir;  /* the file's directory, absolute and resolved: paths are relative to it */
    VEC(struct config_str) rules;              /* `rules`, one entry or a chain, in order */
    struct config_str preset, fail_on, output; /* .s NULL when absent */
    struct config_str docs_url;    /* where the rule pages are published (as --docs-url) */
    VEC(struct config_str) format; /* `format`: FORMAT[:FILE], one or a list (empty: absent) */
    VEC(struct config_level) levels;
    VEC(struct config_override) overrides;
    VEC(struct config_str) ignore;
    VEC(struct config_suppress) suppress;
    VEC(struct config_str) paths; /* `paths`: the inputs when the command line gives none */
    struct config_str baseline;   /* `baseline`: --baseline when the command line gives none */
    int strict_inputs; /* `strict-inputs: true`: as --strict-inputs (a found file that does
                        * not parse is an input error, as in earlier releases) */
    int together;      /* `together: true`: as --together (judge the inputs also as one
                        * client session) */
    struct config_pos together_pos; /* where it stands */
    size_t nerrors; /* errors config_read found (config_load returns NULL instead) */
    int rules_bad;  /* `rules` had an error: its rule set is unknown, so config_check
                        * cannot judge the rule ids */
};

/* The names the config's reader accepts, each a NULL-terminated table it checks with
 * (borrowed, static): for editors' completion. */
enum config_names {
    CONFIG_NAMES_TOP,      /* the top-level keys: rules, preset, levels, ... */
    CONFIG_NAMES_OVERRIDE, /* an overrides entry's keys: files, levels */
    CONFIG_NAMES_SUPPRESS, /* a suppress entry's keys: file, rule, item, ... */
    CONFIG_NAMES_LEVEL,    /* a levels value: error, warning, info, off */
    CONFIG_NAMES_PRESET,   /* recommended, strict, all */
    CONFIG_NAMES_FAIL_ON,  /* error, warning, info, never */
    CONFIG_NAMES_FORMAT    /* text, json, sarif, ... */
};
const char *const *config_names(enum config_names which);

/* Read and check the file PATH (YAML, whatever its name). Returns a new config, or NULL
 * when any error was appended to ERRS (unknown keys with a "did you mean", values of the
 * wrong shape or out of their set). Rule ids are checked by config_check. */
struct config *config_load(const char *path, struct diag_list *errs);
/* The same from memory; PATH names it in messages and is where relative paths start. */
struct config *config_load_buffer(const char *path, const char *data, size_t len,
                                  struct diag_list *errs);
/* As config_load, but a file that parses comes back even with errors (nerrors, with
 * every member that had none filled in), so that the rule ids can be checked in the same
 * pass (docs/config.md: every mistake at once). NULL only for a file that cannot be read
 * or parsed. */
struct config *config_read(const char *path, struct diag_list *errs);
void config_free(struct config *c); /* NULL is a no-op */

/* Check C against the loaded rule set RS: every rule id of `levels`, of the
 * overrides' levels and of `suppress` names a rule (or a built-in mcpdesc.* diagnostic), every glob
 * matches at least one; else an error at it, with rule_set_suggest's near id. Returns
 * the number of errors appended. */
size_t config_check(const struct config *c, const struct rule_set *rs, struct diag_list *errs);

/* Does the rule-id glob or id PATTERN match ID (fnmatch, as --rule/--skip)? */
int config_rule_matches(const char *pattern, const char *id);
/* The level the top-level `levels` give the rule ID: the last matching entry's, or
 * DFLT when none matches. */
int config_rule_level(const struct config *c, const char *id, int dflt);

/* Does the path glob GLOB match PATH (both relative, '/'-separated)? fnmatch per path
 * segment, "**" matches any number of segments (none too); a glob that matches a
 * leading directory of PATH matches PATH (a glob "build" and a glob "build/ **" without the space are the same). */
int config_path_matches(const char *glob, const char *path);
/* PATH (as given, relative to the working directory or absolute) relative to the config
 * file's directory, new; NULL when PATH is not below it. */
char *config_relpath(const struct config *c, const char *path);
/* REL, a path the file gives (relative to the config file's directory, or absolute), as
 * a path from the working directory: the config's path as named with its last component
 * replaced by REL ("servers" for ./.mcpdesc.yaml, "../servers" for ../.mcpdesc.yaml), so
 * that reports name it as the command line would have. New. */
char *config_path_of(const struct config *c, const char *rel);
/* Is PATH one that `ignore` leaves out of a directory search? */
int config_ignored(const struct config *c, const char *path);

/* Apply the levels to the diagnostics of the file PATH in L: for each diagnostic with a
 * rule, the top-level `levels`, then each override whose `files` match PATH (and, with a
 * #pointer, whose pointer is the diagnostic's or above it), in file order, the last match
 * winning; `off` drops the diagnostic. An `off` entry is passed over for a rule for
 * which KEEP(id, ARG) returns nonzero (the command line named it: --rule). Returns the
 * number of diagnostics dropped. */
size_t config_apply(const struct config *c, const char *path, struct diag_list *l,
                    int (*keep)(const char *id, void *arg), void *arg);

/* What the config changes, for reports: how many rules of RS the top-level levels
 * change, and the list of changes as JSON (new reference): one object per rule an entry
 * matches, {"rule", "glob" (the entry when it is a glob, else null), "from", "to",
 * "where" (the override's files, null for top-level levels)}. */
size_t config_levels_changed(const struct config *c, const struct rule_set *rs);
json_t *config_changes_json(const struct config *c, const struct rule_set *rs);
/* The report's "config" object (new reference): {"file", "preset", "failOn", "ignore",
 * "overrides", "suppressions", "changes"}. */
json_t *config_report_json(const struct config *c, const struct rule_set *rs);
/* "error", "warning", "info" or "off". */
const char *config_level_name(int level);

#endif
