/* rulepage_html.c - the HTML rendering of rule pages, the index and the per-version pages:
 * one self-contained file each (inline stylesheet, no scripts, fonts or images), with
 * anchors on every section, a coloured applicability table and highlighted JSON. */
#include "author/rulepageInt.h"

#include <string.h>

#include "resolve/res.h"

static const char style[] =
    ":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0b57d0;"
    "--ok:#1a7f37;--ok-bg:#dafbe1;--bad:#cf222e;--bad-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;"
    "--na:#6e7781;--na-bg:#eef1f4}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;color:var(--fg);background:#fff;font:16px/1.6 system-ui,-apple-system,"
    "'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}\n"
    "a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}\n"
    "code,pre{font-family:ui-monospace,SFMono-Regular,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:.88em}\n"
    "code{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.05em "
    ".35em}\n"
    "pre code{background:none;border:0;border-radius:0;padding:0;font-size:1em}\n"
    "header.top{background:#0f172a;color:#e2e8f0;padding:.7rem 1.5rem;display:flex;gap:1.5rem;"
    "align-items:baseline;flex-wrap:wrap}\n"
    "header.top .brand{color:#fff;font-weight:700;font-size:1.1rem;letter-spacing:.02em}\n"
    "header.top a{color:#cbd5e1}header.top .tag{margin-left:auto;font-size:.85rem;color:#94a3b8}\n"
    "main{max-width:62rem;margin:0 auto;padding:1.5rem 1.5rem 4rem}\n"
    ".crumbs{font-size:.9rem;color:var(--muted);margin:0 0 .5rem}\n"
    "h1{font-size:1.7rem;line-height:1.25;margin:.2rem 0 1rem;word-break:break-word}\n"
    "h1 .id{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-weight:600}\n"
    "h2{font-size:1.25rem;margin:2.2rem 0 .8rem;padding-bottom:.3rem;border-bottom:1px solid "
    "var(--line)}\n"
    "h3{font-size:1.02rem;margin:1.4rem 0 .4rem}\n"
    "h2 a.anchor,h3 "
    "a.anchor{color:var(--line);margin-left:.4rem;font-weight:400;visibility:hidden}\n"
    "h2:hover a.anchor,h3:hover a.anchor{visibility:visible}\n"
    ".summary{font-size:1.07rem}\n"
    ".badge{display:inline-block;font:600 .75rem/1.4 system-ui,sans-serif;text-transform:uppercase;"
    "letter-spacing:.05em;padding:.15em "
    ".6em;border-radius:999px;vertical-align:middle;margin-left:.5rem}\n"
    ".badge.must{background:var(--bad-bg);color:var(--bad)}.badge.should{background:var(--warn-bg);"
    "color:var(--warn)}.badge.may{background:#ddf4ff;color:#0969da}\n"
    "blockquote.req{margin:0;padding:.8rem 1.1rem;border-left:4px solid "
    "var(--accent);background:#f0f6ff;"
    "border-radius:0 6px 6px 0;font-size:1.03rem}\n"
    "ul.details{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:1fr "
    "1fr;gap:.3rem 2rem}\n"
    "ul.details li{padding:.25rem 0;border-bottom:1px dashed var(--line)}\n"
    "ul.details .k{color:var(--muted);margin-right:.3rem}\n"
    "table{border-collapse:collapse;width:100%;font-size:.95rem}\n"
    "th,td{border:1px solid var(--line);padding:.45rem .6rem;text-align:left;vertical-align:top}\n"
    "th{background:var(--soft);font-weight:600}\n"
    "table.versions th,table.versions td{text-align:center;white-space:nowrap}\n"
    "td.applies{background:var(--ok-bg);color:var(--ok);font-weight:600}\n"
    "td.applies::before{content:'\\2713\\00a0'}\n"
    "td.na{background:var(--na-bg);color:var(--na)}\n"
    "td.na::before{content:'\\2013\\00a0'}\n"
    "ul.refs{padding-left:1.2rem}ul.refs li{margin:.35rem 0;word-break:break-word}\n"
    ".tier{font-size:.85rem;color:var(--muted)}\n"
    ".none{color:var(--muted);font-style:italic}\n"
    ".example{border:1px solid var(--line);border-left:5px solid var(--ok);border-radius:6px;"
    "margin:1rem 0;padding:.2rem 1rem .8rem}\n"
    ".example.invalid{border-left-color:var(--bad)}.example.warning{border-left-color:#d4a72c}."
    "example.info{border-left-color:#0969da}\n"
    ".example h3{margin-top:.7rem}\n"
    ".example.valid h3{color:var(--ok)}.example.invalid h3{color:var(--bad)}.example.warning "
    "h3{color:var(--warn)}.example.info h3{color:#0969da}\n"
    ".src{font-size:.9rem;color:var(--muted);margin:.2rem 0 .6rem}\n"
    "pre.json{background:var(--soft);border-radius:6px;padding:.8rem 1rem;overflow-x:auto;margin:0;"
    "line-height:1.45}\n"
    ".jk{color:#0550ae}.js{color:#0a3069}.jn{color:#953800}.jl{color:#cf222e;font-weight:600}\n"
    ".missing{color:var(--bad)}\n"
    "footer{max-width:62rem;margin:0 auto;padding:1rem 1.5rem "
    "2rem;color:var(--muted);font-size:.85rem;"
    "border-top:1px solid var(--line)}\n"
    "nav.versions a{display:inline-block;margin:.2rem .4rem .2rem 0;padding:.2rem .7rem;"
    "border:1px solid var(--line);border-radius:999px;background:var(--soft)}\n"
    "td.vers{white-space:nowrap;font-size:.85rem}\n"
    ".vbar{display:flex;gap:2px;margin-bottom:.25rem}\n"
    ".vbar i{display:block;width:1.1rem;height:.6rem;border-radius:2px;background:var(--na-bg);"
    "border:1px solid var(--line)}\n"
    ".vbar i.on{background:#4ac26b;border-color:#2da44e}\n"
    "table.rules{table-layout:fixed}table.rules th:first-child{width:32%}table.rules "
    "th:nth-child(2){width:6.5rem}"
    "table.rules th:nth-child(3){width:11rem}table.rules code{word-break:break-word}\n"
    "@media (max-width:40rem){ul.details{grid-template-columns:1fr}}\n";

