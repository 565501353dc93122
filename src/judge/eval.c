/* eval.c - the interpreter: clauses select nodes, guard them with `when`, judge them
 * with `require`, and report one diagnostic per failing node whose versions are all
 * the node's versions for which the clause applies (predicates do not depend on the
 * version, so one evaluation serves every version). */
#include "judge/eval.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/display.h"
#include "judge/eval_memo.h"
#include "judge/eval_message.h"
#include "judge/overlap.h"
#include "judge/pattern_note.h"
#include "base/ptr.h"
#include "resolve/res.h"
#include "rules/fn_text_skip.h"
#include "rules/ruleInt.h"
#include "base/val.h"

struct visit {
    struct eval_ctx *ctx;
    const struct clause *cl;
    ver_mask m;
    ver_mask failed;
};

static ver_mask run_clause(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m);

/* report-at: failure: the cursor of the value at ctx->at below C, as deep as the
 * document has it (a "required" failure names the object itself). The steps are
 * written into STEPS (ctx->at's segment count entries); returns the deepest cursor. */
static const struct cursor *failure_cursor(struct eval_ctx *ctx, const struct cursor *c,
                                           struct ptr *p, struct cursor **steps)
{
    const char *why;
    *steps = NULL;
    if (ptr_parse(buf_str(&ctx->at), p, &why) < 0 || !p->n) return c;
    *steps = xcalloc(p->n, sizeof **steps);
    for (size_t i = 0; i < p->n; i++) {
        size_t idx;
        int rc = json_is_array(c->v)
            ? (ptr_is_index(p->segs[i], &idx) ? sel_item(&ctx->sctx, c, idx, &(*steps)[i]) : -1)
            : sel_member(&ctx->sctx, c, p->segs[i], &(*steps)[i]);
        if (rc < 0) break;
        c = &(*steps)[i];
    }
    return c;
}

/* {related}: where the other documents' nodes stand, "FILE:LINE:COL" each, the first
 * three and "and N more"; NULL when the last predicate found none. */
static char *related_text(const struct eval_ctx *ctx)
{
    if (!ctx->related.len) return NULL;
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < ctx->related.len && i < 3; i++) {
        const struct fn_related *r = &ctx->related.items[i];
        struct doc_pos pos = doc_node_pos(r->d, r->node);
        buf_addf(&b, "%s%s:%u:%u", i ? ", " : "", doc_name(r->d), (unsigned)pos.line,
                 (unsigned)pos.col);
    }
    if (ctx->related.len > 3) buf_addf(&b, " and %zu more", ctx->related.len - 3);
    return buf_detach(&b);
}

/* The other documents' nodes the finding concerns, as its related places (diag.h), each
 * with its value when a string ("search", the name that collides). */
static void add_related(const struct eval_ctx *ctx, struct diag *dg)
{
    for (size_t i = 0; i < ctx->related.len; i++) {
        const struct fn_related *r = &ctx->related.items[i];
        struct doc_pos pos = doc_node_pos(r->d, r->node);
        struct buf what = BUF_INIT;
        if (json_is_string(r->v)) {
            buf_addc(&what, '"');
            display_add(&what, json_string_value(r->v), json_string_length(r->v));
            buf_addc(&what, '"');
        }
        diag_add_related(dg, doc_name(r->d), pos.line, pos.col, r->pointer,
                         what.len ? buf_str(&what) : NULL);
        buf_release(&what);
    }
}

/* The place on the other side of a pair for C (a node of the side being judged): the
 * node at C's place there, or the nearest place that side has (its item, or for a side
 * without the item its collection, else its root). Fills *POS and returns its pointer
 * (new). */
static char *pair_other_place(struct eval_ctx *ctx, const struct cursor *c, struct doc_pos *pos)
{
    const struct rule_pair_side *other = fn_pair_other(ctx);
    struct sel_ctx sc = {other->d, other->view};
    struct cursor *steps = xcalloc((size_t)c->depth + 1, sizeof *steps), root, coll;
    const struct cursor *at = NULL;
    if (fn_pair_counterpart(ctx, c, steps, (size_t)c->depth + 1, &at) < 0) {
        const struct cursor *item = eval_enclosing_item(c);
        sel_root(&sc, &root);
        at = &root;
        if (item && sel_member(&sc, &root, item->parent->key, &coll) == 0) at = &coll;
    }
    *pos = doc_node_pos(other->d, at->node);
    char *pointer = sel_pointer(at);
    free(steps);
    return pointer;
}

/* A pair's finding stands in NEW, where SARIF and annotations put it: at C when C is a
 * node of NEW, else at the nearest place NEW has (a removed tool: NEW's /tools). The
 * place in OLD is its related place. A removal or addition whose other side has an item
 * of another name and the same schemas gets a "renamed?" hint (judge/judge_diff.c finds it). */
static void pair_place(struct eval_ctx *ctx, const struct cursor *c, struct diag *dg)
{
    const struct rule_pair_side *other = fn_pair_other(ctx);
    const char *member;
    const struct cursor *item = eval_enclosing_item(c);
    dg->item_kind = xstrdup(eval_item_kind(item, &member));
    const char *name = item ? json_string_value(json_object_get(item->v, member)) : NULL;
    dg->item_name = name ? xstrdup(name) : NULL;
    if (!other->d) return; /* a description added or removed: its own place is all */
    struct doc_pos pos;
    char *pointer = pair_other_place(ctx, c, &pos);
    if (ctx->side == RULE_SIDE_OLD) {
        diag_add_related(dg, dg->file, dg->line, dg->col, dg->pointer, "old");
        free(dg->file);
        free(dg->pointer);
        dg->file = xstrdup(doc_name(other->d));
        dg->line = pos.line;
        dg->col = pos.col;
        dg->pointer = pointer;
        dg->has_match = 0;
        dg->component = (free(dg->component), NULL);
    } else {
        diag_add_related(dg, doc_name(other->d), pos.line, pos.col, pointer, "old");
        free(pointer);
    }
    const char *renamed = ctx->pair->renamed;
    if (renamed && (!ctx->pair->old.item || !ctx->pair->new.item)) {
        char *h = xasprintf("renamed? %s \"%s\" %s has the same schemas%s%s",
                            ctx->pair->new.item ? "the old" : "the new", renamed,
                            ctx->pair->new.item ? "(removed)" : "(added)", dg->hint ? "; " : "",
                            dg->hint ? dg->hint : "");
        free(dg->hint);
        dg->hint = h;
    }
}

static void report_one(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                       ver_mask m)
{
    struct ptr at = PTR_INIT;
    struct cursor *steps = NULL;
    if (cl->at_failure && ctx->at.len) c = failure_cursor(ctx, c, &at, &steps);
    const struct rule *r = ctx->rule;
    const struct ver_list *vl = rule_set_versions(ctx->rs);
    char *pointer = sel_pointer(c);
    struct found f = eval_found_text(ctx, c); /* before a fix's `when` records another */
    char *related = related_text(ctx);
    f.related = related;
    char *msg = eval_expand(cl->message, c, pointer, m, vl, &ctx->detail, &f);
    /* a member name's text node (texts.h) stands at its key */
    struct doc_pos pos = c->is_key ? doc_node_key_pos(ctx->sctx.d, c->node)
                                   : doc_node_pos(ctx->sctx.d, c->node),
                   end;
    int at_match = cl->at_match && eval_found_pos(ctx, c, &f, &pos, &end) == 0;
    struct diag *dg =
        diag_add(ctx->out, r->level, r->id, doc_name(ctx->sctx.d), pos.line, pos.col, msg);
    dg->pointer = pointer;
    dg->versions = m;
    if (at_match) {
        dg->has_match = 1;
        dg->match_off = f.off;
        dg->match_len = f.len;
        dg->end_line = end.line;
        dg->end_col = end.col;
    }
    dg->hint = cl->hint ? eval_expand(cl->hint, c, pointer, m, vl, &ctx->detail, &f) : NULL;
    dg->component = c->component ? xstrdup(c->component) : NULL;
    add_related(ctx, dg);
    if (ctx->pair) pair_place(ctx, c, dg);
    /* the fix: never through a component (the edit would go to a definition other
     * references share); the first of the clause's fixes whose `when` holds */
    for (size_t i = 0; !c->component && !c->is_key && !ctx->pair && i < cl->nfixes; i++) {
        const struct rule_fix *fx = cl->fixes[i];
        if (fx->when && !fn_eval(fx->when, c, ctx)) continue;
        dg = &ctx->out->items[ctx->out->len - 1];
        dg->fix = fx;
        dg->fix_title = eval_expand(fx->title, c, pointer, m, vl, &ctx->detail, &f);
        break;
    }
    free(msg);
    free(related);
    free(steps);
    ptr_release(&at);
}

