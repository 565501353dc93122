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

# dom_ok NAME JSON: the DOM holds one li.finding per finding of the JSON report (and an
# input error each), as many marked suppressed and baselined, and the script's count
dom_ok() {
    python3 - "$tmp/$1.dom" "$2" << 'PY'
import json, re, sys
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
shown = re.search(r'<p id="shown">Showing (\d+) of (\d+) findings</p>', dom)
assert shown, "the script did not run to its end (no 'Showing N of N findings')"
assert int(shown.group(1)) == int(shown.group(2)) == want, shown.group(0)
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
    "$out"/weather.png "$out"/invalid.png "$out"/suppressed.png "$out"/baselined.png \
    "$out"/docs-index.png "$out"/docs-rule.png "$out"/docs-version.png
echo "browser: $(($(date +%s) - start)) s; screenshots in $out"
testlib_finish
