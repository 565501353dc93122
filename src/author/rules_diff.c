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

/* R's level as its set runs it: "off" when an override turned it off (rules/rule.h). */
static const char *rule_level_word(const struct rule *r)
{
    return rule_off(r) ? "off" : level_word(rule_level(r));
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
    return json_pack("{s:s, s:s, s:o}", "id", rule_id(r), "level", rule_level_word(r), "applies",
                     applies_spec(rs, r));
}

/* ---- the check program --------------------------------------------------------------- */

/* A dumped predicate P as it runs (a new reference): `use: NAME` is its body, since the
 * name of a named predicate only labels it (renaming one compiles the same). Literal
 * arguments are kept as they are. */
static json_t *pred_norm(json_t *p)
{
    if (!json_is_object(p)) return json_incref(p);
    const char *name = json_string_value(json_object_get(p, "predicate"));
    if (name && !strcmp(name, "use")) return pred_norm(json_object_get(p, "body"));
    json_t *o = json_deep_copy(p);
    static const char *const kids[] = {"require", "body"};
    for (size_t k = 0; k < 2; k++)
        if (json_object_get(p, kids[k]))
            json_object_set_new(o, kids[k], pred_norm(json_object_get(p, kids[k])));
    json_t *of = json_object_get(p, "of");
    if (json_is_array(of)) {
        json_t *n = json_array(), *v;
        size_t i;
        json_array_foreach(of, i, v) json_array_append_new(n, pred_norm(v));
        json_object_set_new(o, "of", n);
    }
    return o;
}

/* NULL-safe comparison of two predicates as they run. */
static int same_pred(json_t *a, json_t *b)
{
    if (!a || !b) return a == b;
    json_t *na = pred_norm(a), *nb = pred_norm(b);
    int eq = val_equal(na, nb);
    json_decref(na);
    json_decref(nb);
    return eq;
}

/* Clause C of a dumped program (changed in place) without what is compared on its own
 * (message, hint) or says nothing of its own (the bit mask of its versions: the names
 * are what counts, and a mask depends on the set's version list; the name of a named
 * predicate). Literal arguments are kept whole: one may well have a member called
 * "message". */
static void strip_clause(json_t *c)
{
    json_object_del(c, "message");
    json_object_del(c, "hint");
    json_t *v = json_object_get(c, "versions");
    if (json_is_object(v)) json_object_del(v, "mask");
    static const char *const preds[] = {"when", "require"};
    for (size_t k = 0; k < 2; k++)
        if (json_object_get(c, preds[k]))
            json_object_set_new(c, preds[k], pred_norm(json_object_get(c, preds[k])));
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(c, "fix"), i, f) if (json_object_get(f, "when"))
        json_object_set_new(f, "when", pred_norm(json_object_get(f, "when")));
    static const char *const kids[] = {"first", "all"};
    for (size_t k = 0; k < 2; k++) {
        json_t *kid;
        json_array_foreach(json_object_get(c, kids[k]), i, kid) strip_clause(kid);
    }
}

/* ---- what changed, one line each ------------------------------------------------------ */

static void add_pred(struct buf *b, json_t *p);

/* Does X become Y by "*" segments becoming "[*]" and nothing else (MCP lists walked as
 * lists: rules-yaml/README.md, Selectors)? Then the two differ only on a list written as
 * a map, whose members "*" walks and "[*]" does not (the type rules report the map). */
static int items_rewrite(const char *x, const char *y)
{
    int any = 0;
    while (*x || *y) {
        if (*x == *y) x++, y++;
        else if (*x == '*' && !strncmp(y, "[*]", 3)) x++, y += 3, any = 1;
        else return 0;
    }
    return any;
}

/* items_rewrite of two predicates, compared as written on one line. */
static int pred_items_rewrite(json_t *a, json_t *b)
{
    if (!a || !b) return 0;
    struct buf x = BUF_INIT, y = BUF_INIT;
    add_pred(&x, a);
    add_pred(&y, b);
    int r = items_rewrite(buf_str(&x), buf_str(&y));
    buf_release(&x);
    buf_release(&y);
    return r;
}

