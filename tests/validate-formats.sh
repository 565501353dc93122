#!/bin/sh
# validate-formats.sh BINARY - several reports in one run (--format FORMAT:FILE,
# repeatable; the config's format as a list), and the junit and gitlab formats checked
# against what their readers take (python3, no schema of our own):
#   GitLab Code Quality  the members GitLab documents: an array of objects with
#       description (string), check_name (string), fingerprint (string, unique in the
#       report), severity (info, minor, major, critical or blocker), location.path (a
#       relative path) and location.lines.begin (an integer >= 1); one issue per finding
#       shown by the JSON report plus one per input error; suppressed and baselined left out
#   JUnit XML  what Jenkins' junit step and GitLab's junit report read (xml.etree):
#       testsuites > testsuite > testcase > failure | skipped; the tests, failures and
#       skipped counts of each suite and of the root agree with the elements; every
#       testcase has a classname and a name; failures are the findings at or above
#       --fail-on and the input errors, skipped the suppressed and baselined findings
#   each report written to its file is byte for byte the report of a run of that format
#   alone, the exit status is the same, no temporary file is left, a report that cannot
#   be written fails the run (2) and the others are still written; the github format's
#   closing notice names the other reports' files; the markdown summary of a large run
#   stays small; the html page holds every finding of the JSON report, escapes the
#   inputs' text and loads nothing from the network (tests/browser.sh opens it in
#   Chromium).
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup validate-formats "$@"
if ! command -v python3 > /dev/null 2>&1; then
    . tests/skip.sh
    test_skip validate-formats "the format checks" "python3 not found" || exit 1
    exit 0
fi

INV=conformance/expected-invalid/non-object-input-schema.json
WARN=conformance/expected-warning/tool-schema-mcp-type-mismatch.json
VALID=conformance/expected-valid/tool-schema-mcp-type-shapes.json
BROKEN=tests/cli/validate-parse-error-among-others/broken.json # inside the checkout: a relative path
SOURCE_DATE_EPOCH=1767225600 # the suppressions' until dates
export SOURCE_DATE_EPOCH
SUP="--config tests/data/suppress/all.yaml tests/data/suppress/server.json tests/data/suppress/inline.json"

# gitlab_ok GITLAB JSON SARIF: the Code Quality report against the JSON and SARIF reports
# of the same run
gitlab_ok() {
    python3 - "$1" "$2" "$3" << 'PY'
import json, sys
issues = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
sarif = json.load(open(sys.argv[3]))
assert isinstance(issues, list), "an array"
fps = set()
for i in issues:
    assert isinstance(i, dict), i
    for k in ("description", "check_name", "fingerprint", "severity"):
        assert isinstance(i.get(k), str) and i[k], (k, i)
    assert i["severity"] in ("info", "minor", "major", "critical", "blocker"), i["severity"]
    loc = i["location"]
    assert isinstance(loc["path"], str) and loc["path"] and not loc["path"].startswith("/"), loc
    b = loc["lines"]["begin"]
    assert isinstance(b, int) and not isinstance(b, bool) and b >= 1, loc
    assert i["fingerprint"] not in fps, "fingerprint twice: " + i["fingerprint"]
    fps.add(i["fingerprint"])
shown = [d for f in report["files"] for d in f.get("diagnostics", [])
         if not d.get("suppressed") and d.get("baselineState") != "unchanged"]
errors = [f for f in report["files"] if "error" in f]
assert len(issues) == len(shown) + len(errors), "%d issues, %d findings shown, %d input errors" % (
    len(issues), len(shown), len(errors))
sev = {"error": "major", "warning": "minor", "info": "info"}
for d, i in zip([d for d in shown], [i for i in issues if i["severity"] != "blocker"]):
    assert i["check_name"] == d["rule"] and i["severity"] == sev[d["level"]], (d, i)
    assert i["location"]["lines"]["begin"] == d["line"], (d, i)
# the fingerprints are the findings' own (SARIF partialFingerprints), in the same order
want = [r["partialFingerprints"]["mcpdesc/v1"] for r in sarif["runs"][0]["results"]
        if not r.get("suppressions") and r.get("baselineState") not in ("unchanged", "absent")]
assert [i["fingerprint"] for i in issues] == want, "fingerprints differ from SARIF's"
assert sum(i["severity"] == "blocker" for i in issues) == len(errors), "an input error is a blocker"
PY
}

