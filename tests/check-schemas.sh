#!/bin/sh
# check-schemas.sh BINARY - the project's JSON Schemas, checked with its own engine.
#
#   a. every schema/*.json and schema/mcp/*/*.json is a valid schema (`schema check`; the
#      $refs between files of schema/mcp/<version>/ resolve through --ref-map);
#   b. every rules-yaml/*.yaml validates against schema/rule-file.schema.json, and
#      rules-yaml/manifest.yaml against schema/manifest.schema.json;
#   c. so does every tests/data/rules-extra/*.yaml and tests/data/rules-mentions/*.yaml
#      (manifest.yaml: the manifest schema);
#   d. every planted mistake in tests/data/rule-schema/*.yaml (manifest-*.yaml: against the
#      manifest schema) is rejected, for the reason its `# schema-error: LOCATION` line
#      names (a keyword location the engine must report), and the loader refuses the
#      planted rule files too (`rules lint` on a one-file set), so the planted cases never
#      test something the loader accepts;
#   f. schema/config.schema.json: example and test configs valid, planted mistakes
#      rejected by it and by `validate --config` (see below);
#   e. the predicates of the rule-file schema are exactly those of the one predicate table,
#      fn_table[] (src/rules/fn_table.c): one $defs entry pred.NAME each;
#   g. the rule language's tables (src/rules/rule_lang.h, printed by the unlisted
#      `mcpdesc rules dump-language`, one JSON object a row) are the schemas' mappings:
#      every mapping's members are the table's, both ways; required exactly where the
#      table says so; where the schema gives a member's "type" directly, it is the
#      table's kind's; an enum member's values are the table's.
#
# One `ok`/`FAIL` line per check, then `N passed, N failed`; exit 1 when any failed.
set -u
cd "$(dirname "$0")/.." || exit 2
case ${1:-} in
/*) BIN=$1 ;;
'') echo "usage: sh tests/check-schemas.sh BINARY" >&2; exit 2 ;;
*) BIN=$PWD/$1 ;;
esac
[ -x "$BIN" ] || { echo "check-schemas: $BIN is not an executable" >&2; exit 2; }

RULE_SCHEMA=schema/rule-file.schema.json
MANIFEST_SCHEMA=schema/manifest.schema.json
REFMAP=https://mcpdesc.dev/schema/=schema/
TMP=$(mktemp -d "${TMPDIR:-/tmp}/check-schemas.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0

ok() {
    echo "ok $*"
    pass=$((pass + 1))
}
bad() {
    echo "FAIL $*"
    fail=$((fail + 1))
    if [ -s "$TMP/out" ]; then sed 's/^/    /' "$TMP/out" | head -n 20; fi
}

# a. the schemas themselves
for f in schema/*.json schema/mcp/*/*.json; do
    [ -f "$f" ] || continue
    if "$BIN" schema check --ref-map "$REFMAP" "$f" >"$TMP/out" 2>&1; then ok "schema check $f"
    else bad "schema check $f"; fi
done

schema_for() {
    case $(basename "$1") in
    manifest.yaml | manifest-*.yaml) echo "$MANIFEST_SCHEMA" ;;
    *) echo "$RULE_SCHEMA" ;;
    esac
}

# b, c. shipped and test rule sets are valid
for f in rules-yaml/*.yaml tests/data/rules-extra/*.yaml tests/data/rules-mentions/*.yaml; do
    [ -f "$f" ] || continue
    s=$(schema_for "$f")
    if "$BIN" schema validate --schema "$s" "$f" >"$TMP/out" 2>&1; then ok "valid $f ($(basename "$s"))"
    else bad "valid $f ($(basename "$s"))"; fi
done

# d. planted mistakes are rejected, for the planted reason, by the schema and the loader
for f in tests/data/rule-schema/*.yaml; do
    [ -f "$f" ] || continue
    s=$(schema_for "$f")
    want=$(sed -n 's/^# schema-error:[[:space:]]*//p' "$f" | head -n 1)
    if [ -z "$want" ]; then
        : >"$TMP/out"
        bad "rejected $f: no '# schema-error: KEYWORD-LOCATION' line"
        continue
    fi
    "$BIN" schema validate --schema "$s" "$f" >"$TMP/out" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ]; then
        bad "rejected $f ($(basename "$s")): exit $rc, expected 1 (invalid)"
    elif ! grep -qF "($want)" "$TMP/out"; then
        bad "rejected $f ($(basename "$s")): no error at keyword location $want"
    else
        ok "rejected $f ($(basename "$s"), $want)"
    fi
    case $(basename "$f") in manifest-*) continue ;; esac
    rm -rf "$TMP/set" && mkdir "$TMP/set"
    # the test rule set's manifest, with the planted file as its only rule file
    { sed '/^files:/,$d' tests/data/rules-extra/manifest.yaml; printf 'files:\n  - planted.yaml\n'; } \
        >"$TMP/set/manifest.yaml"
    cp "$f" "$TMP/set/planted.yaml"
    "$BIN" rules lint "$TMP/set" >"$TMP/out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] && grep -q 'planted\.yaml:[0-9]*:[0-9]*: error: ' "$TMP/out"; then
        ok "loader refuses $f"
    else
        bad "loader refuses $f: rules lint exit $rc without an error in it (the schema is stricter than the loader here)"
    fi
