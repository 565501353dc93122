#!/bin/sh
# install-deps.sh [build|test|deb|deb-test]... - install the Debian packages of each
# group named (default: build), only those missing. Needs root (or sudo) the first time
# on a fresh machine.
#   build     what building the command and the library needs (`make deps`; the
#             Build-Depends of debian/control, less the test-only ones)
#   test      the rest of `make check` (`make test-deps`): man-db, clang-format, the
#             JSON Schema test suite, Check, python3-jsonschema's CLI for cross-checks,
#             clang-14 with its fuzzer/sanitizer runtimes (mk/fuzz.mk), pre-commit and
#             Chromium (tests/browser.sh)
#   deb       building the Debian packages (`make deb`): dpkg-dev, debhelper, lintian
#   deb-test  installing them in a clean root (`make test-deb`): debootstrap
set -eu
BUILD_PKGS="make gcc pkg-config python3-jsonschema nettle-dev libcurl4-openssl-dev libjansson-dev libyaml-dev libpcre2-dev liburiparser-dev"
TEST_PKGS="man-db clang-format json-schema-test-suite check libsubunit-dev"
TEST_PKGS="$TEST_PKGS clang libclang-rt-14-dev llvm-14" # libFuzzer harnesses (mk/fuzz.mk): clang-14, its fuzzer/sanitizer runtimes, llvm-symbolizer
TEST_PKGS="$TEST_PKGS pre-commit" # tests/precommit.sh: the hooks of .pre-commit-hooks.yaml under pre-commit
TEST_PKGS="$TEST_PKGS chromium" # tests/browser.sh: the html report and the rule pages in headless Chromium
TEST_PKGS="$TEST_PKGS neovim" # tests/editor/neovim.sh: mcpdesc lsp driven by a real LSP client (Neovim 0.7)
DEB_PKGS="build-essential dpkg-dev debhelper fakeroot lintian"
DEB_TEST_PKGS="debootstrap"
[ $# -eq 0 ] && set -- build
PKGS=""
for g in "$@"; do
    case $g in
    build) PKGS="$PKGS $BUILD_PKGS" ;;
    test) PKGS="$PKGS $BUILD_PKGS $TEST_PKGS" ;;
    deb) PKGS="$PKGS $DEB_PKGS" ;;
    deb-test) PKGS="$PKGS $DEB_TEST_PKGS" ;;
    *) echo "install-deps: unknown group '$g' (build, test, deb, deb-test)" >&2; exit 2 ;;
    esac
done
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
