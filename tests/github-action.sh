#!/bin/sh
# github-action.sh - the GitHub Action (action.yml) run locally (make test-github-action;
# make check): tools/github-action.sh, which its steps call, under a simulated GitHub
# environment: GITHUB_WORKSPACE (a copy of the shipped examples), GITHUB_ACTION_PATH
# (whose build/mcpdesc is BINARY), GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP and
# the INPUT_* variables action.yml's env: passes. Checks the verdict and exit status per
# fail-on, the annotations, the SARIF file (JSON, its results), the Markdown summary, the
# outputs, each input (paths, rules-tag, config, baseline, preset, fail-on, sarif,
# diff-base: validate, then mcpdesc diff of the base and the one path), a
# TypeScript-repository-like workspace adopted with a config and a baseline (green, then
# red on exactly one new finding), the deps step
# (apt-get and sudo replaced by stand-ins: no network), and that action.yml passes every
# input to the script and asks apt-get only for packages tools/install-deps.sh knows.
# usage: sh tests/github-action.sh BINARY
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup github-action "$@"

ws=$tmp/workspace
act=$tmp/action
mkdir -p "$ws" "$act/build" "$tmp/runner"
cp -R examples "$ws/"
cp tests/data/config/ts-sdk.json "$ws/ts-sdk.json"
ln -s "$bin" "$act/build/mcpdesc"
cp -R tools "$act/"

# action [VAR=VALUE...]: run the script's `run` step with a fresh summary and outputs
# file and only the INPUT_* given; stdout in $tmp/out, status in $rc
action() {
    : > "$tmp/summary" && : > "$tmp/outputs" && rm -f "$ws/mcpdesc.sarif"
    printf 'an earlier line of this step\n' > "$tmp/summary"
    env -u INPUT_PATHS -u INPUT_RULES_TAG -u INPUT_CONFIG -u INPUT_FAIL_ON -u INPUT_PRESET \
        -u INPUT_SARIF -u INPUT_BASELINE -u INPUT_DIFF_BASE -u MCPDESC GITHUB_ACTIONS=true GITHUB_WORKSPACE="$ws" \
        GITHUB_ACTION_PATH="$act" GITHUB_STEP_SUMMARY="$tmp/summary" \
        GITHUB_OUTPUT="$tmp/outputs" RUNNER_TEMP="$tmp/runner" "$@" \
        sh "$act/tools/github-action.sh" run > "$tmp/out" 2> "$tmp/err"
    rc=$?
}
status_is() { [ "$rc" -eq "$1" ]; }
out_has() { grep -q -- "$1" "$tmp/out"; }
summary_has() { grep -q -- "$1" "$tmp/summary"; }
output_is() { grep -qx -- "$1=$2" "$tmp/outputs"; }
# sarif_results FILE N: FILE is a SARIF 2.1.0 log (JSON) whose one run has N results
sarif_results() {
    python3 - "$1" "$2" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0", log.get("version")
runs = log["runs"]
assert len(runs) == 1 and runs[0]["tool"]["driver"]["name"] == "mcpdesc"
assert len(runs[0]["results"]) == int(sys.argv[2]), len(runs[0]["results"])
PY
}
sarif_uri() {
    python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); sys.exit(0 if any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]==sys.argv[2] for r in l["runs"][0]["results"]) else 1)' "$1" "$2"
}
runner_temp_clean() { [ -z "$(ls -A "$tmp/runner")" ]; }

# 1. a failing input: the shipped examples/weather.json (3 errors, 2 warnings) among good ones
action INPUT_PATHS="examples/weather.json
  examples/corpus/

" INPUT_SARIF=mcpdesc.sarif
check "failing: exits 1" status_is 1
check "failing: annotations on stdout" \
    out_has '^::error file=examples/weather.json,line=43,col=22,title=mcpdesc.component-ref.dangling::'
