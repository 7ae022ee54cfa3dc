#!/bin/sh
# uapid install and uapid check on a miniature tree, with planted faults.
. "${top_srcdir:-.}/tests/lib.sh"

T=$WORK/mini
cp -a "$top_srcdir/tests/trees/mini" "$T"
O=$WORK/hdr

# --- a clean install --------------------------------------------------------
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "installed 14 headers for x86"
expect_in "$WORK/out" "14 written"
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
expect_in "$WORK/out" "0 written, 14 unchanged, 0 removed"
[ "$stamp" = "$(stat -c %Y.%N "$O/include/linux/mini.h")" ] && pass || fail "unchanged file rewritten"
# a changed source: only that file is written; a gone source: its output goes
printf '#define MINI_EXTRA 1\n' >>"$T/include/uapi/linux/mini_old.h"
rm "$T/include/uapi/linux/mini_untestable.h"
expect_status 0 "$UAPID" install --arch x86 "$T" "$O"
expect_in "$WORK/out" "1 written, 12 unchanged, 1 removed"
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
expect_status 1 "$UAPID" check --arch x86 --json "$T"
python3 - "$WORK/out" <<'PY' && pass || fail "check --json output"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["arch"] == "x86" and o["errors"] >= 5, o
paths = {f["path"]: f["diagnostics"] for f in o["files"]}
assert paths["include/uapi/linux/mini_broken.h"][0]["line"] == 9
assert paths["include/uapi/linux/mini_badinc.h"][0]["severity"] == "error"
PY

# --- bad input ---------------------------------------------------------------------
expect_status 2 "$UAPID" install --arch x86 "$WORK/no-tree" "$O"
expect_in "$WORK/err" "no-tree: No such file or directory"
expect_status 2 "$UAPID" install --arch frob "$T" "$O"
expect_in "$WORK/err" "frob: no such architecture in this tree"
expect_status 2 "$UAPID" install "$T"
expect_status 2 "$UAPID" check
if [ "$(id -u)" = 0 ]; then runas="setpriv --reuid=65534 --regid=65534 --clear-groups"; else runas=""; fi
mkdir -p "$WORK/ro" && chmod 555 "$WORK/ro"
expect_status 2 $runas "$UAPID" install --arch x86 "$T" "$WORK/ro/out"
expect_in "$WORK/err" "cannot create directory: Permission denied"
chmod 755 "$WORK/ro"

finish
