/* judge_diff.c - what changed from one description to the next (mcpdesc diff): resolve both,
 * match the items of each collection a change rule compares by their identity (a tool's
 * or prompt's name, a resource's uri, a template's uriTemplate) version by version, and
 * judge every pair with the change rules (eval.h: eval_pair). See judge_diff.h. */
#include "judge/judge_diff.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/display.h"
#include "base/util.h"
#include "judge/eval.h"
#include "resolve/res.h"
#include "resolve/sel.h"
#include "rules/ruleInt.h"

/* One side of a diff: the document, resolved, and its item cursors per collection. */
struct side {
    doc *d;
    struct res *res;
    const struct view *view;
    struct cursor root;
};

/* One item of a collection on one side. */
struct entry {
    const char *id; /* its identity (borrowed from the document), or NULL: none */
    size_t index;
    ver_mask vmask;
    struct cursor cur;
    int dup; /* its identity is another item's in a common version: not matched */
};

struct coll {
    struct cursor cur; /* the collection (parent of every entry's cursor) */
    VEC(struct entry) e;
    int present;
};

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (!x->id || !y->id) return !x->id - !y->id;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The items of collection NAME of side S, sorted by identity. */
static void coll_read(struct side *s, const char *name, const char *member, struct coll *c)
{
    struct sel_ctx sc = {s->d, s->view};
    memset(&c->e, 0, sizeof c->e);
    c->present = sel_member(&sc, &s->root, name, &c->cur) == 0 && json_is_array(c->cur.v);
    if (!c->present) return;
    int ci = view_collection(s->view, name);
    for (size_t i = 0; i < json_array_size(c->cur.v); i++) {
        struct entry e = {NULL, i, view_item_mask(s->view, ci, i), {0}, 0};
        if (sel_item(&sc, &c->cur, i, &e.cur) < 0) continue;
        e.id = json_string_value(json_object_get(e.cur.v, member));
        VEC_PUSH(c->e, e);
    }
    if (c->e.len) qsort(c->e.items, c->e.len, sizeof *c->e.items, entry_cmp); /* not NULL */
    /* the parent of an entry's cursor is the collection's, which no longer moves */
    for (size_t i = 0; i < c->e.len; i++) c->e.items[i].cur.parent = &c->cur;
}

/* "cannot match": an identity two items of one side share in a common version. Reported
 * once per identity and side, in NEW: at NEW's later item, or for OLD's at NEW's
 * collection (NEW's root when it has none), with OLD's later item as the related place.
 * The identity is left out of the matching on both sides (an item of it on the other side
 * would otherwise pass for added or removed). */
static void mark_duplicates(struct coll *c, struct coll *other, const char *kind, const doc *d,
                            int is_old, const struct side *new_side, ver_mask common,
                            struct diag_list *out)
{
    for (size_t i = 0; i < c->e.len;) {
        size_t j = i + 1;
        while (j < c->e.len && c->e.items[j].id && c->e.items[i].id &&
               !strcmp(c->e.items[i].id, c->e.items[j].id))
            j++;
        ver_mask seen = 0, twice = 0;
        for (size_t k = i; k < j; k++) {
            twice |= seen & c->e.items[k].vmask;
            seen |= c->e.items[k].vmask;
        }
        if (c->e.items[i].id && (twice & common)) {
            const struct entry *later = &c->e.items[j - 1];
            struct doc_pos pos = doc_node_pos(d, later->cur.node);
            char *pointer = sel_pointer(&later->cur);
            struct buf msg = BUF_INIT;
            buf_addf(&msg, "cannot match: two %ss named \"", kind);
            display_add(&msg, c->e.items[i].id, strlen(c->e.items[i].id));
            buf_addf(&msg, "\" in the %s description: left out of the comparison",
                     is_old ? "old" : "new");
            const struct cursor *at =
                is_old ? (other->present ? &other->cur : &new_side->root) : &later->cur;
            struct doc_pos apos = is_old ? doc_node_pos(new_side->d, at->node) : pos;
            struct diag *dg = diag_add(out, DIAG_WARNING, DIFF_DUPLICATE_RULE,
                                       doc_name(new_side->d), apos.line, apos.col, buf_str(&msg));
            dg->pointer = is_old ? sel_pointer(at) : xstrdup(pointer);
            dg->versions = twice & common;
            dg->hint = xstrdup("give each item its own name (or disjoint protocolVersions)");
            if (is_old) diag_add_related(dg, doc_name(d), pos.line, pos.col, pointer, "old");
            buf_release(&msg);
            free(pointer);
            for (size_t k = i; k < j; k++) c->e.items[k].dup = 1;
            for (size_t k = 0; k < other->e.len; k++)
                if (other->e.items[k].id && !strcmp(other->e.items[k].id, c->e.items[i].id))
                    other->e.items[k].dup = 1;
        }
        i = j;
    }
}

