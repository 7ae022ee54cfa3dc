#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ./test.sh [--quick | --full]: install what is missing, build, pass the tests.
#
#   ./test.sh          the default tier, before every commit: make check, the
#                      same under AddressSanitizer + UndefinedBehaviorSanitizer,
#                      and a real-kernel smoke on Debian's linux-source-6.1
#                      (tests/kernel/kernel-smoke.sh: install = linux-libc-dev, the
#                      daemon ready on the whole tree).
#   ./test.sh --full   all of it (CI: .ci/run): the default tier, the
#                      --enable-debug build, the unit and daemon suites under
#                      valgrind, the systemd units, make distcheck, every bench
#                      once on a small tree, and the kernel-scale acceptance on
#                      linux-source-6.1 and 6.12 (tests/kernel/kernel-headers.sh,
#                      daemon-kernel.sh, branch-kernel.sh, daemon-vs-batch.sh),
#                      and a ThreadSanitizer build running the daemon suites
#                      and a stress of its thread pool (tests/cli/tsan.sh,
#                      tsan-stress.sh); Linux 3.6 and 2.6.35 where
#                      bench/fetch-kernels.sh --full put them
#                      (tests/kernel/old-kernels.sh).
#   ./test.sh --quick  (or UD_QUICK=1) the build and make check only.
# doc/testing.md has the stages of each tier and their times.
#
# Every stage prints its wall and CPU time as it ends, and a table of all of
# them closes the run; its output is in build/test-logs/NAME.log, shown
# whole when it fails (and the run stops there, the other stages stopped).
#
# Adding a stage: one line in the list below, in the tier it belongs to
# (.ci/stages.sh has the details):
#   stage TIER NAME CMD [ARG...]   run CMD (a command or a function) now
#   spawn TIER NAME CMD [ARG...]   run it in the background, beside the next
#                                  stages; `join NAME` waits for it (the
#                                  run's end joins every one)
# TIER: quick, default or full (a stage runs in its tier and the ones above).
# The machine has two cores: spawn what waits more than it computes (daemon
# suites) or what must start early to end in time (the kernel's references),
# and mind what a stage reads while another writes (each build directory is
# written by its build stage only; the kernel trees are read-only).
# run_test KIND/NAME runs tests/KIND/NAME.sh against build/ the way make check would.
set -euo pipefail
. "$(dirname "$0")/.ci/setup.sh"
export UD_CONFIGURE_FLAGS=--enable-test-hooks # every build here: the crash-injection cases of cli-watch.sh

UD_LEVEL=default
case ${1:-} in
--full) UD_LEVEL=full ;;
--quick) UD_LEVEL=quick ;;
"") if [ "${UD_QUICK:-0}" = 1 ]; then UD_LEVEL=quick; fi ;;
*)
	echo "usage: ./test.sh [--quick | --full]" >&2
	exit 2
	;;
esac
. "$UD_TOP/.ci/stages.sh"
. "$UD_TOP/tests/kernel/kernel-lib.sh"

# scratch space of the run: the kernel trees (extracted once), their references
UD_SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/uapid-test-sh.XXXXXX")
# what the full tier computes from inputs that rarely change, kept between runs keyed by
# those inputs' checksums (tests/kernel/kernel-refs.sh: the kernel's own headers_install for
# every architecture; tests/kernel/api-layout-oracle.py and abi-oracle.py: the compilers'
# answers): UD_CACHE=DIR to keep it elsewhere, UD_CACHE= (empty) for none. Never required: a run without it
# computes everything (doc/testing.md has both times).
export UD_CACHE=${UD_CACHE-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/uapid-test}
export UD_KERNEL_TREES=$UD_SCRATCH/kernels UD_KERNEL_REFS=$UD_SCRATCH/refs
stages_init "$UD_SCRATCH"

packages=(linux-source-6.1 rsync xz-utils neovim emacs-nox elpa-eglot bash-completion)
kernels=(6.1)
if [ "$UD_LEVEL" = full ]; then
	packages+=(valgrind linux-source-6.12 bc abigail-tools clang clang-format chromium)
	# the ABI oracle's compilers (tests/kernel/abi-oracle.py; bench/abi-table.py's table)
	packages+=(gcc-12 gcc-12-{i686,aarch64,riscv64,powerpc,powerpc64,powerpc64le,s390x}-linux-gnu
		gcc-12-{x86-64-linux-gnux32,arm-linux-gnueabihf,mips64el-linux-gnuabi64,mipsel-linux-gnu}
		gcc-12-{sparc64,alpha,arc,hppa,m68k,sh4}-linux-gnu)
	kernels+=(6.12)
