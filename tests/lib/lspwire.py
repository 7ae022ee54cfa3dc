# SPDX-License-Identifier: GPL-2.0-or-later
"""An LSP client over a child's pipes, as an editor drives `uapictl lsp`.

Lsp(argv): starts the server; request(method, params) waits for its answer
(notifications read meanwhile are kept), notify(method, params) sends one,
wait_note(method, uri, timeout, pred) returns the next notification of that
method about uri that pred accepts (None at the timeout), and close() ends
the session with shutdown and exit, returning the server's exit status.
"""
import json
import os
import select
import subprocess
import time


class Lsp:
    def __init__(self, argv, env=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.inbuf = b""
        self.pending = []  # messages read while waiting for something else
        self.next_id = 0

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read_one(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            head_end = self.inbuf.find(b"\r\n\r\n")
            if head_end >= 0:
                length = None
                for line in self.inbuf[:head_end].split(b"\r\n"):
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v)
                assert length is not None, "no Content-Length in %r" % self.inbuf[:head_end]
                if len(self.inbuf) >= head_end + 4 + length:
                    body = self.inbuf[head_end + 4:head_end + 4 + length]
                    self.inbuf = self.inbuf[head_end + 4 + length:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.inbuf += chunk

    def request(self, method, params, timeout=10):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = self.read_one(deadline - time.monotonic())
            if m is None:
                break
            if m.get("id") == self.next_id and "method" not in m:
                return m
            self.pending.append(m)
        raise SystemExit("no answer to %s within %ss" % (method, timeout))

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def wait_note(self, method, uri=None, timeout=10, pred=None):
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.pending):
                p = m.get("params", {})
                u = p.get("uri") or p.get("textDocument", {}).get("uri")
                if m.get("method") == method and (uri is None or u == uri) and (pred is None or pred(p)):
                    del self.pending[i]
                    return p
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            m = self.read_one(left)
            if m is None:
                return None
            self.pending.append(m)

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.proc.wait(timeout=10)
