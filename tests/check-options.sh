#!/bin/sh
# check-options.sh [BINARY] - the options of every command and subcommand agree in the
# four places that list them, so none falls behind:
#   help  `mcpdesc CMD [SUB] --help`: the option lines of its table (indented 2 to 6
#         spaces, starting with -), the part before the description
#   man   docs/mcpdesc.1: the command's SYNOPSIS entry (.B mcpdesc CMD [SUB] ... .br);
#         an entry that says [options] adds the .TP tags of the section CMD OPTIONS or
#         CMD COMMAND
#   comp  tools/mcpdesc.bash-completion, run in bash: what _mcpdesc offers for
#         `mcpdesc CMD [SUB] -<TAB>`
#   c     the option tables of src/cli (the did-you-mean lists): validate's options[],
#         baseline write's = validate's less report_options[], diff's = validate's
#         less those diff_check_options refuses (src/cli/cmd_diff.c: the options of its
#         refused[] table and of its "--baseline does not apply" message), fix's options[] plus
#         validate's less report_options[] and --stdin-filepath, schema's
#         validate_options[] and check_options[], capture's options[], lsp's options[],
#         rules' subs[], rules init's options[] (cmd_rules_init.c)
# --help and -h are left out (every command takes them). Each option missing from one
# place is one FAIL line; so is one the command's parser answers with "unknown option"
# (run as `mcpdesc CMD [SUB] OPTION` in an empty directory, standard input empty). Then the completion itself: without extglob, file names with
# spaces complete whole, validate offers only descriptions (and directories).
# Without bash the completion is skipped (tests/skip.sh) and the other three compared.
set -u
BIN=${1:-build/mcpdesc}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/skip.sh"
MAN=${MCPDESC_MAN:-$ROOT/docs/mcpdesc.1}
COMP=${MCPDESC_COMPLETION:-$ROOT/tools/mcpdesc.bash-completion}
SRC=${MCPDESC_CLI_SRC:-$ROOT/src/cli}
KEYS="validate|diff|baseline write|fix|capture|lsp|schema validate|schema check|rules init|rules list|rules explain|rules dump|rules lint|rules test|rules docs|rules diff|rules lock|rules pack|rules pin"
# (rules changes takes no option but --help: nothing to compare; its completion is run below)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
: > "$tmp/all"

# KEY<TAB>OPTION lines from each place, into $tmp/all as SOURCE<TAB>KEY<TAB>OPTION
IFS='|'
for key in $KEYS; do
    IFS=' '
    # shellcheck disable=SC2086
    "$BIN" $key --help 2>&1 | awk -v key="$key" '
        /^  ( |  |   |    )?-/ {
            s = $0; sub(/^ +/, "", s); i = index(s, "  "); if (i) s = substr(s, 1, i - 1)
            gsub(/[],[|]/, " ", s); n = split(s, f, " ")
            for (k = 1; k <= n; k++) if (f[k] ~ /^--?[A-Za-z][A-Za-z-]*$/) print "help\t" key "\t" f[k]
        }' >> "$tmp/all"
    IFS='|'
done
IFS=' '

