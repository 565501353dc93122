/* texts.c - the text nodes of an item or of the document (texts.h), and their cache. */
#include "resolve/texts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Atomic unsigned long texts_item_walks;
_Atomic unsigned long texts_values_left_out;

static void entries_free(texts_entries *e)
{
    for (size_t i = 0; i < e->len; i++) {
        sel_free(e->items[i].sel);
        free(e->items[i].member);
        free(e->items[i].kind);
    }
    VEC_FREE(*e);
}

struct texts_spec *texts_spec_new(void)
{
    return xcalloc(1, sizeof(struct texts_spec));
}

void texts_spec_free(struct texts_spec *spec)
{
    if (!spec) return;
    for (size_t i = 0; i < spec->item.len; i++) {
        free(spec->item.items[i].name);
        entries_free(&spec->item.items[i].entries);
    }
    VEC_FREE(spec->item);
    entries_free(&spec->document);
    for (size_t i = 0; i < spec->roots.len; i++) sel_free(spec->roots.items[i]);
    VEC_FREE(spec->roots);
    entries_free(&spec->values);
    entries_free(&spec->keys);
    for (size_t i = 0; i < spec->skip.len; i++) free(spec->skip.items[i]);
    VEC_FREE(spec->skip);
    free(spec);
}

const struct texts_coll *texts_spec_coll(const struct texts_spec *spec, const char *name)
{
    for (size_t i = 0; spec && name && i < spec->item.len; i++)
        if (!strcmp(spec->item.items[i].name, name)) return &spec->item.items[i];
    return NULL;
}

/* ---- the list: cursors kept in chunks, so their parent pointers stay valid ---------- */

#define CHUNK 256 /* an item's walk usually fits one */
struct texts_chunk {
    struct texts_chunk *next;
    size_t n;
    struct cursor c[CHUNK];
};

static struct cursor *keep(struct texts_list *l, const struct cursor *c,
                           const struct cursor *parent)
{
    if (!l->chunks || l->chunks->n == CHUNK) {
        struct texts_chunk *k = l->spare;
        if (k) l->spare = k->next;
        else k = xmalloc(sizeof *k);
        k->next = l->chunks;
        k->n = 0;
        l->chunks = k;
    }
    struct cursor *out = &l->chunks->c[l->chunks->n++];
    *out = *c;
    out->parent = parent;
    return out;
}

/* C and its ancestors, kept (the item's or the root's chain). */
static const struct cursor *keep_chain(struct texts_list *l, const struct cursor *c)
{
    if (!c) return NULL;
    const struct cursor *parent = keep_chain(l, c->parent);
    return keep(l, c, parent);
}

/* C, a cursor below the kept cursor TOP on a selector walk's stack, with its ancestors up
 * to TOP, kept. */
static const struct cursor *keep_below(struct texts_list *l, const struct cursor *c,
                                       const struct cursor *top)
{
    if (c == top || !c) return c;
    return keep(l, c, keep_below(l, c->parent, top));
}

/* Empty L for another walk, keeping its chunks (as spares: an item as large as the last
 * one allocates nothing) and its vectors' room. */
static void list_reset(struct texts_list *l)
{
    for (struct texts_chunk *k = l->chunks, *next; k; k = next) {
        next = k->next;
        k->next = l->spare;
        l->spare = k;
    }
    l->chunks = NULL;
    for (size_t i = 0; i < l->owned.len; i++) json_decref(l->owned.items[i]);
    l->owned.len = l->nodes.len = 0;
    l->entered = l->cuts = 0;
    l->verdicts.len = 0;
    l->has_verdicts = 0;
    l->open.len = 0;
    l->has_open = 0;
    l->skipped_for = 0;
    l->has_skips = 0;
}

void texts_list_free(struct texts_list *l)
{
    if (!l) return;
    list_reset(l);
    for (struct texts_chunk *k = l->spare, *next; k; k = next) {
        next = k->next;
        free(k);
    }
    VEC_FREE(l->owned);
    VEC_FREE(l->nodes);
    VEC_FREE(l->verdicts);
    VEC_FREE(l->open);
    free(l);
}

/* ---- verdicts on distinct strings: an open-addressing table of copies -------------- */

/* Bounds: a longer string costs more to hash and compare than most answers, and is
 * seldom repeated (descriptions); the table stops taking strings at its bounds. */
enum {
    VERDICT_SEEN_BITS = 1 << 20, /* 128 KiB: within a core's second-level cache */
    VERDICT_MAX_LEN = 256,
    VERDICT_MAX_STRINGS = 1 << 18,
    VERDICT_MAX_BYTES = 8 << 20,
    VERDICT_BLOCK = 64 << 10,
    VERDICT_MAX_KINDS = 32
};

enum { NAMED_WORDS = 16 }; /* named_bytes' filter: 1,024 bits */
enum { PICK_MAX = 16 };    /* an item's selectors run_item finds in one pass, at most */

