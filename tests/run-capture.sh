#!/bin/sh
# run-capture.sh BINARY - tests of `mcpdesc capture` against tests/fake-mcp-server.c
# (built next to BINARY as tests/fake-mcp-server, or $FAKE_MCP): every failure mode
# (JSON-RPC error, hang, garbage, early exit, crash, huge message, broken pagination),
# version negotiation and merging, pagination, Streamable HTTP on 127.0.0.1, output
# files. Outputs are compared with tests/capture/*.json. Prints ok/FAIL lines and
# "N passed, N failed". `sh tests/run-capture.sh --update BINARY` rewrites the expected
# files (only an argument does: an UPDATE=1 left in the environment once rewrote goldens).
set -u
update=0
if [ "${1:-}" = --update ]; then
    update=1
    shift
fi
BIN=$1
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
FAKE=${FAKE_MCP:-$(dirname "$BIN")/tests/fake-mcp-server}
case $FAKE in /*) ;; *) FAKE=$(pwd)/$FAKE ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
EXP=$HERE/capture
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-capture.XXXXXX")
TAG=capture-test-$$
HTTP_PID=
pass=0
fail=0
cleanup() {
    [ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    [ -s "$TMP/err" ] && sed 's/^/       stderr: /' "$TMP/err" | head -8
    return 0
}

# cap NAME ARGS... : run capture with a fixed date; stdout in $TMP/out, stderr in
# $TMP/err, status in $rc, seconds in $secs.
cap() {
    _name=$1
    shift
    _t0=$(date +%s)
    $LIMIT "$BIN" capture --date 2026-01-01 "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    secs=$(($(date +%s) - _t0))
}

# expect_ok NAME EXPECTED-FILE: rc 0 and stdout equals tests/capture/EXPECTED-FILE
expect_ok() {
    if [ "$rc" != 0 ]; then bad "$1" "exit status $rc, expected 0"; return; fi
    if [ $update = 1 ]; then cp "$TMP/out" "$EXP/$2"; fi
    if cmp -s "$TMP/out" "$EXP/$2"; then ok "$1"; else
        bad "$1" "output differs from tests/capture/$2"
        diff "$EXP/$2" "$TMP/out" | head -20 | sed 's/^/       /'
    fi
}

# expect_fail NAME TEXT: rc 2, nothing on stdout, TEXT in stderr, no more than 15 s
expect_fail() {
    if [ "$rc" != 2 ]; then bad "$1" "exit status $rc, expected 2"; return; fi
    if [ -s "$TMP/out" ]; then bad "$1" "wrote to stdout on failure"; return; fi
    if ! grep -qF -- "$2" "$TMP/err"; then bad "$1" "stderr lacks '$2'"; return; fi
    if [ "$secs" -gt 15 ]; then bad "$1" "took $secs s"; return; fi
    ok "$1"
}

# expect_note NAME TEXT: TEXT in stderr
expect_note() {
    if grep -qF -- "$2" "$TMP/err"; then ok "$1"; else bad "$1" "stderr lacks '$2'"; fi
}

# leftovers: pid and command line of every live process of this run's fake servers, read
# from /proc (no ps: a check must not pass because a tool is missing); fails without /proc
leftovers() {
    [ -r /proc/self/cmdline ] || { echo "no /proc to look for leftover servers"; return 1; }
    for c in /proc/[0-9]*/cmdline; do
        line=$(tr '\0' ' ' 2>/dev/null < "$c") || continue
        case $line in *"--tag $TAG"*) echo "${c%/cmdline} $line" ;; esac
    done
    return 0
}

# no_leftovers NAME: no fake server of this run is still alive
no_leftovers() {
    sleep 0.2
    if leftovers > "$TMP/leftovers" && [ -s "$TMP/leftovers" ]; then
        bad "$1" "a fake server is still running"
        sed 's/^/       /' "$TMP/leftovers"
    else ok "$1"; fi
}

S="$FAKE --tag $TAG"
# a bug in mcpdesc must not hang the test suite
LIMIT=
command -v timeout >/dev/null 2>&1 && LIMIT="timeout 60"

# ---- command line ----
"$BIN" capture --help >"$TMP/out" 2>"$TMP/err" && grep -q '^usage: mcpdesc capture' "$TMP/out" &&
    ok "help" || bad "help" "no usage on stdout"
