/* doc_yaml.c - load YAML into a doc (docInt.h) from libyaml's events: one handler per
 * event kind on a loader state (struct yload), YAML 1.2 core-schema scalars, anchors and
 * aliases (copies of their source's index entries, so positions are the source's), merge
 * keys, and the bounds on depth, nodes and alias and merge expansion. */
#include "doc/docInt.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <yaml.h>

#include "base/buf.h"
#include "base/util.h"

/* ---- YAML ---------------------------------------------------------------------- */

struct yanchor {
    char *name;
    json_t *value;           /* a reference of its own */
    uint32_t first, count;   /* its entries in the index, copied on each alias */
    uint32_t line, col;      /* a key's anchor (first = UINT32_MAX): the key's position */
    struct doc_entry *saved; /* its entries, once a merge took them out of the index */
};

struct yframe {
    json_t *container;
    uint32_t entry;
    char *pending_key; /* mapping: key read, value not yet */
    uint32_t kline, kcol;
    uint32_t kstart, kend; /* the pending key's bytes */
    int flow;              /* a flow collection ({...} or [...]) */
    char *anchor;          /* anchor of the container itself */
    /* Merge keys (see yaml_merge). */
    int merge_value;      /* mapping: the pending key is the merge key << */
    int had_merge;        /* mapping: a << was read (a second one is refused) */
    int merge_list;       /* sequence: it is the value of a <<, its items are merged */
    json_t *merged;       /* mapping: each merged member's key -> its node (an integer) */
    uint32_t first_gone;  /* mapping: first merged member a later key overrode, or UINT32_MAX */
    size_t anchors_at;    /* anchors registered before the frame began ... */
    size_t merge_anchors; /* ... and before the value of its << began */
};

/* A number the JSON loader would refuse (an integer beyond 64 bits, a real beyond a
 * double): refused here too rather than rounded, or kept as text. New message. */
static char *yaml_number_error(const char *what, const char *v, size_t n, const char *fit)
{
    return xasprintf("%s %.40s%s does not fit in %s (quote it to keep it as text)", what, v,
                     n > 40 ? "..." : "", fit);
}

/* ---- YAML 1.2 core schema ----------------------------------------------------------
 * The rows of the core schema's tag resolution table (YAML 1.2.2, 10.3.2,
 * https://yaml.org/spec/1.2.2/#1032-tag-resolution), first match wins, one matcher per
 * regular expression of the table. */

#define YAML_DIGITS "0123456789"

/* [-+]? [0-9]+ */
static int yaml_is_int10(const char *v)
{
    v += (*v == '-' || *v == '+');
    size_t d = strspn(v, YAML_DIGITS);
    return d > 0 && !v[d];
}

/* 0o [0-7]+ (8) and 0x [0-9a-fA-F]+ (16): the base, or 0 */
static int yaml_radix(const char *v)
{
    if (v[0] != '0') return 0;
    if (v[1] == 'o' && v[2] && !v[2 + strspn(v + 2, "01234567")]) return 8;
    if (v[1] == 'x' && v[2] && !v[2 + strspn(v + 2, YAML_DIGITS "abcdefABCDEF")]) return 16;
    return 0;
}

/* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static int yaml_is_float(const char *v)
{
    v += (*v == '-' || *v == '+');
    size_t d = strspn(v, YAML_DIGITS);
    if (*v == '.') {
        d = strspn(++v, YAML_DIGITS);
        if (!d) return 0;
        v += d;
    } else {
        if (!d) return 0;
        v += d;
        if (*v == '.') v += 1 + strspn(v + 1, YAML_DIGITS);
    }
    if (*v == 'e' || *v == 'E') {
        v++;
        v += (*v == '-' || *v == '+');
        d = strspn(v, YAML_DIGITS);
        if (!d) return 0;
        v += d;
    }
    return !*v;
}

/* [-+]? ( \.inf | \.Inf | \.INF ) and \.nan | \.NaN | \.NAN */
static int yaml_is_inf(const char *v)
{
    v += (*v == '-' || *v == '+');
    return !strcmp(v, ".inf") || !strcmp(v, ".Inf") || !strcmp(v, ".INF");
}
static int yaml_is_nan(const char *v)
{
    return !strcmp(v, ".nan") || !strcmp(v, ".NaN") || !strcmp(v, ".NAN");
}

