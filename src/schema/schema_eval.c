/* schema_eval.c - validation of an instance against a compiled schema: keyword
 * dispatch, annotation collection for unevaluated*, the dynamic scope for
 * $dynamicRef/$recursiveRef, the per-validation bounds (work, depth, regex), and the
 * boolean fast path (eval_fast: specialised programs or their records, first failure
 * stops; a leaf record evaluated in place by the member and item loops). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/ptr.h"
#include "schema/schemaInt.h"

struct ann {
    VEC(const char *) props;
    int all_props;
    size_t prefix;
    int all_items;
    VEC(size_t) idx;
};

/* The boolean verdicts on shared values. A value substituted for many $componentRef
 * sites (or a YAML alias) is one json_t under many parents, so a reference bomb of 40
 * lines is a tree of a million nodes; judged at every place it takes exponential time.
 * A verdict of node NID on such a value depends on nothing else but the dynamic scope
 * ($dynamicRef and $recursiveRef take the outermost resource that has the anchor, so
 * only the scope's distinct resources in order of first appearance matter: SEQ, an
 * interned id) and the bounds. So the boolean run (no error list) keeps each verdict
 * with the work it charged and the nesting it reached: a later place charges the same
 * work, and uses the verdict only when the bounds could not have stopped it there
 * (else it evaluates again). The outcome, work and aborts are those of a full walk. */
struct memo_ent {
    json_t *inst; /* NULL: free slot */
    size_t nid;
    uint32_t seq;
    int ok;
    uint64_t work;  /* units charged by the evaluation */
    uint32_t depth; /* deepest nesting it reached, above its start */
    /* what it left in the vst's "properties saw every member" note, when it wrote it
     * (the note saves work, so a later place leaves it as the evaluation would) */
    int wrote_seen;
    const struct schema_node *seen_node;
    json_t *seen_inst;
    size_t seen_count;
};

struct memo {
    struct memo_ent *slot; /* open addressing */
    size_t cap, len;
    uint32_t *inscope;    /* per resource: occurrences in the dynamic scope */
    VEC(uint32_t) firsts; /* SEQ of each prefix of the first appearances */
    VEC(uint64_t) seqs;   /* interned SEQs: (parent SEQ << 32 | resource), id = index + 1 */
    uint32_t peak;        /* deepest st->depth so far (for the depth of an entry) */
};

_Atomic unsigned long schema_eval_shared_evals;

struct vst {
    const schema *s;
    struct schema_errors *errs;
    int quiet;
    int summarizing; /* inside branch_summary: no nested summaries (bounded cost) */
    /* set by "properties" when it saw every member: lets "additionalProperties" of the
     * same node and instance skip its lookups when all members were declared */
    const struct schema_node *seen_node;
    json_t *seen_inst;
    size_t seen_count;
    uint64_t seen_writes;
    struct buf ip;
    VEC(size_t) scope;
    uint64_t work, max_work;
    uint32_t depth, max_depth;
    int dynamic; /* the schema's: the dynamic scope is tracked */
    int aborted;
    int no_leaf; /* dynamic or aborted: no leaf evaluated in place (eval_leaf) */
    int jd;      /* jansson's values read in place (schemaInt.h, schema_jansson_direct) */
    pcre2_match_data *md;
    struct memo memo;
    /* evaluations on shared values, added to schema_eval_shared_evals once at the end:
     * not an atomic add on a line two threads share at every node */
    unsigned long shared_evals;
};

#define TRACK(st) ((st)->errs && !(st)->quiet && !schema_errors_full((st)->errs))

static void ann_release(struct ann *a)
{
    VEC_FREE(a->props);
    VEC_FREE(a->idx);
    a->all_props = a->all_items = 0;
    a->prefix = 0;
}

static void ann_merge(struct ann *to, const struct ann *from)
{
    for (size_t i = 0; i < from->props.len; i++) VEC_PUSH(to->props, from->props.items[i]);
    for (size_t i = 0; i < from->idx.len; i++) VEC_PUSH(to->idx, from->idx.items[i]);
    to->all_props |= from->all_props;
    to->all_items |= from->all_items;
    if (from->prefix > to->prefix) to->prefix = from->prefix;
}

static int ann_has_prop(const struct ann *a, const char *k)
{
    if (a->all_props) return 1;
    for (size_t i = 0; i < a->props.len; i++)
        if (!strcmp(a->props.items[i], k)) return 1;
    return 0;
}

static int ann_has_item(const struct ann *a, size_t i)
{
    if (a->all_items || i < a->prefix) return 1;
    for (size_t k = 0; k < a->idx.len; k++)
        if (a->idx.items[k] == i) return 1;
    return 0;
}

/* A JSON string's value escaped for a message (new). */
static char *escape_str(json_t *v)
{
    return schema_escape(json_string_value(v), json_string_length(v));
}

