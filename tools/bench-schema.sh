#!/bin/sh
# bench-schema.sh [SECONDS] - throughput of mcpdesc's JSON Schema engine next to ajv 8
# and the Blaze CLI (npm @sourcemeta/jsonschema, run only as an external program).
# Both are installed by this script from npm into a scratch folder ($BENCH_DIR, default
# build/bench); nothing is installed globally. Workloads (instances per second, schema
# compiled once, format as annotation):
#   tool-input  a realistic MCP tool input schema, 10000 generated arguments (~80% valid)
#   mcp-tool    MCP 2025-11-25 schema.json #/$defs/Tool, one Tool per test-suite schema
#   meta        the 2020-12 meta-schema applied to every 2020-12 test-suite schema
# For each workload it also prints a floor: the instances merely walked through
# jansson's API, no schema (the least any validator of jansson values must do when
# the schema constrains every value, as tool-input's does).
# BUILD (default build) is the make build tree whose libmcpdesc.a is measured;
# BENCH_SCHEMA_LIB=PATH/libmcpdesc.a links that library as it is instead (no make: for
# another build, as `make bench` measures the one beside MCPDESC).
# `bench-schema.sh --prepare` builds $BENCH_DIR/bench-schema and writes the corpora, then
# stops (tools/bench/run.sh runs the tool-input workload itself for its table).
# Needs: make, cc, python3; node+npm for the peers (skipped with a message without).
set -eu
prepare=0
if [ "${1:-}" = --prepare ]; then prepare=1; shift; fi
secs=${1:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bench=${BENCH_DIR:-build/bench}
build=${BUILD:-build}
shared=${MCPDESC_SHARED:-../shared}
suite=$shared/data/JSON-Schema-Test-Suite/tests/draft2020-12
mcp=$shared/data/mcp/2025-11-25/schema.json
mkdir -p "$bench"

lib=${BENCH_SCHEMA_LIB:-}
if [ -z "$lib" ]; then
    make -s BUILD="$build" "$build/libmcpdesc.a"
    lib=$build/libmcpdesc.a
fi
cc -std=c11 -D_GNU_SOURCE -pthread -O2 -Isrc $(pkg-config --cflags jansson libpcre2-8) \
    -o "$bench/bench-schema" tools/bench-schema.c "$lib" \
    $(pkg-config --libs jansson yaml-0.1 libpcre2-8 nettle liburiparser libcurl) -lm

# ---- corpora ---------------------------------------------------------------------
python3 - "$bench" "$suite" "$mcp" <<'EOF'
import json, os, random, sys
out, suite, mcp = sys.argv[1:4]
random.seed(42)
tool = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": 200},
    "path": {"type": "string", "pattern": "^(/[A-Za-z0-9._-]+)+/?$"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
    "sort": {"enum": ["name", "size", "mtime"]},
    "filters": {"type": "array", "maxItems": 8, "items": {"$ref": "#/$defs/filter"}},
    "options": {"type": "object", "properties": {
        "caseSensitive": {"type": "boolean"}, "followLinks": {"type": "boolean"},
        "maxDepth": {"type": "integer", "minimum": 0}},
        "additionalProperties": False}
  },
  "required": ["query", "path"],
  "additionalProperties": False,
  "$defs": {"filter": {"type": "object", "required": ["field", "op", "value"],
      "properties": {"field": {"enum": ["name", "size", "mtime", "owner"]},
                     "op": {"enum": ["eq", "ne", "lt", "gt", "glob"]},
                     "value": {"type": ["string", "number"]}},
      "additionalProperties": False}}
}
json.dump(tool, open(os.path.join(out, "tool-input.schema.json"), "w"))
with open(os.path.join(out, "tool-input.jsonl"), "w") as f:
    for i in range(10000):
        inst = {"query": "q%d" % i, "path": "/home/u%d/src" % (i % 50),
                "limit": random.randint(1, 100), "sort": random.choice(["name", "size", "mtime"]),
                "filters": [{"field": "size", "op": "gt", "value": random.randint(0, 10**6)}
                            for _ in range(random.randint(0, 4))],
                "options": {"caseSensitive": bool(i % 2), "maxDepth": i % 7}}
        r = random.random()
        if r < 0.05: inst["limit"] = 0
        elif r < 0.10: inst["path"] = "relative/path"
        elif r < 0.15: inst["extra"] = True
        elif r < 0.20: del inst["query"]
        f.write(json.dumps(inst) + "\n")
