#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-install [BENCH_KERNEL=DIR]: uapid install --arch x86 on a full
# kernel tree (Makefile, scripts/, include/, arch/), beside the kernel's own
# make headers_install and unifdef run once per uapi header, in one run.
# Beside them the floors of the same run (issue 25): `cp -r` of the files
# this run installed into an empty directory, and a process that lstat()s
# each of them (find -printf '%s', as uapid's re-run must at least stat
# them), with uapid's ratio to each.  Prints seconds (best of N where
# cheap); asserts nothing.  BENCH_RUNS=N runs each N times instead
# (test.sh's smoke run: 1).
set -eu
K=$(realpath "${1:?usage: bench/install.sh KERNEL-TREE [UAPID]}")
uapid=$(realpath "${2:-src/uapid}")
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
best() { # best SECONDS of N runs of "$@" RUN-NUMBER; setup_$1 runs untimed first
	n=${BENCH_RUNS:-$1}; shift; b=999
	for i in $(seq "$n"); do
		if command -v "setup_$1" >/dev/null 2>&1; then "setup_$1" "$i"; fi
		t0=$(now); "$@" "$i" >/dev/null 2>&1; t1=$(now)
		b=$(echo "t = $t1 - $t0; if (t < $b) t else $b" | bc)
	done
	echo "$b"
}
setup_fresh() { rm -rf "$work/ours"; sync; }
fresh() { "$uapid" install --arch x86 "$K" "$work/ours"; }
again() { "$uapid" install --arch x86 "$K" "$work/ours"; }
setup_kmake() {
	# drop make's own staging copy so every header goes through headers_install.sh again
	find "$K/usr/include" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	rm -rf "$work/ref"
	sync
}
setup_cpfloor() { rm -rf "$work/cp"; sync; }
cpfloor() { cp -r "$work/ours/include" "$work/cp"; }
statfloor() { find "$work/ours" -type f -printf '%s\n'; }
startup() { "$uapid" --help; }
ratio() { echo "scale = 2; $1 / $2" | bc; }
# the lstat() calls alone, in one process already running (no start-up, no directory walk)
lstat_loop() {
	python3 -c 'import os, sys, time
files = [os.path.join(d, f) for d, _, fs in os.walk(sys.argv[1]) for f in fs]
best = 9.0
for _ in range(int(sys.argv[2])):
	t = time.perf_counter()
	for f in files:
		os.lstat(f)
	best = min(best, time.perf_counter() - t)
print("%.4f" % best)' "$work/ours" "${BENCH_RUNS:-5}"
}
kmake() { make -s -C "$K" ARCH=x86 headers_install INSTALL_HDR_PATH="$work/ref" -j"$jobs"; }

shm=$(mktemp -d /dev/shm/uapid-bench.XXXXXX 2>/dev/null || true)
trap 'rm -rf "$work" ${shm:+"$shm"}' EXIT
setup_fresh_shm() { rm -rf "$shm/ours"; }
fresh_shm() { "$uapid" install --arch x86 "$K" "$shm/ours"; }
cpu() { # user+sys seconds of one fresh run
	rm -rf "$work/cpu"
	/usr/bin/time -f "%U %S" "$uapid" install --arch x86 "$K" "$work/cpu" 2>&1 >/dev/null | tail -1 |
		awk '{ print $1 + $2 }'
}

make -s -C "$K" ARCH=x86 headers_install INSTALL_HDR_PATH="$work/ref" -j"$jobs" >/dev/null 2>&1
uapi=$(cd "$K" && find include/uapi arch/x86/include/uapi -name '*.h' | wc -l)
per_file() {
	(cd "$K" && find include/uapi arch/x86/include/uapi -name '*.h' | while read -r f; do
		scripts/unifdef -U__KERNEL__ -D__EXPORTED_HEADERS__ "$f" >/dev/null || true
	done)
}

printf '%-46s %8s\n' "what (Linux $(sed -n 's/^VERSION = //p' "$K/Makefile").x, x86)" "seconds"
t_fresh=$(best 5 fresh)
printf '%-46s %8.3f\n' "uapid install, empty OUTDIR (best of ${BENCH_RUNS:-5})" "$t_fresh"
[ -n "$shm" ] && printf '%-46s %8.3f\n' "  the same, OUTDIR on tmpfs (best of ${BENCH_RUNS:-3})" "$(best 3 fresh_shm)"
printf '%-46s %8.3f\n' "  uapid's own CPU time (user + sys)" "$(cpu)"
fresh >/dev/null
nfiles=$(find "$work/ours/include" -type f | wc -l)
t_cp=$(best 5 cpfloor)
printf '%-46s %8.3f\n' "  floor: cp -r of its $nfiles files (best of ${BENCH_RUNS:-5})" "$t_cp"
printf '%-46s %8s\n' "  ratio uapid / cp -r" "$(ratio "$t_fresh" "$t_cp")"
t_again=$(best 5 again)
printf '%-46s %8.3f\n' "uapid install, nothing changed (best of ${BENCH_RUNS:-5})" "$t_again"
t_stat=$(best 5 statfloor)
printf '%-46s %8.3f\n' "  floor: find -printf %s, lstat()s each file" "$t_stat"
printf '%-46s %8s\n' "  ratio uapid / find" "$(ratio "$t_again" "$t_stat")"
printf '%-46s %8.3f\n' "  the lstat() calls alone (in-process loop)" "$(lstat_loop)"
printf '%-46s %8.3f\n' "  uapid --help (process start-up)" "$(best 5 startup)"
printf '%-46s %8.3f\n' "make headers_install -j$jobs (best of ${BENCH_RUNS:-2})" "$(best 2 kmake)"
printf '%-46s %8.3f\n' "unifdef once per uapi header ($uapi files)" "$(best 1 per_file)"
if diff -r "$work/ref/include" "$work/ours/include" >/dev/null; then
	echo "outputs identical: yes"
else
	echo "outputs identical: NO"
fi
