/* check_capture.c - unit tests for the capture merge (capture_merge) and the JSON-RPC
 * message framing (rpc_reader, rpc_sse, rpc_classify). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/rpc.h"

static json_t *J(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    ck_assert_msg(v != NULL, "bad test JSON: %s", e.text);
    return v;
}

static void session(struct capture_session *s, const char *version, const char *tools)
{
    memset(s, 0, sizeof *s);
    s->requested = strdup(version);
    s->version = strdup(version);
    s->server_info = J("{\"name\": \"srv\", \"version\": \"1\"}");
    s->capabilities = J("{\"tools\": {}}");
    s->lists[CAPTURE_TOOLS] = J(tools);
}

static char *names_and_versions(json_t *doc)
{
    struct buf b = BUF_INIT;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(doc, "tools"), i, t) {
        buf_addf(&b, "%s%s", i ? " " : "", json_string_value(json_object_get(t, "name")));
        json_t *pv = json_object_get(t, "protocolVersions");
        size_t k;
        json_t *v;
        json_array_foreach(pv, k, v) buf_addf(&b, "%c%s", k ? ',' : '@', json_string_value(v) + 5);
    }
    return buf_detach(&b);
}

START_TEST(merge_identical_items_once)
{
    struct capture_session s[2];
    session(&s[0], "2025-11-25", "[{\"name\": \"a\"}, {\"name\": \"b\"}]");
    session(&s[1], "2025-06-18", "[{\"name\": \"a\"}, {\"name\": \"b\"}]");
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 2, "mcpdesc 0.1.0", "2026-01-01", &notes);
    char *got = names_and_versions(doc);
    ck_assert_str_eq(got, "a b");
    free(got);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(doc, "protocolVersions"), 0)), "2025-06-18");
    ck_assert_str_eq(json_string_value(json_object_get(doc, "mcpDescription")), "0.9.0");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "x-capturedBy"), "date")), "2026-01-01");
    ck_assert_ptr_null(json_object_get(doc, "prompts"));
    ck_assert_uint_eq(notes.len, 0);
    /* the sessions are not modified by the merge */
    ck_assert_ptr_null(json_object_get(json_array_get(s[0].lists[CAPTURE_TOOLS], 0), "protocolVersions"));
    json_decref(doc);
    buf_release(&notes);
    capture_session_release(&s[0]);
    capture_session_release(&s[1]);
}
END_TEST

START_TEST(merge_without_date_and_summary)
{
    struct capture_session s[2];
    session(&s[0], "2025-11-25", "[{\"name\": \"a\", \"title\": \"new\"}, {\"name\": \"b\"}]");
    session(&s[1], "2025-06-18", "[{\"name\": \"a\"}, {\"name\": \"b\"}]");
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 2, "mcpdesc 0.1.0", NULL, &notes);
    json_t *by = json_object_get(doc, "x-capturedBy");
    ck_assert_str_eq(json_string_value(json_object_get(by, "tool")), "mcpdesc 0.1.0");
    ck_assert_ptr_null(json_object_get(by, "date"));
    struct buf sum = BUF_INIT;
    capture_summary(doc, &sum);
    /* 'a' has two forms: counted once */
    ck_assert_str_eq(buf_str(&sum), "captured protocol versions 2025-06-18, 2025-11-25: 2 tools, 0 "
                                    "resources, 0 resource templates, 0 prompts");
    buf_release(&sum);
    json_decref(doc);
    buf_release(&notes);
    capture_session_release(&s[0]);
    capture_session_release(&s[1]);
}
END_TEST

START_TEST(merge_forms_and_order)
{
    struct capture_session s[3];
    session(&s[0], "2024-11-05", "[{\"name\": \"old\"}, {\"name\": \"a\"}, {\"name\": \"b\"}]");
    session(&s[1], "2025-06-18", "[{\"name\": \"a\", \"title\": \"A\"}, {\"name\": \"b\"}]");
    session(&s[2], "2025-11-25", "[{\"name\": \"a\", \"title\": \"A\"}, {\"name\": \"b\"}, {\"name\": \"new\"}]");
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 3, "t", "d", &notes);
    char *got = names_and_versions(doc);
    ck_assert_str_eq(got, "old@11-05 a@06-18,11-25 a@11-05 b new@11-25");
    free(got);
    ck_assert_ptr_nonnull(strstr(buf_str(&notes), "tool 'a' differs"));
    json_decref(doc);
    buf_release(&notes);
    for (int i = 0; i < 3; i++) capture_session_release(&s[i]);
}
END_TEST

