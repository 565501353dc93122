#!/bin/sh
# render-docs.sh OUT [PAGE...] - render the rule pages into OUT with `mcpdesc rules docs`
# and, when a Chromium is installed (Debian: apt-get install chromium), take a headless
# screenshot of each PAGE (default: index and every rule page) into OUT/screenshots/, to
# look at the HTML as a reader does. Set MCPDESC (the binary), RULES (the rule set) and
# WIDTH/HEIGHT (window size) to override the defaults.
set -u
if [ $# -lt 1 ]; then
    echo "usage: sh tools/render-docs.sh OUT [PAGE...]   (PAGE: index, a rule id, version-V)" >&2
    exit 2
fi
out=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${MCPDESC:-$top/build/mcpdesc}
rules=${RULES:-$top/rules-yaml}
"$bin" rules docs --rules "$rules" --out "$out"
status=$?
[ $status -le 1 ] || exit $status
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "render-docs: no chromium found: pages written, no screenshots" >&2
    exit $status
fi
if [ $# -eq 0 ]; then
    set -- index
    for f in "$out"/*.html; do
        name=$(basename "$f" .html)
        case $name in index | version-*) ;; *) set -- "$@" "$name" ;; esac
    done
fi
mkdir -p "$out/screenshots"
profile=$(mktemp -d "${TMPDIR:-/tmp}/render-docs.XXXXXX") || exit 2
trap 'rm -rf "$profile"' EXIT
abs=$(cd "$out" && pwd)
for page in "$@"; do
    "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --hide-scrollbars --window-size="${WIDTH:-1200},${HEIGHT:-1600}" \
        --screenshot="$abs/screenshots/$page.png" "file://$abs/$page.html" >/dev/null 2>&1 &&
        echo "render-docs: $out/screenshots/$page.png" ||
        echo "render-docs: screenshot of $page failed" >&2
done
exit $status
