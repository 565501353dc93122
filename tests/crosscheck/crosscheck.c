/* crosscheck.c - the project's per-version MCP types (schema/mcp/VERSION/NAME.json) against
 * the official schema.json of each version (issue 4, point 3), with the project's own
 * JSON Schema engine; and the wrapper that turns the official examples into MCP
 * Descriptions for `mcpdesc validate` (issue 4, point 4; official-examples.sh).
 *
 *   crosscheck types [-v] SCHEMA-DIR ALLOW-LIST README FIXTURE-DIR[:DIR...] SAMPLE-DIR DATA-DIR...
 *   crosscheck wrap-examples OUT-DIR DATA-DIR...
 *
 * DATA-DIR holds <version>/schema.json and <version>/examples/ (the first candidate that
 * holds a schema.json is used; none: SKIP, exit 0). `types` checks the house rules of our
 * files and that `format` sits at the same places on both sides, then validates on both
 * sides and compares validity for: the native projection (docs/format.md 2.2:
 * components resolved, `protocolVersions` removed) of every item of every fixture, for
 * each of its effective versions (every *.json below each FIXTURE-DIR); every official example item and every item of
 * SAMPLE-DIR/NAME.json, for every version; and the mutants of the examples and of the
 * samples marked "x-mutate". A disagreement passes only when ALLOW-LIST has its
 * (version, type, source) line with a reason id that README documents (D1 and D2 are
 * also checked mechanically); a listed line that no longer occurs fails. -v prints every
 * listed occurrence. */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../testskip.h"
#include "base/buf.h"
#include "base/val.h"
#include "base/diag.h"
#include "doc/doc.h"
#include "resolve/res.h"
#include "schema/schema.h"
#include "resolve/sel.h"
#include "base/util.h"
#include "base/ver.h"

/* The item types an MCP Description holds, where they sit, and both sides' names. */
static const struct type_info {
    const char *member;   /* collection or top-level member of a description */
    int collection;       /* 1: an array of items (per-item versions), 0: one object */
    const char *type;     /* official definition name, also the examples/ folder name */
    const char *file;     /* our file in schema/mcp/<version>/ */
    const char *cap;      /* the ServerCapabilities member a list of them needs */
} TYPES[] = {
    {"tools", 1, "Tool", "tool.json", "tools"},
    {"resources", 1, "Resource", "resource.json", "resources"},
    {"resourceTemplates", 1, "ResourceTemplate", "resource-template.json", "resources"},
    {"prompts", 1, "Prompt", "prompt.json", "prompts"},
    {"serverInfo", 0, "Implementation", "implementation.json", NULL},
    {"capabilities", 0, "ServerCapabilities", "server-capabilities.json", NULL},
};
#define NTYPES (sizeof TYPES / sizeof TYPES[0])

/* Document shape of docs/format.md sections 2 and 3 (as rules-yaml/manifest.yaml). */
static const char *const COLLECTIONS[] = {"tools", "resources", "resourceTemplates", "prompts"};
#define NCOLLECTIONS (sizeof COLLECTIONS / sizeof COLLECTIONS[0])
static const char *const SCOPES[] = {"/tools/*/inputSchema", "/tools/*/outputSchema",
                                     "/components/schemas/*"};
#define NSCOPES (sizeof SCOPES / sizeof SCOPES[0])

#define OURS_PREFIX "https://mcpdesc.dev/schema/mcp/"
#define OFFICIAL_PREFIX "https://mcp-official.invalid/schema/" /* registered, never fetched */

struct allow {
    char *version, *type, *source, *reason;
    unsigned line;
    size_t hits;
};

struct vcount {
    size_t compared, agree, agree_invalid, listed, unlisted;
};

struct run {
    struct ver_list vers;           /* versions with a directory in SCHEMA-DIR */
    ver_mask data_mask;             /* ... and an official schema.json */
    const char *data;               /* the official data folder used */
    schema *ours[VER_MAX][NTYPES];  /* NULL where a side lacks the type */
    schema *official[VER_MAX][NTYPES];
    int present[VER_MAX][NTYPES];   /* bit 0: ours has it, bit 1: official has it */
    struct vcount counts[VER_MAX];
    VEC(struct allow) allow;
    const char *allow_path;
    json_t *fillers;                /* values mutants put in place of others */
    json_t *names[NTYPES];          /* member names either side knows, per type (object) */
    size_t fixtures, mutants;
    size_t failed;
    int verbose;
};

/* ---- files and folders ---- */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef VEC(char *) strvec;

/* Sorted entries of DIR: subdirectories (dirs=1) or *.json files (dirs=0). */
static strvec list_dir(const char *dir, int dirs)
{
    strvec v = VEC_INIT;
    DIR *d = opendir(dir);
    if (!d) return v;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (dirs ? is_dir(p) : (n > 5 && !strcmp(e->d_name + n - 5, ".json") && is_file(p)))
            VEC_PUSH(v, xstrdup(e->d_name));
        free(p);
    }
    closedir(d);
    if (v.len) qsort(v.items, v.len, sizeof *v.items, cmpstr);
    return v;
}

static void strvec_free(strvec *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->items[i]);
    VEC_FREE(*v);
}

/* "2025-06-18": the shape of a protocol version folder. */
static int is_version_name(const char *s)
{
    static const char shape[] = "dddd-dd-dd";
    for (size_t i = 0; i < sizeof shape - 1; i++)
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != '-') return 0;
    return s[sizeof shape - 1] == '\0';
}

/* The first DATA-DIR candidate that holds at least one <version>/schema.json. */
static const char *find_data(char **cands, int n)
{
    for (int i = 0; i < n; i++) {
        strvec sub = list_dir(cands[i], 1);
        int found = 0;
        for (size_t k = 0; k < sub.len && !found; k++) {
            char *p = xasprintf("%s/%s/schema.json", cands[i], sub.items[k]);
            found = is_version_name(sub.items[k]) && is_file(p);
            free(p);
        }
        strvec_free(&sub);
        if (found) return cands[i];
    }
    return NULL;
}