# junit_ok XML JSON FAIL_ON: the JUnit report against the JSON report of the same run
junit_ok() {
    python3 - "$1" "$2" "$3" << 'PY'
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
report = json.load(open(sys.argv[2]))
rank = {"info": 0, "warning": 1, "error": 2}
fail_on = sys.argv[3]
assert root.tag == "testsuites", root.tag
total = {"tests": 0, "failures": 0, "skipped": 0}
for s in root:
    assert s.tag == "testsuite", s.tag
    assert s.get("name"), "a suite has a name"
    cases = s.findall("testcase")
    assert cases and len(cases) == len(list(s)), "a suite holds test cases only"
    got = {"tests": len(cases), "failures": 0, "skipped": 0}
    for c in cases:
        assert c.get("classname") and c.get("name"), c.attrib
        kids = [k.tag for k in c if k.tag != "system-out"]
        assert len(kids) <= 1 and set(kids) <= {"failure", "skipped"}, kids
        got["failures"] += kids == ["failure"]
        got["skipped"] += kids == ["skipped"]
        for f in c.findall("failure"):
            assert f.get("message") and f.get("type"), f.attrib
        for k in c.findall("skipped"):
            assert k.get("message"), "a skipped finding says why"
    for k in got:
        assert int(s.get(k)) == got[k], (s.get("name"), k, s.get(k), got[k])
        total[k] += got[k]
    assert s.get("errors") == "0"
for k in total:
    assert int(root.get(k)) == total[k], (k, root.get(k), total[k])
# one test case per (file, rule judged): a failure when a finding of the rule in the file
# is at or above --fail-on (not suppressed or baselined), every finding in its case
errors = [f for f in report["files"] if "error" in f]
failing = set()
suites = {s.get("name"): s for s in root}
for f in report["files"]:
    if "error" in f:
        continue
    s = suites[f["file"]]
    cases = {c.get("classname"): c for c in s.findall("testcase")}
    assert len(cases) == len(s.findall("testcase")), "one test case per rule"
    for d in f.get("diagnostics", []):
        hidden = d.get("suppressed") or d.get("baselineState") == "unchanged"
        c = cases.get(d["rule"])
        assert c is not None, "no test case of %s in %s" % (d["rule"], f["file"])
        assert d["message"] in "".join(c.itertext()), ("not in its case", d["message"])
        if not hidden and fail_on != "never" and rank[d["level"]] >= rank[fail_on]:
            failing.add((f["file"], d["rule"]))
            assert c.find("failure") is not None, ("should fail", f["file"], d["rule"])
assert total["failures"] == len(failing) + len(errors), (total, len(failing), len(errors))
assert total["skipped"] == 0, total
judged = [f for f in report["files"] if not f.get("skipped")]
assert len(root) == len(judged), "one suite per file: %d, %d" % (len(root), len(judged))
PY
}

# formats_ok NAME FAIL_ON ARGS...: validate ARGS (standard input: $input, else none) in
# json, sarif, gitlab and junit in one run, then check gitlab and junit
formats_ok() {
    name=$1
    fail_on=$2
    shift 2
    "$bin" validate --format json:"$tmp/$name.json" --format sarif:"$tmp/$name.sarif" \
        --format gitlab:"$tmp/$name.gitlab" --format junit:"$tmp/$name.xml" --fail-on "$fail_on" \
        "$@" < "${input:-/dev/null}" 2> /dev/null
    gitlab_ok "$tmp/$name.gitlab" "$tmp/$name.json" "$tmp/$name.sarif" &&
        junit_ok "$tmp/$name.xml" "$tmp/$name.json" "$fail_on"
}
check "gitlab and junit: findings and a parse error" formats_ok mixed error $INV $WARN $BROKEN $VALID
check "gitlab and junit: --fail-on warning" formats_ok warn warning $INV $WARN $VALID
check "gitlab and junit: --fail-on never" formats_ok never never $INV $WARN
check "gitlab and junit: suppressed" formats_ok sup error $SUP
input=tests/data/baseline/changed.json check "gitlab and junit: baselined" formats_ok base error \
    --baseline tests/data/baseline/baseline.json --stdin-filepath tests/data/baseline/server.json -
