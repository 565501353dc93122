#!/bin/sh
# overlap-invariant.sh BINARY - the yields-to post-pass (src/judge/overlap.c) never hides a
# finding about another value, and --rule/--skip never change what the other rules
# report (rules-yaml/README.md, "yields-to"). Runs the shipped rule set on every
# conformance fixture (with its x-args) and on the corpus (examples/corpus/*.json):
#
#  1. once as usual and once with the post-pass switched off: MCPDESC_NO_OVERLAP=1 in the
#     environment (a debugging switch read by the post-pass itself, so every way of
#     judging a file honours it; it is not a command-line option). Every diagnostic
#     version that only the second run reports ("dropped") must be
#       a. reported at its failing value: the diagnostic's pointer ends with the pointer
#          its message names as failing ("... at /description (...)", relative to the
#          node the rule judged), or with that pointer's parent when the failure is a
#          literal member (`const`: the object holding it fails); a message that names
#          no pointer failed at the node itself;
#       b. about a value that a kept diagnostic of the same version is about: some
#          diagnostic of the first run, for that version, has the dropped one's pointer or
#          a pointer below it (P or P/...). Not a sibling, not an enclosing value (the
#          item), not another item.
#  2. for every rule R the first run reports on a group of files: `--rule R` reports
#     exactly R's diagnostics of the first run, and `--skip R` exactly the others
#     (messages, positions and versions included): yields are decided on the full set.
#  3. `--preset recommended` and `--preset strict` report exactly the diagnostics of the
#     first run whose rules are in that preset (`rules list --format json`): a preset
#     leaves rules out as --skip does, never changing what the others report.
# Every run is `--preset all` (every rule of the set) unless a check names a preset.
#
#   sh tests/overlap-invariant.sh build/mcpdesc
# Runs from the repository root; prints ok/FAIL lines and "N passed, N failed"; exit 1
# on any failure, 2 on bad usage. Needs python3 (make deps installs it); without it the
# whole check is a skip (a failure under MCPDESC_REQUIRE=all).
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh tests/overlap-invariant.sh BINARY" >&2
    exit 2