static int yaml_is_null(const char *v)
{
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* 1 true, 0 false, -1 neither */
static int yaml_bool(const char *v)
{
    if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return 1;
    if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return 0;
    return -1;
}

/* The digits of V (after its 0o or 0x) in BASE; NULL with *why past INT64_MAX: JSON
 * integers are 64-bit signed here (jansson's json_int_t), and the JSON reader refuses a
 * bigger one ("too big integer"), so YAML does not wrap or round it either. */
static json_t *yaml_radix_int(const char *v, size_t n, int base, char **why)
{
    uint64_t x = 0;
    for (const char *p = v + 2; *p; p++) {
        unsigned digit = *p <= '9' ? (unsigned)(*p - '0') : (unsigned)((*p | 0x20) - 'a' + 10);
        if (x > ((uint64_t)INT64_MAX - digit) / (uint64_t)base) {
            *why = yaml_number_error("integer", v, n, "64 bits");
            return NULL;
        }
        x = x * (uint64_t)base + digit;
    }
    return json_integer((json_int_t)x);
}

/* The int and float rows' values (AS_FLOAT: an explicit !!float, so an integer's text
 * gives a real), or NULL with *why (new) for a number out of range, or .inf/.nan: JSON
 * has no value for them (RFC 8259, section 6). NULL without *why: not a number. */
static json_t *yaml_number_value(const char *v, size_t n, int as_float, char **why)
{
    int base = yaml_radix(v);
    if (base) return yaml_radix_int(v, n, base, why);
    char *endp;
    if (yaml_is_int10(v) && !as_float) {
        errno = 0;
        long long i = strtoll(v, &endp, 10);
        if (errno == 0) return json_integer(i);
        *why = yaml_number_error("integer", v, n, "64 bits");
        return NULL;
    }
    if (yaml_is_int10(v) || yaml_is_float(v)) {
        errno = 0;
        double x = strtod(v, &endp);
        if (errno == 0 || !isinf(x)) return json_real(x); /* underflow: rounded, as jansson does */
        *why = yaml_number_error("number", v, n, "a double");
        return NULL;
    }
    if (yaml_is_inf(v) || yaml_is_nan(v)) {
        *why = xasprintf("%s is a YAML float with no JSON value (RFC 8259 has no Infinity or "
                         "NaN; quote it to keep it as text)",
                         v);
        return NULL;
    }
    return NULL;
}

/* The core schema's rows for a plain scalar V (N bytes, no NUL): null, bool, int
 * (decimal, 0o octal, 0x hex), float (.inf and .nan refused), else a string. NULL with
 * *why (new) when the value has no JSON form. */
static json_t *yaml_core_value(const char *v, size_t n, int as_float, char **why)
{
    if (yaml_is_null(v)) return json_null();
    int b = yaml_bool(v);
    if (b >= 0) return json_boolean(b);
    json_t *num = yaml_number_value(v, n, as_float, why);
    if (num || *why) return num;
    return json_stringn(v, n);
}

/* Whether V is a form of the core schema's TAG (an explicit !!null, !!bool, !!int or
 * !!float), -1 when TAG is not one of those. */
static int yaml_fits_core_tag(const char *tag, const char *v)
{
    if (!strcmp(tag, YAML_NULL_TAG)) return yaml_is_null(v);
    if (!strcmp(tag, YAML_BOOL_TAG)) return yaml_bool(v) >= 0;
    if (!strcmp(tag, YAML_INT_TAG)) return yaml_is_int10(v) || yaml_radix(v);
    if (!strcmp(tag, YAML_FLOAT_TAG))
        return yaml_is_int10(v) || yaml_is_float(v) || yaml_is_inf(v) || yaml_is_nan(v);
    return -1;
}

/* A scalar's value. Untagged: a plain scalar resolves by the core schema; a quoted or
 * block scalar is a string, as is one tagged !!str or ! (the non-specific tag, YAML 1.2.2
 * 6.9.1). Tagged !!null, !!bool, !!int or !!float: its text must be a form of that tag.
 * Other tags resolve as a plain scalar would. NULL with *why (new). */
static json_t *yaml_scalar_value(const yaml_event_t *ev, char **why)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    if (tag && (!strcmp(tag, YAML_STR_TAG) || !strcmp(tag, "!"))) return json_stringn(v, n);
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE && !tag) return json_stringn(v, n);
    if (strlen(v) != n) return json_stringn(v, n); /* a NUL: text */
    int fits = tag ? yaml_fits_core_tag(tag, v) : -1;
    if (fits == 0) {
        *why = xasprintf("\"%.40s%s\" is not a form of its tag !!%s in the YAML 1.2 core "
                         "schema (drop the tag to keep it as text)",
                         v, n > 40 ? "..." : "", tag + strlen("tag:yaml.org,2002:"));
        return NULL;
    }
    return yaml_core_value(v, n, tag && !strcmp(tag, YAML_FLOAT_TAG), why);
}

