/* fn.c - the predicates a rule's `check` may use (all but the schema predicates of
 * fn_schema.c): each one's compiler (argument checking, positioned errors) and
 * evaluator, listed with its name in fn_table[] (fn_table.c, through fnInt.h); the
 * per-document indexes
 * and memo the predicates share. rules-yaml/README.md documents each predicate. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/uri.h"
#include "base/val.h"
#include "rules/fnInt.h"
#include "rules/fn_fold.h"
#include "rules/regex_jit.h"
#include "rules/regex_need.h"

enum {
    T_OBJECT = 1,
    T_ARRAY = 2,
    T_STRING = 4,
    T_NUMBER = 8,
    T_INTEGER = 16,
    T_BOOLEAN = 32,
    T_NULL = 64
};
static const struct {
    const char *name;
    unsigned bit;
} type_names[] = {
    {"object", T_OBJECT},   {"array", T_ARRAY},     {"string", T_STRING}, {"number", T_NUMBER},
    {"integer", T_INTEGER}, {"boolean", T_BOOLEAN}, {"null", T_NULL},
};

/* Private holders kept in a predicate's kids (never in fn_table, never named by rules):
 * a compiled regular expression, and an extra selector of a multi-selector argument. */
struct regex_holder {
    struct pred base; /* first: freed through fn_pred_free like any kid */
    pcre2_code *code;
    pcre2_match_context *mctx;
    /* JIT-compiled on the first match (regex_jit.h): then matched through pcre2_jit_match,
     * without pcre2_match's per-call checks (the subjects are jansson's strings, valid
     * UTF-8) */
    regex_jit_state jit;
    /* what a subject must hold: a text node's facts skip the call; its text read from
     * SOURCE (the pattern) on the first use (holder_need) */
    struct regex_need need;
    json_t *source;
};
static int eval_never(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx);
static void regex_free(struct pred *p);
static const struct fn_def holder_regex = {"(regex)", "", "", NULL, eval_never, regex_free};
static const struct fn_def holder_sel = {"(selector)", "", "", NULL, eval_never, NULL};

struct pred *fn_sel_holder(struct sel *sl, json_t *arg)
{
    struct pred *h = xcalloc(1, sizeof *h);
    h->fn = &holder_sel;
    h->sel = sl;
    h->arg = arg;
    return h;
}

static void regex_free(struct pred *p)
{
    struct regex_holder *h = (struct regex_holder *)p;
    pcre2_code_free(h->code);
    pcre2_match_context_free(h->mctx);
    regex_need_release(&h->need);
    json_decref(h->source);
}

/* H's need, its text read on the first use (regex_need_text_ready): most of a set's
 * patterns never meet a text on a small description. */
static const struct regex_need *holder_need(const struct regex_holder *h)
{
    struct regex_holder *m = (struct regex_holder *)h; /* only its need's text changes, once */
    return regex_need_text_ready(&m->need, json_string_value(h->source),
                                 json_string_length(h->source));
}

void fn_places_reset(struct eval_ctx *ctx)
{
    for (size_t i = 0; i < ctx->places.len; i++) {
        free(ctx->places.items[i].at);
        free(ctx->places.items[i].detail);
    }
    ctx->places.len = 0;
    free(ctx->places_summary);
    ctx->places_summary = NULL;
}

void fn_related_reset(struct eval_ctx *ctx)
{
    ctx->related.len = 0;
}

void fn_related_add(struct eval_ctx *ctx, const doc *d, doc_node node, const char *pointer,
                    json_t *v)
{
    struct fn_related r = {d, node, pointer, v};
    VEC_PUSH(ctx->related, r);
}

void fn_places_add(struct eval_ctx *ctx, const char *at, const char *detail)
{
    struct fn_place pl = {xstrdup(at), xstrdup(detail)};
    VEC_PUSH(ctx->places, pl);
}

void fn_places_summarize(struct eval_ctx *ctx, int more_uncounted)
{
    buf_reset(&ctx->at);
    buf_reset(&ctx->detail);
    free(ctx->places_summary);
    ctx->places_summary = NULL;
    if (!ctx->places.len) return;
    const struct fn_place *first = &ctx->places.items[0];
    buf_adds(&ctx->at, first->at);
    buf_adds(&ctx->detail, first->detail);
    if (*first->at) buf_addf(&ctx->detail, " at %s", first->at);
    if (ctx->places.len > 1 || more_uncounted)
        buf_addf(&ctx->detail, "; %s%zu more", more_uncounted ? "at least " : "",
                 ctx->places.len - 1);
    ctx->places_summary = xstrdup(buf_str(&ctx->detail));
}

int fn_places_current(const struct eval_ctx *ctx)
{
    return ctx->places.len && ctx->places_summary &&
        !strcmp(ctx->places_summary, buf_str(&ctx->detail)) &&
        !strcmp(ctx->places.items[0].at, buf_str(&ctx->at));
}

/* ---- argument compilers -------------------------------------------------------- */

int fn_arg_string(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_string(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a string (%s), not a %s", p->fn->name,
                      p->fn->synopsis, rule_json_type_name(arg.v));
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_arg_strings(struct cc *cc, struct pred *p, struct yv arg)
{
    if (json_is_string(arg.v)) {
        p->arg = json_pack("[O]", arg.v);
        return 0;
    }
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a member name or a non-empty list of names (%s)",
                      p->fn->name, p->fn->synopsis);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(arg.v); i++)
        if (!json_is_string(json_array_get(arg.v, i))) {
            rule_cc_error(cc, rule_yv_item(cc, arg, i).n, 0, "%s: every name must be a string",
                          p->fn->name);
            return -1;
        }
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_arg_any(struct cc *cc, struct pred *p, struct yv arg)
{
    (void)cc;
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_arg_types(struct cc *cc, struct pred *p, struct yv arg)
{
    size_t n = json_is_array(arg.v) ? json_array_size(arg.v) : 1;
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(arg.v) ? rule_yv_item(cc, arg, i) : arg;
        /* YAML reads a plain `null` as the null value: take it as the type name */
        unsigned bit = json_is_null(e.v) ? T_NULL : 0;
        for (size_t k = 0; json_is_string(e.v) && k < sizeof type_names / sizeof *type_names; k++)
            if (!strcmp(json_string_value(e.v), type_names[k].name)) bit = type_names[k].bit;
        if (!bit) {
            rule_cc_error(cc, e.n, 0,
                          "json-type takes object, array, string, number, integer, "
                          "boolean or null (or a list of them), not %s%s%s",
                          json_is_string(e.v) ? "\"" : "a ",
                          json_is_string(e.v) ? json_string_value(e.v) : rule_json_type_name(e.v),
                          json_is_string(e.v) ? "\"" : "");
            return -1;
        }
        p->types |= bit;
    }
    if (!n) {
        rule_cc_error(cc, arg.n, 0, "json-type needs at least one type");
        return -1;
    }
    return 0;
}

