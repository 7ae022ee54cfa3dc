#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plant API edits into a copy of an installed-header directory.

    bench/api-oracle-plant.py [--seed N] [--count N] SRC DST

SRC holds include/ (as `make headers_install` or `uapid install` writes it);
DST is created (it must not exist) as a copy of SRC with about --count
edits planted across the headers, deterministically (--seed, default 1):

    member-type      a struct/union member's scalar type changed (__u32 -> __u64 ...)
    member-del-end   the last member of a struct removed
    member-del-mid   a middle member removed
    member-add-end   a member appended
    member-add-mid   a member inserted in the middle
    array-size       a member's numeric array bound changed
    enum-insert      a constant inserted into an enum (renumbering those after it)
    macro-value      an integer object-like macro's value changed
    typedef          a scalar typedef's type changed
    new-struct       a new struct added

Edits go only where they are compiled on every configuration: in structs,
enums, typedefs and macros outside any #if other than the include guard,
in struct bodies without directives, on members no inline code in the
header refers to; at most one edit per struct, enum, typedef or macro.
Central headers (linux/types.h, the posix_types and int-l*/int-ll*
headers) are left alone, so a typedef change does not ripple everywhere.

The list of planted edits is written, one a line, tab-separated, to
DST/../<basename DST>.planted.tsv (or --manifest FILE):
    header  kind  symbol  detail
