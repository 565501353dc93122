/* jsts.c - runs the official JSON-Schema-Test-Suite against src/schema.h.
 * usage: jsts [-v] SUITE-DIR...
 * Every argument that is a copy of the suite (has tests/) is used, not just the first: a
 * draft runs from EVERY copy that holds it (tests/DRAFT/), one summary line per draft and
 * copy, naming the copy. Running each copy (rather than only the newest) is the simplest
 * rule that can never hide a draft or a test behind another copy, and an older copy
 * (Debian's json-schema-test-suite) still checks the engine against its own cases. A copy
 * named twice (same realpath) runs once. For each copy and draft a fresh schema_ctx gets
 * that copy's remotes/ at http://localhost:1234/ (never fetched; also under their absolute
 * $id when it differs); every tests/DRAFT/NAME.json case is compiled once and its tests
 * validated. Counts per draft and copy: required, then optional/ and optional/format/
 * separately; FAIL lines give the file's path in its copy. A draft the engine knows
 * (draft4 .. draft2020-12) that no copy holds is a skip through tests/testskip.h
 * ("SKIP test-jsts: draft 2019-09: not in any suite copy (tried: ...)"); no copy at all
 * is such a skip for every draft, never a silent pass. Directories of drafts the engine
 * has no dialect for (draft3, v1) are named and not run. Closing line: "N passed, N
 * failed, N skipped" (required tests over all copies; skipped = drafts in no copy).
 * Exit 1 when a required test fails that is not in SKIPS, or when a draft was skipped
 * under MCPDESC_REQUIRE=all. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "schema/schema.h"
#include "testskip.h"
#include "base/util.h"

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

/* ROOT: the copy, named in FAIL lines (several copies may hold the same draft). */
static void run_file(schema_ctx *ctx, const char *root, const char *draft,
                     enum schema_dialect d, const char *path, const char *name, int required,
                     struct counts *c)
{
    json_t *cases = load(path);
    if (!json_is_array(cases)) {
        c->fail++;
        printf("FAIL %s/tests/%s/%s: cannot load\n", root, draft, name);
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
                    printf("FAIL %s/tests/%s/%s: %s / %s: expected %s, got %s\n", root, draft,
                           name, tcd, td,
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

static void run_dir(schema_ctx *ctx, const char *root, const char *draft,
                    enum schema_dialect d, const char *dir, const char *prefix, int required,
                    struct counts *c)
{
    size_t n;
    char **files = list_dir(dir, 0, &n);
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, files[i]);
        char *name = xasprintf("%s%s", prefix, files[i]);
        run_file(ctx, root, draft, d, path, name, required, c);
        free(path);
        free(name);
    }
    free_list(files, n);
}

static int known_draft(const char *dir)
{
    for (size_t i = 0; i < sizeof DRAFTS / sizeof DRAFTS[0]; i++)
        if (!strcmp(DRAFTS[i].dir, dir)) return 1;
    return 0;
}

/* One draft of one copy; adds its required counts to TOTAL. */
static void run_draft(const char *root, size_t di, struct counts *total)
{
    const char *draft = DRAFTS[di].dir;
    enum schema_dialect d = DRAFTS[di].dialect;
    char *dir = xasprintf("%s/tests/%s", root, draft);
    schema_ctx *ctx = schema_ctx_new(NULL);
    char *rem = xasprintf("%s/remotes", root);
    add_remotes(ctx, rem, "");
    free(rem);
    struct counts req = {0, 0, 0}, opt = {0, 0, 0}, fmt = {0, 0, 0};
    run_dir(ctx, root, draft, d, dir, "", 1, &req);
    char *od = xasprintf("%s/optional", dir), *fd = xasprintf("%s/optional/format", dir);
    run_dir(ctx, root, draft, d, od, "optional/", 0, &opt);
    run_dir(ctx, root, draft, d, fd, "optional/format/", 0, &fmt);
    printf("%-13s required %zu/%zu passed (%zu skipped); optional %zu/%zu; "
           "optional/format (annotation only) %zu/%zu [%s]\n",
           draft, req.pass, req.pass + req.fail, req.skip, opt.pass, opt.pass + opt.fail,
           fmt.pass, fmt.pass + fmt.fail, root);
    total->pass += req.pass;
    total->fail += req.fail;
    free(od);
    free(fd);
    free(dir);
    schema_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    VEC(const char *) roots = VEC_INIT; /* the copies, in argument order */
    VEC(char *) real = VEC_INIT;        /* their realpaths, to run each copy once */
    struct buf tried = BUF_INIT;        /* every distinct argument, for skip lines */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose++;
            continue;
        }
        int dup = 0;
        for (int j = 1; j < i && !dup; j++) dup = !strcmp(argv[j], argv[i]);
        if (dup) continue;
        buf_addf(&tried, "%s%s", tried.len ? ", " : "", argv[i]);
        char *t = xasprintf("%s/tests", argv[i]);
        char *rp = is_dir(t) ? realpath(argv[i], NULL) : NULL;
        free(t);
        if (!rp) continue;
        for (size_t j = 0; j < real.len && !dup; j++) dup = !strcmp(real.items[j], rp);
        if (dup) {
            free(rp);
            continue;
        }
        VEC_PUSH(real, rp);
        VEC_PUSH(roots, argv[i]);
    }
    const char *tried_s = tried.len ? buf_str(&tried) : "no directory given";
    if (!roots.len) printf("jsts: JSON-Schema-Test-Suite not found (tried: %s)\n", tried_s);
    for (size_t r = 0; r < roots.len; r++) {
        printf("jsts: suite copy %s\n", roots.items[r]);
        char *tests = xasprintf("%s/tests", roots.items[r]);
        size_t n;
        char **dirs = list_dir(tests, 1, &n);
        for (size_t i = 0; i < n; i++)
            if (!known_draft(dirs[i]))
                printf("jsts: %s/%s not run (the engine has no such dialect)\n", tests,
                       dirs[i]);
        free_list(dirs, n);
        free(tests);
    }
    struct counts total = {0, 0, 0};
    size_t skipped_drafts = 0;
    int required_skip = 0;
    for (size_t di = 0; di < sizeof DRAFTS / sizeof DRAFTS[0]; di++) {
        int ran = 0;
        for (size_t r = 0; r < roots.len; r++) {
            char *dir = xasprintf("%s/tests/%s", roots.items[r], DRAFTS[di].dir);
            if (is_dir(dir)) {
                run_draft(roots.items[r], di, &total);
                ran = 1;
            }
            free(dir);
        }
        if (!ran) {
            skipped_drafts++;
            /* "draft4" -> "draft 4" */
            if (test_skip("test-jsts", "draft %s: not in any suite copy (tried: %s)",
                          DRAFTS[di].dir + 5, tried_s))
                required_skip = 1;
        }
    }
    printf("%zu passed, %zu failed, %zu skipped\n", total.pass, total.fail, skipped_drafts);
    for (size_t i = 0; i < real.len; i++) free(real.items[i]);
    VEC_FREE(real);
    VEC_FREE(roots);
    buf_release(&tried);
    return total.fail || required_skip ? 1 : 0;
}