check "gitlab and junit: the conformance suite" formats_ok conf error conformance
check "gitlab and junit: a directory without a description" formats_ok empty error tests/data/cli-dirs
# junit: fixing a finding leaves the test count as it was (a test case per finding made
# it drop: issue 26); tests/cli/validate-junit-stable-count-{before,after} show both
junit_tests() {
    "$bin" validate --format junit --stdin-filepath tools.json - < "$1" |
        sed -n 's/^<testsuites name="mcpdesc" tests="\([0-9]*\)".*/\1/p'
}
stable_count() {
    before=$(junit_tests tests/cli/validate-junit-stable-count-before/stdin)
    after=$(junit_tests tests/cli/validate-junit-stable-count-after/stdin)
    [ -n "$before" ] && [ "$before" -gt 1 ] && [ "$before" = "$after" ] ||
        { echo "    tests=$before before the fix, tests=$after after"; return 1; }
}
check "junit: fixing a finding keeps the test count" stable_count

# several reports in one run: each file is the report of its format alone
all_in_one() {
    rm -rf "$tmp/one" && mkdir "$tmp/one"
    "$bin" validate --format text --format json:"$tmp/one/r.json" --format sarif:"$tmp/one/r.sarif" \
        --format junit:"$tmp/one/r.xml" --format gitlab:"$tmp/one/r.gitlab" \
        --format markdown:"$tmp/one/r.md" --format github:"$tmp/one/r.github" \
        --format html:"$tmp/one/r.html" $INV $WARN $BROKEN > "$tmp/one/stdout" 2> /dev/null
    echo $? > "$tmp/one/status"
    for f in text json sarif junit gitlab markdown html; do
        "$bin" validate --format $f $INV $WARN $BROKEN > "$tmp/one/alone.$f" 2> /dev/null
        echo $? > "$tmp/one/status.$f"
        cmp -s "$tmp/one/status" "$tmp/one/status.$f" || return 1
    done
    cmp -s "$tmp/one/stdout" "$tmp/one/alone.text" && cmp -s "$tmp/one/r.json" "$tmp/one/alone.json" &&
        cmp -s "$tmp/one/r.sarif" "$tmp/one/alone.sarif" && cmp -s "$tmp/one/r.xml" "$tmp/one/alone.junit" &&
        cmp -s "$tmp/one/r.gitlab" "$tmp/one/alone.gitlab" && cmp -s "$tmp/one/r.md" "$tmp/one/alone.markdown" &&
        cmp -s "$tmp/one/r.html" "$tmp/one/alone.html" &&
        [ "$(cat "$tmp/one/status")" = 2 ]
}
check "eight reports in one run: each the report of its format alone, the same status" all_in_one
check "no temporary file left" sh -c '[ -z "$(ls "$1" | grep "\.tmp\.")" ]' - "$tmp/one"
github_names_files() {
    grep -q "^::notice title=mcpdesc::.*the full report: json:$tmp/one/r.json, sarif:$tmp/one/r.sarif" "$tmp/one/r.github"
}
# too few annotations to overflow: one run with many
"$bin" validate --format github --format sarif:"$tmp/one/c.sarif" --format markdown:"$tmp/one/c.md" \
    conformance/expected-warning > "$tmp/one/c.github" 2> /dev/null
check "github: errors first, then warnings, then notices" sh -c \
    'grep "^::" "$1" | cut -d" " -f1 | cut -d: -f3 | uniq | tr "\n" " " | grep -qx "error warning notice "' - "$tmp/one/c.github"
check "github: the closing notice names the other reports' files" \
    grep -q "^::notice title=mcpdesc::GitHub shows 10 annotations.* [0-9][0-9]* warnings .*the full report: sarif:$tmp/one/c.sarif, markdown:$tmp/one/c.md" "$tmp/one/c.github"
