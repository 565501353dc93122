/* fuzz_util.c - helpers shared by the harnesses (see fuzz.h). */
#include "fuzz.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/ptr.h"

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz invariant failed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

const char *fuzz_top(void)
{
    const char *top = getenv("MCPDESC_TOP");
#ifdef FUZZ_TOP
    if (!top) top = FUZZ_TOP;
#endif
    return top ? top : ".";
}

/* Check node N (value V, pointer PTR) and its subtree. */
static void walk(const doc *d, doc_node n, json_t *v, struct buf *ptr)
{
    /* an alias copies its anchor's entries: the value keeps the anchor's position and
     * only the key moves, so a key may come after its value */
    struct doc_pos p = doc_node_pos(d, n), k = doc_node_key_pos(d, n);
    if (p.line == 0 || p.col == 0 || k.line == 0 || k.col == 0)
        fuzz_fail("node %u at \"%s\" has no position", n, buf_str(ptr));
    size_t len;
    if (!doc_line(d, p.line, &len)) fuzz_fail("node %u: line %u out of range", n, p.line);
    if (doc_pointer_node(d, buf_str(ptr)) != n)
        fuzz_fail("pointer \"%s\" does not lead back to node %u", buf_str(ptr), n);
    uint32_t size = doc_node_size(d, n);
    if (size == 0 || (size_t)n + size > doc_node_count(d))
        fuzz_fail("node %u: bad size %u", n, size);
    size_t count = json_is_object(v)  ? json_object_size(v)
                   : json_is_array(v) ? json_array_size(v)
                                      : 0;
    doc_node c = doc_node_first_child(d, n);
    size_t i = 0, mark = ptr->len;
    if (json_is_object(v)) {
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it), i++) {
            const char *key = json_object_iter_key(it);
            if (c == DOC_NONE) fuzz_fail("node %u: member \"%s\" has no node", n, key);
            if (doc_node_member(d, n, v, key) != c || doc_node_item(d, n, i) != c)
                fuzz_fail("node %u: lookups of member \"%s\" disagree", n, key);
            ptr_append_segment(ptr, key, strlen(key));
            walk(d, c, json_object_iter_value(it), ptr);
            buf_truncate(ptr, mark);
            c = doc_node_next_sibling(d, n, c);
        }
    } else if (json_is_array(v)) {
        for (; i < count; i++) {
            if (c == DOC_NONE) fuzz_fail("node %u: item %zu has no node", n, i);
            if (doc_node_array_item(d, n, v, i) != c || doc_node_item(d, n, i) != c)
                fuzz_fail("node %u: lookups of item %zu disagree", n, i);
            ptr_append_index(ptr, i);
            walk(d, c, json_array_get(v, i), ptr);
            buf_truncate(ptr, mark);
            c = doc_node_next_sibling(d, n, c);
        }
    }
    if (c != DOC_NONE) fuzz_fail("node %u has more index children than its %zu values", n, count);
}

void fuzz_walk_doc(const doc *d)
{
    struct buf ptr = BUF_INIT;
    buf_adds(&ptr, "");
    walk(d, 0, doc_root(d), &ptr);
    buf_release(&ptr);
    size_t len;
    for (uint32_t line = 1; doc_line(d, line, &len); line++) {}
    struct doc_pos p;
    doc_pointer_pos(d, "/no/such/member", &p, NULL);
    doc_pointer_pos(d, "/0/~1/~0", &p, &p);
}
