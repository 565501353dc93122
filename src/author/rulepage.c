/* rulepage.c - the rule page model (built from the rule's YAML mapping, the manifest's tier
 * names and the conformance fixtures), its terminal and Markdown renderings, the index
 * and per-version pages in Markdown, and writing the whole site; HTML is rulepage_html.c. */
#include "author/rulepageInt.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "core/res.h"

const char *const rulepage_sections[] = {
    "Requirement", "Details",          "Protocol version applicability",
    "Required by", "Based on",         "Gaps and arbitrations",
    "Examples",    "Rule Source Code", NULL};

/* ---- site and page model --------------------------------------------------------- */

struct rulepage_site *rulepage_site_new(const struct rule_set *rs, const char *fixtures)
{
    struct rulepage_site *s = xcalloc(1, sizeof *s);
    s->rs = rs;
    s->fx = fixtures_new(fixtures, rs);
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const char *surf = rule_str(rule_set_rule(rs, i), "surface");
        int seen = 0;
        for (size_t k = 0; k < s->surfaces.len && !seen; k++)
            seen = !strcmp(s->surfaces.items[k], surf);
        if (!seen) VEC_PUSH(s->surfaces, surf);
    }
    return s;
}

void rulepage_site_free(struct rulepage_site *s)
{
    if (!s) return;
    fixtures_free(s->fx);
    for (size_t i = 0; i < s->base_fx.len; i++) fixtures_free(s->base_fx.items[i].fx);
    VEC_FREE(s->base_fx);
    for (size_t i = 0; i < s->problems.len; i++) free(s->problems.items[i]);
    VEC_FREE(s->problems);
    VEC_FREE(s->surfaces);
    free(s);
}

size_t rulepage_problem_count(const struct rulepage_site *s)
{
    return s->problems.len;
}
const char *rulepage_problem(const struct rulepage_site *s, size_t i)
{
    return s->problems.items[i];
}

static void add_problem(struct rulepage_site *s, char *msg)
{
    for (size_t i = 0; i < s->problems.len; i++)
        if (!strcmp(s->problems.items[i], msg)) {
            free(msg);
            return;
        }
    VEC_PUSH(s->problems, msg);
}

const char *rulepage_level_word(const struct rule *r)
{
    switch (rule_level(r)) {
    case DIAG_ERROR: return "must";
    case DIAG_WARNING: return "should";
    default: return "may";
    }
}

const char *rulepage_example_title(const char *expect)
{
    if (!strcmp(expect, "invalid")) return "Invalid example";
    if (!strcmp(expect, "warning")) return "Warning example";
    if (!strcmp(expect, "info")) return "Info example";
    return "Valid example";
}

/* Where R's examples resolve: the site's fixtures for the set's own rules, the rule's own
 * set's fixtures directory for a base set's rule. */
static struct fixtures *rule_fixtures(struct rulepage_site *s, const struct rule *r)
{
    const struct rule_set *o = rule_origin(r);
    if (!o || o == s->rs) return s->fx;
    for (size_t i = 0; i < s->base_fx.len; i++)
        if (s->base_fx.items[i].rs == o) return s->base_fx.items[i].fx;
    char *dir = rule_origin_fixtures(r);
    struct rulepage_origin_fx ofx = {o, fixtures_new(dir, o)};
    free(dir);
    VEC_PUSH(s->base_fx, ofx);
    return ofx.fx;
}

static const char *str_or(json_t *o, const char *k, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : dflt;
}