cap usage-none
expect_fail "usage: no server" "no server given"
cap usage-opt --bogus -- $S
expect_fail "usage: unknown option" "unknown option '--bogus'"
cap usage-version --protocol-version 2025-01-01 -- $S
expect_fail "usage: unknown protocol version" "unknown protocol version '2025-01-01'"
cap usage-date --date 1.1.2026 -- $S
expect_fail "usage: bad --date" "--date wants YYYY-MM-DD"
cap usage-date-day --date 2026-02-30 -- $S
expect_fail "usage: --date not a day of the calendar" "--date wants YYYY-MM-DD"
cap usage-timeout --timeout 0 -- $S
expect_fail "usage: bad --timeout" "--timeout wants a number of seconds"
cap usage-validate --validate -- $S
expect_fail "usage: --validate without -o" "--validate needs -o FILE"
cap usage-both --url http://127.0.0.1:1/ -- $S
expect_fail "usage: --url and a command" "not both"
cap not-found -- "$TMP/no-such-server"
expect_fail "command not found" "cannot start server"

# ---- one version, all versions, merge ----
cap one --protocol-version 2025-06-18 -- $S
expect_ok "one version" one-2025-06-18.json
cap all -- $S
expect_ok "all versions, identical items appear once" all-versions.json
cap paged -- $S --page-size 2 --tools 7 --resources 5 --templates 3 --prompts 4
expect_ok "pagination across several pages" paged.json
cap paged1 -- $S --page-size 1 --tools 7 --resources 5 --templates 3 --prompts 4
if [ "$rc" = 0 ] && cmp -s "$TMP/out" "$EXP/paged.json"; then ok "pages of one item give the same result"; else bad "pages of one item" "differs"; fi
cap noise -- $S --noise --page-size 2
if [ "$rc" = 0 ] && cmp -s "$TMP/out" "$EXP/all-versions.json"; then ok "notifications, server pings and stray responses are handled"; else bad "noise" "rc $rc or output differs"; fi
cap vary -- $S --vary
expect_ok "merge: items that differ or exist only in some versions" merge-vary.json
expect_note "merge: differences noted" "tool 'tool-0' differs between protocol versions"
expect_note "merge: instructions difference noted" "instructions differs in protocol versions 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; recorded: 2026-07-28's"
cap nocaps -- $S --prompts -1 --resources -1 --templates -1
expect_ok "absent capabilities are not listed" tools-only.json
cap notmpl --protocol-version 2025-11-25 -- $S --no-templates-method
expect_ok "resources/templates/list not implemented" no-templates.json
expect_note "resources/templates/list note" "recording no resource templates"

# ---- version negotiation ----
cap answer -- $S --answer-version 2025-03-26
expect_ok "negotiation: a different version counts for the negotiated one" answer-2025-03-26.json
expect_note "negotiation: said on stderr" "2024-11-05: the server answered with protocol version 2025-03-26; the session counts for 2025-03-26"
expect_note "negotiation: duplicates dropped" "session dropped, protocol version 2025-03-26 was already captured"
cap someversions -- $S --versions 2025-06-18,2025-11-25
expect_ok "negotiation: server supporting two versions" two-versions.json
expect_note "negotiation: legacy server and server/discover" "does not implement server/discover"
cap modern -- $S --versions 2026-07-28
expect_ok "negotiation: 2026-07-28-only server" modern-only.json
expect_note "negotiation: initialize refused" "refused to initialize"
cap discover-silent --timeout 1 -- $S --fail server/discover:hang
expect_ok "negotiation: silence to server/discover means no 2026-07-28" legacy-only.json
expect_note "negotiation: silent server/discover noted" "did not answer 'server/discover' within 1 s"
cap modern-unsup --protocol-version 2026-07-28 -- $S --versions 2025-11-25
expect_fail "negotiation: nothing accepted" "accepted none of the requested protocol versions"
cap modern-answer --protocol-version 2025-06-18 --protocol-version 2026-07-28 -- $S --answer-version 2026-07-28
expect_ok "negotiation: initialize answered with 2026-07-28" modern-only.json
expect_note "negotiation: initialize answered with 2026-07-28 noted" "which has no 'initialize'; session dropped"
cap unknown-answer --protocol-version 2025-06-18 -- $S --answer-version 1999-01-01
expect_fail "negotiation: unknown version answered" "accepted none"
expect_note "negotiation: unknown version noted" "which mcpdesc does not know"

