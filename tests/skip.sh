# skip.sh - the one way a test script says that it skipped something (sourced).
#   test_skip TARGET WHAT WHY
# prints "SKIP TARGET: WHAT (WHY)" and appends that line to $MCPDESC_SKIP_LOG when it is
# set (`make check` sets it and lists every skip at its end). Under MCPDESC_REQUIRE=all
# (set by .ci/run) a skip is a failure: the line says FAIL and test_skip returns 1, so
# callers write `test_skip ... || exit 1` (or count a failure) and otherwise go on as
# skipped. A skip is never counted as a pass.
test_skip() {
    test_skip_line="$1: $2 ($3)"
    if [ "${MCPDESC_REQUIRE:-}" = all ]; then
        echo "FAIL (MCPDESC_REQUIRE=all forbids skips) $test_skip_line"
        [ -n "${MCPDESC_SKIP_LOG:-}" ] && echo "REQUIRED BUT SKIPPED $test_skip_line" >> "$MCPDESC_SKIP_LOG"
        return 1
    fi
    echo "SKIP $test_skip_line"
    [ -n "${MCPDESC_SKIP_LOG:-}" ] && echo "$test_skip_line" >> "$MCPDESC_SKIP_LOG"
    return 0
}