static json_t *load_json(const char *path)
{
    json_error_t jerr;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!j) fprintf(stderr, "%s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
    return j;
}

/* ---- compiling both sides ---- */

static void print_errors(const char *what, const struct schema_errors *e)
{
    for (size_t i = 0; i < e->len; i++)
        fprintf(stderr, "crosscheck: %s: %s (%s, at %s)\n", what, e->items[i].message,
                e->items[i].keyword_location, e->items[i].instance_location);
}

/* A 2020-12 schema that is just {"$ref": REF}: REF may point inside a document. */
static schema *compile_ref(schema_ctx *ctx, const char *ref)
{
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    json_t *w = json_pack("{s:s}", "$ref", ref);
    schema *s = schema_compile(ctx, w, "urn:mcpdesc:crosscheck", SCHEMA_DRAFT2020_12, &errs);
    if (!s) print_errors(ref, &errs);
    schema_errors_release(&errs);
    json_decref(w);
    return s;
}

/* The official definition's container: "$defs" (2020-12 files) or "definitions" (draft-07). */
static const char *defs_member(json_t *official, const char *type)
{
    if (json_object_get(json_object_get(official, "$defs"), type)) return "$defs";
    if (json_object_get(json_object_get(official, "definitions"), type)) return "definitions";
    return NULL;
}

/* Compile both sides of every type of version VI. -1 when a side fails to compile. */
static int compile_version(struct run *rn, schema_ctx *ctx, const char *schema_dir, size_t vi)
{
    const char *v = rn->vers.names[vi];
    char *path = xasprintf("%s/%s/schema.json", rn->data, v);
    json_t *official = load_json(path);
    free(path);
    if (!official) return -1;
    char *uri = xasprintf(OFFICIAL_PREFIX "%s/schema.json", v);
    schema_ctx_add_document(ctx, uri, official);
    int rc = 0;
    for (size_t t = 0; t < NTYPES && rc == 0; t++) {
        char *ours_path = xasprintf("%s/%s/%s", schema_dir, v, TYPES[t].file);
        const char *defs = defs_member(official, TYPES[t].type);
        rn->present[vi][t] = is_file(ours_path) | (defs ? 2 : 0);
        if (rn->present[vi][t] & 1) {
            char *ref = xasprintf(OURS_PREFIX "%s/%s", v, TYPES[t].file);
            if (!(rn->ours[vi][t] = compile_ref(ctx, ref))) rc = -1;
            free(ref);
        }
        if (defs) {
            char *ref = xasprintf("%s#/%s/%s", uri, defs, TYPES[t].type);
            if (!(rn->official[vi][t] = compile_ref(ctx, ref))) rc = -1;
            free(ref);
        }
        free(ours_path);
    }
    free(uri);
    json_decref(official);
    return rc;
}

/* Versions: the folders of SCHEMA-DIR; an official version we have no folder for fails. */
static int load_versions(struct run *rn, const char *schema_dir)
{
    strvec sub = list_dir(schema_dir, 1);
    for (size_t i = 0; i < sub.len; i++)
        if (is_version_name(sub.items[i]) && rn->vers.n < VER_MAX)
            rn->vers.names[rn->vers.n++] = xstrdup(sub.items[i]);
    strvec_free(&sub);
    sub = list_dir(rn->data, 1);
    for (size_t i = 0; i < sub.len; i++) {
        char *p = xasprintf("%s/%s/schema.json", rn->data, sub.items[i]);
        if (is_version_name(sub.items[i]) && is_file(p)) {
            int vi = ver_index(&rn->vers, sub.items[i]);
            if (vi < 0) {
                printf("FAIL %s: official schema.json, but no %s/%s/ folder of ours\n",
                       sub.items[i], schema_dir, sub.items[i]);
                rn->failed++;
            } else {
                rn->data_mask |= (ver_mask)1 << vi;
            }
        }
        free(p);
    }
    strvec_free(&sub);
    return rn->vers.n ? 0 : -1;
}

/* ---- the allow-list ---- */

/* README documents reason ID as a bold heading "**ID — ...". */
static int reason_documented(const char *readme, const char *id)
{
    char *needle = xasprintf("**%s \xe2\x80\x94 ", id);
    int ok = strstr(readme, needle) != NULL;
    free(needle);
    return ok;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct buf b = BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    return buf_detach(&b);
}

/* One line "VERSION TYPE SOURCE REASON-ID [words...]"; # starts a comment. -1 malformed. */
static int parse_allow_line(struct run *rn, char *line, unsigned lineno, const char *readme)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *f[4]; /* words after the reason id are free text */
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && n < 4; tok = strtok(NULL, " \t\r\n"))
        f[n++] = tok;
    if (n == 0) return 0;
    const char *why = NULL;
    if (n < 4) why = "expected VERSION TYPE SOURCE REASON-ID";
    else if (ver_index(&rn->vers, f[0]) < 0) why = "unknown version";
    else {
        size_t t = 0;
        while (t < NTYPES && strcmp(TYPES[t].type, f[1])) t++;
        if (t == NTYPES) why = "unknown type (Tool, Resource, ResourceTemplate, Prompt, Implementation, ServerCapabilities)";
    }
    char *id = n == 4 ? xstrdup(f[3]) : NULL;
    if (!why && !reason_documented(readme, id))
        why = "reason id is not documented in schema/mcp/README.md (a heading \"**ID \xe2\x80\x94 ...\")";
    for (size_t i = 0; !why && i < rn->allow.len; i++)
        if (!strcmp(rn->allow.items[i].version, f[0]) && !strcmp(rn->allow.items[i].type, f[1]) &&
            !strcmp(rn->allow.items[i].source, f[2]))
            why = "listed twice";
    if (why) {
        printf("FAIL %s:%u: %s\n", rn->allow_path, lineno, why);
        free(id);
        return -1;
    }
    struct allow a = {xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), id, lineno, 0};
    VEC_PUSH(rn->allow, a);
    return 0;
}

