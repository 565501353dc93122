/* check_start.c - the work a start leaves out or does cheaply, and that it still answers
 * as before: the embedded meta-schemas parsed on their first lookup (schema/schema_ctx.c),
 * a tag's lock taken as it stands when its bytes are the lock the set would write
 * (rules/lock.c), the digest's fixtures read without asking the disk first
 * (rules/rule_set_load.c), a cache entry's payload checked by a checksum rather than
 * a sha256 (doc/doc_cache.c), and the pages of a tree read back from it made at once
 * (doc/doc_arena.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "doc/docInt.h"
#include "rules/lock.h"
#include "schema/schema.h"
#include "schema/schemaInt.h"
#include "testutil.h"

/* ---- meta-schemas on first lookup ----------------------------------------------------- */

static json_t *fetch(schema_ctx *ctx, const char *uri)
{
    char *why = NULL;
    json_t *j = schema_ctx_fetch(ctx, uri, &why);
    free(why);
    return j;
}

START_TEST(meta_schemas_found_on_first_lookup)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    /* a named one, a fragment's document, and a member of the vocabularies' bundle */
    json_t *m = fetch(ctx, "https://json-schema.org/draft/2020-12/schema");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(json_string_value(json_object_get(m, "$id")),
                     "https://json-schema.org/draft/2020-12/schema");
    ck_assert_ptr_eq(fetch(ctx, "https://json-schema.org/draft/2020-12/schema#/$defs"), m);
    json_t *core = fetch(ctx, "https://json-schema.org/draft/2020-12/meta/core");
    ck_assert_ptr_nonnull(core);
    ck_assert_str_eq(json_string_value(json_object_get(core, "$id")),
                     "https://json-schema.org/draft/2020-12/meta/core");
    ck_assert_ptr_nonnull(fetch(ctx, "http://json-schema.org/draft-04/schema#"));
    ck_assert_ptr_nonnull(fetch(ctx, "https://json-schema.org/draft/2019-09/meta/validation"));
    /* asked again: the same document, not parsed anew */
    ck_assert_ptr_eq(fetch(ctx, "https://json-schema.org/draft/2020-12/meta/core"), core);
    ck_assert_ptr_null(fetch(ctx, "https://json-schema.org/draft/2020-12/meta/none"));
    schema_ctx_free(ctx);
}
END_TEST

/* A document the caller registers under an embedded one's URI wins, as when the embedded
 * ones were registered first and the caller's replaced them: a later parse of the bundle
 * does not put the embedded one back. */
START_TEST(meta_schemas_registered_first_stay)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    json_t *mine = json_pack("{s:s}", "title", "mine");
    json_t *core = json_pack("{s:s}", "title", "my core");
    schema_ctx_add_document(ctx, "http://json-schema.org/draft-07/schema#", mine);
    schema_ctx_add_document(ctx, "https://json-schema.org/draft/2020-12/meta/core", core);
    ck_assert_ptr_nonnull(fetch(ctx, "https://json-schema.org/draft/2020-12/meta/applicator"));
    ck_assert_ptr_eq(fetch(ctx, "https://json-schema.org/draft/2020-12/meta/core"), core);
    ck_assert_ptr_eq(fetch(ctx, "http://json-schema.org/draft-07/schema"), mine);
    json_decref(mine);
    json_decref(core);
    schema_ctx_free(ctx);
}
END_TEST

/* Compiling and checking against a meta-schema fetches it: a draft-04 schema is checked
 * by draft-04's rules (exclusiveMaximum a boolean), a 2020-12 one by 2020-12's. */
START_TEST(meta_schemas_check_by_dialect)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    const char *ok04 = "{\"$schema\": \"http://json-schema.org/draft-04/schema#\", "
                       "\"maximum\": 3, \"exclusiveMaximum\": true}";
    const char *bad12 = "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
                        "\"type\": 7}";
    json_t *a = json_loads(ok04, 0, NULL), *b = json_loads(bad12, 0, NULL);
    struct schema_errors e1 = {.limit = 8}, e2 = {.limit = 8};
    ck_assert_int_eq(schema_check(ctx, a, NULL, SCHEMA_DRAFT2020_12, &e1), 0);
    ck_assert_int_ne(schema_check(ctx, b, NULL, SCHEMA_DRAFT2020_12, &e2), 0);
    schema_errors_release(&e1);
    schema_errors_release(&e2);
    json_decref(a);
    json_decref(b);
    schema_ctx_free(ctx);
}
END_TEST

