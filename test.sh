#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ./test.sh: install what is missing, build, and pass every test:
#  1. make check (unit suites and integration scripts),
#  2. the same under AddressSanitizer + UndefinedBehaviorSanitizer, after a
#     build with --enable-debug (the long warning list, warnings as errors),
#  3. the unit suites under valgrind (no errors, no leaks),
#  4. make distcheck (the release tarball builds and passes too),
#  5. uapid install/check on Debian's linux-source-6.1 and 6.12, every
#     architecture, against the kernel's own make headers_install and
#     linux-libc-dev; the daemon on 6.1 then 6.12; the headers branch over
#     a 300-commit synthetic history of 6.1 (tests/branch-kernel.sh).
# UD_QUICK=1 runs only step 1.
set -euo pipefail
. "$(dirname "$0")/.ci/setup.sh"

ud_install_deps valgrind linux-source-6.1 linux-source-6.12 rsync xz-utils bc neovim bash-completion
ud_build "$UD_BUILD"
ud_say "make check"
make -C "$UD_BUILD" -s -j"$(nproc)" check || { cat "$UD_BUILD"/tests/*.log >&2; exit 1; }
[ "${UD_QUICK:-0}" = 1 ] && exit 0

ud_say "build with --enable-debug"
ud_build "$UD_TOP/build-debug" --enable-debug

ud_build "$UD_TOP/build-asan" --enable-sanitizers
ud_say "make check (ASan + UBSan)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	make -C "$UD_TOP/build-asan" -s -j"$(nproc)" check ||
	{ cat "$UD_TOP"/build-asan/tests/*.log >&2; exit 1; }

ud_say "unit suites under valgrind"
make -C "$UD_BUILD" -s check TESTS= >/dev/null
for t in "$UD_BUILD"/tests/check_*; do
	[ -x "$t" ] || continue
	top_srcdir=$UD_TOP CK_FORK=no valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=1 "$t" >/dev/null || { echo "valgrind: $t failed" >&2; exit 1; }
	echo "valgrind clean: ${t##*/}"
done

ud_say "the daemon under valgrind (tests/cli-watch.sh, cli-rpc.sh, cli-ctl.sh)"
vglog=$(mktemp -d)
for t in cli-watch cli-rpc cli-ctl; do
	top_srcdir=$UD_TOP UAPID=$UD_BUILD/src/uapid UAPICTL=$UD_BUILD/src/uapictl \
		UAPID_DAEMON_WRAP="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --log-file=$vglog/vg.%p" \
		sh "$UD_TOP/tests/$t.sh"
done
# valgrind's own note on openat2 (uapid falls back to resolving paths itself) is not an error
if grep -v -e 'unhandled amd64-linux syscall: 437' -e 'handler' -e 'README_MISSING_SYSCALL' \
	-e 'Nevertheless we consider' -e 'bug_reports' "$vglog"/vg.* | grep .; then
	echo "valgrind found errors in the daemon" >&2
	exit 1
fi
rm -rf "$vglog"
echo "valgrind clean: uapid watch"

ud_say "systemd units"
units=$(mktemp -d)
sed "s|^ExecStart=[^ ]*uapid |ExecStart=$UD_BUILD/src/uapid |" "$UD_BUILD/systemd/uapid@.service" \
	>"$units/uapid@.service"
cp "$UD_TOP/systemd/uapid@.socket" "$units/"
ln -s uapid@.service "$units/uapid@srv-linux.service"
ln -s uapid@.socket "$units/uapid@srv-linux.socket"
(cd "$units" && systemd-analyze verify --man=no uapid@srv-linux.service uapid@srv-linux.socket)
systemd-analyze security --offline=true --no-pager "$units/uapid@srv-linux.service" | tail -1
rm -rf "$units"

ud_say "make distcheck"
make -C "$UD_BUILD" -s distcheck >/dev/null

ud_say "installed headers on Debian's linux-source-6.1 and 6.12 (every architecture)"
top_srcdir=$UD_TOP UAPID=$UD_BUILD/src/uapid sh "$UD_TOP/tests/kernel-headers.sh"
ud_say "uapid watch on linux-source-6.1, then 6.12 over it"
top_srcdir=$UD_TOP UAPID=$UD_BUILD/src/uapid UAPICTL=$UD_BUILD/src/uapictl sh "$UD_TOP/tests/daemon-kernel.sh"
ud_say "uapid branch's headers branch over a 300-commit history of linux-source-6.1"
top_srcdir=$UD_TOP UAPID=$UD_BUILD/src/uapid sh "$UD_TOP/tests/branch-kernel.sh"
top_srcdir=$UD_TOP sh "$UD_TOP/tests/package.sh" || [ $? -eq 77 ] # the .deb: build, lintian, install, run, purge
echo "test.sh: all passed"
