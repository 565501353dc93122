#!/bin/sh
# neovim-org.sh MCPDESC - Neovim (0.7.2 or later), headless, no user configuration, opens a
# rule file of an org set that extends mcpdesc-mcp@v0.9.0-rc.9 by tag (tests/editor/org/)
# with `MCPDESC lsp` and no MCPDESC_RULES_PATH: the server finds the base on the one
# release search path and shows the file's own mistake at its line
# (tests/editor/expected-org.txt), not a manifest error at 0:0. `make test-neovim` runs it
# with build/mcpdesc (the tree's releases); tests/embed/test-install.sh with an installed
# mcpdesc (PREFIX/share/mcpdesc/releases). A counted skip (tests/skip.sh) without nvim.
set -u
WHAT="an org rule file in Neovim"
. "$(dirname "$0")/setup.sh"
cp -R "$top/tests/editor/org" "$tmp/ws/rules"
st=0
(cd "$tmp/ws" && env -u MCPDESC_RULES_PATH -u MCPDESC_RULES XDG_CONFIG_HOME="$tmp/xdg/config" \
    XDG_DATA_HOME="$tmp/xdg/data" XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache" \
    HOME="$tmp" MCPDESC_NO_CONFIG=1 MCPDESC_BIN="$bin" LSP_ROOT="$tmp/ws" \
    LSP_RULEFILE="$tmp/ws/rules/bad-rule.yaml" LSP_OUT="$tmp/got.txt" \
    timeout 60 nvim --headless --noplugin -i NONE -n -u "$top/tests/editor/org.lua") \
    > "$tmp/nvim.log" 2>&1 || st=$?
if [ "$st" -ne 0 ] || [ ! -f "$tmp/got.txt" ]; then
    echo "test-neovim-org: FAIL: nvim exited with status $st ($bin)"
    cat "$tmp/nvim.log"
    exit 1
fi
if ! diff -u "$top/tests/editor/expected-org.txt" "$tmp/got.txt"; then
    echo "test-neovim-org: FAIL: the org rule file's diagnostics ($bin) differ from tests/editor/expected-org.txt (diff above)"
    exit 1
fi
echo "test-neovim-org: ok ($bin: the org rule file's own mistake at its line)"
