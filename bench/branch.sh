#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-branch [BENCH_KERNEL=DIR]: uapid branch on a git repository
# holding a kernel tree (default: Debian's linux-source-6.1, unpacked whole).
# Prints numbers; asserts nothing.
#  - first creation of both branches (target: under 10 s),
#  - the update after a commit that touches 3 headers (target: under 100 ms),
#    best of BENCH_RUNS (3), each from a copy after a sync,
#  - the headers branch's backfill rate over BENCH_COMMITS commits (50), best
#    of BENCH_RUNS (3), beside git's own fast-export | fast-import of the
#    same commits (its floor) and the ratio.
# With BENCH_SPLIT_KERNEL=DIR (a pre-3.7 tree, e.g. the ground truth's 3.6)
# the split branch's first creation on a tree that still needs splitting too.
set -eu
uapid=$(realpath "${2:-src/uapid}")
commits=${BENCH_COMMITS:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.org
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.org GIT_CONFIG_NOSYSTEM=1
# no background gc --auto: the bench packs once, in the foreground
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0
T=$work/tree R=$work/repo.git
mkdir -p "$T"
if [ -n "${1:-}" ]; then
	cp -R "$1/." "$T/"
else
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$T" --strip-components=1
fi
now() { date +%s.%N; }
ms() { echo "$1 $2" | awk '{printf "%.1f", ($2 - $1) * 1000}'; }
# timed OUT CMD...: runs CMD (its output into OUT), prints "WALL_MS CPU_MS"
# (CPU: user + system, its children's too; "-" without /usr/bin/time).  Wall
# beside CPU tells a slow run that waited (on the disk, on other processes)
# from one that worked more.
timed() {
	out=$1
	shift
	if [ -x /usr/bin/time ]; then
		# wall by date (milliseconds), CPU by time(1) (its own resolution: 10 ms)
		t0=$(now)
		/usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$out"
		t1=$(now)
		echo "$(ms "$t0" "$t1") $(awk '{printf "%.0f", ($1 + $2) * 1000}' "$work/time")"
	else
		t0=$(now)
		"$@" >"$out"
		t1=$(now)
		echo "$(ms "$t0" "$t1") -"
	fi
}
# best "WALL CPU" "WALL CPU": the one of least wall time ("" is none yet)
best() { echo "$1 $2" | awk 'NF < 4 || $1 < $3 {print $1, $2; next} {print $3, $4}'; }
# best_of COPY OUT CMD...: "WALL CPU" of the fastest of $runs runs of CMD,
# each on $R made afresh from COPY, after a sync (the writeback of what the
# bench wrote before is not CMD's)
runs=${BENCH_RUNS:-3}
best_of() {
	copy=$1 bout=$2 b=
	shift 2
	for r in $(seq "$runs"); do
		rm -rf "$R"
		cp -a "$copy" "$R"
		sync
		b=$(best "$(timed "$bout" "$@")" "$b")
	done
	echo "$b"
}

git init -q --bare "$R"
t0=$(now)
GIT_DIR=$R GIT_WORK_TREE=$T git -c core.bare=false add -A -f .
GIT_DIR=$R GIT_WORK_TREE=$T git -c core.bare=false commit -q -m "the tree"
git --git-dir="$R" gc -q # packed, as a real clone is
t1=$(now)
files=$(git --git-dir="$R" ls-tree -r HEAD | wc -l)
echo "repository: $files files, made and packed in $(ms "$t0" "$t1") ms (git, not uapid)"

t0=$(now)
"$uapid" branch --arch x86 "$R" >"$work/out"
t1=$(now)
echo "first creation of both branches: $(ms "$t0" "$t1") ms (target < 10000)"
sed 's/^/  /' "$work/out"
t0=$(now)
"$uapid" branch --arch x86 "$R" >/dev/null
t1=$(now)
echo "re-run, nothing changed: $(ms "$t0" "$t1") ms"

# a commit of three edited headers, made with plumbing (there is no checkout)
edit_commit() { # edit_commit N MESSAGE: append a line to N headers of the head commit
	idx=$work/index
	GIT_DIR=$R GIT_INDEX_FILE=$idx git read-tree HEAD
	for p in $(GIT_DIR=$R git ls-tree -r --name-only HEAD include/uapi/linux | grep '\.h$' |
		awk -v s="$3" 'NR % 97 == s % 97' | head -"$1"); do
		blob=$( (GIT_DIR=$R git cat-file blob "HEAD:$p"; printf '#define UAPID_BENCH_%s_%s 1\n' "$3" "$(echo "$p" | tr -c 'A-Za-z0-9\n' _)") |
			GIT_DIR=$R git hash-object -w --stdin)
		GIT_DIR=$R GIT_INDEX_FILE=$idx git update-index --cacheinfo 100644 "$blob" "$p"
	done
	tree=$(GIT_DIR=$R GIT_INDEX_FILE=$idx git write-tree)
	c=$(GIT_DIR=$R git commit-tree "$tree" -p HEAD -m "$2")
	GIT_DIR=$R git update-ref HEAD "$c"
}
edit_commit 3 "three headers" 1
# best of BENCH_RUNS from a copy after a sync, as the backfill below: timed
# right after its commit, the update also timed the writeback of the bench's
# own gigabytes (195-305 ms where a copy gives 70-90 ms)
cp -a "$R" "$work/upd.git"
ubest=$(best_of "$work/upd.git" "$work/out" "$uapid" branch --arch x86 "$R")
echo "$ubest" | awk '{printf "update after a commit touching 3 headers: %.0f ms (target < 100; best of '"$runs"'; CPU %s ms)\n", $1, $2}'
sed 's/^/  /' "$work/out"

base=$(GIT_DIR=$R git rev-parse HEAD)
i=0
while [ $i -lt "$commits" ]; do
	i=$((i + 1))
	edit_commit 2 "edit $i" $((i + 7))
done
# The backfill, best of BENCH_RUNS (3), each from a copy of the repository
# as it is now (uapid's state inside it too), after a sync: the writeback of
# the commits just made is not the backfill's.
cp -a "$R" "$work/pre.git"
bbest=$(best_of "$work/pre.git" "$work/out" "$uapid" branch --arch x86 --no-split "$R")
echo "$commits $bbest" |
	awk '{printf "headers backfill: %d commits in %.0f ms: %.1f commits/s (best of '"$runs"'; CPU %s ms)\n", $1, $2, $1 * 1000 / $2, $3}'
sed 's/^/  /' "$work/out"
# Its floor, the same runs: git itself reading the same commits' changes
# (fast-export: every changed blob and tree) and hashing their objects again
# (fast-import into the same repository, as another branch).
fbest=$(best_of "$work/pre.git" /dev/null sh -c 'GIT_DIR=$1 git fast-export --reference-excluded-parents "$2..HEAD" |
	sed "s#^commit .*#commit refs/heads/bench-floor#" | GIT_DIR=$1 git fast-import --quiet' floor "$R" "$base")
echo "$commits $fbest $bbest" |
	awk '{printf "  floor: git fast-export | git fast-import of the %d commits: %.0f ms (CPU %s ms); ratio uapid / git %.2f\n", $1, $2, $3, $4 / $2}'

if [ -n "${BENCH_SPLIT_KERNEL:-}" ]; then
	S=$work/split.git
	git init -q --bare "$S"
	GIT_DIR=$S GIT_WORK_TREE=$BENCH_SPLIT_KERNEL git -c core.bare=false add -A -f .
	GIT_DIR=$S GIT_WORK_TREE=$BENCH_SPLIT_KERNEL git -c core.bare=false commit -q -m "the tree"
	git --git-dir="$S" gc -q
	t0=$(now)
	"$uapid" branch --arch x86 --no-headers "$S" >"$work/out"
	t1=$(now)
	echo "split branch, first creation on $BENCH_SPLIT_KERNEL: $(ms "$t0" "$t1") ms"
	sed 's/^/  /' "$work/out"
fi
