/* check_rulepage.c - rule pages: every page of the shipped rule set has every section in
 * the seed pages' order (HTML, Markdown, terminal), shows every example and loads no
 * external resource; the pages of the two seed rules hold every sentence of the seed
 * pages (tests/data/docs/seeds/), in order; the site has every file. */
#include <check.h>
#include <dirent.h>
#include <string.h>

#include "author/rulepage.h"
#include "author/lint.h"
#include "testutil.h"
#include "base/util.h"

struct shipped {
    char *top;
    struct rule_set *rs;
    struct rulepage_site *site;
};

static void shipped_open(struct shipped *s)
{
    const char *top = getenv("MCPDESC_TOP");
    s->top = xstrdup(top ? top : ".");
    char *fx = xasprintf("%s/conformance", s->top);
    s->rs = tu_shipped_rules();
    s->site = rulepage_site_new(s->rs, fx);
    free(fx);
}

static void shipped_close(struct shipped *s)
{
    rulepage_site_free(s->site);
    rule_set_free(s->rs);
    free(s->top);
}

/* Each of NEEDLES[i] (printf'd with the heading) occurs in TEXT after the previous one. */
static void sections_in_order(const char *what, const char *text, const char *fmt)
{
    const char *at = text;
    for (const char *const *h = rulepage_sections; *h; h++) {
        char *needle = xasprintf(fmt, *h);
        const char *hit = strstr(at, needle);
        ck_assert_msg(hit != NULL, "%s: section '%s' missing or out of order", what, *h);
        at = hit + strlen(needle);
        free(needle);
    }
}

START_TEST(every_page_has_every_section)
{
    struct shipped s;
    shipped_open(&s);
    ck_assert_uint_gt(rule_set_count(s.rs), 0);
    for (size_t i = 0; i < rule_set_count(s.rs); i++) {
        const struct rule *r = rule_set_rule(s.rs, i);
        struct buf html = BUF_INIT, md = BUF_INIT, text = BUF_INIT;
        rulepage_rule_html(s.site, r, &html);
        rulepage_rule_markdown(s.site, r, &md);
        rulepage_rule_text(s.site, r, &text);
        sections_in_order(rule_id(r), buf_str(&html), "<h2>%s<a class=\"anchor\"");
        sections_in_order(rule_id(r), buf_str(&md), "\n## %s\n");
        sections_in_order(rule_id(r), buf_str(&text), "\n%s\n---");
        /* the summary comes first, the details name the rule */
        char *rid = xasprintf("Rule ID: %s\n", rule_id(r));
        ck_assert_ptr_nonnull(strstr(buf_str(&text), rid));
        free(rid);
        /* paths: [''] (the document itself) is named, not shown as "no path" */
        if (!strcmp(rule_id(r), "mcpdesc.description.format"))
            ck_assert_ptr_nonnull(strstr(buf_str(&text), "\"\" (the document root)"));
        /* no external resource of any kind */
        static const char *const banned[] = {"<script", "<link", "<img",  "<iframe",
                                             "@import", "url(",  " src=", NULL};
        for (const char *const *b = banned; *b; b++)
            ck_assert_msg(!strstr(buf_str(&html), *b), "%s: the HTML page uses %s", rule_id(r), *b);
        ck_assert_ptr_nonnull(strstr(buf_str(&html), "<style>"));
        buf_release(&html);
        buf_release(&md);
        buf_release(&text);
    }
    for (size_t i = 0; i < rulepage_problem_count(s.site); i++)
        fprintf(stderr, "  %s\n", rulepage_problem(s.site, i));
    ck_assert_msg(rulepage_problem_count(s.site) == 0, "examples that cannot be shown (see above)");
    shipped_close(&s);
}
END_TEST

/* ---- the seed pages ----------------------------------------------------------------- */

