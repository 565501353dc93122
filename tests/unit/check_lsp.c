/* check_lsp.c - the language server's message handler (lsp/lsp.h) in whole sessions,
 * without pipes: the lifecycle (initialize, shutdown, exit and its status), position
 * encodings negotiated, diagnostics published for a description with non-ASCII text
 * (compared as exact JSON), incremental and full edits in UTF-16 and CRLF, JSON-RPC
 * errors, the debounce with cancel and requests answered for the newest text, the
 * reload of the rule set (good and failing), and the plumbing of hover, definition,
 * completion and code actions (their contents are lsp_features.c's tests). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "lsp/lsp.h"
#include "testutil.h"

#define RULES                                                                                      \
    "rules:\n  - id: t.name\n    owner: t\n    surface: Tool\n    kind: structural\n"              \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/*', require: {has: name}, message: 'no name'}\n"                  \
    "  - id: t.bool\n    owner: t\n    surface: Tool\n    kind: structural\n"                      \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/[*]/inputSchema/p/*', require: {json-type: object}, message: "    \
    "'not an object', fix: {title: 'replace {value} with {}', when: {equals: true}, replace: "     \
    "{}}}\n"                                                                                       \
    "  - id: t.str\n    owner: t\n    surface: Tool\n    kind: structural\n"                       \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/[*]/x-s', require: {equals: \"\xc3\xa8\"}, message: m, fix: "     \
    "{title: t, replace: \"\xc3\xa8\"}}\n"                                                         \
    "  - id: t.rlo\n    owner: t\n    surface: Tool\n    kind: structural\n"                       \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n"           \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n"                   \
    "    check: {select: '/tools/[*]/description', require: {not: {matches: '\\x{202E}'}}, "       \
    "report-at: match, message: 'rlo {codepoint}'}\n"

/* The test host: loads RULES, or fails when FAIL is set; counts the loads. */
struct host {
    int loads, fail;
};

static int load(void *arg, const char *root, struct lsp_rules *out, char **why)
{
    struct host *h = arg;
    h->loads++;
    if (h->fail) {
        *why = xstrdup("planted failure");
        return -1;
    }
    struct rule_set *rs = tu_rules_ok(RULES);
    *out = (struct lsp_rules){rs, NULL, rs, NULL};
    return 0;
}

static void unload(void *arg, struct lsp_rules *r)
{
    rule_set_free(r->handle);
}

static struct host H;
static lsp_server *S;
static double NOW;

static lsp_server *start(long debounce)
{
    H = (struct host){0, 0};
    struct lsp_host host = {load, unload, NULL, &H, NULL};
    NOW = 0;
    return S = lsp_server_new(&host, debounce);
}

/* The messages of OUT, one compact JSON (keys sorted) per line; OUT is released. New
 * string. */
static char *lines(json_t *out)
{
    struct buf b = BUF_INIT;
    size_t i;
    json_t *m;
    json_array_foreach(out, i, m)
    {
        char *s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
        buf_adds(&b, s);
        buf_addc(&b, '\n');
        free(s);
    }
    json_decref(out);
    char *r = buf_detach(&b);
    return r ? r : xstrdup("");
}

/* Send TEXT (a JSON message) at NOW: what the server sends back (lines). */
static char *send_msg(const char *text)
{
    json_t *out = json_array();
    lsp_handle(S, text, strlen(text), NOW, out);
    return lines(out);
}

/* The debounce timer at AT: what the server sends (lines). */
static char *tick(double at)
{
    NOW = at;
    json_t *out = json_array();
    lsp_tick(S, NOW, out);
    return lines(out);
}

#define EXPECT(msg, want)                                                                          \
    do {                                                                                           \
        char *got_ = send_msg(msg);                                                                \
        ck_assert_str_eq(got_, want);                                                              \
        free(got_);                                                                                \
    } while (0)

#define INIT                                                                                       \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}"
#define INIT_RESULT(enc)                                                                           \
    "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"capabilities\":{\"codeActionProvider\":{"         \
    "\"codeActionKinds\":[\"quickfix\",\"source.fixAll.mcpdesc\"]},\"completionProvider\":{"       \
    "\"triggerCharacters\":[\":\","                                                                \
    "\"-\",\"$\"]},\"definitionProvider\":true,\"hoverProvider\":true,\"positionEncoding\":\"" enc \
    "\",\"textDocumentSync\":{\"change\":2,\"openClose\":true,\"save\":{\"includeText\":false}}}," \
    "\"serverInfo\":{\"name\":\"mcpdesc\",\"version\":\"" MCPDESC_VERSION "\"}}}\n"
#define SHUTDOWN "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"shutdown\"}"
#define EXIT "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"

