/* release.h - released rule sets (docs/releases.md). A release is one directory,
 * NAME@TAG/, holding rules/ (the manifest, the rule files and SHA256SUMS, the lines of
 * the set's digest) beside what the rules load and cite (schema/, conformance/, at the
 * relative paths the manifest names). It loads with `--rules NAME@TAG`, is found by tag
 * on a search path, and is checked with `cd NAME@TAG/rules && sha256sum -c SHA256SUMS`. */
#ifndef MCPDESC_RELEASE_H
#define MCPDESC_RELEASE_H

#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"

#include "rules/rule.h"

/* Directories that hold release directories, searched in order. */
struct release_path {
    const char *const *dirs;
    size_t n;
};

/* Split SPEC, "TAG" or "NAME@TAG", into new strings; a bare TAG gets DEFAULT_NAME.
 * Returns -1 (nothing allocated) when the name or the tag is not well formed. */
int release_parse(const char *spec, const char *default_name, char **name, char **tag);
/* The rules directory (NAME@TAG/rules) of the first release NAME@TAG on PATH, new; NULL
 * when no directory of PATH holds it. The first NAME@TAG/rules holding a manifest.yaml
 * counts, with its SHA256SUMS or without: the caller refuses a set that is not the release,
 * and a later directory never stands in for it. */
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

/* What this binary trusts (docs/releases.md): every NAME@TAG it ships, generated at build
 * time from the committed locks (tools/gen-shipped-tags.sh). SUMS is the release's
 * SHA256SUMS text, DIGEST its sha256 ("sha256:HEX"). */
struct release_shipped {
    const char *name, *tag, *digest, *sums;
};
extern const struct release_shipped release_shipped_tags[];
extern const size_t release_shipped_count;
/* The shipped release NAME@TAG, or NULL. */
const struct release_shipped *release_shipped_find(const char *name, const char *tag);
/* Does this binary ship any tag of NAME? */
int release_shipped_name(const char *name);
/* The tags of NAME this binary ships, in version order, ", "-joined; new. */
char *release_shipped_list(const char *name);
/* The newest tag of NAME this binary ships (borrowed, static), or NULL when it ships none:
 * what a message names as the tag to run. */
const char *release_shipped_newest(const char *name);

/* Split a pin or a tag, "TAG", "NAME@TAG" or either followed by "@sha256:HEX" (64
 * lowercase hex digits), into new strings; *DIGEST is "sha256:HEX", or NULL when SPEC
 * pins no digest. Returns -1 (nothing allocated) when SPEC is none of these. */
int release_parse_pin(const char *spec, const char *default_name, char **name, char **tag,
                      char **digest);

/* Is RS what it claims to be? Appends an error to ERRS (returns -1) when RS is a set of a
 * name this binary ships that claims a tag (a release directory, or a set matching its
 * lock) and its files are not that tag's as shipped; when it claims a tag of such a name
 * that this binary does not know and no pin in PINS ("NAME@TAG@sha256:HEX") vouches for
 * it; or when a pin names RS's NAME@TAG with another digest. 0 otherwise. */
int release_check_loaded(const struct rule_set *rs, const char *const *pins, size_t npins,
                         struct diag_list *errs);

/* The one release search path (docs/releases.md, "Where mcpdesc looks"), used by the
 * command line, the language server and the library: the directories of
 * $MCPDESC_RULES_PATH, then the source tree's rules-yaml/releases when the running
 * program is that tree's own build, then the releases installed beside the program
 * (BIN/../share/mcpdesc/releases), then those of the prefix it was built for; each once. */
struct release_search {
    struct release_path path;
    char **owned;
    size_t n;
};
void release_search_init(struct release_search *s);
void release_search_release(struct release_search *s);
/* The rule set used when none is named, new: $MCPDESC_RULES, else the source tree's
 * rules-yaml (the tree's own build only), else BIN/../share/mcpdesc/rules, else the
 * built-for prefix's share/mcpdesc/rules. */
char *release_default_rules(void);
/* The source tree whose build is running (its absolute path, new), or NULL for any other
 * program: an installed or moved copy, an embedding program. Decided by the build
 * directory compiled in, never by looking around the program's folder. */
char *release_tree_root(void);

#endif
