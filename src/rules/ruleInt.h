/* ruleInt.h - the compiled program: a set (rule_set.c reads and frees it,
 * rule_set_load.c builds it), its rules, clauses, fixes and predicates, shared by the
 * compiler (rule_compile.c), the predicates (fn.c, fn_schema.c, fn_pred.c and fn_table.c,
 * their one table; through fnInt.h), the interpreter (judge/eval.c), the fixer
 * (findings/fix.c) and rule_dump.c (`rules dump`, which prints it). Nothing else includes it. */
#ifndef MCPDESC_RULEINT_H
#define MCPDESC_RULEINT_H

#include <jansson.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"
#include "rules/rule_lang.h"
#include "schema/schema.h"
#include "resolve/sel.h"
#include "resolve/texts.h"
#include "base/buf.h"
#include "base/util.h"
#include "base/ver.h"

struct eval_ctx;
struct pred;
struct rule_data;

/* The compiler's view of a YAML value: the value and its source node. */
struct yv {
    json_t *v;
    doc_node n;
};

/* A named predicate (`predicates:` of a rule file), compiled on first use. */
struct named_pred {
    char *name;
    struct yv y;
    const doc *d; /* the rule file that defines it */
    struct pred *compiled;
    int busy;
    int failed; /* compiled once and refused: its errors are reported once, not per use */
};

/* The named predicates of every rule file of a set, shared by its files. */
struct named_preds {
    VEC(struct named_pred) v;
};

/* Compile state for one rule file. */
struct cc {
    const doc *d; /* the rule file */
    struct rule_set *rs;
    struct diag_list *errs;
    struct named_preds *named; /* the `predicates:` of every rule file of the set */
    int nodes;                 /* compiled predicate nodes (bounds alias bombs) */
};

/* Append a positioned error about node N (its key when AT_KEY) to the compile state's list,
 * with the general hint (where the rule format is described), or with HINT: how to fix
 * what the message says. */
