/* rules_diff_on.c - the findings that appear and disappear on one's own files when a pin
 * moves from set A to set B, and the Markdown of a whole `rules diff` (rules_diff_on.h).
 * As in rules_diff.c, everything is described as JSON first and the text and Markdown
 * are rendered from that description. */
#include "author/rules_diff_on.h"

#include <stdlib.h>
#include <string.h>

#include "author/rules_diff.h"
#include "base/util.h"
#include "base/ver.h"

/* ---- comparing ------------------------------------------------------------------------ */

static json_t *finding_json(const struct rule_set *rs, const char *file, const struct diag *d)
{
    const struct ver_list *vl = rule_set_versions(rs);
    json_t *versions = json_array();
    for (size_t i = 0; i < vl->n; i++)
        if (d->versions >> i & 1) json_array_append_new(versions, json_string(vl->names[i]));
    json_t *o =
        json_pack("{s:s?, s:s, s:i, s:i, s:s?, s:s, s:s?, s:o}", "rule", d->rule, "file", file,
                  "line", (int)d->line, "column", (int)d->col, "pointer", d->pointer, "level",
                  diag_level_name(d->level), "message", d->message, "versions", versions);
    return o;
}

/* Same rule, pointer, position and level: the same finding (rules_diff_on.h). */
static int same_place(const struct diag *x, const struct diag *y)
{
    return x->level == y->level && x->line == y->line && x->col == y->col &&
        !strcmp(x->rule ? x->rule : "", y->rule ? y->rule : "") &&
        !strcmp(x->pointer ? x->pointer : "", y->pointer ? y->pointer : "");
}

/* The version names of a finding (versions are compared by name: the two sets may list
 * different protocol versions). */
static int same_versions(json_t *fa, json_t *fb)
{
    return json_equal(json_object_get(fa, "versions"), json_object_get(fb, "versions"));
}

static int same_message(const struct diag *x, const struct diag *y)
{
    return !strcmp(x->message ? x->message : "", y->message ? y->message : "");
}

struct side {
    const struct rule_set *rs;
    const struct diag_list *l;
    json_t **json;       /* each finding as JSON (NULL for a hidden one) */
    unsigned char *used; /* matched with the other side */
};

static void side_init(struct side *s, const struct rule_set *rs, const char *file,
                      const struct diag_list *l)
{
    s->rs = rs;
    s->l = l;
    size_t n = l ? l->len : 0;
    s->json = xcalloc(n ? n : 1, sizeof *s->json);
    s->used = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++)
        if (!diag_hidden(&l->items[i])) s->json[i] = finding_json(rs, file, &l->items[i]);
        else s->used[i] = 1; /* never reported, so never compared */
}

static void side_release(struct side *s)
{
    for (size_t i = 0; s->l && i < s->l->len; i++) json_decref(s->json[i]);
    free(s->json);
    free(s->used);
}

/* Pair A's findings with B's: first those that are the same in every respect, then those
 * at the same place (changed). EXACT chooses the pass. */
static void pair_up(struct side *a, struct side *b, int exact, json_t *changed, size_t *unchanged)
{
    size_t na = a->l ? a->l->len : 0, nb = b->l ? b->l->len : 0;
    for (size_t i = 0; i < na; i++) {
        if (a->used[i]) continue;
        const struct diag *x = &a->l->items[i];
        for (size_t k = 0; k < nb; k++) {
            const struct diag *y = &b->l->items[k];
            if (b->used[k] || !same_place(x, y)) continue;
            int same = same_message(x, y) && same_versions(a->json[i], b->json[k]);
            if (exact != same) continue;
            a->used[i] = b->used[k] = 1;
            if (same) ++*unchanged;
            else
                json_array_append_new(
                    changed, json_pack("{s:O, s:O}", "before", a->json[i], "after", b->json[k]));
            break;
        }
    }
}

