# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "stale socket replaced" (run by its pycheck, against its daemon).
import sys
from ud import *
check(status(sys.argv[1])["socket"] == sys.argv[1], "a stale socket is replaced and served")
