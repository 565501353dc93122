"""table.py SAMPLES - the one table of `make bench` (issue 32, docs/bench.md): every row of
the issue's "Why" table as now against goal, from the samples tools/bench/run.sh wrote in
one run. Prints the table on standard output; exit 0 whatever the verdicts (the benchmark
measures; a missed goal does not change the status), 2 on a malformed samples file.

SAMPLES holds one fact a line, the first word saying which ("#" starts a comment line):
  note TEXT...                     a header line, printed as is (host, versions, commit)
  nproc N                          cores of the host (the goal of "one large file")
  bytes SIZE BYTES                 the size in bytes of the generated file of SIZE tools
  run SIZE PROG WALL_MS USER_MS SYS_MS RSS_KIB [PARSE_S]
                                   one timed run (tools/bench/spawn.py); SIZE is "one" for
                                   the 1-tool file; PARSE_S, for the floors, is the time
                                   parse-floor measured inside the process
  lsp SIZE MS                      one edit -> diagnostics time (tools/bench/lsp.py)
  schema MCPDESC_IPS FLOOR_IPS     one run of tools/bench-schema.c on tool-input instances
  skip ROW REASON...               a row that could not be measured (ROW: schema, lsp,
                                   spectral), and why
  compare SIZE TEXT...             mcpdesc's seed rules against Spectral: the same nodes?
  wasmsize GZIP_BYTES BYTES        the WebAssembly build's code (mcpdesc.wasm + mcpdesc.js),
                                   gzip -9 and as is
Medians are the lower middle for an even count, as everywhere in tools/bench."""
import sys

# Programs of run.sh: floor = json_loadb flags 0 (the unit of every ratio), strict =
# json_loadb with mcpdesc's flags, full = the full rule set (default preset), seed = the two
# seed rules, security / diff = the targets of issues 8 and 31, spectral = Spectral 6 with
# the two seed rules, wasm = the WebAssembly build under node with the full rule set
# (issue 33); on the 1-tool file: floor, version (mcpdesc --version), full, wasm.


