#!/bin/sh
# validate-timing.sh BINARY - `validate --timing`: the report on standard output is the
# same as without it (for -j1 and -j2); standard error holds a header, one line per
# rule that ran (each a rule id of `rules list`, slowest first, no rule twice; a rule
# excluded by --skip appears only marked "(yield only)": it ran because a reported rule
# yields to it, and it is one that some shipped rule yields to), the resolution line and
# a total that is the sum of the lines.
# Times differ between runs, so the test checks the table's shape, never a figure.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup validate-timing "$@"
inputs="conformance tests/cli/jobs-parallel/docs"

"$bin" rules list --format json | python3 -c '
import json, sys
for r in json.load(sys.stdin)["rules"]: print(r["id"])' > "$tmp/ids" || exit 2
# the rules some rule yields to (rules dump --format json lists each rule's yields-to)
"$bin" rules dump --format json | python3 -c '
import json, sys
for r in json.load(sys.stdin)["rules"]:
    for y in r.get("yields-to") or []: print(y)' > "$tmp/yielded" || exit 2
"$bin" validate --format json $inputs > "$tmp/plain.json" 2> /dev/null
plain=$?
for j in 1 2; do
    "$bin" validate --timing -j$j --skip 'mcp.tool.name.*' --format json $inputs \
        > "$tmp/timed.json" 2> "$tmp/err"
    st=$?
    "$bin" validate -j$j --skip 'mcp.tool.name.*' --format json $inputs > "$tmp/want.json" 2> /dev/null
    check "-j$j: the same exit status" [ "$st" = "$plain" ]
    check "-j$j: the same report" cmp -s "$tmp/timed.json" "$tmp/want.json"
    check "-j$j: the timing table" python3 - "$tmp/err" "$tmp/ids" "$tmp/yielded" <<'PY'
import fnmatch, re, sys
lines = open(sys.argv[1]).read().splitlines()
ids = set(open(sys.argv[2]).read().split())
yielded = set(open(sys.argv[3]).read().split())
ok = lines and lines[0].split()[:3] == ["rule", "time", "(ms)"]
rows = [l.split() for l in lines[1:-2]]
times = [float(r[1]) for r in rows]
names = [r[0] for r in rows]
ok = ok and len(rows) > 10 and all(x in ids for x in names) and len(set(names)) == len(names)
# a skipped rule runs only for a yield, and says so; every other row is unmarked
ok = ok and all(("(yield only)" in " ".join(r)) == r[0].startswith("mcp.tool.name.") for r in rows)
ok = ok and all(any(fnmatch.fnmatchcase(r[0], y) for y in yielded)
                for r in rows if r[0].startswith("mcp.tool.name."))
ok = ok and times == sorted(times, reverse=True)
ok = ok and lines[-2].startswith("(resolution: $componentRef, versions)")
total = re.match(r"total\s+([0-9.]+)\s", lines[-1])
ok = ok and total and abs(float(total.group(1)) - sum(times) - float(lines[-2].split()[-2])) < 0.01 + 0.001 * len(rows)
if not ok: print("\n".join(lines[:5] + ["..."] + lines[-3:]), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done
"$bin" validate --timing conformance/expected-valid > /dev/null 2> "$tmp/err"
check "without --format: the table on standard error only" grep -q '^total ' "$tmp/err"
testlib_finish
