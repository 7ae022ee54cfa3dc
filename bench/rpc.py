#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/rpc.py UAPID [TREE]: the daemon's socket, measured (doc/protocol.md).

Starts `uapid watch` on TREE (default: a scratch copy of examples/tree; a
kernel tree such as linux-source-6.1 is only read, never written) with a
scratch state directory and socket, waits for READY=1 (read on our own
NOTIFY_SOCKET), then prints (one run, the same machine, so compare ratios,
not absolutes):
  - `classify` of an editor's unsaved buffer: a ~100 KiB header text
    (blocks of structs, ioctls and enums with #ifdef __KERNEL__ sections,
    #else branches, compound conditions and a kernel-only field inside a
    struct) sent as "text"; round trip p50/p99 over N calls
    (target p99 < 5 ms);
  - `status` round trip p50/p99 over N calls;
  - requests per second with C concurrent clients, each on its own
    connection (one process each), doing `status` calls back to back for
    S seconds, with their latencies and the daemon's CPU meanwhile;
  - the daemon's RSS (VmRSS) before and after the runs, and its peak
    (VmHWM).
A round trip is timed on the wire: from the request's first byte sent
(encoded beforehand) to its reply's newline read; replies are checked
after the clock stops.

Environment: BENCH_CALLS (500 classify calls; status gets 4 times as
many), BENCH_KIB (100), BENCH_CLIENTS (50), BENCH_SECONDS (2),
BENCH_KEEP=1 keeps the scratch directory.
"""
import json
import multiprocessing
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

RUNNING = []


class Notify:
    """Our own NOTIFY_SOCKET: READY=1 says the first scan is recorded."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)

    def wait_ready(self, proc, log, timeout=900):
        deadline = time.monotonic() + timeout
        self.sock.settimeout(0.5)
        while time.monotonic() < deadline:
            try:
                msg = self.sock.recv(4096).decode(errors="replace")
            except socket.timeout:
                msg = ""
            if "READY=1" in msg.split("\n"):
                return time.perf_counter()
            if proc.poll() is not None:
                break
        with open(log) as f:
            tail = f.read()[-2000:]
        raise SystemExit("bench: the daemon did not become ready (exit %s):\n%s"
                         % (proc.poll(), tail))


class Conn:
    """One client connection: a request line out, its reply line back."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.rd = self.sock.makefile("rb", buffering=1 << 20)

    def roundtrip(self, data):
        """Sends data (one encoded request line); returns (seconds, reply line)."""
        t0 = time.perf_counter()
        self.sock.sendall(data)
        line = self.rd.readline()
        t1 = time.perf_counter()
        if not line:
            raise SystemExit("bench: the daemon closed the connection")
        return t1 - t0, line

    def call(self, method, params=None):
        req = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            req["params"] = params
        _, line = self.roundtrip(json.dumps(req).encode() + b"\n")
        reply = json.loads(line)
        if "error" in reply:
            raise SystemExit("bench: %s: %s" % (method, reply["error"]))
        return reply["result"]

    def close(self):
        self.rd.close()
        self.sock.close()


def request(rid, method, params_json):
    """An encoded request line; params_json is already JSON (bytes)."""
    return (b'{"jsonrpc":"2.0","id":%d,"method":"%s","params":%s}\n'
            % (rid, method.encode(), params_json))


def header_text(kib):
    """A header of about kib KiB, shaped like a driver's uapi-to-be header."""
    out = ["/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
           "/*\n * bench_rpc.h - an unsaved editor buffer for bench/rpc.py: blocks of\n"
           " * shared and kernel-only declarations, repeated.  Not from any kernel.\n"
           " */\n"
           "#ifndef _LINUX_BENCH_RPC_H\n#define _LINUX_BENCH_RPC_H\n\n"
           "#include <linux/types.h>\n#include <linux/ioctl.h>\n\n"]
    size = len(out[0])
    i = 0
    while size < kib * 1024 - 40:
        b = ["/*\n * Block %d: a request, its ioctls and its states.  The request is\n"
             " * shared with userspace; the device behind it is not.\n */\n" % i,
             "struct bench_req_%d {\n\t__u32 flags;\n\t__u32 len;\n\t__u64 addr;\n"
             "\t__u8 tag[16];\n" % i]
        if i % 7 == 3:
            b.append("#ifdef __KERNEL__\n\tvoid *private;\n#endif\n")
        b.append("};\n\n"
                 "#define BENCH_IOC_MAGIC_%d\t'B'\n"
                 "#define BENCH_IOC_%d_GET\t_IOR(BENCH_IOC_MAGIC_%d, %d, struct bench_req_%d)\n"
                 "#define BENCH_IOC_%d_SET\t_IOW(BENCH_IOC_MAGIC_%d, %d, struct bench_req_%d)\n\n"
                 "enum bench_state_%d {\n\tBENCH_%d_IDLE,\n\tBENCH_%d_BUSY,\n\tBENCH_%d_DONE,\n};\n\n"
                 % ((i,) + (i, i, i % 100 * 2, i) + (i, i, i % 100 * 2 + 1, i) + (i,) * 4))
        b.append("#ifdef __KERNEL__\n")
        if i % 4 == 0:
            b.append("#include <linux/list.h>\n#include <linux/spinlock.h>\n\n")
        b.append("struct bench_dev_%d {\n\tstruct list_head list;\n\tspinlock_t lock;\n"
                 "\tstruct bench_req_%d req;\n\tenum bench_state_%d state;\n};\n\n"
                 "int bench_%d_submit(struct bench_dev_%d *dev, const struct bench_req_%d *req);\n"
                 "static inline int bench_%d_busy(const struct bench_dev_%d *dev)\n{\n"
                 "\treturn dev->state == BENCH_%d_BUSY;\n}\n" % ((i,) * 9))
        if i % 3 == 0:
            b.append("#else\n#define BENCH_%d_USER_HELPERS 1\n" % i)
        b.append("#endif /* __KERNEL__ */\n\n")
        if i % 5 == 2:
            b.append("#if defined(__KERNEL__) && defined(CONFIG_BENCH_DEBUG)\n"
                     "#define BENCH_%d_DEBUG_LEVEL 3\n#endif\n\n" % i)
        if i % 6 == 5:
            b.append("#ifndef __KERNEL__\nstatic __inline__ int bench_%d_valid(const struct "
                     "bench_req_%d *r)\n{\n\treturn r->len <= sizeof(r->tag);\n}\n#endif\n\n"
                     % (i, i))
        s = "".join(b)
        out.append(s)
        size += len(s)
        i += 1
    out.append("#endif /* _LINUX_BENCH_RPC_H */\n")
    return "".join(out), i


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def proc_status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))


