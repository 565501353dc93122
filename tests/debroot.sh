# debroot.sh - clean Debian 12 roots for the tests that need a fresh machine (sourced by
# tests/deb-install.sh and tests/fresh-root.sh, after `set -u`):
#   debroot_mirror               the bookworm mirror: $DEB_MIRROR, else the one this
#                                machine's apt uses (sources.list, *.list, deb822
#                                *.sources), else http://deb.debian.org/debian
#   debroot_make ROOT TARBALL INCLUDE MIRROR
#                                a new root at ROOT, made by debootstrap --variant=minbase
#                                --include=INCLUDE from TARBALL (a tarball of the base
#                                system's packages that `debootstrap --make-tarball`
#                                downloads the first time and keeps: every run starts
#                                from a root debootstrap has just made, never from one an
#                                earlier run used); /proc mounted, resolv.conf copied;
#                                returns 1 after a message
#   debroot_ready TARGET WHAT MIRROR READY_ONLY
#                                root and the mirror, or a counted skip of TARGET
#                                (tests/skip.sh, sourced before): exit 0 after the skip
#                                line (3 when READY_ONLY is 1, so make can tell; 1 under
#                                MCPDESC_REQUIRE=all); with READY_ONLY 1 and nothing
#                                missing, exit 0 (the caller's `--ready`)
#   debroot_cleanup              unmounts what debroot_make mounted
debroot_mounted=""

# the bookworm mirror of this machine's apt, or nothing
debroot_host_mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
             if ($(i + 1) == "bookworm") { print $i; exit } }' "$f"
    done | head -n 1
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822: the URIs of the first stanza of type deb whose Suites has bookworm
        awk 'BEGIN { RS = ""; FS = "\n" }
             { uris = ""; deb = 0; suite = 0
               for (k = 1; k <= NF; k++) {
                   if ($k ~ /^URIs:/) { uris = $k; sub(/^URIs:[ \t]*/, "", uris); sub(/[ \t].*/, "", uris) }
                   if ($k ~ /^Types:.*(^|[ \t])deb([ \t]|$)/) deb = 1
                   if ($k ~ /^Suites:/ && $k ~ /[ \t]bookworm([ \t]|$)/) suite = 1
               }
               if (deb && suite && uris != "") { print uris; exit } }' "$f"
    done | head -n 1
}

debroot_mirror() {
    m=${DEB_MIRROR:-$(debroot_host_mirror | head -n 1)}
    echo "${m:-http://deb.debian.org/debian}"
}

debroot_ready() {
    dr_why=""
    if [ "$(id -u)" != 0 ]; then
        dr_why="needs root: debootstrap, chroot"
    elif ! curl -fsS --max-time 20 -o /dev/null "$3/dists/bookworm/Release" 2> "${TMPDIR:-/tmp}/debroot-probe.$$"; then
        dr_why="the mirror $3 cannot be reached: $(head -c 200 "${TMPDIR:-/tmp}/debroot-probe.$$")"
    fi
    rm -f "${TMPDIR:-/tmp}/debroot-probe.$$"
    if [ -n "$dr_why" ]; then
        test_skip "$1" "$2" "$dr_why" || exit 1
        [ "$4" = 1 ] && exit 3
        exit 0
    fi
    [ "$4" = 1 ] && exit 0
    return 0
}

debroot_make() {
    dr_root=$1 dr_tarball=$2 dr_include=$3 dr_mirror=$4
    dr_base=$(dirname "$dr_tarball")
    mkdir -p "$dr_base"
    if [ ! -f "$dr_tarball" ]; then
        dr_t=$(date +%s)
        echo "debroot: debootstrap --make-tarball bookworm $dr_mirror (once; kept as $dr_tarball)"
        rm -rf "$dr_base/download"
        debootstrap --variant=minbase --include="$dr_include" --make-tarball="$dr_tarball.part" \
            bookworm "$dr_base/download" "$dr_mirror" > "$dr_base/debootstrap.log" 2>&1 || {
            tail -n 20 "$dr_base/debootstrap.log" >&2
            echo "debroot: debootstrap --make-tarball failed (log: $dr_base/debootstrap.log)" >&2
            return 1
        }
        rm -rf "$dr_base/download"
        mv "$dr_tarball.part" "$dr_tarball"
        echo "debroot: packages downloaded in $(($(date +%s) - dr_t)) s"
    fi
    # a run killed before its cleanup leaves /proc mounted: never rm -rf through it
    if [ -d "$dr_root/proc" ] && mountpoint -q "$dr_root/proc"; then umount "$dr_root/proc" || return 1; fi
    rm -rf "$dr_root"
    dr_t=$(date +%s)
    debootstrap --variant=minbase --include="$dr_include" --unpack-tarball="$dr_tarball" bookworm \
        "$dr_root" "$dr_mirror" > "$dr_base/debootstrap.log" 2>&1 || {
        tail -n 20 "$dr_base/debootstrap.log" >&2
        echo "debroot: debootstrap of a clean root failed (log: $dr_base/debootstrap.log)" >&2
        return 1
    }
    echo "debroot: clean root made by debootstrap in $(($(date +%s) - dr_t)) s (mirror $dr_mirror)"
    cp /etc/resolv.conf "$dr_root/etc/resolv.conf"
    mount -t proc proc "$dr_root/proc" && debroot_mounted=$dr_root/proc
}

debroot_cleanup() {
    [ -n "$debroot_mounted" ] && umount "$debroot_mounted" 2> /dev/null
    debroot_mounted=""
}
