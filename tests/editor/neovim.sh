#!/bin/sh
# neovim.sh MCPDESC - `make test-neovim`: Neovim (Debian 12's 0.7.2 or later), headless
# and with no user configuration (scratch XDG directories, -u test.lua, no plugins, no
# shada), starts `MCPDESC lsp`, opens a description with findings and a rule file, and
# writes the diagnostics it received; they must equal tests/editor/expected.txt; then
# applies a quick fix, and the buffer must equal tests/editor/expected-fixed.json. A
# counted skip (tests/skip.sh) without nvim.
set -u
WHAT="mcpdesc lsp in Neovim"
. "$(dirname "$0")/setup.sh"
mkdir -p "$tmp/ws/rules"
cp "$top/tests/lsp/component.json" "$tmp/ws/comp.json"
# a rule file: a .yaml beside a manifest.yaml (what the server lints as a rule file)
cp "$top/tests/editor/manifest.yaml" "$tmp/ws/rules/manifest.yaml"
cp "$top/tests/editor/bad-rule.yaml" "$tmp/ws/rules/bad-rule.yaml"
st=0
XDG_CONFIG_HOME=$tmp/xdg/config XDG_DATA_HOME=$tmp/xdg/data XDG_STATE_HOME=$tmp/xdg/state \
XDG_CACHE_HOME=$tmp/xdg/cache HOME=$tmp MCPDESC_NO_CONFIG=1 \
MCPDESC_BIN=$bin LSP_RULES=$top/rules-yaml LSP_ROOT=$tmp/ws LSP_DESC=$tmp/ws/comp.json \
LSP_RULEFILE=$tmp/ws/rules/bad-rule.yaml LSP_OUT=$tmp/got.txt LSP_FIXED=$tmp/fixed.json \
    timeout 60 nvim --headless --noplugin -i NONE -n -u "$top/tests/editor/test.lua" \
    > "$tmp/nvim.log" 2>&1 || st=$?
if [ "$st" -ne 0 ] || [ ! -f "$tmp/got.txt" ]; then
    echo "test-neovim: FAIL: nvim exited with status $st"
    cat "$tmp/nvim.log"
    exit 1
fi
if ! diff -u "$top/tests/editor/expected.txt" "$tmp/got.txt"; then
    echo "test-neovim: FAIL: the diagnostics Neovim received differ from tests/editor/expected.txt (diff above)"
    exit 1
fi
if ! diff -u "$top/tests/editor/expected-fixed.json" "$tmp/fixed.json"; then
    echo "test-neovim: FAIL: the buffer after the quick fix differs from tests/editor/expected-fixed.json (diff above)"
    exit 1
fi
echo "test-neovim: ok ($(nvim --version | head -n 1): $(grep -c '^[0-9]' "$tmp/got.txt") diagnostics as expected)"
