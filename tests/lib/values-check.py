#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uapid's integer constants against a C compiler's, by static assertions.

    values-check.py VALUES.json INCLUDE-DIR CC [CFLAGS...]

VALUES.json is `uapid api-layout --values --json --abi ABI` of INCLUDE-DIR's
headers.  Each constant without a condition is asserted, in a file that
includes its header, to have the value uapid gives (as unsigned long long
when uapid says it is unsigned, else as long long); the file is compiled
with CC -fsyntax-only -nostdinc -isystem INCLUDE-DIR and the compiler's own
include directory.  A constant the compiler cannot evaluate there (a
string, a type, a macro that needs arguments) is not uapid's to answer and
is left out by a first pass that asks only whether it is an integer
constant expression.  Prints each wrong value and a count; exit 0 when
none is wrong, 1 otherwise.
"""
import json
import re
import subprocess
import sys
import tempfile


def compile_errors(cc, flags, inc, text):
    with tempfile.NamedTemporaryFile("w", suffix=".c") as f:
        f.write(text)
        f.flush()
        sysinc = subprocess.run([cc] + flags + ["-print-file-name=include"],
                                capture_output=True, text=True).stdout.strip()
        p = subprocess.run([cc] + flags + ["-fsyntax-only", "-nostdinc", "-isystem", inc,
                                           "-isystem", sysinc, "-w", f.name],
                           capture_output=True, text=True)
        return {int(m.group(1)) for m in re.finditer(r":(\d+):\d+: error", p.stderr)}


def main():
    doc = json.load(open(sys.argv[1]))
    inc, cc, flags = sys.argv[2], sys.argv[3], sys.argv[4:]
    consts = [c for c in doc["constants"] if c["cond"] == ""]
    headers = sorted({c["header"] for c in consts})
    head = "".join(f"#include <{h}>\n" for h in headers)
    nhead = head.count("\n")
    # pass 1: which names are integer constant expressions here
    probe = head + "".join(f"enum {{ ud_ice_{i} = ((long long)({c['name']}) != 0) }};\n"
                           for i, c in enumerate(consts))
    bad = compile_errors(cc, flags, inc, probe)
    ok = [c for i, c in enumerate(consts) if nhead + i + 1 not in bad]
    # pass 2: their values
    def want(c):
        if c["unsigned"]:
            return f"(unsigned long long)({c['name']}) == {c['value']}ull"
        if c["value"] == str(-2**63):
            return f"(long long)({c['name']}) == -9223372036854775807ll - 1"
        return f"(long long)({c['name']}) == {c['value']}ll"
    check = head + "".join(f"_Static_assert({want(c)}, \"{c['name']}\");\n" for c in ok)
    wrong = sorted(compile_errors(cc, flags, inc, check))
    for line in wrong:
        c = ok[line - nhead - 1]
        print(f"{doc['abi']}: {c['header']}:{c['line']}: {c['name']}: uapid says {c['value']}")
    print(f"{doc['abi']}: {len(ok)} constants checked ({len(consts) - len(ok)} not integer "
          f"constant expressions), {len(wrong)} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
