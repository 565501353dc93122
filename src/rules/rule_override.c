/* rule_override.c - a manifest's `overrides` (rules-yaml/README.md, "Organisation rule
 * sets"): an organisation releases its policy as one set, "the base with rule X off and
 * rule Y an error", instead of copying levels into every repository's config. Each entry
 * names base rules by id or glob and gives a level (must, should, may or off) and/or a
 * preset, with a required reason. Its table (rule_lang.h) lives here beside its handler;
 * the loader (rule_set_load.c) reads the entries once the base is loaded and applies them
 * to the base's rules it borrows. The entries are in manifest.yaml, so the set's digest
 * and its release cover them. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/ruleInt.h"

static const char *const override_levels[] = {"must", "should", "may", "off", NULL};
static const enum diag_level override_level_values[] = {DIAG_ERROR, DIAG_WARNING, DIAG_INFO};
static const char *const override_presets[] = {"recommended", "strict", "all", NULL};

/* How to fix an entry's `rule` (new): BASE's own directory lists its rules, since this set,
 * with an error, will not load for `rules list` */
static char *hint_rule(const struct rule_set *base)
{
    return xasprintf("write the id of a rule of the base set (`mcpdesc rules list --rules %s` "
                     "lists them), or a glob such as mcp.tool.* that matches some; a set's own "
                     "rules say their level in their rule file",
                     base ? rule_set_dir(base) : "DIR");
}

/* Is PAT a glob (fnmatch), not a plain id? */
static int is_glob(const char *pat)
{
    return strpbrk(pat, "*?[") != NULL;
}

/* How many rules of BASE the pattern matches. */
static size_t matches(const struct rule_set *base, const char *pat)
{
    size_t n = 0;
    for (size_t i = 0; i < rule_set_count(base); i++) {
        const char *id = rule_id(rule_set_rule(base, i));
        n += is_glob(pat) ? !fnmatch(pat, id, 0) : !strcmp(pat, id);
    }
    return n;
}

static char *nearest_prefix_glob(const struct rule_set *base, const char *pat);

