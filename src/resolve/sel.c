/* sel.c - selectors and cursor stepping; see sel.h. Stepping reads a resolution's view
 * (view.h): it follows resolved $componentRef sites, so that positions stay those of
 * the source, and gives each cursor its effective versions. */
#include "resolve/sel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "resolve/view.h"
#include "base/util.h"

struct sel {
    char *text;
    int absolute;
    struct ptr segs; /* a segment "*" is the wildcard, "[*]" array items only, "**" any depth */
    int wildcard;
};

/* A value under several parents (a substituted component) that a "**" walk went
 * through without selecting anything: walking it again at another place would select
 * nothing again (what is selected depends on the values only), so the walk only counts
 * the nodes it would enter, as long as no bound could have cut it there. A reference
 * bomb's tree of a million nodes is then walked in time linear in its text. */
struct deep_seen {
    json_t *v; /* NULL: free slot */
    size_t entered;
    int reach; /* deepest node entered, below the value */
};

/* One selector run: the bound on nodes a "**" segment enters (a resolved document can
 * repeat a component many times, so its tree may be much larger than its text). */
struct walk {
    const struct sel *s;
    const struct sel_ctx *ctx;
    sel_visit_fn fn;
    void *arg;
    size_t entered;
    size_t visits, cuts;    /* calls of FN; nodes a bound kept out */
    int peak;               /* deepest cursor a "**" entered */
    struct deep_seen *seen; /* open addressing, allocated at the first shared value */
    size_t seen_cap, seen_len;
    /* sel_run_alt: the names the last segment may be, each in turn (NULL: the selector's) */
    const char *const *alts;
    size_t nalts;
};

_Atomic unsigned long sel_shared_walks;

struct sel *sel_compile(const char *text, const char **why)
{
    struct sel *s = xcalloc(1, sizeof *s);
    s->text = xstrdup(text);
    s->absolute = text[0] == '/';
    if (!*text) {
        *why = "a selector must not be empty (use a pointer such as /tools/* or properties)";
        sel_free(s);
        return NULL;
    }
    char *full = s->absolute ? xstrdup(text) : xasprintf("/%s", text);
    int rc = ptr_parse(full, &s->segs, why);
    free(full);
    if (rc < 0) {
        sel_free(s);
        return NULL;
    }
    size_t deep = 0;
    for (size_t i = 0; i < s->segs.n; i++) {
        if (!strcmp(s->segs.segs[i], "*") || !strcmp(s->segs.segs[i], SEL_ITEMS)) s->wildcard = 1;
        if (!strcmp(s->segs.segs[i], "**")) {
            s->wildcard = 1;
            deep++;
        }
    }
    if (deep > 1) { /* two would reach one node along several paths: duplicates */
        *why = "a selector may hold at most one \"**\" segment";
        sel_free(s);
        return NULL;
    }
    return s;
}

struct sel *sel_self(void)
{
    struct sel *s = xcalloc(1, sizeof *s);
    s->text = xstrdup("");
    return s;
}

char *sel_from_jsonpath(const char *text)
{
    int dollar = text[0] == '$' && (!text[1] || text[1] == '.' || text[1] == '[');
    int glued = 0;
    for (const char *p = strstr(text, SEL_ITEMS); p && !glued; p = strstr(p + 1, SEL_ITEMS))
        glued = p > text && p[-1] != '/';
    if (!dollar && !glued && !strstr(text, "..")) return NULL;
    VEC(char *) segs = VEC_INIT;
    struct buf seg = BUF_INIT;
    const char *p = text + (dollar ? 1 : 0);
    while (*p) {
        if (p[0] == '.' && p[1] == '.') {
            if (seg.len) VEC_PUSH(segs, buf_detach(&seg));
            VEC_PUSH(segs, xstrdup("**"));
            p += 2;
        } else if (*p == '/' || (dollar && *p == '.')) {
            if (seg.len) VEC_PUSH(segs, buf_detach(&seg));
            p++;
        } else if (*p == '[' && strchr(p, ']')) {
            const char *e = strchr(p, ']');
            if (seg.len) VEC_PUSH(segs, buf_detach(&seg));
            const char *in = p + 1;
            size_t n = (size_t)(e - in);
            if (n >= 2 && (in[0] == '\'' || in[0] == '"') && in[n - 1] == in[0]) in++, n -= 2;
            VEC_PUSH(segs, n == 1 && *in == '*' ? xstrdup(SEL_ITEMS) : xstrndup(in, n));
            p = e + 1;
        } else {
            buf_addc(&seg, *p++);
        }
    }
    if (seg.len) VEC_PUSH(segs, buf_detach(&seg));
    buf_release(&seg);
    struct buf out = BUF_INIT;
    int absolute = dollar || text[0] == '/';
    for (size_t i = 0; i < segs.len; i++) {
        if (i || absolute) buf_addc(&out, '/');
        buf_adds(&out, segs.items[i]);
        free(segs.items[i]);
    }
    if (!out.len) buf_addc(&out, '/');
    VEC_FREE(segs);
    return buf_detach(&out);
}

