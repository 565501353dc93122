#!/bin/sh
# test-install.sh - `make install PREFIX=<temporary>` from a fresh build tree, then use
# what was installed the way a user would: the binary finds its rules without --rules
# (also after the prefix is moved), every release is installed and the default rule set
# is the release of the manifest's tag, each with its findings record and changes log
# beside it; with the checkout out of reach (the prefix moved, run from an empty
# directory) `validate --rules-tag`, `rules explain`, `rules test`, `rules docs
# --rules-tag` and `rules changes` work; `man` renders the page, bash loads the completion,
# tests/embed/example.c builds through pkg-config against the installed library and
# validates tests/embed/fixture.json (run under the sanitizers when the build uses them);
# last, `make uninstall` leaves the prefix empty.
# Environment (from mk/install.mk): MAKE, BUILD, EMBED_CC, EMBED_CFLAGS, EMBED_LDFLAGS.
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${MAKE:=make}" "${BUILD:=build}" "${EMBED_CC:=cc}" "${EMBED_CFLAGS:=-O2 -g}" "${EMBED_LDFLAGS:=}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
prefix=$tmp/prefix
fail=0
ok() { echo "ok test-install: $1"; }
bad() { echo "FAIL test-install: $1"; fail=1; }

# 1. install from scratch (a separate build tree compiled for this PREFIX)
if ! $MAKE --no-print-directory BUILD="$BUILD/install-test" PREFIX="$prefix" install \
        > "$tmp/make.log" 2>&1; then
    tail -n 30 "$tmp/make.log"
    echo "FAIL test-install: make install PREFIX=$prefix"
    exit 1
fi
for f in bin/mcpdesc lib/libmcpdesc.a include/mcpdesc.h lib/pkgconfig/mcpdesc.pc \
         share/man/man1/mcpdesc.1 share/bash-completion/completions/mcpdesc \
         share/mcpdesc/rules/manifest.yaml; do
    [ -f "$prefix/$f" ] || bad "not installed: $f"
done

# every release, intact; the default rule set is the release of the manifest's tag
rel=share/mcpdesc/releases
for d in rules-yaml/releases/*@*/; do
    id=$(basename "$d")
    if [ ! -f "$prefix/$rel/$id/rules/SHA256SUMS" ]; then
        bad "not installed: $rel/$id"
    elif ! (cd "$prefix/$rel/$id/rules" && sha256sum -c --quiet SHA256SUMS) > "$tmp/sums" 2>&1; then
        bad "$rel/$id: sha256sum -c SHA256SUMS: $(head -n 3 "$tmp/sums")"
    elif ! diff -r "$d" "$prefix/$rel/$id" > /dev/null; then
        bad "$rel/$id differs from rules-yaml/releases/$id"
    fi
done
# beside each release, its findings record and changes log (rules changes prints them)
for f in rules-yaml/releases/*@*.findings rules-yaml/releases/*@*.changes; do
    if ! cmp -s "$f" "$prefix/$rel/$(basename "$f")"; then
        bad "not installed as it is: $rel/$(basename "$f")"
    fi
done
name=$(sed -n 's/^name:[[:space:]]*//p' rules-yaml/manifest.yaml | head -n 1)
tag=$(sed -n 's/^tag:[[:space:]]*//p' rules-yaml/manifest.yaml | head -n 1)
link=$(readlink "$prefix/share/mcpdesc/rules")
if [ "$link" = "releases/$name@$tag/rules" ]; then
    ok "share/mcpdesc/rules -> $link, and every release is installed"
else
    bad "share/mcpdesc/rules is not a link to releases/$name@$tag/rules: '${link:-not a link}'"
fi

# 2. the installed binary finds its rule set without --rules, from anywhere
fixture=$(pwd)/tests/embed/fixture.json
run_bin() { (cd "$tmp" && env -u MCPDESC_RULES "$1" validate --format json "$fixture"); }
if run_bin "$prefix/bin/mcpdesc" > "$tmp/out.json" 2> "$tmp/err"; then
    bad "installed binary: exit 0 on a fixture with an error"
elif grep -q '"mcp.tool.input-schema.object-root"' "$tmp/out.json"; then
    ok "installed binary finds $prefix/share/mcpdesc/rules"
else
    bad "installed binary: $(head -c 300 "$tmp/err")"
fi
mv "$prefix" "$tmp/moved"
run_bin "$tmp/moved/bin/mcpdesc" > "$tmp/out2.json" 2> "$tmp/err"
if grep -q '"mcp.tool.input-schema.object-root"' "$tmp/out2.json"; then
    ok "a moved prefix still finds its rules (../share/mcpdesc/rules)"
