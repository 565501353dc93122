/* fix.c - a rule's declared fix (ruleInt.h: struct rule_fix) turned into text edits at
 * the byte spans of the document model (doc.h: doc_node_span), written in the file's
 * own style: JSON values as JSON, YAML values as flow collections and plain scalars, a
 * new member at the indentation and with the line breaks of its neighbours; and every
 * fix of a text applied pass after pass until nothing is left to fix. */
#include "findings/fix.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/util.h"
#include "base/val.h"
#include "rules/ruleInt.h"

/* ---- values as text ------------------------------------------------------------- */

/* Can S be written as a YAML plain scalar and read back as the same string (under the
 * loader's core schema and YAML 1.1's booleans, to be safe with other readers)? */
static int yaml_plain_ok(const char *s, size_t n)
{
    static const char *const reserved[] = {"true", "false", "null", "yes", "no", "on",
                                           "off",  "y",     "n",    "~",   NULL};
    if (!n || strlen(s) != n) return 0;
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == '/')) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || c == '/'))
            return 0;
    }
    for (const char *const *r = reserved; *r; r++)
        if (!strcasecmp(s, *r)) return 0;
    return 1;
}

static void emit_string(struct buf *b, const char *s, size_t n, int yaml)
{
    if (yaml && yaml_plain_ok(s, n)) {
        buf_add(b, s, n);
        return;
    }
    buf_addc(b, '"'); /* a JSON string is a YAML double-quoted scalar */
    buf_add_json_escaped(b, s, n);
    buf_addc(b, '"');
}

/* V as JSON (YAML: a flow collection, plain scalars where they read back the same), on
 * one line: {"not": {}} or {not: {}}. */
static void emit_value(struct buf *b, json_t *v, int yaml)
{
    if (json_is_object(v)) {
        buf_addc(b, '{');
        const char *k;
        json_t *m;
        int first = 1;
        json_object_foreach(v, k, m)
        {
            buf_adds(b, first ? "" : ", ");
            first = 0;
            emit_string(b, k, strlen(k), yaml);
            buf_adds(b, ": ");
            emit_value(b, m, yaml);
        }
        buf_addc(b, '}');
    } else if (json_is_array(v)) {
        buf_addc(b, '[');
        for (size_t i = 0; i < json_array_size(v); i++) {
            buf_adds(b, i ? ", " : "");
            emit_value(b, json_array_get(v, i), yaml);
        }
        buf_addc(b, ']');
    } else if (json_is_string(v)) {
        emit_string(b, json_string_value(v), json_string_length(v), yaml);
    } else {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        buf_adds(b, s);
        free(s);
    }
}

/* ---- edits ---------------------------------------------------------------------- */

struct edits {
    VEC(struct fix_edit) e;
};

static void add_edit(struct edits *es, size_t start, size_t end, char *text)
{
    struct fix_edit e = {start, end, text};
    VEC_PUSH(es->e, e);
}

/* The line break used at OFFSET's line ("\r\n" or "\n"; "\n" on a last line without). */
static const char *line_break_at(const char *t, size_t len, size_t off)
{
    const char *nl = memchr(t + off, '\n', len - off);
    if (!nl) {
        for (size_t i = off; i-- > 0;)
            if (t[i] == '\n') return i > 0 && t[i - 1] == '\r' ? "\r\n" : "\n";
        return "\n";
    }
    return nl > t && nl[-1] == '\r' ? "\r\n" : "\n";
}

static size_t line_start(const char *t, size_t off)
{
    while (off > 0 && t[off - 1] != '\n') off--;
    return off;
}

/* Replace the value of node N with V. 0: not safely editable. */
static int edit_replace(const doc *d, doc_node n, json_t *v, struct edits *es)
{
    struct doc_span sp;
    int flags = doc_node_span(d, n, &sp, NULL);
    if (flags < 0 || (flags & DOC_SPAN_SHARED)) return 0;
    size_t len;
    const char *t = doc_text(d, &len);
    struct buf b = BUF_INIT;
    /* YAML "key:" with no value: the span is empty, right after the colon */
    if (doc_is_yaml(d) && sp.start == sp.end && sp.start > 0 && t[sp.start - 1] == ':')
        buf_addc(&b, ' ');
    emit_value(&b, v, doc_is_yaml(d));
    add_edit(es, sp.start, sp.end, buf_detach(&b));
    return 1;
}

