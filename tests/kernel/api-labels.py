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
false one still breaking.

The recall half (--recall, tests/kernel/api-labels-recall.tsv, issue 40):
changes once called compatible or review, labelled on two axes (binary,
source: break, review or ok).  Each is looked up the same way; today's
verdict is the worst of its changes, each axis the worst of theirs (a
change not reported is compatible, ok on both).  Of those drawn from
compatible: how many hide a break (labelled break on an axis, not
breaking today) and how many hide a review-worthy change (labelled break
or review, compatible today), by kind and rule of the draw and by axis,
each one named.  The breaking precision counts both halves: of the
labelled items breaking today, how many are labelled true (break).

Exit 0 when at least 97% of those breaking today are true, no true
breaking one is lost, at most 1% of the compatible drawn hide a break and
at most 5% hide a review-worthy change; 1 otherwise, 2 on usage errors.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

VERDICTS = ["compatible", "review", "breaking"]
AXIS = ["ok", "review", "break"]  # the labels' words, in VERDICTS' order
AXIS_OF = {"ok": "ok", "compatible": "ok", "review": "review", "breaking": "break"}


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
    ap.add_argument("--recall", default=os.path.join(here, "api-labels-recall.tsv"),
                    help="the recall half ('' for none)")
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
    recall = []
    if args.recall:
        with open(args.recall) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                (pair, header, kind, symbol, verdict, rule, reason, binary, source,
                 why) = line.rstrip("\n").split("\t")
                for a in (binary, source):
                    if a not in AXIS:
                        sys.exit("api-labels: bad axis label %r" % a)
                recall.append(dict(pair=pair, header=header, kind=kind, symbol=symbol,
                                   verdict=verdict, rule=rule, reason=reason,
                                   binary=binary, source=source, why=why))
    unknown = set(dirs) - {i["pair"] for i in items} - {i["pair"] for i in recall}
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
    ok = not lost
    breaking_true, breaking_all = kept[(True, True)], remaining
    rec = [it for it in recall if it["pair"] in outputs]
    for pair in sorted({i["pair"] for i in recall} - set(outputs)):
        print("%s: recall half not scored: no directories given" % pair)
    if rec:
        ok &= score_recall(rec, outputs, args.list)
        for it in rec:
            if it["now"] == "breaking":
                breaking_all += 1
                breaking_true += "break" in (it["binary"], it["source"])
    precision = 100.0 * breaking_true / breaking_all if breaking_all else 100.0
    print("breaking precision, both halves: %d of %d breaking today are true (%.1f%%)" %
          (breaking_true, breaking_all, precision))
    return 0 if precision >= 97.0 and ok else 1


def now_of(outputs, it):
    """Today's changes of a labelled item: the verdict and each axis, the worst of them."""
    name, cond = split_symbol(it["symbol"])
    old_terms = terms(cond)
    now = [c for t, c in outputs[it["pair"]].get((it["header"], name), []) if t <= old_terms]
    if not now:
        return "compatible", "ok", "ok", "not reported"
    worst = max(now, key=lambda c: VERDICTS.index(c["verdict"]))
    axes = []
    for a in ("binary", "source"):
        # a change of before the axes existed: its verdict on both
        axes.append(max((AXIS_OF[c.get(a, c["verdict"])] for c in now), key=AXIS.index))
    return worst["verdict"], axes[0], axes[1], worst["reason"]


def score_recall(rec, outputs, listing):
    """Scores the recall half; prints its figures; returns whether it meets the bounds."""
    by = collections.defaultdict(collections.Counter)
    hidden_break, hidden_review, axis_miss = [], [], []
    for it in rec:
        it["now"], it["now_binary"], it["now_source"], it["now_reason"] = now_of(outputs, it)
        worst = max(it["binary"], it["source"], key=AXIS.index)
        drawn = it["verdict"]
        for k in ("all", "kind " + it["kind"], "rule " + it["rule"]):
            c = by[(drawn, k)]
            c["n"] += 1
            c["label " + worst] += 1
            c["now " + it["now"]] += 1
            if worst == "break" and it["now"] != "breaking":
                c["hide break"] += 1
            if worst != "ok" and it["now"] == "compatible":
                c["hide review"] += 1
            for a in ("binary", "source"):
                if it[a] == "break" and it["now_" + a] != "break":
                    c[a + " hides break"] += 1
                if it[a] != "ok" and it["now_" + a] == "ok":
                    c[a + " hides review"] += 1
        if drawn == "compatible" and worst == "break" and it["now"] != "breaking":
            hidden_break.append(it)
        elif worst != "ok" and it["now"] == "compatible":
            hidden_review.append(it)
        for a in ("binary", "source"):
            if AXIS.index(it["now_" + a]) < AXIS.index(it[a]):
                axis_miss.append((a, it))
    print("recall half: %d labelled (%s)" % (len(rec), ", ".join(
        "%d drawn from %s" % (by[(d, "all")]["n"], d) for d in VERDICTS if by[(d, "all")]["n"])))
    for drawn in ("compatible", "review"):
        keys = sorted(k for d, k in by if d == drawn)
        for k in ["all"] + [k for k in keys if k != "all"]:
            c = by[(drawn, k)]
            if not c["n"]:
                continue
            print("  %-10s %-28s n=%3d  labels break/review/ok %d/%d/%d  today breaking/review/"
                  "compatible %d/%d/%d  hide a break %d, hide a review %d  (binary: %d, %d; "
                  "source: %d, %d)" % (
                      drawn, k, c["n"], c["label break"], c["label review"], c["label ok"],
                      c["now breaking"], c["now review"], c["now compatible"], c["hide break"],
                      c["hide review"], c["binary hides break"], c["binary hides review"],
                      c["source hides break"], c["source hides review"]))
    ncomp = by[("compatible", "all")]["n"]
    hb = 100.0 * len(hidden_break) / ncomp if ncomp else 0.0
    hr = 100.0 * sum(1 for it in hidden_review if it["verdict"] == "compatible") / ncomp \
        if ncomp else 0.0
    print("of the %d drawn from compatible: %.1f%% hide a break (at most 1%%), %.1f%% hide a "
          "review-worthy change (at most 5%%)" % (ncomp, hb, hr))
    for it in hidden_break:
        print("  HIDDEN BREAK %s: %s %s: today %s (%s) | label binary %s, source %s: %s" % (
            it["header"], it["kind"], it["symbol"], it["now"], it["now_reason"][:120],
            it["binary"], it["source"], it["why"]))
    for it in hidden_review:
        print("  HIDDEN REVIEW %s: %s %s (drawn %s): today %s (%s) | label binary %s, source "
              "%s: %s" % (it["header"], it["kind"], it["symbol"], it["verdict"], it["now"],
                          it["now_reason"][:120], it["binary"], it["source"], it["why"]))
    for a, it in axis_miss:
        print("  AXIS %s %s: %s %s: today %s, label %s" % (
            a, it["header"], it["kind"], it["symbol"], it["now_" + a], it[a]))
    if listing:
        for it in rec:
            print("%s\t%s\t%s\t%s/%s\t%s\t%s/%s" % (
                it["pair"], it["header"], it["symbol"], it["binary"], it["source"], it["now"],
                it["now_binary"], it["now_source"]))
    return hb <= 1.0 and hr <= 5.0


if __name__ == "__main__":
    sys.exit(main())
