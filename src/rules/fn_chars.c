/* fn_chars.c - the predicate chars: code points of classes read from a unicode-classes data
 * file (rule_data.h), outside the sequences that excuse them, in one pass over the string;
 * and the argument checks it shares with phrases (fn_phrases.c). */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/fnInt.h"
#include "rules/rule_data.h"

const struct rule_data *fn_chars_arg_data(struct cc *cc, struct pred *p, struct yv arg,
                                          const char *const *allowed, enum rule_data_kind kind)
{
    if (!json_is_object(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "%s takes a mapping %s, not a %s", p->fn->name, p->fn->synopsis,
                      rule_json_type_name(arg.v));
        return NULL;
    }
    int bad = 0;
    size_t i = 0;
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it), i++) {
        const char *k = json_object_iter_key(it);
        const char *const *a = allowed;
        while (*a && strcmp(*a, k)) a++;
        if (*a) continue;
        const char *near = rule_cc_nearest(k, allowed);
        rule_cc_error_hint(cc, doc_node_item(cc->d, arg.n, i), 1, rule_hint_unknown_member,
                           "unknown member \"%s\" in %s%s%s%s (the argument is %s)", k, p->fn->name,
                           near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "",
                           p->fn->synopsis);
        bad = 1;
    }
    if (bad) return NULL;
    struct yv name = rule_yv_member(cc, arg, "data");
    if (!json_is_string(name.v)) {
        rule_cc_error(cc, name.v ? name.n : arg.n, 0,
                      "%s needs \"data\": the name of a data file the manifest's data: lists",
                      p->fn->name);
        return NULL;
    }
    const struct rule_data *d = rule_data_find(cc->rs, json_string_value(name.v));
    if (!d) {
        const char **names = rule_data_names(cc->rs);
        const char *near = rule_cc_nearest(json_string_value(name.v), names);
        rule_cc_error_hint(cc, name.n, 0,
                           "list the file under the manifest's data: (rules-yaml/README.md, "
                           "\"Data files\"), or correct the name",
                           "%s: no data file \"%s\" in the rule set%s%s%s", p->fn->name,
                           json_string_value(name.v), near ? " (did you mean \"" : "",
                           near ? near : "", near ? "\"?)" : "");
        free(names);
        return NULL;
    }
    if (d->kind != kind) {
        rule_cc_error(cc, name.n, 0, "%s: data file \"%s\" (%s) is not of kind %s", p->fn->name,
                      d->name, d->path,
                      kind == RULE_DATA_UNICODE ? "unicode-classes" : "phrase-lists");
        return NULL;
    }
    return d;
}

/* What chars compiled: the union of its classes, the excusing sequences, the run. */
struct chars_prog {
    struct rule_data_cps in;
    const struct rule_data_seq **seqs;
    size_t nseqs;
    long min_run;
    uint32_t run_lowest;      /* below it no code point starts a run form (UINT32_MAX: none) */
    unsigned char ascii[128]; /* which ASCII code points are in the classes looked for */
    uint64_t ascii_bits[2];   /* the same as bits, against a text node's facts (sel.h) */
};

void fn_chars_free(struct pred *p)
{
    struct chars_prog *cp = p->data;
    if (!cp) return;
    free(cp->in.r);
    free(cp->seqs);
    free(cp);
}

/* The strings of list member KEY of ARG, each the name of a class (SEQ 0) or a sequence
 * of D, into CP; -1 after reporting. */
