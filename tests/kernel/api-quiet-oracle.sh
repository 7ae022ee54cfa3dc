#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The diff's shortcut (src/api/api-quiet.c: symbols it cannot see change are
# left as read) against resolving every symbol (UAPID_RESOLVE_ALL=1), on real
# kernels (the full tier; not part of make check): Debian's linux-source-6.1
# and 6.12 installed for every architecture, ten ABIs of every kind of layout,
# each 6.1 -> 6.12 and 6.12 against itself with planted edits, both ways, and
# `api-diff --arch all`: the same changes, but for values of the same text
# that one version computed on the way (tests/kernel/api-quiet-oracle.py).
# The trees: $UD_KERNEL_61 and $UD_KERNEL_612 when set (kernel trees, read
# only), else Debian's /usr/src/linux-source-6.1.tar.xz and 6.12 (kernel-lib.sh).
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/kernel/kernel-lib.sh"

command -v python3 >/dev/null || { echo "api-quiet-oracle: python3 missing" >&2; exit 77; }

K61=${UD_KERNEL_61:-$(kernel_tree 6.1)} || exit 2
K612=${UD_KERNEL_612:-$(kernel_tree 6.12)} || exit 2
if python3 "$top_srcdir/tests/kernel/api-quiet-oracle.py" --uapid "$UAPID" "$WORK" "$K61" "$K612"; then
	pass
else
	fail "api-diff with and without its shortcut differ (above)"
fi
finish
