#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The daemon under hostile clients and faults (tests/faults.sh drives it).

usage: faults.py SOCKET PID TREE UAPICTL CASE...

Each case is run against the live daemon PID serving TREE on SOCKET, and
checked for
  - survival: the daemon's pid is alive and answers `status` after it;
  - its result (what the case says);
  - the memory bound: the daemon's peak RSS during the case (VmHWM, reset
    through /proc/PID/clear_refs before it) and its RSS after it, both
    under 256 MiB;
  - the loop's responsiveness: a probe client sends `status` every 10 ms
    during the case; the longest wait it saw is printed (not asserted:
    machines are noisy; bench/ is where speed is judged).
One line per case: "case NAME: peak RSS A MiB (B before), after C MiB,
longest status wait D ms".  Exits 1 if any check failed.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time

SOCK, PID, TREE, UAPICTL = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
CASES = sys.argv[5:]
MIB = 1 << 20
RSS_BOUND = 256 * MIB
# ASan pads every block and keeps freed memory in quarantine: its RSS is no measure
MEASURE_RSS = not os.environ.get("ASAN_OPTIONS")
failures = 0


def check(cond, what, detail=None):
    global failures
    if cond:
        print("ok - " + what)
    else:
        print("not ok - " + what + ("" if detail is None else ": %r" % (detail,))[:2000])
        failures += 1


def proc_kb(field):
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def reset_peak():
    with open("/proc/%d/clear_refs" % PID, "w") as f:
        f.write("5")


def alive():
    try:
        os.kill(PID, 0)
        return True
    except OSError:
        return False


class Conn:
    def __init__(self, timeout=30):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(SOCK)
        self.buf = b""
        self.n = 0

    def line(self):
        while b"\n" not in self.buf:
            d = self.s.recv(1 << 16)
            if not d:
                return None
            self.buf += d
        l, self.buf = self.buf.split(b"\n", 1)
        return json.loads(l)

    def call(self, method, params=None):
        self.n += 1
        req = {"jsonrpc": "2.0", "id": self.n, "method": method}
        if params is not None:
            req["params"] = params
        self.s.sendall((json.dumps(req) + "\n").encode())
        while True:
            m = self.line()
            if m is None or m.get("id") == self.n or (m.get("id") is None and "error" in m):
                return m

    def close(self):
        self.s.close()


def status(within=120):
    """The daemon's status, asked until it answers (a loaded machine is slow), or None."""
    end = time.monotonic() + within
    while True:
        try:
            c = Conn(max(1, end - time.monotonic()))
            r = c.call("status")
            c.close()
            if r is not None and "result" in r:
                return r["result"]
        except OSError:
            pass
        if time.monotonic() > end or not alive():
            return None
        time.sleep(0.2)


def log_count(needle):
    """How many lines of the daemon's log ($FAULTS_LOG) hold needle."""
    with open(os.environ["FAULTS_LOG"], errors="replace") as f:
        return sum(needle in line for line in f)


