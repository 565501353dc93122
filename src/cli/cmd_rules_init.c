/* cmd_rules_init.c - `mcpdesc rules init DIR [--extends NAME@TAG] [--name NAME]`: write
 * the start of an organisation rule set (rules-yaml/README.md, "Organisation rule sets"):
 * a manifest extending a release, one rule file with one example rule that has a fix,
 * and its fixtures (valid, warning, a fix pair), such that `rules lint DIR` and `rules
 * test DIR` are clean; then the three commands to run next. Without --extends the base is
 * the newest release of the shipped set (mcpdesc-mcp) that this mcpdesc ships and finds.
 * Refused (exit 2, nothing written): a DIR that exists and is not an empty directory, a
 * name or NAME@TAG that is not well formed, a release that is not on the search path. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/ver.h"
#include "cli/cmd.h"
#include "cli/cmd_common.h"
#include "rules/release.h"
#include "rules/rule.h"

/* init's options (tests/check-options.sh reads this table) */
static const char *const options[] = {"--extends", "--name", "--help", NULL};

static void usage(FILE *f)
{
    fputs("usage: mcpdesc rules init DIR [--extends NAME@TAG] [--name NAME]\n"
          "\n"
          "Start an organisation rule set in DIR (created; an existing DIR must be empty):\n"
          "manifest.yaml extending the release NAME@TAG, tool.yaml with one example rule\n"
          "that has a fix, and its fixtures in DIR/conformance (a valid one, a warning one,\n"
          "a fix pair), so that `mcpdesc rules lint DIR` and `mcpdesc rules test DIR` are\n"
          "clean. Then prints the next three commands to run (lint, test, validate).\n"
          "\n"
          "  --extends NAME@TAG  the release the set extends, found as --rules-tag finds\n"
          "                      it (a bare TAG means mcpdesc-mcp@TAG; default: the newest\n"
          "                      mcpdesc-mcp release this mcpdesc ships)\n"
          "  --name NAME         the set's name (default: DIR's last part): lowercase\n"
          "                      letters, digits, - and ., starting with a letter\n"
          "\n"
          "Exit status: 0 written, 2 bad usage, a DIR that is not empty, a release that\n"
          "cannot be found or loaded, or a file that cannot be written.\n",
          f);
}

/* A set's name as the manifest takes it (rule_set_load.c): lowercase letters, digits,
 * '-' and '.', starting with a letter, at most 100 characters. */
static int name_ok(const char *s)
{
    if (!*s || strlen(s) > 100 || !(*s >= 'a' && *s <= 'z')) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* DIR's last part, without trailing slashes (new). */
static char *last_part(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && dir[b - 1] != '/') b--;
    return xstrndup(dir + b, n - b);
}

/* 1 when DIR is missing or an empty directory; else 0 and *WHAT says what is there. */
static int dir_free(const char *dir, const char **what)
{
    struct stat st;
    if (stat(dir, &st) < 0) return errno == ENOENT ? 1 : (*what = "cannot be read", 0);
    if (!S_ISDIR(st.st_mode)) return *what = "exists and is not a directory", 0;
    DIR *d = opendir(dir);
    if (!d) return *what = "cannot be read", 0;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    if (!empty) *what = "exists and is not empty";
    return empty;
}

/* The newest tag of the shipped set this binary ships and PATH holds (new), or NULL. */
static char *newest_shipped(const struct release_path *path)
{
    const char *best = NULL;
    for (size_t i = 0; i < release_shipped_count; i++) {
        const struct release_shipped *r = &release_shipped_tags[i];
        if (strcmp(r->name, CMD_DEFAULT_SET) || (best && strverscmp(r->tag, best) <= 0)) continue;
        char *dir = release_find(path, r->name, r->tag);
        if (dir) best = r->tag;
        free(dir);
    }
    return best ? xstrdup(best) : NULL;
}

/* Shell-quote S for a command line to paste (new): as it is when it needs no quotes. */
static char *shell_word(const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./@+=:,",
                       *p) != NULL;
    if (plain) return xstrdup(s);
    struct buf b = BUF_INIT;
    buf_addc(&b, '\'');
    for (const char *p = s; *p; p++)
        if (*p == '\'') buf_adds(&b, "'\\''");
        else buf_addc(&b, *p);
    buf_addc(&b, '\'');
    return buf_detach(&b);
}

/* ---- the files --------------------------------------------------------------------- */

/* @NAME@ the set's name (also the rule ids' prefix and owner), @BASE@ NAME@TAG of the
 * release it extends, @VERSION@ the base's newest protocol version (the fixtures'). */
