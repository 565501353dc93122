/* check_doc_memory.c - a large document's memory (issue 32 item 3): its jansson values in
 * an arena (doc_arena.c) that outlives the document while a value is still held, its file
 * mapped rather than copied (doc_load.c), JSON positions read from byte offsets rather
 * than stored (doc.c), also on a long line, and doc_shed's lines found without a table. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "doc/docInt.h"

/* A JSON description of N tools, pretty-printed, over DOC_ARENA_MIN_TEXT for large N;
 * names with escapes and non-ASCII text, so that positions count characters. */
static char *big_json(size_t n, size_t *len)
{
    struct buf b = BUF_INIT;
    buf_addf(&b, "{\n  \"tools\": [\n");
    for (size_t i = 0; i < n; i++)
        buf_addf(&b,
                 "    {\"na\\\"me\": \"t%zu\", \"description\": \"caf\xc3\xa9 \xe2\x82\xac %zu\","
                 " \"inputSchema\": {\"type\": \"object\", \"properties\": {\"a\": [1, 2.5, "
                 "true, null]}}}%s\n",
                 i, i, i + 1 < n ? "," : "");
    buf_addf(&b, "  ]\n}\n");
    *len = b.len;
    return buf_detach(&b);
}

/* Line and column of byte OFF of TEXT, counted by hand: LF breaks lines, a column is a
 * character (UTF-8 sequence) from the line's start. */
static struct doc_pos naive_pos(const char *text, size_t off)
{
    struct doc_pos p = {1, 1};
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') p.line++, p.col = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80) p.col++;
    }
    return p;
}

/* Every node's value and key position is the one counted by hand from its spans. */
static void positions_match_offsets(const doc *d, const char *text)
{
    for (doc_node n = 0; n < doc_node_count(d); n++) {
        struct doc_span v, k;
        ck_assert_int_ge(doc_node_span(d, n, &v, &k), 0);
        struct doc_pos p = doc_node_pos(d, n), kp = doc_node_key_pos(d, n),
                       want = naive_pos(text, v.start), kwant = naive_pos(text, k.start);
        ck_assert_msg(p.line == want.line && p.col == want.col, "node %u at %u:%u, not %u:%u",
                      (unsigned)n, p.line, p.col, want.line, want.col);
        ck_assert_msg(kp.line == kwant.line && kp.col == kwant.col, "key of node %u", (unsigned)n);
        if (k.end > k.start) /* a member name: its span is the whole quoted key */
            ck_assert_msg(text[k.start] == '"' && text[k.end - 1] == '"' && text[k.end] == ':',
                          "key span of node %u", (unsigned)n);
    }
}

START_TEST(values_outlive_the_document_while_held)
{
    size_t len;
    char *text = big_json(2000, &len);
    ck_assert_uint_ge(len, DOC_ARENA_MIN_TEXT);
    struct doc_error err;
    doc *d = doc_load_buffer("t", text, len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(d->arena);
    /* the tree is in the arena: more than the text's size of it handed out */
    ck_assert_uint_gt(doc_arena_used(d->arena), len);
    json_t *tools = json_incref(json_object_get(doc_root(d), "tools"));
    doc_free(d);
    /* still there, equal to jansson's own parse, and freed with its last reference */
    json_t *ref = json_loadb(text, len, 0, NULL);
    ck_assert(json_equal(tools, json_object_get(ref, "tools")));
    json_array_append_new(tools, json_string("added after the document went"));
    ck_assert_uint_eq(json_array_size(tools), 2001);
    json_decref(tools);
    json_decref(ref);
    free(text);
}
END_TEST

/* A value held past the document keeps its pages, not the whole tree's. */
START_TEST(a_held_value_keeps_only_its_pages)
{
    size_t len;
    char *text = big_json(4000, &len);
    struct doc_error err;
    doc *d = doc_load_buffer("t", text, len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    struct doc_arena *a = d->arena;
    ck_assert_ptr_nonnull(a);
    size_t before = doc_arena_resident(a);
    ck_assert_uint_gt(before, len); /* the tree is in memory */
    json_t *tools = json_object_get(doc_root(d), "tools");
    /* one from the middle, and the last one: its blocks are in the last page made */
    json_t *tool = json_incref(json_array_get(tools, 1234)),
           *last = json_incref(json_array_get(tools, 3999));
    doc_free(d);
    ck_assert_uint_le(doc_arena_resident(a), 8 * 4096); /* two tools' blocks: a few pages */
    ck_assert_str_eq(json_string_value(json_object_get(tool, "na\"me")), "t1234");
    ck_assert_str_eq(json_string_value(json_object_get(last, "na\"me")), "t3999");
    json_t *a3999 =
        json_object_get(json_object_get(json_object_get(last, "inputSchema"), "properties"), "a");
    ck_assert(json_real_value(json_array_get(a3999, 1)) == 2.5); /* the last block made */
    json_decref(tool);
    json_decref(last); /* the last blocks: the mapping goes */
    free(text);
}
END_TEST

START_TEST(small_documents_use_malloc)
{
    struct doc_error err;
    doc *d = doc_load_buffer("t", "{\"a\": [1]}", 10, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_null(d->arena);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(doc_root(d), "a"), 0)), 1);
    doc_free(d);
}
END_TEST

