#!/bin/sh
# selftest.sh CROSSCHECK OUT-DIR DATA-DIR... - the cross-check must fail on what it is
# there to catch: a copy of schema/mcp/ with three real differences (a required member
# added, a member type widened where an allow-list line names another reason, a `format`
# dropped) and an allow-list with a stale line and an undocumented reason. Each must be
# reported, and the exit status must be 1. No official data: SKIP, exit 0.
set -u
cc=$1 out=$2
shift 2
rm -rf "$out" && mkdir -p "$out" && cp -R schema/mcp "$out/mcp" || exit 1
m=$out/mcp
sed -i '0,/"required": \["name"\],/s//"required": ["name", "description"],/' "$m/2024-11-05/prompt.json"
sed -i '/"size": {/,/}/s/"type": "number"/"type": ["number", "string"]/' "$m/2025-06-18/resource.json"
sed -i '0,/"format": "uri"/s//"x-format-dropped": "uri"/' "$m/2025-11-25/resource.json"
cp tests/crosscheck/known-differences.txt "$out/allow.txt"
echo "2025-03-26 Tool conformance/none.json D1 stale" >>"$out/allow.txt"
echo "2025-03-26 Prompt conformance/none.json D99 undocumented" >>"$out/allow.txt"
# the data check itself is test-crosscheck's: no second skip line, no REQUIRE failure here
MCPDESC_SKIP_LOG= MCPDESC_REQUIRE= "$cc" types "$m" "$out/allow.txt" schema/mcp/README.md conformance tests/crosscheck/samples \
    "$@" >"$out/report.txt" 2>&1
rc=$?
if grep -q '^SKIP test-crosscheck' "$out/report.txt"; then
    . tests/skip.sh
    test_skip crosscheck-selftest "the cross-check's self-test" "no official MCP data" || exit 1
    exit 0
fi
bad=0
expect() {
    if grep -q -- "$1" "$out/report.txt"; then
        echo "crosscheck selftest: caught $2"
    else
        echo "crosscheck selftest: FAIL: missed $2 (no line matching '$1' in $out/report.txt)"
        bad=1
    fi
}
expect '^FAIL 2024-11-05 Prompt .*ours invalid, official valid' "a required member added"
expect '^FAIL 2025-06-18 Resource .*listed as D1.*does not make both sides agree' "a difference listed under the wrong reason"
expect '^FAIL 2025-11-25 Resource: format "/uri uri" declared only in the official schema' "a dropped format"
expect 'conformance/none.json (D1): the listed difference no longer occurs' "a stale allow-list line"
expect 'reason id is not documented' "an undocumented reason"
[ $rc -eq 1 ] || { echo "crosscheck selftest: FAIL: exit status $rc, expected 1"; bad=1; }
[ $bad -eq 0 ] && echo "crosscheck selftest: PASS"
exit $bad