struct verdict_rec { /* in a block: the verdict, then the string's bytes */
    struct texts_verdict v;
    uint64_t ascii[2]; /* the string's facts (sel.h), found once */
    unsigned facts;
    int named;    /* NAME was made (NULL then: not UTF-8) */
    json_t *name; /* the string as the value of key nodes, or NULL */
    const char *kind;
    size_t n;
    char s[];
};

struct verdict_entry {
    uint64_t hash;
    struct verdict_rec *r; /* NULL: an empty entry */
};

struct verdict_block {
    struct verdict_block *next;
    size_t used;
    _Alignas(16) char bytes[VERDICT_BLOCK];
};

struct verdicts {
    uint64_t *seen; /* a bit per hash: a string (and kind) met before, maybe (see verdict_for) */
    struct verdict_entry *e;
    size_t cap, len, bytes;
    struct verdict_block *blocks;
    struct {
        const char *as, *canonical;
    } kinds[VERDICT_MAX_KINDS];
    size_t nkinds;
    const void *askers[64];
    int nasked;
    unsigned char hint[256]; /* an asker's number, by its address (texts_cache_question) */
    const struct texts_spec *named_of; /* the spec whose named_bytes NAMED holds, or NULL */
    uint64_t named[NAMED_WORDS];
    /* sel_member_name of a collection's selectors (entries, then roots), found once: the
     * selectors themselves are read again only when run */
    const texts_entries *picks_of;
    const char *picks[PICK_MAX];
    unsigned char picks_rest[PICK_MAX];
};

static void verdicts_free(struct verdicts *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].r) json_decref(t->e[i].r->name);
    for (struct verdict_block *b = t->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(t->e);
    free(t->seen);
    free(t);
}

/* Eight bytes at a time (FNV-like mixing), then the tail. */
static uint64_t string_hash(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, s + i, n - i);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    return h ^ h >> 32;
}

static void verdicts_grow(struct verdicts *t)
{
    size_t old = t->cap;
    struct verdict_entry *oe = t->e;
    t->cap = old ? old * 2 : 1024;
    t->e = xcalloc(t->cap, sizeof *t->e);
    for (size_t i = 0; i < old; i++) {
        if (!oe[i].r) continue;
        size_t k = oe[i].hash & (t->cap - 1);
        while (t->e[k].r) k = (k + 1) & (t->cap - 1);
        t->e[k] = oe[i];
    }
    free(oe);
}

/* KIND as the first equal kind name T saw (entries of a spec name a kind apart: texts of
 * one kind share records whichever entry found them) in *OUT; 0 past the bound. */
static int canonical_kind(struct verdicts *t, const char *kind, const char **out)
{
    for (size_t i = 0; i < t->nkinds; i++)
        if (t->kinds[i].as == kind) return *out = t->kinds[i].canonical, 1;
    const char *canonical = NULL;
    for (size_t i = 0; kind && i < t->nkinds && !canonical; i++)
        if (t->kinds[i].canonical && !strcmp(t->kinds[i].canonical, kind))
            canonical = t->kinds[i].canonical;
    if (t->nkinds == VERDICT_MAX_KINDS) return 0;
    t->kinds[t->nkinds].as = kind;
    t->kinds[t->nkinds++].canonical = *out = canonical ? canonical : kind;
    return 1;
}

/* The record of string S (N bytes) as a text of KIND (the spec's string: one record per
 * kind, so that an answer may also depend on the kind), made when new (no facts yet:
 * FACTS 0); NULL past the bounds, and at a string's first sighting unless ALWAYS.
 * Most strings of a document are met once (each tool's own descriptions: 67,000 of the
 * 70,000 distinct strings of the 10,000-tool benchmark file), and a record of those only
 * cost a miss in a table of megabytes, twice: a string gets its record when met again,
 * which a bit per hash, in a table small enough to stay in cache, tells (a bit set by
 * another string only makes a record early). */
static struct verdict_rec *verdict_for(struct verdicts *t, const char *kind, const char *s,
                                       size_t n, int always)
{
    if (n > VERDICT_MAX_LEN || !canonical_kind(t, kind, &kind)) return NULL;
    uint64_t h = string_hash(s, n) ^ (uint64_t)(uintptr_t)kind * 0x9E3779B97F4A7C15ull;
    size_t bit = (size_t)(h >> 40) & (VERDICT_SEEN_BITS - 1);
    if (!t->seen) t->seen = xcalloc(VERDICT_SEEN_BITS / 64, sizeof *t->seen);
    uint64_t *word = &t->seen[bit / 64], mask = (uint64_t)1 << (bit % 64);
    int met = (*word & mask) != 0;
    *word |= mask;
    if (!met && !always) return NULL;
    if (2 * (t->len + 1) > t->cap) {
        if (t->len >= VERDICT_MAX_STRINGS) return NULL;
        verdicts_grow(t);
    }
    size_t k = h & (t->cap - 1);
    for (; t->e[k].r; k = (k + 1) & (t->cap - 1)) {
        const struct verdict_rec *r = t->e[k].r;
        if (t->e[k].hash == h && r->kind == kind && r->n == n && !memcmp(r->s, s, n))
            return t->e[k].r;
    }
    size_t size = (sizeof(struct verdict_rec) + n + 15) & ~(size_t)15;
    if (t->bytes + size > VERDICT_MAX_BYTES) return NULL;
    if (!t->blocks || t->blocks->used + size > VERDICT_BLOCK) {
        struct verdict_block *b = xmalloc(sizeof *b);
        b->next = t->blocks;
        b->used = 0;
        t->blocks = b;
    }
    struct verdict_rec *r = (struct verdict_rec *)(t->blocks->bytes + t->blocks->used);
    t->blocks->used += size;
    t->bytes += size;
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->n = n;
    memcpy(r->s, s, n);
    t->e[k].hash = h;
    t->e[k].r = r;
    t->len++;
    return r;
}