fi
bin=$1
here=$(pwd)
case $bin in /*) ;; *) bin="$here/$bin" ;; esac
cd "$(dirname "$0")/.." || exit 2
. tests/skip.sh
if [ ! -x "$bin" ]; then
    echo "overlap-invariant: cannot run $bin" >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    test_skip overlap-invariant "the yields-to invariant and the --rule/--skip checks" \
        "python3 not found; make deps installs it" || exit 1
    exit 0
fi
exec python3 - "$bin" <<'PY'
import glob, json, os, re, subprocess, sys

BIN = sys.argv[1]
FILES = sorted(glob.glob("conformance/*/*.json")) + sorted(glob.glob("examples/corpus/*.json"))
passed = failed = 0


def report(ok, what, problems=()):
    global passed, failed
    if ok:
        passed += 1
        print("ok " + what)
    else:
        failed += 1
        print("FAIL " + what)
        for p in problems[:20]:
            print("    " + p)
        if len(problems) > 20:
            print("    ... and %d more" % (len(problems) - 20))


def run(files, args, env_extra=None):
    """{file: [diagnostic, ...]} of one validate run (exit 0 or 1)."""
    env = dict(os.environ, NO_COLOR="1")
    env.pop("MCPDESC_NO_OVERLAP", None)
    env.update(env_extra or {})
    if not any(a.startswith("--preset") for a in args):
        args = ["--preset", "all"] + args  # every rule of the set, unless a check picks one
    cmd = [BIN, "validate", "--rules", "rules-yaml", "--format", "json"] + args + files
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("overlap-invariant: %s exited %d: %s" % (" ".join(cmd), p.returncode,
                                                                   p.stderr.decode()[:500]))
    out = json.loads(p.stdout)
    return {f["file"]: f["diagnostics"] for f in out["files"]}


def key(d):
    return (d["rule"], d["level"], d.get("pointer"), d["message"], d.get("line"), d.get("column"))


def below(p, q):
    """Is pointer Q the pointer P or below it?"""
    return q == p or q.startswith(p + "/")


FAILING_AT = re.compile(r" at (/\S*) \(")


def at_failing_value(d):
    m = FAILING_AT.search(d["message"])
    if not m:
        return True
    at, p = m.group(1), d["pointer"]
    parent = at.rsplit("/", 1)[0]
    return p.endswith(at) or (parent != "" and p.endswith(parent))


# The rules of each preset, as `rules list --format json` says (built-ins: recommended).
_listed = json.loads(subprocess.run([BIN, "rules", "list", "--rules", "rules-yaml", "--format", "json"],
                                    stdout=subprocess.PIPE, check=True).stdout)["rules"]
_order = ["recommended", "strict", "all"]
PRESET_RULES = {p: {r["id"] for r in _listed if _order.index(r["preset"]) <= _order.index(p)}
                for p in _order}

# The files, grouped by their x-args (the corpus has none).
groups = {}
for f in FILES:
    with open(f) as fh:
        args = json.load(fh).get("x-args", [])
    groups.setdefault(tuple(args), []).append(f)

for args, files in sorted(groups.items()):
    args = list(args)
    full = run(files, args)
    raw = run(files, args, {"MCPDESC_NO_OVERLAP": "1"})
    # 1. the invariant, file by file
    for f in files:
        kept = full.get(f, [])
        versions = {}
        for d in kept:
            versions.setdefault(key(d), set()).update(d.get("versions", []))
        problems = []
        for d in raw.get(f, []):
            gone = sorted(set(d.get("versions", [])) - versions.get(key(d), set()))
            if not gone and key(d) in versions:
                continue
            if not gone:  # a diagnostic without versions, dropped as a whole
                gone = [None]
            where = "%s %s at %s" % (d["rule"], d["level"], d.get("pointer"))
            if d.get("pointer") is None:
                problems.append("%s: a diagnostic without a pointer was dropped" % where)
                continue
            if not at_failing_value(d):
                problems.append("%s was dropped, but it is not reported at its failing value: %s"
                                % (where, d["message"]))
            for v in gone:
                if not any(below(d["pointer"], e.get("pointer") or "\0") and
                           (v is None or v in e.get("versions", [])) and key(e) != key(d)
                           for e in kept):
                    problems.append("%s was dropped for %s, but no kept diagnostic of %s is about "
                                    "%s or a value inside it" % (where, v, v, d["pointer"]))
        report(not problems, "invariant %s%s" % (f, " " + " ".join(args) if args else ""), problems)
    # 2. --rule R and --skip R against the full run
    rules = sorted({d["rule"] for ds in full.values() for d in ds})
    for r in rules:
        for opt in ("--rule", "--skip"):
            got = run(files, args + [opt, r])
            problems = []
            for f in files:
                want = [d for d in full.get(f, []) if (d["rule"] == r) == (opt == "--rule")]
                have = got.get(f, [])
                if have != want:
                    a = {json.dumps(d, sort_keys=True) for d in want}
                    b = {json.dumps(d, sort_keys=True) for d in have}
                    problems += ["%s: missing %s" % (f, x) for x in sorted(a - b)]
                    problems += ["%s: unexpected %s" % (f, x) for x in sorted(b - a)]
                    if a == b:
                        problems.append("%s: the same diagnostics in another order" % f)
            report(not problems, "%s %s%s (%d files)" % (opt, r, " " + " ".join(args) if args else "",
                                                         len(files)), problems)

    # 3. each preset against the full run (--preset all): exactly the diagnostics of its
    #    rules, the built-in ones included, whatever the rules it leaves out (yields are
    #    decided on the full set, as for --rule/--skip)
    for preset in ("recommended", "strict"):
        got = run(files, args + ["--preset", preset])
        problems = []
        for f in files:
            want = [d for d in full.get(f, []) if d["rule"] in PRESET_RULES[preset]]
            have = got.get(f, [])
            if have != want:
                a = {json.dumps(d, sort_keys=True) for d in want}
                b = {json.dumps(d, sort_keys=True) for d in have}
                problems += ["%s: missing %s" % (f, x) for x in sorted(a - b)]
                problems += ["%s: unexpected %s" % (f, x) for x in sorted(b - a)]
        report(not problems, "--preset %s%s (%d files)" % (preset, " " + " ".join(args) if args else "",
                                                          len(files)), problems)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