static void report(struct vst *st, const struct schema_node *n, const char *kw, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
static void report(struct vst *st, const struct schema_node *n, const char *kw, const char *fmt,
                   ...)
{
    if (!TRACK(st)) return;
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    char *kwl = schema_kwloc(st->s, n, kw, NULL);
    schema_errors_add(st->errs, kwl, buf_str(&st->ip), "%s", msg);
    free(kwl);
    free(msg);
}

/* Report 'WHAT "KEY" is not allowed' at member KEY (KLEN bytes; shown escaped). */
static void report_at_key(struct vst *st, const struct schema_node *n, const char *kw,
                          const char *key, size_t klen, const char *what)
{
    if (!TRACK(st)) return;
    char *e = schema_escape(key, klen);
    char *msg = xasprintf("%s \"%s\" is not allowed", what, e);
    free(e);
    size_t mark = st->ip.len;
    ptr_append_segment(&st->ip, key, klen);
    char *kwl = schema_kwloc(st->s, n, kw, NULL);
    schema_errors_add(st->errs, kwl, buf_str(&st->ip), "%s", msg);
    buf_truncate(&st->ip, mark);
    free(kwl);
    free(msg);
}

static void abort_bound(struct vst *st, const struct schema_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void abort_bound(struct vst *st, const struct schema_node *n, const char *fmt, ...)
{
    if (st->aborted) return;
    st->aborted = 1;
    st->no_leaf = 1;
    if (!st->errs) return;
    va_list ap;
    va_start(ap, fmt);
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    char *kwl = schema_kwloc(st->s, n, NULL, NULL);
    schema_errors_add(st->errs, kwl, buf_str(&st->ip), "%s", msg);
    free(kwl);
    free(msg);
}

static int charge(struct vst *st, const struct schema_node *n, uint64_t units)
{
    st->work += units;
    if (st->work > st->s->lim.max_work) {
        abort_bound(st, n, "validation stopped: work budget max_work=%" PRIu64 " exceeded",
                    (uint64_t)st->s->lim.max_work);
        return 0;
    }
    return 1;
}

static int eval(struct vst *st, size_t nid, json_t *inst, struct ann *ann);
static int eval_fast(struct vst *st, size_t nid, json_t *inst);
static int eval_record(struct vst *st, const struct schema_fnode *f, json_t *v);
static int object_in_place(struct vst *st, const struct schema_objop *op, json_t *inst);
static int object_by_api(struct vst *st, const struct schema_objop *op, json_t *inst);

/* Evaluate a subschema in place (same instance location), merging its annotations. */
static int eval_here(struct vst *st, size_t nid, json_t *inst, struct ann *a)
{
    if (!a) return eval(st, nid, inst, NULL);
    struct ann ca;
    memset(&ca, 0, sizeof ca);
    int r = eval(st, nid, inst, &ca);
    if (r) ann_merge(a, &ca);
    ann_release(&ca);
    return r;
}

static int eval_key(struct vst *st, size_t nid, json_t *v, const char *key, size_t klen)
{
    if (!TRACK(st)) return eval(st, nid, v, NULL);
    size_t mark = st->ip.len;
    ptr_append_segment(&st->ip, key, klen);
    int r = eval(st, nid, v, NULL);
    buf_truncate(&st->ip, mark);
    return r;
}

static int eval_index(struct vst *st, size_t nid, json_t *v, size_t i)
{
    if (!TRACK(st)) return eval(st, nid, v, NULL);
    size_t mark = st->ip.len;
    ptr_append_index(&st->ip, i);
    int r = eval(st, nid, v, NULL);
    buf_truncate(&st->ip, mark);
    return r;
}

/* Returns 1 match, 0 no match, -1 bound hit (aborted). */
static int re_match(struct vst *st, const struct schema_node *n, const struct schema_re *re,
                    const char *s, size_t len)
{
    if (!charge(st, n, 1 + len / 64)) return -1;
    if (!re->code) return 1; /* valid ECMA-262 that PCRE2 cannot run: never a failure */
    if (re->lin && schema_relin_usable(re->lin, len, &st->s->lim))
        return schema_relin_match(re->lin, s, len);
    if (!st->md) st->md = schema_md_take(st->s);
    /* pcre2_jit_match: the JIT fast path (no option checks; the match limit holds) */
    int rc = re->jit
        ? pcre2_jit_match(re->code, (PCRE2_SPTR)s, len, 0, 0, st->md, st->s->mctx)
        : pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, PCRE2_NO_UTF_CHECK, st->md, st->s->mctx);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* the interpreter has its own bounds */
        rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, st->md,
                         st->s->mctx);
    if (rc >= 0) return 1;
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc == PCRE2_ERROR_MATCHLIMIT)
        abort_bound(st, n, "validation stopped: pattern \"%s\" exceeded regex_match_limit=%u",
                    re->src, (unsigned)st->s->lim.regex_match_limit);
    else if (rc == PCRE2_ERROR_DEPTHLIMIT)
        abort_bound(st, n, "validation stopped: pattern \"%s\" exceeded regex_depth_limit=%u",
                    re->src, (unsigned)st->s->lim.regex_depth_limit);
    else {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(rc, msg, sizeof msg);
        abort_bound(st, n, "validation stopped: pattern \"%s\" failed: %s", re->src,
                    (const char *)msg);
    }
    return -1;
}

/* On an anyOf/oneOf with no passing alternative: re-run each alternative collecting its
 * first error, for a message that says why each one failed. New string. */
static char *branch_summary(struct vst *st, const struct schema_kw *k, json_t *inst)
{
    struct buf b = BUF_INIT;
    if (st->summarizing) return xstrdup("");
    st->summarizing++;
    struct schema_errors *saved = st->errs;
    for (size_t i = 0; i < k->u.list.n && !st->aborted && i < 8; i++) {
        struct schema_errors tmp = SCHEMA_ERRORS_INIT;
        st->errs = &tmp;
        size_t mark = st->ip.len;
        eval(st, k->u.list.nodes[i], inst, NULL);
        buf_truncate(&st->ip, mark);
        if (tmp.len) {
            buf_adds(&b, b.len ? "; " : ": ");
            buf_addf(&b, "%zu: ", i);
            if (tmp.items[0].instance_location[0] &&
                strcmp(tmp.items[0].instance_location, buf_str(&st->ip)))
                buf_addf(&b, "at \"%s\" ", tmp.items[0].instance_location);
            buf_adds(&b, tmp.items[0].message);
        }
        schema_errors_release(&tmp);
    }
    st->errs = saved;
    st->summarizing--;
    return b.s ? buf_detach(&b) : xstrdup("");
}

static inline __attribute__((always_inline)) int type_ok(unsigned mask, json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_NULL: return mask & 1;
    case JSON_TRUE:
    case JSON_FALSE: return mask & 2;
    case JSON_OBJECT: return mask & 4;
    case JSON_ARRAY: return mask & 8;
    case JSON_STRING: return mask & 32;
    case JSON_INTEGER: return mask & (16 | 64);
    case JSON_REAL: return (mask & 16) || ((mask & 64) && val_is_integer(v));
    }
    return 0;
}

static char *type_list(unsigned mask)
{
    static const char *const names[] = {"null",   "boolean", "object", "array",
                                        "number", "string",  "integer"};
    struct buf b = BUF_INIT;
    for (unsigned i = 0; i < 7; i++) {
        if (!(mask & (1u << i))) continue;
        if (b.len) buf_adds(&b, " or ");
        buf_adds(&b, names[i]);
    }
    return buf_detach(&b);
}

static char *dump(json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    if (!s) return xstrdup("?");
    if (strlen(s) > 100) {
        char *t = xasprintf("%.97s...", s);
        free(s);
        return t;
    }
    return s;
}

/* A hash consistent with val_equal (1 and 1.0 hash alike, key order ignored). */
static uint64_t value_hash(json_t *v)
{
    uint64_t h = 1469598103934665603ull;
    switch (json_typeof(v)) {
    case JSON_INTEGER:
    case JSON_REAL: {
        int64_t i;
        if (json_is_integer(v)) {
            i = json_integer_value(v);
        } else {
            double d = json_real_value(v);
            if (d == trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
                i = (int64_t)d;
            } else {
                memcpy(&i, &d, sizeof i);
                i ^= 0x5bd1e995;
            }
        }
        return ((uint64_t)i * 0x9E3779B97F4A7C15ull) ^ 0x1234;
    }
    case JSON_STRING: {
        const unsigned char *p = (const unsigned char *)json_string_value(v);
        for (size_t k = 0, n = json_string_length(v); k < n; k++) h = (h ^ p[k]) * 1099511628211ull;
        return h ^ 0x5555;
    }
    case JSON_ARRAY: {
        size_t k;
        json_t *x;
        json_array_foreach(v, k, x) h = (h ^ value_hash(x)) * 1099511628211ull;
        return h ^ 0xAAAA;
    }
    case JSON_OBJECT: {
        const char *key;
        json_t *x;
        uint64_t sum = 0;
        json_object_foreach(v, key, x)
        {
            uint64_t kh = 1469598103934665603ull;
            for (const unsigned char *p = (const unsigned char *)key; *p; p++)
                kh = (kh ^ *p) * 1099511628211ull;
            sum += (kh ^ value_hash(x)) * 0x9E3779B97F4A7C15ull;
        }
        return sum ^ 0x7777;
    }
    case JSON_TRUE: return 1;
    case JSON_FALSE: return 2;
    default: return 3;
    }
}

