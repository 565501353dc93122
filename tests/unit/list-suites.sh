#!/bin/sh
# list-suites.sh CHECK_FILE... - writes unit_suites.h to standard output: SUITE(<m>_suite)
# for each tests/unit/check_<m>.c, from the file names. A file that defines any other
# top-level Suite function is an error: the harness would never run it (three suites
# of check_eval.c once stopped running that way, silently).
set -eu
bad=0
for f in "$@"; do
    m=$(basename "$f" .c)
    m=${m#check_}
    others=$(grep -n '^Suite \*[A-Za-z_0-9]* *(' "$f" | grep -v "^[0-9]*:Suite \*${m}_suite(void)\$" || true)
    if [ -n "$others" ]; then
        echo "$f: one suite per file, named ${m}_suite; the harness never runs:" >&2
        echo "$others" | sed 's/^/    /' >&2
        bad=1
    fi
    if ! grep -q "^Suite \*${m}_suite(void)\$" "$f"; then
        echo "$f: no 'Suite *${m}_suite(void)' (the harness runs exactly that)" >&2
        bad=1
    fi
    echo "SUITE(${m}_suite)"
done
exit $bad