static void esc(struct buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': buf_adds(out, "&amp;"); break;
        case '<': buf_adds(out, "&lt;"); break;
        case '>': buf_adds(out, "&gt;"); break;
        case '"': buf_adds(out, "&quot;"); break;
        default: buf_addc(out, s[i]);
        }
    }
}

static void escs(struct buf *out, const char *s)
{
    esc(out, s, strlen(s));
}

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* Prose with the ids of other rules linked to their pages. */
static void prose(struct rulepage_site *s, struct buf *out, const char *text, const char *self)
{
    const char *p = text;
    while (*p) {
        const struct rule *hit = NULL;
        if (p == text || !id_char(p[-1])) {
            for (size_t i = 0; i < rule_set_count(s->rs) && !hit; i++) {
                const struct rule *r = rule_set_rule(s->rs, i);
                if (!rulepage_shown(s, r)) continue;
                size_t n = strlen(rule_id(r));
                if (!strncmp(p, rule_id(r), n) && !(id_char(p[n]) && p[n] != '.') &&
                    !(p[n] == '.' && id_char(p[n + 1])))
                    hit = r;
            }
        }
        if (hit) {
            size_t n = strlen(rule_id(hit));
            if (self && !strcmp(self, rule_id(hit))) {
                buf_adds(out, "<code>");
                escs(out, rule_id(hit));
                buf_adds(out, "</code>");
            } else {
                buf_addf(out, "<a href=\"%s.html\"><code>", rule_id(hit));
                escs(out, rule_id(hit));
                buf_adds(out, "</code></a>");
            }
            p += n;
        } else {
            esc(out, p, 1);
            p++;
        }
    }
}

