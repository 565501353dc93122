# cases.sh - the hostile corpus, sourced by tests/hostile/run.sh (which defines hcase,
# hmulti, $bin, $IN for generated inputs, $T for tests/hostile).
#   hcase NAME STATUS SECONDS MEGABYTES [-i STDIN] [SUBSTRING...] -- ARGS...
# STATUS is the CLI contract's (0 judged and clean, 1 findings, 2 unreadable or unparsable
# input or rule set); the substrings say what, where (file:line:col) and the bound or fix.
# Bounds are for a plain -O2 build (run.sh scales them under ASan) and hold with a wide
# margin on a 2-core machine: they catch hangs and blow-ups, not small regressions.
# Expected messages where the tool does not yet give them are proposals (docs/hostile.md).
# shellcheck shell=sh disable=SC2154,SC2059,SC2086
# (SC2154: $dir etc. come from run.sh; SC2059: the printf formats are the test bytes;
#  SC2086: $V is a word list on purpose)

D=$T/data
S=$T/schema
G=$dir/gen
V="validate --rules rules-yaml --color never"
# a case with a rule set of its own gives --rules once (twice is exit 2)
VR="validate --color never"

# ---- inputs generated at test time (big ones, and ones with raw NUL / invalid UTF-8) ----
$G nest-array 1000000 > "$IN/deep-array.json"
$G nest-object 1000000 > "$IN/deep-object.json"
$G nest-in-desc 1000000 > "$IN/deep-in-desc.json"
$G nest-array 1000000 > "$IN/deep-flow.yaml"
$G nest-yaml-block 1000000 > "$IN/deep-block.yaml"
$G big-string 100000000 > "$IN/big-string.json"
$G ref-chain 100000 > "$IN/ref-chain.json"
$G ref-cycle 100000 > "$IN/ref-cycle.json"
$G ref-nest 100000 > "$IN/ref-nest.json"
$G ref-bomb 40 > "$IN/ref-bomb.json"
$G regex-subject 100000 > "$IN/regex-subject.json"
$G regex-instance 100000 > "$IN/regex-instance.json"
$G schema-ref-chain 50000 > "$IN/schema-ref-chain.json"
$G schema-ref-cycle 100000 > "$IN/schema-ref-cycle.json"
$G random 1000000 42 > "$IN/random.json"
cp "$IN/random.json" "$IN/random.yaml"
: > "$IN/empty.json"
: > "$IN/empty.yaml"
rm -f "$IN/huge.json"
truncate -s 300M "$IN/huge.json" # sparse: costs no disk
HEAD='{"mcpDescription":"0.9.0","protocolVersions":["2025-11-25"],"serverInfo":{"name":"hostile","version":"1.0.0"},"capabilities":{"tools":{}},\n"tools":[{"name":"'
TAIL='","description":"d","inputSchema":{"type":"object"}}]}\n'
YHEAD='mcpDescription: 0.9.0\nprotocolVersions: [2025-11-25]\nserverInfo: {name: hostile, version: 1.0.0}\ncapabilities: {tools: {}}\ntools:\n  - name: '
YTAIL='\n    description: d\n    inputSchema: {type: object}\n'
printf "$HEAD"'caf\351'"$TAIL" > "$IN/utf8-invalid.json"
printf "$HEAD"'a\300\257b'"$TAIL" > "$IN/utf8-overlong.json"
printf "$HEAD"'a\355\240\200b'"$TAIL" > "$IN/utf8-surrogate.json"
printf "$HEAD"'a\\ud800b'"$TAIL" > "$IN/surrogate-escape.json"
printf "$HEAD"'a\000b'"$TAIL" > "$IN/nul-raw.json"
printf "$HEAD"'a\\u0000b'"$TAIL" > "$IN/nul-escaped.json"
printf "$YHEAD"'"caf\351"'"$YTAIL" > "$IN/utf8-invalid.yaml"
printf "$YHEAD"'a\000b'"$YTAIL" > "$IN/nul-raw.yaml"
printf "$YHEAD"'"a\\0b\\x00c"'"$YTAIL" > "$IN/nul-escaped.yaml"
# a rule file nested a million deep
mkdir -p "$IN/rules-deep"
sed 's/^  - cycle.yaml$/  - deep.yaml/' "$T/rules-cycle/manifest.yaml" > "$IN/rules-deep/manifest.yaml"
{ printf 'rules: '; $G nest-array 1000000; echo; } > "$IN/rules-deep/deep.yaml"
# rule sets whose manifest, or only rule file, is random bytes or empty
mkdir -p "$IN/rules-random-manifest" "$IN/rules-random" "$IN/rules-empty"
cp "$IN/random.json" "$IN/rules-random-manifest/manifest.yaml"
sed 's/^  - cycle.yaml$/  - random.yaml/' "$T/rules-cycle/manifest.yaml" > "$IN/rules-random/manifest.yaml"
cp "$IN/random.json" "$IN/rules-random/random.yaml"
sed 's/^  - cycle.yaml$/  - empty.yaml/' "$T/rules-cycle/manifest.yaml" > "$IN/rules-empty/manifest.yaml"
: > "$IN/rules-empty/empty.yaml"
# a directory of descriptions, one of them hostile (issue 8 item 6)
rm -rf "$IN/multi" && mkdir -p "$IN/multi"
cp "$D/good.json" "$IN/multi/a-good.json"
# named as descriptions: a found file that does not parse is an input error only then
cp "$IN/deep-array.json" "$IN/multi/b-deep.mcp-description.json"
cp "$D/good.json" "$IN/multi/c-good.json"
cp "$IN/random.json" "$IN/multi/d-random.mcp-description.json"
cp "$D/good.json" "$IN/multi/e-good.json"

