#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""uapid's ABI table (src/api/abi.c) against the cross compilers installed.

    bench/abi-table.py [--uapid PATH] [ABI...]

For each ABI of `uapid api-layout --abis` (or those named) whose GCC is
installed (Debian's gcc-12-<triple> packages: gcc-12-aarch64-linux-gnu,
gcc-12-mips64el-linux-gnuabi64, ...), a probe is compiled to assembly
(-S, nothing linked or run) and read back from its .size directives:

- the size and alignment of each base type (_Bool, char, short, int,
  long, long long, __int128, void *, float, double, long double), the
  alignment as a struct member (what layouts use: i386's long long is
  4-aligned there);
- whether char is unsigned, the byte order;
- the bit-field rules: whether an unnamed bit-field aligns its record
  (AAPCS), whether a bit-field stays inside a unit of its type (not on
  m68k);
- every macro the table says the compiler predefines, with its value.

Prints one line per ABI (agrees, or each difference) and the ABIs with no
compiler here.  Exit 0 when every ABI checked agrees, 1 otherwise.  A
bench script, not a test: the compilers are not in CI.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# ABI -> (compiler, flags): Debian's cross compilers
COMPILERS = {
    "x86_64": ("x86_64-linux-gnu-gcc-12", []),
    "i386": ("i686-linux-gnu-gcc-12", []),
    "x32": ("x86_64-linux-gnux32-gcc-12", []),
    "arm": ("arm-linux-gnueabihf-gcc-12", []),
    "arm64": ("aarch64-linux-gnu-gcc-12", []),
    "riscv64": ("riscv64-linux-gnu-gcc-12", []),
    "riscv32": ("riscv64-linux-gnu-gcc-12", ["-march=rv32gc", "-mabi=ilp32d"]),
    "powerpc64le": ("powerpc64le-linux-gnu-gcc-12", []),
    "powerpc64": ("powerpc64-linux-gnu-gcc-12", []),
    "powerpc": ("powerpc-linux-gnu-gcc-12", []),
    "s390x": ("s390x-linux-gnu-gcc-12", []),
    "mips64": ("mips64el-linux-gnuabi64-gcc-12", []),
    "mips-n32": ("mips64el-linux-gnuabi64-gcc-12", ["-mabi=n32"]),
    "mips-o32": ("mipsel-linux-gnu-gcc-12", []),
    "sparc64": ("sparc64-linux-gnu-gcc-12", []),
    "sparc": ("sparc64-linux-gnu-gcc-12", ["-m32"]),
    "alpha": ("alpha-linux-gnu-gcc-12", []),
    "arc": ("arc-linux-gnu-gcc-12", []),
    "parisc": ("hppa-linux-gnu-gcc-12", []),
    "m68k": ("m68k-linux-gnu-gcc-12", []),
    "sh4": ("sh4-linux-gnu-gcc-12", []),
}

# GCC gives _MIPS_SIM as a name libc's <sgidefs.h> defines (the table has its value)
LIBC_NAMES = {"_ABIO32": "1", "_ABIN32": "2", "_ABI64": "3"}

BASES = [("_Bool", "bool", "_Bool"), ("char", "char", "char"), ("short", "short", "short"),
         ("int", "int", "int"), ("long", "long", "long"), ("long long", "llong", "long long"),
         ("__int128", "int128", "__int128"), ("void *", "ptr", "void *"),
         ("float", "float", "float"), ("double", "double", "double"),
         ("long double", "ldouble", "long double")]

PROBE = r"""
#define P(n, t) struct s_##n { char c; t x; }; \
	char size_##n[sizeof(t)]; char align_##n[__builtin_offsetof(struct s_##n, x)];
P(bool, _Bool) P(char, char) P(short, short) P(int, int) P(long, long) P(llong, long long)
P(ptr, void *) P(float, float) P(double, double) P(ldouble, long double)
#ifdef __SIZEOF_INT128__
P(int128, __int128)
#endif
char char_unsigned[(char)-1 > 0 ? 2 : 1];
char big_endian[__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 2 : 1];
/* an unnamed bit-field aligns the record to its type (AAPCS) or not */
struct ub { char c; int :3; };
char unnamed_align[_Alignof(struct ub)];
/* a bit-field crossing its unit: moved to the next unit, or kept where it is (m68k) */
struct cross { char a; short b:9; };
char cross_at[sizeof(struct cross)];
"""


