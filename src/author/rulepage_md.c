/* rulepage_md.c - the Markdown rendering of rule pages, the index and the per-version
 * pages (`mcpdesc rules docs`), from the page model (rulepage.c). */
#include "author/rulepageInt.h"

#include <string.h>

#include "resolve/res.h"

/* Text in a Markdown table cell: '|' escaped, newlines folded. */
static void md_cell(struct buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') buf_adds(out, "\\|");
        else if (*s == '\n') buf_addc(out, ' ');
        else buf_addc(out, *s);
    }
}

static void md_top(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_addf(out, "# %s\n\n[All rules](index.md) · %s rules\n\n%s\n\n", p->id, p->surface,
             p->summary);
}

/* Every section's content ends in a blank line but the last, so headings are alike. */
static void md_section(const struct rulepage_section *sec, struct buf *out)
{
    buf_addf(out, "## %s\n\n", sec->title);
}

static void md_requirement(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_addf(out, "> %s\n\n", p->requirement);
}

static void md_details(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    for (size_t i = 0; i < RULEPAGE_NDETAILS; i++) {
        const struct rulepage_detail *d = &p->details[i];
        buf_addf(out, d->code ? "- %s: `%s`" : "- %s: %s", d->key, d->value);
        if (d->key2) buf_addf(out, " · %s: %s", d->key2, d->value2);
        buf_addc(out, '\n');
    }
    if (p->preset_reason)
        buf_addf(out, "- Preset: %s · not in recommended (the default): %s\n\n", p->preset,
                 p->preset_reason);
    else buf_addf(out, "- Preset: %s (the default)\n\n", p->preset);
}

static void md_applicability(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    const struct ver_list *vl = p->versions;
    buf_adds(out, "|");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, " [%s](version-%s.md) |", vl->names[i], vl->names[i]);
    buf_adds(out, "\n|");
    for (size_t i = 0; i < vl->n; i++) buf_adds(out, "---|");
    buf_adds(out, "\n|");
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, " %s |", p->applies >> i & 1 ? "applies" : "not-applicable");
    buf_adds(out, "\n\n");
}

static void md_required_by(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->required_by.len) buf_adds(out, "Not recorded.\n");
    for (size_t i = 0; i < p->required_by.len; i++)
        buf_addf(out, "- %s\n", p->required_by.items[i]);
    buf_addc(out, '\n');
}

static void md_based_on(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    for (size_t i = 0; i < p->based_on.len; i++) {
        const struct rulepage_source *src = &p->based_on.items[i];
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
    buf_addc(out, '\n');
}

static void md_gaps(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->gaps.len) buf_adds(out, "None recorded.\n\n");
    for (size_t i = 0; i < p->gaps.len; i++) buf_addf(out, "%s\n\n", p->gaps.items[i]);
}

static void md_examples(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->examples.len) buf_adds(out, "None recorded.\n\n");
    for (size_t i = 0; i < p->examples.len; i++) {
        const struct rulepage_example *x = &p->examples.items[i];
        buf_addf(out, "### %s\n\nSource: `%s` · Selected: `%s`", x->title, x->fixture, x->pointer);
        if (x->together) buf_addf(out, " · Judged together with: `%s`", x->together);
        if (x->compared) buf_addf(out, " · %s", x->compared);
        buf_adds(out, "\n\n");
        if (x->json) buf_addf(out, "```json\n%s\n```\n\n", x->json);
        else buf_addf(out, "*Cannot be shown: %s.*\n\n", x->problem);
    }
}

static void md_source_code(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_addf(out, "`%s` %s `%s`%s%s%s%s.\n", p->file, rulepage_source_at(p), p->tag,
             p->set_name ? " of `" : "", p->set_name ? p->set_name : "", p->set_name ? "`" : "",
             p->released ? "" : rulepage_not_released);
}

static const struct rulepage_renderer md_renderer = {
    .top = md_top,
    .heading = md_section,
    .part =
        {
            [RULEPAGE_REQUIREMENT] = md_requirement,
            [RULEPAGE_DETAILS] = md_details,
            [RULEPAGE_APPLICABILITY] = md_applicability,
            [RULEPAGE_REQUIRED_BY] = md_required_by,
            [RULEPAGE_BASED_ON] = md_based_on,
            [RULEPAGE_GAPS] = md_gaps,
            [RULEPAGE_EXAMPLES] = md_examples,
            [RULEPAGE_SOURCE] = md_source_code,
        },
};

void rulepage_rule_markdown(struct rulepage_site *s, const struct rule *r, struct buf *out)
{
    rulepage_render(s, r, &md_renderer, out);
}

static void md_rule_table(struct rulepage_site *s, struct buf *out, const char *surface, int vi)
{
    const struct ver_list *vl = rule_set_versions(s->rs);
    buf_adds(out, "| Rule | Level | Versions | Requirement |\n|---|---|---|---|\n");
    for (size_t i = 0; i < rule_set_count(s->rs); i++) {
        const struct rule *r = rule_set_rule(s->rs, i);
        if (!rulepage_shown(s, r)) continue;
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
             rule_set_display_tag(s->rs), rule_set_digest(s->rs), rulepage_rule_count(s));
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
    size_t n = rulepage_version_count(s, vi);
    buf_addf(
        out,
        "# MCP %s\n\n[All rules](index.md) · %zu of %zu rules apply to protocol version %s.\n\n",
        vl->names[vi], n, rulepage_rule_count(s), vl->names[vi]);
    for (size_t k = 0; k < s->surfaces.len; k++) {
        if (!rulepage_surface_count(s, s->surfaces.items[k], (int)vi)) continue;
        buf_addf(out, "## %s\n\n", s->surfaces.items[k]);
        md_rule_table(s, out, s->surfaces.items[k], (int)vi);
    }
    if (n < rulepage_rule_count(s)) {
        buf_adds(out, "## Not applicable\n\n");
        for (size_t i = 0; i < rule_set_count(s->rs); i++) {
            const struct rule *r = rule_set_rule(s->rs, i);
            if (!rulepage_shown(s, r)) continue;
            if (!(rule_applies(r) >> vi & 1))
                buf_addf(out, "- [%s](%s.md)\n", rule_id(r), rule_id(r));
        }
    }
}