void rulepage_page_init(struct rulepage_site *s, const struct rule *r, struct rulepage_page *p)
{
    memset(p, 0, sizeof *p);
    json_t *m = rule_meta(r);
    p->r = r;
    p->id = rule_id(r);
    p->summary = str_or(m, "summary", "");
    p->requirement = str_or(m, "requirement", "");
    p->owner = str_or(m, "owner", "");
    p->surface = str_or(m, "surface", "");
    p->kind = str_or(m, "kind", "");
    p->level = rulepage_level_word(r);
    p->status = str_or(m, "status", "");
    p->enforcement = str_or(m, "enforcement", "");
    p->preset = rule_preset_name(rule_preset(r));
    p->preset_reason = rule_preset_reason(r);
    p->file = rule_file(r);
    /* the rule's own set: a base set's rule keeps its tag and tier names */
    const struct rule_set *origin = rule_origin(r) ? rule_origin(r) : s->rs;
    p->tag = rule_set_display_tag(origin);
    p->released = rule_set_released_tag(origin) != NULL;
    p->set_name = rule_set_base(origin) ? rule_set_name(origin) : NULL;
    p->applies = rule_applies(r);
    struct buf b = BUF_INIT;
    json_t *paths = json_object_get(m, "paths");
    for (size_t i = 0; json_is_array(paths) && i < json_array_size(paths); i++) {
        const char *path = json_string_value(json_array_get(paths, i));
        /* "" is a real path (the document itself); an empty list is "—" */
        buf_addf(&b, "%s%s", i ? ", " : "", path && *path ? path : "\"\" (the document root)");
    }
    if (b.len) {
        p->paths = buf_detach(&b);
    } else {
        buf_release(&b);
        p->paths = xstrdup("—");
    }
    json_t *rb = json_object_get(m, "required-by");
    for (size_t i = 0; json_is_array(rb) && i < json_array_size(rb); i++) {
        json_t *e = json_array_get(rb, i);
        const char *title = str_or(e, "title", NULL), *req = str_or(e, "requirement", NULL);
        const char *docn = str_or(e, "document", ""), *sec = str_or(e, "section", "");
        char *line;
        if (req && title) line = xasprintf("%s: %s", title, req);
        else if (req) line = xasprintf("%s, Section %s: %s", docn, sec, req);
        else if (title) line = xasprintf("%s, Section %s (%s)", docn, sec, title);
        else line = xasprintf("%s, Section %s", docn, sec);
        if (!strncmp(docn, "MCP Description ", 16) && *sec) {
            /* the format's reference keeps the numbers rules cite (tests/format-sections.sh) */
            char *with = xasprintf("%s (docs/format.md#section-%s in the project)", line, sec);
            free(line);
            line = with;
        }
        VEC_PUSH(p->required_by, line);
    }
    json_t *bo = json_object_get(m, "based-on");
    for (size_t i = 0; json_is_array(bo) && i < json_array_size(bo); i++) {
        json_t *e = json_array_get(bo, i);
        struct rulepage_source src;
        src.tier = (long)json_integer_value(json_object_get(e, "tier"));
        src.tier_name = rule_set_tier_name(origin, src.tier);
        src.text = str_or(e, "text", NULL);
        src.url = str_or(e, "url", NULL);
        src.local = src.url ? rule_set_local_url(origin, src.url) : NULL;
        VEC_PUSH(p->based_on, src);
    }
    json_t *gaps = json_object_get(m, "gaps");
    for (size_t i = 0; json_is_array(gaps) && i < json_array_size(gaps); i++)
        VEC_PUSH(p->gaps, json_string_value(json_array_get(gaps, i)));
    json_t *ex = json_object_get(m, "examples");
    for (size_t i = 0; json_is_array(ex) && i < json_array_size(ex); i++) {
        json_t *e = json_array_get(ex, i);
        if (!strcmp(str_or(e, "expect", "valid"), "fix"))
            continue; /* a fix's fixture pair tests it; the page shows findings */
        struct rulepage_example x = {str_or(e, "expect", "valid"), str_or(e, "fixture", ""),
                                     str_or(e, "pointer", ""), NULL, NULL};
        char *problem = NULL;
        json_t *v;
        fixtures_lookup(rule_fixtures(s, r), x.fixture, x.pointer, &v, &problem);
        if (v) {
            x.json = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY);
        } else {
            x.problem = problem;
            add_problem(s, xasprintf("%s: example %zu: %s", p->id, i + 1, problem));
            problem = NULL;
        }
        free(problem);
        VEC_PUSH(p->examples, x);
    }
}

void rulepage_page_release(struct rulepage_page *p)
{
    free(p->paths);
    for (size_t i = 0; i < p->required_by.len; i++) free(p->required_by.items[i]);
    VEC_FREE(p->required_by);
    for (size_t i = 0; i < p->based_on.len; i++) free(p->based_on.items[i].local);
    VEC_FREE(p->based_on);
    VEC_FREE(p->gaps);
    for (size_t i = 0; i < p->examples.len; i++) {
        free(p->examples.items[i].json);
        free(p->examples.items[i].problem);
    }
    VEC_FREE(p->examples);
}

/* ---- terminal text ------------------------------------------------------------------ */

#define WIDTH 80

