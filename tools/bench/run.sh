#!/bin/sh
# run.sh - the benchmark of issue #8 (docs/bench.md): mcpdesc against the parse floor
# and Spectral on large generated descriptions. Not part of `make check`.
#
# For each size (tools/bench/gen-description.py, 1,000 / 10,000 / 50,000 tools) it times,
# in one run with alternating repetitions (the order rotates every repetition) and
# reports medians of wall time and peak RSS (/usr/bin/time -f %M) of:
#   parse     tools/bench/parse-floor.c: read the file, jansson json_loadb, free
#   seed      mcpdesc validate --format json with the two seed rules only
#   full      mcpdesc validate --format json with the shipped rule set (rules-yaml/)
#   security  the same with the security set (rules-yaml/security: the MCP set's rules,
#             then every security.* rule; target: at most 1.20x full)
#   diff      mcpdesc diff --format json of the file against a copy with one change (the
#             first tool's description; the change rules of rules-yaml/diff; target:
#             at most 2x full, issue 31)
#   spectral  Spectral 6 with tools/bench/spectral/mcp-seed-rules.js (the same two rules)
# and checks that mcpdesc (seed rules) and Spectral report the same (rule, JSON pointer,
# versions) nodes (tools/bench/compare.py). Exit status: 0 when everything ran and the
# nodes agree, 1 when the nodes differ, 2 when something could not run. The targets of
# issue #8 are printed as met / NOT MET; missing a target does not change the status.
#
# Settings (environment):
#   BENCH_SIZES="1000 10000 50000"  sizes, in tools
#   BENCH_REPS=5                    repetitions per size and program
#   BENCH_SPECTRAL_MAX=50000        run Spectral only on sizes up to this (0: never)
#   BENCH_SEED=20261201             generator seed
#   MCPDESC=build/mcpdesc           the binary to measure (make bench passes $(BIN))
#   BENCH_DIR=build/bench           generated files, outputs, parse-floor binary
#   BENCH_NPM=build/bench/npm       scratch npm prefix for @stoplight/spectral-cli 6.x
# Needs python3, cc, pkg-config + jansson; installs nodejs, npm and time with apt-get
# (as root, or with sudo) when missing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
sizes=${BENCH_SIZES:-1000 10000 50000}
reps=${BENCH_REPS:-5}
spectral_max=${BENCH_SPECTRAL_MAX:-50000}
seed=${BENCH_SEED:-20261201}
mcpdesc=${MCPDESC:-build/mcpdesc}
bench=${BENCH_DIR:-build/bench}
npmdir=${BENCH_NPM:-build/bench/npm}
out=$bench/out
spectral=$npmdir/node_modules/.bin/spectral
ruleset=tools/bench/spectral/mcp-seed-rules.js

die() { echo "bench: $*" >&2; exit 2; }
case $reps in ''|*[!0-9]*|0) die "BENCH_REPS must be a positive integer, not '$reps'";; esac
for n in $sizes; do
    case $n in ''|*[!0-9]*|0) die "BENCH_SIZES must list positive integers, not '$n'";; esac
done
[ -x "$mcpdesc" ] || die "no mcpdesc binary at $mcpdesc (run 'make' or set MCPDESC=...)"
mkdir -p "$bench" "$out"

# ---- dependencies -----------------------------------------------------------------
missing=""
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -x /usr/bin/time ] || missing="$missing time"
if [ -n "$missing" ]; then
    echo "bench: installing Debian packages:$missing"
    if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo=sudo; else
        die "need root to apt-get install$missing"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq || die "apt-get update failed"
    # shellcheck disable=SC2086
    $sudo apt-get install -y -qq --no-install-recommends $missing || die "apt-get install$missing failed"
fi
command -v python3 >/dev/null 2>&1 || die "python3 is needed (apt-get install python3)"
pkg-config --exists jansson || die "jansson is needed (sh tools/install-deps.sh)"
if [ ! -x "$spectral" ]; then
    echo "bench: installing @stoplight/spectral-cli 6.x into $npmdir (npm)"
    mkdir -p "$npmdir"
    npm install --prefix "$npmdir" --no-audit --no-fund --silent '@stoplight/spectral-cli@6' \
        >"$bench/npm.log" 2>&1 || die "npm install failed, see $bench/npm.log"
