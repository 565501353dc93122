/* rulepage_write.c - the whole site on disk (`mcpdesc rules docs`): every page in
 * Markdown (rulepage_md.c) and HTML (rulepage_html.c), the index and the version pages. */
#include "author/rulepageInt.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int mkdir_p(const char *dir)
{
    char *d = xstrdup(dir);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(d, 0777) < 0 && errno != EEXIST) {
            free(d);
            return -1;
        }
        *p = '/';
    }
    int rc = mkdir(d, 0777) < 0 && errno != EEXIST ? -1 : 0;
    free(d);
    return rc;
}

static int write_page(const char *dir, const char *name, const char *ext, struct buf *b, FILE *err)
{
    char *path = xasprintf("%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f || fwrite(buf_str(b), 1, b->len, f) != b->len || fclose(f) != 0) {
        fprintf(err, "mcpdesc: cannot write %s: %s\n", path, strerror(errno));
        rc = -1;
    }
    free(path);
    buf_reset(b);
    return rc;
}

int rulepage_write(struct rulepage_site *s, const char *dir, FILE *err)
{
    if (mkdir_p(dir) < 0) {
        fprintf(err, "mcpdesc: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    struct buf b = BUF_INIT;
    int n = 0, bad = 0;
    for (size_t i = 0; i < rule_set_count(s->rs) && !bad; i++) {
        const struct rule *r = rule_set_rule(s->rs, i);
        if (!rulepage_shown(s, r)) continue;
        rulepage_rule_markdown(s, r, &b);
        bad |= write_page(dir, rule_id(r), "md", &b, err);
        rulepage_rule_html(s, r, &b);
        bad |= write_page(dir, rule_id(r), "html", &b, err);
        n += 2;
    }
    const struct ver_list *vl = rule_set_versions(s->rs);
    for (size_t i = 0; i < vl->n && !bad; i++) {
        char *name = xasprintf("version-%s", vl->names[i]);
        rulepage_version_markdown(s, i, &b);
        bad |= write_page(dir, name, "md", &b, err);
        rulepage_version_html(s, i, &b);
        bad |= write_page(dir, name, "html", &b, err);
        free(name);
        n += 2;
    }
    if (!bad) {
        rulepage_index_markdown(s, &b);
        bad |= write_page(dir, "index", "md", &b, err);
        rulepage_index_html(s, &b);
        bad |= write_page(dir, "index", "html", &b, err);
        n += 2;
    }
    buf_release(&b);
    return bad ? -1 : n;
}
