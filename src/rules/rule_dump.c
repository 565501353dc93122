/* rule_dump.c - `mcpdesc rules dump`: the compiled program of rules, the way jq prints
 * its bytecode (jq --debug-dump-disasm). It shows a rule author what the YAML became
 * (which versions each clause judges, how `use:` resolved, which schema file a
 * predicate loaded) and makes the compiler's output a tested artifact (tests/cli/
 * rules-dump-*). The program is first described as JSON (--format json prints it as it
 * is), and the text listing is rendered from that description, so the two always say
 * the same. Nothing here depends on addresses or on hash order: the output is stable. */
#include "rules/rule.h"

#include <inttypes.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/ver.h"
#include "rules/ruleInt.h"

/* ---- the program as JSON ------------------------------------------------------------ */

static json_t *mask_json(const struct ver_list *vl, ver_mask m)
{
    json_t *names = json_array();
    for (size_t i = 0; i < vl->n; i++)
        if (m >> i & 1) json_array_append_new(names, json_string(vl->names[i]));
    char hex[32];
    snprintf(hex, sizeof hex, "0x%" PRIx64, (uint64_t)m);
    return json_pack("{s:o, s:s}", "versions", names, "mask", hex);
}

/* {"selector": TEXT, "absolute": BOOL, "wildcards": ["*", "[*]", "**"]} (the wildcard
 * segments it holds, in the order they first appear). */
static json_t *sel_json(const struct sel *s)
{
    const char *text = sel_text(s);
    json_t *wild = json_array();
    for (const char *p = text; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        static const char *const kinds[] = {"*", SEL_ITEMS, "**"};
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            if (n != strlen(kinds[k]) || strncmp(p, kinds[k], n)) continue;
            int seen = 0;
            for (size_t i = 0; i < json_array_size(wild); i++)
                seen |= !strcmp(json_string_value(json_array_get(wild, i)), kinds[k]);
            if (!seen) json_array_append_new(wild, json_string(kinds[k]));
        }
        p += n;
    }
    return json_pack("{s:s, s:b, s:o}", "selector", text, "absolute", sel_is_absolute(s),
                     "wildcards", wild);
}

/* One predicate: {"predicate": NAME, ...its compiled argument...}. */
static json_t *pred_json(const struct pred *p)
{
    json_t *o = json_pack("{s:s}", "predicate", p->fn->name);
    if (!strcmp(p->fn->name, "use")) { /* kids[0] is the named predicate's body */
        json_object_set(o, "name", p->arg);
        json_object_set_new(o, "body", pred_json(p->kids[0]));
        return o;
    }
    json_t *of = json_array(), *sels = json_array();
    int regex = 0;
    for (size_t i = 0; i < p->nkids; i++) {
        const struct pred *k = p->kids[i];
        if (!fn_is_holder(k)) json_array_append_new(of, pred_json(k));
        else if (k->sel) { /* unique, among */ json_t *sj = sel_json(k->sel);
            if (k->session) json_object_set_new(sj, "session", json_true());
            json_array_append_new(sels, sj);
        } else regex = 1; /* matches, path-matches */
    }
    if (p->sel) json_array_append_new(sels, sel_json(p->sel)); /* every, some */
    if (p->types) {
        json_object_set_new(o, "types", fn_type_names(p->types));
    } else if (fn_format_name(p)) {
        json_object_set_new(o, "argument", json_string(fn_format_name(p)));
    } else if (p->file) { /* matches-schema: the file; the arg is its `without` list */
        json_object_set_new(o, "file", json_string(p->file));
        if (p->arg) json_object_set(o, "without", p->arg);
    } else if (regex) {
        json_object_set(o, "regex", p->arg);
    } else if (!strcmp(p->fn->name, "mentions")) {
        /* as written (up/depth -1: not given); its holders are except's and among's */
        const char *k;
        json_t *v;
        json_object_foreach(p->arg, k, v) if (!(json_is_integer(v) && json_integer_value(v) < 0))
            json_object_set(o, k, v);
        json_array_clear(sels);
    } else if (json_array_size(sels) && json_is_object(p->arg)) {
        /* unique/among keep up/depth (-1: not given) and flags in arg: only what is set */
        const char *k;
        json_t *v;
        json_object_foreach(p->arg, k, v) if (!(json_is_integer(v) && json_integer_value(v) < 0) &&
                                              !json_is_false(v)) json_object_set(o, k, v);
    } else if (p->arg) {
        json_object_set(o, "argument", p->arg);
    }
    if (json_array_size(sels)) json_object_set(o, "select", sels);
    if (json_array_size(of)) json_object_set(o, "of", of);
    if (p->body) json_object_set_new(o, "require", pred_json(p->body));
    json_decref(sels);
    json_decref(of);
    return o;
}

