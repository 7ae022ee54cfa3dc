#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapi-gate.sh: a CI gate for a kernel patch series' userspace API.
#
#   uapi-gate.sh [--base REV] [--head REV] [--arch ARCH]... [--uapid PATH]
#                [--report FILE] [--accept FILE] [--allow-breaking] REPO
#
# Finds the architectures the series BASE..HEAD touches, then for each runs
# `uapid check --arch A` on a checkout of HEAD (a detached `git worktree` in
# a temporary directory, removed at the end: the working tree, the index and
# HEAD of REPO are never touched) and `uapid api-diff --arch A REPO:BASE
# REPO:HEAD`, and prints a short report fit for a CI log or an e-mail reply.
#
# Exit status: 0 the series passes (or touches no userspace API); 1 it
# changes the userspace API in a breaking way or the headers check reports
# errors (or uapid could not check an architecture); a break a line of
# --accept FILE (HEADER SYMBOL RULE REASON, see `uapid api-diff --accept`)
# accepts does not fail, and a line that matches nothing is reported; 2 usage errors (bad
# option, not a git repository, unknown revision, no uapid).
# See doc/ci.md.
set -u

me=uapi-gate
usage() {
	cat <<'EOF'
usage: uapi-gate.sh [--base REV] [--head REV] [--arch ARCH]... [--uapid PATH]
                    [--report FILE] [--accept FILE] [--allow-breaking] REPO
  --base REV        the series' base (default: merge-base of HEAD with
                    origin/master, else master)
  --head REV        the series' head (default: HEAD)
  --arch ARCH       checked too when a change is under include/ (repeatable,
                    or comma-separated; x86 always is)
  --uapid PATH      the uapid binary (default: $UAPID, else uapid in PATH)
  --report FILE     write the report to FILE as well
  --accept FILE     accepted breaks (lines HEADER SYMBOL RULE REASON): not failing
  --allow-breaking  report breaking API changes but do not fail on them
exit: 0 pass, 1 breaking change or check errors, 2 usage error
EOF
}
die_usage() { echo "$me: $*" >&2; echo "(see: uapi-gate.sh --help)" >&2; exit 2; }

base='' head=HEAD extra_arches='' uapid=${UAPID:-} report_file='' allow_breaking=0 repo='' accept=''
need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || die_usage "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--base) need_arg "$@"; base=$2; shift 2 ;;
	--base=*) base=${1#*=}; [ -n "$base" ] || die_usage "--base needs a value"; shift ;;
	--head) need_arg "$@"; head=$2; shift 2 ;;
	--head=*) head=${1#*=}; [ -n "$head" ] || die_usage "--head needs a value"; shift ;;
	--arch) need_arg "$@"; extra_arches="$extra_arches $(echo "$2" | tr ',' ' ')"; shift 2 ;;
	--arch=*) extra_arches="$extra_arches $(echo "${1#*=}" | tr ',' ' ')"; shift ;;
	--uapid) need_arg "$@"; uapid=$2; shift 2 ;;
	--uapid=*) uapid=${1#*=}; shift ;;
	--report) need_arg "$@"; report_file=$2; shift 2 ;;
	--report=*) report_file=${1#*=}; [ -n "$report_file" ] || die_usage "--report needs a value"; shift ;;
	--accept) need_arg "$@"; accept=$2; shift 2 ;;
	--accept=*) accept=${1#*=}; [ -n "$accept" ] || die_usage "--accept needs a value"; shift ;;
	--allow-breaking) allow_breaking=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die_usage "unknown option: $1" ;;
	*) [ -z "$repo" ] || die_usage "one REPO only (got '$repo' and '$1')"; repo=$1; shift ;;
	esac
