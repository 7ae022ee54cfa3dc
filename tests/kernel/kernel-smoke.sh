#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The real-kernel smoke of ./test.sh's default tier, on Debian's
# linux-source-6.1 (a minute where the full tier's kernel acceptance takes
# a quarter of an hour):
#  - `uapid install --arch x86` equals linux-libc-dev's /usr/include (the
#    package of the same version: 900-odd headers byte for byte);
#  - `uapid watch` on the tree gets ready (its first scan of the whole
#    tree), and its installed headers are those of `uapid install`, its
#    split/ that of `uapid split --output`, and its store says what is there
#    (storecheck.py); SIGTERM stops it with status 0;
#  - neither touches the tree (it is shared with the run's other stages).
# The tree comes from tests/kernel/kernel-lib.sh (test.sh extracts it once a run).
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/kernel/kernel-lib.sh"

K=$(kernel_tree 6.1)
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$K/Makefile" | paste -sd.)
echo "kernel tree: $version ($K)"
touch "$WORK/start"

# --- uapid install, against Debian's linux-libc-dev ----------------------------------
t0=$(date +%s)
expect_status 0 "$UAPID" install --arch x86 "$K" "$WORK/install"
tail -1 "$WORK/out"
echo "uapid install --arch x86: $(($(date +%s) - t0)) s"
rc=0
libc_dev_compare "$WORK/install" "$version" || rc=$?
case $rc in
0) pass ;;
1) fail "uapid install --arch x86 differs from linux-libc-dev" ;;
*) fail "linux-libc-dev $(dpkg-query -W -f='${Version}' linux-libc-dev 2>/dev/null) is not the tree's version: apt-get install linux-libc-dev linux-source-6.1 of one Debian release" ;;
esac

# --- uapid watch: ready on the whole tree, its outputs those of the batch commands -----
ARCH=x86
. "$top_srcdir/tests/lib/daemon-lib.sh"
S=$WORK/state D=$WORK/d.sock
t0=$(date +%s)
start_daemon "$K" "$S" "$D" || { finish; exit 1; }
echo "uapid watch: ready in $(($(date +%s) - t0)) s; $(grep -m1 'scan:' "$WORK/daemon.log" || :)"
wait_idle "$D"
rm -f "$WORK/install/.uapid-install"
if diff -r "$WORK/install/include" "$S/install/include" >"$WORK/diff" 2>&1; then pass; else
	fail "the daemon's install/include differs from uapid install"
	head -20 "$WORK/diff" >&2
fi
"$UAPID" split --output "$WORK/split" "$K" >/dev/null 2>&1 || true
mkdir -p "$WORK/split"
if diff -r "$WORK/split" "$S/split" >"$WORK/diff" 2>&1; then pass; else
	fail "the daemon's split/ differs from uapid split --output"
	head -20 "$WORK/diff" >&2
fi
if python3 "$top_srcdir/tests/lib/storecheck.py" "$K" "$S" >"$WORK/store" 2>&1; then pass; else
	fail "the store does not say what is there"
	head -20 "$WORK/store" >&2
fi
echo "uapid watch: $(find "$S/install/include" -type f | wc -l) installed headers, as uapid install"
stop_daemon

# --- the tree is as it was ----------------------------------------------------------
find "$K/" -newer "$WORK/start" >"$WORK/touched"
if [ -s "$WORK/touched" ]; then
	fail "the tree was written to"
	head "$WORK/touched" >&2
else
	pass
fi
finish
