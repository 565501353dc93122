/* schema_dialect.c - dialects: their names and meta-schema URIs, the vocabularies of
 * 2019-09 and 2020-12, and the dialect a $schema names (a known meta-schema or a
 * custom one registered on the context, read through schema_ctx_fetch). */
#include <stdlib.h>
#include <string.h>

#include "schema/schemaInt.h"

static const struct {
    enum schema_dialect d;
    const char *uri, *name;
} DIALECTS[] = {
    {SCHEMA_DRAFT2020_12, "https://json-schema.org/draft/2020-12/schema", "2020-12"},
    {SCHEMA_DRAFT2019_09, "https://json-schema.org/draft/2019-09/schema", "2019-09"},
    {SCHEMA_DRAFT07, "http://json-schema.org/draft-07/schema#", "draft-07"},
    {SCHEMA_DRAFT06, "http://json-schema.org/draft-06/schema#", "draft-06"},
    {SCHEMA_DRAFT04, "http://json-schema.org/draft-04/schema#", "draft-04"},
};
#define NDIALECTS (sizeof DIALECTS / sizeof DIALECTS[0])

/* Exactly the meta-schema URI, with or without an empty fragment. */
static enum schema_dialect dialect_from_known_uri(const char *uri)
{
    size_t n = strlen(uri);
    if (n && uri[n - 1] == '#') n--;
    for (size_t i = 0; i < NDIALECTS; i++) {
        size_t m = strlen(DIALECTS[i].uri);
        if (DIALECTS[i].uri[m - 1] == '#') m--;
        if (m == n && !strncmp(uri, DIALECTS[i].uri, n)) return DIALECTS[i].d;
    }
    return SCHEMA_DIALECT_NONE;
}

enum schema_dialect schema_dialect_parse(const char *name)
{
    static const struct {
        const char *alias;
        enum schema_dialect d;
    } AL[] = {{"2020-12", SCHEMA_DRAFT2020_12},
              {"draft2020-12", SCHEMA_DRAFT2020_12},
              {"2019-09", SCHEMA_DRAFT2019_09},
              {"draft2019-09", SCHEMA_DRAFT2019_09},
              {"draft-07", SCHEMA_DRAFT07},
              {"draft7", SCHEMA_DRAFT07},
              {"7", SCHEMA_DRAFT07},
              {"draft-06", SCHEMA_DRAFT06},
              {"draft6", SCHEMA_DRAFT06},
              {"6", SCHEMA_DRAFT06},
              {"draft-04", SCHEMA_DRAFT04},
              {"draft4", SCHEMA_DRAFT04},
              {"4", SCHEMA_DRAFT04}};
    for (size_t i = 0; i < sizeof AL / sizeof AL[0]; i++)
        if (!strcmp(name, AL[i].alias)) return AL[i].d;
    return dialect_from_known_uri(name);
}

const char *schema_dialect_uri(enum schema_dialect d)
{
    for (size_t i = 0; i < NDIALECTS; i++)
        if (DIALECTS[i].d == d) return DIALECTS[i].uri;
    return NULL;
}

const char *schema_dialect_name(enum schema_dialect d)
{
    for (size_t i = 0; i < NDIALECTS; i++)
        if (DIALECTS[i].d == d) return DIALECTS[i].name;
    return "unknown";
}

