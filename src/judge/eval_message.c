/* eval_message.c - a finding's message, hint and fix title from their templates
 * (eval_message.h): the placeholders expanded, what they bring from the document with its
 * hidden characters escaped; and where a finding's match stands. */
#include "judge/eval_message.h"

#include <stdio.h>
#include <string.h>

#include "base/display.h"
#include "base/val.h"
#include "judge/eval.h"

/* ORDER PLACEHOLDER: the placeholders, as enum and as the names eval.h exports. */
enum placeholder {
    PH_POINTER,
    PH_KEY,
    PH_TYPE,
    PH_VERSIONS,
    PH_DETAIL,
    PH_VALUE,
    PH_ITEM,
    PH_ITEM_KIND,
    PH_MATCH,
    PH_CODEPOINT,
    PH_TEXT_KIND,
    PH_RELATED,
    PH_NONE
};
const char *const eval_placeholders[] = {
    "pointer",   "key",   "type",      "versions",  "detail",  "value", "item",
    "item-kind", "match", "codepoint", "text-kind", "related", NULL};

/* The MCP item collections: what {item-kind} calls an item, and the member {item} names
 * it by (schema.ts: Tool.name, Prompt.name, Resource.uri, ResourceTemplate.uriTemplate). */
static const struct {
    const char *collection, *kind, *member;
} item_kinds[] = {
    {"tools", "tool", "name"},
    {"prompts", "prompt", "name"},
    {"resources", "resource", "uri"},
    {"resourceTemplates", "resource template", "uriTemplate"},
};

const char *eval_item_member(const char *collection, const char **kind)
{
    for (size_t i = 0; i < sizeof item_kinds / sizeof item_kinds[0]; i++)
        if (!strcmp(collection, item_kinds[i].collection)) {
            if (kind) *kind = item_kinds[i].kind;
            return item_kinds[i].member;
        }
    if (kind) *kind = collection;
    return "name";
}

/* The item C lies in (a member of a collection of the document, at depth 2), or NULL. */
const struct cursor *eval_enclosing_item(const struct cursor *c)
{
    for (; c && c->depth >= 2; c = c->parent)
        if (c->depth == 2 && !c->key && c->parent->coll >= 0) return c;
    return NULL;
}

/* {item-kind}: "tool", ... for the MCP collections, a collection's own name otherwise,
 * "document" outside any item. */
const char *eval_item_kind(const struct cursor *item, const char **member)
{
    *member = "name";
    if (!item) return "document";
    const char *coll = item->parent->key;
    for (size_t i = 0; i < sizeof item_kinds / sizeof item_kinds[0]; i++)
        if (!strcmp(coll, item_kinds[i].collection)) {
            *member = item_kinds[i].member;
            return item_kinds[i].kind;
        }
    return coll;
}

/* {item}: the item's name, uri or uriTemplate as written (at most ITEM_MAX bytes, cut at
 * a character boundary); its pointer when that member is not a string (a nameless tool),
 * the node's own pointer outside any item. */
#define ITEM_MAX 100
static void add_item(struct buf *b, const struct cursor *c, const char *pointer)
{
    const char *member;
    const struct cursor *item = eval_enclosing_item(c);
    eval_item_kind(item, &member);
    const char *name = item ? json_string_value(json_object_get(item->v, member)) : NULL;
    if (!name) {
        char *at = item ? sel_pointer(item) : NULL;
        buf_adds(b, at ? at : pointer);
        free(at);
        return;
    }
    size_t n = strlen(name);
    if (n <= ITEM_MAX) {
        display_add(b, name, n);
        return;
    }
    n = ITEM_MAX - 3;
    while (n && ((unsigned char)name[n] & 0xC0) == 0x80) n--;
    display_add(b, name, n);
    buf_adds(b, "...");
}

struct found eval_found_text(const struct eval_ctx *ctx, const struct cursor *c)
{
    struct found f = {NULL, 0, 0, 0, NULL};
    if (!ctx->match.set) return f;
    const char *s = ctx->match.key ? c->key : json_string_value(c->v);
    size_t n = !s ? 0 : ctx->match.key ? strlen(s) : json_string_length(c->v);
    if (!s || ctx->match.off > n || ctx->match.len > n - ctx->match.off) return f;
    return (struct found){s, n, ctx->match.off, ctx->match.len, NULL};
}

/* report-at: match: the source positions of F's match at C (its start, and just after
 * its end), in the source of the node's value, or of its member name (where the key
 * predicate found it; a cursor on a member name): 0, or -1 when neither source decodes
 * to the judged string (a string the resolver made). A match of no characters is
 * placed where it stands. */
