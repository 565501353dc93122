/* lsp.c - the message handler of the language server: JSON-RPC, the lifecycle, document
 * sync, judging and publishing, and the feature requests (answered by lsp_features.h).
 * See lsp.h. */
#include "lsp/lsp.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/uri.h"
#include "base/util.h"
#include "base/ver.h"
#include "findings/fingerprint.h"
#include "findings/fix.h"
#include "judge/eval_memo.h"
#include "judge/judge.h"
#include "resolve/res.h"
#include "findings/suppress.h"
#include "lsp/lsp_features.h"
#include "lsp/lsp_pos.h"
#include "lsp/lsp_store.h"

/* JSON-RPC and LSP error codes. */
enum {
    ERR_PARSE = -32700,
    ERR_INVALID_REQUEST = -32600,
    ERR_METHOD_NOT_FOUND = -32601,
    ERR_INVALID_PARAMS = -32602,
    ERR_NOT_INITIALIZED = -32002,
    ERR_REQUEST_CANCELLED = -32800
};

enum lsp_state { ST_NEW, ST_RUNNING, ST_SHUTDOWN, ST_EXITED };

/* A loaded rule set, shared by the server and the judges in flight (counted on the
 * server's thread only): unloaded when the last one lets go. */
struct rules_ref {
    struct lsp_rules r;
    struct lsp_host host;
    int refs;
};

static void rules_unref(struct rules_ref *r)
{
    if (!r || --r->refs > 0) return;
    if (r->host.unload) r->host.unload(r->host.arg, &r->r);
    free(r);
}

/* A re-judge of one version of one document: taken on the server's thread, run on any
 * thread (it reads only its own copies and the shared, read-only rule set), finished on
 * the server's thread. */
struct lsp_job {
    char *uri, *path, *name;
    long long version;
    enum lspf_kind kind;
    struct buf text; /* a copy of that version's text */
    struct lsp_lines lines;
    enum lsp_enc enc;
    struct rules_ref *rules; /* a reference, or NULL */
    char *not_loaded;        /* with no rules: why the rule set could not be loaded */
    /* the outcome */
    json_t *diagnostics;    /* the LSP diagnostics */
    struct diag_list diags; /* for hover */
    int not_description;    /* it parsed, and its top level has no mcpDescription member */
    doc *judged;            /* the document judged, freed once its findings are out */
    /* the document's memo (taken from it, given back when the job finishes), or NULL */
    struct eval_memo *memo;
    unsigned long memo_gen;
};

/* A request that waits for the re-judge of its document (answered for the newest text). */
struct deferred {
    json_t *req; /* the request (owned) */
    char *uri;
};

struct lsp_server {
    struct lsp_host host;
    struct rules_ref *rules; /* the rule set in use, or NULL */
    char *load_error;        /* why the last load failed (NULL after a good one) */
    enum lsp_state state;
    int exit_status;
    enum lsp_enc enc;
    double debounce; /* seconds */
    char *root;      /* workspace folder, or NULL */
    int watch_dynamic;
    int doc_changes;         /* the client takes WorkspaceEdit.documentChanges */
    int async;               /* lsp_server_set_async */
    unsigned long rules_gen; /* good loads so far: a document's memo is of one of them */
    struct lsp_store docs;
    VEC(struct deferred) deferred;
};

/* ---- JSON helpers ---- */

/* A JSON string of S (NULL: null); bytes that are not UTF-8 become '?' (messages quote
 * documents, and jansson takes only valid UTF-8). */
static json_t *jstr(const char *s)
{
    if (!s) return json_null();
    json_t *j = json_string(s);
    if (j) return j;
    char *c = xstrdup(s);
    for (char *p = c; *p; p++)
        if ((unsigned char)*p >= 0x80) *p = '?';
    j = json_string(c);
    free(c);
    return j ? j : json_string("");
}

static void send(json_t *out, json_t *msg)
{
    json_array_append_new(out, msg);
}

static json_t *response(json_t *id, json_t *result)
{
    return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "result",
                     result ? result : json_null());
}

static json_t *error_response(json_t *id, int code, const char *message)
{
    return json_pack("{s:s, s:O, s:{s:i, s:o}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                     "error", "code", code, "message", jstr(message));
}

static json_t *notification(const char *method, json_t *params)
{
    return json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method, "params", params);
}

static void show_message(json_t *out, int type, const char *text)
{
    send(out,
         notification("window/showMessage",
                      json_pack("{s:i, s:o}", "type", type, "message", jstr(text))));
}

static json_t *position_json(struct lsp_position p)
{
    return json_pack("{s:I, s:I}", "line", (json_int_t)p.line, "character",
                     (json_int_t)p.character);
}

static json_t *range_json(struct lsp_position a, struct lsp_position b)
{
    return json_pack("{s:o, s:o}", "start", position_json(a), "end", position_json(b));
}

/* Read an LSP position from J; -1 when it is not one. */
static int position_from(json_t *j, struct lsp_position *p)
{
    json_t *l = json_object_get(j, "line"), *c = json_object_get(j, "character");
    if (!json_is_integer(l) || !json_is_integer(c)) return -1;
    json_int_t li = json_integer_value(l), ci = json_integer_value(c);
    if (li < 0 || ci < 0) return -1;
    p->line = li > UINT32_MAX ? UINT32_MAX : (uint32_t)li;
    p->character = ci > UINT32_MAX ? UINT32_MAX : (uint32_t)ci;
    return 0;
}

/* ---- the rule set ---- */

static const struct rule_set *rules_of(const lsp_server *s)
{
    return s->rules ? s->rules->r.rs : NULL;
}

/* Load (or reload) the rule set; keep the last good one when it fails. 0 or -1. */
static int load_rules(lsp_server *s, json_t *out)
{
    if (!s->host.load) return -1;
    struct lsp_rules r = {0};
    char *why = NULL;
    if (s->host.load(s->host.arg, s->root, &r, &why) < 0) {
        char *m = xasprintf("mcpdesc: the rule set could not be loaded%s%s%s", why ? ": " : "",
                            why ? why : "", s->rules ? " (the last good one stays in use)" : "");
        show_message(out, 1, m);
        free(m);
        free(s->load_error);
        s->load_error = why ? why : xstrdup("see the server's log");
        return -1;
    }
    free(why);
    free(s->load_error);
    s->load_error = NULL;
    rules_unref(s->rules);
    s->rules = xcalloc(1, sizeof *s->rules);
    *s->rules = (struct rules_ref){r, s->host, 1};
    s->rules_gen++; /* the documents' memos are of the old set: each is dropped at its next job */
    return 0;
}

/* ---- diagnostics ---- */

struct pub_view {
    const char *uri;
    const struct lsp_lines *lines;
    enum lsp_enc enc;
    const struct rule_set *rs;
    const char *docs_url; /* where the rule pages are, or NULL */
};

