/* rules.c - libFuzzer harness: the rule-file loader and compiler (rule_set_load). The
 * input is a rule file, loaded beside a fixed manifest; an input that starts with the
 * line "#manifest" is a manifest up to the line "#rules", then the rule file (so the
 * manifest's own loader is fuzzed too; its rule file is r.yaml). Both are written to a
 * scratch directory. A rule set that loads is run over two shipped descriptions, and its
 * listings are read. Invariants: a failed load has positioned errors with messages;
 * diagnostics of a run have a rule and a message. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "doc/doc.h"
#include "judge/eval.h"
#include "fuzz.h"
#include "rules/rule.h"

static char dir[256];
static char *docs[2];
static size_t doc_lens[2];
static char manifest[8192];

static void cleanup(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/manifest.yaml", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/r.yaml", dir);
    unlink(path);
    rmdir(dir);
}

static char *slurp(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", fuzz_top(), rel);
    FILE *f = fopen(path, "rb");
    if (!f) fuzz_fail("cannot read %s", path);
    char *s = malloc(1 << 20);
    *len = fread(s, 1, (1 << 20) - 1, f);
    fclose(f);
    return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/mcpdesc-fuzz-rules-XXXXXX", tmp);
    if (!mkdtemp(dir)) fuzz_fail("mkdtemp %s", dir);
    atexit(cleanup);
    docs[0] = slurp("examples/weather.json", &doc_lens[0]);
    docs[1] =
        slurp("conformance/expected-warning/component-shared-by-two-tools.json", &doc_lens[1]);
    /* the shipped document shape; schema predicates' $refs reach the shipped schemas */
    snprintf(manifest, sizeof manifest,
             "name: fuzz\ntag: v0.0.0-fuzz\ndescription-format: 0.9.0\n"
             "schema-map:\n  https://mcpdesc.dev/schema/: %s/schema/\n"
             "versions: [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28]\n"
             "document:\n  versions-member: protocolVersions\n"
             "  collections: [tools, resources, resourceTemplates, prompts]\n"
             "  component-ref:\n    member: $componentRef\n    prefix: /components/schemas/\n"
             "    scopes: [/tools/*/inputSchema, /tools/*/outputSchema, /components/schemas/*]\n"
             "files: [r.yaml]\n",
             fuzz_top());
    return 0;
}

static void write_file(const char *name, const char *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) fuzz_fail("cannot write %s", path);
}

static void run(const struct rule_set *rs)
{
    for (size_t i = 0; i < rule_set_count(rs); i++) {
        const struct rule *r = rule_set_rule(rs, i);
        if (!rule_id(r) || rule_set_find(rs, rule_id(r)) == NULL)
            fuzz_fail("rule %zu cannot be found", i);
        rule_str(r, "summary");
        rule_meta(r);
    }
    for (size_t k = 0; k < 2; k++) {
        struct doc_error err;
        doc *d = doc_load_buffer("fixture.json", docs[k], doc_lens[k], 0, NULL, &err);
        if (!d) fuzz_fail("fixture %zu: %s", k, err.message);
        struct diag_list out = DIAG_LIST_INIT;
        eval_document(rs, d, NULL, &out);
        for (size_t i = 0; i < out.len; i++)
            if (!out.items[i].rule || !out.items[i].message)
                fuzz_fail("diagnostic without rule or message");
        diag_list_release(&out);
        doc_free(d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    static const char mhead[] = "#manifest\n", rhead[] = "\n#rules\n";
    const char *sep;
    if (size >= sizeof mhead - 1 && !memcmp(p, mhead, sizeof mhead - 1) &&
        (sep = memmem(p, size, rhead, sizeof rhead - 1))) {
        write_file("manifest.yaml", p, (size_t)(sep - p) + 1);
        p = sep + sizeof rhead - 1;
    } else {
        write_file("manifest.yaml", manifest, strlen(manifest));
    }
    write_file("r.yaml", p, (size_t)(end - p));
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = rule_set_load(dir, &errs);
    if (!rs && errs.len == 0) fuzz_fail("the load failed without an error");
    for (size_t i = 0; i < errs.len; i++)
        if (!errs.items[i].message || !errs.items[i].file)
            fuzz_fail("loader error without message or file");
    if (rs) {
        rule_set_digest(rs);
        run(rs);
        rule_set_free(rs);
    }
    diag_list_release(&errs);
    return 0;
}
