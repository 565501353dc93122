# setup.sh - sourced by tests/editor/neovim*.sh with $1 the program and WHAT the test:
# sets bin (its absolute path), top (the repository) and tmp (a scratch folder holding
# ws/ and the XDG folders nvim is pointed at, removed on exit); without nvim, a counted
# skip (tests/skip.sh) and exit.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v nvim > /dev/null 2>&1; then
    . "$top/tests/skip.sh"
    test_skip test-neovim "$WHAT" "nvim not found; make test-deps installs it" || exit 1
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-neovim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/ws" "$tmp/xdg/config" "$tmp/xdg/data" "$tmp/xdg/state" "$tmp/xdg/cache"
