/* testutil.c - see testutil.h. */
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "judge/eval.h"
#include "schema/schema.h"
#include "base/util.h"

static const char *manifest =
    "name: test\n"
    "tag: v0.0.0-test\n"
    "description-format: 0.9.0\n"
    "versions: [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28]\n"
    "document:\n"
    "  versions-member: protocolVersions\n"
    "  collections: [tools, resources, resourceTemplates, prompts]\n"
    "  component-ref:\n"
    "    member: $componentRef\n"
    "    prefix: /components/schemas/\n"
    "    scopes: [/tools/*/inputSchema, /tools/*/outputSchema, /components/schemas/*]\n";

void tu_write_file(const char *dir, const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

char *tu_rule_dir(const char *const *files, const char *const *texts, size_t n)
{
    char tmpl[] = "/tmp/mcpdesc-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    struct buf m = BUF_INIT;
    buf_adds(&m, manifest);
    buf_adds(&m, "files: [");
    int first = 1; /* only .yaml files are rule files; others (schemas) just sit beside them */
    for (size_t i = 0; i < n; i++)
        if (strstr(files[i], ".yaml")) {
            buf_addf(&m, "%s%s", first ? "" : ", ", files[i]);
            first = 0;
        }
    buf_adds(&m, "]\n");
    tu_write_file(tmpl, "manifest.yaml", buf_str(&m));
    buf_release(&m);
    for (size_t i = 0; i < n; i++) tu_write_file(tmpl, files[i], texts[i]);
    return xstrdup(tmpl);
}

void tu_rmdir(char *dir)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(dir);
}

void tu_cache_begin(struct tu_cache *c, const char *name)
{
    snprintf(c->dir, sizeof c->dir, "/tmp/mcpdesc-%s-XXXXXX", name);
    ck_assert_ptr_nonnull(mkdtemp(c->dir));
    c->xdg = tu_env_save("XDG_CACHE_HOME");
    c->off = tu_env_save("MCPDESC_NO_CACHE");
    setenv("XDG_CACHE_HOME", c->dir, 1);
    unsetenv("MCPDESC_NO_CACHE");
}

void tu_cache_end(struct tu_cache *c)
{
    tu_rmdir(xstrdup(c->dir));
    tu_env_restore("XDG_CACHE_HOME", c->xdg);
    tu_env_restore("MCPDESC_NO_CACHE", c->off);
}

