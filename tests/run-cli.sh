#!/bin/sh
# run-cli.sh [--write-missing] BINARY - golden-file tests of the mcpdesc command line.
# Each case is a directory tests/cli/<case>/ holding all four of
#   args    the arguments, one per line (an empty file: no argument); @ROOT@ stands for
#           the repository's absolute path
#   stdin   optional: fed to the command (else /dev/null)
#   env     optional: environment variables for the command, one VAR=value a line
#           (exported as written, no quoting or expansion but @ROOT@ and @WORK@; blank
#           lines and lines starting with # are ignored): SOURCE_DATE_EPOCH=1767225600 fixes "today"
#           for the suppressions' until dates
#   stdout  the exact expected standard output (an empty file: expect it empty)
#   stderr  the exact expected standard error (an empty file: expect it empty)
#   status  the expected exit status
#   work    optional: repository paths, one a line, copied into a scratch directory
#           the case may change (`mcpdesc fix` writes files); @WORK@ in args stands
#           for it, and reads @WORK@ in the outputs
#   expect/ optional: each file expect/NAME must equal @WORK@/NAME byte for byte
#           after the run (what a command wrote); NAME may be a path below expect/
#   setup   optional: a shell script run as `sh setup` in the scratch directory (@WORK@,
#           made for it) before the command, with ROOT set to the repository and BIN to
#           the program under test: to build
#           what a case needs from the checkout (a copy of a release with one file
#           changed) instead of committing copies; a setup that fails fails the case
#   readonly-files optional: names of files in the scratch directory, one a line, made
#           mode 444 (no write permission for anyone) before the run
#   readonly optional (empty): the scratch directory is made read-only (its files
#           writable by anyone, so that only the directory refuses); as root, who
#           may write there anyway, the command runs as nobody (setpriv), else the
#           case is a counted skip (tests/skip.sh)
# A case without args, stdout, stderr or status fails, and so does a run with no case: a
# golden that compares less than everything has let bugs through (shifted YAML error
# columns passed when only the status was compared). In the outputs, rule-set digests
# (sha256:<64 hex>) read sha256:DIGEST and the repository's absolute path reads @ROOT@
# (where it is a whole path, tests/mask-path.sh: a checkout at /project leaves
# .../projection-types.json alone), so SARIF's file:// base URI is the same on every machine.
# --write-missing writes the files a case lacks from this run (review them before
# committing); it never rewrites an existing golden. Cases run from the repository root.
# MCPDESC_CLI_SHARD=K/N runs only the cases whose place in the list, counted from 0, is K
# modulo N: a runner that splits the cases among N processes (tests/wasm/run.sh) gives
# each its K. Prints ok/FAIL per case, then "N passed, N failed".
set -u
# no .mcpdesc.yaml above the checkout changes a golden (cases name theirs with --config)
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG
write_missing=0
if [ "${1:-}" = --write-missing ]; then
    write_missing=1
    shift
fi
if [ $# -ne 1 ]; then
    echo "usage: sh tests/run-cli.sh [--write-missing] BINARY" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
. tests/mask-path.sh
if [ ! -x "$bin" ]; then
    echo "run-cli: cannot run $bin" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# run_case DIR: runs the binary with DIR/args; sets $status, fills $tmp/out, $tmp/err.
run_case() {
    dir=$1
    work=$tmp/work
    rm -rf "$work"
    as_nobody=""
    if [ -f "$dir/setup" ]; then
        mkdir -p "$work"
        if ! (cd "$work" && ROOT=$root BIN=$bin sh "$root/$dir/setup") > "$tmp/setup.log" 2>&1; then
            echo "setup of $dir failed:" > "$tmp/err"
            cat "$tmp/setup.log" >> "$tmp/err"
            : > "$tmp/out"
            status=99
            return
        fi
    fi
    if [ -f "$dir/work" ]; then
        mkdir -p "$work"
        while IFS= read -r f || [ -n "$f" ]; do
            [ -n "$f" ] && cp "$f" "$work/"
        done < "$dir/work"
        if [ -f "$dir/readonly" ]; then
            # the files writable by anyone, so that only the directory refuses
            chmod a+rx "$tmp" && chmod -R a+rw "$work" && chmod a-w "$work"
            [ "$(id -u)" = 0 ] && as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
        fi
        # nobody may not reach the checkout (a clone in a mode-700 folder, as mktemp -d
        # makes): it reads a copy of the shipped rule set in the scratch folder instead
        if [ -n "$as_nobody" ] && [ ! -d "$tmp/rs" ]; then
            mkdir -p "$tmp/rs/rules-yaml" &&
                cp -r "$root/schema" "$root/conformance" "$tmp/rs/" &&
                cp "$root"/rules-yaml/*.yaml "$tmp/rs/rules-yaml/" &&
                cp -r "$root/rules-yaml/tags" "$tmp/rs/rules-yaml/" &&
                chmod -R a+rX "$tmp/rs" || exit 2
        fi
        if [ -f "$dir/readonly-files" ]; then
            while IFS= read -r f || [ -n "$f" ]; do
                [ -n "$f" ] && chmod 444 "$work/$f"
            done < "$dir/readonly-files"
        fi
    fi
    set --
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in *@ROOT@*) line="$root${line#*@ROOT@}" ;; esac
        case $line in *@WORK@*) line="${line%%@WORK@*}$work${line#*@WORK@}" ;; esac
        set -- "$@" "$line"
    done < "$dir/args"
    input=/dev/null
    [ -f "$dir/stdin" ] && input="$dir/stdin"
    (
        if [ -f "$dir/env" ]; then
            while IFS= read -r var || [ -n "$var" ]; do
                case $var in '' | '#'*) continue ;; esac
                case $var in *@ROOT@*) var="${var%%@ROOT@*}$root${var#*@ROOT@}" ;; esac
                case $var in *@WORK@*) var="${var%%@WORK@*}$work${var#*@WORK@}" ;; esac
                export "${var%%=*}=${var#*=}"
            done < "$dir/env"
        fi
        [ -n "$as_nobody" ] && export MCPDESC_RULES="$tmp/rs/rules-yaml"
        exec $as_nobody "$bin" "$@"
    ) < "$input" > "$tmp/out" 2> "$tmp/err"
    status=$?
    [ -d "$work" ] && chmod u+w "$work"
    # the rule set's digest changes with every rule edit: goldens say sha256:DIGEST
    sed -i -e 's/sha256:[0-9a-f]\{64\}/sha256:DIGEST/g' "$tmp/out" "$tmp/err"
    # only as a whole path (tests/mask-path.sh): a checkout at /project left
    # .../projection-types.json and https://example.test/project/ alone
    mask_path "$work" @WORK@ "$tmp/out" "$tmp/err"
    mask_path "$root" @ROOT@ "$tmp/out" "$tmp/err"
}

shard_k=0
shard_n=1
if [ -n "${MCPDESC_CLI_SHARD:-}" ]; then
    shard_k=${MCPDESC_CLI_SHARD%%/*}
    shard_n=${MCPDESC_CLI_SHARD#*/}
    case $shard_k/$shard_n in
    *[!0-9/]* | /* | */ | 0/0 | */0) shard_n=0 ;;
    esac
    if [ "$shard_n" = 0 ] || [ "$shard_k" -ge "$shard_n" ]; then
        echo "run-cli: MCPDESC_CLI_SHARD=$MCPDESC_CLI_SHARD: expected K/N, 0 <= K < N" >&2
        exit 2
    fi
