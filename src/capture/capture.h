/* capture.h - describe a running MCP server: one session per requested protocol
 * version (initialize up to 2025-11-25, server/discover from 2026-07-28), the four list
 * calls with pagination, and the merge of the sessions into one MCP Description. */
#ifndef MCPDESC_CAPTURE_H
#define MCPDESC_CAPTURE_H

#include <jansson.h>
#include <stddef.h>

#include "base/buf.h"
#include "capture/rpc.h"

/* The protocol versions the client speaks, oldest first (NULL-terminated). This is
 * protocol code (the handshake differs by version), so unlike the rule set's version
 * list it is compiled in. */
extern const char *const capture_known_versions[];
/* 1 when V is one of capture_known_versions. */
int capture_version_known(const char *v);

enum capture_list {
    CAPTURE_TOOLS,
    CAPTURE_RESOURCES,
    CAPTURE_TEMPLATES,
    CAPTURE_PROMPTS,
    CAPTURE_NLISTS
};

/* What one session saw. Every member is owned (NULL when absent). */
struct capture_session {
    char *requested;               /* the version mcpdesc asked for */
    char *version;                 /* the version the server negotiated */
    json_t *server_info;           /* Implementation */
    json_t *capabilities;          /* ServerCapabilities */
    json_t *instructions;          /* string */
    json_t *lists[CAPTURE_NLISTS]; /* arrays of items; NULL when the capability is absent */
};
void capture_session_release(struct capture_session *s);

/* Merge sessions S[0..N) (N >= 1, distinct versions, any order) into a new document:
 * mcpDescription, protocolVersions, serverInfo, capabilities, instructions, the four
 * lists, x-capturedBy {tool: TOOL, date: DATE} (no date when DATE is NULL). An item identical in every session
 * appears once without protocolVersions; an item that differs between sessions or is
 * missing from some appears once per distinct form, with the versions it was seen in.
 * Items keep the server's order: the newest session's, an item seen only in older
 * sessions right after the item that preceded it there, and the other forms of an item
 * right after its first form. Differences of serverInfo, capabilities and instructions
 * between sessions are described in NOTES, one line each (no prefix, ending in '\n'). */
json_t *capture_merge(const struct capture_session *s, size_t n, const char *tool, const char *date,
                      struct buf *notes);

/* Append V to B pretty-printed with two-space indentation (jansson's JSON_INDENT(2)
 * layout) and a final newline. Reals are written in the shortest form that reads back
 * to the same double (0.1, not 0.10000000000000001), with ".0" when integral. */
void capture_dump(json_t *v, struct buf *b);

/* One line for people: "captured protocol versions A, B: 3 tools, 2 resources, 1
 * resource template, 2 prompts" (items counted once per name, uri or uriTemplate),
 * appended to B without a newline. */
void capture_summary(json_t *doc, struct buf *b);

struct capture_opts {
    const char *const *versions; /* requested, each known */
    size_t nversions;
    char *const *argv;      /* stdio server command, or NULL */
    const char *url;        /* Streamable HTTP endpoint, or NULL */
    double request_timeout; /* seconds */
    double session_timeout; /* seconds per session */
    size_t max_message;     /* bytes */
    int max_pages;          /* per list call */
    int stderr_fd;          /* server stderr, -1 inherits */
    int verbose;
    const char *date; /* YYYY-MM-DD for x-capturedBy, or NULL for none */
    int jobs;         /* sessions run at the same time (>= 1) */
    /* For one server of a client configuration (zero/NULL otherwise): */
    const char *name;           /* stderr lines read "[NAME VERSION] ", notes "NAME: " */
    char *const *envp;          /* the stdio server's environment (NULL: ours) */
    const char *const *headers; /* extra HTTP header lines, "Name: value" */
    const char *const *secrets; /* values shown as *** in relayed stderr and -v logs */
};

/* Run the sessions, O->jobs at a time (threads; each session has its own server
 * process or HTTP session, and a stdio server's stderr lines go to O->stderr_fd or ours
 * with "[VERSION] " in front, whole lines at a time), and merge them in the order of
 * O->versions, so the result does not depend on O->jobs. A version that a session for
 * another version was answered with (initialize) is not asked again when its session has
 * not started yet. Returns the new document, or NULL with ERR set to
 * what went wrong and what to do. Progress notes go to stderr ("mcpdesc: ...", with
 * O->name "mcpdesc: NAME: ..."). */
json_t *capture_run(const struct capture_opts *o, struct buf *err);

#endif
