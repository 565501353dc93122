#!/usr/bin/env python3
"""Cross-check the project's per-version MCP type schemas against the official ones.

For every known protocol version V, this script validates sample items against
  * our schema       schema/mcp/V/<type>.json                      (2020-12)
  * the official one  <data>/V/schema.json  #/definitions/<Type>    (draft-07)
                                            #/$defs/<Type>          (2020-12)
and prints every sample on which the two disagree about validity.

Samples (each is tried against every version):
  * the official examples of 2026-07-28 (<data>/2026-07-28/examples/), including
    the items inside the List*Result examples;
  * the native projections of the corpus (examples/corpus/*.json, which must
    also validate against schema/mcp-description.schema.json): for each item
    and each of its effective versions, $componentRef resolved and the
    description-only member `protocolVersions` removed; serverInfo and
    capabilities of each document;
  * small hand-made good and bad items (HANDMADE below), some with the verdict
    our schema must give;
  * mutants of the official examples and hand-made items: every member
    removed, every value (to depth 3) replaced by values of other JSON types,
    every member the official definition knows added with such values.

Before validating, it checks the house rules of schema/mcp (2020-12 $schema,
$id, a TS citation in the $comment of every property, no $ref leaving the
version directory, no additionalProperties false).

A disagreement is "explained" when it is one of the documented differences
between the TypeScript types (which our schemas follow) and the generated
schema.json (see schema/mcp/README.md, section "Differences"); anything else is
printed as UNEXPLAINED and makes the exit status 1.

Development aid only; it never writes anything. The official data is read
from ../shared/data/mcp relative to the repository (override with
--data DIR or MCPDESC_MCP_DATA); when it is absent the script prints SKIP and
exits 0.

Requires Python 3 with the `jsonschema` package (>= 4.18, Debian python3-jsonschema).
"""
import argparse
import copy
import glob
import json
import os
import re
import sys
import urllib.parse

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# type key -> (our file, official definition name, first version it exists in)
TYPES = {
    "Tool": ("tool.json", "Tool", "2024-11-05"),
    "Resource": ("resource.json", "Resource", "2024-11-05"),
    "ResourceTemplate": ("resource-template.json", "ResourceTemplate", "2024-11-05"),
    "Prompt": ("prompt.json", "Prompt", "2024-11-05"),
    "Implementation": ("implementation.json", "Implementation", "2024-11-05"),
    "ServerCapabilities": ("server-capabilities.json", "ServerCapabilities", "2024-11-05"),
    "ToolAnnotations": ("tool-annotations.json", "ToolAnnotations", "2025-03-26"),
    "Annotations": ("annotations.json", "Annotations", "2025-03-26"),
    "Icon": ("icon.json", "Icon", "2025-11-25"),
}

# ----------------------------------------------------------------- formats
# Both sides are validated with the same format checker, so a difference can only
# come from a `format` declared on one side and not on the other.
_URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def is_uri(s):
    """RFC 3986 URI (absolute, with a scheme); character-level check only."""
    if not isinstance(s, str):
        return True
    return bool(_SCHEME.match(s)) and bool(_URI_CHARS.match(s))


_VARNAME = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*"
_VARSPEC = _VARNAME + r"(?::[1-9][0-9]{0,3}|\*)?"
_EXPR = r"\{[+#./;?&=,!@|]?" + _VARSPEC + r"(?:," + _VARSPEC + r")*\}"
_LITERAL = r"(?:[^\x00-\x20\"'%<>\\^`{|}\x7f]|%[0-9A-Fa-f]{2})"
_TEMPLATE = re.compile(r"^(?:" + _LITERAL + r"|" + _EXPR + r")*$")


def is_uri_template(s):
    """RFC 6570 URI template syntax (section 2)."""
    if not isinstance(s, str):
        return True
    return bool(_TEMPLATE.match(s))


def make_format_checker():
    from jsonschema import FormatChecker
    fc = FormatChecker(formats=())
    fc.checks("uri")(is_uri)
    fc.checks("uri-template")(is_uri_template)
    return fc


# ----------------------------------------------------------------- corpus projection
def pointer_get(doc, fragment):
    """Resolve '#/a/b' (URI fragment holding an RFC 6901 pointer)."""
    if not fragment.startswith("#"):
        raise KeyError(fragment)
    ptr = urllib.parse.unquote(fragment[1:])
    node = doc
    if ptr == "":
        return node
    if not ptr.startswith("/"):
        raise KeyError(fragment)
    for tok in ptr[1:].split("/"):
        tok = tok.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(tok)]
        else:
            node = node[tok]
    return node


