#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""daemon-wait.py SOCK ready|idle [PID]: wait until `uapid watch` on SOCK is
ready (status.ready) or idle (no batch running or waiting, and its clock
still for 0.15 s), asking status over one connection at a time in this one
process. tests/lib/daemon-lib.sh's start_daemon and wait_idle use it: a uapictl
and two JSON parsers started for every poll were most of the CPU and the
wall time of the daemon suites.

Exit 0 when reached; 1 on the time-out (the last status printed); 2 when the
process PID (the daemon, given) is gone. The time-outs are generous (120 s to
ready, 60 s to idle) because valgrind and the sanitizers run the daemon too.
"""
import json
import os
import socket
import sys
import time

POLL = 0.05  # between two status calls
STILL = 0.15  # how long the clock must not move with busy false


def status(path):
    """The daemon's status, or None while it does not answer."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(path)
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n')
            buf = b""
            while not buf.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    return None
                buf += chunk
        reply = json.loads(buf)
        return reply.get("result")
    except (OSError, ValueError):
        return None


def alive(pid):
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    # a zombie is gone too: its parent (the test) has not reaped it yet
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ("ready", "idle"):
        sys.exit("usage: daemon-wait.py SOCK ready|idle [PID]")
    path, what = sys.argv[1], sys.argv[2]
    pid = int(sys.argv[3]) if len(sys.argv) == 4 else None
    deadline = time.monotonic() + (120 if what == "ready" else 60)
    last = None  # (clock, since when it has not moved with busy false)
    if what == "idle":
        # the events of what the test just wrote reach the daemon first
        time.sleep(STILL)
    while time.monotonic() < deadline:
        if not alive(pid):
            print("daemon-wait: the daemon (pid %d) is gone" % pid, file=sys.stderr)
            sys.exit(2)
        s = status(path)
        now = time.monotonic()
        if s is not None:
            if what == "ready":
                if s.get("ready") is True:
                    return
            elif s.get("busy") is False:
                if last is None or last[0] != s.get("clock"):
                    last = (s.get("clock"), now)
                elif now - last[1] >= STILL:
                    return
            else:
                last = None
        time.sleep(POLL)
    print("daemon-wait: not %s after the time-out; last status: %s"
          % (what, json.dumps(s) if s is not None else "none"), file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
