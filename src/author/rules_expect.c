/* rules_expect.c - `rules test`, the fixtures' side (rules_expect.h): what the project's
 * conformance runner did by running `validate --format json --preset all`, done in
 * process with the judge validate uses (judge_document), so that an organisation's
 * fixtures are checked by the same code as the project's. */
#include "author/rules_expect.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/util.h"
#include "base/ver.h"
#include "judge/judge.h"

static const char *const FOLDERS[] = {"expected-valid", "expected-warning", "expected-invalid"};
enum folder { F_VALID, F_WARNING, F_INVALID };

struct paths {
    VEC(char *) v;
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json under DIR, recursively, each folder's entries sorted by name. */
static void collect_json(const char *dir, struct paths *out)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct paths here = {VEC_INIT};
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') VEC_PUSH(here.v, xasprintf("%s/%s", dir, e->d_name));
    closedir(d);
    if (here.v.len) qsort(here.v.items, here.v.len, sizeof *here.v.items, cmp_str);
    for (size_t i = 0; i < here.v.len; i++) {
        struct stat st;
        size_t n = strlen(here.v.items[i]);
        if (stat(here.v.items[i], &st) != 0) {
            free(here.v.items[i]);
        } else if (S_ISDIR(st.st_mode)) {
            collect_json(here.v.items[i], out);
            free(here.v.items[i]);
        } else if (S_ISREG(st.st_mode) && n > 5 && !strcmp(here.v.items[i] + n - 5, ".json")) {
            VEC_PUSH(out->v, here.v.items[i]);
        } else {
            free(here.v.items[i]);
        }
    }
    VEC_FREE(here.v);
}

static void note(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct buf *b, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_addf(b, "%s\n", line);
}

static const char *level_of(json_t *d)
{
    const char *s = json_string_value(json_object_get(d, "level"));
    return s ? s : "";
}

/* Is the fixture's x-expect well formed? Notes when not. */
static int expect_shape_ok(json_t *expect, struct buf *nt)
{
    if (!json_is_array(expect)) {
        note(nt, "fixture: \"x-expect\" must be an array (write [] for no diagnostic)");
        return 0;
    }
    int ok = 1;
    size_t i;
    json_t *e;
    json_array_foreach(expect, i, e)
    {
        if (!json_is_object(e)) {
            note(nt, "fixture: x-expect[%zu] must be an object", i);
            ok = 0;
            continue;
        }
        const char *key;
        json_t *v;
        json_object_foreach(e, key, v)
        {
            if (strcmp(key, "rule") && strcmp(key, "level") && strcmp(key, "pointer") &&
                strcmp(key, "versions") && strcmp(key, "component")) {
                note(nt, "fixture: x-expect[%zu] has unknown member \"%s\"", i, key);
                ok = 0;
            }
        }
        const char *need[] = {"rule", "level", "pointer"};
        for (size_t k = 0; k < 3; k++)
            if (!json_is_string(json_object_get(e, need[k]))) {
                note(nt, "fixture: x-expect[%zu] needs a string \"%s\"", i, need[k]);
                ok = 0;
            }
        const char *lv = level_of(e);
        if (*lv && strcmp(lv, "error") && strcmp(lv, "warning") && strcmp(lv, "info")) {
            note(nt, "fixture: x-expect[%zu] level \"%s\" is not error, warning or info", i, lv);
            ok = 0;
        }
        json_t *c = json_object_get(e, "component");
        if (c && !json_is_string(c)) {
            note(nt, "fixture: x-expect[%zu] \"component\" must be a string", i);
            ok = 0;
        }
        json_t *vs = json_object_get(e, "versions");
        if (!json_is_array(vs)) {
            note(nt, "fixture: x-expect[%zu] needs an array \"versions\"", i);
            ok = 0;
            continue;
        }
        const char *prev = NULL;
        size_t j;
        json_t *ver;
        json_array_foreach(vs, j, ver)
        {
            const char *s = json_string_value(ver);
            if (!s) {
                note(nt, "fixture: x-expect[%zu] versions[%zu] must be a string", i, j);
                ok = 0;
            } else if (prev && strcmp(prev, s) >= 0) {
                note(nt, "fixture: x-expect[%zu] versions must be listed oldest first, once each",
                     i);
                ok = 0;
            }
            prev = s;
        }
    }
    return ok;
}

