#!/bin/sh
# run.sh - `make bench`: the benchmark table of issue 32 (docs/bench.md). Every row of the
# issue's "Why" table as now against goal, each a ratio measured in this one run against
# the floor: tools/bench/parse-floor.c, jansson's json_loadb with flags 0 (read, parse,
# free). Not part of `make check`.
#
# For each size (tools/bench/gen-description.py, 1,000 / 10,000 / 50,000 tools) it runs,
# in rounds that alternate (the first program rotates every round), and keeps the wall
# time, CPU time and peak RSS of each run (tools/bench/spawn.py):
#   floor     parse-floor FILE                  json_loadb, flags 0: the unit of the ratios
#   strict    parse-floor --mcpdesc-flags FILE  json_loadb with the flags mcpdesc passes
#   seed      mcpdesc validate, the two seed rules only
#   full      mcpdesc validate, the full rule set (BENCH_RULES; default: the binary's own
#             default rule set and preset: for a build tree's binary its rules-yaml/,
#             docs/releases.md "Where mcpdesc looks")
#   security  mcpdesc validate --rules rules-yaml/security (issue 8: <= 1.20x full)
#   diff      mcpdesc diff --rules rules-yaml/diff against a copy with one change (issue 31:
#             <= 2x full)
#   spectral  Spectral 6 with tools/bench/spectral/mcp-seed-rules.js (the two seed rules),
#             at sizes from BENCH_SPECTRAL_MIN to BENCH_SPECTRAL_MAX
# then, on tools/bench/one-tool.json, BENCH_STARTUP_REPS alternating rounds of the floor,
# `mcpdesc --version` (a start that loads no rules) and the full rule set (startup and
# rule-set load rows); the language server on the sizes up to BENCH_LSP_MAX
# (tools/bench/lsp.py: edit -> diagnostics, debounce off); and the schema engine against
# its walk floor (tools/bench-schema.c on the tool-input instances, BENCH_REPS runs of
# BENCH_SCHEMA_SECS each, linked with the libmcpdesc.a beside MCPDESC). tools/bench/table.py
# prints the table from the samples ($BENCH_DIR/out/samples).
#
# It also checks that mcpdesc (seed rules) and Spectral report the same (rule, JSON
# pointer, versions) nodes (tools/bench/compare.py), and that the WebAssembly build
# (BENCH_WASM) writes the native program's report. Exit status: 0 when everything ran and
# the reports agree, 1 when they differ, 2 when something could not run. A missed goal
# is printed as NOT MET and does not change the status.
#
# Settings (environment):
#   BENCH_SIZES="1000 10000 50000"  sizes, in tools
#   BENCH_REPS=5                    rounds per size (and runs of the schema engine)
#   BENCH_SPECTRAL_MIN=10000        run Spectral only on sizes from this...
#   BENCH_SPECTRAL_MAX=10000        ... up to this (BENCH_SPECTRAL_MAX=0: never)
#   BENCH_LSP_MAX=10000             the language server on sizes up to this (0: never)
#   BENCH_LSP_REPS=9                edits timed per size
#   BENCH_STARTUP_REPS=21           rounds on the 1-tool file
#   BENCH_SCHEMA_SECS=0.5           seconds per loop of each schema-engine run (0: skip)
#   BENCH_SCHEMA_LIB=DIR/libmcpdesc.a  the engine measured (default: beside MCPDESC)
#   BENCH_RULES=                    the full rule set: empty for the binary's default, or
#                                   a directory (--rules DIR; a copied binary, outside a
#                                   build tree and not installed, has no default: give one)
#   BENCH_SEED=20261201             generator seed
#   MCPDESC=build/mcpdesc           the binary to measure (make bench passes $(BIN))
#   BENCH_DIR=build/bench           generated files, outputs, parse-floor binary
#   BENCH_NPM=build/bench/npm       scratch npm prefix for @stoplight/spectral-cli 6.x
#   BENCH_WASM=build/wasm/mcpdesc.js  the WebAssembly build (make wasm, docs/wasm.md), run
#                                   by node as "wasm" beside "full" (the same rule set:
#                                   BENCH_RULES, else this checkout's rules-yaml/) on the
#                                   sizes up to BENCH_WASM_MAX and the 1-tool file, its
#                                   output checked against the native one's, and its code's
#                                   gzip -9 size; without node or the build: a skip line
#   BENCH_WASM_MAX=10000            the WebAssembly build on sizes up to this (0: never)
# Needs python3, cc, pkg-config + jansson; installs nodejs and npm with apt-get (as root,
# or with sudo) when Spectral is to run and they are missing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
sizes=${BENCH_SIZES:-1000 10000 50000}
reps=${BENCH_REPS:-5}
spectral_min=${BENCH_SPECTRAL_MIN:-10000}
spectral_max=${BENCH_SPECTRAL_MAX:-10000}
lsp_max=${BENCH_LSP_MAX:-10000}
startup_reps=${BENCH_STARTUP_REPS:-21}
schema_secs=${BENCH_SCHEMA_SECS:-0.5}
rules=${BENCH_RULES:-}
seed=${BENCH_SEED:-20261201}
mcpdesc=${MCPDESC:-build/mcpdesc}
bench=${BENCH_DIR:-build/bench}
npmdir=${BENCH_NPM:-build/bench/npm}
wasm_js=${BENCH_WASM:-build/wasm/mcpdesc.js}
wasm_max=${BENCH_WASM_MAX:-10000}
schema_lib=${BENCH_SCHEMA_LIB:-$(dirname "$mcpdesc")/libmcpdesc.a}
out=$bench/out
samples=$out/samples
spectral=$npmdir/node_modules/.bin/spectral
ruleset=tools/bench/spectral/mcp-seed-rules.js
one=tools/bench/one-tool.json
# the binary's default rules, not a .mcpdesc.yaml found above the generated files; the
# releases the security set extends found in this checkout, for a binary of another tree
MCPDESC_NO_CONFIG=1
MCPDESC_RULES_PATH=${MCPDESC_RULES_PATH:-$top/rules-yaml/releases}
export MCPDESC_NO_CONFIG MCPDESC_RULES_PATH

