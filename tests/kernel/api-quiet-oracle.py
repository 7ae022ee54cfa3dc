#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The diff's shortcut against resolving every symbol (src/api/api-quiet.c).

    api-quiet-oracle.py --uapid PATH [--seeds N] WORK OLD-TREE NEW-TREE

A diff leaves as read the symbols it finds it cannot see change (same text,
nothing they name changed, #includes in place); UAPID_RESOLVE_ALL=1 makes it
resolve every symbol, as before.  Both must report the same changes, but for
one kind: a value of the same text that one version computed on the way and
the other not ("same expression ... (what it names is compared on its
own)"), which the shortcut no longer reports.  Compared, each with and
without the shortcut, on each ABI below and in both directions:
  - OLD -> NEW, the two trees installed for the ABI's architecture;
  - NEW against NEW with planted edits (bench/api-oracle-plant.py: seeds 1 to
    N, 30 and 300 edits each: struct members added, removed, retyped, enum
    constants, macros, new structs), where most headers are the same and
    changes must be found through the types and macros that use them;
  - `api-diff --arch all OLD NEW`, every architecture at once.
Exit 0 when every report made with the shortcut is the other's, but for
such lines; 1 otherwise, each difference printed; 2 on usage errors.
"""
import argparse
import json
import os
import subprocess
import sys

# an ABI of each kind of layout: LP64 and ILP32, both byte orders, arm's and m68k's
# bit-fields, the architectures whose macros rename tags (sound/asound.h's time64)
ABIS = [("x86", "x86_64"), ("x86", "i386"), ("arm", "arm"), ("arm64", "arm64"),
        ("mips", "mips-o32"), ("powerpc", "powerpc"), ("s390", "s390x"),
        ("riscv", "riscv32"), ("sparc", "sparc64"), ("m68k", "m68k")]
ARTIFACT = "same expression '"


def api_diff(uapid, args, every):
    env = dict(os.environ, UAPID_RESOLVE_ALL="1" if every else "0")
    p = subprocess.run([uapid, "api-diff", "--json"] + args, env=env,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("api-quiet-oracle: uapid api-diff %s: exit %d\n%s" %
                 (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def key(change, drop=()):
    return json.dumps({k: v for k, v in change.items() if k not in drop}, sort_keys=True)


def compare(what, quick, full, drop=()):
    """The problems of quick (the shortcut) against full: [] when none."""
    q = {key(c, drop): c for c in quick["changes"]}
    f = {key(c, drop): c for c in full["changes"]}
    bad = []
    for k in sorted(set(q) - set(f)):
        bad.append("%s: only with the shortcut: %s" % (what, k))
    for k in sorted(set(f) - set(q)):
        c = f[k]
        if not (c.get("verdict") == "compatible" and c.get("reason", "").startswith(ARTIFACT)):
            bad.append("%s: lost by the shortcut: %s" % (what, k))
    return bad, len(f) - len(set(f) & set(q))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--uapid", required=True)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("work")
    ap.add_argument("old")
    ap.add_argument("new")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    plant = os.path.join(here, "..", "..", "bench", "api-oracle-plant.py")
    inst = {}
    for side, tree in (("old", a.old), ("new", a.new)):
        inst[side] = os.path.join(a.work, side)
        p = subprocess.run([a.uapid, "install", "--arch", "all", "--quiet", tree, inst[side]],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit("api-quiet-oracle: uapid install --arch all %s: exit %d\n%s" %
                     (tree, p.returncode, p.stderr))
    problems, pairs, gone = [], 0, 0
    planted = {}
    for arch, abi in ABIS:
        new_arch = os.path.join(inst["new"], arch)
        runs = [("%s %s: old -> new" % (abi, arch), os.path.join(inst["old"], arch), new_arch)]
        for seed in range(1, a.seeds + 1):
            for count in (30, 300):
                dst = os.path.join(a.work, "planted-%s-%d-%d" % (arch, seed, count))
                if dst not in planted:
                    subprocess.run([sys.executable, plant, "--seed", str(seed), "--count",
                                    str(count), new_arch, dst], check=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    planted[dst] = True
                what = "%s: %d planted (seed %d)" % (abi, count, seed)
                runs.append((what, new_arch, dst))
                runs.append((what + ", reversed", dst, new_arch))
        for what, o, n in runs:
            args = ["--abi", abi, o, n]
            bad, lost = compare(what, api_diff(a.uapid, args, False),
                                api_diff(a.uapid, args, True))
            problems += bad
            pairs += 1
            gone += lost
    # every architecture at once: a change's ABIs may lose one where only it had the artifact
    quick = api_diff(a.uapid, ["--arch", "all", inst["old"], inst["new"]], False)
    full = api_diff(a.uapid, ["--arch", "all", inst["old"], inst["new"]], True)
    bad, lost = compare("--arch all", quick, full, drop=("abis",))
    problems += bad
    gone += lost
    pairs += 1
    for p in problems:
        print(p)
    print("api-quiet-oracle: %d reports compared (%d ABIs), %d differences, "
          "%d 'same expression' lines of one version's values not reported" %
          (pairs, len(ABIS), len(problems), gone))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
