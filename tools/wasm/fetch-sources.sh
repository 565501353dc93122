#!/bin/sh
# fetch-sources.sh DIR - Debian's source packages of the libraries the WebAssembly build
# links (jansson, libyaml, pcre2, nettle, uriparser), fetched and verified by apt, unpacked
# with Debian's patches applied into DIR/src/PACKAGE (docs/wasm.md).
# apt runs with a configuration of its own under DIR/apt (deb-src lines for bookworm, its
# updates and security; the system's apt configuration is never read nor changed): the
# Sources index is signed (InRelease, checked against Debian's keyring) and names each
# file's SHA256, and every file is downloaded by apt itself (`apt-get source`, else
# apt-helper with that SHA256), so nothing comes from elsewhere nor unverified.
# Where bookworm's files are not served (uriparser's answered 404 on the project's
# mirror), the package is taken from trixie the same way; when only its .dsc is missing,
# its orig and debian tarballs (each verified by its SHA256 from the signed index) are
# unpacked and debian/patches/series applied by hand, as dpkg-source would.
# DIR/src/PACKAGE.version says which version and suite was used; a package whose
# directory and version file exist is not fetched again.
set -eu
[ $# -eq 1 ] || { echo "usage: fetch-sources.sh DIR" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)
PACKAGES="jansson libyaml pcre2 nettle uriparser"
MIRROR=${MCPDESC_WASM_MIRROR:-http://deb.debian.org}
mkdir -p "$dir/src"

# apt_config SUITE: a private apt configuration for SUITE's source packages
apt_config() {
    a="$dir/apt/$1"
    mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/empty"
    case $1 in
    bookworm)
        printf 'deb-src %s/debian bookworm main\n' "$MIRROR"
        printf 'deb-src %s/debian bookworm-updates main\n' "$MIRROR"
        printf 'deb-src %s/debian-security bookworm-security main\n' "$MIRROR"
        ;;
    *) printf 'deb-src %s/debian %s main\n' "$MIRROR" "$1" ;;
    esac > "$a/sources.list"
}
# apt_in SUITE apt-get|apt-cache ARGS...: that tool with SUITE's configuration only
apt_in() {
    a="$dir/apt/$1"
    tool=$2
    shift 2
    "$tool" -q -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts="$a/empty" \
        -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$a/empty" \
        -o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache" \
        -o Dir::State::Status=/dev/null -o APT::Sandbox::User=root "$@"
}
updated=""
apt_update() {
    case " $updated " in *" $1 "*) return 0 ;; esac
    apt_config "$1"
    echo "fetch-sources: apt-get update ($1 sources)"
    apt_in "$1" apt-get update -qq > "$dir/apt/$1/update.log" 2>&1 || {
        cat "$dir/apt/$1/update.log" >&2
        return 1
    }
    updated="$updated $1"
}

