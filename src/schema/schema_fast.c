/* schema_fast.c - compile-time specialisation of the boolean ("valid?") program of each
 * node: properties/required/additionalProperties fused into one pass over an object's
 * members against a precomputed name table, string enums and required names with
 * precomputed lengths; then, when every keyword of that program is a common one, the
 * program as one record (struct schema_fnode) that schema_eval.c checks by the
 * instance's type without a dispatch per keyword; plus the reusable PCRE2 match data of
 * a compiled schema. */
#include <stdatomic.h>
#include <string.h>

#include "schema/schemaInt.h"

/* The range of json_int_t (long long, or long without it). */
#define JINT_MAX ((json_int_t)((1ull << (sizeof(json_int_t) * 8 - 1)) - 1))
#define JINT_MIN (-JINT_MAX - 1)

struct schema_mdcache {
    _Atomic(pcre2_match_data *) md;
};

static void ptab_index(struct schema_ptab *t)
{
    uint32_t cap = 8;
    while (cap < 2 * t->n) cap *= 2;
    t->mask = cap - 1;
    t->slots = xcalloc(cap, sizeof *t->slots);
    for (size_t k = 0; k < t->n; k++) {
        uint32_t i = schema_pname_hash(t->names[k].name, t->names[k].len) & t->mask;
        while (t->slots[i]) i = (i + 1) & t->mask;
        t->slots[i] = (uint32_t)k + 1;
    }
}

/* Add NAME unless present; returns its index. */
static size_t ptab_add(struct schema_ptab *t, size_t *cap, const char *name, size_t len)
{
    for (size_t k = 0; k < t->n; k++)
        if (t->names[k].len == len && !memcmp(t->names[k].name, name, len)) return k;
    if (t->n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        t->names = xrealloc(t->names, *cap * sizeof *t->names);
    }
    t->names[t->n] = (struct schema_pname){name, len, SCHEMA_NONE, 0, 0, SCHEMA_NONE, NULL, 0};
    return t->n++;
}

static const struct schema_kw *find_kw(const struct schema_node *n, enum schema_kwk kind)
{
    for (size_t i = 0; i < n->nkw; i++)
        if (n->kws[i].kind == kind) return &n->kws[i];
    return NULL;
}

/* true, {} or only annotations: nothing to evaluate in boolean mode */
static int always_valid(const struct schema_node *n)
{
    return n->boolean == 1 || (n->boolean < 0 && n->nkw == 0);
}

/* Fuse the node's properties/required/additionalProperties (no patternProperties). */
static struct schema_objop *build_objop(const schema *s, const struct schema_node *n,
                                        int with_required)
{
    const struct schema_kw *pk = find_kw(n, SK_PROPERTIES), *rk = find_kw(n, SK_REQUIRED),
                           *ak = find_kw(n, SK_ADDPROPS);
    struct schema_objop *op = xcalloc(1, sizeof *op);
    size_t cap = 0, i;
    json_t *r;
    if (with_required && rk) {
        json_array_foreach(rk->u.value, i, r)
        {
            size_t k = ptab_add(&op->tab, &cap, json_string_value(r), json_string_length(r));
            op->tab.names[k].required = 1;
            op->tab.names[k].reqbit = 1ull << k;
            op->reqmask |= 1ull << k;
        }
    }
    op->first = SCHEMA_NONE;
    size_t prev = SCHEMA_NONE;
    for (i = 0; pk && i < pk->u.props.n; i++) {
        size_t k = ptab_add(&op->tab, &cap, pk->u.props.names[i], pk->u.props.lens[i]);
        if (prev == SCHEMA_NONE) op->first = k;
        else op->tab.names[prev].next = k;
        prev = k;
        op->tab.names[k].declared = 1;
        const struct schema_node *c = s->nodes.items[pk->u.props.nodes[i]];
        if (!always_valid(c)) op->tab.names[k].node = pk->u.props.nodes[i];
    }
    /* the sentinel, after the names: "next" of the last declared one, a length no key
     * has (a member then needs no test of whether a name is expected) */
    size_t end = op->tab.n;
    if (end == cap)
        op->tab.names = xrealloc(op->tab.names, (cap = end + 1) * sizeof *op->tab.names);
    op->tab.names[end] =
        (struct schema_pname){"", SIZE_MAX, SCHEMA_NONE, 0, 0, SCHEMA_NONE, NULL, 0};
    for (i = 0; i < end; i++)
        if (op->tab.names[i].next == SCHEMA_NONE) op->tab.names[i].next = end;
    if (op->first == SCHEMA_NONE) op->first = end;
    op->add = ak ? ak->u.addprops.node : SCHEMA_NONE;
    op->add_false = ak && s->nodes.items[op->add]->boolean == 0;
    if (ak && always_valid(s->nodes.items[op->add])) op->add = SCHEMA_NONE;
    ptab_index(&op->tab);
    return op;
}

