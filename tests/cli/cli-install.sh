#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid install and uapid check on miniature trees (6.x: mini, 3.x: mini3x), with planted faults.
. "${top_srcdir:-.}/tests/lib/lib.sh"

T=$WORK/mini
cp -a "$top_srcdir/tests/trees/mini" "$T"
O=$WORK/hdr

# --- a clean install --------------------------------------------------------
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "installed 15 headers for x86"
expect_in "$WORK/out" "15 written"
printf '#include <asm-generic/errno.h>\n' >"$WORK/want"
expect_same "$O/include/asm/errno.h" "$WORK/want"
expect_no_file "$O/include/asm/unistd_generic.h"
expect_no_file "$O/include/linux/kvm.h"             # no asm/kvm.h on this arch
expect_in "$O/include/linux/version.h" "#define LINUX_VERSION_CODE 393727"   # sublevel capped at 255
expect_in "$O/include/linux/version.h" "#define LINUX_VERSION_SUBLEVEL 300"
expect_in "$O/include/asm/unistd_x32.h" "#define __NR_rt_sigaction (__X32_SYSCALL_BIT + 512)"
expect_not_in "$O/include/asm/unistd_x32.h" "__NR_open"
expect_not_in "$O/include/asm/unistd_64.h" "rt_sigaction"
expect_in "$O/include/asm/unistd_64.h" "#ifndef _ASM_UNISTD_64_H"
expect_not_in "$O/include/asm/unistd_64.h" "__NR_syscalls"
expect_in "$O/include/linux/mini.h" "void *buf;"
expect_in "$O/include/linux/mini.h" "} __attribute__((packed));"
expect_in "$O/include/linux/mini.h" "static __inline__ int mini_ok(void)"
expect_in "$O/include/linux/mini.h" "#if   defined(MINI_COMPAT)"
expect_not_in "$O/include/linux/mini.h" "mini_kernel"
expect_not_in "$O/include/linux/mini.h" "linux/compiler.h"
expect_in "$O/include/linux/mini_old.h" "CONFIG_MINI_LEGACY"    # grandfathered by the tree
expect_not_in "$O/include/linux/types.h" "#warning"
if find "$O" -name '*.uapid-*' ! -name .uapid-install | grep -q .; then fail "temporary files left"; else pass; fi

# --- nothing changed: nothing written, mtimes kept ------------------------------
stamp=$(stat -c %Y.%N "$O/include/linux/mini.h")
sleep 1
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "0 written, 15 unchanged, 0 removed"
[ "$stamp" = "$(stat -c %Y.%N "$O/include/linux/mini.h")" ] && pass || fail "unchanged file rewritten"
# a changed source: only that file is written; a gone source: its output goes
printf '#define MINI_EXTRA 1\n' >>"$T/include/uapi/linux/mini_old.h"
rm "$T/include/uapi/linux/mini_untestable.h"
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "1 written, 13 unchanged, 1 removed"
expect_in "$O/include/linux/mini_old.h" "MINI_EXTRA"
expect_no_file "$O/include/linux/mini_untestable.h"
# an installed file edited by hand is put back
echo "/* edited */" >>"$O/include/linux/mini.h"
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "1 written"
expect_not_in "$O/include/linux/mini.h" "edited"

# --- another architecture: generic-y wrappers, no syscall tables --------------
expect_status 0 "$UAPID" install --arch arm64 "$T" "$WORK/hdr-arm64"
printf '#include <asm-generic/kvm_para.h>\n' >"$WORK/want"
expect_same "$WORK/hdr-arm64/include/asm/kvm_para.h" "$WORK/want"
expect_no_file "$WORK/hdr-arm64/include/asm/unistd_64.h"

# --- the 6.11+ form: syscall-y, made by scripts/Makefile.asm-headers ----------
expect_status 0 "$UAPID" install --arch riscv "$T" "$WORK/hdr-riscv"
expect_in "$WORK/out" "installed 12 headers for riscv"   # mini_untestable.h is gone (above)
# --abis common,64,riscv, table order, the __NR_syscalls block gone with __KERNEL__
cat >"$WORK/want" <<'EOF'
#ifndef _ASM_UNISTD_64_H
#define _ASM_UNISTD_64_H

