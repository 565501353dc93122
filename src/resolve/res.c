/* res.c - effective versions and $componentRef resolution; see res.h.
 * References form a graph (a site points at a target whose subtree may hold more
 * sites); sites on a cycle are reported and left alone, every other valid site is
 * substituted with its final target. Tarjan's algorithm runs iteratively so that a
 * 100,000-long chain cannot overflow the C stack. Before anything is substituted, each
 * site's expansion (nesting and node count once every reference inside is substituted)
 * is measured, so that substitution never builds what the loader would refuse: a chain
 * whose links nest each other, or a reference bomb (two references per link). */
#include "resolve/res.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/display.h"
#include "base/ptr.h"
#include "base/util.h"
#include "resolve/sel.h"
#include "resolve/view.h"

const struct res_builtin res_builtins[] = {
    {"mcpdesc.protocol-versions.invalid", DIAG_ERROR,
     "protocolVersions is an array of protocol version strings"},
    {"mcpdesc.protocol-versions.unknown", DIAG_ERROR,
     "every protocolVersions entry is a protocol version the rule set knows"},
    {"mcpdesc.protocol-versions.not-in-document", DIAG_ERROR,
     "an item's protocolVersions only narrows the document's"},
    {"mcpdesc.component-ref.invalid", DIAG_ERROR,
     "a $componentRef value is a URI fragment pointing into components.schemas"},
    {"mcpdesc.component-ref.siblings", DIAG_ERROR, "a $componentRef object has no other members"},
    {"mcpdesc.component-ref.dangling", DIAG_ERROR, "a $componentRef points at a component"},
    {"mcpdesc.component-ref.cycle", DIAG_ERROR, "$componentRef substitution terminates"},
    {"mcpdesc.component-ref.too-large", DIAG_ERROR,
     "$componentRef substitution stays within the document limits (nesting, node count)"},
    /* a pattern this engine cannot run (judge/pattern_note.h): not the resolver's either */
    {"mcpdesc.schema.pattern-not-checked", DIAG_INFO,
     "a tool schema's pattern is one mcpdesc can match (an ECMA-262 pattern PCRE2 10.42 runs "
     "after translation); one it cannot is a note, never the author's error"},
    /* suppressions (findings/suppress.h): not the resolver's, but built in all the same */
    {"mcpdesc.suppression.invalid", DIAG_ERROR,
     "an x-mcpdesc-ignore entry names a known rule and gives a reason"},
    {"mcpdesc.suppression.unused", DIAG_WARNING,
     "a suppression hides at least one finding of the files it applies to"},
    {"mcpdesc.suppression.expired", DIAG_WARNING,
     "a suppression's until date has not passed (an expired one hides nothing)"},
};
const size_t res_nbuiltins = sizeof res_builtins / sizeof res_builtins[0];

/* SITE_DEP: its target is itself an unresolved site (it would stand for that site's
 * reference object); unresolved, reported at that site only. SITE_BIG: its expansion
 * exceeds a bound; measured like an OK site (for the sites referring to it), not
 * substituted. */
enum site_state { SITE_OK, SITE_BAD, SITE_CYCLE, SITE_DEP, SITE_BIG };

/* The bounds of a substituted tree: the loader's nesting bound, and the YAML loader's
 * alias bound (or the document's own size, when larger). */
#define RES_MAX_DEPTH DOC_DEFAULT_MAX_DEPTH
#define RES_MIN_MAX_NODES ((uint32_t)1 << 20)
/* ... and for the whole document once substituted (every copy counted), so that many
 * sites each within the bound cannot add up to a bomb: 8 times that (about a second of
 * rules at most; sharing a component among thousands of tools stays well within). */
#define RES_TOTAL_FACTOR 8u

struct site {
    doc_node node;
    json_t *parent; /* container holding the site object (borrowed) */
    char *key;      /* member name in parent, or NULL for an array item */
    size_t index;
    char *pointer; /* source pointer of the site */
    ver_mask vmask;
    enum site_state state;
    doc_node target;      /* node the reference names */
    json_t *target_value; /* its value (a reference held) */
    char *component;      /* decoded pointer the reference names */
    size_t final;         /* index of the site whose target holds the value, or self */
    uint32_t exp_depth;   /* nesting of its value once expanded (saturating) */
    uint32_t exp_nodes;   /* nodes of its value once expanded (saturating) */
    const char *rule;     /* unresolved: the built-in rule that reports it */
    /* Tarjan */
    int idx, low, on_stack;
};

