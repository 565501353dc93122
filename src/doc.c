/* doc.c - load JSON (jansson) or YAML (libyaml events) into a jansson tree plus a
 * pre-order position index (see doc.h). For JSON, jansson parses and reports syntax
 * errors; a second, linear scan of the same bytes records where every value starts. */
#include "doc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "ptr.h"
#include "util.h"

struct doc_entry {
    uint32_t line, col;   /* value start */
    uint32_t kline, kcol; /* member key start (objects), else = value */
    uint32_t size;        /* entries in this subtree, itself included */
};

/* For a large object or array: its children's nodes, and for an object a hash of its
 * keys (borrowed from jansson), so lookups cost O(1) instead of a walk. Built lazily. */
struct doc_children {
    doc_node node;
    size_t n;
    doc_node *child;       /* i-th child's node */
    const char **keys;     /* objects: open-addressing table of keys ... */
    uint32_t *slot_child;  /* ... and the child index in each slot */
    size_t nslots;
};

struct doc {
    char *name;
    char *text;           /* the source bytes, NUL-terminated (for excerpts) */
    size_t len;
    json_t *root;
    VEC(struct doc_entry) idx;
    VEC(size_t) line_starts; /* built lazily by doc_line */
    VEC(struct doc_children) big;   /* lazily built child indexes, sorted by node */
};

#define DOC_BIG 32 /* children before a container gets an index */

void doc_error_release(struct doc_error *err)
{
    free(err->message);
    err->message = NULL;
}

static void set_error(struct doc_error *err, uint32_t line, uint32_t col, char *msg)
{
    err->message = msg;
    err->line = line;
    err->col = col;
}

/* ---- JSON position scan -------------------------------------------------------- */

/* Walks valid JSON (jansson accepted it) once, tracking line and column in characters,
 * and appends one entry per value in document (= pre-order) order. */
struct scan {
    const unsigned char *p, *end;
    uint32_t line;
    const unsigned char *col_at; /* offset where col was last computed */
    uint32_t col;                /* 1-based column of col_at */
};

static void scan_sync_col(struct scan *s)
{
    for (; s->col_at < s->p; s->col_at++)
        if ((*s->col_at & 0xC0) != 0x80) s->col++;
}

static void scan_ws(struct scan *s)
{
    while (s->p < s->end) {
        unsigned char c = *s->p;
        if (c == '\n') {
            s->p++;
            s->line++;
            s->col = 1;
            s->col_at = s->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            s->p++;
        } else {
            break;
        }
    }
}

static void scan_string(struct scan *s)
{
    s->p++; /* opening quote */
    while (s->p < s->end && *s->p != '"') s->p += (*s->p == '\\') ? 2 : 1;
    s->p++;
}

static int scan_json(doc *d, uint32_t max_depth, struct doc_error *err)
{
    struct scan s = {(const unsigned char *)d->text, (const unsigned char *)d->text + d->len, 1,
                     (const unsigned char *)d->text, 1};
    VEC(uint32_t) stack = VEC_INIT;   /* open containers: entry index */
    VEC(char) kinds = VEC_INIT;       /* '{' or '[' */
    uint32_t kline = 0, kcol = 0;     /* pending member key position */
    int rc = 0;

    for (;;) {
        scan_ws(&s);
        if (s.p >= s.end) break;
        unsigned char c = *s.p;
        int in_object = kinds.len && kinds.items[kinds.len - 1] == '{';
        if (c == ',' || c == ':') {
            s.p++;
            continue;
        }
        if (c == '}' || c == ']') {
            uint32_t open = stack.items[--stack.len];
            kinds.len--;
            d->idx.items[open].size = (uint32_t)d->idx.len - open;
            s.p++;
            continue;
        }
        scan_sync_col(&s);
        if (in_object && kline == 0 && c == '"') { /* a member key */
            kline = s.line;
            kcol = s.col;
            scan_string(&s);
            continue;
        }
        struct doc_entry e = {s.line, s.col, kline ? kline : s.line, kline ? kcol : s.col, 1};
        kline = 0;
        VEC_PUSH(d->idx, e);
        if (c == '{' || c == '[') {
            if (stack.len >= max_depth) {
                set_error(err, s.line, s.col,
                          xasprintf("nesting deeper than %u levels (the limit protects "
                                    "against hostile input)", max_depth));
                rc = -1;
                break;
            }
            VEC_PUSH(stack, (uint32_t)d->idx.len - 1);
            VEC_PUSH(kinds, (char)c);
            s.p++;
        } else if (c == '"') {
            scan_string(&s);
        } else {
            while (s.p < s.end && !strchr(",]} \t\r\n", *s.p)) s.p++;
        }
    }
    VEC_FREE(stack);
    VEC_FREE(kinds);
    return rc;
}

