#!/bin/sh
# run-cli.sh BINARY - golden-file tests of the mcpdesc command line.
# Each case is a directory tests/cli/<case>/ holding
#   args    the arguments, one per line (an empty file: no argument)
#   stdin   optional: fed to the command (else /dev/null)
#   stdout  optional: the exact expected standard output (absent: not compared)
#   stderr  optional: the exact expected standard error (absent: not compared)
#   status  the expected exit status
# Rule-set digests (sha256:<64 hex>) are compared as sha256:DIGEST.
# Cases run from the repository root. Prints ok/FAIL per case, then "N passed, N failed".
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh tests/run-cli.sh BINARY" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
if [ ! -x "$bin" ]; then
    echo "run-cli: cannot run $bin" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# run_case DIR: runs the binary with DIR/args; sets $status, fills $tmp/out, $tmp/err.
run_case() {
    dir=$1
    set --
    if [ -f "$dir/args" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            set -- "$@" "$line"
        done < "$dir/args"
    fi
    input=/dev/null
    [ -f "$dir/stdin" ] && input="$dir/stdin"
    "$bin" "$@" < "$input" > "$tmp/out" 2> "$tmp/err"
    status=$?
    # the rule set's digest changes with every rule edit: goldens say sha256:DIGEST
    sed -i 's/sha256:[0-9a-f]\{64\}/sha256:DIGEST/g' "$tmp/out" "$tmp/err"
}

# show LABEL FILE: FILE's first lines, indented.
show() {
    echo "    $1:"
    head -n 20 "$2" | sed 's/^/      | /'
}

passed=0
failed=0
for case_dir in tests/cli/*/; do
    case_dir=${case_dir%/}
    [ -f "$case_dir/status" ] || continue
    run_case "$case_dir"
    want=$(tr -d ' \n' < "$case_dir/status")
    problems=""
    [ "$status" = "$want" ] || problems="$problems status"
    for stream in stdout stderr; do
        actual="$tmp/out"
        [ "$stream" = stderr ] && actual="$tmp/err"
        if [ -f "$case_dir/$stream" ] && ! cmp -s "$case_dir/$stream" "$actual"; then
            problems="$problems $stream"
        fi
    done
    if [ -z "$problems" ]; then
        echo "ok $case_dir"
        passed=$((passed + 1))
    else
        echo "FAIL $case_dir"
        case $problems in *status*) echo "    exit status $status, expected $want" ;; esac
        for stream in stdout stderr; do
            actual="$tmp/out"
            [ "$stream" = stderr ] && actual="$tmp/err"
            case $problems in
            *$stream*)
                echo "    $stream differs (- expected, + actual):"
                diff -u "$case_dir/$stream" "$actual" | tail -n +3 | head -n 40 | sed 's/^/      /'
                ;;
            esac
        done
        case $problems in *stderr*) ;; *) [ -s "$tmp/err" ] && show stderr "$tmp/err" ;; esac
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
