/* check_doc_cache.c - the cache of loaded YAML (doc_load_file_cached, doc/doc_cache.c):
 * a document read back is the document parsed (tree, sharing, every position and span),
 * an entry that does not check out is ignored and written anew, and nothing is kept when
 * the cache is off or its directory is not the user's alone. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "doc/doc.h"
#include "doc/docInt.h"
#include "testutil.h"

/* aliases (a shared mapping, a shared sequence), merge keys, every scalar kind, text
 * that is not ASCII, a NUL inside a string, empty collections, flow style */
static const char TEXT[] = "# a rule file\n"
                           "base: &base {type: object, n: 3}\n"
                           "list: &list [1, 2.5, -0.0, 1e300, true, false, null, ~]\n"
                           "again: *base\n"
                           "twice: *list\n"
                           "merged:\n"
                           "  <<: *base\n"
                           "  own: \"caf\\u00e9 \\0 end\"\n"
                           "text: |\n"
                           "  line one\n"
                           "  line \xc3\xa9\n"
                           "empty: {}\n"
                           "none: []\n"
                           "\xc3\xa9t\xc3\xa9: 'quoted'\n";

static char dir[64], path[128];
static char *saved_xdg, *saved_off; /* the harness runs every suite in one process */

static void setup(void)
{
    strcpy(dir, "/tmp/mcpdesc-doc-cache-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/rules.yaml", dir);
    FILE *f = fopen(path, "wb");
    fwrite(TEXT, 1, sizeof TEXT - 1, f);
    fclose(f);
    saved_xdg = tu_env_save("XDG_CACHE_HOME");
    saved_off = tu_env_save("MCPDESC_NO_CACHE");
    setenv("XDG_CACHE_HOME", dir, 1);
    unsetenv("MCPDESC_NO_CACHE");
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    tu_env_restore("XDG_CACHE_HOME", saved_xdg);
    tu_env_restore("MCPDESC_NO_CACHE", saved_off);
}

/* The entry of the text T of LEN bytes: $XDG_CACHE_HOME/mcpdesc/docs/<its sha256>-<engine>.doc
 * (new). */
static char *entry_of(const char *t, size_t len)
{
    struct sha256_ctx ctx;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)t);
    sha256_digest(&ctx, sizeof dg, dg);
    char hex[65];
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", dg[i]);
    char *docs = xasprintf("%s/mcpdesc/docs", dir);
    char *e = doc_cache_entry_path(docs, hex);
    free(docs);
    return e;
}

static char *entry(void)
{
    return entry_of(TEXT, sizeof TEXT - 1);
}

/* The inode of the entry (a rewrite renames a new file over it), 0 when there is none. */
static ino_t entry_inode(void)
{
    char *e = entry();
    struct stat st;
    ino_t ino = stat(e, &st) == 0 ? st.st_ino : 0;
    free(e);
    return ino;
}

/* Flips the byte at OFF from the end of the entry. */
static void damage_entry(long off)
{
    char *e = entry();
    FILE *f = fopen(e, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, -off, SEEK_END);
    int c = fgetc(f);
    fseek(f, -off, SEEK_END);
    fputc(c ^ 0x20, f);
    fclose(f);
    free(e);
}

