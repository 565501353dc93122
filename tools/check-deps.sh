#!/bin/sh
# check-deps.sh SRC OBJDIR [ALLOW] - the layer order and the absence of cycles, computed
# from what the objects really link against (nm), not from what the sources #include:
# an angle-bracket include (#include <author/lint.h>), a hand-written prototype of an
# upper layer's function, or a call through any other back door shows here.
#
# Every .c file under SRC must sit directly in a layer folder, SRC/LAYER/FILE.c (a file
# in SRC itself or in a subfolder is not built by the Makefile, and fails), and its
# object OBJDIR/LAYER/FILE.o must exist (build first). From each object's defined global
# symbols (nm: T D B R ...) and undefined ones (U), A.o depends on B.o when A uses a
# symbol B defines. The check fails when
#   - A's layer may not use B's layer (tools/layers.txt, the table tools/check-layers.sh
#     reads too): the message names both files and one symbol;
#   - the files form a cycle (a strongly connected component of more than one file, in
#     any layer or across layers), unless ALLOW (tools/deps-allow.txt) lists exactly that
#     component; every cycle is printed with the calls that close it. An ALLOW entry that
#     matches no cycle fails too, so the list shrinks when a cycle is broken.
# ALLOW: one component a line, its files as LAYER/FILE.c in any order; '#' starts a comment
# (the reason goes there, above the entry).
set -u
src=${1:-src}
objdir=${2:-build/src}
allow=${3:-$(dirname "$0")/deps-allow.txt}
table=${LAYERS_TABLE:-$(dirname "$0")/layers.txt}
for f in "$table" "$allow"; do
    if [ ! -f "$f" ]; then
        echo "check-deps: FAIL: no $f" >&2
        exit 1
    fi
done
if ! command -v nm > /dev/null 2>&1; then
    echo "check-deps: FAIL: nm not found (install binutils)" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The sources, as LAYER/FILE.c; each one's place is checked in the awk program below.
(cd "$src" && find . -name '*.c' -type f) | sed 's|^\./||' | LC_ALL=C sort > "$tmp/files"
if [ ! -s "$tmp/files" ]; then
    echo "check-deps: FAIL: no .c file under $src" >&2
    exit 1
fi
# The objects of the files in a layer folder (others fail below, without nm).
: > "$tmp/objs"
while IFS= read -r f; do
    case $f in
    */*/*) ;;
    */*) [ -f "$objdir/${f%.c}.o" ] && echo "$objdir/${f%.c}.o" >> "$tmp/objs" ;;
    esac
done < "$tmp/files"
# "OBJECT: SYMBOL TYPE ..." for every symbol of every object (POSIX format, one line each)
if [ -s "$tmp/objs" ]; then
    # shellcheck disable=SC2046
    nm -P -A $(cat "$tmp/objs") > "$tmp/nm" || {
        echo "check-deps: FAIL: nm could not read the objects under $objdir" >&2
        exit 1
    }
else
    : > "$tmp/nm"
fi

