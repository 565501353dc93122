/* fingerprint.c - stable identities of findings (fingerprint.h has the canonical
 * string). The item of a diagnostic is found from the first segments of its pointer and
 * the judged document; each item's identity is worked out once per document and kept, so
 * that a large collection with many findings costs one lookup per item. */
#include "findings/fingerprint.h"

#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"
#include "resolve/res.h"

/* The member that names an item of each known collection; other collections use "name". */
static const struct {
    const char *collection, *member;
} identity_members[] = {
    {"tools", "name"},
    {"prompts", "name"},
    {"resources", "uri"},
    {"resourceTemplates", "uriTemplate"},
};

static const char *identity_member(const char *collection)
{
    for (size_t i = 0; i < sizeof identity_members / sizeof *identity_members; i++)
        if (!strcmp(identity_members[i].collection, collection)) return identity_members[i].member;
    return "name";
}

struct collection_cache {
    const char *name;
    char *whole;   /* "/tools" */
    json_t *items; /* the array in the document, or NULL */
    char **ids;    /* per item, worked out on first use */
    size_t n;
};

struct fingerprint_items {
    const struct rule_set *rs;
    struct collection_cache *cols;
    size_t ncols;
    VEC(char *) tops; /* "/serverInfo", ...: the top-level members met so far */
};

struct fingerprint_items *fingerprint_items_new(const struct rule_set *rs, const doc *d)
{
    struct fingerprint_items *fi = xcalloc(1, sizeof *fi);
    fi->rs = rs;
    const struct res_config *cfg = rs ? rule_set_res_config(rs) : NULL;
    fi->ncols = cfg ? cfg->ncollections : 0;
    fi->cols = xcalloc(fi->ncols ? fi->ncols : 1, sizeof *fi->cols);
    json_t *root = d ? doc_root(d) : NULL;
    for (size_t c = 0; c < fi->ncols; c++) {
        struct collection_cache *cc = &fi->cols[c];
        cc->name = cfg->collections[c];
        cc->whole = xasprintf("/%s", cc->name);
        json_t *a = json_is_object(root) ? json_object_get(root, cc->name) : NULL;
        if (json_is_array(a)) {
            cc->items = a;
            cc->n = json_array_size(a);
        }
    }
    return fi;
}

void fingerprint_items_free(struct fingerprint_items *fi)
{
    if (!fi) return;
    for (size_t c = 0; c < fi->ncols; c++) {
        for (size_t i = 0; fi->cols[c].ids && i < fi->cols[c].n; i++) free(fi->cols[c].ids[i]);
        free(fi->cols[c].ids);
        free(fi->cols[c].whole);
    }
    free(fi->cols);
    for (size_t i = 0; i < fi->tops.len; i++) free(fi->tops.items[i]);
    VEC_FREE(fi->tops);
    free(fi);
}

/* COLLECTION[MEMBER=JSON] or COLLECTION[INDEX] (new string). */
static char *item_identity(const struct collection_cache *cc, size_t idx)
{
    const char *member = identity_member(cc->name);
    json_t *v = json_object_get(json_array_get(cc->items, idx), member);
    if (!json_is_string(v)) return xasprintf("%s[%zu]", cc->name, idx);
    struct buf b = BUF_INIT;
    buf_addf(&b, "%s[%s=\"", cc->name, member);
    buf_add_json_escaped(&b, json_string_value(v), json_string_length(v));
    buf_adds(&b, "\"]");
    return buf_detach(&b);
}

