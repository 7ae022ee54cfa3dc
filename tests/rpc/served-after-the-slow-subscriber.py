# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "served after the slow subscriber" (run by its pycheck, against its daemon).
import os
from ud import *
K = os.environ["K"]
c = Conn(K)
check(c.result("status")["ready"] and c.result("markers.list") == {"markers": []},
      "the daemon still serves after dropping a subscriber")
