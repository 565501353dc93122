/* eval_memo.c - the findings of unchanged items kept from one judgement of a document to
 * the next; see eval_memo.h. */
#include "judge/eval_memo.h"

#include <stdatomic.h>
#include <string.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"
#include "judge/eval.h"
#include "rules/ruleInt.h"

#define NO_OFF ((size_t)-1)

/* A kept finding: the diagnostic, its rule, and the byte offsets of its positions in the
 * text judged (line:col and end_line:end_col; NO_OFF where the position is unknown). */
struct memo_diag {
    size_t rule;
    struct diag d;
    size_t off, end_off;
};

struct memo_item {
    size_t start, end; /* the item's bytes in the text */
    int stored;        /* its findings are kept (below, possibly none) */
    struct memo_diag *diags;
    size_t n;
};

struct memo_coll {
    char *name;
    size_t start, end; /* the array's bytes, brackets included */
    int found;         /* the document has it, as an array */
    struct memo_item *items;
    size_t n;
};

/* What a rule reads beyond the item it judges, where a run can tell whether that changed:
 * the members of the root its absolute selectors start from (unchanged when the edit
 * lies in another member's array), and its unique, among or mentions over the whole
 * document (the same when the nodes they select are: fn_index_fingerprint). NEVER:
 * something else (a wildcard or "**" first, another predicate): judged on every item
 * every time. */
struct rule_reads {
    int never;
    VEC(char *) keys;
    VEC(const struct pred *) idx;
};

static void reads_release(struct rule_reads *rd)
{
    for (size_t i = 0; i < rd->keys.len; i++) free(rd->keys.items[i]);
    VEC_FREE(rd->keys);
    VEC_FREE(rd->idx);
}

struct eval_memo {
    /* the judgement the entries are for */
    const struct rule_set *rs;
    char digest[sizeof((struct rule_set *)0)->digest];
    ver_mask versions;
    enum rule_preset preset;
    int (*enabled)(const char *, void *);
    void *enabled_arg;
    struct rule_reads *reads; /* per rule, and the pattern notes' slot (reads nothing) */
    size_t nrules;
    /* per unique, among or mentions over the document of a rule: what it read in the last
     * text judged (fn_index_fingerprint), when a run computed it */
    struct memo_index {
        const struct pred *p;
        struct buf bytes;
        int have;
    } * idx;
    size_t nidx;
    char *text; /* the text judged, or NULL */
    size_t len;
    struct memo_coll *colls;
    size_t ncolls;
    size_t reused, judged;
    unsigned char *kept; /* the last run's memo_run.local (usable runs), or NULL */
};

struct memo_run {
    struct eval_memo *m;
    const doc *d;
    const char *text;
    size_t len;
    int usable;            /* the old entries may serve (same judgement, only items changed) */
    size_t prefix, suffix; /* bytes the old and the new text share at each end */
    const char *changed;   /* usable: the collection whose array the change lies in (NULL:
                            * no change) */
    unsigned char *local;  /* per rule: its findings on an unchanged item may be kept this
                            * time (it reads nothing that changed) */
    VEC(size_t) line_starts;
    struct memo_coll *colls; /* the new entries, as KEYS */
    size_t ncolls;
    size_t *old_of; /* per new collection, the old one of its name (NO_OFF: none) */
    _Atomic size_t reused, judged;
};

struct eval_memo *eval_memo_new(void)
{
    return xcalloc(1, sizeof(struct eval_memo));
}

static void item_release(struct memo_item *it)
{
    for (size_t k = 0; k < it->n; k++) diag_clear(&it->diags[k].d);
    free(it->diags);
    it->diags = NULL;
    it->n = 0;
    it->stored = 0;
}

static void memo_rules_free(struct eval_memo *m)
{
    for (size_t r = 0; m->reads && r < m->nrules; r++) reads_release(&m->reads[r]);
    free(m->reads);
    m->reads = NULL;
    for (size_t i = 0; i < m->nidx; i++) buf_release(&m->idx[i].bytes);
    free(m->idx);
    m->idx = NULL;
    m->nidx = 0;
    m->nrules = 0;
    free(m->kept);
    m->kept = NULL;
}

static void colls_free(struct memo_coll *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < c[i].n; k++) item_release(&c[i].items[k]);
        free(c[i].items);
        free(c[i].name);
    }
    free(c);
}

