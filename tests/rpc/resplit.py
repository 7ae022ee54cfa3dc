# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "resplit" (run by its pycheck, against its daemon).
import os
from ud import *
T, S, K = os.environ["T"], os.environ["S"], os.environ["K"]
c = Conn(K)
everything = sorted(x["path"] for x in c.result("headers")["headers"])
now = c.result("status")["clock"]
r = c.result("resplit", {"paths": ["include/linux/sample_types.h"]})
check(r == {"queued": 1}, "resplit paths: queued", r)
st = wait_idle(K, after=now)
ch = c.result("changes", {"since": now})
check(st is not None and [f["path"] for f in ch["files"]] == ["include/linux/sample_types.h"],
      "resplit paths: that header is done again, alone", ch)
now = st["clock"]
r = c.result("resplit", {"paths": [T + "/include/linux/sample_ioctl.h", "arch/x86/include/asm/sample_regs.h"]})
check(r == {"queued": 2}, "resplit paths: absolute and relative", r)
st = wait_idle(K, after=now)
ch = c.result("changes", {"since": now})
check(st is not None and sorted(f["path"] for f in ch["files"]) ==
      ["arch/x86/include/asm/sample_regs.h", "include/linux/sample_ioctl.h"],
      "resplit paths: both done again", ch)
now = st["clock"]
r = c.result("resplit", {})
check(r == {"queued": "all"}, "resplit {}: all", r)
st = wait_idle(K, after=now)
ch = c.result("changes", {"since": now})
check(st is not None and sorted(f["path"] for f in ch["files"]) == everything,
      "resplit {}: every header done again", ch)
r = c.result("resplit")
check(r == {"queued": "all"}, "resplit without params: all", r)
check(wait_idle(K, after=st["clock"]) is not None, "resplit without params: a batch")
