/* cmd_fix.c - `mcpdesc fix [--dry-run] [--diff] [VALIDATE OPTIONS] FILE...`: judge the
 * files as validate does (cmd_validate_then: the same rules, preset, config), apply every
 * fix the rules offer until none is left (findings/fix.h), and write each changed file
 * through a temporary file in its directory, renamed over it (its mode kept). --diff
 * previews, as ruff's and black's do: it prints the changes and writes nothing, like
 * --dry-run. Exit 0 nothing left to fix or fixes applied, 1 --dry-run or --diff found
 * something to fix, 2 bad usage, a file that cannot be read, parsed, judged or
 * written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "cli/cmd.h"
#include "cli/cmd_common.h"
#include "doc/doc.h"
#include "findings/fix.h"
#include "findings/report.h"

static void usage(FILE *f)
{
    fputs("usage: mcpdesc fix [--dry-run] [--diff] [VALIDATE OPTIONS] FILE|DIR ...\n"
          "\n"
          "Apply the fixes the rules declare (rules-yaml/README.md, Fixes) to description\n"
          "files, in place, keeping their layout, key order and YAML comments. The files are\n"
          "judged as validate judges them, with its options that choose what is judged (see\n"
          "mcpdesc validate --help; those of the report are refused):\n"
          "  --rules DIR, --rules-tag TAG, --preset PRESET, --config FILE, --no-config,\n"
          "  --protocol-version V, --rule GLOB, --skip GLOB, -j, --jobs N,\n"
          "  --strict-inputs, --only-descriptions, --together\n"
          "A suppressed finding (x-mcpdesc-ignore, the config's suppress) is not fixed, nor one\n"
          "reached through a $componentRef. Fixes are applied, the file judged again, and so\n"
          "on until none is left (at most 10 passes), so a second run changes nothing.\n"
          "\n"
          "  --dry-run   write nothing; say what would change (exit 1 when something would)\n"
          "  --diff      write nothing; print the changes as a unified diff on standard\n"
          "              output (a patch to review; the counts then go to standard error)\n"
          "              and exit as --dry-run does. fix alone applies the changes.\n"
          "\n"
          "Each file is written through a temporary file in its directory, renamed over it\n"
          "(its mode kept); a file that does not parse, has no mcpDescription member or is\n"
          "read-only (mode 444) is never written.\n"
          "\n"
          "Exit status: 0 nothing left to fix, or fixes applied; 1 --dry-run or --diff\n"
          "found fixes to apply; 2 bad usage, a file that cannot be read, parsed, judged\n"
          "or written, or a rule set that cannot be loaded.\n",
          f);
}

/* fix's own options (tests/check-options.sh reads this table); the rest are validate's */
static const char *const options[] = {"--dry-run", "--diff", NULL};

struct fix_run {
    int dry_run, diff;
};

/* ---- a unified diff, small: the changed lines between the common head and tail ---- */

struct lines {
    const char **at;
    size_t *len; /* with the line break */
    size_t n;
};

static void split_lines(const char *t, size_t n, struct lines *out)
{
    size_t cap = 16;
    out->at = xmalloc(cap * sizeof *out->at);
    out->len = xmalloc(cap * sizeof *out->len);
    out->n = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(t + i, '\n', n - i);
        size_t l = nl ? (size_t)(nl - (t + i)) + 1 : n - i;
        if (out->n == cap) {
            cap *= 2;
            out->at = xrealloc(out->at, cap * sizeof *out->at);
            out->len = xrealloc(out->len, cap * sizeof *out->len);
        }
        out->at[out->n] = t + i;
        out->len[out->n++] = l;
        i += l;
    }
}

