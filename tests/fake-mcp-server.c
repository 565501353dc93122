/* fake-mcp-server.c - a scripted MCP server for the capture tests. Speaks the stdio
 * transport (default) or Streamable HTTP on 127.0.0.1 (--http), and misbehaves on
 * request: JSON-RPC errors, hangs, garbage, early exit, huge messages, endless pages.
 * Run with --help for the options. Not installed; tests only. */
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static const char *const all_versions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"};
#define NVERS 5

struct cfg {
    int supported[NVERS];
    const char *answer_version; /* initialize always answers this */
    int counts[4];              /* tools, resources, templates, prompts; -1: capability absent */
    int page_size;
    int vary;
    int bad_tool; /* --bad-tool: a tool whose inputSchema root is a string (an error) */
    const char *fail_method, *fail_mode;
    const char *fail_version;   /* fail only in sessions of this version */
    int ignore_term;
    int noise;
    int cursor_loop, endless;
    long huge_bytes;
    int http_port;
    const char *port_file;
    int sse, sse_keep_open;
    int no_templates_method;
    double sleep_init;    /* --sleep-init: seconds before answering initialize/server/discover */
    const char *log_file; /* --log: "begin|end METHOD VERSION SECONDS" lines */
    const char *path;     /* --path: HTTP requests to another path get 404 */
    int stderr_pieces;    /* --stderr-pieces N: N stderr lines, each written in pieces */
    const char *require_header; /* --require-header NAME:VALUE: HTTP 401 without it */
    const char *env_in_tool;    /* --env-in-tool NAME: tool-0's description shows NAME=VALUE */
};

static struct cfg C; /* a test program: one configuration per process, set once in main */

static int ver_index(const char *v)
{
    for (int i = 0; i < NVERS; i++)
        if (v && !strcmp(all_versions[i], v)) return i;
    return -1;
}

static void die(const char *m)
{
    fprintf(stderr, "fake-mcp-server: %s\n", m);
    exit(3);
}

static void hang(void)
{
    if (C.ignore_term) signal(SIGTERM, SIG_IGN);
    for (;;) pause();
}

static json_t *error_msg(json_t *id, int code, const char *message, json_t *data)
{
    json_t *e = json_pack("{s:i, s:s}", "code", code, "message", message);
    if (data) json_object_set_new(e, "data", data);
    return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", e);
}

static json_t *result_msg(json_t *id, json_t *result)
{
    return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result);
}

static json_t *make_item(int list, int i, const char *version)
{
    char a[64], b[64];
    switch (list) {
    case 0: {
        snprintf(a, sizeof a, "tool-%d", i);
        snprintf(b, sizeof b, "Tool number %d.", i);
        json_t *t = json_pack("{s:s, s:s, s:{s:s, s:{s:{s:s}}}}", "name", a, "description", b, "inputSchema",
                              "type", "object", "properties", "x", "type", "string");
        if (C.vary && i == 0 && strcmp(version, "2025-06-18") >= 0) json_object_set_new(t, "title", json_string("Tool Zero"));
        if (C.env_in_tool && i == 0) {
            const char *got = getenv(C.env_in_tool);
            char *d = NULL;
            if (asprintf(&d, "Tool number 0 sees %s=%s.", C.env_in_tool, got ? got : "(unset)") < 0) die("asprintf");
            json_object_set_new(t, "description", json_string(d));
            free(d);
        }
        return t;
    }
    case 1:
        snprintf(a, sizeof a, "fake://res/%d", i);
        snprintf(b, sizeof b, "res-%d", i);
        return json_pack("{s:s, s:s, s:s}", "uri", a, "name", b, "mimeType", "text/plain");
    case 2:
        snprintf(a, sizeof a, "fake://tmpl/%d/{id}", i);
        snprintf(b, sizeof b, "tmpl-%d", i);
        return json_pack("{s:s, s:s}", "uriTemplate", a, "name", b);
    default:
        snprintf(a, sizeof a, "prompt-%d", i);
        return json_pack("{s:s, s:s, s:[{s:s, s:b}]}", "name", a, "description", "A prompt.", "arguments",
                         "name", "topic", "required", 1);
    }
}

