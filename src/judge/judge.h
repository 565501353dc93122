/* judge.h - judge one document: load it (a file, standard input, or a buffer held in
 * memory) within the document limits, decide whether it can be judged, resolve it and
 * run the rule set with the caller's options (eval.h), and hand back the per-document
 * result: the diagnostics, or the one error that says why it was not judged. This is
 * the one path from bytes to diagnostics for every front end: `mcpdesc validate`
 * (cli/cmd_validate.c; `capture --validate` goes through it), the embedding API
 * (judge/mcpdesc.h), and an editor judging the buffer it holds. Walking directories,
 * threads and writing reports stay with the front end. */
#ifndef MCPDESC_JUDGE_H
#define MCPDESC_JUDGE_H

#include <stddef.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "rules/rule.h"

/* The top-level member that makes a file found by a directory search a description. */
#define JUDGE_DESCRIPTION_MEMBER "mcpDescription"

/* Where the bytes come from. */
enum judge_from {
    /* PATH, read as doc_load_file reads it ("-" is standard input, as JSON): YAML when
     * PATH ends in .yaml or .yml, else JSON */
    JUDGE_FILE,
    /* standard input, read whole: YAML or JSON as NAME ends (.yaml/.yml, .json), else
     * by content: JSON when the first character after a byte-order mark and white space
     * is '{' or '[' (a JSON document is almost always an object or an array, a YAML one
     * almost never starts with either), YAML otherwise */
    JUDGE_STDIN,
    /* DATA, LEN bytes (read during the call only): YAML when NAME ends in .yaml or
     * .yml, else JSON */
    JUDGE_BUFFER,
};

struct judge_source {
    enum judge_from from;
    const char *name; /* the document's name in diagnostics and reports */
    const char *path; /* JUDGE_FILE */
    const char *data; /* JUDGE_BUFFER; NULL is an empty buffer */
    size_t len;
};

struct judge_options {
    const struct eval_options *eval; /* what is judged (rules, versions, timing); NULL: all */
    const struct doc_limits *limits; /* NULL: the defaults of doc.h */
    /* The document was found by a directory search, not named: it is skipped unless its
     * top level is an object with an mcpDescription member, or a member that looks like
     * a misspelling of it (letter case aside, at most two edits: "mcpDescripton",
     * "mcp_description"), so that the description-format rule reports the typo. A found
     * JUDGE_FILE that does not parse is skipped too ("not a description: does not
     * parse") unless something names it a description (judge_named_description) or
     * STRICT_INPUTS is set; one that cannot be read stays an input error. */
    int found;
    /* --strict-inputs: a found document that does not parse is always an input error */
    int strict_inputs;
    /* Load, check and keep the document, but run no rule (mcpdesc diff judges it with
     * another one, judge/diff.h) and leave its --protocol-version check to the caller. */
    int load_only;
};

/* Does a found file that does not parse name itself a description, so that it is an
 * input error rather than skipped? Yes when PATH's last name matches
 * ([^/]+\.)?mcp-description\.(json|ya?ml) or DATA (LEN bytes) holds a word that
 * is mcpDescription or a misspelling judge_options.found accepts ("mcp_description"). */
int judge_named_description(const char *path, const char *data, size_t len);

/* One document's outcome: exactly one of D, ERROR and SKIPPED is set. */
struct judge_result {
    doc *d;                 /* the judged document (owned: kept for source excerpts) */
    struct diag_list diags; /* what the rules found, sorted and merged (with D) */
    /* Why the document was not judged (owned): it could not be read or parsed, its top
     * level is not an object, or the options' versions select none of those its
     * protocolVersions lists. Level error, no rule, no pointer, at the position. */
    struct diag *error;
    /* Why a found document was skipped ("no mcpDescription member", "not a description:
     * does not parse"; static). */
    const char *skipped;
};

/* Judge the document SRC with RS (shared, read only: threads may judge their own
 * documents with one rule set at the same time) and OPTS (NULL: judge everything).
 * Fills *OUT, which the caller releases with judge_result_release. */
void judge_document(const struct rule_set *rs, const struct judge_source *src,
                    const struct judge_options *opts, struct judge_result *out);
/* Judge the judged documents of RESULTS[0..N) (those with D and not LEFT_OUT[i]; each
 * judged alone before, by judge_document) again as one client session (validate
 * --together): RS's session rules (rule.h: rule_is_session) run over each document with
 * the others as the session, in order, and what they find is added to that document's
 * diagnostics (sorted, merged). A finding is reported on each document involved: at
 * each of its related places that no finding of the same rule reports (the tool a
 * cross-server reference names), one that names it as the related place. OPTS as for
 * eval_document (its session member is ignored); LEFT_OUT may be NULL. Runs on the
 * calling thread. */
void judge_together(const struct rule_set *rs, struct judge_result *results, size_t n,
                    const struct eval_options *opts, const unsigned char *left_out);
/* Free what *R owns (the document, the diagnostics, the error) and empty it. */
void judge_result_release(struct judge_result *r);

#endif
