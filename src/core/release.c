/* release.c - released rule sets; see release.h and docs/releases.md. */
#include "core/release.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "core/lock.h"

/* A set's name: lowercase letters, digits, '-' and '.', starting with a letter. */
static int name_ok(const char *s)
{
    if (!*s || strlen(s) > 100 || !(*s >= 'a' && *s <= 'z')) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

int release_parse(const char *spec, const char *default_name, char **name, char **tag)
{
    const char *at = strchr(spec, '@');
    char *n = at ? xstrndup(spec, (size_t)(at - spec)) : xstrdup(default_name);
    const char *t = at ? at + 1 : spec;
    if (!name_ok(n) || !lock_tag_ok(t)) {
        free(n);
        return -1;
    }
    *name = n;
    *tag = xstrdup(t);
    return 0;
}

static int has_manifest(const char *dir)
{
    char *m = xasprintf("%s/manifest.yaml", dir);
    int ok = access(m, R_OK) == 0;
    free(m);
    return ok;
}

char *release_rules_dir(const char *dir)
{
    char *rules = xasprintf("%s/rules", dir);
    char *sums = xasprintf("%s/SHA256SUMS", rules);
    int ok = has_manifest(rules) && access(sums, R_OK) == 0;
    free(sums);
    if (ok) return rules;
    free(rules);
    return NULL;
}

char *release_find(const struct release_path *path, const char *name, const char *tag)
{
    for (size_t i = 0; i < path->n; i++) {
        char *dir = xasprintf("%s/%s@%s", path->dirs[i], name, tag);
        char *rules = release_rules_dir(dir);
        free(dir);
        if (rules) return rules;
    }
    return NULL;
}

/* Version order (glibc's strverscmp): rc.3 before rc.10. */
static int str_cmp(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

void release_explain_missing(const struct release_path *path, const char *name, const char *tag,
                             FILE *err)
{
    VEC(char *) found = VEC_INIT;
    struct buf where = BUF_INIT;
    for (size_t i = 0; i < path->n; i++) {
        buf_addf(&where, "%s%s", i ? ", " : "", path->dirs[i]);
        DIR *d = opendir(path->dirs[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.' || !strchr(e->d_name, '@')) continue;
            char *full = xasprintf("%s/%s", path->dirs[i], e->d_name);
            char *rules = release_rules_dir(full);
            free(full);
            if (!rules) continue;
            free(rules);
            int dup = 0;
            for (size_t k = 0; k < found.len; k++) dup |= !strcmp(found.items[k], e->d_name);
            if (!dup) VEC_PUSH(found, xstrdup(e->d_name));
        }
        if (d) closedir(d);
    }
    if (found.len) qsort(found.items, found.len, sizeof *found.items, str_cmp); /* not NULL */
    struct buf avail = BUF_INIT;
    for (size_t k = 0; k < found.len; k++) {
        buf_addf(&avail, "%s%s", k ? ", " : "", found.items[k]);
        free(found.items[k]);
    }
    fprintf(err,
            "mcpdesc: no release %s@%s in %s; available: %s; to use another, put its release "
            "directory (NAME@TAG/) in a directory named by MCPDESC_RULES_PATH, or pass --rules "
            "PATH\n",
            name, tag, where.len ? buf_str(&where) : "(no search path)",
            avail.len ? buf_str(&avail) : "none");
    VEC_FREE(found);
    buf_release(&where);
    buf_release(&avail);
}

static int mkdirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) < 0 && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    int rc = mkdir(p, 0777) < 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

/* mkdir -p of the directory that holds PATH */
static int mkdirs_parent(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    int rc = mkdirs(dir);
    free(dir);
    return rc;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return -1;
    int rc = mkdirs_parent(to);
    FILE *out = rc ? NULL : fopen(to, "wb");
    char chunk[65536];
    size_t n;
    while (out && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
        if (fwrite(chunk, 1, n, out) != n) rc = -1;
    if (!out || ferror(in)) rc = -1;
    fclose(in);
    if (out && fclose(out) != 0) rc = -1;
    return rc;
}

static int write_text(const char *path, const char *text)
{
    int rc = mkdirs_parent(path);
    FILE *f = rc ? NULL : fopen(path, "wb");
    if (!f || fputs(text, f) < 0) rc = -1;
    if (f && fclose(f) != 0) rc = -1;
    return rc;
}

int release_pack(const struct rule_set *rs, const char *out, FILE *err)
{
    const char *tag = rule_set_released_tag(rs);
    if (!tag) {
        fprintf(err,
                "mcpdesc: the rule set in %s is %s: no lock of tag %s records these files; lock "
                "a new tag first (`mcpdesc rules lock TAG` after setting tag: TAG in the "
                "manifest), or restore the files tags/%s.lock records\n",
                rule_set_dir(rs), rule_set_display_tag(rs), rule_set_tag(rs), rule_set_tag(rs));
        return -1;
    }
    char *top = xasprintf("%s/%s@%s", out, rule_set_name(rs), tag);
    char *rules = xasprintf("%s/rules", top);
    struct stat st;
    int rc = 0;
    if (stat(top, &st) == 0) {
        char *sums = xasprintf("%s/SHA256SUMS", rules);
        struct buf have = BUF_INIT;
        int same = buf_read_file(&have, sums) == 0 && !strcmp(buf_str(&have), rule_set_sums(rs));
        fprintf(err,
                same ? "mcpdesc: %s already holds this release\n"
                     : "mcpdesc: %s exists and holds something else: a release never "
                       "changes; remove it only if it was never published\n",
                top);
        buf_release(&have);
        free(sums);
        rc = same ? 0 : -1;
        goto out;
    }
    for (size_t i = 0; i < rule_set_digest_count(rs) && !rc; i++) {
        const char *p = rule_set_digest_path(rs, i);
        if (rule_set_digest_kind(rs, i) == RULE_FILE_BASE) {
            /* the base's SHA256SUMS, whose sha256 is the base's digest: the line checks */
            char *to = xasprintf("%s/%s", rules, p);
            if (write_text(to, rule_set_sums(rule_set_base(rs))) < 0) {
                fprintf(err, "mcpdesc: cannot write %s: %s\n", to, strerror(errno));
                rc = -1;
            }
            free(to);
            continue;
        }
        /* ../X sits beside rules/; anything further out would leave the release */
        int up = !strncmp(p, "../", 3);
        if (strstr(up ? p + 3 : p, "..")) {
            fprintf(err, "mcpdesc: %s/%s lies outside the release; keep files beside the rules\n",
                    rule_set_dir(rs), p);
            rc = -1;
            break;
        }
        char *from = xasprintf("%s/%s", rule_set_dir(rs), p);
        char *to = up ? xasprintf("%s/%s", top, p + 3) : xasprintf("%s/%s", rules, p);
        if (copy_file(from, to) < 0) {
            fprintf(err, "mcpdesc: cannot copy %s to %s: %s\n", from, to, strerror(errno));
            rc = -1;
        }
        free(from);
        free(to);
    }
    if (!rc) {
        char *sums = xasprintf("%s/SHA256SUMS", rules);
        if (write_text(sums, rule_set_sums(rs)) < 0) {
            fprintf(err, "mcpdesc: cannot write %s: %s\n", sums, strerror(errno));
            rc = -1;
        } else {
            fprintf(err, "mcpdesc: wrote %s (%s)\n", top, rule_set_digest(rs));
        }
        free(sums);
    }
out:
    free(rules);
    free(top);
    return rc;
}
