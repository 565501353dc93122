/* loc.h - where a message points: FILE:LINE:COL, as compilers print it. Every message
 * of the program that names a place in a file writes it with loc_add, so the form (and
 * its one exception, no position) is decided once.
 *   loc_print(stderr, path, line, col); fprintf(stderr, ": error: %s\n", msg); */
#ifndef MCPDESC_LOC_H
#define MCPDESC_LOC_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"

/* Append FILE:LINE:COL to B; just FILE when LINE is 0 (no position known: a file that
 * cannot be opened, say), whatever COL is. A NULL FILE writes no name. */
void loc_add(struct buf *b, const char *file, uint32_t line, uint32_t col);
/* The same place without its file, LINE:COL (LINE > 0): a place in a text no file holds
 * (made in memory), and the second and later places of a list in one file
 * ("FILE:3:5, 7:5"). */
void loc_add_pos(struct buf *b, uint32_t line, uint32_t col);
/* FILE:LINE (just FILE when LINE is 0; a NULL FILE writes no name): a place shown
 * without its column, where a summary has no room for it (the Markdown report's first
 * findings). */
void loc_add_line(struct buf *b, const char *file, uint32_t line);
/* loc_add's text on OUT. */
void loc_print(FILE *out, const char *file, uint32_t line, uint32_t col);
/* loc_add's text as a new string (for a message with the place in its middle). */
char *loc_format(const char *file, uint32_t line, uint32_t col);

#endif
