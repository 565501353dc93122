#!/bin/sh
# deb-install.sh DEBDIR - install the packages `make deb` built (DEBDIR/mcpdesc_*.deb,
# DEBDIR/libmcpdesc-dev_*.deb) in a clean Debian 12 root and use them there (`make
# test-deb`, not part of `make check`; needs root and the network). The root is made
# once with `debootstrap --variant=minbase bookworm` from deb.debian.org, plus man-db
# (the test's own tool), and cached in build/deb-root/cache; each run copies it to
# build/deb-root/run, so every run starts clean. In that root, as a user would:
#   apt-get install -y ./mcpdesc_*.deb ./libmcpdesc-dev_*.deb   (dependencies from the mirror)
#   mcpdesc validate weather.json names the installed rule set (the release, not +modified)
#   mcpdesc rules explain mcp.tool.name.charset, validate --rules-tag v0.9.0-rc.3
#   man mcpdesc renders; the bash completion is installed
#   pkg-config --cflags/--libs mcpdesc (pkg-config comes from libmcpdesc-dev's Recommends)
#   apt-get purge leaves no /usr/share/mcpdesc
# Prints ok/FAIL per check, then "N passed, N failed".
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh tests/deb-install.sh DEBDIR" >&2
    exit 2
fi
debs=$1
cd "$(dirname "$0")/.." || exit 2
top=$(pwd)
case $debs in /*) ;; *) debs="$top/$debs" ;; esac
[ "$(id -u)" = 0 ] || { echo "deb-install: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap > /dev/null || { echo "deb-install: debootstrap missing (sh tools/install-deps.sh deb-test)" >&2; exit 2; }
set -- "$debs"/mcpdesc_*.deb
[ -f "$1" ] || { echo "deb-install: no mcpdesc_*.deb in $debs (make deb)" >&2; exit 2; }
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
base=$top/build/deb-root
cache=$base/cache
root=$base/run
start=$(date +%s)

mounted=""
cleanup() {
    [ -n "$mounted" ] && umount "$root/proc" 2> /dev/null
    mounted=""
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

if [ ! -f "$cache/.mcpdesc-root-ok" ]; then
    echo "deb-install: debootstrap --variant=minbase bookworm $mirror (once; cached in $cache)"
    rm -rf "$cache"
    mkdir -p "$base"
    debootstrap --variant=minbase bookworm "$cache" "$mirror" > "$base/debootstrap.log" 2>&1 || {
        tail -n 20 "$base/debootstrap.log" >&2
        echo "deb-install: debootstrap failed (log: $base/debootstrap.log)" >&2
        exit 2
    }
    cp /etc/resolv.conf "$cache/etc/resolv.conf"
    chroot "$cache" sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
        apt-get install -y -qq --no-install-recommends man-db && apt-get clean' \
        >> "$base/debootstrap.log" 2>&1 || {
        tail -n 20 "$base/debootstrap.log" >&2
        echo "deb-install: installing man-db in the root failed" >&2
        exit 2
    }
    touch "$cache/.mcpdesc-root-ok"
    echo "deb-install: root made in $(($(date +%s) - start)) s"
fi
# a run killed before its cleanup leaves /proc mounted: never rm -rf through it
if [ -d "$root/proc" ] && mountpoint -q "$root/proc"; then umount "$root/proc" || exit 2; fi
rm -rf "$root"
cp -a "$cache" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" && mounted=1
mkdir -p "$root/tmp/debs"
cp "$debs"/mcpdesc_*.deb "$debs"/libmcpdesc-dev_*.deb "$root/tmp/debs/"
cp examples/weather.json "$root/tmp/weather.json"
out=$base/out
mkdir -p "$out"

failed=0
n=0
check() {
    n=$((n + 1))
    name=$1
    shift
    if "$@"; then
        echo "ok $n $name"
    else
        echo "FAIL $n $name"
        failed=$((failed + 1))
    fi
}
# in_root CMD: runs CMD (a shell command) in the root; stdout in $out/stdout, stderr in
# $out/stderr, the exit status in $st
in_root() {
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive sh -c "$1" > "$out/stdout" 2> "$out/stderr"
    st=$?
}
show() { sed 's/^/    /' "$out/stdout" "$out/stderr" | tail -n 15; }

t=$(date +%s)
in_root 'apt-get update -qq && cd /tmp/debs && apt-get install -y ./mcpdesc_*.deb ./libmcpdesc-dev_*.deb'
check "apt-get install ./mcpdesc_*.deb ./libmcpdesc-dev_*.deb ($(($(date +%s) - t)) s)" [ "$st" = 0 ] || show
[ "$st" = 0 ] || { echo "$n passed, $failed failed"; exit 1; }

in_root 'cd /tmp && mcpdesc validate weather.json'
cp "$out/stdout" "$out/validate.txt"
check "mcpdesc validate weather.json exits 1 (its findings)" [ "$st" = 1 ] || show
check "the report names the installed release rule set" \
    grep -Eq '^rules: mcpdesc-mcp v[0-9][^ +]* \(sha256:[0-9a-f]{64}\)' "$out/validate.txt" || show
check "the report has weather.json's dangling component ref" \
    grep -q 'weather.json:43:22: error: .*\[mcpdesc.component-ref.dangling\]' "$out/validate.txt" || show

in_root 'mcpdesc rules explain mcp.tool.name.charset'
check "mcpdesc rules explain mcp.tool.name.charset" \
    sh -c '[ "$1" = 0 ] && grep -q "mcp.tool.name.charset" "$2"' sh "$st" "$out/stdout" || show

in_root 'cd /tmp && mcpdesc validate --rules-tag v0.9.0-rc.3 weather.json'
check "validate --rules-tag v0.9.0-rc.3 finds the installed old release" \
    sh -c '[ "$1" = 1 ] && grep -q "^rules: mcpdesc-mcp v0.9.0-rc.3 " "$2"' sh "$st" "$out/stdout" || show

in_root 'man -w mcpdesc && MANWIDTH=80 man mcpdesc | grep -c fail-on'
check "man mcpdesc renders the installed page" \
    sh -c '[ "$1" = 0 ] && grep -q "^/usr/share/man/man1/mcpdesc.1.gz$" "$2"' sh "$st" "$out/stdout" || show

check "bash completion installed" [ -f "$root/usr/share/bash-completion/completions/mcpdesc" ]

in_root 'pkg-config --cflags mcpdesc && pkg-config --libs mcpdesc && pkg-config --variable=rulesdir mcpdesc'
check "pkg-config --cflags/--libs mcpdesc (rulesdir /usr/share/mcpdesc/rules)" \
    sh -c '[ "$1" = 0 ] && grep -q -- "-lmcpdesc" "$2" && grep -qx /usr/share/mcpdesc/rules "$2"' \
    sh "$st" "$out/stdout" || show
check "pkg-config names an existing library and header" \
    sh -c 'ls "$1"/usr/lib/*/libmcpdesc.a > /dev/null && [ -f "$1/usr/include/mcpdesc.h" ]' sh "$root"

in_root 'apt-get purge -y mcpdesc libmcpdesc-dev'
check "apt-get purge removes both and /usr/share/mcpdesc" \
    sh -c '[ "$1" = 0 ] && [ ! -e "$2/usr/share/mcpdesc" ] && [ ! -e "$2/usr/bin/mcpdesc" ]' sh "$st" "$root" || show

cleanup
echo "deb-install: $(($(date +%s) - start)) s in all"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
