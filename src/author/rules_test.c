/* rules_test.c - `rules test`: run each rule's examples against its conformance fixtures
 * (the rule alone, under the fixture's --protocol-version), and check that it reports
 * exactly at the example's pointer; a fix example also checks that the rule's fixes turn
 * the fixture into its `after`, byte for byte, and are idempotent. It runs the compiled
 * program (a set that loaded whole): the rules' examples come from their metadata and
 * their fixes' positions from the compiler, so no rule file is read again; what it reads
 * are the fixtures. */
#include "author/rules_test.h"

#include <string.h>

#include "author/fixtures.h"
#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/util.h"
#include "base/ver.h"
#include "findings/fix.h"
#include "judge/eval.h"
#include "judge/judge.h"
#include "judge/judge_diff.h"
#include "resolve/res.h"

struct only {
    const char *id;
};

static int only_rule(const char *id, void *arg)
{
    const struct only *o = arg;
    return id && !strcmp(id, o->id);
}

/* The fixture's x-args: only --protocol-version V is meaningful to a single rule. */
static ver_mask fixture_versions(const struct rule_set *rs, json_t *root)
{
    json_t *args = json_object_get(root, "x-args");
    ver_mask m = 0;
    for (size_t i = 0; json_is_array(args) && i + 1 < json_array_size(args); i++) {
        const char *a = json_string_value(json_array_get(args, i));
        const char *v = json_string_value(json_array_get(args, i + 1));
        if (!a || !v || strcmp(a, "--protocol-version")) continue;
        int k = ver_index(rule_set_versions(rs), v);
        if (k >= 0) m |= (ver_mask)1 << k;
        i++;
    }
    return m;
}

/* The versions FIXTURE's document declares (the set's versions member, e.g.
 * protocolVersions; every version when it names none the set knows), within those of its
 * x-args (fixture_versions; 0: all). */
static ver_mask document_versions(const struct rule_set *rs, json_t *root, ver_mask args)
{
    const struct ver_list *vl = rule_set_versions(rs);
    json_t *vs = json_object_get(root, rule_set_res_config(rs)->versions_member);
    ver_mask m = 0;
    for (size_t i = 0; json_is_array(vs) && i < json_array_size(vs); i++) {
        int k = ver_index(vl,
                          json_string_value(json_array_get(vs, i))
                              ? json_string_value(json_array_get(vs, i))
                              : "");
        if (k >= 0) m |= (ver_mask)1 << k;
    }
    if (!m) m = ver_all(vl);
    return args ? m & args : m;
}

/* What the tested rule judged in one run (eval_options.judged). */
struct judged_log {
    const char *id, *pointer;
    ver_mask at;        /* the versions the rule judged POINTER for (after its when) */
    ver_mask failed_at; /* those in which it failed there, before any yield */
    char *elsewhere[3]; /* the first other pointers it judged, for a message */
    size_t nelsewhere, more;
};

static int at_or_below(const char *p, const char *at);

static void log_judged(const struct rule *r, const char *pointer, int whole, ver_mask judged,
                       ver_mask failed, void *arg)
{
    struct judged_log *l = arg;
    if (strcmp(rule_id(r), l->id)) return;
    if (!strcmp(pointer, l->pointer)) {
        l->at |= judged;
        l->failed_at |= failed;
        return;
    }
    if (whole && at_or_below(l->pointer, pointer)) { /* report-at: failure judges below */
        l->at |= judged;
        return;
    }
    for (size_t i = 0; i < l->nelsewhere; i++)
        if (!strcmp(l->elsewhere[i], pointer)) return;
    if (l->nelsewhere < 3) l->elsewhere[l->nelsewhere++] = xstrdup(pointer);
    else l->more++;
}

static void judged_log_release(struct judged_log *l)
{
    for (size_t i = 0; i < l->nelsewhere; i++) free(l->elsewhere[i]);
}

/* Is P the pointer AT or below it? */
static int at_or_below(const char *p, const char *at)
{
    size_t n = strlen(at);
    return p && !strncmp(p, at, n) && (p[n] == '\0' || p[n] == '/');
}

