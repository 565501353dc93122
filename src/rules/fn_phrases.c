/* fn_phrases.c - the predicate phrases: a phrase list of a phrase-lists data file
 * (rule_data.h) searched in the folded text (phrase.h), optionally only near a phrase of a
 * second list; the first hit, in the original string's bytes, for report-at: match. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/fnInt.h"
#include "rules/fn_text_skip.h"
#include "rules/rule_data.h"

struct phrases_prog {
    const struct rule_data_list *list, *near; /* near NULL: no proximity */
    size_t within;
};

void fn_phrases_free(struct pred *p)
{
    free(p->data);
}

/* The list named by ARG's member KEY (a string) in D, or report. */
static const struct rule_data_list *list_of(struct cc *cc, struct yv arg, const char *key,
                                            const struct rule_data *d)
{
    struct yv m = rule_yv_member(cc, arg, key);
    const char *name = json_string_value(m.v);
    const struct rule_data_list *l = name ? rule_data_list(d, name) : NULL;
    if (l) return l;
    if (!name) {
        rule_cc_error(cc, m.v ? m.n : arg.n, 0,
                      "phrases needs \"%s\": the name of a list of "
                      "data file \"%s\"",
                      key, d->name);
        return NULL;
    }
    VEC(const char *) names = VEC_INIT;
    for (size_t k = 0; k < d->p.lists.len; k++) VEC_PUSH(names, d->p.lists.items[k].name);
    VEC_PUSH(names, NULL);
    const char *near = rule_cc_nearest(name, names.items);
    rule_cc_error_hint(cc, m.n, 0, "name a list the data file defines",
                       "phrases: no list \"%s\" in data file \"%s\" (%s)%s%s%s", name, d->name,
                       d->path, near ? ": did you mean \"" : "", near ? near : "",
                       near ? "\"?" : "");
    VEC_FREE(names);
    return NULL;
}

int fn_phrases_arg(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"data", "list", "near", NULL};
    static const char *const near_allowed[] = {"list", "within", NULL};
    const struct rule_data *d = fn_chars_arg_data(cc, p, arg, allowed, RULE_DATA_PHRASES);
    if (!d) return -1;
    struct phrases_prog *pp = xcalloc(1, sizeof *pp);
    p->data = pp;
    if (!(pp->list = list_of(cc, arg, "list", d))) return -1;
    struct yv near = rule_yv_member(cc, arg, "near");
    if (near.v) {
        json_t *w = json_object_get(near.v, "within");
        int bad = !json_is_object(near.v) || !json_is_integer(w) || json_integer_value(w) < 0;
        const char *k;
        json_t *v;
        json_object_foreach(json_is_object(near.v) ? near.v : NULL, k, v)
        {
            const char *const *a = near_allowed;
            while (*a && strcmp(*a, k)) a++;
            bad |= !*a;
        }
        if (bad) {
            rule_cc_error(cc, near.n, 0,
                          "phrases: \"near\" is {list: LIST, within: N}, N a count of words");
            return -1;
        }
        if (!(pp->near = list_of(cc, near, "list", d))) return -1;
        pp->within = (size_t)json_integer_value(w);
    }
    p->arg = json_incref(arg.v);
    return 0;
}

/* Is a hit of PP's near list (searched in T) within PP's distance of [B, E)? */
static int near_hit(const struct phrases_prog *pp, struct phrase_text *t, size_t b, size_t e)
{
    size_t nb, ne, from = 0;
    while (phrase_find(pp->near->phrases, pp->near->allow, t, from, &nb, &ne)) {
        if (phrase_words_between(t, b, e, nb, ne) <= pp->within) return 1;
        from = nb + 1;
        while (from < t->len && ((unsigned char)t->s[from] & 0xC0) == 0x80) from++;
    }
    return 0;
}

int fn_phrases_may_hold(const struct pred *p, const struct cursor *c,
                        struct fn_text_scratch *scratch)
{
    if (!json_is_string(c->v)) return 0;
    const struct phrases_prog *pp = p->data;
    /* a text node's facts (sel.h) answer the first question without a scan */
    unsigned f = c->text_facts;
    int ascii_ws = (c->text_ascii[0] & (((uint64_t)1 << ' ') | ((uint64_t)0x1F << 0x09))) != 0;
    if ((f & SEL_TEXT_FACTS)
            ? !phrase_set_may_match_facts(pp->list->phrases, (f & SEL_TEXT_NON_ASCII) || ascii_ws)
            : !phrase_set_may_match(pp->list->phrases, json_string_value(c->v),
                                    json_string_length(c->v)))
        return 0;
    /* the text's whole words first: found once per node for every list (in SCRATCH, or
     * else phrase.c keeps the last texts'), they rule out the most; the length is read
     * only for what follows (most texts are ruled out by a filter already found) */
    if (scratch) {
        if (!scratch->runs.state)
            phrase_runs_find(&scratch->runs, json_string_value(c->v), json_string_length(c->v));
        if (!phrase_set_may_match_runs_of(pp->list->phrases, &scratch->runs)) return 0;
    } else if (!phrase_set_may_match_runs(pp->list->phrases, json_string_value(c->v),
                                          json_string_length(c->v))) {
        return 0;
    }
    if (!(f & SEL_TEXT_FACTS)) return 1;
    size_t n = json_string_length(c->v);
    int high = (f & SEL_TEXT_NON_ASCII) != 0;
    return phrase_set_may_match_bytes(pp->list->phrases, n, c->text_ascii, high) &&
        (!pp->near || phrase_set_may_match_bytes(pp->near->phrases, n, c->text_ascii, high));
}

int fn_phrases_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    if (!fn_phrases_may_hold(p, c, NULL)) return 0;
    const struct phrases_prog *pp = p->data;
    unsigned f = c->text_facts;
    struct phrase_text t;
    char buf[512];
    if ((f & SEL_TEXT_FACTS) && !(f & (SEL_TEXT_NON_ASCII | SEL_TEXT_UNFOLDED)))
        phrase_fold_plain_into(json_string_value(c->v), json_string_length(c->v), pp->list->fold,
                               buf, sizeof buf, &t);
    else
        phrase_fold_into(json_string_value(c->v), json_string_length(c->v), pp->list->fold, buf,
                         sizeof buf, &t);
    size_t b, e, from = 0;
    int hit = 0;
    while (!hit && phrase_find(pp->list->phrases, pp->list->allow, &t, from, &b, &e)) {
        if (!pp->near || near_hit(pp, &t, b, e)) hit = 1;
        from = b + 1;
        while (from < t.len && ((unsigned char)t.s[from] & 0xC0) == 0x80) from++;
    }
    if (hit) {
        phrase_text_maps(&t);
        fn_match_note(ctx, t.from[b], (e > b ? t.to[e - 1] : t.from[b]) - t.from[b]);
    }
    phrase_text_release(&t);
    return hit;
}
