/* rule.h - a rule set: the manifest (name, tag, known protocol versions, item
 * collections, component scopes) and the rules of every rule file, each compiled once
 * into an immutable program. Loading never stops at the first mistake: every error is
 * a positioned diagnostic (file:line:col) a rule author can act on. */
#ifndef MCPDESC_RULE_H
#define MCPDESC_RULE_H

#include <jansson.h>
#include <stdio.h>

#include "base/diag.h"
#include "resolve/res.h"
#include "base/ver.h"

struct rule_set;
struct rule;

/* Load DIR/manifest.yaml and the rule files it lists. Returns a new rule set, or NULL
 * when any error was appended to ERRS (diagnostics without rule id, with positions and a
 * hint: how to fix it, else where the rule format is described). */
struct rule_set *rule_set_load(const char *dir, struct diag_list *errs);
/* How to load: where a manifest's `extends: NAME@TAG` looks for releases (release.h:
 * directories holding NAME@TAG/ directories, searched in order). A set that extends
 * another (rules-yaml/README.md, "Organisation rule sets") holds the base's rules first,
 * then its own; the base is loaded whole, recursively (at most 8 levels, no cycle). */
struct rule_load_opts {
    const char *const *release_dirs;
    size_t nrelease_dirs;
    /* A chain named from outside (a config's `rules` list, docs/config.md), or none: the
     * set loaded extends the set in bases[nbases - 1], which extends bases[nbases - 2],
     * and so on. A manifest of the chain that has its own `extends` must name that same
     * set (the same directory): an error at its `extends` otherwise. */
    const char *const *bases;
    size_t nbases;
    /* A file of the set read from memory instead of the disk (an editor's unsaved buffer),
     * or NULL: see struct rule_overlay. Borrowed during the call only. */
    const struct rule_overlay *overlay;
    /* Digests the caller vouches for, "NAME@TAG@sha256:HEX" (docs/releases.md, "Pinning a
     * digest"): a set of that NAME@TAG, the one loaded or a base, must have that digest,
     * and a release of a shipped name whose tag this binary does not know runs only so
     * (release_check_loaded). Borrowed during the call only. */
    const char *const *pins;
    size_t npins;
};
/* One file whose text is held in memory: wherever the loader (and so lint and the
 * editor, which read its partial program) would read the file at PATH (the same file: the same name in the same directory, by
 * real path), it reads the LEN bytes at DATA instead; the file need not exist on disk. */
struct rule_overlay {
    const char *path;
    const char *data;
    size_t len;
};
/* Does OV (may be NULL) stand for the file PATH? */
int rule_overlay_is(const struct rule_overlay *ov, const char *path);
struct rule_set *rule_set_load_with(const char *dir, const struct rule_load_opts *opts,
                                    struct diag_list *errs);
/* A partial program, for the readers that show a rule author every mistake at once (`rules
 * lint`, the editor): loads as rule_set_load_with does and appends the same errors, but
 * returns the set whenever DIR/manifest.yaml parses, with rule_set_ok false after any
 * error; NULL only when the manifest cannot be read or parsed (its error appended). The
 * rules that compiled are its rules; each refused one is kept by id, file and position
 * (rule_set_refused); and the set keeps the documents it parsed (the manifest's and each
 * rule file's, with their positions), so that nothing reads the rule YAML a second time.
 * After an error in the manifest no rule is compiled (its errors would mislead), but the
 * rule files it lists are still parsed, silently, for lint's own checks. A separate entry
 * point rather than a flag on rule_set_load: every caller that judges with a set (validate,
 * fix, baseline, rules dump, pin, the library) keeps getting NULL for a set with errors, so
 * none of them can run a partial program by mistake. */
struct rule_set *rule_set_load_partial(const char *dir, const struct rule_load_opts *opts,
                                       struct diag_list *errs);
/* Did RS load without any error? Always 1 for a set rule_set_load returned. */
int rule_set_ok(const struct rule_set *rs);
/* The documents a partial load kept (borrowed; NULL from rule_set_load, which keeps none):
 * the manifest, and rule file I (as rule_set_file(RS, I) names it; NULL when it could not
 * be read or parsed, or is not a mapping). */