/* One diagnostic, or with report-at: failure one at each place the predicate failed. */
static void report(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                   ver_mask m)
{
    if (!cl->at_failure || !fn_places_current(ctx)) {
        report_one(ctx, cl, c, m);
        return;
    }
    for (size_t i = 0; i < ctx->places.len; i++) {
        buf_reset(&ctx->at);
        buf_adds(&ctx->at, ctx->places.items[i].at);
        buf_reset(&ctx->detail);
        buf_adds(&ctx->detail, ctx->places.items[i].detail);
        report_one(ctx, cl, c, m);
    }
}

/* One run of eval_document: the context the predicates see, and the caller's options
 * (for the judged callback). */
struct eval_run {
    struct eval_ctx ctx; /* first: judge() finds the run from its context */
    const struct eval_options *opts;
    struct eval_stats stats; /* this context's (eval_options.stats: the document's, summed) */
};

static ver_mask judge_node(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m);

static ver_mask judge(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                      ver_mask m)
{
    m &= c->vmask;
    if (!m || c->unresolved) return 0; /* its built-in diagnostic says it all */
    if (cl->when && !fn_eval(cl->when, c, ctx)) return 0;
    const struct eval_options *o = ((struct eval_run *)ctx)->opts;
    ver_mask failed = judge_node(ctx, cl, c, m);
    if (o && o->judged) {
        char *pointer = sel_pointer(c);
        o->judged(ctx->rule, pointer, cl->at_failure && cl->require, m, failed, o->judged_arg);
        free(pointer);
    }
    return failed;
}

/* judge() once `when` held: require, or the kids. */
static ver_mask judge_node(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m)
{
    if (cl->require) {
        /* what an earlier judgement left (most leave nothing: rules over every text) */
        if (ctx->detail.len) buf_reset(&ctx->detail);
        if (ctx->at.len) buf_reset(&ctx->at);
        if (ctx->places.len || ctx->places_summary) fn_places_reset(ctx);
        ctx->match.set = 0;
        ctx->related.len = 0;
        ctx->narrow = ~(ver_mask)0;
        if (fn_eval(cl->require, c, ctx)) return 0;
        m &= ctx->narrow;
        if (!m) return 0;
        report(ctx, cl, c, m);
        return m;
    }
    ver_mask failed = 0, remaining = m;
    for (size_t i = 0; i < cl->nkids && remaining; i++) {
        ver_mask f = run_clause(ctx, cl->kids[i], c, cl->first ? remaining : m);
        failed |= f;
        if (cl->first) remaining &= ~f;
    }
    return failed;
}

static int visit(const struct cursor *c, void *arg)
{
    struct visit *v = arg;
    v->failed |= judge(v->ctx, v->cl, c, v->m);
    return 0;
}

/* What judge_item_texts asks of a {texts: item} clause's require, found once for a run
 * of items (a block of the walk keeps one per unit, side by side: read from the program
 * for every item and rule, the clause, its require and the predicate's table row each
 * missed the cache). SKIP: nodes may be left out (not under rules test's callback, which
 * sees every node); Q: the require's question in the context's texts cache, or -1;
 * MAY_HOLD and KID: the facts' test of its predicate (fn_text_may_hold_of), or NULL. */
struct texts_probe {
    int skip, q;
    uint64_t bit; /* 1 << Q when Q >= 0 */
    fn_text_may_hold_fn *may_hold;
    const struct pred *kid;
};

static struct texts_probe texts_probe_of(struct eval_ctx *ctx, const struct clause *cl)
{
    const struct eval_options *o = ((struct eval_run *)ctx)->opts;
    struct texts_probe tp = {!(o && o->judged), -1, 0, NULL, NULL};
    if (tp.skip && fn_text_verdict_worth(cl->require)) tp.q = texts_cache_question(&ctx->texts, cl);
    if (tp.q >= 0) tp.bit = (uint64_t)1 << tp.q;
    if (tp.skip) tp.may_hold = fn_text_may_hold_of(cl->require, &tp.kid);
    return tp;
}

/* Does CL's require surely hold on text node C, whose string's verdicts V (or NULL) keep
 * the require's answer as BIT? Answered from V, else by the facts' test MAY_HOLD of KID
 * (texts_probe; with C's SCRATCH, or NULL), else by fn_text_holds, which records the
 * answer in V. */
static inline int text_settled(const struct clause *cl, const struct pred *kid,
                               fn_text_may_hold_fn *may_hold, const struct cursor *c,
                               struct texts_verdict *v, uint64_t bit,
                               struct fn_text_scratch *scratch, struct eval_ctx *ctx)
{
    if (v && (v->known & bit)) return (v->yes & bit) != 0; /* most nodes: one test */
    if (may_hold && (c->text_facts & SEL_TEXT_FACTS) && !may_hold(kid, c, scratch)) {
        if (v) v->known |= bit, v->yes |= bit;
        return 1;
    }
    return fn_text_holds(cl->require, cl->when, c, v, bit, ctx);
}

/* {texts: item}: every text node of ITEM, its list walked once for every rule (texts.h);
 * TP: texts_probe_of CL in CTX. */
static ver_mask judge_item_texts(struct eval_ctx *ctx, const struct clause *cl,
                                 const struct cursor *item, ver_mask m,
                                 const struct texts_probe *tp)
{
    /* the answers on a string, kept for its next nodes (fn_text_skip.h) */
    struct texts_verdict *const *verdicts = NULL;
    uint64_t bit = 0;
    int skip = tp->skip, q = tp->q;
    /* without the texts whose string answered YES to Q and every question before it */
    const struct texts_list *l =
        texts_cache_item_for(&ctx->texts, rule_set_texts(ctx->rs), &ctx->sctx, item, q);
    if (q >= 0) {
        verdicts = texts_cache_verdicts(&ctx->texts, l);
        bit = (uint64_t)1 << q;
    }
    /* the nodes whose string may not hold (texts_cache_open), else every node */
    size_t n = l->nodes.len;
    const uint32_t *open = verdicts ? texts_cache_open(&ctx->texts, l, q, &n) : NULL;
    /* the facts' test of the require's predicate, called directly: most nodes left are
     * strings met once, settled by it (fn_text_holds would answer and record the same) */
    const struct pred *kid = tp->kid;
    fn_text_may_hold_fn *may_hold = tp->may_hold;
    ver_mask failed = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = open ? open[k] : k;
        const struct cursor *c = l->nodes.items[i];
        struct texts_verdict *v = verdicts ? verdicts[i] : NULL;
        if (verdicts ? text_settled(cl, kid, may_hold, c, v, bit, NULL, ctx)
                     : (may_hold && (c->text_facts & SEL_TEXT_FACTS) && !may_hold(kid, c, NULL)) ||
                    (skip && fn_text_surely_holds(cl->require, c)))
            continue;
        failed |= judge(ctx, cl, c, m);
    }
    return failed;
}

