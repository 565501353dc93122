/* rule_yv.c - the compiler's access to a rule file's YAML (struct yv, ruleInt.h): a
 * mapping's member and a list's item with their source nodes, for errors at their line
 * and column; a JSON value's kind and the nearest known name, in the loader's words.
 * Apart from rule_compile.c so that it stays within the project's file size. */
#include <jansson.h>
#include <stddef.h>
#include <string.h>

#include "base/util.h"
#include "base/val.h"
#include "doc/doc.h"
#include "rules/ruleInt.h"

struct yv rule_yv_member(struct cc *cc, struct yv y, const char *key)
{
    struct yv out = {NULL, DOC_NONE};
    /* most members asked for are optional and absent: the hash says so at once; a present
     * one is found by its value (a YAML alias may hold it under two keys: the name too) */
    json_t *v = json_is_object(y.v) ? json_object_get(y.v, key) : NULL;
    if (!v) return out;
    size_t i = 0;
    for (void *it = json_object_iter(y.v); it; it = json_object_iter_next(y.v, it), i++) {
        if (json_object_iter_value(it) != v || strcmp(json_object_iter_key(it), key) != 0) continue;
        out.v = json_object_iter_value(it);
        out.n = doc_node_item(cc->d, y.n, i);
        return out;
    }
    return out;
}

struct yv rule_yv_item(struct cc *cc, struct yv y, size_t i)
{
    /* by the array's index: stepping from the first item made a loop over a list quadratic */
    struct yv out = {json_array_get(y.v, i), doc_node_array_item(cc->d, y.n, y.v, i)};
    return out;
}

const char *rule_json_type_name(json_t *v)
{
    return val_type_name_yaml(v);
}

/* The closest of NAMES (NULL-terminated) to S, if close enough to be a typo. */
const char *rule_cc_nearest(const char *s, const char *const *names)
{
    const char *best = NULL;
    size_t bd = 3;
    for (; *names; names++) {
        size_t d = util_edit_distance(s, *names);
        if (d < bd) {
            bd = d;
            best = *names;
        }
    }
    return best;
}
