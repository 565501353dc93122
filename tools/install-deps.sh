#!/bin/sh
# install-deps.sh - install the Debian packages mcpdesc needs to build and test,
# only those missing. Needs root (or sudo) the first time on a fresh machine.
set -eu
PKGS="pkg-config man-db clang-format json-schema-test-suite nettle-dev libcurl4-openssl-dev libjansson-dev libyaml-dev libpcre2-dev liburiparser-dev check libsubunit-dev python3-jsonschema"
PKGS="$PKGS clang libclang-rt-14-dev llvm-14" # libFuzzer harnesses (mk/fuzz.mk): clang-14, its fuzzer/sanitizer runtimes, llvm-symbolizer
PKGS="$PKGS pre-commit" # tests/precommit.sh: the hooks of .pre-commit-hooks.yaml under pre-commit
missing=""
for p in $PKGS; do
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
