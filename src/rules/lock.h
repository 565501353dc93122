/* lock.h - immutable tags (docs/releases.md): a lock file records the digests of a rule
 * set under a tag (rules-yaml/tags/TAG.lock), a release directory its SHA256SUMS; a run
 * pinned with --rules-tag refuses any other set, and reports name a set that matches no
 * lock as modified. */
#ifndef MCPDESC_LOCK_H
#define MCPDESC_LOCK_H

#include <stdio.h>

#include "base/buf.h"
#include "rules/rule.h"

/* Is TAG a tag name (letters, digits, . - _ +, not starting with . or -, at most 100)? */
int lock_tag_ok(const char *tag);
/* Write DIR/tags/TAG.lock for RS (format 2: every file of the digest, fixtures included).
 * Refuses (-1, message on ERR) to overwrite a lock that differs: a released tag never
 * moves. Returns 0 when written or identical. */
int lock_write(const struct rule_set *rs, const char *tag, FILE *err);
/* 0 when RS is the set locked as TAG (DIR/tags/TAG.lock, or the SHA256SUMS of a release
 * directory for its own tag, else the files of the tag this binary ships under RS's
 * name: release.h); else -1 and says on ERR which set is loaded, the files that
 * differ, are missing or were added (the first few), and what to do. */
int lock_verify(const struct rule_set *rs, const char *tag, FILE *err);
/* The lock document for RS (new reference): {format, name, tag, digest, files}. */
json_t *lock_describe(const struct rule_set *rs, const char *tag);
/* Append to OUT the text lock_write writes for RS under TAG (json_dumps of lock_describe,
 * JSON_INDENT(2), and a newline), formatted directly; 0 (OUT partly written) when a
 * string would need an escape. */
int lock_text(const struct rule_set *rs, const char *tag, struct buf *out);
/* The manifest's tag, newly allocated, when a lock for it records exactly RS's files
 * (the release directory's SHA256SUMS, else DIR/tags/TAG.lock); NULL otherwise. Quiet:
 * the loader calls it to name the set honestly. */
char *lock_released_as(const struct rule_set *rs);
/* Append to OUT one line per file in which the SHA256SUMS texts WANT (a release's) and
 * HAVE (a set's) differ: the files that differ first, then those missing, then those
 * added; the first few, then "... and N more". */
void lock_sums_differences(const char *want, const char *have, struct buf *out);

#endif