int eval_found_pos(const struct eval_ctx *ctx, const struct cursor *c, const struct found *f,
                   struct doc_pos *at, struct doc_pos *end)
{
    struct doc_span v, k;
    const doc *d = ctx->sctx.d;
    if (!f->s || f->off >= f->slen || doc_node_span(d, c->node, &v, &k) < 0) return -1;
    size_t n = f->len ? f->len : 1;
    int found = (!ctx->match.key && !c->is_key &&
                 doc_scalar_range(d, v.start, f->s, f->slen, f->off, n, at, end) == 0) ||
        (k.end > k.start && doc_scalar_range(d, k.start, f->s, f->slen, f->off, n, at, end) == 0);
    if (found && !f->len) *end = *at;
    return found ? 0 : -1;
}

/* {match}: the matched text, at most MATCH_MAX characters (else its first ones and
 * "..."), hidden characters escaped. */
#define MATCH_MAX 60
static void add_match(struct buf *b, const struct found *f)
{
    if (!f->s) return;
    const char *s = f->s + f->off;
    size_t n = 0, chars = 0, cut = 0;
    for (; n < f->len; n++) {
        if (((unsigned char)s[n] & 0xC0) == 0x80) continue;
        if (chars == MATCH_MAX - 3) cut = n;
        chars++;
    }
    if (chars <= MATCH_MAX) {
        display_add(b, s, f->len);
        return;
    }
    display_add(b, s, cut);
    buf_adds(b, "...");
}

static enum placeholder placeholder_of(const char *name, size_t n)
{
    for (int i = 0; eval_placeholders[i]; i++)
        if (strlen(eval_placeholders[i]) == n && !strncmp(name, eval_placeholders[i], n))
            return (enum placeholder)i;
    return PH_NONE;
}

/* Expand {pointer} {key} {value} {type} {versions} {detail} {item} {item-kind} {match}
 * {codepoint} {text-kind} {related} in a message template. What they bring from the document is shown with its
 * hidden characters escaped (display.h): a report about hidden text does not carry it. */
char *eval_expand(const char *tmpl, const struct cursor *c, const char *pointer, ver_mask m,
                  const struct ver_list *vl, const struct buf *detail, const struct found *f)
{
    struct buf b = BUF_INIT;
    for (const char *p = tmpl; *p; p++) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            buf_addc(&b, *p);
            continue;
        }
        size_t n = (size_t)(close - p - 1);
        switch (placeholder_of(p + 1, n)) {
        case PH_POINTER: display_add(&b, pointer, strlen(pointer)); break;
        case PH_KEY:
            if (c->key) display_add(&b, c->key, strlen(c->key));
            else buf_addf(&b, "%zu", c->index);
            break;
        case PH_TYPE: buf_adds(&b, val_type_name(c->v)); break;
        case PH_VERSIONS: ver_format(&b, vl, m, ", "); break;
        case PH_DETAIL: display_add(&b, buf_str(detail), detail->len); break;
        case PH_VALUE: {
            char *s = json_dumps(c->v, JSON_COMPACT | JSON_ENCODE_ANY);
            size_t len = strlen(s);
            if (len > 60) { /* 57 bytes, cut at a character's start: never half a UTF-8 one */
                size_t cut = 57;
                while (cut && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
                display_add(&b, s, cut);
                buf_adds(&b, "...");
            } else {
                display_add(&b, s, len);
            }
            free(s);
            break;
        }
        case PH_ITEM: add_item(&b, c, pointer); break;
        case PH_ITEM_KIND: {
            const char *member;
            buf_adds(&b, eval_item_kind(eval_enclosing_item(c), &member));
            break;
        }
        case PH_MATCH: add_match(&b, f); break;
        case PH_CODEPOINT:
            if (f->s && f->len) {
                uint32_t cp;
                display_utf8_next(f->s + f->off, f->len, &cp);
                if (cp != UINT32_MAX) display_add_codepoint(&b, cp);
            }
            break;
        case PH_TEXT_KIND: buf_adds(&b, c->text_kind ? c->text_kind : ""); break;
        case PH_RELATED:
            if (f->related) display_add(&b, f->related, strlen(f->related));
            break;
        case PH_NONE:
            buf_add(&b, p, n + 2); /* not a placeholder: keep the braces (JSON in messages) */
            break;
        }
        p = close;
    }
    return buf_detach(&b);
}