static doc *load_json(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    json_error_t jerr;
    d->root = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL,
                         &jerr);
    if (!d->root) {
        int line = jerr.line > 0 ? jerr.line : 1, col = jerr.column > 0 ? jerr.column : 1;
        set_error(err, (uint32_t)line, (uint32_t)col, xasprintf("invalid JSON: %s", jerr.text));
        doc_free(d);
        return NULL;
    }
    VEC_RESERVE(d->idx, d->len / 8 + 16);
    if (scan_json(d, lim->max_depth, err) < 0) {
        doc_free(d);
        return NULL;
    }
    return d;
}

/* ---- YAML ---------------------------------------------------------------------- */

struct yanchor {
    char *name;
    json_t *value;
    uint32_t first, count; /* its entries in the index, copied on each alias */
};

struct yframe {
    json_t *container;
    uint32_t entry;
    char *pending_key;     /* mapping: key read, value not yet */
    uint32_t kline, kcol;
    char *anchor;          /* anchor of the container itself */
};

/* YAML 1.2 core schema for plain scalars: null, booleans, integers, floats; the rest
 * (quoted, or plain text such as 2025-11-25) are strings. */
static json_t *yaml_scalar_value(const yaml_event_t *ev)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    if (tag && !strcmp(tag, YAML_STR_TAG)) return json_stringn(v, n);
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE && !tag) return json_stringn(v, n);
    if (n == 0 || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL"))
        return json_null();
    if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return json_true();
    if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return json_false();
    if (strlen(v) == n) {
        char *endp;
        errno = 0;
        long long i = strtoll(v, &endp, 10);
        if (*endp == '\0' && errno == 0 && (v[0] == '-' || v[0] == '+' || (v[0] >= '0' && v[0] <= '9')))
            return json_integer(i);
        int numeric = (v[0] == '-' || v[0] == '+' || v[0] == '.' || (v[0] >= '0' && v[0] <= '9'));
        errno = 0;
        double x = strtod(v, &endp);
        if (numeric && *endp == '\0' && errno == 0 && strspn(v, "+-.0123456789eE") == n)
            return json_real(x);
    }
    return json_stringn(v, n);
}

static const char *yaml_event_name(yaml_event_type_t t)
{
    switch (t) {
    case YAML_SEQUENCE_START_EVENT: return "sequence";
    case YAML_MAPPING_START_EVENT: return "mapping";
    case YAML_ALIAS_EVENT: return "alias";
    default: return "value";
    }
}