/* The range of a finding at P in the text of V: from P to the end of its value. */
static json_t *diag_range(const struct pub_view *v, struct doc_pos p)
{
    const struct lsp_lines *l = v->lines;
    size_t a = lsp_offset_of_doc(l, p);
    size_t b = p.line ? lsp_value_end(l->text, l->len, a) : a;
    return range_json(lsp_position_of(l, a, v->enc), lsp_position_of(l, b, v->enc));
}

/* The site that reached the component: the longest prefix of the resolved POINTER that
 * has a node in the source (the object holding the $componentRef: below it the source
 * has nothing, resolution put the component there), at its first member's key (the
 * "$componentRef", the only member such an object may have). 0 and *POS, or -1. */
static int reference_site(const doc *d, const char *pointer, struct doc_pos *pos)
{
    if (!d || !pointer) return -1;
    char *p = xstrdup(pointer);
    int found = -1;
    for (;;) {
        doc_node n = doc_pointer_node(d, p);
        if (n != DOC_NONE) {
            doc_node c = doc_node_first_child(d, n);
            *pos = c != DOC_NONE ? doc_node_key_pos(d, c) : doc_node_pos(d, n);
            found = 0;
            break;
        }
        char *slash = strrchr(p, '/');
        if (!slash) break;
        *slash = '\0';
    }
    free(p);
    return found;
}

static json_t *related(const char *uri, json_t *range, const char *message)
{
    return json_pack("{s:{s:s, s:o}, s:o}", "location", "uri", uri, "range", range, "message",
                     jstr(message));
}

/* The LSP Diagnostic of X in the text of JB (J: the judged document, for components;
 * NULL for lint findings). */
static json_t *diag_json(const struct pub_view *jb, const doc *j, const struct diag *x)
{
    static const int severity[] = {[DIAG_INFO] = 3, [DIAG_WARNING] = 2, [DIAG_ERROR] = 1};
    const struct rule_set *rs = jb->rs;
    struct doc_pos p = {x->line, x->col};
    json_t *o = json_object();
    if (x->has_match && x->end_line) { /* report-at: match: the text found, in its string */
        const struct lsp_lines *l = jb->lines;
        struct doc_pos e = {x->end_line, x->end_col};
        json_object_set_new(o, "range",
                            range_json(lsp_position_of(l, lsp_offset_of_doc(l, p), jb->enc),
                                       lsp_position_of(l, lsp_offset_of_doc(l, e), jb->enc)));
    } else {
        json_object_set_new(o, "range", diag_range(jb, p));
    }
    json_object_set_new(o, "severity", json_integer(severity[x->level]));
    if (x->rule) {
        json_object_set_new(o, "code", jstr(x->rule));
        char *href = rule_page_url(jb->docs_url, x->rule);
        if (href) json_object_set_new(o, "codeDescription", json_pack("{s:o}", "href", jstr(href)));
        free(href);
    }
    json_object_set_new(o, "source", json_string("mcpdesc"));
    struct buf m = BUF_INIT;
    buf_adds(&m, x->message ? x->message : "");
    if (x->rule && x->versions && rs) {
        buf_adds(&m, " (");
        ver_format(&m, rule_set_versions(rs), x->versions, ", ");
        buf_adds(&m, ")");
    }
    /* a lint or config finding has no rule page and no hover: its hint (the "did you
     * mean", how to mend it) goes with it, as `rules lint` prints it */
    if (!x->rule && x->hint) buf_addf(&m, "\nhint: %s", x->hint);
    json_object_set_new(o, "message", jstr(buf_str(&m)));
    buf_release(&m);
    if (x->component && j) {
        json_t *rel = json_array();
        struct doc_pos v, k, site;
        if (doc_pointer_pos(j, x->component, &v, &k) == 0) {
            char *msg = xasprintf("the component %s", x->component);
            json_array_append_new(rel, related(jb->uri, diag_range(jb, k), msg));
            free(msg);
        }
        if (reference_site(j, x->pointer, &site) == 0)
            json_array_append_new(
                rel, related(jb->uri, diag_range(jb, site), "reached through this $componentRef"));
        if (json_array_size(rel)) json_object_set_new(o, "relatedInformation", rel);
        else json_decref(rel);
    }
    return o;
}

/* Is X about the document NAME (lint findings may name other files)? */
static int about(const char *name, const struct diag *x)
{
    return !x->file || !strcmp(x->file, name);
}

/* VERSION: the document's version, or NULL (a closed document: no version). */
static void publish(json_t *out, const char *uri, json_t *version, json_t *diagnostics)
{
    json_t *p = json_pack("{s:s, s:o}", "uri", uri, "diagnostics", diagnostics);
    if (version) json_object_set_new(p, "version", version);
    send(out, notification("textDocument/publishDiagnostics", p));
}

/* Judge TEXT (LEN bytes) of the description NAME with the rule set RR as `validate`
 * does: its rule selection, then the host's levels and suppressions. Fills R (release
 * it with judge_result_release). */
static void judge_text(const struct rules_ref *rr, const char *name, const char *text, size_t len,
                       struct eval_memo *memo, struct judge_result *r)
{
    struct judge_source src = {JUDGE_BUFFER, name, NULL, text, len};
    struct eval_options eo = rr->r.eo ? *rr->r.eo : (struct eval_options){0};
    eo.memo = memo; /* the items an edit left alone keep their findings */
    struct judge_options jo = {&eo, NULL, 0, 0, 0};
    judge_document(rr->r.rs, &src, &jo, r);
    if (!r->error && r->d && rr->host.apply)
        rr->host.apply(rr->host.arg, &rr->r, name, r->d, &r->diags);
}

