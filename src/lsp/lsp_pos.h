/* lsp_pos.h - positions between the editor and mcpdesc. LSP positions are a 0-based
 * line and a 0-based character offset counted in the negotiated encoding (UTF-8 bytes,
 * UTF-16 code units, or UTF-32 code points); mcpdesc's are a 1-based line and a
 * 1-based column in code points (struct doc_pos), and edits are byte offsets. Lines end
 * at '\n' (a '\r' before it belongs to the line end, not to the line: CRLF files).
 * A byte that is not part of valid UTF-8 counts as one code point (one unit in every
 * encoding), so every byte string converts and nothing reads past the text. */
#ifndef MCPDESC_LSP_POS_H
#define MCPDESC_LSP_POS_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"

enum lsp_enc { LSP_ENC_UTF16, LSP_ENC_UTF8, LSP_ENC_UTF32 };
const char *lsp_enc_name(enum lsp_enc e); /* "utf-16", "utf-8", "utf-32" */

struct lsp_position {
    uint32_t line, character; /* 0-based */
};

/* The starts of the lines of a text (an index rebuilt after each change). */
struct lsp_lines {
    size_t *start; /* byte offset of each line; start[0] = 0 */
    size_t n;      /* number of lines (>= 1) */
    const char *text;
    size_t len;
};
/* Index TEXT (LEN bytes, borrowed: it must outlive L and not change). */
void lsp_lines_init(struct lsp_lines *l, const char *text, size_t len);
void lsp_lines_release(struct lsp_lines *l);

/* The byte offset of the LSP position P: a line past the end is the end of the text, a
 * character past the line's end is the line's end (before its "\r\n"), one inside a
 * character (the second UTF-16 unit of an emoji) is that character's start. */
size_t lsp_offset_of(const struct lsp_lines *l, struct lsp_position p, enum lsp_enc e);
/* The LSP position of byte offset OFF (clamped to the text; an offset inside a
 * character or a line end counts as its start). */
struct lsp_position lsp_position_of(const struct lsp_lines *l, size_t off, enum lsp_enc e);
/* The byte offset of mcpdesc's position P (line 1-based, column 1-based in code
 * points; a line or column of 0 is the first), clamped as lsp_offset_of. */
size_t lsp_offset_of_doc(const struct lsp_lines *l, struct doc_pos p);
/* mcpdesc's position of byte offset OFF. */
struct doc_pos lsp_doc_pos_of(const struct lsp_lines *l, size_t off);
/* The two at once: mcpdesc's position P as an LSP position. */
struct lsp_position lsp_position_of_doc(const struct lsp_lines *l, struct doc_pos p,
                                        enum lsp_enc e);

/* The end of the value or token that starts at byte OFF of T (LEN bytes): a quoted
 * string to its closing quote, a bracketed value to its closing bracket when that is
 * within 4096 bytes (else the bracket), a bare token to the end of the token; at least
 * one character. What a finding's range covers: published diagnostics and hover agree. */
size_t lsp_value_end(const char *t, size_t len, size_t off);

#endif
