#!/bin/sh
# run.sh [--san] BINARY DIR - the hostile corpus (docs/hostile.md): inputs built to break a
# validator, each run within a wall-time and resident-memory bound with its expected exit
# status (0, 1 or 2 per the CLI contract) and the substrings its message must contain.
#   DIR holds the helpers mk/hostile.mk builds (gen, bound, nosocket.so); the large inputs
#   are generated into DIR/in, each case's output is kept in DIR/out/NAME.{out,err}.
#   --san: BINARY is an ASan+UBSan build; the bounds are scaled (see SAN_* below).
# Every case runs with nosocket.so preloaded: a call to socket, connect, getaddrinfo or
# gethostbyname is logged and fails, and a case with a logged call fails (nothing may be
# fetched). Cases are in tests/hostile/cases.sh. Runs from the repository root; prints one
# line per case, then "N passed, N failed", and exits 1 on any failure.
set -u
san=0
if [ "${1-}" = "--san" ]; then
    san=1
    shift
fi
if [ $# -ne 2 ]; then
    echo "usage: sh tests/hostile/run.sh [--san] BINARY DIR" >&2
    exit 2
fi
here=$(pwd)
bin=$1
dir=$2
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
case $dir in /*) ;; *) dir="$here/$dir" ;; esac
cd "$(dirname "$0")/../.." || exit 2
for tool in "$bin" "$dir/gen" "$dir/bound"; do
    if [ ! -x "$tool" ]; then
        echo "hostile: cannot run $tool (make test-hostile builds it)" >&2
        exit 2
    fi
done

# ASan+UBSan: ~2-5x slower, ~3x the memory (shadow, redzones, quarantine), so the bounds
# are multiplied; they still catch a hang or a blow-up, which are orders of magnitude.
SAN_TIME=5
SAN_MEM=3
SAN_MEM_BASE=256
IN=$dir/in
OUT=$dir/out
T=tests/hostile
rm -rf "$OUT"
mkdir -p "$IN" "$OUT" || exit 2

export NO_COLOR=1
# nosocket.so is preloaded into each case only (see hcase); it is not sanitized and comes
# first, which ASan refuses without this
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1"

passed=0
failed=0

# show FILE: its first lines, cut and indented (outputs may hold 100 MB lines).
show() {
    head -n 12 "$1" | cut -c1-240 | sed 's/^/    | /'
}

# check_run NAME WANT REPORT: compares a finished run with what is wanted; appends the
# reasons to $problems. Reads $OUT/NAME.{out,err,net}.
check_run() {
    name=$1
    want=$2
    read -r result rest < "$OUT/$name.report"
    case $result in
    killed-time) problems="$problems; hang: killed after ${secs}s" ;;
    killed-memory) problems="$problems; memory: over ${mb} MB (killed)" ;;
    signal) problems="$problems; crash: signal $rest" ;;
    exit)
        got=${rest%% *}
        [ "$got" = "$want" ] || problems="$problems; exit $got, expected $want" ;;
    esac
    if grep -q -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$OUT/$name.err"; then
        problems="$problems; sanitizer report"
    fi
    if [ -s "$OUT/$name.net" ]; then
        problems="$problems; network: $(head -n 3 "$OUT/$name.net" | tr '\n' ' ')"
    fi
}

# hcase NAME STATUS SECONDS MEGABYTES [-i STDIN] [SUBSTRING...] -- ARGS...
# Runs BINARY ARGS (stdin from STDIN, else /dev/null) within the bounds; passes when it
# exits with STATUS and its output (stdout and stderr) contains every SUBSTRING.
hcase() {
    name=$1
    want=$2
    secs=$3
    mb=$4
    shift 4
    input=/dev/null
    : > "$OUT/$name.want"
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        if [ "$1" = "-i" ]; then
            input=$2
            shift 2
            continue
        fi
        printf '%s\n' "$1" >> "$OUT/$name.want"
        shift
    done
    shift # --
    if [ $san -eq 1 ]; then
        secs=$((secs * SAN_TIME))
        mb=$((mb * SAN_MEM + SAN_MEM_BASE))
    fi
    LD_PRELOAD="$dir/nosocket.so" NOSOCKET_LOG="$OUT/$name.net" "$dir/bound" "$secs" "$mb" "$OUT/$name.report" -- \
        "$bin" "$@" < "$input" > "$OUT/$name.out" 2> "$OUT/$name.err"
    problems=""
    check_run "$name" "$want"
    while IFS= read -r s; do
        if ! grep -q -F -e "$s" "$OUT/$name.out" "$OUT/$name.err"; then
            problems="$problems; missing \"$s\""
        fi
    done < "$OUT/$name.want"
    finish "$name"
}

# finish NAME: prints the case's line from $problems and the report.
finish() {
    read -r result rest < "$OUT/$1.report"
    rss=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$OUT/$1.report")
    ms=$(sed -n 's/.*ms=\([0-9]*\).*/\1/p' "$OUT/$1.report")
    stats="$result ${rest%% *}, $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s, $((rss / 1024)) MB"
    case $result in killed-*|signal) stats="$result, $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s, $((rss / 1024)) MB" ;; esac
    if [ -z "$problems" ]; then
        echo "ok   $1 ($stats)"
        passed=$((passed + 1))
    else
        echo "FAIL $1 ($stats)${problems}"
        show "$OUT/$1.out"
        show "$OUT/$1.err"
        failed=$((failed + 1))
    fi
}