/* The result: the view that selectors read (view.h), and the storage behind it. */
struct res {
    struct view view;
    struct view_collection *collections; /* view.collections */
    ver_mask *item_masks;                /* every collection's items, one after another */
    struct view_site *sites;             /* view.sites; each one's component is owned */
    unsigned char *mark;                 /* view.mark */
};

/* What a reference string names, looked up once however many sites spell it (thousands
 * of tools refer to a few hundred components): the tree is not changed until every
 * site is checked, so the answer is the same for each. */
struct ref_target {
    const char *ref; /* the string (borrowed from the tree), without a NUL in it */
    size_t len;
    char *target;    /* the decoded pointer (new), NULL when it is not one ... */
    const char *why; /* ... and why (static) */
    doc_node node;   /* under the prefix, the node it points at, or DOC_NONE */
    json_t *value;   /* ... and its value (borrowed) */
};

/* One resolution in progress: its input (the document and the shape), where its
 * problems go, and the sites being worked on (the result is struct res, below). */
struct walk {
    const struct res_config *cfg;
    const doc *d;
    struct diag_list *out;
    VEC(struct site) sites;      /* found in the scopes; sorted by node once all are found */
    VEC(size_t) order;           /* acyclic valid sites, each after the sites inside its target */
    VEC(struct ref_target) refs; /* every distinct reference string, ... */
    uint32_t *ref_slots;         /* ... hashed: index + 1 in refs, 0 for a free slot */
    size_t nref_slots;           /* a power of two, or 0 */
};