static const char *folder_rule(enum folder f)
{
    return f == F_VALID  ? "expected-valid needs no diagnostic at all"
        : f == F_WARNING ? "expected-warning needs at least one warning and no error"
                         : "expected-invalid needs at least one error";
}

/* Do the diagnostics ARR (objects with "level") fit folder F? */
static int folder_holds(enum folder f, json_t *arr)
{
    int errors = 0, warnings = 0;
    size_t i;
    json_t *d;
    json_array_foreach(arr, i, d)
    {
        errors += !strcmp(level_of(d), "error");
        warnings += !strcmp(level_of(d), "warning");
    }
    return f == F_VALID  ? json_array_size(arr) == 0
        : f == F_WARNING ? warnings > 0 && errors == 0
                         : errors > 0;
}

/* A finding as x-expect writes it: rule, level, pointer, versions, component. */
static json_t *diag_expect_json(const struct rule_set *rs, const struct diag *d)
{
    const struct ver_list *vl = rule_set_versions(rs);
    json_t *vs = json_array();
    for (size_t i = 0; i < vl->n; i++)
        if (d->versions & ((ver_mask)1 << i)) json_array_append_new(vs, json_string(vl->names[i]));
    json_t *j =
        json_pack("{s:s?, s:s, s:s, s:o}", "rule", d->rule, "level", diag_level_name(d->level),
                  "pointer", d->pointer ? d->pointer : "", "versions", vs);
    if (d->component) json_object_set_new(j, "component", json_string(d->component));
    return j;
}

