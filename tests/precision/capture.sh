#!/bin/sh
# capture.sh [-b BINARY] [-s SERVERS -o FOLDER] [NAME...] - maintainer tool, not run by
# make check: capture each server of SERVERS (default tests/precision/servers.txt)
# installed by install.sh, with no network at all (an empty network namespace,
# `unshare -n`, or `unshare -rn` where user namespaces are allowed), HOME in the scratch
# folder and no credentials in the environment, into FOLDER/NAME.json (default
# tests/precision/captures; a pair's NAME is NAME/VERSION, see servers.awk). The server's
# stderr and mcpdesc's go to $PRECISION_SCRATCH/logs/NAME.{err,capture-err} (not
# committed), the command to NAME.cmd. Run from the repository root after `make`; review
# `git diff tests/precision/captures` before committing (README.md: what a new version
# means for expected.txt).
set -u
BIN=build/mcpdesc
if [ "${1:-}" = -b ]; then BIN=$2; shift 2; fi
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || { echo "capture.sh: cannot run $BIN (run make first)" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
SERVERS=$HERE/servers.txt
OUT=$HERE/captures
SHOWN=tests/precision/captures  # OUT as the command log (NAME.cmd) writes it
if [ "${1:-}" = -s ]; then
    [ "${3:-}" = -o ] || { echo "capture.sh: -s SERVERS needs -o FOLDER after it" >&2; exit 2; }
    SERVERS=$2
    SHOWN=$4
    mkdir -p "$4" && OUT=$(cd "$4" && pwd)
    shift 4
fi
[ -f "$SERVERS" ] || { echo "capture.sh: no servers file $SERVERS" >&2; exit 2; }
SCRATCH=${PRECISION_SCRATCH:-$(pwd)/build/scratch/$(basename "$(cd "$(dirname "$SERVERS")" && pwd)")}
LOG=$SCRATCH/logs
mkdir -p "$OUT" "$LOG" "$SCRATCH/home" "$SCRATCH/fs"
# no network: the capture must not depend on a service, and a server must not phone home
if unshare -n true 2>/dev/null; then
    NONET="unshare -n"
elif unshare -rn true 2>/dev/null; then
    NONET="unshare -rn"
else
    echo "capture.sh: cannot create an empty network namespace (unshare -n as root, or unshare -rn with user namespaces)" >&2
    exit 2
fi
status=0
awk -F'|' -f "$HERE/servers.awk" "$SERVERS" | {
while IFS='|' read -r name pkg _ver args envs; do
    if [ $# -gt 0 ]; then case " $* " in *" $name "* | *" ${name%%/*} "*) ;; *) continue ;; esac; fi
    d=$SCRATCH/$name
    pj=$d/node_modules/$pkg/package.json
    if [ ! -f "$pj" ]; then
        if [ "$SERVERS" = "$HERE/servers.txt" ]; then
            echo "$name: not installed (sh tests/precision/install.sh $name)"
        else
            echo "$name: not installed (sh tests/precision/install.sh -s $SERVERS ${name%%/*})"
        fi
        continue
    fi
    # the entry point: the package's bin named like the package, else its first bin
    bin=$(node -e '
      const p = require(process.argv[1]); const b = p.bin;
      if (typeof b === "string") console.log(b);
      else if (b) { const n = p.name.split("/").pop(); console.log(b[n] || b[Object.keys(b)[0]]); }' "$pj" </dev/null)
    [ -n "$bin" ] || { echo "$name: no bin in $pj"; continue; }
    entry=$d/node_modules/$pkg/$bin
    a=$(echo "$args" | sed "s#@TMPFS@#$SCRATCH/fs#g")
    envs=$(echo "$envs" | sed "s#@HOME@#$SCRATCH/home#g")
    mkdir -p "$(dirname "$OUT/$name.json")" "$(dirname "$LOG/$name")"
    echo "env -i PATH=\$PATH HOME=\$SCRATCH/home $envs $NONET mcpdesc capture --timeout 20 --session-timeout 60 -o $SHOWN/$name.json -- node \$SCRATCH/$name/node_modules/$pkg/$bin $args" >"$LOG/$name.cmd"
    start=$(date +%s)
    # ENV (NAME=VALUE words), the namespace command and the server's arguments are split
    # on purpose
    # shellcheck disable=SC2086
    env -i PATH="$PATH" HOME="$SCRATCH/home" $envs $NONET "$BIN" capture --timeout 20 --session-timeout 60 \
        -o "$OUT/$name.json" --server-stderr "$LOG/$name.err" -- node "$entry" $a \
        </dev/null >"$LOG/$name.out" 2>"$LOG/$name.capture-err"
    rc=$?
    [ $rc -eq 0 ] || status=1
    echo "$name: exit $rc in $(($(date +%s) - start)) s; $(tail -n 1 "$LOG/$name.capture-err")"
done
exit $status
}