/* A rule ID yields to that reports at or below POINTER in D with the whole set: the
 * reason a valid example's rule failed there and reported nothing. NULL if none. */
static char *yielded_to(const struct rule_set *rs, const char *path, const char *id,
                        const char *pointer, ver_mask versions)
{
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    if (!d) {
        doc_error_release(&err);
        return NULL;
    }
    const struct rule *r = rule_set_find(rs, id);
    struct eval_options eo = {.versions = versions};
    struct diag_list all = DIAG_LIST_INIT;
    eval_document(rs, d, &eo, &all);
    char *to = NULL;
    for (size_t i = 0; !to && r && i < all.len; i++)
        if (all.items[i].rule && at_or_below(all.items[i].pointer, pointer) &&
            rule_yields_to(r, all.items[i].rule))
            to = xstrdup(all.items[i].rule);
    diag_list_release(&all);
    doc_free(d);
    return to;
}

/* Why a valid example that drew no finding proves nothing (strict): the rule never
 * judged its pointer for a version the fixture and the rule share. NULL when it did. */
static char *not_exercised(const struct rule_set *rs, const char *path, const char *id,
                           const char *pointer, ver_mask docv, ver_mask args,
                           const struct judged_log *l)
{
    const struct rule *r = rule_set_find(rs, id);
    const struct ver_list *vl = rule_set_versions(rs);
    struct buf b = BUF_INIT;
    if (r && !(docv & rule_applies(r))) {
        buf_adds(&b, "not exercised: versions disjoint: the fixture is judged for ");
        ver_format(&b, vl, docv, ", ");
        buf_adds(&b, ", the rule applies to ");
        ver_format(&b, vl, rule_applies(r), ", ");
        buf_adds(&b, " (give the fixture a protocolVersions the rule applies to)");
        return buf_detach(&b);
    }
    if (!l->at) {
        buf_addf(&b, "not exercised: not selected: the rule never judges %s (after its when)",
                 *pointer ? pointer : "\"\" (the root)");
        if (!l->nelsewhere) buf_adds(&b, "; it judges nothing in the fixture");
        for (size_t i = 0; i < l->nelsewhere; i++)
            buf_addf(&b, "%s%s", i ? ", " : "; it judges ",
                     *l->elsewhere[i] ? l->elsewhere[i] : "\"\" (the root)");
        if (l->more) buf_addf(&b, " and %zu more", l->more);
        return buf_detach(&b);
    }
    if (l->failed_at) {
        char *to = yielded_to(rs, path, id, pointer, args);
        buf_addf(&b,
                 "not exercised: yielded to %s: the rule fails at %s, but %s reports there "
                 "first (yields-to), so the example shows nothing of this rule",
                 to ? to : "another rule", pointer, to ? to : "that rule");
        free(to);
        return buf_detach(&b);
    }
    buf_release(&b);
    return NULL;
}

/* A session rule's example (its `together`): judge D, already judged alone into FOUND,
 * with the fixtures TOGETHER names as one session (judge_together), D first. NULL, or
 * why a fixture could not be read. */
static char *judge_example_together(const struct rule_set *rs, const char *fixtures, doc *d,
                                    json_t *together, const struct eval_options *eo,
                                    struct diag_list *found)
{
    size_t n = 1 + json_array_size(together);
    struct judge_result *res = xcalloc(n, sizeof *res);
    char *why = NULL;
    res[0].d = d;
    res[0].diags = *found;
    for (size_t i = 1; i < n && !why; i++) {
        const char *name = json_string_value(json_array_get(together, i - 1));
        if (!name || !fixtures_name_ok(name)) {
            why = xasprintf("together: \"%s\" is not a relative path", name ? name : "");
            break;
        }
        char *path = xasprintf("%s/%s", fixtures, name);
        struct doc_error err;
        if (!(res[i].d = doc_load_file(path, NULL, &err))) {
            struct buf m = BUF_INIT;
            loc_add(&m, path, err.line, err.col);
            buf_addf(&m, ": %s", err.message);
            why = buf_detach(&m);
            doc_error_release(&err);
        }
        free(path);
    }
    if (!why) judge_together(rs, res, n, eo, NULL);
    *found = res[0].diags;
    for (size_t i = 1; i < n; i++) {
        doc_free(res[i].d);
        diag_list_release(&res[i].diags); /* the others' findings: not this example's */
    }
    free(res);
    return why;
}