START_TEST(lsp_lifecycle)
{
    start(0);
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"textDocument/hover\",\"params\":{}}",
           "{\"error\":{\"code\":-32002,\"message\":\"server not initialized\"},\"id\":0,"
           "\"jsonrpc\":\"2.0\"}\n");
    /* notifications before initialize are dropped */
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}", "");
    EXPECT(INIT, INIT_RESULT("utf-16"));
    ck_assert_int_eq(H.loads, 1);
    EXPECT(INIT,
           "{\"error\":{\"code\":-32600,\"message\":\"initialize was sent twice\"},\"id\":1,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}", "");
    ck_assert_int_eq(lsp_exit_status(S), -1);
    EXPECT(SHUTDOWN, "{\"id\":99,\"jsonrpc\":\"2.0\",\"result\":null}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"textDocument/hover\",\"params\":{}}",
           "{\"error\":{\"code\":-32600,\"message\":\"the server is shut down\"},\"id\":5,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT(EXIT, "");
    ck_assert_int_eq(lsp_exit_status(S), 0);
    /* after exit nothing is answered */
    EXPECT(INIT, "");
    lsp_server_free(S);
    /* exit without shutdown: status 1 */
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT(EXIT, "");
    ck_assert_int_eq(lsp_exit_status(S), 1);
    lsp_server_free(S);
}
END_TEST

START_TEST(lsp_encodings)
{
    static const char *const offers[] = {"[\"utf-8\",\"utf-16\"]", "[\"utf-32\",\"utf-8\"]",
                                         "[\"latin-1\"]", "[]"};
    static const char *const chosen[] = {INIT_RESULT("utf-8"), INIT_RESULT("utf-32"),
                                         INIT_RESULT("utf-16"), INIT_RESULT("utf-16")};
    for (size_t i = 0; i < 4; i++) {
        start(0);
        char *m = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                            "\"capabilities\":{\"general\":{\"positionEncodings\":%s}}}}",
                            offers[i]);
        EXPECT(m, chosen[i]);
        free(m);
        lsp_server_free(S);
    }
}
END_TEST

/* A description whose second tool has no name, after an emoji on the same line: the
 * finding's UTF-16 character is one more than its code-point column. */
#define URI "file:///tmp/lsp-test/d.json"
#define DOC                                                                                        \
    "{\"mcpDescription\": \"0.9.0\",\n"                                                            \
    " \"tools\": [{\"name\": \"\xf0\x9f\x98\x80\"}, {\"title\": \"\xc3\xa9\"}]}\n"
#define OPEN(text)                                                                                 \
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{"      \
    "\"uri\":\"" URI "\",\"languageId\":\"json\",\"version\":1,\"text\":\"" text "\"}}}"
/* DOC as a JSON string's body */
#define DOC_J                                                                                      \
    "{\\\"mcpDescription\\\": \\\"0.9.0\\\",\\n \\\"tools\\\": [{\\\"name\\\": "                   \
    "\\\"\xf0\x9f\x98\x80\\\"}, {\\\"title\\\": \\\"\xc3\xa9\\\"}]}\\n"
#define VERSIONS "(2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)"
#define PUBLISHED(version, diags)                                                                  \
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{"             \
    "\"diagnostics\":[" diags "],\"uri\":\"" URI "\",\"version\":" version "}}\n"
/* the finding: the object {"title": "é"} from UTF-16 character 27 to 41 of line 1 (code
 * points 26 to 40, bytes 29 to 44) */
#define NO_NAME(l, a, b)                                                                           \
    "{\"code\":\"t.name\",\"message\":\"no name " VERSIONS                                         \
    "\",\"range\":{\"end\":{\"character\":" #b ",\"line\":" #l "},\"start\":{\"character\":" #a    \
    ",\"line\":" #l "}},\"severity\":1,"                                                           \
    "\"source\":\"mcpdesc\"}"

START_TEST(lsp_publishes_diagnostics)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    /* no codeDescription: the test rule set has no docs-url (no made-up links) */
    EXPECT(OPEN(DOC_J), PUBLISHED("1", NO_NAME(1, 27, 41)));
    /* closing clears them (no version) */
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":{"
           "\"textDocument\":{\"uri\":\"" URI "\"}}}",
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{"
           "\"diagnostics\":[],\"uri\":\"" URI "\"}}\n");
    lsp_server_free(S);
    /* the same in UTF-8 (bytes) and UTF-32 (code points) */
    static const char *const encs[] = {"utf-8", "utf-32"};
    static const char *const want[] = {PUBLISHED("1", NO_NAME(1, 29, 44)),
                                       PUBLISHED("1", NO_NAME(1, 26, 40))};
    for (size_t i = 0; i < 2; i++) {
        start(0);
        char *m = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                            "\"capabilities\":{\"general\":{\"positionEncodings\":[\"%s\"]}}}}",
                            encs[i]);
        free(send_msg(m));
        free(m);
        EXPECT(OPEN(DOC_J), want[i]);
        lsp_server_free(S);
    }
}
END_TEST

/* report-at: match: the range is the escape \u202e itself (six characters), after an
 * emoji (two UTF-16 units): UTF-16 characters 44 to 50 of line 1, code points 43 to 49 */
#define DOC_RLO_J                                                                                  \
    "{\\\"mcpDescription\\\": \\\"0.9.0\\\",\\n \\\"tools\\\": [{\\\"name\\\": \\\"x\\\", "        \
    "\\\"description\\\": \\\"\xf0\x9f\x98\x80 \\\\u202e!\\\"}]}\\n"