static const struct {
    const char *uri;
    unsigned bit;
} VOCABS[] = {
    {"https://json-schema.org/draft/2020-12/vocab/core", SCHEMA_V_CORE},
    {"https://json-schema.org/draft/2020-12/vocab/applicator", SCHEMA_V_APPLICATOR},
    {"https://json-schema.org/draft/2020-12/vocab/unevaluated", SCHEMA_V_UNEVALUATED},
    {"https://json-schema.org/draft/2020-12/vocab/validation", SCHEMA_V_VALIDATION},
    {"https://json-schema.org/draft/2020-12/vocab/meta-data", SCHEMA_V_METADATA},
    {"https://json-schema.org/draft/2020-12/vocab/format-annotation", SCHEMA_V_FORMAT_ANNOTATION},
    {"https://json-schema.org/draft/2020-12/vocab/format-assertion", SCHEMA_V_FORMAT_ASSERTION},
    {"https://json-schema.org/draft/2020-12/vocab/content", SCHEMA_V_CONTENT},
    {"https://json-schema.org/draft/2019-09/vocab/core", SCHEMA_V_CORE},
    {"https://json-schema.org/draft/2019-09/vocab/applicator",
     SCHEMA_V_APPLICATOR | SCHEMA_V_UNEVALUATED},
    {"https://json-schema.org/draft/2019-09/vocab/validation", SCHEMA_V_VALIDATION},
    {"https://json-schema.org/draft/2019-09/vocab/meta-data", SCHEMA_V_METADATA},
    {"https://json-schema.org/draft/2019-09/vocab/format", SCHEMA_V_FORMAT_ANNOTATION},
    {"https://json-schema.org/draft/2019-09/vocab/content", SCHEMA_V_CONTENT},
};

/* Dialect of a $schema URI: a known meta-schema, or a registered custom meta-schema
 * (its $vocabulary, on top of its own $schema). Returns 0, or -1 unknown (with *why). */
static int dialect_of_uri(schema_ctx *ctx, const char *uri, int *draft, unsigned *vocab, int depth,
                          char **why)
{
    enum schema_dialect d = dialect_from_known_uri(uri);
    if (d) {
        *draft = (int)d;
        *vocab = SCHEMA_V_ALL;
        return 0;
    }
    char *ferr = NULL;
    json_t *m = depth < 8 ? schema_ctx_fetch(ctx, uri, &ferr) : NULL;
    free(ferr);
    json_t *ms = json_object_get(m, "$schema");
    if (!json_is_string(ms) || schema_has_nul(ms) || !strcmp(json_string_value(ms), uri)) {
        *why = xasprintf("unknown dialect \"%s\" in $schema", uri);
        return -1;
    }
    if (dialect_of_uri(ctx, json_string_value(ms), draft, vocab, depth + 1, why) < 0) return -1;
    json_t *voc = json_object_get(m, "$vocabulary");
    if (*draft >= 2019 && json_is_object(voc)) {
        unsigned v = SCHEMA_V_CORE;
        const char *k;
        json_t *val;
        json_object_foreach(voc, k, val)
        {
            size_t i;
            for (i = 0; i < sizeof VOCABS / sizeof VOCABS[0]; i++)
                if (!strcmp(VOCABS[i].uri, k)) break;
            if (i < sizeof VOCABS / sizeof VOCABS[0]) v |= VOCABS[i].bit;
            else if (json_is_true(val)) {
                *why =
                    xasprintf("dialect \"%s\" requires the unsupported vocabulary \"%s\"", uri, k);
                return -1;
            }
        }
        *vocab = v;
    }
    return 0;
}

int schema_dialect_of(schema_ctx *ctx, json_t *sv, int *draft, unsigned *vocab, char **why)
{
    if (schema_has_nul(sv)) {
        *why = schema_nul_message("dialect", "$schema", sv);
        return -1;
    }
    return dialect_of_uri(ctx, json_string_value(sv), draft, vocab, 0, why);
}

enum schema_dialect schema_declared_dialect(schema_ctx *ctx, json_t *sch, enum schema_dialect dflt)
{
    json_t *sv = json_object_get(sch, "$schema");
    if (!json_is_string(sv)) return dflt;
    int draft;
    unsigned vocab;
    char *why = NULL;
    if (schema_dialect_of(ctx, sv, &draft, &vocab, &why) < 0) {
        free(why);
        return SCHEMA_DIALECT_NONE;
    }
    return (enum schema_dialect)draft;
}