void eval_memo_free(struct eval_memo *m)
{
    if (!m) return;
    colls_free(m->colls, m->ncolls);
    memo_rules_free(m);
    free(m->text);
    free(m->kept);
    free(m);
}

void eval_memo_stats(const struct eval_memo *m, size_t *reused, size_t *judged)
{
    *reused = m ? m->reused : 0;
    *judged = m ? m->judged : 0;
}

int eval_memo_rule_was_kept(const struct eval_memo *m, size_t r)
{
    return m && m->kept && r < m->nrules && m->kept[r];
}

/* ---- what each rule reads ---------------------------------------------------------- */

/* See pred_reads. */
static const char *const local_fns[] = {"json-type",
                                        "declared-type-is",
                                        "declared-type-includes",
                                        "has",
                                        "lacks",
                                        "equals",
                                        "one-of",
                                        "all",
                                        "any",
                                        "not",
                                        "use",
                                        "length",
                                        "matches",
                                        "path-matches",
                                        "key",
                                        "range",
                                        "format",
                                        "nesting",
                                        "every-descendant",
                                        "text-kind",
                                        "valid-schema",
                                        "keywords-spelt",
                                        "dialect-in",
                                        "matches-schema",
                                        "chars",
                                        "phrases",
                                        "every",
                                        "some",
                                        "unique",
                                        "among",
                                        "ancestor",
                                        "ref-resolves",
                                        "(regex)",
                                        "(selector)",
                                        NULL};

/* The first segment of absolute selector S when it is a member name (new string), else
 * NULL (a wildcard or "**": any member). */
static char *first_member(const struct sel *s)
{
    struct ptr p = PTR_INIT;
    const char *why;
    char *out = NULL;
    if (ptr_parse(sel_text(s), &p, &why) == 0 && p.n >= 1 && strcmp(p.segs[0], "*") &&
        strcmp(p.segs[0], SEL_ITEMS) && strcmp(p.segs[0], "**"))
        out = xstrdup(p.segs[0]);
    ptr_release(&p);
    return out;
}

/* Selector S (relative: below the node, in the item) into RD. */
static void sel_reads(const struct sel *s, struct rule_reads *rd)
{
    if (!s || !sel_is_absolute(s)) return;
    char *k = first_member(s);
    if (!k) rd->never = 1;
    else VEC_PUSH(rd->keys, k);
}

/* Predicates whose verdict depends on nothing but the node they judge and what their own
 * selectors reach (relative ones: inside the item, the components it reaches included;
 * unique, among and ancestor set eval_ctx.escaped when the base they climb to lies above
 * the item, ref-resolves when its schema root does), and unique, among and mentions over
 * the document (fn_reads_document). Any other predicate (the pair's, a session's) may
 * read anything. */
static void pred_reads(const struct pred *p, int depth, struct rule_reads *rd)
{
    if (!p || rd->never) return;
    if (depth > 64) { /* named predicates may nest: stay bounded */
        rd->never = 1;
        return;
    }
    if (fn_reads_document(p)) { /* its kids only hold its selectors */
        size_t k = 0;
        while (k < rd->idx.len && rd->idx.items[k] != p) k++;
        if (k == rd->idx.len) VEC_PUSH(rd->idx, p);
        return;
    }
    size_t i = 0;
    while (local_fns[i] && strcmp(local_fns[i], p->fn->name)) i++;
    if (!local_fns[i] || p->session || p->side) {
        rd->never = 1;
        return;
    }
    /* the schema root at an absolute depth: inside the item from depth 2 on */
    if (!strcmp(p->fn->name, "ref-resolves") &&
        json_integer_value(json_object_get(p->arg, "depth")) < 2) {
        rd->never = 1;
        return;
    }
    sel_reads(p->sel, rd);
    for (size_t k = 0; k < p->nkids; k++) pred_reads(p->kids[k], depth + 1, rd);
    pred_reads(p->body, depth + 1, rd);
}

/* Clause CL below the selection the walk made (its own selectors are the plan's when TOP). */
static void clause_reads(const struct clause *cl, int top, struct rule_reads *rd)
{
    if (cl->sel_sides) rd->never = 1;
    for (size_t i = 0; !top && i < cl->nsels; i++) sel_reads(cl->sels[i], rd);
    pred_reads(cl->when, 0, rd);
    pred_reads(cl->require, 0, rd);
    for (size_t i = 0; i < cl->nfixes; i++) pred_reads(cl->fixes[i]->when, 0, rd);
    for (size_t i = 0; i < cl->nkids; i++)
        clause_reads(cl->kids[i], top && !cl->nsels && !cl->texts, rd);
}

