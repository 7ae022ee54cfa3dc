#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The cross-compiler oracle: uapid's layouts and constant values against GCC's, on every ABI.

    tests/kernel/abi-oracle.py [--uapid PATH] [--abi ABI]... [--jobs N]
                               [--cache DIR] [--json FILE] [--list] SOURCE...

SOURCE is a kernel tree (its headers are installed for every architecture
with `uapid install --arch all` in a scratch directory), a directory
`uapid install --arch all` wrote (ARCH/include for each architecture), or
one installed set (DIR/include; its architecture read from uapid's install
state, else it is checked for every ABI named with --abi).

For each SOURCE and each ABI (--abi, default every ABI of
`uapid api-layout --abis` whose cross compiler is installed: Debian 12's
gcc-12-<triple> packages, as bench/abi-table.py lists them), nothing is
linked or run:

1. Each installed header gets one probe, compiled to assembly as a user
   compiles a header alone: `CC -S -nostdinc -isystem INSTALLED/include
   -isystem $(CC -print-file-name=include)` (the compiler's own stddef.h,
   no libc), the header included first.  A header with an error of its
   own does not compile alone: counted and named with its first error,
   nothing of it compared.  The probe's answers are data objects read
   back from the assembly's data directives, whose widths and byte order
   are first learnt from the compiler.
2. Layouts: every struct and union `uapid api-layout --json` lays out in
   the header: its size and alignment (_Alignof), each member's offset
   (offsetof) and size in bits, a bit-field's bit offset and width from a
   constant object with only that bit-field set to all ones (bits counted
   in the order the target allocates them).  Nested and anonymous members
   as uapid names them.  A type under a condition uapid leaves open is
   compared where the compiler's #if of that condition is true.
