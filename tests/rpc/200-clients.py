# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "200 clients" (run by its pycheck, against its daemon).
import json, os, select, socket, time
from ud import *
K = os.environ["K"]
N = 200
socks = []
for i in range(N):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(K)
    socks.append(s)
check(len(socks) == N, "200 connections open at once")
for i, s in enumerate(socks):
    s.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"status"}\n' % i)
bufs = {s: b"" for s in socks}
done = {}
end = time.time() + 30
while len(done) < N and time.time() < end:
    ready, _, _ = select.select([s for s in socks if s not in done], [], [], 1.0)
    for s in ready:
        d = s.recv(1 << 16)
        if not d:
            done[s] = None
            continue
        bufs[s] += d
        if b"\n" in bufs[s]:
            done[s] = json.loads(bufs[s].split(b"\n", 1)[0])
good = [i for i, s in enumerate(socks)
        if done.get(s) and done[s].get("id") == i and done[s]["result"]["ready"] is True]
check(len(good) == N, "200 clients: every one answered, with its own id", N - len(good))
st = wait_clients(K, N + 1)
check(st["clients"]["connected"] == N + 1, "status counts 201 clients", st["clients"])
for s in socks:
    s.close()
check(wait_clients(K, 1)["clients"]["connected"] == 1, "closed clients are forgotten")