/* C's facts (sel.h): R's when R has them, else found (and kept in R). */
static void text_facts(struct cursor *c, struct verdict_rec *r)
{
    if (r && r->facts) {
        c->text_facts = r->facts;
        c->text_ascii[0] = r->ascii[0];
        c->text_ascii[1] = r->ascii[1];
        return;
    }
    sel_text_facts(c);
    if (r) {
        r->facts = c->text_facts;
        r->ascii[0] = c->text_ascii[0];
        r->ascii[1] = c->text_ascii[1];
    }
}

/* ---- shared subtrees: a component's texts left out of a list once all settled -------
 * The texts below a value depend on the value alone (a schema walk reads no place: as a
 * "**" walk's, sel.c), and a substituted component is the same value at every site. So
 * the first walk of a shared value records the records of its texts' strings, how many
 * nodes it entered and how deep it reached; at a later site, when no bound could cut it
 * there and every one of those strings' answers is YES to every question numbered (so
 * every rule asking one skips their nodes: texts_cache_open), the value is not walked:
 * only its nodes are counted. A list that left one out says for which questions
 * (texts_list.skipped_for); asked for another, or for every node, it is walked again in
 * full (texts_cache_item_for). */
struct settled_value {
    const json_t *v;  /* NULL: a free slot */
    size_t entered;   /* nodes entered below V */
    int reach;        /* deepest node entered, below V */
    int complete;     /* every text had a record and no bound cut the walk */
    size_t at, n;     /* its records: settled.recs[at, at + n) */
    uint64_t yes_for; /* questions every record answered YES (found so far) */
};

struct settled {
    struct settled_value *e;
    size_t cap, len;
    VEC(struct verdict_rec *) recs;
    int off; /* a caller needed every node: nothing left out any more */
};

enum { SETTLED_MAX_RECS = 1 << 20 }; /* past it, values are walked (records kept stay) */

static struct settled_value *settled_slot(const struct settled *st, const json_t *v)
{
    size_t i = (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull >> 20) & (st->cap - 1);
    while (st->e[i].v && st->e[i].v != v) i = (i + 1) & (st->cap - 1);
    return &st->e[i];
}

static void settled_put(struct settled *st, const struct settled_value *sv)
{
    if (2 * (st->len + 1) > st->cap) {
        struct settled_value *old = st->e;
        size_t n = st->cap;
        st->cap = n ? 2 * n : 64;
        st->e = xcalloc(st->cap, sizeof *st->e);
        for (size_t k = 0; k < n; k++)
            if (old[k].v) *settled_slot(st, old[k].v) = old[k];
        free(old);
    }
    *settled_slot(st, sv->v) = *sv;
    st->len++;
}

static void settled_free(struct settled *st)
{
    if (!st) return;
    free(st->e);
    VEC_FREE(st->recs);
    free(st);
}

/* One walk's own state, beside its list (fill_item's). */
struct walk_state {
    uint64_t skip_mask;            /* the questions numbered when the walk began */
    int peak;                      /* deepest node entered */
    int recording;                 /* shared values being recorded, nested */
    VEC(struct verdict_rec *) rec; /* their texts' records */
    size_t rec_nulls;              /* their texts without one */
};

/* A text's record R (NULL: none) while WS records a shared value's texts. */
static void record_rec(struct walk_state *ws, struct verdict_rec *r)
{
    if (!r) ws->rec_nulls++;
    else VEC_PUSH(ws->rec, r);
}

/* Did every record of SV answer YES to every question in MASK? */
static int settled_yes(struct settled *st, struct settled_value *sv, uint64_t mask)
{
    if ((sv->yes_for & mask) == mask) return 1;
    for (size_t i = 0; i < sv->n; i++) {
        const struct texts_verdict *v = &st->recs.items[sv->at + i]->v;
        if ((v->known & v->yes & mask) != mask) return 0;
    }
    sv->yes_for = mask;
    return 1;
}

/* ---- the walk ----------------------------------------------------------------------- */

struct walk {
    const struct texts_spec *spec;
    const struct sel_ctx *ctx;
    struct texts_list *l;
    const struct cursor *top; /* the kept cursor a selector ran from */
    const char *kind;         /* the entry's kind (selectors) */
    const struct cursor *at;  /* the kept parent of the children being visited */
    int mode;                 /* what a child of AT is: see visit_child */
    struct verdicts *vt;      /* the cache's records of strings, or NULL */
    const uint64_t *named;    /* named_bytes of the spec (NAMED_WORDS) */
    struct settled *st;       /* the cache's shared subtrees, or NULL: none left out */
    struct walk_state *ws;    /* shared by the walk's every step */
};