/* A {texts: ...} clause from C: the document's texts; the texts of every item of the
 * declared collections from the root (those of at least SKIP_LARGE items left out: a
 * collection walk judges them), of C's own when C is an item. */
static ver_mask run_texts(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                          ver_mask m, size_t skip_large)
{
    const struct texts_spec *spec = rule_set_texts(ctx->rs);
    ver_mask failed = 0;
    if (!spec) return 0;
    /* {texts: all}: the document's texts when judged from the root, then the items' */
    if (cl->texts == RULE_TEXTS_DOCUMENT || (cl->texts == RULE_TEXTS_ALL && !c->depth)) {
        struct cursor root;
        sel_root(&ctx->sctx, &root);
        const struct texts_list *l = texts_cache_document(&ctx->texts, spec, &ctx->sctx, &root);
        for (size_t i = 0; i < l->nodes.len; i++) failed |= judge(ctx, cl, l->nodes.items[i], m);
        if (cl->texts == RULE_TEXTS_DOCUMENT) return failed;
    }
    struct texts_probe tp;
    if (c->depth == 2 && !c->key && c->parent && texts_spec_coll(spec, c->parent->key)) {
        tp = texts_probe_of(ctx, cl);
        return judge_item_texts(ctx, cl, c, m, &tp);
    }
    if (c->depth) return 0;
    int probed = 0; /* a question numbered only for a clause that judges an item */
    for (size_t k = 0; k < spec->item.len; k++) {
        struct cursor coll, item;
        if (sel_member(&ctx->sctx, c, spec->item.items[k].name, &coll) < 0) continue;
        size_t n = json_is_array(coll.v) ? json_array_size(coll.v) : 0;
        if (skip_large && n >= skip_large) continue;
        for (size_t i = 0; i < n && sel_item(&ctx->sctx, &coll, i, &item) == 0; i++) {
            if (!probed) tp = texts_probe_of(ctx, cl), probed = 1;
            failed |= judge_item_texts(ctx, cl, &item, m, &tp);
        }
    }
    return failed;
}

/* A change rule's {old: SEL} or {new: SEL} selection: SEL from that side's item of the
 * pair (nothing when the side has none), with that side's document in view. */
static void run_side(struct eval_ctx *ctx, const struct sel *sel, int side, struct visit *v)
{
    const struct rule_pair *pr = ctx->pair;
    const struct rule_pair_side *ps = !pr ? NULL : side == RULE_SIDE_OLD ? &pr->old : &pr->new;
    if (!ps || !ps->item) return;
    struct sel_ctx saved = ctx->sctx;
    int saved_side = ctx->side;
    ctx->sctx = (struct sel_ctx){ps->d, ps->view};
    ctx->side = side;
    sel_run(sel, &ctx->sctx, ps->item, visit, v);
    ctx->sctx = saved;
    ctx->side = saved_side;
}

/* C is NULL in a pair without a new item (a removed one): only {old: SEL} selects. */
static ver_mask run_clause(struct eval_ctx *ctx, const struct clause *cl, const struct cursor *c,
                           ver_mask m)
{
    m &= cl->vmask;
    if (!m) return 0;
    if (cl->texts) return c ? run_texts(ctx, cl, c, m, 0) : 0;
    if (!cl->nsels) return c ? judge(ctx, cl, c, m) : 0;
    struct visit v = {ctx, cl, m, 0};
    const struct eval_options *o = ((struct eval_run *)ctx)->opts;
    if (c && !cl->sel_sides && cl->nsels > 1 && !(o && o->judged)) {
        /* a "**" then anyOf, oneOf...: one walk (rules test's callback sees the old order) */
        sel_run_alt((const struct sel *const *)cl->sels, cl->nsels, &ctx->sctx, c, visit, &v);
        return v.failed;
    }
    for (size_t i = 0; i < cl->nsels; i++) {
        int side = cl->sel_sides ? cl->sel_sides[i] : RULE_SIDE_NONE;
        if (side) run_side(ctx, cl->sels[i], side, &v);
        else if (c) sel_run(cl->sels[i], &ctx->sctx, c, visit, &v);
    }
    return v.failed;
}

/* ---- one walk of each collection for all its rules ----------------------------------
 * Most rules select inside the items of a collection (every tool, then a path). Run
 * rule by rule, each rule walks every item again, and on a 10,000-tool document the
 * walks are memory-bound: the items no longer fit in the cache. So every such rule
 * judges an item while it is still in the cache: items outside, rules inside. Each rule
 * keeps its own diagnostic list, joined in rule order at the end, so the result is the
 * same as rule by rule (tests compare the two: eval_options.group_min). Every collection
 * is walked, whatever its size (GROUP_MIN): the walk costs nothing measurable on a small
 * document, and a "**" below an item is then bounded per item in every document. */

#define GROUP_MIN 1

/* What a rule does, split where it helps: a selector of a collection is judged item by
 * item with every other (GROUP), anything else as before. */
enum unit_kind {
    UNIT_WHOLE, /* the rule's check, from the root */
    UNIT_ROOT,  /* a selector-less clause judged at the root */
    UNIT_SEL,   /* a clause's selector, from the root */
    UNIT_GROUP, /* a clause's selector inside the items of a collection */
    UNIT_TEXTS  /* a {texts: item} clause over the collections too small for a walk */
};

struct unit {
    enum unit_kind kind;
    size_t rule; /* index in the rule set */
    const struct clause *cl;
    ver_mask m;            /* versions judged */
    const struct sel *sel; /* UNIT_SEL */
    struct sel *rest;      /* UNIT_GROUP: the selector after "/KEY/STAR" (owned), or
                               * NULL: the item itself */
    size_t key;            /* UNIT_GROUP: index in plan.keys */
    int texts;             /* UNIT_GROUP: the item's texts ({texts: item}), then
                            * 1 + fn_text_verdict_worth of its require */
    /* UNIT_GROUP with REST: the next unit of the same collection with the same selector
     * (its walk is shared: the first unit's walk judges every node for all of them), or
     * SHARE_NONE; SHARED: an earlier unit's walk serves this one */
    size_t share_next;
    int shared;
};

#define SHARE_NONE ((size_t)-1)

struct plan {
    VEC(struct unit) u;             /* in rule order */
    VEC(char *) keys;               /* the collections walked once */
    const struct texts_spec *texts; /* the set's texts declaration, or NULL */
    size_t group_min;               /* the least items of a collection walked */
    /* the index in KEYS of "tools" when the walk also makes the built-in pattern notes
     * of each tool (into the slot after the rules': pattern_note_item), else SIZE_MAX;
     * for the versions NOTES_WANT */
    size_t notes_key;
    ver_mask notes_want;
    int deep; /* split grouping clauses below the top (plan_parts) */
};

/* If S is "/KEY/STAR..." (STAR the wildcard "*" or "[*]", the same on an array) where KEY
 * is a large array of the document: 1, the key (new) and the text after STAR (borrowed).
 * A "**" after STAR then walks one item at a time, its bound (SEL_DEEP_MAX_NODES) each
 * item's: over the whole collection at once, a large document's later items would be
 * past it. */