done

# f. the config schema (docs/config.md): the shipped example configs and the test ones
#    are valid (bad-*.yaml are the loader's error cases, chain-mismatch and missing-tag
#    are well formed); each planted mistake in tests/data/config-schema/*.yaml is rejected
#    for the reason its `# schema-error:` line names, and by the program too
CONFIG_SCHEMA=schema/config.schema.json
for f in examples/config/*.yaml tests/data/config/*.yaml tests/data/config/tree/config.yaml \
    tests/data/config/adopt/.mcpdesc.yaml; do
    [ -f "$f" ] || continue
    case $(basename "$f") in bad-*) continue ;; esac
    if "$BIN" schema validate --schema "$CONFIG_SCHEMA" "$f" >"$TMP/out" 2>&1; then ok "valid $f (config.schema.json)"
    else bad "valid $f (config.schema.json)"; fi
done
for f in tests/data/config-schema/*.yaml; do
    [ -f "$f" ] || continue
    want=$(sed -n 's/^# schema-error:[[:space:]]*//p' "$f" | head -n 1)
    "$BIN" schema validate --schema "$CONFIG_SCHEMA" "$f" >"$TMP/out" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ] || [ -z "$want" ] || ! grep -qF "($want)" "$TMP/out"; then
        bad "rejected $f (config.schema.json): exit $rc, expected 1 with an error at ${want:-?}"
    else
        ok "rejected $f (config.schema.json, $want)"
    fi
    MCPDESC_NO_CONFIG=1 "$BIN" validate --config "$f" tests/data/config/ts-sdk.json >"$TMP/out" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "^$f:[0-9]*:[0-9]*: error: " "$TMP/out"; then ok "the program refuses $f"
    else bad "the program refuses $f: validate exit $rc without an error at a position of it"; fi
done

