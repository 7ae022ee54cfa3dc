#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Asks a daemon's status every 10 ms until its standard input ends.

usage: status-probe.py SOCKET

tests/lib/faults.py runs it beside each case: a process of its own, so what the
case's threads do in Python (building a 25 MB message holds the interpreter
lock) is not counted as the daemon's wait.  Prints one JSON line at the
end: {"longest_ms": N, "answers": N, "error": null or why}.
"""
import json
import os
import select
import socket
import sys
import time

REQ = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"}) + "\n").encode()


def main():
    longest, answers, error = 0.0, 0, None
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(120)
        s.connect(sys.argv[1])
        buf = b""
        # asked at least once: a case shorter than this process's start-up
        # (a loaded machine) would otherwise end it before its first question
        while answers == 0 or not select.select([sys.stdin], [], [], 0.01)[0]:
            t = time.monotonic()
            s.sendall(REQ)
            while b"\n" not in buf:
                d = s.recv(1 << 16)
                if not d:
                    raise OSError("connection closed")
                buf += d
            _, buf = buf.split(b"\n", 1)
            longest = max(longest, (time.monotonic() - t) * 1000)
            answers += 1
        s.close()
    except OSError as e:
        error = str(e) or type(e).__name__
        sys.stdin.read()  # wait for the end all the same
    print(json.dumps({"longest_ms": longest, "answers": answers, "error": error}))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