#define RLO(l, a, b)                                                                               \
    "{\"code\":\"t.rlo\",\"message\":\"rlo U+202E RIGHT-TO-LEFT OVERRIDE " VERSIONS                \
    "\",\"range\":{\"end\":{\"character\":" #b ",\"line\":" #l "},\"start\":{\"character\":" #a    \
    ",\"line\":" #l "}},\"severity\":1,"                                                           \
    "\"source\":\"mcpdesc\"}"

START_TEST(lsp_match_range)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT(OPEN(DOC_RLO_J), PUBLISHED("1", RLO(1, 44, 50)));
    lsp_server_free(S);
}
END_TEST

#define CHANGE_AT(uri, version, changes)                                                           \
    "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"    \
    "\"uri\":\"" uri "\",\"version\":" version "},\"contentChanges\":[" changes "]}}"
#define CHANGE(version, changes) CHANGE_AT(URI, version, changes)
#define RANGE(l1, c1, l2, c2)                                                                      \
    "\"range\":{\"start\":{\"line\":" #l1 ",\"character\":" #c1 "},\"end\":{\"line\":" #l2         \
    ",\"character\":" #c2 "}}"

START_TEST(lsp_incremental_edits)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    free(send_msg(OPEN(DOC_J)));
    /* insert a name in the second tool: UTF-16 character 28 is after its '{' */
    EXPECT(CHANGE("2", "{" RANGE(1, 28, 1, 28) ",\"text\":\"\\\"name\\\": \\\"x\\\", \"}"),
           PUBLISHED("2", ""));
    /* remove it again, and break the first one's name in the same change: ranges apply in
     * order, each to the text the one before left */
    EXPECT(CHANGE("3",
                  "{" RANGE(1, 28, 1, 41) ",\"text\":\"\"},"
                                          "{" RANGE(1, 13, 1, 17) ",\"text\":\"nome\"}"),
           PUBLISHED("3", NO_NAME(1, 11, 25) "," NO_NAME(1, 27, 41)));
    /* a full replacement (no range), with CRLF line ends and the emoji on line 2 */
    EXPECT(CHANGE("4",
                  "{\"text\":\"{\\\"mcpDescription\\\": \\\"0.9.0\\\",\\r\\n"
                  "\\\"tools\\\": [\\r\\n{\\\"x\\\": \\\"\xf0\x9f\x98\x80\\\"}, {}]}\\r\\n\"}"),
           PUBLISHED("4", NO_NAME(2, 0, 11) "," NO_NAME(2, 13, 15)));
    /* an edit on line 2 after the emoji in CRLF text: between the "}" and ", {}" */
    EXPECT(CHANGE("5", "{" RANGE(2, 11, 2, 15) ",\"text\":\"\"}"),
           PUBLISHED("5", NO_NAME(2, 0, 11)));
    lsp_server_free(S);
}
END_TEST

/* A description edited so that its top level loses the member (it still names it, lower
 * down): no longer a description, its findings are withdrawn, as when the server
 * classified each text by parsing it (the judge now says so, lspf_classify_edited); put
 * back, it is judged again, the unchanged tool's finding kept in the memo. */
START_TEST(lsp_description_member_lost)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT(OPEN(DOC_J), PUBLISHED("1", NO_NAME(1, 27, 41)));
    /* the member moves into another object: named, but not at the top level */
    EXPECT(CHANGE("2",
                  "{" RANGE(0, 1, 0, 1) ",\"text\":\"\\\"m\\\": {\"},"
                                        "{" RANGE(0, 32, 0, 32) ",\"text\":\"}\"}"),
           PUBLISHED("2", ""));
    EXPECT(CHANGE("3",
                  "{" RANGE(0, 1, 0, 7) ",\"text\":\"\"},"
                                        "{" RANGE(0, 26, 0, 27) ",\"text\":\"\"}"),
           PUBLISHED("3", NO_NAME(1, 27, 41)));
    /* an edit in the first tool: the second's finding moves with it */
    EXPECT(CHANGE("4", "{" RANGE(1, 12, 1, 12) ",\"text\":\"  \"}"),
           PUBLISHED("4", NO_NAME(1, 29, 43)));
    lsp_server_free(S);
}
END_TEST

START_TEST(lsp_errors)
{
    start(0);
    EXPECT("{not json",
           "{\"error\":{\"code\":-32700,\"message\":\"string or '}' expected near 'not'\"},"
           "\"id\":null,\"jsonrpc\":\"2.0\"}\n");
    EXPECT("[1]",
           "{\"error\":{\"code\":-32600,\"message\":\"invalid request\"},\"id\":null,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT("{\"id\":3,\"method\":\"initialize\"}",
           "{\"error\":{\"code\":-32600,\"message\":\"invalid request\"},\"id\":3,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"initialize\"}",
           "{\"error\":{\"code\":-32600,\"message\":\"invalid request\"},\"id\":null,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":[]}",
           "{\"error\":{\"code\":-32602,\"message\":\"initialize takes an object\"},\"id\":4,"
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"no/such\"}",
           "{\"error\":{\"code\":-32601,\"message\":\"method not found\"},\"id\":\"s\","
           "\"jsonrpc\":\"2.0\"}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"no/such\"}", "");
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"$/setTrace\",\"params\":{\"value\":\"off\"}}", "");
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"textDocument/hover\",\"params\":{"
           "\"textDocument\":{\"uri\":\"" URI "\"}}}",
           "{\"error\":{\"code\":-32602,\"message\":\"invalid params\"},\"id\":6,"
           "\"jsonrpc\":\"2.0\"}\n");
    /* a response to a request of ours: nothing to answer */
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":\"mcpdesc-watch-1\",\"result\":null}", "");
    /* malformed notifications are dropped */
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":7}", "");
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{}}", "");
    json_t *out = json_array();
    lsp_handle_frame_error(S, "header without a valid Content-Length", out);
    ck_assert_int_eq(json_integer_value(
                         json_object_get(json_object_get(json_array_get(out, 0), "error"), "code")),
                     -32700);
    json_decref(out);
    ck_assert_int_eq(lsp_exit_status(S), -1);
    lsp_server_free(S);
}
END_TEST