def parse_table(text):
    abis, cur = {}, None
    for line in text.splitlines():
        if not line.startswith("\t"):
            name, arch, what = line.split("\t", 2)
            cur = abis[name] = {"arch": arch, "what": what, "types": {}, "rules": "",
                                "predefines": []}
        elif line.startswith("\tpredefines"):
            cur["predefines"] = line.split()[1:]
        elif line.startswith("\tchar "):
            cur["rules"] = line.strip()
        else:
            for item in line.strip().split("\t"):
                t, sa = item.rsplit(" ", 1)
                s, a = sa.split("/")
                cur["types"][t] = (int(s), int(a))
    return abis


def sizes(cc, flags, work):
    src = os.path.join(work, "probe.c")
    with open(src, "w") as f:
        f.write(PROBE)
    r = subprocess.run([cc] + flags + ["-std=gnu11", "-fno-common", "-S", "-o", "-", src],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[:2]
    out = {}
    # ".size NAME, N", or ".lcomm NAME,N,ALIGN" (powerpc64's .bss)
    for m in re.finditer(r"\.(?:size|lcomm|comm)\s+(\w+)\s*,\s*(\d+)", r.stdout):
        out[m.group(1)] = int(m.group(2))
    return out, None


def predefined(cc, flags):
    r = subprocess.run([cc] + flags + ["-dM", "-E", "-x", "c", "/dev/null"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = {}
    for line in r.stdout.splitlines():
        p = line.split(None, 2)
        if len(p) >= 2 and p[0] == "#define":
            out[p[1]] = p[2] if len(p) > 2 else ""
    return out


def check(name, entry, cc, flags, work):
    got, err = sizes(cc, flags, work)
    if got is None:
        return ["the probe does not compile: %s" % " ".join(err)]
    bad = []
    for shown, key, _ in BASES:
        want = entry["types"].get(shown)
        have = (got["size_" + key], got["align_" + key]) if "size_" + key in got else None
        if want != have:
            bad.append("%s: table %s, gcc %s" % (shown, want, have))
    rules = entry["rules"]
    if ("char unsigned" in rules) != (got["char_unsigned"] == 2):
        bad.append("char signedness: table '%s', gcc %s" % (
            rules, "unsigned" if got["char_unsigned"] == 2 else "signed"))
    if ("big-endian" in rules) != (got["big_endian"] == 2):
        bad.append("byte order: table '%s'" % rules)
    if ("unnamed bit-fields align" in rules) != (got["unnamed_align"] > 1):
        bad.append("unnamed bit-fields: table '%s', gcc aligns struct { char; int :3; } to %d"
                   % (rules, got["unnamed_align"]))
    # struct { char a; short b:9; }: 4 bytes where b moves to its own unit, 2 where it
    # straddles (m68k: bit-fields not kept in their unit)
    if ("bit-fields unaligned" in rules) != (got["cross_at"] < 4):
        bad.append("bit-field units: table '%s', gcc sizeof(struct { char; short :9; }) = %d"
                   % (rules, got["cross_at"]))
    macros = predefined(cc, flags)
    for m in entry["predefines"]:
        n, _, v = m.partition("=")
        if n not in macros:
            bad.append("predefines %s: gcc does not" % n)
        elif v and macros[n] != v and LIBC_NAMES.get(macros[n]) != v:
            bad.append("predefines %s=%s: gcc %s" % (n, v, macros[n]))
    return bad


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uapid", default=os.path.join(here, "..", "build", "src", "uapid"))
    ap.add_argument("abis", nargs="*")
    args = ap.parse_args()
    r = subprocess.run([args.uapid, "api-layout", "--abis"], stdout=subprocess.PIPE, text=True,
                       check=True)
    table = parse_table(r.stdout)
    names = args.abis or list(table)
    status, checked, missing = 0, 0, []
    work = tempfile.mkdtemp(prefix="abi-table.")
    try:
        for name in names:
            if name not in table:
                print("%s: not in uapid's table" % name)
                status = 1
                continue
            cc, flags = COMPILERS.get(name, (None, []))
            if cc is None or shutil.which(cc) is None:
                missing.append(name)
                continue
            checked += 1
            bad = check(name, table[name], cc, flags, work)
            if bad:
                status = 1
                print("%s (%s %s): %d difference%s" % (name, cc, " ".join(flags), len(bad),
                                                      "" if len(bad) == 1 else "s"))
                for b in bad:
                    print("    " + b)
            else:
                print("%s (%s %s): agrees" % (name, cc, " ".join(flags)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("checked %d ABIs; no compiler here for %d: %s" % (checked, len(missing),
                                                          " ".join(missing)))
    return status


if __name__ == "__main__":
    sys.exit(main())
