#!/bin/sh
# capture-client-config.sh [--update] BINARY - `mcpdesc capture --client-config` on a
# client configuration of each kind (tests/capture/client-config/KIND/: Claude Desktop,
# VS Code with inputs, Cursor), each with three servers on tests/fake-mcp-server.c (built
# next to BINARY as tests/fake-mcp-server, or $FAKE_MCP), one of them failing, and
# secrets in env and headers that the servers must receive (the fake server exits or
# answers 401 without them) and that must appear in no output: stdout, stderr, the
# --server-stderr file, the written descriptions. Compares the exit status, stderr (the
# scratch path reads @TMP@, the HTTP port @PORT@), the list of written files and each
# description with KIND/expected/. --update rewrites the expected files (review them).
# Prints ok/FAIL lines and "N passed, N failed". Run by `make test-capture`.
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
CC=$HERE/capture/client-config
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-cc.XXXXXX")
TAG=capture-cc-test-$$
HTTP_PID=
pass=0
fail=0
cleanup() {
    [ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }
LIMIT=
command -v timeout >/dev/null 2>&1 && LIMIT="timeout 60"

# The secrets: in the configurations (env, headers) or in our environment (${env:...}).
HEADER_SECRET=hdr-secret-5e2a
MCPDESC_TEST_SECRET=vscode-secret-93c7
MCPDESC_TEST_ARG_SECRET=arg-secret-61b0 # only in an argument, through ${env:...}
export MCPDESC_TEST_SECRET MCPDESC_TEST_ARG_SECRET
SECRETS="claude-secret-8d1f $MCPDESC_TEST_SECRET $MCPDESC_TEST_ARG_SECRET cursor-secret-4471 $HEADER_SECRET"

# The HTTP server of the "remote" entries: 401 without the header.
"$FAKE" --tag "$TAG" --http 0 --port-file "$TMP/port" --tools 2 --prompts -1 \
    --require-header "X-Api-Key:$HEADER_SECRET" >/dev/null 2>"$TMP/http.err" &
HTTP_PID=$!
i=0
while [ ! -s "$TMP/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
PORT=$(cat "$TMP/port")

# same NAME EXPECTED ACTUAL: compare (or, with --update, write EXPECTED)
same() {
    if [ $update = 1 ]; then cp "$3" "$2"; fi
    if cmp -s "$2" "$3"; then ok "$1"; else
        bad "$1" "differs from ${2#"$HERE"/}"
        diff "$2" "$3" | head -20 | sed 's/^/       /'
    fi
}

# no_secret NAME FILE...: none of the secrets in any FILE
no_secret() {
    _name=$1
    shift
    for s in $SECRETS; do
        if grep -rlF -- "$s" "$@" >"$TMP/leak" 2>/dev/null; then
            bad "$_name" "secret '$s' in $(sed "s|$TMP/||" "$TMP/leak" | tr '\n' ' ')"
            return
        fi
    done
    ok "$_name"
}

# run_kind KIND REL [OPTIONS...]: the configuration KIND/$(basename REL), with the
# placeholders filled in, written to TMP/KIND/REL and captured into TMP/KIND-out with
# -j 1 (the sessions one after another: stderr in a stable order); then the checks.
run_kind() {
    kind=$1
    rel=$2
    shift 2
    ws=$TMP/$kind
    mkdir -p "$ws/$(dirname "$rel")"
    sed -e "s|@FAKE@|$FAKE|g" -e "s|@TAG@|$TAG|g" -e "s|@PORT@|$PORT|g" \
        -e "s|@HEADER_SECRET@|$HEADER_SECRET|g" -e "s|@TMP@|$TMP|g" \
        "$CC/$kind/$(basename "$rel")" >"$ws/$rel"
    out=$TMP/$kind-out
    exp=$CC/$kind/expected
    mkdir -p "$exp"
    $LIMIT "$BIN" capture --date 2026-01-01 -j 1 --client-config "$ws/$rel" -o "$out" "$@" \
        >"$TMP/$kind.stdout" 2>"$TMP/$kind.stderr"
    echo $? >"$TMP/$kind.status"
    same "$kind: exit status" "$exp/status" "$TMP/$kind.status"
    if [ -s "$TMP/$kind.stdout" ]; then bad "$kind: stdout" "not empty"; else ok "$kind: stdout empty"; fi
    sed -e "s|$FAKE|@FAKE@|g" -e "s|$TMP|@TMP@|g" -e "s|127\.0\.0\.1:$PORT|127.0.0.1:@PORT@|g" "$TMP/$kind.stderr" \
        >"$TMP/$kind.stderr.norm"
    same "$kind: stderr (one line per server, secrets masked)" "$exp/stderr" "$TMP/$kind.stderr.norm"
    (cd "$out" && ls -A) >"$TMP/$kind.files"
    same "$kind: one file per captured server" "$exp/files" "$TMP/$kind.files"
    while read -r f; do
        same "$kind: $f" "$exp/$f" "$out/$f"
    done <"$TMP/$kind.files"
    no_secret "$kind: no secret in stdout, stderr or the descriptions" \
        "$TMP/$kind.stdout" "$TMP/$kind.stderr" "$out"
}

# DIR holds an earlier run's files: the failing server's description goes (it would be
# judged as current), another configuration's stays and is named, other files are left.
mkdir -p "$TMP/claude-out"
echo '{"stale": true}' >"$TMP/claude-out/broken.mcp-description.json"
echo '{"other": true}' >"$TMP/claude-out/other-client.mcp-description.json"
echo 'my notes' >"$TMP/claude-out/notes.txt"
run_kind claude claude_desktop_config.json --server-stderr "$TMP/claude-server.err"
sed "s|$TMP|@TMP@|g" "$TMP/claude-server.err" >"$TMP/claude-server.err.norm"
same "claude: --server-stderr file, secrets masked" "$CC/claude/expected/server-stderr" \
    "$TMP/claude-server.err.norm"
no_secret "claude: no secret in the --server-stderr file" "$TMP/claude-server.err"
run_kind vscode .vscode/mcp.json
run_kind cursor .cursor/mcp.json

# An empty "mcpServers" beside VS Code's "servers": the servers are read; when no server
# is captured (here: one that needs an ${input:...}), the earlier file goes, and no next
# step is suggested (there is nothing to judge).
cat >"$TMP/two-kinds.json" <<EOF
{"mcpServers": {},
 "servers": {"prompted": {"command": "$FAKE", "args": ["--tag", "$TAG"],
   "env": {"TOKEN": "\${input:token}"}}}}
EOF
mkdir -p "$TMP/two-kinds-out"
echo '{}' >"$TMP/two-kinds-out/prompted.mcp-description.json"
"$BIN" capture --client-config "$TMP/two-kinds.json" -o "$TMP/two-kinds-out" >/dev/null 2>"$TMP/two-kinds.err"
rc=$?
sed "s|$TMP|@TMP@|g" "$TMP/two-kinds.err" >"$TMP/two-kinds.err.norm"
printf '%s\n' \
    'mcpdesc: prompted: capturing (server 1 of 1, stdio)' \
    'mcpdesc: prompted: failed: variable ${input:token} at @TMP@/two-kinds.json:3:21 needs an answer that the client prompts for ("inputs"), which mcpdesc cannot give: write ${env:NAME} there instead and set NAME' \
    'mcpdesc: removed @TMP@/two-kinds-out/prompted.mcp-description.json of an earlier run: prompted was not captured this time' \
    'mcpdesc: 0 of 1 servers captured into @TMP@/two-kinds-out' >"$TMP/two-kinds.want"
if [ $rc = 1 ] && cmp -s "$TMP/two-kinds.want" "$TMP/two-kinds.err.norm" &&
    [ ! -e "$TMP/two-kinds-out/prompted.mcp-description.json" ]; then
    ok "empty mcpServers beside servers; none captured: the earlier file removed, no next step"
else
    bad "empty mcpServers beside servers" "status $rc (want 1), stderr differs or the earlier file is left"
    diff "$TMP/two-kinds.want" "$TMP/two-kinds.err.norm" | sed 's/^/       /'
fi

# -v logs every message: a server that puts its secret in a tool's description (so the
# description has it: that is what the server offers) shows it as *** in the log.
cat >"$TMP/verbose.json" <<EOF
{"mcpServers": {"echo": {"command": "$FAKE", "args": ["--tag", "$TAG", "--tools", "1",
  "--env-in-tool", "SECRET_KEY"], "env": {"SECRET_KEY": "claude-secret-8d1f"}}}}
EOF
"$BIN" capture -v -j 1 --protocol-version 2025-11-25 --client-config "$TMP/verbose.json" \
    -o "$TMP/verbose-out" >/dev/null 2>"$TMP/verbose.err"
if grep -qF 'Tool number 0 sees SECRET_KEY=***.' "$TMP/verbose.err" &&
    grep -qF 'SECRET_KEY=claude-secret-8d1f' "$TMP/verbose-out/echo.mcp-description.json"; then
    ok "-v: the server saw the secret, the log shows ***"
else bad "-v" "no masked tools/list answer in the log, or the server did not see the secret"; fi
no_secret "-v: no secret in the log" "$TMP/verbose.err"

# A server whose error messages quote its secret (taken from ${env:...}, so a secret too):
# the note on a refused initialize and the failure line show ***.
cat >"$TMP/error.json" <<EOF
{"mcpServers": {"quoting": {"command": "$FAKE", "args": ["--tag", "$TAG", "--env-in-tool",
  "KEY", "--fail", "tools/list:error"], "env": {"KEY": "\${env:MCPDESC_TEST_SECRET}"}}}}
EOF
"$BIN" capture --protocol-version 2025-11-25 --client-config "$TMP/error.json" \
    -o "$TMP/error-out" >/dev/null 2>"$TMP/error.err"
rc=$?
if [ $rc = 1 ] && grep -qF "quoting: failed: session for protocol version 2025-11-25: 'tools/list' failed with JSON-RPC error -32603: scripted failure, KEY=***" "$TMP/error.err"; then
    ok "a failure that quotes a secret shows ***"
else bad "failure message" "status $rc (want 1) or no masked failure line"; sed 's/^/       /' "$TMP/error.err"; fi
sed 's/tools\/list:error/initialize:error/' "$TMP/error.json" >"$TMP/error-init.json"
"$BIN" capture --protocol-version 2025-11-25 --client-config "$TMP/error-init.json" \
    -o "$TMP/error-out" >/dev/null 2>>"$TMP/error.err"
if grep -qF "mcpdesc: quoting: 2025-11-25: the server refused to initialize ('initialize' failed with JSON-RPC error -32603: scripted failure, KEY=***)" "$TMP/error.err"; then
    ok "a note that quotes a secret shows ***"
else bad "note" "no masked note on the refused initialize"; sed 's/^/       /' "$TMP/error.err"; fi
no_secret "no secret in a server's error messages" "$TMP/error.err"

# A refused file starts no server and makes no directory: the first entry would make
# a marker file, the second is malformed.
cat >"$TMP/refused.json" <<EOF
{"mcpServers": {"first": {"command": "sh", "args": ["-c", "touch $TMP/marker"]},
                "second": {"args": []}}}
EOF
"$BIN" capture --client-config "$TMP/refused.json" -o "$TMP/refused-out" >/dev/null 2>"$TMP/refused.err"
rc=$?
if [ $rc = 2 ] && [ ! -e "$TMP/marker" ] && [ ! -e "$TMP/refused-out" ]; then
    ok "a refused file starts no server and makes no directory"
else
    bad "refused file" "status $rc (want 2), marker $([ -e "$TMP/marker" ] && echo made || echo absent), -o DIR $([ -e "$TMP/refused-out" ] && echo made || echo absent)"
fi

# Every fake server of this run has ended.
sleep 0.2
kill "$HTTP_PID" 2>/dev/null
wait "$HTTP_PID" 2>/dev/null
HTTP_PID=
left=
for c in /proc/[0-9]*/cmdline; do
    line=$(tr '\0' ' ' 2>/dev/null <"$c") || continue
    case $line in *"--tag $TAG"*) left="$left ${c%/cmdline}" ;; esac
done
if [ -z "$left" ]; then ok "no fake server left running"; else bad "leftovers" "$left"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
