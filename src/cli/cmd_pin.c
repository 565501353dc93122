/* cmd_pin.c - see cmd_pin.h. */
#include "cli/cmd_pin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/util.h"
#include "cli/cmd_common.h"
#include "cli/cmd_config.h"
#include "findings/config.h"
#include "rules/lock.h"
#include "rules/release.h"

/* One rewrite: the bytes [from, to) of the file become TEXT. */
struct edit {
    size_t from, to;
    char *text;
};

/* The byte offset of LINE:COL (1-based; COL counts characters, as libyaml does) in TEXT,
 * or (size_t)-1 when TEXT is shorter. */
static size_t offset_of(const char *text, size_t len, unsigned line, unsigned col)
{
    size_t i = 0;
    for (unsigned l = 1; l < line; l++) {
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl) return (size_t)-1;
        i = (size_t)(nl - text) + 1;
    }
    for (unsigned c = 1; c < col && i < len && text[i] != '\n'; c++) do
            i++;
        while (i < len && ((unsigned char)text[i] & 0xC0) == 0x80);
    return i < len ? i : (size_t)-1;
}

/* The extent [*FROM, *TO) of the scalar at OFF whose value is VALUE: a plain scalar, or
 * one in quotes (kept). 0, or -1 when the text there is not VALUE written simply. */
static int scalar_extent(const char *text, size_t len, size_t off, const char *value, size_t *from,
                         size_t *to)
{
    size_t n = strlen(value);
    char q = text[off];
    if (q == '"' || q == '\'') {
        if (off + n + 2 > len || strncmp(text + off + 1, value, n) || text[off + 1 + n] != q)
            return -1;
        *from = off + 1; /* inside the quotes: they stay */
        *to = off + 1 + n;
        return 0;
    }
    if (off + n > len || strncmp(text + off, value, n)) return -1;
    char after = off + n < len ? text[off + n] : '\n';
    if (!strchr("\n\r ,]}\t#", after)) return -1;
    *from = off;
    *to = off + n;
    return 0;
}

/* The pinned form of entry E, new; NULL when E is a path (left as it is: *PATH set), or
 * after a message (*FAILED set). */
static char *pinned(const struct config *c, const struct config_str *e, int *path, int *failed)
{
    char *where = loc_format(c->path, e->pos.line, e->pos.col);
    char *name = NULL, *tag = NULL, *digest = NULL, *out = NULL;
    struct rule_set *rs = NULL;
    if (!strcmp(e->s, CMD_DEFAULT_SET)) {
        rs = cmd_load_rules(NULL);
        if (rs && !rule_set_released_tag(rs)) {
            fprintf(stderr,
                    "%s: error: rules: %s runs the set in %s, which is %s, not a release: "
                    "name a released tag instead (rules: %s@TAG), then pin it\n",
                    where, e->s, rule_set_dir(rs), rule_set_display_tag(rs), CMD_DEFAULT_SET);
            *failed = 1;
        } else if (rs) {
            out = xasprintf("%s@%s@%s", rule_set_name(rs), rule_set_released_tag(rs),
                            rule_set_digest(rs));
        } else {
            *failed = 1;
        }
    } else if (strchr(e->s, '/') || !strchr(e->s, '@')) {
        *path = 1;
    } else if (release_parse_pin(e->s, CMD_DEFAULT_SET, &name, &tag, &digest) < 0) {
        fprintf(stderr,
                "%s: error: rules: '%s' is not NAME@TAG or NAME@TAG@sha256:HEX (64 lowercase "
                "hex digits)\n",
                where, e->s);
        *failed = 1;
    } else {
        /* the release as a run finds it: verified against this binary's tags and the pin */
        char *spec =
            digest ? xasprintf("%s@%s@%s", name, tag, digest) : xasprintf("%s@%s", name, tag);
        if (!(rs = cmd_load_rules_tagged(NULL, spec))) *failed = 1;
        else out = xasprintf("%s@%s@%s", name, tag, rule_set_digest(rs));
        free(spec);
    }
    if (*failed)
        fprintf(stderr, "mcpdesc rules pin: %s: not pinned (the file is unchanged)\n", where);
    rule_set_free(rs);
    free(name);
    free(tag);
    free(digest);
    free(where);
    return out;
}

/* Does the path entry V of C name a rule set (a directory with manifest.yaml, or a
 * release directory), relative to the config as validate reads it? */
static int path_is_set(const struct config *c, const char *v)
{
    char *p = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", c->dir, v);
    char *m = xasprintf("%s/manifest.yaml", p), *rel = release_rules_dir(p);
    int ok = access(m, R_OK) == 0 || rel;
    free(rel);
    free(m);
    free(p);
    return ok;
}

static int by_offset_desc(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    return x->from < y->from ? 1 : x->from > y->from ? -1 : 0;
}

