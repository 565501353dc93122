#!/bin/sh
# run.sh NATIVE WASM_JS - the WebAssembly command line (make wasm, docs/wasm.md) against
# the native one, run by `make test-wasm` (mk/wasm.mk), from the repository root:
#   conformance  every fixture folder of conformance/ judged by both (the JSON, SARIF
#                and text reports of one run per folder, with the tree's rule sets):
#                stdout, stderr and exit status byte for byte the same
#   corpus       tests/run-corpus.sh with the wasm program (its snapshots are the
#                native output), and the corpus judged by both in one run, compared
#   goldens      tests/run-cli.sh with the wasm program: every case passes but those
#                tests/wasm/cli-skip.txt lists with the reason (capture, lsp, -j
#                specifics, the build tree's own rules folder): goldens that do not
#                apply to this build, each printed ("n/a") and counted apart from skips
#                (a skip is a check that could not run here; these never apply), and a
#                listed case that passes fails the run, so the list only shrinks
#   cache        the doc cache (src/doc/doc_cache.c; docs/wasm.md): a run with an empty
#                cache folder keeps entries, a second one reads them and reports the same;
#                as a user not root (as root: nobody, with setpriv) entries are kept too
#   embedded     the default rule set from any folder with no rules folder (/): the
#                newest release of mcpdesc-mcp, as the native program's installed set;
#                capture and lsp exit 2 naming the native build
#   size         gzip -9 of mcpdesc.wasm + mcpdesc.js at most 2 MiB (issue 33)
#   time         validate of 10,000 tools (build/bench/desc-10000-s20261201.json, made by
#                tools/bench/gen-description.py when missing), native and wasm
#                alternated 3 times each: the ratio of the medians is printed, not
#                asserted (speed is measured, not tested)
# The wasm program runs through a wrapper that gives it what a build tree's native
# binary finds by itself: the tree's rules-yaml as default set (MCPDESC_RULES) and the
# tree's releases ahead of the embedded ones (MCPDESC_RULES_PATH). The goldens run in
# MCPDESC_TEST_JOBS processes (default: nproc; tests/run-cli.sh's MCPDESC_CLI_SHARD), beside
# the conformance and corpus checks. Prints ok/FAIL per check, then "N passed, N failed,
# N skipped, N not applicable"; exits 1 on a failure. The program runs from a copy in a
# scratch folder that every user can read: a case run as nobody must reach it, also from
# a clone in a mode-700 folder (as mktemp -d makes, and CI clones).
set -u
if [ $# -ne 2 ]; then
    echo "usage: sh tests/wasm/run.sh NATIVE WASM_JS" >&2
    exit 2
fi
here=$(pwd)
native=$1
js=$2
case $native in /*) ;; *) native="$here/$native" ;; esac
case $js in /*) ;; *) js="$here/$js" ;; esac
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
. tests/skip.sh
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-wasm.XXXXXX") || exit 2
shard_pids=""
# shellcheck disable=SC2086
trap 'kill $shard_pids 2> /dev/null; rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
passed=0
failed=0
skipped=0
inapplicable=0
ok() {
    echo "ok $1"
    passed=$((passed + 1))
}
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}

mkdir -p "$tmp/bin" && cp "$js" "${js%.js}.wasm" "$tmp/bin/" || exit 2
js=$tmp/bin/$(basename "$js")
wasm="$tmp/mcpdesc"
cat > "$wasm" << EOF
#!/bin/sh
MCPDESC_RULES=\${MCPDESC_RULES-$root/rules-yaml}
MCPDESC_RULES_PATH=\${MCPDESC_RULES_PATH:+\$MCPDESC_RULES_PATH:}$root/rules-yaml/releases
export MCPDESC_RULES MCPDESC_RULES_PATH
exec node "$js" "\$@"
EOF
# readable by all: a golden case may run it as nobody (tests/run-cli.sh, readonly)
chmod 755 "$tmp" "$wasm" && chmod -R a+rX "$tmp/bin"

# goldens, started first: MCPDESC_TEST_JOBS shards of tests/run-cli.sh in the background
jobs=${MCPDESC_TEST_JOBS:-$(nproc 2> /dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
k=0
while [ $k -lt "$jobs" ]; do
    MCPDESC_CLI_SHARD=$k/$jobs sh tests/run-cli.sh "$wasm" > "$tmp/cli.$k.log" 2>&1 &
    shard_pids="$shard_pids $!"
    k=$((k + 1))
done

# same NAME ARGS...: NATIVE and the wasm program with ARGS; their stdout, stderr and
# status must be the same
same() {
    name=$1
    shift
    "$native" "$@" > "$tmp/n.out" 2> "$tmp/n.err" < /dev/null
    ns=$?
    "$wasm" "$@" > "$tmp/w.out" 2> "$tmp/w.err" < /dev/null
    ws=$?
    problems=""
    [ "$ns" = "$ws" ] || problems="$problems status($ns/$ws)"
    cmp -s "$tmp/n.out" "$tmp/w.out" || problems="$problems stdout"
    cmp -s "$tmp/n.err" "$tmp/w.err" || problems="$problems stderr"
    if [ -z "$problems" ]; then
        ok "$name"
        return
    fi
    fail "$name:$problems (- native, + wasm)"
    diff -u "$tmp/n.out" "$tmp/w.out" | tail -n +3 | head -n 10 | sed 's/^/    /'
    diff -u "$tmp/n.err" "$tmp/w.err" | tail -n +3 | head -n 10 | sed 's/^/    /'
}

# conformance: one run per folder and format
for d in conformance/*/; do
    d=${d%/}
    rules="rules-yaml"
    case $d in
    conformance/security) rules="rules-yaml/security" ;;
    conformance/diff) continue ;; # pairs for `mcpdesc diff`, judged below
    esac
    for f in json sarif text; do
        same "conformance $d ($f)" validate --rules "$rules" --preset all --format "$f" --color never "$d"
    done