static json_t *all_items(int list, const char *version)
{
    json_t *arr = json_array();
    for (int i = 0; i < C.counts[list]; i++) json_array_append_new(arr, make_item(list, i, version));
    if (C.vary && list == 0) {
        if (strcmp(version, "2025-11-25") >= 0)
            json_array_append_new(arr, json_pack("{s:s, s:{s:s}}", "name", "new-tool", "inputSchema", "type", "object"));
        if (!strcmp(version, "2024-11-05"))
            json_array_insert_new(arr, 0, json_pack("{s:s, s:{s:s}}", "name", "old-tool", "inputSchema", "type", "object"));
    }
    if (C.bad_tool && list == 0)
        json_array_append_new(arr, json_pack("{s:s, s:s, s:{s:s}}", "name", "bad-tool", "description",
                                             "Its arguments are not an object.", "inputSchema", "type", "string"));
    if (C.huge_bytes && list == 0) {
        char *big = malloc((size_t)C.huge_bytes + 1);
        memset(big, 'x', (size_t)C.huge_bytes);
        big[C.huge_bytes] = '\0';
        json_array_append_new(arr, json_pack("{s:s, s:s, s:{s:s}}", "name", "huge", "description", big,
                                             "inputSchema", "type", "object"));
        free(big);
    }
    return arr;
}

static json_t *capabilities(void)
{
    json_t *c = json_object();
    if (C.counts[0] >= 0) json_object_set_new(c, "tools", json_pack("{s:b}", "listChanged", 0));
    if (C.counts[1] >= 0 || C.counts[2] >= 0) json_object_set_new(c, "resources", json_object());
    if (C.counts[3] >= 0) json_object_set_new(c, "prompts", json_object());
    return c;
}

static json_t *server_info(void) { return json_pack("{s:s, s:s}", "name", "fake-mcp-server", "version", "1.0.0"); }

/* Append "WHAT METHOD VERSION SECONDS" to --log in one write (sessions run in parallel). */
static void log_event(const char *what, const char *method, const char *version)
{
    if (!C.log_file) return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char line[256];
    int n = snprintf(line, sizeof line, "%s %s %s %lld.%06ld\n", what, method, version ? version : "-",
                     (long long)ts.tv_sec, ts.tv_nsec / 1000);
    int fd = open(C.log_file, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) die("cannot open --log file");
    if (write(fd, line, (size_t)n) < 0) die("cannot write --log file");
    close(fd);
}

static void sleep_init(void)
{
    if (C.sleep_init <= 0) return;
    struct timespec ts = {(time_t)C.sleep_init, (long)((C.sleep_init - (double)(time_t)C.sleep_init) * 1e9)};
    nanosleep(&ts, NULL);
}

static const char *list_names[4] = {"tools/list", "resources/list", "resources/templates/list", "prompts/list"};
static const char *list_members[4] = {"tools", "resources", "resourceTemplates", "prompts"};

/* What to do for a request: a message to send (new) or NULL for none.
 * *session holds the legacy session's version (stdio: per process). */