static const char manifest_yaml[] =
    "# @NAME@: an organisation rule set (rules-yaml/README.md of mcpdesc, \"Organisation\n"
    "# rule sets\"). Every rule of @BASE@ runs first, then this set's own. The\n"
    "# protocol versions, the document's shape and the description format are the base's:\n"
    "# this manifest inherits them, and any it states must equal the base's.\n"
    "name: @NAME@\n"
    "tag: v0.1.0\n"
    "extends: @BASE@\n"
    "# the names of the source tiers of this set's own rules (based-on: tier)\n"
    "tiers:\n"
    "  1: @NAME@ engineering policy\n"
    "fixtures: conformance\n"
    "files:\n"
    "  - tool.yaml\n";

static const char tool_yaml[] =
    "# An example rule, with its examples and a fix: change it, or add yours beside it\n"
    "# (rules-yaml/README.md of mcpdesc, \"A rule\"). After each change run\n"
    "# mcpdesc rules lint and mcpdesc rules test on this set's directory.\n"
    "rules:\n"
    "  - id: @NAME@.tool.input-schema.closed\n"
    "    owner: @NAME@\n"
    "    surface: Tool\n"
    "    paths: [inputSchema]\n"
    "    kind: structural\n"
    "    level: should\n"
    "    status: draft\n"
    "    enforcement: internal\n"
    "    applies: all\n"
    "    summary: >-\n"
    "      A tool whose inputSchema admits members it does not declare takes a misspelt\n"
    "      argument and ignores it; a closed schema has the client refuse it instead.\n"
    "    requirement: >-\n"
    "      A tool's inputSchema SHOULD declare \"additionalProperties\": false.\n"
    "    based-on:\n"
    "      - tier: 1\n"
    "        text: '@NAME@ engineering policy: name the document and section this rule enforces'\n"
    "    examples:\n"
    "      - {expect: valid, fixture: expected-valid/tool-input-schema-closed.json, pointer: "
    "/tools/0/inputSchema}\n"
    "      - {expect: warning, fixture: expected-warning/tool-input-schema-closed.json, "
    "pointer: /tools/0/inputSchema}\n"
    "      - {expect: fix, fixture: fixes/tool-input-schema-closed.before.json, after: "
    "fixes/tool-input-schema-closed.after.json, pointer: /tools/0/inputSchema}\n"
    "    check:\n"
    "      select: '/tools/[*]/inputSchema'\n"
    "      # a schema made of others ($ref, allOf, ...) is left alone: closing its root\n"
    "      # would refuse the members its parts declare\n"
    "      when:\n"
    "        all:\n"
    "          - json-type: object\n"
    "          - lacks: [$ref, allOf, anyOf, oneOf, not, if]\n"
    "      require: {some: {select: additionalProperties, require: {equals: false}}}\n"
    "      message: '{item-kind} \"{item}\" accepts arguments its inputSchema does not declare'\n"
    "      hint: 'add \"additionalProperties\": false at the inputSchema root'\n"
    "      fix:\n"
    "        title: 'add \"additionalProperties\": false to the inputSchema of {item}'\n"
    "        when: {lacks: additionalProperties}\n"
    "        add: {member: additionalProperties, value: false}\n";

#define FIXTURE_HEAD(description)                                                                  \
    "{\n"                                                                                          \
    "  \"mcpDescription\": \"0.9.0\",\n"                                                           \
    "  \"x-description\": \"" description "\",\n"
#define FIXTURE_TOOL(closed)                                                                       \
    "  \"protocolVersions\": [\"@VERSION@\"],\n"                                                   \
    "  \"serverInfo\": {\"name\": \"example\", \"version\": \"1.0.0\"},\n"                         \
    "  \"capabilities\": {\"tools\": {}},\n"                                                       \
    "  \"tools\": [\n"                                                                             \
    "    {\n"                                                                                      \
    "      \"name\": \"get_user\",\n"                                                              \
    "      \"description\": \"Returns a user by id.\",\n"                                          \
    "      \"inputSchema\": {\n" closed "        \"type\": \"object\",\n"                          \
    "        \"properties\": {\"id\": {\"type\": \"string\"}},\n"                                  \
    "        \"required\": [\"id\"]\n"                                                             \
    "      }\n"                                                                                    \
    "    }\n"                                                                                      \
    "  ]\n"                                                                                        \
    "}\n"
#define CLOSED "        \"additionalProperties\": false,\n"
#define FIX_TEXT                                                                                   \
    "Fix pair: @NAME@.tool.input-schema.closed adds \\\"additionalProperties\\\": false as the "   \
    "first member of an inputSchema that has none."

