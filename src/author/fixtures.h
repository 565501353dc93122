/* fixtures.h - the conformance fixtures a rule's examples name, as rule authors' tools
 * read them: `rules lint` (does each example's fixture and pointer exist?), the rule pages
 * (the JSON an example selects) and `rules test` (is a fixture name one it may open?).
 * A cache: each fixture file is parsed once, and resolved ($componentRef) only when a
 * pointer reaches nothing in the file as written. */
#ifndef MCPDESC_FIXTURES_H
#define MCPDESC_FIXTURES_H

#include <jansson.h>

#include "rules/rule.h"

/* A fixture name is a relative path that stays inside the fixtures directory (no "..",
 * ".", empty segment or leading '/'). */
int fixtures_name_ok(const char *name);

/* A cache of the fixtures in DIR. RS (borrowed, may be NULL) resolves $componentRef;
 * without it pointers are looked up in the source document only. New; never NULL. */
struct fixtures;
struct fixtures *fixtures_new(const char *dir, const struct rule_set *rs);
void fixtures_free(struct fixtures *fx); /* NULL is a no-op */
const char *fixtures_dir(const struct fixtures *fx);

enum fixtures_lookup {
    FIXTURES_OK,
    FIXTURES_NO_FIXTURE,  /* the fixture cannot be named, found, read or parsed */
    FIXTURES_NO_POINTER,  /* nothing at the pointer, as written or after resolution */
    FIXTURES_BAD_POINTER, /* the pointer is not an RFC 6901 JSON Pointer */
};

/* The value an example selects in FIXTURE at POINTER: the fixture's own value where the
 * source reaches it, else the value after $componentRef resolution. *VALUE is borrowed
 * (valid while FX lives), NULL unless FIXTURES_OK; *PROBLEM is then a new message ("no
 * fixture ...", "nothing at /tools/9 in ..."), else NULL. */
enum fixtures_lookup fixtures_lookup(struct fixtures *fx, const char *fixture, const char *pointer,
                                     json_t **value, char **problem);

#endif