int fn_arg_preds(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a non-empty list of predicates", p->fn->name);
        return -1;
    }
    p->kids = xcalloc(json_array_size(arg.v), sizeof *p->kids);
    int bad = 0;
    for (size_t i = 0; i < json_array_size(arg.v); i++) {
        struct pred *k = rule_cc_pred(cc, rule_yv_item(cc, arg, i));
        if (k) p->kids[p->nkids++] = k;
        else bad = 1;
    }
    return bad ? -1 : 0;
}

int fn_arg_pred(struct cc *cc, struct pred *p, struct yv arg)
{
    struct pred *k = rule_cc_pred(cc, arg);
    if (!k) return -1;
    p->kids = xcalloc(1, sizeof *p->kids);
    p->kids[p->nkids++] = k;
    return 0;
}

int fn_arg_use(struct cc *cc, struct pred *p, struct yv arg)
{
    struct pred *k = rule_cc_named(cc, arg);
    if (!k) return -1;
    p->kids = xcalloc(1, sizeof *p->kids);
    p->kids[p->nkids++] = k;
    p->borrowed = 1;
    p->arg = json_incref(arg.v); /* the name, for `rules dump` (the body is kids[0]) */
    return 0;
}

int fn_arg_quantifier(struct cc *cc, struct pred *p, struct yv arg)
{
    int body_required = !strcmp(p->fn->name, "every");
    if (!json_is_object(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a mapping {select: SELECTOR, require: PREDICATE}",
                      p->fn->name);
        return -1;
    }
    int bad = 0;
    size_t i = 0;
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it), i++) {
        const char *k = json_object_iter_key(it);
        if (strcmp(k, "select") && strcmp(k, "require")) {
            rule_cc_error_hint(cc, doc_node_item(cc->d, arg.n, i), 1, rule_hint_unknown_member,
                               "unknown member \"%s\" in %s (it takes select and require)", k,
                               p->fn->name);
            bad = 1;
        }
    }
    struct yv s = rule_yv_member(cc, arg, "select"), r = rule_yv_member(cc, arg, "require");
    if (!s.v) {
        rule_cc_error(cc, arg.n, 0, "%s needs \"select\": the nodes it quantifies over",
                      p->fn->name);
        return -1;
    }
    if (!(p->sel = rule_cc_sel(cc, s))) bad = 1;
    if (r.v && !(p->body = rule_cc_pred(cc, r))) bad = 1;
    if (!r.v && body_required) {
        rule_cc_error(cc, arg.n, 0, "every needs \"require\": what each selected node satisfies");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* ---- evaluators ---------------------------------------------------------------- */

int fn_eval_json_type(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *v = c->v;
    unsigned t = p->types;
    switch (json_typeof(v)) {
    case JSON_OBJECT: return !!(t & T_OBJECT);
    case JSON_ARRAY: return !!(t & T_ARRAY);
    case JSON_STRING: return !!(t & T_STRING);
    case JSON_INTEGER:
    case JSON_REAL: return (t & T_NUMBER) || ((t & T_INTEGER) && val_is_integer(v));
    case JSON_TRUE:
    case JSON_FALSE: return !!(t & T_BOOLEAN);
    default: return !!(t & T_NULL);
    }
}

int fn_eval_declared_type_is(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *t = json_object_get(c->v, "type");
    return json_is_string(t) && !strcmp(json_string_value(t), json_string_value(p->arg));
}

int fn_eval_declared_type_includes(const struct pred *p, const struct cursor *c,
                                   struct eval_ctx *ctx)
{
    (void)ctx;
    json_t *t = json_object_get(c->v, "type"), *e;
    const char *want = json_string_value(p->arg);
    if (json_is_string(t)) return !strcmp(json_string_value(t), want);
    size_t i;
    json_array_foreach(t, i,
                       e) if (json_is_string(e) && !strcmp(json_string_value(e), want)) return 1;
    return 0;
}

int fn_eval_has(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_object(c->v)) return 0;
    size_t i;
    json_t *k;
    json_array_foreach(p->arg, i, k) if (!json_object_get(c->v, json_string_value(k))) return 0;
    return 1;
}

int fn_eval_lacks(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_object(c->v)) return 1;
    size_t i;
    json_t *k;
    json_array_foreach(p->arg, i, k) if (json_object_get(c->v, json_string_value(k))) return 0;
    return 1;
}

/* text-kind: the node is a text of a {texts: ...} selector of one of these kinds. */
int fn_eval_text_kind(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!c->text_kind) return 0;
    size_t i;
    json_t *k;
    json_array_foreach(p->arg, i, k)
    {
        const char *kind = json_string_value(k);
        if (kind[0] == c->text_kind[0] && !strcmp(kind, c->text_kind)) return 1;
    }
    return 0;
}

int fn_eval_equals(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    return val_equal(c->v, p->arg);
}

int fn_eval_one_of(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    size_t i;
    json_t *e;
    json_array_foreach(p->arg, i, e) if (val_equal(c->v, e)) return 1;
    return 0;
}

int fn_eval_all(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    for (size_t i = 0; i < p->nkids; i++)
        if (!fn_eval(p->kids[i], c, ctx)) return 0;
    return 1;
}

/* any and not do not narrow the failing versions (ctx->narrow): the versions in which a
 * kid failed say nothing about when any of them, or the negation, fails */
int fn_eval_any(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    ver_mask narrow = ctx->narrow;
    int ok = 0;
    for (size_t i = 0; i < p->nkids && !ok; i++) ok = fn_eval(p->kids[i], c, ctx);
    ctx->narrow = narrow;
    return ok;
}

int fn_eval_not(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    ver_mask narrow = ctx->narrow;
    int ok = !fn_eval(p->kids[0], c, ctx);
    ctx->narrow = narrow;
    return ok;
}

struct quant {
    const struct pred *p;
    struct eval_ctx *ctx;
};

static int every_visit(const struct cursor *c, void *arg)
{
    struct quant *q = arg;
    return !fn_eval(q->p->body, c, q->ctx); /* stop at the first counterexample */
}

static int some_visit(const struct cursor *c, void *arg)
{
    struct quant *q = arg;
    return !q->p->body || fn_eval(q->p->body, c, q->ctx); /* stop at the first witness */
}

/* Text found in the nodes a quantifier reaches is not in the judged node's string:
 * ctx->match keeps what it was (report-at: match would place another string's offsets
 * in this one). */
int fn_eval_every(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct quant q = {p, ctx};
    struct fn_match before = ctx->match;
    int ok = !sel_run(p->sel, &ctx->sctx, c, every_visit, &q);
    ctx->match = before;
    return ok;
}

int fn_eval_some(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    struct quant q = {p, ctx};
    struct fn_match before = ctx->match;
    int ok = sel_run(p->sel, &ctx->sctx, c, some_visit, &q) != 0;
    ctx->match = before;
    return ok;
}

int fn_arg_values(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_array(arg.v) || !json_array_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "one-of takes a non-empty list of values");
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

/* ---- text, numbers, formats and context (added with the MCP rule set) ------------ */

static int eval_never(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)p, (void)c, (void)ctx;
    return 0;
}