static int load_allow(struct run *rn, const char *readme_path)
{
    char *text = slurp(rn->allow_path), *readme = slurp(readme_path);
    int rc = 0;
    if (!text || !readme) {
        fprintf(stderr, "crosscheck: cannot read %s: %s\n", text ? readme_path : rn->allow_path,
                strerror(errno));
        rc = -1;
    }
    unsigned lineno = 0;
    for (char *p = text, *nl; rc == 0 && p && *p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        if (parse_allow_line(rn, p, ++lineno, readme) < 0) rn->failed++;
    }
    free(text);
    free(readme);
    return rc;
}

static struct allow *find_allow(struct run *rn, const char *v, const char *type, const char *src)
{
    for (size_t i = 0; i < rn->allow.len; i++) {
        struct allow *a = &rn->allow.items[i];
        if (!strcmp(a->version, v) && !strcmp(a->type, type) && !strcmp(a->source, src)) return a;
    }
    return NULL;
}

/* ---- comparing ---- */

static void print_first_error(const char *side, const schema *s, json_t *value)
{
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema_validate(s, value, &errs);
    if (errs.len)
        printf("     %-8s %s at \"%s\" (%s)\n", side, errs.items[0].message,
               errs.items[0].instance_location, errs.items[0].keyword_location);
    schema_errors_release(&errs);
}

/* ---- documented differences, checked: removing the construct must make both agree ---- */

static int non_integer_number(json_t *x)
{
    return json_is_real(x) && !val_is_integer(x);
}

/* D2: a copy of V without nulls (members and items dropped) and with fractional numbers
 * set to 0. New reference. */
static json_t *without_null_and_fractions(json_t *v)
{
    if (json_is_object(v)) {
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
            if (!json_is_null(x)) json_object_set_new(o, k, without_null_and_fractions(x));
        return o;
    }
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
            if (!json_is_null(x)) json_array_append_new(a, without_null_and_fractions(x));
        return a;
    }
    return non_integer_number(v) ? json_integer(0) : json_incref(v);
}

/* VALUE with the construct of documented difference ID neutralised (new reference), or
 * NULL when ID has no mechanical check or does not apply to type T. */
static json_t *neutralise(const char *id, size_t t, json_t *value)
{
    if (!strcmp(id, "D1") && !strcmp(TYPES[t].type, "Resource") &&
        non_integer_number(json_object_get(value, "size"))) {
        json_t *c = json_copy(value);
        json_object_set_new(c, "size", json_integer(0));
        return c;
    }
    if (!strcmp(id, "D2") && !strcmp(TYPES[t].type, "ServerCapabilities"))
        return without_null_and_fractions(value);
    return NULL;
}

/* Does listed reason AL explain the disagreement (ours A, official B) on VALUE? D1 and D2
 * say ours accepts what the official definition rejects; other ids are taken as listed. */
static int explained(struct run *rn, size_t vi, size_t t, const struct allow *al, json_t *value,
                     int a, int b)
{
    int checked = !strcmp(al->reason, "D1") || !strcmp(al->reason, "D2");
    if (!checked) return 1;
    json_t *n = a == 0 && b == 1 ? neutralise(al->reason, t, value) : NULL;
    int ok = n && schema_validate(rn->ours[vi][t], n, NULL) == schema_validate(rn->official[vi][t], n, NULL);
    json_decref(n);
    return ok;
}

static const char *verdict(int rc)
{
    return rc == 0 ? "valid" : rc == 1 ? "invalid" : "stopped by a bound";
}

/* Judge VALUE (a native projection) as type T of version VI on both sides. */
static void compare(struct run *rn, size_t vi, size_t t, const char *src, const char *ptr,
                    json_t *value)
{
    const char *v = rn->vers.names[vi];
    struct vcount *c = &rn->counts[vi];
    c->compared++;
    if (rn->present[vi][t] != 3) {
        c->unlisted++;
        rn->failed++;
        printf("FAIL %s %s %s#%s: the type exists only in the %s schema\n", v, TYPES[t].type,
               src, ptr, rn->present[vi][t] & 1 ? "project's" : "official");
        return;
    }
    int a = schema_validate(rn->ours[vi][t], value, NULL);
    int b = schema_validate(rn->official[vi][t], value, NULL);
    if (a == b && a >= 0) {
        c->agree++;
        c->agree_invalid += a == 1;
        return;
    }
    struct allow *al = a >= 0 && b >= 0 ? find_allow(rn, v, TYPES[t].type, src) : NULL;
    if (al && !explained(rn, vi, t, al, value, a, b)) {
        printf("FAIL %s %s %s#%s: listed as %s (%s:%u), but removing that construct does not "
               "make both sides agree\n", v, TYPES[t].type, src, ptr, al->reason, rn->allow_path,
               al->line);
        al->hits++; /* it occurs; it is just not what the line says */
        al = NULL;
    } else if (al) {
        al->hits++;
        c->listed++;
        if (rn->verbose)
            printf("listed %s %s %s#%s: ours %s, official %s (%s)\n", v, TYPES[t].type, src,
                   ptr, verdict(a), verdict(b), al->reason);
        return;
    }
    c->unlisted++;
    rn->failed++;
    printf("FAIL %s %s %s#%s: ours %s, official %s\n", v, TYPES[t].type, src, ptr, verdict(a),
           verdict(b));
    print_first_error("ours:", rn->ours[vi][t], value);
    print_first_error("official:", rn->official[vi][t], value);
}