/* Judge or lint the text of J as its kind says (any thread). */
static void job_run(struct lsp_job *j)
{
    j->diagnostics = json_array();
    const struct rules_ref *rr = j->rules;
    struct pub_view v = {j->uri, &j->lines, j->enc, rr ? rr->r.rs : NULL,
                         rr ? rr->r.docs_url : NULL};
    if (j->kind == LSPF_DESCRIPTION && rr &&
        !(rr->host.ignored && rr->host.ignored(rr->host.arg, &rr->r, j->name))) {
        struct judge_result r;
        judge_text(rr, j->name, j->text.s, j->text.len, j->memo, &r);
        json_t *root = r.d ? doc_root(r.d) : NULL;
        if (r.error) {
            json_array_append_new(j->diagnostics, diag_json(&v, NULL, r.error));
        } else if (root &&
                   !(json_is_object(root) && json_object_get(root, JUDGE_DESCRIPTION_MEMBER))) {
            j->not_description = 1; /* as lspf_classify would say: no findings of it */
        } else if (r.d) {
            for (size_t i = 0; i < r.diags.len; i++) {
                const struct diag *x = &r.diags.items[i];
                /* suppressed and baselined findings are not published (docs/editors.md) */
                if (diag_hidden(x) || !about(j->name, x)) continue;
                json_array_append_new(j->diagnostics, diag_json(&v, r.d, x));
            }
            j->diags = r.diags;
            r.diags = (struct diag_list)DIAG_LIST_INIT;
        }
        j->judged = r.d; /* freed after publishing: the editor need not wait for it */
        r.d = NULL;
        judge_result_release(&r);
    } else if (j->kind == LSPF_DESCRIPTION && !rr) {
        /* never an empty list, which reads as "no findings": say it was not judged */
        diag_errorf(&j->diags, j->name, 1, 1,
                    "not judged: mcpdesc could not load its rule set (%s); mend it and save, "
                    "and this description is judged",
                    j->not_loaded);
        json_array_append_new(j->diagnostics, diag_json(&v, NULL, &j->diags.items[0]));
    } else if (j->kind == LSPF_RULES || j->kind == LSPF_MANIFEST || j->kind == LSPF_CONFIG) {
        struct lspf_text t = {j->path, j->text.s ? j->text.s : "", j->text.len};
        lspf_lint(&t, j->kind, &j->diags);
        for (size_t i = 0; i < j->diags.len; i++)
            if (about(j->name, &j->diags.items[i]))
                json_array_append_new(j->diagnostics, diag_json(&v, NULL, &j->diags.items[i]));
    }
}

void lsp_job_free(lsp_job *j)
{
    if (!j) return;
    free(j->uri);
    free(j->path);
    free(j->name);
    lsp_lines_release(&j->lines);
    buf_release(&j->text);
    rules_unref(j->rules);
    free(j->not_loaded);
    json_decref(j->diagnostics);
    diag_list_release(&j->diags);
    eval_memo_free(j->memo);
    doc_free(j->judged);
    free(j);
}

/* A job for D's current text (the server's thread). */
static struct lsp_job *job_new(lsp_server *s, struct lsp_doc *d)
{
    struct lsp_job *j = xcalloc(1, sizeof *j);
    j->uri = xstrdup(d->uri);
    j->path = d->path ? xstrdup(d->path) : NULL;
    j->name = xstrdup(lsp_doc_name(d));
    j->version = d->version;
    j->kind = d->kind;
    buf_add(&j->text, d->text.s ? d->text.s : "", d->text.len);
    lsp_lines_init(&j->lines, j->text.s ? j->text.s : "", j->text.len);
    j->enc = s->enc;
    j->rules = s->rules;
    if (j->rules) j->rules->refs++;
    else j->not_loaded = xstrdup(s->load_error ? s->load_error : "no rule set");
    if (d->kind == LSPF_DESCRIPTION && j->rules) {
        if (d->memo && d->memo_gen != s->rules_gen) eval_memo_free(d->memo);
        else j->memo = d->memo;
        d->memo = NULL;
        if (!j->memo) j->memo = eval_memo_new();
        j->memo_gen = s->rules_gen;
    }
    d->dirty = 0;
    d->judging = 1;
    return j;
}

static void answer_deferred(lsp_server *s, const char *uri, json_t *out);

/* Publish what J found, unless its document changed or closed meanwhile (then the
 * result is stale and dropped: the newer text is judged next). */
static void job_finish(lsp_server *s, struct lsp_job *j, json_t *out)
{
    struct lsp_doc *d = lsp_store_find(&s->docs, j->uri);
    if (d) d->judging = 0;
    if (d && !d->memo && j->memo) { /* back to the document, stale result or not */
        d->memo = j->memo;
        d->memo_gen = j->memo_gen;
        j->memo = NULL;
    }
    if (!d || d->dirty || d->version != j->version || s->state != ST_RUNNING) return;
    if (j->not_description) d->kind = LSPF_OTHER;
    diag_list_release(&d->diags);
    d->diags = j->diags;
    j->diags = (struct diag_list)DIAG_LIST_INIT;
    if (d->kind != LSPF_OTHER || d->published) {
        d->published = d->kind != LSPF_OTHER;
        publish(out, d->uri, json_integer(d->version), json_incref(j->diagnostics));
    }
    answer_deferred(s, d->uri, out);
}

/* ---- requests ---- */

static struct lsp_doc *doc_of(lsp_server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    return uri ? lsp_store_find(&s->docs, uri) : NULL;
}

/* The document and position of a TextDocumentPositionParams: 0, or -1 when they are
 * malformed (the document may be NULL: not open). */
static int doc_position(lsp_server *s, json_t *params, struct lsp_doc **d, struct doc_pos *pos)
{
    json_t *td = json_object_get(params, "textDocument");
    struct lsp_position p;
    if (!json_is_string(json_object_get(td, "uri")) ||
        position_from(json_object_get(params, "position"), &p) < 0)
        return -1;
    *d = doc_of(s, params);
    if (*d) *pos = lsp_doc_pos_of(&(*d)->lines, lsp_offset_of(&(*d)->lines, p, s->enc));
    return 0;
}

static json_t *lspf_range_json(const struct lsp_lines *l, struct lspf_range r, enum lsp_enc e)
{
    return range_json(lsp_position_of_doc(l, r.start, e), lsp_position_of_doc(l, r.end, e));
}

static json_t *hover(lsp_server *s, json_t *params, int *err)
{
    struct lsp_doc *d;
    struct doc_pos pos;
    if (doc_position(s, params, &d, &pos) < 0) return *err = 1, NULL;
    if (!d) return json_null();
    struct lspf_text t = {d->path, d->text.s ? d->text.s : "", d->text.len};
    struct lspf_hover h = {0};
    if (!lspf_hover(rules_of(s), s->rules ? s->rules->r.docs_url : NULL, &t, d->kind, &d->diags,
                    pos, &h))
        return json_null();
    json_t *r = json_pack("{s:{s:s, s:o}}", "contents", "kind", "markdown", "value",
                          jstr(h.markdown ? h.markdown : ""));
    if (h.range.start.line)
        json_object_set_new(r, "range", lspf_range_json(&d->lines, h.range, s->enc));
    lspf_hover_release(&h);
    return r;
}

/* The range R of the file PATH as the client counts: from the open document when it is
 * open, else from the file's text. */
static json_t *location_json(lsp_server *s, const struct lspf_location *loc)
{
    char *uri = uri_from_path(loc->path);
    struct lsp_doc *open = lsp_store_find(&s->docs, uri);
    json_t *range;
    if (open) {
        range = lspf_range_json(&open->lines, loc->range, s->enc);
    } else {
        struct buf b = BUF_INIT;
        struct stat st;
        if (stat(loc->path, &st) == 0 && (size_t)st.st_size <= LSP_MAX_TEXT)
            (void)buf_read_file(&b, loc->path);
        struct lsp_lines l;
        lsp_lines_init(&l, b.s ? b.s : "", b.len);
        range = lspf_range_json(&l, loc->range, s->enc);
        lsp_lines_release(&l);
        buf_release(&b);
    }
    json_t *r = json_pack("{s:s, s:o}", "uri", uri, "range", range);
    free(uri);
    return r;
}

