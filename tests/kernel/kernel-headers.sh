#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance on real kernels: Debian's linux-source-6.1 and linux-source-6.12.
#  - for every architecture that `make ARCH=A headers_install` accepts,
#    `uapid install --arch A` equals the kernel's own result byte for byte
#    (diff -r, nothing allowed); the kernel's references are made by
#    tests/kernel/kernel-refs.sh, or taken from $UD_KERNEL_REFS/VERSION where
#    test.sh made them beside its other stages;
#  - the architectures make refuses (um, sparc32; ia64 on 6.12) are refused by
#    uapid too, with the kernel's reason;
#  - `uapid install --arch all` gives the same trees;
#  - on 6.1, x86 equals /usr/include from linux-libc-dev (same version);
#  - `uapid check --arch x86` finds no error on either tree;
#  - where the 3.x trees of the ground truth are present ($UD_KERNELS, made by
#    bench/fetch-kernels.sh --full): 3.8 and 3.7 x86 equal their own make
#    headers_install, and on 3.7 the installed headers before and after
#    `uapid split --in-place` differ only where the split itself changes them.
# Run by test.sh --full (it installs both packages); not part of make check.
# The trees come from tests/kernel/kernel-lib.sh (test.sh extracts each once a run).
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/kernel/kernel-lib.sh"

jobs=${UD_REF_JOBS:-$(nproc)}

for ver in 6.1 6.12; do
	K=$(kernel_tree "$ver")
	version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$K/Makefile" | paste -sd.)
	echo "kernel tree: $version ($K)"
	mkdir -p "$WORK/$ver"

	# the kernel's own references: made for this run by test.sh, or here
	refs=${UD_KERNEL_REFS:-}/$ver
	if [ -z "${UD_KERNEL_REFS:-}" ] || [ "$(cat "$refs/version" 2>/dev/null)" != "$version" ]; then
		refs=$WORK/$ver/refs
		sh "$top_srcdir/tests/kernel/kernel-refs.sh" "$K" "$refs" "$(kernel_tarball "$ver")"
	else
		echo "$ver: kernel references from $refs"
	fi
	arches=$(cat "$refs/arches")
	aliases=$(cat "$refs/aliases")
	if [ -s "$refs/make-failed" ]; then
		fail "$ver: make headers_install failed for $(cat "$refs/make-failed")"
		for a in $(cat "$refs/make-failed"); do tail -5 "$refs/make-$a.log" >&2; done
	fi

	t0=$(date +%s)
	total=0 same=0
	for a in $arches $aliases; do
		total=$((total + 1))
		set +e
		"$UAPID" install --arch "$a" "$K" "$WORK/$ver/ours-$a" >"$WORK/out" 2>"$WORK/err"
		rc=$?
		set -e
		rm -f "$WORK/$ver/ours-$a/.uapid-install"
		if [ "$rc" != 0 ]; then
			fail "$ver $a: uapid install exit $rc"
			sed 's/^/  | /' "$WORK/err" >&2
		elif diff -r "$refs/ref-$a/include" "$WORK/$ver/ours-$a/include" >"$WORK/diff"; then
			pass
			same=$((same + 1))
		else
			fail "$ver $a: differs from make headers_install"
			head -20 "$WORK/diff" >&2
		fi
	done
	echo "$ver: $same of $total architectures identical to make headers_install ($(($(date +%s) - t0)) s for uapid)"

	# what make refuses, uapid refuses, with the kernel's reason
	for a in $(cat "$refs/refused" 2>/dev/null); do
		expect_status 2 "$UAPID" install --arch $a "$K" "$WORK/$ver/refused-$a"
		case $a in
		um) expect_in "$WORK/err" "Makefile:" && expect_in "$WORK/err" "Headers not exportable for UML" ;;
		*) expect_in "$WORK/err" "arch/$a/Makefile: No such file or directory" ;;
		esac
		expect_no_file "$WORK/$ver/refused-$a/include"
	done

	# --arch all: one directory per architecture, the same trees
	t0=$(date +%s)
	expect_status 0 "$UAPID" install --arch all "$K" "$WORK/$ver/all"
	tail -1 "$WORK/out"
	echo "$ver: --arch all in $(($(date +%s) - t0)) s"
	for a in $arches; do
		rm -f "$WORK/$ver/all/$a/.uapid-install"
		if diff -r "$refs/ref-$a/include" "$WORK/$ver/all/$a/include" >"$WORK/diff"; then pass; else
			fail "$ver --arch all: $a differs"
			head -10 "$WORK/diff" >&2
		fi
	done

	expect_status 0 "$UAPID" check --arch x86 "$K"
	tail -1 "$WORK/out"
	expect_in "$WORK/out" " 0 errors"

	if [ "$ver" = 6.1 ]; then
		# Debian's packaged copy of the same headers
		rc=0
		libc_dev_compare "$WORK/$ver/ours-x86" "$version" || rc=$?
		case $rc in 0) pass ;; 1) fail "linux-libc-dev comparison" ;; esac
	fi
	rm -rf "$WORK/$ver"
	[ "$K" != "$WORK/linux-$ver" ] || rm -rf "$K"