/* A change rule's example (its `old`): the change from the fixture OLD names to D, judged
 * as mcpdesc diff judges it (judge_diff), into FOUND. NULL, or why OLD could not be read. */
static char *judge_example_old(const struct rule_set *rs, const char *fixtures, doc *d,
                               const char *old, const struct eval_options *eo,
                               struct diag_list *found)
{
    if (!strcmp(old, "\n-absent-old")) { /* absent: old: D is a description added */
        judge_diff(rs, NULL, d, eo, found);
        return NULL;
    }
    if (!strcmp(old, "\n-absent-new")) { /* absent: new: D is a description removed */
        judge_diff(rs, d, NULL, eo, found);
        return NULL;
    }
    if (!fixtures_name_ok(old)) return xasprintf("old: \"%s\" is not a relative path", old);
    char *path = xasprintf("%s/%s", fixtures, old);
    struct doc_error err;
    doc *od = doc_load_file(path, NULL, &err);
    char *why = NULL;
    if (!od) {
        struct buf m = BUF_INIT;
        loc_add(&m, path, err.line, err.col);
        buf_addf(&m, ": %s", err.message);
        why = buf_detach(&m);
        doc_error_release(&err);
    } else {
        judge_diff(rs, od, d, eo, found);
    }
    doc_free(od);
    free(path);
    return why;
}

static char *run_one(const struct rule_set *rs, const char *fixtures, const char *id,
                     const char *expect, const char *fixture, const char *pointer, int strict,
                     json_t *together, const char *old)
{
    if (old) strict = 0; /* what a change rule judged is on two sides: the pointer is NEW's */
    if (!fixtures_name_ok(fixture))
        return xasprintf("fixture \"%s\" is not a relative path", fixture);
    char *path = xasprintf("%s/%s", fixtures, fixture);
    struct doc_error err;
    doc *d = doc_load_file(path, NULL, &err);
    if (!d) {
        struct buf m = BUF_INIT;
        loc_add(&m, path, err.line, err.col);
        buf_addf(&m, ": %s", err.message);
        char *msg = buf_detach(&m);
        doc_error_release(&err);
        free(path);
        return msg;
    }
    if (!json_is_object(doc_root(d))) {
        doc_free(d);
        free(path);
        return xstrdup("the fixture is not a JSON object");
    }
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) {
        doc_free(d);
        free(path);
        return xasprintf("bad JSON Pointer \"%s\": %s", pointer, why);
    }
    int exists = ptr_get(doc_root(d), &p) != NULL;
    struct only o = {id};
    ver_mask args = fixture_versions(rs, doc_root(d));
    ver_mask docv = document_versions(rs, doc_root(d), args);
    struct judged_log log = {id, pointer, 0, 0, {NULL}, 0, 0};
    struct eval_options eo = {.versions = args,
                              .enabled = only_rule,
                              .enabled_arg = &o,
                              .judged = strict ? log_judged : NULL,
                              .judged_arg = &log};
    struct diag_list found = DIAG_LIST_INIT;
    char *unread = NULL;
    if (old) {
        unread = judge_example_old(rs, fixtures, d, old, &eo, &found);
    } else {
        eval_document(rs, d, &eo, &found);
        if (together) unread = judge_example_together(rs, fixtures, d, together, &eo, &found);
    }
    if (unread) {
        ptr_release(&p);
        doc_free(d);
        diag_list_release(&found);
        judged_log_release(&log);
        free(path);
        return unread;
    }
    if (!exists) exists = ptr_get(doc_root(d), &p) != NULL; /* through $componentRef */
    ptr_release(&p);
    doc_free(d);
    if (!exists) {
        diag_list_release(&found);
        judged_log_release(&log);
        free(path);
        return xasprintf("nothing at %s in the fixture", pointer);
    }
    enum diag_level want = !strcmp(expect, "invalid") ? DIAG_ERROR
        : !strcmp(expect, "warning")                  ? DIAG_WARNING
                                                      : DIAG_INFO;
    int valid = !strcmp(expect, "valid");
    int ok = valid;
    struct buf at = BUF_INIT, elsewhere = BUF_INIT;
    size_t others = 0;
    for (size_t i = 0; i < found.len; i++) {
        const struct diag *dg = &found.items[i];
        if (dg->pointer && !strcmp(dg->pointer, pointer)) {
            if (valid) ok = 0;
            else if (dg->level == want) ok = 1;
            buf_addf(&at, "%s%s \"%s\"", at.len ? "; " : "", diag_level_name(dg->level),
                     dg->message);
        } else if (others++ < 3) {
            buf_addf(&elsewhere, "%s%s at %s", elsewhere.len ? ", " : "",
                     diag_level_name(dg->level), dg->pointer ? dg->pointer : "?");
        }
    }
    if (others > 3) buf_addf(&elsewhere, " and %zu more", others - 3);
    diag_list_release(&found);
    char *detail = NULL;
    if (!ok) {
        if (at.len)
            detail = xasprintf("expected %s at %s, the rule reports %s",
                               valid ? "nothing" : diag_level_name(want), pointer, buf_str(&at));
        else
            detail = xasprintf("expected %s at %s, the rule reports nothing there%s%s%s",
                               diag_level_name(want), pointer, elsewhere.len ? " (it reports " : "",
                               buf_str(&elsewhere), elsewhere.len ? ")" : "");
    } else if (valid && strict) {
        detail = not_exercised(rs, path, id, pointer, docv, args, &log);
    }
    buf_release(&at);
    buf_release(&elsewhere);
    judged_log_release(&log);
    free(path);
    return detail;
}

