#!/bin/sh
# check-releases-selftest.sh - the version checks of tests/check-releases.sh can fail:
# run with --changes-only on copies of the shipped changes logs and findings records
# (rules-yaml/releases/*.changes, *.findings), against a stand-in binary that answers
# only --version, once as they are (must pass) and once per doctored copy (must fail,
# naming the reason):
#   above       a new entry at mcpdesc 0.2.0 while the engine is still 0.1.0
#   shared      two different new changes at 0.2.0 and 0.2.1 (one minor version)
#   old-minor   a new change written at 0.1.0 beside the grandfathered ones
#   bad-heading an entry heading without its date and version
#   old-record  a record taken "after 2 changes" still says mcpdesc 0.1.0 while its
#               second change is 0.2.0
#   bumped      (must pass) a new change at 0.2.0 with the engine at 0.2.0, its record
#               retaken with 0.2.0
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

setup pristine 0.1.0
expect pristine pass ""

setup above 0.1.0
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc 0.2.0: a new check of tool names"
expect above fail "names mcpdesc 0.2.0, but the engine is 0.1.0"

setup shared 0.3.0
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc 0.2.0: a new check of tool names"
entry mcpdesc-mcp@v0.9.0-rc.11 "2027-01-20, mcpdesc 0.2.1: schema errors point at the key"
expect shared fail "share the minor version 0.2"

setup old-minor 0.1.0
entry mcpdesc-mcp@v0.9.0-rc.10 "2027-01-15, mcpdesc 0.1.0: a new check of tool names"
expect old-minor fail "share the minor version 0.1"

setup bad-heading 0.1.0
entry mcpdesc-mcp@v0.9.0-rc.10 "a new check of tool names"
expect bad-heading fail "does not start '## YYYY-MM-DD, mcpdesc X.Y.Z: '"

setup old-record 0.2.0
entry mcpdesc-mcp@v0.9.0-rc.3 "2027-01-15, mcpdesc 0.2.0: a new check of tool names"
sed -i '1s/, changes 1$/, changes 2/' "$r/mcpdesc-mcp@v0.9.0-rc.3.findings"
expect old-record fail "the record is older than its log says"

setup bumped 0.2.0
entry mcpdesc-mcp@v0.9.0-rc.3 "2027-01-15, mcpdesc 0.2.0: a new check of tool names"
entry mcpdesc-mcp@v0.9.0-rc.4 "2027-01-15, mcpdesc 0.2.0: a new check of tool names"
sed -i '1s/mcpdesc 0\.1\.0, changes 1$/mcpdesc 0.2.0, changes 2/' \
    "$r/mcpdesc-mcp@v0.9.0-rc.3.findings" "$r/mcpdesc-mcp@v0.9.0-rc.4.findings"
expect bumped pass ""

[ "$fail" -eq 0 ] && echo "check-releases-selftest: passed" || echo "check-releases-selftest: FAILED"
exit "$fail"
