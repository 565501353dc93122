/* fuzz.h - what the libFuzzer harnesses of tests/fuzz/ share: the entry points
 * libFuzzer calls, a checked walk of a loaded document's position index, and the
 * repository's top directory (for the shipped rule set). */
#ifndef MCPDESC_FUZZ_H
#define MCPDESC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Abort with a message: an invariant of the library does not hold for this input
 * (libFuzzer then saves the input as a crash). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Walk every node of D: positions, lines, the first-child/next-sibling links, the
 * member/item lookups (small and large containers) and the pointer of every node,
 * which doc_pointer_node must map back to the same node. */
void fuzz_walk_doc(const doc *d);

/* The repository's top directory: $MCPDESC_TOP, else FUZZ_TOP (compiled in). */
const char *fuzz_top(void);

#endif
