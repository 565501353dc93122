/* lsp_features_describe.c - the members of a description from the format's own JSON
 * Schema (mcp-description.schema.json of the loaded rule set, docs/format.md): completion
 * of member names at a position (lspf_complete for a description) and hover on a member
 * key (its schema description, part of lspf_hover). Completion reads the text around the
 * position alone, as in rule files (a buffer being edited often does not parse); hover
 * reads the parsed document, so that the key under the cursor is exact. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"
#include "doc/doc.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_featuresInt.h"

static const char format_schema_name[] = "mcp-description.schema.json";

/* ---- the schema ---------------------------------------------------------------------- */

/* The format's schema of RS: the file of that name among the schema files RS (or a set it
 * extends) loads, else DIR/../schema/ of the set, as `rules lint` finds it. New, or NULL. */
static json_t *format_schema(const struct rule_set *rs)
{
    for (const struct rule_set *s = rs; s; s = rule_set_base(s)) {
        for (size_t i = 0; i < rule_set_digest_count(s); i++) {
            const char *p = rule_set_digest_path(s, i);
            if (rule_set_digest_kind(s, i) != RULE_FILE_SCHEMA ||
                strcmp(lspf_basename(p), format_schema_name))
                continue;
            char *path = xasprintf("%s/%s", rule_set_dir(s), p);
            json_t *j = json_load_file(path, 0, NULL);
            free(path);
            if (j) return j;
        }
        char *path = xasprintf("%s/../schema/%s", rule_set_dir(s), format_schema_name);
        json_t *j = access(path, R_OK) == 0 ? json_load_file(path, 0, NULL) : NULL;
        free(path);
        if (j) return j;
    }
    return NULL;
}

/* S with its local "$ref"s followed ("#/$defs/Item"; a few hops at most), borrowed. */
static json_t *deref(json_t *root, json_t *s)
{
    for (int hops = 0; hops < 8 && json_is_object(s); hops++) {
        const char *ref = json_string_value(json_object_get(s, "$ref"));
        if (!ref || ref[0] != '#') break;
        const char *why;
        char *pointer = ptr_from_fragment(ref, &why);
        struct ptr p;
        json_t *to = NULL;
        if (pointer && ptr_parse(pointer, &p, &why) == 0) {
            to = ptr_get(root, &p);
            ptr_release(&p);
        }
        free(pointer);
        if (!to) break;
        s = to;
    }
    return s;
}

/* The schema of member KEY of an object that S describes (its properties, else an
 * additionalProperties schema), or of an item of an array (KEY NULL): borrowed, or NULL. */
static json_t *schema_below(json_t *root, json_t *s, const char *key)
{
    s = deref(root, s);
    if (!json_is_object(s)) return NULL;
    json_t *sub = NULL;
    if (key) {
        sub = json_object_get(json_object_get(s, "properties"), key);
        if (!sub && json_is_object(json_object_get(s, "additionalProperties")))
            sub = json_object_get(s, "additionalProperties");
    } else {
        sub = json_object_get(s, "items");
    }
    return json_is_object(sub) ? deref(root, sub) : NULL;
}

/* The JSON type(s) S declares, "string" or "array", for a completion's detail (new). */
static char *type_of(json_t *root, json_t *s)
{
    s = deref(root, s);
    json_t *t = json_object_get(s, "type");
    if (json_is_string(t)) return xstrdup(json_string_value(t));
    if (json_is_array(t)) {
        struct buf b = BUF_INIT;
        for (size_t i = 0; i < json_array_size(t); i++)
            buf_addf(&b, "%s%s", i ? " or " : "", json_string_value(json_array_get(t, i)));
        return buf_detach(&b);
    }
    if (json_object_get(s, "enum")) return xstrdup("one of a list");
    return NULL;
}

/* The description of member KEY of S: its own, else the one of what it refers to. */
static const char *description_of(json_t *root, json_t *member)
{
    const char *d = json_string_value(json_object_get(member, "description"));
    return d ? d : json_string_value(json_object_get(deref(root, member), "description"));
}

/* ---- the containers around a position ------------------------------------------------ */

typedef VEC(struct lspf_frame) frame_vec;

