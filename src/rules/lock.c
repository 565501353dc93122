/* lock.c - immutable tags; see lock.h. A lock is JSON (pretty, stable key order) so
 * that a reviewer reads it and `sha256sum` can recheck every line of it.
 *
 * Two formats. Format 2 (from v0.9.0-rc.10) lists every file of the set's digest:
 * manifest, rule files, the schemas they load and the fixtures their examples cite, and
 * its digest is the set's. The first format (no "format" member, rc.3 to rc.9) listed the
 * manifest and rule files, and from rc.5 the schema files too: such a lock covers the
 * kinds of file it lists, and its digest is taken over those files only. */
#include "rules/lock.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/util.h"
#include "base/val.h"
#include "rules/release.h"

enum { SHOW_FILES = 8 }; /* file lines printed before "... and N more" */

int lock_tag_ok(const char *tag)
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
    return json_pack("{s:i, s:s, s:s, s:s, s:o}", "format", 2, "name", rule_set_name(rs), "tag",
                     tag, "digest", rule_set_digest(rs), "files", files);
}

static char *lock_path(const struct rule_set *rs, const char *tag)
{
    return xasprintf("%s/tags/%s.lock", rule_set_dir(rs), tag);
}

/* Which kinds of file LOCK covers (a bit per enum rule_file_kind). */
static unsigned lock_kinds(json_t *lock)
{
    if (json_integer_value(json_object_get(lock, "format")) >= 2) return ~0u;
    unsigned kinds = 1u << RULE_FILE_MANIFEST | 1u << RULE_FILE_RULES;
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(lock, "files"), i, f)
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        if (p && !strncmp(p, "../", 3)) kinds |= 1u << RULE_FILE_SCHEMA;
    }
    return kinds;
}

/* "sha256:<hex>" over the set's lines of the kinds in KINDS (the first format's digest). */
static void digest_of_kinds(const struct rule_set *rs, unsigned kinds, char out[7 + 64 + 1])
{
    struct buf lines = BUF_INIT;
    for (size_t k = 0; k < rule_set_digest_count(rs); k++)
        if (kinds & 1u << rule_set_digest_kind(rs, k))
            buf_addf(&lines, "%s  %s\n", rule_set_digest_hex(rs, k), rule_set_digest_path(rs, k));
    struct sha256_ctx ctx;
    uint8_t dg[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, lines.len, (const uint8_t *)buf_str(&lines));
    sha256_digest(&ctx, sizeof dg, dg);
    strcpy(out, "sha256:");
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(out + 7 + 2 * i, 3, "%02x", dg[i]);
    buf_release(&lines);
}

/* Paths sorted for lookups by bsearch: a lock and a set list a hundred files or more, and
 * each is looked up in the other on every run that loads a tagged set. */
struct path_at {
    const char *path;
    size_t i; /* its index in the list it came from */
};

static int path_at_cmp(const void *a, const void *b)
{
    return strcmp(((const struct path_at *)a)->path, ((const struct path_at *)b)->path);
}

/* The entry of PATH in the sorted AT (N entries), or NULL. Among equal paths, the one
 * of the highest index: what a scan to the end would keep. */
static const struct path_at *path_find(const struct path_at *at, size_t n, const char *path)
{
    struct path_at key = {path, 0};
    const struct path_at *hit = bsearch(&key, at, n, sizeof *at, path_at_cmp);
    if (!hit) return NULL;
    const struct path_at *best = hit;
    for (const struct path_at *q = hit; q > at && !strcmp(q[-1].path, path); q--)
        if (q[-1].i > best->i) best = q - 1;
    for (const struct path_at *q = hit + 1; q < at + n && !strcmp(q->path, path); q++)
        if (q->i > best->i) best = q;
    return best;
}

/* RS's digest paths, sorted. */
static struct path_at *set_paths(const struct rule_set *rs)
{
    size_t n = rule_set_digest_count(rs);
    struct path_at *at = xcalloc(n ? n : 1, sizeof *at);
    for (size_t k = 0; k < n; k++) at[k] = (struct path_at){rule_set_digest_path(rs, k), k};
    qsort(at, n, sizeof *at, path_at_cmp);
    return at;
}