static void report(struct walk *w, const char *rule, doc_node n, const char *pointer,
                   ver_mask versions, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void report(struct walk *w, const char *rule, doc_node n, const char *pointer,
                   ver_mask versions, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    struct buf shown = BUF_INIT; /* what it quotes from the document: hidden text escaped */
    display_add(&shown, msg, strlen(msg));
    free(msg);
    msg = buf_detach(&shown);
    struct doc_pos p = doc_node_pos(w->d, n);
    struct diag *dg = diag_add(w->out, DIAG_ERROR, rule, doc_name(w->d), p.line, p.col, msg);
    dg->pointer = xstrdup(pointer);
    dg->versions = versions;
    dg->hint = hint ? xstrdup(hint) : NULL;
    free(msg);
}

/* S as the body of a JSON string (new): names in messages never carry raw control
 * characters. */
static char *escaped(const char *str)
{
    struct buf b = BUF_INIT;
    buf_add_json_escaped(&b, str, strlen(str));
    return buf_detach(&b);
}

/* ---- versions ------------------------------------------------------------------ */

/* Parse a protocolVersions array at (v, n); BASE is what the versions may narrow
 * (all known ones for the document). Returns the mask; *present says it was given. */
static ver_mask parse_versions(struct walk *w, json_t *v, doc_node n, const char *pointer,
                               ver_mask base, int is_item)
{
    const struct ver_list *vl = w->cfg->versions;
    if (!json_is_array(v)) {
        report(w, "mcpdesc.protocol-versions.invalid", n, pointer, base,
               "write an array such as [\"2025-06-18\", \"2025-11-25\"], or remove it",
               "%s must be an array of protocol version strings", w->cfg->versions_member);
        return base;
    }
    ver_mask m = 0;
    size_t i;
    json_t *e;
    doc_node en = doc_node_first_child(w->d, n);
    json_array_foreach(v, i, e)
    {
        char *ep = xasprintf("%s/%zu", pointer, i);
        int k = json_is_string(e) ? ver_index(vl, json_string_value(e)) : -1;
        if (k < 0) {
            struct buf known = BUF_INIT;
            ver_format(&known, vl, ver_all(vl), ", ");
            char *hint = xasprintf("known versions: %s", buf_str(&known));
            if (json_is_string(e))
                report(w, "mcpdesc.protocol-versions.unknown", en, ep, base, hint,
                       "\"%s\" is not a known MCP protocol version", json_string_value(e));
            else
                report(w, "mcpdesc.protocol-versions.invalid", en, ep, base, hint,
                       "a protocol version must be a string");
            free(hint);
            buf_release(&known);
        } else if (is_item && !(base & ((ver_mask)1 << k))) {
            report(w, "mcpdesc.protocol-versions.not-in-document", en, ep, base,
                   "add it to the document's protocolVersions, or remove it here",
                   "version %s is not among the document's protocolVersions", json_string_value(e));
        } else {
            m |= (ver_mask)1 << k;
        }
        free(ep);
        en = doc_node_next_sibling(w->d, n, en);
    }
    return m;
}

/* Stage 1, versions. Input: the source tree, walked as it is (selectors without a
 * view: nothing is resolved yet). Output: the versions part of R's view: the
 * document's, each collection item's (its protocolVersions narrows the document's)
 * and each collection's (the union of its items'). */
static void resolve_versions(struct walk *w, struct res *r)
{
    const struct res_config *cfg = w->cfg;
    struct sel_ctx ctx = {w->d, NULL};
    struct cursor rc, c;
    sel_root(&ctx, &rc);
    ver_mask doc_mask = ver_all(cfg->versions);
    if (sel_member(&ctx, &rc, cfg->versions_member, &c) == 0) {
        char *p = xasprintf("/%s", cfg->versions_member);
        doc_mask = parse_versions(w, c.v, c.node, p, doc_mask, 0);
        free(p);
    }
    size_t nc = cfg->ncollections, total = 0;
    for (size_t k = 0; k < nc; k++)
        total += json_array_size(json_object_get(doc_root(w->d), cfg->collections[k]));
    r->item_masks = xcalloc(total ? total : 1, sizeof *r->item_masks);
    r->collections = xcalloc(nc ? nc : 1, sizeof *r->collections);
    ver_mask *next = r->item_masks;
    for (size_t k = 0; k < nc; k++) {
        struct view_collection *vc = &r->collections[k];
        struct cursor arr, item, pv;
        vc->name = cfg->collections[k];
        if (sel_member(&ctx, &rc, cfg->collections[k], &arr) < 0 || !json_is_array(arr.v)) continue;
        vc->items = next;
        vc->nitems = json_array_size(arr.v);
        for (size_t i = 0; i < vc->nitems; i++) {
            ver_mask m = doc_mask;
            sel_item(&ctx, &arr, i, &item);
            if (sel_member(&ctx, &item, cfg->versions_member, &pv) == 0) {
                char *p = sel_pointer(&pv);
                m = parse_versions(w, pv.v, pv.node, p, doc_mask, 1);
                free(p);
            }
            next[i] = m;
            vc->mask |= m;
        }
        next += vc->nitems;
    }
    r->view.doc_mask = doc_mask;
    r->view.collections = r->collections;
    r->view.ncollections = nc;
}

/* ---- collecting sites ---------------------------------------------------------- */

/* The path from a scope's root down to the node being collected, on the C stack: the
 * site's pointer is only spelled out when a site is found (most nodes are not sites). */
struct step {
    const struct step *up;
    const char *key; /* member name, or NULL for an array item */
    size_t index;
};

static void append_steps(struct buf *b, const struct step *st)
{
    if (!st) return;
    append_steps(b, st->up);
    if (st->key) ptr_append_segment(b, st->key, strlen(st->key));
    else ptr_append_index(b, st->index);
}

static void collect(struct walk *w, json_t *v, doc_node n, json_t *parent, const char *key,
                    size_t index, const char *base, const struct step *path, ver_mask vmask)
{
    const struct res_config *cfg = w->cfg;
    if (json_is_object(v) && json_object_get(v, cfg->ref_member)) {
        struct site s;
        struct buf pointer = BUF_INIT;
        buf_adds(&pointer, base);
        append_steps(&pointer, path);
        memset(&s, 0, sizeof s);
        s.node = n;
        s.parent = parent;
        s.key = key ? xstrdup(key) : NULL;
        s.index = index;
        s.pointer = buf_detach(&pointer);
        s.vmask = vmask;
        s.target = DOC_NONE;
        VEC_PUSH(w->sites, s);
        return;
    }
    doc_node c = doc_node_first_child(w->d, n);
    if (json_is_object(v)) {
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            const char *k = json_object_iter_key(it);
            struct step st = {path, k, 0};
            collect(w, json_object_iter_value(it), c, v, k, 0, base, &st, vmask);
            c = doc_node_next_sibling(w->d, n, c);
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            struct step st = {path, NULL, i};
            collect(w, json_array_get(v, i), c, v, NULL, i, base, &st, vmask);
            c = doc_node_next_sibling(w->d, n, c);
        }
    }
}

