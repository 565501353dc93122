/* cmd_capture_config.c - read an MCP client configuration (see cmd_capture_config.h).
 * Shapes: Claude Desktop's "mcpServers" {KEY: {command, args, env}}
 * (modelcontextprotocol.io/quickstart/user), Cursor's "mcpServers" with command/args/env
 * or url/headers (docs.cursor.com/context/model-context-protocol), VS Code's "servers"
 * {KEY: {type, command, args, env, envFile, url, headers}} and "inputs"
 * (code.visualstudio.com/docs/copilot/reference/mcp-configuration). Variables follow VS
 * Code's (code.visualstudio.com/docs/reference/variables-reference), which Cursor
 * shares; mcpdesc expands them in every kind (a Claude Desktop file rarely holds "${"). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/rpc.h"
#include "cli/cmd_capture_config.h"
#include "doc/doc.h"

extern char **environ;

/* What expansion needs: the file, for positions, and the folders variables name. */
struct reader {
    const char *path;
    doc *d;
    char *workspace; /* ${workspaceFolder} */
};

/* "mcpdesc capture: FILE:L:C: " then the message, on stderr. */
static int refuse(const struct reader *r, doc_node n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(const struct reader *r, doc_node n, const char *fmt, ...)
{
    struct doc_pos p = n == DOC_NONE ? (struct doc_pos){0, 0} : doc_node_pos(r->d, n);
    if (p.line) fprintf(stderr, "mcpdesc capture: %s:%u:%u: ", r->path, p.line, p.col);
    else fprintf(stderr, "mcpdesc capture: %s: ", r->path);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* The folder VS Code and Cursor call the workspace: the one holding the .vscode or
 * .cursor folder the file is in, else the file's own folder. New. */
static char *workspace_of(const char *path)
{
    char *copy = xstrdup(path);
    char *dir = realpath(dirname(copy), NULL);
    free(copy);
    if (!dir) return xstrdup(".");
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    if (!strcmp(base, ".vscode") || !strcmp(base, ".cursor")) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = '\0';
        else *slash = '\0';
    }
    return dir;
}

/* Append the value of variable NAME (the text between "${" and "}") to OUT. 0, or -1
 * with S's problem set when mcpdesc cannot give it a value. */
static int expand_one(const struct reader *r, struct client_server *s, doc_node n, const char *name,
                      struct buf *out)
{
    if (!strncmp(name, "env:", 4)) {
        const char *v = getenv(name + 4);
        buf_adds(out, v ? v : ""); /* unset: empty, as VS Code does */
        /* what a configuration takes from the environment is often a key: never shown */
        if (v && strlen(v) >= RPC_MASK_MIN) VEC_PUSH(s->secrets, xstrdup(v));
        return 0;
    }
    if (!strcmp(name, "userHome")) {
        const char *home = getenv("HOME");
        buf_adds(out, home ? home : "");
        return 0;
    }
    if (!strcmp(name, "workspaceFolder") || !strcmp(name, "workspaceFolderBasename")) {
        const char *base = strrchr(r->workspace, '/');
        buf_adds(out, name[15] && base && base[1] ? base + 1 : r->workspace);
        return 0;
    }
    if (!strcmp(name, "pathSeparator") || !strcmp(name, "/")) {
        buf_addc(out, '/');
        return 0;
    }
    if (s->problem.len) return -1; /* one problem per server is enough */
    struct doc_pos p = doc_node_pos(r->d, n);
    if (!strncmp(name, "input:", 6))
        buf_addf(&s->problem,
                 "variable ${%s} at %s:%u:%u needs an answer that the client prompts for "
                 "(\"inputs\"), which mcpdesc cannot give: write ${env:NAME} there instead and "
                 "set NAME",
                 name, r->path, p.line, p.col);
    else
        buf_addf(&s->problem,
                 "variable ${%s} at %s:%u:%u is not one mcpdesc expands (it expands ${env:NAME}, "
                 "${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, "
                 "${pathSeparator}): write the value, or ${env:NAME}, there instead",
                 name, r->path, p.line, p.col);
    return -1;
}

/* TEXT (the string at node N) with its ${...} variables expanded. New; on a variable
 * mcpdesc cannot expand, S's problem is set and the variable is left as written. */
static char *expand(const struct reader *r, struct client_server *s, doc_node n, const char *text)
{
    struct buf out = BUF_INIT;
    const char *p = text;
    for (;;) {
        const char *open = strstr(p, "${");
        const char *close = open ? strchr(open + 2, '}') : NULL;
        if (!close) break;
        buf_add(&out, p, (size_t)(open - p));
        char *name = xstrndup(open + 2, (size_t)(close - open - 2));
        if (expand_one(r, s, n, name, &out)) buf_add(&out, open, (size_t)(close + 1 - open));
        free(name);
        p = close + 1;
    }
    buf_adds(&out, p);
    return buf_detach(&out);
}

/* KEY with every byte outside [A-Za-z0-9._-] as '_', plus the extension. New. */
static char *file_name(const char *key)
{
    struct buf b = BUF_INIT;
    for (const char *c = key; *c; c++) {
        int keep = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
            (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-';
        buf_addc(&b, keep ? *c : '_');
    }
    buf_adds(&b, ".mcp-description.json");
    return buf_detach(&b);
}

/* A string member of object V at node N: its value and node (DOC_NONE when absent).
 * 0, -1 when absent, 2 after a message when it is not a string. */
static int string_member(const struct reader *r, json_t *v, doc_node n, const char *key,
                         const char *server, const char **out, doc_node *at)
{
    json_t *m = json_object_get(v, key);
    *at = m ? doc_node_member(r->d, n, v, key) : DOC_NONE;
    if (!m) return -1;
    if (!json_is_string(m))
        return refuse(r, *at, "server '%s': \"%s\" must be a string", server, key);
    *out = json_string_value(m);
    return 0;
}

/* "args": strings appended to s->argv, expanded. 0, or 2 after a message. */
static int read_args(const struct reader *r, struct client_server *s, json_t *v, doc_node n)
{
    json_t *args = json_object_get(v, "args");
    if (!args) return 0;
    doc_node an = doc_node_member(r->d, n, v, "args");
    if (!json_is_array(args))
        return refuse(r, an, "server '%s': \"args\" must be an array of strings", s->key);
    size_t i;
    json_t *a;
    json_array_foreach(args, i, a)
    {
        doc_node in = doc_node_item(r->d, an, i);
        if (!json_is_string(a))
            return refuse(r, in, "server '%s': \"args\" item %zu must be a string", s->key, i);
        VEC_PUSH(s->argv, expand(r, s, in, json_string_value(a)));
    }
    return 0;
}

/* "env" (NAME=value into s->env) or "headers" ("Name: value" into s->headers): an
 * object of strings (env: numbers too; null leaves the variable out, as VS Code does).
 * The values are secrets. 0, or 2 after a message that names the key, never a value. */
static int read_pairs(const struct reader *r, struct client_server *s, json_t *v, doc_node n,
                      const char *member)
{
    int env = !strcmp(member, "env");
    json_t *obj = json_object_get(v, member);
    if (!obj) return 0;
    doc_node on = doc_node_member(r->d, n, v, member);
    if (!json_is_object(obj))
        return refuse(r, on, "server '%s': \"%s\" must be an object of strings", s->key, member);
    const char *name;
    json_t *val;
    json_object_foreach(obj, name, val)
    {
        doc_node vn = doc_node_member(r->d, on, obj, name);
        if (env && json_is_null(val)) continue;
        char *text;
        if (json_is_string(val)) text = expand(r, s, vn, json_string_value(val));
        else if (env && json_is_integer(val))
            text = xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(val));
        else
            return refuse(r, vn, "server '%s': %s entry '%s' must be a string", s->key, member,
                          name);
        if (!*name || (env && strchr(name, '=')) || (!env && strpbrk(name, ": \r\n"))) {
            free(text);
            return refuse(r, vn, "server '%s': '%s' is not a valid %s name (%s)", s->key, name,
                          env ? "environment variable" : "header",
                          env ? "not empty, without '='" : "not empty, without spaces or ':'");
        }
        if (!env && strpbrk(text, "\r\n")) {
            free(text);
            return refuse(r, vn, "server '%s': header '%s' has a line break in its value", s->key,
                          name);
        }
        if (env) VEC_PUSH(s->env, xasprintf("%s=%s", name, text));
        else VEC_PUSH(s->headers, xasprintf("%s: %s", name, text));
        VEC_PUSH(s->secrets, text);
    }
    return 0;
}

/* Members that change how the client runs the server and that mcpdesc does not
 * implement: the server is reported instead of run differently. */
static void unsupported(const struct reader *r, struct client_server *s, json_t *v, doc_node n)
{
    static const char *const members[] = {"envFile", "cwd", NULL};
    for (size_t i = 0; members[i] && !s->problem.len; i++) {
        if (!json_object_get(v, members[i])) continue;
        struct doc_pos p = doc_node_pos(r->d, doc_node_member(r->d, n, v, members[i]));
        buf_addf(&s->problem, "\"%s\" at %s:%u:%u is not supported by mcpdesc: %s", members[i],
                 r->path, p.line, p.col,
                 !strcmp(members[i], "envFile")
                     ? "put the file's variables in \"env\""
                     : "start mcpdesc in that folder with the command made absolute");
    }
}

/* The server KEY: V at node N into *S. 0, or 2 after a message. */
static int read_server(const struct reader *r, const char *key, json_t *v, doc_node n,
                       struct client_server *s)
{
    if (!json_is_object(v))
        return refuse(r, n,
                      "server '%s' must be an object with \"command\" (and \"args\", \"env\") "
                      "or \"url\"",
                      key);
    const char *type = NULL, *command = NULL, *url = NULL;
    doc_node tn, cn, un;
    int rc;
    if ((rc = string_member(r, v, n, "type", key, &type, &tn)) == 2) return 2;
    if ((rc = string_member(r, v, n, "command", key, &command, &cn)) == 2) return 2;
    if ((rc = string_member(r, v, n, "url", key, &url, &un)) == 2) return 2;
    if (type && strcmp(type, "stdio") && strcmp(type, "http") && strcmp(type, "sse"))
        return refuse(r, tn, "server '%s': unknown \"type\" '%s' (known: stdio, http, sse)", key,
                      type);
    if (command && url)
        return refuse(r, n,
                      "server '%s' has both \"command\" and \"url\": keep the one the "
                      "client uses",
                      key);
    if (!command && !url)
        return refuse(r, n, "server '%s' has neither \"command\" nor \"url\": add one", key);
    if (type && !strcmp(type, "stdio") != !!command)
        return refuse(r, tn, "server '%s': \"type\" '%s' wants %s", key, type,
                      command ? "\"url\", not \"command\"" : "\"command\", not \"url\"");
    if (command) {
        VEC_PUSH(s->argv, expand(r, s, cn, command));
        if (read_args(r, s, v, n)) return 2;
        if (read_pairs(r, s, v, n, "env")) return 2;
    } else {
        s->url = expand(r, s, un, url);
        if (read_pairs(r, s, v, n, "headers")) return 2;
        if (type && !strcmp(type, "sse") && !s->problem.len) {
            struct doc_pos p = doc_node_pos(r->d, tn);
            buf_addf(&s->problem,
                     "\"type\": \"sse\" at %s:%u:%u is the HTTP+SSE transport of protocol "
                     "2024-11-05, which mcpdesc does not speak; if the server also serves "
                     "Streamable HTTP, capture that URL",
                     r->path, p.line, p.col);
        }
    }
    unsupported(r, s, v, n);
    VEC_PUSH(s->argv, NULL);
    VEC_PUSH(s->env, NULL);
    VEC_PUSH(s->headers, NULL);
    VEC_PUSH(s->secrets, NULL);
    return 0;
}

/* Two servers whose keys give one file name: 2 after a message naming both. */
static int check_names(const struct reader *r, const struct client_config *cc)
{
    for (size_t i = 0; i < cc->servers.len; i++)
        for (size_t j = 0; j < i; j++) {
            const struct client_server *a = &cc->servers.items[j], *b = &cc->servers.items[i];
            if (strcmp(a->file, b->file)) continue;
            fprintf(stderr,
                    "mcpdesc capture: %s:%u:%u: server '%s' and server '%s' (%u:%u) would both "
                    "be written to '%s': rename one of the keys (characters outside "
                    "[A-Za-z0-9._-] become '_')\n",
                    r->path, b->line, b->col, b->key, a->key, a->line, a->col, b->file);
            return 2;
        }
    return 0;
}

static int empty_object(json_t *v)
{
    return json_is_object(v) && !json_object_size(v);
}

/* Which of "mcpServers" and "servers" ROOT's servers are in, into *KIND. A file with
 * both (written for two clients, or one left over from an edit) uses the one that has
 * servers when the other is empty; with servers in both, mcpdesc cannot tell which the
 * client reads: 2 after a message naming both. Else 0. */
static int pick_kind(const struct reader *r, json_t *root, const char **kind)
{
    json_t *ms = json_object_get(root, "mcpServers"), *sv = json_object_get(root, "servers");
    *kind = ms ? "mcpServers" : "servers";
    if (!ms || !sv) return 0;
    if (empty_object(ms) && !empty_object(sv)) *kind = "servers";
    if (!json_is_object(ms) || !json_is_object(sv) || empty_object(ms) || empty_object(sv))
        return 0;
    struct doc_pos sp = doc_node_pos(r->d, doc_node_member(r->d, 0, root, "servers"));
    return refuse(r, doc_node_member(r->d, 0, root, "mcpServers"),
                  "both \"mcpServers\" (Claude Desktop, Cursor) and \"servers\" (VS Code, "
                  "%u:%u) hold servers: mcpdesc cannot tell which ones the client runs; keep "
                  "one of them (or capture a copy of the file for each)",
                  sp.line, sp.col);
}

/* The servers object of the loaded file into *CC. 0, or 2 after a message. */
static int read_servers(const struct reader *r, struct client_config *cc)
{
    json_t *root = doc_root(r->d);
    if (!json_is_object(root))
        return refuse(r, 0,
                      "not a client configuration: the file must be a JSON object with "
                      "\"mcpServers\" (Claude Desktop, Cursor) or \"servers\" (VS Code)");
    if (pick_kind(r, root, &cc->kind)) return 2;
    json_t *servers = json_object_get(root, cc->kind);
    if (!servers)
        return refuse(r, 0,
                      "not a client configuration: no \"mcpServers\" (Claude Desktop, Cursor) "
                      "or \"servers\" (VS Code) object at the top level");
    doc_node sn = doc_node_member(r->d, 0, root, cc->kind);
    if (!json_is_object(servers))
        return refuse(r, sn, "\"%s\" must be an object: server names and their settings", cc->kind);
    json_t *inputs = json_object_get(root, "inputs");
    if (inputs && !json_is_array(inputs))
        return refuse(r, doc_node_member(r->d, 0, root, "inputs"),
                      "\"inputs\" must be an array (VS Code's prompts for ${input:ID})");
    const char *key;
    json_t *v;
    json_object_foreach(servers, key, v)
    {
        doc_node n = doc_node_member(r->d, sn, servers, key);
        struct doc_pos kp = doc_node_key_pos(r->d, n);
        struct client_server s = {.key = xstrdup(key),
                                  .file = file_name(key),
                                  .line = kp.line,
                                  .col = kp.col,
                                  .argv = VEC_INIT,
                                  .env = VEC_INIT,
                                  .headers = VEC_INIT,
                                  .secrets = VEC_INIT,
                                  .problem = BUF_INIT};
        int rc = read_server(r, key, v, n, &s);
        VEC_PUSH(cc->servers, s);
        if (rc) return rc;
    }
    if (!cc->servers.len) return refuse(r, sn, "\"%s\" is empty: no server to capture", cc->kind);
    return check_names(r, cc);
}

int cmd_capture_config_read(const char *path, struct client_config *cc)
{
    *cc = (struct client_config){NULL, VEC_INIT};
    struct doc_error derr = {NULL, 0, 0};
    doc *d = doc_load_file(path, NULL, &derr);
    if (!d) {
        /* VS Code reads mcp.json as JSON with comments; mcpdesc reads plain JSON */
        if (derr.line)
            fprintf(stderr,
                    "mcpdesc capture: %s:%u:%u: %s (a client configuration is read as plain "
                    "JSON: remove comments and trailing commas)\n",
                    path, derr.line, derr.col, derr.message);
        else
            fprintf(stderr,
                    "mcpdesc capture: %s: %s (--client-config wants the client's configuration "
                    "file: claude_desktop_config.json, .vscode/mcp.json, .cursor/mcp.json)\n",
                    path, derr.message);
        doc_error_release(&derr);
        return 2;
    }
    struct reader r = {path, d, workspace_of(path)};
    int rc = read_servers(&r, cc);
    free(r.workspace);
    doc_free(d);
    if (rc) cmd_capture_config_release(cc);
    return rc;
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
}

void cmd_capture_config_release(struct client_config *cc)
{
    for (size_t i = 0; i < cc->servers.len; i++) {
        struct client_server *s = &cc->servers.items[i];
        free(s->key);
        free(s->file);
        free(s->url);
        free_strings(s->argv.items, s->argv.len);
        free_strings(s->env.items, s->env.len);
        free_strings(s->headers.items, s->headers.len);
        free_strings(s->secrets.items, s->secrets.len);
        VEC_FREE(s->argv);
        VEC_FREE(s->env);
        VEC_FREE(s->headers);
        VEC_FREE(s->secrets);
        buf_release(&s->problem);
    }
    VEC_FREE(cc->servers);
}

/* The length of NAME= in the entry E ("NAME=value"). */
static size_t name_len(const char *e)
{
    const char *eq = strchr(e, '=');
    return eq ? (size_t)(eq - e) + 1 : strlen(e);
}

char **cmd_capture_config_env(const struct client_server *s)
{
    VEC(char *) out = VEC_INIT;
    for (char **e = environ; e && *e; e++) {
        int replaced = 0;
        for (size_t i = 0; s->env.items && s->env.items[i] && !replaced; i++)
            replaced = name_len(*e) == name_len(s->env.items[i]) &&
                !strncmp(*e, s->env.items[i], name_len(*e));
        if (!replaced) VEC_PUSH(out, *e);
    }
    for (size_t i = 0; s->env.items && s->env.items[i]; i++) VEC_PUSH(out, s->env.items[i]);
    VEC_PUSH(out, NULL);
    return out.items;
}