/* Add MEMBER: V to the object OBJ at node N, as its first member. */
static int edit_insert(const doc *d, doc_node n, const char *member, json_t *v, struct edits *es)
{
    struct doc_span os, ks;
    int flags = doc_node_span(d, n, &os, NULL);
    if (flags < 0 || (flags & DOC_SPAN_SHARED)) return 0;
    int yaml = doc_is_yaml(d);
    size_t len;
    const char *t = doc_text(d, &len);
    struct buf kv = BUF_INIT;
    emit_string(&kv, member, strlen(member), yaml);
    buf_adds(&kv, ": ");
    emit_value(&kv, v, yaml);
    /* before the first member written in this mapping (merged members' keys are in
     * their source mappings) */
    doc_node first = doc_node_first_child(d, n);
    while (first != DOC_NONE && (doc_node_span(d, first, NULL, &ks) & DOC_SPAN_SHARED))
        first = doc_node_next_sibling(d, n, first);
    if (first == DOC_NONE && doc_node_first_child(d, n) != DOC_NONE) {
        buf_release(&kv); /* only merged members: no place of its own to write in */
        return 0;
    }
    struct buf b = BUF_INIT;
    if (!yaml || (flags & DOC_SPAN_FLOW)) {
        if (first == DOC_NONE) { /* {} (perhaps spread over lines): written on one line */
            if (os.end - os.start < 2 || t[os.start] != '{' || t[os.end - 1] != '}') {
                buf_release(&kv);
                return 0;
            }
            buf_addf(&b, "{%s}", buf_str(&kv));
            add_edit(es, os.start, os.end, buf_detach(&b));
        } else { /* before the first member, laid out as it is */
            size_t nl = ks.start;
            while (nl > os.start && t[nl - 1] != '\n') nl--;
            buf_add(&b, kv.s, kv.len);
            if (nl > os.start) {
                buf_addc(&b, ',');
                buf_adds(&b, nl - 1 > os.start && t[nl - 2] == '\r' ? "\r\n" : "\n");
                buf_add(&b, t + nl, ks.start - nl);
            } else {
                buf_adds(&b, ", ");
            }
            add_edit(es, ks.start, ks.start, buf_detach(&b));
        }
    } else { /* a block mapping: a line at the first member's indentation */
        if (first == DOC_NONE) {
            buf_release(&kv);
            return 0;
        }
        size_t ls = line_start(t, ks.start), col = 0;
        for (size_t i = ls; i < ks.start; i++) col += ((unsigned char)t[i] & 0xC0) != 0x80;
        buf_add(&b, kv.s, kv.len);
        buf_adds(&b, line_break_at(t, len, ks.start));
        for (size_t i = 0; i < col; i++) buf_addc(&b, ' ');
        add_edit(es, ks.start, ks.start, buf_detach(&b));
    }
    buf_release(&kv);
    return 1;
}

/* Remove member node M of the object at node N. */
static int edit_remove(const doc *d, doc_node n, doc_node m, struct edits *es)
{
    struct doc_span os, ms, mk;
    int flags = doc_node_span(d, n, &os, NULL);
    int mflags = doc_node_span(d, m, &ms, &mk);
    if (flags < 0 || mflags < 0 || ((flags | mflags) & DOC_SPAN_SHARED)) return 0;
    size_t len;
    const char *t = doc_text(d, &len);
    doc_node prev = DOC_NONE, next = doc_node_next_sibling(d, n, m);
    for (doc_node c = doc_node_first_child(d, n); c != DOC_NONE && c != m;
         c = doc_node_next_sibling(d, n, c))
        prev = c;
    struct doc_span ps, nk;
    if (!doc_is_yaml(d) || (flags & DOC_SPAN_FLOW)) {
        if (next != DOC_NONE) {
            doc_node_span(d, next, NULL, &nk);
            add_edit(es, mk.start, nk.start, xstrdup(""));
        } else if (prev != DOC_NONE) {
            doc_node_span(d, prev, &ps, NULL);
            add_edit(es, ps.end, ms.end, xstrdup(""));
        } else {
            add_edit(es, os.start, os.end, xstrdup("{}"));
        }
        return 1;
    }
    /* block: whole lines, from the key's line to the end of the value's */
    if (prev == DOC_NONE && next == DOC_NONE) return 0; /* would leave null, not {} */
    size_t ls = line_start(t, mk.start);
    for (size_t i = ls; i < mk.start; i++)
        if (t[i] != ' ') return 0; /* "- key: v": the key shares its line */
    const char *nl = memchr(t + ms.end, '\n', len - ms.end);
    size_t end = nl ? (size_t)(nl - t) + 1 : len;
    add_edit(es, ls, end, xstrdup(""));
    return 1;
}