/* The native projection: the item without its description-only member. New reference. */
static json_t *project(json_t *item)
{
    if (!json_is_object(item)) return json_incref(item);
    json_t *p = json_copy(item);
    json_object_del(p, "protocolVersions");
    return p;
}

static void compare_versions(struct run *rn, ver_mask m, size_t t, const char *src,
                             const char *ptr, json_t *item)
{
    json_t *p = project(item);
    for (size_t vi = 0; vi < rn->vers.n; vi++)
        if (m & rn->data_mask & ((ver_mask)1 << vi)) compare(rn, vi, t, src, ptr, p);
    json_decref(p);
}

/* ---- samples: conformance fixtures ---- */

struct doc_shape {
    struct res_config cfg;
    struct sel *scopes[NSCOPES];
    char *collections[NCOLLECTIONS];
};

static void shape_init(struct doc_shape *s, const struct ver_list *vers)
{
    for (size_t i = 0; i < NSCOPES; i++) {
        const char *why = NULL;
        if (!(s->scopes[i] = sel_compile(SCOPES[i], &why))) BUG("bad scope selector");
    }
    for (size_t i = 0; i < NCOLLECTIONS; i++) s->collections[i] = xstrdup(COLLECTIONS[i]);
    s->cfg = (struct res_config){vers,      "protocolVersions", s->collections, NCOLLECTIONS,
                                 s->scopes, NSCOPES,            "$componentRef",
                                 "/components/schemas/"};
}

static void shape_release(struct doc_shape *s)
{
    for (size_t i = 0; i < NSCOPES; i++) sel_free(s->scopes[i]);
    for (size_t i = 0; i < NCOLLECTIONS; i++) free(s->collections[i]);
}

static void fixture(struct run *rn, const struct doc_shape *shape, const char *path)
{
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    if (!d) {
        printf("FAIL %s:%u:%u: %s\n", path, err.line, err.col, err.message);
        doc_error_release(&err);
        rn->failed++;
        return;
    }
    rn->fixtures++;
    struct diag_list ignored = DIAG_LIST_INIT; /* the fixture's own business */
    struct res *r = res_resolve(d, &shape->cfg, &ignored);
    diag_list_release(&ignored);
    json_t *root = doc_root(d);
    for (size_t t = 0; t < NTYPES && json_is_object(root); t++) {
        json_t *m = json_object_get(root, TYPES[t].member);
        if (!m) continue;
        if (!TYPES[t].collection) {
            char *ptr = xasprintf("/%s", TYPES[t].member);
            compare_versions(rn, res_view(r)->doc_mask, t, path, ptr, m);
            free(ptr);
            continue;
        }
        int coll = view_collection(res_view(r), TYPES[t].member);
        size_t i;
        json_t *item;
        json_array_foreach(m, i, item) {
            char *ptr = xasprintf("/%s/%zu", TYPES[t].member, i);
            compare_versions(rn, view_item_mask(res_view(r), coll, i), t, path, ptr, item);
            free(ptr);
        }
    }
    res_free(r);
    doc_free(d);
}

static void fixture_tree(struct run *rn, const struct doc_shape *shape, const char *dir)
{
    strvec files = list_dir(dir, 0), subs = list_dir(dir, 1);
    for (size_t i = 0; i < files.len; i++) {
        char *p = xasprintf("%s/%s", dir, files.items[i]);
        fixture(rn, shape, p);
        free(p);
    }
    for (size_t i = 0; i < subs.len; i++) {
        char *p = xasprintf("%s/%s", dir, subs.items[i]);
        fixture_tree(rn, shape, p);
        free(p);
    }
    strvec_free(&files);
    strvec_free(&subs);
}

/* Every fixture below each folder of LIST ("DIR[:DIR...]"). */
static void fixture_roots(struct run *rn, const struct doc_shape *shape, const char *list)
{
    for (const char *f = list; *f;) {
        size_t n = strcspn(f, ":");
        char *dir = xstrndup(f, n);
        fixture_tree(rn, shape, dir);
        free(dir);
        f += n + (f[n] == ':');
    }
}

/* ---- samples: official examples ---- */

/* examples/<Type>/ holds one item; examples/List<Type>sResult/ a page of them.
 * Returns the TYPES index and sets *list; -1 when the folder holds no item type. */
static int example_kind(const char *folder, int *list)
{
    for (size_t t = 0; t < NTYPES; t++) {
        char *page = xasprintf("List%ssResult", TYPES[t].type);
        *list = !strcmp(folder, page);
        free(page);
        if (*list || !strcmp(folder, TYPES[t].type)) return (int)t;
    }
    return -1;
}

typedef void (*example_fn)(void *arg, const char *version, const char *src, size_t t,
                           int list, json_t *ex);

/* Calls FN for every example file of every version folder of DATA. Returns the count. */
static size_t each_example(const char *data, example_fn fn, void *arg)
{
    size_t n = 0;
    strvec vers = list_dir(data, 1);
    for (size_t vi = 0; vi < vers.len; vi++) {
        char *exdir = xasprintf("%s/%s/examples", data, vers.items[vi]);
        strvec kinds = list_dir(exdir, 1);
        for (size_t k = 0; k < kinds.len; k++) {
            int list;
            int t = example_kind(kinds.items[k], &list);
            char *kdir = xasprintf("%s/%s", exdir, kinds.items[k]);
            strvec files = list_dir(kdir, 0);
            if (t < 0 && files.len)
                printf("note: %s/: %zu example(s) of a type that descriptions do not hold, "
                       "not read\n", kdir, files.len);
            for (size_t f = 0; t >= 0 && f < files.len; f++) {
                char *path = xasprintf("%s/%s", kdir, files.items[f]);
                char *src = xasprintf("%s/examples/%s/%s", vers.items[vi], kinds.items[k],
                                      files.items[f]);
                json_t *ex = load_json(path);
                if (ex) fn(arg, vers.items[vi], src, (size_t)t, list, ex);
                n += ex != NULL;
                json_decref(ex);
                free(src);
                free(path);
            }
            strvec_free(&files);
            free(kdir);
        }
        strvec_free(&kinds);
        free(exdir);
    }
    strvec_free(&vers);
    return n;
}