#define HOVER(id)                                                                                  \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"textDocument/hover\",\"params\":{"           \
    "\"textDocument\":{\"uri\":\"" URI "\"},\"position\":{\"line\":1,\"character\":30}}}"

START_TEST(lsp_debounce_cancel_newest)
{
    start(100);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT(OPEN(DOC_J), ""); /* judged by the next tick, at once */
    ck_assert(lsp_next_due(S) == 0);
    char *t = tick(0);
    ck_assert_str_eq(t, PUBLISHED("1", NO_NAME(1, 27, 41)));
    free(t);
    ck_assert(lsp_next_due(S) < 0);
    NOW = 1;
    EXPECT(CHANGE("2", "{" RANGE(1, 28, 1, 28) ",\"text\":\"\\\"name\\\": \\\"x\\\", \"}"), "");
    ck_assert(lsp_next_due(S) > 1.09 && lsp_next_due(S) < 1.11);
    /* requests about it wait for the re-judge; a cancelled one is answered so */
    EXPECT(HOVER(7), "");
    EXPECT(HOVER(8), "");
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":7}}",
           "{\"error\":{\"code\":-32800,\"message\":\"request cancelled\"},\"id\":7,"
           "\"jsonrpc\":\"2.0\"}\n");
    /* cancelling one already answered or unknown does nothing */
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":7}}", "");
    /* another change before the debounce ran out: version 3 is the one judged */
    NOW = 1.05;
    EXPECT(CHANGE("3", "{" RANGE(1, 13, 1, 17) ",\"text\":\"nome\"}"), "");
    t = tick(1.1);
    ck_assert_str_eq(t, "");
    free(t);
    /* the hover is answered after the diagnostics of the newest version (3), not of 2 */
    t = tick(1.2);
    char *p = strstr(t, "\"version\":3}}");
    ck_assert_msg(p != NULL, "no diagnostics of version 3 in %s", t);
    ck_assert_msg(strstr(t, "\"version\":2") == NULL, "version 2 published in %s", t);
    ck_assert_msg(strstr(p, "{\"id\":8,\"jsonrpc\":\"2.0\",\"result\":null}\n") != NULL,
                  "hover 8 not answered after the publish in %s", t);
    ck_assert_msg(strstr(t, "no name " VERSIONS) != NULL, "the newest text not judged in %s", t);
    free(t);
    /* initializationOptions.debounceMs: 0 judges at once */
    lsp_server_free(S);
    start(100);
    free(send_msg("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                  "\"capabilities\":{},\"initializationOptions\":{\"debounceMs\":0}}}"));
    EXPECT(OPEN(DOC_J), PUBLISHED("1", NO_NAME(1, 27, 41)));
    lsp_server_free(S);
}
END_TEST

/* Judging elsewhere (lsp_run's worker thread): a job for version 1 that finishes after
 * version 2 arrived is dropped, not published; the request that waited is answered
 * after the diagnostics of version 2. */
START_TEST(lsp_stale_job_dropped)
{
    start(0);
    lsp_server_set_async(S, 1);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    EXPECT(OPEN(DOC_J), ""); /* not judged in lsp_handle */
    lsp_job *j = lsp_job_take(S, 0);
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_null(lsp_job_take(S, 0)); /* one job per document at a time */
    ck_assert(lsp_next_due(S) < 0);
    lsp_job_run(j);
    EXPECT(CHANGE("2", "{" RANGE(1, 28, 1, 28) ",\"text\":\"\\\"name\\\": \\\"x\\\", \"}"), "");
    EXPECT(HOVER(8), "");
    json_t *out = json_array();
    lsp_job_finish(S, j, out);
    char *got = lines(out);
    ck_assert_str_eq(got, ""); /* version 1's result: stale, dropped */
    free(got);
    j = lsp_job_take(S, 0);
    ck_assert_ptr_nonnull(j);
    lsp_job_run(j);
    out = json_array();
    lsp_job_finish(S, j, out);
    got = lines(out);
    ck_assert_str_eq(got, PUBLISHED("2", "") "{\"id\":8,\"jsonrpc\":\"2.0\",\"result\":null}\n");
    free(got);
    /* a job whose document closed meanwhile is dropped too; an unfinished one is freed */
    EXPECT(CHANGE("3", "{\"text\":\"{}\"}"), "");
    j = lsp_job_take(S, 0);
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":{"
           "\"textDocument\":{\"uri\":\"" URI "\"}}}",
           "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{"
           "\"diagnostics\":[],\"uri\":\"" URI "\"}}\n");
    lsp_job_run(j);
    out = json_array();
    lsp_job_finish(S, j, out);
    got = lines(out);
    ck_assert_str_eq(got, "");
    free(got);
    free(send_msg(OPEN(DOC_J)));
    lsp_job_free(lsp_job_take(S, 0));
    lsp_server_free(S);
}
END_TEST