void tu_edit_in_place(const char *path, const char *text)
{
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    for (int tries = 0; tries < 200; tries++) {
        int fd = open(path, O_WRONLY | O_TRUNC);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
        struct timespec times[2] = {before.st_atim, before.st_mtim};
        ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
        ck_assert_int_eq(stat(path, &after), 0);
        if (after.st_ctim.tv_sec != before.st_ctim.tv_sec ||
            after.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
            break;
        nanosleep(&(struct timespec){0, 5000000}, NULL); /* the same clock tick: again */
    }
    ck_assert_int_eq(after.st_ino, before.st_ino);
    ck_assert_int_eq(after.st_size, before.st_size);
    ck_assert_int_eq(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    ck_assert_int_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    ck_assert(after.st_ctim.tv_sec != before.st_ctim.tv_sec ||
              after.st_ctim.tv_nsec != before.st_ctim.tv_nsec);
}

char *tu_point_schema_set(const char *rules)
{
    const char *files[] = {"t.yaml"};
    const char *texts[] = {rules};
    char *dir = tu_rule_dir(files, texts, 1);
    tu_manifest_add(dir, "schema-map: {'https://example.test/s/': schemas}\n");
    char *sdir = xasprintf("%s/schemas", dir);
    ck_assert_int_eq(mkdir(sdir, 0700), 0);
    tu_write_file(sdir, "point.json",
                  "{\"$id\": \"https://example.test/s/point.json\", \"type\": \"object\", "
                  "\"required\": [\"x\"], \"properties\": {\"x\": {\"$ref\": \"num.json\"}}}");
    tu_write_file(sdir, "num.json", "{\"type\": \"number\"}");
    free(sdir);
    return dir;
}

struct rule_set *tu_load_cached(const char *dir, int cached, struct diag_list *errs)
{
    if (cached) unsetenv("MCPDESC_NO_CACHE");
    else setenv("MCPDESC_NO_CACHE", "1", 1);
    struct rule_set *rs = rule_set_load(dir, errs);
    unsetenv("MCPDESC_NO_CACHE");
    return rs;
}

void tu_same_failure(const char *dir, const char *says)
{
    struct diag_list want = DIAG_LIST_INIT, got = DIAG_LIST_INIT;
    ck_assert_ptr_null(tu_load_cached(dir, 0, &want));
    ck_assert_ptr_null(tu_load_cached(dir, 1, &got));
    ck_assert_uint_ge(want.len, 1);
    ck_assert_uint_eq(got.len, want.len);
    for (size_t i = 0; i < want.len; i++) {
        ck_assert_str_eq(got.items[i].message, want.items[i].message);
        ck_assert_str_eq(got.items[i].file, want.items[i].file);
        ck_assert_uint_eq(got.items[i].line, want.items[i].line);
        ck_assert_uint_eq(got.items[i].col, want.items[i].col);
        ck_assert_str_eq(got.items[i].hint ? got.items[i].hint : "",
                         want.items[i].hint ? want.items[i].hint : "");
    }
    ck_assert_msg(strstr(got.items[0].message, says) != NULL, "%s", got.items[0].message);
    diag_list_release(&want);
    diag_list_release(&got);
}

void tu_manifest_add(const char *dir, const char *text)
{
    char *path = xasprintf("%s/manifest.yaml", dir);
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

struct rule_set *tu_rules(const char *text, struct diag_list *errs)
{
    const char *files[] = {"test.yaml"};
    char *dir = tu_rule_dir(files, &text, 1);
    struct rule_set *rs = rule_set_load(dir, errs);
    tu_rmdir(dir);
    return rs;
}

struct rule_set *tu_rules_ok(const char *text)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(text, &errs);
    ck_assert_msg(rs != NULL, "rules: %s", errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    return rs;
}

doc *tu_doc(const char *json)
{
    struct doc_error err;
    doc *d = doc_load_buffer("doc.json", json, strlen(json), 0, NULL, &err);
    ck_assert_msg(d != NULL, "test document does not parse: %s", err.message);
    return d;
}

void tu_eval(const struct rule_set *rs, const char *json, struct diag_list *out)
{
    doc *d = tu_doc(json);
    eval_document(rs, d, NULL, out);
    doc_free(d);
}

const char *tu_data_dir(void)
{
    static char path[4096];
    const char *top = getenv("MCPDESC_TOP");
    snprintf(path, sizeof path, "%s/tests/data", top ? top : ".");
    return path;
}

struct rule_set *tu_load_ok(const char *dir)
{
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    ck_assert_msg(rs != NULL, "rules %s: %s:%u:%u: %s", dir, errs.len ? errs.items[0].file : "",
                  errs.len ? errs.items[0].line : 0, errs.len ? errs.items[0].col : 0,
                  errs.len ? errs.items[0].message : "?");
    diag_list_release(&errs);
    return rs;
}

struct rule_set *tu_shipped_rules(void)
{
    const char *top = getenv("MCPDESC_TOP");
    char *dir = xasprintf("%s/rules-yaml", top ? top : ".");
    struct rule_set *rs = tu_load_ok(dir);
    free(dir);
    return rs;
}

void tu_texts_entry(texts_entries *e, const char *sel, const char *member, const char *kind)
{
    const char *why;
    struct texts_entry t = {sel ? sel_compile(sel, &why) : NULL, member ? xstrdup(member) : NULL,
                            xstrdup(kind)};
    VEC_PUSH(*e, t);
}

int tu_schema_run(const char *sch, json_t *inst, uint64_t work, uint32_t depth, int errs)
{
    struct schema_limits lim;
    schema_limits_default(&lim);
    lim.max_work = work;
    lim.max_eval_depth = depth;
    json_t *sj = json_loads(sch, 0, NULL);
    ck_assert_msg(sj != NULL, "bad schema %s", sch);
    schema_ctx *ctx = schema_ctx_new(&lim);
    schema *s = schema_compile(ctx, sj, NULL, SCHEMA_DRAFT2020_12, NULL);
    ck_assert_msg(s != NULL, "%s does not compile", sch);
    struct schema_errors e = SCHEMA_ERRORS_INIT;
    int r = schema_validate(s, inst, errs ? &e : NULL);
    schema_errors_release(&e);
    schema_free(s);
    schema_ctx_free(ctx);
    json_decref(sj);
    return r;
}

char *tu_show_all(const struct diag_list *l)
{
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *g = &l->items[i];
        buf_addf(&b, "%s %d %s %s %x %u:%u-%u:%u %s | %s | %s | %s | %d %zu+%zu | %zu %p %s\n",
                 g->rule ? g->rule : "-", (int)g->level, g->file ? g->file : "-",
                 g->pointer ? g->pointer : "-", (unsigned)g->versions, g->line, g->col, g->end_line,
                 g->end_col, g->message ? g->message : "-", g->hint ? g->hint : "-",
                 g->component ? g->component : "-", g->nrelated ? g->related[0].pointer : "-",
                 g->has_match, g->match_off, g->match_len, g->nrelated, (const void *)g->fix,
                 g->fix_title ? g->fix_title : "-");
    }
    return buf_detach(&b);
}

char *tu_first_line_apart(const char *a, const char *b)
{
    if (!a) return xstrdup("(none)");
    if (!b) b = "";
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    while (i && a[i - 1] != '\n') i--;
    const char *end = strchr(a + i, '\n');
    size_t n = end ? (size_t)(end - a - i) : strlen(a + i);
    return xasprintf("%.*s", (int)(n > 300 ? 300 : n), a + i);
}

char *tu_env_save(const char *name)
{
    const char *v = getenv(name);
    return v ? xstrdup(v) : NULL;
}

void tu_env_restore(const char *name, char *v)
{
    if (v) setenv(name, v, 1);
    else unsetenv(name);
    free(v);
}

void tu_text_cursor(const char *s, struct cursor *c, json_t **v)
{
    *v = json_string(s);
    ck_assert_ptr_nonnull(*v);
    memset(c, 0, sizeof *c);
    c->v = *v;
    sel_text_facts(c);
}

pcre2_code *tu_pcre_compile(const char *pattern)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code =
        pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
    ck_assert_msg(code != NULL, "%s does not compile", pattern);
    return code;
}

int tu_pcre_matches(pcre2_code *code, const char *s)
{
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    int rc = pcre2_match(code, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    return rc >= 0;
}