enum { CHILD_SCHEMA, CHILD_LEAVES, CHILD_KEYS };

/* C a text node of W's list, of KIND; R its string's record, if any. A list with verdicts
 * (records given to the walk) has one entry per node. */
static void add_text_rec(struct walk *w, struct cursor *c, const char *kind, struct verdict_rec *r)
{
    struct texts_list *l = w->l;
    c->text_kind = kind;
    text_facts(c, r);
    VEC_PUSH(l->nodes, c);
    if (l->has_verdicts) VEC_PUSH(l->verdicts, r ? &r->v : NULL);
    if (w->ws->recording) record_rec(w->ws, r);
}

static void add_text(struct walk *w, struct cursor *c, const char *kind)
{
    struct verdict_rec *r = w->vt && json_is_string(c->v)
        ? verdict_for(w->vt, kind, json_string_value(c->v), json_string_length(c->v),
                      w->ws->recording)
        : NULL;
    add_text_rec(w, c, kind, r);
}

/* The bit of a member name by its first two bytes (the second NUL for a name of one). */
static unsigned named_bit(const char *key)
{
    return ((unsigned char)key[0] * 31u + (unsigned char)(key[0] ? key[1] : 0)) &
        (NAMED_WORDS * 64 - 1);
}

/* Could KEY be a member a schema walk treats apart (NAMED from named_bytes)? */
static int may_be_named(const uint64_t *named, const char *key)
{
    unsigned b = named_bit(key);
    return named[b >> 6] >> (b & 63) & 1;
}

/* The first two bytes of the members a schema walk treats apart (skip, values, keys), a
 * bit each: most members of a schema (type, items, required; type against title) have
 * none of them. */
static void named_bytes(const struct texts_spec *spec, uint64_t out[NAMED_WORDS])
{
    memset(out, 0, NAMED_WORDS * sizeof *out);
    const texts_entries *lists[] = {&spec->values, &spec->keys};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->len; i++) {
            unsigned b = named_bit(lists[k]->items[i].member);
            out[b >> 6] |= (uint64_t)1 << (b & 63);
        }
    for (size_t i = 0; i < spec->skip.len; i++) {
        unsigned b = named_bit(spec->skip.items[i]);
        out[b >> 6] |= (uint64_t)1 << (b & 63);
    }
}

/* Within the bounds of one item's walk? Counts C as entered. */
static int enter_ok(struct walk *w, const struct cursor *c)
{
    if (++w->l->entered > SEL_DEEP_MAX_NODES || c->depth >= SEL_DEEP_MAX_DEPTH) {
        w->l->cuts++;
        return 0;
    }
    if (c->depth > w->ws->peak) w->ws->peak = c->depth;
    return 1;
}

static const struct texts_entry *entry_named(const texts_entries *e, const char *member)
{
    for (size_t i = 0; member && i < e->len; i++)
        if (e->items[i].member[0] == member[0] && !strcmp(e->items[i].member, member))
            return &e->items[i];
    return NULL;
}

static void walk_children(struct walk *w, const struct cursor *at, int mode, const char *kind);

/* A schema (or any value inside one): its members are keywords, or unknown members whose
 * values are walked alike; a member named in values gives its string leaves, one named in
 * keys its member names (then each member's value, a schema). */
static void walk_shared_schema(struct walk *w, const struct cursor *c);

static void walk_schema(struct walk *w, const struct cursor *c)
{
    if (!json_is_object(c->v) && !json_is_array(c->v)) return;
    if (w->st && c->v->refcount > 1) walk_shared_schema(w, c); /* a substituted component */
    else walk_children(w, c, CHILD_SCHEMA, NULL);
}

static void walk_leaves(struct walk *w, const struct cursor *c, const char *kind)
{
    if (json_is_string(c->v)) add_text(w, (struct cursor *)c, kind);
    else if (json_is_object(c->v) || json_is_array(c->v)) walk_children(w, c, CHILD_LEAVES, kind);
}

/* The values entry of a schema member KEY (NULL for an item) whose string leaves are
 * texts, or NULL (not one, or a member the walk skips). */
static const struct texts_entry *schema_value_entry(const struct walk *w, const char *key)
{
    if (!key || !may_be_named(w->named, key)) return NULL;
    for (size_t i = 0; i < w->spec->skip.len; i++)
        if (w->spec->skip.items[i][0] == key[0] && !strcmp(w->spec->skip.items[i], key))
            return NULL;
    return entry_named(&w->spec->values, key);
}

/* Is a child (member KEY, or an item) of value V a scalar that is no text in W's mode?
 * A scalar (most schema members: type, minimum, the strings of required) is a text only
 * as a string leaf, of a values member when in a schema. Such a child gets no cursor: it
 * is counted as enter_ok counts a node entered, and left. */
