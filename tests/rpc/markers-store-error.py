# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "markers: a store error" (issue 36): the daemon at argv[1] reads its
# markers from argv[2] (its state.db), whose markers table is dropped behind its back: markers.list
# and markers.remove answer a server error with the store's cause, never "no markers".
import sqlite3
import sys
from ud import *

path, db = sys.argv[1], sys.argv[2]
c = Conn(path)
check("result" in c.call("markers.list"), "markers.list answers while the store is whole")
con = sqlite3.connect(db, timeout=30)
con.execute("DROP TABLE markers")
con.commit()
con.close()
r = c.call("markers.list")
check(err(r, -32000, "the store: reading the markers", "markers"),
      "markers.list: the store's error with its cause, not an empty list", r)
r = c.call("markers.remove", {"id": 1})
check(err(r, -32000, "the store: reading the markers"),
      "markers.remove: the store's error, not \"names no marker\"", r)
c.close()
