#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every man page renders with no groff warning (man --warnings: groff -ww).
. "${top_srcdir:-.}/tests/lib/lib.sh"
: "${top_builddir:=$(pwd)}"
if ! command -v man >/dev/null 2>&1; then
	fail "man is not installed: the man page test needs man-db (./test.sh installs it)"
	finish
	exit 1
fi
for p in uapid.1 uapictl.1 uapid-protocol.7 uapid@.service.8; do
	f=$top_builddir/doc/man/$p
	if [ ! -s "$f" ]; then
		fail "$p: not built"
		continue
	fi
	# man --warnings exits 0 when it warns: stderr decides
	MANWIDTH=80 man --warnings -l "$f" >"$WORK/out" 2>"$WORK/err" || true
	if [ -s "$WORK/err" ]; then
		fail "$p: warnings"
		sed 's/^/  | /' "$WORK/err" >&2
	elif [ ! -s "$WORK/out" ]; then
		fail "$p: renders empty"
	else
		pass
	fi
done
expect_in "$top_builddir/doc/man/uapid@.service.8" '.TH "uapid@.service"'
finish