static int skip_child(const char *key, const json_t *v, void *arg)
{
    struct walk *w = arg;
    if (w->mode == CHILD_KEYS || json_is_object(v) || json_is_array(v)) return 0;
    if (json_is_string(v) && (w->mode == CHILD_LEAVES || (key && may_be_named(w->named, key))))
        return 0; /* visit_child tells */
    int depth = w->at->depth + 1;
    if (++w->l->entered > SEL_DEEP_MAX_NODES || depth >= SEL_DEEP_MAX_DEPTH) w->l->cuts++;
    else if (depth > w->ws->peak) w->ws->peak = depth;
    return 1;
}

static int visit_child(const struct cursor *child, void *arg)
{
    struct walk *w = arg;
    if (!enter_ok(w, child)) return 0;
    const struct texts_entry *e;
    if (w->mode != CHILD_KEYS && !json_is_object(child->v) && !json_is_array(child->v)) {
        /* a string text (skip_child left the rest out) */
        if (w->mode == CHILD_SCHEMA) {
            if ((e = schema_value_entry(w, child->key)))
                add_text(w, keep(w->l, child, w->at), e->kind);
            return 0;
        }
        add_text(w, keep(w->l, child, w->at), w->kind);
        return 0;
    }
    struct cursor *k = keep(w->l, child, w->at);
    /* the walks below set their own AT, MODE and KIND (walk_children) and restore them */
    switch (w->mode) {
    case CHILD_LEAVES: walk_leaves(w, k, w->kind); break;
    case CHILD_KEYS: {
        /* the name as a string: one per distinct name, the record's, when recorded */
        struct verdict_rec *r =
            w->vt ? verdict_for(w->vt, w->kind, k->key, strlen(k->key), w->ws->recording) : NULL;
        json_t *name;
        if (r) {
            if (!r->named) r->name = json_string(k->key);
            r->named = 1;
            name = r->name;
        } else if ((name = json_string(k->key))) {
            VEC_PUSH(w->l->owned, name);
        }
        if (name) {
            struct cursor *kn = keep(w->l, k, w->at);
            kn->v = name;
            kn->is_key = 1;
            add_text_rec(w, kn, w->kind, r);
        }
        walk_schema(w, k);
        break;
    }
    case CHILD_SCHEMA:
        if (!k->key || !may_be_named(w->named, k->key)) {
            walk_schema(w, k);
            break;
        }
        for (size_t i = 0; i < w->spec->skip.len; i++)
            if (w->spec->skip.items[i][0] == k->key[0] && !strcmp(w->spec->skip.items[i], k->key))
                return 0;
        if ((e = entry_named(&w->spec->values, k->key))) walk_leaves(w, k, e->kind);
        else if ((e = entry_named(&w->spec->keys, k->key)) && json_is_object(k->v))
            walk_children(w, k, CHILD_KEYS, e->kind);
        else walk_schema(w, k);
        break;
    }
    return 0;
}

/* The children of AT in MODE (texts of KIND), with W's AT, MODE and KIND set for them and
 * then restored (W is the whole walk's: set in place rather than copied per node). */
static void walk_children(struct walk *w, const struct cursor *at, int mode, const char *kind)
{
    const struct cursor *at0 = w->at;
    int mode0 = w->mode;
    const char *kind0 = w->kind;
    w->at = at;
    w->mode = mode;
    w->kind = kind;
    sel_children_unless(w->ctx, at, skip_child, visit_child, w);
    w->at = at0;
    w->mode = mode0;
    w->kind = kind0;
}

/* walk_schema of C, a shared value: left out when settled (see struct settled_value), else
 * walked, and its texts' records recorded at its first walk. */
static void walk_shared_schema(struct walk *w, const struct cursor *c)
{
    struct texts_list *l = w->l;
    struct walk_state *ws = w->ws;
    struct settled *st = w->st;
    struct settled_value *sv = st->cap ? settled_slot(st, c->v) : NULL;
    if (sv && !sv->v) sv = NULL;
    if (sv && sv->complete && ws->skip_mask && l->entered + sv->entered <= SEL_DEEP_MAX_NODES &&
        c->depth + sv->reach < SEL_DEEP_MAX_DEPTH && settled_yes(st, sv, ws->skip_mask)) {
        l->entered += sv->entered;
        if (c->depth + sv->reach > ws->peak) ws->peak = c->depth + sv->reach;
        if (ws->recording) /* an enclosing shared value's records hold these too */
            for (size_t i = 0; i < sv->n; i++) VEC_PUSH(ws->rec, st->recs.items[sv->at + i]);
        l->skipped_for = ws->skip_mask;
        l->has_skips = 1;
        texts_values_left_out++;
        return;
    }
    if (sv || st->recs.len >= SETTLED_MAX_RECS) {
        walk_children(w, c, CHILD_SCHEMA, NULL);
        return;
    }
    size_t entered = l->entered, cuts = l->cuts, at = ws->rec.len, nulls = ws->rec_nulls;
    int peak = ws->peak;
    ws->peak = c->depth;
    ws->recording++;
    walk_children(w, c, CHILD_SCHEMA, NULL);
    ws->recording--;
    struct settled_value rec = {c->v,
                                l->entered - entered,
                                ws->peak - c->depth,
                                l->cuts == cuts && ws->rec_nulls == nulls,
                                st->recs.len,
                                ws->rec.len - at,
                                0};
    if (peak > ws->peak) ws->peak = peak;
    for (size_t i = at; i < ws->rec.len; i++) VEC_PUSH(st->recs, ws->rec.items[i]);
    if (!ws->recording) ws->rec.len = 0, ws->rec_nulls = 0;
    settled_put(st, &rec);
}

