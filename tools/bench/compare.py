#!/usr/bin/env python3
"""compare.py - do mcpdesc and Spectral report the same nodes for the two seed rules?

Usage: compare.py MCPDESC.json SPECTRAL.json
MCPDESC.json is `mcpdesc validate --format json` output, SPECTRAL.json is
`spectral lint --format json` output with tools/bench/spectral/mcp-seed-rules.js, whose
messages end with "at POINTER (v1, v2, ...)": Spectral's `path` stops at the last node
that exists in the file as written (the $componentRef site for a value reached through
one), so the pointer in the resolved document is read from the message, and the `path`
is checked to be a prefix of it. Compares the sets of (rule, JSON pointer) and of
(rule, JSON pointer, versions); prints the differences; exit 0 when both sets are equal,
1 when they differ, 2 on unreadable input. Python 3 standard library only.
"""
import json
import re
import sys

SEED = {"mcp.tool.input-schema.object-root", "mcp.tool.schema.native-shape"}
TAIL = re.compile(r" at (/\S*) \(([0-9, -]+)\)$")


def pointer(path):
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in path)


def mcpdesc_nodes(doc):
    out = set()
    for f in doc.get("files", []):
        if "error" in f:
            raise ValueError("mcpdesc could not read %s: %s" % (f.get("file"), f["error"]))
        for d in f.get("diagnostics", []):
            if d["rule"] in SEED:
                out.add((d["rule"], d["pointer"], tuple(d.get("versions", []))))
    return out


def spectral_nodes(results):
    out = set()
    for r in results:
        if r.get("code") not in SEED:
            continue
        m = TAIL.search(r.get("message", ""))
        if not m:
            raise ValueError("spectral message without pointer and versions: %r" % r.get("message"))
        where = pointer(r.get("path", []))
        if m.group(1) != where and not m.group(1).startswith(where + "/"):
            raise ValueError("spectral path %s is not a prefix of %s" % (where, m.group(1)))
        vs = tuple(v.strip() for v in m.group(2).split(","))
        out.add((r["code"], m.group(1), vs))
    return out


def show(title, items):
    items = sorted(items)
    print("  %s: %d" % (title, len(items)))
    for it in items[:10]:
        print("    %s %s (%s)" % (it[0], it[1], ", ".join(it[2]) if len(it) > 2 else ""))
    if len(items) > 10:
        print("    ... %d more" % (len(items) - 10))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: compare.py MCPDESC.json SPECTRAL.json\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            a = mcpdesc_nodes(json.load(f))
        with open(argv[2], encoding="utf-8") as f:
            b = spectral_nodes(json.load(f))
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write("compare.py: %s\n" % e)
        return 2
    a2 = {x[:2] for x in a}
    b2 = {x[:2] for x in b}
    same_nodes = a2 == b2
    same_versions = a == b
    print("nodes: mcpdesc %d, spectral %d: %s; with versions: %s" % (
        len(a2), len(b2), "SAME" if same_nodes else "DIFFERENT",
        "SAME" if same_versions else "DIFFERENT"))
    if not same_versions:
        show("only mcpdesc", a - b)
        show("only spectral", b - a)
    return 0 if same_versions else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