/* The members that make an item what it is, for the "renamed?" hint: all but its
 * identity and what only describes it. */
static int same_but_name(json_t *a, json_t *b, const char *member)
{
    static const char *const prose[] = {"name",  "title", "description", "annotations",
                                        "icons", "_meta", NULL};
    if (!json_is_object(a) || !json_is_object(b)) return 0;
    json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
    json_object_del(x, member);
    json_object_del(y, member);
    for (size_t i = 0; prose[i]; i++) {
        json_object_del(x, prose[i]);
        json_object_del(y, prose[i]);
    }
    int same = json_object_size(x) > 0 && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return same;
}

/* The first entry of L (not a duplicate) whose versions meet M and which is otherwise the
 * same as V, for the "renamed?" hint; NULL when none. */
static const char *renamed_from(const struct coll *l, const ver_mask *unmatched, json_t *v,
                                const char *member)
{
    for (size_t i = 0; i < l->e.len; i++) {
        const struct entry *e = &l->e.items[i];
        if (e->id && !e->dup && unmatched[i] && same_but_name(e->cur.v, v, member)) return e->id;
    }
    return NULL;
}

struct judge_run {
    const struct rule_set *rs;
    const struct eval_options *opts;
    const unsigned char *need; /* eval_needed */
    struct diag_list *out;
};

static void judge_one(const struct judge_run *jr, const char *compare, struct side *o,
                      const struct cursor *oc, struct side *n, const struct cursor *nc, ver_mask m,
                      const char *renamed)
{
    struct rule_pair p = {{o ? o->d : NULL, o ? o->view : NULL, oc},
                          {n ? n->d : NULL, n ? n->view : NULL, nc},
                          m,
                          renamed};
    eval_pair(jr->rs, compare, &p, jr->opts, jr->need, jr->out);
}

/* Match collection NAME of the two sides and judge each pair. Versions outside COMMON
 * (those both documents offer) are the protocol rules' (a version dropped is one change,
 * not one per item). */