class Probe(threading.Thread):
    """Asks status every 10 ms; the longest wait for an answer, in ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.longest = 0.0
        self.answers = 0
        self.error = None

    def run(self):
        try:
            c = Conn(120)
            while not self.stop.is_set():
                t = time.monotonic()
                r = c.call("status")
                if r is None:
                    self.error = "connection closed"
                    return
                self.longest = max(self.longest, (time.monotonic() - t) * 1000)
                self.answers += 1
                time.sleep(0.01)
            c.close()
        except OSError as e:
            self.error = str(e)


def run_case(name, fn):
    before = proc_kb("VmRSS")
    reset_peak()
    probe = Probe()
    probe.start()
    try:
        fn()
    except Exception as e:  # a case that raises is a failed case, the others still run
        check(False, "%s: ran to its end" % name, repr(e))
    time.sleep(0.2)
    probe.stop.set()
    probe.join(60)
    peak = proc_kb("VmHWM") if alive() else 0
    after = proc_kb("VmRSS") if alive() else 0
    st = status()
    check(alive() and st is not None and st.get("ready") is True,
          "%s: the daemon lives and answers status" % name)
    check(probe.error is None and probe.answers > 0,
          "%s: the probe client was answered throughout" % name, probe.error)
    if MEASURE_RSS:
        check(peak < RSS_BOUND, "%s: peak RSS under 256 MiB" % name, peak // MIB)
        check(after < RSS_BOUND, "%s: RSS after under 256 MiB" % name, after // MIB)
    print("case %s: peak RSS %d MiB (%d before), after %d MiB%s, longest status wait %.0f ms" %
          (name, peak // MIB, before // MIB, after // MIB,
           "" if MEASURE_RSS else " (ASan: not a measure)", probe.longest))


# --- the cases --------------------------------------------------------------------

def hangup_pipelined():
    """20 clients each pipeline 2,000 status calls and reset without reading."""
    line = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"}) + "\n").encode()
    for _ in range(20):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(SOCK)
        s.sendall(line * 2000)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
        s.close()


def big_header_text(size):
    body = "".join("#define BIG_%07d %d\n" % (i, i) for i in range(size // 24))
    return "#ifndef _LINUX_BIG_H\n#define _LINUX_BIG_H\n" + body + "#endif\n"


def hangup_classify():
    """uapictl --timeout 1 classify --stdin of a 6.9 MB buffer: the client gives up first."""
    text = big_header_text(6_900_000).encode()
    p = subprocess.run([UAPICTL, "--socket", SOCK, "--timeout", "1", "classify", "--stdin",
                        os.path.join(TREE, "include/linux/sample_arch.h")],
                       input=text, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # whether it was answered within 1 s or gave up, the daemon must not care
    check(p.returncode in (0, 1, 3), "hangup-classify: uapictl ends (%d)" % p.returncode,
          p.stderr[-300:])


def batch_line():
    """One line just under 8 MiB: a batch of about 190,000 status calls."""
    one = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"})
    n = (8 * MIB - 2) // (len(one) + 1)
    line = ("[" + ",".join([one] * n) + "]\n").encode()
    c = Conn(120)
    c.s.sendall(line)
    r = c.line()
    check(isinstance(r, dict) and r.get("error", {}).get("code") == -32600 and
          "a batch of %d calls: at most 1000" % n in r["error"]["message"],
          "batch-line: a batch of %d calls is refused with -32600" % n, r)
    r = c.call("status")
    check(r is not None and "result" in r, "batch-line: the connection serves the next request")
    c.close()


def partial_lines():
    """40 connections each send an unterminated line of 8 MiB - 1 bytes."""
    chunk = b"[" + b" " * (MIB - 1)
    outcomes = []
    needle = "bytes of unfinished requests over all clients"
    logged = log_count(needle)

    def client():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(120)
        s.connect(SOCK)
        sent = 0
        try:
            for _ in range(8):
                part = chunk if sent == 0 else b" " * MIB
                if sent + len(part) > 8 * MIB - 1:
                    part = part[:8 * MIB - 1 - sent]
                s.sendall(part)
                sent += len(part)
        except OSError:
            pass  # refused: the daemon closed its end
        # what the daemon said, if anything: an error line, then end of file
        try:
            s.shutdown(socket.SHUT_WR)
            data = b""
            while True:
                d = s.recv(1 << 16)
                if not d:
                    break
                data += d
        except OSError:
            data = b""
        outcomes.append(data)
        s.close()

    threads = [threading.Thread(target=client) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    check(len(outcomes) == 40, "partial-lines: every client ended", len(outcomes))
    # a refused client may see its error line, or only a reset if it was still sending
    told = sum(1 for d in outcomes if b"unfinished requests, yours the most" in d)
    refused = log_count(needle) - logged
    # at most four lines of 8 MiB fit under the 32 MiB bound at once
    check(refused >= 30 and refused <= 40,
          "partial-lines: the largest holders were refused (%d of 40; %d read why)" %
          (refused, told))


def lsp_big_buffer():
    """uapictl lsp: a 25 MB buffer is refused with a word to the editor; others still served."""
    p = subprocess.Popen([UAPICTL, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, UAPID_SOCKET=SOCK))
    inbuf = [b""]

    def send(m):
        body = json.dumps(m).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()

    def read(timeout):
        import select
        end = time.monotonic() + timeout
        while True:
            b = inbuf[0]
            h = b.find(b"\r\n\r\n")
            if h >= 0:
                n = int([l.split(b":")[1] for l in b[:h].split(b"\r\n")
                         if l.lower().startswith(b"content-length")][0])
                if len(b) >= h + 4 + n:
                    inbuf[0] = b[h + 4 + n:]
                    return json.loads(b[h + 4:h + 4 + n])
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([p.stdout], [], [], left)
            if r:
                d = os.read(p.stdout.fileno(), 1 << 16)
                if not d:
                    return None
                inbuf[0] += d

    def until(pred, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = read(end - time.monotonic())
            if m is None:
                return None
            if pred(m):
                return m
        return None

    uri = lambda rel: "file://" + os.path.join(os.path.realpath(TREE), rel)
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": uri(""), "capabilities": {}}})
    until(lambda m: m.get("id") == 1)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    big = big_header_text(25_000_000)
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri("include/linux/sample_arch.h"), "languageId": "c", "version": 1,
        "text": big}}})
    told = until(lambda m: m.get("method") == "window/showMessage", 120)
    check(told is not None and "not classified" in told["params"]["message"] and
          "over the daemon's bound" in told["params"]["message"],
          "lsp-big-buffer: the editor is told why the 25 MB buffer is not classified",
          told)
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri("include/linux/sample_compound.h"), "languageId": "c", "version": 1,
        "text": open(os.path.join(TREE, "include/linux/sample_compound.h")).read()}}})
    regions = until(lambda m: m.get("method") == "uapid/regions" and
                    m["params"]["textDocument"]["uri"].endswith("sample_compound.h"))
    check(regions is not None, "lsp-big-buffer: another buffer is still served")
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    until(lambda m: m.get("id") == 2)
    send({"jsonrpc": "2.0", "method": "exit"})
    p.stdin.close()
    rc = p.wait(30)
    err = p.stderr.read().decode(errors="replace")
    check(rc == 0 and "Broken pipe" not in err, "lsp-big-buffer: the bridge ends cleanly", err)


ALL = {
    "hangup-pipelined": hangup_pipelined,
    "hangup-classify": hangup_classify,
    "batch-line": batch_line,
    "partial-lines": partial_lines,
    "lsp-big-buffer": lsp_big_buffer,
}

for name in CASES or list(ALL):
    run_case(name, ALL[name])
sys.exit(1 if failures else 0)
