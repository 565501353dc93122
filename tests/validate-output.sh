#!/bin/sh
# validate-output.sh BINARY - `validate -o FILE` never leaves a half-written report: the
# report goes to a temporary file beside FILE, renamed over FILE only when complete. A
# run whose write fails midway (a file size limit), or whose rename fails (FILE is a
# directory), exits 2, keeps an earlier FILE as it was and leaves no temporary file.
# A successful run writes exactly what standard output would have shown; -j changes
# nothing in it.
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup validate-output "$@"
inputs="conformance tests/cli/jobs-parallel/docs"

no_temporary() { [ -z "$(find "$tmp" -name '*.tmp.*' -print)" ]; }

# 1. a complete report, the same as on standard output, whatever -j
"$bin" validate --rules rules-yaml --format json -j 1 $inputs > "$tmp/stdout.json" 2>/dev/null
"$bin" validate --rules rules-yaml --format json -j 3 -o "$tmp/report.json" $inputs 2>/dev/null
status=$?
check "the report file is complete" cmp -s "$tmp/stdout.json" "$tmp/report.json"
check "exit status 2 (a broken input among the others)" [ "$status" -eq 2 ]
check "no temporary file after success" no_temporary

# 2. the write fails midway: an earlier report stays untouched
printf 'earlier report\n' > "$tmp/keep.json"
size=$(wc -c < "$tmp/stdout.json")
check "the report is larger than the size limit below" [ "$size" -gt 4096 ]
(
    trap '' XFSZ        # writes past the limit then fail with EFBIG instead of a signal
    ulimit -f 4         # 4 blocks: 2 KiB or 4 KiB, depending on the shell
    exec "$bin" validate --rules rules-yaml --format json -o "$tmp/keep.json" $inputs
) > /dev/null 2> "$tmp/err"
status=$?
check "a failed write exits 2" [ "$status" -eq 2 ]
check "a failed write says so" grep -q "cannot write '$tmp/keep.json'" "$tmp/err"
check "a failed write keeps the earlier report" [ "$(cat "$tmp/keep.json")" = "earlier report" ]
check "no temporary file after a failed write" no_temporary

# 3. the rename fails: FILE is a directory
mkdir "$tmp/dir"
"$bin" validate --rules rules-yaml -o "$tmp/dir" tests/cli/jobs-parallel/docs/a-valid.json \
    > /dev/null 2> "$tmp/err"
status=$?
check "a failed rename exits 2" [ "$status" -eq 2 ]
check "the directory is still a directory" [ -d "$tmp/dir" ]
check "no temporary file after a failed rename" no_temporary

# 4. FILE's directory does not exist: nothing is created
"$bin" validate --rules rules-yaml -o "$tmp/none/report.txt" \
    tests/cli/jobs-parallel/docs/a-valid.json > /dev/null 2>&1
status=$?
check "a missing directory exits 2" [ "$status" -eq 2 ]
check "nothing is created" [ ! -e "$tmp/none" ]

testlib_finish