static json_t *definition(lsp_server *s, json_t *params, int *err)
{
    struct lsp_doc *d;
    struct doc_pos pos;
    if (doc_position(s, params, &d, &pos) < 0) return *err = 1, NULL;
    if (!d) return json_null();
    struct lspf_text t = {d->path, d->text.s ? d->text.s : "", d->text.len};
    struct lspf_location *locs = NULL;
    size_t n = lspf_definition(rules_of(s), &t, d->kind, pos, &locs);
    json_t *r = json_array();
    for (size_t i = 0; i < n; i++)
        if (locs[i].path) json_array_append_new(r, location_json(s, &locs[i]));
    lspf_locations_free(locs, n);
    return r;
}

static json_t *completion(lsp_server *s, json_t *params, int *err)
{
    static const int kinds[] = {[LSPF_ITEM_FUNCTION] = 3,
                                [LSPF_ITEM_PROPERTY] = 10,
                                [LSPF_ITEM_VALUE] = 12,
                                [LSPF_ITEM_KEYWORD] = 14};
    struct lsp_doc *d;
    struct doc_pos pos;
    if (doc_position(s, params, &d, &pos) < 0) return *err = 1, NULL;
    json_t *items = json_array();
    if (d) {
        struct lspf_text t = {d->path, d->text.s ? d->text.s : "", d->text.len};
        struct lspf_items li = {0};
        lspf_complete(rules_of(s), &t, d->kind, pos, &li);
        for (size_t i = 0; i < li.len; i++) {
            const struct lspf_item *it = &li.items[i];
            json_t *o = json_pack("{s:o, s:i}", "label", jstr(it->label ? it->label : ""), "kind",
                                  kinds[it->kind]);
            if (it->detail) json_object_set_new(o, "detail", jstr(it->detail));
            if (it->documentation)
                json_object_set_new(
                    o, "documentation",
                    json_pack("{s:s, s:o}", "kind", "markdown", "value", jstr(it->documentation)));
            if (it->insert_text) json_object_set_new(o, "insertText", jstr(it->insert_text));
            json_array_append_new(items, o);
        }
        lspf_items_release(&li);
    }
    return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}

/* ---- code actions ---- */

#define FIX_ALL_KIND "source.fixAll.mcpdesc"

/* Does CONTEXT.only (ONLY: an array of kinds, or NULL: any kind) ask for actions of
 * KIND? A kind asks for itself and the kinds below it ("source" for "source.fixAll"). */
static int kind_wanted(json_t *only, const char *kind)
{
    if (!json_is_array(only)) return 1;
    size_t i;
    json_t *k;
    json_array_foreach(only, i, k)
    {
        const char *o = json_string_value(k);
        size_t n = o ? strlen(o) : 0;
        if (o && !strncmp(kind, o, n) && (kind[n] == '\0' || kind[n] == '.')) return 1;
    }
    return 0;
}

static int pos_le(struct lsp_position a, struct lsp_position b)
{
    return a.line < b.line || (a.line == b.line && a.character <= b.character);
}

/* Is the published diagnostic DJ one the request asks about: its range overlaps [A, B]
 * (touching counts: a cursor at either end of it), or the client lists it in
 * context.diagnostics (LISTED; the same range, code and message)? */
static int asked_about(json_t *dj, struct lsp_position a, struct lsp_position b, json_t *listed)
{
    json_t *range = json_object_get(dj, "range");
    struct lsp_position ds, de;
    if (position_from(json_object_get(range, "start"), &ds) == 0 &&
        position_from(json_object_get(range, "end"), &de) == 0 && pos_le(ds, b) && pos_le(a, de))
        return 1;
    size_t i;
    json_t *l;
    json_array_foreach(listed, i, l)
    {
        if (json_equal(json_object_get(l, "range"), range) &&
            json_equal(json_object_get(l, "message"), json_object_get(dj, "message")) &&
            json_equal(json_object_get(l, "code"), json_object_get(dj, "code")))
            return 1;
    }
    return 0;
}

/* The TextEdit replacing bytes [A, B) of D's text with TEXT (N bytes). */
static json_t *text_edit(const lsp_server *s, const struct lsp_doc *d, size_t a, size_t b,
                         const char *text, size_t n)
{
    json_t *t = json_stringn(text, n);
    if (!t) { /* not UTF-8: cannot happen for text made from a JSON value and the document */
        char *c = xstrndup(text, n);
        t = jstr(c);
        free(c);
    }
    return json_pack(
        "{s:o, s:o}", "range",
        range_json(lsp_position_of(&d->lines, a, s->enc), lsp_position_of(&d->lines, b, s->enc)),
        "newText", t);
}

/* A WorkspaceEdit of D with EDITS (an array of TextEdits, taken): documentChanges with
 * D's version when the client announced it supports them, else changes. */
static json_t *workspace_edit(const lsp_server *s, const struct lsp_doc *d, json_t *edits)
{
    if (s->doc_changes)
        return json_pack("{s:[{s:{s:s, s:I}, s:o}]}", "documentChanges", "textDocument", "uri",
                         d->uri, "version", (json_int_t)d->version, "edits", edits);
    json_t *changes = json_object();
    json_object_set_new(changes, d->uri, edits);
    return json_pack("{s:o}", "changes", changes);
}

/* The quick fix of offer O for the published diagnostic DJ. */
static json_t *quick_fix(const lsp_server *s, const struct lsp_doc *d, const struct fix_offer *o,
                         json_t *dj)
{
    json_t *edits = json_array();
    for (size_t i = 0; i < o->nedits; i++)
        json_array_append_new(edits,
                              text_edit(s, d, o->edits[i].start, o->edits[i].end, o->edits[i].text,
                                        strlen(o->edits[i].text)));
    return json_pack("{s:o, s:s, s:[O], s:b, s:o}", "title", jstr(o->title), "kind", "quickfix",
                     "diagnostics", dj, "isPreferred", 1, "edit", workspace_edit(s, d, edits));
}

/* What the items of COLLECTION are called in a title ("tool" for tools). */
static const char *item_noun(const char *collection)
{
    static const char *const nouns[][2] = {{"tools", "tool"},
                                           {"resources", "resource"},
                                           {"resourceTemplates", "resource template"},
                                           {"prompts", "prompt"}};
    for (size_t i = 0; i < sizeof nouns / sizeof *nouns; i++)
        if (!strcmp(collection, nouns[i][0])) return nouns[i][1];
    return "item";
}

