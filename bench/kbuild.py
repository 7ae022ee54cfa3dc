#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/kbuild.py UAPID [N]: a directory exporting N headers (default 20,000).

Builds the tree with bench/kbuild-tree.py in a scratch directory, then prints
(one run, the same machine, so compare ratios, not absolutes):
  - `uapid split --output` of the tree: seconds, wall and CPU (target < 5 s);
  - `uapid watch`: from exec to READY=1 (the first scan edits both export
    lists of the directory);
  - one batch that edits them again: a new header in the directory and its
    name appended to the Kbuild, from the writes to its entry in the daemon's
    uapi Kbuild, the daemon's own time for the batch, and the longest wait of
    a client asking `status` every 10 ms meanwhile (the loop's stall), and
    the longest turn of the daemon's loop in CPU time (its debug log: the
    loop's own work, whatever the machine's load adds to the wait).
Asserts nothing.  BENCH_KEEP=1 keeps the scratch directory.
"""
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


class Notify:
    """Our own NOTIFY_SOCKET: READY=1 from the daemon, timed."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)

    def wait_for(self, what, timeout=900):
        self.sock.settimeout(timeout)
        while True:
            if what in self.sock.recv(4096).decode().split("\n"):
                return time.perf_counter()


class Probe(threading.Thread):
    """Asks status every 10 ms; the longest wait for an answer, in ms."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.stop = threading.Event()
        self.longest = 0.0

    def run(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.path)
        f = s.makefile("rb")
        req = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"}) + "\n").encode()
        while not self.stop.is_set():
            t = time.perf_counter()
            s.sendall(req)
            if not f.readline():
                return
            self.longest = max(self.longest, (time.perf_counter() - t) * 1000)
            time.sleep(0.01)
        s.close()


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    uapid = os.path.abspath(sys.argv[1])
    uapictl = os.path.join(os.path.dirname(uapid), "uapictl")
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 20000
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="uapid-bench-kbuild.")
    tree, out = os.path.join(work, "tree"), os.path.join(work, "out")
    state, sock = os.path.join(work, "state"), os.path.join(work, "d.sock")
    daemon = None
    try:
        subprocess.run([sys.executable, os.path.join(here, "kbuild-tree.py"), tree, str(n)],
                       check=True)
        print("tree:             include/linux with %d headers, one Kbuild listing them" % n)

        cpu0, t0 = children_cpu(), time.perf_counter()
        subprocess.run([uapid, "split", "--quiet", "--output", out, tree], check=True,
                       stdout=subprocess.DEVNULL)
        print("split --output:   %.2f s wall, %.2f s CPU (target < 5 s)" %
              (time.perf_counter() - t0, children_cpu() - cpu0))

        notify = Notify(os.path.join(work, "notify"))
        env = dict(os.environ, NOTIFY_SOCKET=os.path.join(work, "notify"))
        t0 = time.perf_counter()
        log = os.path.join(work, "daemon.log")
        daemon = subprocess.Popen([uapid, "watch", "--state-dir", state, "--socket", sock,
                                   "--verbose", tree],
                                  env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=open(log, "w"))
        t1 = notify.wait_for("READY=1")
        print("watch, first scan: %.2f s from exec to READY=1" % (t1 - t0))

        probe = Probe(sock)
        probe.start()
        time.sleep(0.2)
        with open(log) as f:
            logged = len(f.readlines())
        kbuild = os.path.join(state, "split", "include", "uapi", "linux", "Kbuild")
        t0 = time.perf_counter()
        with open(os.path.join(tree, "include", "linux", "zz_new.h"), "w") as f:
            f.write("#ifndef _LINUX_ZZ_NEW_H\n#define _LINUX_ZZ_NEW_H\n"
                    "#define ZZ_NEW 1\n#ifdef __KERNEL__\nint zz_new(void);\n#endif\n#endif\n")
        with open(os.path.join(tree, "include", "linux", "Kbuild"), "a") as f:
            f.write("header-y += zz_new.h\n")
        while True:
            try:
                with open(kbuild) as f:
                    if "zz_new.h" in f.read():
                        break
            except FileNotFoundError:
                pass
            if time.perf_counter() - t0 > 900:
                raise SystemExit("bench: the new header never reached the uapi Kbuild")
            time.sleep(0.05)
        t1 = time.perf_counter()
        time.sleep(0.2)
        probe.stop.set()
        probe.join(900)
        status = json.loads(subprocess.run([uapictl, "--socket", sock, "--json", "status"],
                                           check=True, stdout=subprocess.PIPE).stdout)
        print("batch, new export: %.2f s from the write to its uapi Kbuild entry "
              "(the daemon's last batch: %.0f ms); longest status wait %.0f ms" %
              (t1 - t0, status["last_batch"]["ms"], probe.longest))
        with open(log) as f:
            turns = [float(line.split("took ")[1].split(" ms")[0])
                     for line in f.readlines()[logged:] if "loop: a turn took" in line]
        print("batch, loop turns: longest %s (turns over 20 ms of CPU: %d)" %
              ("%.1f ms of CPU" % max(turns) if turns else "under 20 ms of CPU", len(turns)))
    finally:
        if daemon is not None and daemon.poll() is None:
            daemon.terminate()
            daemon.wait()
        if os.environ.get("BENCH_KEEP"):
            print("kept: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


main()