/* Refuse members of mapping ARG that ALLOWED (NULL-terminated) does not list. */
static int only_members(struct cc *cc, struct pred *p, struct yv arg, const char *const *allowed)
{
    int bad = 0;
    size_t i = 0;
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it), i++) {
        const char *k = json_object_iter_key(it);
        size_t j = 0;
        while (allowed[j] && strcmp(allowed[j], k)) j++;
        if (!allowed[j]) {
            rule_cc_error_hint(cc, doc_node_item(cc->d, arg.n, i), 1, rule_hint_unknown_member,
                               "unknown member \"%s\" in %s (it takes %s)", k, p->fn->name,
                               p->fn->synopsis);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

static int need_mapping(struct cc *cc, struct pred *p, struct yv arg)
{
    if (json_is_object(arg.v) && json_object_size(arg.v)) return 0;
    rule_cc_error(cc, arg.n, 0, "%s takes a mapping %s, not a %s%s", p->fn->name, p->fn->synopsis,
                  json_is_object(arg.v) ? "empty " : "", rule_json_type_name(arg.v));
    return -1;
}

/* Optional member KEY of ARG: a non-negative integer (stored in *out; -1 when absent). */
static int opt_count(struct cc *cc, struct pred *p, struct yv arg, const char *key, json_int_t *out)
{
    struct yv y = rule_yv_member(cc, arg, key);
    *out = -1;
    if (!y.v) return 0;
    if (!json_is_integer(y.v) || json_integer_value(y.v) < 0) {
        rule_cc_error(cc, y.n, 0, "%s: \"%s\" must be a non-negative integer, not %s", p->fn->name,
                      key, json_is_integer(y.v) ? "a negative one" : rule_json_type_name(y.v));
        return -1;
    }
    *out = json_integer_value(y.v);
    return 0;
}

static int opt_bool(struct cc *cc, struct pred *p, struct yv arg, const char *key)
{
    struct yv y = rule_yv_member(cc, arg, key);
    if (!y.v || json_is_boolean(y.v)) return 0;
    rule_cc_error(cc, y.n, 0, "%s: \"%s\" must be true or false, not a %s", p->fn->name, key,
                  rule_json_type_name(y.v));
    return -1;
}

/* length: {min: N, max: N} */
int fn_arg_length(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"min", "max", NULL};
    json_int_t lo, hi;
    if (need_mapping(cc, p, arg) < 0 || only_members(cc, p, arg, allowed) < 0) return -1;
    if (opt_count(cc, p, arg, "min", &lo) < 0 || opt_count(cc, p, arg, "max", &hi) < 0) return -1;
    if (lo >= 0 && hi >= 0 && lo > hi) {
        rule_cc_error(cc, arg.n, 0, "length: \"min\" (%lld) is larger than \"max\" (%lld)",
                      (long long)lo, (long long)hi);
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_eval_length(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    size_t n;
    if (json_is_string(c->v))
        n = val_utf8_length(json_string_value(c->v), json_string_length(c->v));
    else if (json_is_array(c->v)) n = json_array_size(c->v);
    else if (json_is_object(c->v)) n = json_object_size(c->v);
    else return 0;
    json_t *lo = json_object_get(p->arg, "min"), *hi = json_object_get(p->arg, "max");
    if (lo && (json_int_t)n < json_integer_value(lo)) return 0;
    if (hi && (json_int_t)n > json_integer_value(hi)) return 0;
    return 1;
}

/* matches: REGEX (PCRE2, UTF, bounded matching) */
static struct pred *regex_compile(struct cc *cc, struct pred *p, struct yv arg)
{
    if (!json_is_string(arg.v)) {
        rule_cc_error(cc, arg.n, 0,
                      "%s takes a regular expression (a PCRE2 pattern string), not a %s",
                      p->fn->name, rule_json_type_name(arg.v));
        return NULL;
    }
    int err;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)json_string_value(arg.v),
                                     json_string_length(arg.v), PCRE2_UTF, &err, &off, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        rule_cc_error(cc, arg.n, 0, "%s: bad regular expression at offset %zu: %s", p->fn->name,
                      (size_t)off, (const char *)msg);
        return NULL;
    }
    /* JIT where PCRE2 has it, on the first match (regex_test): a pattern such as the
     * schema rules' keyword-position runs on every node of every schema. Without JIT (or
     * if it fails) the interpreter serves, with the same limits. */
    struct regex_holder *h = xcalloc(1, sizeof *h);
    atomic_init(&h->jit, REGEX_JIT_INIT);
    h->base.fn = &holder_regex;
    h->code = code;
    regex_need_of(code, &h->need);
    h->source = json_incref(arg.v);
    h->mctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(h->mctx, 100000);
    pcre2_set_depth_limit(h->mctx, 1000);
    return &h->base;
}

int fn_arg_regex(struct cc *cc, struct pred *p, struct yv arg)
{
    struct pred *h = regex_compile(cc, p, arg);
    if (!h) return -1;
    p->kids = xcalloc(1, sizeof *p->kids);
    p->kids[p->nkids++] = h;
    p->arg = json_incref(arg.v);
    return 0;
}

void fn_match_note(struct eval_ctx *ctx, size_t off, size_t len)
{
    ctx->match.set = 1;
    ctx->match.off = off;
    ctx->match.len = len;
    ctx->match.key = 0;
}

/* 1 when the holder's pattern matches somewhere in S (a subject over the limits: 0);
 * where it matched, to CTX when given. */
static pcre2_match_data *regex_match_data(struct eval_ctx *ctx);

static int regex_test(const struct pred *holder, const char *s, size_t n, struct eval_ctx *ctx)
{
    struct regex_holder *h = (struct regex_holder *)holder; /* only its JIT state changes */
    int jit = regex_jit_ready(h->code, &h->jit);
    pcre2_match_data *md = ctx ? regex_match_data(ctx) : pcre2_match_data_create(1, NULL);
    int rc = jit ? pcre2_jit_match(h->code, (PCRE2_SPTR)s, n, 0, 0, md, h->mctx)
                 : pcre2_match(h->code, (PCRE2_SPTR)s, n, 0, 0, md, h->mctx);
    if (rc >= 0 && ctx) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        fn_match_note(ctx, ov[0], ov[1] - ov[0]);
    }
    if (!ctx) pcre2_match_data_free(md);
    return rc >= 0;
}

int fn_matches_may_hold(const struct pred *p, const struct cursor *c,
                        struct fn_text_scratch *scratch)
{
    const struct regex_holder *h = (const struct regex_holder *)p->kids[0];
    if (!json_is_string(c->v)) return 0;
    if (!(c->text_facts & SEL_TEXT_FACTS)) return 1;
    size_t n = json_string_length(c->v);
    int high = (c->text_facts & SEL_TEXT_NON_ASCII) != 0;
    /* the facts, then the literals and runs every match holds, by one pass over the text:
     * most texts lack them (no 80 base64 characters in a row), and a PCRE2 call costs
     * more */
    return regex_need_may_match(&h->need, n, c->text_ascii, high) &&
        regex_need_text_may_match(holder_need(h), json_string_value(c->v), n, c->text_ascii, high);
}

