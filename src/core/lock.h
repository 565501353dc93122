/* lock.h - immutable tags: a lock file records the digests of a rule set under a tag
 * (rules-yaml/tags/TAG.lock); a run pinned with --rules-tag refuses any other set. */
#ifndef MCPDESC_LOCK_H
#define MCPDESC_LOCK_H

#include <stdio.h>

#include "core/rule.h"

/* Write DIR/tags/TAG.lock for RS. Refuses (-1, message on ERR) to overwrite a lock
 * that differs: a released tag never moves. Returns 0 when written or identical. */
int lock_write(const struct rule_set *rs, const char *tag, FILE *err);
/* 0 when RS is byte-for-byte the set locked as TAG; else -1 and names on ERR the files
 * that differ, are missing or were added. */
int lock_verify(const struct rule_set *rs, const char *tag, FILE *err);
/* The lock document for RS (new reference): {name, tag, digest, files: [{path, sha256}]}. */
json_t *lock_describe(const struct rule_set *rs, const char *tag);

#endif