hnet_selftest

# ---- nesting a million deep: refused at the documented 512 levels, where it happens ----
hcase deep-json-array 2 10 200 "$IN/deep-array.json:1:513: error: nesting deeper than 512 levels" \
    -- $V "$IN/deep-array.json"
hcase deep-json-object 2 10 200 "$IN/deep-object.json:1:2561: error: nesting deeper than 512 levels" \
    -- $V "$IN/deep-object.json"
hcase deep-json-in-description 2 10 200 "$IN/deep-in-desc.json:2:567: error: nesting deeper than 512 levels" \
    -- $V "$IN/deep-in-desc.json"
hcase deep-yaml-flow 2 10 200 "$IN/deep-flow.yaml:1:513: error: nesting deeper than 512 levels" \
    -- $V "$IN/deep-flow.yaml"
hcase deep-yaml-block 2 10 200 "$IN/deep-block.yaml:1:1025: error: nesting deeper than 512 levels" \
    -- $V "$IN/deep-block.yaml"
hcase deep-rule-file 2 10 200 "$IN/rules-deep/deep.yaml:1:519: error: nesting deeper than 512 levels" \
    -- $VR --rules "$IN/rules-deep" "$D/good.json"

# ---- size: a 100 MB string is judged; over 256 MiB is refused without reading it all ----
hcase string-100mb 0 30 1000 "0 errors, " "infos in 1 file" \
    -- $V "$IN/big-string.json"
hcase file-over-256mib 2 20 700 "$IN/huge.json: error: input is over the limit of 268435456 bytes" \
    -- $V "$IN/huge.json"
hcase stdin-over-256mib 2 20 700 -i "$IN/huge.json" "<stdin>: error: input is over the limit of 268435456 bytes" \
    -- $V -

# ---- encodings: invalid UTF-8 and NUL bytes ----
hcase utf8-invalid-json 2 10 200 "$IN/utf8-invalid.json:2:" "unable to decode byte 0xe9" -- $V "$IN/utf8-invalid.json"
hcase utf8-overlong-json 2 10 200 "$IN/utf8-overlong.json:2:" "unable to decode byte 0xc0" -- $V "$IN/utf8-overlong.json"
hcase utf8-surrogate-json 2 10 200 "$IN/utf8-surrogate.json:2:" "unable to decode byte 0xed" -- $V "$IN/utf8-surrogate.json"
hcase surrogate-escape-json 2 10 200 "$IN/surrogate-escape.json:2:" "invalid Unicode '\\uD800'" -- $V "$IN/surrogate-escape.json"
hcase nul-raw-json 2 10 200 "$IN/nul-raw.json:2:" "control character 0x0" -- $V "$IN/nul-raw.json"
# \u0000 is valid JSON: judged, and the name is shown escaped, never cut at the NUL
hcase nul-escaped-json 0 10 200 "$IN/nul-escaped.json:2:18: warning: tool name \"a\\u0000b\"" "in 1 file" \
    -- $V "$IN/nul-escaped.json"
# a \u0000 inside a reference must not cut it short ("Obj\u0000evil" is not "Obj"): refused
# as %00 is; in the schema engine likewise, and a required name with a NUL is never present
hcase nul-component-ref 1 10 200 "$D/nul-component-ref.json:3:61: error: \$componentRef \"#/components/schemas/Obj\\u0000evil\" is not a reference" \
    "[mcpdesc.component-ref.invalid]" -- $V "$D/nul-component-ref.json"