int fix_for_diag(const struct rule_set *rs, const doc *d, const struct diag *dg,
                 struct fix_offer *out)
{
    memset(out, 0, sizeof *out);
    const struct rule_fix *f = dg->fix;
    if (!f || !dg->pointer || dg->component) return 0;
    char *target = xasprintf("%s%s", dg->pointer, f->at);
    struct ptr p = PTR_INIT;
    const char *why;
    json_t *v = ptr_parse(target, &p, &why) == 0 ? ptr_get(doc_root(d), &p) : NULL;
    doc_node n = doc_pointer_node(d, target);
    ptr_release(&p);
    free(target);
    if (!v || n == DOC_NONE) return 0;
    struct edits es = {VEC_INIT};
    int ok = 0;
    if (f->op == RULE_FIX_REPLACE) {
        ok = !val_equal(v, f->value) && edit_replace(d, n, f->value, &es);
    } else if (json_is_object(v)) {
        json_t *had = json_object_get(v, f->member);
        doc_node m = had ? doc_node_member(d, n, v, f->member) : DOC_NONE;
        if (had && m == DOC_NONE) ok = 0; /* a member the source does not hold */
        else if (f->op == RULE_FIX_REMOVE) ok = had && edit_remove(d, n, m, &es);
        else if (!had) ok = edit_insert(d, n, f->member, f->value, &es);
        else if (f->op == RULE_FIX_SET)
            ok = !val_equal(had, f->value) && edit_replace(d, m, f->value, &es);
    }
    if (!ok) {
        for (size_t i = 0; i < es.e.len; i++) free(es.e.items[i].text);
        VEC_FREE(es.e);
        return 0;
    }
    const struct rule *r = dg->rule ? rule_set_find(rs, dg->rule) : NULL;
    out->rule = r ? rule_id(r) : NULL; /* the rule set's copy: it outlives the diagnostics */
    out->title = xstrdup(dg->fix_title ? dg->fix_title : f->title);
    out->edits = es.e.items;
    out->nedits = es.e.len;
    return 1;
}

void fix_offer_release(struct fix_offer *o)
{
    for (size_t i = 0; i < o->nedits; i++) free(o->edits[i].text);
    free(o->edits);
    free(o->title);
    memset(o, 0, sizeof *o);
}

/* Append V to the array at node N, as its last item, laid out as the items before it:
 * JSON and YAML flow sequences after the last item (on a line of its own when that item
 * has one), a block sequence as a "- " line at the last item's dash. 0: not safely
 * editable. */
