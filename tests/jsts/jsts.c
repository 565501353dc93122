/* jsts.c - runs the official JSON-Schema-Test-Suite against src/schema.h: remotes/ are
 * registered at http://localhost:1234/ (never fetched), every tests/DRAFT/NAME.json case
 * is compiled once and its tests validated. Prints per-draft counts (required, then
 * optional/ and optional/format/ separately) and a closing "N passed, N failed" line
 * over the required tests. Exit 1 when a required test fails that is not in SKIPS.
 * usage: jsts [-v] SUITE-DIR... (the first that exists is used; none: skip, exit 0) */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema.h"
#include "util.h"

/* Required tests we knowingly fail: {draft, file, case description, test description or
 * NULL for the whole case}. Must stay EMPTY for draft7 and draft2020-12 (issue 3). */
static const struct {
    const char *draft, *file, *test_case, *test;
} SKIPS[] = {
    {NULL, NULL, NULL, NULL} /* sentinel */
};

static const struct {
    const char *dir;
    enum schema_dialect dialect;
} DRAFTS[] = {
    {"draft4", SCHEMA_DRAFT04},       {"draft6", SCHEMA_DRAFT06},
    {"draft7", SCHEMA_DRAFT07},       {"draft2019-09", SCHEMA_DRAFT2019_09},
    {"draft2020-12", SCHEMA_DRAFT2020_12},
};

struct counts {
    size_t pass, fail, skip;
};

static int verbose;

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in DIR ending in .json (dirs=0) or subdirectories (dirs=1). */
static char **list_dir(const char *dir, int dirs, size_t *n)
{
    VEC(char *) v = VEC_INIT;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char *p = xasprintf("%s/%s", dir, e->d_name);
            size_t len = strlen(e->d_name);
            int want = dirs ? is_dir(p) : (!is_dir(p) && len > 5 && !strcmp(e->d_name + len - 5, ".json"));
            free(p);
            if (want) VEC_PUSH(v, xstrdup(e->d_name));
        }
        closedir(d);
    }
    if (v.len) qsort(v.items, v.len, sizeof *v.items, cmpstr);
    *n = v.len;
    return v.items;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

static json_t *load(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &err);
    if (!j) j = json_load_file(path, JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &err);
    if (!j) fprintf(stderr, "jsts: %s:%d: %s\n", path, err.line, err.text);
    return j;
}

static void add_remotes(schema_ctx *ctx, const char *dir, const char *rel)
{
    size_t n;
    char **files = list_dir(dir, 0, &n);
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, files[i]);
        json_t *j = load(path);
        if (j) {
            char *uri = xasprintf("http://localhost:1234/%s%s", rel, files[i]);
            schema_ctx_add_document(ctx, uri, j);
            /* also under an absolute $id that differs from the retrieval URI */
            json_t *id = json_object_get(j, "$id");
            if (!json_is_string(id)) id = json_object_get(j, "id");
            if (json_is_string(id) && strchr(json_string_value(id), ':'))
                schema_ctx_add_document(ctx, json_string_value(id), j);
            free(uri);
            json_decref(j);
        }
        free(path);
    }
    free_list(files, n);
    char **dirs = list_dir(dir, 1, &n);
    for (size_t i = 0; i < n; i++) {
        char *sub = xasprintf("%s/%s", dir, dirs[i]);
        char *srel = xasprintf("%s%s/", rel, dirs[i]);
        add_remotes(ctx, sub, srel);
        free(sub);
        free(srel);
    }
    free_list(dirs, n);
}

static int skipped(const char *draft, const char *file, const char *tc, const char *t)
{
    for (size_t i = 0; SKIPS[i].draft; i++)
        if (!strcmp(SKIPS[i].draft, draft) && !strcmp(SKIPS[i].file, file) &&
            !strcmp(SKIPS[i].test_case, tc) && (!SKIPS[i].test || !strcmp(SKIPS[i].test, t)))
            return 1;
    return 0;
}