hcase schema-nul-ref 2 10 200 "$S/nul-ref.schema.json:2:10: error: reference \"#/\$defs/Str\\u0000evil\"" \
    -- schema validate --schema "$S/nul-ref.schema.json" "$S/integer.json"
hcase schema-nul-id 1 10 200 "$S/nul-id.schema.json:2:" "\\u0000" -- schema check "$S/nul-id.schema.json"
hcase schema-nul-required 1 10 200 "$S/a-and-c.json:1:1: error: required property \"a\\u0000b\" is missing" \
    "\"c\\u0000d\"" -- schema validate --schema "$S/nul-required.schema.json" "$S/a-and-c.json"
hcase utf8-invalid-yaml 2 10 200 "$IN/utf8-invalid.yaml:6:15: error: invalid YAML: invalid trailing UTF-8 octet" \
    -- $V "$IN/utf8-invalid.yaml"
hcase nul-raw-yaml 2 10 200 "$IN/nul-raw.yaml:6:12: error: invalid YAML: control characters are not allowed" \
    -- $V "$IN/nul-raw.yaml"
hcase nul-escaped-yaml 0 10 200 "tool name \"a\\u0000b\\u0000c\"" "in 1 file" -- $V "$IN/nul-escaped.yaml"

# ---- duplicate keys, integers beyond 64 bits ----
hcase dup-keys-json 2 10 200 "$D/dup-keys.json:4:77: error: invalid JSON: duplicate object key near '\"name\"'" \
    -- $V "$D/dup-keys.json"
hcase dup-keys-yaml 2 10 200 "$D/dup-keys.yaml:10:7: error: duplicate key \"type\"" -- $V "$D/dup-keys.yaml"
hcase bigint-json 2 10 200 "$D/bigint.json:5:" "too big integer" -- $V "$D/bigint.json"
hcase bigint-negative-json 2 10 200 "$D/bigint-negative.json:5:" "too big negative integer" -- $V "$D/bigint-negative.json"
hcase bigreal-json 2 10 200 "$D/bigreal.json:5:" "real number overflow" -- $V "$D/bigreal.json"
# YAML must refuse what JSON refuses, not round it to a double
hcase bigint-yaml 2 10 200 "$D/bigint.yaml:11:37: error:" "64 bits" -- $V "$D/bigint.yaml"

# ---- $componentRef: a 100,000-long chain is followed; a 100,000-long cycle is reported ----
hcase component-ref-chain-100k 1 20 500 "$IN/ref-chain.json:100003:10: error:" "[mcp.tool.input-schema.object-root]" \
    -- $V "$IN/ref-chain.json"
hcase component-ref-cycle-100k 1 20 500 \
    "$IN/ref-cycle.json:4:6: error: \$componentRef \"#/components/schemas/S1\" is part of a reference cycle [mcpdesc.component-ref.cycle]" \
    "$IN/ref-cycle.json:100003:10: error: \$componentRef \"#/components/schemas/S0\" is part of a reference cycle" \
    -- $V "$IN/ref-cycle.json"

# Substitution must not build what the parser refuses: a chain whose links nest the next
# one is 200,000 levels deep once substituted, and two references per link are a
# billion-laughs bomb (2^40 nodes). Proposed: built-in mcpdesc.component-ref.* errors
# bounding the substituted depth (512, as parsed documents) and size (1048576 nodes, as
# YAML aliases); the sites over a bound are left unresolved.
hcase component-ref-nest-100k 1 20 500 "$IN/ref-nest.json:" "[mcpdesc.component-ref." \
    -- $V "$IN/ref-nest.json"
hcase component-ref-nest-100k-valid-schema 1 20 500 "$IN/ref-nest.json:" "[mcpdesc.component-ref." \
    -- $VR --rules "$T/rules-schema" --rule hostile.tool.input-schema.valid --rule 'mcpdesc.component-ref.*' "$IN/ref-nest.json"
hcase component-ref-bomb 1 10 500 "$IN/ref-bomb.json:" "[mcpdesc.component-ref." \
    -- $V "$IN/ref-bomb.json"
hcase component-ref-bomb-valid-schema 1 10 500 "$IN/ref-bomb.json:" "[mcpdesc.component-ref." \
    -- $VR --rules "$T/rules-schema" --rule hostile.tool.input-schema.valid --rule 'mcpdesc.component-ref.*' "$IN/ref-bomb.json"

# ---- YAML aliases: bombs and cycles, in descriptions, rule files and the manifest ----
hcase alias-bomb-description 2 10 300 "$D/alias-bomb.yaml:12:42: error: aliases expand to more than 1048576 nodes" \
    -- $V "$D/alias-bomb.yaml"