START_TEST(merge_duplicates_and_missing_capability)
{
    struct capture_session s[2];
    /* the same tool twice in one session stays twice; a session without the tools
     * capability makes every tool version-specific */
    session(&s[0], "2025-03-26", "[{\"name\": \"a\"}, {\"name\": \"a\"}]");
    session(&s[1], "2025-06-18", "[]");
    json_decref(s[1].lists[CAPTURE_TOOLS]);
    s[1].lists[CAPTURE_TOOLS] = NULL;
    json_decref(s[1].instructions);
    s[1].instructions = json_string("newer");
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 2, "t", "d", &notes);
    char *got = names_and_versions(doc);
    ck_assert_str_eq(got, "a@03-26 a@03-26");
    free(got);
    ck_assert_str_eq(json_string_value(json_object_get(doc, "instructions")), "newer");
    ck_assert_ptr_nonnull(strstr(buf_str(&notes), "instructions differs in protocol version 2025-03-26; recorded: 2025-06-18's"));
    json_decref(doc);
    buf_release(&notes);
    capture_session_release(&s[0]);
    capture_session_release(&s[1]);
}
END_TEST

START_TEST(merge_server_info_from_newest_having_it)
{
    struct capture_session s[2];
    session(&s[0], "2025-11-25", "[]");
    session(&s[1], "2026-07-28", "[]");
    json_decref(s[1].server_info);
    s[1].server_info = NULL; /* 2026-07-28 only SHOULD send it */
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 2, "t", "d", &notes);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "serverInfo"), "name")), "srv");
    json_decref(doc);
    buf_release(&notes);
    capture_session_release(&s[0]);
    capture_session_release(&s[1]);
}
END_TEST

START_TEST(reader_splits_lines)
{
    struct rpc_reader r;
    rpc_reader_init(&r, 10);
    const char *line;
    size_t n;
    rpc_reader_feed(&r, "{\"a\"", 4);
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 0);
    rpc_reader_feed(&r, ":1}\r\n\n  \n[2]\n[3", 15);
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 1);
    ck_assert_uint_eq(n, 7);
    ck_assert(!memcmp(line, "{\"a\":1}", 7));
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 1); /* blank lines skipped */
    ck_assert(n == 3 && !memcmp(line, "[2]", 3));
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 0);
    ck_assert_uint_eq(rpc_reader_pending(&r), 2);
    rpc_reader_feed(&r, "]\n", 2);
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 1);
    ck_assert(n == 3 && !memcmp(line, "[3]", 3));
    /* a line over the limit, with or without its newline yet */
    rpc_reader_feed(&r, "0123456789A", 11);
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), -1);
    rpc_reader_release(&r);
    rpc_reader_init(&r, 10);
    rpc_reader_feed(&r, "0123456789A\n", 12);
    ck_assert_int_eq(rpc_reader_next(&r, &line, &n), -1);
    rpc_reader_release(&r);
}
END_TEST

START_TEST(reader_compacts_long_streams)
{
    struct rpc_reader r;
    rpc_reader_init(&r, 100);
    const char *line;
    size_t n;
    for (int i = 0; i < 10000; i++) {
        rpc_reader_feed(&r, "{\"i\":1}\n{", 9);
        ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 1);
        ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 0);
        rpc_reader_feed(&r, "}\n", 2);
        ck_assert_int_eq(rpc_reader_next(&r, &line, &n), 1);
        ck_assert(n == 2 && !memcmp(line, "{}", 2));
    }
    ck_assert_uint_lt(r.data.cap, 20000);
    rpc_reader_release(&r);
}
END_TEST

START_TEST(sse_events)
{
    struct rpc_sse s;
    rpc_sse_init(&s, 1000);
    char *data;
    size_t n;
    const char *text = ": comment\n\nevent: message\nid: 1\ndata: {\"a\":\ndata:1}\n\nretry: 5\n\ndata: x";
    rpc_sse_feed(&s, text, strlen(text));
    ck_assert_int_eq(rpc_sse_next(&s, &data, &n), 1);
    ck_assert_str_eq(data, "{\"a\":\n1}");
    ck_assert_uint_eq(n, 8);
    free(data);
    ck_assert_int_eq(rpc_sse_next(&s, &data, &n), 0); /* "retry" event has no data; "x" unfinished */
    rpc_sse_feed(&s, "\r\n\r\n", 4);
    ck_assert_int_eq(rpc_sse_next(&s, &data, &n), 1);
    ck_assert_str_eq(data, "x");
    free(data);
    rpc_sse_release(&s);

    rpc_sse_init(&s, 8);
    rpc_sse_feed(&s, "data: 12345\ndata: 67890\n\n", 25);
    ck_assert_int_eq(rpc_sse_next(&s, &data, &n), -1);
    rpc_sse_release(&s);
}
END_TEST

START_TEST(classify_messages)
{
    static const struct { const char *json; enum rpc_kind kind; } cases[] = {
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", RPC_MSG_RESPONSE},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\"}}", RPC_MSG_RESPONSE},
        {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"m\"}}", RPC_MSG_RESPONSE},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}", RPC_MSG_REQUEST},
        {"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}", RPC_MSG_NOTIFICATION},
        {"{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{}}", RPC_MSG_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"id\":1}", RPC_MSG_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}", RPC_MSG_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}", RPC_MSG_INVALID},
        {"[1]", RPC_MSG_INVALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *m = J(cases[i].json);
        ck_assert_msg(rpc_classify(m) == cases[i].kind, "case %zu: %s", i, cases[i].json);
        json_decref(m);
    }
    ck_assert_int_eq(rpc_classify(NULL), RPC_MSG_INVALID);
}
END_TEST