def resolve_components(doc, node, stack=()):
    if isinstance(node, dict):
        if "$componentRef" in node:
            ref = node["$componentRef"]
            if len(node) != 1 or ref in stack:
                raise ValueError("bad or cyclic $componentRef %r" % ref)
            return resolve_components(doc, pointer_get(doc, ref), stack + (ref,))
        return {k: resolve_components(doc, v, stack) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve_components(doc, v, stack) for v in node]
    return node


def corpus_samples(corpus_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*.json"))):
        name = os.path.basename(path)
        with open(path) as f:
            doc = json.load(f)
        docv = doc.get("protocolVersions", VERSIONS)
        for key, typ in (("serverInfo", "Implementation"), ("capabilities", "ServerCapabilities")):
            if key in doc:
                out.append(Sample(typ, f"corpus/{name}:/{key}", doc[key], docv))
        for key, typ in (("tools", "Tool"), ("resources", "Resource"),
                         ("resourceTemplates", "ResourceTemplate"), ("prompts", "Prompt")):
            for i, item in enumerate(doc.get(key, [])):
                proj = resolve_components(doc, item)
                proj.pop("protocolVersions", None)
                eff = item.get("protocolVersions", docv)
                out.append(Sample(typ, f"corpus/{name}:/{key}/{i}", proj, eff))
    return out


# ----------------------------------------------------------------- samples
class Sample:
    def __init__(self, typ, label, value, expect_valid_in=None, mutate=False, exact=False):
        self.typ = typ
        self.label = label
        self.value = value
        # versions where OUR schema must accept it (None: no expectation);
        # for corpus projections: the item's effective versions.
        self.expect_valid_in = expect_valid_in
        self.mutate = mutate
        # exact: our schema must also reject it in every other version
        self.exact = exact


T_OK = {"name": "t", "inputSchema": {"type": "object"}}
ALL = VERSIONS
FROM_0325 = VERSIONS[1:]
FROM_0618 = VERSIONS[2:]
FROM_1125 = VERSIONS[3:]

# (type, label, value, versions where our schema must accept it, mutate?)
HANDMADE = [
    # Tool
    ("Tool", "minimal", T_OK, ALL, True),
    ("Tool", "full 2025-11-25 shape", {
        "name": "search", "title": "Search", "description": "d",
        "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"}],
        "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                        "properties": {"q": {"type": "string"}}, "required": ["q"]},
        "outputSchema": {"type": "object", "properties": {"hits": {"type": "array"}}, "required": ["hits"]},
        "execution": {"taskSupport": "optional"},
        "annotations": {"title": "Search", "readOnlyHint": True, "openWorldHint": True},
        "_meta": {"com.example/x": 1}}, ALL, True),
    ("Tool", "no name", {"inputSchema": {"type": "object"}}, [], False),
    ("Tool", "no inputSchema", {"name": "t"}, [], False),
    ("Tool", "inputSchema type string", {"name": "t", "inputSchema": {"type": "string"}}, [], False),
    ("Tool", "inputSchema type array holding object", {"name": "t", "inputSchema": {"type": ["object", "null"]}}, [], False),
    ("Tool", "inputSchema without type ($ref only)", {"name": "t", "inputSchema": {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}}, [], False),
    ("Tool", "inputSchema boolean", {"name": "t", "inputSchema": True}, [], False),
    ("Tool", "inputSchema null", {"name": "t", "inputSchema": None}, [], False),
    ("Tool", "boolean property schema", {"name": "t", "inputSchema": {"type": "object", "properties": {"a": True}}}, ["2026-07-28"], False),
    ("Tool", "required not strings", {"name": "t", "inputSchema": {"type": "object", "required": [1]}}, ["2026-07-28"], False),
    ("Tool", "$schema not a string", {"name": "t", "inputSchema": {"type": "object", "$schema": 7}}, VERSIONS[:3], False),
    ("Tool", "array outputSchema", {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}}}, VERSIONS[:2] + ["2026-07-28"], False),
    ("Tool", "outputSchema boolean", {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": True}, VERSIONS[:2], False),
    ("Tool", "outputSchema composition root", {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"oneOf": [{"type": "object"}, {"type": "null"}]}}, VERSIONS[:2] + ["2026-07-28"], False),
    ("Tool", "annotations hint not boolean", {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}, ["2024-11-05"], False),
    ("Tool", "execution taskSupport bad", {"name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "sometimes"}}, [v for v in ALL if v != "2025-11-25"], False),
    ("Tool", "icons not array", {"name": "t", "inputSchema": {"type": "object"}, "icons": {"src": "https://e.com/i.png"}}, VERSIONS[:3], False),
    ("Tool", "icon without src", {"name": "t", "inputSchema": {"type": "object"}, "icons": [{"mimeType": "image/png"}]}, VERSIONS[:3], False),
    ("Tool", "icon theme bad", {"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "https://e.com/i.png", "theme": "blue"}]}, VERSIONS[:3], False),
    ("Tool", "icon src not a URI", {"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "icon.png"}]}, VERSIONS[:3], False),
    ("Tool", "_meta not object", {"name": "t", "inputSchema": {"type": "object"}, "_meta": []}, VERSIONS[:2], False),
    ("Tool", "title number", {"name": "t", "title": 3, "inputSchema": {"type": "object"}}, VERSIONS[:2], False),
    ("Tool", "name number", {"name": 3, "inputSchema": {"type": "object"}}, [], False),
    ("Tool", "not an object", ["t"], [], False),
    # Resource
    ("Resource", "minimal", {"uri": "file:///a.txt", "name": "a.txt"}, ALL, True),
    ("Resource", "full", {"uri": "https://example.com/r", "name": "r", "title": "R", "description": "d", "mimeType": "text/plain",
                          "annotations": {"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-12T15:00:58Z"},
                          "size": 1024, "icons": [{"src": "data:image/png;base64,iVBORw0KGgo="}], "_meta": {}}, ALL, True),
    ("Resource", "no uri", {"name": "r"}, [], False),
    ("Resource", "uri not a URI", {"uri": "not a uri", "name": "r"}, [], False),
    ("Resource", "relative uri", {"uri": "docs/readme.md", "name": "r"}, [], False),
    ("Resource", "size fractional", {"uri": "file:///a", "name": "a", "size": 10.5}, ALL, False),
    ("Resource", "size negative", {"uri": "file:///a", "name": "a", "size": -1}, ALL, False),
    ("Resource", "size string", {"uri": "file:///a", "name": "a", "size": "10"}, [], False),
    ("Resource", "priority > 1", {"uri": "file:///a", "name": "a", "annotations": {"priority": 1.5}}, [], False),
    ("Resource", "priority < 0", {"uri": "file:///a", "name": "a", "annotations": {"priority": -0.1}}, [], False),
    ("Resource", "audience bad", {"uri": "file:///a", "name": "a", "annotations": {"audience": ["system"]}}, [], False),
    ("Resource", "lastModified number", {"uri": "file:///a", "name": "a", "annotations": {"lastModified": 1736694058}}, VERSIONS[:2], False),
    ("Resource", "lastModified not ISO", {"uri": "file:///a", "name": "a", "annotations": {"lastModified": "yesterday"}}, ALL, False),
    # ResourceTemplate
    ("ResourceTemplate", "minimal", {"uriTemplate": "file:///{path}", "name": "files"}, ALL, True),
    ("ResourceTemplate", "level 4", {"uriTemplate": "repo://{owner}/{repo}/contents{/path*}{?ref}", "name": "c", "mimeType": "text/plain",
                                     "annotations": {"priority": 0}}, ALL, True),
    ("ResourceTemplate", "unclosed expression", {"uriTemplate": "file:///{path", "name": "f"}, [], False),
    ("ResourceTemplate", "bad operator", {"uriTemplate": "file:///{!path}", "name": "f"}, ALL, False),
    ("ResourceTemplate", "no uriTemplate", {"name": "f"}, [], False),
    ("ResourceTemplate", "uri instead of uriTemplate", {"uri": "file:///x", "name": "f"}, [], False),
    # Prompt
    ("Prompt", "minimal", {"name": "p"}, ALL, True),
    ("Prompt", "with arguments", {"name": "p", "title": "P", "description": "d", "arguments": [{"name": "a", "title": "A", "description": "d", "required": True}],
                                  "icons": [{"src": "https://example.com/p.svg", "sizes": ["any"]}], "_meta": {"a": 1}}, ALL, True),
    ("Prompt", "argument without name", {"name": "p", "arguments": [{"description": "d"}]}, [], False),
    ("Prompt", "argument required string", {"name": "p", "arguments": [{"name": "a", "required": "yes"}]}, [], False),
    ("Prompt", "arguments as map", {"name": "p", "arguments": {"a": {"name": "a"}}}, [], False),
    # Implementation
    ("Implementation", "minimal", {"name": "srv", "version": "1.0.0"}, ALL, True),
    ("Implementation", "full", {"name": "srv", "version": "1.0.0", "title": "Srv", "description": "d", "websiteUrl": "https://example.com",
                                "icons": [{"src": "https://example.com/i.png"}]}, ALL, True),
    ("Implementation", "no version", {"name": "srv"}, [], False),
    ("Implementation", "version number", {"name": "srv", "version": 1}, [], False),
    ("Implementation", "websiteUrl not a URI", {"name": "srv", "version": "1", "websiteUrl": "example dot com"}, VERSIONS[:3], False),
    # ServerCapabilities
    ("ServerCapabilities", "empty", {}, ALL, True),
    ("ServerCapabilities", "full", {"experimental": {"acme": {"on": True}}, "logging": {}, "completions": {}, "prompts": {"listChanged": True},
                                    "resources": {"subscribe": True, "listChanged": False}, "tools": {"listChanged": True},
                                    "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}},
                                    "extensions": {"io.modelcontextprotocol/tasks": {}}}, ALL, True),
    ("ServerCapabilities", "listChanged string", {"tools": {"listChanged": "yes"}}, [], False),
    ("ServerCapabilities", "tools true", {"tools": True}, [], False),
    ("ServerCapabilities", "experimental value not object", {"experimental": {"acme": True}}, [], False),
    ("ServerCapabilities", "completions array", {"completions": []}, ["2024-11-05"], False),
    ("ServerCapabilities", "tasks.requests.tools.call true", {"tasks": {"requests": {"tools": {"call": True}}}}, [v for v in ALL if v != "2025-11-25"], False),
    ("ServerCapabilities", "extensions value not object", {"extensions": {"io.modelcontextprotocol/tasks": True}}, VERSIONS[:4], False),
    ("ServerCapabilities", "extension settings with null", {"extensions": {"com.example/x": {"limit": None}}}, ALL, False),
    ("ServerCapabilities", "experimental settings with fraction", {"experimental": {"acme": {"ratio": 0.5}}}, ALL, False),
    ("ServerCapabilities", "logging settings with null", {"logging": {"level": None}}, ALL, False),
    # shared pieces, checked directly
    ("ToolAnnotations", "all hints", {"title": "T", "readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}, FROM_0325, True),
    ("Annotations", "all", {"audience": ["assistant"], "priority": 1, "lastModified": "2025-01-12T15:00:58Z"}, ALL, True),
    ("Icon", "full", {"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48", "any"], "theme": "light"}, FROM_1125, True),
]

FILLERS = [None, True, False, 0, 1, -1, 0.5, 1.5, 2, "", "x", "object", "https://example.com/a",
           "not a uri", "file:///{p", [], ["x"], [1], {}, {"type": "object"}, {"a": None}, {"a": 0.5}]


def walk_paths(value, depth, prefix=()):
    yield prefix
    if depth == 0:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk_paths(v, depth - 1, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_paths(v, depth - 1, prefix + (i,))


def set_at(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    node = value
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = new
    return value


def del_at(value, path):
    value = copy.deepcopy(value)
    node = value
    for p in path[:-1]:
        node = node[p]
    del node[path[-1]]
    return value


def official_member_names(defn, defs):
    """Member names a definition (and its object members, two levels down) declares."""
    names = set()

    def props(d, depth):
        if depth > 2 or not isinstance(d, dict):
            return
        if "$ref" in d:
            d = defs.get(d["$ref"].split("/")[-1], {})
        for k, v in d.get("properties", {}).items():
            names.add(k)
            props(v, depth + 1)
            if isinstance(v, dict) and "items" in v:
                props(v["items"], depth + 1)
    props(defn, 0)
    return names


def enum_values(schema):
    """Every value listed under enum or const anywhere in a schema document."""
    out = []

    def walk(o):
        if isinstance(o, dict):
            if "enum" in o and isinstance(o["enum"], list):
                out.extend(o["enum"])
            if "const" in o:
                out.append(o["const"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(schema)
    return out


def mutants(sample, known_names, extra_fillers=()):
    fillers = list(FILLERS)
    for f in extra_fillers:
        if f not in fillers:
            fillers.append(f)
    seen = set()
    for path in walk_paths(sample.value, 3):
        if path:
            yield f"{sample.label} -{'/'.join(map(str, path))}", del_at(sample.value, path)
        for f in fillers:
            key = (path, json.dumps(f))
            if key in seen:
                continue
            seen.add(key)
            yield f"{sample.label} /{'/'.join(map(str, path))}={json.dumps(f)}", set_at(sample.value, path, f)
        # add members the official schema knows, on objects
        node = sample.value
        for p in path:
            node = node[p]
        if isinstance(node, dict) and len(path) <= 2:
            for name in sorted(known_names):
                if name in node:
                    continue
                for f in fillers:
                    yield f"{sample.label} /{'/'.join(map(str, path + (name,)))}+={json.dumps(f)}", set_at(sample.value, path + (name,), f)


# ----------------------------------------------------------------- explanations
def contains(value, pred):
    if pred(value):
        return True
    if isinstance(value, dict):
        return any(contains(v, pred) for v in value.values())
    if isinstance(value, list):
        return any(contains(v, pred) for v in value)
    return False


def non_integer_number(x):
    return isinstance(x, float) and not x.is_integer()


def explain(typ, version, value, ours, theirs):
    """Return the id of a documented difference that explains the disagreement, or None."""
    if ours and not theirs:
        if typ == "Resource" and isinstance(value, dict) and non_integer_number(value.get("size")):
            try_value = dict(value)
            try_value["size"] = 0
            return "D1 Resource.size: TS number, schema.json integer", try_value
        if typ == "ServerCapabilities" and version == "2026-07-28" and isinstance(value, dict):
            fixed = {}
            hit = False
            for k, v in value.items():
                if k in ("experimental", "extensions") and isinstance(v, dict):
                    if any(isinstance(x, dict) and contains(x, lambda y: y is None or non_integer_number(y)) for x in v.values()):
                        hit = True
                        v = {}
                elif k in ("logging", "completions") and isinstance(v, dict):
                    if contains(v, lambda y: y is None or non_integer_number(y)):
                        hit = True
                        v = {}
                fixed[k] = v
            if hit:
                return "D2 JSONObject: TS admits null and fractional numbers, schema.json's JSONValue does not", fixed
    return None, None


# ----------------------------------------------------------------- conventions
def convention_problems(path, version, doc):
    """House rules of schema/mcp (see schema/mcp/README.md, Conventions)."""
    out = []
    name = os.path.basename(path)
    if doc.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        out.append("$schema is not 2020-12")
    if doc.get("$id") != f"https://mcpdesc.dev/schema/mcp/{version}/{name}":
        out.append(f"$id is not https://mcpdesc.dev/schema/mcp/{version}/{name}")
    if not str(doc.get("$comment", "")).startswith(("interface ", "anonymous ")):
        out.append("root $comment does not name the TS interface")
    here = set(os.listdir(os.path.dirname(path)))

    def walk(o, ptr):
        """Walk schema nodes only (properties, $defs, items, additionalProperties)."""
        if not isinstance(o, dict):
            return
        if o.get("additionalProperties") is False:
            out.append(f"{ptr}: additionalProperties false (MCP objects are open)")
        ref = o.get("$ref")
        if ref is not None and not (ref.startswith("#/$defs/") or ref in here):
            out.append(f"{ptr}: $ref {ref!r} leaves the version directory")
        for k, v in o.get("properties", {}).items():
            if not str(v.get("$comment", "")).startswith("TS "):
                out.append(f"{ptr}/properties/{k}: no $comment citing the TS source")
            walk(v, f"{ptr}/properties/{k}")
        for k, v in o.get("$defs", {}).items():
            walk(v, f"{ptr}/$defs/{k}")
        for k in ("items", "additionalProperties"):
            walk(o.get(k), f"{ptr}/{k}")

    walk(doc, "")
    return [f"{version}/{name}: {p}" for p in out]


# ----------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.environ.get("MCPDESC_MCP_DATA", os.path.join(REPO, "..", "shared", "data", "mcp")))
    ap.add_argument("--schemas", default=os.path.join(REPO, "schema", "mcp"))
    ap.add_argument("--corpus", default=os.path.join(REPO, "examples", "corpus"))
    ap.add_argument("--no-mutants", action="store_true", help="skip the mutation samples (faster)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every explained disagreement too")
    args = ap.parse_args()

    if not os.path.isdir(args.data) or not all(os.path.isfile(os.path.join(args.data, v, "schema.json")) for v in VERSIONS):
        print(f"SKIP: official MCP data not found at {args.data} (need <version>/schema.json for {', '.join(VERSIONS)})")
        return 0
    try:
        import jsonschema
        from jsonschema.validators import validator_for
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError as e:
        print(f"SKIP: python jsonschema/referencing not available ({e})")
        return 0

    fc = make_format_checker()

    # our schemas: one registry per version, resolved by $id
    ours, ours_names = {}, {}
    conventions = []
    for v in VERSIONS:
        reg = Registry()
        docs = {}
        for path in sorted(glob.glob(os.path.join(args.schemas, v, "*.json"))):
            with open(path) as f:
                d = json.load(f)
            jsonschema.Draft202012Validator.check_schema(d)
            conventions += convention_problems(path, v, d)
            reg = reg.with_resource(d["$id"], Resource.from_contents(d, default_specification=DRAFT202012))
            docs[os.path.basename(path)] = d
        ours[v] = {}
        for typ, (fname, _, _) in TYPES.items():
            if fname in docs:
                ours[v][typ] = jsonschema.Draft202012Validator(docs[fname], registry=reg, format_checker=fc)
                ours_names.setdefault(typ, set()).update(official_member_names(docs[fname], docs.get(fname, {}).get("$defs", {})))

    if conventions:
        # report these first: a stray $ref would make validation itself fail
        print("Convention problems in our schemas:")
        for c in conventions:
            print("   " + c)
        print(f"\nresult: {len(conventions)} convention problem(s); nothing validated")
        return 1

    # official definitions: the whole document with a root $ref to the definition
    official, official_names = {}, {}
    for v in VERSIONS:
        with open(os.path.join(args.data, v, "schema.json")) as f:
            d = json.load(f)
        key = "definitions" if "definitions" in d else "$defs"
        cls = validator_for(d)
        official[v], official_names[v] = {}, {}
        for typ, (_, defname, _) in TYPES.items():
            if defname in d[key]:
                root = dict(d)
                root["$ref"] = f"#/{key}/{defname}"
                official[v][typ] = cls(root, format_checker=fc)
                official_names[v][typ] = official_member_names(d[key][defname], d[key])
            elif typ == "Annotations" and v == "2024-11-05":
                pass  # anonymous in 2024-11-05; checked through Resource

    # enum/const values of both sides, and near misses, become extra mutation fillers
    extra = ["auto", "system", "always", "OBJECT", "user ", "public"]
    for v in VERSIONS:
        for path in glob.glob(os.path.join(args.schemas, v, "*.json")):
            with open(path) as f:
                extra += enum_values(json.load(f))
        with open(os.path.join(args.data, v, "schema.json")) as f:
            d = json.load(f)
        defs = d.get("definitions") or d.get("$defs")
        for typ, (_, defname, _) in TYPES.items():
            extra += enum_values(defs.get(defname, {}))
        extra += enum_values(defs.get("Role", {}))
    extra_fillers = []
    for x in extra:
        if x not in extra_fillers:
            extra_fillers.append(x)

    # build the sample list
    samples = []
    exdir = os.path.join(args.data, "2026-07-28", "examples")
    nexamples = 0
    if os.path.isdir(exdir):
        for path in sorted(glob.glob(os.path.join(exdir, "*", "*.json"))):
            kind = os.path.basename(os.path.dirname(path))
            with open(path) as f:
                ex = json.load(f)
            label = "example/" + os.path.relpath(path, exdir)
            if kind in ("Tool", "Resource", "ServerCapabilities"):
                samples.append(Sample(kind, label, ex, ["2026-07-28"], mutate=True))
                nexamples += 1
            else:
                for key, typ in (("tools", "Tool"), ("resources", "Resource"), ("resourceTemplates", "ResourceTemplate"), ("prompts", "Prompt")):
                    for i, item in enumerate(ex.get(key, [])):
                        samples.append(Sample(typ, f"{label}:/{key}/{i}", item, ["2026-07-28"], mutate=True))
                        nexamples += 1
    ncorpus = 0
    expectation_failures = []
    fmt_path = os.path.join(REPO, "schema", "mcp-description.schema.json")
    if os.path.isdir(args.corpus) and os.path.isfile(fmt_path):
        # the corpus must also have the document format
        with open(fmt_path) as f:
            fmt_validator = jsonschema.Draft202012Validator(json.load(f))
        for path in sorted(glob.glob(os.path.join(args.corpus, "*.json"))):
            with open(path) as f:
                for e in fmt_validator.iter_errors(json.load(f)):
                    expectation_failures.append(f"corpus/{os.path.basename(path)}{e.json_path[1:]}: not an MCP Description: {e.message}")
    if os.path.isdir(args.corpus):
        cs = corpus_samples(args.corpus)
        ncorpus = len(cs)
        samples += cs
    for typ, label, value, exp, mut in HANDMADE:
        samples.append(Sample(typ, "handmade/" + typ + "/" + label, value, exp, mutate=mut, exact=True))
    nhand = len(HANDMADE)

    stats = {v: {"checked": 0, "agree": 0, "explained": {}, "unexplained": []} for v in VERSIONS}

    def check(v, typ, label, value):
        if typ not in ours[v] and typ not in official[v]:
            return None
        if typ == "Annotations" and v == "2024-11-05":
            return ours[v][typ].is_valid(value)  # anonymous type officially; covered through Resource
        if typ not in ours[v] or typ not in official[v]:
            stats[v]["unexplained"].append((label, typ, "type present on one side only", None, None))
            return None
        a = ours[v][typ].is_valid(value)
        b = official[v][typ].is_valid(value)
        st = stats[v]
        st["checked"] += 1
        if a == b:
            st["agree"] += 1
            return a
        reason, fixed = explain(typ, v, value, a, b)
        # an explanation counts only if removing the explained construct makes both agree
        if reason and ours[v][typ].is_valid(fixed) == official[v][typ].is_valid(fixed):
            st["explained"].setdefault(reason, []).append(label)
        else:
            err_a = next(iter(ours[v][typ].iter_errors(value)), None)
            err_b = next(iter(official[v][typ].iter_errors(value)), None)
            st["unexplained"].append((label, typ, f"ours={'valid' if a else 'invalid'} official={'valid' if b else 'invalid'}",
                                      err_a and f"{err_a.json_path}: {err_a.message[:120]}", err_b and f"{err_b.json_path}: {err_b.message[:120]}"))
        return a

    nmut = 0
    for s in samples:
        for v in VERSIONS:
            verdict = check(v, s.typ, s.label, s.value)
            if s.expect_valid_in is not None and verdict is not None:
                want = v in s.expect_valid_in
                if verdict != want and (s.exact or want):
                    expectation_failures.append(f"{v} {s.typ} {s.label}: our schema says {'valid' if verdict else 'invalid'}, expected {'valid' if want else 'invalid'}")
        if s.mutate and not args.no_mutants:
            names = set(ours_names.get(s.typ, set()))
            for v in VERSIONS:
                names |= official_names[v].get(s.typ, set())
            for label, value in mutants(s, names, extra_fillers):
                nmut += 1
                for v in VERSIONS:
                    check(v, s.typ, label, value)

    print(f"crosscheck-mcp-types: {nexamples} official example items, {ncorpus} corpus projections, {nhand} hand-made items, {nmut} mutants; data {os.path.normpath(args.data)}")
    bad = 0
    for v in VERSIONS:
        st = stats[v]
        nexp = sum(len(x) for x in st["explained"].values())
        print(f"\n== {v}: {st['checked']} validations, {st['agree']} agree, {nexp} explained disagreements, {len(st['unexplained'])} unexplained")
        for reason, labels in sorted(st["explained"].items()):
            print(f"   explained {reason}: {len(labels)} (e.g. {labels[0]})")
            if args.verbose:
                for l in labels:
                    print(f"      {l}")
        for label, typ, what, ea, eb in st["unexplained"]:
            bad += 1
            print(f"   UNEXPLAINED {typ} {label}: {what}")
            if ea:
                print(f"      ours:     {ea}")
            if eb:
                print(f"      official: {eb}")
    if expectation_failures:
        print("\nExpectation failures (hand-made verdicts and corpus projections):")
        for e in expectation_failures:
            print("   " + e)
    print(f"\nresult: {bad} unexplained disagreement(s), {len(expectation_failures)} expectation failure(s)")
    return 1 if bad or expectation_failures else 0


if __name__ == "__main__":
    sys.exit(main())
