/* rulepage.c - the rule page model, built once per rule from its YAML mapping, the
 * manifest's tier names and the conformance fixtures, and the site it belongs to. The
 * renderers walk it: rulepage_text.c, rulepage_md.c, rulepage_html.c; rulepage_write.c
 * writes the site. Nothing here renders, so no renderer is called from here. */
#include "author/rulepageInt.h"
#include "base/buf.h"
#include "base/display.h"

#include <string.h>

#define RULEPAGE_SECTION_ROW(name, title, anchor) {RULEPAGE_##name, title, anchor},
const struct rulepage_section rulepage_section_list[RULEPAGE_NPARTS] = {
    RULEPAGE_SECTIONS(RULEPAGE_SECTION_ROW)};
#undef RULEPAGE_SECTION_ROW

#define RULEPAGE_SECTION_TITLE(name, title, anchor) title,
const char *const rulepage_sections[] = {RULEPAGE_SECTIONS(RULEPAGE_SECTION_TITLE) NULL};
#undef RULEPAGE_SECTION_TITLE

/* ---- site and page model --------------------------------------------------------- */

static void collect_surfaces(struct rulepage_site *s);

struct rulepage_site *rulepage_site_new(const struct rule_set *rs, const char *fixtures)
{
    struct rulepage_site *s = xcalloc(1, sizeof *s);
    s->rs = rs;
    s->fx = fixtures_new(fixtures, rs);
    collect_surfaces(s);
    return s;
}

/* The surfaces of the rules the site shows, in order of first appearance. */
static void collect_surfaces(struct rulepage_site *s)
{
    s->surfaces.len = 0;
    for (size_t i = 0; i < rule_set_count(s->rs); i++) {
        if (!rulepage_shown(s, rule_set_rule(s->rs, i))) continue;
        const char *surf = rule_str(rule_set_rule(s->rs, i), "surface");
        int seen = 0;
        for (size_t k = 0; k < s->surfaces.len && !seen; k++)
            seen = !strcmp(s->surfaces.items[k], surf);
        if (!seen) VEC_PUSH(s->surfaces, surf);
    }
}

void rulepage_site_own(struct rulepage_site *s)
{
    s->own = 1;
    collect_surfaces(s);
}

int rulepage_shown(const struct rulepage_site *s, const struct rule *r)
{
    if (!s->own) return 1;
    return rule_origin(r) == s->rs || rule_level_set(r) == s->rs || rule_preset_set(r) == s->rs;
}

size_t rulepage_rule_count(const struct rulepage_site *s)
{
    size_t n = 0;
    for (size_t i = 0; i < rule_set_count(s->rs); i++)
        n += rulepage_shown(s, rule_set_rule(s->rs, i));
    return n;
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
    return rule_off(r) ? "off" : rulepage_level_word_of(rule_level(r)); /* an override's off */
}

const char *rulepage_level_word_of(enum diag_level level)
{
    switch (level) {
    case DIAG_ERROR: return "must";
    case DIAG_WARNING: return "should";
    default: return "may";
    }
}

/* "Valid example", "Invalid example", "Warning example", "Info example" */
static const char *example_title(const char *expect)
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

/* The class of an example: its expect, any other word as "valid" (as its title). */
static const char *example_kind(const char *expect)
{
    static const char *const kinds[] = {"invalid", "warning", "info"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(expect, kinds[i])) return kinds[i];
    return "valid";
}

static const char *str_or(json_t *o, const char *k, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : dflt;
}