struct hashed {
    uint64_t h;
    size_t i;
};

static int cmp_hashed(const void *a, const void *b)
{
    const struct hashed *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* A record's string keywords: the enum, the lengths, then the pattern. */
static inline __attribute__((always_inline)) int fnode_string(struct vst *st,
                                                              const struct schema_node *n,
                                                              const struct schema_fnode *f,
                                                              json_t *inst, int jd)
{
    size_t bytes = schema_jstring_length(inst, jd);
    const char *str = schema_jstring_value(inst, jd);
    if (f->has & SF_STRS) {
        const size_t *lens = f->strs->u.strs.len, n_strs = f->strs->u.strs.n;
        size_t i = 0;
        if (bytes <= 8 && f->strtab) { /* the one slot it can be in */
            uint64_t key = schema_short_key(str, bytes);
            const struct schema_strslot *e =
                &f->strtab[schema_strtab_slot(f->strmul, f->strshift, key, bytes)];
            if (e->len != bytes || e->key != key) return 0;
            i = 0;               /* found (the enum has strings: i < n_strs) */
        } else if (bytes <= 8) { /* one word against each string of that length */
            uint64_t key = schema_short_key(str, bytes);
            while (i < n_strs && !(lens[i] == bytes && f->strkeys[i] == key)) i++;
        } else {
            while (i < n_strs &&
                   !(lens[i] == bytes && schema_bytes_eq(f->strs->u.strs.s[i], str, bytes)))
                i++;
        }
        if (i == n_strs) return 0;
    }
    /* code points <= bytes: a short string passes maxLength, fails minLength */
    if (bytes > f->maxlen && val_utf8_length(str, bytes) > f->maxlen) return 0;
    if (f->has & SF_MINLEN) { /* code points counted until there are enough */
        if (bytes < f->minlen) return 0;
        size_t cps = 0;
        for (size_t i = 0; i < bytes && cps < f->minlen; i++)
            cps += ((unsigned char)str[i] & 0xC0) != 0x80; /* not a continuation byte */
        if (cps < f->minlen) return 0;
    }
    return !(f->has & SF_PATTERN) || re_match(st, n, f->re, str, bytes) > 0;
}

/* A record's numeric bounds (INST is a number): int64 against int64 when both are. */
static inline __attribute__((always_inline)) int fnode_bounds(const struct schema_fnode *f,
                                                              json_t *inst, int jd)
{
    int isint = json_is_integer(inst);
    json_int_t x = isint ? schema_jinteger_value(inst, jd) : 0;
    if (isint && f->int_range) return x >= f->lo && x <= f->hi;
    for (size_t i = 0; i < f->nbound; i++) {
        const struct schema_fbound *b = &f->bound[i];
        int c = isint && b->is_int ? (x < b->i ? -1 : x > b->i) : val_num_cmp(inst, b->v);
        int ok = b->kind == SK_MAXIMUM ? c <= 0
            : b->kind == SK_EXMAXIMUM  ? c < 0
            : b->kind == SK_MINIMUM    ? c >= 0
                                       : c > 0;
        if (!ok) return 0;
    }
    return 1;
}

/* A record's keywords but $ref and the subschemas of members and items: "type" and a
 * string enum by the type of INST, then the checks of that type (f->jact), in the
 * program's order (the pattern is a string's last). */
static inline __attribute__((always_inline)) int fnode_checks(struct vst *st,
                                                              const struct schema_node *n,
                                                              const struct schema_fnode *f,
                                                              json_t *inst, int jd)
{
    switch (f->jact[json_typeof(inst)]) {
    case SJA_PASS: return 1;
    case SJA_STRING: return fnode_string(st, n, f, inst, jd);
    case SJA_NUMBER: return fnode_bounds(f, inst, jd);
    case SJA_REAL_INT:
        return val_is_integer(inst) &&
            (!(f->jchecks >> JSON_REAL & 1) || fnode_bounds(f, inst, jd));
    case SJA_OBJECT: {
        size_t np = schema_jobject_size(inst, jd);
        if (np > f->maxprops || np < f->minprops) return 0;
        if (f->has & SF_REQ)
            for (size_t i = 0; i < f->req->u.strs.n; i++)
                if (!json_object_getn(inst, f->req->u.strs.s[i], f->req->u.strs.len[i])) return 0;
        return 1;
    }
    case SJA_ARRAY: {
        size_t len = schema_jarray_size(inst, jd);
        return len <= f->maxitems && len >= f->minitems;
    }
    default: return 0;
    }
}

/* eval_fast of node CID, whose record F is a leaf (no $ref, no subschema), in place: the
 * same work, nesting and count of shared evaluations, without the calls. A bound
 * within reach, a dynamic scope or a shared object or array go the long way. The
 * nesting it reaches (one below st->depth) is noted in st->memo.peak, or when LEAFED is
 * not NULL, *LEAFED is set for the caller to note it once for many leaves. */
static inline __attribute__((always_inline)) int eval_leaf_here(struct vst *st, size_t cid,
                                                                const struct schema_fnode *f,
                                                                json_t *v, int jd, int *leafed)
{
    /* the caller checked the nesting and no_leaf */
    if (st->work >= st->max_work) return eval_fast(st, cid, v);
    if (v->refcount > 1) {
        if (json_is_object(v) || json_is_array(v)) return eval_fast(st, cid, v);
        st->shared_evals++;
    }
    st->work++;
    if (leafed) *leafed = 1;
    else if (st->depth + 1 > st->memo.peak) st->memo.peak = st->depth + 1;
    return fnode_checks(st, f->node, f, v, jd) && !st->aborted;
}

static inline __attribute__((always_inline)) int
eval_leaf(struct vst *st, size_t cid, const struct schema_fnode *f, json_t *v, int jd)
{
    if (st->depth >= st->max_depth || st->no_leaf) return eval_fast(st, cid, v);
    return eval_leaf_here(st, cid, f, v, jd, NULL);
}

/* eval_record of F on V; an object whose record leaves only the member loop to run
 * goes straight to it. */
static inline __attribute__((always_inline)) int
eval_record_of(struct vst *st, const struct schema_fnode *f, json_t *v, int jd)
{
    if (f->obj_loop_only && json_is_object(v))
        return jd ? object_in_place(st, f->obj, v) : object_by_api(st, f->obj, v);
    return eval_record(st, f, v);
}

/* eval_fast of node CID on V: in place when its record is a leaf; else its record one
 * level down (only a $ref: its target), as eval_fast would, without its other tests. */
static inline __attribute__((always_inline)) int eval_child(struct vst *st, size_t cid, json_t *v,
                                                            int jd)
{
    const struct schema_fnode *f = st->s->nodes.items[cid]->fn;
    if (f && f->leaf) return eval_leaf(st, cid, f, v, jd);
    if (!f || st->depth >= st->max_depth || st->work >= st->max_work || st->no_leaf ||
        (v->refcount > 1 && (json_is_object(v) || json_is_array(v))))
        return eval_fast(st, cid, v);
    st->work++;
    if (v->refcount > 1) st->shared_evals++;
    if (++st->depth > st->memo.peak) st->memo.peak = st->depth;
    int ok;
    if (f->has != SF_REF) {
        ok = eval_record_of(st, f, v, jd);
    } else if ((f = st->s->nodes.items[f->ref]->fn) && st->depth < st->max_depth &&
               st->work < st->max_work) { /* the target's record, as eval_fast would */
        st->work++;
        if (v->refcount > 1) st->shared_evals++;
        if (++st->depth > st->memo.peak) st->memo.peak = st->depth;
        ok = eval_record_of(st, f, v, jd) && !st->aborted;
        st->depth--;
    } else {
        ok = eval_fast(st, st->s->nodes.items[cid]->fn->ref, v);
    }
    st->depth--;
    return ok && !st->aborted;
}

/* Boolean form of properties + required + additionalProperties: one pass over the
 * members against the precomputed name table; stops at the first failure. Only in
 * boolean mode, so children go straight to eval_fast. Written once for both ways of
 * reading INST (JD a constant in each copy, see object_fast). */
static inline __attribute__((always_inline)) int
object_members(struct vst *st, const struct schema_objop *op, json_t *inst, int jd, int *leafed)
{
    const struct schema_ptab *t = &op->tab;
    if (op->add == SCHEMA_NONE && !op->add_false &&
        schema_jobject_size(inst, jd) > 4 * t->n + 8) { /* few names, many members: look up */
        for (size_t i = 0; i < t->n; i++) {
            json_t *v = json_object_getn(inst, t->names[i].name, t->names[i].len);
            if (!v) {
                if (t->names[i].required) return 0;
            } else if (t->names[i].node != SCHEMA_NONE &&
                       !eval_child(st, t->names[i].node, v, jd)) {
                return 0;
            }
        }
        return 1;
    }
    uint64_t seen = 0;
    size_t guess = op->first; /* the name expected next, when members follow "properties" */
    /* what a leaf member checks that this loop cannot change: the nesting (members come
     * back to it) and no_leaf (set by an abort, which ends the loop) */
    int leaves = !st->no_leaf && st->depth < st->max_depth;
    for (void *it = schema_jiter(inst, jd), *next; it; it = next) {
        /* members are separate allocations: start loading the next one early */
        next = schema_jiter_next(inst, it, jd);
        if (next) __builtin_prefetch(next);
        const char *key = schema_jiter_key(it, jd);
        json_t *v = schema_jiter_value(it, jd);
        __builtin_prefetch(v);
        size_t klen = schema_jiter_key_len(it, jd), i;
        if (t->names[guess].len == klen && schema_bytes_eq(t->names[guess].name, key, klen))
            i = guess;
        else i = schema_ptab_find(t, key, klen);
        if (i != SCHEMA_NONE) {
            const struct schema_pname *pn = &t->names[i];
            guess = pn->next;
            seen |= pn->reqbit;
            size_t c = pn->node;
            if (c != SCHEMA_NONE &&
                !(pn->leaf && leaves ? eval_leaf_here(st, c, pn->leaf, v, jd, leafed)
                                     : eval_child(st, c, v, jd)))
                return 0;
            if (pn->declared) continue;
        }
        if (op->add_false) return 0;
        if (op->add != SCHEMA_NONE && !eval_child(st, op->add, v, jd)) return 0;
    }
    return (seen & op->reqmask) == op->reqmask;
}

/* object_members, the nesting of its leaves noted once: nothing in between reads it
 * (a shared value's memo keeps the larger of its own and what came before). */
static inline __attribute__((always_inline)) int
object_loop(struct vst *st, const struct schema_objop *op, json_t *inst, int jd)
{
    int leafed = 0;
    int ok = object_members(st, op, inst, jd, &leafed);
    if (leafed && st->depth + 1 > st->memo.peak) st->memo.peak = st->depth + 1;
    return ok;
}

static int object_in_place(struct vst *st, const struct schema_objop *op, json_t *inst)
{
    return object_loop(st, op, inst, 1);
}

static int object_by_api(struct vst *st, const struct schema_objop *op, json_t *inst)
{
    return object_loop(st, op, inst, 0);
}

static int object_fast(struct vst *st, const struct schema_objop *op, json_t *inst)
{
    if (!json_is_object(inst)) return 1;
    return st->jd ? object_in_place(st, op, inst) : object_by_api(st, op, inst);
}

/* Boolean form of an enum of strings. */
static int enum_fast(struct vst *st, const struct schema_node *n, const struct schema_kw *k,
                     json_t *inst)
{
    (void)st;
    (void)n;
    if (!json_is_string(inst)) return 0;
    const char *v = json_string_value(inst);
    size_t len = json_string_length(inst);
    for (size_t i = 0; i < k->u.strs.n; i++)
        if (k->u.strs.len[i] == len && schema_bytes_eq(k->u.strs.s[i], v, len)) return 1;
    return 0;
}

static int eval_kw(struct vst *st, const struct schema_node *n, const struct schema_kw *k,
                   json_t *inst, struct ann *a)
{
    switch (k->kind) {
    case SK_TYPE:
        if (type_ok(k->u.types, inst)) return 1;
        if (TRACK(st)) {
            char *t = type_list(k->u.types);
            report(st, n, k->name, "expected %s, got %s", t, val_type_name(inst));
            free(t);
        }
        return 0;
    case SK_ENUM: {
        size_t i;
        json_t *e;
        json_array_foreach(k->u.value, i, e) if (val_equal(inst, e)) return 1;
        if (TRACK(st)) {
            char *d = dump(k->u.value);
            report(st, n, k->name, "value is not one of %s", d);
            free(d);
        }
        return 0;
    }
    case SK_CONST:
        if (val_equal(inst, k->u.value)) return 1;
        if (TRACK(st)) {
            char *d = dump(k->u.value);
            report(st, n, k->name, "value must be %s", d);
            free(d);
        }
        return 0;
    case SK_MULTIPLEOF:
        if (!json_is_number(inst) || schema_multiple_of(inst, k->u.value)) return 1;
        if (TRACK(st)) {
            char *a1 = dump(inst), *b1 = dump(k->u.value);
            report(st, n, k->name, "%s is not a multiple of %s", a1, b1);
            free(a1);
            free(b1);
        }
        return 0;
    case SK_MAXIMUM:
    case SK_EXMAXIMUM:
    case SK_MINIMUM:
    case SK_EXMINIMUM: {
        if (!json_is_number(inst)) return 1;
        int c = val_num_cmp(inst, k->u.value);
        int ok = k->kind == SK_MAXIMUM ? c <= 0
            : k->kind == SK_EXMAXIMUM  ? c < 0
            : k->kind == SK_MINIMUM    ? c >= 0
                                       : c > 0;
        if (ok) return 1;
        if (TRACK(st)) {
            char *a1 = dump(inst), *b1 = dump(k->u.value);
            const char *what = k->kind == SK_MAXIMUM ? "greater than the maximum"
                : k->kind == SK_EXMAXIMUM            ? "not less than the exclusive maximum"
                : k->kind == SK_MINIMUM              ? "less than the minimum"
                                                     : "not greater than the exclusive minimum";
            report(st, n, k->name, "%s is %s %s", a1, what, b1);
            free(a1);
            free(b1);
        }
        return 0;
    }
    case SK_MAXLENGTH:
    case SK_MINLENGTH: {
        if (!json_is_string(inst)) return 1;
        size_t bytes = json_string_length(inst);
        /* code points <= bytes: a short string passes maxLength, fails minLength */
        if (k->kind == SK_MAXLENGTH && bytes <= k->u.count) return 1;
        if (k->kind == SK_MINLENGTH && bytes < k->u.count && !TRACK(st)) return 0;
        size_t len = val_utf8_length(json_string_value(inst), bytes);
        if (k->kind == SK_MAXLENGTH ? len <= k->u.count : len >= k->u.count) return 1;
        report(st, n, k->name, "string has %zu characters, %s %zu", len,
               k->kind == SK_MAXLENGTH ? "more than the maximum" : "fewer than the minimum",
               k->u.count);
        return 0;
    }
    case SK_PATTERN: {
        if (!json_is_string(inst)) return 1;
        int r = re_match(st, n, k->u.re, json_string_value(inst), json_string_length(inst));
        if (r > 0) return 1;
        if (r == 0) report(st, n, k->name, "string does not match pattern \"%s\"", k->u.re->src);
        return 0;
    }
    case SK_MAXITEMS:
    case SK_MINITEMS: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst);
        if (k->kind == SK_MAXITEMS ? len <= k->u.count : len >= k->u.count) return 1;
        report(st, n, k->name, "array has %zu items, %s %zu", len,
               k->kind == SK_MAXITEMS ? "more than the maximum" : "fewer than the minimum",
               k->u.count);
        return 0;
    }
    case SK_UNIQUE: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst);
        if (len < 2) return 1;
        /* hash every item (equal values hash alike), sort, compare within equal hashes */
        if (!charge(st, n, (uint64_t)len * 4)) return 0;
        struct hashed *h = xmalloc(len * sizeof *h);
        for (size_t i = 0; i < len; i++) {
            h[i].h = value_hash(json_array_get(inst, i));
            h[i].i = i;
        }
        qsort(h, len, sizeof *h, cmp_hashed);
        int ok = 1;
        size_t di = 0, dj = 0;
        for (size_t a1 = 0; a1 < len && ok; a1++) {
            for (size_t b1 = a1 + 1; b1 < len && h[b1].h == h[a1].h && ok; b1++) {
                if (!charge(st, n, 1)) {
                    free(h);
                    return 0;
                }
                if (val_equal(json_array_get(inst, h[a1].i), json_array_get(inst, h[b1].i))) {
                    ok = 0;
                    di = h[a1].i < h[b1].i ? h[a1].i : h[b1].i;
                    dj = h[a1].i < h[b1].i ? h[b1].i : h[a1].i;
                }
            }
        }
        free(h);
        if (!ok) report(st, n, k->name, "items %zu and %zu are equal", di, dj);
        return ok;
    }
    case SK_CONTAINS: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst), count = 0;
        st->quiet++;
        for (size_t i = 0; i < len && !st->aborted; i++) {
            if (eval(st, k->u.contains.node, json_array_get(inst, i), NULL)) {
                count++;
                if (a) VEC_PUSH(a->idx, i);
                else if (count >= k->u.contains.min && k->u.contains.max == SIZE_MAX) break;
            }
        }
        st->quiet--;
        if (count >= k->u.contains.min && count <= k->u.contains.max) return 1;
        if (count < k->u.contains.min)
            report(st, n, k->name, "array has %zu items matching \"contains\", fewer than %zu",
                   count, k->u.contains.min);
        else
            report(st, n, k->name, "array has %zu items matching \"contains\", more than %zu",
                   count, k->u.contains.max);
        return 0;
    }
    case SK_MAXPROPS:
    case SK_MINPROPS: {
        if (!json_is_object(inst)) return 1;
        size_t len = json_object_size(inst);
        if (k->kind == SK_MAXPROPS ? len <= k->u.count : len >= k->u.count) return 1;
        report(st, n, k->name, "object has %zu properties, %s %zu", len,
               k->kind == SK_MAXPROPS ? "more than the maximum" : "fewer than the minimum",
               k->u.count);
        return 0;
    }
    case SK_REQUIRED: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        size_t i;
        json_t *r;
        json_array_foreach(k->u.value, i, r)
        {
            /* by length: "a\u0000b" is not "a" */
            if (!json_object_getn(inst, json_string_value(r), json_string_length(r))) {
                char *e = escape_str(r);
                report(st, n, k->name, "required property \"%s\" is missing", e);
                free(e);
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        return ok;
    }
    case SK_DEPREQ: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        const char *key;
        size_t klen;
        json_t *list;
        json_object_keylen_foreach(k->u.value, key, klen, list)
        {
            if (!json_is_array(list) || !json_object_getn(inst, key, klen)) continue;
            size_t i;
            json_t *r;
            json_array_foreach(list, i, r)
            {
                if (json_is_string(r) &&
                    !json_object_getn(inst, json_string_value(r), json_string_length(r))) {
                    char *e = escape_str(r), *ek = schema_escape(key, klen);
                    report(st, n, k->name, "property \"%s\" is required when \"%s\" is present", e,
                           ek);
                    free(e);
                    free(ek);
                    ok = 0;
                }
            }
        }
        return ok;
    }
    case SK_DEPSCHEMAS: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        for (size_t i = 0; i < k->u.props.n && !st->aborted; i++) {
            if (!json_object_getn(inst, k->u.props.names[i], k->u.props.lens[i])) continue;
            if (!eval_here(st, k->u.props.nodes[i], inst, a)) {
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        return ok;
    }
    case SK_ALLOF: {
        int ok = 1;
        for (size_t i = 0; i < k->u.list.n && !st->aborted; i++) {
            if (!eval_here(st, k->u.list.nodes[i], inst, a)) {
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        return ok;
    }
    case SK_ANYOF: {
        int ok = 0;
        st->quiet++;
        for (size_t i = 0; i < k->u.list.n && !st->aborted; i++) {
            if (eval_here(st, k->u.list.nodes[i], inst, a)) {
                ok = 1;
                if (!a) break;
            }
        }
        st->quiet--;
        if (!ok && TRACK(st)) {
            char *why = branch_summary(st, k, inst);
            report(st, n, k->name, "value matches none of the anyOf alternatives%s", why);
            free(why);
        }
        return ok;
    }
    case SK_ONEOF: {
        size_t count = 0, first = 0, second = 0;
        struct ann keep;
        memset(&keep, 0, sizeof keep);
        st->quiet++;
        for (size_t i = 0; i < k->u.list.n && !st->aborted; i++) {
            if (eval_here(st, k->u.list.nodes[i], inst, a ? &keep : NULL)) {
                if (count == 0) first = i;
                else if (count == 1) second = i;
                count++;
                if (count > 1 && !a) break;
            }
        }
        st->quiet--;
        if (count == 1 && a) ann_merge(a, &keep);
        ann_release(&keep);
        if (count == 1) return 1;
        if (count == 0 && TRACK(st)) {
            char *why = branch_summary(st, k, inst);
            report(st, n, k->name, "value matches none of the oneOf alternatives%s", why);
            free(why);
        } else
            report(st, n, k->name, "value matches more than one oneOf alternative (%zu and %zu)",
                   first, second);
        return 0;
    }
    case SK_NOT: {
        st->quiet++;
        int r = eval(st, k->u.node, inst, NULL);
        st->quiet--;
        if (!r || st->aborted) return 1;
        report(st, n, k->name, "value must not be valid against the \"not\" schema");
        return 0;
    }
    case SK_IF: {
        st->quiet++;
        int r = eval_here(st, k->u.ifte.cond, inst, a);
        st->quiet--;
        size_t next = r ? k->u.ifte.then_ : k->u.ifte.else_;
        if (next == SCHEMA_NONE || st->aborted) return 1;
        return eval_here(st, next, inst, a);
    }
    case SK_PROPERTIES: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        size_t found = 0;
        for (size_t i = 0; i < k->u.props.n && !st->aborted; i++) {
            json_t *v = json_object_getn(inst, k->u.props.names[i], k->u.props.lens[i]);
            if (!v) continue;
            found++;
            if (a) VEC_PUSH(a->props, k->u.props.names[i]);
            if (!eval_key(st, k->u.props.nodes[i], v, k->u.props.names[i], k->u.props.lens[i])) {
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        st->seen_node = n;
        st->seen_inst = inst;
        st->seen_count = found;
        st->seen_writes++;
        return ok;
    }
    case SK_PATTERNPROPS: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        const char *key;
        size_t klen;
        json_t *v;
        json_object_keylen_foreach(inst, key, klen, v)
        {
            for (size_t i = 0; i < k->u.pprops.n; i++) {
                int m = re_match(st, n, k->u.pprops.re[i], key, klen);
                if (m < 0) return 0;
                if (!m) continue;
                if (a) VEC_PUSH(a->props, key);
                if (!eval_key(st, k->u.pprops.nodes[i], v, key, klen)) {
                    ok = 0;
                    if (!TRACK(st)) return 0;
                }
            }
        }
        return ok;
    }
    case SK_ADDPROPS: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        const char *key;
        json_t *v;
        const struct schema_node *c = st->s->nodes.items[k->u.addprops.node];
        if (!k->u.addprops.npat && st->seen_node == n && st->seen_inst == inst &&
            st->seen_count == json_object_size(inst))
            return 1; /* every member is a declared property */
        size_t klen;
        json_object_keylen_foreach(inst, key, klen, v)
        {
            if (k->u.addprops.props && json_object_getn(k->u.addprops.props, key, klen)) continue;
            int matched = 0;
            for (size_t i = 0; i < k->u.addprops.npat && !matched; i++) {
                int m = re_match(st, n, k->u.addprops.re[i], key, klen);
                if (m < 0) return 0;
                matched = m;
            }
            if (matched) continue;
            if (a) VEC_PUSH(a->props, key);
            if (c->boolean == 0) {
                report_at_key(st, n, k->name, key, klen, "property");
                ok = 0;
            } else if (!eval_key(st, k->u.addprops.node, v, key, klen)) {
                ok = 0;
            }
            if (!ok && !TRACK(st)) return 0;
        }
        return ok;
    }
    case SK_PROPNAMES: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        const char *key;
        json_t *v;
        size_t klen;
        json_object_keylen_foreach(inst, key, klen, v)
        {
            json_t *name = json_stringn(key, klen);
            st->quiet++;
            int r = eval(st, k->u.node, name, NULL);
            st->quiet--;
            json_decref(name);
            if (!r) {
                char *e = schema_escape(key, klen);
                report(st, n, k->name, "property name \"%s\" is not valid", e);
                free(e);
                ok = 0;
                if (!TRACK(st)) return 0;
            }
        }
        return ok;
    }
    case SK_PREFIXITEMS: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst), m = k->u.list.n < len ? k->u.list.n : len;
        int ok = 1;
        for (size_t i = 0; i < m && !st->aborted; i++) {
            if (!eval_index(st, k->u.list.nodes[i], json_array_get(inst, i), i)) {
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        if (a && m > a->prefix) a->prefix = m;
        return ok;
    }
    case SK_ITEMS: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst);
        int ok = 1;
        const struct schema_node *c = st->s->nodes.items[k->u.items.node];
        if (c->boolean == 0 && len > k->u.items.start) {
            report(st, n, k->name, "array has %zu items, at most %zu allowed", len,
                   k->u.items.start);
            return 0;
        }
        for (size_t i = k->u.items.start; i < len && !st->aborted; i++) {
            if (!eval_index(st, k->u.items.node, json_array_get(inst, i), i)) {
                ok = 0;
                if (!TRACK(st)) break;
            }
        }
        if (a) a->all_items = 1;
        return ok;
    }
    case SK_UNEVALPROPS: {
        if (!json_is_object(inst)) return 1;
        int ok = 1;
        const char *key;
        json_t *v;
        const struct schema_node *c = st->s->nodes.items[k->u.node];
        size_t klen;
        json_object_keylen_foreach(inst, key, klen, v)
        {
            if (ann_has_prop(a, key)) continue;
            if (c->boolean == 0) {
                report_at_key(st, n, k->name, key, klen, "unevaluated property");
                ok = 0;
            } else if (!eval_key(st, k->u.node, v, key, klen)) {
                ok = 0;
            }
            if (!ok && !TRACK(st)) return 0;
        }
        if (ok) a->all_props = 1;
        return ok;
    }
    case SK_UNEVALITEMS: {
        if (!json_is_array(inst)) return 1;
        int ok = 1;
        size_t len = json_array_size(inst);
        const struct schema_node *c = st->s->nodes.items[k->u.node];
        for (size_t i = 0; i < len && !st->aborted; i++) {
            if (ann_has_item(a, i)) continue;
            if (c->boolean == 0) {
                report(st, n, k->name, "unevaluated item %zu is not allowed", i);
                ok = 0;
            } else if (!eval_index(st, k->u.node, json_array_get(inst, i), i)) {
                ok = 0;
            }
            if (!ok && !TRACK(st)) return 0;
        }
        if (ok) a->all_items = 1;
        return ok;
    }
    case SK_REF: return eval_here(st, k->u.ref.node, inst, a);
    case SK_DYNREF: {
        size_t target = k->u.ref.node;
        if (k->u.ref.anchor) {
            int found = 0;
            for (size_t i = 0; i < st->scope.len && !found; i++) {
                const struct schema_res *r = st->s->res.items[st->scope.items[i]];
                for (size_t d = 0; d < r->dyn.len; d++) {
                    if (r->dyn.items[d].node < SIZE_MAX - 1 &&
                        !strcmp(r->dyn.items[d].name, k->u.ref.anchor)) {
                        target = r->dyn.items[d].node;
                        found = 1;
                        break;
                    }
                }
            }
        }
        return eval_here(st, target, inst, a);
    }
    case SK_RECREF: {
        size_t target = k->u.ref.node;
        const struct schema_node *t = st->s->nodes.items[target];
        const struct schema_res *tr = st->s->res.items[t->res];
        if (tr->recursive_anchor && tr->root == t->json) {
            for (size_t i = 0; i < st->scope.len; i++) {
                const struct schema_res *r = st->s->res.items[st->scope.items[i]];
                if (r->recursive_anchor && r->root_node < SIZE_MAX - 1) {
                    target = r->root_node;
                    break;
                }
            }
        }
        return eval_here(st, target, inst, a);
    }
    case SK_FALSE: return 0;
    case SK_OBJECT: return object_fast(st, k->u.obj, inst);
    case SK_ENUMSTR: return enum_fast(st, n, k, inst);
    case SK_REQNAMES:
        if (!json_is_object(inst)) return 1;
        for (size_t i = 0; i < k->u.strs.n; i++)
            if (!json_object_getn(inst, k->u.strs.s[i], k->u.strs.len[i])) return 0;
        return 1;
    }
    return 1;
}

