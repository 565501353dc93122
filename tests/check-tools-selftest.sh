#!/bin/sh
# check-tools-selftest.sh - the two layout checks must fail on what they are there to
# catch: tools/check-layers.sh on a copy of src/ with an include against the layer order,
# one without a folder, and a file outside every layer; tools/check-symbols.sh on an
# archive with a global symbol that has no module prefix. Prints ok/FAIL per case, then
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
expect_fail() { # NAME WANT-TEXT COMMAND...
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    if "$@" > "$tmp/out" 2>&1; then
        echo "FAIL $n $name: passed"
        failed=$((failed + 1))
    elif ! grep -qF -- "$want" "$tmp/out"; then
        echo "FAIL $n $name: no line with '$want':"
        sed 's/^/      | /' "$tmp/out" | head -5
        failed=$((failed + 1))
    else
        echo "ok $n $name"
    fi
}
plant() { # a fresh copy of src/, then FILE gets LINE appended
    rm -rf "$tmp/src" && cp -R src "$tmp/src" && printf '%s\n' "$2" >> "$tmp/src/$1"
}
plant base/util.c '#include "judge/eval.h"'
expect_fail "base includes judge" 'the base layer may include only: base' sh tools/check-layers.sh "$tmp/src"
plant capture/rpc.c '#include "doc/doc.h"'
expect_fail "capture includes doc" 'the capture layer may include only: base capture' sh tools/check-layers.sh "$tmp/src"
plant judge/eval.c '#include "lint.h"'
expect_fail "an include without its folder" 'names no layer folder' sh tools/check-layers.sh "$tmp/src"
plant judge/eval.c ''
: > "$tmp/src/stray.c"
expect_fail "a file outside every layer" 'outside every layer' sh tools/check-layers.sh "$tmp/src"
n=$((n + 1))
if sh tools/check-layers.sh src > "$tmp/out" 2>&1; then echo "ok $n the real tree passes"; else
    echo "FAIL $n the real tree:"; sed 's/^/      | /' "$tmp/out" | head; failed=$((failed + 1)); fi

# check-symbols: an archive of the real library plus one unprefixed global
lib=${1:-build/libmcpdesc.a}
printf 'int leaked_global_counter;\nint util_fine(void) { return leaked_global_counter; }\n' > "$tmp/bad.c"
if ${CC:-cc} -c "$tmp/bad.c" -o "$tmp/bad.o" && cp "$lib" "$tmp/lib.a" && ar rcs "$tmp/lib.a" "$tmp/bad.o"; then
    expect_fail "an unprefixed global symbol" 'leaked_global_counter' sh tools/check-symbols.sh "$tmp/lib.a"
else
    n=$((n + 1)); echo "FAIL $n could not build the planted archive"; failed=$((failed + 1))
fi
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
