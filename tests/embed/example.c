/* example.c - embedding mcpdesc: load the installed rule set, validate a file and a
 * document held in memory, print each diagnostic the way a compiler would.
 * Build against an installed mcpdesc:
 *   cc -o example example.c $(pkg-config --cflags --libs mcpdesc)
 * Usage: example [--rules DIR | --rules-tag NAME@TAG[@sha256:HEX]] FILE...
 *        exit 0 clean, 1 errors found, 2 unusable input */
#include <mcpdesc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(mcpdesc_result *res)
{
    for (size_t i = 0; i < mcpdesc_result_count(res); i++) {
        const struct mcpdesc_diag *d = mcpdesc_result_diag(res, i);
        printf("%s:%u:%u: %s: [%s] %s: %s", d->file, d->line, d->col, mcpdesc_level_name(d->level),
               d->rule ? d->rule : "parse", d->pointer, d->message);
        if (*d->versions) printf(" (%s)", d->versions);
        putchar('\n');
    }
    if (!mcpdesc_result_parsed(res)) return 2;
    return mcpdesc_result_count_at_least(res, MCPDESC_ERROR) ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = NULL;   /* NULL: $MCPDESC_RULES, else the installed rule set */
    const char *tag = NULL;   /* a release, found on the release search path */
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "--rules")) {
        dir = argv[2];
        first = 3;
    } else if (argc > 2 && !strcmp(argv[1], "--rules-tag")) {
        tag = argv[2]; /* pinned NAME@TAG@sha256:HEX: any other files are refused */
        first = 3;
    }
    char *err = NULL;
    mcpdesc_rules *rules = tag ? mcpdesc_rules_load_tag(tag, &err) : mcpdesc_rules_load(dir, &err);
    if (!rules) {
        fprintf(stderr, "example: cannot load the rule set:\n%s", err);
        free(err);
        return 2;
    }
    printf("mcpdesc %s, rules %s\n", mcpdesc_version(),
           mcpdesc_rules_tag(rules) ? mcpdesc_rules_tag(rules) : "(untagged)");

    int status = 0;
    for (int i = first; i < argc; i++) {
        mcpdesc_result *res = mcpdesc_validate_file(rules, argv[i]);
        int s = report(res);
        if (s > status) status = s;
        mcpdesc_result_free(res);
    }

    /* the same from memory: a tool whose inputSchema is not an object, then a truncated
       document (reported, not judged) */
    static const char doc[] =
        "{\"mcpDescription\": \"0.9.0\", \"protocolVersions\": [\"2025-06-18\"],\n"
        " \"serverInfo\": {\"name\": \"mem\", \"version\": \"1\"},\n"
        " \"tools\": [{\"name\": \"t\", \"inputSchema\": {\"type\": \"array\"}}]}\n";
    mcpdesc_result *res = mcpdesc_validate_buffer(rules, "memory.json", doc, sizeof doc - 1);
    report(res);
    mcpdesc_result_free(res);
    res = mcpdesc_validate_buffer(rules, "broken.json", "{\"tools\": [", 11);
    report(res);
    mcpdesc_result_free(res);

    mcpdesc_rules_free(rules);
    return status;
}
