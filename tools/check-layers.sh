#!/bin/sh
# check-layers.sh SRC - every #include "..." of a file in SRC/LAYER/ names a header of a
# layer LAYER may use (docs/architecture.md), by its folder ("judge/eval.h"):
#   base     base                          buffers, strings, JSON Pointers, version masks
#   schema   base schema                   the JSON Schema engine
#   doc      base doc                      the document model and its JSON and YAML loaders
#   resolve  base doc resolve              versions, $componentRef, selectors
#   rules    ... resolve rules             the rule program: set, compiler, predicates, tags
#   judge    ... rules judge               run a program over a document; the embedding API
#   findings ... judge findings            reports, baseline, fingerprints, suppress, config, fix
#   author   ... findings author           lint and rule pages
#   capture  base capture                  the MCP client
#   lsp      ... author lsp                the language server and its features
#   cli      everything                    the command line
# A header without a folder, or of a layer not allowed, fails with file:line. So do a file
# directly in SRC (outside every layer) and a layer folder this script does not know.
set -u
src=${1:-src}
allowed() {
    case $1 in
    base) echo "base" ;;
    schema) echo "base schema" ;;
    doc) echo "base doc" ;;
    resolve) echo "base doc resolve" ;;
    rules) echo "base schema doc resolve rules" ;;
    judge) echo "base schema doc resolve rules judge" ;;
    findings) echo "base schema doc resolve rules judge findings" ;;
    author) echo "base schema doc resolve rules judge findings author" ;;
    capture) echo "base capture" ;;
    lsp) echo "base schema doc resolve rules judge findings author lsp" ;;
    cli) echo "base schema doc resolve rules judge findings author capture lsp cli" ;;
    *) return 1 ;;
    esac
}
bad=0
files=0
for f in "$src"/*; do
    [ -f "$f" ] || continue
    echo "$f: outside every layer (move it into one of the layer folders: tools/check-layers.sh lists them)"
    bad=$((bad + 1))
done
for dir in "$src"/*/; do
    layer=$(basename "$dir")
    if ! ok=$(allowed "$layer"); then
        echo "$dir: not a known layer (tools/check-layers.sh lists them)"
        bad=$((bad + 1))
        continue
    fi
    for f in "$dir"*.c "$dir"*.h; do
        [ -f "$f" ] || continue
        files=$((files + 1))
        # "N:header" for every quoted include (system headers <...> are not ours)
        out=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
              sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1:\2/') || true
        for e in $out; do
            line=${e%%:*}
            h=${e#*:}
            case $h in
            */*) to=${h%%/*} ;;
            *) echo "$f:$line: #include \"$h\" names no layer folder (write \"LAYER/$h\")"
               bad=$((bad + 1)); continue ;;
            esac
            case " $ok " in
            *" $to "*) ;;
            *) echo "$f:$line: #include \"$h\": the $layer layer may include only: $ok"
               bad=$((bad + 1)) ;;
            esac
        done
    done
done
if [ "$files" -eq 0 ]; then
    echo "check-layers: FAIL: no source file under $src/LAYER/"
    exit 1
fi
if [ "$bad" -ne 0 ]; then
    echo "check-layers: FAIL: $bad include(s) against the layer order"
    exit 1
fi
echo "check-layers: ok ($files files, layers base < schema < doc < resolve < rules < judge < findings < author < lsp; capture on base; cli on all)"