void rule_cc_error(struct cc *cc, doc_node n, int at_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void rule_cc_error_hint(struct cc *cc, doc_node n, int at_key, const char *hint, const char *fmt,
                        ...) __attribute__((format(printf, 5, 6)));
/* 1 the first time DIR (a missing directory) is named for the set being loaded, else 0:
 * a directory that is not there is reported once, not once per file in it. */
int rule_cc_missing_dir_once(struct cc *cc, const char *dir);
/* The hint of every "unknown member" error. */
extern const char rule_hint_unknown_member[];
/* Parse a version spec ("all", [V...], {from: V}, {before: V}, {from, before}). */
int rule_cc_versions(struct cc *cc, struct yv y, ver_mask *out);
/* Compile a predicate; NULL after reporting an error. */
struct pred *rule_cc_pred(struct cc *cc, struct yv y);
/* `use: NAME`: the set's named predicate (defined in any of its own rule files, not in a
 * base set), compiled on first use in the file that defines it (or report). */
struct pred *rule_cc_named(struct cc *cc, struct yv name);
/* Compile a selector string (or report). */
struct sel *rule_cc_sel(struct cc *cc, struct yv y);
/* A selector a predicate compares with: a string, or {session: STRING} (the nodes STRING
 * reaches in the session's other documents; *SESSION set to 1). NULL after reporting. */
struct sel *rule_cc_sel_or_session(struct cc *cc, struct yv y, int *session);
/* Does P (or a predicate inside it) compare with a session selector? */
int rule_pred_uses_session(const struct pred *p);
/* A selector a predicate compares with in a change rule: a string, {session: STRING}, or
 * {old: STRING} / {new: STRING} (*SIDE set to RULE_SIDE_OLD or RULE_SIDE_NEW: the nodes
 * STRING reaches from that side's item of the pair; rule_change.c). NULL after reporting. */
struct sel *rule_cc_sel_any(struct cc *cc, struct yv y, int *session, int *side);
/* Does P, or a clause, use an {old:}/{new:} selector or a predicate that needs a pair? */
struct clause;
int rule_pred_uses_pair(const struct pred *p);
int rule_clause_uses_pair(const struct clause *c);
/* A rule's `compare` and `category` (rule_change.c), and the check that a change rule and
 * an ordinary one each use only what their judging gives them. */
int rule_cc_compare_member(struct cc *cc, struct rule_lang_walk *w);
int rule_cc_category_member(struct cc *cc, struct rule_lang_walk *w);
int rule_cc_check_change(struct cc *cc, struct yv y, struct rule *r); /* -1 after reporting */
/* One member of a mapping, as a handler of its table sees it (rule_lang.h). */
struct rule_lang_walk {
    struct yv y;                        /* the mapping */
    const char *what;                   /* how messages name it: "a rule" */
    const struct rule_lang_member *row; /* the member's row */
    struct yv m;                        /* the member; v NULL when absent */
    void *out;                          /* what the handlers build (a rule, a clause, ...) */
};
/* Walk the mapping Y (WHAT in messages) against its table MAP: its unknown members, then
 * each row, step by step: the walker's check of its kind or its own handler (rule_lang.h).
 * 0, or -1 when a handler refused the mapping. */
int rule_cc_members(struct cc *cc, struct yv y, const struct rule_lang_map *map, const char *what,
                    void *out);
/* Report the members of mapping Y that MAP does not have (with a did-you-mean). */
void rule_cc_unknown_members(struct cc *cc, struct yv y, const struct rule_lang_map *map,
                             const char *what);
/* The tables of the rule files' mappings (rule_compile.c) and of the manifest's
 * (rule_set_load.c); rule_lang.c lists them. */
extern const struct rule_lang_map rule_cc_lang_file, rule_cc_lang_rule, rule_cc_lang_clause,
    rule_cc_lang_fix, rule_cc_lang_fix_edit, rule_cc_lang_example, rule_cc_lang_required_by,
    rule_cc_lang_based_on, rule_cc_lang_version_range;
extern const struct rule_lang_map rule_set_lang_manifest, rule_set_lang_document,
    rule_set_lang_component_ref, rule_override_lang, rule_texts_lang, rule_texts_lang_schema;

/* The member KEY of mapping Y (v NULL when absent). */
struct yv rule_yv_member(struct cc *cc, struct yv y, const char *key);
struct yv rule_yv_item(struct cc *cc, struct yv y, size_t i);
const char *rule_json_type_name(json_t *v);

/* A predicate: one entry of fn_table applied to compiled arguments. */
enum fn_result { FN_FAIL = 0, FN_PASS = 1 };

struct fn_def {
    const char *name;
    const char *synopsis; /* argument shape, for errors and the rule author's guide */
    const char *doc;      /* one sentence */
    int (*compile)(struct cc *cc, struct pred *p, struct yv arg);
    int (*eval)(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx);
    /* Frees what compile kept beyond the members fn_pred_free always frees (arg, kids,
     * sel, body), e.g. matches-schema's compiled schema; NULL when there is nothing. */
    void (*free)(struct pred *p);
};

struct pred {
    const struct fn_def *fn;
    unsigned types;     /* json-type */
    json_t *arg;        /* literal argument (string, key list, value; for `use` the
                              * name); owned */
    struct pred **kids; /* all/any/not/use; owned except for `use` */
    size_t nkids;
    struct sel *sel;         /* every/some */
    struct pred *body;       /* every/some */
    int borrowed;            /* kids[0] belongs to a named predicate */
    struct schema *compiled; /* matches-schema (freed by its fn's free hook) */
    char *file;              /* matches-schema: its file relative to the rule set's directory,
                              * "." and "DIR/.." segments removed; owned (the same hook) */
    void *data;              /* chars, phrases: what the compiler resolved in a data file
                              * (freed by the fn's free hook) */
    int session;             /* a holder of a session selector, {session: SEL}: SEL runs
                              * over the session's other documents (struct rule_session) */
    int side;                /* a holder of {old: SEL} or {new: SEL} (RULE_SIDE_*): SEL runs
                              * from that side's item of the pair (struct rule_pair) */
};

/* fn_table.c: every predicate a rule may name, in one table (the loader's lookup and
 * "did you mean", tests/check-schemas.sh against schema/rule-file.schema.json). */
extern const struct fn_def fn_table[];
extern const size_t fn_count;
/* The entry of fn_table named NAME, or NULL. */
const struct fn_def *fn_lookup(const char *name);
/* The rule set's JSON Schema registry (created when the set loads, with the manifest's
 * schema-map), shared by every schema predicate and by threads (schema.h). */
struct schema_ctx *rule_set_schemas(const struct rule_set *rs);
/* For rule_dump.c: json-type's bits as a new array of type names; format's name (NULL
 * for any other predicate); whether P is a private holder kept in another predicate's
 * kids (a compiled regex, an extra selector), not a predicate a rule wrote. */
json_t *fn_type_names(unsigned types);
const char *fn_format_name(const struct pred *p);
int fn_is_holder(const struct pred *p);
/* fn.c: free a compiled predicate and its kids (not borrowed ones); run one. */
void fn_pred_free(struct pred *p);
int fn_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx);

