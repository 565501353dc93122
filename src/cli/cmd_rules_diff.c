/* cmd_rules_diff.c - `mcpdesc rules diff` (cmd_rules_diff.h): loads the two sets, judges
 * the --on files under each as validate does (the preset, x-mcpdesc-ignore; no config:
 * the two sets are the ones compared) and prints what author/rules_diff*.c describe. */
#include "cli/cmd_rules_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "author/rules_diff.h"
#include "author/rules_diff_on.h"
#include "base/loc.h"
#include "base/util.h"
#include "cli/cmd.h"
#include "cli/cmd_changes.h"
#include "cli/cmd_common.h"
#include "findings/suppress.h"
#include "judge/judge.h"

#define LABEL "mcpdesc rules diff"

/* An operand: a directory (a rule set or a release directory) when one is there, else a
 * tag, "TAG" or "NAME@TAG", looked up as --rules-tag does. NULL after printing why. */
static struct rule_set *load_operand(const char *spec)
{
    struct stat st;
    if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) return cmd_load_rules(spec);
    if (strchr(spec, '/')) {
        fprintf(stderr, LABEL ": no directory '%s'\n", spec);
        return NULL;
    }
    return cmd_load_rules_tagged(NULL, spec);
}

/* The paths to judge: the --on values, then the operands after A and B. */
struct paths {
    VEC(const char *) items;
};

/* One file judged under both sets. */
struct judged {
    char *name;
    int found; /* found by a directory search */
    struct judge_result a, b;
};
struct judged_list {
    struct judged *items;
    size_t len, cap;
};

/* Judge FILE (found by a directory search when FOUND) under RS into *R, then apply its
 * x-mcpdesc-ignore as validate does. */
static void judge_one(const struct rule_set *rs, const struct eval_options *eo, const char *file,
                      int found, const char *today, struct judge_result *r)
{
    struct judge_source src = {JUDGE_FILE, file, file, NULL, 0};
    struct judge_options jo = {eo, NULL, found, 0, 0};
    judge_document(rs, &src, &jo, r);
    struct suppress_filter sf = {NULL, NULL, 0, 0};
    if (r->d) suppress_inline(rs, r->d, file, &r->diags, today, &sf);
}

/* A file that could not be judged under RS (NULL: under either set): one line,
 * file:line:col first. */
static void say_error(const struct rule_set *rs, const struct diag *e)
{
    loc_print(stderr, e->file, e->line, e->col);
    fprintf(stderr, ": error: %s", e->message);
    if (rs) fprintf(stderr, " (judged with %s %s)", rule_set_name(rs), rule_set_display_tag(rs));
    fputc('\n', stderr);
}

/* Did the file fail the same way under both sets (it does not parse, say)? */
static int same_error(const struct diag *x, const struct diag *y)
{
    return x->line == y->line && x->col == y->col && !strcmp(x->message, y->message);
}

/* Judge every path under A and B into *OUT (files in order; a directory's found files
 * sorted). Returns 0, or 2 after a message when an input could not be judged or a
 * directory holds no description. */
static int judge_paths(const struct rule_set *a, const struct rule_set *b, const struct paths *p,
                       enum rule_preset preset, struct judged_list *out)
{
    char today[11];
    suppress_today(today); /* a bad SOURCE_DATE_EPOCH: today by the clock */
    struct eval_options eo = {.versions = 0, .preset = preset};
    int status = 0;
    for (size_t i = 0; i < p->items.len; i++) {
        const char *path = p->items.items[i];
        struct stat st;
        int dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        size_t n = 1, judged = 0;
        char **files = dir ? cmd_find_candidates(path, &n) : NULL;
        for (size_t k = 0; k < n; k++) {
            struct judged j = {files ? files[k] : xstrdup(path), dir, {0}, {0}};
            judge_one(a, &eo, j.name, dir, today, &j.a);
            judge_one(b, &eo, j.name, dir, today, &j.b);
            if (j.a.error && j.b.error && same_error(j.a.error, j.b.error)) {
                say_error(NULL, j.a.error);
            } else {
                if (j.a.error) say_error(a, j.a.error);
                if (j.b.error) say_error(b, j.b.error);
            }
            if (j.a.error || j.b.error) status = 2;
            if (j.a.skipped && j.b.skipped) { /* not a description: as validate, left out */
                judge_result_release(&j.a);
                judge_result_release(&j.b);
                free(j.name);
                continue;
            }
            judged++;
            VEC_PUSH(*out, j);
        }
        free(files);
        if (dir && !judged) {
            fprintf(stderr,
                    LABEL ": no MCP Description under '%s': none of its *.json, *.yaml or *.yml "
                          "files has a top-level " JUDGE_DESCRIPTION_MEMBER
                          " member (hidden files and directories, and node_modules, are not "
                          "searched)\n",
                    path);
            status = 2;
        }
    }
    return status;
}