# ---- failure modes ----
cap rpcerr -- $S --fail tools/list:error
expect_fail "JSON-RPC error answer" "'tools/list' failed with JSON-RPC error -32603: scripted failure"
cap rpcerr-init --protocol-version 2025-06-18 --protocol-version 2025-11-25 -- $S --fail initialize:error --fail-version 2025-06-18
expect_ok "initialize refused for one version only" one-2025-11-25.json
cap oneversion -- $S --fail prompts/list:error --fail-version 2025-03-26
expect_fail "failure in one session names the version" "session for protocol version 2025-03-26"
cap hang --timeout 1 -- $S --fail tools/list:hang
expect_fail "server never answers" "did not answer 'tools/list' within 1 s"
no_leftovers "hung server killed and reaped"
cap hang-init --timeout 1 --protocol-version 2025-11-25 -- $S --fail initialize:hang
expect_fail "server never answers initialize" "did not answer 'initialize' within 1 s"
cap hang-term --timeout 1 --protocol-version 2025-11-25 -- $S --fail tools/list:hang --ignore-term
expect_fail "server ignoring SIGTERM and EOF" "did not answer 'tools/list'"
no_leftovers "server ignoring SIGTERM is killed with SIGKILL"
cap session --timeout 10 --session-timeout 1 --protocol-version 2025-11-25 -- $S --fail prompts/list:hang
expect_fail "session time limit" "session time limit reached while waiting for the answer to 'prompts/list'"
cap garbage -- $S --fail initialize:garbage
expect_fail "non-JSON output" "which is not a JSON-RPC message: 'Server started OK on stdio'"
cap notrpc -- $S --fail tools/list:notrpc
expect_fail "JSON that is not JSON-RPC" "wrote a JSON value to its standard output"
cap exit -- $S --fail tools/list:exit
expect_fail "early exit" "exited with status 7 before answering 'tools/list'"
cap false -- false
expect_fail "server exiting at once" "server 'false' exited with status 1 before"
cap crash -- $S --fail resources/list:crash
expect_fail "crash" "was killed by signal 11"
cap partial -- $S --fail prompts/list:partial
expect_fail "exit in the middle of a message" "its last line was incomplete"
cap huge --max-message 100000 --protocol-version 2025-11-25 -- $S --huge 200000
expect_fail "message over the size limit" "longer than 100000 bytes while answering 'tools/list'"
cap huge-ok --protocol-version 2025-11-25 -- $S --huge 2000000
if [ "$rc" = 0 ] && [ "$(wc -c <"$TMP/out")" -gt 2000000 ]; then ok "2 MB message under the default limit"; else bad "huge-ok" "rc $rc"; fi
cap loop --protocol-version 2025-11-25 -- $S --cursor-loop
expect_fail "pagination: repeated cursor" "returned the same nextCursor 'page-1' twice for 'tools/list'"
cap endless --max-pages 5 --protocol-version 2025-11-25 -- $S --endless
expect_fail "pagination: bounded number of pages" "beyond 5 pages"
"$BIN" capture --timeout 60 -- $S --fail tools/list:hang >"$TMP/out" 2>"$TMP/err" &
CPID=$!
sleep 1
kill -INT "$CPID"
_t0=$(date +%s)
wait "$CPID"
rc=$?
secs=$(($(date +%s) - _t0))
expect_fail "Ctrl-C ends the session" "interrupted while waiting for the answer to 'tools/list'"
no_leftovers "every server reaped"

# Ctrl-C with five sessions running on five threads: every session ends, every server
# is reaped
"$BIN" capture -j5 --timeout 60 -- $S --fail tools/list:hang >"$TMP/out" 2>"$TMP/err" &
CPID=$!
sleep 1
kill -INT "$CPID"
_t0=$(date +%s)
wait "$CPID"
rc=$?
secs=$(($(date +%s) - _t0))
expect_fail "Ctrl-C ends parallel sessions" "interrupted while waiting for the answer to 'tools/list'"
no_leftovers "every parallel server reaped"
cap verbose-label -v --protocol-version 2025-06-18 -- $S
expect_note "-v: messages marked with the session's version" 'mcpdesc: [2025-06-18] -> {"jsonrpc"'

