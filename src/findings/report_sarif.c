/* report_sarif.c - SARIF 2.1.0 for code scanning (GitHub and others): one run whose
 * tool.driver lists every rule of the loaded set plus the built-in mcpdesc.* rules, one
 * result per diagnostic (physical location relative to the working directory, the JSON
 * Pointer as a logical location, versions and rule-set tag in property bags), and an
 * input that could not be judged (unreadable, unparsable, a directory without a
 * description) both as a result of REPORT_INPUT_RULE at the error's position, which code
 * scanning shows as an alert, and as a tool execution notification. Checked against the
 * OASIS schema by tests/validate-sarif.sh. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "findings/report.h"
#include "findings/baseline.h"
#include "findings/fingerprint.h"
#include "base/util.h"

#define SARIF_SCHEMA                                                                               \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define SARIF_SRCROOT "%SRCROOT%"
/* partialFingerprints key: the fingerprint's kind and version (fingerprint.h) */
#define SARIF_FINGERPRINT "mcpdesc/v1"

static const char *sarif_level(enum diag_level l)
{
    return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

/* Percent-encode what may not appear in a URI path (RFC 3986 pchar plus '/'); ':' is
 * encoded too so that a relative path's first segment never reads as a scheme. */
static void add_uri_path(struct buf *b, const char *s)
{
    static const char ok[] = "-._~!$&'()*+,;=@/";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr(ok, *p))
            buf_addc(b, (char)*p);
        else buf_addf(b, "%%%02X", *p);
    }
}

/* The artifact location of NAME: a URI relative to the working directory (base id
 * %SRCROOT%) or a file: URI for an absolute path elsewhere. New reference. */
static json_t *artifact_location(const char *name, const char *cwd)
{
    if (!strcmp(name, "<stdin>"))
        return json_pack("{s:{s:s}}", "description", "text", "standard input");
    const char *rel = name;
    size_t cl = cwd ? strlen(cwd) : 0;
    if (rel[0] == '/' && cl && !strncmp(rel, cwd, cl) && (rel[cl] == '/' || cl == 1))
        rel += cl == 1 ? 1 : cl + 1;
    struct buf b = BUF_INIT;
    json_t *loc;
    if (rel[0] == '/') {
        buf_adds(&b, "file://");
        add_uri_path(&b, rel);
        loc = json_pack("{s:s}", "uri", buf_str(&b));
    } else {
        while (rel[0] == '.' && rel[1] == '/')
            for (rel += 2; *rel == '/'; rel++) {}
        add_uri_path(&b, rel);
        loc = json_pack("{s:s, s:s}", "uri", buf_str(&b), "uriBaseId", SARIF_SRCROOT);
    }
    buf_release(&b);
    return loc;
}

/* D: a diagnostic reported at a match (report-at: match), whose region ends where the
 * match does (SARIF 2.1.0 3.30.7-3.30.8: endLine, and endColumn the column just after
 * its last character), or NULL. */
static json_t *physical_location(const char *name, const char *cwd, uint32_t line, uint32_t col,
                                 const struct diag *d)
{
    json_t *pl = json_pack("{s:o}", "artifactLocation", artifact_location(name, cwd));
    if (line) {
        json_t *region = json_pack("{s:I}", "startLine", (json_int_t)line);
        if (col) json_object_set_new(region, "startColumn", json_integer(col));
        if (col && d && d->has_match && d->end_line) {
            json_object_set_new(region, "endLine", json_integer(d->end_line));
            json_object_set_new(region, "endColumn", json_integer(d->end_col));
        }
        json_object_set_new(pl, "region", region);
    }
    return pl;
}

static json_t *text(const char *s)
{
    return json_pack("{s:s}", "text", s ? s : "");
}

/* "mcp.tool.input-schema.object-root" -> "McpToolInputSchemaObjectRoot": SARIF wants a
 * name without whitespace that a person can read. */
static char *pascal_name(const char *id)
{
    struct buf b = BUF_INIT;
    int up = 1;
    for (const char *p = id; *p; p++) {
        if (*p == '.' || *p == '-' || *p == '_') {
            up = 1;
            continue;
        }
        buf_addc(&b, up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p);
        up = 0;
    }
    return buf_detach(&b);
}

