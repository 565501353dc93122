/* parse-floor.c - the floor our parser dependency sets: read a whole file, parse it with
 * jansson's json_loadb, free the tree, and print the seconds taken by the whole run on stdout
 * ("parse-floor: 0.412 s, 23129730 bytes"). The benchmark times the process from outside too;
 * this figure excludes process start-up.
 * The floor of issue 32 is json_loadb with flags 0 (the default). --mcpdesc-flags parses with
 * the flags src/doc/doc_json.c passes instead (duplicate keys rejected, any value at the top,
 * NUL in strings allowed): about 1.38x slower, a row of its own in the table.
 * Usage: parse-floor [--mcpdesc-flags] FILE */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The whole file in one malloc'd buffer (as src/doc/doc_load.c reads it), or NULL. */
static char *bench_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n == cap) {
            char *p = realloc(buf, cap = cap ? cap * 2 : 1 << 20);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    size_t flags = 0;
    if (argc == 3 && !strcmp(argv[1], "--mcpdesc-flags")) {
        flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL;
        argv++;
        argc--;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: parse-floor [--mcpdesc-flags] FILE\n");
        return 2;
    }
    double t0 = bench_now();
    size_t len = 0;
    char *text = bench_read(argv[1], &len);
    if (!text) {
        perror(argv[1]);
        return 2;
    }
    json_error_t err;
    json_t *root = json_loadb(text, len, flags, &err);
    if (!root) {
        fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.column, err.text);
        free(text);
        return 2;
    }
    json_decref(root);
    free(text);
    printf("parse-floor: %.3f s, %zu bytes\n", bench_now() - t0, len);
    return 0;
}