static doc *load_yaml(doc *d, const struct doc_limits *lim, struct doc_error *err)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    VEC(struct yframe) st = VEC_INIT;
    VEC(struct yanchor) anchors = VEC_INIT;
    size_t max_nodes = d->len > ((size_t)1 << 20) ? d->len : ((size_t)1 << 20);
    int done = 0, failed = 0, docs = 0;

    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)d->text, d->len);
    while (!done && !failed) {
        if (!yaml_parser_parse(&parser, &ev)) {
            yaml_mark_t m = parser.problem_mark;
            set_error(err, (uint32_t)m.line + 1, (uint32_t)m.column + 1,
                      xasprintf("invalid YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
                                parser.context ? " " : "", parser.context ? parser.context : ""));
            failed = 1;
            break;
        }
        uint32_t line = (uint32_t)ev.start_mark.line + 1, col = (uint32_t)ev.start_mark.column + 1;
        json_t *value = NULL;        /* a completed node to attach */
        uint32_t entry = UINT32_MAX; /* its first index entry */
        const char *anchor = NULL;
        struct yframe *top = st.len ? &st.items[st.len - 1] : NULL;

        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1) {
                set_error(err, line, col, xstrdup("a YAML input must hold exactly one document"));
                failed = 1;
            }
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_ALIAS_EVENT: {
            /* In a mapping awaiting a key, a scalar is the key. */
            if (top && json_is_object(top->container) && !top->pending_key) {
                if (ev.type != YAML_SCALAR_EVENT) {
                    set_error(err, line, col,
                              xasprintf("a mapping key must be a plain string, not a %s",
                                        yaml_event_name(ev.type)));
                    failed = 1;
                    break;
                }
                const char *k = (const char *)ev.data.scalar.value;
                if (strlen(k) != ev.data.scalar.length) {
                    set_error(err, line, col, xstrdup("a mapping key must not contain NUL"));
                    failed = 1;
                    break;
                }
                if (json_object_get(top->container, k)) {
                    set_error(err, line, col,
                              xasprintf("duplicate key \"%s\" (YAML mappings need unique keys)", k));
                    failed = 1;
                    break;
                }
                top->pending_key = xstrdup(k);
                top->kline = line;
                top->kcol = col;
                break;
            }
            if (st.len >= lim->max_depth && ev.type != YAML_SCALAR_EVENT && ev.type != YAML_ALIAS_EVENT) {
                set_error(err, line, col,
                          xasprintf("nesting deeper than %u levels (the limit protects against "
                                    "hostile input)", lim->max_depth));
                failed = 1;
                break;
            }
            uint32_t kl = top && top->pending_key ? top->kline : line;
            uint32_t kc = top && top->pending_key ? top->kcol : col;
            if (ev.type == YAML_ALIAS_EVENT) {
                const char *name = (const char *)ev.data.alias.anchor;
                struct yanchor *a = NULL;
                for (size_t i = anchors.len; i-- > 0;)
                    if (!strcmp(anchors.items[i].name, name)) { a = &anchors.items[i]; break; }
                if (!a) {
                    set_error(err, line, col,
                              xasprintf("alias *%s refers to no complete anchor (undefined, or "
                                        "recursive: an alias inside its own anchor)", name));
                    failed = 1;
                    break;
                }
                if (d->idx.len + a->count > max_nodes) {
                    set_error(err, line, col,
                              xasprintf("aliases expand to more than %zu nodes (the limit "
                                        "protects against alias bombs)", max_nodes));
                    failed = 1;
                    break;
                }
                entry = (uint32_t)d->idx.len;
                VEC_RESERVE(d->idx, a->count);
                memcpy(d->idx.items + d->idx.len, d->idx.items + a->first,
                       a->count * sizeof(struct doc_entry));
                d->idx.len += a->count;
                d->idx.items[entry].kline = kl;
                d->idx.items[entry].kcol = kc;
                value = json_incref(a->value);
                break;
            }
            if (d->idx.len + 1 > max_nodes) {
                set_error(err, line, col, xasprintf("more than %zu nodes", max_nodes));
                failed = 1;
                break;
            }
            struct doc_entry e = {line, col, kl, kc, 1};
            entry = (uint32_t)d->idx.len;
            VEC_PUSH(d->idx, e);
            if (ev.type == YAML_SCALAR_EVENT) {
                value = yaml_scalar_value(&ev);
                anchor = (const char *)ev.data.scalar.anchor;
            } else {
                struct yframe f = {ev.type == YAML_MAPPING_START_EVENT ? json_object() : json_array(),
                                   entry, NULL, 0, 0, NULL};
                const char *an = ev.type == YAML_MAPPING_START_EVENT
                                     ? (const char *)ev.data.mapping_start.anchor
                                     : (const char *)ev.data.sequence_start.anchor;
                f.anchor = an ? xstrdup(an) : NULL;
                VEC_PUSH(st, f);
            }
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
            struct yframe f = st.items[--st.len];
            d->idx.items[f.entry].size = (uint32_t)d->idx.len - f.entry;
            value = f.container;
            entry = f.entry;
            if (f.anchor) {
                struct yanchor a = {f.anchor, value, entry, d->idx.items[entry].size};
                VEC_PUSH(anchors, a);
            }
            entry = UINT32_MAX; /* entries already in place */
            break;
        }
        default: break;
        }
        if (!failed && value) {
            if (anchor) {
                struct yanchor a = {xstrdup(anchor), value, entry, 1};
                VEC_PUSH(anchors, a);
            }
            top = st.len ? &st.items[st.len - 1] : NULL;
            if (!top) {
                d->root = value;
            } else if (json_is_object(top->container)) {
                json_object_set_new(top->container, top->pending_key, value);
                free(top->pending_key);
                top->pending_key = NULL;
            } else {
                json_array_append_new(top->container, value);
            }
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < st.len; i++) {
        json_decref(st.items[i].container);
        free(st.items[i].pending_key);
        free(st.items[i].anchor);
    }
    for (size_t i = 0; i < anchors.len; i++) free(anchors.items[i].name);
    VEC_FREE(st);
    VEC_FREE(anchors);
    if (!failed && !d->root) {
        set_error(err, 1, 1, xstrdup("empty YAML document"));
        failed = 1;
    }
    if (failed) {
        doc_free(d);
        return NULL;
    }
    return d;
}

