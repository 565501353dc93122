/* ver.c - protocol version lists, masks and specs; see ver.h. */
#include "base/ver.h"

#include <stdlib.h>
#include <string.h>

void ver_list_release(struct ver_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->names[i]);
    l->n = 0;
}

int ver_index(const struct ver_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name)) return (int)i;
    return -1;
}

ver_mask ver_all(const struct ver_list *l)
{
    return l->n >= 64 ? ~(ver_mask)0 : (((ver_mask)1 << l->n) - 1);
}

ver_mask ver_range(const struct ver_list *l, int from, int before)
{
    ver_mask m = 0;
    for (size_t i = 0; i < l->n; i++)
        if ((from < 0 || (int)i >= from) && (before < 0 || (int)i < before)) m |= (ver_mask)1 << i;
    return m;
}

void ver_format(struct buf *b, const struct ver_list *l, ver_mask m, const char *sep)
{
    int first = 1;
    for (size_t i = 0; i < l->n; i++) {
        if (!(m & ((ver_mask)1 << i))) continue;
        if (!first) buf_adds(b, sep);
        buf_adds(b, l->names[i]);
        first = 0;
    }
}

size_t ver_count(ver_mask m)
{
    return (size_t)__builtin_popcountll(m);
}

/* ---- version specs ------------------------------------------------------------------ */

static void problem(void (*report)(void *, const struct ver_spec_error *), void *arg,
                    enum ver_spec_problem what, int index, const char *member, json_t *value)
{
    struct ver_spec_error e = {what, index, member, value};
    if (report) report(arg, &e);
}

/* The index of version V (a list entry or a range bound), or -1 after reporting. */
static int spec_version(const struct ver_list *vl, json_t *v, int index, const char *member,
                        void (*report)(void *, const struct ver_spec_error *), void *arg)
{
    if (!json_is_string(v)) {
        problem(report, arg, VER_SPEC_NOT_A_STRING, index, member, v);
        return -1;
    }
    int k = ver_index(vl, json_string_value(v));
    if (k < 0) problem(report, arg, VER_SPEC_UNKNOWN_VERSION, index, member, v);
    return k;
}

int ver_spec_parse(const struct ver_list *vl, json_t *spec, ver_mask *out,
                   void (*report)(void *arg, const struct ver_spec_error *e), void *arg)
{
    if (json_is_string(spec) && !strcmp(json_string_value(spec), "all")) {
        *out = ver_all(vl);
        return 0;
    }
    if (json_is_array(spec)) {
        ver_mask m = 0;
        int bad = 0;
        for (size_t i = 0; i < json_array_size(spec); i++) {
            int k = spec_version(vl, json_array_get(spec, i), (int)i, NULL, report, arg);
            if (k < 0) bad = 1;
            else m |= (ver_mask)1 << k;
        }
        if (!bad && !m) problem(report, arg, VER_SPEC_EMPTY_LIST, -1, NULL, spec);
        if (bad || !m) return -1;
        *out = m;
        return 0;
    }
    if (json_is_object(spec)) {
        json_t *bound[2] = {NULL, NULL};
        int at[2] = {-1, -1};
        static const char *const names[2] = {"from", "before"};
        int i = 0;
        for (void *it = json_object_iter(spec); it; it = json_object_iter_next(spec, it), i++) {
            const char *key = json_object_iter_key(it);
            int b = !strcmp(key, "from") ? 0 : !strcmp(key, "before") ? 1 : -1;
            if (b < 0) {
                problem(report, arg, VER_SPEC_UNKNOWN_MEMBER, i, key, json_object_iter_value(it));
            } else if (!bound[b]) {
                bound[b] = json_object_iter_value(it);
                at[b] = i;
            }
        }
        int idx[2] = {-1, -1}, bad = 0;
        for (int b = 0; b < 2; b++)
            if (bound[b] && (idx[b] = spec_version(vl, bound[b], at[b], names[b], report, arg)) < 0)
                bad = 1;
        if (bad) return -1;
        if (!bound[0] && !bound[1]) {
            problem(report, arg, VER_SPEC_NO_BOUND, -1, NULL, spec);
            return -1;
        }
        ver_mask m = ver_range(vl, idx[0], idx[1]);
        if (!m) {
            problem(report, arg, VER_SPEC_EMPTY_RANGE, -1, NULL, spec);
            return -1;
        }
        *out = m;
        return 0;
    }
    problem(report, arg, VER_SPEC_NOT_A_SPEC, -1, NULL, spec);
    return -1;
}

void ver_spec_format(struct buf *b, const struct ver_list *vl, ver_mask m)
{
    ver_mask all = ver_all(vl);
    m &= all;
    if (m == all) {
        buf_adds(b, "all");
        return;
    }
    /* a contiguous run [lo, hi] of two or more versions is a range */
    int lo = -1, hi = -1, contiguous = 1;
    for (size_t i = 0; i < vl->n; i++) {
        if (!(m >> i & 1)) continue;
        if (lo < 0) lo = (int)i;
        else if (hi != (int)i - 1) contiguous = 0;
        hi = (int)i;
    }
    if (lo >= 0 && contiguous && ver_count(m) > 1) {
        int from = lo > 0, before = (size_t)hi + 1 < vl->n;
        buf_adds(b, "{");
        if (from) buf_addf(b, "from: %s", vl->names[lo]);
        if (before) buf_addf(b, "%sbefore: %s", from ? ", " : "", vl->names[hi + 1]);
        buf_adds(b, "}");
        return;
    }
    buf_adds(b, "[");
    ver_format(b, vl, m, ", ");
    buf_adds(b, "]");
}
