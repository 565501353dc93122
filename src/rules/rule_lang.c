/* rule_lang.c - the rule language's tables, listed: every mapping of a rule file (their
 * rows beside their handlers in rule_compile.c) and of the manifest (rule_set_load.c; its
 * overrides entry in rule_override.c; its texts in rule_texts.c),
 * the names rule_names() gives editors, and the kinds' names for `rules dump --language`.
 * The rows live beside the handlers they point at so that no file here both holds a
 * table and is called by the handlers it names (no cycle of files: tools/deps-allow.txt).
 */
#include "rules/rule_lang.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/ruleInt.h"

static const struct rule_lang_map *const maps[] = {
    &rule_cc_lang_file,          &rule_cc_lang_rule,
    &rule_cc_lang_clause,        &rule_cc_lang_fix,
    &rule_cc_lang_fix_edit,      &rule_cc_lang_example,
    &rule_cc_lang_required_by,   &rule_cc_lang_based_on,
    &rule_cc_lang_version_range, &rule_set_lang_manifest,
    &rule_set_lang_document,     &rule_set_lang_component_ref,
    &rule_override_lang,         &rule_texts_lang,
    &rule_texts_lang_schema,     NULL};

const struct rule_lang_map *rule_lang_map_at(size_t i)
{
    return i < sizeof maps / sizeof *maps ? maps[i] : NULL;
}

const struct rule_lang_map *rule_lang_map_of(enum rule_names which)
{
    for (size_t i = 0; maps[i]; i++)
        if (maps[i]->names == which) return maps[i];
    return NULL;
}

const struct rule_lang_member *rule_lang_member(const struct rule_lang_map *map, const char *name)
{
    for (const struct rule_lang_member *m = map ? map->members : NULL; m && m->name; m++)
        if (name && !strcmp(m->name, name)) return m;
    return NULL;
}

const char *rule_lang_kind_name(enum rule_lang_kind kind)
{
    switch (kind) {
    case RULE_LANG_STRING: return "string";
    case RULE_LANG_STRINGS: return "list of strings";
    case RULE_LANG_INTEGER: return "integer";
    case RULE_LANG_ENUM: return "one of";
    case RULE_LANG_MAPPING: return "mapping";
    case RULE_LANG_MAPPINGS: return "list of mappings";
    case RULE_LANG_STRING_MAP: return "mapping of strings";
    case RULE_LANG_VERSIONS: return "version spec";
    case RULE_LANG_SELECTORS: return "selectors";
    case RULE_LANG_PREDICATE: return "predicate";
    case RULE_LANG_PREDICATES: return "named predicates";
    case RULE_LANG_CLAUSE: return "check";
    case RULE_LANG_CLAUSES: return "list of checks";
    case RULE_LANG_FIXES: return "fixes";
    case RULE_LANG_RULE_IDS: return "rule ids";
    case RULE_LANG_ANY: return "any";
    }
    return "?";
}

/* ---- rule_names: the tables' names as NULL-terminated lists ------------------------ */

enum { NAMES_MAX = 32, NAMES_LISTS = RULE_NAMES_TEXTS_SCHEMA + 1 };

static const char *names[NAMES_LISTS][NAMES_MAX + 1];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
    for (size_t i = 0; maps[i]; i++) {
        size_t n = 0;
        for (const struct rule_lang_member *m = maps[i]->members; m->name && n < NAMES_MAX; m++)
            names[maps[i]->names][n++] = m->name;
    }
}

/* The values of the ENUM row NAME of the table WHICH. */
static const char *const *values_of(enum rule_names which, const char *name)
{
    const struct rule_lang_member *m = rule_lang_member(rule_lang_map_of(which), name);
    return m ? m->values : NULL;
}

const char *const *rule_names(enum rule_names which)
{
    switch (which) {
    case RULE_NAMES_EXPECT: return values_of(RULE_NAMES_EXAMPLE, "expect");
    case RULE_NAMES_REPORT_AT: return values_of(RULE_NAMES_CLAUSE, "report-at");
    case RULE_NAMES_LEVEL: return values_of(RULE_NAMES_RULE, "level");
    default: break;
    }
    if ((unsigned)which >= NAMES_LISTS || !rule_lang_map_of(which)) return NULL;
    pthread_once(&names_once, names_init);
    return names[which];
}

/* ---- the tables as JSON lines (`mcpdesc rules dump-language`) ---------------------- */

void rule_lang_dump(FILE *out)
{
    for (size_t i = 0; maps[i]; i++)
        for (const struct rule_lang_member *m = maps[i]->members; m->name; m++) {
            json_t *row =
                json_pack("{s:s, s:s, s:s, s:s, s:b, s:s}", "map", maps[i]->name, "schema",
                          maps[i]->schema, "member", m->name, "kind", rule_lang_kind_name(m->kind),
                          "required", (m->flags & RULE_LANG_REQUIRED) != 0, "doc", m->doc);
            if (m->values) {
                json_t *v = json_array();
                for (const char *const *k = m->values; *k; k++)
                    json_array_append_new(v, json_string(*k));
                json_object_set_new(row, "values", v);
            }
            if (m->map) json_object_set_new(row, "of", json_string(m->map->name));
            char *line = json_dumps(row, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fprintf(out, "%s\n", line);
            free(line);
            json_decref(row);
        }
}
