# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "socket path watched" (issue 38 D): the daemon at argv[1] is
# asked over a connection made before its socket's path changes; status's problems say what
# happened to the path (removed, another socket there, a directory there), and clear once the
# path is ours again... which it never is after removal, so only the first three are asked.
import os
import socket
import sys
from ud import *

path = sys.argv[1]
c = Conn(path)


def socket_problem():
    for p in c.result("status")["problems"]:
        if p["what"] == "socket":
            return p["reason"]
    return None


check(socket_problem() is None, "no socket problem while the path is the daemon's")
saved = path + ".saved"
os.rename(path, saved)  # kept: moved back at the end
why = socket_problem()
check(why is not None and "it was removed" in why and path in why,
      "status names the removed socket path", why)
other = socket.socket(socket.AF_UNIX)
other.bind(path)
why = socket_problem()
check(why is not None and "another socket is there" in why, "status names another socket there", why)
other.close()
os.unlink(path)
os.mkdir(path)
why = socket_problem()
check(why is not None and "a directory is there" in why, "status names a directory there", why)
os.rmdir(path)
os.rename(saved, path)
check(socket_problem() is None, "no socket problem once the path names the daemon's socket again")
c.close()