/* A clause's `fix` (rules-yaml/README.md, "Fixes"): one declarative edit at the
 * finding's value, or at AT below it. Applied by fix.c. */
enum rule_fix_op {
    RULE_FIX_REPLACE, /* replace the value with VALUE */
    RULE_FIX_SET,     /* set MEMBER of the object to VALUE (added, or its value replaced) */
    RULE_FIX_ADD,     /* add MEMBER: VALUE to the object when it has no such member */
    RULE_FIX_REMOVE   /* remove MEMBER from the object */
};
struct rule_fix {
    enum rule_fix_op op;
    char *title;       /* what an editor shows; placeholders as in message */
    struct pred *when; /* offered only where it holds at the finding's value, or NULL */
    char *at;          /* a JSON Pointer below the finding's value ("" = the value) */
    char *member;      /* set, add, remove */
    json_t *value;     /* replace, set, add */
    uint32_t line, col;
};

struct clause {
    uint32_t line, col;
    ver_mask vmask; /* versions this branch is for */
    struct sel **sels;
    size_t nsels;
    struct pred *when;
    struct pred *require;
    char *message, *hint;
    struct rule_fix **fixes; /* `fix`: one, or a list; the first whose `when` holds */
    size_t nfixes;
    struct clause **kids;
    size_t nkids;
    int first;      /* kids: per version, only the first failing one reports */
    int at_failure; /* report-at: failure: report where the predicate failed */
    int at_match;   /* report-at: match: report where in the string the text was found */
    int texts;      /* select: {texts: item} or {texts: document} (RULE_TEXTS_*), no sels */
    unsigned char *sel_sides; /* per selector: 0, or RULE_SIDE_OLD/NEW for {old:}/{new:}
                               * (a change rule's); NULL when every one is plain */
};

/* ---- texts (rule_texts.c): the manifest's `texts:`; select {texts: ...} ------------ */

enum { RULE_TEXTS_NONE, RULE_TEXTS_ITEM, RULE_TEXTS_DOCUMENT, RULE_TEXTS_ALL };
/* The manifest's `texts` member (Y; v NULL when absent) into cc->rs->texts. */
void rule_texts_load(struct cc *cc, struct yv y);
/* The texts declaration RS judges with: its own, else its base's (rule_set.c; borrowed;
 * NULL: none). */
const struct texts_spec *rule_set_texts(const struct rule_set *rs);

/* A `yields-to` entry: a rule id, or "PREFIX.*" for every rule whose id starts with
 * "PREFIX.", with its position in the rule file (checked once the whole set is loaded). */
struct yield {
    char *pattern;
    uint32_t line, col;
};

/* A manifest's `overrides` entry (rule_override.c): the base rules PATTERN matches take
 * its level (or are off) and its preset, for the reason it gives. */
struct rule_override {
    char *pattern; /* a base rule's id, or an fnmatch glob */
    int has_level, off, has_preset;
    enum diag_level level;
    enum rule_preset preset;
    char *reason;
    uint32_t line, col;         /* the entry's `rule` in the manifest */
    const struct rule_set *set; /* the set whose manifest says it */
};