static int edit_append(const doc *d, doc_node n, json_t *v, struct edits *es)
{
    struct doc_span as, ls;
    int flags = doc_node_span(d, n, &as, NULL);
    if (flags < 0 || (flags & DOC_SPAN_SHARED)) return 0;
    int yaml = doc_is_yaml(d);
    size_t len;
    const char *t = doc_text(d, &len);
    doc_node last = DOC_NONE;
    for (doc_node c = doc_node_first_child(d, n); c != DOC_NONE; c = doc_node_next_sibling(d, n, c))
        last = c;
    struct buf b = BUF_INIT;
    if (last == DOC_NONE) { /* [] (perhaps spread over lines): written on one line */
        if (as.end - as.start < 2 || t[as.start] != '[' || t[as.end - 1] != ']') return 0;
        buf_addc(&b, '[');
        emit_value(&b, v, yaml);
        buf_addc(&b, ']');
        add_edit(es, as.start, as.end, buf_detach(&b));
        return 1;
    }
    int lflags = doc_node_span(d, last, &ls, NULL);
    if (lflags < 0 || (lflags & DOC_SPAN_SHARED)) return 0;
    if (!yaml || (flags & DOC_SPAN_FLOW)) {
        size_t nl = ls.start, k;
        while (nl > as.start && t[nl - 1] != '\n') nl--;
        for (k = nl; k < ls.start && (t[k] == ' ' || t[k] == '\t'); k++) continue;
        if (nl > as.start && k == ls.start) { /* the last item has a line of its own */
            buf_addc(&b, ',');
            buf_adds(&b, nl >= 2 && t[nl - 2] == '\r' ? "\r\n" : "\n");
            buf_add(&b, t + nl, ls.start - nl);
        } else {
            buf_adds(&b, ", ");
        }
        emit_value(&b, v, yaml);
        add_edit(es, ls.end, ls.end, buf_detach(&b));
        return 1;
    }
    /* a block sequence: "- " at the column of the last item's dash, after its line */
    size_t dash = ls.start;
    while (dash > as.start && t[dash - 1] == ' ') dash--;
    if (dash == 0 || t[dash - 1] != '-') return 0;
    dash--;
    size_t lstart = line_start(t, dash);
    for (size_t i = lstart; i < dash; i++)
        if (t[i] != ' ') return 0; /* "- - x": the dash shares its line */
    const char *nl = memchr(t + ls.end, '\n', len - ls.end);
    size_t at = nl ? (size_t)(nl - t) : len;
    if (at > ls.end && t[at - 1] == '\r') at--;
    buf_adds(&b, line_break_at(t, len, ls.end));
    for (size_t i = lstart; i < dash; i++) buf_addc(&b, ' ');
    buf_adds(&b, "- ");
    emit_value(&b, v, yaml);
    add_edit(es, at, at, buf_detach(&b));
    return 1;
}

/* The node at POINTER of D and its value, or DOC_NONE. */
static doc_node node_at(const doc *d, const char *pointer, json_t **v)
{
    struct ptr p = PTR_INIT;
    const char *why;
    *v = ptr_parse(pointer, &p, &why) == 0 ? ptr_get(doc_root(d), &p) : NULL;
    ptr_release(&p);
    doc_node n = *v ? doc_pointer_node(d, pointer) : DOC_NONE;
    return n;
}

/* The one edit of ES into *OUT, or 0 when there is none. */
static int one_edit(struct edits *es, int ok, struct fix_edit *out)
{
    if (ok && es->e.len == 1) {
        *out = es->e.items[0];
        VEC_FREE(es->e);
        return 1;
    }
    for (size_t i = 0; i < es->e.len; i++) free(es->e.items[i].text);
    VEC_FREE(es->e);
    return 0;
}

int fix_insert_member(const doc *d, const char *pointer, const char *member, json_t *value,
                      struct fix_edit *out)
{
    memset(out, 0, sizeof *out);
    json_t *v;
    doc_node n = node_at(d, pointer, &v);
    if (n == DOC_NONE || !json_is_object(v) || json_object_get(v, member)) return 0;
    struct edits es = {VEC_INIT};
    return one_edit(&es, edit_insert(d, n, member, value, &es), out);
}

int fix_append_item(const doc *d, const char *pointer, json_t *value, struct fix_edit *out)
{
    memset(out, 0, sizeof *out);
    json_t *v;
    doc_node n = node_at(d, pointer, &v);
    if (n == DOC_NONE || !json_is_array(v)) return 0;
    struct edits es = {VEC_INIT};
    return one_edit(&es, edit_append(d, n, value, &es), out);
}

/* ---- every fix, to a fixpoint --------------------------------------------------- */

/* Do edits A and B touch the same bytes (two insertions at one place count)? */
static int overlaps(const struct fix_edit *a, const struct fix_edit *b)
{
    if (a->start == b->start) return 1;
    return a->start < b->end && b->start < a->end;
}