LC_ALL=C awk -v filesfile="$tmp/files" -v src="$src" -v objdir="$objdir" -v allowfile="$allow" -v table="$table" '
function fail(msg) { print msg; bad++ }
function isort(a, n,   i, j, t) { # sort a[1..n] as strings
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function canon(s,   a, n, i, out) { # "x z y" -> "x y z"
    n = split(s, a, " ")
    isort(a, n)
    out = ""
    for (i = 1; i <= n; i++) out = out (i > 1 ? " " : "") a[i]
    return out
}
# Tarjan: the strongly connected components of the dependency graph.
function strong(v,   i, w) {
    idx[v] = low[v] = nidx++
    stk[++sp] = v
    onstk[v] = 1
    for (i = 1; i <= nadj[v]; i++) {
        w = adj[v, i]
        if (!(w in idx)) {
            strong(w)
            if (low[w] < low[v]) low[v] = low[w]
        } else if (onstk[w] && idx[w] < low[v])
            low[v] = idx[w]
    }
    if (low[v] == idx[v]) {
        ncm = 0
        do {
            w = stk[sp--]
            onstk[w] = 0
            cm[++ncm] = w
        } while (w != v)
        if (ncm > 1) {
            isort(cm, ncm)
            comps[++ncomps] = cm[1]
            for (i = 2; i <= ncm; i++) comps[ncomps] = comps[ncomps] " " cm[i]
            compsize[ncomps] = ncm
        }
    }
}
BEGIN {
    while ((getline line < table) > 0) {
        sub(/#.*/, "", line)
        if (split(line, a, " ") == 0) continue
        layer = a[1]
        sub(/^[ \t]*[^ \t]+[ \t]*/, "", line)
        sub(/[ \t]+$/, "", line)
        may[layer] = line
    }
    close(table)
    nallow = 0
    while ((getline line < allowfile) > 0) {
        sub(/#.*/, "", line)
        if (split(line, a, " ") == 0) continue
        allowed[canon(line)] = 1
        allowline[++nallow] = canon(line)
    }
    close(allowfile)
    # the sources and their places
    nfiles = 0
    while ((getline f < filesfile) > 0) {
        n = split(f, p, "/")
        if (n != 2) {
            fail(src "/" f ": not in a layer folder (a layer\047s files sit directly in " src "/LAYER/, which the Makefile builds; move it there, named by its module)")
            continue
        }
        if (!(p[1] in may)) {
            fail(src "/" f ": " p[1] "/ is not a known layer (add it to tools/layers.txt, the Makefile and docs/architecture.md, or move the file into a layer)")
            continue
        }
        o = objdir "/" substr(f, 1, length(f) - 2) ".o"
        if ((getline junk < o) < 0) {
            fail(src "/" f ": no object " o " (build first: make; a layer folder the Makefile does not build has none: LIB_LAYERS, TOOL_SRCS, CLI_SRCS)")
            continue
        }
        close(o)
        layerof[f] = p[1]
        order[++nfiles] = f
    }
}
# nm -P -A: "OBJDIR/LAYER/FILE.o: SYMBOL TYPE [VALUE SIZE]"
{
    o = substr($1, length(objdir) + 2)
    f = substr(o, 1, length(o) - 3) ".c"
    if ($3 == "U") uses[f, ++nuses[f]] = $2
    else if ($3 ~ /^[A-TV-Z]$/) {
        if (($2 in def) && def[$2] != f)
            fail(src "/" f ": defines " $2 ", already defined by " src "/" def[$2] " (keep one)")
        else def[$2] = f
    }
}
END {
    nedges = 0
    for (k = 1; k <= nfiles; k++) {
        a1 = order[k]
        for (i = 1; i <= nuses[a1]; i++) {
            s = uses[a1, i]
            if (!(s in def)) continue
            b = def[s]
            if (b == a1) continue
            if ((a1, b) in sym) {
                if (s < sym[a1, b]) sym[a1, b] = s
                nsym[a1, b]++
                continue
            }
            sym[a1, b] = s
            nsym[a1, b] = 1
            adj[a1, ++nadj[a1]] = b
            nedges++
        }
    }
    # the layer order
    for (k = 1; k <= nfiles; k++) {
        a1 = order[k]
        la = layerof[a1]
        for (i = 1; i <= nadj[a1]; i++) {
            b = adj[a1, i]
            lb = layerof[b]
            if (index(" " may[la] " ", " " lb " ")) continue
            more = nsym[a1, b] > 1 ? " (and " (nsym[a1, b] - 1) " more)" : ""
            fail(src "/" a1 " uses " sym[a1, b] more ", defined in " src "/" b ": the " la " layer may use only " may[la] " (tools/layers.txt). Move the function down to a layer " la " may use, or make the call from the " lb " layer or above")
        }
    }
    # the cycles
    nidx = 0; sp = 0; ncomps = 0
    for (k = 1; k <= nfiles; k++)
        if (!(order[k] in idx)) strong(order[k])
    isort(comps, ncomps)
    nallowed = 0
    for (c = 1; c <= ncomps; c++) {
        n = split(comps[c], m, " ")
        if (comps[c] in allowed) {
            print "allowed cycle of " n " files (" allowfile "): " comps[c]
            seenallow[comps[c]] = 1
            nallowed++
            continue
        }
        print "cycle of " n " files: " comps[c]
        for (i = 1; i <= n; i++) inc[m[i]] = c
        for (i = 1; i <= n; i++)
            for (j = 1; j <= nadj[m[i]]; j++) {
                b = adj[m[i], j]
                if (inc[b] == c)
                    print "  " src "/" m[i] " uses " sym[m[i], b] " of " src "/" b
            }
        fail("  break it: move the function to the file it belongs to, or split the file that is both the front door and the toolbox; a recursion that is the design goes in " allowfile " with its reason")
    }
    for (i = 1; i <= nallow; i++)
        if (!(allowline[i] in seenallow))
            fail(allowfile ": the allowed cycle \"" allowline[i] "\" is not a cycle of the objects (any more): remove or update the entry")
    if (bad) {
        print "check-deps: FAIL: " bad " problem(s) in the dependencies of " src "/ (" nfiles " objects)"
        exit 1
    }
    printf "check-deps: ok (%d objects, %d file dependencies, layers as tools/layers.txt, %d allowed cycle(s) of %s)\n", nfiles, nedges, nallowed, allowfile
}' "$tmp/nm"
