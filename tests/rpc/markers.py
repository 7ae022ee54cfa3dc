# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "markers" (run by its pycheck, against its daemon).
import os, subprocess
from ud import *
T, S, K, W = os.environ["T"], os.environ["S"], os.environ["K"], os.environ["WORK"]
c = Conn(K)
HDR = "include/linux/sample_arch.h"
check(c.result("markers.list") == {"markers": []}, "markers.list: none at first")
now = c.result("status")["clock"]
added = c.result("markers.add", {"path": HDR, "action": "kernel", "selector": "#ifdef __KERNEL__",
                                 "occurrence": 1, "why": "the legacy branch is kernel-only"})
mid = added.get("id")
check(isinstance(mid, int), "markers.add: an id", added)
m = [x for x in added["markers"] if x["id"] == mid]
check(len(m) == 1 and m[0]["path"] == HDR and m[0]["action"] == "kernel" and
      m[0]["selector"] == "#ifdef __KERNEL__" and m[0]["occurrence"] == 1 and
      m[0]["why"] == "the legacy branch is kernel-only", "markers.add: the marker as stored", added)
check(c.result("markers.list")["markers"] == added["markers"], "markers.list: the marker added")

# the header is split again with it: outcome, counts and outputs change
st = wait_idle(K, after=now)
check(st is not None, "markers.add: a batch follows")
h = c.result("headers", {"prefix": HDR})["headers"]
check([x["outcome"] for x in h] == ["split"], "markers.add: the header is split now", h)
check(st["counts"]["needs_coaching"] == 0 and st["counts"]["split"] == 5 and
      not any(p["what"] == "split" for p in st["problems"]), "markers.add: status follows", st)
ch = c.result("changes", {"since": now})
check([f["path"] for f in ch["files"]] == [HDR], "markers.add: only that header changed", ch)
# the outputs are what the batch command makes with the same marker
with open(W + "/m.markers", "w") as f:
    f.write("%s kernel '#ifdef __KERNEL__' # the legacy branch is kernel-only\n" % HDR)
subprocess.run([os.environ["UAPID"], "split", "--markers", W + "/m.markers", "--output",
                W + "/fresh-m", T], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for out in ("include/linux/sample_arch.h", "include/uapi/linux/sample_arch.h"):
    p = S + "/split/" + out
    check(os.path.exists(p) and read(p) == read(W + "/fresh-m/" + out),
          "markers.add: split/%s as uapid split --markers makes it" % out)
pv = c.result("preview", {"path": HDR})
check(pv["outcome"] == "split" and pv["kernel"] == read(S + "/split/include/linux/sample_arch.h"),
      "markers.add: preview uses the marker", pv)

# removed: back to needs-coaching, the outputs go
now = st["clock"]
rm = c.result("markers.remove", {"id": mid})
check(rm == {"markers": []}, "markers.remove: the list after", rm)
check(c.result("markers.list") == {"markers": []}, "markers.list: empty again")
st = wait_idle(K, after=now)
check(st is not None and st["counts"]["needs_coaching"] == 1, "markers.remove: needs coaching again",
      st and st["counts"])
h = c.result("headers", {"prefix": HDR})["headers"]
check([x["outcome"] for x in h] == ["needs-coaching"], "markers.remove: outcome", h)
check(not os.path.exists(S + "/split/include/linux/sample_arch.h") and
      not os.path.exists(S + "/split/include/uapi/linux/sample_arch.h"),
      "markers.remove: its outputs are gone")
r = c.call("markers.remove", {"id": mid})
check(err(r, -32602, '"id"', "names no marker"), "markers.remove: an id gone", r)

# markers from the examples' syntax: split-compound on the header it is written for
now = st["clock"]
a2 = c.result("markers.add", {"path": "include/linux/sample_compound.h", "action": "split-compound",
                              "selector": "#if defined(__KERNEL__) && defined(CONFIG_SAMPLE_DEBUG)"})
check(a2["markers"][0]["action"] == "split-compound", "markers.add: split-compound", a2)
check(wait_idle(K, after=now) is not None, "markers.add: split-compound processed")
c.result("markers.remove", {"id": a2["id"]})
check(wait_idle(K) is not None and c.result("markers.list") == {"markers": []},
      "markers.remove: split-compound")
