#!/bin/sh
# build-deb.sh OUTDIR - build the Debian packages of this tree (mk/deb.mk, `make deb`):
# copy the tree (without build/ and .git) to OUTDIR/src/mcpdesc-VERSION, run
# `dpkg-buildpackage -us -uc -b` there (with -j2 unless DEB_BUILD_OPTIONS says
# otherwise), move the .deb, .buildinfo and .changes files to OUTDIR, and run lintian
# on the .changes (its output in OUTDIR/lintian.log; any error or warning fails).
set -eu
out=${1:?usage: sh tools/build-deb.sh OUTDIR}
cd "$(dirname "$0")/.."
top=$(pwd)
case $out in /*) ;; *) out="$top/$out" ;; esac
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
src="$out/src/mcpdesc-$version"
rm -rf "$out"
mkdir -p "$src"
tar --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
start=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=2}" dpkg-buildpackage -us -uc -b) \
    > "$out/build.log" 2>&1 || {
    tail -n 40 "$out/build.log" >&2
    echo "build-deb: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
    exit 1
}
mv "$out/src/"*.deb "$out/src/"*.buildinfo "$out/src/"*.changes "$out/"
echo "build-deb: built in $(($(date +%s) - start)) s:"
ls -1 "$out/"*.deb | sed 's/^/    /'
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
st=0
lintian --fail-on error,warning --info "$out/mcpdesc_${version}_$arch.changes" > "$out/lintian.log" 2>&1 || st=$?
sed 's/^/lintian: /' "$out/lintian.log"
[ "$st" -eq 0 ] || { echo "build-deb: lintian failed (exit $st)" >&2; exit 1; }
echo "build-deb: lintian clean"