START_TEST(dump_layout_and_reals)
{
    json_t *v = J("{\"a\": 0.1, \"b\": 1.0, \"c\": [], \"d\": {}, \"e\": 1e300,"
                  " \"f\": \"x\\\"y\\u00e9\", \"g\": [1, true, null, 0.30000000000000004]}");
    struct buf b = BUF_INIT;
    capture_dump(v, &b);
    ck_assert_str_eq(buf_str(&b), "{\n  \"a\": 0.1,\n  \"b\": 1.0,\n  \"c\": [],\n  \"d\": {},\n"
                                  "  \"e\": 1e+300,\n  \"f\": \"x\\\"y\xc3\xa9\",\n  \"g\": [\n    1,\n"
                                  "    true,\n    null,\n    0.30000000000000004\n  ]\n}\n");
    buf_release(&b);
    json_decref(v);
}
END_TEST

/* A suppression a server sends is dropped, with a note, and the sessions keep theirs. */
START_TEST(merge_drops_server_suppressions)
{
    struct capture_session s[2];
    const char *tools = "[{\"name\": \"a\", \"x-mcpdesc-ignore\": [{\"rule\": \"security.*\", "
                        "\"reason\": \"trust me\"}]}, {\"name\": \"b\"}]";
    session(&s[0], "2025-11-25", tools);
    session(&s[1], "2025-06-18", tools);
    struct buf notes = BUF_INIT;
    json_t *doc = capture_merge(s, 2, "t", "d", &notes);
    json_t *a = json_array_get(json_object_get(doc, "tools"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(a, "name")), "a");
    ck_assert_ptr_null(json_object_get(a, "x-mcpdesc-ignore"));
    ck_assert_str_eq(buf_str(&notes), "tool \"a\": the server sent x-mcpdesc-ignore; dropped "
                                      "(suppressions are the description author's, not the "
                                      "server's)\n");
    ck_assert_ptr_nonnull(json_object_get(json_array_get(s[0].lists[CAPTURE_TOOLS], 0), "x-mcpdesc-ignore"));
    json_decref(doc);
    buf_release(&notes);
    capture_session_release(&s[0]);
    capture_session_release(&s[1]);
}
END_TEST

START_TEST(known_versions)
{
    ck_assert(capture_version_known("2024-11-05"));
    ck_assert(capture_version_known("2026-07-28"));
    ck_assert(!capture_version_known("2025-01-01"));
}
END_TEST

/* A configured env or header value is shown as *** in relayed server stderr and -v logs;
 * values under RPC_MASK_MIN bytes are left alone (masking "1" would garble every line). */
START_TEST(mask_secrets)
{
    const char *const secrets[] = {"s3cret", "abc", "s3cret-longer", NULL};
    const char *in = "TOKEN=s3cret x=abc s3crets3cret end";
    struct buf b = BUF_INIT;
    rpc_mask(&b, in, strlen(in), secrets);
    ck_assert_str_eq(buf_str(&b), "TOKEN=*** x=abc ****** end");
    buf_release(&b);
    rpc_mask(&b, "no secrets", 10, NULL);
    ck_assert_str_eq(buf_str(&b), "no secrets");
    buf_release(&b);
    rpc_mask(&b, "k=s3cret-longer", 15, secrets); /* the longest, no tail shown */
    ck_assert_str_eq(buf_str(&b), "k=***");
    buf_release(&b);
    rpc_mask(&b, "s3cr", 4, secrets); /* a cut secret is not one */
    ck_assert_str_eq(buf_str(&b), "s3cr");
    buf_release(&b);
}
END_TEST

Suite *capture_suite(void)
{
    Suite *s = suite_create("capture");
    TCase *tc = tcase_create("merge");
    tcase_add_test(tc, merge_identical_items_once);
    tcase_add_test(tc, merge_forms_and_order);
    tcase_add_test(tc, merge_without_date_and_summary);
    tcase_add_test(tc, merge_duplicates_and_missing_capability);
    tcase_add_test(tc, merge_server_info_from_newest_having_it);
    tcase_add_test(tc, known_versions);
    tcase_add_test(tc, merge_drops_server_suppressions);
    tcase_add_test(tc, dump_layout_and_reals);
    suite_add_tcase(s, tc);
    tc = tcase_create("messages");
    tcase_add_test(tc, reader_splits_lines);
    tcase_add_test(tc, reader_compacts_long_streams);
    tcase_add_test(tc, sse_events);
    tcase_add_test(tc, classify_messages);
    tcase_add_test(tc, mask_secrets);
    suite_add_tcase(s, tc);
    return s;
}