/* "surface-" and the surface name in lower case, other characters as '-'. */
static void surface_anchor(struct buf *out, const char *surface)
{
    buf_adds(out, "surface-");
    for (const char *p = surface; *p; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        buf_addc(out, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-');
    }
}

static int safe_url(const char *u)
{
    return !strncmp(u, "https://", 8) || !strncmp(u, "http://", 7);
}

/* A file of the project (a schema-map url): its path as text, no link (the pages are
 * written to any --out directory and published apart from the project). */
static void local_file(struct buf *out, const char *path)
{
    buf_adds(out, " (<code>");
    escs(out, path);
    buf_adds(out, "</code> in the project)");
}

static void link(struct buf *out, const char *url, const char *text)
{
    if (safe_url(url)) {
        buf_adds(out, "<a href=\"");
        escs(out, url);
        buf_adds(out, "\">");
        escs(out, text);
        buf_adds(out, "</a>");
    } else {
        escs(out, text);
    }
}

/* JSON text (jansson's indented output) with keys, strings, numbers and literals marked. */
static void json_html(struct buf *out, const char *j)
{
    const char *p = j;
    while (*p) {
        if (*p == '"') {
            const char *q = p + 1;
            while (*q && *q != '"') q += (*q == '\\' && q[1]) ? 2 : 1;
            if (*q) q++;
            const char *after = q;
            while (*after == ' ') after++;
            buf_addf(out, "<span class=\"%s\">", *after == ':' ? "jk" : "js");
            esc(out, p, (size_t)(q - p));
            buf_adds(out, "</span>");
            p = q;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            size_t n = strspn(p, "-+.eE0123456789");
            buf_adds(out, "<span class=\"jn\">");
            esc(out, p, n);
            buf_adds(out, "</span>");
            p += n;
        } else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4) || !strncmp(p, "false", 5)) {
            size_t n = p[0] == 'f' ? 5 : 4;
            buf_adds(out, "<span class=\"jl\">");
            esc(out, p, n);
            buf_adds(out, "</span>");
            p += n;
        } else {
            esc(out, p, 1);
            p++;
        }
    }
}

static void head(struct rulepage_site *s, struct buf *out, const char *title)
{
    buf_adds(out,
             "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    escs(out, title);
    buf_adds(out, " · mcpdesc rules</title>\n<style>\n");
    buf_adds(out, style);
    buf_adds(
        out,
        "</style>\n</head>\n<body>\n<header class=\"top\"><a class=\"brand\" href=\"index.html\">"
        "{mcpdesc}</a><a href=\"index.html\">Rules</a>");
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_addf(out, "<a href=\"version-%s.html\">Protocol versions</a><span class=\"tag\">",
             vl->names[vl->n - 1]);
    escs(out, rule_set_name(s->rs));
    buf_adds(out, " · ");
    escs(out, rule_set_display_tag(s->rs));
    buf_adds(out, "</span></header>\n<main>\n");
}

static void foot(struct rulepage_site *s, struct buf *out)
{
    buf_adds(out, "</main>\n<footer>Rendered by <code>mcpdesc rules docs</code> from ");
    escs(out, rule_set_name(s->rs));
    buf_adds(out, " at tag <code>");
    escs(out, rule_set_display_tag(s->rs));
    buf_adds(out, "</code> (");
    escs(out, rule_set_digest(s->rs));
    buf_adds(out, ").</footer>\n</body>\n</html>\n");
}

static void h2(struct buf *out, const char *anchor, const char *title)
{
    buf_addf(out, "<section id=\"%s\">\n<h2>", anchor);
    escs(out, title);
    buf_addf(out,
             "<a class=\"anchor\" href=\"#%s\" aria-label=\"link to this section\">#</a></h2>\n",
             anchor);
}

static void detail(struct buf *out, const char *k1, const char *v1, const char *k2, const char *v2,
                   int code)
{
    buf_addf(out, "<li><span class=\"k\">%s:</span> %s", k1, code ? "<code>" : "");
    escs(out, v1);
    if (code) buf_adds(out, "</code>");
    if (k2) {
        buf_addf(out, " · <span class=\"k\">%s:</span> ", k2);
        escs(out, v2);
    }
    buf_adds(out, "</li>\n");
}

static void html_top(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    head(s, out, p->id);
    buf_adds(out, "<p class=\"crumbs\"><a href=\"index.html\">Rules</a> › <a href=\"index.html#");
    surface_anchor(out, p->surface);
    buf_adds(out, "\">");
    escs(out, p->surface);
    buf_adds(out, "</a></p>\n<h1 id=\"top\"><span class=\"id\">");
    escs(out, p->id);
    buf_addf(out, "</span><span class=\"badge %s\">%s</span></h1>\n<p class=\"summary\">", p->level,
             p->level);
    prose(s, out, p->summary, p->id);
    buf_adds(out, "</p>\n");
}

static void html_section(const struct rulepage_section *sec, struct buf *out)
{
    h2(out, sec->anchor, sec->title);
}

static void html_requirement(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    buf_adds(out, "<blockquote class=\"req\">");
    prose(s, out, p->requirement, p->id);
    buf_adds(out, "</blockquote>\n");
}

static void html_details(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_adds(out, "<ul class=\"details\">\n");
    for (size_t i = 0; i < RULEPAGE_NDETAILS; i++) {
        const struct rulepage_detail *d = &p->details[i];
        detail(out, d->key, d->value, d->key2, d->value2, d->code);
    }
    if (p->preset_reason)
        detail(out, "Preset", p->preset, "Not in recommended (the default)", p->preset_reason, 0);
    else detail(out, "Preset", "recommended (the default)", NULL, NULL, 0);
    buf_adds(out, "</ul>\n");
}

static void html_applicability(struct rulepage_site *s, const struct rulepage_page *p,
                               struct buf *out)
{
    const struct ver_list *vl = p->versions;
    buf_adds(out, "<table class=\"versions\">\n<tr>");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, "<th><a href=\"version-%s.html\">%s</a></th>", vl->names[i], vl->names[i]);
    buf_adds(out, "</tr>\n<tr>");
    for (size_t i = 0; i < vl->n; i++)
        buf_adds(out,
                 p->applies >> i & 1 ? "<td class=\"applies\">applies</td>"
                                     : "<td class=\"na\">not-applicable</td>");
    buf_adds(out, "</tr>\n</table>\n");
}