static void mutate_item(struct run *rn, size_t t, const char *src, const char *ptr, json_t *item);

/* An official example is judged for every version (they are all 2026-07-28 objects today,
 * and older types must agree on them too). */
static void compare_example(void *arg, const char *version, const char *src, size_t t, int list,
                            json_t *ex)
{
    struct run *rn = arg;
    ver_mask all = ver_all(&rn->vers);
    if (!list) {
        compare_versions(rn, all, t, src, "", ex);
        mutate_item(rn, t, src, "", ex);
        return;
    }
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(ex, TYPES[t].member), i, item) {
        char *ptr = xasprintf("/%s/%zu", TYPES[t].member, i);
        compare_versions(rn, all, t, src, ptr, item);
        mutate_item(rn, t, src, ptr, item);
        free(ptr);
    }
}

/* ---- samples: our own (tests/crosscheck/samples/) ---- */

/* FILE is {"<Type>": [item, ...], ...}: each item judged for every version, and with
 * "x-mutate": true its mutants too. */
static void sample_file(struct run *rn, const char *path);

/* ---- mutants ---- */

/* Values a mutant puts in place of another, before the enum/const values of both sides. */
static const char *const FILLERS =
    "[null, true, false, 0, 1, -1, 0.5, 1.5, 2, \"\", \"x\", \"object\", "
    "\"https://example.com/a\", \"not a uri\", \"file:///{p\", [], [\"x\"], [1], {}, "
    "{\"type\": \"object\"}, {\"a\": null}, {\"a\": 0.5}, "
    "\"auto\", \"system\", \"always\", \"OBJECT\", \"user \", \"public\"]";

static void add_filler(json_t *fillers, json_t *v)
{
    size_t i;
    json_t *x;
    json_array_foreach(fillers, i, x)
        if (json_equal(x, v)) return;
    json_array_append(fillers, v);
}

/* What a schema declares: member names under `properties` (NAMES, down to DEPTH 3) and
 * enum/const values (FILLERS), following $ref into the same document ("#/...") or a
 * sibling file of DIR ("icon.json"), and where `format` applies (FORMATS). SEEN (by
 * document name, reference and instance path) stops cycles. */
struct collect {
    json_t *names, *fillers, *seen;
    json_t *formats;   /* "PATH FORMAT" for every `format` met (PATH: /icons/any/src) */
    const char *dir;
};

struct schema_doc {
    json_t *root;
    const char *name;
};

static void collect(struct collect *c, const struct schema_doc *d, json_t *node, const char *path,
                    int depth);

static void collect_ref(struct collect *c, const struct schema_doc *d, const char *ref,
                        const char *path, int depth)
{
    int local = ref[0] == '#';
    char *key = xasprintf("%s %s %s", local ? d->name : "", ref, path);
    int seen = json_object_get(c->seen, key) != NULL;
    json_object_set_new(c->seen, key, json_true());
    free(key);
    if (seen) return;
    if (local && ref[1] == '/') {
        const char *slash = strchr(ref + 2, '/');
        if (!slash) return;
        char *defs = xstrndup(ref + 2, (size_t)(slash - ref - 2));
        collect(c, d, json_object_get(json_object_get(d->root, defs), slash + 1), path, depth);
        free(defs);
    } else if (!local && c->dir && !strchr(ref, '/') && !strchr(ref, '#')) {
        char *file = xasprintf("%s/%s", c->dir, ref);
        struct schema_doc other = {load_json(file), ref};
        free(file);
        if (other.root) collect(c, &other, other.root, path, depth);
        json_decref(other.root);
    }
}

static void collect(struct collect *c, const struct schema_doc *d, json_t *node, const char *path,
                    int depth)
{
    if (!json_is_object(node) || depth > 3) return;
    json_t *e = json_object_get(node, "enum"), *x;
    size_t i;
    json_array_foreach(e, i, x) add_filler(c->fillers, x);
    if (json_object_get(node, "const")) add_filler(c->fillers, json_object_get(node, "const"));
    json_t *fmt = json_object_get(node, "format");
    if (json_is_string(fmt)) {
        char *key = xasprintf("%s %s", path[0] ? path : "/", json_string_value(fmt));
        json_object_set_new(c->formats, key, json_true());
        free(key);
    }
    const char *k;
    json_object_foreach(json_object_get(node, "properties"), k, x) {
        json_object_set_new(c->names, k, json_true());
        char *sub = xasprintf("%s/%s", path, k);
        collect(c, d, x, sub, depth + 1);
        free(sub);
    }
    char *any = xasprintf("%s/any", path);
    static const char *const subs[] = {"items", "additionalProperties"};
    for (size_t s = 0; s < 2; s++) collect(c, d, json_object_get(node, subs[s]), any, depth + 1);
    free(any);
    static const char *const lists[] = {"anyOf", "oneOf", "allOf"};
    for (size_t s = 0; s < 3; s++)
        json_array_foreach(json_object_get(node, lists[s]), i, x) collect(c, d, x, path, depth);
    json_t *ref = json_object_get(node, "$ref");
    if (json_is_string(ref)) collect_ref(c, d, json_string_value(ref), path, depth);
}

/* Where `format` applies must be the same on both sides: the engine treats `format` as an
 * annotation, so validation alone would never see a difference there. */
