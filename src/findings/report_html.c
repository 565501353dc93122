/* report_html.c - one self-contained HTML page for people who would rather look than
 * read. It leads with the verdict (Passed or Failed, and what fails the run: the findings
 * at or above --fail-on and the input errors, as the exit status has them), then the
 * rule set, config and totals lines, the counts per level and per rule as CSS bars, the
 * findings grouped by file, the files that fail the run first (then by name), each
 * file's findings of one rule that repeat collapsed into one <details> ("rule ×12"), with
 * the source line and a caret, a link to each
 * rule page (docs-url + id + .html, as SARIF's helpUri; without a docs-url the rule's
 * requirement beside the finding instead), filters by level
 * and protocol version (a small inline script toggling a class), and the suppressed and
 * baselined findings of each file in a collapsed <details>. Inline CSS and script only:
 * a Content-Security-Policy forbids every load, so opening the page makes no request
 * (the rule page links are only followed when clicked). Everything from the inputs is
 * HTML-escaped; no date, so the same run gives the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "findings/report.h"
#include "resolve/res.h"
#include "base/display.h"
#include "base/loc.h"
#include "base/util.h"

/* Bytes of a source line shown around the column (minified JSON is one long line). */
enum { HTML_LINE_MAX = 240, HTML_LINE_BEFORE = 80 };

static void put_html_n(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; s && i < len; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        case '\0': break;
        default: fputc(s[i], out);
        }
    }
}

static void put_html(FILE *out, const char *s)
{
    if (s) put_html_n(out, s, strlen(s));
}

/* What FN writes to a FILE (the text format's lines), as a new string. */
static char *captured(const struct report_opts *o, const struct report_file *files, size_t n,
                      void (*fn)(const struct report_opts *), int summary)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return xstrdup("");
    struct report_opts c = *o;
    c.out = m;
    if (summary) report_summary(&c, files, n);
    else fn(&c);
    fclose(m);
    return text ? text : xstrdup("");
}

struct html_rule {
    const char *rule;
    enum diag_level level;
    size_t count;
};

struct html_rules {
    struct html_rule *items;
    size_t len, cap;
};

static void count_rule(struct html_rules *rules, const struct diag *d)
{
    const char *id = d->rule ? d->rule : REPORT_INPUT_RULE;
    for (size_t i = 0; i < rules->len; i++)
        if (!strcmp(rules->items[i].rule, id) && rules->items[i].level == d->level) {
            rules->items[i].count++;
            return;
        }
    struct html_rule r = {id, d->level, 1};
    VEC_PUSH(*rules, r);
}