check "github: the notice is among the first 10 notices" sh -c \
    'grep "^::notice" "$1" | head -n 10 | grep -q "^::notice title=mcpdesc::GitHub shows"' - "$tmp/one/c.github"
check "github: no notice when GitHub shows everything" sh -c \
    '! "$1" validate --format github "$2" | grep -q "GitHub shows"' - "$bin" $WARN

# a report that cannot be written: exit 2, the others written, no temporary file
unwritable() {
    rm -rf "$tmp/w" && mkdir "$tmp/w"
    "$bin" validate --format json:"$tmp/w/no/such/dir/r.json" --format gitlab:"$tmp/w/r.gitlab" \
        $VALID > /dev/null 2> "$tmp/w/err"
    [ $? = 2 ] && grep -q "cannot write '$tmp/w/no/such/dir/r.json'" "$tmp/w/err" &&
        [ -s "$tmp/w/r.gitlab" ] && [ -z "$(ls "$tmp/w" | grep '\.tmp\.')" ]
}
check "an unwritable report fails the run, the others are written" unwritable
# -o is the file of the one report that names none
dash_o() {
    rm -rf "$tmp/o" && mkdir "$tmp/o"
    "$bin" validate --format junit:"$tmp/o/r.xml" --format markdown -o "$tmp/o/summary.md" $WARN > "$tmp/o/stdout"
    [ ! -s "$tmp/o/stdout" ] && head -n 1 "$tmp/o/summary.md" | grep -q '^## mcpdesc:' &&
        head -n 1 "$tmp/o/r.xml" | grep -q '^<?xml'
}
check "-o writes the report that names no file" dash_o
# the config's format as a list: files relative to the config
config_list() {
    rm -rf "$tmp/c" && mkdir -p "$tmp/c/sub"
    printf 'format: [text, "gitlab:reports/gl.json", "junit:/%s/c/abs.xml"]\n' "${tmp#/}" > "$tmp/c/.mcpdesc.yaml"
    mkdir "$tmp/c/reports"
    cp $WARN "$tmp/c/server.json"
    (cd "$tmp/c/sub" && MCPDESC_NO_CONFIG= "$bin" validate ../server.json > out.txt)
    [ -s "$tmp/c/reports/gl.json" ] && [ -s "$tmp/c/abs.xml" ] && grep -q "warnings" "$tmp/c/sub/out.txt" &&
        python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))' "$tmp/c/reports/gl.json"
}
check "the config's format list: files relative to the config" config_list
# the same bytes whatever -j
same_any_j() {
    for f in junit gitlab markdown html; do
        "$bin" validate -j1 --format $f conformance > "$tmp/j1.$f" 2> /dev/null
        "$bin" validate -j2 --format $f conformance > "$tmp/j2.$f" 2> /dev/null
        cmp -s "$tmp/j1.$f" "$tmp/j2.$f" || return 1
    done
}
check "junit, gitlab, markdown and html are the same for any -j" same_any_j
check "markdown of a large run stays under 64 KiB" sh -c \
    '"$1" validate --preset all --format markdown conformance tests/data/cli > "$2" 2> /dev/null; [ "$(wc -c < "$2")" -lt 65536 ]' \
    - "$bin" "$tmp/big.md"
# html: one li.finding per finding of the JSON report of the same run (and an input
# error each), the suppressed ones marked, no element but a link naming an http(s) URL,
# every input's text escaped (tests/browser.sh loads the pages in Chromium)
html_ok() {
    python3 - "$1" "$2" << 'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
report = json.load(open(sys.argv[2]))
diags = [d for f in report["files"] for d in f.get("diagnostics", [])]
errors = [f for f in report["files"] if "error" in f]
items = re.findall(r'<li class="finding lvl-\w+([^"]*)"', page)
assert len(items) == len(diags) + len(errors), (len(items), len(diags), len(errors))
assert sum(" suppressed" in s for s in items) == sum(1 for d in diags if d.get("suppressed"))
loads = [t for t in re.findall(r'<[a-zA-Z]+ [^>]*(?:src|href)="https?://[^"]*"', page) if not t.startswith("<a ")]
assert not loads, loads
assert len(re.findall(r"<script>", page)) == 1 and "<script " not in page, "one inline script"
PY
}
html_run() {
    name=$1
    shift
    "$bin" validate --format json:"$tmp/$name.json" --format html:"$tmp/$name.html" "$@" > /dev/null 2>&1
    html_ok "$tmp/$name.html" "$tmp/$name.json"
}
check "html: the findings of the JSON report, offline" html_run h1 $INV $WARN $BROKEN
check "html: suppressed findings marked" html_run h2 $SUP
check "html: a file name is escaped" sh -c \
    '"$1" validate --format html --stdin-filepath "<img src=x onerror=alert(1)>.json" - < "$2" | grep -q "^<h2>&lt;img src=x onerror=alert(1)&gt;.json <span class=\"fcounts\">"' \
    - "$bin" $INV
