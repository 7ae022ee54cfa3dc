# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "slow subscriber" (run by its pycheck, against its daemon).
import os, socket, threading, time
from ud import *
T, K = os.environ["T"], os.environ["K"]
D = T + "/include/linux/" + "d" * 240
os.makedirs(D)
names = [D + "/h%04d_%s.h" % (i, "x" * 240) for i in range(800)]

def write_all(round):
    for i, p in enumerate(names):
        with open(p, "w") as f:
            f.write("#ifndef _H%d\n#define _H%d\n#define H%d %d\n#endif\n" % (i, i, i, round))

now = status(K)["clock"]
write_all(0)
check(wait_idle(K, after=now) is not None, "800 long-named headers added")

slow = Conn(K)
slow.result("subscribe")        # then never read again
good = Conn(K)
good.result("subscribe")
seen = []
def reader():
    while True:
        try:
            m = good.line(60)
        except (socket.timeout, OSError):
            return
        if m is None:
            return
        seen.append(m)
t = threading.Thread(target=reader, daemon=True)
t.start()
ctl = Conn(K)
check(ctl.result("status")["clients"]["subscribed"] == 2, "two subscribers")

rounds = 0
dropped = False
for rnd in range(1, 41):
    now = ctl.result("status")["clock"]
    write_all(rnd)
    st = wait_idle(K, after=now + len(names) - 1)
    rounds = rnd
    if st is None:
        break
    if st["clients"]["subscribed"] < 2:
        dropped = True
        break
check(dropped, "the subscriber that does not read is disconnected (after %d rounds)" % rounds)
# what it was sent, then the end of the connection
slow.s.settimeout(10)
got, eof = 0, False
try:
    while True:
        d = slow.s.recv(1 << 20)
        if not d:
            eof = True
            break
        got += len(d)
except (socket.timeout, OSError):
    pass
check(eof and got > 0, "its connection is closed after what it was sent (%d bytes)" % got)
check(got <= (4 << 20) + (2 << 20), "it was not sent much over the bound", got)
st = ctl.result("status")
check(st["clients"]["subscribed"] == 1, "the reading subscriber stays subscribed", st["clients"])
time.sleep(0.3)
files = [f for m in seen if m.get("method") == "changed" for f in m["params"]["files"]]
check(len(files) >= rounds * len(names) and all(m.get("method") == "changed" for m in seen),
      "the reading subscriber got every notification (%d files)" % len(files), len(files))
good.close()
ctl.close()