static void diff_collection(const struct judge_run *jr, const char *name, struct side *o,
                            struct side *n)
{
    const char *kind;
    const char *member = eval_item_member(name, &kind);
    ver_mask common = o->view->doc_mask & n->view->doc_mask;
    struct coll oc, nc;
    coll_read(o, name, member, &oc);
    coll_read(n, name, member, &nc);
    mark_duplicates(&oc, &nc, kind, o->d, 1, n, common, jr->out);
    mark_duplicates(&nc, &oc, kind, n->d, 0, n, common, jr->out);
    /* what is left unmatched of each entry, version by version */
    ver_mask *orest = xcalloc(oc.e.len + 1, sizeof *orest),
             *nrest = xcalloc(nc.e.len + 1, sizeof *nrest);
    for (size_t i = 0; i < oc.e.len; i++)
        orest[i] = oc.e.items[i].id && !oc.e.items[i].dup ? oc.e.items[i].vmask & common : 0;
    for (size_t i = 0; i < nc.e.len; i++)
        nrest[i] = nc.e.items[i].id && !nc.e.items[i].dup ? nc.e.items[i].vmask & common : 0;
    /* pairs: the two lists are sorted by identity, so one merge walk */
    for (size_t i = 0, j = 0; i < oc.e.len && j < nc.e.len;) {
        const struct entry *a = &oc.e.items[i], *b = &nc.e.items[j];
        int c = !a->id ? 1 : !b->id ? -1 : strcmp(a->id, b->id);
        if (!a->id && !b->id) break;
        if (c < 0) {
            i++;
            continue;
        }
        if (c > 0) {
            j++;
            continue;
        }
        size_t i2 = i, j2 = j;
        while (i2 < oc.e.len && oc.e.items[i2].id && !strcmp(oc.e.items[i2].id, a->id)) i2++;
        while (j2 < nc.e.len && nc.e.items[j2].id && !strcmp(nc.e.items[j2].id, a->id)) j2++;
        for (size_t x = i; x < i2; x++)
            for (size_t y = j; y < j2; y++) {
                ver_mask m = orest[x] & nrest[y];
                if (!m) continue;
                judge_one(jr, name, o, &oc.e.items[x].cur, n, &nc.e.items[y].cur, m, NULL);
                orest[x] &= ~m;
                nrest[y] &= ~m;
            }
        i = i2;
        j = j2;
    }
    /* what is left: removed (OLD only) and added (NEW only), in document order of each */
    for (size_t i = 0; i < oc.e.len; i++)
        if (orest[i])
            judge_one(jr, name, o, &oc.e.items[i].cur, n, NULL, orest[i],
                      renamed_from(&nc, nrest, oc.e.items[i].cur.v, member));
    for (size_t j = 0; j < nc.e.len; j++)
        if (nrest[j])
            judge_one(jr, name, o, NULL, n, &nc.e.items[j].cur, nrest[j],
                      renamed_from(&oc, orest, nc.e.items[j].cur.v, member));
    free(orest);
    free(nrest);
    VEC_FREE(oc.e);
    VEC_FREE(nc.e);
}

static void side_open(struct side *s, doc *d, const struct rule_set *rs)
{
    struct diag_list scratch = DIAG_LIST_INIT; /* resolution's own: validate reports those */
    s->d = d;
    s->res = res_resolve(d, rule_set_res_config(rs), &scratch);
    s->view = res_view(s->res);
    struct sel_ctx sc = {d, s->view};
    sel_root(&sc, &s->root);
    diag_list_release(&scratch);
}

void judge_diff(const struct rule_set *rs, doc *old, doc *new, const struct eval_options *opts,
                struct diag_list *out)
{
    unsigned char *need = eval_needed(rs, opts);
    struct judge_run jr = {rs, opts, need, out};
    struct side o = {0}, n = {0};
    if (old) side_open(&o, old, rs);
    if (new) side_open(&n, new, rs);
    /* the documents as one pair, then each collection a change rule compares */
    ver_mask docs = (old ? o.view->doc_mask : 0) | (new ? n.view->doc_mask : 0);
    judge_one(&jr, "document", old ? &o : NULL, old ? &o.root : NULL, new ? &n : NULL,
              new ? &n.root : NULL, docs, NULL);
    VEC(const char *) seen = VEC_INIT;
    for (size_t i = 0; old && new &&i < rule_set_count(rs); i++) {
        const char *compare = rule_compare(rule_set_rule(rs, i));
        if (!compare || !strcmp(compare, "document")) continue;
        size_t k = 0;
        while (k < seen.len && strcmp(seen.items[k], compare)) k++;
        if (k < seen.len) continue;
        VEC_PUSH(seen, compare);
        diff_collection(&jr, compare, &o, &n);
    }
    VEC_FREE(seen);
    res_free(o.res);
    res_free(n.res);
    free(need);
    diag_sort_merge(out);
}
