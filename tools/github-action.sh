#!/bin/sh
# github-action.sh - the steps of action.yml (the mcpdesc GitHub Action), kept here so
# that tests/github-action.sh can run them under a simulated GitHub environment.
#
#   sh tools/github-action.sh deps    apt-get install the packages that building needs
#                                     (not the test toolchain of tools/install-deps.sh),
#                                     then mark them installed for the Makefile
#   sh tools/github-action.sh run     validate, annotate, SARIF, step summary, outputs
#
# The inputs come as environment variables, set by action.yml's `env:` (a composite
# action passes its inputs to a step only that way):
#   INPUT_PATHS       files or directories to validate, one per line (unset: .; empty:
#                     none, so that validate takes the config's `paths:`)
#   INPUT_RULES_TAG   --rules-tag TAG: judge by that released rule set (NAME@TAG@sha256:HEX
#                     pins its digest)
#   INPUT_CONFIG      --config FILE (default: .mcpdesc.yaml found from the workspace up)
#   INPUT_BASELINE    --baseline FILE (default: the config's `baseline:`, else none)
#   INPUT_FAIL_ON     --fail-on error|warning|info|never (default: the config's, else error)
#   INPUT_PRESET      --preset recommended|strict|all
#   INPUT_SARIF       where to write the SARIF report (relative to the workspace; empty:
#                     none)
#   INPUT_DIFF_BASE   a base description (file or directory, relative to the workspace)
#                     captured earlier in the workflow: after validate, `mcpdesc diff
#                     DIFF_BASE PATH` (PATH: the one path of INPUT_PATHS) reports what
#                     changed, with the same fail-on, config and preset (empty: no diff)
#   INPUT_INSTALL_DEPS  for `deps`: false skips apt-get (the packages are there already)
# and GitHub's: GITHUB_WORKSPACE (the run starts there, so reports name files relative
# to the repository), GITHUB_ACTION_PATH (the action's checkout, where make built
# build/mcpdesc; MCPDESC names another binary), GITHUB_STEP_SUMMARY, GITHUB_OUTPUT,
# RUNNER_TEMP.
#
# `run` writes: the GitHub annotations (--format github) on standard output; the SARIF
# file (always complete, whatever fail-on says, so that an upload step can follow); a
# Markdown summary appended to $GITHUB_STEP_SUMMARY; `exit-code` (0, 1 findings at or
# above fail-on, 2 input or usage error) and `sarif` (the path written) to $GITHUB_OUTPUT.
# With INPUT_DIFF_BASE, the diff's annotations follow validate's on standard output, its
# Markdown report is appended to the summary, its SARIF goes beside validate's (SARIF
# mcpdesc.sarif: mcpdesc-diff.sarif), and the outputs add `diff-exit-code` and
# `diff-sarif`; exit-code is then the worse of the two (2 over 1 over 0).
# It exits with exit-code, so the step fails as fail-on says.
set -eu

# The Debian/Ubuntu packages `make` needs to build mcpdesc: compiler and make are on
# every runner; tools/install-deps.sh installs these and the test toolchain besides
# (tests/github-action.sh checks that this list stays a part of that one).
BUILD_PKGS="pkg-config nettle-dev libcurl4-openssl-dev libjansson-dev libyaml-dev libpcre2-dev liburiparser-dev python3-jsonschema"

die() {
    echo "::error title=mcpdesc action::$*"
    exit 2
}

cmd_deps() {
    top=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}
    if [ "${INPUT_INSTALL_DEPS:-true}" != false ]; then
        if [ "$(id -u)" = 0 ]; then sudo=""; else sudo=sudo; fi
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086
        $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends $BUILD_PKGS
    else
        echo "mcpdesc action: install-deps is false: not installing $BUILD_PKGS"
    fi
    # the Makefile would otherwise run tools/install-deps.sh (the whole test toolchain)
    mkdir -p "$top/build" && touch "$top/build/.deps-ok"
}

