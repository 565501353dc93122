/* diag.h - diagnostics: what a rule (or the loader) found, where, for which versions.
 * A list owns its diagnostics; reporters only read them. */
#ifndef MCPDESC_DIAG_H
#define MCPDESC_DIAG_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

#include "base/ver.h"

enum diag_level { DIAG_INFO, DIAG_WARNING, DIAG_ERROR };

/* Another place a finding concerns (validate --together: the other server's tool a name
 * collides with). Every string owned. */
struct diag_related {
    char *file;         /* the other document's name, as its own diagnostics name it */
    uint32_t line, col; /* 1-based; 0 when unknown */
    char *pointer;      /* RFC 6901 pointer in that document */
    char *message; /* what it is, for people ("the tool \"search\" of server \"b\""), or NULL */
};

struct diag {
    enum diag_level level;
    char *rule;         /* rule id; NULL for loader errors (rule files, parse errors) */
    char *file;         /* file the position refers to */
    uint32_t line, col; /* 1-based; 0 when unknown */
    char *pointer;      /* RFC 6901 pointer in the resolved document; NULL for loader errors */
    ver_mask versions;  /* protocol versions concerned */
    char *message;
    char *hint;      /* how to fix, or NULL */
    char *component; /* component pointer when reached through $componentRef, or NULL */
    /* report-at: match: the matched text's bytes [match_off, match_off + match_len) in
     * the judged string's decoded UTF-8 value, and the source position just after it
     * (end_line:end_col; line:col is its start); has_match 0 otherwise. */
    int has_match;
    size_t match_off, match_len;
    uint32_t end_line, end_col;
    /* Other places the finding concerns, in the order found (JSON "related", SARIF
     * relatedLocations); none for a finding about one document. diag_add_related appends. */
    struct diag_related *related;
    size_t nrelated;
    /* mcpdesc diff: the item a change is about, its kind ("tool", "prompt", "resource",
     * "resource template", "document") and its identity (a name, uri or uriTemplate; NULL
     * for the document), owned; NULL outside a diff. */
    char *item_kind, *item_name;
    /* The fix of the clause that reported it (rules-yaml/README.md, "Fixes"; fix.h applies
     * it), when it is offered here: the fix's `when` holds at the finding and it was not
     * reached through a $componentRef. Borrowed from the rule set, which must outlive the
     * list; NULL otherwise. fix_title: its title, placeholders expanded (owned). */
    const struct rule_fix *fix;
    char *fix_title;
    /* What a team decided about it (docs/config.md), set after judging, never by rules:
     * a suppressed or baselined finding is kept (JSON and SARIF report it as such) but is
     * neither printed as a finding nor counted towards --fail-on. */
    char *fingerprint;      /* stable identity for baselines and SARIF partialFingerprints */
    char *suppressed;       /* the written reason when a suppression hides it, else NULL */
    char *suppressed_until; /* the suppression's `until` (YYYY-MM-DD), or NULL */
    enum diag_suppress_kind {
        DIAG_SUPPRESS_NONE,
        DIAG_SUPPRESS_CONFIG, /* a `suppress:` entry of the config (SARIF kind external) */
        DIAG_SUPPRESS_INLINE  /* x-mcpdesc-ignore on the item (SARIF kind inSource) */
    } suppress_kind;
    enum diag_baseline {
        DIAG_BASELINE_NONE,     /* no baseline in use */
        DIAG_BASELINE_NEW,      /* not in the baseline: reported */
        DIAG_BASELINE_UNCHANGED /* in the baseline: kept, not reported */
    } baseline;
};
/* Is D hidden from the printed findings and the counts (suppressed or baselined)? */
int diag_hidden(const struct diag *d);

struct diag_list {
    struct diag *items;
    size_t len, cap;
};
#define DIAG_LIST_INIT                                                                             \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Appends a diagnostic; every string argument is copied (NULL allowed). Returns it. */
struct diag *diag_add(struct diag_list *l, enum diag_level level, const char *rule,
                      const char *file, uint32_t line, uint32_t col, const char *message);
/* Appends a diagnostic without rule or pointer whose message is FMT with AP (the one
 * formatter of loader, lint and other errors). Returns it, for a hint. */
struct diag *diag_vadd(struct diag_list *l, enum diag_level level, const char *file, uint32_t line,
                       uint32_t col, const char *fmt, va_list ap);
/* Append to TO a copy of FROM, every string copied (the fix borrowed, as FROM's). */
void diag_copy(struct diag_list *to, const struct diag *from);
/* Append a related place to D (strings copied; NULL allowed but FILE). */
void diag_add_related(struct diag *d, const char *file, uint32_t line, uint32_t col,
                      const char *pointer, const char *message);
/* printf-style loader error (no rule, no pointer). */
void diag_errorf(struct diag_list *l, const char *file, uint32_t line, uint32_t col,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Sort by position, then rule and pointer (message, fix title and related places break
 * ties); then merge diagnostics that differ only in their versions (one diagnostic per
 * rule, node and failure) and offer the same fix. A merged one keeps the first's related
 * places (they are equal: related places that differ keep two diagnostics apart). */
void diag_sort_merge(struct diag_list *l);
size_t diag_count(const struct diag_list *l, enum diag_level level);
void diag_list_release(struct diag_list *l);
/* Move every diagnostic of FROM to the end of TO, in order; FROM is left empty. */
void diag_list_move(struct diag_list *to, struct diag_list *from);
/* Free the strings of one diagnostic (not the diagnostic itself). */
void diag_clear(struct diag *d);

const char *diag_level_name(enum diag_level level); /* "error", "warning", "info" */
int diag_level_parse(const char *s, enum diag_level *out);

#endif