/* A string an entry's selector reached: a text of the entry's kind. */
static int visit_entry(const struct cursor *c, void *arg)
{
    struct walk *w = arg;
    if (!json_is_string(c->v)) return 0;
    const struct cursor *k = keep_below(w->l, c, w->top);
    if (k == w->top) return 0; /* an item is not a string */
    add_text(w, (struct cursor *)k, w->kind);
    return 0;
}

static int visit_root(const struct cursor *c, void *arg)
{
    struct walk *w = arg;
    if (!enter_ok(w, c)) return 0;
    walk_schema(w, keep_below(w->l, c, w->top));
    return 0;
}

static void run_entries(struct walk *w, const texts_entries *e)
{
    for (size_t i = 0; i < e->len; i++) {
        w->kind = e->items[i].kind;
        sel_run(e->items[i].sel, w->ctx, w->top, visit_entry, w);
    }
}

/* ---- an item's members named by selectors, found in one pass -------------------------
 * Most of an item's entries and roots are one member (name, description, inputSchema),
 * or start with one (annotations/title, arguments/[*]/name): a lookup each costs two hash
 * lookups and a search of the member's source node, where one pass over the item's few
 * members finds them all. The selectors still run in their order, each from what the
 * pass found (the rest of a longer one run from its first member: sel_run_rest). */
struct pick {
    const char *name[PICK_MAX];   /* per selector (entries, then roots): its member, or NULL */
    unsigned char rest[PICK_MAX]; /* the selector goes on past its member */
    size_t n;
    struct cursor found[PICK_MAX];
    unsigned char has[PICK_MAX];
    size_t at; /* the first selector naming the member pick_skip let through */
};

/* Short names (an item's members), compared from their first byte: they mostly differ
 * there, and a strcmp call on every pair costs more (4 M at 10,000 tools). */
static inline int same_name(const char *a, const char *b)
{
    return a[0] == b[0] && !strcmp(a, b);
}

/* Skip a member no selector of P names; else note the first that does (pick_visit, which
 * sel_children_unless calls next, starts there). */
static int pick_skip(const char *key, const json_t *v, void *arg)
{
    (void)v;
    struct pick *p = arg;
    for (size_t i = 0; key && i < p->n; i++)
        if (p->name[i] && same_name(p->name[i], key)) return p->at = i, 0;
    return 1;
}

static int pick_visit(const struct cursor *c, void *arg)
{
    struct pick *p = arg;
    for (size_t i = p->at; i < p->n; i++)
        if (p->name[i] && (i == p->at || same_name(p->name[i], c->key))) {
            p->found[i] = *c;
            p->has[i] = 1;
        }
    return 0;
}

/* Selector I of P (entries, then roots), SEL, from W's top: what the pass found when it
 * names a member, else a run. */
static void pick_run(struct walk *w, const struct pick *p, size_t i, const struct sel *sel,
                     sel_visit_fn fn)
{
    if (i < p->n && p->name[i]) {
        if (!p->has[i]) return;
        if (p->rest[i]) sel_run_rest(sel, w->ctx, &p->found[i], fn, w);
        else fn(&p->found[i], w);
    } else {
        sel_run(sel, w->ctx, w->top, fn, w);
    }
}

/* The entries E and then the roots of W's spec, from W's top (an item). */
static void run_item(struct walk *w, const texts_entries *e)
{
    const struct texts_spec *spec = w->spec;
    struct pick p;
    p.n = 0;
    size_t named = 0;
    if (json_is_object(w->top->v) && e->len + spec->roots.len <= PICK_MAX) {
        p.n = e->len + spec->roots.len;
        struct verdicts *vt = w->vt;
        if (vt && vt->picks_of == e) {
            memcpy(p.name, vt->picks, p.n * sizeof *p.name);
            memcpy(p.rest, vt->picks_rest, p.n);
        } else {
            for (size_t i = 0; i < p.n; i++) {
                const struct sel *sel =
                    i < e->len ? e->items[i].sel : spec->roots.items[i - e->len];
                p.name[i] = sel_member_name(sel);
                p.rest[i] = !p.name[i] && (p.name[i] = sel_first_member(sel)) != NULL;
            }
            if (vt) {
                memcpy(vt->picks, p.name, p.n * sizeof *p.name);
                memcpy(vt->picks_rest, p.rest, p.n);
                vt->picks_of = e;
            }
        }
        for (size_t i = 0; i < p.n; i++) {
            p.has[i] = 0;
            named += p.name[i] != NULL;
        }
        if (named) sel_children_unless(w->ctx, w->top, pick_skip, pick_visit, &p);
    }
    for (size_t i = 0; i < e->len; i++) {
        w->kind = e->items[i].kind;
        pick_run(w, &p, i, e->items[i].sel, visit_entry);
    }
    for (size_t i = 0; i < spec->roots.len; i++)
        pick_run(w, &p, e->len + i, spec->roots.items[i], visit_root);
}

