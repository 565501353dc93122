#!/bin/sh
# check-precision.sh BINARY - precision of the security rule set on real servers (issue:
# "every error or warning on a real server is reviewed and either fixed in the rules or
# kept as a documented true positive"). Runs the development security set
# (rules-yaml/security, every rule: --preset all) on the project's corpus
# (examples/corpus/*.json) and on the captured npm servers (tests/precision/captures/,
# listed with package, version and licence in tests/precision/README.md), each alone, and
# the captures together as one client session (--together: the session rules). Every error or
# warning of a security.* rule must be listed in tests/precision/expected.txt, one line
#   FILE:LINE:COL RULE  # why it is a true positive
# and every line there must still be reported (a stale entry fails too). Prints each
# unexplained finding and each stale entry; "N files, N findings (N expected)"; exit 1
# on any difference.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup check-precision "$@"
files=0
: > "$tmp/found"
# judge LABEL RULE-PREFIX ARGS...: run the development set (every rule) on ARGS and add
# each error or warning of a rule whose id starts with RULE-PREFIX to $tmp/found as
# "FILE:LINE:COL RULE"; a run that cannot judge (exit 2 or more) fails the check
judge() {
    label=$1 prefix=$2
    shift 2
    NO_COLOR=1 "$bin" validate --rules rules-yaml/security --preset all --color never "$@" \
        > "$tmp/out" 2> "$tmp/err"
    status=$?
    if [ "$status" -gt 1 ]; then
        echo "FAIL $label: exit $status: $(head -n 3 "$tmp/err" | tr '\n' ' ')"
        exit 1
    fi
    # "FILE:LINE:COL: LEVEL: MESSAGE [RULE] (VERSIONS)" -> "FILE:LINE:COL RULE"
    sed -n "s/^\([^ ]*:[0-9]*:[0-9]*\): \(error\|warning\): .* \[\($prefix[a-z0-9.-]*\)\] (.*\$/\1 \3/p" \
        "$tmp/out" >> "$tmp/found"
}
for doc in examples/corpus/*.json tests/precision/captures/*.json; do
    [ -f "$doc" ] || continue
    files=$((files + 1))
    judge "$doc" 'security\.' "$doc"
done
# the captures as one client session: the session rules' findings (each file's own were
# found above)
judge --together 'security\.together\.' --together tests/precision/captures/*.json
sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d' tests/precision/expected.txt | sort -u > "$tmp/want"
sort -u "$tmp/found" > "$tmp/got"
bad=0
comm -13 "$tmp/want" "$tmp/got" > "$tmp/new"
comm -23 "$tmp/want" "$tmp/got" > "$tmp/stale"
while IFS= read -r l; do
    echo "FAIL unexplained: $l (fix the rule, or list it in tests/precision/expected.txt with why it is a true positive)"
    bad=1
done < "$tmp/new"
while IFS= read -r l; do
    echo "FAIL stale: $l is listed in tests/precision/expected.txt but no longer reported"
    bad=1
done < "$tmp/stale"
echo "check-precision: $files files, $(wc -l < "$tmp/got") findings ($(wc -l < "$tmp/want") expected)"
exit $bad
