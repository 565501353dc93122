#!/bin/sh
# validate-sarif.sh BINARY [SCHEMA] - the SARIF that `mcpdesc validate --format sarif`
# writes for the shipped examples (examples/, conformance/, a file that does not parse
# (a result of mcpdesc.parse at the error's position, and a notification), standard input, -q, a config, a run with --baseline: new, unchanged and absent results,
# suppressions with a baseline, report-at: match regions), and the SARIF of `mcpdesc diff`
# (each change in NEW, its place in OLD as a related location; checked against the diff's
# JSON report, its changes per pair)
# must validate against the official SARIF 2.1.0 JSON Schema.
# Validators: the project's own engine (`mcpdesc schema validate`, draft-04), and also
# Debian's python3-jsonschema when it is installed (a second opinion, plus checks the
# schema cannot express: ruleIndex points at the rule named by ruleId, one result per
# diagnostic of the JSON report, every artifact URI names an existing file).
# SCHEMA defaults to $MCPDESC_SHARED/data/sarif/sarif-schema-2.1.0.json (../shared);
# without it the test is skipped with a message (exit 0).
set -u
if [ $# -lt 1 ]; then
    echo "usage: sh tests/validate-sarif.sh BINARY [SCHEMA]" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
schema=${2:-${MCPDESC_SHARED:-../shared}/data/sarif/sarif-schema-2.1.0.json}
case $schema in /*) ;; *) schema="$here/$schema" ;; esac
cd "$(dirname "$0")/.." || exit 2
. tests/skip.sh
if [ ! -f "$schema" ]; then
    test_skip validate-sarif "SARIF schema validation" "no SARIF 2.1.0 schema at $schema; set MCPDESC_SHARED" || exit 1
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpdesc-sarif.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

py=""
for p in /usr/bin/python3 python3; do
    if command -v "$p" > /dev/null 2>&1 && "$p" -c 'import jsonschema' 2> /dev/null; then
        py=$p
        break
    fi
done

printf '{"mcpDescription": "0.9.0",\n  "tools": [\n' > "$tmp/broken.json"
failed=0
n=0
# check NAME ARGS...: run validate (or $cmd) with ARGS twice (sarif, json) and judge the
# SARIF; standard input is $input (default: a valid description), the rule set $rules
# (default: rules-yaml).
check() {
    name=$1
    shift
    n=$((n + 1))
    "$bin" "${cmd:-validate}" --rules "${rules:-rules-yaml}" --format sarif "$@" < "${input:-conformance/expected-valid/component-chain.json}" \
        > "$tmp/$name.sarif" 2> "$tmp/$name.err"
    st=$?
    if [ "$st" -gt 2 ] || [ ! -s "$tmp/$name.sarif" ]; then
        echo "FAIL validate-sarif $name: exit $st"
        sed 's/^/      | /' "$tmp/$name.err"
        failed=$((failed + 1))
        return
    fi
    "$bin" "${cmd:-validate}" --rules "${rules:-rules-yaml}" --format json "$@" < "${input:-conformance/expected-valid/component-chain.json}" \
        > "$tmp/$name.json" 2> /dev/null
    problems=""
    if ! "$bin" schema validate --schema "$schema" "$tmp/$name.sarif" > "$tmp/$name.own" 2>&1; then
        problems="$problems mcpdesc-schema"
    fi
    if [ -n "$py" ] && ! "$py" - "$schema" "$tmp/$name.sarif" "$tmp/$name.json" > "$tmp/$name.py" 2>&1 <<'PY'
import json, os, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
sarif = json.load(open(sys.argv[2]))
report = json.load(open(sys.argv[3]))
if "pairs" in report:  # mcpdesc diff: a pair's changes are its findings, "old" their related place
    report = {"files": [dict({"file": p["new"] or p["old"], "diagnostics": [
        dict(c, related=[c["old"]] if c["new"] and c["old"] else []) for c in p["changes"]]},
        **({"error": p["error"]} if p["error"] else {})) for p in report["pairs"] if not p["skipped"]]}
jsonschema.Draft4Validator(schema).validate(sarif)
assert len(sarif["runs"]) == 1, "one run"
run = sarif["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
assert len(ids) == len(set(ids)), "rule ids are unique"
INPUT = "mcpdesc.parse"  # an input that could not be judged: no rule page
for r in rules:
    # the shipped MCP set names no docs-url (no site publishes its pages): the help is
    # carried whole, never a dead link (the --docs-url goldens cover helpUri); the security
    # set names one (HELP_URI=1)
    assert os.environ.get("HELP_URI") == "1" or "helpUri" not in r, r["helpUri"]
    if r["id"] != INPUT:
        assert r["help"]["text"] and r["help"]["markdown"], r["id"]
want = sum(len(f.get("diagnostics", [])) for f in report["files"])
absent = report.get("baseline", {}).get("absent", [])
errors = [f for f in report["files"] if "error" in f]
assert len(run["results"]) == want + len(absent) + len(errors), \
    "%d results, %d diagnostics, %d absent, %d input errors" % (
    len(run["results"]), want, len(absent), len(errors))
# every input error is a result of mcpdesc.parse, an error, at the error's position
inputs = [res for res in run["results"] if res.get("ruleId") == INPUT]
assert len(inputs) == len(errors), "%d mcpdesc.parse results, %d input errors" % (len(inputs), len(errors))
assert (INPUT in ids) == bool(errors), "mcpdesc.parse is a rule of the run when an input fails"
for f, res in zip(errors, inputs):
    assert res["level"] == "error" and res["message"]["text"] == f["error"]["message"], res
    pl = res["locations"][0]["physicalLocation"]
    assert pl["artifactLocation"]["uri"].endswith(os.path.basename(f["file"])), pl
    if f["error"].get("line"):
        assert pl["region"]["startLine"] == f["error"]["line"], pl
        assert pl["region"]["startColumn"] == f["error"]["column"], pl
results = [res for res in run["results"] if res.get("ruleId") != INPUT]
states = [res.get("baselineState") for res in results]
# SARIF 3.27.24: on every result of the run or on none; absent ones only with a baseline
assert all(states) or not any(states), states
assert all(states) == ("baseline" in report) or not states, "baselineState with --baseline only"
assert states.count("absent") == len(absent), "one absent result per gone finding"
diags = [d for f in report["files"] for d in f.get("diagnostics", [])]
for d, res in zip(diags, results):
    assert d.get("baselineState") == res.get("baselineState"), (d, res.get("baselineState"))
    # a suppressed finding (JSON "suppressed") carries SARIF suppressions (3.27.23, 3.35)
    sup = d.get("suppressed")
    assert bool(sup) == bool(res.get("suppressions")), (d, res.get("suppressions"))
    if sup:
        s = res["suppressions"][0]
        assert s["kind"] == {"config": "external", "inline": "inSource"}[sup["kind"]], s
        assert s["justification"] == sup["reason"] and s["status"] == "accepted", s
    # the related places (validate --together) are its relatedLocations (3.27.22), in order
    rel = res.get("relatedLocations", [])
    assert len(rel) == len(d.get("related", [])), (d, rel)
    for k, (r, loc) in enumerate(zip(d.get("related", []), rel)):
        assert loc["id"] == k + 1, loc
        pl = loc["physicalLocation"]
        assert pl["artifactLocation"]["uri"].endswith(r["file"]), (r, pl)
        assert (pl["region"]["startLine"], pl["region"]["startColumn"]) == (r["line"], r["column"]), (r, pl)
    # report-at: match: the region starts at the match and ends just after it (3.30)
    region = res["locations"][0]["physicalLocation"].get("region", {})
    assert ("match" in d) == ("endColumn" in region), (d, region)
    if "match" in d:
        assert (region["startLine"], region["startColumn"]) == (d["line"], d["column"]), region
        assert (region["endLine"], region["endColumn"]) > (d["line"], d["column"]), region
for res in run["results"]:
    fp = res["partialFingerprints"]["mcpdesc/v1"]
    assert fp.startswith("v1:") and len(fp) == 67, fp
    if res.get("baselineState") == "absent":
        assert "ruleIndex" not in res or rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert os.path.isfile(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        continue
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"], res["ruleId"]
    if res["ruleId"] == INPUT:
        continue
    loc = res["locations"][0]
    art = loc["physicalLocation"]["artifactLocation"]
    if "uri" in art:
        assert os.path.isfile(art["uri"]), art["uri"]
    fqn = loc["logicalLocations"][0]["fullyQualifiedName"]
    assert fqn == "" or fqn.startswith("/"), fqn
    assert res["properties"]["versions"], "versions"
for inv in run["invocations"]:
    for ov in inv.get("ruleConfigurationOverrides", []):
        d = ov["descriptor"]
        assert rules[d["index"]]["id"] == d["id"], "override of %s" % d["id"]
notes = [x for inv in run["invocations"] for x in inv.get("toolExecutionNotifications", [])]
assert len(notes) == len(errors), "%d notifications, %d parse errors" % (len(notes), len(errors))
PY
    then
        problems="$problems python-jsonschema"
    fi
    if [ -z "$problems" ]; then
        echo "ok validate-sarif $name ($(grep -c '"ruleId"' "$tmp/$name.sarif") results)"
    else
        echo "FAIL validate-sarif $name:$problems"
        for f in own py; do [ -s "$tmp/$name.$f" ] && head -n 20 "$tmp/$name.$f" | sed 's/^/      | /'; done
        failed=$((failed + 1))
    fi
}

check examples examples
check conformance conformance
check parse-failure "$tmp/broken.json" conformance/expected-invalid/non-object-input-schema.json
# a YAML file that does not parse, and a directory with no description in it
printf 'mcpDescription: "0.9.0"\ntools: [\n' > "$tmp/broken.yaml"
mkdir "$tmp/empty"
check parse-failures "$tmp/broken.yaml" "$tmp/empty" conformance/expected-warning/tool-names.json
check stdin -
check quiet -q conformance/expected-warning
check absolute "$(pwd)/conformance/expected-invalid/component-ref-cycle.json"
# a config (docs/config.md): ruleConfigurationOverrides and the config in properties
check config --config tests/data/config/sarif.yaml tests/data/config/ts-sdk.json tests/data/config/tree
# a baselined server changed: a tool inserted (new), one fixed (absent), the others unchanged
input=tests/data/baseline/changed.json check baseline --baseline tests/data/baseline/baseline.json \
    --stdin-filepath tests/data/baseline/server.json -
# suppressions (config: external, x-mcpdesc-ignore: inSource) with a baseline, the
# suppressions' own findings in the config file; the "Done when" of issue 17: a TypeScript
# SDK server with a checked-in config and baseline, changed to add one new warning
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH
check suppress --config tests/data/suppress/all.yaml --baseline tests/data/suppress/baseline.json \
    tests/data/suppress/server.json tests/data/suppress/inline.json
input=tests/data/suppress/adopt/changed.json check adopt --config tests/data/suppress/adopt/.mcpdesc.yaml \
    --baseline tests/data/suppress/adopt/baseline.json --stdin-filepath tests/data/suppress/adopt/server.json -
# an organisation set whose overrides raise one base rule and turn one off (enabled: false)
rules=tests/data/overrides/globex check overrides tests/data/overrides/globex-tools.json
# report-at: match: regions that end where the match does, in JSON and YAML
rules=tests/data/report-at-match check report-at-match tests/data/report-at-match/raw.json \
    tests/data/report-at-match/escaped.json tests/data/report-at-match/blocks.yaml
# --together: findings with relatedLocations (the other server's tool)
HELP_URI=1 rules=rules-yaml/security check together --together conformance/security/together/mail-notes
# mcpdesc diff: a tool removed, one renamed, one added (the category and item in the
# property bag, the place in OLD a related location)
cmd=diff HELP_URI=1 rules=rules-yaml/diff check diff conformance/diff/tool-removed-added/old.json \
    conformance/diff/tool-removed-added/new.json
skipped=0
if [ -z "$py" ]; then
    skipped=1
    test_skip validate-sarif "the python3-jsonschema second opinion and the report-consistency checks of $n runs" \
        "python3 with jsonschema not found; make deps installs python3-jsonschema" || failed=$((failed + 1))
fi
echo "$((n - failed)) passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
