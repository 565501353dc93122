#!/bin/sh
# config-discovery.sh BINARY - where `validate` finds .mcpdesc.yaml (docs/config.md): from
# the working directory upward, the nearest one wins, the search stops at a repository
# root (a directory holding .git), --no-config and MCPDESC_NO_CONFIG turn it off,
# --config names one, both names in one directory are refused.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup config-discovery "$@"
fixture=$(pwd)/tests/data/config/ts-sdk.json
# --preset strict: the fixture's rule (mcp.schema.dialect.recommended-2020-12) is strict-only,
# and these configs change its level
# the search is what is tested here: testlib sets MCPDESC_NO_CONFIG for every other test
unset MCPDESC_NO_CONFIG

# outer/.mcpdesc.yaml (above the repository: never read), outer/repo/.git,
# outer/repo/.mcpdesc.yaml, outer/repo/sub/deeper/, outer/repo/other/.mcpdesc.yml
mkdir -p "$tmp/outer/repo/.git" "$tmp/outer/repo/sub/deeper" "$tmp/outer/repo/other" \
    "$tmp/outer/repo/both" "$tmp/norepo/a/b"
printf 'levels: {mcp.schema.dialect.recommended-2020-12: error}\n' > "$tmp/outer/.mcpdesc.yaml"
printf 'levels: {mcp.schema.dialect.recommended-2020-12: info}\nfail-on: warning\n' \
    > "$tmp/outer/repo/.mcpdesc.yaml"
printf 'levels: {mcp.schema.dialect.recommended-2020-12: off}\n' > "$tmp/outer/repo/other/.mcpdesc.yml"
printf 'fail-on: info\n' > "$tmp/outer/repo/both/.mcpdesc.yaml"
printf 'fail-on: info\n' > "$tmp/outer/repo/both/.mcpdesc.yml"
printf 'levels: {mcp.schema.dialect.recommended-2020-12: info}\n' > "$tmp/norepo/.mcpdesc.yaml"

run() { # run DIR [ENV=V] ARGS...: validate from DIR; $out, $st
    dir=$1
    shift
    out=$(cd "$dir" && env "$@" 2>&1)
    st=$?
}
has() { printf '%s\n' "$out" | grep -qF -- "$1"; }

run "$tmp/outer/repo/sub/deeper" "$bin" validate --preset strict "$fixture"
check "found two levels up, at the repository root" has 'config: ../../.mcpdesc.yaml (1 level changed'
check "its levels apply (infos, exit 0 with fail-on warning)" \
    sh -c "[ $st -eq 0 ] && printf '%s\n' \"\$1\" | grep -q '0 warnings, 2 infos'" - "$out"
run "$tmp/outer/repo" "$bin" validate --preset strict "$fixture"
check "found in the working directory" has 'config: .mcpdesc.yaml ('
run "$tmp/outer/repo/other" "$bin" validate --preset strict "$fixture"
check "the nearest wins (.mcpdesc.yml)" has 'config: .mcpdesc.yml ('
check "and only it is read (one config per run)" has '0 errors, 0 warnings, 0 infos'
run "$tmp/outer/repo/both" "$bin" validate --preset strict "$fixture"
check "both names in one directory: exit 2" sh -c "[ $st -eq 2 ]"
check "both names in one directory: says so" has 'both .mcpdesc.yaml and .mcpdesc.yml exist'
rm -rf "$tmp/outer/repo/.mcpdesc.yaml"
run "$tmp/outer/repo/sub" "$bin" validate --preset strict "$fixture"
check "the search stops at .git: the config above is not read" sh -c "! printf '%s\n' \"\$1\" | grep -q '^config:'" - "$out"
check "and the run is as without config" has '0 errors, 2 warnings, 0 infos'
run "$tmp/norepo/a/b" "$bin" validate --preset strict "$fixture"
check "without a repository root, the search goes up to /" has 'config: ../../.mcpdesc.yaml ('
run "$tmp/norepo/a/b" "$bin" validate --preset strict --no-config "$fixture"
check "--no-config: no config" sh -c "! printf '%s\n' \"\$1\" | grep -q '^config:'" - "$out"
run "$tmp/norepo/a/b" MCPDESC_NO_CONFIG=1 "$bin" validate --preset strict "$fixture"
check "MCPDESC_NO_CONFIG=1: no config" sh -c "! printf '%s\n' \"\$1\" | grep -q '^config:'" - "$out"
run "$tmp/norepo/a/b" MCPDESC_NO_CONFIG=0 "$bin" validate --preset strict "$fixture"
check "MCPDESC_NO_CONFIG=0: the search is on" has 'config: ../../.mcpdesc.yaml ('
run "$tmp/norepo/a/b" MCPDESC_NO_CONFIG=1 "$bin" validate --preset strict --config "$tmp/outer/repo/other/.mcpdesc.yml" "$fixture"
check "MCPDESC_NO_CONFIG=1 with --config: the named one is used" has "other/.mcpdesc.yml ("
run "$tmp/norepo/a/b" "$bin" validate --preset strict --config "$tmp/outer/repo/other/.mcpdesc.yml" "$fixture"
check "--config wins over the search" has "other/.mcpdesc.yml ("
printf 'levles: {}\n' > "$tmp/norepo/a/.mcpdesc.yaml"
run "$tmp/norepo/a/b" "$bin" validate --preset strict "$fixture"
check "a broken config found by the search: exit 2 at its position" \
    sh -c "[ $st -eq 2 ] && printf '%s\n' \"\$1\" | grep -qF '../.mcpdesc.yaml:1:1: error: unknown key'" - "$out"
testlib_finish