/* ---- loading ------------------------------------------------------------------- */

doc *doc_load_buffer(const char *name, const char *data, size_t len, int is_yaml,
                     const struct doc_limits *lim, struct doc_error *err)
{
    struct doc_limits l = lim ? *lim : (struct doc_limits){0, 0};
    if (!l.max_bytes) l.max_bytes = DOC_DEFAULT_MAX_BYTES;
    if (!l.max_depth) l.max_depth = DOC_DEFAULT_MAX_DEPTH;
    err->message = NULL;
    err->line = err->col = 0;
    if (len > l.max_bytes) {
        set_error(err, 0, 0, xasprintf("input is %zu bytes, over the limit of %zu", len, l.max_bytes));
        return NULL;
    }
    if (len > UINT32_MAX) {
        set_error(err, 0, 0, xstrdup("input over 4 GiB"));
        return NULL;
    }
    doc *d = xcalloc(1, sizeof *d);
    d->name = xstrdup(name);
    d->text = xmalloc(len + 1);
    memcpy(d->text, data, len);
    d->text[len] = '\0';
    d->len = len;
    return is_yaml ? load_yaml(d, &l, err) : load_json(d, &l, err);
}

static int has_yaml_suffix(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
}

doc *doc_load_file(const char *path, const struct doc_limits *lim, struct doc_error *err)
{
    size_t max = lim && lim->max_bytes ? lim->max_bytes : DOC_DEFAULT_MAX_BYTES;
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    err->message = NULL;
    err->line = err->col = 0;
    if (!f) {
        set_error(err, 0, 0, xasprintf("cannot open: %s", strerror(errno)));
        return NULL;
    }
    char *data = NULL;
    size_t len = 0, cap = 0;
    int too_big = 0, read_err = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            data = xrealloc(data, cap);
        }
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (len > max) { too_big = 1; break; }
        if (n == 0) {
            read_err = ferror(f);
            break;
        }
    }
    int saved = errno;
    if (!is_stdin) fclose(f);
    doc *d = NULL;
    if (read_err) set_error(err, 0, 0, xasprintf("cannot read: %s", strerror(saved)));
    else if (too_big) set_error(err, 0, 0, xasprintf("input is over the limit of %zu bytes", max));
    else d = doc_load_buffer(is_stdin ? "<stdin>" : path, data, len, has_yaml_suffix(path), lim, err);
    free(data);
    return d;
}

