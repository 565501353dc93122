/* testutil.h - helpers shared by the unit tests: scratch rule sets written to a
 * temporary directory, documents from strings, and running a rule set on them. */
#ifndef MCPDESC_TESTUTIL_H
#define MCPDESC_TESTUTIL_H

#include "base/diag.h"
#include "doc/doc.h"
#include "resolve/texts.h"
#include "rules/rule.h"

#include <stdint.h>

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

/* A fresh temporary directory holding manifest.yaml (the five versions, the standard
 * document shape) and FILES/TEXTS as rule files. New string; remove with tu_rmdir. */
char *tu_rule_dir(const char *const *files, const char *const *texts, size_t n);
void tu_rmdir(char *dir);
/* A private doc cache for a test: a new directory named after NAME as XDG_CACHE_HOME,
 * MCPDESC_NO_CACHE unset; tu_cache_end removes it and restores both. */
struct tu_cache {
    char dir[96];
    char *xdg, *off;
};
void tu_cache_begin(struct tu_cache *c, const char *name);
void tu_cache_end(struct tu_cache *c);

/* Rewrite PATH with TEXT in place (its inode kept), its mtime set back to what it was,
 * once the clock has moved past its ctime: only the ctime then tells the change (the
 * stat-identity records of rule_cache.c must see it). TEXT has the file's old size. */
void tu_edit_in_place(const char *path, const char *text);

/* A rule judging /p by {matches-schema: schemas/point.json} (message "not a point:
 * {detail}"), for the tests of the schema records. */
#define TU_POINT_RULE                                                                              \
    "  - id: t.point\n    owner: t\n    surface: Tool\n    kind: structural\n"                     \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check:\n      select: /p\n      require: {matches-schema: schemas/point.json}\n"          \
    "      message: 'not a point: {detail}'\n"
/* A new rule directory of RULES (t.yaml) with schemas/point.json, an object whose x is
 * num.json's number reached through the manifest's schema-map, and schemas/num.json. */
char *tu_point_schema_set(const char *rules);
/* DIR loaded with the user's cache (CACHED) or with MCPDESC_NO_CACHE set. */
struct rule_set *tu_load_cached(const char *dir, int cached, struct diag_list *errs);
/* DIR fails to load with the user's cache as it fails without it (tu_load_cached): the
 * same diagnostics, message, file, line, column and hint, in the same order; the test
 * fails otherwise, or when the first message does not contain SAYS. */
void tu_same_failure(const char *dir, const char *says);
/* TEXT appended to DIR/manifest.yaml (a manifest of tu_rule_dir's, with more members). */
void tu_manifest_add(const char *dir, const char *text);
/* Write TEXT to DIR/NAME (the test fails when it cannot). */
void tu_write_file(const char *dir, const char *name, const char *text);
/* Load a rule set from a single rule file TEXT (NULL and errors in *errs on failure). */
struct rule_set *tu_rules(const char *text, struct diag_list *errs);
/* The same, failing the test (with the first error) when the rules do not load. */
struct rule_set *tu_rules_ok(const char *text);
doc *tu_doc(const char *json);
/* Run RS over JSON; diagnostics in *out (release with diag_list_release). */
void tu_eval(const struct rule_set *rs, const char *json, struct diag_list *out);
/* Every field of L's diagnostics that a report prints (and the fix), one line per
 * diagnostic (new string): two judgements are the same when these are. */
char *tu_show_all(const struct diag_list *l);
/* The first line of A that B does not have at the same place (at most 300 bytes; a new
 * string), for a failure message Check can carry; "(none)" when A is NULL. */
char *tu_first_line_apart(const char *a, const char *b);
/* An environment variable's value (new string), or NULL when it is unset; and put it
 * back as it was (V freed): the harness runs every suite in one process. */
char *tu_env_save(const char *name);
void tu_env_restore(const char *name, char *v);
/* The test data directory (tests/data), from $MCPDESC_TOP or the working directory. */
const char *tu_data_dir(void);
/* The rule set in DIR, failing the test with the first error (file:line:col: message)
 * when it does not load; and the shipped one ($MCPDESC_TOP/rules-yaml). */
struct rule_set *tu_load_ok(const char *dir);
struct rule_set *tu_shipped_rules(void);
/* An entry of a texts declaration (rule_texts.c's struct texts_entry): its selector SEL
 * (or NULL), its MEMBER (or NULL) and KIND, appended to E. */
void tu_texts_entry(texts_entries *e, const char *sel, const char *member, const char *kind);
/* schema_validate of INST against the 2020-12 schema text SCH compiled under these
 * bounds (max_work, max_eval_depth), with an error list when ERRS. */
int tu_schema_run(const char *sch, json_t *inst, uint64_t work, uint32_t depth, int errs);
/* A cursor C on a new string S (*V, the caller's to release) with its text facts, as a
 * {texts: ...} walk sets them. */
void tu_text_cursor(const char *s, struct cursor *c, json_t **v);
/* PATTERN compiled as the rules compile it (UTF), or the test fails; does it match S? */
pcre2_code *tu_pcre_compile(const char *pattern);
int tu_pcre_matches(pcre2_code *code, const char *s);

#endif
