/* display.h - text from a document made safe to show: a report about hidden text must
 * not carry it. A right-to-left override printed raw reorders the report line itself, an
 * ESC starts a terminal sequence, a tag character or a zero-width space hides text from
 * the reader. Every placeholder a message expands, and every excerpt of a source line,
 * goes through display_add, which writes those characters as escapes and leaves every
 * other character (letters of any script, CJK, emoji) as it is.
 *   display_add(&b, name, strlen(name));      "a\u202Eb" for a, U+202E, b */
#ifndef MCPDESC_DISPLAY_H
#define MCPDESC_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* The code point of the UTF-8 sequence at S (N bytes left, N > 0) into *CP, and its
 * length in bytes; an invalid or cut sequence is one byte, *CP UINT32_MAX. */
size_t display_utf8_next(const char *s, size_t n, uint32_t *cp);

/* Is CP shown escaped: a C0 or C1 control or DEL, a bidirectional control, a
 * zero-width, invisible or other default-ignorable format character, a line or
 * paragraph separator, a tag character (U+E0000-E007F) or a variation selector? */
int display_is_hidden(uint32_t cp);

/* Append the escape of CP: \u202E (four upper-case hex digits) in the Basic
 * Multilingual Plane, \u{E0041} beyond it. */
void display_add_escape(struct buf *b, uint32_t cp);

/* Append S[0..N) to B with every hidden character (display_is_hidden) escaped and every
 * byte that is not UTF-8 written \xFF. Returns the number of characters written (an
 * escape counts as its length), for a caret that must line up under the text. */
size_t display_add(struct buf *b, const char *s, size_t n);

/* display_add for an excerpt of a source line: tabs are kept (they are indentation, and
 * a caret under the line lines up with tabs), every other hidden character escaped.
 * PAD, when not NULL, receives what puts a caret under the character after S: a space
 * per character shown, a tab per tab. */
void display_add_line(struct buf *b, const char *s, size_t n, struct buf *pad);

/* Append "U+202E", and " RIGHT-TO-LEFT OVERRIDE" when the character is one of the
 * hidden characters whose name a small table knows (controls, bidirectional and
 * zero-width characters, tag characters, variation selectors). */
void display_add_codepoint(struct buf *b, uint32_t cp);

#endif
