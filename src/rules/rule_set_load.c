/* rule_set_load.c - load a rule set from a directory: manifest.yaml (its members,
 * `document`, `files`), the base set it `extends` (by directory or NAME@TAG, through
 * release.h), every rule file (parsed once, its named predicates gathered, then each
 * rule compiled by rule_compile.c), the checks across files (yields-to), and the digest
 * over the files with what the tag's lock records (lock.h). */
#include "rules/rule.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/uri.h"
#include "base/util.h"
#include "rules/lock.h"
#include "rules/rule_cache.h"
#include "rules/release.h"
#include "rules/rule_data.h"
#include "rules/ruleInt.h"
#include "schema/schema.h"

/* How deep `extends` may go: a set, its base, the base's base ... */
enum { MAX_EXTENDS = 8 };

/* The sets being loaded, outermost first, to refuse an `extends` cycle. */
struct load_chain {
    const struct load_chain *up;
    const char *real; /* realpath of the set's directory */
    const char *dir;  /* as named */
    size_t depth;
};

static doc *overlay_load(const struct rule_overlay *ov, const char *path, struct doc_error *err,
                         char text_sha256[65]);

/* Load DIR/NAME as YAML; on failure append its positioned error and return NULL.
 * *PATH receives the new path string (free it). A file whose identity is the one
 * recorded (rs->load_sums) is taken to hold the recorded bytes, as a fixture is: its cached
 * document is found by their sha256 without hashing it again (a start's 300 KB). */
static doc *load_rule_yaml(struct rule_set *rs, const char *name, char **path,
                           struct diag_list *errs)
{
    *path = xasprintf("%s/%s", rs->dir, name);
    struct doc_error derr;
    struct file_digest fd = {NULL, "", RULE_FILE_RULES};
    char known[65];
    doc *d;
    if (!rs->load_sums || rule_overlay_is(rs->overlay, *path)) {
        d = overlay_load(rs->overlay, *path, &derr, fd.hex);
    } else if (rule_sums_known(rs->load_sums, *path, known)) {
        d = doc_load_file_known(*path, &derr, known, fd.hex);
    } else {
        d = overlay_load(rs->overlay, *path, &derr, fd.hex);
        rule_sums_read(rs->load_sums, *path, fd.hex);
    }
    if (d && fd.hex[0]) {
        fd.path = xstrdup(name);
        VEC_PUSH(rs->parsed, fd);
    }
    if (!d) {
        rule_cc_set_error(errs, *path, derr.line, derr.col, "%s", derr.message);
        int yaml = !strncmp(derr.message, "invalid YAML", 12);
        int first = !rs->unread && strcmp(name, "manifest.yaml");
        if (first) rs->unread = xstrdup(name);
        struct diag *dg = &errs->items[errs->len - 1];
        char *hint = xasprintf(
            "%s%s%s%s",
            yaml ? "check the YAML syntax near here: an unclosed { or [, a missing ':' or quote, "
                   "or an indentation that does not line up"
                 : dg->hint,
            /* the skipped checks are said once, here, where the set has other files */
            first && rs->files.len > 1 ? "; the checks across files that may need its rules "
                                         "(yields-to, use: of a named predicate) were left out "
                                         "until "
                                       : "",
            first && rs->files.len > 1 ? name : "", first && rs->files.len > 1 ? " reads" : "");
        free(dg->hint);
        dg->hint = hint;
        doc_error_release(&derr);
    }
    return d;
}

/* Compile the set's own rule files: first every file's `predicates:` (one namespace for
 * the set's files: a `use` in one file finds a predicate defined in another; a name
 * defined twice with different bodies is refused, a repeat of the same body is the same
 * predicate), then every file's rules, in manifest order. */
static void compile_files(struct rule_set *rs, struct diag_list *errs)
{
    size_t n = rs->files.len;
    doc **docs = xcalloc(n ? n : 1, sizeof *docs);
    int *nodes = xcalloc(n ? n : 1, sizeof *nodes);
    struct named_preds named = {VEC_INIT};
    for (size_t f = 0; f < n; f++) {
        char *path;
        doc *d = load_rule_yaml(rs, rs->files.items[f], &path, errs);
        free(path);
        if (!d) continue;
        struct cc cc = {d, rs, errs, &named, 0};
        struct yv top = {doc_root(d), 0};
        if (!json_is_object(top.v)) {
            rule_cc_error(
                &cc, 0, 0,
                "a rule file is a mapping with \"rules:\" (and optionally \"predicates:\")");
            doc_free(d);
            continue;
        }
        docs[f] = d;
        rule_cc_unknown_members(&cc, top, &rule_cc_lang_file, "a rule file");
        struct yv preds = rule_yv_member(&cc, top, "predicates");
        if (preds.v && !json_is_object(preds.v)) {
            rule_cc_error(&cc, preds.n, 0, "\"predicates\" must be a mapping of name to predicate");
            continue;
        }
        size_t i = 0;
        for (void *it = preds.v ? json_object_iter(preds.v) : NULL; it;
             it = json_object_iter_next(preds.v, it), i++) {
            const char *name = json_object_iter_key(it);
            doc_node at = doc_node_item(d, preds.n, i);
            const struct named_pred *first = NULL;
            for (size_t k = 0; k < named.v.len && !first; k++)
                if (!strcmp(named.v.items[k].name, name)) first = &named.v.items[k];
            if (first && json_equal(first->y.v, json_object_iter_value(it)))
                continue; /* the same definition again (released sets repeat some): one name */
            if (first) {
                struct doc_pos fp = doc_node_key_pos(first->d, first->y.n);
                char *there = loc_format(doc_name(first->d), fp.line, fp.col);
                rule_cc_error_hint(
                    &cc, at, 1,
                    "a named predicate is defined once per set: rename one, or keep one definition",
                    "predicate \"%s\" is defined twice in the set, differently: here and at %s",
                    name, there);
                free(there);
                continue;
            }
            struct named_pred np = {xstrdup(name), {json_object_iter_value(it), at}, d, NULL, 0, 0};
            VEC_PUSH(named.v, np);
        }
    }
    /* compile unused ones too: report their errors, each in its own file */
    for (size_t f = 0; f < n; f++) {
        if (!docs[f]) continue;
        struct cc cc = {docs[f], rs, errs, &named, 0};
        for (size_t k = 0; k < named.v.len; k++) {
            if (named.v.items[k].d != docs[f]) continue;
            struct yv name = {json_string(named.v.items[k].name), named.v.items[k].y.n};
            rule_cc_named(&cc, name);
            json_decref(name.v);
        }
        nodes[f] = cc.nodes;
    }
    for (size_t f = 0; f < n; f++) {
        if (!docs[f]) continue;
        struct cc cc = {docs[f], rs, errs, &named, nodes[f]};
        struct yv top = {doc_root(docs[f]), 0};
        struct yv rules = rule_yv_member(&cc, top, "rules");
        if (!rules.v || !json_is_array(rules.v))
            rule_cc_error(&cc, rules.v ? rules.n : 0, 0,
                          "a rule file needs \"rules:\", a list of rules");
        else
            for (size_t i = 0; i < json_array_size(rules.v); i++)
                rule_compile_rule(&cc, rule_yv_item(&cc, rules, i), rs->files.items[f]);
    }
    for (size_t k = 0; k < named.v.len; k++) free(named.v.items[k].name);
    VEC_FREE(named.v);
    for (size_t f = 0; f < n; f++) {
        if (rs->keep_docs) VEC_PUSH(rs->file_docs, docs[f]); /* lint walks them, positioned */
        else doc_free(docs[f]);
    }
    free(docs);
    free(nodes);
}

