#!/bin/sh
# capture-everything.sh BINARY - integration test: install a pinned
# @modelcontextprotocol/server-everything into $BUILD/scratch (outside the sources),
# capture it over stdio for every protocol version it supports and over Streamable
# HTTP on 127.0.0.1, check the shape of the descriptions, and run `validate` on them
# (exit 0 or 1 is fine, 2 is a failure). Skipped, with a message, when npm or the
# registry cannot be reached. Captured output stays in the scratch folder: it holds
# other people's text, and this test's output is never committed. The one exception is
# tests/precision/captures/: reviewed captures of MIT and Apache-2.0 servers kept verbatim,
# with their licences and attribution (tests/precision/README.md), because the security
# rules' precision is measured on real servers' texts and must not depend on the network.
set -u
BIN=$1
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
PIN=2026.8.31
PKG=@modelcontextprotocol/server-everything
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
SCRATCH=$BUILD/scratch/server-everything
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }
. "$(dirname "$0")/skip.sh"
# skip WHY: the whole test is skipped (tests/skip.sh); a failure under MCPDESC_REQUIRE=all
skip() { test_skip capture-everything "server-everything integration" "$1" || exit 1; exit 0; }

command -v npm >/dev/null 2>&1 || skip "npm is not installed"
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to check the output's shape"
ENTRY=$SCRATCH/node_modules/$PKG/dist/index.js
installed=$(cd "$SCRATCH" 2>/dev/null && node -p "require('./node_modules/$PKG/package.json').version" 2>/dev/null)
if [ "$installed" != "$PIN" ]; then
    timeout 15 npm view "$PKG@$PIN" version >/dev/null 2>&1 ||
        skip "the npm registry is not reachable (npm view $PKG@$PIN failed within 15 s)"
    mkdir -p "$SCRATCH"
    [ -f "$SCRATCH/package.json" ] || echo '{"private": true}' >"$SCRATCH/package.json"
    if ! timeout 300 npm install --prefix "$SCRATCH" --no-audit --no-fund --loglevel=error "$PKG@$PIN" \
        >"$SCRATCH/npm-install.log" 2>&1; then
        skip "npm install $PKG@$PIN failed (see $SCRATCH/npm-install.log)"
    fi
fi
[ -f "$ENTRY" ] || { bad "install" "no $ENTRY"; echo "$pass passed, $fail failed"; exit 1; }
ok "server-everything $PIN installed in $SCRATCH"

# check_shape FILE: the description's shape (python3 json)
check_shape() {
    python3 - "$1" <<'EOF'
import json, sys
known = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
d = json.load(open(sys.argv[1]))
def need(c, m):
    if not c:
        print(m); sys.exit(1)
need(d.get("mcpDescription") == "0.9.0", "mcpDescription is not 0.9.0")
pv = d.get("protocolVersions")
need(isinstance(pv, list) and pv and all(v in known for v in pv) and pv == sorted(set(pv)), "bad protocolVersions %r" % pv)
si = d.get("serverInfo", {})
need(isinstance(si.get("name"), str) and isinstance(si.get("version"), str), "serverInfo lacks name/version")
need(isinstance(d.get("capabilities"), dict), "no capabilities object")
cb = d.get("x-capturedBy", {})
need(isinstance(cb.get("tool"), str), "no x-capturedBy.tool")
need("date" not in cb or isinstance(cb["date"], str), "x-capturedBy.date is not a string")
need(isinstance(d.get("tools"), list) and d["tools"], "no tools")
for kind, key in (("tools", "name"), ("resources", "uri"), ("resourceTemplates", "uriTemplate"), ("prompts", "name")):
    for i, it in enumerate(d.get(kind, [])):
        need(isinstance(it, dict) and isinstance(it.get(key), str), "%s/%d has no %s" % (kind, i, key))
        need(all(v in pv for v in it.get("protocolVersions", pv)), "%s/%d has versions outside the document's" % (kind, i))
for t in d["tools"]:
    need(isinstance(t.get("inputSchema"), dict), "tool %s has no inputSchema object" % t["name"])
print("versions %s; %d tools, %d resources, %d resource templates, %d prompts" % (
    ",".join(pv), len(d["tools"]), len(d.get("resources", [])), len(d.get("resourceTemplates", [])),
    len(d.get("prompts", []))))
EOF
}

