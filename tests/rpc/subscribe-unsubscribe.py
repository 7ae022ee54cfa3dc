# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "subscribe, unsubscribe" (run by its pycheck, against its daemon).
import os
from ud import *
T, S, K = os.environ["T"], os.environ["S"], os.environ["K"]
c = Conn(K)
other = Conn(K)   # never subscribes: gets nothing
now = c.result("status")["clock"]
sub = c.result("subscribe")
check(sub == {"clock": now}, "subscribe: the clock", sub)
check(other.result("status")["clients"]["subscribed"] == 1, "status: one subscriber")
with open(T + "/include/linux/sample_forward.h", "a") as f:
    f.write("/* for the subscriber */\n")
note = c.wait_note("changed", 15)
check(note is not None, "subscribe: a changed notification after an edit")
if note:
    p = note.get("params", {})
    check(note.get("jsonrpc") == "2.0" and "id" not in note, "changed: a JSON-RPC notification", note)
    check(p.get("files") == ["include/linux/sample_forward.h"] and p.get("clock", 0) > now,
          "changed: the edited file and the new clock", note)
    st = wait_idle(K)
    check(st is not None and st["clock"] >= p["clock"], "changed: its clock is the daemon's")
# a request between notifications still gets its reply
check(c.result("markers.list") == {"markers": []}, "subscribe: requests still answered")
check(other.quiet(0.3) and other.notes == [], "subscribe: others get no notification")
# subscribing twice is one subscription
c.result("subscribe")
check(other.result("status")["clients"]["subscribed"] == 1, "subscribe twice: still one")

un = c.result("unsubscribe")
check(un == {}, "unsubscribe: {}", un)
check(other.result("status")["clients"]["subscribed"] == 0, "status: no subscriber")
c.notes.clear()
now = other.result("status")["clock"]
with open(T + "/include/linux/sample_forward.h", "a") as f:
    f.write("/* after unsubscribe */\n")
st = wait_idle(K, after=now)
check(st is not None, "unsubscribe: the edit is processed")
check(c.quiet(0.5) and c.notes == [], "unsubscribe: no notification after it", c.notes)
check(c.result("unsubscribe") == {}, "unsubscribe twice: fine")
