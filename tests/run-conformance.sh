#!/bin/sh
# run-conformance.sh BINARY - run every conformance fixture against BINARY (an mcpdesc
# build, e.g. build/mcpdesc or build/san/mcpdesc) with the runner built next to it
# ($(dirname BINARY)/tests/conformance-check, made by `make test-conformance`).
# Runs from the repository root; builds nothing itself.
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh tests/run-conformance.sh BINARY" >&2
    exit 2
fi
bin=$1
check="$(dirname "$bin")/tests/conformance-check"
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
case $check in /*) ;; *) check="$here/$check" ;; esac
cd "$(dirname "$0")/.." || exit 2
if [ ! -x "$check" ]; then
    echo "run-conformance: $check is not built (make test-conformance builds it)" >&2
    exit 2
fi
exec "$check" "$bin" conformance