check "failing: both paths judged (6 files)" out_has '^3 errors, 2 warnings, 0 infos in 6 files$'
check "failing: output exit-code=1" output_is exit-code 1
check "failing: output sarif=mcpdesc.sarif" output_is sarif mcpdesc.sarif
check "failing: SARIF file written, valid JSON, 5 results" sarif_results "$ws/mcpdesc.sarif" 5
check "failing: SARIF names the file relative to the workspace" sarif_uri "$ws/mcpdesc.sarif" examples/weather.json
check "failing: summary appended (the earlier line kept)" summary_has '^an earlier line of this step$'
check "failing: summary heading with the counts" \
    summary_has '^## mcpdesc: 3 errors, 2 warnings, 0 infos in 6 files$'
check "failing: summary per rule" summary_has '^| `mcpdesc.component-ref.dangling` | error | 1 |$'
check "failing: summary per rule, counted" summary_has '^| `mcp.tool.schema.native-shape` | warning | 2 |$'
check "failing: summary per file" summary_has '^| examples/weather.json | 3 | 2 | 0 |$'
check "failing: summary first findings" summary_has '^- `examples/weather.json:43` \$componentRef'
check "failing: RUNNER_TEMP left clean" runner_temp_clean

# 2. a passing input
action INPUT_PATHS=examples/corpus INPUT_SARIF=reports/out.sarif
check "passing: exits 0" status_is 0
check "passing: output exit-code=0" output_is exit-code 0
check "passing: SARIF in a new directory, no results" sarif_results "$ws/reports/out.sarif" 0
check "passing: output sarif=reports/out.sarif" output_is sarif reports/out.sarif
check "passing: summary counts nothing" summary_has '^## mcpdesc: 0 errors, 0 warnings, 0 infos in 5 files$'
check "passing: no annotations" sh -c '! grep -q "^::" "$1"' - "$tmp/out"

# 3. fail-on: never passes the failing input and still reports it; warning fails warnings
action INPUT_PATHS=examples/weather.json INPUT_FAIL_ON=never INPUT_SARIF=mcpdesc.sarif
check "fail-on never: exits 0" status_is 0
check "fail-on never: output exit-code=0" output_is exit-code 0
check "fail-on never: still annotated" out_has '^::error file=examples/weather.json'
check "fail-on never: SARIF still has the 5 results" sarif_results "$ws/mcpdesc.sarif" 5
check "fail-on never: summary counts the errors" summary_has '3 errors, 2 warnings'
action INPUT_PATHS=ts-sdk.json INPUT_PRESET=all INPUT_FAIL_ON=warning
check "preset all + fail-on warning: the dialect warnings fail (exit 1)" status_is 1
check "preset all: the summary names the preset" summary_has 'preset all'
check "no sarif input: no SARIF file, output sarif empty" \
    sh -c '[ ! -e "$1/mcpdesc.sarif" ] && grep -qx "sarif=" "$2"' - "$ws" "$tmp/outputs"
action INPUT_PATHS=ts-sdk.json INPUT_FAIL_ON=warning
check "preset default (recommended) + fail-on warning: passes" status_is 0

# 4. config: the TypeScript-SDK config turns the dialect advice into info; fail-on warning
action INPUT_PATHS=ts-sdk.json INPUT_PRESET=all INPUT_CONFIG=examples/config/typescript-sdk.yaml
check "config: the advice is information, the run passes" status_is 0
check "config: named in the log" grep -q '^config: examples/config/typescript-sdk.yaml' "$tmp/out"
check "config: summary counts 2 infos" summary_has '0 errors, 0 warnings, 2 infos in 1 file'

# 5. rules-tag: a released set; a tag that does not exist is exit 2
action INPUT_PATHS=examples/corpus/notes.json INPUT_RULES_TAG=v0.9.0-rc.9
check "rules-tag: judged by that release" status_is 0
check "rules-tag: the summary names the tag" summary_has 'mcpdesc-mcp v0.9.0-rc.9'
# pinned by digest: the release's own runs, another digest is exit 2 naming both
action INPUT_PATHS=examples/corpus/notes.json \
    INPUT_RULES_TAG=mcpdesc-mcp@v0.9.0-rc.9@sha256:a295fb3c89075540cd0fe668807b8dd929a8ec5b53bb274b8315b1e99d70b4e9