/* Page text as a reader sees it: tags dropped, entities decoded. New string. */
static char *html_text(const char *html)
{
    struct buf b = BUF_INIT;
    static const struct {
        const char *ent, *ch;
    } ents[] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
    int in_style = 0;
    for (const char *p = html; *p;) {
        if (*p == '<') {
            in_style = !strncmp(p, "<style", 6) ? 1 : !strncmp(p, "</style", 7) ? 0 : in_style;
            const char *end = strchr(p, '>');
            if (!end) break;
            buf_addc(&b, ' ');
            p = end + 1;
            continue;
        }
        if (in_style) {
            p++;
            continue;
        }
        int done = 0;
        for (size_t i = 0; i < sizeof ents / sizeof *ents && !done; i++) {
            size_t n = strlen(ents[i].ent);
            if (!strncmp(p, ents[i].ent, n)) {
                buf_adds(&b, ents[i].ch);
                p += n;
                done = 1;
            }
        }
        if (!done) buf_addc(&b, *p++);
    }
    return buf_detach(&b);
}

/* For comparison: no whitespace, no table bars, typographic quotes made plain. */
static char *norm(const char *s)
{
    struct buf b = BUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '|') continue;
        if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x9C || p[2] == 0x9D)) {
            buf_addc(&b, '"');
            p += 2;
        } else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0x98 || p[2] == 0x99)) {
            buf_addc(&b, '\'');
            p += 2;
        } else {
            buf_addc(&b, (char)*p);
        }
    }
    char *out = b.len ? buf_detach(&b) : xstrdup("");
    buf_release(&b);
    return out;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    struct buf b = BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    return buf_detach(&b);
}

static int ignored(const char *line, const char *ignore)
{
    for (const char *p = ignore; *p;) {
        size_t n = strcspn(p, "\n");
        if (n && *p != '#') {
            if (p[n - 1] == '*' ? !strncmp(line, p, n - 1)
                                : (strlen(line) == n && !strncmp(line, p, n)))
                return 1;
        }
        p += n;
        if (*p) p++;
    }
    return 0;
}

/* The seeds were published at tag v0.9.0-rc.3; a rendered page names the shipped set's
 * own tag there. Returns LINE with that tag replaced (a new string). */
static char *seed_line_at_tag(const char *line, const struct rule_set *rs)
{
    static const char seed_tag[] = "v0.9.0-rc.3";
    static const char immutable[] = "at immutable tag v0.9.0-rc.3.";
    const char *t = strstr(line, seed_tag);
    if (!t) return xstrdup(line);
    /* between tags the development set differs from its tag's lock, and its page says so */
    const char *im = strstr(line, immutable);
    if (im && !rule_set_released_tag(rs))
        return xasprintf("%.*sat %s (not a released tag: no lock of its tag records these "
                         "files).%s",
                         (int)(im - line), line, rule_set_display_tag(rs), im + strlen(immutable));
    return xasprintf("%.*s%s%s", (int)(t - line), line, rule_set_tag(rs), t + strlen(seed_tag));
}

/* Every seed line (but the site's chrome) appears in the rendered page, in order. */
static void compare_seed(struct shipped *s, const char *seed_path, const char *ignore,
                         size_t *checked)
{
    char *seed = read_all(seed_path);
    const char *idl = strstr(seed, "Rule ID: ");
    ck_assert_msg(idl != NULL, "%s names no rule", seed_path);
    char *id = xstrndup(idl + 9, strcspn(idl + 9, "\n "));
    const struct rule *r = rule_set_find(s->rs, id);
    ck_assert_msg(r != NULL, "%s: no rule %s in the shipped set", seed_path, id);
    struct buf html = BUF_INIT, text = BUF_INIT;
    rulepage_rule_html(s->site, r, &html);
    rulepage_rule_text(s->site, r, &text);
    char *page = html_text(buf_str(&html));
    char *np = norm(page), *nt = norm(buf_str(&text));
    const char *at = np;
    for (char *line = seed; *line;) {
        size_t n = strcspn(line, "\n");
        char *raw = xstrndup(line, n), *l = seed_line_at_tag(raw, s->rs);
        free(raw);
        line += n + (line[n] == '\n');
        const char *body = !strncmp(l, "- ", 2) ? l + 2 : l;
        char *want = norm(body);
        int trivial = strspn(want, "-") == strlen(want);
        if (!trivial && !ignored(l, ignore)) {
            const char *hit = strstr(at, want);
            ck_assert_msg(hit != NULL, "%s: the page of %s %s the seed line: %s", seed_path, id,
                          strstr(np, want) ? "has out of order" : "lacks", l);
            /* the terminal page (rules explain) has it too */
            ck_assert_msg(strstr(nt, want) != NULL,
                          "%s: `rules explain %s` lacks the seed line: %s", seed_path, id, l);
            at = hit + strlen(want);
            ++*checked;
        }
        free(want);
        free(l);
    }
    free(np);
    free(nt);
    free(page);
    buf_release(&html);
    buf_release(&text);
    free(id);
    free(seed);
}