static int same_line(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
    return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

static void put_line(FILE *out, char mark, const char *s, size_t n)
{
    fputc(mark, out);
    fwrite(s, 1, n, out);
    if (!n || s[n - 1] != '\n') fputs("\n\\ No newline at end of file\n", out);
}

/* One step of the edit script: a line kept (' '), removed ('-') or added ('+'). */
struct step {
    char kind;
    size_t x, y; /* the line in A (' ', '-') and in B (' ', '+') */
};

/* The edit script from A to B: the common head and tail kept, the middle by a longest
 * common subsequence of lines when it is small enough (else all removed, then added). */
static size_t diff_script(const struct lines *a, const struct lines *b, struct step **out)
{
    size_t head = 0, tail = 0;
    while (head < a->n && head < b->n && same_line(a, head, b, head)) head++;
    while (tail < a->n - head && tail < b->n - head &&
           same_line(a, a->n - 1 - tail, b, b->n - 1 - tail))
        tail++;
    size_t ma = a->n - head - tail, mb = b->n - head - tail, n = 0;
    struct step *st = xmalloc((a->n + b->n + 1) * sizeof *st);
    for (size_t i = 0; i < head; i++) st[n++] = (struct step){' ', i, i};
    if (ma && mb && (ma + 1) * (mb + 1) <= ((size_t)1 << 22)) {
        /* lcs[i][j]: of a's middle from i and b's from j */
        unsigned *lcs = xcalloc((ma + 1) * (mb + 1), sizeof *lcs);
#define LCS(i, j) lcs[(i) * (mb + 1) + (j)]
        for (size_t i = ma; i-- > 0;)
            for (size_t j = mb; j-- > 0;)
                LCS(i, j) = same_line(a, head + i, b, head + j)
                    ? LCS(i + 1, j + 1) + 1
                    : (LCS(i + 1, j) > LCS(i, j + 1) ? LCS(i + 1, j) : LCS(i, j + 1));
        size_t i = 0, j = 0;
        while (i < ma || j < mb) {
            if (i < ma && j < mb && same_line(a, head + i, b, head + j))
                st[n++] = (struct step){' ', head + i++, head + j++};
            else if (i < ma && (j == mb || LCS(i + 1, j) >= LCS(i, j + 1)))
                st[n++] = (struct step){'-', head + i++, head + j};
            else st[n++] = (struct step){'+', head + i, head + j++};
        }
#undef LCS
        free(lcs);
    } else {
        for (size_t i = 0; i < ma; i++) st[n++] = (struct step){'-', head + i, head};
        for (size_t j = 0; j < mb; j++) st[n++] = (struct step){'+', head + ma, head + j};
    }
    for (size_t i = 0; i < tail; i++)
        st[n++] = (struct step){' ', a->n - tail + i, b->n - tail + i};
    *out = st;
    return n;
}

/* A unified diff of A and B (named NAME in both headers), 3 lines of context. */
static void print_diff(FILE *out, const char *name, const char *a, size_t na, const char *b,
                       size_t nb)
{
    struct lines x, y;
    split_lines(a, na, &x);
    split_lines(b, nb, &y);
    struct step *st;
    size_t n = diff_script(&x, &y, &st);
    fprintf(out, "--- %s\n+++ %s\n", name, name);
    for (size_t k = 0; k < n;) {
        if (st[k].kind == ' ') {
            k++;
            continue;
        }
        /* a hunk: 3 lines before the change, up to where 7 kept lines in a row follow */
        size_t from = k > 3 ? k - 3 : 0, to = k, kept = 0;
        for (; to < n && kept < 7; to++) kept = st[to].kind == ' ' ? kept + 1 : 0;
        if (kept == 7) to -= 4; /* keep 3 lines of context after the last change */
        size_t xl = 0, yl = 0;
        for (size_t i = from; i < to; i++) {
            xl += st[i].kind != '+';
            yl += st[i].kind != '-';
        }
        size_t xs = st[from].x + (xl ? 1 : 0), ys = st[from].y + (yl ? 1 : 0);
        fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", xs, xl, ys, yl);
        for (size_t i = from; i < to; i++) {
            if (st[i].kind == '+') put_line(out, '+', y.at[st[i].y], y.len[st[i].y]);
            else put_line(out, st[i].kind, x.at[st[i].x], x.len[st[i].x]);
        }
        k = to;
    }
    free(st);
    free(x.at);
    free(x.len);
    free(y.at);
    free(y.len);
}

/* ---- writing in place --------------------------------------------------------- */

/* Whether the file NAME may be written: its mode gives its owner write permission and,
 * for a caller other than root, access(W_OK) says yes (root may write anything, and a
 * rename would replace a mode-444 file anyway: the mode is the owner's word). 1, or 0
 * after a message on stderr. A file that cannot be examined is left to the write's own
 * error. */
static int writable(const char *name)
{
    struct stat st;
    if (stat(name, &st) < 0) return 1;
    if ((st.st_mode & S_IWUSR) && (geteuid() == 0 || access(name, W_OK) == 0)) return 1;
    fprintf(stderr, "mcpdesc fix: %s is read-only: not written (make it writable to fix it)\n",
            name);
    return 0;
}

/* ---- the run -------------------------------------------------------------------- */

struct filter_arg {
    const struct cmd_judged_run *run;
};

static void filter(const struct rule_set *rs, const doc *d, const char *name,
                   struct diag_list *diags, void *arg)
{
    const struct filter_arg *fa = arg;
    cmd_validate_filter(fa->run, rs, d, name, diags);
}

static int fix_files(const struct rule_set *rs, const struct report_file *files, size_t n,
                     int status, const char *anchor, const struct cmd_judged_run *run, void *arg)
{
    const struct fix_run *fr = arg;
    FILE *info = fr->diff ? stderr : stdout;
    int rc = 0;
    struct judge_options jo = {run->eo, NULL, 0, 0, 0};
    struct filter_arg fa = {run};
    struct fix_opts fo = {&jo, filter, &fa};
    for (size_t i = 0; i < n; i++) {
        const struct report_file *f = &files[i];
        if (f->config || f->skipped) continue;
        if (f->error || !f->d) {
            if (f->error) {
                loc_print(stderr, f->name, f->error->line, f->error->col);
                fprintf(stderr, ": error: %s\n", f->error->message);
            }
            fprintf(stderr, "%s: not fixed: it cannot be judged\n", f->name);
            rc = 2;
            continue;
        }
        /* named on the command line, any object is judged (validate reports what it
         * lacks); fix writes only a description */
        if (!json_object_get(doc_root(f->d), "mcpDescription")) {
            fprintf(stderr, "%s: not an MCP Description (no mcpDescription member): not touched\n",
                    f->name);
            rc = 2;
            continue;
        }
        /* read again, not the judged text: an earlier name of the same file (a symbolic
         * link) may have been fixed since */
        struct buf cur = BUF_INIT;
        if (buf_read_file(&cur, f->name) < 0) {
            fprintf(stderr, "mcpdesc fix: %s: %s\n", f->name, strerror(errno));
            rc = 2;
            continue;
        }
        size_t len = cur.len, new_len = 0;
        const char *text = buf_str(&cur);
        struct diag_list errs = DIAG_LIST_INIT;
        int applied = 0;
        char *fixed = fix_text(rs, &fo, f->name, text, len, &new_len, &applied, &errs);
        if (errs.len) {
            for (size_t k = 0; k < errs.len; k++)
                fprintf(stderr, "%s: error: %s\n", f->name, errs.items[k].message);
            rc = 2;
        } else if (!fixed) {
            fprintf(info, "%s: nothing to fix\n", f->name);
        } else {
            if (fr->diff) {
                print_diff(stdout, f->name, text, len, fixed, new_len);
                fflush(stdout); /* before the count on standard error */
            }
            if (fr->dry_run || fr->diff) { /* --diff previews */
                fprintf(info, "%s: %d fix%s would be applied\n", f->name, applied,
                        applied == 1 ? "" : "es");
                if (rc < 1) rc = 1;
            } else if (!writable(f->name) ||
                       cmd_write_atomically("fix", f->name, fixed, new_len) < 0) {
                rc = 2;
            } else {
                fprintf(info, "%s: %d fix%s applied\n", f->name, applied, applied == 1 ? "" : "es");
            }
        }
        free(fixed);
        diag_list_release(&errs);
        buf_release(&cur);
    }
    return status == 2 ? 2 : rc;
}

int cmd_fix(int argc, char **argv)
{
    struct fix_run fr = {0, 0};
    char **args = xcalloc((size_t)argc + 1, sizeof *args);
    int nargs = 0, dashdash = 0;
    args[nargs++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!dashdash && !strcmp(a, "--")) dashdash = 1;
        if (!dashdash && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            usage(stdout);
            free(args);
            return 0;
        }
        if (!dashdash && !strcmp(a, options[0])) fr.dry_run = 1;
        else if (!dashdash && !strcmp(a, options[1])) fr.diff = 1;
        else if (!dashdash && (!strcmp(a, "--stdin-filepath") || !strcmp(a, "-"))) {
            fprintf(stderr,
                    "mcpdesc fix: %s does not apply here: fix writes files in place "
                    "(standard input has none)\n",
                    a);
            free(args);
            return 2;
        } else args[nargs++] = argv[i];
    }
    if (nargs < 2) {
        usage(stderr);
        free(args);
        return 2;
    }
    int rc = cmd_validate_then("fix", nargs, args, fix_files, &fr, NULL);
    free(args);
    return rc;
}
