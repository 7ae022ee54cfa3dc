# SPDX-License-Identifier: GPL-2.0-or-later
"""A small JSON-RPC 2.0 client for uapid's socket, and check helpers."""
import hashlib
import json
import os
import socket
import sys
import time


def check(cond, what, detail=None):
    if cond:
        print("PASS", what)
    else:
        print("FAIL", what + ("" if detail is None else ": " + repr(detail)[:1500]))
    sys.stdout.flush()
    return bool(cond)


class Closed(Exception):
    pass


class Conn:
    def __init__(self, path, timeout=10.0):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.timeout = timeout
        self.buf = b""
        self.notes = []
        self.n = 0

    def close(self):
        self.s.close()

    def raw(self, data):
        self.s.sendall(data)

    def send(self, obj):
        self.raw((json.dumps(obj) + "\n").encode())

    def line(self, timeout=None):
        """The next line, parsed; None at EOF (or reset). socket.timeout when nothing comes."""
        self.s.settimeout(self.timeout if timeout is None else timeout)
        while b"\n" not in self.buf:
            try:
                d = self.s.recv(1 << 16)
            except (ConnectionResetError, BrokenPipeError):
                d = b""
            if not d:
                return None
            self.buf += d
        one, self.buf = self.buf.split(b"\n", 1)
        return json.loads(one)

    def reply(self, timeout=None):
        """The next reply; notifications that come first are kept in self.notes."""
        while True:
            m = self.line(timeout)
            if m is None:
                raise Closed("the daemon closed the connection")
            if isinstance(m, dict) and "id" not in m and "method" in m:
                self.notes.append(m)
                continue
            return m

    def call(self, method, params=None):
        self.n += 1
        req = {"jsonrpc": "2.0", "id": self.n, "method": method}
        if params is not None:
            req["params"] = params
        self.send(req)
        r = self.reply()
        if not isinstance(r, dict) or r.get("id") != self.n:
            raise AssertionError("reply to %s #%d: %r" % (method, self.n, r))
        return r

    def result(self, method, params=None):
        r = self.call(method, params)
        if "result" not in r:
            raise AssertionError("%s %r: %r" % (method, params, r))
        return r["result"]

    def quiet(self, secs):
        """True when nothing at all arrives for secs."""
        try:
            m = self.line(secs)
        except socket.timeout:
            return True
        if m is not None:
            self.notes.append(m)
        return False

    def wait_note(self, method, timeout=10.0):
        """The next notification named method (ones already kept first)."""
        end = time.time() + timeout
        while True:
            for i, m in enumerate(self.notes):
                if m.get("method") == method:
                    return self.notes.pop(i)
            left = end - time.time()
            if left <= 0:
                return None
            try:
                m = self.line(left)
            except socket.timeout:
                return None
            if m is None:
                return None
            self.notes.append(m)


def status(path, timeout=30.0):
    c = Conn(path, timeout)
    try:
        return c.result("status")
    finally:
        c.close()


def wait_idle(path, after=None, timeout=30.0):
    """Status once the daemon is ready, no batch runs or waits, the clock is still
    for a moment (and past after, when given).  None on a timeout."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            st = status(path)
        except (OSError, Closed, AssertionError, ValueError):
            time.sleep(0.1)
            last = None
            continue
        quiet = st["ready"] and not st["busy"] and (after is None or st["clock"] > after)
        if quiet and last == st["clock"]:
            return st
        last = st["clock"] if quiet else None
        time.sleep(0.15)
    return None


def wait_clients(path, n, timeout=10.0):
    """Status once the daemon counts n clients (the asking one included)."""
    end = time.time() + timeout
    while True:
        st = status(path)
        if st["clients"]["connected"] == n or time.time() > end:
            return st
        time.sleep(0.1)


def err(reply, code, *needles):
    """The reply is an error with code whose message holds every needle."""
    e = reply.get("error") if isinstance(reply, dict) else None
    return (e is not None and "result" not in reply and e.get("code") == code and
            all(n in e.get("message", "") for n in needles))


def blob(path):
    data = open(path, "rb").read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def read(path):
    with open(path) as f:
        return f.read()


def req(method, id=1, params=None, **extra):
    r = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        r["id"] = id
    if params is not None:
        r["params"] = params
    r.update(extra)
    return r


if __name__ == "__main__" and sys.argv[1] == "wait-ready":
    # wait-ready SOCK PID SECONDS: exit 0 once ready and idle, 1 when the pid died or time ran out
    sock, pid, secs = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    end = time.time() + secs
    while time.time() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit(1)
        if wait_idle(sock, timeout=1.0) is not None:
            sys.exit(0)
    sys.exit(1)
