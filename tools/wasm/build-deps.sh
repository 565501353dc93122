#!/bin/sh
# build-deps.sh DIR - the libraries of the WebAssembly build, compiled with emscripten from
# the sources tools/wasm/fetch-sources.sh unpacked in DIR/src, installed (static libraries
# and headers) into DIR/deps. Each library is built once: DIR/deps/PACKAGE.built holds the
# version line it was built from, and a library whose line still matches is not rebuilt.
#   jansson    CMake, as Debian builds it (no docs, tests nor examples)
#   libyaml    CMake
#   pcre2      CMake, 8-bit only, without JIT (there is no JIT for WebAssembly:
#              pcre2_jit_compile answers PCRE2_ERROR_JIT_BADOPTION and matching interprets)
#   nettle     configure (for its config.h), then SHA-256's three files alone: mcpdesc
#              uses nettle for sha256 only
#   uriparser  CMake, char only, no tools, tests nor docs
set -eu
[ $# -eq 1 ] || { echo "usage: build-deps.sh DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd)
prefix="$dir/deps"
mkdir -p "$prefix/lib" "$prefix/include" "$dir/deps-build"
# emcc runs its JavaScript tools with node: they need Debian's node modules (acorn, ...),
# found under /usr/share/nodejs when the node on PATH is not Debian's
NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
export NODE_PATH
JOBS=${JOBS:-2}
CMAKE_COMMON="-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$prefix -DBUILD_SHARED_LIBS=OFF -DCMAKE_C_FLAGS=-O2"

# build PKG: run build_PKG in a fresh build directory unless PKG.built matches the source
build() {
    version=$(cat "$dir/src/$1.version")
    if [ "$(cat "$prefix/$1.built" 2>/dev/null)" = "$version" ]; then
        return 0
    fi
    echo "build-deps: $version"
    rm -rf "$dir/deps-build/$1"
    mkdir -p "$dir/deps-build/$1"
    start=$(date +%s)
    if ! (cd "$dir/deps-build/$1" && "build_$1" "$dir/src/$1") > "$dir/deps-build/$1.log" 2>&1; then
        tail -n 40 "$dir/deps-build/$1.log" >&2
        echo "build-deps: $1 failed (whole log: $dir/deps-build/$1.log)" >&2
        exit 1
    fi
    echo "$version" > "$prefix/$1.built"
    echo "build-deps: $1 built in $(($(date +%s) - start)) s"
}

# Each step is joined by && : errexit does not hold inside the `if !` that runs them.
build_jansson() {
    # shellcheck disable=SC2086
    emcmake cmake "$1" $CMAKE_COMMON -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON \
        -DJANSSON_EXAMPLES=OFF -DJANSSON_BUILD_SHARED_LIBS=OFF &&
        emmake make -j"$JOBS" install
}
build_libyaml() {
    # shellcheck disable=SC2086
    emcmake cmake "$1" $CMAKE_COMMON -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml &&
        emmake make -j"$JOBS" install
}
build_pcre2() {
    # shellcheck disable=SC2086
    emcmake cmake "$1" $CMAKE_COMMON -DPCRE2_BUILD_PCRE2_8=ON -DPCRE2_BUILD_PCRE2_16=OFF \
        -DPCRE2_BUILD_PCRE2_32=OFF -DPCRE2_SUPPORT_JIT=OFF -DPCRE2_BUILD_PCRE2GREP=OFF \
        -DPCRE2_BUILD_TESTS=OFF -DPCRE2_SUPPORT_LIBBZ2=OFF -DPCRE2_SUPPORT_LIBZ=OFF \
        -DPCRE2_SUPPORT_LIBEDIT=OFF -DPCRE2_SUPPORT_LIBREADLINE=OFF &&
        emmake make -j"$JOBS" install
}
# nettle: configure writes config.h; only SHA-256's files are compiled (nettle's whole
# Makefile runs host programs, desdata, that emscripten's output cannot be)
NETTLE_SRCS="sha256.c sha256-compress.c write-be32.c"
NETTLE_OBJS="sha256.o sha256-compress.o write-be32.o"
# shellcheck disable=SC2086 # NETTLE_OBJS: file names, one word each
build_nettle() {
    cp -R "$1/." . &&
        emconfigure ./configure --host=wasm32-unknown-emscripten --prefix="$prefix" \
            --disable-assembler --disable-shared --disable-documentation --disable-openssl \
            --disable-public-key --disable-fat --disable-mini-gmp &&
        for f in $NETTLE_SRCS; do
            emcc -O2 -DHAVE_CONFIG_H -I. -c "$f" -o "${f%.c}.o" || return 1
        done &&
        emar rcs libnettle.a $NETTLE_OBJS &&
        mkdir -p "$prefix/include/nettle" &&
        cp libnettle.a "$prefix/lib/" &&
        cp ./*.h "$prefix/include/nettle/"
}
build_uriparser() {
    # shellcheck disable=SC2086
    emcmake cmake "$1" $CMAKE_COMMON -DURIPARSER_BUILD_TESTS=OFF -DURIPARSER_BUILD_DOCS=OFF \
        -DURIPARSER_BUILD_TOOLS=OFF -DURIPARSER_BUILD_WCHAR_T=OFF &&
        emmake make -j"$JOBS" install
}

for pkg in jansson libyaml pcre2 nettle uriparser; do
    build "$pkg"
done