check "rules-tag pinned: judged by that release" status_is 0
check "rules-tag pinned: the summary names the tag" summary_has 'mcpdesc-mcp v0.9.0-rc.9'
action INPUT_PATHS=examples/corpus/notes.json \
    INPUT_RULES_TAG=mcpdesc-mcp@v0.9.0-rc.9@sha256:a295fb3c89075540cd0fe668807b8dd929a8ec5b53bb274b8315b1e99d70b4e0
check "rules-tag pinned to another digest: exits 2" status_is 2
action INPUT_PATHS=examples/corpus/notes.json INPUT_RULES_TAG=v0.0.0
check "unknown rules-tag: exits 2" status_is 2
check "unknown rules-tag: output exit-code=2" output_is exit-code 2

# 6. an input error: a path that does not exist, among good ones
action INPUT_PATHS="examples/corpus/notes.json
no/such/file.json" INPUT_SARIF=mcpdesc.sarif
check "missing path: exits 2" status_is 2
check "missing path: output exit-code=2" output_is exit-code 2
check "missing path: summary lists the input error" summary_has '^- `no/such/file.json` cannot open'
check "missing path: SARIF still written, the input error a result" sarif_results "$ws/mcpdesc.sarif" 1

# 8. more annotations than GitHub shows (4 copies of weather.json: 12 errors): the notice
#    names what exists after the step, never the action's removed temporary file
mkdir -p "$ws/many"
for k in 1 2 3 4; do cp examples/weather.json "$ws/many/w$k.json"; done
notice_line() { grep '^::notice title=mcpdesc::' "$tmp/out"; }
notice_has() { notice_line | grep -q -- "$1"; }
no_temp_named() { ! grep -q "mcpdesc-action\.\|$tmp/runner" "$tmp/out"; }
action INPUT_PATHS=many INPUT_SARIF=mcpdesc.sarif
check "overflow: one notice counts the 2 errors not shown" notice_has '2 errors, .* are not shown'
check "overflow: the notice names the job summary and the SARIF file" \
    notice_has 'the full report: the job summary and the SARIF file mcpdesc.sarif$'
check "overflow: no path under RUNNER_TEMP named" no_temp_named
action INPUT_PATHS=many
check "overflow, no sarif input: the notice names the job summary only" \
    notice_has 'the full report: the job summary$'
action INPUT_PATHS=many INPUT_SARIF=mcpdesc.sarif GITHUB_STEP_SUMMARY=
check "overflow, no step summary: the notice names the SARIF file only" \
    notice_has 'the full report: the SARIF file mcpdesc.sarif$'
check "overflow, no step summary: no markdown file named" no_temp_named
rm -r "$ws/many"

# 12. diff-base: after validate, mcpdesc diff BASE PATH (examples/diff: weather 1.0 -> 1.1,
#     4 errors, 3 warnings, 3 infos, every one placed in 1.1), with the same fail-on
w10=examples/diff/weather-1.0.mcp-description.json
w11=examples/diff/weather-1.1.mcp-description.json
action INPUT_PATHS=$w11 INPUT_DIFF_BASE=$w10 INPUT_SARIF=mcpdesc.sarif
check "diff-base: exits 1 (validate passes, the diff has errors)" status_is 1
check "diff-base: output exit-code=1" output_is exit-code 1
check "diff-base: output diff-exit-code=1" output_is diff-exit-code 1
check "diff-base: the removed tool annotated in NEW" \
    out_has "^::error file=$w11,line=6,col=12,title=diff.tool.removed::"
check "diff-base: the trust change annotated as a warning" \
    out_has "^::warning file=$w11,line=39,col=22,title=diff.tool.annotations-weakened::"
