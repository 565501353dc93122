#!/bin/sh
# diff-real.sh BINARY - mcpdesc diff on real pairs: two published versions of npm MCP
# servers captured offline (tests/diff-real/captures/NAME/{OLD,NEW}.json, servers.txt),
# each judged with the default change rules and --preset all, and compared with its
# hand-reviewed change list (tests/diff-real/expected/NAME.txt) by category, item kind and
# item name, with counts (tests/diff-real/compare.js). Where the tool and the review
# differ by design (versions a change concerns, judgement calls), the difference is listed
# with its reason in tests/diff-real/differences.txt, and must stay exactly that.
# Needs node; without it the check is skipped, counted (tests/skip.sh).
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$here/.." || exit 2
. tests/skip.sh
if ! command -v node >/dev/null 2>&1; then
    test_skip test-diff "the real pairs (tests/diff-real)" "node is not installed: make test-deps installs it" || exit 1
    exit 0
fi
dir=tests/diff-real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/status"
grep -v '^#' "$dir/servers.txt" | while IFS='|' read -r name _pkg old new _rest; do
    [ -n "$name" ] || continue
    st=0
    "$bin" diff --preset all --format json "$dir/captures/$name/$old.json" \
        "$dir/captures/$name/$new.json" > "$tmp/$name.json" 2> "$tmp/$name.err" || st=$?
    if [ "$st" -gt 1 ]; then
        echo "FAIL $name: mcpdesc diff exited $st: $(head -n 3 "$tmp/$name.err" | tr '\n' ' ')"
        echo fail >> "$tmp/status"
        continue
    fi
    if node "$dir/compare.js" "$tmp/$name.json" "$dir/expected/$name.txt" "$dir/differences.txt" "$name" > "$tmp/$name.cmp"; then
        echo "ok $name ($old -> $new)"
        echo pass >> "$tmp/status"
    else
        echo "FAIL $name ($old -> $new):"
        sed 's/^/    /' "$tmp/$name.cmp"
        echo fail >> "$tmp/status"
    fi
done
passed=$(grep -c pass "$tmp/status")
failed=$(grep -c fail "$tmp/status")
echo "diff-real: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