/* The compared members of a finding as one compact JSON text, in a fixed order. */
static char *diag_key(json_t *d)
{
    json_t *k = json_object();
    const char *names[] = {"rule", "level", "pointer", "versions", "component"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *v = json_object_get(d, names[i]);
        if (v && !(i == 4 && json_is_null(v))) json_object_set(k, names[i], v);
    }
    char *s = json_dumps(k, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    json_decref(k);
    return s;
}

/* x-args: --protocol-version V (repeatable) is what a fixture may ask for; 0: all. */
static ver_mask args_versions(const struct rule_set *rs, json_t *xargs, struct buf *nt, int *ok)
{
    ver_mask m = 0;
    if (xargs && !json_is_array(xargs)) {
        note(nt, "fixture: \"x-args\" must be an array of strings");
        *ok = 0;
        return 0;
    }
    for (size_t i = 0; i < json_array_size(xargs); i++) {
        const char *a = json_string_value(json_array_get(xargs, i));
        const char *v = json_string_value(json_array_get(xargs, i + 1));
        if (a && !strcmp(a, "--protocol-version") && v) {
            int k = ver_index(rule_set_versions(rs), v);
            if (k < 0) {
                note(nt,
                     "fixture: x-args names protocol version \"%s\", which the set does not "
                     "know",
                     v);
                *ok = 0;
            } else {
                m |= (ver_mask)1 << k;
            }
            i++;
        } else {
            note(nt, "fixture: x-args[%zu] \"%s\": only --protocol-version VERSION is understood",
                 i, a ? a : "?");
            *ok = 0;
        }
    }
    return m;
}

/* Judge PATH (in folder F) with RS; notes in NT. 1 when it passes; -1 when it has no
 * x-expect (and REQUIRE is 0: skipped). */
static int check_fixture(const struct rule_set *rs, const char *path, enum folder f, int require,
                         struct buf *nt)
{
    json_error_t jerr;
    json_t *fx = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!fx) {
        note(nt, "fixture: %s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
        return 0;
    }
    json_t *expect = json_object_get(fx, "x-expect");
    if (!expect && !require) {
        json_decref(fx);
        return -1;
    }
    int ok = 1;
    if (!expect) {
        note(nt, "fixture: no \"x-expect\" member (write [] for no diagnostic)");
        ok = 0;
    } else if (!expect_shape_ok(expect, nt)) {
        ok = 0;
    } else if (!folder_holds(f, expect)) {
        note(nt, "fixture: its x-expect does not fit its folder: %s", folder_rule(f));
        ok = 0;
    }
    /* as `validate --preset all`: every rule but those an override turned off */
    struct eval_options eo = {.versions = args_versions(rs, json_object_get(fx, "x-args"), nt, &ok),
                              .preset = RULE_PRESET_ALL};
    struct judge_source src = {JUDGE_FILE, path, path, NULL, 0};
    struct judge_options jo = {&eo, NULL, 0, 0, 0};
    struct judge_result r = {0};
    judge_document(rs, &src, &jo, &r);
    json_t *found = json_array();
    if (r.error) {
        note(nt, "the file was not judged: %s", r.error->message);
        ok = 0;
    } else {
        for (size_t i = 0; i < r.diags.len; i++) /* suppressed ones too, as JSON reports them */
            json_array_append_new(found, diag_expect_json(rs, &r.diags.items[i]));
    }
    if (!r.error && json_is_array(expect)) {
        size_t ne = json_array_size(expect), na = json_array_size(found);
        char **ek = xcalloc(ne + 1, sizeof *ek), **ak = xcalloc(na + 1, sizeof *ak);
        char *used = xcalloc(na + 1, 1);
        for (size_t k = 0; k < ne; k++) ek[k] = diag_key(json_array_get(expect, k));
        for (size_t k = 0; k < na; k++) ak[k] = diag_key(json_array_get(found, k));
        for (size_t k = 0; k < ne; k++) {
            size_t m = 0;
            while (m < na && (used[m] || strcmp(ek[k], ak[m]))) m++;
            if (m < na) {
                used[m] = 1;
            } else {
                note(nt, "missing:    %s", ek[k]);
                ok = 0;
            }
        }
        for (size_t m = 0; m < na; m++) {
            if (used[m]) continue;
            note(nt, "unexpected: %s", ak[m]);
            note(nt, "            (%s)", r.diags.items[m].message);
            ok = 0;
        }
        if (!folder_holds(f, found)) {
            note(nt, "the findings do not fit the folder: %s", folder_rule(f));
            ok = 0;
        }
        for (size_t k = 0; k < ne; k++) free(ek[k]);
        for (size_t k = 0; k < na; k++) free(ak[k]);
        free(ek);
        free(ak);
        free(used);
    }
    json_decref(found);
    judge_result_release(&r);
    json_decref(fx);
    return ok;
}

size_t rules_expect_run(const struct rule_set *rs, const char *fixtures, int require_expect,
                        void (*each)(const struct rules_expect_result *res, void *arg), void *arg,
                        size_t *judged)
{
    size_t failed = 0, n = 0;
    for (int f = 0; f < 3; f++) {
        struct paths files = {VEC_INIT};
        char *dir = xasprintf("%s/%s", fixtures, FOLDERS[f]);
        collect_json(dir, &files);
        free(dir);
        for (size_t i = 0; i < files.v.len; i++) {
            struct buf nt = BUF_INIT;
            int ok = check_fixture(rs, files.v.items[i], (enum folder)f, require_expect, &nt);
            if (ok >= 0) {
                struct rules_expect_result res = {files.v.items[i], ok, &nt};
                n++;
                if (!ok) failed++;
                if (each) each(&res, arg);
            }
            buf_release(&nt);
            free(files.v.items[i]);
        }
        VEC_FREE(files.v);
    }
    if (judged) *judged = n;
    return failed;
}