static int group_key(const struct sel *s, json_t *root, size_t min, char **key, const char **rest)
{
    if (!sel_is_absolute(s)) return 0;
    const char *text = sel_text(s);
    struct ptr p = PTR_INIT;
    const char *why;
    int ok = ptr_parse(text, &p, &why) == 0 && p.n >= 2 &&
        (!strcmp(p.segs[1], "*") || !strcmp(p.segs[1], SEL_ITEMS));
    ok = ok && strcmp(p.segs[0], "**");
    json_t *arr = ok ? json_object_get(root, p.segs[0]) : NULL;
    ok = ok && json_is_array(arr) && json_array_size(arr) >= min;
    if (ok) {
        *key = xstrdup(p.segs[0]);
        const char *star = strchr(text + 1, '/'); /* raw segments never hold '/' */
        const char *after = star + 1 + strlen(p.segs[1]);
        *rest = *after ? after + 1 : NULL; /* after "/STAR": "" or "/rest" */
    }
    ptr_release(&p);
    return ok;
}

static void plan_add(struct plan *pl, enum unit_kind kind, size_t rule, const struct clause *cl,
                     ver_mask m, const struct sel *sel)
{
    struct unit u = {kind, rule, cl, m, sel, NULL, 0, 0, SHARE_NONE, 0};
    VEC_PUSH(pl->u, u);
}

/* The index in PL->keys of collection KEY (added when new; KEY stolen). */
static size_t plan_key(struct plan *pl, char *key)
{
    size_t ki = 0;
    while (ki < pl->keys.len && strcmp(pl->keys.items[ki], key)) ki++;
    if (ki == pl->keys.len) VEC_PUSH(pl->keys, key);
    else free(key);
    return ki;
}

/* A {texts: item} clause: the items of each large declared collection judged in its walk
 * (one text list per item, shared by every such rule), the rest from the root. A
 * {texts: document} clause is judged whole. */
static void plan_texts(struct plan *pl, size_t rule, const struct clause *cl, ver_mask m,
                       json_t *root)
{
    if (cl->texts == RULE_TEXTS_DOCUMENT || !pl->texts) {
        plan_add(pl, UNIT_WHOLE, rule, cl, m, NULL);
        return;
    }
    for (size_t k = 0; k < pl->texts->item.len; k++) {
        const char *name = pl->texts->item.items[k].name;
        json_t *arr = json_object_get(root, name);
        if (!json_is_array(arr) || json_array_size(arr) < pl->group_min) continue;
        struct unit u = {UNIT_GROUP,
                         rule,
                         cl,
                         m,
                         NULL,
                         NULL,
                         plan_key(pl, xstrdup(name)),
                         1 + fn_text_verdict_worth(cl->require),
                         SHARE_NONE,
                         0};
        VEC_PUSH(pl->u, u);
    }
    plan_add(pl, UNIT_TEXTS, rule, cl, m, NULL);
}

/* Clause CL with selectors, judged for M: one unit per selector. */
static void plan_clause(struct plan *pl, size_t rule, const struct clause *cl, ver_mask m,
                        json_t *root)
{
    if (cl->texts) {
        plan_texts(pl, rule, cl, m, root);
        return;
    }
    for (size_t i = 0; m && i < cl->nsels; i++) {
        char *key;
        const char *rest, *why;
        struct sel *tail = NULL;
        if (!group_key(cl->sels[i], root, pl->group_min, &key, &rest)) {
            plan_add(pl, UNIT_SEL, rule, cl, m, cl->sels[i]);
            continue;
        }
        if (rest && !(tail = sel_compile(rest, &why))) {
            free(key);
            plan_add(pl, UNIT_SEL, rule, cl, m, cl->sels[i]);
            continue;
        }
        struct unit u = {UNIT_GROUP, rule, cl, m, NULL, tail, plan_key(pl, key), 0, SHARE_NONE, 0};
        VEC_PUSH(pl->u, u);
    }
}

/* Does CL only group its kids (no selectors, when, require or first)? */
static int only_parts(const struct clause *cl)
{
    return !cl->nsels && !cl->texts && !cl->when && !cl->require && !cl->first && cl->nkids;
}

/* The kids of CL (only_parts, judged at the root for M), planned one by one: a kid with
 * selectors joins the walk; a kid that only groups its own kids (an `all` under
 * `versions`) is split in turn, unless rules test watches each clause judged (its
 * callback names the grouping clause too) or DEPTH is 8; any other is judged at ROOT. */
static void plan_parts(struct plan *pl, size_t i, const struct clause *cl, ver_mask m, json_t *root,
                       int depth)
{
    for (size_t k = 0; m && k < cl->nkids; k++) {
        const struct clause *kid = cl->kids[k];
        ver_mask km = m & kid->vmask;
        if (!km) continue;
        if (kid->nsels || kid->texts) plan_clause(pl, i, kid, km, root);
        else if (pl->deep && depth < 8 && only_parts(kid))
            plan_parts(pl, i, kid, km, root, depth + 1);
        else plan_add(pl, UNIT_ROOT, i, kid, km, NULL);
    }
}

/* Split rule I (judged for M) the way run_clause would run it from ROOT. A check
 * without selectors whose parts are independent (no when, require or first) is split
 * into its parts; their own selectors then join the walk. */
static void plan_rule(struct plan *pl, size_t i, const struct clause *top, ver_mask m,
                      const struct cursor *root)
{
    m &= top->vmask;
    if (!m) return;
    if (top->nsels || top->texts) {
        plan_clause(pl, i, top, m, root->v);
        return;
    }
    if (top->when || top->require || top->first || !top->nkids) {
        plan_add(pl, UNIT_WHOLE, i, top, m, NULL);
        return;
    }
    m &= root->vmask; /* judge() at the root */
    plan_parts(pl, i, top, m, root->v, 0);
}

static void plan_release(struct plan *pl)
{
    for (size_t i = 0; i < pl->u.len; i++) sel_free(pl->u.items[i].rest);
    for (size_t i = 0; i < pl->keys.len; i++) free(pl->keys.items[i]);
    VEC_FREE(pl->u);
    VEC_FREE(pl->keys);
}

/* Units that select the same nodes of an item share one walk (the nine x-mcp-header rules
 * walk each input schema once): link each GROUP unit to the next with the same collection
 * and selector text. */
static void plan_share(struct plan *pl)
{
    for (size_t n = 0; n < pl->u.len; n++) {
        struct unit *u = &pl->u.items[n];
        if (u->kind != UNIT_GROUP || !u->rest || u->shared) continue;
        struct unit *last = u;
        for (size_t k = n + 1; k < pl->u.len; k++) {
            struct unit *o = &pl->u.items[k];
            if (o->kind != UNIT_GROUP || !o->rest || o->key != u->key ||
                strcmp(sel_text(o->rest), sel_text(u->rest)))
                continue;
            o->shared = 1;
            last->share_next = k;
            last = o;
        }
    }
}

/* Does the document have a collection large enough for the walk to pay? */
static int has_large_array(json_t *root, size_t min)
{
    json_t *v;
    const char *k;
    json_object_foreach(root, k, v) if (json_is_array(v) && json_array_size(v) >= min) return 1;
    return 0;
}