/* The run's docs-url (report_opts) ending in '/' (new string), or NULL: the rule pages
 * are docs-url + id + .html. */
static char *docs_url(const char *u)
{
    if (!u || !*u) return NULL;
    return u[strlen(u) - 1] == '/' ? xstrdup(u) : xasprintf("%s/", u);
}

static json_t *versions_array(const struct ver_list *vl, ver_mask m)
{
    json_t *a = json_array();
    for (size_t i = 0; vl && i < vl->n; i++)
        if (m & ((ver_mask)1 << i)) json_array_append_new(a, json_string(vl->names[i]));
    return a;
}

static json_t *descriptor(const char *id, enum diag_level level, const char *short_desc,
                          const char *full_desc, const char *url_base)
{
    char *name = pascal_name(id);
    json_t *r = json_pack("{s:s, s:s, s:o, s:o}", "id", id, "name", name, "shortDescription",
                          text(short_desc), "fullDescription", text(full_desc));
    free(name);
    char *uri = url_base ? xasprintf("%s%s.html", url_base, id) : NULL;
    struct buf help = BUF_INIT, md = BUF_INIT;
    buf_adds(&help, full_desc);
    buf_addf(&md, "**%s**", short_desc);
    if (strcmp(short_desc, full_desc)) {
        buf_addf(&help, "\n\n%s", short_desc);
        buf_addf(&md, "\n\n%s", full_desc);
    }
    if (uri) {
        buf_addf(&help, "\n\nRule page: %s", uri);
        buf_addf(&md, "\n\n[Rule page](%s)", uri);
    }
    json_object_set_new(r, "help",
                        json_pack("{s:s, s:s}", "text", buf_str(&help), "markdown", buf_str(&md)));
    buf_release(&help);
    buf_release(&md);
    if (uri) json_object_set_new(r, "helpUri", json_string(uri));
    free(uri);
    json_object_set_new(r, "defaultConfiguration", json_pack("{s:s}", "level", sarif_level(level)));
    return r;
}

/* tool.driver.rules: the loaded rules in order, then the built-ins, then, when an input
 * could not be judged (INPUT_ERRORS), REPORT_INPUT_RULE. */
static json_t *driver_rules(const struct report_opts *o, int input_errors)
{
    const struct rule_set *rs = o->rs;
    char *base = docs_url(o->docs_url);
    json_t *rules = json_array();
    const struct ver_list *vl = rule_set_versions(rs);
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        const char *summary = rule_str(r, "summary");
        const char *req = rule_str(r, "requirement");
        if (!req) req = summary ? summary : rule_id(r);
        if (!summary) summary = req;
        json_t *d = descriptor(rule_id(r), rule_level(r), req, summary, base);
        if (rule_off(r)) /* the set's override turned it off (SARIF 2.1.0 3.50.3) */
            json_object_set_new(json_object_get(d, "defaultConfiguration"), "enabled",
                                json_false());
        json_t *props = json_object();
        json_t *tags = json_array();
        const char *surface = rule_str(r, "surface"), *kind = rule_str(r, "kind");
        if (surface) json_array_append_new(tags, json_string(surface));
        if (kind) json_array_append_new(tags, json_string(kind));
        json_object_set_new(props, "tags", tags);
        const char *req_level = rule_str(r, "level");
        if (req_level) json_object_set_new(props, "requirementLevel", json_string(req_level));
        json_object_set_new(props, "versions", versions_array(vl, rule_applies(r)));
        json_object_set_new(d, "properties", props);
        json_array_append_new(rules, d);
    }
    for (size_t i = 0; i < res_nbuiltins; i++) {
        const struct res_builtin *b = &res_builtins[i];
        json_t *d = descriptor(b->id, b->level, b->summary, b->summary, base);
        json_object_set_new(d, "properties", json_pack("{s:[s]}", "tags", "built-in"));
        json_array_append_new(rules, d);
    }
    if (input_errors) {
        json_t *d = descriptor(REPORT_INPUT_RULE, DIAG_ERROR, REPORT_INPUT_SUMMARY,
                               REPORT_INPUT_SUMMARY, NULL);
        json_object_set_new(d, "properties", json_pack("{s:[s]}", "tags", "built-in"));
        json_array_append_new(rules, d);
    }
    free(base);
    return rules;
}