static int names_of(struct cc *cc, struct yv arg, const char *key, const struct rule_data *d,
                    int seq, struct chars_prog *cp, size_t *cap)
{
    struct yv m = rule_yv_member(cc, arg, key);
    if (!m.v) return 0;
    if (!json_is_array(m.v) || (!seq && !json_array_size(m.v))) {
        rule_cc_error(cc, m.n, 0, "chars: \"%s\" is a list of %s names of data file \"%s\"", key,
                      seq ? "sequence" : "class", d->name);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < json_array_size(m.v); i++) {
        struct yv e = rule_yv_item(cc, m, i);
        const char *name = json_string_value(e.v);
        const struct rule_data_class *c = name && !seq ? rule_data_class(d, name) : NULL;
        const struct rule_data_seq *q = name && seq ? rule_data_seq(d, name) : NULL;
        if (c) {
            for (size_t k = 0; k < c->cps.n; k++) {
                if (cp->in.n == *cap) {
                    *cap = *cap ? *cap * 2 : 16;
                    cp->in.r = xrealloc(cp->in.r, *cap * sizeof *cp->in.r);
                }
                cp->in.r[cp->in.n][0] = c->cps.r[k][0];
                cp->in.r[cp->in.n++][1] = c->cps.r[k][1];
            }
            continue;
        }
        if (q) {
            cp->seqs = xrealloc(cp->seqs, (cp->nseqs + 1) * sizeof *cp->seqs);
            cp->seqs[cp->nseqs++] = q;
            continue;
        }
        VEC(const char *) names = VEC_INIT;
        if (seq)
            for (size_t k = 0; k < d->u.seqs.len; k++) VEC_PUSH(names, d->u.seqs.items[k].name);
        else
            for (size_t k = 0; k < d->u.classes.len; k++)
                VEC_PUSH(names, d->u.classes.items[k].name);
        VEC_PUSH(names, NULL);
        const char *near = name ? rule_cc_nearest(name, names.items) : NULL;
        rule_cc_error_hint(cc, e.n, 0, "name one the data file defines",
                           "chars: no %s \"%s\" in data file \"%s\" (%s)%s%s%s",
                           seq ? "sequence" : "class", name ? name : "?", d->name, d->path,
                           near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
        VEC_FREE(names);
        rc = -1;
    }
    return rc;
}

static int range_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

int fn_chars_arg(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"data", "in", "except", "min-run", NULL};
    const struct rule_data *d = fn_chars_arg_data(cc, p, arg, allowed, RULE_DATA_UNICODE);
    if (!d) return -1;
    struct chars_prog *cp = xcalloc(1, sizeof *cp);
    size_t cap = 0;
    p->data = cp;
    if (!json_object_get(arg.v, "in")) {
        rule_cc_error(cc, arg.n, 0, "chars needs \"in\": the classes to look for");
        return -1;
    }
    if (names_of(cc, arg, "in", d, 0, cp, &cap) < 0 ||
        names_of(cc, arg, "except", d, 1, cp, &cap) < 0)
        return -1;
    if (cp->in.n) { /* classes may overlap: one sorted table of disjoint ranges */
        qsort(cp->in.r, cp->in.n, sizeof *cp->in.r, range_cmp);
        size_t k = 0;
        for (size_t i = 1; i < cp->in.n; i++) {
            if (cp->in.r[i][0] <= cp->in.r[k][1] + 1) {
                if (cp->in.r[i][1] > cp->in.r[k][1]) cp->in.r[k][1] = cp->in.r[i][1];
            } else {
                cp->in.r[++k][0] = cp->in.r[i][0];
                cp->in.r[k][1] = cp->in.r[i][1];
            }
        }
        cp->in.n = k + 1;
    }
    for (uint32_t c = 0; c < 128; c++) {
        cp->ascii[c] = (unsigned char)rule_data_cps_has(&cp->in, c);
        if (cp->ascii[c]) cp->ascii_bits[c >> 6] |= (uint64_t)1 << (c & 63);
    }
    cp->run_lowest = UINT32_MAX;
    for (size_t k = 0; k < cp->nseqs; k++)
        if (cp->seqs[k]->run_form && cp->seqs[k]->after.n &&
            cp->seqs[k]->after.r[0][0] < cp->run_lowest)
            cp->run_lowest = cp->seqs[k]->after.r[0][0];
    struct yv mr = rule_yv_member(cc, arg, "min-run");
    cp->min_run = 1;
    if (mr.v) {
        if (!json_is_integer(mr.v) || json_integer_value(mr.v) < 1 ||
            json_integer_value(mr.v) > 1000000) {
            rule_cc_error(cc, mr.n, 0, "chars: \"min-run\" is a count of code points, 1 or more");
            return -1;
        }
        cp->min_run = (long)json_integer_value(mr.v);
    }
    p->arg = json_incref(arg.v);
    return 0;
}

