#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid watch's JSON-RPC 2.0 socket, spoken to directly (python3's socket and
# json, not uapictl): every method with its results checked against the tree
# and the outputs on disk, every error code, batches and notifications, and
# the socket's careful-daemon rules for real: the 8 MiB request limit, a
# refused peer (SO_PEERCRED) and a --socket-group member, a subscriber that
# does not read, 200 clients at once, socket activation, a stale socket, a
# second daemon on the same path and a socket path too long for sun_path.
#
# UD_VERBOSE=1 lists every check of the python sections.
. "${top_srcdir:-.}/tests/lib.sh"

export UAPID_ARCH=
# the discovery symlink (publish_socket) goes here, not into /tmp/uapid-UID
XDG_RUNTIME_DIR=$WORK/xdg
export XDG_RUNTIME_DIR
mkdir -p "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
export T S K WORK
PY=python3
export PYTHONPATH="$WORK${PYTHONPATH:+:$PYTHONPATH}"

# --- every daemon started here is stopped at the end, whatever happens --------------
PIDS=
cleanup() {
	rc=$?
	for p in $PIDS; do kill -TERM "$p" 2>/dev/null || true; done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$WORK"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
forget_pid() {
	keep=
	for p in $PIDS; do [ "$p" = "$1" ] || keep="$keep $p"; done
	PIDS=$keep
}

# tally the PASS / FAIL lines a python section printed
tally() {
	while IFS= read -r line; do
		case $line in
		"PASS "*)
			pass
			[ "${UD_VERBOSE:-0}" = 0 ] || echo "ok: ${line#PASS }" >&2
			;;
		"FAIL "*) fail "${line#FAIL }" ;;
		*) echo "  $line" >&2 ;;
		esac
	done <"$1"
}
# pycheck NAME [ARGS...] <<'PY' ... PY: a python section; a crash is a failure too
pycheck() {
	name=$1
	shift
	set +e
	# under valgrind (test.sh's UAPID_DAEMON_WRAP) the daemon runs tens of times slower
	timeout "$([ -n "${UAPID_DAEMON_WRAP:-}" ] && echo 900 || echo 120)" $PY - "$@" >"$WORK/py.out" 2>"$WORK/py.err"
	code=$?
	set -e
	tally "$WORK/py.out"
	if [ "$code" != 0 ]; then
		fail "$name: python section exited $code"
		tail -25 "$WORK/py.err" | sed 's/^/  | /' >&2
	fi
}

# --- the client library ----------------------------------------------------------------
cat >"$WORK/ud.py" <<'PY'
"""A small JSON-RPC 2.0 client for uapid's socket, and check helpers."""
import hashlib
import json
import os
import socket
import sys
import time


def check(cond, what, detail=None):
    if cond:
        print("PASS", what)
    else:
        print("FAIL", what + ("" if detail is None else ": " + repr(detail)[:1500]))
    sys.stdout.flush()
    return bool(cond)


class Closed(Exception):
    pass


class Conn:
    def __init__(self, path, timeout=10.0):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.timeout = timeout
        self.buf = b""
        self.notes = []
        self.n = 0

    def close(self):
        self.s.close()

    def raw(self, data):
        self.s.sendall(data)

    def send(self, obj):
        self.raw((json.dumps(obj) + "\n").encode())

    def line(self, timeout=None):
        """The next line, parsed; None at EOF (or reset). socket.timeout when nothing comes."""
        self.s.settimeout(self.timeout if timeout is None else timeout)
        while b"\n" not in self.buf:
            try:
                d = self.s.recv(1 << 16)
            except (ConnectionResetError, BrokenPipeError):
                d = b""
            if not d:
                return None
            self.buf += d
        one, self.buf = self.buf.split(b"\n", 1)
        return json.loads(one)

    def reply(self, timeout=None):
        """The next reply; notifications that come first are kept in self.notes."""
        while True:
            m = self.line(timeout)
            if m is None:
                raise Closed("the daemon closed the connection")
            if isinstance(m, dict) and "id" not in m and "method" in m:
                self.notes.append(m)
                continue
            return m

    def call(self, method, params=None):
        self.n += 1
        req = {"jsonrpc": "2.0", "id": self.n, "method": method}
        if params is not None:
            req["params"] = params
        self.send(req)
        r = self.reply()
        if not isinstance(r, dict) or r.get("id") != self.n:
            raise AssertionError("reply to %s #%d: %r" % (method, self.n, r))
        return r

    def result(self, method, params=None):
        r = self.call(method, params)
        if "result" not in r:
            raise AssertionError("%s %r: %r" % (method, params, r))
        return r["result"]

    def quiet(self, secs):
        """True when nothing at all arrives for secs."""
        try:
            m = self.line(secs)
        except socket.timeout:
            return True
        if m is not None:
            self.notes.append(m)
        return False

    def wait_note(self, method, timeout=10.0):
        """The next notification named method (ones already kept first)."""
        end = time.time() + timeout
        while True:
            for i, m in enumerate(self.notes):
                if m.get("method") == method:
                    return self.notes.pop(i)
            left = end - time.time()
            if left <= 0:
                return None
            try:
                m = self.line(left)
            except socket.timeout:
                return None
            if m is None:
                return None
            self.notes.append(m)


