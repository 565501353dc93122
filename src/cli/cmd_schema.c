/* cmd_schema.c - `mcpdesc schema validate` (instances against a JSON Schema) and
 * `mcpdesc schema check` (schemas against their dialect's meta-schema, plus every
 * regex and reference compiled). Exit 0 valid, 1 invalid, 2 usage or unreadable input.
 * Text: file:line:col: error: message (keyword location); JSON: one object. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/uri.h"
#include "cli/cmd.h"
#include "cli/cmd_common.h"
#include "doc/doc.h"
#include "schema/schema.h"
#include "base/util.h"

/* The usage of `schema validate` (WHICH 1), `schema check` (2) or both (0). */
static void usage(FILE *f, int which)
{
    if (which != 2)
        fputs("usage: mcpdesc schema validate --schema FILE [--dialect D] [--ref-map "
              "PREFIX=DIR]...\n"
              "                               [--format text|json] INSTANCE...\n",
              f);
    if (which != 1)
        fprintf(f,
                "%s mcpdesc schema check [--dialect D] [--ref-map PREFIX=DIR]... [--format "
                "text|json]\n"
                "                            SCHEMA...\n",
                which ? "usage:" : "      ");
    fputs("\n", f);
    if (which != 2) fputs("  --schema FILE    the schema the instances are validated against\n", f);
    fputs("  --dialect D      dialect of schemas without $schema: 2020-12 (default), 2019-09,\n"
          "                   draft-07, draft-06, draft-04\n"
          "  --ref-map P=DIR  resolve $refs whose URI starts with P from files under DIR;\n"
          "                   no other non-local reference is ever fetched\n"
          "  --format F       text (default) or json\n"
          "patterns are ECMA-262 (the u flag): PCRE-only syntax is an error; a valid one\n"
          "mcpdesc cannot run is taken to match, and `check` prints a note\n"
          "exit status: 0 valid, 1 invalid, 2 bad usage or unreadable input\n",
          f);
}

struct out {
    int json;
    json_t *files; /* JSON output */
    size_t nfiles, ninvalid, nerrors;
};

/* The file:line:col of POINTER in D (0:0 when unknown). */
static struct doc_pos pos_of(const doc *d, const char *pointer)
{
    struct doc_pos p = {0, 0};
    if (d && doc_pointer_pos(d, pointer, &p, NULL) < 0) {
        /* nearest existing ancestor */
        char *q = xstrdup(pointer);
        char *slash;
        while ((slash = strrchr(q, '/'))) {
            *slash = 0;
            if (doc_pointer_pos(d, q, &p, NULL) == 0) break;
        }
        free(q);
    }
    return p;
}

static void emit_errors(struct out *o, const char *file, const doc *d,
                        const struct schema_errors *errs, size_t from, json_t *jerrs)
{
    for (size_t i = from; i < errs->len; i++) {
        const struct schema_error *e = &errs->items[i];
        struct doc_pos p = pos_of(d, e->instance_location);
        o->nerrors++;
        if (o->json) {
            json_array_append_new(jerrs,
                                  json_pack("{s:s, s:s, s:s, s:i, s:i}", "message", e->message,
                                            "keywordLocation", e->keyword_location,
                                            "instanceLocation", e->instance_location, "line",
                                            (int)p.line, "column", (int)p.col));
        } else {
            loc_print(stdout, file, p.line, p.col);
            printf(": error: %s (%s)\n", e->message,
                   e->keyword_location[0] ? e->keyword_location : "#");
        }
    }
}

/* A valid ECMA-262 pattern that PCRE2 cannot run (docs/schema.md): not an error, a note
 * (text) or a "notes" member (JSON), at the first such pattern of the schema. */
static json_t *emit_notes(const struct out *o, const char *file, const doc *d)
{
    char *where, *why;
    if (!schema_first_unrunnable_pattern(doc_root(d), &where, &why)) return NULL;
    struct doc_pos p = pos_of(d, where);
    json_t *notes = NULL;
    if (o->json)
        notes = json_pack("[{s:s, s:s, s:i, s:i}]", "message", why, "instanceLocation", where,
                          "line", (int)p.line, "column", (int)p.col);
    else {
        loc_print(stdout, file, p.line, p.col);
        printf(": note: %s (%s)\n", why, where);
    }
    free(where);
    free(why);
    return notes;
}

static void emit_file(struct out *o, const char *file, int status, json_t *jerrs, json_t *notes)
{
    o->nfiles++;
    if (status) o->ninvalid++;
    if (o->json) {
        json_t *f =
            json_pack("{s:s, s:b, s:o}", "file", file, "valid", status == 0, "errors", jerrs);
        if (notes) json_object_set_new(f, "notes", notes);
        json_array_append_new(o->files, f);
    } else {
        json_decref(jerrs);
    }
}

static void emit_unreadable(struct out *o, const char *file, const struct doc_error *err)
{
    o->nfiles++;
    if (o->json) {
        json_array_append_new(o->files,
                              json_pack("{s:s, s:{s:s, s:i, s:i}}", "file", file, "error",
                                        "message", err->message, "line", (int)err->line, "column",
                                        (int)err->col));
    } else {
        loc_print(stderr, file, err->line, err->col);
        fprintf(stderr, ": error: %s\n", err->message);
    }
}