START_TEST(lsp_reload)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    free(send_msg(OPEN(DOC_J)));
    ck_assert_int_eq(H.loads, 1);
#define WATCHED(path)                                                                              \
    "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/didChangeWatchedFiles\",\"params\":{"             \
    "\"changes\":[{\"uri\":\"file://" path "\",\"type\":2}]}}"
    /* a file that is no rule file, manifest or config: no reload */
    EXPECT(WATCHED("/tmp/lsp-test/other.json"), "");
    ck_assert_int_eq(H.loads, 1);
    /* the config changed: reloaded, every open description published again */
    EXPECT(WATCHED("/tmp/lsp-test/.mcpdesc.yaml"), PUBLISHED("1", NO_NAME(1, 27, 41)));
    ck_assert_int_eq(H.loads, 2);
    /* a rule set that fails to load: a message, and the last good set stays in use */
    H.fail = 1;
    EXPECT(WATCHED("/tmp/lsp-test/manifest.yaml"),
           "{\"jsonrpc\":\"2.0\",\"method\":\"window/showMessage\",\"params\":{\"message\":"
           "\"mcpdesc: the rule set could not be loaded: planted failure (the last good one "
           "stays in use)\",\"type\":1}}\n");
    ck_assert_int_eq(H.loads, 3);
    EXPECT(CHANGE("2", "{" RANGE(0, 0, 0, 0) ",\"text\":\"\"}"),
           PUBLISHED("2", NO_NAME(1, 27, 41)));
    /* didSave of the manifest reloads too */
    H.fail = 0;
    free(send_msg("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{"
                  "\"textDocument\":{\"uri\":\"file:///tmp/lsp-test/manifest.yaml\","
                  "\"languageId\":\"yaml\",\"version\":1,\"text\":\"name: x\\n\"}}}"));
    char *got = send_msg("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didSave\",\"params\":{"
                         "\"textDocument\":{\"uri\":\"file:///tmp/lsp-test/manifest.yaml\"}}}");
    ck_assert_int_eq(H.loads, 4);
    ck_assert_msg(strstr(got, PUBLISHED("2", NO_NAME(1, 27, 41))) != NULL, "%s", got);
    free(got);
    lsp_server_free(S);
}
END_TEST

/* No rule set could be loaded (and none was before): a description gets one error saying
 * it was not judged, never an empty list that reads as "no findings"; once the set loads,
 * it is judged. */
START_TEST(lsp_no_rules_not_judged)
{
    start(0);
    H.fail = 1;
    free(send_msg(INIT));
    char *got = send_msg(OPEN(DOC_J));
    ck_assert_msg(strstr(got,
                         "\"message\":\"not judged: mcpdesc could not load its rule set "
                         "(planted failure); mend it and save, and this description is "
                         "judged\",\"range\":{\"end\":{\"character\":43,\"line\":1},"
                         "\"start\":{\"character\":0,\"line\":0}},\"severity\":1") != NULL,
                  "%s", got);
    free(got);
    H.fail = 0;
    got = send_msg(WATCHED("/tmp/lsp-test/manifest.yaml"));
    ck_assert_msg(strstr(got, PUBLISHED("1", NO_NAME(1, 27, 41))) != NULL, "%s", got);
    free(got);
    lsp_server_free(S);
}
END_TEST

START_TEST(lsp_watcher_registration)
{
    start(0);
    free(send_msg("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                  "\"capabilities\":{\"workspace\":{\"didChangeWatchedFiles\":{"
                  "\"dynamicRegistration\":true}}}}}"));
    EXPECT("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}",
           "{\"id\":\"mcpdesc-watch-1\",\"jsonrpc\":\"2.0\",\"method\":\"client/"
           "registerCapability\",\"params\":{\"registrations\":[{\"id\":\"mcpdesc-watch-1\","
           "\"method\":\"workspace/didChangeWatchedFiles\",\"registerOptions\":{\"watchers\":[{"
           "\"globPattern\":\"**/*.yaml\"},{\"globPattern\":\"**/*.yml\"}]}}]}}\n");
    lsp_server_free(S);
}
END_TEST

START_TEST(lsp_feature_plumbing)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    free(send_msg(OPEN(DOC_J)));
    /* inside the second tool's object (after an emoji: UTF-16 units), which the finding
     * underlines whole: hover answers there, with the range as published */
    EXPECT(HOVER(2),
           "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"contents\":{\"kind\":\"markdown\","
           "\"value\":\"**t.name** · error (must)\\n\\nno name\\n\\nRequirement: "
           "r\\n\\nProtocol versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, "
           "2026-07-28\\n\\ns\"},\"range\":{\"end\":{\"character\":41,\"line\":1},"
           "\"start\":{\"character\":27,\"line\":1}}}}\n");
