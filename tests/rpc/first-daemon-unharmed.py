# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "first daemon unharmed" (run by its pycheck, against its daemon).
import sys
from ud import *
check(status(sys.argv[1])["ready"], "the first daemon still serves after the second was refused")
