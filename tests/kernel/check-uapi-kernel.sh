#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid check-uapi beside the kernel's own scripts/check-uapi.sh (6.12's,
# which needs abidiff: abigail-tools) on a git repository of the 6.1 tree
# with planted userspace API changes (the full tier; not part of make check).
#
# The repository holds what `make headers_install` reads (Makefile,
# scripts/, include/, arch/x86/, usr/, tools/include/): the script's own
# steps (git archive, make headers_install, the no-header-test list, a
# compile and abidiff of every header the past ref installs) are unchanged
# by that, on a tenth of the tree's files.  One commit plants:
#   - struct uinput_setup.ff_effects_max __u32 -> __u16, struct
#     sockaddr_alg.salg_mask removed, linux/ppdev.h removed: breaks both
#     tools see;
#   - struct open_how grown at its end (what -i ignores);
#   - EPOLL_CTL_ADD 1 -> 4 and UI_DEV_CREATE's ioctl number 1 -> 11: macros,
#     which no DWARF holds;
#   - V4L2_FIELD_NONE 1 -> 9 in linux/videodev2.h, a header the script never
#     checks (usr/include/Makefile's no-header-test list);
#   - INSN_CONFIG_BLOCK_SIZE 22 -> 23, KFD_SMI_EVENT_MIGRATE_END 6 -> 16:
#     enumerators the script's suppressions (*_SIZE, *_END) hide from
#     abidiff 2.4; Debian 12's abidiff 2.2 ignores that kind of suppression
#     and reports them.
# Checked: both exit 1; every header the script reports (a break or a
# removal), uapid reports; uapid reports all eight planted headers; the
# script reports the three plain breaks and neither the macros' header nor
# videodev2.h.  Printed: what each reports, the script's compile failures
# (not API differences), the time of each (figures, never asserted).
# UD_CHECK_UAPI_OUT=DIR keeps both outputs there.
. "${top_srcdir:-.}/tests/lib/lib.sh"

K61=${UD_KERNEL_61:?the 6.1 tree: UD_KERNEL_61}
SCRIPT=${UD_KERNEL_612:?the 6.12 tree: UD_KERNEL_612}/scripts/check-uapi.sh
JOBS=${JOBS:-2}
command -v abidiff >/dev/null || { fail "abidiff not installed (abigail-tools)"; finish; }
# The script wants abidiff 2.4 or later; Debian 12 has 2.2, which takes the
# script's suppression file (bench/api-oracle.sh runs it with it too) but
# not its changed_enumerators_regexp: ABIDIFF is Debian's abidiff, saying
# 2.4 when asked its version.
ABIDIFF=$WORK/abidiff
printf '#!/bin/sh
[ "$1" = --version ] && { echo "abidiff 2.4.0 (%s)"; exit 0; }
exec abidiff "$@"
' \
	"$(abidiff --version)" >"$ABIDIFF"
chmod +x "$ABIDIFF"
export ABIDIFF
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=C
export GIT_COMMITTER_EMAIL=c@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$WORK

R=$WORK/linux
mkdir -p "$R"
for p in Makefile .gitignore scripts include arch/x86 usr tools/include; do
	mkdir -p "$R/$(dirname "$p")"
	cp -R "$K61/$p" "$R/$p"
done
chmod -R u+w "$R"
git -C "$R" init -q -b master && git -C "$R" add -A -f && git -C "$R" commit -q -m "v6.1, what headers_install reads"

U=$R/include/uapi/linux
sed -i '70s/__u32 ff_effects_max;/__u16 ff_effects_max;/' "$U/uinput.h"
sed -i '/^\t__u32\tsalg_mask;$/d' "$U/if_alg.h"
sed -i 's/^\t__u64 resolve;$/\t__u64 resolve;\n\t__u64 planted;/' "$U/openat2.h"
git -C "$R" rm -q include/uapi/linux/ppdev.h
sed -i 's/^#define EPOLL_CTL_ADD 1$/#define EPOLL_CTL_ADD 4/' "$U/eventpoll.h"
sed -i 's/^#define UI_DEV_CREATE\t\t_IO(UINPUT_IOCTL_BASE, 1)$/#define UI_DEV_CREATE\t\t_IO(UINPUT_IOCTL_BASE, 11)/' "$U/uinput.h"
sed -i 's/INSN_CONFIG_BLOCK_SIZE = 22,/INSN_CONFIG_BLOCK_SIZE = 23,/' "$U/comedi.h"
sed -i 's/KFD_SMI_EVENT_MIGRATE_END = 6,/KFD_SMI_EVENT_MIGRATE_END = 16,/' "$U/kfd_ioctl.h"
sed -i 's/^\tV4L2_FIELD_NONE          = 1,/\tV4L2_FIELD_NONE          = 9,/' "$U/videodev2.h"
grep -q 'V4L2_FIELD_NONE          = 9,' "$U/videodev2.h" && pass || fail "V4L2_FIELD_NONE not planted"
git -C "$R" commit -q -a -m "planted userspace API changes"
n=$(git -C "$R" diff --stat HEAD^1 HEAD | tail -1)
echo "planted: $n"