const doc *rule_set_manifest_doc(const struct rule_set *rs);
const doc *rule_set_file_doc(const struct rule_set *rs, size_t i);
/* A rule the compiler refused (its errors are in the load's list): the id it was written
 * with (NULL when not a string), its rule file (relative to the set's directory), the
 * position of its mapping and of its id's value (0:0 without id), and whether the id is
 * well formed and not a duplicate (yields-to may then name it). */
struct rule_refused {
    char *id;
    char *file;
    uint32_t line, col;
    uint32_t id_line, id_col;
    int id_valid;
};
size_t rule_set_refused_count(const struct rule_set *rs);
const struct rule_refused *rule_set_refused(const struct rule_set *rs, size_t i);
void rule_set_free(struct rule_set *rs);

const char *rule_set_dir(const struct rule_set *rs);
/* The set RS extends (its manifest's `extends`), or NULL (borrowed: RS owns it). */
const struct rule_set *rule_set_base(const struct rule_set *rs);
/* What the manifest says, as the loader read it (borrowed; nothing re-reads the file). */
const char *rule_set_name(const struct rule_set *rs);
/* The manifest's tag: the tag the set claims, or was derived from when it is modified. */
const char *rule_set_tag(const struct rule_set *rs);
/* The manifest's docs-url, where the rule pages are published, or NULL when it has none. */
const char *rule_set_docs_url(const struct rule_set *rs);
/* The page of rule ID under DOCS_URL (a manifest's docs-url, --docs-url or a config's):
 * DOCS_URL + "/" (unless it ends in one) + ID + ".html", new; NULL when DOCS_URL is NULL
 * or empty or ID is NULL. The one place that says where a rule page is. */
char *rule_page_url(const char *docs_url, const char *id);
/* The file of the project that URL names when it falls under a prefix of the manifest's
 * `schema-map` (an identifier of a local file, not a site to link to): its path relative
 * to the parent of the set's directory, e.g. "schema/mcp-description.schema.json" for
 * https://mcpdesc.dev/schema/mcp-description.schema.json in rules-yaml/ (a repository
 * path; a release directory has the same layout). New; NULL when URL is under no prefix. */
char *rule_set_local_url(const struct rule_set *rs, const char *url);
/* The manifest's name of source tier TIER (its `tiers` mapping), or NULL when it names none. */
const char *rule_set_tier_name(const struct rule_set *rs, long tier);
/* "sha256:<hex>" over the manifest, the rule files, the schema files they load and the
 * fixtures their examples cite (docs/releases.md), and for a set that extends another
 * the base's digest: the SHA-256 of rule_set_sums(). */
const char *rule_set_digest(const struct rule_set *rs);
/* The `sha256sum` lines "<hex>  <path>" the digest is taken over, sorted by path (paths
 * relative to the rule set's directory): what a release keeps as rules/SHA256SUMS. */
const char *rule_set_sums(const struct rule_set *rs);
/* The per-file digests behind it, sorted by path; hex is the SHA-256 of the file. */
/* RULE_FILE_BASE is not a file: the line "<base digest hex>  extends:NAME@TAG" of a set
 * that extends another, so that another base makes another set. */
enum rule_file_kind {
    RULE_FILE_MANIFEST,
    RULE_FILE_RULES,
    RULE_FILE_SCHEMA,
    RULE_FILE_FIXTURE,
    RULE_FILE_BASE,
    RULE_FILE_DATA /* a data file the manifest's data: names */
};
size_t rule_set_digest_count(const struct rule_set *rs);
const char *rule_set_digest_path(const struct rule_set *rs, size_t i);
const char *rule_set_digest_hex(const struct rule_set *rs, size_t i);
enum rule_file_kind rule_set_digest_kind(const struct rule_set *rs, size_t i);
/* The tag the set is released as: the manifest's tag when a lock for it records exactly
 * these files (lock.h: lock_released_as); NULL for a set that differs from every lock. */
const char *rule_set_released_tag(const struct rule_set *rs);
/* What reports print for the set: its released tag, or "<manifest tag>+modified". */
const char *rule_set_display_tag(const struct rule_set *rs);
/* The manifest's `fixtures` directory, relative to the set's (default ../conformance). */
const char *rule_set_fixtures(const struct rule_set *rs);
/* That directory as a path (new): the set's directory joined with it, each leading ".."
 * taking away one trailing name of the set's directory (rules-yaml/../conformance reads
 * conformance). */