# e. the schema's predicates are the predicate table's
awk '/fn_table\[\] = \{/ { t = 1; next }
     t && /^};/ { t = 0 }
     t && /^    \{"[a-z][a-z0-9-]*",/ { sub(/^    \{"/, ""); sub(/".*/, ""); print }' \
    src/rules/fn_table.c 2>/dev/null | sort -u >"$TMP/table"
sed -n 's/.*"\$ref": "#\/\$defs\/pred\.\([a-z0-9-]*\)".*/\1/p' "$RULE_SCHEMA" | sort -u >"$TMP/schema"
sed -n 's/^    "pred\.\([a-z0-9-]*\)": {$/\1/p' "$RULE_SCHEMA" | sort -u >"$TMP/defs"
: >"$TMP/out"
n=$(wc -l <"$TMP/table" | tr -d ' ')
if [ "$n" -eq 0 ]; then
    bad "predicates: no fn_table[] entries found in src/rules/fn_table.c (layout changed?)"
else
    before=$fail
    for name in $(cat "$TMP/table"); do
        grep -qx "$name" "$TMP/schema" && grep -qx "$name" "$TMP/defs" ||
            bad "predicate $name (fn_table) has no pred.$name in $RULE_SCHEMA"
    done
    for name in $(cat "$TMP/schema" "$TMP/defs" | sort -u); do
        grep -qx "$name" "$TMP/table" || bad "predicate $name is in $RULE_SCHEMA but not in fn_table[]"
    done
    [ "$fail" -eq "$before" ] &&
        ok "predicates: the schema has exactly the $n of fn_table[]"
fi

# g. the language's tables against the schemas
if ! "$BIN" rules dump-language >"$TMP/lang" 2>"$TMP/out"; then
    bad "rules dump-language failed"
else
    # map, schema location, member, kind, required: one TAB-separated line a row
    sed -n 's/^{"map":"\([^"]*\)","schema":"\([^"]*\)","member":"\([^"]*\)","kind":"\([^"]*\)","required":\([a-z]*\).*/\1	\2	\3	\4	\5/p' \
        "$TMP/lang" >"$TMP/rows"
    : >"$TMP/out"
    if [ ! -s "$TMP/rows" ]; then bad "language tables: rules dump-language printed no row (format changed?)"; fi
    for loc in $(cut -f2 "$TMP/rows" | sort -u); do
        file=schema/${loc%%#*}
        ptr=${loc#*#}
        map=$(awk -F'\t' -v l="$loc" '$2 == l { print $1; exit }' "$TMP/rows")
        awk -f tests/json-flatten.awk "$file" >"$TMP/flat"
        before=$fail
        if ! awk -F'\t' -v p="$ptr" '$1 == p' "$TMP/flat" | grep -q .; then
            bad "language table $map: its schema location $loc is not in $file"
            continue
        fi
        # the schema's members, its required ones, and each member's direct type
        awk -F'\t' -v p="$ptr/properties/" 'index($1, p) == 1 { r = substr($1, length(p) + 1); if (r !~ /\//) print r }' \
            "$TMP/flat" | sort >"$TMP/s-members"
        awk -F'\t' -v p="$ptr/required/" 'index($1, p) == 1 { v = $2; gsub(/"/, "", v); print v }' \
            "$TMP/flat" | sort >"$TMP/s-required"
        awk -F'\t' -v l="$loc" '$2 == l { print $3 }' "$TMP/rows" | sort >"$TMP/t-members"
        awk -F'\t' -v l="$loc" '$2 == l && $5 == "true" { print $3 }' "$TMP/rows" | sort >"$TMP/t-required"
        for m in $(comm -23 "$TMP/t-members" "$TMP/s-members"); do
            bad "language table $map: member $m is in the table but not in $loc (add it to the schema's properties)"
        done
        for m in $(comm -13 "$TMP/t-members" "$TMP/s-members"); do
            bad "language table $map: member $m is in $loc but not in the table (add its row, or drop it from the schema)"
        done
        for m in $(comm -23 "$TMP/t-required" "$TMP/s-required"); do
            bad "language table $map: member $m is required in the table but not in $loc"
        done
        for m in $(comm -13 "$TMP/t-required" "$TMP/s-required"); do
            bad "language table $map: member $m is required in $loc but not in the table"
        done
        for m in $(cat "$TMP/t-members"); do
            kind=$(awk -F'\t' -v l="$loc" -v m="$m" '$2 == l && $3 == m { print $4 }' "$TMP/rows")
            type=$(awk -F'\t' -v p="$ptr/properties/$m/type" '$1 == p { v = $2; gsub(/"/, "", v); print v }' "$TMP/flat")
            case $kind in
            string) want=string ;;
            "list of strings" | "list of mappings") want=array ;;
            integer) want=integer ;;
            mapping | "mapping of strings" | "named predicates") want=object ;;
            *) want= ;;
            esac
            if [ -n "$type" ] && [ -n "$want" ] && [ "$type" != "$want" ]; then
                bad "language table $map: member $m is a $kind in the table but \"type\": \"$type\" in $loc"
            fi
            [ "$kind" = "one of" ] || continue
            tv=$(grep "\"map\":\"$map\",.*\"member\":\"$m\"," "$TMP/lang" |
                sed -n 's/.*"values":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' ')
            sv=$(awk -F'\t' -v p="$ptr/properties/$m/enum/" 'index($1, p) == 1 { v = $2; gsub(/"/, "", v); printf "%s ", v }' "$TMP/flat")
            if [ "$tv " != "$sv" ]; then
                bad "language table $map: member $m takes $tv in the table but ${sv:-no enum} in $loc"
            fi
        done
        [ "$fail" -eq "$before" ] && ok "language table $map: the members of $loc"
    done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
