#!/usr/bin/env python3
"""gen-description.py - write a large, realistic MCP Description for the benchmark.

Usage: gen-description.py N_TOOLS OUT.json [--seed=S]

Deterministic: the same N and seed give the same bytes (random.Random(seed), no clock,
no hash order). The document looks like a real server's (examples/corpus/*.json):
schemas with nesting, enums, patterns, formats, $componentRef into components.schemas
(chains included), outputSchemas, annotations, per-item protocolVersions, and a few
percent of deliberate findings for the two seed rules and for other rules, so the
validator does real work on both the passing and the failing paths.
Python 3 standard library only.
"""
import json
import random
import sys

DOC_VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28"]
# Per-item narrowings; "2025-03-26" is not in the document (a built-in finding, dropped).
ITEM_VERSIONS = [
    ["2025-11-25", "2026-07-28"],
    ["2026-07-28"],
    ["2025-06-18"],
    ["2025-06-18", "2025-11-25"],
    ["2025-11-25"],
]
NOUNS = ["repository", "issue", "pull_request", "branch", "commit", "workflow", "invoice",
         "customer", "order", "ticket", "document", "folder", "calendar_event", "message",
         "channel", "user", "team", "project", "dataset", "table", "query", "dashboard",
         "alert", "incident", "deployment", "container", "volume", "secret_ref", "job",
         "pipeline", "forecast", "station", "note", "tag", "label", "comment", "release"]
VERBS = ["get", "list", "create", "update", "delete", "search", "archive", "restore",
         "export", "import", "sync", "validate", "preview", "count", "watch", "merge"]
WORDS = ("the of a to in for by with on from as is that each and or when returns given "
         "identifier page results filter sort order ascending descending limit offset "
         "cursor token user account region timezone format language include exclude "
         "metadata fields created updated after before status state open closed draft "
         "visibility owner name title description summary value default maximum").split()
FORMATS = ["date-time", "date", "email", "uri", "uuid", "hostname", "ipv4"]