static const char *yaml_event_name(yaml_event_type_t t)
{
    switch (t) {
    case YAML_SEQUENCE_START_EVENT: return "a sequence";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    case YAML_ALIAS_EVENT: return "an alias"; /* not "a alias" */
    default: return "a value";
    }
}

/* Where libyaml's problem is. A reader error (bad UTF-8, a control character) has no
 * mark, only a byte offset: for a bad trailing octet the offset of that octet, so the
 * position is that of the sequence's first byte. Columns count characters. */
static struct doc_pos yaml_problem_pos(const doc *d, const yaml_parser_t *parser)
{
    if (parser->error != YAML_READER_ERROR)
        return (struct doc_pos){(uint32_t)parser->problem_mark.line + 1,
                                (uint32_t)parser->problem_mark.column + 1};
    const unsigned char *t = (const unsigned char *)d->text;
    size_t at = parser->problem_offset < d->len ? parser->problem_offset : d->len;
    if (at > 0 && parser->problem && !strcmp(parser->problem, "invalid trailing UTF-8 octet")) {
        at--;
        while (at > 0 && (t[at] & 0xC0) == 0x80) at--;
    }
    struct doc_pos p = {1, 1};
    for (size_t i = doc_bom_len(d->text, d->len); i < at;) {
        size_t n = doc_break_len(d, i);
        if (n) {
            p.line++, p.col = 1;
            i += n;
            continue;
        }
        p.col += (t[i++] & 0xC0) != 0x80;
    }
    return p;
}

/* libyaml places an empty value at the very end of a text without a final line break
 * (the value of "---") on a line after the last: put it at the end of the last line. */
static void yaml_clamp_positions(doc *d)
{
    doc_line_table(d);
    uint32_t last = (uint32_t)d->line_starts.len, end_col = 1;
    const unsigned char *t = (const unsigned char *)d->text;
    for (size_t i = d->line_starts.items[last - 1]; i < d->len; i++)
        end_col += (t[i] & 0xC0) != 0x80;
    for (size_t i = 0; i < d->idx.len; i++) {
        struct doc_entry *e = &d->idx.items[i];
        if (e->line > last) e->line = last, e->col = end_col;
        if (e->kline > last) e->kline = last, e->kcol = end_col;
    }
}

/* The merge key (https://yaml.org/type/merge.html) is the plain scalar << (or one tagged
 * !!merge); a quoted "<<" or !!str << is a member named "<<". */