static json_t *handle(json_t *msg, char *session, size_t session_size)
{
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *id = json_object_get(msg, "id");
    json_t *params = json_object_get(msg, "params");
    if (!method) return NULL; /* a response to our ping */
    json_t *meta = json_object_get(params, "_meta");
    const char *modern_v = json_string_value(json_object_get(meta, "io.modelcontextprotocol/protocolVersion"));
    const char *version = modern_v ? modern_v : session;

    if (C.fail_method && !strcmp(C.fail_method, method) &&
        (!C.fail_version || (version && !strcmp(C.fail_version, version)) ||
         (!strcmp(method, "initialize") && json_is_string(json_object_get(params, "protocolVersion")) && !strcmp(C.fail_version, json_string_value(json_object_get(params, "protocolVersion")))))) {
        const char *m = C.fail_mode;
        if (!strcmp(m, "error") && C.env_in_tool) { /* the error quotes the variable too */
            char text[512];
            const char *got = getenv(C.env_in_tool);
            snprintf(text, sizeof text, "scripted failure, %s=%s", C.env_in_tool, got ? got : "(unset)");
            return error_msg(id, -32603, text, NULL);
        }
        if (!strcmp(m, "error")) return error_msg(id, -32603, "scripted failure", NULL);
        if (!strcmp(m, "hang")) hang();
        if (!strcmp(m, "exit")) exit(7);
        if (!strcmp(m, "crash")) { signal(SIGSEGV, SIG_DFL); raise(SIGSEGV); }
        if (!strcmp(m, "garbage")) { fputs("Server started OK on stdio\n", stdout); fflush(stdout); return NULL; }
        if (!strcmp(m, "notrpc")) { fputs("{\"hello\": 1}\n", stdout); fflush(stdout); return NULL; }
        if (!strcmp(m, "partial")) { fputs("{\"jsonrpc\":\"2.0\",\"id\":", stdout); fflush(stdout); exit(0); }
        die("unknown --fail mode");
    }
    if (!id) return NULL; /* notifications */

    if (!strcmp(method, "initialize")) {
        const char *req = json_string_value(json_object_get(params, "protocolVersion"));
        log_event("begin", method, req);
        sleep_init();
        log_event("end", method, req);
        const char *ans = C.answer_version;
        if (!ans) {
            int i = ver_index(req);
            if (i >= 0 && i < 4 && C.supported[i]) ans = req;
            else
                for (int k = 3; k >= 0 && !ans; k--)
                    if (C.supported[k]) ans = all_versions[k];
        }
        if (!ans) return error_msg(id, -32602, "this server speaks only 2026-07-28 (use server/discover)", NULL);
        if (!json_is_object(json_object_get(params, "clientInfo")) || !json_is_object(json_object_get(params, "capabilities")))
            return error_msg(id, -32602, "initialize without clientInfo/capabilities", NULL);
        snprintf(session, session_size, "%s", ans);
        json_t *r = json_pack("{s:s, s:o, s:o}", "protocolVersion", ans, "capabilities", capabilities(),
                              "serverInfo", server_info());
        char ins[96];
        snprintf(ins, sizeof ins, C.vary ? "Fake server speaking %s." : "Fake server.", ans);
        json_object_set_new(r, "instructions", json_string(ins));
        return result_msg(id, r);
    }
    if (!strcmp(method, "server/discover")) {
        log_event("begin", method, modern_v);
        sleep_init();
        log_event("end", method, modern_v);
        if (!C.supported[4]) return error_msg(id, -32601, "Method not found", NULL);
        if (!modern_v || !json_is_object(json_object_get(meta, "io.modelcontextprotocol/clientCapabilities")))
            return error_msg(id, -32602, "missing _meta protocolVersion or clientCapabilities", NULL);
        if (strcmp(modern_v, "2026-07-28"))
            return error_msg(id, -32022, "Unsupported protocol version",
                             json_pack("{s:[s], s:s}", "supported", "2026-07-28", "requested", modern_v));
        json_t *r = json_pack("{s:s, s:[s], s:o, s:s, s:i, s:s, s:{s:o}}", "resultType", "complete",
                              "supportedVersions", "2026-07-28", "capabilities", capabilities(), "instructions",
                              C.vary ? "Fake server speaking 2026-07-28." : "Fake server.", "ttlMs", 0,
                              "cacheScope", "public", "_meta", "io.modelcontextprotocol/serverInfo", server_info());
        return result_msg(id, r);
    }
    for (int l = 0; l < 4; l++) {
        if (strcmp(method, list_names[l])) continue;
        if (l == 2 && C.no_templates_method) return error_msg(id, -32601, "Method not found", NULL);
        if (!version || !*version) return error_msg(id, -32002, "not initialized and no _meta", NULL);
        if (modern_v && ver_index(modern_v) != 4) return error_msg(id, -32022, "Unsupported protocol version", NULL);
        json_t *items = all_items(l, version);
        const char *cursor = json_string_value(json_object_get(params, "cursor"));
        size_t start = cursor ? (size_t)atoi(cursor + 5) : 0;
        size_t n = json_array_size(items);
        size_t end = C.page_size > 0 ? start + (size_t)C.page_size : n;
        if (end > n) end = n;
        json_t *page = json_array();
        for (size_t i = start; i < end; i++) json_array_append(page, json_array_get(items, i));
        json_t *r = json_pack("{s:o}", list_members[l], page);
        char next[64];
        if (C.cursor_loop) {
            json_object_set_new(r, "nextCursor", json_string("page-1"));
        } else if (C.endless || end < n) {
            snprintf(next, sizeof next, "page-%zu", C.endless ? start + 1 : end);
            json_object_set_new(r, "nextCursor", json_string(next));
        }
        if (modern_v) {
            json_object_set_new(r, "resultType", json_string("complete"));
            json_object_set_new(r, "ttlMs", json_integer(0));
            json_object_set_new(r, "cacheScope", json_string("public"));
        }
        json_decref(items);
        return result_msg(id, r);
    }
    if (!strcmp(method, "ping")) return result_msg(id, json_object());
    return error_msg(id, -32601, "Method not found", NULL);
}

