/* baseline.c - read, match and write baselines (baseline.h). */
#include "findings/baseline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "findings/fingerprint.h"

static void entry_release(struct baseline_entry *e)
{
    free(e->fingerprint);
    free(e->rule);
    free(e->file);
    free(e->item);
    free(e->pointer);
    free(e->level);
    free(e->message);
    for (size_t i = 0; e->versions && e->versions[i]; i++) free(e->versions[i]);
    free(e->versions);
}

void baseline_free(struct baseline *b)
{
    if (!b) return;
    for (size_t i = 0; i < b->n; i++) entry_release(&b->entries[i]);
    free(b->entries);
    free(b->by_fp);
    free(b->path);
    free(b->anchor);
    free(b->cwd);
    free(b);
}

/* Fill *ERR with MSG at the value POINTER of D (its key when it is a member). */
static void fail_at(const doc *d, const char *pointer, struct doc_error *err, const char *msg)
{
    struct doc_pos pos = {0, 0}, key = {0, 0};
    if (doc_pointer_pos(d, pointer, &pos, &key) < 0) pos = (struct doc_pos){1, 1};
    err->message = xstrdup(msg);
    err->line = pos.line;
    err->col = pos.col;
}

static const char *const string_members[] = {"fingerprint", "rule",  "file",   "item",
                                             "pointer",     "level", "message"};

/* Read entry I (the object E) into *OUT; 0, or -1 with *ERR filled. */
static int read_entry(const doc *d, size_t i, json_t *e, struct baseline_entry *out,
                      struct doc_error *err)
{
    char *at = xasprintf("/findings/%zu", i), *msg = NULL;
    int rc = -1;
    if (!json_is_object(e)) {
        msg = xasprintf("findings[%zu] must be an object", i);
        fail_at(d, at, err, msg);
        goto done;
    }
    char **fields[] = {&out->fingerprint, &out->rule,  &out->file,   &out->item,
                       &out->pointer,     &out->level, &out->message};
    for (size_t k = 0; k < sizeof string_members / sizeof *string_members; k++) {
        json_t *v = json_object_get(e, string_members[k]);
        if (!json_is_string(v)) {
            msg = xasprintf("findings[%zu] needs a string \"%s\"%s", i, string_members[k],
                            v ? "" : " (the member is missing)");
            char *p = v ? xasprintf("%s/%s", at, string_members[k]) : xstrdup(at);
            fail_at(d, p, err, msg);
            free(p);
            goto done;
        }
        *fields[k] = xstrdup(json_string_value(v));
    }
    const char *fp = out->fingerprint;
    size_t fl = strlen(fp);
    if (fl != 67 || strncmp(fp, "v1:", 3) || strspn(fp + 3, "0123456789abcdef") != 64) {
        msg = xasprintf("findings[%zu]: \"%s\" is not a fingerprint (v1: and 64 lowercase hex "
                        "digits)",
                        i, fp);
        char *p = xasprintf("%s/fingerprint", at);
        fail_at(d, p, err, msg);
        free(p);
        goto done;
    }
    json_t *vs = json_object_get(e, "versions");
    int ok = json_is_array(vs);
    for (size_t k = 0; ok && k < json_array_size(vs); k++)
        ok = json_is_string(json_array_get(vs, k));
    if (!ok) {
        msg = xasprintf("findings[%zu] needs \"versions\", an array of version names", i);
        char *p = vs ? xasprintf("%s/versions", at) : xstrdup(at);
        fail_at(d, p, err, msg);
        free(p);
        goto done;
    }
    out->versions = xcalloc(json_array_size(vs) + 1, sizeof *out->versions);
    for (size_t k = 0; k < json_array_size(vs); k++)
        out->versions[k] = xstrdup(json_string_value(json_array_get(vs, k)));
    rc = 0;
done:
    free(msg);
    free(at);
    return rc;
}

/* An entry's fingerprint and index, sorted by both: the order is total, so qsort needs no
 * context (qsort_r is a GNU extension that WebAssembly's libc lacks, docs/wasm.md). */
struct fp_at {
    const char *fp;
    size_t i;
};

