#!/bin/sh
# official-examples.sh CROSSCHECK MCPDESC OUT-DIR DATA-DIR... - issue 4, point 4: every
# official example item (tools, resources, resource templates, prompts, capabilities) of
# DATA-DIR/<version>/examples/ is wrapped into an MCP Description for its version
# (crosscheck wrap-examples) and judged by `mcpdesc validate` with the shipped rule set
# (rules-yaml/). Any error fails; warnings and infos are listed. No data: SKIP, exit 0.
set -u
cc=$1 bin=$2 out=$3
shift 3
rm -rf "$out" && mkdir -p "$out" || exit 1
"$cc" wrap-examples "$out" "$@" || exit 1
if [ -z "$(ls "$out")" ]; then
    . tests/skip.sh
    test_skip test-official-examples "the official examples" "no <version>/examples/ in: $*" || exit 1
    exit 0
fi
"$bin" validate --rules rules-yaml --fail-on error --color never "$out"
rc=$?
case $rc in
0) echo "test-official-examples: PASS: no error on $(ls "$out" | wc -l) official examples" ;;
1) echo "test-official-examples: FAIL: an official example raises an error (a rule bug, or a wrong wrapping)" ;;
*) echo "test-official-examples: FAIL: mcpdesc validate exited $rc" ;;
esac
[ $rc -eq 0 ]