#define AT(id, method)                                                                             \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"textDocument/" method "\",\"params\":{"      \
    "\"textDocument\":{\"uri\":\"" URI "\"},\"position\":{\"line\":0,\"character\":3}}}"
    EXPECT(AT(3, "definition"), "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":[]}\n");
    EXPECT(AT(4, "completion"),
           "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"isIncomplete\":false,\"items\":[]}}\n");
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"textDocument/codeAction\",\"params\":{"
           "\"textDocument\":{\"uri\":\"" URI "\"}," RANGE(1, 0, 1, 3) ",\"context\":{"
                                                                       "\"diagnostics\":[]}}}",
           "{\"id\":5,\"jsonrpc\":\"2.0\",\"result\":[]}\n");
    /* a document that is not open: null, [] */
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"textDocument/definition\",\"params\":{"
           "\"textDocument\":{\"uri\":\"file:///nowhere\"},\"position\":{\"line\":0,"
           "\"character\":0}}}",
           "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":null}\n");
    lsp_server_free(S);
}
END_TEST

/* ---- code actions ---- */

/* didOpen of URI with TEXT (version 1), built with jansson (no escaping by hand). */
static char *open_msg(const char *uri, const char *text)
{
    json_t *m = json_pack("{s:s, s:s, s:{s:{s:s, s:s, s:i, s:s}}}", "jsonrpc", "2.0", "method",
                          "textDocument/didOpen", "params", "textDocument", "uri", uri,
                          "languageId", "json", "version", 1, "text", text);
    char *r = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return r;
}

/* A codeAction request ID for URI over [L1:C1, L2:C2] with context.only ONLY (a JSON
 * array, or NULL: none) and context.diagnostics DIAGS (JSON, or NULL: []). */
static char *action_msg(int id, const char *uri, int l1, int c1, int l2, int c2, const char *only,
                        const char *diags)
{
    return xasprintf("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"textDocument/codeAction\","
                     "\"params\":{\"textDocument\":{\"uri\":\"%s\"},\"range\":{\"start\":{"
                     "\"line\":%d,\"character\":%d},\"end\":{\"line\":%d,\"character\":%d}},"
                     "\"context\":{\"diagnostics\":%s%s%s}}}",
                     id, uri, l1, c1, l2, c2, diags ? diags : "[]", only ? ",\"only\":" : "",
                     only ? only : "");
}

static void expect_owned(char *msg, const char *want)
{
    char *got = send_msg(msg);
    free(msg);
    ck_assert_str_eq(got, want);
    free(got);
}

#define URI_J "file:///tmp/lsp-test/f.json"
#define URI_Y "file:///tmp/lsp-test/f.yaml"
/* "true" after an emoji (2 UTF-16 units, 4 bytes) and an e-acute (1 unit, 2 bytes): UTF-16
 * characters 54 to 58 of line 1, code points 53 to 57, bytes 57 to 61 */
#define FIX_J                                                                                      \
    "{\"mcpDescription\": \"0.9.0\",\n"                                                            \
    " \"tools\": [{\"name\": \"\xf0\x9f\x98\x80\xc3\xa9\", \"inputSchema\": {\"p\": {\"a\": "      \
    "true}}}]}\n"
#define BOOL_DIAG(l, a, b)                                                                         \
    "{\"code\":\"t.bool\",\"message\":\"not an object " VERSIONS "\",\"range\":{\"end\":{"         \
    "\"character\":" #b ",\"line\":" #l "},\"start\":{\"character\":" #a ",\"line\":" #l "}},"     \
    "\"severity\":1,\"source\":\"mcpdesc\"}"
#define EDIT(l, a, b, text)                                                                        \
    "{\"newText\":\"" text "\",\"range\":{\"end\":{\"character\":" #b ",\"line\":" #l "},"         \
    "\"start\":{\"character\":" #a ",\"line\":" #l "}}}"
#define QUICK(diag, edit)                                                                          \
    "{\"diagnostics\":[" diag "],\"edit\":" edit ",\"isPreferred\":true,\"kind\":\"quickfix\","    \
    "\"title\":\"replace true with {}\"}"
/* the suppress action: {"rule": RULE, "reason": ""} added to the item's x-mcpdesc-ignore */
#define SUPPRESS_FOR(rule, who, diag, edit)                                                        \
    "{\"diagnostics\":[" diag "],\"edit\":" edit                                                   \
    ",\"kind\":\"quickfix\",\"title\":\"Suppress " rule " for " who " (write the reason)\"}"
/* the tools of FIX_J and FIX_Y are named (the title names them: two items sharing YAML
 * text are told apart); DOC_J's second tool has no name */
#define TOOL_J "tool \\\"\xf0\x9f\x98\x80\xc3\xa9\\\""
#define SUPPRESS(rule, diag, edit) SUPPRESS_FOR(rule, TOOL_J, diag, edit)
#define SUP_J(rule)                                                                                \
    "\\\"x-mcpdesc-ignore\\\": [{\\\"rule\\\": \\\"" rule "\\\", \\\"reason\\\": \\\"\\\"}], "