#define VALID_TEXT "A closed inputSchema: @NAME@.tool.input-schema.closed passes."
#define WARNING_TEXT                                                                               \
    "An inputSchema without \\\"additionalProperties\\\": false: @NAME@.tool.input-schema.closed " \
    "warns."
#define EXPECT_NONE "  \"x-expect\": [],\n"
#define EXPECT_WARNING                                                                             \
    "  \"x-expect\": [\n"                                                                          \
    "    {\"rule\": \"@NAME@.tool.input-schema.closed\", \"level\": \"warning\", \"pointer\": "    \
    "\"/tools/0/inputSchema\", \"versions\": [\"@VERSION@\"]}\n"                                   \
    "  ],\n"

static const struct {
    const char *path, *text;
} files[] = {
    {"manifest.yaml", manifest_yaml},
    {"tool.yaml", tool_yaml},
    {"conformance/expected-valid/tool-input-schema-closed.json",
     FIXTURE_HEAD(VALID_TEXT) EXPECT_NONE FIXTURE_TOOL(CLOSED)},
    {"conformance/expected-warning/tool-input-schema-closed.json",
     FIXTURE_HEAD(WARNING_TEXT) EXPECT_WARNING FIXTURE_TOOL("")},
    {"conformance/fixes/tool-input-schema-closed.before.json",
     FIXTURE_HEAD(FIX_TEXT) FIXTURE_TOOL("")},
    {"conformance/fixes/tool-input-schema-closed.after.json",
     FIXTURE_HEAD(FIX_TEXT) FIXTURE_TOOL(CLOSED)},
};

/* TEXT with @NAME@, @BASE@ and @VERSION@ replaced (new). */
static char *fill(const char *text, const char *name, const char *base, const char *version)
{
    static const char *const keys[] = {"@NAME@", "@BASE@", "@VERSION@"};
    const char *values[] = {name, base, version};
    struct buf b = BUF_INIT;
    for (const char *p = text; *p;) {
        size_t k = 0;
        while (k < 3 && strncmp(p, keys[k], strlen(keys[k]))) k++;
        if (k < 3) {
            buf_adds(&b, values[k]);
            p += strlen(keys[k]);
        } else {
            buf_addc(&b, *p++);
        }
    }
    return buf_detach(&b);
}

/* mkdir -p PATH's parent directories and PATH's own when DIR is set; 0 or -1 (errno). */
static int make_dirs(const char *path)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; *s && !rc; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) < 0 && errno != EEXIST) rc = -1;
            *s = '/';
        }
    free(p);
    return rc;
}

static int write_file(const char *path, const char *text)
{
    if (make_dirs(path) < 0) return -1;
    FILE *f = fopen(path, "wx");
    if (!f) return -1;
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* ---- the command ------------------------------------------------------------------- */

struct init_opts {
    const char *dir, *extends, *name;
};

/* 0, 1 after --help, -1 on bad usage. */
static int parse(int argc, char **argv, struct init_opts *o)
{
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && !strcmp(a, "--")) {
            only_args = 1;
        } else if (!only_args && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            usage(stdout);
            return 1;
        } else if (!only_args && a[0] == '-' && a[1]) {
            const char *name = NULL;
            for (const char *const *opt = options; *opt && !name; opt++) {
                size_t n = strlen(*opt);
                if (!strncmp(a, *opt, n) && (a[n] == '\0' || a[n] == '=')) name = *opt;
            }
            if (!name || !strcmp(name, "--help")) {
                cmd_unknown_option("rules init", a, options);
                return -1;
            }
            const char *v = cmd_option_value(argc, argv, &i, name);
            if (!v) return -1;
            if (!strcmp(name, "--extends")) o->extends = v;
            else o->name = v;
        } else if (o->dir) {
            fprintf(stderr,
                    "mcpdesc rules init: one DIR only ('%s' and '%s'): give the directory of "
                    "the new set once\n",
                    o->dir, a);
            return -1;
        } else {
            o->dir = a;
        }
    }
    if (!o->dir) {
        fprintf(stderr,
                "mcpdesc rules init: give DIR, the directory of the new rule set "
                "(e.g. mcpdesc rules init rules)\n");
        return -1;
    }
    return 0;
}

/* The base NAME@TAG (new) for --extends SPEC (NULL: the newest shipped); NULL after one
 * line saying why. */