static int collect_scope(const struct cursor *c, void *arg)
{
    struct walk *w = arg;
    char *p = sel_pointer(c);
    const struct cursor *parent = c->parent;
    collect(w, c->v, c->node, parent ? parent->v : NULL, c->key, c->index, p, NULL, c->vmask);
    free(p);
    return 0;
}

static int site_cmp(const void *a, const void *b)
{
    doc_node x = ((const struct site *)a)->node, y = ((const struct site *)b)->node;
    return x < y ? -1 : x > y;
}

static void site_release(struct site *s)
{
    free(s->key);
    free(s->pointer);
    free(s->component);
    json_decref(s->target_value);
}

static uint64_t ref_hash(const char *ref, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)ref[i]) * 1099511628211ull;
    return h;
}

/* What REF (LEN bytes, no NUL) names in the (not yet modified) source tree. */
static const struct ref_target *ref_target_of(struct walk *w, const char *ref, size_t len)
{
    if (w->refs.len * 2 >= w->nref_slots) { /* grow, and hash every string again */
        free(w->ref_slots);
        w->nref_slots = w->nref_slots ? w->nref_slots * 2 : 64;
        w->ref_slots = xcalloc(w->nref_slots, sizeof *w->ref_slots);
        for (size_t i = 0; i < w->refs.len; i++) {
            size_t k = ref_hash(w->refs.items[i].ref, w->refs.items[i].len) & (w->nref_slots - 1);
            while (w->ref_slots[k]) k = (k + 1) & (w->nref_slots - 1);
            w->ref_slots[k] = (uint32_t)i + 1;
        }
    }
    size_t k = ref_hash(ref, len) & (w->nref_slots - 1);
    for (; w->ref_slots[k]; k = (k + 1) & (w->nref_slots - 1)) {
        const struct ref_target *t = &w->refs.items[w->ref_slots[k] - 1];
        if (t->len == len && !memcmp(t->ref, ref, len)) return t;
    }
    struct ref_target t = {ref, len, NULL, NULL, DOC_NONE, NULL};
    t.target = ptr_from_fragment(ref, &t.why);
    const char *prefix = w->cfg->ref_prefix;
    size_t plen = strlen(prefix);
    if (t.target && !strncmp(t.target, prefix, plen) && t.target[plen]) {
        t.node = doc_pointer_node(w->d, t.target);
        if (t.node != DOC_NONE) {
            struct ptr p;
            const char *why;
            ptr_parse(t.target, &p, &why);
            t.value = ptr_get(doc_root(w->d), &p);
            ptr_release(&p);
        }
    }
    VEC_PUSH(w->refs, t);
    w->ref_slots[k] = (uint32_t)w->refs.len;
    return &w->refs.items[w->refs.len - 1];
}

static void refs_release(struct walk *w)
{
    for (size_t i = 0; i < w->refs.len; i++) free(w->refs.items[i].target);
    VEC_FREE(w->refs);
    free(w->ref_slots);
}

/* Check one site's form and find its target in the (not yet modified) source tree. */
static void check_site(struct walk *w, struct site *s)
{
    const struct res_config *cfg = w->cfg;
    json_t *obj = s->parent
        ? (s->key ? json_object_get(s->parent, s->key) : json_array_get(s->parent, s->index))
        : doc_root(w->d);
    json_t *ref = json_object_get(obj, cfg->ref_member);
    s->state = SITE_BAD;
    if (json_object_size(obj) != 1) {
        s->rule = "mcpdesc.component-ref.siblings";
        report(w, s->rule, s->node, s->pointer, s->vmask,
               "move the other members into the component, or replace the reference by "
               "the schema itself",
               "a %s object must have no other members (it stands for the component as a whole)",
               cfg->ref_member);
        return;
    }
    s->rule = "mcpdesc.component-ref.invalid";
    if (!json_is_string(ref)) {
        report(w, s->rule, s->node, s->pointer, s->vmask,
               "write a string such as \"#/components/schemas/Name\"", "%s must be a string",
               cfg->ref_member);
        return;
    }
    /* shown escaped: a \u0000 or a newline in it must be seen, not cut or obeyed */
    struct buf shown = BUF_INIT;
    const char *why = NULL;
    const struct ref_target *t = NULL;
    if (strlen(json_string_value(ref)) != json_string_length(ref))
        why = "it contains a NUL character (\\u0000), which no name can hold";
    else why = (t = ref_target_of(w, json_string_value(ref), json_string_length(ref)))->why;
    size_t plen = strlen(cfg->ref_prefix);
    if (!t || !t->target || strncmp(t->target, cfg->ref_prefix, plen) != 0 || !t->target[plen]) {
        buf_add_json_escaped(&shown, json_string_value(ref), json_string_length(ref));
        report(w, "mcpdesc.component-ref.invalid", s->node, s->pointer, s->vmask,
               "write \"#/components/schemas/Name\" (RFC 6901: ~0 for '~', ~1 for '/')",
               "%s \"%s\" is not a reference into %s%s%s", cfg->ref_member, buf_str(&shown),
               cfg->ref_prefix, why ? ": " : "", why ? why : "");
        buf_release(&shown);
        return;
    }
    s->component = xstrdup(t->target);
    s->target = t->node;
    if (s->target == DOC_NONE) {
        s->rule = "mcpdesc.component-ref.dangling";
        buf_add_json_escaped(&shown, json_string_value(ref), json_string_length(ref));
        report(w, s->rule, s->node, s->pointer, s->vmask,
               "define the component under components.schemas, or fix the name",
               "%s \"%s\" points at nothing", cfg->ref_member, buf_str(&shown));
        buf_release(&shown);
        return;
    }
    s->target_value = json_incref(t->value);
    s->state = SITE_OK;
}

