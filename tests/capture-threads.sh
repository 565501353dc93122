#!/bin/sh
# capture-threads.sh BINARY FAKE-SERVER - `capture -j N` for a binary built with
# ThreadSanitizer (make test-threads): sessions on several threads at once, over stdio
# (each server's stderr relayed by its own thread, written in pieces) and Streamable
# HTTP (libcurl on several threads), with a server that answers another version than
# asked (the job list is updated while other sessions run). Any data race makes TSan
# exit 66; the description must be byte-identical to -j1's and to the golden file.
set -u
fake=${2:?usage: sh tests/capture-threads.sh BINARY FAKE-SERVER}
case $fake in /*) ;; *) fake="$(pwd)/$fake" ;; esac
. "$(dirname "$0")/testlib.sh"
testlib_setup capture-threads "$1"
exp=$(pwd)/tests/capture
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(pwd)/tests/tsan.supp ${TSAN_OPTIONS:-}"
http_pid=
trap '[ -n "$http_pid" ] && kill "$http_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# run NAME GOLDEN ARGS...: -j1 and -j5, same bytes as GOLDEN, no race
run() {
    name=$1 golden=$2
    shift 2
    for j in 1 5; do
        "$bin" capture -j$j --date 2026-01-01 "$@" >"$tmp/out" 2>"$tmp/err"
        st=$?
        if [ "$st" = 66 ] || grep -q ThreadSanitizer "$tmp/err"; then sed -n '1,40p' "$tmp/err" >&2; fi
        check "$name -j$j: no data race (exit $st)" [ "$st" = 0 ]
        check "$name -j$j: the golden description" cmp -s "$tmp/out" "$exp/$golden"
    done
}
run "stdio" all-versions.json -- "$fake" --stderr-pieces 20
run "stdio, another version answered" answer-2025-03-26.json -- "$fake" --answer-version 2025-03-26
"$fake" --http 0 --port-file "$tmp/port" --sse >/dev/null 2>&1 &
http_pid=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
run "http" all-versions.json --url "http://127.0.0.1:$(cat "$tmp/port")/mcp"
testlib_finish