#define __NR_setup 0
#define __NR_wait 3
#define __NR_read 20
#define __NR_flush_icache 30
#define __NR_late_low 12


#endif /* _ASM_UNISTD_64_H */
EOF
expect_same "$WORK/hdr-riscv/include/asm/unistd_64.h" "$WORK/want"
printf '#include <asm-generic/unistd.h>\n' >"$WORK/want"
expect_same "$WORK/hdr-riscv/include/asm/unistd.h" "$WORK/want"

# --- what the top Makefile says about ARCH ----------------------------------------
expect_status 2 "$UAPID" install --arch um "$T" "$WORK/hdr-um"
expect_in "$WORK/err" "Makefile:41: Headers not exportable for UML"
expect_no_file "$WORK/hdr-um/include"
expect_status 0 "$UAPID" install --arch i386 "$T" "$WORK/hdr-i386"
expect_in "$WORK/out" "installed 14 headers for x86"   # likewise
if diff -r -x .uapid-install "$O" "$WORK/hdr-i386" >"$WORK/diff" 2>&1; then pass; else
	fail "ARCH=i386 differs from ARCH=x86"; sed 's/^/  | /' "$WORK/diff" >&2
fi

# --- generated headers the tree's Makefiles and tables do not allow ------------------
M=$WORK/mini-norule
cp -a "$top_srcdir/tests/trees/mini" "$M"
echo 'generated-y += unistd_foo.h' >>"$M/arch/x86/include/uapi/asm/Kbuild"
expect_status 1 "$UAPID" install --arch x86 "$M" "$WORK/hdr-norule"
expect_in "$WORK/err" "no rule makes arch/x86/include/generated/uapi/asm/unistd_foo.h"
expect_in "$WORK/out" "1 failed"
expect_file "$WORK/hdr-norule/include/asm/unistd_64.h"
expect_no_file "$WORK/hdr-norule/include/asm/unistd_foo.h"
M=$WORK/mini-badline
cp -a "$top_srcdir/tests/trees/mini" "$M"
printf 'oops\tcommon\tbad\tsys_bad\n' >>"$M/arch/x86/entry/syscalls/syscall_64.tbl"
expect_status 1 "$UAPID" install --arch x86 "$M" "$WORK/hdr-badline"
expect_in "$WORK/err" "arch/x86/entry/syscalls/syscall_64.tbl:6: error: "
expect_in "$WORK/out" "2 failed"                     # unistd_64.h and unistd_x32.h
expect_file "$WORK/hdr-badline/include/asm/unistd_32.h"
expect_no_file "$WORK/hdr-badline/include/asm/unistd_64.h"
M=$WORK/mini-noabi
cp -a "$top_srcdir/tests/trees/mini" "$M"
echo 'syscall_abis_64 += nosuch' >>"$M/arch/riscv/kernel/Makefile.syscalls"
expect_status 0 "$UAPID" install --arch riscv "$M" "$WORK/hdr-noabi"
expect_in "$WORK/err" "scripts/syscall.tbl: note: ABI 'nosuch' of unistd_64.h names no line of the table"
expect_same "$WORK/hdr-noabi/include/asm/unistd_64.h" "$WORK/hdr-riscv/include/asm/unistd_64.h"

# --- the clean tree passes the checks -------------------------------------------
expect_status 0 "$UAPID" check --arch x86 "$T"
expect_in "$WORK/out" "0 errors"
expect_in "$WORK/out" "excluded by no-header-test"

