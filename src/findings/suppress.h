/* suppress.h - suppressions with reasons (docs/config.md "suppress", README): findings a
 * team accepts, written down with the reason, kept in every report but neither printed
 * as findings nor counted towards --fail-on (diag.h: suppressed, suppress_kind).
 *
 * Two sources:
 *  - inline, on an item (a tool, resource, resource template or prompt object):
 *    "x-mcpdesc-ignore": [{"rule": ID, "reason": WHY, "until": "YYYY-MM-DD"}] (or one
 *    such object) hides that item's findings of the rule (an id or an fnmatch glob);
 *  - the config's `suppress` entries {file, rule, item or pointer, reason, until}: `file`
 *    a path glob (config_path_matches; absent: every file), `item` a tool or prompt name,
 *    resource URI or uriTemplate (the identity fingerprint.h gives items), `pointer` a
 *    JSON Pointer prefix in the resolved document.
 * An entry whose `until` lies before today hides nothing and is a finding
 * (mcpdesc.suppression.expired); one that hides nothing among the findings of the files
 * it applies to that were judged in this run is a finding (mcpdesc.suppression.unused),
 * unless no rule it names ran (--rule, --skip, levels off); a malformed inline entry is
 * an error (mcpdesc.suppression.invalid). "Today" is SOURCE_DATE_EPOCH when set (so that
 * tests are reproducible), else the clock, in UTC. The first suppression that matches a
 * finding wins (inline before the config). */
#ifndef MCPDESC_SUPPRESS_H
#define MCPDESC_SUPPRESS_H

#include "findings/config.h"
#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"

/* The member of an item that holds its inline suppressions. */
#define SUPPRESS_MEMBER "x-mcpdesc-ignore"

/* Today as YYYY-MM-DD into OUT: from SOURCE_DATE_EPOCH (decimal seconds since the
 * epoch) when set and not empty, else time(). Returns 0, or -1 when SOURCE_DATE_EPOCH is
 * not a non-negative decimal number (OUT is then today by the clock). */
int suppress_today(char out[11]);
/* Is S a real date YYYY-MM-DD? */
int suppress_date_ok(const char *s);
/* Has the suppression ending on UNTIL (YYYY-MM-DD, or NULL: never) expired by TODAY? It
 * applies through the day UNTIL itself. */
int suppress_expired(const char *until, const char *today);

/* Which rule ids ran (ENABLED(id, ARG) nonzero; NULL: all): an entry whose rule matches
 * none of them is never unused; and the versions judged (0: all), those of the
 * suppressions' own findings (an inline one's: the document's protocolVersions too). */
struct suppress_filter {
    int (*enabled)(const char *id, void *arg);
    void *arg;
    ver_mask versions;
    /* The session rules ran (validate --together with two servers or more): otherwise a
     * suppression of a session rule is never unused, since its rule did not run. */
    int session;
};

/* The inline suppressions of the document D (judged with RS; FILE its name in the
 * report) applied to its diagnostics L (those the rules found): matching findings are
 * suppressed (DIAG_SUPPRESS_INLINE); the suppressions' own findings are appended (at the
 * entries' positions, pointer .../x-mcpdesc-ignore[/N]) and L is sorted again. */
void suppress_inline(const struct rule_set *rs, const doc *d, const char *file, struct diag_list *l,
                     const char *today, const struct suppress_filter *f);

/* The config's suppressions over one run: new (C borrowed), applied file by file, then
 * finished into their own findings. */
struct suppress_run;
struct suppress_run *suppress_run_new(const struct config *c, const char *today);
/* Apply them to the diagnostics L of the judged document D of FILE (its name in the
 * report): matching findings not already suppressed are suppressed (DIAG_SUPPRESS_CONFIG).
 * Call it on one thread. */
void suppress_run_apply(struct suppress_run *s, const struct rule_set *rs, const char *file,
                        const doc *d, struct diag_list *l);
/* Append the findings of the entries, in the config file (file = its path, at each
 * entry's line and column): expired ones, and unused ones among those whose files were
 * judged. */
void suppress_run_finish(struct suppress_run *s, const struct rule_set *rs,
                         const struct suppress_filter *f, struct diag_list *out);
void suppress_run_free(struct suppress_run *s); /* NULL is a no-op */

#endif
