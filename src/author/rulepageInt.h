/* rulepageInt.h - the page model (rulepage.c) that the renderers walk: rulepage_text.c,
 * rulepage_md.c and rulepage_html.c; rulepage_write.c writes the site. Nothing else
 * includes it. */
#ifndef MCPDESC_RULEPAGEINT_H
#define MCPDESC_RULEPAGEINT_H

#include <jansson.h>

#include "author/fixtures.h"
#include "author/rulepage.h"
#include "base/util.h"

/* The fixtures of a base set's rules (rule_origin: examples resolve in their own set's). */
struct rulepage_origin_fx {
    const struct rule_set *rs;
    struct fixtures *fx;
};

struct rulepage_site {
    const struct rule_set *rs;
    struct fixtures *fx;
    VEC(struct rulepage_origin_fx) base_fx;
    VEC(char *) problems;
    VEC(const char *) surfaces; /* in order of first appearance */
};

struct rulepage_source {
    long tier;
    const char *tier_name;  /* the manifest's name of the tier, or NULL */
    const char *text, *url; /* either may be NULL */
    /* the project's file a url under a schema-map prefix names (rule_set_local_url), new,
     * shown as a path instead of the url (no site serves it); else NULL */
    char *local;
};

struct rulepage_example {
    const char *expect, *fixture, *pointer;
    char *json;    /* pretty-printed selected value, or NULL */
    char *problem; /* why it is missing, or NULL */
};

struct rulepage_page {
    const struct rule *r;
    const char *preset;        /* the smallest preset that runs the rule (rule.h) */
    const char *preset_reason; /* why it is not in recommended, or NULL */
    const char *id, *summary, *requirement, *owner, *surface, *kind, *level, *status, *enforcement,
        *file, *tag;
    /* tag is the set's display tag; released says whether a lock backs it ("at immutable
     * tag"), else the page says the set is modified (rule_set_display_tag) */
    int released;
    const char *set_name; /* the rule's own set, when that set extends another; else NULL */
    char *paths;          /* "inputSchema, outputSchema" */
    ver_mask applies;
    VEC(char *) required_by;
    VEC(struct rulepage_source) based_on;
    VEC(const char *) gaps;
    VEC(struct rulepage_example) examples;
};

void rulepage_page_init(struct rulepage_site *s, const struct rule *r, struct rulepage_page *p);
void rulepage_page_release(struct rulepage_page *p);
/* "Valid example", "Invalid example", "Warning example" */
const char *rulepage_example_title(const char *expect);
/* The level word of a rule ("must", "should", "may"). */
const char *rulepage_level_word(const struct rule *r);

/* "FILE at immutable tag TAG." on a released set; "FILE at TAG+modified (not a released
 * tag...)." otherwise: a page never claims a tag no lock backs. */
extern const char rulepage_not_released[];
const char *rulepage_source_at(const struct rulepage_page *p);

#endif