fi

# --- what the stages run ----------------------------------------------------------------

# make_check DIR: make check in DIR; on a failure, the logs of the tests that failed
make_check() {
	make -C "$1" -s -j"$(nproc)" check && return 0
	local trs
	for trs in "$1"/tests/*.trs "$1"/tests/*/*.trs; do
		[ -f "$trs" ] && grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$trs" || continue
		printf '\n==> %s\n' "${trs%.trs}.log"
		cat "${trs%.trs}.log"
	done
	return 1
}

asan_env() {
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$@"
}
# build-asan/, then its make check, as two timed steps
asan() {
	stage default build ud_build "$UD_TOP/build-asan" --enable-sanitizers
	stage default check asan_env make_check "$UD_TOP/build-asan"
}

# run_test KIND/NAME [ENV=VALUE...]: tests/KIND/NAME.sh against build/
run_test() {
	local t=$1
	shift
	env top_srcdir="$UD_TOP" top_builddir="$UD_BUILD" UAPID="$UD_BUILD/src/uapid" \
		UAPICTL="$UD_BUILD/src/uapictl" "$@" sh "$UD_TOP/tests/$t.sh"
}

# Debian's kernel sources, each extracted once for every stage that reads them
extract_kernels() {
	local v
	for v in "${kernels[@]}"; do
		kernel_extract "$v" "$UD_KERNEL_TREES/linux-$v"
		echo "linux-source-$v: $(find "$UD_KERNEL_TREES/linux-$v" -type f | wc -l) files"
	done
}

# the kernel's own make headers_install, every architecture (tests/kernel/kernel-refs.sh)
kernel_refs() {
	local v
	for v in "${kernels[@]}"; do
		sh "$UD_TOP/tests/kernel/kernel-refs.sh" "$UD_KERNEL_TREES/linux-$v" "$UD_KERNEL_REFS/$v" \
			"$(kernel_tarball "$v")"
	done
}

valgrind_cmd() {
	UD_TEST_TIME_SCALE=20 valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$@"
}
# every unit suite under valgrind (no errors, no leaks), one per core
valgrind_units() {
	export top_srcdir=$UD_TOP CK_FORK=no UD_SCRATCH
	export -f valgrind_cmd
	find "$UD_BUILD/tests/unit" -maxdepth 1 -name 'check_*' -type f -perm -u+x | sort |
		xargs -P "$(nproc)" -I{} bash -c \
			'err=$UD_SCRATCH/${1##*/}.valgrind
			 if valgrind_cmd "$1" >"$err.out" 2>"$err"; then echo "valgrind clean: ${1##*/}"
			 else cat "$err.out" "$err"; echo "valgrind: $1 failed" >&2; exit 255; fi' sh {}
}
# valgrind_daemon SUITE: a daemon suite with the daemon under valgrind
# (UAPID_DAEMON_WRAP: tests/lib/daemon-lib.sh): what it leaks or misreads over a long run.
# --trace-children=yes: uapid execv()s uapid-full for watch (same pid, so
# the same log file), and the daemon's code is uapid-full's.
valgrind_daemon() {
	local vglog
	vglog=$(mktemp -d "$UD_SCRATCH/vg.XXXXXX")
	run_test "$1" UAPID_DAEMON_WRAP="valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --log-file=$vglog/vg.%p"
	# valgrind's own note on openat2 (uapid falls back to resolving paths itself) is not an error
	if cat "$vglog"/vg.* /dev/null | grep -v -e 'unhandled amd64-linux syscall: 437' -e 'handler' \
		-e 'README_MISSING_SYSCALL' -e 'Nevertheless we consider' -e 'bug_reports' | grep .; then
		echo "valgrind found errors in the daemon" >&2
		return 1
	fi
	echo "valgrind clean: uapid watch in tests/$1.sh ($(ls "$vglog" | wc -l) daemon runs)"
}