static void send_line(json_t *m)
{
    char *s = json_dumps(m, JSON_COMPACT);
    fputs(s, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(s);
}

static int serve_stdio(void)
{
    char session[32] = "";
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int pings = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_t *msg = json_loadb(line, (size_t)n, 0, NULL);
        if (!msg) die("client sent a line that is not JSON");
        if (C.noise && json_object_get(msg, "id") && json_object_get(msg, "method")) {
            json_t *note = json_pack("{s:s, s:s, s:{s:s, s:s}}", "jsonrpc", "2.0", "method", "notifications/message",
                                     "params", "level", "info", "data", "noise");
            send_line(note);
            json_decref(note);
            char pid[32];
            snprintf(pid, sizeof pid, "srv-%d", ++pings);
            json_t *ping = json_pack("{s:s, s:s, s:s}", "jsonrpc", "2.0", "id", pid, "method", "ping");
            send_line(ping);
            json_decref(ping);
            json_t *stray = json_pack("{s:s, s:i, s:{}}", "jsonrpc", "2.0", "id", 99999, "result");
            send_line(stray);
            json_decref(stray);
        }
        json_t *out = handle(msg, session, sizeof session);
        if (out) send_line(out);
        json_decref(out);
        json_decref(msg);
    }
    free(line);
    if (C.ignore_term) hang();
    return 0;
}

/* ---- HTTP (one forked child per connection, Connection: close) ---- */

static void http_reply(int fd, int status, const char *extra_headers, const char *ctype, const char *body)
{
    char head[1024];
    const char *reason = status == 200 ? "OK" : status == 202 ? "Accepted" : status == 400 ? "Bad Request" : "Error";
    int n = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nConnection: close\r\n%s%s%s%sContent-Length: %zu\r\n\r\n",
                     status, reason, extra_headers, ctype ? "Content-Type: " : "", ctype ? ctype : "",
                     ctype ? "\r\n" : "", body ? strlen(body) : 0);
    if (write(fd, head, (size_t)n) < 0) return;
    if (body && write(fd, body, strlen(body)) < 0) return;
}

static const char *header_value(const char *head, const char *name, char *out, size_t size)
{
    size_t nl = strlen(name);
    for (const char *p = head; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (!strncasecmp(p, name, nl) && p[nl] == ':') {
            const char *v = p + nl + 1;
            while (*v == ' ') v++;
            size_t k = strcspn(v, "\r\n");
            if (k >= size) k = size - 1;
            memcpy(out, v, k);
            out[k] = '\0';
            return out;
        }
    }
    return NULL;
}

