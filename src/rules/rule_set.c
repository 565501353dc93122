/* rule_set.c - a loaded rule set and its rules, read only: the accessors every stage
 * uses (name, tag, digest, versions, each rule's id, level, preset, yields, origin), and
 * freeing it. Needs no compiler: a predicate frees itself through its table row
 * (fn_pred.c). The loader (rule_set_load.c) builds it. */
#include "rules/rule.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/rule_data.h"
#include "rules/ruleInt.h"
#include "schema/schema.h"

void rule_fix_free(struct rule_fix *f)
{
    if (!f) return;
    free(f->title);
    fn_pred_free(f->when);
    free(f->at);
    free(f->member);
    json_decref(f->value);
    free(f);
}

void rule_clause_free(struct clause *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nsels; i++) sel_free(c->sels[i]);
    free(c->sels);
    free(c->sel_sides);
    fn_pred_free(c->when);
    fn_pred_free(c->require);
    free(c->message);
    free(c->hint);
    for (size_t i = 0; i < c->nfixes; i++) rule_fix_free(c->fixes[i]);
    free(c->fixes);
    for (size_t i = 0; i < c->nkids; i++) rule_clause_free(c->kids[i]);
    free(c->kids);
    free(c);
}

int rule_yield_matches(const char *pat, const char *id)
{
    size_t n = strlen(pat);
    if (n > 2 && !strcmp(pat + n - 2, ".*")) return !strncmp(pat, id, n - 1); /* "PREFIX." */
    return !strcmp(pat, id);
}

int rule_yields_to(const struct rule *r, const char *id)
{
    if (!id || !strcmp(r->id, id)) return 0;
    for (size_t i = 0; i < r->nyields; i++)
        if (rule_yield_matches(r->yields[i].pattern, id)) return 1;
    return 0;
}

size_t rule_yields_count(const struct rule *r)
{
    return r->nyields;
}

void rule_release(struct rule *r)
{
    if (r->borrowed) return; /* the base set frees it */
    free(r->id);
    free(r->file);
    json_decref(r->meta);
    rule_clause_free(r->check);
    for (size_t i = 0; i < r->nyields; i++) free(r->yields[i].pattern);
    free(r->yields);
    free(r->compare);
}

void rule_set_free(struct rule_set *rs)
{
    if (!rs) return;
    for (size_t i = 0; i < rs->rules.len; i++) rule_release(&rs->rules.items[i]);
    VEC_FREE(rs->rules);
    for (size_t i = 0; i < rs->overrides.len; i++) {
        free(rs->overrides.items[i].pattern);
        free(rs->overrides.items[i].reason);
    }
    VEC_FREE(rs->overrides);
    rule_set_free(rs->base);
    free(rs->extends);
    for (size_t i = 0; i < rs->refused.len; i++) {
        free(rs->refused.items[i].id);
        free(rs->refused.items[i].file);
    }
    VEC_FREE(rs->refused);
    doc_free(rs->manifest_doc);
    for (size_t i = 0; i < rs->file_docs.len; i++) doc_free(rs->file_docs.items[i]);
    VEC_FREE(rs->file_docs);
    for (size_t i = 0; i < rs->missing_dirs.len; i++) free(rs->missing_dirs.items[i]);
    VEC_FREE(rs->missing_dirs);
    free(rs->unread);
    for (size_t i = 0; i < rs->shared_preds.len; i++) fn_pred_free(rs->shared_preds.items[i]);
    VEC_FREE(rs->shared_preds);
    for (size_t i = 0; i < rs->digests.len; i++) free(rs->digests.items[i].path);
    VEC_FREE(rs->digests);
    for (size_t i = 0; i < rs->parsed.len; i++) free(rs->parsed.items[i].path);
    VEC_FREE(rs->parsed);
    rule_data_free_all(rs);
    for (size_t i = 0; i < rs->files.len; i++) free(rs->files.items[i]);
    VEC_FREE(rs->files);
    for (size_t i = 0; i < rs->collections.len; i++) free(rs->collections.items[i]);
    VEC_FREE(rs->collections);
    for (size_t i = 0; i < rs->scopes.len; i++) sel_free(rs->scopes.items[i]);
    VEC_FREE(rs->scopes);
    ver_list_release(&rs->versions);
    json_decref(rs->manifest);
    texts_spec_free(rs->texts);
    schema_ctx_free(rs->schemas);
    free(rs->versions_member);
    free(rs->ref_member);
    free(rs->ref_prefix);
    free(rs->name);
    free(rs->tag);
    free(rs->format);
    free(rs->fixtures);
    free(rs->sums);
    free(rs->released);
    free(rs->display_tag);
    free(rs->dir);
    free(rs);
}

