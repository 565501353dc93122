#!/bin/sh
# precommit.sh - the hooks of .pre-commit-hooks.yaml, run by Debian's pre-commit on a
# scratch git repository (make test-precommit; make check):
#   pre-commit try-repo THIS-CHECKOUT (pre-commit clones it locally, with uncommitted
#   changes): a bad description fails with its diagnostic, a good one passes, a
#   package.json and a tsconfig.json with comments are passed to the hook by the
#   default `files` and skipped (--only-descriptions), a bad description named
#   servers/notes.yaml is blocked, a commit of package.json alone passes, a `files:`
#   the user sets is honoured; mcpdesc-rules-lint passes a good rule set and fails a broken one
#   with its file:line:col; then a real `git commit` through `pre-commit install` is
#   refused for a bad description and made for a good one.
# No network: the hooks are `system` hooks (mcpdesc from PATH: BINARY's directory is put
# first on PATH) and PRE_COMMIT_HOME is a temporary directory.
# Skipped (tests/skip.sh) when pre-commit is not installed (apt-get install pre-commit).
# usage: sh tests/precommit.sh BINARY
set -u
. "$(dirname "$0")/testlib.sh"
. "$(dirname "$0")/skip.sh"
testlib_setup precommit "$@"
top=$(pwd)

if ! command -v pre-commit >/dev/null 2>&1; then
    test_skip test-precommit "the pre-commit hooks" "pre-commit is not installed: apt-get install pre-commit" || exit 1
    exit 0
fi

# The hooks run `mcpdesc`: this build's, whatever else is on PATH.
mkdir -p "$tmp/bin" && ln -s "$bin" "$tmp/bin/mcpdesc"
PATH="$tmp/bin:$PATH"
PRE_COMMIT_HOME="$tmp/cache"
# no colour, no prompt; git identity and config of its own
PRE_COMMIT_COLOR=never
GIT_CONFIG_GLOBAL="$tmp/gitconfig"
GIT_CONFIG_NOSYSTEM=1
export PATH PRE_COMMIT_HOME PRE_COMMIT_COLOR GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
git config --global user.name test
git config --global user.email test@example.invalid
git config --global init.defaultBranch main
git config --global safe.directory '*'

# new_repo DIR: an empty git repository with one commit
new_repo() {
    rm -rf "$1" && mkdir -p "$1" && git -C "$1" init -q && git -C "$1" commit -q --allow-empty -m init
}
# The hooks repository: this checkout's .pre-commit-hooks.yaml as it is in the working
# tree, committed alone in a repository of its own (cloning it is quick, and a change not
# yet committed is what is tested; try-repo of the checkout itself reads only tracked
# files, and is run once at the end).
h=$tmp/hookrepo
new_repo "$h"
cp .pre-commit-hooks.yaml "$h/"
git -C "$h" add .pre-commit-hooks.yaml && git -C "$h" commit -q -m hooks
rev=$(git -C "$h" rev-parse HEAD)
# try REPO-DIR HOOK [ARGS...]: pre-commit try-repo of those hooks, output in $tmp/out
try() {
    (cd "$1" && shift && pre-commit try-repo "$h" "$@") > "$tmp/out" 2>&1
}
has() { grep -q -- "$1" "$tmp/out"; }
status_is() { [ "$rc" -eq "$1" ]; }

r=$tmp/scratch
new_repo "$r"
mkdir -p "$r/servers"

# 1. a bad description (examples/weather.json: 3 errors) blocks, with its diagnostic
cp examples/weather.json "$r/servers/weather.mcp-description.json"
git -C "$r" add servers
try "$r" mcpdesc-validate; rc=$?
check "bad description: try-repo exits non-zero" status_is 1
check "bad description: the hook is reported Failed" has 'mcpdesc validate (MCP server descriptions).*Failed'
check "bad description: the diagnostic is printed (file:line:col, rule id)" \
    has 'servers/weather.mcp-description.json:43:22: error: .*\[mcpdesc.component-ref.dangling\]'
check "bad description: the summary line is printed" has '3 errors, 2 warnings, 0 infos in 1 file'
[ "$rc" -eq 1 ] || cat "$tmp/out"

# 2. a good one passes; a package.json and a tsconfig.json with comments beside it are
#    passed to the hook (files: \.(json|jsonc|ya?ml)$) and skipped, not judged
git -C "$r" rm -q --cached servers/weather.mcp-description.json
rm "$r/servers/weather.mcp-description.json"
cp examples/corpus/notes.json "$r/servers/notes.mcp-description.json"
printf '{"name": "x", "version": "1.0.0"}\n' > "$r/package.json"
printf '{\n  // as tsc --init writes it\n  "compilerOptions": {}\n}\n' > "$r/tsconfig.json"
git -C "$r" add servers package.json tsconfig.json
try "$r" mcpdesc-validate -v; rc=$?
check "good description: try-repo exits 0" status_is 0
check "good description: the hook is reported Passed" has 'mcpdesc validate (MCP server descriptions).*Passed'
check "good description: judged (verbose output has its summary)" has '0 errors, 0 warnings, 0 infos in 1 file'
check "package.json and tsconfig.json: passed to the hook and skipped, not judged" \
    has 'in 1 file (1 file skipped: no mcpDescription member; 1 file skipped: not a description: does not parse)'
[ "$rc" -eq 0 ] || cat "$tmp/out"

