#!/bin/sh
# assemble.sh VERSION WASM_DIR NPM_DIR - `make npm` (mk/npm.mk, docs/npm.md): the npm
# package mcpdesc in NPM_DIR/package/ (tools/npm/'s sources, package.json with VERSION,
# make wasm's mcpdesc.js and mcpdesc.wasm under wasm/, with the API's module
# NPM_DIR/api/mcpdesc-api.js and .wasm: mk/npm.mk), packed by `npm pack` into
# NPM_DIR/mcpdesc-VERSION.tgz. Needs npm; no network (the package has no dependencies).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sh tools/npm/assemble.sh VERSION WASM_DIR NPM_DIR" >&2
    exit 2
fi
version=$1
wasm=$2
out=$3
src=$(dirname "$0")
pkg=$out/package
rm -rf "$pkg" "$out/mcpdesc-$version.tgz"
mkdir -p "$pkg/bin" "$pkg/wasm"
sed "s/@VERSION@/$version/" "$src/package.json.in" > "$pkg/package.json"
cp "$src/index.js" "$src/index.d.ts" "$src/README.md" "$pkg/"
cp "$src/bin/mcpdesc.js" "$pkg/bin/"
chmod 755 "$pkg/bin/mcpdesc.js"
cp "$wasm/mcpdesc.js" "$wasm/mcpdesc.wasm" "$out/api/mcpdesc-api.js" "$out/api/mcpdesc-api.wasm" "$pkg/wasm/"
# npm's own cache and logs in the build tree, never the user's ~/.npm
(cd "$pkg" && npm_config_cache="$(cd .. && pwd)/cache" npm pack --silent --pack-destination .. > /dev/null)
[ -f "$out/mcpdesc-$version.tgz" ] || { echo "assemble.sh: npm pack wrote no $out/mcpdesc-$version.tgz" >&2; exit 1; }
echo "npm: $out/mcpdesc-$version.tgz ($(wc -c < "$out/mcpdesc-$version.tgz") bytes)"
