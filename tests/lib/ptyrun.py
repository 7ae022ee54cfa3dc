#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs a command on a pseudo-terminal, as a person at a terminal would, and
reads what it drew there.

    ptyrun.py run OUT CMD...      run CMD with stdin, stdout and stderr on a
                                  new pty; every byte it wrote goes to OUT;
                                  exits with CMD's exit status
    ptyrun.py progress OUT WHAT   OUT holds progress lines for WHAT, each
                                  drawn as "\\rWHAT: N[/M] UNIT...\\e[K", and
                                  the last one was cleared ("\\r\\e[K") before
                                  anything else was printed and before the end
    ptyrun.py none OUT            OUT holds no progress line at all: no "\\r"
                                  that is not part of a "\\r\\n", no escape
"""
import os
import re
import subprocess
import sys

DRAW = re.compile(rb"\r([^\r\n\x1b]*?): (\d[\d,]*)(?:/(\d[\d,]*))? ([a-z]+)[^\r\n\x1b]*\x1b\[K")
CLEAR = b"\r\x1b[K"


def run(out, argv):
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    data = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer of the pty is gone
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    status = proc.wait()
    with open(out, "wb") as f:
        f.write(data)
    return status if status >= 0 else 128 - status


def progress(path, what):
    data = open(path, "rb").read()
    draws = [m for m in DRAW.finditer(data) if m.group(1) == what.encode()]
    if not draws:
        print(f"no progress line for '{what}' in {path}: {data[:300]!r}")
        return 1
    # each draw is followed, before any other text, by another draw or a clear
    for m in draws:
        rest = data[m.end():]
        if not (rest.startswith(CLEAR) or DRAW.match(rest)):
            print(f"'{what}' progress at byte {m.start()} not cleared before: {rest[:80]!r}")
            return 1
    last = draws[-1]
    done, total = last.group(2), last.group(3)
    print(f"{len(draws)} progress lines for '{what}', the last {done.decode()}"
          f"{'/' + total.decode() if total else ''} {last.group(4).decode()}, cleared")
    return 0


def none(path):
    data = open(path, "rb").read()
    bare_cr = re.search(rb"\r(?!\n)", data)
    if bare_cr or b"\x1b" in data:
        at = bare_cr.start() if bare_cr else data.index(b"\x1b")
        print(f"{path} has terminal control at byte {at}: {data[max(0, at - 40):at + 60]!r}")
        return 1
    print(f"no progress in {path} ({len(data)} bytes)")
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        return run(sys.argv[2], sys.argv[3:])
    if len(sys.argv) == 4 and sys.argv[1] == "progress":
        return progress(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 3 and sys.argv[1] == "none":
        return none(sys.argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
