#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Score `uapid split` against a real kernel release (the ground truth).

usage: bench/gtscore.py PRE POST [--bin UAPID] [--keep DIR] [--markers FILE]
                        [--sample K] [--expect-misses FILE] [--verbose]

PRE is a kernel tree before the 2012 UAPI split of some directories, POST the
release that carries the upstream split (3.6 -> 3.7, 3.7 -> 3.8); only their
include/ and arch/*/include/ are read.

1. PRE's include/ and arch/*/include/ are copied to a scratch tree (symlinks
   kept as symlinks).
2. The headers in scope are those that a Kbuild file of PRE exports and whose
   uapi twin POST has (the twin of arch/x86/include/asm/x.h is
   arch/x86/include/uapi/asm/x.h, of include/linux/x.h include/uapi/linux/x.h).
   --sample K keeps every K-th of them in sorted order, starting with the first.
3. `uapid split --in-place SCRATCH HEADER...` runs once over them.
4. Only headers whose upstream result is clean and pure are scored:
   - moved: POST has no kernel-side header and its uapi twin is PRE's header
     byte for byte;
   - split: POST has both, and apart from the lines a split may add, drop or
     rewrite (blank lines, `#include <uapi/...>`, lines naming `_UAPI` or
     `__KERNEL__`, `#else` and `#endif`; trailing white space ignored) the
     pair keeps every PRE line (clean, counted as a multiset) and brings in
     none that PRE lacks (pure).
   Edits that others made to a header in the same release thus never count.
5. A scored header is exact when both its kernel-side file and its uapi twin
   in the scratch tree equal POST's byte for byte (a missing file equals only
   a missing file).  The others are listed in SCRATCH/.gtscore-mismatches as
   `differs<TAB>PATH`, or `whitespace<TAB>PATH` when the files agree once
   every run of white space is squeezed to one blank.

The splitter's own output goes to SCRATCH/.gtscore-split.log (--verbose also
copies it to stderr).  The scratch tree is a new directory under $TMPDIR unless
--keep names one; it is left in place either way, so the mismatches can be
read.  --keep reuses a directory only when it is empty or an earlier scratch
tree.

Exit status: 0; 1 with --expect-misses FILE (paths, one a line, `#` comments)
when a mismatch is not listed there (those are printed); 2 on a usage error or
when the splitter fails outright (exit status other than 0 or 1).
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PROJECT_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BIN = os.path.join(PROJECT_TOP, "build", "src", "uapid")

STAMP = ".gtscore"
MISMATCHES = ".gtscore-mismatches"
SPLIT_LOG = ".gtscore-split.log"

EXPORT_VARS = ("header-y", "opt-header", "asm-headers")
ASSIGNMENT = re.compile(r"^(%s) ?(?:\+=|:=|=) ?(.*)$" % "|".join(re.escape(v) for v in EXPORT_VARS))
INCLUDE = re.compile(r"^include (\S+)$")

# Lines a split may add, drop or rewrite: they do not decide cleanliness.
UAPI_INCLUDE = re.compile(rb"#\s*include\s*<uapi/")
ELSE_ENDIF = re.compile(rb"^\s*#\s*(?:else|endif)\b")


# --- reading the trees --------------------------------------------------------

