/* lsp_features_context.c - what the text before a position in a rule file, manifest or
 * config is in (lspf_context_at): the line before the position, its flow collections, and
 * the keys of the enclosing block mappings found by indentation, from the text alone (the
 * buffer is often mid-edit and does not parse); and what the innermost mapping is in the
 * rule language (lspf_context_class). Completion, hover and definition read it
 * (lsp_features_complete.c, lsp_features_describe.c, lsp_features_nav.c). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/rule_lang.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_featuresInt.h"

/* ---- the context of a position ------------------------------------------------------- */

struct line_shape {
    int dash;        /* the line starts with "- " (an item of a block sequence) */
    size_t dash_off; /* where the dash is */
    size_t content;  /* where the content (after the indentation and any dash) starts */
};

static struct line_shape shape_of(const char *s, size_t len)
{
    struct line_shape sh = {0, 0, 0};
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    if (i < len && s[i] == '-' && (i + 1 == len || s[i + 1] == ' ')) {
        sh.dash = 1;
        sh.dash_off = i;
        i++;
        while (i < len && s[i] == ' ') i++;
    }
    sh.content = i;
    return sh;
}

static int is_blank(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ') i++;
    return i == len || s[i] == '#';
}

/* The block key at S+AT: "KEY:" followed by a space or the end. Its length (0: none) and
 * whether its value on the line is empty (a comment aside): *EMPTY. */
static size_t block_key(const char *s, size_t len, size_t at, int *empty)
{
    size_t k = at;
    int q = at < len && (s[at] == '"' || s[at] == '\'');
    if (q) {
        k = at + 1;
        while (k < len && s[k] != s[at]) k++;
        if (k < len) k++;
    } else if (at < len && (s[at] == '{' || s[at] == '[' || s[at] == '#')) {
        return 0;
    } else {
        /* up to ": " (a URL's "https:" is part of the key), not into a comment */
        while (k < len && !(s[k] == ':' && (k + 1 == len || s[k + 1] == ' ')) &&
               !(s[k] == '#' && s[k - 1] == ' '))
            k++;
    }
    if (k >= len || s[k] != ':' || (k + 1 < len && s[k + 1] != ' ')) return 0;
    size_t v = k + 1;
    while (v < len && s[v] == ' ') v++;
    *empty = v == len || s[v] == '#';
    return k - at;
}

static char *unquote(const char *s, size_t n)
{
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) return xstrndup(s + 1, n - 2);
    return xstrndup(s, n);
}

typedef VEC(struct lspf_frame) frame_vec;
static void push_frame(frame_vec *v, enum lspf_frame_kind kind, char *key)
{
    struct lspf_frame f = {kind, key};
    VEC_PUSH(*v, f);
}

/* The frames around a node whose key (or content) is at byte COL of line LINE (the
 * mapping that holds it, innermost first, appended to V): found by indentation upwards.
 * DASH: the node is the first key of an item of a block sequence whose dash is at
 * DASH_COL. Returns 0, or -1 when the node lies inside a scalar. */
static int block_frames(const struct lspf_lines *ls, uint32_t line, size_t col, int dash,
                        size_t dash_col, frame_vec *v)
{
    for (;;) {
        if (dash) {
            /* an item: its sequence is the value of the key above it */
            push_frame(v, LSPF_FRAME_MAP, NULL);
            char *key = NULL;
            uint32_t j = line;
            struct line_shape sh = {0, 0, 0};
            const char *s = NULL;
            size_t len = 0;
            while (--j >= 1) {
                s = lspf_line(ls, j, &len);
                if (is_blank(s, len)) continue;
                sh = shape_of(s, len);
                if (sh.dash && sh.dash_off == dash_col) continue; /* an earlier item */
                size_t kcol = sh.dash ? sh.dash_off : sh.content;
                if (kcol > dash_col) continue; /* inside an earlier item */
                int empty = 0;
                size_t kl = block_key(s, len, sh.content, &empty);
                if (!kl || !empty) return -1;
                key = unquote(s + sh.content, kl);
                break;
            }
            if (!key) return 0; /* a sequence at the top: no mapping holds it */
            push_frame(v, LSPF_FRAME_SEQ, key);
            line = j;
            col = sh.content;
            dash = sh.dash;
            dash_col = sh.dash_off;
            continue;
        }
        uint32_t j = line;
        int found = 0;
        while (--j >= 1) {
            size_t len;
            const char *s = lspf_line(ls, j, &len);
            if (is_blank(s, len)) continue;
            struct line_shape sh = shape_of(s, len);
            if (sh.content > col) continue;              /* inside an earlier sibling's value */
            if (sh.content == col && !sh.dash) continue; /* a sibling key */
            found = 1;
            if (sh.content == col) {
                /* "- KEY" with KEY at our column: our mapping is that item */
                line = j;
                dash = 1;
                dash_col = sh.dash_off;
                break;
            }
            int empty = 0;
            size_t kl = block_key(s, len, sh.content, &empty);
            if (!kl || !empty) return -1; /* a scalar's text, or YAML this does not follow */
            push_frame(v, LSPF_FRAME_MAP, unquote(s + sh.content, kl));
            line = j;
            col = sh.content;
            dash = sh.dash;
            dash_col = sh.dash_off;
            break;
        }
        if (!found) {
            push_frame(v, LSPF_FRAME_MAP, NULL); /* the top level */
            return 0;
        }
    }
}