/* "Suppress RULE for this tool (write the reason)": for the finding X of the judged
 * document J inside an item (suppress.h: /COLLECTION/N and below), the edit that adds
 * {"rule": RULE, "reason": ""} to the item's x-mcpdesc-ignore (a new one-entry list, or
 * the end of its list; not offered when it holds a single entry object). NULL when not
 * offered: no rule id, a finding about suppressions themselves, outside an item. The
 * reason is left empty on purpose: such an entry is mcpdesc.suppression.invalid until
 * the user writes it. */
static json_t *suppress_action(const lsp_server *s, const struct lsp_doc *d,
                               const struct rule_set *rs, const doc *j, const struct diag *x,
                               json_t *dj)
{
    static const char own[] = "mcpdesc.suppression.";
    if (!x->rule || !x->pointer || !strncmp(x->rule, own, sizeof own - 1)) return NULL;
    /* the item as suppressions name it (fingerprint.h): its pointer and its identity */
    struct fingerprint_items *fi = fingerprint_items_new(rs, j);
    size_t plen = 0;
    const char *identity = NULL;
    json_t *iv = fingerprint_item_value(fi, x->pointer, &plen, &identity);
    char *item = iv ? xstrndup(x->pointer, plen) : NULL;
    char *who = NULL;
    if (item) {
        const char *slash = strchr(item + 1, '/');
        char *col = xstrndup(item + 1, slash ? (size_t)(slash - item - 1) : strlen(item + 1));
        /* named, so that two actions for items sharing YAML text can be told apart */
        who = identity ? xasprintf("%s \"%s\"", item_noun(col), identity)
                       : xasprintf("this %s", item_noun(col));
        free(col);
    }
    fingerprint_items_free(fi);
    if (!item) return NULL;
    json_t *entry = json_pack("{s:s, s:s}", "rule", x->rule, "reason", "");
    json_t *list = json_pack("[O]", entry);
    char *at = xasprintf("%s/" SUPPRESS_MEMBER, item);
    struct fix_edit e;
    int ok =
        fix_insert_member(j, item, SUPPRESS_MEMBER, list, &e) || fix_append_item(j, at, entry, &e);
    free(at);
    free(item);
    json_decref(list);
    json_decref(entry);
    if (!ok) {
        free(who);
        return NULL;
    }
    json_t *edits = json_array();
    json_array_append_new(edits, text_edit(s, d, e.start, e.end, e.text, strlen(e.text)));
    free(e.text);
    char *title = xasprintf("Suppress %s for %s (write the reason)", x->rule, who);
    free(who);
    json_t *a = json_pack("{s:o, s:s, s:[O], s:o}", "title", jstr(title), "kind", "quickfix",
                          "diagnostics", dj, "edit", workspace_edit(s, d, edits));
    free(title);
    return a;
}

/* fix_text's filter: the host's levels and suppressions, as the server's judge. */
static void fix_filter(const struct rule_set *rs, const doc *d, const char *name,
                       struct diag_list *diags, void *arg)
{
    const struct rules_ref *rr = arg;
    (void)rs;
    rr->host.apply(rr->host.arg, &rr->r, name, d, diags);
}

/* "Apply every mcpdesc fix": what `mcpdesc fix` would write for D's text, as one edit of
 * the bytes that differ (the common prefix and suffix kept, cut at character and line
 * boundaries), or NULL when there is nothing to fix. */
static json_t *fix_all(const lsp_server *s, const struct lsp_doc *d)
{
    const struct rules_ref *rr = s->rules;
    struct judge_options jo = {rr->r.eo, NULL, 0, 0, 0};
    struct fix_opts fo = {&jo, rr->host.apply ? fix_filter : NULL, (void *)rr};
    const char *old = d->text.s ? d->text.s : "";
    size_t olen = d->text.len, nlen = 0;
    struct diag_list errs = DIAG_LIST_INIT;
    char *fixed = fix_text(rr->r.rs, &fo, lsp_doc_name(d), old, olen, &nlen, NULL, &errs);
    diag_list_release(&errs);
    if (!fixed) return NULL;
    size_t pre = 0, suf = 0;
    while (pre < olen && pre < nlen && old[pre] == fixed[pre]) pre++;
    /* not inside a UTF-8 sequence or between "\r" and "\n" (positions cannot say it) */
    while (pre > 0 &&
           ((pre < olen && ((unsigned char)old[pre] & 0xC0) == 0x80) ||
            (pre < nlen && ((unsigned char)fixed[pre] & 0xC0) == 0x80) || old[pre - 1] == '\r'))
        pre--;
    while (suf < olen - pre && suf < nlen - pre && old[olen - 1 - suf] == fixed[nlen - 1 - suf])
        suf++;
    while (suf > 0 &&
           (((unsigned char)old[olen - suf] & 0xC0) == 0x80 ||
            (old[olen - suf] == '\n' && olen - suf > pre && old[olen - suf - 1] == '\r')))
        suf--;
    json_t *edits = json_array();
    json_array_append_new(edits, text_edit(s, d, pre, olen - suf, fixed + pre, nlen - suf - pre));
    free(fixed);
    return json_pack("{s:s, s:s, s:o}", "title", "Apply every mcpdesc fix", "kind", FIX_ALL_KIND,
                     "edit", workspace_edit(s, d, edits));
}

/* Code actions: for each finding of the document's judgement that the request's range
 * touches (or context.diagnostics lists) and that has a declared fix, its quick fix; the
 * "suppress" quick fix for a finding inside an item; and "Apply every mcpdesc fix" when
 * any fix applies. context.only filters by kind. The document's text is judged again
 * (as the last judge did: a request waits while a re-judge is pending), since the
 * fixes' byte offsets need the judged document, which is not kept. */
/* Append the action A (taken) to ACTIONS, unless one there makes the same edit: two rules
 * that report one value with one fix (a `true` property schema before and from
 * 2025-11-25) give one quick fix listing both diagnostics, so that a client applying
 * "the preferred fix" finds exactly one. */
static void add_action(json_t *actions, json_t *a)
{
    size_t i;
    json_t *b;
    json_array_foreach(actions, i, b)
    {
        if (json_equal(json_object_get(a, "kind"), json_object_get(b, "kind")) &&
            json_equal(json_object_get(a, "edit"), json_object_get(b, "edit"))) {
            json_array_extend(json_object_get(b, "diagnostics"), json_object_get(a, "diagnostics"));
            json_decref(a);
            return;
        }
    }
    json_array_append_new(actions, a);
}