/* The first line where A and B differ (1-based), for a message. */
/* The lines of TEXT (LEN bytes) as start offsets: *N lines; new array of *N + 1 entries,
 * the last one LEN (a last line without a line break counts). */
static size_t *line_starts(const char *t, size_t len, size_t *n)
{
    size_t cnt = 0;
    for (size_t i = 0; i < len; i++) cnt += t[i] == '\n';
    if (len && t[len - 1] != '\n') cnt++;
    size_t *st = xcalloc(cnt + 1, sizeof *st);
    size_t k = 0;
    st[k++] = 0;
    for (size_t i = 0; i < len && k < cnt; i++)
        if (t[i] == '\n') st[k++] = i + 1;
    st[cnt] = len;
    *n = cnt;
    return st;
}

static int same_line(const char *a, const size_t *sa, size_t i, const char *b, const size_t *sb,
                     size_t j)
{
    size_t la = sa[i + 1] - sa[i], lb = sb[j + 1] - sb[j];
    return la == lb && !memcmp(a + sa[i], b + sb[j], la);
}

/* Lines FROM up to TO (0-based, TO excluded) of T, MARK before each, at most 4 of them and
 * each cut at 100 bytes. */
static void excerpt_lines(struct buf *out, const char *t, const size_t *st, size_t from, size_t to,
                          const char *mark)
{
    for (size_t i = from; i < to && i < from + 4; i++) {
        size_t len = st[i + 1] - st[i];
        while (len && (t[st[i] + len - 1] == '\n' || t[st[i] + len - 1] == '\r')) len--;
        buf_addf(out, "\n    %s %.*s%s", mark, (int)(len > 100 ? 100 : len), t + st[i],
                 len > 100 ? "..." : "");
    }
    if (to > from + 4) buf_addf(out, "\n    %s ... %zu more lines", mark, to - from - 4);
}

/* What differs between WANT (the expected after) and GOT (the fixed text): "from line N"
 * and NOTE, then the first differing lines of each, one line of context either side, as a
 * unified diff shows them (- expected, + produced). */
