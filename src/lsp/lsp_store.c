/* lsp_store.c - see lsp_store.h. */
#include "lsp/lsp_store.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "judge/eval_memo.h"

void lsp_store_init(struct lsp_store *st, size_t max)
{
    memset(st, 0, sizeof *st);
    st->max = max;
}

static void lspdoc_free(struct lsp_doc *d)
{
    free(d->uri);
    free(d->path);
    buf_release(&d->text);
    lsp_lines_release(&d->lines);
    diag_list_release(&d->diags);
    eval_memo_free(d->memo);
    free(d);
}

void lsp_store_release(struct lsp_store *st)
{
    for (size_t i = 0; i < st->len; i++) lspdoc_free(st->items[i]);
    free(st->items);
    memset(st, 0, sizeof *st);
}

struct lsp_doc *lsp_store_find(const struct lsp_store *st, const char *uri)
{
    for (size_t i = 0; i < st->len; i++)
        if (!strcmp(st->items[i]->uri, uri)) return st->items[i];
    return NULL;
}

static void reindex(struct lsp_doc *d)
{
    lsp_lines_release(&d->lines);
    lsp_lines_init(&d->lines, d->text.s ? d->text.s : "", d->text.len);
}

struct lsp_doc *lsp_store_open(struct lsp_store *st, const char *uri, const char *text, size_t len,
                               long long version)
{
    struct lsp_doc *d = lsp_store_find(st, uri);
    if (!d) {
        if (st->len >= st->max) return NULL;
        if (st->len == st->cap) {
            st->cap = st->cap ? st->cap * 2 : 8;
            st->items = xrealloc(st->items, st->cap * sizeof *st->items);
        }
        d = xcalloc(1, sizeof *d);
        d->uri = xstrdup(uri);
        d->path = lsp_store_path_of_uri(uri);
        st->items[st->len++] = d;
    }
    buf_reset(&d->text);
    buf_add(&d->text, text, len);
    d->version = version;
    d->kind = LSPF_OTHER;
    reindex(d);
    return d;
}

void lsp_store_edit(struct lsp_doc *d, size_t a, size_t b, const char *text, size_t n)
{
    if (b > d->text.len) b = d->text.len;
    if (a > b) a = b;
    struct buf nb = BUF_INIT;
    buf_add(&nb, d->text.s ? d->text.s : "", a);
    buf_add(&nb, text, n);
    buf_add(&nb, d->text.s ? d->text.s + b : "", d->text.len - b);
    buf_release(&d->text);
    d->text = nb;
    reindex(d);
}

void lsp_store_close(struct lsp_store *st, struct lsp_doc *d)
{
    for (size_t i = 0; i < st->len; i++) {
        if (st->items[i] != d) continue;
        memmove(st->items + i, st->items + i + 1, (st->len - i - 1) * sizeof *st->items);
        st->len--;
        lspdoc_free(d);
        return;
    }
}

const char *lsp_doc_name(const struct lsp_doc *d)
{
    return d->path ? d->path : d->uri;
}

static int hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *lsp_store_path_of_uri(const char *uri)
{
    if (strncasecmp(uri, "file://", 7)) return NULL;
    const char *p = uri + 7;
    if (!strncasecmp(p, "localhost/", 10)) p += 9;
    if (*p != '/') return NULL;
    size_t n = strcspn(p, "?#");
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n && hex(p[i + 1]) >= 0 && hex(p[i + 2]) >= 0) {
            char c = (char)(hex(p[i + 1]) * 16 + hex(p[i + 2]));
            if (!c) {
                free(out);
                return NULL;
            }
            *o++ = c;
            i += 2;
        } else {
            *o++ = p[i];
        }
    }
    *o = '\0';
    return out;
}
