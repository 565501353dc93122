#!/bin/sh
# rules-diff-history.sh BINARY - `mcpdesc rules diff` on two real releases of the shipped
# rule set, the shipped releases v0.9.0-rc.8 and v0.9.0-rc.9 (rules-yaml/releases/, found
# by tag as `--rules-tag` finds them). It checks differences
# that rules-yaml/README.md's rc.9 note names (new rules, level changes, a check that
# changed, citations), the JSON form of two of them, and that a release compared with
# itself is no difference (exit 0).
# Prints ok/FAIL per check, then "N passed, N failed".
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup rules-diff-history "$@"
# the shipped releases, named by tag as a release engineer would
a=v0.9.0-rc.8 b=v0.9.0-rc.9

# ok/fail DESCRIPTION: one numbered line, counted as testlib's check counts
ok() { check "$1" true; }
fail() { check "$1" false; }
# has FILE DESCRIPTION PATTERN: FILE has a line matching the basic regex PATTERN
has() {
    if grep -q -- "$3" "$1"; then ok "$2"; else
        fail "$2: no line matching '$3' in:"
        sed 's/^/      | /' "$1" | head -n 20
    fi
}
# status WANT GOT DESCRIPTION
status() {
    if [ "$2" = "$1" ]; then ok "$3 (exit $2)"; else
        fail "$3: exit $2, expected $1"
        sed 's/^/      | /' "$tmp/err" | head -n 10
    fi
}

"$bin" rules diff "$a" "$b" > "$tmp/text" 2> "$tmp/err"
status 1 $? "rc.8 -> rc.9 differ"
has "$tmp/text" "the header names rc.8" '^--- mcpdesc-mcp v0\.9\.0-rc\.8 (sha256:[0-9a-f]\{64\})$'
has "$tmp/text" "the header names rc.9" '^+++ mcpdesc-mcp v0\.9\.0-rc\.9 (sha256:[0-9a-f]\{64\})$'
has "$tmp/text" "the tag moved" '^~ set: tag v0\.9\.0-rc\.8 -> v0\.9\.0-rc\.9; digest$'
has "$tmp/text" "resource.size.non-negative is new in rc.9, a should" \
    '^+ mcp\.resource\.size\.non-negative (should, all)$'
has "$tmp/text" "execution.optional-tasks-capability is new in rc.9, a should" \
    '^+ mcp\.tool\.execution\.optional-tasks-capability (should, \[2025-11-25\])$'
has "$tmp/text" "x-mcp-header.string became a must" \
    '^~ mcp\.tool\.x-mcp-header\.string: level should -> must; check;'
has "$tmp/text" "execution.requires-tasks-capability became a must" \
    '^~ mcp\.tool\.execution\.requires-tasks-capability: level should -> must;'
has "$tmp/text" "input-schema.no-params-form became a may, with its message" \
    '^~ mcp\.tool\.input-schema\.no-params-form: level should -> may; check; message;'
has "$tmp/text" "capabilities.shape's check changed (completions from 2025-03-26)" \
    '^~ mcp\.server\.capabilities\.shape: check;'
has "$tmp/text" "a citation changed and nothing else (mcp.schema.composition.bounds)" \
    '^~ mcp\.schema\.composition\.bounds: metadata: based-on$'
has "$tmp/text" "no rule was removed, two were added" '^2 added, 0 removed, [0-9]* changed, [0-9]* unchanged$'
if grep -q '^- ' "$tmp/text"; then fail "a rule shown as removed: $(grep '^- ' "$tmp/text")"; else
    ok "no removed rule line"
fi

"$bin" rules diff --format json "$a" "$b" > "$tmp/json" 2> "$tmp/err"
status 1 $? "rc.8 -> rc.9 differ (json)"
if command -v jq > /dev/null 2>&1; then
    got=$(jq -r '[.a.tag, .b.tag, (.added | map(.id) | join(",")),
                  (.changed[] | select(.id == "mcp.tool.x-mcp-header.string")
                   | .changes.level.before + ">" + .changes.level.after),
                  (.changed[] | select(.id == "mcp.server.capabilities.shape")
                   | (.changes.check.before != .changes.check.after | tostring))] | join(" ")' \
        "$tmp/json")
    want="v0.9.0-rc.8 v0.9.0-rc.9 mcp.resource.size.non-negative,mcp.tool.execution.optional-tasks-capability should>must true"
    if [ "$got" = "$want" ]; then ok "json: tags, added ids, a level and a check's before/after"; else
        fail "json: got '$got', expected '$want'"
    fi
else
    has "$tmp/json" "json names the new rule" '"id": "mcp\.resource\.size\.non-negative"'
fi

"$bin" rules diff "$b" "$b" > "$tmp/same" 2> "$tmp/err"
status 0 $? "rc.9 against itself"
has "$tmp/same" "rc.9 against itself: nothing changed" '^0 added, 0 removed, 0 changed, [1-9][0-9]* unchanged$'

testlib_finish