/* ---- spans and offsets ------------------------------------------------------------- */

/* The spans of the collections KEYS of D and of their items, into C (NKEYS entries). */
static void spans_of(const doc *d, char *const *keys, size_t nkeys, struct memo_coll *c)
{
    json_t *root = doc_root(d);
    for (size_t k = 0; k < nkeys; k++) {
        c[k].name = xstrdup(keys[k]);
        json_t *arr = json_object_get(root, keys[k]);
        doc_node an = arr ? doc_node_member(d, 0, root, keys[k]) : DOC_NONE;
        struct doc_span sp;
        if (!json_is_array(arr) || an == DOC_NONE || doc_node_span(d, an, &sp, NULL) < 0) continue;
        c[k].found = 1;
        c[k].start = sp.start;
        c[k].end = sp.end;
        c[k].n = json_array_size(arr);
        c[k].items = xcalloc(c[k].n ? c[k].n : 1, sizeof *c[k].items);
        for (size_t i = 0; i < c[k].n; i++) {
            doc_node in = doc_node_array_item(d, an, arr, i);
            if (in == DOC_NONE || doc_node_span(d, in, &sp, NULL) < 0) {
                c[k].found = 0; /* cannot place its items: keep none */
                break;
            }
            c[k].items[i].start = sp.start;
            c[k].items[i].end = sp.end;
        }
    }
}

/* The byte offset of position P in MR's text (JSON: lines end at LF, columns count code
 * points, line 1 after a BOM), checked against the document's own answer; NO_OFF when
 * they disagree or P is unknown. */
static size_t pos_offset(const struct memo_run *mr, uint32_t line, uint32_t col)
{
    if (!line || !col || line > mr->line_starts.len) return NO_OFF;
    size_t off = mr->line_starts.items[line - 1];
    if (line == 1 && mr->len >= 3 && !memcmp(mr->text, "\xEF\xBB\xBF", 3)) off = 3;
    for (uint32_t c = 1; c < col; c++) {
        if (off >= mr->len || mr->text[off] == '\n') return NO_OFF;
        off++;
        while (off < mr->len && ((unsigned char)mr->text[off] & 0xC0) == 0x80) off++;
    }
    struct doc_pos back = doc_offset_pos(mr->d, off);
    return back.line == line && back.col == col ? off : NO_OFF;
}

/* Old offset OFF in the new text: the same byte when before the change, shifted when
 * after it; 0 when it lies in the bytes that changed. */
static int map_offset(const struct memo_run *mr, size_t off, size_t *out)
{
    if (off == NO_OFF) {
        *out = NO_OFF;
        return 1;
    }
    const struct eval_memo *m = mr->m;
    if (off < mr->prefix) *out = off;
    else if (off >= m->len - mr->suffix) *out = off - m->len + mr->len;
    else return 0;
    return 1;
}

/* Is [S, E) of the old text the same bytes as [NS, NE) of the new one, with nothing in
 * between changed? */
static int same_bytes(const struct memo_run *mr, size_t s, size_t e, size_t ns, size_t ne)
{
    const struct eval_memo *m = mr->m;
    if (e <= mr->prefix) return ns == s && ne == e;
    if (s >= m->len - mr->suffix) return ns == s - m->len + mr->len && ne == e - m->len + mr->len;
    return 0;
}

/* ---- a run ------------------------------------------------------------------------- */

static int same_judgement(const struct eval_memo *m, const struct rule_set *rs,
                          const struct eval_options *o)
{
    return m->rs == rs && !strcmp(m->digest, rs->digest) && m->versions == o->versions &&
        m->preset == o->preset && m->enabled == o->enabled && m->enabled_arg == o->enabled_arg;
}

/* Does the change between the old and the new text lie inside one collection's array in
 * both (so that every byte outside the collections' items is the same), and can no
 * $componentRef reach into that array? */