static void unit_use(struct eval_ctx *ctx, const struct rule_set *rs, const struct unit *u,
                     struct diag_list *per_rule)
{
    ctx->rule = rule_set_rule(rs, u->rule);
    ctx->out = &per_rule[u->rule];
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Run unit U on C (ROOT for the units outside the walk), timed into RULE_NS if set. */
static void unit_run(const struct plan *pl, struct eval_ctx *ctx, const struct unit *u,
                     const struct cursor *c, _Atomic uint64_t *rule_ns)
{
    uint64_t t0 = rule_ns ? now_ns() : 0;
    if (u->kind == UNIT_TEXTS) { /* GROUP units: the walk's block_unit_run */
        run_texts(ctx, u->cl, c, u->m, pl->group_min);
    } else if (u->kind == UNIT_WHOLE) {
        run_clause(ctx, u->cl, c, u->m);
    } else if (u->kind == UNIT_ROOT) {
        judge(ctx, u->cl, c, u->m);
    } else {
        struct visit v = {ctx, u->cl, u->m, 0};
        sel_run(u->sel, &ctx->sctx, c, visit, &v);
    }
    if (rule_ns) atomic_fetch_add(&rule_ns[u->rule], now_ns() - t0);
}

/* What a run's context holds once its rules have run: the indexes, the detail, the places,
 * the related places (one document's run, or one pair's). */
static void eval_ctx_release(struct eval_ctx *ctx)
{
    fn_indexes_free(ctx);
    buf_release(&ctx->detail);
    buf_release(&ctx->at);
    fn_places_reset(ctx);
    VEC_FREE(ctx->places);
    VEC_FREE(ctx->related);
}

/* ---- the walk on several threads -------------------------------------------------
 * The walk is cut into blocks of consecutive items; workers (this thread and
 * eval_options.workers - 1 more) take the blocks in order from a shared counter, each with
 * a context of its own (indexes, memo, texts, details). Each block keeps its own per-rule
 * lists, joined in block order at the end: the same lists, in the same order, as one
 * thread's walk, so the output does not depend on the number of workers. */
struct walk_block {
    size_t key;                 /* index in plan.keys */
    size_t lo, hi;              /* items [lo, hi) of that collection */
    struct diag_list *per_rule; /* one list per rule of the set */
};

struct walk_job {
    const struct plan *pl;
    const struct rule_set *rs;
    const struct eval_run *proto; /* the document's run: what a worker's context copies */
    const struct cursor *root;
    struct walk_block *blocks;
    size_t nblocks;
    _Atomic size_t next;              /* the next block to take */
    _Atomic unsigned long texts_runs; /* the workers' stats, each added once it is done */
    _Atomic uint64_t *rule_ns;
    struct memo_run *memo; /* the findings of unchanged items, or NULL */
};

/* One walk of a selector that several units share, from an item. */
struct visit_shared {
    const struct walk_job *j;
    struct eval_ctx *ctx;
    size_t first;               /* the first unit of the chain (plan.u) */
    struct diag_list *per_rule; /* the block's */
    uint64_t judged_ns;         /* --timing: the time spent judging for the later units */
    const unsigned char *skip;  /* per rule: its findings on this item came from the memo */
};

static int visit_shared_node(const struct cursor *c, void *arg)
{
    struct visit_shared *vs = arg;
    const struct plan *pl = vs->j->pl;
    for (size_t n = vs->first; n != SHARE_NONE; n = pl->u.items[n].share_next) {
        const struct unit *u = &pl->u.items[n];
        if (vs->skip && vs->skip[u->rule]) continue;
        uint64_t t0 = vs->j->rule_ns && n != vs->first ? now_ns() : 0;
        unit_use(vs->ctx, vs->j->rs, u, vs->per_rule);
        judge(vs->ctx, u->cl, c, u->m);
        if (t0) {
            uint64_t t = now_ns() - t0;
            atomic_fetch_add(&vs->j->rule_ns[u->rule], t);
            vs->judged_ns += t;
        }
    }
    return 0;
}

/* The units chained from unit FIRST, judged in one walk of their selector from ITEM; the
 * walk itself is timed to the first unit's rule. */
static void walk_shared(const struct walk_job *j, struct eval_ctx *ctx, size_t first,
                        const struct cursor *item, struct diag_list *per_rule,
                        const unsigned char *skip)
{
    const struct unit *u = &j->pl->u.items[first];
    size_t n = first;
    while (n != SHARE_NONE && skip && skip[j->pl->u.items[n].rule])
        n = j->pl->u.items[n].share_next;
    if (n == SHARE_NONE) return; /* every unit's findings came from the memo */
    struct visit_shared vs = {j, ctx, first, per_rule, 0, skip};
    uint64_t t0 = j->rule_ns ? now_ns() : 0;
    sel_run(u->rest, &ctx->sctx, item, visit_shared_node, &vs);
    if (t0) atomic_fetch_add(&j->rule_ns[u->rule], now_ns() - t0 - vs.judged_ns);
}

/* Did a unit of the chain from unit FIRST (or unit FIRST alone: CHAIN 0) just read
 * beyond the item for a rule whose findings the memo may keep? */
static int escaped_kept(const struct walk_job *j, const struct eval_ctx *ctx, size_t first,
                        int chain)
{
    if (!ctx->escaped) return 0;
    for (size_t n = first; n != SHARE_NONE; n = chain ? j->pl->u.items[n].share_next : SHARE_NONE)
        if (eval_memo_rule_kept(j->memo, j->pl->u.items[n].rule)) return 1;
    return 0;
}

/* A GROUP unit of a block's collection, as the block's item loop reads it: its clause,
 * rule (record and index), versions, the selector after the item (REST, or NULL: the item
 * itself), its index N in plan.u; TEXTS: a {texts: item} unit, TP its probe in the
 * block's context. */
struct block_unit {
    const struct clause *cl;
    const struct rule *r;
    const struct sel *rest;
    ver_mask m;
    size_t n, rule;
    int texts;
    struct texts_probe tp;
};

/* What the item loop does, in plan order: one unit; a chain of units that share a walk
 * (walk_shared, from unit FIRST); or a run of COUNT text units judged node by node. */
enum step_kind { STEP_UNIT, STEP_CHAIN, STEP_RUN };
struct block_step {
    enum step_kind kind;
    size_t first, count;
};

/* Can block unit BU join a run of text units judged node by node (judge_texts_run)? A
 * {texts: item} unit with a question (not under rules test's callback). */
static int texts_runnable(const struct block_unit *bu)
{
    return bu->texts && bu->tp.q >= 0;
}

/* The text units US[0 .. NU) (texts_runnable, consecutive in the plan) on ITEM, node by
 * node: each open node's string, facts and verdicts read once for every unit rather than
 * once per unit, and the item's list and open nodes found once. The same nodes are
 * judged for each rule, in the same order, into its own list (PER_RULE), as unit by unit.
 * 0, or -1 when the item's list left out texts one of the units may need (then nothing
 * was judged: the caller runs them one by one). */
static int judge_texts_run(struct eval_ctx *ctx, const struct block_unit *us, size_t nu,
                           const struct cursor *item, struct diag_list *per_rule)
{
    const struct texts_list *l =
        texts_cache_item_for(&ctx->texts, rule_set_texts(ctx->rs), &ctx->sctx, item, us[0].tp.q);
    for (size_t u = 1; u < nu; u++)
        if (l->has_skips && !(l->skipped_for >> us[u].tp.q & 1)) return -1;
    struct texts_verdict *const *verdicts = texts_cache_verdicts(&ctx->texts, l);
    /* the open nodes, when every unit's question was numbered before they were found */
    size_t n = l->nodes.len, open_n;
    const uint32_t *open = texts_cache_open(&ctx->texts, l, us[0].tp.q, &open_n);
    for (size_t u = 1; open && u < nu; u++) /* as texts_cache_open would answer */
        if (!(l->open_for >> us[u].tp.q & 1)) open = NULL;
    if (open) n = open_n;
    for (size_t k = 0; k < n; k++) {
        size_t i = open ? open[k] : k;
        const struct cursor *c = l->nodes.items[i];
        struct texts_verdict *v = verdicts[i];
        struct fn_text_scratch scratch; /* what the units' tests share on C */
        fn_text_scratch_clear(&scratch);
        for (size_t u = 0; u < nu; u++) {
            const struct block_unit *bu = &us[u];
            if (text_settled(bu->cl, bu->tp.kid, bu->tp.may_hold, c, v, bu->tp.bit, &scratch, ctx))
                continue;
            ctx->rule = bu->r; /* only judge reads them (the predicates never do) */
            ctx->out = &per_rule[bu->rule];
            judge(ctx, bu->cl, c, bu->m);
        }
    }
    ((struct eval_run *)ctx)->stats.texts_runs++;
    return 0;
}

/* Block unit BU on ITEM, as unit_run runs a GROUP unit (timed into RULE_NS if set). */
static void block_unit_run(struct eval_ctx *ctx, const struct block_unit *bu,
                           const struct cursor *item, _Atomic uint64_t *rule_ns)
{
    uint64_t t0 = rule_ns ? now_ns() : 0;
    if (bu->texts) {
        judge_item_texts(ctx, bu->cl, item, bu->m, &bu->tp);
    } else if (!bu->rest) {
        judge(ctx, bu->cl, item, bu->m);
    } else {
        struct visit v = {ctx, bu->cl, bu->m, 0};
        sel_run(bu->rest, &ctx->sctx, item, visit, &v);
    }
    if (rule_ns) atomic_fetch_add(&rule_ns[bu->rule], now_ns() - t0);
}

/* The units of block B's collection in CTX, once per block with what the item loop reads
 * of them (reading the plan's units, rules, clauses and predicates again for every item
 * missed the cache), into *UNITS; the steps over them into *STEPS; returns their number. */
static size_t block_steps(const struct walk_job *j, struct eval_ctx *ctx,
                          const struct walk_block *b, struct block_unit **units,
                          struct block_step **steps)
{
    const struct plan *pl = j->pl;
    struct block_unit *us = *units = xmalloc((pl->u.len + 1) * sizeof *us);
    struct block_step *st = *steps = xmalloc((pl->u.len + 1) * sizeof *st);
    size_t nu = 0, ns = 0;
    for (size_t n = 0; n < pl->u.len; n++) {
        const struct unit *u = &pl->u.items[n];
        if (u->kind != UNIT_GROUP || u->key != b->key || u->shared) continue;
        struct block_unit *bu = &us[nu];
        *bu = (struct block_unit){
            u->cl,         rule_set_rule(j->rs, u->rule), u->rest, u->m, n, u->rule,
            u->texts != 0, {0, -1, 0, NULL, NULL}};
        if (bu->texts) bu->tp = texts_probe_of(ctx, u->cl);
        /* a run of text units, node by node (neither timed per rule nor memoized) */
        int runnable = !j->memo && !j->rule_ns && u->share_next == SHARE_NONE && texts_runnable(bu);
        if (runnable && ns && st[ns - 1].kind == STEP_RUN &&
            st[ns - 1].first + st[ns - 1].count == nu)
            st[ns - 1].count++;
        else
            st[ns++] = (struct block_step){u->share_next != SHARE_NONE ? STEP_CHAIN
                                               : runnable              ? STEP_RUN
                                                                       : STEP_UNIT,
                                           nu, 1};
        nu++;
    }
    for (size_t k = 0; k < ns; k++) /* a run of one is a unit */
        if (st[k].kind == STEP_RUN && st[k].count == 1) st[k].kind = STEP_UNIT;
    return ns;
}

/* Judge the items of block B with CTX: every GROUP unit of its collection, item by item. */
static void walk_block_run(const struct walk_job *j, struct eval_ctx *ctx,
                           const struct cursor *root, const struct walk_block *b)
{
    const struct plan *pl = j->pl;
    struct cursor coll, item;
    if (sel_member(&ctx->sctx, root, pl->keys.items[b->key], &coll) < 0) return;
    size_t nrules = rule_set_count(j->rs), notes = nrules; /* the slot after the rules' */
    const unsigned char *local = j->memo ? eval_memo_run_local(j->memo) : NULL;
    size_t *mark = j->memo ? xcalloc(nrules + 1, sizeof *mark) : NULL;
    struct block_unit *units;
    struct block_step *steps;
    size_t nsteps = block_steps(j, ctx, b, &units, &steps);
    for (size_t i = b->lo; i < b->hi && i < json_array_size(coll.v); i++) {
        if (sel_item(&ctx->sctx, &coll, i, &item) < 0) break;
        for (size_t r = 0; mark && r <= nrules; r++) mark[r] = b->per_rule[r].len;
        /* an unchanged item: the findings of the rules that read nothing changed, from
         * the memo */
        int reused = j->memo && eval_memo_item_reuse(j->memo, b->key, i, b->per_rule);
        const unsigned char *skip = reused ? local : NULL;
        int escaped = 0; /* a rule the memo keeps read beyond the item */
        for (size_t k = 0; k < nsteps; k++) {
            const struct block_step *s = &steps[k];
            const struct block_unit *bu = &units[s->first];
            if (s->kind == STEP_RUN && judge_texts_run(ctx, bu, s->count, &item, b->per_rule) == 0)
                continue;
            for (size_t u = 0; u < s->count; u++, bu++) { /* one unit, or a run one by one */
                ctx->escaped = 0;
                if (s->kind == STEP_CHAIN) {
                    walk_shared(j, ctx, bu->n, &item, b->per_rule, skip);
                    escaped |= j->memo && escaped_kept(j, ctx, bu->n, 1);
                    continue;
                }
                if (skip && skip[bu->rule]) continue;
                ctx->rule = bu->r;
                ctx->out = &b->per_rule[bu->rule];
                block_unit_run(ctx, bu, &item, j->rule_ns);
                escaped |= j->memo && escaped_kept(j, ctx, bu->n, 0);
            }
        }
        if (b->key == pl->notes_key && !(skip && skip[notes])) /* the tool's pattern notes */
            pattern_note_item(&ctx->sctx, rule_set_versions(j->rs), pl->notes_want, &item,
                              &b->per_rule[notes]);
        if (j->memo) eval_memo_item_store(j->memo, b->key, i, b->per_rule, mark, !escaped, reused);
        texts_cache_drop(ctx->texts, &item); /* every rule is done with its texts */
    }
    free(units);
    free(steps);
    free(mark);
}

/* Take blocks until none is left, judging them with CTX. */
static void walk_take(struct walk_job *j, struct eval_ctx *ctx, const struct cursor *root)
{
    for (;;) {
        size_t b = atomic_fetch_add(&j->next, 1);
        if (b >= j->nblocks) return;
        walk_block_run(j, ctx, root, &j->blocks[b]);
    }
}

/* A worker thread: a context of its own, like the document's run's. */
static void *walk_worker(void *arg)
{
    struct walk_job *j = arg;
    struct eval_run run = {
        {.rs = j->rs, .sctx = j->proto->ctx.sctx, .detail = BUF_INIT, .at = BUF_INIT},
        j->proto->opts,
        {0}};
    struct cursor root;
    sel_root(&run.ctx.sctx, &root);
    walk_take(j, &run.ctx, &root);
    atomic_fetch_add(&j->texts_runs, run.stats.texts_runs);
    texts_cache_free(run.ctx.texts);
    eval_ctx_release(&run.ctx);
    return NULL;
}

/* The blocks of the walk: with one worker one per collection; with more, blocks that
 * shrink as the collection is used up (a quarter of a worker's share of what is left,
 * at least 8 items): large blocks while there is much to share, small ones at the end,
 * so that no worker waits long for the last block of another (items differ in size). */
static void walk_blocks(struct walk_job *j, const struct cursor *root, struct eval_ctx *ctx,
                        size_t nrules, long workers, unsigned char *const *only)
{
    VEC(struct walk_block) bl = VEC_INIT;
    for (size_t ki = 0; ki < j->pl->keys.len; ki++) {
        struct cursor coll;
        if (sel_member(&ctx->sctx, root, j->pl->keys.items[ki], &coll) < 0) continue;
        size_t n = json_array_size(coll.v);
        for (size_t lo = 0; lo < n;) {
            if (only && !only[ki][lo]) { /* ONLY: runs of the items it flags */
                lo++;
                continue;
            }
            size_t step = workers > 1 ? (n - lo) / ((size_t)workers * 4) : n;
            if (step < 8) step = 8;
            size_t hi = lo + 1;
            while (hi < n && hi - lo < step && (!only || only[ki][hi])) hi++;
            struct walk_block b = {ki, lo, hi, xcalloc(nrules + 1, sizeof(struct diag_list))};
            VEC_PUSH(bl, b);
            lo = hi;
        }
    }
    j->blocks = bl.items;
    j->nblocks = bl.len;
}

/* Walk each planned collection once; every GROUP unit judges each item in turn, on
 * WORKERS threads (this one among them, with CTX). The blocks' lists are appended to
 * PER_RULE in block order. */
static void plan_walk(const struct plan *pl, const struct rule_set *rs, struct eval_ctx *ctx,
                      const struct cursor *root, struct diag_list *per_rule,
                      _Atomic uint64_t *rule_ns, long workers, struct memo_run *memo,
                      unsigned char *const *only)
{
    size_t nrules = rule_set_count(rs);
    struct walk_job j = {pl, rs, (const struct eval_run *)ctx, root, NULL, 0, 0, 0, rule_ns, memo};
    walk_blocks(&j, root, ctx, nrules, workers, only);
    if ((size_t)workers > j.nblocks) workers = (long)j.nblocks;
    pthread_t *tids = workers > 1 ? xcalloc((size_t)workers - 1, sizeof *tids) : NULL;
    long started = 0;
    while (started < workers - 1 && pthread_create(&tids[started], NULL, walk_worker, &j) == 0)
        started++;
    walk_take(&j, ctx, root);
    for (long t = 0; t < started; t++) pthread_join(tids[t], NULL);
    free(tids);
    ((struct eval_run *)ctx)->stats.texts_runs += atomic_load(&j.texts_runs);
    for (size_t b = 0; b < j.nblocks; b++) {
        for (size_t r = 0; r <= nrules; r++) { /* the rules', and the pattern notes' */
            diag_list_move(&per_rule[r], &j.blocks[b].per_rule[r]);
        }
        free(j.blocks[b].per_rule);
    }
    free(j.blocks);
}

/* The units that are not part of the walk, in rule order. */
static void plan_rest(const struct plan *pl, const struct rule_set *rs, struct eval_ctx *ctx,
                      const struct cursor *root, struct diag_list *per_rule,
                      _Atomic uint64_t *rule_ns)
{
    for (size_t n = 0; n < pl->u.len; n++) {
        const struct unit *u = &pl->u.items[n];
        if (u->kind == UNIT_GROUP) continue;
        unit_use(ctx, rs, u, per_rule);
        unit_run(pl, ctx, u, root, rule_ns);
    }
}

/* What eval_options report: the rules of its preset that `enabled` accepts (a built-in
 * mcpdesc.* rule is in every preset). */
struct eval_filter {
    const struct rule_set *rs;
    const struct eval_options *opts;
};

static int eval_reported(const char *id, void *arg)
{
    const struct eval_filter *f = arg;
    if (f->opts->enabled && !f->opts->enabled(id, f->opts->enabled_arg)) return 0;
    if (!f->opts->preset || !id) return 1;
    const struct rule *r = rule_set_find(f->rs, id);
    return !r || rule_in_preset(r, f->opts->preset);
}

static size_t eval_finish(const struct rule_set *rs, const struct eval_options *opts, ver_mask want,
                          struct diag_list *found_list, struct diag_list *out, int sort_out);

/* ---- rules judged only where a yield needs them -------------------------------------
 * A rule that is not reported (--skip, a preset) but that a reported rule yields to only
 * decides whether the reported rule's findings stay, and a yield is about one value
 * (overlap.h): so it is judged after the others, and in the walk only in the items where
 * a finding of a rule that yields to it lies; its units outside the walk run whole, and
 * so does everything when such a finding lies outside the walked items. Its findings
 * are never reported: the report is the same as when it is judged everywhere. */

/* Per rule of RS: needed (NEED) but not reported: judged only where a yield needs it.
 * NULL when there is none. */
static unsigned char *lazy_rules(const struct rule_set *rs, const struct eval_options *opts,
                                 const unsigned char *need)
{
    size_t n = rule_set_count(rs), count = 0;
    unsigned char *lazy = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        lazy[i] = need[i] &&
            !eval_reported(rule_id(rule_set_rule(rs, i)), &(struct eval_filter){rs, opts});
        count += lazy[i];
    }
    if (count) return lazy;
    free(lazy);
    return NULL;
}