/* Usage errors first, before anything loads: 0, or 2 after a message. */
static int check_usage(const struct cmd_rules_diff_opts *o, enum diag_level *fail_level, int *never,
                       enum rule_preset *preset)
{
    const char *format = o->format ? o->format : "text";
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "markdown")) {
        fprintf(stderr, LABEL ": --format takes text, json or markdown, not '%s'\n", format);
        return 2;
    }
    if (!o->non && (o->fail_on || o->preset)) {
        fprintf(stderr,
                LABEL ": %s decides which findings of judged files count: give the files too "
                      "(--on FILE|DIR)\n",
                o->fail_on ? "--fail-on" : "--preset");
        return 2;
    }
    const char *fail_on = o->fail_on ? o->fail_on : "info";
    *never = !strcmp(fail_on, "never");
    if (!*never && diag_level_parse(fail_on, fail_level) < 0) {
        fprintf(stderr, LABEL ": --fail-on takes error, warning, info or never, not '%s'\n",
                fail_on);
        return 2;
    }
    const char *p = o->preset ? o->preset : "recommended";
    if (rule_preset_parse(p, preset) < 0) {
        fprintf(stderr, LABEL ": --preset takes %s, not '%s'\n", rule_preset_names(), p);
        return 2;
    }
    if (o->noperands < 2) {
        fprintf(stderr, LABEL ": give two rule sets, A and B (directories or tags)\n");
        return 2;
    }
    if (o->noperands > 2 && !o->non) {
        fprintf(stderr, LABEL ": unexpected argument '%s'\n", o->operands[2]);
        return 2;
    }
    return 0;
}

static void print(const char *format, json_t *d)
{
    if (!strcmp(format, "json")) {
        char *text = json_dumps(d, JSON_INDENT(2));
        puts(text);
        free(text);
        return;
    }
    struct buf out = BUF_INIT;
    if (!strcmp(format, "markdown")) {
        rules_diff_markdown(d, &out);
    } else {
        rules_diff_text(d, &out);
        json_t *on = json_object_get(d, "on");
        if (on) {
            buf_addc(&out, '\n');
            rules_diff_findings_text(on, &out);
        }
    }
    fputs(buf_str(&out), stdout);
    buf_release(&out);
}

int cmd_rules_diff(const struct cmd_rules_diff_opts *o)
{
    enum diag_level fail_level = DIAG_INFO;
    int never = 0;
    enum rule_preset preset = RULE_PRESET_RECOMMENDED;
    if (check_usage(o, &fail_level, &never, &preset)) return 2;
    struct paths p = {VEC_INIT};
    for (size_t i = 0; i < o->non; i++) VEC_PUSH(p.items, o->on[i]);
    for (size_t i = 2; i < o->noperands; i++) VEC_PUSH(p.items, o->operands[i]);
    int missing = 0;
    for (size_t i = 0; i < p.items.len; i++) {
        struct stat st;
        if (stat(p.items.items[i], &st) == 0) continue;
        fprintf(stderr, LABEL ": --on: no file or directory '%s'\n", p.items.items[i]);
        missing = 1;
    }
    if (missing) {
        VEC_FREE(p.items);
        return 2;
    }
    /* both loaded, so one run names every operand that cannot load */
    struct rule_set *a = load_operand(o->operands[0]), *b = load_operand(o->operands[1]);
    int status = 2;
    if (a && b) {
        json_t *d = rules_diff_compute(a, b);
        status = rules_diff_differs(d) ? 1 : 0;
        if (p.items.len) {
            /* an engine change since a tag's release moves what it reports today */
            for (int s = 0; s < 2; s++)
                if (!strchr(o->operands[s], '/')) cmd_changes_note(o->operands[s], CMD_DEFAULT_SET);
            struct judged_list files = {NULL, 0, 0};
            int judged = judge_paths(a, b, &p, preset, &files);
            struct rules_diff_file *rf = xcalloc(files.len ? files.len : 1, sizeof *rf);
            for (size_t i = 0; i < files.len; i++)
                rf[i] = (struct rules_diff_file){files.items[i].name, &files.items[i].a.diags,
                                                 &files.items[i].b.diags};
            json_t *on = rules_diff_findings(a, b, rf, files.len, rule_preset_name(preset),
                                             fail_level, never);
            status = judged ? judged : json_integer_value(json_object_get(on, "failing")) ? 1 : 0;
            json_object_set_new(d, "on", on);
            print(o->format ? o->format : "text", d);
            free(rf);
            for (size_t i = 0; i < files.len; i++) {
                judge_result_release(&files.items[i].a);
                judge_result_release(&files.items[i].b);
                free(files.items[i].name);
            }
            VEC_FREE(files);
        } else {
            print(o->format ? o->format : "text", d);
        }
        json_decref(d);
    }
    if (a) rule_set_free(a);
    if (b) rule_set_free(b);
    VEC_FREE(p.items);
    return status;
}
