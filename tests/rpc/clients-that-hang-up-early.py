# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "clients that hang up early" (run by its pycheck, against its daemon).
import json, os, socket, time
from ud import *
K = os.environ["K"]
line = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"}) + "\n").encode()
for rnd in range(20):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(K)
    s.sendall(line * 2000)
    # reset, not a clean end: the daemon's next write gets EPIPE
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
    s.close()
time.sleep(0.5)
c = Conn(K, 120)  # it may still be writing to the gone clients on a loaded machine
st = c.result("status")
check(st["ready"], "the daemon serves after 20 clients each sent 2,000 requests and hung up")
c.close()
st = wait_clients(K, 1, 120)
check(st["clients"]["connected"] == 1, "the clients that hung up are forgotten", st["clients"])