def timed(conn, method, params_json, n):
    """n round trips of one method; every reply is checked, outside the clock."""
    lat = []
    for k in range(n):
        rid = k + 1
        t, line = conn.roundtrip(request(rid, method, params_json))
        reply = json.loads(line)
        if reply.get("id") != rid or "result" not in reply:
            raise SystemExit("bench: %s: unexpected reply: %s" % (method, line[:300]))
        lat.append(t * 1000)
    return lat


def client(path, start, end, out):
    """One of the concurrent clients: status calls back to back from start to end."""
    try:
        c = Conn(path)
        data = request(1, "status", b"{}")
        c.roundtrip(data)  # connected and served once before the clock
        while time.monotonic() < start:
            time.sleep(0.0005)
        n, errors, lat = 0, 0, []
        while True:
            now = time.monotonic()
            if now >= end:
                break
            t, line = c.roundtrip(data)
            if b'"result"' not in line:
                errors += 1
            n += 1
            lat.append(t * 1000)
        c.close()
        out.put((n, errors, lat))
    except Exception as e:  # reported, not hidden
        out.put((0, 1, [], repr(e)))


def concurrent(path, pid, clients, seconds):
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    start = time.monotonic() + 0.5 + clients * 0.01
    end = start + seconds
    procs = [ctx.Process(target=client, args=(path, start, end, out)) for _ in range(clients)]
    for p in procs:
        p.start()
    while time.monotonic() < start:
        time.sleep(0.001)
    cpu0 = cpu_seconds(pid)
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1 = cpu_seconds(pid)
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join()
    failures = [r[3] for r in results if len(r) > 3]
    if failures:
        raise SystemExit("bench: %d clients failed: %s" % (len(failures), failures[0]))
    total = sum(r[0] for r in results)
    errors = sum(r[1] for r in results)
    lat = [x for r in results for x in r[2]]
    served = sum(1 for r in results if r[0] > 0)
    return total, errors, lat, served, (cpu1 - cpu0) / seconds


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: bench/rpc.py UAPID [TREE]")
    uapid = os.path.abspath(sys.argv[1])
    calls = int(os.environ.get("BENCH_CALLS", "500"))
    kib = int(os.environ.get("BENCH_KIB", "100"))
    nclients = int(os.environ.get("BENCH_CLIENTS", "50"))
    seconds = float(os.environ.get("BENCH_SECONDS", "2"))
    work = tempfile.mkdtemp(prefix="uapid-bench-rpc.")
    if len(sys.argv) == 3 and sys.argv[2]:
        tree = os.path.realpath(sys.argv[2])
        if not os.path.isdir(os.path.join(tree, "include")):
            raise SystemExit("bench: %s has no include/: not a kernel tree" % tree)
    else:
        tree = os.path.join(work, "tree")
        shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                     "examples", "tree"), tree)
    state, sock = os.path.join(work, "state"), os.path.join(work, "d.sock")
    log, npath = os.path.join(work, "daemon.log"), os.path.join(work, "notify")
    notify = Notify(npath)
    # the discovery symlink goes to the scratch directory, where it cannot
    # replace the socket of a daemon that already serves this tree
    env = dict(os.environ, NOTIFY_SOCKET=npath, XDG_RUNTIME_DIR=work)
    for k in ("RUNTIME_DIRECTORY", "STATE_DIRECTORY", "LISTEN_FDS", "LISTEN_PID",
              "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(k, None)
    try:
        t0 = time.perf_counter()
        p = subprocess.Popen([uapid, "watch", "--state-dir", state, "--socket", sock,
                              "--arch", "x86", tree], env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=open(log, "a"))
        RUNNING.append(p)
        t1 = notify.wait_ready(p, log)
        c = Conn(sock)
        st = c.call("status")
        deadline = time.monotonic() + 60
        while st["busy"] and time.monotonic() < deadline:  # a batch right after the scan
            time.sleep(0.05)
            st = c.call("status")
        n = st["counts"]
        print("tree:              %s (%d headers, %d exported); ready %.0f ms after exec"
              % (tree, n["headers"], n["exported"], (t1 - t0) * 1000))
        print("load average:      %.2f %.2f %.2f (%d CPUs; other work skews every figure)"
              % (os.getloadavg() + (os.cpu_count() or 1,)))
        rss0 = proc_status(p.pid, "VmRSS")
        print("RSS before:        %.1f MiB" % rss0)

        text, blocks = header_text(kib)
        params = json.dumps({"path": "include/linux/bench_rpc.h", "text": text}).encode()
        first = c.call("classify", {"path": "include/linux/bench_rpc.h", "text": text})
        timed(c, "classify", params, 20)  # warm-up
        lat = timed(c, "classify", params, calls)
        p99 = pct(lat, 99)
        print("%-19sp50 %.2f ms, p99 %.2f ms over %d calls (%.1f KiB text, %d blocks"
              " of declarations, %d lines classified in %d ranges, %d diagnostics): "
              "target p99 < 5 ms: %s"
              % ("classify %d KiB:" % kib, statistics.median(lat), p99, calls,
                 len(text) / 1024.0, blocks,
                 text.count("\n"), len(first["blocks"]), len(first["diagnostics"]),
                 "PASS" if p99 < 5 else "OVER TARGET"))
        rss1 = proc_status(p.pid, "VmRSS")

        timed(c, "status", b"{}", 50)  # warm-up
        lat = timed(c, "status", b"{}", calls * 4)
        print("status:            p50 %.3f ms, p99 %.3f ms over %d calls (one client)"
              % (statistics.median(lat), pct(lat, 99), calls * 4))

        total, errors, lat, served, cpu = concurrent(sock, p.pid, nclients, seconds)
        print("concurrent status: %.0f requests/s with %d clients on their own connections"
              " for %.1f s (%d requests, %d errors, %d clients served; latency p50 %.2f ms,"
              " p99 %.2f ms; daemon CPU %.0f%% of one core)"
              % (total / seconds, nclients, seconds, total, errors, served,
                 statistics.median(lat) if lat else 0, pct(lat, 99) if lat else 0, cpu * 100))

        st = c.call("status")
        rss2 = proc_status(p.pid, "VmRSS")
        print("RSS after:         %.1f MiB (%.1f after the classify run; peak VmHWM %.1f MiB;"
              " %d client%s still connected)"
              % (rss2, rss1, proc_status(p.pid, "VmHWM"), st["clients"]["connected"],
                 "" if st["clients"]["connected"] == 1 else "s"))
        c.close()
        p.terminate()
        p.wait()
        if p.returncode != 0:
            print("bench: the daemon exited with status %d (log: %s)" % (p.returncode, log))
    finally:
        for q in RUNNING:
            if q.poll() is None:
                q.terminate()
                q.wait()
        if os.environ.get("BENCH_KEEP"):
            print("kept: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