/* Sites whose node lies in the subtree of NODE: [*lo, *hi). */
static void sites_within(const struct walk *w, doc_node node, size_t *lo, size_t *hi)
{
    doc_node end = node + doc_node_size(w->d, node);
    size_t a = 0, b = w->sites.len;
    while (a < b) {
        size_t m = (a + b) / 2;
        if (w->sites.items[m].node < node) a = m + 1;
        else b = m;
    }
    *lo = a;
    b = w->sites.len;
    while (a < b) {
        size_t m = (a + b) / 2;
        if (w->sites.items[m].node < end) a = m + 1;
        else b = m;
    }
    *hi = a;
}

static long find_site(const struct walk *w, doc_node n)
{
    size_t a = 0, b = w->sites.len;
    while (a < b) {
        size_t m = (a + b) / 2;
        if (w->sites.items[m].node < n) a = m + 1;
        else if (w->sites.items[m].node > n) b = m;
        else return (long)m;
    }
    return -1;
}

/* Iterative Tarjan over valid sites; edges go from a site to every valid site inside
 * its target. SCCs come out sinks first, so a site's final target is known when its
 * own SCC is emitted. */
static void find_cycles_and_finals(struct walk *w)
{
    size_t n = w->sites.len;
    struct frame {
        size_t site, next, hi;
    };
    VEC(struct frame) call = VEC_INIT;
    VEC(size_t) stack = VEC_INIT;
    int counter = 0;
    for (size_t i = 0; i < n; i++) w->sites.items[i].idx = -1;
    for (size_t root = 0; root < n; root++) {
        if (w->sites.items[root].state != SITE_OK || w->sites.items[root].idx >= 0) continue;
        struct frame f0 = {root, 0, 0};
        VEC_PUSH(call, f0);
        int fresh = 1;
        while (call.len) {
            struct frame *f = &call.items[call.len - 1];
            struct site *s = &w->sites.items[f->site];
            if (fresh) {
                s->idx = s->low = counter++;
                s->on_stack = 1;
                VEC_PUSH(stack, f->site);
                sites_within(w, s->target, &f->next, &f->hi);
                fresh = 0;
            }
            int descended = 0;
            while (f->next < f->hi) {
                size_t t = f->next++;
                struct site *ts = &w->sites.items[t];
                if (ts->state != SITE_OK) continue;
                if (ts->idx < 0) {
                    struct frame nf = {t, 0, 0};
                    VEC_PUSH(call, nf);
                    fresh = 1;
                    descended = 1;
                    break;
                }
                if (ts->on_stack && ts->idx < s->low) s->low = ts->idx;
            }
            if (descended) continue;
            /* s is done: emit an SCC if it is a root, then return to the caller. */
            if (s->low == s->idx) {
                size_t first = stack.len;
                do first--;
                while (stack.items[first] != f->site);
                size_t size = stack.len - first;
                int self_loop = 0;
                if (size == 1) {
                    size_t lo, hi;
                    sites_within(w, s->target, &lo, &hi);
                    self_loop = f->site >= lo && f->site < hi;
                }
                for (size_t k = first; k < stack.len; k++) {
                    struct site *m = &w->sites.items[stack.items[k]];
                    m->on_stack = 0;
                    if (size > 1 || self_loop) {
                        m->state = SITE_CYCLE;
                        m->rule = "mcpdesc.component-ref.cycle";
                    }
                }
                stack.len = first;
                if (size == 1 && !self_loop) {
                    long t = find_site(w, s->target);
                    s->final = f->site;
                    if (t >= 0 && w->sites.items[t].state == SITE_OK)
                        s->final = w->sites.items[t].final;
                    else if (t >= 0) { /* it would stand for an unresolved reference */
                        s->state = SITE_DEP;
                        s->rule = w->sites.items[t].rule;
                    }
                    if (s->state == SITE_OK) VEC_PUSH(w->order, f->site);
                }
            }
            size_t done_site = f->site;
            call.len--;
            if (call.len) {
                struct site *caller = &w->sites.items[call.items[call.len - 1].site];
                struct site *d = &w->sites.items[done_site];
                if (d->low < caller->low) caller->low = d->low;
            }
        }
    }
    VEC_FREE(call);
    VEC_FREE(stack);
}