char *rule_set_fixtures_path(const struct rule_set *rs);
const struct ver_list *rule_set_versions(const struct rule_set *rs);
const struct res_config *rule_set_res_config(const struct rule_set *rs);
size_t rule_set_count(const struct rule_set *rs);
/* A client session (validate --together, rules-yaml/README.md "Session rules"): the
 * documents a client connects to at once, each resolved, in the order named. A session
 * rule judges document SELF with its {session: SEL} selectors running over the others. */
struct rule_session_doc {
    const doc *d;
    const struct view *view;
};
struct rule_session {
    const struct rule_session_doc *docs;
    size_t n;
    size_t self;
};
/* Is R a session rule (its check uses a {session: SEL} selector)? Session rules run only
 * when documents are judged together, and only then. */
int rule_is_session(const struct rule *r);
/* How many of RS's rules are session rules. */
size_t rule_set_session_count(const struct rule_set *rs);

/* Change rules (mcpdesc diff, rules-yaml/README.md "Change rules"): a rule with `compare`
 * judges pairs, an item of OLD and the item of NEW with the same identity (a tool's name,
 * a resource's uri, ...) in the same protocol versions, one side absent when the item was
 * added or removed; `compare: document` judges the two documents as one pair. Its plain
 * selectors run from NEW's item, {old: SEL} from OLD's. Change rules run only in a diff,
 * and only they. */
enum rule_side { RULE_SIDE_NONE = 0, RULE_SIDE_OLD = 1, RULE_SIDE_NEW = 2 };
struct cursor;
struct rule_pair_side {
    const doc *d;
    const struct view *view;
    const struct cursor *item; /* the item, or the root for a document pair; NULL: absent */
};
struct rule_pair {
    struct rule_pair_side old, new;
    ver_mask versions; /* the versions in which the two are one item (or one side has it) */
    /* An item added or removed: the name of an item on the other side, removed or added
     * too, with the same schemas (a "renamed?" hint); else NULL. */
    const char *renamed;
};
/* What a change means, and to whom (rules-yaml/README.md "Change rules"). ORDER
 * rule_category_names. */
enum rule_category {
    RULE_CATEGORY_NONE = 0,
    RULE_CATEGORY_CALLER,
    RULE_CATEGORY_OUTPUT,
    RULE_CATEGORY_PROTOCOL,
    RULE_CATEGORY_TRUST,
    RULE_CATEGORY_COMPATIBLE
};
/* "caller", "output", "protocol", "trust", "compatible"; NULL for NONE. */
const char *rule_category_name(enum rule_category c);
/* NAME as a category: 0 and *OUT, or -1. */
int rule_category_parse(const char *name, enum rule_category *out);
/* The names, NULL-terminated (for the compiler's did-you-mean and completion). */
extern const char *const rule_category_names[];
int rule_is_change(const struct rule *r);
/* R's `compare` ("tools", ..., "document"; NULL for a rule that is not a change rule). */
const char *rule_compare(const struct rule *r);
enum rule_category rule_category(const struct rule *r);
/* How many of RS's rules are change rules. */
size_t rule_set_change_count(const struct rule_set *rs);
/* rules lint: every list of every phrase-lists data file of RS (its own, not its base's)
 * finds each of its examples and none of its counter-examples, and names no phrase twice;
 * errors at file:line:col appended to ERRS (rule_data_load.c). The number of errors. */
size_t rule_data_lint(const struct rule_set *rs, struct diag_list *errs);
const struct rule *rule_set_rule(const struct rule_set *rs, size_t i);
const struct rule *rule_set_find(const struct rule_set *rs, const char *id);
/* Rule files in manifest order (paths relative to the rule set's directory). */
size_t rule_set_file_count(const struct rule_set *rs);
const char *rule_set_file(const struct rule_set *rs, size_t i);

/* The names the loader accepts, each a NULL-terminated list (borrowed, static) read off
 * the tables it checks with (rule_lang.h): for editors' completion, so that no second
 * list can fall behind. */
