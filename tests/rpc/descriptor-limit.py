# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "descriptor limit" (issue 38 A, the socket's part): the daemon at
# argv[1] runs under `ulimit -n 64`.  80 clients connect and ask: those past its reserve of
# descriptors wait in the backlog (libuv alone would accept and close them: EOF, unanswered),
# and are answered once the first ones go.
import select
import socket
import sys
import time
from ud import *

path = sys.argv[1]
conns = [Conn(path, 30.0) for _ in range(80)]
for c in conns:
    c.send(req("status", id=1))


def collect(waiting, quiet_for, limit):
    """Replies read until nothing comes for quiet_for seconds: (answered, closed)."""
    answered, closed = [], []
    socks = {c.s: c for c in waiting}
    end = time.time() + limit
    while socks and time.time() < end:
        r, _, _ = select.select(list(socks), [], [], quiet_for)
        if not r:
            break
        for s in r:
            c = socks[s]
            try:
                d = s.recv(1 << 16)
            except OSError:
                d = b""
            if not d:
                closed.append(c)
                del socks[s]
                continue
            c.buf += d
            if b"\n" in c.buf:
                answered.append(c)
                del socks[s]
    return answered, closed


first, closed = collect(conns, 2.0, 60.0)
waiting = [c for c in conns if c not in first and c not in closed]
check(not closed, "no client is closed unanswered at the descriptor limit", len(closed))
check(0 < len(first) < 80, "some clients served, the rest wait (%d served)" % len(first), len(first))
# each client that goes makes room for one that waits: round after round, all are answered
rounds, lost, done = 0, 0, first
while waiting and done and rounds < 20:
    for c in done:
        c.close()
    done, closed = collect(waiting, 5.0, 60.0)
    lost += len(closed)
    waiting = [c for c in waiting if c not in done and c not in closed]
    rounds += 1
for c in done:
    c.close()
check(lost == 0 and not waiting, "the waiting clients are served once the first ones went",
      (rounds, len(waiting), lost))
check(status(path)["ready"], "the daemon serves on")