die() { echo "bench: $*" >&2; exit 2; }
say() { echo "bench: $*" >&2; }
count() { case $2 in ''|*[!0-9]*) die "$1 must be a whole number, not '$2'";; esac; }
count BENCH_REPS "$reps"
[ "$reps" -gt 0 ] || die "BENCH_REPS must be positive"
count BENCH_STARTUP_REPS "$startup_reps"
[ "$startup_reps" -gt 0 ] || die "BENCH_STARTUP_REPS must be positive"
for v in "BENCH_SPECTRAL_MIN $spectral_min" "BENCH_SPECTRAL_MAX $spectral_max" "BENCH_LSP_MAX $lsp_max" \
    "BENCH_WASM_MAX $wasm_max"; do
    # shellcheck disable=SC2086
    count $v
done
for n in $sizes; do
    case $n in ''|*[!0-9]*|0) die "BENCH_SIZES must list positive integers, not '$n'";; esac
done
case $schema_secs in ''|*[!0-9.]*) die "BENCH_SCHEMA_SECS must be a number of seconds, not '$schema_secs'";; esac
[ -z "$rules" ] || [ -d "$rules" ] || die "BENCH_RULES: no directory '$rules'"
[ -x "$mcpdesc" ] || die "no mcpdesc binary at $mcpdesc (run 'make' or set MCPDESC=...)"
mkdir -p "$bench" "$out"

# spectral_at N: Spectral runs at N tools
spectral_at() { [ "$1" -ge "$spectral_min" ] && [ "$1" -le "$spectral_max" ]; }

# ---- dependencies -----------------------------------------------------------------
command -v python3 >/dev/null 2>&1 || die "python3 is needed (apt-get install python3)"
pkg-config --exists jansson || die "jansson is needed (sh tools/install-deps.sh)"
want_spectral=0
for n in $sizes; do spectral_at "$n" && want_spectral=1; done
spectral_version="not run"
if [ "$want_spectral" = 1 ]; then
    missing=""
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
    if [ -n "$missing" ]; then
        say "installing Debian packages:$missing"
        if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo=sudo; else
            die "need root to apt-get install$missing"
        fi
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq || die "apt-get update failed"
        # shellcheck disable=SC2086
        $sudo apt-get install -y -qq --no-install-recommends $missing || die "apt-get install$missing failed"
    fi
    if [ ! -x "$spectral" ]; then
        say "installing @stoplight/spectral-cli 6.x into $npmdir (npm)"
        mkdir -p "$npmdir"
        npm install --prefix "$npmdir" --no-audit --no-fund --silent '@stoplight/spectral-cli@6' \
            >"$bench/npm.log" 2>&1 || die "npm install failed, see $bench/npm.log"
    fi
    spectral_version=$("$spectral" --version 2>/dev/null) || die "$spectral does not run"
    case $spectral_version in 6.*) ;; *) die "Spectral 6 expected, found '$spectral_version'";; esac
