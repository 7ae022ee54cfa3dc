#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapictl's raw form against a real Unix socket, with a scripted JSON-RPC
# peer that can misbehave in ways the daemon does not (tests/cli/cli-ctl.sh
# runs the commands against the daemon).
. "${top_srcdir:-.}/tests/lib/lib.sh"

expect_status 0 "$UAPICTL" --version
expect_in "$WORK/out" "uapictl 0.1.0"
expect_status 2 "$UAPICTL"
# an unknown command is a usage error, as uapid says it (issue 39): not sent
expect_status 2 "$UAPICTL" --socket "$WORK/none.sock" frob
expect_in "$WORK/err" "unknown command 'frob'"
expect_status 2 "$UAPICTL" status '"not an object"'
expect_in "$WORK/err" "PARAMS must be a JSON object or array"

# nobody listening: a clear error naming the socket, exit 3
expect_status 3 "$UAPICTL" --socket "$WORK/none.sock" status
expect_in "$WORK/err" "cannot connect to $WORK/none.sock"
# a path too long for sun_path is refused, not truncated
long=$WORK/$(printf 'x%.0s' $(seq 1 120)).sock
expect_status 3 "$UAPICTL" --socket "$long" status
expect_in "$WORK/err" "socket path longer than 107 bytes"

# serve N requests on SOCK; answer each by method: ok -> result, fail -> error
serve() {
	python3 - "$1" "$2" <<'PY' &
import json, os, socket, sys
path, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path); s.listen(4)
open(path + ".ready", "w").close()
for _ in range(n):
    c, _ = s.accept()
    f = c.makefile("rwb")
    req = json.loads(f.readline())
    assert req["jsonrpc"] == "2.0"
    if req["method"] == "ok":
        resp = {"jsonrpc": "2.0", "id": req["id"], "result": {"echo": req.get("params")}}
    elif req["method"] == "garbage":
        f.write(b"this is not json\n"); f.flush(); c.close(); continue
    else:
        resp = {"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": "no such method"}}
    f.write((json.dumps(resp) + "\n").encode()); f.flush(); c.close()
PY
	i=0
	while [ ! -e "$1.ready" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
S=$WORK/ctl.sock
serve "$S" 3
expect_status 0 "$UAPICTL" --socket "$S" ok '{"path":"include/linux/a.h"}'
expect_in "$WORK/out" '"path": "include/linux/a.h"'
expect_status 1 "$UAPICTL" --socket "$S" call nosuch
expect_in "$WORK/err" "nosuch: error -32601: no such method"
UAPID_SOCKET=$S expect_status 3 "$UAPICTL" call garbage
expect_in "$WORK/err" "answer is not a JSON-RPC object"
wait

finish
