/* rulepage_text.c - the terminal rendering of a rule page (`mcpdesc rules explain`):
 * the page model (rulepage.c) as plain text, word-wrapped at 80 columns. */
#include "author/rulepageInt.h"

#include <string.h>

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

static void text_top(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    buf_addf(out, "%s\n", p->id);
    for (size_t i = 0; p->id[i]; i++) buf_addc(out, '=');
    buf_adds(out, "\n\n");
    wrap(out, p->summary, 0);
}

static void text_section(const struct rulepage_section *sec, struct buf *out)
{
    text_heading(out, sec->title, '-');
}

static void text_requirement(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    wrap(out, p->requirement, 0);
}

static void text_details(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    for (size_t i = 0; i < RULEPAGE_NDETAILS; i++) {
        const struct rulepage_detail *d = &p->details[i];
        buf_addf(out, "%s: %s", d->key, d->value);
        if (d->key2) buf_addf(out, " · %s: %s", d->key2, d->value2);
        buf_addc(out, '\n');
    }
    buf_addf(out, "Preset: %s%s\n", p->preset, p->preset_reason ? "" : " (the default)");
    if (p->preset_reason) {
        struct buf why = BUF_INIT;
        buf_addf(&why, "Not in recommended (the default): %s", p->preset_reason);
        wrap(out, buf_str(&why), 0);
        buf_release(&why);
    }
}

static void text_applicability(struct rulepage_site *s, const struct rulepage_page *p,
                               struct buf *out)
{
    const struct ver_list *vl = p->versions;
    for (size_t i = 0; i < vl->n; i++) buf_addf(out, i + 1 < vl->n ? "%-16s" : "%s", vl->names[i]);
    buf_addc(out, '\n');
    for (size_t i = 0; i < vl->n; i++)
        buf_addf(out, i + 1 < vl->n ? "%-16s" : "%s",
                 p->applies >> i & 1 ? "applies" : "not-applicable");
    buf_addc(out, '\n');
}

static void text_required_by(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    if (!p->required_by.len) buf_adds(out, "Not recorded.\n");
    for (size_t i = 0; i < p->required_by.len; i++) {
        char *line = xasprintf("- %s", p->required_by.items[i]);
        wrap(out, line, 2);
        free(line);
    }
}

static void text_based_on(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    for (size_t i = 0; i < p->based_on.len; i++) text_source(out, &p->based_on.items[i]);
}

static void text_gaps(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->gaps.len) buf_adds(out, "None recorded.\n");
    for (size_t i = 0; i < p->gaps.len; i++) {
        if (i) buf_addc(out, '\n');
        wrap(out, p->gaps.items[i], 0);
    }
}

static void text_examples(struct rulepage_site *s, const struct rulepage_page *p, struct buf *out)
{
    if (!p->examples.len) buf_adds(out, "None recorded.\n");
    for (size_t i = 0; i < p->examples.len; i++) {
        const struct rulepage_example *x = &p->examples.items[i];
        buf_addf(out, "%s%s\nSource: %s · Selected: %s", i ? "\n" : "", x->title, x->fixture,
                 x->pointer);
        if (x->together) buf_addf(out, " · Judged together with: %s", x->together);
        if (x->compared) buf_addf(out, " · %s", x->compared);
        buf_adds(out, "\n");
        if (x->json) indent_block(out, x->json, "    ");
        else buf_addf(out, "    (cannot be shown: %s)\n", x->problem);
    }
}

static void text_source_code(struct rulepage_site *s, const struct rulepage_page *p,
                             struct buf *out)
{
    buf_addf(out, "%s %s %s%s%s%s.\n", p->file, rulepage_source_at(p), p->tag,
             p->set_name ? " of " : "", p->set_name ? p->set_name : "",
             p->released ? "" : rulepage_not_released);
}

static const struct rulepage_renderer text_renderer = {
    .top = text_top,
    .heading = text_section,
    .part =
        {
            [RULEPAGE_REQUIREMENT] = text_requirement,
            [RULEPAGE_DETAILS] = text_details,
            [RULEPAGE_APPLICABILITY] = text_applicability,
            [RULEPAGE_REQUIRED_BY] = text_required_by,
            [RULEPAGE_BASED_ON] = text_based_on,
            [RULEPAGE_GAPS] = text_gaps,
            [RULEPAGE_EXAMPLES] = text_examples,
            [RULEPAGE_SOURCE] = text_source_code,
        },
};

void rulepage_rule_text(struct rulepage_site *s, const struct rule *r, struct buf *out)
{
    rulepage_render(s, r, &text_renderer, out);
}