# make distcheck, with the suites Makefile.am's distcheck_tests names
distcheck() {
	make -C "$UD_BUILD" -s distcheck \
		TESTS="$(make -s --no-print-directory -C "$UD_BUILD" print-distcheck-tests)"
}
# the release tarball holds every file git tracks, but these
not_distributed='.gitignore .clang-tidy m4/.keep'
dist_files() {
	if ! git -C "$UD_TOP" rev-parse --git-dir >/dev/null 2>&1; then
		echo "not a git checkout: nothing to compare the tarball with"
		return 0
	fi
	local tarball missing
	tarball=$(ls -t "$UD_BUILD"/uapid-*.tar.gz | head -1)
	missing=$(comm -23 <(git -C "$UD_TOP" ls-files | sort) \
		<(tar -tzf "$tarball" | sed 's#^[^/]*/##' | sort) | grep -vxF -f <(tr ' ' '\n' <<<"$not_distributed") || :)
	if [ -n "$missing" ]; then
		printf '%s\n' "$missing" | sed 's/^/  /'
		echo "tracked by git but not in ${tarball##*/}: add them to EXTRA_DIST (Makefile.am), or to not_distributed in test.sh" >&2
		return 1
	fi
	echo "${tarball##*/}: every file git tracks is in it (but $not_distributed)"
}

# the daemon's outputs against the batch commands' (make check runs it on the small trees):
# also on linux-source-6.1 and across a git checkout from 6.1 to 6.12, on the run's trees
daemon_vs_batch() {
	run_test cli/daemon-vs-batch UD_KERNEL_6_1=deb UD_LINUX_GIT=deb
}

# ThreadSanitizer: its build (build-tsan/), the unit suites that run a loop and the daemon
# suites under it (tests/cli/tsan.sh), then the thread pool under load on linux-source-6.1
# (tests/kernel/tsan-stress.sh); each fails on any report. One round of the stress: one full-tree
# resplit with every kind of action landing on it (40 marker flips, each a batch of its own,
# SIGHUP, edits and a commit, resplits); its three rounds by hand take three times as long.
tsan() {
	stage full build niced ud_build "$UD_TOP/build-tsan" --enable-tsan
	stage full suites env TSAN_STRESS=0 sh "$UD_TOP/tests/cli/tsan.sh" "$UD_TOP/build-tsan"
	stage full stress env ROUNDS=1 top_srcdir="$UD_TOP" UAPID="$UD_TOP/build-tsan/src/uapid" \
		UAPICTL="$UD_TOP/build-tsan/src/uapictl" sh "$UD_TOP/tests/kernel/tsan-stress.sh" \
		"$UD_KERNEL_TREES/linux-6.1"
}

# the trees from before the split (tests/kernel/old-kernels.sh: Linux 3.6 and 2.6.35, every
# architecture against their own make headers_install), where bench/fetch-kernels.sh --full
# put them in $UD_KERNELS (~/kernels); without them it says so and skips (77)
old_kernels() {
	local rc=0
	run_test kernel/old-kernels || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 77 ]
}

# the Debian package end to end (tests/cli/package.sh: build, lintian, install, the
# unit, purge); it skips itself (77), saying why, where that cannot run
package_test() {
	local rc=0
	top_srcdir=$UD_TOP sh "$UD_TOP/tests/cli/package.sh" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 77 ]
}

# every C file as .clang-format writes it (clang-format 14, Debian 12's): the files a
# change touches are among them, and a file left unformatted fails here with its lines
check_format() {
	local files bad=0 f
	if git -C "$UD_TOP" rev-parse --git-dir >/dev/null 2>&1; then
		files=$(git -C "$UD_TOP" ls-files 'src/*.[ch]' 'include/*.h' 'tests/*.[ch]' 'bench/*.[ch]' |
			grep -v '^tests/\(data\|trees\|expected\)/')
	else
		files=$(cd "$UD_TOP" && find src include tests/unit tests/fuzz bench -name '*.[ch]')
	fi
	for f in $files; do
		if ! (cd "$UD_TOP" && clang-format --dry-run --Werror "$f" 2>/dev/null); then
			(cd "$UD_TOP" && clang-format --dry-run "$f" 2>&1 | head -6)
			bad=$((bad + 1))
		fi
	done
	echo "clang-format: $(echo "$files" | wc -w) files, $bad not formatted"
	[ "$bad" = 0 ]
}

