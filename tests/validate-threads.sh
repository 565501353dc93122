#!/bin/sh
# validate-threads.sh BINARY - `validate -j N` on one shared rule set, for a binary built
# with ThreadSanitizer (make test-threads): threads judge files at the same time, and
# the schema predicates share the rule set's JSON Schema registry, which compiles and
# caches meta-schemas (each thread's first schema check races to fill the cache) and
# reads schema-map files under its own lock. Any data race makes TSan exit 66; the
# report must be byte-identical to -j1's, and so must the exit status. The inputs are
# the conformance fixtures, the shipped examples and 24 generated descriptions of 40
# tools each (tools/bench/gen-description.py, fixed seeds), copied twice so that two
# threads often judge the same kinds of schema at once.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup validate-threads "$@"
mkdir -p "$tmp/gen"
i=0
while [ $i -lt 24 ]; do
    python3 tools/bench/gen-description.py 40 "$tmp/gen/d$i.json" --seed=$((7000 + i)) >/dev/null || exit 2
    i=$((i + 1))
done
cp -r "$tmp/gen" "$tmp/gen2"
inputs="conformance examples $tmp/gen $tmp/gen2"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(pwd)/tests/tsan.supp ${TSAN_OPTIONS:-}"
"$bin" validate -j1 --format json $inputs > "$tmp/one.json" 2> "$tmp/one.err"
one=$?
check "-j1 runs (exit $one)" [ "$one" -le 1 ]
for j in 2 4 8; do
    for rep in 1 2; do
        "$bin" validate -j$j --format json $inputs > "$tmp/many.json" 2> "$tmp/many.err"
        st=$?
        if [ "$st" = 66 ] || grep -q ThreadSanitizer "$tmp/many.err"; then
            sed -n '1,40p' "$tmp/many.err" >&2
        fi
        check "-j$j run $rep: no data race, same exit status ($st)" [ "$st" = "$one" ]
        check "-j$j run $rep: the same report as -j1" cmp -s "$tmp/one.json" "$tmp/many.json"
    done
done
# One large file: its items are judged on -j threads (eval.h: workers), blocks of
# consecutive items taken in turn, each thread with its own context, all sharing the
# document's lazily built caches (doc.c: child indexes, line table). Same report as -j1.
# Over 1 MiB, so that with two threads its text is parsed on two threads too (doc_json.c).
python3 tools/bench/gen-description.py 500 "$tmp/large.json" --seed=7100 >/dev/null || exit 2
# an object of 32 or more members gets an index of its keys on first lookup, by whichever
# thread gets there first: 40 more members in each tool's input schema
python3 - "$tmp/large.json" <<'PY' || exit 2
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tools"]:
    if isinstance(t.get("inputSchema"), dict):
        t["inputSchema"].update({"x-k%d" % i: i for i in range(40)})
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
check "the large file is over 1 MiB" [ "$(wc -c < "$tmp/large.json")" -gt 1048576 ]
"$bin" validate -j1 --format json "$tmp/large.json" > "$tmp/large-one.json" 2> "$tmp/large-one.err"
one=$?
check "one large file, -j1 runs (exit $one)" [ "$one" -le 1 ]
for j in 2 3; do
    "$bin" validate -j$j --format json "$tmp/large.json" > "$tmp/large-many.json" 2> "$tmp/large-many.err"
    st=$?
    if [ "$st" = 66 ] || grep -q ThreadSanitizer "$tmp/large-many.err"; then
        sed -n '1,40p' "$tmp/large-many.err" >&2
    fi
    check "one large file, -j$j: no data race, same exit status ($st)" [ "$st" = "$one" ]
    check "one large file, -j$j: the same report as -j1" cmp -s "$tmp/large-one.json" "$tmp/large-many.json"
done
testlib_finish