# --- planted faults: each reported with its file and line ----------------------
cp "$top_srcdir"/tests/trees/faults/*.h "$T/include/uapi/linux/"
expect_status 1 "$UAPID" install --arch x86 "$T" "$WORK/hdr-faulty"
expect_in "$WORK/err" "include/uapi/linux/mini_leak.h:5: error: leaks CONFIG_MINI_DEBUG to user space"
expect_in "$WORK/err" "include/uapi/linux/mini_nonote.h:1: error: missing \"WITH Linux-syscall-note\" for SPDX-License-Identifier"
expect_not_in "$WORK/err" "CONFIG_IN_A_COMMENT"
expect_no_file "$WORK/hdr-faulty/include/linux/mini_leak.h"
expect_file "$WORK/hdr-faulty/include/linux/mini.h"
expect_status 1 "$UAPID" check --arch x86 --jobs 2 "$T"
expect_in "$WORK/err" "include/uapi/linux/mini_leak.h:5: error: leaks CONFIG_MINI_DEBUG"
expect_in "$WORK/err" "include/uapi/linux/mini_nonote.h:1: error: missing \"WITH Linux-syscall-note\""
expect_in "$WORK/err" "include/uapi/linux/mini_badinc.h:6: error: included file 'linux/not_exported.h' is not exported"
expect_in "$WORK/err" "include/uapi/linux/mini_broken.h:9: error: does not compile alone:"
expect_in "$WORK/err" "include/uapi/linux/mini_kernelonly.h:10: error: uses MINI_MAX, which this header defines only under __KERNEL__ (line 6)"
expect_status 2 "$UAPID" check --arch x86 --json "$WORK/no-such-tree"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert "No such file or directory" in r["error"], r' \
	"$WORK/out" && pass || fail "check --json: the failure as JSON"
expect_status 1 "$UAPID" check --arch x86 --json "$T"
python3 - "$WORK/out" <<'PY' && pass || fail "check --json output"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["arch"] == "x86" and o["errors"] >= 5, o
paths = {f["path"]: f["diagnostics"] for f in o["files"]}
assert paths["include/uapi/linux/mini_broken.h"][0]["line"] == 9
assert paths["include/uapi/linux/mini_badinc.h"][0]["severity"] == "error"
PY

# --- a 3.x tree: headers_install.pl, lists read by Makefile.headersinst -----------
T3=$WORK/mini3x
cp -a "$top_srcdir/tests/trees/mini3x" "$T3"
O3=$WORK/hdr3x
expect_status 0 "$UAPID" install --arch x86 "$T3" "$O3"
expect_in "$WORK/out" "installed 10 headers for x86"
(cd "$O3/include" && find . -name '*.h' | LC_ALL=C sort) >"$WORK/got"
cat >"$WORK/want" <<'EOF'
./asm-generic/errno.h
./asm-generic/types.h
./asm/errno.h
./asm/posix_types.h
./asm/unistd_64.h
./linux/legacy.h
./linux/mini3.h
./linux/oldonly.h
./linux/types.h
./linux/version.h
EOF
expect_same "$WORK/got" "$WORK/want"
printf '#define LINUX_VERSION_CODE 198656\n#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n' >"$WORK/want"
expect_same "$O3/include/linux/version.h" "$WORK/want"
# the 3.x generator: sorted, "#define GUARD 1", no __NR_syscalls
cat >"$WORK/want" <<'EOF'
#ifndef _ASM_X86_UNISTD_64_H
#define _ASM_X86_UNISTD_64_H 1

#define __NR_read 0
#define __NR_write 1
#define __NR_open 2

#endif /* _ASM_X86_UNISTD_64_H */
EOF
expect_same "$O3/include/asm/unistd_64.h" "$WORK/want"
printf '#include <asm-generic/errno.h>\n' >"$WORK/want"
expect_same "$O3/include/asm/errno.h" "$WORK/want"     # generic-y that is also header-y
expect_no_file "$O3/include/asm/clkdev.h"               # generic-y alone: no wrapper
expect_in "$O3/include/linux/oldonly.h" "MINI3_OLDONLY" # from include/linux (old Kbuild)
# the Perl edits: __user (and, by \s, the newline after it), inline, asm, volatile, __packed
cat >"$WORK/want" <<'EOF'
#ifndef _LINUX_MINI3_H
#define _LINUX_MINI3_H


