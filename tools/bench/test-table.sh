#!/bin/sh
# test-table.sh - smoke test of `make bench`'s table code (`make test-bench-table`, a
# second or two; docs/bench.md). Not a benchmark: nothing here is timed against a goal.
#  1. tools/bench/table.py on known samples (tools/bench/testdata/samples) prints exactly
#     tools/bench/testdata/table.expected: the medians (the lower middle of an even count),
#     the ratios against the floor, every goal at its edge (3.00x at 1k, 0.10x Spectral,
#     0.80x the walk floor, 2.00 MiB of WebAssembly code: met) and just past it (2.10x at
#     10k, 6.40x the file, 1.33x the parse, 0.90 cores of 2, the WebAssembly build 2.10x
#     native at 10k: NOT MET, by how much).
#  2. tools/bench/spawn.py reports a child's exit status, and a CPU time and RSS.
#  3. tools/bench/run.sh refuses a bad setting with status 2 before running anything.
# Exit 0 when all pass, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-bench-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "test-table: FAIL: $*"; fail=1; }

python3 tools/bench/table.py tools/bench/testdata/samples >"$tmp/table" 2>&1 ||
    bad "table.py exited with $? on the test samples"
diff -u tools/bench/testdata/table.expected "$tmp/table" >"$tmp/diff" ||
    { bad "the table differs from tools/bench/testdata/table.expected:"; cat "$tmp/diff"; }
printf 'run 1000 floor 1 2 x 4\n' >"$tmp/malformed"
st=0
python3 tools/bench/table.py "$tmp/malformed" >/dev/null 2>&1 || st=$?
[ "$st" = 2 ] || bad "table.py on a malformed line: status $st, expected 2"

m=$(python3 tools/bench/spawn.py - "$tmp/err" sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo oops >&2; exit 3') ||
    bad "spawn.py failed"
echo "$m" | awk '{ exit !(NF == 5 && $1 > 0 && $2 + $3 > 0 && $4 > 0 && $5 == 3) }' ||
    bad "spawn.py printed '$m', expected WALL USER SYS RSS and status 3"
grep -q oops "$tmp/err" || bad "spawn.py did not send standard error to its ERR file"

st=0
BENCH_REPS=x MCPDESC=/nonexistent sh tools/bench/run.sh >/dev/null 2>"$tmp/err" || st=$?
{ [ "$st" = 2 ] && grep -q BENCH_REPS "$tmp/err"; } || bad "run.sh with BENCH_REPS=x: status $st, $(cat "$tmp/err")"

[ "$fail" = 0 ] && echo "test-table: table, spawn and settings checks pass"
exit "$fail"
