#!/bin/sh
# install.sh [NAME...] - maintainer tool, not run by make check: npm install each server of
# servers.txt (pinned version) into $PRECISION_SCRATCH/NAME (default
# build/scratch/precision/NAME, outside the sources), so capture.sh can run it offline.
# Needs node, npm and the npm registry. Run from the repository root.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${PRECISION_SCRATCH:-$(pwd)/build/scratch/precision}
command -v npm >/dev/null 2>&1 || { echo "install.sh: npm is not installed" >&2; exit 2; }
mkdir -p "$SCRATCH"
grep -v '^#' "$HERE/servers.txt" | while IFS='|' read -r name pkg ver _args envs; do
    if [ $# -gt 0 ]; then case " $* " in *" $name "*) ;; *) continue ;; esac; fi
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