json_t *rules_diff_findings(const struct rule_set *a, const struct rule_set *b,
                            const struct rules_diff_file *files, size_t n, const char *preset,
                            enum diag_level fail_on, int never)
{
    json_t *appear = json_array(), *disappear = json_array(), *changed = json_array();
    json_t *judged = json_array();
    size_t unchanged = 0, failing = 0;
    for (size_t f = 0; f < n; f++) {
        json_array_append_new(judged, json_string(files[f].name));
        struct side sa, sb;
        side_init(&sa, a, files[f].name, files[f].a);
        side_init(&sb, b, files[f].name, files[f].b);
        pair_up(&sa, &sb, 1, changed, &unchanged);
        pair_up(&sa, &sb, 0, changed, &unchanged);
        for (size_t i = 0; sa.l && i < sa.l->len; i++)
            if (!sa.used[i]) json_array_append(disappear, sa.json[i]);
        for (size_t k = 0; sb.l && k < sb.l->len; k++) {
            if (sb.used[k]) continue;
            json_array_append(appear, sb.json[k]);
            if (!never && sb.l->items[k].level >= fail_on) failing++;
        }
        side_release(&sa);
        side_release(&sb);
    }
    return json_pack("{s:I, s:o, s:s, s:s, s:o, s:o, s:o, s:I, s:I}", "files", (json_int_t)n,
                     "judged", judged, "preset", preset, "fail-on",
                     never ? "never" : diag_level_name(fail_on), "appear", appear, "disappear",
                     disappear, "changed", changed, "unchanged", (json_int_t)unchanged, "failing",
                     (json_int_t)failing);
}

/* ---- text ----------------------------------------------------------------------------- */

static const char *str_or(json_t *v, const char *none)
{
    return json_is_string(v) ? json_string_value(v) : none;
}

static json_int_t int_of(json_t *o, const char *member)
{
    return json_integer_value(json_object_get(o, member));
}

static void add_version_list(struct buf *b, json_t *versions)
{
    size_t i;
    json_t *v;
    json_array_foreach(versions, i, v) buf_addf(b, "%s%s", i ? ", " : "", str_or(v, "?"));
}

/* FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS), as validate's text report has it. */
static void add_finding(struct buf *b, json_t *f)
{
    buf_addf(b, "%s:%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT ": %s: %s",
             str_or(json_object_get(f, "file"), "?"), int_of(f, "line"), int_of(f, "column"),
             str_or(json_object_get(f, "level"), "?"), str_or(json_object_get(f, "message"), ""));
    if (json_is_string(json_object_get(f, "rule")))
        buf_addf(b, " [%s]", json_string_value(json_object_get(f, "rule")));
    json_t *versions = json_object_get(f, "versions");
    if (json_array_size(versions)) {
        buf_adds(b, " (");
        add_version_list(b, versions);
        buf_addc(b, ')');
    }
}

/* A line of the text: its kind and finding, sorted by file (in judging order), then
 * position, then kind (- before + at one place: the old, then the new). */
struct line {
    char kind;
    json_t *f; /* the finding shown (the new one of a changed pair) */
    json_t *pair;
    size_t file;
};

/* Where F's file was judged (its place in "judged"). */
static size_t file_rank(json_t *judged, json_t *f)
{
    const char *name = str_or(json_object_get(f, "file"), "");
    size_t i;
    json_t *v;
    json_array_foreach(judged, i, v) if (!strcmp(str_or(v, ""), name)) return i;
    return 0;
}

static int cmp_line(const void *x, const void *y)
{
    const struct line *a = x, *b = y;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    json_int_t la = int_of(a->f, "line"), lb = int_of(b->f, "line");
    if (la != lb) return la < lb ? -1 : 1;
    json_int_t ca = int_of(a->f, "column"), cb = int_of(b->f, "column");
    if (ca != cb) return ca < cb ? -1 : 1;
    static const char rank[] = "-~+";
    return (int)(strchr(rank, a->kind) - rank) - (int)(strchr(rank, b->kind) - rank);
}

/* The lines of FINDINGS in order (new array, *N of them). */
static struct line *sorted_lines(json_t *findings, size_t *n)
{
    static const char *const lists[] = {"disappear", "changed", "appear"};
    static const char kinds[] = {'-', '~', '+'};
    VEC(struct line) lines = VEC_INIT;
    for (int l = 0; l < 3; l++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(findings, lists[l]), i, e)
        {
            json_t *f = kinds[l] == '~' ? json_object_get(e, "after") : e;
            struct line ln = {kinds[l], f, kinds[l] == '~' ? e : NULL, 0};
            VEC_PUSH(lines, ln);
        }
    }
    json_t *judged = json_object_get(findings, "judged");
    for (size_t i = 0; i < lines.len; i++)
        lines.items[i].file = file_rank(judged, lines.items[i].f);
    if (lines.len) qsort(lines.items, lines.len, sizeof *lines.items, cmp_line);
    *n = lines.len;
    return lines.items;
}

/* What changed in a changed finding, its items separated by SEP: message "A" -> "B",
 * versions [..] -> [..]. */