enum rule_names {
    RULE_NAMES_FILE,          /* a rule file's top level: predicates, rules */
    RULE_NAMES_RULE,          /* a rule's members */
    RULE_NAMES_CLAUSE,        /* a check clause's members */
    RULE_NAMES_EXAMPLE,       /* an examples entry's members */
    RULE_NAMES_EXPECT,        /* an example's expect: valid, invalid, warning, info */
    RULE_NAMES_REQUIRED_BY,   /* a required-by entry's members */
    RULE_NAMES_BASED_ON,      /* a based-on entry's members */
    RULE_NAMES_VERSION_RANGE, /* a version range: from, before */
    RULE_NAMES_MANIFEST,      /* the manifest's members */
    RULE_NAMES_DOCUMENT,      /* the manifest's document members */
    RULE_NAMES_COMPONENT_REF, /* the manifest's document.component-ref members */
    RULE_NAMES_REPORT_AT,     /* report-at: node, failure */
    RULE_NAMES_LEVEL,         /* a rule's level: must, should, may */
    RULE_NAMES_FIX,           /* a clause's fix: title, when, at, replace, set, add, remove */
    RULE_NAMES_FIX_EDIT,      /* a fix's set and add: member, value */
    RULE_NAMES_OVERRIDE,      /* a manifest's overrides entry: rule, level, preset, reason */
    RULE_NAMES_TEXTS,         /* the manifest's texts members: item, document, schema */
    RULE_NAMES_TEXTS_SCHEMA   /* the manifest's texts.schema members: roots, values, keys, skip */
};
const char *const *rule_names(enum rule_names which);

const char *rule_id(const struct rule *r);
enum diag_level rule_level(const struct rule *r);
ver_mask rule_applies(const struct rule *r);
const char *rule_file(const struct rule *r); /* relative to its origin set's directory */
/* The positions in rule_file(R) of R's fixes, in clause order: the first MAX go to LINES
 * and COLS (1-based); returns how many fixes R has. */
size_t rule_fix_positions(const struct rule *r, uint32_t *lines, uint32_t *cols, size_t max);
/* The set whose rule file holds R: the set itself, or a base set it extends (borrowed).
 * Pages and `rules explain` name a rule's own set, tag and tier names; its examples
 * resolve in that set's fixtures directory. */
const struct rule_set *rule_origin(const struct rule *r);
const char *rule_origin_name(const struct rule *r);
const char *rule_origin_tag(const struct rule *r);         /* the manifest's tag */
const char *rule_origin_display_tag(const struct rule *r); /* rule_set_display_tag */
const char *rule_origin_dir(const struct rule *r);
/* The origin set's fixtures directory: its directory joined with its `fixtures`, new. */
char *rule_origin_fixtures(const struct rule *r);
/* The rule's whole YAML mapping (borrowed): metadata for listings, pages and SARIF. */
json_t *rule_meta(const struct rule *r);
/* Does R yield to the rule ID (its `yields-to` names ID, or a "PREFIX.*" entry covers
 * it)? A rule never yields to itself. See overlap.h. */
int rule_yields_to(const struct rule *r, const char *id);
size_t rule_yields_count(const struct rule *r);
/* A string member of the metadata, or NULL. */
const char *rule_str(const struct rule *r, const char *member);

/* Presets (rules-yaml/README.md, "Presets"): which rules a run judges. A rule belongs to
 * `recommended` (the default: its YAML has no `preset`), or only to `strict` or `all`
 * (`preset: strict|all` with a `preset-reason`). The presets nest, recommended within
 * strict within all, so the values are ordered. 0 is no preset: every rule (what
 * struct eval_options means when it names none). */
enum rule_preset {
    RULE_PRESET_NONE = 0,
    RULE_PRESET_RECOMMENDED = 1,
    RULE_PRESET_STRICT = 2,
    RULE_PRESET_ALL = 3
};
/* The smallest preset R belongs to (recommended for a rule without `preset`, as every
 * rule of a set released before presets existed). */
enum rule_preset rule_preset(const struct rule *r);
/* Its `preset-reason` (borrowed): why a server author is better off without it by
 * default; NULL for a rule of recommended. When an override of the set moved it to
 * another preset, the override's reason (also for a rule it moved into recommended). */