static int word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '_' || c == '*' || c == '$' || c >= 0x80;
}

void lspf_context_at(const struct lspf_lines *ls, struct doc_pos pos, struct lspf_context *cx)
{
    memset(cx, 0, sizeof *cx);
    size_t len;
    const char *s = lspf_line(ls, pos.line, &len);
    if (!s) return;
    size_t off = lspf_col_to_off(s, len, pos.col);
    size_t ws = off;
    while (ws > 0 && word_char((unsigned char)s[ws - 1])) ws--;
    cx->prefix = xstrndup(s + ws, off - ws);
    struct line_shape sh = shape_of(s, len);
    if (sh.content > ws) sh.content = ws; /* a blank line: the key starts where we are */
    if (sh.dash && sh.dash_off + 1 > ws) sh.dash = 0;
    /* the line from its content to the word: block key, then flow collections */
    frame_vec flow = VEC_INIT;
    char *key = NULL;    /* the key whose value is being written, at the innermost level */
    int in_flow_map = 0; /* innermost is a flow mapping */
    char *block = NULL;  /* the block key of the line */
    size_t i = sh.content;
    int empty;
    size_t kl = block_key(s, ws, i, &empty);
    if (kl && i + kl + 1 <= ws) {
        block = unquote(s + i, kl);
        i += kl + 1;
    }
    int scalar = 0; /* a scalar was written before the word */
    for (; i < ws; i++) {
        char c = s[i];
        if (c == ' ') continue;
        if (c == '#' && (i == 0 || s[i - 1] == ' ')) goto none; /* a comment */
        if (c == '"' || c == '\'') {
            size_t e = i + 1;
            while (e < ws && s[e] != c) e += (c == '"' && s[e] == '\\') ? 2 : 1;
            if (e >= ws) goto none; /* inside a quoted string */
            size_t after = e + 1;
            while (after < ws && s[after] == ' ') after++;
            if (after < ws && s[after] == ':' && in_flow_map) {
                free(key);
                key = unquote(s + i, e + 1 - i);
                i = after;
            } else {
                scalar = 1;
                i = e;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            char *k = key ? key : (flow.len || !block ? NULL : xstrdup(block));
            key = NULL;
            push_frame(&flow, c == '{' ? LSPF_FRAME_MAP : LSPF_FRAME_SEQ, k);
            in_flow_map = c == '{';
            scalar = 0;
            continue;
        }
        if (c == '}' || c == ']') {
            if (!flow.len) goto none;
            free(flow.items[flow.len - 1].key);
            flow.len--;
            in_flow_map = flow.len && flow.items[flow.len - 1].kind == LSPF_FRAME_MAP;
            free(key);
            key = NULL;
            scalar = 1;
            continue;
        }
        if (c == ',') {
            free(key);
            key = NULL;
            scalar = 0;
            continue;
        }
        /* a plain word: a key when ": " (or ":" at the word) follows it in a flow mapping */
        size_t e = i;
        while (e < ws && s[e] != ',' && s[e] != '}' && s[e] != ']' &&
               !(s[e] == ':' && (e + 1 >= ws || s[e + 1] == ' ')))
            e++;
        if (e < ws && s[e] == ':' && in_flow_map) {
            free(key);
            key = xstrndup(s + i, e - i);
            while (key[0] && key[strlen(key) - 1] == ' ') key[strlen(key) - 1] = '\0';
            i = e;
        } else {
            scalar = 1;
            i = e > i ? e - 1 : i; /* at least one character on */
        }
    }
    if (scalar && !flow.len && block) goto none; /* "key: value more" */
    if (scalar && !flow.len && !block) goto none;
    /* the block frames around the line's node */
    frame_vec v = VEC_INIT;
    int rc = block_frames(ls, pos.line, sh.content, sh.dash, sh.dash_off, &v);
    if (rc < 0) {
        for (size_t k = 0; k < v.len; k++) free(v.items[k].key);
        VEC_FREE(v);
        goto none;
    }
    /* innermost first: reverse into cx, then the line's block key and flow frames */
    size_t total = v.len + flow.len + 1;
    cx->frames = xcalloc(total, sizeof *cx->frames);
    for (size_t k = v.len; k-- > 0;) cx->frames[cx->nframes++] = v.items[k];
    VEC_FREE(v);
    if (flow.len) {
        for (size_t k = 0; k < flow.len; k++) cx->frames[cx->nframes++] = flow.items[k];
        flow.len = 0;
        const struct lspf_frame *in = &cx->frames[cx->nframes - 1];
        if (in->kind == LSPF_FRAME_SEQ) cx->slot = LSPF_SLOT_ITEM;
        else if (key) {
            cx->slot = LSPF_SLOT_VALUE;
            cx->key = key;
            key = NULL;
        } else cx->slot = LSPF_SLOT_KEY;
    } else if (block) {
        cx->slot = LSPF_SLOT_VALUE;
        cx->key = block;
        block = NULL;
    } else {
        cx->slot = LSPF_SLOT_KEY;
    }
    free(key);
    free(block);
    VEC_FREE(flow);
    return;
none:
    for (size_t k = 0; k < flow.len; k++) free(flow.items[k].key);
    VEC_FREE(flow);
    free(key);
    free(block);
    cx->slot = LSPF_SLOT_NONE;
}

void lspf_context_release(struct lspf_context *cx)
{
    for (size_t i = 0; i < cx->nframes; i++) free(cx->frames[i].key);
    free(cx->frames);
    free(cx->key);
    free(cx->prefix);
    memset(cx, 0, sizeof *cx);
}

/* What a collection is, beyond enum rule_names (a mapping of that table) and the
 * LSPF_CX_* values. */
enum {
    CX_PREDS_MAP = 1100, /* a rule file's predicates: */
    CX_PREDS_SEQ,        /* all: or any: of a predicate */
    CX_SEQ_OF = 1200,    /* + enum rule_names: a list of mappings of that table */
    CX_UNKNOWN = LSPF_CX_UNKNOWN
};

static int eq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* The collection under frame F of the collection PARENT: the language's tables
 * (rules/rule_lang.h) say what each member of a rule file's or a manifest's mapping
 * holds; a predicate's arguments are the predicate table's (rules/fn.h). */
static int class_of(int parent, const struct lspf_frame *f)
{
    const char *k = f->key;
    const struct rule_lang_member *row = parent >= 0 && parent < LSPF_CX_PREDICATE
        ? rule_lang_member(rule_lang_map_of((enum rule_names)parent), k)
        : NULL;
    if (f->kind == LSPF_FRAME_SEQ) {
        if (row && row->map && (row->kind == RULE_LANG_MAPPINGS || row->kind == RULE_LANG_CLAUSES))
            return CX_SEQ_OF + (int)row->map->names;
        if (parent == LSPF_CX_PREDICATE && (eq(k, "all") || eq(k, "any"))) return CX_PREDS_SEQ;
        return CX_UNKNOWN;
    }
    if (!k) {
        if (parent >= CX_SEQ_OF) return parent - CX_SEQ_OF;
        return parent == CX_PREDS_SEQ ? LSPF_CX_PREDICATE : CX_UNKNOWN;
    }
    if (row) {
        switch (row->kind) {
        case RULE_LANG_PREDICATES: return CX_PREDS_MAP;
        case RULE_LANG_PREDICATE: return LSPF_CX_PREDICATE;
        case RULE_LANG_MAPPING:
        case RULE_LANG_CLAUSE:
        case RULE_LANG_FIXES:
        case RULE_LANG_VERSIONS: return row->map ? (int)row->map->names : CX_UNKNOWN;
        default: return CX_UNKNOWN;
        }
    }
    switch (parent) {
    case CX_PREDS_MAP: return LSPF_CX_PREDICATE;
    case LSPF_CX_PREDICATE:
        return eq(k, "not") || eq(k, "key") || eq(k, "every-descendant") ? LSPF_CX_PREDICATE
            : eq(k, "every") || eq(k, "some")                            ? LSPF_CX_QUANTIFIER
                                                                         : CX_UNKNOWN;
    case LSPF_CX_QUANTIFIER: return eq(k, "require") ? LSPF_CX_PREDICATE : CX_UNKNOWN;
    default: return CX_UNKNOWN;
    }
}

int lspf_context_class(const struct lspf_context *cx, enum lspf_kind kind)
{
    if (!cx->nframes) return CX_UNKNOWN;
    int c = kind == LSPF_MANIFEST ? RULE_NAMES_MANIFEST : RULE_NAMES_FILE;
    for (size_t i = 1; i < cx->nframes && c != CX_UNKNOWN; i++) c = class_of(c, &cx->frames[i]);
    return c;
}
