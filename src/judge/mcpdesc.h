/* mcpdesc.h - the public, stable interface of libmcpdesc for programs that embed the
 * validator: load a rule set, validate a file or a buffer, read the diagnostics, free.
 * Everything else in the library is internal and may change between releases.
 *
 *   char *err = NULL;
 *   mcpdesc_rules *rules = mcpdesc_rules_load(NULL, &err);     // the installed set
 *   mcpdesc_result *res = mcpdesc_validate_file(rules, "server.json");
 *   for (size_t i = 0; i < mcpdesc_result_count(res); i++) {
 *       const struct mcpdesc_diag *d = mcpdesc_result_diag(res, i);
 *       printf("%s:%u:%u: %s\n", d->file, d->line, d->col, d->message);
 *   }
 *   mcpdesc_result_free(res);
 *   mcpdesc_rules_free(rules);
 *
 * Build with `pkg-config --cflags --libs mcpdesc` (a static library: the .pc file
 * brings its dependencies). Not thread-safe per object: share a
 * loaded rule set between threads only for concurrent validation calls (it is read
 * only after loading), one result per thread.
 *
 * jansson: the library installs jansson's allocation functions (json_set_alloc_funcs)
 * the first time it loads a JSON document of 64 KiB or more, so that a large document's
 * values live in one arena; the functions installed before serve everything else. A
 * program that sets its own with json_set_alloc_funcs must do so before its first call
 * into this library (jansson asks that of any program), and never after. */
#ifndef MCPDESC_H
#define MCPDESC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcpdesc_rules mcpdesc_rules;
typedef struct mcpdesc_result mcpdesc_result;

enum mcpdesc_level { MCPDESC_INFO = 0, MCPDESC_WARNING = 1, MCPDESC_ERROR = 2 };

/* One diagnostic. Every pointer is borrowed from the result and valid until
 * mcpdesc_result_free. New members are only ever appended. */
struct mcpdesc_diag {
    enum mcpdesc_level level;
    const char *rule;     /* rule id; NULL when the document could not be read or parsed */
    const char *file;     /* the name given to mcpdesc_validate_* */
    unsigned line, col;   /* 1-based; 0 when unknown */
    const char *pointer;  /* RFC 6901 JSON Pointer of the offending value; "" if none */
    const char *versions; /* protocol versions concerned, "2025-06-18, 2025-11-25"; "" if none */
    const char *message;
    const char *hint;      /* how to fix it, or NULL */
    const char *component; /* the $componentRef target it was reached through, or NULL */
};

/* The library's version, "0.1.0". Static string. */
const char *mcpdesc_version(void);
/* "error", "warning", "info". Static string. */
const char *mcpdesc_level_name(enum mcpdesc_level level);

/* Load the rule set in DIR (a directory holding manifest.yaml, or a release directory
 * NAME@TAG/); NULL means $MCPDESC_RULES, else the installed set (`pkg-config
 * --variable=rulesdir mcpdesc`). A set that claims a tag of a set this library ships
 * must be that tag's files (the digests are built in), and `extends: NAME@TAG` finds its
 * base as mcpdesc_rules_load_tag finds a release. Like the mcpdesc program, a load
 * keeps the set's parsed YAML in $XDG_CACHE_HOME/mcpdesc/docs (else
 * ~/.cache/mcpdesc/docs) and reads it back next time; set MCPDESC_NO_CACHE=1 in the
 * environment to keep nothing there (README, "Speed and robustness").
 * Returns a new rule set, or NULL and, when ERR is not NULL, a new message in *ERR
 * (every loader error, one per line, file:line:col: message; free it with free()). */
mcpdesc_rules *mcpdesc_rules_load(const char *dir, char **err);
/* Load the released rule set SPEC: "TAG" (of the shipped set, mcpdesc-mcp), "NAME@TAG",
 * or either pinned to its digest, "NAME@TAG@sha256:HEX". It is looked for on the release
 * search path: the directories of $MCPDESC_RULES_PATH (colon-separated), then the
 * releases installed beside the program (BIN/../share/mcpdesc/releases), then those of
 * the prefix the library was built for. NULL (and *ERR, as above) when it is not there,
 * when its files are not the release's, or when they do not hash to the pinned digest. */
mcpdesc_rules *mcpdesc_rules_load_tag(const char *spec, char **err);
void mcpdesc_rules_free(mcpdesc_rules *rules); /* NULL is a no-op */
/* 1 when RULES' digest (mcpdesc_rules_digest) is DIGEST, "sha256:HEX"; else 0. */
int mcpdesc_rules_verify_digest(const mcpdesc_rules *rules, const char *digest);
/* The rule set's released tag ("v0.9.0-rc.3"; NULL for a set that differs from every
 * lock of its manifest's tag: a modified set) and digest ("sha256:..."). Borrowed. */
const char *mcpdesc_rules_tag(const mcpdesc_rules *rules);
const char *mcpdesc_rules_digest(const mcpdesc_rules *rules);

/* Validate the document in PATH ("-" reads standard input) or in DATA (LEN bytes,
 * named NAME in diagnostics; YAML when NAME ends in .yaml or .yml, else JSON).
 * Always returns a new result (NULL only if RULES is NULL): a document that cannot be
 * read or parsed gives a result with mcpdesc_result_parsed() == 0 and one diagnostic
 * (rule NULL) saying why. */
mcpdesc_result *mcpdesc_validate_file(const mcpdesc_rules *rules, const char *path);
mcpdesc_result *mcpdesc_validate_buffer(const mcpdesc_rules *rules, const char *name,
                                        const char *data, size_t len);
void mcpdesc_result_free(mcpdesc_result *res); /* NULL is a no-op */

/* 1 when the document was parsed and judged, 0 when it could not be. */
int mcpdesc_result_parsed(const mcpdesc_result *res);
/* Diagnostics in document order; mcpdesc_result_diag returns NULL when I is out of
 * range. Borrowed from RES. */
size_t mcpdesc_result_count(const mcpdesc_result *res);
const struct mcpdesc_diag *mcpdesc_result_diag(const mcpdesc_result *res, size_t i);
/* How many diagnostics have LEVEL or a more severe one. */
size_t mcpdesc_result_count_at_least(const mcpdesc_result *res, enum mcpdesc_level level);

#ifdef __cplusplus
}
#endif

#endif
