#!/bin/sh
# capture.sh MCPDESC FAKE-SERVER - the capture benchmark (issue 18 item 8, part of
# `make bench`, not of `make check`): a server that accepts four protocol versions and
# takes BENCH_CAPTURE_SLEEP seconds (default 1) to answer `initialize`
# (tests/fake-mcp-server.c --sleep-init), captured serially (-j1) and in parallel (-j4).
# Prints both wall times (medians of BENCH_CAPTURE_REPS runs, default 3) and whether
# the parallel run took about the time of one session rather than the sum (target: under
# 2 x the sleep while serial takes at least 4 x). The two descriptions must be identical:
# exit 1 when they differ, 2 when something could not run; a missed target only prints
# NOT MET.
set -eu
bin=${1:?usage: capture.sh MCPDESC FAKE-SERVER}
fake=${2:?usage: capture.sh MCPDESC FAKE-SERVER}
sleep_s=${BENCH_CAPTURE_SLEEP:-1}
reps=${BENCH_CAPTURE_REPS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-bench-capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
four="--protocol-version 2024-11-05 --protocol-version 2025-03-26 --protocol-version 2025-06-18 --protocol-version 2025-11-25"

# run J: one capture with -jJ; prints its wall time in seconds
run() {
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$bin" capture -j"$1" $four -o "$tmp/out-j$1.json" -- "$fake" --sleep-init "$sleep_s" \
        2>"$tmp/err-j$1" || { echo "bench-capture: capture -j$1 failed:" >&2; cat "$tmp/err-j$1" >&2; exit 2; }
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$tmp/t1"
: >"$tmp/t4"
i=0
while [ $i -lt "$reps" ]; do
    run 1 >>"$tmp/t1"
    run 4 >>"$tmp/t4"
    i=$((i + 1))
done
serial=$(median <"$tmp/t1")
parallel=$(median <"$tmp/t4")
echo "capture, 4 versions, ${sleep_s} s per initialize (median of $reps):"
echo "  serial   (-j1): ${serial} s"
echo "  parallel (-j4): ${parallel} s"
if ! cmp -s "$tmp/out-j1.json" "$tmp/out-j4.json"; then
    echo "bench-capture: -j1 and -j4 wrote different descriptions" >&2
    exit 1
fi
echo "  descriptions identical"
if awk -v s="$serial" -v p="$parallel" -v z="$sleep_s" 'BEGIN { exit !(p < 2 * z && s >= 4 * z) }'; then
    echo "  target (parallel about one session, serial the sum): met"
else
    echo "  target (parallel about one session, serial the sum): NOT MET"
fi