/* A clause judged in PARENT's versions: its own only when narrower. */
static json_t *clause_json(const struct ver_list *vl, const struct clause *c, ver_mask parent)
{
    json_t *o = json_object();
    ver_mask m = parent & c->vmask;
    if (m != parent) json_object_set_new(o, "versions", mask_json(vl, m));
    if (c->texts) /* {texts: ...}: one selector, as rules diff compares them */
        json_object_set_new(o, "select",
                            json_pack("[{s:s, s:s}]", "selector",
                                      c->texts == RULE_TEXTS_ITEM      ? "{texts: item}"
                                          : c->texts == RULE_TEXTS_ALL ? "{texts: all}"
                                                                       : "{texts: document}",
                                      "texts",
                                      c->texts == RULE_TEXTS_ITEM      ? "item"
                                          : c->texts == RULE_TEXTS_ALL ? "all"
                                                                       : "document"));
    if (c->nsels) {
        json_t *sels = json_array();
        for (size_t i = 0; i < c->nsels; i++) json_array_append_new(sels, sel_json(c->sels[i]));
        json_object_set_new(o, "select", sels);
    }
    if (c->when) json_object_set_new(o, "when", pred_json(c->when));
    if (c->require) json_object_set_new(o, "require", pred_json(c->require));
    if (c->at_failure) json_object_set_new(o, "report-at", json_string("failure"));
    if (c->at_match) json_object_set_new(o, "report-at", json_string("match"));
    if (c->message) json_object_set_new(o, "message", json_string(c->message));
    if (c->hint) json_object_set_new(o, "hint", json_string(c->hint));
    if (c->nfixes) {
        static const char *const ops[] = {"replace", "set", "add", "remove"};
        json_t *fixes = json_array();
        for (size_t i = 0; i < c->nfixes; i++) {
            const struct rule_fix *f = c->fixes[i];
            json_t *x = json_object();
            json_object_set_new(x, "title", json_string(f->title));
            if (f->when) json_object_set_new(x, "when", pred_json(f->when));
            if (f->at[0]) json_object_set_new(x, "at", json_string(f->at + 1));
            if (f->op == RULE_FIX_REPLACE) json_object_set(x, ops[f->op], f->value);
            else if (f->op == RULE_FIX_REMOVE)
                json_object_set_new(x, ops[f->op], json_string(f->member));
            else
                json_object_set_new(
                    x, ops[f->op], json_pack("{s:s, s:O}", "member", f->member, "value", f->value));
            json_array_append_new(fixes, x);
        }
        json_object_set_new(o, "fix", fixes);
    }
    if (c->nkids) {
        json_t *kids = json_array();
        for (size_t i = 0; i < c->nkids; i++)
            json_array_append_new(kids, clause_json(vl, c->kids[i], m));
        json_object_set_new(o, c->first ? "first" : "all", kids);
    }
    return o;
}

static const char *level_word(enum diag_level l)
{
    return l == DIAG_ERROR ? "must" : l == DIAG_WARNING ? "should" : "may";
}

json_t *rule_dump_json(const struct rule_set *rs, const struct rule *r)
{
    const struct ver_list *vl = rule_set_versions(rs);
    json_t *yields = json_array();
    for (size_t i = 0; i < r->nyields; i++)
        json_array_append_new(yields, json_string(r->yields[i].pattern));
    return json_pack("{s:s, s:s, s:i, s:i, s:s, s:s, s:o, s:o, s:o}", "id", r->id, "file", r->file,
                     "line", (int)r->line, "column", (int)r->col, "level", level_word(r->level),
                     "severity", diag_level_name(r->level), "applies", mask_json(vl, r->applies),
                     "yields-to", yields, "check", clause_json(vl, r->check, r->applies));
}

/* ---- the text listing ---------------------------------------------------------------- */

#define LABEL 11 /* width of a field's label: values start in one column */

/* S as YAML writes it in single quotes ('' for '), with control characters escaped. */
static void add_quoted(struct buf *b, const char *s)
{
    buf_addc(b, '\'');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\'') buf_adds(b, "''");
        else if (ch == '\n') buf_adds(b, "\\n");
        else if (ch == '\t') buf_adds(b, "\\t");
        else if (ch < 0x20 || ch == 0x7f) buf_addf(b, "\\u%04x", ch);
        else buf_addc(b, (char)ch);
    }
    buf_addc(b, '\'');
}

/* A JSON value on one line (", " and ": " between members). */
static void add_json(struct buf *b, json_t *v)
{
    char *text = json_dumps(v, JSON_ENCODE_ANY);
    buf_adds(b, text ? text : "?");
    free(text);
}

