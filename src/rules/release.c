/* release.c - released rule sets; see release.h and docs/releases.md. */
#include "rules/release.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/lock.h"

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
        /* NAME@TAG/rules with a manifest is what runs under that name, SHA256SUMS or not:
         * a copy that lost it is refused by the caller (not released), never skipped */
        char *rules = xasprintf("%s/%s@%s/rules", path->dirs[i], name, tag);
        if (has_manifest(rules)) return rules;
        free(rules);
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
    /* a set's name given where a tag goes (--rules-tag mcpdesc-security): its newest
     * release, the last in version order */
    const char *named = NULL;
    size_t tl = strlen(tag);
    for (size_t k = 0; k < found.len; k++)
        if (!strncmp(found.items[k], tag, tl) && found.items[k][tl] == '@') named = found.items[k];
    char *set_hint = named ? xasprintf("%s is the name of a rule set, not a tag: write NAME@TAG, "
                                       "e.g. --rules-tag %s\n",
                                       tag, named)
                           : NULL;
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
    if (set_hint) fprintf(err, "mcpdesc: %s", set_hint);
    free(set_hint);
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

/* What this binary trusts. */

/* Generated per build directory ($(BUILD)/gen/tree.c, mk/release.mk): where the source
 * tree is and where its build puts the program. */
extern const char release_tree_src[], release_tree_bin_dir[];

int release_parse_pin(const char *spec, const char *default_name, char **name, char **tag,
                      char **digest)
{
    static const char mark[] = "@sha256:";
    const char *pin = strstr(spec, mark);
    char *rest = pin ? xstrndup(spec, (size_t)(pin - spec)) : xstrdup(spec);
    const char *hex = pin ? pin + sizeof mark - 1 : NULL;
    int ok = !hex || (strspn(hex, "0123456789abcdef") == 64 && !hex[64]);
    if (ok && release_parse(rest, default_name, name, tag) == 0) {
        *digest = hex ? xasprintf("sha256:%s", hex) : NULL;
        free(rest);
        return 0;
    }
    free(rest);
    return -1;
}

/* Append the error MSG at WHERE with HINT (both taken). */
static void add_error(struct diag_list *errs, const char *where, char *msg, char *hint)
{
    diag_add(errs, DIAG_ERROR, NULL, where, 0, 0, msg)->hint = hint; /* NULL: none */
    free(msg);
}

/* The pin of NAME@TAG among PINS ("sha256:HEX", borrowed from PINS), or NULL. */
static const char *pinned_digest(const char *const *pins, size_t npins, const char *name,
                                 const char *tag)
{
    size_t nl = strlen(name), tl = strlen(tag);
    for (size_t i = 0; i < npins; i++) {
        const char *p = pins[i];
        if (!strncmp(p, name, nl) && p[nl] == '@' && !strncmp(p + nl + 1, tag, tl) &&
            !strncmp(p + nl + 1 + tl, "@sha256:", 8))
            return p + nl + 1 + tl + 1;
    }
    return NULL;
}

int release_check_loaded(const struct rule_set *rs, const char *const *pins, size_t npins,
                         struct diag_list *errs)
{
    const char *name = rule_set_name(rs), *tag = rule_set_tag(rs);
    const char *claimed = rule_set_released_tag(rs), *have = rule_set_digest(rs);
    if (!name || !tag) return 0;
    char *sums_path = xasprintf("%s/SHA256SUMS", rule_set_dir(rs));
    int release_dir = access(sums_path, F_OK) == 0;
    const char *where = release_dir ? sums_path : rule_set_dir(rs);
    const struct release_shipped *s =
        release_shipped_name(name) ? release_shipped_find(name, tag) : NULL;
    const char *pin = pinned_digest(pins, npins, name, tag);
    int rc = 0;
    if (s && strcmp(s->digest, have) && (claimed || release_dir)) {
        /* a shipped tag: only its files, whatever SHA256SUMS or lock sits beside them */
        struct buf why = BUF_INIT;
        lock_sums_differences(s->sums, rule_set_sums(rs), &why);
        if (why.len) buf_truncate(&why, why.len - 1); /* the last newline */
        add_error(errs, where,
                  xasprintf("the rule set in %s is not the release %s@%s that this mcpdesc "
                            "ships: its files hash to %s, the release's to %s; restore the "
                            "release (reinstall mcpdesc, or copy %s@%s/ from the "
                            "rules-yaml/releases of its source); to edit a copy as a set of "
                            "your own, remove its %s (it then runs as %s+modified) or give it "
                            "another name in manifest.yaml:\n%s",
                            rule_set_dir(rs), name, tag, have, s->digest, name, tag,
                            release_dir ? "SHA256SUMS" : "tags/ lock of the tag", tag,
                            buf_str(&why)),
                  NULL);
        buf_release(&why);
        rc = -1;
    } else if (!s && claimed && release_shipped_name(name) && !pin) {
        char *known = release_shipped_list(name);
        add_error(errs, where,
                  xasprintf("%s@%s (in %s) is not a release this mcpdesc ships (it ships %s "
                            "%s): to run it, check these files with their publisher and pin "
                            "their digest, %s (the sha256 of rules/SHA256SUMS): --rules-tag "
                            "%s@%s@%s, or the same in the config's rules:; or use an mcpdesc "
                            "that ships the tag, or give a set of your own another name in "
                            "manifest.yaml",
                            name, tag, rule_set_dir(rs), name, known, have, name, tag, have),
                  NULL);
        free(known);
        rc = -1;
    } else if (pin && strcmp(pin, have)) {
        if (s && !strcmp(s->digest, have)) /* the shipped release: the pin is wrong */
            add_error(errs, where,
                      xasprintf("the rule set in %s is the release %s@%s this mcpdesc ships, "
                                "with the digest %s, not the pinned %s: the pin is wrong; pin "
                                "%s@%s@%s (or write %s@%s and run `mcpdesc rules pin`; the "
                                "digest in a first-format lock, rc.3 to rc.9, is not its "
                                "release's)",
                                rule_set_dir(rs), name, tag, have, pin, name, tag, have, name, tag),
                      NULL);
        else
            add_error(errs, where,
                      xasprintf("the rule set in %s is %s %s with the digest %s, not the "
                                "pinned %s@%s@%s: restore the set the pin names; or, if you "
                                "checked these files and mean to run them, pin %s instead",
                                rule_set_dir(rs), name, rule_set_display_tag(rs), have, name, tag,
                                pin, have),
                      NULL);
        rc = -1;
    }
    free(sums_path);
    return rc;
}

