#!/bin/sh
# install-deps.sh - what tools/install-deps.sh installs for `make deb` is every
# Build-Depends of debian/control: dpkg-checkbuilddeps (the check dpkg-buildpackage
# makes) is run against a dpkg database holding only the packages of
# `install-deps.sh --list build deb` (mk/deb.mk installs those groups) and must find
# nothing unmet. A fresh clone failed there with "Unmet build dependencies: check
# libsubunit-dev" (the deb group was a list kept by hand). Also: the nocheck profile
# leaves check out, and a Build-Depends added to a copy of debian/control (alternatives,
# versions, architectures, profiles) is read. Without dpkg-checkbuilddeps (dpkg-dev), a
# counted skip. And `make test-deps` installs nodejs and npm where npm is not on PATH
# (tests/capture-everything.sh needs them), never over a node already there.
# No root and no network: nothing is installed.
# Prints ok/FAIL per check, then "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/skip.sh
if ! command -v dpkg-checkbuilddeps > /dev/null 2>&1; then
    test_skip test-install-deps "make deb's Build-Depends" "dpkg-checkbuilddeps (dpkg-dev) is not installed" || exit 1
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-install-deps.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
passed=0
failed=0
n=0
check() {
    n=$((n + 1))
    name=$1
    shift
    if "$@"; then
        echo "ok $n $name"
        passed=$((passed + 1))
    else
        echo "FAIL $n $name"
        [ -s "$tmp/why" ] && sed 's/^/    | /' "$tmp/why"
        failed=$((failed + 1))
    fi
    : > "$tmp/why"
}
# db DIR PACKAGE...: a dpkg database in DIR where exactly these packages are installed
# (this machine's entry when it has the package, else a stand-in of version 9999; a
# stand-in debhelper provides the debhelper-compat level debian/control asks for, as the
# real one does: on a machine without debhelper, a fresh one, the check failed there)
compat=$(sed -n 's/.*debhelper-compat (= \([0-9]*\)).*/\1/p' debian/control | head -n 1)
db() {
    mkdir -p "$1"
    d=$1
    shift
    for p in "$@"; do
        if ! dpkg-query -s "$p" 2> /dev/null; then
            printf 'Package: %s\nStatus: install ok installed\nVersion: 9999\nArchitecture: all\n' "$p"
            [ "$p" = debhelper ] && [ -n "$compat" ] &&
                printf 'Provides: debhelper-compat (= %s)\n' "$compat"
        fi
        echo
    done > "$d/status"
}
# met LIST-FILE [PROFILES]: dpkg-checkbuilddeps finds every Build-Depends in that list
met() {
    rm -rf "$tmp/db"
    # shellcheck disable=SC2046
    db "$tmp/db" $(cat "$1")
    dpkg-checkbuilddeps --admindir="$tmp/db" ${2:+-P "$2"} debian/control > "$tmp/why" 2>&1
}
: > "$tmp/why"
sh tools/install-deps.sh --list build deb > "$tmp/deb.list"
check "make deb installs every Build-Depends" met "$tmp/deb.list"
check "... check and libsubunit-dev among them (the fresh clone's failure)" \
    sh -c 'grep -qx check "$1" && grep -qx libsubunit-dev "$1"' - "$tmp/deb.list"
DEB_BUILD_PROFILES=nocheck sh tools/install-deps.sh --list build deb > "$tmp/nocheck.list"
check "with DEB_BUILD_PROFILES=nocheck: every Build-Depends of that profile" met "$tmp/nocheck.list" nocheck
check "... and not check" sh -c '! grep -qx check "$1"' - "$tmp/nocheck.list"
# a copy whose debian/control gains entries of every form dpkg reads
mkdir -p "$tmp/copy/tools" "$tmp/copy/debian"
cp tools/install-deps.sh "$tmp/copy/tools/"
sed 's/^Build-Depends: debhelper-compat (= 13),$/Build-Depends: debhelper-compat (= 13), libfoo-dev (>= 1.2) [amd64 arm64] | libbar-dev,\n               baz-tools:native <!nocheck>, only-in-nocheck <nocheck>,/' \
    debian/control > "$tmp/copy/debian/control"
sh "$tmp/copy/tools/install-deps.sh" --list deb > "$tmp/copy.list"
check "a new Build-Depends is installed: the first alternative, no version, architecture or qualifier" \
    sh -c 'grep -qx libfoo-dev "$1" && grep -qx baz-tools "$1" && ! grep -q "bar\|only-in\|[(<:]" "$1"' - "$tmp/copy.list"
# make test-deps (the test group) and node: a PATH of the tools install-deps.sh uses, with
# stand-ins for node, npm and apt-get (which answers the simulation with $FAKE_APT)
mkdir -p "$tmp/bin"
for t in sh dirname awk tr dpkg-query grep id cat; do
    ln -s "$(command -v "$t")" "$tmp/bin/$t" || exit 2
done
printf '#!/bin/sh\nprintf "%%s\\n" "$FAKE_APT"\n' > "$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-get"
# test_list [node] [npm]: install-deps.sh --list test with these stand-ins on PATH
test_list() {
    rm -f "$tmp/bin/node" "$tmp/bin/npm"
    for t in "$@"; do
        printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/$t" && chmod +x "$tmp/bin/$t"
    done
    PATH=$tmp/bin sh tools/install-deps.sh --list test > "$tmp/test.list" 2> "$tmp/test.err"
}
has() { grep -qx "$1" "$tmp/test.list"; }
test_list
check "no node, no npm: make test-deps installs nodejs and npm" sh -c 'grep -qx nodejs "$1" && grep -qx npm "$1"' - "$tmp/test.list"
test_list node npm
check "a node and an npm on PATH: neither is installed (never replaced)" sh -c '! grep -qx nodejs "$1" && ! grep -qx npm "$1"' - "$tmp/test.list"
FAKE_APT="Inst npm (9.2.0 Debian:12/stable [all])" test_list node
check "a node without npm, Debian's npm fits it: npm only" sh -c 'grep -qx npm "$1" && ! grep -qx nodejs "$1"' - "$tmp/test.list"
FAKE_APT="Inst nodejs [20.20.2-1nodesource1] (18.20.4 Debian:12/stable [amd64])
Inst npm (9.2.0 Debian:12/stable [all])" test_list node
check "a node without npm, Debian's npm would change that node: neither, and a message" \
    sh -c '! grep -qx npm "$1" && ! grep -qx nodejs "$1" && grep -q "install npm for it" "$2"' - "$tmp/test.list" "$tmp/test.err"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
