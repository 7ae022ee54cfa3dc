#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layout oracle: uapid's layouts against the C compiler's.

    api-layout-oracle.py [--uapid PATH] [--cc CC] [--jobs N] [--abi ABI]
                         [--keep DIR] [--list] [--cache DIR] INSTALLED...

For each installed-headers directory (INSTALL_HDR_PATH, with include/):

1. `uapid api-layout --json --abi ABI DIR`: the engine's size and
   alignment of every struct and union, and the offset and size of each
   named member (bits), as uapid api-diff uses them.
2. Every header that compiles alone the way `uapid check` compiles
   headers (cc -std=c90 -Wall -Werror=implicit-function-declaration
   -I DIR/include, the header included into an empty file) gets a probe;
   one that does not is tried with -std=gnu11, then after the kernel's
   headers it uses without including them (linux/types.h, asm/signal.h,
   asm/sigcontext.h, linux/if.h, linux/socket.h, linux/time.h), then after
   libc's (stddef.h, stdint.h, sys/types.h, time.h, sys/time.h; then also
   sys/socket.h, netinet/in.h, signal.h), and probed in the first mode
   that compiles (reported apart):
   a C program that includes it and prints sizeof, __alignof__ and
   offsetof of each of its structs and unions and each named member (a
   bit-field's offset and width found by setting it to all ones in a
   zeroed object), compiled with the same flags and run.  Types are
   probed in the header that defines them.
3. The two are compared, number by number.