static void serve_connection(int fd)
{
    static char req[1 << 20];
    size_t len = 0;
    char *body = NULL;
    size_t clen = 0;
    for (;;) {
        ssize_t r = read(fd, req + len, sizeof req - 1 - len);
        if (r <= 0) return;
        len += (size_t)r;
        req[len] = '\0';
        char *end = strstr(req, "\r\n\r\n");
        if (end) {
            char v[64];
            clen = header_value(req, "Content-Length", v, sizeof v) ? (size_t)atol(v) : 0;
            if (len >= (size_t)(end + 4 - req) + clen) {
                body = end + 4;
                break;
            }
        }
    }
    if (C.require_header) {
        const char *colon = strchr(C.require_header, ':');
        char name[128], got[256];
        snprintf(name, sizeof name, "%.*s", (int)(colon - C.require_header), C.require_header);
        if (!header_value(req, name, got, sizeof got) || strcmp(got, colon + 1)) {
            http_reply(fd, 401, "", "text/plain", "missing or wrong header");
            return;
        }
    }
    if (C.path) {
        const char *sp = strchr(req, ' ');
        size_t pl = strlen(C.path);
        if (!sp || strncmp(sp + 1, C.path, pl) || (sp[1 + pl] != ' ' && sp[1 + pl] != '?')) {
            http_reply(fd, 404, "", "text/plain", "not found");
            return;
        }
    }
    if (!strncmp(req, "DELETE", 6)) {
        http_reply(fd, 200, "", NULL, NULL);
        return;
    }
    json_t *msg = json_loadb(body, clen, 0, NULL);
    if (!msg) {
        http_reply(fd, 400, "", "text/plain", "bad json");
        return;
    }
    char sess[64] = "", hv[64], mm[64];
    const char *sid = header_value(req, "Mcp-Session-Id", hv, sizeof hv);
    const char *method = json_string_value(json_object_get(msg, "method"));
    const char *modern_v = json_string_value(json_object_get(json_object_get(json_object_get(msg, "params"), "_meta"),
                                                             "io.modelcontextprotocol/protocolVersion"));
    if (modern_v) {
        char pv[64];
        if (!header_value(req, "MCP-Protocol-Version", pv, sizeof pv) || strcmp(pv, modern_v) ||
            !header_value(req, "Mcp-Method", mm, sizeof mm) || strcmp(mm, method)) {
            json_t *e = error_msg(json_object_get(msg, "id"), -32020, "Header mismatch", NULL);
            char *s = json_dumps(e, JSON_COMPACT);
            http_reply(fd, 400, "", "application/json", s);
            free(s);
            json_decref(e);
            json_decref(msg);
            return;
        }
    } else if (method && strcmp(method, "initialize")) {
        if (!sid || strncmp(sid, "sess-", 5)) {
            http_reply(fd, 400, "", "text/plain", "missing Mcp-Session-Id");
            json_decref(msg);
            return;
        }
        snprintf(sess, sizeof sess, "%.10s", sid + 5); /* the session id carries its version */
        char pv[64];
        int vi = ver_index(sess);
        if (vi >= 2 && json_object_get(msg, "id") &&
            (!header_value(req, "MCP-Protocol-Version", pv, sizeof pv) || strcmp(pv, sess))) {
            http_reply(fd, 400, "", "text/plain", "missing or wrong MCP-Protocol-Version");
            json_decref(msg);
            return;
        }
    }
    json_t *out = handle(msg, sess, sizeof sess);
    if (!out) {
        http_reply(fd, 202, "", NULL, NULL);
        json_decref(msg);
        return;
    }
    char extra[128] = "";
    if (method && !strcmp(method, "initialize") && json_object_get(out, "result"))
        snprintf(extra, sizeof extra, "Mcp-Session-Id: sess-%s-%d\r\n", sess, (int)getpid());
    char *s = json_dumps(out, JSON_COMPACT);
    int status = json_object_get(out, "error") && json_integer_value(json_object_get(json_object_get(out, "error"), "code")) == -32022 ? 400 : 200;
    if (C.sse && status == 200) {
        char head[512];
        int n = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\n%sContent-Type: text/event-stream\r\n"
                         "Cache-Control: no-cache\r\n\r\n", extra);
        if (write(fd, head, (size_t)n) < 0) {}
        const char *note = ": comment\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n";
        if (write(fd, note, strlen(note)) < 0) {}
        if (write(fd, "event: message\ndata: ", 21) < 0 || write(fd, s, strlen(s)) < 0 || write(fd, "\n\n", 2) < 0) {}
        if (C.sse_keep_open) { /* until the client hangs up */
            struct pollfd pfd = {fd, POLLIN, 0};
            char tmp[64];
            while (poll(&pfd, 1, 30000) > 0 && read(fd, tmp, sizeof tmp) > 0) {}
        }
    } else {
        http_reply(fd, status, extra, "application/json", s);
    }
    free(s);
    json_decref(out);
    json_decref(msg);
}

