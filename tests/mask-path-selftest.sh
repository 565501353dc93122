#!/bin/sh
# mask-path-selftest.sh - what tests/mask-path.sh masks in the golden outputs of
# tests/run-cli.sh, with the checkout at /project (a common place in containers) and the
# scratch directory at /tmp/mcpdesc-cli.AbC123/work: each line of the table below is
# masked, then compared with the line after the tab. Run by `make test-cli` before the
# goldens. Prints ok/FAIL per line, then "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/mask-path.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-mask.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
tab=$(printf '\t')
passed=0
failed=0
# check ROOT WORK: each line of stdin is INPUT<tab>EXPECTED
check() {
    while IFS= read -r line; do
        input=${line%%"$tab"*}
        want=${line#*"$tab"}
        printf '%s\n' "$input" > "$tmp/line"
        mask_path "$2" @WORK@ "$tmp/line"
        mask_path "$1" @ROOT@ "$tmp/line"
        got=$(cat "$tmp/line")
        if [ "$got" = "$want" ]; then
            passed=$((passed + 1))
            echo "ok $input"
        else
            failed=$((failed + 1))
            echo "FAIL $input"
            echo "    masked: $got"
            echo "    wanted: $want"
        fi
    done
}
check /project /tmp/mcpdesc-cli.AbC123/work <<'LINES'
/project/examples/weather.json:3:5: error	@ROOT@/examples/weather.json:3:5: error
conformance/expected-invalid/projection-types.json: ok	conformance/expected-invalid/projection-types.json: ok
/project/conformance/expected-invalid/projection-types.json	@ROOT@/conformance/expected-invalid/projection-types.json
"see": "https://example.test/project/",	"see": "https://example.test/project/",
https://project/x and //project/y	https://project/x and //project/y
"uri": "file:///project/",	"uri": "file://@ROOT@/",
no rule set in /project	no rule set in @ROOT@
no rule set in /project.	no rule set in @ROOT@.
cannot read '/project': gone	cannot read '@ROOT@': gone
cannot read "/project"	cannot read "@ROOT@"
(/project/a.json) (/project/b.json)	(@ROOT@/a.json) (@ROOT@/b.json)
/project /project:/project	@ROOT@ @ROOT@:@ROOT@
--rules=/project/rules-yaml	--rules=@ROOT@/rules-yaml
/project.git /projects /project-old /project_1 /project~	/project.git /projects /project-old /project_1 /project~
/srv/project/a.json and a/project	/srv/project/a.json and a/project
/tmp/mcpdesc-cli.AbC123/work/fix.json	@WORK@/fix.json
/tmp/mcpdesc-cli.AbC123/workspace/fix.json	/tmp/mcpdesc-cli.AbC123/workspace/fix.json
LINES
# a path with characters special to sed: matched as written, never as a pattern
check '/tmp/a.b+c[1]' /tmp/w <<'LINES'
/tmp/a.b+c[1]/x.json	@ROOT@/x.json
/tmp/aXbbc1/x.json /tmp/a.b+c[1]#/y	/tmp/aXbbc1/x.json @ROOT@#/y
LINES
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