static json_int_t rule_index(const struct rule_set *rs, const char *id)
{
    for (size_t i = 0; i < rule_set_count(rs); i++)
        if (!strcmp(rule_id(rule_set_rule(rs, i)), id)) return (json_int_t)i;
    for (size_t i = 0; i < res_nbuiltins; i++)
        if (!strcmp(res_builtins[i].id, id)) return (json_int_t)(rule_set_count(rs) + i);
    if (!strcmp(id, REPORT_INPUT_RULE)) return (json_int_t)(rule_set_count(rs) + res_nbuiltins);
    return -1;
}

/* SARIF 2.1.0 3.27.22: the other places the finding concerns, each located as a
 * result's own location is (3.28: id, unique within the result; physicalLocation;
 * the pointer as a logical location; what it is as its message). */
static json_t *related_locations(const struct report_opts *o, const char *cwd, const struct diag *d)
{
    json_t *a = json_array();
    for (size_t i = 0; i < d->nrelated; i++) {
        const struct diag_related *r = &d->related[i];
        json_t *loc = json_pack("{s:I, s:o}", "id", (json_int_t)(i + 1), "physicalLocation",
                                physical_location(r->file, cwd, r->line, r->col, NULL));
        if (r->pointer)
            json_object_set_new(loc, "logicalLocations",
                                json_pack("[{s:s}]", "fullyQualifiedName", r->pointer));
        /* mcpdesc diff: the change's place in OLD (judge_diff.h) says so to a reader */
        int old_place = o->diff && r->message && !strcmp(r->message, "old");
        if (r->message)
            json_object_set_new(loc, "message", text(old_place ? "old place" : r->message));
        json_array_append_new(a, loc);
    }
    return a;
}

static json_t *result(const struct report_opts *o, const char *cwd, const struct report_file *f,
                      const struct diag *d)
{
    json_t *res = json_object();
    json_int_t idx = d->rule ? rule_index(o->rs, d->rule) : -1;
    if (d->rule) json_object_set_new(res, "ruleId", json_string(d->rule));
    if (idx >= 0) json_object_set_new(res, "ruleIndex", json_integer(idx));
    json_object_set_new(res, "level", json_string(sarif_level(d->level)));
    json_object_set_new(res, "message", text(d->message));
    json_t *loc =
        json_pack("{s:o}", "physicalLocation", physical_location(f->name, cwd, d->line, d->col, d));
    if (d->pointer)
        json_object_set_new(loc, "logicalLocations",
                            json_pack("[{s:s}]", "fullyQualifiedName", d->pointer));
    json_object_set_new(res, "locations", json_pack("[o]", loc));
    if (d->nrelated) json_object_set_new(res, "relatedLocations", related_locations(o, cwd, d));
    json_t *props =
        json_pack("{s:o}", "versions", versions_array(rule_set_versions(o->rs), d->versions));
    /* a released tag only: a modified set is told by the run's ruleSet.modified */
    if (rule_set_released_tag(o->rs))
        json_object_set_new(props, "ruleSetTag", json_string(rule_set_released_tag(o->rs)));
    if (rule_set_digest(o->rs))
        json_object_set_new(props, "ruleSetDigest", json_string(rule_set_digest(o->rs)));
    if (d->hint) json_object_set_new(props, "hint", json_string(d->hint));
    if (d->component) json_object_set_new(props, "component", json_string(d->component));
    if (o->diff) { /* what the change means, and the item it is about (report_diff.c's JSON) */
        const struct rule *r = d->rule ? rule_set_find(o->rs, d->rule) : NULL;
        const char *category = r ? rule_category_name(rule_category(r)) : NULL;
        if (category) json_object_set_new(props, "category", json_string(category));
        if (d->item_kind) {
            json_t *item = json_pack("{s:s}", "kind", d->item_kind);
            if (d->item_name) json_object_set_new(item, "name", json_string(d->item_name));
            json_object_set_new(props, "item", item);
        }
    }
    json_object_set_new(res, "properties", props);
    /* the identity a baseline keys on; code scanning tracks results across commits by it */
    if (d->fingerprint)
        json_object_set_new(res, "partialFingerprints",
                            json_pack("{s:s}", SARIF_FINGERPRINT, d->fingerprint));
    if (d->baseline != DIAG_BASELINE_NONE)
        json_object_set_new(
            res, "baselineState",
            json_string(d->baseline == DIAG_BASELINE_UNCHANGED ? "unchanged" : "new"));
    /* SARIF 2.1.0 3.27.23 and 3.35: a config entry is external, x-mcpdesc-ignore in the
     * described file itself inSource; accepted, with the written reason */
    if (d->suppressed) {
        json_t *s = json_pack("{s:s, s:s, s:s}", "kind",
                              d->suppress_kind == DIAG_SUPPRESS_INLINE ? "inSource" : "external",
                              "status", "accepted", "justification", d->suppressed);
        if (d->suppressed_until)
            json_object_set_new(s, "properties", json_pack("{s:s}", "until", d->suppressed_until));
        json_object_set_new(res, "suppressions", json_pack("[o]", s));
    }
    return res;
}

