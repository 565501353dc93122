/* rule_data_load.c - a rule set's data files (rule_data.h): the manifest's `data:` read, each
 * file validated against its kind's JSON Schema (schema/data-unicode-classes.schema.json,
 * schema/data-phrase-lists.schema.json, embedded at build time: mk/data.mk) and compiled
 * once: Unicode classes into sorted range tables, phrase lists into one PCRE2 alternation
 * each (phrase.h). */
#include "rules/rule_data.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/rule_cache.h"
#include "schema/schema.h"

/* Generated from schema/data-*.schema.json ($(BUILD)/gen/data_schemas.c). */
extern const char rule_data_schema_unicode[], rule_data_schema_phrases[];

static const char hint_data[] = "see rules-yaml/README.md, \"Data files\", and the kind's schema "
                                "(schema/data-unicode-classes.schema.json or "
                                "schema/data-phrase-lists.schema.json)";

static const struct {
    const char *kind, *schema_file;
} kinds[] = {
    {"unicode-classes", "schema/data-unicode-classes.schema.json"},
    {"phrase-lists", "schema/data-phrase-lists.schema.json"},
};

/* ---- code point sets ---------------------------------------------------------------- */

static void cps_add(struct rule_data_cps *s, size_t *cap, uint32_t lo, uint32_t hi)
{
    if (s->n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        s->r = xrealloc(s->r, *cap * sizeof *s->r);
    }
    s->r[s->n][0] = lo;
    s->r[s->n++][1] = hi;
}

static int range_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Sort and merge S's ranges (overlapping or adjacent ones become one). */
static void cps_normalize(struct rule_data_cps *s)
{
    if (!s->n) return;
    qsort(s->r, s->n, sizeof *s->r, range_cmp);
    size_t k = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->r[i][0] <= s->r[k][1] + 1) {
            if (s->r[i][1] > s->r[k][1]) s->r[k][1] = s->r[i][1];
        } else {
            s->r[++k][0] = s->r[i][0];
            s->r[k][1] = s->r[i][1];
        }
    }
    s->n = k + 1;
}

static void cps_union(struct rule_data_cps *s, size_t *cap, const struct rule_data_cps *add)
{
    for (size_t i = 0; i < add->n; i++) cps_add(s, cap, add->r[i][0], add->r[i][1]);
}

/* A list of code points and [first, last] ranges (validated by the schema) into S. */
static int read_cps(struct cc *cc, struct yv y, struct rule_data_cps *s, size_t *cap)
{
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        json_int_t lo, hi;
        if (json_is_integer(e.v)) lo = hi = json_integer_value(e.v);
        else {
            lo = json_integer_value(json_array_get(e.v, 0));
            hi = json_integer_value(json_array_get(e.v, 1));
        }
        if (lo > hi) {
            rule_cc_error_hint(cc, e.n, 0, "write the range [first, last], first not above last",
                               "the range [0x%llX, 0x%llX] is empty", (long long)lo, (long long)hi);
            return -1;
        }
        cps_add(s, cap, (uint32_t)lo, (uint32_t)hi);
    }
    return 0;
}

static const struct rule_data_class *find_class(const struct rule_data_unicode *u, const char *name)
{
    for (size_t i = 0; i < u->classes.len; i++)
        if (!strcmp(u->classes.items[i].name, name)) return &u->classes.items[i];
    return NULL;
}