static void diff_excerpt(struct buf *out, const char *want, size_t nwant, const char *got,
                         size_t ngot, const char *note)
{
    size_t nw, ng;
    size_t *sw = line_starts(want, nwant, &nw), *sg = line_starts(got, ngot, &ng);
    size_t f = 0;
    while (f < nw && f < ng && same_line(want, sw, f, got, sg, f)) f++;
    size_t tail = 0; /* lines the two end with, after the first difference */
    while (tail < nw - f && tail < ng - f &&
           same_line(want, sw, nw - 1 - tail, got, sg, ng - 1 - tail))
        tail++;
    buf_addf(out, " from line %zu%s:", f + 1, note);
    if (f) excerpt_lines(out, want, sw, f - 1, f, " ");
    excerpt_lines(out, want, sw, f, nw - tail, "-");
    excerpt_lines(out, got, sg, f, ng - tail, "+");
    if (tail) excerpt_lines(out, want, sw, nw - tail, nw - tail + 1, " ");
    free(sw);
    free(sg);
}

/* Judge TEXT (LEN bytes, parsed as NAME's extension says) with RS under EO. 0 and *OUT
 * filled, or -1 with *WHY (new) saying why it is not a description. */
static int judge_text(const struct rule_set *rs, const char *name, const char *text, size_t len,
                      const struct eval_options *eo, struct judge_result *out, char **why)
{
    struct judge_source src = {JUDGE_BUFFER, name, NULL, text, len};
    struct judge_options jo = {eo, NULL, 0, 0, 0};
    judge_document(rs, &src, &jo, out);
    *why = NULL;
    if (out->error) *why = xstrdup(out->error->message);
    else if (out->skipped) *why = xstrdup(out->skipped);
    else if (!json_object_get(doc_root(out->d), JUDGE_DESCRIPTION_MEMBER))
        *why = xstrdup("its top level has no " JUDGE_DESCRIPTION_MEMBER " member");
    if (!*why) return 0;
    judge_result_release(out);
    return -1;
}

static void say_finding(struct buf *b, const struct diag *dg)
{
    buf_addf(b, "%s %s at %s \"%s\"", dg->rule ? dg->rule : "?", diag_level_name(dg->level),
             dg->pointer ? dg->pointer : "?", dg->message);
}

/* The four things a fix example proves (strict), on FIXED (the fixture after the rule's
 * fixes, byte for byte its `after`): (1) the rule reports nothing at or below POINTER,
 * (2) no other rule of the whole set (every preset) reports anything at or below it that
 * it did not report before the fix, (3) the file is still a description, (4) a second
 * run of the fixes changes nothing. NULL when all hold, else the first that fails (new),
 * with the finding that shows it. */
static char *prove_fix(const struct rule_set *rs, const char *id, const char *bpath,
                       const char *before, size_t before_len, const char *fixed, size_t fixed_len,
                       const char *pointer, ver_mask versions, struct fix_opts *fo)
{
    struct eval_options all = {.versions = versions};
    struct judge_result was = {0}, now = {0};
    char *why = NULL, *detail = NULL;
    if (judge_text(rs, bpath, fixed, fixed_len, &all, &now, &why) < 0) {
        detail = xasprintf("the fix is not proven (3 of 4: still a description): the fixed file "
                           "is not a description: %s",
                           why);
        free(why);
        return detail;
    }
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < now.diags.len && !b.len; i++) {
        const struct diag *dg = &now.diags.items[i];
        if (dg->rule && !strcmp(dg->rule, id) && at_or_below(dg->pointer, pointer)) {
            buf_addf(&b,
                     "the fix is not proven (1 of 4: the rule reports nothing at or below "
                     "%s): after the fix, ",
                     pointer);
            say_finding(&b, dg);
        }
    }
    if (!b.len && judge_text(rs, bpath, before, before_len, &all, &was, &why) == 0) {
        char *used = xcalloc(was.diags.len + 1, 1);
        for (size_t i = 0; i < now.diags.len && !b.len; i++) {
            const struct diag *dg = &now.diags.items[i];
            if (!dg->rule || !strcmp(dg->rule, id) || !at_or_below(dg->pointer, pointer)) continue;
            size_t k = 0;
            for (; k < was.diags.len; k++) {
                const struct diag *old = &was.diags.items[k];
                if (!used[k] && old->rule && !strcmp(old->rule, dg->rule) &&
                    old->level == dg->level && old->pointer && !strcmp(old->pointer, dg->pointer))
                    break;
            }
            if (k < was.diags.len) {
                used[k] = 1;
                continue;
            }
            buf_addf(&b,
                     "the fix is not proven (2 of 4: no other rule reports anything new at "
                     "or below %s): after the fix, ",
                     pointer);
            say_finding(&b, dg);
        }
        free(used);
        judge_result_release(&was);
    }
    free(why);
    judge_result_release(&now);
    if (b.len) return buf_detach(&b);
    buf_release(&b);
    struct diag_list errs = DIAG_LIST_INIT;
    size_t again_len = 0;
    int n2 = 0;
    char *again = fix_text(rs, fo, bpath, fixed, fixed_len, &again_len, &n2, &errs);
    if (again || errs.len)
        detail = xasprintf("the fix is not proven (4 of 4: a second fix changes nothing): a "
                           "second run of the fixes changes the file again%s%s",
                           errs.len ? ": " : "", errs.len ? errs.items[0].message : "");
    free(again);
    diag_list_release(&errs);
    return detail;
}