schemas = []
for name in sorted(os.listdir(suite)):
    if name.endswith(".json"):
        for case in json.load(open(os.path.join(suite, name))):
            schemas.append(case["schema"])
with open(os.path.join(out, "meta.jsonl"), "w") as f:
    for s in schemas:
        f.write(json.dumps(s) + "\n")
json.dump({"$schema": "https://json-schema.org/draft/2020-12/schema",
           "$ref": "https://json-schema.org/draft/2020-12/schema"},
          open(os.path.join(out, "meta.schema.json"), "w"))
m = json.load(open(mcp))
m["$ref"] = "#/$defs/Tool"
json.dump(m, open(os.path.join(out, "mcp-tool.schema.json"), "w"))
with open(os.path.join(out, "mcp-tool.jsonl"), "w") as f:
    for i, s in enumerate(schemas):
        inp = dict(s) if isinstance(s, dict) else {}
        inp.pop("$schema", None); inp.pop("$id", None)
        inp["type"] = "object"
        t = {"name": "tool_%d" % i, "description": "tool %d" % i, "inputSchema": inp}
        if i % 10 == 0: del t["name"]
        f.write(json.dumps(t) + "\n")
EOF
[ "$prepare" = 0 ] || exit 0

# ---- peers -------------------------------------------------------------------------
have_npm=0
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    if [ ! -x "$bench/node_modules/.bin/jsonschema" ] || [ ! -d "$bench/node_modules/ajv" ]; then
        (cd "$bench" && npm install --no-audit --no-fund --silent ajv@8 @sourcemeta/jsonschema) \
            && have_npm=1 || echo "bench-schema: npm install failed; peers skipped"
    else
        have_npm=1
    fi
else
    echo "bench-schema: node/npm not found; ajv and Blaze skipped"
fi
cat > "$bench/ajv-bench.js" <<'EOF'
// ajv-bench.js SCHEMA INSTANCES.jsonl SECONDS - same loop as bench-schema.c
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020");
const [schemaFile, dataFile, secs] = process.argv.slice(2);
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const t0 = process.hrtime.bigint();
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8")));
const tc = Number(process.hrtime.bigint() - t0) / 1e6;
const data = fs.readFileSync(dataFile, "utf8").split("\n").filter(Boolean).map(JSON.parse);
let done = 0, valid = 0;
const start = process.hrtime.bigint();
let t;
do {
  for (const d of data) if (validate(d)) valid++;
  done += data.length;
  t = Number(process.hrtime.bigint() - start) / 1e9;
} while (t < Number(secs));
console.log(`ajv ${require("ajv/package.json").version}: ${Math.round(done / t)} instances/s ` +
  `(${data.length} instances, ${valid / (done / data.length)} valid per pass, compile ${tc.toFixed(2)} ms)`);
EOF

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs, $(uname -sr)"
for w in tool-input mcp-tool meta; do
    echo "== $w"
    "$bench/bench-schema" "$bench/$w.schema.json" "$bench/$w.jsonl" "$secs"
    if [ "$have_npm" = 1 ]; then
        node "$bench/ajv-bench.js" "$bench/$w.schema.json" "$bench/$w.jsonl" "$secs" ||
            echo "ajv: failed"
        n=$(wc -l < "$bench/$w.jsonl")
        # Blaze --benchmark prints "FILE[i]: PASS|FAIL MEAN +- SD us (..)" per instance;
        # instances/s = instances / sum of the per-instance means.
        "$bench/node_modules/.bin/jsonschema" validate "$bench/$w.schema.json" \
            "$bench/$w.jsonl" --benchmark --fast --continue --loop 20 2>&1 |
            awk -v v="$("$bench/node_modules/.bin/jsonschema" version)" '
                $2 == "PASS" || $2 == "FAIL" { n++; us += $3; if ($2 == "PASS") ok++ }
                END { if (n && us > 0) printf "blaze %s: %.0f instances/s (%d instances, %d valid, --fast)\n", v, n / (us / 1e6), n, ok;
                      else print "blaze: no benchmark output" }' || echo "blaze: failed"
    fi
done