/* The dynamic scope: push node N's resource unless it is already on top; returns 1
 * when pushed. The memo follows the resources' first appearances (their SEQ). */
static int scope_push(struct vst *st, const struct schema_node *n)
{
    if (st->scope.len && st->scope.items[st->scope.len - 1] == n->res) return 0;
    VEC_PUSH(st->scope, n->res);
    struct memo *m = &st->memo;
    if (m->inscope && m->inscope[n->res]++ == 0) {
        uint64_t key = (uint64_t)(m->firsts.len ? m->firsts.items[m->firsts.len - 1] : 0) << 32 |
            (uint32_t)n->res;
        size_t id = 0;
        while (id < m->seqs.len && m->seqs.items[id] != key) id++;
        if (id == m->seqs.len) VEC_PUSH(m->seqs, key);
        VEC_PUSH(m->firsts, (uint32_t)(id + 1));
    }
    return 1;
}

static void scope_pop(struct vst *st)
{
    size_t r = st->scope.items[--st->scope.len];
    if (st->memo.inscope && --st->memo.inscope[r] == 0) st->memo.firsts.len--;
}

static size_t memo_slot(const struct memo *m, json_t *inst, size_t nid, uint32_t seq)
{
    uint64_t h = ((uint64_t)(uintptr_t)inst >> 4) * 0x9E3779B97F4A7C15ull ^
        ((uint64_t)nid << 20 | seq) * 0xC2B2AE3D27D4EB4Full;
    size_t i = (size_t)(h >> 24) & (m->cap - 1);
    while (m->slot[i].inst &&
           !(m->slot[i].inst == inst && m->slot[i].nid == nid && m->slot[i].seq == seq))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void memo_put(struct memo *m, const struct memo_ent *e)
{
    if (2 * (m->len + 1) > m->cap) { /* at most half full: probes stay short */
        struct memo g = *m;
        g.cap = m->cap ? 2 * m->cap : 64;
        g.slot = xcalloc(g.cap, sizeof *g.slot);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].inst)
                g.slot[memo_slot(&g, m->slot[i].inst, m->slot[i].nid, m->slot[i].seq)] = m->slot[i];
        free(m->slot);
        *m = g;
    }
    m->slot[memo_slot(m, e->inst, e->nid, e->seq)] = *e;
    m->len++;
}

