#!/bin/sh
# rules-nearest-set.sh BINARY - which set `rules lint/test/explain/docs/list` judge when
# given no DIR (rules-yaml/README.md, "Which set the rules commands judge"), run from
# folders of a scratch tree, since the CLI goldens all run from the repository root:
#   - inside a copy of the organisation set examples/acme (its rules/, and a folder below
#     it), each command judges acme-policy, and says so on standard error in one line
#     naming the set, its folder and "(the nearest manifest.yaml)"; `rules list` prints the
#     same standard output as with --rules DIR (one line per rule);
#   - a decoy manifest.yaml (YAML without the members a manifest requires: name, tag,
#     files) in the folder below does not count: the set above it is judged;
#   - the search stops at the folder that holds .git: a set above a repository is not
#     used, the default set is (and the line says "the default");
#   - outside a repository only the working directory is searched;
#   - a release directory NAME@TAG/ counts (its rules/ holds the manifest);
#   - $MCPDESC_RULES still names the set;
#   - `rules lint` given DIR judges DIR wherever it runs.
# Prints ok/FAIL per check, then "N passed, N failed"; exit 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
bin=${1:?usage: sh tests/rules-nearest-set.sh BINARY}
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
[ -x "$bin" ] || {
    echo "rules-nearest-set: cannot run $bin" >&2
    exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-nearest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
unset MCPDESC_RULES
MCPDESC_NO_CONFIG=1
export MCPDESC_NO_CONFIG
passed=0 failed=0

# check DESCRIPTION FOLDER WANT-STATUS STDERR-GREP STDOUT-GREP COMMAND...: run the
# command in FOLDER; its status must be WANT-STATUS, its standard error must hold the
# fixed string STDERR-GREP and its standard output STDOUT-GREP ("" checks nothing).
check() {
    what=$1 dir=$2 want=$3 err_has=$4 out_has=$5
    shift 5
    (cd "$dir" && "$@") >"$tmp/out" 2>"$tmp/err"
    got=$? why=""
    [ "$got" = "$want" ] || why="exit $got, not $want"
    [ -z "$why" ] && [ -n "$err_has" ] && ! grep -qF -- "$err_has" "$tmp/err" &&
        why="standard error lacks: $err_has"
    [ -z "$why" ] && [ -n "$out_has" ] && ! grep -qF -- "$out_has" "$tmp/out" &&
        why="standard output lacks: $out_has"
    if [ -z "$why" ]; then
        echo "ok $what"
        passed=$((passed + 1))
    else
        echo "FAIL $what: $why"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
        tail -n 3 "$tmp/out" | sed 's/^/    stdout: /'
        failed=$((failed + 1))
    fi
}

# a repository (a .git folder is all the search looks for) holding the org set
repo=$tmp/repo
mkdir -p "$repo/.git" "$repo/org"
cp -r examples/acme/rules examples/acme/conformance "$repo/org/"
org=$(cd "$repo/org/rules" && pwd -P)
mkdir -p "$org/sub"
# a decoy: a manifest.yaml of another tool, not a rule set's
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: not-rules\n' > "$org/sub/manifest.yaml"

judging="judging acme-policy v1.1.0 in $org (the nearest manifest.yaml)"
check "rules lint in the org set's folder judges it" "$org" 0 \
    "mcpdesc rules lint: $judging" "0 errors, 0 warnings in $org" "$bin" rules lint
check "rules lint below it, past a decoy manifest.yaml, judges it" "$org/sub" 0 \
    "mcpdesc rules lint: $judging" "in $org" "$bin" rules lint
check "rules test below it runs the org set's examples" "$org/sub" 0 \
    "mcpdesc rules test: $judging" "acme." "$bin" rules test
check "rules explain below it finds an org rule" "$org/sub" 0 \
    "mcpdesc rules explain: $judging" "" "$bin" rules explain acme.tool.name.prefix
check "rules docs below it renders the org set" "$org/sub" 0 \
    "mcpdesc rules docs: $judging" "" "$bin" rules docs --out "$tmp/docs"
check "rules list below it lists the org set" "$org/sub" 0 \
    "mcpdesc rules list: $judging" "acme.tool.name.prefix" "$bin" rules list
# standard output keeps its form: the same as with --rules DIR
(cd "$org/sub" && "$bin" rules list 2>/dev/null) > "$tmp/near"
"$bin" rules list --rules "$org" 2>/dev/null > "$tmp/given"
if cmp -s "$tmp/near" "$tmp/given" && [ -s "$tmp/given" ]; then
    echo "ok rules list prints the same lines as with --rules DIR"
    passed=$((passed + 1))
else
    echo "FAIL rules list prints other lines than with --rules DIR"
    failed=$((failed + 1))
fi

# the decoy alone (its set moved away) is no set: the default is judged
mkdir -p "$repo/decoy"
cp "$org/sub/manifest.yaml" "$repo/decoy/"
check "a decoy manifest.yaml is no rule set: the default is judged" "$repo/decoy" 0 \
    "(the default: the build tree's rules-yaml/)" "" "$bin" rules list

# the search stops at the folder holding .git: the set above the repository is not used
outer=$tmp/outer
mkdir -p "$outer/inner/.git" "$outer/inner/work"
cp -r examples/acme/rules/. "$outer/"
check "the search stops at the folder that holds .git" "$outer/inner/work" 0 \
    "judging mcpdesc-mcp " "" "$bin" rules list

# outside a repository only the working directory counts
mkdir -p "$tmp/nogit"
cp -r examples/acme/rules examples/acme/conformance "$tmp/nogit/"
mkdir "$tmp/nogit/rules/below"
check "outside a repository, the working directory's own set is judged" "$tmp/nogit/rules" 0 \
    "judging acme-policy v1.1.0 in " "" "$bin" rules list
check "outside a repository, nothing above the working directory is searched" \
    "$tmp/nogit/rules/below" 0 "(the default: " "" "$bin" rules list

# a release directory NAME@TAG/ counts: its rules/ holds the manifest
mkdir -p "$repo/releases"
cp -r rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.11 "$repo/releases/"
rel=$(cd "$repo/releases/mcpdesc-mcp@v0.9.0-rc.11" && pwd -P)
check "a release directory NAME@TAG/ is the set of its folder" "$rel" 0 \
    "judging mcpdesc-mcp v0.9.0-rc.11 in $rel/rules (the nearest manifest.yaml)" "" \
    "$bin" rules list

# $MCPDESC_RULES still names the set; a DIR given is judged wherever the command runs
tag=$(sed -n 's/^tag: *//p' rules-yaml/manifest.yaml) # the development set's tag
check "\$MCPDESC_RULES wins over the nearest manifest" "$org" 0 \
    "judging mcpdesc-mcp $tag in $root/rules-yaml (\$MCPDESC_RULES)" "" \
    env MCPDESC_RULES="$root/rules-yaml" "$bin" rules list
check "rules lint DIR judges DIR" "$org" 0 \
    "mcpdesc rules lint: judging mcpdesc-mcp $tag in $root/rules-yaml (given)" \
    "in $root/rules-yaml" "$bin" rules lint "$root/rules-yaml"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
