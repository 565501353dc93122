/* ver.h - the ordered list of known MCP protocol versions (data from the rule set's
 * manifest, never compiled in), version sets as bit masks over that list, and version
 * specs, the rule format's way of writing such a set: parsed (the loader and lint share
 * one parser) and written back (rule pages, lint's fixes). */
#ifndef MCPDESC_VER_H
#define MCPDESC_VER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define VER_MAX 64
typedef uint64_t ver_mask;

struct ver_list {
    char *names[VER_MAX]; /* oldest first, owned */
    size_t n;
};

void ver_list_release(struct ver_list *l);
int ver_index(const struct ver_list *l, const char *name); /* -1 if unknown */
ver_mask ver_all(const struct ver_list *l);
/* Versions i with from <= i < before (indexes; -1 means unbounded). */
ver_mask ver_range(const struct ver_list *l, int from, int before);
/* "2024-11-05, 2025-03-26" (oldest first) appended to B, with SEP between names. */
void ver_format(struct buf *b, const struct ver_list *l, ver_mask m, const char *sep);
size_t ver_count(ver_mask m);

/* ---- version specs: all, [V, ...], {from: V}, {before: W}, {from: V, before: W} ---- */

/* What is wrong with a spec, as the parser reports it (the caller words the message). */
enum ver_spec_problem {
    VER_SPEC_NOT_A_SPEC,      /* neither "all", a list nor a mapping (value: the spec) */
    VER_SPEC_NOT_A_STRING,    /* a list entry, "from" or "before" that is not a string */
    VER_SPEC_UNKNOWN_VERSION, /* a list entry, "from" or "before" that names no listed version */
    VER_SPEC_EMPTY_LIST,      /* [] */
    VER_SPEC_UNKNOWN_MEMBER,  /* a range member other than from and before (it is ignored) */
    VER_SPEC_NO_BOUND,        /* a range with neither from nor before */
    VER_SPEC_EMPTY_RANGE,     /* from is not older than before */
};

struct ver_spec_error {
    enum ver_spec_problem problem;
    int index;          /* -1: the spec itself; else the list entry or range member at fault
                               * (members counted in the mapping's order) */
    const char *member; /* that member's key, or NULL (the spec itself, a list entry) */
    json_t *value;      /* the value at fault (borrowed) */
};

/* Parse SPEC (NULL: absent) against VL, calling REPORT (may be NULL) with ARG for every
 * problem, in the order they appear (a range's unknown members first). Returns 0 with the
 * set in *OUT when SPEC names one (a range with unknown members still does), else -1 with
 * *OUT unchanged. A spec is wholly valid when it returns 0 and reports nothing. */
int ver_spec_parse(const struct ver_list *vl, json_t *spec, ver_mask *out,
                   void (*report)(void *arg, const struct ver_spec_error *e), void *arg);

/* Append the spec of M (its versions within VL) to B, the shortest way the syntax allows:
 * all, {from: V}, {before: W}, {from: V, before: W} for a contiguous run of two or more
 * versions, else the list [V, ...]. */
void ver_spec_format(struct buf *b, const struct ver_list *vl, ver_mask m);

#endif