fi
passed=0
failed=0
cases=0
place=-1
for case_dir in tests/cli/*/; do
    [ -d "$case_dir" ] || continue
    place=$((place + 1))
    [ $((place % shard_n)) -eq "$shard_k" ] || continue
    case_dir=${case_dir%/}
    cases=$((cases + 1))
    missing=""
    for f in args stdout stderr status; do
        [ -f "$case_dir/$f" ] || missing="$missing $f"
    done
    case $missing in *args*)
        echo "FAIL $case_dir: no args file"
        failed=$((failed + 1))
        continue ;;
    esac
    if [ -f "$case_dir/readonly" ] && [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null 2>&1; then
        . tests/skip.sh
        test_skip test-cli "$case_dir" "a read-only directory stops no root, and setpriv is not installed" ||
            failed=$((failed + 1))
        continue
    fi
    run_case "$case_dir"
    if [ -n "$missing" ] && [ $write_missing -eq 1 ]; then
        [ -f "$case_dir/stdout" ] || cp "$tmp/out" "$case_dir/stdout"
        [ -f "$case_dir/stderr" ] || cp "$tmp/err" "$case_dir/stderr"
        [ -f "$case_dir/status" ] || echo "$status" > "$case_dir/status"
        echo "wrote$missing for $case_dir: review them"
        missing=""
    fi
    if [ -n "$missing" ]; then
        echo "FAIL $case_dir: missing$missing (every case compares stdout, stderr and status;"
        echo "    an empty file expects nothing; sh tests/run-cli.sh --write-missing BINARY writes them)"
        failed=$((failed + 1))
        continue
    fi
    want=$(tr -d ' \n' < "$case_dir/status")
    problems=""
    [ "$status" = "$want" ] || problems="$problems status"
    cmp -s "$case_dir/stdout" "$tmp/out" || problems="$problems stdout"
    cmp -s "$case_dir/stderr" "$tmp/err" || problems="$problems stderr"
    if [ -d "$case_dir/expect" ]; then
        # files in folders below expect/ too (rules init writes a tree); no spaces
        for f in $(cd "$case_dir/expect" && find . -type f | sed 's|^\./||' | sort); do
            cmp -s "$case_dir/expect/$f" "$work/$f" || problems="$problems file:$f"
        done
    fi
    if [ -z "$problems" ]; then
        echo "ok $case_dir"
        passed=$((passed + 1))
        continue
    fi
    echo "FAIL $case_dir"
    case $problems in *status*) echo "    exit status $status, expected $want" ;; esac
    for p in $problems; do
        case $p in file:*)
            echo "    the file ${p#file:} differs from $case_dir/expect/${p#file:} (- expected, + written):"
            diff -u "$case_dir/expect/${p#file:}" "$work/${p#file:}" | tail -n +3 | head -n 40 | sed 's/^/      /'
            ;;
        esac
    done
    for stream in stdout stderr; do
        actual="$tmp/out"
        [ "$stream" = stderr ] && actual="$tmp/err"
        case $problems in
        *$stream*)
            echo "    $stream differs (- expected, + actual):"
            diff -u "$case_dir/$stream" "$actual" | tail -n +3 | head -n 40 | sed 's/^/      /'
            ;;
        esac
    done
    failed=$((failed + 1))
done
if [ $cases -eq 0 ]; then
    echo "FAIL run-cli: no case in tests/cli/"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
