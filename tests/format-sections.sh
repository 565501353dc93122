#!/bin/sh
# format-sections.sh [FORMAT.md] - every section of "MCP Description 0.9.0" that a rule
# cites, in the development set (rules-yaml/*.yaml) and in every release
# (rules-yaml/releases/*/rules/*.yaml), is a section of docs/format.md: a heading that
# starts with its number ("## 9. Tools", "### 9.3 outputSchema") and the anchor
# <a id="section-9.3"></a> that rule pages name (src/author/rulepage.c). A citation with
# a title ({section: "9", title: "9. Tools"}) needs that heading text. Released rule
# files never change, so a section they cite can never be renumbered or dropped.
# FORMAT.md (default docs/format.md) lets the test be shown to fail on a copy.
set -u
cd "$(dirname "$0")/.." || exit 2
doc=${1:-docs/format.md}
[ -f "$doc" ] || { echo "FAIL format-sections: no $doc"; exit 1; }
t=$(mktemp)
trap 'rm -f "$t"' EXIT
# "SECTION<TAB>TITLE<TAB>FILE" of each structured citation (TITLE may be empty), and of
# prose ones in comments: "(MCP Description 0.9.0, section 11)".
for f in rules-yaml/*.yaml rules-yaml/releases/*/rules/*.yaml; do
    [ -f "$f" ] || continue
    sed -n 's/.*document: *MCP Description 0\.9\.0, *section: *"\{0,1\}\([0-9][0-9.]*\)"\{0,1\}\(.*\)$/\1	\2/p' "$f" |
        while IFS='	' read -r sec rest; do
            title=$(printf '%s\n' "$rest" | sed -n 's/.*title: *"\([^"]*\)".*/\1/p')
            printf '%s\t%s\t%s\n' "$sec" "$title" "$f"
        done
    sed -n 's/.*MCP Description 0\.9\.0, section \([0-9]\([0-9.]*[0-9]\)\{0,1\}\).*/\1/p' "$f" |
        while read -r sec; do printf '%s\t\t%s\n' "$sec" "$f"; done
done | sort -u > "$t"
[ -s "$t" ] || { echo "FAIL format-sections: no citation found (is the pattern out of date?)"; exit 1; }
fail=0
n=0
# each distinct (section, title) once, with the first file that cites it
for key in $(cut -f1,2 "$t" | sort -u | tr '\t ' '|~'); do
    sec=${key%%|*}
    title=$(printf '%s' "${key#*|}" | tr '~' ' ')
    file=$(grep -m1 "^$sec	" "$t" | cut -f3)
    n=$((n + 1))
    re=$(printf '%s' "$sec" | sed 's/\./\\./g')
    if ! grep -Eq "^#{2,} $re\.? " "$doc"; then
        echo "FAIL format-sections: $file cites section $sec; $doc has no heading \"## $sec ...\""
        fail=1
    elif ! grep -Fq "<a id=\"section-$sec\"></a>" "$doc"; then
        echo "FAIL format-sections: $file cites section $sec; $doc has no anchor <a id=\"section-$sec\"></a>"
        fail=1
    elif [ -n "$title" ] && ! grep -Eq "^#{2,} $(printf '%s' "$title" | sed 's/[].[*^$\\]/\\&/g')\$" "$doc"; then
        echo "FAIL format-sections: $file cites section $sec as \"$title\"; $doc has no heading \"$title\""
        fail=1
    fi
done
if [ "$fail" = 0 ]; then
    echo "ok format-sections: $n cited sections of MCP Description 0.9.0 are headings of $doc"
fi
exit $fail