/* errors first, then the most frequent, then by id (report_markdown.c's order) */
static int rule_cmp(const void *a, const void *b)
{
    const struct html_rule *x = a, *y = b;
    if (x->level != y->level) return x->level > y->level ? -1 : 1;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

static void bar(FILE *out, const char *cls, const char *label_html, size_t count, size_t max)
{
    unsigned pct = max ? (unsigned)((count * 1000 + max / 2) / max) : 0;
    fprintf(out,
            "<div class=\"row\"><span class=\"label\">%s</span><span class=\"track\"><span "
            "class=\"fill %s\" style=\"width:%u.%u%%\"></span></span><span "
            "class=\"num\">%zu</span></div>\n",
            label_html, cls, pct / 10, pct % 10, count);
}

/* What rule ID requires, shown beside a finding when there is no rule page to link to:
 * its requirement (else summary), a built-in's summary, or NULL. */
static const char *requirement(const struct rule_set *rs, const char *id)
{
    if (!strcmp(id, REPORT_INPUT_RULE)) return REPORT_INPUT_SUMMARY;
    const struct rule *r = rs ? rule_set_find(rs, id) : NULL;
    if (r) {
        const char *req = rule_str(r, "requirement");
        return req ? req : rule_str(r, "summary");
    }
    for (size_t i = 0; i < res_nbuiltins; i++)
        if (!strcmp(res_builtins[i].id, id)) return res_builtins[i].summary;
    return NULL;
}

static void excerpt(FILE *out, const doc *d, uint32_t line, uint32_t col)
{
    size_t len;
    const char *text = d ? doc_line(d, line, &len) : NULL;
    if (!text || col == 0) return;
    /* the byte where the col-th character starts */
    size_t at = 0;
    for (uint32_t c = 1; at < len && c < col; c++) {
        at++;
        while (at < len && ((unsigned char)text[at] & 0xC0) == 0x80) at++;
    }
    size_t from = 0, to = len;
    if (len > HTML_LINE_MAX) {
        from = at > HTML_LINE_BEFORE ? at - HTML_LINE_BEFORE : 0;
        while (from > 0 && ((unsigned char)text[from] & 0xC0) == 0x80) from--;
        to = from + HTML_LINE_MAX < len ? from + HTML_LINE_MAX : len;
        while (to < len && ((unsigned char)text[to] & 0xC0) == 0x80) to++;
    }
    size_t end = at;
    if (end < len) end++;
    while (end < len && ((unsigned char)text[end] & 0xC0) == 0x80) end++;
    if (end > to) end = to;
    /* hidden characters escaped (display.h): a right-to-left override would reorder the
     * line in the browser; the caret under the col-th character, tabs kept */
    struct buf before = BUF_INIT, mark = BUF_INIT, after = BUF_INIT, pad = BUF_INIT;
    display_add_line(&before, text + from, at - from, &pad);
    display_add_line(&mark, text + at, end - at, NULL);
    display_add_line(&after, text + end, to - end, NULL);
    fprintf(out, "<pre class=\"src\"><span class=\"ln\">%5u | </span>%s", line, from ? "…" : "");
    put_html_n(out, before.s, before.len);
    fputs("<mark>", out);
    put_html_n(out, mark.s, mark.len);
    fputs("</mark>", out);
    put_html_n(out, after.s, after.len);
    fprintf(out, "%s\n<span class=\"ln\">      | </span>%s%s", to < len ? "…" : "", from ? " " : "",
            buf_str(&pad));
    fputs("<span class=\"caret\">^</span></pre>\n", out);
    buf_release(&before);
    buf_release(&mark);
    buf_release(&after);
    buf_release(&pad);
}

static void finding(const struct report_opts *o, FILE *out, const struct report_file *f,
                    const struct diag *d, int input_error)
{
    const char *file = f->name;
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    const char *level = diag_level_name(d->level);
    const char *state = input_error              ? " input-error"
        : d->suppressed                          ? " suppressed"
        : d->baseline == DIAG_BASELINE_UNCHANGED ? " baselined"
                                                 : "";
    fprintf(out, "<li class=\"finding lvl-%s%s\" data-level=\"%s\" data-versions=\"", level, state,
            level);
    for (size_t i = 0, first = 1; vl && i < vl->n; i++)
        if (d->versions & ((ver_mask)1 << i)) {
            fputs(first ? "" : " ", out);
            put_html(out, vl->names[i]);
            first = 0;
        }
    fputs("\">\n<div class=\"head\"><span class=\"loc\">", out);
    char *loc = loc_format(file, d->line, d->col);
    put_html(out, loc);
    free(loc);
    fprintf(out, "</span> <span class=\"badge %s\">%s</span> <span class=\"msg\">", level, level);
    put_html(out, d->message);
    fputs("</span>", out);
    const char *id = input_error ? REPORT_INPUT_RULE : d->rule;
    const char *inline_req = NULL; /* without a rule page, the rule's requirement */
    if (id) {
        char *url = report_rule_url(o, id);
        if (!url) inline_req = requirement(o->rs, id);
        fputs(" <span class=\"rule\">[", out);
        if (url) {
            fputs("<a class=\"rule-page\" href=\"", out);
            put_html(out, url);
            fputs("\">", out);
        }
        put_html(out, id);
        fputs(url ? "</a>]</span>" : "]</span>", out);
        free(url);
    }
    if (vl && d->versions) {
        struct buf b = BUF_INIT;
        ver_format(&b, vl, d->versions, ", ");
        fputs(" <span class=\"vers\">(", out);
        put_html(out, buf_str(&b));
        fputs(")</span>", out);
        buf_release(&b);
    }
    fputs("</div>\n", out);
    if (inline_req) {
        fputs("<div class=\"req\">", out);
        put_html(out, inline_req);
        fputs("</div>\n", out);
    }
    if (d->suppressed) {
        fprintf(out, "<div class=\"why\">suppressed (%s): ",
                d->suppress_kind == DIAG_SUPPRESS_INLINE ? "inline" : "config");
        put_html(out, d->suppressed);
        if (d->suppressed_until) {
            fputs(", until ", out);
            put_html(out, d->suppressed_until);
        }
        fputs("</div>\n", out);
    } else if (d->baseline == DIAG_BASELINE_UNCHANGED) {
        fputs("<div class=\"why\">in the baseline</div>\n", out);
    }
    if (d->line && !input_error) excerpt(out, f->d, d->line, d->col);
    if (d->component) {
        fputs("<div class=\"note\">through ", out);
        put_html(out, d->component);
        fputs("</div>\n", out);
    }
    if (d->hint) {
        fputs("<div class=\"note\">hint: ", out);
        put_html(out, d->hint);
        fputs("</div>\n", out);
    }
    for (size_t i = 0; i < d->nrelated; i++) {
        struct buf b = BUF_INIT;
        report_related(&b, &d->related[i]);
        fputs("<div class=\"note related\">related: ", out);
        put_html(out, buf_str(&b));
        fputs("</div>\n", out);
        buf_release(&b);
    }
    fputs("</li>\n", out);
}

/* Does D fail the run (report_verdict's count)? */
static int fails(const struct report_opts *o, const struct diag *d)
{
    return !o->never_fail && !diag_hidden(d) && d->level >= o->fail_level;
}

/* Does file F fail the run: it could not be judged, or a finding fails? */
static int file_fails(const struct report_opts *o, const struct report_file *f)
{
    if (f->error) return 1;
    for (size_t k = 0; k < f->diags.len; k++)
        if (fails(o, &f->diags.items[k])) return 1;
    return 0;
}

struct html_file {
    const struct report_file *f;
    int failing;
};

/* the files that fail the run first, then by name (the inputs' order among equal names) */
static int file_cmp(const void *a, const void *b)
{
    const struct html_file *x = a, *y = b;
    if (x->failing != y->failing) return x->failing ? -1 : 1;
    int c = strcmp(x->f->name, y->f->name);
    if (c) return c;
    return x->f < y->f ? -1 : x->f > y->f;
}

/* The findings of one rule at one level in one file, in the order found. */
struct html_group {
    const char *rule;
    enum diag_level level;
    VEC(const struct diag *) items;
};

struct html_groups {
    struct html_group *items;
    size_t len, cap;
};

/* the highest level first, then by where the rule's first finding is (found order) */
static int group_cmp(const void *a, const void *b)
{
    const struct html_group *x = a, *y = b;
    if (x->level != y->level) return x->level > y->level ? -1 : 1;
    return x->items.items[0] < y->items.items[0] ? -1 : x->items.items[0] > y->items.items[0];
}

/* F's shown findings, grouped by rule and level. */
static void group_findings(const struct report_opts *o, const struct report_file *f,
                           struct html_groups *out)
{
    for (size_t k = 0; k < f->diags.len; k++) {
        const struct diag *d = &f->diags.items[k];
        if (!report_shown(o, d)) continue;
        const char *id = d->rule ? d->rule : REPORT_INPUT_RULE;
        struct html_group *g = NULL;
        for (size_t i = 0; i < out->len && !g; i++)
            if (!strcmp(out->items[i].rule, id) && out->items[i].level == d->level)
                g = &out->items[i];
        if (!g) {
            struct html_group ng = {id, d->level, VEC_INIT};
            VEC_PUSH(*out, ng);
            g = &out->items[out->len - 1];
        }
        VEC_PUSH(g->items, d);
    }
    if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, group_cmp);
}

