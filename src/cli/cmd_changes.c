/* cmd_changes.c - see cmd_changes.h. */
#include "cli/cmd_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_common.h"
#include "base/util.h"
#include "rules/release.h"

/* The whole of PATH, new; NULL when it cannot be read. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t len = 0, cap = 4096;
    char *s = xmalloc(cap);
    size_t n;
    while ((n = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) s = xrealloc(s, cap *= 2);
    }
    fclose(f);
    s[len] = '\0';
    return s;
}

void cmd_changes_read(const char *rules_dir, struct cmd_changes *c)
{
    memset(c, 0, sizeof *c);
    c->taken = -1;
    size_t n = strlen(rules_dir);
    while (n > 1 && rules_dir[n - 1] == '/') n--;
    if (n >= 6 && !strncmp(rules_dir + n - 6, "/rules", 6)) n -= 6;
    c->release = xstrndup(rules_dir, n);
    char *path = xasprintf("%s.changes", c->release);
    c->log = slurp(path);
    free(path);
    for (const char *line = c->log; line && *line;) {
        size_t len = strcspn(line, "\n");
        if (!strncmp(line, "## ", 3)) {
            if (!c->first_entry) c->first_entry = line;
            c->entries++;
            free(c->newest);
            c->newest = xstrndup(line + 3, len - 3);
        }
        line += len + (line[len] == '\n');
    }
    path = xasprintf("%s.findings", c->release);
    char *rec = slurp(path);
    free(path);
    /* "# findings of NAME@TAG on its conformance/: mcpdesc VERSION, changes N" */
    const char *v = rec ? strstr(rec, ": mcpdesc ") : NULL;
    const char *eol = rec ? rec + strcspn(rec, "\n") : NULL;
    const char *k = v ? strstr(v, ", changes ") : NULL;
    if (v && k && k < eol) {
        v += strlen(": mcpdesc ");
        c->engine = xstrndup(v, (size_t)(k - v));
        c->taken = strtol(k + strlen(", changes "), NULL, 10);
    }
    free(rec);
}

void cmd_changes_release(struct cmd_changes *c)
{
    free(c->release);
    free(c->log);
    free(c->newest);
    free(c->engine);
}

/* The rules directory of the release SPEC on the release search path, new, with its
 * NAME@TAG in *ID (new); NULL after a message when QUIET is 0. */
static char *find(const char *spec, const char *default_name, int quiet, char **id)
{
    char *name, *tag, *digest, *dir = NULL;
    /* a pinned NAME@TAG@sha256:HEX names the same release (its run checks the digest) */
    if (release_parse_pin(spec, default_name, &name, &tag, &digest) < 0) {
        if (!quiet)
            fprintf(stderr,
                    "mcpdesc rules changes: '%s' is not a tag (TAG or NAME@TAG: letters, "
                    "digits, . - _ +; or either pinned, @sha256: and 64 lowercase hex "
                    "digits)\n",
                    spec);
        return NULL;
    }
    free(digest);
    struct cmd_release_path rp;
    cmd_release_path_init(&rp);
    dir = release_find(&rp.path, name, tag);
    if (!dir && !quiet) release_explain_missing(&rp.path, name, tag, stderr);
    cmd_release_path_release(&rp);
    *id = xasprintf("%s@%s", name, tag);
    free(name);
    free(tag);
    return dir;
}

void cmd_changes_note(const char *spec, const char *default_name)
{
    char *id = NULL, *dir = find(spec, default_name, 1, &id);
    if (dir) {
        struct cmd_changes c;
        cmd_changes_read(dir, &c);
        if (c.entries)
            fprintf(stderr,
                    "mcpdesc: note: an engine change altered the findings of %s since its "
                    "release: %s (mcpdesc rules changes %s lists %zu change%s)\n",
                    id, c.newest, id, c.entries, c.entries == 1 ? "" : "s");
        cmd_changes_release(&c);
    }
    free(dir);
    free(id);
}

int cmd_changes_print(const char *spec)
{
    char *id = NULL, *dir = find(spec, CMD_DEFAULT_SET, 0, &id);
    if (!dir) {
        free(id);
        return 2;
    }
    struct cmd_changes c;
    cmd_changes_read(dir, &c);
    int status = 0;
    if (!c.log) {
        fprintf(stderr,
                "mcpdesc rules changes: the release %s in %s has no changes log beside it "
                "(%s.changes), so nothing says whether an engine change altered its findings: "
                "the releases mcpdesc ships and installs each have one (for a release of your "
                "own, sh tests/check-releases.sh --update BINARY in mcpdesc's source starts "
                "one)\n",
                id, c.release, c.release);
        status = 2;
    } else {
        printf("release: %s (%s)\n", id, c.release);
        if (c.engine)
            printf("findings recorded with: mcpdesc %s, after %ld change%s (%s.findings)\n",
                   c.engine, c.taken, c.taken == 1 ? "" : "s", c.release);
        else printf("findings recorded with: no record (%s.findings is missing)\n", c.release);
        if (!c.entries) {
            printf("no engine change has altered the findings of %s since it was released\n", id);
        } else {
            printf("%zu engine change%s altered its findings since its release, newest last "
                   "(%s.changes):\n\n",
                   c.entries, c.entries == 1 ? "" : "s", c.release);
            fputs(c.first_entry, stdout);
            size_t len = strlen(c.first_entry);
            if (len && c.first_entry[len - 1] != '\n') putchar('\n');
        }
    }
    cmd_changes_release(&c);
    free(dir);
    free(id);
    return status;
}