# run_validate NAME FILE
run_validate() {
    "$BIN" validate "$2" >"$SCRATCH/validate.out" 2>"$SCRATCH/validate.err"
    vrc=$?
    if [ "$vrc" = 0 ] || [ "$vrc" = 1 ]; then
        ok "$1: validate judged it (exit $vrc; $(tail -1 "$SCRATCH/validate.out"))"
    else
        bad "$1" "validate exit $vrc: $(head -3 "$SCRATCH/validate.err")"
    fi
}

# stdio, every known version
OUT=$SCRATCH/everything-stdio.json
if "$BIN" capture --timeout 60 -o "$OUT" --server-stderr "$SCRATCH/server.err" -- node "$ENTRY" stdio \
    2>"$SCRATCH/capture.err"; then
    if shape=$(check_shape "$OUT"); then ok "stdio capture: $shape"; else bad "stdio capture shape" "$shape"; fi
    sed 's/^/       /' "$SCRATCH/capture.err"
    run_validate "stdio capture" "$OUT"
else
    bad "stdio capture" "$(cat "$SCRATCH/capture.err")"
fi

# each version it supports, alone
for v in $(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1])).get('protocolVersions', [])))" "$OUT" 2>/dev/null); do
    if "$BIN" capture --timeout 60 --protocol-version "$v" -o "$SCRATCH/everything-$v.json" \
        --server-stderr "$SCRATCH/server.err" -- node "$ENTRY" stdio 2>"$SCRATCH/capture.err" &&
        shape=$(check_shape "$SCRATCH/everything-$v.json"); then
        ok "stdio capture of $v alone: $shape"
    else
        bad "stdio capture of $v alone" "$(cat "$SCRATCH/capture.err")"
    fi
done

# Streamable HTTP on 127.0.0.1 (the server reads PORT). The server's MCP SDK calls the
# global crypto.randomUUID() of Web Crypto, which Node 18 (Debian 12's) has only with
# --experimental-global-webcrypto: without it every POST failed with "ReferenceError:
# crypto is not defined", which the SDK reports as JSON-RPC -32700 Parse error (the
# server's fault, not the client's; stdio does not use it).
# (asked of a script file: node -e and --input-type see every built-in module as a global)
webcrypto=""
echo 'process.exit(typeof globalThis.crypto === "undefined" ? 1 : 0)' >"$SCRATCH/has-webcrypto.cjs"
node "$SCRATCH/has-webcrypto.cjs" 2>/dev/null || webcrypto=--experimental-global-webcrypto
[ -n "$webcrypto" ] && echo "note: node $(node --version) has no global crypto: the HTTP server runs with $webcrypto"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$PORT node $webcrypto "$ENTRY" streamableHttp >"$SCRATCH/http-server.log" 2>&1 &
SP=$!
i=0
while ! grep -q "listening" "$SCRATCH/http-server.log" 2>/dev/null && [ $i -lt 300 ] && kill -0 "$SP" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
grep -q "listening" "$SCRATCH/http-server.log" ||
    echo "note: the HTTP server did not say it was listening: $(head -3 "$SCRATCH/http-server.log")"
HOUT=$SCRATCH/everything-http.json
if "$BIN" capture --timeout 60 -o "$HOUT" --url "http://127.0.0.1:$PORT/mcp" 2>"$SCRATCH/capture.err"; then
    if shape=$(check_shape "$HOUT"); then ok "http capture: $shape"; else bad "http capture shape" "$shape"; fi
    if python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a!=b)" "$OUT" "$HOUT" 2>/dev/null; then
        ok "http and stdio captures are identical"
    else
        echo "note: http and stdio captures differ (see $OUT and $HOUT)"
    fi
else
    bad "http capture" "$(cat "$SCRATCH/capture.err")"
fi
kill "$SP" 2>/dev/null
wait "$SP" 2>/dev/null

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