struct rule {
    char *id;
    enum diag_level level;
    enum rule_preset preset; /* RULE_PRESET_RECOMMENDED unless `preset` says otherwise */
    ver_mask applies;
    json_t *meta;
    struct clause *check;
    char *file;
    uint32_t line, col;
    struct yield *yields; /* yields-to: overlap.c drops this rule's overlapping diagnostics */
    size_t nyields;
    const struct rule_set *origin; /* the set whose rule file holds it (a base set, or the set) */
    int borrowed;                  /* a base set's rule: its program belongs to that set */
    /* The overrides that decided its level (or off) and its preset, NULL where its rule
     * file decides; then FILE_LEVEL and FILE_PRESET are what the rule file says. */
    const struct rule_override *ov_level, *ov_preset;
    enum diag_level file_level;
    enum rule_preset file_preset;
    int off;     /* an override turned it off: no preset runs it */
    int session; /* a session rule: its check compares with {session: SEL} selections, so
                  * it runs only when documents are judged together (rule_session) */
    /* A change rule (mcpdesc diff): `compare` names the collection whose items it judges
     * in pairs (or "document"), `category` what a change means to whom. */
    char *compare;
    enum rule_category category;
};

/* One place where a predicate failed, for report-at: failure (struct eval_ctx, places). */
struct fn_place {
    char *at;     /* a JSON pointer below the judged node, as eval_ctx.at */
    char *detail; /* {detail} there, as eval_ctx.detail */
};

/* A node of another document of the session that a finding concerns (eval_ctx.related). */
struct fn_related {
    const doc *d;
    doc_node node;
    const char *pointer; /* its pointer in D (borrowed) */
    json_t *v;           /* its value (borrowed) */
};
/* Empty ctx->related; append one. */
void fn_related_reset(struct eval_ctx *ctx);
void fn_related_add(struct eval_ctx *ctx, const doc *d, doc_node node, const char *pointer,
                    json_t *v);

/* Interpreter state for one document. */
struct eval_ctx {
    const struct rule_set *rs;
    const struct rule *rule;
    struct sel_ctx sctx;
    struct diag_list *out;
    struct buf detail;          /* why the last predicate failed: {detail} in messages */
    struct buf at;              /* where, below the judged node, as a JSON pointer ("" if
                              * the predicate names no place): for report-at: failure */
    struct fn_indexes *indexes; /* unique/among selection indexes for this document */
    struct texts_cache *texts;  /* the text lists of {texts: ...} selectors (texts.h) */
    ver_mask narrow;            /* the versions in which a failing require fails: every version,
                              * unless a predicate names fewer (unique: those the node shares
                              * with its earlier duplicates); not and any give it back */
    /* Every place the last predicate failed at, each with its own detail, when it names
     * them all (valid-schema: each failing keyword). Under report-at: failure each place is
     * its own diagnostic; otherwise at and detail hold the one-line summary (the first
     * place, where it is, and how many more). Read only while at and detail are still that
     * summary (a later predicate that set them has replaced it); emptied before each
     * require. */
    VEC(struct fn_place) places;
    char *places_summary; /* the detail the summary set, or NULL */
    /* Where inside the judged string the last predicate that looked for text found it
     * (matches, and any predicate that searches a string): byte offset and length in the
     * decoded UTF-8 value; set 0 before each require. For report-at: match and the
     * {match} and {codepoint} placeholders. */
    struct fn_match {
        int set;
        size_t off, len;
        int key; /* found in the node's member name (the key predicate), not its value */
    } match;
    /* The session being judged (validate --together), or NULL: the documents session
     * selectors run over, all but session->self. */
    const struct rule_session *session;
    /* The nodes of other documents the last session predicate found (among: the equal
     * values; mentions: the tool named), for the finding's related places; emptied before
     * each require, pointers borrowed from the document's indexes. */
    VEC(struct fn_related) related;
    /* The pair being judged (mcpdesc diff), or NULL; SIDE is the side whose document
     * sctx walks now (RULE_SIDE_NEW, or RULE_SIDE_OLD inside an {old: SEL} selection). */
    const struct rule_pair *pair;
    int side;
    /* Set by a predicate that read outside the item being judged (above depth 2: the
     * collection, the document), where eval_memo.h cannot tell whether it changed: the
     * item's findings are then not kept for the next text. */
    int escaped;
    /* no-schema-change: the last pair of schemas found equal (one pair's change rules
     * each ask about the same two schemas), or NULLs */
    const json_t *same_old, *same_new;
};
/* fn_pair.c: the other side of the pair being judged (NULL outside a pair), and the node
 * at C's place there: C's path below the judged side's item, followed from the other
 * side's item as far as it goes (STEPS, MAX entries, hold the cursors). 0: *OUT is that
 * node; 1: *OUT is the deepest place the other side has; -1: none (no pair, no other
 * item, or deeper than MAX). */
