# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "unread replies" (run by its pycheck, against its daemon).
import os, select, socket, time
from ud import *
K, pid = os.environ["K"], os.environ["MAIN"]
def rss():
    for l in open("/proc/%s/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) * 1024
before = rss()
s = socket.socket(socket.AF_UNIX)
s.connect(K)
s.setblocking(False)
one = b'{"jsonrpc":"2.0","id":1,"method":"status"}\n'
chunk, pending, sent, stalled = one * 1000, b"", 0, 0
deadline = time.monotonic() + 60
while time.monotonic() < deadline and stalled < 20:
    if not pending:
        pending = chunk
    try:
        k = s.send(pending)
        sent += k
        pending = pending[k:]
        stalled = 0
    except BlockingIOError:
        stalled += 1
        time.sleep(0.05)
n = sent // len(one)   # whole requests sent (a part of one may be on its way)
grew = rss() - before
check(stalled >= 20, "the daemon stops taking requests from a client that does not read", sent)
# ASan keeps freed memory in quarantine (and pads every block), TSan shadows every byte the
# daemon touches (with status replies grown by their "loop" member, it measured 32.4 MiB
# where the plain build stays under 32): neither RSS is a measure of the daemon's own
if os.environ.get("ASAN_OPTIONS"):
    bound = 256 << 20
elif os.environ.get("TSAN_OPTIONS"):
    bound = 128 << 20
else:
    bound = 32 << 20
check(grew < bound, "its memory stays bounded (%d requests in, %.1f MiB more)" % (n, grew / 2**20), grew)
check(status(K)["ready"], "others are served meanwhile")
# now read: every complete request gets its reply
s.setblocking(True)
s.settimeout(10)
got, errors = 0, 0
s.shutdown(socket.SHUT_WR)
while True:
    try:
        d = s.recv(1 << 20)
    except socket.timeout:
        break
    if not d:
        break
    got += d.count(b"\n")
    errors += d.count(b'"error"')
# a request cut short by the end of input gets a parse error, not silence
partial = 1 if sent % len(one) else 0
check(got == n + partial and errors == partial, "every request is answered once the client reads (%d of %d)" % (got, n), (got, n))
s.close()
