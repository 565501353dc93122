/* capture.c - merging capture sessions into one MCP Description (docs/format.md
 * sections 2 and 2.1): items identical in every session appear once, other forms
 * carry the versions they were seen in. The sessions themselves run in capture_run.c. */
#include "capture/capture.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const capture_known_versions[] = {"2024-11-05", "2025-03-26", "2025-06-18",
                                              "2025-11-25", "2026-07-28", NULL};

int capture_version_known(const char *v)
{
    for (size_t i = 0; capture_known_versions[i]; i++)
        if (!strcmp(capture_known_versions[i], v)) return 1;
    return 0;
}

void capture_session_release(struct capture_session *s)
{
    free(s->requested);
    free(s->version);
    json_decref(s->server_info);
    json_decref(s->capabilities);
    json_decref(s->instructions);
    for (int i = 0; i < CAPTURE_NLISTS; i++) json_decref(s->lists[i]);
    memset(s, 0, sizeof *s);
}

static const char *const list_member[CAPTURE_NLISTS] = {"tools", "resources", "resourceTemplates",
                                                        "prompts"};
static const char *const list_key[CAPTURE_NLISTS] = {"name", "uri", "uriTemplate", "name"};
static const char *const list_noun[CAPTURE_NLISTS] = {"tool", "resource", "resource template",
                                                      "prompt"};

struct variant {
    json_t *item;    /* borrowed from a session */
    const char *key; /* borrowed, NULL when the item has no string key */
    uint64_t seen;   /* bit i: seen in sorted session i */
};

static int by_version(const void *a, const void *b)
{
    const struct capture_session *const *x = a, *const *y = b;
    return strcmp((*x)->version, (*y)->version);
}

static json_t *version_array(const struct capture_session *const *sorted, uint64_t mask)
{
    json_t *a = json_array();
    for (size_t i = 0; i < 64; i++)
        if (mask & ((uint64_t)1 << i)) json_array_append_new(a, json_string(sorted[i]->version));
    return a;
}

static const char *item_key(json_t *item, int list)
{
    return json_string_value(json_object_get(item, list_key[list]));
}

static json_t *merge_list(const struct capture_session *const *sorted, size_t n, int list,
                          struct buf *notes)
{
    VEC(struct variant) vs = VEC_INIT;
    uint64_t all = n >= 64 ? UINT64_MAX : (((uint64_t)1 << n) - 1);
    for (size_t si = n; si-- > 0;) { /* newest first: its order wins */
        json_t *arr = sorted[si]->lists[list];
        size_t idx, prev = SIZE_MAX; /* variant of this session's previous item */
        json_t *item;
        json_array_foreach(arr, idx, item)
        {
            const char *key = item_key(item, list);
            size_t found = vs.len, last_same_key = vs.len;
            for (size_t k = 0; k < vs.len; k++) {
                struct variant *v = &vs.items[k];
                int same_key = (key && v->key) ? !strcmp(key, v->key) : (!key && !v->key);
                if (!same_key) continue;
                last_same_key = k;
                if (found == vs.len && !(v->seen & ((uint64_t)1 << si)) &&
                    json_equal(item, v->item))
                    found = k;
            }
            if (found < vs.len) {
                vs.items[found].seen |= (uint64_t)1 << si;
                prev = found;
                continue;
            }
            /* a new form goes right after the other forms of the same item; a new item
             * after the one that preceded it in this session (after that one's forms) */
            size_t at;
            if (key && last_same_key < vs.len) {
                at = last_same_key + 1;
            } else if (prev == SIZE_MAX) {
                at = 0;
            } else {
                at = prev + 1;
                const char *pk = vs.items[prev].key;
                while (pk && at < vs.len && vs.items[at].key && !strcmp(vs.items[at].key, pk)) at++;
            }
            struct variant nv = {item, key, (uint64_t)1 << si};
            VEC_PUSH(vs, nv);
            memmove(&vs.items[at + 1], &vs.items[at], (vs.len - 1 - at) * sizeof *vs.items);
            vs.items[at] = nv;
            prev = at;
        }
    }
    json_t *out = json_array();
    for (size_t k = 0; k < vs.len; k++) {
        struct variant *v = &vs.items[k];
        if (v->seen == all || !json_is_object(v->item)) {
            json_array_append(out, v->item);
            continue;
        }
        json_t *copy = json_copy(v->item);
        json_object_set_new(copy, "protocolVersions", version_array(sorted, v->seen));
        json_array_append_new(out, copy);
        int other_form =
            (k > 0 && v->key && vs.items[k - 1].key && !strcmp(vs.items[k - 1].key, v->key));
        if (v->key && other_form) {
            buf_addf(notes,
                     "%s '%s' differs between protocol versions; it is listed once per form\n",
                     list_noun[list], v->key);
        }
    }
    VEC_FREE(vs);
    return out;
}

