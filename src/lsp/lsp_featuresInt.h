/* lsp_featuresInt.h - what the files of the editor features share (lsp_features.c,
 * lsp_features_nav.c, lsp_features_complete.c, lsp_features_context.c,
 * lsp_features_describe.c): the lines of a buffer with code point
 * columns, the token at a position, the rule set directory a file belongs to, and where
 * a named predicate or a rule is defined. Nothing outside those files includes it. */
#ifndef MCPDESC_LSP_FEATURESINT_H
#define MCPDESC_LSP_FEATURESINT_H

#include <stddef.h>
#include <stdint.h>

#include "lsp/lsp_features.h"

/* The lines of a text: line L (1-based) is starts[L-1], len[L-1] bytes (no newline, no
 * trailing CR). */
struct lspf_lines {
    const char *text;
    size_t len; /* of the whole text */
    size_t n;
    size_t *starts, *lens;
};
void lspf_lines_init(struct lspf_lines *ls, const char *text, size_t len);
void lspf_lines_release(struct lspf_lines *ls);
/* Line L's bytes (borrowed; NULL when out of range) and length. */
const char *lspf_line(const struct lspf_lines *ls, uint32_t line, size_t *len);
/* The byte offset in S (LEN bytes) of the code point at 1-based column COL (LEN when past
 * the end); the 1-based column of byte offset OFF. */
size_t lspf_col_to_off(const char *s, size_t len, uint32_t col);
uint32_t lspf_off_to_col(const char *s, size_t off);

/* The range of the token that starts at START: a JSON or YAML quoted string, a number or
 * literal, a plain YAML scalar (up to ": ", " #", a flow indicator or the line's end), or
 * one character for '{', '[' and anything else. */
struct lspf_range lspf_token_range(const struct lspf_lines *ls, struct doc_pos start);

/* The range of the value that starts at START, as a published diagnostic covers it
 * (lsp_value_end: a bracketed value to its closing bracket), so that hover on a finding
 * answers wherever the editor underlines it. */
struct lspf_range lspf_value_range(const struct lspf_lines *ls, struct doc_pos start);

/* The word at POS (letters, digits, '.', '-', '_', '*', '$'): new string, its range;
 * NULL when POS is on no word. */
char *lspf_word_at(const struct lspf_lines *ls, struct doc_pos pos, struct lspf_range *range);

/* PATH's directory (new; "." without a slash) and its last name (borrowed). */
char *lspf_dirname(const char *path);
const char *lspf_basename(const char *path);
int lspf_is_yaml_name(const char *path);
/* Is T YAML? By its name (.yaml, .yml: YAML; .json: JSON), else by content as `validate -`
 * reads standard input: JSON when the first character after a byte-order mark and white
 * space is '{' or '['. */
int lspf_text_is_yaml(const struct lspf_text *t);

/* The partial program of the rule set T belongs to (the manifest.yaml in T's directory;
 * rules/rule.h, rule_set_load_partial), read with T's own text for the file T is: the
 * one reader of the set's manifest and rule files, whose documents it keeps. New (free
 * with rule_set_free); NULL when T has no path, or no manifest parses there. */
struct rule_set *lspf_program(const struct lspf_text *t);
/* The rule files of the set T belongs to (the files: of its program's manifest, read
 * with T's own text when T is the manifest), as paths (new, each and the array); *N 0
 * and NULL when there is none. The manifest's versions too, into VERSIONS when not NULL
 * (new strings, *NVERSIONS of them, at most 64). */
char **lspf_set_files(const struct lspf_text *t, size_t *n, char ***versions, size_t *nversions);
void lspf_strings_free(char **v, size_t n);

/* Where the named predicate NAME is defined: in T, else in the other rule files of its
 * set. Fills *LOC (path new) and *DEF (the definition's lines, new) and returns 1, or
 * returns 0. */
int lspf_find_named(const struct lspf_text *t, const char *name, struct lspf_location *loc,
                    char **def);
/* The names of the named predicates of T's set (T, then its other rule files), new. */
char **lspf_named_names(const struct lspf_text *t, size_t *n);
/* Where the rules whose id is ID, or starts with PREFIX. when ID is "PREFIX.*", are
 * (their id values), in T and its set's other rule files: appended to *LOCS (*N). */
void lspf_find_rules(const struct lspf_text *t, const char *id, struct lspf_location **locs,
                     size_t *n);

/* What the text before a position in a YAML file is in (lsp_features_context.c): the chain of collections around
 * it (outermost first, each the value of KEY, NULL at the top or for a sequence item),
 * and what is being written there. */
enum lspf_frame_kind { LSPF_FRAME_MAP, LSPF_FRAME_SEQ };
struct lspf_frame {
    enum lspf_frame_kind kind;
    char *key; /* the key whose value the collection is (new), NULL for the top level or an
                * item of a sequence */
};
enum lspf_slot {
    LSPF_SLOT_NONE,  /* inside a scalar, a comment, ...: nothing to offer */
    LSPF_SLOT_KEY,   /* a key of the innermost mapping */
    LSPF_SLOT_VALUE, /* the value of KEY in the innermost mapping */
    LSPF_SLOT_ITEM   /* a scalar item of the innermost sequence */
};
struct lspf_context {
    struct lspf_frame *frames;
    size_t nframes;
    enum lspf_slot slot;
    char *key;    /* LSPF_SLOT_VALUE: the key (new) */
    char *prefix; /* what is written of the word at the position (new, may be "") */
};
void lspf_context_at(const struct lspf_lines *ls, struct doc_pos pos, struct lspf_context *cx);
void lspf_context_release(struct lspf_context *cx);
/* What the innermost mapping of CX is in a rule file or manifest (KIND): one of
 * enum rule_names, or LSPF_CX_UNKNOWN (-1). LSPF_CX_PREDICATE for a predicate mapping. */
enum { LSPF_CX_UNKNOWN = -1, LSPF_CX_PREDICATE = 1000, LSPF_CX_QUANTIFIER = 1001 };
int lspf_context_class(const struct lspf_context *cx, enum lspf_kind kind);

/* A description (lsp_features_describe.c), from the format's JSON Schema of RS
 * (mcp-description.schema.json): the member names that can be written at POS, with the
 * schema's description as documentation, appended to OUT; and hover on a member key (its
 * description), 1 and *OUT filled, or 0. Nothing without RS or that schema. */
void lspf_describe_complete(const struct rule_set *rs, const struct lspf_text *t,
                            struct doc_pos pos, struct lspf_items *out);
int lspf_hover_member(const struct rule_set *rs, const struct lspf_text *t, struct doc_pos pos,
                      struct lspf_hover *out);

#endif
