# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "last line at end of input" (run by its pycheck, against its daemon).
import json, os, socket
from ud import *
K = os.environ["K"]


def at_end(data):
    """Sends data, ends its side, and reads to the end: the reply lines."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(K)
    s.settimeout(30)
    try:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
    except (BrokenPipeError, ConnectionResetError):
        pass  # refused while we still sent: the reply is already waiting
    got = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        got += d
    s.close()
    return [json.loads(l) for l in got.split(b"\n") if l]


lines = at_end(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n'
               b'{"jsonrpc":"2.0","id":2,"method":"markers.list"}')
check([l.get("id") for l in lines] == [1, 2] and all("result" in l for l in lines),
      "both requests answered, the last one without its newline too", lines)


# a long last line (parsed on the thread pool, as a long line with its newline is)
pad = b'{"jsonrpc":"2.0","id":3,"method":"status","params":{"pad":"' + b"x" * (2 << 20) + b'"}}'
lines = at_end(b'{"jsonrpc":"2.0","id":2,"method":"status"}\n' + pad)
check([l.get("id") for l in lines] == [2, 3] and all("result" in l for l in lines),
      "a 2 MiB last line without its newline is answered after the one before it",
      [l.get("id") for l in lines])
# a last line over the limit is refused, not parsed
lines = at_end(b"[" + b" " * ((8 << 20) + 10))
check(len(lines) == 1 and lines[0].get("error", {}).get("code") == -32600,
      "a last line over 8 MiB without its newline: an error", lines[:1])
