# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "changes" (run by its pycheck, against its daemon).
import os
from ud import *
T, S, K = os.environ["T"], os.environ["S"], os.environ["K"]
c = Conn(K)
now = c.result("status")["clock"]
everything = sorted(x["path"] for x in c.result("headers")["headers"])

ch = c.result("changes", {"since": 0})
check(ch["fresh_instance"] is False and ch["clock"] == now, "changes since 0: not fresh", ch)
check(sorted(f["path"] for f in ch["files"]) == everything, "changes since 0: every header",
      ch["files"])
check(all(f["clock"] <= now and f["kinds"] for f in ch["files"]), "changes since 0: clocks, kinds")
nothing = c.result("changes", {"since": now})
check(nothing == {"clock": now, "fresh_instance": False, "files": []},
      "changes since now: nothing", nothing)

# an edit: since the clock before it, only that file
with open(T + "/include/linux/sample_ioctl.h", "a") as f:
    f.write("/* edited over the test */\n")
st = wait_idle(K, after=now)
check(st is not None, "changes: the edit is processed")
ch = c.result("changes", {"since": now})
check([f["path"] for f in ch["files"]] == ["include/linux/sample_ioctl.h"],
      "changes since the clock before an edit: only the edited file", ch)
check(ch["fresh_instance"] is False and ch["clock"] == st["clock"] and
      all(now < f["clock"] <= ch["clock"] for f in ch["files"]), "changes: clocks after it", ch)
check("/* edited over the test */" in read(S + "/split/include/uapi/linux/sample_ioctl.h"),
      "changes: the edit reached the output")

# clocks the daemon cannot answer from its history: everything, fresh_instance
for since, why in ((ch["clock"] + 1, "after the daemon's clock"),
                   (ch["clock"] + 1000000, "far after it"), (-1, "negative")):
    fr = c.result("changes", {"since": since})
    check(fr["fresh_instance"] is True and sorted(f["path"] for f in fr["files"]) == everything
          and all(f["kinds"] == ["exists"] for f in fr["files"]),
          "changes since a clock %s: fresh_instance, every header" % why, fr)
fr = c.result("changes")
check(fr["fresh_instance"] is True and len(fr["files"]) == len(everything),
      "changes with no since: fresh_instance", fr)