/* Note when a member (at MEMBER_OFFSET of each session) differs from the recorded one. */
static void note_differences(const struct capture_session *const *sorted, size_t n,
                             const char *what, size_t member_offset, size_t chosen,
                             struct buf *notes)
{
    json_t *ref = *(json_t *const *)((const char *)sorted[chosen] + member_offset);
    struct buf which = BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (i == chosen) continue;
        json_t *v = *(json_t *const *)((const char *)sorted[i] + member_offset);
        if (!v && !ref) continue;
        if (v && ref && json_equal(v, ref)) continue;
        buf_addf(&which, "%s%s", which.len ? ", " : "", sorted[i]->version);
    }
    if (which.len)
        buf_addf(notes, "%s differs in protocol version%s %s; recorded: %s's\n", what,
                 strchr(which.s, ',') ? "s" : "", which.s, sorted[chosen]->version);
    buf_release(&which);
}

/* Suppressions (x-mcpdesc-ignore, docs/config.md) are the description author's, kept in
 * the description or the config: one sent by a server would hide the findings about that
 * server's own texts (a poisoned tool silencing the security rules). Dropped from every
 * item of DOC, each with a note; the sessions' items stay as they were. */
static void drop_server_suppressions(json_t *doc, struct buf *notes)
{
    for (int l = 0; l < CAPTURE_NLISTS; l++) {
        json_t *arr = json_object_get(doc, list_member[l]);
        size_t i;
        json_t *item;
        json_array_foreach(arr, i, item)
        {
            if (!json_object_get(item, "x-mcpdesc-ignore")) continue;
            json_t *copy = json_deep_copy(item);
            json_object_del(copy, "x-mcpdesc-ignore");
            const char *key = item_key(copy, l);
            buf_addf(notes,
                     "%s %s%s%s: the server sent x-mcpdesc-ignore; dropped (suppressions "
                     "are the description author's, not the server's)\n",
                     list_noun[l], key ? "\"" : "", key ? key : "(without a name)",
                     key ? "\"" : "");
            json_array_set_new(arr, i, copy);
        }
    }
}

json_t *capture_merge(const struct capture_session *s, size_t n, const char *tool, const char *date,
                      struct buf *notes)
{
    if (n == 0 || n > 64) BUG("capture_merge: bad number of sessions");
    const struct capture_session **sorted = xmalloc(n * sizeof *sorted);
    for (size_t i = 0; i < n; i++) sorted[i] = &s[i];
    qsort(sorted, n, sizeof *sorted, by_version);
    size_t newest = n - 1;

    json_t *doc = json_object();
    json_object_set_new(doc, "mcpDescription", json_string("0.9.0"));
    json_object_set_new(doc, "protocolVersions",
                        version_array(sorted, n >= 64 ? UINT64_MAX : (((uint64_t)1 << n) - 1)));

    /* serverInfo: the newest session that has one (2026-07-28 only SHOULD send it) */
    size_t info = newest;
    while (info > 0 && !sorted[info]->server_info) info--;
    if (sorted[info]->server_info) {
        json_object_set(doc, "serverInfo", sorted[info]->server_info);
        note_differences(sorted, n, "serverInfo", offsetof(struct capture_session, server_info),
                         info, notes);
    }
    if (sorted[newest]->capabilities)
        json_object_set(doc, "capabilities", sorted[newest]->capabilities);
    note_differences(sorted, n, "capabilities", offsetof(struct capture_session, capabilities),
                     newest, notes);
    if (sorted[newest]->instructions)
        json_object_set(doc, "instructions", sorted[newest]->instructions);
    note_differences(sorted, n, "instructions", offsetof(struct capture_session, instructions),
                     newest, notes);