awk '
    function opts(s, key, src,   n, f, k) {
        gsub(/[],[|]/, " ", s); n = split(s, f, " ")
        for (k = 1; k <= n; k++) if (f[k] ~ /^--?[A-Za-z][A-Za-z-]*$/) print src "\t" key "\t" f[k]
    }
    { gsub(/\\f[BIRP]/, ""); gsub(/\\-/, "-"); gsub(/"/, "") }
    /^\.SH / { sec = substr($0, 5); entry = ""; tag = 0; next }
    sec == "SYNOPSIS" && /^\.br/ { entry = ""; next }
    sec == "SYNOPSIS" && /^\.B mcpdesc / {
        entry = ""; rest = ""
        for (k = 3; k <= NF; k++) {
            if (rest == "" && $k !~ /^-/) entry = entry (entry == "" ? "" : " ") $k
            else rest = rest " " $k
        }
        if (entry != "") opts(rest, entry, "man")
        next
    }
    sec == "SYNOPSIS" && entry != "" {
        s = $0; sub(/^\.[A-Z]+ */, "", s)
        if (s ~ /(^|[[ ])options( |]|$)/) withsec[entry] = 1
        opts(s, entry, "man"); next
    }
    /^\.TP/ { tag = 1; next }
    tag { tag = 0; s = $0; sub(/^\.[A-Z]+ */, "", s); sectag[sec] = sectag[sec] "\n" s }
    END {
        for (e in withsec) {
            up = toupper(e)
            n = split(sectag[up " OPTIONS"] sectag[up " COMMAND"], t, "\n")
            for (k = 1; k <= n; k++) opts(t[k], e, "man")
        }
    }' "$MAN" >> "$tmp/all"

# The C tables: NAME[] = { "...", ... NULL}; arrays, and the rules subs[] entries.
c_array() { # FILE NAME: the strings of the array NAME, one a line
    awk -v name="$2" '
        index($0, " " name "[] = {") { on = 1 }
        on { s = $0; while (match(s, /"-[^"]*"/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }
        on && /};/ { on = 0 }' "$1"
}
c_array "$SRC/cmd_validate.c" options | sed 's/^/c\tvalidate\t/' >> "$tmp/all"
c_array "$SRC/cmd_validate.c" report_options > "$tmp/report"
c_array "$SRC/cmd_validate.c" options | grep -vxF -f "$tmp/report" | sed 's/^/c\tbaseline write\t/' >> "$tmp/all"
# diff: validate's, less what diff refuses (each refusal names its option in a C string)
{
    awk '/offsetof\(struct validate_opts/ { if (match($0, /"--[a-z-]+"/)) print substr($0, RSTART + 1, RLENGTH - 2) }' "$SRC/cmd_diff.c"
    grep -o '"mcpdesc diff: --[a-z-]* does not apply' "$SRC/cmd_diff.c" | sed 's/^"mcpdesc diff: //; s/ does not apply$//'
} > "$tmp/diff-refused"
[ -s "$tmp/diff-refused" ] || { echo "FAIL check-options: found no option that diff refuses in $SRC/cmd_diff.c"; fail=1; }
c_array "$SRC/cmd_validate.c" options | grep -vxF -f "$tmp/diff-refused" | sed 's/^/c\tdiff\t/' >> "$tmp/all"
# fix: its own options[], and validate's less those of the report and --stdin-filepath
c_array "$SRC/cmd_fix.c" options | sed 's/^/c\tfix\t/' >> "$tmp/all"
c_array "$SRC/cmd_validate.c" options | grep -vxF -f "$tmp/report" | grep -vx -e --stdin-filepath |
    sed 's/^/c\tfix\t/' >> "$tmp/all"
c_array "$SRC/cmd_schema.c" validate_options | sed 's/^/c\tschema validate\t/' >> "$tmp/all"
c_array "$SRC/cmd_schema.c" check_options | sed 's/^/c\tschema check\t/' >> "$tmp/all"
c_array "$SRC/cmd_capture.c" options | sed 's/^/c\tcapture\t/' >> "$tmp/all"
c_array "$SRC/cmd_lsp.c" options | sed 's/^/c\tlsp\t/' >> "$tmp/all"
c_array "$SRC/cmd_rules_init.c" options | sed 's/^/c\trules init\t/' >> "$tmp/all"
awk '
    /^    \{"[a-z]+",$/ { name = $0; gsub(/[ {",]/, "", name) }
    /^     \{"-/ && name != "" {
        s = $0; while (match(s, /"-[^"]*"/)) { print "c\trules " name "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
    }' "$SRC/cmd_rules.c" >> "$tmp/all"

sources="help man c"
if command -v bash > /dev/null 2>&1; then
    PATH="$(cd "$(dirname "$BIN")" && pwd):$PATH" KEYS="$KEYS" bash -c '
        shopt -u extglob
        . "$1" || exit 1
        while IFS= read -r key; do
            read -r -a words <<< "$key"
            COMP_WORDS=(mcpdesc "${words[@]}")
            [[ $key == "baseline write" ]] && COMP_WORDS+=(out.json)
            COMP_WORDS+=(-); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _mcpdesc
            for o in "${COMPREPLY[@]}"; do printf "comp\t%s\t%s\n" "$key" "$o"; done
        done < <(tr "|" "\n" <<< "$KEYS")
        ' check-options "$COMP" > "$tmp/comp-all" && [ -s "$tmp/comp-all" ] &&
        sources="$sources comp" && cat "$tmp/comp-all" >> "$tmp/all" ||
        { echo "FAIL check-options: the completion $COMP offers no option (it does not load?)"; fail=1; }
else
    test_skip check-options "the bash completion" "no bash" || fail=1
fi

# every KEY<TAB>OPTION of any place must be in each place
awk -F'\t' '$3 != "--help" && $3 != "-h"' "$tmp/all" | cut -f2,3 | sort -u > "$tmp/union"
n=0
for src in $sources; do
    grep "^$src	" "$tmp/all" | cut -f2,3 | sort -u > "$tmp/$src"
done
for src in $sources; do
    for k in $(echo "$KEYS" | tr ' |' '_ '); do
        key=$(echo "$k" | tr _ ' ')
        grep -q "^$key	" "$tmp/$src" || { echo "FAIL check-options: $src lists no option of '$key'"; fail=1; }
    done
    comm -23 "$tmp/union" "$tmp/$src" > "$tmp/missing"
    while IFS='	' read -r key opt; do
        others=$(for s in $sources; do grep -qxF "$key	$opt" "$tmp/$s" && printf "%s " "$s"; done)
        echo "FAIL check-options: mcpdesc $key: $opt is missing from $src (listed by: $others)"
        fail=1
    done < "$tmp/missing"
    n=$((n + $(wc -l < "$tmp/$src")))
done
# and the parser takes each of them (whatever it then says of the missing value or input)
BINABS=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
mkdir "$tmp/run"
TIMEOUT=""
command -v timeout > /dev/null 2>&1 && TIMEOUT="timeout 20"
while IFS='	' read -r key opt; do
    extra=""
    [ "$key" = "baseline write" ] && extra=out.json
    # shellcheck disable=SC2086
    (cd "$tmp/run" && $TIMEOUT "$BINABS" $key $extra "$opt" < /dev/null > /dev/null 2> "$tmp/run.err")
    if grep -q "unknown option" "$tmp/run.err"; then
        echo "FAIL check-options: mcpdesc $key $opt: the parser does not take it: $(head -1 "$tmp/run.err")"
        fail=1
    fi
done < "$tmp/union"
keys=$(echo "$KEYS" | tr '|' '\n' | wc -l)
opts=$(wc -l < "$tmp/union")

# the completion itself
if command -v bash > /dev/null 2>&1; then
    mkdir "$tmp/files" "$tmp/files/dir x"
    touch "$tmp/files/a b.json" "$tmp/files/c.txt" "$tmp/files/d.yaml" "$tmp/files/e f.yml"
    # the values: versions and tags from the program under test (mcpdesc on PATH, as the
    # completion calls it), --format FORMAT[:FILE] however bash split the word
    case $BIN in /*) bindir=$(dirname "$BIN") ;; *) bindir=$(cd "$(dirname "$BIN")" && pwd) ;; esac
    mkdir -p "$tmp/path" && ln -sf "$bindir/$(basename "$BIN")" "$tmp/path/mcpdesc"
    (cd "$tmp/files" && PATH="$tmp/path:$PATH" bash -c '
        shopt -u extglob
        . "$1" || exit 1
        run() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _mcpdesc; printf "%s|" "${COMPREPLY[@]}"; echo; }
        run mcpdesc validate a
        run mcpdesc validate ""
        run mcpdesc validate --config ""
        run mcpdesc validate --format sarif : ""
        run mcpdesc schema check c
        run mcpdesc rules lint d
        run mcpdesc validate --protocol-version 2025-1
        run mcpdesc capture --protocol-version 2024
        run mcpdesc validate --rules-tag v0.9.0-rc.3
        run mcpdesc validate --rules-tag mcpdesc-mcp@v0.9.0-rc.3
        run mcpdesc rules list --rules-tag v0.9.0-rc.
        run mcpdesc validate --preset s
        run mcpdesc validate --fail-on w
        run mcpdesc validate --format j
        run mcpdesc validate --format = m
        run mcpdesc validate --format = sarif : a
        run mcpdesc validate --format sarif : "dir"
        run mcpdesc validate --format=g
        run mcpdesc validate --format=sarif:a
        run mcpdesc validate --format sarif:e
        run mcpdesc validate --format json d
        run mcpdesc rules list --format j
        run mcpdesc rules ch
        run mcpdesc rules changes v0.9.0-rc.3
        run mcpdesc diff a
        run mcpdesc diff --format=sarif:a
        run mcpdesc d' check-options "$COMP") > "$tmp/comp-files" 2>&1
    # a bare tag is mcpdesc-mcp's: the tags of its releases (not the other shipped sets')
    tags=$("$BIN" validate --rules-tag=_ - < /dev/null 2>&1 | sed -n "s/.*available: \([^;]*\).*/\1/p" |
        tr "," "\n" | sed -n "s/^ *mcpdesc-mcp@//p" | tr "\n" "|")
    printf '%s\n' 'a b.json|' 'a b.json|d.yaml|dir x|e f.yml|' 'd.yaml|dir x|e f.yml|' \
        'a b.json|c.txt|d.yaml|dir x|e f.yml|' 'c.txt|' 'dir x|' \
        '2025-11-25|' '2024-11-05|' 'v0.9.0-rc.3|' 'mcpdesc-mcp@v0.9.0-rc.3|' "$tags" \
        'strict|' 'warning|' 'json|junit|' 'markdown|' 'a b.json|' 'dir x|' '--format=github|--format=gitlab|' \
        '--format=sarif:a b.json|' 'sarif:e f.yml|' 'd.yaml|dir x|' 'json|' 'changes|' \
        'v0.9.0-rc.3|' 'a b.json|' '--format=sarif:a b.json|' 'diff|' \
        > "$tmp/comp-expected"
    # compgen's order is the directory's; compare sorted within each line
    while IFS= read -r l; do echo "$l" | tr '|' '\n' | sort | tr '\n' '|'; echo; done < "$tmp/comp-files" > "$tmp/comp-got"
    while IFS= read -r l; do echo "$l" | tr '|' '\n' | sort | tr '\n' '|'; echo; done < "$tmp/comp-expected" > "$tmp/comp-want"
    if ! cmp -s "$tmp/comp-got" "$tmp/comp-want"; then
        echo "FAIL check-options: completion of files and values (without extglob, names with spaces): got, then expected:"
        cat "$tmp/comp-files" "$tmp/comp-expected"
        fail=1
    fi

    # The values asked of the program being completed (COMP_WORDS[0], by absolute or
    # relative path), not of the `mcpdesc` on PATH: here PATH has a stand-in that knows
    # no release at all, so a tag in the answer came from the named program (with this
    # checkout, the manifest's tag, which an older installed mcpdesc does not ship). And
    # NAME@TAG split at '@' (in COMP_WORDBREAKS) completes the TAG after the '@'.
    mkdir -p "$tmp/fakepath"
    printf '#!/bin/sh\necho "mcpdesc: available: stand-in@v0.0.0-path" >&2\nexit 2\n' > "$tmp/fakepath/mcpdesc"
    chmod +x "$tmp/fakepath/mcpdesc"
    all_tags=$("$BIN" validate --rules-tag=_ - < /dev/null 2>&1 | sed -n "s/.*available: \([^;]*\).*/\1/p" |
        tr "," "\n" | sed "s/^ *//; /^\$/d")
    newest=$(echo "$all_tags" | sed -n 's/^mcpdesc-mcp@//p' | tail -1)
    rc1=$(echo "$all_tags" | sed -n 's/^mcpdesc-mcp@\(v0\.9\.0-rc\.1.*\)$/\1/p' | tr "\n" "|")
    every=$(echo "$all_tags" | sed -n 's/^mcpdesc-mcp@//p' | tr "\n" "|")
    (cd "$bindir" && PATH="$tmp/fakepath:$PATH" bash -c '
        shopt -u extglob
        . "$1" || exit 1
        run() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _mcpdesc; printf "%s|" "${COMPREPLY[@]}"; echo; }
        run "$2" validate --rules-tag "$3"
        run "./$4" validate --rules-tag "$3"
        run "./$4" validate --rules-tag mcpdesc-mcp @ v0.9.0-rc.1
        run "./$4" validate --rules-tag mcpdesc-mcp @
        run "./$4" validate --rules-tag = mcpdesc-mcp @ "$3"
        run "./$4" rules list --rules-tag mcpdesc-mcp@"$3"
        run mcpdesc validate --rules-tag v0.0' \
        check-options "$COMP" "$bindir/$(basename "$BIN")" "$newest" "$(basename "$BIN")") > "$tmp/comp-prog" 2>&1
    printf '%s\n' "$newest|" "$newest|" "$rc1" "$every" "$newest|" "mcpdesc-mcp@$newest|" 'v0.0.0-path|' > "$tmp/comp-prog-want"
    # the newest release is the manifest's tag (a new tag needs no edit here)
    manifest_tag=$(sed -n 's/^tag: *//p' rules-yaml/manifest.yaml)
    if [ "$newest" != "$manifest_tag" ] && [ -d "rules-yaml/releases/mcpdesc-mcp@$manifest_tag" ]; then
        echo "FAIL check-options: $BIN does not list $manifest_tag (the manifest's tag) as the newest release: $newest"
        fail=1
    elif ! cmp -s "$tmp/comp-prog" "$tmp/comp-prog-want"; then
        echo "FAIL check-options: completion of --rules-tag by the program completed and after NAME@: got, then expected:"
        cat "$tmp/comp-prog" "$tmp/comp-prog-want"
        fail=1
    fi
fi

if [ $fail = 0 ]; then
    case $sources in *comp) also=" and the bash completion" ;; *) also="" ;; esac
    echo "PASS check-options: $opts options of $keys commands agree in --help, the man page, the C option tables$also ($n entries)"
fi
exit $fail