static int fp_at_cmp(const void *a, const void *b)
{
    const struct fp_at *x = a, *y = b;
    int c = strcmp(x->fp, y->fp);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

struct baseline *baseline_load(const char *path, const char *cwd, struct doc_error *err)
{
    *err = (struct doc_error){NULL, 0, 0};
    doc *d = doc_load_file(path, NULL, err);
    if (!d) return NULL;
    json_t *root = doc_root(d);
    struct baseline *b = xcalloc(1, sizeof *b);
    b->path = xstrdup(path);
    b->cwd = cwd ? xstrdup(cwd) : NULL;
    b->anchor = fingerprint_anchor(cwd, path);
    json_t *format = json_is_object(root) ? json_object_get(root, "mcpdescBaseline") : NULL;
    json_t *findings = json_is_object(root) ? json_object_get(root, "findings") : NULL;
    if (!json_is_object(root)) {
        fail_at(d, "", err, "a baseline is a JSON object written by `mcpdesc baseline write`");
    } else if (!json_is_integer(format) || json_integer_value(format) != BASELINE_FORMAT) {
        char *m = xasprintf("not a baseline of format %d: \"mcpdescBaseline\": %d is expected "
                            "(written by `mcpdesc baseline write`)",
                            BASELINE_FORMAT, BASELINE_FORMAT);
        fail_at(d, format ? "/mcpdescBaseline" : "", err, m);
        free(m);
    } else if (!json_is_array(findings)) {
        fail_at(d, findings ? "/findings" : "", err,
                "a baseline needs \"findings\", an array of findings");
    } else {
        b->n = json_array_size(findings);
        b->entries = xcalloc(b->n ? b->n : 1, sizeof *b->entries);
        for (size_t i = 0; i < b->n && !err->message; i++)
            read_entry(d, i, json_array_get(findings, i), &b->entries[i], err);
    }
    doc_free(d);
    if (err->message) {
        baseline_free(b);
        return NULL;
    }
    b->by_fp = xcalloc(b->n ? b->n : 1, sizeof *b->by_fp);
    struct fp_at *order = xcalloc(b->n ? b->n : 1, sizeof *order);
    for (size_t i = 0; i < b->n; i++) order[i] = (struct fp_at){b->entries[i].fingerprint, i};
    if (b->n) qsort(order, b->n, sizeof *order, fp_at_cmp);
    for (size_t i = 0; i < b->n; i++) b->by_fp[i] = order[i].i;
    free(order);
    return b;
}

/* The first position in by_fp whose fingerprint is not below FP. */
static size_t lower_bound(const struct baseline *b, const char *fp)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(b->entries[b->by_fp[mid]].fingerprint, fp) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void baseline_apply(struct baseline *b, const char *file, struct diag_list *l)
{
    char *norm = fingerprint_file_from(b->cwd, b->anchor, file);
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->entries[i].file, norm)) b->entries[i].judged = 1;
    free(norm);
    for (size_t k = 0; k < l->len; k++) {
        struct diag *g = &l->items[k];
        g->baseline = DIAG_BASELINE_NEW;
        for (size_t j = g->fingerprint ? lower_bound(b, g->fingerprint) : b->n;
             j < b->n && !strcmp(b->entries[b->by_fp[j]].fingerprint, g->fingerprint); j++) {
            struct baseline_entry *e = &b->entries[b->by_fp[j]];
            if (e->used) continue;
            e->used = 1;
            g->baseline = DIAG_BASELINE_UNCHANGED;
            break;
        }
        /* a suppressed finding uses its entry too (it is not gone) and has its state, as
         * SARIF wants a baselineState on every result of a run that has one (3.27.24);
         * nnew and nunchanged count every finding of that state, suppressed or not
         * (the report's summary counts the suppressed apart: the suppression wins there) */
        if (g->baseline == DIAG_BASELINE_UNCHANGED) b->nunchanged++;
        else b->nnew++;
    }
}

char *baseline_entry_path(const struct baseline *b, const struct baseline_entry *e)
{
    char *abs = b->anchor && e->file[0] != '/' && e->file[0] != '<'
        ? xasprintf("%s/%s", b->anchor, e->file)
        : xstrdup(e->file);
    char *shown = b->cwd ? fingerprint_file_from(b->cwd, b->cwd, abs) : xstrdup(abs);
    free(abs);
    return shown;
}

