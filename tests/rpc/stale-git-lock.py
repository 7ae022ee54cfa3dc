# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cli/cli-rpc.sh, section "stale git lock" (issue 38 F): the daemon at argv[1] serves a tree
# whose .git/index.lock (argv[2]) is made 10 minutes old: status names it with its age in
# problems and in the summary, instead of waiting silently; once it is removed, neither.
import os
import sys
import time
from ud import *

path, lock = sys.argv[1], sys.argv[2]


def git_problem(st):
    return [p["reason"] for p in st["problems"] if p["what"] == "git"]


st = status(path)
check(not git_problem(st), "no git problem without a lock", st["problems"])
open(lock, "w").close()
old = time.time() - 600
os.utime(lock, (old, old))
# a change that waits for git: the scheduler sees the lock before its batch
with open(os.path.join(os.environ["T2"], "include/linux/sample_private.h"), "a") as f:
    f.write("/* touched */\n")
deadline = time.time() + 30
st = status(path)
while not st["watch"]["waiting_for_git"] and time.time() < deadline:
    time.sleep(0.1)
    st = status(path)
why = git_problem(st)
check(len(why) == 1 and lock in why[0] and " s old" in why[0] and "remove it if no git runs" in why[0],
      "status names the stale index.lock and its age", st["problems"])
check("stale git index.lock" in st["summary"], "the summary says it waits for a stale lock", st["summary"])
os.unlink(lock)
st = wait_idle(path, timeout=30)
check(st is not None and not git_problem(st), "no git problem once the lock is gone",
      st and st["problems"])
