/* release_shipped.c - the tags this binary ships (the table $(BUILD)/gen/shipped_tags.c
 * that mk/release.mk generates): find one, ask whether a set name has any, list them.
 * Apart from release.c, which checks a loaded set against its lock (lock.c), because the
 * lock asks it too: each depends on this file, neither on the other. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/release.h"

/* Version order (glibc's strverscmp): rc.3 before rc.10. */
static int str_cmp(const void *a, const void *b)
{
    return strverscmp(*(const char *const *)a, *(const char *const *)b); /* rc.3 before rc.10 */
}

const struct release_shipped *release_shipped_find(const char *name, const char *tag)
{
    for (size_t i = 0; i < release_shipped_count; i++)
        if (!strcmp(release_shipped_tags[i].name, name) &&
            !strcmp(release_shipped_tags[i].tag, tag))
            return &release_shipped_tags[i];
    return NULL;
}

int release_shipped_name(const char *name)
{
    for (size_t i = 0; i < release_shipped_count; i++)
        if (!strcmp(release_shipped_tags[i].name, name)) return 1;
    return 0;
}

const char *release_shipped_newest(const char *name)
{
    const char *newest = NULL;
    for (size_t i = 0; i < release_shipped_count; i++)
        if (!strcmp(release_shipped_tags[i].name, name) &&
            (!newest || str_cmp(&newest, &release_shipped_tags[i].tag) < 0))
            newest = release_shipped_tags[i].tag;
    return newest;
}

char *release_shipped_list(const char *name)
{
    VEC(const char *) tags = VEC_INIT;
    for (size_t i = 0; i < release_shipped_count; i++)
        if (!strcmp(release_shipped_tags[i].name, name))
            VEC_PUSH(tags, release_shipped_tags[i].tag);
    if (tags.len) qsort(tags.items, tags.len, sizeof *tags.items, str_cmp);
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < tags.len; i++) buf_addf(&b, "%s%s", i ? ", " : "", tags.items[i]);
    VEC_FREE(tags);
    return buf_detach(&b);
}