check "diff-base: validate's SARIF still written, no results" sarif_results "$ws/mcpdesc.sarif" 0
check "diff-base: the diff's SARIF beside it, 10 results" sarif_results "$ws/mcpdesc-diff.sarif" 10
check "diff-base: output diff-sarif=mcpdesc-diff.sarif" output_is diff-sarif mcpdesc-diff.sarif
check "diff-base: the diff's report appended to the summary" summary_has "$w11"
check "diff-base: RUNNER_TEMP left clean" runner_temp_clean
action INPUT_PATHS=$w11 INPUT_DIFF_BASE=$w10 INPUT_FAIL_ON=never
check "diff-base, fail-on never: exits 0" status_is 0
check "diff-base, fail-on never: output diff-exit-code=0" output_is diff-exit-code 0
check "diff-base, fail-on never: still annotated" out_has "^::error file=$w11,line=6,"
check "diff-base, no sarif input: output diff-sarif empty" output_is diff-sarif ""
# the same description on both sides: no change; validate's findings still fail the step
action INPUT_PATHS=examples/weather.json INPUT_DIFF_BASE=examples/weather.json
check "diff-base, no change but validate fails: exits 1" status_is 1
check "diff-base, no change: output diff-exit-code=0" output_is diff-exit-code 0
check "diff-base, no change: no diff annotation" sh -c '! grep -q "title=diff\." "$1"' - "$tmp/out"
# refusals: not one path, a base that is not there
action INPUT_PATHS="$w11
examples/corpus" INPUT_DIFF_BASE=$w10
check "diff-base with two paths: exits 2" status_is 2
check "diff-base with two paths: says paths must name one" out_has '^::error title=mcpdesc action::diff-base needs exactly one path'
action INPUT_PATHS=$w11 INPUT_DIFF_BASE=no/such/base.json
check "diff-base missing: exits 2" status_is 2
check "diff-base missing: output diff-exit-code=2" output_is diff-exit-code 2
check "diff-base missing: annotated on the base, not on PATH" out_has '^::error file=no/such/base.json,title=mcpdesc::cannot open'
action INPUT_PATHS=$w11
check "no diff-base: no diff outputs" sh -c '! grep -q "^diff-" "$1"' - "$tmp/outputs"

# 7. paths default to the workspace (a directory search: skipped files counted)
action
check "default paths (.): the examples judged, exit 1 for weather.json" status_is 1
check "default paths: skipped files in the summary" summary_has 'files skipped: no mcpDescription member'

# 11. a TypeScript repository adopted as docs/ci.md says: tsconfig.json with comments (as
#     `tsc --init` writes it), a multi-document YAML file, package.json, one description
#     and a config naming it (`paths:`) and its baseline (`baseline:`), found from the
#     repository root (no config input). The config's paths keep the other files out of
#     the run whatever a directory search makes of them.
ts=$tmp/ts-repo
mkdir -p "$ts/.git" "$ts/src" "$ts/mcp" "$ts/deploy"
printf '{\n  "name": "weather-mcp",\n  "version": "1.4.0",\n  "type": "module",\n  "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}\n}\n' > "$ts/package.json"
cat > "$ts/tsconfig.json" <<'EOF2'
{
  "compilerOptions": {
    /* Visit https://aka.ms/tsconfig to read more about this file */
    "target": "es2022",                                  /* Set the JavaScript language version. */
    "module": "node16",                                  /* Specify what module code is generated. */
    "strict": true,                                      /* Enable all strict type-checking options. */
    // "noUnusedLocals": true,
    "outDir": "./build",
  }
}
EOF2
printf 'apiVersion: v1\nkind: Service\nmetadata: {name: weather-mcp}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: weather-mcp}\n' > "$ts/deploy/k8s.yaml"
printf 'console.log("weather");\n' > "$ts/src/index.ts"
cp tests/data/config/adopt/servers/weather.mcp-description.json "$ts/mcp/weather.mcp-description.json"
cat > "$ts/.mcpdesc.yaml" <<'EOF2'
levels:
  mcp.schema.dialect.recommended-2020-12: info   # the SDK writes draft-07 $schema
