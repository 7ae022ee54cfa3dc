#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""storecheck.py TREE STATE: does STATE/state.db say what TREE and STATE hold?

- every header below include/ and arch/*/include/ of TREE has a row whose
  blob is the git blob id of its content, and no other row is there (a
  file not named *.h has a row only when it is there and exported: its
  directory's Kbuild names it, which the split/ comparison checks);
- the outputs table names exactly the files below STATE/split and
  STATE/install, each with the blob of its content;
- every installed row that did not fail has its file below
  STATE/install/include, with that blob.
Prints each difference; exit status 1 when there is one.
"""
import hashlib
import os
import sqlite3
import sys


def blob(path):
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def files_below(top, rel=""):
    out = {}
    base = os.path.join(top, rel) if rel else top
    if not os.path.isdir(base):
        return out
    for d, dirs, names in os.walk(base):
        dirs[:] = [x for x in dirs if not os.path.islink(os.path.join(d, x))]
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p) and not os.path.islink(p):
                out[os.path.relpath(p, top)] = p
    return out


def main():
    tree, state = sys.argv[1], sys.argv[2]
    problems = []
    db = sqlite3.connect("file:%s/state.db?mode=ro" % state, uri=True)
    rows = dict(db.execute("SELECT path, blob FROM headers"))
    exported = set(r for (r,) in db.execute("SELECT path FROM headers WHERE exported"))
    tree_files = dict(files_below(tree, "include"))
    arch = os.path.join(tree, "arch")
    if os.path.isdir(arch):
        for a in os.listdir(arch):
            tree_files.update(files_below(tree, os.path.join("arch", a, "include")))
    headers = {}
    for rel, p in tree_files.items():
        if rel.endswith(".h") or rel in exported:
            headers[rel] = p
    for rel, p in sorted(headers.items()):
        if rel not in rows:
            problems.append("no row for header %s" % rel)
        elif rows[rel] != blob(p):
            problems.append("row of %s has blob %s, the file %s" % (rel, rows[rel], blob(p)))
    for rel in sorted(set(rows) - set(headers)):
        problems.append("row for %s, which is not in the tree" % rel)
    outputs = dict(db.execute("SELECT path, blob FROM outputs"))
    files = {}
    files.update(files_below(state, "split"))
    files.update(files_below(state, "install"))
    for rel, p in sorted(files.items()):
        if rel not in outputs:
            problems.append("output file %s is not in the outputs table" % rel)
        elif outputs[rel] != blob(p):
            problems.append("output %s: table says %s, file has %s" % (rel, outputs[rel], blob(p)))
    for rel in sorted(set(outputs) - set(files)):
        problems.append("outputs table names %s, which is not there" % rel)
    for dst, b in db.execute("SELECT dst, blob FROM installed WHERE blob IS NOT NULL"):
        p = os.path.join(state, "install", "include", dst)
        if not os.path.isfile(p):
            problems.append("installed %s has no file" % dst)
        elif blob(p) != b:
            problems.append("installed %s: table says %s, file has %s" % (dst, b, blob(p)))
    for p in problems[:40]:
        print("storecheck: " + p)
    if len(problems) > 40:
        print("storecheck: ... and %d more" % (len(problems) - 40))
    sys.exit(1 if problems else 0)


main()