static void memo_release(struct memo *m)
{
    free(m->slot);
    free(m->inscope);
    VEC_FREE(m->firsts);
    VEC_FREE(m->seqs);
}

static int eval_full(struct vst *st, size_t nid, json_t *inst, struct ann *ann)
{
    const struct schema_node *n = st->s->nodes.items[nid];
    if (st->aborted || !charge(st, n, 1)) return 0;
    if (n->boolean >= 0) {
        if (!n->boolean) report(st, n, NULL, "no value is allowed here (false schema)");
        return n->boolean;
    }
    if (st->depth >= st->s->lim.max_eval_depth) {
        abort_bound(st, n,
                    "validation stopped: evaluation nested deeper than max_eval_depth=%u "
                    "(a reference cycle?)",
                    (unsigned)st->s->lim.max_eval_depth);
        return 0;
    }
    if (++st->depth > st->memo.peak) st->memo.peak = st->depth;
    int pushed = st->s->dynamic && scope_push(st, n);
    struct ann local;
    struct ann *a = ann;
    if (!a && n->has_uneval) {
        memset(&local, 0, sizeof local);
        a = &local;
    }
    const struct schema_kw *kws = n->kws;
    size_t nkw = n->nkw;
    if (n->fkws && !a && !TRACK(st)) { /* the boolean program */
        kws = n->fkws;
        nkw = n->nfkw;
    }
    int valid = 1;
    for (size_t i = 0; i < nkw; i++) {
        if (!eval_kw(st, n, &kws[i], inst, a)) {
            valid = 0;
            if (!TRACK(st) || st->aborted) break;
        }
    }
    if (pushed) scope_pop(st);
    st->depth--;
    if (a == &local) ann_release(&local);
    else if (!valid && a) ann_release(a);
    return valid && !st->aborted;
}

