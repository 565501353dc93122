/* validate.c - libFuzzer harness: the whole validator as an embedding program calls it
 * (mcpdesc_validate_buffer with the shipped rule set): loading, resolution, selectors,
 * every rule and predicate of rules-yaml/, merging. Invariants: every diagnostic has a
 * file, a message and a pointer; a parsed document's diagnostics have rule ids; a second
 * validation of the same bytes gives the same diagnostics in the same order. Then the
 * fixes of the rules (findings/fix.h), on the bytes read as JSON, or as YAML when they are no
 * JSON: never text that does not parse, always a fixpoint, and a second run changes
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "findings/fix.h"
#include "judge/mcpdesc.h"
#include "rules/rule.h"

static mcpdesc_rules *rules;
static struct rule_set *fix_rules; /* the same set, for the fix API */

/* Fix DATA as NAME: an error only when it does not parse; a fixed text is a fixpoint. */
static void check_fixes(const char *name, const char *data, size_t size)
{
    struct diag_list errs = DIAG_LIST_INIT;
    size_t len = 0, len2 = 0;
    int n = 0, n2 = 0;
    char *out = fix_text(fix_rules, NULL, name, data, size, &len, &n, &errs);
    /* the fix engine's own failures, told by how its messages begin: an input's own parse
     * error may quote any text of the input (a key named "the fixes made text ...") */
    const char *why = errs.len ? errs.items[0].message : "";
    if (!strncmp(why, "the fixes made text", 19) ||
        !strncmp(why, "the fixes reach no fixpoint", 27))
        fuzz_fail("%s: %s", name, why);
    if (out) {
        diag_list_release(&errs);
        char *again = fix_text(fix_rules, NULL, name, out, len, &len2, &n2, &errs);
        if (again || n2 != 0 || errs.len)
            fuzz_fail("%s: a second run of the fixes changes the text again", name);
    }
    free(out);
    diag_list_release(&errs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[4096], *err = NULL;
    snprintf(dir, sizeof dir, "%s/rules-yaml", fuzz_top());
    rules = mcpdesc_rules_load(dir, &err);
    if (!rules) fuzz_fail("cannot load %s: %s", dir, err ? err : "?");
    struct diag_list errs = DIAG_LIST_INIT;
    fix_rules = rule_set_load(dir, &errs);
    if (!fix_rules) fuzz_fail("cannot load %s for the fixes", dir);
    diag_list_release(&errs);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mcpdesc_result *res = mcpdesc_validate_buffer(rules, "fuzz.json", (const char *)data, size);
    if (!res) fuzz_fail("no result");
    int parsed = mcpdesc_result_parsed(res);
    size_t n = mcpdesc_result_count(res);
    if (!parsed && n != 1) fuzz_fail("an unparsed document has %zu diagnostics", n);
    for (size_t i = 0; i < n; i++) {
        const struct mcpdesc_diag *d = mcpdesc_result_diag(res, i);
        if (!d || !d->file || !d->message || !d->pointer || !d->versions)
            fuzz_fail("diagnostic %zu lacks a member", i);
        if (parsed && !d->rule) fuzz_fail("diagnostic %zu of a parsed document has no rule", i);
        mcpdesc_level_name(d->level);
    }
    if (mcpdesc_result_diag(res, n)) fuzz_fail("a diagnostic past the end");
    mcpdesc_result_count_at_least(res, MCPDESC_WARNING);
    mcpdesc_result *again = mcpdesc_validate_buffer(rules, "fuzz.json", (const char *)data, size);
    if (mcpdesc_result_count(again) != n)
        fuzz_fail("a second run gives %zu diagnostics, not %zu", mcpdesc_result_count(again), n);
    for (size_t i = 0; i < n; i++) {
        const struct mcpdesc_diag *a = mcpdesc_result_diag(res, i),
                                  *b = mcpdesc_result_diag(again, i);
        if (a->line != b->line || a->col != b->col || strcmp(a->message, b->message) ||
            strcmp(a->pointer, b->pointer))
            fuzz_fail("diagnostic %zu differs in a second run", i);
    }
    mcpdesc_result_free(again);
    mcpdesc_result_free(res);
    /* as JSON when it parsed as JSON, else as YAML (JSON is YAML too: judging it twice
     * more would only double the time of the slow inputs, component bombs) */
    check_fixes(parsed ? "fuzz.json" : "fuzz.yaml", (const char *)data, size);
    return 0;
}
