/* fixtures.c - the fixture cache of the rule authors' tools; see fixtures.h. */
#include "author/fixtures.h"

#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/loc.h"
#include "base/ptr.h"
#include "base/util.h"
#include "doc/doc.h"
#include "resolve/res.h"

struct fx_entry {
    char *name;
    doc *raw;      /* as written */
    doc *resolved; /* after $componentRef resolution (on demand) */
    char *problem; /* why it cannot be loaded */
};

struct fixtures {
    char *dir;
    const struct rule_set *rs;
    VEC(struct fx_entry) e;
};

struct fixtures *fixtures_new(const char *dir, const struct rule_set *rs)
{
    struct fixtures *fx = xcalloc(1, sizeof *fx);
    fx->dir = xstrdup(dir);
    fx->rs = rs;
    return fx;
}

void fixtures_free(struct fixtures *fx)
{
    if (!fx) return;
    for (size_t i = 0; i < fx->e.len; i++) {
        free(fx->e.items[i].name);
        doc_free(fx->e.items[i].raw);
        doc_free(fx->e.items[i].resolved);
        free(fx->e.items[i].problem);
    }
    VEC_FREE(fx->e);
    free(fx->dir);
    free(fx);
}

const char *fixtures_dir(const struct fixtures *fx)
{
    return fx->dir;
}

int fixtures_name_ok(const char *name)
{
    if (!*name || name[0] == '/') return 0;
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 2 && !strncmp(p, "..", 2)) || (n == 1 && *p == '.')) return 0;
        p += n;
        if (*p) p++;
    }
    return 1;
}

static struct fx_entry *fixture_entry(struct fixtures *fx, const char *name)
{
    for (size_t i = 0; i < fx->e.len; i++)
        if (!strcmp(fx->e.items[i].name, name)) return &fx->e.items[i];
    struct fx_entry e = {xstrdup(name), NULL, NULL, NULL};
    if (!fixtures_name_ok(name)) {
        e.problem = xasprintf("fixture \"%s\" is not a relative path inside %s", name, fx->dir);
    } else {
        char *path = xasprintf("%s/%s", fx->dir, name);
        struct doc_error err;
        if (access(path, F_OK) != 0) {
            e.problem = xasprintf("no fixture \"%s\" in %s", name, fx->dir);
        } else if (!(e.raw = doc_load_file(path, NULL, &err))) {
            char *at = loc_format(path, err.line, err.col);
            e.problem = err.line ? xasprintf("fixture %s does not parse: %s", at, err.message)
                                 : xasprintf("fixture %s cannot be read: %s", path, err.message);
            free(at);
            doc_error_release(&err);
        }
        free(path);
    }
    VEC_PUSH(fx->e, e);
    return &fx->e.items[fx->e.len - 1];
}

/* The deepest prefix of P that exists in ROOT, as a pointer string (new). */
static char *deepest_prefix(json_t *root, const struct ptr *p)
{
    struct buf b = BUF_INIT;
    json_t *v = root;
    for (size_t i = 0; i < p->n; i++) {
        json_t *next = NULL;
        size_t idx;
        if (json_is_object(v)) next = json_object_get(v, p->segs[i]);
        else if (json_is_array(v) && ptr_is_index(p->segs[i], &idx)) next = json_array_get(v, idx);
        if (!next) break;
        ptr_append_segment(&b, p->segs[i], strlen(p->segs[i]));
        v = next;
    }
    char *s = b.len ? buf_detach(&b) : xstrdup("\"\" (the root)");
    buf_release(&b);
    return s;
}

enum fixtures_lookup fixtures_lookup(struct fixtures *fx, const char *fixture, const char *pointer,
                                     json_t **value, char **problem)
{
    *value = NULL;
    *problem = NULL;
    struct fx_entry *e = fixture_entry(fx, fixture);
    if (!e->raw) {
        *problem = xstrdup(e->problem);
        return FIXTURES_NO_FIXTURE;
    }
    struct ptr p;
    const char *why;
    if (ptr_parse(pointer, &p, &why) < 0) {
        *problem = xasprintf("bad JSON Pointer \"%s\": %s", pointer, why);
        return FIXTURES_BAD_POINTER;
    }
    *value = ptr_get(doc_root(e->raw), &p);
    if (!*value && fx->rs) {
        if (!e->resolved) {
            char *path = xasprintf("%s/%s", fx->dir, fixture);
            struct doc_error err;
            e->resolved = doc_load_file(path, NULL, &err);
            if (!e->resolved) doc_error_release(&err);
            free(path);
            if (e->resolved) {
                struct diag_list ignored = DIAG_LIST_INIT;
                res_free(res_resolve(e->resolved, rule_set_res_config(fx->rs), &ignored));
                diag_list_release(&ignored);
            }
        }
        if (e->resolved) *value = ptr_get(doc_root(e->resolved), &p);
    }
    if (!*value) {
        char *deepest = deepest_prefix(doc_root(e->raw), &p);
        *problem = xasprintf("nothing at %s in fixture %s (the deepest part that exists is %s)",
                             pointer, fixture, deepest);
        free(deepest);
    }
    ptr_release(&p);
    return *value ? FIXTURES_OK : FIXTURES_NO_POINTER;
}