fail-on: warning
paths: [mcp/weather.mcp-description.json]
baseline: .mcpdesc-baseline.json
EOF2
# step 2 of the adoption: the baseline, written from the config's paths
(cd "$ts" && env -u MCPDESC_NO_CONFIG "$bin" baseline write .mcpdesc-baseline.json) > "$tmp/out" 2>&1
rc=$?
check "ts repo: baseline write from the config's paths records 4 findings" sh -c \
    '[ "$1" -eq 0 ] && grep -q "^baseline: 4 findings of 1 file recorded in .mcpdesc-baseline.json$" "$2"' - "$rc" "$tmp/out"
ts_action() { action GITHUB_WORKSPACE="$ts" INPUT_PATHS= INPUT_SARIF=mcpdesc.sarif "$@"; }
# the action with the config's paths and baseline (an empty paths input, no baseline input)
unset MCPDESC_NO_CONFIG
ts_action
check "ts repo, config baseline: exits 0 (the recorded findings do not fail it)" status_is 0
check "ts repo, config baseline: output exit-code=0" output_is exit-code 0
check "ts repo: the config's path judged, nothing else" out_has '^0 errors, 0 warnings, 0 infos in 1 file; 4 in the baseline, not shown$'
check "ts repo: named the config found from the root" out_has '^config: .mcpdesc.yaml '
check "ts repo: no annotation" sh -c '! grep -q "^::\(error\|warning\)" "$1"' - "$tmp/out"
check "ts repo: SARIF with the 4 baselined results" sarif_results "$ts/mcpdesc.sarif" 4
# the Action's default input, paths: ., searches the whole repository: tsconfig.json with
# comments and the two-document YAML file do not parse and are skipped (not descriptions),
# package.json has no mcpDescription: green, the description judged against its baseline
ts_action INPUT_PATHS=.
check "ts repo, paths: . (the default): exits 0" status_is 0
check "ts repo, paths: .: only the description judged, the rest skipped" out_has \
    '^0 errors, 0 warnings, 0 infos in 1 file (2 files skipped: not a description: does not parse; 1 file skipped: no mcpDescription member); 4 in the baseline, not shown$'
check "ts repo, paths: .: tsconfig.json is no input error" sh -c '! grep -q "tsconfig.json.*error" "$1"' - "$tmp/out"
# one new finding: a tool added whose name breaks mcp.tool.name.charset
cp tests/data/config/adopt/changed.json "$ts/mcp/weather.mcp-description.json"
ts_action
check "ts repo, one new finding: exits 1" status_is 1
check "ts repo, one new finding: output exit-code=1" output_is exit-code 1
check "ts repo, one new finding: exactly one annotation, the new warning" sh -c \
    '[ "$(grep -c "^::\(error\|warning\)" "$1")" -eq 1 ] && grep -q "^::warning file=mcp/weather.mcp-description.json,line=53,col=15,title=mcp.tool.name.charset::" "$1"' - "$tmp/out"
check "ts repo, one new finding: counted" out_has '^0 errors, 1 warning, 1 info in 1 file; 4 in the baseline, not shown$'
check "ts repo, one new finding: summary counts it" summary_has '0 errors, 1 warning, 1 info in 1 file'
# the baseline input wins over the config's: a baseline written after the change records
# the new finding too, and the run passes
(cd "$ts" && "$bin" baseline write new-baseline.json) > /dev/null 2>&1
ts_action INPUT_BASELINE=new-baseline.json
check "ts repo, baseline input over the config's: exits 0" status_is 0
check "ts repo, baseline input over the config's: everything recorded" \
    out_has '^0 errors, 0 warnings, 0 infos in 1 file; 6 in the baseline, not shown$'
ts_action INPUT_BASELINE=no-such-baseline.json
check "ts repo, baseline input missing: exits 2" status_is 2
check "ts repo, baseline input missing: names it" grep -q 'no-such-baseline.json: error: cannot open' "$tmp/err"
# without paths in the config, an empty paths input is the usual "no input" error
sed -i '/^paths:/d' "$ts/.mcpdesc.yaml"
ts_action
check "ts repo, empty paths input and no paths in the config: exits 2" status_is 2
check "ts repo, no input: says where inputs come from" grep -q 'list them under paths: in the config' "$tmp/err"
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG

