# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Shared helpers for the integration scripts (sourced).
set -eu
: "${UAPID:=$(pwd)/src/uapid}"
: "${UAPICTL:=$(pwd)/src/uapictl}"
: "${top_srcdir:=$(pwd)}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/uapid-test.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0
# uapid_has TEXT: TEXT (a test hook's variable) is compiled into the daemon, which is
# uapid-full beside $UAPID (uapid runs it for watch: src/cmd/uapid.c), or $UAPID itself
uapid_has() { grep -q -- "$1" "${UAPID%/*}/uapid-full" 2>/dev/null || grep -q -- "$1" "$UAPID"; }

# nobody_binaries: NUAPID, the uapid user nobody runs (with NENV before it: the env that names
# its uapid-full): $UAPID itself when nobody can run it (and the uapid-full it runs), else copies
# of uapid, uapid-full and uapictl in $WORK/nobody-bin: a clone under a directory nobody cannot
# reach (/root, mktemp -d) runs its permission cases too.  Root only (setpriv).
nobody_binaries() {
	NUAPID=$UAPID NENV=
	if setpriv --reuid=65534 --regid=65534 --clear-groups -- "$UAPID" split --help >/dev/null 2>&1; then
		return 0
	fi
	nb=$WORK/nobody-bin
	mkdir -p "$nb"
	cp "$UAPID" "$nb/uapid"
	cp "${UAPID_FULL:-${UAPID%/*}/uapid-full}" "$nb/uapid-full"
	if [ -n "${UAPICTL:-}" ] && [ -f "$UAPICTL" ]; then cp "$UAPICTL" "$nb/uapictl"; fi
	chmod 755 "$WORK" "$nb" "$nb"/*
	NUAPID=$nb/uapid NENV="env UAPID_FULL=$nb/uapid-full"
	echo "note: user nobody cannot run $UAPID: its permission cases run copies in $nb" >&2
}

pass() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*" >&2; }
# expect_status WANT CMD...: run CMD, compare its exit status
expect_status() {
	want=$1; shift
	set +e; "$@" >"$WORK/out" 2>"$WORK/err"; got=$?; set -e
	if [ "$got" = "$want" ]; then pass; else fail "exit $got (want $want): $*"; sed 's/^/  | /' "$WORK/err" >&2; fi
}
# expect_in FILE TEXT: FILE contains TEXT
expect_in() {
	if grep -qF -- "$2" "$1"; then pass; else fail "'$2' not in $1"; sed 's/^/  | /' "$1" >&2; fi
}
expect_not_in() {
	if grep -qF -- "$2" "$1"; then fail "'$2' unexpectedly in $1"; else pass; fi
}
expect_same() {
	if cmp -s "$1" "$2"; then pass; else fail "$1 and $2 differ"; diff -u "$1" "$2" >&2 || true; fi
}
expect_file() { if [ -f "$1" ]; then pass; else fail "missing $1"; fi; }
expect_no_file() { if [ -e "$1" ]; then fail "unexpected $1"; else pass; fi; }
finish() {
	echo "$((checks - failures)) passed, $failures failed"
	[ "$failures" -eq 0 ]
}
# A small kernel-like tree: Kbuild export lists and a few headers.
make_tree() {
	t=$1
	mkdir -p "$t/include/linux" "$t/include/uapi/linux" "$t/arch/x86/include/asm" "$t/include/asm-generic"
	cat >"$t/include/linux/Kbuild" <<'KB'
header-y += split.h
header-y += plain.h
header-y += refuse.h
ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h),)
header-y += kvm.h
endif
KB
	cp "$top_srcdir/tests/data/basic/in.h" "$t/include/linux/split.h"
	cp "$top_srcdir/tests/data/moved-no-kernel/in.h" "$t/include/linux/plain.h"
	cp "$top_srcdir/tests/data/refuse-elif/in.h" "$t/include/linux/refuse.h"
	printf '#ifndef _LINUX_KVM_H\n#define _LINUX_KVM_H\n#define KVM_API 12\n#ifdef __KERNEL__\nint kvm;\n#endif\n#endif\n' >"$t/include/linux/kvm.h"
	printf '#ifndef _LINUX_PRIV_H\n#define _LINUX_PRIV_H\n#ifdef __KERNEL__\nint p;\n#endif\n#endif\n' >"$t/include/linux/private.h"
	printf 'include include/asm-generic/Kbuild.asm\n' >"$t/arch/x86/include/asm/Kbuild"
	printf 'header-y += ptrace.h\n' >"$t/include/asm-generic/Kbuild.asm"
	printf '#ifndef _ASM_X86_PTRACE_H\n#define _ASM_X86_PTRACE_H\n#include "ptrace-abi.h"\nstruct pt_regs { long ax; };\n#ifdef __KERNEL__\nint ptrace_kernel;\n#endif\n#endif\n' >"$t/arch/x86/include/asm/ptrace.h"
	printf '#define PTRACE_ABI 1\n' >"$t/arch/x86/include/asm/ptrace-abi.h"
}