# a report's file that is a symbolic link: its target is written (as fix does), the link
# kept; through a link in another directory, the temporary file is in the target's
# directory; a dangling link creates its target
link_target_written() {
    d=$tmp/links
    rm -rf "$d" && mkdir -p "$d/real" "$d/other" || return 1
    echo old > "$d/real/q.sarif"
    ln -s ../real/q.sarif "$d/other/lq" && ln -s q.sarif "$d/real/lq" && ln -s gone.json "$d/real/dangling" || return 1
    "$bin" validate --format sarif:"$d/other/lq" --format json:"$d/real/dangling" $INV > /dev/null 2>&1
    [ $? = 1 ] || return 1
    [ -L "$d/other/lq" ] && [ -L "$d/real/lq" ] && [ -L "$d/real/dangling" ] || return 1
    grep -q '"version": "2.1.0"' "$d/real/q.sarif" && grep -q '"summary"' "$d/real/gone.json" || return 1
    # no temporary file left anywhere
    [ "$(find "$d" -name '*.tmp.*' | wc -l)" = 0 ] || return 1
    # the same file by two names is still refused
    "$bin" validate --format json:"$d/real/q.sarif" --format sarif:"$d/real/lq" $INV > /dev/null 2>&1
    [ $? = 2 ] || return 1
    # so is a baseline
    ln -s b.json "$d/real/lb" && "$bin" baseline write "$d/real/lb" $INV > /dev/null 2>&1 &&
        [ -L "$d/real/lb" ] && grep -q mcpdescBaseline "$d/real/b.json"
}
check "a report to a symbolic link writes its target, the link kept" link_target_written
# a report or a baseline written to something that is not a regular file (/dev/null, a
# FIFO) is written into it: a temporary file renamed over it would replace it (as root,
# `--format json:/dev/null` turned /dev/null into a regular file). A FIFO stands for
# /dev/null here: its reader gets the report and it stays a FIFO.
fifo_written() {
    d=$tmp/fifo
    rm -rf "$d" && mkdir -p "$d" && mkfifo "$d/pipe" || return 1
    for what in report baseline; do
        cat "$d/pipe" > "$d/$what.got" &
        reader=$!
        if [ $what = report ]; then
            "$bin" validate --format json:"$d/pipe" $INV > /dev/null 2>&1
        else
            "$bin" baseline write "$d/pipe" $INV > /dev/null 2>&1
        fi
        st=$?
        if [ ! -p "$d/pipe" ]; then # replaced: the reader waits on the old FIFO forever
            kill $reader 2> /dev/null
            wait $reader 2> /dev/null
            return 1
        fi
        # a writer that failed before opening it: free the reader (bounded)
        if kill -0 $reader 2> /dev/null; then timeout 5 sh -c ': > "$1"' - "$d/pipe"; fi
        wait $reader
        case $what in
        report) [ $st = 1 ] && grep -q '"summary"' "$d/report.got" || return 1 ;;
        baseline) [ $st = 0 ] && grep -q mcpdescBaseline "$d/baseline.got" || return 1 ;;
        esac
    done
    [ "$(find "$d" -name '*.tmp.*' | wc -l)" = 0 ]
}
check "a report or baseline to a FIFO (as to /dev/null) is written into it, never replaced" fifo_written
testlib_finish