done
for pair in conformance/diff/*/; do
    if [ ! -f "${pair}old.json" ] || [ ! -f "${pair}new.json" ]; then continue; fi
    same "diff ${pair%/}" diff --format json "${pair}old.json" "${pair}new.json"
done

# corpus
NO_COLOR=1 same "corpus (text, --preset all)" validate --rules rules-yaml --preset all --color never examples/corpus
if sh tests/run-corpus.sh "$wasm" > "$tmp/corpus.log" 2>&1; then
    ok "tests/run-corpus.sh: $(tail -n 1 "$tmp/corpus.log")"
else
    fail "tests/run-corpus.sh:"
    grep -v '^ok ' "$tmp/corpus.log" | head -n 20 | sed 's/^/    /'
fi

# goldens: the shards' logs, and one "N passed, N failed" line summing theirs
for p in $shard_pids; do wait "$p"; done
cat "$tmp"/cli.*.log > "$tmp/cli.log"
for k in $(seq 0 $((jobs - 1))); do tail -n 1 "$tmp/cli.$k.log"; done |
    awk '$2 == "passed," && $4 == "failed" { p += $1; f += $3; n++ }
        END { if (n == '"$jobs"') print p " passed, " f " failed"; else print "a shard of tests/run-cli.sh did not finish" }' >> "$tmp/cli.log"
if [ "$(tail -n 1 "$tmp/cli.log")" = "a shard of tests/run-cli.sh did not finish" ]; then
    fail "tests/run-cli.sh: a shard did not finish:"
    for k in $(seq 0 $((jobs - 1))); do tail -n 3 "$tmp/cli.$k.log" | sed "s/^/    shard $k: /"; done
fi
grep '^FAIL tests/cli/' "$tmp/cli.log" | sed 's|^FAIL tests/cli/||' | sort > "$tmp/cli-failed"
sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' tests/wasm/cli-skip.txt | sort -u > "$tmp/cli-skip"
unexpected=$(comm -23 "$tmp/cli-failed" "$tmp/cli-skip")
if [ -z "$unexpected" ]; then
    ok "tests/run-cli.sh: $(tail -n 1 "$tmp/cli.log"), every failure listed in tests/wasm/cli-skip.txt"
else
    fail "tests/run-cli.sh: cases that differ from the native goldens:"
    for c in $unexpected; do
        awk -v c="tests/cli/$c" '$0 == "FAIL " c { p = 1; print; next } /^(ok|FAIL) / { p = 0 } p' "$tmp/cli.log" |
            head -n 16 | sed 's/^/    /'
    done
fi
for c in $(comm -12 "$tmp/cli-failed" "$tmp/cli-skip"); do
    why=$(grep "^${c}[[:space:]]" tests/wasm/cli-skip.txt | sed 's/^[^#]*#[[:space:]]*//' | head -n 1)
    echo "n/a golden $c (${why:-tests/wasm/cli-skip.txt})"
    inapplicable=$((inapplicable + 1))
done
# a listed case that passes is no longer a difference: the list shrinks
for c in $(comm -13 "$tmp/cli-failed" "$tmp/cli-skip"); do
    fail "tests/wasm/cli-skip.txt lists $c, which now passes: remove it"
done