static void add_finding_change(struct buf *b, json_t *pair, const char *sep)
{
    json_t *x = json_object_get(pair, "before"), *y = json_object_get(pair, "after");
    int n = 0;
    if (!json_equal(json_object_get(x, "message"), json_object_get(y, "message"))) {
        char *mx = json_dumps(json_object_get(x, "message"), JSON_ENCODE_ANY);
        char *my = json_dumps(json_object_get(y, "message"), JSON_ENCODE_ANY);
        buf_addf(b, "%smessage %s -> %s", n++ ? sep : "", mx ? mx : "none", my ? my : "none");
        free(mx);
        free(my);
    }
    if (!json_equal(json_object_get(x, "versions"), json_object_get(y, "versions"))) {
        buf_addf(b, "%sversions [", n++ ? sep : "");
        add_version_list(b, json_object_get(x, "versions"));
        buf_adds(b, "] -> [");
        add_version_list(b, json_object_get(y, "versions"));
        buf_addc(b, ']');
    }
}

void rules_diff_findings_text(json_t *findings, struct buf *out)
{
    json_int_t files = int_of(findings, "files");
    buf_addf(out, "findings on %" JSON_INTEGER_FORMAT " file%s (preset %s), from A to B:\n", files,
             files == 1 ? "" : "s", str_or(json_object_get(findings, "preset"), "?"));
    size_t n;
    struct line *lines = sorted_lines(findings, &n);
    for (size_t i = 0; i < n; i++) {
        buf_addf(out, "%c ", lines[i].kind);
        add_finding(out, lines[i].f);
        buf_addc(out, '\n');
        if (lines[i].pair) {
            buf_adds(out, "    ");
            add_finding_change(out, lines[i].pair, "\n    ");
            buf_addc(out, '\n');
        }
    }
    free(lines);
    const char *fail_on = str_or(json_object_get(findings, "fail-on"), "?");
    buf_addf(out, "%zu appear, %zu disappear, %zu changed, %" JSON_INTEGER_FORMAT " unchanged; ",
             json_array_size(json_object_get(findings, "appear")),
             json_array_size(json_object_get(findings, "disappear")),
             json_array_size(json_object_get(findings, "changed")), int_of(findings, "unchanged"));
    if (!strcmp(fail_on, "never")) buf_adds(out, "--fail-on never: none fails\n");
    else
        buf_addf(out, "%" JSON_INTEGER_FORMAT " new at or above %s\n", int_of(findings, "failing"),
                 fail_on);
}

/* ---- Markdown --------------------------------------------------------------------------- */

/* S with Markdown's inline syntax escaped, and "|" (a table cell) and new lines made safe. */
static void md_text(struct buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') buf_adds(b, " ");
        else if (strchr("\\`*_[]<|", *s)) buf_addf(b, "\\%c", *s);
        else buf_addc(b, *s);
    }
}

static void md_code(struct buf *b, const char *s)
{
    buf_addc(b, '`');
    buf_adds(b, s);
    buf_addc(b, '`');
}

static void md_set(struct buf *b, json_t *id)
{
    const char *tag = json_string_value(json_object_get(id, "tag"));
    buf_addf(b, "%s %s%s", str_or(json_object_get(id, "name"), "?"),
             tag ? tag : str_or(json_object_get(id, "derivedFrom"), "?"), tag ? "" : "+modified");
}

static void md_rules(struct buf *b, json_t *diff)
{
    json_t *added = json_object_get(diff, "added"), *removed = json_object_get(diff, "removed"),
           *changed = json_object_get(diff, "changed"), *e;
    buf_addf(
        b, "## Rules\n\n%zu added, %zu removed, %zu changed, %" JSON_INTEGER_FORMAT " unchanged.\n",
        json_array_size(added), json_array_size(removed), json_array_size(changed),
        int_of(diff, "unchanged"));
    static const char *const heads[] = {"Added", "Removed"};
    json_t *lists[] = {added, removed};
    for (int l = 0; l < 2; l++) {
        if (!json_array_size(lists[l])) continue;
        buf_addf(b, "\n### %s\n\n", heads[l]);
        size_t i;
        json_array_foreach(lists[l], i, e)
        {
            buf_adds(b, "- ");
            md_code(b, str_or(json_object_get(e, "id"), "?"));
            buf_addf(b, " (%s, ", str_or(json_object_get(e, "level"), "?"));
            md_text(b, str_or(json_object_get(e, "applies"), "?"));
            buf_adds(b, ")\n");
        }
    }
    if (!json_array_size(changed)) return;
    buf_adds(b, "\n### Changed\n\n");
    size_t i;
    json_array_foreach(changed, i, e)
    {
        buf_adds(b, "- ");
        md_code(b, str_or(json_object_get(e, "id"), "?"));
        struct buf note = BUF_INIT;
        rules_diff_findings_note(e, &note);
        buf_adds(b, ": ");
        md_text(b, buf_str(&note));
        buf_release(&note);
        buf_addc(b, '\n');
        size_t k;
        json_t *d;
        json_array_foreach(json_object_get(e, "details"), k, d)
        {
            struct buf line = BUF_INIT;
            rules_diff_detail_line(d, &line);
            buf_adds(b, "  - ");
            md_text(b, buf_str(&line));
            buf_addc(b, '\n');
            buf_release(&line);
        }
    }
}