static void frames_free(frame_vec *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->items[i].key);
    VEC_FREE(*v);
}

/* The containers of a JSON text around byte OFF, outermost first, as lspf_context_at
 * gives them for YAML (each with the key whose value it is, NULL for the top level and an
 * array's items); 1 when OFF is where a member name goes (after '{' or ',' in an object,
 * or inside the string that is one), else 0. The text need not be complete. */
static int json_frames(const char *s, size_t off, frame_vec *v)
{
    char *key = NULL; /* the last member name read in the innermost object */
    int want_key = 0; /* the innermost object expects a member name */
    for (size_t i = 0; i < off; i++) {
        char c = s[i];
        int in_map = v->len && v->items[v->len - 1].kind == LSPF_FRAME_MAP;
        if (c == '"') {
            size_t j = i + 1;
            while (j < off && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
            if (j >= off) { /* OFF is inside this string */
                free(key);
                return in_map && want_key;
            }
            if (in_map && want_key) {
                free(key);
                key = xstrndup(s + i + 1, j - i - 1);
            }
            i = j;
        } else if (c == '{' || c == '[') {
            struct lspf_frame f = {c == '{' ? LSPF_FRAME_MAP : LSPF_FRAME_SEQ,
                                   in_map && key ? key : NULL};
            if (f.key) key = NULL;
            VEC_PUSH(*v, f);
            free(key);
            key = NULL;
            want_key = c == '{';
        } else if (c == '}' || c == ']') {
            if (!v->len) break;
            free(v->items[--v->len].key);
            want_key = 0;
        } else if (c == ':' && in_map) {
            want_key = 0;
        } else if (c == ',' && in_map) {
            want_key = 1;
            free(key);
            key = NULL;
        }
    }
    free(key);
    return v->len && v->items[v->len - 1].kind == LSPF_FRAME_MAP && want_key;
}

/* The schema of the innermost container of FRAMES (outermost first, the first the
 * document), walked down from the format's ROOT; borrowed, or NULL. */
static json_t *schema_of_frames(json_t *root, const struct lspf_frame *frames, size_t n)
{
    json_t *s = root;
    for (size_t i = 1; i < n && s; i++) {
        if (!frames[i].key && frames[i - 1].kind != LSPF_FRAME_SEQ) return NULL;
        s = schema_below(root, s, frames[i].key);
    }
    return s;
}

/* ---- completion ------------------------------------------------------------------------ */

static void add_member(struct lspf_items *out, json_t *root, const char *name, json_t *member,
                       int yaml, int in_string)
{
    if (out->len == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->items = xrealloc(out->items, out->cap * sizeof *out->items);
    }
    struct lspf_item *it = &out->items[out->len++];
    const char *d = description_of(root, member);
    it->label = xstrdup(name);
    it->kind = LSPF_ITEM_PROPERTY;
    it->detail = type_of(root, member);
    it->documentation = d ? xstrdup(d) : NULL;
    it->insert_text = yaml ? xasprintf("%s: ", name)
        : in_string        ? NULL
                           : xasprintf("\"%s\": ", name);
}

void lspf_describe_complete(const struct rule_set *rs, const struct lspf_text *t,
                            struct doc_pos pos, struct lspf_items *out)
{
    json_t *root = format_schema(rs);
    if (!root) return;
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    int yaml = lspf_text_is_yaml(t);
    json_t *s = NULL;
    int in_string = 0;
    if (yaml) {
        struct lspf_context cx;
        lspf_context_at(&ls, pos, &cx);
        if (cx.slot == LSPF_SLOT_KEY && cx.nframes &&
            cx.frames[cx.nframes - 1].kind == LSPF_FRAME_MAP)
            s = schema_of_frames(root, cx.frames, cx.nframes);
        lspf_context_release(&cx);
    } else {
        size_t len;
        const char *line = lspf_line(&ls, pos.line, &len);
        if (line) {
            size_t off = (size_t)(line - ls.text) + lspf_col_to_off(line, len, pos.col);
            frame_vec v = VEC_INIT;
            if (json_frames(ls.text, off, &v)) {
                s = schema_of_frames(root, v.items, v.len);
                /* inside the name's quotes: the client replaces the word, not the quotes */
                size_t q = off;
                while (q > 0 && ls.text[q - 1] != '"' && ls.text[q - 1] != ',' &&
                       ls.text[q - 1] != '{')
                    q--;
                in_string = q > 0 && ls.text[q - 1] == '"';
            }
            frames_free(&v);
        }
    }
    json_t *props = json_object_get(s, "properties");
    const char *name;
    json_t *member;
    json_object_foreach(props, name, member)
    {
        add_member(out, root, name, member, yaml, in_string);
    }
    lspf_lines_release(&ls);
    json_decref(root);
}

/* ---- hover ----------------------------------------------------------------------------- */

struct key_search {
    const doc *d;
    const struct lspf_lines *ls;
    struct doc_pos pos;
    json_t *root;  /* the format's schema */
    json_t *found; /* the schema of the member whose key is under POS (borrowed) */
    char *name;    /* its name (new) */
    struct lspf_range range;
};

static int pos_in(struct lspf_range r, struct doc_pos p)
{
    int after_start = p.line > r.start.line || (p.line == r.start.line && p.col >= r.start.col);
    int before_end = p.line < r.end.line || (p.line == r.end.line && p.col < r.end.col);
    return after_start && before_end;
}

/* Walk V (node N, described by schema S, NULL when the format says nothing of it) for the
 * key under the position. */
static void find_key(struct key_search *k, json_t *v, doc_node n, json_t *s, int depth)
{
    if (k->name || depth > 600 || !s) return;
    if (json_is_object(v)) {
        size_t i = 0;
        for (void *it = json_object_iter(v); it && !k->name;
             it = json_object_iter_next(v, it), i++) {
            doc_node cn = doc_node_item(k->d, n, i);
            if (cn == DOC_NONE) continue;
            const char *key = json_object_iter_key(it);
            struct lspf_range kr = lspf_token_range(k->ls, doc_node_key_pos(k->d, cn));
            if (pos_in(kr, k->pos)) {
                json_t *member =
                    json_object_get(json_object_get(deref(k->root, s), "properties"), key);
                if (member) {
                    k->found = member;
                    k->name = xstrdup(key);
                    k->range = kr;
                }
                return;
            }
            find_key(k, json_object_iter_value(it), cn, schema_below(k->root, s, key), depth + 1);
        }
    } else if (json_is_array(v)) {
        json_t *items = schema_below(k->root, s, NULL);
        for (size_t i = 0; i < json_array_size(v) && !k->name; i++) {
            doc_node cn = doc_node_item(k->d, n, i);
            if (cn != DOC_NONE) find_key(k, json_array_get(v, i), cn, items, depth + 1);
        }
    }
}

int lspf_hover_member(const struct rule_set *rs, const struct lspf_text *t, struct doc_pos pos,
                      struct lspf_hover *out)
{
    json_t *root = format_schema(rs);
    if (!root) return 0;
    struct doc_error err;
    doc *d = doc_load_buffer(t->path ? t->path : "<buffer>", t->text ? t->text : "",
                             t->text ? t->len : 0, lspf_text_is_yaml(t), NULL, &err);
    if (!d) {
        doc_error_release(&err);
        json_decref(root);
        return 0;
    }
    struct lspf_lines ls;
    lspf_lines_init(&ls, t->text, t->len);
    struct key_search k = {d, &ls, pos, root, NULL, NULL, {{0, 0}, {0, 0}}};
    find_key(&k, doc_root(d), 0, root, 0);
    int rc = 0;
    if (k.name) {
        struct buf b = BUF_INIT;
        char *type = type_of(root, k.found);
        const char *desc = description_of(root, k.found);
        buf_addf(&b, "**`%s`**", k.name);
        if (type) buf_addf(&b, " · %s", type);
        if (desc) buf_addf(&b, "\n\n%s", desc);
        buf_adds(&b, "\n\n(the MCP Description format, `mcp-description.schema.json`)");
        out->markdown = buf_detach(&b);
        out->range = k.range;
        free(type);
        free(k.name);
        rc = 1;
    }
    lspf_lines_release(&ls);
    doc_free(d);
    json_decref(root);
    return rc;
}