const char *rule_preset_reason(const struct rule *r);
/* Does preset P run R? Every rule when P is RULE_PRESET_NONE. */
int rule_in_preset(const struct rule *r, enum rule_preset p);
/* "recommended", "strict" or "all" (NULL for RULE_PRESET_NONE). */
const char *rule_preset_name(enum rule_preset p);
/* NAME as a preset: 0 and *OUT set, or -1 when it is none of them. */
int rule_preset_parse(const char *name, enum rule_preset *out);
/* "recommended, strict, all": the choices, for messages. */
const char *rule_preset_names(void);
/* Does preset P leave out any rule of RS (a set with no rule outside recommended runs
 * the same rules under every preset)? */
int rule_set_preset_narrows(const struct rule_set *rs, enum rule_preset p);
/* Does RS have a rule outside recommended (the set uses presets at all)? */
int rule_set_has_presets(const struct rule_set *rs);

/* Overrides (rules-yaml/README.md, "Organisation rule sets"): a set's manifest may give a
 * rule of its base another level, turn it off, or move it to another preset, each with a
 * reason. rule_level and rule_preset then say the override's (so every report, SARIF
 * and preset membership follow it); these say what the rule file says and why not. */
/* Did an override turn R off? No preset runs it (rule_in_preset), as if skipped; a
 * config's levels or --rule ID may still run it, at rule_level. */
int rule_off(const struct rule *r);
/* Was R's level (or off) decided by an override; its preset? */
int rule_level_overridden(const struct rule *r);
int rule_preset_overridden(const struct rule *r);
/* Its level and preset as its rule file says them. */
enum diag_level rule_file_level(const struct rule *r);
enum rule_preset rule_file_preset(const struct rule *r);
/* The reason of the override that decided R's level (or off), and the set that says it
 * (borrowed; NULL when none did). The preset's reason is rule_preset_reason. */
const char *rule_level_reason(const struct rule *r);
const struct rule_set *rule_level_set(const struct rule *r);
const struct rule_set *rule_preset_set(const struct rule *r);

/* `mcpdesc rules dump` (rule_dump.c): the compiled program of the rules named by IDS (N
 * ids; every rule of the set when N is 0), in the set's rule order, each once: id, level,
 * applies (versions and mask), yields-to, then the clause tree with its versions (where
 * narrower than the parent's), selectors, predicates and their compiled arguments
 * (`use` resolved to its body, schema files relative to the set), message, hint and fixes.
 * RULE_DUMP_TEXT is an indented listing (like jq --debug-dump-disasm), RULE_DUMP_JSON one
 * JSON object; both are stable (no addresses). Returns 0, or -1 without writing anything
 * when some id names no rule of the set (the caller says which, and suggests). */
enum rule_dump_format { RULE_DUMP_TEXT, RULE_DUMP_JSON };
int rule_dump_write(const struct rule_set *rs, const char *const *ids, size_t n,
                    enum rule_dump_format format, FILE *out);
/* One rule of RS as `rules dump --format json` describes it (an entry of its "rules"):
 * id, file, line, column, level, severity, applies, yields-to and the compiled "check".
 * A new reference. `rules diff` compares the "check" of two sets' rules with it. */
json_t *rule_dump_json(const struct rule_set *rs, const struct rule *r);
/* The rule id of RS closest to ID, for "did you mean": within 3 edits, else one that
 * contains ID or is contained in it; NULL when none is close. */
const char *rule_set_suggest(const struct rule_set *rs, const char *id);

/* Is M (a parsed manifest.yaml, or NULL) a rule set's manifest: a mapping with the name,
 * tag and files that schema/manifest.schema.json requires? Then 1, and its name and tag
 * (new) in *NAME and *TAG when not NULL; else 0. The loader's own reading of those members,
 * for the readers of a manifest the loader kept (rule_set_manifest_doc). */
int rule_set_load_names(const doc *m, char **name, char **tag);
/* rule_set_load_names on DIR/manifest.yaml, which is only parsed (nothing is compiled):
 * how the command line finds the nearest rule set above a directory. */
int rule_set_load_probe(const char *dir, char **name, char **tag);

#endif