static void objop_free(struct schema_objop *op)
{
    free(op->tab.names);
    free(op->tab.slots);
    free(op);
}

/* Nothing to check: no required name, no subschema to apply, nothing forbidden. */
static int objop_trivial(const struct schema_objop *op)
{
    if (op->reqmask || op->add != SCHEMA_NONE || op->add_false) return 0;
    for (size_t i = 0; i < op->tab.n; i++)
        if (op->tab.names[i].node != SCHEMA_NONE) return 0;
    return 1;
}

/* Each required name gets a bit of a 64-bit mask (the array length bounds the names). */
static int required_fits_mask(const struct schema_kw *rk)
{
    return json_array_size(rk->u.value) <= 64;
}

static int all_strings(json_t *arr)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (!json_is_string(v)) return 0;
    return json_array_size(arr) > 0;
}

static void set_strs(struct schema_kw *k, json_t *arr)
{
    size_t n = json_array_size(arr), i;
    json_t *v;
    k->u.strs.n = n;
    k->u.strs.s = xmalloc((n ? n : 1) * sizeof *k->u.strs.s);
    k->u.strs.len = xmalloc((n ? n : 1) * sizeof *k->u.strs.len);
    json_array_foreach(arr, i, v)
    {
        k->u.strs.s[i] = json_string_value(v);
        k->u.strs.len[i] = json_string_length(v);
    }
}

/* Give N a boolean program (fkws) when some keyword has a specialised form; otherwise
 * the full program serves both modes. */
static void build_node(const schema *s, struct schema_node *n)
{
    const struct schema_kw *pp = find_kw(n, SK_PATTERNPROPS), *rk = find_kw(n, SK_REQUIRED);
    int fuse = !pp && (find_kw(n, SK_PROPERTIES) || find_kw(n, SK_ADDPROPS));
    int fuse_req = fuse && rk && required_fits_mask(rk);
    int changed = fuse || rk;
    for (size_t i = 0; i < n->nkw && !changed; i++)
        changed = (n->kws[i].kind == SK_ENUM && all_strings(n->kws[i].u.value)) ||
            (n->kws[i].kind == SK_CONST && json_is_string(n->kws[i].u.value));
    if (!changed) return;
    struct schema_kw *f = xcalloc(n->nkw, sizeof *f);
    size_t m = 0;
    int placed = 0;
    for (size_t i = 0; i < n->nkw; i++) {
        const struct schema_kw *k = &n->kws[i];
        int objkw = k->kind == SK_PROPERTIES || k->kind == SK_ADDPROPS ||
            (k->kind == SK_REQUIRED && fuse_req);
        if (fuse && objkw) {
            if (placed++) continue;
            struct schema_objop *op = build_objop(s, n, fuse_req);
            if (objop_trivial(op)) { /* e.g. "properties": {} or only always-valid ones */
                objop_free(op);
                continue;
            }
            f[m] = (struct schema_kw){.kind = SK_OBJECT, .name = k->name};
            f[m++].u.obj = op;
        } else if (k->kind == SK_REQUIRED) {
            f[m] = (struct schema_kw){.kind = SK_REQNAMES, .name = k->name};
            set_strs(&f[m++], k->u.value);
        } else if (k->kind == SK_ENUM && all_strings(k->u.value)) {
            f[m] = (struct schema_kw){.kind = SK_ENUMSTR, .name = k->name};
            set_strs(&f[m++], k->u.value);
        } else if (k->kind == SK_CONST && json_is_string(k->u.value)) {
            json_t *one = json_pack("[O]", k->u.value);
            f[m] = (struct schema_kw){.kind = SK_ENUMSTR, .name = k->name};
            set_strs(&f[m++], one); /* the strings stay owned by the schema document */
            json_decref(one);
        } else {
            f[m++] = *k; /* shares the full program's data */
        }
    }
    n->fkws = f;
    n->nfkw = m;
}

