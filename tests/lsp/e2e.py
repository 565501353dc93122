"""e2e.py BIN - `mcpdesc lsp` over real pipes: the lifecycle and exit statuses, a
description (JSON, then YAML) judged through the stdio loop with its debounce timer and
judge thread, positions in UTF-16 after non-ASCII text, a finding reached through a $componentRef with its related
information, no rule page link without a docs-url and one from a config's docs-url, bad frames and bad JSON
answered without ending the server, an incremental edit re-published with its version,
completion and hover of description members from the format's schema (JSON, YAML),
and a session that ends without `exit` (status 1). Prints `ok N - ...` per check and
exits 1 on the first failure."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client  # noqa: E402
from client import Client, check  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def diags_of(m):
    return m["params"]["diagnostics"]


def is_publish(uri):
    return lambda m: m.get("method") == "textDocument/publishDiagnostics" and \
        m["params"]["uri"] == uri


tmp = tempfile.mkdtemp(prefix="mcpdesc-lsp-e2e.")
try:
    env = dict(os.environ, MCPDESC_NO_CONFIG="1")
    argv = [BIN, "lsp", "--rules", os.path.join(TOP, "rules-yaml")]
    c = Client(argv, env=env, cwd=tmp)
    r = c.initialize(root=tmp, options={"debounceMs": 30})
    caps = r["result"]["capabilities"]
    check(caps["positionEncoding"] == "utf-16" and caps["textDocumentSync"]["change"] == 2,
          "initialize: utf-16 and incremental sync")

    path = os.path.join(tmp, "comp.json")
    shutil.copy(os.path.join(TOP, "tests", "lsp", "component.json"), path)
    text = open(path, encoding="utf-8").read()
    uri = "file://" + path
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "json", "version": 1, "text": text}})
    m = c.wait_for(is_publish(uri), 10)
    check(m is not None, "didOpen publishes diagnostics")
    ds = diags_of(m)
    check(m["params"]["version"] == 1, "with the document's version")
    both = [x for x in ds if x.get("code") == "mcp.tool.input-schema.properties-object-values"]
    check(len(both) == 2, "the finding in the component and the one in the second tool",
          str(ds))
    d, d2 = both
    # line 9 (0-based 8): `true` after "ü😀" and "ü": UTF-16 units, not code points or bytes
    line8 = text.split("\n")[8]
    col8 = len(line8[:line8.index("true")].encode("utf-16-le")) // 2
    check(d2["range"] == {"start": {"line": 8, "character": col8},
                          "end": {"line": 8, "character": col8 + 4}},
          "the second's range in UTF-16 units after an emoji (character %d)" % col8,
          str(d2["range"]))
    check("relatedInformation" not in d2, "no related information without a component")
    # line 6 (0-based 5), column 75 in code points: the `true` of "a"
    check(d["range"] == {"start": {"line": 5, "character": 74},
                         "end": {"line": 5, "character": 78}}, "its range covers `true`",
          str(d["range"]))
    check(d["message"].endswith("not true (2025-06-18)"), "its versions in the message",
          d["message"])
    # the shipped set names no docs-url (no site publishes its pages): no link, never a dead one
    check("codeDescription" not in d, "no rule page link without a docs-url")
    check(d["severity"] == 1 and d["source"] == "mcpdesc", "severity error, source mcpdesc")
    rel = d.get("relatedInformation", [])
    # the $componentRef of line 8 (0-based 7), after an emoji: UTF-16 counts it as two
    line7 = text.split("\n")[7]
    col = len(line7[:line7.index('"$componentRef"')].encode("utf-16-le")) // 2
    check(any(x["location"]["range"]["start"] == {"line": 7, "character": col} for x in rel),
          "related information at the $componentRef (UTF-16 column %d)" % col, str(rel))
    check(any(x["location"]["range"]["start"]["line"] == 5 and "component" in x["message"]
              for x in rel), "and at the component", str(rel))

    # malformed input is answered and the server goes on
    c.send_raw(b"Content-Length: abc\r\n\r\n")
    e = c.wait_for(lambda m: "error" in m, 5)
    check(e is not None and e["error"]["code"] == -32700 and e["id"] is None,
          "a bad header: ParseError with id null", str(e))
    body = b"{nope"
    c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    e = c.wait_for(lambda m: "error" in m, 5)
    check(e is not None and e["error"]["code"] == -32700, "bad JSON: ParseError", str(e))
    i = c.request("no/such", {})
    e = c.response(i, 5)
    check(e is not None and e["error"]["code"] == -32601, "an unknown request: MethodNotFound")

    # fix the finding with an incremental edit: `true` -> `{}`
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": d["range"], "text": "{}"}]})
    m = c.wait_for(is_publish(uri), 10)
    check(m is not None and m["params"]["version"] == 2, "didChange re-published as version 2")
    check([x["range"] for x in diags_of(m) if x.get("code") == d["code"]] == [d2["range"]],
          "the finding is gone after the edit, the other one stays", str(diags_of(m)))

    # a request for the document is answered (for the newest text)
    i = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                         "position": {"line": 5, "character": 74}})
    check(c.response(i, 5) is not None, "hover is answered")

    # a YAML description: libyaml's positions, the same conversion
    ypath = os.path.join(tmp, "description.yaml")
    shutil.copy(os.path.join(TOP, "tests", "lsp", "description.yaml"), ypath)
    ytext = open(ypath, encoding="utf-8").read()
    yuri = "file://" + ypath
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": yuri, "languageId": "yaml", "version": 7, "text": ytext}})
    m = c.wait_for(is_publish(yuri), 10)
    yline = ytext.split("\n")[5]
    ycol = len(yline[:yline.index("true")].encode("utf-16-le")) // 2
    check(m is not None and m["params"]["version"] == 7 and
          [x["range"] for x in diags_of(m)] == [{"start": {"line": 5, "character": ycol},
                                                  "end": {"line": 5, "character": ycol + 4}}],
          "a YAML description: its finding at `true` in UTF-16 units", str(m))

    # two rules report one `true` with one fix (before and from 2025-11-25): one quick fix
    # that lists both diagnostics, so that "the preferred fix" is a single action
    wpath = os.path.join(tmp, "weather.json")
    shutil.copy(os.path.join(TOP, "examples", "weather.json"), wpath)
    wtext = open(wpath, encoding="utf-8").read()
    wuri = "file://" + wpath
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": wuri, "languageId": "json", "version": 1, "text": wtext}})
    m = c.wait_for(is_publish(wuri), 10)
    wline = wtext.split("\n")[33]
    wcol = wline.index("true")
    i = c.request("textDocument/codeAction", {
        "textDocument": {"uri": wuri},
        "range": {"start": {"line": 33, "character": wcol}, "end": {"line": 33, "character": wcol}},
        "context": {"diagnostics": [], "only": ["quickfix"]}})
    acts = c.response(i)["result"]
    fixes = [a for a in acts if a["title"] == "replace true with {}"]
    check(len(fixes) == 1 and len(fixes[0]["diagnostics"]) == 2 and
          sorted(d["code"] for d in fixes[0]["diagnostics"]) ==
          ["mcp.tool.input-schema.properties-object-values", "mcp.tool.schema.native-shape"] and
          len([a for a in acts if a.get("isPreferred")]) == 1,
          "one quick fix for two findings with the same edit", repr([a["title"] for a in acts]))

    # description members from schema/mcp-description.schema.json: completion and hover
    fmt = json.load(open(os.path.join(TOP, "schema", "mcp-description.schema.json")))
    fdesc = {k: v.get("description") for k, v in fmt["properties"].items()}

    def complete(u, line, ch):
        i = c.request("textDocument/completion", {"textDocument": {"uri": u},
                                                  "position": {"line": line, "character": ch}})
        return {x["label"]: x for x in c.response(i, 5)["result"]["items"]}

    def hover(u, line, ch):
        i = c.request("textDocument/hover", {"textDocument": {"uri": u},
                                             "position": {"line": line, "character": ch}})
        r = c.response(i, 5)["result"]
        return r["contents"]["value"] if r else ""

    def opened(name, text, lang):
        u = "file://" + os.path.join(tmp, name)
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": lang, "version": 1, "text": text}})
        c.wait_for(is_publish(u), 10)
        return u

    mj = opened("members.json", '{\n  "mcpDescription": "0.9.0",\n  "tools": [\n'
                '    {"name": "a", "inputSchema": {"type": "object"}}\n  ],\n'
                '  "components": {}\n}\n', "json")
    items = complete(mj, 0, 1)
    check(sorted(items) == sorted(fmt["properties"]), "JSON: the top-level members of the format",
          str(sorted(items)))
    check(items["tools"].get("documentation", {}).get("value") == fdesc["tools"] and
          items["tools"].get("insertText") == '"tools": ' and items["tools"]["kind"] == 10,
          "with the schema's description, inserted as a JSON member", str(items.get("tools")))
    check(list(complete(mj, 3, 5)) == ["protocolVersions"],
          "JSON: in a tool, the member the format adds", str(complete(mj, 3, 5)))
    check(list(complete(mj, 5, 17)) == ["schemas"], "JSON: in components, schemas")
    check(complete(mj, 3, 13) == {}, "JSON: nothing inside a value")
    h = hover(mj, 2, 4)
    check("**`tools`** · array" in h and fdesc["tools"] in h, "JSON: hover on a member key", h)
    check("**`name`**" not in hover(mj, 3, 7), "no member hover where the format says nothing")
    mp = opened("partial.json", '{\n  "mcpDescription": "0.9.0",\n  "to"\n}\n', "json")
    items = complete(mp, 2, 5)
    check("tools" in items and "insertText" not in items["tools"],
          "JSON mid-edit, inside the name's quotes: the name alone", str(items.get("tools")))
    my = opened("members.yaml", "mcpDescription: 0.9.0\nprotocolVersions: [2025-11-25]\n"
                "tools:\n  - name: a\n    inputSchema: {type: object}\n    \n"
                "components:\n  \n", "yaml")
    items = complete(my, 5, 4)
    check(list(items) == ["protocolVersions"] and
          items["protocolVersions"]["insertText"] == "protocolVersions: " and
          items["protocolVersions"]["detail"] == "array",
          "YAML: in a tool, protocolVersions as a key", str(items))
    check(list(complete(my, 7, 2)) == ["schemas"], "YAML: in components, schemas")
    items = complete(my, 8, 0)
    check(sorted(items) == sorted(fmt["properties"]) and
          items["instructions"].get("documentation", {}).get("value") == fdesc["instructions"],
          "YAML: the top-level members with their descriptions", str(sorted(items)))
    h = hover(my, 1, 3)
    check("**`protocolVersions`** · array" in h and fdesc["protocolVersions"] in h,
          "YAML: hover on a member key", h)

    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    m = c.wait_for(is_publish(uri), 5)
    check(m is not None and diags_of(m) == [], "didClose clears the diagnostics")
    st = c.close()
    check(st == 0, "shutdown then exit: status 0", str(st))

    # the config's docs-url: diagnostics link to the rule page there (as validate's reports)
    cfg = os.path.join(tmp, "pages.mcpdesc.yaml")
    with open(cfg, "w") as f:
        f.write("docs-url: https://pages.example/rules/\nignore: [skipped]\n")
    c = Client(argv + ["--config", cfg], env=env, cwd=tmp)
    c.initialize(root=tmp, options={"debounceMs": 0})
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": yuri, "languageId": "yaml", "version": 1, "text": ytext}})
    m = c.wait_for(is_publish(yuri), 10)
    hrefs = [x.get("codeDescription", {}).get("href") for x in diags_of(m)] if m else []
    check(hrefs == ["https://pages.example/rules/"
                    "mcp.tool.input-schema.properties-object-values.html"],
          "a config's docs-url: each diagnostic links to its rule page", str(hrefs))
    # a description the config's `ignore` leaves out: not judged, nothing published
    os.mkdir(os.path.join(tmp, "skipped"))
    ipath = os.path.join(tmp, "skipped", "description.yaml")
    shutil.copy(ypath, ipath)
    iuri = "file://" + ipath
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": iuri, "languageId": "yaml", "version": 1, "text": ytext}})
    m = c.wait_for(is_publish(iuri), 10)
    check(m is not None and diags_of(m) == [], "a description the config ignores: no findings",
          str(m))
    i = c.request("textDocument/codeAction", {
        "textDocument": {"uri": iuri},
        "range": {"start": {"line": 5, "character": 0}, "end": {"line": 6, "character": 0}},
        "context": {"diagnostics": []}})
    r = c.response(i)
    check(r is not None and r.get("result") == [], "and no code action", str(r))
    check(c.close() == 0, "that server ends with status 0 too")

    c = Client(argv, env=env, cwd=tmp)
    c.initialize(root=tmp)
    c.proc.stdin.close()
    st = c.proc.wait(10)
    check(st == 1, "the input ends without exit: status 1", str(st))
finally:
    shutil.rmtree(tmp)
print("lsp e2e: %d checks passed" % client.checks)