/* A is B: the same tree, the same sharing, the same positions and spans of every node. */
static void assert_same(const doc *a, const doc *b)
{
    ck_assert(json_equal(doc_root(a), doc_root(b)));
    json_t *ra = doc_root(a), *rb = doc_root(b);
    ck_assert(json_object_get(ra, "again") == json_object_get(ra, "base"));
    ck_assert(json_object_get(rb, "again") == json_object_get(rb, "base"));
    ck_assert(json_object_get(rb, "twice") == json_object_get(rb, "list"));
    char *da = json_dumps(ra, JSON_ENCODE_ANY | JSON_COMPACT),
         *db = json_dumps(rb, JSON_ENCODE_ANY | JSON_COMPACT);
    ck_assert_str_eq(da, db); /* the members in the same order too */
    free(da);
    free(db);
    ck_assert_uint_eq(doc_node_count(a), doc_node_count(b));
    for (doc_node n = 0; n < doc_node_count(a); n++) {
        struct doc_pos pa = doc_node_pos(a, n), pb = doc_node_pos(b, n);
        struct doc_pos ka = doc_node_key_pos(a, n), kb = doc_node_key_pos(b, n);
        ck_assert_msg(pa.line == pb.line && pa.col == pb.col && ka.line == kb.line &&
                          ka.col == kb.col,
                      "node %u at %u:%u (key %u:%u), read back %u:%u (key %u:%u)", n, pa.line,
                      pa.col, ka.line, ka.col, pb.line, pb.col, kb.line, kb.col);
        ck_assert_uint_eq(doc_node_size(a, n), doc_node_size(b, n));
        struct doc_span va, vb, sa, sb;
        ck_assert_int_eq(doc_node_span(a, n, &va, &sa), doc_node_span(b, n, &vb, &sb));
        ck_assert_msg(!memcmp(&va, &vb, sizeof va) && !memcmp(&sa, &sb, sizeof sa),
                      "node %u's spans differ", n);
    }
    size_t la, lb;
    const char *ta = doc_text(a, &la), *tb = doc_text(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert(!memcmp(ta, tb, la));
    ck_assert_int_eq(doc_is_yaml(b), 1);
    ck_assert_str_eq(doc_name(a), doc_name(b));
}

static doc *parsed(void)
{
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    ck_assert_ptr_nonnull(d);
    return d;
}

static doc *cached(void)
{
    struct doc_error err;
    doc *d = doc_load_file_cached(path, NULL, &err, NULL);
    ck_assert_msg(d != NULL, "%s", d ? "" : err.message);
    return d;
}

START_TEST(read_back_is_the_parse)
{
    doc *p = parsed(), *miss = cached();
    ino_t written = entry_inode();
    ck_assert_uint_ne(written, 0);
    doc *hit = cached();
    ck_assert_uint_eq(entry_inode(), written); /* read, not written again */
    assert_same(p, miss);
    assert_same(p, hit);
    doc_free(p);
    doc_free(miss);
    doc_free(hit);
}
END_TEST

START_TEST(a_damaged_entry_is_written_anew)
{
    doc *p = parsed();
    doc_free(cached());
    /* a byte of the tree, then one of the engine's name near the start */
    for (int k = 0; k < 2; k++) {
        ino_t before = entry_inode();
        if (k == 0) damage_entry(3);
        else {
            char *e = entry();
            struct stat st;
            stat(e, &st);
            free(e);
            damage_entry((long)st.st_size - 20);
        }
        doc *d = cached();
        assert_same(p, d);
        doc_free(d);
        ino_t after = entry_inode();
        ck_assert_uint_ne(after, before);
        d = cached(); /* and the new entry serves */
        assert_same(p, d);
        doc_free(d);
        ck_assert_uint_eq(entry_inode(), after);
    }
    doc_free(p);
}
END_TEST

/* The entry E edited by EDIT (given its bytes and where its payload starts), written back
 * with its payload's length and checksum made right: an entry that checks out. */
static void forge(char *e, void (*edit)(struct buf *b, size_t payload, const void *arg),
                  const void *arg)
{
    struct buf b = BUF_INIT;
    ck_assert_int_eq(buf_read_file(&b, e), 0);
    uint32_t kl;
    memcpy(&kl, b.s + 12, 4);
    size_t len_at = 16 + kl + 64, sum_at = len_at + 8, payload = sum_at + 8;
    edit(&b, payload, arg);
    uint64_t plen = b.len - payload, sum = doc_cache_checksum(b.s + payload, plen);
    memcpy(b.s + len_at, &plen, sizeof plen);
    memcpy(b.s + sum_at, &sum, sizeof sum);
    FILE *f = fopen(e, "wb");
    fwrite(b.s, 1, b.len, f);
    fclose(f);
    buf_release(&b);
    free(e);
}

static void set_first_end(struct buf *b, size_t payload, const void *end)
{
    memcpy(b->s + payload + 4 + 6 * 4, end, 4); /* after the entry count, field 7 of entry 0 */
}

/* Sets the first index entry's value end (its 7th field) to END in TEXT's entry: it checks
 * out but is not a document. */
static void forge_first_end(uint32_t end)
{
    forge(entry(), set_first_end, &end);
}

START_TEST(an_entry_that_is_no_document_is_not_used)
{
    doc *p = parsed();
    doc_free(cached());
    forge_first_end(1000000); /* past the text */
    ino_t before = entry_inode();
    doc *d = cached();
    assert_same(p, d);
    ck_assert_uint_ne(entry_inode(), before); /* refused, written anew */
    doc_free(d);
    forge_first_end((uint32_t)(sizeof TEXT - 1)); /* a span that fits: read as written */
    before = entry_inode();
    d = cached();
    ck_assert_uint_eq(entry_inode(), before);
    struct doc_span v;
    doc_node_span(d, 0, &v, NULL);
    ck_assert_uint_eq(v.end, sizeof TEXT - 1);
    doc_free(d);
    doc_free(p);
}
END_TEST

static void add_byte(struct buf *b, size_t payload, const void *unused)
{
    (void)payload;
    (void)unused;
    buf_addc(b, '\0');
}

/* A tree of DOC_ARENA_MIN_TREE or more is rebuilt in an arena of its own (doc_arena.c),
 * the same tree as parsed. An entry refused after its arena was made lets go of it:
 * refused more often than there are arenas, a good entry still gets one. */
START_TEST(a_large_tree_is_rebuilt_in_an_arena)
{
    struct buf big = BUF_INIT;
    for (int i = 0; i < 400; i++)
        buf_addf(&big, "key%d: {name: \"value number %d\", list: [1, 2, 3]}\n", i, i);
    char *bpath = xasprintf("%s/big.yaml", dir);
    FILE *f = fopen(bpath, "wb");
    fwrite(big.s, 1, big.len, f);
    fclose(f);
    struct doc_error err;
    doc *p = doc_load_file(bpath, NULL, &err);
    ck_assert_ptr_nonnull(p);
    doc_free(doc_load_file_cached(bpath, NULL, &err, NULL)); /* written */
    doc *hit = doc_load_file_cached(bpath, NULL, &err, NULL);
    ck_assert_ptr_nonnull(hit->arena);
    ck_assert(json_equal(doc_root(p), doc_root(hit)));
    ck_assert_uint_eq(doc_node_count(p), doc_node_count(hit));
    doc_free(hit);
    for (int round = 0; round < 80; round++) {
        forge(entry_of(big.s, big.len), add_byte, NULL); /* a byte after the tree */
        doc *d = doc_load_file_cached(bpath, NULL, &err, NULL);
        ck_assert_ptr_null(d->arena); /* refused: parsed, and written anew */
        ck_assert(json_equal(doc_root(p), doc_root(d)));
        doc_free(d);
    }
    hit = doc_load_file_cached(bpath, NULL, &err, NULL);
    ck_assert_ptr_nonnull(hit->arena);
    doc_free(hit);
    doc_free(p);
    free(bpath);
    buf_release(&big);
}
END_TEST

START_TEST(nothing_is_kept_when_off)
{
    setenv("MCPDESC_NO_CACHE", "1", 1);
    doc *p = parsed(), *d = cached();
    assert_same(p, d);
    ck_assert_uint_eq(entry_inode(), 0);
    doc_free(d);
    setenv("MCPDESC_NO_CACHE", "0", 1); /* 0: on */
    doc_free(cached());
    ck_assert_uint_ne(entry_inode(), 0);
    setenv("MCPDESC_NO_CACHE", "", 1); /* empty: on */
    doc_free(cached());
    ck_assert_uint_ne(entry_inode(), 0);
    doc_free(p);
}
END_TEST

START_TEST(a_directory_others_may_write_is_not_used)
{
    doc *p = parsed();
    doc_free(cached());
    char *docs = xasprintf("%s/mcpdesc/docs", dir);
    ck_assert_int_eq(chmod(docs, 0770), 0);
    damage_entry(3);
    ino_t before = entry_inode();
    doc *d = cached();
    assert_same(p, d);
    ck_assert_uint_eq(entry_inode(), before); /* neither read nor written */
    doc_free(d);
    free(docs);
    doc_free(p);
}
END_TEST

/* The directory stays bounded: past DOC_CACHE_MAX_ENTRIES, a write removes the oldest
 * entries (by mtime), never the one just written nor a file that is not an entry. */
START_TEST(the_directory_is_bounded)
{
    doc_free(cached()); /* makes the directory */
    char *docs = xasprintf("%s/mcpdesc/docs", dir);
    for (int i = 0; i < DOC_CACHE_MAX_ENTRIES + 20; i++) {
        /* another build's entries, and some of the first naming: all count */
        char *p = i % 3 ? xasprintf("%s/%064x-%016x.doc", docs, i, i + 1)
                        : xasprintf("%s/%064x.doc", docs, i);
        FILE *f = fopen(p, "wb");
        ck_assert_ptr_nonnull(f);
        fclose(f);
        struct timespec old[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
        ck_assert_int_eq(utimensat(AT_FDCWD, p, old, 0), 0);
        free(p);
    }
    char *other = xasprintf("%s/notes.txt", docs);
    FILE *f = fopen(other, "wb");
    fclose(f);
    char *e = entry();
    unlink(e); /* written again by the next load: a write prunes */
    doc_free(cached());
    size_t n = 0;
    DIR *dp = opendir(docs);
    for (struct dirent *de; (de = readdir(dp));)
        n += strlen(de->d_name) == 85 || strlen(de->d_name) == 68;
    closedir(dp);
    ck_assert_uint_eq(n, DOC_CACHE_MAX_ENTRIES * 3 / 4);
    struct stat st;
    ck_assert_int_eq(stat(e, &st), 0);     /* the newest kept */
    ck_assert_int_eq(stat(other, &st), 0); /* not an entry: left alone */
    char *oldest = xasprintf("%s/%064x.doc", docs, 0);
    ck_assert_int_ne(stat(oldest, &st), 0);
    free(oldest);
    free(other);
    free(e);
    free(docs);
}
END_TEST

/* The entry's modification time, 0 when there is none. */
static time_t entry_mtime(void)
{
    char *e = entry();
    struct stat st;
    time_t t = stat(e, &st) == 0 ? st.st_mtime : 0;
    free(e);
    return t;
}

/* Sets the entry's times AGO seconds back. */
static void age_entry(time_t ago)
{
    char *e = entry();
    time_t t = time(NULL) - ago;
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, e, ts, 0), 0);
    free(e);
}

