#!/bin/sh
# compare.sh OLD NEW FILE [N] - two builds of mcpdesc on one description, in one run:
# `validate --format json` with the shipped rules (rules-yaml/ of this checkout), N runs
# of each (default 5), alternating so that a busy machine hurts both alike; prints each
# build's median wall time, the ratio new/old, and checks that the two reports are identical. For a change
# that must not slow mcpdesc down (docs/bench.md, "Refactors").
#   sh tools/bench/compare.sh /tmp/old/build/mcpdesc build/mcpdesc build/bench/tools-10000.json
set -u
old=$1 new=$2 file=$3 n=${4:-5}
rules="$(cd "$(dirname "$0")/../.." && pwd)/rules-yaml"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
for i in $(seq $n); do
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    s=$(date +%s.%N); "$bin" validate --rules "$rules" --format json "$file" > "$tmp/$b.out" 2>/dev/null; e=$(date +%s.%N)
    echo "$b $(echo "$e - $s" | bc)"
  done
done | sort | awk '{t[$1]=t[$1]" "$2} END {for (b in t) print b, t[b]}' > "$tmp/times"
while read b rest; do
  med=$(echo $rest | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$b median ${med} s  (runs:$rest)"
  echo "$med" > "$tmp/$b.median"
done < "$tmp/times"
# the ratio is the result: new / old, measured in this one run
echo "new/old $(echo "scale=3; $(cat "$tmp/new.median") / $(cat "$tmp/old.median")" | bc)"
if cmp -s "$tmp/old.out" "$tmp/new.out"; then echo "reports identical"; else echo "REPORTS DIFFER"; exit 1; fi