fi
spectral_version=$("$spectral" --version 2>/dev/null) || die "$spectral does not run"
case $spectral_version in 6.*) ;; *) die "Spectral 6 expected, found '$spectral_version'";; esac

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
ids=$("$mcpdesc" rules list --rules "$seedrules" 2>&1 | awk 'NR>1 && $1 !~ /^mcpdesc\./ {print $1}' | sort | tr '\n' ' ')
[ "$ids" = "mcp.tool.input-schema.object-root mcp.tool.schema.native-shape " ] ||
    die "the seed rule set $seedrules does not hold exactly the two seed rules: '$ids'"
"$mcpdesc" rules list --rules rules-yaml >/dev/null 2>"$out/rules.err" ||
    die "mcpdesc cannot load rules-yaml/: $(head -3 "$out/rules.err")"

# run NAME FILE: one timed run of program NAME on FILE; appends "ms kb" to $out/NAME-N.
run() {
    case $1 in
    parse) set -- "$1" "$2" "$floor" "$2" ;;
    seed) set -- "$1" "$2" "$mcpdesc" validate --rules "$seedrules" --format json "$2" ;;
    full) set -- "$1" "$2" "$mcpdesc" validate --rules rules-yaml --format json "$2" ;;
    security) set -- "$1" "$2" "$mcpdesc" validate --rules rules-yaml/security --format json "$2" ;;
    diff) set -- "$1" "$2" "$mcpdesc" diff --rules rules-yaml/diff --format json "$2" "${2%.json}-changed.json" ;;
    spectral) set -- "$1" "$2" "$spectral" lint -q -r "$ruleset" -f json "$2" ;;
    esac
    name=$1
    shift 2
    t0=$(date +%s%N)
    st=0
    /usr/bin/time -f %M -o "$out/rss" "$@" >/dev/null 2>"$out/stderr" || st=$?
    t1=$(date +%s%N)
    case $name:$st in
    parse:0 | seed:[01] | full:[01] | security:[01] | diff:[01] | spectral:[01]) ;;
    *) die "$name exited with $st on $file: $(head -3 "$out/stderr")" ;;
    esac
    echo "$(((t1 - t0) / 1000000)) $(tail -1 "$out/rss")" >>"$out/$name-$n"
}