# lines_of FILE OUT: the text-report lines about FILE in OUT (a file's complete report).
lines_of() {
    grep -F -e "$1:" "$2" || true
}

# hmulti NAME SECONDS MEGABYTES HOSTILE GOOD... - issue 8 item 6: validate GOOD files
# around a HOSTILE one in one run; every GOOD file's report must be exactly its report
# when validated alone, the hostile one must be reported, and the summary must count all.
hmulti() {
    name=$1
    secs=$2
    mb=$3
    hostile=$4
    shift 4
    [ $san -eq 1 ] && secs=$((secs * SAN_TIME)) && mb=$((mb * SAN_MEM + SAN_MEM_BASE))
    first=$1
    shift
    problems=""
    LD_PRELOAD="$dir/nosocket.so" NOSOCKET_LOG="$OUT/$name.net" "$dir/bound" "$secs" "$mb" "$OUT/$name.report" -- \
        "$bin" validate --rules rules-yaml "$first" "$hostile" "$@" \
        < /dev/null > "$OUT/$name.out" 2> "$OUT/$name.err"
    check_run "$name" 2
    n=1
    for good in "$first" "$@"; do
        n=$((n + 1))
        "$bin" validate --rules rules-yaml "$good" > "$OUT/$name.alone" 2>&1 < /dev/null
        lines_of "$good" "$OUT/$name.alone" > "$OUT/$name.want"
        lines_of "$good" "$OUT/$name.out" > "$OUT/$name.got"
        if [ ! -s "$OUT/$name.want" ]; then
            problems="$problems; $good alone reports nothing (the case proves nothing)"
        elif ! cmp -s "$OUT/$name.want" "$OUT/$name.got"; then
            problems="$problems; report of $good differs from its report alone"
        fi
    done
    if ! grep -q -F -e "$hostile:" "$OUT/$name.out" "$OUT/$name.err"; then
        problems="$problems; $hostile is not reported"
    fi
    grep -q -E " in $n files\$" "$OUT/$name.out" || problems="$problems; summary does not count $n files"
    finish "$name"
}

# hmulti_json NAME SECONDS MEGABYTES DIR - the same for --format json on a directory: every
# file of DIR has an entry; each file that parses has exactly the diagnostics it has when
# validated alone, each one that does not has an "error" with a line (python3 compares).
hmulti_json() {
    name=$1
    secs=$2
    mb=$3
    multi=$4
    [ $san -eq 1 ] && secs=$((secs * SAN_TIME)) && mb=$((mb * SAN_MEM + SAN_MEM_BASE))
    problems=""
    LD_PRELOAD="$dir/nosocket.so" NOSOCKET_LOG="$OUT/$name.net" "$dir/bound" "$secs" "$mb" "$OUT/$name.report" -- \
        "$bin" validate --rules rules-yaml --format json "$multi" \
        < /dev/null > "$OUT/$name.out" 2> "$OUT/$name.err"
    check_run "$name" 2
    for f in "$multi"/*.json; do
        "$bin" validate --rules rules-yaml --format json "$f" > "$OUT/$name.$(basename "$f")" 2>&1 < /dev/null
    done
    why=$(python3 - "$OUT/$name.out" "$multi" "$OUT/$name." <<'PY' 2>&1
import json, os, sys
out, multi, alone = sys.argv[1:]
names = sorted(os.path.join(multi, f) for f in os.listdir(multi) if f.endswith(".json"))
files = {f["file"]: f for f in json.load(open(out))["files"]}
for n in names:
    got = files.get(n)
    want = json.load(open(alone + os.path.basename(n)))["files"][0]
    if got is None:
        print("no entry for", n)
    elif "error" in want:
        if "line" not in got.get("error", {}):
            print(n, "has no error with a line")
    elif got.get("diagnostics") != want["diagnostics"]:
        print(n, "diagnostics differ from its report alone")
if len(files) != len(names):
    print(len(files), "entries for", len(names), "files")
PY
)
    [ -z "$why" ] || problems="; $(echo "$why" | tr '\n' ';')"
    finish "$name"
}

# hnet_selftest - no case may open a socket; this one proves the shim itself works (a case
# could otherwise pass because the shim was not loaded).
hnet_selftest() {
    name=nosocket-shim-works
    problems=""
    LD_PRELOAD="$dir/nosocket.so" NOSOCKET_LOG="$OUT/$name.net" "$dir/bound" 10 100 "$OUT/$name.report" -- \
        getent ahosts hostile.invalid > "$OUT/$name.out" 2> "$OUT/$name.err"
    grep -q '^getaddrinfo(hostile.invalid)' "$OUT/$name.net" 2>/dev/null \
        || problems="; the shim did not log getaddrinfo (is $dir/nosocket.so preloaded?)"
    finish "$name"
}

. "$T/cases.sh"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
