/* capture.c - libFuzzer harness: what `mcpdesc capture` does with a server's answers
 * once the message reader has them: merging the sessions of several protocol versions
 * (capture_merge) and writing the description (capture_dump). The input is a JSON
 * array of sessions, each an object with serverInfo, capabilities, instructions and
 * the four lists as a server sends them; session i speaks the i-th known version.
 * Invariant: the written text parses back to the merged document. */
#include <jansson.h>
#include <stdlib.h>

#include "base/buf.h"
#include "capture/capture.h"
#include "fuzz.h"
#include "base/util.h"

static json_t *member(json_t *o, const char *key, int array)
{
    json_t *v = json_object_get(o, key);
    if (!v || (array && !json_is_array(v))) return NULL;
    return json_incref(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const lists[CAPTURE_NLISTS] = {"tools", "resources", "resourceTemplates",
                                                      "prompts"};
    json_t *in = json_loadb((const char *)data, size, 0, NULL);
    struct capture_session s[8] = {{0}};
    size_t n = 0;
    for (; json_is_array(in) && n < json_array_size(in) && n < 8 && capture_known_versions[n];
         n++) {
        json_t *o = json_array_get(in, n);
        s[n].requested = xstrdup(capture_known_versions[n]);
        s[n].version = xstrdup(capture_known_versions[n]);
        s[n].server_info = member(o, "serverInfo", 0);
        s[n].capabilities = member(o, "capabilities", 0);
        s[n].instructions = member(o, "instructions", 0);
        for (int l = 0; l < CAPTURE_NLISTS; l++) s[n].lists[l] = member(o, lists[l], 1);
    }
    if (n > 0) {
        struct buf notes = BUF_INIT, text = BUF_INIT;
        json_t *doc = capture_merge(s, n, "mcpdesc-fuzz", "2026-01-01", &notes);
        capture_dump(doc, &text);
        json_error_t err;
        json_t *back = json_loadb(text.s, text.len, 0, &err);
        if (!back) fuzz_fail("the written description does not parse: %s", err.text);
        if (!json_equal(back, doc)) fuzz_fail("the written description reads back different");
        json_decref(back);
        json_decref(doc);
        buf_release(&notes);
        buf_release(&text);
    }
    for (size_t i = 0; i < n; i++) capture_session_release(&s[i]);
    json_decref(in);
    return 0;
}