# 2b. YAML (types_or: yaml; a .yaml file is read as YAML: JSON is YAML too)
cp examples/corpus/notes.json "$r/servers/notes2.mcp-description.yaml"
git -C "$r" add servers
try "$r" mcpdesc-validate -v; rc=$?
check "YAML description: passes, two files judged" has '0 errors, 0 warnings, 0 infos in 2 files'

# 2c. a bad description whose name says nothing (servers/notes.yaml) is judged and blocks
cp examples/weather.json "$r/servers/notes.yaml"
git -C "$r" add servers
try "$r" mcpdesc-validate; rc=$?
check "servers/notes.yaml, a bad description: try-repo exits non-zero" status_is 1
check "servers/notes.yaml: the hook is reported Failed" has 'mcpdesc validate (MCP server descriptions).*Failed'
check "servers/notes.yaml: its diagnostic is printed" \
    has 'servers/notes.yaml:43:22: error: .*\[mcpdesc.component-ref.dangling\]'
[ "$rc" -eq 1 ] || cat "$tmp/out"

# 2d. a commit that changes package.json alone passes: nothing judged, exit 0
r=$tmp/scratch-package
new_repo "$r"
printf '{"name": "x", "version": "1.0.0"}\n' > "$r/package.json"
git -C "$r" add package.json
try "$r" mcpdesc-validate -v; rc=$?
check "package.json alone: try-repo exits 0" status_is 0
check "package.json alone: the hook is reported Passed" has 'mcpdesc validate (MCP server descriptions).*Passed'
check "package.json alone: the hook says nothing was judged" has 'nothing judged: no file named is an MCP Description'
[ "$rc" -eq 0 ] || cat "$tmp/out"

# 3. a real commit, with a `files:` of the user's own: a .pre-commit-config.yaml naming
#    the hooks repository at its commit, `pre-commit install`, `git commit`
u=$tmp/user
new_repo "$u"
cat > "$u/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $h
    rev: $rev
    hooks:
      - id: mcpdesc-validate
        files: ^servers/
EOF
git -C "$u" add .pre-commit-config.yaml && git -C "$u" commit -q -m config
(cd "$u" && pre-commit install) > "$tmp/out" 2>&1; rc=$?
check "pre-commit install in the user's repository" status_is 0
mkdir -p "$u/servers"
cp examples/weather.json "$u/servers/weather.json"
git -C "$u" add servers
(cd "$u" && git commit -m 'bad description') > "$tmp/out" 2>&1; rc=$?
check "git commit of a bad description (files: ^servers/) is refused" status_is 1
check "git commit of a bad description prints the diagnostic" \
    has 'servers/weather.json:43:22: error: .*\[mcpdesc.component-ref.dangling\]'
check "the refused commit was not made (one commit)" \
    [ "$(git -C "$u" rev-list --count HEAD)" -eq 2 ]
git -C "$u" rm -q --cached servers/weather.json && rm "$u/servers/weather.json"
cp examples/corpus/notes.json "$u/servers/notes.json"
git -C "$u" add servers
(cd "$u" && git commit -m 'good description') > "$tmp/out" 2>&1; rc=$?
check "git commit of a good description is made" status_is 0
check "the good commit is there" [ "$(git -C "$u" rev-list --count HEAD)" -eq 3 ]
[ "$rc" -eq 0 ] || cat "$tmp/out"

# 4. mcpdesc-rules-lint: a good rule set passes, a broken rule file fails with file:line:col
r=$tmp/rules
new_repo "$r"
mkdir -p "$r/policy"
cp -R examples/acme/rules "$r/policy/rules-yaml"
cp -R examples/acme/conformance "$r/policy/conformance"
git -C "$r" add policy
try "$r" mcpdesc-rules-lint -v; rc=$?
check "rules lint: a good rule set passes" status_is 0
check "rules lint: the rule set directory is linted" has '0 errors, 0 warnings in policy/rules-yaml'
[ "$rc" -eq 0 ] || cat "$tmp/out"
sed 's/^\(  *\)level: .*/\1level: loud/' examples/acme/rules/acme.yaml > "$r/policy/rules-yaml/acme.yaml"
git -C "$r" add policy
try "$r" mcpdesc-rules-lint; rc=$?
check "rules lint: a broken rule file fails" status_is 1
check "rules lint: the mistake is printed at policy/rules-yaml/acme.yaml:8:12" \
    has '^policy/rules-yaml/acme.yaml:8:12: error: level must be must'
[ "$rc" -eq 1 ] || cat "$tmp/out"

# 5. try-repo of this checkout itself, as the docs show it (pre-commit clones it; only
#    tracked files: .pre-commit-hooks.yaml must be committed or at least added)
if git -C "$top" ls-files --error-unmatch .pre-commit-hooks.yaml > /dev/null 2>&1; then
    r=$tmp/self
    new_repo "$r"
    cp examples/weather.json "$r/weather.mcp-description.json"
    git -C "$r" add weather.mcp-description.json
    (cd "$r" && pre-commit try-repo "$top" mcpdesc-validate) > "$tmp/out" 2>&1; rc=$?
    check "try-repo of this checkout: a bad description fails with its diagnostic" \
        has '^weather.mcp-description.json:43:22: error: '
    [ "$rc" -eq 1 ] || cat "$tmp/out"
else
    test_skip test-precommit "try-repo of this checkout" "not a git checkout, or .pre-commit-hooks.yaml not tracked" ||
        failed=$((failed + 1))
fi

testlib_finish
