#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The LSP bridge's API diagnostics against a baseline (issue 39, item 8).

usage: lsp-baseline.py UAPICTL TREE NOGIT_TREE

TREE is a git work tree (tag v1 at its first commit) that a `uapid watch`
serves; NOGIT_TREE another served tree without a repository.  A scripted
editor opens include/uapi/linux/mini.h and removes a member of struct
mini_req, and the checks follow a maintainer's day: the break is flagged
against HEAD while typing and still after the save (the installed header
is the buffer then: against it nothing would be left); a commit moves
HEAD and the diagnostic goes without an edit; a tag set by
workspace/didChangeConfiguration brings it back, "since v1"; an accept
file's line quiets it, and its removal brings it back; `--baseline
installed` is the old comparison; a revision that does not exist, and a
tree without a repository, are said in the log and compared with the
installed header.  Prints "ok - ..." / "not ok - ..."; exits 1 on a failure.
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspwire import Lsp  # noqa: E402

uapictl, tree, nogit = sys.argv[1], sys.argv[2], sys.argv[3]
rel = "include/uapi/linux/mini.h"
path = os.path.join(tree, rel)
uri = "file://" + path
failures = 0
BREAK = "breaking userspace API change"


def check(cond, what, detail=None):
    global failures
    if cond:
        print("ok - " + what)
    else:
        print("not ok - " + what + ("" if detail is None else ": %r" % (detail,)))
        failures += 1


def git(*args):
    subprocess.run(["git", "-C", tree, "-c", "user.email=t@uapid", "-c", "user.name=t"] + list(args),
                   check=True, stdout=subprocess.DEVNULL)


def api_diags(p):
    return [d for d in p["diagnostics"] if d.get("code") == "api"]


def wait_api(lsp, doc_uri, want, timeout=15):
    """The next diagnostics of doc_uri whose API part want(diags) accepts, or None."""
    return lsp.wait_note("textDocument/publishDiagnostics", doc_uri, timeout,
                         lambda p: want(api_diags(p)))


def flagged(since):
    return lambda ds: any(BREAK + " since " + since + ":" in d["message"] and
                          "struct mini_req" in d["message"] for d in ds)


def quiet(ds):
    return not ds


def start(args, options=None):
    lsp = Lsp([uapictl, "lsp"] + args)
    r = lsp.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {},
                                   "initializationOptions": options})
    check("result" in r, "initialize " + " ".join(args))
    lsp.notify("initialized", {})
    return lsp


original = open(path).read()
edited = original.replace("\t__u64 addr;\n", "")
assert edited != original

# --- the default baseline: HEAD --------------------------------------------------------
lsp = start([])
lsp.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "c", "version": 1,
                                                     "text": original}})
p = wait_api(lsp, uri, quiet)
check(p is not None, "the header as HEAD has it: no API diagnostic")
lsp.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                      "contentChanges": [{"text": edited}]})
p = wait_api(lsp, uri, flagged("HEAD"))
check(p is not None, "a member removed while typing: breaking since HEAD")
if p is not None:
    d = api_diags(p)[0]
    check(d["severity"] == 2 and d["range"]["start"]["line"] == 7,
          "a warning on struct mini_req's line (8)", d)

# saved: the daemon installs it, and the buffer is still flagged against HEAD
with open(path, "w") as f:
    f.write(edited)
time.sleep(0.5)  # the daemon's settle time, then its batch
lsp.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
p = wait_api(lsp, uri, flagged("HEAD"))
check(p is not None, "after the save: still breaking since HEAD (not against the saved file)")

# committed: HEAD moves, the diagnostic goes without an edit (the bridge looks every 2 s)
git("commit", "-q", "-am", "drop mini_req.addr")
p = wait_api(lsp, uri, quiet, timeout=20)
check(p is not None, "after the commit: HEAD moved, nothing flagged")

# a release tag as the baseline, set while running
lsp.notify("workspace/didChangeConfiguration", {"settings": {"uapid": {"baseline": "v1"}}})
p = wait_api(lsp, uri, flagged("v1"))
check(p is not None, "baseline v1 (didChangeConfiguration): breaking since v1")

# an accept file's decision quiets it; its removal brings it back
acc = os.path.join(tree, "uapi-accepted")
with open(acc, "w") as f:
    f.write("# decided breaks\nlinux/mini.h struct mini_req member-removed addr was never used\n")
lsp.notify("workspace/didChangeConfiguration", {"settings": {"uapid": {"accept": "uapi-accepted"}}})
p = wait_api(lsp, uri, quiet)
check(p is not None, "accepted in uapi-accepted: not flagged")
os.unlink(acc)
p = wait_api(lsp, uri, flagged("v1"), timeout=20)
check(p is not None, "the accept file removed: flagged again (without an edit)")
with open(acc, "w") as f:  # an edit of the file is seen too
    f.write("linux/mini.h struct mini_req member-removed addr was never used\n")
p = wait_api(lsp, uri, quiet, timeout=20)
check(p is not None, "the accept file written again: quiet again")
with open(acc, "w") as f:  # a line without its reason: said, and nothing accepted
    f.write("linux/mini.h struct mini_req member-removed\n")
log = lsp.wait_note("window/logMessage", None, 20,
                    lambda p: "uapi-accepted:1:" in p["message"] and
                    "no change is taken as accepted" in p["message"])
check(log is not None, "an accept file line without a reason is said in the log")
p = wait_api(lsp, uri, flagged("v1"), timeout=20)
check(p is not None, "and nothing is accepted by it")
os.unlink(acc)

# a revision that does not exist: said in the log, the installed header instead
lsp.notify("workspace/didChangeConfiguration", {"settings": {"baseline": "no-such-tag"}})
log = lsp.wait_note("window/logMessage", None, 10,
                    lambda p: "baseline no-such-tag cannot be read" in p["message"])
check(log is not None, "a bad revision is said in the editor's log")
p = wait_api(lsp, uri, quiet)
check(p is not None, "and the buffer is compared with the installed header (the saved text)")
lsp.notify("workspace/didChangeConfiguration", {"settings": {"baseline": 42}})
msg = lsp.wait_note("window/showMessage", None, 10, lambda p: "must be strings" in p["message"])
check(msg is not None and msg["type"] == 1, "a setting of the wrong type is shown as an error", msg)
check(lsp.close() == 0, "the bridge exits 0 after shutdown and exit")

# --- a tag from the command line; --baseline installed ---------------------------------
for args, want, what in ((["--baseline", "v1"], flagged("v1"), "--baseline v1: breaking since v1"),
                         (["--baseline", "installed"], quiet,
                          "--baseline installed: the saved header is the baseline, nothing flagged")):
    lsp = start(args)
    lsp.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "c",
                                                         "version": 1, "text": edited}})
    check(wait_api(lsp, uri, want) is not None, what)
    lsp.close()

# initializationOptions name the baseline too
lsp = start([], {"baseline": "v1"})
lsp.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "c", "version": 1,
                                                     "text": edited}})
check(wait_api(lsp, uri, flagged("v1")) is not None, "initializationOptions baseline v1")
lsp.close()

# --- a tree without a repository: the installed header, said once ------------------------
npath = os.path.join(nogit, rel)
nuri = "file://" + npath
lsp = start([])
ntext = open(npath).read().replace("\t__u64 addr;\n", "")
lsp.notify("textDocument/didOpen", {"textDocument": {"uri": nuri, "languageId": "c", "version": 1,
                                                     "text": ntext}})
log = lsp.wait_note("window/logMessage", None, 10,
                    lambda p: "baseline HEAD cannot be read" in p["message"] and
                    "not the top of a git repository" in p["message"])
check(log is not None, "no repository: said in the log", log)
p = wait_api(lsp, nuri, lambda ds: any(d["message"].startswith(BREAK + ": struct mini_req")
                                       for d in ds))
check(p is not None, "no repository: the unsaved edit is flagged against the installed header")
lsp.close()

print("%d failed" % failures)
sys.exit(1 if failures else 0)
