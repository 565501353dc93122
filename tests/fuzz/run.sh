#!/bin/sh
# run.sh - run the libFuzzer harnesses built by mk/fuzz.mk (docs/fuzz.md):
#   sh tests/fuzz/run.sh FUZZ_BUILD SECONDS NAME...
# For each NAME: replay every saved crash in tests/fuzz/regressions/NAME/ (each must now
# pass), then, when SECONDS > 0, fuzz for SECONDS from seeds generated from the
# repository's own files (conformance fixtures, examples, rule files, schemas, the
# JSON-Schema-Test-Suite) plus tests/fuzz/seeds/NAME/. Fails (exit 1) on any crash, leak,
# sanitizer error, timeout or out-of-memory, and prints the reproducer's path.
# Environment: FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_RSS_MB (default 2048),
# FUZZ_ARGS (more libFuzzer options), MCPDESC_SHARED (for the JSON-Schema-Test-Suite).
set -u
fb=$1
secs=$2
shift 2
here=tests/fuzz
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
shared=${MCPDESC_SHARED:-../shared}
export MCPDESC_TOP="${MCPDESC_TOP:-$(pwd)}"
# Symbolized stack traces when Debian's llvm-symbolizer is there.
for s in llvm-symbolizer llvm-symbolizer-14 /usr/lib/llvm-14/bin/llvm-symbolizer; do
    p=$(command -v "$s" 2>/dev/null) && { export ASAN_SYMBOLIZER_PATH="$p"; break; }
done
# The harnesses' own options come last so they win; a caller's options add to them
# instead of replacing them (a caller's ASAN_OPTIONS once turned leak detection off).
fuzz_asan="detect_leaks=1:abort_on_error=0:allocator_may_return_null=0"
fuzz_ubsan="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$fuzz_asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}$fuzz_ubsan"

# Per-harness options: the longest input worth mutating, and a dictionary.
max_len() {
    case $1 in
        ptr) echo 1024 ;;
        regex) echo 512 ;;
        rpc) echo 8192 ;;
        *) echo 16384 ;;
    esac
}
dict() {
    case $1 in
        doc_json|res|validate|capture) echo "$here/dicts/json.dict" ;;
        doc_yaml|rules) echo "$here/dicts/yaml.dict" ;;
        schema) echo "$here/dicts/schema.dict" ;;
        ptr) echo "$here/dicts/ptr.dict" ;;
        regex) echo "$here/dicts/regex.dict" ;;
        rpc) echo "$here/dicts/rpc.dict" ;;
        lsp) echo "$here/dicts/lsp.dict" ;;
    esac
}

# Copy FILES... (small ones) into DIR under unique names.
add_seeds() {
    dir=$1
    shift
    for f in "$@"; do
        [ -f "$f" ] || continue
        [ "$(wc -c < "$f")" -le 262144 ] || continue
        cp "$f" "$dir/$(echo "$f" | tr '/' '_')"
    done
}

# The JSON-Schema-Test-Suite's groups as [schema, instance...] arrays (schema harness).
jsts_seeds() {
    dir=$1
    for root in "$shared/data/JSON-Schema-Test-Suite" "$shared/JSON-Schema-Test-Suite" \
                ../shared/data/JSON-Schema-Test-Suite /usr/share/json-schema-test-suite; do
        [ -d "$root/tests" ] || continue
        command -v python3 >/dev/null || return 0
        python3 - "$root/tests" "$dir" <<'EOF'
import json, os, sys
src, out = sys.argv[1], sys.argv[2]
n = 0
patterns = set()
def collect(v):  # every regular expression: pattern values, patternProperties keys
    if isinstance(v, dict):
        if isinstance(v.get("pattern"), str):
            patterns.add(v["pattern"])
        if isinstance(v.get("patternProperties"), dict):
            patterns.update(v["patternProperties"].keys())
        for x in v.values():
            collect(x)
    elif isinstance(v, list):
        for x in v:
            collect(x)
for d in sorted(os.listdir(src)):
    top = os.path.join(src, d)
    if not os.path.isdir(top):
        continue
    for base, _, files in os.walk(top):
        for f in sorted(files):
            if not f.endswith(".json"):
                continue
            try:
                groups = json.load(open(os.path.join(base, f)))
            except Exception:
                continue
            for g in groups:
                if not isinstance(g, dict) or "schema" not in g:
                    continue
                collect(g["schema"])
                seed = [g["schema"]] + [t.get("data") for t in g.get("tests", [])]
                n += 1
                with open(os.path.join(out, "jsts-%05d.json" % n), "w") as fh:
                    json.dump(seed, fh)
for i, p in enumerate(sorted(patterns)):
    with open(os.path.join(out, "regex-%04d.json" % i), "w") as fh:
        json.dump(p, fh)
EOF
        return 0
    done
}