    for (int l = 0; l < CAPTURE_NLISTS; l++) {
        int any = 0;
        for (size_t i = 0; i < n; i++) any |= sorted[i]->lists[l] != NULL;
        if (any) json_object_set_new(doc, list_member[l], merge_list(sorted, n, l, notes));
    }
    drop_server_suppressions(doc, notes);
    json_t *by = json_pack("{s:s}", "tool", tool);
    if (date) json_object_set_new(by, "date", json_string(date));
    json_object_set_new(doc, "x-capturedBy", by);
    free(sorted);
    return doc;
}

void capture_summary(json_t *doc, struct buf *b)
{
    buf_adds(b, "captured protocol version");
    json_t *pv = json_object_get(doc, "protocolVersions");
    if (json_array_size(pv) != 1) buf_addc(b, 's');
    size_t i;
    json_t *v;
    json_array_foreach(pv, i, v) buf_addf(b, "%s%s", i ? ", " : " ", json_string_value(v));
    buf_adds(b, ":");
    for (int l = 0; l < CAPTURE_NLISTS; l++) {
        json_t *arr = json_object_get(doc, list_member[l]);
        size_t count = 0;
        json_t *item;
        json_array_foreach(arr, i, item)
        {
            const char *key = item_key(item, l);
            int seen = 0; /* another form of an item already counted */
            for (size_t k = 0; k < i && key && !seen; k++) {
                const char *other = item_key(json_array_get(arr, k), l);
                seen = other && !strcmp(other, key);
            }
            count += !seen;
        }
        buf_addf(b, "%s %zu %s%s", l ? "," : "", count, list_noun[l], count == 1 ? "" : "s");
    }
}

static void add_real(struct buf *b, double d)
{
    char tmp[64];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d) break;
    }
    buf_adds(b, tmp);
    if (!strpbrk(tmp, ".eEn")) buf_adds(b, ".0"); /* keep it a real; "n": inf/nan never load */
}

static void add_indent(struct buf *b, int depth)
{
    buf_addc(b, '\n');
    for (int i = 0; i < depth; i++) buf_adds(b, "  ");
}

static void dump(json_t *v, struct buf *b, int depth)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (!json_object_size(v)) {
            buf_adds(b, "{}");
            return;
        }
        buf_addc(b, '{');
        const char *key;
        json_t *m;
        int first = 1;
        json_object_foreach(v, key, m)
        {
            if (!first) buf_addc(b, ',');
            first = 0;
            add_indent(b, depth + 1);
            buf_addc(b, '"');
            buf_add_json_escaped(b, key, strlen(key));
            buf_adds(b, "\": ");
            dump(m, b, depth + 1);
        }
        add_indent(b, depth);
        buf_addc(b, '}');
        return;
    }
    case JSON_ARRAY: {
        if (!json_array_size(v)) {
            buf_adds(b, "[]");
            return;
        }
        buf_addc(b, '[');
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m)
        {
            if (i) buf_addc(b, ',');
            add_indent(b, depth + 1);
            dump(m, b, depth + 1);
        }
        add_indent(b, depth);
        buf_addc(b, ']');
        return;
    }
    case JSON_STRING:
        buf_addc(b, '"');
        buf_add_json_escaped(b, json_string_value(v), json_string_length(v));
        buf_addc(b, '"');
        return;
    case JSON_INTEGER: buf_addf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return;
    case JSON_REAL: add_real(b, json_real_value(v)); return;
    case JSON_TRUE: buf_adds(b, "true"); return;
    case JSON_FALSE: buf_adds(b, "false"); return;
    case JSON_NULL: buf_adds(b, "null"); return;
    }
}

void capture_dump(json_t *v, struct buf *b)
{
    dump(v, b, 0);
    buf_addc(b, '\n');
}