int fn_eval_matches(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    if (!fn_matches_may_hold(p, c, NULL)) return 0;
    const struct regex_holder *h = (const struct regex_holder *)p->kids[0];
    const char *s = json_string_value(c->v);
    size_t n = json_string_length(c->v);
    /* a node without facts: its literals and runs here */
    if (!(c->text_facts & SEL_TEXT_FACTS) &&
        !regex_need_text_may_match(holder_need(h), s, n, NULL, 0))
        return 0;
    return regex_test(p->kids[0], s, n, ctx);
}

int fn_eval_path_matches(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    char *ptr = sel_pointer(c);
    int ok = regex_test(p->kids[0], ptr, strlen(ptr), NULL);
    free(ptr);
    return ok;
}

/* key: PREDICATE - the node's member name, as a string, satisfies it. */
int fn_eval_key(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    if (!c->parent || !c->key) return 0;
    struct cursor k = *c;
    k.v = json_string(c->key);
    if (!k.v) return 0;
    k.text_facts = 0; /* the facts are the value's (sel.h): the name has none known */
    struct fn_match before = ctx->match;
    ctx->match.set = 0;
    int ok = fn_eval(p->kids[0], &k, ctx);
    if (ctx->match.set) ctx->match.key = 1; /* the text was found in the member name */
    else ctx->match = before;
    json_decref(k.v);
    return ok;
}

/* range: {min: X, max: Y} */
int fn_arg_range(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"min", "max", NULL};
    if (need_mapping(cc, p, arg) < 0 || only_members(cc, p, arg, allowed) < 0) return -1;
    for (int i = 0; i < 2; i++) {
        struct yv y = rule_yv_member(cc, arg, allowed[i]);
        if (y.v && !json_is_number(y.v)) {
            rule_cc_error(cc, y.n, 0, "range: \"%s\" must be a number, not a %s", allowed[i],
                          rule_json_type_name(y.v));
            return -1;
        }
    }
    json_t *lo = json_object_get(arg.v, "min"), *hi = json_object_get(arg.v, "max");
    if (lo && hi && val_num_cmp(lo, hi) > 0) {
        rule_cc_error(cc, arg.n, 0, "range: \"min\" is larger than \"max\"");
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_eval_range(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_number(c->v)) return 0;
    json_t *lo = json_object_get(p->arg, "min"), *hi = json_object_get(p->arg, "max");
    if (json_is_real(c->v) && !isfinite(json_real_value(c->v))) return 0;
    if (lo && val_num_cmp(c->v, lo) < 0) return 0;
    if (hi && val_num_cmp(c->v, hi) > 0) return 0;
    return 1;
}

/* ---- format: NAME ---- */

static int is_hex(int ch)
{
    return isxdigit((unsigned char)ch);
}
static int is_alpha(int ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}
static int is_digit(int ch)
{
    return ch >= '0' && ch <= '9';
}
static int is_tchar(int ch)
{
    return is_alpha(ch) || is_digit(ch) || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* RFC 3986 URI and URI reference: uriparser's grammar (base/uri.c). */
static int fmt_uri(const char *s)
{
    return uri_check(s, 0);
}
static int fmt_uri_reference(const char *s)
{
    return uri_check(s, 1);
}

/* RFC 6570 varchar: ALPHA / DIGIT / "_" / pct-encoded */
static int tpl_varchar(const char **s)
{
    const char *p = *s;
    if (is_alpha(*p) || is_digit(*p) || *p == '_') {
        *s = p + 1;
        return 1;
    }
    if (*p == '%' && is_hex(p[1]) && is_hex(p[2])) {
        *s = p + 3;
        return 1;
    }
    return 0;
}

static int fmt_uri_template(const char *s)
{
    while (*s) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '{') {
            s++;
            if (*s && strchr("+#./;?&", *s)) s++;
            for (;;) {
                if (!tpl_varchar(&s)) return 0; /* also refuses the reserved operators =,!@| */
                for (;;) {
                    if (*s == '.') {
                        s++;
                        if (!tpl_varchar(&s)) return 0;
                    } else if (!tpl_varchar(&s)) {
                        break;
                    }
                }
                if (*s == ':') {
                    s++;
                    if (*s < '1' || *s > '9') return 0;
                    int digits = 0;
                    while (is_digit(*s) && ++digits <= 4) s++;
                    if (digits > 4) return 0;
                } else if (*s == '*') {
                    s++;
                }
                if (*s == ',') {
                    s++;
                    continue;
                }
                if (*s != '}') return 0;
                s++;
                break;
            }
        } else if (ch == '%') {
            if (!is_hex(s[1]) || !is_hex(s[2])) return 0;
            s += 3;
        } else if (ch <= 0x20 || ch == 0x7F || strchr("\"'<>\\^`|}", ch)) {
            return 0;
        } else {
            s++; /* other ASCII literals, and UTF-8 (ucschar / iprivate) */
        }
    }
    return 1;
}

/* RFC 9110 media type: type "/" subtype *( OWS ";" OWS parameter ), a parameter being
 * token "=" ( token / quoted-string ). Syntax only: tokens are case-insensitive, so any
 * case passes; no whitespace before or after the whole, or around "/" and "=". */
static int fmt_media_type(const char *s)
{
    size_t n = 0;
    while (is_tchar(s[n])) n++;
    if (!n || s[n] != '/') return 0;
    s += n + 1;
    for (n = 0; is_tchar(s[n]); n++) {}
    if (!n) return 0;
    s += n;
    for (;;) {
        if (!*s) return 1; /* before the OWS: trailing whitespace is not in the grammar */
        while (*s == ' ' || *s == '\t') s++;
        if (*s++ != ';') return 0;
        while (*s == ' ' || *s == '\t') s++;
        for (n = 0; is_tchar(s[n]); n++) {}
        if (!n || s[n] != '=') return 0;
        s += n + 1;
        if (*s == '"') {
            for (s++; *s && *s != '"'; s++) {
                if (*s == '\\' && !*++s) return 0;
                /* qdtext and quoted-pair take HTAB but no other control character */
                if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7F) return 0;
            }
            if (*s++ != '"') return 0;
        } else {
            for (n = 0; is_tchar(s[n]); n++) {}
            if (!n) return 0;
            s += n;
        }
    }
}

/* RFC 4648 section 4 Base64 of the N characters at S: the alphabet A-Z a-z 0-9 + /, a
 * length that is a multiple of four, and = only as the padding of the last group (one or
 * two, section 3.2). Nothing else: no line breaks or other whitespace (section 3.3
 * refuses characters outside the alphabet unless a referring specification allows
 * them), no base64url (section 5: - and _), no missing padding. Pad bits that are not
 * zero are accepted (section 3.5 lets a decoder refuse them; decoders do not). The empty
 * text encodes zero octets. */
static int base64_ok(const char *s, size_t n)
{
    if (n % 4) return 0;
    size_t pad = n && s[n - 1] == '=' ? 1 + (s[n - 2] == '=') : 0;
    for (size_t i = 0; i < n - pad; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '+' && s[i] != '/') return 0;
    return 1;
}