/* items_rewrite of two lists of selector texts, item by item. */
static int sels_items_rewrite(json_t *a, json_t *b)
{
    if (json_array_size(a) != json_array_size(b) || !json_array_size(a)) return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *x = json_string_value(json_array_get(a, i)),
                   *y = json_string_value(json_array_get(b, i));
        /* an unchanged one must hold no "[*]": the text says each "[*]" was "*" */
        if (!x || !y || !(items_rewrite(x, y) || (!strcmp(x, y) && !strstr(y, "[*]")))) return 0;
    }
    return 1;
}

/* Append to DETAILS {what, at (a path in the dumped program, when in the check), before,
 * after, findings-can-change}, stealing BEFORE and AFTER. */
static json_t *detail(json_t *details, const char *what, const char *at, json_t *before,
                      json_t *after, int findings)
{
    json_t *d = json_pack("{s:s}", "what", what);
    if (at) json_object_set_new(d, "at", json_string(at));
    json_object_set_new(d, "before", before ? before : json_null());
    json_object_set_new(d, "after", after ? after : json_null());
    json_object_set_new(d, "findings-can-change", json_boolean(findings));
    json_array_append_new(details, d);
    return d;
}

/* Mark D as only "*" becoming "[*]": its findings change only where a list is a map. */
static void mark_items_only(json_t *d)
{
    json_object_set_new(d, "items-only", json_true());
}

/* The selector texts of a clause (a new array). */
static json_t *selector_texts(json_t *c)
{
    json_t *out = json_array(), *s;
    size_t i;
    json_array_foreach(json_object_get(c, "select"), i, s)
        json_array_append(out, json_object_get(s, "selector"));
    return out;
}

/* "first" or "all" of a clause, or NULL. */
static const char *kids_kind(json_t *c)
{
    return json_object_get(c, "first") ? "first" : json_object_get(c, "all") ? "all" : NULL;
}

/* The fixes of clause A and B at AT, entry by entry: added, removed or changed. */
static void diff_fixes(json_t *details, const char *at, json_t *fa, json_t *fb)
{
    size_t na = json_array_size(fa), nb = json_array_size(fb);
    for (size_t i = 0; i < (na > nb ? na : nb); i++) {
        json_t *a = json_array_get(fa, i), *b = json_array_get(fb, i);
        json_t *sa = a ? json_deep_copy(a) : NULL, *sb = b ? json_deep_copy(b) : NULL;
        if (sa && json_object_get(sa, "when"))
            json_object_set_new(sa, "when", pred_norm(json_object_get(a, "when")));
        if (sb && json_object_get(sb, "when"))
            json_object_set_new(sb, "when", pred_norm(json_object_get(b, "when")));
        if (!same(sa, sb)) detail(details, "fix", at, json_incref(a), json_incref(b), 0);
        json_decref(sa);
        json_decref(sb);
    }
}

