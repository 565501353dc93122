#!/bin/sh
# install-rules.sh BINARY DEST - the rule sets of `make install` (mk/install.mk), DEST
# being $(DESTDIR)PREFIX/share/mcpdesc (docs/releases.md, "Installed releases"):
#   DEST/releases/NAME@TAG/  every release shipped in rules-yaml/releases, as it is
#   DEST/releases/NAME@TAG.findings, NAME@TAG.changes
#                            beside each, its findings record and changes log (what
#                            `mcpdesc rules changes NAME@TAG` prints)
#   DEST/rules               the default rule set (no --rules, no --rules-tag): a relative
#                            symbolic link to releases/NAME@TAG/rules, the release of the
#                            manifest's tag, when this tree is that release
# The tree is checked with `BINARY rules pack` into a temporary directory (pack refuses a
# set its lock does not record). When the tree is released but rules-yaml/releases lacks
# its release, that pack is installed as the release. When it is not the release (edited
# since the tag was locked, or differing from the shipped release in files the lock does
# not cover), what the checkout runs is what gets installed, under DEST/unreleased/ (a
# pack when the set is locked, else rules/, schema/ and conformance/ as they are), and
# DEST/rules points there: its reports say so (TAG+modified, another digest), never the
# release's name with other files behind it.
set -eu
bin=${1:?usage: sh tools/install-rules.sh BINARY DEST}
dest=${2:?usage: sh tools/install-rules.sh BINARY DEST}
case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-install-rules.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# copy_tree FROM TO: every file below FROM, mode 644, into TO
copy_tree() {
    (cd "$1" && find . -type f) | while read -r f; do
        install -D -m 644 "$1/$f" "$2/${f#./}" || exit 1
    done
}

rm -rf "$dest/releases" "$dest/rules" "$dest/unreleased"
mkdir -p "$dest/releases"
for d in rules-yaml/releases/*@*/; do
    [ -d "$d" ] || continue
    copy_tree "$d" "$dest/releases/$(basename "$d")"
done
for f in rules-yaml/releases/*@*.findings rules-yaml/releases/*@*.changes; do
    [ -f "$f" ] || continue
    install -m 644 "$f" "$dest/releases/"
done

name=$(sed -n 's/^name:[[:space:]]*//p' rules-yaml/manifest.yaml | sed 's/[[:space:]]*#.*//; s/["'\'']//g' | head -n 1)
tag=$(sed -n 's/^tag:[[:space:]]*//p' rules-yaml/manifest.yaml | sed 's/[[:space:]]*#.*//; s/["'\'']//g' | head -n 1)
id=$name@$tag
if "$bin" rules pack --rules rules-yaml --out "$tmp" > "$tmp/pack.log" 2>&1; then
    if [ ! -d "rules-yaml/releases/$id" ]; then
        echo "install-rules: $id is locked but not in rules-yaml/releases; installing the tree's"
        echo "    release (commit it: mcpdesc rules pack --out rules-yaml/releases)"
        copy_tree "$tmp/$id" "$dest/releases/$id"
    elif ! diff -r "$tmp/$id" "rules-yaml/releases/$id" > "$tmp/diff" 2>&1; then
        echo "install-rules: warning: the tree differs from the shipped release $id in files"
        echo "    its lock does not cover; the default rule set installed is the tree's, in"
        echo "    $dest/unreleased (its digest is not the release's):"
        sed 's/^/    /' "$tmp/diff" | head -n 5
        copy_tree "$tmp/$id" "$dest/unreleased"
        ln -s unreleased/rules "$dest/rules"
        exit 0
    fi
    ln -s "releases/$id/rules" "$dest/rules"
else
    echo "install-rules: warning: the tree is not the release $id; the default rule set"
    echo "    installed is the tree as it is, in $dest/unreleased (reports say so):"
    sed 's/^/    /' "$tmp/pack.log"
    mkdir -p "$dest/unreleased/rules"
    for f in rules-yaml/*.yaml; do install -m 644 "$f" "$dest/unreleased/rules/"; done
    copy_tree schema "$dest/unreleased/schema"
    copy_tree conformance "$dest/unreleased/conformance"
    ln -s unreleased/rules "$dest/rules"
fi
