#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-api-log [BENCH_COMMITS=300] [BENCH_KERNEL=DIR]: uapid api-log
# on the synthetic kernel history tests/kernel/branch-kernel.sh checks
# (tests/kernel/kernel-history.sh: Debian's linux-source-6.1, or the
# linux-source-6.1 tree DIR, then BENCH_COMMITS first-parent commits with
# merges), tagged like a release cycle (v6.1 on the base, then -rc1..-rc7
# and a release every few dozen commits).  Prints figures; asserts nothing.
#  - the headers branch `uapid branch` makes (for scale: not api-log's work),
#  - building the index from the headers branch (the first api-log),
#  - questions answered from the index: one symbol (target: under 50 ms),
#    by the command and in the process (bench/bench_apilog, when built),
#    a struct member, a whole header; each the median of 9 (BENCH_RUNS) runs of the
#    command, process start, repository and store included (wall and CPU
#    time: a loaded machine inflates the first),
#  - growing the index by one commit,
#  - the index's size in the store,
#  - and one answer as a user sees it.
# BENCH_KEEP=1 keeps the scratch directory.
set -eu
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
UAPID=$(realpath "${2:-src/uapid}")
BENCH_APILOG=$(realpath "${3:-bench/bench_apilog}" 2>/dev/null) || BENCH_APILOG=
N=${BENCH_COMMITS:-300}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/uapid-bench.XXXXXX")
if [ -n "${BENCH_KEEP:-}" ]; then # BENCH_KEEP=1: keep the repository, to look at
	echo "api-log bench: keeping $WORK"
else
	trap 'rm -rf "$WORK"' EXIT
fi
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK LC_ALL=C
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0
. "$top_srcdir/tests/kernel/kernel-lib.sh"
. "$top_srcdir/tests/kernel/kernel-history.sh"
# median_ms CMD...: the median wall time of $RUNS (BENCH_RUNS, 9) runs, in ms, and the median CPU
# time (user + system: what a loaded machine does not inflate)
median_ms() {
	RUNS=${RUNS:-${BENCH_RUNS:-9}} python3 - "$@" <<'EOF'
import os, resource, statistics, subprocess, sys, time
wall, cpu = [], []
for _ in range(int(os.environ["RUNS"])):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
    wall.append((time.perf_counter() - t0) * 1000)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
print("%.1f ms (CPU %.1f ms)" % (statistics.median(wall), statistics.median(cpu)))
EOF
}

if [ -n "${1:-}" ]; then L61=$1; else L61=$(kernel_tree 6.1); fi # read only: $R is a copy
kh_base "$L61"
g tag -a -m v6.1 v6.1
# a release cycle: -rc1 .. -rc7 and the release, a tag every N/16 commits
every=$((N / 16 > 0 ? N / 16 : 1)) made=0 cycle=2 rc=1
kh_made() {
	made=$((made + 1))
	[ $((made % every)) = 0 ] || return 0
	if [ "$rc" -le 7 ]; then
		g tag -a -m "v6.$cycle-rc$rc" "v6.$cycle-rc$rc" "$1"
		rc=$((rc + 1))
	else
		g tag -a -m "v6.$cycle" "v6.$cycle" "$1"
		cycle=$((cycle + 1)) rc=1
	fi
}
t0=$(now)
kh_history "$N"
echo "history: $N first-parent commits ($(g rev-list --count "$BASE..master") in all), $(g tag | wc -l) tags, made in $(secs "$t0" "$(now)") s"
g gc -q

t0=$(now)
"$UAPID" branch --no-split --arch x86 --source "$BASE" "$R" >/dev/null
"$UAPID" branch --no-split --arch x86 "$R" >"$WORK/out"
echo "headers branch (uapid branch, not api-log): $(g rev-list --count uapi/headers) commits in $(secs "$t0" "$(now)") s"

took=$(RUNS=1 median_ms "$UAPID" api-log --quiet --arch x86 "$R" EPOLL_CLOEXEC)
db=$R/.git/uapid/branches.db
python3 - "$db" >"$WORK/size" <<'EOF'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
steps = d.execute("select count(*) from api_log_steps").fetchone()[0]
rows = d.execute("select count(*) from api_log_changes").fetchone()[0]
first = d.execute("select count(*) from api_log_changes where step = 1").fetchone()[0]
print(steps, rows, first)
EOF
read -r steps rows first <"$WORK/size"
echo "index from the headers branch: $took: the first api-log, $steps steps, $rows changes of which $first are the first step's symbols"

sym=EPOLL_CLOEXEC
# a symbol the history changed: the first member it added to a struct
member=$(sed -n 's/.*member \(uapid_member_[0-9_]*\) added at the end of the first struct in \([^;]*\).*/\1 \2/p' "$WORK/edits" | head -1)
mname=${member%% *} mfile=${member#* }
mstruct=$(awk -v m="$mname" '/^struct [A-Za-z0-9_]* {$/ { s = $2 } $0 ~ "\t__u32 " m ";" { print s; exit }' "$R/$mfile")
hdr=${mfile#include/uapi/}
hdr=${hdr#arch/x86/include/uapi/}
if [ -z "$mname" ] || [ -z "$mstruct" ]; then # a history too short to add one: the base's
	mname=events mstruct=epoll_event hdr=linux/eventpoll.h
fi
echo "questions from the index (median of ${BENCH_RUNS:-9} runs of the command):"
echo "  one symbol, $sym: $(median_ms "$UAPID" api-log --arch x86 "$R" "$sym") (target < 50 ms)"
echo "  one member, struct $mstruct.$mname: $(median_ms "$UAPID" api-log --arch x86 "$R" "struct $mstruct.$mname")"
echo "  a whole header, $hdr: $(median_ms "$UAPID" api-log --arch x86 "$R" "$hdr")"
echo "  --json, with --since v6.2-rc1: $(median_ms "$UAPID" api-log --json --since v6.2-rc1 --arch x86 "$R" "$sym")"
echo "  uapid --version, for the process alone: $(median_ms "$UAPID" --version)"
if [ -x "$BENCH_APILOG" ]; then
	# the question alone, in the process, as the daemon's api.log asks it
	echo "  in the process (ud_apilog_lookup, bench_apilog), $sym: $("$BENCH_APILOG" "$R" "$db" uapi/headers "$sym")"
	echo "  in the process, struct $mstruct.$mname: $("$BENCH_APILOG" "$R" "$db" uapi/headers "struct $mstruct.$mname")"
	echo "  in the process, $hdr: $("$BENCH_APILOG" "$R" "$db" uapi/headers "$hdr")"
fi

# one commit more
printf '#define UAPID_BENCH_LOG 1\n' >>"$R/include/uapi/linux/eventpoll.h"
echo include/uapi/linux/eventpoll.h >"$WORK/touched"
commit "bench: one more constant"
"$UAPID" branch --no-split --arch x86 "$R" >/dev/null
echo "the index grown by one commit, and the question: $(RUNS=1 median_ms "$UAPID" api-log --arch x86 "$R" UAPID_BENCH_LOG)"
echo "store: $(du -k "$db" | cut -f1) KiB ($db, with uapid branch's cache)"
echo
echo "\$ uapid api-log REPO 'struct $mstruct' '$sym' $hdr"
"$UAPID" api-log --arch x86 "$R" "struct $mstruct" "$sym" "$hdr" | sed 's/^/  /'
