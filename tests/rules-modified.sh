#!/bin/sh
# rules-modified.sh BINARY - a rule set that differs from every lock of its tag is
# reported as modified in every format and on every page (issue 16, "honest names"): the
# released v0.9.0-rc.8 with one rule file added (acme.yaml, as a rule author would) is
# never called "v0.9.0-rc.8", while the release itself still is.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup rules-modified "$@"
rel=rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.8
cp -r "$rel" "$tmp/set"
cp tests/data/modified/acme.yaml "$tmp/set/rules/acme.yaml"
printf '  - acme.yaml\n' >> "$tmp/set/rules/manifest.yaml"
set_dir=$tmp/set
desc=examples/weather.json

# says WANT NEVER COMMAND...: the output holds WANT and not NEVER (the claim a modified
# set must never make; empty: none)
says() {
    want=$1 never=$2
    shift 2
    "$@" > "$tmp/out" 2>&1
    grep -qF -- "$want" "$tmp/out" && { [ -z "$never" ] || ! grep -qF -- "$never" "$tmp/out"; } && return 0
    echo "    expected '$want'${never:+ and no '$never'} in the output of: $*"
    sed 's/^/    | /' "$tmp/out" | grep -F -e "$want" -e "${never:-$want}" -e "rules:" | head -5
    return 1
}

# a release directory (it keeps SHA256SUMS) of a tag this mcpdesc ships is refused when
# its files differ from the release's: never something else under the tag's name
refused() {
    "$@" > "$tmp/out" 2>&1
    st=$?
    [ "$st" -eq 2 ] && grep -qF "is not the release mcpdesc-mcp@v0.9.0-rc.8 that this mcpdesc ships" "$tmp/out" &&
        grep -qF "  acme.yaml: not part of the release" "$tmp/out" && return 0
    echo "    expected exit 2 and the refusal naming acme.yaml, got exit $st:"
    sed 's/^/    | /' "$tmp/out" | head -5
    return 1
}
check "a copy of the release that keeps SHA256SUMS is refused" refused \
    "$bin" validate --rules "$set_dir" "$desc"
# without it, the copy is a rule author's set of its own, derived from the tag
rm "$set_dir/rules/SHA256SUMS"
set_dir=$tmp/set/rules

check "the release names its tag" says "rules: mcpdesc-mcp v0.9.0-rc.8 (sha256:" "+modified" \
    "$bin" validate --rules "$rel" "$desc"
check "text" says "v0.9.0-rc.8+modified (sha256:" "" "$bin" validate --rules "$set_dir" "$desc"
check "text says why" says "not a released tag" "" "$bin" validate --rules "$set_dir" "$desc"
check "json: tag is null" says '"tag": null' '"tag": "v0.9.0-rc.8"' \
    "$bin" validate --rules "$set_dir" --format json "$desc"
check "json: derived from" says '"derivedFrom": "v0.9.0-rc.8"' "" \
    "$bin" validate --rules "$set_dir" --format json "$desc"
check "json: modified" says '"modified": true' "" \
    "$bin" validate --rules "$set_dir" --format json "$desc"
check "sarif: modified, no ruleSetTag" says '"modified": true' '"ruleSetTag"' \
    "$bin" validate --rules "$set_dir" --format sarif "$desc"
check "github" says "v0.9.0-rc.8+modified" "" \
    "$bin" validate --rules "$set_dir" --format github "$desc"
check "rules list json" says '"modified": true' '"tag": "v0.9.0-rc.8"' \
    "$bin" rules list --rules "$set_dir" --format json
check "rules dump" says "# rule set mcpdesc-mcp v0.9.0-rc.8+modified" "" \
    "$bin" rules dump --rules "$set_dir" acme.tool.description-length
check "rules explain (added rule)" says "acme.yaml at v0.9.0-rc.8+modified (not a released tag" \
    "immutable tag" "$bin" rules explain --rules "$set_dir" acme.tool.description-length
check "rules explain (shipped rule)" says "tool.yaml at v0.9.0-rc.8+modified" "immutable tag" \
    "$bin" rules explain --rules "$set_dir" mcp.tool.name.charset
"$bin" rules docs --rules "$set_dir" --out "$tmp/docs" > /dev/null 2>&1
for page in acme.tool.description-length.md acme.tool.description-length.html index.md index.html; do
    check "rules docs: $page" says "v0.9.0-rc.8+modified" "immutable tag" cat "$tmp/docs/$page"
done
check "pinning it to rc.8 is refused" says "it differs from the release mcpdesc-mcp@v0.9.0-rc.8 this mcpdesc ships" "wrote" \
    "$bin" validate --rules "$set_dir" --rules-tag v0.9.0-rc.8 "$desc"
testlib_finish
