#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A scripted LSP client for `uapictl lsp`, over pipes, as an editor drives it.

usage: lsp-client.py UAPICTL TREE [NO_DAEMON_DIR]

TREE is a copy of examples/tree that a `uapid watch` serves.  The script
opens include/linux/sample_arch.h (a header that needs coaching) and checks
the diagnostics, the regions (with their labels, on include/linux/sample_ioctl.h),
hover, semantic tokens, code actions, adding
a coaching marker through one and the preview; then a didChange that fixes
the blocker; then shutdown and exit.  With NO_DAEMON_DIR, it also opens a
header there (no daemon serves it) and checks that the bridge stays silent
and answers at once.  Exits non-zero, naming the check, on any failure.
"""
import json
import os
import subprocess
import sys
import time

uapictl, tree = sys.argv[1], sys.argv[2]
no_daemon = sys.argv[3] if len(sys.argv) > 3 else None
failures = 0


def check(cond, what):
    global failures
    if cond:
        print("ok - " + what)
    else:
        print("not ok - " + what)
        failures += 1


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspwire import Lsp  # noqa: E402

lsp = Lsp([uapictl, "lsp"])
proc, pending = lsp.proc, lsp.pending  # pending: messages read while waiting for others
send, read_one, request = lsp.send, lsp.read_one, lsp.request


def wait_note(method, uri, timeout=10, pred=None):
    """The next notification `method` about uri (and matching pred)."""
    return lsp.wait_note(method, uri, timeout, pred)


def drain(method, uri):
    pending[:] = [m for m in pending if not (m.get("method") == method and
                  (m.get("params", {}).get("uri") == uri or
                   m.get("params", {}).get("textDocument", {}).get("uri") == uri))]


path = os.path.join(tree, "include/linux/sample_arch.h")
uri = "file://" + path
text = open(path).read()
lines = text.split("\n")

r = request("initialize", {"processId": os.getpid(), "rootUri": "file://" + tree,
                           "capabilities": {"textDocument": {"inactiveRegionsCapabilities":
                                                              {"inactiveRegions": True}}}})
caps = r["result"]["capabilities"]
check(caps["hoverProvider"] and caps["codeActionProvider"], "initialize: hover and code actions")
check("uapid.addMarker" in caps["executeCommandProvider"]["commands"], "initialize: commands")
legend = caps["semanticTokensProvider"]["legend"]
check(legend["tokenTypes"][0] == "comment", "initialize: semantic token legend")
send({"method": "initialized", "params": {}})

send({"method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "c", "version": 1, "text": text}}})
d = wait_note("textDocument/publishDiagnostics", uri)
check(d is not None, "didOpen: diagnostics published")
errs = [x for x in d["diagnostics"] if x["severity"] == 1] if d else []
check(len(errs) == 1 and "#elif" in errs[0]["message"] and errs[0]["range"]["start"]["line"] == 4,
      "didOpen: the #elif blocker is an error on line 5")
check(all(x["source"] == "uapid" for x in d["diagnostics"]) if d else False, "source is uapid")
reg = wait_note("uapid/regions", uri)
check(reg is not None and reg["outcome"] == "needs-coaching", "uapid/regions with the outcome")
kinds = {(x["range"]["start"]["line"], x["class"]) for x in reg["regions"]} if reg else set()
check((4, "kernel") in kinds and (5, "user-only") in kinds, "regions: kernel-only and user-only lines")
ina = wait_note("textDocument/inactiveRegions", uri)
check(ina is not None and any(x["start"]["line"] == 4 for x in ina["regions"]),
      "clangd-style inactiveRegions for the kernel-only line")

h = request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 0}})
check("kernel" in h["result"]["contents"]["value"], "hover on line 5 tells its class")
h = request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
check("guard" in h["result"]["contents"]["value"], "hover on line 1: the include guard")

t = request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
data = t["result"]["data"]
check(len(data) % 5 == 0 and len(data) > 0, "semantic tokens present")
toks, line = [], 0
for i in range(0, len(data), 5):
    line += data[i]
    toks.append((line, data[i + 2], data[i + 3], data[i + 4]))
check((4, len(lines[4]), 0, 1) in toks, "semantic token: line 5 is a kernel-only comment")

a = request("textDocument/codeAction", {"textDocument": {"uri": uri},
                                        "range": {"start": {"line": 4, "character": 0},
                                                  "end": {"line": 4, "character": 0}},
                                        "context": {"diagnostics": []}})
titles = [x["title"] for x in a["result"]]
check(any("#ifdef __KERNEL__" in x and "kernel header" in x for x in titles),
      "code action: coach the conditional under the cursor")
check(any(x["command"]["command"] == "uapid.preview" for x in a["result"]), "code action: preview")

p = request("workspace/executeCommand", {"command": "uapid.preview", "arguments": [{"uri": uri, "path": path}]})
check(p["result"]["outcome"] == "needs-coaching" and p["result"]["path"] == "include/linux/sample_arch.h",
      "preview through the bridge")

# the group's "kernel" marker: the whole conditional goes to the kernel header
act = [x for x in a["result"] if x["command"]["arguments"][0].get("action") == "kernel"][0]
drain("textDocument/publishDiagnostics", uri)
drain("uapid/regions", uri)
r = request("workspace/executeCommand", act["command"])
check("result" in r and r["result"]["id"] > 0, "marker added through a code action")
d = wait_note("textDocument/publishDiagnostics", uri)
check(d is not None and not [x for x in d["diagnostics"] if x["severity"] == 1],
      "after the marker, no blocker is left")
reg = wait_note("uapid/regions", uri)
check(reg is not None and reg["outcome"] == "split", "after the marker, the header splits")
mk = subprocess.run([uapictl, "--tree", tree, "--json", "marker", "list"], capture_output=True, text=True)
check(mk.returncode == 0 and '"kernel"' in mk.stdout, "the marker is in the daemon's store")
# remove it again so the edit below is judged on its own
mid = json.loads(mk.stdout)["markers"][0]["id"]
subprocess.run([uapictl, "--tree", tree, "marker", "rm", str(mid)], check=True, capture_output=True)

# an unsaved edit: a kernel-only line, and the #elif as a nested conditional; debounced
fixed = text.replace("#elif defined(SAMPLE_LEGACY)\n#define SAMPLE_OLD 1\n#endif",
                     "#define SAMPLE_NEW 1\n#else\n#if defined(SAMPLE_LEGACY)\n"
                     "#define SAMPLE_OLD 1\n#endif\n#endif")
check(fixed != text, "the fixture has the #elif the edit removes")
drain("textDocument/publishDiagnostics", uri)
drain("uapid/regions", uri)
for v in (2, 3):  # two quick changes: only the last counts
    send({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": v},
        "contentChanges": [{"text": fixed if v == 3 else text + "\n"}]}})
d = wait_note("textDocument/publishDiagnostics", uri, pred=lambda p: p.get("version") == 3)
check(d is not None and not [x for x in d["diagnostics"] if x["severity"] == 1],
      "didChange: the fixed buffer has no blocker (classified from the editor's text)")
reg = wait_note("uapid/regions", uri, pred=lambda p: p["textDocument"]["version"] == 3)
check(reg is not None and reg["outcome"] == "split" and
      {x["range"]["start"]["line"] for x in reg["regions"] if x["class"] == "kernel"} == {4, 5},
      "didChange: the edited buffer splits, lines 5-6 kernel-only")
check(open(path).read() == text, "the file on disk is untouched by unsaved edits")

# issue 38 F: positions out of LSP's range are invalid params, never an overflow of line + 1
for where, line, params in (("hover", 2**63 - 1, {"textDocument": {"uri": uri},
                                 "position": {"line": 2**63 - 1, "character": 0}}),
                      ("hover", -1, {"textDocument": {"uri": uri},
                                 "position": {"line": -1, "character": 0}}),
                      ("codeAction", 2**63 - 1, {"textDocument": {"uri": uri},
                                      "range": {"start": {"line": 2**63 - 1, "character": 0},
                                                "end": {"line": 2**63 - 1, "character": 0}},
                                      "context": {"diagnostics": []}})):
    r = request("textDocument/" + where, params)
    check(r.get("error", {}).get("code") == -32602,
          "%s at line %d: invalid params" % (where, line))
# a change older than the text held (version 2 after 3) is not published, nor its text used
drain("textDocument/publishDiagnostics", uri)
send({"method": "textDocument/didChange", "params": {
    "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}})
send({"method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}})
d = wait_note("textDocument/publishDiagnostics", uri)
check(d is not None and d.get("version") == 3 and not [x for x in d["diagnostics"] if x["severity"] == 1],
      "a late older version is not published: version 3 stays (got %r)" % (d and d.get("version")))
late = wait_note("textDocument/publishDiagnostics", uri, timeout=0.5)
check(late is None or late.get("version") == 3, "no version 2 published after version 3")

if no_daemon:
    other = os.path.join(no_daemon, "include/linux/lonely.h")
    ouri = "file://" + other
    t0 = time.monotonic()
    send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": ouri, "languageId": "c", "version": 1, "text": "#ifdef __KERNEL__\n#endif\n"}}})
    h = request("textDocument/hover", {"textDocument": {"uri": ouri}, "position": {"line": 0, "character": 0}})
    check(h["result"] is None and time.monotonic() - t0 < 1.0, "no daemon: hover answers at once, empty")
    check(wait_note("textDocument/publishDiagnostics", ouri, timeout=1.0) is None,
          "no daemon: no diagnostics")

# labels: what a reader sees each region as.  In sample_ioctl.h the `#ifdef __KERNEL__`
# (with an #else) opens kernel-only code, though the split writes it into the uapi
# header as #ifndef: "kernel only", never "userspace only"; the #else branch is
# userspace-only; the #else and #endif the split rewrites have no label.
ipath = os.path.join(tree, "include/linux/sample_ioctl.h")
if os.path.exists(ipath):
    iuri = "file://" + ipath
    itext = open(ipath).read()
    ilines = itext.split("\n")
    at = lambda p: next(i for i, l in enumerate(ilines) if l.startswith(p))
    send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": iuri, "languageId": "c", "version": 1, "text": itext}}})
    reg = wait_note("uapid/regions", iuri)
    labels = {x["range"]["start"]["line"]: x["label"] for x in reg["regions"]} if reg else {}
    check(labels.get(at("#ifdef __KERNEL__")) == "kernel only",
          "the #ifdef __KERNEL__ line is labelled kernel only: %r" % labels)
    check(labels.get(at("#include <stdint.h>")) == "userspace only",
          "the #else branch is labelled userspace only: %r" % labels)
    check(labels.get(at("#endif /* __KERNEL__ */")) == "" and labels.get(at("#else")) == "",
          "the #else and #endif the split rewrites have no label: %r" % labels)
    check(all(x["label"] == "" for x in reg["regions"] if x["class"] == "kernel") if reg else False,
          "kernel-only regions have no label (they are dimmed)")
    h = request("textDocument/hover", {"textDocument": {"uri": iuri},
                                       "position": {"line": at("#ifdef __KERNEL__"), "character": 1}})
    v = h["result"]["contents"]["value"] if h.get("result") else ""
    check("directive the split rewrites" in v and "opens kernel-only code" in v and
          "#ifndef __KERNEL__" in v, "hover on #ifdef __KERNEL__ says what the split does: %r" % v)
    h = request("textDocument/hover", {"textDocument": {"uri": iuri},
                                       "position": {"line": at("#endif /* __KERNEL__ */"), "character": 1}})
    v = h["result"]["contents"]["value"] if h.get("result") else ""
    check("directive the split rewrites" in v and "opens" not in v,
          "hover on its #endif: a directive, opening nothing: %r" % v)
    send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": iuri}}})

# a uapi header: a changed value in the buffer is a breaking userspace API change, on its line
upath = os.path.join(tree, "include/uapi/linux/mini.h")
if os.path.exists(upath):
    uuri = "file://" + upath
    utext = open(upath).read()
    edited = utext.replace("#define MINI_PLAIN_API 1", "#define MINI_PLAIN_API 2")
    check(edited != utext, "the fixture has MINI_PLAIN_API")
    send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uuri, "languageId": "c", "version": 1, "text": edited}}})
    d = wait_note("textDocument/publishDiagnostics", uuri)
    api = [x for x in d["diagnostics"] if x.get("code") == "api"] if d else []
    want = utext.split("\n").index("#define MINI_PLAIN_API 1")
    check(len(api) == 1 and "breaking userspace API change" in api[0]["message"] and
          "MINI_PLAIN_API" in api[0]["message"] and api[0]["range"]["start"]["line"] == want and
          # the axis it is on (issue 40): a value a built program holds
          "[binary: breaking, source: ok]" in api[0]["message"],
          "a breaking API change is a diagnostic on its line: %r" % (api,))
    send({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uuri, "version": 2}, "contentChanges": [{"text": utext}]}})
    d = wait_note("textDocument/publishDiagnostics", uuri, pred=lambda p: p.get("version") == 2)
    check(d is not None and not [x for x in d["diagnostics"] if x.get("code") == "api"],
          "back to the installed text: no API diagnostic")
    send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uuri}}})

send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
d = wait_note("textDocument/publishDiagnostics", uri, pred=lambda p: p["diagnostics"] == [])
check(d is not None, "didClose clears the diagnostics")
r = request("shutdown", None)
check("result" in r and r["result"] is None, "shutdown")
# after shutdown only exit: requests are invalid (LSP: InvalidRequest)
r = request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
check(r.get("error", {}).get("code") == -32600, "hover after shutdown: InvalidRequest")
r = request("initialize", {"processId": os.getpid(), "rootUri": "file://" + tree, "capabilities": {}})
check(r.get("error", {}).get("code") == -32600, "initialize after shutdown: InvalidRequest")
send({"method": "exit"})
try:
    rc = proc.wait(timeout=5)
except subprocess.TimeoutExpired:
    proc.kill()
    rc = -1
check(rc == 0, "exit after shutdown: status 0")
print("%d failed" % failures)
sys.exit(1 if failures else 0)
