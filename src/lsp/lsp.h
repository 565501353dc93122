/* lsp.h - the language server (`mcpdesc lsp`, Language Server Protocol 3.17). The
 * message handler is a pure function of the server's state and one message: it appends
 * the messages to send to an array and does no I/O, so sessions are unit tested and
 * fuzzed without pipes; lsp_run is the stdio loop around it (poll(2), the debounce
 * timer). What the server publishes and when: docs/editors.md. */
#ifndef MCPDESC_LSP_H
#define MCPDESC_LSP_H

#include <jansson.h>
#include <stddef.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "rules/rule.h"

/* A loaded rule set as the host hands it over: RS and the options it is judged with
 * (which rules run: preset, config levels), and the host's own handle. */
struct lsp_rules {
    const struct rule_set *rs;
    const struct eval_options *eo; /* NULL: every rule */
    void *handle;                  /* the host's (unload frees it) */
    /* Where the rule pages are (the config's docs-url, else the manifest's: as validate
     * decides), or NULL: diagnostics and hover link to no page. Borrowed like RS. */
    const char *docs_url;
};

/* What the server asks of the program around it (cli/cmd_lsp.c: the rule set as
 * `validate` selects it; the unit tests: a fixed set). */
struct lsp_host {
    /* Load the rule set for the workspace ROOT (a directory, or NULL: the working
     * directory): 0 with *OUT filled, or -1 with *WHY (new) saying why. */
    int (*load)(void *arg, const char *root, struct lsp_rules *out, char **why);
    /* Free what load gave (the server keeps the last good set until a new one loads). */
    void (*unload)(void *arg, struct lsp_rules *r);
    /* After judging the description PATH (D: the judged document): levels and
     * suppressions of the config. NULL: nothing. */
    void (*apply)(void *arg, const struct lsp_rules *r, const char *path, const doc *d,
                  struct diag_list *diags);
    void *arg;
    /* Is the description PATH one the config's `ignore` leaves out? Then it is not judged
     * and nothing is published for it, as ESLint does for an ignored file. NULL: none is. */
    int (*ignored)(void *arg, const struct lsp_rules *r, const char *path);
};

#define LSP_DEFAULT_DEBOUNCE_MS 150
#define LSP_MAX_DOCS 1024                /* open documents held at once */
#define LSP_MAX_DEFERRED 256             /* requests waiting for a re-judge */
#define LSP_MAX_TEXT ((size_t)64 << 20)  /* bytes of one open document */
#define LSP_MAX_HELD ((size_t)256 << 20) /* bytes of all open documents together */

typedef struct lsp_server lsp_server;

/* A new server in its "not initialized" state (HOST is copied). DEBOUNCE_MS: the delay
 * from a change to its re-judge (initializationOptions.debounceMs overrides it; 0
 * judges at once, in the call that received the change). */
lsp_server *lsp_server_new(const struct lsp_host *host, long debounce_ms);
void lsp_server_free(lsp_server *s); /* NULL is a no-op */

/* Handle one message body (LEN bytes of JSON, as the framing gave it) received at time
 * NOW (seconds, any monotonic origin): append the messages to send (new references) to
 * the array OUT. Never fails: a malformed message gets a JSON-RPC error. */
void lsp_handle(lsp_server *s, const char *body, size_t len, double now, json_t *out);
/* The same for a framing error (WHY: lsp_frame_next's): a ParseError with id null. */
void lsp_handle_frame_error(lsp_server *s, const char *why, json_t *out);
/* Re-judge the documents whose debounce ran out by NOW, answer the requests that waited
 * for them, and append what to send to OUT. */
void lsp_tick(lsp_server *s, double now, json_t *out);
/* The same in three steps, for a loop that judges on another thread: take the next
 * re-judge due by NOW (NULL when none is; the document is then marked as being judged
 * and is not taken again until the job is finished); run it (on any thread: it reads
 * only its own copy of the text and the rule set, which stays loaded while a job holds
 * it); finish it on the server's thread: its diagnostics are published and the requests
 * that waited are answered, unless the document changed or closed meanwhile (a stale
 * result is dropped: the newer text is judged next). lsp_job_finish frees J;
 * lsp_job_free frees an unfinished one. */
typedef struct lsp_job lsp_job;
lsp_job *lsp_job_take(lsp_server *s, double now);
void lsp_job_run(lsp_job *j);
/* What a run job holds that only needs freeing (the judged document): taken from J, to
 * be freed with lsp_leftovers_free once the job is handed back, so that the findings do
 * not wait for it; left in J, lsp_job_finish frees it. */
void *lsp_job_leftovers(lsp_job *j);
void lsp_leftovers_free(void *left);
void lsp_job_finish(lsp_server *s, lsp_job *j, json_t *out);
void lsp_job_free(lsp_job *j); /* NULL is a no-op */
/* When the next re-judge is due (seconds, as NOW), or a negative number when none is
 * (one being judged is not counted). */
double lsp_next_due(const lsp_server *s);
/* With ON, lsp_handle leaves every re-judge to the caller's loop (lsp_job_take...),
 * even with no debounce: lsp_run judges on a thread of its own. Off by default. */
void lsp_server_set_async(lsp_server *s, int on);
/* -1 while the server runs; after `exit`, the process's exit status: 0 when `shutdown`
 * came first, else 1. */
int lsp_exit_status(const lsp_server *s);

/* Serve on IN and OUT (file descriptors: standard input and output) until `exit` or the
 * end of the input, judging on a worker thread (on this one when no thread can be
 * started) so that messages are read and answered while a large document is judged. MAX_BODY: the largest message accepted (0: the default). Returns the
 * exit status (1 when the input ends without `exit`). */
int lsp_run(lsp_server *s, int in, int out, size_t max_body);

#endif
