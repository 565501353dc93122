#!/bin/sh
# check-format.sh - every file of src/ is laid out as .clang-format says (whitespace
# only; `clang-format -i FILE` fixes one). Without clang-format: a counted skip
# (tests/skip.sh), a failure under MCPDESC_REQUIRE=all; make deps installs it.
set -u
cd "$(dirname "$0")/.." || exit 2
if ! command -v clang-format > /dev/null 2>&1; then
    . tests/skip.sh
    test_skip check-format "the layout of src/" "clang-format not found; make deps installs it" || exit 1
    exit 0
fi
if out=$(clang-format --style=file --dry-run --Werror src/*/*.c src/*/*.h 2>&1); then
    echo "check-format: ok ($(ls src/*/*.c src/*/*.h | wc -l) files as .clang-format says)"
    exit 0
fi
echo "check-format: FAIL: these places are not laid out as .clang-format says (clang-format -i FILE):"
echo "$out" | grep 'error:' | head -n 20
exit 1