hcase alias-cycle-description 2 10 200 "$D/alias-cycle.yaml:10:52: error: alias *loop refers to no complete anchor" \
    -- $V "$D/alias-cycle.yaml"
hcase alias-undefined-description 2 10 200 "$D/alias-undefined.yaml:7:18: error: alias *nowhere refers to no complete anchor" \
    -- $V "$D/alias-undefined.yaml"
hcase alias-bomb-rule-file 2 10 300 "$T/rules-bomb/bomb.yaml:16:46: error: aliases expand to more than 1048576 nodes" \
    -- $VR --rules "$T/rules-bomb" "$D/good.json"
hcase alias-cycle-rule-file 2 10 200 "$T/rules-cycle/cycle.yaml:16:13: error: alias *loop refers to no complete anchor" \
    -- $VR --rules "$T/rules-cycle" "$D/good.json"
hcase alias-bomb-manifest 2 10 300 "$T/rules-manifest-bomb/manifest.yaml:28:42: error: aliases expand to more than 1048576 nodes" \
    -- $VR --rules "$T/rules-manifest-bomb" "$D/good.json"
hcase alias-bomb-rules-lint 1 10 300 "$T/rules-bomb/bomb.yaml:16:46: error: aliases expand" -- rules lint "$T/rules-bomb"

# ---- catastrophic regular expressions: bounded, reported as such ----
hcase regex-rule-matches 1 10 200 "$IN/regex-subject.json:2:9: error: title does not match ^(a+)+\$" \
    -- $VR --rules "$T/rules-schema" --rule hostile.tool.title.slow-matches "$IN/regex-subject.json"
hcase regex-rule-schema-pattern 1 10 200 "$IN/regex-subject.json:2:9: error:" "exceeded regex_match_limit=1000000" \
    -- $VR --rules "$T/rules-schema" --rule hostile.tool.title.slow-pattern "$IN/regex-subject.json"
hcase regex-rule-too-large 2 10 200 "$T/rules-bad-regex/bad-regex.yaml:16:26: error: matches: bad regular expression at offset" \
    -- $VR --rules "$T/rules-bad-regex" "$D/good.json"
hcase regex-schema-pattern 1 10 200 "$IN/regex-instance.json:1:1: error: validation stopped: pattern \"^(a+)+\$\" exceeded regex_match_limit" \
    -- schema validate --schema "$S/slow-pattern.schema.json" "$IN/regex-instance.json"
hcase regex-schema-pattern-properties 1 10 200 "$S/slow-key.json:1:1: error: validation stopped" "regex_match_limit" \
    -- schema validate --schema "$S/slow-pattern-props.schema.json" "$S/slow-key.json"
# valid ECMA-262 (JavaScript compiles it) that PCRE2 refuses as too large: a note, never
# the author's error, and mcpdesc takes every string to match it (docs/schema.md)
hcase regex-schema-too-large 0 10 200 "$S/huge-repeat.schema.json:2:13: note: cannot check this pattern" "too large" \
    -- schema check "$S/huge-repeat.schema.json"

# ---- network $refs: refused by name, and no socket is ever opened (nosocket.so) ----
hcase netref-description-shipped-rules 0 10 200 \
    "$D/netref.json:6:20: warning: \$ref \"https://evil.example/schema.json\" points at a network URI" \
    "0 errors, 3 warnings, 0 infos in 1 file" -- $V "$D/netref.json"
# valid-schema checks the schema against its meta-schema and leaves a network reference
# unresolved (never fetched): the schema is otherwise valid (mcp.schema.ref.no-network
# names the reference, above)
hcase netref-description-valid-schema 0 10 200 "0 errors, 0 warnings, 0 infos in 1 file" \
    -- $VR --rules "$T/rules-schema" --rule hostile.tool.input-schema.valid "$D/netref.json"
hcase netref-schema-check 1 10 200 "$S/netref.schema.json:4:18: error: reference \"https://evil.example/schema.json\" was not fetched" \
    "$S/netref.schema.json:5:18:" "$S/netref.schema.json:6:25:" -- schema check "$S/netref.schema.json"
hcase netref-schema-validate 2 10 200 "$S/netref.schema.json:4:18: error: reference \"https://evil.example/schema.json\" was not fetched" \
    -- schema validate --schema "$S/netref.schema.json" "$S/object.json"
hcase netref-meta-schema 1 10 200 "$S/netmeta.schema.json:1:13: error: unknown dialect \"https://evil.example/my-meta-schema.json\"" \
    -- schema check "$S/netmeta.schema.json"