const char *rule_set_dir(const struct rule_set *rs)
{
    return rs->dir;
}
const struct rule_set *rule_set_base(const struct rule_set *rs)
{
    return rs->base;
}
struct schema_ctx *rule_set_schemas(const struct rule_set *rs)
{
    return rs->schemas;
}
const char *rule_set_name(const struct rule_set *rs)
{
    return rs->name;
}
const char *rule_set_tag(const struct rule_set *rs)
{
    return rs->tag;
}
const char *rule_set_digest(const struct rule_set *rs)
{
    return rs->digest;
}
const char *rule_set_sums(const struct rule_set *rs)
{
    return rs->sums;
}
const char *rule_set_released_tag(const struct rule_set *rs)
{
    return rs->released;
}
const char *rule_set_display_tag(const struct rule_set *rs)
{
    return rs->display_tag;
}
const char *rule_set_fixtures(const struct rule_set *rs)
{
    return rs->fixtures;
}
char *rule_set_fixtures_path(const struct rule_set *rs)
{
    char *dir = xstrdup(rs->dir);
    const char *rest = rs->fixtures;
    for (;;) {
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
        char *slash = strrchr(dir, '/');
        const char *last = slash ? slash + 1 : dir;
        if (strncmp(rest, "../", 3) || !strcmp(last, "..") || !strcmp(last, ".") || !*last) break;
        if (slash) *slash = '\0';
        else strcpy(dir, ".");
        rest += 3;
    }
    char *out = !strcmp(dir, ".") && *rest ? xstrdup(rest) : xasprintf("%s/%s", dir, rest);
    free(dir);
    /* through a symbolic link (an installed rules -> releases/NAME@TAG/rules), ".." is
     * the link target's parent: keep the path as written unless both name one place */
    char *plain = xasprintf("%s/%s", rs->dir, rs->fixtures);
    char *a = realpath(plain, NULL), *b = realpath(out, NULL);
    int same = (a && b && !strcmp(a, b)) || (!a && !b); /* neither there: the short form */
    free(a);
    free(b);
    if (!same && strcmp(plain, out)) {
        free(out);
        return plain;
    }
    free(plain);
    return out;
}

enum rule_file_kind rule_set_digest_kind(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].kind;
}

const char *rule_set_docs_url(const struct rule_set *rs)
{
    return json_string_value(json_object_get(rs->manifest, "docs-url"));
}

char *rule_page_url(const char *docs_url, const char *id)
{
    if (!docs_url || !*docs_url || !id) return NULL;
    return xasprintf("%s%s%s.html", docs_url, docs_url[strlen(docs_url) - 1] == '/' ? "" : "/", id);
}

const char *rule_set_tier_name(const struct rule_set *rs, long tier)
{
    char key[24];
    snprintf(key, sizeof key, "%ld", tier);
    return json_string_value(json_object_get(json_object_get(rs->manifest, "tiers"), key));
}

