/* conformance.c - the conformance runner: runs `mcpdesc validate --format json --preset
 * all` (every rule of the set: a fixture's x-expect lists what each rule finds) on every
 * fixture under DIR/expected-{valid,warning,invalid}/ and compares the diagnostics with
 * the fixture's x-expect (conformance/README.md), as multisets, both ways.
 * Usage: conformance-check MCPDESC_BINARY DIR|FILE...   (exit 0 all ok, 1 failures, 2 usage) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUN_TIMEOUT_SECONDS 120

static const char *const FOLDERS[] = {"expected-valid", "expected-warning", "expected-invalid"};
enum folder { F_VALID, F_WARNING, F_INVALID, F_NONE };

/* ---- small growable things ------------------------------------------------------ */

struct strv {
    char **v;
    size_t n, cap;
};

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "conformance-check: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

static void strv_push(struct strv *sv, char *s)
{
    if (sv->n == sv->cap) {
        sv->cap = sv->cap ? 2 * sv->cap : 16;
        sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = s;
}

static void strv_free(struct strv *sv)
{
    for (size_t i = 0; i < sv->n; i++) free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

static char *path_join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *p = xrealloc(NULL, la + lb + 2);
    memcpy(p, a, la);
    size_t k = la;
    if (k && p[k - 1] != '/') p[k++] = '/';
    memcpy(p + k, b, lb + 1);
    return p;
}

struct buf {
    char *s;
    size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        while (b->len + n + 1 > b->cap) b->cap = b->cap ? 2 * b->cap : 4096;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* The failure lines of one fixture. */
struct notes {
    struct strv lines;
};

static void note(struct notes *nt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *nt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) {
        fprintf(stderr, "conformance-check: out of memory\n");
        exit(2);
    }
    va_end(ap);
    strv_push(&nt->lines, s);
}

/* Add TEXT (several lines, e.g. captured stderr) indented, at most MAX lines. */
static void note_block(struct notes *nt, const char *label, const char *text, int max)
{
    if (!text || !*text) return;
    note(nt, "%s:", label);
    int k = 0;
    const char *p = text;
    while (*p && k < max) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        note(nt, "  | %.*s", (int)n, p);
        k++;
        p = e ? e + 1 : p + n;
    }
    if (*p) note(nt, "  | ...");
}

/* ---- finding fixtures ----------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Every *.json under DIR, recursively, sorted. */
static void collect_json(const char *dir, struct strv *out)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct strv here = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        strv_push(&here, path_join(dir, e->d_name));
    }
    closedir(d);
    qsort(here.v, here.n, sizeof *here.v, cmp_str);
    for (size_t i = 0; i < here.n; i++) {
        struct stat st;
        if (stat(here.v[i], &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) collect_json(here.v[i], out);
        else if (S_ISREG(st.st_mode) && ends_with(here.v[i], ".json"))
            strv_push(out, xstrdup(here.v[i]));
    }
    strv_free(&here);
}

/* The folder a fixture path lies in: the nearest path component named expected-*. */
static enum folder folder_of(const char *path)
{
    enum folder f = F_NONE;
    const char *p = path;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        for (int k = 0; k < 3; k++)
            if (strlen(FOLDERS[k]) == n && strncmp(p, FOLDERS[k], n) == 0) f = (enum folder)k;
        p = e ? e + 1 : p + n;
    }
    return f;
}

/* ---- running the binary ------------------------------------------------------------ */

struct run {
    int status;       /* exit status, or -1 */
    int signal;       /* terminating signal, or 0 */
    int timed_out;
    int exec_errno;   /* errno of a failed exec, or 0 */
    struct buf out, err;
};

static void run_release(struct run *r)
{
    free(r->out.s);
    free(r->err.s);
}

