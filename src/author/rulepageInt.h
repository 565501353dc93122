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
    int own;                    /* rulepage_site_own: the set's own and overridden rules only */
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
    const char *kind;  /* "valid", "invalid", "warning", "info" */
    const char *title; /* "Valid example", "Invalid example", ... */
    char *json;        /* pretty-printed selected value, or NULL */
    char *problem;     /* why it is missing, or NULL */
    char *together;    /* a session rule's example: the fixtures judged with it, ", "-joined
                        * (its `together`), or NULL */
    char *compared;    /* a change rule's example: "compared with the old description OLD",
                        * or what is absent (its `old`, `absent`); NULL for any other */
};

/* The sections of a rule page, in order: part, heading, HTML anchor. Every renderer walks
 * this one list (rulepage_render), so the three renderings cannot disagree on it. */
#define RULEPAGE_SECTIONS(X)                                                                       \
    X(REQUIREMENT, "Requirement", "requirement")                                                   \
    X(DETAILS, "Details", "details")                                                               \
    X(APPLICABILITY, "Protocol version applicability", "applicability")                            \
    X(REQUIRED_BY, "Required by", "required-by")                                                   \
    X(BASED_ON, "Based on", "based-on")                                                            \
    X(GAPS, "Gaps and arbitrations", "gaps")                                                       \
    X(EXAMPLES, "Examples", "examples")                                                            \
    X(SOURCE, "Rule Source Code", "source")

#define RULEPAGE_PART_ENUM(name, title, anchor) RULEPAGE_##name,
enum rulepage_part { RULEPAGE_SECTIONS(RULEPAGE_PART_ENUM) RULEPAGE_NPARTS };
#undef RULEPAGE_PART_ENUM

struct rulepage_section {
    enum rulepage_part part;
    const char *title, *anchor;
};
extern const struct rulepage_section rulepage_section_list[RULEPAGE_NPARTS];

/* One line of the Details section: "KEY: VALUE" and, when key2 is set, " · KEY2: VALUE2";
 * code marks the value as code (the rule id). */
struct rulepage_detail {
    const char *key, *value, *key2, *value2;
    int code;
};
#define RULEPAGE_NDETAILS 6

/* A rule's page: each section's content as data, built once (rulepage_render). */
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
    /* the Requirement level detail: the level, and when the set's overrides decide it the
     * rule file's level, the set and its reason (new) */
    char *level_text;
    char *preset_owned; /* preset, when an override moved it: "strict (base: ...)" (new) */
    const struct ver_list *versions; /* the site's protocol versions, in order */
    ver_mask applies;                /* bit i: the rule applies to versions->names[i] */
    struct rulepage_detail details[RULEPAGE_NDETAILS];
    VEC(char *) required_by;
    VEC(struct rulepage_source) based_on;
    VEC(const char *) gaps;
    VEC(struct rulepage_example) examples;
};

/* A rendering of the page: the part before the first section (title, badge, summary), a
 * section's heading, each section's content, what closes a section, the part after the
 * last. NULL top, bottom or section_end render nothing. */
typedef void rulepage_part_fn(struct rulepage_site *s, const struct rulepage_page *p,
                              struct buf *out);
struct rulepage_renderer {
    rulepage_part_fn *top;
    void (*heading)(const struct rulepage_section *sec, struct buf *out);
    rulepage_part_fn *part[RULEPAGE_NPARTS];
    const char *section_end;
    rulepage_part_fn *bottom;
};
/* Build R's page once and walk it with RENDERER into OUT. */
void rulepage_render(struct rulepage_site *s, const struct rule *r,
                     const struct rulepage_renderer *renderer, struct buf *out);

/* How many rules of SURFACE apply to version VI (every rule of it when VI < 0). */
size_t rulepage_surface_count(const struct rulepage_site *s, const char *surface, int vi);
/* The number of the set's rules that apply to version VI. */
size_t rulepage_version_count(const struct rulepage_site *s, size_t vi);
/* The level word of a rule ("must", "should", "may"; "off" when an override turned it
 * off), and of a level. */
const char *rulepage_level_word(const struct rule *r);
const char *rulepage_level_word_of(enum diag_level level);

/* "FILE at immutable tag TAG." on a released set; "FILE at TAG+modified (not a released
 * tag...)." otherwise: a page never claims a tag no lock backs. */
extern const char rulepage_not_released[];
const char *rulepage_source_at(const struct rulepage_page *p);

#endif
