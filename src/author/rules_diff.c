/* rules_diff.c - `mcpdesc rules diff A B`: the rules added, removed and changed between
 * two loaded rule sets, and what changed in each (rules_diff.h). A rule's check is
 * compared as the loader compiled it (rule_dump_json, the `rules dump --format json`
 * form), never as YAML text, so reformatting, reordering members or moving a rule to
 * another file is no change; its metadata is compared as JSON values (val_equal: member
 * order does not count). Everything is described as JSON first; the text is rendered
 * from that description. */
#include "author/rules_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "findings/report.h"
#include "base/val.h"
#include "base/ver.h"

/* ---- values ------------------------------------------------------------------------ */

static const char *level_word(enum diag_level l)
{
    return l == DIAG_ERROR ? "must" : l == DIAG_WARNING ? "should" : "may";
}

/* NULL-safe val_equal: two absent values are equal, an absent and a present one not. */
static int same(json_t *a, json_t *b)
{
    if (!a || !b) return a == b;
    return val_equal(a, b);
}

/* {"before": A, "after": B}, stealing both (NULL: null). */
static json_t *pair_new(json_t *before, json_t *after)
{
    return json_pack("{s:o?, s:o?}", "before", before, "after", after);
}

/* {"before": A, "after": B}, borrowing both (NULL: null). */
static json_t *pair(json_t *before, json_t *after)
{
    return pair_new(json_incref(before), json_incref(after));
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : NULL;
}

static json_t *names_json(const struct ver_list *vl, ver_mask m)
{
    json_t *names = json_array();
    for (size_t i = 0; i < vl->n; i++)
        if (m >> i & 1) json_array_append_new(names, json_string(vl->names[i]));
    return names;
}

static json_t *applies_spec(const struct rule_set *rs, const struct rule *r)
{
    struct buf b = BUF_INIT;
    ver_spec_format(&b, rule_set_versions(rs), rule_applies(r));
    json_t *s = json_string(buf_str(&b));
    buf_release(&b);
    return s;
}

/* {id, level, applies}: an added or removed rule. */
static json_t *rule_brief(const struct rule_set *rs, const struct rule *r)
{
    return json_pack("{s:s, s:s, s:o}", "id", rule_id(r), "level", level_word(rule_level(r)),
                     "applies", applies_spec(rs, r));
}

/* ---- the check program --------------------------------------------------------------- */

/* Clause C of a dumped program (changed in place) without what is compared on its own
 * (message, hint) or says nothing of its own (the bit mask of its versions: the names
 * are what counts, and a mask depends on the set's version list). Predicates are kept
 * whole: a literal argument may well have a member called "message". */
static void strip_clause(json_t *c)
{
    json_object_del(c, "message");
    json_object_del(c, "hint");
    json_t *v = json_object_get(c, "versions");
    if (json_is_object(v)) json_object_del(v, "mask");
    static const char *const kids[] = {"first", "all"};
    for (size_t k = 0; k < 2; k++) {
        size_t i;
        json_t *kid;
        json_array_foreach(json_object_get(c, kids[k]), i, kid) strip_clause(kid);
    }
}

/* MEMBER (message or hint) of every clause of C that has a require, in program order
 * (null where it has none), appended to OUT. */
static void clause_texts(json_t *c, const char *member, json_t *out)
{
    if (json_object_get(c, "require")) {
        json_t *v = json_object_get(c, member);
        json_array_append(out, v ? v : json_null());
    }
    static const char *const kids[] = {"first", "all"};
    for (size_t k = 0; k < 2; k++) {
        size_t i;
        json_t *kid;
        json_array_foreach(json_object_get(c, kids[k]), i, kid) clause_texts(kid, member, out);
    }
}

static void diff_texts(json_t *changes, const char *member, json_t *ca, json_t *cb)
{
    json_t *ta = json_array(), *tb = json_array();
    clause_texts(ca, member, ta);
    clause_texts(cb, member, tb);
    if (!val_equal(ta, tb)) json_object_set_new(changes, member, pair_new(ta, tb));
    else {
        json_decref(ta);
        json_decref(tb);
    }
}

static void diff_check(json_t *changes, const struct rule_set *sa, const struct rule *ra,
                       const struct rule_set *sb, const struct rule *rb)
{
    json_t *da = rule_dump_json(sa, ra), *db = rule_dump_json(sb, rb);
    json_t *ca = json_object_get(da, "check"), *cb = json_object_get(db, "check");
    json_t *pa = json_deep_copy(ca), *pb = json_deep_copy(cb);
    strip_clause(pa);
    strip_clause(pb);
    if (!val_equal(pa, pb)) json_object_set_new(changes, "check", pair(ca, cb));
    json_decref(pa);
    json_decref(pb);
    diff_texts(changes, "message", ca, cb);
    diff_texts(changes, "hint", ca, cb);
    json_decref(da);
    json_decref(db);
}

