/* gen.c - writes the large hostile inputs at test time (they are never committed).
 *   gen KIND N [SEED] > FILE
 * KIND:
 *   nest-array N        N nested JSON arrays:  [[[...]]]
 *   nest-object N       N nested JSON objects: {"a":{"a":...1...}}
 *   nest-in-desc N      a valid description whose first tool's inputSchema holds N
 *                       nested "default" arrays (the depth error must point inside it)
 *   nest-yaml-block N   N nested YAML block sequences on one line: - - - ... x
 *   big-string N        a valid description whose tool description is N bytes of 'a'
 *   ref-chain N         components S0 -> S1 -> ... -> S(N-1) by $componentRef, S(N-1) a string
 *                       schema (so the tool's inputSchema, which refers to S0, is not an
 *                       object: the diagnostic is at S(N-1)'s line when the chain is followed)
 *   ref-cycle N         the same chain, but S(N-1) refers back to S0
 *   ref-nest N          S0 .. S(N-1), each an object schema whose property a refers to the
 *                       next: once substituted, the inputSchema nests 2N levels deep
 *   ref-bomb N          S0 .. S(N-1), each with two properties referring to the next: once
 *                       substituted, 2^N nodes (billion laughs by $componentRef); 100 tools
 *                       refer to S0
 *   regex-subject N     a description whose tool title is N 'a's then '!' (a subject that
 *                       makes (a+)+$ backtrack catastrophically)
 *   regex-instance N    a JSON string of N 'a's then '!'
 *   schema-ref-chain N  a JSON Schema whose $defs a0 -> a1 -> ... -> a(N-1) chain by $ref,
 *                       the root referring to a0
 *   schema-ref-cycle N  the same chain, a(N-1) referring back to a0
 *   random N SEED       N pseudo-random bytes (xorshift64*, fixed SEED: reproducible)
 * Plain C and stdio only, so the output is the same on every machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DESC_HEAD "{\"mcpDescription\":\"0.9.0\",\"protocolVersions\":[\"2025-11-25\"]," \
                  "\"serverInfo\":{\"name\":\"hostile\",\"version\":\"1.0.0\"}," \
                  "\"capabilities\":{\"tools\":{}},"

static void repeat(const char *s, unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        fputs(s, stdout);
}

static void repeat_char(int c, unsigned long n)
{
    char block[65536];
    memset(block, c, sizeof block);
    while (n > 0) {
        size_t k = n < sizeof block ? (size_t)n : sizeof block;
        fwrite(block, 1, k, stdout);
        n -= k;
    }
}

static void nest_in_desc(unsigned long n)
{
    fputs(DESC_HEAD "\"tools\":[{\"name\":\"deep\",\"description\":\"d\",\n"
          "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":{\"default\":", stdout);
    repeat_char('[', n);
    repeat_char(']', n);
    fputs("}}}}]}\n", stdout);
}

static void big_string(unsigned long n)
{
    fputs(DESC_HEAD "\"tools\":[{\"name\":\"big\",\"inputSchema\":{\"type\":\"object\"},\n"
          "\"description\":\"", stdout);
    repeat_char('a', n);
    fputs("\"}]}\n", stdout);
}

/* One component per line, so a diagnostic's line says which link it is about. */
static void ref_chain(unsigned long n, int cycle)
{
    fputs(DESC_HEAD "\"tools\":[{\"name\":\"chained\",\"description\":\"d\",\n"
          "\"inputSchema\":{\"$componentRef\":\"#/components/schemas/S0\"}}],\n"
          "\"components\":{\"schemas\":{\n", stdout);
    for (unsigned long i = 0; i + 1 < n; i++)
        printf("\"S%lu\":{\"$componentRef\":\"#/components/schemas/S%lu\"},\n", i, i + 1);
    if (cycle)
        printf("\"S%lu\":{\"$componentRef\":\"#/components/schemas/S0\"}\n", n - 1);
    else
        printf("\"S%lu\":{\"type\":\"string\"}\n", n - 1);
    fputs("}}}\n", stdout);
}