static json_t *code_action(lsp_server *s, json_t *params, int *err)
{
    json_t *range = json_object_get(params, "range");
    struct lsp_position a, b;
    if (!json_is_object(json_object_get(params, "textDocument")) ||
        position_from(json_object_get(range, "start"), &a) < 0 ||
        position_from(json_object_get(range, "end"), &b) < 0)
        return *err = 1, NULL;
    if (pos_le(b, a)) {
        struct lsp_position x = a;
        a = b;
        b = x;
    }
    json_t *context = json_object_get(params, "context");
    json_t *only = json_object_get(context, "only");
    json_t *listed = json_object_get(context, "diagnostics");
    json_t *actions = json_array();
    struct lsp_doc *d = doc_of(s, params);
    if (!d || d->kind != LSPF_DESCRIPTION || !s->rules) return actions;
    const struct rules_ref *rr = s->rules;
    const char *name = lsp_doc_name(d);
    /* a description the config ignores is not judged: nothing to fix or suppress */
    if (rr->host.ignored && rr->host.ignored(rr->host.arg, &rr->r, name)) return actions;
    int any_fix = 1; /* does any finding of the document have a fix? (1: not known) */
    if (kind_wanted(only, "quickfix")) {
        struct judge_result r;
        judge_text(rr, name, d->text.s, d->text.len, NULL, &r);
        struct pub_view v = {d->uri, &d->lines, s->enc, rr->r.rs, rr->r.docs_url};
        any_fix = 0;
        for (size_t i = 0; r.d && !r.error && i < r.diags.len; i++) {
            const struct diag *x = &r.diags.items[i];
            if (diag_hidden(x) || !about(name, x) || !x->rule) continue;
            struct fix_offer o;
            int has = fix_for_diag(rr->r.rs, r.d, x, &o);
            json_t *dj = diag_json(&v, r.d, x);
            if (asked_about(dj, a, b, listed)) {
                if (has) add_action(actions, quick_fix(s, d, &o, dj));
                json_t *sup = suppress_action(s, d, rr->r.rs, r.d, x, dj);
                if (sup) add_action(actions, sup);
            }
            json_decref(dj);
            if (has) fix_offer_release(&o);
            any_fix |= has;
        }
        judge_result_release(&r);
    }
    /* fixAll's first pass finds the fixes the loop above found: without one (and unless
     * the client asks for it by kind) the passes are not run */
    if (kind_wanted(only, FIX_ALL_KIND) && (any_fix || json_is_array(only))) {
        json_t *all = fix_all(s, d);
        if (all) json_array_append_new(actions, all);
    }
    return actions;
}

static enum lsp_enc negotiate(json_t *caps)
{
    json_t *encs = json_object_get(json_object_get(caps, "general"), "positionEncodings");
    size_t i;
    json_t *e;
    json_array_foreach(encs, i, e)
    {
        const char *n = json_string_value(e);
        if (!n) continue;
        if (!strcmp(n, "utf-8")) return LSP_ENC_UTF8;
        if (!strcmp(n, "utf-16")) return LSP_ENC_UTF16;
        if (!strcmp(n, "utf-32")) return LSP_ENC_UTF32;
    }
    return LSP_ENC_UTF16;
}

static json_t *initialize(lsp_server *s, json_t *params, json_t *out)
{
    json_t *caps = json_object_get(params, "capabilities");
    s->enc = negotiate(caps);
    json_t *dyn = json_object_get(
        json_object_get(json_object_get(caps, "workspace"), "didChangeWatchedFiles"),
        "dynamicRegistration");
    s->watch_dynamic = json_is_true(dyn);
    s->doc_changes = json_is_true(json_object_get(
        json_object_get(json_object_get(caps, "workspace"), "workspaceEdit"), "documentChanges"));
    json_t *opts = json_object_get(params, "initializationOptions");
    json_t *db = json_object_get(opts, "debounceMs");
    if (json_is_integer(db) && json_integer_value(db) >= 0 && json_integer_value(db) <= 60000)
        s->debounce = (double)json_integer_value(db) / 1000.0;
    const char *root = json_string_value(json_object_get(params, "rootUri"));
    json_t *folders = json_object_get(params, "workspaceFolders");
    if (json_array_size(folders))
        root = json_string_value(json_object_get(json_array_get(folders, 0), "uri"));
    free(s->root);
    s->root = root ? lsp_store_path_of_uri(root) : NULL;
    if (!s->root) {
        const char *rp = json_string_value(json_object_get(params, "rootPath"));
        s->root = rp ? xstrdup(rp) : NULL;
    }
    load_rules(s, out);
    s->state = ST_RUNNING;
    return json_pack("{s:{s:s, s:{s:b, s:i, s:{s:b}}, s:b, s:b, s:{s:[s,s,s]}, s:{s:[s,s]}}, "
                     "s:{s:s, s:s}}",
                     "capabilities", "positionEncoding", lsp_enc_name(s->enc), "textDocumentSync",
                     "openClose", 1, "change", 2, "save", "includeText", 0, "hoverProvider", 1,
                     "definitionProvider", 1, "completionProvider", "triggerCharacters", ":", "-",
                     "$", "codeActionProvider", "codeActionKinds", "quickfix", FIX_ALL_KIND,
                     "serverInfo", "name", "mcpdesc", "version", MCPDESC_VERSION);
}

/* Run the request MSG (METHOD, ID) and append its answer. */
static void answer(lsp_server *s, json_t *msg, const char *method, json_t *id, json_t *out)
{
    json_t *params = json_object_get(msg, "params");
    int bad = 0;
    json_t *r;
    if (!strcmp(method, "textDocument/hover")) r = hover(s, params, &bad);
    else if (!strcmp(method, "textDocument/definition")) r = definition(s, params, &bad);
    else if (!strcmp(method, "textDocument/completion")) r = completion(s, params, &bad);
    else if (!strcmp(method, "textDocument/codeAction")) r = code_action(s, params, &bad);
    else {
        send(out, error_response(id, ERR_METHOD_NOT_FOUND, "method not found"));
        return;
    }
    if (bad) send(out, error_response(id, ERR_INVALID_PARAMS, "invalid params"));
    else send(out, response(id, r));
}

/* ---- document sync ---- */

static void schedule(lsp_server *s, struct lsp_doc *d, double now)
{
    d->dirty = 1;
    d->due = now + s->debounce;
}

/* Is PATH one whose change reloads the rule set (a rule file, manifest or config)? */
static int reloads(const char *path)
{
    if (!path) return 0;
    struct lspf_text t = {path, "", 0};
    enum lspf_kind k = lspf_classify(&t);
    return k == LSPF_RULES || k == LSPF_MANIFEST || k == LSPF_CONFIG;
}

/* Reload the rule set; after a good load every open document is judged again. */
static void reload(lsp_server *s, double now, json_t *out)
{
    if (load_rules(s, out) < 0) return;
    for (size_t i = 0; i < s->docs.len; i++) {
        s->docs.items[i]->dirty = 1;
        s->docs.items[i]->due = now;
    }
}

