/* fingerprint.h - a finding's stable identity, for baselines (findings/baseline.h) and SARIF
 * partialFingerprints ("mcpdesc/v1"). It does not change when items are reordered or
 * inserted, or when other parts of the document are edited: it names the item a finding
 * is in by what the item is (a tool or prompt by its name, a resource by its uri, a
 * resource template by its uriTemplate; by its index only when it has no such member),
 * not by where it stands.
 *
 * The canonical string (version 1) is the concatenation of six netstrings, each
 * "<decimal byte length>:<bytes>,", of
 *   "v1", the rule id, the file (fingerprint_file: as given, normalised), the item
 *   (fingerprint_item), the pointer inside the item, and the versions (the version
 *   names, oldest first, joined by ",")
 * and the fingerprint is "v1:" followed by the lowercase hex SHA-256 of that string.
 * The item is, for a member of an item collection of the manifest's document shape
 * (tools, resources, resourceTemplates, prompts):
 *   COLLECTION[MEMBER=JSON]  tools[name="get_weather"], resources[uri="file:///a"],
 *                            resourceTemplates[uriTemplate="x://{id}"]
 *   COLLECTION[INDEX]        tools[3]: the item has no string identity member
 *   /COLLECTION              the collection itself (the array, or what stands there)
 * and otherwise the document's top-level member ("/serverInfo", "/capabilities",
 * "/components") or "" for the document itself. The pointer inside the item is what
 * follows the item's own pointer in the diagnostic's pointer ("/inputSchema/properties/x";
 * "" for the item itself). A finding's related places (diag.h: the other server's tool a
 * name collides with) are not part of it: its identity is its own place. */
#ifndef MCPDESC_FINGERPRINT_H
#define MCPDESC_FINGERPRINT_H

#include "base/diag.h"
#include "doc/doc.h"
#include "rules/rule.h"

/* The identities of one judged document's items, each worked out once (on first use). */
struct fingerprint_items;

/* For the document D judged with RS (both borrowed: they must outlive the result). */
struct fingerprint_items *fingerprint_items_new(const struct rule_set *rs, const doc *d);
void fingerprint_items_free(struct fingerprint_items *fi);
/* The item POINTER lies in (borrowed from FI) and, in *INNER, the rest of POINTER (a
 * suffix of it). POINTER NULL is the document. */
const char *fingerprint_item(struct fingerprint_items *fi, const char *pointer, const char **inner);
/* The item of a collection POINTER lies in, as a value (borrowed from the document), or
 * NULL when POINTER is not inside one: *PLEN is the length of the item's own pointer
 * ("/tools/3"), *IDENTITY its name, uri or uriTemplate as fingerprint_item reads it
 * (NULL when it has none). Suppressions (suppress.h) name items by it. */
json_t *fingerprint_item_value(struct fingerprint_items *fi, const char *pointer, size_t *plen,
                               const char **identity);
/* The functions below that take CWD, the working directory (absolute; NULL when it is not
 * known), are given it by their caller, which asks for it once per run. */

/* FILE as given on the command line, normalised: "./" segments and repeated slashes
 * removed ("./a//b/./c.json" is "a/b/c.json"), and an absolute path inside the working
 * directory CWD made relative to it. New string. */
char *fingerprint_file(const char *cwd, const char *file);
/* FILE as a fingerprint names it in a run anchored at the directory ANCHOR (absolute;
 * NULL: the working directory, as fingerprint_file): its path relative to ANCHOR
 * ("servers/a.json", "../other/b.json"), however the command line named it and wherever
 * the run starts, so that a baseline holds when CI runs from another directory. Names
 * such as "<stdin>" are kept. New string. */
char *fingerprint_file_from(const char *cwd, const char *anchor, const char *file);
/* The anchor of a baseline at PATH: the absolute directory that holds it (new), or NULL
 * for "-" (standard output). */
char *fingerprint_anchor(const char *cwd, const char *path);
/* "v1:<hex>" of the canonical string of these parts (VERSIONS: names joined by ","; NULL
 * parts are empty). New string. */
char *fingerprint_make(const char *rule, const char *file, const char *item, const char *inner,
                       const char *versions);
/* The fingerprint of D, a diagnostic of FILE (normalised by fingerprint_file), whose
 * items FI names (new string). */
char *fingerprint_diag(struct fingerprint_items *fi, const char *file, const struct diag *d);
/* Set the fingerprint of every diagnostic of L, found in the document D of FILE judged
 * with RS (D NULL: every diagnostic is at the document level). */
void fingerprint_diags(const struct rule_set *rs, const doc *d, const char *cwd, const char *file,
                       struct diag_list *l);

#endif