# 9. the deps step, with apt-get and sudo stand-ins that record their arguments (no
#    network): install-deps true asks for exactly the build packages; false asks nothing
mkdir -p "$tmp/apt"
for c in apt-get sudo; do
    printf '#!/bin/sh\necho "%s $*" >> "%s"\n[ %s = sudo ] && exec "$@"\nexit 0\n' \
        "$c" "$tmp/apt.log" "$c" > "$tmp/apt/$c"
    chmod +x "$tmp/apt/$c"
done
: > "$tmp/apt.log"
env GITHUB_ACTION_PATH="$act" INPUT_INSTALL_DEPS=true PATH="$tmp/apt:$PATH" \
    sh "$act/tools/github-action.sh" deps > "$tmp/out" 2>&1
rc=$?
check "deps: exits 0" status_is 0
check "deps: apt-get update, then install of the build packages only" sh -c \
    'grep -q "^apt-get update" "$1" && grep -qx "apt-get install -y -qq --no-install-recommends $2" "$1"' - \
    "$tmp/apt.log" "$(sed -n 's/^BUILD_PKGS="\(.*\)"$/\1/p' tools/github-action.sh)"
check "deps: nothing of the test toolchain (clang, check, llvm)" sh -c \
    '! grep -E " (clang|check|llvm-14|json-schema-test-suite)( |$)" "$1"' - "$tmp/apt.log"
check "deps: build/.deps-ok made (make will not run tools/install-deps.sh)" [ -f "$act/build/.deps-ok" ]
rm -f "$act/build/.deps-ok"
: > "$tmp/apt.log"
env GITHUB_ACTION_PATH="$act" INPUT_INSTALL_DEPS=false PATH="$tmp/apt:$PATH" \
    sh "$act/tools/github-action.sh" deps > "$tmp/out" 2>&1
rc=$?
check "deps, install-deps false: exits 0" status_is 0
check "deps, install-deps false: says so" out_has 'install-deps is false'
check "deps, install-deps false: no apt-get" [ ! -s "$tmp/apt.log" ]
check "deps, install-deps false: build/.deps-ok made" [ -f "$act/build/.deps-ok" ]

# 10. action.yml: composite; every input reaches the script as INPUT_*; the apt packages
#     are packages tools/install-deps.sh installs
check "action.yml: a composite action running tools/github-action.sh deps and run" sh -c \
    'grep -q "^  using: composite$" action.yml && grep -q "tools/github-action.sh\" deps$" action.yml && grep -q "tools/github-action.sh\" run$" action.yml'
inputs=$(sed -n '/^inputs:/,/^outputs:/s/^  \([a-z-]*\):$/\1/p' action.yml)
for i in $inputs; do
    var=INPUT_$(echo "$i" | tr 'a-z-' 'A-Z_')
    check "action.yml: input $i is passed as $var" \
        grep -q "^        $var: \${{ inputs.$i }}$" action.yml
    check "tools/github-action.sh reads $var" grep -q "$var" tools/github-action.sh
    # the README's list of the inputs (one paragraph: "inputs `paths`, ...") names it
    check "README.md lists input $i" sh -c \
        'tr "\n" " " < README.md | grep -o "inputs \`[^)]*)" | grep -q "\`$1\`"' - "$i"
done
check "action.yml: outputs exit-code and sarif from the validate step" sh -c \
    'grep -q "steps.validate.outputs.exit-code" action.yml && grep -q "steps.validate.outputs.sarif" action.yml'
build_pkgs=$(sed -n 's/^BUILD_PKGS="\(.*\)"$/\1/p' tools/github-action.sh)
# the action's packages are among those `make deps` (install-deps.sh build) installs
all_pkgs=$(sed -n 's/^BUILD_PKGS="\(.*\)"$/\1/p' tools/install-deps.sh)
for p in $build_pkgs; do
    check "apt package $p is one tools/install-deps.sh build installs" \
        sh -c 'echo " $2 " | grep -q " $1 "' - "$p" "$all_pkgs"
done
check "the build packages are named" [ -n "$build_pkgs" ]

testlib_finish
