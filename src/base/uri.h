/* uri.h - RFC 3986 URIs and URI references, parsed and resolved by uriparser
 * (Debian's liburiparser), not by hand: the `uri` and `uri-reference` formats of the
 * rule predicates (rules/fn.c) and the identifiers and references of the JSON Schema
 * engine (schema/). Strings are NUL-terminated; a result is new (the caller frees it). */
#ifndef MCPDESC_URI_H
#define MCPDESC_URI_H

/* 1 when S is a URI (RFC 3986 section 3: a scheme, then the rest, a fragment allowed),
 * or with ALLOW_RELATIVE a URI reference (section 4.1: a relative reference too, whose
 * first path segment holds no ':'); else 0. The whole grammar: ASCII only, '%' followed
 * by two hex digits, a port of digits, a well-formed IP literal, one '#'. */
int uri_check(const char *s, int allow_relative);

/* 1 when S may be a link a report writes (--docs-url, a config's docs-url: an html href,
 * SARIF's helpUri): an absolute URI (uri_check) whose scheme is http or https with a
 * host, or file (pages on this machine: "file:///usr/share/doc/..."), the scheme written
 * with "//"; else 0 ("javascript:...", "not a url", "/rules", "docs.example/rules"). */
int uri_is_link(const char *s);
#define URI_LINK_WANTED "an absolute http://, https:// or file:// URL"

/* REF resolved against BASE (RFC 3986 section 5.2: the target's dot segments removed),
 * new. BASE may be relative or empty ("", NULL: no base URI), as a schema without an
 * identifier is: the target is then relative too, as if resolved against a base with
 * BASE's parts and no scheme ("" and "../a/./b" give "a/b"). BASE's fragment is
 * ignored; REF's fragment takes no part in resolution (section 5.2.2) and is kept
 * verbatim, for what reads it (a JSON Pointer, an anchor name) to judge.
 * NULL when BASE or REF (before its '#') is not a URI reference: *WHY is then new
 * words to follow REF in a message: "is not a URI reference: the parse fails at
 * character 4 (' ')", where uriparser stops (characters count bytes from 1), or
 * "cannot be resolved against the base URI ..., which is not a URI reference: ...". */
char *uri_resolve(const char *base, const char *ref, char **why);

/* The part of URI before its first '#' (new); *FRAG borrows what follows the '#', or
 * is NULL when there is none. */
char *uri_split_fragment(const char *uri, const char **frag);

/* The file: URI of an absolute PATH, every byte other than an RFC 3986 unreserved
 * character or '/' percent-encoded (new): "/a b/c.json" gives "file:///a%20b/c.json".
 * A relative PATH gives a relative reference ("a b/c.json" gives "a%20b/c.json"). */
char *uri_from_path(const char *path);

#endif
