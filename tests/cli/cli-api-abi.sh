#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The API model on several ABIs: api-layout --values checked against the
# C compiler on x86_64, i386 and x32 (gcc -m64, -m32, -mx32: compile only,
# no libc), and api-diff --arch all of two `uapid install --arch all`
# directories, a change said once or per ABI.
. "${top_srcdir:-.}/tests/lib/lib.sh"
# expect_re FILE REGEX: a line of FILE matches the (basic) regular expression
expect_re() { if grep -q -- "$2" "$1"; then pass; else fail "/$2/ not in $1"; sed 's/^/  | /' "$1" >&2; fi; }

# a small installed tree for one architecture: the kernel's integer types,
# ioctl numbers, and constants whose values depend on the ABI
inst() {
	d=$1/include
	mkdir -p "$d/linux" "$d/asm" "$d/asm-generic"
	printf '#ifndef _LINUX_TYPES_H\n#define _LINUX_TYPES_H\n#include <asm/types.h>\n#endif\n' >"$d/linux/types.h"
	printf '#include <asm-generic/int-ll64.h>\n' >"$d/asm/types.h"
	printf '#ifndef _INT_LL64\n#define _INT_LL64\ntypedef unsigned char __u8;\ntypedef unsigned short __u16;\ntypedef unsigned int __u32;\ntypedef int __s32;\n__extension__ typedef unsigned long long __u64;\n#endif\n' >"$d/asm-generic/int-ll64.h"
	# one the compiler never sees on these ABIs: its __u64 must not be taken
	printf '#ifndef _INT_L64\n#define _INT_L64\ntypedef unsigned long __u64;\n#endif\n' >"$d/asm-generic/int-l64.h"
	cat >"$d/asm-generic/ioctl.h" <<'IOCTL'
#ifndef _ASM_GENERIC_IOCTL_H
#define _ASM_GENERIC_IOCTL_H
#define _IOC_NRBITS 8
#define _IOC_TYPEBITS 8
#define _IOC_SIZEBITS 14
#define _IOC_NRSHIFT 0
#define _IOC_TYPESHIFT (_IOC_NRSHIFT + _IOC_NRBITS)
#define _IOC_SIZESHIFT (_IOC_TYPESHIFT + _IOC_TYPEBITS)
#define _IOC_DIRSHIFT (_IOC_SIZESHIFT + _IOC_SIZEBITS)
#define _IOC_WRITE 1U
#define _IOC_READ 2U
#define _IOC(dir, type, nr, size) (((dir) << _IOC_DIRSHIFT) | ((type) << _IOC_TYPESHIFT) | ((nr) << _IOC_NRSHIFT) | ((size) << _IOC_SIZESHIFT))
#define _IOC_TYPECHECK(t) (sizeof(t))
#define _IOW(type, nr, size) _IOC(_IOC_WRITE, (type), (nr), (_IOC_TYPECHECK(size)))
#define _IOR(type, nr, size) _IOC(_IOC_READ, (type), (nr), (_IOC_TYPECHECK(size)))
#endif
IOCTL
	cat >"$d/linux/zz.h" <<'ZZ'
#ifndef _LINUX_ZZ_H
#define _LINUX_ZZ_H
#include <linux/types.h>
#include <asm-generic/ioctl.h>
struct zz_req { __u32 a; __u64 b; };
struct zz_long { unsigned long n; __u8 c; };
enum zz_state { ZZ_OFF, ZZ_ON = 4, ZZ_MAX = ZZ_ON + sizeof(long) };
#define ZZ_REQ_SIZE sizeof(struct zz_req)
#define ZZ_LONG_SIZE sizeof(struct zz_long)
#define ZZ_IOC_SET _IOW('z', 1, struct zz_req)
#define ZZ_IOC_GET _IOR('z', 2, struct zz_long)
#define ZZ_BIG (1UL << 31)
#define ZZ_NEG (-5)
#define ZZ_MASK (~0U >> 4)
ZZ
	printf '#endif\n' >>"$d/linux/zz.h"
	cat >"$d/linux/zz2.h" <<'ZZ2'
#include "zz.h"
#define ZZ2_SIZE sizeof(struct zz_req)
struct zz2 { __u32 a; __u64 b; };
#define ZZ2_OWN sizeof(struct zz2)
ZZ2
}