fi

# The WebAssembly build: measured when node and the build are there, else a skip line
# (mk/bench.mk builds it first when emcc is installed).
wasm_skip=""
if [ "$wasm_max" = 0 ]; then
    wasm_skip="BENCH_WASM_MAX=0"
elif ! command -v node >/dev/null 2>&1; then
    wasm_skip="node not found (sh tools/install-deps.sh wasm)"
elif [ ! -f "$wasm_js" ] || [ ! -f "${wasm_js%.js}.wasm" ]; then
    wasm_skip="no $wasm_js (make wasm; emcc: sh tools/install-deps.sh wasm)"
fi
wasm_rules=${rules:-$top/rules-yaml}
# wasm_at N: the WebAssembly build runs at N tools
wasm_at() { [ -z "$wasm_skip" ] && [ "$1" -le "$wasm_max" ]; }

# ---- what is measured ---------------------------------------------------------------
floor=$bench/parse-floor
# newer A B: A was modified after B (POSIX test has no -nt)
newer() { [ -n "$(find "$1" -newer "$2" 2>/dev/null)" ]; }
if [ ! -x "$floor" ] || newer tools/bench/parse-floor.c "$floor"; then
    # shellcheck disable=SC2046
    cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror $(pkg-config --cflags jansson) \
        -o "$floor" tools/bench/parse-floor.c $(pkg-config --libs jansson) \
        || die "cannot build $floor"
fi

# The seed rules only: the manifest listing one file, holding the file-level predicates
# and the first two rules of rules-yaml/tool.yaml (the seeds), checked below by id.
seedrules=$bench/seed-rules
rm -rf "$seedrules" && mkdir -p "$seedrules"
awk '/^  - id: /{n++} n<3' rules-yaml/tool.yaml >"$seedrules/tool.yaml"
sed -e 's#^\(  https://mcpdesc.dev/schema/: \)\.\./schema/#\1'"$top"'/schema/#' -e '/^files:/,$d' \
    rules-yaml/manifest.yaml >"$seedrules/manifest.yaml"
printf 'files:\n  - tool.yaml\n' >>"$seedrules/manifest.yaml"
ids=$("$mcpdesc" rules list --rules "$seedrules" 2>"$out/rules.err" | awk '$1 != "ID" && $1 !~ /^mcpdesc\./ {print $1}' | sort | tr '\n' ' ')
[ "$ids" = "mcp.tool.input-schema.object-root mcp.tool.schema.native-shape " ] ||
    die "the seed rule set $seedrules does not hold exactly the two seed rules: '$ids' $(head -3 "$out/rules.err")"
"$mcpdesc" rules list --rules rules-yaml >/dev/null 2>"$out/rules.err" ||
    die "mcpdesc cannot load rules-yaml/: $(head -3 "$out/rules.err")"
st=0
"$mcpdesc" validate --format json ${rules:+--rules "$rules"} "$one" >/dev/null 2>"$out/stderr" || st=$?
[ "$st" = 0 ] || die "mcpdesc validate $one exited with $st (expected 0: no findings): $(head -3 "$out/stderr")"

# run SIZE PROG FILE: one timed run of PROG on FILE; appends "run SIZE PROG WALL_MS USER_MS
# SYS_MS RSS_KIB [PARSE_S]" to the samples.
run() {
    n=$1 p=$2 f=$3
    case $p in
    floor) set -- "$floor" "$f" ;;
    strict) set -- "$floor" --mcpdesc-flags "$f" ;;
    version) set -- "$mcpdesc" --version ;;
    seed) set -- "$mcpdesc" validate --rules "$seedrules" --format json "$f" ;;
    full) set -- "$mcpdesc" validate ${rules:+--rules "$rules"} --format json "$f" ;;
    security) set -- "$mcpdesc" validate --rules rules-yaml/security --format json "$f" ;;
    diff) set -- "$mcpdesc" diff --rules rules-yaml/diff --format json "$f" "${f%.json}-changed.json" ;;
    spectral) set -- "$spectral" lint -q -r "$ruleset" -f json "$f" ;;
    wasm) set -- node "$wasm_js" validate --rules "$wasm_rules" --format json "$f" ;;
    esac
    stdout=-
    case $p in floor | strict) stdout=$out/stdout ;; esac
    m=$(python3 tools/bench/spawn.py "$stdout" "$out/stderr" "$@") || die "cannot run $1"
    st=${m##* }
    case $p:$st in
    floor:0 | strict:0 | version:0 | seed:[01] | full:[01] | security:[01] | diff:[01] | spectral:[01] | wasm:[01]) ;;
    *) die "$p exited with $st on $f: $(head -3 "$out/stderr")" ;;
    esac
    parse=""
    case $p in floor | strict) parse=" $(awk '{print $2}' "$out/stdout")" ;; esac
    echo "run $n $p ${m% *}$parse" >>"$samples"
}