/* A class name as a set, or report it (with the nearest class name). */
static int class_into(struct cc *cc, struct yv at, const struct rule_data_unicode *u,
                      struct rule_data_cps *s, size_t *cap)
{
    const char *name = json_string_value(at.v);
    const struct rule_data_class *c = find_class(u, name);
    if (c) {
        cps_union(s, cap, &c->cps);
        return 0;
    }
    const char **names = xcalloc(u->classes.len + 1, sizeof *names);
    for (size_t i = 0; i < u->classes.len; i++) names[i] = u->classes.items[i].name;
    const char *near = rule_cc_nearest(name, names);
    rule_cc_error_hint(cc, at.n, 0, hint_data, "no class \"%s\" in this file%s%s%s", name,
                       near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
    free(names);
    return -1;
}

/* A set: a class name, a list of class names, or a list of code points and ranges. */
static int read_set(struct cc *cc, struct yv y, const struct rule_data_unicode *u,
                    struct rule_data_cps *s)
{
    size_t cap = 0;
    int rc = 0;
    if (json_is_string(y.v)) rc = class_into(cc, y, u, s, &cap);
    else if (json_is_string(json_array_get(y.v, 0)))
        for (size_t i = 0; i < json_array_size(y.v) && !rc; i++)
            rc = class_into(cc, rule_yv_item(cc, y, i), u, s, &cap);
    else rc = read_cps(cc, y, s, &cap);
    cps_normalize(s);
    return rc;
}

static void compile_unicode(struct cc *cc, struct yv top, struct rule_data *d)
{
    struct rule_data_unicode *u = &d->u;
    u->version = xstrdup(json_string_value(json_object_get(top.v, "unicode-version")));
    struct yv classes = rule_yv_member(cc, top, "classes");
    size_t i = 0;
    for (void *it = json_object_iter(classes.v); it;
         it = json_object_iter_next(classes.v, it), i++) {
        struct rule_data_class c = {xstrdup(json_object_iter_key(it)), {NULL, 0}};
        size_t cap = 0;
        struct yv v = {json_object_iter_value(it), doc_node_item(cc->d, classes.n, i)};
        read_cps(cc, v, &c.cps, &cap);
        cps_normalize(&c.cps);
        VEC_PUSH(u->classes, c);
    }
    struct yv seqs = rule_yv_member(cc, top, "sequences");
    i = 0;
    for (void *it = seqs.v ? json_object_iter(seqs.v) : NULL; it;
         it = json_object_iter_next(seqs.v, it), i++) {
        struct rule_data_seq q;
        memset(&q, 0, sizeof q);
        q.name = xstrdup(json_object_iter_key(it));
        struct yv v = {json_object_iter_value(it), doc_node_item(cc->d, seqs.n, i)};
        struct {
            const char *key;
            struct rule_data_cps *set;
            int *has;
        } parts[] = {{"chars", &q.chars, NULL},
                     {"after", &q.after, &q.has_after},
                     {"before", &q.before, &q.has_before},
                     {"next-to", &q.next_to, &q.has_next_to},
                     {"run", &q.run, &q.run_form},
                     {"end", &q.end, NULL}};
        for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
            struct yv m = rule_yv_member(cc, v, parts[k].key);
            if (!m.v) continue;
            if (parts[k].has) *parts[k].has = 1;
            read_set(cc, m, u, parts[k].set);
        }
        json_t *mn = json_object_get(v.v, "min"), *mx = json_object_get(v.v, "max");
        q.min = mn ? (long)json_integer_value(mn) : 1;
        q.max = mx ? (long)json_integer_value(mx) : 0;
        VEC_PUSH(u->seqs, q);
    }
}

/* ---- phrase lists -------------------------------------------------------------------- */

/* The strings of LIST's member KEY as one set (NULL when it has none), or report each
 * phrase that does not parse at its place. The phrases are parsed once, by the set's
 * compile; only when it fails are they parsed one by one to say where. */
static int compile_phrases(struct cc *cc, struct yv list, const char *list_name, const char *key,
                           unsigned flags, struct phrase_set **out)
{
    struct yv m = rule_yv_member(cc, list, key);
    size_t n = json_array_size(m.v);
    *out = NULL;
    if (!n) return 0;
    const char **texts = xcalloc(n, sizeof *texts);
    for (size_t i = 0; i < n; i++) texts[i] = json_string_value(json_array_get(m.v, i));
    char *set_why = NULL;
    *out = phrase_set_compile(texts, n, flags, &set_why);
    int rc = *out ? 0 : -1, bad_phrase = 0;
    for (size_t i = 0; i < n && !*out; i++) {
        char *why = NULL;
        size_t at = 0;
        char *p = phrase_pattern(texts[i], &why, &at);
        if (!p) {
            rule_cc_error_hint(cc, rule_yv_item(cc, m, i).n, 0,
                               "a phrase is words, (a|b) groups, ? after a group, * for any one "
                               "word (rules-yaml/README.md, \"Data files\")",
                               "list \"%s\", %s: \"%s\": %s (at character %zu)", list_name, key,
                               texts[i], why, at + 1);
            free(why);
            bad_phrase = 1;
        }
        free(p);
    }
    if (!*out && !bad_phrase)
        rule_cc_error_hint(cc, m.n, 1, hint_data, "list \"%s\", %s: %s", list_name, key, set_why);
    free(set_why);
    free(texts);
    return rc;
}