3. Constant values: every object-like macro and enum constant the
   header's text defines that the compiler accepts as an integer constant
   expression (an enumerator's value under -pedantic-errors), against the
   value `uapid api-layout --values --json` gives it in that header.  A
   name uapid gives no value, or different values under several
   conditions, is counted apart; a macro the header defines under an
   #ifndef of its own name (include guards too) is skipped where uapid
   does not list it: another header may have defined it first.
4. Predefined macros: every name an installed header tests in
   #if/#ifdef/#ifndef/#elif that no installed header defines, as the
   compiler predefines it (-dM -E) and as uapid's ABI table does (read
   back from uapid's layouts of a header of "#ifdef NAME" and "#if NAME ==
   VALUE" blocks): defined or not, and the value.

MIPS: GCC predefines _MIPS_SIM as _ABIO32, _ABIN32 or _ABI64, names libc's
<sgidefs.h> defines (uapid's table has their values); the probes define
them as libc does, or no MIPS header would pick a layout.

Prints per SOURCE and ABI the counts, the headers that do not compile
alone, and the first findings of each kind (--list: all of them); --json
FILE keeps every report in full.  Exit 0 when every layout, value and
predefined macro compared agrees and every probe compiled, 1 otherwise,
2 on usage errors, 77 when no ABI asked for has a compiler.

--cache DIR (default $UD_CACHE): the compiler's answers for each header in
DIR/abi-oracle, keyed by what they depend on: the installed set's
contents, the compiler and its flags, the ABI, the probe's code (this
file's functions that write and read probes) and, per header, the
constants and types asked about (so a change of uapid's model recompiles
only the headers whose questions it changes).  Never required.
"""
import argparse
import concurrent.futures
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# ABI -> (compiler, flags): Debian 12's cross compilers (bench/abi-table.py's table)
MIPS_LIBC = ["-D_ABIO32=1", "-D_ABIN32=2", "-D_ABI64=3"]
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
    "mips64": ("mips64el-linux-gnuabi64-gcc-12", MIPS_LIBC),
    "mips-n32": ("mips64el-linux-gnuabi64-gcc-12", ["-mabi=n32"] + MIPS_LIBC),
    "mips-o32": ("mipsel-linux-gnu-gcc-12", MIPS_LIBC),
    "sparc64": ("sparc64-linux-gnu-gcc-12", []),
    "sparc": ("sparc64-linux-gnu-gcc-12", ["-m32"]),
    "alpha": ("alpha-linux-gnu-gcc-12", []),
    "arc": ("arc-linux-gnu-gcc-12", []),
    "parisc": ("hppa-linux-gnu-gcc-12", []),
    "m68k": ("m68k-linux-gnu-gcc-12", []),
    "sh4": ("sh4-linux-gnu-gcc-12", []),
}

# what a probe adds to the flags: non-constant expressions rejected
# (an enumerator's value must be an integer constant expression), macro
# errors reported where the probe uses the macro, bit-fields set to ~0
PROBE_FLAGS = ["-pedantic-errors", "-ftrack-macro-expansion=0", "-Wno-overflow"]
# the error of a header that compiles alone but whose probe does not (the oracle's fault)
PROBE_FAILED = "the probe does not compile: "

ERROR = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$")
LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):")
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def sh(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def first_error(err):
    for line in err.splitlines():
        m = ERROR.match(line)
        if m:
            return "%s:%s: %s" % (m.group("file").rsplit("/include/", 1)[-1], m.group("line"),
                                  m.group("msg"))
    return err.strip().splitlines()[0] if err.strip() else "?"


def to_signed(u):
    """A 64-bit two's complement value as a signed number."""
    return u - (1 << 64) if u >> 63 else u


# ---- the compiler ----

class Compiler:
    """One ABI's compiler: its flags, and how its assembly spells data."""

    def __init__(self, abi, cc, flags, work):
        self.abi = abi
        self.cc = cc
        self.flags = flags
        self.include = sh([cc] + flags + ["-print-file-name=include"]).stdout.strip()
        self.identity = sh([cc, "--version"]).stdout + " ".join(flags)
        self.widths = {}
        self.big_endian = False
        self.calibrate(work)

    def argv(self, inc):
        return [self.cc] + self.flags + ["-nostdinc", "-isystem", inc, "-isystem", self.include]

    def calibrate(self, work):
        """Learns the data directive of each width and the byte order."""
        src = os.path.join(work, "calibrate-%s.c" % self.abi)
        with open(src, "w") as f:
            f.write("const unsigned char oracle_w1 = 0x5a;\n"
                    "const unsigned short oracle_w2 = 0x5a5b;\n"
                    "const unsigned int oracle_w4 = 0x5a5b5c5d;\n"
                    "const unsigned long long oracle_w8 = 0x5a5b5c5d5e5f6061ull;\n"
                    "const int oracle_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 2 : 1;\n")
        r = sh([self.cc] + self.flags + ["-S", "-o", "-", src])
        if r.returncode != 0:
            sys.exit("abi-oracle: %s cannot compile: %s" % (self.cc, first_error(r.stderr)))
        data, label = {}, None
        for line in r.stdout.splitlines():
            m = LABEL.match(line)
            if m:
                label = m.group(1)
                data[label] = []
            elif label and line.split() and line.split()[0].startswith("."):
                data[label].append(line.split())
        for n in (1, 2, 4, 8):
            # each object's first directive; an 8-byte value may be two 4-byte
            # ones (32-bit targets), or eight bytes (sparc64)
            self.widths.setdefault(data["oracle_w%d" % n][0][0], n)
        self.big_endian = int(data["oracle_be"][0][1], 0) == 2

    def objects(self, asm):
        """The bytes of each of the probe's data objects in an assembly text,
        by label; checked against the sizes the assembly gives them."""
        out, sizes, label = {}, {}, None
        for line in asm.splitlines():
            m = LABEL.match(line)
            if m:
                # the probe's objects only: a header may define data of its own
                label = m.group(1) if m.group(1).startswith("oracle_") else None
                if label:
                    out[label] = bytearray()
                continue
            p = line.split(None, 1)
            if len(p) < 2:
                continue
            d = p[0]
            if d == ".size":
                name, _, n = p[1].partition(",")
                if n.strip().isdigit():
                    sizes[name.strip()] = int(n)
            elif label is None:
                continue
            elif d in self.widths:
                w = self.widths[d]
                for v in p[1].split(","):
                    out[label] += (int(v.strip(), 0) & ((1 << (8 * w)) - 1)).to_bytes(
                        w, "big" if self.big_endian else "little")
            elif d in (".zero", ".space", ".skip"):
                out[label] += bytes(int(p[1].split(",")[0], 0))
            elif d in (".ascii", ".string", ".asciz"):
                s = p[1].strip()[1:-1].encode().decode("unicode_escape").encode("latin-1")
                out[label] += s + (b"\0" if d != ".ascii" else b"")
        for name, b in out.items():
            if sizes.get(name, len(b)) != len(b):
                sys.exit("abi-oracle: %s: %d bytes of %s read from the assembly, not %d: a data "
                         "directive not known" % (self.cc, len(b), name, sizes[name]))
        return out

    def integer(self, b):
        return int.from_bytes(b, "big" if self.big_endian else "little")

    def bit_range(self, b):
        """First bit set and how many up to the last, in allocation order."""
        bits = [i * 8 + (7 - k if self.big_endian else k)
                for i, byte in enumerate(b) for k in range(8) if byte >> k & 1]
        return (min(bits), max(bits) - min(bits) + 1) if bits else None

    def predefined(self):
        r = sh([self.cc] + [f for f in self.flags if not f.startswith("-D")] +
               ["-dM", "-E", "-x", "c", "/dev/null"])
        out = {}
        for line in r.stdout.splitlines():
            p = line.split(None, 2)
            if len(p) >= 2 and p[0] == "#define":
                out[p[1]] = p[2] if len(p) > 2 else ""
        return out


# ---- what a header's text defines ----

def strip_comments(text):
    """The text without comments (newlines kept) nor line continuations."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"\\\n", " ", text)


DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\(?)[ \t]*(.*)$", re.M)
DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$", re.M)
NOT_DEFINED = re.compile(r"!\s*defined\s*\(?\s*(\w+)\s*\)?")
ENUM = re.compile(r"\benum\b(?:\s+[A-Za-z_]\w*)?\s*\{")
TESTS = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b(.*)$", re.M)


def constants_of(text):
    """(kind, name, default) of each object-like macro with a replacement,
    then of each enum constant, in the order written; a default is a
    macro defined inside an #ifndef of its own name (an include guard too):
    another header may have defined it first."""
    text = strip_comments(text)
    macros, tests = {}, []
    for m in DIRECTIVE.finditer(text):
        d, rest = m.group(1), m.group(2).strip()
        if d in ("if", "ifdef", "ifndef"):
            n = NOT_DEFINED.fullmatch(rest) if d == "if" else None
            tests.append(rest if d == "ifndef" else n.group(1) if n else None)
        elif d in ("elif", "else") and tests:
            tests[-1] = None
        elif d == "endif" and tests:
            tests.pop()
        elif d == "define":
            n = DEFINE.match(m.group(0))
            if n and not n.group(2) and n.group(3).strip():
                macros.setdefault(n.group(1), n.group(1) in tests)
    code = DIRECTIVE.sub("", text)
    enums = []
    for m in ENUM.finditer(code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        for item in split_top(code[m.end():i - 1]):
            n = re.match(r"\s*([A-Za-z_]\w*)\s*(=|$)", item, re.S)
            if n and n.group(1) not in macros and n.group(1) not in enums:
                enums.append(n.group(1))
    return [("macro", n, d) for n, d in macros.items()] + [("enum", n, False) for n in enums]


def split_top(body):
    """body split at the commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in body:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


# ---- one header's probe ----

def c_name(t):
    """How C code names the type: 'struct (typedef foo_t)' is foo_t."""
    m = re.match(r"^(struct|union) \(typedef (\w+)\)$", t["name"])
    return m.group(2) if m else t["name"]


class Probe:
    """The checks of one header as C code (an item: a few lines in each of
    the probe's parts); an item whose lines the compiler rejects is
    dropped and the rest compiled again."""

    def __init__(self, header, consts, types):
        self.header = header
        self.items = []  # (kind, what, [lines of each part])
        for i, (kind, name, _) in enumerate(consts):
            # the integer constant expressions, each in a function (GCC names
            # an undeclared identifier once per function), before the values
            # (at file scope it names it once in all)
            check = ["static inline void oracle_f%d(void) { enum { k = (%s) ? 1 : 1 }; }"
                     % (i, name)]
            value = ["const unsigned long long oracle_c%d[2] = { (unsigned long long)(%s), "
                     "(%s) * 0 - 1 > 0 };" % (i, name, name)]
            if kind == "macro":
                check = ["#ifdef %s" % name] + check + ["#endif"]
                value = ["#ifdef %s" % name] + value + ["#endif"]
            self.items.append(("const", (i, name), [check, value, []]))
        # a member's name may be a macro (phonet.h's "#define pn_data pn_msg_u.base.pn_data")
        members = sorted({c for t in types for f in t["fields"] for c in f["path"].split(".")})
        self.undefs = ["#undef %s" % n for n in members]
        for j, t in enumerate(types):
            cn = c_name(t)
            vals = ["(unsigned long long)sizeof(%s)," % cn, "_Alignof(%s)," % cn]
            bits = []
            for k, f in enumerate(t["fields"]):
                if f.get("bitfield"):
                    bits.append("const %s oracle_b%d_%d = { .%s = -1 };" % (cn, j, k, f["path"]))
                    continue
                vals.append("__builtin_offsetof(%s, %s) * 8," % (cn, f["path"]))
                if f.get("flexible") and f["size_bits"] == 0:
                    vals.append("0,")  # a flexible array member has no size
                else:
                    vals.append("sizeof(((%s *)0)->%s) * 8," % (cn, f["path"]))
            lines = ["const unsigned long long oracle_t%d[] = {" % j] + vals + ["};"] + bits
            if t["cond"]:
                lines = ["#if %s" % t["cond"]] + lines + ["#endif"]
            self.items.append(("type", (j, t), [[], [], lines]))

    def source(self, alive):
        """The probe's text and, by line, the item it belongs to."""
        # a declaration of its own: ISO C has no empty translation unit
        out, owner = ["#include <%s>" % self.header, "typedef int oracle_probe;"], {}
        for part in range(3):
            if part == 2:
                out += self.undefs
            for n, (kind, what, parts) in enumerate(self.items):
                if alive[n]:
                    for line in parts[part]:
                        out.append(line)
                        owner[len(out)] = n
        return "\n".join(out) + "\n", owner


def run_probe(comp, inc, header, consts, types, work):
    """Compiles header's probe until the compiler takes all of it that it
    can: (None, error) when the header does not compile alone; else
    ({const index: (value, unsigned)}, {type index: numbers and bit
    ranges, or the error that dropped it})."""
    probe = Probe(header, consts, types)
    alive = [True] * len(probe.items)
    dropped = {}
    base = os.path.join(work, re.sub(r"\W", "_", header))
    while True:
        text, owner = probe.source(alive)
        with open(base + ".c", "w") as f:
            f.write(text)
        r = sh(comp.argv(inc) + PROBE_FLAGS + ["-S", "-o", base + ".s", base + ".c"])
        if r.returncode == 0:
            break
        bad, own = set(), []
        for line in r.stderr.splitlines():
            m = ERROR.match(line)
            if not m:
                continue
            if m.group("file") == base + ".c" and int(m.group("line")) in owner:
                n = owner[int(m.group("line"))]
                bad.add(n)
                dropped.setdefault(n, m.group("msg"))
            else:
                own.append(line)
        if own and own[0].endswith("No such file or directory"):
            return None, first_error(own[0])  # an #include of libc's: the probe changes nothing
        if own or not bad:
            # the header's own error: as the issue compiles it alone, without the probe
            alone = os.path.join(work, "alone.c")
            with open(alone, "w") as f:
                f.write("#include <%s>\n" % header)
            a = sh(comp.argv(inc) + ["-fsyntax-only", alone])
            if a.returncode != 0:
                return None, first_error(a.stderr)
            if not bad:
                return None, PROBE_FAILED + first_error(r.stderr)
        for n in bad:
            alive[n] = False
    with open(base + ".s") as f:
        objs = comp.objects(f.read())
    consts_out, types_out = {}, {}
    for n, (kind, what, _) in enumerate(probe.items):
        if kind == "const":
            i, name = what
            b = objs.get("oracle_c%d" % i)
            if b is not None and len(b) == 16:
                u = comp.integer(b[8:]) != 0
                v = comp.integer(b[:8])
                consts_out[i] = (v if u else to_signed(v), u)
            continue
        j, t = what
        if not alive[n]:
            types_out[j] = {"error": dropped.get(n, "?")}
            continue
        b = objs.get("oracle_t%d" % j)
        if b is None:
            types_out[j] = {"error": "not defined where the compiler reads the header"
                            if t["cond"] else "no data"}
            continue
        nums = [comp.integer(b[k:k + 8]) for k in range(0, len(b), 8)]
        got = {"size": nums[0], "align": nums[1], "fields": {}}
        rest = iter(nums[2:])
        for k, f in enumerate(t["fields"]):
            if f.get("bitfield"):
                got["fields"][f["path"]] = comp.bit_range(objs.get("oracle_b%d_%d" % (j, k), b""))
            else:
                got["fields"][f["path"]] = (next(rest), next(rest))
        types_out[j] = got
    return consts_out, types_out


# ---- uapid's side ----

def uapid_layouts(uapid, abi, d):
    r = sh([uapid, "api-layout", "--json", "--abi", abi, d])
    if r.returncode != 0:
        sys.exit("abi-oracle: uapid api-layout --abi %s %s failed: %s" % (abi, d, r.stderr))
    by_header = {}
    model = json.loads(r.stdout)
    for t in model["types"]:
        if t["kind"] in ("struct", "union"):
            by_header.setdefault(t["header"], []).append(t)
    return by_header, model["unknown"]


def uapid_values(uapid, abi, d):
    """uapid's value of each (header, name) it gives one: a number, or why
    there is none (different values under several conditions)."""
    r = sh([uapid, "api-layout", "--values", "--json", "--abi", abi, d])
    if r.returncode != 0:
        sys.exit("abi-oracle: uapid api-layout --values --abi %s %s failed: %s" % (abi, d, r.stderr))
    seen = {}
    for c in json.loads(r.stdout)["constants"]:
        seen.setdefault((c["header"], c["name"]), set()).add(int(c["value"]))
    return {k: v.pop() if len(v) == 1 else "values %s under several conditions" %
            ", ".join(str(x) for x in sorted(v)) for k, v in seen.items()}


# ---- predefined macros ----

def tested_names(inc):
    """Names the installed headers test in #if and the like that none of them #defines."""
    tested, defined = set(), set()
    for dp, _, fs in os.walk(inc):
        for f in fs:
            with open(os.path.join(dp, f), errors="replace") as fh:
                text = strip_comments(fh.read())
            for m in TESTS.finditer(text):
                tested.update(n for n in IDENT.findall(m.group(1)) if n != "defined")
            defined.update(m.group(1) for m in DEFINE.finditer(text))
    return tested - defined


def check_predefines(args, comp, inc, work):
    """The names installed headers test that the compiler and uapid's table
    disagree on (defined or not, the value), and those the compiler defines
    that uapid leaves undecided."""
    names = sorted(tested_names(inc))
    gcc = comp.predefined()
    # gcc's values: each defined name as an integer constant expression
    probe_dir = os.path.join(work, "predef")
    os.makedirs(os.path.join(probe_dir, "include", "oracle"), exist_ok=True)
    with open(os.path.join(probe_dir, "include", "oracle", "empty.h"), "w"):
        pass
    defined = [n for n in names if n in gcc]
    values, _ = run_probe(comp, os.path.join(probe_dir, "include"), "oracle/empty.h",
                          [("macro", n, False) for n in defined], [], work)
    gval = {defined[i]: v for i, (v, _) in (values or {}).items()}
    text = []
    for i, n in enumerate(names):
        text.append("#ifdef %s\nstruct oracle_d%d { char a; };\n#endif\n" % (n, i))
        if n in gval:
            text.append("#if (%s) == (%d)\nstruct oracle_e%d { char a; };\n#endif\n"
                        % (n, gval[n], i))
    uapid_dir = os.path.join(work, "predef-uapid")
    os.makedirs(os.path.join(uapid_dir, "include", "oracle"), exist_ok=True)
    with open(os.path.join(uapid_dir, "include", "oracle", "predef.h"), "w") as f:
        f.write("".join(text))
    by_header, _ = uapid_layouts(args.uapid, comp.abi, uapid_dir)
    # a block uapid keeps unconditionally is true for it, one it drops false,
    # one under a condition undecided
    seen = {t["name"].split()[1]: t["cond"] for t in by_header.get("oracle/predef.h", [])}
    bad, undecided = [], []
    for i, n in enumerate(names):
        d, e = seen.get("oracle_d%d" % i), seen.get("oracle_e%d" % i)
        ours = "defined as %s%s" % (gcc[n] or "empty", " (== %d)" % gval[n]
                                    if n in gval and str(gval[n]) != gcc[n] else "") \
            if n in gcc else "undefined"
        if n not in gcc:
            if d == "":
                bad.append("%s: gcc undefined, uapid defined" % n)
        elif d is None:
            bad.append("%s: gcc %s, uapid undefined" % (n, ours))
        elif d:
            undecided.append("%s: gcc %s, uapid undecided" % (n, ours))
        elif n in gval and e is None:
            bad.append("%s: gcc %s, uapid defined, != %d" % (n, ours, gval[n]))
        elif n in gval and e:
            undecided.append("%s: gcc %s, uapid defined, value undecided" % (n, ours))
    return {"tested": len(names), "mismatches": bad, "undecided": undecided}


# ---- one installed set on one ABI ----

def set_digest(inc):
    h = hashlib.sha256()
    for dp, dirs, fs in os.walk(inc):
        dirs.sort()
        for f in sorted(fs):
            p = os.path.join(dp, f)
            h.update(os.path.relpath(p, inc).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read() + b"\0")
    return h.hexdigest()


def probe_code():
    """The source of what writes and reads a probe: the compiler's answers depend on it."""
    parts = [Compiler, strip_comments, constants_of, split_top, c_name, Probe, run_probe,
             to_signed, first_error]
    return "\0".join([inspect.getsource(p) for p in parts] + PROBE_FLAGS + MIPS_LIBC)


class Cache:
    """The compiler's answers for one installed set on one ABI: header ->
    [key of the probe, answers]."""

    def __init__(self, top, comp, inc):
        self.path, self.entries, self.hits = None, {}, 0
        if not top:
            return
        h = hashlib.sha256(probe_code().encode())
        h.update(("\0%s\0%s\0%s" % (comp.identity, comp.abi, set_digest(inc))).encode())
        self.path = os.path.join(top, "abi-oracle", h.hexdigest() + ".json")
        try:
            with open(self.path) as f:
                self.entries = json.load(f)
        except (OSError, ValueError):
            self.entries = {}

    @staticmethod
    def key(consts, types):
        return hashlib.sha256(json.dumps([consts, types], sort_keys=True).encode()).hexdigest()

    def get(self, header, key):
        e = self.entries.get(header)
        if self.path is None or e is None or e[0] != key:
            return None
        self.hits += 1
        consts, types = e[1]
        if consts is None:
            return None, types
        return ({int(k): tuple(v) for k, v in consts.items()},
                {int(k): (v if "error" in v else
                          dict(v, fields={p: tuple(x) if x else None
                                          for p, x in v["fields"].items()}))
                 for k, v in types.items()})

    def put(self, header, key, answer):
        if self.path is not None:
            self.entries[header] = [key, answer]

    def save(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = "%s.%d.tmp" % (self.path, os.getpid())
        with open(tmp, "w") as f:
            json.dump(self.entries, f)
        os.replace(tmp, self.path)


def compare_type(t, got):
    """The differences between uapid's layout of t and the compiler's."""
    bad = []
    if (got["size"], got["align"]) != (t["size"], t["align"]):
        bad.append("size/align uapid %d/%d, gcc %d/%d" % (t["size"], t["align"], got["size"],
                                                         got["align"]))
    for f in t["fields"]:
        g = got["fields"].get(f["path"])
        if g != (f["offset_bits"], f["size_bits"]):
            bad.append("%s (%s) bit %d size %d, gcc %s" % (
                f["path"], f["type"], f["offset_bits"], f["size_bits"],
                "bit %d size %d" % g if g else "no bits"))
    return bad


def check_set(args, pool, comp, label, d, work):
    """Compares everything of installed set d on comp's ABI: a report."""
    inc = os.path.join(d, "include")
    by_header, unknown = uapid_layouts(args.uapid, comp.abi, d)
    headers = sorted(os.path.relpath(os.path.join(dp, f), inc)
                     for dp, _, fs in os.walk(inc) for f in fs if f.endswith(".h"))
    cache = Cache(args.cache, comp, inc)

    def one(h):
        with open(os.path.join(inc, h), errors="replace") as f:
            consts = constants_of(f.read())
        types = by_header.get(h, [])
        key = Cache.key(consts, types)
        got = cache.get(h, key)
        if got is None:
            wd = tempfile.mkdtemp(dir=work)
            try:
                got = run_probe(comp, inc, h, consts, types, wd)
            finally:
                shutil.rmtree(wd, ignore_errors=True)
            cache.put(h, key, got)
        return h, consts, types, got

    rep = {"source": label, "abi": comp.abi, "compiler": " ".join([comp.cc] + comp.flags),
           "headers": len(headers), "not_alone": [], "probe_failed": [], "types": 0, "members": 0,
           "wrong_layouts": [], "not_compared": [], "constants": 0, "wrong_values": [],
           "no_value": [], "unknown_layouts": ["%s: %s (%s)" % (u["header"], u["name"], u["why"])
                                               for u in unknown]}
    results = list(pool.map(one, headers))
    cache.save()
    gcc_values = {}
    for h, consts, types, (cvals, tvals) in results:
        if cvals is None:
            rep["probe_failed" if tvals.startswith(PROBE_FAILED) else "not_alone"].append(
                "%s: %s" % (h, tvals))
            continue
        for i, (value, unsigned) in cvals.items():
            kind, name, default = consts[i]
            gcc_values[(h, name)] = (value, unsigned, kind, default)
        for j, t in enumerate(types):
            got = tvals[j]
            if "error" in got:
                if not (t["cond"] and got["error"].startswith("not defined")):
                    rep["not_compared"].append("%s: %s%s: %s" % (
                        h, t["name"], " [if %s]" % t["cond"] if t["cond"] else "", got["error"]))
                continue
            rep["types"] += 1
            rep["members"] += len(t["fields"])
            bad = compare_type(t, got)
            if bad:
                rep["wrong_layouts"].append({"header": h, "type": t["name"], "cond": t["cond"],
                                             "differences": bad})
    theirs = uapid_values(args.uapid, comp.abi, d)
    for (h, n), (value, unsigned, kind, default) in sorted(gcc_values.items()):
        u = theirs.get((h, n), "not in uapid's values of this header")
        if default and (h, n) not in theirs:
            continue  # the compiler's value is another header's definition, or a guard's
        rep["constants"] += 1
        if isinstance(u, str):
            rep["no_value"].append("%s: %s %s = %d: %s" % (h, kind, n, value, u))
        elif u != value:
            rep["wrong_values"].append({"header": h, "name": n, "kind": kind, "gcc": value,
                                        "gcc_unsigned": unsigned, "uapid": u})
    rep["predefines"] = check_predefines(args, comp, inc, work)
    return rep


# ---- sources ----

def installed_arch(d):
    """The architecture uapid installed d for, from its install state."""
    try:
        with open(os.path.join(d, ".uapid-install")) as f:
            return f.readline().split()[1]
    except (OSError, IndexError):
        return None


def resolve(args, source, work):
    """(label, {arch or None: installed set}) of a SOURCE argument."""
    label = os.path.basename(os.path.normpath(source))
    if os.path.isdir(os.path.join(source, "include", "uapi")):
        out = os.path.join(work, "install-" + label)
        r = sh([args.uapid, "install", "--arch", "all", "--quiet", source, out])
        if r.returncode != 0:
            sys.exit("abi-oracle: uapid install %s failed: %s" % (source, r.stderr))
        source = out
    if os.path.isdir(os.path.join(source, "include")):
        return label, {installed_arch(source): source}
    return label, {a: os.path.join(source, a) for a in sorted(os.listdir(source))
                   if os.path.isdir(os.path.join(source, a, "include"))}


def print_report(rep, full):
    def some(v):
        return v if full else v[:5]

    print("%s on %s (%s): %d headers, %d do not compile alone (%.0f s, %.0f s of CPU)" % (
        rep["source"], rep["abi"], rep["compiler"], rep["headers"], len(rep["not_alone"]),
        rep["seconds"], rep["cpu_seconds"]))
    for x in rep["probe_failed"]:
        print("  " + x)
    print("  layouts: %d types, %d members compared; %d types wrong; %d not compared; "
          "%d uapid does not know" % (rep["types"], rep["members"], len(rep["wrong_layouts"]),
                                       len(rep["not_compared"]), len(rep["unknown_layouts"])))
    for w in some(rep["wrong_layouts"]):
        print("    %s: %s%s: %s" % (w["header"], w["type"], " [if %s]" % w["cond"]
                                    if w["cond"] else "", "; ".join(w["differences"][:3])))
    for x in some(rep["not_compared"]):
        print("    not compared: " + x)
    print("  constants: %d compared; %d wrong; %d without a value from uapid" % (
        rep["constants"], len(rep["wrong_values"]), len(rep["no_value"])))
    for w in some(rep["wrong_values"]):
        print("    %s: %s %s: uapid %d, gcc %d%s" % (w["header"], w["kind"], w["name"], w["uapid"],
                                                    w["gcc"], " (unsigned)" if w["gcc_unsigned"]
                                                    else ""))
    for x in rep.get("known", []):
        print("    known wrong (abi-oracle.known): " + x)
    p = rep["predefines"]
    print("  predefined macros: %d tested names; %d disagree; %d gcc defines, uapid leaves "
          "undecided" % (p["tested"], len(p["mismatches"]), len(p["undecided"])))
    for x in some(p["mismatches"]):
        print("    " + x)
    # named always: a header left out of the comparison is never silent
    for x in rep["not_alone"] if full else []:
        print("  not alone: " + x)
    if not full and rep["not_alone"]:
        print("  not alone: " + " ".join(x.split(":", 1)[0] for x in rep["not_alone"]))
    if full:
        for x in p["undecided"]:
            print("  undecided: " + x)


def read_known(path):
    """ABI, header, name -> why, from the known-wrong file (absent: none)."""
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                abi, header, rest = line.split(None, 2)
                # the name (one word, or "struct x") and the reason, two spaces or more apart
                name, why = (re.split(r"\s{2,}", rest.strip(), 1) + [""])[:2]
                known[(abi, header, name)] = why
    return known


def take_known(rep, known, seen):
    """Moves the findings of rep that known lists to rep["known"] (and notes them in seen)."""
    rep["known"] = []
    for key, name_of in (("wrong_layouts", lambda w: w["type"]),
                         ("wrong_values", lambda w: w["name"])):
        keep = []
        for w in rep[key]:
            k = (rep["abi"], w["header"], name_of(w))
            if k in known:
                seen.add(k)
                rep["known"].append("%s %s: %s" % (w["header"], name_of(w), known[k]))
            else:
                keep.append(w)
        rep[key] = keep


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uapid", default=os.environ.get("UAPID") or
                    os.path.join(here, "..", "..", "build", "src", "uapid"),
                    help="the uapid to check (default: $UAPID, else build/src/uapid)")
    ap.add_argument("--abi", action="append", default=[],
                    help="an ABI to check (repeatable; default: all with a compiler here)")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--cache", default=os.environ.get("UD_CACHE") or None,
                    help="keep the compiler's answers in DIR/abi-oracle (default: $UD_CACHE)")
    ap.add_argument("--json", help="write every report in full here")
    ap.add_argument("--list", action="store_true", help="list every finding, not the first five")
    ap.add_argument("--known", default=os.path.join(here, "abi-oracle.known"),
                    help="what uapid is known to answer wrong, with why (default: %(default)s)")
    ap.add_argument("sources", nargs="+", metavar="SOURCE")
    args = ap.parse_args()
    known, seen_known = read_known(args.known), set()
    r = sh([args.uapid, "api-layout", "--abis"])
    if r.returncode != 0:
        print("abi-oracle: %s api-layout --abis failed" % args.uapid, file=sys.stderr)
        return 2
    archs = {line.split("\t")[0]: line.split("\t")[1] for line in r.stdout.splitlines()
             if line and not line.startswith("\t")}
    wanted = args.abi or list(archs)
    unknown = [a for a in wanted if a not in archs]
    if unknown:
        print("abi-oracle: not an ABI of uapid's: %s" % " ".join(unknown), file=sys.stderr)
        return 2
    abis = [a for a in wanted if a in COMPILERS and shutil.which(COMPILERS[a][0])]
    missing = [a for a in wanted if a not in abis]
    if not abis:
        print("abi-oracle: no compiler for %s" % " ".join(wanted), file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="abi-oracle.")
    reports, status, start = [], 0, time.time()
    try:
        comps = {a: Compiler(a, COMPILERS[a][0], COMPILERS[a][1], work) for a in abis}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for source in args.sources:
                label, sets = resolve(args, source, work)
                for a in abis:
                    d = sets.get(archs[a]) or sets.get(None)
                    if d is None:
                        print("%s: no headers installed for %s (%s)" % (label, archs[a], a))
                        continue
                    t0, c0 = time.time(), os.times()
                    rep = check_set(args, pool, comps[a], label, d, work)
                    c1 = os.times()
                    rep["seconds"] = round(time.time() - t0, 1)
                    rep["cpu_seconds"] = round(sum(c1[:4]) - sum(c0[:4]), 1)
                    reports.append(rep)
                    if args.json:  # after each ABI: a long run's reports so far
                        with open(args.json, "w") as f:
                            json.dump(reports, f, indent=1)
                    take_known(rep, known, seen_known)
                    print_report(rep, args.list)
                    sys.stdout.flush()
                    if rep["wrong_layouts"] or rep["wrong_values"] or rep["probe_failed"] or \
                            rep["predefines"]["mismatches"]:
                        status = 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for k in sorted(set(known) - seen_known):
        if k[0] in abis:
            print("abi-oracle: %s: %s %s is right now: take its line out of %s" % (
                k[0], k[1], k[2], args.known))
            status = 1
    cpu = os.times()
    print("checked %d ABIs in %.0f s (%.0f s of CPU); no compiler here for %d: %s" % (
        len(abis), time.time() - start, sum(cpu[:4]), len(missing), " ".join(missing)))
    return status


if __name__ == "__main__":
    sys.exit(main())
