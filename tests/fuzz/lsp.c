/* lsp.c - libFuzzer harness: the language server's framing and message handler, as
 * `mcpdesc lsp` runs them but without pipes. The first byte picks the size of the
 * chunks the bytes arrive in, the second the debounce (0: judge at once); the rest is
 * the client's byte stream, framed by Content-Length headers (tests/fuzz/seeds/lsp/ are
 * whole sessions). Every message, framed or not, goes to lsp_handle; the debounce timer
 * runs between messages. Invariants: everything the server sends is a JSON-RPC 2.0
 * object that serialises; a response has an id and exactly one of result and error;
 * after `exit` nothing more is sent. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lsp/lsp.h"
#include "lsp/lsp_frame.h"
#include "rules/rule.h"

static struct rule_set *rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[4096];
    struct diag_list errs = DIAG_LIST_INIT;
    snprintf(dir, sizeof dir, "%s/rules-yaml", fuzz_top());
    rules = rule_set_load(dir, &errs);
    if (!rules) fuzz_fail("cannot load %s", dir);
    diag_list_release(&errs);
    return 0;
}

static int load(void *arg, const char *root, struct lsp_rules *out, char **why)
{
    *out = (struct lsp_rules){rules, NULL, NULL, NULL};
    return 0;
}

static void unload(void *arg, struct lsp_rules *r) {}

static void check_out(json_t *out, int exited)
{
    size_t i;
    json_t *m;
    if (exited && json_array_size(out)) fuzz_fail("a message sent after exit");
    json_array_foreach(out, i, m)
    {
        if (!json_is_object(m)) fuzz_fail("a message that is not an object");
        const char *v = json_string_value(json_object_get(m, "jsonrpc"));
        if (!v || strcmp(v, "2.0")) fuzz_fail("a message without jsonrpc 2.0");
        char *s = json_dumps(m, JSON_COMPACT);
        if (!s) fuzz_fail("a message that does not serialise");
        free(s);
        if (json_object_get(m, "method")) continue;
        if (!json_object_get(m, "id")) fuzz_fail("a response without an id");
        if (!json_object_get(m, "result") == !json_object_get(m, "error"))
            fuzz_fail("a response without exactly one of result and error");
    }
    json_array_clear(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    size_t chunk = (size_t)(data[0] % 64) + 1;
    long debounce = data[1] % 2 ? 0 : 50;
    data += 2;
    size -= 2;
    struct lsp_host host = {load, unload, NULL, NULL, NULL};
    lsp_server *s = lsp_server_new(&host, debounce);
    struct lsp_frame f;
    lsp_frame_init(&f, 8192);
    json_t *out = json_array();
    double now = 0;
    for (size_t off = 0; off < size; off += chunk) {
        lsp_frame_feed(&f, (const char *)data + off, off + chunk <= size ? chunk : size - off);
        const char *body, *why;
        size_t len;
        int k;
        while ((k = lsp_frame_next(&f, &body, &len, &why)) != 0) {
            int exited = lsp_exit_status(s) >= 0;
            if (k > 0) lsp_handle(s, body, len, now, out);
            else lsp_handle_frame_error(s, why, out);
            check_out(out, exited);
            now += 0.03;
            lsp_tick(s, now, out);
            check_out(out, lsp_exit_status(s) >= 0);
        }
    }
    lsp_next_due(s);
    lsp_tick(s, now + 1, out);
    check_out(out, 0);
    json_decref(out);
    lsp_frame_release(&f);
    lsp_server_free(s);
    return 0;
}