static void compile_lists(struct cc *cc, struct yv top, struct rule_data *d)
{
    struct yv lists = rule_yv_member(cc, top, "lists");
    size_t i = 0;
    for (void *it = json_object_iter(lists.v); it; it = json_object_iter_next(lists.v, it), i++) {
        struct yv v = {json_object_iter_value(it), doc_node_item(cc->d, lists.n, i)};
        struct rule_data_list l;
        memset(&l, 0, sizeof l);
        l.name = xstrdup(json_object_iter_key(it));
        l.node = v.n;
        l.v = v.v;
        json_t *fold = json_object_get(v.v, "fold"), *f;
        size_t k;
        l.fold = fold ? 0 : PHRASE_FOLD_CASE | PHRASE_FOLD_SPACE | PHRASE_FOLD_ZW;
        json_array_foreach(fold, k, f)
        {
            const char *s = json_string_value(f);
            l.fold |= !strcmp(s, "case")   ? PHRASE_FOLD_CASE
                : !strcmp(s, "whitespace") ? PHRASE_FOLD_SPACE
                                           : PHRASE_FOLD_ZW;
        }
        if (!json_is_false(json_object_get(v.v, "words"))) l.fold |= PHRASE_WORDS;
        compile_phrases(cc, v, l.name, "phrases", l.fold, &l.phrases);
        compile_phrases(cc, v, l.name, "allow", l.fold, &l.allow);
        VEC_PUSH(d->p.lists, l);
    }
}

/* ---- loading ----------------------------------------------------------------------- */

/* Validate the data file D (a mapping with a known kind, K) against its schema; report the
 * deepest failure at its place. 0 when valid. */
/* The kinds' schemas, compiled once per process: a JSON Schema context costs more to set
 * up (its meta-schemas) than a data file costs to validate, and every set with data files
 * (and every load of one, in the editor) would pay it again. Kept to the end, with the
 * context and the documents they were compiled from; NULL when one did not compile. */
static schema *data_schemas[2];
static pthread_once_t data_schemas_once = PTHREAD_ONCE_INIT;

static void compile_data_schemas(void)
{
    static schema_ctx *ctx;
    static json_t *roots[2];
    ctx = schema_ctx_new(NULL);
    for (size_t k = 0; k < 2; k++) {
        json_error_t jerr;
        roots[k] =
            json_loads(k == 0 ? rule_data_schema_unicode : rule_data_schema_phrases, 0, &jerr);
        struct schema_errors errs = SCHEMA_ERRORS_INIT;
        schema *s = roots[k]
            ? schema_compile(ctx, roots[k], kinds[k].schema_file, SCHEMA_DRAFT2020_12, &errs)
            : NULL;
        if (s && errs.len) { /* the embedded schemas compile cleanly: the golden tests say so */
            schema_free(s);
            s = NULL;
        }
        data_schemas[k] = s;
        schema_errors_release(&errs);
    }
}