/* ---- measuring expansions ------------------------------------------------------ */

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

/* Per source node, the nesting and node count of its subtree once every measurable
 * site in it is expanded (count 0: not yet known). Each node is measured once. */
struct measure {
    uint32_t *depth, *nodes;
};

/* Does node N (value V) stand for an expansion already measured? */
static const struct site *measured_site(const struct walk *w, json_t *v, doc_node n)
{
    if (!json_is_object(v) || json_object_size(v) != 1) return NULL;
    long i = find_site(w, n);
    if (i < 0) return NULL;
    const struct site *y = &w->sites.items[i];
    return y->state == SITE_OK || y->state == SITE_BIG ? y : NULL;
}

struct mframe {
    json_t *v;
    doc_node n, child;     /* the node, and its next child to measure */
    void *it;              /* objects: next member */
    size_t i;              /* arrays: next item */
    uint32_t depth, nodes; /* deepest child, and nodes so far (itself included) */
};
typedef VEC(struct mframe) mstack;

/* Start measuring (V, N): 1 if known at once (measured before, an expansion already
 * measured, a scalar), else 0 with a frame pushed. */
static int measure_enter(const struct walk *w, struct measure *m, mstack *st, json_t *v, doc_node n)
{
    if (m->nodes[n]) return 1;
    const struct site *y = measured_site(w, v, n);
    if (y || !(json_is_object(v) || json_is_array(v))) {
        m->depth[n] = y ? y->exp_depth : 0;
        m->nodes[n] = y ? y->exp_nodes : 1;
        return 1;
    }
    struct mframe f = {
        v, n, doc_node_first_child(w->d, n), json_is_object(v) ? json_object_iter(v) : NULL, 0,
        0, 1};
    VEC_PUSH(*st, f);
    return 0;
}

static void measure_fold(const struct measure *m, struct mframe *parent, doc_node child)
{
    if (m->depth[child] > parent->depth) parent->depth = m->depth[child];
    parent->nodes = sat_add(parent->nodes, m->nodes[child]);
}

/* Measure the subtree at (V, N) with an explicit stack (no recursion: a source subtree
 * may be 512 levels deep; expansions are summaries, never walked again). */
static void measure_subtree(const struct walk *w, struct measure *m, json_t *v, doc_node n)
{
    mstack st = VEC_INIT;
    if (measure_enter(w, m, &st, v, n)) return;
    while (st.len) {
        struct mframe *f = &st.items[st.len - 1];
        json_t *cv = NULL;
        if (json_is_object(f->v) && f->it) {
            cv = json_object_iter_value(f->it);
            f->it = json_object_iter_next(f->v, f->it);
        } else if (json_is_array(f->v) && f->i < json_array_size(f->v)) {
            cv = json_array_get(f->v, f->i++);
        }
        if (cv && f->child != DOC_NONE) {
            doc_node cn = f->child;
            f->child = doc_node_next_sibling(w->d, f->n, cn);
            if (measure_enter(w, m, &st, cv, cn)) measure_fold(m, f, cn);
            continue;
        }
        doc_node done = f->n;
        m->depth[done] = sat_add(f->depth, 1);
        m->nodes[done] = f->nodes;
        st.len--;
        if (st.len) measure_fold(m, &st.items[st.len - 1], done);
    }
    VEC_FREE(st);
}