# ---- output ----
cap stderr-file --server-stderr "$TMP/server.err" --protocol-version 2025-06-18 -- $S --stderr "hello from the server"
if [ "$rc" = 0 ] && grep -q "hello from the server" "$TMP/server.err" && ! grep -q "hello from" "$TMP/err"; then
    ok "--server-stderr FILE"; else bad "--server-stderr" "rc $rc"; fi
cap passthrough --protocol-version 2025-06-18 -- $S --stderr "hello from the server"
expect_note "server stderr passed through" "hello from the server"
cap outfile -o "$TMP/d.json" --protocol-version 2025-06-18 -- $S
if [ "$rc" = 0 ] && [ ! -s "$TMP/out" ] && cmp -s "$TMP/d.json" "$EXP/one-2025-06-18.json" &&
    [ -z "$(ls "$TMP" | grep 'd.json.tmp')" ]; then ok "-o FILE"; else bad "-o FILE" "rc $rc"; fi
cap badout -o "$TMP/no/such/dir/d.json" --protocol-version 2025-06-18 -- $S
expect_fail "-o into a missing directory" "cannot write"
# --validate must judge what it captured: a server with an error in it (--bad-tool) gives
# status 1 and the report that `validate` alone gives on the written file
cap validate -o "$TMP/v.json" --protocol-version 2025-06-18 --validate --format json -- $S --bad-tool
cp "$TMP/out" "$TMP/cap-report"
"$BIN" validate --format json "$TMP/v.json" >"$TMP/vout" 2>"$TMP/verr"
vrc=$?
if [ "$rc" = 1 ] && [ "$vrc" = 1 ] && [ -s "$TMP/v.json" ] && cmp -s "$TMP/cap-report" "$TMP/vout" &&
    grep -q '"mcp.tool.input-schema.object-root"' "$TMP/cap-report"; then
    ok "--validate judges the capture: status 1 and validate's own report"
else
    bad "--validate" "status $rc (want 1), validate alone gives $vrc; reports differ or lack object-root"
fi
cap validate-clean -o "$TMP/v2.json" --protocol-version 2025-06-18 --validate --format json -- $S
if [ "$rc" = 0 ] && grep -q '"errors": 0' "$TMP/out"; then ok "--validate on a clean server: status 0"; else
    bad "--validate clean" "status $rc"; fi