static int validate(struct cc *cc, size_t k)
{
    pthread_once(&data_schemas_once, compile_data_schemas);
    const schema *s = data_schemas[k];
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    int rc = 0;
    if (!s) {
        rule_cc_error(cc, 0, 0, "internal: %s does not compile", kinds[k].schema_file);
        rc = -1;
    } else if (schema_validate(s, doc_root(cc->d), &errs) != 0 && errs.len) {
        size_t best = 0; /* the deepest place: the most precise message */
        for (size_t i = 1; i < errs.len; i++)
            if (strlen(errs.items[i].instance_location) >
                strlen(errs.items[best].instance_location))
                best = i;
        struct doc_pos v = {1, 1}, key = {1, 1};
        doc_pointer_pos(cc->d, errs.items[best].instance_location, &v, &key);
        const struct schema_error *e = &errs.items[best];
        rule_cc_set_error(cc->errs, doc_name(cc->d), v.line, v.col,
                          "the data file does not match %s: %s%s%s", kinds[k].schema_file,
                          *e->instance_location ? "at " : "", e->instance_location,
                          *e->instance_location ? ", " : "");
        struct diag *dg = &cc->errs->items[cc->errs->len - 1];
        char *msg = xasprintf("%s%s", dg->message, e->message);
        free(dg->message);
        dg->message = msg;
        free(dg->hint);
        dg->hint = xstrdup(hint_data);
        rc = -1;
    } else if (errs.len) {
        rc = -1;
    }
    schema_errors_release(&errs);
    return rc;
}

/* Does the data file (its text's sha256 TEXT_HEX) match kind K's schema? A text that
 * matched before is not validated again: the schemas' setup and a validation were a
 * quarter of the security set's data load (rule_cache.h, rule_cache_data_valid). */
static int data_matches(struct cc *cc, size_t k, const char text_hex[65])
{
    if (rule_cache_data_valid(kinds[k].kind, text_hex)) return 1;
    if (validate(cc, k) != 0) return 0;
    rule_cache_data_valid_put(kinds[k].kind, text_hex);
    return 1;
}

/* PATH (relative to the manifest) with empty and "." segments dropped; NULL for an
 * absolute path or one with a ".." segment (a data file lies in the set's directory). */
static char *plain_path(const char *path)
{
    if (!*path || *path == '/') return NULL;
    struct buf out = BUF_INIT;
    for (const char *p = path; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        if (n == 2 && !strncmp(p, "..", 2)) {
            buf_release(&out);
            return NULL;
        }
        if (n && !(n == 1 && *p == '.')) buf_addf(&out, "%s%.*s", out.len ? "/" : "", (int)n, p);
        p += n;
    }
    if (!out.len) {
        buf_release(&out);
        return NULL;
    }
    return buf_detach(&out);
}

/* Read, validate and compile the data file NAME at PATH (AT: its place in the manifest). */
static void load_one(struct cc *cc, const char *name, struct yv at)
{
    struct rule_set *rs = cc->rs;
    const char *given = json_string_value(at.v);
    char *rel = given ? plain_path(given) : NULL;
    if (!rel) {
        rule_cc_error_hint(cc, at.n, 0,
                           "write the data file's path relative to the manifest, inside the "
                           "set's directory: data: {unicode: unicode.yaml}",
                           "data: \"%s\" is not a path inside the rule set's directory",
                           given ? given : rule_json_type_name(at.v));
        return;
    }
    char *full = xasprintf("%s/%s", rs->dir, rel);
    struct doc_error derr;
    char text_hex[65] = "";
    doc *d = doc_load_file_cached(full, NULL, &derr, text_hex);
    if (!d && !derr.line) /* not there, not readable: where the manifest names it */
        rule_cc_error_hint(cc, at.n, 0,
                           "write the path of the data file relative to the manifest, or add "
                           "the file",
                           "data file \"%s\" (%s): %s", name, rel, derr.message);
    else if (!d)
        rule_cc_set_error(cc->errs, full, derr.line, derr.col, "data file \"%s\": %s", name,
                          derr.message);
    if (!d) {
        doc_error_release(&derr);
        free(full);
        free(rel);
        return;
    }
    free(full);
    struct cc dc = {d, rs, cc->errs, NULL, 0};
    struct yv top = {doc_root(d), 0};
    struct yv kind = rule_yv_member(&dc, top, "kind");
    size_t k = 0;
    while (k < sizeof kinds / sizeof *kinds &&
           !(json_is_string(kind.v) && !strcmp(json_string_value(kind.v), kinds[k].kind)))
        k++;
    size_t before = cc->errs->len;
    if (k == sizeof kinds / sizeof *kinds) {
        rule_cc_error_hint(&dc, kind.v ? kind.n : 0, 0, hint_data,
                           "a data file begins with kind: unicode-classes or kind: phrase-lists");
    } else if (data_matches(&dc, k, text_hex)) {
        struct rule_data *rd = xcalloc(1, sizeof *rd);
        rd->name = xstrdup(name);
        rd->path = rel;
        rel = NULL;
        rd->kind = k == 0 ? RULE_DATA_UNICODE : RULE_DATA_PHRASES;
        rd->d = d;
        d = NULL;
        if (rd->kind == RULE_DATA_UNICODE) compile_unicode(&dc, top, rd);
        else compile_lists(&dc, top, rd);
        if (cc->errs->len == before) VEC_PUSH(rs->data, rd);
        else rule_data_free(rd);
    }
    doc_free(d);
    free(rel);
}