def status(path, timeout=30.0):
    c = Conn(path, timeout)
    try:
        return c.result("status")
    finally:
        c.close()


def wait_idle(path, after=None, timeout=30.0):
    """Status once the daemon is ready, no batch runs or waits, the clock is still
    for a moment (and past after, when given).  None on a timeout."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            st = status(path)
        except (OSError, Closed, AssertionError, ValueError):
            time.sleep(0.1)
            last = None
            continue
        quiet = st["ready"] and not st["busy"] and (after is None or st["clock"] > after)
        if quiet and last == st["clock"]:
            return st
        last = st["clock"] if quiet else None
        time.sleep(0.15)
    return None


def wait_clients(path, n, timeout=10.0):
    """Status once the daemon counts n clients (the asking one included)."""
    end = time.time() + timeout
    while True:
        st = status(path)
        if st["clients"]["connected"] == n or time.time() > end:
            return st
        time.sleep(0.1)


def err(reply, code, *needles):
    """The reply is an error with code whose message holds every needle."""
    e = reply.get("error") if isinstance(reply, dict) else None
    return (e is not None and "result" not in reply and e.get("code") == code and
            all(n in e.get("message", "") for n in needles))


def blob(path):
    data = open(path, "rb").read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def read(path):
    with open(path) as f:
        return f.read()


def req(method, id=1, params=None, **extra):
    r = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        r["id"] = id
    if params is not None:
        r["params"] = params
    r.update(extra)
    return r


if __name__ == "__main__" and sys.argv[1] == "wait-ready":
    # wait-ready SOCK PID SECONDS: exit 0 once ready and idle, 1 when the pid died or time ran out
    sock, pid, secs = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    end = time.time() + secs
    while time.time() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit(1)
        if wait_idle(sock, timeout=1.0) is not None:
            sys.exit(0)
    sys.exit(1)
PY

# A client that runs as another user: only prints what happened.
cat >"$WORK/peer.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("CONNECT-DENIED", e.errno)
    sys.exit(0)
data = b""
try:
    s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n')
    while b"\n" not in data:
        d = s.recv(65536)
        if not d:
            break
        data += d
except OSError as e:
    print("IO-ERROR", e.errno)
if b'"result"' in data:
    print("SERVED")
elif not data:
    print("REFUSED")
else:
    print("OTHER", data[:200])
PY
chmod 644 "$WORK/ud.py" "$WORK/peer.py"

# start_daemon LOG TREE STATE SOCK [OPTIONS...]: in the background until ready; DPID
start_daemon() {
	log=$1 tree=$2 state=$3 sock=$4
	shift 4
	${UAPID_DAEMON_WRAP:-} "$UAPID" watch --state-dir "$state" --socket "$sock" --arch x86 \
		--settle 50 "$@" "$tree" >>"$log" 2>&1 &
	DPID=$!
	PIDS="$PIDS $DPID"
	if $PY "$WORK/ud.py" wait-ready "$sock" "$DPID" 120; then
		pass
	else
		fail "daemon on $sock not ready"
		tail -20 "$log" >&2
		return 1
	fi
}
# stop_daemon PID: SIGTERM, exit 0
stop_daemon() {
	kill -TERM "$1" 2>/dev/null || true
	set +e
	wait "$1"
	code=$?
	set -e
	forget_pid "$1"
	[ "$code" = 0 ] && pass || fail "daemon $1 exit $code after SIGTERM"
}

# --- the fixture: examples/tree, one unexported header more --------------------------
mkdir -p "$T"
cp -R "$top_srcdir/examples/tree/." "$T/"
chmod -R u+w "$T"
printf '#ifndef _LINUX_SAMPLE_PRIVATE_H\n#define _LINUX_SAMPLE_PRIVATE_H\nint sample_private;\n#endif\n' \
	>"$T/include/linux/sample_private.h"
LOG=$WORK/daemon.log
start_daemon "$LOG" "$T" "$S" "$K"
MAIN=$DPID
export MAIN

# === 1. every method, with good params ===================================================
pycheck "status, headers, classify, preview" <<'PY'
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
PY

# the daemon's split is the batch command's
"$UAPID" split --output "$WORK/fresh" "$T" >/dev/null 2>&1 || true
if diff -r "$WORK/fresh" "$S/split" >"$WORK/diff" 2>&1; then pass; else
	fail "state/split differs from uapid split --output"
	head -20 "$WORK/diff" >&2
fi

pycheck "changes" <<'PY'
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
PY

pycheck "markers" <<'PY'
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
PY

pycheck "resplit" <<'PY'
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
PY

pycheck "subscribe, unsubscribe" <<'PY'
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
PY

# === 2. every error code, batches, notifications ===========================================
pycheck "errors" <<'PY'
import json, os
from ud import *
T, S, K = os.environ["T"], os.environ["S"], os.environ["K"]
c = Conn(K)

def send_line(text):
    c.raw(text.encode() + b"\n")
    return c.reply()

# -32700, and the connection stays usable
r = send_line('{"jsonrpc": "2.0", "id": 1, "method": "status"')
check(err(r, -32700, "parse error") and r.get("id") is None, "-32700: truncated JSON", r)
check(c.result("status")["ready"] is True, "-32700: the same connection still serves")
r = send_line("not json at all")
check(err(r, -32700), "-32700: not JSON", r)
r = send_line('{"jsonrpc":"2.0","id":1,"method":"status"}}')
check(err(r, -32700), "-32700: trailing garbage", r)
check(c.result("headers", {"prefix": "arch/"})["headers"][0]["path"].startswith("arch/"),
      "-32700: and again served")
# valid JSON that is no request object is an invalid request, not a parse error
r = send_line("42")
check(err(r, -32600), "a bare JSON scalar (42) is -32600 invalid request, not -32700", r)
check(isinstance(r, dict) and "error" in r, "a bare JSON scalar gets an error reply", r)

# -32600
for line, needle, why in (
        ('{"jsonrpc":"2.0","id":5}', '"method"', "missing method"),
        ('{"jsonrpc":"2.0","id":5,"method":7}', '"method"', "method not a string"),
        ('{"jsonrpc":"1.0","id":5,"method":"status"}', '"jsonrpc"', 'jsonrpc not "2.0"'),
        ('{"id":5,"method":"status"}', '"jsonrpc"', "no jsonrpc"),
        ('{"jsonrpc":2.0,"id":5,"method":"status"}', '"jsonrpc"', "jsonrpc a number"),
        ('{"jsonrpc":"2.0","id":5,"method":"status","params":"x"}', '"params"', "params a string"),
):
    r = send_line(line)
    check(err(r, -32600, needle) and r.get("id") == 5, "-32600: " + why + " (id echoed)", r)
r = send_line('{"jsonrpc":"2.0","id":1.5,"method":"status"}')
check(err(r, -32600, '"id"') and r.get("id") is None, "-32600: a fractional id", r)
r = send_line('{"jsonrpc":"2.0","id":{"a":1},"method":"status"}')
check(err(r, -32600, '"id"') and r.get("id") is None, "-32600: an object id", r)
r = send_line("[]")
check(err(r, -32600, "empty batch") and r.get("id") is None, "-32600: an empty batch []", r)
r = send_line("[1, 2]")
check(isinstance(r, list) and len(r) == 2 and all(err(x, -32600) and x["id"] is None for x in r),
      "-32600: a batch of non-objects, one error each", r)

# -32601
r = c.call("no.such.method")
check(err(r, -32601, "no.such.method"), "-32601: unknown method, named", r)
r = send_line('{"jsonrpc":"2.0","id":"str-id","method":"STATUS"}')
check(err(r, -32601) and r["id"] == "str-id", "-32601: method names are case-sensitive, string id", r)

# -32602, the bad field named
bad = [
    ("headers", {"prefix": 1}, '"prefix"'),
    ("headers", {"outcome": ["split"]}, '"outcome"'),
    ("headers", {"exported": "yes"}, '"exported"'),
    ("classify", {}, '"path" is required'),
    ("classify", {"path": 5}, '"path" must be a string'),
    ("classify", {"path": "/etc/passwd"}, '"path" is not inside the watched tree'),
    ("classify", {"path": T + "x/include/linux/a.h"}, '"path" is not inside the watched tree'),
    ("classify", {"path": "include/../../etc/passwd"}, '"path" must be a plain path'),
    ("classify", {"path": "./include/linux/sample_arch.h"}, '"path" must be a plain path'),
    ("classify", {"path": ""}, '"path" must be a plain path'),
    ("classify", {"path": "include/linux/sample_arch.h", "text": 5}, '"text"'),
    ("preview", {"path": "include//linux/sample_arch.h"}, '"path" must be a plain path'),
    ("preview", {"path": "include/linux/sample_arch.h", "text": ["x"]}, '"text"'),
    ("changes", {"since": "1"}, '"since"'),
    ("changes", {"since": 1.5}, '"since"'),
    ("markers.add", {"action": "kernel", "selector": "#ifdef __KERNEL__"}, '"path" is required'),
    ("markers.add", {"path": "include/linux/sample_arch.h"}, '"action" is required'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": 3}, '"action"'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": 3}, '"selector"'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdef __KERNEL__", "occurrence": 0}, '"occurrence"'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdef __KERNEL__", "occurrence": "1"}, '"occurrence"'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdef __KERNEL__", "why": 1}, '"why"'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "explode"},
     '"action" must be retain, kernel, uapi, include-here, skip or split-compound'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": ""},
     '"action" must be retain, kernel'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel"},
     '"selector" is required'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": ""}, "\"selector\" '': the selector names no directive"),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "x"}, "\"selector\" 'x': the selector's first word is no preprocessor directive"),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdefx __KERNEL__"}, "no preprocessor directive"),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdef __KERNEL__", "why": "two\nlines"}, '"why" must be one line'),
    ("markers.add", {"path": "include/linux/sample_arch.h", "action": "kernel",
                     "selector": "#ifdef __KERNEL__", "occurrence": 10**7}, '"occurrence"'),
    ("markers.remove", {}, '"id"'),
    ("markers.remove", {"id": "1"}, '"id"'),
    ("markers.remove", {"id": 987654}, '"id" 987654 names no marker'),
    ("resplit", {"paths": "include/linux/sample_arch.h"}, '"paths" must be an array'),
    ("resplit", {"paths": ["/etc/passwd"]}, '"paths"[0]'),
    ("resplit", {"paths": [3]}, '"paths"[0]'),
]
for method, params, needle in bad:
    r = c.call(method, params)
    check(err(r, -32602, "invalid params", needle),
          "-32602: %s %s names %s" % (method, json.dumps(params), needle), r)
r = c.call("status", [1, 2])
check(err(r, -32602, "by name"), "-32602: params by position", r)
check(c.result("headers", [])["headers"] != [], "an empty params array stands for no params")
check(c.result("markers.list") == {"markers": []}, "no bad markers.add was stored")

# -32000: the request is fine, the daemon cannot do it
r = c.call("classify", {"path": "include/linux/no_such.h"})
check(err(r, -32000, "no_such.h"), "-32000: classify a file not there", r)
r = c.call("preview", {"path": "include/linux/no_such.h"})
check(err(r, -32000, "no_such.h"), "-32000: preview a file not there", r)

# a rejected resplit queues nothing
now = c.result("status")["clock"]
r = c.call("resplit", {"paths": ["include/linux/sample_types.h", "../outside.h"]})
check(err(r, -32602, '"paths"[1]'), "-32602: resplit names the bad entry", r)
wait_idle(K)
ch = c.result("changes", {"since": now})
check(ch["files"] == [], "a resplit refused with -32602 splits none of its paths", ch["files"])

# batches: replies in order, notifications left out
now = c.result("status")["clock"]
batch = [req("markers.list", "a"), req("status", None), req("nope", "b"), 5,
         req("headers", "c", {"exported": 1}), req("headers", "d", {"prefix": "arch/x86/include/asm/sample_r"}),
         req("nope", None)]
r = send_line(json.dumps(batch))
check(isinstance(r, list) and len(r) == 5, "batch: one reply per request, none for notifications", r)
if isinstance(r, list) and len(r) == 5:
    check(r[0] == {"jsonrpc": "2.0", "id": "a", "result": {"markers": []}}, "batch: a result", r[0])
    check(err(r[1], -32601) and r[1]["id"] == "b", "batch: an unknown method", r[1])
    check(err(r[2], -32600) and r[2]["id"] is None, "batch: an invalid member", r[2])
    check(err(r[3], -32602, '"exported"') and r[3]["id"] == "c", "batch: invalid params", r[3])
    check([h["path"] for h in r[4]["result"]["headers"]] == ["arch/x86/include/asm/sample_regs.h"],
          "batch: the last result", r[4])
r = send_line(json.dumps([req("status", 77)]))
check(isinstance(r, list) and len(r) == 1 and r[0]["id"] == 77 and "result" in r[0],
      "batch of one: an array of one", r)
# the work one line may ask is bounded: 1,000 calls are run, 1,001 are refused whole
r = send_line(json.dumps([req("status", i) for i in range(1000)]))
check(isinstance(r, list) and len(r) == 1000 and [x["id"] for x in r] == list(range(1000)) and
      all("result" in x for x in r), "a batch of 1,000 calls: 1,000 replies in order",
      len(r) if isinstance(r, list) else r)
r = send_line(json.dumps([req("status", i) for i in range(1001)]))
check(err(r, -32600, "a batch of 1001 calls: at most 1000, none was run") and r["id"] is None,
      "-32600: a batch of 1,001 calls is refused whole", r)
r = c.call("markers.list")
check(r["id"] == c.n, "after a refused batch: the next reply is ours", r)

# notifications get no reply, and are still done
c.raw(b'{"jsonrpc":"2.0","method":"status"}\n')
c.raw(b'{"jsonrpc":"2.0","method":"no.such.method"}\n')
c.raw(b'{"jsonrpc":"2.0","method":"headers","params":{"prefix":3}}\n')
c.raw(json.dumps([req("status", None), req("nope", None)]).encode() + b"\n")
c.raw(b'{"jsonrpc":"2.0","method":"resplit","params":{"paths":["include/linux/sample_compound.h"]}}\n')
check(c.quiet(0.5), "notifications (and a batch of them): no reply at all")
r = c.call("markers.list")
check(r["id"] == c.n and r["result"] == {"markers": []}, "after notifications: the next reply is ours")
st = wait_idle(K, after=now)
ch = c.result("changes", {"since": now})
check(st is not None and [f["path"] for f in ch["files"]] == ["include/linux/sample_compound.h"],
      "a resplit sent as a notification is done", ch)
r = send_line('{"jsonrpc":"2.0","id":null,"method":"markers.list"}')
check(r.get("id", "missing") is None and "result" in r, "an id of null is a request", r)

# framing: two requests in one write, one request in pieces, CRLF, blank lines
c.raw(b'{"jsonrpc":"2.0","id":"p1","method":"markers.list"}\n{"jsonrpc":"2.0","id":"p2","method":"markers.list"}\n')
check([c.reply()["id"], c.reply()["id"]] == ["p1", "p2"], "two requests in one write, in order")
import time
for piece in (b'{"jsonrpc":"2.0",', b'"id":"pieces","meth', b'od":"markers.list"}', b"\n"):
    c.raw(piece)
    time.sleep(0.05)
check(c.reply()["id"] == "pieces", "a request in pieces")
c.raw(b'\n\r\n  \n{"jsonrpc":"2.0","id":"crlf","method":"markers.list"}\r\n')
r = c.reply()
check(r.get("id") == "crlf" and "result" in r, "blank lines ignored, CRLF accepted", r)
check(c.quiet(0.3), "blank lines get no reply")
PY

# === 3. the 8 MiB request limit ============================================================
: >"$WORK/mark"
pycheck "8 MiB" <<'PY'
import json, os, socket
from ud import *
K = os.environ["K"]
LIMIT = 8 << 20

def padded(n, id):
    head = b'{"jsonrpc":"2.0","id":%d,"method":"status","params":{"pad":"' % id
    tail = b'"}}'
    return head + b"x" * (n - len(head) - len(tail)) + tail

def over(data):
    """Sends data on a new connection: what came back, and whether it was closed."""
    c = Conn(K, 20)
    try:
        c.raw(data)
    except (BrokenPipeError, ConnectionResetError):
        pass    # closed while we still sent: the reply is already waiting
    first = c.line(20)
    rest = c.line(20) if first is not None else None
    c.close()
    return first, rest

# exactly the limit is a request
c = Conn(K, 20)
c.raw(padded(LIMIT, 1) + b"\n")
r = c.reply(20)
check(r.get("id") == 1 and "result" in r, "a request line of exactly 8 MiB is served", r.get("error"))
check(c.result("markers.list") == {"markers": []}, "and that connection stays usable")
c.close()

first, rest = over(padded(LIMIT + 1, 2) + b"\n")
check(err(first, -32600, "longer than 8388608 bytes", "closed"), "8 MiB + 1: an error", first)
check(rest is None, "8 MiB + 1: then the connection is closed", rest)
# without a newline at all, as soon as the buffer passes the limit
first, rest = over(b"[" + b" " * (9 << 20))
check(err(first, -32600, "longer than 8388608 bytes"), "9 MiB and no newline: an error", first)
check(rest is None, "9 MiB and no newline: closed", rest)
# good requests, then an overlong one, on one connection: the good ones answered first
c = Conn(K, 20)
try:
    c.raw(b'{"jsonrpc":"2.0","id":"before","method":"markers.list"}\n' + padded(LIMIT + 100, 3) + b"\n")
except (BrokenPipeError, ConnectionResetError):
    pass
a, b, z = c.line(20), c.line(20), c.line(20)
check(a.get("id") == "before" and "result" in a and err(b, -32600) and z is None,
      "a request before the overlong one is answered, then the error, then the close", (a, b, z))
c.close()
st = wait_clients(K, 1)
check(st["ready"] and st["clients"]["connected"] == 1, "after: the daemon serves others", st["clients"])
PY
expect_in "$LOG" "is over 8388608 bytes: refused"

# a client that sends and never reads its replies: the daemon stops reading its
# requests while 4 MiB of replies wait (no memory without end), and every one is
# answered once the client reads
pycheck "unread replies" <<'PY'
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
# ASan keeps freed memory in quarantine (and pads every block): its RSS is no measure
bound = (256 << 20) if os.environ.get("ASAN_OPTIONS") else (32 << 20)
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
PY

# a last request without its newline, then the end of input: still answered
pycheck "last line at end of input" <<'PY'
import json, os, socket
from ud import *
K = os.environ["K"]
s = socket.socket(socket.AF_UNIX)
s.connect(K)
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n{"jsonrpc":"2.0","id":2,"method":"markers.list"}')
s.shutdown(socket.SHUT_WR)
s.settimeout(10)
data = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    data += d
lines = [json.loads(l) for l in data.split(b"\n") if l]
check([l.get("id") for l in lines] == [1, 2] and all("result" in l for l in lines),
      "both requests answered, the last one without its newline too", lines)
s.close()
PY

# === 6. 200 clients at once ==================================================================
pycheck "200 clients" <<'PY'
import json, os, select, socket, time
from ud import *
K = os.environ["K"]
N = 200
socks = []
for i in range(N):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(K)
    socks.append(s)
check(len(socks) == N, "200 connections open at once")
for i, s in enumerate(socks):
    s.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"status"}\n' % i)
bufs = {s: b"" for s in socks}
done = {}
end = time.time() + 30
while len(done) < N and time.time() < end:
    ready, _, _ = select.select([s for s in socks if s not in done], [], [], 1.0)
    for s in ready:
        d = s.recv(1 << 16)
        if not d:
            done[s] = None
            continue
        bufs[s] += d
        if b"\n" in bufs[s]:
            done[s] = json.loads(bufs[s].split(b"\n", 1)[0])
good = [i for i, s in enumerate(socks)
        if done.get(s) and done[s].get("id") == i and done[s]["result"]["ready"] is True]
check(len(good) == N, "200 clients: every one answered, with its own id", N - len(good))
st = wait_clients(K, N + 1)
check(st["clients"]["connected"] == N + 1, "status counts 201 clients", st["clients"])
for s in socks:
    s.close()
check(wait_clients(K, 1)["clients"]["connected"] == 1, "closed clients are forgotten")
PY

# === 5. a subscriber that never reads ==========================================================
# 800 headers with long paths: every round of edits makes a notification of ~400 KB.
# Not under valgrind: dozens of whole-tree rounds there take the better part of an hour, and
# the bound it checks is the same code the gcc and ASan runs check.
if [ -n "${UAPID_DAEMON_WRAP:-}" ]; then
	echo "cli-rpc.sh: the slow subscriber is left to the runs without valgrind"
else
pycheck "slow subscriber" <<'PY'
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
PY
expect_in "$LOG" "does not read (over 4194304 bytes waiting): disconnected"
fi
pycheck "served after the slow subscriber" <<'PY'
import os
from ud import *
K = os.environ["K"]
c = Conn(K)
check(c.result("status")["ready"] and c.result("markers.list") == {"markers": []},
      "the daemon still serves after dropping a subscriber")
PY

# === 5b. clients that hang up before their replies ===============================================
# a write to a gone peer fails with EPIPE: a closed client, never SIGPIPE (issue 19)
pycheck "clients that hang up early" <<'PY'
import json, os, socket, time
from ud import *
K = os.environ["K"]
line = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "status"}) + "\n").encode()
for rnd in range(20):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(K)
    s.sendall(line * 2000)
    # reset, not a clean end: the daemon's next write gets EPIPE
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
    s.close()
time.sleep(0.5)
c = Conn(K, 120)  # it may still be writing to the gone clients on a loaded machine
st = c.result("status")
check(st["ready"], "the daemon serves after 20 clients each sent 2,000 requests and hung up")
c.close()
st = wait_clients(K, 1, 120)
check(st["clients"]["connected"] == 1, "the clients that hung up are forgotten", st["clients"])
PY
if kill -0 "$MAIN" 2>/dev/null; then pass "the daemon lives on after clients hung up"; else fail "the daemon died after clients hung up"; fi

# === 4. peers: SO_PEERCRED, --socket-group ======================================================
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	# a python that user nobody can run (pyenv's shims live under /root)
	PYN=
	for p in /usr/bin/python3 /usr/local/bin/python3 "$(command -v python3)"; do
		if [ -x "$p" ] && setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$p" -c '' 2>/dev/null; then
			PYN=$p
			break
		fi
	done
	GRP=
	for g in users staff adm daemon; do
		if getent group "$g" >/dev/null && [ "$g" != "$(id -gn nobody 2>/dev/null)" ]; then GRP=$g; break; fi
	done
	NOGRP=$(id -gn nobody 2>/dev/null || echo nogroup)
	as_nobody() { # GROUP-OPTIONS...: peer.py as nobody, its verdict in $WORK/out
		setpriv --reuid=nobody "$@" -- "$PYN" "$WORK/peer.py" "$SOCKP" >"$WORK/out" 2>&1 || true
	}
	if [ -n "$PYN" ] && [ -n "$GRP" ]; then
		# the main daemon: no group; file permissions opened up to reach SO_PEERCRED
		SOCKP=$K
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "CONNECT-DENIED"
		chmod 666 "$K"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "REFUSED"
		expect_in "$LOG" "socket: refused uid $(id -u nobody) (pid"
		expect_in "$LOG" "not this daemon's user"
		chmod 600 "$K"
		expect_status 0 $PY "$WORK/peer.py" "$K"
		expect_in "$WORK/out" "SERVED"

		# a daemon with --socket-group: mode 0660, that group's members served
		mkdir -p "$WORK/g"
		chmod 755 "$WORK/g"
		SOCKP=$WORK/g/d.sock
		GLOG=$WORK/group.log
		start_daemon "$GLOG" "$T" "$WORK/state-g" "$SOCKP" --socket-group "$GRP"
		GPID=$DPID
		[ "$(stat -c '%a %G' "$SOCKP")" = "660 $GRP" ] && pass ||
			fail "group socket: $(stat -c '%a %G' "$SOCKP"), want 660 $GRP"
		as_nobody --regid="$GRP" --clear-groups
		expect_in "$WORK/out" "SERVED"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "CONNECT-DENIED"
		# a member through its supplementary groups, as usermod -aG makes them
		as_nobody --regid="$NOGRP" --groups="$(getent group "$GRP" | cut -d: -f3)"
		expect_in "$WORK/out" "SERVED"
		chmod 666 "$SOCKP"
		as_nobody --regid="$NOGRP" --clear-groups
		expect_in "$WORK/out" "REFUSED"
		expect_in "$GLOG" "not this daemon's user or group"
		expect_status 0 $PY "$WORK/peer.py" "$SOCKP"
		expect_in "$WORK/out" "SERVED"
		stop_daemon "$GPID"
		expect_no_file "$SOCKP"
	else
		fail "no python3 that user nobody can run, or no group for --socket-group"
	fi
else
	echo "SKIP: the peer checks need root and setpriv" >&2
fi

# the main daemon is done: it stops cleanly and removes its socket
stop_daemon "$MAIN"
expect_no_file "$K"
expect_in "$LOG" "stopped"

# === 7. socket activation ===========================================================================
# and "older than its history": the store's first events are gone (as a pruned history would be)
CUT=$($PY - "$S/state.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
first, last = db.execute("SELECT MIN(clock), MAX(clock) FROM events").fetchone()
cut = first + (last - first) // 2
db.execute("DELETE FROM events WHERE clock <= ?", (cut,))
db.commit()
print(cut)
PY
)
if command -v systemd-socket-activate >/dev/null 2>&1; then
	A=$WORK/act/uapid.sock
	mkdir -p "$WORK/act"
	ALOG=$WORK/act.log
	systemd-socket-activate -l "$A" -E XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
		"$UAPID" watch --state-dir "$S" --arch x86 --settle 50 "$T" >"$ALOG" 2>&1 &
	APID=$!
	PIDS="$PIDS $APID"
	i=0
	while [ ! -S "$A" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	if $PY "$WORK/ud.py" wait-ready "$A" "$APID" 120; then pass; else fail "activated daemon not ready"; fi
	export CUT
	pycheck "socket activation" "$A" <<'PY'
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
PY
	stop_daemon "$APID"
	expect_in "$ALOG" "socket from systemd ($A)"
else
	fail "systemd-socket-activate is not installed"
fi

# === 8. a stale socket, a second daemon, a path too long ==============================================
Z=$WORK/stale.sock
$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$Z"
[ -S "$Z" ] && pass || fail "no stale socket made"
start_daemon "$WORK/stale.log" "$T" "$S" "$Z"
ZPID=$DPID
pycheck "stale socket replaced" "$Z" <<'PY'
import sys
from ud import *
check(status(sys.argv[1])["socket"] == sys.argv[1], "a stale socket is replaced and served")
PY
[ "$(stat -c %a "$Z")" = 600 ] && pass || fail "socket mode $(stat -c %a "$Z"), want 600"
# a second daemon (its own state directory) on the same path
expect_status 2 "$UAPID" watch --state-dir "$WORK/state-2" --socket "$Z" --arch x86 "$T"
expect_in "$WORK/err" "$Z: another daemon answers on this socket"
pycheck "first daemon unharmed" "$Z" <<'PY'
import sys
from ud import *
check(status(sys.argv[1])["ready"], "the first daemon still serves after the second was refused")
PY
stop_daemon "$ZPID"
expect_no_file "$Z"
# something that is not a socket is left alone
printf 'precious\n' >"$WORK/not-a-socket"
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$WORK/not-a-socket" --arch x86 "$T"
expect_in "$WORK/err" "exists and is not a socket"
expect_in "$WORK/not-a-socket" "precious"

# sun_path holds 107 bytes and a NUL: 107 is served, 108 refused
base="$WORK/"
pad=$((107 - ${#base} - 7))
if [ $pad -ge 1 ]; then
	dir=$WORK/$(printf '%*s' "$pad" '' | tr ' ' p)
	P107=$dir/x.sock
	P108=$dir/xy.sock
	[ ${#P107} = 107 ] && [ ${#P108} = 108 ] && pass || fail "path lengths ${#P107} ${#P108}"
	expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$P108" --arch x86 "$T"
	expect_in "$WORK/err" "$P108: socket path longer than 107 bytes"
	expect_no_file "$P108"
	start_daemon "$WORK/p107.log" "$T" "$S" "$P107"
	pycheck "107-byte socket path" "$P107" <<'PY'
import sys
from ud import *
check(status(sys.argv[1])["socket"] == sys.argv[1], "a socket path of 107 bytes is served")
PY
	stop_daemon "$DPID"
else
	echo "SKIP: \$WORK too long for the sun_path boundary" >&2
fi
# far too long: refused just as clearly
LONG=$WORK/$(printf '%*s' 200 '' | tr ' ' q)/d.sock
expect_status 2 "$UAPID" watch --state-dir "$S" --socket "$LONG" --arch x86 "$T"
expect_in "$WORK/err" "socket path longer than 107 bytes"

finish
