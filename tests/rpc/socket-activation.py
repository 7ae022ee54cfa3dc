# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "socket activation" (run by its pycheck, against its daemon).
import os, sys
from ud import *
A, T, cut = sys.argv[1], os.environ["T"], int(os.environ["CUT"])
c = Conn(A)
st = c.result("status")
check(st["socket"] == A and st["tree"] == T and st["ready"], "activated: status names the socket", st)
check(c.result("headers", {"outcome": "needs-coaching"})["headers"][0]["path"] ==
      "include/linux/sample_arch.h", "activated: headers")
others = [Conn(A) for i in range(5)]
check(all(o.result("markers.list") == {"markers": []} for o in others), "activated: more clients")
# history starts after cut now
fr = c.result("changes", {"since": cut - 1})
check(fr["fresh_instance"] is True and len(fr["files"]) == st["counts"]["headers"],
      "changes since a clock older than the history: fresh_instance", fr["fresh_instance"])
ok = c.result("changes", {"since": cut})
check(ok["fresh_instance"] is False and ok["clock"] == st["clock"],
      "changes since the start of the history: answered from it", ok["fresh_instance"])
sub = c.result("subscribe")
with open(T + "/include/linux/sample_types.h", "a") as f:
    f.write("/* activated */\n")
n = c.wait_note("changed", 15)
check(n is not None and n["params"]["files"] == ["include/linux/sample_types.h"],
      "activated: edits are processed and notified", n)