#include <linux/types.h>

struct mini3_req {
	void *buf;
	char 		*name;
	__u32 len;
} __attribute__((packed));

static __inline__ int mini3_ok(void) { __asm__ __volatile__("" ::: "memory"); return 1; }


#endif /* _LINUX_MINI3_H */
EOF
expect_same "$O3/include/linux/mini3.h" "$WORK/want"
expect_in "$O3/include/linux/legacy.h" "#ifdef CONFIG_MINI3_LEGACY"   # no leak check in 3.x
expect_not_in "$WORK/err" "CONFIG_"
expect_status 0 "$UAPID" install --arch x86 "$T3" "$O3"
expect_in "$WORK/out" "0 written, 10 unchanged, 0 removed"
expect_status 2 "$UAPID" install --arch um "$T3" "$WORK/hdr3x-um"
expect_in "$WORK/err" "Makefile:37: Headers not exportable for the um architecture"
# a header-y with no file: the Makefile's own $(error)
echo 'header-y += missing.h' >>"$T3/include/uapi/linux/Kbuild"
expect_status 2 "$UAPID" install --arch x86 "$T3" "$WORK/hdr3x-missing"
expect_in "$WORK/err" "scripts/Makefile.headersinst:36: error: Missing UAPI file ./include/uapi/linux/missing.h"
expect_no_file "$WORK/hdr3x-missing/include"