#define CHANGES(uri, edits) "{\"changes\":{\"" uri "\":[" edits "]}}"
#define DOC_CHANGES(uri, v, edits)                                                                 \
    "{\"documentChanges\":[{\"edits\":[" edits "],\"textDocument\":{\"uri\":\"" uri "\","          \
    "\"version\":" #v "}}]}"
#define FIX_ALL(edit)                                                                              \
    "{\"edit\":" edit ",\"kind\":\"source.fixAll.mcpdesc\",\"title\":\"Apply every mcpdesc fix\"}"
/* the quick fix and the suppress action of the finding in FIX_J (changes) */
#define QS_J                                                                                       \
    QUICK(BOOL_DIAG(1, 54, 58), CHANGES(URI_J, EDIT(1, 54, 58, "{}")))                             \
    "," SUPPRESS("t.bool", BOOL_DIAG(1, 54, 58), CHANGES(URI_J, EDIT(1, 12, 12, SUP_J("t.bool"))))
#define ANSWER(id, result) "{\"id\":" #id ",\"jsonrpc\":\"2.0\",\"result\":[" result "]}\n"

START_TEST(lsp_code_action_json)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    char *o = open_msg(URI_J, FIX_J);
    free(send_msg(o));
    free(o);
    /* the cursor inside the finding: its quick fix (UTF-16 positions), then fixAll */
    expect_owned(action_msg(2, URI_J, 1, 56, 1, 56, NULL, NULL),
                 ANSWER(2, QS_J "," FIX_ALL(CHANGES(URI_J, EDIT(1, 54, 58, "{}")))));
    /* context.only */
    expect_owned(action_msg(3, URI_J, 1, 56, 1, 56, "[\"quickfix\"]", NULL), ANSWER(3, QS_J));
    expect_owned(action_msg(4, URI_J, 1, 56, 1, 56, "[\"source.fixAll\"]", NULL),
                 ANSWER(4, FIX_ALL(CHANGES(URI_J, EDIT(1, 54, 58, "{}")))));
    expect_owned(action_msg(5, URI_J, 1, 56, 1, 56, "[\"source\"]", NULL),
                 ANSWER(5, FIX_ALL(CHANGES(URI_J, EDIT(1, 54, 58, "{}")))));
    expect_owned(action_msg(6, URI_J, 1, 56, 1, 56, "[\"refactor\",\"quickfix.other\"]", NULL),
                 ANSWER(6, ""));
    /* a range elsewhere: no quick fix, unless context.diagnostics lists the finding */
    expect_owned(action_msg(7, URI_J, 0, 0, 0, 3, "[\"quickfix\"]", NULL), ANSWER(7, ""));
    expect_owned(action_msg(8, URI_J, 0, 0, 0, 3, "[\"quickfix\"]", "[" BOOL_DIAG(1, 54, 58) "]"),
                 ANSWER(8, QS_J));
    /* a range that ends at the finding's start touches it */
    expect_owned(action_msg(9, URI_J, 1, 40, 1, 54, "[\"quickfix\"]", NULL), ANSWER(9, QS_J));
    lsp_server_free(S);

    /* UTF-8 positions: bytes */
    start(0);
    EXPECT("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{"
           "\"general\":{\"positionEncodings\":[\"utf-8\"]}}}}",
           INIT_RESULT("utf-8"));
    o = open_msg(URI_J, FIX_J);
    free(send_msg(o));
    free(o);
    expect_owned(
        action_msg(2, URI_J, 1, 59, 1, 59, "[\"quickfix\"]", NULL),
        ANSWER(
            2,
            QUICK(BOOL_DIAG(1, 57, 61), CHANGES(URI_J, EDIT(1, 57, 61, "{}"))) "," SUPPRESS(
                "t.bool", BOOL_DIAG(1, 57, 61), CHANGES(URI_J, EDIT(1, 12, 12, SUP_J("t.bool"))))));
    lsp_server_free(S);
}
END_TEST

/* The YAML document, with documentChanges: the edit carries the document's version. */
#define FIX_Y                                                                                      \
    "mcpDescription: 0.9.0\n"                                                                      \
    "tools:\n"                                                                                     \
    "  - name: \"\xf0\x9f\x98\x80\" # a comment\n"                                                 \
    "    inputSchema: {p: {a: true}}   # kept\n"
#define INIT_DC                                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{"       \
    "\"workspace\":{\"workspaceEdit\":{\"documentChanges\":true}}}}}"

START_TEST(lsp_code_action_yaml)
{
    start(0);
    EXPECT(INIT_DC, INIT_RESULT("utf-16"));
    char *o = open_msg(URI_Y, FIX_Y);
    free(send_msg(o));
    free(o);
    expect_owned(
        action_msg(2, URI_Y, 3, 26, 3, 26, NULL, NULL),
        ANSWER(
            2,
            QUICK(BOOL_DIAG(3, 25, 29), DOC_CHANGES(URI_Y, 1, EDIT(3, 25, 29, "{}"))) "," SUPPRESS_FOR(
                "t.bool", "tool \\\"\xf0\x9f\x98\x80\\\"", BOOL_DIAG(3, 25, 29),
                DOC_CHANGES(URI_Y, 1,
                            EDIT(2, 4, 4,
                                 "x-mcpdesc-ignore: [{rule: t.bool, reason: \\\"\\\"}]\\n "
                                 "   "))) "," FIX_ALL(DOC_CHANGES(URI_Y, 1,
                                                                  EDIT(3, 25, 29, "{}")))));
    lsp_server_free(S);
}
END_TEST