done
if [ $# -gt 0 ]; then
	[ -z "$repo" ] && [ $# -eq 1 ] || die_usage "one REPO only"
	repo=$1
fi
[ -n "$repo" ] || die_usage "no REPO given"
for a in $extra_arches; do
	case $a in *[!A-Za-z0-9_]*) die_usage "bad architecture name: $a" ;; esac
done

if [ -z "$uapid" ]; then uapid=$(command -v uapid 2>/dev/null) || die_usage "uapid not found: give --uapid PATH"; fi
case $uapid in */*) [ -x "$uapid" ] || die_usage "$uapid: not an executable" ;;
*) uapid=$(command -v "$uapid" 2>/dev/null) || die_usage "uapid not found: give --uapid PATH" ;; esac
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed"
command -v git >/dev/null 2>&1 || die_usage "git is needed"

[ -d "$repo" ] || die_usage "$repo: not a directory"
if [ -n "$accept" ]; then
	[ -f "$accept" ] && [ -r "$accept" ] || die_usage "$accept: no such file"
	case $accept in /*) ;; *) accept=$PWD/$accept ;; esac
fi
top=$(git -C "$repo" rev-parse --show-toplevel 2>/dev/null) || die_usage "$repo: not a git working tree"
g() { git -C "$top" -c core.quotePath=false "$@"; }

head_id=$(g rev-parse --verify -q "$head^{commit}") || die_usage "$head: unknown revision in $top"
if [ -z "$base" ]; then
	for up in origin/master master; do
		if g rev-parse --verify -q "$up^{commit}" >/dev/null; then
			base_id=$(g merge-base "$head_id" "$up") || die_usage "$head and $up have no merge-base: give --base"
			base="merge-base with $up"
			break
		fi
	done
	[ -n "$base" ] || die_usage "no origin/master or master in $top: give --base REV"
else
	base_id=$(g rev-parse --verify -q "$base^{commit}") || die_usage "$base: unknown revision in $top"
fi

# --- from here on, the report ------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uapi-gate.XXXXXX") || exit 2
wt=''
cleanup() {
	if [ -n "$wt" ]; then
		g worktree remove --force "$wt" >/dev/null 2>&1 ||
			{ rm -rf "$wt"; g worktree prune >/dev/null 2>&1; }
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
R=$tmp/report
: >"$R"
say() { printf '%s\n' "$*" >>"$R"; }
emit() { # print the report (and write --report FILE), then exit
	cat "$R"
	if [ -n "$report_file" ]; then cp "$R" "$report_file" || echo "$me: cannot write $report_file" >&2; fi
	exit "$1"
}

short() { g rev-parse --short=12 "$1"; }
ncommits=$(g rev-list --count "$base_id..$head_id")
say "uapi-gate: $(short "$base_id")..$(short "$head_id") ($ncommits commit$([ "$ncommits" = 1 ] || echo s); base: $base)"
g log --no-decorate --format='  %h %s' --max-count=10 "$base_id..$head_id" >>"$R"
[ "$ncommits" -le 10 ] || say "  ... and $((ncommits - 10)) more"

# --- which architectures ---------------------------------------------------------------
# What reaches the installed headers: include/, arch/*/include/, and what the
# install reads besides (syscall tables and their Makefiles, the install
# scripts, the no-header-test list, the top and arch Makefiles).
g diff --name-only --no-renames "$base_id" "$head_id" >"$tmp/files" || emit 2
arches='' generic=0 napi=0
add_arch() { case " $arches " in *" $1 "*) ;; *) arches="${arches:+$arches }$1" ;; esac; }
has_uapi_dir() { # ARCH: the architecture has exported headers at base or head
	for c in "$base_id" "$head_id"; do
		g cat-file -e "$c:arch/$1/include/uapi" 2>/dev/null && return 0
	done
	return 1
}
while IFS= read -r f; do
	case $f in
	include/*) generic=1 ;;
	scripts/headers_install.sh | scripts/headers_install.pl | scripts/Makefile.headersinst | \
		scripts/Makefile.asm-headers | scripts/Makefile.asm-generic | scripts/syscall*.sh | \
		scripts/syscall.tbl | scripts/unifdef.c | usr/include/Makefile | Makefile) generic=1 ;;
	arch/*/*)
		a=${f#arch/} rest=${f#arch/*/}; a=${a%%/*}
		case $rest in # (a case pattern's * also matches /)
		include/* | Makefile | Kbuild | *.tbl | *Makefile.syscalls | *syscalls/Makefile) ;;
		*) continue ;;
		esac
		has_uapi_dir "$a" || continue
		add_arch "$a" ;;
	*) continue ;;
	esac
	napi=$((napi + 1))
done <"$tmp/files"
nfiles=$(wc -l <"$tmp/files" | tr -d ' ')
if [ "$generic" = 1 ]; then
	add_arch x86
	for a in $extra_arches; do add_arch "$a"; done
fi
if [ "$nfiles" -eq 0 ]; then
	say "no userspace API touched: no file changed between base and head"
	say "result: PASS"
	emit 0
fi
if [ -z "$arches" ]; then
	say "no userspace API touched: none of the $nfiles changed files is under include/ or arch/*/include/"
	say "result: PASS"
	emit 0
fi
say "touched: $napi of $nfiles changed files can reach the userspace headers; architectures: $arches"

# --- the head tree, checked out aside ----------------------------------------------------
# A detached worktree of its own (its own index and HEAD), holding only what
# the install and the check read: on a kernel tree a quarter of the files.
# No hooks run.
wt=$tmp/head
paths=''
for p in Makefile include arch scripts usr; do
	g cat-file -e "$head_id:$p" 2>/dev/null && paths="$paths $p"
done
# shellcheck disable=SC2086 # $paths: fixed names, no blanks
if ! { g -c core.hooksPath=/dev/null worktree add --quiet --detach --no-checkout "$wt" "$head_id" &&
	git -C "$wt" -c core.hooksPath=/dev/null checkout --quiet "$head_id" -- $paths; } >"$tmp/wt.err" 2>&1; then
	say "error: git worktree add failed:"
	sed 's/^/  /' "$tmp/wt.err" >>"$R"
	wt=''
	say "result: FAIL (could not check out $(short "$head_id"))"
	emit 1
fi

# --- per architecture --------------------------------------------------------------------
for a in $arches; do
	"$uapid" check --arch "$a" --json "$wt" >"$tmp/$a.check.json" 2>"$tmp/$a.check.err"
	echo $? >"$tmp/$a.check.rc"
	"$uapid" api-diff --json --arch "$a" ${accept:+--accept "$accept"} "$top:$base_id" "$top:$head_id" \
		>"$tmp/$a.diff.json" 2>"$tmp/$a.diff.err"
	echo $? >"$tmp/$a.diff.rc"
done
# One python3 for the lot (its start-up is the slow part on some machines):
# a section per architecture, then the totals in $tmp/counts, where each
# change counts once whatever the number of architectures it shows in.
# shellcheck disable=SC2086 # $arches: architecture names, checked above
UD_GATE_ACCEPT=$accept python3 - "$tmp" "$wt" $arches >>"$R" <<'PY'
import json, os, sys
tmp, wt, arches = sys.argv[1], sys.argv[2], sys.argv[3:]
LIMIT = 20

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def rc(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return -1

def tail(path, n=5):
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip("\n").replace(wt + "/", "") for l in f if l.strip()]
    except OSError:
        lines = []
    return lines[-n:] or ["(no message)"]

# An architecture whose list is the same as one before it says so instead
# (a change to include/uapi/ is the same change everywhere).
seen = {}

def listing(arch, title, items, fmt):
    if not items:
        return
    lines = [fmt(it) for it in items]
    key = title + "\n" + "\n".join(lines)
    if key in seen:
        print("  %s: %d, the same as %s" % (title, len(lines), seen[key]))
        return
    seen[key] = arch
    print("  %s:" % title)
    for l in lines[:LIMIT]:
        print("    " + l)
    if len(lines) > LIMIT:
        print("    and %d more" % (len(lines) - LIMIT))

def change(ch):
    line = ch["new_line"] or ch["old_line"]
    return "%s:%d: %s: %s" % (ch["header"], line, ch["symbol"], ch["reason"])

all_breaking, all_errors, not_checked = set(), set(), 0
unmatched = None  # accept lines that matched nothing on any architecture
for arch in arches:
    base = os.path.join(tmp, arch)
    drc, crc = rc(base + ".diff.rc"), rc(base + ".check.rc")
    d = load(base + ".diff.json") if drc in (0, 1) else None
    c = load(base + ".check.json") if crc in (0, 1) else None
    try:
        s = d["summary"]
        br = [ch for ch in d["changes"] if ch["verdict"] == "breaking"]
        rv = [ch for ch in d["changes"] if ch["verdict"] == "review"]
        acc = [ch for ch in d["changes"] if ch["verdict"] == "accepted"]
        if "accept" in d:
            um = {(u["line"], u["text"]) for u in d["accept"]["unmatched"]}
            unmatched = um if unmatched is None else unmatched & um
        diff_line = ("api-diff %d breaking, %d review, %d compatible; headers %d changed, "
                     "%d added, %d removed" % (s["breaking"], s["review"], s["compatible"],
                     s["headers_changed"], s["headers_added"], s["headers_removed"]))
        if "accepted" in s:
            diff_line += "; %d accepted" % s["accepted"]
    except (TypeError, KeyError):
        d, br, rv, acc, diff_line = None, [], [], [], "api-diff failed (exit %d)" % drc
    try:
        errs = [(f["path"], dg) for f in c["files"] for dg in f["diagnostics"]
                if dg["severity"] == "error"]
        check_line = "check %d headers, %d errors, %d warnings" % (c["headers"], c["errors"], c["warnings"])
        if c.get("compiled") or c.get("skipped"):
            check_line += "; %d compiled alone" % c.get("compiled", 0)
        elif c["headers"]:  # (the text output says why; --json does not)
            check_line += "; compile test not run (no compiler for %s? set CC)" % arch
        nerrors = c["errors"]
    except (TypeError, KeyError):
        c, errs, nerrors, check_line = None, [], 0, "check failed (exit %d)" % crc

    if d is None or c is None:
        verdict = "ERROR"
        not_checked += 1
    elif br or nerrors:
        verdict = ", ".join(w for w, on in (("BREAKING", br), ("CHECK ERRORS", nerrors)) if on)
    elif rv:
        verdict = "compatible, review"
    elif s["compatible"]:
        verdict = "compatible"
    else:
        verdict = "no API change"
    print()
    print("%s: %s" % (arch, verdict))
    print("  " + diff_line)
    print("  " + check_line)
    if d is None:
        print("  api-diff:")
        for l in tail(base + ".diff.err"):
            print("    " + l)
    listing(arch, "breaking changes", br, change)
    listing(arch, "to review (not failing)", rv, change)
    listing(arch, "accepted (not failing)", acc,
            lambda ch: change(ch) + " [%s: %s]" % (ch["accepted_at"], ch["accepted_because"]))
    if c is None:
        print("  check:")
        for l in tail(base + ".check.err"):
            print("    " + l)
    listing(arch, "check errors", errs,
            lambda e: "%s:%d: %s" % (e[0], e[1]["line"], e[1]["message"]))
    all_breaking.update((ch["header"], ch["kind"], ch["symbol"], ch["reason"]) for ch in br)
    all_errors.update((p, dg["line"], dg["message"]) for p, dg in errs)
    if nerrors and not errs:  # errors counted but not listed: count them anyway
        all_errors.add((arch, nerrors))
if unmatched:
    print()
    print("accepted lines that match nothing (remove them?):")
    for line, text in sorted(unmatched):
        print("  %s:%d: %s" % (os.environ.get("UD_GATE_ACCEPT", "accept"), line, text))
with open(os.path.join(tmp, "counts"), "w") as f:
    f.write("%d %d %d\n" % (len(all_breaking), len(all_errors), not_checked))
PY
if [ $? -ne 0 ] || ! read -r tot_breaking tot_errors tot_failed <"$tmp/counts"; then
	say ""
	say "error: could not read uapid's output"
	say "result: FAIL (uapid's output unreadable)"
	emit 1
fi

# --- the verdict -------------------------------------------------------------------------
say ""
why=''
[ "$tot_breaking" -eq 0 ] || why="$tot_breaking breaking change$([ "$tot_breaking" = 1 ] || echo s)"
[ "$tot_errors" -eq 0 ] || why="${why:+$why, }$tot_errors check error$([ "$tot_errors" = 1 ] || echo s)"
[ "$tot_failed" -eq 0 ] || why="${why:+$why, }$tot_failed architecture$([ "$tot_failed" = 1 ] || echo s) not checked"
if [ "$tot_errors" -eq 0 ] && [ "$tot_failed" -eq 0 ]; then
	if [ "$tot_breaking" -eq 0 ]; then
		say "result: PASS (userspace API compatible)"
		emit 0
	elif [ "$allow_breaking" = 1 ]; then
		say "result: PASS with --allow-breaking ($why, allowed)"
		emit 0
	fi
fi
say "result: FAIL ($why)"
emit 1
