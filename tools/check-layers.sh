#!/bin/sh
# check-layers.sh SRC - every #include "..." of a file in SRC/LAYER/ names a header of a
# layer LAYER may use, by its folder ("judge/eval.h"). The layers and what each may use
# are the table tools/layers.txt (read by tools/check-deps.sh too; docs/architecture.md
# draws it): base < schema < doc < resolve < rules < judge < findings < author < lsp,
# capture on base alone, cli on all.
# A header without a folder, or of a layer not allowed, fails with file:line; so does one
# of our headers included with angle brackets (#include <judge/eval.h>: it would pass
# unseen), a file directly in SRC (outside every layer) and a layer folder the table does
# not know. What the objects really use, whatever the includes say (a hand-written
# prototype, a file in a subfolder), is tools/check-deps.sh's to check.
set -u
src=${1:-src}
table=${LAYERS_TABLE:-$(dirname "$0")/layers.txt}
if [ ! -f "$table" ]; then
    echo "check-layers: FAIL: no $table"
    exit 1
fi
bad=0
for f in "$src"/*; do
    [ -f "$f" ] || continue
    echo "$f: outside every layer (move it into one of the layer folders: tools/layers.txt lists them)"
    bad=$((bad + 1))
done
# Every .c and .h of SRC/*/ in one awk pass (a shell loop per file took half a second).
set -- "$src"/*/*.[ch]
[ -f "$1" ] || set -- /dev/null
LC_ALL=C awk -v table="$table" -v src="$src" -v bad="$bad" '
BEGIN {
    while ((getline line < table) > 0) {
        sub(/#.*/, "", line)
        if (split(line, a, " ") == 0) continue
        sub(/^[ \t]*[^ \t]+[ \t]*/, "", line)
        sub(/[ \t]+$/, "", line)
        may[a[1]] = line
    }
    close(table)
    files = 0
}
FNR == 1 {
    # SRC/LAYER/FILE: the layer is the folder before the name
    layer = FILENAME
    sub(/\/[^\/]*$/, "", layer)
    sub(/^.*\//, "", layer)
    known = layer in may
    if (!known && !(layer in told)) {
        told[layer] = 1
        print src "/" layer "/: not a known layer (tools/layers.txt lists them)"
        bad++
    }
    if (known) files++
}
!known || !/^[ \t]*#[ \t]*include[ \t]*[<"]/ { next }
{
    q = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", q)
    if (q ~ /^</) {
        # system headers are not ours; ours in angle brackets would pass unseen
        h = substr(q, 2)
        sub(/>.*/, "", h)
        to = h
        if (sub(/\/.*/, "", to) && (to in may)) {
            print FILENAME ":" FNR ": #include <" h ">: one of our headers, write #include \"" h "\" (angle brackets hide it from this check)"
            bad++
        }
        next
    }
    h = substr(q, 2)
    sub(/".*/, "", h)
    to = h
    if (!sub(/\/.*/, "", to)) {
        print FILENAME ":" FNR ": #include \"" h "\" names no layer folder (write \"LAYER/" h "\")"
        bad++
    } else if (index(" " may[layer] " ", " " to " ") == 0) {
        print FILENAME ":" FNR ": #include \"" h "\": the " layer " layer may include only: " may[layer] " (tools/layers.txt)"
        bad++
    }
}
END {
    if (files == 0) {
        print "check-layers: FAIL: no source file under " src "/LAYER/"
        exit 1
    }
    if (bad) {
        print "check-layers: FAIL: " bad " include(s) against the layer order"
        exit 1
    }
    print "check-layers: ok (" files " files, each including only what " table " lets its layer use)"
}' "$@"