# wasm_same FILE: one untimed run of the native program and of the WebAssembly build with
# the same rule set on FILE: the same report, byte for byte, and the same status
# (tests/wasm/run.sh holds them to it on the tests' inputs; this is the benchmark's)
wasm_same() {
    ns=0 ws=0
    "$mcpdesc" validate --rules "$wasm_rules" --format json "$1" >"$out/native.json" 2>"$out/stderr" || ns=$?
    node "$wasm_js" validate --rules "$wasm_rules" --format json "$1" >"$out/wasm.json" 2>"$out/wasm.err" || ws=$?
    [ "$ns" -le 1 ] || die "mcpdesc exited with $ns on $1: $(head -3 "$out/stderr")"
    if [ "$ns" = "$ws" ] && cmp -s "$out/native.json" "$out/wasm.json"; then return 0; fi
    echo "bench: FAILED: the WebAssembly build's report on $1 differs from the native one's" \
        "(status $ws, native $ns; $out/wasm.json, $out/native.json): $(head -3 "$out/wasm.err")" >&2
    return 1
}

# rounds SIZE FILE COUNT PROG...: COUNT rounds of every PROG on FILE, the first one rotating
# from round to round, so that a burst of load falls on all of them alike
rounds() {
    n=$1 f=$2 k=$3
    shift 3
    r=0
    while [ "$r" -lt "$k" ]; do
        j=0
        while [ "$j" -lt $# ]; do
            i=$(((r + j) % $# + 1))
            eval "p=\${$i}"
            run "$n" "$p" "$f"
            j=$((j + 1))
        done
        r=$((r + 1))
    done
}

: >"$samples"
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit (with uncommitted changes)"
rules_name="the binary's default rule set (its tree's rules-yaml/ for a build tree's binary), default preset"
[ -z "$rules" ] || rules_name="--rules $rules, default preset"
{
    echo "note mcpdesc benchmark (issue 32), $(date -u '+%Y-%m-%d %H:%M UTC'); sizes: $sizes; $reps alternating rounds (medians); seed $seed"
    echo "note host: ${cpu:-unknown CPU}, $(nproc) cores, $(awk '/^MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr); load average at the start: $(loadavg)"
    echo "note mcpdesc: $mcpdesc ($("$mcpdesc" --version 2>&1 | head -1)); checkout $commit; full rule set: $rules_name"
    echo "note versions: jansson $(pkg-config --modversion jansson), $(cc --version | head -1), Python $(python3 -c 'import platform; print(platform.python_version())'), Spectral $spectral_version"
    echo "note floor: tools/bench/parse-floor.c, json_loadb with flags 0 (read the file, parse, free); every ratio below is against it, in this run"
    echo "nproc $(nproc)"
} >>"$samples"

status=0
for n in $sizes; do
    file=$bench/desc-$n-s$seed.json
    if [ ! -s "$file" ] || newer tools/bench/gen-description.py "$file"; then
        python3 tools/bench/gen-description.py "$n" "$file.tmp" --seed="$seed" && mv "$file.tmp" "$file"
    fi
    echo "bytes $n $(wc -c <"$file")" >>"$samples"
    # the same description with one change, for diff (one tool's description rewritten)
    changed=${file%.json}-changed.json
    if [ ! -s "$changed" ] || newer "$file" "$changed"; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["tools"][0]["description"]+=" (changed)"; json.dump(d,open(sys.argv[2],"w"))' "$file" "$changed.tmp" && mv "$changed.tmp" "$changed"
    fi
    progs="floor strict seed full security diff"
    if spectral_at "$n"; then
        progs="$progs spectral"
        # The same nodes? One untimed run of each, then compare.
        st=0
        "$mcpdesc" validate --rules "$seedrules" --format json "$file" >"$out/seed-$n.json" 2>"$out/stderr" || st=$?
        [ "$st" -le 1 ] || die "mcpdesc exited with $st on $file: $(head -3 "$out/stderr")"
        st=0
        "$spectral" lint -q -r "$ruleset" -f json "$file" >"$out/spectral-$n.json" 2>"$out/stderr" || st=$?
        [ "$st" -le 1 ] || die "spectral exited with $st on $file: $(head -3 "$out/stderr")"
        if cmp=$(python3 tools/bench/compare.py "$out/seed-$n.json" "$out/spectral-$n.json"); then :; else
            status=1
        fi
        echo "compare $n $cmp" | tr '\n' ' ' >>"$samples" && echo >>"$samples"
    fi
    if wasm_at "$n"; then
        progs="$progs wasm"
        wasm_same "$file" || status=1
    fi
    say "$n tools: $reps rounds of $progs"
    # shellcheck disable=SC2086
    rounds "$n" "$file" "$reps" $progs
done
[ "$want_spectral" = 1 ] ||
    echo "skip spectral no size from BENCH_SPECTRAL_MIN=$spectral_min to BENCH_SPECTRAL_MAX=$spectral_max" >>"$samples"

if [ -n "$wasm_skip" ]; then
    say "1-tool file: $startup_reps rounds of floor, mcpdesc --version, full rule set"
    rounds one "$one" "$startup_reps" floor version full
else
    say "1-tool file: $startup_reps rounds of floor, mcpdesc --version, full rule set, wasm"
    wasm_same "$one" || status=1
    rounds one "$one" "$startup_reps" floor version full wasm
fi
# the WebAssembly build's code as a page or a package would ship it: gzip -9 of both files
if [ -n "$wasm_skip" ]; then
    echo "skip wasm $wasm_skip" >>"$samples"
else
    echo "wasmsize $(($(gzip -9c "${wasm_js%.js}.wasm" | wc -c) + $(gzip -9c "$wasm_js" | wc -c)))" \
        "$(($(wc -c <"${wasm_js%.js}.wasm") + $(wc -c <"$wasm_js")))" >>"$samples"
fi

# The language server: edit -> diagnostics on the same files.
lsp_files=""
for n in $sizes; do [ "$n" -le "$lsp_max" ] && lsp_files="$lsp_files $n=$bench/desc-$n-s$seed.json"; done
if [ -n "$lsp_files" ]; then
    say "language server:$lsp_files"
    BENCH_LSP_FILES=$lsp_files BENCH_LSP_OUT=$samples BENCH_LSP_VALIDATE=0 BENCH_RULES=$rules \
        python3 tools/bench/lsp.py "$mcpdesc" "$bench" >"$out/lsp.log" 2>&1 ||
        die "the language server benchmark failed: $(tail -3 "$out/lsp.log")"
else
    echo "skip lsp no size up to BENCH_LSP_MAX=$lsp_max" >>"$samples"
fi

# The schema engine against its walk floor, linked with the library beside MCPDESC.
if [ "$schema_secs" = 0 ]; then
    echo "skip schema BENCH_SCHEMA_SECS=0" >>"$samples"
elif [ ! -f "$schema_lib" ]; then
    echo "skip schema no $schema_lib (set BENCH_SCHEMA_LIB)" >>"$samples"
elif BENCH_DIR=$bench BENCH_SCHEMA_LIB=$schema_lib sh tools/bench-schema.sh --prepare >"$out/schema.log" 2>&1; then
    say "schema engine: $reps runs of ${schema_secs} s + ${schema_secs} s"
    r=0
    while [ "$r" -lt "$reps" ]; do
        "$bench/bench-schema" "$bench/tool-input.schema.json" "$bench/tool-input.jsonl" "$schema_secs" \
            >"$out/schema.out" 2>&1 || die "bench-schema failed: $(head -3 "$out/schema.out")"
        awk '/^mcpdesc:/ {m = $2} /^floor/ {f = $(NF - 3)} END {print "schema", m, f}' "$out/schema.out" >>"$samples"
        r=$((r + 1))
    done
else
    echo "skip schema tools/bench-schema.sh --prepare failed ($out/schema.log)" >>"$samples"
fi

echo "note load average at the end: $(loadavg)" >>"$samples"
python3 tools/bench/table.py "$samples" || die "tools/bench/table.py failed on $samples"
if [ "$status" != 0 ]; then
    echo
    echo "bench: FAILED: mcpdesc and Spectral do not report the same nodes, or the WebAssembly"
    echo "       build not the native report (see above; reports in $out/seed-N.json and"
    echo "       $out/spectral-N.json, $out/wasm.json and $out/native.json)"
fi
exit "$status"
