/* loc.c - FILE:LINE:COL of messages; see loc.h. */
#include "base/loc.h"

/* The one place the form is written: FILE, then LINE (after a colon when COLON), then
 * :COL when WITH_COL; nothing after FILE when LINE is 0. */
static void put(struct buf *b, const char *file, int colon, uint32_t line, int with_col,
                uint32_t col)
{
    if (file) buf_adds(b, file);
    if (!line) return;
    buf_addf(b, colon ? ":%u" : "%u", (unsigned)line);
    if (with_col) buf_addf(b, ":%u", (unsigned)col);
}

void loc_add(struct buf *b, const char *file, uint32_t line, uint32_t col)
{
    put(b, file, 1, line, 1, col);
}

void loc_add_pos(struct buf *b, uint32_t line, uint32_t col)
{
    put(b, NULL, 0, line, 1, col);
}

void loc_add_line(struct buf *b, const char *file, uint32_t line)
{
    put(b, file, 1, line, 0, 0);
}

void loc_print(FILE *out, const char *file, uint32_t line, uint32_t col)
{
    struct buf b = BUF_INIT;
    loc_add(&b, file, line, col);
    fputs(buf_str(&b), out);
    buf_release(&b);
}

char *loc_format(const char *file, uint32_t line, uint32_t col)
{
    struct buf b = BUF_INIT;
    loc_add(&b, file, line, col);
    return buf_detach(&b);
}
