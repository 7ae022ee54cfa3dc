#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon under ThreadSanitizer: builds uapid with --enable-tsan (and the
# test hooks) into BUILD-DIR (default: build-tsan/ in the source tree),
# then runs, with every report logged:
#   - the unit suites that run a libuv loop and its pool (check_engine,
#     check_watch, check_sched, check_store),
#   - the daemon suites: cli-watch.sh, cli-rpc.sh, cli-ctl.sh, cli-editors.sh,
#     cli-branch.sh, with this build's uapid and uapictl,
#   - uapid api-diff --arch all on the sample tree (its ABIs on two workers),
#   - tests/kernel/tsan-stress.sh on linux-source-6.1 (KERNEL, or its defaults),
# and fails unless every suite passes and ThreadSanitizer reported nothing.
# Part of the full test tier (it takes a while: the stress alone is minutes).
#
#   sh tests/cli/tsan.sh [BUILD-DIR] [KERNEL]
#
# TSAN_STRESS=0 leaves the stress script out.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-tsan}
kernel=${2:-}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ] ||
	[ "$top/Makefile.am" -nt "$top/Makefile.in" ]; then
	(cd "$top" && autoreconf -fi >/dev/null)
fi
mkdir -p "$build"
if [ ! -f "$build/Makefile" ] || [ "$top/configure" -nt "$build/config.status" ] ||
	! grep -q 'define UD_TSAN 1' "$build/config.h" || ! grep -q 'define UD_TEST_HOOKS 1' "$build/config.h"; then
	echo "==> configure --enable-tsan --enable-test-hooks (in $build)"
	(cd "$build" && "$top/configure" -q --enable-tsan --enable-test-hooks)
fi
echo "==> make (in $build)"
make -C "$build" -s -j"$(nproc)" >/dev/null
make -C "$build" -s -j"$(nproc)" check TESTS= >/dev/null

logs=$(mktemp -d "${TMPDIR:-/tmp}/uapid-tsan.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# every process of this build logs its reports here; a report makes it exit 66
# (no suppressions: libuv's close(2) is made visible instead, src/daemon/tsan-syscall.c)
TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 log_path=$logs/tsan"
export TSAN_OPTIONS
# libcheck's 4 s per test is a hang detector; TSan runs code 5-15 times slower
export CK_DEFAULT_TIMEOUT="${CK_DEFAULT_TIMEOUT:-120}"
failed=0

for t in check_engine check_watch check_sched check_store; do
	if top_srcdir=$top "$build/tests/unit/$t" >"$logs/$t.out" 2>&1; then
		echo "tsan: $t passed"
	else
		echo "tsan: $t FAILED" >&2
		tail -20 "$logs/$t.out" >&2
		failed=1
	fi
done
for t in cli-watch cli-rpc cli-ctl cli-editors cli-branch; do
	if top_srcdir=$top top_builddir=$build UAPID=$build/src/uapid UAPICTL=$build/src/uapictl \
		sh "$top/tests/cli/$t.sh" >"$logs/$t.out" 2>&1; then
		echo "tsan: $t.sh passed"
	else
		echo "tsan: $t.sh FAILED" >&2
		tail -20 "$logs/$t.out" >&2
		failed=1
	fi
done
# api-diff --arch all: its ABIs on two workers, each on a copy of its architecture's
# models (their names shared, api-quiet.c) while the next architecture is read; the
# sample tree's three architectures, six ABIs, against a copy where a struct grew
cp -R "$top/tests/trees/mini" "$logs/mini-old"
cp -R "$top/tests/trees/mini" "$logs/mini-new"
sed 's/^\t__u64 addr;$/\t__u64 addr;\n\t__u32 more;/' "$top/tests/trees/mini/include/uapi/linux/mini.h" \
	>"$logs/mini-new/include/uapi/linux/mini.h"
rc=0
"$build/src/uapid" api-diff --arch all "$logs/mini-old" "$logs/mini-new" >"$logs/api-diff-all.out" 2>&1 ||
	rc=$?
if [ "$rc" = 0 ] && grep -q 'compared: 6 ABIs' "$logs/api-diff-all.out" &&
	grep -q 'struct mini_req: grew at its end' "$logs/api-diff-all.out"; then
	echo "tsan: api-diff --arch all passed"
else
	echo "tsan: api-diff --arch all FAILED (exit $rc)" >&2
	tail -20 "$logs/api-diff-all.out" >&2
	failed=1
fi
if [ "${TSAN_STRESS:-1}" != 0 ]; then
	# the stress script collects its daemon's reports itself
	if top_srcdir=$top UAPID=$build/src/uapid UAPICTL=$build/src/uapictl \
		sh "$top/tests/kernel/tsan-stress.sh" $kernel >"$logs/stress.out" 2>&1; then
		grep '^tsan-stress:' "$logs/stress.out"
		echo "tsan: tsan-stress.sh passed"
	else
		echo "tsan: tsan-stress.sh FAILED" >&2
		tail -60 "$logs/stress.out" >&2
		failed=1
	fi
fi

reports=$(cat "$logs"/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
echo "tsan: $reports ThreadSanitizer reports from the suites"

if [ "$reports" -gt 0 ]; then
	cat "$logs"/tsan.* >&2
	grep -h '^SUMMARY' "$logs"/tsan.* | sort | uniq -c >&2
	failed=1
fi
[ "$failed" = 0 ] && echo "tsan: all passed, no reports"
exit "$failed"