static int fmt_base64(const char *s)
{
    return base64_ok(s, strlen(s));
}

static int hex_value(int ch)
{
    return is_digit(ch) ? ch - '0' : (ch | 0x20) - 'a' + 10;
}

/* RFC 2397 data: URI: an RFC 3986 URI (uri_check) of scheme data whose text after
 * "data:" holds a comma (dataurl := "data:" [ mediatype ] [ ";base64" ] "," data). When
 * the part before the first comma ends in ";base64" (in any case, as URI scheme and
 * MIME parameter names are), the data after it, its %XX escapes decoded (RFC 2397
 * section 3: the data is URL-encoded), is RFC 4648 Base64 (base64_ok: no whitespace,
 * %20 included). The media type itself is not judged (format: media-type judges one). */
static int fmt_data_uri(const char *s)
{
    if (strncasecmp(s, "data:", 5) || !uri_check(s, 0)) return 0;
    const char *comma = strchr(s + 5, ',');
    if (!comma) return 0;
    size_t head = (size_t)(comma - (s + 5));
    if (head < 7 || strncasecmp(comma - 7, ";base64", 7)) return 1;
    const char *data = comma + 1;
    size_t n = strlen(data), m = 0;
    char *raw = xmalloc(n + 1);
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++)
        if (data[i] != '%') {
            raw[m++] = data[i];
        } else if ((ok = is_hex(data[i + 1]) && is_hex(data[i + 2]))) { /* as uri_check wants */
            raw[m++] = (char)(hex_value(data[i + 1]) * 16 + hex_value(data[i + 2]));
            i += 2;
        }
    ok = ok && base64_ok(raw, m);
    free(raw);
    return ok;
}

static int digits(const char **s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!is_digit((*s)[i])) return 0;
        v = v * 10 + ((*s)[i] - '0');
    }
    *s += n;
    *out = v;
    return 1;
}

static int days_in_month(int y, int m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 ? 28 + leap : d[m - 1];
}

/* ISO 8601 date or date and time: calendar (YYYY-MM-DD, YYYYMMDD, YYYY-MM), ordinal
 * (YYYY-DDD) or week (YYYY-Www-D) dates, then optionally T and hh[:mm[:ss]] with a
 * decimal fraction on the last part, then Z or an offset. Extended or basic format.
 * Seconds go to 60, a leap second, at any minute (RFC 3339 time-second: syntax only);
 * 24:00[:00] is the end of the day, with no later minute, second or fraction. Offsets
 * are +-hh[[:]mm] with hh 00-23 and mm 00-59. */
static int fmt_iso8601(const char *s)
{
    int y, m, d, h, mi, sec;
    if (!digits(&s, 4, &y)) return 0;
    int ext = *s == '-';
    if (ext) s++;
    if (!*s) return 0;
    if (*s == 'W') {
        s++;
        if (!digits(&s, 2, &d) || d < 1 || d > 53) return 0;
        if (ext ? *s == '-' : is_digit(*s)) {
            if (ext) s++;
            if (!digits(&s, 1, &d) || d < 1 || d > 7) return 0;
        }
    } else {
        int n = 0;
        while (is_digit(s[n])) n++;
        if (n == 3) {
            /* day 366 only in a leap year (days_in_month's rule) */
            if (!digits(&s, 3, &d) || d < 1 || d > 337 + days_in_month(y, 2)) return 0;
        } else if ((ext && n == 2) || (!ext && n == 4)) {
            if (!digits(&s, 2, &m) || m < 1 || m > 12) return 0;
            int want_day = !ext; /* basic: YYYYMMDD (YYYYMM is not ISO 8601) */
            if (ext && *s == '-') {
                s++;
                want_day = 1;
            }
            if (want_day && (!digits(&s, 2, &d) || d < 1 || d > days_in_month(y, m))) return 0;
        } else {
            return 0;
        }
    }
    if (!*s) return 1;
    if (*s != 'T' && *s != 't') return 0;
    s++;
    if (!digits(&s, 2, &h) || h > 24) return 0;
    int text = *s == ':';
    mi = sec = 0;
    if (text) s++;
    if (is_digit(*s)) {
        if (!digits(&s, 2, &mi) || mi > 59) return 0;
        if (text ? *s == ':' : is_digit(*s)) {
            if (text) s++;
            if (!digits(&s, 2, &sec) || sec > 60) return 0;
        }
    } else if (text) {
        return 0;
    }
    int frac = 0; /* a non-zero digit in the fraction */
    if (*s == '.' || *s == ',') {
        s++;
        if (!is_digit(*s)) return 0;
        for (; is_digit(*s); s++) frac |= *s != '0';
    }
    if (h == 24 && (mi || sec || frac)) return 0; /* 24:00:00.5 is past the end of the day */
    if (*s == 'Z' || *s == 'z') s++;
    else if (*s == '+' || *s == '-') {
        int oh, om = 0;
        s++;
        if (!digits(&s, 2, &oh) || oh > 23) return 0;
        int colon = *s == ':';
        s += colon;
        if ((colon || *s) && (!digits(&s, 2, &om) || om > 59)) return 0; /* "+05:" needs its mm */
    }
    return !*s;
}

static const struct {
    const char *name;
    int (*test)(const char *s);
} formats[] = {
    {"uri", fmt_uri},
    {"uri-reference", fmt_uri_reference},
    {"uri-template", fmt_uri_template},
    {"media-type", fmt_media_type},
    {"iso-8601", fmt_iso8601},
    {"base64", fmt_base64},
    {"data-uri", fmt_data_uri},
};

int fn_arg_format(struct cc *cc, struct pred *p, struct yv arg)
{
    for (size_t i = 0; json_is_string(arg.v) && i < sizeof formats / sizeof *formats; i++)
        if (!strcmp(json_string_value(arg.v), formats[i].name)) {
            p->arg = json_integer((json_int_t)i);
            return 0;
        }
    rule_cc_error(
        cc, arg.n, 0,
        "format takes uri, uri-reference, uri-template, media-type, iso-8601, base64 or data-uri, "
        "not %s%s%s",
        json_is_string(arg.v) ? "\"" : "a ",
        json_is_string(arg.v) ? json_string_value(arg.v) : rule_json_type_name(arg.v),
        json_is_string(arg.v) ? "\"" : "");
    return -1;
}

int fn_eval_format(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    (void)ctx;
    if (!json_is_string(c->v)) return 0;
    const char *s = json_string_value(c->v);
    if (strlen(s) != json_string_length(c->v)) return 0; /* an embedded NUL */
    return formats[json_integer_value(p->arg)].test(s);
}

/* ---- unique / among: compare the node with nodes selected from an ancestor ---- */

/* ancestor: {up: N, require: PREDICATE} - the node's ancestor N levels up satisfies it (a
 * text judged by what the schema around it declares: an example of a property declared as
 * bytes). */
