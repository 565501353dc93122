/* ptr.h - RFC 6901 JSON Pointers: parse into unescaped segments, escape, resolve,
 * and decode the URI-fragment form ("#/a%20b/c~1d") used by $componentRef. */
#ifndef MCPDESC_PTR_H
#define MCPDESC_PTR_H

#include <jansson.h>
#include <stddef.h>

#include "base/buf.h"

struct ptr {
    char **segs; /* unescaped reference tokens, owned */
    size_t n;
};
#define PTR_INIT                                                                                   \
    {                                                                                              \
        NULL, 0                                                                                    \
    }

/* Parse S ("" is the root, otherwise it starts with '/'). Returns 0, or -1 and sets
 * *why to a static description of the mistake ("~ must be followed by 0 or 1", ...). */
int ptr_parse(const char *s, struct ptr *out, const char **why);
void ptr_release(struct ptr *p);

/* Append "/" + SEG escaped (~ → ~0, / → ~1). */
void ptr_append_segment(struct buf *b, const char *seg, size_t len);
void ptr_append_index(struct buf *b, size_t idx);

/* Decode a URI fragment "#/..." (percent-decoding, then the pointer must parse) into a
 * new pointer string "/...". Returns NULL and sets *why when malformed. */
char *ptr_from_fragment(const char *uri_ref, const char **why);

/* The value at P in ROOT (borrowed), or NULL. Array tokens must be canonical indexes. */
json_t *ptr_get(json_t *root, const struct ptr *p);
/* Is TOK a canonical array index ("0", "17", not "01" or "-")? Sets *idx. */
int ptr_is_index(const char *tok, size_t *idx);

#endif