/* TEXT word-wrapped at WIDTH, continuation lines indented by HANG spaces. */
static void wrap(struct buf *out, const char *text, int hang)
{
    int col = 0, indent = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\n') p++;
        if (!*p) break;
        size_t n = strcspn(p, " \n");
        /* display width: count UTF-8 lead bytes only */
        int w = 0;
        for (size_t i = 0; i < n; i++) w += ((unsigned char)p[i] & 0xC0) != 0x80;
        if (col > indent && col + 1 + w > WIDTH) {
            buf_addc(out, '\n');
            col = 0;
            indent = hang;
        }
        if (col == 0) {
            for (int i = 0; i < indent; i++) buf_addc(out, ' ');
            col = indent;
        } else {
            buf_addc(out, ' ');
            col++;
        }
        buf_add(out, p, n);
        col += w;
        p += n;
    }
    buf_addc(out, '\n');
}

static void text_heading(struct buf *out, const char *title, char under)
{
    buf_addf(out, "\n%s\n", title);
    for (size_t i = 0; title[i]; i++)
        if (((unsigned char)title[i] & 0xC0) != 0x80) buf_addc(out, under);
    buf_addc(out, '\n');
}

static void text_source(struct buf *out, const struct rulepage_source *src)
{
    if (src->text) {
        struct buf line = BUF_INIT;
        buf_addf(&line, "- Tier %ld", src->tier);
        if (src->tier_name) buf_addf(&line, " — %s", src->tier_name);
        buf_addf(&line, ": %s", src->text);
        wrap(out, buf_str(&line), 2);
        buf_release(&line);
        if (src->local) buf_addf(out, "  %s (in the project)\n", src->local);
        else if (src->url) buf_addf(out, "  <%s>\n", src->url);
    } else if (src->local) {
        buf_addf(out, "- %s (in the project)\n", src->local);
    } else if (src->url) {
        buf_addf(out, "- %s\n", src->url);
    }
}

static void indent_block(struct buf *out, const char *text, const char *prefix)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        buf_adds(out, prefix);
        buf_add(out, p, n);
        buf_addc(out, '\n');
        p += n;
        if (*p) p++;
    }
}

void rulepage_rule_text(struct rulepage_site *s, const struct rule *r, struct buf *out)
{
    struct rulepage_page p;
    rulepage_page_init(s, r, &p);
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_addf(out, "%s\n", p.id);
    for (size_t i = 0; p.id[i]; i++) buf_addc(out, '=');
    buf_adds(out, "\n\n");
    wrap(out, p.summary, 0);
    text_heading(out, "Requirement", '-');
    wrap(out, p.requirement, 0);
    text_heading(out, "Details", '-');
    buf_addf(out,
             "Rule ID: %s\nOwner: %s\nSurface: %s · Path: %s\nKind: %s\nRequirement level: %s\n"
             "Status: %s · Enforcement: %s\n",
             p.id, p.owner, p.surface, p.paths, p.kind, p.level, p.status, p.enforcement);
    buf_addf(out, "Preset: %s%s\n", p.preset, p.preset_reason ? "" : " (the default)");
    if (p.preset_reason) {
        struct buf why = BUF_INIT;
        buf_addf(&why, "Not in recommended (the default): %s", p.preset_reason);
        wrap(out, buf_str(&why), 0);
        buf_release(&why);
    }
    text_heading(out, "Protocol version applicability", '-');
    for (size_t i = 0; i < vl->n; i++) buf_addf(out, i + 1 < vl->n ? "%-16s" : "%s", vl->names[i]);
    buf_addc(out, '\n');
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, i + 1 < vl->n ? "%-16s" : "%s",
                 p.applies >> i & 1 ? "applies" : "not-applicable");
    buf_addc(out, '\n');
    text_heading(out, "Required by", '-');
    if (!p.required_by.len) buf_adds(out, "Not recorded.\n");
    for (size_t i = 0; i < p.required_by.len; i++) {
        char *line = xasprintf("- %s", p.required_by.items[i]);
        wrap(out, line, 2);
        free(line);
    }
    text_heading(out, "Based on", '-');
    for (size_t i = 0; i < p.based_on.len; i++) text_source(out, &p.based_on.items[i]);
    text_heading(out, "Gaps and arbitrations", '-');
    if (!p.gaps.len) buf_adds(out, "None recorded.\n");
    for (size_t i = 0; i < p.gaps.len; i++) {
        if (i) buf_addc(out, '\n');
        wrap(out, p.gaps.items[i], 0);
    }
    text_heading(out, "Examples", '-');
    if (!p.examples.len) buf_adds(out, "None recorded.\n");
    for (size_t i = 0; i < p.examples.len; i++) {
        const struct rulepage_example *x = &p.examples.items[i];
        buf_addf(out, "%s%s\nSource: %s · Selected: %s\n", i ? "\n" : "",
                 rulepage_example_title(x->expect), x->fixture, x->pointer);
        if (x->json) indent_block(out, x->json, "    ");
        else buf_addf(out, "    (cannot be shown: %s)\n", x->problem);
    }
    text_heading(out, "Rule Source Code", '-');
    buf_addf(out, "%s %s %s%s%s%s.\n", p.file, rulepage_source_at(&p), p.tag,
             p.set_name ? " of " : "", p.set_name ? p.set_name : "",
             p.released ? "" : rulepage_not_released);
    rulepage_page_release(&p);
}