void rule_data_load(struct cc *cc, struct yv y)
{
    if (!y.v) return;
    if (!json_is_object(y.v)) {
        rule_cc_error_hint(cc, y.n, 0, "write data: {NAME: PATH, ...}",
                           "\"data\" maps names to data files, not a %s", rule_json_type_name(y.v));
        return;
    }
    size_t i = 0;
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it), i++) {
        const char *name = json_object_iter_key(it);
        struct yv at = {json_object_iter_value(it), doc_node_item(cc->d, y.n, i)};
        int ok = *name >= 'a' && *name <= 'z';
        for (const char *p = name; *p; p++)
            ok &= (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-';
        if (!ok) {
            rule_cc_error_hint(cc, at.n, 1, "write lowercase letters, digits and -",
                               "data: \"%s\" is not a data file name", name);
            continue;
        }
        load_one(cc, name, at);
    }
}

/* ---- rules lint ---------------------------------------------------------------------- */

/* Does LIST find something in TEXT? */
static int list_finds(const struct rule_data_list *l, const char *text)
{
    struct phrase_text t;
    phrase_fold(text, strlen(text), l->fold, &t);
    size_t b, e;
    int hit = phrase_find(l->phrases, l->allow, &t, 0, &b, &e);
    phrase_text_release(&t);
    return hit;
}

size_t rule_data_lint(const struct rule_set *rs, struct diag_list *errs)
{
    size_t before = errs->len;
    for (size_t f = 0; f < rs->data.len; f++) {
        const struct rule_data *d = rs->data.items[f];
        if (d->kind != RULE_DATA_PHRASES) continue;
        struct cc cc = {d->d, (struct rule_set *)rs, errs, NULL, 0};
        for (size_t i = 0; i < d->p.lists.len; i++) {
            const struct rule_data_list *l = &d->p.lists.items[i];
            struct yv list = {l->v, l->node};
            static const char *const members[] = {"examples", "counter-examples"};
            for (int which = 0; which < 2; which++) {
                struct yv m = rule_yv_member(&cc, list, members[which]);
                for (size_t k = 0; k < json_array_size(m.v); k++) {
                    struct yv e = rule_yv_item(&cc, m, k);
                    if (list_finds(l, json_string_value(e.v)) == !which) continue;
                    rule_cc_error_hint(
                        &cc, e.n, 0,
                        which ? "narrow the phrase that finds it, or add an allow: phrase"
                              : "add a phrase that finds it, or correct the example",
                        which ? "list \"%s\" finds its counter-example \"%s\""
                              : "list \"%s\" does not find its example \"%s\"",
                        l->name, json_string_value(e.v));
                }
            }
            struct yv ph = rule_yv_member(&cc, list, "phrases");
            for (size_t k = 0; k < json_array_size(ph.v); k++)
                for (size_t j = 0; j < k; j++)
                    if (!strcmp(json_string_value(json_array_get(ph.v, j)),
                                json_string_value(json_array_get(ph.v, k)))) {
                        struct doc_pos p = doc_node_pos(d->d, rule_yv_item(&cc, ph, j).n);
                        rule_cc_error_hint(&cc, rule_yv_item(&cc, ph, k).n, 0, "remove one of them",
                                           "list \"%s\" names the phrase \"%s\" twice (first at "
                                           "line %u)",
                                           l->name, json_string_value(json_array_get(ph.v, k)),
                                           p.line);
                        break;
                    }
        }
    }
    return errs->len - before;
}