# median COLUMN FILE: the median of a column of numbers (the lower one for even counts)
median() {
    awk -v c="$1" '{print $c}' "$2" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

# spread FILE: "min-max" of the times (column 1), in seconds, to show the noise
spread() {
    sort -n "$1" | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%.2f-%.2f", lo/1000, hi/1000}'
}

status=0
summary=$out/summary
: >"$summary"
echo "mcpdesc benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
echo "mcpdesc: $mcpdesc ($("$mcpdesc" --version 2>&1 | head -1)); Spectral $spectral_version; jansson $(pkg-config --modversion jansson)"
echo "sizes: $sizes; repetitions: $reps (alternating, medians); seed $seed; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $sizes; do
    file=$bench/desc-$n-s$seed.json
    if [ ! -s "$file" ] || newer tools/bench/gen-description.py "$file"; then
        python3 tools/bench/gen-description.py "$n" "$file.tmp" --seed="$seed" && mv "$file.tmp" "$file"
    fi
    bytes=$(wc -c <"$file")
    # the same description with one change, for diff (one tool's description rewritten)
    changed=${file%.json}-changed.json
    if [ ! -s "$changed" ] || newer "$file" "$changed"; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["tools"][0]["description"]+=" (changed)"; json.dump(d,open(sys.argv[2],"w"))' "$file" "$changed.tmp" && mv "$changed.tmp" "$changed"
    fi
    progs="parse seed full security diff"
    [ "$n" -le "$spectral_max" ] && progs="$progs spectral"
    for p in $progs; do : >"$out/$p-$n"; done

    # The same nodes? One untimed run of each, then compare.
    cmp="skipped (Spectral not run at this size)"
    if [ "$n" -le "$spectral_max" ]; then
        st=0
        "$mcpdesc" validate --rules "$seedrules" --format json "$file" >"$out/seed-$n.json" 2>"$out/stderr" || st=$?
        [ "$st" -le 1 ] || die "mcpdesc exited with $st on $file: $(head -3 "$out/stderr")"
        st=0
        "$spectral" lint -q -r "$ruleset" -f json "$file" >"$out/spectral-$n.json" 2>"$out/stderr" || st=$?
        [ "$st" -le 1 ] || die "spectral exited with $st on $file: $(head -3 "$out/stderr")"
        if cmp=$(python3 tools/bench/compare.py "$out/seed-$n.json" "$out/spectral-$n.json"); then :; else
            status=1
        fi
    fi

    # Alternating repetitions: every program once per round, the first one rotating.
    r=0
    while [ "$r" -lt "$reps" ]; do
        # shellcheck disable=SC2086
        set -- $progs
        i=0
        while [ "$i" -lt $((r % $#)) ]; do first=$1; shift; set -- "$@" "$first"; i=$((i + 1)); done
        for p in "$@"; do run "$p" "$file"; done
        r=$((r + 1))
    done

    for p in $progs; do
        echo "$n $p $(median 1 "$out/$p-$n") $(median 2 "$out/$p-$n") $(spread "$out/$p-$n")" >>"$summary"
    done
    echo
    awk -v n="$n" -v bytes="$bytes" -v reps="$reps" -v file="$file" '
        $1 == n { t[$2] = $3 / 1000; m[$2] = $4 / 1024; sp[$2] = $5 }
        function ratio(a, b) { return (b > 0) ? sprintf("%.2fx", a / b) : "-" }
        function mark(ok) { return ok ? "met" : "NOT MET" }
        END {
            printf "== %d tools, %.1f MB (%s), median of %d runs\n", n, bytes / 1e6, file, reps
            printf "%-26s %9s %11s %10s %9s %12s %12s\n", "", "time (s)", "min-max (s)", "RSS (MiB)", "vs parse",
                "vs Spectral", "RSS vs Spec."
            split("parse seed full security diff spectral", order, " ")
            label["parse"] = "bare jansson parse"; label["seed"] = "mcpdesc, 2 seed rules"
            label["full"] = "mcpdesc, full rule set"; label["spectral"] = "Spectral, 2 seed rules"
            label["security"] = "mcpdesc, security set"; label["diff"] = "mcpdesc diff, one change"
            for (i = 1; i <= 6; i++) {
                p = order[i]
                if (!(p in t)) continue
                printf "%-26s %9.3f %11s %10.1f %9s %12s %12s\n", label[p], t[p], sp[p], m[p], ratio(t[p], t["parse"]),
                    ("spectral" in t) ? ratio(t[p], t["spectral"]) : "-", ("spectral" in t) ? ratio(m[p], m["spectral"]) : "-"
            }
            printf "targets (issue #8):\n"
            printf "  seed rules <= 1.5x bare parse       %8s  %s\n", ratio(t["seed"], t["parse"]), mark(t["seed"] <= 1.5 * t["parse"])
            if ("spectral" in t) {
                printf "  seed rules <= 0.1x Spectral time    %8s  %s\n", ratio(t["seed"], t["spectral"]), mark(t["seed"] <= 0.1 * t["spectral"])
                printf "  seed rules <= 1/3 Spectral memory   %8s  %s\n", ratio(m["seed"], m["spectral"]), mark(m["seed"] * 3 <= m["spectral"])
            }
            printf "  full rules <= 3x bare parse         %8s  %s\n", ratio(t["full"], t["parse"]), mark(t["full"] <= 3 * t["parse"])
            printf "  security set <= 1.20x full rules    %8s  %s\n", ratio(t["security"], t["full"]), mark(t["security"] <= 1.2 * t["full"])
            printf "  diff (one change) <= 2x full rules  %8s  %s\n", ratio(t["diff"], t["full"]), mark(t["diff"] <= 2 * t["full"])
        }' "$summary"
    echo "same nodes as Spectral (seed rules): $cmp"
done

# Linear growth: cost per MB of input at each size (flat when the cost is linear).
echo
awk -v sizes="$sizes" -v dir="$bench" -v seed="$seed" '
    { t[$1, $2] = $3; seen[$2] = 1 }
    END {
        k = split(sizes, s, " ")
        printf "== scaling: median milliseconds per MB of input (flat = linear)\n%-10s", ""
        for (i = 1; i <= k; i++) printf " %10s", s[i] " tools"
        printf "\n"
        split("parse seed full spectral", order, " ")
        for (j = 1; j <= 4; j++) {
            p = order[j]
            if (!(p in seen)) continue
            printf "%-10s", p
            for (i = 1; i <= k; i++) {
                f = dir "/desc-" s[i] "-s" seed ".json"
                cmd = "wc -c <" f; cmd | getline b; close(cmd)
                if ((s[i], p) in t) printf " %10.1f", t[s[i], p] / (b / 1e6); else printf " %10s", "-"
            }
            printf "\n"
        }
    }' "$summary"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$status" != 0 ]; then
    echo
    echo "bench: FAILED: mcpdesc and Spectral do not report the same nodes (see above;"
    echo "       reports in $out/seed-N.json and $out/spectral-N.json)"
fi
exit "$status"