static int finish(struct out *o, const char *command, const char *schema_file, int status)
{
    if (o->json) {
        json_t *j = json_pack("{s:s, s:s}", "mcpdesc", MCPDESC_VERSION, "command", command);
        if (schema_file) json_object_set_new(j, "schema", json_string(schema_file));
        json_object_set(j, "files", o->files);
        json_object_set_new(j, "summary",
                            json_pack("{s:I, s:I, s:I}", "files", (json_int_t)o->nfiles, "invalid",
                                      (json_int_t)o->ninvalid, "errors", (json_int_t)o->nerrors));
        char *s = json_dumps(j, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(j);
    } else {
        printf("%zu error%s, %zu invalid in %zu file%s\n", o->nerrors, o->nerrors == 1 ? "" : "s",
               o->ninvalid, o->nfiles, o->nfiles == 1 ? "" : "s");
    }
    json_decref(o->files);
    return status;
}

/* file:///absolute/path for a schema file (its base URI); "-" has none. */
static char *base_uri_of(const char *path)
{
    if (!strcmp(path, "-")) return xstrdup("");
    char *rp = realpath(path, NULL);
    char *u = uri_from_path(rp ? rp : path);
    free(rp);
    return u;
}

/* What the command line asks for (parse_options). */
struct schema_opts {
    const char *sub; /* "validate" or "check" */
    int is_validate;
    const char *schema_file; /* --schema (validate) */
    int json;                /* --format json */
    enum schema_dialect dialect;
    VEC(const char *) inputs; /* instances (validate) or schemas (check) */
    VEC(const char *) maps;   /* --ref-map PREFIX=DIR, as given */
};

static void opts_release(struct schema_opts *o)
{
    VEC_FREE(o->inputs);
    VEC_FREE(o->maps);
}

/* Bad usage after the subcommand: the usage to stderr, then 2. */
static int usage_error(const struct schema_opts *o)
{
    usage(stderr, o->is_validate ? 1 : 2);
    return 2;
}

/* Parse ARGV into *O. Returns 0 to go on, 2 on bad usage (after a message), -1 when
 * the usage was printed for --help. */
static int parse_options(int argc, char **argv, struct schema_opts *o)
{
    /* every option, for did-you-mean (tests/check-options.sh checks them against --help,
     * the man page and the bash completion) */
    static const char *const validate_options[] = {"--schema", "--dialect", "--ref-map",
                                                   "--format", "--help",    NULL};
    static const char *const check_options[] = {"--dialect", "--ref-map", "--format", "--help",
                                                NULL};
    *o = (struct schema_opts){.dialect = SCHEMA_DRAFT2020_12, .inputs = VEC_INIT, .maps = VEC_INIT};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout, 0);
        return argc < 2 ? 2 : -1;
    }
    o->sub = argv[1];
    o->is_validate = !strcmp(o->sub, "validate");
    if (!o->is_validate && strcmp(o->sub, "check")) {
        fprintf(stderr, "mcpdesc schema: unknown subcommand '%s' (use validate or check)\n",
                o->sub);
        return 2;
    }
    const char *format = "text";
    int only_args = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
#define OPT(name) (!strcmp(a, name) || (!strncmp(a, name "=", sizeof(name))))
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            VEC_PUSH(o->inputs, a);
        } else if (!strcmp(a, "--")) {
            only_args = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, o->is_validate ? 1 : 2);
            return -1;
        } else if (o->is_validate && OPT("--schema")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--schema"))) return usage_error(o);
            o->schema_file = v;
        } else if (OPT("--dialect")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--dialect"))) return usage_error(o);
            o->dialect = schema_dialect_parse(v);
            if (!o->dialect) {
                fprintf(stderr,
                        "mcpdesc schema: unknown dialect '%s' (use 2020-12, 2019-09, draft-07, "
                        "draft-06 or draft-04)\n",
                        v);
                return usage_error(o);
            }
        } else if (OPT("--ref-map")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--ref-map"))) return usage_error(o);
            if (!strchr(v, '=') || v[0] == '=') {
                fprintf(stderr, "mcpdesc schema: --ref-map takes PREFIX=DIR, not '%s'\n", v);
                return usage_error(o);
            }
            VEC_PUSH(o->maps, v);
        } else if (OPT("--format")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--format"))) return usage_error(o);
            format = v;
        } else {
            cmd_unknown_option(o->is_validate ? "schema validate" : "schema check", a,
                               o->is_validate ? validate_options : check_options);
            return usage_error(o);
        }
#undef OPT
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        fprintf(stderr, "mcpdesc schema: unknown format '%s' (use text or json)\n", format);
        return usage_error(o);
    }
    if (o->is_validate && !o->schema_file) {
        fprintf(stderr, "mcpdesc schema validate: --schema FILE is required\n");
        return usage_error(o);
    }
    if (!o->inputs.len) {
        fprintf(stderr, "mcpdesc schema %s: no %s given\n", o->sub,
                o->is_validate ? "instance" : "schema");
        return usage_error(o);
    }
    o->json = !strcmp(format, "json");
    return 0;
}