/* The running program's directory and, for a build tree's binary, its tree's root (real
 * paths; NULL when unknown): asked several times a run (the default rules, the release
 * search), each a dozen system calls, and the same for the whole process: found once. */
static char *where_exe, *where_tree;
static pthread_once_t where_once = PTHREAD_ONCE_INIT;

static void where_find(void)
{
    char *exe = realpath("/proc/self/exe", NULL);
    char *slash = exe ? strrchr(exe, '/') : NULL;
    if (slash) *slash = '\0';
    where_exe = exe;
    char *bin = realpath(release_tree_bin_dir, NULL);
    if (exe && bin && !strcmp(exe, bin)) where_tree = realpath(release_tree_src, NULL);
    free(bin);
}

/* The running program's directory (real path), new; NULL when /proc cannot say. */
static char *exe_dir(void)
{
    pthread_once(&where_once, where_find);
    return where_exe ? xstrdup(where_exe) : NULL;
}

char *release_tree_root(void)
{
    pthread_once(&where_once, where_find);
    return where_tree ? xstrdup(where_tree) : NULL;
}

static void search_add(struct release_search *s, char *dir)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->owned[i], dir)) {
            free(dir);
            return;
        }
    s->owned = xrealloc(s->owned, (s->n + 1) * sizeof *s->owned);
    s->owned[s->n++] = dir;
}

/* DIR's real path when it exists (messages name /x/share, not /x/bin/../share), new */
static char *real_or_same(char *dir)
{
    char *real = realpath(dir, NULL);
    if (!real) return dir;
    free(dir);
    return real;
}

void release_search_init(struct release_search *s)
{
    memset(s, 0, sizeof *s);
    const char *env = getenv("MCPDESC_RULES_PATH");
    for (const char *p = env ? env : ""; *p;) {
        size_t n = strcspn(p, ":");
        if (n) search_add(s, xstrndup(p, n));
        p += n + (p[n] == ':');
    }
    char *tree = release_tree_root();
    if (tree) search_add(s, real_or_same(xasprintf("%s/rules-yaml/releases", tree)));
    char *exe = tree ? NULL : exe_dir();
    if (exe) {
        char *mine = xasprintf("%s/../share/mcpdesc/releases", exe);
        if (access(mine, F_OK) == 0) search_add(s, real_or_same(mine));
        else free(mine);
    }
    search_add(s, real_or_same(xstrdup(MCPDESC_DATADIR "/releases")));
    free(tree);
    free(exe);
    s->path.dirs = (const char *const *)s->owned;
    s->path.n = s->n;
}

void release_search_release(struct release_search *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->owned[i]);
    free(s->owned);
    memset(s, 0, sizeof *s);
}

char *release_default_rules(void)
{
    const char *env = getenv("MCPDESC_RULES");
    if (env && *env) return xstrdup(env);
    char *tree = release_tree_root();
    if (tree) {
        char *dir = xasprintf("%s/rules-yaml", tree);
        free(tree);
        return dir;
    }
    char *exe = exe_dir();
    if (exe) {
        /* an installed BIN/mcpdesc finds BIN/../share/mcpdesc/rules wherever the prefix
         * was moved to (DESTDIR staging, relocated packages) */
        char *mine = xasprintf("%s/../share/mcpdesc/rules/manifest.yaml", exe);
        free(exe);
        if (access(mine, R_OK) == 0) {
            mine[strlen(mine) - strlen("/manifest.yaml")] = '\0';
            return real_or_same(mine);
        }
        free(mine);
    }
    return xstrdup(MCPDESC_DATADIR "/rules");
}
