#!/bin/sh
# run-corpus.sh BINARY - snapshot tests of the realistic corpus: runs the shipped rule set
# (--preset all: every rule)
# on every examples/corpus/NAME.json and compares the text report (no colour) with
# tests/corpus/NAME.expected. Each snapshot was reviewed diagnostic by diagnostic, as a
# server author would (a false positive is a bug in the rule, fixed in the rule).
#   sh tests/run-corpus.sh build/mcpdesc            compare (prints ok/FAIL per file)
#   sh tests/run-corpus.sh --update build/mcpdesc   rewrite the snapshots (review the diff!)
# Runs from the repository root; prints "N passed, N failed" and exits 1 on any failure.
set -u
update=0
if [ "${1-}" = "--update" ]; then
    update=1
    shift
fi
if [ $# -ne 1 ]; then
    echo "usage: sh tests/run-corpus.sh [--update] BINARY" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
if [ ! -x "$bin" ]; then
    echo "run-corpus: cannot run $bin" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-corpus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

passed=0
failed=0
for doc in examples/corpus/*.json; do
    name=$(basename "$doc" .json)
    expected=tests/corpus/$name.expected
    NO_COLOR=1 "$bin" validate --rules rules-yaml --preset all --color never "$doc" > "$tmp/out" 2> "$tmp/err"
    status=$?
    sed -i 's/sha256:[0-9a-f]\{64\}/sha256:DIGEST/g' "$tmp/out" # changes with every rule edit
    echo "exit status $status" >> "$tmp/out"
    if [ -s "$tmp/err" ]; then
        sed 's/^/stderr: /' "$tmp/err" >> "$tmp/out"
    fi
    if [ $update -eq 1 ]; then
        cp "$tmp/out" "$expected"
    fi
    if [ -f "$expected" ] && cmp -s "$tmp/out" "$expected"; then
        echo "ok $doc"
        passed=$((passed + 1))
    else
        echo "FAIL $doc"
        if [ -f "$expected" ]; then
            diff -u "$expected" "$tmp/out" | sed 's/^/    /'
        else
            echo "    no snapshot $expected (sh tests/run-corpus.sh --update BINARY writes it; review it)"
        fi
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
