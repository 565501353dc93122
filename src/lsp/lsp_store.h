/* lsp_store.h - the documents the editor holds open: URI, file system path, version,
 * newest text with its line index, what kind of document it is, and the diagnostics
 * of its last judge. Bounded: at most MAX documents at once. */
#ifndef MCPDESC_LSP_STORE_H
#define MCPDESC_LSP_STORE_H

#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_pos.h"

struct eval_memo;

struct lsp_doc {
    char *uri;
    char *path; /* the file's path for a file: URI, else NULL */
    long long version;
    struct buf text;
    struct lsp_lines lines; /* of TEXT, rebuilt after each edit */
    enum lspf_kind kind;
    int dirty;              /* a re-judge is pending */
    int judging;            /* a re-judge is running (lsp.c: a job in flight) */
    double due;             /* when (lsp.c) */
    int published;          /* diagnostics were published (cleared on close) */
    struct diag_list diags; /* of the last judge (hover reads them) */
    /* What the last judge of its text left for the next (judge/eval_memo.h), made with
     * the rule set of load MEMO_GEN (lsp.c), or NULL; a job in flight holds it. */
    struct eval_memo *memo;
    unsigned long memo_gen;
};

struct lsp_store {
    struct lsp_doc **items;
    size_t len, cap, max;
};

void lsp_store_init(struct lsp_store *st, size_t max);
void lsp_store_release(struct lsp_store *st);
/* The open document URI (borrowed), or NULL. */
struct lsp_doc *lsp_store_find(const struct lsp_store *st, const char *uri);
/* Open URI with TEXT (LEN bytes, copied) at VERSION; an open one is replaced. Returns it
 * (borrowed), or NULL when MAX documents are open already. */
struct lsp_doc *lsp_store_open(struct lsp_store *st, const char *uri, const char *text, size_t len,
                               long long version);
/* Replace bytes [A, B) of D's text by TEXT (N bytes) and index it again. */
void lsp_store_edit(struct lsp_doc *d, size_t a, size_t b, const char *text, size_t n);
/* Close D (freed). */
void lsp_store_close(struct lsp_store *st, struct lsp_doc *d);
/* The name of D in diagnostics: its path, else its URI (borrowed). */
const char *lsp_doc_name(const struct lsp_doc *d);
/* The path of a file: URI ("file:///a%20b" gives "/a b"), new; NULL for other URIs or a
 * path with a NUL byte. */
char *lsp_store_path_of_uri(const char *uri);

#endif
