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
#   INPUT_PATHS       files or directories to validate, one per line (default: .)
#   INPUT_RULES_TAG   --rules-tag TAG: judge by that released rule set
#   INPUT_CONFIG      --config FILE (default: .mcpdesc.yaml found from the workspace up)
#   INPUT_FAIL_ON     --fail-on error|warning|info|never (default: the config's, else error)
#   INPUT_PRESET      --preset recommended|strict|all
#   INPUT_SARIF       where to write the SARIF report (relative to the workspace; empty:
#                     none)
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

summary_fallback() { # JSON-REPORT MARKDOWN-FILE STATUS
    python3 - "$@" <<'PY'
import json, sys
report, out, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
def esc(s):
    return str(s).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace("\n", " ")
try:
    with open(report) as f:
        r = json.load(f)
except (OSError, ValueError) as e:
    with open(out, "w") as f:
        f.write("## mcpdesc\n\nNo report: %s (exit status %d)\n" % (esc(e), status))
    sys.exit(0)
s = r.get("summary", {})
files = r.get("files", [])
inerr = [x for x in files if x.get("error")]
L = ["## mcpdesc", ""]
verdict = {0: "passed", 1: "failed: findings at or above fail-on", 2: "failed: input or usage error"}
L.append("**%s** (exit status %d): %d errors, %d warnings, %d infos in %d files" % (
    verdict.get(status, "failed"), status, s.get("errors", 0), s.get("warnings", 0),
    s.get("infos", 0), s.get("files", 0)))
extra = []
for key, what in (("skipped", "skipped (no mcpDescription member)"), ("suppressed", "suppressed"),
                  ("baselined", "in the baseline")):
    if s.get(key):
        extra.append("%d %s" % (s[key], what))
if extra:
    L[-1] += "; " + ", ".join(extra)
rs = r.get("rules", {})
L += ["", "Rules: %s %s, preset %s" % (esc(rs.get("name", "?")), esc(rs.get("tag", "?")), esc(r.get("preset", "?")))]
if inerr:
    L += ["", "### Input errors", "", "| file | error |", "|---|---|"]
    for x in inerr:
        e = x["error"]
        L.append("| `%s` | %s |" % (esc(x["file"]), esc(e.get("message", e) if isinstance(e, dict) else e)))
diags = [(x["file"], d) for x in files for d in (x.get("diagnostics") or [])
         if d.get("baselineState") != "unchanged" and not d.get("suppressed")]
if diags:
    order = {"error": 0, "warning": 1, "info": 2}
    per_rule = {}
    for _, d in diags:
        k = (d.get("rule") or "parse", d.get("level", "?"))
        per_rule[k] = per_rule.get(k, 0) + 1
    L += ["", "### Per rule", "", "| rule | level | findings |", "|---|---|---:|"]
    for (rule, lev), n in sorted(per_rule.items(), key=lambda kv: (order.get(kv[0][1], 3), -kv[1], kv[0][0])):
        L.append("| `%s` | %s | %d |" % (esc(rule), lev, n))
    per_file = {}
    for f, d in diags:
        c = per_file.setdefault(f, [0, 0, 0])
        c[order.get(d.get("level"), 2)] += 1
    L += ["", "### Per file", "", "| file | errors | warnings | infos |", "|---|---:|---:|---:|"]
    for f, c in per_file.items():
        L.append("| `%s` | %d | %d | %d |" % (esc(f), c[0], c[1], c[2]))
    first = sorted(diags, key=lambda fd: order.get(fd[1].get("level"), 3))[:20]
    L += ["", "### First findings", ""]
    for f, d in first:
        L.append("- `%s:%s:%s` %s: %s `[%s]`" % (esc(f), d.get("line", 0), d.get("column", 0),
                 d.get("level", "?"), esc(d.get("message", "")), esc(d.get("rule") or "parse")))
    if len(diags) > len(first):
        L.append("- ... and %d more (the SARIF report and the job log have them all)" % (len(diags) - len(first)))
L.append("")
with open(out, "w") as f:
    f.write("\n".join(L) + "\n")
PY
}

# write_summary MARKDOWN-FILE STATUS [VALIDATE ARGS...]: the Markdown summary of a run.
# With `--format markdown:FILE` (issue 18 item 4) mcpdesc writes it itself; until that
# format is there, the same run in JSON is turned into a small summary by python3.
# (The merge with the formats work removes the fallback.)
write_summary() {
    ws_out=$1 ws_status=$2
    shift 2
    ws_err="$work/markdown.err"
    if "$mcpdesc" validate --fail-on never --format "markdown:$ws_out" "$@" > /dev/null 2> "$ws_err"; then
        return 0
    fi
    if [ -s "$ws_out" ] && ! grep -q "unknown format 'markdown" "$ws_err"; then
        return 0 # written (an input error makes the run exit 2, the report is still there)
    fi
    "$mcpdesc" validate --fail-on never --format json -o "$work/report.json" "$@" > /dev/null 2>&1 || :
    summary_fallback "$work/report.json" "$ws_out" "$ws_status"
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
    paths=$(printf '%s\n' "${INPUT_PATHS:-.}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d')
    [ -n "$paths" ] || paths=.
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

    # 1. the verdict and the annotations
    status=0
    # shellcheck disable=SC2086
    "$mcpdesc" validate --format github $fail_on "$@" || status=$?

    # 2. SARIF, complete whatever fail-on says
    sarif=""
    if [ -n "${INPUT_SARIF:-}" ]; then
        sarif=$INPUT_SARIF
        mkdir -p "$(dirname "$sarif")"
        "$mcpdesc" validate --format sarif -o "$sarif" --fail-on never "$@" > /dev/null 2> "$work/sarif.err" || :
        if [ ! -s "$sarif" ]; then
            cat "$work/sarif.err" >&2
            echo "::warning title=mcpdesc action::no SARIF written to $sarif"
            sarif=""
        fi
    fi

    # 3. the step summary (a step's summary file may already hold something: append)
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        write_summary "$work/summary.md" "$status" "$@"
        cat "$work/summary.md" >> "$GITHUB_STEP_SUMMARY"
    fi

    # 4. the outputs
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
        {
            echo "exit-code=$status"
            echo "sarif=$sarif"
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