/* ---- metadata ------------------------------------------------------------------------ */

/* The members compared elsewhere (level, applies, check) or that match the rules (id). */
static int meta_skipped(const char *key)
{
    static const char *const skip[] = {"id", "level", "applies", "check"};
    for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
        if (!strcmp(key, skip[i])) return 1;
    return 0;
}

/* A member of the rule language's rule table (rules/rule_lang.h), compared here? */
static int in_meta_order(const char *key)
{
    for (const char *const *m = rule_names(RULE_NAMES_RULE); *m; m++)
        if (!strcmp(key, *m)) return !meta_skipped(key);
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void diff_meta(json_t *changes, json_t *ma, json_t *mb)
{
    /* the rule's members in the documented order (its table's), then any other, by name */
    VEC(const char *) keys = VEC_INIT;
    for (const char *const *m = rule_names(RULE_NAMES_RULE); *m; m++)
        if (!meta_skipped(*m)) VEC_PUSH(keys, *m);
    size_t known = keys.len;
    json_t *sides[2] = {ma, mb};
    for (int s = 0; s < 2; s++) {
        const char *k;
        json_t *v;
        json_object_foreach(sides[s], k, v)
        {
            if (meta_skipped(k) || in_meta_order(k)) continue;
            int seen = 0;
            for (size_t i = known; i < keys.len && !seen; i++) seen = !strcmp(keys.items[i], k);
            if (!seen) VEC_PUSH(keys, k);
        }
    }
    if (keys.len > known) qsort(keys.items + known, keys.len - known, sizeof *keys.items, cmp_str);
    json_t *meta = json_object();
    for (size_t i = 0; i < keys.len; i++) {
        json_t *a = json_object_get(ma, keys.items[i]), *b = json_object_get(mb, keys.items[i]);
        if (!same(a, b)) json_object_set_new(meta, keys.items[i], pair(a, b));
    }
    if (json_object_size(meta)) json_object_set_new(changes, "metadata", meta);
    else json_decref(meta);
    VEC_FREE(keys);
}

/* ---- one rule, then the sets ---------------------------------------------------------- */

static json_t *rule_changes(const struct rule_set *sa, const struct rule *ra,
                            const struct rule_set *sb, const struct rule *rb)
{
    json_t *ch = json_object();
    if (rule_level(ra) != rule_level(rb))
        json_object_set_new(ch, "level",
                            json_pack("{s:s, s:s}", "before", level_word(rule_level(ra)), "after",
                                      level_word(rule_level(rb))));
    json_t *na = names_json(rule_set_versions(sa), rule_applies(ra));
    json_t *nb = names_json(rule_set_versions(sb), rule_applies(rb));
    if (!val_equal(na, nb))
        json_object_set_new(ch, "applies", pair_new(applies_spec(sa, ra), applies_spec(sb, rb)));
    json_decref(na);
    json_decref(nb);
    diff_check(ch, sa, ra, sb, rb);
    diff_meta(ch, rule_meta(ra), rule_meta(rb));
    return ch;
}

static json_t *set_ident(const struct rule_set *rs)
{
    return report_rule_set_json(rs); /* as validate's JSON names it: tag null when modified */
}

static void diff_str(json_t *set, const char *member, const char *a, const char *b)
{
    if ((a && b) ? strcmp(a, b) != 0 : a != b)
        json_object_set_new(set, member, pair_new(str_or_null(a), str_or_null(b)));
}

static json_t *files_json(const struct rule_set *rs)
{
    json_t *files = json_array();
    for (size_t i = 0; i < rule_set_file_count(rs); i++)
        json_array_append_new(files, json_string(rule_set_file(rs, i)));
    return files;
}

static json_t *set_changes(const struct rule_set *a, const struct rule_set *b)
{
    json_t *set = json_object();
    diff_str(set, "name", rule_set_name(a), rule_set_name(b));
    diff_str(set, "tag", rule_set_display_tag(a), rule_set_display_tag(b));
    diff_str(set, "digest", rule_set_digest(a), rule_set_digest(b));
    diff_str(set, "docs-url", rule_set_docs_url(a), rule_set_docs_url(b));
    json_t *va = names_json(rule_set_versions(a), ver_all(rule_set_versions(a)));
    json_t *vb = names_json(rule_set_versions(b), ver_all(rule_set_versions(b)));
    if (!val_equal(va, vb)) json_object_set_new(set, "versions", pair_new(va, vb));
    else {
        json_decref(va);
        json_decref(vb);
    }
    json_t *tiers = json_object();
    for (long t = 1; t <= 4; t++) { /* the loader admits tiers 1 to 4 */
        char key[24];
        snprintf(key, sizeof key, "%ld", t);
        diff_str(tiers, key, rule_set_tier_name(a, t), rule_set_tier_name(b, t));
    }
    if (json_object_size(tiers)) json_object_set_new(set, "tiers", tiers);
    else json_decref(tiers);
    json_t *fa = files_json(a), *fb = files_json(b);
    if (!val_equal(fa, fb)) json_object_set_new(set, "files", pair_new(fa, fb));
    else {
        json_decref(fa);
        json_decref(fb);
    }
    return set;
}

struct by_id {
    const char *id;
    const struct rule *r;
};

static int cmp_by_id(const void *x, const void *y)
{
    return strcmp(((const struct by_id *)x)->id, ((const struct by_id *)y)->id);
}

static struct by_id *sorted_rules(const struct rule_set *rs)
{
    size_t n = rule_set_count(rs);
    struct by_id *v = xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        v[i].r = rule_set_rule(rs, i);
        v[i].id = rule_id(v[i].r);
    }
    qsort(v, n, sizeof *v, cmp_by_id);
    return v;
}

