/* lint_selectors.c - `rules lint`'s selector checks (lint_selectors.h). Two walks over
 * JSON Schemas, along a selector's literal segments:
 * - the description format (mcp-description.schema.json), whose closed objects name every
 *   member a description may have there: an absolute selector whose segments it forbids
 *   selects nothing in any description;
 * - below an item (and serverInfo, capabilities), the MCP type of each protocol version
 *   (schema/mcp/<version>/tool.json and its $refs, schema/mcp/README.md). MCP objects are
 *   open (an unknown member is allowed, and a rule may well select an extension member),
 *   so only a member that no version declares and that lies within two edits of a member
 *   one declares is reported: a typo, with a did-you-mean.
 * The schemas are the set's (its schema-map, else ../schema beside it) or, through
 * `extends`, its base's: a release directory NAME@TAG/ keeps them in schema/. */
#include "author/lint_selectors.h"

#include <regex.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/ptr.h"
#include "base/util.h"
#include "resolve/sel.h"

struct fmt_file {
    char *path;
    json_t *root;
};

struct fmt {
    VEC(struct fmt_file) files; /* [0] is the schema the walks start from */
    const char *dir;            /* the directory SCHEMA_MAP is relative to */
    json_t *schema_map;         /* borrowed; NULL: relative $refs only */
};

/* A schema and the file it lies in (for its local $refs). */
struct spos {
    json_t *s;
    size_t file;
};
typedef VEC(struct spos) spos_vec;
typedef VEC(char *) str_vec;

static long fmt_open(struct fmt *f, const char *path)
{
    for (size_t i = 0; i < f->files.len; i++)
        if (!strcmp(f->files.items[i].path, path)) return (long)i;
    json_t *root = json_load_file(path, 0, NULL);
    if (!root) return -1;
    struct fmt_file ff = {xstrdup(path), root};
    VEC_PUSH(f->files, ff);
    return (long)f->files.len - 1;
}

static void fmt_free(struct fmt *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->files.len; i++) {
        free(f->files.items[i].path);
        json_decref(f->files.items[i].root);
    }
    VEC_FREE(f->files);
    free(f);
}

/* The schema $ref REF names from FILE, or s NULL when lint cannot follow it (an anchor, a
 * file outside the schema-map): the walk then accepts whatever lies below. */
static struct spos fmt_ref(struct fmt *f, size_t file, const char *ref)
{
    struct spos out = {NULL, file};
    const char *hash = strchr(ref, '#');
    size_t n = hash ? (size_t)(hash - ref) : strlen(ref);
    if (n) {
        char *path = NULL;
        const char *prefix;
        json_t *dirv;
        if (f->schema_map) json_object_foreach(f->schema_map, prefix, dirv)
            {
                size_t pn = strlen(prefix);
                if (path || !json_is_string(dirv) || pn > n || strncmp(ref, prefix, pn)) continue;
                path = xasprintf("%s/%s/%.*s", f->dir, json_string_value(dirv), (int)(n - pn),
                                 ref + pn);
            }
        if (!path && !strstr(ref, "://")) { /* relative to the referring file */
            const char *from = f->files.items[file].path, *slash = strrchr(from, '/');
            path = xasprintf("%.*s%.*s", slash ? (int)(slash - from + 1) : 0, from, (int)n, ref);
        }
        long k = path ? fmt_open(f, path) : -1;
        free(path);
        if (k < 0) return out;
        out.file = (size_t)k;
    }
    json_t *root = f->files.items[out.file].root;
    if (!hash || !hash[1]) {
        out.s = root;
        return out;
    }
    if (hash[1] != '/') return out; /* an anchor */
    struct ptr p;
    const char *why;
    if (ptr_parse(hash + 1, &p, &why) < 0) return out;
    out.s = ptr_get(root, &p);
    ptr_release(&p);
    return out;
}

/* S and what it must also satisfy: its $ref and allOf, recursively. Returns -1 when some
 * part cannot be followed, or chooses (anyOf, oneOf, if): lint then cannot tell. */
