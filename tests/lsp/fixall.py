"""fixall.py BIN - the language server's "Apply every mcpdesc fix" (source.fixAll.mcpdesc)
gives byte for byte what `mcpdesc fix` writes for the same file, rules and config: on the
fix pairs of conformance/fixes (JSON, YAML with comments), a file whose findings are
suppressed inline (nothing to fix), and tests/lsp/fixall.{json,yaml} (non-ASCII text
before the edits, positions in UTF-16; also with CRLF line ends); the edit applied is then offered nothing, as a
second `mcpdesc fix` changes nothing. Both the `changes` and the `documentChanges` forms.
Then the "suppress" action on tests/lsp/suppress.yaml: not offered for a finding about a
suppression, its entry appended to the item's block list, and its empty reason published
as mcpdesc.suppression.invalid at the new entry.
Prints `ok N - ...` per check and exits 1 on the first failure."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client  # noqa: E402
from client import Client, check  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RULES = os.path.join(TOP, "rules-yaml")


def offset(data, pos):
    """The byte offset in DATA (UTF-8 bytes) of the LSP position POS (UTF-16)."""
    lines = data.split(b"\n")
    off = sum(len(x) + 1 for x in lines[:pos["line"]])
    line = lines[pos["line"]].decode("utf-8") if pos["line"] < len(lines) else ""
    units = 0
    for ch in line:
        if units >= pos["character"]:
            break
        units += len(ch.encode("utf-16-le")) // 2
        off += len(ch.encode("utf-8"))
    return off


def apply(data, edits):
    """DATA (bytes) with the TextEdits applied (from the last, so offsets hold)."""
    spans = sorted(((offset(data, e["range"]["start"]), offset(data, e["range"]["end"]),
                     e["newText"].encode("utf-8")) for e in edits), reverse=True)
    for a, b, t in spans:
        data = data[:a] + t + data[b:]
    return data


def edits_of(action, uri, doc_changes):
    e = action["edit"]
    if doc_changes:
        dc = e["documentChanges"]
        assert len(dc) == 1 and dc[0]["textDocument"]["uri"] == uri, e
        return dc[0]["edits"]
    return e["changes"][uri]


def fix_all_actions(c, uri):
    i = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": [], "only": ["source.fixAll"]}})
    r = c.response(i)
    return [a for a in r["result"] if a["kind"] == "source.fixAll.mcpdesc"]


fixtures = sorted(glob.glob(os.path.join(TOP, "conformance", "fixes", "*.before.*")))
fixtures += [os.path.join(TOP, "tests", "data", "cli", "fix-suppressed.json"),
             os.path.join(TOP, "tests", "lsp", "fixall.json"),
             os.path.join(TOP, "tests", "lsp", "fixall.yaml")]
tmp = tempfile.mkdtemp(prefix="mcpdesc-lsp-fixall.")
try:
    # the two new fixtures again with CRLF line ends
    for name in ("fixall.json", "fixall.yaml"):
        crlf = os.path.join(tmp, "crlf-" + name)
        with open(os.path.join(TOP, "tests", "lsp", name), "rb") as f:
            data = f.read().replace(b"\n", b"\r\n")
        with open(crlf, "wb") as f:
            f.write(data)
        fixtures.append(crlf)
    env = dict(os.environ, MCPDESC_NO_CONFIG="1")
    for doc_changes in (False, True):
        c = Client([BIN, "lsp", "--rules", RULES, "--no-config"], env=env, cwd=tmp)
        caps = {"workspace": {"workspaceEdit": {"documentChanges": True}}} if doc_changes else {}
        c.initialize(root=tmp, options={"debounceMs": 0}, caps=caps)
        form = "documentChanges" if doc_changes else "changes"
        for k, src in enumerate(fixtures):
            name = os.path.basename(src)
            sub = os.path.join(tmp, "%s-%d" % (form, k))
            os.mkdir(sub)
            path = os.path.join(sub, name)
            shutil.copy(src, path)
            before = open(path, "rb").read()
            uri = "file://" + path
            c.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "yaml" if name.endswith(".yaml") else "json",
                "version": 1, "text": before.decode("utf-8")}})
            acts = fix_all_actions(c, uri)
            # `mcpdesc fix` on the same file, rules and config
            p = subprocess.run([BIN, "fix", "--rules", RULES, "--no-config", path], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            check(p.returncode == 0, "%s (%s): mcpdesc fix runs" % (name, form), p.stderr)
            want = open(path, "rb").read()
            if want == before:
                check(acts == [], "%s (%s): nothing to fix, nothing offered" % (name, form),
                      repr(acts))
                continue
            check(len(acts) == 1, "%s (%s): one fixAll action" % (name, form), repr(acts))
            got = apply(before, edits_of(acts[0], uri, doc_changes))
            check(got == want, "%s (%s): the action gives what mcpdesc fix writes" % (name, form),
                  "\n--- got\n%s\n--- want\n%s" % (got.decode(), want.decode()))
            # the result again: the server offers nothing, mcpdesc fix changes nothing
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": got.decode("utf-8")}]})
            check(fix_all_actions(c, uri) == [], "%s (%s): a second fixAll offers nothing"
                  % (name, form))
            p = subprocess.run([BIN, "fix", "--rules", RULES, "--no-config", path], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            check(p.returncode == 0 and b"nothing to fix" in p.stdout and
                  open(path, "rb").read() == want, "%s (%s): a second mcpdesc fix changes nothing"
                  % (name, form), p.stdout + p.stderr)
            c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        check(c.close() == 0, "%s: the server exits 0" % form)

    # "Suppress RULE for tool "NAME" (write the reason)", end to end with the real host
    c = Client([BIN, "lsp", "--rules", RULES, "--no-config"], env=env, cwd=tmp)
    c.initialize(root=tmp, options={"debounceMs": 0})
    path = os.path.join(tmp, "suppress.yaml")
    shutil.copy(os.path.join(TOP, "tests", "lsp", "suppress.yaml"), path)
    before = open(path, "rb").read()
    uri = "file://" + path
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": before.decode("utf-8")}})
    m = c.wait_for(lambda x: x.get("method") == "textDocument/publishDiagnostics", 10)
    ds = {x["code"]: x for x in m["params"]["diagnostics"]}
    check(sorted(ds) == ["mcp.tool.input-schema.properties-object-values",
                         "mcpdesc.suppression.unused"], "suppress.yaml: its two findings",
          repr(sorted(ds)))

    def actions_at(d):
        i = c.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": d["range"],
            "context": {"diagnostics": [d], "only": ["quickfix"]}})
        return c.response(i)["result"]
    check(actions_at(ds["mcpdesc.suppression.unused"]) == [],
          "no action for a finding about a suppression")
    acts = actions_at(ds["mcp.tool.input-schema.properties-object-values"])
    sup = [a for a in acts if a["title"].startswith("Suppress ")]
    check([a["title"] for a in acts] == [
        "replace true with {}",
        "Suppress mcp.tool.input-schema.properties-object-values for tool \"\u00fc\U0001f600\" "
        "(write the reason)"],
        "the quick fix and the suppress action", repr(acts))
    check(sup[0]["diagnostics"] == [ds["mcp.tool.input-schema.properties-object-values"]],
          "the suppress action carries the diagnostic as published")
    got = apply(before, sup[0]["edit"]["changes"][uri])
    want = before.replace(b"        reason: kept for old clients\n",
                          b"        reason: kept for old clients\n"
                          b"      - {rule: mcp.tool.input-schema.properties-object-values, "
                          b"reason: \"\"}\n")
    check(got == want, "the entry is appended to the block list, comments kept",
          "\n--- got\n%s" % got.decode())
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": got.decode("utf-8")}]})
    m = c.wait_for(lambda x: x.get("method") == "textDocument/publishDiagnostics" and
                   x["params"].get("version") == 2, 10)
    codes = sorted(x["code"] for x in m["params"]["diagnostics"])
    line = got.decode("utf-8").split("\n").index(
        "      - {rule: mcp.tool.input-schema.properties-object-values, reason: \"\"}")
    check(codes == ["mcp.tool.input-schema.properties-object-values",
                    "mcpdesc.suppression.invalid", "mcpdesc.suppression.unused"] and
          any(x["code"] == "mcpdesc.suppression.invalid" and x["range"]["start"]["line"] == line
              for x in m["params"]["diagnostics"]),
          "the empty reason is an error at the new entry, and the finding stays until it is "
          "written", repr(m["params"]["diagnostics"]))
    check(c.close() == 0, "the server exits 0")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("1..%d" % client.checks)