/* LOCK's file paths (those that are strings), sorted; *N: how many. */
static struct path_at *lock_paths(json_t *files, size_t *n)
{
    struct path_at *at = xcalloc(json_array_size(files) + 1, sizeof *at);
    size_t i;
    json_t *f;
    *n = 0;
    json_array_foreach(files, i, f)
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        if (p) at[(*n)++] = (struct path_at){p, i};
    }
    qsort(at, *n, sizeof *at, path_at_cmp);
    return at;
}

/* Compare RS with LOCK; with ERR, say each difference (the first SHOW_FILES). Returns
 * the number of differences. */
static size_t lock_compare(const struct rule_set *rs, json_t *lock, const char *tag, FILE *err)
{
    size_t bad = 0;
    unsigned kinds = lock_kinds(lock);
    json_t *files = json_object_get(lock, "files"), *f;
    size_t i, nmine = rule_set_digest_count(rs), nlocked;
    struct path_at *mine_at = set_paths(rs), *locked_at = lock_paths(files, &nlocked);
#define SAY(...)                                                                                   \
    do {                                                                                           \
        if (err && bad < SHOW_FILES) fprintf(err, __VA_ARGS__);                                    \
        bad++;                                                                                     \
    } while (0)
    json_array_foreach(files, i, f)
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        const char *h = json_string_value(json_object_get(f, "sha256"));
        if (!p || !h) continue;
        const struct path_at *at = path_find(mine_at, nmine, p);
        const char *now = at ? rule_set_digest_hex(rs, at->i) : NULL;
        if (now && strcmp(now, h) != 0) SAY("  %s: differs from the file locked as %s\n", p, tag);
    }
    json_array_foreach(files, i, f) /* after the files that differ: see lock_sums_differences */
    {
        const char *p = json_string_value(json_object_get(f, "path"));
        if (!p || !json_string_value(json_object_get(f, "sha256"))) continue;
        if (!path_find(mine_at, nmine, p)) SAY("  %s: locked in %s, not in this set\n", p, tag);
    }
    for (size_t k = 0; k < rule_set_digest_count(rs); k++) {
        if (!(kinds & 1u << rule_set_digest_kind(rs, k))) continue;
        if (!path_find(locked_at, nlocked, rule_set_digest_path(rs, k)))
            SAY("  %s: not part of the set locked as %s\n", rule_set_digest_path(rs, k), tag);
    }
    const char *digest = json_string_value(json_object_get(lock, "digest"));
    char mine[7 + 64 + 1];
    digest_of_kinds(rs, kinds, mine);
    if (!bad && (!digest || strcmp(digest, mine) != 0))
        SAY("  the digest %s is not the one locked as %s (%s)\n", mine, tag,
            digest ? digest : "none");
#undef SAY
    free(mine_at);
    free(locked_at);
    if (err && bad > SHOW_FILES) fprintf(err, "  ... and %zu more\n", bad - SHOW_FILES);
    return bad;
}

/* The path of the `sha256sum` line LINE (after "<hex>  "), as a new string. */
static char *sums_path(const char *line, size_t len)
{
    return len > 66 ? xstrndup(line + 66, len - 66) : xstrdup("");
}

/* Does the text SUMS hold the line "HEX  PATH"? 1 same, 0 absent, -1 other hex. */
static int sums_has(const char *sums, const char *hex, const char *path)
{
    size_t pl = strlen(path);
    for (const char *l = sums; *l;) {
        size_t n = strcspn(l, "\n");
        if (n == 66 + pl && !strncmp(l + 66, path, pl)) return strncmp(l, hex, 64) ? -1 : 1;
        l += n + (l[n] == '\n');
    }
    return 0;
}

