#!/bin/sh
# rules-init.sh BINARY - `mcpdesc rules init` writes an organisation rule set that works
# as it is (rules-yaml/README.md, "Organisation rule sets"), in a scratch directory:
#   - with the default base (the newest shipped mcpdesc-mcp release) and with every
#     release of mcpdesc-mcp in rules-yaml/releases as --extends: `rules lint DIR` says
#     "0 errors, 0 warnings", `rules test DIR` "3 passed, 0 failed" (a valid, a warning
#     and a fix example), and the fixtures' x-expect hold under the whole set (`rules
#     test --expect-only DIR`, the conformance runner);
#   - its manifest and rule file are valid against schema/manifest.schema.json and
#     schema/rule-file.schema.json;
#   - the three commands it prints after "next:" run as printed (mcpdesc on PATH) and
#     exit 0, the validate one reporting the rule's warning with the tool's name;
#   - a DIR with spaces is quoted in those commands, and they still run.
# The refusals (a DIR that is not empty, a bad NAME@TAG, a release not found, a bad name)
# are CLI goldens (tests/cli/rules-init-*). Prints ok/FAIL per check, then
# "N passed, N failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup rules-init "$@"
unset MCPDESC_RULES MCPDESC_RULES_PATH

lint_clean() { "$bin" rules lint "$1" 2> /dev/null | grep -qx "0 errors, 0 warnings in $1"; }
test_clean() { "$bin" rules test "$1" 2> /dev/null | grep -qx "3 passed, 0 failed"; }
expect_holds() { "$bin" rules test --expect-only "$1" > "$tmp/conf.out" 2>&1; }

# the default base
dir=$tmp/globex-policy
check "init with the default base" sh -c '"$1" rules init "$2" > "$3/init.out"' - "$bin" "$dir" "$tmp"
check "the default base is the newest shipped mcpdesc-mcp release" \
    grep -q "extending mcpdesc-mcp@$(cd rules-yaml/tags && ls v*.lock | sed 's/\.lock$//' |
        sort -V | tail -n 1):" "$tmp/init.out"
check "rules lint is clean" lint_clean "$dir"
check "rules test: 3 passed" test_clean "$dir"
check "the fixtures' x-expect hold" expect_holds "$dir"
fits() { "$bin" schema validate --schema "schema/$1" "$2" > /dev/null; }
check "manifest.yaml fits its schema" fits manifest.schema.json "$dir/manifest.yaml"
check "tool.yaml fits its schema" fits rule-file.schema.json "$dir/tool.yaml"
# the three commands it prints, run as printed
sed -n '/^[a-z].*next:$/,$p' "$tmp/init.out" | sed -n 's/^  mcpdesc /mcpdesc /p' > "$tmp/next.sh"
check "three commands follow next:" test "$(wc -l < "$tmp/next.sh")" -eq 3
mkdir "$tmp/bin" && ln -s "$bin" "$tmp/bin/mcpdesc"
check "the printed commands run" sh -c 'PATH="$1:$PATH" sh -e "$2" > "$3/next.out" 2>&1' - \
    "$tmp/bin" "$tmp/next.sh" "$tmp"
check "validate names the tool" grep -q 'warning: tool "get_user" accepts arguments' "$tmp/next.out"

# a directory with a space: quoted in the printed commands
spaced="$tmp/with space/acme"
"$bin" rules init "$spaced" > "$tmp/init2.out" 2>&1
sed -n 's/^  mcpdesc /mcpdesc /p' "$tmp/init2.out" > "$tmp/next2.sh"
check "a DIR with a space is quoted" grep -qF "rules lint '$spaced'" "$tmp/next2.sh"
check "and its commands run" sh -c 'PATH="$1:$PATH" sh -e "$2" > /dev/null 2>&1' - "$tmp/bin" \
    "$tmp/next2.sh"

# every release of the shipped set as the base
for rel in rules-yaml/releases/mcpdesc-mcp@*; do
    [ -d "$rel" ] || continue
    spec=${rel##*/}
    d=$tmp/over/${spec#*@}
    "$bin" rules init "$d" --name "acme" --extends "$spec" > /dev/null 2>&1
    check "$spec: lint clean" lint_clean "$d"
    check "$spec: test clean" test_clean "$d"
    check "$spec: x-expect hold" expect_holds "$d"
done
testlib_finish