/* Containers above the site's position: its pointer's segments. */
static uint32_t depth_above(const char *pointer)
{
    uint32_t k = 0;
    for (; *pointer; pointer++) k += *pointer == '/';
    return k;
}

static void report_too_large(struct walk *w, const struct site *s, uint32_t above,
                             uint32_t max_nodes, uint64_t max_total, int why)
{
    char *name = escaped(s->component);
    const char *ref = w->cfg->ref_member;
    if (why == 0)
        report(w, "mcpdesc.component-ref.too-large", s->node, s->pointer, s->vmask,
               "nest the components less deeply (or define the schema here); the limit "
               "is the one on documents, so substitution cannot build what a parser refuses",
               "%s \"#%s\" would nest this value deeper than %u levels (%u here + %u "
               "substituted); it is left unresolved",
               ref, name, RES_MAX_DEPTH, above, s->exp_depth);
    else if (why == 1)
        report(w, "mcpdesc.component-ref.too-large", s->node, s->pointer, s->vmask,
               "refer to fewer or smaller components: each substitution copies the "
               "whole component, so references that repeat at every level multiply",
               "%s \"#%s\" would expand to more than %u nodes (the limit protects "
               "against reference bombs); it is left unresolved",
               ref, name, max_nodes);
    else
        report(w, "mcpdesc.component-ref.too-large", s->node, s->pointer, s->vmask,
               "refer to fewer or smaller components: each substitution copies the "
               "whole component",
               "%s \"#%s\" would bring the document past %llu nodes once substituted (the "
               "limit protects against reference bombs); it is left unresolved",
               ref, name, (unsigned long long)max_total);
    free(name);
}

/* Measure every acyclic valid site (w->order: inner sites first) and refuse those
 * whose expansion, where they are written, exceeds a bound, or that would take the
 * whole document past its bound. Refused sites still count at their full size for the
 * sites around them, so no accepted site can hold more. */
static void refuse_large_sites(struct walk *w)
{
    if (!w->order.len) return;
    size_t count = doc_node_count(w->d);
    uint32_t max_nodes = count > RES_MIN_MAX_NODES ? (uint32_t)count : RES_MIN_MAX_NODES;
    uint64_t max_total = (uint64_t)RES_TOTAL_FACTOR * max_nodes, total = count;
    struct measure m = {xcalloc(count ? count : 1, sizeof *m.depth),
                        xcalloc(count ? count : 1, sizeof *m.nodes)};
    for (size_t k = 0; k < w->order.len; k++) {
        struct site *s = &w->sites.items[w->order.items[k]];
        const struct site *f = &w->sites.items[s->final];
        measure_subtree(w, &m, f->target_value, f->target);
        s->exp_depth = m.depth[f->target];
        s->exp_nodes = m.nodes[f->target];
        uint32_t above = depth_above(s->pointer);
        uint64_t grown = total + s->exp_nodes - doc_node_size(w->d, s->node);
        int why = s->exp_depth > RES_MAX_DEPTH - (above < RES_MAX_DEPTH ? above : RES_MAX_DEPTH) ? 0
            : s->exp_nodes > max_nodes                                                           ? 1
            : grown > max_total                                                                  ? 2
                                : -1;
        if (why < 0) {
            total = grown;
            continue;
        }
        s->state = SITE_BIG;
        report_too_large(w, s, above, max_nodes, max_total, why);
    }
    free(m.depth);
    free(m.nodes);
}

/* Sites on a cycle, and sites that would stand for an unresolved reference. */
static void report_cycles(struct walk *w)
{
    const struct res_config *cfg = w->cfg;
    for (size_t i = 0; i < w->sites.len; i++) {
        struct site *s = &w->sites.items[i];
        if (s->state != SITE_CYCLE && s->state != SITE_DEP) continue;
        char *name = escaped(s->component);
        if (s->state == SITE_CYCLE)
            report(w, "mcpdesc.component-ref.cycle", s->node, s->pointer, s->vmask,
                   "use JSON Schema's $ref with $defs for recursive schemas; $componentRef "
                   "is substitution and cannot express recursion",
                   "%s \"#%s\" is part of a reference cycle", cfg->ref_member, name);
        else
            report(w, s->rule, s->node, s->pointer, s->vmask,
                   "fix the reference it points at (reported there)",
                   "%s \"#%s\" points at a reference that cannot be resolved; it is left "
                   "unresolved",
                   cfg->ref_member, name);
        free(name);
    }
}

