#!/bin/sh
# run.sh NATIVE TGZ - the npm package (make npm, docs/npm.md) against the native
# program, run by `make test-npm` (mk/npm.mk), from the repository root:
#   install      a scratch project (build/npm/scratch) installs the tarball offline
#                (the package has no dependencies; npm's cache is build/npm/cache)
#   cli          `npx mcpdesc` there: every conformance fixture folder judged by both
#                (json, sarif and text reports), the diff pairs, standard input, a
#                usage error, rules list/lint/test/explain, fix (--dry-run --diff, and
#                in place on copies), --version: stdout, stderr and exit status byte for
#                byte the same; capture and lsp exit 2 naming the native build
#   api          tests/npm/api.test.js under `node --test` in the scratch project:
#                validate, validateFiles and loadRules against the native JSON report,
#                finding by finding, field by field
#   types        tests/npm/types.test.ts under `tsc --noEmit --strict` there, against the
#                package's index.d.ts: with $MCPDESC_TSC (a tsc whose node_modules also
#                hold @types/node), else a pinned typescript and @types/node installed
#                from the npm registry into build/npm/tsc (once; Debian 12 has no
#                @types/node package); a counted skip when the registry is unreachable
#   docs         the API example of docs/npm.md (the ```js block after
#                <!-- test-npm: example.mjs -->), run there as example.mjs: it must
#                print the block after <!-- test-npm: example.mjs output -->
# Prints ok/FAIL per check, then "N passed, N failed"; exits 1 on a failure.
set -u
if [ $# -ne 2 ]; then
    echo "usage: sh tests/npm/run.sh NATIVE TGZ" >&2
    exit 2
fi
here=$(pwd)
native=$1
tgz=$2
case $native in /*) ;; *) native="$here/$native" ;; esac
case $tgz in /*) ;; *) tgz="$here/$tgz" ;; esac
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG
passed=0
failed=0
ok() {
    echo "ok $1"
    passed=$((passed + 1))
}
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-npm.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

scratch=$root/build/npm/scratch
npm_config_cache=$root/build/npm/cache
export npm_config_cache
rm -rf "$scratch"
mkdir -p "$scratch"
printf '{ "name": "scratch", "private": true, "type": "commonjs" }\n' > "$scratch/package.json"
if (cd "$scratch" && npm install --offline --no-audit --no-fund "$tgz") > "$tmp/install.log" 2>&1 &&
    [ -x "$scratch/node_modules/.bin/mcpdesc" ]; then
    ok "install: $(basename "$tgz") into build/npm/scratch, offline"
else
    fail "install:"
    sed 's/^/    /' "$tmp/install.log" | head -n 20
    echo "$passed passed, $failed failed"
    exit 1
fi

# same NAME ARGS...: the native program and `npx mcpdesc` in the scratch project, both
# from the repository root, standard input from $stdin: stdout, stderr, status the same
stdin=/dev/null
same() {
    name=$1
    shift
    "$native" "$@" > "$tmp/n.out" 2> "$tmp/n.err" < "$stdin"
    ns=$?
    npx --no --prefix "$scratch" mcpdesc "$@" > "$tmp/w.out" 2> "$tmp/w.err" < "$stdin"
    ws=$?
    problems=""
    [ "$ns" = "$ws" ] || problems="$problems status($ns/$ws)"
    cmp -s "$tmp/n.out" "$tmp/w.out" || problems="$problems stdout"
    cmp -s "$tmp/n.err" "$tmp/w.err" || problems="$problems stderr"
    if [ -z "$problems" ]; then
        ok "cli $name"
        return
    fi
    fail "cli $name:$problems (- native, + npx mcpdesc)"
    diff -u "$tmp/n.out" "$tmp/w.out" | tail -n +3 | head -n 10 | sed 's/^/    /'
    diff -u "$tmp/n.err" "$tmp/w.err" | tail -n +3 | head -n 10 | sed 's/^/    /'
}

rules=$root/rules-yaml
for d in conformance/*/; do
    d=${d%/}
    r=$rules
    case $d in
    conformance/security) r=$rules/security ;;
    conformance/diff) continue ;;
    esac
    for f in json sarif text; do
        same "$d ($f)" validate --rules "$r" --preset all --format "$f" --color never "$d"
    done
