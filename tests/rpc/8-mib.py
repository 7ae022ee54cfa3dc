# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "8 MiB" (run by its pycheck, against its daemon).
import json, os, socket
from ud import *
K = os.environ["K"]
LIMIT = 8 << 20

def padded(n, id):
    head = b'{"jsonrpc":"2.0","id":%d,"method":"status","params":{"pad":"' % id
    tail = b'"}}'
    return head + b"x" * (n - len(head) - len(tail)) + tail

def over(data):
    """Sends data on a new connection: what came back, and whether it was closed."""
    c = Conn(K, 20)
    try:
        c.raw(data)
    except (BrokenPipeError, ConnectionResetError):
        pass    # closed while we still sent: the reply is already waiting
    first = c.line(20)
    rest = c.line(20) if first is not None else None
    c.close()
    return first, rest

# exactly the limit is a request
c = Conn(K, 20)
c.raw(padded(LIMIT, 1) + b"\n")
r = c.reply(20)
check(r.get("id") == 1 and "result" in r, "a request line of exactly 8 MiB is served", r.get("error"))
check(c.result("markers.list") == {"markers": []}, "and that connection stays usable")
c.close()

first, rest = over(padded(LIMIT + 1, 2) + b"\n")
check(err(first, -32600, "longer than 8388608 bytes", "closed"), "8 MiB + 1: an error", first)
check(rest is None, "8 MiB + 1: then the connection is closed", rest)
# without a newline at all, as soon as the buffer passes the limit
first, rest = over(b"[" + b" " * (9 << 20))
check(err(first, -32600, "longer than 8388608 bytes"), "9 MiB and no newline: an error", first)
check(rest is None, "9 MiB and no newline: closed", rest)
# good requests, then an overlong one, on one connection: the good ones answered first
c = Conn(K, 20)
try:
    c.raw(b'{"jsonrpc":"2.0","id":"before","method":"markers.list"}\n' + padded(LIMIT + 100, 3) + b"\n")
except (BrokenPipeError, ConnectionResetError):
    pass
a, b, z = c.line(20), c.line(20), c.line(20)
check(a.get("id") == "before" and "result" in a and err(b, -32600) and z is None,
      "a request before the overlong one is answered, then the error, then the close", (a, b, z))
c.close()
st = wait_clients(K, 1)
check(st["ready"] and st["clients"]["connected"] == 1, "after: the daemon serves others", st["clients"])
