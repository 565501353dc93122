/* ptr.c - libFuzzer harness: RFC 6901 pointers (ptr_parse, escaping, ptr_get), the
 * URI-fragment form of $componentRef (ptr_from_fragment) and selectors (sel_compile,
 * sel_run) on a fixed document. Invariants: a parsed pointer escapes back to the same
 * text; a decoded fragment is a pointer that parses; doc_pointer_node agrees with
 * ptr_get. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "doc/doc.h"
#include "fuzz.h"
#include "base/ptr.h"
#include "resolve/sel.h"

static const char fixed_json[] =
    "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\", \"properties\": "
    "{\"x\": {\"type\": \"string\"}, \"\": true, \"a/b\": {\"m~n\": [1, 2, {\"%25\": null}]}}}},\n"
    " {\"name\": \"b\", \"inputSchema\": {\"$componentRef\": \"#/components/schemas/S\"}}],\n"
    " \"components\": {\"schemas\": {\"S\": {\"type\": \"object\"}, \"a b\": [[], {}]}},\n"
    " \"0\": {\"1\": [\"z\"]}, \"-\": 3}";

static doc *fixed;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    struct doc_error err;
    fixed = doc_load_buffer("fixed.json", fixed_json, sizeof fixed_json - 1, 0, NULL, &err);
    if (!fixed) fuzz_fail("fixed document: %s", err.message);
    return 0;
}

/* Parse S; when it parses, check the escaping round trip and the two lookups. */
static void check_pointer(const char *s)
{
    struct ptr p = PTR_INIT;
    const char *why = NULL;
    if (ptr_parse(s, &p, &why) < 0) {
        if (!why) fuzz_fail("ptr_parse failed without a reason for \"%s\"", s);
        ptr_release(&p);
        return;
    }
    struct buf b = BUF_INIT;
    buf_adds(&b, "");
    for (size_t i = 0; i < p.n; i++) {
        size_t idx;
        ptr_is_index(p.segs[i], &idx);
        ptr_append_segment(&b, p.segs[i], strlen(p.segs[i]));
    }
    if (strcmp(buf_str(&b), s)) fuzz_fail("\"%s\" escapes back as \"%s\"", s, buf_str(&b));
    json_t *v = ptr_get(doc_root(fixed), &p);
    doc_node n = doc_pointer_node(fixed, s);
    if ((v == NULL) != (n == DOC_NONE))
        fuzz_fail("ptr_get and doc_pointer_node disagree on \"%s\"", s);
    struct doc_pos pos;
    doc_pointer_pos(fixed, s, &pos, &pos);
    buf_release(&b);
    ptr_release(&p);
}

static int visit(const struct cursor *c, void *arg)
{
    size_t *count = arg;
    char *p = sel_pointer(c);
    if (doc_pointer_node(fixed, p) == DOC_NONE)
        fuzz_fail("selected node \"%s\" is not in the document", p);
    free(p);
    return ++*count > 1000;
}

static void check_selector(const char *s)
{
    const char *why = NULL;
    struct sel *sl = sel_compile(s, &why);
    if (!sl) {
        if (!why) fuzz_fail("sel_compile failed without a reason for \"%s\"", s);
        return;
    }
    sel_text(sl);
    sel_has_wildcard(sl);
    struct sel_ctx ctx = {fixed, NULL};
    struct cursor root, tools;
    sel_root(&ctx, &root);
    size_t count = 0;
    sel_run(sl, &ctx, &root, visit, &count);
    if (!sel_is_absolute(sl) && sel_member(&ctx, &root, "tools", &tools) == 0)
        sel_run(sl, &ctx, &tools, visit, &count);
    sel_free(sl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    check_pointer(s);
    const char *why = NULL;
    char *decoded = ptr_from_fragment(s, &why);
    if (decoded) {
        struct ptr p = PTR_INIT;
        if (ptr_parse(decoded, &p, &why) < 0)
            fuzz_fail("fragment \"%s\" decodes to a bad pointer", s);
        ptr_release(&p);
        check_pointer(decoded);
        free(decoded);
    } else if (!why) {
        fuzz_fail("ptr_from_fragment failed without a reason for \"%s\"", s);
    }
    check_selector(s);
    free(s);
    return 0;
}