# --- before the split: 2.6.32, 2.6.35 and 3.6 trees (headers_install.pl with a read
# directory, each with the unifdef of its scripts/unifdef.c) --------------------------
# tests/expected/presplit/NAME/ARCH is what the real tree of that version's own make
# headers_install wrote for the fixture (tests/trees/derive-presplit.sh).
for t in mini2632 mini2635 mini36; do
	E=$top_srcdir/tests/expected/presplit/$t
	for d in "$E"/*/; do
		a=$(basename "$d")
		expect_status 0 "$UAPID" install --arch "$a" "$top_srcdir/tests/trees/$t" "$WORK/$t-$a"
		if diff -r -x .uapid-install "$E/$a" "$WORK/$t-$a/include" >"$WORK/diff" 2>&1; then pass; else
			fail "$t $a: differs from the kernel's make headers_install"
			sed 's/^/  | /' "$WORK/diff" >&2
		fi
	done
	# what make refused there, uapid refuses with make's reason
	expect_in "$E/REFUSED" "um: Makefile:"
	expect_status 2 "$UAPID" install --arch um "$top_srcdir/tests/trees/$t" "$WORK/$t-um"
	expect_in "$WORK/err" "Headers not exportable for the um architecture"
	expect_no_file "$WORK/$t-um/include"
	# --arch all: the same trees, um refused
	expect_status 0 "$UAPID" install --arch all "$top_srcdir/tests/trees/$t" "$WORK/$t-all"
	expect_in "$WORK/out" "Headers not exportable for the um architecture"
	if diff -r -x .uapid-install "$E/x86" "$WORK/$t-all/x86/include" >"$WORK/diff" 2>&1; then pass; else
		fail "$t --arch all: x86 differs"
		sed 's/^/  | /' "$WORK/diff" >&2
	fi
done
# the 2.6 trees: m68knommu installs m68k's asm (the top Makefile's hdr-arch)
expect_same "$top_srcdir/tests/expected/presplit/mini2635/m68k/asm/types.h" \
	"$WORK/mini2635-m68knommu/include/asm/types.h"
# how the unifdefs differ on the same header: 1.171 keeps what it cannot read to the end
expect_in "$WORK/mini2632-x86/include/linux/mini2632.h" "#if defined(__KERNEL__) && MINI_LEVEL >= 2"
expect_not_in "$WORK/mini2635-x86/include/linux/mini2635.h" "MINI_LEVEL"
expect_in "$WORK/mini2635-x86/include/linux/mini2635.h" "} __packed;"          # no __packed edit
expect_in "$WORK/mini36-x86/include/linux/mini36.h" "} __attribute__((packed));" # 3.x has it
expect_in "$WORK/mini36-x86/include/linux/kvm_para.h" "_LINUX_KVM_PARA_H"       # asm-generic's, seen in INSTALL_HDR_PATH
# an architecture whose asm/Kbuild installs nothing (3.6's um: generic-y only): make
# still makes include/asm, empty, and so does uapid (diff -r sees directories)
P=$WORK/presplit36
cp -a "$top_srcdir/tests/trees/mini36" "$P"
chmod -R u+w "$P"
mkdir -p "$P/arch/um/include/asm"
echo 'generic-y += errno.h' >"$P/arch/um/include/asm/Kbuild"
expect_status 0 "$UAPID" install --arch um "$P" "$WORK/presplit36-um"
[ -d "$WORK/presplit36-um/include/asm" ] && [ -z "$(ls -A "$WORK/presplit36-um/include/asm")" ] &&
	pass || fail "3.6 um: no empty include/asm as make makes"
expect_file "$WORK/presplit36-um/include/linux/mini36.h"

P=$WORK/presplit
cp -a "$top_srcdir/tests/trees/mini2635" "$P"
chmod -R u+w "$P"
# a vendor's extra edit in the script: refused, naming the script and the line
sed 's/^\(\t\t\$line =~ s.(^|\\s)(inline)\)/\t\t$line =~ s\/__NR_64_\/__NR_\/g;\n\1/' \
	"$top_srcdir/tests/trees/mini2635/scripts/headers_install.pl" >"$P/scripts/headers_install.pl"
expect_status 2 "$UAPID" install --arch x86 "$P" "$WORK/presplit-out"
expect_in "$WORK/err" "scripts/headers_install.pl: not a version of the script uapid reproduces"
expect_in "$WORK/err" "an edit uapid does not reproduce: \$line =~ s/__NR_64_/__NR_/g;"
expect_no_file "$WORK/presplit-out/include"
cp "$top_srcdir/tests/trees/mini2635/scripts/headers_install.pl" "$P/scripts/"
# a unifdef uapid does not know
printf 'static const char id[] = "$Version: unifdef-2.12 $";\n' >"$P/scripts/unifdef.c"
expect_status 2 "$UAPID" install --arch x86 "$P" "$WORK/presplit-out"
expect_in "$WORK/err" "scripts/unifdef.c: not a unifdef uapid reproduces"
cp "$top_srcdir/tests/trees/mini2635/scripts/unifdef.c" "$P/scripts/"
# a listed header that is not there: make has no rule for it, and stops
echo 'header-y += missing.h' >>"$P/include/linux/Kbuild"
expect_status 2 "$UAPID" install --arch x86 "$P" "$WORK/presplit-out"
expect_in "$WORK/err" "No rule to make target 'include/linux/missing.h'"
cp "$top_srcdir/tests/trees/mini2635/include/linux/Kbuild" "$P/include/linux/"
# a listed directory without its Kbuild (cris in 2.6.35 and 3.6): make's words
echo 'header-y += arch-v10/' >>"$P/arch/x86/include/asm/Kbuild"
expect_status 2 "$UAPID" install --arch x86 "$P" "$WORK/presplit-out"
expect_in "$WORK/err" "arch/x86/include/asm/arch-v10/Kbuild: No such file or directory"
cp "$top_srcdir/tests/trees/mini2635/arch/x86/include/asm/Kbuild" "$P/arch/x86/include/asm/"
# a header unifdef fails on: 2.6.x's script installed what unifdef wrote before it
# stopped; uapid installs the rest and names the one it will not truncate
printf '#ifdef __KERNEL__\nint k;\n' >"$P/include/linux/types.h"
expect_status 1 "$UAPID" install --arch x86 "$P" "$WORK/presplit-out"
expect_in "$WORK/err" "include/linux/types.h"
expect_in "$WORK/err" "ignores unifdef's failure"
expect_file "$WORK/presplit-out/include/linux/mini2635.h"

# --- bad input ---------------------------------------------------------------------
expect_status 2 "$UAPID" install --arch x86 "$WORK/no-tree" "$O"
expect_in "$WORK/err" "no-tree: No such file or directory"
expect_status 2 "$UAPID" install --arch frob "$T" "$O"
expect_in "$WORK/err" "arch/frob/Makefile: No such file or directory (ARCH=frob)"
expect_status 2 "$UAPID" install "$T"
expect_status 2 "$UAPID" check
if [ "$(id -u)" = 0 ]; then runas="setpriv --reuid=65534 --regid=65534 --clear-groups"; else runas=""; fi
mkdir -p "$WORK/ro" && chmod 555 "$WORK/ro"
expect_status 2 $runas "$UAPID" install --arch x86 "$T" "$WORK/ro/out"
expect_in "$WORK/err" "cannot create directory: Permission denied"
chmod 755 "$WORK/ro"
# a stale header that cannot be removed, a record that cannot be written: said, counted
if [ -n "$runas" ]; then
	P=$WORK/perm
	mkdir -p "$P/include"
	expect_status 1 "$UAPID" install --arch x86 "$T" "$P" # the tree's two planted faults
	rm "$P/.uapid-install"
	mkdir -p "$P/include/stale"
	printf '/* stale */\n' >"$P/include/stale/old.h"
	chown -R 65534:65534 "$P/include"
	chown 65534:65534 "$P/include/stale/old.h"
	chown root:root "$P/include/stale" && chmod 755 "$P/include/stale"
	chmod 755 "$WORK" && chown root:root "$P" && chmod 755 "$P"
	expect_status 1 $runas "$UAPID" install --arch x86 "$T" "$P"
	expect_in "$WORK/err" "stale/old.h: error: stale header not removed"
	expect_in "$WORK/err" "the next run cannot skip unchanged headers"
	expect_in "$WORK/out" "installed 17 headers for x86"
	expect_in "$WORK/out" "2 failed, 1 stale not removed, not recorded"
	expect_file "$P/include/stale/old.h"