static void ref_nest(unsigned long n, int twice)
{
    fputs(DESC_HEAD "\"tools\":[\n", stdout);
    for (int t = 0; t < (twice ? 100 : 1); t++)
        printf("%s{\"name\":\"t%d\",\"description\":\"d\",\"inputSchema\":{\"type\":\"object\","
               "\"properties\":{\"x\":{\"$componentRef\":\"#/components/schemas/S0\"}}}}\n",
               t ? "," : "", t);
    fputs("],\n\"components\":{\"schemas\":{\n", stdout);
    for (unsigned long i = 0; i + 1 < n; i++) {
        printf("\"S%lu\":{\"type\":\"object\",\"properties\":{"
               "\"a\":{\"$componentRef\":\"#/components/schemas/S%lu\"}", i, i + 1);
        if (twice)
            printf(",\"b\":{\"$componentRef\":\"#/components/schemas/S%lu\"}", i + 1);
        fputs("}},\n", stdout);
    }
    printf("\"S%lu\":{\"type\":\"string\"}\n}}}\n", n - 1);
}

static void schema_ref_chain(unsigned long n, int cycle)
{
    fputs("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\n"
          "\"$ref\":\"#/$defs/a0\",\"$defs\":{\n", stdout);
    for (unsigned long i = 0; i + 1 < n; i++)
        printf("\"a%lu\":{\"$ref\":\"#/$defs/a%lu\"},\n", i, i + 1);
    if (cycle)
        printf("\"a%lu\":{\"$ref\":\"#/$defs/a0\"}\n", n - 1);
    else
        printf("\"a%lu\":{\"type\":\"string\"}\n", n - 1);
    fputs("}}\n", stdout);
}

static void regex_subject(unsigned long n)
{
    fputs(DESC_HEAD "\"tools\":[{\"name\":\"slow\",\"description\":\"d\","
          "\"inputSchema\":{\"type\":\"object\"},\n\"title\":\"", stdout);
    repeat_char('a', n);
    fputs("!\"}]}\n", stdout);
}

static void random_bytes(unsigned long n, unsigned long long seed)
{
    unsigned long long x = seed ? seed : 88172645463325252ULL;
    for (unsigned long i = 0; i < n; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        putchar((int)((x * 2685821657736338717ULL) >> 56));
    }
}

static int usage(void)
{
    fputs("usage: gen KIND N [SEED] (see the comment at the top of tests/hostile/gen.c)\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const char *kind = argv[1];
    unsigned long n = strtoul(argv[2], NULL, 10);
    if (!strcmp(kind, "nest-array")) {
        repeat_char('[', n);
        repeat_char(']', n);
    } else if (!strcmp(kind, "nest-object")) {
        repeat("{\"a\":", n);
        putchar('1');
        repeat_char('}', n);
    } else if (!strcmp(kind, "nest-in-desc")) {
        nest_in_desc(n);
    } else if (!strcmp(kind, "nest-yaml-block")) {
        repeat("- ", n);
        puts("x");
    } else if (!strcmp(kind, "big-string")) {
        big_string(n);
    } else if (!strcmp(kind, "ref-chain") || !strcmp(kind, "ref-cycle")) {
        if (n < 1)
            return usage();
        ref_chain(n, !strcmp(kind, "ref-cycle"));
    } else if (!strcmp(kind, "ref-nest") || !strcmp(kind, "ref-bomb")) {
        if (n < 1)
            return usage();
        ref_nest(n, !strcmp(kind, "ref-bomb"));
    } else if (!strcmp(kind, "schema-ref-chain") || !strcmp(kind, "schema-ref-cycle")) {
        if (n < 1)
            return usage();
        schema_ref_chain(n, !strcmp(kind, "schema-ref-cycle"));
    } else if (!strcmp(kind, "regex-subject")) {
        regex_subject(n);
    } else if (!strcmp(kind, "regex-instance")) {
        putchar('"');
        repeat_char('a', n);
        fputs("!\"\n", stdout);
    } else if (!strcmp(kind, "random") && argc == 4) {
        random_bytes(n, strtoull(argv[3], NULL, 10));
    } else {
        return usage();
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen: write");
        return 1;
    }
    return 0;
}