static int fmt_conjuncts(struct fmt *f, struct spos s, spos_vec *out, int depth)
{
    if (!s.s || depth > 32) return -1;
    if (json_is_true(s.s)) return 0;
    if (!json_is_object(s.s)) return -1; /* false, or not a schema */
    if (json_object_get(s.s, "anyOf") || json_object_get(s.s, "oneOf") ||
        json_object_get(s.s, "if") || json_object_get(s.s, "$dynamicRef"))
        return -1;
    VEC_PUSH(*out, s);
    json_t *ref = json_object_get(s.s, "$ref");
    if (json_is_string(ref) &&
        fmt_conjuncts(f, fmt_ref(f, s.file, json_string_value(ref)), out, depth + 1) < 0)
        return -1;
    json_t *all = json_object_get(s.s, "allOf");
    for (size_t i = 0; json_is_array(all) && i < json_array_size(all); i++) {
        struct spos k = {json_array_get(all, i), s.file};
        if (fmt_conjuncts(f, k, out, depth + 1) < 0) return -1;
    }
    return 0;
}

static int type_allows(json_t *s, const char *type)
{
    json_t *t = json_object_get(s, "type");
    if (json_is_string(t)) return !strcmp(json_string_value(t), type);
    if (!json_is_array(t)) return 1;
    for (size_t i = 0; i < json_array_size(t); i++)
        if (json_is_string(json_array_get(t, i)) &&
            !strcmp(json_string_value(json_array_get(t, i)), type))
            return 1;
    return 0;
}

