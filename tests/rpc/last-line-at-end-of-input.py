# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli-rpc.sh, section "last line at end of input" (run by its pycheck, against its daemon).
import json, os, socket
from ud import *
K = os.environ["K"]
s = socket.socket(socket.AF_UNIX)
s.connect(K)
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n{"jsonrpc":"2.0","id":2,"method":"markers.list"}')
s.shutdown(socket.SHUT_WR)
s.settimeout(10)
data = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    data += d
lines = [json.loads(l) for l in data.split(b"\n") if l]
check([l.get("id") for l in lines] == [1, 2] and all("result" in l for l in lines),
      "both requests answered, the last one without its newline too", lines)
s.close()