/* An entry read is marked used when its time is over a minute old, so the bound removes
 * the least recently used, not the entries every run reads; a fresh one is left alone
 * (no system call per read). */
START_TEST(a_read_entry_is_marked_used)
{
    doc_free(cached());
    age_entry(3600);
    time_t old = entry_mtime();
    ino_t ino = entry_inode();
    doc_free(cached());
    ck_assert_uint_eq(entry_inode(), ino); /* read, not written again */
    ck_assert_int_ge(entry_mtime(), time(NULL) - 5);
    ck_assert_int_gt(entry_mtime(), old);
    age_entry(5);
    old = entry_mtime();
    doc_free(cached());
    ck_assert_int_eq(entry_mtime(), old);
}
END_TEST

Suite *doc_cache_suite(void)
{
    Suite *s = suite_create("doc_cache");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, read_back_is_the_parse);
    tcase_add_test(tc, a_damaged_entry_is_written_anew);
    tcase_add_test(tc, an_entry_that_is_no_document_is_not_used);
    tcase_add_test(tc, a_large_tree_is_rebuilt_in_an_arena);
    tcase_add_test(tc, nothing_is_kept_when_off);
    tcase_add_test(tc, a_directory_others_may_write_is_not_used);
    tcase_add_test(tc, the_directory_is_bounded);
    tcase_add_test(tc, a_read_entry_is_marked_used);
    suite_add_tcase(s, tc);
    return s;
}