# the units as installed, checked by systemd-analyze
systemd_units() {
	local units
	units=$(mktemp -d "$UD_SCRATCH/units.XXXXXX")
	sed "s|^ExecStart=[^ ]*uapid |ExecStart=$UD_BUILD/src/uapid |" "$UD_BUILD/systemd/uapid@.service" \
		>"$units/uapid@.service"
	cp "$UD_TOP/systemd/uapid@.socket" "$units/"
	ln -s uapid@.service "$units/uapid@srv-linux.service"
	ln -s uapid@.socket "$units/uapid@srv-linux.socket"
	(cd "$units" && systemd-analyze verify --man=no uapid@srv-linux.service uapid@srv-linux.socket)
	systemd-analyze security --offline=true --no-pager "$units/uapid@srv-linux.service" | tail -1
}

# --- the stages ------------------------------------------------------------------------
stage quick deps ud_install_deps "${packages[@]}"
spawn default kernel-trees extract_kernels
stage quick build ud_build "$UD_BUILD"
spawn default asan asan
stage quick check make_check "$UD_BUILD"
join kernel-trees
spawn full kernel-refs niced kernel_refs
# api-diff's verdicts and layouts on 6.1 -> 6.12 (tests/kernel/api-kernel.sh: the layout oracle,
# the labelled set, the summary and its time)
spawn full api-kernel niced run_test kernel/api-kernel UD_KERNEL_61="$UD_KERNEL_TREES/linux-6.1" \
	UD_KERNEL_612="$UD_KERNEL_TREES/linux-6.12"
# api-diff's shortcut (src/api/api-quiet.c) against resolving every symbol: 6.1 -> 6.12 and
# planted edits on ten ABIs, and --arch all (tests/kernel/api-quiet-oracle.sh)
spawn full api-quiet-oracle niced run_test kernel/api-quiet-oracle \
	UD_KERNEL_61="$UD_KERNEL_TREES/linux-6.1" UD_KERNEL_612="$UD_KERNEL_TREES/linux-6.12"
# the api-diff report of 6.1 -> 6.12 in each form, and its HTML page in headless chromium
# (tests/kernel/api-report-browser.sh: the page's counts against --json, a screenshot)
spawn full api-report-browser niced run_test kernel/api-report-browser \
	UD_KERNEL_61="$UD_KERNEL_TREES/linux-6.1" UD_KERNEL_612="$UD_KERNEL_TREES/linux-6.12"
# uapid check-uapi beside the kernel's scripts/check-uapi.sh (6.12's, with abidiff) on a git
# repository of 6.1 with planted changes (tests/kernel/check-uapi-kernel.sh)
spawn full check-uapi-kernel niced run_test kernel/check-uapi-kernel \
	UD_KERNEL_61="$UD_KERNEL_TREES/linux-6.1" UD_KERNEL_612="$UD_KERNEL_TREES/linux-6.12"
# layouts, constant values and predefined macros of 6.1 and 6.12 on every ABI against the
# cross compilers (tests/kernel/abi-oracle.sh; their answers cached in $UD_CACHE/abi-oracle)
spawn full abi-oracle niced run_test kernel/abi-oracle UD_KERNEL_61="$UD_KERNEL_TREES/linux-6.1" \
	UD_KERNEL_612="$UD_KERNEL_TREES/linux-6.12"
spawn full branch-kernel niced run_test kernel/branch-kernel
# the daemon against the batch commands on 6.1 and from 6.1 to 6.12: its own trees and
# state, so it starts with the other kernel stages (it was the run's last long pole)
spawn full daemon-vs-batch niced daemon_vs_batch
stage default kernel-smoke run_test kernel/kernel-smoke
join asan

spawn full distcheck niced distcheck
spawn full debug-build niced ud_build "$UD_TOP/build-debug" --enable-debug
# the other compiler the code is written for: its warnings are errors too
spawn full clang-build niced ud_build "$UD_TOP/build-clang" CC=clang
stage full systemd systemd_units
stage full format check_format
stage full valgrind-units valgrind_units
spawn full valgrind-cli-watch valgrind_daemon cli/cli-watch
spawn full valgrind-cli-rpc valgrind_daemon cli/cli-rpc
stage full valgrind-cli-ctl valgrind_daemon cli/cli-ctl
spawn full tsan tsan
join kernel-refs
spawn full old-kernels niced old_kernels
stage full kernel-headers niced run_test kernel/kernel-headers
stage full daemon-kernel run_test kernel/daemon-kernel
spawn full package niced package_test
join distcheck
stage full dist-files dist_files
stage full bench niced bash "$UD_TOP/bench/smoke.sh" "$UD_BUILD" "$UD_KERNEL_TREES/linux-6.1"
join

stages_table
echo "test.sh: all passed ($UD_LEVEL tier)"