int cmd_pin_config(const char *given)
{
    char *path = NULL;
    if (cmd_config_find(given, 0, &path) != 0) return 2;
    const char *no_config = getenv("MCPDESC_NO_CONFIG");
    if (!path && no_config && *no_config && strcmp(no_config, "0")) {
        fprintf(stderr,
                "mcpdesc rules pin: MCPDESC_NO_CONFIG is set, so no config is looked "
                "for: give --config FILE\n");
        return 2;
    }
    if (!path) {
        fprintf(stderr,
                "mcpdesc rules pin: no .mcpdesc.yaml here or above (up to the repository's "
                "top): give --config FILE, or write one with rules: NAME@TAG "
                "(docs/config.md)\n");
        return 2;
    }
    struct config *c = cmd_config_load(path);
    if (!c) {
        free(path);
        return 2;
    }
    int status = 0, failed = 0;
    struct buf text = BUF_INIT;
    VEC(struct edit) edits = VEC_INIT;
    if (!c->rules.len) {
        fprintf(stderr,
                "mcpdesc rules pin: %s has no rules: to pin; write rules: %s@TAG (a release) "
                "first, then pin it\n",
                path, CMD_DEFAULT_SET);
        status = 2;
    } else if (buf_read_file(&text, path) < 0) {
        fprintf(stderr, "mcpdesc rules pin: cannot read %s\n", path);
        status = 2;
    }
    struct buf at = BUF_INIT; /* the entry's place */
    for (size_t i = 0; !status && i < c->rules.len; i++) {
        const struct config_str *e = &c->rules.items[i];
        buf_reset(&at);
        loc_add(&at, path, e->pos.line, e->pos.col);
        int is_path = 0;
        char *to = pinned(c, e, &is_path, &failed);
        if (is_path && !path_is_set(c, e->s)) {
            fprintf(stderr,
                    "mcpdesc rules pin: %s: error: no rule set at %s (a path relative "
                    "to the config); a release is written NAME@TAG, e.g. %s@%s\n",
                    buf_str(&at), e->s, CMD_DEFAULT_SET, lock_tag_ok(e->s) ? e->s : "TAG");
            failed = 1;
        } else if (is_path)
            fprintf(stderr,
                    "mcpdesc rules pin: %s: %s is a path, left as it is (pin releases: "
                    "NAME@TAG)\n",
                    buf_str(&at), e->s);
        if (!to) continue;
        if (!strcmp(to, e->s)) {
            fprintf(stderr, "mcpdesc rules pin: %s: %s: pinned, and the release matches\n",
                    buf_str(&at), e->s);
            free(to);
            continue;
        }
        size_t off = offset_of(buf_str(&text), text.len, e->pos.line, e->pos.col), from, end;
        if (off == (size_t)-1 ||
            scalar_extent(buf_str(&text), text.len, off, e->s, &from, &end) < 0) {
            fprintf(stderr,
                    "mcpdesc rules pin: %s: error: cannot rewrite '%s' in place (write it "
                    "on one line, plain or in quotes)\n",
                    buf_str(&at), e->s);
            failed = 1;
            free(to);
            continue;
        }
        fprintf(stderr, "mcpdesc rules pin: %s: %s -> %s\n", buf_str(&at), e->s, to);
        struct edit ed = {from, end, to};
        VEC_PUSH(edits, ed);
    }
    buf_release(&at);
    if (!status && failed) status = 2;
    /* the pins alone do not make a config that runs (a chain of two whole sets, say):
     * what is written must load as validate loads it */
    if (!status && edits.len) {
        struct rule_set *all = cmd_config_rules(c);
        if (!all) {
            fprintf(stderr,
                    "mcpdesc rules pin: %s: its rules do not load (above): not pinned (the "
                    "file is unchanged)\n",
                    path);
            status = 2;
        }
        rule_set_free(all);
    }
    if (!status && edits.len) {
        qsort(edits.items, edits.len, sizeof *edits.items, by_offset_desc);
        struct buf out = BUF_INIT;
        buf_add(&out, buf_str(&text), text.len);
        for (size_t i = 0; i < edits.len; i++) { /* from the end: earlier offsets hold */
            struct buf next = BUF_INIT;
            buf_add(&next, buf_str(&out), edits.items[i].from);
            buf_adds(&next, edits.items[i].text);
            buf_add(&next, buf_str(&out) + edits.items[i].to, out.len - edits.items[i].to);
            buf_release(&out);
            out = next;
        }
        if (cmd_write_atomically("rules pin", path, buf_str(&out), out.len) < 0) status = 2;
        else fprintf(stderr, "mcpdesc rules pin: wrote %s\n", path);
        buf_release(&out);
    } else if (!status) {
        fprintf(stderr, "mcpdesc rules pin: %s: nothing to change\n", path);
    }
    for (size_t i = 0; i < edits.len; i++) free(edits.items[i].text);
    VEC_FREE(edits);
    buf_release(&text);
    config_free(c);
    free(path);
    return status;
}