int fn_arg_ancestor(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"up", "require", NULL};
    if (need_mapping(cc, p, arg) < 0 || only_members(cc, p, arg, allowed) < 0) return -1;
    json_int_t up;
    if (opt_count(cc, p, arg, "up", &up) < 0) return -1;
    struct yv r = rule_yv_member(cc, arg, "require");
    if (up < 1 || !r.v) {
        rule_cc_error(cc, arg.n, 0,
                      "ancestor needs \"up\" (1 or more levels) and \"require\": which ancestor, "
                      "and what it satisfies");
        return -1;
    }
    if (!(p->body = rule_cc_pred(cc, r))) return -1;
    p->arg = json_incref(arg.v);
    return 0;
}

int fn_eval_ancestor(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    json_int_t up = json_integer_value(json_object_get(p->arg, "up"));
    const struct cursor *base = c;
    for (json_int_t i = 0; base && i < up; i++) base = base->parent;
    if (!base || base->depth < 2) ctx->escaped = 1; /* above the item */
    return base && fn_eval(p->body, base, ctx);
}

int fn_arg_context(struct cc *cc, struct pred *p, struct yv arg)
{
    int among = !strcmp(p->fn->name, "among");
    static const char *const allowed_unique[] = {
        "select", "up", "depth", "ignore-case", "ignore-separators", NULL};
    static const char *const allowed_among[] = {
        "select", "up", "depth", "ignore-case", "ignore-separators", "keys", NULL};
    if (need_mapping(cc, p, arg) < 0 ||
        only_members(cc, p, arg, among ? allowed_among : allowed_unique) < 0)
        return -1;
    json_int_t up, depth;
    if (opt_count(cc, p, arg, "up", &up) < 0 || opt_count(cc, p, arg, "depth", &depth) < 0)
        return -1;
    if (opt_bool(cc, p, arg, "ignore-case") < 0 || opt_bool(cc, p, arg, "keys") < 0 ||
        opt_bool(cc, p, arg, "ignore-separators") < 0)
        return -1;
    if (up >= 0 && depth >= 0) {
        rule_cc_error(cc, rule_yv_member(cc, arg, "depth").n, 1,
                      "%s takes \"up\" or \"depth\", not both", p->fn->name);
        return -1;
    }
    struct yv s = rule_yv_member(cc, arg, "select");
    if (!s.v) {
        rule_cc_error(cc, arg.n, 0, "%s needs \"select\": the nodes the value is compared with",
                      p->fn->name);
        return -1;
    }
    size_t n = json_is_array(s.v) ? json_array_size(s.v) : 1;
    if (json_is_array(s.v) && !n) {
        rule_cc_error(cc, s.n, 0, "%s: \"select\" takes a selector or a non-empty list of them",
                      p->fn->name);
        return -1;
    }
    p->kids = xcalloc(n, sizeof *p->kids);
    for (size_t i = 0; i < n; i++) {
        struct yv e = json_is_array(s.v) ? rule_yv_item(cc, s, i) : s;
        int session, side;
        struct sel *sl = rule_cc_sel_any(cc, e, &session, &side);
        if (!sl) return -1;
        if ((session || side) && !among) {
            sel_free(sl);
            rule_cc_error_hint(cc, e.n, 0,
                               "write among: {select: {session: SELECTOR}}: some node of another "
                               "document has an equal value",
                               "unique compares the nodes of one document; a session selector "
                               "belongs in among");
            return -1;
        }
        struct pred *h = xcalloc(1, sizeof *h);
        h->fn = &holder_sel;
        h->sel = sl;
        h->session = session;
        h->side = side;
        p->kids[p->nkids++] = h;
    }
    p->arg =
        json_pack("{s:I,s:I,s:b,s:b,s:b}", "up", (json_int_t)up, "depth", (json_int_t)depth,
                  "ignore-case", json_is_true(json_object_get(arg.v, "ignore-case")),
                  "ignore-separators", json_is_true(json_object_get(arg.v, "ignore-separators")),
                  "keys", json_is_true(json_object_get(arg.v, "keys")));
    return 0;
}

/* ---- selection indexes for unique/among --------------------------------------------
 * unique/among compare a node with every node of a selection. Done naively that is
 * O(n) per node and O(n^2) per rule (10,000 tools: 10^8 comparisons). Instead the
 * selection is read once per (predicate, base node) and document into an index:
 * entries in selection order, hashed by a normalised key; a node then costs O(1). */

struct sel_entry {
    json_t *v;       /* the selected value (or, for keys: NULL and key set) */
    const char *key; /* keys mode: the member name */
    ver_mask vmask;
    char *pointer; /* logical pointer: identifies the node itself */
    size_t next;   /* next entry in the same bucket (SIZE_MAX: none) */
    const doc *d;  /* another document of the session (a session selector), or NULL */
    doc_node node; /* its position there */
};

struct sel_index {
    const struct pred *p;
    char *base; /* logical pointer of the base node ("" = none) */
    VEC(struct sel_entry) e;
    size_t nb;
    size_t *head;      /* value buckets */
    size_t *self_head; /* pointer buckets: which entry is a given node */
    size_t *self_next;
    int fold;
    void *data; /* fn_cache_put's structure (no entries then), freed by data_free */
    void (*data_free)(void *);
};

/* Every index of this document, and a hash of them by (predicate, base pointer): a
 * relative selection has one index per base node (per tool, say), so a linear search
 * would make a rule O(n^2). */
struct fn_memo_ent {
    const void *value; /* NULL: free slot */
    int tag, result;
    char *detail;
};

struct fn_indexes {
    VEC(struct sel_index *) all;
    size_t nslots; /* power of two, at least twice all.len */
    struct sel_index **slot;
    struct fn_memo_ent *memo; /* open addressing by (value, tag) */
    size_t nmemo, memo_len;   /* slots (power of two), entries */
    pcre2_match_data *md;     /* regex_test's, reused: one allocation per document, not
                               * per match (rules over every text run millions) */
};

static struct fn_indexes *fn_indexes_of(struct eval_ctx *ctx)
{
    if (!ctx->indexes) ctx->indexes = xcalloc(1, sizeof *ctx->indexes);
    return ctx->indexes;
}

/* The document's match data for regex_test. One pair is enough: only where the whole
 * match is (pcre2_match's 0 then says the groups did not fit: still a match). */
static pcre2_match_data *regex_match_data(struct eval_ctx *ctx)
{
    struct fn_indexes *all = fn_indexes_of(ctx);
    if (!all->md) all->md = pcre2_match_data_create(1, NULL);
    return all->md;
}

static size_t memo_slot(const struct fn_indexes *all, const void *value, int tag)
{
    uint64_t h =
        ((uint64_t)(uintptr_t)value ^ (uint64_t)(unsigned)tag << 48) * 0x9e3779b97f4a7c15ull;
    size_t s = (size_t)(h >> 20) & (all->nmemo - 1);
    while (all->memo[s].value && !(all->memo[s].value == value && all->memo[s].tag == tag))
        s = (s + 1) & (all->nmemo - 1);
    return s;
}