/* ---- manifest -------------------------------------------------------------------- */

/* A path's canonical form for rule_overlay_is: its directory's real path and its name
 * (new; the path itself when the directory does not resolve). */
static char *overlay_canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
    char *real = realpath(slash == path ? "/" : dir, NULL);
    char *out = real ? xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path)
                     : xstrdup(path);
    free(real);
    free(dir);
    return out;
}

int rule_overlay_is(const struct rule_overlay *ov, const char *path)
{
    if (!ov || !ov->path || !path) return 0;
    if (!strcmp(ov->path, path)) return 1;
    const char *a = strrchr(ov->path, '/'), *b = strrchr(path, '/');
    if (strcmp(a ? a + 1 : ov->path, b ? b + 1 : path)) return 0; /* another name */
    char *ca = overlay_canonical(ov->path), *cb = overlay_canonical(path);
    int same = !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

/* Load the YAML file PATH as the loader reads a rule set's files: from OV when it stands
 * for PATH, else from disk (doc_load_file). A new doc, or NULL with *ERR filled. Static:
 * the loader is the one reader of a set's manifest and rule files (readers of what they
 * say take the partial program, rule_set_load_partial). */
static doc *overlay_load(const struct rule_overlay *ov, const char *path, struct doc_error *err,
                         char text_sha256[65])
{
    if (text_sha256) text_sha256[0] = '\0'; /* an overlay's text: the digest reads it */
    if (!rule_overlay_is(ov, path)) return doc_load_file_cached(path, NULL, err, text_sha256);
    size_t n = strlen(path);
    int yaml =
        (n > 5 && !strcmp(path + n - 5, ".yaml")) || (n > 4 && !strcmp(path + n - 4, ".yml"));
    return doc_load_buffer(path, ov->data ? ov->data : "", ov->data ? ov->len : 0, yaml, NULL, err);
}

static int read_file(const struct rule_overlay *ov, const char *path, char **data, size_t *len)
{
    if (rule_overlay_is(ov, path)) {
        *len = ov->data ? ov->len : 0;
        *data = xmalloc(*len + 1);
        if (*len) memcpy(*data, ov->data, *len);
        (*data)[*len] = '\0';
        return 0;
    }
    return rule_file_read(path, data, len);
}

/* Appends the path segment P (N bytes) to OUT, after a '/' unless it is the first. */
static void add_segment(struct buf *out, const char *p, size_t n)
{
    if (out->len) buf_addc(out, '/');
    buf_add(out, p, n);
}

/* PATH (read as "<rule set dir>/REST") as REST with empty and "." segments dropped, so
 * the same file read twice has one name; NULL for a file outside that form. */
static char *rule_relative_path(const struct rule_set *rs, const char *path)
{
    size_t dl = strlen(rs->dir);
    if (strncmp(path, rs->dir, dl) || path[dl] != '/') return NULL;
    struct buf out = BUF_INIT;
    for (const char *p = path + dl; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        if (n && !(n == 1 && *p == '.')) add_segment(&out, p, n);
        p += n;
    }
    return buf_detach(&out);
}

/* DIR/REST as a path relative to the rule set's directory with empty and "." segments
 * dropped ("../conformance" + "expected-valid/a.json"). */
static char *join_relative(const char *dir, const char *rest)
{
    struct buf out = BUF_INIT;
    const char *parts[2] = {dir, rest};
    for (int k = 0; k < 2; k++)
        for (const char *p = parts[k]; *p;) {
            while (*p == '/') p++;
            size_t n = strcspn(p, "/");
            if (n && !(n == 1 && *p == '.')) add_segment(&out, p, n);
            p += n;
        }
    return buf_detach(&out);
}

struct digest_name {
    const char *path;
    enum rule_file_kind kind;
};

static int str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(((const struct digest_name *)a)->path, ((const struct digest_name *)b)->path);
}

/* sha256 over the lines `<sha256 of file>  <path>` of the manifest, every rule file,
 * every schema file the rules loaded and every fixture their examples cite (paths
 * relative to the rule set, e.g. ../schema/mcp/2025-11-25/tool.json), sorted by path:
 * the text `sha256sum` prints, kept as a release's SHA256SUMS, so anyone can recompute
 * it. A cited fixture that does not exist is left out (lint reports it); the set then
 * differs from its lock. */
/* One line of the set's sums, as sha256sum writes it: "HEX  PATH\n" (appended, not
 * formatted: a set has a line per file, and printf's cost showed in the start). */
static void add_sum_line(struct buf *lines, const char *hex, const char *path)
{
    buf_adds(lines, hex);
    buf_add(lines, "  ", 2);
    buf_adds(lines, path);
    buf_addc(lines, '\n');
}