def read(path):
    """The bytes of a file, or None when there is no such file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def include_dirs(tree):
    """include/ and every arch/*/include/ of TREE, relative to it."""
    dirs = ["include"] if os.path.isdir(os.path.join(tree, "include")) else []
    arch = os.path.join(tree, "arch")
    if os.path.isdir(arch):
        for name in sorted(os.listdir(arch)):
            rel = os.path.join("arch", name, "include")
            if os.path.isdir(os.path.join(tree, rel)):
                dirs.append(rel)
    return dirs


def kbuild_lines(tree, path, seen=()):
    """Logical lines of the Kbuild file PATH (relative to TREE).

    Comments are stripped, continuation lines joined, white space squeezed;
    `include FILE` lines (FILE relative to the tree top) are replaced by the
    lines of FILE.
    """
    data = read(os.path.join(tree, path))
    if data is None or path in seen:
        return []
    text = data.decode("utf-8", "replace")
    text = re.sub(r"\\\n", " ", text)
    lines = []
    for raw in text.split("\n"):
        line = " ".join(raw.split("#", 1)[0].split())
        m = INCLUDE.match(line)
        if m:
            lines.extend(kbuild_lines(tree, os.path.normpath(m.group(1)), seen + (path,)))
        elif line:
            lines.append(line)
    return lines


def exported(tree):
    """The set of headers (paths relative to TREE) its Kbuild files export."""
    headers = set()
    for top in include_dirs(tree):
        for dirpath, dirnames, filenames in os.walk(os.path.join(tree, top)):
            rel = os.path.relpath(dirpath, tree)
            if "uapi" in rel.split(os.sep):
                dirnames[:] = []
                continue
            dirnames.sort()
            if "Kbuild" not in filenames:
                continue
            for line in kbuild_lines(tree, os.path.join(rel, "Kbuild")):
                m = ASSIGNMENT.match(line)
                if not m:
                    continue
                for name in m.group(2).split():
                    if name.endswith("/"):
                        continue
                    header = os.path.normpath(os.path.join(rel, name))
                    if os.path.isfile(os.path.join(tree, header)):
                        headers.add(header)
    return headers


def uapi_twin(path):
    """arch/x86/include/asm/x.h -> arch/x86/include/uapi/asm/x.h."""
    return path.replace("include/", "include/uapi/", 1)


# --- what upstream did ------------------------------------------------------

def significant(data):
    """The lines of DATA that a split must keep, trailing white space stripped."""
    lines = []
    for line in data.split(b"\n"):
        line = line.rstrip()
        if (not line or UAPI_INCLUDE.search(line) or b"_UAPI" in line
                or b"__KERNEL__" in line or ELSE_ENDIF.match(line)):
            continue
        lines.append(line)
    return lines


def clean_and_pure(pre, kernel, uapi):
    """Whether the pair KERNEL+UAPI is a split of PRE and nothing more."""
    before = significant(pre)
    after = significant(kernel) + significant(uapi)
    clean = not (collections.Counter(before) - collections.Counter(after))
    pure = set(after) <= set(before)
    return clean and pure


def kind(pre_tree, post_tree, header):
    """'split', 'moved' or None (not scored) for HEADER, by POST's result."""
    pre = read(os.path.join(pre_tree, header))
    kernel = read(os.path.join(post_tree, header))
    uapi = read(os.path.join(post_tree, uapi_twin(header)))
    if pre is None or uapi is None:
        return None
    if kernel is None:
        return "moved" if uapi == pre else None
    return "split" if clean_and_pure(pre, kernel, uapi) else None


# --- running and comparing ---------------------------------------------------

def squeezed(data):
    return b" ".join(data.split())


def compare(scratch, post_tree, header):
    """None when exact, else 'differs' or 'whitespace'."""
    verdict = None
    for path in (header, uapi_twin(header)):
        ours = read(os.path.join(scratch, path))
        theirs = read(os.path.join(post_tree, path))
        if ours == theirs:
            continue
        if ours is None or theirs is None or squeezed(ours) != squeezed(theirs):
            return "differs"
        verdict = "whitespace"
    return verdict


def prepare_scratch(keep):
    """A fresh empty scratch directory (KEEP, or a new temporary one)."""
    if keep is None:
        scratch = tempfile.mkdtemp(prefix="gtscore-")
    else:
        scratch = os.path.abspath(keep)
        if os.path.isdir(scratch) and os.listdir(scratch):
            if not os.path.exists(os.path.join(scratch, STAMP)):
                print("gtscore: --keep %s: neither empty nor an earlier scratch tree" % keep,
                      file=sys.stderr)
                sys.exit(2)
            shutil.rmtree(scratch)
        os.makedirs(scratch, exist_ok=True)
    with open(os.path.join(scratch, STAMP), "w") as f:
        f.write("gtscore scratch tree: removed and rebuilt by the next run with --keep\n")
    return scratch


def copy_headers(pre_tree, scratch):
    for rel in include_dirs(pre_tree):
        shutil.copytree(os.path.join(pre_tree, rel), os.path.join(scratch, rel), symlinks=True)


def run_split(uapid, scratch, headers, markers, verbose):
    """Run the splitter once; return (exit status, seconds)."""
    cmd = [uapid, "split", "--in-place"]
    if markers:
        cmd += ["--markers", markers]
    cmd += [scratch] + headers
    with open(os.path.join(scratch, SPLIT_LOG), "wb") as log:
        start = time.monotonic()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
        seconds = time.monotonic() - start
        log.write(proc.stdout)
    if verbose:
        sys.stderr.buffer.write(proc.stdout)
    return proc.returncode, seconds


def read_expected(path):
    expected = set()
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                expected.add(line)
    return expected


# --- main ---------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="gtscore.py",
        description="Score `uapid split` against an upstream kernel release.")
    p.add_argument("pre", help="tree before the split (include/ and arch/ suffice)")
    p.add_argument("post", help="tree after the split")
    p.add_argument("--bin", default=DEFAULT_BIN, help="the uapid binary (default: %(default)s)")
    p.add_argument("--keep", metavar="DIR", help="build the scratch tree here")
    p.add_argument("--markers", metavar="FILE", help="passed to `uapid split --markers`")
    p.add_argument("--sample", metavar="K", type=int, default=1,
                   help="score only every K-th header in scope")
    p.add_argument("--expect-misses", metavar="FILE",
                   help="exit 1 if a mismatch is not listed in FILE")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="copy the splitter's output to stderr")
    args = p.parse_args(argv)
    if args.sample < 1:
        p.error("--sample wants a positive number")
    for tree in (args.pre, args.post):
        if not os.path.isdir(os.path.join(tree, "include")):
            p.error("%s has no include/ directory" % tree)
    if not os.access(args.bin, os.X_OK):
        p.error("no executable uapid at %s (--bin)" % args.bin)
    return args


def scope(pre_tree, post_tree):
    """The headers in scope, sorted: exported by PRE, with a uapi twin in POST."""
    return sorted(h for h in exported(pre_tree)
                  if os.path.isfile(os.path.join(post_tree, uapi_twin(h))))


def main(argv=None):
    args = parse_args(argv)
    uapid = os.path.abspath(args.bin)
    markers = os.path.abspath(args.markers) if args.markers else None
    expected = read_expected(args.expect_misses) if args.expect_misses else None

    headers = scope(args.pre, args.post)[::args.sample]
    kinds = {h: kind(args.pre, args.post, h) for h in headers}
    scored = [h for h in headers if kinds[h]]
    total = collections.Counter(kinds[h] for h in scored)

    scratch = prepare_scratch(args.keep)
    copy_headers(args.pre, scratch)
    status, seconds = run_split(uapid, scratch, headers, markers, args.verbose)

    exact = collections.Counter()
    mismatches = []
    for h in scored:
        verdict = compare(scratch, args.post, h)
        if verdict is None:
            exact[kinds[h]] += 1
        else:
            mismatches.append((verdict, h))
    with open(os.path.join(scratch, MISMATCHES), "w") as f:
        f.writelines("%s\t%s\n" % m for m in mismatches)

    n_exact = sum(exact.values())
    percent = 100.0 * n_exact / len(scored) if scored else 0.0
    print("headers in scope: %d, scored: %d (split %d, moved %d)"
          % (len(headers), len(scored), total["split"], total["moved"]))
    print("split exact: %d/%d, moved exact: %d/%d"
          % (exact["split"], total["split"], exact["moved"], total["moved"]))
    print("splitter exit status/failures: %d, seconds: %.2f" % (status, seconds))
    print("scratch tree: %s (mismatches listed in %s)" % (scratch, MISMATCHES))

    result = 0
    if expected is not None:
        missed = {h for _, h in mismatches}
        for verdict, h in mismatches:
            if h not in expected:
                print("unexpected mismatch: %s\t%s" % (verdict, h))
                result = 1
        for h in sorted(expected & set(scored) - missed):
            print("expected miss now exact: %s" % h)
    if status not in (0, 1):
        print("gtscore: the splitter failed (exit status %d); see %s"
              % (status, os.path.join(scratch, SPLIT_LOG)), file=sys.stderr)
        result = 2
    print("exact %d/%d = %.1f%%" % (n_exact, len(scored), percent))
    return result


if __name__ == "__main__":
    sys.exit(main())