void lock_sums_differences(const char *want, const char *have, struct buf *out)
{
    size_t bad = 0;
    /* the files that differ first, then those missing, then those added: a changed rule
     * file is never hidden behind "... and N more" missing fixtures */
    for (int pass = 0; pass < 3; pass++) {
        const char *from = pass == 2 ? have : want, *other = pass == 2 ? want : have;
        for (const char *l = from; *l;) {
            size_t n = strcspn(l, "\n");
            char *path = sums_path(l, n), hex[65];
            snprintf(hex, sizeof hex, "%.64s", l);
            int k = sums_has(other, hex, path);
            int say = pass == 0 ? k < 0 : k == 0;
            if (say && bad++ < SHOW_FILES)
                buf_addf(out, "  %s: %s\n", path,
                         pass == 0       ? "differs from the release's file"
                             : pass == 1 ? "in the release's SHA256SUMS, not in this set"
                                         : "not part of the release");
            free(path);
            l += n + (l[n] == '\n');
        }
    }
    if (bad > SHOW_FILES) buf_addf(out, "  ... and %zu more\n", bad - SHOW_FILES);
}

/* A release directory (docs/releases.md) keeps its digest's lines as SHA256SUMS. */
static char *read_sums(const struct rule_set *rs)
{
    char *path = xasprintf("%s/SHA256SUMS", rule_set_dir(rs));
    struct buf b = BUF_INIT;
    int rc = buf_read_file(&b, path);
    free(path);
    if (rc < 0) {
        buf_release(&b);
        return NULL;
    }
    return buf_detach(&b);
}

/* The lock of TAG for RS: DIR/tags/TAG.lock, or NULL (with *WHY set when it exists but
 * does not parse). */
static json_t *load_lock(const struct rule_set *rs, const char *tag, char **why)
{
    char *path = lock_path(rs, tag);
    json_error_t jerr;
    json_t *lock = val_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!lock && jerr.line > 0) { /* jansson gives a parse error's column with its line */
        char *at = loc_format(path, (uint32_t)jerr.line, (uint32_t)jerr.column);
        *why = xasprintf("%s: error: %s", at, jerr.text);
        free(at);
    }
    free(path);
    return lock;
}

/* Can S be written into a lock as it stands: printable ASCII, neither '"' nor '\\'
 * (what jansson writes without an escape)? */
static int plain_string(const char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e || *s == '"' || *s == '\\') return 0;
    return 1;
}

int lock_text(const struct rule_set *rs, const char *tag, struct buf *out)
{
    size_t n = rule_set_digest_count(rs);
    const char *name = rule_set_name(rs), *digest = rule_set_digest(rs);
    if (!n || !name || !plain_string(name) || !plain_string(tag) || !plain_string(digest)) return 0;
    buf_addf(out,
             "{\n  \"format\": 2,\n  \"name\": \"%s\",\n  \"tag\": \"%s\",\n  \"digest\": "
             "\"%s\",\n  \"files\": [",
             name, tag, digest);
    for (size_t k = 0; k < n; k++) {
        const char *p = rule_set_digest_path(rs, k), *h = rule_set_digest_hex(rs, k);
        if (!plain_string(p) || !plain_string(h)) return 0;
        /* pieces, not a printf per file: this runs on every start */
        buf_adds(out, k ? ",\n    {\n      \"path\": \"" : "\n    {\n      \"path\": \"");
        buf_adds(out, p);
        buf_adds(out, "\",\n      \"sha256\": \"");
        buf_adds(out, h);
        buf_adds(out, "\"\n    }");
    }
    buf_adds(out, "\n  ]\n}\n");
    return 1;
}

/* Is the lock of TAG, byte for byte, the lock RS would write? Then it records exactly
 * RS's files (a committed lock is what `rules lock` wrote), and lock_released_as need
 * not parse its 20 KB of JSON (about 1 ms of every start); any other lock is parsed and
 * compared. */
static int lock_is_written_text(const struct rule_set *rs, const char *tag)
{
    struct buf want = BUF_INIT, have = BUF_INIT;
    char *path = lock_path(rs, tag);
    int same = lock_text(rs, tag, &want) && buf_read_file(&have, path) == 0 &&
        have.len == want.len && !memcmp(buf_str(&have), buf_str(&want), want.len);
    free(path);
    buf_release(&want);
    buf_release(&have);
    return same;
}

char *lock_released_as(const struct rule_set *rs)
{
    const char *tag = rule_set_tag(rs);
    if (!tag || !lock_tag_ok(tag)) return NULL;
    char *sums = read_sums(rs);
    if (sums) {
        int same = !strcmp(sums, rule_set_sums(rs));
        free(sums);
        return same ? xstrdup(tag) : NULL;
    }
    if (lock_is_written_text(rs, tag)) return xstrdup(tag);
    char *why = NULL;
    json_t *lock = load_lock(rs, tag, &why);
    free(why);
    int same = lock && !lock_compare(rs, lock, tag, NULL);
    json_decref(lock);
    return same ? xstrdup(tag) : NULL;
}