static void compute_digest(struct rule_set *rs, struct rule_sums *sums, struct diag_list *errs)
{
    VEC(struct digest_name) names = VEC_INIT;
    VEC(char *) owned = VEC_INIT;
    VEC(char *) cited = VEC_INIT; /* fixtures the examples cite (new), as often as cited */
    struct digest_name dn = {"manifest.yaml", RULE_FILE_MANIFEST};
    VEC_PUSH(names, dn);
    for (size_t i = 0; i < rs->files.len; i++) {
        dn = (struct digest_name){rs->files.items[i], RULE_FILE_RULES};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < schema_ctx_file_count(rs->schemas); i++) {
        char *rel = rule_relative_path(rs, schema_ctx_file(rs->schemas, i));
        if (!rel) continue;
        VEC_PUSH(owned, rel);
        dn = (struct digest_name){rel, RULE_FILE_SCHEMA};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < rs->parsed.len; i++) { /* deferred schemas' (settle_deferred) */
        if (rs->parsed.items[i].kind != RULE_FILE_SCHEMA) continue;
        dn = (struct digest_name){rs->parsed.items[i].path, RULE_FILE_SCHEMA};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < rs->data.len; i++) { /* the set's own: the base's digest has its own */
        dn = (struct digest_name){rs->data.items[i]->path, RULE_FILE_DATA};
        VEC_PUSH(names, dn);
    }
    for (size_t i = 0; i < rs->rules.len; i++) {
        if (rs->rules.items[i].borrowed) continue; /* the base's digest covers its fixtures */
        json_t *ex = json_object_get(rs->rules.items[i].meta, "examples"), *e;
        size_t k;
        json_array_foreach(ex, k, e)
        {
            json_t *together = json_object_get(e, "together");
            size_t nt = json_is_array(together) ? json_array_size(together) : 0;
            /* the fixture, a fix's after, a change rule's old description, the fixtures a
             * session example is judged with */
            static const char *const one[] = {"fixture", "after", "old"};
            for (size_t which = 0; which < 3 + nt; which++) {
                const char *fx = json_string_value(which < 3 ? json_object_get(e, one[which])
                                                             : json_array_get(together, which - 3));
                if (!fx || strstr(fx, "..")) continue; /* lint refuses a fixture outside the dir */
                char *rel = join_relative(rs->fixtures, fx);
                VEC_PUSH(cited, rel);
            }
        }
    }
    /* a fixture is cited by many examples: listed once per path */
    if (cited.len) qsort(cited.items, cited.len, sizeof *cited.items, str_ptr_cmp);
    for (size_t i = 0; i < cited.len; i++) {
        char *rel = cited.items[i];
        VEC_PUSH(owned, rel);
        if (i && !strcmp(cited.items[i - 1], rel)) continue;
        /* whether it is there is asked only when it cannot be read (below): an access()
         * per fixture was a system call for each of 80 files on every start */
        dn = (struct digest_name){rel, RULE_FILE_FIXTURE};
        VEC_PUSH(names, dn);
    }
    VEC_FREE(cited);
    qsort(names.items, names.len, sizeof *names.items, name_cmp);
    size_t uniq = 0; /* a schema file may be read twice (by path and by URI) */
    for (size_t i = 0; i < names.len; i++)
        if (!uniq || strcmp(names.items[uniq - 1].path, names.items[i].path))
            names.items[uniq++] = names.items[i];
    names.len = uniq;
    char *base_line = NULL;
    /* "<base digest hex>  extends/NAME@TAG.SHA256SUMS": another base, another set. The
     * base's digest is the sha256 of its SHA256SUMS, which a release keeps at that path
     * (release_pack), so `sha256sum -c` checks that line too. */
    if (rs->base) {
        base_line = xasprintf("extends/%s.SHA256SUMS", rs->extends);
        dn = (struct digest_name){base_line, RULE_FILE_BASE};
        VEC_PUSH(names, dn);
        qsort(names.items, names.len, sizeof *names.items, name_cmp);
    }
    struct buf lines = BUF_INIT;
    for (size_t i = 0; i < names.len; i++) {
        if (names.items[i].kind == RULE_FILE_BASE) {
            struct file_digest fd;
            fd.path = xstrdup(names.items[i].path);
            fd.kind = RULE_FILE_BASE;
            snprintf(fd.hex, sizeof fd.hex, "%s", rs->base->digest + 7);
            VEC_PUSH(rs->digests, fd);
            add_sum_line(&lines, fd.hex, fd.path);
            continue;
        }
        /* a file parsed in this load, or a schema file whose record was checked: its bytes
         * were hashed then */
        const char *known = NULL;
        if (names.items[i].kind == RULE_FILE_MANIFEST || names.items[i].kind == RULE_FILE_RULES ||
            names.items[i].kind == RULE_FILE_SCHEMA)
            for (size_t k = 0; k < rs->parsed.len && !known; k++)
                if (rs->parsed.items[k].hex[0] &&
                    !strcmp(rs->parsed.items[k].path, names.items[i].path))
                    known = rs->parsed.items[k].hex;
        if (known) {
            struct file_digest fd;
            fd.path = xstrdup(names.items[i].path);
            fd.kind = names.items[i].kind;
            memcpy(fd.hex, known, sizeof fd.hex);
            VEC_PUSH(rs->digests, fd);
            add_sum_line(&lines, fd.hex, names.items[i].path);
            continue;
        }
        char *path = xasprintf("%s/%s", rs->dir, names.items[i].path), *data;
        size_t len;
        int fixture = names.items[i].kind == RULE_FILE_FIXTURE;
        /* a cited fixture that is not on disk is left out (lint reports it), even when an
         * editor's buffer stands for it */
        if (fixture && rule_overlay_is(rs->overlay, path) && access(path, R_OK) != 0) {
            free(path);
            continue;
        }
        struct file_digest fd;
        int hashed;
        /* a fixture is read only for its sha256: kept by its identity (rule_sums) */
        if (fixture && !rule_overlay_is(rs->overlay, path)) {
            hashed = rule_sums_file_hex(sums, path, fd.hex) == 0;
        } else if ((hashed = read_file(rs->overlay, path, &data, &len) == 0)) {
            rule_sha256_hex(data, len, fd.hex);
            free(data);
        }
        if (!hashed) {
            if (fixture && access(path, R_OK) != 0) {
                free(path);
                continue;
            }
            rule_cc_set_error(errs, path, 0, 0, "cannot read rule file");
        } else {
            fd.path = xstrdup(names.items[i].path);
            fd.kind = names.items[i].kind;
            VEC_PUSH(rs->digests, fd);
            add_sum_line(&lines, fd.hex, names.items[i].path);
        }
        free(path);
    }
    char hex[65];
    rule_sha256_hex(buf_str(&lines), lines.len, hex);
    snprintf(rs->digest, sizeof rs->digest, "sha256:%s", hex);
    rs->sums = buf_detach(&lines);
    free(base_line);
    VEC_FREE(names);
    for (size_t i = 0; i < owned.len; i++) free(owned.items[i]);
    VEC_FREE(owned);
}