const struct ver_list *rule_set_versions(const struct rule_set *rs)
{
    return &rs->versions;
}
const struct res_config *rule_set_res_config(const struct rule_set *rs)
{
    return &rs->rescfg;
}
size_t rule_set_count(const struct rule_set *rs)
{
    return rs->rules.len;
}
const struct rule *rule_set_rule(const struct rule_set *rs, size_t i)
{
    return &rs->rules.items[i];
}
int rule_is_session(const struct rule *r)
{
    return r->session;
}
size_t rule_set_session_count(const struct rule_set *rs)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->rules.len; i++) n += rs->rules.items[i].session != 0;
    return n;
}
int rule_is_change(const struct rule *r)
{
    return r->compare != NULL;
}
const char *rule_compare(const struct rule *r)
{
    return r->compare;
}
enum rule_category rule_category(const struct rule *r)
{
    return r->category;
}
size_t rule_set_change_count(const struct rule_set *rs)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->rules.len; i++) n += rs->rules.items[i].compare != NULL;
    return n;
}
size_t rule_set_digest_count(const struct rule_set *rs)
{
    return rs->digests.len;
}
const char *rule_set_digest_path(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].path;
}
const char *rule_set_digest_hex(const struct rule_set *rs, size_t i)
{
    return rs->digests.items[i].hex;
}
size_t rule_set_file_count(const struct rule_set *rs)
{
    return rs->files.len;
}
const char *rule_set_file(const struct rule_set *rs, size_t i)
{
    return rs->files.items[i];
}

int rule_set_ok(const struct rule_set *rs)
{
    return rs->ok;
}
const doc *rule_set_manifest_doc(const struct rule_set *rs)
{
    return rs->manifest_doc;
}
const doc *rule_set_file_doc(const struct rule_set *rs, size_t i)
{
    return i < rs->file_docs.len ? rs->file_docs.items[i] : NULL;
}
size_t rule_set_refused_count(const struct rule_set *rs)
{
    return rs->refused.len;
}
const struct rule_refused *rule_set_refused(const struct rule_set *rs, size_t i)
{
    return &rs->refused.items[i];
}

const struct rule *rule_set_find(const struct rule_set *rs, const char *id)
{
    for (size_t i = 0; i < rs->rules.len; i++)
        if (!strcmp(rs->rules.items[i].id, id)) return &rs->rules.items[i];
    return NULL;
}

const char *rule_id(const struct rule *r)
{
    return r->id;
}
enum diag_level rule_level(const struct rule *r)
{
    return r->level;
}
ver_mask rule_applies(const struct rule *r)
{
    return r->applies;
}
char *rule_set_local_url(const struct rule_set *rs, const char *url)
{
    const char *prefix;
    json_t *dirv;
    json_t *map = json_object_get(rs->manifest, "schema-map");
    json_object_foreach(map, prefix, dirv)
    {
        size_t n = strlen(prefix);
        if (!json_is_string(dirv) || !n || strncmp(url, prefix, n)) continue;
        const char *rest = url + n, *dir = json_string_value(dirv);
        /* the set's directory by name, so that "../schema/" leads to "schema/" */
        char *real = realpath(rs->dir, NULL);
        const char *base = real ? real : rs->dir;
        const char *slash = strrchr(base, '/');
        char *joined = xasprintf("%s/%s%s%.*s", slash ? slash + 1 : base, dir,
                                 *dir && dir[strlen(dir) - 1] != '/' && *rest != '/' ? "/" : "",
                                 (int)strcspn(rest, "?#"), rest);
        char *local = util_normalize_path(joined);
        free(joined);
        free(real);
        return local;
    }
    return NULL;
}

const char *rule_file(const struct rule *r)
{
    return r->file;
}
static size_t fix_positions(const struct clause *c, uint32_t *lines, uint32_t *cols, size_t max,
                            size_t n)
{
    if (!c) return n;
    for (size_t i = 0; i < c->nfixes; i++, n++)
        if (n < max) {
            lines[n] = c->fixes[i]->line;
            cols[n] = c->fixes[i]->col;
        }
    for (size_t k = 0; k < c->nkids; k++) n = fix_positions(c->kids[k], lines, cols, max, n);
    return n;
}
size_t rule_fix_positions(const struct rule *r, uint32_t *lines, uint32_t *cols, size_t max)
{
    return fix_positions(r->check, lines, cols, max, 0);
}
json_t *rule_meta(const struct rule *r)
{
    return r->meta;
}