static enum diag_level level_named(const char *s)
{
    enum diag_level l = DIAG_ERROR;
    diag_level_parse(s, &l);
    return l;
}

/* A recorded finding that no longer occurs: baselineState "absent" (SARIF 3.27.24), where
 * the baseline recorded it (the file; the item and pointer in the property bag). */
static json_t *absent_result(const struct report_opts *o, const char *cwd,
                             const struct baseline_entry *e)
{
    json_t *res = json_object();
    json_int_t idx = rule_index(o->rs, e->rule);
    json_object_set_new(res, "ruleId", json_string(e->rule));
    if (idx >= 0) json_object_set_new(res, "ruleIndex", json_integer(idx));
    json_object_set_new(res, "level", json_string(sarif_level(level_named(e->level))));
    json_object_set_new(res, "message", text(e->message));
    char *path = baseline_entry_path(o->baseline, e);
    json_object_set_new(
        res, "locations",
        json_pack("[{s:o}]", "physicalLocation", physical_location(path, cwd, 0, 0, NULL)));
    free(path);
    json_t *vs = json_array();
    for (size_t k = 0; e->versions[k]; k++) json_array_append_new(vs, json_string(e->versions[k]));
    json_object_set_new(
        res, "properties",
        json_pack("{s:o, s:s, s:s}", "versions", vs, "item", e->item, "pointer", e->pointer));
    json_object_set_new(res, "partialFingerprints",
                        json_pack("{s:s}", SARIF_FINGERPRINT, e->fingerprint));
    json_object_set_new(res, "baselineState", json_string("absent"));
    return res;
}

/* The config of the run on the invocation (SARIF 2.1.0 3.20.5): its top-level levels as
 * ruleConfigurationOverrides (a level, or enabled false for off), one per rule they
 * change; the file, and every change (with the per-file overrides, which SARIF cannot
 * express), in the invocation's properties. */
static void config_overrides(const struct report_opts *o, json_t *inv)
{
    const struct config *c = o->config;
    json_t *ovs = json_array();
    for (size_t i = 0; i < rule_set_count(o->rs) + res_nbuiltins; i++) {
        size_t nr = rule_set_count(o->rs);
        const char *id = i < nr ? rule_id(rule_set_rule(o->rs, i)) : res_builtins[i - nr].id;
        int from =
            i < nr ? (int)rule_level(rule_set_rule(o->rs, i)) : (int)res_builtins[i - nr].level;
        int to = config_rule_level(c, id, from);
        if (to == from) continue;
        json_t *conf = to == CONFIG_OFF
            ? json_pack("{s:b}", "enabled", 0)
            : json_pack("{s:b, s:s}", "enabled", 1, "level", sarif_level((enum diag_level)to));
        json_array_append_new(ovs,
                              json_pack("{s:{s:s, s:I}, s:o}", "descriptor", "id", id, "index",
                                        (json_int_t)i, "configuration", conf));
    }
    if (json_array_size(ovs)) json_object_set(inv, "ruleConfigurationOverrides", ovs);
    json_decref(ovs);
    json_object_set_new(inv, "properties", json_pack("{s:o}", "config", report_config_json(o)));
}

