# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "status, headers, classify, preview" (run by its pycheck, against its daemon).
import os
from ud import *
T, S, K = os.environ["T"], os.environ["S"], os.environ["K"]
c = Conn(K)

st = c.result("status")
check(st["tree"] == T and st["socket"] == K and st["state_dir"] == S and st["arch"] == "x86",
      "status: tree, socket, state_dir, arch", st)
check(st["ready"] is True and st["busy"] is False, "status: ready and not busy", st)
n = st["counts"]
check((n["headers"], n["exported"], n["split"], n["moved"], n["needs_coaching"], n["skipped"]) ==
      (8, 7, 4, 2, 1, 0), "status: counts by outcome", n)
check(any(p["what"] == "split" and "include/linux/sample_arch.h" in p["reason"]
          for p in st["problems"]), "status: the header that needs coaching is a problem",
      st["problems"])
check(st["clients"]["connected"] >= 1 and st["clients"]["subscribed"] == 0,
      "status: clients", st["clients"])
check("1 need coaching" in st["summary"], "status: summary", st["summary"])
# issue 38: how long the loop's turns held it (figures, not judged here: bench/soak.sh reads them)
lp = st["loop"]
check(lp["turns"] > 0 and lp["max_cpu_ms"] > 0 and lp["max_busy_ms"] > 0 and
      0 <= lp["held_cpu"] <= lp["turns"] and 0 <= lp["held_busy"] <= lp["turns"] and
      c.result("status")["loop"]["turns"] > lp["turns"], "status: the loop's turns counted", lp)

outcomes = {
    "arch/x86/include/asm/sample_arch.h": "split",
    "arch/x86/include/asm/sample_regs.h": "split",
    "include/linux/sample_arch.h": "needs-coaching",
    "include/linux/sample_compound.h": "split",
    "include/linux/sample_forward.h": "moved",
    "include/linux/sample_ioctl.h": "split",
    "include/linux/sample_private.h": "unexported",
    "include/linux/sample_types.h": "moved",
}
h = c.result("headers")
check(h["clock"] == st["clock"], "headers: the clock", h["clock"])
got = {x["path"]: x["outcome"] for x in h["headers"]}
check(got == outcomes, "headers: every header with its outcome", got)
check([x["path"] for x in h["headers"]] == sorted(outcomes), "headers: sorted by path")
check(all(x["blob"] == blob(os.path.join(T, x["path"])) for x in h["headers"]),
      "headers: blob is the git blob id of the file", h["headers"])
check(all(x["exported"] == (x["path"] != "include/linux/sample_private.h") for x in h["headers"]),
      "headers: exported as Kbuild says")

def paths(params):
    return [x["path"] for x in c.result("headers", params)["headers"]]

check(paths({"prefix": "arch/"}) == ["arch/x86/include/asm/sample_arch.h",
                                     "arch/x86/include/asm/sample_regs.h"],
      "headers: prefix arch/", paths({"prefix": "arch/"}))
check(paths({"prefix": "include/linux/sample_a"}) == ["include/linux/sample_arch.h"],
      "headers: prefix inside a name")
check(paths({"prefix": "nowhere/"}) == [], "headers: a prefix nothing has")
check(paths({"outcome": "needs-coaching"}) == ["include/linux/sample_arch.h"],
      "headers: outcome needs-coaching")
check(paths({"outcome": "moved"}) == ["include/linux/sample_forward.h",
                                      "include/linux/sample_types.h"], "headers: outcome moved")
check(paths({"prefix": "arch/", "outcome": "moved"}) == [], "headers: prefix and outcome together")
check(paths({"prefix": "include/", "outcome": "split"}) ==
      ["include/linux/sample_compound.h", "include/linux/sample_ioctl.h"],
      "headers: prefix include/ and outcome split")
check(paths({"exported": False}) == ["include/linux/sample_private.h"], "headers: exported false")
check(len(paths({"exported": True})) == 7, "headers: exported true")
check(paths({"prefix": None, "outcome": None}) == sorted(outcomes), "headers: null filters are none")

