/* lock.c - immutable tags; see lock.h. A lock is JSON (pretty, stable key order) so
 * that a reviewer reads it and `sha256sum` can recheck every line of it. */
#include "core/lock.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

static int valid_tag(const char *tag)
{
    if (!*tag || strlen(tag) > 100 || tag[0] == '.' || tag[0] == '-') return 0;
    for (const char *p = tag; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '-' || *p == '_' || *p == '+'))
            return 0;
    return 1;
}

json_t *lock_describe(const struct rule_set *rs, const char *tag)
{
    json_t *files = json_array();
    for (size_t i = 0; i < rule_set_digest_count(rs); i++)
        json_array_append_new(files,
                              json_pack("{s:s, s:s}", "path", rule_set_digest_path(rs, i), "sha256",
                                        rule_set_digest_hex(rs, i)));
    return json_pack("{s:s, s:s, s:s, s:o}", "name", rule_set_name(rs), "tag", tag, "digest",
                     rule_set_digest(rs), "files", files);
}

static char *lock_path(const struct rule_set *rs, const char *tag)
{
    return xasprintf("%s/tags/%s.lock", rule_set_dir(rs), tag);
}

int lock_verify(const struct rule_set *rs, const char *tag, FILE *err)
{
    if (!valid_tag(tag)) {
        fprintf(err, "mcpdesc: '%s' is not a tag name (letters, digits, . - _ +)\n", tag);
        return -1;
    }
    char *path = lock_path(rs, tag);
    json_error_t jerr;
    json_t *lock = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!lock) {
        if (jerr.line <= 0)
            fprintf(err,
                    "mcpdesc: no lock for tag '%s' (%s); `mcpdesc rules lock %s` records one\n",
                    tag, path, tag);
        else fprintf(err, "%s:%d:%d: error: %s\n", path, jerr.line, jerr.column, jerr.text);
        free(path);
        return -1;
    }
    int bad = 0;
    json_t *files = json_object_get(lock, "files");
    /* Files the lock names: changed or missing. */
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f)
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        const char *h = json_string_value(json_object_get(f, "sha256"));
        if (!p || !h) continue;
        const char *now = NULL;
        for (size_t k = 0; k < rule_set_digest_count(rs); k++)
            if (!strcmp(rule_set_digest_path(rs, k), p)) now = rule_set_digest_hex(rs, k);
        if (!now) {
            fprintf(err, "mcpdesc: %s/%s: locked in %s but no longer in the rule set\n",
                    rule_set_dir(rs), p, tag);
            bad = 1;
        } else if (strcmp(now, h) != 0) {
            fprintf(err,
                    "mcpdesc: %s/%s: differs from the file locked as %s (sha256 %s, locked %s)\n",
                    rule_set_dir(rs), p, tag, now, h);
            bad = 1;
        }
    }
    /* Files added since. */
    for (size_t k = 0; k < rule_set_digest_count(rs); k++) {
        int found = 0;
        json_array_foreach(files, i, f)
        {
            const char *p = json_string_value(json_object_get(f, "path"));
            if (p && !strcmp(p, rule_set_digest_path(rs, k))) found = 1;
        }
        if (!found) {
            fprintf(err, "mcpdesc: %s/%s: not part of the rule set locked as %s\n",
                    rule_set_dir(rs), rule_set_digest_path(rs, k), tag);
            bad = 1;
        }
    }
    const char *digest = json_string_value(json_object_get(lock, "digest"));
    if (!bad && (!digest || strcmp(digest, rule_set_digest(rs)) != 0)) {
        fprintf(err, "mcpdesc: the rule set digest %s is not the one locked as %s (%s)\n",
                rule_set_digest(rs), tag, digest ? digest : "none");
        bad = 1;
    }
    if (bad)
        fprintf(err, "mcpdesc: refusing to run: the rule set in %s is not %s\n", rule_set_dir(rs),
                tag);
    json_decref(lock);
    free(path);
    return bad ? -1 : 0;
}

int lock_write(const struct rule_set *rs, const char *tag, FILE *err)
{
    if (!valid_tag(tag)) {
        fprintf(err, "mcpdesc: '%s' is not a tag name (letters, digits, . - _ +)\n", tag);
        return -1;
    }
    char *dir = xasprintf("%s/tags", rule_set_dir(rs));
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        fprintf(err, "mcpdesc: cannot create %s: %s\n", dir, strerror(errno));
        free(dir);
        return -1;
    }
    free(dir);
    char *path = lock_path(rs, tag);
    json_t *lock = lock_describe(rs, tag);
    char *text = json_dumps(lock, JSON_INDENT(2));
    json_decref(lock);
    int rc = 0;
    FILE *old = fopen(path, "r");
    if (old) {
        fclose(old);
        if (lock_verify(rs, tag, err) < 0) {
            fprintf(err,
                    "mcpdesc: %s exists and records a different rule set: a tag is immutable, "
                    "cut a new tag instead\n",
                    path);
            rc = -1;
        } else {
            fprintf(err, "mcpdesc: %s already records this rule set\n", path);
        }
    } else {
        FILE *f = fopen(path, "w");
        if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0) {
            fprintf(err, "mcpdesc: cannot write %s: %s\n", path, strerror(errno));
            rc = -1;
        } else {
            fprintf(err, "mcpdesc: wrote %s (%s)\n", path, rule_set_digest(rs));
        }
    }
    free(text);
    free(path);
    return rc;
}