static void md_row(struct buf *b, json_t *f)
{
    buf_adds(b, "| ");
    md_code(b, str_or(json_object_get(f, "rule"), "-"));
    buf_adds(b, " | ");
    struct buf where = BUF_INIT;
    buf_addf(&where, "%s:%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT,
             str_or(json_object_get(f, "file"), "?"), int_of(f, "line"), int_of(f, "column"));
    md_text(b, buf_str(&where));
    buf_release(&where);
    buf_addf(b, " | %s | ", str_or(json_object_get(f, "level"), "?"));
    md_text(b, str_or(json_object_get(f, "message"), ""));
    buf_adds(b, " | ");
    add_version_list(b, json_object_get(f, "versions"));
    buf_adds(b, " |\n");
}

static void md_findings(struct buf *b, json_t *on)
{
    json_int_t files = int_of(on, "files");
    const char *fail_on = str_or(json_object_get(on, "fail-on"), "?");
    buf_addf(b,
             "\n## Findings\n\nOn %" JSON_INTEGER_FORMAT " file%s (preset %s): %zu appear, %zu "
             "disappear, %zu changed, %" JSON_INTEGER_FORMAT " unchanged",
             files, files == 1 ? "" : "s", str_or(json_object_get(on, "preset"), "?"),
             json_array_size(json_object_get(on, "appear")),
             json_array_size(json_object_get(on, "disappear")),
             json_array_size(json_object_get(on, "changed")), int_of(on, "unchanged"));
    if (strcmp(fail_on, "never"))
        buf_addf(b, "; %" JSON_INTEGER_FORMAT " new at or above %s", int_of(on, "failing"),
                 fail_on);
    buf_adds(b, ".\n");
    static const char *const lists[] = {"appear", "disappear", "changed"};
    static const char *const heads[] = {"Appear", "Disappear", "Changed"};
    for (int l = 0; l < 3; l++) {
        json_t *arr = json_object_get(on, lists[l]), *e;
        if (!json_array_size(arr)) continue;
        buf_addf(b,
                 "\n### %s\n\n| Rule | Where | Level | Message | Versions |\n"
                 "|---|---|---|---|---|\n",
                 heads[l]);
        size_t i;
        json_array_foreach(arr, i, e)
        {
            if (l < 2) {
                md_row(b, e);
                continue;
            }
            md_row(b, json_object_get(e, "after"));
            /* what changed, on a row of its own below it */
            struct buf what = BUF_INIT;
            add_finding_change(&what, e, "; ");
            buf_adds(b, "| | | | changed: ");
            md_text(b, buf_str(&what));
            buf_adds(b, " | |\n");
            buf_release(&what);
        }
    }
}

void rules_diff_markdown(json_t *diff, struct buf *out)
{
    buf_adds(out, "# ");
    md_set(out, json_object_get(diff, "a"));
    buf_adds(out, " to ");
    md_set(out, json_object_get(diff, "b"));
    buf_adds(out, "\n\n");
    json_t *a = json_object_get(diff, "a"), *b = json_object_get(diff, "b");
    buf_addf(out, "- A: ");
    md_set(out, a);
    buf_addf(out, " (`%s`)\n- B: ", str_or(json_object_get(a, "digest"), "?"));
    md_set(out, b);
    buf_addf(out, " (`%s`)\n\n", str_or(json_object_get(b, "digest"), "?"));
    json_t *set = json_object_get(diff, "set");
    if (json_object_size(set)) {
        struct buf line = BUF_INIT;
        rules_diff_set_line(set, &line);
        buf_adds(out, "The set: ");
        md_text(out, buf_str(&line));
        buf_adds(out, ".\n\n");
        buf_release(&line);
    }
    md_rules(out, diff);
    json_t *on = json_object_get(diff, "on");
    if (on) md_findings(out, on);
}