int lock_verify(const struct rule_set *rs, const char *tag, FILE *err)
{
    if (!lock_tag_ok(tag)) {
        fprintf(err, "mcpdesc: '%s' is not a tag name (letters, digits, . - _ +)\n", tag);
        return -1;
    }
    char *why = NULL, *sums = NULL;
    json_t *lock = load_lock(rs, tag, &why);
    const struct release_shipped *shipped;
    int bad;
    if (lock) {
        bad = lock_compare(rs, lock, tag, NULL) != 0;
        if (bad) {
            fprintf(err, "mcpdesc: the rule set in %s is %s %s (%s), not %s:\n", rule_set_dir(rs),
                    rule_set_name(rs), rule_set_display_tag(rs), rule_set_digest(rs), tag);
            lock_compare(rs, lock, tag, err);
        }
    } else if (!why && !strcmp(tag, rule_set_tag(rs)) && (sums = read_sums(rs))) {
        bad = strcmp(sums, rule_set_sums(rs)) != 0;
        if (bad) {
            fprintf(err,
                    "mcpdesc: the rule set in %s is %s %s (%s), not %s: it differs from the "
                    "release's SHA256SUMS:\n",
                    rule_set_dir(rs), rule_set_name(rs), rule_set_display_tag(rs),
                    rule_set_digest(rs), tag);
            struct buf diff = BUF_INIT;
            lock_sums_differences(sums, rule_set_sums(rs), &diff);
            fputs(buf_str(&diff), err);
            buf_release(&diff);
        }
    } else if (!why && (shipped = release_shipped_find(rule_set_name(rs), tag))) {
        /* no lock of its own: the tag this binary ships is the reference */
        bad = strcmp(shipped->digest, rule_set_digest(rs)) != 0;
        if (bad) {
            fprintf(err,
                    "mcpdesc: the rule set in %s is %s %s (%s), not %s: it differs from the "
                    "release %s@%s this mcpdesc ships (%s):\n",
                    rule_set_dir(rs), rule_set_name(rs), rule_set_display_tag(rs),
                    rule_set_digest(rs), tag, rule_set_name(rs), tag, shipped->digest);
            struct buf diff = BUF_INIT;
            lock_sums_differences(shipped->sums, rule_set_sums(rs), &diff);
            fputs(buf_str(&diff), err);
            buf_release(&diff);
        }
    } else {
        if (why) fprintf(err, "%s\n", why);
        else
            fprintf(err,
                    "mcpdesc: the rule set in %s has no lock for '%s' (%s/tags/%s.lock): drop "
                    "--rules to run the release %s, or lock the set (`mcpdesc rules lock %s`, "
                    "for the manifest's tag)\n",
                    rule_set_dir(rs), tag, rule_set_dir(rs), tag, tag, tag);
        free(why);
        free(sums);
        return -1;
    }
    if (bad)
        fprintf(err,
                "mcpdesc: refusing to run: to run the released %s, drop --rules (mcpdesc finds "
                "the release, docs/releases.md); to run this set, drop --rules-tag\n",
                tag);
    json_decref(lock);
    free(sums);
    return bad ? -1 : 0;
}

int lock_write(const struct rule_set *rs, const char *tag, FILE *err)
{
    if (!lock_tag_ok(tag)) {
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
    char *why = NULL;
    json_t *old = load_lock(rs, tag, &why);
    if (old || why) {
        if (!old || lock_compare(rs, old, tag, NULL)) {
            fprintf(err,
                    "mcpdesc: %s records another rule set for %s: a released tag never moves; "
                    "restore the files it records, or set a new tag in manifest.yaml and lock "
                    "that%s%s\n",
                    path, tag, why ? "\n" : "", why ? why : "");
            if (old) lock_compare(rs, old, tag, err);
            rc = -1;
        } else {
            fprintf(err, "mcpdesc: %s already records this rule set\n", path);
        }
        json_decref(old);
        free(why);
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