def median(xs):
    xs = sorted(xs)
    return xs[(len(xs) + 1) // 2 - 1] if xs else None


class Samples:
    def __init__(self, path):
        self.notes, self.runs, self.bytes, self.lsp, self.schema = [], {}, {}, {}, []
        self.skips, self.compares, self.nproc = {}, {}, 1
        self.wasm_size = None
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            try:
                self.fact(w, line)
            except (ValueError, IndexError):
                print("table.py: %s:%d: malformed line: %s" % (path, no, line.rstrip()),
                      file=sys.stderr)
                sys.exit(2)

    def fact(self, w, line):
        kind = w[0]
        if kind == "note":
            self.notes.append(line.rstrip("\n")[5:])
        elif kind == "nproc":
            self.nproc = int(w[1])
        elif kind == "bytes":
            self.bytes[int(w[1])] = int(w[2])
        elif kind == "run":
            size = w[1] if w[1] == "one" else int(w[1])
            vals = [float(x) for x in w[3:]]
            if len(vals) not in (4, 5):
                raise ValueError
            self.runs.setdefault((size, w[2]), []).append(vals)
        elif kind == "lsp":
            self.lsp.setdefault(int(w[1]), []).append(float(w[2]))
        elif kind == "schema":
            self.schema.append((float(w[1]), float(w[2])))
        elif kind == "skip":
            self.skips[w[1]] = " ".join(w[2:])
        elif kind == "compare":
            self.compares[int(w[1])] = " ".join(w[2:])
        elif kind == "wasmsize":
            self.wasm_size = (int(w[1]), int(w[2]))
        else:
            raise ValueError

    def med(self, size, prog, col):
        """Median of column COL (0 wall ms, 1 user, 2 sys, 3 RSS KiB, 4 parse s)."""
        rs = self.runs.get((size, prog))
        if not rs or len(rs[0]) <= col:
            return None
        return median([r[col] for r in rs])

    def sizes(self):
        return sorted({n for (n, _) in self.runs if n != "one"})


def upto(now, limit):
    """Verdict of an upper bound: met, or NOT MET and by how much."""
    if now is None:
        return "not measured"
    if now <= limit:
        return "met"
    return "NOT MET: %.0f%% over" % ((now / limit - 1) * 100)


def atleast(now, floor):
    """Verdict of a lower bound."""
    if now is None:
        return "not measured"
    if now >= floor:
        return "met"
    return "NOT MET: %.0f%% short" % ((1 - now / floor) * 100)


def ratio(a, b):
    return None if a is None or not b else a / b


def fx(x):
    return "-" if x is None else "%.2fx" % x


def tools(n):
    return "{:,}".format(n)


def cpu(s, n, prog):
    """Median user+system time (ms) of PROG's runs at size N."""
    rs = s.runs.get((n, prog))
    return median([r[1] + r[2] for r in rs]) if rs else None


def cpu_ratio(s, n, prog):
    """PROG's CPU time over the floor's: less moved by other work on a shared host than the
    wall-time ratio the goals judge, and above it when PROG keeps more than one core busy."""
    return ratio(cpu(s, n, prog), cpu(s, n, "floor"))


def wasm_rows(s, row):
    """The WebAssembly build (issue 33): its time against the native full rule set's in
    the same rounds (at most 2x at 10,000 tools), and its code's size (at most 2 MiB
    compressed)."""
    what = "WebAssembly build (node), against native full"
    measured = [n for n in s.sizes() if (n, "wasm") in s.runs]
    for n in measured:
        r = ratio(s.med(n, "wasm", 0), s.med(n, "full", 0))
        now = "%s (%.3f s; CPU time %s)" % (fx(r), s.med(n, "wasm", 0) / 1e3,
                                            fx(ratio(cpu(s, n, "wasm"), cpu(s, n, "full"))))
        if n >= 10000:
            row(what, tools(n), now, "<= 2.00x", upto(r, 2.0))
        else:
            row(what, tools(n), now, "(at 10k)")
    if ("one", "wasm") in s.runs:
        row(what, "1", "%s (%.0f ms; CPU time %.0f ms)" % (
            fx(ratio(s.med("one", "wasm", 0), s.med("one", "full", 0))), s.med("one", "wasm", 0),
            cpu(s, "one", "wasm")))
        measured.append("one")
    if not measured:
        row(what, "-", "not run: " + s.skips.get("wasm", "no wasm samples"), "<= 2.00x at 10k",
            "not measured")
    if s.wasm_size:
        gz, raw = s.wasm_size
        row("  its code: mcpdesc.wasm + mcpdesc.js, gzip -9", "-",
            "%.2f MiB (%.2f MiB as is)" % (gz / 1048576, raw / 1048576), "<= 2 MiB",
            upto(gz / 1048576, 2.0))


def table(s):
    rows = []  # (what, tools, now, goal, verdict)

    def row(what, size, now, goal="-", verdict="-"):
        rows.append((what, size, now, goal, verdict))

    sizes = s.sizes()
    for n in sizes:
        t = s.med(n, "floor", 0)
        rss = s.med(n, "floor", 3)
        walls = [r[0] for r in s.runs[(n, "floor")]]
        row("floor: jansson json_loadb, flags 0 (read, parse, free)", tools(n),
            "%.3f s (runs %.3f-%.3f), %.1f MiB" % (t / 1e3, min(walls) / 1e3, max(walls) / 1e3,
                                                  rss / 1024), "the unit")
        row("  json_loadb with mcpdesc's flags (the old floor)", tools(n),
            "%s (CPU time %s)" % (fx(ratio(s.med(n, "strict", 0), t)),
                                  fx(cpu_ratio(s, n, "strict"))))
    for n in sizes:
        r = ratio(s.med(n, "full", 0), s.med(n, "floor", 0))
        limit = 3.0 if n < 10000 else 2.0
        row("full rule set, default preset", tools(n), "%s (%.3f s; CPU time %s)" % (
            fx(r), s.med(n, "full", 0) / 1e3, fx(cpu_ratio(s, n, "full"))),
            "<= %.0fx" % limit, upto(r, limit))
    # The load: a validate of the 1-tool file less a start of the same binary that loads
    # nothing (mcpdesc --version); what is left also holds < 1 ms of parse, judge, report.
    start, version = s.med("one", "full", 0), s.med("one", "version", 0)
    load = None if start is None or version is None else start - version
    share = ""
    if load is not None and s.med(1000, "floor", 0):
        share = "; %.2fx the 1,000-tool floor" % (load / s.med(1000, "floor", 0))
    row("  rule-set load: validate 1-tool file - mcpdesc --version", "1",
        "-" if load is None else "%.1f ms (CPU time %.1f ms%s)" % (
            load, cpu(s, "one", "full") - cpu(s, "one", "version"), share),
        "<= 5 ms (item 7)", upto(load, 5.0))
    for n in sizes:
        r = ratio(s.med(n, "seed", 0), s.med(n, "floor", 0))
        now = "%s (CPU time %s)" % (fx(r), fx(cpu_ratio(s, n, "seed")))
        if n >= 10000:
            row("seed rules only", tools(n), now, "<= 1.00x", upto(r, 1.0))
        else:
            row("seed rules only", tools(n), now, "(at 10k+)")
    spectral_sizes = [n for n in sizes if (n, "spectral") in s.runs]
    for n in spectral_sizes:
        r = ratio(s.med(n, "seed", 0), s.med(n, "spectral", 0))
        row("  seed rules, against Spectral 6's time", tools(n), fx(r), "<= 0.10x", upto(r, 0.1))
    if not spectral_sizes:
        row("  seed rules, against Spectral 6's time", "-",
            "not run: " + s.skips.get("spectral", "no size in the Spectral range"), "<= 0.10x",
            "not measured")
    for n in sizes:
        mib = s.bytes[n] / 1048576
        full = ratio(s.med(n, "full", 3) / 1024, mib)
        now = "%.1f MiB = %s the file" % (s.med(n, "full", 3) / 1024, fx(full))
        if n >= 10000:
            row("peak memory, full rule set", tools(n), now, "<= 6x the file", upto(full, 6.0))
        else:
            row("peak memory, full rule set", tools(n), now, "(at 10k+)")
        row("  the jansson tree alone (floor's RSS / file)", tools(n),
            fx(ratio(s.med(n, "floor", 3) / 1024, mib)))
    for n in sorted(s.lsp):
        ms = median(s.lsp[n])
        if n <= 1000:
            row("editor: edit -> diagnostics, debounce off", tools(n), "%.0f ms" % ms, "< 50 ms",
                "met" if ms < 50 else "NOT MET: %.0f%% over" % ((ms / 50 - 1) * 100))
        elif n >= 10000 and s.med(n, "floor", 4):
            parse_ms = s.med(n, "floor", 4) * 1e3
            r = ms / parse_ms
            row("editor: edit -> diagnostics, debounce off", tools(n),
                "%.0f ms = %s the parse" % (ms, fx(r)), "<= 1.3x the parse", upto(r, 1.3))
        else:
            row("editor: edit -> diagnostics, debounce off", tools(n), "%.0f ms" % ms)
    if not s.lsp:
        row("editor: edit -> diagnostics, debounce off", "-",
            "not run: " + s.skips.get("lsp", "no size up to BENCH_LSP_MAX"), "< 50 ms at 1k",
            "not measured")
    if s.schema:
        r = median([m / f for m, f in s.schema])
        row("JSON Schema validation, tool-input instances", "-",
            "%s the walk floor (%.0f/s)" % (fx(r), median([m for m, _ in s.schema])), ">= 0.80x",
            atleast(r, 0.8))
    else:
        row("JSON Schema validation, tool-input instances", "-",
            "not run: " + s.skips.get("schema", "?"), ">= 0.80x", "not measured")
    # One large file: CPU time over wall time of the full rule set at the largest size up to
    # 10,000 tools (the smallest size when all are larger); both cores of two = 0.8 x nproc.
    small = [n for n in sizes if n <= 10000]
    if sizes:
        n = max(small) if small else min(sizes)
        cores = median([(r[1] + r[2]) / r[0] for r in s.runs[(n, "full")]])
        want = 0.8 * s.nproc
        row("one large file: cores used, (user+sys)/wall", tools(n),
            "%.2f of %d" % (cores, s.nproc), ">= %.1f (0.8 x nproc)" % want, atleast(cores, want))
    if start is not None:
        floor1 = s.med("one", "floor", 0)
        row("startup: validate a 1-tool file", "1",
            "%.1f ms = %s the floor's start-up (CPU time %.1f ms)" % (
                start, fx(ratio(start, floor1)), cpu(s, "one", "full")), "<= 10 ms",
            upto(start, 10.0))
        row("  process start alone: mcpdesc --version", "1",
            "%.1f ms (CPU time %.1f ms)" % (version, cpu(s, "one", "version")))
    for n in sizes:
        full = s.med(n, "full", 0)
        if (n, "security") in s.runs:
            r = ratio(s.med(n, "security", 0), full)
            row("security set, against the full rule set (issue 8)", tools(n), fx(r), "<= 1.20x",
                upto(r, 1.2))
        if (n, "diff") in s.runs:
            r = ratio(s.med(n, "diff", 0), full)
            row("diff, one change, against the full rule set (issue 31)", tools(n), fx(r),
                "<= 2.00x", upto(r, 2.0))
    wasm_rows(s, row)

    for line in s.notes:
        print(line)
    head = ("what", "tools", "now", "goal", "verdict")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

    print()
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    for n in sorted(s.compares):
        print("same nodes as Spectral (seed rules), %s tools: %s" % (tools(n), s.compares[n]))
    if len(sizes) > 1:
        # cost per MB of input at each size: a flat line is a linear cost
        print("\nmedian milliseconds per MB of input (flat = linear): " + "; ".join(
            "%s %s" % (p, " / ".join("%.1f" % (s.med(n, p, 0) / (s.bytes[n] / 1e6)) for n in sizes))
            for p in ("floor", "seed", "full") if all((n, p) in s.runs for n in sizes))
            + " at " + " / ".join(tools(n) for n in sizes) + " tools")
    missed = sum(1 for r in rows if r[4].startswith("NOT MET"))
    print("\n%d goal%s not met (the status does not depend on them)"
          % (missed, "" if missed == 1 else "s"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: table.py SAMPLES")
    table(Samples(sys.argv[1]))