/* "Passed" or "Failed", and why (report_verdict), as the page's first words. */
static void verdict(const struct report_opts *o, const struct report_file *files, size_t n)
{
    struct buf why = BUF_INIT;
    int failed = report_verdict(&why, o, files, n);
    if (!failed) {
        if (o->never_fail) buf_adds(&why, "no finding fails the run (--fail-on never)");
        else buf_addf(&why, "no finding at or above --fail-on %s", diag_level_name(o->fail_level));
    }
    fprintf(o->out, "<p id=\"verdict\" class=\"verdict %s\" role=\"status\"><strong>%s</strong>: ",
            failed ? "failed" : "passed", failed ? "Failed" : "Passed");
    put_html(o->out, buf_str(&why));
    fputs("</p>\n", o->out);
    buf_release(&why);
}

static const char style[] =
    "<style>\n"
    ":root{--err:#c62828;--warn:#b26a00;--info:#1565c0;--bg:#fff;--fg:#1b1b1b;--mute:#666;"
    "--line:#e3e3e3}\n"
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em 1.5em;"
    "color:var(--fg);background:var(--bg)}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}\n"
    "pre{font:13px/1.35 ui-monospace,monospace;overflow-x:auto}\n"
    "pre.meta{background:#f6f6f6;padding:.6em .8em;border-radius:4px;white-space:pre-wrap}\n"
    ".charts{display:grid;grid-template-columns:1fr 2fr;gap:2em}\n"
    ".bars{display:grid;grid-template-columns:minmax(6em,max-content) 1fr 3em;gap:.25em .6em;"
    "align-items:center}.row{display:contents}\n"
    ".label{font:13px ui-monospace,monospace;overflow-wrap:anywhere}\n"
    ".track{background:#f0f0f0;height:.9em;border-radius:3px}"
    ".fill{display:block;height:100%;border-radius:3px;min-width:1px}\n"
    ".fill.error{background:var(--err)}.fill.warning{background:var(--warn)}"
    ".fill.info{background:var(--info)}\n"
    ".num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "fieldset{display:inline-block;border:1px solid var(--line);border-radius:4px;"
    "margin:.3em .6em .3em 0}\n"
    "section.file{border-top:1px solid var(--line)}\n"
    "section.file h2{font:600 1em ui-monospace,monospace;overflow-wrap:anywhere}\n"
    "ul.findings{list-style:none;padding:0;margin:0}\n"
    "li.finding{margin:.5em 0;padding:.3em .6em;border-left:4px solid var(--line)}\n"
    "li.lvl-error{border-color:var(--err)}li.lvl-warning{border-color:var(--warn)}"
    "li.lvl-info{border-color:var(--info)}\n"
    "li.suppressed,li.baselined{opacity:.75}\n"
    "li.off{display:none}\n"
    ".loc{font-family:ui-monospace,monospace;color:var(--mute)}\n"
    ".badge{font-size:.8em;padding:0 .4em;border-radius:3px;color:#fff}\n"
    ".badge.error{background:var(--err)}.badge.warning{background:var(--warn)}"
    ".badge.info{background:var(--info)}\n"
    ".msg{white-space:pre-wrap}.rule,.vers,.why,.note{color:var(--mute)}\n"
    ".rule{font-family:ui-monospace,monospace}.why{font-style:italic}\n"
    ".req{color:var(--mute)}\n"
    "pre.src{background:#fafafa;padding:.3em .5em;margin:.3em 0}\n"
    ".ln{color:#999}mark{background:#ffe08a}.caret{color:#2e7d32;font-weight:bold}\n"
    "details{margin:.4em 0}summary{cursor:pointer;color:var(--mute)}\n"
    "#shown{color:var(--mute)}\n"
    ".verdict{font-size:1.25em;margin:.3em 0;padding:.4em .7em;border-radius:4px;"
    "border-left:6px solid}\n"
    ".verdict.failed{border-color:var(--err);background:#fdecea}"
    ".verdict.passed{border-color:#2e7d32;background:#edf7ed}\n"
    ".fcounts{font:400 .9em system-ui,sans-serif;color:var(--mute)}\n"
    "li.group{margin:.5em 0;padding:.3em .6em;border-left-style:solid;border-left-width:4px}\n"
    "li.group>details>summary{color:var(--fg)}\n"
    "li.group ul.findings{margin-left:.5em}\n"
    "</style>\n";

/* The filters: a finding is shown when its level is checked and, when it names
 * versions, one of them is checked; the URL's #off=VALUE,... unchecks boxes (a link to a
 * filtered view, and how tests/browser.sh tries the filters). */
static const char script[] =
    "<script>\n"
    "'use strict';\n"
    "(function () {\n"
    "  var boxes = document.querySelectorAll('#filters input');\n"
    "  var items = document.querySelectorAll('li.finding');\n"
    "  var groups = document.querySelectorAll('li.group');\n"
    "  function apply() {\n"
    "    var on = {};\n"
    "    boxes.forEach(function (b) { on[b.name + ':' + b.value] = b.checked; });\n"
    "    var shown = 0, total = 0;\n"
    "    items.forEach(function (li) {\n"
    "      var vs = li.dataset.versions ? li.dataset.versions.split(' ') : [];\n"
    "      var ok = on['level:' + li.dataset.level] !== false &&\n"
    "        (vs.length === 0 || vs.some(function (v) { return on['version:' + v] !== false; }));\n"
    "      li.classList.toggle('off', !ok);\n"
    "      /* the suppressed and baselined are not counted, as in the summary */\n"
    "      if (li.closest('details.hidden')) return;\n"
    "      total++;\n"
    "      if (ok) shown++;\n"
    "    });\n"
    "    groups.forEach(function (g) {\n"
    "      g.classList.toggle('off', !g.querySelector('li.finding:not(.off)'));\n"
    "    });\n"
    "    document.getElementById('shown').textContent =\n"
    "      'Showing ' + shown + ' of ' + total + ' finding' + (total === 1 ? '' : 's');\n"
    "  }\n"
    "  /* #off=warning,2025-06-18 opens the page with those boxes unchecked */\n"
    "  var off = /^#off=(.*)$/.exec(location.hash);\n"
    "  if (off) off[1].split(',').forEach(function (v) {\n"
    "    boxes.forEach(function (b) { if (b.value === decodeURIComponent(v)) b.checked = false; "
    "});\n"
    "  });\n"
    "  boxes.forEach(function (b) { b.addEventListener('change', apply); });\n"
    "  apply();\n"
    "})();\n"
    "</script>\n";

void report_html(const struct report_opts *o, const struct report_file *files, size_t n)
{
    FILE *out = o->out;
    struct report_totals t = report_count(files, n);
    const struct ver_list *vl = o->rs ? rule_set_versions(o->rs) : NULL;
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"generator\" content=\"mcpdesc %s\">\n"
            "<title>mcpdesc: ",
            MCPDESC_VERSION);
    struct buf counts = BUF_INIT;
    report_counts(&counts, &t);
    put_html(out, buf_str(&counts));
    buf_release(&counts);
    fprintf(out, "</title>\n%s</head>\n<body>\n", style);
    fputs("<header>\n<h1>mcpdesc report</h1>\n", out);
    verdict(o, files, n);
    fputs("<pre class=\"meta\">", out);
    char *lines[4] = {captured(o, files, n, report_rules_line, 0),
                      captured(o, files, n, report_config_line, 0), captured(o, files, n, NULL, 1),
                      captured(o, files, n, report_baseline_gone, 0)};
    for (size_t i = 0; i < 4; i++) {
        put_html(out, lines[i]);
        free(lines[i]);
    }
    fputs("</pre>\n</header>\n", out);

    /* the charts: shown findings (and input errors) per level and per rule */
    struct html_rules rules = {NULL, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->skipped) continue;
        if (f->error) count_rule(&rules, f->error);
        for (size_t k = 0; !f->error && k < f->diags.len; k++)
            if (report_shown(o, &f->diags.items[k])) count_rule(&rules, &f->diags.items[k]);
    }
    if (rules.len > 1) qsort(rules.items, rules.len, sizeof *rules.items, rule_cmp);
    /* what the page lists (quiet leaves levels out), so the bars count what is shown */
    size_t lv[3] = {0, 0, 0};
    for (size_t r = 0; r < rules.len; r++) lv[rules.items[r].level] += rules.items[r].count;
    size_t listed = lv[0] + lv[1] + lv[2];
    size_t lmax = lv[0] > lv[1] ? lv[0] : lv[1];
    if (lv[2] > lmax) lmax = lv[2];
    fputs("<div class=\"charts\">\n<section id=\"levels\">\n<h2>Findings per level</h2>\n"
          "<div class=\"bars\">\n",
          out);
    for (int l = DIAG_ERROR; l >= DIAG_INFO; l--)
        bar(out, diag_level_name((enum diag_level)l), diag_level_name((enum diag_level)l), lv[l],
            lmax);
    fputs("</div>\n", out);
    if (t.suppressed || t.baselined)
        fprintf(out, "<p class=\"why\">not counted: %zu suppressed, %zu in the baseline</p>\n",
                t.suppressed, t.baselined);
    fputs("</section>\n<section id=\"rules\">\n<h2>Findings per rule</h2>\n<div class=\"bars\">\n",
          out);
    size_t rmax = rules.len ? rules.items[0].count : 0;
    for (size_t r = 0; r < rules.len; r++)
        if (rules.items[r].count > rmax) rmax = rules.items[r].count;
    for (size_t r = 0; r < rules.len; r++) {
        struct buf label = BUF_INIT;
        for (const char *p = rules.items[r].rule; *p; p++)
            if (*p == '<' || *p == '>' || *p == '&' || *p == '"') buf_addf(&label, "&#%d;", *p);
            else buf_addc(&label, *p);
        bar(out, diag_level_name(rules.items[r].level), buf_str(&label), rules.items[r].count,
            rmax);
        buf_release(&label);
    }
    fputs("</div>\n", out);
    if (!rules.len) fputs("<p>No findings.</p>\n", out);
    fputs("</section>\n</div>\n", out);
    VEC_FREE(rules);

    /* the filters */
    fputs("<form id=\"filters\">\n<fieldset><legend>Level</legend>\n", out);
    for (int l = DIAG_ERROR; l >= DIAG_INFO; l--) {
        const char *name = diag_level_name((enum diag_level)l);
        fprintf(out,
                "<label><input type=\"checkbox\" name=\"level\" value=\"%s\" checked> %s</label>\n",
                name, name);
    }
    fputs("</fieldset>\n", out);
    if (vl && vl->n) {
        fputs("<fieldset><legend>Protocol version</legend>\n", out);
        for (size_t i = 0; i < vl->n; i++) {
            fputs("<label><input type=\"checkbox\" name=\"version\" value=\"", out);
            put_html(out, vl->names[i]);
            fputs("\" checked> ", out);
            put_html(out, vl->names[i]);
            fputs("</label>\n", out);
        }
        fputs("</fieldset>\n", out);
    }
    /* the count for a reader without the script, which recounts it under the filters */
    fprintf(out, "</form>\n<p id=\"shown\">Showing %zu of %zu finding%s</p>\n", listed, listed,
            listed == 1 ? "" : "s");

    /* the findings, by file: those that fail the run first, then by name */
    struct html_file *order = xcalloc(n ? n : 1, sizeof *order);
    size_t nfiles = 0;
    for (size_t i = 0; i < n; i++)
        if (!files[i].skipped)
            order[nfiles++] = (struct html_file){&files[i], file_fails(o, &files[i])};
    if (nfiles > 1) qsort(order, nfiles, sizeof *order, file_cmp);
    fputs("<main>\n", out);
    for (size_t i = 0; i < nfiles; i++) {
        const struct report_file *f = order[i].f;
        size_t shown = 0, hidden = 0, per_level[3] = {0, 0, 0};
        for (size_t k = 0; !f->error && k < f->diags.len; k++) {
            const struct diag *d = &f->diags.items[k];
            if (report_shown(o, d)) {
                shown++;
                per_level[d->level]++;
            } else if (report_listed(o, d)) {
                hidden++;
            }
        }
        if (!f->error && !shown && !hidden) continue;
        fprintf(out, "<section class=\"file%s\">\n<h2>", order[i].failing ? " failing" : "");
        put_html(out, f->name);
        /* what the file holds, as the summary line counts it */
        fputs(" <span class=\"fcounts\">", out);
        const char *sep = "";
        if (f->error) {
            fputs("input error", out);
            sep = ", ";
        }
        for (int l = DIAG_ERROR; l >= DIAG_INFO; l--)
            if (per_level[l]) {
                fprintf(out, "%s%zu %s%s", sep, per_level[l], diag_level_name((enum diag_level)l),
                        per_level[l] == 1 ? "" : "s");
                sep = ", ";
            }
        if (hidden) fprintf(out, "%s%zu suppressed or baselined", sep, hidden);
        fputs("</span></h2>\n<ul class=\"findings\">\n", out);
        if (f->error) finding(o, out, f, f->error, 1);
        struct html_groups groups = {NULL, 0, 0};
        if (!f->error) group_findings(o, f, &groups);
        for (size_t g = 0; g < groups.len; g++) {
            const struct html_group *gr = &groups.items[g];
            if (gr->items.len == 1) {
                finding(o, out, f, gr->items.items[0], 0);
                continue;
            }
            /* a rule that repeats: one line, its findings one click away (no script) */
            const char *level = diag_level_name(gr->level);
            fprintf(out,
                    "<li class=\"group lvl-%s\" data-level=\"%s\">\n<details><summary><span "
                    "class=\"badge %s\">%s</span> <span class=\"rule\">",
                    level, level, level, level);
            put_html(out, gr->rule);
            fprintf(out, "</span> &times;%zu <span class=\"msg\">", gr->items.len);
            put_html(out, gr->items.items[0]->message);
            int differ = 0; /* the first message stands for the others: say when they differ */
            for (size_t k = 1; k < gr->items.len && !differ; k++)
                differ = strcmp(gr->items.items[k]->message, gr->items.items[0]->message) != 0;
            fputs(differ ? " …</span></summary>\n<ul class=\"findings\">\n"
                         : "</span></summary>\n<ul class=\"findings\">\n",
                  out);
            for (size_t k = 0; k < gr->items.len; k++) finding(o, out, f, gr->items.items[k], 0);
            fputs("</ul>\n</details>\n</li>\n", out);
        }
        for (size_t g = 0; g < groups.len; g++) VEC_FREE(groups.items[g].items);
        VEC_FREE(groups);
        fputs("</ul>\n", out);
        if (hidden) {
            fprintf(out,
                    "<details class=\"hidden\"><summary>%zu suppressed or baselined "
                    "finding%s</summary>\n<ul class=\"findings\">\n",
                    hidden, hidden == 1 ? "" : "s");
            for (size_t k = 0; k < f->diags.len; k++) {
                const struct diag *d = &f->diags.items[k];
                if (report_shown(o, d) || !report_listed(o, d)) continue;
                finding(o, out, f, d, 0);
            }
            fputs("</ul>\n</details>\n", out);
        }
        fputs("</section>\n", out);
    }
    free(order);
    if (!t.errors && !t.input_errors && !t.warnings && !t.infos && !t.suppressed && !t.baselined)
        fputs("<p>No findings.</p>\n", out);
    fprintf(out, "</main>\n%s</body>\n</html>\n", script);
}
