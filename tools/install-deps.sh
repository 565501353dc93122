#!/bin/sh
# install-deps.sh [--list] [build|test|deb|deb-test|wasm|npm]... - install the Debian packages of
# each group named (default: build), only those missing. Needs root (or sudo) the first
# time on a fresh machine. --list prints the packages of the groups, one a line, and
# installs nothing (tests/install-deps.sh).
#   build     what building the command and the library needs (`make deps`; the
#             Build-Depends of debian/control, less the test-only ones)
#   test      the rest of `make check` (`make test-deps`): man-db, clang-format, the
#             JSON Schema test suite, Check, python3-jsonschema's CLI for cross-checks,
#             clang-14 with its fuzzer/sanitizer runtimes (mk/fuzz.mk), pre-commit,
#             Chromium (tests/browser.sh), Neovim, and nodejs and npm when npm is not on
#             PATH (tests/capture-everything.sh; an existing node is never replaced)
#   deb       building the Debian packages (`make deb`): dpkg-dev, debhelper, lintian,
#             and every Build-Depends of debian/control, read from it (check and
#             libsubunit-dev too, the test-only ones: a fresh clone lacked them and
#             dpkg-buildpackage stopped at "Unmet build dependencies")
#   deb-test  installing them in a clean root (`make test-deb`): debootstrap
#   wasm      the WebAssembly build (`make wasm`, docs/wasm.md): emscripten (it brings
#             clang-14, lld-14, binaryen and node), cmake for the libraries' builds,
#             dpkg-dev (dpkg-source unpacks Debian's source packages), patch and xz-utils
#   npm       the npm package (`make npm`, docs/npm.md): the wasm group, and npm (with
#             Debian's nodejs when no node is on PATH; a node already there is never
#             replaced, as for test): a fresh Debian 12 stopped at "npm: not found"
set -eu
BUILD_PKGS="make gcc pkg-config python3-jsonschema nettle-dev libcurl4-openssl-dev libjansson-dev libyaml-dev libpcre2-dev liburiparser-dev"
TEST_PKGS="man-db clang-format json-schema-test-suite check libsubunit-dev"
TEST_PKGS="$TEST_PKGS clang libclang-rt-14-dev llvm-14" # libFuzzer harnesses (mk/fuzz.mk): clang-14, its fuzzer/sanitizer runtimes, llvm-symbolizer
TEST_PKGS="$TEST_PKGS pre-commit" # tests/precommit.sh: the hooks of .pre-commit-hooks.yaml under pre-commit
TEST_PKGS="$TEST_PKGS chromium" # tests/browser.sh: the html report and the rule pages in headless Chromium
TEST_PKGS="$TEST_PKGS neovim" # tests/editor/neovim.sh: mcpdesc lsp driven by a real LSP client (Neovim 0.7)
TEST_PKGS="$TEST_PKGS dpkg-dev" # tests/install-deps.sh: dpkg-checkbuilddeps (a skip, so a failure under MCPDESC_REQUIRE=all, without it)
# tests/capture-everything.sh installs server-everything with npm and runs it with node:
# Debian's nodejs and npm when npm is not on PATH. A node or npm already there (the
# project's machines have a Node 20 from elsewhere, which Debian's npm conflicts with)
# is never replaced: with a node but no npm, npm is added only if apt-get would install
# it without removing or changing any package, else the script says what to do.
node_pkgs() {
    command -v npm > /dev/null 2>&1 && return 0
    if ! command -v node > /dev/null 2>&1; then
        echo "nodejs npm"
        return 0
    fi
    if sim=$(LC_ALL=C apt-get install -s -qq --no-install-recommends npm 2>&1) &&
        ! printf '%s\n' "$sim" | grep -q '^Remv \|^Inst nodejs '; then
        echo npm
        return 0
    fi
    echo "install-deps: $(command -v node) has no npm on PATH, and Debian's npm would change or remove that node: install npm for it (tests/capture-everything.sh needs it)" >&2
}
DEB_PKGS="build-essential dpkg-dev debhelper fakeroot lintian"
DEB_TEST_PKGS="debootstrap"
WASM_PKGS="emscripten cmake dpkg-dev patch xz-utils"
# The Build-Depends of debian/control, one name a line, as dpkg-buildpackage reads them:
# the first of alternatives, without version, architecture or :qualifier; an entry with
# a build profile (check <!nocheck>) only where DEB_BUILD_PROFILES selects it; the
# virtual debhelper-compat is debhelper's.
build_depends() {
    awk -v profiles=" ${DEB_BUILD_PROFILES:-} " '
        /^Build-Depends:/ { f = 1; sub(/^Build-Depends:/, ""); s = s $0; next }
        f && /^[ \t]/ { s = s " " $0; next }
        { f = 0 }
        END {
            n = split(s, dep, ",")
            for (i = 1; i <= n; i++) {
                d = dep[i]
                if (match(d, /<[^>]*>/)) {
                    r = substr(d, RSTART + 1, RLENGTH - 2)
                    neg = sub(/^!/, "", r)
                    on = index(profiles, " " r " ") > 0
                    if (neg == on) continue
                }
                sub(/\|.*/, "", d)
                gsub(/\([^)]*\)|\[[^]]*\]|<[^>]*>|:[a-z]+/, "", d)
                gsub(/[ \t]/, "", d)
                if (d == "debhelper-compat") d = "debhelper"
                if (d != "") print d
            }
        }' "$(dirname "$0")/../debian/control"
}
list=0
if [ "${1:-}" = --list ]; then
    list=1
    shift
fi
[ $# -eq 0 ] && set -- build
PKGS=""
for g in "$@"; do
    case $g in
    build) PKGS="$PKGS $BUILD_PKGS" ;;
    test) PKGS="$PKGS $BUILD_PKGS $TEST_PKGS $(node_pkgs)" ;;
    deb) PKGS="$PKGS $DEB_PKGS $(build_depends | tr '\n' ' ')" ;;
    deb-test) PKGS="$PKGS $DEB_TEST_PKGS" ;;
    wasm) PKGS="$PKGS $WASM_PKGS" ;;
    npm) PKGS="$PKGS $WASM_PKGS $(node_pkgs)" ;;
    *) echo "install-deps: unknown group '$g' (build, test, deb, deb-test, wasm, npm)" >&2; exit 2 ;;
    esac
done
if [ $list -eq 1 ]; then
    # shellcheck disable=SC2086
    printf '%s\n' $PKGS | awk '!seen[$0]++'
    exit 0
fi
missing=""
for p in $PKGS; do
    case " $missing " in *" $p "*) continue ;; esac
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO=sudo; else
    echo "install-deps: need root to run apt-get install$missing" >&2; exit 2
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
