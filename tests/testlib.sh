# testlib.sh - sourced by the tests/validate-*.sh scripts that print one numbered
# ok/FAIL line per check (after `set -u`, with the script's "$@"):
#   testlib_setup NAME "$@"   the BINARY argument (else usage, exit 2; $TESTLIB_ARG names
#                             it in the usage line, BINARY by default), made absolute in
#                             $bin; the working directory becomes the repository root;
#                             $tmp is a new directory, removed on exit
#   check NAME CONDITION...   runs CONDITION: "ok N NAME" or "FAIL N NAME"
#   testlib_finish            prints "N passed, N failed"; returns 1 if any failed
# no .mcpdesc.yaml above the checkout changes a test (docs/config.md)
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG
testlib_setup() {
    testlib_name=$1
    shift
    if [ $# -ne 1 ]; then
        echo "usage: sh tests/$testlib_name.sh ${TESTLIB_ARG:-BINARY}" >&2
        exit 2
    fi
    bin=$1
    case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
    cd "$(dirname "$0")/.." || exit 2
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-$testlib_name.XXXXXX") || exit 2
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 2' HUP INT TERM
    failed=0
    n=0
}

check() {
    n=$((n + 1))
    check_name=$1
    shift
    if "$@"; then
        echo "ok $n $check_name"
    else
        echo "FAIL $n $check_name"
        failed=$((failed + 1))
    fi
}

testlib_finish() {
    echo "$((n - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
}
