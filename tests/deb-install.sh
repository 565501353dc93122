#!/bin/sh
# deb-install.sh DEBDIR - install the packages `make deb` built (DEBDIR/mcpdesc_*.deb,
# DEBDIR/libmcpdesc-dev_*.deb) in a clean Debian 12 root and use them there (`make
# test-deb`; `make check` runs it as root, check-deb). Each run makes a new root with
# `debootstrap --variant=minbase --include=man-db bookworm` (man-db: the test's own
# tool) from a tarball of the base system's packages that `debootstrap --make-tarball`
# downloads once into build/deb-root/ (delete it to download again): every run starts
# from a root debootstrap has just made, never from one an earlier run used. The mirror
# is $DEB_MIRROR, else the one this machine's apt uses for bookworm
# (/etc/apt/sources.list, /etc/apt/sources.list.d/*.list and *.sources), else
# http://deb.debian.org/debian. In that root, as a user would:
#   apt-get install -y ./mcpdesc_*.deb ./libmcpdesc-dev_*.deb   (dependencies from the mirror)
#   mcpdesc validate weather.json names the installed rule set (the release, not +modified)
#   mcpdesc rules explain mcp.tool.name.charset, validate --rules-tag v0.9.0-rc.3
#   man mcpdesc renders; the bash completion is installed, and bash-completion with it
#   (the Recommends: a minimal Debian lacks it, and the completion never loaded)
#   pkg-config --cflags/--libs mcpdesc (pkg-config comes from libmcpdesc-dev's Recommends)
#   apt-get purge leaves no /usr/share/mcpdesc
# Not root, or the mirror unreachable: a counted skip (tests/skip.sh; a failure under
# MCPDESC_REQUIRE=all). `sh tests/deb-install.sh --ready` makes only that decision
# (exit 0: can run; 0 after a skip line; 1: a skip that MCPDESC_REQUIRE=all forbids;
# with --ready, 3 instead of 0 after a skip, so make can tell).
# Prints ok/FAIL per check, then "N passed, N failed".
set -u
. "$(dirname "$0")/testlib.sh"
. "$(dirname "$0")/skip.sh"
. "$(dirname "$0")/debroot.sh"
ready_only=0
if [ "${1:-}" = --ready ]; then
    ready_only=1
    set -- "$(dirname "$0")" # testlib_setup wants its one argument; unused
fi
TESTLIB_ARG=DEBDIR testlib_setup deb-install "$@"
debs=$bin
top=$(pwd)

mirror=$(debroot_mirror)

debroot_ready test-deb "the Debian packages installed in a clean Debian 12 root" "$mirror" "$ready_only"

command -v debootstrap > /dev/null || { echo "deb-install: debootstrap missing (sh tools/install-deps.sh deb-test)" >&2; exit 2; }
set -- "$debs"/mcpdesc_*.deb
[ -f "$1" ] || { echo "deb-install: no mcpdesc_*.deb in $debs (make deb)" >&2; exit 2; }
base=$top/build/deb-root
tarball=$base/bookworm-minbase.tgz
root=$base/run
start=$(date +%s)

trap 'debroot_cleanup; rm -rf "$tmp"' EXIT
debroot_make "$root" "$tarball" man-db "$mirror" || exit 2
mkdir -p "$root/tmp/debs"
cp "$debs"/mcpdesc_*.deb "$debs"/libmcpdesc-dev_*.deb "$root/tmp/debs/"
cp examples/weather.json "$root/tmp/weather.json"
out=$base/out
mkdir -p "$out"

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
[ "$st" = 0 ] || { testlib_finish; exit 1; }

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

in_root 'mcpdesc rules changes v0.9.0-rc.3'
check "rules changes v0.9.0-rc.3 prints the packaged changes log and findings record" \
    sh -c '[ "$1" = 0 ] && grep -q "^findings recorded with: mcpdesc " "$2" &&
           grep -q "/usr/share/mcpdesc/releases/mcpdesc-mcp@v0.9.0-rc.3.changes" "$2"' \
    sh "$st" "$out/stdout" || show

in_root 'man -w mcpdesc && MANWIDTH=80 man mcpdesc | grep -c fail-on'
check "man mcpdesc renders the installed page" \
    sh -c '[ "$1" = 0 ] && grep -q "^/usr/share/man/man1/mcpdesc.1.gz$" "$2"' sh "$st" "$out/stdout" || show

check "bash completion installed" [ -f "$root/usr/share/bash-completion/completions/mcpdesc" ]
# a minimal Debian has no bash-completion, and without it the file above never loads
check "mcpdesc recommends bash-completion" \
    sh -c 'dpkg-deb -f "$1"/mcpdesc_*.deb Recommends | grep -qw bash-completion' sh "$debs" || show
in_root 'dpkg-query -W -f="\${Status}" bash-completion && [ -f /usr/share/bash-completion/bash_completion ]'
check "apt-get install brought bash-completion (the Recommends)" \
    sh -c '[ "$1" = 0 ] && grep -q "install ok installed" "$2"' sh "$st" "$out/stdout" || show

in_root 'pkg-config --cflags mcpdesc && pkg-config --libs mcpdesc && pkg-config --variable=rulesdir mcpdesc'
check "pkg-config --cflags/--libs mcpdesc (rulesdir /usr/share/mcpdesc/rules)" \
    sh -c '[ "$1" = 0 ] && grep -q -- "-lmcpdesc" "$2" && grep -qx /usr/share/mcpdesc/rules "$2"' \
    sh "$st" "$out/stdout" || show
check "pkg-config names an existing library and header" \
    sh -c 'ls "$1"/usr/lib/*/libmcpdesc.a > /dev/null && [ -f "$1/usr/include/mcpdesc.h" ]' sh "$root"

in_root 'apt-get purge -y mcpdesc libmcpdesc-dev'
check "apt-get purge removes both and /usr/share/mcpdesc" \
    sh -c '[ "$1" = 0 ] && [ ! -e "$2/usr/share/mcpdesc" ] && [ ! -e "$2/usr/bin/mcpdesc" ]' sh "$st" "$root" || show

debroot_cleanup
echo "deb-install: $(($(date +%s) - start)) s in all"
testlib_finish