# classify: the file on disk, then unsaved text for the same path
cl = c.result("classify", {"path": "include/linux/sample_arch.h"})
classes = [(b["first"], b["last"], b["class"]) for b in cl["blocks"]]
check(cl["path"] == "include/linux/sample_arch.h", "classify: path", cl["path"])
check((4, 4, "user-only") in classes and (6, 6, "user-only") in classes,
      "classify: the file's #else branch is user-only", classes)
check(any(d["line"] == 5 and d["severity"] == "error" and "#elif" in d["message"]
          for d in cl["diagnostics"]), "classify: the file's #elif is an error", cl["diagnostics"])
text = ("#ifndef _X_H\n#define _X_H\nint a;\n#ifdef __KERNEL__\nint k;\n#endif\n#endif\n")
ct = c.result("classify", {"path": "include/linux/sample_arch.h", "text": text})
tclasses = [(b["first"], b["last"], b["class"]) for b in ct["blocks"]]
check(tclasses == [(1, 2, "guard"), (3, 3, "uapi"), (4, 4, "kernel"), (5, 5, "kernel"),
                   (6, 6, "kernel"), (7, 7, "guard")],
      "classify: unsaved text gives its own blocks", tclasses)
check(ct["diagnostics"] == [] and tclasses != classes, "classify: unsaved text, no diagnostics")
check(read(os.path.join(T, "include/linux/sample_arch.h")).find("int k;") < 0,
      "classify: the text given is not written to the tree")
ab = c.result("classify", {"path": T + "/include/linux/sample_arch.h"})
check(ab["path"] == "include/linux/sample_arch.h" and ab["blocks"] == cl["blocks"],
      "classify: an absolute path inside the tree", ab["path"])
nb = c.result("classify", {"path": "include/linux/not_yet.h", "text": "#define NOT_YET 1\n"})
check([b["class"] for b in nb["blocks"]] == ["uapi"], "classify: text for a file not there yet",
      nb["blocks"])

# preview: the texts the split writes, as on disk
pv = c.result("preview", {"path": "include/linux/sample_ioctl.h"})
check(pv["outcome"] == "split" and pv["exported"] is True and
      pv["uapi_path"] == "include/uapi/linux/sample_ioctl.h", "preview: outcome and uapi_path", pv)
check(pv["kernel"] == read(S + "/split/include/linux/sample_ioctl.h"),
      "preview: kernel text is the kernel output")
check(pv["uapi"] == read(S + "/split/include/uapi/linux/sample_ioctl.h"),
      "preview: uapi text is the uapi output")
check(pv["diagnostics"] == [] and pv["installed"] is None, "preview: no diagnostics, no install")
pm = c.result("preview", {"path": "include/linux/sample_types.h"})
check(pm["outcome"] == "moved" and pm["kernel"] is None and
      pm["uapi"] == read(T + "/include/linux/sample_types.h") and
      pm["uapi"] == read(S + "/split/include/uapi/linux/sample_types.h"),
      "preview: a moved header, whole", pm)
pn = c.result("preview", {"path": "include/linux/sample_arch.h"})
check(pn["outcome"] == "needs-coaching" and pn["kernel"] is None and pn["uapi"] is None and
      any("#elif" in d["message"] for d in pn["diagnostics"]), "preview: needs coaching", pn)
pt = c.result("preview", {"path": "include/linux/sample_arch.h", "text": text})
check(pt["outcome"] == "split" and "#include <uapi/linux/sample_arch.h>" in pt["kernel"] and
      "int k;" in pt["kernel"] and "int k;" not in pt["uapi"] and
      "#ifndef _UAPI_X_H" in pt["uapi"] and "int a;" in pt["uapi"],
      "preview: unsaved text is split", pt)
check(not os.path.exists(S + "/split/include/linux/sample_arch.h"),
      "preview: nothing is written for a preview")