/* Flag in ONLY (per collection of PL, per item) the items that hold a finding of a rule
 * that yields to a LAZY one (PER_RULE: what the others found). 0, or -1 when such a
 * finding lies outside them (then the lazy rules are judged everywhere). */
static int lazy_items(const struct plan *pl, const struct rule_set *rs,
                      const struct diag_list *per_rule, const unsigned char *lazy, json_t *root,
                      unsigned char **only)
{
    size_t n = rule_set_count(rs);
    for (size_t i = 0; i < n; i++) {
        const struct rule *r = rule_set_rule(rs, i);
        int yields = 0;
        for (size_t k = 0; k < n && !yields && per_rule[i].len; k++)
            yields = lazy[k] && rule_yields_to(r, rule_id(rule_set_rule(rs, k)));
        for (size_t d = 0; yields && d < per_rule[i].len; d++) {
            const char *at = per_rule[i].items[d].pointer, *why;
            struct ptr p = PTR_INIT;
            size_t ki = pl->keys.len, idx = 0;
            if (at && ptr_parse(at, &p, &why) == 0 && p.n >= 2 && ptr_is_index(p.segs[1], &idx))
                for (ki = 0; ki < pl->keys.len && strcmp(pl->keys.items[ki], p.segs[0]); ki++) {}
            ptr_release(&p);
            if (ki == pl->keys.len ||
                idx >= json_array_size(json_object_get(root, pl->keys.items[ki])))
                return -1;
            only[ki][idx] = 1;
        }
    }
    return 0;
}

