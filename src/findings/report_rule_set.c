/* report_rule_set.c - the rule set as the reports and the baseline file name it. The
 * bottom of the reports: baseline.c writes it, so it calls nothing of the reports. */
#include "findings/report_tools.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rules/release.h"

json_t *report_rule_set_json(const struct rule_set *rs)
{
    const char *released = rule_set_released_tag(rs);
    /* where the set came from, and whether this binary ships that tag with that digest
     * (release_check_loaded refused any other files under a shipped tag) */
    char *real = realpath(rule_set_dir(rs), NULL);
    const struct release_shipped *s =
        released && rule_set_name(rs) ? release_shipped_find(rule_set_name(rs), released) : NULL;
    json_t *j = json_pack("{s:s?, s:o, s:s?, s:b, s:s?, s:s, s:b}", "name", rule_set_name(rs),
                          "tag", released ? json_string(released) : json_null(), "derivedFrom",
                          rule_set_tag(rs), "modified", !released, "digest", rule_set_digest(rs),
                          "dir", real ? real : rule_set_dir(rs), "shipped",
                          s && !strcmp(s->digest, rule_set_digest(rs)));
    free(real);
    return j;
}
