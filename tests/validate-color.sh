#!/bin/sh
# validate-color.sh BINARY - the text format on a terminal: colour by level, the source
# line with a caret and the hint; NO_COLOR or --color never drop the colour but keep the
# excerpt; --color always colours even into a pipe (without excerpts). The terminal is a
# pseudo-terminal from util-linux script(1); skipped with a message when it is missing.
# (Pipes without a terminal are covered by the golden cases in tests/cli/.)
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup validate-color "$@"
fixture=tests/embed/fixture.json
esc=$(printf '\033')

# expect NAME FILE WANT-COLOR WANT-EXCERPT
expect() {
    n=$((n + 1))
    problems=""
    if grep -q "$esc\[" "$2"; then has_color=1; else has_color=0; fi
    if grep -q '^    15 |       "inputSchema": {"type": "string"}$' "$2" &&
       grep -q '^       |                      .*\^' "$2" &&
       grep -q '^       = hint: ' "$2"; then has_excerpt=1; else has_excerpt=0; fi
    [ "$has_color" = "$3" ] || problems="$problems colour=$has_color"
    [ "$has_excerpt" = "$4" ] || problems="$problems excerpt=$has_excerpt"
    grep -q '1 error, 0 warnings, 0 infos in 1 file' "$2" || problems="$problems no-summary"
    if [ -z "$problems" ]; then
        echo "ok validate-color $1"
    else
        echo "FAIL validate-color $1:$problems (expected colour=$3 excerpt=$4)"
        sed 's/^/      | /' "$2" | cat -v | head -n 12
        failed=$((failed + 1))
    fi
}

# Pipes first: these need no terminal.
"$bin" validate --rules rules-yaml --color always "$fixture" > "$tmp/always-pipe" 2>&1
expect "--color always into a pipe" "$tmp/always-pipe" 1 0
NO_COLOR=1 "$bin" validate --rules rules-yaml --color always "$fixture" > "$tmp/always-nocolor" 2>&1
expect "--color always beats NO_COLOR" "$tmp/always-nocolor" 1 0
"$bin" validate --rules rules-yaml "$fixture" > "$tmp/pipe" 2>&1
expect "auto into a pipe" "$tmp/pipe" 0 0

if ! command -v script > /dev/null 2>&1 || ! script -qec true /dev/null > /dev/null 2>&1; then
    . tests/skip.sh
    test_skip validate-color "the terminal cases" "no script(1) to provide a terminal" || failed=$((failed + 1))
    echo "$((n - failed)) passed, $failed failed, 1 skipped"
    [ "$failed" -eq 0 ]
    exit
fi
# on_tty OUT ENV... -- ARGS...: run the binary with stdout on a pseudo-terminal
on_tty() {
    out=$1
    shift
    cmd="env -u NO_COLOR"
    while [ "$1" != "--" ]; do cmd="$cmd '$1'"; shift; done
    shift
    cmd="$cmd '$bin' validate --rules rules-yaml"
    for a in "$@"; do cmd="$cmd '$a'"; done
    script -qec "$cmd" /dev/null < /dev/null | tr -d '\r' > "$out"
}
on_tty "$tmp/tty" -- "$fixture"
expect "auto on a terminal" "$tmp/tty" 1 1
on_tty "$tmp/tty-nocolor" NO_COLOR=1 -- "$fixture"
expect "NO_COLOR on a terminal" "$tmp/tty-nocolor" 0 1
on_tty "$tmp/tty-empty" NO_COLOR= -- "$fixture"
expect "empty NO_COLOR on a terminal" "$tmp/tty-empty" 1 1
on_tty "$tmp/tty-never" -- --color never "$fixture"
expect "--color never on a terminal" "$tmp/tty-never" 0 1
on_tty "$tmp/tty-file" -- -o "$tmp/report.txt" "$fixture"
expect "-o FILE from a terminal" "$tmp/report.txt" 0 0
n=$((n + 1))
if [ -s "$tmp/tty-file" ]; then
    echo "FAIL validate-color -o FILE: the terminal got output"
    failed=$((failed + 1))
else
    echo "ok validate-color -o FILE leaves the terminal empty"
fi
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