/* An example {expect: fix, fixture: BEFORE, after: AFTER, pointer: P}: the rule reports
 * at P in BEFORE; its fixes turn BEFORE into AFTER byte for byte; then (STRICT) what
 * prove_fix checks, else the release semantics: the rule reports nothing at P in AFTER
 * and its fixes change nothing there (idempotent). NULL when all hold, else what failed
 * (new). */
static char *run_fix(const struct rule_set *rs, const char *fixtures, const char *id,
                     const char *fixture, const char *after, const char *pointer, int strict)
{
    char *detail = run_one(rs, fixtures, id, "invalid", fixture, pointer, 0, NULL, NULL);
    if (detail) { /* the level does not matter here: any finding at the pointer */
        char *w = run_one(rs, fixtures, id, "warning", fixture, pointer, 0, NULL, NULL);
        char *i = w ? run_one(rs, fixtures, id, "info", fixture, pointer, 0, NULL, NULL) : NULL;
        if (!w || !i) {
            free(detail);
            detail = NULL;
        }
        free(w);
        free(i);
        if (detail) return detail;
    }
    if (!fixtures_name_ok(after)) return xasprintf("after \"%s\" is not a relative path", after);
    char *bpath = xasprintf("%s/%s", fixtures, fixture),
         *apath = xasprintf("%s/%s", fixtures, after);
    struct buf before = BUF_INIT, want = BUF_INIT;
    struct doc_error err = {NULL, 0, 0};
    doc *d = NULL;
    if (buf_read_file(&before, bpath) < 0) detail = xasprintf("cannot read %s", bpath);
    else if (buf_read_file(&want, apath) < 0) detail = xasprintf("cannot read %s", apath);
    else if (!(d = doc_load_file(bpath, NULL, &err)))
        detail = xasprintf("%s: %s", bpath, err.message);
    doc_error_release(&err);
    if (detail) {
        buf_release(&before);
        buf_release(&want);
        free(bpath);
        free(apath);
        return detail;
    }
    struct only o = {id};
    ver_mask versions = fixture_versions(rs, doc_root(d));
    struct eval_options eo = {.versions = versions, .enabled = only_rule, .enabled_arg = &o};
    doc_free(d);
    struct judge_options jo = {&eo, NULL, 0, 0, 0};
    struct fix_opts fo = {&jo, NULL, NULL};
    struct diag_list errs = DIAG_LIST_INIT;
    size_t got_len = 0, again_len = 0;
    int n = 0, n2 = 0;
    char *got = fix_text(rs, &fo, bpath, buf_str(&before), before.len, &got_len, &n, &errs);
    if (errs.len) {
        detail = xasprintf("fixing %s: %s", fixture, errs.items[0].message);
    } else if (!got) {
        detail = xasprintf("the rule's fixes change nothing in %s", fixture);
    } else if (got_len != want.len || memcmp(got, buf_str(&want), got_len)) {
        struct buf b = BUF_INIT, note = BUF_INIT;
        const struct rule *r = rule_set_find(rs, id);
        uint32_t lines[4], cols[4];
        size_t nf = r ? rule_fix_positions(r, lines, cols, 4) : 0;
        buf_addf(&note, " (- expected, + produced%s%s", nf ? "; the rule's fix" : "",
                 nf > 1   ? "es at "
                     : nf ? " at "
                          : "");
        for (size_t k = 0; k < nf && k < 4; k++) {
            if (!k) {
                buf_addf(&note, "%s/%s", rule_set_dir(rule_origin(r)), rule_file(r));
                loc_add(&note, NULL, lines[k], cols[k]);
            } else {
                buf_adds(&note, ", ");
                loc_add_pos(&note, lines[k], cols[k]);
            }
        }
        buf_adds(&note, ")");
        buf_addf(&b, "the fixed %s differs from %s", fixture, after);
        diff_excerpt(&b, buf_str(&want), want.len, got, got_len, buf_str(&note));
        buf_release(&note);
        detail = buf_detach(&b);
    } else if (strict) {
        detail = prove_fix(rs, id, bpath, buf_str(&before), before.len, got, got_len, pointer,
                           versions, &fo);
    } else if ((detail = run_one(rs, fixtures, id, "valid", after, pointer, 0, NULL, NULL))) {
        char *w = xasprintf("the rule still reports in %s: %s", after, detail);
        free(detail);
        detail = w;
    } else {
        char *again = fix_text(rs, &fo, apath, got, got_len, &again_len, &n2, &errs);
        if (again || errs.len)
            detail =
                xasprintf("a second run of the fixes changes %s again (not idempotent)", after);
        free(again);
    }
    diag_list_release(&errs);
    free(got);
    buf_release(&before);
    buf_release(&want);
    free(bpath);
    free(apath);
    return detail;
}