/* Stage 2, references. Input: the source tree and VERSIONS, the view of stage 1 alone
 * (no site marks: nothing is substituted yet, so no cursor follows a reference, and the
 * scopes' cursors carry their items' versions, which the diagnostics take). Output:
 * w->sites, sorted by node, each with its state and final site, the problems reported,
 * and every valid site substituted in the document's tree. */
static void resolve_refs(struct walk *w, const struct view *versions)
{
    const struct res_config *cfg = w->cfg;
    struct sel_ctx ctx = {w->d, versions};
    /* a document without a single such member has no site: nothing to look for */
    for (size_t i = 0; doc_may_have_member(w->d, cfg->ref_member) && i < cfg->nscopes; i++)
        sel_run(cfg->scopes[i], &ctx, NULL, collect_scope, w);
    if (!w->sites.len) return;
    qsort(w->sites.items, w->sites.len, sizeof *w->sites.items, site_cmp);
    size_t out = 0; /* overlapping scopes may find a site twice */
    for (size_t i = 0; i < w->sites.len; i++) {
        if (out && w->sites.items[out - 1].node == w->sites.items[i].node) {
            site_release(&w->sites.items[i]);
            continue;
        }
        w->sites.items[out++] = w->sites.items[i];
    }
    w->sites.len = out;
    for (size_t i = 0; i < w->sites.len; i++) check_site(w, &w->sites.items[i]);
    refs_release(w);
    find_cycles_and_finals(w);
    report_cycles(w);
    refuse_large_sites(w);
    /* Substitute: every valid site takes its final target's value. */
    for (size_t i = 0; i < w->sites.len; i++) {
        struct site *s = &w->sites.items[i];
        if (s->state != SITE_OK) continue;
        struct site *f = &w->sites.items[s->final];
        json_t *value = f->target_value;
        if (!s->parent) continue; /* a scope rooted at the document itself: nothing to replace */
        if (s->key) json_object_set(s->parent, s->key, value);
        else json_array_set(s->parent, s->index, value);
    }
}

/* Stage 3: the sites of stage 2 into R's view (and the work released): each valid one
 * pointing straight at its final value's node, and a mark per source node. */
static void publish_sites(struct walk *w, struct res *r)
{
    size_t nok = 0;
    for (size_t i = 0; i < w->sites.len; i++) nok += w->sites.items[i].state == SITE_OK;
    r->sites = xcalloc(nok ? nok : 1, sizeof *r->sites);
    size_t nmark = w->sites.len ? doc_node_count(w->d) : 0;
    if (w->sites.len) r->mark = xcalloc(nmark ? nmark : 1, 1);
    size_t k = 0;
    for (size_t i = 0; i < w->sites.len; i++) {
        const struct site *s = &w->sites.items[i];
        int ok = s->state == SITE_OK;
        if (ok) {
            const struct site *f = &w->sites.items[s->final];
            /* its own component is taken over below; another site's is copied */
            r->sites[k++] = (struct view_site){s->node, f->target,
                                               f == s ? s->component : xstrdup(f->component)};
        }
        if (s->node < nmark) r->mark[s->node] |= ok ? VIEW_SITE : VIEW_UNRESOLVED;
    }
    for (size_t i = 0; i < w->sites.len; i++) {
        struct site *s = &w->sites.items[i];
        if (s->state == SITE_OK && s->final == i) s->component = NULL; /* taken over */
        site_release(s);
    }
    r->view.sites = r->sites;
    r->view.nsites = nok;
    r->view.mark = r->mark;
    r->view.nmark = nmark;
}

struct res *res_resolve(doc *d, const struct res_config *cfg, struct diag_list *out)
{
    struct res *r = xcalloc(1, sizeof *r);
    struct walk w = {cfg, d, out, VEC_INIT, VEC_INIT, VEC_INIT, NULL, 0};
    resolve_versions(&w, r);
    const struct view versions = r->view; /* stage 1's view: versions, no sites */
    resolve_refs(&w, &versions);
    publish_sites(&w, r);
    VEC_FREE(w.sites);
    VEC_FREE(w.order);
    return r;
}

void res_free(struct res *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->view.nsites; i++) free((char *)r->sites[i].component);
    free(r->sites);
    free(r->mark);
    free(r->item_masks);
    free(r->collections);
    free(r);
}

const struct view *res_view(const struct res *r)
{
    return &r->view;
}