# headers each one reports: "==== ABI differences detected in H from", "==== UAPI header H was removed"
reported() {
	sed -n -e 's/^==== ABI differences detected in \([^ ]*\) from .*/\1/p' \
		-e 's/^==== UAPI header \([^ ]*\) was removed .*/\1/p' "$1" | sed 's|^include/||' | sort -u
}

set +e
t0=$(date +%s%N)
(cd "$R" && ARCH=x86 KERNEL_SRC=$R bash "$SCRIPT" -j "$JOBS") >"$WORK/script.out" 2>"$WORK/script.err"
src=$?
t1=$(date +%s%N)
(cd "$R" && ARCH=x86 "$UAPID" check-uapi -j "$JOBS") >"$WORK/uapid.out" 2>"$WORK/uapid.err"
urc=$?
t2=$(date +%s%N)
set -e
# make headers_install wrote build products into the tree (untracked): the tree stays clean
[ "$src" = 1 ] && pass || { fail "check-uapi.sh exit $src (want 1)"; tail -20 "$WORK/script.err" >&2; }
[ "$urc" = 1 ] && pass || { fail "uapid check-uapi exit $urc (want 1)"; tail -20 "$WORK/uapid.err" >&2; }
reported "$WORK/script.err" >"$WORK/script.h"
reported "$WORK/uapid.err" >"$WORK/uapid.h"
missing=$(comm -23 "$WORK/script.h" "$WORK/uapid.h")
[ -z "$missing" ] && pass || fail "reported by check-uapi.sh, not by uapid: $missing"
for h in linux/uinput.h linux/if_alg.h linux/ppdev.h; do
	grep -qx "$h" "$WORK/script.h" && pass || fail "check-uapi.sh does not report $h"
done
for h in linux/eventpoll.h linux/videodev2.h; do
	grep -qx "$h" "$WORK/script.h" && fail "check-uapi.sh reports $h (it was not to see it)" || pass
done
for h in linux/uinput.h linux/if_alg.h linux/ppdev.h linux/openat2.h linux/eventpoll.h \
	linux/videodev2.h linux/comedi.h linux/kfd_ioctl.h; do
	grep -qx "$h" "$WORK/uapid.h" && pass || fail "uapid check-uapi does not report $h"
done
for s in "macro EPOLL_CTL_ADD: replacement 1 -> 4" "macro UI_DEV_CREATE" "V4L2_FIELD_NONE" \
	"INSN_CONFIG_BLOCK_SIZE" "KFD_SMI_EVENT_MIGRATE_END" "struct open_how: grew at its end"; do
	expect_in "$WORK/uapid.err" "$s"
done
# compile failures the script reports are not API differences: listed, not compared
grep '^==== Could not compile' "$WORK/script.err" | sed 's/^/  check-uapi.sh: /' || true
echo "check-uapi.sh reports: $(tr '\n' ' ' <"$WORK/script.h")"
echo "uapid check-uapi reports: $(tr '\n' ' ' <"$WORK/uapid.h")"
echo "check-uapi.sh: $(wc -l <"$WORK/script.h") headers reported, exit $src, $(((t1 - t0) / 1000000)) ms"
echo "uapid check-uapi: $(wc -l <"$WORK/uapid.h") headers reported, exit $urc, $(((t2 - t1) / 1000000)) ms"
echo "only uapid: $(comm -13 "$WORK/script.h" "$WORK/uapid.h" | tr '\n' ' ')"
if [ -n "${UD_CHECK_UAPI_OUT:-}" ]; then
	mkdir -p "$UD_CHECK_UAPI_OUT"
	cp "$WORK/script.out" "$WORK/script.err" "$WORK/uapid.out" "$WORK/uapid.err" "$UD_CHECK_UAPI_OUT/"
fi
tail -1 "$WORK/script.err"
tail -1 "$WORK/uapid.err"
finish
