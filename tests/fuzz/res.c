/* res.c - libFuzzer harness: resolution ($componentRef substitution and effective
 * protocol versions, res_resolve) of a JSON description with the shipped rule set's
 * configuration, then a walk of the resolved document through selectors that follow
 * the resolved sites (its view, view.h). Invariants: a followed site leads to a node of the source; an
 * item's versions are within the known ones; every diagnostic has a message and rule. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "fuzz.h"
#include "resolve/res.h"
#include "rules/rule.h"
#include "resolve/sel.h"
#include "resolve/view.h"

static struct rule_set *rules;
static struct sel *everything[3];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/rules-yaml", fuzz_top());
    struct diag_list errs = DIAG_LIST_INIT;
    rules = rule_set_load(dir, &errs);
    if (!rules) fuzz_fail("cannot load %s: %s", dir, errs.len ? errs.items[0].message : "?");
    static const char *const texts[] = {"/tools/*/inputSchema/**", "/components/schemas/*/**",
                                        "/*/*/outputSchema/**"};
    for (size_t i = 0; i < 3; i++) {
        const char *why;
        if (!(everything[i] = sel_compile(texts[i], &why)))
            fuzz_fail("selector %s: %s", texts[i], why);
    }
    return 0;
}

struct walk {
    const doc *d;
    size_t count;
};

static int visit(const struct cursor *c, void *arg)
{
    struct walk *w = arg;
    if (c->node >= doc_node_count(w->d))
        fuzz_fail("cursor at node %u of %zu", c->node, doc_node_count(w->d));
    char *p = sel_pointer(c);
    free(p);
    return ++w->count > 20000; /* a shared component may repeat: bound the walk */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct doc_error err;
    doc *d = doc_load_buffer("fuzz.json", (const char *)data, size, 0, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return 0;
    }
    const struct res_config *cfg = rule_set_res_config(rules);
    struct diag_list out = DIAG_LIST_INIT;
    struct res *r = res_resolve(d, cfg, &out);
    const struct view *v = res_view(r);
    ver_mask all = ver_all(cfg->versions);
    if (v->doc_mask & ~all) fuzz_fail("document versions outside the known ones");
    json_t *root = doc_root(d);
    for (size_t k = 0; k < cfg->ncollections; k++) {
        int coll = view_collection(v, cfg->collections[k]);
        json_t *items = json_object_get(root, cfg->collections[k]);
        for (size_t i = 0; coll >= 0 && i < json_array_size(items) + 1; i++)
            if (view_item_mask(v, coll, i) & ~all) fuzz_fail("item versions outside the known ones");
    }
    for (doc_node n = 0; n < doc_node_count(d); n++) {
        doc_node target;
        const char *component;
        if (view_follow(v, n, &target, &component)) {
            if (target >= doc_node_count(d) || !component)
                fuzz_fail("site %u follows to node %u of %zu", n, target, doc_node_count(d));
        }
        view_unresolved(v, n);
    }
    struct sel_ctx ctx = {d, v};
    struct cursor top;
    sel_root(&ctx, &top);
    struct walk w = {d, 0};
    for (size_t i = 0; i < 3; i++) sel_run(everything[i], &ctx, &top, visit, &w);
    for (size_t i = 0; i < out.len; i++)
        if (!out.items[i].message || !out.items[i].rule)
            fuzz_fail("diagnostic without message or rule");
    diag_sort_merge(&out);
    diag_list_release(&out);
    res_free(r);
    doc_free(d);
    return 0;
}
