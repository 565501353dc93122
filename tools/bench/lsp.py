"""lsp.py MCPDESC DIR - `make bench-lsp` (and a row of `make bench`'s table; docs/bench.md):
the time from a didChange (one edit in the description of the middle tool) to the
publishDiagnostics of that version, through `mcpdesc lsp` over pipes with the debounce
off (initializationOptions.debounceMs 0), on generated descriptions of 100, 1,000 and
10,000 tools (tools/bench/gen-description.py, kept in DIR); the median of BENCH_LSP_REPS
edits (default 9), next to the median of 3 full `mcpdesc validate` runs of the same file.
Goals (issue 32): under 50 ms at 1,000 tools (and the older 100 ms at 100); at 10,000
tools at most 1.3x the parse of the buffer, which `make bench`'s table judges against its
parse floor (printed as met or NOT MET; the exit status is 0 unless something could not
run).
Settings for tools/bench/run.sh (environment):
  BENCH_LSP_SIZES="100 1000 10000"  sizes generated in DIR
  BENCH_LSP_FILES="N=PATH ..."      these files instead (N: their size in tools)
  BENCH_LSP_OUT=FILE                append "lsp N MS" for every timed edit to FILE
  BENCH_LSP_VALIDATE=0              skip the full validate runs
  BENCH_RULES=DIR                   the server's rules (default: the binary's own default)"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "lsp"))
from client import Client  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
DIR = sys.argv[2]
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SIZES = [int(x) for x in os.environ.get("BENCH_LSP_SIZES", "100 1000 10000").split()]
REPS = int(os.environ.get("BENCH_LSP_REPS", "9"))
FILES = [(int(n), os.path.abspath(p)) for n, p in
         (x.split("=", 1) for x in os.environ.get("BENCH_LSP_FILES", "").split())]
OUT = os.environ.get("BENCH_LSP_OUT")
VALIDATE = os.environ.get("BENCH_LSP_VALIDATE", "1") != "0"
GOALS = {100: 0.100, 1000: 0.050}
os.makedirs(DIR, exist_ok=True)
env = dict(os.environ, MCPDESC_NO_CONFIG="1")
RULES = ["--rules", os.path.abspath(os.environ["BENCH_RULES"])] if os.environ.get("BENCH_RULES") else []


def gen(n):
    path = os.path.abspath(os.path.join(DIR, "lsp-%d.json" % n))
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(TOP, "tools", "bench", "gen-description.py"),
                        str(n), path, "--seed=20261201"], check=True)
    return path


def validate_time(path):
    ts = []
    for _ in range(3):
        t0 = time.monotonic()
        subprocess.run([BIN, "validate"] + RULES + ["-q", "--format", "json", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        ts.append(time.monotonic() - t0)
    return statistics.median(ts)


def edit_times(path):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    # the description of the middle tool: the line of its "description" member
    descs = [i for i, l in enumerate(lines) if l.startswith('      "description": "')]
    if not descs:
        raise SystemExit("bench-lsp: no tool description in %s" % path)
    at = descs[len(descs) // 2]
    col = lines[at].index('"description": ') + len('"description": "')
    uri = "file://" + path
    c = Client([BIN, "lsp"] + RULES + ["--no-config"], env=env, cwd=DIR)
    c.initialize(root=DIR, options={"debounceMs": 0})
    pub = "textDocument/publishDiagnostics"
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "json", "version": 1, "text": text}})
    first = c.wait_for(lambda m: m.get("method") == pub, 300)
    if first is None:
        raise SystemExit("bench-lsp: no diagnostics after didOpen of %s" % path)
    ts = []
    for v in range(2, REPS + 2):
        # insert one letter at the start of the description (alternately remove it)
        if v % 2 == 0:
            change = {"range": {"start": {"line": at, "character": col},
                                "end": {"line": at, "character": col}}, "text": "X"}
        else:
            change = {"range": {"start": {"line": at, "character": col},
                                "end": {"line": at, "character": col + 1}}, "text": ""}
        t0 = time.monotonic()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [change]})
        m = c.wait_for(lambda m: m.get("method") == pub and m["params"].get("version") == v,
                       300)
        if m is None:
            raise SystemExit("bench-lsp: no diagnostics for version %d" % v)
        ts.append(time.monotonic() - t0)
    c.close()
    return ts, len(first["params"]["diagnostics"])


print("bench-lsp: didChange -> publishDiagnostics (median of %d edits), and a full validate "
      "(median of 3)" % REPS)
print("%8s %12s %12s %14s %14s  %s" % ("tools", "bytes", "diagnostics", "edit (ms)",
                                       "validate (ms)", "goal"))
for n, p in FILES or [(n, gen(n)) for n in SIZES]:
    ts, nd = edit_times(p)
    e = statistics.median(ts)
    if OUT:
        with open(OUT, "a", encoding="utf-8") as f:
            f.writelines("lsp %d %.3f\n" % (n, t * 1000) for t in ts)
    v = validate_time(p) if VALIDATE else None
    g = GOALS.get(n)
    goal = "" if g is None else ("< %d ms: %s" % (g * 1000, "met" if e < g else "NOT MET"))
    print("%8d %12d %12d %14.1f %14s  %s" % (n, os.path.getsize(p), nd, e * 1000,
                                             "-" if v is None else "%.1f" % (v * 1000), goal))