/* Runs ARGV, capturing stdout and stderr; stdin is /dev/null. */
static void run_capture(char *const argv[], struct run *r)
{
    memset(r, 0, sizeof *r);
    r->status = -1;
    int po[2], pe[2], px[2];
    if (pipe(po) || pipe(pe) || pipe2(px, O_CLOEXEC)) {
        perror("conformance-check: pipe");
        exit(2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("conformance-check: fork");
        exit(2);
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0) dup2(in, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        close(px[0]);
        execv(argv[0], argv);
        int e = errno;
        ssize_t w = write(px[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    close(px[1]);
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    struct buf *bufs[2] = {&r->out, &r->err};
    int open_fds = 2;
    time_t start = time(NULL);
    while (open_fds) {
        int left = RUN_TIMEOUT_SECONDS - (int)(time(NULL) - start);
        if (left <= 0) {
            r->timed_out = 1;
            kill(pid, SIGKILL);
            break;
        }
        int k = poll(fds, 2, left * 1000);
        if (k < 0) {
            if (errno == EINTR) continue;
            perror("conformance-check: poll");
            exit(2);
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char chunk[65536];
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n > 0) {
                buf_add(bufs[i], chunk, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    int e = 0;
    if (read(px[0], &e, sizeof e) == (ssize_t)sizeof e) r->exec_errno = e;
    close(px[0]);
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR) {
            perror("conformance-check: waitpid");
            exit(2);
        }
    if (WIFEXITED(ws)) r->status = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws)) r->signal = WTERMSIG(ws);
    if (!r->out.s) buf_add(&r->out, "", 0);
    if (!r->err.s) buf_add(&r->err, "", 0);
}

/* ---- diagnostics as comparable keys ------------------------------------------------- */

/* The compared members of a diagnostic, as a compact JSON text with a fixed member
 * order: rule, level, pointer, versions, component (when present). */
static char *diag_key(json_t *d)
{
    json_t *k = json_object();
    const char *names[] = {"rule", "level", "pointer", "versions", "component"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *v = json_object_get(d, names[i]);
        if (v && !(i == 4 && json_is_null(v))) json_object_set(k, names[i], v);
    }
    char *s = json_dumps(k, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    json_decref(k);
    return s;
}

static const char *level_of(json_t *d)
{
    const char *s = json_string_value(json_object_get(d, "level"));
    return s ? s : "";
}

/* Is the fixture's x-expect well formed? Adds notes when not. */
static int check_expect_shape(json_t *expect, struct notes *nt)
{
    int ok = 1;
    if (!json_is_array(expect)) {
        note(nt, "fixture: \"x-expect\" must be an array (write [] for no diagnostic)");
        return 0;
    }
    size_t i;
    json_t *e;
    json_array_foreach(expect, i, e) {
        if (!json_is_object(e)) {
            note(nt, "fixture: x-expect[%zu] must be an object", i);
            ok = 0;
            continue;
        }
        const char *key;
        json_t *v;
        json_object_foreach(e, key, v) {
            if (strcmp(key, "rule") && strcmp(key, "level") && strcmp(key, "pointer") &&
                strcmp(key, "versions") && strcmp(key, "component")) {
                note(nt, "fixture: x-expect[%zu] has unknown member \"%s\"", i, key);
                ok = 0;
            }
        }
        const char *need[] = {"rule", "level", "pointer"};
        for (size_t k = 0; k < 3; k++)
            if (!json_is_string(json_object_get(e, need[k]))) {
                note(nt, "fixture: x-expect[%zu] needs a string \"%s\"", i, need[k]);
                ok = 0;
            }
        const char *lv = level_of(e);
        if (*lv && strcmp(lv, "error") && strcmp(lv, "warning") && strcmp(lv, "info")) {
            note(nt, "fixture: x-expect[%zu] level \"%s\" is not error, warning or info", i, lv);
            ok = 0;
        }
        json_t *c = json_object_get(e, "component");
        if (c && !json_is_string(c)) {
            note(nt, "fixture: x-expect[%zu] \"component\" must be a string", i);
            ok = 0;
        }
        json_t *vs = json_object_get(e, "versions");
        if (!json_is_array(vs)) {
            note(nt, "fixture: x-expect[%zu] needs an array \"versions\"", i);
            ok = 0;
            continue;
        }
        const char *prev = NULL;
        size_t j;
        json_t *ver;
        json_array_foreach(vs, j, ver) {
            const char *s = json_string_value(ver);
            if (!s) {
                note(nt, "fixture: x-expect[%zu] versions[%zu] must be a string", i, j);
                ok = 0;
            } else if (prev && strcmp(prev, s) >= 0) {
                note(nt, "fixture: x-expect[%zu] versions must be listed oldest first, once each", i);
                ok = 0;
            }
            prev = s;
        }
    }
    return ok;
}

/* Counts of levels in an array of diagnostics. */
static void count_levels(json_t *arr, int *errors, int *warnings)
{
    *errors = *warnings = 0;
    size_t i;
    json_t *d;
    json_array_foreach(arr, i, d) {
        if (!strcmp(level_of(d), "error")) ++*errors;
        else if (!strcmp(level_of(d), "warning")) ++*warnings;
    }
}

static const char *folder_rule(enum folder f)
{
    switch (f) {
    case F_VALID: return "expected-valid needs no diagnostic at all";
    case F_WARNING: return "expected-warning needs at least one warning and no error";
    case F_INVALID: return "expected-invalid needs at least one error";
    default: return "";
    }
}

static int folder_holds(enum folder f, json_t *diags)
{
    int errors, warnings;
    count_levels(diags, &errors, &warnings);
    switch (f) {
    case F_VALID: return json_array_size(diags) == 0;
    case F_WARNING: return warnings > 0 && errors == 0;
    case F_INVALID: return errors > 0;
    default: return 1;
    }
}

/* The lowest level that makes validate exit 1, from --fail-on in X-ARGS (default error). */
static int fail_rank(json_t *xargs)
{
    const char *lv = "error";
    size_t i;
    json_t *a;
    json_array_foreach(xargs, i, a) {
        const char *s = json_string_value(a);
        if (!s) continue;
        if (!strcmp(s, "--fail-on") && json_string_value(json_array_get(xargs, i + 1)))
            lv = json_string_value(json_array_get(xargs, i + 1));
        else if (!strncmp(s, "--fail-on=", 10))
            lv = s + 10;
    }
    if (!strcmp(lv, "info")) return 1;
    if (!strcmp(lv, "warning")) return 2;
    if (!strcmp(lv, "never")) return 4;
    return 3;
}

static int level_rank(const char *lv)
{
    return !strcmp(lv, "error") ? 3 : !strcmp(lv, "warning") ? 2 : !strcmp(lv, "info") ? 1 : 0;
}

/* ---- one fixture -------------------------------------------------------------------- */

static const char *rules_dir(void)
{
    const char *r = getenv("CONFORMANCE_RULES");
    return r && *r ? r : "rules-yaml";
}

/* Returns 1 when the fixture passes; fills NT otherwise. Exits 2 if BINARY cannot run. */
static int check_fixture(const char *binary, const char *file, struct notes *nt)
{
    enum folder folder = folder_of(file);
    json_error_t jerr;
    json_t *fx = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
    if (!fx) {
        note(nt, "fixture: %s:%d:%d: %s", file, jerr.line, jerr.column, jerr.text);
        return 0;
    }
    int ok = 1;
    json_t *expect = json_object_get(fx, "x-expect");
    if (!expect) {
        note(nt, "fixture: no \"x-expect\" member (write [] for no diagnostic)");
        ok = 0;
    } else if (!check_expect_shape(expect, nt)) {
        ok = 0;
    } else if (folder != F_NONE && !folder_holds(folder, expect)) {
        note(nt, "fixture: its x-expect does not fit its folder: %s", folder_rule(folder));
        ok = 0;
    }
    json_t *xargs = json_object_get(fx, "x-args");
    if (xargs && !json_is_array(xargs)) {
        note(nt, "fixture: \"x-args\" must be an array of strings");
        ok = 0;
        xargs = NULL;
    }

    /* argv: BINARY validate --rules DIR --format json --preset all [x-args...] FILE */
    struct strv av = {0};
    strv_push(&av, xstrdup(binary));
    strv_push(&av, xstrdup("validate"));
    strv_push(&av, xstrdup("--rules"));
    strv_push(&av, xstrdup(rules_dir()));
    strv_push(&av, xstrdup("--format"));
    strv_push(&av, xstrdup("json"));
    strv_push(&av, xstrdup("--preset"));
    strv_push(&av, xstrdup("all"));
    size_t i;
    json_t *a;
    json_array_foreach(xargs, i, a) {
        if (!json_is_string(a)) {
            note(nt, "fixture: x-args[%zu] must be a string", i);
            ok = 0;
            continue;
        }
        strv_push(&av, xstrdup(json_string_value(a)));
    }
    strv_push(&av, xstrdup(file));
    strv_push(&av, NULL);
    struct run r;
    run_capture(av.v, &r);
    av.n--; /* the NULL */
    if (r.exec_errno) {
        fprintf(stderr, "conformance-check: cannot run %s: %s\n", binary, strerror(r.exec_errno));
        exit(2);
    }
    if (r.timed_out) note(nt, "%s did not finish within %d s", binary, RUN_TIMEOUT_SECONDS);
    if (r.signal) note(nt, "%s was killed by signal %d (%s)", binary, r.signal, strsignal(r.signal));

    json_t *report = r.out.len ? json_loads(r.out.s, 0, &jerr) : NULL;
    json_t *diags = NULL;
    if (!report) {
        note(nt, "the output is not a JSON report%s%s (exit status %d)", r.out.len ? ": " : "",
             r.out.len ? jerr.text : "", r.status);
        ok = 0;
    } else {
        json_t *files = json_object_get(report, "files");
        json_t *f0 = json_array_get(files, 0);
        if (json_array_size(files) != 1) {
            note(nt, "the report has %zu entries in \"files\", expected 1", json_array_size(files));
            ok = 0;
        } else if (json_object_get(f0, "error")) {
            char *s = json_dumps(json_object_get(f0, "error"), JSON_COMPACT | JSON_PRESERVE_ORDER);
            note(nt, "the file was not judged: %s", s);
            free(s);
            ok = 0;
        } else if (!json_is_array(json_object_get(f0, "diagnostics"))) {
            note(nt, "the report's file has no \"diagnostics\" array");
            ok = 0;
        } else {
            diags = json_object_get(f0, "diagnostics");
        }
    }

    if (diags && json_is_array(expect)) {
        size_t ne = json_array_size(expect), na = json_array_size(diags);
        char **ek = xrealloc(NULL, (ne + 1) * sizeof *ek), **ak = xrealloc(NULL, (na + 1) * sizeof *ak);
        char *used = xrealloc(NULL, na + 1);
        memset(used, 0, na + 1);
        for (size_t k = 0; k < ne; k++) ek[k] = diag_key(json_array_get(expect, k));
        for (size_t k = 0; k < na; k++) ak[k] = diag_key(json_array_get(diags, k));
        for (size_t k = 0; k < ne; k++) {
            size_t m = 0;
            while (m < na && (used[m] || strcmp(ek[k], ak[m]))) m++;
            if (m < na) {
                used[m] = 1;
            } else {
                note(nt, "missing:    %s", ek[k]);
                ok = 0;
            }
        }
        for (size_t m = 0; m < na; m++) {
            if (used[m]) continue;
            json_t *d = json_array_get(diags, m);
            const char *msg = json_string_value(json_object_get(d, "message"));
            note(nt, "unexpected: %s", ak[m]);
            if (msg) note(nt, "            (%s)", msg);
            ok = 0;
        }
        if (folder != F_NONE && !folder_holds(folder, diags)) {
            note(nt, "the report does not fit the folder: %s", folder_rule(folder));
            ok = 0;
        }
        /* Exit status: 1 when a diagnostic reaches --fail-on, else 0. */
        int want = 0, rank = fail_rank(xargs);
        for (size_t m = 0; m < na; m++)
            if (level_rank(level_of(json_array_get(diags, m))) >= rank) want = 1;
        if (!r.timed_out && !r.signal && r.status != want) {
            note(nt, "exit status %d, expected %d", r.status, want);
            ok = 0;
        }
        for (size_t k = 0; k < ne; k++) free(ek[k]);
        for (size_t k = 0; k < na; k++) free(ak[k]);
        free(ek);
        free(ak);
        free(used);
    }
    /* A sanitizer report fails the fixture whatever the status (sanitizer builds exit 86,
     * but a report must never pass for a finding: the status 1 of a leak once did). */
    if (r.err.s && (strstr(r.err.s, "Sanitizer") || strstr(r.err.s, "runtime error:"))) {
        note(nt, "a sanitizer report on stderr");
        ok = 0;
    }
    if (!ok || r.status < 0) {
        ok = 0;
        if (!report) note_block(nt, "stdout", r.out.s, 20);
        note_block(nt, "stderr", r.err.s, 20);
    }
    json_decref(report);
    json_decref(fx);
    run_release(&r);
    strv_free(&av);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fprintf(stderr,
                "usage: conformance-check MCPDESC_BINARY DIR|FIXTURE...\n"
                "  runs `MCPDESC_BINARY validate --rules rules-yaml --format json --preset all\n"
                "  [x-args] FILE`\n"
                "  on every *.json under DIR/expected-{valid,warning,invalid}/ (or on each FIXTURE)\n"
                "  and compares the diagnostics with the fixture's x-expect.\n"
                "  CONFORMANCE_RULES=DIR overrides the rule set (default rules-yaml).\n");
        return 2;
    }
    const char *binary = argv[1];
    if (access(binary, X_OK) != 0) {
        fprintf(stderr, "conformance-check: cannot run %s: %s\n", binary, strerror(errno));
        return 2;
    }
    struct strv files = {0};
    for (int i = 2; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "conformance-check: %s: %s\n", argv[i], strerror(errno));
            strv_free(&files);
            return 2;
        }
        if (S_ISDIR(st.st_mode)) {
            size_t before = files.n;
            for (int k = 0; k < 3; k++) {
                char *d = path_join(argv[i], FOLDERS[k]);
                collect_json(d, &files);
                free(d);
            }
            if (files.n == before) {
                fprintf(stderr, "conformance-check: no fixture under %s/expected-*/\n", argv[i]);
                strv_free(&files);
                return 2;
            }
        } else {
            strv_push(&files, xstrdup(argv[i]));
        }
    }
    int passed = 0, failed = 0;
    for (size_t i = 0; i < files.n; i++) {
        struct notes nt = {{0}};
        if (check_fixture(binary, files.v[i], &nt)) {
            printf("ok %s\n", files.v[i]);
            passed++;
        } else {
            printf("FAIL %s\n", files.v[i]);
            for (size_t k = 0; k < nt.lines.n; k++) printf("    %s\n", nt.lines.v[k]);
            failed++;
        }
        fflush(stdout);
        strv_free(&nt.lines);
    }
    printf("%d passed, %d failed\n", passed, failed);
    strv_free(&files);
    return failed ? 1 : 0;
}