static void compare_formats(struct run *rn, size_t vi, size_t t, json_t *ours, json_t *official)
{
    const char *k;
    json_t *x;
    json_t *sides[2] = {ours, official};
    for (int s = 0; s < 2; s++)
        json_object_foreach(sides[s], k, x) {
            if (json_object_get(sides[1 - s], k)) continue;
            printf("FAIL %s %s: format \"%s\" declared only in the %s schema\n",
                   rn->vers.names[vi], TYPES[t].type, k, s ? "official" : "project's");
            rn->failed++;
        }
}

/* Fillers and member names from both sides' definitions of every type and version. */
static void collect_all(struct run *rn, const char *schema_dir)
{
    rn->fillers = json_loads(FILLERS, 0, NULL);
    if (!rn->fillers) BUG("FILLERS does not parse");
    for (size_t t = 0; t < NTYPES; t++) {
        rn->names[t] = json_object();
        for (size_t vi = 0; vi < rn->vers.n; vi++) {
            if (!(rn->data_mask & ((ver_mask)1 << vi))) continue;
            char *dir = xasprintf("%s/%s", schema_dir, rn->vers.names[vi]);
            json_t *ours_formats = json_object();
            struct collect c = {rn->names[t], rn->fillers, json_object(), ours_formats, dir};
            struct schema_doc none = {NULL, ""};
            collect_ref(&c, &none, TYPES[t].file, "", 0);
            c.dir = NULL;
            c.formats = json_object();
            char *path = xasprintf("%s/%s/schema.json", rn->data, rn->vers.names[vi]);
            struct schema_doc official = {load_json(path), "schema.json"};
            const char *defs = official.root ? defs_member(official.root, TYPES[t].type) : NULL;
            if (defs)
                collect(&c, &official,
                        json_object_get(json_object_get(official.root, defs), TYPES[t].type), "",
                        0);
            if (defs && (rn->present[vi][t] & 1)) compare_formats(rn, vi, t, ours_formats, c.formats);
            json_decref(ours_formats);
            json_decref(c.formats);
            json_decref(official.root);
            json_decref(c.seen);
            free(path);
            free(dir);
        }
    }
}

/* A step of a path into a value: member KEY, or item IDX when KEY is NULL. */
struct step {
    const char *key;
    size_t idx;
};

struct mutation {
    struct run *rn;
    size_t t;
    const char *src;     /* "<source>~mutants" */
    const char *ptr;     /* the item's pointer in its source */
    json_t *item;
};

static json_t *child(json_t *v, const struct step *s)
{
    return s->key ? json_object_get(v, s->key) : json_array_get(v, s->idx);
}

static void path_text(struct buf *b, const struct step *path, int n)
{
    for (int i = 0; i < n; i++) {
        if (path[i].key) buf_addf(b, "/%s", path[i].key);
        else buf_addf(b, "/%zu", path[i].idx);
    }
}

/* Judge a copy of the item with PATH[0..N) deleted (NEW NULL), replaced by NEW, or, with
 * ADD, with member ADD of the object at PATH set to NEW. */
static void mutant(struct mutation *m, const struct step *path, int n, const char *add, json_t *new)
{
    json_t *copy = n || add ? json_deep_copy(m->item) : json_incref(new);
    json_t *parent = copy;
    for (int i = 0; i + 1 < n; i++) parent = child(parent, &path[i]);
    if (add) parent = n ? child(parent, &path[n - 1]) : copy;
    struct buf label = BUF_INIT;
    buf_addf(&label, "%s ", m->ptr);
    if (!new) buf_addc(&label, '-');
    path_text(&label, path, n);
    if (add) {
        json_object_set(parent, add, new);
        buf_addf(&label, "/%s+=", add);
    } else if (!new) {
        if (path[n - 1].key) json_object_del(parent, path[n - 1].key);
        else json_array_remove(parent, path[n - 1].idx);
    } else if (n) {
        if (path[n - 1].key) json_object_set(parent, path[n - 1].key, new);
        else json_array_set(parent, path[n - 1].idx, new);
        buf_addc(&label, '=');
    } else {
        buf_addc(&label, '=');
    }
    if (new) {
        char *text = json_dumps(new, JSON_ENCODE_ANY | JSON_COMPACT);
        buf_adds(&label, text);
        free(text);
    }
    m->rn->mutants++;
    compare_versions(m->rn, ver_all(&m->rn->vers), m->t, m->src, buf_str(&label), copy);
    buf_release(&label);
    json_decref(copy);
}

/* Every mutant of the value at PATH[0..N) and, to depth 3, of its children: removed,
 * replaced by each filler, and (objects to depth 2) each known member added. */
static void mutate(struct mutation *m, json_t *v, struct step *path, int n)
{
    size_t i;
    json_t *f;
    if (n) mutant(m, path, n, NULL, NULL);
    json_array_foreach(m->rn->fillers, i, f) mutant(m, path, n, NULL, f);
    const char *k;
    json_t *x;
    if (json_is_object(v) && n <= 2)
        json_object_foreach(m->rn->names[m->t], k, x) {
            if (json_object_get(v, k)) continue;
            json_array_foreach(m->rn->fillers, i, f) mutant(m, path, n, k, f);
        }
    if (n == 3) return;
    json_object_foreach(v, k, x) {
        path[n] = (struct step){k, 0};
        mutate(m, x, path, n + 1);
    }
    json_array_foreach(v, i, x) {
        path[n] = (struct step){NULL, i};
        mutate(m, x, path, n + 1);
    }
}

static void mutate_item(struct run *rn, size_t t, const char *src, const char *ptr, json_t *item)
{
    char *msrc = xasprintf("%s~mutants", src);
    struct mutation m = {rn, t, msrc, ptr, item};
    struct step path[3];
    mutate(&m, item, path, 0);
    free(msrc);
}