const char rulepage_not_released[] =
    " (not a released tag: no lock of its tag records these files)";

const char *rulepage_source_at(const struct rulepage_page *p)
{
    return p->released ? "at immutable tag" : "at";
}

/* ---- Markdown ----------------------------------------------------------------------- */

/* Text in a Markdown table cell: '|' escaped, newlines folded. */
static void md_cell(struct buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') buf_adds(out, "\\|");
        else if (*s == '\n') buf_addc(out, ' ');
        else buf_addc(out, *s);
    }
}

void rulepage_rule_markdown(struct rulepage_site *s, const struct rule *r, struct buf *out)
{
    struct rulepage_page p;
    rulepage_page_init(s, r, &p);
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_addf(out, "# %s\n\n[All rules](index.md) · %s rules\n\n%s\n\n", p.id, p.surface, p.summary);
    buf_addf(out, "## Requirement\n\n> %s\n\n", p.requirement);
    buf_addf(out,
             "## Details\n\n- Rule ID: `%s`\n- Owner: %s\n- Surface: %s · Path: %s\n- Kind: %s\n"
             "- Requirement level: %s\n- Status: %s · Enforcement: %s\n",
             p.id, p.owner, p.surface, p.paths, p.kind, p.level, p.status, p.enforcement);
    if (p.preset_reason)
        buf_addf(out, "- Preset: %s · not in recommended (the default): %s\n\n", p.preset,
                 p.preset_reason);
    else buf_addf(out, "- Preset: %s (the default)\n\n", p.preset);
    buf_adds(out, "## Protocol version applicability\n\n|");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, " [%s](version-%s.md) |", vl->names[i], vl->names[i]);
    buf_adds(out, "\n|");
    for (size_t i = 0; i < vl->n; i++) buf_adds(out, "---|");
    buf_adds(out, "\n|");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, " %s |", p.applies >> i & 1 ? "applies" : "not-applicable");
    buf_adds(out, "\n\n## Required by\n\n");
    if (!p.required_by.len) buf_adds(out, "Not recorded.\n");
    for (size_t i = 0; i < p.required_by.len; i++) buf_addf(out, "- %s\n", p.required_by.items[i]);
    buf_adds(out, "\n## Based on\n\n");
    for (size_t i = 0; i < p.based_on.len; i++) {
        const struct rulepage_source *src = &p.based_on.items[i];
        if (src->text) {
            buf_addf(out, "- Tier %ld", src->tier);
            if (src->tier_name) buf_addf(out, " — %s", src->tier_name);
            if (src->local) buf_addf(out, ": %s (`%s` in the project)\n", src->text, src->local);
            else if (src->url) buf_addf(out, ": [%s](%s)\n", src->text, src->url);
            else buf_addf(out, ": %s\n", src->text);
        } else if (src->local) {
            buf_addf(out, "- `%s` (in the project)\n", src->local);
        } else if (src->url) {
            buf_addf(out, "- <%s>\n", src->url);
        }
    }
    buf_adds(out, "\n## Gaps and arbitrations\n\n");
    if (!p.gaps.len) buf_adds(out, "None recorded.\n\n");
    for (size_t i = 0; i < p.gaps.len; i++) buf_addf(out, "%s\n\n", p.gaps.items[i]);
    buf_adds(out, "## Examples\n\n");
    if (!p.examples.len) buf_adds(out, "None recorded.\n\n");
    for (size_t i = 0; i < p.examples.len; i++) {
        const struct rulepage_example *x = &p.examples.items[i];
        buf_addf(out, "### %s\n\nSource: `%s` · Selected: `%s`\n\n",
                 rulepage_example_title(x->expect), x->fixture, x->pointer);
        if (x->json) buf_addf(out, "```json\n%s\n```\n\n", x->json);
        else buf_addf(out, "*Cannot be shown: %s.*\n\n", x->problem);
    }
    buf_addf(out, "## Rule Source Code\n\n`%s` %s `%s`%s%s%s%s.\n", p.file, rulepage_source_at(&p),
             p.tag, p.set_name ? " of `" : "", p.set_name ? p.set_name : "", p.set_name ? "`" : "",
             p.released ? "" : rulepage_not_released);
    rulepage_page_release(&p);
}