static void run_file(schema_ctx *ctx, const char *draft, enum schema_dialect d,
                     const char *path, const char *name, int required, struct counts *c)
{
    json_t *cases = load(path);
    if (!json_is_array(cases)) {
        c->fail++;
        printf("FAIL %s/%s: cannot load\n", draft, name);
        json_decref(cases);
        return;
    }
    size_t i;
    json_t *tc;
    json_array_foreach(cases, i, tc) {
        const char *tcd = json_string_value(json_object_get(tc, "description"));
        struct schema_errors errs = SCHEMA_ERRORS_INIT;
        schema *s = schema_compile(ctx, json_object_get(tc, "schema"), NULL, d, &errs);
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(tc, "tests"), k, t) {
            const char *td = json_string_value(json_object_get(t, "description"));
            if (required && skipped(draft, name, tcd ? tcd : "", td ? td : "")) {
                c->skip++;
                continue;
            }
            int want = json_is_true(json_object_get(t, "valid"));
            int got = s ? schema_validate(s, json_object_get(t, "data"), NULL) : -2;
            if ((got == 0) == want && got >= 0) {
                c->pass++;
            } else {
                c->fail++;
                if (required || verbose) {
                    printf("FAIL %s/%s: %s / %s: expected %s, got %s\n", draft, name, tcd, td,
                           want ? "valid" : "invalid",
                           got == -2   ? "compile error"
                           : got == -1 ? "bound error"
                           : got == 0  ? "valid"
                                       : "invalid");
                    if (got == -2 && errs.len && (required || verbose > 1))
                        printf("     %s (%s)\n", errs.items[0].message,
                               errs.items[0].keyword_location);
                }
            }
        }
        schema_free(s);
        schema_errors_release(&errs);
    }
    json_decref(cases);
}

static void run_dir(schema_ctx *ctx, const char *draft, enum schema_dialect d,
                    const char *dir, const char *prefix, int required, struct counts *c)
{
    size_t n;
    char **files = list_dir(dir, 0, &n);
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, files[i]);
        char *name = xasprintf("%s%s", prefix, files[i]);
        run_file(ctx, draft, d, path, name, required, c);
        free(path);
        free(name);
    }
    free_list(files, n);
}

int main(int argc, char **argv)
{
    const char *root = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose++;
            continue;
        }
        char *t = xasprintf("%s/tests", argv[i]);
        if (!root && is_dir(t)) root = argv[i];
        free(t);
    }
    if (!root) {
        printf("jsts: JSON-Schema-Test-Suite not found (tried the arguments); skipped\n");
        return 0;
    }
    printf("jsts: using %s\n", root);
    struct counts total = {0, 0, 0};
    size_t must_fail = 0;
    for (size_t di = 0; di < sizeof DRAFTS / sizeof DRAFTS[0]; di++) {
        char *dir = xasprintf("%s/tests/%s", root, DRAFTS[di].dir);
        if (!is_dir(dir)) {
            printf("%-13s not in this copy of the suite\n", DRAFTS[di].dir);
            free(dir);
            continue;
        }
        schema_ctx *ctx = schema_ctx_new(NULL);
        char *rem = xasprintf("%s/remotes", root);
        add_remotes(ctx, rem, "");
        free(rem);
        struct counts req = {0, 0, 0}, opt = {0, 0, 0}, fmt = {0, 0, 0};
        run_dir(ctx, DRAFTS[di].dir, DRAFTS[di].dialect, dir, "", 1, &req);
        char *od = xasprintf("%s/optional", dir), *fd = xasprintf("%s/optional/format", dir);
        run_dir(ctx, DRAFTS[di].dir, DRAFTS[di].dialect, od, "optional/", 0, &opt);
        run_dir(ctx, DRAFTS[di].dir, DRAFTS[di].dialect, fd, "optional/format/", 0, &fmt);
        printf("%-13s required %zu/%zu passed (%zu skipped); optional %zu/%zu; "
               "optional/format (annotation only) %zu/%zu\n",
               DRAFTS[di].dir, req.pass, req.pass + req.fail, req.skip, opt.pass,
               opt.pass + opt.fail, fmt.pass, fmt.pass + fmt.fail);
        total.pass += req.pass;
        total.fail += req.fail;
        must_fail += req.fail;
        free(od);
        free(fd);
        free(dir);
        schema_ctx_free(ctx);
    }
    printf("%zu passed, %zu failed\n", total.pass, total.fail);
    return must_fail ? 1 : 0;
}