static int serve_http(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)C.http_port);
    if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 16) < 0) die("cannot listen");
    socklen_t al = sizeof a;
    getsockname(s, (struct sockaddr *)&a, &al);
    if (C.port_file) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", C.port_file);
        FILE *f = fopen(tmp, "w");
        if (!f) die("cannot write port file");
        fprintf(f, "%d\n", ntohs(a.sin_port));
        fclose(f);
        rename(tmp, C.port_file);
    }
    signal(SIGCHLD, SIG_IGN);
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) {
            if (errno == EINTR) continue;
            die("accept failed");
        }
        pid_t p = fork();
        if (p == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* a hanging connection dies with the server */
            if (getppid() == 1) _exit(0);
            close(s);
            serve_connection(c);
            close(c);
            _exit(0);
        }
        close(c);
    }
}

static void usage(void)
{
    puts("usage: fake-mcp-server [options]\n"
         "  --versions V,V,...     supported protocol versions (default: all five)\n"
         "  --answer-version V     initialize always answers V\n"
         "  --tools N --resources N --templates N --prompts N   counts; -1 drops the capability\n"
         "  --page-size K          paginate list results by K\n"
         "  --vary                 tools and instructions differ by version\n"
         "  --fail METHOD:MODE     MODE: error hang exit crash garbage notrpc partial\n"
         "  --fail-version V       only fail in the session of version V\n"
         "  --ignore-term          ignore SIGTERM and stdin EOF while hanging\n"
         "  --noise                send a notification, a ping and a stray response before each answer\n"
         "  --cursor-loop | --endless   broken pagination\n"
         "  --huge BYTES           add a tool with a description of BYTES bytes\n"
         "  --no-templates-method  answer -32601 to resources/templates/list\n"
         "  --tag WORD             ignored (lets a test find its processes)\n"
         "  --stderr TEXT          write TEXT to stderr at start\n"
         "  --stderr-pieces N      write N lines to stderr at start, each in three writes\n"
         "  --sleep-init SECONDS   wait before answering initialize and server/discover\n"
         "  --log FILE             append 'begin|end METHOD VERSION SECONDS' around that wait\n"
         "  --path P               HTTP: answer 404 to requests for another path\n"
         "  --require-header N:V   HTTP: answer 401 to requests without header N: V\n"
         "  --require-env N=V      exit 3 at start unless the environment has N=V (says N only)\n"
         "  --echo-env N           write N=VALUE to stderr at start (tests masking)\n"
         "  --env-in-tool N        tool-0's description and --fail's error messages show N=VALUE\n"
         "                         (tests masking in -v logs and error messages)\n"
         "  --http PORT --port-file F [--sse] [--sse-keep-open]   Streamable HTTP on 127.0.0.1");
}

