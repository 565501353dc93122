/* release.h - released rule sets (docs/releases.md). A release is one directory,
 * NAME@TAG/, holding rules/ (the manifest, the rule files and SHA256SUMS, the lines of
 * the set's digest) beside what the rules load and cite (schema/, conformance/, at the
 * relative paths the manifest names). It loads with `--rules NAME@TAG`, is found by tag
 * on a search path, and is checked with `cd NAME@TAG/rules && sha256sum -c SHA256SUMS`. */
#ifndef MCPDESC_RELEASE_H
#define MCPDESC_RELEASE_H

#include <stdio.h>

#include "core/rule.h"

/* Directories that hold release directories, searched in order. */
struct release_path {
    const char *const *dirs;
    size_t n;
};

/* Split SPEC, "TAG" or "NAME@TAG", into new strings; a bare TAG gets DEFAULT_NAME.
 * Returns -1 (nothing allocated) when the name or the tag is not well formed. */
int release_parse(const char *spec, const char *default_name, char **name, char **tag);
/* The rules directory (NAME@TAG/rules) of the first release NAME@TAG on PATH, new; NULL
 * when no directory of PATH holds it. */
char *release_find(const struct release_path *path, const char *name, const char *tag);
/* One line on ERR for a release that is not on PATH: the releases that are (NAME@TAG,
 * sorted), where it looked, and how to get another. */
void release_explain_missing(const struct release_path *path, const char *name, const char *tag,
                             FILE *err);
/* The rules directory of the release directory DIR (DIR/rules when it holds a manifest),
 * new; NULL when DIR is not a release directory. */
char *release_rules_dir(const char *dir);
/* Write OUT/NAME@TAG/ for RS (which must be released as its tag: rule_set_released_tag):
 * every file of its digest and rules/SHA256SUMS. Refuses an existing directory that
 * differs. Returns 0 (the path on ERR), or -1 after saying why on ERR. */
int release_pack(const struct rule_set *rs, const char *out, FILE *err);

#endif