/* A document with no fixable finding (the test rule t.name has no fix): only the suppress
 * action, and no fixAll; one that is not a description, one not open: no actions. */
START_TEST(lsp_code_action_none)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    free(send_msg(OPEN(DOC_J)));
    expect_owned(action_msg(2, URI, 1, 0, 1, 60, NULL, NULL),
                 ANSWER(2,
                        SUPPRESS_FOR("t.name", "this tool", NO_NAME(1, 27, 41),
                                     CHANGES(URI, EDIT(1, 28, 28, SUP_J("t.name"))))));
    expect_owned(action_msg(5, URI, 1, 0, 1, 60, "[\"source.fixAll\"]", NULL), ANSWER(5, ""));
    char *o = open_msg("file:///tmp/lsp-test/notes.json", "{\"a\": true}");
    free(send_msg(o));
    free(o);
    expect_owned(action_msg(3, "file:///tmp/lsp-test/notes.json", 0, 0, 0, 9, NULL, NULL),
                 ANSWER(3, ""));
    expect_owned(action_msg(4, "file:///nowhere.json", 0, 0, 0, 9, NULL, NULL), ANSWER(4, ""));
    lsp_server_free(S);
}
END_TEST

/* A request that arrives while a change waits for its re-judge is answered for the newest
 * text: the edit's positions and the version are the changed document's. */
START_TEST(lsp_code_action_newest)
{
    start(100);
    EXPECT(INIT_DC, INIT_RESULT("utf-16"));
    char *o = open_msg(URI_J, FIX_J);
    free(send_msg(o));
    free(o);
    free(tick(0));
    NOW = 1;
    /* two characters before the finding: "true" moves from 54..58 to 56..60 */
    EXPECT(CHANGE_AT(URI_J, "2", "{" RANGE(1, 1, 1, 1) ",\"text\":\"  \"}"), "");
    /* asked at 59, inside the finding only in version 2: the answer is for version 2 */
    char *m = action_msg(5, URI_J, 1, 59, 1, 59, "[\"quickfix\"]", NULL);
    EXPECT(m, "");
    free(m);
    char *t = tick(1.2);
    char *p = strstr(t, "{\"id\":5,");
    ck_assert_msg(p != NULL, "no answer in %s", t);
    ck_assert_str_eq(
        p,
        ANSWER(
            5,
            QUICK(BOOL_DIAG(1, 56, 60), DOC_CHANGES(URI_J, 2, EDIT(1, 56, 60, "{}"))) "," SUPPRESS(
                "t.bool", BOOL_DIAG(1, 56, 60),
                DOC_CHANGES(URI_J, 2, EDIT(1, 14, 14, SUP_J("t.bool"))))));
    free(t);
    lsp_server_free(S);
}
END_TEST

/* fixAll's edit is the part that changes, cut at character boundaries: "ê" to "è" share
 * their first UTF-8 byte, and the edit replaces the whole character. */
START_TEST(lsp_code_action_fix_all_utf8)
{
    start(0);
    EXPECT(INIT, INIT_RESULT("utf-16"));
    char *o = open_msg(URI_J,
                       "{\"mcpDescription\": \"0.9.0\", \"tools\": [{\"name\": \"a\", "
                       "\"x-s\": \"\xc3\xaa\"}]}");
    free(send_msg(o));
    free(o);
    expect_owned(action_msg(2, URI_J, 0, 0, 0, 0, "[\"source.fixAll\"]", NULL),
                 ANSWER(2, FIX_ALL(CHANGES(URI_J, EDIT(0, 60, 61, "\xc3\xa8")))));
    lsp_server_free(S);
}
END_TEST

Suite *lsp_suite(void)
{
    Suite *s = suite_create("lsp");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lsp_lifecycle);
    tcase_add_test(tc, lsp_encodings);
    tcase_add_test(tc, lsp_publishes_diagnostics);
    tcase_add_test(tc, lsp_match_range);
    tcase_add_test(tc, lsp_incremental_edits);
    tcase_add_test(tc, lsp_description_member_lost);
    tcase_add_test(tc, lsp_errors);
    tcase_add_test(tc, lsp_debounce_cancel_newest);
    tcase_add_test(tc, lsp_stale_job_dropped);
    tcase_add_test(tc, lsp_reload);
    tcase_add_test(tc, lsp_no_rules_not_judged);
    tcase_add_test(tc, lsp_watcher_registration);
    tcase_add_test(tc, lsp_feature_plumbing);
    tcase_add_test(tc, lsp_code_action_json);
    tcase_add_test(tc, lsp_code_action_yaml);
    tcase_add_test(tc, lsp_code_action_none);
    tcase_add_test(tc, lsp_code_action_newest);
    tcase_add_test(tc, lsp_code_action_fix_all_utf8);
    suite_add_tcase(s, tc);
    return s;
}
