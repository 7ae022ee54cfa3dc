# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "107-byte socket path" (run by its pycheck, against its daemon).
import sys
from ud import *
check(status(sys.argv[1])["socket"] == sys.argv[1], "a socket path of 107 bytes is served")