static int only_items_changed(struct memo_run *mr, const struct rule_set *rs)
{
    const struct eval_memo *m = mr->m;
    mr->changed = NULL;
    if (mr->prefix == m->len && m->len == mr->len) return 1; /* no change */
    size_t old_end = m->len - mr->suffix, new_end = mr->len - mr->suffix;
    for (size_t k = 0; k < mr->ncolls; k++) {
        const struct memo_coll *n = &mr->colls[k];
        size_t ok = mr->old_of[k];
        if (!n->found || ok == NO_OFF || !m->colls[ok].found) continue;
        const struct memo_coll *o = &m->colls[ok];
        if (mr->prefix <= o->start || old_end >= o->end || mr->prefix <= n->start ||
            new_end >= n->end)
            continue;
        /* a $componentRef whose prefix reaches into "/KEY/" may read the items */
        const char *pre = rs->ref_prefix;
        if (pre) {
            size_t plen = strlen(pre), klen = strlen(n->name);
            if (pre[0] != '/') return 0;
            if (!strncmp(pre + 1, n->name, plen - 1 < klen ? plen - 1 : klen) &&
                (plen - 1 <= klen || pre[klen + 1] == '/'))
                return 0;
        }
        mr->changed = n->name;
        return 1;
    }
    return 0;
}

/* The rules' reads, and the indexes they compare with, for the rule set RS (a new
 * judgement). */
static void memo_rules_init(struct eval_memo *m, const struct rule_set *rs)
{
    memo_rules_free(m);
    m->nrules = rule_set_count(rs) + 1; /* and the pattern notes' slot (eval.c) */
    m->reads = xcalloc(m->nrules, sizeof *m->reads);
    VEC(struct memo_index) idx = VEC_INIT;
    for (size_t r = 0; r + 1 < m->nrules; r++) {
        struct rule_reads *rd = &m->reads[r];
        clause_reads(rule_set_rule(rs, r)->check, 1, rd);
        for (size_t k = 0; !rd->never && k < rd->idx.len; k++) {
            size_t n = 0;
            while (n < idx.len && idx.items[n].p != rd->idx.items[k]) n++;
            if (n == idx.len) VEC_PUSH(idx, ((struct memo_index){rd->idx.items[k], BUF_INIT, 0}));
        }
    }
    m->idx = idx.items;
    m->nidx = idx.len;
}

/* Does index predicate P read collection KEY (a selector starting from it or from any
 * member)? */
static int index_reads(const struct pred *p, const char *key)
{
    for (size_t i = 0; i < p->nkids; i++) {
        char *k = first_member(p->kids[i]->sel);
        int hit = !k || !strcmp(k, key);
        free(k);
        if (hit) return 1;
    }
    return 0;
}

/* The indexes of the rules PLANNED (per rule) in this text, computed with CTX where they
 * may have changed; SAME (per memo index): equal to the last text's. */
static void memo_indexes(struct memo_run *mr, struct eval_ctx *ctx, const unsigned char *planned,
                         unsigned char *same)
{
    struct eval_memo *m = mr->m;
    for (size_t i = 0; i < m->nidx; i++) {
        struct memo_index *x = &m->idx[i];
        int used = 0;
        for (size_t r = 0; !used && r + 1 < m->nrules; r++)
            for (size_t k = 0; planned[r] && k < m->reads[r].idx.len; k++)
                used |= m->reads[r].idx.items[k] == x->p;
        if (!used) {
            x->have = 0; /* not judged with: unknown for the next text */
            continue;
        }
        if (mr->usable && x->have && (!mr->changed || !index_reads(x->p, mr->changed))) {
            same[i] = 1; /* the change lies outside what it selects */
            continue;
        }
        struct buf now = BUF_INIT;
        fn_index_fingerprint(x->p, ctx, &now);
        same[i] = mr->usable && x->have && now.len == x->bytes.len &&
            !memcmp(buf_str(&now), buf_str(&x->bytes), now.len);
        buf_release(&x->bytes);
        x->bytes = now;
        x->have = 1;
    }
}

/* Which rules' findings on an unchanged item may be kept this time: the rules that read
 * nothing outside the item that changed (SAME: the indexes that did not). */