# the doc cache: kept in an empty folder, read back with the same report; and kept for a
# user who is not root (emscripten's geteuid said 0: tools/wasm/library.js)
mkdir -p "$tmp/cache"
XDG_CACHE_HOME="$tmp/cache" "$wasm" validate --format json examples/weather.json > "$tmp/c1.out" 2>&1
kept=$(find "$tmp/cache" -type f | wc -l)
XDG_CACHE_HOME="$tmp/cache" "$wasm" validate --format json examples/weather.json > "$tmp/c2.out" 2>&1
if [ "$kept" -gt 0 ] && cmp -s "$tmp/c1.out" "$tmp/c2.out"; then
    ok "doc cache: $kept entries kept, the same report read from them"
else
    fail "doc cache: $kept entries kept in $tmp/cache; reports of the two runs: $(cmp "$tmp/c1.out" "$tmp/c2.out" 2>&1)"
fi
as_user=""
if [ "$(id -u)" != 0 ]; then
    as_user=" "
elif command -v setpriv > /dev/null 2>&1; then
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ -n "$as_user" ]; then
    mkdir -p "$tmp/user" && cp examples/weather.json "$tmp/user/" && chmod 777 "$tmp/user"
    # shellcheck disable=SC2086
    (cd "$tmp/user" && XDG_CACHE_HOME="$tmp/user" $as_user node "$js" validate weather.json > /dev/null 2>&1)
    kept=$(find "$tmp/user/mcpdesc" -type f 2> /dev/null | wc -l)
    if [ "$kept" -gt 0 ]; then
        ok "doc cache: kept for a user who is not root ($kept entries)"
    else
        fail "doc cache: no entry kept for a user who is not root (geteuid: tools/wasm/library.js)"
    fi
else
    test_skip test-wasm "the doc cache of a user who is not root" "root without setpriv" || failed=$((failed + 1))
    skipped=$((skipped + 1))
fi

# embedded rule sets, from a folder with no rules folder, without the wrapper
out=$(cd / && node "$js" validate --format json "$root/examples/weather.json" 2>&1)
case $out in
*'"name": "mcpdesc-mcp"'*'"tag": "v'*'"shipped": true'*) ok "embedded: the default rule set is a shipped release" ;;
*) fail "embedded: the default rule set from /: $(echo "$out" | head -n 5)" ;;
esac
for c in capture lsp; do
    (cd / && node "$js" "$c" > "$tmp/c.out" 2> "$tmp/c.err")
    st=$?
    if [ $st = 2 ] && grep -q 'native' "$tmp/c.err" && [ ! -s "$tmp/c.out" ]; then
        ok "$c: exit 2, names the native build"
    else
        fail "$c: status $st, stderr: $(cat "$tmp/c.err")"
    fi
done

# size
wasm_gz=$(gzip -9c "${js%.js}.wasm" | wc -c)
js_gz=$(gzip -9c "$js" | wc -c)
total=$((wasm_gz + js_gz))
if [ $total -le 2097152 ]; then
    ok "size: $total bytes gzipped (wasm $wasm_gz, js $js_gz) <= 2 MiB"
else
    fail "size: $total bytes gzipped (wasm $wasm_gz, js $js_gz) > 2 MiB"
fi

# time on 10,000 tools, alternated; printed only
big=build/bench/desc-10000-s20261201.json
if [ ! -f "$big" ] && command -v python3 > /dev/null 2>&1; then
    mkdir -p build/bench && python3 tools/bench/gen-description.py 10000 "$big" --seed=20261201 > /dev/null
fi
if [ -f "$big" ]; then
    for _ in 1 2 3; do
        for p in native wasm; do
            prog=$native
            [ $p = wasm ] && prog=$wasm
            s=$(date +%s%N)
            "$prog" validate -q --rules rules-yaml "$big" > /dev/null 2>&1
            e=$(date +%s%N)
            echo "$(((e - s) / 1000000))" >> "$tmp/time.$p"
        done
    done
    n=$(sort -n "$tmp/time.native" | sed -n 2p)
    w=$(sort -n "$tmp/time.wasm" | sed -n 2p)
    echo "time: validate of 10,000 tools, median of 3 alternated: native $n ms, wasm $w ms," \
        "wasm/native $(awk -v w="$w" -v n="$n" 'BEGIN { printf "%.2f", w / n }') (issue 33's goal: 2)"
else
    test_skip test-wasm "time on 10,000 tools" "no $big and no python3 to make it" || failed=$((failed + 1))
    skipped=$((skipped + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped, $inapplicable not applicable (tests/wasm/cli-skip.txt)"
[ $failed -eq 0 ]