static int is_dynamic(const struct schema_node *n)
{
    for (size_t i = 0; i < n->nkw; i++)
        if ((n->kws[i].kind == SK_DYNREF && n->kws[i].u.ref.anchor) || n->kws[i].kind == SK_RECREF)
            return 1;
    return 0;
}

/* A table of the strings up to 8 bytes of enum K in which each has a slot of its own
 * (the first of some odd multipliers that gives one, in up to 8 slots a string): a
 * lookup then compares one slot. Left NULL when there are none, more than 32, or no
 * multiplier tried places them all apart: STRKEYS are compared in turn then. */
static void build_strtab(struct schema_fnode *f, const struct schema_kw *k)
{
    size_t n = 0;
    for (size_t j = 0; j < k->u.strs.n; j++) n += k->u.strs.len[j] <= 8;
    if (n == 0 || n > 32) return;
    unsigned bits = 1;
    while ((1u << bits) < 2 * n) bits++;
    uint64_t mul = 0x9E3779B97F4A7C15ull;
    for (unsigned top = bits + 2; bits <= top; bits++) {
        size_t size = (size_t)1 << bits;
        struct schema_strslot *tab = xmalloc(size * sizeof *tab);
        for (int attempt = 0; attempt < 64; attempt++) {
            mul = (mul ^ mul >> 29) * 0xBF58476D1CE4E5B9ull | 1; /* the next odd multiplier */
            for (size_t i = 0; i < size; i++) tab[i].len = SIZE_MAX, tab[i].key = 0;
            size_t j = 0;
            for (; j < k->u.strs.n; j++) {
                size_t len = k->u.strs.len[j];
                if (len > 8) continue;
                struct schema_strslot *e =
                    &tab[schema_strtab_slot(mul, 64 - bits, f->strkeys[j], len)];
                if (e->len != SIZE_MAX && (e->len != len || e->key != f->strkeys[j]))
                    break; /* two strings in one slot (the same string twice is one) */
                e->len = len;
                e->key = f->strkeys[j];
            }
            if (j == k->u.strs.n) {
                f->strtab = tab;
                f->strmul = mul;
                f->strshift = 64 - bits;
                return;
            }
        }
        free(tab);
    }
}

static void fnode_free(struct schema_fnode *f)
{
    if (!f) return;
    free(f->strkeys);
    free(f->strtab);
    free(f);
}

/* Fill F (zeroed) with N's boolean program: 0 when some keyword of it is not one the
 * record holds, or a kind comes twice. */
static int fnode_of(const struct schema_node *n, struct schema_fnode *f);

/* N's boolean program as one record (struct schema_fnode), or NULL. */
static struct schema_fnode *build_fnode(const struct schema_node *n)
{
    struct schema_fnode *f = xcalloc(1, sizeof *f);
    if (fnode_of(n, f)) return f;
    fnode_free(f);
    return NULL;
}