static char *base_spec(const char *spec, const struct release_path *path)
{
    char *name = NULL, *tag = NULL;
    if (!spec) {
        char *newest = newest_shipped(path);
        if (!newest) {
            fprintf(stderr,
                    "mcpdesc rules init: no release of %s that this mcpdesc ships is on the "
                    "release search path: name the set to extend with --extends NAME@TAG "
                    "(docs/releases.md, \"Where mcpdesc looks\")\n",
                    CMD_DEFAULT_SET);
            return NULL;
        }
        char *s = xasprintf("%s@%s", CMD_DEFAULT_SET, newest);
        free(newest);
        return s;
    }
    if (release_parse(spec, CMD_DEFAULT_SET, &name, &tag) < 0) {
        char *newest = newest_shipped(path);
        fprintf(stderr,
                "mcpdesc rules init: --extends '%s' is not NAME@TAG (NAME: lowercase letters, "
                "digits, - and ., starting with a letter; TAG: letters, digits, . - _ +): name "
                "a release as --rules-tag does, e.g. --extends %s@%s\n",
                spec, CMD_DEFAULT_SET, newest ? newest : "TAG");
        free(newest);
        return NULL;
    }
    char *dir = release_find(path, name, tag);
    if (!dir) {
        fprintf(stderr, "mcpdesc rules init: cannot extend %s@%s: ", name, tag);
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        release_explain_missing(path, name, tag, m);
        fclose(m);
        /* its "mcpdesc: " off, and its advice for a run (--rules PATH) made init's */
        const char *line = !strncmp(text, "mcpdesc: ", 9) ? text + 9 : text;
        char *advice = strstr(line, "; to use another");
        if (advice) *advice = '\0';
        fprintf(stderr, "%s%s", line,
                advice ? "; to extend another, name one of these with --extends, or put its "
                         "release directory (NAME@TAG/) in a directory named by "
                         "MCPDESC_RULES_PATH\n"
                       : "");
        free(text);
    }
    char *s = dir ? xasprintf("%s@%s", name, tag) : NULL;
    free(dir);
    free(name);
    free(tag);
    return s;
}

int cmd_rules_init(int argc, char **argv)
{
    struct init_opts o = {NULL, NULL, NULL};
    int rc = parse(argc, argv, &o);
    if (rc) return rc > 0 ? 0 : 2;
    const char *what = NULL;
    if (!dir_free(o.dir, &what)) {
        fprintf(stderr,
                "mcpdesc rules init: %s %s: refusing to write a rule set over it; give a new "
                "directory (rules init creates it) or an empty one\n",
                o.dir, what);
        return 2;
    }
    char *name = o.name ? xstrdup(o.name) : last_part(o.dir);
    if (!name_ok(name)) {
        fprintf(stderr,
                "mcpdesc rules init: '%s' (%s) is not a rule set name: it names the set and "
                "prefixes its rule ids; pass --name NAME (lowercase letters, digits, - and ., "
                "starting with a letter, e.g. --name globex-policy)\n",
                name, o.name ? "--name" : "the last part of DIR");
        free(name);
        return 2;
    }
    struct cmd_release_path rp;
    cmd_release_path_init(&rp);
    char *base = base_spec(o.extends, &rp.path);
    cmd_release_path_release(&rp);
    /* the release, loaded as --rules-tag loads it: refused when it is not the release */
    struct rule_set *rs = base ? cmd_load_rules_tagged(NULL, base) : NULL;
    if (!rs) {
        free(base);
        free(name);
        return 2;
    }
    const struct ver_list *vl = rule_set_versions(rs);
    const char *version = vl->names[vl->n - 1];
    int status = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0] && !status; i++) {
        char *path = xasprintf("%s/%s", o.dir, files[i].path);
        char *text = fill(files[i].text, name, base, version);
        if (write_file(path, text) < 0) {
            fprintf(stderr, "mcpdesc rules init: cannot write %s: %s\n", path, strerror(errno));
            status = 2;
        }
        free(text);
        free(path);
    }
    if (!status) {
        char *d = shell_word(o.dir);
        printf("wrote the rule set %s v0.1.0 to %s, extending %s:\n", name, o.dir, base);
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
            printf("  %s/%s\n", o.dir, files[i].path);
        printf("its rule %s.tool.input-schema.closed is an example to change; next:\n"
               "  mcpdesc rules lint %s\n"
               "  mcpdesc rules test %s\n"
               "  mcpdesc validate --rules %s %s/conformance/expected-warning/"
               "tool-input-schema-closed.json\n",
               name, d, d, d, d);
        free(d);
    }
    rule_set_free(rs);
    free(base);
    free(name);
    return status;
}
