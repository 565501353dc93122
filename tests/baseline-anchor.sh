#!/bin/sh
# baseline-anchor.sh BINARY - a baseline holds wherever the run starts (docs/ci.md): files
# are named relative to the baseline's directory, so a baseline written at a repository's
# root matches a CI step run from a subdirectory, with relative or absolute paths; and a
# baseline of other files says that it matched none of them. The names written into the
# baseline are checked exactly: consistent but wrong names would still match each other.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup baseline-anchor "$@"
repo=$tmp/repo
mkdir -p "$repo/servers" "$repo/sub/deep"
cp tests/data/baseline/server.json "$repo/servers/weather.json"
(cd "$repo" && "$bin" baseline write .mcpdesc-baseline.json servers/ > /dev/null) || exit 1
# files DIR BASELINE: the distinct "file" names of BASELINE, one line each
files() { sed -n 's/^ *"file": "\(.*\)",*$/\1/p' "$1" | sort -u; }
check "written at the root: servers/weather.json" [ "$(files "$repo/.mcpdesc-baseline.json")" = servers/weather.json ]
(cd "$repo/sub/deep" && "$bin" baseline write ../../from-deep.json ../../servers/ > /dev/null)
check "written from a subdirectory: named from the baseline's directory" \
    [ "$(files "$repo/from-deep.json")" = servers/weather.json ]
(cd "$repo/sub/deep" && "$bin" baseline write ../in-sub.json "$repo/servers/weather.json" > /dev/null)
check "a baseline in sub/ names the file ../servers/weather.json" \
    [ "$(files "$repo/sub/in-sub.json")" = ../servers/weather.json ]
run() { # run DIR ARGS...: validate from DIR; $out, $st
    dir=$1
    shift
    out=$(cd "$dir" && "$bin" validate "$@" 2>&1)
    st=$?
}
clean() { [ "$st" -eq 0 ] && printf '%s\n' "$out" | grep -q '3 in the baseline, not shown'; }
run "$repo" --baseline .mcpdesc-baseline.json servers/
check "at the root: every finding baselined" clean
run "$repo/sub/deep" --baseline ../../.mcpdesc-baseline.json ../../servers/
check "from a subdirectory, relative paths" clean
run "$repo/sub/deep" --baseline "$repo/.mcpdesc-baseline.json" "$repo/servers"
check "from a subdirectory, absolute paths" clean
run "$repo/servers" --baseline ../.mcpdesc-baseline.json .
check "from the servers directory itself" clean
run "$repo" --baseline .mcpdesc-baseline.json servers/../servers/weather.json
check "a path with .. in it" clean
cp "$repo/servers/weather.json" "$repo/other.json"
run "$repo" --baseline .mcpdesc-baseline.json other.json
check "a baseline of other files says it matched none" \
    sh -c 'printf "%s\n" "$1" | grep -q "^baseline: none of the 3 findings of .mcpdesc-baseline.json is in a file judged"' - "$out"
testlib_finish