else
    bad "moved prefix: $(head -c 300 "$tmp/err")"
fi
# with the checkout out of reach: the prefix moved (nothing at the PREFIX compiled in),
# run from an empty directory, no MCPDESC_RULES or MCPDESC_RULES_PATH
mkdir "$tmp/work"
cp "$fixture" "$tmp/work/fixture.json"
away() { (cd "$tmp/work" && env -u MCPDESC_RULES -u MCPDESC_RULES_PATH "$tmp/moved/bin/mcpdesc" "$@"); }
away validate --rules-tag v0.9.0-rc.3 --format text fixture.json > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" -eq 1 ] && grep -q 'mcpdesc-mcp v0\.9\.0-rc\.3 ' "$tmp/out"; then
    ok "away from the checkout: validate --rules-tag v0.9.0-rc.3 runs the installed release"
else
    bad "away: validate --rules-tag v0.9.0-rc.3: exit $status: $(tail -n 2 "$tmp/out") $(head -c 300 "$tmp/err")"
fi
if away rules explain mcp.tool.name.charset > "$tmp/out" 2> "$tmp/err"; then
    ok "away from the checkout: rules explain mcp.tool.name.charset"
else
    bad "away: rules explain mcp.tool.name.charset: $(head -c 300 "$tmp/err")"
fi
if away rules test > "$tmp/out" 2> "$tmp/err"; then
    ok "away from the checkout: rules test ($(tail -n 1 "$tmp/out"))"
else
    bad "away: rules test: $(grep FAIL "$tmp/out" | head -n 3) $(head -c 300 "$tmp/err")"
fi
# shellcheck disable=SC2016 # the backquotes are Markdown's
if away rules docs --rules-tag v0.9.0-rc.3 --out "$tmp/docs" > "$tmp/out" 2> "$tmp/err" &&
        grep -qF '`tool.yaml` at immutable tag `v0.9.0-rc.3`' "$tmp/docs/mcp.tool.name.charset.md"; then
    ok "away from the checkout: rules docs --rules-tag v0.9.0-rc.3 renders the tag's pages"
else
    bad "away: rules docs --rules-tag v0.9.0-rc.3: $(head -c 300 "$tmp/err")"
fi
if away rules changes v0.9.0-rc.3 > "$tmp/out" 2> "$tmp/err" &&
        grep -q '^findings recorded with: mcpdesc ' "$tmp/out" &&
        grep -q '^## .*, mcpdesc [0-9]' "$tmp/out" &&
        grep -qF "/share/mcpdesc/releases/mcpdesc-mcp@v0.9.0-rc.3.changes" "$tmp/out"; then
    ok "away from the checkout: rules changes v0.9.0-rc.3 prints the installed log and record"
else
    bad "away: rules changes v0.9.0-rc.3: $(head -c 300 "$tmp/out") $(head -c 300 "$tmp/err")"
fi
# decoys: a rules-yaml/ inside, beside and above the prefix is some checkout or work
# folder, never the installed program's rules (only build/mcpdesc of a tree reads its
# tree); each decoy names its set decoy-set, so a report naming it shows the leak
mkdir -p "$tmp/x/y"
mv "$tmp/moved" "$tmp/x/y/moved"
for d in "$tmp/x/y/moved" "$tmp/x/y" "$tmp/x"; do
    mkdir -p "$d/rules-yaml/releases" && cp rules-yaml/*.yaml "$d/rules-yaml/" &&
        sed -i 's/^name: .*/name: decoy-set/' "$d/rules-yaml/manifest.yaml" &&
        cp -R rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.3 "$d/rules-yaml/releases/" &&
        sed -i 's/^name: .*/name: decoy-set/' "$d/rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.3/rules/manifest.yaml"
done
decoyed() { (cd "$tmp/work" && env -u MCPDESC_RULES -u MCPDESC_RULES_PATH "$tmp/x/y/moved/bin/mcpdesc" "$@"); }
decoyed validate --format text fixture.json > "$tmp/out" 2> "$tmp/err"
if grep -q "^rules: $name $tag " "$tmp/out" && ! grep -q decoy "$tmp/out" "$tmp/err"; then
    ok "rules-yaml/ decoys inside, beside and above the prefix: the installed set runs"
else
    bad "decoys: validate ran another set: $(tail -n 2 "$tmp/out") $(head -c 300 "$tmp/err")"