/* Number keywords of the boolean program: int64 against int64 without the general
 * exact comparison. */
static int num_ok(const struct schema_kw *k, json_t *inst)
{
    if (!json_is_number(inst)) return 1;
    int c;
    if (json_is_integer(inst) && json_is_integer(k->u.value)) {
        json_int_t x = json_integer_value(inst), y = json_integer_value(k->u.value);
        c = x < y ? -1 : x > y;
    } else {
        c = val_num_cmp(inst, k->u.value);
    }
    switch (k->kind) {
    case SK_MAXIMUM: return c <= 0;
    case SK_EXMAXIMUM: return c < 0;
    case SK_MINIMUM: return c >= 0;
    default: return c > 0;
    }
}

/* One keyword of the boolean program: the common ones here, the rest in eval_kw. */
static int fast_kw(struct vst *st, const struct schema_node *n, const struct schema_kw *k,
                   json_t *inst)
{
    switch (k->kind) {
    case SK_TYPE: return type_ok(k->u.types, inst);
    case SK_ENUMSTR: return enum_fast(st, n, k, inst);
    case SK_OBJECT: return object_fast(st, k->u.obj, inst);
    case SK_MAXIMUM:
    case SK_EXMAXIMUM:
    case SK_MINIMUM:
    case SK_EXMINIMUM: return num_ok(k, inst);
    case SK_MAXLENGTH:
    case SK_MINLENGTH: {
        if (!json_is_string(inst)) return 1;
        size_t bytes = json_string_length(inst);
        if (k->kind == SK_MAXLENGTH) {
            return bytes <= k->u.count ||
                val_utf8_length(json_string_value(inst), bytes) <= k->u.count;
        }
        return bytes >= k->u.count && val_utf8_length(json_string_value(inst), bytes) >= k->u.count;
    }
    case SK_MAXITEMS: return !json_is_array(inst) || json_array_size(inst) <= k->u.count;
    case SK_MINITEMS: return !json_is_array(inst) || json_array_size(inst) >= k->u.count;
    case SK_REF: return eval_fast(st, k->u.ref.node, inst);
    case SK_ALLOF:
        for (size_t i = 0; i < k->u.list.n; i++)
            if (!eval_fast(st, k->u.list.nodes[i], inst)) return 0;
        return 1;
    case SK_ITEMS: {
        if (!json_is_array(inst)) return 1;
        size_t len = json_array_size(inst);
        if (len <= k->u.items.start) return 1;
        for (size_t i = k->u.items.start; i < len; i++)
            if (!eval_fast(st, k->u.items.node, json_array_get(inst, i))) return 0;
        return 1;
    }
    default: return eval_kw(st, n, k, inst, NULL);
    }
}

