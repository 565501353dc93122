/* cmd_capture_config.h - read an MCP client configuration for `capture --client-config`:
 * Claude Desktop's claude_desktop_config.json and Cursor's .cursor/mcp.json (a top-level
 * "mcpServers" object) or VS Code's .vscode/mcp.json ("servers", "inputs"). Each server
 * becomes a command line or a URL with its environment or headers, its variables
 * expanded, and the name of the file its description goes to. */
#ifndef MCPDESC_CMD_CAPTURE_CONFIG_H
#define MCPDESC_CMD_CAPTURE_CONFIG_H

#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"

/* One configured server. Every string is owned; vectors hold NULL at the end. */
struct client_server {
    char *key;           /* its key in the configuration */
    char *file;          /* KEY with [^A-Za-z0-9._-] as '_', plus .mcp-description.json */
    uint32_t line, col;  /* where the key stands */
    VEC(char *) argv;    /* stdio: the command and its args (empty for a URL) */
    char *url;           /* Streamable HTTP endpoint, or NULL */
    VEC(char *) env;     /* configured NAME=value entries, after expansion */
    VEC(char *) headers; /* "Name: value" lines, after expansion */
    VEC(char *) secrets; /* the env and header values: never shown */
    struct buf problem;  /* why mcpdesc cannot run it as the client would (empty: none) */
};

struct client_config {
    const char *kind; /* "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) */
    VEC(struct client_server) servers;
};

/* Read PATH into *CC. 0, or 2 after a message on stderr ("mcpdesc capture: FILE:L:C:
 * what; what to do") when the file cannot be read, is not a client configuration, has
 * a malformed entry, or has two keys that give one file name. A server that mcpdesc
 * cannot run as configured (an ${input:...} variable, envFile) is not an error of the
 * file: its problem says why, and the caller reports it for that server alone. */
int cmd_capture_config_read(const char *path, struct client_config *cc);
void cmd_capture_config_release(struct client_config *cc);

/* Our environment with S's entries added (replacing variables of the same name), as
 * clients start servers. A new NULL-terminated array of borrowed strings (ours and S's):
 * free the array alone. */
char **cmd_capture_config_env(const struct client_server *s);

#endif
