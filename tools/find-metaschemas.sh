#!/bin/sh
# find-metaschemas.sh [DIR...] - find the JSON Schema meta-schemas the build embeds
# (tools/embed-metaschemas.sh) and print "LAYOUT DIR" for the first directory that holds
# them all. Two layouts are known:
#   jsonschema      Debian 12's python3-jsonschema (jsonschema < 4.18):
#                   DIR/draft4.json ... DIR/draft2020-12.json and DIR/vocabularies.json
#                   (the 2019-09 and 2020-12 vocabulary meta-schemas, keyed by URI)
#   specifications  python3-jsonschema-specifications (Debian 13, Ubuntu 24.04, PyPI
#                   jsonschema-specifications, which jsonschema >= 4.18 depends on):
#                   DIR/draft4/metaschema.json ... DIR/draft202012/metaschema.json and
#                   DIR/draft201909/vocabularies/*, DIR/draft202012/vocabularies/*
# With no DIR, the directories searched are $METASCHEMA_SEARCH if set (white-space
# separated, globs allowed), else Debian's and other distributions' usual places, then
# wherever python3 imports jsonschema_specifications or jsonschema from. None found: a
# message naming the packages to install, exit 1.
set -eu

layout_of() { # DIR -> prints the layout, or fails
    d=$1
    ok=1
    for f in draft4 draft6 draft7 draft2019-09 draft2020-12 vocabularies; do
        [ -f "$d/$f.json" ] || ok=0
    done
    [ $ok = 1 ] && { echo jsonschema; return 0; }
    ok=1
    for v in draft4 draft6 draft7 draft201909 draft202012; do
        [ -f "$d/$v/metaschema.json" ] || ok=0
    done
    for v in draft201909 draft202012; do
        [ -f "$d/$v/vocabularies/core" ] || ok=0
    done
    [ $ok = 1 ] && { echo specifications; return 0; }
    return 1
}

if [ $# -eq 0 ]; then
    if [ -n "${METASCHEMA_SEARCH:-}" ]; then
        # shellcheck disable=SC2086
        set -- $METASCHEMA_SEARCH
    else
        # shellcheck disable=SC2046
        set -- /usr/lib/python3/dist-packages/jsonschema/schemas \
            /usr/lib/python3/dist-packages/jsonschema_specifications/schemas \
            /usr/lib/python3*/site-packages/jsonschema/schemas \
            /usr/lib/python3*/site-packages/jsonschema_specifications/schemas \
            /usr/lib64/python3*/site-packages/jsonschema_specifications/schemas \
            /usr/local/lib/python3*/dist-packages/jsonschema_specifications/schemas \
            /usr/local/lib/python3*/site-packages/jsonschema_specifications/schemas \
            $(python3 -c 'import os, jsonschema_specifications as m; print(os.path.join(os.path.dirname(m.__file__), "schemas"))' 2>/dev/null || :) \
            $(python3 -c 'import os, jsonschema as m; print(os.path.join(os.path.dirname(m.__file__), "schemas"))' 2>/dev/null || :)
    fi
fi
for d in "$@"; do
    [ -d "$d" ] || continue
    if l=$(layout_of "$d"); then
        echo "$l $d"
        exit 0
    fi
done
{
    echo "find-metaschemas: no JSON Schema meta-schemas found; looked in:"
    for d in "$@"; do echo "    $d"; done
    echo "install python3-jsonschema (Debian 12: it ships them) or python3-jsonschema-specifications"
    echo "(Debian 13, Ubuntu 24.04; pip: jsonschema-specifications), or name the folder with"
    echo "make METASCHEMA_DIR=DIR"
} >&2
exit 1