const char *rule_str(const struct rule *r, const char *member)
{
    return json_string_value(json_object_get(r->meta, member));
}

static const char *const preset_names[] = {NULL, "recommended", "strict", "all"};

enum rule_preset rule_preset(const struct rule *r)
{
    return r->preset ? r->preset : RULE_PRESET_RECOMMENDED;
}
const char *rule_preset_reason(const struct rule *r)
{
    if (r->ov_preset) return r->ov_preset->reason;
    return rule_preset(r) == RULE_PRESET_RECOMMENDED ? NULL : rule_str(r, "preset-reason");
}
int rule_in_preset(const struct rule *r, enum rule_preset p)
{
    return p == RULE_PRESET_NONE || (!r->off && rule_preset(r) <= p);
}
int rule_off(const struct rule *r)
{
    return r->off;
}
int rule_level_overridden(const struct rule *r)
{
    return r->ov_level != NULL;
}
int rule_preset_overridden(const struct rule *r)
{
    return r->ov_preset != NULL;
}
enum diag_level rule_file_level(const struct rule *r)
{
    return r->ov_level ? r->file_level : r->level;
}
enum rule_preset rule_file_preset(const struct rule *r)
{
    return r->ov_preset ? r->file_preset : rule_preset(r);
}
const char *rule_level_reason(const struct rule *r)
{
    return r->ov_level ? r->ov_level->reason : NULL;
}
const struct rule_set *rule_level_set(const struct rule *r)
{
    return r->ov_level ? r->ov_level->set : NULL;
}
const struct rule_set *rule_preset_set(const struct rule *r)
{
    return r->ov_preset ? r->ov_preset->set : NULL;
}

const char *rule_preset_name(enum rule_preset p)
{
    return p >= RULE_PRESET_RECOMMENDED && p <= RULE_PRESET_ALL ? preset_names[p] : NULL;
}
int rule_preset_parse(const char *name, enum rule_preset *out)
{
    for (int p = RULE_PRESET_RECOMMENDED; name && p <= RULE_PRESET_ALL; p++)
        if (!strcmp(name, preset_names[p])) {
            *out = (enum rule_preset)p;
            return 0;
        }
    return -1;
}
const char *rule_preset_names(void)
{
    return "recommended, strict, all";
}
int rule_set_preset_narrows(const struct rule_set *rs, enum rule_preset p)
{
    for (size_t i = 0; i < rs->rules.len; i++)
        if (!rule_in_preset(&rs->rules.items[i], p)) return 1;
    return 0;
}
int rule_set_has_presets(const struct rule_set *rs)
{
    for (size_t i = 0; i < rs->rules.len; i++) /* a rule an override turns off is in none */
        if (rule_preset(&rs->rules.items[i]) != RULE_PRESET_RECOMMENDED) return 1;
    return 0;
}

const struct rule_set *rule_origin(const struct rule *r)
{
    return r->origin;
}
const char *rule_origin_name(const struct rule *r)
{
    return r->origin->name;
}
const char *rule_origin_tag(const struct rule *r)
{
    return r->origin->tag;
}
const char *rule_origin_display_tag(const struct rule *r)
{
    return r->origin->display_tag;
}
const char *rule_origin_dir(const struct rule *r)
{
    return r->origin->dir;
}
char *rule_origin_fixtures(const struct rule *r)
{
    return xasprintf("%s/%s", r->origin->dir, r->origin->fixtures);
}

const char *rule_set_suggest(const struct rule_set *rs, const char *id)
{
    const char *best = NULL, *part = NULL;
    size_t bd = 4;
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const char *cand = rule_set_rule(rs, i)->id;
        size_t d = util_edit_distance(id, cand);
        if (d < bd) {
            bd = d;
            best = cand;
        }
        if (!part && *id && (strstr(cand, id) || strstr(id, cand))) part = cand;
    }
    return best ? best : part;
}

const struct texts_spec *rule_set_texts(const struct rule_set *rs)
{
    for (; rs; rs = rs->base)
        if (rs->texts) return rs->texts;
    return NULL;
}