void report_sarif(const struct report_opts *o, const struct report_file *files, size_t n)
{
    const char *cwd = o->cwd;

    /* no informationUri (optional, SARIF 3.19.17): mcpdesc has no web site of its own */
    json_t *driver = json_pack("{s:s, s:s, s:s}", "name", "mcpdesc", "version", MCPDESC_VERSION,
                               "semanticVersion", MCPDESC_VERSION);
    int input_errors = 0;
    for (size_t i = 0; i < n; i++) input_errors |= files[i].error && !files[i].error->rule;
    json_object_set_new(driver, "rules", driver_rules(o, input_errors));

    json_t *results = json_array(), *notes = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->error) {
            json_t *loc =
                json_pack("{s:o}", "physicalLocation",
                          physical_location(f->name, cwd, f->error->line, f->error->col, NULL));
            json_array_append_new(notes,
                                  json_pack("{s:o, s:s, s:[o]}", "message", text(f->error->message),
                                            "level", "error", "locations", loc));
            /* and a result, at the same place: code scanning shows results only */
            struct diag d = *f->error;
            if (!d.rule) d.rule = (char *)REPORT_INPUT_RULE;
            char *file = fingerprint_file(cwd, f->name);
            d.fingerprint = fingerprint_make(d.rule, file, NULL, NULL, NULL);
            json_array_append_new(results, result(o, cwd, f, &d));
            free(d.fingerprint);
            free(file);
            continue;
        }
        for (size_t k = 0; k < f->diags.len; k++)
            if (report_listed(o, &f->diags.items[k]))
                json_array_append_new(results, result(o, cwd, f, &f->diags.items[k]));
    }
    for (size_t i = 0; o->baseline && i < o->baseline->n; i++)
        if (baseline_entry_absent(&o->baseline->entries[i]))
            json_array_append_new(results, absent_result(o, cwd, &o->baseline->entries[i]));
    json_t *inv = json_pack("{s:b}", "executionSuccessful", json_array_size(notes) == 0);
    if (json_array_size(notes)) json_object_set(inv, "toolExecutionNotifications", notes);
    json_decref(notes);
    if (o->config) config_overrides(o, inv);

    json_t *run = json_pack("{s:{s:o}, s:[o]}", "tool", "driver", driver, "invocations", inv);
    if (cwd) {
        struct buf b = BUF_INIT;
        buf_adds(&b, "file://");
        add_uri_path(&b, cwd);
        if (b.len && b.s[b.len - 1] != '/') buf_addc(&b, '/');
        json_object_set_new(run, "originalUriBaseIds",
                            json_pack("{s:{s:s}}", SARIF_SRCROOT, "uri", buf_str(&b)));
        buf_release(&b);
    }
    json_object_set_new(run, "results", results);
    json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
    json_object_set_new(run, "properties",
                        json_pack("{s:o}", "ruleSet", report_rule_set_json(o->rs)));
    json_object_set_new(
        json_object_get(json_object_get(run, "properties"), "ruleSet"), "versions",
        versions_array(rule_set_versions(o->rs), ver_all(rule_set_versions(o->rs))));
    if (rule_preset_name(o->preset)) /* the preset that chose the rules */
        json_object_set_new(json_object_get(run, "properties"), "preset",
                            json_string(rule_preset_name(o->preset)));
    if (o->together) /* judged also as one client session (--together) */
        json_object_set_new(json_object_get(run, "properties"), "together", json_true());

    json_t *root =
        json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", run);
    json_dumpf(root, o->out, JSON_INDENT(2));
    fputc('\n', o->out);
    json_decref(root);
}