/* Bytes of text held for the open documents, less EXCEPT's (NULL: none). */
static size_t held(const lsp_server *s, const struct lsp_doc *except)
{
    size_t n = 0;
    for (size_t i = 0; i < s->docs.len; i++)
        if (s->docs.items[i] != except) n += s->docs.items[i]->text.len;
    return n;
}

static void did_close_doc(lsp_server *s, struct lsp_doc *d, json_t *out);

static void did_open(lsp_server *s, json_t *params, double now, json_t *out)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    const char *text = json_string_value(json_object_get(td, "text"));
    json_t *v = json_object_get(td, "version");
    if (!uri || !text || !json_is_integer(v)) return;
    size_t len = json_string_length(json_object_get(td, "text"));
    if (len > LSP_MAX_TEXT || held(s, lsp_store_find(&s->docs, uri)) + len > LSP_MAX_HELD) {
        show_message(out, 2, "mcpdesc: the document is too large to be judged in the editor");
        return;
    }
    struct lsp_doc *d = lsp_store_open(&s->docs, uri, text, len, json_integer_value(v));
    if (!d) {
        show_message(out, 2, "mcpdesc: too many open documents; this one is not judged");
        return;
    }
    struct lspf_text t = {d->path, d->text.s ? d->text.s : "", d->text.len};
    d->kind = lspf_classify(&t);
    schedule(s, d, now);
    d->due = now; /* a document just opened is judged at once */
}

static void did_change(lsp_server *s, json_t *params, double now, json_t *out)
{
    struct lsp_doc *d = doc_of(s, params);
    json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes)) return;
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c)
    {
        json_t *text = json_object_get(c, "text");
        if (!json_is_string(text)) continue;
        json_t *range = json_object_get(c, "range");
        size_t a = 0, b = d->text.len;
        if (range) {
            struct lsp_position p, q;
            if (position_from(json_object_get(range, "start"), &p) < 0 ||
                position_from(json_object_get(range, "end"), &q) < 0)
                continue;
            a = lsp_offset_of(&d->lines, p, s->enc);
            b = lsp_offset_of(&d->lines, q, s->enc);
            if (b < a) {
                size_t x = a;
                a = b;
                b = x;
            }
        }
        size_t n = json_string_length(text);
        size_t after = d->text.len - (b - a) + n;
        if (after > LSP_MAX_TEXT || held(s, d) + after > LSP_MAX_HELD) {
            /* the server's copy would no longer follow the editor's: let it go */
            show_message(out, 2, "mcpdesc: the document grew too large to be judged in the editor");
            did_close_doc(s, d, out);
            return;
        }
        lsp_store_edit(d, a, b, json_string_value(text), n);
    }
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v)) d->version = json_integer_value(v);
    if (d->kind == LSPF_OTHER || d->kind == LSPF_DESCRIPTION) {
        /* content decides: a buffer may become a description (or stop being one) */
        struct lspf_text t = {d->path, d->text.s ? d->text.s : "", d->text.len};
        d->kind = lspf_classify_edited(&t, d->kind);
    }
    schedule(s, d, now);
}

static void did_save(lsp_server *s, json_t *params, double now, json_t *out)
{
    struct lsp_doc *d = doc_of(s, params);
    if (d && reloads(d->path)) reload(s, now, out);
}

static void did_close_doc(lsp_server *s, struct lsp_doc *d, json_t *out)
{
    if (d->published) publish(out, d->uri, NULL, json_array());
    /* requests that waited for it are answered with nothing */
    for (size_t i = 0; i < s->deferred.len;) {
        if (!strcmp(s->deferred.items[i].uri, d->uri)) {
            send(out, response(json_object_get(s->deferred.items[i].req, "id"), json_null()));
            json_decref(s->deferred.items[i].req);
            free(s->deferred.items[i].uri);
            s->deferred.items[i] = s->deferred.items[--s->deferred.len];
        } else {
            i++;
        }
    }
    lsp_store_close(&s->docs, d);
}

static void did_close(lsp_server *s, json_t *params, json_t *out)
{
    struct lsp_doc *d = doc_of(s, params);
    if (d) did_close_doc(s, d, out);
}

static void did_change_watched(lsp_server *s, json_t *params, double now, json_t *out)
{
    json_t *changes = json_object_get(params, "changes");
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c)
    {
        const char *uri = json_string_value(json_object_get(c, "uri"));
        char *path = uri ? lsp_store_path_of_uri(uri) : NULL;
        int r = reloads(path);
        free(path);
        if (r) {
            reload(s, now, out);
            return;
        }
    }
}

static void cancel(lsp_server *s, json_t *params, json_t *out)
{
    json_t *id = json_object_get(params, "id");
    if (!id) return;
    for (size_t i = 0; i < s->deferred.len; i++) {
        if (json_equal(json_object_get(s->deferred.items[i].req, "id"), id)) {
            send(out, error_response(id, ERR_REQUEST_CANCELLED, "request cancelled"));
            json_decref(s->deferred.items[i].req);
            free(s->deferred.items[i].uri);
            s->deferred.items[i] = s->deferred.items[--s->deferred.len];
            return;
        }
    }
}

static void register_watchers(lsp_server *s, json_t *out)
{
    if (!s->watch_dynamic) return;
    send(out,
         json_pack("{s:s, s:s, s:s, s:{s:[{s:s, s:s, s:{s:[{s:s}, {s:s}]}}]}}", "jsonrpc", "2.0",
                   "id", "mcpdesc-watch-1", "method", "client/registerCapability", "params",
                   "registrations", "id", "mcpdesc-watch-1", "method",
                   "workspace/didChangeWatchedFiles", "registerOptions", "watchers", "globPattern",
                   "**/*.yaml", "globPattern", "**/*.yml"));
}

/* ---- dispatch ---- */

static int is_doc_request(const char *m)
{
    return !strcmp(m, "textDocument/hover") || !strcmp(m, "textDocument/definition") ||
        !strcmp(m, "textDocument/completion") || !strcmp(m, "textDocument/codeAction");
}