/* ---- a lock taken as it stands ------------------------------------------------------- */

#define RULE                                                                                       \
    "rules:\n  - id: t.a\n    owner: t\n    surface: Tool\n    kind: structural\n"                 \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    examples:\n"                                                                              \
    "      - {expect: invalid, fixture: fx-here.json, pointer: /tools/0}\n"                        \
    "      - {expect: invalid, fixture: fx-here.json, pointer: /tools/1}\n"                        \
    "      - {expect: invalid, fixture: fx-gone.json, pointer: /tools/0}\n"                        \
    "    check: {select: /tools/*, require: {has: name}, message: m}\n"

/* A scratch set whose examples cite fixtures in its own directory. */
static char *fixture_set(void)
{
    const char *files[] = {"t.yaml"}, *texts[] = {RULE};
    char *dir = tu_rule_dir(files, texts, 1);
    tu_manifest_add(dir, "fixtures: .\n");
    tu_write_file(dir, "fx-here.json", "{\"tools\": []}\n");
    return dir;
}

/* lock_text is, byte for byte, what lock_write writes: jansson's JSON_INDENT(2). */
START_TEST(lock_text_is_the_written_lock)
{
    char *dir = fixture_set();
    struct rule_set *rs = tu_load_ok(dir);
    struct buf text = BUF_INIT;
    ck_assert_int_eq(lock_text(rs, "v0.0.0-test", &text), 1);
    json_t *lock = lock_describe(rs, "v0.0.0-test");
    char *dumped = json_dumps(lock, JSON_INDENT(2));
    char *want = xasprintf("%s\n", dumped);
    ck_assert_str_eq(buf_str(&text), want);
    FILE *quiet = fopen("/dev/null", "w");
    ck_assert_int_eq(lock_write(rs, "v0.0.0-test", quiet), 0);
    fclose(quiet);
    struct buf written = BUF_INIT;
    char *path = xasprintf("%s/tags/v0.0.0-test.lock", dir);
    ck_assert_int_eq(buf_read_file(&written, path), 0);
    ck_assert_str_eq(buf_str(&written), want);
    free(path);
    buf_release(&written);
    free(want);
    free(dumped);
    json_decref(lock);
    buf_release(&text);
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

/* The set is its tag's when its lock is the one it writes, or another text of the same
 * lock (parsed and compared); not when one file's digest in the lock differs. */
START_TEST(lock_released_only_when_same)
{
    char *dir = fixture_set();
    struct rule_set *rs = tu_load_ok(dir);
    FILE *quiet = fopen("/dev/null", "w");
    ck_assert_int_eq(lock_write(rs, "v0.0.0-test", quiet), 0);
    fclose(quiet);
    rule_set_free(rs);
    rs = tu_load_ok(dir);
    ck_assert_str_eq(rule_set_display_tag(rs), "v0.0.0-test");

    /* the same lock written compactly: not the text, the same content */
    json_t *lock = lock_describe(rs, "v0.0.0-test");
    char *compact = json_dumps(lock, JSON_COMPACT);
    tu_write_file(dir, "tags/v0.0.0-test.lock", compact);
    free(compact);
    rule_set_free(rs);
    rs = tu_load_ok(dir);
    ck_assert_str_eq(rule_set_display_tag(rs), "v0.0.0-test");

    /* the written text with one file's digest changed: another set's lock */
    struct buf text = BUF_INIT;
    ck_assert_int_eq(lock_text(rs, "v0.0.0-test", &text), 1);
    char *s = xstrdup(buf_str(&text));
    const char *hex = rule_set_digest_hex(rs, 0);
    char *at = strstr(s, hex);
    ck_assert_ptr_nonnull(at);
    at[10] = at[10] == '0' ? '1' : '0';
    tu_write_file(dir, "tags/v0.0.0-test.lock", s);
    free(s);
    buf_release(&text);
    json_decref(lock);
    rule_set_free(rs);
    rs = tu_load_ok(dir);
    ck_assert_str_eq(rule_set_display_tag(rs), "v0.0.0-test+modified");
    rule_set_free(rs);
    tu_rmdir(dir);
}
END_TEST

/* ---- the digest's fixtures ----------------------------------------------------------- */

/* A cited fixture is in the digest once however often it is cited, with its bytes'
 * sha256; one that is not there is left out; one that is there but cannot be read (a
 * directory) is an error, as when each was asked for with access() first. */
START_TEST(digest_fixtures)
{
    char *dir = fixture_set();
    struct rule_set *rs = tu_load_ok(dir);
    size_t here = 0, gone = 0, fixtures = 0;
    for (size_t i = 0; i < rule_set_digest_count(rs); i++) {
        const char *p = rule_set_digest_path(rs, i);
        if (rule_set_digest_kind(rs, i) == RULE_FILE_FIXTURE) fixtures++;
        if (!strcmp(p, "fx-here.json")) {
            here++;
            /* sha256 of "{\"tools\": []}\n" */
            ck_assert_str_eq(rule_set_digest_hex(rs, i),
                             "8900c2ee0613e1f39e35e08d73131b77f221d21fb8495688c79e7ee57e407904");
        }
        if (!strcmp(p, "fx-gone.json")) gone++;
    }
    ck_assert_uint_eq(here, 1);
    ck_assert_uint_eq(gone, 0);
    ck_assert_uint_eq(fixtures, 1);
    rule_set_free(rs);

    char *sub = xasprintf("%s/fx-gone.json", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    free(sub);
    struct diag_list errs = DIAG_LIST_INIT;
    rs = rule_set_load(dir, &errs);
    ck_assert_ptr_null(rs);
    ck_assert_uint_ge(errs.len, 1);
    ck_assert_ptr_nonnull(strstr(errs.items[0].message, "cannot read rule file"));
    diag_list_release(&errs);
    tu_rmdir(dir);
}
END_TEST

/* ---- the cache entry's checksum ------------------------------------------------------ */

/* Every single bit flipped, in each of the four lanes of 32-byte blocks, in the 8-byte
 * steps after them and in the tail, changes the checksum; so does a zero byte more (the
 * length counts) and two words swapped. */
START_TEST(checksum_sees_every_bit)
{
    unsigned char b[107]; /* three blocks, a word, three bytes */
    for (size_t i = 0; i < sizeof b; i++) b[i] = (unsigned char)(i * 37 + 11);
    uint64_t h = doc_cache_checksum(b, sizeof b);
    ck_assert(doc_cache_checksum(b, sizeof b) == h);
    for (size_t i = 0; i < sizeof b; i++)
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (unsigned char)(1u << bit);
            ck_assert_msg(doc_cache_checksum(b, sizeof b) != h, "byte %zu bit %d unseen", i, bit);
            b[i] ^= (unsigned char)(1u << bit);
        }
    unsigned char z[sizeof b + 1] = {0};
    memcpy(z, b, sizeof b);
    ck_assert(doc_cache_checksum(z, sizeof z) != h);
    /* two words of two lanes swapped, in the first block and in the last */
    for (size_t at = 0; at <= 64; at += 64) {
        unsigned char sw[sizeof b];
        memcpy(sw, b, sizeof b);
        memcpy(sw + at, b + at + 8, 8);
        memcpy(sw + at + 8, b + at, 8);
        ck_assert_msg(doc_cache_checksum(sw, sizeof sw) != h, "words at %zu swapped: unseen", at);
    }
}
END_TEST

/* Whether this kernel makes pages on request (MADV_POPULATE_WRITE, Linux 5.14). */
static int kernel_populates(void)
{
#ifdef MADV_POPULATE_WRITE
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int ok = p != MAP_FAILED && madvise(p, 4096, MADV_POPULATE_WRITE) == 0;
    if (p != MAP_FAILED) munmap(p, 4096);
    return ok;
#else
    return 0;
#endif
}

/* A tree's arena (doc_arena_new_tree) has the pages of twice the tree's size in memory
 * before the first block is made: the last of them too, far past that block. */
START_TEST(tree_arena_pages_made_at_once)
{
    if (!kernel_populates()) return; /* they fault one by one, as before */
    size_t tree = (size_t)64 << 10;
    struct doc_arena *a = doc_arena_new_tree(tree);
    ck_assert_ptr_nonnull(a);
    doc_arena_begin(a);
    json_t *v = json_object(); /* the arena's first block, on its first page */
    doc_arena_end(a);
    uintptr_t first = (uintptr_t)v & ~(uintptr_t)4095;
    unsigned char in = 0;
    ck_assert_int_eq(mincore((void *)(first + 2 * tree - 4096), 4096, &in), 0);
    ck_assert_msg(in & 1, "the last page of the tree's room is not in memory");
    json_decref(v);
    doc_arena_release(a);
}
END_TEST

/* A schema file's real path, its directory's found once (schema_ctx_real_path), is what
 * realpath says: a plain file, one reached through a linked directory and "..", a file
 * that is itself a link (to another directory), a name without a directory, a missing
 * file (NULL), and the same directory asked again. */
START_TEST(schema_file_real_path_as_realpath)
{
    char tmpl[] = "/tmp/mcpdesc-realpath-XXXXXX";
    char *top = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(top);
    char *a = xasprintf("%s/a", top), *b = xasprintf("%s/b", top), *ln = xasprintf("%s/ln", top);
    ck_assert_int_eq(mkdir(a, 0700), 0);
    ck_assert_int_eq(mkdir(b, 0700), 0);
    tu_write_file(a, "s.json", "{}");
    tu_write_file(b, "t.json", "{}");
    ck_assert_int_eq(symlink(a, ln), 0); /* ln -> a */
    char *flink = xasprintf("%s/f.json", a);
    char *target = xasprintf("%s/t.json", b);
    ck_assert_int_eq(symlink(target, flink), 0); /* a/f.json -> b/t.json */
    schema_ctx *ctx = schema_ctx_new(NULL);
    const char *names[] = {"/a/s.json",       "/ln/s.json", "/ln/../b/t.json", "/ln/f.json",
                           "/a/missing.json", "/ln/s.json", "/a/f.json",       "/a/s.json/x"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *path = xasprintf("%s%s", top, names[i]);
        char *want = realpath(path, NULL), *got = schema_ctx_real_path(ctx, path);
        if (want) ck_assert_msg(got && !strcmp(got, want), "%s: %s, not %s", names[i], got, want);
        else ck_assert_msg(!got, "%s: %s, realpath says none", names[i], got);
        free(want);
        free(got);
        free(path);
    }
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(a), 0);
    char *want = realpath("s.json", NULL), *got = schema_ctx_real_path(ctx, "s.json");
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    schema_ctx_free(ctx);
    unlink(flink);
    unlink(ln);
    free(flink);
    free(target);
    free(ln);
    free(a);
    free(b);
    tu_rmdir(xstrdup(top));
}
END_TEST

Suite *start_suite(void)
{
    Suite *s = suite_create("start");
    TCase *tc = tcase_create("meta-schemas");
    tcase_add_test(tc, meta_schemas_found_on_first_lookup);
    tcase_add_test(tc, meta_schemas_registered_first_stay);
    tcase_add_test(tc, meta_schemas_check_by_dialect);
    suite_add_tcase(s, tc);
    tc = tcase_create("lock");
    tcase_add_test(tc, lock_text_is_the_written_lock);
    tcase_add_test(tc, lock_released_only_when_same);
    suite_add_tcase(s, tc);
    tc = tcase_create("digest");
    tcase_add_test(tc, digest_fixtures);
    tcase_add_test(tc, schema_file_real_path_as_realpath);
    suite_add_tcase(s, tc);
    tc = tcase_create("doc-cache");
    tcase_add_test(tc, checksum_sees_every_bit);
    tcase_add_test(tc, tree_arena_pages_made_at_once);
    suite_add_tcase(s, tc);
    return s;
}