/* A change rule's example's OLD side for run_one: the `old` fixture, or a marker no file
 * name can be for `absent: old` and `absent: new`; NULL for any other example. */
static const char *example_old(json_t *e)
{
    const char *absent = json_string_value(json_object_get(e, "absent"));
    if (absent) return !strcmp(absent, "old") ? "\n-absent-old" : "\n-absent-new";
    return json_string_value(json_object_get(e, "old"));
}

size_t rules_test_run_examples(const struct rule_set *rs, const char *fixtures, int strict,
                               int (*enabled)(const char *id, void *arg), void *enabled_arg,
                               void (*each)(const struct rules_test_result *res, void *arg),
                               void *each_arg)
{
    size_t failed = 0;
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (rule_origin(r) != rs) continue; /* a base's rule: tested with its own set */
        if (enabled && !enabled(rule_id(r), enabled_arg)) continue;
        json_t *ex = json_object_get(rule_meta(r), "examples");
        for (size_t k = 0; json_is_array(ex) && k < json_array_size(ex); k++) {
            json_t *e = json_array_get(ex, k);
            struct rules_test_result res = {rule_id(r),
                                            json_string_value(json_object_get(e, "expect")),
                                            json_string_value(json_object_get(e, "fixture")),
                                            json_string_value(json_object_get(e, "pointer")),
                                            0,
                                            NULL};
            if (!res.expect || !res.fixture || !res.pointer)
                continue; /* the loader refuses these */
            const char *after = json_string_value(json_object_get(e, "after"));
            if (!strcmp(res.expect, "fix"))
                res.detail = after
                    ? run_fix(rs, fixtures, res.rule, res.fixture, after, res.pointer, strict)
                    : xstrdup("a fix example names no \"after\"");
            else
                res.detail = run_one(rs, fixtures, res.rule, res.expect, res.fixture, res.pointer,
                                     strict, json_object_get(e, "together"), example_old(e));
            res.passed = res.detail == NULL;
            if (!res.passed) failed++;
            if (each) each(&res, each_arg);
            free(res.detail);
        }
    }
    return failed;
}