int main(int argc, char **argv)
{
    for (int i = 0; i < NVERS; i++) C.supported[i] = 1;
    C.counts[0] = 3;
    C.counts[1] = 2;
    C.counts[2] = 1;
    C.counts[3] = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VAL() (v ? (i++, v) : (die("option needs a value"), ""))
        if (!strcmp(a, "--help")) { usage(); return 0; }
        else if (!strcmp(a, "--versions")) {
            const char *list = VAL();
            for (int k = 0; k < NVERS; k++) C.supported[k] = strstr(list, all_versions[k]) != NULL;
        } else if (!strcmp(a, "--answer-version")) C.answer_version = VAL();
        else if (!strcmp(a, "--tools")) C.counts[0] = atoi(VAL());
        else if (!strcmp(a, "--resources")) C.counts[1] = atoi(VAL());
        else if (!strcmp(a, "--templates")) C.counts[2] = atoi(VAL());
        else if (!strcmp(a, "--prompts")) C.counts[3] = atoi(VAL());
        else if (!strcmp(a, "--page-size")) C.page_size = atoi(VAL());
        else if (!strcmp(a, "--vary")) C.vary = 1;
        else if (!strcmp(a, "--bad-tool")) C.bad_tool = 1;
        else if (!strcmp(a, "--fail")) {
            char *f = strdup(VAL());
            char *colon = strchr(f, ':');
            if (!colon) die("--fail wants METHOD:MODE");
            *colon = '\0';
            C.fail_method = f;
            C.fail_mode = colon + 1;
        } else if (!strcmp(a, "--fail-version")) C.fail_version = VAL();
        else if (!strcmp(a, "--ignore-term")) C.ignore_term = 1;
        else if (!strcmp(a, "--noise")) C.noise = 1;
        else if (!strcmp(a, "--cursor-loop")) C.cursor_loop = 1;
        else if (!strcmp(a, "--endless")) C.endless = 1;
        else if (!strcmp(a, "--huge")) C.huge_bytes = atol(VAL());
        else if (!strcmp(a, "--no-templates-method")) C.no_templates_method = 1;
        else if (!strcmp(a, "--tag")) (void)VAL(); /* lets a test find its processes */
        else if (!strcmp(a, "--stderr")) fprintf(stderr, "%s\n", VAL());
        else if (!strcmp(a, "--stderr-pieces")) C.stderr_pieces = atoi(VAL());
        else if (!strcmp(a, "--sleep-init")) C.sleep_init = atof(VAL());
        else if (!strcmp(a, "--log")) C.log_file = VAL();
        else if (!strcmp(a, "--path")) C.path = VAL();
        else if (!strcmp(a, "--require-header")) {
            C.require_header = VAL();
            if (!strchr(C.require_header, ':')) die("--require-header wants NAME:VALUE");
        } else if (!strcmp(a, "--require-env")) {
            const char *nv = VAL(), *eq = strchr(nv, '=');
            if (!eq) die("--require-env wants NAME=VALUE");
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - nv), nv);
            const char *got = getenv(name);
            if (!got || strcmp(got, eq + 1)) {
                fprintf(stderr, "fake-mcp-server: environment variable %s is missing or wrong\n", name);
                exit(3);
            }
        } else if (!strcmp(a, "--env-in-tool")) {
            C.env_in_tool = VAL();
        } else if (!strcmp(a, "--echo-env")) {
            const char *name = VAL(), *got = getenv(name);
            fprintf(stderr, "%s=%s\n", name, got ? got : "(unset)");
        }
        else if (!strcmp(a, "--http")) C.http_port = atoi(VAL());
        else if (!strcmp(a, "--port-file")) C.port_file = VAL();
        else if (!strcmp(a, "--sse")) C.sse = 1;
        else if (!strcmp(a, "--sse-keep-open")) C.sse = C.sse_keep_open = 1;
        else die("unknown option");
    }
    for (int k = 0; k < C.stderr_pieces; k++) { /* pieces of a line, apart in time */
        char piece[64];
        snprintf(piece, sizeof piece, "piece-a-%d ", k);
        if (write(2, piece, strlen(piece)) < 0) {}
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
        snprintf(piece, sizeof piece, "piece-b-%d ", k);
        if (write(2, piece, strlen(piece)) < 0) {}
        nanosleep(&ts, NULL);
        snprintf(piece, sizeof piece, "piece-c-%d\n", k);
        if (write(2, piece, strlen(piece)) < 0) {}
    }
    if (C.port_file || C.http_port) return serve_http();
    return serve_stdio();
}
