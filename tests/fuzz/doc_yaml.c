/* doc_yaml.c - libFuzzer harness: the YAML description loader (doc_load_buffer) and its
 * position index. Any input (alias bombs and cycles included) must load or fail with a
 * positioned message; a loaded document's index must agree with jansson's tree at every
 * node (fuzz_walk_doc). */
#include <stdlib.h>

#include "doc/doc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct doc_error err;
    doc *d = doc_load_buffer("fuzz.yaml", (const char *)data, size, 1, NULL, &err);
    if (!d) {
        if (!err.message) fuzz_fail("a failed load has no message");
        doc_error_release(&err);
        return 0;
    }
    fuzz_walk_doc(d);
    doc_free(d);
    return 0;
}