# unpack_by_hand PKG: orig + debian tarballs of a 3.0 (quilt) package, patches applied
unpack_by_hand() {
    orig=
    deb=
    for f in "$pkg_dl"/*; do
        case $f in
        *.orig.tar.gz | *.orig.tar.xz | *.orig.tar.bz2) orig=$f ;;
        *.debian.tar.gz | *.debian.tar.xz | *.debian.tar.bz2) deb=$f ;;
        esac
    done
    if [ -z "$orig" ] || [ -z "$deb" ]; then
        echo "fetch-sources: $1: no orig and debian tarballs to unpack" >&2
        return 1
    fi
    # every step checked: errexit does not hold in a function called from `||`
    mkdir -p "$dir/src/$1.tmp" && tar -xf "$orig" -C "$dir/src/$1.tmp" || return 1
    top=$(ls "$dir/src/$1.tmp")
    if [ -z "$top" ] || [ "$(echo "$top" | wc -l)" != 1 ]; then
        echo "fetch-sources: $1: the orig tarball does not hold one top directory" >&2
        return 1
    fi
    mv "$dir/src/$1.tmp/$top" "$dir/src/$1" && rmdir "$dir/src/$1.tmp" &&
        tar -xf "$deb" -C "$dir/src/$1" || return 1
    [ -f "$dir/src/$1/CMakeLists.txt" ] || [ -f "$dir/src/$1/configure" ] || {
        echo "fetch-sources: $1: unpacked, but holds neither CMakeLists.txt nor configure" >&2
        return 1
    }
    if [ -f "$dir/src/$1/debian/patches/series" ]; then
        sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/src/$1/debian/patches/series" | while read -r p opt; do
            (cd "$dir/src/$1" && patch -s -p1 ${opt:+"$opt"} < "debian/patches/$p") || exit 1
        done || return 1
    fi
}

# fetch PKG SUITE: the newest version of PKG's source in SUITE whose files are all served
# (a point release's or a security update's may not be yet), verified; 0 when unpacked
fetch() {
    apt_update "$2" || return 1
    versions=$(apt_in "$2" apt-cache showsrc -qq "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -Vr | uniq)
    [ -n "$versions" ] || {
        echo "fetch-sources: $1: not in $2's Sources" >&2
        return 1
    }
    for version in $versions; do
        fetch_version "$1" "$2" "$version" && return 0
    done
    return 1
}

# fetch_version PKG SUITE VERSION
fetch_version() {
    pkg=$1
    suite=$2
    version=$3
    pkg_dl="$dir/dl/$pkg-$version"
    rm -rf "$pkg_dl" "$dir/src/$pkg" "$dir/src/$pkg.tmp"
    mkdir -p "$pkg_dl/log"
    uris=$(apt_in "$suite" apt-get source --print-uris -qq "$pkg=$version" 2>/dev/null | grep "^'") || {
        echo "fetch-sources: $pkg $version: apt-get source found no files" >&2
        return 1
    }
    missing_dsc=0
    echo "$uris" | while read -r url file _size hash; do
        url=$(echo "$url" | tr -d "'")
        if ! /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$url" "$pkg_dl/$file" "$hash" > "$pkg_dl/log/$file" 2>&1; then
            echo "fetch-sources: $pkg $version ($suite): $file: $(grep -A1 -m1 -E 'Err|E:' "$pkg_dl/log/$file" | tr -s ' \n' ' ' || echo 'download failed')" >&2
            rm -f "$pkg_dl/$file"
            case $file in *.dsc) echo dsc >> "$pkg_dl/log/failed" ;; *) echo "$file" >> "$pkg_dl/log/failed" ;; esac
        fi
    done
    if [ -f "$pkg_dl/log/failed" ]; then
        grep -qv '^dsc$' "$pkg_dl/log/failed" && return 1
        missing_dsc=1
    fi
    if [ $missing_dsc = 0 ]; then
        dpkg-source -q -x "$pkg_dl"/*.dsc "$dir/src/$pkg" > "$pkg_dl/log/unpack" 2>&1 || {
            cat "$pkg_dl/log/unpack" >&2
            return 1
        }
        how="apt, dpkg-source"
    else
        echo "fetch-sources: $pkg $version ($suite): no .dsc served: unpacking its verified tarballs and applying debian/patches/series"
        unpack_by_hand "$pkg" || return 1
        how="apt-helper, tarballs and patches by hand (no .dsc served)"
    fi
    echo "$pkg $version $suite ($how)" > "$dir/src/$pkg.version"
    echo "fetch-sources: $(cat "$dir/src/$pkg.version")"
}

for pkg in $PACKAGES; do
    if [ -d "$dir/src/$pkg" ] && [ -f "$dir/src/$pkg.version" ]; then
        continue
    fi
    fetch "$pkg" bookworm || {
        echo "fetch-sources: $pkg: bookworm's source could not be fetched; trying trixie's"
        fetch "$pkg" trixie
    } || {
        echo "fetch-sources: $pkg: no source package could be fetched and verified" >&2
        exit 1
    }
done