int fn_memo_get(struct eval_ctx *ctx, const void *value, int tag, int *result)
{
    struct fn_indexes *all = ctx->indexes;
    if (!all || !all->nmemo) return 0;
    const struct fn_memo_ent *e = &all->memo[memo_slot(all, value, tag)];
    if (!e->value) return 0;
    *result = e->result;
    if (!e->result) { /* a pass leaves the detail of earlier failures alone, as at first */
        buf_reset(&ctx->detail);
        if (e->detail) buf_addf(&ctx->detail, "%s", e->detail);
    }
    return 1;
}

void fn_memo_put(struct eval_ctx *ctx, const void *value, int tag, int result)
{
    struct fn_indexes *all = fn_indexes_of(ctx);
    if (2 * (all->memo_len + 1) > all->nmemo) {
        struct fn_memo_ent *old = all->memo;
        size_t n = all->nmemo;
        all->nmemo = n ? 2 * n : 64;
        all->memo = xcalloc(all->nmemo, sizeof *all->memo);
        for (size_t i = 0; i < n; i++)
            if (old[i].value) all->memo[memo_slot(all, old[i].value, old[i].tag)] = old[i];
        free(old);
    }
    struct fn_memo_ent *e = &all->memo[memo_slot(all, value, tag)];
    if (e->value) return;
    *e = (struct fn_memo_ent){value, tag, result,
                              !result && ctx->detail.len ? xstrdup(buf_str(&ctx->detail)) : NULL};
    all->memo_len++;
}