/* A node's record (struct schema_fnode): $ref, the checks, then the subschemas of
 * members or items. */
static inline __attribute__((always_inline)) int
fnode_eval(struct vst *st, const struct schema_node *n, const struct schema_fnode *f, json_t *inst)
{
    unsigned has = f->has;
    if (has & SF_REF && !eval_fast(st, f->ref, inst)) return 0;
    int jd = st->jd;
    if (!fnode_checks(st, n, f, inst, jd)) return 0;
    if (has & SF_OBJ && json_is_object(inst)) return object_fast(st, f->obj, inst);
    if (has & SF_ITEMS && json_is_array(inst))
        for (size_t i = f->items_start, len = schema_jarray_size(inst, jd); i < len; i++)
            if (!eval_child(st, f->items, schema_jarray_get(inst, i, jd), jd)) return 0;
    return 1;
}

/* fnode_eval, not inlined (it holds eval_child, which calls this). */
static int eval_record(struct vst *st, const struct schema_fnode *f, json_t *v)
{
    return fnode_eval(st, f->node, f, v);
}

static int prog_fast(struct vst *st, const struct schema_node *n, json_t *inst)
{
    for (size_t i = 0; i < n->nprog; i++) /* by index: prog is NULL for {} */
        if (!fast_kw(st, n, &n->prog[i], inst)) return 0;
    return 1;
}

