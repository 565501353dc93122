#!/bin/sh
# check-symbols.sh LIB... - every global symbol the libraries (or objects) define carries
# its own file's prefix (house style: prefix = file stem), so the library can be embedded
# without clashing with jansson's json_*, libyaml's yaml_* or the caller, and a reader
# finds a function in the file its name says. For a global symbol S (nm: T D B R ...)
# defined in FILE.o:
#   1. S starts with the first word of FILE's stem and "_" (rule_set.c: rule_...;
#      report_sarif.c: report_...), or is that word;
#   2. no other file's stem names S more closely than FILE's own stem does: OWN is the
#      longest leading run of FILE's words that S starts with (rule_set_load in
#      rule_set.c: rule_set); another file O (of any LIB) whose whole stem S starts with
#      (O, or O_...) and that is longer than OWN wins, and S belongs there (rule_set_load
#      may not be defined in rule_compile.c, doc_json_x not in doc.c nor doc_load.c).
# Exceptions: tools/symbols-allow.txt (SYMBOLS_ALLOW), one a line, with their reason:
#   prefix SHORT LONG   a symbol SHORT_x stands for LONG_x (lspf_ for lsp_features_)
#   symbol STEM ERE     STEM.o may define the symbols that match ^ERE$ as they are
# An exception that no symbol uses fails too, so the list shrinks as names are fixed.
set -eu
allow=${SYMBOLS_ALLOW:-$(dirname "$0")/symbols-allow.txt}
if [ ! -f "$allow" ]; then
    echo "check-symbols: FAIL: no $allow" >&2
    exit 1
fi
# nm (binutils) comes with the compiler; without it nothing would be checked: fail
if ! command -v nm > /dev/null 2>&1; then
    echo "check-symbols: FAIL: nm not found (install binutils)" >&2
    exit 1
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/check-symbols.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
# "LIB[MEMBER.o]: SYMBOL TYPE ..." (an object on its own: "PATH.o: SYMBOL TYPE ...")
nm -P -A "$@" > "$tmp" || exit 1
LC_ALL=C awk -v allowfile="$allow" -v libs="$*" '
function starts(s, p) { return s == p || index(s, p "_") == 1 }
BEGIN {
    while ((getline line < allowfile) > 0) {
        sub(/#.*/, "", line)
        na = split(line, a, " ")
        if (na == 0) continue
        if (a[1] == "prefix" && na == 3) { nshort++; short[nshort] = a[2]; long[nshort] = a[3] }
        else if (a[1] == "symbol" && na == 3) { nexc++; exstem[nexc] = a[2]; exre[nexc] = "^(" a[3] ")$" }
        else { print allowfile ": cannot read \"" line "\" (prefix SHORT LONG, or symbol STEM ERE)"; bad++ }
        entry[a[1] == "prefix" ? "p" nshort : "s" nexc] = a[1] " " a[2] " " a[3]
    }
    close(allowfile)
}
$3 ~ /^[A-TV-Z]$/ {
    m = $1
    sub(/:$/, "", m)
    if (m ~ /\]$/) { sub(/^.*\[/, "", m); sub(/\]$/, "", m) } else sub(/^.*\//, "", m)
    sub(/\.o$/, "", m)
    stem[m] = 1
    n++; file[n] = m; sym[n] = $2
}
END {
    if (n < 100) {
        print "check-symbols: FAIL: only " n " global symbols in " libs "; are they the libraries?"
        exit 1
    }
    for (i = 1; i <= n; i++) {
        f = file[i]; s = sym[i]
        ok = 0
        for (k = 1; k <= nexc; k++)
            if (exstem[k] == f && s ~ exre[k]) { used["s" k] = 1; ok = 1 }
        if (ok) continue
        t = s
        for (k = 1; k <= nshort; k++)
            if (starts(s, short[k])) { t = long[k] substr(s, length(short[k]) + 1); used["p" k] = 1 }
        w = f
        sub(/_.*/, "", w)
        if (!starts(t, w)) {
            print f ".o: " s ": a global symbol starts with its file\047s stem, " w "_ here (rename it, or move it to the file it is named for)"
            bad++
            continue
        }
        nw = split(f, part, "_")
        own = ""; p = ""
        for (j = 1; j <= nw; j++) {
            p = p (j > 1 ? "_" : "") part[j]
            if (starts(t, p)) own = p
        }
        best = own
        for (o in stem)
            if (o != f && length(o) > length(best) && starts(t, o)) best = o
        if (best != own) {
            print f ".o: " s ": named for " best ".c, but defined in " f ".c (move it to " best ".c, or rename it " own "_...)"
            bad++
        }
    }
    for (e in entry)
        if (!(e in used)) {
            print allowfile ": \"" entry[e] "\" is used by no symbol any more: remove it"
            bad++
        }
    if (bad) {
        print "check-symbols: FAIL: " bad " global symbol(s) of " libs " not named for their file (house style: prefix = file stem; " allowfile " lists the exceptions)"
        exit 1
    }
    print "check-symbols: ok (" n " symbols, each named for its file)"
}' "$tmp"
