#!/bin/sh
# browser.sh BINARY - the html report and the pages of `rules docs` in a real browser:
# Debian's chromium, headless (skipped through tests/skip.sh when it is not installed).
# Each page is loaded twice with every host name unresolvable (--host-resolver-rules):
#   --dump-dom   the DOM after the inline script ran: for a report, one li.finding per
#                finding of the JSON report of the same run (input errors included,
#                suppressed and baselined ones marked as such), and the script's own
#                "Showing N of N findings" line (it ran to its end); for a rule page, its
#                title and no link to a local page that is not there
#   --enable-logging=stderr  every console message (CONSOLE lines: a script error, a
#                load the page's Content-Security-Policy refused) fails the page
#   --screenshot build/browser/NAME.png (1280x2000), kept for a person to look at
# and no element but a link (<a href>) names an http(s) URL: nothing is loaded from the
# network. BROWSER_OUT overrides build/browser; CHROMIUM names the browser (empty: none,
# to try the skip).
set -u
. "$(dirname "$0")/testlib.sh"
testlib_setup browser "$@"
browser=${CHROMIUM-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$browser" ]; then
    . tests/skip.sh
    test_skip test-browser "the html report and rule pages in headless Chromium" \
        "chromium not found: apt-get install chromium (tools/install-deps.sh test)" || exit 1
    exit 0
fi
if ! command -v python3 > /dev/null 2>&1; then
    . tests/skip.sh
    test_skip test-browser "the html report and rule pages in headless Chromium" "python3 not found" || exit 1
    exit 0
fi
out=${BROWSER_OUT:-build/browser}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
start=$(date +%s)
SOURCE_DATE_EPOCH=1767225600 # the suppressions' until dates
export SOURCE_DATE_EPOCH

# load NAME FILE: $tmp/NAME.dom, $tmp/NAME.log (console lines) and $out/NAME.png
load() {
    url="file://$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
    set -- "$1" "$url" --headless --disable-gpu --no-sandbox --no-first-run --disable-sync \
        --disable-background-networking --disable-component-update --hide-scrollbars \
        --host-resolver-rules="MAP * ~NOTFOUND"
    name=$1
    url=$2
    shift 2
    "$browser" "$@" --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --dump-dom "$url" \
        > "$tmp/$name.dom" 2> "$tmp/$name.err"
    grep -E 'CONSOLE[:(]' "$tmp/$name.err" > "$tmp/$name.log"
    rm -f "$out/$name.png"
    "$browser" "$@" --user-data-dir="$tmp/profile" --window-size=1280,2000 \
        --screenshot="$out/$name.png" "$url" > /dev/null 2>&1
}

# no_console NAME: no console message while loading (shown when there is one)
no_console() {
    [ ! -s "$tmp/$1.log" ] && return 0
    sed 's/^/    /' "$tmp/$1.log" >&2
    return 1
}

# offline FILE: no element but <a> has a src or href naming an http(s) URL
offline() {
    ! grep -Eo '<[a-zA-Z]+ [^>]*(src|href|action|data)="https?://[^"]*"' "$1" | grep -qv '^<a '
}

# shown_ok(DOM, TOTAL), for the Python checks below: the script's "Showing N of TOTAL
# findings" line is there (it ran to its end), N the findings the filters leave on outside
# the collapsed suppressed and baselined ones, which the page does not count, as the
# summary line does not ("Showing 7 of 50" while 6 were shown counted them)
cat > "$tmp/shown.py" << 'PY'
import re
def shown_ok(dom, total):
    m = re.search(r'<p id="shown">Showing (\d+) of (\d+) findings?</p>', dom)
    assert m, "the script did not run to its end (no 'Showing N of N findings')"
    counted = re.sub(r'<details class="hidden">.*?</details>', "", dom, flags=re.S)
    on = len(re.findall(r'<li class="finding lvl-\w+(?![^"]* off")[^"]*"', counted))
    assert int(m.group(2)) == total, (m.group(0), "of", total)
    assert int(m.group(1)) == on, (m.group(0), on, "shown")
PY
SHOWN_PY=$tmp/shown.py
export SHOWN_PY

# dom_ok NAME JSON: the DOM holds one li.finding per finding of the JSON report (and an
# input error each), as many marked suppressed and baselined, and the script's count
dom_ok() {
    python3 - "$tmp/$1.dom" "$2" << 'PY'
import json, os, re, sys
exec(open(os.environ["SHOWN_PY"]).read())
dom = open(sys.argv[1], encoding="utf-8").read()
report = json.load(open(sys.argv[2]))
diags = [d for f in report["files"] for d in f.get("diagnostics", [])]
errors = [f for f in report["files"] if "error" in f]
want = len(diags) + len(errors)
items = re.findall(r'<li class="finding lvl-(\w+)([^"]*)"', dom)
assert len(items) == want, "%d findings in the page, %d in the JSON report" % (len(items), want)
sup = sum(1 for d in diags if d.get("suppressed"))
base = sum(1 for d in diags if not d.get("suppressed") and d.get("baselineState") == "unchanged")
assert sum(" suppressed" in s for _, s in items) == sup, "suppressed findings not marked"
assert sum(" baselined" in s for _, s in items) == base, "baselined findings not marked"
levels = sorted(l for l, s in items if " input-error" not in s)
assert levels == sorted(d["level"] for d in diags), "levels differ"
for d in diags:  # every message, escaped as the page writes it
    m = d["message"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert m in dom.replace("&quot;", '"').replace("&#39;", "'"), "missing: " + d["message"]
shown_ok(dom, want - sup - base)
PY
}

# report NAME ARGS...: validate ARGS into json and html in one run, load the page
report() {
    name=$1
    shift
    rm -f "$out/$name.html"
    "$bin" validate --format json:"$tmp/$name.json" --format html:"$out/$name.html" "$@" \
        < "${input:-/dev/null}" > /dev/null 2>&1
    [ -s "$out/$name.html" ] && [ -s "$tmp/$name.json" ] || return 1
    load "$name" "$out/$name.html"
}
report_ok() {
    dom_ok "$1" "$tmp/$1.json" && no_console "$1" && offline "$out/$1.html"
}

report weather examples/weather.json
check "html report of examples/weather.json: every finding, no console message, offline" report_ok weather
# the filters, in the browser: #off=warning hides the two warnings, #off=2025-06-18 the
# findings of that version alone (weather.json: 3 errors, 2 warnings; 2 only for 2025-06-18)
filtered() {
    load "$1" "$out/weather.html#off=$2" && no_console "$1" &&
        grep -q "<p id=\"shown\">Showing $3 of 5 findings</p>" "$tmp/$1.dom" &&
        [ "$(grep -c '<li class="finding[^"]* off"' "$tmp/$1.dom")" = $((5 - $3)) ]
}
check "html filters: #off=warning shows the 3 errors" filtered weather-errors warning 3
check "html filters: #off=2025-06-18 hides what only that version has" filtered weather-no-0618 2025-06-18 3
check "html filters: #off=error,warning,info shows none" filtered weather-none error,warning,info 0
report invalid conformance/expected-invalid tests/cli/validate-parse-error-among-others/broken.json
check "html report of conformance/expected-invalid and a parse error" report_ok invalid
report suppressed --config tests/data/suppress/all.yaml tests/data/suppress/server.json \
    tests/data/suppress/inline.json
suppressed_ok() { report_ok suppressed && grep -q '<details class="hidden"><summary>' "$tmp/suppressed.dom"; }
check "html report with suppressed findings (marked, collapsed)" suppressed_ok
# counted_ok NAME TOTAL: the count is of what is shown, the collapsed suppressed findings
# left out, whatever the filters (#off=info left "Showing 2 of 7" with 1 on the page)
counted_ok() {
    no_console "$1" && python3 - "$tmp/$1.dom" "$2" << 'PY'
import os, sys
exec(open(os.environ["SHOWN_PY"]).read())
shown_ok(open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2]))
PY
}
sup_total=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(sum(1 for f in r["files"] for d in f.get("diagnostics", []) if not d.get("suppressed") and d.get("baselineState") != "unchanged") + sum("error" in f for f in r["files"]))' "$tmp/suppressed.json")
load suppressed-no-info "$out/suppressed.html#off=info"
check "html count with suppressed findings and a filter: what is shown" counted_ok suppressed-no-info "$sup_total"
# the verdict first (issue 26): two files with 21 infos each, then one with 5 errors
report verdict tests/data/report-verdict/a-clean.json tests/data/report-verdict/b-clean.json \
    tests/data/report-verdict/c-failing.json
verdict_ok() {
    report_ok verdict && python3 - "$tmp/verdict.dom" << 'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
body = dom[dom.index("<body>"):]
v = re.search(r'<p id="verdict" class="verdict failed" role="status"><strong>Failed</strong>: 5 errors at or above --fail-on error</p>', body)
assert v, "no Failed verdict"
assert body.index('id="verdict"') < body.index("<pre") < body.index("<section"), "the verdict comes first"
sections = re.findall(r'<section class="file( failing)?">\n<h2>([^<]*)', body)
assert [n.strip() for _, n in sections] == ["tests/data/report-verdict/c-failing.json",
    "tests/data/report-verdict/a-clean.json", "tests/data/report-verdict/b-clean.json"], sections
assert sections[0][0] and not sections[1][0], "the failing file is marked"
groups = re.findall(r'<li class="group lvl-(\w+)"[^>]*>\n<details><summary>.*?(?:&times;|\u00d7)(\d+)', body)
assert groups == [("error", "5"), ("info", "21"), ("info", "21")], groups
PY
}
check "html report: the verdict and the failing file first, repeated findings collapsed" verdict_ok
input=tests/data/baseline/changed.json report baselined --baseline tests/data/baseline/baseline.json \
    --stdin-filepath tests/data/baseline/server.json -
check "html report with baselined findings" report_ok baselined
report none conformance/expected-valid/tool-schema-mcp-type-shapes.json
none_ok() { report_ok none && grep -q "No findings" "$tmp/none.dom"; }
check "html report without findings" none_ok

# the rule pages: index, a rule page, a version page
"$bin" rules docs --rules rules-yaml --out "$out/docs" > /dev/null 2>&1
check "rules docs renders the pages" test -s "$out/docs/index.html"
rule=mcp.tool.input-schema.object-root
version=$(ls "$out/docs" | sed -n 's/^version-\(.*\)\.html$/\1/p' | tail -n 1)
# page_ok NAME FILE TEXT: loaded without a console message, TEXT in the DOM, offline, and
# every local link names a page that is there
page_ok() {
    no_console "$1" && grep -qF "$3" "$tmp/$1.dom" && offline "$2" &&
        python3 - "$tmp/$1.dom" "$(dirname "$2")" << 'PY'
import os, re, sys
dom, folder = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
for href in re.findall(r'<a [^>]*href="([^"#]+)', dom):
    if re.match(r"[a-z]+:", href):
        continue
    assert os.path.exists(os.path.join(folder, href)), "broken link: " + href
PY
}
load docs-index "$out/docs/index.html"
check "rules docs: index.html" page_ok docs-index "$out/docs/index.html" "$rule"
load docs-rule "$out/docs/$rule.html"
check "rules docs: $rule.html" page_ok docs-rule "$out/docs/$rule.html" "$rule"
load docs-version "$out/docs/version-$version.html"
check "rules docs: version-$version.html" page_ok docs-version "$out/docs/version-$version.html" "$version"
check "a screenshot of each page under $out" sh -c 'for f in "$@"; do [ -s "$f" ] || exit 1; done' - \
    "$out"/weather.png "$out"/invalid.png "$out"/suppressed.png "$out"/baselined.png "$out"/verdict.png \
    "$out"/docs-index.png "$out"/docs-rule.png "$out"/docs-version.png
echo "browser: $(($(date +%s) - start)) s; screenshots in $out"
testlib_finish