hcase refmap-dot-segments 2 10 200 "$S/refmap-escape.schema.json:2:10: error: cannot read reference \"https://mapped.example/etc/passwd\" from \"$S/etc/passwd\"" \
    -- schema validate --schema "$S/refmap-escape.schema.json" --ref-map "https://mapped.example/=$S" "$S/object.json"

# ---- empty files and random bytes ----
hcase empty-json 2 10 200 "$IN/empty.json:1:1: error: empty" -- $V "$IN/empty.json"
hcase empty-yaml 2 10 200 "$IN/empty.yaml:1:1: error: empty YAML document" -- $V "$IN/empty.yaml"
hcase empty-stdin 2 10 200 "<stdin>:1:1: error: empty" -- $V -
hcase random-json 2 10 200 "$IN/random.json:1:1: error: invalid JSON" -- $V "$IN/random.json"
hcase random-yaml 2 10 200 "$IN/random.yaml:1:2: error: invalid YAML" -- $V "$IN/random.yaml"
hcase random-manifest 2 10 200 "$IN/rules-random-manifest/manifest.yaml:1:2: error: invalid YAML" \
    -- $VR --rules "$IN/rules-random-manifest" "$D/good.json"
hcase random-rule-file 2 10 200 "$IN/rules-random/random.yaml:1:2: error: invalid YAML" \
    -- $VR --rules "$IN/rules-random" "$D/good.json"
hcase empty-rule-file 2 10 200 "$IN/rules-empty/empty.yaml:1:1: error: empty" \
    -- $VR --rules "$IN/rules-empty" "$D/good.json"

# ---- schema validate / check with hostile schemas and instances ----
hcase schema-check-deep 2 10 200 "$IN/deep-array.json:1:513: error: nesting deeper than 512 levels" \
    -- schema check "$IN/deep-array.json"
hcase schema-validate-deep-instance 2 10 200 "$IN/deep-array.json:1:513: error: nesting deeper than 512 levels" \
    -- schema validate --schema "$S/slow-pattern.schema.json" "$IN/deep-array.json"
hcase schema-validate-100mb-instance 1 60 1200 "$IN/big-string.json:1:1: error: expected string, got object" \
    -- schema validate --schema "$S/slow-pattern.schema.json" "$IN/big-string.json"
hcase schema-self-ref 1 10 200 "$S/object.json:1:1: error: validation stopped: evaluation nested deeper than max_eval_depth=1000" \
    -- schema validate --schema "$S/self-ref.schema.json" "$S/object.json"
hcase schema-ref-chain-50k 1 30 500 "$S/string.json:1:1: error: validation stopped: evaluation nested deeper than max_eval_depth=1000" \
    -- schema validate --schema "$IN/schema-ref-chain.json" "$S/string.json"
hcase schema-ref-cycle-100k 1 30 500 "$IN/schema-ref-cycle.json:100002:10: error: schema has more subschemas than the bound max_subschemas=100000" \
    -- schema check "$IN/schema-ref-cycle.json"
hcase schema-dup-keys 2 10 200 "$S/dup-keys.schema.json:3:7: error: invalid JSON: duplicate object key" \
    -- schema check "$S/dup-keys.schema.json"
hcase schema-bigint 2 10 200 "$S/bigint.schema.json:2:" "too big integer" -- schema check "$S/bigint.schema.json"
hcase schema-random 2 10 200 "$IN/random.json:1:1: error: invalid JSON" -- schema check "$IN/random.json"
hcase schema-empty 2 10 200 "$IN/empty.json:1:1: error: empty" -- schema check "$IN/empty.json"

# ---- many files, one hostile: every other file's report is complete (item 6) ----
hmulti many-files-deep 20 300 "$IN/deep-array.json" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hmulti many-files-random 20 300 "$IN/random.json" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hmulti many-files-alias-bomb 20 300 "$D/alias-bomb.yaml" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hmulti many-files-empty 20 300 "$IN/empty.json" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hmulti many-files-nul 20 300 "$IN/nul-raw.json" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hmulti many-files-huge 30 800 "$IN/huge.json" "$IN/multi/a-good.json" "$IN/multi/c-good.json"
hcase many-files-directory 2 20 300 "$IN/multi/a-good.json:5:54: error:" "$IN/multi/b-deep.mcp-description.json:1:" \
    "$IN/multi/c-good.json:5:54: error:" "$IN/multi/d-random.mcp-description.json:1:1: error: invalid JSON" \
    "$IN/multi/e-good.json:5:54: error:" "2 input errors in 5 files" -- $V "$IN/multi"
hmulti_json many-files-directory-json 20 300 "$IN/multi"