static void md_rule_table(struct rulepage_site *s, struct buf *out, const char *surface, int vi)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_adds(out, "| Rule | Level | Versions | Requirement |\n|---|---|---|---|\n");
    for (size_t i = 0; i < rule_set_count(s->rs); i++) {
        const struct rule *r = rule_set_rule(s->rs, i);
        if (strcmp(rule_str(r, "surface"), surface)) continue;
        if (vi >= 0 && !(rule_applies(r) >> vi & 1)) continue;
        buf_addf(out, "| [%s](%s.md) | %s | ", rule_id(r), rule_id(r), rulepage_level_word(r));
        struct buf spec = BUF_INIT;
        ver_spec_format(&spec, vl, rule_applies(r));
        md_cell(out, buf_str(&spec));
        buf_release(&spec);
        buf_adds(out, " | ");
        md_cell(out, rule_str(r, "requirement") ? rule_str(r, "requirement") : "");
        buf_adds(out, " |\n");
    }
    buf_addc(out, '\n');
}

void rulepage_index_markdown(struct rulepage_site *s, struct buf *out)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_addf(out, "# %s rules\n\nTag `%s` · digest `%s` · %zu rules\n\n", rule_set_name(s->rs),
             rule_set_display_tag(s->rs), rule_set_digest(s->rs), rule_set_count(s->rs));
    buf_adds(out, "Protocol versions:");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, "%s [%s](version-%s.md)", i ? " ·" : "", vl->names[i], vl->names[i]);
    buf_adds(out, "\n\n");
    for (size_t k = 0; k < s->surfaces.len; k++) {
        buf_addf(out, "## %s\n\n", s->surfaces.items[k]);
        md_rule_table(s, out, s->surfaces.items[k], -1);
    }
    buf_adds(out,
             "## Built-in rules\n\nJudged before any rule runs (`mcpdesc validate --rule`/`--skip` "
             "select them too).\n\n"
             "| Rule | Level | What |\n|---|---|---|\n");
    for (size_t i = 0; i < res_nbuiltins; i++) {
        buf_addf(out, "| `%s` | %s | ", res_builtins[i].id, diag_level_name(res_builtins[i].level));
        md_cell(out, res_builtins[i].summary);
        buf_adds(out, " |\n");
    }
}

void rulepage_version_markdown(struct rulepage_site *s, size_t vi, struct buf *out)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    size_t n = 0;
    for (size_t i = 0; i < rule_set_count(s->rs); i++)
        n += rule_applies(rule_set_rule(s->rs, i)) >> vi & 1;
    buf_addf(
        out,
        "# MCP %s\n\n[All rules](index.md) · %zu of %zu rules apply to protocol version %s.\n\n",
        vl->names[vi], n, rule_set_count(s->rs), vl->names[vi]);
    for (size_t k = 0; k < s->surfaces.len; k++) {
        size_t m = 0;
        for (size_t i = 0; i < rule_set_count(s->rs); i++) {
            const struct rule *r = rule_set_rule(s->rs, i);
            m += !strcmp(rule_str(r, "surface"), s->surfaces.items[k]) &&
                (rule_applies(r) >> vi & 1);
        }
        if (!m) continue;
        buf_addf(out, "## %s\n\n", s->surfaces.items[k]);
        md_rule_table(s, out, s->surfaces.items[k], (int)vi);
    }
    if (n < rule_set_count(s->rs)) {
        buf_adds(out, "## Not applicable\n\n");
        for (size_t i = 0; i < rule_set_count(s->rs); i++) {
            const struct rule *r = rule_set_rule(s->rs, i);
            if (!(rule_applies(r) >> vi & 1))
                buf_addf(out, "- [%s](%s.md)\n", rule_id(r), rule_id(r));
        }
    }
}

/* ---- files -------------------------------------------------------------------------- */

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