int baseline_entry_absent(const struct baseline_entry *e)
{
    return e->judged && !e->used;
}

size_t baseline_absent(const struct baseline *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++) n += baseline_entry_absent(&b->entries[i]);
    return n;
}

/* ---- writing ---- */

static int member_cmp(json_t *x, json_t *y, const char *key)
{
    const char *a = json_string_value(json_object_get(x, key));
    const char *b = json_string_value(json_object_get(y, key));
    return strcmp(a ? a : "", b ? b : "");
}

static int entry_cmp(const void *pa, const void *pb)
{
    json_t *x = *(json_t *const *)pa, *y = *(json_t *const *)pb;
    static const char *const order[] = {"file", "item",        "pointer",
                                        "rule", "fingerprint", "message"};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        int c = member_cmp(x, y, order[i]);
        if (c) return c;
    }
    return 0;
}

long baseline_write(const char *path, const char *anchor, const char *cwd,
                    const struct rule_set *rs, const struct report_file *files, size_t n)
{
    VEC(json_t *) entries = VEC_INIT;
    const struct ver_list *vl = rule_set_versions(rs);
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (!f->d || f->error || f->skipped) continue;
        struct fingerprint_items *fi = fingerprint_items_new(rs, f->d);
        char *file = fingerprint_file_from(cwd, anchor, f->name);
        for (size_t k = 0; k < f->diags.len; k++) {
            const struct diag *g = &f->diags.items[k];
            if (g->suppressed) continue;
            const char *inner;
            const char *item = fingerprint_item(fi, g->pointer, &inner);
            char *fp = g->fingerprint ? xstrdup(g->fingerprint) : fingerprint_diag(fi, file, g);
            json_t *vs = json_array();
            for (size_t v = 0; v < vl->n; v++)
                if (g->versions & ((ver_mask)1 << v))
                    json_array_append_new(vs, json_string(vl->names[v]));
            json_t *e = json_pack(
                "{s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:s}", "fingerprint", fp, "rule",
                g->rule ? g->rule : "", "file", file, "item", item, "pointer", inner, "versions",
                vs, "level", diag_level_name(g->level), "message", g->message ? g->message : "");
            free(fp);
            VEC_PUSH(entries, e);
        }
        free(file);
        fingerprint_items_free(fi);
    }
    if (entries.len) qsort(entries.items, entries.len, sizeof *entries.items, entry_cmp);
    json_t *arr = json_array();
    for (size_t i = 0; i < entries.len; i++) json_array_append_new(arr, entries.items[i]);
    long count = (long)entries.len;
    VEC_FREE(entries);
    /* a baseline is committed and read on other machines: no folder of this one */
    json_t *rules = report_rule_set_json(rs);
    json_object_del(rules, "dir");
    json_object_del(rules, "shipped");
    json_t *root = json_pack("{s:i, s:s, s:o, s:o}", "mcpdescBaseline", BASELINE_FORMAT, "mcpdesc",
                             MCPDESC_VERSION, "rules", rules, "findings", arr);

    int is_stdout = !strcmp(path, "-");
    /* a symbolic link's target is written, the link kept (as the reports and fix do) */
    char *target = is_stdout ? NULL : util_link_target(path);
    /* /dev/null and the like are written, never replaced by a renamed file */
    int in_place = !is_stdout && util_write_in_place(target);
    char *tmp = is_stdout || in_place ? NULL : xasprintf("%s.tmp.%ld", target, (long)getpid());
    FILE *out = is_stdout ? stdout : fopen(in_place ? target : tmp, "w");
    int ok = out != NULL;
    if (ok) {
        ok = json_dumpf(root, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF;
        if (is_stdout) {
            ok = fflush(out) == 0 && ok;
        } else {
            int failed = ferror(out);
            ok = fclose(out) == 0 && ok && !failed && (in_place || rename(tmp, target) == 0);
        }
    }
    int saved = errno;
    if (!ok && tmp) unlink(tmp);
    free(tmp);
    free(target);
    json_decref(root);
    errno = saved;
    return ok ? count : -1;
}