/* The entry's `rule`: a string that names or matches a rule of the base. */
static int entry_rule(struct cc *cc, struct yv e, struct rule_override *o)
{
    struct yv y = rule_yv_member(cc, e, "rule");
    const char *pat = json_string_value(y.v);
    if (!pat || !*pat) {
        char *hint = hint_rule(cc->rs->base);
        rule_cc_error_hint(cc, y.v ? y.n : e.n, 0, hint,
                           "an \"overrides\" entry needs \"rule\": a base rule's id or a glob%s%s",
                           y.v ? ", not " : "",
                           y.v ? (pat ? "\"\"" : rule_json_type_name(y.v)) : "");
        free(hint);
        return -1;
    }
    struct doc_pos p = doc_node_pos(cc->d, y.n);
    o->line = p.line;
    o->col = p.col;
    const struct rule_set *base = cc->rs->base;
    if (matches(base, pat)) {
        o->pattern = xstrdup(pat);
        return 0;
    }
    char *glob_near = is_glob(pat) ? nearest_prefix_glob(base, pat) : NULL;
    const char *near = glob_near ? glob_near : rule_set_suggest(base, pat);
    char *hint = hint_rule(base);
    rule_cc_error_hint(cc, y.n, 0, hint, "override \"%s\" %s no rule of the base set %s%s%s%s", pat,
                       is_glob(pat) ? "matches" : "names", cc->rs->extends,
                       near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
    free(hint);
    free(glob_near);
    return -1;
}

/* For a glob PAT that matches nothing: the "PREFIX.*" of a base rule id's dotted prefix
 * nearest to it (within 3 edits), new; NULL when none is. */
static char *nearest_prefix_glob(const struct rule_set *base, const char *pat)
{
    char *best = NULL;
    size_t bd = 4;
    for (size_t i = 0; i < rule_set_count(base); i++) {
        const char *id = rule_id(rule_set_rule(base, i));
        for (const char *dot = strchr(id, '.'); dot; dot = strchr(dot + 1, '.')) {
            char *cand = xasprintf("%.*s.*", (int)(dot - id), id);
            size_t d = util_edit_distance(pat, cand);
            if (d < bd) {
                bd = d;
                free(best);
                best = cand;
            } else {
                free(cand);
            }
        }
    }
    return best;
}

/* The entry's `level`: must, should, may or off (a rule's words; the config's error,
 * warning and info are named for what they are). */
static int entry_level(struct cc *cc, struct yv e, struct rule_override *o)
{
    struct yv y = rule_yv_member(cc, e, "level");
    if (!y.v) return 0;
    const char *s = json_string_value(y.v);
    size_t k = 0;
    while (s && override_levels[k] && strcmp(override_levels[k], s)) k++;
    if (s && override_levels[k]) {
        o->has_level = 1;
        o->off = !strcmp(s, "off");
        if (!o->off) o->level = override_level_values[k];
        return 0;
    }
    static const char *const config_words[][2] = {
        {"error", "must"}, {"warning", "should"}, {"info", "may"}};
    const char *near = NULL;
    for (size_t i = 0; s && i < sizeof config_words / sizeof *config_words; i++)
        if (!strcmp(s, config_words[i][0])) near = config_words[i][1];
    if (s && !near) near = rule_cc_nearest(s, override_levels);
    char shown[80];
    if (s) snprintf(shown, sizeof shown, "\"%.60s\"", s);
    else snprintf(shown, sizeof shown, "a %s", rule_json_type_name(y.v));
    rule_cc_error_hint(cc, y.n, 0,
                       "write must (error), should (warning), may (info) or off (not run): the "
                       "words of a rule's level",
                       "an override's level must be must, should, may or off, not %s%s%s%s", shown,
                       near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
    return -1;
}

/* The entry's `preset`: recommended, strict or all. */
static int entry_preset(struct cc *cc, struct yv e, struct rule_override *o)
{
    struct yv y = rule_yv_member(cc, e, "preset");
    if (!y.v) return 0;
    const char *s = json_string_value(y.v);
    if (s && rule_preset_parse(s, &o->preset) == 0) {
        o->has_preset = 1;
        return 0;
    }
    const char *near = s ? rule_cc_nearest(s, override_presets) : NULL;
    rule_cc_error_hint(
        cc, y.n, 0,
        "write recommended (the default preset), strict or all: the smallest "
        "preset that runs the rule",
        "an override's preset must be recommended, strict or all, not %s%.60s%s%s%s%s",
        s ? "\"" : "a ", s ? s : rule_json_type_name(y.v), s ? "\"" : "",
        near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
    return -1;
}

/* One `overrides` entry (W->y), read whole: the table's rows are this handler's. */
static int override_entry(struct cc *cc, struct rule_lang_walk *w)
{
    struct yv e = w->y;
    if (!json_is_object(e.v)) return 0; /* the walk said so */
    struct rule_override o = {0};
    o.set = cc->rs;
    int bad = entry_rule(cc, e, &o) < 0;
    bad |= entry_level(cc, e, &o) < 0;
    bad |= entry_preset(cc, e, &o) < 0;
    struct yv level = rule_yv_member(cc, e, "level"), preset = rule_yv_member(cc, e, "preset");
    if (!level.v && !preset.v) {
        rule_cc_error_hint(cc, e.n, 0,
                           "add level: must, should, may or off, or preset: recommended, "
                           "strict or all",
                           "an \"overrides\" entry changes nothing: it needs \"level\" or "
                           "\"preset\"");
        bad = 1;
    }
    if (o.off && preset.v) {
        rule_cc_error_hint(cc, preset.n, 1, "remove preset, or give the rule a level",
                           "\"preset\" with level off: a rule that is off runs under no preset");
        bad = 1;
    }
    struct yv why = rule_yv_member(cc, e, "reason");
    const char *reason = json_string_value(why.v);
    if (!reason || !*reason) {
        rule_cc_error_hint(cc, why.v ? why.n : e.n, 0,
                           "add reason: one sentence saying why this set changes the base "
                           "rule (rules list, explain and the rule pages show it)",
                           "an \"overrides\" entry needs a \"reason\"%s%s",
                           why.v ? ", a non-empty string, not " : "",
                           why.v ? (reason ? "\"\"" : rule_json_type_name(why.v)) : "");
        bad = 1;
    }
    if (bad) {
        free(o.pattern);
        return -1;
    }
    o.reason = xstrdup(reason);
    VEC_PUSH(cc->rs->overrides, o);
    return 0;
}

static const struct rule_lang_member override_members[] = {
    {"rule", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "the base rule's id, or an fnmatch glob of base rule ids", NULL, NULL, override_entry, 0},
    {"level", RULE_LANG_ENUM, RULE_LANG_OWN,
     "must (error), should (warning), may (info), or off (not run); checked with rule", NULL,
     override_levels, NULL, 0},
    {"preset", RULE_LANG_ENUM, RULE_LANG_OWN,
     "the smallest preset that runs the rule; checked with rule", NULL, override_presets, NULL, 0},
    {"reason", RULE_LANG_STRING, RULE_LANG_REQUIRED | RULE_LANG_OWN,
     "why the set changes the base rule; checked with rule", NULL, NULL, NULL, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0}};
const struct rule_lang_map rule_override_lang = {"override", RULE_NAMES_OVERRIDE,
                                                 "manifest.schema.json#/$defs/Override",
                                                 override_members, NULL};

void rule_override_load(struct cc *cc, struct yv y)
{
    if (!y.v) return;
    if (!cc->rs->base) {
        rule_cc_error_hint(cc, y.n, 1,
                           "add extends: NAME@TAG of the base set, or remove overrides: a set's "
                           "own rules say their level in their rule file",
                           "\"overrides\" change the rules of a base set, and this set extends "
                           "none");
        return;
    }
    if (!json_is_array(y.v)) {
        rule_cc_error_hint(
            cc, y.n, 0, "write a list: - {rule: ID, level: must|should|may|off, reason: TEXT}",
            "\"overrides\" must be a list of mappings, not a %s", rule_json_type_name(y.v));
        return;
    }
    for (size_t i = 0; i < json_array_size(y.v); i++) {
        struct yv e = rule_yv_item(cc, y, i);
        if (!json_is_object(e.v))
            rule_cc_error(cc, e.n, 0, "\"overrides\" entries must be mappings, not a %s",
                          rule_json_type_name(e.v));
        else rule_cc_members(cc, e, &rule_override_lang, "an \"overrides\" entry", cc->rs);
    }
}

void rule_override_apply(struct rule_set *rs)
{
    for (size_t i = 0; i < rs->rules.len; i++) {
        struct rule *r = &rs->rules.items[i];
        if (!r->borrowed) continue; /* the set's own rules say their level themselves */
        for (size_t k = 0; k < rs->overrides.len; k++) {
            const struct rule_override *o = &rs->overrides.items[k];
            if (is_glob(o->pattern) ? fnmatch(o->pattern, r->id, 0) : strcmp(o->pattern, r->id))
                continue;
            if (o->has_level) {
                if (!r->ov_level) r->file_level = r->level;
                r->ov_level = o;
                r->off = o->off;
                if (!o->off) r->level = o->level;
            }
            if (o->has_preset) {
                if (!r->ov_preset) r->file_preset = rule_preset(r);
                r->ov_preset = o;
                r->preset = o->preset;
            }
        }
    }
}