/* The manifest's name and tag name files and pages (tags/TAG.lock): plain names only. */
static int valid_set_name(const char *s, int tag)
{
    if (!*s || strlen(s) > 100) return 0;
    if (tag ? (*s == '.' || *s == '-') : !(*s >= 'a' && *s <= 'z')) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
              (tag && ((*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '+'))))
            return 0;
    return 1;
}

static void check_set_names(struct cc *cc, struct yv top)
{
    struct yv name = rule_yv_member(cc, top, "name"), tag = rule_yv_member(cc, top, "tag");
    if (json_is_string(name.v) && !valid_set_name(json_string_value(name.v), 0))
        rule_cc_error_hint(cc, name.n, 0,
                           "write lowercase letters, digits, - and ., starting with a letter "
                           "(e.g. mcpdesc-mcp)",
                           "the manifest's name \"%s\" is not a rule set name",
                           json_string_value(name.v));
    if (json_is_string(tag.v) && !valid_set_name(json_string_value(tag.v), 1))
        rule_cc_error_hint(cc, tag.n, 0,
                           "write letters, digits, . - _ and +, not starting with . or - (e.g. "
                           "v0.9.0-rc.9): the tag names the file tags/TAG.lock",
                           "the manifest's tag \"%s\" is not a tag name", json_string_value(tag.v));
}

static struct rule_set *load_set(const char *dir, const struct rule_load_opts *opts,
                                 const struct load_chain *up, int partial, struct diag_list *errs);

/* The manifest member KEY of RS, or of the nearest base that has it. *FROM: that set. */
static json_t *effective_member(const struct rule_set *rs, const char *key,
                                const struct rule_set **from)
{
    for (; rs; rs = rs->base) {
        json_t *v = json_object_get(rs->manifest, key);
        if (v) {
            if (from) *from = rs;
            return v;
        }
    }
    return NULL;
}

/* One line from release_explain_missing (without its "mcpdesc: " and newline), new. */
static char *explain_missing(const struct release_path *rp, const char *name, const char *tag)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return xasprintf("no release %s@%s", name, tag);
    release_explain_missing(rp, name, tag, m);
    fclose(m);
    while (len && text[len - 1] == '\n') text[--len] = '\0';
    const char *body = strncmp(text, "mcpdesc: ", 9) ? text : text + 9;
    char *out = xstrdup(body);
    free(text);
    return out;
}

static void load_base_dir(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                          const struct load_chain *chain, char *dir);

static const char hint_extends[] =
    "write extends: NAME@TAG of an available release, or a path (relative to the manifest) "
    "to a rule set directory or a release directory NAME@TAG/";

/* `extends: NAME@TAG` or `extends: PATH`: load the base into rs->base (or report at the
 * value). */
static void load_base(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                      const struct load_chain *chain)
{
    struct rule_set *rs = cc->rs;
    const char *v = json_string_value(ext.v);
    const char *given = opts && opts->nbases ? opts->bases[opts->nbases - 1] : NULL;
    if (given && !ext.v) { /* the chain names the base: no extends of its own */
        load_base_dir(cc, ext, opts, chain, xstrdup(given));
        return;
    }
    if (!v || !*v) {
        rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                           "\"extends\" names the base set: NAME@TAG or a path, not a %s",
                           v ? "empty string" : rule_json_type_name(ext.v));
        return;
    }
    char *dir = NULL, *want = NULL; /* by tag: the base must be released as "NAME@TAG" */
    if (!strchr(v, '/') && strchr(v, '@')) {
        char *name, *tag;
        if (release_parse(v, "", &name, &tag) < 0) {
            rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                               "extends: \"%s\" is not NAME@TAG (a name of lowercase letters, "
                               "digits, - and .; a tag of letters, digits, . - _ +)",
                               v);
            return;
        }
        struct release_path rp = {opts ? opts->release_dirs : NULL, opts ? opts->nrelease_dirs : 0};
        dir = release_find(&rp, name, tag);
        if (dir) want = xasprintf("%s@%s", name, tag);
        if (!dir) {
            char *why = explain_missing(&rp, name, tag);
            rule_cc_error_hint(cc, ext.n, 0, hint_extends, "extends: %s", why);
            free(why);
        }
        free(name);
        free(tag);
    } else {
        char *path = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", rs->dir, v);
        char *m = xasprintf("%s/manifest.yaml", path);
        if (access(m, R_OK) == 0) dir = xstrdup(path);
        else if (!(dir = release_rules_dir(path)))
            rule_cc_error_hint(cc, ext.n, 0, hint_extends,
                               "extends: no rule set at %s (neither a directory with "
                               "manifest.yaml nor a release directory NAME@TAG/ with rules/)",
                               path);
        free(m);
        free(path);
    }
    if (!dir) return;
    if (given) {
        free(want);
        want = NULL; /* the chain names the set: a path, checked by the config */
        char *mine = realpath(dir, NULL), *theirs = realpath(given, NULL);
        int same = mine && theirs && !strcmp(mine, theirs);
        free(mine);
        free(theirs);
        if (!same) {
            rule_cc_error_hint(cc, ext.n, 0,
                               "remove this extends, or list the set it names before this one",
                               "extends: \"%s\" is not %s, the set before this one in the "
                               "config's rules list",
                               v, given);
            free(dir);
            return;
        }
    }
    load_base_dir(cc, ext, opts, chain, dir);
    /* NAME@TAG pins the base by tag: a copy there that is not the release never runs
     * under that name as this set's base (a re-hashed one the base's load refused) */
    if (want && rs->base) {
        char *is =
            rs->base->released ? xasprintf("%s@%s", rs->base->name, rs->base->released) : NULL;
        if (!is || strcmp(is, want))
            rule_cc_error_hint(cc, ext.n, 0,
                               "restore the release, or extend an edited copy by its path",
                               "extends: the release in %s is not %s (it is %s %s)", rs->base->dir,
                               want, rs->base->name, rs->base->display_tag);
        free(is);
    }
    free(want);
}