static void html_required_by(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    if (!p->required_by.len) {
        buf_adds(out, "<p class=\"none\">Not recorded.</p>\n");
        return;
    }
    buf_adds(out, "<ul class=\"refs\">\n");
    for (size_t i = 0; i < p->required_by.len; i++) {
        buf_adds(out, "<li>");
        escs(out, p->required_by.items[i]);
        buf_adds(out, "</li>\n");
    }
    buf_adds(out, "</ul>\n");
}

static void html_based_on(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_adds(out, "<ul class=\"refs\">\n");
    for (size_t i = 0; i < p->based_on.len; i++) {
        const struct rulepage_source *src = &p->based_on.items[i];
        buf_adds(out, "<li>");
        if (src->text) {
            buf_addf(out, "<span class=\"tier\">Tier %ld", src->tier);
            if (src->tier_name) {
                buf_adds(out, " — ");
                escs(out, src->tier_name);
            }
            buf_adds(out, ":</span> ");
            if (src->local) {
                escs(out, src->text);
                local_file(out, src->local);
            } else if (src->url) {
                link(out, src->url, src->text);
            } else {
                escs(out, src->text);
            }
        } else if (src->local) {
            local_file(out, src->local);
        } else if (src->url) {
            link(out, src->url, src->url);
        }
        buf_adds(out, "</li>\n");
    }
    buf_adds(out, "</ul>\n");
}

static void html_gaps(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->gaps.len) buf_adds(out, "<p class=\"none\">None recorded.</p>\n");
    for (size_t i = 0; i < p->gaps.len; i++) {
        buf_adds(out, "<p>");
        prose(s, out, p->gaps.items[i], p->id);
        buf_adds(out, "</p>\n");
    }
}