static void memo_local(struct memo_run *mr, const unsigned char *same)
{
    const struct eval_memo *m = mr->m;
    mr->local = xcalloc(m->nrules, 1);
    for (size_t r = 0; r < m->nrules; r++) {
        const struct rule_reads *rd = &m->reads[r];
        int ok = !rd->never;
        for (size_t k = 0; ok && mr->changed && k < rd->keys.len; k++)
            ok = strcmp(rd->keys.items[k], mr->changed) != 0;
        for (size_t k = 0; ok && k < rd->idx.len; k++) {
            size_t i = 0;
            while (m->idx[i].p != rd->idx.items[k]) i++;
            ok = same[i];
        }
        mr->local[r] = (unsigned char)ok;
    }
}

struct memo_run *eval_memo_run_begin(struct eval_memo *m, const struct rule_set *rs,
                                     const struct eval_options *opts, const doc *d,
                                     char *const *keys, size_t nkeys, struct eval_ctx *ctx,
                                     const unsigned char *planned)
{
    if (!m || !opts || opts->judged || opts->session || doc_is_yaml(d)) return NULL;
    struct memo_run *mr = xcalloc(1, sizeof *mr);
    mr->m = m;
    mr->d = d;
    mr->text = doc_text(d, &mr->len);
    if (!same_judgement(m, rs, opts)) {
        colls_free(m->colls, m->ncolls);
        m->colls = NULL;
        m->ncolls = 0;
        free(m->text);
        m->text = NULL;
        memo_rules_init(m, rs);
        m->rs = rs;
        memcpy(m->digest, rs->digest, sizeof m->digest);
        m->versions = opts->versions;
        m->preset = opts->preset;
        m->enabled = opts->enabled;
        m->enabled_arg = opts->enabled_arg;
    }
    VEC_PUSH(mr->line_starts, 0);
    for (const char *p = mr->text, *end = mr->text + mr->len; (p = memchr(p, '\n', end - p));)
        VEC_PUSH(mr->line_starts, (size_t)(++p - mr->text));
    mr->ncolls = nkeys;
    mr->colls = xcalloc(nkeys ? nkeys : 1, sizeof *mr->colls);
    mr->old_of = xcalloc(nkeys ? nkeys : 1, sizeof *mr->old_of);
    spans_of(d, keys, nkeys, mr->colls);
    for (size_t k = 0; k < nkeys; k++) {
        mr->old_of[k] = NO_OFF;
        for (size_t o = 0; o < m->ncolls; o++)
            if (!strcmp(m->colls[o].name, keys[k])) mr->old_of[k] = o;
    }
    if (m->text) {
        size_t n = m->len < mr->len ? m->len : mr->len;
        enum { BLOCK = 4096 }; /* memcmp a block at a time, then byte by byte */
        while (n - mr->prefix >= BLOCK &&
               !memcmp(m->text + mr->prefix, mr->text + mr->prefix, BLOCK))
            mr->prefix += BLOCK;
        while (mr->prefix < n && m->text[mr->prefix] == mr->text[mr->prefix]) mr->prefix++;
        while (n - mr->prefix - mr->suffix >= BLOCK &&
               !memcmp(m->text + m->len - mr->suffix - BLOCK,
                       mr->text + mr->len - mr->suffix - BLOCK, BLOCK))
            mr->suffix += BLOCK;
        while (mr->suffix < n - mr->prefix &&
               m->text[m->len - 1 - mr->suffix] == mr->text[mr->len - 1 - mr->suffix])
            mr->suffix++;
        mr->usable = only_items_changed(mr, rs);
    }
    unsigned char *same = xcalloc(m->nidx ? m->nidx : 1, 1);
    memo_indexes(mr, ctx, planned, same);
    memo_local(mr, same);
    free(same);
    return mr;
}

const unsigned char *eval_memo_run_local(const struct memo_run *mr)
{
    return mr->local;
}

int eval_memo_rule_kept(const struct memo_run *mr, size_t r)
{
    return r < mr->m->nrules && !mr->m->reads[r].never;
}

static struct memo_item *new_item(struct memo_run *mr, size_t ki, size_t i)
{
    struct memo_coll *c = ki < mr->ncolls ? &mr->colls[ki] : NULL;
    return c && c->found && i < c->n ? &c->items[i] : NULL;
}