const struct rule_pair_side *fn_pair_other(const struct eval_ctx *ctx);
int fn_pair_counterpart(const struct eval_ctx *ctx, const struct cursor *c, struct cursor *steps,
                        size_t max, const struct cursor **out);
/* Record that the predicate found its text at bytes [OFF, OFF+LEN) of the judged string. */
void fn_match_note(struct eval_ctx *ctx, size_t off, size_t len);
/* Empty ctx->places; add AT with DETAIL to it (both copied). */
void fn_places_reset(struct eval_ctx *ctx);
void fn_places_add(struct eval_ctx *ctx, const char *at, const char *detail);
/* Set at and detail to the summary of ctx->places: the first place's detail, " at " its
 * pointer, and "; N more" (MORE_UNCOUNTED: "at least N more"). */
void fn_places_summarize(struct eval_ctx *ctx, int more_uncounted);
/* Are ctx->places the last failing predicate's (at and detail still their summary)? */
int fn_places_current(const struct eval_ctx *ctx);
/* A per-document memo for predicates whose result depends only on a JSON value and a
 * TAG (the same schema reached through several $componentRefs is judged once): get
 * returns 1 and sets *RESULT and ctx->detail when VALUE was judged with TAG; put records
 * RESULT with the current ctx->detail. Freed with the indexes below. */
int fn_memo_get(struct eval_ctx *ctx, const void *value, int tag, int *result);
void fn_memo_put(struct eval_ctx *ctx, const void *value, int tag, int result);
/* A predicate's own per-document structure (mentions: the names its selectors reach),
 * keyed by P and BASE (NULL: the document), kept and freed with the indexes below: get
 * returns what put stored for the key, or NULL; put stores DATA, freed by DATA_FREE. */
void *fn_cache_get(struct eval_ctx *ctx, const struct pred *p, const struct cursor *base);
void fn_cache_put(struct eval_ctx *ctx, const struct pred *p, const struct cursor *base, void *data,
                  void (*data_free)(void *));
/* Free the per-document indexes of unique/among (and the memo). */
void fn_indexes_free(struct eval_ctx *ctx);
/* Is P a unique, among or mentions whose selectors are all absolute selectors of this
 * document (what it reads beyond the node it judges is the same for every node)? */
int fn_reads_document(const struct pred *p);
/* What such a P reads beyond the node it judges in ctx's document, written to OUT as
 * bytes that are equal exactly when what it reads is: each selected node's pointer (or
 * member name), versions and value, in selection order (unique, among: their index,
 * built now if no rule built it yet). judge/eval_memo.c compares a document's
 * successive texts by it. */
void fn_index_fingerprint(const struct pred *p, struct eval_ctx *ctx, struct buf *out);

/* ---- the set (rule_set.c reads and frees it; rule_set_load.c builds it) ------------ */

/* One file of the set's digest, by kind: a lock of an old format covers only some kinds
 * (lock.c), and a release copies each kind to its own directory. */
struct file_digest {
    char *path;
    char hex[65];
    enum rule_file_kind kind;
};