json_t *rules_diff_compute(const struct rule_set *a, const struct rule_set *b)
{
    struct by_id *ra = sorted_rules(a), *rb = sorted_rules(b);
    size_t na = rule_set_count(a), nb = rule_set_count(b), i = 0, j = 0, unchanged = 0;
    json_t *added = json_array(), *removed = json_array(), *changed = json_array();
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : strcmp(ra[i].id, rb[j].id);
        if (c < 0) {
            json_array_append_new(removed, rule_brief(a, ra[i++].r));
        } else if (c > 0) {
            json_array_append_new(added, rule_brief(b, rb[j++].r));
        } else {
            json_t *ch = rule_changes(a, ra[i].r, b, rb[j].r);
            if (json_object_size(ch))
                json_array_append_new(changed,
                                      json_pack("{s:s, s:o}", "id", ra[i].id, "changes", ch));
            else {
                unchanged++;
                json_decref(ch);
            }
            i++;
            j++;
        }
    }
    free(ra);
    free(rb);
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:I}", "a", set_ident(a), "b", set_ident(b),
                     "set", set_changes(a, b), "added", added, "removed", removed, "changed",
                     changed, "unchanged", (json_int_t)unchanged);
}

int rules_diff_differs(json_t *diff)
{
    return json_object_size(json_object_get(diff, "set")) ||
        json_array_size(json_object_get(diff, "added")) ||
        json_array_size(json_object_get(diff, "removed")) ||
        json_array_size(json_object_get(diff, "changed"));
}

/* ---- the text --------------------------------------------------------------------------- */

static const char *str_or(json_t *v, const char *none)
{
    return json_is_string(v) ? json_string_value(v) : none;
}

static void add_names(struct buf *b, json_t *arr)
{
    size_t i;
    json_t *v;
    buf_addc(b, '[');
    json_array_foreach(arr, i, v) buf_addf(b, "%s%s", i ? ", " : "", str_or(v, "?"));
    buf_addc(b, ']');
}

static json_t *before(json_t *p)
{
    return json_object_get(p, "before");
}

static json_t *after(json_t *p)
{
    return json_object_get(p, "after");
}

/* "; " between the items of a line. */
static void sep(struct buf *b, int *n)
{
    if ((*n)++) buf_adds(b, "; ");
}

/* "files +new.yaml -old.yaml" (or "files reordered"). */
static void add_files(struct buf *b, json_t *p)
{
    buf_adds(b, "files");
    int any = 0;
    json_t *sides[2] = {after(p), before(p)};
    for (int s = 0; s < 2; s++) {
        size_t i, k;
        json_t *v, *w;
        json_array_foreach(sides[s], i, v)
        {
            int found = 0;
            json_array_foreach(sides[1 - s], k, w) found |= val_equal(v, w);
            if (found) continue;
            buf_addf(b, " %c%s", s ? '-' : '+', str_or(v, "?"));
            any = 1;
        }
    }
    if (!any) buf_adds(b, " reordered");
}

/* " a, b, c": the member names of OBJ, in order */
static void add_keys(struct buf *b, json_t *obj)
{
    const char *k;
    json_t *v;
    int first = 1;
    json_object_foreach(obj, k, v)
    {
        buf_addf(b, "%s %s", first ? "" : ",", k);
        first = 0;
    }
}

