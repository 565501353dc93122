#!/bin/sh
# check-sizes.sh SRC - keep src/ in rooms a reader can take in (issue 27): no source file
# over 1,500 lines, and no folder over 30% of src/'s lines. A file that grows past the
# bound is split along its data (docs/architecture.md shows how rules/rule.c was); a
# folder that does is a stage that has become two.
set -u
src=${1:-src}
max_lines=1500
max_share=30
total=$(cat "$src"/*/*.c "$src"/*/*.h 2>/dev/null | wc -l)
if [ "$total" -eq 0 ]; then
    echo "check-sizes: FAIL: no source under $src/LAYER/"
    exit 1
fi
bad=0
for f in "$src"/*/*.c "$src"/*/*.h; do
    n=$(wc -l < "$f")
    if [ "$n" -gt "$max_lines" ]; then
        echo "$f: $n lines, over $max_lines: split it along its data (docs/architecture.md)"
        bad=$((bad + 1))
    fi
done
for d in "$src"/*/; do
    n=$(cat "$d"*.c "$d"*.h 2>/dev/null | wc -l)
    if [ $((n * 100)) -gt $((total * max_share)) ]; then
        echo "$d: $n of $total lines ($((n * 100 / total))%), over $max_share%: split the stage into rooms"
        bad=$((bad + 1))
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "check-sizes: FAIL: $bad file(s) or folder(s) too large"
    exit 1
fi
echo "check-sizes: ok (no file over $max_lines lines, no folder over $max_share% of $total lines)"