static int pattern_matches(const char *pattern, const char *name)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) return 1; /* cannot tell */
    int m = regexec(&re, name, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

/* Why a walk stopped on a segment the format forbids. */
struct fmt_block {
    size_t seg;      /* the forbidden segment */
    json_t *schema;  /* the closed object schema, or the one whose type excludes it */
    const char *was; /* its JSON type when the type forbids it, else NULL */
};

/* Walk SEGS from the format's root. 1 and *B filled when a literal segment cannot exist. */
static int fmt_walk(struct fmt *f, const struct ptr *segs, struct fmt_block *b)
{
    spos_vec cur = VEC_INIT, next = VEC_INIT;
    struct spos root = {f->files.items[0].root, 0};
    int blocked = 0, open = fmt_conjuncts(f, root, &cur, 0) < 0;
    for (size_t i = 0; i < segs->n && !open && !blocked && cur.len; i++) {
        const char *seg = segs->segs[i];
        next.len = 0;
        if (!strcmp(seg, "**")) break;
        int wild = !strcmp(seg, "*") || !strcmp(seg, SEL_ITEMS);
        for (size_t k = 0; k < cur.len && !open && !blocked; k++) {
            json_t *s = cur.items[k].s;
            size_t file = cur.items[k].file;
            json_t *props = json_object_get(s, "properties");
            json_t *pats = json_object_get(s, "patternProperties");
            json_t *items = json_object_get(s, "items");
            json_t *addl = json_object_get(s, "additionalProperties");
            if (wild) {
                struct spos kid = {NULL, file};
                if (json_is_object(items) && !type_allows(s, "object")) kid.s = items;
                else if (json_is_object(addl) && !props && !pats && !type_allows(s, "array"))
                    kid.s = addl;
                else if (props || pats || items || addl) open = 1; /* members differ */
                if (kid.s && fmt_conjuncts(f, kid, &next, 0) < 0) open = 1;
                continue;
            }
            int digits = all_digits(seg);
            if (!type_allows(s, "object") && !(digits && type_allows(s, "array"))) {
                json_t *t = json_object_get(s, "type");
                b->seg = i;
                b->schema = s;
                b->was = json_is_string(t) ? json_string_value(t) : "not an object";
                blocked = 1;
                break;
            }
            int found = 0;
            struct spos kid = {json_object_get(props, seg), file};
            if (kid.s) {
                found = 1;
                if (fmt_conjuncts(f, kid, &next, 0) < 0) open = 1;
            }
            const char *pat;
            json_t *ps;
            if (json_is_object(pats)) json_object_foreach(pats, pat, ps)
                {
                    if (!pattern_matches(pat, seg)) continue;
                    found = 1;
                    struct spos pk = {ps, file};
                    if (fmt_conjuncts(f, pk, &next, 0) < 0) open = 1;
                }
            if (found) continue;
            if (digits && json_is_object(items)) {
                struct spos ik = {items, file};
                if (fmt_conjuncts(f, ik, &next, 0) < 0) open = 1;
            } else if (json_is_false(addl)) {
                b->seg = i;
                b->schema = s;
                b->was = NULL;
                blocked = 1;
            } else if (json_is_object(addl)) {
                struct spos ak = {addl, file};
                if (fmt_conjuncts(f, ak, &next, 0) < 0) open = 1;
            }
        }
        spos_vec t = cur;
        cur = next;
        next = t;
    }
    VEC_FREE(cur);
    VEC_FREE(next);
    return blocked;
}

/* ---- finding the schemas ------------------------------------------------------------ */

static const char description_schema_name[] = "mcp-description.schema.json";
/* The description format's $id: where a set's schema-map sends it is its file. */
static const char description_schema_id[] =
    "https://mcpdesc.dev/schema/mcp-description.schema.json";

/* The MCP type of the objects at a top-level member: an item of a collection (tools/N)
 * or the object itself (serverInfo). FILE is its schema in schema/mcp/<version>/. */
static const struct {
    const char *member, *file, *kind;
    int item;
} mcp_types[] = {
    {"tools", "tool.json", "Tool", 1},
    {"resources", "resource.json", "Resource", 1},
    {"resourceTemplates", "resource-template.json", "ResourceTemplate", 1},
    {"prompts", "prompt.json", "Prompt", 1},
    {"serverInfo", "implementation.json", "Implementation", 0},
    {"capabilities", "server-capabilities.json", "ServerCapabilities", 0},
};
#define N_MCP_TYPES (sizeof mcp_types / sizeof *mcp_types)

struct sel_lint {
    struct fmt *format;                      /* the description format (NULL: not found) */
    char *mcp_dir;                           /* its directory's mcp/ (the per-version types) */
    const struct ver_list *vl;               /* the set's versions */
    struct fmt *types[VER_MAX][N_MCP_TYPES]; /* loaded on first use */
    unsigned char tried[VER_MAX][N_MCP_TYPES];
    const doc *d; /* the rule file being linted */
    struct diag_list *out;
};

static void finding(struct sel_lint *s, const char *pointer, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void finding(struct sel_lint *s, const char *pointer, const char *hint, const char *fmt, ...)
{
    struct doc_pos pos = {0, 0};
    doc_pointer_pos(s->d, pointer, &pos, NULL);
    va_list ap;
    va_start(ap, fmt);
    struct diag *dg = diag_vadd(s->out, DIAG_ERROR, doc_name(s->d), pos.line, pos.col, fmt, ap);
    va_end(ap);
    if (hint) dg->hint = xstrdup(hint);
}

/* Open PATH as the start of a walk (with DIR and MAP for its $refs), or NULL. */
static struct fmt *fmt_load(const char *path, const char *dir, json_t *map)
{
    if (access(path, R_OK) != 0) return NULL;
    struct fmt *f = xcalloc(1, sizeof *f);
    f->dir = dir;
    f->schema_map = map;
    if (fmt_open(f, path) < 0) {
        free(f);
        return NULL;
    }
    return f;
}

/* Try PATH for the description format; note it in LOOKED. */
static struct fmt *try_format(const char *path, const char *dir, json_t *map, struct buf *looked)
{
    char *norm = util_normalize_path(path); /* as the user would write it */
    char *clean = path[0] == '/' && norm[0] != '/' ? xasprintf("/%s", norm) : xstrdup(norm);
    free(norm);
    struct fmt *f = fmt_load(clean, dir, map);
    if (!f && !strstr(buf_str(looked), clean)) /* a base's schema-map may lead to ../schema */
        buf_addf(looked, "%s%s", looked->len ? ", " : "", clean);
    free(clean);
    return f;
}

/* The description format of the set in DIR: where its schema-map (MAP) sends the format's
 * $id or puts a directory holding it, else DIR/../schema. */
static struct fmt *find_format(const char *dir, json_t *map, struct buf *looked)
{
    struct fmt *f = NULL;
    const char *prefix;
    json_t *dirv;
    if (map) json_object_foreach(map, prefix, dirv)
        {
            if (f || !json_is_string(dirv)) continue;
            const char *d = json_string_value(dirv);
            size_t dn = strlen(d), pn = strlen(prefix);
            while (dn > 1 && d[dn - 1] == '/') dn--;
            char *p = pn && !strncmp(description_schema_id, prefix, pn)
                ? xasprintf("%s/%s/%s", dir, d, description_schema_id + pn)
                : xasprintf("%s/%.*s/%s", dir, (int)dn, d, description_schema_name);
            f = try_format(p, dir, map, looked);
            free(p);
        }
    if (!f) {
        char *p = xasprintf("%s/../schema/%s", dir, description_schema_name);
        f = try_format(p, dir, map, looked);
        free(p);
    }
    return f;
}

struct sel_lint *lint_selectors_new(const struct rule_set *program, const char *dir,
                                    json_t *schema_map, const struct ver_list *vl, const doc *m,
                                    struct diag_list *out)
{
    struct sel_lint *s = xcalloc(1, sizeof *s);
    s->vl = vl;
    struct buf looked = BUF_INIT;
    s->format = find_format(dir, schema_map, &looked);
    /* a set that extends another: the base's (a release keeps them in NAME@TAG/schema) */
    for (const struct rule_set *b = program ? rule_set_base(program) : NULL; b && !s->format;
         b = rule_set_base(b)) {
        char *local = rule_set_local_url(b, description_schema_id); /* its schema-map's */
        if (local) {
            char *p = xasprintf("%s/../%s", rule_set_dir(b), local);
            s->format = try_format(p, rule_set_dir(b), NULL, &looked);
            free(p);
            free(local);
        }
        if (!s->format) s->format = find_format(rule_set_dir(b), NULL, &looked);
    }
    if (s->format) {
        const char *p = s->format->files.items[0].path, *slash = strrchr(p, '/');
        s->mcp_dir = xasprintf("%.*smcp", slash ? (int)(slash - p + 1) : 0, p);
    } else {
        struct doc_pos pos = {1, 1};
        doc_pointer_pos(m, "/extends", &pos, NULL);
        char *msg = xasprintf("selectors not checked: no description schema (%s) found for "
                              "this set or its base (looked in %s)",
                              description_schema_name, buf_str(&looked));
        struct diag *dg = diag_add(out, DIAG_INFO, NULL, doc_name(m), pos.line, pos.col, msg);
        free(msg);
        dg->hint = xstrdup("map https://mcpdesc.dev/schema/ in the manifest's schema-map to a "
                           "copy of the project's schema/ directory, or extend a release that "
                           "has schema/mcp-description.schema.json (rules-yaml/README.md, "
                           "Working on a copy)");
    }
    buf_release(&looked);
    return s;
}

void lint_selectors_free(struct sel_lint *s)
{
    if (!s) return;
    fmt_free(s->format);
    for (size_t v = 0; v < VER_MAX; v++)
        for (size_t t = 0; t < N_MCP_TYPES; t++) fmt_free(s->types[v][t]);
    free(s->mcp_dir);
    free(s);
}

/* The MCP type T of version V (schema/mcp/<version>/<file>), or NULL when absent. */
static struct fmt *mcp_type(struct sel_lint *s, size_t v, size_t t)
{
    if (!s->tried[v][t]) {
        s->tried[v][t] = 1;
        char *p = xasprintf("%s/%s/%s", s->mcp_dir, s->vl->names[v], mcp_types[t].file);
        s->types[v][t] = fmt_load(p, NULL, NULL); /* $refs stay in the directory */
        free(p);
    }
    return s->types[v][t];
}

/* ---- members under an item, against the MCP types -------------------------------------- */

/* Where a walk through an MCP type stopped: segment SEG is declared by none of the object
 * schemas there, which declare NAMES (borrowed from the schemas). */
struct mcp_block {
    size_t seg;
    VEC(const char *) names;
};

/* Walk SEGS[FROM..] from F's root. 1 with *B filled when a literal segment is declared by
 * no schema at its level while one of them lists members (an open object: the segment is
 * allowed, but unknown); 0 when every segment is declared; -1 when lint cannot tell (a
 * choice, a map of any member, a wildcard over declared members, `**`). */
static int mcp_walk(struct fmt *f, const struct ptr *segs, size_t from, struct mcp_block *b)
{
    spos_vec cur = VEC_INIT, next = VEC_INIT;
    struct spos root = {f->files.items[0].root, 0};
    int rc = fmt_conjuncts(f, root, &cur, 0) < 0 ? -1 : 0;
    for (size_t i = from; i < segs->n && rc == 0; i++) {
        const char *seg = segs->segs[i];
        next.len = 0;
        if (!strcmp(seg, "**")) {
            rc = -1;
            break;
        }
        int wild = !strcmp(seg, "*") || !strcmp(seg, SEL_ITEMS), digits = all_digits(seg);
        int found = 0, declares = 0, open = 0;
        for (size_t k = 0; k < cur.len && !open; k++) {
            json_t *s = cur.items[k].s;
            size_t file = cur.items[k].file;
            json_t *props = json_object_get(s, "properties");
            json_t *pats = json_object_get(s, "patternProperties");
            json_t *items = json_object_get(s, "items");
            json_t *addl = json_object_get(s, "additionalProperties");
            struct spos kid = {NULL, file};
            if (wild) {
                if (json_is_object(items) && !type_allows(s, "object")) kid.s = items;
                else if (json_is_object(addl) && !props && !pats) kid.s = addl;
                else if (props || pats || items || addl) open = 1;
            } else if (digits && json_is_object(items) && !type_allows(s, "object")) {
                kid.s = items;
            } else {
                declares |= json_is_object(props) && json_object_size(props);
                kid.s = json_object_get(props, seg);
                const char *pat;
                json_t *ps;
                if (json_is_object(pats)) json_object_foreach(pats, pat, ps)
                    {
                        if (!pattern_matches(pat, seg)) continue;
                        struct spos pk = {ps, file};
                        found = 1;
                        if (fmt_conjuncts(f, pk, &next, 0) < 0) open = 1;
                    }
                if (!kid.s && json_is_object(addl)) kid.s = addl; /* a map: any member */
                if (json_is_true(addl)) open = 1;
            }
            if (kid.s) {
                found = 1;
                if (fmt_conjuncts(f, kid, &next, 0) < 0) open = 1;
            }
        }
        if (open) rc = -1;
        else if (!found && !wild && declares) {
            b->seg = i;
            for (size_t k = 0; k < cur.len; k++) {
                const char *name;
                json_t *v;
                json_object_foreach(json_object_get(cur.items[k].s, "properties"), name, v)
                    VEC_PUSH(b->names, name);
            }
            rc = 1;
        } else if (!found) {
            rc = -1; /* nothing declared here: anything goes */
        }
        spos_vec t = cur;
        cur = next;
        next = t;
    }
    VEC_FREE(cur);
    VEC_FREE(next);
    return rc;
}

/* The selector TEXT as written, with segment SEG of its expansion SEGS (the base's
 * segments first) written NEAR; empty when SEG lies in the base. */
static void corrected(struct buf *fix, const char *text, const struct ptr *segs, size_t seg,
                      const char *near)
{
    int absolute = text[0] == '/';
    struct ptr mine;
    const char *why;
    char *own = absolute ? xstrdup(text) : xasprintf("/%s", text);
    if (ptr_parse(own, &mine, &why) == 0) {
        size_t off = segs->n - mine.n; /* segments of the base */
        if (seg >= off) {
            for (size_t i = 0; i < mine.n; i++) {
                if (i || absolute) buf_addc(fix, '/');
                buf_adds(fix, i == seg - off ? near : mine.segs[i]);
            }
        }
        ptr_release(&mine);
    }
    free(own);
}

static int has_name(const struct mcp_block *b, const char *name)
{
    for (size_t i = 0; i < b->names.len; i++)
        if (!strcmp(b->names.items[i], name)) return 1;
    return 0;
}

/* A member of an item (or of serverInfo, capabilities) on the path SEGS that no MCP type
 * of the set's versions declares, within two edits of one the versions EFF (the check's)
 * declare: reported at POINTER with a did-you-mean. Returns 1 when it reported. */
static int lint_item_members(struct sel_lint *s, const char *text, const struct ptr *segs,
                             const char *pointer, ver_mask eff)
{
    if (!s->mcp_dir || !segs->n) return 0;
    size_t t = 0, from = 0;
    while (t < N_MCP_TYPES && strcmp(segs->segs[0], mcp_types[t].member)) t++;
    if (t == N_MCP_TYPES) return 0;
    if (mcp_types[t].item) {
        if (segs->n < 3) return 0;
        const char *i = segs->segs[1];
        if (strcmp(i, "*") && strcmp(i, SEL_ITEMS) && !all_digits(i)) return 0;
        from = 2;
    } else {
        from = 1;
    }
    if (from >= segs->n) return 0;
    /* each version's walk: a version that declares the whole path, or cannot tell, ends it */
    struct mcp_block blocks[VER_MAX];
    memset(blocks, 0, sizeof blocks);
    int blocked[VER_MAX] = {0}, any = 0, done = 0;
    for (size_t v = 0; v < s->vl->n && !done; v++) {
        struct fmt *f = mcp_type(s, v, t);
        if (!f) continue;
        int rc = mcp_walk(f, segs, from, &blocks[v]);
        if (rc == 1) blocked[v] = any = 1;
        else done = 1;
    }
    /* the deepest segment a version of the check stopped at, and every name declared there */
    size_t seg = 0;
    for (size_t v = 0; v < s->vl->n; v++)
        if (blocked[v] && (eff >> v & 1) && blocks[v].seg > seg) seg = blocks[v].seg;
    const char *near = NULL, *bad = seg ? segs->segs[seg] : NULL;
    if (any && !done && bad) {
        /* the description format's own members there (an item's protocolVersions) */
        struct mcp_block fb = {0, VEC_INIT};
        int frc = s->format ? mcp_walk(s->format, segs, 0, &fb) : -1;
        int format_declares = frc == 0 || (frc == 1 && fb.seg > seg);
        size_t best = 3;
        for (size_t v = 0; v <= s->vl->n && !format_declares; v++) {
            const struct mcp_block *b = v < s->vl->n ? &blocks[v] : &fb;
            if (v < s->vl->n ? !blocked[v] : frc != 1) continue;
            if (b->seg != seg) continue;
            for (size_t k = 0; k < b->names.len; k++) {
                size_t d = util_edit_distance(bad, b->names.items[k]);
                if (d && d < best) {
                    best = d;
                    near = b->names.items[k];
                }
            }
        }
        if (near) {
            struct buf where = BUF_INIT, fix = BUF_INIT, lack = BUF_INIT;
            for (size_t i = 0; i < seg; i++)
                ptr_append_segment(&where, segs->segs[i], strlen(segs->segs[i]));
            corrected(&fix, text, segs, seg, near);
            /* the check's versions whose type does not declare the suggestion either */
            ver_mask lacking = 0;
            for (size_t v = 0; v < s->vl->n; v++)
                if ((eff >> v & 1) &&
                    (!blocked[v] || blocks[v].seg != seg || !has_name(&blocks[v], near)))
                    lacking |= (ver_mask)1 << v;
            if (!(frc == 1 && fb.seg == seg && has_name(&fb, near)))
                ver_format(&lack, s->vl, lacking, ", ");
            else lacking = 0;
            char *hint =
                fix.len ? xasprintf("write %s", buf_str(&fix)) : xasprintf("select \"%s\"", near);
            finding(s, pointer, hint,
                    "selector \"%s\" names a member no MCP %s has: no protocol version of the "
                    "set declares \"%s\" in %s (see %s/%s/%s); did you mean \"%s\"?%s%s%s%s%s",
                    text, mcp_types[t].kind, bad, buf_str(&where), s->mcp_dir,
                    s->vl->n ? s->vl->names[s->vl->n - 1] : "VERSION", mcp_types[t].file, near,
                    lacking ? " (no \"" : "", lacking ? near : "", lacking ? "\" in " : "",
                    lacking ? buf_str(&lack) : "",
                    lacking ? " either, which this check also judges)" : "");
            free(hint);
            buf_release(&where);
            buf_release(&fix);
            buf_release(&lack);
        }
        VEC_FREE(fb.names);
    }
    for (size_t v = 0; v < s->vl->n; v++) VEC_FREE(blocks[v].names);
    return near != NULL;
}

/* ---- a rule's selectors ------------------------------------------------------------- */

/* One selector (at POINTER in the rule file, judged for the versions EFF), relative ones
 * from each of BASES (absolute selectors; NULL: relative ones are not checked). Appends the
 * absolute selectors it stands for to OUT (when not NULL). */
static void lint_selector(struct sel_lint *l, json_t *sv, const char *pointer, char **bases,
                          size_t nbases, ver_mask eff, str_vec *out)
{
    if (json_is_object(sv) && json_object_size(sv) == 1) /* a change rule's {old:}/{new:} */
        sv = json_object_get(sv, "old") ? json_object_get(sv, "old") : json_object_get(sv, "new");
    const char *text = json_string_value(sv);
    if (text && !*text && bases && out) { /* '': the item itself */
        for (size_t bi = 0; bi < nbases && out->len < 16; bi++) VEC_PUSH(*out, xstrdup(bases[bi]));
        return;
    }
    if (!text || !*text) return;
    char *ours = sel_from_jsonpath(text);
    if (ours) { /* the loader reports it */
        free(ours);
        return;
    }
    int absolute = text[0] == '/';
    static char empty[] = "";
    static char *const root_only[] = {empty};
    if (absolute) {
        bases = (char **)root_only;
        nbases = 1;
    } else if (!bases) {
        return;
    }
    int reported = 0;
    for (size_t bi = 0; bi < nbases; bi++) {
        char *full = absolute ? xstrdup(text) : xasprintf("%s/%s", bases[bi], text);
        struct ptr segs;
        const char *why;
        if (ptr_parse(full, &segs, &why) < 0) {
            free(full);
            continue;
        }
        struct fmt_block b = {0, NULL, NULL};
        if (!reported && l->format && fmt_walk(l->format, &segs, &b)) {
            reported = 1;
            struct buf where = BUF_INIT, names = BUF_INIT, fix = BUF_INIT;
            for (size_t i = 0; i < b.seg; i++)
                ptr_append_segment(&where, segs.segs[i], strlen(segs.segs[i]));
            if (!where.len) buf_addc(&where, '/');
            const char *fmt_path = l->format->files.items[0].path;
            const char *bad = segs.segs[b.seg];
            if (b.was) {
                finding(l, pointer,
                        "select the value itself, or a member of an object the description "
                        "format defines (see schema/mcp-description.schema.json)",
                        "selector \"%s\" selects nothing in any description: %s is %s %s in "
                        "the description format, it has no member \"%s\"",
                        text, buf_str(&where), strchr("aeiou", b.was[0]) ? "an" : "a", b.was, bad);
            } else {
                VEC(const char *) known = VEC_INIT;
                const char *k;
                json_t *v;
                json_object_foreach(json_object_get(b.schema, "properties"), k, v)
                {
                    buf_addf(&names, "%s%s", names.len ? ", " : "", k);
                    VEC_PUSH(known, k);
                }
                json_object_foreach(json_object_get(b.schema, "patternProperties"), k, v)
                    buf_addf(&names, "%smembers matching %s", names.len ? ", " : "", k);
                VEC_PUSH(known, NULL);
                const char *near = NULL;
                size_t best = 3;
                for (size_t i = 0; known.items[i]; i++) {
                    size_t d = util_edit_distance(bad, known.items[i]);
                    if (d < best) {
                        best = d;
                        near = known.items[i];
                    }
                }
                if (near) corrected(&fix, text, &segs, b.seg, near); /* as written */
                char *hint = fix.len
                    ? xasprintf("write %s", buf_str(&fix))
                    : xasprintf("select a member the description format defines (%s)", fmt_path);
                finding(l, pointer, hint,
                        "selector \"%s\" selects nothing in any description: the description "
                        "format allows no member \"%s\" in %s (it allows %s)%s%s%s",
                        text, bad, buf_str(&where), names.len ? buf_str(&names) : "none",
                        near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
                free(hint);
                VEC_FREE(known);
            }
            buf_release(&where);
            buf_release(&names);
            buf_release(&fix);
        }
        if (!reported) reported = lint_item_members(l, text, &segs, pointer, eff);
        ptr_release(&segs);
        if (out && out->len < 16) VEC_PUSH(*out, full);
        else free(full);
        if (absolute) break;
    }
}

/* The selectors of a `select` (one string or a list) at POINTER. */
static void lint_select(struct sel_lint *l, json_t *sel, const char *pointer, char **bases,
                        size_t nbases, ver_mask eff, str_vec *out)
{
    if (!json_is_array(sel)) {
        lint_selector(l, sel, pointer, bases, nbases, eff, out);
        return;
    }
    for (size_t i = 0; i < json_array_size(sel); i++) {
        char *p = xasprintf("%s/%zu", pointer, i);
        lint_selector(l, json_array_get(sel, i), p, bases, nbases, eff, out);
        free(p);
    }
}

static void free_bases(char **b, size_t n)
{
    for (size_t i = 0; i < n; i++) free(b[i]);
    free(b);
}

/* The selectors inside predicate P (at POINTER), judged at the nodes BASES select. */
static void lint_pred_sels(struct sel_lint *l, json_t *p, const char *pointer, char **bases,
                           size_t nbases, ver_mask eff)
{
    if (!json_is_object(p) || json_object_size(p) != 1) return;
    void *it = json_object_iter(p);
    const char *name = json_object_iter_key(it);
    json_t *arg = json_object_iter_value(it);
    char *ap = xasprintf("%s/%s", pointer, name);
    if (!strcmp(name, "all") || !strcmp(name, "any")) {
        for (size_t i = 0; json_is_array(arg) && i < json_array_size(arg); i++) {
            char *kp = xasprintf("%s/%zu", ap, i);
            lint_pred_sels(l, json_array_get(arg, i), kp, bases, nbases, eff);
            free(kp);
        }
    } else if (!strcmp(name, "not")) {
        lint_pred_sels(l, arg, ap, bases, nbases, eff);
    } else if (!strcmp(name, "every") || !strcmp(name, "some")) {
        str_vec kids = VEC_INIT;
        char *sp = xasprintf("%s/select", ap), *rp = xasprintf("%s/require", ap);
        lint_select(l, json_object_get(arg, "select"), sp, bases, nbases, eff, &kids);
        lint_pred_sels(l, json_object_get(arg, "require"), rp, kids.items, kids.len, eff);
        free_bases(kids.items, kids.len);
        free(sp);
        free(rp);
    } else if (!strcmp(name, "unique") || !strcmp(name, "among")) {
        char *sp = xasprintf("%s/select", ap); /* relative ones start elsewhere (up, depth) */
        lint_select(l, json_object_get(arg, "select"), sp, NULL, 0, eff, NULL);
        free(sp);
    }
    free(ap);
}

/* The selectors of clause C (at POINTER), whose node is each of BASES, judged for the
 * versions OUTER narrowed by C's own `versions` (one the loader refuses narrows nothing). */
static void lint_clause_sels(struct sel_lint *l, json_t *c, const char *pointer, char **bases,
                             size_t nbases, ver_mask outer)
{
    if (!json_is_object(c)) return;
    ver_mask eff = outer, own_versions;
    json_t *vspec = json_object_get(c, "versions");
    if (vspec && ver_spec_parse(l->vl, vspec, &own_versions, NULL, NULL) == 0)
        eff = outer & own_versions;
    str_vec own = VEC_INIT;
    json_t *sel = json_object_get(c, "select");
    char **here = bases;
    size_t nhere = nbases;
    if (sel) {
        char *sp = xasprintf("%s/select", pointer);
        lint_select(l, sel, sp, bases, nbases, eff, &own);
        free(sp);
        here = own.items;
        nhere = own.len;
    }
    static const char *const preds[] = {"when", "require"};
    for (size_t k = 0; k < 2; k++) {
        char *pp = xasprintf("%s/%s", pointer, preds[k]);
        lint_pred_sels(l, json_object_get(c, preds[k]), pp, here, nhere, eff);
        free(pp);
    }
    static const char *const lists[] = {"all", "first"};
    for (size_t k = 0; k < 2; k++) {
        json_t *kids = json_object_get(c, lists[k]);
        for (size_t i = 0; json_is_array(kids) && i < json_array_size(kids); i++) {
            char *kp = xasprintf("%s/%s/%zu", pointer, lists[k], i);
            lint_clause_sels(l, json_array_get(kids, i), kp, here, nhere, eff);
            free(kp);
        }
    }
    free_bases(own.items, own.len);
}

void lint_selectors_check(struct sel_lint *s, const doc *d, json_t *check, const char *pointer,
                          ver_mask applies, const char *compare, struct diag_list *out)
{
    s->d = d;
    s->out = out;
    char *item =
        compare && strcmp(compare, "document") ? xasprintf("/%s/" SEL_ITEMS, compare) : xstrdup("");
    char *root[] = {item};
    lint_clause_sels(s, check, pointer, root, 1, applies);
    free(item);
}