symbol being "struct NAME", "union NAME", "enum NAME" (or "enum" for an
anonymous one), a macro or typedef name.
"""
import argparse
import os
import random
import re
import shutil
import sys

QUOTAS = [
    ("member-type", 50),
    ("member-del-end", 30),
    ("member-del-mid", 30),
    ("member-add-end", 30),
    ("member-add-mid", 30),
    ("array-size", 30),
    ("enum-insert", 30),
    ("macro-value", 40),
    ("typedef", 15),
    ("new-struct", 15),
]

EXCLUDE = re.compile(r"^(linux/types\.h|linux/posix_types\.h|asm/posix_types.*|"
                     r"asm-generic/posix_types\.h|asm-generic/int-l+64\.h|asm/types\.h|"
                     r"asm-generic/types\.h|linux/stddef\.h|linux/compiler.*)$")

# scalar type rewrites for member-type and typedef edits (all change the size)
RETYPE = [
    ("unsigned long long", "unsigned int"),
    ("unsigned long", "unsigned int"),
    ("signed long", "signed int"),
    ("unsigned int", "unsigned long long"),
    ("unsigned short", "unsigned int"),
    ("unsigned char", "unsigned short"),
    ("long long", "int"),
    ("__u8", "__u16"), ("__u16", "__u32"), ("__u32", "__u64"), ("__u64", "__u32"),
    ("__s8", "__s16"), ("__s16", "__s32"), ("__s32", "__s64"), ("__s64", "__s32"),
    ("__be16", "__be32"), ("__be32", "__be64"), ("__be64", "__be32"),
    ("__le16", "__le32"), ("__le32", "__le64"), ("__le64", "__le32"),
    ("int", "long long"), ("short", "int"), ("char", "short"), ("long", "int"),
]

IDENT = r"[A-Za-z_]\w*"
DIRECTIVE = re.compile(r"^\s*#\s*(\w+)")
STRUCT_OPEN = re.compile(r"^(struct|union)\s+(" + IDENT + r")\s*\{\s*(/\*.*\*/\s*)?$")
ENUM_OPEN = re.compile(r"^enum(\s+(" + IDENT + r"))?\s*\{\s*(/\*.*\*/\s*)?$")
CLOSE = re.compile(r"^\}\s*(__attribute__\s*\(\(.*\)\)\s*)?;\s*(/\*.*\*/\s*)?$")
# a simple member: TYPE NAME[ARRAY]; with an optional trailing comment
MEMBER = re.compile(r"^(\s+)((?:(?:const|volatile|signed|unsigned|struct|union|enum)\s+)*"
                    + IDENT + r"(?:\s+(?:int|long|char|short))*)(\s+\**\s*)(" + IDENT +
                    r")((?:\[[^\]]*\])*)\s*;\s*(/\*.*\*/\s*|//.*)?$")
ENUMC = re.compile(r"^(\s+)(" + IDENT + r")(\s*=\s*[^,/]+?)?\s*(,)?\s*(/\*.*\*/\s*|//.*)?$")
MACRO = re.compile(r"^#\s*define\s+(" + IDENT + r")(\s+)(\(?\s*)(0[xX][0-9a-fA-F]+|[0-9]+)"
                   r"([uUlL]*)(\s*\)?)(\s*(/\*.*\*/)?\s*)$")
TYPEDEF = re.compile(r"^typedef\s+(.*?)\s+(" + IDENT + r")\s*;\s*(/\*.*\*/\s*)?$")


def scalar_retype(t):
    """A different-sized spelling of scalar type t, or None."""
    for old, new in RETYPE:
        m = re.match(r"^((?:const\s+|volatile\s+|signed\s+)*)" + re.escape(old) + r"$", t)
        if m:
            return m.group(1) + new
    return None


class Header:
    def __init__(self, rel, text):
        self.rel = rel
        self.lines = text.split("\n")
        self.text = text
        self.guard_end = None  # index of the guard's #endif
        self.items = []  # (kind, data)
        self.scan()

    def scan(self):
        lines = self.lines
        # include guard: first directive #ifndef X, next #define X, matching #endif last
        first = None
        for i, l in enumerate(lines):
            m = DIRECTIVE.match(l)
            if m:
                first = i
                break
        guard = False
        if first is not None:
            m = re.match(r"^\s*#\s*ifndef\s+(\w+)", lines[first])
            if m and first + 1 < len(lines) and re.match(
                    r"^\s*#\s*define\s+" + re.escape(m.group(1)) + r"\b", lines[first + 1]):
                guard = True
        depth = 0
        depth_ok = 1 if guard else 0
        i = 0
        n = len(lines)
        in_comment = False
        while i < n:
            l = lines[i]
            if in_comment:
                if "*/" in l:
                    in_comment = False
                i += 1
                continue
            if l.lstrip().startswith("/*") and "*/" not in l:
                in_comment = True
                i += 1
                continue
            m = DIRECTIVE.match(l)
            if m:
                d = m.group(1)
                if d in ("if", "ifdef", "ifndef"):
                    depth += 1
                elif d == "endif":
                    depth -= 1
                    if guard and depth == 0:
                        self.guard_end = i
                elif d == "define" and depth == depth_ok:
                    mm = MACRO.match(l)
                    if mm and not l.rstrip().endswith("\\"):
                        self.items.append(("macro", (i, mm)))
                i += 1
                continue
            if depth != depth_ok:
                i += 1
                continue
            m = STRUCT_OPEN.match(l)
            if m:
                j = self.block_end(i)
                if j is not None:
                    self.items.append(("struct", (i, j, m.group(1), m.group(2))))
                    i = j + 1
                    continue
            m = ENUM_OPEN.match(l)
            if m:
                j = self.block_end(i)
                if j is not None:
                    self.items.append(("enum", (i, j, m.group(2))))
                    i = j + 1
                    continue
            m = TYPEDEF.match(l)
            if m and "(" not in l and "{" not in l and "[" not in l:
                self.items.append(("typedef", (i, m)))
            i += 1

    def block_end(self, i):
        """Index of the line closing the block opened on line i (a top-level
        `};`), or None when the body has directives or nested top-level text."""
        lines = self.lines
        depth = 0
        for j in range(i, len(lines)):
            l = lines[j]
            if DIRECTIVE.match(l):
                return None
            code = re.sub(r"/\*.*?\*/|//.*", "", l)
            depth += code.count("{") - code.count("}")
            if depth == 0:
                return j if CLOSE.match(l) else None
        return None

    def members(self, i, j):
        """Members of the struct on lines i..j (j closes it): (line, match), match None
        for a line that is not a simple member; only at brace depth 1."""
        out = []
        depth = 0
        in_comment = False
        for k in range(i, j):
            l = self.lines[k]
            code = re.sub(r"/\*.*?\*/|//.*", "", l)
            if in_comment:
                if "*/" in l:
                    in_comment = False
                continue
            if "/*" in code:
                in_comment = True
                code = code[:code.index("/*")]
            if depth == 1 and k > i:
                m = MEMBER.match(l)
                if m and ":" not in code and "," not in code:
                    out.append((k, m))
                elif code.strip():
                    out.append((k, None))  # something else: counts for positions
            depth += code.count("{") - code.count("}")
        return out

    def used_in_code(self, name):
        return re.search(r"(->|\.)\s*" + re.escape(name) + r"\b", self.text) is not None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--manifest")
    ap.add_argument("src")
    ap.add_argument("dst")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.src, "include")):
        sys.exit("api-oracle-plant: %s has no include/ directory" % a.src)
    if os.path.exists(a.dst):
        sys.exit("api-oracle-plant: %s exists; give a new directory" % a.dst)
    manifest = a.manifest or os.path.join(
        os.path.dirname(os.path.abspath(a.dst)), os.path.basename(os.path.abspath(a.dst)) + ".planted.tsv")
    shutil.copytree(os.path.join(a.src, "include"), os.path.join(a.dst, "include"), symlinks=True)
    inc = os.path.join(a.dst, "include")
    rels = []
    for root, dirs, files in os.walk(inc):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".h"):
                rels.append(os.path.relpath(os.path.join(root, f), inc))
    rels.sort()
    rng = random.Random(a.seed)
    headers = {}
    for rel in rels:
        if EXCLUDE.match(rel):
            continue
        with open(os.path.join(inc, rel), encoding="utf-8", errors="surrogateescape") as f:
            headers[rel] = Header(rel, f.read())

    scale = a.count / sum(q for _, q in QUOTAS)
    quotas = [(k, max(1, round(q * scale))) for k, q in QUOTAS]

    # candidates per kind: (rel, ...) lists in a fixed order
    structs, enums, macros, typedefs = [], [], [], []
    for rel in sorted(headers):
        h = headers[rel]
        for kind, d in h.items:
            if kind == "struct":
                structs.append((rel, d))
            elif kind == "enum":
                enums.append((rel, d))
            elif kind == "macro":
                macros.append((rel, d))
            elif kind == "typedef":
                typedefs.append((rel, d))
    rng.shuffle(structs)
    rng.shuffle(enums)
    rng.shuffle(macros)
    rng.shuffle(typedefs)

    # edits: per header, line index -> replacement list of lines (None: delete)
    edits = {}  # rel -> {line: [lines]}
    inserts = {}  # rel -> {line: [lines to insert before]}
    planted = []
    used = set()  # (rel, symbol)
    seq = [0]

    def nextid():
        seq[0] += 1
        return seq[0]

    def busy(rel, lines):
        e = edits.get(rel, {})
        ins = inserts.get(rel, {})
        return any(k in e or k in ins for k in lines)

    def take(kind, want):
        got = 0
        if kind.startswith(("member", "array")):
            pool = structs
        elif kind == "enum-insert":
            pool = enums
        elif kind == "macro-value":
            pool = macros
        elif kind == "typedef":
            pool = typedefs
        else:
            pool = None
        if kind == "new-struct":
            cands = [r for r in sorted(headers) if headers[r].guard_end is not None]
            rng.shuffle(cands)
            for rel in cands:
                if got >= want:
                    break
                if any(p[0] == rel and p[1] == "new-struct" for p in planted):
                    continue
                n = nextid()
                h = headers[rel]
                name = "planted_new_%d" % n
                body = ["", "struct %s {" % name, "\t__u32 planted_a;", "\t__u64 planted_b;", "};", ""]
                if not re.search(r"#\s*include\s*<linux/types\.h>", h.text) and "__u32" not in h.text:
                    body = ["", "struct %s {" % name, "\tunsigned int planted_a;",
                            "\tunsigned long long planted_b;", "};", ""]
                inserts.setdefault(rel, {}).setdefault(h.guard_end, []).extend(body)
                planted.append((rel, kind, "struct " + name, "new struct with 2 members"))
                got += 1
            return got
        for cand in pool:
            if got >= want:
                break
            rel, d = cand
            h = headers[rel]
            if kind == "macro-value":
                i, m = d
                sym = m.group(1)
                if (rel, sym) in used or busy(rel, [i]):
                    continue
                # skip macros used in #if arithmetic of this header (keep it compiling)
                if re.search(r"#\s*(el)?if.*\b" + re.escape(sym) + r"\b", h.text):
                    continue
                lit = m.group(4)
                if lit.lower().startswith("0x"):
                    v = int(lit, 16)
                    nv = v + 0x10 if v < 0x7fff0000 else v - 0x10
                    nlit = "0x%x" % nv
                else:
                    v = int(lit, 8) if len(lit) > 1 and lit.startswith("0") else int(lit)
                    nv = v + 3 if v < 2**31 - 8 else v - 3
                    nlit = str(nv)
                l = h.lines[i]
                new = l[:m.start(4)] + nlit + l[m.end(4):]
                edits.setdefault(rel, {})[i] = [new]
                used.add((rel, sym))
                planted.append((rel, kind, sym, "%s -> %s" % (lit, nlit)))
                got += 1
            elif kind == "typedef":
                i, m = d
                sym = m.group(2)
                if (rel, sym) in used or busy(rel, [i]):
                    continue
                base = m.group(1)
                toks = base.split()
                bitwise = "__bitwise" in toks
                core = " ".join(t for t in toks if t != "__bitwise")
                nt = scalar_retype(core)
                if nt is None:
                    continue
                l = h.lines[i]
                newbase = nt + (" __bitwise" if bitwise else "")
                new = l[:m.start(1)] + newbase + l[m.end(1):]
                edits.setdefault(rel, {})[i] = [new]
                used.add((rel, sym))
                planted.append((rel, kind, sym, "%s -> %s" % (base, newbase)))
                got += 1
            elif kind == "enum-insert":
                i, j, name = d
                sym = "enum " + name if name else "enum"
                key = (rel, "enum@%d" % i)
                if key in used or busy(rel, range(i, j + 1)):
                    continue
                consts = []
                for k in range(i + 1, j):
                    mm = ENUMC.match(h.lines[k])
                    if mm:
                        consts.append((k, mm))
                if len(consts) < 2:
                    continue
                # the last constant must end with a comma (or we add one) to append after it
                pos = rng.randrange(1, len(consts) + 1)
                n = nextid()
                cname = "PLANTED_ENUM_%d" % n
                indent = consts[0][1].group(1)
                if pos == len(consts):
                    k, mm = consts[-1]
                    l = h.lines[k]
                    if not mm.group(4):
                        cut = mm.end(3) if mm.group(3) else mm.end(2)
                        edits.setdefault(rel, {})[k] = [l[:cut] + "," + l[cut:]]
                    inserts.setdefault(rel, {}).setdefault(j, []).append(indent + cname + ",")
                    where = "at the end, after " + mm.group(2)
                else:
                    k, mm = consts[pos]
                    inserts.setdefault(rel, {}).setdefault(k, []).append(indent + cname + ",")
                    where = "before " + mm.group(2)
                used.add(key)
                planted.append((rel, kind, sym, "%s inserted %s" % (cname, where)))
                got += 1
            else:
                i, j, su, name = d
                sym = "%s %s" % (su, name)
                if (rel, sym) in used or busy(rel, range(i, j + 1)):
                    continue
                mems = h.members(i, j)
                simple = [(k, m) for k, m in mems if m is not None]
                if not simple:
                    continue
                if kind == "member-type":
                    c = [(k, m) for k, m in simple if not m.group(3).strip() and scalar_retype(m.group(2))]
                    if not c:
                        continue
                    k, m = rng.choice(c)
                    nt = scalar_retype(m.group(2))
                    l = h.lines[k]
                    edits.setdefault(rel, {})[k] = [l[:m.start(2)] + nt + l[m.end(2):]]
                    detail = "member %s: %s -> %s" % (m.group(4), m.group(2), nt)
                elif kind == "array-size":
                    c = [(k, m) for k, m in simple if re.fullmatch(r"\[\d+\]", m.group(5) or "")
                         and int(m.group(5)[1:-1]) > 0]
                    if not c:
                        continue
                    k, m = rng.choice(c)
                    old = int(m.group(5)[1:-1])
                    l = h.lines[k]
                    edits.setdefault(rel, {})[k] = [l[:m.start(5)] + "[%d]" % (old + 4) + l[m.end(5):]]
                    detail = "member %s: [%d] -> [%d]" % (m.group(4), old, old + 4)
                elif kind in ("member-del-end", "member-del-mid"):
                    if len(mems) < 3:
                        continue
                    if kind == "member-del-end":
                        k, m = mems[-1]
                        if m is None:
                            continue
                    else:
                        c = [(k, m) for k, m in mems[1:-1] if m is not None]
                        if not c:
                            continue
                        k, m = rng.choice(c)
                    if h.used_in_code(m.group(4)) or (m.group(5) or "") == "[]":
                        continue
                    edits.setdefault(rel, {})[k] = []
                    detail = "member %s removed (was %s %s%s%s)" % (
                        m.group(4), m.group(2), m.group(3).strip(), m.group(4), m.group(5) or "")
                else:  # member-add-end, member-add-mid
                    n = nextid()
                    mname = "planted_m%d" % n
                    indent = simple[0][1].group(1)
                    if "__u32" in h.text or re.search(r"#\s*include\s*<linux/types\.h>", h.text):
                        mtype = "__u32"
                    else:
                        mtype = "unsigned int"
                    line = "%s%s %s;" % (indent, mtype, mname)
                    if kind == "member-add-end":
                        # not after a flexible array
                        k, m = mems[-1]
                        if m is not None and (m.group(5) or "").endswith("[]"):
                            continue
                        if m is not None and (m.group(5) or "").endswith("[0]"):
                            continue
                        inserts.setdefault(rel, {}).setdefault(j, []).append(line)
                        detail = "member %s %s appended" % (mtype, mname)
                    else:
                        if len(mems) < 2:
                            continue
                        idx = rng.randrange(1, len(mems))
                        k, m = mems[idx]
                        inserts.setdefault(rel, {}).setdefault(k, []).append(line)
                        detail = "member %s %s inserted before line %d of the struct" % (mtype, mname, idx + 1)
                used.add((rel, sym))
                planted.append((rel, kind, sym, detail))
                got += 1
        return got

    for kind, want in quotas:
        got = take(kind, want)
        if got < want:
            print("api-oracle-plant: only %d of %d %s edits found room" % (got, want, kind), file=sys.stderr)

    for rel in sorted(set(edits) | set(inserts)):
        h = headers[rel]
        e = edits.get(rel, {})
        ins = inserts.get(rel, {})
        out = []
        for k, l in enumerate(h.lines):
            out.extend(ins.get(k, []))
            if k in e:
                out.extend(e[k])
            else:
                out.append(l)
        path = os.path.join(inc, rel)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("\n".join(out))
    with open(manifest, "w") as f:
        for p in sorted(planted):
            f.write("\t".join(p) + "\n")
    print("api-oracle-plant: %d edits in %d headers; manifest %s" % (
        len(planted), len(set(p[0] for p in planted)), manifest), file=sys.stderr)


if __name__ == "__main__":
    main()