# ---- parallel sessions and what people see (issue 18 item 8) ----
# overlap: the fake server logs begin/end around a 1 s wait at initialize; with -j4 the
# four waits overlap (every begin before every end), with -j1 none does. Timestamps from
# the server, no wall-clock threshold.
FOUR="--protocol-version 2024-11-05 --protocol-version 2025-03-26 --protocol-version 2025-06-18 --protocol-version 2025-11-25"
rm -f "$TMP/olog"
cap overlap -j4 $FOUR -- $S --sleep-init 1 --log "$TMP/olog"
overlap=$(awk '$1 == "begin" { b = $4 > b ? $4 : b; nb++ } $1 == "end" { if (e == "" || $4 < e) e = $4; ne++ }
    END { print (nb == 4 && ne == 4 && b < e) ? "yes" : "no" }' "$TMP/olog" 2>/dev/null)
if [ "$rc" = 0 ] && [ "$overlap" = yes ]; then ok "-j4: the four sessions overlap (server timestamps)"; else
    bad "-j4 overlap" "rc $rc; log:"; sed 's/^/       /' "$TMP/olog"; fi
rm -f "$TMP/olog"
cap serial -j1 $FOUR -- $S --sleep-init 0.05 --log "$TMP/olog"
serial=$(sort -k4 "$TMP/olog" | awk '{ if ($1 == prev) bad = 1; prev = $1; n++ } END { print (n == 8 && !bad) ? "yes" : "no" }')
if [ "$rc" = 0 ] && [ "$serial" = yes ]; then ok "-j1: sessions one after another"; else bad "-j1 serial" "rc $rc"; fi
# the output does not depend on -j (merged in version order)
for j in 1 2 5; do
    cap "j$j-all" -j$j -- $S
    expect_ok "-j$j: all versions, same output" all-versions.json
    cap "j$j-vary" --jobs $j -- $S --vary
    expect_ok "-j$j: merge, same output" merge-vary.json
    cap "j$j-answer" -j $j -- $S --answer-version 2025-03-26
    expect_ok "-j$j: negotiation, same output" answer-2025-03-26.json
done
cap bad-jobs -j0 -- $S
expect_fail "usage: bad -j" "-j wants a number of sessions"
# a version already answered is not asked again
rm -f "$TMP/olog"
cap asked -j1 -- $S --answer-version 2025-03-26 --log "$TMP/olog"
expect_ok "answered version not asked: same output" answer-2025-03-26.json
if grep -q "begin initialize 2024-11-05" "$TMP/olog" && ! grep -q "begin initialize 2025-03-26" "$TMP/olog"; then
    ok "a version answered for another is not asked again (server log)"; else
    bad "not asked again" "server log:"; sed 's/^/       /' "$TMP/olog"; fi
expect_note "not asked again: said" "2025-03-26: not asked: the session for 2024-11-05 was answered with this version"
# summary line
cap summary -- $S
expect_note "summary line" "mcpdesc: captured protocol versions 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28: 3 tools, 2 resources, 1 resource template, 2 prompts"
cap summary-vary -- $S --vary
expect_note "summary counts an item with several forms once" "mcpdesc: captured protocol versions 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28: 5 tools,"
cap summary-one --protocol-version 2025-06-18 -- $S --tools 1 --prompts -1 --resources -1 --templates -1
expect_note "summary: one version, one tool" "mcpdesc: captured protocol version 2025-06-18: 1 tool, 0 resources, 0 resource templates, 0 prompts"
# server stderr: whole lines, each with its session's version, even when the server
# writes a line in pieces and four sessions write at once
cap pieces -j4 $FOUR -- $S --stderr-pieces 50
lines=$(grep -c piece "$TMP/err")
badlines=$(grep piece "$TMP/err" | grep -Evc '^\[20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]\] piece-a-([0-9]+) piece-b-\1 piece-c-\1$')
if [ "$rc" = 0 ] && [ "$lines" = 200 ] && [ "$badlines" = 0 ]; then ok "server stderr: whole lines with the version in front"; else
    bad "stderr prefix" "rc $rc, $lines lines, $badlines mangled"; fi
for v in 2024-11-05 2025-11-25; do
    n=$(grep -c "^\[$v\] piece" "$TMP/err")
    if [ "$n" = 50 ]; then ok "server stderr of $v: 50 lines marked [$v]"; else bad "stderr of $v" "$n lines"; fi
done
cap stderr-file-prefix --server-stderr "$TMP/server2.err" --protocol-version 2025-06-18 -- $S --stderr "hello from the server"
if [ "$rc" = 0 ] && grep -qx "\[2025-06-18\] hello from the server" "$TMP/server2.err"; then ok "--server-stderr FILE: lines marked too"; else
    bad "--server-stderr prefix" "rc $rc"; fi
# -o checked before any server starts (the server would log its initialize)
rm -f "$TMP/olog"
cap badout-early -o "$TMP/no/such/dir/d.json" -- $S --log "$TMP/olog" --stderr "server started"
expect_fail "-o into a missing directory: said before any server starts" "cannot write '$TMP/no/such/dir/d.json': directory '$TMP/no/such/dir'"
if [ ! -e "$TMP/olog" ] && ! grep -q "server started" "$TMP/err"; then ok "-o checked before any server starts"; else bad "-o early" "a server ran"; fi
mkdir -p "$TMP/adir"
cap outdir -o "$TMP/adir" -- $S --stderr "server started"
expect_fail "-o naming a directory" "it is a directory"
if ! grep -q "server started" "$TMP/err"; then ok "-o directory: no server started"; else bad "-o directory" "a server ran"; fi
# the date: none by default (a drift check must not change daily), SOURCE_DATE_EPOCH's,
# or --date
$LIMIT env -u SOURCE_DATE_EPOCH "$BIN" capture --protocol-version 2025-06-18 -- $S >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ] && grep -q '"x-capturedBy"' "$TMP/out" && ! grep -q '"date"' "$TMP/out"; then
    ok "no date by default"; else bad "default date" "rc $rc or a date written"; fi
sed '/"date"/d; s/"tool": "mcpdesc [^"]*",/"tool": "mcpdesc X"/' "$EXP/one-2025-06-18.json" >"$TMP/nodate.exp"
sed 's/"tool": "mcpdesc [^"]*"/"tool": "mcpdesc X"/' "$TMP/out" >"$TMP/nodate.out"
if cmp -s "$TMP/nodate.exp" "$TMP/nodate.out"; then ok "no date: otherwise the same description"; else
    bad "no date" "differs"; diff "$TMP/nodate.exp" "$TMP/nodate.out" | head -10; fi