class Gen:
    def __init__(self, n, seed):
        self.r = random.Random(seed)
        self.n = n
        self.components = {}
        self.object_components = []   # names of components whose root is an object
        self.value_components = []    # names usable as a property schema

    def words(self, lo, hi):
        w = [self.r.choice(WORDS) for _ in range(self.r.randint(lo, hi))]
        return (" ".join(w)).capitalize() + "."

    def leaf(self):
        r = self.r
        k = r.random()
        if k < 0.30:
            s = {"type": "string", "description": self.words(3, 10)}
            c = r.random()
            if c < 0.3:
                s["pattern"] = r.choice(["^[a-z0-9-]{1,64}$", "^[A-Z]{2,3}-[0-9]+$",
                                         "^[0-9a-f]{7,40}$", "^[^/]+/[^/]+$"])
            elif c < 0.5:
                s["format"] = r.choice(FORMATS)
            elif c < 0.7:
                s["minLength"] = 1
                s["maxLength"] = r.choice([64, 128, 256, 1024])
            return s
        if k < 0.45:
            return {"type": "string", "enum": sorted(set(r.sample(WORDS, r.randint(2, 6)))),
                    "description": self.words(3, 8)}
        if k < 0.60:
            s = {"type": "integer", "minimum": r.choice([0, 1]),
                 "maximum": r.choice([10, 100, 1000, 65535])}
            if r.random() < 0.4:
                s["default"] = s["minimum"]
            return s
        if k < 0.68:
            return {"type": "number", "exclusiveMinimum": 0, "description": self.words(3, 8)}
        if k < 0.78:
            return {"type": "boolean", "default": r.random() < 0.5,
                    "description": self.words(3, 10)}
        if k < 0.90:
            return {"type": "array", "items": {"type": "string", "minLength": 1},
                    "maxItems": r.choice([10, 50, 100]), "uniqueItems": True}
        return {"type": ["string", "null"], "description": self.words(3, 8)}

    def schema(self, depth):
        """An object schema with nested objects, arrays of objects and component refs."""
        r = self.r
        props = {}
        for _ in range(r.randint(2, 4) if depth else r.randint(3, 6)):
            name = r.choice(NOUNS) + "_" + r.choice(WORDS)
            k = r.random()
            if k < 0.14 and self.value_components:
                props[name] = {"$componentRef": "#/components/schemas/" +
                               r.choice(self.value_components)}
            elif k < 0.21 and depth < 3:
                props[name] = self.schema(depth + 1)
            elif k < 0.26 and depth < 3:
                props[name] = {"type": "array", "items": self.schema(depth + 1),
                               "maxItems": 100}
            else:
                props[name] = self.leaf()
        s = {"type": "object", "properties": props}
        keys = list(props)
        if keys and r.random() < 0.7:
            s["required"] = sorted(r.sample(keys, r.randint(1, len(keys))))
        if r.random() < 0.5:
            s["additionalProperties"] = False
        return s

    def make_components(self):
        r = self.r
        count = max(30, self.n // 25)
        for i in range(count):
            name = "%s%d" % ("".join(p.capitalize() for p in r.choice(NOUNS).split("_")), i)
            k = r.random()
            if k < 0.35:
                self.components[name] = self.leaf()
                self.value_components.append(name)
            elif k < 0.45 and self.object_components:
                # a chain: this component stands for an earlier object component
                self.components[name] = {"$componentRef": "#/components/schemas/" +
                                         r.choice(self.object_components)}
                self.object_components.append(name)
            else:
                self.components[name] = self.schema(1)
                self.object_components.append(name)
                self.value_components.append(name)
        # a non-object component: referring to it as an inputSchema root is a finding
        self.components["StringArguments"] = {"type": "string", "minLength": 1}
        self.components["Page~Token/v1"] = {"type": "string", "pattern": "^[A-Za-z0-9=]+$"}
        self.value_components.append("Page~0Token~1v1")

    def tool(self, i):
        r = self.r
        name = "%s_%s_%d" % (r.choice(VERBS), r.choice(NOUNS), i)
        t = {"name": name}
        if r.random() < 0.7:
            t["title"] = name.replace("_", " ").capitalize()
        t["description"] = self.words(6, 20)
        if r.random() < 0.10 and self.object_components:
            t["inputSchema"] = {"$componentRef": "#/components/schemas/" +
                                r.choice(self.object_components)}
        else:
            t["inputSchema"] = self.schema(0)
        if r.random() < 0.25:
            t["outputSchema"] = self.schema(1)
        if r.random() < 0.6:
            t["annotations"] = {"readOnlyHint": r.random() < 0.5,
                                "openWorldHint": r.random() < 0.3}
        if r.random() < 0.25:
            t["protocolVersions"] = list(r.choice(ITEM_VERSIONS))
        if r.random() < 0.1:
            t["_meta"] = {"dev.example/required-scopes": [r.choice(NOUNS) + ":read"]}
        self.finding(t, i)
        return t

    def finding(self, t, i):
        """About 5% of tools carry one deliberate finding."""
        r = self.r
        k = r.random()
        ins = t["inputSchema"]
        props = ins.get("properties") if "$componentRef" not in ins else None
        if k < 0.004:      # object-root, every version
            t["inputSchema"] = {"type": "string", "minLength": 1}
        elif k < 0.008:    # object-root through a component (non-object)
            t["inputSchema"] = {"$componentRef": "#/components/schemas/StringArguments"}
        elif k < 0.013:    # $ref root without type: object-root before 2025-11-25, native-shape after
            t["inputSchema"] = {"$ref": "#/$defs/Arguments",
                                "$defs": {"Arguments": self.schema(1)}}
        elif k < 0.017:    # allOf root offered from 2025-11-25: native-shape only
            t["inputSchema"] = {"allOf": [self.schema(1)]}
            t["protocolVersions"] = ["2025-11-25", "2026-07-28"]
        elif k < 0.021 and props is not None:   # type array including object
            ins["type"] = ["object", "null"]
        elif k < 0.033 and props:   # boolean property schemas
            key = r.choice(sorted(props))
            props[key] = r.choice([True, False])
        elif k < 0.040:    # outputSchema findings
            out = self.schema(1)
            if r.random() < 0.5:
                out["properties"]["result"] = True
            else:
                out = {"allOf": [out]}
            t["outputSchema"] = out
        elif k < 0.046:    # mcp.tool.name.charset
            t["name"] = t["name"].replace("_", " ", 1)
        elif k < 0.048:    # built-in: dangling component reference
            if props:
                props[r.choice(sorted(props))] = {"$componentRef": "#/components/schemas/Nope%d" % i}
        elif k < 0.050:    # built-in: item version not in the document
            t["protocolVersions"] = ["2025-03-26", "2025-11-25"]
        elif k < 0.053:    # mcp.tool.annotations.types
            t["annotations"] = {"readOnlyHint": "yes"}
        elif k < 0.056:    # mcp.tool.description.present
            t.pop("description", None)

    def document(self):
        self.make_components()
        tools = [self.tool(i) for i in range(self.n)]
        # make a few duplicates real: the generated names carry the index, so rename
        for i in range(1, self.n):
            if self.r.random() < 0.002:
                tools[i]["name"] = tools[i - 1]["name"]
        return {
            "mcpDescription": "0.9.0",
            "protocolVersions": DOC_VERSIONS,
            "serverInfo": {"name": "bench-server", "title": "Benchmark server",
                           "version": "1.0.0"},
            "capabilities": {"tools": {"listChanged": True},
                             "resources": {"listChanged": False},
                             "prompts": {"listChanged": False}},
            "instructions": "A generated server with %d tools for the mcpdesc benchmark." % self.n,
            "tools": tools,
            "resources": [{"uri": "file:///data/%s.json" % n, "name": n,
                           "mimeType": "application/json"} for n in NOUNS[:10]],
            "prompts": [{"name": "summarise_" + n, "description": "Summarise a " + n + ".",
                         "arguments": [{"name": "id", "required": True}]}
                        for n in NOUNS[:5]],
            "components": {"schemas": self.components},
        }


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--seed")]
    seed = 20261201
    for a in argv[1:]:
        if a.startswith("--seed="):
            seed = int(a.split("=", 1)[1])
    if len(args) != 2 or not args[0].isdigit():
        sys.stderr.write("usage: gen-description.py N_TOOLS OUT.json [--seed=S]\n")
        return 2
    doc = Gen(int(args[0]), seed).document()
    with open(args[1], "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
