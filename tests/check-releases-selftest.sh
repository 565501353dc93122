#!/bin/sh
# check-releases-selftest.sh - the version checks of tests/check-releases.sh can fail:
# run with --changes-only on copies of the shipped changes logs and findings records
# (rules-yaml/releases/*.changes, *.findings), against a stand-in binary that answers
# only --version, once as they are (must pass) and once per doctored copy (must fail,
# naming the reason):
# (versions relative to the engine's, CUR = VERSION in the Makefile, NEXT its next minor)
#   above       a new entry at NEXT while the engine is still CUR
#   shared      two different new changes at NEXT and NEXT's patch release (one minor)
#   old-minor   a new change written at CUR beside the ones already there
#   bad-heading an entry heading without its date and version
#   old-record  a record counting one more change still names its old version while
#               that change is NEXT
#   bumped      (must pass) a new change at NEXT with the engine at NEXT, its records
#               retaken with NEXT
# Prints ok/FAIL per case; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-releases-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
fail=0

# setup CASE ENGINE: a tree with the script and copies of the logs and records, and a
# stand-in binary that says "mcpdesc ENGINE"
setup() {
    d=$tmp/$1
    mkdir -p "$d/tests" "$d/rules-yaml/releases"
    cp tests/check-releases.sh "$d/tests/"
    cp rules-yaml/releases/*.changes rules-yaml/releases/*.findings "$d/rules-yaml/releases/"
    printf '#!/bin/sh\necho "mcpdesc %s"\n' "$2" > "$d/mcpdesc"
    chmod +x "$d/mcpdesc"
    r=$d/rules-yaml/releases
}
# entry LOG HEADING: append an entry to a copied log
entry() {
    printf '\n## %s\nA doctored entry of the self-test.\n' "$2" >> "$r/$1.changes"
}
# expect CASE pass|fail PATTERN: run the check; PATTERN must be in its output on failure
expect() {
    (cd "$tmp/$1" && sh tests/check-releases.sh --changes-only "$tmp/$1/mcpdesc") > "$tmp/$1.out" 2>&1
    st=$?
    if [ "$2" = pass ] && [ "$st" -eq 0 ]; then
        echo "ok check-releases-selftest: $1 passes"
    elif [ "$2" = fail ] && [ "$st" -ne 0 ] && grep -qF "$3" "$tmp/$1.out"; then
        echo "ok check-releases-selftest: $1 fails ($3)"
    else
        echo "FAIL check-releases-selftest: $1: exit $st, expected to $2${3:+ naming '$3'}:"
        sed 's/^/    | /' "$tmp/$1.out" | grep -v 'check-releases: ok' | head -n 12
        fail=1
    fi
}

# The versions relative to the engine's (VERSION in the Makefile), so that a bump needs
# no edit here: CUR, the next minor NEXT (and its patch release NEXT_PATCH), and NEXT2
cur=$(sed -n 's/^VERSION := *//p' Makefile)
major=${cur%%.*}
minor=$(echo "$cur" | cut -d. -f2)
next=$major.$((minor + 1)).0
next_patch=$major.$((minor + 1)).1
next2=$major.$((minor + 2)).0
# retake LOG VERSION: the record of LOG says it was taken with VERSION after one more change
retake() {
    awk -v v="$2" 'NR == 1 { n = $NF; sub(/mcpdesc [0-9.]*, changes [0-9]*$/, "mcpdesc " v ", changes " (n + 1)) } 1' \
        "$r/$1.findings" > "$r/$1.findings.new" && mv "$r/$1.findings.new" "$r/$1.findings"
}

setup pristine "$cur"
expect pristine pass ""

setup above "$cur"
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc $next: a new check of tool names"
expect above fail "names mcpdesc $next, but the engine is $cur"

setup shared "$next2"
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc $next: a new check of tool names"
entry mcpdesc-mcp@v0.9.0-rc.11 "2027-01-20, mcpdesc $next_patch: schema errors point at the key"
expect shared fail "share the minor version ${next%.0}"

setup old-minor "$cur"
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc $cur: a new check of tool names"
expect old-minor fail "share the minor version ${cur%.*}"

setup bad-heading "$cur"
entry mcpdesc-mcp@v0.9.0-rc.10 "a new check of tool names"
expect bad-heading fail "does not start '## YYYY-MM-DD, mcpdesc X.Y.Z: '"

setup old-record "$next"
entry mcpdesc-mcp@v0.9.0-rc.3 "2027-01-15, mcpdesc $next: a new check of tool names"
retake mcpdesc-mcp@v0.9.0-rc.3 "$(sed -n '1s/.*: mcpdesc \([0-9.]*\), changes.*/\1/p' "$r/mcpdesc-mcp@v0.9.0-rc.3.findings")"
expect old-record fail "the record is older than its log says"

setup bumped "$next"
entry mcpdesc-mcp@v0.9.0-rc.3 "2027-01-15, mcpdesc $next: a new check of tool names"
entry mcpdesc-mcp@v0.9.0-rc.4 "2027-01-15, mcpdesc $next: a new check of tool names"
retake mcpdesc-mcp@v0.9.0-rc.3 "$next"
retake mcpdesc-mcp@v0.9.0-rc.4 "$next"
expect bumped pass ""

[ "$fail" -eq 0 ] && echo "check-releases-selftest: passed" || echo "check-releases-selftest: FAILED"
exit "$fail"