const char *fingerprint_item(struct fingerprint_items *fi, const char *pointer, const char **inner)
{
    if (!pointer || pointer[0] != '/') {
        *inner = pointer ? pointer : "";
        return "";
    }
    const char *seg = pointer + 1, *end = strchr(seg, '/');
    if (!end) end = seg + strlen(seg);
    size_t len = (size_t)(end - seg);
    for (size_t c = 0; c < fi->ncols; c++) {
        struct collection_cache *cc = &fi->cols[c];
        if (strlen(cc->name) != len || memcmp(cc->name, seg, len)) continue;
        *inner = end;
        if (*end != '/' || !cc->items) return cc->whole;
        const char *iseg = end + 1, *iend = strchr(iseg, '/');
        if (!iend) iend = iseg + strlen(iseg);
        char tok[24];
        size_t idx, ilen = (size_t)(iend - iseg);
        if (ilen >= sizeof tok) return cc->whole;
        memcpy(tok, iseg, ilen);
        tok[ilen] = '\0';
        if (!ptr_is_index(tok, &idx) || idx >= cc->n) return cc->whole;
        if (!cc->ids) cc->ids = xcalloc(cc->n, sizeof *cc->ids);
        if (!cc->ids[idx]) cc->ids[idx] = item_identity(cc, idx);
        *inner = iend;
        return cc->ids[idx];
    }
    *inner = end;
    for (size_t i = 0; i < fi->tops.len; i++)
        if (strlen(fi->tops.items[i]) == len + 1 && !memcmp(fi->tops.items[i] + 1, seg, len))
            return fi->tops.items[i];
    char *top = xasprintf("/%.*s", (int)len, seg);
    VEC_PUSH(fi->tops, top);
    return top;
}

json_t *fingerprint_item_value(struct fingerprint_items *fi, const char *pointer, size_t *plen,
                               const char **identity)
{
    *plen = 0;
    *identity = NULL;
    if (!pointer || pointer[0] != '/') return NULL;
    const char *seg = pointer + 1, *end = strchr(seg, '/');
    if (!end) return NULL;
    size_t len = (size_t)(end - seg);
    for (size_t c = 0; c < fi->ncols; c++) {
        struct collection_cache *cc = &fi->cols[c];
        if (strlen(cc->name) != len || memcmp(cc->name, seg, len) || !cc->items) continue;
        const char *iseg = end + 1, *iend = strchr(iseg, '/');
        if (!iend) iend = iseg + strlen(iseg);
        char tok[24];
        size_t idx, ilen = (size_t)(iend - iseg);
        if (ilen >= sizeof tok) return NULL;
        memcpy(tok, iseg, ilen);
        tok[ilen] = '\0';
        if (!ptr_is_index(tok, &idx) || idx >= cc->n) return NULL;
        json_t *item = json_array_get(cc->items, idx);
        *identity = json_string_value(json_object_get(item, identity_member(cc->name)));
        *plen = (size_t)(iend - pointer);
        return item;
    }
    return NULL;
}

char *fingerprint_file(const char *cwd, const char *file)
{
    struct buf b = BUF_INIT;
    const char *p = file ? file : "";
    /* an absolute path inside the working directory reads as relative to it: the same
     * file has one fingerprint in every checkout, however it was named */
    size_t cl;
    if (*p == '/' && cwd && (cl = strlen(cwd)) > 1 && !strncmp(p, cwd, cl) && p[cl] == '/')
        p += cl + 1;
    if (*p == '/') buf_addc(&b, '/');
    while (*p) {
        while (*p == '/') p++;
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!(n == 1 && p[0] == '.')) {
            if (b.len && buf_str(&b)[b.len - 1] != '/') buf_addc(&b, '/');
            buf_add(&b, p, n);
        }
        p += n;
    }
    if (!b.len) buf_adds(&b, file && *file ? "." : "");
    return buf_detach(&b);
}

/* The '/'-separated segments of the absolute path P with "." and ".." resolved as text
 * (symbolic links are not followed: a file is named as the user named it). */
static size_t abs_segments(const char *p, char ***out)
{
    VEC(char *) segs = VEC_INIT;
    while (*p) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        if (n == 2 && !strncmp(p, "..", 2)) {
            if (segs.len) free(segs.items[--segs.len]);
        } else if (n && !(n == 1 && *p == '.')) {
            VEC_PUSH(segs, xstrndup(p, n));
        }
        p += n;
    }
    *out = segs.items;
    return segs.len;
}