/* The node's specialised program, stopping at the first failure. */
static inline __attribute__((always_inline)) int
eval_prog_body(struct vst *st, const struct schema_node *n, json_t *inst)
{
    int pushed = st->dynamic && scope_push(st, n); /* for $dynamicRef and $recursiveRef */
    if (++st->depth > st->memo.peak) st->memo.peak = st->depth;
    int ok = n->fn ? fnode_eval(st, n, n->fn, inst) : prog_fast(st, n, inst);
    st->depth--;
    if (pushed) scope_pop(st);
    return ok && !st->aborted;
}

static int eval_prog(struct vst *st, const struct schema_node *n, json_t *inst)
{
    if (inst->refcount > 1) st->shared_evals++;
    return eval_prog_body(st, n, inst);
}

/* eval_prog of a shared value, remembered (struct memo says why this is exact). */
static int eval_shared(struct vst *st, size_t nid, const struct schema_node *n, json_t *inst)
{
    struct memo *m = &st->memo;
    uint32_t seq = m->firsts.len ? m->firsts.items[m->firsts.len - 1] : 0;
    if (m->cap) {
        const struct memo_ent *e = &m->slot[memo_slot(m, inst, nid, seq)];
        if (e->inst) {
            /* every bound it met stays out of reach here: the walk would be the same */
            if (st->work + e->work >= st->max_work || st->depth + e->depth >= st->max_depth)
                return eval_prog(st, n, inst);
            st->work += e->work;
            if (st->depth + e->depth > m->peak) m->peak = st->depth + e->depth;
            if (e->wrote_seen) {
                st->seen_node = e->seen_node;
                st->seen_inst = e->seen_inst;
                st->seen_count = e->seen_count;
                st->seen_writes++;
            }
            return e->ok;
        }
    }
    uint64_t work = st->work, writes = st->seen_writes;
    uint32_t depth = st->depth, peak = m->peak;
    m->peak = depth;
    int ok = eval_prog(st, n, inst);
    struct memo_ent e = {inst,
                         nid,
                         seq,
                         ok,
                         st->work - work,
                         m->peak - depth,
                         st->seen_writes != writes,
                         st->seen_node,
                         st->seen_inst,
                         st->seen_count};
    if (peak > m->peak) m->peak = peak;
    if (!st->aborted) memo_put(m, &e);
    return ok;
}

/* Boolean evaluation (no error list, no annotations): the node's specialised program,
 * stopping at the first failure; shared values remembered in the boolean run. */
static int eval_fast(struct vst *st, size_t nid, json_t *inst)
{
    const struct schema_node *n = st->s->nodes.items[nid];
    /* annotations, or a bound about to stop: eval_full does the rest */
    if (n->slow || st->depth >= st->max_depth || st->work >= st->max_work || st->aborted)
        return eval_full(st, nid, inst, NULL);
    st->work++;
    if (n->boolean >= 0) return n->boolean;
    if (inst->refcount > 1) {
        if (!st->errs && (json_is_object(inst) || json_is_array(inst)))
            return eval_shared(st, nid, n, inst);
        st->shared_evals++;
    }
    return eval_prog_body(st, n, inst);
}

static int eval(struct vst *st, size_t nid, json_t *inst, struct ann *ann)
{
    if (ann || TRACK(st)) return eval_full(st, nid, inst, ann);
    return eval_fast(st, nid, inst);
}

int schema_validate(const schema *s, json_t *instance, struct schema_errors *errs)
{
    struct vst st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.errs = errs;
    st.max_work = s->lim.max_work;
    st.max_depth = s->lim.max_eval_depth;
    st.dynamic = s->dynamic;
    st.no_leaf = s->dynamic;
    st.jd = schema_jansson_direct();
    if (!errs && st.dynamic) st.memo.inscope = xcalloc(s->res.len, sizeof *st.memo.inscope);
    int r = eval(&st, s->root, instance, NULL);
    schema_md_give(s, st.md);
    /* most validations allocated none of these: no call then (a validation of a small
     * instance is a few thousand instructions) */
    if (st.ip.s) buf_release(&st.ip);
    if (st.scope.items) VEC_FREE(st.scope);
    if (st.memo.slot || st.memo.inscope || st.memo.firsts.items || st.memo.seqs.items)
        memo_release(&st.memo);
    if (st.shared_evals) schema_eval_shared_evals += st.shared_evals;
    if (st.aborted) return -1;
    return r ? 0 : 1;
}
