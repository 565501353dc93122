#!/bin/sh
# tests/docs-run.sh [BIN] - the docs run (issue 18 item 7). Every shell block of
# README.md and docs/*.md (```sh, ```shell, ```bash, ```console) is run, or is marked
# as not runnable with a reason on the line before its fence:
#     <!-- not-run: needs a live MCP server -->
# Runnable blocks run from a scratch copy of the checkout (its tracked and untracked,
# not ignored, files, committed in a git repository of its own; BIN, default
# build/mcpdesc, linked as build/mcpdesc there and as `mcpdesc` on PATH), one bash session per
# block:
#   console  `$ cmd` lines (a trailing \ continues one), each followed by its expected
#            output (stdout and stderr together). The output must match line for line;
#            `...` in an expected line matches any text, a line that is only `...` any
#            number of lines (digests, elided JSON). The exit status is not compared
#            (show it with `$ echo $?` when it matters). A console block marked
#            <!-- run: tty --> runs each command on a pseudo-terminal (script(1)).
#   sh, shell, bash  run as a script: a command that exits 0 or 1 (1: validate's
#            "findings at or above --fail-on") passes, any other status fails the block.
# Also every relative Markdown link [text](path#anchor) of those files must name a file
# of the repository (and the anchor a heading of it), and every repository path in
# backticks (`tools/embed-metaschemas.sh`) must exist. Fails naming FILE:LINE of each
# block that fails or is not marked, and of each broken link. docs/testing.md documents it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-build/mcpdesc}
case $bin in /*) ;; *) bin=$top/$bin ;; esac
[ -x "$bin" ] || { echo "FAIL docs-run: no program $bin (make first)" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/repo/build" "$t/bin"
(cd "$top" && git ls-files -co --exclude-standard -z | tar cf - --null -T -) | (cd "$t/repo" && tar xf -)
# a link, not a copy: the program stays the tree's own build, which alone reads the tree's
# rules-yaml/ (docs/releases.md, "Where mcpdesc looks"); a copy would be an installed
# program without an install. The scratch copy's rules-yaml/ is the same files.
ln -s "$bin" "$t/repo/build/mcpdesc"
# a git repository of its own, for the blocks that use git (git diff after a change)
(cd "$t/repo" && git init -q && git add -A && git -c user.name=docs-run -c user.email=docs-run@invalid \
    commit -qm scratch) || { echo "FAIL docs-run: cannot make the scratch copy a git repository" >&2; exit 1; }
ln -s "$t/repo/build/mcpdesc" "$t/bin/mcpdesc"
cd "$top"
st=0
python3 - "$t/repo" "$t/bin" README.md docs/*.md <<'PY' || st=$?
import os, re, shlex, subprocess, sys
scratch, bindir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
SHELLS = {"sh", "shell", "bash", "console"}
MARK = re.compile(r"^<!--\s*not-run:\s*(\S.*?)\s*-->\s*$")
TTY = re.compile(r"^<!--\s*run:\s*tty\s*-->\s*$")
SEP = "@@docs-run-end-of-command@@"
env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], NO_COLOR="1",
           MCPDESC_NO_CONFIG="1", LC_ALL="C.UTF-8")
for v in ("SOURCE_DATE_EPOCH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
    env.pop(v, None)
fails, ran, marked = [], 0, 0

def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mark = MARK.match(lines[k]) if k >= 0 else None
        tty = bool(k >= 0 and TTY.match(lines[k]))
        yield lang, start + 1, lines[start + 1:j], mark.group(1) if mark else None, tty
        i = j + 1

def pattern(expected):
    rx = ""
    for line in expected:
        if line.strip() == "...":
            rx += r"(?:[^\n]*\n)*?"
        else:
            rx += r"[^\n]*".join(re.escape(p) for p in line.split("...")) + r"\n"
    return re.compile(rx)

def run(script):
    return subprocess.run(["bash", "-c", script], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120).stdout.decode("utf-8", "replace")

def console(where, body, tty=False):
    cmds = []  # [command, expected lines]
    cont = False
    for line in body:
        if cont:
            cmds[-1][0] += "\n" + line
            cont = line.endswith("\\")
        elif line.startswith("$ "):
            cmds.append([line[2:], []])
            cont = line.endswith("\\")
        elif cmds:
            cmds[-1][1].append(line)
        elif line.strip():
            return f"{where}: output before the first `$ ` command"
    if not cmds:
        return f"{where}: a console block without a `$ ` command"
    if tty:  # on a pseudo-terminal (script(1)), carriage returns dropped
        cmds = [[f"script -qec {shlex.quote(c)} /dev/null | tr -d '\\r'", e, c] for c, e in cmds]
    else:
        cmds = [[c, e, c] for c, e in cmds]
    script = "".join(f"{c} 2>&1\ndocs_run_st=$?; printf '\\n{SEP}\\n'; (exit $docs_run_st)\n" for c, _, _ in cmds)
    outs = run(script).split(f"\n{SEP}\n")
    errs = []
    for n, (_, exp, c) in enumerate(cmds):
        got = outs[n] if n < len(outs) else ""
        got = got.rstrip("\n") + "\n" if got.strip("\n") else ""
        while exp and not exp[-1].strip():
            exp = exp[:-1]
        if not pattern(exp).fullmatch(got):
            import difflib
            d = "\n".join(difflib.unified_diff(exp, got.rstrip("\n").split("\n") if got else [],
                                               "documented", "actual", lineterm="", n=1))
            errs.append(f"{where}: `$ {c}` printed other output:\n{d}")
    return "\n".join(errs) or None

def script(where, body):
    s = ("set -o errtrace\ntrap 'st=$?; if [ $st -gt 1 ]; then echo \"docs-run: exit status $st: "
         "$BASH_COMMAND\"; exit $st; fi' ERR\n" + "\n".join(body) + "\n")
    p = subprocess.run(["bash", "-c", s], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    if p.returncode > 1:
        out = p.stdout.decode("utf-8", "replace").rstrip().split("\n")
        return f"{where}: the block failed (exit status {p.returncode}):\n    " + "\n    ".join(out[-8:])
    return None

for f in files:
    for lang, line, body, mark, tty in blocks(f):
        if lang not in SHELLS:
            continue
        where = f"{f}:{line}"
        if mark:
            marked += 1
            continue
        ran += 1
        try:
            err = console(where, body, tty) if lang == "console" else script(where, body)
        except subprocess.TimeoutExpired:
            err = f"{where}: timed out (mark long runs <!-- not-run: REASON -->)"
        if err:
            fails.append(err + f"\n    (run it, fix the doc from the real output, or mark it <!-- not-run: REASON -->)")
        else:
            print(f"ok   docs-run: {where} ({lang})")

# Relative Markdown links must resolve, anchors included.
def slugs(path):
    out, inblock = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            inblock = not inblock
        m = None if inblock else re.match(r"^#+\s+(.*?)\s*#*\s*$", line)
        if m:
            s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower().replace("`", "")).replace(" ", "-")
            out.add(s)
        if not inblock:
            # an explicit anchor, <a id="section-9.3"></a> (docs/format.md: rule pages name them)
            out.update(re.findall(r'<a id="([^"]+)"></a>', line))
    return out

links = 0
for f in files:
    inblock = False
    for n, line in enumerate(open(f, encoding="utf-8"), 1):
        if line.startswith("```"):
            inblock = not inblock
            continue
        if inblock:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z]+:", target):
                continue
            links += 1
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                fails.append(f"{f}:{n}: link to {target}: {dest} is not in the repository")
            elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
                fails.append(f"{f}:{n}: link to {target}: {dest} has no heading #{anchor}")

# A repository path in backticks (`tools/find-metaschemas.sh`, `schema/schemaInt.h` as
# an #include names it under src/) must exist: tokens that start with a top-level folder,
# placeholders (`*`, `<...>`, `$X`, `...`, NAME) and MCP method names (`tools/list`) aside.
TOPS = ("src/", "tests/", "tools/", "docs/", "mk/", "schema/", "rules-yaml/", "conformance/",
        "examples/", "debian/", ".ci/")
METHODS = {"tools/list", "tools/call"}
paths = 0
for f in files:
    inblock = False
    for n, line in enumerate(open(f, encoding="utf-8"), 1):
        if line.startswith("```"):
            inblock = not inblock
            continue
        if inblock:
            continue
        for tok in re.findall(r"`([^`\s]+)`", line):
            tok = tok.rstrip(".,:;)").split("#")[0]
            if not tok.startswith(TOPS) or tok in METHODS or re.search(r"[*<>${}]|\.\.\.|[A-Z]{3,}", tok):
                continue
            paths += 1
            if not any(os.path.exists(os.path.join(d, tok)) for d in (".", os.path.dirname(f), "src")):
                fails.append(f"{f}:{n}: `{tok}` is not in the repository")

print(f"docs-run: {ran} blocks run, {marked} marked not-run, {links} links and {paths} paths checked, {len(fails)} failures")
for e in fails:
    print("FAIL " + e, file=sys.stderr)
sys.exit(1 if fails else 0)
PY
exit $st