seed() {
    name=$1
    dir=$2
    json=$(ls conformance/*/*.json examples/*.json examples/corpus/*.json 2>/dev/null)
    case $name in
        doc_json) add_seeds "$dir" $json schema/*.json schema/mcp/*/*.json tests/data/schema/*.json ;;
        doc_yaml) add_seeds "$dir" rules-yaml/*.yaml $(find tests/data -name '*.yaml' -o -name '*.yml') \
                      conformance/expected-valid/*.json ;;
        rules) add_seeds "$dir" $(ls rules-yaml/*.yaml | grep -v manifest.yaml) \
                   $(find tests/data -name '*.yaml' ! -name manifest.yaml) ;;
        res|validate) add_seeds "$dir" $json ;;
        capture) for f in conformance/expected-valid/*.json examples/*.json; do  # as 1 and 3 sessions
                     b=$(basename "$f" .json)
                     { printf '['; cat "$f"; printf ']'; } > "$dir/one-$b.json"
                     { printf '['; cat "$f"; printf ',{},'; cat "$f"; printf ']'; } > "$dir/three-$b.json"
                 done ;;
        schema) add_seeds "$dir" schema/*.json schema/mcp/*/*.json tests/data/schema/*.json
                jsts_seeds "$dir" ;;
        regex) grep -v '^#' tests/data/ecma-regex/corpus.txt | grep "$(printf '\t')" | cut -f2- |
                   awk -v d="$dir" '{ f = d "/corpus-" NR; printf "%s", $0 > f; close(f) }' ;;
        ptr) grep -ho '"#/[^"]*"\|"/[A-Za-z*~%/0-9 ]*"' $json rules-yaml/*.yaml 2>/dev/null | sort -u |
                 tr -d '"' | awk -v d="$dir" '{ f = d "/ref-" NR; printf "%s", $0 > f; close(f) }' ;;
    esac
    [ -d "$here/seeds/$name" ] && cp "$here/seeds/$name"/* "$dir"/ 2>/dev/null
    return 0
}

# The reproducer and the first lines of the report of a failed run (log in $1).
report_failure() {
    log=$1
    echo "fuzz: $name FAILED; the sanitizer's report:"
    grep -E '^(==[0-9]+==|SUMMARY|    #[0-9]+ |.*runtime error|fuzz invariant|ALARM|MS:)' "$log" | head -40
    art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    [ -n "$art" ] || art=$(sed -n 's/^Running: \(.*\)$/\1/p' "$log" | tail -1)
    case $art in
        "") ;;
        $here/regressions/*) echo "fuzz: reproducer: $art (replay: $fb/bin/$name $art)" ;;
        *) echo "fuzz: reproducer: $art (replay: $fb/bin/$name $art;" \
               "keep it in $here/regressions/$name/ once minimized)" ;;
    esac
    echo "fuzz: full log: $log"
}

status=0
summary=""
for name in "$@"; do
    bin=$fb/bin/$name
    [ -x "$bin" ] || { echo "fuzz: no harness $bin (run make fuzz-build)" >&2; exit 2; }
    mkdir -p "$fb/logs" "$fb/artifacts/$name"
    log=$fb/logs/$name.log
    opts="-timeout=$timeout -rss_limit_mb=$rss -max_len=$(max_len "$name")"
    # 1. every saved crash must now pass
    reg=$here/regressions/$name
    if [ -d "$reg" ] && [ -n "$(ls -A "$reg" 2>/dev/null)" ]; then
        # shellcheck disable=SC2086
        if "$bin" $opts "$reg"/* > "$log.replay" 2>&1; then
            echo "fuzz: $name: $(ls "$reg" | wc -l) regression input(s) pass"
        else
            echo "fuzz: $name: a saved regression input fails again"
            report_failure "$log.replay"
            status=1
            summary="$summary$name: regression input fails, not fuzzed, FAILED
"
            continue
        fi
    fi
    [ "$secs" -gt 0 ] || continue
    # the pattern checker's input space is small: a short run finds what a long one would
    run_secs=$secs
    [ "$name" = regex ] && [ "$secs" -gt 20 ] && run_secs=20
    # 2. fuzz from fresh seeds plus what earlier local runs found
    rm -rf "$fb/seeds/$name"
    mkdir -p "$fb/seeds/$name" "$fb/corpus/$name"
    seed "$name" "$fb/seeds/$name"
    d=$(dict "$name")
    [ -n "$d" ] && opts="$opts -dict=$d"
    echo "fuzz: $name for ${run_secs}s ($(ls "$fb/seeds/$name" | wc -l) seeds)"
    # shellcheck disable=SC2086
    "$bin" $opts -max_total_time="$run_secs" -print_final_stats=1 -artifact_prefix="$fb/artifacts/$name/" \
        ${FUZZ_ARGS:-} "$fb/corpus/$name" "$fb/seeds/$name" > "$log" 2>&1
    rc=$?
    done_line=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1)
    cov=$(echo "$done_line" | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1 ft \2/p')
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    line="$name: ${runs:-?} runs, ${eps:-?} exec/s, ${cov:-cov ?}, corpus $(ls "$fb/corpus/$name" | wc -l)"
    if [ $rc -ne 0 ]; then
        report_failure "$log"
        status=1
        line="$line, FAILED"
    fi
    echo "fuzz: $line"
    summary="$summary$line
"
done
[ -n "$summary" ] && printf 'fuzz summary:\n%s' "$summary"
exit $status