/* The lazy rules (LAZY) planned on their own and judged where lazy_items says. */
static void judge_lazy(const struct rule_set *rs, const struct eval_options *opts,
                       const unsigned char *lazy, struct eval_ctx *ctx, const struct cursor *root,
                       ver_mask want, int walk, struct diag_list *per_rule, long workers)
{
    struct plan pl = {VEC_INIT,
                      VEC_INIT,
                      rule_set_texts(rs),
                      opts->group_min ? opts->group_min : GROUP_MIN,
                      SIZE_MAX,
                      0,
                      1};
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        ver_mask m = r->applies & want;
        if (!lazy[i] || r->session || r->compare || !m) continue;
        if (walk) plan_rule(&pl, i, r->check, m, root);
        else plan_add(&pl, UNIT_WHOLE, i, r->check, m, NULL);
    }
    plan_share(&pl);
    unsigned char **only = xcalloc(pl.keys.len ? pl.keys.len : 1, sizeof *only);
    for (size_t ki = 0; ki < pl.keys.len; ki++) {
        size_t n = json_array_size(json_object_get(root->v, pl.keys.items[ki]));
        only[ki] = xcalloc(n ? n : 1, 1);
    }
    int everywhere = lazy_items(&pl, rs, per_rule, lazy, root->v, only) < 0;
    plan_walk(&pl, rs, ctx, root, per_rule, opts->rule_ns, workers, NULL, everywhere ? NULL : only);
    plan_rest(&pl, rs, ctx, root, per_rule, opts->rule_ns);
    for (size_t ki = 0; ki < pl.keys.len; ki++) free(only[ki]);
    free(only);
    plan_release(&pl);
}