static int fnode_of(const struct schema_node *n, struct schema_fnode *f)
{
    f->maxlen = f->maxitems = f->maxprops = SIZE_MAX;
    uint64_t kinds = 0;
    for (size_t i = 0; i < n->nprog; i++) {
        const struct schema_kw *k = &n->prog[i];
        if (k->kind >= 64 || (kinds >> k->kind & 1)) return 0;
        kinds |= 1ull << k->kind;
        switch (k->kind) {
        case SK_REF:
            if (i != 0) return 0; /* checked first */
            f->has |= SF_REF;
            f->ref = k->u.ref.node;
            break;
        case SK_TYPE:
            f->has |= SF_TYPE;
            f->types = k->u.types;
            break;
        case SK_ENUMSTR:
            f->has |= SF_STRS;
            f->strs = k;
            f->strkeys = xmalloc((k->u.strs.n ? k->u.strs.n : 1) * sizeof *f->strkeys);
            for (size_t j = 0; j < k->u.strs.n; j++)
                f->strkeys[j] =
                    k->u.strs.len[j] <= 8 ? schema_short_key(k->u.strs.s[j], k->u.strs.len[j]) : 0;
            build_strtab(f, k);
            break;
        case SK_MAXIMUM:
        case SK_EXMAXIMUM:
        case SK_MINIMUM:
        case SK_EXMINIMUM: {
            struct schema_fbound *b = &f->bound[f->nbound++];
            b->kind = k->kind;
            b->v = k->u.value;
            b->is_int = json_is_integer(k->u.value);
            b->i = b->is_int ? json_integer_value(k->u.value) : 0;
            f->has |= SF_NUM;
            break;
        }
        case SK_MAXLENGTH:
            f->has |= SF_MAXLEN;
            f->maxlen = k->u.count;
            break;
        case SK_MINLENGTH:
            f->has |= SF_MINLEN;
            f->minlen = k->u.count;
            break;
        case SK_PATTERN:
            f->has |= SF_PATTERN;
            f->re = k->u.re;
            break;
        case SK_MAXITEMS:
            f->has |= SF_MAXITEMS;
            f->maxitems = k->u.count;
            break;
        case SK_MINITEMS:
            f->has |= SF_MINITEMS;
            f->minitems = k->u.count;
            break;
        case SK_ITEMS:
            f->has |= SF_ITEMS;
            f->items = k->u.items.node;
            f->items_start = k->u.items.start;
            break;
        case SK_MAXPROPS:
            f->has |= SF_MAXPROPS;
            f->maxprops = k->u.count;
            break;
        case SK_MINPROPS:
            f->has |= SF_MINPROPS;
            f->minprops = k->u.count;
            break;
        case SK_REQNAMES:
            f->has |= SF_REQ;
            f->req = k;
            break;
        case SK_OBJECT:
            f->has |= SF_OBJ;
            f->obj = k->u.obj;
            break;
        default: return 0;
        }
    }
    /* The record runs a type's keywords in this order: the program's must agree (a
     * keyword that can stop a validation stays after the checks before it). */
    static const enum schema_kwk order[] = {
        SK_REF,       SK_TYPE,      SK_ENUMSTR,   SK_MAXIMUM,  SK_EXMAXIMUM, SK_MINIMUM,
        SK_EXMINIMUM, SK_MAXLENGTH, SK_MINLENGTH, SK_MAXITEMS, SK_MINITEMS,  SK_MAXPROPS,
        SK_MINPROPS,  SK_PATTERN,   SK_REQNAMES,  SK_OBJECT,   SK_ITEMS};
    size_t o = 0;
    for (size_t i = 0; i < n->nprog; i++) {
        while (o < sizeof order / sizeof *order && order[o] != n->prog[i].kind) o++;
        if (o == sizeof order / sizeof *order) return 0;
    }
    f->int_range = 1; /* the bounds as one closed range of integers */
    f->lo = JINT_MIN;
    f->hi = JINT_MAX;
    for (size_t i = 0; i < f->nbound; i++) {
        const struct schema_fbound *b = &f->bound[i];
        if (!b->is_int || (b->kind == SK_EXMAXIMUM && b->i == JINT_MIN) ||
            (b->kind == SK_EXMINIMUM && b->i == JINT_MAX)) {
            f->int_range = 0; /* compared one by one */
            continue;
        }
        json_int_t hi = b->kind == SK_MAXIMUM ? b->i
            : b->kind == SK_EXMAXIMUM         ? b->i - 1
                                              : JINT_MAX;
        json_int_t lo = b->kind == SK_MINIMUM ? b->i
            : b->kind == SK_EXMINIMUM         ? b->i + 1
                                              : JINT_MIN;
        if (hi < f->hi) f->hi = hi;
        if (lo > f->lo) f->lo = lo;
    }
    f->node = n;
    f->leaf = !(f->has & (SF_REF | SF_OBJ | SF_ITEMS));
    f->jtypes = ~0u;
    if (f->has & SF_TYPE) { /* the seven type names (bits of schema_kw.u.types) */
        f->jtypes = (f->types & 1 ? 1u << JSON_NULL : 0) |
            (f->types & 2 ? 1u << JSON_TRUE | 1u << JSON_FALSE : 0) |
            (f->types & 4 ? 1u << JSON_OBJECT : 0) | (f->types & 8 ? 1u << JSON_ARRAY : 0) |
            (f->types & 16 ? 1u << JSON_INTEGER | 1u << JSON_REAL : 0) |
            (f->types & 32 ? 1u << JSON_STRING : 0) | (f->types & 64 ? 1u << JSON_INTEGER : 0);
        f->real_int = (f->types & 64) && !(f->types & 16);
    }
    if (f->has & SF_STRS) { /* only a string can be one of the strings */
        f->jtypes &= 1u << JSON_STRING;
        f->real_int = 0;
    }
    f->jchecks = (f->has & (SF_STRS | SF_MAXLEN | SF_MINLEN | SF_PATTERN) ? 1u << JSON_STRING : 0) |
        (f->has & SF_NUM ? 1u << JSON_INTEGER | 1u << JSON_REAL : 0) |
        (f->has & (SF_MAXPROPS | SF_MINPROPS | SF_REQ) ? 1u << JSON_OBJECT : 0) |
        (f->has & (SF_MAXITEMS | SF_MINITEMS) ? 1u << JSON_ARRAY : 0);
    for (unsigned t = 0; t < 8; t++) {
        static const uint8_t checks[8] = {[JSON_STRING] = SJA_STRING,
                                          [JSON_INTEGER] = SJA_NUMBER,
                                          [JSON_REAL] = SJA_NUMBER,
                                          [JSON_OBJECT] = SJA_OBJECT,
                                          [JSON_ARRAY] = SJA_ARRAY};
        if (f->jtypes >> t & 1)
            f->jact[t] = f->jchecks >> t & 1 && checks[t] ? checks[t] : SJA_PASS;
        else f->jact[t] = t == JSON_REAL && f->real_int ? SJA_REAL_INT : SJA_FAIL;
    }
    f->obj_loop_only = (f->has & SF_OBJ) && !(f->has & SF_REF) && (f->jtypes >> JSON_OBJECT & 1) &&
        !(f->jchecks >> JSON_OBJECT & 1);
    return 1;
}

