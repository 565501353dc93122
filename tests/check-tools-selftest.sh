#!/bin/sh
# check-tools-selftest.sh [LIB [TOOL_LIB]] - the layout checks must fail on what they are
# there to catch: tools/check-layers.sh on a copy of src/ with an include against the layer
# order, one without a folder, one of our headers in angle brackets, and a file outside
# every layer; tools/check-sizes.sh on a file over 1,500 lines and a folder over 30% of the
# lines; tools/check-deps.sh on a copy of src/ and its objects (BUILD/src, next to
# LIB) with a tiny planted file compiled in: an upper layer's function reached through an
# angle-bracket include, or through a hand-written prototype, a file in a subfolder, and
# two files of one layer calling each other (a cycle), plus an allow-list entry that
# matches no cycle; tools/check-symbols.sh on the archives plus a global symbol without
# its file's prefix, one named for another file, and an exception no symbol uses. Prints
# ok/FAIL per case, then "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
expect_fail() { # NAME WANT-TEXT COMMAND...
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    if "$@" > "$tmp/out" 2>&1; then
        echo "FAIL $n $name: passed"
        failed=$((failed + 1))
    elif ! grep -qF -- "$want" "$tmp/out"; then
        echo "FAIL $n $name: no line with '$want':"
        sed 's/^/      | /' "$tmp/out" | head -5
        failed=$((failed + 1))
    else
        echo "ok $n $name"
    fi
}
plant() { # a fresh copy of src/, then FILE gets LINE appended
    rm -rf "$tmp/src" && cp -R src "$tmp/src" && printf '%s\n' "$2" >> "$tmp/src/$1"
}
plant base/util.c '#include "judge/eval.h"'
expect_fail "base includes judge" 'the base layer may include only: base' sh tools/check-layers.sh "$tmp/src"
plant capture/rpc.c '#include "doc/doc.h"'
expect_fail "capture includes doc" 'the capture layer may include only: base capture' sh tools/check-layers.sh "$tmp/src"
plant judge/eval.c '#include "lint.h"'
expect_fail "an include without its folder" 'names no layer folder' sh tools/check-layers.sh "$tmp/src"
plant judge/eval.c '#include <author/lint.h>'
expect_fail "an include of ours in angle brackets" '#include <author/lint.h>: one of our headers' sh tools/check-layers.sh "$tmp/src"
plant judge/eval.c ''
: > "$tmp/src/stray.c"
expect_fail "a file outside every layer" 'outside every layer' sh tools/check-layers.sh "$tmp/src"
# check-sizes: a file over 1,500 lines, and a folder over 30% of src/'s lines
rm -rf "$tmp/src" && cp -R src "$tmp/src" && awk 'BEGIN { for (i = 0; i < 1501; i++) print "/* planted */" }' > "$tmp/src/judge/planted_long.c"
expect_fail "a file over 1,500 lines" 'judge/planted_long.c: 1501 lines, over 1500' sh tools/check-sizes.sh "$tmp/src"
rm -rf "$tmp/src" && cp -R src "$tmp/src" && cat "$tmp"/src/*/*.c > "$tmp/all" && mkdir "$tmp/src/planted" &&
    split -l 1400 "$tmp/all" "$tmp/src/planted/part_" && for f in "$tmp"/src/planted/part_*; do mv "$f" "$f.c"; done
expect_fail "a folder over 30% of the lines" 'planted/:' sh tools/check-sizes.sh "$tmp/src"
n=$((n + 1))
if sh tools/check-layers.sh src > "$tmp/out" 2>&1 && sh tools/check-sizes.sh src >> "$tmp/out" 2>&1; then echo "ok $n the real tree passes"; else
    echo "FAIL $n the real tree:"; sed 's/^/      | /' "$tmp/out" | head; failed=$((failed + 1)); fi

# check-deps: a copy of src/ and of the objects (links to them), plus a planted file and
# its object; the planted C is compiled against the real headers.
lib=${1:-build/libmcpdesc.a}
toollib=${2:-$(dirname "$lib")/libmcpdesc-tools.a}
objs=$(dirname "$lib")/src
objs_abs=$(cd "$objs" && pwd) || exit 2
cc=${CC:-cc}
deps_plant() { # deps_plant LAYER/FILE.c C-TEXT...: a fresh copy, then each file and object
    rm -rf "$tmp/src" "$tmp/obj" && cp -R src "$tmp/src" && mkdir "$tmp/obj" || return 1
    for d in "$objs_abs"/*/; do
        l=$(basename "$d")
        mkdir "$tmp/obj/$l" && ln -s "$d"*.o "$tmp/obj/$l/" || return 1
    done
    while [ $# -ge 2 ]; do
        mkdir -p "$(dirname "$tmp/src/$1")" && printf '%s\n' "$2" > "$tmp/src/$1" || return 1
        case $1 in
        */*/*) ;; # a subfolder: the Makefile would not build it either
        *) $cc -std=c11 -D_GNU_SOURCE -Isrc ${SELFTEST_CFLAGS:-} -c "$tmp/src/$1" \
               -o "$tmp/obj/${1%.c}.o" || return 1 ;;
        esac
        shift 2
    done
}
deps() { sh tools/check-deps.sh "$tmp/src" "$tmp/obj" "${1:-tools/deps-allow.txt}"; }
n=$((n + 1))
if sh tools/check-deps.sh src "$objs" tools/deps-allow.txt > "$tmp/out" 2>&1; then
    echo "ok $n check-deps: the real tree passes"
else
    echo "FAIL $n check-deps on the real tree:"; sed 's/^/      | /' "$tmp/out" | head; failed=$((failed + 1))
fi
if deps_plant judge/planted.c '#include <author/lint.h>
int judge_planted(void);
int judge_planted(void) { return lint_rule_dir(".", NULL, NULL); }'; then
    expect_fail "check-deps: judge reaches author through <author/lint.h>" \
        'uses lint_rule_dir, defined in' deps
    expect_fail "check-layers: <author/lint.h> in angle brackets" \
        '#include <author/lint.h>: one of our headers' sh tools/check-layers.sh "$tmp/src"
else
    n=$((n + 1)); echo "FAIL $n could not plant the angle-bracket include"; failed=$((failed + 1))
fi
if deps_plant judge/planted.c 'int lint_rule_dir(const char *dir, const char *fixtures, void *out);
int judge_planted(void);
int judge_planted(void) { return lint_rule_dir(".", 0, 0); }'; then
    expect_fail "check-deps: a hand-written prototype of author's lint_rule_dir in judge" \
        'the judge layer may use only base schema doc resolve rules judge' deps
else
    n=$((n + 1)); echo "FAIL $n could not plant the prototype"; failed=$((failed + 1))
fi
deps_plant judge/sub/planted.c 'int judge_planted(void) { return 0; }'
expect_fail "check-deps: a file in a subfolder" 'judge/sub/planted.c: not in a layer folder' deps
if deps_plant doc/doc_planted_a.c 'int doc_planted_b(int);
int doc_planted_a(int);
int doc_planted_a(int i) { return i ? doc_planted_b(i - 1) : 0; }' \
    doc/doc_planted_b.c 'int doc_planted_a(int);
int doc_planted_b(int);
int doc_planted_b(int i) { return i ? doc_planted_a(i - 1) : 1; }'; then
    expect_fail "check-deps: two files of one layer calling each other" \
        'cycle of 2 files: doc/doc_planted_a.c doc/doc_planted_b.c' deps
    # the same cycle allowed: passes
    { cat tools/deps-allow.txt; echo 'doc/doc_planted_b.c doc/doc_planted_a.c'; } > "$tmp/allow"
    n=$((n + 1))
    if deps "$tmp/allow" > "$tmp/out" 2>&1; then echo "ok $n check-deps: an allowed cycle passes"; else
        echo "FAIL $n check-deps refused an allowed cycle:"; sed 's/^/      | /' "$tmp/out" | head -5
        failed=$((failed + 1))
    fi
else
    n=$((n + 1)); echo "FAIL $n could not plant the cycle"; failed=$((failed + 1))
fi
{ cat tools/deps-allow.txt; echo 'doc/doc.c doc/doc_json.c'; } > "$tmp/allow"
expect_fail "check-deps: an allowed cycle that is none" 'is not a cycle of the objects' \
    sh tools/check-deps.sh src "$objs" "$tmp/allow"

# check-symbols: the real archives plus one planted object each time
sym_plant() { # sym_plant MEMBER-STEM C-TEXT: a copy of the archives with MEMBER.o added
    printf '%s\n' "$2" > "$tmp/$1.c" && $cc -c "$tmp/$1.c" -o "$tmp/$1.o" &&
        cp "$lib" "$tmp/lib.a" && cp "$toollib" "$tmp/tools.a" && ar rcs "$tmp/lib.a" "$tmp/$1.o"
}
syms() { sh tools/check-symbols.sh "$tmp/lib.a" "$tmp/tools.a"; }
n=$((n + 1))
if sh tools/check-symbols.sh "$lib" "$toollib" > "$tmp/out" 2>&1; then
    echo "ok $n check-symbols: the real archives pass"
else
    echo "FAIL $n check-symbols on the real archives:"; sed 's/^/      | /' "$tmp/out" | head; failed=$((failed + 1))
fi
if sym_plant bad 'int leaked_global_counter;
int bad_fine(void) { return leaked_global_counter; }'; then
    expect_fail "an unprefixed global symbol" 'bad.o: leaked_global_counter: a global symbol starts with' syms
else
    n=$((n + 1)); echo "FAIL $n could not build the planted archive"; failed=$((failed + 1))
fi
if sym_plant doc_extra 'int doc_json_planted(void) { return 0; }'; then
    expect_fail "a symbol named for another file" 'doc_json_planted: named for doc_json.c, but defined in doc_extra.c' syms
else
    n=$((n + 1)); echo "FAIL $n could not build the planted archive"; failed=$((failed + 1))
fi
{ cat tools/symbols-allow.txt; echo 'symbol doc doc_never_defined'; } > "$tmp/symallow"
expect_fail "a symbol exception no symbol uses" '"symbol doc doc_never_defined" is used by no symbol' \
    env SYMBOLS_ALLOW="$tmp/symallow" sh tools/check-symbols.sh "$lib" "$toollib"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