fi
decoyed validate --rules-tag v0.9.0-rc.3 --format text fixture.json > "$tmp/out" 2> "$tmp/err"
if grep -q '^rules: mcpdesc-mcp v0\.9\.0-rc\.3 ' "$tmp/out" && ! grep -q decoy "$tmp/out" "$tmp/err"; then
    ok "decoys: --rules-tag v0.9.0-rc.3 runs the installed release, not a decoy's"
else
    bad "decoys: --rules-tag v0.9.0-rc.3: $(tail -n 2 "$tmp/out") $(head -c 300 "$tmp/err")"
fi
if decoyed rules test > "$tmp/out" 2> "$tmp/err"; then
    ok "decoys: rules test judges the installed set ($(tail -n 1 "$tmp/out"))"
else
    bad "decoys: rules test: $(grep FAIL "$tmp/out" | head -n 3) $(head -c 300 "$tmp/err")"
fi
rm -rf "$tmp/x/y/moved/rules-yaml" "$tmp/x/y/rules-yaml" "$tmp/x/rules-yaml"
# the installed release re-hashed in place (a rule edited, its SHA256SUMS line rewritten):
# refused, naming the file; then restored for what follows
inst=$tmp/x/y/moved/share/mcpdesc/releases
cp -R "$inst/mcpdesc-mcp@v0.9.0-rc.3" "$tmp/rc3.orig"
(cd "$inst" && rm -rf mcpdesc-mcp@v0.9.0-rc.3 &&
    ROOT=$(cd "$OLDPWD" && pwd) sh "$OLDPWD/tests/data/releases/tamper.sh" mcpdesc-mcp@v0.9.0-rc.3 mcpdesc-mcp@v0.9.0-rc.3) \
    > "$tmp/tamper.log" 2>&1 || bad "could not re-hash the installed rc.3: $(head -c 300 "$tmp/tamper.log")"
decoyed validate --rules-tag v0.9.0-rc.3 fixture.json > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" -eq 2 ] && grep -q 'tool.yaml: differs from the release' "$tmp/err"; then
    ok "a re-hashed installed release is refused (exit 2, naming tool.yaml)"
else
    bad "re-hashed installed rc.3: exit $status: $(head -c 300 "$tmp/err")"
fi
rm -rf "${inst:?}/mcpdesc-mcp@v0.9.0-rc.3" && mv "$tmp/rc3.orig" "$inst/mcpdesc-mcp@v0.9.0-rc.3"
mv "$tmp/x/y/moved" "$prefix"

# the language server of the installed binary finds `extends: NAME@TAG` in the installed
# releases: an org rule file shows its own mistake at its line (Neovim; a counted skip
# without nvim)
if sh tests/editor/neovim-org.sh "$prefix/bin/mcpdesc" > "$tmp/nvim.out" 2>&1; then
    ok "Neovim: $(tail -n 1 "$tmp/nvim.out")"
else
    bad "Neovim, installed mcpdesc lsp on an org rule file: $(tail -n 12 "$tmp/nvim.out")"
fi

# 3. man page and completion
if command -v man > /dev/null 2>&1; then
    if MANWIDTH=80 man -l "$prefix/share/man/man1/mcpdesc.1" 2> "$tmp/err" | grep -q 'fail-on'; then
        ok "man -l renders the installed page"
    else
        bad "man page does not render: $(head -c 300 "$tmp/err")"
    fi
else
    . tests/skip.sh
    test_skip test-install "man -l on the installed page" "man not found; make deps installs man-db" ||
        bad "man page not checked"
fi
if command -v bash > /dev/null 2>&1; then
    got=$(bash -c '. "$1"; COMP_WORDS=(mcpdesc validate --fo); COMP_CWORD=2; _mcpdesc; echo "${COMPREPLY[*]}"' \
          sh "$prefix/share/bash-completion/completions/mcpdesc" 2>&1)
    if [ "$got" = "--format" ]; then ok "bash completion completes --fo to --format"
    else bad "bash completion of 'mcpdesc validate --fo': '$got'"; fi
fi

# 4. the example, built through pkg-config against the installed library only
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
if ! flags=$(pkg-config --cflags --libs mcpdesc 2> "$tmp/err"); then
    bad "pkg-config mcpdesc: $(cat "$tmp/err")"
    exit 1