inst "$WORK/one"
for abi in x86_64:-m64 i386:-m32 x32:-mx32; do
	name=${abi%%:*}
	flag=${abi#*:}
	if ! echo 'int x;' | ${CC:-cc} "$flag" -fsyntax-only -x c - 2>/dev/null; then
		echo "cli-api-abi: ${CC:-cc} $flag cannot compile here: $name not checked"
		continue
	fi
	expect_status 0 "$UAPID" api-layout --values --json --abi "$name" "$WORK/one"
	cp "$WORK/out" "$WORK/values-$name.json"
	if python3 "$top_srcdir/tests/lib/values-check.py" "$WORK/values-$name.json" \
		"$WORK/one/include" "${CC:-cc}" "$flag" >"$WORK/check" 2>&1; then
		pass
	else
		fail "$name: values wrong: $(cat "$WORK/check")"
	fi
	# every constant was asked (none dropped as not evaluable): zz.h's, zz2.h's, ioctl.h's
	expect_in "$WORK/check" "$name: 21 constants checked (0 not integer constant expressions), 0 wrong"
done
# the text form names each constant with its header and line
expect_status 0 "$UAPID" api-layout --values --abi i386 "$WORK/one" linux/zz.h
expect_in "$WORK/out" "linux/zz.h:8: ZZ_REQ_SIZE = 12"
expect_in "$WORK/out" "linux/zz.h:13: ZZ_NEG = -5"
expect_in "$WORK/out" "linux/zz.h:12: ZZ_BIG = 2147483648"

# --arch all: two `install --arch all` directories (x86 and arm here); zz_long's
# member n becomes a __u32: the size moves on LP64 ABIs alone
for v in old new; do
	inst "$WORK/$v/x86"
	inst "$WORK/$v/arm"
done
for a in x86 arm; do
	sed -i 's/struct zz_long { unsigned long n;/struct zz_long { __u32 n;/' "$WORK/new/$a/include/linux/zz.h"
done
expect_status 1 "$UAPID" api-diff --arch all "$WORK/old" "$WORK/new"
expect_in "$WORK/out" "compared: 4 ABIs"
expect_re "$WORK/out" "^x86 (x86_64): .* [1-9][0-9]* breaking"
expect_re "$WORK/out" "^arm (arm): .* 0 breaking"
expect_re "$WORK/out" "^linux/zz.h:6: breaking: struct zz_long: member n: unsigned long -> unsigned int, size 8 -> 4; .*size 16 -> 8.* \[binary: breaking, source: [a-z]*\] \[on x86_64\]$"
expect_re "$WORK/out" "^linux/zz.h:6: review: struct zz_long: member n: unsigned long -> unsigned int (the same size and place: an integer of another signedness or enum) \[binary: [a-z]*, source: [a-z]*\] \[all but x86_64\]$"
expect_not_in "$WORK/out" "not compared"
expect_status 1 "$UAPID" api-diff --arch all --json "$WORK/old" "$WORK/new"
if python3 - "$WORK/out" <<'PY'; then pass; else fail "--arch all --json: not the shape"; fi
import json, sys
d = json.load(open(sys.argv[1]))
archs = {a["arch"]: [x["abi"] for x in a["abis"]] for a in d["architectures"]}
assert archs == {"x86": ["x86_64", "i386", "x32"], "arm": ["arm"]}, archs
br = [c for c in d["changes"] if c["verdict"] == "breaking"]
assert br and all(c["abis"] == ["x86_64"] for c in br), br
assert d["summary"]["breaking"] == len(br)
PY
# an architecture one side lacks is named; --abi with --arch all is refused
rm -r "$WORK/new/arm"
expect_status 1 "$UAPID" api-diff --arch all "$WORK/old" "$WORK/new"
expect_in "$WORK/out" "arm: not compared: new has no such architecture"
expect_status 2 "$UAPID" api-diff --arch all --abi i386 "$WORK/old" "$WORK/new"
expect_status 2 "$UAPID" api-diff --arch all "$WORK/one" "$WORK/one"
finish