START_TEST(seed_pages)
{
    struct shipped s;
    shipped_open(&s);
    char *dir = xasprintf("%s/docs/seeds", tu_data_dir());
    char *ignore_path = xasprintf("%s/docs/seed-ignore.txt", tu_data_dir());
    char *ignore = read_all(ignore_path);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    size_t seeds = 0, checked = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt")) continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        compare_seed(&s, path, ignore, &checked);
        free(path);
        seeds++;
    }
    closedir(d);
    ck_assert_uint_eq(seeds, 2);
    ck_assert_uint_gt(checked, 100);
    free(ignore);
    free(ignore_path);
    free(dir);
    shipped_close(&s);
}
END_TEST

/* The normaliser itself: a missing sentence is caught. */
START_TEST(seed_comparison_catches_a_missing_sentence)
{
    char *page = html_text("<p>Rule ID: <code>a.b</code></p><p>Kind: structural</p>");
    char *np = norm(page), *w1 = norm("Rule ID: a.b"), *w2 = norm("Kind: semantic"),
         *w3 = norm("“a.b”");
    ck_assert_ptr_nonnull(strstr(np, w1));
    ck_assert_ptr_null(strstr(np, w2));
    ck_assert_str_eq(w3, "\"a.b\"");
    free(page);
    free(np);
    free(w1);
    free(w2);
    free(w3);
}
END_TEST

START_TEST(site_files)
{
    struct shipped s;
    shipped_open(&s);
    char tmpl[] = "/tmp/mcpdesc-docs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char *out = xasprintf("%s/site/rules", tmpl);
    FILE *err = fopen("/dev/null", "w");
    int n = rulepage_write(s.site, out, err);
    fclose(err);
    const struct ver_list *vl = rule_set_versions(s.rs);
    ck_assert_int_eq(n, (int)(2 * rule_set_count(s.rs) + 2 * vl->n + 2));
    char *index = xasprintf("%s/index.html", out);
    char *text = read_all(index);
    for (size_t i = 0; i < rule_set_count(s.rs); i++) {
        char *href = xasprintf("href=\"%s.html\"", rule_id(rule_set_rule(s.rs, i)));
        ck_assert_msg(strstr(text, href) != NULL, "the index does not link %s", href);
        free(href);
    }
    for (size_t i = 0; i < vl->n; i++) {
        char *page = xasprintf("%s/version-%s.md", out, vl->names[i]);
        char *md = read_all(page);
        for (size_t k = 0; k < rule_set_count(s.rs); k++) {
            const struct rule *r = rule_set_rule(s.rs, k);
            char *link = xasprintf("[%s](%s.md) |", rule_id(r), rule_id(r));
            ck_assert_msg((strstr(md, link) != NULL) == (int)(rule_applies(r) >> i & 1),
                          "%s lists %s wrongly", page, rule_id(r));
            free(link);
        }
        free(md);
        free(page);
    }
    free(text);
    free(index);
    free(out);
    char *rm = xasprintf("rm -rf '%s'", tmpl);
    ck_assert_int_eq(system(rm), 0);
    free(rm);
    shipped_close(&s);
}
END_TEST

Suite *rulepage_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("docs");
    tcase_add_test(tc, every_page_has_every_section);
    tcase_add_test(tc, seed_pages);
    tcase_add_test(tc, seed_comparison_catches_a_missing_sentence);
    tcase_add_test(tc, site_files);
    suite_add_tcase(s, tc);
    return s;
}
