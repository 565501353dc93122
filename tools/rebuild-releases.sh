#!/bin/sh
# rebuild-releases.sh BINARY [OUT] - rebuild the release directory of every tag ever
# locked (rules-yaml/tags/TAG.lock) from the git history into OUT (default
# rules-yaml/releases): for each lock, the commit that added it gives the rule set,
# schema/ and conformance/ as they were, and `mcpdesc rules pack` (which refuses a set
# its lock does not record) writes NAME@TAG/. A release already in OUT is kept when it
# is identical and refused when it differs: a release never changes. Needs the full
# history (a shallow clone lacks the old commits). See docs/releases.md.
set -eu
bin=${1:?usage: sh tools/rebuild-releases.sh BINARY [OUT]}
case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
cd "$(dirname "$0")/.."
out=${2:-rules-yaml/releases}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-releases.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for lock in rules-yaml/tags/*.lock; do
    tag=$(basename "$lock" .lock)
    commit=$(git log --format=%H --diff-filter=A -- "$lock" | tail -1)
    if [ -z "$commit" ]; then
        echo "rebuild-releases: $lock is not committed; commit it first" >&2
        exit 1
    fi
    rm -rf "$tmp/tree"
    mkdir "$tmp/tree"
    git archive "$commit" rules-yaml schema conformance | tar -x -C "$tmp/tree"
    # the lock as committed, whatever the tree holds now
    git show "$commit:$lock" > "$tmp/tree/rules-yaml/tags/$tag.lock"
    echo "$tag: from $(git log -1 --format='%h %as' "$commit")"
    "$bin" rules pack --rules "$tmp/tree/rules-yaml" --out "$out"
done