/* The texts of ITEM into L (empty), with their strings' records from VT when given. */
static void fill_item(struct texts_list *l, const struct texts_spec *spec,
                      const struct sel_ctx *ctx, const struct cursor *item, struct verdicts *vt,
                      struct settled *st)
{
    const struct texts_coll *coll = item->parent && item->depth == 2 && !item->key
        ? texts_spec_coll(spec, item->parent->key)
        : NULL;
    if (!coll) return;
    texts_item_walks++;
    uint64_t own[NAMED_WORDS];
    const uint64_t *named = own;
    if (vt && vt->named_of == spec) {
        named = vt->named;
    } else {
        named_bytes(spec, own);
        if (vt) memcpy(vt->named, own, sizeof own), vt->named_of = spec;
    }
    /* the questions a left-out value must have settled: every one numbered, when any */
    int asked = vt ? vt->nasked : 0;
    struct walk_state ws = {asked >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << asked) - 1, 0, 0, VEC_INIT,
                            0};
    struct walk w = {spec,  ctx, l,  keep_chain(l, item), NULL, NULL, CHILD_SCHEMA, vt,
                     named, st,  &ws};
    l->has_verdicts = vt != NULL;
    run_item(&w, &coll->entries);
    VEC_FREE(ws.rec);
}

struct texts_list *texts_of_item(const struct texts_spec *spec, const struct sel_ctx *ctx,
                                 const struct cursor *item)
{
    struct texts_list *l = xcalloc(1, sizeof *l);
    fill_item(l, spec, ctx, item, NULL, NULL);
    return l;
}

struct texts_list *texts_of_document(const struct texts_spec *spec, const struct sel_ctx *ctx,
                                     const struct cursor *root)
{
    struct texts_list *l = xcalloc(1, sizeof *l);
    uint64_t named[NAMED_WORDS];
    named_bytes(spec, named);
    struct walk_state ws = {0, 0, 0, VEC_INIT, 0};
    struct walk w = {spec,  ctx,  l,  keep_chain(l, root), NULL, NULL, CHILD_SCHEMA, NULL,
                     named, NULL, &ws};
    run_entries(&w, &spec->document);
    VEC_FREE(ws.rec);
    return l;
}

/* ---- the cache: items by value, collection and index (chained buckets) ------------- */

struct slot {
    struct slot *next;
    const json_t *v;
    const char *coll; /* the collection cursor's key (stable while the document lives) */
    size_t index;
    struct texts_list *l;
};

struct texts_cache {
    struct slot **b;
    size_t cap, len;
    struct texts_list *document;
    struct slot *spare;  /* the last dropped slot and its list, reused by the next item */
    struct verdicts *vt; /* the verdicts on distinct strings, or NULL */
    struct settled *st;  /* shared values' texts (struct settled_value), or NULL */
};

static struct verdicts *verdicts_of(struct texts_cache **cache)
{
    if (!*cache) *cache = xcalloc(1, sizeof **cache);
    if (!(*cache)->vt) (*cache)->vt = xcalloc(1, sizeof *(*cache)->vt);
    return (*cache)->vt;
}

int texts_cache_question(struct texts_cache **cache, const void *asker)
{
    struct verdicts *t = verdicts_of(cache);
    /* every item asks every question: a slot by address answers most */
    unsigned char *hint = &t->hint[((uintptr_t)asker >> 4 ^ (uintptr_t)asker >> 12) & 255];
    if (*hint < t->nasked && t->askers[*hint] == asker) return *hint;
    for (int i = 0; i < t->nasked; i++)
        if (t->askers[i] == asker) return *hint = (unsigned char)i;
    if (t->nasked == 64) return -1;
    t->askers[t->nasked] = asker;
    *hint = (unsigned char)t->nasked;
    return t->nasked++;
}

const uint32_t *texts_cache_open(struct texts_cache **cache, const struct texts_list *cl, int q,
                                 size_t *n)
{
    struct texts_list *l = (struct texts_list *)cl; /* the cache's own list */
    struct texts_verdict *const *v = texts_cache_verdicts(cache, cl);
    if (!l->has_open) {
        int asked = verdicts_of(cache)->nasked;
        l->open_for = asked >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << asked) - 1;
        l->open.len = 0;
        VEC_RESERVE(l->open, 1); /* never NULL: NULL says every node */
        for (size_t i = 0; i < l->nodes.len; i++)
            if (!v[i] || (v[i]->known & v[i]->yes & l->open_for) != l->open_for)
                VEC_PUSH(l->open, (uint32_t)i);
        l->has_open = 1;
    }
    if (q < 0 || q >= 64 || !(l->open_for >> q & 1)) {
        *n = l->nodes.len;
        return NULL;
    }
    *n = l->open.len;
    return l->open.items;
}

