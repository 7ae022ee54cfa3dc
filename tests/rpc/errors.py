# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "errors" (run by its pycheck, against its daemon).
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