static void sample_file(struct run *rn, const char *path)
{
    json_t *j = load_json(path);
    int mutate_items = json_is_true(json_object_get(j, "x-mutate"));
    if (!json_is_object(j)) {
        printf("FAIL %s: not a JSON object of item arrays\n", path);
        rn->failed++;
        json_decref(j);
        return;
    }
    const char *k;
    json_t *items;
    json_object_foreach(j, k, items) {
        if (!strncmp(k, "x-", 2)) continue;
        size_t t = 0;
        while (t < NTYPES && strcmp(TYPES[t].type, k)) t++;
        if (t == NTYPES || !json_is_array(items)) {
            printf("FAIL %s: \"%s\" is not an item type with an array of items\n", path, k);
            rn->failed++;
            continue;
        }
        size_t i;
        json_t *item;
        json_array_foreach(items, i, item) {
            char *ptr = xasprintf("/%s/%zu", k, i);
            compare_versions(rn, ver_all(&rn->vers), t, path, ptr, item);
            if (mutate_items) mutate_item(rn, t, path, ptr, item);
            free(ptr);
        }
    }
    json_decref(j);
}

/* ---- house rules of schema/mcp (README "Conventions") ---- */

static void convention(struct run *rn, const char *file, const char *ptr, const char *what)
{
    printf("FAIL %s%s%s: %s\n", file, ptr[0] ? "#" : "", ptr, what);
    rn->failed++;
}

