/* schema_errors.c - the bottom of the JSON Schema engine: the error list (struct
 * schema_errors, schema.h) and the text helpers of its messages. Every other file of
 * the engine may call these; these call none of them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

void schema_errors_add(struct schema_errors *e, const char *kwloc, const char *iloc,
                       const char *fmt, ...)
{
    if (!e) return;
    if (e->len == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 8;
        e->items = xrealloc(e->items, e->cap * sizeof *e->items);
    }
    struct schema_error *x = &e->items[e->len++];
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&x->message, fmt, ap) < 0) BUG("vasprintf failed");
    va_end(ap);
    x->keyword_location = xstrdup(kwloc ? kwloc : "");
    x->instance_location = xstrdup(iloc ? iloc : "");
}

void schema_errors_release(struct schema_errors *e)
{
    for (size_t i = 0; i < e->len; i++) {
        free(e->items[i].keyword_location);
        free(e->items[i].instance_location);
        free(e->items[i].message);
    }
    free(e->items);
    e->items = NULL;
    e->len = e->cap = 0;
}

char *schema_escape(const char *str, size_t n)
{
    struct buf b = BUF_INIT;
    buf_add_json_escaped(&b, str, n);
    return b.s ? buf_detach(&b) : xstrdup("");
}

char *schema_nul_message(const char *what, const char *kw, json_t *v)
{
    char *e = schema_escape(json_string_value(v), json_string_length(v));
    char *m = xasprintf("%s \"%s\" contains a NUL character (\\u0000), which \"%s\" "
                        "cannot hold: remove it",
                        what, e, kw);
    free(e);
    return m;
}
