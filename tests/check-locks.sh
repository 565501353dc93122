#!/bin/sh
# check-locks.sh committed | pin BINARY - immutable rule-set tags (rules-yaml/tags/*.lock,
# the security set's rules-yaml/security/tags/*.lock and the change rules' rules-yaml/diff/tags/*.lock).
#
# committed: every lock that was ever committed, and every TAG.digest record of a
#   first-format lock's release (docs/releases.md), is still there and byte-for-byte the
#   version of its first commit (a released tag never moves), and the manifest's tag has
#   a lock. Outside a git checkout the first part is skipped with a message.
# pin BINARY: on a temporary copy of rules-yaml/, schema/ and conformance/, `rules lock`
#   writes a lock, `validate --rules-tag` and `rules test --rules-tag` accept the identical
#   set, and after one byte changes (in a rule file, or in a schema file the rules load)
#   they refuse it (exit 2) naming the file, while `rules lock` refuses to move the tag.
set -u
cd "$(dirname "$0")/.." || exit 2

committed() {
    fail=0
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        for lock in $(git log --diff-filter=A --name-only --format= -- rules-yaml/tags rules-yaml/security/tags rules-yaml/diff/tags | sort -u); do
            case $lock in *.lock | *.digest) ;; *) continue ;; esac
            first=$(git log --diff-filter=A --format=%H -- "$lock" | tail -n 1)
            if [ ! -f "$lock" ]; then
                echo "check-locks: FAIL $lock was committed in $first and is gone: a released tag never moves"
                fail=1
            elif git show "$first:$lock" | cmp -s - "$lock"; then
                echo "check-locks: ok $lock (as first committed in $first)"
            else
                echo "check-locks: FAIL $lock differs from its first commit $first: a released tag never"
                echo "    moves; restore it (git show $first:$lock) and cut a new tag instead"
                git show "$first:$lock" | diff -u - "$lock" | tail -n +3 | head -n 20 | sed 's/^/    /'
                fail=1
            fi
        done
        for lock in rules-yaml/tags/*.lock rules-yaml/security/tags/*.lock rules-yaml/diff/tags/*.lock; do
            [ -f "$lock" ] || continue
            [ -n "$(git log --format=%H -n 1 -- "$lock")" ] ||
                echo "check-locks: note: $lock is not committed yet (it is immutable once it is)"
        done
    else
        . tests/skip.sh
        test_skip check-locks "the check that committed locks never change" "not a git checkout" || fail=1
    fi
    for set in rules-yaml rules-yaml/security rules-yaml/diff; do
        tag=$(sed -n 's/^tag:[[:space:]]*//p' $set/manifest.yaml | sed 's/[[:space:]]*#.*//; s/["'\'']//g' | head -n 1)
        if [ -z "$tag" ]; then
            echo "check-locks: FAIL $set/manifest.yaml names no tag"
            fail=1
        elif [ -f "$set/tags/$tag.lock" ]; then
            echo "check-locks: ok the manifest's tag $tag has $set/tags/$tag.lock"
        else
            echo "check-locks: FAIL the manifest's tag $tag has no lock: once the set is final, run"
            echo "    mcpdesc rules lock $tag --rules $set   (writes $set/tags/$tag.lock; commit it)"
            fail=1
        fi
    done
    return $fail
}

# expect STATUS DESCRIPTION COMMAND...: run it, compare the exit status.
expect() {
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" = "$want" ]; then
        echo "check-locks: ok $what"
    else
        echo "check-locks: FAIL $what: exit $got, expected $want"
        sed 's/^/    | /' "$tmp/err" | head -n 20
        fail=1
    fi
}