/* R's page: every section's content, built once; rulepage_render walks it. */
static void page_init(struct rulepage_site *s, const struct rule *r, struct rulepage_page *p)
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
    if (rule_level_overridden(r)) {
        const struct rule_set *by = rule_level_set(r);
        p->level_text = xasprintf("%s (base: %s; %s by %s %s: %s)", p->level,
                                  rulepage_level_word_of(rule_file_level(r)),
                                  rule_off(r) ? "turned off" : "overridden", rule_set_name(by),
                                  rule_set_display_tag(by), rule_level_reason(r));
    } else {
        p->level_text = xstrdup(p->level);
    }
    p->status = str_or(m, "status", "");
    p->enforcement = str_or(m, "enforcement", "");
    p->preset = rule_preset_name(rule_preset(r));
    p->preset_reason = rule_preset_reason(r);
    if (rule_preset_overridden(r)) {
        const struct rule_set *by = rule_preset_set(r);
        p->preset_owned = xasprintf("%s (base: %s; moved by %s %s)", p->preset,
                                    rule_preset_name(rule_file_preset(r)), rule_set_name(by),
                                    rule_set_display_tag(by));
        p->preset = p->preset_owned;
        if (rule_preset(r) == RULE_PRESET_RECOMMENDED) p->preset_reason = NULL; /* it is in */
    }
    if (rule_off(r)) { /* no preset runs it */
        p->preset = "none";
        p->preset_reason = rule_level_reason(r);
    }
    p->file = rule_file(r);
    /* the rule's own set: a base set's rule keeps its tag and tier names */
    const struct rule_set *origin = rule_origin(r) ? rule_origin(r) : s->rs;
    p->tag = rule_set_display_tag(origin);
    p->released = rule_set_released_tag(origin) != NULL;
    p->set_name = rule_set_base(origin) ? rule_set_name(origin) : NULL;
    p->versions = rule_set_versions(s->rs);
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
    const struct rulepage_detail details[RULEPAGE_NDETAILS] = {
        {"Rule ID", p->id, NULL, NULL, 1},
        {"Owner", p->owner, NULL, NULL, 0},
        {"Surface", p->surface, "Path", p->paths, 0},
        {"Kind", p->kind, rule_category(r) ? "Category" : NULL,
         rule_category_name(rule_category(r)), 0}, /* a change rule's (mcpdesc diff) */
        {"Requirement level", p->level_text, NULL, NULL, 0},
        {"Status", p->status, "Enforcement", p->enforcement, 0},
    };
    memcpy(p->details, details, sizeof details);
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
        const char *expect = str_or(e, "expect", "valid");
        struct rulepage_example x = {expect,
                                     str_or(e, "fixture", ""),
                                     str_or(e, "pointer", ""),
                                     example_kind(expect),
                                     example_title(expect),
                                     NULL,
                                     NULL,
                                     NULL,
                                     NULL};
        json_t *tg = json_object_get(e, "together"), *t;
        size_t k;
        struct buf with = BUF_INIT;
        json_array_foreach(tg, k, t) if (json_is_string(t))
            buf_addf(&with, "%s%s", with.len ? ", " : "", json_string_value(t));
        x.together = with.len ? buf_detach(&with) : (buf_release(&with), NULL);
        const char *old = json_string_value(json_object_get(e, "old"));
        const char *absent = json_string_value(json_object_get(e, "absent"));
        x.compared = old ? xasprintf("compared with the old description %s", old)
            : !absent    ? NULL
            : !strcmp(absent, "old")
            ? xstrdup("no old description: the fixture is a description added")
            : xstrdup("no new description: the fixture (the old one) was removed");
        char *problem = NULL;
        json_t *v;
        fixtures_lookup(rule_fixtures(s, r), x.fixture, x.pointer, &v, &problem);
        if (v) {
            /* hidden characters escaped (display.h): a page about a right-to-left
             * override shows "\u202E", and its own text is not reordered by it */
            char *raw = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY);
            struct buf shown = BUF_INIT;
            /* line by line: jansson escapes a line break inside a string, so every
             * line feed of RAW is its indentation's */
            for (const char *l = raw; l && *l;) {
                const char *nl = strchr(l, '\n');
                size_t n = nl ? (size_t)(nl - l) : strlen(l);
                display_add(&shown, l, n);
                if (nl) buf_adds(&shown, "\n");
                l += n + (nl != NULL);
            }
            free(raw);
            x.json = raw ? buf_detach(&shown) : NULL;
        } else {
            x.problem = problem;
            add_problem(s, xasprintf("%s: example %zu: %s", p->id, i + 1, problem));
            problem = NULL;
        }
        free(problem);
        VEC_PUSH(p->examples, x);
    }
}

static void page_release(struct rulepage_page *p)
{
    free(p->paths);
    free(p->level_text);
    free(p->preset_owned);
    for (size_t i = 0; i < p->required_by.len; i++) free(p->required_by.items[i]);
    VEC_FREE(p->required_by);
    for (size_t i = 0; i < p->based_on.len; i++) free(p->based_on.items[i].local);
    VEC_FREE(p->based_on);
    VEC_FREE(p->gaps);
    for (size_t i = 0; i < p->examples.len; i++) {
        free(p->examples.items[i].json);
        free(p->examples.items[i].problem);
        free(p->examples.items[i].together);
        free(p->examples.items[i].compared);
    }
    VEC_FREE(p->examples);
}

const char rulepage_not_released[] =
    " (not a released tag: no lock of its tag records these files)";

const char *rulepage_source_at(const struct rulepage_page *p)
{
    return p->released ? "at immutable tag" : "at";
}

void rulepage_render(struct rulepage_site *s, const struct rule *r,
                     const struct rulepage_renderer *renderer, struct buf *out)
{
    struct rulepage_page p;
    page_init(s, r, &p);
    if (renderer->top) renderer->top(s, &p, out);
    for (size_t i = 0; i < RULEPAGE_NPARTS; i++) {
        const struct rulepage_section *sec = &rulepage_section_list[i];
        renderer->heading(sec, out);
        renderer->part[sec->part](s, &p, out);
        if (renderer->section_end) buf_adds(out, renderer->section_end);
    }
    if (renderer->bottom) renderer->bottom(s, &p, out);
    page_release(&p);
}

size_t rulepage_surface_count(const struct rulepage_site *s, const char *surface, int vi)
{
    size_t n = 0;
    for (size_t i = 0; i < rule_set_count(s->rs); i++) {
        const struct rule *r = rule_set_rule(s->rs, i);
        if (!rulepage_shown(s, r)) continue;
        n += !strcmp(rule_str(r, "surface"), surface) && (vi < 0 || (rule_applies(r) >> vi & 1));
    }
    return n;
}

size_t rulepage_version_count(const struct rulepage_site *s, size_t vi)
{
    size_t n = 0;
    for (size_t i = 0; i < rule_set_count(s->rs); i++)
        n += rulepage_shown(s, rule_set_rule(s->rs, i)) &&
            (rule_applies(rule_set_rule(s->rs, i)) >> vi & 1);
    return n;
}
