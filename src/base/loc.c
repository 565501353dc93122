/* loc.c - FILE:LINE:COL of messages; see loc.h. */
#include "base/loc.h"

void loc_add(struct buf *b, const char *file, uint32_t line, uint32_t col)
{
    if (file) buf_adds(b, file);
    if (line) buf_addf(b, ":%u:%u", (unsigned)line, (unsigned)col);
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