pin() {
    bin=$1
    case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
    fail=0
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-locks.XXXXXX") || return 2
    trap 'rm -rf "$tmp"' EXIT
    cp -R rules-yaml "$tmp/rules-yaml" && cp -R conformance "$tmp/conformance" && cp -R schema "$tmp/schema" || return 2
    rm -rf "$tmp/rules-yaml/tags"
    rules=$tmp/rules-yaml
    tag=v0.0.0-pin-test
    sed -i "s/^tag:.*/tag: $tag/" "$rules/manifest.yaml"
    # a name of its own: a set named mcpdesc-mcp under a tag the binary does not ship
    # runs only pinned by digest (tests/release-trust.sh)
    sed -i "s/^name:.*/name: pin-test/" "$rules/manifest.yaml"
    sed -i '1i # pin test: one byte of this line changes after locking' "$rules/tool.yaml"
    expect 2 "rules lock refuses a tag that is not the manifest's" "$bin" rules lock --rules "$rules" v9.9.9
    expect 0 "rules lock writes the lock" "$bin" rules lock --rules "$rules" "$tag"
    [ -f "$rules/tags/$tag.lock" ] || { echo "check-locks: FAIL no $rules/tags/$tag.lock"; fail=1; }
    cp "$rules/tags/$tag.lock" "$tmp/lock.orig" 2>/dev/null
    expect 0 "rules lock again on the same set" "$bin" rules lock --rules "$rules" "$tag"
    expect 0 "validate --rules-tag accepts the identical set" \
        "$bin" validate --rules "$rules" --rules-tag "$tag" "$tmp/conformance/expected-valid"
    expect 0 "rules test --rules-tag accepts the identical set" "$bin" rules test --rules-tag "$tag" "$rules"
    # one byte changed, in the comment line added above before locking
    cp "$rules/tool.yaml" "$tmp/tool.orig"
    sed -i '1s/^# pin test/# pIn test/' "$rules/tool.yaml"
    if [ "$(cmp -l "$tmp/tool.orig" "$rules/tool.yaml" | wc -l)" -ne 1 ]; then
        echo "check-locks: FAIL could not change exactly one byte of tool.yaml"
        fail=1
    fi
    expect 2 "validate --rules-tag refuses a set with one byte changed" \
        "$bin" validate --rules "$rules" --rules-tag "$tag" "$tmp/conformance/expected-valid"
    if grep -q "tool.yaml: differs from the file locked as $tag" "$tmp/err"; then
        echo "check-locks: ok the refusal names tool.yaml"
    else
        echo "check-locks: FAIL the refusal does not name tool.yaml:"
        sed 's/^/    | /' "$tmp/err"
        fail=1
    fi
    # a schema file the rules load is part of the set too
    cp "$tmp/tool.orig" "$rules/tool.yaml"
    expect 0 "validate --rules-tag accepts the set restored" \
        "$bin" validate --rules "$rules" --rules-tag "$tag" "$tmp/conformance/expected-valid"
    schema_file=$tmp/schema/mcp/2025-11-25/tool.json
    sed -i '1s/^{/{ /' "$schema_file"
    expect 2 "validate --rules-tag refuses a set whose schema file changed" \
        "$bin" validate --rules "$rules" --rules-tag "$tag" "$tmp/conformance/expected-valid"
    if grep -q "schema/mcp/2025-11-25/tool.json: differs from the file locked as $tag" "$tmp/err"; then
        echo "check-locks: ok the refusal names schema/mcp/2025-11-25/tool.json"
    else
        echo "check-locks: FAIL the refusal does not name schema/mcp/2025-11-25/tool.json:"
        sed 's/^/    | /' "$tmp/err"
        fail=1
    fi
    sed -i '1s/^# pin test/# pIn test/' "$rules/tool.yaml"
    expect 2 "rules docs --rules-tag refuses it too" "$bin" rules docs --rules-tag "$tag" --rules "$rules" --out "$tmp/docs"
    expect 2 "rules lock refuses to move the tag" "$bin" rules lock --rules "$rules" "$tag"
    if cmp -s "$tmp/lock.orig" "$rules/tags/$tag.lock"; then
        echo "check-locks: ok the lock is unchanged"
    else
        echo "check-locks: FAIL the lock changed"
        fail=1
    fi
    return $fail
}

case ${1:-} in
committed) committed ;;
pin)
    if [ $# -ne 2 ]; then
        echo "usage: sh tests/check-locks.sh pin BINARY" >&2
        exit 2
    fi
    pin "$2"
    ;;
*)
    echo "usage: sh tests/check-locks.sh committed | pin BINARY" >&2
    exit 2
    ;;
esac
