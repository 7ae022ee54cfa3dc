#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/soak.py SOCK PID REPO STATE EDITS CHECKOUTS RATE: months of use in minutes
(issue 38). Against the daemon PID serving the git work tree REPO (branches a
and b, two kernel trees) with its store in STATE: EDITS saves of uapi headers
(each adds a line or takes it back, as a developer's save and undo do), a
checkout a <-> b after every EDITS/CHECKOUTS of them, RATE saves a second;
meanwhile one client asks `status` every 20 ms and another `changes` from 0
again and again. Every minute and at the end: RSS, open descriptors, the
store's size (its pages, what the WAL holds included), its file's and the
WAL's, the rows of each table, status's latency p50/p99/max over the minute,
the daemon's longest loop turn so far (status's loop: CPU time, and wall time
less the wait for I/O) and the load average. bench/soak.sh sets it up."""
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time

SOCK, PID, REPO, STATE = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
EDITS, CHECKOUTS, RATE = int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
LINE = "#define UAPID_SOAK_EDIT 1\n"


class Conn:
    def __init__(self):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(600)
        self.s.connect(SOCK)
        self.buf = b""

    def call(self, method, params=None):
        req = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            req["params"] = params
        self.s.sendall((json.dumps(req) + "\n").encode())
        while b"\n" not in self.buf:
            d = self.s.recv(1 << 20)
            if not d:
                raise OSError("closed")
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line).get("result")


lat, lat_lock, stop = [], threading.Lock(), threading.Event()
changes_done = [0]


def prober():
    c = Conn()
    while not stop.is_set():
        t = time.monotonic()
        c.call("status")
        with lat_lock:
            lat.append((time.monotonic() - t) * 1000)
        time.sleep(0.02)


def changer():
    c = Conn()
    while not stop.is_set():
        c.call("changes", {"since": 0})
        changes_done[0] += 1


def pct(v, p):
    return sorted(v)[min(len(v) - 1, int(len(v) * p / 100))] if v else 0.0


def proc(field):
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return 0


def size(p):
    try:
        return os.path.getsize(p)
    except OSError:
        return 0


def rows():
    """The rows of each table, and the database's size as it is (its pages, the WAL's
    included: the file alone lags behind until the upkeep's checkpoint)."""
    db = sqlite3.connect("file:%s/state.db?mode=ro" % STATE, uri=True, timeout=30)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    n = {t: db.execute("SELECT COUNT(*) FROM \"%s\"" % t).fetchone()[0] for t in names}
    pages = (db.execute("PRAGMA page_count").fetchone()[0] *
             db.execute("PRAGMA page_size").fetchone()[0])
    db.close()
    return n, pages


def figures():
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    n, pages = rows()
    return {"rss_mib": proc("VmRSS"), "fds": len(os.listdir("/proc/%d/fd" % PID)),
            "store_mib": round(pages / 2**20, 2),
            "file_mib": round(size(STATE + "/state.db") / 2**20, 2),
            "wal_mib": round(size(STATE + "/state.db-wal") / 2**20, 2), "rows": n,
            "loop": Conn().call("status")["loop"], "load": load}


def show(tag, f, window):
    lp = f["loop"]
    print("%s: rss %d MiB, %d fds, store %.2f MiB (file %.2f, wal %.2f MiB), status p50 %.1f p99 %.1f max %.1f "
          "ms (%d), changes from 0 answered %d times; loop's longest turn %.1f ms CPU, %.1f ms "
          "busy (%d, %d turns over 50 ms of %d); load %s; rows %s" %
          (tag, f["rss_mib"], f["fds"], f["store_mib"], f["file_mib"], f["wal_mib"],
           pct(window, 50), pct(window, 99), max(window) if window else 0, len(window), changes_done[0],
           lp["max_cpu_ms"], lp["max_busy_ms"], lp["held_cpu"], lp["held_busy"], lp["turns"],
           f["load"], " ".join("%s=%d" % kv for kv in sorted(f["rows"].items()))), flush=True)


def git(*args):
    subprocess.run(["git", "-C", REPO] + list(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def headers():
    d = os.path.join(REPO, "include/uapi/linux")
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".h"))[:300]


def main():
    first = figures()
    show("after the first scan", first, [])
    if os.environ.get("SOAK_KEEP"):  # the store as the first scan left it, beside the end's
        os.makedirs(os.environ["SOAK_KEEP"], exist_ok=True)
        src = sqlite3.connect("file:%s/state.db?mode=ro" % STATE, uri=True, timeout=30)
        dst = sqlite3.connect(os.path.join(os.environ["SOAK_KEEP"], "state-first.db"))
        src.backup(dst)
        dst.close()
        src.close()
    # daemon threads: a failed edit or checkout ends the run, not waits for them forever
    threads = [threading.Thread(target=prober, daemon=True),
               threading.Thread(target=changer, daemon=True)]
    for t in threads:
        t.start()
    rng = random.Random(38)
    hs, branch = headers(), "a"
    every = EDITS // CHECKOUTS if CHECKOUTS > 0 else EDITS + 1
    t0 = last = time.monotonic()
    seen = 0
    for i in range(EDITS):
        h = rng.choice(hs)
        try:
            with open(h) as f:
                text = f.read()
            text = text[:-len(LINE)] if text.endswith(LINE) else text + LINE
            with open(h + ".soak~", "w") as f:
                f.write(text)
            os.rename(h + ".soak~", h)
        except OSError:
            pass  # not in this tree (a checkout took it away)
        if (i + 1) % every == 0:
            branch = "b" if branch == "a" else "a"
            git("checkout", "-q", "-f", branch)
            hs = headers()
        delay = t0 + (i + 1) / RATE - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if time.monotonic() - last >= 60:
            last = time.monotonic()
            with lat_lock:
                window, seen = lat[seen:], len(lat)
            show("%.0f min, %d edits" % ((last - t0) / 60, i + 1), figures(), window)
    # caught up: idle, then the last upkeep's work shown as it is
    c = Conn()
    while c.call("status")["busy"]:
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join()
    end = figures()
    with lat_lock:
        all_lat = list(lat)
    show("end, %d edits, %d checkouts, %.1f min" % (EDITS, CHECKOUTS, (time.monotonic() - t0) / 60),
         end, all_lat)
    print("store after / after the first scan: %.2fx; RSS %d -> %d MiB; descriptors %d -> %d; "
          "status p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d answers; the loop's longest turn "
          "%.1f ms CPU, %.1f ms busy; load %s" %
          (end["store_mib"] / max(first["store_mib"], 0.01), first["rss_mib"], end["rss_mib"],
           first["fds"], end["fds"], pct(all_lat, 50), pct(all_lat, 99), max(all_lat),
           len(all_lat), end["loop"]["max_cpu_ms"], end["loop"]["max_busy_ms"], end["load"]))


main()