int eval_memo_item_reuse(struct memo_run *mr, size_t ki, size_t i, struct diag_list *per_rule)
{
    struct memo_item *ni = new_item(mr, ki, i);
    size_t ok = ki < mr->ncolls ? mr->old_of[ki] : NO_OFF;
    if (!mr->usable || !ni || ok == NO_OFF) return 0;
    struct memo_coll *oc = &mr->m->colls[ok];
    if (!oc->found || i >= oc->n || !oc->items[i].stored) return 0;
    struct memo_item *oi = &oc->items[i];
    if (!same_bytes(mr, oi->start, oi->end, ni->start, ni->end)) return 0;
    for (size_t k = 0; k < oi->n; k++) { /* every position kept must survive the change */
        size_t a, b;
        if (mr->local[oi->diags[k].rule] &&
            (!map_offset(mr, oi->diags[k].off, &a) || !map_offset(mr, oi->diags[k].end_off, &b)))
            return 0;
    }
    /* the new entry takes the old one's findings of the rules kept this time (each old item
     * serves one new item); eval_memo_item_store adds the others' */
    VEC(struct memo_diag) kept = VEC_INIT;
    for (size_t k = 0; k < oi->n; k++) {
        struct memo_diag *md = &oi->diags[k];
        if (!mr->local[md->rule]) continue;
        map_offset(mr, md->off, &md->off);
        map_offset(mr, md->end_off, &md->end_off);
        if (md->off != NO_OFF) {
            struct doc_pos p = doc_offset_pos(mr->d, md->off);
            md->d.line = p.line;
            md->d.col = p.col;
        }
        if (md->end_off != NO_OFF) {
            struct doc_pos p = doc_offset_pos(mr->d, md->end_off);
            md->d.end_line = p.line;
            md->d.end_col = p.col;
        }
        diag_copy(&per_rule[md->rule], &md->d);
        VEC_PUSH(kept, *md);
        md->d = (struct diag){0}; /* moved */
    }
    item_release(oi);
    ni->diags = kept.items;
    ni->n = kept.len;
    atomic_fetch_add(&mr->reused, 1);
    return 1;
}

void eval_memo_item_store(struct memo_run *mr, size_t ki, size_t i,
                          const struct diag_list *per_rule, const size_t *mark, int keep,
                          int reused)
{
    if (!reused) atomic_fetch_add(&mr->judged, 1);
    struct memo_item *ni = new_item(mr, ki, i);
    if (!ni) return;
    VEC(struct memo_diag) kept = {ni->diags, ni->n, ni->n}; /* reused: the kept rules' */
    ni->diags = NULL;
    ni->n = 0;
    ni->stored = 0;
    const struct eval_memo *m = mr->m;
    for (size_t r = 0; keep && r < m->nrules; r++) {
        if (m->reads[r].never || (reused && mr->local[r])) continue;
        for (size_t k = mark[r]; keep && k < per_rule[r].len; k++) {
            const struct diag *x = &per_rule[r].items[k];
            struct memo_diag md = {r, {0}, pos_offset(mr, x->line, x->col), NO_OFF};
            if (x->has_match) md.end_off = pos_offset(mr, x->end_line, x->end_col);
            if ((md.off == NO_OFF && x->line) || (md.end_off == NO_OFF && x->has_match) ||
                x->nrelated) {
                keep = 0; /* a position it cannot move: judged again next time */
                break;
            }
            struct diag_list one = DIAG_LIST_INIT;
            diag_copy(&one, x);
            md.d = one.items[0];
            free(one.items);
            VEC_PUSH(kept, md);
        }
    }
    if (!keep) {
        for (size_t j = 0; j < kept.len; j++) diag_clear(&kept.items[j].d);
        VEC_FREE(kept);
        return;
    }
    ni->diags = kept.items;
    ni->n = kept.len;
    ni->stored = 1;
}

void eval_memo_run_end(struct memo_run *mr)
{
    struct eval_memo *m = mr->m;
    colls_free(m->colls, m->ncolls);
    m->colls = mr->colls;
    m->ncolls = mr->ncolls;
    free(m->text);
    m->text = xmalloc(mr->len + 1);
    memcpy(m->text, mr->text, mr->len);
    m->text[mr->len] = 0;
    m->len = mr->len;
    m->reused = atomic_load(&mr->reused);
    m->judged = atomic_load(&mr->judged);
    VEC_FREE(mr->line_starts);
    free(mr->old_of);
    free(m->kept);
    m->kept = mr->usable ? mr->local : NULL;
    if (!mr->usable) free(mr->local);
    free(mr);
}