/* "TEXT (absolute, [*])" */
static void add_sel(struct buf *b, json_t *s)
{
    if (json_object_get(s, "texts")) { /* {texts: ...}: no pointer, no wildcards */
        buf_addf(b, "%s (the manifest's texts)", json_string_value(json_object_get(s, "selector")));
        return;
    }
    buf_addf(b, "%s (%s", json_string_value(json_object_get(s, "selector")),
             json_is_true(json_object_get(s, "session"))        ? "in the session's other documents"
                 : json_is_true(json_object_get(s, "absolute")) ? "absolute"
                                                                : "relative");
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(s, "wildcards"), i, w)
        buf_addf(b, ", %s", json_string_value(w));
    buf_addc(b, ')');
}

static void add_list(struct buf *b, json_t *strings, const char *sep)
{
    size_t i;
    json_t *v;
    json_array_foreach(strings, i, v) buf_addf(b, "%s%s", i ? sep : "", json_string_value(v));
}

static void add_mask(struct buf *b, json_t *m)
{
    json_t *names = json_object_get(m, "versions");
    if (json_array_size(names)) add_list(b, names, ", ");
    else buf_adds(b, "none");
    buf_addf(b, " (mask %s)", json_string_value(json_object_get(m, "mask")));
}

static void indent(struct buf *b, int n)
{
    buf_addf(b, "%*s", n, "");
}

/* "LABEL      " at column AT: what follows starts at column AT + LABEL. */
static void label(struct buf *b, int at, const char *name)
{
    indent(b, at);
    buf_addf(b, "%-*s", LABEL - 1, name);
    buf_addc(b, ' ');
}

/* Predicate P: its line (the caller has written what precedes it on that line), then
 * what it holds, each on its own line two columns further right than COL. */
static void add_pred(struct buf *b, json_t *p, int col)
{
    const char *name = json_string_value(json_object_get(p, "predicate"));
    json_t *v;
    buf_adds(b, name);
    if ((v = json_object_get(p, "name"))) { /* use NAME = BODY */
        buf_addf(b, " %s =\n", json_string_value(v));
        indent(b, col + 2);
        add_pred(b, json_object_get(p, "body"), col + 2);
        return;
    }
    if ((v = json_object_get(p, "types"))) {
        buf_addc(b, ' ');
        add_list(b, v, ", ");
    }
    if ((v = json_object_get(p, "regex"))) {
        buf_addc(b, ' ');
        add_quoted(b, json_string_value(v));
    }
    if ((v = json_object_get(p, "file"))) buf_addf(b, " %s", json_string_value(v));
    if ((v = json_object_get(p, "without"))) {
        buf_adds(b, " without ");
        add_json(b, v);
    }
    if ((v = json_object_get(p, "argument"))) {
        buf_addc(b, ' ');
        add_json(b, v);
    }
    static const char *const lists[] = {"as", "names", "except", "among"}; /* mentions */
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        if (!(v = json_object_get(p, lists[i]))) continue;
        buf_addf(b, " %s ", lists[i]);
        if (json_is_string(v)) buf_adds(b, json_string_value(v));
        else add_json(b, v);
    }
    if ((v = json_object_get(p, "select"))) {
        size_t i;
        json_t *s;
        buf_adds(b, " select ");
        json_array_foreach(v, i, s)
        {
            if (i) buf_adds(b, ", ");
            add_sel(b, s);
        }
    }
    static const char *const options[] = {"up", "depth", "ignore-case", "ignore-separators",
                                          "keys"}; /* unique, among */
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        if (!(v = json_object_get(p, options[i]))) continue;
        if (json_is_integer(v))
            buf_addf(b, " %s %" JSON_INTEGER_FORMAT, options[i], json_integer_value(v));
        else buf_addf(b, " %s", options[i]);
    }
    buf_addc(b, '\n');
    size_t i;
    json_array_foreach(json_object_get(p, "of"), i, v)
    {
        indent(b, col + 2);
        add_pred(b, v, col + 2);
    }
    if ((v = json_object_get(p, "require"))) { /* every, some: what each selected node satisfies */
        indent(b, col + 2);
        buf_adds(b, "require ");
        add_pred(b, v, col + 2);
    }
}