static int edit_cmp(const void *pa, const void *pb)
{
    const struct fix_edit *a = *(const struct fix_edit *const *)pa,
                          *b = *(const struct fix_edit *const *)pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* One pass: the edits of the offers of R's diagnostics that overlap no earlier offer's,
 * applied to TEXT. Returns the number of offers applied (0: TEXT unchanged). */
static int apply_pass(const struct rule_set *rs, struct judge_result *r, struct buf *text)
{
    VEC(struct fix_offer) offers = VEC_INIT;
    VEC(const struct fix_edit *) taken = VEC_INIT;
    int applied = 0;
    for (size_t i = 0; i < r->diags.len; i++) {
        const struct diag *dg = &r->diags.items[i];
        struct fix_offer o;
        if (diag_hidden(dg) || !fix_for_diag(rs, r->d, dg, &o)) continue;
        int clash = 0;
        for (size_t k = 0; k < o.nedits && !clash; k++)
            for (size_t j = 0; j < taken.len && !clash; j++)
                clash = overlaps(&o.edits[k], taken.items[j]);
        if (clash) {
            fix_offer_release(&o);
            continue;
        }
        VEC_PUSH(offers, o);
        applied++;
        /* each offer's edits are an allocation of their own: they stay where they are
         * when the vector of offers moves */
        for (size_t k = 0; k < o.nedits; k++) VEC_PUSH(taken, &o.edits[k]);
    }
    if (applied) {
        qsort(taken.items, taken.len, sizeof *taken.items, edit_cmp);
        size_t len;
        const char *t = doc_text(r->d, &len);
        struct buf out = BUF_INIT;
        size_t at = 0;
        for (size_t j = 0; j < taken.len; j++) {
            buf_add(&out, t + at, taken.items[j]->start - at);
            buf_adds(&out, taken.items[j]->text);
            at = taken.items[j]->end;
        }
        buf_add(&out, t + at, len - at);
        buf_release(text);
        *text = out;
    }
    for (size_t j = 0; j < offers.len; j++) fix_offer_release(&offers.items[j]);
    VEC_FREE(offers);
    VEC_FREE(taken);
    return applied;
}

char *fix_text(const struct rule_set *rs, const struct fix_opts *opts, const char *name,
               const char *text, size_t len, size_t *out_len, int *napplied, struct diag_list *errs)
{
    struct buf cur = BUF_INIT;
    buf_add(&cur, text, len);
    int total = 0, failed = 0, pass;
    for (pass = 0; pass <= FIX_MAX_PASSES; pass++) {
        struct judge_source src = {JUDGE_BUFFER, name, NULL, cur.s ? cur.s : "", cur.len};
        struct judge_result r;
        judge_document(rs, &src, opts ? opts->judge : NULL, &r);
        if (r.d && opts && opts->filter) opts->filter(rs, r.d, name, &r.diags, opts->filter_arg);
        if (r.error) {
            struct diag *e = r.error;
            if (pass == 0) diag_errorf(errs, e->file, e->line, e->col, "%s", e->message);
            else {
                /* the place is in the text the fixes made, which no file holds */
                struct buf at = BUF_INIT;
                if (e->line) {
                    buf_adds(&at, " at ");
                    loc_add_pos(&at, e->line, e->col);
                }
                diag_errorf(errs, name, 0, 0,
                            "the fixes made text that does not parse (%s%s); nothing "
                            "written (a bug: please report it)",
                            e->message, buf_str(&at));
                buf_release(&at);
            }
            failed = 1;
        }
        int n = !failed && r.d && pass < FIX_MAX_PASSES ? apply_pass(rs, &r, &cur) : 0;
        if (!failed && r.d && pass == FIX_MAX_PASSES) { /* one more pass would still fix */
            struct buf probe = BUF_INIT;
            buf_add(&probe, cur.s ? cur.s : "", cur.len);
            if (apply_pass(rs, &r, &probe)) {
                diag_errorf(errs, name, 0, 0,
                            "the fixes reach no fixpoint in %d passes; nothing written (a "
                            "bug in a rule's fix: please report it)",
                            FIX_MAX_PASSES);
                failed = 1;
            }
            buf_release(&probe);
        }
        judge_result_release(&r);
        total += n;
        if (failed || !n) break;
    }
    if (napplied) *napplied = failed ? -1 : total;
    if (failed || !total) {
        buf_release(&cur);
        if (out_len) *out_len = 0;
        return NULL;
    }
    if (out_len) *out_len = cur.len;
    return buf_detach(&cur);
}
