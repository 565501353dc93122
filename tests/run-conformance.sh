#!/bin/sh
# run-conformance.sh BINARY - judge every conformance fixture with BINARY (an mcpdesc
# build, e.g. build/mcpdesc or build/san/mcpdesc) and the shipped rule set, and compare
# the findings with each fixture's x-expect: `BINARY rules test --expect-only rules-yaml`,
# the same comparison `rules test` makes for any set's fixtures (src/author/rules_expect.c),
# so there is one implementation. Prints "ok FILE" or "FAIL FILE" and what failed per
# fixture, then "N passed, M failed". Runs from the repository root; builds nothing.
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh tests/run-conformance.sh BINARY" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
if [ ! -x "$bin" ]; then
    echo "run-conformance: cannot run $bin" >&2
    exit 2
fi
exec "$bin" rules test --expect-only --fixtures conformance rules-yaml