/* A schema context that resolves the --ref-map prefixes from their directories. */
static schema_ctx *prepare(const struct schema_opts *o)
{
    schema_ctx *ctx = schema_ctx_new(NULL);
    for (size_t i = 0; i < o->maps.len; i++) {
        const char *eq = strchr(o->maps.items[i], '=');
        char *prefix = xstrndup(o->maps.items[i], (size_t)(eq - o->maps.items[i]));
        schema_ctx_add_ref_map(ctx, prefix, eq + 1);
        free(prefix);
    }
    return ctx;
}

/* Judges one loaded input: fills ERRS, returns nonzero when it is invalid. */
typedef int judge_fn(void *arg, const char *file, const doc *d, struct schema_errors *errs);

/* Loads every input in turn and reports what JUDGE finds in it. Returns 0, 1 when one
 * is invalid, 2 when one cannot be read. */
static judge_fn judge_check;

static int each_input(const struct schema_opts *o, struct out *out, judge_fn *judge, void *arg)
{
    int status = 0;
    for (size_t i = 0; i < o->inputs.len; i++) {
        const char *file = o->inputs.items[i];
        struct doc_error derr = {NULL, 0, 0};
        doc *d = doc_load_file(file, NULL, &derr);
        if (!d) {
            emit_unreadable(out, file, &derr);
            doc_error_release(&derr);
            status = 2;
            continue;
        }
        struct schema_errors errs = SCHEMA_ERRORS_INIT;
        int r = judge(arg, file, d, &errs);
        json_t *je = json_array();
        emit_errors(out, file, d, &errs, 0, je);
        emit_file(out, file, r != 0, je, judge == judge_check ? emit_notes(out, file, d) : NULL);
        if (r != 0 && status == 0) status = 1;
        schema_errors_release(&errs);
        doc_free(d);
    }
    return status;
}

static int judge_validate(void *arg, const char *file, const doc *d, struct schema_errors *errs)
{
    return schema_validate(arg, doc_root(d), errs);
}

struct check_arg {
    schema_ctx *ctx;
    enum schema_dialect dialect;
};

/* One error per failing value, worded by its keyword's form (schema_explain), as
 * validate's mcp.schema.dialect.valid reports them. */
static int judge_check(void *arg, const char *file, const doc *d, struct schema_errors *errs)
{
    const struct check_arg *a = arg;
    char *base = base_uri_of(file);
    struct schema_errors raw = SCHEMA_ERRORS_INIT;
    enum schema_dialect dflt = a->dialect ? a->dialect : SCHEMA_DRAFT2020_12;
    int r = schema_check(a->ctx, doc_root(d), base, a->dialect, &raw);
    enum schema_dialect declared = schema_declared_dialect(a->ctx, doc_root(d), dflt);
    schema_explain(doc_root(d), declared ? declared : dflt, &raw, errs);
    schema_errors_release(&raw);
    free(base);
    return r;
}

/* `schema validate`: compile --schema, then validate every instance against it.
 * Returns 0, 1 when an instance is invalid, 2 when the schema cannot be read or
 * compiled or an instance cannot be read. */
static int run_validate(const struct schema_opts *o, schema_ctx *ctx, struct out *out)
{
    struct doc_error derr = {NULL, 0, 0};
    doc *sd = doc_load_file(o->schema_file, NULL, &derr);
    if (!sd) {
        emit_unreadable(out, o->schema_file, &derr);
        doc_error_release(&derr);
        return 2;
    }
    char *base = base_uri_of(o->schema_file);
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    schema *s = schema_compile(ctx, doc_root(sd), base, o->dialect, &errs);
    free(base);
    if (!s) {
        json_t *je = json_array();
        emit_errors(out, o->schema_file, sd, &errs, 0, je);
        emit_file(out, o->schema_file, 1, je, NULL);
        schema_errors_release(&errs);
        doc_free(sd);
        return 2;
    }
    int status = each_input(o, out, judge_validate, s);
    schema_free(s);
    doc_free(sd);
    return status;
}

/* `schema check`: every schema against its dialect's meta-schema. Returns 0, 1 when
 * one is invalid, 2 when one cannot be read. */
static int run_check(const struct schema_opts *o, schema_ctx *ctx, struct out *out)
{
    struct check_arg a = {ctx, o->dialect};
    return each_input(o, out, judge_check, &a);
}

int cmd_schema(int argc, char **argv)
{
    struct schema_opts o;
    int status = parse_options(argc, argv, &o);
    if (!status) {
        struct out out = {o.json, json_array(), 0, 0, 0};
        schema_ctx *ctx = prepare(&o);
        status = o.is_validate ? run_validate(&o, ctx, &out) : run_check(&o, ctx, &out);
        status = finish(&out, o.is_validate ? "schema validate" : "schema check",
                        o.is_validate ? o.schema_file : NULL, status);
        schema_ctx_free(ctx);
    }
    opts_release(&o);
    return status < 0 ? 0 : status;
}