/* Does a context sequence of CP excuse code point I of the N in CPS? */
static int excused(const struct chars_prog *cp, const uint32_t *cps, size_t n, size_t i)
{
    for (size_t k = 0; k < cp->nseqs; k++) {
        const struct rule_data_seq *q = cp->seqs[k];
        if (q->run_form || !rule_data_cps_has(&q->chars, cps[i])) continue;
        int left = i > 0, right = i + 1 < n;
        if (q->has_after && !(left && rule_data_cps_has(&q->after, cps[i - 1]))) continue;
        if (q->has_before && !(right && rule_data_cps_has(&q->before, cps[i + 1]))) continue;
        if (q->has_next_to &&
            !((left && rule_data_cps_has(&q->next_to, cps[i - 1])) ||
              (right && rule_data_cps_has(&q->next_to, cps[i + 1]))))
            continue;
        return 1;
    }
    return 0;
}

/* When code point I starts a run form (it is the run's AFTER), the index of the run's END;
 * else 0. */
static size_t run_end(const struct chars_prog *cp, const uint32_t *cps, size_t n, size_t i)
{
    for (size_t k = 0; k < cp->nseqs; k++) {
        const struct rule_data_seq *q = cp->seqs[k];
        if (!q->run_form || !rule_data_cps_has(&q->after, cps[i])) continue;
        size_t j = i + 1;
        while (j < n && rule_data_cps_has(&q->run, cps[j]) && (!q->max || (long)(j - i) <= q->max))
            j++;
        long len = (long)(j - i - 1);
        if (len >= q->min && (!q->max || len <= q->max) && j < n &&
            rule_data_cps_has(&q->end, cps[j]))
            return j;
    }
    return 0;
}

int fn_chars_may_hold(const struct pred *p, const struct cursor *c, struct fn_text_scratch *scratch)
{
    const struct chars_prog *cp = p->data;
    /* a text node known to be ASCII without a code point looked for cannot */
    return !((c->text_facts & (SEL_TEXT_FACTS | SEL_TEXT_NON_ASCII)) == SEL_TEXT_FACTS &&
             !(c->text_ascii[0] & cp->ascii_bits[0]) && !(c->text_ascii[1] & cp->ascii_bits[1]) &&
             cp->run_lowest >= 0x80);
}

int fn_chars_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    if (!json_is_string(c->v)) return 0;
    const struct chars_prog *cp = p->data;
    if (!fn_chars_may_hold(p, c, NULL)) return 0;
    const char *s = json_string_value(c->v);
    size_t len = json_string_length(c->v), n = 0;
    /* Most texts are ASCII without a code point looked for (property names, enum values):
     * one byte scan answers them, with no decoding (a run form starts above ASCII). */
    size_t scan = 0;
    while (scan < len && (unsigned char)s[scan] < 0x80 && !cp->ascii[(unsigned char)s[scan]])
        scan++;
    if (scan == len && cp->run_lowest >= 0x80) return 0;
    /* the code points and where each starts (one more: the end) */
    uint32_t stack_cps[256];
    size_t stack_off[257];
    uint32_t *cps = len < 256 ? stack_cps : xmalloc(len * sizeof *cps);
    size_t *off = len < 256 ? stack_off : xmalloc((len + 1) * sizeof *off);
    for (size_t i = 0; i < len;) {
        size_t l;
        off[n] = i;
        cps[n++] = (uint32_t)phrase_utf8_next(s + i, len - i, &l);
        i += l;
    }
    off[n] = len;
    int hit = 0;
    size_t run = 0, start = 0;
    uint32_t lowest = cp->in.n ? cp->in.r[0][0] : UINT32_MAX;
    for (size_t i = 0; i < n && !hit; i++) {
        /* most text lies below every class looked for (ASCII): one comparison */
        int flagged =
            cps[i] >= lowest && rule_data_cps_has(&cp->in, cps[i]) && !excused(cp, cps, n, i);
        if (flagged) {
            if (!run++) start = i;
            if ((long)run >= cp->min_run) hit = 1;
        } else {
            run = 0;
        }
        size_t end = cps[i] >= cp->run_lowest ? run_end(cp, cps, n, i) : 0;
        if (end && !hit) { /* the run and its end are excused */
            i = end;
            run = 0;
        }
    }
    if (hit) {
        size_t last = start + run; /* for min-run, the whole run */
        while (cp->min_run > 1 && last < n && rule_data_cps_has(&cp->in, cps[last]) &&
               !excused(cp, cps, n, last))
            last++;
        if (cp->min_run == 1) last = start + 1;
        fn_match_note(ctx, off[start], off[last] - off[start]);
    }
    if (cps != stack_cps) free(cps);
    if (off != stack_off) free(off);
    return hit;
}
