/* rule_cache.h - which files the schemas of a rule set's matches-schema predicates read,
 * recorded by content (rule_cache.c), so that a load whose files are all unchanged since a
 * load that compiled every one of them compiles none: each is compiled on its first
 * match (fn_schema.c), and the digest still covers every file (rule_set_load.c). Also the
 * loader's way of reading and hashing a file. */
#ifndef MCPDESC_RULE_CACHE_H
#define MCPDESC_RULE_CACHE_H

#include <stddef.h>

#include "base/util.h"
#include "schema/schema.h"

/* The bytes of the file PATH (new, NUL-terminated) in four system calls for a regular
 * file; -1 when it cannot be read. */
int rule_file_read(const char *path, char **data, size_t *len);
/* The sha256 of DATA in lowercase hex. */
void rule_sha256_hex(const char *data, size_t len, char out[65]);

/* A file a record lists: its path as the compiler read it, and the sha256 of its bytes. */
struct rule_cache_file {
    char *path;
    char hex[65];
};
struct rule_cache_files {
    VEC(struct rule_cache_file) v;
};
void rule_cache_files_release(struct rule_cache_files *f);

/* A schema_file_loader (schema.h) for a rule set's schema files: the value parsed from
 * the same bytes before, kept by their sha256 (doc_cache_value_get), else the bytes parsed
 * now and kept. The value or error of val_load_file(PATH, FLAGS, ERR), a parse's 0.5 ms
 * of a start spared. ARG (may be NULL): the files whose sha256 the load took
 * (rule_cache_known_add): such a file's kept value is found by that sha256 without
 * reading it, as the digest takes it. */
json_t *rule_cache_load_json(void *arg, const char *path, size_t flags, json_error_t *err);
/* Make CTX read its files through rule_cache_load_json, with a list of known files of
 * its own (freed with CTX). Call while setting CTX up. */
void rule_cache_use_loader(schema_ctx *ctx);
/* FILES, whose sha256 the load took (the schema record's, through rule_sums), told to
 * CTX's loader (rule_cache_use_loader): such a file's kept value is then found by that
 * sha256 without reading it, as the digest takes it. With another loader or none,
 * nothing is done. */
void rule_cache_known_add(schema_ctx *ctx, const struct rule_cache_files *files);

/* The record's key (64 hex digits) for a set in DIR (as given) whose schema-map is MAPS
 * (prefix, directory, prefix, ...: N strings, as given) and whose matches-schema files are
 * FILES (NFILES paths as given to the compiler, in any order, repeats allowed): the engine
 * and the working directory are part of it. */
void rule_cache_schema_key(const char *dir, char *const *maps, size_t n, char *const *files,
                           size_t nfiles, char key[65]);
struct rule_sums;
/* The files recorded under KEY, each one's sha256 now taken through SUMS (its bytes
 * read and hashed, or kept by its identity: rule_sums below): 1 and OUT filled when
 * every one still has its recorded sha256, else 0 (OUT empty). */
int rule_cache_schema_get(const char key[65], struct rule_sums *sums, struct rule_cache_files *out);
/* Record under KEY the files CTX read (schema_ctx_file), each read and hashed now; none
 * when one cannot be read. Call only when every schema of the set compiled. */
void rule_cache_schema_put(const char key[65], const schema_ctx *ctx);
/* Forget the record KEY (its schemas did not compile when first used). */
void rule_cache_schema_drop(const char key[65]);

/* Whether a data file's text whose sha256 is TEXT_HEX ("": not read) matched the schema of
 * its kind KIND ("phrase-lists", ...) in a load by this engine: 1 when the record says so
 * (its validation may be skipped: the same bytes parse to the same value), else 0. put
 * records it, after it matched (nothing when the cache is off). */
int rule_cache_data_valid(const char *kind, const char text_hex[65]);
void rule_cache_data_valid_put(const char *kind, const char text_hex[65]);

/* The sha256 of files read only to be hashed (a set's fixtures), kept in a record by
 * each file's identity from one stat, as git's index keeps them (rule_cache.c says how
 * and what it trusts). Open one per set directory DIR (as given) for a load: NULL when
 * nothing is kept (MCPDESC_NO_CACHE, ...), and the functions below then read and hash
 * every file. */
struct rule_sums *rule_sums_open(const char *dir);
/* The key of DIR's record (doc_cache_record_get): its text is "mcpdesc file sums 1",
 * "settled S NS" (the moment its entries were older than), then a line per file:
 * "DEV INO MODE SIZE MTIME_S MTIME_NS CTIME_S CTIME_NS SHA256 PATH", sorted by path. */
void rule_sums_key(const char *dir, char key[65]);
/* The sha256 of the file PATH into OUT: the recorded one when the file's identity is the
 * recorded one, else its bytes read and hashed now. -1 when it cannot be read. */
int rule_sums_file_hex(struct rule_sums *s, const char *path, char out[65]);
/* For a file the caller reads and hashes itself (a rule file, parsed through the doc
 * cache: doc_load_file_known): 1 and KNOWN, its recorded sha256, when PATH's identity
 * from one stat is the recorded one; else 0 (S NULL included), and once it has read
 * the file the caller gives the sha256 of its bytes ("": not read) to rule_sums_read. */
int rule_sums_known(struct rule_sums *s, const char *path, char known[65]);
void rule_sums_read(struct rule_sums *s, const char *path, const char hex[65]);
/* Write the record again when this load found it short or stale; free S. */
void rule_sums_close(struct rule_sums *s);
/* A file whose mtime or ctime is less than this many nanoseconds before rule_sums_open
 * is hashed and not recorded (it may change again within its clock tick). 2 s; the unit
 * tests set 0 to see a record of the files they have just written. */
extern long long rule_sums_settle_ns;

#endif