done
for pair in conformance/diff/*/; do
    if [ -f "${pair}old.json" ] && [ -f "${pair}new.json" ]; then
        same "diff ${pair%/}" diff --rules "$rules/diff" --format json "${pair}old.json" "${pair}new.json"
    fi
done
stdin=examples/weather.json
same "standard input" validate --rules "$rules" --format json --stdin-filepath weather.json -
stdin=/dev/null
same "usage error" validate --rules "$rules" --bogus examples/weather.json
same "rules list" rules list --rules "$rules"
same "version" --version
same "rules lint" rules lint --rules "$rules"
same "rules test" rules test --rules "$rules/security"
same "rules explain" rules explain --rules "$rules" mcp.tool.input-schema.object-root
same "fix --dry-run --diff" fix --dry-run --diff --rules "$rules" conformance/fixes
# fix in place: two copies of the fixtures, one fixed by each program, the same after
mkdir -p "$tmp/fix-n" "$tmp/fix-w"
cp conformance/fixes/* "$tmp/fix-n/" && cp conformance/fixes/* "$tmp/fix-w/"
(cd "$tmp/fix-n" && "$native" fix --rules "$rules" . > ../fix-n.out 2>&1)
ns=$?
(cd "$tmp/fix-w" && npx --no --prefix "$scratch" mcpdesc fix --rules "$rules" . > ../fix-w.out 2>&1)
ws=$?
if diff -r conformance/fixes "$tmp/fix-n" > /dev/null; then
    fail "cli fix in place: the native program fixed nothing in conformance/fixes"
elif [ "$ns" = "$ws" ] && cmp -s "$tmp/fix-n.out" "$tmp/fix-w.out" && diff -r "$tmp/fix-n" "$tmp/fix-w" > /dev/null; then
    ok "cli fix in place: the same files, output and status ($ns)"
else
    fail "cli fix in place: status $ns/$ws, output or files differ"
    diff -r "$tmp/fix-n" "$tmp/fix-w" | head -n 10 | sed 's/^/    /'
fi
# capture and lsp need a process or the network: exit 2, naming the native build
for c in capture lsp; do
    npx --no --prefix "$scratch" mcpdesc "$c" > "$tmp/c.out" 2> "$tmp/c.err" < /dev/null
    st=$?
    if [ $st = 2 ] && grep -q native "$tmp/c.err" && [ ! -s "$tmp/c.out" ]; then
        ok "cli $c: exit 2, names the native build"
    else
        fail "cli $c: status $st, stderr: $(head -n 3 "$tmp/c.err")"
    fi
done

# the API, under node's test runner in the scratch project
cp tests/npm/api.test.js "$scratch/"
if (cd "$scratch" && MCPDESC_TOP="$root" MCPDESC_NATIVE="$native" node --test api.test.js) > "$tmp/api.log" 2>&1; then
    ok "api: node --test api.test.js: $(grep -E '^# (pass|fail)' "$tmp/api.log" | tr '\n' ' ')"
else
    fail "api: node --test api.test.js:"
    grep -v '^ *\(duration_ms\|\.\.\.\|---\|type:\)' "$tmp/api.log" | head -n 60 | sed 's/^/    /'
fi

# the types: $MCPDESC_TSC, else a pinned compiler with node's types from the registry
TS_PIN=typescript@5.6.3
TYPES_PIN=@types/node@18.19.64
tsc=${MCPDESC_TSC:-}
if [ -z "$tsc" ]; then
    tsdir=$root/build/npm/tsc
    tsc=$tsdir/node_modules/.bin/tsc
    if [ ! -x "$tsc" ] || [ ! -d "$tsdir/node_modules/@types/node" ]; then
        mkdir -p "$tsdir"
        [ -f "$tsdir/package.json" ] || echo '{ "private": true }' > "$tsdir/package.json"
        (cd "$tsdir" && timeout 300 npm install --no-audit --no-fund --loglevel=error "$TS_PIN" "$TYPES_PIN") \
            > "$tmp/tsc-install.log" 2>&1 || tsc=
        [ -n "$tsc" ] || echo "    npm install $TS_PIN $TYPES_PIN failed: $(tail -n 1 "$tmp/tsc-install.log")"
    fi
fi
if [ -n "$tsc" ] && [ -x "$tsc" ]; then
    types=$(cd "$(dirname "$tsc")/.." && pwd)/@types
    cp tests/npm/types.test.ts "$scratch/"
    if (cd "$scratch" && "$tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 \
        --typeRoots "$types" --types node types.test.ts) > "$tmp/tsc.log" 2>&1; then
        ok "types: tsc --noEmit --strict types.test.ts ($("$tsc" --version))"
    else
        fail "types: tsc --noEmit --strict types.test.ts:"
        sed 's/^/    /' "$tmp/tsc.log" | head -n 20
    fi
else
    . tests/skip.sh
    test_skip test-npm "the TypeScript types (tsc --noEmit)" \
        "no tsc: the npm registry unreachable for $TS_PIN; set MCPDESC_TSC" || failed=$((failed + 1))
fi

# the example of docs/npm.md, and what it prints: the block after each marker
block() {
    awk -v mark="<!-- test-npm: $1 -->" '$0 == mark { want = 1; next }
        want && /^```[a-z]+$/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }' docs/npm.md
}
block example.mjs > "$scratch/example.mjs"
block "example.mjs output" > "$tmp/ex.want"
if [ ! -s "$scratch/example.mjs" ] || [ ! -s "$tmp/ex.want" ]; then
    fail "docs: no example or output marked <!-- test-npm: example.mjs --> / <!-- test-npm: example.mjs output --> in docs/npm.md"
elif (cd "$scratch" && cp "$root/examples/weather.json" . && node example.mjs) > "$tmp/ex.log" 2>&1 &&
    cmp -s "$tmp/ex.want" "$tmp/ex.log"; then
    ok "docs: docs/npm.md's example prints what docs/npm.md says ($(wc -l < "$tmp/ex.log") lines)"
else
    fail "docs: docs/npm.md's example (- docs/npm.md, + printed):"
    diff -u "$tmp/ex.want" "$tmp/ex.log" | tail -n +3 | head -n 20 | sed 's/^/    /'
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