Reported: the types compared and how many agree (types and members), each
disagreement, the types the engine does not know in a header that
compiles alone, and the headers that do not compile alone (not probed).
A type under a condition the target leaves open ("#ifndef
VIRTIO_NET_NO_LEGACY") is compared as the header alone reads it when the
compiler reads its definition there (uapid lays out such members the same
way), listed otherwise.  Also every "struct NAME {" or "union NAME {" the
compiler reads in a header (its active branches, after expansion) the
engine has no type for.  Exit 0 when everything compared agrees and the
engine knows every type of the headers that compile alone; 1 otherwise;
2 on usage errors; 77 when the compiler cannot run probes for ABI.

Only native probes run: the ABI must be the host's (x86_64 on x86-64).

--cache DIR (default $UD_CACHE): the compiler's answers for each
header are kept, keyed by everything they depend on (the installed set's
files, the compiler's identity, this script, the ABI, and the types uapid
asked about in that header), so that a run on unchanged headers compiles
only what uapid's model changed; uapid's side is computed every run.
They are in DIR/layout-oracle; never required, delete it to compile
everything again.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["-std=c90", "-Wall", "-Werror=implicit-function-declaration"]
# How a header that does not compile alone is compiled after all, tried in
# order (as bench/api-oracle.sh does): GNU C11, then libc's headers first.
LIBC = ["stddef.h", "stdint.h", "sys/types.h", "time.h", "sys/time.h"]
# what the uapi headers that do not include their own prerequisites need
# from each other (sigset_t, struct sigcontext, IFNAMSIZ, struct sockaddr)
KERNEL = ["linux/types.h", "asm/signal.h", "asm/sigcontext.h", "linux/if.h", "linux/socket.h",
          "linux/time.h"]
GNU11 = ["-std=gnu11", "-Wall", "-Werror=implicit-function-declaration"]
MODES = [
    ("alone", FLAGS, []),
    ("gnu11", GNU11, []),
    ("c90 after the kernel's headers", FLAGS, KERNEL),
    ("gnu11 after the kernel's headers", GNU11, KERNEL),
    ("gnu11 after libc headers", ["-std=gnu11", "-Wall", "-Werror=implicit-function-declaration"],
     LIBC),
    ("gnu11 after libc and socket headers",
     ["-std=gnu11", "-Wall", "-Werror=implicit-function-declaration"],
     LIBC + ["sys/socket.h", "netinet/in.h", "signal.h"]),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def c_name(t):
    """How C code names the type: 'struct (typedef foo_t)' is foo_t."""
    m = re.match(r"^(struct|union) \(typedef (\w+)\)$", t["name"])
    return m.group(2) if m else t["name"]


def prelude(mode):
    return "".join("#include <%s>\n" % x for x in mode[2])


def compiles(cc, inc, header, work, mode):
    src = os.path.join(work, "alone-%s.c" % re.sub(r"\W", "_", header))
    with open(src, "w") as f:
        f.write(prelude(mode) + "#include <%s>\n" % header)
    r = sh([cc] + mode[1] + ["-I", inc, "-fsyntax-only", src])
    return r.returncode == 0, r.stderr


def probe_source(header, types, mode):
    out = ["#include <%s>" % x for x in mode[2]] + [
           "#include <%s>" % header, "#include <stdio.h>", "#include <stddef.h>",
           "#include <string.h>", "",
           "static void bits(const char *t, const char *p, const unsigned char *b, size_t n)",
           "{", "\tsize_t i, first = (size_t)-1, last = 0;", "",
           "\tfor (i = 0; i < n * 8; i++)",
           "\t\tif (b[i / 8] & (1u << (i % 8))) {",
           "\t\t\tif (first == (size_t)-1)", "\t\t\t\tfirst = i;", "\t\t\tlast = i;", "\t\t}",
           '\tprintf("F\\t%s\\t%s\\t%lu\\t%lu\\n", t, p, (unsigned long)first,',
           "\t       (unsigned long)(last - first + 1));", "}", ""]
    # a member's name may be a macro the header defines after the struct
    # (phonet.h's "#define pn_data pn_msg_u.base.pn_data"): not here
    names = sorted({c for t in types for f in t["fields"] for c in f["path"].split(".")})
    for n in names:
        out += ["#ifdef %s" % n, "#undef %s" % n, "#endif"]
    out += ["int", "main(void)", "{"]
    for t in types:
        cn = c_name(t)
        out.append('\tprintf("S\\t%s\\t%%lu\\t%%lu\\n", (unsigned long)sizeof(%s), '
                   "(unsigned long)__alignof__(%s));" % (t["name"], cn, cn))
        for f in t["fields"]:
            if f.get("bitfield"):
                out.append("\t{")
                out.append("\t\t%s x;" % cn)
                out.append("\t\tmemset(&x, 0, sizeof(x));")
                out.append("\t\tx.%s = ~0;" % f["path"])
                out.append('\t\tbits("%s", "%s", (const unsigned char *)&x, sizeof(x));'
                           % (t["name"], f["path"]))
                out.append("\t}")
            elif f.get("flexible") and f["size_bits"] == 0:
                # sizeof of a flexible array is an error: its size is 0 by definition
                out.append('\tprintf("F\\t%s\\t%s\\t%%lu\\t0\\n", '
                           "(unsigned long)offsetof(%s, %s) * 8);"
                           % (t["name"], f["path"], cn, f["path"]))
            else:
                out.append('\tprintf("F\\t%s\\t%s\\t%%lu\\t%%lu\\n", '
                           "(unsigned long)offsetof(%s, %s) * 8, "
                           "(unsigned long)sizeof(((%s *)0)->%s) * 8);"
                           % (t["name"], f["path"], cn, f["path"], cn, f["path"]))
    out += ["\treturn 0;", "}", ""]
    return "\n".join(out)


def run_probe(cc, inc, header, types, work, mode):
    base = os.path.join(work, "probe-%s" % re.sub(r"\W", "_", header))
    with open(base + ".c", "w") as f:
        f.write(probe_source(header, types, mode))
    r = sh([cc] + mode[1] + ["-Wno-unused", "-I", inc, "-o", base, base + ".c"])
    if r.returncode != 0:
        return None, r.stderr
    r = sh([base])
    if r.returncode != 0:
        return None, "probe exited %d" % r.returncode
    return r.stdout, ""


def active_text(cc, inc, header, work, mode):
    """The header's own lines as the compiler reads them (alone, or in the
    mode it compiles in): inactive branches dropped, comments gone (cpp
    with its line markers)."""
    src = os.path.join(work, "active-%s.c" % re.sub(r"\W", "_", header))
    with open(src, "w") as f:
        f.write(prelude(mode) + "#include <%s>\n" % header)
    r = sh([cc, "-E"] + mode[1][:1] + ["-I", inc, src])
    own, mine = [], False
    target = os.path.join(inc, header)
    for line in r.stdout.splitlines():
        m = re.match(r'^# \d+ "([^"]*)"', line)
        if m:
            mine = os.path.normpath(m.group(1)) == os.path.normpath(target)
            continue
        if mine:
            own.append(line)
    return "\n".join(own)


def expanded_names(cc, inc, header, work, mode, names):
    """The type names as the compiler reads them after the header: macros
    expanded."""
    src = os.path.join(work, "names-%s.c" % re.sub(r"\W", "_", header))
    with open(src, "w") as f:
        f.write(prelude(mode) + "#include <%s>\n" % header)
        for n in names:
            if not n.startswith(("struct (", "union (")):
                f.write("@uapid@ %s\n" % n)
    r = sh([cc, "-E", "-P"] + mode[1][:1] + ["-I", inc, src])
    return {" ".join(line.split()[1:]) for line in r.stdout.splitlines()
            if line.startswith("@uapid@")}


def first_error(err):
    for line in err.splitlines():
        if "error" in line:
            return line.split("error: ", 1)[-1].strip()
    return err.strip().splitlines()[0] if err.strip() else "?"


def defined_in(t, text):
    """Whether the compiler reads type t's definition in a header's active
    text: a type under a condition the target leaves open ("#ifndef
    VIRTIO_NET_NO_LEGACY") is compared as the header alone reads it."""
    m = re.match(r"^(struct|union) \(typedef (\w+)\)$", t["name"])
    if m:
        return re.search(r"\}[^;{}]*\b%s\s*;" % m.group(2), text) is not None
    kind, _, tag = t["name"].partition(" ")
    return re.search(r"\b%s\s+%s\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?\{"
                     % (kind, re.escape(tag)), text) is not None


def set_digest(inc):
    """sha256 of an installed set: every file's path and content."""
    h = hashlib.sha256()
    for dp, dirs, fs in os.walk(inc):
        dirs.sort()
        for f in sorted(fs):
            p = os.path.join(dp, f)
            h.update(os.path.relpath(p, inc).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read() + b"\0")
    return h.hexdigest()


class Cache:
    """The compiler's answers for one installed set, one JSON file:
    header -> [key of the types probed, mode, probe output, error, text]."""

    def __init__(self, top, cc, abi, inc):
        self.path = None
        self.entries = {}
        if not top:
            return
        h = hashlib.sha256()
        with open(os.path.abspath(__file__), "rb") as f:
            h.update(f.read())
        cc_id = sh([cc, "--version"]).stdout + sh([cc, "-dumpmachine"]).stdout
        h.update(("\0%s\0%s\0%s" % (cc_id, abi, set_digest(inc))).encode())
        self.path = os.path.join(top, "layout-oracle", h.hexdigest() + ".json")
        try:
            with open(self.path) as f:
                self.entries = json.load(f)
        except (OSError, ValueError):
            self.entries = {}
        self.hits = 0

    @staticmethod
    def key(types):
        return hashlib.sha256(json.dumps(types, sort_keys=True).encode()).hexdigest()

    def get(self, h, key):
        e = self.entries.get(h)
        if self.path is None or e is None or e[0] != key:
            return None
        mode = next((m for m in MODES if m[0] == e[1]), None) if e[1] is not None else None
        if e[1] is not None and mode is None:
            return None
        self.hits += 1
        return h, mode, e[2], e[3], e[4]

    def put(self, h, key, mode, out, err, text):
        if self.path is not None:
            self.entries[h] = [key, mode[0] if mode else None, out, err, text]

    def save(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = "%s.%d.tmp" % (self.path, os.getpid())
        with open(tmp, "w") as f:
            json.dump(self.entries, f)
        os.replace(tmp, self.path)


DEFINITION = re.compile(r"\b(struct|union)\s+([A-Za-z_]\w*)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?\{")


def check_dir(args, d, work):
    inc = os.path.join(d, "include")
    if not os.path.isdir(inc):
        inc = d
    r = sh([args.uapid, "api-layout", "--json", "--abi", args.abi, d])
    if r.returncode != 0:
        sys.exit("api-layout-oracle: uapid api-layout failed on %s: %s" % (d, r.stderr))
    model = json.loads(r.stdout)
    by_header = {}
    for t in model["types"]:
        if t["kind"] in ("struct", "union"):
            by_header.setdefault(t["header"], []).append(t)
    unknown = {}
    for u in model["unknown"]:
        if u["name"].startswith(("struct", "union")):
            unknown.setdefault(u["header"], []).append(u)
    headers = sorted(os.path.relpath(os.path.join(dp, f), inc)
                     for dp, _, fs in os.walk(inc) for f in fs if f.endswith(".h"))

    cache = Cache(args.cache, args.cc, args.abi, inc)

    def one(h):
        key = Cache.key(by_header.get(h, []))
        got = cache.get(h, key)
        if got is not None:
            return got
        got = probe_header(h)
        cache.put(h, key, *got[1:])
        return got

    def probe_header(h):
        for mode in MODES:
            ok, err = compiles(args.cc, inc, h, work, mode)
            if ok:
                break
        if not ok:
            return h, None, None, err, ""
        text = active_text(args.cc, inc, h, work, mode)
        types = [t for t in by_header.get(h, []) if not t["cond"] or defined_in(t, text)]
        if not types:
            return h, mode, "", "", text
        out, err = run_probe(args.cc, inc, h, types, work, mode)
        return h, mode, out, err, text

    res = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for h, mode, out, err, text in ex.map(one, headers):
            res[h] = (mode, out, err, text)
    cache.save()
    if cache.path is not None:
        print("%s: the compiler's answers for %d of %d headers from the cache %s"
              % (d, cache.hits, len(headers), cache.path))

    rep = {"dir": d, "headers": len(headers), "alone": 0, "not_alone": [], "modes": {},
           "not_compiled": [],
           "types": 0, "types_agree": 0, "fields": 0, "fields_agree": 0,
           "mismatches": [], "engine_unknown": [], "conditional": [],
           "conditional_compared": [], "probe_failed": [], "missed_definitions": []}
    for h in headers:
        mode, out, err, text = res[h]
        if mode is None:
            rep["not_alone"].append(h)
            rep["not_compiled"].append("%s: %s" % (h, first_error(err)))
            continue
        if mode is MODES[0]:
            rep["alone"] += 1
        else:
            rep["not_alone"].append(h)
            rep["modes"].setdefault(mode[0], []).append(h)
        for u in unknown.get(h, []):
            if u["cond"] and not defined_in(u, text):
                rep["conditional"].append("%s: %s [if %s]" % (h, u["name"], u["cond"]))
            else:
                rep["engine_unknown"].append("%s: %s" % (h, u["name"]))
        for t in by_header.get(h, []):
            if t["cond"]:
                rep["conditional_compared" if defined_in(t, text) else "conditional"].append(
                    "%s: %s [if %s]" % (h, t["name"], t["cond"]))
        known = {t["name"] for t in by_header.get(h, [])} | \
            {u["name"] for u in unknown.get(h, [])}
        missed = [n for n in ("%s %s" % (m.group(1), m.group(2))
                              for m in DEFINITION.finditer(text)) if n not in known]
        if missed:
            # a tag written as a macro (asound.h's "struct __snd_pcm_mmap_status"
            # is struct snd_pcm_mmap_status): the engine's name, expanded
            spelled = expanded_names(args.cc, inc, h, work, mode, sorted(known))
            missed = [n for n in missed if n not in spelled]
        rep["missed_definitions"] += ["%s: %s" % (h, n) for n in missed]
        if out is None:
            rep["probe_failed"].append("%s: %s" % (h, err.strip().splitlines()[:3]))
            continue
        seen = {}
        for line in out.splitlines():
            p = line.split("\t")
            if p[0] == "S":
                seen[(p[1], None)] = (int(p[2]), int(p[3]))
            else:
                seen[(p[1], p[2])] = (int(p[3]), int(p[4]))
        for t in by_header.get(h, []):
            if t["cond"] and not defined_in(t, text):
                continue
            rep["types"] += 1
            bad = []
            got = seen.get((t["name"], None))
            if got != (t["size"], t["align"]):
                bad.append("size/align %s/%s, cc %s" % (t["size"], t["align"], got))
            for f in t["fields"]:
                rep["fields"] += 1
                g = seen.get((t["name"], f["path"]))
                if g != (f["offset_bits"], f["size_bits"]):
                    bad.append("%s at bit %d size %d, cc %s" % (f["path"], f["offset_bits"],
                                                               f["size_bits"], g))
                else:
                    rep["fields_agree"] += 1
            if bad:
                rep["mismatches"].append("%s: %s: %s" % (h, t["name"], "; ".join(bad[:4])))
            else:
                rep["types_agree"] += 1
    return rep


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uapid", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "..", "build", "src", "uapid"))
    ap.add_argument("--cc", default=os.environ.get("CC") or "cc")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--abi", default="x86_64")
    ap.add_argument("--keep", help="write the probes here and keep them")
    ap.add_argument("--list", action="store_true", help="list every exception in full")
    ap.add_argument("--json", help="write the report as JSON here")
    ap.add_argument("--cache", default=os.environ.get("UD_CACHE") or None,
                    help="keep the compiler's answers in DIR/layout-oracle (default: $UD_CACHE)")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    if shutil.which(args.cc) is None:
        print("api-layout-oracle: %s not found" % args.cc, file=sys.stderr)
        return 77
    machine = os.uname().machine
    native = {"x86_64": ("x86_64",), "aarch64": ("arm64",), "riscv64": ("riscv64",)}
    if args.abi not in native.get(machine, ()):
        print("api-layout-oracle: probes run natively; %s is not this machine's ABI (%s)"
              % (args.abi, machine), file=sys.stderr)
        return 77
    work = args.keep or tempfile.mkdtemp(prefix="api-layout-oracle.")
    os.makedirs(work, exist_ok=True)
    reports = []
    status = 0
    try:
        for d in args.dirs:
            rep = check_dir(args, os.path.abspath(d), work)
            reports.append(rep)
            print("%s:" % d)
            print("  headers: %d, compile alone: %d (not: %d)"
                  % (rep["headers"], rep["alone"], len(rep["not_alone"])))
            for mode in MODES[1:]:
                hs = rep["modes"].get(mode[0], [])
                if hs:
                    print("    compiled with %s instead: %d (%s)"
                          % (mode[0], len(hs), ", ".join(hs)))
            print("    not compiled at all: %d" % len(rep["not_compiled"]))
            for x in rep["not_compiled"]:
                print("      " + x)
            print("  structs and unions compared: %d, agree: %d (%.1f%%)"
                  % (rep["types"], rep["types_agree"],
                     100.0 * rep["types_agree"] / rep["types"] if rep["types"] else 100.0))
            print("  members compared: %d, agree: %d"
                  % (rep["fields"], rep["fields_agree"]))
            for key, what in (("mismatches", "disagreements"),
                              ("engine_unknown", "layouts uapid does not know"),
                              ("missed_definitions", "definitions uapid did not read"),
                              ("probe_failed", "probes that failed"),
                              ("conditional_compared", "under conditions the target leaves "
                                                       "open, compared as the header alone "
                                                       "reads them"),
                              ("conditional", "under conditions the target leaves open, not "
                                              "read by the compiler alone (not compared)")):
                v = rep[key]
                print("  %s: %d" % (what, len(v)))
                for x in (v if args.list or not key.startswith("conditional") else v[:5]):
                    print("    " + x)
            if rep["mismatches"] or rep["engine_unknown"] or rep["probe_failed"] or \
                    rep["missed_definitions"] or rep["types_agree"] != rep["types"]:
                status = 1
        if args.json:
            with open(args.json, "w") as f:
                json.dump(reports, f, indent=1)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