static void add_clause(struct buf *b, json_t *c, int at)
{
    json_t *v;
    if ((v = json_object_get(c, "versions"))) {
        label(b, at, "versions");
        add_mask(b, v);
        buf_addc(b, '\n');
    }
    size_t i;
    json_array_foreach(json_object_get(c, "select"), i, v)
    {
        if (i) indent(b, at + LABEL);
        else label(b, at, "select");
        add_sel(b, v);
        buf_addc(b, '\n');
    }
    static const char *const preds[] = {"when", "require"};
    for (size_t k = 0; k < 2; k++) {
        if (!(v = json_object_get(c, preds[k]))) continue;
        label(b, at, preds[k]);
        add_pred(b, v, at + LABEL);
    }
    if ((v = json_object_get(c, "report-at"))) {
        label(b, at, "report-at");
        buf_addf(b, "%s\n", json_string_value(v));
    }
    static const char *const texts[] = {"message", "hint"};
    for (size_t k = 0; k < 2; k++) {
        if (!(v = json_object_get(c, texts[k]))) continue;
        label(b, at, texts[k]);
        add_quoted(b, json_string_value(v));
        buf_addc(b, '\n');
    }
    json_t *fx;
    json_array_foreach(json_object_get(c, "fix"), i, fx)
    {
        label(b, at, "fix");
        char *j = json_dumps(fx, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
        buf_addf(b, "%s\n", j);
        free(j);
    }
    int first = (v = json_object_get(c, "first")) != NULL;
    if (!first) v = json_object_get(c, "all");
    if (!v) return;
    label(b, at, first ? "first" : "all");
    size_t n = json_array_size(v);
    buf_addf(b, "%zu check%s: %s\n", n, n == 1 ? "" : "s",
             first ? "for each version, only the first that fails reports"
                   : "each reports on its own");
    json_t *k;
    json_array_foreach(v, i, k)
    {
        indent(b, at + 2);
        buf_addf(b, "check %zu\n", i + 1);
        add_clause(b, k, at + 4);
    }
}

static void add_rule(struct buf *b, json_t *r)
{
    buf_addf(b, "rule %s\n", json_string_value(json_object_get(r, "id")));
    label(b, 2, "file");
    buf_addf(b, "%s:%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT "\n",
             json_string_value(json_object_get(r, "file")),
             json_integer_value(json_object_get(r, "line")),
             json_integer_value(json_object_get(r, "column")));
    label(b, 2, "level");
    buf_addf(b, "%s (%s)\n", json_string_value(json_object_get(r, "level")),
             json_string_value(json_object_get(r, "severity")));
    label(b, 2, "applies");
    add_mask(b, json_object_get(r, "applies"));
    buf_addc(b, '\n');
    json_t *y = json_object_get(r, "yields-to"), *v;
    size_t i;
    label(b, 2, "yields-to");
    if (!json_array_size(y)) buf_adds(b, "none\n");
    json_array_foreach(y, i, v)
    { /* one per line, as the selectors of a check */
        if (i) indent(b, 2 + LABEL);
        buf_addf(b, "%s\n", json_string_value(v));
    }
    indent(b, 2);
    buf_adds(b, "check\n");
    add_clause(b, json_object_get(r, "check"), 4);
}

/* ---- the command ---------------------------------------------------------------------- */

int rule_dump_write(const struct rule_set *rs, const char *const *ids, size_t n,
                    enum rule_dump_format format, FILE *out)
{
    for (size_t i = 0; i < n; i++)
        if (!rule_set_find(rs, ids[i])) return -1;
    const struct ver_list *vl = rule_set_versions(rs);
    json_t *versions = json_array(), *rules = json_array();
    for (size_t i = 0; i < vl->n; i++) {
        char hex[32];
        snprintf(hex, sizeof hex, "0x%" PRIx64, (uint64_t)1 << i);
        json_array_append_new(versions, json_pack("{s:s, s:s}", "name", vl->names[i], "mask", hex));
    }
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        int wanted = !n;
        for (size_t k = 0; k < n && !wanted; k++) wanted = !strcmp(ids[k], r->id);
        if (wanted) json_array_append_new(rules, rule_dump_json(rs, r));
    }
    json_t *top = json_pack("{s:s, s:s, s:o, s:o}", "name", rule_set_name(rs), "tag",
                            rule_set_display_tag(rs), "versions", versions, "rules", rules);
    struct buf b = BUF_INIT;
    if (format == RULE_DUMP_JSON) {
        char *text = json_dumps(top, JSON_INDENT(2));
        buf_addf(&b, "%s\n", text);
        free(text);
    } else {
        buf_addf(&b, "# rule set %s %s\n# versions", rule_set_name(rs), rule_set_display_tag(rs));
        size_t i;
        json_t *v;
        json_array_foreach(versions, i, v)
            buf_addf(&b, "%s %s=%s", i ? "," : "", json_string_value(json_object_get(v, "name")),
                     json_string_value(json_object_get(v, "mask")));
        buf_addc(&b, '\n');
        json_array_foreach(rules, i, v)
        {
            buf_addc(&b, '\n');
            add_rule(&b, v);
        }
    }
    json_decref(top);
    fwrite(buf_str(&b), 1, b.len, out);
    buf_release(&b);
    return 0;
}