static void html_examples(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->examples.len) buf_adds(out, "<p class=\"none\">None recorded.</p>\n");
    for (size_t i = 0; i < p->examples.len; i++) {
        const struct rulepage_example *x = &p->examples.items[i];
        buf_addf(out,
                 "<div class=\"example %s\" id=\"example-%zu\">\n<h3>%s<a class=\"anchor\" "
                 "href=\"#example-%zu\">#</a></h3>\n<p class=\"src\">Source: <code>",
                 x->kind, i + 1, x->title, i + 1);
        escs(out, x->fixture);
        buf_adds(out, "</code> · Selected: <code>");
        escs(out, x->pointer);
        buf_adds(out, "</code>");
        if (x->together) {
            buf_adds(out, " · Judged together with: <code>");
            escs(out, x->together);
            buf_adds(out, "</code>");
        }
        if (x->compared) {
            buf_adds(out, " · ");
            escs(out, x->compared);
        }
        buf_adds(out, "</p>\n");
        if (x->json) {
            buf_adds(out, "<pre class=\"json\"><code>");
            json_html(out, x->json);
            buf_adds(out, "</code></pre>\n");
        } else {
            buf_adds(out, "<p class=\"missing\">Cannot be shown: ");
            escs(out, x->problem);
            buf_adds(out, ".</p>\n");
        }
        buf_adds(out, "</div>\n");
    }
}

static void html_source_code(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    buf_adds(out, "<p><code>");
    escs(out, p->file);
    buf_addf(out, "</code> %s <code>", rulepage_source_at(p));
    escs(out, p->tag);
    if (p->set_name) {
        buf_adds(out, "</code> of <code>");
        escs(out, p->set_name);
    }
    buf_addf(out, "</code>%s.</p>\n", p->released ? "" : rulepage_not_released);
}

static void html_bottom(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    foot(s, out);
}

static const struct rulepage_renderer html_renderer = {
    .top = html_top,
    .heading = html_section,
    .part =
        {
            [RULEPAGE_REQUIREMENT] = html_requirement,
            [RULEPAGE_DETAILS] = html_details,
            [RULEPAGE_APPLICABILITY] = html_applicability,
            [RULEPAGE_REQUIRED_BY] = html_required_by,
            [RULEPAGE_BASED_ON] = html_based_on,
            [RULEPAGE_GAPS] = html_gaps,
            [RULEPAGE_EXAMPLES] = html_examples,
            [RULEPAGE_SOURCE] = html_source_code,
        },
    .section_end = "</section>\n",
    .bottom = html_bottom,
};

void rulepage_rule_html(struct rulepage_site *s, const struct rule *r, struct buf *out)
{
    rulepage_render(s, r, &html_renderer, out);
}

static void rule_table(struct rulepage_site *s, struct buf *out, const char *surface, int vi)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_adds(out,
             "<table "
             "class=\"rules\">\n<tr><th>Rule</th><th>Level</th><th>Versions</th><th>Requirement</"
             "th></tr>\n");
    for (size_t i = 0; i < rule_set_count(s->rs); i++) {
        const struct rule *r = rule_set_rule(s->rs, i);
        if (!rulepage_shown(s, r)) continue;
        if (strcmp(rule_str(r, "surface"), surface)) continue;
        if (vi >= 0 && !(rule_applies(r) >> vi & 1)) continue;
        buf_addf(out,
                 "<tr><td><a href=\"%s.html\"><code>%s</code></a></td><td><span class=\"badge "
                 "%s\">%s</span></td>"
                 "<td class=\"vers\"><span class=\"vbar\">",
                 rule_id(r), rule_id(r), rulepage_level_word(r), rulepage_level_word(r));
        for (size_t k = 0; k < vl->n; k++)
            buf_addf(out, "<i class=\"%s\" title=\"%s: %s\"></i>",
                     rule_applies(r) >> k & 1 ? "on" : "off", vl->names[k],
                     rule_applies(r) >> k & 1 ? "applies" : "not-applicable");
        buf_adds(out, "</span>");
        struct buf spec = BUF_INIT;
        ver_spec_format(&spec, vl, rule_applies(r));
        escs(out, buf_str(&spec));
        buf_release(&spec);
        buf_adds(out, "</td><td>");
        escs(out, rule_str(r, "requirement") ? rule_str(r, "requirement") : "");
        buf_adds(out, "</td></tr>\n");
    }
    buf_adds(out, "</table>\n");
}