static int yaml_is_merge_key(const yaml_event_t *ev)
{
    const char *tag = (const char *)ev->data.scalar.tag;
    if (ev->data.scalar.length != 2 || memcmp(ev->data.scalar.value, "<<", 2)) return 0;
    if (tag) return !strcmp(tag, "tag:yaml.org,2002:merge");
    return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static struct yanchor *yaml_find_anchor(struct yanchor *a, size_t n, const char *name)
{
    while (n-- > 0)
        if (!strcmp(a[n].name, name)) return &a[n];
    return NULL;
}

static const char *yaml_kind(const json_t *v)
{
    if (json_is_object(v)) return "a mapping";
    if (json_is_array(v)) return "a sequence";
    return "a scalar";
}

/* A run of the index kept when a merge closes up: SIZE entries at SRC go to DST. */
struct yspan {
    uint32_t src, size, dst;
    const char *key; /* a merged member's key (borrowed) */
};

/* Reduces index entries [FROM, end) to the spans KEEP (in order, not overlapping), moved
 * down to start at FROM. Anchors registered from A0 on whose entries were there follow
 * their span, or, dropped, keep a copy of their entries (an anchored merge source, a
 * merged member overridden). Adds the work done to *WORK. */
static void yaml_close_up(doc *d, uint32_t from, struct yspan *keep, size_t n, struct yanchor *an,
                          size_t a0, size_t na, size_t *work)
{
    uint32_t dst = from;
    for (size_t i = 0; i < n; i++) {
        keep[i].dst = dst;
        dst += keep[i].size;
    }
    *work += (d->idx.len - from) + (na - a0);
    for (size_t j = a0; j < na; j++) {
        struct yanchor *a = &an[j];
        if (a->first == UINT32_MAX || a->saved || a->first < from) continue;
        size_t lo = 0, hi = n; /* the last span starting at or before the anchor */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (keep[mid].src <= a->first) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && a->first < keep[lo - 1].src + keep[lo - 1].size) {
            a->first = a->first - keep[lo - 1].src + keep[lo - 1].dst;
        } else {
            a->saved = xmalloc(a->count * sizeof *a->saved);
            memcpy(a->saved, d->idx.items + a->first, a->count * sizeof *a->saved);
            *work += a->count;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (keep[i].dst != keep[i].src)
            memmove(d->idx.items + keep[i].dst, d->idx.items + keep[i].src,
                    keep[i].size * sizeof *d->idx.items);
    d->idx.len = dst;
}

/* "<<: VALUE" in mapping frame T: VALUE (a mapping, or a sequence of mappings; consumed)
 * has its entries at the end of the index from node V. Each source mapping's members that
 * T does not have yet (written before the <<, or merged from an earlier source: earlier
 * wins) become T's members where the << is, with their entries, so their positions are
 * the sources'; the rest of the value's entries go. A key written after the << overrides
 * its merged member later (see first_gone). */
static void yaml_merge(doc *d, struct yframe *t, json_t *value, uint32_t v, struct yanchor *an,
                       size_t na, size_t *work)
{
    VEC(struct yspan) keep = VEC_INIT;
    int list = json_is_array(value);
    size_t nsrc = list ? json_array_size(value) : 1;
    uint32_t s = list ? v + 1 : v; /* the node of the current source */
    for (size_t i = 0; i < nsrc; i++) {
        json_t *src = list ? json_array_get(value, i) : value;
        uint32_t c = s + 1;
        for (void *it = json_object_iter(src); it; it = json_object_iter_next(src, it)) {
            const char *k = json_object_iter_key(it);
            uint32_t size = d->idx.items[c].size;
            if (!json_object_get(t->container, k)) {
                json_object_set(t->container, k, json_object_iter_value(it));
                struct yspan sp = {c, size, 0, k};
                VEC_PUSH(keep, sp);
            }
            c += size;
        }
        s += d->idx.items[s].size;
    }
    yaml_close_up(d, v, keep.items, keep.len, an, t->merge_anchors, na, work);
    for (size_t i = 0; i < keep.len; i++) /* a merged member's text is its source's */
        for (uint32_t k = 0; k < keep.items[i].size; k++)
            d->idx.items[keep.items[i].dst + k].flags |= DOC_SPAN_SHARED;
    if (!t->merged) t->merged = json_object();
    for (size_t i = 0; i < keep.len; i++)
        json_object_set_new(t->merged, keep.items[i].key, json_integer(keep.items[i].dst));
    VEC_FREE(keep);
    json_decref(value);
}

/* At the end of mapping frame F: the merged members that keys written after the << have
 * overridden (marked kline = 0) leave the index. */
static void yaml_drop_overridden(doc *d, const struct yframe *f, struct yanchor *an, size_t na,
                                 size_t *work)
{
    VEC(struct yspan) keep = VEC_INIT;
    for (uint32_t c = f->first_gone; c < d->idx.len; c += d->idx.items[c].size)
        if (d->idx.items[c].kline) {
            struct yspan sp = {c, d->idx.items[c].size, 0, NULL};
            VEC_PUSH(keep, sp);
        }
    yaml_close_up(d, f->first_gone, keep.items, keep.len, an, f->anchors_at, na, work);
    VEC_FREE(keep);
}

/* Why the value event EV (at the start of the value of a <<, or an item of its sequence:
 * IN_LIST) cannot be merged, or NULL. */
static char *yaml_merge_refusal(const yaml_event_t *ev, int in_list, struct yanchor *an, size_t na)
{
    const char *what = NULL;
    if (ev->type == YAML_SCALAR_EVENT) {
        what = "a scalar";
    } else if (ev->type == YAML_SEQUENCE_START_EVENT && in_list) {
        what = "a sequence inside its sequence";
    } else if (ev->type == YAML_ALIAS_EVENT) {
        const char *name = (const char *)ev->data.alias.anchor;
        const struct yanchor *a = yaml_find_anchor(an, na, name);
        if (!a || json_is_object(a->value)) return NULL; /* no anchor: the alias's own error */
        int ok = !in_list && json_is_array(a->value);
        for (size_t i = 0; ok && i < json_array_size(a->value); i++)
            ok = json_is_object(json_array_get(a->value, i));
        if (ok) return NULL;
        return xasprintf("merge key << takes a mapping or a sequence of mappings, not *%s (%s%s)",
                         name,
                         in_list && json_is_array(a->value) ? "a sequence inside its sequence"
                                                            : yaml_kind(a->value),
                         !in_list && json_is_array(a->value) ? " holding other than mappings" : "");
    }
    if (!what) return NULL;
    return xasprintf("merge key << takes a mapping or a sequence of mappings, not %s (quote "
                     "\"<<\" for a member of that name)",
                     what);
}

/* The loader's state: the document being built, the open collections, the anchors seen,
 * the bounds, and the position of the event being handled (for its errors). */
struct yload {
    doc *d;
    const struct doc_limits *lim;
    struct doc_error *err;
    VEC(struct yframe) st;
    VEC(struct yanchor) anchors;
    size_t max_nodes;
    /* Merges copy entries in and close the index up: that work is bounded too (merges
     * of merges, nested inline merges, many copies merged away). */
    size_t work, max_work;
    int docs;
    uint32_t line, col;      /* the current event's start */
    uint32_t start, end;     /* and its bytes (from libyaml's mark indexes) */
    size_t at_char, at_byte; /* the last mark converted: character index, byte offset */
    int ascii;               /* the text after any byte order mark is ASCII */
};

/* libyaml's mark index counts characters after the byte order mark (a CRLF is two):
 * the byte offset of character index IDX, walking from the last one converted (marks
 * come nearly in order). */
static uint32_t yaml_byte(struct yload *y, size_t idx)
{
    const unsigned char *t = (const unsigned char *)y->d->text;
    size_t len = y->d->len, c = y->at_char, b = y->at_byte;
    if (y->ascii) { /* a character is a byte: no walk (what the walk gives, in one step) */
        size_t bom = doc_bom_len(y->d->text, len);
        return (uint32_t)(idx < len - bom ? bom + idx : len);
    }
    if (b == 0) b = doc_bom_len(y->d->text, len), c = 0;
    while (c < idx && b < len) {
        b++;
        while (b < len && (t[b] & 0xC0) == 0x80) b++;
        c++;
    }
    while (c > idx && b > 0) {
        b--;
        while (b > 0 && (t[b] & 0xC0) == 0x80) b--;
        c--;
    }
    y->at_char = c;
    y->at_byte = b;
    return (uint32_t)b;
}

/* A completed node to attach to its parent: its value and its node. */
struct ynode {
    json_t *value;
    uint32_t node;
};

/* Fails the load at the current event with MSG (new). -1. */
static int yaml_fail(struct yload *y, char *msg)
{
    doc_set_error(y->err, y->line, y->col, msg);
    return -1;
}

static struct yframe *yaml_top(struct yload *y)
{
    return y->st.len ? &y->st.items[y->st.len - 1] : NULL;
}

static int yaml_on_document(struct yload *y)
{
    if (++y->docs > 1) return yaml_fail(y, xstrdup("a YAML input must hold exactly one document"));
    return 0;
}

/* Merge key handling of key K (event EV) in mapping frame TOP: the merge key << itself
 * (its value is merged when it completes, see yaml_attach), or a key written after the
 * << that overrides a merged member. 1 when handled so, 0 when K is another key. */
static int yaml_merge_key(struct yload *y, struct yframe *top, const yaml_event_t *ev,
                          const char *k)
{
    json_t *merged = top->merged ? json_object_get(top->merged, k) : NULL;
    if (yaml_is_merge_key(ev)) {
        if (top->had_merge)
            return yaml_fail(y,
                             xstrdup("duplicate merge key << (merge several mappings with "
                                     "<<: [*a, *b])"));
        top->merge_value = top->had_merge = 1;
        return 1;
    }
    if (!merged) return 0;
    /* a key written after the << wins over the merged one, in its own place */
    uint32_t gone = (uint32_t)json_integer_value(merged);
    y->d->idx.items[gone].kline = 0;
    if (gone < top->first_gone) top->first_gone = gone;
    json_object_del(top->container, k);
    json_object_del(top->merged, k);
    return 1;
}

/* EV in mapping frame TOP awaiting a key: the key, a scalar. */
static int yaml_on_key(struct yload *y, struct yframe *top, const yaml_event_t *ev)
{
    if (ev->type != YAML_SCALAR_EVENT)
        return yaml_fail(
            y,
            xasprintf("a mapping key must be a plain string, not %s", yaml_event_name(ev->type)));
    const char *k = (const char *)ev->data.scalar.value;
    if (strlen(k) != ev->data.scalar.length)
        return yaml_fail(y, xstrdup("a mapping key must not contain NUL"));
    int m = yaml_merge_key(y, top, ev, k);
    if (m < 0) return -1;
    if (!m && json_object_get(top->container, k))
        return yaml_fail(y, xasprintf("duplicate key \"%s\" (YAML mappings need unique keys)", k));
    top->pending_key = xstrdup(k);
    top->kline = y->line;
    top->kcol = y->col;
    top->kstart = y->start;
    top->kend = y->end;
    if (ev->data.scalar.anchor) { /* "&k a: 1" then "*k": was "refers to no complete anchor" */
        struct yanchor a = {xstrdup((const char *)ev->data.scalar.anchor),
                            json_stringn(k, ev->data.scalar.length),
                            UINT32_MAX,
                            1,
                            y->line,
                            y->col,
                            NULL};
        VEC_PUSH(y->anchors, a);
    }
    top->merge_anchors = y->anchors.len;
    return 0;
}

/* An alias: a copy of its anchor's value and index entries; KL, KC: its key's position. */
static int yaml_on_alias(struct yload *y, const yaml_event_t *ev, uint32_t kl, uint32_t kc,
                         uint32_t ks, uint32_t ke, struct ynode *out)
{
    doc *d = y->d;
    const char *name = (const char *)ev->data.alias.anchor;
    struct yanchor *a = yaml_find_anchor(y->anchors.items, y->anchors.len, name);
    if (!a)
        return yaml_fail(y,
                         xasprintf("alias *%s refers to no complete anchor (undefined, or "
                                   "recursive: an alias inside its own anchor)",
                                   name));
    if (d->idx.len + a->count > y->max_nodes)
        return yaml_fail(y,
                         xasprintf("aliases expand to more than %zu nodes (the limit "
                                   "protects against alias bombs)",
                                   y->max_nodes));
    uint32_t entry = (uint32_t)d->idx.len;
    if (a->first == UINT32_MAX) { /* a key's anchor has no entry: the key's position */
        struct doc_entry kent = {a->line,  a->col, kl, kc, 1,
                                 y->start, y->end, ks, ke, DOC_SPAN_SHARED};
        VEC_PUSH(d->idx, kent);
    } else {
        /* the anchor's text is now shared: no edit may go there */
        struct doc_entry *src = a->saved ? a->saved : d->idx.items + a->first;
        for (uint32_t i = 0; i < a->count; i++) src[i].flags |= DOC_SPAN_SHARED;
        VEC_RESERVE(d->idx, a->count);
        src = a->saved ? a->saved : d->idx.items + a->first; /* the reserve may move it */
        memcpy(d->idx.items + d->idx.len, src, a->count * sizeof(struct doc_entry));
        d->idx.len += a->count;
        struct doc_entry *top = &d->idx.items[entry];
        top->kline = kl;
        top->kcol = kc;
        top->kstart = ks;
        top->kend = ke;
        top->start = y->start; /* the alias's own text, *NAME */
        top->end = y->end;
    }
    out->value = json_incref(a->value);
    out->node = entry;
    return 0;
}

/* The index entry of a new scalar or collection at the current event: its node, or -1. */
static int64_t yaml_new_entry(struct yload *y, uint32_t kl, uint32_t kc, uint32_t ks, uint32_t ke)
{
    if (y->d->idx.len + 1 > y->max_nodes)
        return yaml_fail(y, xasprintf("more than %zu nodes", y->max_nodes));
    struct doc_entry e = {y->line, y->col, kl, kc, 1, y->start, y->end, ks, ke, 0};
    uint32_t entry = (uint32_t)y->d->idx.len;
    VEC_PUSH(y->d->idx, e);
    return entry;
}

static int yaml_on_scalar(struct yload *y, const yaml_event_t *ev, uint32_t kl, uint32_t kc,
                          uint32_t ks, uint32_t ke, struct ynode *out)
{
    int64_t entry = yaml_new_entry(y, kl, kc, ks, ke);
    if (entry < 0) return -1;
    struct doc_entry *e = &y->d->idx.items[entry];
    const char *t = y->d->text;
    yaml_scalar_style_t style = ev->data.scalar.style;
    if (style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE) {
        /* a block scalar's end mark is past its trailing line breaks */
        while (e->end > e->start + 1 && strchr(" \t\r\n", t[e->end - 1])) e->end--;
    } else if (ev->data.scalar.length == 0 && e->start == e->end && ks != e->start) {
        /* "key:" with no value: libyaml marks it at the next token; place it after ':' */
        uint32_t p = ke;
        while (p < y->d->len && (t[p] == ' ' || t[p] == '\t')) p++;
        if (p < y->d->len && t[p] == ':') p++;
        e->start = e->end = p;
    }
    char *why = NULL;
    json_t *value = yaml_scalar_value(ev, &why);
    if (!value) return yaml_fail(y, why);
    const char *anchor = (const char *)ev->data.scalar.anchor;
    if (anchor) {
        struct yanchor a = {xstrdup(anchor), json_incref(value), (uint32_t)entry, 1, 0, 0, NULL};
        VEC_PUSH(y->anchors, a);
    }
    out->value = value;
    out->node = (uint32_t)entry;
    return 0;
}

/* The start of a sequence or mapping: a new frame (in frame TOP, or NULL at the top). */
static int yaml_on_start(struct yload *y, struct yframe *top, const yaml_event_t *ev, uint32_t kl,
                         uint32_t kc, uint32_t ks, uint32_t ke)
{
    if (y->st.len >= y->lim->max_depth)
        return yaml_fail(y,
                         xasprintf("nesting deeper than %u levels (the limit protects against "
                                   "hostile input)",
                                   y->lim->max_depth));
    int64_t entry = yaml_new_entry(y, kl, kc, ks, ke);
    if (entry < 0) return -1;
    struct yframe f = {ev->type == YAML_MAPPING_START_EVENT ? json_object() : json_array(),
                       (uint32_t)entry,
                       NULL,
                       0,
                       0,
                       0,
                       0,
                       0,
                       NULL,
                       0,
                       0,
                       0,
                       NULL,
                       UINT32_MAX,
                       y->anchors.len,
                       0};
    f.merge_list = top && top->merge_value && ev->type == YAML_SEQUENCE_START_EVENT;
    f.flow = ev->type == YAML_MAPPING_START_EVENT
        ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
        : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    if (f.flow) y->d->idx.items[entry].flags |= DOC_SPAN_FLOW;
    const char *an = ev->type == YAML_MAPPING_START_EVENT
        ? (const char *)ev->data.mapping_start.anchor
        : (const char *)ev->data.sequence_start.anchor;
    f.anchor = an ? xstrdup(an) : NULL;
    VEC_PUSH(y->st, f);
    return 0;
}

/* A scalar, alias, or the start of a sequence or mapping: a key in a mapping that awaits
 * one, else a value (a scalar or alias completes one in OUT). */
static int yaml_on_node(struct yload *y, const yaml_event_t *ev, struct ynode *out)
{
    struct yframe *top = yaml_top(y);
    if (top && json_is_object(top->container) && !top->pending_key) return yaml_on_key(y, top, ev);
    /* The value of a <<, or an item of its sequence: mappings only. */
    int in_list = top && top->merge_list;
    if (top && (in_list || (json_is_object(top->container) && top->merge_value))) {
        char *why = yaml_merge_refusal(ev, in_list, y->anchors.items, y->anchors.len);
        if (why) return yaml_fail(y, why);
    }
    uint32_t kl = top && top->pending_key ? top->kline : y->line;
    uint32_t kc = top && top->pending_key ? top->kcol : y->col;
    uint32_t ks = top && top->pending_key ? top->kstart : y->start;
    uint32_t ke = top && top->pending_key ? top->kend : y->start;
    switch (ev->type) {
    case YAML_ALIAS_EVENT: return yaml_on_alias(y, ev, kl, kc, ks, ke, out);
    case YAML_SCALAR_EVENT: return yaml_on_scalar(y, ev, kl, kc, ks, ke, out);
    default: return yaml_on_start(y, top, ev, kl, kc, ks, ke);
    }
}

/* The end of a sequence or mapping: its frame completes a value in OUT. */
static void yaml_on_end(struct yload *y, struct ynode *out)
{
    doc *d = y->d;
    struct yframe f = y->st.items[--y->st.len];
    if (f.first_gone != UINT32_MAX)
        yaml_drop_overridden(d, &f, y->anchors.items, y->anchors.len, &y->work);
    json_decref(f.merged);
    d->idx.items[f.entry].size = (uint32_t)d->idx.len - f.entry;
    if (f.flow) {
        d->idx.items[f.entry].end = y->end;
    } else { /* a block collection's end mark is at the next token: end at its last child */
        uint32_t end = d->idx.items[f.entry].start;
        for (uint32_t c = f.entry + 1; c < d->idx.len; c += d->idx.items[c].size) {
            const struct doc_entry *e = &d->idx.items[c];
            if (e->end > end) end = e->end;
            if (e->kend > end) end = e->kend;
        }
        d->idx.items[f.entry].end = end;
    }
    out->value = f.container;
    out->node = f.entry;
    if (f.anchor) {
        struct yanchor a = {
            f.anchor, json_incref(out->value), f.entry, d->idx.items[f.entry].size, 0, 0, NULL};
        VEC_PUSH(y->anchors, a);
    }
}

/* A completed value (consumed) goes to its parent: the root, merged (the value of a <<),
 * a member, or an item. */
static void yaml_attach(struct yload *y, const struct ynode *n)
{
    struct yframe *top = yaml_top(y);
    if (!top) {
        y->d->root = n->value;
    } else if (json_is_object(top->container) && top->merge_value) {
        yaml_merge(y->d, top, n->value, n->node, y->anchors.items, y->anchors.len, &y->work);
        free(top->pending_key);
        top->pending_key = NULL;
        top->merge_value = 0;
    } else if (json_is_object(top->container)) {
        json_object_set_new(top->container, top->pending_key, n->value);
        free(top->pending_key);
        top->pending_key = NULL;
    } else {
        json_array_append_new(top->container, n->value);
    }
}

static void yaml_parse_error(struct yload *y, const yaml_parser_t *parser)
{
    struct doc_pos m = yaml_problem_pos(y->d, parser);
    doc_set_error(y->err, m.line, m.col,
                  xasprintf("invalid YAML: %s%s%s",
                            parser->problem ? parser->problem : "syntax error",
                            parser->context ? " " : "", parser->context ? parser->context : ""));
}

static void yaml_release(struct yload *y)
{
    for (size_t i = 0; i < y->st.len; i++) {
        json_decref(y->st.items[i].container);
        json_decref(y->st.items[i].merged);
        free(y->st.items[i].pending_key);
        free(y->st.items[i].anchor);
    }
    for (size_t i = 0; i < y->anchors.len; i++) {
        free(y->anchors.items[i].name);
        json_decref(y->anchors.items[i].value);
        free(y->anchors.items[i].saved);
    }
    VEC_FREE(y->st);
    VEC_FREE(y->anchors);
}

doc *doc_yaml_load(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    struct yload y = {d, lim, err, VEC_INIT, VEC_INIT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    y.max_nodes = d->len > ((size_t)1 << 20) ? d->len : ((size_t)1 << 20);
    y.max_work = 8 * y.max_nodes;
    y.ascii = 1;
    for (size_t i = doc_bom_len(d->text, d->len); i < d->len && y.ascii; i++)
        y.ascii = !(d->text[i] & 0x80);
    yaml_parser_t parser;
    yaml_event_t ev;
    int done = 0, failed = 0;

    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)d->text, d->len);
    while (!done && !failed) {
        if (!yaml_parser_parse(&parser, &ev)) {
            yaml_parse_error(&y, &parser);
            failed = 1;
            break;
        }
        y.line = (uint32_t)ev.start_mark.line + 1;
        y.col = (uint32_t)ev.start_mark.column + 1;
        y.start = yaml_byte(&y, ev.start_mark.index);
        y.end = yaml_byte(&y, ev.end_mark.index);
        struct ynode node = {NULL, UINT32_MAX};
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT: failed = yaml_on_document(&y) < 0; break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_ALIAS_EVENT: failed = yaml_on_node(&y, &ev, &node) < 0; break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: yaml_on_end(&y, &node); break;
        default: break;
        }
        if (!failed && node.value) yaml_attach(&y, &node);
        if (!failed && y.work > y.max_work)
            failed = yaml_fail(&y,
                               xasprintf("merge keys copy more than %zu nodes (the limit "
                                         "protects against merge bombs)",
                                         y.max_work)) < 0;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    yaml_release(&y);
    if (!failed && !d->root) {
        doc_set_error(err, 1, 1, xstrdup("empty YAML document"));
        failed = 1;
    }
    if (!failed) yaml_clamp_positions(d);
    if (failed) {
        doc_free(d);
        return NULL;
    }
    return d;
}