static void add_set_line(struct buf *b, json_t *set)
{
    if (!json_object_size(set)) return;
    buf_adds(b, "~ set: ");
    int n = 0;
    json_t *p;
    static const char *const strings[] = {"name", "tag"};
    for (size_t k = 0; k < 2; k++)
        if ((p = json_object_get(set, strings[k]))) {
            sep(b, &n);
            buf_addf(b, "%s %s -> %s", strings[k], str_or(before(p), "none"),
                     str_or(after(p), "none"));
        }
    if (json_object_get(set, "digest")) { /* both are on the --- and +++ lines */
        sep(b, &n);
        buf_adds(b, "digest");
    }
    if ((p = json_object_get(set, "docs-url"))) {
        sep(b, &n);
        buf_addf(b, "docs-url %s -> %s", str_or(before(p), "none"), str_or(after(p), "none"));
    }
    if ((p = json_object_get(set, "versions"))) {
        sep(b, &n);
        buf_adds(b, "versions ");
        add_names(b, before(p));
        buf_adds(b, " -> ");
        add_names(b, after(p));
    }
    if ((p = json_object_get(set, "tiers"))) {
        sep(b, &n);
        buf_adds(b, "tiers");
        add_keys(b, p);
    }
    if ((p = json_object_get(set, "files"))) {
        sep(b, &n);
        add_files(b, p);
    }
    buf_addc(b, '\n');
}

static void add_changed(struct buf *b, json_t *e)
{
    json_t *ch = json_object_get(e, "changes"), *p;
    buf_addf(b, "~ %s: ", str_or(json_object_get(e, "id"), "?"));
    int n = 0;
    static const char *const pairs[] = {"level", "applies"};
    for (size_t k = 0; k < 2; k++)
        if ((p = json_object_get(ch, pairs[k]))) {
            sep(b, &n);
            buf_addf(b, "%s %s -> %s", pairs[k], str_or(before(p), "?"), str_or(after(p), "?"));
        }
    static const char *const words[] = {"check", "message", "hint"};
    for (size_t k = 0; k < 3; k++)
        if (json_object_get(ch, words[k])) {
            sep(b, &n);
            buf_adds(b, words[k]);
        }
    if ((p = json_object_get(ch, "metadata"))) {
        sep(b, &n);
        buf_adds(b, "metadata:");
        add_keys(b, p);
    }
    buf_addc(b, '\n');
}

struct line {
    const char *id;
    char kind; /* '+', '-', '~' */
    json_t *e;
};

static int cmp_line(const void *x, const void *y)
{
    return strcmp(((const struct line *)x)->id, ((const struct line *)y)->id);
}

void rules_diff_text(json_t *diff, struct buf *out)
{
    static const char *const heads[] = {"---", "+++"}, *const sides[] = {"a", "b"};
    for (int s = 0; s < 2; s++) {
        json_t *id = json_object_get(diff, sides[s]);
        const char *tag = json_string_value(json_object_get(id, "tag"));
        buf_addf(out, "%s %s %s%s (%s)\n", heads[s], str_or(json_object_get(id, "name"), "?"),
                 tag ? tag : str_or(json_object_get(id, "derivedFrom"), "?"),
                 tag ? "" : "+modified", str_or(json_object_get(id, "digest"), "?"));
    }
    add_set_line(out, json_object_get(diff, "set"));
    VEC(struct line) lines = VEC_INIT;
    static const struct {
        const char *member;
        char kind;
    } groups[] = {{"added", '+'}, {"removed", '-'}, {"changed", '~'}};
    size_t counts[3];
    for (size_t g = 0; g < 3; g++) {
        json_t *arr = json_object_get(diff, groups[g].member), *e;
        size_t i;
        counts[g] = json_array_size(arr);
        json_array_foreach(arr, i, e)
        {
            struct line l = {str_or(json_object_get(e, "id"), "?"), groups[g].kind, e};
            VEC_PUSH(lines, l);
        }
    }
    if (lines.len) qsort(lines.items, lines.len, sizeof *lines.items, cmp_line);
    for (size_t i = 0; i < lines.len; i++) {
        const struct line *l = &lines.items[i];
        if (l->kind == '~') add_changed(out, l->e);
        else
            buf_addf(out, "%c %s (%s, %s)\n", l->kind, l->id,
                     str_or(json_object_get(l->e, "level"), "?"),
                     str_or(json_object_get(l->e, "applies"), "?"));
    }
    VEC_FREE(lines);
    buf_addf(out, "%zu added, %zu removed, %zu changed, %" JSON_INTEGER_FORMAT " unchanged\n",
             counts[0], counts[1], counts[2],
             json_integer_value(json_object_get(diff, "unchanged")));
}
