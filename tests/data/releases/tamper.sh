#!/bin/sh
# tamper.sh RELEASE DEST [--tag NEWTAG] [--keep-sums] [--drop DIR] - what a careless or
# hostile copy of a release looks like (tests/cli/*/setup): copy the shipped release
# $ROOT/rules-yaml/releases/RELEASE to ./DEST, change the first `level: must` of
# rules/tool.yaml to `may`, and rewrite that file's line of rules/SHA256SUMS so that
# `sha256sum -c` passes again (unless --keep-sums). --tag sets the manifest's tag (and
# its SHA256SUMS line); --drop removes a folder of the copy (conformance).
set -eu
src=$ROOT/rules-yaml/releases/$1 dest=$2
shift 2
tag= keep=0 drop=
while [ $# -gt 0 ]; do
    case $1 in
    --tag) tag=$2; shift ;;
    --keep-sums) keep=1 ;;
    --drop) drop=$2; shift ;;
    *) echo "tamper.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$(dirname "$dest")"
cp -R "$src" "$dest"
chmod -R u+w "$dest"
[ -z "$drop" ] || rm -rf "${dest:?}/$drop"
cd "$dest/rules"
sed -i '0,/level: must/s//level: may/' tool.yaml
[ -z "$tag" ] || sed -i "s/^tag: .*/tag: $tag/" manifest.yaml
[ "$keep" = 1 ] && exit 0
for f in tool.yaml manifest.yaml; do
    h=$(sha256sum "$f" | cut -c1-64)
    sed -i "s/^[0-9a-f]\{64\}  $f\$/$h  $f/" SHA256SUMS
done
sha256sum -c --quiet SHA256SUMS
