# SPDX-License-Identifier: GPL-2.0-or-later
# A client of tests/cli/cli-rpc.sh that runs as another user: only prints what happened.
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