void doc_free(doc *d)
{
    if (!d) return;
    json_decref(d->root);
    VEC_FREE(d->idx);
    VEC_FREE(d->line_starts);
    for (size_t i = 0; i < d->big.len; i++) {
        free(d->big.items[i].child);
        free(d->big.items[i].keys);
        free(d->big.items[i].slot_child);
    }
    VEC_FREE(d->big);
    free(d->text);
    free(d->name);
    free(d);
}

json_t *doc_root(const doc *d) { return d->root; }
const char *doc_name(const doc *d) { return d->name; }
size_t doc_node_count(const doc *d) { return d->idx.len; }

struct doc_pos doc_node_pos(const doc *d, doc_node n)
{
    if (n >= d->idx.len) return (struct doc_pos){0, 0};
    return (struct doc_pos){d->idx.items[n].line, d->idx.items[n].col};
}

struct doc_pos doc_node_key_pos(const doc *d, doc_node n)
{
    if (n >= d->idx.len) return (struct doc_pos){0, 0};
    return (struct doc_pos){d->idx.items[n].kline, d->idx.items[n].kcol};
}

doc_node doc_node_first_child(const doc *d, doc_node n)
{
    if (n >= d->idx.len || d->idx.items[n].size < 2) return DOC_NONE;
    return n + 1;
}

doc_node doc_node_next_sibling(const doc *d, doc_node parent, doc_node n)
{
    if (parent >= d->idx.len || n >= d->idx.len) return DOC_NONE;
    doc_node next = n + d->idx.items[n].size;
    return next < parent + d->idx.items[parent].size ? next : DOC_NONE;
}

static uint64_t key_hash(const char *k)
{
    uint64_t h = 1469598103934665603ull;
    for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

/* The child index of container N (json V), built on first use; NULL for small ones. */
static const struct doc_children *children_of(const doc *d, doc_node n, json_t *v)
{
    doc *m = (doc *)d; /* a cache, like the line table */
    size_t count = json_is_object(v) ? json_object_size(v) : json_is_array(v) ? json_array_size(v) : 0;
    if (count < DOC_BIG || n >= d->idx.len) return NULL;
    size_t a = 0, b = m->big.len;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (m->big.items[mid].node < n) a = mid + 1;
        else b = mid;
    }
    if (a < m->big.len && m->big.items[a].node == n) return &m->big.items[a];
    struct doc_children c = {n, 0, NULL, NULL, NULL, 0};
    c.child = xmalloc(count * sizeof *c.child);
    for (doc_node k = doc_node_first_child(d, n); k != DOC_NONE && c.n < count;
         k = doc_node_next_sibling(d, n, k))
        c.child[c.n++] = k;
    if (json_is_object(v)) {
        c.nslots = 1;
        while (c.nslots < 2 * c.n) c.nslots *= 2;
        c.keys = xcalloc(c.nslots, sizeof *c.keys);
        c.slot_child = xcalloc(c.nslots, sizeof *c.slot_child);
        uint32_t i = 0;
        for (void *it = json_object_iter(v); it && i < c.n; it = json_object_iter_next(v, it), i++) {
            const char *k = json_object_iter_key(it);
            size_t s = key_hash(k) & (c.nslots - 1);
            while (c.keys[s]) s = (s + 1) & (c.nslots - 1);
            c.keys[s] = k;
            c.slot_child[s] = i;
        }
    }
    VEC_RESERVE(m->big, 1);
    memmove(m->big.items + a + 1, m->big.items + a, (m->big.len - a) * sizeof *m->big.items);
    m->big.items[a] = c;
    m->big.len++;
    return &m->big.items[a];
}