/* Load the base set in DIR (taken) into rs->base, refusing a cycle and a chain too long. */
static void load_base_dir(struct cc *cc, struct yv ext, const struct rule_load_opts *opts,
                          const struct load_chain *chain, char *dir)
{
    struct rule_set *rs = cc->rs;
    struct rule_load_opts below; /* the chain of bases, one set shorter */
    if (opts && opts->nbases) {
        below = *opts;
        below.nbases--;
        opts = &below;
    }
    char *real = realpath(dir, NULL);
    for (const struct load_chain *c = chain; c && real; c = c->up) {
        if (strcmp(c->real, real) != 0) continue;
        VEC(const char *) sets = VEC_INIT; /* from the set that extends, down to c */
        for (const struct load_chain *k = chain; k != c->up; k = k->up) VEC_PUSH(sets, k->dir);
        struct buf cycle = BUF_INIT;
        for (size_t k = sets.len; k-- > 0;) buf_addf(&cycle, "%s extends ", sets.items[k]);
        buf_addf(&cycle, "%s", dir);
        rule_cc_error_hint(cc, ext.n, 0,
                           "a set cannot extend itself, directly or through its base: remove "
                           "one extends",
                           "extends: a cycle: %s", buf_str(&cycle));
        buf_release(&cycle);
        VEC_FREE(sets);
        free(real);
        free(dir);
        return;
    }
    free(real);
    if (chain && chain->depth + 1 >= MAX_EXTENDS) {
        rule_cc_error_hint(cc, ext.n, 0, "flatten the chain of bases",
                           "extends: more than %d levels of extends (at %s)", MAX_EXTENDS, dir);
        free(dir);
        return;
    }
    size_t before = cc->errs->len;
    rs->base = load_set(dir, opts, chain, 0, cc->errs); /* a base is whole, or refused */
    if (!rs->base) {
        if (cc->errs->len == before) /* cannot happen: a refused set says why */
            rule_cc_error(cc, ext.n, 0, "extends: the base set in %s cannot be loaded", dir);
        else
            rule_cc_error_hint(cc, ext.n, 0, "fix the base set, or extend another",
                               "extends: the base set in %s has %zu error%s (listed above)", dir,
                               cc->errs->len - before, cc->errs->len - before == 1 ? "" : "s");
    } else {
        rs->extends = xasprintf("%s@%s", rule_set_name(rs->base), rule_set_tag(rs->base));
    }
    free(dir);
}

