"""client.py - a small Language Server Protocol client over pipes, for the end-to-end
tests (e2e.py, fixall.py) and the benchmark (tools/bench/lsp.py): start `mcpdesc lsp`,
send framed JSON-RPC messages, read what the server sends with a deadline; and the
tests' `check` (TAP-like lines, exit 1 on the first failure)."""
import json
import os
import select
import subprocess
import sys
import time

checks = 0


def check(cond, what, detail=""):
    global checks
    checks += 1
    if not cond:
        print("not ok %d - %s %s" % (checks, what, detail))
        sys.exit(1)
    print("ok %d - %s" % (checks, what))



class Client:
    def __init__(self, argv, env=None, cwd=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd)
        self.buf = b""
        self.next_id = 1

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return i

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _frame(self):
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return None
        n = None
        for line in self.buf[:end].split(b"\r\n"):
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                n = int(v)
        if n is None:
            raise ValueError("frame without Content-Length: %r" % self.buf[:end])
        if len(self.buf) < end + 4 + n:
            return None
        body = self.buf[end + 4:end + 4 + n]
        self.buf = self.buf[end + 4 + n:]
        return json.loads(body)

    def read(self, timeout=10.0):
        """The next message, or None after TIMEOUT seconds (or at the end of output)."""
        deadline = time.monotonic() + timeout
        while True:
            m = self._frame()
            if m is not None:
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait_for(self, pred, timeout=10.0, seen=None):
        """Read until PRED(message) holds; the messages before it are appended to SEEN."""
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(max(0.0, deadline - time.monotonic()))
            if m is None:
                return None
            if pred(m):
                return m
            if seen is not None:
                seen.append(m)

    def response(self, i, timeout=10.0):
        return self.wait_for(lambda m: m.get("id") == i and "method" not in m, timeout)

    def initialize(self, root=None, encodings=None, options=None, caps=None):
        c = caps or {}
        if encodings:
            c.setdefault("general", {})["positionEncodings"] = encodings
        params = {"processId": os.getpid(), "capabilities": c,
                  "rootUri": ("file://" + root) if root else None}
        if options is not None:
            params["initializationOptions"] = options
        r = self.response(self.request("initialize", params))
        self.notify("initialized", {})
        return r

    def close(self, timeout=10.0):
        """shutdown, exit; the exit status."""
        self.response(self.request("shutdown", None))
        self.notify("exit", None)
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
