/* rulepage.h - rule pages: every rule's page (the sections of the published seed pages, in
 * their order) as terminal text, Markdown and HTML, an index grouped by surface and a
 * page per protocol version. Examples show the JSON the fixture itself holds at the
 * example's pointer, pretty-printed; nothing is copied into the rule files. */
#ifndef MCPDESC_RULEPAGE_H
#define MCPDESC_RULEPAGE_H

#include <stdio.h>

#include "base/buf.h"
#include "rules/rule.h"

/* The section headings of a rule page, in order (NULL-terminated, static). */
extern const char *const rulepage_sections[];

struct rulepage_site;

/* A site for RS (borrowed, must outlive the site: the tier names are its manifest's) that
 * looks examples up in FIXTURES (the conformance directory). New; never NULL. */
struct rulepage_site *rulepage_site_new(const struct rule_set *rs, const char *fixtures);
void rulepage_site_free(struct rulepage_site *s); /* NULL is a no-op */
/* `rules docs --own`: the site shows only the rules of RS's own rule files and the base
 * rules its overrides change (pages, index, version pages and their counts), not the
 * base's others under the set's name. */
void rulepage_site_own(struct rulepage_site *s);
/* Does the site show R? The number of rules it shows. */
int rulepage_shown(const struct rulepage_site *s, const struct rule *r);
size_t rulepage_rule_count(const struct rulepage_site *s);

/* Append R's page to OUT. An example whose fixture or pointer is missing is shown as
 * such on the page and recorded as a problem (see rulepage_problem). */
void rulepage_rule_text(struct rulepage_site *s, const struct rule *r, struct buf *out);
void rulepage_rule_markdown(struct rulepage_site *s, const struct rule *r, struct buf *out);
void rulepage_rule_html(struct rulepage_site *s, const struct rule *r, struct buf *out);
/* The index (rules grouped by surface, versions, built-in rules) and the page of the
 * VI-th protocol version (the rules that apply to it). */
void rulepage_index_markdown(struct rulepage_site *s, struct buf *out);
void rulepage_index_html(struct rulepage_site *s, struct buf *out);
void rulepage_version_markdown(struct rulepage_site *s, size_t vi, struct buf *out);
void rulepage_version_html(struct rulepage_site *s, size_t vi, struct buf *out);

/* Write every page into DIR (created when missing): index.{md,html}, RULE-ID.{md,html},
 * version-V.{md,html}. Returns the number of files written, or -1 with a message on
 * ERR when a file cannot be written. */
int rulepage_write(struct rulepage_site *s, const char *dir, FILE *err);

/* Problems met while rendering (examples that cannot be shown), each once, in order;
 * borrowed strings. */
size_t rulepage_problem_count(const struct rulepage_site *s);
const char *rulepage_problem(const struct rulepage_site *s, size_t i);

#endif