fi

# --- every architecture the tree exports (tested last) -----------------------------
A=$WORK/mini-all
cp -a "$top_srcdir/tests/trees/mini" "$A"
expect_status 0 "$UAPID" install --arch all "$A" "$WORK/hdr-all"
expect_in "$WORK/out" "installed 13 headers for arm64 in $WORK/hdr-all/arm64/include"
expect_in "$WORK/out" "installed 13 headers for riscv in $WORK/hdr-all/riscv/include"
expect_in "$WORK/out" "installed 15 headers for x86 in $WORK/hdr-all/x86/include"
expect_in "$WORK/out" "um: not exported: "
expect_in "$WORK/out" "Headers not exportable for UML"
# the first line says what TREE is (issue 39), then one line per architecture and a total
head -1 "$WORK/out" | grep -q "^tree: $A (split source tree, Linux " && pass || fail "--arch all: no first line"
[ "$(wc -l <"$WORK/out")" -eq 6 ] && pass || fail "--arch all: not one line per architecture and a total"
expect_no_file "$WORK/hdr-all/um"
expect_status 0 "$UAPID" install --arch x86 "$A" "$WORK/hdr-all-x86"
if diff -r -x .uapid-install "$WORK/hdr-all/x86" "$WORK/hdr-all-x86" >"$WORK/diff" 2>&1; then pass; else
	fail "--arch all: x86 differs from --arch x86"; sed 's/^/  | /' "$WORK/diff" >&2
fi
expect_status 0 "$UAPID" install --arch all "$top_srcdir/tests/trees/mini3x" "$WORK/hdr3x-all"
expect_in "$WORK/out" "installed 10 headers for x86 in $WORK/hdr3x-all/x86/include"
expect_in "$WORK/out" "Headers not exportable for the um architecture"

finish