done

# --- 3.x, where the ground-truth trees are (bench/fetch-kernels.sh --full) ------------
kernels=${UD_KERNELS:-${HOME:-}/kernels}
for v in 3.8 3.7; do
	full=$kernels/full-$v
	if [ ! -f "$full/Makefile" ]; then
		echo "3.x: $full absent: the $v install comparison is skipped (bench/fetch-kernels.sh --full)"
		continue
	fi
	cp -a "$full" "$WORK/k$v"
	make -s -C "$WORK/k$v" ARCH=x86 headers_install INSTALL_HDR_PATH="$WORK/ref$v" -j"$jobs" \
		>"$WORK/make$v.log" 2>&1 || { tail -5 "$WORK/make$v.log" >&2; fail "$v: make headers_install"; }
	expect_status 0 "$UAPID" install --arch x86 "$full" "$WORK/ours$v"
	n=$(find "$WORK/ref$v/include" -name '*.h' | wc -l)
	# the kernel's 3.x install leaves .install and ..install.cmd files (and an
	# include/uapi directory holding only those): the headers are compared
	if diff -r -x '.*' -x uapi "$WORK/ref$v/include" "$WORK/ours$v/include" >"$WORK/diff"; then
		pass
		echo "$v x86: identical to make headers_install ($n headers)"
	else
		fail "$v x86: differs from make headers_install"
		head -20 "$WORK/diff" >&2
	fi
	if [ "$v" = 3.7 ]; then
		# the split's own check: what userspace sees before and after the split
		cp -a "$full" "$WORK/s$v"
		expect_status 1 "$UAPID" split --in-place "$WORK/s$v"
		expect_status 0 "$UAPID" install --arch x86 "$WORK/s$v" "$WORK/split$v"
		diff -rq "$WORK/ours$v/include" "$WORK/split$v/include" | grep -v uapid-install |
			sed "s#$WORK/ours$v/include/##; s# and .*##; s#^Files ##" >"$WORK/changed" || true
		echo "$v x86 after uapid split: $(wc -l <"$WORK/changed") installed headers change:"
		sed 's/^/  /' "$WORK/changed"
		# each change is one the 2012 split makes (doc/validation.md, "Installed headers, measured")
		if [ "$(sort "$WORK/changed" | tr '\n' ' ')" = "asm/hw_breakpoint.h asm/ist.h asm/setup.h asm/svm.h asm/unistd.h asm/vmx.h sound/emu10k1.h sound/sb16_csp.h video/sisfb.h " ]; then
			pass
		else
			fail "$v: the split changes other installed headers than the known nine"
		fi
	fi
done

finish