fi
# shellcheck disable=SC2086
if ! $EMBED_CC -std=c11 -Wall -Wextra -Werror $EMBED_CFLAGS -o "$tmp/example" tests/embed/example.c \
        $EMBED_LDFLAGS $flags > "$tmp/cc.log" 2>&1; then
    cat "$tmp/cc.log"
    bad "example does not build with: $flags"
    exit 1
fi
ok "example builds with pkg-config --cflags --libs mcpdesc"
# The embeddable library is the validator: no MCP client, so no curl to link.
case " $flags " in
*curl*) bad "pkg-config --libs mcpdesc names curl: $flags" ;;
*) if nm -u "$prefix/lib/libmcpdesc.a" 2>/dev/null | grep -q 'curl_'; then
       bad "libmcpdesc.a refers to curl symbols"
   elif ! command -v nm > /dev/null 2>&1; then
       bad "nm not found: cannot check libmcpdesc.a for curl"
   else
       ok "the example links without curl (pkg-config and libmcpdesc.a)"
   fi ;;
esac
# No --rules: the library's default is the rule set of the prefix it was built for.
(cd tests/embed && env -u MCPDESC_RULES "$tmp/example" fixture.json) > "$tmp/example.out" 2> "$tmp/err"
status=$?
# Every line of tests/embed/expected must be there, in that order, messages cut off
# (their wording belongs to the rule set, and rules added later may add lines).
sed 's/^\([^ ]* [^ ]* [^ ]* [^ ]*\): .*$/\1/' "$tmp/example.out" > "$tmp/example.cut"
missing=$(awk 'NR == FNR { got[++n] = $0; next }
               { while (i < n && got[++i] != $0) {} if (got[i] != $0) { print; exit } }' \
          "$tmp/example.cut" tests/embed/expected)
if ! head -n 1 "$tmp/example.out" | grep -q '^mcpdesc [0-9][^ ]*, rules '; then
    missing="mcpdesc VERSION, rules TAG (first line)"
fi
if [ "$status" -eq 1 ] && [ -z "$missing" ]; then
    ok "example validates the fixture (exit 1, expected diagnostics)"
else
    bad "example: exit $status (expected 1); missing line: '$missing'; output:"
    sed 's/^/      | /' "$tmp/example.out" "$tmp/err"
fi

# A release by tag through the library, pinned to its digest, from the installed releases;
# another digest is refused (mcpdesc_rules_load_tag)
pin=$(sha256sum rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.3/rules/SHA256SUMS | cut -c1-64)
(cd tests/embed && env -u MCPDESC_RULES -u MCPDESC_RULES_PATH "$tmp/example" \
    --rules-tag "mcpdesc-mcp@v0.9.0-rc.3@sha256:$pin" fixture.json) > "$tmp/tag.out" 2> "$tmp/err"
status=$?
if [ "$status" -eq 1 ] && head -n 1 "$tmp/tag.out" | grep -q ', rules v0\.9\.0-rc\.3$'; then
    ok "example --rules-tag mcpdesc-mcp@v0.9.0-rc.3@sha256:... loads the installed release"
else
    bad "example --rules-tag (pinned rc.3): exit $status: $(head -n 1 "$tmp/tag.out") $(head -c 300 "$tmp/err")"
fi
(cd tests/embed && env -u MCPDESC_RULES -u MCPDESC_RULES_PATH "$tmp/example" \
    --rules-tag "mcpdesc-mcp@v0.9.0-rc.3@sha256:$(echo "$pin" | tr 0-9a-f 1-9a-f0)" fixture.json) \
    > "$tmp/tag.out" 2> "$tmp/err"
status=$?
if [ "$status" -eq 2 ] && grep -q 'not the pinned' "$tmp/err"; then
    ok "example --rules-tag with another digest is refused"
else
    bad "example --rules-tag (wrong digest): exit $status: $(head -c 300 "$tmp/err")"
fi

# 5. uninstall removes everything install put there: an empty prefix again
if ! $MAKE --no-print-directory BUILD="$BUILD/install-test" PREFIX="$prefix" uninstall \
        > "$tmp/make.log" 2>&1; then
    tail -n 30 "$tmp/make.log"
    bad "make uninstall PREFIX=$prefix"
fi
left=$(cd "$prefix" && find . -mindepth 1 | sort | head -n 10 | tr '\n' ' ')
if [ -z "$left" ]; then
    ok "make uninstall leaves the prefix empty"
else
    bad "make uninstall left: $left"
fi
[ "$fail" -eq 0 ] && echo "test-install: passed" || echo "test-install: FAILED"
exit "$fail"