size_t eval_document(const struct rule_set *rs, doc *d, const struct eval_options *opts,
                     struct diag_list *out)
{
    struct diag_list found = DIAG_LIST_INIT;
    uint64_t t_resolve = opts && opts->rule_ns ? now_ns() : 0;
    const struct rule_session *session = opts ? opts->session : NULL;
    struct res *res = session ? NULL : res_resolve(d, rule_set_res_config(rs), &found);
    ver_mask want = opts && opts->versions ? opts->versions : ver_all(rule_set_versions(rs));
    struct eval_run run = {
        {.rs = rs,
         .sctx = {d, session ? session->docs[session->self].view : res_view(res)},
         .out = &found,
         .detail = BUF_INIT,
         .at = BUF_INIT,
         .session = session},
        opts,
        {0}};
    struct eval_ctx *ctx = &run.ctx;
    struct cursor root;
    sel_root(&ctx->sctx, &root);
    size_t nrules = rule_set_count(rs);
    struct diag_list *per_rule = xcalloc(nrules + 1, sizeof *per_rule); /* + pattern notes */
    struct plan pl = {VEC_INIT,
                      VEC_INIT,
                      rule_set_texts(rs),
                      opts && opts->group_min ? opts->group_min : GROUP_MIN,
                      SIZE_MAX,
                      0,
                      !(opts && opts->judged)};
    int walk = has_large_array(root.v, pl.group_min);
    /* --preset, --rule/--skip: the reported rules, and the rules they yield to (overlap.h) */
    unsigned char *need = opts && (opts->enabled || opts->preset)
        ? overlap_required(rs, eval_reported, (void *)&(struct eval_filter){rs, opts})
        : NULL;
    /* the rules only yielded to wait (not for rules test's callback, which watches them) */
    unsigned char *lazy = need && !opts->judged && !session ? lazy_rules(rs, opts, need) : NULL;
    for (size_t i = 0; i < nrules; i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if ((need && !need[i]) || (lazy && lazy[i])) continue;
        if (!r->session != !session) continue; /* session rules run in a session, and only they */
        if (r->compare) continue;              /* change rules judge pairs (eval_pair) */
        ver_mask m = r->applies & want;
        if (!m) continue;
        if (walk) plan_rule(&pl, i, r->check, m, &root);
        else plan_add(&pl, UNIT_WHOLE, i, r->check, m, NULL);
    }
    free(need);
    plan_share(&pl);
    int notes =
        !session && (!opts || eval_reported(PATTERN_NOTE_RULE, &(struct eval_filter){rs, opts}));
    for (size_t k = 0; notes && k < pl.keys.len; k++)
        if (!strcmp(pl.keys.items[k], "tools")) pl.notes_key = k, pl.notes_want = want;
    _Atomic uint64_t *rule_ns = opts ? opts->rule_ns : NULL;
    if (rule_ns) atomic_fetch_add(&rule_ns[nrules], now_ns() - t_resolve);
    /* more threads only where the order of the calls cannot show: not for rules test's
     * callback, nor in a session (its documents' indexes are shared) */
    long workers = opts && !opts->judged && !session ? opts->workers : 1;
    struct memo_run *memo = NULL;
    if (opts && opts->memo) {
        unsigned char *planned = xcalloc(nrules ? nrules : 1, 1);
        for (size_t n = 0; n < pl.u.len; n++) planned[pl.u.items[n].rule] = 1;
        memo =
            eval_memo_run_begin(opts->memo, rs, opts, d, pl.keys.items, pl.keys.len, ctx, planned);
        free(planned);
    }
    plan_walk(&pl, rs, ctx, &root, per_rule, rule_ns, workers, memo, NULL);
    if (memo) eval_memo_run_end(memo);
    plan_rest(&pl, rs, ctx, &root, per_rule, rule_ns);
    size_t pl_notes_key = pl.notes_key;
    plan_release(&pl);
    if (lazy) judge_lazy(rs, opts, lazy, ctx, &root, want, walk, per_rule, workers);
    free(lazy);
    if (notes && pl_notes_key == SIZE_MAX) /* the walk did not make them */
        pattern_note_scan(&ctx->sctx, rule_set_versions(rs), want, &found);
    diag_list_move(&found, &per_rule[nrules]);
    /* the built-in diagnostics, then each rule's in rule order */
    for (size_t i = 0; i < nrules; i++) diag_list_move(&found, &per_rule[i]);
    free(per_rule);
    texts_cache_free(ctx->texts);
    res_free(res);
    eval_ctx_release(ctx);
    if (opts && opts->stats) opts->stats->texts_runs += run.stats.texts_runs;
    return eval_finish(rs, opts, want, &found, out, 1);
}

/* What a run found (FOUND, emptied) into OUT: the requested versions (WANT); then the
 * yields, on the full set; then what the options ask for (enabled rules), sorted and
 * merged. The number appended. */
static size_t eval_finish(const struct rule_set *rs, const struct eval_options *opts, ver_mask want,
                          struct diag_list *found_list, struct diag_list *out, int sort_out)
{
    size_t before = out->len;
    struct diag_list found = *found_list;
    *found_list = (struct diag_list)DIAG_LIST_INIT;
    for (size_t i = 0; i < found.len; i++) {
        struct diag *dg = &found.items[i];
        if (dg->rule && !strncmp(dg->rule, "mcpdesc.", 8) && opts && opts->versions && dg->versions)
            dg->versions &= want;
    }
    diag_sort_merge(&found);
    overlap_filter(rs, &found, 0);
    for (size_t i = 0; i < found.len; i++) {
        struct diag *dg = &found.items[i];
        int keep = !opts || eval_reported(dg->rule, &(struct eval_filter){rs, opts});
        if (keep) {
            if (out->len == out->cap) {
                out->cap = out->cap ? out->cap * 2 : 16;
                out->items = xrealloc(out->items, out->cap * sizeof *out->items);
            }
            out->items[out->len++] = *dg;
        } else {
            diag_clear(dg);
        }
    }
    free(found.items);
    if (sort_out) diag_sort_merge(out);
    return out->len - before;
}

unsigned char *eval_needed(const struct rule_set *rs, const struct eval_options *opts)
{
    if (!opts || (!opts->enabled && !opts->preset)) return NULL;
    return overlap_required(rs, eval_reported, (void *)&(struct eval_filter){rs, opts});
}

void eval_pair(const struct rule_set *rs, const char *compare, const struct rule_pair *pair,
               const struct eval_options *opts, const unsigned char *need, struct diag_list *out)
{
    const struct rule_pair_side *start = pair->new.item ? &pair->new : &pair->old;
    ver_mask want = opts && opts->versions ? opts->versions : ver_all(rule_set_versions(rs));
    struct diag_list found = DIAG_LIST_INIT;
    struct eval_run run = {{.rs = rs,
                            .sctx = {start->d, start->view},
                            .out = &found,
                            .detail = BUF_INIT,
                            .at = BUF_INIT,
                            .pair = pair,
                            .side = RULE_SIDE_NEW},
                           opts,
                           {0}};
    struct eval_ctx *ctx = &run.ctx;
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (!r->compare || strcmp(r->compare, compare)) continue;
        if (need && !need[i]) continue; /* neither reported nor yielded to */
        ver_mask m = r->applies & want & pair->versions;
        if (!m) continue;
        _Atomic uint64_t *rule_ns = opts ? opts->rule_ns : NULL;
        uint64_t t0 = rule_ns ? now_ns() : 0;
        ctx->rule = r;
        run_clause(ctx, r->check, pair->new.item, m);
        if (rule_ns) atomic_fetch_add(&rule_ns[i], now_ns() - t0);
    }
    eval_ctx_release(ctx);
    eval_finish(rs, opts, want, &found, out, 0);
}