/* The string member KEY of O, "" when absent or not a string. */
static const char *str_member(json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

/* Schema nodes only: properties, $defs, items, additionalProperties. */
static void conventions_walk(struct run *rn, const char *file, json_t *o, const char *ptr)
{
    if (!json_is_object(o)) return;
    if (json_is_false(json_object_get(o, "additionalProperties")))
        convention(rn, file, ptr, "additionalProperties false (MCP objects are open)");
    json_t *ref = json_object_get(o, "$ref");
    const char *r = json_string_value(ref);
    if (ref && (!r || (strncmp(r, "#/$defs/", 8) && (strchr(r, '/') || strchr(r, ':')))))
        convention(rn, file, ptr, "$ref leaves the version directory");
    const char *k;
    json_t *x;
    json_object_foreach(json_object_get(o, "properties"), k, x) {
        char *sub = xasprintf("%s/properties/%s", ptr, k);
        if (strncmp(str_member(x, "$comment"), "TS ", 3))
            convention(rn, file, sub, "no $comment citing the TS source (\"TS <version>:<lines>\")");
        conventions_walk(rn, file, x, sub);
        free(sub);
    }
    json_object_foreach(json_object_get(o, "$defs"), k, x) {
        char *sub = xasprintf("%s/$defs/%s", ptr, k);
        conventions_walk(rn, file, x, sub);
        free(sub);
    }
    static const char *const subs[] = {"items", "additionalProperties"};
    for (size_t s = 0; s < 2; s++) {
        char *sub = xasprintf("%s/%s", ptr, subs[s]);
        conventions_walk(rn, file, json_object_get(o, subs[s]), sub);
        free(sub);
    }
}

/* Every file of every version folder: 2020-12, its $id, a root $comment naming the
 * interface, and the walk above. A `$ref` to a sibling must name an existing file. */
static void check_conventions(struct run *rn, const char *schema_dir)
{
    for (size_t vi = 0; vi < rn->vers.n; vi++) {
        char *dir = xasprintf("%s/%s", schema_dir, rn->vers.names[vi]);
        strvec files = list_dir(dir, 0);
        for (size_t i = 0; i < files.len; i++) {
            char *path = xasprintf("%s/%s", dir, files.items[i]);
            char *id = xasprintf(OURS_PREFIX "%s/%s", rn->vers.names[vi], files.items[i]);
            json_t *j = load_json(path);
            const char *cmt = str_member(j, "$comment");
            if (!j) convention(rn, path, "", "not JSON");
            else if (strcmp(str_member(j, "$schema"), "https://json-schema.org/draft/2020-12/schema"))
                convention(rn, path, "", "$schema is not https://json-schema.org/draft/2020-12/schema");
            if (j && strcmp(str_member(j, "$id"), id))
                convention(rn, path, "", "$id is not " OURS_PREFIX "<version>/<file>");
            if (j && strncmp(cmt, "interface ", 10) && strncmp(cmt, "anonymous ", 10))
                convention(rn, path, "", "the root $comment does not name the TS interface");
            conventions_walk(rn, path, j, "");
            json_decref(j);
            free(id);
            free(path);
        }
        strvec_free(&files);
        free(dir);
    }
}

/* ---- mode: types ---- */

static void report(struct run *rn)
{
    size_t passed = 0;
    for (size_t vi = 0; vi < rn->vers.n; vi++) {
        struct vcount *c = &rn->counts[vi];
        if (!(rn->data_mask & ((ver_mask)1 << vi))) {
            printf("%s: no official schema.json, not compared\n", rn->vers.names[vi]);
            continue;
        }
        printf("%s: %zu compared, %zu agree (%zu valid, %zu invalid on both sides), "
               "%zu listed differences, %zu unlisted\n", rn->vers.names[vi], c->compared,
               c->agree, c->agree - c->agree_invalid, c->agree_invalid, c->listed, c->unlisted);
        passed += c->agree + c->listed;
    }
    for (size_t i = 0; i < rn->allow.len; i++) {
        struct allow *a = &rn->allow.items[i];
        if (a->hits) continue;
        printf("FAIL %s:%u: %s %s %s (%s): the listed difference no longer occurs; remove the line\n",
               rn->allow_path, a->line, a->version, a->type, a->source, a->reason);
        rn->failed++;
    }
    printf("%zu passed, %zu failed\n", passed, rn->failed);
}

static void run_release(struct run *rn)
{
    for (size_t vi = 0; vi < rn->vers.n; vi++)
        for (size_t t = 0; t < NTYPES; t++) {
            schema_free(rn->ours[vi][t]);
            schema_free(rn->official[vi][t]);
        }
    for (size_t i = 0; i < rn->allow.len; i++) {
        struct allow *a = &rn->allow.items[i];
        free(a->version);
        free(a->type);
        free(a->source);
        free(a->reason);
    }
    VEC_FREE(rn->allow);
    ver_list_release(&rn->vers);
    json_decref(rn->fillers);
    for (size_t t = 0; t < NTYPES; t++) json_decref(rn->names[t]);
}

static void sample_dir(struct run *rn, const char *dir)
{
    strvec files = list_dir(dir, 0);
    for (size_t i = 0; i < files.len; i++) {
        char *p = xasprintf("%s/%s", dir, files.items[i]);
        sample_file(rn, p);
        free(p);
    }
    strvec_free(&files);
}

static int cmd_types(int verbose, char **argv, int argc)
{
    const char *schema_dir = argv[0], *fixtures = argv[3], *samples = argv[4];
    struct run rn = {.verbose = verbose, .allow_path = argv[1]};
    if (!(rn.data = find_data(argv + 5, argc - 5))) {
        return test_skip("test-crosscheck", "no official MCP schemas (<version>/schema.json) in %s",
                         argv[5]);
    }
    printf("crosscheck: %s/<version>/*.json against %s/<version>/schema.json\n", schema_dir,
           rn.data);
    int rc = load_versions(&rn, schema_dir);
    if (rc == 0) rc = load_allow(&rn, argv[2]);
    if (rc == 0) check_conventions(&rn, schema_dir);
    schema_ctx *ctx = schema_ctx_new(NULL);
    char *dir = xasprintf("%s/", schema_dir);
    schema_ctx_add_ref_map(ctx, OURS_PREFIX, dir);
    free(dir);
    for (size_t vi = 0; rc == 0 && vi < rn.vers.n; vi++)
        if (rn.data_mask & ((ver_mask)1 << vi)) rc = compile_version(&rn, ctx, schema_dir, vi);
    if (rc == 0) {
        struct doc_shape shape;
        shape_init(&shape, &rn.vers);
        fixture_roots(&rn, &shape, fixtures);
        shape_release(&shape);
        collect_all(&rn, schema_dir);
        size_t n = each_example(rn.data, compare_example, &rn);
        sample_dir(&rn, samples);
        printf("descriptions read: %zu; official examples read: %zu; mutants judged: %zu\n",
               rn.fixtures, n, rn.mutants);
        report(&rn);
    } else {
        printf("crosscheck: stopped (see the errors above)\n0 passed, %zu failed\n", rn.failed + 1);
    }
    run_release(&rn);
    schema_ctx_free(ctx);
    return rc != 0 || rn.failed ? 1 : 0;
}

/* ---- mode: wrap-examples ---- */

struct wrap {
    const char *out;
    size_t written, failed;
};

/* What a description needs around the item: serverInfo, and the capability its list
 * implies (a ServerCapabilities example is the capabilities). */
static json_t *wrap_description(const char *version, const char *src, size_t t, int list,
                                json_t *ex)
{
    json_t *d = json_pack("{s:s, s:s, s:[s], s:{s:s, s:s}}", "mcpDescription", "0.9.0",
                          "x-source", src, "protocolVersions", version, "serverInfo", "name",
                          "official-example", "version", "1.0.0");
    if (!TYPES[t].cap) { /* serverInfo or capabilities: the example replaces ours */
        json_object_set_new(d, "capabilities", json_object());
        json_object_set(d, TYPES[t].member, ex);
        return d;
    }
    json_object_set_new(d, "capabilities", json_pack("{s:{}}", TYPES[t].cap));
    if (list) json_object_set(d, TYPES[t].member, json_object_get(ex, TYPES[t].member));
    else json_object_set_new(d, TYPES[t].member, json_pack("[O]", ex));
    return d;
}

static void wrap_example(void *arg, const char *version, const char *src, size_t t, int list,
                         json_t *ex)
{
    struct wrap *w = arg;
    json_t *d = wrap_description(version, src, t, list, ex);
    struct buf name = BUF_INIT;
    buf_addf(&name, "%s/", w->out);
    for (const char *p = src; *p; p++) buf_addc(&name, *p == '/' ? '_' : *p);
    if (json_dump_file(d, buf_str(&name), JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
        fprintf(stderr, "crosscheck: cannot write %s\n", buf_str(&name));
        w->failed++;
    } else {
        w->written++;
    }
    buf_release(&name);
    json_decref(d);
}

static int cmd_wrap(char **argv, int argc)
{
    struct wrap w = {argv[0], 0, 0};
    const char *data = find_data(argv + 1, argc - 1);
    if (!data) return 0; /* nothing written: the caller says SKIP */
    each_example(data, wrap_example, &w);
    printf("test-official-examples: %zu official examples of %s wrapped into descriptions in %s\n",
           w.written, data, w.out);
    return w.failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    int verbose = argc > 2 && !strcmp(argv[2], "-v");
    char **rest = argv + 2 + verbose;
    int nrest = argc - 2 - verbose;
    if (argc > 1 && !strcmp(argv[1], "types") && nrest >= 6) return cmd_types(verbose, rest, nrest);
    if (argc > 1 && !strcmp(argv[1], "wrap-examples") && nrest >= 2) return cmd_wrap(rest, nrest);
    fputs("usage: crosscheck types [-v] SCHEMA-DIR ALLOW-LIST README FIXTURE-DIR[:DIR...] SAMPLE-DIR "
          "DATA-DIR...\n"
          "       crosscheck wrap-examples OUT-DIR DATA-DIR...\n",
          stderr);
    return 2;
}