void schema_fast_build(schema *s)
{
    s->mdcache = xcalloc(1, sizeof *s->mdcache);
    atomic_init(&s->mdcache->md, NULL);
    for (size_t i = 0; i < s->nodes.len; i++) {
        struct schema_node *n = s->nodes.items[i];
        if (n->boolean >= 0) continue;
        s->dynamic |= is_dynamic(n);
        build_node(s, n);
    }
    for (size_t i = 0; i < s->nodes.len; i++) {
        struct schema_node *n = s->nodes.items[i];
        n->slow = n->has_uneval;
        n->prog = n->fkws ? n->fkws : n->kws;
        n->nprog = n->fkws ? n->nfkw : n->nkw;
        if (n->boolean < 0 && !n->slow) n->fn = build_fnode(n);
    }
    for (size_t i = 0; i < s->nodes.len; i++) { /* the object ops' leaf members */
        struct schema_node *n = s->nodes.items[i];
        for (size_t k = 0; k < n->nfkw; k++) {
            if (n->fkws[k].kind != SK_OBJECT) continue;
            struct schema_ptab *t = &n->fkws[k].u.obj->tab;
            for (size_t j = 0; j < t->n; j++) {
                const struct schema_fnode *f =
                    t->names[j].node == SCHEMA_NONE ? NULL : s->nodes.items[t->names[j].node]->fn;
                t->names[j].leaf = f && f->leaf ? f : NULL;
            }
        }
    }
}

void schema_fast_free(struct schema_node *n)
{
    for (size_t i = 0; i < n->nfkw; i++) {
        struct schema_kw *k = &n->fkws[i];
        if (k->kind == SK_OBJECT) {
            objop_free(k->u.obj);
        } else if (k->kind == SK_ENUMSTR || k->kind == SK_REQNAMES) {
            free(k->u.strs.s);
            free(k->u.strs.len);
        }
    }
    fnode_free((struct schema_fnode *)n->fn);
    n->fn = NULL;
    free(n->fkws);
    n->fkws = NULL;
    n->nfkw = 0;
}

void schema_fast_release(schema *s)
{
    if (!s->mdcache) return;
    pcre2_match_data_free(atomic_load(&s->mdcache->md));
    free(s->mdcache);
    s->mdcache = NULL;
}

pcre2_match_data *schema_md_take(const schema *s)
{
    pcre2_match_data *md = s->mdcache ? atomic_exchange(&s->mdcache->md, NULL) : NULL;
    return md ? md : pcre2_match_data_create(1, NULL);
}

void schema_md_give(const schema *s, pcre2_match_data *md)
{
    if (!md) return;
    pcre2_match_data *none = NULL;
    if (!s->mdcache || !atomic_compare_exchange_strong(&s->mdcache->md, &none, md))
        pcre2_match_data_free(md);
}