struct rule_set {
    char *dir;
    struct rule_set *base; /* the set `extends` names (owned), or NULL */
    char *extends;         /* "NAME@TAG" of the base, for the digest line */
    char *name, *tag, *format;
    char *fixtures; /* the manifest's `fixtures` (relative to dir), default ../conformance */
    char digest[7 + 64 + 1];
    char *sums;     /* the `sha256sum` lines the digest is taken over (a release's SHA256SUMS) */
    char *released; /* the tag whose lock records exactly these files, else NULL */
    char *display_tag;
    struct ver_list versions;
    char *versions_member, *ref_member, *ref_prefix;
    VEC(char *) collections;
    VEC(struct sel *) scopes;
    struct res_config rescfg;
    VEC(struct rule) rules;
    VEC(struct rule_override) overrides; /* the manifest's, applied to the base's rules */
    VEC(struct rule_refused) refused;    /* rules that did not compile (yields-to may name them) */
    VEC(char *) missing_dirs;            /* schema directories reported missing (each said once) */
    char *unread; /* the first rule file that could not be read or parsed, else NULL: the
                   * checks across files (yields-to, use:) are left out, since what they
                   * look for may be there */
    VEC(char *) files;
    VEC(struct pred *) shared_preds; /* named predicates, referenced by `use` */
    VEC(struct file_digest) digests; /* manifest and rule files, sorted by path */
    /* the sha256 of the manifest and rule files as they were read to be parsed, so that
     * the digest reads none of them again (during the load only) */
    VEC(struct file_digest) parsed;
    VEC(struct rule_data *) data; /* the manifest's data files (rule_data.h) */
    json_t *manifest;
    struct texts_spec *texts;           /* the manifest's `texts:` (owned), or NULL: the base's */
    schema_ctx *schemas;                /* JSON Schema registry for schema predicates */
    const struct rule_overlay *overlay; /* during the load only (rule_load_opts) */
    int ok;                             /* loaded without any error */
    /* the record of sha256s by identity (rule_cache.h: rule_sums) this set's load reads
     * and writes (a base's load keeps its own), during the load only, or NULL */
    struct rule_sums *load_sums;
    /* matches-schema's schemas compiled on first use (rule_cache.h): set for a load that
     * may defer them; the predicates deferred and their files, and the schema-map as
     * given (prefix, directory, ...), during the load only */
    int defer_schemas;
    VEC(struct pred *) deferred;
    VEC(char *) deferred_files; /* borrowed from the predicates */
    VEC(char *) schema_maps;
    int keep_docs; /* a partial load keeps the documents it parsed: */
    doc *manifest_doc;
    VEC(doc *) file_docs; /* parallel to files (NULL entries: not read) */
};

/* Free what a rule, a clause or a fix owns (rule_set.c; the compiler frees what it
 * refuses with them too). */
void rule_release(struct rule *r);
void rule_clause_free(struct clause *c);
void rule_fix_free(struct rule_fix *f);
/* Does the yields-to pattern PAT (an id, or "PREFIX.*") match rule ID? */
int rule_yield_matches(const char *pat, const char *id);

/* ---- overrides (rule_override.c) ---------------------------------------------------- */

/* The manifest's `overrides` (Y, a member of the manifest; v NULL when absent), read
 * into cc->rs->overrides once the base is loaded: each entry's rule must match a rule of
 * the base, and needs a reason and a level or preset (else reported at its position). */
void rule_override_load(struct cc *cc, struct yv y);
/* Give the base's rules of RS (borrowed copies) the levels and presets of its overrides,
 * in order: the last entry that matches a rule decides. */
void rule_override_apply(struct rule_set *rs);

/* ---- the compiler's entry points for the loader (rule_compile.c) ------------------- */

/* Compile rule Y of the rule file being compiled (FILE, as the manifest names it) into
 * cc->rs, or record its id as refused after reporting why. */
void rule_compile_rule(struct cc *cc, struct yv y, const char *file);
/* Y's member KEY as a string (borrowed), or NULL: reported when REQUIRED and missing, or
 * when present and not a non-empty string. */
const char *rule_cc_need_string(struct cc *cc, struct yv parent, const char *key, const char *what,
                                int required);
/* Y's member KEY, when present, must be a list of strings. */
void rule_cc_check_string_list(struct cc *cc, struct yv y, const char *key, const char *what);
/* Every yields-to entry of RS must name another rule of the set (or a built-in one). */
void rule_cc_check_yields(const struct rule_set *rs, struct diag_list *errs);
/* An error about a file or the whole set rather than a node of the rule file being
 * compiled (LINE 0 when there is no position), with the general hint. */
void rule_cc_set_error(struct diag_list *errs, const char *file, uint32_t line, uint32_t col,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* matches-schema predicates a load deferred (rs->deferred, fn_schema.c): compile P now
 * (0, or -1 when it does not compile: the loader loads again without deferring, to
 * report it where it is named); or leave it to its first match, RECORD being the
 * rule_cache record that said it compiles. */
int fn_schema_compile_deferred(struct pred *p);
void fn_schema_defer(struct pred *p, const char record[65]);
/* The closest of NAMES (NULL-terminated) to S, if close enough to be a typo. */
const char *rule_cc_nearest(const char *s, const char *const *names);

#endif