START_TEST(json_positions_come_from_offsets)
{
    size_t len;
    char *text = big_json(50, &len);
    struct doc_error err;
    doc *d = doc_load_buffer("t", text, len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    positions_match_offsets(d, text);
    doc_free(d);
    free(text);
}
END_TEST

/* Minified JSON: one line of many kilobytes, where a column is counted through the
 * table of characters per block rather than from the line's start. */
START_TEST(long_line_columns)
{
    struct buf b = BUF_INIT;
    buf_addf(&b, "\xEF\xBB\xBF[");
    for (int i = 0; i < 3000; i++)
        buf_addf(&b, "%s{\"k\xc3\xa9\\\"%d\":\"\xe2\x82\xac\"}", i ? "," : "", i);
    buf_addf(&b, "]\n");
    struct doc_error err;
    doc *d = doc_load_buffer("t", buf_str(&b), b.len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    /* hand counts start after the byte order mark */
    for (doc_node n = 1; n < doc_node_count(d); n += 7) {
        struct doc_span v, k;
        doc_node_span(d, n, &v, &k);
        struct doc_pos p = doc_node_pos(d, n), want = naive_pos(buf_str(&b) + 3, v.start - 3);
        ck_assert_msg(p.line == 1 && p.col == want.col, "node %u: col %u, not %u", (unsigned)n,
                      p.col, want.col);
    }
    doc_free(d);
    buf_release(&b);
}
END_TEST

/* TEXT written to a new temporary file (its name, new). */
static char *temp_file(const char *text, size_t len)
{
    char *path = strdup("/tmp/check-doc-memory-XXXXXX.json");
    int fd = mkstemps(path, 5);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

START_TEST(a_large_file_is_mapped_and_reads_the_same)
{
    size_t len;
    char *text = big_json(12000, &len);
    ck_assert_uint_ge(len, (size_t)1 << 20);
    if (len % (size_t)sysconf(_SC_PAGESIZE) == 0) len--; /* room for the NUL: no final LF */
    char *path = temp_file(text, len);
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err), *e = doc_load_buffer("t", text, len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->text_mapped, 1);
    size_t got;
    ck_assert_int_eq(memcmp(doc_text(d, &got), text, len), 0);
    ck_assert_uint_eq(got, len);
    ck_assert_int_eq(doc_text(d, NULL)[len], '\0');
    ck_assert(json_equal(doc_root(d), doc_root(e)));
    ck_assert_uint_eq(doc_node_count(d), doc_node_count(e));
    for (doc_node n = 0; n < doc_node_count(d); n += 97) {
        struct doc_pos p = doc_node_pos(d, n), q = doc_node_pos(e, n);
        ck_assert(p.line == q.line && p.col == q.col);
    }
    /* the last lines and past them, after the pages were dropped */
    for (uint32_t line = 12000; line < 12008; line++) {
        size_t l1, l2;
        const char *a = doc_line(d, line, &l1), *b = doc_line(e, line, &l2);
        ck_assert_msg(!a == !b, "line %u", line);
        if (a) ck_assert(l1 == l2 && !memcmp(a, b, l1));
    }
    doc_free(d);
    /* MCPDESC_NO_MMAP: read, not mapped; the same document */
    setenv("MCPDESC_NO_MMAP", "1", 1);
    d = doc_load_file(path, NULL, &err);
    unsetenv("MCPDESC_NO_MMAP");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->text_mapped, 0);
    ck_assert(json_equal(doc_root(d), doc_root(e)));
    doc_free(d);
    doc_free(e);
    unlink(path);
    free(path);
    free(text);
}
END_TEST

/* doc_shed without a line table (one scan of the text) keeps the lines doc_line gives. */
START_TEST(shed_keeps_the_lines_without_a_table)
{
    size_t len;
    char *text = big_json(3000, &len);
    char *path = temp_file(text, len);
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err), *e = doc_load_buffer("t", text, len, 0, NULL, &err);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->line_starts.len, 0);
    const uint32_t want[] = {2999, 1, 3, 3, 0, 3004, 3005, 3006, 2, 1500};
    static const char *const keep[] = {"tools", NULL};
    doc_shed(d, want, sizeof want / sizeof *want, keep);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        size_t l1, l2;
        const char *a = doc_line(d, want[i], &l1), *b = doc_line(e, want[i], &l2);
        ck_assert_msg(!a == !b, "line %u kept: %d, exists: %d", want[i], !!a, !!b);
        if (a) ck_assert_msg(l1 == l2 && !memcmp(a, b, l1), "line %u differs", want[i]);
    }
    ck_assert_ptr_null(doc_line(d, 4, &len)); /* not asked for */
    ck_assert_uint_eq(json_array_size(json_object_get(doc_root(d), "tools")), 3000);
    doc_free(d);
    doc_free(e);
    unlink(path);
    free(path);
    free(text);
}
END_TEST

Suite *doc_memory_suite(void)
{
    Suite *s = suite_create("doc_memory");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, values_outlive_the_document_while_held);
    tcase_add_test(tc, a_held_value_keeps_only_its_pages);
    tcase_add_test(tc, small_documents_use_malloc);
    tcase_add_test(tc, json_positions_come_from_offsets);
    tcase_add_test(tc, long_line_columns);
    tcase_add_test(tc, a_large_file_is_mapped_and_reads_the_same);
    tcase_add_test(tc, shed_keeps_the_lines_without_a_table);
    suite_add_tcase(s, tc);
    return s;
}
