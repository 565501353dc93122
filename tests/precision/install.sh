#!/bin/sh
# install.sh [-s SERVERS] [NAME...] - maintainer tool, not run by make check: npm install
# each server of SERVERS (default tests/precision/servers.txt; pinned versions; servers.awk
# reads it) into $PRECISION_SCRATCH/NAME (default build/scratch/DIR/NAME, DIR the folder of
# SERVERS, outside the sources), so capture.sh can run it offline. A NAME selects a server,
# or both versions of a pair. Needs node, npm and the npm registry. Run from the
# repository root.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SERVERS=$HERE/servers.txt
if [ "${1:-}" = -s ]; then SERVERS=$2; shift 2; fi
[ -f "$SERVERS" ] || { echo "install.sh: no servers file $SERVERS" >&2; exit 2; }
SCRATCH=${PRECISION_SCRATCH:-$(pwd)/build/scratch/$(basename "$(cd "$(dirname "$SERVERS")" && pwd)")}
command -v npm >/dev/null 2>&1 || { echo "install.sh: npm is not installed" >&2; exit 2; }
mkdir -p "$SCRATCH"
awk -F'|' -f "$HERE/servers.awk" "$SERVERS" | while IFS='|' read -r name pkg ver _args envs; do
    if [ $# -gt 0 ]; then case " $* " in *" $name "* | *" ${name%%/*} "*) ;; *) continue ;; esac; fi
    d=$SCRATCH/$name
    envs=$(echo "$envs" | sed "s#@HOME@#$SCRATCH/home#g")
    [ -f "$d/node_modules/$pkg/package.json" ] && { echo "have $name"; continue; }
    mkdir -p "$d"
    [ -f "$d/package.json" ] || echo '{"private": true}' >"$d/package.json"
    # ENV of servers.txt applies to the install too (PUPPETEER_SKIP_DOWNLOAD=1); it is
    # NAME=VALUE words, split on purpose
    # shellcheck disable=SC2086
    if env $envs timeout 400 npm install --prefix "$d" --no-audit --no-fund --loglevel=error \
        "$pkg@$ver" >"$d/npm-install.log" 2>&1 </dev/null; then
        echo "installed $name"
    else
        # a dependency's postinstall that downloads a browser fails offline or behind a
        # proxy (desktop-commander's puppeteer); the server lists its tools without it
        echo "install of $name failed, retrying with --ignore-scripts"
        # shellcheck disable=SC2086
        if env $envs timeout 400 npm install --prefix "$d" --no-audit --no-fund --ignore-scripts \
            --loglevel=error "$pkg@$ver" >>"$d/npm-install.log" 2>&1 </dev/null; then
            echo "installed $name (--ignore-scripts)"
        else
            echo "FAILED $name: see $d/npm-install.log"
        fi
    fi
done
