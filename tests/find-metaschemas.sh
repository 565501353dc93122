#!/bin/sh
# tests/find-metaschemas.sh - tools/find-metaschemas.sh and tools/embed-metaschemas.sh on
# fake folders of both layouts (python3-jsonschema's of Debian 12, and
# python3-jsonschema-specifications' of later releases), made from the meta-schemas this
# machine has: each layout is found and embeds the same documents under the same URIs;
# an incomplete folder is passed over; no folder at all is an error naming the packages.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
find=$top/tools/find-metaschemas.sh
embed=$top/tools/embed-metaschemas.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok   find-metaschemas: $1"; }
bad() { echo "FAIL find-metaschemas: $1" >&2; fail=1; }

real=$(sh "$find") || { echo "FAIL find-metaschemas: no meta-schemas on this machine" >&2; exit 1; }
# Both fake layouts from the real one, whichever it is.
python3 - "${real%% *}" "${real#* }" "$t" <<'PY'
import json, os, shutil, sys
layout, src, t = sys.argv[1:]
drafts = [("draft4", "draft4"), ("draft6", "draft6"), ("draft7", "draft7"),
          ("draft2019-09", "draft201909"), ("draft2020-12", "draft202012")]
docs, vocabs = {}, {}
for flat, spec in drafts:
    p = f"{src}/{flat}.json" if layout == "jsonschema" else f"{src}/{spec}/metaschema.json"
    docs[flat] = open(p, "rb").read()
if layout == "jsonschema":
    vocabs = json.load(open(f"{src}/vocabularies.json"))
else:
    for _, spec in drafts[3:]:
        d = f"{src}/{spec}/vocabularies"
        for n in os.listdir(d):
            v = json.load(open(f"{d}/{n}"))
            vocabs[v["$id"]] = v
for base in ("flat", "py3.11/flat"):
    os.makedirs(f"{t}/{base}")
    for flat, _ in drafts:
        open(f"{t}/{base}/{flat}.json", "wb").write(docs[flat])
    json.dump(vocabs, open(f"{t}/{base}/vocabularies.json", "w"))
os.makedirs(f"{t}/spec")
for flat, spec in drafts:
    os.makedirs(f"{t}/spec/{spec}")
    open(f"{t}/spec/{spec}/metaschema.json", "wb").write(docs[flat])
for uri, v in vocabs.items():
    y = uri.split("/draft/")[1].split("/")[0]  # 2019-09
    if "hyper-schema" in uri:  # not in jsonschema-specifications
        continue
    d = f"{t}/spec/draft{y.replace('-', '')}/vocabularies"
    os.makedirs(d, exist_ok=True)
    json.dump(v, open(f"{d}/{uri.rsplit('/', 1)[1]}", "w"), indent=4)
# incomplete folders: one file missing in each layout
shutil.copytree(f"{t}/flat", f"{t}/flat-partial"); os.remove(f"{t}/flat-partial/vocabularies.json")
shutil.copytree(f"{t}/spec", f"{t}/spec-partial"); shutil.rmtree(f"{t}/spec-partial/draft202012/vocabularies")
PY

expect() { # NAME SEARCH WANTED
    got=$(METASCHEMA_SEARCH=$2 sh "$find" 2>"$t/err") || got="exit $?"
    [ "$got" = "$3" ] && ok "$1: $got" || bad "$1: got '$got', expected '$3'"
}
expect "Debian 12 layout" "$t/none $t/flat-partial $t/flat" "jsonschema $t/flat"
expect "jsonschema-specifications layout" "$t/none $t/spec-partial $t/spec" "specifications $t/spec"
expect "first of both" "$t/spec $t/flat" "specifications $t/spec"
expect "glob" "$t/py3.*/flat" "jsonschema $t/py3.11/flat"
got=$(sh "$find" "$t/spec" 2>/dev/null) && [ "$got" = "specifications $t/spec" ] && ok "a folder named: $got" || bad "a folder named: '$got'"
expect "none" "$t/none $t/flat-partial $t/spec-partial" "exit 1"
if grep -q 'install python3-jsonschema .*python3-jsonschema-specifications' "$t/err" && grep -q "$t/spec-partial" "$t/err"; then
    ok "none: the error names the folders and the packages"
else
    bad "none: the error does not name the folders and both packages:"; cat "$t/err" >&2
fi

# Both layouts embed the same documents under the same URIs, and compile.
sh "$embed" "$t/flat" "$t/flat.c" && sh "$embed" "$t/spec" "$t/spec.c" || bad "embed failed"
if sh "$embed" "$t/spec-partial" "$t/partial.c" 2>"$t/err"; then bad "embed of an incomplete folder succeeded"; else ok "embed refuses an incomplete folder: $(cat "$t/err")"; fi
for c in flat spec; do
    ${CC:-cc} -std=c11 -Wall -Werror -I"$top/src" -c "$t/$c.c" -o "$t/$c.o" && ok "$c layout: the generated C compiles" || bad "$c.c does not compile"
done
if python3 - "$t/flat.c" "$t/spec.c" <<'PY'
import json, re, sys
def docs(path):
    c = open(path).read()
    arrays = {m.group(1): bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", m.group(2)))
              for m in re.finditer(r"doc(\d+)\[\] = \{(.*?)\};", c, re.S)}
    out = {}
    for uri, n in re.findall(r'\{(NULL|"[^"]*"), doc(\d+), sizeof', c):
        j = json.loads(arrays[n])
        if uri == "NULL":
            out.update(j)
        else:
            out[uri.strip('"')] = j
    return out
a, b = docs(sys.argv[1]), docs(sys.argv[2])
a = {k: v for k, v in a.items() if "hyper-schema" not in k}
if a != b:
    print("differ:", sorted(set(a) ^ set(b)) or [k for k in a if a[k] != b.get(k)])
    sys.exit(1)
print(len(a), "documents")
PY
then ok "both layouts embed the same documents under the same URIs"; else bad "the layouts embed different documents"; fi
[ $fail = 0 ] && echo "find-metaschemas: all passed" || exit 1
