#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scores `uapid api-diff` against the labelled set (tests/kernel/api-labels.tsv).

    api-labels.py [--uapid PATH] [--labels FILE] [--list] PAIR=OLD,NEW ...

PAIR is a pair named in the labels ("6.1-6.12", "3.7-3.8"); OLD and NEW are
its installed-header directories.  A pair of the labels not given (its trees
are not on every machine) is not scored, and the output says so.  Each labelled item (a breaking verdict
of the version sampled) is looked up in today's output by header, name and
condition (a condition the target now decides may have left the name:
"struct pt_regs [if !defined(__ASSEMBLY__)]" is "struct pt_regs" there;
a macro that became an enum constant is found under either kind), and is
still breaking when one of its changes is.

Prints the counts, the share of the labelled breaking verdicts still
breaking that are true, each true one no longer breaking (lost) and each
false one still breaking.  Exit 0 when at least 95% of the remaining ones
are true and none is lost, 1 otherwise, 2 on usage errors.
"""
import argparse
import collections
import json
import os
import subprocess
import sys


def split_symbol(symbol):
    if symbol.endswith("]") and " [if " in symbol:
        name, cond = symbol[:-1].split(" [if ", 1)
        return name, cond
    return symbol, ""


def terms(cond):
    # the top-level " && " terms of a condition
    out, depth, cur = [], 0, ""
    i = 0
    while i < len(cond):
        c = cond[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if depth == 0 and cond.startswith(" && ", i):
            out.append(cur)
            cur = ""
            i += 4
            continue
        cur += c
        i += 1
    if cur:
        out.append(cur)
    return set(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uapid", default=os.path.join(here, "..", "..", "build", "src", "uapid"))
    ap.add_argument("--labels", default=os.path.join(here, "api-labels.tsv"))
    ap.add_argument("--list", action="store_true", help="list every item with its outcome")
    ap.add_argument("pairs", nargs="+", metavar="PAIR=OLD,NEW")
    args = ap.parse_args()
    dirs = {}
    for p in args.pairs:
        try:
            name, rest = p.split("=", 1)
            old, new = rest.split(",", 1)
        except ValueError:
            ap.error("want PAIR=OLD,NEW, got %s" % p)
        dirs[name] = (old, new)
    items = []
    with open(args.labels) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            pair, header, kind, symbol, reason, label, why = line.rstrip("\n").split("\t")
            if label not in ("true", "false"):
                sys.exit("api-labels: bad label %r" % label)
            items.append(dict(pair=pair, header=header, kind=kind, symbol=symbol,
                              reason=reason, label=label == "true", why=why))
    unknown = set(dirs) - {i["pair"] for i in items}
    if unknown:
        ap.error("no labels for %s" % ", ".join(sorted(unknown)))
    # a pair whose trees are not on this machine is not scored, and said so
    for pair in sorted({i["pair"] for i in items} - set(dirs)):
        print("%s: not scored (%d labelled items): no directories given" %
              (pair, sum(i["pair"] == pair for i in items)))
    outputs = {}
    for pair, (old, new) in dirs.items():
        r = subprocess.run([args.uapid, "api-diff", "--json", old, new],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode > 1:
            sys.exit("api-labels: uapid api-diff %s %s failed: %s" % (old, new, r.stderr))
        byname = collections.defaultdict(list)
        for c in json.loads(r.stdout)["changes"]:
            name, cond = split_symbol(c["symbol"] or "")
            byname[(c["header"], name)].append((terms(cond), c))
        outputs[pair] = byname
    kept = collections.Counter()
    lost, false_kept, rows = [], [], []
    for it in items:
        if it["pair"] not in outputs:
            continue
        name, cond = split_symbol(it["symbol"])
        old_terms = terms(cond)
        now = [c for t, c in outputs[it["pair"]].get((it["header"], name), [])
               if t <= old_terms]
        still = [c for c in now if c["verdict"] == "breaking"]
        verdict = "breaking" if still else (
            max((c["verdict"] for c in now), key=["compatible", "review", "breaking"].index)
            if now else "not reported")
        rows.append((it, verdict, (still or now or [{"reason": ""}])[0]["reason"]))
        kept[(it["label"], bool(still))] += 1
        if it["label"] and not still:
            lost.append((it, verdict))
        if not it["label"] and still:
            false_kept.append((it, still[0]["reason"]))
    total = len(rows)
    ntrue = kept[(True, True)] + kept[(True, False)]
    remaining = kept[(True, True)] + kept[(False, True)]
    share = 100.0 * kept[(True, True)] / remaining if remaining else 100.0
    print("labelled: %d (%d true, %d false)" % (total, ntrue, total - ntrue))
    print("still breaking: %d, of which true: %d (%.1f%%)" % (remaining, kept[(True, True)],
                                                              share))
    print("false ones no longer breaking: %d of %d" % (kept[(False, False)], total - ntrue))
    print("true ones lost (no longer breaking): %d" % len(lost))
    for it, v in lost:
        print("  LOST %s %s: %s %s (now %s): %s" % (it["pair"], it["header"], it["kind"],
                                                    it["symbol"], it["reason"], v, it["why"]))
    print("false ones still breaking: %d" % len(false_kept))
    for it, reason in false_kept:
        print("  FALSE %s %s: %s %s: %s | label: %s" % (it["pair"], it["header"], it["kind"],
                                                       it["symbol"], reason, it["why"]))
    if args.list:
        for it, v, reason in rows:
            print("%s\t%s\t%s\t%s\t%s\t%s" % (it["pair"], it["header"], it["symbol"],
                                              "true" if it["label"] else "false", v, reason))
    return 0 if share >= 95.0 and not lost else 1


if __name__ == "__main__":
    sys.exit(main())