struct texts_verdict *const *texts_cache_verdicts(struct texts_cache **cache,
                                                  const struct texts_list *cl)
{
    struct texts_list *l = (struct texts_list *)cl; /* the cache's own list */
    if (l->has_verdicts) return l->verdicts.items;
    /* a list walked without records (the document's): its records now */
    struct verdicts *t = verdicts_of(cache);
    l->verdicts.len = 0;
    VEC_RESERVE(l->verdicts, l->nodes.len + 1);
    for (size_t i = 0; i < l->nodes.len; i++) {
        const json_t *v = l->nodes.items[i]->v;
        struct verdict_rec *r = json_is_string(v)
            ? verdict_for(t, l->nodes.items[i]->text_kind, json_string_value(v),
                          json_string_length(v), 0)
            : NULL;
        l->verdicts.items[i] = r ? &r->v : NULL;
    }
    l->verdicts.len = l->nodes.len;
    l->has_verdicts = 1;
    return l->verdicts.items;
}

static size_t bucket(const struct texts_cache *c, const json_t *v, size_t index)
{
    return (size_t)((((uintptr_t)v >> 4) ^ index) * 0x9E3779B97F4A7C15ull >> 17) & (c->cap - 1);
}

static struct slot **find(struct texts_cache *c, const struct cursor *item)
{
    const char *coll = item->parent ? item->parent->key : NULL;
    struct slot **s = &c->b[bucket(c, item->v, item->index)];
    while (*s && !((*s)->v == item->v && (*s)->coll == coll && (*s)->index == item->index))
        s = &(*s)->next;
    return s;
}

static void grow(struct texts_cache *c)
{
    size_t old = c->cap;
    struct slot **ob = c->b;
    c->cap = old ? old * 2 : 64;
    c->b = xcalloc(c->cap, sizeof *c->b);
    for (size_t i = 0; i < old; i++)
        for (struct slot *s = ob[i], *next; s; s = next) {
            next = s->next;
            size_t k = bucket(c, s->v, s->index);
            s->next = c->b[k];
            c->b[k] = s;
        }
    free(ob);
}

const struct texts_list *texts_cache_item(struct texts_cache **cache, const struct texts_spec *spec,
                                          const struct sel_ctx *ctx, const struct cursor *item)
{
    return texts_cache_item_for(cache, spec, ctx, item, -1);
}

const struct texts_list *texts_cache_item_for(struct texts_cache **cache,
                                              const struct texts_spec *spec,
                                              const struct sel_ctx *ctx, const struct cursor *item,
                                              int q)
{
    if (!*cache) *cache = xcalloc(1, sizeof **cache);
    struct texts_cache *c = *cache;
    if (!c->st) c->st = xcalloc(1, sizeof *c->st);
    if (q < 0) c->st->off = 1; /* for good: the lists of the next items are whole */
    if (2 * (c->len + 1) > c->cap) grow(c);
    struct slot **s = find(c, item);
    if (!*s) {
        struct slot *n = c->spare;
        c->spare = NULL;
        if (!n) {
            n = xcalloc(1, sizeof *n);
            n->l = xcalloc(1, sizeof *n->l);
        }
        n->next = NULL;
        n->v = item->v;
        n->coll = item->parent ? item->parent->key : NULL;
        n->index = item->index;
        fill_item(n->l, spec, ctx, item, verdicts_of(cache), c->st->off ? NULL : c->st);
        *s = n;
        c->len++;
    } else if ((*s)->l->has_skips && (q < 0 || q >= 64 || !((*s)->l->skipped_for >> q & 1))) {
        /* a list that left out texts this caller may need: walked again, whole */
        list_reset((*s)->l);
        fill_item((*s)->l, spec, ctx, item, verdicts_of(cache), NULL);
    }
    return (*s)->l;
}

const struct texts_list *texts_cache_document(struct texts_cache **cache,
                                              const struct texts_spec *spec,
                                              const struct sel_ctx *ctx, const struct cursor *root)
{
    if (!*cache) *cache = xcalloc(1, sizeof **cache);
    if (!(*cache)->document) (*cache)->document = texts_of_document(spec, ctx, root);
    return (*cache)->document;
}

void texts_cache_drop(struct texts_cache *c, const struct cursor *item)
{
    if (!c || !c->cap) return;
    struct slot **s = find(c, item);
    if (!*s) return;
    struct slot *gone = *s;
    *s = gone->next;
    c->len--;
    list_reset(gone->l);
    if (c->spare) {
        texts_list_free(c->spare->l);
        free(c->spare);
    }
    c->spare = gone;
}

void texts_cache_free(struct texts_cache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->cap; i++)
        for (struct slot *s = c->b[i], *next; s; s = next) {
            next = s->next;
            texts_list_free(s->l);
            free(s);
        }
    free(c->b);
    texts_list_free(c->document);
    if (c->spare) texts_list_free(c->spare->l);
    free(c->spare);
    verdicts_free(c->vt);
    settled_free(c->st);
    free(c);
}
