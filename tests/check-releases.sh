#!/bin/sh
# check-releases.sh [--update] BINARY - every shipped release gives the same findings
# forever, by test (docs/releases.md). For each rules-yaml/releases/NAME@TAG/:
#   1. intact: `cd NAME@TAG/rules && sha256sum -c SHA256SUMS` passes, the release holds no
#      file SHA256SUMS does not list, and the digest BINARY reports for it is the sha256
#      of its SHA256SUMS;
#   2. locked: every file the committed lock rules-yaml/tags/TAG.lock lists (paths
#      relative to rules/; rules-yaml/security/tags/ for mcpdesc-security,
#      rules-yaml/diff/tags/ for mcpdesc-diff) is in the
#      release with the sha256 the lock records;
#   3. same findings: `BINARY validate --rules-tag NAME@TAG --preset all --format text conformance`
#      (and, for each folder of conformance/together/, the same with --together FOLDER: one
#      client session, for a set with session rules; for each folder of conformance/
#      holding old.json and new.json or new.yaml, `BINARY diff --rules-tag NAME@TAG
#      --preset all` of the two: a pair, for a set with change rules), run
#      inside NAME@TAG/ (so paths are relative), prints byte for byte what the record
#      rules-yaml/releases/NAME@TAG.findings holds below its first line (where the
#      engine's own version, "mcpdesc X.Y.Z", would appear, the record says
#      "mcpdesc @ENGINE@": a new version alone changes no record).
# The record sits beside the release, not in it: the release never changes, the engine
# that runs it may. The record's first line says which engine took it and after how many
# entries of the tag's changes log, rules-yaml/releases/NAME@TAG.changes (an entry is a
# line starting with "## "). When an engine change alters a tag's findings, say what and
# why in a new entry of that tag's log, then
#   sh tests/check-releases.sh --update BINARY
# rewrites the record; it refuses a record whose findings changed unless the log has an
# entry the record was not taken with, and writes the first record of a new tag (and
# its empty log). Also
# checked once: a tag that is not there is one line on stderr (exit 2) naming the
# available releases, and the text, JSON and SARIF reports of `--rules-tag TAG` (the
# oldest release) name TAG. Prints ok/FAIL per tag and a summary; exits 1 on any failure.
#
# The engine's versions follow the logs (semantic versioning: an engine change that alters
# a shipped tag's findings is a minor version, docs/releases.md). Over every log, each
# entry's heading "## YYYY-MM-DD, mcpdesc X.Y.Z: what changed" must be well formed, and
#   a. its version is at most the engine's (BINARY --version): the entry and the version
#      bump come in the same commit;
#   b. distinct changes (distinct headings: one change has the same heading in every log
#      it touched) each have their own minor version X.Y, except the headings of
#      GRANDFATHERED below, written at 0.1.0 before this rule;
#   c. each record's engine version is at most the engine's and at least that of the
#      newest entry it was taken after (its "changes N").
# --changes-only runs these checks alone (no release is loaded; BINARY answers only
# --version): tests/check-releases-selftest.sh runs it on doctored copies of the logs.
set -u
update=0 changes_only=0
case ${1:-} in
--update) update=1; shift ;;
--changes-only) changes_only=1; shift ;;
esac
if [ $# -ne 1 ]; then
    echo "usage: sh tests/check-releases.sh [--update | --changes-only] BINARY" >&2
    exit 2
fi
bin=$1
case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
rel=$root/rules-yaml/releases
if [ ! -x "$bin" ]; then
    echo "check-releases: cannot run $bin" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-releases.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
# this checkout's releases first, whatever else the binary would find
MCPDESC_RULES_PATH=$rel
export MCPDESC_RULES_PATH
engine=$("$bin" --version | head -n 1)
engine_re=$(printf '%s\n' "$engine" | sed 's/[.[\*^$/]/\\&/g')
passed=0
failed=0
recorded=0

# entries FILE: the number of entries ("## " lines) of a changes log (0 when absent)
entries() {
    if [ -f "$1" ]; then grep -c '^## ' "$1"; else echo 0; fi
}

# set_dir NAME: the folder of the shipped set NAME (its manifest.yaml names it), whose
# tags/ holds its locks: rules-yaml for mcpdesc-mcp, rules-yaml/security for
# mcpdesc-security, rules-yaml/diff for mcpdesc-diff
set_dir() {
    for d in rules-yaml rules-yaml/security rules-yaml/diff; do
        if grep -q "^name: $1\$" "$root/$d/manifest.yaml" 2>/dev/null; then
            echo "$d"
            return
        fi
    done
    echo rules-yaml
}

# check_tag NAME@TAG: prints the reasons it fails, one per line, on stdout
check_tag() {
    id=$1 dir=$rel/$1
    name=${id%%@*} tag=${id#*@}
    rules=$dir/rules
    # 1. intact
    if [ ! -f "$rules/SHA256SUMS" ]; then
        echo "no rules/SHA256SUMS: not a release"
        return
    fi
    if ! (cd "$rules" && sha256sum -c --quiet --strict SHA256SUMS) > "$tmp/sums.out" 2>&1; then
        echo "sha256sum -c SHA256SUMS fails: $(grep -v '^sha256sum:' "$tmp/sums.out" | head -n 3 | tr '\n' ' ')"
    fi
    sed 's/^[0-9a-f]\{64\}  //' "$rules/SHA256SUMS" | sort > "$tmp/listed"
    (cd "$dir" && find . -type f ! -path ./rules/SHA256SUMS) |
        sed -e 's|^\./rules/||' -e 's|^\./|../|' | sort > "$tmp/present"
    extra=$(comm -13 "$tmp/listed" "$tmp/present" | head -n 3 | tr '\n' ' ')
    [ -z "$extra" ] || echo "files SHA256SUMS does not list: $extra"
    # 2. the committed lock, in the tags/ of the shipped set of that name
    setdir=$(set_dir "$name")
    lock=$root/$setdir/tags/$tag.lock
    if [ ! -f "$lock" ]; then
        echo "no lock $setdir/tags/$tag.lock"
    else
        grep -q "^  \"name\": \"$name\",\$" "$lock" || echo "$lock does not name $name"
        grep -q "^  \"tag\": \"$tag\",\$" "$lock" || echo "$lock does not name $tag"
        # the lock's files as sha256sum lines ("path" then "sha256", jansson's order)
        awk -F'"' '$2 == "path" { p = $4 } $2 == "sha256" { print $4 "  " p }' "$lock" > "$tmp/lock.sums"
        if [ ! -s "$tmp/lock.sums" ]; then
            echo "$lock lists no file"
        elif ! (cd "$rules" && sha256sum -c --quiet --strict "$tmp/lock.sums") > "$tmp/lock.out" 2>&1; then
            echo "differs from $setdir/tags/$tag.lock: $(grep -v '^sha256sum:' "$tmp/lock.out" | head -n 3 | tr '\n' ' ')"
        fi
    fi
    # 3. the findings on its own fixtures, and the digest reported
    # (beside rules/, or inside it for a set whose fixtures are its own conformance/)
    fixtures=conformance
    [ -d "$dir/$fixtures" ] || fixtures=rules/conformance
    if [ ! -d "$dir/$fixtures" ]; then
        echo "no conformance/ in the release"
        return
    fi
    (cd "$dir" && "$bin" validate --rules-tag "$id" --preset all --format text --color never "$fixtures") \
        > "$tmp/out" 2> "$tmp/err"
    status=$?
    # the engine's version is on the record's first line; in the body (a report header
    # that names it) it reads "mcpdesc @ENGINE@", so a new version alone changes nothing
    # a set with session rules: each folder of its fixtures' together/ is one client
    # session, judged --together (its session findings join the record)
    for session in "$dir/$fixtures"/together/*/; do
        [ "$status" -gt 1 ] && break
        [ -d "$session" ] || continue
        session=${session#"$dir"/}
        (cd "$dir" && "$bin" validate --rules-tag "$id" --preset all --format text --color never \
            --together "${session%/}") > "$tmp/session" 2> "$tmp/err"
        status=$?
        { echo "# --together ${session%/}"; cat "$tmp/session"; } >> "$tmp/out"
    done
    # a set with change rules: each folder of its fixtures holding old.json and new.json
    # (or new.yaml) is one pair, judged by mcpdesc diff (its changes join the record)
    for pair in "$dir/$fixtures"/*/old.json; do
        [ "$status" -gt 1 ] && break
        [ -f "$pair" ] || continue
        pair=${pair#"$dir"/}
        new=${pair%/old.json}/new.json
        [ -f "$dir/$new" ] || new=${pair%/old.json}/new.yaml
        (cd "$dir" && "$bin" diff --rules-tag "$id" --preset all --format text --color never \
            "$pair" "$new") > "$tmp/pair" 2> "$tmp/err"
        status=$?
        { echo "# diff $pair $new"; cat "$tmp/pair"; } >> "$tmp/out"
    done
    sed -i "s/$engine_re/mcpdesc @ENGINE@/g" "$tmp/out"
    if [ "$status" -gt 1 ]; then
        echo "validate --rules-tag $id: exit $status: $(head -n 3 "$tmp/err" | tr '\n' ' ')"
        return
    fi
    want=sha256:$(sha256sum < "$rules/SHA256SUMS" | cut -c 1-64)
    got=$(grep -o 'sha256:[0-9a-f]\{64\}' "$tmp/out" | head -n 1)
    [ "$got" = "$want" ] || echo "the binary reports ${got:-no digest}, sha256 of SHA256SUMS is $want"
    findings=$rel/$id.findings changes=$rel/$id.changes
    now=$(entries "$changes")
    if [ -f "$findings" ]; then
        taken=$(sed -n '1s/^# .*, changes \([0-9][0-9]*\)$/\1/p' "$findings")
        if [ -z "$taken" ]; then
            echo "$id.findings: the first line does not say after how many changes it was taken"
            return
        fi
        if [ "$now" -lt "$taken" ]; then
            echo "$id.changes has $now entries, the record was taken after $taken: the log only grows"
            return
        fi
        tail -n +2 "$findings" > "$tmp/want"
        if cmp -s "$tmp/want" "$tmp/out"; then
            return
        fi
        if [ "$update" -eq 1 ] && [ "$now" -gt "$taken" ]; then
            write_record "$id" "$now"
            return
        fi
        echo "the findings differ from $id.findings (taken after $taken changes):"
        diff -u "$tmp/want" "$tmp/out" | tail -n +3 | head -n 20 | sed 's/^/    /'
        if [ "$update" -eq 1 ]; then
            echo "    not rewritten: say what changed and why in a new entry (a line starting"
            echo "    with '## ') of rules-yaml/releases/$id.changes, then run --update again"
        else
            echo "    an engine change altered the findings of a released tag: if that is"
            echo "    intended, record it in rules-yaml/releases/$id.changes, then"
            echo "    sh tests/check-releases.sh --update BINARY"
        fi
    elif [ "$update" -eq 1 ]; then
        write_record "$id" "$now"
    else
        echo "no record $id.findings: sh tests/check-releases.sh --update BINARY writes it"
    fi
}

# write_record NAME@TAG ENTRIES: the findings in $tmp/out become the record
write_record() {
    { echo "# findings of $1 on its conformance/: $engine, changes $2"; cat "$tmp/out"; } \
        > "$rel/$1.findings"
    [ -f "$rel/$1.changes" ] || sed "s/@ID@/$1/g" > "$rel/$1.changes" <<'EOF2'
# @ID@: changes to its findings on its own fixtures (@ID@.findings)
# The release directory never changes; the engine that runs it may. When an engine change
# alters these findings, add an entry below, newest last, a line
#   ## YYYY-MM-DD, mcpdesc VERSION: what changed
# followed by why and which findings; then run
#   sh tests/check-releases.sh --update build/mcpdesc
# (docs/releases.md, "Findings records and changes logs").
EOF2
    recorded=$((recorded + 1))
    echo "check-releases: recorded $1.findings ($engine, changes $2)" >&2
}

# The entries written at 0.1.0 before one minor version per change was required.
GRANDFATHERED="2026-12-02, mcpdesc 0.1.0: the report's rules line names the engine"

# ver_le A B: version A <= version B
ver_le() {
    [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]
}

# check_versions: the engine's version against the logs and records (a, b, c above);
# prints the reasons it fails, one per line
check_versions() {
    ver=${engine#mcpdesc }
    case $ver in
    *[!0-9.]* | '' | .* | *. | *..*) echo "the engine's version is not X.Y.Z: '$engine'"; return ;;
    esac
    : > "$tmp/headings"
    for f in "$rel"/*.changes; do
        [ -f "$f" ] || continue
        grep '^## ' "$f" | while IFS= read -r h; do
            printf '%s\t%s\n' "$(basename "$f")" "${h#\#\# }"
        done >> "$tmp/headings"
    done
    # a: well formed, and not ahead of the engine
    while IFS="$(printf '\t')" read -r file h; do
        v=$(printf '%s\n' "$h" |
            sed -n 's/^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9], mcpdesc \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\): ..*$/\1/p')
        if [ -z "$v" ]; then
            echo "$file: the entry '## $h' does not start '## YYYY-MM-DD, mcpdesc X.Y.Z: '"
        elif ! ver_le "$v" "$ver"; then
            echo "$file: the entry '## $h' names mcpdesc $v, but the engine is $ver: bump VERSION"
            echo "    in the Makefile to $v in the same commit (docs/releases.md)"
        fi
    done < "$tmp/headings"
    # b: one minor version per distinct change (the grandfathered ones aside)
    cut -f 2 "$tmp/headings" | sort -u | while IFS= read -r h; do
        if printf '%s\n' "$GRANDFATHERED" | grep -qxF "$h"; then continue; fi
        v=$(printf '%s\n' "$h" | sed -n 's/^[^,]*, mcpdesc \([0-9][0-9]*\.[0-9][0-9]*\)\.[0-9][0-9]*: .*$/\1/p')
        [ -n "$v" ] && printf '%s\t%s\n' "$v" "$h"
    done > "$tmp/minors"
    printf '%s\n' "$GRANDFATHERED" |
        sed -n 's/^[^,]*, mcpdesc \([0-9][0-9]*\.[0-9][0-9]*\)\.[0-9][0-9]*: .*$/\1\tgrandfathered/p' | sort -u >> "$tmp/minors"
    cut -f 1 "$tmp/minors" | sort | uniq -d | while IFS= read -r m; do
        echo "these distinct changes share the minor version $m (each engine change that alters"
        echo "    recorded findings gets its own minor version, docs/releases.md):"
        grep "^$m	" "$tmp/minors" | cut -f 2 | sed 's/^/      ## /'
    done
    # c: each record's engine version
    for f in "$rel"/*.findings; do
        [ -f "$f" ] || continue
        rv=$(sed -n '1s/^# findings of .*: mcpdesc \([0-9][0-9.]*\), changes [0-9][0-9]*$/\1/p' "$f")
        n=$(sed -n '1s/^# .*, changes \([0-9][0-9]*\)$/\1/p' "$f")
        if [ -z "$rv" ] || [ -z "$n" ]; then
            echo "$(basename "$f"): the first line is not '# findings of NAME@TAG on its conformance/: mcpdesc X.Y.Z, changes N'"
            continue
        fi
        if ! ver_le "$rv" "$ver"; then
            echo "$(basename "$f"): taken with mcpdesc $rv, newer than the engine ($ver)"
        fi
        log=${f%.findings}.changes
        if [ "$n" -gt 0 ] && [ -f "$log" ]; then
            lv=$(grep '^## ' "$log" | sed -n "${n}s/^## [^,]*, mcpdesc \([0-9][0-9.]*\): .*$/\1/p")
            if [ -n "$lv" ] && ! ver_le "$lv" "$rv"; then
                echo "$(basename "$f"): taken with mcpdesc $rv after $n changes, but change $n of"
                echo "    $(basename "$log") is mcpdesc $lv: the record is older than its log says"
            fi
        fi
    done
}

check_versions > "$tmp/why"
if [ -s "$tmp/why" ]; then
    echo "check-releases: FAIL the engine's version ($engine) and the changes logs"
    sed 's/^/    /' "$tmp/why"
    failed=$((failed + 1))
else
    echo "check-releases: ok the engine's version ($engine) and the changes logs: every entry at or below it, one minor version per change"
    passed=$((passed + 1))
fi
if [ "$changes_only" -eq 1 ]; then
    echo "check-releases: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

ids=
for d in "$rel"/*@*/; do
    [ -d "$d" ] || continue
    id=$(basename "$d")
    ids="$ids $id"
    check_tag "$id" > "$tmp/why"
    if [ -s "$tmp/why" ]; then
        echo "check-releases: FAIL $id"
        sed 's/^/    /' "$tmp/why"
        failed=$((failed + 1))
    else
        echo "check-releases: ok $id"
        passed=$((passed + 1))
    fi
done
if [ -z "$ids" ]; then
    echo "check-releases: FAIL no release in rules-yaml/releases"
    failed=$((failed + 1))
fi
# a record or a log for a release that is not there
for f in "$rel"/*.findings "$rel"/*.changes; do
    [ -f "$f" ] || continue
    id=$(basename "$f")
    id=${id%.*}
    if [ ! -d "$rel/$id" ]; then
        echo "check-releases: FAIL $(basename "$f") names no release (rules-yaml/releases/$id/)"
        failed=$((failed + 1))
    fi
done

# a tag that is not there: one line, exit 2, naming every available release
(cd "$rel/.." && "$bin" validate --rules-tag v0.0.0-not-released ../conformance/expected-valid) \
    > "$tmp/out" 2> "$tmp/err"
status=$?
missing=
for id in $ids; do
    grep -qF "$id" "$tmp/err" || missing="$missing $id"
done
if [ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
        grep -q '^mcpdesc: no release mcpdesc-mcp@v0.0.0-not-released ' "$tmp/err" && [ -z "$missing" ]; then
    echo "check-releases: ok a tag that is not there is one line naming the available releases"
    passed=$((passed + 1))
else
    echo "check-releases: FAIL --rules-tag v0.0.0-not-released: exit $status (expected 2 and one line"
    echo "    on stderr naming every release; missing:${missing:- none}):"
    sed 's/^/    | /' "$tmp/err" | head -n 5
    failed=$((failed + 1))
fi

# each report format names the release a pinned run used (the oldest release of the
# default set shipped: a bare --rules-tag TAG names mcpdesc-mcp@TAG)
# shellcheck disable=SC2086 # one word per release
first=$(printf '%s\n' $ids | grep '^mcpdesc-mcp@' | sort -V | head -n 1)
if [ -n "$first" ]; then
    fixture=$(cd "$rel/$first" && find conformance -name '*.json' | sort | head -n 1)
    tag=${first#*@}
    bad=
    for fmt in text json sarif; do
        (cd "$rel/$first" && "$bin" validate --rules-tag "$tag" --format "$fmt" --fail-on never "$fixture") \
            > "$tmp/report.$fmt" 2> "$tmp/err" || bad="$bad $fmt(exit $?)"
    done
    grep -q "^rules: ${first%%@*} $tag (sha256:" "$tmp/report.text" || bad="$bad text"
    grep -q "^    \"tag\": \"$tag\",\$" "$tmp/report.json" || bad="$bad json"
    grep -Eq "\"(ruleSetTag|tag)\": \"$tag\"" "$tmp/report.sarif" || bad="$bad sarif"
    if [ -z "$bad" ]; then
        echo "check-releases: ok --rules-tag $tag: the text, JSON and SARIF reports name $tag"
        passed=$((passed + 1))
    else
        echo "check-releases: FAIL --rules-tag $tag: these reports do not name $tag:$bad"
        sed 's/^/    | /' "$tmp/err" | head -n 5
        failed=$((failed + 1))
    fi
fi

summary="$passed passed, $failed failed"
[ "$recorded" -eq 0 ] || summary="$summary, $recorded recorded"
echo "check-releases: $summary"
[ "$failed" -eq 0 ]
