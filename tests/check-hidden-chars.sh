#!/bin/sh
# check-hidden-chars.sh - no file of the project holds a raw character that hides or
# reorders text (docs/security.md): the bidirectional controls and marks (U+061C,
# U+200E-200F, U+202A-202E, U+2066-2069), zero-width characters (U+200B-200D, U+2060,
# U+FEFF), the tag characters (U+E0000-E007F) and ESC. A git diff holding a raw
# right-to-left override is itself Trojan Source; the security fixtures write every such
# character as an escape (\u202E in JSON, "\u202E" in YAML double quotes). The files that
# must hold them raw (a test of raw input, a golden of coloured or JSON output) are listed
# in tests/hidden-chars-allow.txt. Prints each file and line found; exit 1 if any.
set -u
cd "$(dirname "$0")/.." || exit 2
allow=tests/hidden-chars-allow.txt
found=$(find . \( -path ./build -o -path ./.git -o -path ./node_modules \) -prune -o -type f -print |
    sed 's|^\./||' | grep -vxFf "$allow" |
    LC_ALL=C.UTF-8 xargs grep -InP '[\x{061C}\x{200B}-\x{200F}\x{202A}-\x{202E}\x{2060}\x{2066}-\x{2069}\x{FEFF}\x{E0000}-\x{E007F}\x1B]' 2>/dev/null | cut -c1-120)
if [ -n "$found" ]; then
    printf '%s\n' "$found" | sed 's/^/FAIL raw hidden character: /'
    exit 1
fi
echo "check-hidden-chars: ok (no raw bidirectional, zero-width, tag or ESC character)"