static void request(lsp_server *s, json_t *msg, const char *method, json_t *id, json_t *out)
{
    if (s->state == ST_NEW && strcmp(method, "initialize")) {
        send(out, error_response(id, ERR_NOT_INITIALIZED, "server not initialized"));
        return;
    }
    if (s->state == ST_SHUTDOWN) {
        send(out, error_response(id, ERR_INVALID_REQUEST, "the server is shut down"));
        return;
    }
    if (!strcmp(method, "initialize")) {
        if (s->state != ST_NEW) {
            send(out, error_response(id, ERR_INVALID_REQUEST, "initialize was sent twice"));
            return;
        }
        json_t *params = json_object_get(msg, "params");
        if (!json_is_object(params)) {
            send(out, error_response(id, ERR_INVALID_PARAMS, "initialize takes an object"));
            return;
        }
        json_t *r = initialize(s, params, out);
        /* the answer goes before any message the load sent */
        json_array_insert_new(out, 0, response(id, r));
        return;
    }
    if (!strcmp(method, "shutdown")) {
        s->state = ST_SHUTDOWN;
        send(out, response(id, json_null()));
        return;
    }
    if (is_doc_request(method)) {
        /* a request about a document with a re-judge pending waits for it, so it is
         * answered for the newest text */
        struct lsp_doc *d = doc_of(s, json_object_get(msg, "params"));
        if (d && d->dirty && s->deferred.len < LSP_MAX_DEFERRED) {
            struct deferred w = {json_incref(msg), xstrdup(d->uri)};
            VEC_PUSH(s->deferred, w);
            return;
        }
    }
    answer(s, msg, method, id, out);
}

static void notify(lsp_server *s, json_t *msg, const char *method, double now, json_t *out)
{
    json_t *params = json_object_get(msg, "params");
    if (!strcmp(method, "exit")) {
        s->exit_status = s->state == ST_SHUTDOWN ? 0 : 1;
        s->state = ST_EXITED;
        return;
    }
    if (s->state != ST_RUNNING) return; /* before initialize or after shutdown: dropped */
    if (!strcmp(method, "initialized")) register_watchers(s, out);
    else if (!strcmp(method, "textDocument/didOpen")) did_open(s, params, now, out);
    else if (!strcmp(method, "textDocument/didChange")) did_change(s, params, now, out);
    else if (!strcmp(method, "textDocument/didSave")) did_save(s, params, now, out);
    else if (!strcmp(method, "textDocument/didClose")) did_close(s, params, out);
    else if (!strcmp(method, "workspace/didChangeWatchedFiles"))
        did_change_watched(s, params, now, out);
    else if (!strcmp(method, "$/cancelRequest")) cancel(s, params, out);
    /* any other notification ($/setTrace, workspace/didChangeConfiguration...) is ignored */
}

void lsp_handle(lsp_server *s, const char *body, size_t len, double now, json_t *out)
{
    if (s->state == ST_EXITED) return;
    json_error_t e;
    json_t *msg = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
    if (!msg) {
        send(out, error_response(NULL, ERR_PARSE, e.text));
        return;
    }
    json_t *id = json_object_get(msg, "id");
    json_t *m = json_object_get(msg, "method");
    int id_ok = json_is_integer(id) || json_is_string(id);
    if (!json_is_object(msg) || (id && !id_ok) ||
        !json_is_string(json_object_get(msg, "jsonrpc")) ||
        strcmp(json_string_value(json_object_get(msg, "jsonrpc")), "2.0")) {
        send(out, error_response(id_ok ? id : NULL, ERR_INVALID_REQUEST, "invalid request"));
    } else if (!m) {
        /* a response to a request of ours (client/registerCapability): nothing to do */
        if (!id || (!json_object_get(msg, "result") && !json_object_get(msg, "error")))
            send(out, error_response(id, ERR_INVALID_REQUEST, "invalid request"));
    } else if (!json_is_string(m)) {
        if (id) send(out, error_response(id, ERR_INVALID_REQUEST, "method is not a string"));
    } else if (id) {
        request(s, msg, json_string_value(m), id, out);
    } else {
        notify(s, msg, json_string_value(m), now, out);
    }
    json_decref(msg);
    if (s->debounce <= 0 && !s->async) lsp_tick(s, now, out);
}

void lsp_server_set_async(lsp_server *s, int on)
{
    s->async = on;
}

void lsp_handle_frame_error(lsp_server *s, const char *why, json_t *out)
{
    if (s->state == ST_EXITED) return;
    send(out, error_response(NULL, ERR_PARSE, why));
}

/* Answer the requests that waited for the re-judge of URI, in arrival order. */
static void answer_deferred(lsp_server *s, const char *uri, json_t *out)
{
    for (size_t k = 0; k < s->deferred.len;) {
        struct deferred *w = &s->deferred.items[k];
        if (strcmp(w->uri, uri)) {
            k++;
            continue;
        }
        struct deferred x = *w;
        memmove(w, w + 1, (s->deferred.len - k - 1) * sizeof *w);
        s->deferred.len--;
        answer(s, x.req, json_string_value(json_object_get(x.req, "method")),
               json_object_get(x.req, "id"), out);
        json_decref(x.req);
        free(x.uri);
    }
}

lsp_job *lsp_job_take(lsp_server *s, double now)
{
    if (s->state != ST_RUNNING) return NULL;
    struct lsp_doc *best = NULL;
    for (size_t i = 0; i < s->docs.len; i++) {
        struct lsp_doc *d = s->docs.items[i];
        if (d->dirty && !d->judging && d->due <= now && (!best || d->due < best->due)) best = d;
    }
    return best ? job_new(s, best) : NULL;
}

void lsp_job_run(lsp_job *j)
{
    job_run(j);
}

void *lsp_job_leftovers(lsp_job *j)
{
    doc *d = j->judged;
    j->judged = NULL;
    return d;
}

void lsp_leftovers_free(void *left)
{
    doc_free(left);
}

void lsp_job_finish(lsp_server *s, lsp_job *j, json_t *out)
{
    job_finish(s, j, out);
    lsp_job_free(j);
}

void lsp_tick(lsp_server *s, double now, json_t *out)
{
    lsp_job *j;
    while ((j = lsp_job_take(s, now))) {
        lsp_job_run(j);
        lsp_job_finish(s, j, out);
    }
}

double lsp_next_due(const lsp_server *s)
{
    double due = -1;
    if (s->state != ST_RUNNING) return due;
    for (size_t i = 0; i < s->docs.len; i++) {
        const struct lsp_doc *d = s->docs.items[i];
        if (d->dirty && !d->judging && (due < 0 || d->due < due)) due = d->due;
    }
    return due;
}

int lsp_exit_status(const lsp_server *s)
{
    return s->state == ST_EXITED ? s->exit_status : -1;
}

lsp_server *lsp_server_new(const struct lsp_host *host, long debounce_ms)
{
    lsp_server *s = xcalloc(1, sizeof *s);
    s->host = *host;
    s->debounce = debounce_ms < 0 ? LSP_DEFAULT_DEBOUNCE_MS / 1000.0 : (double)debounce_ms / 1000.0;
    s->exit_status = 1;
    lsp_store_init(&s->docs, LSP_MAX_DOCS);
    return s;
}

void lsp_server_free(lsp_server *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->deferred.len; i++) {
        json_decref(s->deferred.items[i].req);
        free(s->deferred.items[i].uri);
    }
    VEC_FREE(s->deferred);
    lsp_store_release(&s->docs);
    rules_unref(s->rules);
    free(s->load_error);
    free(s->root);
    free(s);
}