/* Clause A and B at AT (paired by their place in the program), into DETAILS. */
static void diff_clause(json_t *details, const char *at, json_t *a, json_t *b)
{
    json_t *va = json_object_get(json_object_get(a, "versions"), "versions");
    json_t *vb = json_object_get(json_object_get(b, "versions"), "versions");
    if (!same(va, vb)) detail(details, "versions", at, json_incref(va), json_incref(vb), 1);
    json_t *sa = selector_texts(a), *sb = selector_texts(b);
    if (!val_equal(sa, sb)) {
        int items = sels_items_rewrite(sa, sb);
        json_t *d = detail(details, "selector", at, sa, sb, 1);
        if (items) mark_items_only(d);
    } else {
        json_decref(sa);
        json_decref(sb);
    }
    static const char *const preds[] = {"when", "require"};
    for (size_t k = 0; k < 2; k++) {
        json_t *pa = json_object_get(a, preds[k]), *pb = json_object_get(b, preds[k]);
        if (same_pred(pa, pb)) continue;
        json_t *d = detail(details, preds[k], at, json_incref(pa), json_incref(pb), 1);
        if (pred_items_rewrite(pa, pb)) mark_items_only(d);
    }
    json_t *ra = json_object_get(a, "report-at"), *rb = json_object_get(b, "report-at");
    if (!same(ra, rb))
        detail(details, "report-at", at, ra ? json_incref(ra) : json_string("node"),
               rb ? json_incref(rb) : json_string("node"), 1);
    static const char *const texts[] = {"message", "hint"};
    for (size_t k = 0; k < 2; k++) {
        json_t *ta = json_object_get(a, texts[k]), *tb = json_object_get(b, texts[k]);
        if (!same(ta, tb)) detail(details, texts[k], at, json_incref(ta), json_incref(tb), 0);
    }
    diff_fixes(details, at, json_object_get(a, "fix"), json_object_get(b, "fix"));
    const char *ka = kids_kind(a), *kb = kids_kind(b);
    json_t *la = ka ? json_object_get(a, ka) : NULL, *lb = kb ? json_object_get(b, kb) : NULL;
    if ((ka && kb ? strcmp(ka, kb) != 0 : ka != kb) || json_array_size(la) != json_array_size(lb)) {
        /* a clause added, removed or regrouped: its parts are not paired any further */
        detail(details, "clauses", at,
               ka ? json_pack("{s:s, s:I}", "kind", ka, "count", (json_int_t)json_array_size(la))
                  : NULL,
               kb ? json_pack("{s:s, s:I}", "kind", kb, "count", (json_int_t)json_array_size(lb))
                  : NULL,
               1);
        return;
    }
    for (size_t i = 0; i < json_array_size(la); i++) {
        char *sub = xasprintf("%s/%s/%zu", at, ka, i);
        diff_clause(details, sub, json_array_get(la, i), json_array_get(lb, i));
        free(sub);
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

static void diff_check(json_t *changes, json_t *details, const struct rule_set *sa,
                       const struct rule *ra, const struct rule_set *sb, const struct rule *rb)
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
    diff_clause(details, "check", ca, cb);
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

/* The order of rules-yaml/README.md's rule; other members follow, by name. */
static const char *const meta_order[] = {
    "owner",       "surface",     "paths",    "kind", "status",   "enforcement", "summary",
    "requirement", "required-by", "based-on", "gaps", "examples", "yields-to",
};
/* (preset and preset-reason, not in that list, follow by name as before) */
#define NMETA (sizeof meta_order / sizeof *meta_order)

static int in_meta_order(const char *key)
{
    for (size_t i = 0; i < NMETA; i++)
        if (!strcmp(key, meta_order[i])) return 1;
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A yields-to list sorted (a new array; NULL when absent): its order does not count. */
static json_t *sorted_strings(json_t *arr)
{
    if (!json_is_array(arr)) return json_incref(arr);
    VEC(const char *) v = VEC_INIT;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x) if (json_is_string(x)) VEC_PUSH(v, json_string_value(x));
    if (v.len) qsort(v.items, v.len, sizeof *v.items, cmp_str);
    json_t *out = json_array();
    for (i = 0; i < v.len; i++) json_array_append_new(out, json_string(v.items[i]));
    VEC_FREE(v);
    return out;
}

/* Is metadata member KEY of RA and RB the same as the loader reads it? `preset` as the
 * preset it puts the rule in (none written is recommended), `yields-to` as a set. */
static int same_meta(const char *key, const struct rule *ra, const struct rule *rb)
{
    json_t *a = json_object_get(rule_meta(ra), key), *b = json_object_get(rule_meta(rb), key);
    if (!strcmp(key, "preset")) return rule_preset(ra) == rule_preset(rb);
    if (!strcmp(key, "yields-to")) {
        json_t *sa = sorted_strings(a), *sb = sorted_strings(b);
        int eq = same(sa, sb);
        json_decref(sa);
        json_decref(sb);
        return eq;
    }
    return same(a, b);
}

/* One line of a metadata member: `preset` by the preset's name, yields-to whole, the
 * others (documentation) as they are. Only preset and yields-to change what is reported. */
static void meta_detail(json_t *details, const char *key, const struct rule *ra,
                        const struct rule *rb)
{
    if (!strcmp(key, "preset")) {
        detail(details, "preset", NULL, json_string(rule_preset_name(rule_preset(ra))),
               json_string(rule_preset_name(rule_preset(rb))), 1);
        return;
    }
    json_t *a = json_object_get(rule_meta(ra), key), *b = json_object_get(rule_meta(rb), key);
    int findings = !strcmp(key, "yields-to");
    json_t *d = json_pack("{s:s, s:s}", "what", findings ? "yields-to" : "metadata", "member", key);
    json_object_set_new(d, "before", a ? json_incref(a) : json_null());
    json_object_set_new(d, "after", b ? json_incref(b) : json_null());
    json_object_set_new(d, "findings-can-change", json_boolean(findings));
    json_array_append_new(details, d);
}

static void diff_meta(json_t *changes, json_t *details, const struct rule *ra,
                      const struct rule *rb)
{
    json_t *ma = rule_meta(ra), *mb = rule_meta(rb);
    VEC(const char *) keys = VEC_INIT;
    for (size_t i = 0; i < NMETA; i++) VEC_PUSH(keys, meta_order[i]);
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
        if (same_meta(keys.items[i], ra, rb)) continue;
        json_object_set_new(meta, keys.items[i], pair(a, b));
        meta_detail(details, keys.items[i], ra, rb);
    }
    if (json_object_size(meta)) json_object_set_new(changes, "metadata", meta);
    else json_decref(meta);
    VEC_FREE(keys);
}

/* ---- one rule, then the sets ---------------------------------------------------------- */

/* What differs between RA and RB: the changes object ({} when none), and one line per
 * change appended to DETAILS. */
static json_t *rule_changes(const struct rule_set *sa, const struct rule *ra,
                            const struct rule_set *sb, const struct rule *rb, json_t *details)
{
    json_t *ch = json_object();
    if (strcmp(rule_level_word(ra), rule_level_word(rb))) {
        json_object_set_new(
            ch, "level",
            json_pack("{s:s, s:s}", "before", rule_level_word(ra), "after", rule_level_word(rb)));
        json_t *d = detail(details, "level", NULL, json_string(rule_level_word(ra)),
                           json_string(rule_level_word(rb)), 1);
        /* why, when an override of B's set decided the new level */
        if (rule_level_reason(rb))
            json_object_set_new(d, "override-reason", json_string(rule_level_reason(rb)));
    }
    json_t *na = names_json(rule_set_versions(sa), rule_applies(ra));
    json_t *nb = names_json(rule_set_versions(sb), rule_applies(rb));
    if (!val_equal(na, nb)) {
        json_object_set_new(ch, "applies", pair_new(applies_spec(sa, ra), applies_spec(sb, rb)));
        detail(details, "applies", NULL, applies_spec(sa, ra), applies_spec(sb, rb), 1);
    }
    json_decref(na);
    json_decref(nb);
    diff_check(ch, details, sa, ra, sb, rb);
    diff_meta(ch, details, ra, rb);
    return ch;
}

/* Can any change of DETAILS change which findings are reported? */
static int details_findings(json_t *details)
{
    size_t i;
    json_t *d;
    json_array_foreach(details, i,
                       d) if (json_is_true(json_object_get(d, "findings-can-change"))) return 1;
    return 0;
}

/* Is every change of DETAILS that can change findings a "*" -> "[*]" rewrite? */
static int details_items_only(json_t *details)
{
    size_t i;
    json_t *d;
    int any = 0;
    json_array_foreach(details, i, d)
    {
        if (!json_is_true(json_object_get(d, "findings-can-change"))) continue;
        if (!json_is_true(json_object_get(d, "items-only"))) return 0;
        any = 1;
    }
    return any;
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

/* The rule files of RS and of the sets it extends, base first: the files its rules come
 * from. A set's own list names only its own files, so an organisation's set compared with
 * its base (or a base compared with a set extending it) would list the base's files as
 * removed while every rule of them is still there. A name both hold is listed once. */
static void add_chain_files(json_t *files, const struct rule_set *rs)
{
    if (rule_set_base(rs)) add_chain_files(files, rule_set_base(rs));
    for (size_t i = 0; i < rule_set_file_count(rs); i++) {
        const char *f = rule_set_file(rs, i);
        int seen = 0;
        for (size_t k = 0; k < json_array_size(files) && !seen; k++)
            seen = !strcmp(json_string_value(json_array_get(files, k)), f);
        if (!seen) json_array_append_new(files, json_string(f));
    }
}

static json_t *files_json(const struct rule_set *rs)
{
    json_t *files = json_array();
    add_chain_files(files, rs);
    return files;
}

/* "NAME@TAG" of the set RS extends, or NULL (new). */
static char *extends_of(const struct rule_set *rs)
{
    const struct rule_set *base = rule_set_base(rs);
    return base ? xasprintf("%s@%s", rule_set_name(base), rule_set_display_tag(base)) : NULL;
}

/* The sha256 of the file PATH of RS's digest, or NULL. */
static const char *digest_hex_of(const struct rule_set *rs, const char *path)
{
    for (size_t i = 0; i < rule_set_digest_count(rs); i++)
        if (!strcmp(rule_set_digest_path(rs, i), path)) return rule_set_digest_hex(rs, i);
    return NULL;
}

/* The data files (manifest data:) that differ: path -> "added", "removed" or "changed".
 * What predicates read from them can change findings, which no rule's diff shows. */
static json_t *data_changes(const struct rule_set *a, const struct rule_set *b)
{
    json_t *out = json_object();
    const struct rule_set *sets[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < rule_set_digest_count(sets[s]); i++) {
            const char *path = rule_set_digest_path(sets[s], i);
            if (rule_set_digest_kind(sets[s], i) != RULE_FILE_DATA || json_object_get(out, path))
                continue;
            const char *ha = digest_hex_of(a, path), *hb = digest_hex_of(b, path);
            if (ha && hb && !strcmp(ha, hb)) continue;
            json_object_set_new(out, path,
                                json_string(!ha       ? "added"
                                                : !hb ? "removed"
                                                      : "changed"));
        }
    return out;
}

static json_t *set_changes(const struct rule_set *a, const struct rule_set *b)
{
    json_t *set = json_object();
    diff_str(set, "name", rule_set_name(a), rule_set_name(b));
    diff_str(set, "tag", rule_set_display_tag(a), rule_set_display_tag(b));
    diff_str(set, "digest", rule_set_digest(a), rule_set_digest(b));
    diff_str(set, "docs-url", rule_set_docs_url(a), rule_set_docs_url(b));
    char *ea = extends_of(a), *eb = extends_of(b);
    diff_str(set, "extends", ea, eb);
    free(ea);
    free(eb);
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
    json_t *data = data_changes(a, b);
    if (json_object_size(data)) json_object_set_new(set, "data", data);
    else json_decref(data);
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
            json_t *details = json_array();
            json_t *ch = rule_changes(a, ra[i].r, b, rb[j].r, details);
            if (json_object_size(ch)) {
                json_t *e =
                    json_pack("{s:s, s:o, s:o, s:b}", "id", ra[i].id, "changes", ch, "details",
                              details, "findings-can-change", details_findings(details));
                if (details_items_only(details))
                    json_object_set_new(e, "findings-items-only", json_true());
                json_array_append_new(changed, e);
            } else {
                unchanged++;
                json_decref(ch);
                json_decref(details);
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

void rules_diff_set_line(json_t *set, struct buf *b)
{
    if (!json_object_size(set)) return;
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
    static const char *const urls[] = {"docs-url", "extends"};
    for (size_t k = 0; k < 2; k++)
        if ((p = json_object_get(set, urls[k]))) {
            sep(b, &n);
            buf_addf(b, "%s %s -> %s", urls[k], str_or(before(p), "none"),
                     str_or(after(p), "none"));
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
    if ((p = json_object_get(set, "data"))) {
        sep(b, &n);
        buf_adds(b, "data");
        const char *k;
        json_t *v;
        int first = 1;
        json_object_foreach(p, k, v)
        {
            buf_addf(b, "%s %s %s", first ? "" : ",", k, str_or(v, "?"));
            first = 0;
        }
        buf_adds(b, " (can change findings)");
    }
}

/* A JSON value on one line ("none" for null or absent). */
static void add_value(struct buf *b, json_t *v)
{
    if (!v || json_is_null(v)) {
        buf_adds(b, "none");
        return;
    }
    char *text = json_dumps(v, JSON_ENCODE_ANY);
    buf_adds(b, text ? text : "?");
    free(text);
}

/* A dumped predicate on one line: NAME, its argument, its selectors, then (OF, ...) and
 * require (...); `use: NAME` as use NAME = BODY. */
static void add_pred(struct buf *b, json_t *p)
{
    if (!json_is_object(p)) {
        add_value(b, p);
        return;
    }
    const char *name = str_or(json_object_get(p, "predicate"), "?");
    buf_adds(b, name);
    if (!strcmp(name, "use")) {
        buf_addf(b, " %s = ", str_or(json_object_get(p, "name"), "?"));
        add_pred(b, json_object_get(p, "body"));
        return;
    }
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v)
    {
        if (!strcmp(k, "predicate") || !strcmp(k, "of") || !strcmp(k, "require")) continue;
        if (!strcmp(k, "select")) {
            size_t i;
            json_t *sel;
            json_array_foreach(v, i, sel)
                buf_addf(b, "%s%s", i ? ", " : " ", str_or(json_object_get(sel, "selector"), "?"));
            continue;
        }
        if (strcmp(k, "argument") && strcmp(k, "types") && strcmp(k, "regex"))
            buf_addf(b, " %s", k);
        buf_addc(b, ' ');
        add_value(b, v);
    }
    json_t *of = json_object_get(p, "of");
    if (json_is_array(of)) {
        size_t i;
        buf_addc(b, '(');
        json_array_foreach(of, i, v)
        {
            if (i) buf_adds(b, ", ");
            add_pred(b, v);
        }
        buf_addc(b, ')');
    }
    if ((v = json_object_get(p, "require"))) {
        buf_adds(b, " require (");
        add_pred(b, v);
        buf_addc(b, ')');
    }
}

static void add_selectors(struct buf *b, json_t *arr)
{
    if (!json_is_array(arr) || !json_array_size(arr)) {
        buf_adds(b, "none");
        return;
    }
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) buf_addf(b, "%s%s", i ? ", " : "", str_or(v, "?"));
}

#define BRIEF_TEXT 60 /* bytes of a metadata text shown on a line (the JSON has it all) */

/* A metadata value in brief: a scalar as JSON (a long text cut, "..." after it), a list by
 * its length. */
static void add_brief(struct buf *b, json_t *v, size_t from)
{
    const char *s = json_string_value(v);
    if (s && strlen(s) > BRIEF_TEXT) {
        while (from && ((unsigned char)s[from] & 0xC0) == 0x80) from--; /* a character's start */
        size_t n = strlen(s + from) > BRIEF_TEXT ? BRIEF_TEXT : strlen(s + from);
        while (n && ((unsigned char)s[from + n] & 0xC0) == 0x80) n--;
        json_t *cut = json_stringn(s + from, n);
        if (from) buf_adds(b, "...");
        add_value(b, cut);
        json_decref(cut);
        if (s[from + n]) buf_adds(b, "...");
    } else if (json_is_array(v))
        buf_addf(b, "%zu entr%s", json_array_size(v), json_array_size(v) == 1 ? "y" : "ies");
    else if (json_is_object(v)) buf_adds(b, "{...}");
    else add_value(b, v);
}

static const char *fix_title(json_t *f)
{
    return str_or(json_object_get(f, "title"), "?");
}

void rules_diff_detail_line(json_t *d, struct buf *b)
{
    const char *what = str_or(json_object_get(d, "what"), "?");
    json_t *at = json_object_get(d, "at"), *x = before(d), *y = after(d);
    int gone = json_is_null(y), fresh = json_is_null(x);
    if (!strcmp(what, "fix") || !strcmp(what, "message") || !strcmp(what, "hint"))
        buf_addf(b, "%s%s", what, fresh ? " added" : gone ? " removed" : "");
    else if (!strcmp(what, "metadata"))
        buf_addf(b, "metadata %s", str_or(json_object_get(d, "member"), "?"));
    else buf_adds(b, what);
    if (at) buf_addf(b, " at %s", json_string_value(at));
    buf_adds(b, ": ");
    if (!strcmp(what, "fix")) {
        if (fresh || gone) buf_adds(b, fix_title(fresh ? y : x));
        else if (!strcmp(fix_title(x), fix_title(y)))
            buf_addf(b, "%s (its edit or when)", fix_title(x));
        else buf_addf(b, "%s -> %s", fix_title(x), fix_title(y));
    } else if ((!strcmp(what, "message") || !strcmp(what, "hint")) && (fresh || gone)) {
        add_value(b, fresh ? y : x);
    } else if (!strcmp(what, "selector") && json_is_true(json_object_get(d, "items-only"))) {
        add_selectors(b, y); /* the before is the same with "*" for each "[*]" */
        buf_adds(b, " (each \"[*]\" was \"*\": items only)");
        return;
    } else if (!strcmp(what, "selector")) {
        add_selectors(b, x);
        buf_adds(b, " -> ");
        add_selectors(b, y);
    } else if (!strcmp(what, "when") || !strcmp(what, "require")) {
        add_pred(b, x);
        buf_adds(b, " -> ");
        add_pred(b, y);
    } else if (!strcmp(what, "clauses")) {
        static const char *const sides[] = {"before", "after"};
        for (int s = 0; s < 2; s++) {
            json_t *c = json_object_get(d, sides[s]);
            if (s) buf_adds(b, " -> ");
            if (json_is_object(c))
                buf_addf(b, "%s of %" JSON_INTEGER_FORMAT, str_or(json_object_get(c, "kind"), "?"),
                         json_integer_value(json_object_get(c, "count")));
            else buf_adds(b, "none");
        }
    } else if (!strcmp(what, "metadata")) {
        /* two long texts are shown from a little before where they first differ */
        size_t from = 0;
        const char *sx = json_string_value(x), *sy = json_string_value(y);
        if (sx && sy && (strlen(sx) > BRIEF_TEXT || strlen(sy) > BRIEF_TEXT)) {
            while (sx[from] && sx[from] == sy[from]) from++;
            from = from > 20 ? from - 20 : 0;
        }
        add_brief(b, x, from);
        buf_adds(b, " -> ");
        add_brief(b, y, from);
        if (json_is_array(x) && json_is_array(y)) { /* "2 entries -> 2 entries" says little */
            size_t n = 0, nx = json_array_size(x), ny = json_array_size(y);
            for (size_t i = 0; i < nx && i < ny; i++)
                n += !val_equal(json_array_get(x, i), json_array_get(y, i));
            if (n && nx == ny) buf_addf(b, " (%zu of them changed)", n);
            else if (n) buf_addf(b, " (%zu of the first %zu changed)", n, nx < ny ? nx : ny);
        }
    } else if (json_is_string(x) || json_is_string(y)) {
        if (!strcmp(what, "message") || !strcmp(what, "hint")) {
            add_value(b, x);
            buf_adds(b, " -> ");
            add_value(b, y);
        } else buf_addf(b, "%s -> %s", str_or(x, "none"), str_or(y, "none"));
    } else {
        add_value(b, x);
        buf_adds(b, " -> ");
        add_value(b, y);
    }
    if (json_is_true(json_object_get(d, "items-only")))
        buf_adds(b, " (\"*\" -> \"[*]\": items only)");
    const char *why = json_string_value(json_object_get(d, "override-reason"));
    if (why) buf_addf(b, " (override: %s)", why);
}

void rules_diff_findings_note(json_t *e, struct buf *b)
{
    if (json_is_true(json_object_get(e, "findings-can-change"))) {
        buf_adds(b,
                 json_is_true(json_object_get(e, "findings-items-only"))
                     ? "findings can change only where an MCP list is written as a map "
                       "(\"*\" walks its members, \"[*]\" does not; the type rules report the "
                       "map)"
                     : "findings can change");
        return;
    }
    buf_adds(b, "findings cannot change: only");
    VEC(const char *) seen = VEC_INIT;
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(e, "details"), i, d)
    {
        const char *w = str_or(json_object_get(d, "what"), "?");
        if (!strcmp(w, "metadata")) w = str_or(json_object_get(d, "member"), "?");
        int dup = 0;
        for (size_t k = 0; k < seen.len && !dup; k++) dup = !strcmp(seen.items[k], w);
        if (dup) continue;
        buf_addf(b, "%s %s", seen.len ? "," : "",
                 !strcmp(w, "fix")           ? "fixes"
                     : !strcmp(w, "message") ? "messages"
                     : !strcmp(w, "hint")    ? "hints"
                                             : w);
        VEC_PUSH(seen, w);
    }
    VEC_FREE(seen);
    buf_adds(b, " changed");
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
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(e, "details"), i, d)
    {
        buf_adds(b, "    ");
        rules_diff_detail_line(d, b);
        buf_addc(b, '\n');
    }
    buf_adds(b, "    ");
    rules_diff_findings_note(e, b);
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
    json_t *set = json_object_get(diff, "set");
    if (json_object_size(set)) {
        buf_adds(out, "~ set: ");
        rules_diff_set_line(set, out);
        buf_addc(out, '\n');
    }
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
