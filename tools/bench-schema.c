/* bench-schema.c - throughput of the schema engine, for tools/bench-schema.sh:
 * compile SCHEMA once, then validate every instance of a JSON-lines file repeatedly
 * for at least SECONDS, and print instances per second.
 * It also prints a floor: the same loop merely visiting every value of every instance
 * through jansson's API (no schema at all), which no validator taking jansson values
 * can beat.
 * usage: bench-schema SCHEMA INSTANCES.jsonl SECONDS [PREFIX=DIR]... */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schema/schema.h"
#include "base/util.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Visit every value below V the way a validator must at least do: each member's key
 * and value, each element, each scalar's payload. Returns a checksum so that the
 * compiler keeps the work. */
static size_t visit(json_t *v)
{
    size_t sum = 1;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it))
            sum += json_object_iter_key_len(it) + (unsigned char)json_object_iter_key(it)[0] +
                   visit(json_object_iter_value(it));
        break;
    case JSON_ARRAY:
        for (size_t i = 0, n = json_array_size(v); i < n; i++) sum += visit(json_array_get(v, i));
        break;
    case JSON_STRING: sum += json_string_length(v); break;
    case JSON_INTEGER: sum += (size_t)json_integer_value(v); break;
    case JSON_REAL: sum += json_real_value(v) > 0; break;
    default: break;
    }
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench-schema SCHEMA INSTANCES.jsonl SECONDS [PREFIX=DIR]...\n");
        return 2;
    }
    json_error_t err;
    json_t *sj = json_load_file(argv[1], 0, &err);
    if (!sj) {
        fprintf(stderr, "bench-schema: %s: %s\n", argv[1], err.text);
        return 2;
    }
    schema_ctx *ctx = schema_ctx_new(NULL);
    for (int i = 4; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) continue;
        *eq = 0;
        schema_ctx_add_ref_map(ctx, argv[i], eq + 1);
    }
    struct schema_errors errs = SCHEMA_ERRORS_INIT;
    double t0 = now();
    schema *s = schema_compile(ctx, sj, "file:///bench/schema.json", SCHEMA_DRAFT2020_12, &errs);
    double tc = now() - t0;
    if (!s) {
        fprintf(stderr, "bench-schema: %s: %s\n", argv[1], errs.len ? errs.items[0].message : "?");
        return 2;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    VEC(json_t *) inst = VEC_INIT;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        json_t *j = json_loadb(line, (size_t)n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
        if (j) VEC_PUSH(inst, j);
    }
    free(line);
    fclose(f);
    double secs = atof(argv[3]);
    size_t done = 0, valid = 0;
    t0 = now();
    double t;
    do {
        for (size_t i = 0; i < inst.len; i++) {
            int r = schema_validate(s, inst.items[i], NULL);
            if (r == 0) valid++;
        }
        done += inst.len;
        t = now() - t0;
    } while (t < secs);
    printf("mcpdesc: %.0f instances/s (%zu instances, %zu valid per pass, compile %.2f ms)\n",
           (double)done / t, inst.len, valid / (done / (inst.len ? inst.len : 1)), tc * 1e3);
    size_t sum = 0;
    done = 0;
    t0 = now();
    do {
        for (size_t i = 0; i < inst.len; i++) sum += visit(inst.items[i]);
        done += inst.len;
        t = now() - t0;
    } while (t < secs);
    printf("floor (jansson walk, no validation): %.0f instances/s (checksum %zu)\n",
           (double)done / t, sum % 1000);
    for (size_t i = 0; i < inst.len; i++) json_decref(inst.items[i]);
    VEC_FREE(inst);
    schema_free(s);
    schema_errors_release(&errs);
    schema_ctx_free(ctx);
    json_decref(sj);
    return 0;
}