static char *absolute(const char *cwd, const char *file)
{
    if (file[0] == '/') return xstrdup(file);
    return cwd ? xasprintf("%s/%s", cwd, file) : xstrdup(file);
}

char *fingerprint_file_from(const char *cwd, const char *anchor, const char *file)
{
    if (!anchor || !file || !*file || file[0] == '<') return fingerprint_file(cwd, file);
    char *abs = absolute(cwd, file), **f, **a;
    size_t nf = abs_segments(abs, &f), na = abs_segments(anchor, &a), k = 0;
    free(abs);
    while (k < nf && k < na && !strcmp(f[k], a[k])) k++;
    struct buf b = BUF_INIT;
    for (size_t i = k; i < na; i++) buf_adds(&b, b.len ? "/.." : "..");
    for (size_t i = k; i < nf; i++) buf_addf(&b, "%s%s", b.len ? "/" : "", f[i]);
    if (!b.len) buf_adds(&b, ".");
    for (size_t i = 0; i < nf; i++) free(f[i]);
    for (size_t i = 0; i < na; i++) free(a[i]);
    free(f);
    free(a);
    return buf_detach(&b);
}

char *fingerprint_anchor(const char *cwd, const char *path)
{
    if (!path || !strcmp(path, "-")) return NULL;
    char *abs = absolute(cwd, path), **s;
    size_t n = abs_segments(abs, &s);
    free(abs);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i + 1 < n; i++) buf_addf(&b, "/%s", s[i]);
    if (!b.len) buf_addc(&b, '/');
    for (size_t i = 0; i < n; i++) free(s[i]);
    free(s);
    return buf_detach(&b);
}

static void netstring(struct buf *b, const char *s)
{
    if (!s) s = "";
    buf_addf(b, "%zu:%s,", strlen(s), s);
}

char *fingerprint_make(const char *rule, const char *file, const char *item, const char *inner,
                       const char *versions)
{
    struct buf b = BUF_INIT;
    netstring(&b, "v1");
    netstring(&b, rule);
    netstring(&b, file);
    netstring(&b, item);
    netstring(&b, inner);
    netstring(&b, versions);
    uint8_t dg[SHA256_DIGEST_SIZE];
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, b.len, (const uint8_t *)buf_str(&b));
    sha256_digest(&ctx, sizeof dg, dg);
    buf_release(&b);
    char *out = xmalloc(3 + 2 * sizeof dg + 1);
    memcpy(out, "v1:", 3);
    for (size_t i = 0; i < sizeof dg; i++) {
        out[3 + 2 * i] = "0123456789abcdef"[dg[i] >> 4];
        out[3 + 2 * i + 1] = "0123456789abcdef"[dg[i] & 15];
    }
    out[3 + 2 * sizeof dg] = '\0';
    return out;
}

char *fingerprint_diag(struct fingerprint_items *fi, const char *file, const struct diag *d)
{
    const char *inner;
    const char *item = fingerprint_item(fi, d->pointer, &inner);
    struct buf vs = BUF_INIT;
    if (fi->rs) ver_format(&vs, rule_set_versions(fi->rs), d->versions, ",");
    char *fp = fingerprint_make(d->rule, file, item, inner, buf_str(&vs));
    buf_release(&vs);
    return fp;
}

void fingerprint_diags(const struct rule_set *rs, const doc *d, const char *cwd, const char *file,
                       struct diag_list *l)
{
    if (!l->len) return;
    struct fingerprint_items *fi = fingerprint_items_new(rs, d);
    char *norm = fingerprint_file(cwd, file);
    for (size_t i = 0; i < l->len; i++) {
        free(l->items[i].fingerprint);
        l->items[i].fingerprint = fingerprint_diag(fi, norm, &l->items[i]);
    }
    free(norm);
    fingerprint_items_free(fi);
}