void sel_free(struct sel *s)
{
    if (!s) return;
    ptr_release(&s->segs);
    free(s->text);
    free(s);
}

int sel_is_absolute(const struct sel *s)
{
    return s->absolute;
}
int sel_has_wildcard(const struct sel *s)
{
    return s->wildcard;
}
const char *sel_text(const struct sel *s)
{
    return s->text;
}
const char *sel_member_name(const struct sel *s)
{
    if (s->absolute || s->segs.n != 1 || s->wildcard) return NULL;
    return s->segs.segs[0];
}

/* Eight bytes at P, the first one lowest. */
static uint64_t load8(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* Bytes 0 or 1 of W (the first one lowest), packed into a bit each. */
static uint64_t pack_flags(uint64_t w)
{
    return (w * 0x0102040810204080ull) >> 56;
}

/* The facts over N >= 8 bytes of S, eight at a time (most of a text's bytes are a
 * description's): a byte's flag set in a table (a store, where setting its bit was a
 * shift, a load and a store), folded once; two spaces in a row found in each word of
 * eight (a space byte's high bit, against the one before it). */
static unsigned facts_long(const unsigned char *s, size_t n, uint64_t ascii[2])
{
    unsigned char seen[256]; /* only the ASCII half is read: only it is cleared */
    memset(seen, 0, 128);
    uint64_t spaces = 0, before = 0; /* before: the last byte of the word before, a space */
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (size_t k = 0; k < 8; k++) seen[s[i + k]] = 1;
        uint64_t w = load8(s + i);
        high |= w;
        uint64_t x = w ^ 0x2020202020202020ull; /* a space: a zero byte, found exactly */
        uint64_t m =
            ~(((x & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | x) & 0x8080808080808080ull;
        spaces |= m & (m << 8 | before);
        before = m >> 56;
    }
    int twice = spaces != 0, prev = before != 0;
    for (; i < n; i++) {
        seen[s[i]] = 1;
        high |= s[i];
        twice |= prev & (s[i] == ' ');
        prev = s[i] == ' ';
    }
    ascii[0] = ascii[1] = 0;
    for (size_t k = 0; k < 16; k++)
        ascii[k / 8] |= pack_flags(load8(seen + 8 * k)) << (8 * (k % 8));
    return (high & 0x8080808080808080ull ? SEL_TEXT_NON_ASCII : 0) |
        (twice ? SEL_TEXT_UNFOLDED : 0);
}

void sel_text_facts(struct cursor *c)
{
    c->text_facts = 0;
    if (!json_is_string(c->v)) return;
    const unsigned char *s = (const unsigned char *)json_string_value(c->v);
    size_t n = json_string_length(c->v);
    unsigned f = SEL_TEXT_FACTS, prev = 0, twice = 0;
    uint64_t a[4] = {0, 0, 0, 0}; /* every byte's bit, without a branch: bits of 0x80 and up
                                   * say only that there are some */
    if (n >= 24) {
        f |= facts_long(s, n, a);
    } else {
        for (size_t i = 0; i < n; i++) {
            unsigned b = s[i];
            a[b >> 6] |= (uint64_t)1 << (b & 63);
            twice |= (b == ' ') & (prev == ' ');
            prev = b;
        }
        if (a[2] | a[3]) f |= SEL_TEXT_NON_ASCII;
        if (twice) f |= SEL_TEXT_UNFOLDED;
    }
    if (a[0] & ((uint64_t)0x1F << 0x09)) f |= SEL_TEXT_UNFOLDED; /* TAB to CR */
    c->text_ascii[0] = a[0];
    c->text_ascii[1] = a[1];
    c->text_facts = f;
}

void sel_root(const struct sel_ctx *ctx, struct cursor *out)
{
    memset(out, 0, sizeof *out);
    out->v = doc_root(ctx->d);
    out->node = 0;
    out->vmask = ctx->view ? ctx->view->doc_mask : 0;
    out->coll = -1;
}

/* Fill the parts of a child cursor that depend on where it is. */
static void enter(const struct sel_ctx *ctx, const struct cursor *c, struct cursor *out)
{
    out->parent = c;
    out->component = c->component;
    out->vmask = c->vmask;
    out->coll = -1;
    out->unresolved = 0;
    out->depth = c->depth + 1;
    out->text_kind = NULL;
    out->is_key = 0;
    out->text_facts = 0;
    const struct view *v = ctx->view;
    if (v) {
        if (c->depth == 0 && out->key) {
            out->coll = view_collection(v, out->key);
            /* a list is offered in the versions of its items: "the server lists tools"
             * holds only where some tool is offered */
            if (out->coll >= 0 && json_is_array(out->v))
                out->vmask = view_collection_mask(v, out->coll);
        } else if (c->depth == 1 && c->coll >= 0 && !out->key)
            out->vmask = view_item_mask(v, c->coll, out->index);
        doc_node target;
        const char *component;
        if (out->node != DOC_NONE && view_follow(v, out->node, &target, &component)) {
            out->node = target;
            out->component = component;
        } else if (out->node != DOC_NONE) {
            out->unresolved = view_unresolved(v, out->node);
        }
    }
}

int sel_member(const struct sel_ctx *ctx, const struct cursor *c, const char *key,
               struct cursor *out)
{
    if (!json_is_object(c->v)) return -1;
    json_t *v = json_object_get(c->v, key);
    if (!v) return -1;
    const char *stable = NULL;
    doc_node n =
        c->node == DOC_NONE ? DOC_NONE : doc_node_member_key(ctx->d, c->node, c->v, key, &stable);
    if (!stable) { /* no source node (should not happen): find the object's own key copy */
        for (void *it = json_object_iter(c->v); it; it = json_object_iter_next(c->v, it))
            if (!strcmp(json_object_iter_key(it), key)) stable = json_object_iter_key(it);
    }
    out->v = v;
    out->key = stable;
    out->index = 0;
    out->node = n;
    enter(ctx, c, out);
    return 0;
}

int sel_item(const struct sel_ctx *ctx, const struct cursor *c, size_t idx, struct cursor *out)
{
    if (!json_is_array(c->v) || idx >= json_array_size(c->v)) return -1;
    out->v = json_array_get(c->v, idx);
    out->key = NULL;
    out->index = idx;
    out->node = c->node == DOC_NONE ? DOC_NONE : doc_node_array_item(ctx->d, c->node, c->v, idx);
    enter(ctx, c, out);
    return 0;
}

static int run_from(struct walk *w, size_t i, const struct cursor *c);

/* Segment I (not a wildcard) names one member, or one item of an array: SEG. */
static int run_named_as(struct walk *w, size_t i, const char *seg, const struct cursor *c)
{
    struct cursor child;
    size_t idx;
    if (json_is_object(c->v)) {
        if (sel_member(w->ctx, c, seg, &child) < 0) return 0;
    } else if (json_is_array(c->v) && ptr_is_index(seg, &idx)) {
        if (sel_item(w->ctx, c, idx, &child) < 0) return 0;
    } else {
        return 0;
    }
    return run_from(w, i + 1, &child);
}

static int run_named(struct walk *w, size_t i, const struct cursor *c)
{
    if (w->alts && i + 1 == w->s->segs.n) { /* the last segment: each of its names */
        int rc = 0;
        for (size_t k = 0; k < w->nalts && !rc; k++) rc = run_named_as(w, i, w->alts[k], c);
        return rc;
    }
    return run_named_as(w, i, w->s->segs.segs[i], c);
}

/* Calls STEP(w, NEXT, child) for every member or item of C (every item only, when
 * ITEMS_ONLY), in document order, walking children and their source nodes side by side
 * (O(1) per step). */
static int run_children_with(struct walk *w, size_t next, const struct cursor *c, int items_only,
                             int (*step)(struct walk *, size_t, const struct cursor *))
{
    const struct sel_ctx *ctx = w->ctx;
    doc_node n = c->node == DOC_NONE ? DOC_NONE : doc_node_first_child(ctx->d, c->node);
    struct cursor child;
    int rc = 0;
    if (json_is_object(c->v) && !items_only) {
        for (void *it = json_object_iter(c->v); it && !rc; it = json_object_iter_next(c->v, it)) {
            child.v = json_object_iter_value(it);
            child.key = json_object_iter_key(it);
            child.index = 0;
            child.node = n;
            enter(ctx, c, &child);
            rc = step(w, next, &child);
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    } else if (json_is_array(c->v)) {
        size_t len = json_array_size(c->v);
        for (size_t k = 0; k < len && !rc; k++) {
            child.v = json_array_get(c->v, k);
            child.key = NULL;
            child.index = k;
            child.node = n;
            enter(ctx, c, &child);
            rc = step(w, next, &child);
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    }
    return rc;
}

static int run_children(struct walk *w, size_t next, const struct cursor *c, int items_only)
{
    return run_children_with(w, next, c, items_only, run_from);
}

struct children_walk {
    sel_visit_fn fn;
    void *arg;
};

static int children_visit(struct walk *w, size_t next, const struct cursor *c)
{
    (void)next;
    const struct children_walk *cw = w->arg;
    return cw->fn(c, cw->arg);
}

int sel_children(const struct sel_ctx *ctx, const struct cursor *c, sel_visit_fn fn, void *arg)
{
    struct children_walk cw = {fn, arg};
    struct walk w = {NULL, ctx, NULL, &cw, 0, 0, 0, 0, NULL, 0, 0, NULL, 0};
    return run_children_with(&w, 0, c, 0, children_visit);
}

int sel_children_unless(const struct sel_ctx *ctx, const struct cursor *c, sel_skip_fn skip,
                        sel_visit_fn fn, void *arg)
{
    doc_node n = c->node == DOC_NONE ? DOC_NONE : doc_node_first_child(ctx->d, c->node);
    struct cursor child;
    int rc = 0;
    if (json_is_object(c->v)) {
        for (void *it = json_object_iter(c->v); it && !rc; it = json_object_iter_next(c->v, it)) {
            child.v = json_object_iter_value(it);
            child.key = json_object_iter_key(it);
            if (!skip(child.key, child.v, arg)) {
                child.index = 0;
                child.node = n;
                enter(ctx, c, &child);
                rc = fn(&child, arg);
            }
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    } else if (json_is_array(c->v)) {
        size_t len = json_array_size(c->v);
        for (size_t k = 0; k < len && !rc; k++) {
            child.v = json_array_get(c->v, k);
            if (!skip(NULL, child.v, arg)) {
                child.key = NULL;
                child.index = k;
                child.node = n;
                enter(ctx, c, &child);
                rc = fn(&child, arg);
            }
            if (n != DOC_NONE) n = doc_node_next_sibling(ctx->d, c->node, n);
        }
    }
    return rc;
}

/* "**" at segment I: the rest of the selector from C itself (zero segments), then from
 * every node below C (pre-order), each node once; bounded by SEL_DEEP_MAX_NODES. */
static int run_deep_node(struct walk *w, size_t i, const struct cursor *c)
{
    if (++w->entered > SEL_DEEP_MAX_NODES || c->depth >= SEL_DEEP_MAX_DEPTH) {
        w->cuts++;
        return 0;
    }
    if (c->depth > w->peak) w->peak = c->depth;
    if (c->v->refcount > 1) sel_shared_walks++;
    int rc = run_from(w, i + 1, c);
    if (rc) return rc;
    return run_children(w, i, c, 0); /* the children stay at segment I: any depth */
}

static size_t seen_slot(const struct walk *w, const json_t *v)
{
    size_t i = (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull >> 20) & (w->seen_cap - 1);
    while (w->seen[i].v && w->seen[i].v != v) i = (i + 1) & (w->seen_cap - 1);
    return i;
}

static void seen_put(struct walk *w, json_t *v, size_t entered, int reach)
{
    if (2 * (w->seen_len + 1) > w->seen_cap) { /* at most half full: probes stay short */
        struct deep_seen *old = w->seen;
        size_t n = w->seen_cap;
        w->seen_cap = n ? 2 * n : 64;
        w->seen = xcalloc(w->seen_cap, sizeof *w->seen);
        for (size_t k = 0; k < n; k++)
            if (old[k].v) w->seen[seen_slot(w, old[k].v)] = old[k];
        free(old);
    }
    w->seen[seen_slot(w, v)] = (struct deep_seen){v, entered, reach};
    w->seen_len++;
}

/* run_deep_node of a shared value (struct deep_seen says why skipping it is exact). */
static int run_deep_shared(struct walk *w, size_t i, const struct cursor *c)
{
    const struct deep_seen *e = w->seen_cap ? &w->seen[seen_slot(w, c->v)] : NULL;
    if (e && e->v) {
        if (w->entered + e->entered > SEL_DEEP_MAX_NODES ||
            c->depth + e->reach >= SEL_DEEP_MAX_DEPTH)
            return run_deep_node(w, i, c); /* a bound cuts it here: walk it */
        w->entered += e->entered;
        if (c->depth + e->reach > w->peak) w->peak = c->depth + e->reach;
        return 0;
    }
    size_t entered = w->entered, visits = w->visits, cuts = w->cuts;
    int peak = w->peak;
    w->peak = c->depth;
    int rc = run_deep_node(w, i, c);
    int reach = w->peak - c->depth;
    if (peak > w->peak) w->peak = peak;
    if (!rc && w->visits == visits && w->cuts == cuts)
        seen_put(w, c->v, w->entered - entered, reach);
    return rc;
}

static int run_deep(struct walk *w, size_t i, const struct cursor *c)
{
    if ((json_is_object(c->v) || json_is_array(c->v)) && c->v->refcount > 1)
        return run_deep_shared(w, i, c);
    return run_deep_node(w, i, c);
}

static int run_from(struct walk *w, size_t i, const struct cursor *c)
{
    if (i == w->s->segs.n) {
        w->visits++;
        return w->fn(c, w->arg);
    }
    const char *seg = w->s->segs.segs[i];
    if (!strcmp(seg, "**")) return run_deep(w, i, c);
    if (!strcmp(seg, "*")) return run_children(w, i + 1, c, 0);
    /* an MCP array written as an object (a map) is reported once as such by the type
     * rules; its members are not judged as if they were items */
    if (!strcmp(seg, SEL_ITEMS)) return run_children(w, i + 1, c, 1);
    return run_named(w, i, c);
}

int sel_run(const struct sel *s, const struct sel_ctx *ctx, const struct cursor *from,
            sel_visit_fn fn, void *arg)
{
    struct cursor root;
    if (s->absolute || !from) {
        sel_root(ctx, &root);
        from = &root;
    }
    struct walk w = {s, ctx, fn, arg, 0, 0, 0, 0, NULL, 0, 0, NULL, 0};
    int rc = run_from(&w, 0, from);
    free(w.seen);
    return rc;
}

const char *sel_first_member(const struct sel *s)
{
    if (s->absolute || s->segs.n < 2) return NULL;
    const char *seg = s->segs.segs[0];
    if (!strcmp(seg, "**") || !strcmp(seg, "*") || !strcmp(seg, SEL_ITEMS)) return NULL;
    return seg;
}

int sel_run_rest(const struct sel *s, const struct sel_ctx *ctx, const struct cursor *c,
                 sel_visit_fn fn, void *arg)
{
    struct walk w = {s, ctx, fn, arg, 0, 0, 0, 0, NULL, 0, 0, NULL, 0};
    int rc = run_from(&w, 1, c);
    free(w.seen);
    return rc;
}

/* Do S and T differ only in their last segment, a name under a "**" (one walk serves
 * both)? */
static int alt_of(const struct sel *s, const struct sel *t)
{
    size_t n = s->segs.n;
    if (s->absolute != t->absolute || n < 2 || t->segs.n != n) return 0;
    int deep = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (strcmp(s->segs.segs[i], t->segs.segs[i])) return 0;
        deep |= !strcmp(s->segs.segs[i], "**");
    }
    for (const struct sel *u = s;; u = t) {
        const char *last = u->segs.segs[n - 1];
        if (!strcmp(last, "**") || !strcmp(last, "*") || !strcmp(last, SEL_ITEMS)) return 0;
        if (u == t) break;
    }
    return deep;
}

int sel_run_alt(const struct sel *const *sels, size_t n, const struct sel_ctx *ctx,
                const struct cursor *from, sel_visit_fn fn, void *arg)
{
    size_t k = 1;
    while (k < n && alt_of(sels[0], sels[k])) k++;
    if (n < 2 || k < n) { /* not one walk's worth: each in turn */
        int rc = 0;
        for (size_t i = 0; i < n && !rc; i++) rc = sel_run(sels[i], ctx, from, fn, arg);
        return rc;
    }
    const char **names = xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++) names[i] = sels[i]->segs.segs[sels[i]->segs.n - 1];
    struct cursor root;
    if (sels[0]->absolute || !from) {
        sel_root(ctx, &root);
        from = &root;
    }
    struct walk w = {sels[0], ctx, fn, arg, 0, 0, 0, 0, NULL, 0, 0, names, n};
    int rc = run_from(&w, 0, from);
    free(w.seen);
    free(names);
    return rc;
}

static void append_path(struct buf *b, const struct cursor *c)
{
    if (!c->parent) return;
    append_path(b, c->parent);
    if (c->key) ptr_append_segment(b, c->key, strlen(c->key));
    else ptr_append_index(b, c->index);
}

char *sel_pointer(const struct cursor *c)
{
    struct buf b = BUF_INIT;
    append_path(&b, c);
    return buf_detach(&b);
}