static doc_node walk_item(const doc *d, doc_node n, size_t idx)
{
    doc_node c = doc_node_first_child(d, n);
    while (c != DOC_NONE && idx--) c = doc_node_next_sibling(d, n, c);
    return c;
}

doc_node doc_node_item(const doc *d, doc_node n, size_t idx)
{
    return walk_item(d, n, idx);
}

doc_node doc_node_array_item(const doc *d, doc_node n, json_t *arr, size_t idx)
{
    const struct doc_children *c = children_of(d, n, arr);
    if (c) return idx < c->n ? c->child[idx] : DOC_NONE;
    return walk_item(d, n, idx);
}

doc_node doc_node_member_key(const doc *d, doc_node n, json_t *obj, const char *key,
                             const char **stable_key)
{
    const struct doc_children *c = children_of(d, n, obj);
    if (c) {
        for (size_t s = key_hash(key) & (c->nslots - 1); c->keys[s]; s = (s + 1) & (c->nslots - 1))
            if (!strcmp(c->keys[s], key)) {
                if (stable_key) *stable_key = c->keys[s];
                return c->slot_child[s] < c->n ? c->child[c->slot_child[s]] : DOC_NONE;
            }
        return DOC_NONE;
    }
    size_t i = 0;
    for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it), i++)
        if (!strcmp(json_object_iter_key(it), key)) {
            if (stable_key) *stable_key = json_object_iter_key(it);
            return walk_item(d, n, i);
        }
    return DOC_NONE;
}

doc_node doc_node_member(const doc *d, doc_node n, json_t *obj, const char *key)
{
    return doc_node_member_key(d, n, obj, key, NULL);
}

doc_node doc_pointer_node(const doc *d, const char *pointer)
{
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) return DOC_NONE;
    json_t *v = d->root;
    doc_node n = 0;
    for (size_t i = 0; v && n != DOC_NONE && i < p.n; i++) {
        size_t idx;
        if (json_is_object(v)) {
            n = doc_node_member(d, n, v, p.segs[i]);
            v = json_object_get(v, p.segs[i]);
        } else if (json_is_array(v) && ptr_is_index(p.segs[i], &idx)) {
            n = doc_node_array_item(d, n, v, idx);
            v = json_array_get(v, idx);
        } else {
            v = NULL;
        }
    }
    ptr_release(&p);
    return v ? n : DOC_NONE;
}

int doc_pointer_pos(const doc *d, const char *pointer, struct doc_pos *value, struct doc_pos *key)
{
    doc_node n = doc_pointer_node(d, pointer);
    if (n == DOC_NONE) return -1;
    if (value) *value = doc_node_pos(d, n);
    if (key) *key = doc_node_key_pos(d, n);
    return 0;
}

uint32_t doc_node_size(const doc *d, doc_node n)
{
    return n < d->idx.len ? d->idx.items[n].size : 0;
}

const char *doc_line(const doc *d, uint32_t line, size_t *len)
{
    doc *m = (doc *)d; /* the line table is a cache */
    if (!m->line_starts.len) {
        VEC_PUSH(m->line_starts, 0);
        for (size_t i = 0; i < m->len; i++)
            if (m->text[i] == '\n') VEC_PUSH(m->line_starts, i + 1);
    }
    if (line == 0 || line > m->line_starts.len) return NULL;
    size_t start = m->line_starts.items[line - 1];
    size_t end = line < m->line_starts.len ? m->line_starts.items[line] - 1 : m->len;
    if (end > start && m->text[end - 1] == '\r') end--;
    *len = end - start;
    return m->text + start;
}