static void version_nav(struct rulepage_site *s, struct buf *out)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_adds(out, "<nav class=\"versions\">");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, "<a href=\"version-%s.html\">MCP %s</a>", vl->names[i], vl->names[i]);
    buf_adds(out, "</nav>\n");
}

void rulepage_index_html(struct rulepage_site *s, struct buf *out)
{
    head(s, out, "All rules");
    buf_adds(out, "<h1>");
    escs(out, rule_set_name(s->rs));
    buf_addf(out, " rules</h1>\n<p class=\"summary\">%zu rules at tag <code>",
             rulepage_rule_count(s));
    escs(out, rule_set_display_tag(s->rs));
    buf_adds(out,
             "</code>, grouped by the surface they judge. Each page gives the requirement, the "
             "protocol versions it applies to, its sources and examples from the conformance "
             "fixtures.</p>\n");
    h2(out, "versions", "Protocol versions");
    version_nav(s, out);
    buf_adds(out, "</section>\n");
    for (size_t k = 0; k < s->surfaces.len; k++) {
        struct buf a = BUF_INIT;
        surface_anchor(&a, s->surfaces.items[k]);
        h2(out, buf_str(&a), s->surfaces.items[k]);
        buf_release(&a);
        rule_table(s, out, s->surfaces.items[k], -1);
        buf_adds(out, "</section>\n");
    }
    h2(out, "built-in", "Built-in rules");
    buf_adds(out,
             "<p>Judged before any rule runs; <code>mcpdesc validate --rule</code> and "
             "<code>--skip</code> select them like any other.</p>\n<table>\n<tr><th>Rule</th>"
             "<th>Level</th><th>What</th></tr>\n");
    for (size_t i = 0; i < res_nbuiltins; i++) {
        const char *lvl = rulepage_level_word_of(res_builtins[i].level);
        buf_addf(out, "<tr><td><code>%s</code></td><td><span class=\"badge %s\">%s</span></td><td>",
                 res_builtins[i].id, lvl, diag_level_name(res_builtins[i].level));
        escs(out, res_builtins[i].summary);
        buf_adds(out, "</td></tr>\n");
    }
    buf_adds(out, "</table>\n</section>\n");
    foot(s, out);
}

void rulepage_version_html(struct rulepage_site *s, size_t vi, struct buf *out)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    char *title = xasprintf("MCP %s", vl->names[vi]);
    head(s, out, title);
    free(title);
    size_t n = rulepage_version_count(s, vi);
    buf_addf(out,
             "<p class=\"crumbs\"><a href=\"index.html\">Rules</a> › Protocol versions</p>\n"
             "<h1>MCP %s</h1>\n<p class=\"summary\">%zu of %zu rules apply to protocol version "
             "%s.</p>\n",
             vl->names[vi], n, rulepage_rule_count(s), vl->names[vi]);
    version_nav(s, out);
    for (size_t k = 0; k < s->surfaces.len; k++) {
        if (!rulepage_surface_count(s, s->surfaces.items[k], (int)vi)) continue;
        struct buf a = BUF_INIT;
        surface_anchor(&a, s->surfaces.items[k]);
        h2(out, buf_str(&a), s->surfaces.items[k]);
        buf_release(&a);
        rule_table(s, out, s->surfaces.items[k], (int)vi);
        buf_adds(out, "</section>\n");
    }
    if (n < rulepage_rule_count(s)) {
        h2(out, "not-applicable", "Not applicable");
        buf_adds(out, "<ul class=\"refs\">\n");
        for (size_t i = 0; i < rule_set_count(s->rs); i++) {
            const struct rule *r = rule_set_rule(s->rs, i);
            if (!rulepage_shown(s, r)) continue;
            if (!(rule_applies(r) >> vi & 1))
                buf_addf(out, "<li><a href=\"%s.html\"><code>%s</code></a></li>\n", rule_id(r),
                         rule_id(r));
        }
        buf_adds(out, "</ul>\n</section>\n");
    }
    foot(s, out);
}