cmd_run() {
    : "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE is not set}"
    mcpdesc=${MCPDESC:-${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}/build/mcpdesc}
    case $mcpdesc in /*) ;; *) mcpdesc="$(pwd)/$mcpdesc" ;; esac
    [ -x "$mcpdesc" ] || die "no mcpdesc at $mcpdesc (did the build step run?)"
    work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcpdesc-action.XXXXXX")
    cd "$GITHUB_WORKSPACE" || die "cannot enter GITHUB_WORKSPACE $GITHUB_WORKSPACE"

    # the options, then the paths: one per line, blank lines and surrounding blanks dropped
    set --
    [ -n "${INPUT_RULES_TAG:-}" ] && set -- "$@" --rules-tag "$INPUT_RULES_TAG"
    [ -n "${INPUT_CONFIG:-}" ] && set -- "$@" --config "$INPUT_CONFIG"
    [ -n "${INPUT_PRESET:-}" ] && set -- "$@" --preset "$INPUT_PRESET"
    [ -n "${INPUT_BASELINE:-}" ] && set -- "$@" --baseline "$INPUT_BASELINE"
    # an empty paths input (only blanks) names no input: validate takes the config's
    # `paths:` (an error without them); unset (not run by action.yml) is the default, .
    paths=$(printf '%s\n' "${INPUT_PATHS-.}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d')
    old_ifs=$IFS
    IFS='
'
    set -f
    # shellcheck disable=SC2086
    set -- "$@" -- $paths
    set +f
    IFS=$old_ifs
    fail_on=""
    [ -n "${INPUT_FAIL_ON:-}" ] && fail_on="--fail-on=$INPUT_FAIL_ON"

    # One run, three reports: the annotations (and the verdict), SARIF and the Markdown
    # step summary (a report's content does not depend on fail-on, only the exit status).
    # The markdown file is copied into the summary and removed: the github format's
    # notice of the annotations GitHub will not show names what stays after the step
    # (--full-report), the job summary and the SARIF file.
    sarif="" full=""
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        set -- --format "markdown:$work/summary.md" "$@"
        full="the job summary"
    fi
    if [ -n "${INPUT_SARIF:-}" ]; then
        sarif=$INPUT_SARIF
        mkdir -p "$(dirname "$sarif")"
        set -- --format "sarif:$sarif" "$@"
        full="${full:+$full and }the SARIF file $sarif"
    fi
    [ -n "$full" ] || full="this step's log (the action's sarif input adds a SARIF file)"
    set -- --full-report "$full" "$@"
    status=0
    # shellcheck disable=SC2086
    "$mcpdesc" validate --format github $fail_on "$@" || status=$?
    if [ -n "$sarif" ] && [ ! -s "$sarif" ]; then
        echo "::warning title=mcpdesc action::no SARIF written to $sarif"
        sarif=""
    fi
    # a step's summary file may already hold something: append
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$work/summary.md" ]; then
        cat "$work/summary.md" >> "$GITHUB_STEP_SUMMARY"
    fi

    # what changed since the base (diff-base): one diff of the base and the one path
    diff_status="" diff_sarif=""
    if [ -n "${INPUT_DIFF_BASE:-}" ]; then
        if [ "$(printf '%s\n' "$paths" | grep -c .)" -ne 1 ]; then
            echo "::error title=mcpdesc action::diff-base needs exactly one path in paths (the description, or the directory of descriptions, to compare with the base), not: $(printf '%s' "$paths" | tr '\n' ' ')"
            diff_status=2
        else
            set --
            [ -n "${INPUT_CONFIG:-}" ] && set -- "$@" --config "$INPUT_CONFIG"
            [ -n "${INPUT_PRESET:-}" ] && set -- "$@" --preset "$INPUT_PRESET"
            full=""
            if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
                set -- "$@" --format "markdown:$work/diff.md"
                full="the job summary"
            fi
            if [ -n "${INPUT_SARIF:-}" ]; then
                diff_sarif=${INPUT_SARIF%.sarif}-diff.sarif
                set -- "$@" --format "sarif:$diff_sarif"
                full="${full:+$full and }the SARIF file $diff_sarif"
            fi
            [ -n "$full" ] || full="this step's log"
            diff_status=0
            # shellcheck disable=SC2086
            "$mcpdesc" diff --format github $fail_on --full-report "$full" "$@" \
                -- "$INPUT_DIFF_BASE" "$paths" || diff_status=$?
            if [ -n "$diff_sarif" ] && [ ! -s "$diff_sarif" ]; then
                echo "::warning title=mcpdesc action::no SARIF written to $diff_sarif"
                diff_sarif=""
            fi
            if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$work/diff.md" ]; then
                cat "$work/diff.md" >> "$GITHUB_STEP_SUMMARY"
            fi
        fi
        # the step's status: the worse of validate's and diff's (2 over 1 over 0)
        [ "$diff_status" -gt "$status" ] && status=$diff_status
    fi

    # 4. the outputs
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
        {
            echo "exit-code=$status"
            echo "sarif=$sarif"
            if [ -n "$diff_status" ]; then
                echo "diff-exit-code=$diff_status"
                echo "diff-sarif=$diff_sarif"
            fi
        } >> "$GITHUB_OUTPUT"
    fi
    rm -rf "$work"
    exit "$status"
}

case ${1:-} in
deps) cmd_deps ;;
run) cmd_run ;;
*)
    echo "usage: sh tools/github-action.sh deps|run   (the steps of action.yml)" >&2
    exit 2
    ;;
esac