static size_t index_slot(const struct fn_indexes *all, const struct pred *p, const char *base)
{
    uint64_t h =
        fn_fold_fnv(base, strlen(base), 0) ^ ((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull);
    size_t s = (size_t)(h & (all->nslots - 1));
    while (all->slot[s] && !(all->slot[s]->p == p && !strcmp(all->slot[s]->base, base)))
        s = (s + 1) & (all->nslots - 1);
    return s;
}

static void index_remember(struct fn_indexes *all, struct sel_index *ix)
{
    VEC_PUSH(all->all, ix);
    if (2 * all->all.len > all->nslots) {
        free(all->slot);
        all->nslots = all->nslots ? 2 * all->nslots : 16;
        all->slot = xcalloc(all->nslots, sizeof *all->slot);
        for (size_t i = 0; i < all->all.len; i++) {
            struct sel_index *e = all->all.items[i];
            all->slot[index_slot(all, e->p, e->base)] = e;
        }
        return;
    }
    all->slot[index_slot(all, ix->p, ix->base)] = ix;
}

struct build {
    struct sel_index *ix;
    int keys;
    const doc *d; /* the session document the selector runs over, or NULL: this one */
};

static int build_visit(const struct cursor *s, void *arg)
{
    struct build *b = arg;
    if (b->keys) {
        if (!json_is_object(s->v)) return 0;
        for (void *it = json_object_iter(s->v); it; it = json_object_iter_next(s->v, it)) {
            struct sel_entry e = {NULL,   json_object_iter_key(it), s->vmask, NULL, SIZE_MAX, b->d,
                                  s->node};
            VEC_PUSH(b->ix->e, e);
        }
        return 0;
    }
    struct sel_entry e = {s->v, NULL, s->vmask, sel_pointer(s), SIZE_MAX, b->d, s->node};
    VEC_PUSH(b->ix->e, e);
    return 0;
}

static struct sel_index *index_get(const struct pred *p, const struct cursor *base, int fold,
                                   int keys, struct eval_ctx *ctx)
{
    struct fn_indexes *all = fn_indexes_of(ctx);
    char *bp = base ? sel_pointer(base) : xstrdup("");
    if (ctx->pair) { /* a pair's sides have their own pointers: keep their indexes apart */
        char *keyed = xasprintf("%c%s", ctx->side == RULE_SIDE_OLD ? 'o' : 'n', bp);
        free(bp);
        bp = keyed;
    }
    if (all->nslots) {
        struct sel_index *found = all->slot[index_slot(all, p, bp)];
        if (found) {
            free(bp);
            return found;
        }
    }
    struct sel_index *ix = xcalloc(1, sizeof *ix);
    ix->p = p;
    ix->base = bp;
    ix->fold = fold;
    struct build b = {ix, keys, NULL};
    for (size_t i = 0; i < p->nkids; i++) {
        const struct sel *sl = p->kids[i]->sel;
        if (p->kids[i]->session) { /* from the root of every other document of the session */
            const struct rule_session *ss = ctx->session;
            for (size_t k = 0; ss && sl && k < ss->n; k++) {
                if (k == ss->self) continue;
                struct sel_ctx other = {ss->docs[k].d, ss->docs[k].view};
                b.d = ss->docs[k].d;
                sel_run(sl, &other, NULL, build_visit, &b);
            }
            b.d = NULL;
            continue;
        }
        if (p->kids[i]->side) { /* from that side's item of the pair (its root: absolute) */
            const struct rule_pair *pr = ctx->pair;
            const struct rule_pair_side *ps = !pr   ? NULL
                : p->kids[i]->side == RULE_SIDE_OLD ? &pr->old
                                                    : &pr->new;
            if (!ps || !ps->item || !sl) continue;
            struct sel_ctx other = {ps->d, ps->view};
            b.d = p->kids[i]->side == ctx->side ? NULL : ps->d; /* the node itself is this side's */
            sel_run(sl, &other, sel_is_absolute(sl) ? NULL : ps->item, build_visit, &b);
            b.d = NULL;
            continue;
        }
        if (!sl || (!sel_is_absolute(sl) && !base)) continue;
        sel_run(sl, &ctx->sctx, base, build_visit, &b);
    }
    ix->nb = 16;
    while (ix->nb < 2 * ix->e.len) ix->nb *= 2;
    ix->head = xmalloc(ix->nb * sizeof *ix->head);
    ix->self_head = xmalloc(ix->nb * sizeof *ix->self_head);
    ix->self_next = xmalloc((ix->e.len ? ix->e.len : 1) * sizeof *ix->self_next);
    for (size_t i = 0; i < ix->nb; i++) ix->head[i] = ix->self_head[i] = SIZE_MAX;
    /* chain in reverse so each bucket lists entries in selection order */
    for (size_t i = ix->e.len; i-- > 0;) {
        struct sel_entry *e = &ix->e.items[i];
        uint64_t h =
            e->key ? fn_fold_fnv(e->key, strlen(e->key), fold) : fn_fold_value_hash(e->v, fold);
        size_t b2 = (size_t)(h & (ix->nb - 1));
        e->next = ix->head[b2];
        ix->head[b2] = i;
        if (e->pointer && !e->d) { /* only this document's nodes can be the node itself */
            size_t sb = (size_t)(fn_fold_fnv(e->pointer, strlen(e->pointer), 0) & (ix->nb - 1));
            ix->self_next[i] = ix->self_head[sb];
            ix->self_head[sb] = i;
        }
    }
    index_remember(all, ix);
    return ix;
}

/* A predicate's own structure per (P, BASE) and document, kept beside unique's and
 * among's indexes under the same key (ruleInt.h). */
void *fn_cache_get(struct eval_ctx *ctx, const struct pred *p, const struct cursor *base)
{
    struct fn_indexes *all = ctx->indexes;
    if (!all || !all->nslots) return NULL;
    char *bp = base ? sel_pointer(base) : NULL; /* no base: "" (nothing to allocate) */
    struct sel_index *found = all->slot[index_slot(all, p, bp ? bp : "")];
    free(bp);
    return found ? found->data : NULL;
}

void fn_cache_put(struct eval_ctx *ctx, const struct pred *p, const struct cursor *base, void *data,
                  void (*data_free)(void *))
{
    struct sel_index *ix = xcalloc(1, sizeof *ix);
    ix->p = p;
    ix->base = base ? sel_pointer(base) : xstrdup("");
    ix->data = data;
    ix->data_free = data_free;
    index_remember(fn_indexes_of(ctx), ix);
}

void fn_indexes_free(struct eval_ctx *ctx)
{
    struct fn_indexes *all = ctx->indexes;
    if (!all) return;
    for (size_t i = 0; i < all->all.len; i++) {
        struct sel_index *ix = all->all.items[i];
        if (ix->data_free) ix->data_free(ix->data);
        for (size_t k = 0; k < ix->e.len; k++) free(ix->e.items[k].pointer);
        VEC_FREE(ix->e);
        free(ix->head);
        free(ix->self_head);
        free(ix->self_next);
        free(ix->base);
        free(ix);
    }
    VEC_FREE(all->all);
    free(all->slot);
    for (size_t i = 0; i < all->nmemo; i++) free(all->memo[i].detail);
    free(all->memo);
    pcre2_match_data_free(all->md);
    free(all);
    ctx->indexes = NULL;
}

static int fold_of(const struct pred *p)
{
    return (json_is_true(json_object_get(p->arg, "ignore-case")) ? FOLD_CASE : 0) |
        (json_is_true(json_object_get(p->arg, "ignore-separators")) ? FOLD_SEPARATORS : 0);
}

void fn_index_each(const struct pred *p, struct eval_ctx *ctx,
                   void (*visit)(const char *name, ver_mask vmask, json_t *v, void *arg), void *arg)
{
    struct sel_index *ix =
        index_get(p, NULL, fold_of(p), json_is_true(json_object_get(p->arg, "keys")), ctx);
    for (size_t i = 0; i < ix->e.len; i++) {
        const struct sel_entry *e = &ix->e.items[i];
        visit(e->key ? e->key : e->pointer, e->vmask, e->key ? NULL : e->v, arg);
    }
}

/* unique: no earlier selected node, offered in a common version, has an equal value; on
 * failure ctx->narrow keeps only the versions shared with the earlier equal nodes (a
 * name duplicated in one shared version is a duplicate in that version only).
 * among: some other selected node has an equal value (with keys: some selected object
 * has a member of that name). */
int fn_eval_context(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    json_int_t up = json_integer_value(json_object_get(p->arg, "up"));
    json_int_t depth = json_integer_value(json_object_get(p->arg, "depth"));
    const struct cursor *base = c;
    if (up > 0)
        for (json_int_t i = 0; base && i < up; i++) base = base->parent;
    if (depth >= 0) {
        while (base && base->depth > depth) base = base->parent;
        if (base && base->depth != depth) base = NULL;
    }
    int unique = !strcmp(p->fn->name, "unique");
    int fold = fold_of(p);
    int keys = json_is_true(json_object_get(p->arg, "keys"));
    if (keys && !json_is_string(c->v)) return unique;
    int relative = 0; /* absolute selectors do not depend on the base: one index serves all */
    for (size_t i = 0; i < p->nkids; i++)
        if (p->kids[i]->sel && !p->kids[i]->side && !sel_is_absolute(p->kids[i]->sel))
            relative = 1; /* a side's selector runs from the pair's item: the same for all */
    if (relative && (!base || base->depth < 2)) ctx->escaped = 1; /* a base above the item */
    struct sel_index *ix = index_get(p, relative ? base : NULL, fold, keys, ctx);
    /* which entry is this node itself (none: it is not in the selection) */
    size_t self = SIZE_MAX;
    if (!keys && ix->e.len) {
        char *me = sel_pointer(c);
        size_t sb = (size_t)(fn_fold_fnv(me, strlen(me), 0) & (ix->nb - 1));
        for (size_t i = ix->self_head[sb]; i != SIZE_MAX; i = ix->self_next[i])
            if (!strcmp(ix->e.items[i].pointer, me)) {
                self = i;
                break;
            }
        free(me);
    }
    uint64_t h = keys ? fn_fold_fnv(json_string_value(c->v), json_string_length(c->v), fold)
                      : fn_fold_value_hash(c->v, fold);
    ver_mask shared = 0;
    int found = 0; /* among: an equal node (each of another document's is a related place) */
    for (size_t i = ix->head[h & (ix->nb - 1)]; i != SIZE_MAX; i = ix->e.items[i].next) {
        const struct sel_entry *e = &ix->e.items[i];
        if (i == self) {
            if (unique) break; /* only earlier nodes count */
            continue;
        }
        if (unique && !(e->vmask & c->vmask)) continue; /* never offered together */
        int eq = keys ? fn_fold_text_equal(e->key, strlen(e->key), json_string_value(c->v),
                                           json_string_length(c->v), fold)
                      : fn_fold_values_equal(e->v, c->v, fold);
        if (eq && !unique) {
            if (!e->d || ctx->pair) return 1; /* a pair's other side: the diff places it */
            if (!found) fn_related_reset(ctx);
            found = 1;
            fn_related_add(ctx, e->d, e->node, e->pointer, e->v);
            continue;
        }
        if (eq) shared |= e->vmask & c->vmask;
    }
    if (!unique) return found;
    if (!shared) return 1;
    ctx->narrow &= shared;
    return 0;
}

/* nesting: {max: N} (N <= FN_WALK_MAX_DEPTH) */
int fn_arg_nesting(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"max", NULL};
    json_int_t hi;
    if (need_mapping(cc, p, arg) < 0 || only_members(cc, p, arg, allowed) < 0) return -1;
    if (opt_count(cc, p, arg, "max", &hi) < 0) return -1;
    if (hi < 0 || hi > FN_WALK_MAX_DEPTH) {
        rule_cc_error(cc, arg.n, 0, "nesting needs \"max\": a count of levels from 0 to %d",
                      FN_WALK_MAX_DEPTH);
        return -1;
    }
    p->arg = json_incref(arg.v);
    return 0;
}

/* For rule_dump.c (ruleInt.h). */
json_t *fn_type_names(unsigned types)
{
    json_t *out = json_array();
    for (size_t k = 0; k < sizeof type_names / sizeof *type_names; k++)
        if (types & type_names[k].bit) json_array_append_new(out, json_string(type_names[k].name));
    return out;
}

const char *fn_format_name(const struct pred *p)
{
    return p->fn->eval == fn_eval_format ? formats[json_integer_value(p->arg)].name : NULL;
}

int fn_is_holder(const struct pred *p)
{
    return p->fn == &holder_regex || p->fn == &holder_sel;
}