/* A member an extending manifest may repeat only as its base has it. */
static void same_as_base(struct cc *cc, struct yv top, const char *key)
{
    struct yv mine = rule_yv_member(cc, top, key);
    if (!mine.v) return;
    json_t *theirs = effective_member(cc->rs->base, key, NULL);
    if (theirs && json_equal(mine.v, theirs)) return;
    char *want = theirs ? json_dumps(theirs, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    rule_cc_error_hint(cc, mine.n, 1,
                       "remove it (an extending set takes it from its base) or copy the base's "
                       "exactly",
                       "\"%s\" differs from the base set %s's (%s): a set that extends another "
                       "judges documents exactly as its base does",
                       key, cc->rs->extends, want ? want : "none");
    free(want);
}

/* A name `files:` may list: a .yaml file beside the manifest. */
static int plain_rule_file_name(const char *name)
{
    return !strchr(name, '/') && name[0] != '.' && strstr(name, ".yaml");
}

/* ---- the manifest's tables (rule_lang.h) ------------------------------------------- */

static int document_versions_member(struct cc *cc, struct rule_lang_walk *w)
{
    cc->rs->versions_member = xstrdup(json_string_value(w->m.v));
    return 0;
}

static int document_collections(struct cc *cc, struct rule_lang_walk *w)
{
    for (size_t i = 0; i < json_array_size(w->m.v); i++)
        if (json_is_string(json_array_get(w->m.v, i)))
            VEC_PUSH(cc->rs->collections, xstrdup(json_string_value(json_array_get(w->m.v, i))));
    return 0;
}

/* `component-ref`: without it the set cannot resolve a document; the manifest's files
 * are then left unread (load_manifest). */
static int document_component_ref(struct cc *cc, struct rule_lang_walk *w)
{
    if (!json_is_object(w->m.v)) {
        rule_cc_error(cc, w->m.v ? w->m.n : w->y.n, 0,
                      "\"document\" needs \"component-ref\": member, prefix, scopes");
        return -1;
    }
    rule_cc_members(cc, w->m, &rule_set_lang_component_ref, "\"component-ref\"", w->out);
    return 0;
}

static int component_ref_member(struct cc *cc, struct rule_lang_walk *w)
{
    cc->rs->ref_member = xstrdup(json_string_value(w->m.v));
    return 0;
}

static int component_ref_prefix(struct cc *cc, struct rule_lang_walk *w)
{
    cc->rs->ref_prefix = xstrdup(json_string_value(w->m.v));
    return 0;
}

static int component_ref_scopes(struct cc *cc, struct rule_lang_walk *w)
{
    struct yv scopes = w->m;
    if (!json_is_array(scopes.v))
        rule_cc_error(cc, scopes.v ? scopes.n : w->y.n, 0,
                      "\"component-ref\" needs \"scopes\": a list of selectors");
    for (size_t i = 0; json_is_array(scopes.v) && i < json_array_size(scopes.v); i++) {
        struct sel *sl = rule_cc_sel(cc, rule_yv_item(cc, scopes, i));
        if (sl) VEC_PUSH(cc->rs->scopes, sl);
    }
    return 0;
}

/* The manifest's members. load_manifest reads them itself, not by a walk: a set that
 * extends another takes versions, document, schema-map and description-format from its
 * base (they may only repeat the base's), so which are read, and how, depends on
 * extends. The walker checks its unknown members against this table. */
static const struct rule_lang_member manifest_members[] = {
    {"name", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the rule set's name: lowercase letters, digits, - and ., starting with a letter", NULL, NULL,
     NULL, 0},
    {"tag", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the release tag the set is, or will be, released as", NULL, NULL, NULL, 0},
    {"description-format", RULE_LANG_STRING, RULE_LANG_OWN,
     "the description format the set judges (required unless the set extends another)", NULL, NULL,
     NULL, 0},
    {"docs-url", RULE_LANG_STRING, RULE_LANG_OWN,
     "where the rule pages are published: an absolute http://, https:// or file:// URL", NULL, NULL,
     NULL, 0},
    {"versions", RULE_LANG_STRINGS, RULE_LANG_OWN,
     "the known protocol versions, oldest first (required unless the set extends another)", NULL,
     NULL, NULL, 0},
    {"tiers", RULE_LANG_STRING_MAP, RULE_LANG_OWN,
     "the name of each source tier (1 to 4) that based-on entries cite", NULL, NULL, NULL, 0},
    {"document", RULE_LANG_MAPPING, RULE_LANG_OWN,
     "the document's shape: versions member, item collections, $componentRef (required unless "
     "the set extends another)",
     &rule_set_lang_document, NULL, NULL, 0},
    {"schema-map", RULE_LANG_STRING_MAP, RULE_LANG_OWN,
     "URI prefix to directory, for $refs between the schema files of schema predicates", NULL, NULL,
     NULL, 0},
    {"files", RULE_LANG_STRINGS, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the rule files beside the manifest, in order", NULL, NULL, NULL, 0},
    {"fixtures", RULE_LANG_STRING, RULE_LANG_OWN,
     "the examples' fixtures directory, relative to the manifest (default ../conformance)", NULL,
     NULL, NULL, 0},
    {"extends", RULE_LANG_STRING, RULE_LANG_OWN,
     "the base set: NAME@TAG of a release, or a path to a rule set directory", NULL, NULL, NULL, 0},
    {"data", RULE_LANG_STRING_MAP, RULE_LANG_OWN,
     "named data files (relative to the manifest) that predicates read: chars, phrases", NULL, NULL,
     NULL, 0},
    {"overrides", RULE_LANG_MAPPINGS, RULE_LANG_OWN,
     "base rules this set gives another level (or turns off) or preset, each with a reason",
     &rule_override_lang, NULL, NULL, 0},
    {"texts", RULE_LANG_MAPPING, RULE_LANG_OWN,
     "where the texts a client shows a model are: item, document, schema (else the base's)",
     &rule_texts_lang, NULL, NULL, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_set_lang_manifest = {
    "manifest", RULE_NAMES_MANIFEST, "manifest.schema.json#", manifest_members, NULL};

static const struct rule_lang_member document_members[] = {
    {"versions-member", RULE_LANG_STRING, RULE_LANG_REQUIRED,
     "the member of an item that lists its protocol versions", NULL, NULL, document_versions_member,
     0},
    {"collections", RULE_LANG_STRINGS, 0, "the document's top-level lists of items", NULL, NULL,
     document_collections, 0},
    {"component-ref", RULE_LANG_MAPPING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "how a $componentRef is written and where it may appear", &rule_set_lang_component_ref, NULL,
     document_component_ref, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_set_lang_document = {"document", RULE_NAMES_DOCUMENT,
                                                     "manifest.schema.json#/$defs/Document",
                                                     document_members, NULL};

static const struct rule_lang_member component_ref_members[] = {
    {"member", RULE_LANG_STRING, RULE_LANG_REQUIRED, "the reference's member name", NULL, NULL,
     component_ref_member, 0},
    {"prefix", RULE_LANG_STRING, RULE_LANG_REQUIRED, "the prefix every reference starts with", NULL,
     NULL, component_ref_prefix, 0},
    {"scopes", RULE_LANG_SELECTORS, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "selectors of the places where references may appear", NULL, NULL, component_ref_scopes, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_set_lang_component_ref = {
    "component-ref", RULE_NAMES_COMPONENT_REF, "manifest.schema.json#/$defs/ComponentRef",
    component_ref_members, NULL};

static void load_manifest(struct rule_set *rs, const struct rule_load_opts *opts,
                          const struct load_chain *chain, struct diag_list *errs)
{
    char *path;
    doc *d = load_rule_yaml(rs, "manifest.yaml", &path, errs);
    if (!d) {
        free(path);
        return;
    }
    struct cc cc = {d, rs, errs, NULL, 0};
    struct yv top = {doc_root(d), 0};
    const char *what = "the manifest";
    if (!json_is_object(top.v)) {
        rule_cc_error(&cc, 0, 0, "the manifest must be a mapping");
        goto out;
    }
    rule_cc_unknown_members(&cc, top, &rule_set_lang_manifest, what);
    const char *s;
    if ((s = rule_cc_need_string(&cc, top, "name", what, 1))) rs->name = xstrdup(s);
    if ((s = rule_cc_need_string(&cc, top, "tag", what, 1))) rs->tag = xstrdup(s);
    check_set_names(&cc, top);
    if ((s = rule_cc_need_string(&cc, top, "docs-url", what, 0)) && !uri_is_link(s))
        /* reports and the editor link every rule page under it: nothing else may go there */
        rule_cc_error_hint(&cc, rule_yv_member(&cc, top, "docs-url").n, 0,
                           "write where the pages of `mcpdesc rules docs` are published, "
                           "https://example.org/rules/, or leave docs-url out",
                           "docs-url takes an absolute http://, https:// or file:// URL, not '%s'",
                           s);
    s = rule_cc_need_string(&cc, top, "fixtures", what, 0);
    rs->fixtures = xstrdup(s ? s : "../conformance");
    struct yv ext = rule_yv_member(&cc, top, "extends");
    if (ext.v || (opts && opts->nbases)) {
        struct load_chain me = {chain, NULL, rs->dir, chain ? chain->depth + 1 : 0};
        char *real = realpath(rs->dir, NULL);
        me.real = real ? real : rs->dir;
        load_base(&cc, ext, opts, &me);
        free(real);
        if (!rs->base) goto out;
        /* versions, document shape, description format and schema-map are the base's */
        static const char *const inherited[] = {"versions", "document", "schema-map",
                                                "description-format", NULL};
        for (const char *const *k = inherited; *k; k++) same_as_base(&cc, top, *k);
        rs->format = xstrdup(rs->base->format);
        for (size_t i = 0; i < rs->base->versions.n; i++)
            rs->versions.names[rs->versions.n++] = xstrdup(rs->base->versions.names[i]);
        /* $refs between schema files: the nearest schema-map, relative to its set */
        const struct rule_set *from = NULL;
        json_t *smap = effective_member(rs, "schema-map", &from);
        const char *prefix;
        json_t *dirv;
        json_object_foreach(json_is_object(smap) ? smap : NULL, prefix, dirv)
        {
            if (!json_is_string(dirv)) continue; /* refused where it is written */
            char *sdir = xasprintf("%s/%s", from->dir, json_string_value(dirv));
            schema_ctx_add_ref_map(rs->schemas, prefix, sdir);
            VEC_PUSH(rs->schema_maps, xstrdup(prefix));
            VEC_PUSH(rs->schema_maps, sdir);
        }
        rule_override_load(&cc, rule_yv_member(&cc, top, "overrides"));
        rule_data_load(&cc, rule_yv_member(&cc, top, "data"));
        goto files;
    }
    rule_override_load(&cc, rule_yv_member(&cc, top, "overrides")); /* refused: no base */
    if ((s = rule_cc_need_string(&cc, top, "description-format", what, 1))) rs->format = xstrdup(s);
    struct yv vers = rule_yv_member(&cc, top, "versions");
    if (!json_is_array(vers.v) || !json_array_size(vers.v)) {
        rule_cc_error(&cc, vers.v ? vers.n : 0, 0,
                      "the manifest needs \"versions\": the known protocol versions, oldest first");
    } else {
        for (size_t i = 0; i < json_array_size(vers.v) && rs->versions.n < VER_MAX; i++) {
            struct yv e = rule_yv_item(&cc, vers, i);
            if (!json_is_string(e.v)) {
                rule_cc_error(&cc, e.n, 0, "a protocol version must be a string");
                continue;
            }
            const char *name = json_string_value(e.v);
            if (ver_index(&rs->versions, name) >= 0)
                rule_cc_error(&cc, e.n, 0, "version \"%s\" is listed twice", name);
            else if (rs->versions.n && strcmp(rs->versions.names[rs->versions.n - 1], name) >= 0)
                rule_cc_error_hint(
                    &cc, e.n, 0, "reorder the manifest's versions, oldest first",
                    "versions must be listed oldest first (\"%s\" comes after \"%s\")", name,
                    rs->versions.names[rs->versions.n - 1]);
            else rs->versions.names[rs->versions.n++] = xstrdup(name);
        }
    }
    /* schema-map: URI prefix -> directory (relative to the rule set) for $refs between
     * the schema files that schema predicates use; nothing else is ever read. */
    struct yv smap = rule_yv_member(&cc, top, "schema-map");
    if (smap.v && !json_is_object(smap.v))
        rule_cc_error(&cc, smap.n, 0, "\"schema-map\" maps URI prefixes to directories");
    else if (smap.v) {
        const char *prefix;
        json_t *dirv;
        json_object_foreach(smap.v, prefix, dirv)
        {
            if (!json_is_string(dirv)) {
                rule_cc_error(&cc, smap.n, 0,
                              "schema-map: the directory for \"%s\" must be a string", prefix);
                continue;
            }
            char *dir = xasprintf("%s/%s", rs->dir, json_string_value(dirv));
            schema_ctx_add_ref_map(rs->schemas, prefix, dir);
            VEC_PUSH(rs->schema_maps, xstrdup(prefix));
            VEC_PUSH(rs->schema_maps, dir);
        }
    }
    struct yv docm = rule_yv_member(&cc, top, "document");
    if (!json_is_object(docm.v)) {
        rule_cc_error(
            &cc, docm.v ? docm.n : 0, 0,
            "the manifest needs \"document\": versions-member, collections, component-ref");
        goto out;
    }
    if (rule_cc_members(&cc, docm, &rule_set_lang_document, "\"document\"", rs) < 0) goto out;
    rule_data_load(&cc, rule_yv_member(&cc, top, "data"));
files:;
    rule_texts_load(&cc, rule_yv_member(&cc, top, "texts"));
    struct yv files = rule_yv_member(&cc, top, "files");
    if (!files.v)
        rule_cc_error(&cc, 0, 0, "the manifest needs \"files\": the rule files, in order");
    else rule_cc_check_string_list(&cc, files, "files", what);
    for (size_t i = 0; json_is_array(files.v) && i < json_array_size(files.v); i++) {
        json_t *f = json_array_get(files.v, i);
        if (!json_is_string(f)) continue;
        const char *name = json_string_value(f);
        if (!plain_rule_file_name(name))
            rule_cc_error(
                &cc, rule_yv_item(&cc, files, i).n, 0,
                "rule files are plain names of .yaml files beside the manifest, not \"%s\"", name);
        else VEC_PUSH(rs->files, xstrdup(name));
    }
    rs->manifest = json_incref(top.v);
out:
    if (rs->keep_docs) rs->manifest_doc = d;
    else doc_free(d);
    free(path);
}

/* After an error in the manifest of a partial load: the rule files it lists, parsed but
 * not compiled (a rule judged against a manifest with errors would report misleading
 * ones) and not reported (as when the set is loaded whole, where none is read), so that
 * lint's own checks still see them. */
static void read_files_quietly(struct rule_set *rs)
{
    for (size_t i = 0; i < rs->files.len; i++) free(rs->files.items[i]);
    rs->files.len = 0;
    json_t *files = json_object_get(doc_root(rs->manifest_doc), "files");
    for (size_t i = 0; json_is_array(files) && i < json_array_size(files); i++) {
        const char *name = json_string_value(json_array_get(files, i));
        if (!name || !plain_rule_file_name(name)) continue;
        char *path = xasprintf("%s/%s", rs->dir, name);
        struct doc_error err;
        doc *d = overlay_load(rs->overlay, path, &err, NULL);
        if (!d) doc_error_release(&err);
        VEC_PUSH(rs->files, xstrdup(name));
        VEC_PUSH(rs->file_docs, d);
        free(path);
    }
}

struct rule_set *rule_set_load(const char *dir, struct diag_list *errs)
{
    return rule_set_load_with(dir, NULL, errs);
}

struct rule_set *rule_set_load_with(const char *dir, const struct rule_load_opts *opts,
                                    struct diag_list *errs)
{
    return load_set(dir, opts, NULL, 0, errs);
}

struct rule_set *rule_set_load_partial(const char *dir, const struct rule_load_opts *opts,
                                       struct diag_list *errs)
{
    return load_set(dir, opts, NULL, 1, errs);
}

/* The matches-schema schemas the load deferred (rs->deferred): left to their first match
 * when a record (rule_cache.h) says that their files are the ones that all compiled
 * before (each file then in rs->parsed, with the sha256 the check took: the digest lists
 * it as if the compiler had read it);
 * else compiled now, and STORE set to the key to record them under once the load ends
 * without an error (else ""). -1 when one does not compile (the caller loads again
 * without deferring, which reports it where it is named). */
static int settle_deferred(struct rule_set *rs, struct rule_sums *sums, struct diag_list *errs,
                           char store[65])
{
    store[0] = '\0';
    if (!rs->deferred.len) return 0;
    char key[65];
    rule_cache_schema_key(rs->dir, rs->schema_maps.items, rs->schema_maps.len,
                          rs->deferred_files.items, rs->deferred_files.len, key);
    struct rule_cache_files got = {VEC_INIT};
    if (rule_cache_schema_get(key, sums, &got)) {
        /* their values by the sha256 just taken: not read again at first use */
        rule_cache_known_add(rs->schemas, &got);
        for (size_t i = 0; i < got.v.len; i++) {
            char *rel = rule_relative_path(rs, got.v.items[i].path);
            if (!rel) continue;
            struct file_digest fd = {rel, "", RULE_FILE_SCHEMA};
            /* an editor's buffer standing for it: the digest reads the buffer */
            if (!rule_overlay_is(rs->overlay, got.v.items[i].path))
                memcpy(fd.hex, got.v.items[i].hex, sizeof fd.hex);
            VEC_PUSH(rs->parsed, fd);
        }
        rule_cache_files_release(&got);
        for (size_t i = 0; i < rs->deferred.len; i++) fn_schema_defer(rs->deferred.items[i], key);
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < rs->deferred.len; i++)
        if (fn_schema_compile_deferred(rs->deferred.items[i]) < 0) rc = -1;
    if (rc < 0) rule_cc_set_error(errs, rs->dir, 0, 0, "a schema file does not compile");
    else memcpy(store, key, sizeof key);
    return rc;
}

static struct rule_set *load_set_as(const char *dir, const struct rule_load_opts *opts,
                                    const struct load_chain *chain, int partial, int defer,
                                    int *deferred, struct diag_list *errs);

/* PARTIAL: keep the set, and the documents it parsed, whenever the manifest parses.
 * A whole load defers its matches-schema schemas (settle_deferred); when it fails after
 * deferring any, it is done again without deferring, so that it reports what it always
 * did, in the same order (a schema's error among the rules' own). */
static struct rule_set *load_set(const char *dir, const struct rule_load_opts *opts,
                                 const struct load_chain *chain, int partial,
                                 struct diag_list *errs)
{
    if (partial) return load_set_as(dir, opts, chain, 1, 0, NULL, errs);
    struct diag_list first = DIAG_LIST_INIT;
    int deferred = 0;
    struct rule_set *rs = load_set_as(dir, opts, chain, 0, 1, &deferred, &first);
    if (rs || !deferred) {
        diag_list_move(errs, &first);
        diag_list_release(&first);
        return rs;
    }
    diag_list_release(&first);
    return load_set_as(dir, opts, chain, 0, 0, NULL, errs);
}

static struct rule_set *load_set_as(const char *dir, const struct rule_load_opts *opts,
                                    const struct load_chain *chain, int partial, int defer,
                                    int *deferred, struct diag_list *errs)
{
    size_t before = errs->len;
    struct rule_set *rs = xcalloc(1, sizeof *rs);
    rs->dir = xstrdup(dir);
    rs->schemas = schema_ctx_new(NULL);
    if (doc_cache_on()) rule_cache_use_loader(rs->schemas);
    rs->overlay = opts ? opts->overlay : NULL;
    rs->keep_docs = partial;
    rs->defer_schemas = defer;
    /* the rule files, the schema record's files and the fixtures: sha256s kept by identity */
    struct rule_sums *sums = rule_sums_open(rs->dir);
    rs->load_sums = sums;
    load_manifest(rs, opts, chain, errs);
    if (errs->len != before && rs->manifest_doc) {
        read_files_quietly(rs);
    } else if (errs->len == before) {
        for (size_t i = 0; rs->base && i < rs->base->rules.len; i++) {
            struct rule r = rs->base->rules.items[i]; /* the base's program, borrowed */
            r.borrowed = 1;
            VEC_PUSH(rs->rules, r);
        }
        rule_override_apply(rs);
        compile_files(rs, errs);
        char store[65] = "";
        if (deferred) *deferred = rs->deferred.len > 0;
        if (errs->len == before) settle_deferred(rs, sums, errs, store);
        rule_cc_check_yields(rs, errs);
        compute_digest(rs, sums, errs);
        rule_sums_close(sums);
        sums = rs->load_sums = NULL;
        if (errs->len == before && store[0]) rule_cache_schema_put(store, rs->schemas);
    }
    rule_sums_close(sums); /* a set that did not load: what it read is recorded */
    rs->load_sums = NULL;
    VEC_FREE(rs->deferred);
    VEC_FREE(rs->deferred_files);
    for (size_t i = 0; i < rs->schema_maps.len; i++) free(rs->schema_maps.items[i]);
    VEC_FREE(rs->schema_maps);
    rs->overlay = NULL; /* borrowed for the load only */
    if (errs->len == before) {
        rs->released = lock_released_as(rs);
        rs->display_tag = rs->released ? xstrdup(rs->released)
                                       : xasprintf("%s+modified", rs->tag ? rs->tag : "untagged");
        /* never something else under a shipped tag's name, wherever it was found */
        release_check_loaded(rs, opts ? opts->pins : NULL, opts ? opts->npins : 0, errs);
    }
    rs->ok = errs->len == before;
    if (!rs->ok && !rs->manifest_doc) { /* always so unless PARTIAL */
        rule_set_free(rs);
        return NULL;
    }
    if (rs->base) { /* the document's shape is the base's */
        rs->rescfg = rs->base->rescfg;
        rs->rescfg.versions = &rs->versions;
        return rs;
    }
    rs->rescfg.versions = &rs->versions;
    rs->rescfg.versions_member = rs->versions_member;
    rs->rescfg.collections = rs->collections.items;
    rs->rescfg.ncollections = rs->collections.len;
    rs->rescfg.scopes = rs->scopes.items;
    rs->rescfg.nscopes = rs->scopes.len;
    rs->rescfg.ref_member = rs->ref_member;
    rs->rescfg.ref_prefix = rs->ref_prefix;
    return rs;
}

int rule_set_load_names(const doc *m, char **name, char **tag)
{
    json_t *root = m ? doc_root(m) : NULL;
    /* the members schema/manifest.schema.json requires, of their types */
    int ok = json_is_object(root) && json_is_string(json_object_get(root, "name")) &&
        json_is_string(json_object_get(root, "tag")) &&
        json_is_array(json_object_get(root, "files"));
    if (ok && name) *name = xstrdup(json_string_value(json_object_get(root, "name")));
    if (ok && tag) *tag = xstrdup(json_string_value(json_object_get(root, "tag")));
    return ok;
}

int rule_set_load_probe(const char *dir, char **name, char **tag)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    struct doc_error err = {0};
    doc *d = access(m, R_OK) == 0 ? doc_load_file_cached(m, NULL, &err, NULL) : NULL;
    free(m);
    doc_error_release(&err);
    int ok = rule_set_load_names(d, name, tag);
    doc_free(d);
    return ok;
}