SOURCE_DATE_EPOCH=1767225600 $LIMIT "$BIN" capture --protocol-version 2025-06-18 -- $S >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ] && cmp -s "$TMP/out" "$EXP/one-2025-06-18.json"; then ok "SOURCE_DATE_EPOCH gives the date"; else bad "SOURCE_DATE_EPOCH" "rc $rc or differs"; fi
SOURCE_DATE_EPOCH=soon $LIMIT "$BIN" capture --protocol-version 2025-06-18 -- $S >"$TMP/out" 2>"$TMP/err"
rc=$? secs=0
expect_fail "bad SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH is a number of seconds"
$LIMIT "$BIN" capture --date today --protocol-version 2025-06-18 -- $S >"$TMP/out" 2>"$TMP/err"
rc=$?
today=$(date -u +%Y-%m-%d)
if [ "$rc" = 0 ] && grep -q "\"date\": \"$today\"" "$TMP/out"; then ok "--date today"; else bad "--date today" "rc $rc"; fi

# ---- Streamable HTTP on 127.0.0.1 ----
start_http() {
    rm -f "$TMP/port"
    "$FAKE" --tag "$TAG" --http 0 --port-file "$TMP/port" "$@" >/dev/null 2>"$TMP/http.err" &
    HTTP_PID=$!
    i=0
    while [ ! -s "$TMP/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    URL=http://127.0.0.1:$(cat "$TMP/port")/mcp
}
stop_http() { kill "$HTTP_PID" 2>/dev/null; wait "$HTTP_PID" 2>/dev/null; HTTP_PID=; }

start_http
cap http --url "$URL"
expect_ok "http: JSON responses, sessions, version headers" all-versions.json
stop_http
start_http --sse --vary --page-size 2
cap http-sse --url "$URL"
expect_ok "http: event-stream responses, pagination, merge" merge-vary.json
stop_http
start_http --sse-keep-open --versions 2025-11-25
cap http-open --timeout 10 --url "$URL"
if [ "$rc" = 0 ] && [ "$secs" -lt 8 ]; then ok "http: stream left open after the answer"; else bad "http: open stream" "rc $rc, $secs s"; fi
stop_http
start_http --fail tools/list:hang
cap http-hang --timeout 1 --protocol-version 2025-11-25 --url "$URL"
expect_fail "http: server never answers" "did not answer 'tools/list'"
stop_http
start_http --versions 2025-06-18,2025-11-25
cap http-unsup --protocol-version 2026-07-28 --protocol-version 2025-11-25 --url "$URL"
expect_ok "http: legacy server, 2026-07-28 not supported" one-2025-11-25.json
stop_http
start_http --huge 200000
cap http-huge --max-message 100000 --protocol-version 2025-11-25 --url "$URL"
expect_fail "http: JSON message over the size limit" "longer than 100000 bytes while answering 'tools/list'"
stop_http
start_http --huge 200000 --sse
cap http-huge-sse --max-message 100000 --protocol-version 2026-07-28 --url "$URL"
expect_fail "http: event over the size limit" "longer than 100000 bytes while answering 'tools/list'"
stop_http
start_http --versions 2026-07-28
cap http-modern --url "$URL"
expect_ok "http: 2026-07-28-only server" modern-only.json
stop_http
start_http --path /mcp
cap http-path --url "http://127.0.0.1:$(cat "$TMP/port")/wrong/path?x=1"
expect_fail "http: 404 advice names the path" "the server answered 404 for /wrong/path: is the path right? MCP servers commonly serve /mcp"
cap http-path-ok --url "$URL"
expect_ok "http: --path server on its path" all-versions.json
stop_http
# a server that wants credentials: said so, not taken for a version problem
start_http --require-header "X-Api-Key:key-0a5e"
cap http-401 --url "$URL"
expect_fail "http: 401 is a refusal of the request, not of the versions" "the server refused the request: HTTP 401 (it wants credentials, which --url does not send"
expect_note "http: 401 to server/discover is not taken for a legacy server" "mcpdesc: 2026-07-28: the server refused 'server/discover' (server at $URL answered 'server/discover' with HTTP status 401"
stop_http
cap http-down --url "http://127.0.0.1:1/mcp"
expect_fail "http: nothing listening" "cannot reach http://127.0.0.1:1/mcp"
no_leftovers "every HTTP server stopped"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
